/* Where the edge profile's inserted code goes (docs/instrumenter.md): the profiling instructions
 * before and after the program's own, the region switches, the restores after calls, the hint bits
 * of the shadow words, linked calls, and the carrier words that fold the inserted instructions into
 * the program's. Part of the instrumenter (instrument.c drives it; instr_ctx.h). */
#include <stdlib.h>
#include <string.h>

#include "autogen/hwprof_regs.h"
#include "instr_ctx.h"
#include "linkage.h"
#include "rv32_isa.h"

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
void instr_plan_linked_calls(ctx_t *c, unsigned i) {
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

int instr_plan(ctx_t *c, unsigned i) {
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
int instr_fold_carriers(ctx_t *c, bool regions) {
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
