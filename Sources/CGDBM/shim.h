#ifndef WX_CGDBM_SHIM_H
#define WX_CGDBM_SHIM_H
#include <gdbm.h>
#include <stdlib.h>
/* malloc_trim: a catalogue writer hands freed memory back between its passes; mallopt: a
   sync gives large arrays pages of their own (SyncService). */
#include <malloc.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
/* renameat2(RENAME_EXCHANGE), which glibc declares only under _GNU_SOURCE: swaps two names in
   one step (`wx doctor --repair` puts back two store files swapped with each other). */
static inline int wx_exchange(const char *a, const char *b) {
  return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, 2 /* RENAME_EXCHANGE */);
}
/* One byte changed atomically, for a flag a signal handler and a thread both change (a temp
   file being published or being removed on Ctrl-C: TempFiles). Lock-free, so async-signal-safe. */
static inline int wx_byte_exchange(unsigned char *p, unsigned char expected, unsigned char desired) {
  return __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}
static inline void wx_byte_store(unsigned char *p, unsigned char value) {
  __atomic_store_n(p, value, __ATOMIC_SEQ_CST);
}
static inline unsigned char wx_byte_load(unsigned char *p) {
  return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}
#endif
