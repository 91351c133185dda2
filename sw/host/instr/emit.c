/* The instrumenter's output besides the rewritten code (docs/instrumenter.md): the start-up code
 * at the new entry (the bounds window, the stacks' spill areas, profiling started) and the map file.
 * Part of the instrumenter (instrument.c drives it; instr_ctx.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "autogen/hwprof_regs.h"
#include "hwprof_meta.h"
#include "instr_ctx.h"
#include "rv32_isa.h"

#define STUB_WORDS 14
#define STUB_SPILL_WORDS 7 /* a stack's spill area: the path stack's (paths through the hardware), the link stack's */

unsigned instr_stub_words(const ctx_t *c) {
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
int instr_emit_stub(ctx_t *c) {
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
int instr_write_map(ctx_t *c, const char *in, const char *path, uint32_t **blob, size_t *nblob) {
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
