/* Firmware runtime for load-value profiling on the simulated system (RV32 only; seed 001 section 5
 * and Appendix A; docs/vpf.md, "Firmware"): the trap plumbing around sw/fw/vp/vp_fw.c, which
 * does the work. It loads sw/fw/cop/valueprof.s (embedded by hwprof-cpasm --c), samples every load,
 * and takes two interrupts:
 *   - the co-processor's (FAILED, interval end, thrashing): vp_fw_on_intr through the driver;
 *   - the machine timer, every vp_tick instructions or a multiple of it (the CPU model's mtime
 *     counts instructions): vp_fw_on_timer, re-sampling and the next partition, so a partition
 *     whose loads are all masked, which sends no more records and so no more interrupts, does not
 *     keep the profiler for good.
 * Its settings are the vp_* objects below, which hwprof-sim --set=NAME=VALUE changes before the run
 * (make bench's curves).
 * Both handlers turn sampling off while they run, so the profile (and the truth hwprof-sim
 * --value-truth counts) is the program's, not the handler's. The profile goes to vp-profile.txt
 * (semihosting; hwprof-sim --out-dir) for the host's estimate (hwprof-vpeval): a snapshot at every
 * timer tick (the program's instructions and the overhead so far, then the profile; writing it is
 * not counted as overhead) and the last one after the end: sampling off, the engine drains, the
 * last slots are copied. */
#include <stdint.h>
#include <stdio.h>

#include "hwprof_cop.h"
#include "autogen/hwprof_regs.h"
#include "cop_rt_common.h"
#include "vp_fw.h"

/* run-time settings (hwprof-sim --set=NAME=VALUE) */
uint32_t vp_on = 1;             /* 0: the program runs under the runtime with nothing profiled (the cost baseline) */
uint32_t vp_repeat = 1;         /* runs of the program, one after another */
uint32_t vp_snapshots = 1;      /* write the profile at each timer tick (0: only at the end) */
uint32_t vp_tick = 200000;      /* instructions in one timer period */
uint32_t vp_resample = 1;       /* 1: rotating re-checks with back-off (VP_FW_CFG_DEFAULT); 0: every mask cleared at
                                   each tick (VP_FW_CFG_SEED) */
uint32_t vp_interval_log2 = 15; /* records per interval: 2^vp_interval_log2 (1..16) */
uint32_t vp_interval_copy = 1;  /* copy the slots at an interval's end (0: only when FAILED reaches 63) */
uint32_t vp_mask_after = 4;     /* copies a load is seen in before it is masked whatever its bias (1..15) */
uint32_t vp_mask_agree = 2;     /* copies in a row showing the same value at 90% or more before it is masked (1, 2) */
uint32_t vp_recheck_changed = 1; /* 1: a load whose last re-check found a change is re-checked at every tick */
uint32_t vp_extrapolate __attribute__((section(".data"))) = 0; /* (in .data: --set cannot change .bss) 1: a masked load is credited for its time masked (the time-weighted profile) */
uint32_t vp_clock_log2 __attribute__((section(".data"))) = 0; /* (in .data, as vp_seed) the co-processor's clock: 1 / 2^vp_clock_log2 of the system's (0..3) */
uint32_t vp_seed __attribute__((section(".data"))) = 0; /* (in .data: --set cannot change .bss) the engine's LFSR seed (0: the program image's) */

int workload_main(void);
extern const hwprof_cop_image_t vp_image;

static const hwprof_t hw = {.base = HWPROF_PLAT_REG_BASE};
/* not cleared by the start-up code (.preserve): vp_fw_start clears it, so a run with vp_on = 0 pays
 * nothing for it */
static vp_fw_t fw __attribute__((section(".preserve")));
static uint32_t handler_errors, unexpected_traps, handler_insns, setup, w0;
static uint32_t eval_insns; /* writing snapshots: neither the program's nor the profiler's */
static uint64_t eval_cycles;
static FILE *out; /* the profile file, NULL when the host refused it */
static uint32_t snapshots; /* written to it: its end record counts them */

/* a snapshot of the profile: the program's instructions and the overhead so far; returns the
 * instructions it took */
static uint32_t snapshot(void) {
  const uint32_t t0 = rt_instret();
  const uint64_t c0 = rt_cycles();
  if (out == NULL) return 0;
  fprintf(out, "snapshot %lu %lu\n", (unsigned long)(t0 - w0 - handler_insns - eval_insns), (unsigned long)(setup + handler_insns));
  vp_fw_credit_masked(&fw); /* the loads masked now, up to now */
  if (vp_fw_write_loads(&fw, out) != 0) handler_errors++;
  snapshots++;
  eval_cycles += rt_cycles() - c0;
  return rt_instret() - t0;
}

__attribute__((interrupt("machine"))) static void trap_handler(void) {
  const uint32_t t0 = rt_instret();
  fw.now = t0 - w0 - handler_insns - eval_insns; /* the firmware's clock: the program's instructions so far */
  uint32_t cause;
  __asm__ volatile("csrr %0, mcause" : "=r"(cause));
  if (cause == 0x8000000bu || cause == 0x80000007u) {
    const uint32_t on = rt_sampling_pause(&hw); /* not the handler's own loads */
    if (cause == 0x8000000bu) {
      bool handled = false;
      if (hwprof_cop_handle_irq(&hw, vp_fw_on_intr, &fw, &handled) != kHwprofOk || !handled) handler_errors++;
      rt_sampling_resume(&hw, on);
      handler_insns += rt_instret() - t0;
    } else {
      const uint32_t periods = vp_fw_on_timer(&fw, &hw);
      const uint32_t snap = vp_snapshots ? snapshot() : 0; /* the evaluation's, not the profiler's; sampling still off */
      eval_insns += snap;
      rt_set_timer(rt_instret() + periods * vp_tick);
      rt_sampling_resume(&hw, on);
      handler_insns += rt_instret() - t0 - snap;
    }
  } else {
    unexpected_traps++;
    rt_skip_instruction();
  }
}

int main(void) {
  if (!vp_on) { /* the cost baseline: the same program, nothing profiled */
    int rc = 0;
    for (uint32_t r = 0; r < vp_repeat; r++) rc |= workload_main();
    printf("vp firmware: off; run %llu cycles\n", (unsigned long long)rt_cycles());
    return rc;
  }
  out = fopen("vp-profile.txt", "w");
  if (out == NULL) printf("vp firmware: note: vp-profile.txt not written (the host refused the file: hwprof-sim --out-dir=DIR)\n");
  else if (vp_fw_write_header(out) != 0) handler_errors++;
  const uint32_t setup0 = rt_instret();
  const vp_fw_cfg_t cfg = {vp_interval_log2, vp_interval_copy != 0, vp_mask_after,
                           vp_resample ? kVpResampleRotate : kVpResampleAll, (uint16_t)vp_seed, vp_clock_log2,
                           vp_mask_agree, vp_recheck_changed != 0, vp_extrapolate != 0};
  int r;
  if ((r = vp_fw_start(&fw, &hw, &vp_image, cfg)) != kHwprofOk)
    return rt_refused("vp firmware", "the setup", r,
                      "a setting out of range (vp_interval_log2 1..16, vp_mask_after 1..15, vp_mask_agree 1..2, "
                      "vp_clock_log2 0..3), or a data array of fewer than 8 bytes a CAM entry (--cop-data=8N with "
                      "--cop-cam=N)",
                      90);
  __asm__ volatile("csrw mtvec, %0" ::"r"((uint32_t)(uintptr_t)trap_handler));
  rt_set_timer(rt_instret() + vp_tick);
  __asm__ volatile("csrs mie, %0" ::"r"((1u << 11) | (1u << 7))); /* MEIE, MTIE */
  __asm__ volatile("csrs mstatus, %0" ::"r"(1u << 3));            /* MIE */
  setup = rt_instret() - setup0;

  w0 = rt_instret();
  int rc = 0;
  for (uint32_t r = 0; r < vp_repeat; r++) rc |= workload_main();
  const uint32_t program = rt_instret() - w0 - handler_insns - eval_insns; /* the program's own instructions */
  __asm__ volatile("csrc mie, %0" ::"r"(1u << 7));

  /* sampling off; the engine drains the buffer (the handler may still run), then the last slots */
  const uint32_t end0 = rt_instret();
  fw.now = program;
  if ((r = hwprof_cop_drain(&hw, 100000u, NULL, NULL)) != kHwprofOk)
    return rt_refused("vp firmware", "draining the sample buffer", r, "", 94);
  __asm__ volatile("csrc mstatus, %0" ::"r"(1u << 3));
  if (vp_fw_final_copy(&fw, &hw) != kHwprofOk) handler_errors++;
  hwprof_cop_status_t st;
  if ((r = hwprof_cop_status(&hw, &st)) != kHwprofOk) return rt_refused("vp firmware", "reading the status", r, "", 95);
  const uint32_t final_copy = rt_instret() - end0;
  const uint64_t run_cycles = rt_cycles() - eval_cycles; /* start-up, program and profiler: what a user pays */
  const uint32_t post0 = rt_instret();
  const uint64_t postc0 = rt_cycles();
  vp_fw_aggregate(&fw); /* post-processing: the log of copied slots merged per load, ... */
  vp_fw_credit_masked(&fw); /* ... and the loads still masked credited up to the end */
  const uint32_t post = rt_instret() - post0;
  const uint64_t post_cycles = rt_cycles() - postc0;

  uint32_t masked = 0;
  for (uint32_t k = 0; k < VP_FW_MAX_LOADS; k++) masked += fw.prof[k].total != 0 && vp_fw_masked(&fw, fw.prof[k].pc);
  printf("vp firmware: %lu loads passed the filters, %lu sampled, %lu dropped; the engine ran %lu records; %lu interrupts "
         "(%lu copies, %lu intervals ended, %lu thrashing, %lu timer); %lu re-checked loads copied, %lu changed; %lu credits for time masked; program split into %lu parts; program %lu instructions; "
         "overhead: setup %lu, handler %lu, final copy %lu instructions; profile: %lu load PCs, %lu masked at the end (%lu "
         "masks set), %lu values and %lu loads not kept; complete (nothing unmasked left) at copy %lu (0: never); log merged %lu "
         "times during the run, at the end in %lu instructions, %llu cycles; run %llu cycles\n",
         (unsigned long)st.passed, (unsigned long)st.sampled, (unsigned long)st.dropped, (unsigned long)st.records,
         (unsigned long)fw.interrupts, (unsigned long)fw.copies, (unsigned long)fw.intervals, (unsigned long)fw.thrashes,
         (unsigned long)fw.timer_ticks, (unsigned long)fw.rechecks, (unsigned long)fw.changes, (unsigned long)fw.credits, (unsigned long)(1u << fw.part_bits), (unsigned long)program, (unsigned long)setup,
         (unsigned long)handler_insns, (unsigned long)final_copy, (unsigned long)fw.n_loads, (unsigned long)masked,
         (unsigned long)fw.masks_set, (unsigned long)fw.lost_values, (unsigned long)fw.lost_loads,
         (unsigned long)fw.completed_at, (unsigned long)fw.merges, (unsigned long)post, (unsigned long long)post_cycles,
         (unsigned long long)run_cycles);
  if (out) {
    fprintf(out, "snapshot %lu %lu\n", (unsigned long)program, (unsigned long)(setup + handler_insns + final_copy));
    if (vp_fw_write_loads(&fw, out) != 0) handler_errors++;
    fprintf(out, "end %lu\n", (unsigned long)snapshots + 1u);
    fclose(out);
  }
  if (unexpected_traps || handler_errors || fw.errors) {
    printf("vp firmware: FAILED: %lu unexpected traps, %lu handler errors, %lu firmware errors\n", (unsigned long)unexpected_traps,
           (unsigned long)handler_errors, (unsigned long)fw.errors);
    return rc ? rc : 96;
  }
  return rc;
}
