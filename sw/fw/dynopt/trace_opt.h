/* The trace-driven half of the dynamic optimizer (seed 002, Figure 9 steps 850-858; docs/dynopt.md,
 * "Hot traces into the code cache"): the hot callback of the Figure 8 handler's table. A trace that
 * reaches the table's threshold is rebuilt from the running program (trace reconstruction over the
 * code as it is, patches included: with the cache below the code a trace ends at a patch, and its
 * copy links to that trace's copy), placed in the code cache straight-line, its start patched with
 * a jump to the copy, and its table entry released.
 *
 * Portable C11 without allocation: the trace firmware runs it on the target (sw/fw/rt/hwprof_rt.c built
 * with HWPROF_TRACE_CACHE), the tests on the host. */
#ifndef HWPROF_DYNOPT_TRACE_OPT_H
#define HWPROF_DYNOPT_TRACE_OPT_H

#include <stdint.h>

#include "codecache.h"
#include "hwprof_recon.h"
#include "hwprof_trace.h"

#define HWPROF_TRACE_OPT_MAX_INSNS 1024u /* the longest trace it rebuilds */
#define HWPROF_TRACE_OPT_MAX_LEFT 256u   /* starts left to the original code (below) */

typedef struct {
  hwprof_cc_t *cc;
  hwprof_trace_table_t *table; /* where a placed trace's entry is released */
  unsigned hist_w;             /* the trace controller's history width (CFG_TRACE) */
  hwprof_image_t img;          /* the program's code, as reconstruction reads it */
  uint32_t pcs[HWPROF_TRACE_OPT_MAX_INSNS];
  /* Starts whose first hot trace had nothing to straighten (kHwprofCcNoGain): the program's hottest
   * way from there runs as well in its own code, and a colder trace from the same start placed later
   * would send that way through the copy's patch and an exit. Later hot traces from these starts are
   * left alone too. */
  uint32_t left[HWPROF_TRACE_OPT_MAX_LEFT];
  uint32_t nleft;
  /* Majority (0: off): a hot trace is placed only if it holds more than this percentage of the
   * samples the table holds for traces from its start: the copy's patch sends every way from the
   * start through the copy, and the ways the trace does not take leave it through exits. A trace
   * that fails is not handed over again (it stays hot in the table). */
  uint32_t min_share_pct;
  /* statistics */
  uint32_t hot;          /* traces handed over */
  uint32_t cached_start; /* ... that start at a placed trace's patch or inside the cache: left alone */
  uint32_t recon_failed; /* ... that could not be rebuilt */
  uint32_t refused;      /* ... that the cache refused (hwprof_cc_t.refused says why) */
  uint32_t left_alone;   /* ... that start where a hotter trace had nothing to straighten */
  uint32_t minority;     /* ... that held too small a share of their start's samples (min_share_pct) */
} hwprof_trace_opt_t;

/* cc is initialized; its memory holds the program's code [cc->c.code_lo, cc->c.code_hi). The
 * majority rule is off (set min_share_pct after this). */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_trace_opt_init(hwprof_trace_opt_t *o, hwprof_cc_t *cc,
                                                          hwprof_trace_table_t *table, unsigned hist_w);

/* The table's hwprof_trace_hot_fn (ctx: the hwprof_trace_opt_t). From the trace handler. */
void hwprof_trace_opt_on_hot(void *ctx, const hwprof_trace_rec_t *rec, uint32_t count);

#endif /* HWPROF_DYNOPT_TRACE_OPT_H */
