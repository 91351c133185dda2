/* A program with clear phases for the dynamic optimizer (docs/dynopt.md): four phases in turn, each
 * with its own hot set of branch directions. Phase A classifies mostly small values (the
 * comparison's taken edge is hot), phase B mostly large ones (its other edge), phase C runs another
 * function whose loop exits and tests dominate, phase D is A again. The result is checked against
 * the value the same code gives on the host. */
#include "common.h"

#define ROUNDS 60000
#define PHASES_EXPECTED 0xf2e4a2e0u /* the host's result (gcc -O2 on x86-64) */

static uint32_t small_sum, large_sum;

/* which way the comparison goes depends on the phase's data */
__attribute__((noinline)) static uint32_t classify(uint32_t x, uint32_t cut) {
  if (x < cut) {
    small_sum += x;
    return 1;
  }
  large_sum += x >> 3;
  return 0;
}

/* phase C's own branches: a bit count with an early exit and an odd/even test */
__attribute__((noinline)) static uint32_t bits(uint32_t x) {
  uint32_t n = 0;
  while (x) {
    if (x & 1u) n++;
    x >>= 1;
    if (n > 12) break;
  }
  return n;
}

static uint32_t phase_classify(uint32_t h, uint32_t small_share) {
  for (int i = 0; i < ROUNDS; i++) {
    uint32_t r = wl_rand();
    uint32_t x = (r % 100u) < small_share ? r % 1000u : 5000u + r % 1000u;
    h = wl_mix(h, classify(x, 2000u));
  }
  return h;
}

static uint32_t phase_bits(uint32_t h) {
  for (int i = 0; i < ROUNDS / 4; i++) h = wl_mix(h, bits(wl_rand()));
  return h;
}

int main(void) {
  uint32_t h = 2166136261u;
  h = phase_classify(h, 95); /* A */
  h = phase_classify(h, 5);  /* B */
  h = phase_bits(h);         /* C */
  h = phase_classify(h, 95); /* D */
  h = wl_mix(wl_mix(h, small_sum), large_sum);
  return wl_finish("phases", h, h == PHASES_EXPECTED);
}
