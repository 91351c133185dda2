/* Linked calls: see linkage.h. */
#include "linkage.h"

#include <stdlib.h>
#include <string.h>

#include "rv32_isa.h"
#include "rv32_reloc.h"

#define RET_RA 0x00008067u /* jalr x0, 0(ra) */

typedef struct {
  unsigned from, to; /* function indexes; to == nfn: every address-taken function */
} call_t;

typedef struct {
  const hwprof_cfg_prog_t *p;
  call_t *call;
  unsigned ncall, cap;
} graph_t;

/* The function whose entry is addr, or -1. */
static int fn_entered_at(const hwprof_cfg_prog_t *p, uint32_t addr) {
  const int i = hwprof_cfg_prog_fn_at(p, addr);
  return i >= 0 && p->fn[i].code.lo == addr ? i : -1;
}

static int add_call(graph_t *g, unsigned from, unsigned to) {
  if (g->ncall == g->cap) {
    unsigned cap = g->cap ? 2 * g->cap : 256;
    call_t *n = realloc(g->call, cap * sizeof *n);
    if (n == NULL) return -1;
    g->call = n;
    g->cap = cap;
  }
  g->call[g->ncall++] = (call_t){from, to};
  return 0;
}

/* Calls, tail calls and indirect transfers of every function (an indirect one may reach any
 * address-taken function). */
static int scan_calls(graph_t *g) {
  const hwprof_cfg_prog_t *p = g->p;
  for (unsigned k = 0; k < p->nfn; k++) {
    const hwprof_cfg_code_t *c = &p->fn[k].code;
    for (uint32_t a = c->lo; a < c->hi; a += 4) {
      uint32_t t;
      const hwprof_cf_t cf = hwprof_cfg_classify(c, a, hwprof_cfg_word(c, a), &t);
      int to = -2;
      if (cf == HWPROF_CF_CALL || cf == HWPROF_CF_TAIL) to = t ? hwprof_cfg_prog_fn_at(p, t) : (int)p->nfn;
      else if (cf == HWPROF_CF_JUMP && (t < c->lo || t >= c->hi)) to = hwprof_cfg_prog_fn_at(p, t);
      else if (cf == HWPROF_CF_INDIRECT) to = (int)p->nfn;
      if (to == -1) to = (int)p->nfn; /* a target outside every function: take the worst */
      if (to >= 0 && add_call(g, k, (unsigned)to)) return -1;
    }
  }
  return 0;
}

/* Whether the relocation r, which refers to function j's entry, is a call through ra from code (or
 * j's own branch or jump back to its entry). */
static bool is_linkable_ref(const hwprof_cfg_prog_t *p, const rv32_reloc_t *r, int j) {
  const int k = hwprof_cfg_prog_fn_at(p, r->where);
  if (k < 0) return false;
  const hwprof_cfg_code_t *c = &p->fn[k].code;
  const uint32_t w = hwprof_cfg_word(c, r->where);
  switch (r->type) {
    case R_RISCV_JAL: return rv32_rd(w) == 1u || (k == j && rv32_rd(w) == 0u);
    case R_RISCV_BRANCH: return k == j;
    case R_RISCV_CALL:
    case R_RISCV_CALL_PLT:
      return r->where + 4u < c->hi && rv32_rd(hwprof_cfg_word(c, r->where + 4u)) == 1u;
    default: return false;
  }
}

/* Leaves only by ret through ra, or never returns. */
static bool exits_by_ret(const hwprof_cfg_fn_t *f) {
  const hwprof_cfg_func_t *g = &f->cfg;
  for (unsigned e = 0; e < g->nedge; e++) {
    if (g->edge[e].dst != HWPROF_CFG_EXIT) continue;
    switch (g->edge[e].kind) {
      case HWPROF_CFG_RETURN:
        if (hwprof_cfg_word(&f->code, g->blk[g->edge[e].src].end - 4u) != RET_RA) return false;
        break;
      case HWPROF_CFG_FALL_OUT:
      case HWPROF_CFG_VIRTUAL_EXIT: break;
      default: return false;
    }
  }
  return true;
}

static int by_caller(const void *a, const void *b) {
  const call_t *x = a, *y = b;
  return x->from < y->from ? -1 : x->from > y->from;
}

/* on_cycle[i]: function i can reach itself through calls. g->call is sorted by caller. */
static int find_cycles(const graph_t *g, const bool *taken, bool *on_cycle) {
  const unsigned n = g->p->nfn;
  unsigned *seen = calloc(n + 1, sizeof *seen), *stack = calloc(n + 1, sizeof *stack);
  unsigned *first = calloc(n + 2, sizeof *first);
  if (seen == NULL || stack == NULL || first == NULL) {
    free(seen);
    free(stack);
    free(first);
    return -1;
  }
  for (unsigned i = 0; i < g->ncall; i++) first[g->call[i].from + 1]++;
  for (unsigned u = 0; u < n; u++) first[u + 1] += first[u];
  for (unsigned s = 0; s < n; s++) { /* depth-first from s over its callees; stamp s + 1 */
    unsigned sp = 0;
    stack[sp++] = s;
    while (sp && !on_cycle[s]) {
      const unsigned u = stack[--sp];
      for (unsigned i = first[u]; i < first[u + 1]; i++) {
        const unsigned to = g->call[i].to;
        for (unsigned v = to == n ? 0 : to; v < (to == n ? n : to + 1); v++) {
          if (to == n && !taken[v]) continue;
          if (v == s) on_cycle[s] = true;
          if (seen[v] != s + 1) {
            seen[v] = s + 1;
            stack[sp++] = v;
          }
        }
      }
    }
  }
  free(seen);
  free(stack);
  free(first);
  return 0;
}

/* h[f]: the most linked calls a chain of calls from f stacks (a fixpoint: every cycle of the
 * graph has only unlinked functions on it, so it adds nothing). */
static void stack_heights(const graph_t *g, const bool *taken, const bool *linked, unsigned *h) {
  const unsigned n = g->p->nfn;
  unsigned taken_max = 0;
  memset(h, 0, n * sizeof *h);
  for (bool changed = true; changed;) {
    changed = false;
    for (unsigned v = 0; v < n; v++)
      if (taken[v] && h[v] > taken_max) taken_max = h[v]; /* address-taken functions are never linked */
    for (unsigned i = 0; i < g->ncall; i++) {
      const call_t *c = &g->call[i];
      const unsigned via = c->to == n ? taken_max : h[c->to] + (linked[c->to] ? 1u : 0u);
      if (via > h[c->from] && via <= n) {
        h[c->from] = via;
        changed = true;
      }
    }
  }
}

int instr_linkage(const hwprof_cfg_prog_t *p, const hwprof_elf_t *e, const bool *instrumented, unsigned entries,
                  bool *linked) {
  const unsigned n = p->nfn;
  graph_t g = {p, NULL, 0, 0};
  bool *taken = calloc(n + 1, sizeof *taken), *on_cycle = calloc(n + 1, sizeof *on_cycle);
  unsigned *h = calloc(n + 1, sizeof *h);
  int rc = -1;
  if (taken == NULL || on_cycle == NULL || h == NULL || scan_calls(&g)) goto out;
  for (unsigned i = 0; i < n; i++) linked[i] = instrumented[i] && p->fn[i].built && exits_by_ret(&p->fn[i]);
  const int entry_fn = fn_entered_at(p, e->entry);
  if (entry_fn >= 0) taken[entry_fn] = true;
  for (unsigned r = 0; r < e->nrel; r++) {
    const int j = fn_entered_at(p, e->rel[r].target);
    if (j >= 0 && e->rel[r].type != R_RISCV_RELAX && !is_linkable_ref(p, &e->rel[r], j)) taken[j] = true;
  }
  if (g.ncall) qsort(g.call, g.ncall, sizeof *g.call, by_caller);
  if (find_cycles(&g, taken, on_cycle)) goto out;
  if (entries == 0) { /* the stack spills to memory: any depth, recursion included */
    for (unsigned i = 0; i < n; i++) linked[i] = linked[i] && !taken[i];
    rc = 0;
    goto out;
  }
  for (unsigned i = 0; i < n; i++) linked[i] = linked[i] && !taken[i] && !on_cycle[i];
  /* the stack's bound: unlink the lowest function that would overflow it, until none would */
  for (;;) {
    stack_heights(&g, taken, linked, h);
    int worst = -1;
    for (unsigned i = 0; i < n; i++)
      if (linked[i] && 1u + h[i] > entries && (worst < 0 || h[i] < h[worst])) worst = (int)i;
    if (worst < 0) break;
    linked[worst] = false;
  }
  rc = 0;
out:
  free(g.call);
  free(taken);
  free(on_cycle);
  free(h);
  return rc;
}

bool instr_callee_neutral(ctx_t *c, uint32_t target) {
  const int i = target ? hwprof_cfg_prog_fn_at(&c->prog, target) : -1;
  return i >= 0 && c->fn[i].neutral && c->prog.fn[i].code.lo == target;
}

/* The function entered at target if it is linked (started false) or call-started (true), or -1. */
static int callee_entered(ctx_t *c, uint32_t target, bool started) {
  const int i = target ? hwprof_cfg_prog_fn_at(&c->prog, target) : -1;
  if (i < 0 || c->prog.fn[i].code.lo != target) return -1;
  return (started ? c->fn[i].call_started : c->fn[i].linked) ? i : -1;
}
int instr_callee_linked(ctx_t *c, uint32_t target) { return callee_entered(c, target, false); }
int instr_callee_started(ctx_t *c, uint32_t target) { return callee_entered(c, target, true); }

bool instr_self_return_keeps_base(const pm_func_t *p) {
  for (unsigned e = 0; e < p->nedge; e++)
    if (p->edge[e].kind == HWPROF_CFG_TAIL || (p->edge[e].kind == HWPROF_CFG_DISPATCH && p->edge[e].dst == HWPROF_CFG_EXIT))
      return false;
  return true;
}
