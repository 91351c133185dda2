/* Value-profiling test program with load values known by construction (docs/vpf.md): five
 * loads in one loop, well mixed (no phases), 20,000 iterations:
 *   one[]   always 5                         invariance 100%
 *   three[] 3, 3, 3, 9 repeating             3: 75%, 9: 25%
 *   half[]  4, 6 alternating                 4: 50%, 6: 50%
 *   sixt[]  0..15 in turn                    each 6.25%
 *   rnd[]   pseudo-random                    each value rare
 * The exact counts come from the retire stream (hwprof-sim --value-truth); make test checks that
 * the profiler's estimates of the values of at least 25% are within 0.1 of them. */
#include "common.h"

#define N 256
#define ITER 20000

static volatile uint32_t one[N], three[N], half[N], sixt[N], rnd[N];

int main(void) {
  for (uint32_t k = 0; k < N; k++) {
    one[k] = 5;
    three[k] = (k % 4 == 3) ? 9 : 3;
    half[k] = (k % 2) ? 6 : 4;
    sixt[k] = k % 16;
    rnd[k] = wl_rand();
  }
  uint32_t sum = 0;
  for (uint32_t i = 0; i < ITER; i++) {
    const uint32_t k = i % N;
    sum = wl_mix(sum, one[k]);
    sum = wl_mix(sum, three[k]);
    sum = wl_mix(sum, half[k]);
    sum = wl_mix(sum, sixt[k]);
    sum = wl_mix(sum, rnd[(k * 7) % N]);
  }
  return wl_finish("known", sum, sum != 0);
}
