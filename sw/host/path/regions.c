/* Regions and the two augmentations of seed 004; see regions.h and docs/path.md. */
#include "regions.h"


bool pp_in_region(const pp_regions_t *h, uint32_t v, uint32_t r) {
  for (uint32_t x = h->region_of[v]; x != PP_NONE; x = h->parent[x])
    if (x == r) return true;
  return false;
}

pp_status_t pp_regions_used(const pp_regions_t *h, bool plain, hwprof_arena_t *a, pp_regions_t *out,
                            uint32_t *func_region) {
  const uint32_t nr = h->nregion, nn = h->g->nnodes;
  uint32_t *keep = PP_ALLOC(a, uint32_t, nr); /* new index, or PP_NONE: merged away */
  uint32_t *region_of = PP_ALLOC(a, uint32_t, nn), *parent = PP_ALLOC(a, uint32_t, nr);
  uint32_t *rep_entry = PP_ALLOC(a, uint32_t, nr), *rep_exit = PP_ALLOC(a, uint32_t, nr);
  if (keep == NULL || region_of == NULL || parent == NULL || rep_entry == NULL || rep_exit == NULL) return kPpNoMemory;
  uint32_t n = 0;
  for (uint32_t r = 0; r < nr; r++) keep[r] = r == 0 || (!plain && h->rep_entry[r] != h->g->entry) ? n++ : PP_NONE;
  /* the used region a region stands in: itself, or its nearest kept ancestor */
  for (uint32_t r = 0; r < nr; r++) {
    if (keep[r] == PP_NONE) continue;
    const uint32_t k = keep[r];
    if (func_region) func_region[k] = r;
    rep_entry[k] = h->rep_entry[r];
    rep_exit[k] = h->rep_exit[r];
    uint32_t up = h->parent[r];
    while (up != PP_NONE && keep[up] == PP_NONE) up = h->parent[up];
    parent[k] = up == PP_NONE ? PP_NONE : keep[up];
  }
  for (uint32_t v = 0; v < nn; v++) {
    uint32_t r = h->region_of[v];
    while (keep[r] == PP_NONE) r = h->parent[r];
    region_of[v] = keep[r];
  }
  *out = (pp_regions_t){h->g, h->back, region_of, parent, rep_entry, rep_exit, n};
  return kPpOk;
}

/* The child region of r that holds v (v in r but not directly), or PP_NONE. */
static uint32_t child_of(const pp_regions_t *h, uint32_t v, uint32_t r) {
  for (uint32_t x = h->region_of[v]; x != PP_NONE; x = h->parent[x])
    if (h->parent[x] == r) return x;
  return PP_NONE;
}

static bool has_edge(const pp_edge_t *e, uint32_t n, uint32_t s, uint32_t d) {
  for (uint32_t i = 0; i < n; i++)
    if (e[i].src == s && e[i].dst == d) return true;
  return false;
}

static bool valid(const pp_regions_t *h) {
  const pp_graph_t *g = h->g;
  if (g == NULL || h->region_of == NULL || h->parent == NULL || h->rep_entry == NULL || h->nregion == 0) return false;
  for (uint32_t v = 0; v < g->nnodes; v++)
    if (h->region_of[v] >= h->nregion) return false;
  for (uint32_t r = 0; r < h->nregion; r++) {
    if (h->parent[r] != PP_NONE && h->parent[r] >= h->nregion) return false;
    if (h->rep_entry[r] >= g->nnodes || !pp_in_region(h, h->rep_entry[r], r)) return false;
    if (h->rep_exit && (h->rep_exit[r] >= g->nnodes || !pp_in_region(h, h->rep_exit[r], r))) return false;
    unsigned depth = 0; /* no cycle among the parents */
    for (uint32_t x = r; x != PP_NONE; x = h->parent[x])
      if (++depth > h->nregion) return false;
  }
  for (uint32_t e = 0; e < g->nedge; e++)
    if (g->edge[e].src >= g->nnodes || g->edge[e].dst >= g->nnodes) return false;
  return true;
}

pp_status_t pp_rb_augment(const pp_regions_t *h, uint32_t r, hwprof_arena_t *a, pp_graph_t *out, uint32_t **node_of,
                          uint32_t **local_of) {
  if (h == NULL || a == NULL || out == NULL || node_of == NULL || local_of == NULL || !valid(h) || r >= h->nregion)
    return kPpBadGraph;
  const pp_graph_t *g = h->g;
  uint32_t *loc = PP_ALLOC(a, uint32_t, g->nnodes), *of = PP_ALLOC(a, uint32_t, g->nnodes + 2u);
  bool *entry = PP_ALLOC(a, bool, g->nnodes + 2u), *exit = PP_ALLOC(a, bool, g->nnodes + 2u);
  pp_edge_t *edge = PP_ALLOC(a, pp_edge_t, 3u * g->nnodes + g->nedge + 2u);
  if (loc == NULL || of == NULL || entry == NULL || exit == NULL || edge == NULL) return kPpNoMemory;
  /* local nodes: r's own, and each child region as its representative entry (step 5a) */
  uint32_t nloc = 0;
  for (uint32_t v = 0; v < g->nnodes; v++) {
    loc[v] = PP_NONE;
    const uint32_t c = h->region_of[v] == r ? PP_NONE : child_of(h, v, r);
    if (h->region_of[v] == r || (c != PP_NONE && h->rep_entry[c] == v)) {
      of[nloc] = v;
      loc[v] = nloc++;
    }
  }
  for (uint32_t v = 0; v < g->nnodes; v++) {
    const uint32_t c = h->region_of[v] == r ? PP_NONE : child_of(h, v, r);
    if (c != PP_NONE) loc[v] = loc[h->rep_entry[c]];
  }
  const uint32_t re = nloc, rx = nloc + 1u;
  of[re] = of[rx] = PP_NONE;
  /* entries and exits (steps 1-3): edges across r's border, the function's entry and exit, back edges */
  for (uint32_t e = 0; e < g->nedge; e++) {
    const uint32_t u = g->edge[e].src, v = g->edge[e].dst, lu = loc[u], lv = loc[v];
    if (lv != PP_NONE && lu == PP_NONE) entry[lv] = true;
    if (lu != PP_NONE && lv == PP_NONE) exit[lu] = true;
    if (h->back[e] && lu != PP_NONE && lv != PP_NONE && lu != lv) {
      exit[lu] = true;
      entry[lv] = true;
    } else if (h->back[e] && lu != PP_NONE && lu == lv && h->region_of[u] == r) { /* a loop on one node of r */
      exit[lu] = entry[lv] = true;
    }
  }
  if (loc[g->entry] != PP_NONE) entry[loc[g->entry]] = true;
  for (uint32_t v = 0; v < g->nnodes && g->start; v++) /* a landing starts a path of its own region */
    if (g->start[v] && h->region_of[v] == r) entry[loc[v]] = true;
  if (loc[g->exit] != PP_NONE) exit[loc[g->exit]] = true;
  uint32_t m = 0;
  for (uint32_t l = 0; l < nloc; l++)
    if (entry[l]) edge[m++] = (pp_edge_t){re, l};
  for (uint32_t l = 0; l < nloc; l++) {
    if (exit[l]) edge[m++] = (pp_edge_t){l, rx};
    const uint32_t first = m;
    for (uint32_t e = 0; e < g->nedge; e++) { /* edges mapped onto the local nodes (steps 5b, 5c) */
      const uint32_t lu = loc[g->edge[e].src], lv = loc[g->edge[e].dst];
      if (lu != l || lv == PP_NONE || lu == lv || h->back[e]) continue;
      if (!has_edge(edge + first, m - first, lu, lv)) edge[m++] = (pp_edge_t){lu, lv};
    }
  }
  /* a child region that is never left (an endless loop, a halt) leaves its node without a way on:
   * an edge to Rx keeps the graph numberable (no run ever takes it) */
  for (uint32_t l = 0; l < nloc; l++) {
    bool out_edge = false;
    for (uint32_t e = 0; e < m && !out_edge; e++) out_edge = edge[e].src == l;
    if (!out_edge) edge[m++] = (pp_edge_t){l, rx};
  }
  *out = (pp_graph_t){nloc + 2u, re, rx, edge, m, NULL};
  *node_of = of;
  *local_of = loc;
  return kPpOk;
}

/* Entry and exit of region r in the global embodiment (edges across its border, back edges inside
 * it, the function's entry and exit). */
static void border(const pp_regions_t *h, uint32_t r, bool *entry, bool *exit) {
  const pp_graph_t *g = h->g;
  for (uint32_t v = 0; v < g->nnodes; v++) entry[v] = exit[v] = false;
  for (uint32_t e = 0; e < g->nedge; e++) {
    const uint32_t u = g->edge[e].src, v = g->edge[e].dst;
    const bool iu = pp_in_region(h, u, r), iv = pp_in_region(h, v, r);
    if (iv && !iu) entry[v] = true;
    if (iu && !iv) exit[u] = true;
    if (h->back[e] && iu && iv) exit[u] = entry[v] = true;
  }
  if (pp_in_region(h, g->entry, r)) entry[g->entry] = true;
  if (pp_in_region(h, g->exit, r)) exit[g->exit] = true;
}

pp_status_t pp_gp_augment(const pp_regions_t *h, hwprof_arena_t *a, pp_graph_t *out, bool **added) {
  if (h == NULL || a == NULL || out == NULL || added == NULL || h->rep_exit == NULL || !valid(h)) return kPpBadGraph;
  const pp_graph_t *g = h->g;
  const uint32_t cap = g->nedge + h->nregion * 4u * g->nnodes;
  pp_edge_t *edge = PP_ALLOC(a, pp_edge_t, cap);
  bool *add = PP_ALLOC(a, bool, cap), *entry = PP_ALLOC(a, bool, g->nnodes), *exit = PP_ALLOC(a, bool, g->nnodes);
  if (edge == NULL || add == NULL || entry == NULL || exit == NULL) return kPpNoMemory;
  uint32_t m = 0;
  for (uint32_t e = 0; e < g->nedge; e++) /* step 2: back edges removed */
    if (!h->back[e]) edge[m++] = g->edge[e];
#define ADD(s, d)                                                   \
  do {                                                              \
    if ((s) != (d) && !has_edge(edge, m, (s), (d))) {               \
      add[m] = true;                                                \
      edge[m++] = (pp_edge_t){(s), (d)};                            \
    }                                                               \
  } while (0)
  for (uint32_t r = 0; r < h->nregion; r++) {
    if (h->parent[r] == PP_NONE) continue; /* the outermost: the function's own entry and exit */
    border(h, r, entry, exit);
    for (uint32_t v = 0; v < g->nnodes; v++) /* 4a */
      if (entry[v]) ADD(g->entry, v);
    for (uint32_t v = 0; v < g->nnodes; v++) /* 4b */
      if (exit[v]) ADD(v, g->exit);
    for (uint32_t e = 0; e < g->nedge; e++) { /* 4c, 4d */
      const uint32_t u = g->edge[e].src, v = g->edge[e].dst;
      const bool iu = pp_in_region(h, u, r), iv = pp_in_region(h, v, r);
      if (!h->back[e] && iv && !iu && entry[v]) ADD(u, h->rep_entry[r]);
      if (!h->back[e] && iu && !iv && exit[u]) ADD(h->rep_exit[r], v);
    }
  }
#undef ADD
  *out = (pp_graph_t){g->nnodes, g->entry, g->exit, edge, m, NULL};
  *added = add;
  return kPpOk;
}

/* the real DAG edge s->d, or PP_NONE */
static uint32_t dag_edge(const pp_numbering_t *n, uint32_t s, uint32_t d) {
  for (uint32_t e = n->first[s]; e != PP_NONE; e = n->next[e])
    if (n->kind[e] == kPpReal && n->edge[e].dst == d) return e;
  return PP_NONE;
}

uint32_t pp_gp_canonical(const pp_regions_t *h, const bool *added, const pp_numbering_t *n, uint32_t e) {
  if (n->kind[e] != kPpReal || added[n->orig[e]]) return e; /* the augmentation's own edges stand for themselves */
  const uint32_t u = n->edge[e].src, v = n->edge[e].dst;
  /* the outermost region the edge leaves: its representative exit's edge to v */
  uint32_t left = PP_NONE, entered = PP_NONE;
  for (uint32_t x = h->region_of[u]; x != PP_NONE && h->parent[x] != PP_NONE && !pp_in_region(h, v, x); x = h->parent[x])
    left = x;
  for (uint32_t x = h->region_of[v]; x != PP_NONE && h->parent[x] != PP_NONE && !pp_in_region(h, u, x); x = h->parent[x])
    entered = x;
  uint32_t from = PP_NONE;
  if (left != PP_NONE) from = dag_edge(n, h->rep_exit[left], v);
  else if (entered != PP_NONE) from = dag_edge(n, u, h->rep_entry[entered]);
  return from != PP_NONE ? from : e;
}

void pp_gp_reassign(const pp_regions_t *h, const bool *added, pp_numbering_t *n) {
  for (uint32_t e = 0; e < n->nedge; e++) {
    const uint32_t from = pp_gp_canonical(h, added, n, e);
    if (from != e) n->val[e] = n->val[from];
  }
}
