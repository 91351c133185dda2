/* Value-profiling stress program: a load working set several times the co-processor's 256 slots
 * (seed 001 section 5.1.3, A.5). 1,024 static loads executed in turn, equally often, each with a
 * value that is the same 3 times in 4: without partitioning the slots thrash. */
#include "common.h"

#define ROUNDS 200

static volatile uint32_t v[4][1024];

#define L1(k) sum = wl_mix(sum, v[r & 3][(k)]);
#define L4(k) L1(k) L1((k) + 1) L1((k) + 2) L1((k) + 3)
#define L16(k) L4(k) L4((k) + 4) L4((k) + 8) L4((k) + 12)
#define L64(k) L16(k) L16((k) + 16) L16((k) + 32) L16((k) + 48)
#define L256(k) L64(k) L64((k) + 64) L64((k) + 128) L64((k) + 192)

int main(void) {
  for (uint32_t r = 0; r < 4; r++)
    for (uint32_t k = 0; k < 1024; k++) v[r][k] = r == 3 ? wl_rand() : k; /* 3 rounds in 4: k */
  uint32_t sum = 0;
  for (uint32_t r = 0; r < ROUNDS; r++) {
    L256(0) L256(256) L256(512) L256(768)
  }
  return wl_finish("wide", sum, sum != 0);
}
