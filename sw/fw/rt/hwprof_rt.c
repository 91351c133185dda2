/* Firmware runtime for programs profiled on the simulated system (RV32 only): installs the
 * machine-mode interrupt handler, configures the trace controller (FIFO mode, sampling), runs the
 * program's main (renamed workload_main at build time), and reports what the Figure 8 handler
 * (sw/fw/drivers/hwprof_trace.c) collected. The handler runs on the simulated CPU, so its cost is measured
 * in retired instructions and cycles like any other code.
 *
 * Built with HWPROF_TRACE_CACHE (the -tc programs), the handler also acts on what it finds (seed 002,
 * Figure 9): a trace that turns hot is placed straight-line in a code cache and its start patched
 * with a jump there (sw/fw/dynopt/trace_opt.c, docs/dynopt.md). The cache is the first 64 KiB of RAM,
 * which the link (-Wl,--defsym) keeps free below the program's code, and its exits leave through
 * trampolines above the code: every way between the two is a backward jump, which ends a trace, so
 * the traces that run in the cache start there (the address-range filter leaves them out) and a
 * trace that leaves it starts where it lands. */
#include <stdint.h>
#include <stdio.h>

#include "autogen/hwprof_regs.h"
#include "hwprof_trace.h"
#ifdef HWPROF_TRACE_CACHE
#include "trace_opt.h"
#endif

#define TRACE_SLOTS 4096u
/* The sampling policy (docs/trace_ctrl_sw.md, "What sampling costs"): one trace in SAMPLE_PERIOD
 * sampled at first, halved when a trace turns hot (paragraph 75) but never below MIN_PERIOD, and
 * lengthened while nothing new turns hot, up to MAX_PERIOD, so that a program whose hot traces are
 * known stops paying for samples; a trace is hot after HOT_THRESHOLD samples. The handler costs some
 * 50 instructions a record, so at 1 in 32 traces of 10 instructions it costs about 15% of the
 * program, at 1 in 4,096 about 0.1%. */
#ifndef HOT_THRESHOLD
#define HOT_THRESHOLD 16u
#endif
#ifndef SAMPLE_PERIOD
#define SAMPLE_PERIOD 64u
#endif
#ifndef MIN_PERIOD
#define MIN_PERIOD 32u
#endif
#ifndef MAX_PERIOD
#define MAX_PERIOD 4096u
#endif
#define WATERMARK 8u

int workload_main(void);

static const hwprof_t hw = {.base = HWPROF_PLAT_REG_BASE}; /* the platform's address of hwprof_top */
/* not cleared by the start-up code (48 KB: picolibc's byte-wise memset would take some 300,000
   instructions): hwprof_trace_table_init clears it */
__attribute__((noinit)) static hwprof_trace_entry_t slots[TRACE_SLOTS];
static hwprof_trace_table_t table;
static volatile uint32_t unexpected_traps, handler_errors;

#ifdef HWPROF_TRACE_CACHE
/* the cache's bounds and the trampolines', set by the link (-Wl,--defsym: the first 64 KiB of RAM,
   and the 64 KiB below 1 MiB), and, from picolibc's linker script, the end of the program's code and
   of everything it loads */
extern uint32_t hwprof_code_cache[], hwprof_code_cache_end[], hwprof_trampolines[], hwprof_trampolines_end[];
extern const char __text_end[], __data_source_end[];
/* not cleared by the start-up code (40 KB: picolibc's byte-wise memset would take some 160,000
   instructions): every field is set before it is read (hwprof_cc_init, hwprof_trace_opt_init; the
   tables are written before they are read) */
__attribute__((noinit)) static hwprof_cc_t cc;
__attribute__((noinit)) static hwprof_cc_patch_t patches[512];
__attribute__((noinit)) static hwprof_cc_exit_t exits[2048];
__attribute__((noinit)) static hwprof_trace_opt_t topt;

static uint32_t addr_of(const void *p) { return (uint32_t)(uintptr_t)p; }

/* The cache over the program's memory from the start of RAM (the cache) to the trampolines' end,
 * with the shadow words. */
static hwprof_result_t cache_init(void) {
  const hwprof_cc_config_t c = {
      .mem_base = addr_of(hwprof_code_cache), .mem = hwprof_code_cache,
      .mem_words = (addr_of(hwprof_trampolines_end) - addr_of(hwprof_code_cache)) / 4u,
      .shadow = (uint32_t *)(uintptr_t)HWPROF_PLAT_SHADOW_BASE,
      .code_lo = addr_of(hwprof_code_cache_end), .code_hi = addr_of(__text_end),
      .lo = addr_of(hwprof_code_cache), .hi = addr_of(hwprof_code_cache_end),
      .tramp_lo = addr_of(hwprof_trampolines), .tramp_hi = addr_of(hwprof_trampolines_end),
      .patch = patches, .patch_cap = sizeof patches / sizeof patches[0],
      .exit = exits, .exit_cap = sizeof exits / sizeof exits[0]};
  if (c.mem_base != HWPROF_PLAT_RAM_BASE || addr_of(__data_source_end) > c.tramp_lo ||
      c.tramp_hi - c.mem_base > (UINT32_C(1) << 20)) {
    printf("firmware: error: the program's image [0x%08lx, 0x%08lx) does not fit between the code cache [0x%08lx, "
           "0x%08lx) and the trampolines [0x%08lx, 0x%08lx), all within a jump's reach (1 MiB)\n",
           (unsigned long)c.code_lo, (unsigned long)addr_of(__data_source_end), (unsigned long)c.lo, (unsigned long)c.hi,
           (unsigned long)c.tramp_lo, (unsigned long)c.tramp_hi);
    return kHwprofBadArg;
  }
  hwprof_config_t cfg;
  hwprof_result_t r = hwprof_read_config(&hw, &cfg);
  if (r == kHwprofOk) r = hwprof_cc_init(&cc, c);
  if (r == kHwprofOk) r = hwprof_trace_opt_init(&topt, &cc, &table, cfg.hist_w);
  return r;
}
#endif

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
#ifdef HWPROF_TRACE_CACHE
  if (hwprof_trace_table_init(&table, slots, TRACE_SLOTS, HOT_THRESHOLD, hwprof_trace_opt_on_hot, &topt) != kHwprofOk ||
      cache_init() != kHwprofOk)
    return 90;
  /* only traces that start in the program's code: those in the cache are its copies */
  const hwprof_trace_config_t cfg = {.mode = kHwprofTraceFifo, .watermark = WATERMARK, .sample_period = SAMPLE_PERIOD,
                                     .range_lo = cc.c.code_lo, .range_hi = cc.c.code_hi};
#else
  if (hwprof_trace_table_init(&table, slots, TRACE_SLOTS, HOT_THRESHOLD, NULL, NULL) != kHwprofOk) return 90;
  const hwprof_trace_config_t cfg = {.mode = kHwprofTraceFifo, .watermark = WATERMARK, .sample_period = SAMPLE_PERIOD};
#endif
  table.min_period = MIN_PERIOD;
  table.max_period = MAX_PERIOD;
  if (hwprof_trace_configure(&hw, &cfg) != kHwprofOk) return 91;
#ifdef SAMPLE_JITTER
  if (hwprof_trace_table_jitter(&hw, &table, SAMPLE_JITTER) != kHwprofOk) return 91;
#endif
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
#ifdef HWPROF_TRACE_CACHE
  printf("firmware: code cache [0x%08lx, 0x%08lx): %lu traces placed (%lu instructions, %lu words with their exits), "
         "%lu exits linked, %lu returns re-aimed, %lu trampolines; hot traces: %lu at a placed start left alone, "
         "%lu not rebuilt, %lu refused\n",
         (unsigned long)cc.c.lo, (unsigned long)cc.c.hi, (unsigned long)cc.placed, (unsigned long)cc.insns_in,
         (unsigned long)cc.words_out, (unsigned long)cc.linked, (unsigned long)cc.returns_linked,
         (unsigned long)((cc.tramp_next - cc.c.tramp_lo) / 4u), (unsigned long)topt.cached_start,
         (unsigned long)topt.recon_failed, (unsigned long)topt.refused);
  for (unsigned k = 1; k < kHwprofCcReasons; k++)
    if (cc.refused[k]) printf("firmware:   refused %lu: %s\n", (unsigned long)cc.refused[k], hwprof_cc_status_str(k));
#endif
  if (unexpected_traps || handler_errors)
    printf("firmware: %lu unexpected traps, %lu handler errors\n", (unsigned long)unexpected_traps,
           (unsigned long)handler_errors);
  return rc ? rc : (unexpected_traps || handler_errors ? 93 : 0);
}
