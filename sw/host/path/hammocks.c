/* Hammock regions; see hammocks.h and docs/path.md. */
#include "hammocks.h"

#include <string.h>

/* One region's augmented graph (regions.h) as the split sees it, with the hammocks chosen so far
 * collapsed: a collapsed hammock is its entry node with one edge, to its exit; the nodes inside it
 * are gone. Path counts are doubles: exact far beyond any counter array, and a region of 2^300
 * paths still compares. */
typedef struct {
  uint32_t r;
  pp_graph_t g;
  uint32_t *node_of, *local_of;
  uint32_t *first, *next; /* the augmented graph's successor lists, in edge order */
  bool *active;           /* per local node: not inside a collapsed hammock */
  uint32_t *skip_to;      /* per local node: a collapsed hammock's exit, or PP_NONE */
  bool *entry_of_r;       /* per local node: Re has an edge to it */
  double total;           /* the region's paths now */
} region_t;

/* scratch of one evaluation, per local node */
typedef struct {
  uint32_t *order, *pos, *indeg, *idom, *ipdom, *pre, *post, *stack, *kids, *kid_next, *walk;
  double *in, *out;
  uint32_t *stamp, now; /* visited marks of members_dominated, by walk */
} scratch_t;

/* a chosen hammock: region r's local nodes */
typedef struct {
  uint32_t r, in, out;
} pick_t;

/* the successors of local node u in the collapsed graph: call fn for each */
#define FOR_SUCC(R, u, v, BODY)                                                   \
  do {                                                                            \
    if ((R)->skip_to[u] != PP_NONE) {                                             \
      const uint32_t v = (R)->skip_to[u];                                         \
      BODY;                                                                       \
    } else                                                                        \
      for (uint32_t e_ = (R)->first[u]; e_ != PP_NONE; e_ = (R)->next[e_]) {      \
        const uint32_t v = (R)->g.edge[e_].dst;                                   \
        BODY;                                                                     \
      }                                                                           \
  } while (0)

static pp_status_t region_init(const pp_func_t *m, uint32_t r, hwprof_arena_t *a, region_t *R) {
  memset(R, 0, sizeof *R);
  R->r = r;
  pp_status_t st = pp_rb_augment(&m->h, r, a, &R->g, &R->node_of, &R->local_of);
  if (st != kPpOk) return st;
  const uint32_t n = R->g.nnodes;
  R->first = PP_ALLOC(a, uint32_t, n);
  R->next = PP_ALLOC(a, uint32_t, R->g.nedge);
  R->active = PP_ALLOC(a, bool, n);
  R->skip_to = PP_ALLOC(a, uint32_t, n);
  R->entry_of_r = PP_ALLOC(a, bool, n);
  if (R->first == NULL || R->next == NULL || R->active == NULL || R->skip_to == NULL || R->entry_of_r == NULL)
    return kPpNoMemory;
  for (uint32_t v = 0; v < n; v++) {
    R->first[v] = PP_NONE;
    R->active[v] = true;
    R->skip_to[v] = PP_NONE;
  }
  for (uint32_t e = R->g.nedge; e-- > 0;) {
    R->next[e] = R->first[R->g.edge[e].src];
    R->first[R->g.edge[e].src] = e;
    if (R->g.edge[e].src == R->g.entry) R->entry_of_r[R->g.edge[e].dst] = true;
  }
  return kPpOk;
}

static pp_status_t scratch_init(uint32_t n, hwprof_arena_t *a, scratch_t *s) {
  s->order = PP_ALLOC(a, uint32_t, n);
  s->pos = PP_ALLOC(a, uint32_t, n);
  s->indeg = PP_ALLOC(a, uint32_t, n);
  s->idom = PP_ALLOC(a, uint32_t, n);
  s->ipdom = PP_ALLOC(a, uint32_t, n);
  s->pre = PP_ALLOC(a, uint32_t, n);
  s->post = PP_ALLOC(a, uint32_t, n);
  s->stack = PP_ALLOC(a, uint32_t, n);
  s->kids = PP_ALLOC(a, uint32_t, n);
  s->kid_next = PP_ALLOC(a, uint32_t, n);
  s->walk = PP_ALLOC(a, uint32_t, n);
  s->stamp = PP_ALLOC(a, uint32_t, n);
  s->now = 0;
  s->in = PP_ALLOC(a, double, n);
  s->out = PP_ALLOC(a, double, n);
  return s->order && s->pos && s->indeg && s->idom && s->ipdom && s->pre && s->post && s->stack && s->kids &&
                 s->kid_next && s->walk && s->stamp && s->in && s->out
             ? kPpOk
             : kPpNoMemory;
}

static uint32_t meet(const uint32_t *dom, const uint32_t *pos, uint32_t x, uint32_t y, bool forward) {
  while (x != y) {
    if (forward) {
      while (pos[x] > pos[y]) x = dom[x];
      while (pos[y] > pos[x]) y = dom[y];
    } else {
      while (pos[x] < pos[y]) x = dom[x];
      while (pos[y] < pos[x]) y = dom[y];
    }
  }
  return x;
}

/* The collapsed graph's topological order, paths from Re (in) and to Rx (out), dominators from Re
 * and postdominators to Rx, and the dominator tree's preorder intervals. kPpBadGraph on a cycle. */
static pp_status_t evaluate(region_t *R, scratch_t *s) {
  const uint32_t n = R->g.nnodes, re = R->g.entry, rx = R->g.exit;
  for (uint32_t v = 0; v < n; v++) {
    s->indeg[v] = 0;
    s->pos[v] = PP_NONE;
    s->idom[v] = s->ipdom[v] = PP_NONE;
    s->in[v] = s->out[v] = 0.0;
  }
  for (uint32_t u = 0; u < n; u++)
    if (R->active[u]) FOR_SUCC(R, u, v, s->indeg[v]++);
  uint32_t head = 0, tail = 0;
  s->order[tail++] = re;
  for (uint32_t v = 0; v < n; v++)
    if (R->active[v] && v != re && s->indeg[v] == 0) s->order[tail++] = v; /* never reached from Re */
  while (head < tail) {
    const uint32_t u = s->order[head];
    s->pos[u] = head++;
    FOR_SUCC(R, u, v, {
      if (--s->indeg[v] == 0) s->order[tail++] = v;
    });
  }
  uint32_t nact = 0;
  for (uint32_t v = 0; v < n; v++) nact += R->active[v];
  if (tail != nact) return kPpBadGraph;
  s->in[re] = 1.0;
  s->idom[re] = re;
  for (uint32_t i = 0; i < tail; i++) {
    const uint32_t u = s->order[i];
    if (s->idom[u] == PP_NONE) continue;
    FOR_SUCC(R, u, v, {
      s->in[v] += s->in[u];
      s->idom[v] = s->idom[v] == PP_NONE ? u : meet(s->idom, s->pos, s->idom[v], u, true);
    });
  }
  s->out[rx] = 1.0;
  s->ipdom[rx] = rx;
  for (uint32_t i = tail; i-- > 0;) {
    const uint32_t u = s->order[i];
    FOR_SUCC(R, u, v, {
      if (s->ipdom[v] == PP_NONE) continue;
      s->out[u] += s->out[v];
      s->ipdom[u] = s->ipdom[u] == PP_NONE ? v : meet(s->ipdom, s->pos, s->ipdom[u], v, false);
    });
  }
  R->total = s->out[re];
  /* the dominator tree's preorder intervals: u dominates v iff pre[u] <= pre[v] <= post[u] */
  for (uint32_t v = 0; v < n; v++) s->kids[v] = PP_NONE;
  for (uint32_t i = tail; i-- > 0;) {
    const uint32_t v = s->order[i];
    if (v == re || s->idom[v] == PP_NONE) continue;
    s->kid_next[v] = s->kids[s->idom[v]];
    s->kids[s->idom[v]] = v;
  }
  uint32_t sp = 0, clock = 0;
  s->stack[sp++] = re;
  s->pre[re] = clock++;
  while (sp > 0) { /* iterative: push a node's next unvisited kid, or close it */
    const uint32_t u = s->stack[sp - 1], k = s->kids[u];
    if (k == PP_NONE) {
      s->post[u] = clock - 1u;
      sp--;
      continue;
    }
    s->kids[u] = s->kid_next[k];
    s->pre[k] = clock++;
    s->stack[sp++] = k;
  }
  return kPpOk;
}

static bool dominates(const scratch_t *s, uint32_t u, uint32_t v) {
  return s->idom[v] != PP_NONE && s->pre[u] <= s->pre[v] && s->pre[v] <= s->post[u];
}

/* A walk through a hammock [x, y) stops at y, and at the region's end: Rx, and the function's exit
 * node where it is the region's (a hammock that ends with its region's paths, y = Rx, holds
 * neither). */
static uint32_t exit_node(const region_t *R, const pp_func_t *m) { return R->local_of[m->g.exit]; }

/* whether x dominates every node a walk from x reaches before y (then nothing enters between them
 * but through x; y itself may be reached from elsewhere too) */
static bool members_dominated(const region_t *R, const pp_func_t *m, scratch_t *s, uint32_t x, uint32_t y) {
  if (++s->now == 0) { /* the marks wrapped: clear them */
    for (uint32_t v = 0; v < R->g.nnodes; v++) s->stamp[v] = 0;
    s->now = 1;
  }
  uint32_t sp = 0;
  s->walk[sp++] = x;
  s->stamp[x] = s->stamp[y] = s->stamp[R->g.exit] = s->now;
  if (exit_node(R, m) != PP_NONE) s->stamp[exit_node(R, m)] = s->now;
  while (sp > 0) {
    const uint32_t u = s->walk[--sp];
    if (u != x && !dominates(s, x, u)) return false;
    FOR_SUCC(R, u, v, {
      if (s->stamp[v] != s->now) {
        s->stamp[v] = s->now;
        s->walk[sp++] = v;
      }
    });
  }
  return true;
}

/* whether local node l of region R may start a hammock: a block of the region's own, not its head,
 * the function's entry or exit, not entered from outside the region, not a hammock's entry already
 * nor a back edge's target (no_start marks both) */
static bool may_start(const pp_func_t *m, const region_t *R, uint32_t l, const bool *no_start) {
  const uint32_t v = R->node_of[l];
  return v != PP_NONE && R->active[l] && R->skip_to[l] == PP_NONE && !no_start[v] && v != m->g.exit &&
         v != m->g.entry && m->h.region_of[v] == R->r && v != m->h.rep_entry[R->r] && !R->entry_of_r[l];
}

/* Region R's best hammock of at most K paths: the one that removes most paths from it, (p - 1)
 * times the paths into its entry times the paths out of its exit. Candidates: an entry x that may
 * start one, and an exit y on x's postdominator chain (not the function's exit node) such that x
 * dominates everything between them; y may be Rx: the hammock then ends where its region's paths
 * end (its exits are the region's). false: none of more than one path. */
static bool best_candidate(const pp_func_t *m, const region_t *R, scratch_t *s, double K, const bool *is_head,
                           uint32_t *bx, uint32_t *by, double *bp) {
  double best = 0.0;
  for (uint32_t x = 0; x < R->g.nnodes; x++) {
    if (s->idom[x] == PP_NONE || s->ipdom[x] == PP_NONE || !may_start(m, R, x, is_head)) continue;
    for (uint32_t y = s->ipdom[x];; y = s->ipdom[y]) {
      const double q = s->out[x] / s->out[y]; /* exact to far below half a path */
      if (q > K + 0.5) break;
      const double p = (double)(uint64_t)(q + 0.5);
      /* more between x and a later y: once something there is entered elsewhere, it stays so */
      if (!dominates(s, x, y) && !members_dominated(R, m, s, x, y)) break;
      const bool to_end = y == R->g.exit;
      const uint32_t v = R->node_of[y];
      if (p >= 2.0 && (to_end || (v != PP_NONE && v != m->g.exit))) {
        const double gain = (p - 1.0) * s->in[x] * s->out[y];
        if (gain > best) {
          best = gain;
          *bx = x;
          *by = y;
          *bp = p;
        }
      }
      if (to_end) break;
    }
  }
  return best > 0.0;
}

/* Collapses hammock [x, y) of R: the nodes a walk from x reaches before y are gone, x goes to y. */
static void collapse(region_t *R, const pp_func_t *m, uint32_t x, uint32_t y, uint32_t *stack, bool *seen) {
  for (uint32_t v = 0; v < R->g.nnodes; v++) seen[v] = false;
  uint32_t sp = 0;
  stack[sp++] = x;
  seen[x] = seen[y] = seen[R->g.exit] = true;
  if (exit_node(R, m) != PP_NONE) seen[exit_node(R, m)] = true;
  while (sp > 0) {
    const uint32_t u = stack[--sp];
    if (u != x) R->active[u] = false;
    FOR_SUCC(R, u, v, {
      if (!seen[v]) {
        seen[v] = true;
        stack[sp++] = v;
      }
    });
  }
  R->skip_to[x] = y;
}

/* f's regions as the hierarchical plans use them (pp_regions_used). m shares f's graph. */
static pp_status_t merged(const pp_func_t *f, hwprof_arena_t *a, pp_func_t *m) {
  *m = *f;
  const pp_status_t st = pp_regions_used(&f->h, false, a, &m->h, NULL);
  if (st != kPpOk) return st;
  m->h.g = &f->g;
  m->region_of = (uint32_t *)m->h.region_of;
  m->parent = (uint32_t *)m->h.parent;
  m->rep_entry = (uint32_t *)m->h.rep_entry;
  m->rep_exit = (uint32_t *)m->h.rep_exit;
  return kPpOk;
}

/* The hammocks at cap K: while the regions and the hammocks together need more than max counters,
 * the region with the most paths gives up its best candidate. *npick of them; *fits false when the
 * counters are still too many and no candidate is left. */
static pp_status_t choose(const pp_func_t *m, region_t *R, uint32_t nr, scratch_t *s, double K, double max, bool *is_head,
                          uint32_t *stack, bool *seen, pick_t *pick, uint32_t cap, uint32_t *npick, bool *fits) {
  *npick = 0;
  *fits = false;
  double hsum = 0.0;
  uint32_t held = PP_NONE; /* the region whose evaluation s holds */
  for (;;) {
    double total = hsum;
    uint32_t worst = 0;
    for (uint32_t r = 0; r < nr; r++) {
      total += R[r].total;
      if (R[r].total > R[worst].total) worst = r;
    }
    if (total <= max) {
      *fits = true;
      return kPpOk;
    }
    pp_status_t st = held == worst ? kPpOk : evaluate(&R[worst], s);
    if (st != kPpOk) return st;
    uint32_t x = 0, y = 0;
    double p = 0.0;
    if (*npick == cap || !best_candidate(m, &R[worst], s, K, is_head, &x, &y, &p)) return kPpOk;
    pick[(*npick)++] = (pick_t){worst, x, y};
    is_head[R[worst].node_of[x]] = true;
    collapse(&R[worst], m, x, y, stack, seen);
    hsum += p;
    if ((st = evaluate(&R[worst], s)) != kPpOk) return st; /* its paths now, and s for the next pick */
    held = worst;
  }
}

pp_status_t pp_split_hammocks(pp_func_t *f, uint32_t max_counters, hwprof_arena_t *a) {
  pp_func_t m;
  pp_status_t st = merged(f, a, &m);
  if (st != kPpOk) return st;
  const uint32_t nr = m.h.nregion, nn = f->g.nnodes;
  region_t *R = PP_ALLOC(a, region_t, nr);
  bool *is_head = PP_ALLOC(a, bool, nn), *seen = PP_ALLOC(a, bool, nn + 2u);
  uint32_t *stack = PP_ALLOC(a, uint32_t, nn + 2u), maxloc = 0;
  if (R == NULL || is_head == NULL || seen == NULL || stack == NULL) return kPpNoMemory;
  double total = 0.0;
  for (uint32_t r = 0; r < nr; r++) {
    if ((st = region_init(&m, r, a, &R[r])) != kPpOk) return st;
    if (R[r].g.nnodes > maxloc) maxloc = R[r].g.nnodes;
  }
  scratch_t s;
  if ((st = scratch_init(maxloc, a, &s)) != kPpOk) return st;
  for (uint32_t r = 0; r < nr; r++) {
    if ((st = evaluate(&R[r], &s)) != kPpOk) return st;
    total += R[r].total;
  }
  if (total <= (double)max_counters) return kPpOk;
  /* the largest cap whose hammocks fit: fewer, longer hammocks cost fewer region changes */
  const uint32_t cap = nn;
  pick_t *pick = PP_ALLOC(a, pick_t, cap);
  if (pick == NULL) return kPpNoMemory;
  const size_t mark = a->used;
  uint32_t npick = 0;
  bool fits = false;
  double K = 1.0;
  while (K * 2.0 <= (double)max_counters) K *= 2.0;
  for (; K >= 2.0 && !fits; K /= 2.0) {
    a->used = mark;
    for (uint32_t v = 0; v < nn; v++) is_head[v] = false;
    for (uint32_t e = 0; e < f->g.nedge; e++) /* a back edge's target starts no hammock */
      if (f->back[e]) is_head[f->g.edge[e].dst] = true;
    for (uint32_t r = 0; r < nr; r++) {
      if ((st = region_init(&m, r, a, &R[r])) != kPpOk || (st = evaluate(&R[r], &s)) != kPpOk) return st;
    }
    if ((st = choose(&m, R, nr, &s, K, (double)max_counters, is_head, stack, seen, pick, cap, &npick, &fits)) != kPpOk)
      return st;
  }
  if (!fits) return kPpTooManyPaths;
  /* the hammocks become regions nr .. nr + npick - 1, each with the blocks a walk from its entry
   * reaches before its exit in its region's own graph; the larger ones first, so that a hammock
   * inside another takes its blocks and its child regions from it */
  const uint32_t n2 = nr + npick;
  uint32_t *region_of = PP_ALLOC(a, uint32_t, nn), *parent = PP_ALLOC(a, uint32_t, n2);
  uint32_t *rep_entry = PP_ALLOC(a, uint32_t, n2), *rep_exit = PP_ALLOC(a, uint32_t, n2);
  uint32_t *size = PP_ALLOC(a, uint32_t, npick), *order = PP_ALLOC(a, uint32_t, npick);
  bool *member = PP_ALLOC(a, bool, (size_t)npick * nn);
  pp_hammock_t *hm = PP_ALLOC(a, pp_hammock_t, npick);
  if (region_of == NULL || parent == NULL || rep_entry == NULL || rep_exit == NULL || size == NULL || order == NULL ||
      member == NULL || hm == NULL)
    return kPpNoMemory;
  memcpy(region_of, m.h.region_of, nn * sizeof *region_of);
  memcpy(parent, m.h.parent, nr * sizeof *parent);
  memcpy(rep_entry, m.h.rep_entry, nr * sizeof *rep_entry);
  memcpy(rep_exit, m.h.rep_exit, nr * sizeof *rep_exit);
  for (uint32_t t = 0; t < npick; t++) { /* members, as function nodes, in the region's uncollapsed graph */
    region_t *Rr = &R[pick[t].r];
    for (uint32_t l = 0; l < Rr->g.nnodes; l++) {
      Rr->active[l] = true;
      Rr->skip_to[l] = PP_NONE;
    }
    for (uint32_t l = 0; l < Rr->g.nnodes; l++) seen[l] = false;
    uint32_t sp = 0;
    stack[sp++] = pick[t].in;
    seen[pick[t].in] = seen[pick[t].out] = seen[Rr->g.exit] = true;
    if (exit_node(Rr, &m) != PP_NONE) seen[exit_node(Rr, &m)] = true;
    size[t] = 0;
    while (sp > 0) {
      const uint32_t l = stack[--sp], v = Rr->node_of[l];
      if (v == PP_NONE) return kPpBadGraph; /* Re or Rx inside: not a hammock */
      member[(size_t)t * nn + v] = true;
      size[t]++;
      FOR_SUCC(Rr, l, w, {
        if (!seen[w]) {
          seen[w] = true;
          stack[sp++] = w;
        }
      });
    }
    order[t] = t;
  }
  for (uint32_t i = 1; i < npick; i++) /* larger first, ties in the order chosen */
    for (uint32_t j = i; j > 0 && size[order[j]] > size[order[j - 1]]; j--) {
      const uint32_t x = order[j];
      order[j] = order[j - 1];
      order[j - 1] = x;
    }
  for (uint32_t i = 0; i < npick; i++) {
    const uint32_t t = order[i], hr = nr + i, r = pick[t].r;
    const uint32_t in = R[r].node_of[pick[t].in], out = R[r].node_of[pick[t].out];
    /* its parent: the region its entry lies in directly so far (r, or a larger hammock of r) */
    const uint32_t p = region_of[in];
    hm[i] = (pp_hammock_t){in, out, hr};
    parent[hr] = p;
    rep_entry[hr] = in;
    for (uint32_t v = 0; v < nn; v++) {
      if (!member[(size_t)t * nn + v]) continue;
      if (region_of[v] == p) region_of[v] = hr; /* a block directly in the parent */
      else
        for (uint32_t x = 0; x < hr; x++) /* a child region of the parent, entered at v */
          if (parent[x] == p && rep_entry[x] == v) parent[x] = hr;
    }
  }
  /* representative exits: the first block (by edge order) of the hammock with an edge out of it (to
   * its exit, or, one that ends with its region's paths, anywhere: a back edge, a return) */
  for (uint32_t i = 0; i < npick; i++) {
    const uint32_t hr = nr + i;
    rep_exit[hr] = PP_NONE;
    for (uint32_t e = 0; e < f->g.nedge && rep_exit[hr] == PP_NONE; e++) {
      const uint32_t u = f->g.edge[e].src, v = f->g.edge[e].dst;
      if (hm[i].exit != PP_NONE && v != hm[i].exit) continue;
      bool u_in = false, v_in = false;
      for (uint32_t x = region_of[u]; x != PP_NONE; x = parent[x]) u_in |= x == hr;
      for (uint32_t x = region_of[v]; x != PP_NONE; x = parent[x]) v_in |= x == hr;
      if (u_in && (!v_in || f->back[e])) rep_exit[hr] = u;
    }
    if (rep_exit[hr] == PP_NONE) rep_exit[hr] = hm[i].entry;
  }
  f->region_of = region_of;
  f->parent = parent;
  f->rep_entry = rep_entry;
  f->rep_exit = rep_exit;
  f->hammock = hm;
  f->nhammock = npick;
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
    (*out)[t] = (pp_cfg_hammock_t){(int)f.hammock[t].entry, f.hammock[t].exit == PP_NONE ? -1 : (int)f.hammock[t].exit,
                                   (int)f.rep_entry[f.parent[f.hammock[t].region]]};
  *n = f.nhammock;
  return kPpOk;
}
