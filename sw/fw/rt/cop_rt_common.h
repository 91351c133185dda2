/* What the value-profiling runtimes on the simulated CPU share (sw/fw/rt/cop_rt.c, vp_rt.c, ss_rt.c;
 * RV32 only): the instruction and cycle counters, the machine timer, pausing sampling while a handler runs
 * (so neither the profile nor hwprof-sim's truth holds the handler's own loads), and skipping an
 * exception's instruction. */
#ifndef HWPROF_COP_RT_COMMON_H
#define HWPROF_COP_RT_COMMON_H

#include <stdint.h>
#include <stdio.h>

#include "hwprof_mmio.h"
#include "rt_counters.h"
#include "autogen/hwprof_regs.h"

static inline uint32_t rt_instret(void) {
  uint32_t v;
  __asm__ volatile("csrr %0, minstret" : "=r"(v));
  return v;
}

/* the clock cycles so far (docs/cpu-model.md) */
static inline uint64_t rt_cycles(void) { return rt_mcycle64(); }

/* the timer interrupt when the instructions retired reach at (the CPU model's mtime counts them) */
static inline void rt_set_timer(uint32_t at) {
  volatile uint32_t *cmp = (volatile uint32_t *)(uintptr_t)HWPROF_PLAT_MTIMECMP;
  cmp[0] = 0xffffffffu; /* no early interrupt while the two halves change */
  cmp[1] = 0;
  cmp[0] = at;
}

/* sampling off; returns the enable bit to give back to rt_sampling_resume */
static inline uint32_t rt_sampling_pause(const hwprof_t *h) {
  const uint32_t ctrl = hwprof_mmio_read32(h, HWPROF_VPF_CTRL_ADDR);
  hwprof_mmio_write32(h, HWPROF_VPF_CTRL_ADDR, ctrl & ~(1u << HWPROF_VPF_CTRL_ENABLE_LSB));
  return ctrl & (1u << HWPROF_VPF_CTRL_ENABLE_LSB);
}

/* sampling back on if it was (CTRL re-read: the handler may have changed its other fields) */
static inline void rt_sampling_resume(const hwprof_t *h, uint32_t on) {
  hwprof_mmio_write32(h, HWPROF_VPF_CTRL_ADDR, hwprof_mmio_read32(h, HWPROF_VPF_CTRL_ADDR) | on);
}

/* a step the hardware refused (a driver call's result rc): one line naming the runtime, the step, the
 * result (hwprof_result.h) and what to check (hint, or ""), then code, the runtime's exit code */
static inline int rt_refused(const char *runtime, const char *step, int rc, const char *hint, int code) {
  printf("%s: FAILED: %s refused (driver result %d)%s%s\n", runtime, step, rc, *hint ? ": " : "", hint);
  return code;
}

/* an exception in the program: go on after the instruction */
static inline void rt_skip_instruction(void) {
  uint32_t epc;
  __asm__ volatile("csrr %0, mepc" : "=r"(epc));
  __asm__ volatile("csrw mepc, %0" ::"r"(epc + 4u));
}

#endif /* HWPROF_COP_RT_COMMON_H */
