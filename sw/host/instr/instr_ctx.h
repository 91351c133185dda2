/* The instrumenter's state, shared by its two policies: edge profiles (instrument.c, seed 000) and
 * path profiles (path_instr.c, seed 004). Host only; not an interface for anything else. */
#ifndef HWPROF_INSTR_CTX_H
#define HWPROF_INSTR_CTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hwprof_cfg_prog.h"
#include "path_weights.h"
#include "hwprof_elf.h"
#include "hwprof_rewrite.h"
#include "instrument.h"
#include "profmap.h"

typedef struct instr_path instr_path_t; /* a function's path plan (path_instr.c) */

typedef struct {
  bool skip;          /* --skip */
  bool ok;            /* analysed and instrumented */
  bool derived;       /* not instrumented; its profile follows from its callers' (millicode: pm.src) */
  char why[160];
  bool neutral;       /* never changes the pir (uninstrumented, calls only such functions) */
  bool linked;        /* entered by linked calls only (linkage.h): the hardware saves the caller's pir */
  bool call_started;  /* instrumented, not linked: its direct calls start its area (op INIT, no save) and
                         skip the prof.init at its entry, which the other ways in still run */
  bool returns_twice; /* setjmp and its kin (hwprof_cfg_returns_twice): never linked nor neutral (landing.c) */
  pm_func_t pm;
  unsigned *region_off;
  instr_path_t *path;
} fn_t;

typedef struct {
  const instr_opts_t *o;
  hwprof_elf_t elf;
  hwprof_cfg_prog_t prog;
  fn_t *fn; /* one per prog.fn */
  hwprof_rw_t *rw;
  uint32_t next_counter;
  uint32_t *meta; /* run-time metadata words (hwprof_meta.h), and their little-endian bytes */
  size_t nmeta;
  uint8_t *meta_le;
  instr_stats_t st;
  instr_weights_t *weights; /* with o->path_weights */
  char *err;
  size_t errlen;
} ctx_t;

/* The end of the counter areas allocated so far. */
static inline uint32_t counters_end(const ctx_t *c) { return c->o->counters_at + c->o->cnt_bytes * c->next_counter; }
/* A function's area of n counters; returns its base. Areas start on a word (counters narrower than
 * one are padded up to it): a linked call carries the callee's base in a shadow word whose two low
 * bits are flags. */
static inline uint32_t counters_alloc(ctx_t *c, unsigned n) {
  if (c->o->cnt_bytes < 4u) {
    const uint32_t per_word = 4u / c->o->cnt_bytes;
    c->next_counter = (c->next_counter + per_word - 1u) / per_word * per_word;
  }
  const uint32_t base = counters_end(c);
  c->next_counter += n;
  return base;
}

/* The stacks' spill areas, after the counters, 64-byte aligned: the path stack's (paths through the
 * hardware), then the link stack's (linked calls, with --link-spill). */
static inline bool spills(const ctx_t *c) { return c->o->paths != kPathsNone && !c->o->paths_sw && c->o->path_spill != 0; }
static inline bool link_spills(const ctx_t *c) { return c->o->link_spill != 0 && c->o->linked_calls && !c->o->paths_sw; }
static inline uint32_t spill_at(const ctx_t *c) { return (counters_end(c) + 63u) & ~63u; }
static inline uint32_t link_spill_at(const ctx_t *c) { return spill_at(c) + (spills(c) ? c->o->path_spill : 0u); }
/* ... then, 4 KiB aligned, the table where calls of functions that return twice keep the stacks'
 * depths (landing.c), when the program has such calls */
static inline uint32_t instr_landing_at(const ctx_t *c) {
  return (link_spill_at(c) + (link_spills(c) ? c->o->link_spill : 0u) + 4095u) & ~4095u;
}
/* The end of the areas after the counters: the spill areas and the landing table, those there are
 * (64 bits: a caller checks that it stays in the 32-bit space). */
static inline uint64_t instr_areas_end(const ctx_t *c) {
  if (c->st.landings) return (uint64_t)instr_landing_at(c) + 16u * INSTR_LANDING_ENTRIES;
  if (spills(c) || link_spills(c)) return (uint64_t)link_spill_at(c) + (link_spills(c) ? c->o->link_spill : 0u);
  return counters_end(c);
}

#define ERR(...)                                        \
  do {                                                  \
    snprintf(c->err, c->errlen, __VA_ARGS__);           \
    return -1;                                          \
  } while (0)

/* edge_select.c: choose the measured edges of a function's map entry (seed 000's spanning tree, by
 * mode); -1 only when out of memory */
int instr_select_edges(pm_func_t *p, instr_mode_t mode);
/* ... then its counters' relative IDs and regions, and its counter area; -1 for a hard error (c->err) */
int instr_assign_ids(ctx_t *c, unsigned fi);

/* edge_plan.c: place function i's profiling instructions and hint bits (edge profiles); -1 for a
 * hard error (c->err) */
int instr_plan(ctx_t *c, unsigned i);
/* ... the shadow words of function i's linked calls (every policy) */
void instr_plan_linked_calls(ctx_t *c, unsigned i);
/* ... and the inserted instructions the program's own can carry (regions: edge profiles); -1 only
 * when out of memory */
int instr_fold_carriers(ctx_t *c, bool regions);

/* emit.c: the start-up code's size in words, the code itself at the new text's start, and the map
 * file (with blob, also the map in its run-time form, hwprof_meta.h); -1 with c->err */
unsigned instr_stub_words(const ctx_t *c);
int instr_emit_stub(ctx_t *c);
int instr_write_map(ctx_t *c, const char *in, const char *path, uint32_t **blob, size_t *nblob);

/* millicode.c: where each derived function's entries are counted (pm.src), from every call and jump
 * into it; one that cannot be counted loses its profile, with the reason. -1 only when out of memory
 * (c->err) */
int instr_find_sources(ctx_t *c);

/* landing.c: the code after function i's direct calls of functions that return twice (setjmp and
 * its kin) that keeps the pir's stacks right when a longjmp lands there (before any other code
 * inserted after them); -1 with c->err */
int instr_plan_landings(ctx_t *c, unsigned i);

/* path_instr.c: plan function i's path profile (counters allocated; f->ok cleared with the reason
 * when it cannot have one), then place its operations; -1 only for a hard error (c->err) */
int instr_path_prepare(ctx_t *c, unsigned i);
int instr_path_place(ctx_t *c, unsigned i);
/* ... the sum a path that starts at a longjmp landing behind function i's call at call (a call of
 * setjmp) begins with, or -1 when the function has no path profile */
int instr_path_landing_sum(const ctx_t *c, unsigned i, uint32_t call);
void instr_path_free(fn_t *f);

#endif /* HWPROF_INSTR_CTX_H */
