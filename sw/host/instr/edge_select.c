/* The edge-profiling policy's choice (docs/instrumenter.md): which of a function's edges are measured
 * (seed 000: a spanning tree's complement, the rest derived), and the counters' relative IDs and
 * regions. Part of the instrumenter (instrument.c drives it; instr_ctx.h). */
#include <stdlib.h>
#include <string.h>

#include "autogen/hwprof_regs.h"
#include "instr_ctx.h"

static int uf_find(int *p, int x) {
  while (p[x] != x) x = p[x] = p[p[x]];
  return x;
}

static bool measurable(hwprof_cfg_kind_t k) {
  return k != HWPROF_CFG_INDIRECT && k != HWPROF_CFG_DISPATCH && !hwprof_cfg_is_virtual(k);
}

/* The edges that cannot be measured (the virtual ones, indirect jumps) must follow from the others.
 * They go into a spanning forest of the CFG (EXIT included, edges undirected); one that would close
 * a cycle gets an equation instead: a block counter (prof.id with bhint ALL at the block's head)
 * on the block it leaves (a call block that may not return) or enters (an indirect target). In
 * mode all every other edge is measured, and the blocks with an indirect jump and its targets are
 * counted with bhint ALL, as seed 000 paragraph 43 says. In mode minimal the forest then takes the fall-through edges (measuring one
 * costs an inserted instruction) and last the edges a branch, jump or return carries for free;
 * only the edges left outside it are measured (paragraph 34: the others follow by flow
 * conservation). */
int instr_select_edges(pm_func_t *p, instr_mode_t mode) {
  const int n = (int)p->nblk + 1, exit_node = (int)p->nblk;
  int *uf = malloc((size_t)n * sizeof *uf);
  if (uf == NULL) return -1;
  for (int i = 0; i < n; i++) uf[i] = i;
  for (unsigned e = 0; e < p->nedge; e++) p->edge[e].counter = PM_NONE;
  for (unsigned b = 0; b < p->nblk; b++) p->blk[b].counter = p->blk[b].term_counter = PM_NONE;
  /* a dispatch node has no code to count it: its edge to EXIT joins the forest first, so that it is
   * always derived (the node's in-flow less its other out-flows) */
  if (p->dispatch >= 0) uf[p->dispatch] = exit_node;
  /* the order edges are offered to the forest: the node's edges to its targets first (one that
   * closes a cycle costs a prof.id at the target's head on every dispatch), the other uncountable
   * edges, the jumps into the node last (one that closes a cycle is counted by the jump itself, for
   * free); then the fall-through edges, then the rest */
  for (int pass = 0; pass < 5; pass++) {
    for (unsigned e = 0; e < p->nedge; e++) {
      pm_edge_t *x = &p->edge[e];
      const int cls = !measurable(x->kind) ? 0 : (x->kind == HWPROF_CFG_FALL || x->kind == HWPROF_CFG_FALL_OUT) ? 1 : 2;
      const bool to_node = x->dst >= 0 && x->dst == p->dispatch, from_node = x->src >= 0 && x->src == p->dispatch;
      const int rank = from_node ? 0 : to_node ? 2 : cls == 0 ? 1 : cls + 2;
      if (rank != pass || (from_node && x->dst == HWPROF_CFG_EXIT)) continue;
      if (mode == kModeAll && cls) {
        x->counter = 0;
        continue;
      }
      if (mode == kModeAll && (x->kind == HWPROF_CFG_INDIRECT || from_node)) {
        if (!to_node) p->blk[x->dst].counter = 0;         /* the targets ... */
        if (!from_node) p->blk[x->src].term_counter = 0;  /* ... and the block with the indirect jump (paragraph 43) */
        continue;
      }
      const int a = uf_find(uf, x->src == HWPROF_CFG_EXIT ? exit_node : x->src);
      const int b = uf_find(uf, x->dst == HWPROF_CFG_EXIT ? exit_node : x->dst);
      if (a != b) uf[a] = b;
      else if (cls) x->counter = 0;
      else if (to_node) p->blk[x->src].term_counter = 0; /* the jump counts itself (bhint ALL) */
      else p->blk[x->kind == HWPROF_CFG_VIRTUAL_EXIT ? x->src : x->dst].counter = 0;
    }
  }
  free(uf);
  return 0;
}

/* The order in which blocks are packed into regions: reverse postorder of the CFG from the entry
 * (a block comes soon after the blocks that lead to it, so an out-of-line arm of an if shares the
 * region of its test and its join), then the blocks the entry does not reach, in address order. */
static int pack_order(const pm_func_t *p, unsigned *order) {
  const unsigned n = p->nblk;
  unsigned *stack = calloc(2 * n + 2, sizeof *stack), *next_edge = calloc(n + 1, sizeof *next_edge);
  bool *seen = calloc(n + 1, sizeof *seen);
  if (stack == NULL || next_edge == NULL || seen == NULL) {
    free(stack);
    free(next_edge);
    free(seen);
    return -1;
  }
  unsigned sp = 0, post = n; /* postorder fills order[] from the back */
  stack[sp++] = 0;
  seen[0] = true;
  while (sp) {
    const unsigned b = stack[sp - 1];
    bool pushed = false;
    while (next_edge[b] < p->nedge) {
      const pm_edge_t *x = &p->edge[next_edge[b]++];
      if (x->src != (int)b || x->dst < 0 || seen[x->dst] || hwprof_cfg_is_virtual(x->kind)) continue;
      seen[x->dst] = true;
      stack[sp++] = (unsigned)x->dst;
      pushed = true;
      break;
    }
    if (!pushed) order[--post] = stack[--sp];
  }
  /* the reached blocks are order[post..n); move them to the front, the others after in address order */
  const unsigned reached = n - post;
  memmove(order, order + post, reached * sizeof *order);
  unsigned k = reached;
  for (unsigned b = 0; b < n; b++)
    if (!seen[b]) order[k++] = b;
  free(stack);
  free(next_edge);
  free(seen);
  return 0;
}

/* With a dispatch node: its targets come right after it in the packing order, the cheapest first,
 * and the node starts a region. Its jumps switch to that region on their way (their shadow words:
 * free), so the targets that fit in it need no prof.setoff at their heads; only the others do. */
static void dispatch_first(const pm_func_t *p, const unsigned *cost, unsigned *order) {
  const unsigned n = p->nblk;
  bool *target = calloc(n + 1, sizeof *target);
  unsigned *out = calloc(n + 1, sizeof *out);
  if (target == NULL || out == NULL) { /* keep the order */
    free(target);
    free(out);
    return;
  }
  for (unsigned e = 0; e < p->nedge; e++)
    if (p->edge[e].src == p->dispatch && p->edge[e].dst >= 0 && p->edge[e].dst != p->dispatch) target[p->edge[e].dst] = true;
  unsigned k = 0;
  for (unsigned i = 0; i < n; i++) {
    const unsigned b = order[i];
    if (target[b]) continue;
    out[k++] = b;
    if ((int)b != p->dispatch) continue;
    for (unsigned c = 0, max = 0; c <= max; c++) /* the targets by cost, then by their order */
      for (unsigned j = 0; j < n; j++) {
        if (target[order[j]] && cost[order[j]] > max) max = cost[order[j]];
        if (target[order[j]] && cost[order[j]] == c) out[k++] = order[j];
      }
  }
  if (k == n) memcpy(order, out, n * sizeof *order);
  free(target);
  free(out);
}

/* Regions, IDs and counter indexes. A block's counters (its measured out-edges, its block counter)
 * stay in one region, so both edges of a two-way branch do (paragraph 42). Blocks are packed in
 * pack_order(); a loop that fits in a region whole but not in what is left of the current one
 * starts a new region, so that no region boundary (and no prof.setoff) falls inside it. */
int instr_assign_ids(ctx_t *c, unsigned fi) {
  fn_t *f = &c->fn[fi];
  const hwprof_cfg_func_t *g = &c->prog.fn[fi].cfg;
  pm_func_t *p = &f->pm;
  const unsigned limit = (1u << c->o->k) - 1u;
  unsigned *cost = calloc(p->nblk + 1, sizeof *cost), *order = calloc(p->nblk + 1, sizeof *order);
  unsigned *loop_cost = calloc(g->nloop + 1, sizeof *loop_cost);
  if ((f->region_off = calloc(p->nblk + 1, sizeof *f->region_off)) == NULL || cost == NULL || order == NULL ||
      loop_cost == NULL || pack_order(p, order)) {
    free(cost);
    free(order);
    free(loop_cost);
    ERR("out of memory");
  }
  for (unsigned b = 0; b < p->nblk; b++)
    cost[b] = (p->blk[b].counter != PM_NONE) + (p->blk[b].term_counter != PM_NONE);
  for (unsigned e = 0; e < p->nedge; e++)
    if (p->edge[e].counter != PM_NONE) cost[p->edge[e].src]++;
  for (unsigned l = 0; l < g->nloop; l++)
    for (unsigned b = 0; b < p->nblk; b++)
      if (hwprof_cfg_in_loop(g, l, (int)b)) loop_cost[l] += cost[b];
  if (p->dispatch >= 0) dispatch_first(p, cost, order);
  unsigned region = 0, used = 0, off = 0;
  f->region_off[0] = 0;
  for (unsigned i = 0; i < p->nblk; i++) {
    const unsigned b = order[i];
    unsigned need = cost[b];
    for (unsigned l = 0; l < g->nloop; l++) /* the outermost loop headed here that fits in a region */
      if (g->loop[l].header == (int)b && loop_cost[l] <= limit && loop_cost[l] > need) need = loop_cost[l];
    if ((used + need > limit || (int)b == p->dispatch) && used > 0) {
      off += used;
      f->region_off[++region] = off;
      used = 0;
    }
    p->blk[b].region = (int)region;
    /* block counter first, then the taken edge, then the not-taken edge, then the rest */
    if (p->blk[b].counter != PM_NONE) p->blk[b].counter = (int)(off + used++);
    for (int pass = 0; pass < 3; pass++)
      for (unsigned e = 0; e < p->nedge; e++) {
        pm_edge_t *x = &p->edge[e];
        if (x->src != (int)b || x->counter == PM_NONE) continue;
        int want = x->kind == HWPROF_CFG_TAKEN ? 0 : x->kind == HWPROF_CFG_NOT_TAKEN ? 1 : 2;
        if (want == pass) x->counter = (int)(off + used++);
      }
    if (p->blk[b].term_counter != PM_NONE) p->blk[b].term_counter = (int)(off + used++);
  }
  const unsigned total = off + used;
  free(cost);
  free(order);
  free(loop_cost);
  p->ncounters = total;
  p->nregions = region + 1;
  p->base = counters_alloc(c, total);
  return 0;
}
