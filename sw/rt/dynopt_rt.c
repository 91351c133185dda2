/* Firmware runtime of the dynamic optimizer (docs/dynopt.md), linked into a program before the
 * instrumenter runs on it (RV32 only). The instrumenter stores the address of the program's run-time
 * metadata in hwprof_meta. main arms scheme 5A and runs the program's main (renamed workload_main);
 * the machine-mode handler takes the phase-transition interrupt and the period timer. Everything
 * that touches the counters runs inside the trap handler, where the pir ignores the instructions
 * (docs/pir.md, "Trap handlers"): start-up and the end are ecalls. At the end the counters hold
 * the whole run's edge profile again (the simulator's edge check compares it with the exact one),
 * and the optimizer's log is printed. */
#include <stdint.h>
#include <stdio.h>

#include "dynopt.h"
#include "hwprof_regs.h"

#ifndef DYNOPT_TRIGGER
#define DYNOPT_TRIGGER 1
#endif
#ifndef DYNOPT_MIN_THRESHOLD
#define DYNOPT_MIN_THRESHOLD 64
#endif
#ifndef DYNOPT_PERIOD
#define DYNOPT_PERIOD 0 /* instructions per period; 0: the longest the counters allow (paragraph 53) */
#endif
#ifndef DYNOPT_PERIOD_5B
#define DYNOPT_PERIOD_5B 500000 /* with 5B: instructions per period of the functions with 5B pairs */
#endif
#ifndef DYNOPT_SCAN
#define DYNOPT_SCAN 50000 /* instructions to the first scan for functions that run; doubled each time ... */
#endif
#ifndef DYNOPT_SCAN_MAX
#define DYNOPT_SCAN_MAX 800000 /* ... up to this */
#endif

int workload_main(void);



/* Filled by the instrumenter with the metadata's address (an initialized word, so it is in .data). */
volatile uint32_t hwprof_meta = 0xffffffffu;

static const hwprof_t hw = {.base = HWPROF_PLAT_REG_BASE};
/* not cleared by the start-up code (160 KB: some 0.6 M instructions): the loader zero-fills it, and
 * hwprof_dynopt_init sets every field it later reads */
__attribute__((noinit)) static hwprof_dynopt_t opt;
static hwprof_meta_t meta;

#ifdef DYNOPT_RELAYOUT
/* The edge-driven re-layout (docs/dynopt.md, "Re-laying functions out while they run"): the code
 * cache is the 512 KiB below the instrumented program's code (INSTR_TEXT_AT, 0x80800000), within a
 * jump's reach of all of it, and its origin table the 512 KiB below that; the simulator is told
 * both with --code-cache=DYNOPT_CACHE_LO:DYNOPT_CACHE_HI. The loader zero-fills the RAM. */
#ifndef DYNOPT_CACHE_LO
#define DYNOPT_CACHE_LO 0x80780000u
#endif
#ifndef DYNOPT_CACHE_HI
#define DYNOPT_CACHE_HI 0x80800000u
#endif
#define DYNOPT_RAM_BYTES (16u << 20)
__attribute__((noinit)) static hwprof_cc_t cc;
__attribute__((noinit)) static hwprof_cc_patch_t cc_patches[1];
__attribute__((noinit)) static hwprof_cc_exit_t cc_exits[1];
__attribute__((noinit)) static hwprof_rl_t rl;
__attribute__((noinit)) static hwprof_rl_patch_t rl_patches[8192];
__attribute__((noinit)) static hwprof_rl_func_t rl_funcs[512];
__attribute__((noinit)) static uint32_t rl_copy[HWPROF_DYNOPT_MAX_BLOCKS];

static hwprof_result_t relayout_init(const hwprof_meta_t *m) {
  const hwprof_cc_config_t c = {
      .mem_base = HWPROF_PLAT_RAM_BASE, .mem = (uint32_t *)(uintptr_t)HWPROF_PLAT_RAM_BASE,
      .mem_words = DYNOPT_RAM_BYTES / 4u, .shadow = (uint32_t *)(uintptr_t)HWPROF_PLAT_SHADOW_BASE,
      .code_lo = DYNOPT_CACHE_HI, .code_hi = m->hdr->counters_at, .lo = DYNOPT_CACHE_LO, .hi = DYNOPT_CACHE_HI,
      .patch = cc_patches, .patch_cap = 1, .exit = cc_exits, .exit_cap = 1,
      .origin = (uint32_t *)(uintptr_t)(DYNOPT_CACHE_LO - (DYNOPT_CACHE_HI - DYNOPT_CACHE_LO))};
  hwprof_result_t r = hwprof_cc_init(&cc, c);
  if (r == kHwprofOk)
    r = hwprof_rl_init(&rl, &cc, rl_patches, sizeof rl_patches / sizeof rl_patches[0], rl_funcs,
                       sizeof rl_funcs / sizeof rl_funcs[0], rl_copy, sizeof rl_copy / sizeof rl_copy[0]);
  if (r == kHwprofOk) hwprof_dynopt_set_relayout(&opt, &rl);
  return r;
}
#endif
static volatile int32_t status = 1; /* of the last request to the handler */
static volatile uint32_t unexpected_traps, error_irqs;
static uint64_t period, full_at, scan_at, scan = DYNOPT_SCAN, b5_at = UINT64_MAX;
static uint64_t handler_insns;
static uint32_t handler_entries;

enum { kRequestInit = 1, kRequestFinish = 2 };

static uint64_t instret(void) {
  uint32_t lo, hi, hi2;
  do {
    __asm__ volatile("csrr %0, minstreth" : "=r"(hi));
    __asm__ volatile("csrr %0, minstret" : "=r"(lo));
    __asm__ volatile("csrr %0, minstreth" : "=r"(hi2));
  } while (hi != hi2);
  return (uint64_t)hi << 32 | lo;
}

static void set_timer(uint64_t at) {
  volatile uint32_t *cmp = (volatile uint32_t *)(uintptr_t)HWPROF_PLAT_MTIMECMP;
  cmp[1] = 0xffffffffu; /* no spurious match while the halves change */
  cmp[0] = (uint32_t)at;
  cmp[1] = (uint32_t)(at >> 32);
}

static int32_t request(uint32_t what) {
  register uint32_t a7 __asm__("a7") = what;
  __asm__ volatile("ecall" : : "r"(a7) : "memory");
  return status;
}

__attribute__((interrupt("machine"))) static void trap_handler(void) {
  uint32_t cause, epc, a7;
  __asm__ volatile("mv %0, a7" : "=r"(a7));
  __asm__ volatile("csrr %0, mcause" : "=r"(cause));
  const uint64_t now = instret();
  handler_entries++;
  __asm__ volatile("csrr %0, mepc" : "=r"(epc));
  opt.resume_pc = epc; /* an interrupt resumes there: a call being made there is not re-aimed */
  if (cause == 11u) { /* ecall: a request of main */
    if (a7 == kRequestInit) {
      hwprof_dynopt_params_t p;
      hwprof_dynopt_params_default(&p);
      p.trigger = DYNOPT_TRIGGER;
      p.min_threshold = DYNOPT_MIN_THRESHOLD;
#ifdef DYNOPT_SCHEME_5B
      p.scheme = kHwprofScheme5B;
#endif
      /* the metadata is checked here, so that its cost counts as the optimizer's */
      status = hwprof_meta_open(&meta, (const void *)(uintptr_t)hwprof_meta, 1u << 24);
      if (status == kHwprofOk) status = hwprof_dynopt_init(&opt, &hw, &meta, &p, now);
#ifdef DYNOPT_RELAYOUT
      if (status == kHwprofOk) status = relayout_init(&meta);
#endif
    } else if (a7 == kRequestFinish) {
      status = hwprof_dynopt_finish(&opt, now);
    } else {
      status = kHwprofBadArg;
    }
    __asm__ volatile("csrr %0, mepc" : "=r"(epc));
    __asm__ volatile("csrw mepc, %0" ::"r"(epc + 4u));
  } else if (cause == 0x8000000bu) {
    const uint32_t pending = hwprof_mmio_read32(&hw, HWPROF_TOP_IRQ_PENDING_ADDR);
    if (pending & (1u << HWPROF_TOP_IRQ_PENDING_ERROR_LSB)) {
      error_irqs++;
      hwprof_mmio_write32(&hw, HWPROF_TOP_IRQ_PENDING_ADDR, 1u << HWPROF_TOP_IRQ_PENDING_ERROR_LSB);
    }
    if (pending & (1u << HWPROF_TOP_IRQ_PENDING_PHASE_LSB)) {
      if (hwprof_dynopt_on_phase(&opt, now) != kHwprofOk) status = kHwprofBadState;
    }
    if (opt.resume_pc != epc) __asm__ volatile("csrw mepc, %0" ::"r"(opt.resume_pc)); /* a stub completed */
  } else if (cause == 0x80000007u) {
    /* a scan for functions that started running, and at the bound of paragraph 53 a full period */
    const bool full = now >= full_at;
    if (!full && now >= b5_at && hwprof_dynopt_on_5b_period(&opt, now) != kHwprofOk) status = kHwprofBadState;
    if (hwprof_dynopt_on_period(&opt, now, full) != kHwprofOk) status = kHwprofBadState;
    if (opt.resume_pc != epc) __asm__ volatile("csrw mepc, %0" ::"r"(opt.resume_pc)); /* a stub completed */
    const uint64_t after = instret();
    if (full) full_at = after + period;
    if (opt.p.scheme == kHwprofScheme5B && (full || now >= b5_at)) b5_at = after + DYNOPT_PERIOD_5B;
    if (now >= scan_at) {
      scan_at = after + scan;
      scan = 2 * scan > DYNOPT_SCAN_MAX ? DYNOPT_SCAN_MAX : 2 * scan;
    }
    const uint64_t next = scan_at < full_at ? scan_at : full_at;
    set_timer(next < b5_at ? next : b5_at);
  } else {
    unexpected_traps++; /* an exception in the program: skip the instruction */
    __asm__ volatile("csrr %0, mepc" : "=r"(epc));
    __asm__ volatile("csrw mepc, %0" ::"r"(epc + 4u));
  }
  handler_insns += instret() - now; /* the optimizer's own cost, less a few instructions of entry and exit */
}

static const char *kind_name(uint8_t k) {
  switch (k) {
    case kHwprofDynoptStart: return "start";
    case kHwprofDynoptPhase: return "phase";
    case kHwprofDynoptFts: return "fts";
    case kHwprofDynoptPeriod: return "period";
    case kHwprofDynoptScan: return "scan";
    case kHwprofDynoptFinish: return "finish";
    default: return "?";
  }
}

int main(void) {
  if (hwprof_meta == 0xffffffffu) {
    printf("dynopt: error: no run-time metadata (instrument the program with hwprof-instr)\n");
    return 95;
  }
  __asm__ volatile("csrw mtvec, %0" ::"r"((uint32_t)(uintptr_t)trap_handler));
  if (request(kRequestInit) != kHwprofOk) {
    printf("dynopt: error: %s (%ld)\n", meta.hdr ? "cannot arm the edge-profiling unit" : "the run-time metadata is malformed",
           (long)status);
    return 96;
  }
  const uint64_t max = hwprof_phase_max_count(8u * meta.hdr->cnt_bytes);
  period = DYNOPT_PERIOD && DYNOPT_PERIOD < max ? DYNOPT_PERIOD : max;
  full_at = instret() + period;
  scan_at = instret() + scan;
  if (opt.p.scheme == kHwprofScheme5B) b5_at = instret() + DYNOPT_PERIOD_5B;
  const uint64_t next = scan_at < full_at ? scan_at : full_at;
  set_timer(next < b5_at ? next : b5_at);
  __asm__ volatile("csrs mie, %0" ::"r"((1u << 11) | (1u << 7))); /* MEIE, MTIE */
  __asm__ volatile("csrs mstatus, %0" ::"r"(1u << 3));           /* MIE */
  status = kHwprofOk;

  int rc = workload_main();

  __asm__ volatile("csrc mstatus, %0" ::"r"(1u << 3));
  const int32_t run_status = status;
  const int32_t fin = request(kRequestFinish);
  printf("dynopt: scheme %s, %lu of %lu branches watched (%lu left out: no room), trigger %u, threshold >= %u; %lu transitions, "
         "%lu skipped as false signals, %lu periods; %lu scans armed %lu functions; %lu error interrupts, %lu unexpected traps\n",
         opt.p.scheme == kHwprofScheme5B ? "5B" : "5A", (unsigned long)opt.npairs, (unsigned long)meta.hdr->nbranch, (unsigned long)opt.dropped_pairs, (unsigned)DYNOPT_TRIGGER,
         (unsigned)DYNOPT_MIN_THRESHOLD, (unsigned long)opt.transitions, (unsigned long)opt.fts_skips,
         (unsigned long)opt.periods, (unsigned long)opt.scans, (unsigned long)opt.armed_funcs,
         (unsigned long)error_irqs, (unsigned long)unexpected_traps);
  printf("dynopt: the handler retired %llu instructions in %lu entries\n", (unsigned long long)handler_insns,
         (unsigned long)handler_entries);
#ifdef DYNOPT_RELAYOUT
  printf("dynopt: re-layout: %lu layouts of %lu functions (%lu refused, the last: %s), %lu words in the code cache "
         "[0x%08lx, 0x%08lx), %lu stubs, %lu patched words\n",
         (unsigned long)opt.layouts, (unsigned long)rl.nfunc, (unsigned long)opt.layout_refused,
         opt.layout_refused ? hwprof_cc_status_str((hwprof_cc_status_t)opt.layout_last_refusal) : "none",
         (unsigned long)rl.words_out, (unsigned long)DYNOPT_CACHE_LO, (unsigned long)DYNOPT_CACHE_HI,
         (unsigned long)rl.stubs, (unsigned long)rl.npatch);
  if (opt.p.scheme == kHwprofScheme5B)
    printf("dynopt: 5B: %lu pairs counted as 5B pairs at the end, %lu crossings of 5B pairs, %lu layout decisions "
           "waited for an old block, %lu stub prof.id completed by the handler\n",
           (unsigned long)opt.b5_pairs, (unsigned long)opt.b5_crossed, (unsigned long)opt.pinned,
           (unsigned long)opt.stub_completions);
#endif
  unsigned long quiet = 0; /* period ends that changed nothing: counted above, not listed */
  for (size_t i = 0; i < opt.nlog; i++)
    quiet += opt.log[i].kind == kHwprofDynoptPeriod && opt.log[i].flipped == 0 && opt.log[i].laid == 0;
  if (quiet) printf("dynopt: %lu period ends that changed nothing are not listed\n", quiet);
  for (size_t i = 0; i < opt.nlog; i++) {
    const hwprof_dynopt_event_t *e = &opt.log[i];
    if (e->kind == kHwprofDynoptPeriod && e->flipped == 0 && e->laid == 0) continue;
    printf("dynopt: event %llu %s crossed %u fts %u flipped %u oab %u functions %u laid %u\n",
           (unsigned long long)e->instret, kind_name(e->kind), e->crossed, e->fts, e->flipped, e->oab, e->funcs,
           e->laid);
  }
  if (run_status != kHwprofOk || fin != kHwprofOk) {
    printf("dynopt: error: the optimizer failed (%ld, %ld)\n", (long)run_status, (long)fin);
    return rc ? rc : 97;
  }
  return rc ? rc : (unexpected_traps ? 93 : 0);
}
