/* The instrumenter; see instrument.h and docs/instrumenter.md.
 *
 * The edge-profiling policy of seed 000 on top of the CFG layer (sw/lib/cfg/: functions, blocks,
 * edges) and the rewriting layer (sw/host/rewrite/: moving code, inserting instructions, fixing every
 * relocated field): per function choose the measured edges, assign IDs and regions, and place the
 * profiling instructions (before an instruction: every jump to it runs them; after it: only the
 * fall-through path does) and the hint bits of the instructions' shadow words; then lay out the
 * new text with a start-up stub, and write the new ELF (with the counter area) and the map. */
#include "instrument.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof_meta.h"
#include "autogen/hwprof_regs.h"
#include "instr_ctx.h"
#include "linkage.h"
#include "rv32_isa.h"

#define STUB_WORDS 14
#define STUB_SPILL_WORDS 7 /* a stack's spill area: the path stack's (paths through the hardware), the link stack's */

static bool in_list(const char *list, const char *name) {
  if (list == NULL) return false;
  size_t n = strlen(name);
  for (const char *p = list; *p;) {
    const char *q = strchr(p, ',');
    size_t len = q ? (size_t)(q - p) : strlen(p);
    if (len == n && !strncmp(p, name, n)) return true;
    if (!q) break;
    p = q + 1;
  }
  return false;
}

/* ---------------------------------------------------------------- the CFG, in the map's terms */

/* Function i's CFG (or why it is left uninstrumented), copied into its map entry. Millicode (several
 * entry points) is not instrumented: its profile is derived from its callers' when its counts
 * follow from its entries' (f->derived, and instr_find_sources(): millicode.c). */
static int analyse(ctx_t *c, unsigned i) {
  const hwprof_cfg_fn_t *pf = &c->prog.fn[i];
  fn_t *f = &c->fn[i];
  f->pm.dispatch = -1;
  f->skip = in_list(c->o->skip, pf->name);
  if (!strcmp(pf->section, ".init")) {
    snprintf(f->why, sizeof f->why, "%s", PM_WHY_STARTUP);
    return 0;
  }
  if (f->skip) {
    snprintf(f->why, sizeof f->why, "--skip");
    return 0;
  }
  if (pf->multi && c->o->paths != kPathsNone) {
    snprintf(f->why, sizeof f->why, "several entry points (overlapping function symbols): no path profile");
    return 0;
  }
  if (hwprof_cfg_prog_build(&c->prog, i)) ERR("out of memory");
  const hwprof_cfg_func_t *g = &pf->cfg;
  if (g->why != HWPROF_CFG_OK) {
    snprintf(f->why, sizeof f->why, "%s", pf->multi ? "several entry points (overlapping function symbols), and " : "");
    const size_t n = strlen(f->why);
    snprintf(f->why + n, sizeof f->why - n, hwprof_cfg_why_text[g->why], g->why_arg);
    return 0;
  }
  pm_func_t *p = &f->pm;
  p->blk = calloc(g->nblk + 1, sizeof *p->blk);
  p->edge = calloc(g->nedge + 1, sizeof *p->edge);
  if (p->blk == NULL || p->edge == NULL) ERR("out of memory");
  for (unsigned b = 0; b < g->nblk; b++) p->blk[b] = (pm_block_t){g->blk[b].start, g->blk[b].end, 0, 0, 0, PM_NONE, PM_NONE};
  for (unsigned e = 0; e < g->nedge; e++)
    p->edge[e] = (pm_edge_t){g->edge[e].kind, g->edge[e].src, g->edge[e].dst, 0, 0, PM_NONE};
  p->nblk = g->nblk;
  p->nedge = g->nedge;
  p->dispatch = g->dispatch;
  if (!pf->multi) {
    f->ok = true;
    return 0;
  }
  if (!pm_solvable_entries(p)) {
    snprintf(f->why, sizeof f->why, "several entry points (overlapping function symbols) into code whose counts do not "
             "follow from theirs (a branch, a call or an indirect jump)");
    return 0;
  }
  f->derived = true;
  return 0;
}

/* ---------------------------------------------------------------- choosing the measured edges */

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
static int select_edges(pm_func_t *p, instr_mode_t mode) {
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
static int assign_ids(ctx_t *c, unsigned fi) {
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

/* ---------------------------------------------------------------- planning the inserted code */

static int push_head(ctx_t *c, uint32_t a, uint32_t word, uint32_t shadow) {
  return hwprof_rw_before(c->rw, a, word, shadow);
}

static int push_tail(ctx_t *c, uint32_t a, uint32_t word, uint32_t shadow) {
  return hwprof_rw_after(c->rw, a, word, shadow);
}

static uint32_t shadow_bits(unsigned pid, unsigned bhint) {
  return rv32_shadow(pid, bhint, HWPROF_IHINT_INC);
}

static int rel_id(const fn_t *f, int block, int counter) {
  return counter - (int)f->region_off[f->pm.blk[block].region] + 1;
}

/* Calls to linked and call-started functions, from any moved code: the call's shadow word names
 * the callee's area (with the push of a linked call, or without). */
static void plan_linked_calls(ctx_t *c, unsigned i) {
  const hwprof_cfg_code_t *code = &c->prog.fn[i].code;
  for (uint32_t a = code->lo; a < code->hi; a += 4) {
    uint32_t t;
    const uint32_t x = hwprof_cfg_word(code, a);
    if (hwprof_cfg_classify(code, a, x, &t) != HWPROF_CF_CALL || !rv32_is_link_reg(rv32_rd(x))) continue;
    int j = instr_callee_linked(c, t);
    if (j >= 0) {
      hwprof_rw_shadow(c->rw, a, rv32_shadow_link(c->fn[j].pm.base));
      c->st.linked_calls++;
    } else if ((j = instr_callee_started(c, t)) >= 0) {
      hwprof_rw_shadow(c->rw, a, rv32_shadow_callinit(c->fn[j].pm.base));
      c->st.started_calls++;
    }
  }
}

/* Region switches (docs/instrumenter.md): every edge between two regions sets the offset of the
 * region it enters on its way. A taken edge or a jump: the branch's or jump's shadow word (op
 * SETOFF when it goes that way: no instruction); a not-taken edge: the same when the branch has
 * no switch yet, else a prof.setoff behind it; a fall edge: a prof.setoff behind the block (after
 * its own prof.id); an indirect edge, or an offset too wide for the shadow word: a prof.setoff at
 * the head of the block entered (every way in runs it). An edge into the entry block needs nothing
 * when the entry runs prof.init (offset 0, the entry block's region). sw[b] gets the switch bits of
 * block b's last instruction, head[b] whether block b needs the head prof.setoff, tail[b] the
 * offset to set behind block b's last instruction (+1; 0: none). */
static void plan_switches(const fn_t *f, bool entry_init, uint32_t *sw, bool *head, unsigned *tail) {
  const pm_func_t *p = &f->pm;
  const unsigned wide = 1u << HWPROF_SHADOW_SETOFF_W;
  for (unsigned e = 0; e < p->nedge; e++) {
    const pm_edge_t *x = &p->edge[e];
    if (hwprof_cfg_is_virtual(x->kind) || x->src < 0 || x->dst < 0) continue;
    if (x->dst == p->dispatch) { /* a jump into the node: to the node's region on its way, if it can */
      const int rd = p->blk[p->dispatch].region;
      if (p->blk[x->src].region != rd && f->region_off[rd] < wide && !sw[x->src])
        sw[x->src] = rv32_shadow_setoff(f->region_off[rd], false);
      continue;
    }
    if (x->src == p->dispatch) { /* from every jump into the node: the head of the target sets its offset */
      for (unsigned g = 0; g < p->nedge; g++) {
        if (p->edge[g].dst != p->dispatch) continue;
        const int rj = sw[p->edge[g].src] ? p->blk[p->dispatch].region : p->blk[p->edge[g].src].region;
        if (rj != p->blk[x->dst].region && !(x->dst == 0 && entry_init && f->region_off[p->blk[0].region] == 0))
          head[x->dst] = true;
      }
      continue;
    }
    const int from = p->blk[x->src].region, to = p->blk[x->dst].region;
    const unsigned off = f->region_off[to];
    if (from == to || (x->dst == 0 && entry_init && off == 0)) continue;
    switch (x->kind) {
      case HWPROF_CFG_TAKEN:
      case HWPROF_CFG_JUMP:
        if (off < wide && !sw[x->src]) sw[x->src] = rv32_shadow_setoff(off, false);
        else head[x->dst] = true;
        break;
      case HWPROF_CFG_NOT_TAKEN:
        if (off < wide && !sw[x->src]) sw[x->src] = rv32_shadow_setoff(off, true);
        else tail[x->src] = off + 1u;
        break;
      case HWPROF_CFG_FALL: tail[x->src] = off + 1u; break;
      default: head[x->dst] = true; break;
    }
  }
}

static int plan_insns(ctx_t *c, unsigned i, bool entry_init, unsigned off0, const uint32_t *sw, const bool *head,
                      const unsigned *tail);

/* A function's own recursive call returns with the offset of the region of the block that returned
 * (and its base: instr_self_return_keeps_base): whether that is always region. */
static bool returns_in_region(const pm_func_t *p, int region) {
  for (unsigned e = 0; e < p->nedge; e++)
    if (p->edge[e].kind == HWPROF_CFG_RETURN && p->blk[p->edge[e].src].region != region) return false;
  return true;
}

static int plan(ctx_t *c, unsigned i) {
  fn_t *f = &c->fn[i];
  pm_func_t *p = &f->pm;
  const unsigned off0 = f->region_off[p->blk[0].region];
  const bool entry_init = !f->linked;
  uint32_t *sw = calloc(p->nblk + 1, sizeof *sw);
  bool *head = calloc(p->nblk + 1, sizeof *head);
  unsigned *tail = calloc(p->nblk + 1, sizeof *tail);
  if (sw == NULL || head == NULL || tail == NULL) {
    free(sw);
    free(head);
    free(tail);
    ERR("out of memory");
  }
  plan_switches(f, entry_init, sw, head, tail);
  int rc = plan_insns(c, i, entry_init, off0, sw, head, tail);
  free(sw);
  free(head);
  free(tail);
  return rc;
}

/* Whether block b reads the pir on its own way out: an update on its last instruction (a measured
 * edge, bhint ALL), a region switch its shadow word carries, or a prof.id or prof.setoff behind it. */
static bool block_out_reads(const pm_func_t *p, int b, const uint32_t *sw, const unsigned *tail) {
  if (p->blk[b].term_counter != PM_NONE || sw[b] || tail[b]) return true;
  for (unsigned e = 0; e < p->nedge; e++)
    if (p->edge[e].src == b && p->edge[e].counter != PM_NONE) return true;
  return false;
}

/* Whether the pir is read, after the call at a returns, before something sets it again; if not, the
 * restore after the call is dead (no update would use it). Read: an update (on a branch, jump or
 * return, or a prof.id), a region switch (prof.setoff or a shadow word's: it keeps the base), a
 * linked call (its push saves the pir). Set again: a call whose callee sets its own pir (neither
 * linked nor neutral: the restore after that call, if any, is its own). A walk over the original
 * code from the call, through real edges; EXIT reads nothing (the caller sets its pir again, or a
 * linked return pops it). Conservative elsewhere: a block's head insertions count as reads. */
static bool restore_needed(ctx_t *c, unsigned i, uint32_t a, const uint32_t *sw, const bool *head, const unsigned *tail) {
  const hwprof_cfg_fn_t *pf = &c->prog.fn[i];
  const pm_func_t *p = &c->fn[i].pm;
  int *stack = malloc((p->nblk + 1) * sizeof *stack);
  bool *seen = calloc(p->nblk + 1, sizeof *seen);
  bool reads = stack == NULL || seen == NULL; /* out of memory: keep the restore */
  unsigned sp = 0;
  int b = pf->cfg.blk_of[(a - pf->code.lo) / 4u];
  uint32_t from = a + 4u; /* the rest of the call's block first */
  while (!reads) {
    bool set_again = false;
    for (uint32_t x = from; x < p->blk[b].end && !set_again && !reads; x += 4) {
      uint32_t t;
      if (hwprof_cfg_classify(&pf->code, x, hwprof_cfg_word(&pf->code, x), &t) != HWPROF_CF_CALL || instr_callee_neutral(c, t))
        continue;
      if (instr_callee_linked(c, t) >= 0) reads = true;
      else set_again = true;
    }
    if (!set_again && !reads) {
      reads = block_out_reads(p, b, sw, tail);
      for (unsigned e = 0; e < p->nedge && !reads; e++) {
        const pm_edge_t *x = &p->edge[e];
        if (x->src != b || x->dst < 0 || hwprof_cfg_is_virtual(x->kind) || seen[x->dst]) continue;
        seen[x->dst] = true;
        if (head[x->dst] || p->blk[x->dst].counter != PM_NONE) reads = true; /* its head's insertions */
        else stack[sp++] = x->dst;
      }
    }
    if (reads || sp == 0) break;
    b = stack[--sp];
    from = p->blk[b].start;
  }
  free(stack);
  free(seen);
  return reads;
}

static int plan_insns(ctx_t *c, unsigned i, bool entry_init, unsigned off0, const uint32_t *sw, const bool *head,
                      const unsigned *tail) {
  fn_t *f = &c->fn[i];
  const hwprof_cfg_fn_t *pf = &c->prog.fn[i];
  pm_func_t *p = &f->pm;
  /* entry: this function's counter area (unless a linked call has set it; the direct calls of a
   * call-started function set it too, and land behind this prof.init) */
  if (entry_init && push_head(c, pf->code.lo, rv32_prof(HWPROF_PROF_OP_INIT, 0, 0), p->base)) return -1;
  if (f->call_started && hwprof_rw_call_skip(c->rw, pf->code.lo, 1)) ERR("internal: %s: no prof.init to skip", pf->name);
  if (off0 && push_head(c, pf->code.lo, rv32_prof(HWPROF_PROF_OP_SETOFF, 0, 0), off0)) return -1;
  /* region entries that no edge can switch on its way */
  for (unsigned b = 0; b < p->nblk; b++)
    if (head[b] && !(b == 0 && off0) &&
        push_head(c, p->blk[b].start, rv32_prof(HWPROF_PROF_OP_SETOFF, 0, 0), f->region_off[p->blk[b].region]))
      return -1;
  /* block counters (indirect targets): prof.id with bhint ALL at the head */
  for (unsigned b = 0; b < p->nblk; b++)
    if (p->blk[b].counter != PM_NONE &&
        push_head(c, p->blk[b].start,
                  rv32_prof(HWPROF_PROF_OP_ID, HWPROF_BHINT_ALL << 1 | HWPROF_IHINT_INC,
                           (uint32_t)rel_id(f, (int)b, p->blk[b].counter)), 0))
      return -1;
  /* calls: put the pir back when the callee may have changed it */
  for (uint32_t a = pf->code.lo; a < pf->code.hi; a += 4) {
    uint32_t t;
    if (hwprof_cfg_classify(&pf->code, a, hwprof_cfg_word(&pf->code, a), &t) != HWPROF_CF_CALL || instr_callee_neutral(c, t) ||
        instr_callee_linked(c, t) >= 0)
      continue;
    const int region = p->blk[pf->cfg.blk_of[(a - pf->code.lo) / 4u]].region;
    const unsigned off = f->region_off[region];
    c->st.restores++;
    if (c->o->lazy_restore && !restore_needed(c, i, a, sw, head, tail)) {
      c->st.restores_dead++;
      continue;
    }
    if (t == pf->code.lo && instr_self_return_keeps_base(p)) { /* direct recursion: the base is this function's */
      if (!returns_in_region(p, region) && push_tail(c, a, rv32_prof(HWPROF_PROF_OP_SETOFF, 0, 0), off)) return -1;
      continue;
    }
    if (push_tail(c, a, rv32_prof(HWPROF_PROF_OP_INIT, 0, 0), p->base)) return -1;
    if (off && push_tail(c, a, rv32_prof(HWPROF_PROF_OP_SETOFF, 0, 0), off)) return -1;
  }
  /* measured edges: on the branch, jump or return that ends the block, or a prof.id in its tail; the
   * returns of a linked function restore the caller's pir (after their own update) */
  const uint32_t pop = f->linked ? UINT32_C(1) << HWPROF_SHADOW_POP_LSB : 0;
  for (unsigned b = 0; b < p->nblk; b++) {
    const uint32_t term = p->blk[b].end - 4;
    int tk = -1, nt = -1;
    for (unsigned e = 0; e < p->nedge; e++)
      if (p->edge[e].src == (int)b && p->edge[e].kind == HWPROF_CFG_RETURN) hwprof_rw_shadow(c->rw, term, pop);
    for (unsigned e = 0; e < p->nedge; e++) {
      const pm_edge_t *x = &p->edge[e];
      if (x->src != (int)b || x->counter == PM_NONE) continue;
      const int id = rel_id(f, (int)b, x->counter);
      switch (x->kind) {
        case HWPROF_CFG_TAKEN: tk = id; break;
        case HWPROF_CFG_NOT_TAKEN: nt = id; break;
        case HWPROF_CFG_JUMP: hwprof_rw_shadow(c->rw, term, shadow_bits((unsigned)id, HWPROF_BHINT_TK)); break;
        case HWPROF_CFG_RETURN: hwprof_rw_shadow(c->rw, term, shadow_bits((unsigned)id, HWPROF_BHINT_ALL) | pop); break;
        case HWPROF_CFG_TAIL: hwprof_rw_shadow(c->rw, term, shadow_bits((unsigned)id, HWPROF_BHINT_ALL)); break;
        case HWPROF_CFG_FALL:
        case HWPROF_CFG_FALL_OUT:
          if (push_tail(c, term, rv32_prof(HWPROF_PROF_OP_ID, HWPROF_IHINT_INC, (uint32_t)id), 0)) return -1;
          break;
        default: ERR("internal: %s edge measured in %s", hwprof_cfg_kind_names[x->kind], pf->name);
      }
    }
    if (p->blk[b].term_counter != PM_NONE) /* an indirect jump counting its block, bhint ALL */
      hwprof_rw_shadow(c->rw, term, shadow_bits((unsigned)rel_id(f, (int)b, p->blk[b].term_counter), HWPROF_BHINT_ALL));
    if (tk > 0 && nt > 0) {
      if (nt != tk + 1) ERR("internal: %s: branch IDs %d and %d are not consecutive", pf->name, tk, nt);
      hwprof_rw_shadow(c->rw, term, shadow_bits((unsigned)tk, HWPROF_BHINT_EITHER));
    } else if (tk > 0) {
      hwprof_rw_shadow(c->rw, term, shadow_bits((unsigned)tk, HWPROF_BHINT_TK));
    } else if (nt > 0) {
      hwprof_rw_shadow(c->rw, term, shadow_bits((unsigned)nt, HWPROF_BHINT_NT));
    }
    /* the region switches of the block's way out */
    if (sw[b]) hwprof_rw_shadow(c->rw, term, hwprof_rw_get_shadow(c->rw, term) | sw[b]);
    if (tail[b] && push_tail(c, term, rv32_prof(HWPROF_PROF_OP_SETOFF, 0, 0), tail[b] - 1u)) return -1;
  }
  return 0;
}

/* The inserted profiling instructions of every instrumented function that the program's own
 * instructions beside them can carry (hwprof_rw_fold). A block's first instruction is a leader. With
 * regions (edge profiles), the ways into a block bring the function's base and the offset of the
 * block's region (the region switches on its edges see to that; where a restore after a call was
 * left out, nothing reads the pir before it is set again, so setting it there changes no count), so
 * operations that leave those as they are may ride on a leader too; path profiles fold onto the
 * instructions a run falls into only. */
static int fold_carriers(ctx_t *c, bool regions) {
  for (unsigned i = 0; i < c->prog.nfn; i++) {
    const hwprof_cfg_fn_t *pf = &c->prog.fn[i];
    const fn_t *f = &c->fn[i];
    if (!f->ok) continue;
    const unsigned n = (pf->code.hi - pf->code.lo) / 4u;
    bool *leader = calloc(n + 1, sizeof *leader);
    hwprof_rw_pir_t *st = calloc(n + 1, sizeof *st);
    if (leader == NULL || st == NULL) {
      free(leader);
      free(st);
      ERR("out of memory");
    }
    for (unsigned b = 0; b < pf->cfg.nblk; b++)
      if (pf->cfg.blk[b].start < pf->code.hi) leader[(pf->cfg.blk[b].start - pf->code.lo) / 4u] = true;
    leader[0] = true;
    for (unsigned w = 0; w < n && regions; w++)
      st[w] = (hwprof_rw_pir_t){f->pm.base, f->region_off[f->pm.blk[pf->cfg.blk_of[w]].region]};
    hwprof_rw_fold(c->rw, pf->code.lo, pf->code.hi, leader, regions ? st : NULL);
    free(leader);
    free(st);
  }
  return 0;
}

/* ---------------------------------------------------------------- layout and output */

/* The stacks' spill areas, after the counters, 64-byte aligned: the path stack's (paths through the
 * hardware), then the link stack's (linked calls, with --link-spill). */
static bool spills(const ctx_t *c) { return c->o->paths != kPathsNone && !c->o->paths_sw && c->o->path_spill != 0; }
static bool link_spills(const ctx_t *c) { return c->o->link_spill != 0 && c->o->linked_calls && !c->o->paths_sw; }
static uint32_t spill_at(const ctx_t *c) { return (counters_end(c) + 63u) & ~63u; }
static uint32_t link_spill_at(const ctx_t *c) { return spill_at(c) + (spills(c) ? c->o->path_spill : 0u); }
static unsigned stub_words(const ctx_t *c) {
  return STUB_WORDS + (spills(c) ? STUB_SPILL_WORDS : 0u) + (link_spills(c) ? STUB_SPILL_WORDS : 0u);
}
/* The start-up code's words that give a stack its spill area: base at and size in 64-byte blocks. */
static unsigned emit_spill(uint32_t *w, uint32_t at, uint32_t bytes, uint16_t lo_reg, uint16_t hi_reg, uint16_t reg) {
  unsigned n = 0;
  w[n++] = rv32_lui(6, at);
  w[n++] = rv32_addi(6, 6, rv32_lo12(at));
  w[n++] = rv32_sw(6, 5, lo_reg);
  w[n++] = rv32_sw(0, 5, hi_reg);
  w[n++] = rv32_lui(6, bytes / 64u);
  w[n++] = rv32_addi(6, 6, rv32_lo12(bytes / 64u));
  w[n++] = rv32_sw(6, 5, reg);
  return n;
}

/* The start-up code at the new entry: the bounds window of the edge-profiling unit is set to the
 * counter areas, the path stack's spill area after them (paths through the hardware), profiling is
 * started, and the program's own entry point runs. Registers t0/t1 are free at the entry of a
 * bare-metal program. */
static int emit_stub(ctx_t *c) {
  const uint32_t hw = c->o->hwprof_base, lo = c->o->counters_at, hi = counters_end(c);
  uint32_t w[STUB_WORDS + 2 * STUB_SPILL_WORDS], sh[STUB_WORDS + 2 * STUB_SPILL_WORDS] = {0};
  unsigned n = 0;
  w[n++] = rv32_lui(5, hw);
  w[n++] = rv32_addi(5, 5, rv32_lo12(hw));
  w[n++] = rv32_lui(6, lo);
  w[n++] = rv32_addi(6, 6, rv32_lo12(lo));
  w[n++] = rv32_sw(6, 5, HWPROF_EDGE_PROF_BOUND_LO_LO_ADDR);
  w[n++] = rv32_sw(0, 5, HWPROF_EDGE_PROF_BOUND_LO_HI_ADDR);
  w[n++] = rv32_lui(6, hi);
  w[n++] = rv32_addi(6, 6, rv32_lo12(hi));
  w[n++] = rv32_sw(6, 5, HWPROF_EDGE_PROF_BOUND_HI_LO_ADDR);
  w[n++] = rv32_sw(0, 5, HWPROF_EDGE_PROF_BOUND_HI_HI_ADDR);
  /* (LIMIT in 64-byte blocks, nothing in the areas yet) */
  if (spills(c))
    n += emit_spill(w + n, spill_at(c), c->o->path_spill, HWPROF_PIR_PATH_SPILL_LO_ADDR, HWPROF_PIR_PATH_SPILL_HI_ADDR,
                    HWPROF_PIR_PATH_SPILL_ADDR);
  if (link_spills(c))
    n += emit_spill(w + n, link_spill_at(c), c->o->link_spill, HWPROF_PIR_LINK_SPILL_LO_ADDR,
                    HWPROF_PIR_LINK_SPILL_HI_ADDR, HWPROF_PIR_LINK_SPILL_ADDR);
  w[n++] = rv32_addi(5, 0, 0);
  w[n++] = rv32_addi(6, 0, 0);
  w[n++] = rv32_prof(HWPROF_PROF_OP_START, 0, 0);
  const uint32_t at = c->o->text_at + 4u * n, to = hwprof_rw_entry(c->rw, c->elf.entry);
  if (hwprof_cfg_prog_fn_at(&c->prog, c->elf.entry) < 0)
    ERR("the entry point 0x%08" PRIx32 " is not in a function", c->elf.entry);
  w[n++] = rv32_jal(0, (int32_t)(to - at));
  for (unsigned i = 0; i < n; i++) hwprof_rw_put(c->rw, c->o->text_at + 4u * i, w[i], sh[i]);
  return 0;
}

/* Writes the map file; with blob, also the map in the run-time form (hwprof_meta.h). */
static int write_map(ctx_t *c, const char *in, const char *path, uint32_t **blob, size_t *nblob) {
  pm_map_t m = {0};
  snprintf(m.program, sizeof m.program, "%s", in);
  snprintf(m.mode, sizeof m.mode, "%s",
           c->o->paths == kPathsPlain     ? "paths-plain"
           : c->o->paths == kPathsRegions ? "paths-rb"
           : c->o->paths == kPathsGlobal  ? "paths-gp"
           : c->o->mode == kModeAll       ? "all"
                                          : "minimal");
  m.k = c->o->k;
  m.cnt_bytes = c->o->cnt_bytes;
  m.counters_at = c->o->counters_at;
  m.total_counters = c->next_counter;
  m.text_lo = c->o->text_at;
  m.text_hi = hwprof_rw_text_end(c->rw);
  m.nfn = c->prog.nfn;
  m.fn = calloc(c->prog.nfn + 1, sizeof *m.fn);
  if (m.fn == NULL) ERR("out of memory");
  for (unsigned i = 0; i < c->prog.nfn; i++) {
    fn_t *f = &c->fn[i];
    const hwprof_cfg_fn_t *pf = &c->prog.fn[i];
    pm_func_t *p = &f->pm;
    snprintf(p->name, sizeof p->name, "%s", pf->name);
    p->lo = pf->code.lo;
    p->hi = pf->code.hi;
    p->new_entry = hwprof_rw_entry(c->rw, pf->code.lo);
    p->instrumented = f->ok;
    p->derived = f->derived;
    if (!f->ok && !f->derived) {
      snprintf(p->why, sizeof p->why, "%s", f->why);
      p->nblk = p->nedge = 0;
      p->ncounters = p->nregions = 0;
      p->base = 0;
    }
    for (unsigned b = 0; b < p->nblk; b++) {
      pm_block_t *x = &p->blk[b];
      if ((int)b == p->dispatch) continue; /* no code: below */
      x->new_start = hwprof_rw_entry(c->rw, x->start);
      x->new_end = hwprof_rw_insn(c->rw, x->end - 4u) + 4u + 4u * hwprof_rw_after_count(c->rw, x->end - 4u);
    }
    if (p->dispatch >= 0) { /* empty, at the end of the function's new code (readers take the last block's end) */
      pm_block_t *d = &p->blk[p->dispatch];
      d->new_start = d->new_end = 0;
      for (unsigned b = 0; b < p->nblk; b++) d->new_start = d->new_end = p->blk[b].new_end > d->new_end ? p->blk[b].new_end : d->new_end;
    }
    for (unsigned k = 0; k < p->nedge; k++) {
      pm_edge_t *x = &p->edge[k];
      if (hwprof_cfg_is_virtual(x->kind)) continue;
      if (x->src == p->dispatch) { /* taken by every jump into the node that goes to dst */
        x->term_new = 0;
        x->dst_new = x->dst == HWPROF_CFG_EXIT ? PM_ANY : p->blk[x->dst].new_start;
        continue;
      }
      const uint32_t term = p->blk[x->src].end - 4;
      x->term_new = hwprof_rw_insn(c->rw, term);
      if (x->kind == HWPROF_CFG_FALL || x->kind == HWPROF_CFG_FALL_OUT) x->term_new += 4u * hwprof_rw_after_count(c->rw, term);
      uint32_t t;
      if (x->kind == HWPROF_CFG_FALL && x->term_new == hwprof_rw_insn(c->rw, term) &&
          hwprof_cfg_classify(&pf->code, term, hwprof_cfg_word(&pf->code, term), &t) == HWPROF_CF_CALL)
        x->term_new = PM_ANY; /* nothing after the call: the return into the next block is the traversal */
      x->dst_new = x->dst == HWPROF_CFG_EXIT || x->dst == p->dispatch ? PM_ANY : p->blk[x->dst].new_start;
      if (x->kind == HWPROF_CFG_TAKEN) x->dst_new = hwprof_rw_taken_to(c->rw, term); /* its island, if relaxed */
      if (x->kind == HWPROF_CFG_NOT_TAKEN) x->dst_new = x->term_new + 4u;
    }
    m.fn[i] = *p;
  }
  FILE *out = fopen(path, "w");
  if (out == NULL) {
    free(m.fn);
    ERR("%s: cannot write", path);
  }
  int rc = pm_write(&m, out);
  const int meta_bad = blob && pm_meta_blob(&m, blob, nblob);
  free(m.fn); /* the blocks and edges belong to the functions */
  if (fclose(out) != 0 || rc) ERR("%s: write failed", path);
  if (meta_bad) ERR("%s: the run-time metadata could not be built (out of memory) or failed its check", path);
  return 0;
}

/* ---------------------------------------------------------------- driver */

void instr_opts_default(instr_opts_t *o) {
  memset(o, 0, sizeof *o);
  o->mode = kModeMinimal;
  o->k = 6;
  o->text_at = INSTR_TEXT_AT;
  o->counters_at = INSTR_COUNTERS_AT;
  o->cnt_bytes = 4;
  o->hwprof_base = HWPROF_PLAT_REG_BASE;
  o->linked_calls = true;
  o->lazy_restore = true;
  o->carriers = true;
  o->path_state_at = INSTR_PATH_STATE_AT;
  o->path_spill = INSTR_PATH_SPILL_BYTES;
  o->link_spill = INSTR_LINK_SPILL_AUTO;
}

static void free_ctx(ctx_t *c) {
  for (unsigned i = 0; c->fn && i < c->prog.nfn; i++) {
    free(c->fn[i].pm.blk);
    free(c->fn[i].pm.edge);
    free(c->fn[i].pm.src);
    free(c->fn[i].region_off);
    instr_path_free(&c->fn[i]);
  }
  free(c->fn);
  free(c->meta);
  free(c->meta_le);
  hwprof_rw_free(c->rw);
  if (c->weights) instr_weights_free(c->weights);
  free(c->weights);
  hwprof_cfg_prog_free(&c->prog);
  hwprof_elf_free(&c->elf);
}

/* Which functions leave the pir alone (then calls to them need no restore): the uninstrumented
 * ones whose every way out of their own code (calls, tail calls, jumps to other functions) goes
 * to such functions. An indirect call or an indirect jump (an uninstrumented function's may be a
 * tail call through a pointer: picolibc's fclose) could reach anything, so it disqualifies. */
static bool leaves_to_neutral(const ctx_t *c, unsigned i) {
  const hwprof_cfg_code_t *code = &c->prog.fn[i].code;
  for (uint32_t a = code->lo; a < code->hi; a += 4) {
    uint32_t t;
    const hwprof_cf_t k = hwprof_cfg_classify(code, a, hwprof_cfg_word(code, a), &t);
    const bool out = k == HWPROF_CF_CALL || k == HWPROF_CF_TAIL || (k == HWPROF_CF_JUMP && (t < code->lo || t >= code->hi));
    if (k == HWPROF_CF_INDIRECT || (out && t == 0)) return false;
    if (!out) continue;
    const int j = hwprof_cfg_prog_fn_at(&c->prog, t);
    if (j < 0 || !c->fn[j].neutral) return false;
  }
  return true;
}

static void find_neutral(ctx_t *c) {
  const hwprof_cfg_prog_t *p = &c->prog;
  for (unsigned i = 0; i < p->nfn; i++) c->fn[i].neutral = !c->fn[i].ok;
  for (bool changed = true; changed;) {
    changed = false;
    for (unsigned i = 0; i < p->nfn; i++) {
      if (c->fn[i].neutral && !leaves_to_neutral(c, i)) {
        c->fn[i].neutral = false;
        changed = true;
      }
    }
  }
}

/* Which instrumented functions are linked (linkage.h), for the pir's link stack of
 * HWPROF_PIR_LINK_ENTRIES entries, or of any depth when the program gives it a spill area. */
static int find_linked(ctx_t *c) {
  const unsigned n = c->prog.nfn;
  bool *ok = calloc(n + 1, sizeof *ok), *linked = calloc(n + 1, sizeof *linked);
  int rc = -1;
  if (ok == NULL || linked == NULL) {
    snprintf(c->err, c->errlen, "out of memory");
    goto out;
  }
  const bool link = c->o->linked_calls && !c->o->paths_sw; /* the software-only build uses no pir */
  for (unsigned i = 0; i < n; i++) ok[i] = c->fn[i].ok && link;
  if (instr_linkage(&c->prog, &c->elf, ok, c->o->link_spill ? 0u : HWPROF_PIR_LINK_ENTRIES, linked)) {
    snprintf(c->err, c->errlen, "out of memory");
    goto out;
  }
  for (unsigned i = 0; i < n; i++) {
    c->fn[i].linked = linked[i];
    c->fn[i].call_started = c->fn[i].ok && !linked[i] && link;
  }
  rc = 0;
out:
  free(ok);
  free(linked);
  return rc;
}

int instr_run(const char *in_elf, const char *out_elf, const char *map, const instr_opts_t *opts, instr_stats_t *st,
              char *err, size_t errlen) {
  /* the link stack's spill area, when left to the instrumenter: path profiles through the hardware
   * get one (their unlinked calls cost an ENTER, a POP and a prof.init each: docs/path.md), edge
   * profiles none (a recursive call started by its call costs nothing, and linked it would spill) */
  instr_opts_t eff = *opts;
  if (eff.link_spill == INSTR_LINK_SPILL_AUTO)
    eff.link_spill = eff.paths != kPathsNone && !eff.paths_sw ? INSTR_LINK_SPILL_BYTES : 0u;
  const instr_opts_t *o = &eff;
  ctx_t ctx = {0}, *c = &ctx;
  c->o = o;
  c->err = err;
  c->errlen = errlen;
  int rc = -1;
  if (o->paths_sw && (o->paths == kPathsNone || (o->path_state_at & 0xfffu))) {
    snprintf(err, errlen, "a software-only path profile needs --paths and a 4 KiB-aligned path state address");
    return -1;
  }
  if ((o->cnt_bytes != 1 && o->cnt_bytes != 2 && o->cnt_bytes != 4 && o->cnt_bytes != 8) ||
      (o->cnt_bytes != 4 && o->paths != kPathsNone) || (o->counters_at % o->cnt_bytes)) {
    snprintf(err, errlen, "%u-byte counters: edge profiles take 1, 2, 4 or 8 bytes at an address they divide, path "
             "profiles 4", o->cnt_bytes);
    return -1;
  }
  if ((o->path_weights != NULL) != (o->path_weights_map != NULL) || (o->path_weights != NULL && o->paths == kPathsNone)) {
    snprintf(err, errlen, "path weights need --paths and both the edge profile and its map");
    return -1;
  }
  if ((o->path_spill % 64u) || o->path_spill / 64u > HWPROF_PIR_PATH_SPILL_LIMIT_MASK || (o->link_spill % 64u) ||
      o->link_spill / 64u > HWPROF_PIR_LINK_SPILL_LIMIT_MASK) {
    snprintf(err, errlen, "a spill area of %" PRIu32 " bytes: it takes whole 64-byte blocks, at most %u",
             (o->path_spill % 64u) || o->path_spill / 64u > HWPROF_PIR_PATH_SPILL_LIMIT_MASK ? o->path_spill : o->link_spill,
             (unsigned)HWPROF_PIR_PATH_SPILL_LIMIT_MASK);
    return -1;
  }
  if (o->k < 2 || o->k > 12) {
    snprintf(err, errlen, "K = %u: the relative profile ID field must be 2..12 bits", o->k);
    return -1;
  }
  if (hwprof_elf_read(&c->elf, in_elf, HWPROF_ELF_RELOCATABLE, err, errlen)) return -1;
  if (hwprof_cfg_prog_read(&c->prog, &c->elf, err, errlen)) goto out;
  if (o->path_weights != NULL) {
    if ((c->weights = calloc(1, sizeof *c->weights)) == NULL) {
      snprintf(err, errlen, "out of memory");
      goto out;
    }
    if (instr_weights_load(c->weights, o->path_weights, o->path_weights_map, err, errlen)) {
      free(c->weights);
      c->weights = NULL;
      goto out;
    }
  }
  if ((c->fn = calloc(c->prog.nfn, sizeof *c->fn)) == NULL) {
    snprintf(err, errlen, "out of memory");
    goto out;
  }
  if ((c->rw = hwprof_rw_new(&c->elf, &c->prog, err, errlen)) == NULL) goto out;
  for (unsigned i = 0; i < c->prog.nfn; i++) {
    fn_t *f = &c->fn[i];
    if (analyse(c, i)) goto out;
    if (!f->ok) continue;
    if (o->paths != kPathsNone) { /* path profiles: path_instr.c */
      if (instr_path_prepare(c, i)) goto out;
      continue;
    }
    pm_func_t *p = &f->pm;
    if (select_edges(p, o->mode)) {
      snprintf(err, errlen, "out of memory");
      goto out;
    }
    if (!pm_solvable(p) && (o->mode == kModeAll || select_edges(p, kModeAll) || !pm_solvable(p))) {
      snprintf(f->why, sizeof f->why, "its edge counts cannot be derived from countable edges");
      f->ok = false;
      continue;
    }
    if (assign_ids(c, i)) goto out;
  }
  if (instr_find_sources(c)) goto out;
  find_neutral(c);
  if (find_linked(c)) goto out;
  for (unsigned i = 0; i < c->prog.nfn; i++) {
    fn_t *f = &c->fn[i];
    c->st.functions++;
    if (f->derived) {
      c->st.derived++;
      if (o->report)
        fprintf(o->report, "derived from its callers: %s (0x%08" PRIx32 "): %u entry points, counted at %u calls and "
                "jumps\n", c->prog.fn[i].name, c->prog.fn[i].code.lo, c->prog.fn[i].code.nentry + 1u, f->pm.nsrc);
      continue;
    }
    if (!f->ok) {
      c->st.skipped++;
      if (o->report)
        fprintf(o->report, "left uninstrumented: %s (0x%08" PRIx32 "): %s\n", c->prog.fn[i].name,
                c->prog.fn[i].code.lo, f->why);
      continue;
    }
    if (o->paths != kPathsNone ? instr_path_place(c, i) : plan(c, i)) goto out;
    c->st.instrumented++;
    c->st.linked += f->linked;
    c->st.started += f->call_started;
    c->st.regions += f->pm.nregions;
    for (unsigned e = 0; e < f->pm.nedge; e++) {
      c->st.edges += !hwprof_cfg_is_virtual(f->pm.edge[e].kind);
      c->st.measured += f->pm.edge[e].counter != PM_NONE;
    }
    for (unsigned b = 0; b < f->pm.nblk; b++)
      c->st.block_counters += (f->pm.blk[b].counter != PM_NONE) + (f->pm.blk[b].term_counter != PM_NONE);
  }
  for (unsigned i = 0; i < c->prog.nfn; i++) plan_linked_calls(c, i);
  if (o->carriers && !o->paths_sw && fold_carriers(c, o->paths == kPathsNone)) goto out;
  if (hwprof_rw_layout(c->rw, o->text_at, stub_words(c)) || emit_stub(c) || hwprof_rw_relocate(c->rw)) goto out;
  /* run-time metadata, when the program has a word for its address (its firmware reads it) */
  const hwprof_elf_symbol_t *meta_sym = NULL;
  for (unsigned i = 0; i < c->elf.nsym; i++)
    if (c->elf.sym[i].name && !strcmp(c->elf.sym[i].name, HWPROF_META_SYMBOL) && c->elf.sym[i].size == 4) meta_sym = &c->elf.sym[i];
  if (write_map(c, in_elf, map, meta_sym ? &c->meta : NULL, &c->nmeta)) goto out;
  hwprof_rw_seg_t segs[4];
  unsigned nseg = 0;
  if (c->next_counter) segs[nseg++] = (hwprof_rw_seg_t){o->counters_at, 0, counters_end(c) - o->counters_at, 6u, NULL};
  if (spills(c) || link_spills(c)) { /* the stacks' spill areas: zero-filled memory of the program's, after the counters */
    const uint64_t lo = spill_at(c), hi = (uint64_t)link_spill_at(c) + (link_spills(c) ? o->link_spill : 0u);
    if (hi > UINT32_MAX || (lo < hwprof_rw_text_end(c->rw) && hi > o->text_at)) {
      snprintf(err, errlen, "the spill areas [0x%08" PRIx64 ", 0x%08" PRIx64 ") overlap the code or leave the "
               "32-bit space", lo, hi);
      remove(map);
      goto out;
    }
    segs[nseg++] = (hwprof_rw_seg_t){(uint32_t)lo, 0, (uint32_t)(hi - lo), 6u, NULL};
  }
  uint8_t state[8] = {0}; /* the software-only build's sum (0) and stack pointer (the stack's bottom) */
  if (o->paths_sw) {
    const uint32_t lo = o->path_state_at, hi = lo + 8u + 4u * INSTR_PATH_SW_STACK, sp = lo + 8u;
    const uint32_t text_hi = hwprof_rw_text_end(c->rw);
    if ((lo < counters_end(c) && hi > o->counters_at) || (lo < text_hi && hi > o->text_at)) {
      snprintf(err, errlen, "the software path state [0x%08" PRIx32 ", 0x%08" PRIx32 ") overlaps the code or the counters",
               lo, hi);
      remove(map);
      goto out;
    }
    for (unsigned b = 0; b < 4; b++) state[4 + b] = (uint8_t)(sp >> (8 * b));
    segs[nseg++] = (hwprof_rw_seg_t){lo, 8u, hi - lo, 6u, state};
  }
  if (meta_sym && o->cnt_bytes != 4) {
    snprintf(err, errlen, "%s defines '%s': its firmware reads 4-byte counters (not %u-byte)", in_elf, HWPROF_META_SYMBOL,
             o->cnt_bytes);
    remove(map);
    goto out;
  }
  if (meta_sym) {
    uint8_t *word = hwprof_elf_bytes(&c->elf, meta_sym->value, 4);
    if (word == NULL) {
      snprintf(err, errlen, "%s: '%s' (0x%08" PRIx32 ") must be an initialized 32-bit word (in .data, not .bss)",
               in_elf, HWPROF_META_SYMBOL, meta_sym->value);
      remove(map);
      goto out;
    }
    const uint32_t at = (counters_end(c) + 15u) & ~15u;
    for (unsigned b = 0; b < 4; b++) word[b] = (uint8_t)(at >> (8 * b));
    if ((c->meta_le = malloc(4 * c->nmeta + 1)) == NULL) {
      snprintf(err, errlen, "out of memory");
      remove(map);
      goto out;
    }
    for (size_t w = 0; w < 4 * c->nmeta; w++) c->meta_le[w] = (uint8_t)(c->meta[w / 4] >> (8 * (w % 4)));
    segs[nseg++] = (hwprof_rw_seg_t){at, (uint32_t)(4 * c->nmeta), (uint32_t)(4 * c->nmeta), 4u, c->meta_le};
    c->st.meta_at = at;
    c->st.meta_bytes = (uint32_t)(4 * c->nmeta);
  }
  if (hwprof_rw_write_elf(c->rw, out_elf, o->text_at, segs, nseg)) {
    remove(map); /* nothing half written */
    goto out;
  }
  c->st.inserted = hwprof_rw_stats(c->rw).inserted;
  c->st.moved_insns = hwprof_rw_stats(c->rw).moved;
  c->st.relaxed = hwprof_rw_stats(c->rw).relaxed;
  c->st.folded = hwprof_rw_stats(c->rw).folded;
  if (c->weights) {
    c->st.path_weighted = c->weights->matched;
    c->st.path_planned = c->weights->asked;
  }
  if (st) *st = c->st;
  rc = 0;
out:
  free_ctx(c);
  return rc;
}
