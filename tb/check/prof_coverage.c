/* The share of a run a profile covers; see prof_coverage.h. */
#include "check/prof_coverage.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "profmap.h"

static int by_lo(const void *a, const void *b) {
  const prof_cov_fn_t *x = a, *y = b;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

int prof_cov_init(prof_cov_t *c, const prof_cov_fn_t *fn, unsigned nfn) {
  memset(c, 0, sizeof *c);
  if (nfn == 0) return 0;
  if ((c->fn = malloc(nfn * sizeof *c->fn)) == NULL) return -1;
  memcpy(c->fn, fn, nfn * sizeof *fn);
  qsort(c->fn, nfn, sizeof *c->fn, by_lo);
  for (unsigned i = 0; i < nfn; i++) {
    c->fn[i].insns = c->fn[i].branches = c->fn[i].prof = 0;
    if (i + 1 < nfn && c->fn[i].hi > c->fn[i + 1].lo) c->fn[i].hi = c->fn[i + 1].lo;
  }
  c->nfn = nfn;
  return 0;
}

int prof_cov_init_map(prof_cov_t *c, const pm_map_t *m) {
  prof_cov_fn_t *fn = calloc(m->nfn + 1, sizeof *fn);
  if (fn == NULL) return -1;
  unsigned n = 0;
  for (unsigned i = 0; i < m->nfn; i++) {
    const pm_func_t *f = &m->fn[i];
    if (f->new_entry == 0) continue;
    fn[n++] = (prof_cov_fn_t){.lo = f->new_entry,
                              .hi = f->new_entry + (f->hi - f->lo), /* at least; cut or grown below */
                              .name = f->name,
                              .why = pm_profiled(f) ? NULL : f->why,
                              .startup = !pm_profiled(f) && !strcmp(f->why, PM_WHY_STARTUP)};
  }
  const int rc = prof_cov_init(c, fn, n); /* sorts them and cuts overlaps */
  for (unsigned i = 0; rc == 0 && i < c->nfn; i++) /* grown to the next function's copy */
    c->fn[i].hi = i + 1 < c->nfn ? c->fn[i + 1].lo : m->text_hi > c->fn[i].lo ? m->text_hi : c->fn[i].hi;
  free(fn);
  return rc;
}

void prof_cov_free(prof_cov_t *c) {
  free(c->fn);
  memset(c, 0, sizeof *c);
}

prof_cov_sum_t prof_cov_sum(const prof_cov_t *c, bool outside_startup) {
  prof_cov_sum_t s = {0, 0, 0, 0};
  if (!outside_startup) {
    s.insns = c->other_insns;
    s.branches = c->other_branches;
  }
  for (unsigned i = 0; i < c->nfn; i++) {
    const prof_cov_fn_t *f = &c->fn[i];
    if (outside_startup && f->startup) continue;
    s.insns += f->insns;
    s.branches += f->branches;
    if (f->why == NULL) {
      s.covered_insns += f->insns;
      s.covered_branches += f->branches;
    }
  }
  return s;
}

/* A share in percent with two decimals, rounded down: "100%" only when nothing is left out. */
static const char *pct(char *buf, size_t n, uint64_t part, uint64_t whole) {
  if (whole == 0 || part == whole) snprintf(buf, n, "100%%");
  else {
    const uint64_t h = part * 10000u / whole; /* part < 2^50 in any run this simulator makes */
    snprintf(buf, n, "%" PRIu64 ".%02" PRIu64 "%%", h / 100u, h % 100u);
  }
  return buf;
}

void prof_cov_report(const prof_cov_t *c, const char *prefix, unsigned top, FILE *to) {
  const prof_cov_sum_t run = prof_cov_sum(c, false), main = prof_cov_sum(c, true);
  char a[48], b[48], d[48], e[48];
  fprintf(to,
          "%s coverage: %s of branch executions and %s of instructions outside start-up code are in profiled "
          "functions (%" PRIu64 " of %" PRIu64 " branch executions, %" PRIu64 " of %" PRIu64
          " instructions); whole run: %s and %s\n",
          prefix, pct(a, sizeof a, main.covered_branches, main.branches), pct(b, sizeof b, main.covered_insns, main.insns),
          main.covered_branches, main.branches, main.covered_insns, main.insns,
          pct(d, sizeof d, run.covered_branches, run.branches), pct(e, sizeof e, run.covered_insns, run.insns));
  /* the functions left out (start-up code aside), most instructions first (a selection: top is small) */
  bool *shown = calloc(c->nfn + 1, sizeof *shown);
  if (shown == NULL) return;
  for (unsigned k = 0; k < top; k++) {
    int best = -1;
    for (unsigned i = 0; i < c->nfn; i++)
      if (!shown[i] && c->fn[i].why && !c->fn[i].startup && c->fn[i].insns && (best < 0 || c->fn[i].insns > c->fn[best].insns)) best = (int)i;
    if (best < 0) break;
    shown[best] = true;
    const prof_cov_fn_t *f = &c->fn[best];
    fprintf(to, "%s coverage: left out %s: %s of instructions, %s of branch executions (%s)\n", prefix, f->name,
            pct(a, sizeof a, f->insns, run.insns ? run.insns : 1), pct(b, sizeof b, f->branches, run.branches ? run.branches : 1),
            f->why);
  }
  /* what the profile costs, and where: profiling instructions against the program's own */
  uint64_t prof = c->other_prof;
  for (unsigned i = 0; i < c->nfn; i++) prof += c->fn[i].prof;
  if (prof) {
    fprintf(to, "%s cost: %" PRIu64 " profiling instructions, %s of the program's instructions; most in", prefix, prof,
            pct(a, sizeof a, prof, run.insns ? run.insns : 1));
    memset(shown, 0, (c->nfn + 1) * sizeof *shown);
    for (unsigned k = 0; k < top; k++) {
      int best = -1;
      for (unsigned i = 0; i < c->nfn; i++)
        if (!shown[i] && c->fn[i].prof && (best < 0 || c->fn[i].prof > c->fn[best].prof)) best = (int)i;
      if (best < 0) break;
      shown[best] = true;
      fprintf(to, "%s %s %" PRIu64 " (%s)", k ? "," : "", c->fn[best].name, c->fn[best].prof,
              pct(b, sizeof b, c->fn[best].prof, run.insns ? run.insns : 1));
    }
    fprintf(to, "\n");
  }
  free(shown);
}
