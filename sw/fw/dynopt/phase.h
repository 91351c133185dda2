/* Phase-transition arithmetic of seed 000, section 5 (Figures 5A and 5B): the counter presets that
 * make the hardware interrupt only when the hot set changes, and, at the interrupt, the new hot
 * set H_{i+1} and every edge's profile reconstructed from the counters. docs/dynopt.md.
 *
 * The counter convention (docs/dynopt.md, "Counters"): a counter is CntW bits wide and MAX_VALUE
 * is 2^CntW, the counters' modulus. A counter preset to MAX_VALUE - T (= -T mod 2^CntW) wraps to 0,
 * the hardware's overflow, on exactly the T-th increment, so "overflowed" means "executed at least
 * T times" (paragraph 56) and paragraph 59's profile = T + counter and paragraph 71's
 * profile(h) = counter(h) - counter(c) - DIFF_THRESHOLD hold exactly, modulo 2^CntW. The largest
 * count any edge may reach in a profiling period is MAX_VALUE / 2 - 1 (paragraph 53's
 * MAX_VALUE > 2 * max_count); the firmware keeps its periods below it.
 *
 * Portable C11 without allocation: it runs in the phase-transition handler on the target, and on
 * the host in the tests. */
#ifndef HWPROF_DYNOPT_PHASE_H
#define HWPROF_DYNOPT_PHASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwprof_result.h"

#define HWPROF_PHASE_NONE UINT32_MAX /* no mate */

typedef enum {
  kHwprofPhaseHot = 0,  /* in H_i: its counter starts at 0 */
  kHwprofPhaseCold = 1, /* in C_i: its counter starts at MAX_VALUE - threshold */
} hwprof_phase_role_t;

typedef enum {
  kHwprofScheme5A = 0, /* Figure 5A: a cold edge overflows after HOT_THRESHOLD executions */
  kHwprofScheme5B = 1, /* Figure 5B: a cold edge c overflows when profile(c) - profile(M(c)) reaches DIFF_THRESHOLD */
} hwprof_phase_scheme_t;

/* One profiled edge as the optimizer set it up for the current phase. */
typedef struct {
  uint8_t role;       /* hwprof_phase_role_t */
  uint64_t threshold; /* 5A: HOT_THRESHOLD of the edge's scope (hot and cold edges); 5B, cold edge: DIFF_THRESHOLD(c) */
  uint32_t mate;      /* the other edge of its branch (5B: M(c) for a cold edge, M^-1(h) for a hot one); HWPROF_PHASE_NONE */
} hwprof_phase_edge_t;

/* What the interrupt handler learns about one edge. */
typedef struct {
  uint64_t profile; /* profile(e): its executions in the period, reconstructed (paragraphs 59, 71) */
  bool hot_next;    /* e is in H_{i+1} */
  bool crossed;     /* e is in C_i and H_{i+1}: its counter overflowed (5B: and was not undone, paragraph 72) */
  bool fts;         /* a crossing that looks like a false transition signal (paragraphs 60-61) */
} hwprof_phase_out_t;

typedef struct {
  size_t crossed; /* |C_i and H_{i+1}| */
  size_t fts;     /* crossings judged false transition signals */
  bool skip;      /* more than half of the crossings are FTS: keep the current optimization (paragraph 61) */
} hwprof_phase_summary_t;

/* MAX_VALUE / 2 - 1: the most executions an edge may have in a period (cnt_w 8, 16, 32 or 64). */
uint64_t hwprof_phase_max_count(unsigned cnt_w);

/* The counter values that arm a phase: 0 for a hot edge, MAX_VALUE - threshold for a cold one
 * (5B: only a cold edge with a mate gets its difference threshold; an unpaired edge is armed as in
 * 5A). kHwprofBadArg (nothing written) for a bad width, a threshold of 0 or at least
 * hwprof_phase_max_count, or a 5B pair that does not point both ways between a cold and a hot edge. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_phase_presets(hwprof_phase_scheme_t scheme, const hwprof_phase_edge_t *edges,
                                                        size_t n, unsigned cnt_w, uint64_t *counters);

/* At the interrupt (or the end of a period): each edge's profile, whether it is in H_{i+1}, the
 * crossings and the FTS judgement, from the counters read after a flush.
 *   5A (paragraphs 58-61): a hot edge's profile is its counter and it stays hot if the counter
 *     exceeds its threshold; a cold edge's profile is threshold + counter and it crossed if that is
 *     at least its threshold. A crossing is an FTS if its mate (the hot edge it would displace) is
 *     still at least fts_ratio times as frequent (fts_ratio 0: no FTS test).
 *   5B (paragraphs 66-72): for a pair c, h = M(c): profile(c) = counter(h),
 *     profile(h) = counter(h) - counter(c) - DIFF_THRESHOLD(c); c crossed if profile(c) - profile(h)
 *     is at least DIFF_THRESHOLD(c) now (an overflow later undone by an underflow does not count),
 *     and then c replaces h in H_{i+1}; otherwise h stays. A difference threshold leaves no FTS.
 *     Unpaired edges follow 5A.
 * kHwprofBadArg for bad arguments (as hwprof_phase_presets); kHwprofBadState if a counter is
 * outside what its preset can reach in a period of at most hwprof_phase_max_count executions (the
 * period ran too long, or the counters were not armed as described): out is then incomplete. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_phase_evaluate(hwprof_phase_scheme_t scheme, const hwprof_phase_edge_t *edges,
                                                         const uint64_t *counters, size_t n, unsigned cnt_w,
                                                         unsigned fts_ratio, hwprof_phase_out_t *out,
                                                         hwprof_phase_summary_t *summary);

/* hwprof_phase_evaluate for edges hwprof_phase_presets accepted, their roles and mates unchanged
 * since (thresholds within the range it allows): the edges' check is not repeated, the rest is the
 * same (the counters and the width are still checked). What the firmware calls at each interrupt on
 * the edges it armed. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_phase_evaluate_armed(hwprof_phase_scheme_t scheme,
                                                               const hwprof_phase_edge_t *edges,
                                                               const uint64_t *counters, size_t n, unsigned cnt_w,
                                                               unsigned fts_ratio, hwprof_phase_out_t *out,
                                                               hwprof_phase_summary_t *summary);

#endif /* HWPROF_DYNOPT_PHASE_H */
