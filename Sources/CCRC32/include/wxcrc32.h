#ifndef WXCRC32_H
#define WXCRC32_H

#include <stddef.h>
#include <stdint.h>

/*
 * CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320) by carry-less multiplication
 * (PCLMULQDQ), folding 64 bytes a step: the checksum every store value is read with.
 */

/* 1 when this processor has PCLMULQDQ and SSE4.1 (x86-64 only), else 0. */
int wx_crc32_folding_available(void);

/*
 * The CRC register (not inverted at the end) after `len` more bytes, from the register
 * `crc`: 0xFFFFFFFF at the start of a message. `len` is at least 64 and a multiple of 16;
 * callers finish the rest a byte at a time. Only when wx_crc32_folding_available().
 */
uint32_t wx_crc32_fold(uint32_t crc, const unsigned char *buf, size_t len);

#endif
