/* Edge counts derived from the counters of a function's map (flow conservation), exact or modulo
 * the counter width; see profmap.h and docs/instrumenter.md. */
#include "profmap.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The equations: flow conservation at each block and at EXIT (in = out); in = count for a block
 * counter; real out-edges = count for a counter on a block's last instruction. Each is
 * sum(sign[e] * x[e]) = rhs; equation() gives the sign of edge e in equation (v, kind), and
 * false when the equation does not exist. */
static bool equation(const pm_func_t *f, int v, int kind, const uint64_t *counters, int64_t *rhs) {
  if (kind == 0) {
    *rhs = 0;
    return true;
  }
  if (v < 0) return false;
  int c = kind == 1 ? f->blk[v].counter : f->blk[v].term_counter;
  if (c == PM_NONE) return false;
  *rhs = counters ? (int64_t)counters[c] : 0;
  return true;
}

static int sign_in(const pm_edge_t *x, int v, int kind) {
  switch (kind) {
    case 0: return (x->dst == v ? 1 : 0) - (x->src == v ? 1 : 0);
    case 1: return x->dst == v ? 1 : 0;
    default: return x->src == v && !hwprof_cfg_is_virtual(x->kind) ? 1 : 0;
  }
}

/* Repeatedly solves an equation with a single unknown edge; then checks every equation (more
 * counters than unknowns make the system over-determined: the counters must agree). Returns 0,
 * 1 if some edge stays unknown, 2 if an equation does not hold. */
/* mask: the counters' values are counts modulo mask + 1 (all ones: exact counts); the redundant
 * equations are checked modulo the same. */
static int solve(const pm_func_t *f, bool *known, int64_t *val, const uint64_t *counters, uint64_t mask, bool check) {
  const int n = (int)f->nblk;
  bool progress = true;
  while (progress) {
    progress = false;
    for (int v = -1; v < n; v++) { /* -1: EXIT */
      for (int kind = 0; kind < 3; kind++) {
        int64_t rhs;
        if (!equation(f, v, kind, counters, &rhs)) continue;
        int64_t sum = 0;
        int unknown = -1, nunknown = 0, sign = 0;
        for (unsigned e = 0; e < f->nedge; e++) {
          int s = sign_in(&f->edge[e], v, kind);
          if (s == 0) continue;
          if (known[e]) {
            sum += s * val[e];
          } else {
            nunknown++;
            unknown = (int)e;
            sign = s;
          }
        }
        if (nunknown != 1) continue;
        val[unknown] = (rhs - sum) * sign;
        known[unknown] = true;
        progress = true;
      }
    }
  }
  for (unsigned e = 0; e < f->nedge; e++)
    if (!known[e]) return 1;
  if (!check) return 0;
  for (int v = -1; v < n; v++)
    for (int kind = 0; kind < 3; kind++) {
      int64_t rhs, sum = 0;
      if (!equation(f, v, kind, counters, &rhs)) continue;
      for (unsigned e = 0; e < f->nedge; e++) sum += sign_in(&f->edge[e], v, kind) * val[e];
      if (((uint64_t)sum - (uint64_t)rhs) & mask) return 2;
    }
  return 0;
}

bool pm_solvable(const pm_func_t *f) {
  bool *known = calloc(f->nedge + 1, sizeof *known);
  int64_t *val = calloc(f->nedge + 1, sizeof *val);
  bool ok = known && val;
  if (ok) {
    for (unsigned e = 0; e < f->nedge; e++) known[e] = f->edge[e].counter != PM_NONE;
    ok = solve(f, known, val, NULL, ~UINT64_C(0), false) == 0;
  }
  free(known);
  free(val);
  return ok;
}

bool pm_solvable_entries(const pm_func_t *f) {
  bool *known = calloc(f->nedge + 1, sizeof *known);
  int64_t *val = calloc(f->nedge + 1, sizeof *val);
  bool ok = known && val;
  if (ok) {
    for (unsigned e = 0; e < f->nedge; e++) known[e] = f->edge[e].kind == HWPROF_CFG_VIRTUAL_ENTRY;
    ok = solve(f, known, val, NULL, ~UINT64_C(0), false) == 0;
  }
  free(known);
  free(val);
  return ok;
}

/* counts[] holds the known edges' values (known[e]; the others 0) on the way in, every edge's on
 * the way out; counters: the function's own (NULL: a derived function's). */
static int derive(const pm_func_t *f, const uint64_t *counters, uint64_t mask, bool *known, int64_t *counts, char *why,
                  size_t whylen) {
  int st = solve(f, known, counts, counters, mask, true);
  free(known);
  if (st == 1) {
    snprintf(why, whylen, "%s: the measured edges do not determine every edge", f->name);
    return -1;
  }
  if (st == 2) {
    snprintf(why, whylen, "%s: the counters contradict each other (flow is not conserved)", f->name);
    return -1;
  }
  if (mask != ~UINT64_C(0)) { /* residues: every value in [0, mask] is one */
    for (unsigned e = 0; e < f->nedge; e++) counts[e] = (int64_t)((uint64_t)counts[e] & mask);
    return 0;
  }
  for (unsigned e = 0; e < f->nedge; e++)
    if (counts[e] < 0) {
      int n = snprintf(why, whylen, "%s: edge %u derives to %" PRId64 " (the counters contradict each other; counters:",
                       f->name, e, counts[e]);
      for (unsigned k = 0; k < f->ncounters && k < 16 && n > 0 && (size_t)n < whylen; k++)
        n += snprintf(why + n, whylen - (size_t)n, " %" PRIu64, counters[k]);
      if (n > 0 && (size_t)n < whylen) snprintf(why + n, whylen - (size_t)n, "%s)", f->ncounters > 16 ? " ..." : "");
      return -1;
    }
  return 0;
}

/* The edges the counters measure, known; derive() frees the array. */
static bool *measured(const pm_func_t *f, const uint64_t *counters, int64_t *counts, char *why, size_t whylen) {
  bool *known = calloc(f->nedge + 1, sizeof *known);
  if (known == NULL) {
    snprintf(why, whylen, "out of memory");
    return NULL;
  }
  for (unsigned e = 0; e < f->nedge; e++) {
    known[e] = f->edge[e].counter != PM_NONE;
    counts[e] = known[e] ? (int64_t)counters[f->edge[e].counter] : 0;
  }
  return known;
}

int pm_derive(const pm_func_t *f, const uint64_t *counters, int64_t *counts, char *why, size_t whylen) {
  bool *known = measured(f, counters, counts, why, whylen);
  return known ? derive(f, counters, ~UINT64_C(0), known, counts, why, whylen) : -1;
}

int pm_derive_mod(const pm_func_t *f, const uint64_t *counters, unsigned bits, int64_t *counts, char *why,
                  size_t whylen) {
  if (bits == 0 || bits > 63) {
    snprintf(why, whylen, "%s: %u-bit counters: expects 1..63 bits", f->name, bits);
    return -1;
  }
  bool *known = measured(f, counters, counts, why, whylen);
  return known ? derive(f, counters, (UINT64_C(1) << bits) - 1u, known, counts, why, whylen) : -1;
}

int pm_derive_entries(const pm_map_t *m, unsigned f, int64_t *const *rows, unsigned bits, int64_t *counts, char *why,
                      size_t whylen) {
  const pm_func_t *d = &m->fn[f];
  if (bits > 63) {
    snprintf(why, whylen, "%s: %u-bit counters: expects 0..63 bits", d->name, bits);
    return -1;
  }
  const uint64_t mask = bits ? (UINT64_C(1) << bits) - 1u : ~UINT64_C(0);
  bool *known = calloc(d->nedge + 1, sizeof *known);
  if (known == NULL) {
    snprintf(why, whylen, "out of memory");
    return -1;
  }
  for (unsigned e = 0; e < d->nedge; e++) {
    known[e] = d->edge[e].kind == HWPROF_CFG_VIRTUAL_ENTRY;
    counts[e] = 0;
  }
  for (unsigned s = 0; s < d->nsrc; s++) { /* each entry: the calls and jumps that reach it */
    const pm_source_t *x = &d->src[s];
    const int64_t *row = x->fn < m->nfn ? rows[x->fn] : NULL;
    if (row == NULL || !m->fn[x->fn].instrumented) {
      snprintf(why, whylen, "%s: its caller (function %u of the map) has no profile", d->name, x->fn);
      free(known);
      return -1;
    }
    const pm_func_t *g = &m->fn[x->fn];
    int64_t n = 0;
    if (x->edge != PM_NONE) n = row[x->edge];
    else
      for (unsigned e = 0; e < g->nedge; e++) n += g->edge[e].dst == x->block ? row[e] : 0;
    counts[x->entry] = (int64_t)(((uint64_t)counts[x->entry] + (uint64_t)n) & mask);
  }
  return derive(d, NULL, mask, known, counts, why, whylen);
}
