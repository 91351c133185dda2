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
#include "autogen/hwprof_regs.h"
#include "rt_counters.h"
#ifdef DYNOPT_TRACES
#include "hwprof_trace.h"
#include "trace_opt.h"
#endif

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
#ifdef DYNOPT_TRACES
/* Both optimizers (docs/dynopt.md, "One code cache for both optimizers"): the trace handler's hot
 * traces go into the same cache, straight-line; the trace controller samples the program's code only
 * (its address filter leaves the cache out), and its interrupt shares the line with the phase
 * interrupt. A layout of a function a trace starts in flushes the traces (relayout.h). */
#ifndef DYNOPT_TRACE_SLOTS
#define DYNOPT_TRACE_SLOTS 2048u
#endif
#ifndef DYNOPT_TRACE_HOT
#define DYNOPT_TRACE_HOT 32u /* samples that make a trace hot */
#endif
#ifndef DYNOPT_TRACE_SAMPLE
#define DYNOPT_TRACE_SAMPLE 64u /* 1 trace in 64 sampled, at first, with jitter ... */
#endif
#ifndef DYNOPT_TRACE_MIN_SAMPLE
#define DYNOPT_TRACE_MIN_SAMPLE 16u /* ... never more than 1 in 16 ... */
#endif
#ifndef DYNOPT_TRACE_MAX_SAMPLE
#define DYNOPT_TRACE_MAX_SAMPLE 4096u /* ... and, backing off while nothing new turns hot, 1 in 4096 at least (0: no back-off) */
#endif
#ifndef DYNOPT_TRACE_MIN_GAIN
#define DYNOPT_TRACE_MIN_GAIN 1u /* taken transfers a copy must straighten (hwprof_cc_config_t.min_gain) */
#endif
#ifndef DYNOPT_TRACE_SHARE
#define DYNOPT_TRACE_SHARE 80u /* percent of its start's samples a hot trace must hold to be placed */
#endif
#define DYNOPT_TRACE_JITTER 0x1d872b41u
/* The cache's exits leave through trampolines above the code (hwprof-sim --trampolines=LO:HI), so
 * that they reach it by a backward jump, which ends a trace: a trace that leaves a copy starts where
 * it lands, and the ways off a placed trace become traces of their own. They must lie within a
 * jump's reach (1 MiB) of the whole cache: the program's code must end below them. */
#ifndef DYNOPT_TRAMP_LO
#define DYNOPT_TRAMP_LO 0x80870000u
#endif
#ifndef DYNOPT_TRAMP_HI
#define DYNOPT_TRAMP_HI 0x80880000u
#endif
__attribute__((noinit)) static hwprof_cc_patch_t cc_patches[512];
__attribute__((noinit)) static hwprof_cc_exit_t cc_exits[2048];
__attribute__((noinit)) static hwprof_trace_entry_t trace_slots[DYNOPT_TRACE_SLOTS];
__attribute__((noinit)) static hwprof_trace_table_t trace_table;
__attribute__((noinit)) static hwprof_trace_opt_t topt;
static uint32_t transition_flushes; /* the traces flushed at a phase transition */
#else
__attribute__((noinit)) static hwprof_cc_patch_t cc_patches[1];
__attribute__((noinit)) static hwprof_cc_exit_t cc_exits[1];
#endif
__attribute__((noinit)) static hwprof_rl_t rl;
__attribute__((noinit)) static hwprof_rl_patch_t rl_patches[8192];
__attribute__((noinit)) static hwprof_rl_func_t rl_funcs[512];
__attribute__((noinit)) static uint32_t rl_copy[HWPROF_DYNOPT_MAX_BLOCKS];

static hwprof_result_t relayout_init(const hwprof_meta_t *m) {
  const uint32_t code_hi = (hwprof_meta_code_end(m) + 3u) & ~3u;
#ifdef DYNOPT_TRACES
  if (code_hi > DYNOPT_TRAMP_LO) {
    printf("dynopt: error: the program's code [0x%08lx, 0x%08lx) reaches the trampolines at 0x%08lx\n",
           (unsigned long)DYNOPT_CACHE_HI, (unsigned long)code_hi, (unsigned long)DYNOPT_TRAMP_LO);
    return kHwprofBadArg;
  }
#endif
  const hwprof_cc_config_t c = {
      .mem_base = HWPROF_PLAT_RAM_BASE, .mem = (uint32_t *)(uintptr_t)HWPROF_PLAT_RAM_BASE,
      .mem_words = DYNOPT_RAM_BYTES / 4u, .shadow = (uint32_t *)(uintptr_t)HWPROF_PLAT_SHADOW_BASE,
      .code_lo = DYNOPT_CACHE_HI, .code_hi = code_hi, .lo = DYNOPT_CACHE_LO, .hi = DYNOPT_CACHE_HI,
#ifdef DYNOPT_TRACES
      .tramp_lo = DYNOPT_TRAMP_LO, .tramp_hi = DYNOPT_TRAMP_HI,
#endif
      .patch = cc_patches, .patch_cap = sizeof cc_patches / sizeof cc_patches[0], .exit = cc_exits,
      .exit_cap = sizeof cc_exits / sizeof cc_exits[0],
#ifdef DYNOPT_TRACES
      .min_gain = DYNOPT_TRACE_MIN_GAIN, /* a trace with nothing to straighten costs the patch's jump and exits */
#endif
      .origin = (uint32_t *)(uintptr_t)(DYNOPT_CACHE_LO - (DYNOPT_CACHE_HI - DYNOPT_CACHE_LO))};
  hwprof_result_t r = hwprof_cc_init(&cc, c);
  if (r == kHwprofOk)
    r = hwprof_rl_init(&rl, &cc, rl_patches, sizeof rl_patches / sizeof rl_patches[0], rl_funcs,
                       sizeof rl_funcs / sizeof rl_funcs[0], rl_copy, sizeof rl_copy / sizeof rl_copy[0]);
#ifndef DYNOPT_TRACES_ONLY /* the trace-driven optimizer alone: the cache, no layouts */
  if (r == kHwprofOk) hwprof_dynopt_set_relayout(&opt, &rl);
#endif
  return r;
}
#endif
#ifdef DYNOPT_TRACES
#ifndef DYNOPT_RELAYOUT
#error "DYNOPT_TRACES needs DYNOPT_RELAYOUT: the traces go into the re-layout's code cache"
#endif
/* the trace controller in FIFO mode, sampling the program's code; hot traces into the cache */
static hwprof_result_t traces_init(void) {
  hwprof_config_t hc;
  hwprof_result_t r = hwprof_read_config(&hw, &hc);
  if (r == kHwprofOk)
    r = hwprof_trace_table_init(&trace_table, trace_slots, DYNOPT_TRACE_SLOTS, DYNOPT_TRACE_HOT,
                                hwprof_trace_opt_on_hot, &topt);
  if (r == kHwprofOk) r = hwprof_trace_opt_init(&topt, &cc, &trace_table, hc.hist_w);
  /* a way from the start off the trace pays the stub, the exit's jump and the patch's jump when it comes
     round again (some 3 instructions and 3 taken transfers) where the trace's way saves one taken
     transfer per branch it straightens: at 2 cycles per taken transfer the trace must hold some 80%
     of its start's samples to gain (docs/dynopt.md) */
  topt.min_share_pct = DYNOPT_TRACE_SHARE;
  const hwprof_trace_config_t tc = {.mode = kHwprofTraceFifo, .watermark = 8u, .sample_period = DYNOPT_TRACE_SAMPLE,
                                    .range_lo = cc.c.code_lo, .range_hi = cc.c.code_hi};
  trace_table.min_period = DYNOPT_TRACE_MIN_SAMPLE;
  trace_table.max_period = DYNOPT_TRACE_MAX_SAMPLE;
  if (r == kHwprofOk) r = hwprof_trace_configure(&hw, &tc);
  if (r == kHwprofOk) r = hwprof_trace_table_jitter(&hw, &trace_table, DYNOPT_TRACE_JITTER);
  if (r == kHwprofOk) r = hwprof_trace_enable(&hw, true);
  return r;
}
#endif
#ifdef DYNOPT_STATIC
#ifndef DYNOPT_RELAYOUT
#error "DYNOPT_STATIC needs DYNOPT_RELAYOUT: the static layout is placed by the re-layout"
#endif
/* The offline bound, run (docs/dynopt.md, "The static layout, run"): the counters of a whole earlier
 * run of this program, as they were at its end, loaded at DYNOPT_PROFILE_AT (hwprof-sim --load), lay
 * every function that ran out once at start; nothing moves afterwards. Without them the run lays
 * nothing out and its counters at the end are that profile (hwprof-sim --dump). */
#ifndef DYNOPT_PROFILE_AT
#define DYNOPT_PROFILE_AT 0x80f00000u
#endif
static bool static_recording; /* no profile loaded: this run records one */
#endif
static volatile int32_t status = 1; /* of the last request to the handler */
static volatile uint32_t unexpected_traps, error_irqs;
static uint32_t trace_errors; /* the trace handler's (with DYNOPT_TRACES) */
static uint64_t period, full_at, b5_at = UINT64_MAX;
static uint64_t handler_insns;
static uint32_t handler_entries;

enum { kRequestInit = 1, kRequestFinish = 2 };

static uint64_t instret(void) { return rt_minstret64(); }

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
#ifdef DYNOPT_TRACES
      if (status == kHwprofOk) status = traces_init();
#endif
#ifdef DYNOPT_STATIC
      if (status == kHwprofOk) {
        const hwprof_result_t s = hwprof_dynopt_layout_static(&opt, DYNOPT_PROFILE_AT);
        static_recording = s == kHwprofNoDevice;
        if (static_recording) hwprof_dynopt_set_relayout(&opt, NULL); /* nothing moves in this run */
        else status = s;
      }
#endif
    } else if (a7 == kRequestFinish) {
#ifdef DYNOPT_TRACES
      if (hwprof_trace_enable(&hw, false) != kHwprofOk) trace_errors++;
#endif
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
#ifdef DYNOPT_TRACES
    if ((pending & (1u << HWPROF_TOP_IRQ_PENDING_TRACE_LSB)) && hwprof_trace_irq_handler(&hw, &trace_table) != kHwprofOk)
      trace_errors++;
#endif
    if (pending & (1u << HWPROF_TOP_IRQ_PENDING_PHASE_LSB)) {
#ifdef DYNOPT_TRACES
      const uint32_t transitions = opt.transitions;
#endif
      if (hwprof_dynopt_on_phase(&opt, now) != kHwprofOk) status = kHwprofBadState;
#ifdef DYNOPT_TRACES
      /* a phase transition (a hot edge changed, not a false signal): the traces placed for the old
         phase go, the new phase's turn hot and are placed again (seed 002's cache, seed 000's signal) */
      if (opt.transitions != transitions && cc.npatch > 0) {
        if (hwprof_cc_flush(&cc) != kHwprofOk) trace_errors++;
        transition_flushes++;
      }
#endif
    }
    if (opt.resume_pc != epc) __asm__ volatile("csrw mepc, %0" ::"r"(opt.resume_pc)); /* a stub completed */
  } else if (cause == 0x80000007u) {
    /* the bound of paragraph 53: a full period; with 5B, the period of the functions with 5B pairs */
    const bool full = now >= full_at;
    if (full && hwprof_dynopt_on_period(&opt, now) != kHwprofOk) status = kHwprofBadState;
    if (!full && now >= b5_at && hwprof_dynopt_on_5b_period(&opt, now) != kHwprofOk) status = kHwprofBadState;
    if (opt.resume_pc != epc) __asm__ volatile("csrw mepc, %0" ::"r"(opt.resume_pc)); /* a stub completed */
    const uint64_t after = instret();
    if (full) full_at = after + period;
    if (opt.p.scheme == kHwprofScheme5B && (full || now >= b5_at)) b5_at = after + DYNOPT_PERIOD_5B;
    set_timer(full_at < b5_at ? full_at : b5_at);
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
    case kHwprofDynoptArm: return "arm";
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
  if (opt.p.scheme == kHwprofScheme5B) b5_at = instret() + DYNOPT_PERIOD_5B;
  set_timer(full_at < b5_at ? full_at : b5_at);
  __asm__ volatile("csrs mie, %0" ::"r"((1u << 11) | (1u << 7))); /* MEIE, MTIE */
  __asm__ volatile("csrs mstatus, %0" ::"r"(1u << 3));           /* MIE */
  status = kHwprofOk;

  int rc = workload_main();

  __asm__ volatile("csrc mstatus, %0" ::"r"(1u << 3));
  const int32_t run_status = status;
  const int32_t fin = request(kRequestFinish);
  printf("dynopt: scheme %s, %lu of %lu branches watched (%lu left out: no room), trigger %u, threshold >= %u; %lu transitions, "
         "%lu skipped as false signals, %lu periods; %lu functions armed at their first run (%lu arming interrupts, %lu "
         "refused by their metadata check); %lu error interrupts, %lu unexpected traps\n",
         opt.p.scheme == kHwprofScheme5B ? "5B" : "5A", (unsigned long)opt.npairs, (unsigned long)meta.hdr->nbranch, (unsigned long)opt.dropped_pairs, (unsigned)DYNOPT_TRIGGER,
         (unsigned)DYNOPT_MIN_THRESHOLD, (unsigned long)opt.transitions, (unsigned long)opt.fts_skips,
         (unsigned long)opt.periods, (unsigned long)opt.armed_funcs, (unsigned long)opt.arm_events,
         (unsigned long)opt.bad_funcs,
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
#ifdef DYNOPT_TRACES
  printf("dynopt: traces: %lu trace interrupts, %lu records, %lu hot; %lu placed in the code cache (%lu instructions, "
         "%lu words), %lu exits linked; hot traces %lu at a placed start or in the cache, %lu not rebuilt, %lu refused, "
         "%lu left alone, %lu minority; "
         "%lu flushes by a layout, %lu at a phase transition; %lu handler errors\n",
         (unsigned long)trace_table.interrupts, (unsigned long)trace_table.records, (unsigned long)trace_table.hot_traces,
         (unsigned long)cc.placed, (unsigned long)cc.insns_in, (unsigned long)cc.words_out, (unsigned long)cc.linked,
         (unsigned long)topt.cached_start, (unsigned long)topt.recon_failed, (unsigned long)topt.refused,
         (unsigned long)topt.left_alone, (unsigned long)topt.minority, (unsigned long)rl.trace_flushes,
         (unsigned long)transition_flushes, (unsigned long)trace_errors);
  for (unsigned k = 1; k < kHwprofCcReasons; k++)
    if (cc.refused[k]) printf("dynopt:   trace refused %lu: %s\n", (unsigned long)cc.refused[k], hwprof_cc_status_str(k));
#endif
#ifdef DYNOPT_STATIC
  if (static_recording)
    printf("dynopt: static layout: no profile at 0x%08lx, nothing laid out; this run's counters at its end are the "
           "profile: hwprof-sim --dump=0x%08lx:0x%lx:FILE, then --load=0x%08lx:FILE\n",
           (unsigned long)DYNOPT_PROFILE_AT, (unsigned long)meta.hdr->counters_at,
           (unsigned long)(meta.hdr->total_counters * meta.hdr->cnt_bytes), (unsigned long)DYNOPT_PROFILE_AT);
  else
    printf("dynopt: static layout: %lu functions laid out at start from the profile at 0x%08lx\n",
           (unsigned long)opt.layouts, (unsigned long)DYNOPT_PROFILE_AT);
#endif
  if (opt.p.scheme == kHwprofScheme5B)
    printf("dynopt: 5B: %lu pairs counted as 5B pairs at the end, %lu crossings of 5B pairs, %lu layout decisions "
           "waited for an old block, %lu stub prof.id completed by the handler\n",
           (unsigned long)opt.b5_pairs_end, (unsigned long)opt.b5_crossed, (unsigned long)opt.pinned,
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
  return rc ? rc : (unexpected_traps || trace_errors ? 93 : 0);
}
