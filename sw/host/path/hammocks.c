/* Hammock regions; see hammocks.h and docs/path.md. */
#include "hammocks.h"

#include <string.h>

#define SAT (UINT64_C(1) << 40) /* path counts saturate here: far beyond any counter array */

static uint64_t sat_add(uint64_t x, uint64_t y) { return x + y >= SAT ? SAT : x + y; }
static uint64_t sat_mul(uint64_t x, uint64_t y) { return x && y > SAT / x ? SAT : x * y >= SAT ? SAT : x * y; }

/* Region r's chain: its augmented graph, the links (local nodes, Re first, Rx last) and the paths
 * between consecutive links. */
typedef struct {
  pp_graph_t g;
  uint32_t *node_of, *local_of;
  uint32_t *link, nlink; /* local nodes */
  uint64_t *seg;         /* seg[i]: paths from link i to link i + 1 */
  uint64_t paths;        /* their product: the region's paths */
  uint32_t *pos;         /* per local node, its place in a topological order */
  uint32_t *first, *next; /* successor lists: first[l], next[e] (PP_NONE ends) */
} chain_t;

static pp_status_t make_chain(const pp_func_t *f, uint32_t r, hwprof_arena_t *a, chain_t *c) {
  memset(c, 0, sizeof *c);
  pp_status_t st = pp_rb_augment(&f->h, r, a, &c->g, &c->node_of, &c->local_of);
  if (st != kPpOk) return st;
  const pp_graph_t *g = &c->g;
  const uint32_t n = g->nnodes, re = g->entry, rx = g->exit;
  uint32_t *indeg = PP_ALLOC(a, uint32_t, n), *order = PP_ALLOC(a, uint32_t, n), *idom = PP_ALLOC(a, uint32_t, n);
  uint32_t *first = c->first = PP_ALLOC(a, uint32_t, n), *next = c->next = PP_ALLOC(a, uint32_t, g->nedge);
  uint64_t *cnt = PP_ALLOC(a, uint64_t, n);
  c->pos = PP_ALLOC(a, uint32_t, n);
  c->link = PP_ALLOC(a, uint32_t, n);
  c->seg = PP_ALLOC(a, uint64_t, n);
  if (indeg == NULL || order == NULL || idom == NULL || first == NULL || next == NULL || cnt == NULL || c->pos == NULL ||
      c->link == NULL || c->seg == NULL)
    return kPpNoMemory;
  for (uint32_t v = 0; v < n; v++) {
    indeg[v] = 0;
    first[v] = PP_NONE;
    idom[v] = PP_NONE;
    c->pos[v] = PP_NONE;
  }
  for (uint32_t e = g->nedge; e-- > 0;) { /* successor lists in edge order */
    next[e] = first[g->edge[e].src];
    first[g->edge[e].src] = e;
    indeg[g->edge[e].dst]++;
  }
  /* a topological order (Kahn) of what Re reaches; the augmented graph has no cycle */
  uint32_t head = 0, tail = 0;
  order[tail++] = re;
  for (uint32_t v = 0; v < n; v++)
    if (v != re && indeg[v] == 0) order[tail++] = v; /* unreachable from Re: never run */
  while (head < tail) {
    const uint32_t u = order[head];
    c->pos[u] = head++;
    for (uint32_t e = first[u]; e != PP_NONE; e = next[e])
      if (--indeg[g->edge[e].dst] == 0) order[tail++] = g->edge[e].dst;
  }
  if (tail != n) return kPpBadGraph;
  /* dominators from Re, in topological order: the intersection of the predecessors' chains */
  idom[re] = re;
  for (uint32_t i = 0; i < n; i++) {
    const uint32_t u = order[i];
    if (idom[u] == PP_NONE) continue; /* not reached from Re */
    for (uint32_t e = first[u]; e != PP_NONE; e = next[e]) {
      const uint32_t v = g->edge[e].dst;
      if (idom[v] == PP_NONE) {
        idom[v] = u;
        continue;
      }
      uint32_t x = idom[v], y = u;
      while (x != y) {
        while (c->pos[x] > c->pos[y]) x = idom[x];
        while (c->pos[y] > c->pos[x]) y = idom[y];
      }
      idom[v] = x;
    }
  }
  if (idom[rx] == PP_NONE) return kPpBadGraph;
  /* the chain: Rx's dominators, Re first */
  uint32_t k = 0;
  for (uint32_t x = rx;; x = idom[x]) {
    c->link[k++] = x;
    if (x == re) break;
  }
  for (uint32_t i = 0; i < k / 2; i++) {
    const uint32_t t = c->link[i];
    c->link[i] = c->link[k - 1u - i];
    c->link[k - 1u - i] = t;
  }
  c->nlink = k;
  /* the paths between consecutive links: every node between them in the order lies between them */
  c->paths = 1;
  for (uint32_t i = 0; i + 1u < k; i++) {
    const uint32_t from = c->pos[c->link[i]], to = c->pos[c->link[i + 1u]];
    cnt[order[to]] = 1;
    for (uint32_t p = to; p-- > from;) {
      const uint32_t u = order[p];
      cnt[u] = 0;
      for (uint32_t e = first[u]; e != PP_NONE; e = next[e]) {
        const uint32_t w = c->pos[g->edge[e].dst];
        if (w > from && w <= to) cnt[u] = sat_add(cnt[u], cnt[order[w]]);
      }
    }
    c->seg[i] = cnt[order[from]];
    c->paths = sat_mul(c->paths, c->seg[i]);
  }
  return kPpOk;
}

/* whether link i of region r may start a hammock, or end one */
static bool may_start(const pp_func_t *f, uint32_t r, const chain_t *c, uint32_t i) {
  const uint32_t l = c->link[i], v = c->node_of[l];
  if (v == PP_NONE || v == f->g.exit || v == f->g.entry || f->h.region_of[v] != r || v == f->h.rep_entry[r]) return false;
  for (uint32_t e = 0; e < c->g.nedge; e++) /* an entry of r (an edge from Re) */
    if (c->g.edge[e].dst == l && c->g.edge[e].src == c->g.entry) return false;
  for (uint32_t e = 0; e < f->g.nedge; e++) /* the target of a back edge */
    if (f->back[e] && f->g.edge[e].dst == v) return false;
  return true;
}
static bool may_end(const pp_func_t *f, const chain_t *c, uint32_t j) {
  const uint32_t v = c->node_of[c->link[j]];
  return v != PP_NONE && v != f->g.exit;
}

typedef struct {
  uint32_t region, from, to; /* links [from, to) of the region's chain */
} run_t;

/* The runs of region r's chain at cap K, longest first from each link that may start one; the
 * region keeps the product of the rest. Returns the counters r then needs in all. */
static uint64_t cut(const pp_func_t *f, uint32_t r, const chain_t *c, uint64_t K, run_t *runs, uint32_t *nrun) {
  uint64_t keep = 1, sum = 0;
  for (uint32_t i = 0; i + 1u < c->nlink;) {
    uint32_t best = PP_NONE;
    uint64_t prod = 1, best_prod = 1;
    if (i > 0 && may_start(f, r, c, i))
      for (uint32_t j = i + 1u; j < c->nlink; j++) {
        prod = sat_mul(prod, c->seg[j - 1u]);
        if (prod > K) break;
        if (may_end(f, c, j)) {
          best = j;
          best_prod = prod;
        }
      }
    if (best != PP_NONE && best_prod > 1u) {
      runs[(*nrun)++] = (run_t){r, i, best};
      sum = sat_add(sum, best_prod);
      i = best;
    } else {
      keep = sat_mul(keep, c->seg[i]);
      i++;
    }
  }
  return sat_add(keep, sum);
}

/* f's regions as the hierarchical plans use them (pp_plan.c): a loop headed by the function's entry
 * block is part of the function's region. Memory from a; m shares f's graph. */
static pp_status_t merged(const pp_func_t *f, hwprof_arena_t *a, pp_func_t *m) {
  const uint32_t nr = f->h.nregion, nn = f->g.nnodes;
  uint32_t *keep = PP_ALLOC(a, uint32_t, nr), *region_of = PP_ALLOC(a, uint32_t, nn);
  uint32_t *parent = PP_ALLOC(a, uint32_t, nr), *rep_entry = PP_ALLOC(a, uint32_t, nr), *rep_exit = PP_ALLOC(a, uint32_t, nr);
  if (keep == NULL || region_of == NULL || parent == NULL || rep_entry == NULL || rep_exit == NULL) return kPpNoMemory;
  uint32_t n = 0;
  for (uint32_t r = 0; r < nr; r++) keep[r] = r == 0 || f->h.rep_entry[r] != f->g.entry ? n++ : PP_NONE;
  for (uint32_t r = 0; r < nr; r++) {
    if (keep[r] == PP_NONE) continue;
    uint32_t up = f->h.parent[r];
    while (up != PP_NONE && keep[up] == PP_NONE) up = f->h.parent[up];
    parent[keep[r]] = up == PP_NONE ? PP_NONE : keep[up];
    rep_entry[keep[r]] = f->h.rep_entry[r];
    rep_exit[keep[r]] = f->h.rep_exit[r];
  }
  for (uint32_t v = 0; v < nn; v++) {
    uint32_t r = f->h.region_of[v];
    while (keep[r] == PP_NONE) r = f->h.parent[r];
    region_of[v] = keep[r];
  }
  *m = *f;
  m->region_of = region_of;
  m->parent = parent;
  m->rep_entry = rep_entry;
  m->rep_exit = rep_exit;
  m->h = (pp_regions_t){&f->g, f->back, region_of, parent, rep_entry, rep_exit, n};
  return kPpOk;
}

pp_status_t pp_split_hammocks(pp_func_t *f, uint32_t max_counters, hwprof_arena_t *a) {
  pp_func_t m;
  pp_status_t st = merged(f, a, &m);
  if (st != kPpOk) return st;
  m.h.g = &f->g; /* (m's copy of the graph is f's) */
  const uint32_t nr = m.h.nregion;
  chain_t *ch = PP_ALLOC(a, chain_t, nr);
  if (ch == NULL) return kPpNoMemory;
  uint64_t total = 0, maxlinks = 0;
  for (uint32_t r = 0; r < nr; r++) {
    if ((st = make_chain(&m, r, a, &ch[r])) != kPpOk) return st;
    total = sat_add(total, ch[r].paths);
    maxlinks += ch[r].nlink;
  }
  if (total <= max_counters) return kPpOk;
  run_t *runs = PP_ALLOC(a, run_t, maxlinks);
  if (runs == NULL) return kPpNoMemory;
  uint32_t nrun = 0;
  uint64_t K = 1;
  while (K * 2u <= max_counters) K *= 2u;
  for (; K >= 2u; K /= 2u) {
    nrun = 0;
    total = 0;
    for (uint32_t r = 0; r < nr; r++)
      total = sat_add(total, ch[r].paths > K ? cut(&m, r, &ch[r], K, runs, &nrun) : ch[r].paths);
    if (total <= max_counters) break;
  }
  if (K < 2u) return kPpTooManyPaths;
  /* the runs become regions nr .. nr + nrun - 1 */
  const uint32_t nn = f->g.nnodes, n2 = nr + nrun;
  uint32_t *region_of = PP_ALLOC(a, uint32_t, nn), *parent = PP_ALLOC(a, uint32_t, n2);
  uint32_t *rep_entry = PP_ALLOC(a, uint32_t, n2), *rep_exit = PP_ALLOC(a, uint32_t, n2);
  pp_hammock_t *hm = PP_ALLOC(a, pp_hammock_t, nrun);
  uint32_t *stack = PP_ALLOC(a, uint32_t, nn + 2u);
  bool *seen = PP_ALLOC(a, bool, nn + 2u);
  if (region_of == NULL || parent == NULL || rep_entry == NULL || rep_exit == NULL || hm == NULL || stack == NULL ||
      seen == NULL)
    return kPpNoMemory;
  memcpy(region_of, m.h.region_of, nn * sizeof *region_of);
  memcpy(parent, m.h.parent, nr * sizeof *parent);
  memcpy(rep_entry, m.h.rep_entry, nr * sizeof *rep_entry);
  memcpy(rep_exit, m.h.rep_exit, nr * sizeof *rep_exit);
  for (uint32_t t = 0; t < nrun; t++) {
    const chain_t *c = &ch[runs[t].region];
    const uint32_t r = runs[t].region, hr = nr + t, in = c->link[runs[t].from], out = c->link[runs[t].to];
    hm[t] = (pp_hammock_t){c->node_of[in], c->node_of[out], hr};
    parent[hr] = r;
    rep_entry[hr] = c->node_of[in];
    rep_exit[hr] = PP_NONE;
    /* its local nodes: reached from the first link without passing the last */
    for (uint32_t l = 0; l < c->g.nnodes; l++) seen[l] = false;
    uint32_t sp = 0;
    stack[sp++] = in;
    seen[in] = seen[out] = true;
    while (sp > 0) {
      const uint32_t l = stack[--sp], v = c->node_of[l];
      if (v == PP_NONE) return kPpBadGraph; /* Re or Rx: not a hammock */
      if (m.h.region_of[v] == r) region_of[v] = hr; /* a block of r's own */
      else
        for (uint32_t x = 0; x < nr; x++) /* a child region, as its representative entry */
          if (parent[x] == r && m.h.rep_entry[x] == v) parent[x] = hr;
      for (uint32_t e = c->first[l]; e != PP_NONE; e = c->next[e])
        if (!seen[c->g.edge[e].dst]) {
          seen[c->g.edge[e].dst] = true;
          stack[sp++] = c->g.edge[e].dst;
        }
    }
  }
  /* representative exits: the first block (by edge order) with an edge out to the run's end */
  for (uint32_t t = 0; t < nrun; t++) {
    const uint32_t hr = nr + t;
    for (uint32_t e = 0; e < f->g.nedge && rep_exit[hr] == PP_NONE; e++) {
      const uint32_t u = f->g.edge[e].src;
      if (f->g.edge[e].dst != hm[t].exit) continue;
      for (uint32_t x = region_of[u]; x != PP_NONE; x = parent[x])
        if (x == hr) {
          rep_exit[hr] = u;
          break;
        }
    }
    if (rep_exit[hr] == PP_NONE) rep_exit[hr] = hm[t].entry;
  }
  f->region_of = region_of;
  f->parent = parent;
  f->rep_entry = rep_entry;
  f->rep_exit = rep_exit;
  f->hammock = hm;
  f->nhammock = nrun;
  f->h = (pp_regions_t){&f->g, f->back, region_of, parent, rep_entry, rep_exit, n2};
  return kPpOk;
}

pp_status_t pp_cfg_hammocks(const hwprof_cfg_func_t *cfg, uint32_t max_counters, hwprof_arena_t *a,
                            pp_cfg_hammock_t **out, uint32_t *n) {
  pp_func_t f;
  *n = 0;
  *out = NULL;
  pp_status_t st = pp_func_from_cfg(cfg, a, &f);
  if (st == kPpOk) st = pp_split_hammocks(&f, max_counters, a);
  if (st == kPpTooManyPaths) return kPpOk; /* no hammocks: the function keeps no hierarchical profile */
  if (st != kPpOk) return st;
  if (f.nhammock == 0) return kPpOk;
  if ((*out = PP_ALLOC(a, pp_cfg_hammock_t, f.nhammock)) == NULL) return kPpNoMemory;
  for (uint32_t t = 0; t < f.nhammock; t++)
    (*out)[t] = (pp_cfg_hammock_t){(int)f.hammock[t].entry, (int)f.hammock[t].exit,
                                   (int)f.rep_entry[f.parent[f.hammock[t].region]]};
  *n = f.nhammock;
  return kPpOk;
}
