/* Value-profiling stress program: glacial values (seed 001 section 5.1.4). Twelve loads, each of
 * which returns one value for a long run (5,000 to 20,000 executions) and then changes to another;
 * the phases of the different loads do not line up. A profiler that samples a load only in some
 * of its phases cannot tell how much of the run each value covers. */
#include "common.h"

#define LOADS 12
#define ITER 60000

static volatile uint32_t cell[LOADS];

int main(void) {
  uint32_t sum = 0;
  for (uint32_t i = 0; i < ITER; i++) {
    for (uint32_t l = 0; l < LOADS; l++) {
      const uint32_t run = 5000u * (1u + l % 4u);      /* 5,000 .. 20,000 */
      if ((i + 1000u * l) % run == 0) cell[l] = wl_rand() & 0xffu; /* a new phase of load l */
    }
    sum = wl_mix(sum, cell[0]); sum = wl_mix(sum, cell[1]); sum = wl_mix(sum, cell[2]);
    sum = wl_mix(sum, cell[3]); sum = wl_mix(sum, cell[4]); sum = wl_mix(sum, cell[5]);
    sum = wl_mix(sum, cell[6]); sum = wl_mix(sum, cell[7]); sum = wl_mix(sum, cell[8]);
    sum = wl_mix(sum, cell[9]); sum = wl_mix(sum, cell[10]); sum = wl_mix(sum, cell[11]);
  }
  return wl_finish("glacial", sum, sum != 0);
}
