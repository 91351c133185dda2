/* Firmware runtime for load-value profiling on the simulated system (RV32 only; seed 001 section 5
 * and Appendix A; docs/valueprof.md, "Firmware"). It loads sw/cop/valueprof.s (embedded by
 * hwprof-cpasm --c), samples every load, and is the co-processor's interrupt handler:
 *   - the end of an interval (2^VP_INTERVAL_LOG2 records; the program's i4, whose width this
 *     runtime sets) or FAILED at its threshold (the slots are turning loads away): copy every slot that counted
 *     anything into the in-memory profile (per load PC: total samples, intervals; per value: hits
 *     and misses), mask the loads it is confident about through the PC bit-mask filter (active
 *     value at or above 90% or at or below 10% invariance over at least 16 samples of this copy, or
 *     seen in 4 intervals), move to the next partition of the program if it is partitioned, and
 *     restart with clean slots;
 *   - thrashing (1024 replacements): do not copy; split the current partition 4 ways if the slots
 *     thrashed within 4096 records, 2 ways otherwise (mask/match filter, at most 64 parts), restart;
 *   - the machine timer, every VP_RESAMPLE_INSNS instructions (the CPU model's mtime counts
 *     instructions): re-sampling for phase behaviour (the bit-mask filter cleared: every load is
 *     profiled again) and the next partition, so a partition whose loads are all masked, which
 *     sends no more records and so no more interrupts, does not keep the profiler for good.
 * At the end it stops sampling, lets the engine drain, copies the last slots and writes the
 * profile to vp-profile.txt (semihosting; hwprof-sim --out-dir) for the host's estimate
 * (hwprof-vpeval). The handler runs on the simulated CPU: its cost is measured like any code. It
 * turns sampling off while it runs, so the profile (and the truth hwprof-sim --value-truth counts)
 * is the program's, not the handler's. */
#include <stdint.h>
#include <stdio.h>

#include "hwprof_cop.h"
#include "hwprof_regs.h"

#define SLOTS 256u
#define MAX_LOADS 2048u /* profile entries (open addressing) */
#define MAX_VALUES 8u   /* values kept per load; the samples of further values stay in the total */
#ifndef VP_RESAMPLE_INSNS
#define VP_RESAMPLE_INSNS 200000u /* instructions between re-samplings (the timer) */
#endif
#define MAX_PART_BITS 6u
#define FAILED_MAX 63u  /* valueprof.s: i2 is 6 bits wide */
#ifndef VP_INTERVAL_LOG2
#define VP_INTERVAL_LOG2 15u /* records per interval: 32,768 (valueprof.s's i4; 16 at most) */
#endif

int workload_main(void);
extern const hwprof_cop_image_t vp_image;

static const hwprof_t hw = {.base = HWPROF_PLAT_REG_BASE};

typedef struct {
  uint32_t value, hits, misses;
} vp_val_t;
typedef struct {
  uint32_t pc, total, intervals, last_copy;
  uint8_t n;
  uint16_t mask_gen; /* masked while equal to the current generation (re-sampling starts a new one) */
  vp_val_t v[MAX_VALUES];
} vp_load_entry_t;
static vp_load_entry_t prof[MAX_LOADS];
static uint32_t n_loads, lost_loads, lost_values, masked_now, masks_set;
static uint16_t gen = 1;
static uint32_t copies, intervals, thrashes, timer_ticks, interrupts, handler_errors, unexpected_traps, handler_insns;
static uint32_t part_bits, part, records_at_start;
static uint32_t totals[SLOTS / 2];

static inline uint32_t instret(void) {
  uint32_t v;
  __asm__ volatile("csrr %0, minstret" : "=r"(v));
  return v;
}

static vp_load_entry_t *entry_of(uint32_t pc) {
  for (uint32_t k = (pc >> 2) & (MAX_LOADS - 1u), probes = 0; probes < MAX_LOADS; probes++, k = (k + 1u) & (MAX_LOADS - 1u)) {
    if (prof[k].total != 0 && prof[k].pc == pc) return &prof[k];
    if (prof[k].total == 0) {
      prof[k].pc = pc;
      n_loads++;
      return &prof[k];
    }
  }
  return NULL;
}

/* copy the slots into the profile; mask what is characterised (unless final). Only the slots that
 * counted something are read (the totals first): a copy costs little when few slots were used. The
 * register window is read directly (the driver's array reads check their bounds on every call). */
static int copy_slots(const hwprof_t *h, int final) {
  if (hwprof_cop_read_data(h, 384, SLOTS / 2, totals) != kHwprofOk) return -1;
  for (uint32_t n = 0; n < SLOTS; n++) {
    const uint32_t total = (totals[n / 2] >> (16u * (n % 2u))) & 0xffffu;
    if (total == 0) continue;
    const uint32_t key = hwprof_mmio_read32(h, HWPROF_COP_CAM_KEY_ADDR + 4u * n);
    const uint32_t value = hwprof_mmio_read32(h, HWPROF_COP_DATA_ADDR + 4u * n);
    const uint32_t hits = (hwprof_mmio_read32(h, HWPROF_COP_DATA_ADDR + 4u * (256u + n / 4u)) >> (8u * (n % 4u))) & 0xffu;
    const uint32_t misses = (hwprof_mmio_read32(h, HWPROF_COP_DATA_ADDR + 4u * (320u + n / 4u)) >> (8u * (n % 4u))) & 0xffu;
    vp_load_entry_t *e = entry_of(key);
    if (e == NULL) {
      lost_loads++;
      continue;
    }
    e->total += total;
    if (e->last_copy != copies + 1u) { /* a load may hold several slots in one interval */
      e->intervals++;
      e->last_copy = copies + 1u;
    }
    uint32_t k = 0;
    while (k < e->n && e->v[k].value != value) k++;
    if (k == e->n && e->n < MAX_VALUES) e->v[e->n++].value = value;
    if (k < e->n) {
      e->v[k].hits += hits;
      e->v[k].misses += misses;
    } else {
      lost_values++;
    }
    if (final || e->mask_gen == gen) continue;
    const uint32_t seen = hits + misses;
    const int sure = seen >= 16u && (10u * hits >= 9u * seen || 10u * hits <= seen);
    if (sure || e->intervals >= 4u) {
      if (hwprof_cop_mask_pc(h, e->pc, true) != kHwprofOk) return -1;
      e->mask_gen = gen;
      masked_now++;
      masks_set++;
    }
  }
  return 0;
}

static void set_partition(const hwprof_t *h) {
  const uint32_t mask = (1u << part_bits) - 1u;
  const hwprof_cop_filter_t f = {.prescale = 1, .mask = mask, .match = part & mask};
  if (hwprof_cop_set_filter(h, &f) != kHwprofOk) handler_errors++;
}

static int on_intr(void *ctx, const hwprof_t *h, uint32_t intr_pc) {
  (void)ctx;
  (void)intr_pc;
  interrupts++;
  hwprof_cop_status_t st;
  if (hwprof_cop_status(h, &st) != kHwprofOk) return -1;
  const uint32_t failed = hwprof_mmio_read32(h, HWPROF_COP_I_ADDR + 4u * 2u);
  const uint32_t interval = hwprof_mmio_read32(h, HWPROF_COP_I_ADDR + 4u * 4u);
  if (interval == 0 || failed == FAILED_MAX) { /* i4 wrapped: the interval ended */
    intervals += interval == 0;
    copies++;
    if (copy_slots(h, 0) != 0) return -1;
    if (part_bits) {
      part = (part + 1u) & ((1u << part_bits) - 1u);
      set_partition(h);
    }
  } else {
    /* thrashing: the samples have little information; split the current part */
    thrashes++;
    if (part_bits < MAX_PART_BITS) {
      part_bits += (st.records - records_at_start < 4096u && part_bits + 2u <= MAX_PART_BITS) ? 2u : 1u;
      set_partition(h);
    }
  }
  records_at_start = st.records;
  return (int)HWPROF_COP_CLEAR_ALL;
}

static void set_timer(uint32_t at) {
  volatile uint32_t *cmp = (volatile uint32_t *)(uintptr_t)HWPROF_PLAT_MTIMECMP;
  cmp[0] = 0xffffffffu; /* no early interrupt while the two halves change */
  cmp[1] = 0;
  cmp[0] = at;
}

/* re-sampling and the next partition */
static void on_timer(void) {
  timer_ticks++;
  if (hwprof_cop_clear_mask(&hw) != kHwprofOk) handler_errors++;
  gen++; /* every mask is gone */
  masked_now = 0;
  if (part_bits) {
    part = (part + 1u) & ((1u << part_bits) - 1u);
    set_partition(&hw);
  }
  set_timer(instret() + VP_RESAMPLE_INSNS);
}

__attribute__((interrupt("machine"))) static void trap_handler(void) {
  const uint32_t t0 = instret();
  uint32_t cause;
  __asm__ volatile("csrr %0, mcause" : "=r"(cause));
  if (cause == 0x8000000bu) {
    const uint32_t ctrl = hwprof_mmio_read32(&hw, HWPROF_VPF_CTRL_ADDR);
    const uint32_t on = ctrl & (1u << HWPROF_VPF_CTRL_ENABLE_LSB);
    hwprof_mmio_write32(&hw, HWPROF_VPF_CTRL_ADDR, ctrl & ~on); /* not the handler's own loads */
    bool handled = false;
    if (hwprof_cop_handle_irq(&hw, on_intr, NULL, &handled) != kHwprofOk || !handled) handler_errors++;
    hwprof_mmio_write32(&hw, HWPROF_VPF_CTRL_ADDR, hwprof_mmio_read32(&hw, HWPROF_VPF_CTRL_ADDR) | on);
    handler_insns += instret() - t0;
  } else if (cause == 0x80000007u) {
    const uint32_t ctrl = hwprof_mmio_read32(&hw, HWPROF_VPF_CTRL_ADDR);
    const uint32_t on = ctrl & (1u << HWPROF_VPF_CTRL_ENABLE_LSB);
    hwprof_mmio_write32(&hw, HWPROF_VPF_CTRL_ADDR, ctrl & ~on);
    on_timer();
    hwprof_mmio_write32(&hw, HWPROF_VPF_CTRL_ADDR, hwprof_mmio_read32(&hw, HWPROF_VPF_CTRL_ADDR) | on);
    handler_insns += instret() - t0;
  } else {
    unexpected_traps++;
    uint32_t epc;
    __asm__ volatile("csrr %0, mepc" : "=r"(epc));
    __asm__ volatile("csrw mepc, %0" ::"r"(epc + 4u));
  }
}

static void write_profile(void) {
  FILE *f = fopen("vp-profile.txt", "w");
  if (f == NULL) {
    printf("vp firmware: note: vp-profile.txt not written (the host refused the file: hwprof-sim --out-dir=DIR)\n");
    return;
  }
  fprintf(f, "# hwprof-vp-profile 1\n# load PC total intervals masked, then its values: value hits misses\n");
  for (uint32_t k = 0; k < MAX_LOADS; k++) {
    const vp_load_entry_t *e = &prof[k];
    if (e->total == 0) continue;
    fprintf(f, "load 0x%08lx %lu %lu %u\n", (unsigned long)e->pc, (unsigned long)e->total, (unsigned long)e->intervals, e->mask_gen == gen ? 1u : 0u);
    for (uint32_t j = 0; j < e->n; j++)
      fprintf(f, "value 0x%08lx %lu %lu\n", (unsigned long)e->v[j].value, (unsigned long)e->v[j].hits, (unsigned long)e->v[j].misses);
  }
  fclose(f);
}

int main(void) {
  const uint32_t setup0 = instret();
  if (hwprof_cop_load(&hw, &vp_image) != kHwprofOk) return 90;
  const uint32_t idxw = hwprof_mmio_read32(&hw, HWPROF_COP_IDXW_ADDR);
  hwprof_mmio_write32(&hw, HWPROF_COP_IDXW_ADDR, (idxw & ~(0xfu << 16)) | (VP_INTERVAL_LOG2 - 1u) << 16); /* i4 */
  set_partition(&hw);
  if (hwprof_cop_clear_mask(&hw) != kHwprofOk) return 91;
  hwprof_mmio_write32(&hw, HWPROF_TOP_IRQ_ENABLE_ADDR, 1u << HWPROF_TOP_IRQ_ENABLE_COPROC_LSB);
  __asm__ volatile("csrw mtvec, %0" ::"r"((uint32_t)(uintptr_t)trap_handler));
  set_timer(instret() + VP_RESAMPLE_INSNS);
  __asm__ volatile("csrs mie, %0" ::"r"((1u << 11) | (1u << 7))); /* MEIE, MTIE */
  __asm__ volatile("csrs mstatus, %0" ::"r"(1u << 3));            /* MIE */
  if (hwprof_cop_start(&hw, HWPROF_COP_CLEAR_ALL) != kHwprofOk) return 92;
  const uint32_t setup = instret() - setup0;

  const uint32_t w0 = instret(), h0 = handler_insns;
  int rc = workload_main();
  const uint32_t program = instret() - w0 - (handler_insns - h0); /* the program's own instructions */
  __asm__ volatile("csrc mie, %0" ::"r"(1u << 7));

  /* sampling off; the engine drains the buffer (the handler may still run), then the last slots */
  const uint32_t end0 = instret();
  hwprof_mmio_write32(&hw, HWPROF_VPF_CTRL_ADDR, 0);
  hwprof_cop_status_t st;
  unsigned polls = 0;
  do {
    if (hwprof_cop_status(&hw, &st) != kHwprofOk || ++polls > 100000u) return 94;
  } while (st.buffered != 0 || (hwprof_mmio_read32(&hw, HWPROF_COP_STATUS_ADDR) & (1u << HWPROF_COP_STATUS_DFE_VALID_LSB)));
  __asm__ volatile("csrc mstatus, %0" ::"r"(1u << 3));
  if (hwprof_cop_stop(&hw) != kHwprofOk || copy_slots(&hw, 1) != 0) handler_errors++;
  if (hwprof_cop_status(&hw, &st) != kHwprofOk) return 95;
  const uint32_t final_copy = instret() - end0;

  printf("vp firmware: %lu loads passed the filters, %lu sampled, %lu dropped; the engine ran %lu records; %lu interrupts "
         "(%lu copies, %lu at an interval's end, %lu thrashing, %lu timer); program split into %lu parts; program %lu instructions; overhead: setup %lu, handler %lu, final copy %lu "
         "instructions; profile: %lu load PCs, %lu masked at the end (%lu masks set), %lu values and %lu loads not kept\n",
         (unsigned long)st.passed, (unsigned long)st.sampled, (unsigned long)st.dropped, (unsigned long)st.records,
         (unsigned long)interrupts, (unsigned long)copies, (unsigned long)intervals, (unsigned long)thrashes, (unsigned long)timer_ticks, (unsigned long)(1u << part_bits),
         (unsigned long)program, (unsigned long)setup, (unsigned long)handler_insns, (unsigned long)final_copy, (unsigned long)n_loads,
         (unsigned long)masked_now, (unsigned long)masks_set, (unsigned long)lost_values, (unsigned long)lost_loads);
  write_profile();
  if (unexpected_traps || handler_errors) {
    printf("vp firmware: FAILED: %lu unexpected traps, %lu handler errors\n", (unsigned long)unexpected_traps,
           (unsigned long)handler_errors);
    return rc ? rc : 96;
  }
  return rc;
}
