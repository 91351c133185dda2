/* Firmware runtime of the simple-sampling baseline (seed 001 section 5; docs/vpf.md): the
 * front end keeps one load in ss_prescale (default 1024), the co-processor runs
 * sw/fw/cop/simplesamp.s (a ring of 256 (PC, value) pairs in its data array) and interrupts when the
 * ring is full; this handler counts every pair in a table. At the end the last partial ring is
 * counted and the table written to vp-samples.txt (semihosting; hwprof-sim --out-dir) for
 * hwprof-vpeval, which estimates each value's invariance as its share of its load's samples. Like
 * vp_rt.c, the handler turns sampling off while it runs, and the machine timer (same period) writes
 * a snapshot of the table (the samples of the ring so far counted first; writing is not overhead).
 * Its settings are the ss_* objects below, which hwprof-sim --set=NAME=VALUE changes before the run
 * (make bench's curves). */
#include <stdint.h>
#include <stdio.h>

#include "hwprof_cop.h"
#include "autogen/hwprof_regs.h"
#include "cop_rt_common.h"

#define RING 256u
#define TABLE 65536u /* the most entries; one run uses tsize of them, more at higher rates */
#define PROBES 32u   /* a pair that finds no room in this many probes is counted as not kept */

/* run-time settings (hwprof-sim --set=NAME=VALUE) */
uint32_t ss_on = 1;          /* 0: the program runs under the runtime with nothing sampled (the cost baseline) */
uint32_t ss_repeat = 1;      /* runs of the program, one after another */
uint32_t ss_snapshots = 1;   /* write the table at each timer tick (0: no timer, the table only at the end) */
uint32_t ss_tick = 200000;   /* instructions between snapshots, as vp_rt.c's timer period */
uint32_t ss_prescale = 1024; /* one load in this many (1..65535) */
uint32_t ss_phase __attribute__((section(".data"))) = 0; /* (in .data: --set cannot change .bss) the prescaler's first count, 1..ss_prescale: which load of the first ss_prescale is
                                the first sample (0: the last) */

int workload_main(void);
extern const hwprof_cop_image_t ss_image;

static const hwprof_t hw = {.base = HWPROF_PLAT_REG_BASE};
/* not cleared by the start-up code (.preserve): main clears it when sampling, so a run with
 * ss_on = 0 pays nothing for it */
static struct {
  uint32_t pc, value, count;
} table[TABLE] __attribute__((section(".preserve")));
static uint32_t tsize; /* entries in use: 2^20 / ss_prescale, from 4,096 to 65,536 (its clearing is paid per run) */
static uint32_t pairs, lost, interrupts, handler_errors, unexpected_traps, handler_insns, setup, w0, eval_insns;
static uint64_t eval_cycles; /* writing snapshots: neither the program's nor the profiler's */
static uint32_t ring[2 * RING];
static uint32_t ring_done; /* ring entries already counted */
static FILE *out;
static uint32_t snapshots; /* written to it: its end record counts them */

static void count(uint32_t pc, uint32_t value) {
  for (uint32_t k = ((pc >> 2) ^ value * 0x9e3779b1u) & (tsize - 1u), probes = 0; probes < PROBES;
       probes++, k = (k + 1u) & (tsize - 1u)) {
    if (table[k].count != 0 && table[k].pc == pc && table[k].value == value) {
      table[k].count++;
      return;
    }
    if (table[k].count == 0) {
      table[k].pc = pc;
      table[k].value = value;
      table[k].count = 1;
      pairs++;
      return;
    }
  }
  lost++;
}

/* the ring's pairs ring_done..n-1 (entries below the engine's i1 are complete) */
static int take_ring(const hwprof_t *h, uint32_t n) {
  if (n > ring_done) {
    const uint32_t m = n - ring_done;
    if (hwprof_cop_read_data(h, ring_done, m, ring) != kHwprofOk || hwprof_cop_read_data(h, RING + ring_done, m, ring + RING) != kHwprofOk)
      return -1;
    for (uint32_t k = 0; k < m; k++) count(ring[k], ring[RING + k]);
  }
  ring_done = n == RING ? 0 : n;
  return 0;
}

static void write_table(void) {
  for (uint32_t k = 0; k < tsize; k++)
    if (table[k].count)
      fprintf(out, "0x%08lx 0x%08lx %lu\n", (unsigned long)table[k].pc, (unsigned long)table[k].value, (unsigned long)table[k].count);
}

static int on_intr(void *ctx, const hwprof_t *h, uint32_t intr_pc) {
  (void)ctx;
  (void)intr_pc;
  interrupts++;
  if (take_ring(h, RING) != 0) return -1;
  return (int)HWPROF_COP_CLEAR_IDX; /* the ring starts over */
}

__attribute__((interrupt("machine"))) static void trap_handler(void) {
  const uint32_t t0 = rt_instret();
  uint32_t cause;
  __asm__ volatile("csrr %0, mcause" : "=r"(cause));
  if (cause == 0x8000000bu) {
    const uint32_t on = rt_sampling_pause(&hw);
    bool handled = false;
    if (hwprof_cop_handle_irq(&hw, on_intr, NULL, &handled) != kHwprofOk || !handled) handler_errors++;
    rt_sampling_resume(&hw, on);
    handler_insns += rt_instret() - t0;
  } else if (cause == 0x80000007u) {
    const uint32_t on = rt_sampling_pause(&hw);
    /* the samples so far (the engine may run on: the entries below i1 are complete); not while a
     * full ring waits for the co-processor's interrupt (i1 has wrapped: that handler takes it) */
    if (!(hwprof_mmio_read32(&hw, HWPROF_TOP_IRQ_PENDING_ADDR) & (1u << HWPROF_TOP_IRQ_PENDING_COPROC_LSB)) &&
        take_ring(&hw, hwprof_mmio_read32(&hw, HWPROF_COP_I_ADDR + 4u * 1u)) != 0)
      handler_errors++;
    const uint32_t t1 = rt_instret();
    const uint64_t c1 = rt_cycles();
    if (out) {
      fprintf(out, "snapshot %lu %lu\n", (unsigned long)(t0 - w0 - handler_insns - eval_insns), (unsigned long)(setup + handler_insns + (t1 - t0)));
      write_table();
      snapshots++;
    }
    const uint32_t snap = rt_instret() - t1;
    eval_insns += snap;
    eval_cycles += rt_cycles() - c1;
    rt_set_timer(rt_instret() + ss_tick);
    rt_sampling_resume(&hw, on);
    handler_insns += rt_instret() - t0 - snap;
  } else {
    unexpected_traps++;
    rt_skip_instruction();
  }
}

int main(void) {
  if (!ss_on) { /* the cost baseline: the same program, nothing sampled */
    int rc = 0;
    for (uint32_t r = 0; r < ss_repeat; r++) rc |= workload_main();
    printf("ss firmware: off; run %llu cycles\n", (unsigned long long)rt_cycles());
    return rc;
  }
  out = fopen("vp-samples.txt", "w");
  if (out == NULL) printf("ss firmware: note: vp-samples.txt not written (the host refused the file: hwprof-sim --out-dir=DIR)\n");
  else fprintf(out, "# hwprof-vp-samples 2\n# snapshot <program instructions> <overhead>, then: load PC, value, samples\n");
  if (ss_prescale < 1u || ss_prescale > 65535u || ss_phase > ss_prescale) {
    printf("ss firmware: FAILED: ss_prescale %lu or ss_phase %lu out of range\n", (unsigned long)ss_prescale, (unsigned long)ss_phase);
    return 89;
  }
  const uint32_t setup0 = rt_instret();
  for (tsize = 4096u; tsize < TABLE && tsize * ss_prescale < (1u << 20); tsize *= 2u) {
  }
  for (uint32_t k = 0; k < tsize; k += 8) /* an entry with count 0 is free; 8 a turn: one branch per 8 */
    table[k].count = table[k + 1].count = table[k + 2].count = table[k + 3].count = table[k + 4].count = table[k + 5].count =
        table[k + 6].count = table[k + 7].count = 0;
  int r;
  if ((r = hwprof_cop_load(&hw, &ss_image)) != kHwprofOk)
    return rt_refused("ss firmware", "loading the program", r, "it does not fit the build's co-processor", 90);
  const hwprof_cop_filter_t filter = {.prescale = (uint16_t)ss_prescale};
  if ((r = hwprof_cop_set_filter(&hw, &filter)) != kHwprofOk || (r = hwprof_cop_clear_mask(&hw)) != kHwprofOk)
    return rt_refused("ss firmware", "setting the filters", r, "", 91);
  if (ss_phase) hwprof_mmio_write32(&hw, HWPROF_VPF_PRESCALE_COUNT_ADDR, ss_phase);
  hwprof_mmio_write32(&hw, HWPROF_TOP_IRQ_ENABLE_ADDR, 1u << HWPROF_TOP_IRQ_ENABLE_COPROC_LSB);
  __asm__ volatile("csrw mtvec, %0" ::"r"((uint32_t)(uintptr_t)trap_handler));
  rt_set_timer(ss_snapshots ? rt_instret() + ss_tick : 0xffffffffu);
  __asm__ volatile("csrs mie, %0" ::"r"((1u << 11) | (ss_snapshots ? 1u << 7 : 0u))); /* MEIE, MTIE */
  __asm__ volatile("csrs mstatus, %0" ::"r"(1u << 3));            /* MIE */
  if ((r = hwprof_cop_start(&hw, HWPROF_COP_CLEAR_ALL)) != kHwprofOk) return rt_refused("ss firmware", "starting the engine", r, "", 92);
  setup = rt_instret() - setup0;

  w0 = rt_instret();
  int rc = 0;
  for (uint32_t r = 0; r < ss_repeat; r++) rc |= workload_main();
  const uint32_t program = rt_instret() - w0 - handler_insns - eval_insns; /* the program's own instructions */
  __asm__ volatile("csrc mie, %0" ::"r"(1u << 7));

  const uint32_t end0 = rt_instret();
  if ((r = hwprof_cop_drain(&hw, 100000u, NULL, NULL)) != kHwprofOk)
    return rt_refused("ss firmware", "draining the sample buffer", r, "", 94);
  hwprof_cop_status_t st;
  __asm__ volatile("csrc mstatus, %0" ::"r"(1u << 3));
  const uint32_t n = hwprof_mmio_read32(&hw, HWPROF_COP_I_ADDR + 4u * 1u); /* i1: the next free pair */
  if (hwprof_cop_stop(&hw) != kHwprofOk || take_ring(&hw, n) != 0) handler_errors++;
  if ((r = hwprof_cop_status(&hw, &st)) != kHwprofOk) return rt_refused("ss firmware", "reading the status", r, "", 95);
  const uint32_t final_copy = rt_instret() - end0;
  const uint64_t run_cycles = rt_cycles() - eval_cycles; /* start-up, program and sampler: what a user pays */

  printf("ss firmware: one load in %lu: %lu loads passed the filters, %lu sampled, %lu dropped; %lu interrupts; program %lu instructions; overhead: "
         "setup %lu, handler %lu, final copy %lu instructions; %lu (PC, value) pairs, %lu not kept; run %llu cycles\n",
         (unsigned long)ss_prescale, (unsigned long)st.passed, (unsigned long)st.sampled, (unsigned long)st.dropped, (unsigned long)interrupts,
         (unsigned long)program, (unsigned long)setup, (unsigned long)handler_insns, (unsigned long)final_copy, (unsigned long)pairs, (unsigned long)lost, (unsigned long long)run_cycles);
  if (out) {
    fprintf(out, "snapshot %lu %lu\n", (unsigned long)program, (unsigned long)(setup + handler_insns + final_copy));
    write_table();
    fprintf(out, "end %lu\n", (unsigned long)snapshots + 1u);
    fclose(out);
  }
  if (unexpected_traps || handler_errors) {
    printf("ss firmware: FAILED: %lu unexpected traps, %lu handler errors\n", (unsigned long)unexpected_traps,
           (unsigned long)handler_errors);
    return rc ? rc : 96;
  }
  return rc;
}
