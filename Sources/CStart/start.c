#include "wxstart.h"

#include <stddef.h>

/*
 * The Swift runtime asks for the command line through _swift_stdlib_getUnsafeArgvArgc. Its
 * own definition, linked statically (libswiftCore.a's CommandLine.cpp.o), finds argv at every
 * start by reading /proc/self/maps with sscanf, 49 lines, to locate the stack and walk back
 * from `environ`: 0.1 M instructions and four system calls, 3 % of `wx search par`. glibc
 * calls each .init_array function with argc, argv and envp (it has since 1999: the ELF start-up
 * of csu/libc-start.c), so wx keeps them from there, and defines the two functions the object
 * defines: the linker then never pulls that object in. Were a new runtime to need it for
 * another symbol, the link would fail on the duplicate, never run with two definitions.
 */

static char **wx_argv;
static int wx_argc;
static char **wx_override_argv;
static int wx_override_argc;

static void wx_keep_arguments(int argc, char **argv, char **envp) {
  (void)envp;
  wx_argc = argc;
  wx_argv = argv;
}

__attribute__((used, section(".init_array"))) static void (*const wx_keep)(int, char **, char **) =
    wx_keep_arguments;

/* As the runtime declares them: the Swift calling convention. */
__attribute__((swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen);
__attribute__((swiftcall)) void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc);

__attribute__((swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
  static char *empty[] = {NULL};
  if (wx_override_argv) {
    *outArgLen = wx_override_argc;
    return wx_override_argv;
  }
  if (!wx_argv) {
    *outArgLen = 0;
    return empty;
  }
  *outArgLen = wx_argc;
  return wx_argv;
}

__attribute__((swiftcall)) void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) {
  wx_override_argv = argv;
  wx_override_argc = argc;
}
