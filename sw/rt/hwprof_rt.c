/* Firmware runtime for programs profiled on the simulated system (RV32 only): installs the
 * machine-mode interrupt handler, configures the trace controller (FIFO mode, sampling), runs the
 * program's main (renamed workload_main at build time), and reports what the Figure 8 handler
 * (sw/hwprof_trace.c) collected. The handler runs on the simulated CPU, so its cost is measured
 * in retired instructions and cycles like any other code. */
#include <stdint.h>
#include <stdio.h>

#include "hwprof_regs.h"
#include "hwprof_trace.h"

#define TRACE_SLOTS 4096u
#define HOT_THRESHOLD 64u
#define SAMPLE_PERIOD 8u
#define WATERMARK 8u

int workload_main(void);

static const hwprof_t hw = {.base = HWPROF_PLAT_REG_BASE}; /* the platform's address of hwprof_top */
static hwprof_trace_entry_t slots[TRACE_SLOTS];
static hwprof_trace_table_t table;
static volatile uint32_t unexpected_traps, handler_errors;

__attribute__((interrupt("machine"))) static void trap_handler(void) {
  uint32_t cause;
  __asm__ volatile("csrr %0, mcause" : "=r"(cause));
  if (cause == 0x8000000bu) {
    if (hwprof_trace_irq_handler(&hw, &table) != kHwprofOk) handler_errors++;
  } else {
    unexpected_traps++; /* an exception in the program: skip the instruction */
    uint32_t epc;
    __asm__ volatile("csrr %0, mepc" : "=r"(epc));
    __asm__ volatile("csrw mepc, %0" ::"r"(epc + 4u));
  }
}

int main(void) {
  if (hwprof_trace_table_init(&table, slots, TRACE_SLOTS, HOT_THRESHOLD, NULL, NULL) != kHwprofOk) return 90;
  table.min_period = 2;
  const hwprof_trace_config_t cfg = {.mode = kHwprofTraceFifo, .watermark = WATERMARK, .sample_period = SAMPLE_PERIOD};
  if (hwprof_trace_configure(&hw, &cfg) != kHwprofOk) return 91;
  __asm__ volatile("csrw mtvec, %0" ::"r"((uint32_t)(uintptr_t)trap_handler));
  __asm__ volatile("csrs mie, %0" ::"r"(1u << 11));  /* MEIE */
  __asm__ volatile("csrs mstatus, %0" ::"r"(1u << 3)); /* MIE */
  if (hwprof_trace_enable(&hw, true) != kHwprofOk) return 92;

  int rc = workload_main();

  __asm__ volatile("csrc mstatus, %0" ::"r"(1u << 3));
  if (hwprof_trace_enable(&hw, false) != kHwprofOk) handler_errors++;
  if (hwprof_trace_irq_handler(&hw, &table) != kHwprofOk) handler_errors++; /* records below the watermark */
  const hwprof_trace_entry_t *top = NULL;
  for (size_t i = 0; i < TRACE_SLOTS; i++)
    if (slots[i].count && (top == NULL || slots[i].count > top->count)) top = &slots[i];
  uint32_t period = hwprof_mmio_read32(&hw, HWPROF_TRACE_CTRL_SAMPLE_RELOAD_ADDR);
  printf("firmware: %lu trace interrupts, %lu records, %lu distinct traces, %lu hot (>= %u), %lu lost; "
         "sampling period %u -> %lu\n",
         (unsigned long)table.interrupts, (unsigned long)table.records, (unsigned long)table.used,
         (unsigned long)table.hot_traces, HOT_THRESHOLD, (unsigned long)table.lost, SAMPLE_PERIOD,
         (unsigned long)period);
  if (top)
    printf("firmware: hottest trace start 0x%08lx history 0x%08lx, %lu samples\n", (unsigned long)top->rec.start,
           (unsigned long)top->rec.hist, (unsigned long)top->count);
  if (unexpected_traps || handler_errors)
    printf("firmware: %lu unexpected traps, %lu handler errors\n", (unsigned long)unexpected_traps,
           (unsigned long)handler_errors);
  return rc ? rc : (unexpected_traps || handler_errors ? 93 : 0);
}
