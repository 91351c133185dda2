/* Ball-Larus path numbering; see bl.h and docs/path.md. */
#include "bl.h"

const char *pp_status_str(pp_status_t s) {
  switch (s) {
    case kPpOk: return "ok";
    case kPpBadGraph: return "not a graph with one entry and one exit (an edge out of range, an edge out of the exit, or a cycle left)";
    case kPpUnreachable: return "a node reached from the entry cannot reach the exit";
    case kPpTooManyPaths: return "more paths than the counters can address";
    case kPpNoMemory: return "out of memory";
    case kPpLandingInLoop:
      return "a longjmp lands inside a loop (behind a call of setjmp there): the outer regions' paths it would "
             "continue may have ended";
    default: return "unknown";
  }
}

/* Back edges of g by a depth-first search from the entry, successors in edge order: an edge to a
 * node still on the search's path. gfirst/gnext: g's outgoing edges per node. */
static pp_status_t find_back_edges(const pp_graph_t *g, const uint32_t *gfirst, const uint32_t *gnext, hwprof_arena_t *a,
                                   bool *back) {
  uint8_t *color = PP_ALLOC(a, uint8_t, g->nnodes); /* 0 new, 1 on the path, 2 done */
  uint32_t *stack = PP_ALLOC(a, uint32_t, g->nnodes), *cursor = PP_ALLOC(a, uint32_t, g->nnodes);
  if (color == NULL || stack == NULL || cursor == NULL) return kPpNoMemory;
  uint32_t sp = 0;
  stack[sp++] = g->entry;
  color[g->entry] = 1;
  cursor[g->entry] = gfirst[g->entry];
  while (sp > 0) {
    const uint32_t v = stack[sp - 1], e = cursor[v];
    if (e == PP_NONE) {
      color[v] = 2;
      sp--;
      continue;
    }
    cursor[v] = gnext[e];
    const uint32_t w = g->edge[e].dst;
    if (color[w] == 1) {
      back[e] = true;
    } else if (color[w] == 0) {
      color[w] = 1;
      cursor[w] = gfirst[w];
      stack[sp++] = w;
    }
  }
  return kPpOk;
}

/* outgoing edges per node, in edge order: first[v], next[e] (PP_NONE ends); last: scratch */
static void out_lists(const pp_graph_t *g, uint32_t *first, uint32_t *next, uint32_t *last) {
  for (uint32_t v = 0; v < g->nnodes; v++) first[v] = PP_NONE;
  for (uint32_t e = 0; e < g->nedge; e++) {
    const uint32_t v = g->edge[e].src;
    next[e] = PP_NONE;
    if (first[v] == PP_NONE) first[v] = e;
    else next[last[v]] = e;
    last[v] = e;
  }
}

pp_status_t pp_back_edges(const pp_graph_t *g, hwprof_arena_t *a, bool *back) {
  if (g == NULL || a == NULL || back == NULL || g->entry >= g->nnodes) return kPpBadGraph;
  for (uint32_t e = 0; e < g->nedge; e++) {
    if (g->edge[e].src >= g->nnodes || g->edge[e].dst >= g->nnodes) return kPpBadGraph;
    back[e] = false;
  }
  uint32_t *first = PP_ALLOC(a, uint32_t, g->nnodes), *next = PP_ALLOC(a, uint32_t, g->nedge),
           *last = PP_ALLOC(a, uint32_t, g->nnodes);
  if (first == NULL || next == NULL || last == NULL) return kPpNoMemory;
  out_lists(g, first, next, last);
  return find_back_edges(g, first, next, a, back);
}

static void append(pp_numbering_t *n, uint32_t *last, pp_edge_t e, pp_kind_t kind, uint32_t orig) {
  const uint32_t i = n->nedge++;
  n->edge[i] = e;
  n->kind[i] = (uint8_t)kind;
  n->orig[i] = orig;
  n->next[i] = PP_NONE;
  if (n->first[e.src] == PP_NONE) n->first[e.src] = i;
  else n->next[last[e.src]] = i;
  last[e.src] = i;
}

pp_status_t pp_number(const pp_graph_t *g, const bool *back, uint64_t max_paths, hwprof_arena_t *a, pp_numbering_t *n) {
  if (g == NULL || n == NULL || a == NULL || g->entry >= g->nnodes || g->exit >= g->nnodes || (g->nedge && g->edge == NULL))
    return kPpBadGraph;
  for (uint32_t e = 0; e < g->nedge; e++)
    if (g->edge[e].src >= g->nnodes || g->edge[e].dst >= g->nnodes) return kPpBadGraph;
  *n = (pp_numbering_t){.g = g};
  uint32_t *gfirst = PP_ALLOC(a, uint32_t, g->nnodes), *gnext = PP_ALLOC(a, uint32_t, g->nedge), *glast = PP_ALLOC(a, uint32_t, g->nnodes);
  n->back = PP_ALLOC(a, bool, g->nedge);
  n->dummy_entry = PP_ALLOC(a, uint32_t, g->nedge);
  n->dummy_exit = PP_ALLOC(a, uint32_t, g->nedge);
  if (gfirst == NULL || gnext == NULL || glast == NULL || n->back == NULL || n->dummy_entry == NULL || n->dummy_exit == NULL)
    return kPpNoMemory;
  out_lists(g, gfirst, gnext, glast);
  if (back) {
    for (uint32_t e = 0; e < g->nedge; e++) n->back[e] = back[e];
  } else {
    const pp_status_t st = find_back_edges(g, gfirst, gnext, a, n->back);
    if (st != kPpOk) return st;
  }
  uint32_t nback = 0;
  for (uint32_t e = 0; e < g->nedge; e++) {
    nback += n->back[e];
    if (!n->back[e] && g->edge[e].src == g->exit) return kPpBadGraph;
  }
  uint32_t nstart = 0;
  for (uint32_t v = 0; g->start && v < g->nnodes; v++) nstart += g->start[v];
  /* the DAG: real edges in order, then each back edge's two dummies at the end of their sources'
   * lists, then the other starts' */
  const uint32_t cap = g->nedge - nback + 2u * nback + nstart;
  n->edge = PP_ALLOC(a, pp_edge_t, cap);
  n->kind = PP_ALLOC(a, uint8_t, cap);
  n->orig = PP_ALLOC(a, uint32_t, cap);
  n->val = PP_ALLOC(a, uint64_t, cap);
  n->next = PP_ALLOC(a, uint32_t, cap);
  n->first = PP_ALLOC(a, uint32_t, g->nnodes);
  n->npaths = PP_ALLOC(a, uint64_t, g->nnodes);
  uint32_t *last = PP_ALLOC(a, uint32_t, g->nnodes);
  if (n->edge == NULL || n->kind == NULL || n->orig == NULL || n->val == NULL || n->next == NULL || n->first == NULL ||
      n->npaths == NULL || last == NULL)
    return kPpNoMemory;
  for (uint32_t v = 0; v < g->nnodes; v++) n->first[v] = PP_NONE;
  for (uint32_t e = 0; e < g->nedge; e++) {
    n->dummy_entry[e] = n->dummy_exit[e] = PP_NONE;
    if (!n->back[e]) append(n, last, g->edge[e], kPpReal, e);
  }
  for (uint32_t e = 0; e < g->nedge; e++) {
    if (!n->back[e]) continue;
    if (g->edge[e].dst != g->entry) { /* a loop whose head is the entry starts its paths there anyway */
      n->dummy_entry[e] = n->nedge;
      append(n, last, (pp_edge_t){g->entry, g->edge[e].dst}, kPpDummyEntry, e);
    }
    n->dummy_exit[e] = n->nedge;
    append(n, last, (pp_edge_t){g->edge[e].src, g->exit}, kPpDummyExit, e);
  }
  for (uint32_t v = 0; g->start && v < g->nnodes; v++) {
    bool has = v == g->entry || !g->start[v];
    for (uint32_t e = n->first[g->entry]; e != PP_NONE && !has; e = n->next[e])
      has = n->kind[e] == kPpDummyEntry && n->edge[e].dst == v;
    if (!has) append(n, last, (pp_edge_t){g->entry, v}, kPpDummyEntry, PP_NONE);
  }
  /* NumPaths in post-order of a depth-first search of the DAG from the entry */
  uint8_t *color = PP_ALLOC(a, uint8_t, g->nnodes);
  uint32_t *stack = PP_ALLOC(a, uint32_t, g->nnodes), *cursor = PP_ALLOC(a, uint32_t, g->nnodes);
  if (color == NULL || stack == NULL || cursor == NULL) return kPpNoMemory;
  uint32_t sp = 0;
  stack[sp++] = g->entry;
  color[g->entry] = 1;
  cursor[g->entry] = n->first[g->entry];
  while (sp > 0) {
    const uint32_t v = stack[sp - 1], e = cursor[v];
    if (e != PP_NONE) {
      cursor[v] = n->next[e];
      const uint32_t w = n->edge[e].dst;
      if (color[w] == 1) return kPpBadGraph; /* a cycle the back edges did not break */
      if (color[w] == 0) {
        color[w] = 1;
        cursor[w] = n->first[w];
        stack[sp++] = w;
      }
      continue;
    }
    /* all successors done: v's paths and its edges' values */
    uint64_t sum = v == g->exit ? 1u : 0u;
    for (uint32_t f = n->first[v]; f != PP_NONE; f = n->next[f]) {
      n->val[f] = sum;
      const uint64_t p = n->npaths[n->edge[f].dst];
      if (p > max_paths - sum) return kPpTooManyPaths;
      sum += p;
    }
    if (sum == 0) return kPpUnreachable;
    n->npaths[v] = sum;
    color[v] = 2;
    sp--;
  }
  n->paths = n->npaths[g->entry];
  return n->paths > max_paths ? kPpTooManyPaths : kPpOk;
}

pp_status_t pp_decode(const pp_numbering_t *n, uint64_t sum, uint32_t *edges, uint32_t cap, uint32_t *len) {
  if (n == NULL || len == NULL || sum >= n->paths) return kPpBadGraph;
  uint32_t v = n->g->entry, k = 0;
  uint64_t rem = sum;
  while (v != n->g->exit) {
    uint32_t pick = PP_NONE;
    for (uint32_t e = n->first[v]; e != PP_NONE; e = n->next[e])
      if (n->val[e] <= rem && rem - n->val[e] < n->npaths[n->edge[e].dst]) pick = e;
    if (pick == PP_NONE || k == cap) return kPpBadGraph;
    edges[k++] = pick;
    rem -= n->val[pick];
    v = n->edge[pick].dst;
  }
  *len = k;
  return rem == 0 ? kPpOk : kPpBadGraph;
}

/* union-find with path halving */
static uint32_t find(uint32_t *parent, uint32_t x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

int pp_number_path(const pp_numbering_t *n, const uint32_t *blk, uint32_t len, bool back, uint64_t *sum,
                   const char **why) {
  uint64_t s = 0;
  uint32_t v = n->g->entry;
  if (blk[0] != n->g->entry) { /* a path that starts at a loop head: the dummy ENTRY->head */
    uint32_t d = PP_NONE;
    for (uint32_t e = n->first[v]; e != PP_NONE && d == PP_NONE; e = n->next[e])
      if (n->kind[e] == kPpDummyEntry && n->edge[e].dst == blk[0]) d = e;
    if (d == PP_NONE) return *why = "it starts at a block that is neither the entry, a loop head nor a landing", 0;
    s += n->val[d];
  }
  v = blk[0];
  for (uint32_t i = 1; i < len; i++) {
    uint32_t d = PP_NONE;
    for (uint32_t e = n->first[v]; e != PP_NONE && d == PP_NONE; e = n->next[e])
      if (n->kind[e] == kPpReal && n->edge[e].dst == blk[i]) d = e;
    if (d == PP_NONE) return *why = "two of its blocks in a row are not joined by an edge of the DAG", 0;
    s += n->val[d];
    v = blk[i];
  }
  uint32_t d = PP_NONE;
  for (uint32_t e = n->first[v]; e != PP_NONE && d == PP_NONE; e = n->next[e])
    if (n->edge[e].dst == n->g->exit && n->kind[e] == (back ? kPpDummyExit : kPpReal)) d = e;
  if (d == PP_NONE) return *why = back ? "its last block takes no back edge" : "its last block does not leave the function", 0;
  *sum = s + n->val[d];
  return 1;
}

pp_status_t pp_chords(const pp_numbering_t *n, const uint64_t *weight, hwprof_arena_t *a, int64_t *inc, bool *on_tree) {
  if (n == NULL || a == NULL || inc == NULL || on_tree == NULL) return kPpBadGraph;
  const pp_graph_t *g = n->g;
  const uint32_t m = n->nedge;
  uint32_t *order = PP_ALLOC(a, uint32_t, m), *parent = PP_ALLOC(a, uint32_t, g->nnodes);
  if (order == NULL || parent == NULL) return kPpNoMemory;
  for (uint32_t e = 0; e < m; e++) order[e] = e;
  /* heaviest first, ties by DAG order (insertion sort: stable; graphs are small) */
  for (uint32_t i = 1; i < m; i++) {
    const uint32_t x = order[i];
    const uint64_t wx = weight ? weight[x] : 1u;
    uint32_t j = i;
    while (j > 0 && (weight ? weight[order[j - 1]] : 1u) < wx) {
      order[j] = order[j - 1];
      j--;
    }
    order[j] = x;
  }
  for (uint32_t v = 0; v < g->nnodes; v++) parent[v] = v;
  parent[find(parent, g->exit)] = find(parent, g->entry); /* EXIT->ENTRY, value 0, on the tree first */
  for (uint32_t i = 0; i < m; i++) {
    const uint32_t e = order[i], ra = find(parent, n->edge[e].src), rb = find(parent, n->edge[e].dst);
    on_tree[e] = ra != rb;
    if (ra != rb) parent[rb] = ra;
  }
  /* potentials over the tree from the entry: pot(dst) = pot(src) + val along a tree edge */
  int64_t *pot = PP_ALLOC(a, int64_t, g->nnodes);
  bool *known = PP_ALLOC(a, bool, g->nnodes);
  uint32_t *queue = PP_ALLOC(a, uint32_t, g->nnodes);
  if (pot == NULL || known == NULL || queue == NULL) return kPpNoMemory;
  uint32_t qh = 0, qt = 0;
  known[g->entry] = known[g->exit] = true; /* pot(ENTRY) = pot(EXIT) = 0: the tree edge EXIT->ENTRY */
  queue[qt++] = g->entry;
  if (g->exit != g->entry) queue[qt++] = g->exit;
  while (qh < qt) {
    const uint32_t v = queue[qh++];
    for (uint32_t e = 0; e < m; e++) { /* the tree's edges at v, either way (graphs are small) */
      if (!on_tree[e]) continue;
      const uint32_t s = n->edge[e].src, d = n->edge[e].dst;
      if (s == v && !known[d]) {
        pot[d] = pot[s] + (int64_t)n->val[e];
        known[d] = true;
        queue[qt++] = d;
      } else if (d == v && !known[s]) {
        pot[s] = pot[d] - (int64_t)n->val[e];
        known[s] = true;
        queue[qt++] = s;
      }
    }
  }
  for (uint32_t e = 0; e < m; e++) {
    const uint32_t s = n->edge[e].src, d = n->edge[e].dst;
    inc[e] = on_tree[e] ? 0 : (known[s] && known[d] ? pot[s] + (int64_t)n->val[e] - pot[d] : (int64_t)n->val[e]);
  }
  return kPpOk;
}
