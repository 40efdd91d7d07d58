#include "wxcrc32.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <sys/platform/x86.h>

/* Read from the features the dynamic loader found at start-up (glibc 2.33): no cpuid of our
 * own, which traps to the hypervisor in a virtual machine (10 us, a third of a percent of
 * `wx search par`). "Active" also means the kernel saves the registers these use. */
int wx_crc32_folding_available(void) {
  return CPU_FEATURE_ACTIVE(PCLMULQDQ) && CPU_FEATURE_ACTIVE(SSE4_1) ? 1 : 0;
}

/*
 * Intel's "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ Instruction"
 * (Gopal et al., 2009) for the bit-reflected polynomial: four 128-bit lanes folded forward
 * 512 bits a step (x^(4*128+32) and x^(4*128-32) mod P), then into one lane (x^(128+32),
 * x^(128-32)), to 64 bits (x^64), and Barrett-reduced to 32 (P' and mu').
 */
__attribute__((target("pclmul,sse4.1")))
uint32_t wx_crc32_fold(uint32_t crc, const unsigned char *buf, size_t len) {
  const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596LL, 0x0154442bd4LL);
  const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009eLL, 0x01751997d0LL);
  const __m128i k5 = _mm_set_epi64x(0, 0x0163cd6124LL);
  const __m128i poly = _mm_set_epi64x(0x01f7011641LL, 0x01db710641LL);
  const __m128i low32 = _mm_setr_epi32(-1, 0, -1, 0);

  __m128i x1 = _mm_loadu_si128((const __m128i *)(buf + 0));
  __m128i x2 = _mm_loadu_si128((const __m128i *)(buf + 16));
  __m128i x3 = _mm_loadu_si128((const __m128i *)(buf + 32));
  __m128i x4 = _mm_loadu_si128((const __m128i *)(buf + 48));
  x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
  buf += 64;
  len -= 64;

  while (len >= 64) {
    __m128i h1 = _mm_clmulepi64_si128(x1, k1k2, 0x11), l1 = _mm_clmulepi64_si128(x1, k1k2, 0x00);
    __m128i h2 = _mm_clmulepi64_si128(x2, k1k2, 0x11), l2 = _mm_clmulepi64_si128(x2, k1k2, 0x00);
    __m128i h3 = _mm_clmulepi64_si128(x3, k1k2, 0x11), l3 = _mm_clmulepi64_si128(x3, k1k2, 0x00);
    __m128i h4 = _mm_clmulepi64_si128(x4, k1k2, 0x11), l4 = _mm_clmulepi64_si128(x4, k1k2, 0x00);
    x1 = _mm_xor_si128(_mm_xor_si128(h1, l1), _mm_loadu_si128((const __m128i *)(buf + 0)));
    x2 = _mm_xor_si128(_mm_xor_si128(h2, l2), _mm_loadu_si128((const __m128i *)(buf + 16)));
    x3 = _mm_xor_si128(_mm_xor_si128(h3, l3), _mm_loadu_si128((const __m128i *)(buf + 32)));
    x4 = _mm_xor_si128(_mm_xor_si128(h4, l4), _mm_loadu_si128((const __m128i *)(buf + 48)));
    buf += 64;
    len -= 64;
  }

  /* The four lanes into one. */
  __m128i t;
  t = _mm_clmulepi64_si128(x1, k3k4, 0x00);
  x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), t), x2);
  t = _mm_clmulepi64_si128(x1, k3k4, 0x00);
  x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), t), x3);
  t = _mm_clmulepi64_si128(x1, k3k4, 0x00);
  x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), t), x4);

  /* The rest, 16 bytes a step. */
  while (len >= 16) {
    t = _mm_clmulepi64_si128(x1, k3k4, 0x00);
    x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), t),
                       _mm_loadu_si128((const __m128i *)buf));
    buf += 16;
    len -= 16;
  }

  /* 128 bits to 64. */
  t = _mm_clmulepi64_si128(x1, k3k4, 0x10);
  x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), t);
  t = _mm_srli_si128(x1, 4);
  x1 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, low32), k5, 0x00), t);

  /* Barrett reduction to 32 bits. */
  t = _mm_clmulepi64_si128(_mm_and_si128(x1, low32), poly, 0x10);
  t = _mm_clmulepi64_si128(_mm_and_si128(t, low32), poly, 0x00);
  x1 = _mm_xor_si128(x1, t);
  return (uint32_t)_mm_extract_epi32(x1, 1);
}

#else

int wx_crc32_folding_available(void) { return 0; }

uint32_t wx_crc32_fold(uint32_t crc, const unsigned char *buf, size_t len) {
  (void)buf;
  (void)len;
  return crc;
}

#endif
