/* A function's path profile, planned; see pp_plan.h and docs/path.md. */
#include "pp_plan.h"

#include "hammocks.h"

static uint16_t mod(int64_t v) {
  const int64_t m = (int64_t)PP_VAL_MOD;
  return (uint16_t)(((v % m) + m) % m);
}

/* The regions used: the function alone (plain), or its regions but a loop headed by the entry block
 * (merged into its parent, as are the loops nested in it): pp_regions_used. */
static pp_status_t choose_regions(const pp_func_t *f, pp_embodiment_t emb, hwprof_arena_t *a, pp_plan_t *p) {
  if ((p->func_region = PP_ALLOC(a, uint32_t, f->h.nregion)) == NULL) return kPpNoMemory;
  return pp_regions_used(&f->h, emb == kPpPlain, a, &p->h, p->func_region);
}

/* The increment of region r's real DAG edge s->d (local nodes), or false if there is none. */
static bool local_inc(const pp_plan_t *p, uint32_t r, uint32_t s, uint32_t d, int64_t *inc) {
  const pp_numbering_t *n = &p->rn[r];
  for (uint32_t e = n->first[s]; e != PP_NONE; e = n->next[e])
    if (n->kind[e] == kPpReal && n->edge[e].dst == d) {
      *inc = p->inc[r][e];
      return true;
    }
  return false;
}

static uint32_t re_of(const pp_plan_t *p, uint32_t r) { return p->rg[r].nnodes - 2u; }
static uint32_t rx_of(const pp_plan_t *p, uint32_t r) { return p->rg[r].nnodes - 1u; }

unsigned pp_plan_depth(const pp_plan_t *p, uint32_t r) {
  unsigned d = 0;
  for (uint32_t x = p->h.parent[r]; x != PP_NONE; x = p->h.parent[x]) d++;
  return d;
}

/* the innermost region used that holds both u and v */
static uint32_t common_region(const pp_plan_t *p, uint32_t u, uint32_t v) {
  for (uint32_t r = p->h.region_of[u]; r != PP_NONE; r = p->h.parent[r])
    if (pp_in_region(&p->h, v, r)) return r;
  return 0;
}

static pp_status_t number_regions(pp_plan_t *p, const uint64_t *weight, uint32_t max_counters, hwprof_arena_t *a) {
  const pp_func_t *f = p->f;
  const uint32_t nr = p->h.nregion;
  p->rg = PP_ALLOC(a, pp_graph_t, nr);
  p->node_of = PP_ALLOC(a, uint32_t *, nr);
  p->local_of = PP_ALLOC(a, uint32_t *, nr);
  p->rn = PP_ALLOC(a, pp_numbering_t, nr);
  p->inc = PP_ALLOC(a, int64_t *, nr);
  p->start = PP_ALLOC(a, uint32_t, nr);
  if (p->rg == NULL || p->node_of == NULL || p->local_of == NULL || p->rn == NULL || p->inc == NULL || p->start == NULL)
    return kPpNoMemory;
  uint64_t total = 0;
  for (uint32_t r = 0; r < nr; r++) {
    pp_status_t st = pp_rb_augment(&p->h, r, a, &p->rg[r], &p->node_of[r], &p->local_of[r]);
    if (st != kPpOk) return st;
    const pp_graph_t *g = &p->rg[r];
    bool *none = PP_ALLOC(a, bool, g->nedge); /* the augmented graph has no back edge: a cycle is an error */
    if (none == NULL) return kPpNoMemory;
    if ((st = pp_number(g, none, max_counters, a, &p->rn[r])) != kPpOk) return st;
    p->start[r] = (uint32_t)total;
    total += p->rn[r].paths;
    if (total > max_counters) return kPpTooManyPaths;
    /* chords: weights of the DAG edges; the edges from Re and to Rx ride on operations that exist
     * anyway (weight 0), the function's own Re->entry must be on the tree (its increment 0) */
    const pp_numbering_t *n = &p->rn[r];
    uint64_t *w = PP_ALLOC(a, uint64_t, n->nedge);
    bool *on_tree = PP_ALLOC(a, bool, n->nedge);
    if ((p->inc[r] = PP_ALLOC(a, int64_t, n->nedge)) == NULL || w == NULL || on_tree == NULL) return kPpNoMemory;
    const uint32_t *loc = p->local_of[r];
    for (uint32_t e = 0; e < f->g.nedge; e++) {
      const uint32_t lu = loc[f->g.edge[e].src], lv = loc[f->g.edge[e].dst];
      if (lu == PP_NONE || lv == PP_NONE || lu == lv || f->back[e]) continue;
      for (uint32_t d = n->first[lu]; d != PP_NONE; d = n->next[d])
        if (n->kind[d] == kPpReal && n->edge[d].dst == lv) w[d] += weight ? weight[e] : 1u;
    }
    if (r == 0)
      for (uint32_t d = n->first[re_of(p, 0)]; d != PP_NONE; d = n->next[d])
        if (n->edge[d].dst == loc[f->g.entry]) w[d] = UINT64_MAX / 2u;
    if ((st = pp_chords(n, w, a, p->inc[r], on_tree)) != kPpOk) return st;
  }
  p->ncounters = (uint32_t)total;
  return kPpOk;
}

/* ---- the global embodiment */

/* The increment of the global DAG's edge s->d: added (the augmentation's) or the function's own. */
static bool g_inc(const pp_plan_t *p, uint32_t s, uint32_t d, bool added, int64_t *inc, uint32_t *edge) {
  const pp_numbering_t *n = &p->gn;
  for (uint32_t e = n->first[s]; e != PP_NONE; e = n->next[e])
    if (n->kind[e] == kPpReal && n->edge[e].dst == d && p->gadded[n->orig[e]] == added) {
      *inc = p->ginc[e];
      if (edge) *edge = e;
      return true;
    }
  return false;
}
/* ... either kind (an edge to the exit: a region's end) */
static bool g_inc_any(const pp_plan_t *p, uint32_t s, uint32_t d, int64_t *inc) {
  return g_inc(p, s, d, true, inc, NULL) || g_inc(p, s, d, false, inc, NULL);
}

static pp_status_t number_global(pp_plan_t *p, const uint64_t *weight, uint32_t max_counters, hwprof_arena_t *a) {
  const pp_func_t *f = p->f;
  const uint32_t fe = f->g.entry, fx = f->g.exit, nr = p->h.nregion;
  pp_graph_t g0;
  bool *added0;
  pp_status_t st = pp_gp_augment(&p->h, a, &g0, &added0);
  if (st != kPpOk) return st;
  /* a loop's paths start on an edge of their own from the function's entry (a real edge from the
   * entry to the head would give the loop's path and the function's path through it one sum), and
   * the back edges of the function's own region end its paths at the exit */
  const uint32_t cap = g0.nedge + nr + 2u * f->g.nedge + 1u;
  pp_edge_t *edge = PP_ALLOC(a, pp_edge_t, cap);
  bool *added = PP_ALLOC(a, bool, cap);
  p->gback_end = PP_ALLOC(a, bool, cap);
  if (edge == NULL || added == NULL || p->gback_end == NULL) return kPpNoMemory;
  uint32_t m = 0;
  for (uint32_t e = 0; e < g0.nedge; e++) {
    edge[m] = g0.edge[e];
    added[m++] = added0[e];
  }
  for (uint32_t r = 1; r < nr; r++) {
    bool own = false;
    for (uint32_t e = 0; e < m && !own; e++) own = added[e] && edge[e].src == fe && edge[e].dst == p->h.rep_entry[r];
    if (!own) {
      edge[m] = (pp_edge_t){fe, p->h.rep_entry[r]};
      added[m++] = true;
    }
  }
  for (uint32_t e = 0; e < f->g.nedge; e++) {
    if (!f->back[e] || p->h.region_of[f->g.edge[e].dst] != 0) continue;
    const uint32_t u = f->g.edge[e].src, v = f->g.edge[e].dst;
    /* a back edge of the function's region to another block than the entry (an irreducible
     * function's): the next path starts there, on an edge of its own from the entry */
    bool start = v == fe;
    for (uint32_t d = 0; d < m && !start; d++) start = added[d] && edge[d].src == fe && edge[d].dst == v;
    if (!start) {
      edge[m] = (pp_edge_t){fe, v};
      added[m++] = true;
    }
    bool there = false; /* an added edge from u to the exit (a loop's exit edge) ends these paths too; a
                           real one (a return) cannot: its paths end "exit" */
    for (uint32_t d = 0; d < m && !there; d++)
      if (added[d] && edge[d].src == u && edge[d].dst == fx) {
        there = true;
        p->gback_end[d] = true;
      }
    if (!there) {
      edge[m] = (pp_edge_t){u, fx};
      p->gback_end[m] = true;
      added[m++] = true;
    }
  }
  p->gg = (pp_graph_t){g0.nnodes, fe, fx, edge, m, NULL};
  p->gadded = added;
  bool *none = PP_ALLOC(a, bool, m);
  if (none == NULL) return kPpNoMemory;
  /* more sums than counters: hashed (below), if the hierarchical paths' sums do not collide */
  if ((st = pp_number(&p->gg, none, UINT64_C(1) << 40, a, &p->gn)) != kPpOk) return st;
  if (p->gn.paths > max_counters && max_counters != PP_VAL_MOD) return kPpTooManyPaths;
  /* chords: the function's own edges weigh what an operation on them would cost */
  const pp_numbering_t *n = &p->gn;
  uint64_t *w = PP_ALLOC(a, uint64_t, n->nedge);
  bool *on_tree = PP_ALLOC(a, bool, n->nedge);
  p->ginc = PP_ALLOC(a, int64_t, n->nedge);
  p->pr_inc = PP_ALLOC(a, int64_t, nr);
  p->start = PP_ALLOC(a, uint32_t, nr);
  uint32_t *stack = PP_ALLOC(a, uint32_t, f->g.nnodes), *via = PP_ALLOC(a, uint32_t, f->g.nnodes);
  bool *seen = PP_ALLOC(a, bool, f->g.nnodes);
  if (w == NULL || on_tree == NULL || p->ginc == NULL || p->pr_inc == NULL || p->start == NULL || stack == NULL ||
      via == NULL || seen == NULL)
    return kPpNoMemory;
  for (uint32_t d = 0; d < n->nedge; d++) {
    if (n->kind[d] != kPpReal || added[n->orig[d]]) continue;
    for (uint32_t e = 0; e < f->g.nedge; e++)
      if (!f->back[e] && f->g.edge[e].src == n->edge[d].src && f->g.edge[e].dst == n->edge[d].dst)
        w[d] += weight ? weight[e] : 1u;
  }
  if ((st = pp_chords(n, w, a, p->ginc, on_tree)) != kPpOk) return st;
  /* Pr: the first path from Er to Xr inside the region (a depth-first search in edge order) */
  for (uint32_t r = 0; r < nr; r++) {
    p->start[r] = 0;
    p->pr_inc[r] = 0;
    if (r == 0 || p->h.rep_entry[r] == p->h.rep_exit[r]) continue;
    for (uint32_t v = 0; v < f->g.nnodes; v++) seen[v] = false;
    uint32_t sp = 0;
    stack[sp++] = p->h.rep_entry[r];
    seen[p->h.rep_entry[r]] = true;
    while (sp && !seen[p->h.rep_exit[r]]) {
      const uint32_t v = stack[--sp];
      for (uint32_t d = n->first[v]; d != PP_NONE; d = n->next[d]) {
        const uint32_t x = n->edge[d].dst;
        if (n->kind[d] != kPpReal || added[n->orig[d]] || seen[x] || x == fx || !pp_in_region(&p->h, x, r)) continue;
        seen[x] = true;
        via[x] = d;
        stack[sp++] = x;
      }
    }
    if (!seen[p->h.rep_exit[r]]) return kPpBadGraph; /* no path from Er to Xr inside the region */
    for (uint32_t x = p->h.rep_exit[r]; x != p->h.rep_entry[r]; x = n->edge[via[x]].src) p->pr_inc[r] += p->ginc[via[x]];
  }
  p->ncounters = (uint32_t)(p->gn.paths > max_counters ? max_counters : p->gn.paths);
  return kPpOk;
}

static pp_status_t push_op(pp_plan_t *p, uint32_t cap, uint8_t kind, int64_t a, int64_t b) {
  if (p->nop >= cap) return kPpNoMemory;
  p->op[p->nop++] = (pp_op_t){kind, mod(a), mod(b)};
  return kPpOk;
}

/* The operations of edge e of the function, global embodiment. */
static pp_status_t edge_ops_global(pp_plan_t *p, uint32_t e, uint32_t cap) {
  const pp_func_t *f = p->f;
  const uint32_t u = f->g.edge[e].src, v = f->g.edge[e].dst, fe = f->g.entry, fx = f->g.exit;
  const bool back = f->back[e];
  const uint32_t c = back ? p->h.region_of[v] : common_region(p, u, v);
  if (back && !pp_in_region(&p->h, u, c)) return kPpBadGraph;
  int64_t inc;
  uint32_t left = 0, x = u; /* x: where the region being left was left from */
  for (uint32_t r = p->h.region_of[u]; r != c; r = p->h.parent[r], left++) {
    if (r == PP_NONE || !g_inc_any(p, x, fx, &inc)) return kPpBadGraph;
    const pp_status_t st = push_op(p, cap, HWPROF_PATH_OP_LEAVE, inc, 0);
    if (st != kPpOk) return st;
    x = p->h.rep_exit[r];
  }
  if (back) {
    int64_t start = 0;
    if (!g_inc_any(p, x, fx, &inc) || (v != fe && !g_inc(p, fe, v, true, &start, NULL))) return kPpBadGraph;
    return push_op(p, cap, HWPROF_PATH_OP_COUNT, inc, start);
  }
  uint32_t d;
  if (!g_inc(p, u, v, false, &inc, &d)) return kPpBadGraph;
  inc = p->ginc[pp_gp_canonical(&p->h, p->gadded, &p->gn, d)];
  if (v == fx) return push_op(p, cap, HWPROF_PATH_OP_COUNT, inc, 0);
  uint32_t q = PP_NONE, m = 0;
  for (uint32_t r = p->h.region_of[v]; r != c; r = p->h.parent[r], m++) q = r;
  if (m > 1 || (m == 1 && p->h.rep_entry[q] != v)) return kPpBadGraph; /* a loop entered other than at its head */
  if (m == 1) {
    int64_t start;
    if (!g_inc(p, fe, v, true, &start, NULL)) return kPpBadGraph;
    return push_op(p, cap, HWPROF_PATH_OP_ENTER, inc + p->pr_inc[q], start);
  }
  if (left) p->op[p->nop - 1].b = mod(inc);
  else if (mod(inc) != 0) return push_op(p, cap, HWPROF_PATH_OP_ADD, inc, 0);
  return kPpOk;
}

/* The operations of edge e of the function. */
static pp_status_t edge_ops(pp_plan_t *p, uint32_t e, uint32_t cap) {
  if (p->emb == kPpGlobal) return edge_ops_global(p, e, cap);
  const pp_func_t *f = p->f;
  const uint32_t u = f->g.edge[e].src, v = f->g.edge[e].dst;
  const bool back = f->back[e];
  const uint32_t c = back ? p->h.region_of[v] : common_region(p, u, v);
  if (back && !pp_in_region(&p->h, u, c)) return kPpBadGraph; /* a back edge into a loop it is not in */
  int64_t inc;
  /* the regions left, innermost first: each counts its path at its exit */
  uint32_t left = 0;
  for (uint32_t r = p->h.region_of[u]; r != c; r = p->h.parent[r], left++) {
    if (r == PP_NONE || !local_inc(p, r, p->local_of[r][u], rx_of(p, r), &inc)) return kPpBadGraph;
    const pp_status_t st = push_op(p, cap, HWPROF_PATH_OP_LEAVE, inc, 0);
    if (st != kPpOk) return st;
  }
  const uint32_t lu = p->local_of[c][u], lv = p->local_of[c][v];
  if (back) { /* the path ends at the back edge, the next one starts at the loop head */
    int64_t start_inc;
    if (!local_inc(p, c, lu, rx_of(p, c), &inc) || !local_inc(p, c, re_of(p, c), lv, &start_inc)) return kPpBadGraph;
    return push_op(p, cap, HWPROF_PATH_OP_COUNT, inc, (int64_t)p->start[c] + start_inc);
  }
  if (!local_inc(p, c, lu, lv, &inc)) return kPpBadGraph;
  if (v == f->g.exit) { /* the function's exit: its path ends */
    int64_t out;
    if (!local_inc(p, c, lv, rx_of(p, c), &out)) return kPpBadGraph;
    return push_op(p, cap, HWPROF_PATH_OP_COUNT, inc + out, 0);
  }
  /* the regions entered, outermost first */
  uint32_t chain[64], m = 0;
  for (uint32_t r = p->h.region_of[v]; r != c; r = p->h.parent[r]) {
    if (r == PP_NONE || m == 64) return kPpBadGraph;
    chain[m++] = r;
  }
  if (left) p->op[p->nop - 1].b = mod(inc); /* the increment, after the outer sum comes back */
  else if (m == 0 && mod(inc) != 0) return push_op(p, cap, HWPROF_PATH_OP_ADD, inc, 0);
  for (uint32_t i = m; i-- > 0;) {
    const uint32_t q = chain[i];
    int64_t start_inc;
    if (!local_inc(p, q, re_of(p, q), p->local_of[q][v], &start_inc)) return kPpBadGraph;
    const pp_status_t st =
        push_op(p, cap, HWPROF_PATH_OP_ENTER, i == m - 1u && !left ? inc : 0, (int64_t)p->start[q] + start_inc);
    if (st != kPpOk) return st;
  }
  return kPpOk;
}

static uint32_t child_in(const pp_plan_t *p, uint32_t v, uint32_t r);

/* The global sum (the runtime's count index before the modulus) of region r's hierarchical path
 * whose region-based DAG edges are e[0 .. n), Re -> x1 -> ... -> xm -> Rx: the canonical plain
 * path's increments, as edge_ops_global's operations add them up. */
static bool global_sum_of(const pp_plan_t *p, uint32_t r, const uint32_t *e, uint32_t n, int64_t *sum) {
  const pp_func_t *f = p->f;
  const uint32_t fe = f->g.entry, fx = f->g.exit, m = n - 1u;
  const pp_numbering_t *ln = &p->rn[r];
  int64_t s = 0, inc;
  if (n < 2) return false;
  const uint32_t x1 = p->node_of[r][ln->edge[e[0]].dst];
  if (r != 0 || x1 != fe) { /* where the path starts: a loop's start edge, or one after a back edge */
    if (!g_inc(p, fe, x1, true, &inc, NULL)) return false;
    s += inc;
  }
  for (uint32_t i = 1; i <= m; i++) {
    const uint32_t x = p->node_of[r][ln->edge[e[i - 1]].dst];
    if (x == fx) break; /* the function's exit: the edge into it is counted */
    uint32_t from = x;
    if (p->h.region_of[x] != r) { /* a child region crossed along its representative path */
      const uint32_t c = child_in(p, x, r);
      if (c == PP_NONE) return false;
      s += p->pr_inc[c];
      from = p->h.rep_exit[c];
    }
    if (i < m) { /* on to the next node: the real edge, or the canonical one after a child */
      const uint32_t y = p->node_of[r][ln->edge[e[i]].dst];
      if (!g_inc(p, from, y, false, &inc, NULL) && !g_inc(p, from, y, true, &inc, NULL)) return false;
    } else if (!g_inc_any(p, from, fx, &inc)) { /* the end: a region's exit, a back edge */
      return false;
    }
    s += inc;
  }
  *sum = s;
  return true;
}

/* Global sums beyond the counters: hashed into PP_VAL_MOD counters by the hardware's own modulus,
 * which is exact when no two hierarchical paths' sums collide modulo PP_VAL_MOD (checked here by
 * enumerating every hierarchical path: the region-based numbering's paths, region by region). */
static pp_status_t hash_global(pp_plan_t *p, uint32_t max_counters, hwprof_arena_t *a) {
  pp_status_t st = number_regions(p, NULL, max_counters, a);
  if (st != kPpOk) return st;
  uint32_t maxe = 0;
  for (uint32_t r = 0; r < p->h.nregion; r++)
    if (p->rn[r].nedge > maxe) maxe = p->rn[r].nedge;
  p->hash_region = PP_ALLOC(a, uint32_t, PP_VAL_MOD);
  p->hash_local = PP_ALLOC(a, uint32_t, PP_VAL_MOD);
  uint32_t *scratch = PP_ALLOC(a, uint32_t, maxe + 2u);
  if (p->hash_region == NULL || p->hash_local == NULL || scratch == NULL) return kPpNoMemory;
  for (uint32_t h = 0; h < PP_VAL_MOD; h++) p->hash_region[h] = PP_NONE;
  for (uint32_t r = 0; r < p->h.nregion; r++)
    for (uint64_t k = 0; k < p->rn[r].paths; k++) {
      uint32_t n;
      int64_t sum;
      if (pp_decode(&p->rn[r], k, scratch, maxe + 2u, &n) != kPpOk || !global_sum_of(p, r, scratch, n, &sum))
        return kPpBadGraph;
      const uint16_t h = mod(sum);
      if (p->hash_region[h] != PP_NONE) return kPpTooManyPaths; /* two paths on one counter: not exact */
      p->hash_region[h] = r;
      p->hash_local[h] = (uint32_t)k;
    }
  p->hashed = true;
  p->ncounters = PP_VAL_MOD;
  return kPpOk;
}

pp_status_t pp_plan_make(const pp_func_t *f, pp_embodiment_t emb, const uint64_t *weight, uint32_t max_counters,
                         hwprof_arena_t *a, pp_plan_t *p) {
  if (f == NULL || a == NULL || p == NULL || max_counters > PP_MAX_COUNTERS) return kPpBadGraph;
  *p = (pp_plan_t){.emb = emb, .f = f};
  pp_status_t st = choose_regions(f, emb, a, p);
  if (st != kPpOk) return st;
  st = emb == kPpGlobal ? number_global(p, weight, max_counters, a) : number_regions(p, weight, max_counters, a);
  if (st == kPpOk && emb == kPpGlobal && p->gn.paths > max_counters) st = hash_global(p, max_counters, a);
  if (st != kPpOk) return st;
  uint32_t depth = 0;
  for (uint32_t r = 0; r < p->h.nregion; r++) {
    const unsigned d = pp_plan_depth(p, r);
    if (d > depth) depth = d;
  }
  const uint32_t cap = f->g.nedge * (2u * depth + 2u) + 1u;
  p->op = PP_ALLOC(a, pp_op_t, cap);
  p->op_first = PP_ALLOC(a, uint32_t, f->g.nedge);
  p->op_n = PP_ALLOC(a, uint32_t, f->g.nedge);
  if (p->op == NULL || p->op_first == NULL || p->op_n == NULL) return kPpNoMemory;
  for (uint32_t e = 0; e < f->g.nedge; e++) {
    p->op_first[e] = p->nop;
    if (!f->reach[f->g.edge[e].src]) continue; /* never runs */
    if ((st = edge_ops(p, e, cap)) != kPpOk) return st;
    p->op_n[e] = p->nop - p->op_first[e];
  }
  return kPpOk;
}

static bool carried_free(hwprof_cfg_kind_t k) {
  return k == HWPROF_CFG_TAKEN || k == HWPROF_CFG_JUMP || k == HWPROF_CFG_RETURN || k == HWPROF_CFG_TAIL;
}

pp_status_t pp_plan_cfg(const hwprof_cfg_func_t *cfg, pp_embodiment_t emb, const uint64_t *counts, hwprof_arena_t *a,
                        pp_func_t *f, pp_plan_t *p) {
  pp_status_t st = pp_func_from_cfg(cfg, a, f);
  if (st != kPpOk) return st;
  /* hierarchical paths too many for the counters: hammocks split the regions (hammocks.h) */
  if (emb != kPpPlain && (st = pp_split_hammocks(f, PP_MAX_COUNTERS, a)) == kPpNoMemory) return st;
  uint64_t *w = PP_ALLOC(a, uint64_t, f->g.nedge);
  if (w == NULL) return kPpNoMemory;
  for (uint32_t e = 0; e < f->g.nedge; e++) {
    const hwprof_cfg_edge_t *x = &cfg->edge[f->cfg_edge[e]];
    w[e] = x->kind == HWPROF_CFG_INDIRECT ? 1000u : carried_free(x->kind) ? 1u : 3u;
    if (counts != NULL) { /* the measured runs, +1 so that an edge never run still prefers the cheap place */
      const uint64_t c = counts[f->cfg_edge[e]];
      w[e] *= c < (UINT64_C(1) << 40) ? c + 1u : UINT64_C(1) << 40;
      continue;
    }
    const int l = x->src >= 0 && cfg->loop_of ? cfg->loop_of[x->src] : -1;
    for (unsigned d = 0; l >= 0 && d < cfg->loop[l].depth && d < 6; d++) w[e] *= 10u;
  }
  /* a longjmp landing starts a path (regions.h): the region-based arrays have a place for it */
  bool lands = false;
  for (uint32_t v = 0; v < f->g.nnodes && f->g.start; v++) lands |= f->g.start[v];
  if (lands && emb == kPpGlobal) emb = kPpRegionBased;
  st = pp_plan_make(f, emb, w, PP_MAX_COUNTERS, a, p);
  /* global sums beyond the counters that collide even hashed: the region-based arrays, which count
   * the same hierarchical paths in fewer counters */
  if (st == kPpTooManyPaths && emb == kPpGlobal) st = pp_plan_make(f, kPpRegionBased, w, PP_MAX_COUNTERS, a, p);
  /* a landing in a loop's region would continue the outer regions' paths as they were at the call,
   * which may have ended since (docs/path.md, "Limits") */
  for (uint32_t v = 0; st == kPpOk && lands && v < f->g.nnodes; v++)
    if (f->g.start[v] && p->h.region_of[v] != 0) st = kPpLandingInLoop;
  return st;
}

bool pp_plan_start_sum(const pp_plan_t *p, uint32_t v, uint16_t *sum) {
  if (p->emb == kPpGlobal || v >= p->f->g.nnodes) return false;
  const uint32_t r = p->h.region_of[v];
  int64_t inc;
  if (r >= p->h.nregion || p->local_of[r][v] == PP_NONE || !local_inc(p, r, re_of(p, r), p->local_of[r][v], &inc))
    return false;
  *sum = mod((int64_t)p->start[r] + inc);
  return true;
}

/* The child region of r that holds node v (v in r), or r itself when v is directly in it. */
static uint32_t child_in(const pp_plan_t *p, uint32_t v, uint32_t r) {
  uint32_t x = p->h.region_of[v];
  while (x != r && x != PP_NONE && p->h.parent[x] != r) x = p->h.parent[x];
  return x;
}

/* Global: the canonical plain path of the sum; its first edge says whose path (a loop's start edge,
 * or the function's), its nodes in a child region are that child as one item. */
static pp_status_t decode_global(const pp_plan_t *p, uint32_t idx, uint32_t *items, uint32_t cap, uint32_t *scratch,
                                 uint32_t scratch_cap, pp_path_t *path) {
  const pp_numbering_t *n = &p->gn;
  const uint32_t fe = p->f->g.entry, fx = p->f->g.exit;
  uint32_t len;
  if (idx >= n->paths) return kPpBadGraph;
  const pp_status_t st = pp_decode(n, idx, scratch, scratch_cap, &len);
  if (st != kPpOk || len == 0) return kPpBadGraph;
  const uint32_t e0 = scratch[0];
  uint32_t r = 0, i0 = 0;
  *path = (pp_path_t){0};
  if (p->gadded[n->orig[e0]] && n->edge[e0].dst != fx) { /* a loop's start, or the function's region's after a
                                                             back edge (not the entry's own back edge's end) */
    const uint32_t h = n->edge[e0].dst;
    for (r = 1; r < p->h.nregion && p->h.rep_entry[r] != h; r++) {}
    if (r == p->h.nregion) r = 0;
  } else {
    items[path->len++] = fe;
  }
  path->region = r;
  uint32_t last_child = PP_NONE;
  for (uint32_t i = i0; i < len; i++) {
    const uint32_t e = scratch[i], v = n->edge[e].dst;
    if (v == fx) { /* the function's region ends at the exit but by its own back edges' */
      path->exit = r == 0 && !p->gback_end[n->orig[e]];
      break;
    }
    const uint32_t ch = child_in(p, v, r);
    if (ch == PP_NONE) return kPpBadGraph; /* the path left its region */
    if (path->len == cap) return kPpBadGraph;
    if (ch == r) {
      items[path->len++] = v;
      last_child = PP_NONE;
    } else if (ch != last_child) {
      items[path->len++] = PP_CHILD | ch;
      last_child = ch;
    }
  }
  return kPpOk;
}

/* Region r's path number k in its own numbering. */
static pp_status_t decode_region(const pp_plan_t *p, uint32_t r, uint32_t k, uint32_t *items, uint32_t cap,
                                 uint32_t *scratch, uint32_t scratch_cap, pp_path_t *path) {
  uint32_t n;
  pp_status_t st = pp_decode(&p->rn[r], k, scratch, scratch_cap, &n);
  if (st != kPpOk) return st;
  *path = (pp_path_t){.region = r};
  /* the DAG path Re -> x1 -> ... -> xk -> Rx: its nodes, each as the function's node or child region */
  for (uint32_t i = 0; i + 1 < n; i++) {
    const uint32_t node = p->node_of[r][p->rn[r].edge[scratch[i]].dst];
    if (node == p->f->g.exit) {
      path->exit = true;
      continue;
    }
    if (path->len == cap) return kPpBadGraph;
    uint32_t child = p->h.region_of[node];
    while (child != r && child != PP_NONE && p->h.parent[child] != r) child = p->h.parent[child];
    if (child == PP_NONE) return kPpBadGraph;
    items[path->len++] = child == r ? node : (PP_CHILD | child);
  }
  return kPpOk;
}

pp_status_t pp_plan_decode(const pp_plan_t *p, uint32_t idx, uint32_t *items, uint32_t cap, uint32_t *scratch,
                           uint32_t scratch_cap, pp_path_t *path) {
  if (p->hashed) { /* the table the plan built */
    if (idx >= PP_VAL_MOD || p->hash_region[idx] == PP_NONE) return kPpBadGraph;
    return decode_region(p, p->hash_region[idx], p->hash_local[idx], items, cap, scratch, scratch_cap, path);
  }
  if (p->emb == kPpGlobal) return decode_global(p, idx, items, cap, scratch, scratch_cap, path);
  uint32_t r = 0;
  while (r < p->h.nregion && !(idx >= p->start[r] && idx - p->start[r] < p->rn[r].paths)) r++;
  if (r == p->h.nregion) return kPpBadGraph;
  return decode_region(p, r, idx - p->start[r], items, cap, scratch, scratch_cap, path);
}
