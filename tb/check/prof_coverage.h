/* The share of a run that a profile covers: every retired instruction of the program (not a trap
 * handler's, not an inserted profiling instruction) is attributed, from the retire stream alone, to
 * the function whose code it lies in, and the function is either profiled or not (with the reason
 * its profile left it out). The report says which share of the retired instructions and of the
 * conditional-branch executions lie in profiled functions, over the whole run and outside the
 * start-up code, and names the functions left out that ran most. A profile is only as exact as
 * this share: "0 differences" on half of a program says nothing about the other half. */
#ifndef HWPROF_TB_CHECK_PROF_COVERAGE_H
#define HWPROF_TB_CHECK_PROF_COVERAGE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "autogen/hwprof_regs.h"
#include "ports.h"

typedef struct {
  uint32_t lo, hi;   /* the function's code in the program that runs, [lo, hi) */
  const char *name;
  const char *why;   /* why the profile leaves it out; NULL: profiled */
  bool startup;      /* start-up or trap code (runs once, before main, or is the trap vector) */
  uint64_t insns, branches;
  uint64_t prof; /* profiling instructions retired in its code (what its profile costs) */
} prof_cov_fn_t;

typedef struct {
  prof_cov_fn_t *fn; /* sorted by lo, ranges disjoint */
  unsigned nfn;
  unsigned last;     /* the function of the previous instruction: most instructions follow it */
  uint64_t other_insns, other_branches, other_prof; /* outside every function (start-up stubs) */
} prof_cov_t;

/* fn[nfn] are copied and sorted; overlapping ranges are cut at the next function's start. Returns
 * 0, -1 when out of memory. */
int prof_cov_init(prof_cov_t *c, const prof_cov_fn_t *fn, unsigned nfn);
/* The functions of an instrumenter's map (edge or path profiles), as they lie in the instrumented
 * program: each function's copy from its entry to the next one's, the last to the end of the map's
 * text. The names and reasons stay the map's: m must outlive c. */
struct pm_map;
int prof_cov_init_map(prof_cov_t *c, const struct pm_map *m);
void prof_cov_free(prof_cov_t *c);

/* One retired instruction of the program at pc: a conditional branch, or a profiling instruction
 * (counted apart: the cost, not the program). */
static inline void prof_cov_count(prof_cov_t *c, uint32_t pc, bool branch, bool prof) {
  if (c->nfn == 0) return;
  prof_cov_fn_t *f = &c->fn[c->last];
  if (pc < f->lo || pc >= f->hi) {
    unsigned lo = 0, hi = c->nfn; /* the last function with fn.lo <= pc */
    while (hi - lo > 1) {
      const unsigned mid = (lo + hi) / 2;
      if (c->fn[mid].lo <= pc) lo = mid;
      else hi = mid;
    }
    f = &c->fn[lo];
    if (pc < f->lo || pc >= f->hi) {
      c->other_prof += prof;
      c->other_insns += !prof;
      c->other_branches += branch;
      return;
    }
    c->last = lo;
  }
  f->prof += prof;
  f->insns += !prof;
  f->branches += branch;
}

/* A retired instruction of the program: not a trap handler's, not a profiling instruction. */
static inline void prof_cov_retire(prof_cov_t *c, const hwprof_retire_ev_t *ev) {
  if (ev->valid && ev->trap != HWPROF_TRAP_HANDLER && ev->trap != 3u)
    prof_cov_count(c, ev->pc, ev->kind == HWPROF_KIND_BRANCH, ev->kind == HWPROF_KIND_PROF);
}

/* The totals: every attributed instruction, and those in profiled functions; outside_startup
 * leaves the start-up functions and the code outside every function out of both. */
typedef struct {
  uint64_t insns, branches, covered_insns, covered_branches;
} prof_cov_sum_t;
prof_cov_sum_t prof_cov_sum(const prof_cov_t *c, bool outside_startup);

/* One line, "PREFIX coverage: ...", then up to `top` lines naming the functions left out (start-up
 * code aside) that ran most (the share of the run's instructions each holds, and why it is left out),
 * then one line naming the `top` functions whose profiling instructions cost most. */
void prof_cov_report(const prof_cov_t *c, const char *prefix, unsigned top, FILE *to);

#endif /* HWPROF_TB_CHECK_PROF_COVERAGE_H */
