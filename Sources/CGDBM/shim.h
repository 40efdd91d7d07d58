#ifndef WX_CGDBM_SHIM_H
#define WX_CGDBM_SHIM_H
#include <gdbm.h>
#include <stdlib.h>
/* malloc_trim: a catalogue writer hands freed memory back between its passes; mallopt: a
   sync gives large arrays pages of their own (Home.sync). */
#include <malloc.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
/* renameat2(RENAME_EXCHANGE), which glibc declares only under _GNU_SOURCE: swaps two names in
   one step (`wx doctor --repair` puts back two store files swapped with each other). */
static inline int wx_exchange(const char *a, const char *b) {
  return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, 2 /* RENAME_EXCHANGE */);
}
#endif
