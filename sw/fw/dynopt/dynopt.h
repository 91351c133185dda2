/* The dynamic optimizer's phase detection at run time (docs/dynopt.md): the firmware that arms the
 * edge-profiling unit per scheme 5A, takes the phase-transition interrupt, reconstructs the profile
 * (sw/fw/dynopt/phase.c), decides the new hot set, and re-arms. It runs inside the instrumented program
 * (RV32), from its interrupt handler; what it knows of the program comes from the run-time metadata
 * (hwprof_meta.h). Storage is static in the caller's hwprof_dynopt_t; nothing is allocated.
 *
 * What it watches: every conditional branch of an instrumented function whose taken and not-taken
 * edges both have counters (the instrumenter's mode all gives every branch). Its hot edge is the
 * one the layout makes fall through; at the start, the not-taken edge (the compiler's layout).
 * Function by function: a function is armed at its first run. Until then its counters count plainly,
 * but for its probe (the counters of the edges out of its entry block), preset so that its first
 * run overflows: the overflow interrupts like a crossing, and the overflowed-address buffer names
 * it. At a phase-transition interrupt only the functions the buffer names are read: those not armed
 * yet are armed, the others re-optimized and re-armed (if it overran: every armed one, and every
 * probe is read); the others keep counting from their last arming. */
#ifndef HWPROF_DYNOPT_H
#define HWPROF_DYNOPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwprof.h"
#include "hwprof_meta.h"
#include "phase.h"
#include "relayout.h"

#define HWPROF_DYNOPT_MAX_PAIRS 1024u
#define HWPROF_DYNOPT_MAX_FUNCS 1024u
#define HWPROF_DYNOPT_LOG 512u
#define HWPROF_DYNOPT_MAX_BLOCKS 2048u /* the largest function re-laid (blocks) ... */
#define HWPROF_DYNOPT_MAX_LAYOUT_BYTES 16384u /* ... and (its instrumented code) */
#define HWPROF_DYNOPT_MAX_CALLS 8192u /* direct calls noted in the armed functions' code */

typedef struct {
  uint16_t trigger;      /* cnt: crossings that make a transition (1..32767) */
  uint32_t min_threshold; /* HOT_THRESHOLD's floor */
  uint32_t ratio_log2;   /* HOT_THRESHOLD(f) = max(min_threshold, hottest pair edge of f last period >> ratio_log2),
                            doubled after each false transition signal in f (docs/dynopt.md) */
  unsigned fts_ratio;    /* a crossing whose hot mate is at least fts_ratio times as frequent is an FTS */
  unsigned invert_ratio; /* re-layout: a branch is inverted when its taken edge ran at least this many times
                            as often as its other edge in the period (docs/dynopt.md: what the copy's stub
                            costs), and back when less than invert_ratio - 1 times */
  uint32_t max_polls;    /* bound of each flush */
  uint8_t scheme;        /* hwprof_phase_scheme_t: with 5B, a forward branch of a re-laid function whose hot
                            edge ran at least b5_ratio times as often as the other in the period counts as a
                            Figure 5B pair where the copy allows (docs/dynopt.md); every other pair, and every
                            pair of a function not laid out, as 5A */
  unsigned b5_ratio;     /* (a 5B pair's cold edge pays a stub of two prof.id and a jump on every execution) */
  uint32_t quick_pairs;  /* a false-signal interrupt in a function of at least this many pairs is worked out on the
                            crossing pairs alone, the others left counting (docs/dynopt.md); in a smaller one the
                            whole function is, and re-armed, so that its pairs' periods stay aligned */
} hwprof_dynopt_params_t;

typedef enum {
  kHwprofDynoptStart = 0,  /* armed for the first time */
  kHwprofDynoptPhase = 1,  /* a phase-transition interrupt: re-optimized */
  kHwprofDynoptFts = 2,    /* a phase-transition interrupt judged false: skipped, re-armed */
  kHwprofDynoptPeriod = 3, /* a period ended (the bound of paragraph 53) */
  kHwprofDynoptArm = 5,    /* functions that started running were armed (their probes overflowed) */
  kHwprofDynoptFinish = 4, /* the run ended: totals written back */
} hwprof_dynopt_event_kind_t;

typedef struct {
  uint64_t instret; /* when (retired instructions) */
  uint8_t kind;     /* hwprof_dynopt_event_kind_t */
  uint16_t crossed, fts, flipped, oab; /* crossings, FTS, pairs whose hot edge changed, OAB entries */
  uint16_t funcs;                      /* functions worked on (re-armed) */
  uint16_t laid;                       /* functions re-laid out (with hwprof_dynopt_set_relayout) */
} hwprof_dynopt_event_t;

typedef struct {
  uint32_t taken, fall; /* counter addresses of the two edges */
  uint16_t func;        /* index into the metadata's functions */
  uint16_t src;         /* its block, in the function */
  uint32_t block_new;   /* its block's start in the instrumented program ... */
  uint32_t branch_new;  /* ... and the branch instruction, its last */
  bool taken_hot;       /* the taken edge is in H_i (the layout would make it fall through) */
  bool backward;        /* its taken edge goes back (a loop's): the layout never inverts it */
  bool want_taken;      /* the layout should make the taken edge fall through ... */
  bool laid_taken;      /* ... and its function's current layout does */
  bool b5;              /* the current copy counts it as a 5B pair, h the edge laid_taken names */
} hwprof_dynopt_pair_t;

typedef struct {
  uint32_t src, dst; /* blocks of the function being laid out */
  uint64_t w;
} hwprof_dynopt_cand_t; /* an edge that could fall through */

typedef struct {
  hwprof_t hw;
  hwprof_meta_t meta;
  hwprof_dynopt_params_t p;
  unsigned cnt_w;
  hwprof_dynopt_pair_t pair[HWPROF_DYNOPT_MAX_PAIRS];
  size_t npairs;
  hwprof_phase_edge_t edge[2 * HWPROF_DYNOPT_MAX_PAIRS]; /* 2i: pair i's taken edge, 2i + 1: its fall edge;
                                                            mates counted from the function's first pair */
  uint64_t counter[2 * HWPROF_DYNOPT_MAX_PAIRS];
  hwprof_phase_out_t out[2 * HWPROF_DYNOPT_MAX_PAIRS];
  uint64_t total[2 * HWPROF_DYNOPT_MAX_PAIRS];           /* each edge's executions over the whole run */
  uint64_t func_max[HWPROF_DYNOPT_MAX_FUNCS];            /* hottest pair edge per function, last period */
  uint64_t func_thr[HWPROF_DYNOPT_MAX_FUNCS];            /* HOT_THRESHOLD(f) of the current phase */
  uint32_t func_first[HWPROF_DYNOPT_MAX_FUNCS];          /* f's pairs, once armed: pair[func_first[f] .. + func_np[f]) */
  uint32_t func_np[HWPROF_DYNOPT_MAX_FUNCS];             /* f's branches ... */
  uint32_t func_br[HWPROF_DYNOPT_MAX_FUNCS];             /* ... from the metadata's branch func_br[f] on */
  uint32_t todo[16];                                     /* the functions to work on at this interrupt ... */
  size_t ntodo;                                          /* ... or SIZE_MAX: every armed one */
  uint32_t oab[16];                                      /* the counters the OAB named at this interrupt ... */
  size_t noab;                                           /* ... (all of them: it did not overrun) */
  uint32_t toarm[16];                                    /* the functions to arm at this interrupt ... */
  size_t ntoarm;                                         /* ... or SIZE_MAX: every probed one whose probe moved */
  bool func_armed[HWPROF_DYNOPT_MAX_FUNCS];              /* its pairs carry presets (else: plain counts) */
  uint32_t func_probe[HWPROF_DYNOPT_MAX_FUNCS][2];       /* until f is armed, the counters of the edges out of
                                                            f's entry block, preset to overflow at its first
                                                            run (every run moves one; 0: none) */
  uint16_t cfunc[HWPROF_DYNOPT_MAX_FUNCS];               /* the functions with counters, by counter address ... */
  uint32_t ncfunc;                                       /* ... (0: their areas are not in order, look at all) */
  bool func_fts[HWPROF_DYNOPT_MAX_FUNCS];                /* f had a false transition signal in the period */
  bool func_fixed[HWPROF_DYNOPT_MAX_FUNCS];              /* f cannot be laid out again (too large, a switch
                                                            table, refused): 5A keeps its own hot set for it */
  uint32_t func_b5[HWPROF_DYNOPT_MAX_FUNCS];             /* f's pairs counted as 5B pairs */
  hwprof_dynopt_event_t log[HWPROF_DYNOPT_LOG];
  size_t nlog;
  uint32_t transitions, fts_skips, periods, arm_events, armed_funcs, errors, dropped_pairs;
  uint32_t fts_quick;        /* false-signal interrupts worked out on the crossing pairs alone */
  uint32_t bad_funcs;        /* functions whose metadata failed its check when they were armed: never watched */
  /* the edge-driven re-layout (docs/dynopt.md): a function whose hot set changed is laid out
     again, its hot edges falling through (NULL: the decision only) */
  hwprof_rl_t *rl;
  uint32_t static_at; /* while hwprof_dynopt_layout_static works: where the whole run's counters are */
  uint32_t resume_pc; /* where the interrupted program resumes (mepc): set by the caller before each
                         on_phase / on_period; a call the program is inside is not re-aimed (0: none).
                         With 5B, a copy's stub stopped between its prof.id is completed by the firmware,
                         which moves resume_pc past them: the caller writes it back to mepc */
  uint32_t resume_orig; /* the program address of the instruction at resume_pc (0: a cache's own word) */
  hwprof_rl_block_t rl_blk[HWPROF_DYNOPT_MAX_BLOCKS];    /* scratch of a layout */
  uint32_t rl_order[HWPROF_DYNOPT_MAX_BLOCKS], rl_succ[HWPROF_DYNOPT_MAX_BLOCKS], rl_chain[HWPROF_DYNOPT_MAX_BLOCKS];
  uint8_t rl_flags[HWPROF_DYNOPT_MAX_BLOCKS];
  hwprof_dynopt_cand_t rl_cand[2u * HWPROF_DYNOPT_MAX_BLOCKS];
  hwprof_rl_block_t rl_callers[2u * HWPROF_DYNOPT_MAX_CALLS + HWPROF_DYNOPT_MAX_FUNCS + 1u]; /* where calls are re-aimed:
                                                                                          what runs */
  uint32_t call_site[HWPROF_DYNOPT_MAX_CALLS]; /* the direct calls in the armed functions' code (where each
                                                  starts, hwprof_rl_call_target) ... */
  uint32_t call_to[HWPROF_DYNOPT_MAX_CALLS];   /* ... and where it went when noted */
  uint32_t ncall_sites;
  uint32_t func_calls[HWPROF_DYNOPT_MAX_FUNCS][2]; /* ... f's: call_site[first .. + n) (n UINT32_MAX: no room,
                                                      its whole code is looked at) */
  bool func_noted[HWPROF_DYNOPT_MAX_FUNCS];       /* f's calls are noted (at the first layout after f was
                                                      armed) */
  uint32_t cache_call[HWPROF_DYNOPT_MAX_CALLS], cache_call_to[HWPROF_DYNOPT_MAX_CALLS]; /* the same in the copies
                                                      the layouts placed, noted as each is placed ... */
  uint32_t ncache_calls;                          /* ... (UINT32_MAX: no room, the whole cache is looked at) */
  uint32_t layouts, layout_refused, layout_last_refusal;
  uint32_t b5_pairs;        /* pairs counted as 5B pairs now ... */
  uint32_t b5_pairs_end;    /* ... and when the run ended (its finish lays them out as 5A pairs again) */
  uint32_t b5_crossed;      /* crossings of 5B pairs (paragraph 66, not undone) */
  uint32_t pinned;          /* pairs whose layout waited: the program was stopped in an old copy of their block */
  uint32_t stub_completions; /* prof.id of a stub the firmware completed */
  bool finished;             /* hwprof_dynopt_finish ran: the counters hold plain counts from now on */
} hwprof_dynopt_t;

void hwprof_dynopt_params_default(hwprof_dynopt_params_t *p);
/* Sets the probes of the functions with branch pairs (nothing else is armed yet) and the trigger.
 * kHwprofBadArg for parameters out of range or counters of another width than the hardware's. A
 * function's records are checked when it is armed (hwprof_meta_check_func): one that fails is never
 * watched (bad_funcs). Pairs past HWPROF_DYNOPT_MAX_PAIRS are left unwatched (dropped_pairs). */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_dynopt_init(hwprof_dynopt_t *d, const hwprof_t *hw, const hwprof_meta_t *m,
                                                      const hwprof_dynopt_params_t *p, uint64_t instret);
/* Re-lay functions out at transitions from now on, in rl's code cache (after hwprof_dynopt_init). */
void hwprof_dynopt_set_relayout(hwprof_dynopt_t *d, hwprof_rl_t *rl);
/* The offline bound, run (docs/dynopt.md, "The static layout, run"): the counters of a whole earlier
 * run of the same program, copied to profile_at as they were at its end, give every function that
 * ran there one layout now, by the same chaining as the dynamic one (every branch taken-first that
 * ran invert_ratio times as often taken, calls re-aimed from every function); then the re-layout is
 * detached, so nothing moves afterwards. After hwprof_dynopt_set_relayout. kHwprofNoDevice: the
 * counters at profile_at are all 0 (no profile was loaded). */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_dynopt_layout_static(hwprof_dynopt_t *d, uint32_t profile_at);
/* The phase-transition interrupt (call it from the handler; it acknowledges the cause): arms the
 * functions whose probes overflowed, works out the period of those whose counters crossed. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_dynopt_on_phase(hwprof_dynopt_t *d, uint64_t instret);
/* The period timer: ends the period of every armed function (fold, re-optimize, re-arm: paragraph
 * 53's bound). */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_dynopt_on_period(hwprof_dynopt_t *d, uint64_t instret);
/* With 5B: ends the period of the functions that have 5B pairs (fold, re-optimize, re-arm): their
 * cold counters hold a difference since the last arming, which a long earlier phase would keep far
 * from the threshold (docs/dynopt.md). From the period timer. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_dynopt_on_5b_period(hwprof_dynopt_t *d, uint64_t instret);
/* The run ends: fold the last period and write each watched counter's total back (modulo 2^CntW),
 * and each probe left its plain count, so the counters read as a plain edge profile again; the
 * trigger is disarmed. From a handler. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_dynopt_finish(hwprof_dynopt_t *d, uint64_t instret);

#endif /* HWPROF_DYNOPT_H */
