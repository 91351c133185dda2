/* Firmware runtime for value profiling on the simulated system (RV32 only), the co-processor's
 * counterpart of hwprof_rt.c: it loads a co-processor program (sw/fw/cop/examples/load_count.s,
 * embedded as a C initializer by hwprof-cpasm --c), samples the program's loads, and as the
 * co-processor's interrupt handler copies the engine's table (load PC -> count) into an in-memory
 * profile and re-arms the engine with one write. At the end it lets the engine drain the sample
 * buffer, takes the last partial table, and checks the accounting: every record the front end
 * wrote was counted once, and every instruction that passed the filters was written or dropped.
 * The handler runs on the simulated CPU, so its cost is measured like any other code. Last, it
 * writes the profile to cop-profile.txt (semihosting; hwprof-sim --out-dir chooses where, and
 * --cop-check compares it with the retire stream: docs/cop.md, "The firmware's profile file"). */
#include <stdint.h>
#include <stdio.h>

#include "hwprof_cop.h"
#include "autogen/hwprof_regs.h"
#include "cop_rt_common.h"

#ifndef COP_PRESCALE
#define COP_PRESCALE 1u /* every load */
#endif
#define SLOTS 64u       /* load_count.s's table */
#define PROFILE_SLOTS 2048u

int workload_main(void);
extern const hwprof_cop_image_t cop_image;

static const hwprof_t hw = {.base = HWPROF_PLAT_REG_BASE};
static struct {
  uint32_t pc, count;
} profile[PROFILE_SLOTS];
static uint32_t distinct, lost, counted, interrupts, handler_errors, unexpected_traps;
static uint32_t handler_insns; /* retired in the interrupt handler: the run-time cost of profiling */

static void add(uint32_t pc, uint32_t n) {
  counted += n; /* load_count.s interrupts when a count reaches 0xffff: no count is ever cut short */
  for (uint32_t k = (pc >> 2) & (PROFILE_SLOTS - 1u), probes = 0; probes < PROFILE_SLOTS; probes++, k = (k + 1u) & (PROFILE_SLOTS - 1u)) {
    if (profile[k].count != 0 && profile[k].pc == pc) {
      profile[k].count += n;
      return;
    }
    if (profile[k].count == 0) {
      profile[k].pc = pc;
      profile[k].count = n;
      distinct++;
      return;
    }
  }
  lost += n;
}

/* copy the valid slots of the engine's table into the profile */
static int copy_table(const hwprof_t *h) {
  uint32_t keys[SLOTS], counts[SLOTS / 2];
  uint8_t valid[SLOTS];
  if (hwprof_cop_read_cam(h, 0, SLOTS, keys, valid) != kHwprofOk || hwprof_cop_read_data(h, 0, SLOTS / 2, counts) != kHwprofOk)
    return -1;
  for (uint32_t n = 0; n < SLOTS; n++)
    if (valid[n]) add(keys[n], (counts[n / 2] >> (16u * (n % 2u))) & 0xffffu);
  return 0;
}

static int on_intr(void *ctx, const hwprof_t *h, uint32_t intr_pc) {
  (void)ctx;
  (void)intr_pc;
  interrupts++;
  if (copy_table(h) != 0) return -1;
  return (int)HWPROF_COP_CLEAR_ALL; /* start over with an empty table */
}

__attribute__((interrupt("machine"))) static void trap_handler(void) {
  const uint32_t t0 = rt_instret();
  uint32_t cause;
  __asm__ volatile("csrr %0, mcause" : "=r"(cause));
  if (cause == 0x8000000bu) {
    bool handled = false;
    if (hwprof_cop_handle_irq(&hw, on_intr, NULL, &handled) != kHwprofOk || !handled) handler_errors++;
    handler_insns += rt_instret() - t0;
  } else {
    unexpected_traps++;
    rt_skip_instruction();
  }
}

/* one line per load PC: its address in hex and its count in decimal */
static void write_profile(void) {
  FILE *f = fopen("cop-profile.txt", "w");
  if (f == NULL) {
    printf("cop firmware: note: cop-profile.txt not written (the host refused the file: hwprof-sim --out-dir=DIR)\n");
    return;
  }
  fprintf(f, "# hwprof-cop-profile 2\n# load PC, records counted (every load the filters and prescaler chose and the buffer held)\n");
  unsigned long pcs = 0;
  for (uint32_t k = 0; k < PROFILE_SLOTS; k++)
    if (profile[k].count) {
      fprintf(f, "0x%08lx %lu\n", (unsigned long)profile[k].pc, (unsigned long)profile[k].count);
      pcs++;
    }
  fprintf(f, "end %lu\n", pcs);
  fclose(f);
}

int main(void) {
  int r;
  if ((r = hwprof_cop_load(&hw, &cop_image)) != kHwprofOk)
    return rt_refused("cop firmware", "loading the program", r, "it does not fit the build's co-processor", 90);
  const hwprof_cop_filter_t filter = {.prescale = COP_PRESCALE};
  if ((r = hwprof_cop_set_filter(&hw, &filter)) != kHwprofOk) return rt_refused("cop firmware", "setting the filters", r, "", 91);
  hwprof_mmio_write32(&hw, HWPROF_TOP_IRQ_ENABLE_ADDR, 1u << HWPROF_TOP_IRQ_ENABLE_COPROC_LSB);
  __asm__ volatile("csrw mtvec, %0" ::"r"((uint32_t)(uintptr_t)trap_handler));
  __asm__ volatile("csrs mie, %0" ::"r"(1u << 11));  /* MEIE */
  __asm__ volatile("csrs mstatus, %0" ::"r"(1u << 3)); /* MIE */
  if ((r = hwprof_cop_start(&hw, HWPROF_COP_CLEAR_ALL)) != kHwprofOk) return rt_refused("cop firmware", "starting the engine", r, "", 92);

  int rc = workload_main();

  /* sampling off; the engine drains the buffer (the handler still runs), then the last table */
  if ((r = hwprof_cop_drain(&hw, 100000u, NULL, NULL)) != kHwprofOk)
    return rt_refused("cop firmware", "draining the sample buffer", r, "", 94);
  hwprof_cop_status_t st;
  __asm__ volatile("csrc mstatus, %0" ::"r"(1u << 3));
  if (hwprof_cop_stop(&hw) != kHwprofOk || copy_table(&hw) != 0) handler_errors++;
  if ((r = hwprof_cop_status(&hw, &st)) != kHwprofOk) return rt_refused("cop firmware", "reading the status", r, "", 95);

  uint32_t top = 0;
  for (uint32_t k = 0; k < PROFILE_SLOTS; k++)
    if (profile[k].count > profile[top].count) top = k;
  printf("cop firmware: prescale %u: %lu loads passed the filters, %lu sampled, %lu dropped; the engine ran %lu records in "
         "%lu microinstructions (%lu mispredicted), %lu interrupts (handler: %lu instructions); profile: %lu distinct load "
         "PCs, %lu counted, hottest 0x%08lx x %lu\n",
         COP_PRESCALE, (unsigned long)st.passed, (unsigned long)st.sampled, (unsigned long)st.dropped, (unsigned long)st.records,
         (unsigned long)st.executed, (unsigned long)st.mispredicts, (unsigned long)interrupts, (unsigned long)handler_insns,
         (unsigned long)distinct,
         (unsigned long)counted, (unsigned long)profile[top].pc, (unsigned long)profile[top].count);
  /* the accounting: every written record was processed and counted once; the prescaler chose the
   * 1st passing load and then one in COP_PRESCALE (its count starts at 0: docs/cop.md), and each
   * chosen load was written or dropped */
  const uint32_t n = COP_PRESCALE > 1u ? COP_PRESCALE : 1u, chosen = (st.passed + n - 1u) / n;
  int bad = 0;
  if (st.records != st.sampled) bad |= 1;
  if (counted != st.records) bad |= 2;
  if (chosen != st.sampled + st.dropped) bad |= 4;
  if (lost || unexpected_traps || handler_errors) bad |= 8;
  if (bad)
    printf("cop firmware: ACCOUNTING FAILED (%d): %lu lost, %lu unexpected traps, %lu handler errors\n", bad, (unsigned long)lost,
           (unsigned long)unexpected_traps, (unsigned long)handler_errors);
  else
    printf("cop firmware: accounting exact: every sampled load counted once (%lu), one in %lu chosen\n", (unsigned long)counted,
           (unsigned long)n);
  write_profile();
  return rc ? rc : (bad ? 96 : 0);
}
