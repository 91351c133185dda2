/* The instrumenter's driver; see instrument.h and docs/instrumenter.md.
 *
 * The edge-profiling policy of seed 000 on top of the CFG layer (sw/lib/cfg/: functions, blocks,
 * edges) and the rewriting layer (sw/host/rewrite/: moving code, inserting instructions, fixing every
 * relocated field): per function its CFG in the map's terms (here), the measured edges, IDs and
 * regions (edge_select.c) or its path plan (path_instr.c), which functions are neutral and which
 * linked (here, linkage.c), the profiling instructions (before an instruction: every jump to it runs
 * them; after it: only the fall-through path does) and the hint bits of the instructions' shadow
 * words (edge_plan.c); then the new text laid out with a start-up stub, the map (emit.c), and the
 * new ELF with the counter area (here). */
#include "instrument.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof_meta.h"
#include "autogen/hwprof_regs.h"
#include "instr_ctx.h"
#include "linkage.h"
#include "rv32_isa.h"

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
  for (unsigned i = 0; i < p->nfn; i++) c->fn[i].neutral = !c->fn[i].ok && !c->fn[i].returns_twice;
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
  for (unsigned i = 0; i < n; i++) ok[i] = c->fn[i].ok && link && !c->fn[i].returns_twice; /* landing.c */
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
  for (unsigned i = 0; i < c->prog.nfn; i++) c->fn[i].returns_twice = hwprof_cfg_returns_twice(c->prog.fn[i].name);
  for (unsigned i = 0; i < c->prog.nfn; i++) {
    fn_t *f = &c->fn[i];
    if (analyse(c, i)) goto out;
    if (!f->ok) continue;
    if (o->paths != kPathsNone) { /* path profiles: path_instr.c */
      if (instr_path_prepare(c, i)) goto out;
      continue;
    }
    pm_func_t *p = &f->pm;
    if (instr_select_edges(p, o->mode)) {
      snprintf(err, errlen, "out of memory");
      goto out;
    }
    if (!pm_solvable(p) && (o->mode == kModeAll || instr_select_edges(p, kModeAll) || !pm_solvable(p))) {
      snprintf(f->why, sizeof f->why, "its edge counts cannot be derived from countable edges");
      f->ok = false;
      continue;
    }
    if (instr_assign_ids(c, i)) goto out;
  }
  if (instr_find_sources(c)) goto out;
  find_neutral(c);
  if (find_linked(c)) goto out;
  for (unsigned i = 0; i < c->prog.nfn; i++) {
    fn_t *f = &c->fn[i];
    c->st.functions++;
    if (!f->derived && instr_plan_landings(c, i)) goto out; /* first after their calls */
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
    if (o->paths != kPathsNone ? instr_path_place(c, i) : instr_plan(c, i)) goto out;
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
  for (unsigned i = 0; i < c->prog.nfn; i++) instr_plan_linked_calls(c, i);
  if (o->carriers && !o->paths_sw && instr_fold_carriers(c, o->paths == kPathsNone)) goto out;
  if (hwprof_rw_layout(c->rw, o->text_at, instr_stub_words(c)) || instr_emit_stub(c) || hwprof_rw_relocate(c->rw)) goto out;
  /* run-time metadata, when the program has a word for its address (its firmware reads it) */
  const hwprof_elf_symbol_t *meta_sym = NULL;
  for (unsigned i = 0; i < c->elf.nsym; i++)
    if (c->elf.sym[i].name && !strcmp(c->elf.sym[i].name, HWPROF_META_SYMBOL) && c->elf.sym[i].size == 4) meta_sym = &c->elf.sym[i];
  if (instr_write_map(c, in_elf, map, meta_sym ? &c->meta : NULL, &c->nmeta)) goto out;
  hwprof_rw_seg_t segs[4];
  unsigned nseg = 0;
  if (c->next_counter) segs[nseg++] = (hwprof_rw_seg_t){o->counters_at, 0, counters_end(c) - o->counters_at, 6u, NULL};
  if (spills(c) || link_spills(c) || c->st.landings) {
    /* the stacks' spill areas and the landing table: zero-filled memory of the program's, after the counters */
    const uint64_t lo = spills(c) || link_spills(c) ? spill_at(c) : instr_landing_at(c), hi = instr_areas_end(c);
    if (hi > UINT32_MAX || (lo < hwprof_rw_text_end(c->rw) && hi > o->text_at)) {
      snprintf(err, errlen, "the spill areas and landing table [0x%08" PRIx64 ", 0x%08" PRIx64 ") overlap the code or "
               "leave the 32-bit space", lo, hi);
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
    const uint32_t at = (uint32_t)((instr_areas_end(c) + 15u) & ~(uint64_t)15u); /* after the counters and the areas behind them */
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
  if (c->st.landings) c->st.landing_at = instr_landing_at(c);
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
