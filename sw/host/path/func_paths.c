/* A real function's path graph and regions; see func_paths.h. */
#include "func_paths.h"


pp_status_t pp_func_from_cfg(const hwprof_cfg_func_t *f, hwprof_arena_t *a, pp_func_t *out) {
  if (f == NULL || a == NULL || out == NULL || f->why != HWPROF_CFG_OK || f->nblk == 0 || f->idom == NULL)
    return kPpBadGraph;
  const uint32_t nblk = f->nblk, exit = nblk;
  pp_edge_t *edge = PP_ALLOC(a, pp_edge_t, f->nedge);
  bool *back = PP_ALLOC(a, bool, f->nedge), *has_out = PP_ALLOC(a, bool, nblk);
  uint32_t *cfg_edge = PP_ALLOC(a, uint32_t, f->nedge);
  bool *reach = PP_ALLOC(a, bool, nblk + 1u);
  if (edge == NULL || back == NULL || has_out == NULL || cfg_edge == NULL || reach == NULL) return kPpNoMemory;
  for (uint32_t b = 0; b < nblk; b++) reach[b] = f->idom[b] >= 0;
  reach[exit] = true;
  for (unsigned e = 0; e < f->nedge; e++)
    if (!hwprof_cfg_is_virtual(f->edge[e].kind) && f->edge[e].src >= 0) has_out[f->edge[e].src] = true;
  uint32_t m = 0;
  for (unsigned e = 0; e < f->nedge; e++) {
    const hwprof_cfg_edge_t *x = &f->edge[e];
    if (x->kind == HWPROF_CFG_VIRTUAL_ENTRY || x->src < 0) continue;
    if (x->kind == HWPROF_CFG_VIRTUAL_EXIT && has_out[x->src]) continue; /* only a dead end's */
    const uint32_t s = (uint32_t)x->src, d = x->dst < 0 ? exit : (uint32_t)x->dst;
    cfg_edge[m] = e;
    edge[m++] = (pp_edge_t){s, d};
  }
  bool *landing = NULL; /* the blocks of calls of setjmp: a longjmp landing starts a path there */
  for (uint32_t b = 0; b < nblk; b++)
    if (f->blk[b].landing) {
      if (landing == NULL && (landing = PP_ALLOC(a, bool, nblk + 1u)) == NULL) return kPpNoMemory;
      landing[b] = true;
    }
  const pp_graph_t g = {nblk + 1u, 0, exit, edge, m, landing};
  const pp_status_t st = pp_back_edges(&g, a, back);
  if (st != kPpOk) return st;
  /* a dispatch node: every jump into it ends the path, the next starts at the node */
  for (uint32_t e = 0; e < m && f->dispatch >= 0; e++) back[e] |= edge[e].dst == (uint32_t)f->dispatch;
  /* an irreducible function, or one with a dispatch node: one region, the function's (cycles with
   * several entries, or cut at the node, are no loop a region could be) */
  const bool reducible = f->irreducible == 0, one = !reducible || f->dispatch >= 0;
  const uint32_t nregion = one ? 1u : f->nloop + 1u;
  uint32_t *region_of = PP_ALLOC(a, uint32_t, nblk + 1u), *parent = PP_ALLOC(a, uint32_t, nregion);
  uint32_t *rep_entry = PP_ALLOC(a, uint32_t, nregion), *rep_exit = PP_ALLOC(a, uint32_t, nregion);
  if (region_of == NULL || parent == NULL || rep_entry == NULL || rep_exit == NULL) return kPpNoMemory;
  for (uint32_t b = 0; b < nblk; b++)
    region_of[b] = !one && f->loop_of && f->loop_of[b] >= 0 ? (uint32_t)f->loop_of[b] + 1u : 0u;
  region_of[exit] = 0;
  parent[0] = PP_NONE;
  rep_entry[0] = 0;
  rep_exit[0] = exit;
  for (unsigned l = 0; l + 1u < nregion; l++) {
    parent[l + 1u] = f->loop[l].parent >= 0 ? (uint32_t)f->loop[l].parent + 1u : 0u;
    rep_entry[l + 1u] = (uint32_t)f->loop[l].header;
    rep_exit[l + 1u] = PP_NONE;
    for (uint32_t e = 0; e < m && rep_exit[l + 1u] == PP_NONE; e++) /* edges by source block: by address */
      if (edge[e].src < nblk && hwprof_cfg_in_loop(f, l, (int)edge[e].src) &&
          (edge[e].dst == exit || !hwprof_cfg_in_loop(f, l, (int)edge[e].dst)))
        rep_exit[l + 1u] = edge[e].src;
    if (rep_exit[l + 1u] == PP_NONE) rep_exit[l + 1u] = (uint32_t)f->loop[l].header;
  }
  *out = (pp_func_t){.g = g, .back = back, .cfg_edge = cfg_edge, .reach = reach, .region_of = region_of, .parent = parent,
                     .rep_entry = rep_entry, .rep_exit = rep_exit, .reducible = reducible};
  out->h = (pp_regions_t){&out->g, back, region_of, parent, rep_entry, rep_exit, nregion};
  return kPpOk;
}
