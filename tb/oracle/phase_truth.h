/* Ground truth for program phases (docs/dynopt.md, "Ground truth"): the exact branch profile of
 * the program over fixed windows of its run, from the retire stream, independent of the profiling
 * hardware and the firmware. A window's hot set is the set of branch edges that carry a clear
 * majority (at least PHASE_TRUTH_SHARE percent) of a branch executed at least PHASE_TRUTH_MIN times
 * in it; the hot set changed at a window whose hot set holds edges the previous one did not, on
 * branches that account for at least PHASE_TRUTH_WEIGHT percent of the window's branch executions:
 * a change of kind 1 when some of them are branches whose clear majority flipped, of kind 2 when
 * they are all new code (branches with no clear majority before).
 * The program's instructions only: a trap handler's are not counted (ev->trap). */
#ifndef HWPROF_TB_ORACLE_PHASE_TRUTH_H
#define HWPROF_TB_ORACLE_PHASE_TRUTH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "oracle/cc_origin.h"

#include "ports.h"

#define PHASE_TRUTH_MIN 64u
#define PHASE_TRUTH_SHARE 60u
#define PHASE_TRUTH_WEIGHT 1u

typedef struct {
  uint32_t pc;
  uint32_t taken, not_taken; /* in the current window */
  int8_t hot;                /* the last clear majority: 1 taken, 0 not taken, -1 none yet */
} phase_truth_branch_t;

typedef struct {
  FILE *out;
  uint64_t window;     /* program instructions per window */
  uint64_t in_window;  /* program instructions so far in the current one */
  uint64_t start;      /* instret at the window's first instruction */
  uint64_t windows, changes;
  phase_truth_branch_t *br; /* open addressing on pc */
  uint32_t cap, n;
  bool failed;         /* out of memory: the file says so */
  cc_origin_t cc;      /* a code cache (phase_truth_set_cache): its copies count as their originals */
  uint32_t pending;    /* a copied branch's original, its way known at the program's next instruction */
} phase_truth_t;

/* Writes the header to out. Returns 0, or -1 (bad window or out of memory). */
int phase_truth_init(phase_truth_t *t, FILE *out, uint64_t window);
/* The program runs partly from the code cache [lo, hi) (its origin table below lo, in ram). */
void phase_truth_set_cache(phase_truth_t *t, uint32_t lo, uint32_t hi, const uint8_t *ram, uint32_t ram_base,
                           uint32_t ram_size);
/* One retired instruction; instret: the CPU's count after it. */
void phase_truth_event(phase_truth_t *t, const hwprof_retire_ev_t *ev, uint64_t instret);
/* Closes the last (partial) window. */
void phase_truth_finish(phase_truth_t *t, uint64_t instret);
void phase_truth_free(phase_truth_t *t);

#endif /* HWPROF_TB_ORACLE_PHASE_TRUTH_H */
