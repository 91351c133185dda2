/* A test input for path profiling (docs/path.md, "Hammocks"): a loop whose body is 40 independent
 * decisions in a row, so 2^40 paths per iteration, far more than a function's 8,192 counters; with
 * a nested loop and a switch among them. A hierarchical profile of it exists only through hammock
 * regions. The decisions store to a volatile, so that they stay branches. The program prints a
 * checksum and exits 0 when it matches the one computed without branches. */
#include <stdint.h>
#include <stdio.h>

static volatile uint32_t sink;

#define STEP(k)                    \
  if (x & (UINT32_C(1) << (k))) {  \
    acc += (k) * 3u + 1u;          \
    sink = acc;                    \
  } else {                         \
    acc ^= (k) + 7u;               \
  }

__attribute__((noinline)) static uint32_t churn(uint32_t seed, unsigned rounds) {
  uint32_t acc = 0, x = seed;
  for (unsigned r = 0; r < rounds; r++) {
    x = x * 1103515245u + 12345u;
    STEP(0) STEP(1) STEP(2) STEP(3) STEP(4) STEP(5) STEP(6) STEP(7) STEP(8) STEP(9)
    for (unsigned i = 0; i < (x >> 28); i++) acc += i; /* a nested loop */
    STEP(10) STEP(11) STEP(12) STEP(13) STEP(14) STEP(15) STEP(16) STEP(17) STEP(18) STEP(19)
    switch ((x >> 20) & 3u) { /* a switch */
      case 0: acc += 5; break;
      case 1: acc -= 3; sink = acc; break;
      case 2: acc *= 3; break;
      default: acc ^= 0xa5; break;
    }
    STEP(20) STEP(21) STEP(22) STEP(23) STEP(24) STEP(25) STEP(26) STEP(27) STEP(28) STEP(29)
    STEP(30) STEP(31) STEP(0) STEP(1) STEP(2) STEP(3) STEP(4) STEP(5) STEP(6) STEP(7)
    x ^= acc;
  }
  return acc;
}

/* the same computation without a branch of its own: the oracle */
static uint32_t ref(uint32_t seed, unsigned rounds) {
  uint32_t acc = 0, x = seed;
  static const unsigned order[40] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13,
                                     14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
                                     28, 29, 30, 31, 0,  1,  2,  3,  4,  5,  6,  7};
  for (unsigned r = 0; r < rounds; r++) {
    x = x * 1103515245u + 12345u;
    for (unsigned j = 0; j < 40; j++) {
      const unsigned k = order[j];
      const uint32_t bit = (x >> k) & 1u, mask = 0u - bit;
      acc = ((acc + k * 3u + 1u) & mask) | ((acc ^ (k + 7u)) & ~mask);
      if (j == 9) acc += (x >> 28) * ((x >> 28) - 1u) / 2u;
      if (j == 19) {
        const uint32_t c = (x >> 20) & 3u;
        const uint32_t v[4] = {acc + 5u, acc - 3u, acc * 3u, acc ^ 0xa5u};
        acc = v[c];
      }
    }
    x ^= acc;
  }
  return acc;
}

int main(void) {
  const uint32_t got = churn(0x1234567u, 3000), want = ref(0x1234567u, 3000);
  printf("many_paths: %08lx (expected %08lx)\n", (unsigned long)got, (unsigned long)want);
  return got == want ? 0 : 1;
}
