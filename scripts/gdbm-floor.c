/*
 * The raw GDBM store floor for `make bench` (compiled by scripts/bench.sh):
 *
 *     gdbm-floor SOURCE.gdbm NEW.gdbm
 *
 * Reads the size of every key and value of SOURCE (a catalogue wx just wrote), then stores
 * as many keys and values of exactly those sizes (random bytes, same order) into a fresh
 * NEW.gdbm with the settings wx's writer uses (Sources/WXCore/Storage/GDBMDatabase.swift:
 * GDBM_NEWDB | GDBM_NOMMAP, default block size and cache; StoreBuilder: gdbm_sync + fsync,
 * then close) and prints the seconds that took, from gdbm_open to close. NEW.gdbm is removed.
 */
#include <gdbm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  if (argc != 3) { fprintf(stderr, "usage: gdbm-floor SOURCE.gdbm NEW.gdbm\n"); return 64; }
  GDBM_FILE src = gdbm_open(argv[1], 0, GDBM_READER | GDBM_NOLOCK | GDBM_NOMMAP, 0, NULL);
  if (!src) { fprintf(stderr, "gdbm-floor: %s: %s\n", argv[1], gdbm_strerror(gdbm_errno)); return 66; }
  size_t n = 0, cap = 1024, maxv = 1;
  int *ks = malloc(cap * sizeof *ks), *vs = malloc(cap * sizeof *vs);
  for (datum k = gdbm_firstkey(src); k.dptr; ) {
    datum v = gdbm_fetch(src, k);
    if (n == cap) { cap *= 2; ks = realloc(ks, cap * sizeof *ks); vs = realloc(vs, cap * sizeof *vs); }
    ks[n] = k.dsize; vs[n] = v.dsize; n++;
    if ((size_t)v.dsize > maxv) maxv = v.dsize;
    free(v.dptr);
    datum next = gdbm_nextkey(src, k);
    free(k.dptr);
    k = next;
  }
  gdbm_close(src);
  unsigned char *val = malloc(maxv);
  for (size_t i = 0; i < maxv; i++) val[i] = (unsigned char)rand();
  unlink(argv[2]);
  double t0 = now();
  GDBM_FILE db = gdbm_open(argv[2], 0, GDBM_NEWDB | GDBM_NOMMAP, 0600, NULL);
  if (!db) { fprintf(stderr, "gdbm-floor: %s: %s\n", argv[2], gdbm_strerror(gdbm_errno)); return 74; }
  char key[64];
  for (size_t i = 0; i < n; i++) {
    /* Distinct keys of the same length: the index in decimal, padded with 'k'. */
    int len = ks[i] < (int)sizeof key ? ks[i] : (int)sizeof key;
    int w = snprintf(key, sizeof key, "%zu", i);
    if (w > len) len = w;
    memset(key + w, 'k', len - w);
    datum k = {key, len}, v = {(char *)val, vs[i]};
    if (gdbm_store(db, k, v, GDBM_REPLACE) != 0) { fprintf(stderr, "gdbm-floor: store failed\n"); return 74; }
  }
  if (gdbm_sync(db) != 0 || fsync(gdbm_fdesc(db)) != 0) { fprintf(stderr, "gdbm-floor: sync failed\n"); return 74; }
  gdbm_close(db);
  double t1 = now();
  unlink(argv[2]);
  printf("%.4f %zu\n", t1 - t0, n);
  return 0;
}
