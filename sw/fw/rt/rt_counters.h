/* The 64-bit counters of the firmware runtimes on the simulated CPU (RV32 only): mcycle and
 * minstret read high, low, high again, so a carry between the halves is never half seen. */
#ifndef HWPROF_RT_COUNTERS_H
#define HWPROF_RT_COUNTERS_H

#include <stdint.h>

#define RT_COUNTER64(lo, hi)                                   \
  static inline uint64_t rt_##lo##64(void) {                   \
    uint32_t h, l, h2;                                          \
    do {                                                        \
      __asm__ volatile("csrr %0, " #hi : "=r"(h));              \
      __asm__ volatile("csrr %0, " #lo : "=r"(l));              \
      __asm__ volatile("csrr %0, " #hi : "=r"(h2));             \
    } while (h != h2);                                          \
    return (uint64_t)h << 32 | l;                               \
  }

/* rt_mcycle64(): the clock cycles so far (on the platforms, the system's cycles, stalls and bus
 * transfers included: docs/cpu-model.md); rt_minstret64(): the instructions retired */
RT_COUNTER64(mcycle, mcycleh)
RT_COUNTER64(minstret, minstreth)

#endif /* HWPROF_RT_COUNTERS_H */
