/* A long stable phase for the dynamic optimizer (docs/dynopt.md): one branch goes its minority way
 * a fifth of the time for the whole run, so its cold edge passes any absolute threshold again and
 * again while staying less frequent than its hot mate: the false transition signal of seed 000
 * (paragraphs 60-61). The result is checked against the value the same code gives on the host. */
#include "common.h"

#define ROUNDS 200000
#define STABLE_EXPECTED 0x15c6f562u /* the host's result (gcc -O2 on x86-64) */

static uint32_t rare_sum;

__attribute__((noinline)) static uint32_t step(uint32_t r) {
  if ((r % 5u) == 0) { /* one in five */
    rare_sum += r & 0xffu;
    return r >> 7;
  }
  return r & 0x3ffu;
}

int main(void) {
  uint32_t h = 2166136261u;
  for (int i = 0; i < ROUNDS; i++) h = wl_mix(h, step(wl_rand()));
  h = wl_mix(h, rare_sum);
  return wl_finish("stable", h, h == STABLE_EXPECTED);
}
