/* The instrumenter; see instrument.h and docs/instrumenter.md.
 *
 * Outline: find the functions (FUNC symbols); per function decode the instructions, build the
 * CFG, choose the measured edges, assign IDs and regions, and plan the inserted instructions as a
 * "head" (before an instruction: every jump to it runs them) or a "tail" (after it: only the
 * fall-through path runs them); lay all functions out again at text_at with those instructions in
 * place; rewrite every PC-relative field of the moved code and every code address in data using
 * the relocations the linker kept; write the new ELF (original segments with the old code zeroed,
 * the new text, its shadow words, the counter area) and the map. */
#include "instrument.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof_elf.h"
#include "hwprof_regs.h"
#include "profmap.h"
#include "rv32_isa.h"

#define MAX_HEAD 4
#define MAX_TAIL 4
#define STUB_WORDS 14

/* ---------------------------------------------------------------- decoding */

typedef enum { C_NONE, C_BRANCH, C_JUMP, C_CALL, C_RET, C_TAIL, C_INDIRECT, C_ENV, C_MRET, C_PROF } cls_t;

static bool has_call_reloc(const hwprof_elf_t *e, uint32_t auipc, uint32_t *target) {
  for (unsigned i = hwprof_elf_reloc_lower_bound(e, auipc); i < e->nrel && e->rel[i].where == auipc; i++)
    if (e->rel[i].type == R_RISCV_CALL || e->rel[i].type == R_RISCV_CALL_PLT) {
      if (target) *target = e->rel[i].target;
      return true;
    }
  return false;
}

/* What the instruction at pc does to control flow; *target for direct transfers (0 if unknown). */
static cls_t classify(const hwprof_elf_t *e, uint32_t pc, uint32_t x, uint32_t *target) {
  const uint32_t op = rv32_opcode(x), rd = rv32_rd(x), rs1 = rv32_rs1(x);
  *target = 0;
  switch (op) {
    case RV32_OP_BRANCH: *target = pc + (uint32_t)rv32_imm_b(x); return C_BRANCH;
    case RV32_OP_JAL: *target = pc + (uint32_t)rv32_imm_j(x); return rd ? C_CALL : C_JUMP;
    case RV32_OP_JALR:
      if (rd) {
        has_call_reloc(e, pc - 4, target);
        return C_CALL;
      }
      if ((rs1 == 1 || rs1 == 5) && rv32_imm_i(x) == 0) return C_RET;
      if (has_call_reloc(e, pc - 4, target)) return C_TAIL;
      return C_INDIRECT;
    case RV32_OP_SYSTEM:
      if (x == 0x00000073u || x == RV32_INSN_EBREAK) return C_ENV;
      if (x == 0x30200073u) return C_MRET;
      return C_NONE;
    case RV32_OP_CUSTOM0: return C_PROF;
    default: return C_NONE;
  }
}

/* ---------------------------------------------------------------- state */

typedef struct {
  uint32_t word, shadow;
} ins_t;

typedef struct {
  ins_t head[MAX_HEAD], tail[MAX_TAIL];
  uint8_t nhead, ntail;
  uint32_t shadow;    /* the original instruction's profiling bits */
  uint32_t new_addr;  /* the instruction in the new text */
  uint32_t head_addr; /* the first instruction of its head (== new_addr without a head) */
  int fn;             /* owning function, -1: not code */
} slot_t;

typedef struct {
  uint32_t lo, hi;
  char name[64];
  bool multi, init_sec, skip;
  bool ok;            /* analysed and instrumented */
  char why[160];
  bool neutral;       /* never changes the pir (uninstrumented, calls only such functions) */
  bool indirect_call;
  uint32_t *callee;   /* direct call targets */
  unsigned ncallee, callee_cap;
  pm_func_t pm;
  int *blk_of;        /* word index -> block */
  unsigned *region_off;
} fn_t;

typedef struct {
  const instr_opts_t *o;
  hwprof_elf_t elf;
  fn_t *fn;
  unsigned nfn;
  uint32_t code_lo, code_hi; /* span of all functions */
  slot_t *slot;              /* one per word of [code_lo, code_hi) */
  uint32_t *text, *text_shadow;
  unsigned ntext;
  uint32_t next_counter;
  instr_stats_t st;
  char *err;
  size_t errlen;
} ctx_t;

#define ERR(...)                                        \
  do {                                                  \
    snprintf(c->err, c->errlen, __VA_ARGS__);           \
    return -1;                                          \
  } while (0)

static slot_t *slot_at(ctx_t *c, uint32_t a) {
  if (a < c->code_lo || a >= c->code_hi || (a & 3u)) return NULL;
  slot_t *s = &c->slot[(a - c->code_lo) / 4u];
  return s->fn >= 0 ? s : NULL;
}

static uint32_t word_at(ctx_t *c, uint32_t a) {
  const uint8_t *p = hwprof_elf_bytes(&c->elf, a, 4);
  return p ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24 : 0;
}

static void put_word(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}

/* ---------------------------------------------------------------- functions */

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

static int cmp_fn(const void *a, const void *b) {
  const fn_t *x = a, *y = b;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int find_functions(ctx_t *c) {
  const hwprof_elf_t *e = &c->elf;
  unsigned cap = 0;
  for (unsigned i = 0; i < e->nsym; i++) {
    const hwprof_elf_symbol_t *s = &e->sym[i];
    if (s->type != 2 || s->size == 0 || s->shndx == 0 || s->shndx >= e->nsec) continue;
    const hwprof_elf_section_t *sec = &e->sec[s->shndx];
    if (!(sec->flags & HWPROF_ELF_SHF_EXEC) || !(sec->flags & HWPROF_ELF_SHF_ALLOC)) continue;
    if ((s->value | s->size) & 3u) ERR("function %s at 0x%08" PRIx32 ": not word aligned (compressed code is not supported)", s->name, s->value);
    if (c->nfn == cap) {
      cap = cap ? 2 * cap : 64;
      fn_t *n = realloc(c->fn, cap * sizeof *n);
      if (n == NULL) ERR("out of memory");
      c->fn = n;
    }
    fn_t *f = &c->fn[c->nfn++];
    memset(f, 0, sizeof *f);
    f->lo = s->value;
    f->hi = s->value + s->size;
    snprintf(f->name, sizeof f->name, "%s", s->name);
    f->init_sec = !strcmp(sec->name, ".init");
  }
  if (c->nfn == 0) ERR("no functions (FUNC symbols with a size) in executable sections");
  qsort(c->fn, c->nfn, sizeof *c->fn, cmp_fn);
  /* merge aliases and overlapping ranges (millicode with several entry points) */
  unsigned n = 0;
  for (unsigned i = 0; i < c->nfn; i++) {
    if (n && c->fn[i].lo < c->fn[n - 1].hi) {
      fn_t *p = &c->fn[n - 1];
      if (c->fn[i].lo != p->lo || c->fn[i].hi != p->hi) p->multi = true; /* not a mere alias */
      if (c->fn[i].hi > p->hi) p->hi = c->fn[i].hi;
      continue;
    }
    c->fn[n++] = c->fn[i];
  }
  c->nfn = n;
  c->code_lo = c->fn[0].lo;
  c->code_hi = c->fn[n - 1].hi;
  if (c->code_hi - c->code_lo > (64u << 20)) ERR("functions span more than 64 MiB");
  unsigned words = (c->code_hi - c->code_lo) / 4u;
  if ((c->slot = calloc(words, sizeof *c->slot)) == NULL) ERR("out of memory");
  for (unsigned w = 0; w < words; w++) c->slot[w].fn = -1;
  for (unsigned i = 0; i < n; i++) {
    fn_t *f = &c->fn[i];
    for (uint32_t a = f->lo; a < f->hi; a += 4) {
      if (hwprof_elf_bytes(&c->elf, a, 4) == NULL) ERR("function %s: no contents at 0x%08" PRIx32, f->name, a);
      c->slot[(a - c->code_lo) / 4u].fn = (int)i;
    }
    f->skip = in_list(c->o->skip, f->name);
  }
  return 0;
}

static int add_callee(fn_t *f, uint32_t t) {
  if (f->ncallee == f->callee_cap) {
    f->callee_cap = f->callee_cap ? 2 * f->callee_cap : 8;
    uint32_t *n = realloc(f->callee, f->callee_cap * sizeof *n);
    if (n == NULL) return -1;
    f->callee = n;
  }
  f->callee[f->ncallee++] = t;
  return 0;
}

/* ---------------------------------------------------------------- CFG */

static int add_block(pm_func_t *p, unsigned *cap, uint32_t start, uint32_t end) {
  if (p->nblk == *cap) {
    *cap = *cap ? 2 * *cap : 16;
    pm_block_t *n = realloc(p->blk, *cap * sizeof *n);
    if (n == NULL) return -1;
    p->blk = n;
  }
  p->blk[p->nblk++] = (pm_block_t){start, end, 0, 0, PM_NONE, PM_NONE};
  return 0;
}

static int add_edge(pm_func_t *p, unsigned *cap, pm_kind_t k, int src, int dst) {
  if (p->nedge == *cap) {
    *cap = *cap ? 2 * *cap : 32;
    pm_edge_t *n = realloc(p->edge, *cap * sizeof *n);
    if (n == NULL) return -1;
    p->edge = n;
  }
  p->edge[p->nedge++] = (pm_edge_t){k, src, dst, 0, 0, PM_NONE};
  return 0;
}

#define SKIP(...)                                  \
  do {                                             \
    snprintf(f->why, sizeof f->why, __VA_ARGS__);  \
    free(leader);                                  \
    free(targets);                                 \
    return 0;                                      \
  } while (0)

/* Builds f's CFG, or leaves f->ok false with the reason in f->why. Returns -1 only for errors that
 * stop the whole run. */
static int build_cfg(ctx_t *c, fn_t *f) {
  const hwprof_elf_t *e = &c->elf;
  const unsigned nw = (f->hi - f->lo) / 4u;
  bool *leader = calloc(nw + 1, sizeof *leader);
  uint32_t *targets = NULL;
  unsigned ntargets = 0, nind = 0;
  uint32_t ind_at = 0;
  if (leader == NULL) ERR("out of memory");
  /* calls, for the pir-neutral analysis (also of functions left uninstrumented) */
  for (uint32_t a = f->lo; a < f->hi; a += 4) {
    uint32_t t, x = word_at(c, a);
    cls_t k = classify(e, a, x, &t);
    if (k == C_PROF) {
      free(leader);
      ERR("%s: a profiling instruction at 0x%08" PRIx32 ": the program is already instrumented", f->name, a);
    }
    if (k == C_CALL) {
      if (t == 0) f->indirect_call = true;
      else if (add_callee(f, t)) ERR("out of memory");
    }
  }
  if (f->multi) SKIP("several entry points (overlapping function symbols)");
  if (f->init_sec) SKIP("start-up and trap code (.init)");
  if (f->skip) SKIP("--skip");
  /* addresses inside f that the program takes (jump tables, label addresses) */
  for (unsigned i = 0; i < e->nrel; i++) {
    const hwprof_elf_reloc_t *r = &e->rel[i];
    if (r->target <= f->lo || r->target >= f->hi) continue;
    if (r->type == R_RISCV_BRANCH || r->type == R_RISCV_JAL || r->type == R_RISCV_CALL ||
        r->type == R_RISCV_CALL_PLT || r->type == R_RISCV_PCREL_LO12_I || r->type == R_RISCV_PCREL_LO12_S)
      continue;
    uint32_t *n = realloc(targets, (ntargets + 1) * sizeof *n);
    if (n == NULL) ERR("out of memory");
    targets = n;
    bool dup = false;
    for (unsigned k = 0; k < ntargets; k++) dup |= targets[k] == r->target;
    if (!dup) targets[ntargets++] = r->target;
  }
  leader[0] = true;
  for (uint32_t a = f->lo; a < f->hi; a += 4) {
    uint32_t t, x = word_at(c, a);
    cls_t k = classify(e, a, x, &t);
    unsigned w = (a - f->lo) / 4u;
    switch (k) {
      case C_BRANCH:
        if (t < f->lo || t >= f->hi || (t & 3u)) SKIP("branch at 0x%08" PRIx32 " leaves the function", a);
        leader[(t - f->lo) / 4u] = true;
        leader[w + 1] = true;
        break;
      case C_JUMP:
        if (t >= f->lo && t < f->hi) leader[(t - f->lo) / 4u] = true;
        leader[w + 1] = true;
        break;
      case C_INDIRECT:
        nind++;
        ind_at = a;
        leader[w + 1] = true;
        break;
      case C_RET:
      case C_TAIL:
      case C_MRET: leader[w + 1] = true; break;
      default: break;
    }
  }
  if (nind > 1) SKIP("%u indirect jumps (their targets cannot be told apart)", nind);
  if (nind == 1 && ntargets == 0) SKIP("indirect jump at 0x%08" PRIx32 " with no known targets", ind_at);
  if (nind == 0 && ntargets) SKIP("the address 0x%08" PRIx32 " inside the function is taken", targets[0]);
  for (unsigned k = 0; k < ntargets; k++) {
    if (targets[k] & 3u) SKIP("misaligned code address 0x%08" PRIx32 " taken", targets[k]);
    leader[(targets[k] - f->lo) / 4u] = true;
  }
  /* blocks */
  pm_func_t *p = &f->pm;
  unsigned bcap = 0, ecap = 0;
  if ((f->blk_of = calloc(nw, sizeof *f->blk_of)) == NULL) ERR("out of memory");
  for (unsigned w = 0; w < nw; w++) {
    if (leader[w] && add_block(p, &bcap, f->lo + 4 * w, 0)) ERR("out of memory");
    f->blk_of[w] = (int)p->nblk - 1;
  }
  for (unsigned b = 0; b < p->nblk; b++) p->blk[b].end = b + 1 < p->nblk ? p->blk[b + 1].start : f->hi;
  /* edges */
  if (add_edge(p, &ecap, PM_VIRTUAL_ENTRY, PM_EXIT, 0)) ERR("out of memory");
  for (unsigned b = 0; b < p->nblk; b++) {
    const uint32_t term = p->blk[b].end - 4;
    const int next = b + 1 < p->nblk ? (int)b + 1 : PM_EXIT;
    bool may_leave = false;
    for (uint32_t a = p->blk[b].start; a < p->blk[b].end; a += 4) {
      uint32_t t;
      cls_t k = classify(e, a, word_at(c, a), &t);
      may_leave |= k == C_CALL || k == C_ENV;
    }
    uint32_t t;
    int ok = 0;
    switch (classify(e, term, word_at(c, term), &t)) {
      case C_BRANCH:
        if (next == PM_EXIT) SKIP("the branch at 0x%08" PRIx32 " falls off the end of the function", term);
        ok |= add_edge(p, &ecap, PM_TAKEN, (int)b, f->blk_of[(t - f->lo) / 4u]);
        ok |= add_edge(p, &ecap, PM_NOT_TAKEN, (int)b, next);
        break;
      case C_JUMP:
        if (t >= f->lo && t < f->hi) ok |= add_edge(p, &ecap, PM_JUMP, (int)b, f->blk_of[(t - f->lo) / 4u]);
        else ok |= add_edge(p, &ecap, PM_TAIL, (int)b, PM_EXIT);
        break;
      case C_INDIRECT:
        for (unsigned k = 0; k < ntargets; k++)
          ok |= add_edge(p, &ecap, PM_INDIRECT, (int)b, f->blk_of[(targets[k] - f->lo) / 4u]);
        break;
      case C_RET:
      case C_MRET: ok |= add_edge(p, &ecap, PM_RETURN, (int)b, PM_EXIT); break;
      case C_TAIL: ok |= add_edge(p, &ecap, PM_TAIL, (int)b, PM_EXIT); break;
      default: ok |= add_edge(p, &ecap, next == PM_EXIT ? PM_FALL_OUT : PM_FALL, (int)b, next); break;
    }
    if (may_leave) ok |= add_edge(p, &ecap, PM_VIRTUAL_EXIT, (int)b, PM_EXIT);
    if (ok) ERR("out of memory");
  }
  free(leader);
  free(targets);
  f->ok = true;
  return 0;
}

/* ---------------------------------------------------------------- choosing the measured edges */

static int uf_find(int *p, int x) {
  while (p[x] != x) x = p[x] = p[p[x]];
  return x;
}

static bool measurable(pm_kind_t k) { return k != PM_INDIRECT && !pm_is_virtual(k); }

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
  for (int pass = 0; pass < 3; pass++) {
    for (unsigned e = 0; e < p->nedge; e++) {
      pm_edge_t *x = &p->edge[e];
      const int cls = !measurable(x->kind) ? 0 : (x->kind == PM_FALL || x->kind == PM_FALL_OUT) ? 1 : 2;
      if (cls != pass) continue;
      if (mode == kModeAll && cls) {
        x->counter = 0;
        continue;
      }
      if (mode == kModeAll && x->kind == PM_INDIRECT) {
        p->blk[x->dst].counter = 0;     /* the targets ... */
        p->blk[x->src].term_counter = 0; /* ... and the block with the indirect jump (paragraph 43) */
        continue;
      }
      const int a = uf_find(uf, x->src == PM_EXIT ? exit_node : x->src);
      const int b = uf_find(uf, x->dst == PM_EXIT ? exit_node : x->dst);
      if (a != b) uf[a] = b;
      else if (cls) x->counter = 0;
      else p->blk[x->kind == PM_VIRTUAL_EXIT ? x->src : x->dst].counter = 0;
    }
  }
  free(uf);
  return 0;
}

/* Regions, IDs and counter indexes. A block's counters (its measured out-edges, its block counter)
 * stay in one region, so both edges of a two-way branch do (paragraph 42). */
static int assign_ids(ctx_t *c, fn_t *f) {
  pm_func_t *p = &f->pm;
  const unsigned limit = (1u << c->o->k) - 1u;
  unsigned *cost = calloc(p->nblk + 1, sizeof *cost);
  if ((f->region_off = calloc(p->nblk + 1, sizeof *f->region_off)) == NULL || cost == NULL) {
    free(cost);
    ERR("out of memory");
  }
  for (unsigned b = 0; b < p->nblk; b++)
    cost[b] = (p->blk[b].counter != PM_NONE) + (p->blk[b].term_counter != PM_NONE);
  for (unsigned e = 0; e < p->nedge; e++)
    if (p->edge[e].counter != PM_NONE) cost[p->edge[e].src]++;
  unsigned region = 0, used = 0, off = 0;
  f->region_off[0] = 0;
  for (unsigned b = 0; b < p->nblk; b++) {
    if (used + cost[b] > limit) {
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
        int want = x->kind == PM_TAKEN ? 0 : x->kind == PM_NOT_TAKEN ? 1 : 2;
        if (want == pass) x->counter = (int)(off + used++);
      }
    if (p->blk[b].term_counter != PM_NONE) p->blk[b].term_counter = (int)(off + used++);
  }
  const unsigned total = off + used;
  free(cost);
  p->ncounters = total;
  p->nregions = region + 1;
  p->base = c->o->counters_at + 4u * c->next_counter;
  c->next_counter += total;
  return 0;
}

/* ---------------------------------------------------------------- planning the inserted code */

static int push_head(ctx_t *c, uint32_t a, uint32_t word, uint32_t shadow) {
  slot_t *s = slot_at(c, a);
  if (s->nhead == MAX_HEAD) ERR("internal: too many instructions before 0x%08" PRIx32, a);
  s->head[s->nhead++] = (ins_t){word, shadow};
  c->st.inserted++;
  return 0;
}

static int push_tail(ctx_t *c, uint32_t a, uint32_t word, uint32_t shadow) {
  slot_t *s = slot_at(c, a);
  if (s->ntail == MAX_TAIL) ERR("internal: too many instructions after 0x%08" PRIx32, a);
  s->tail[s->ntail++] = (ins_t){word, shadow};
  c->st.inserted++;
  return 0;
}

static uint32_t shadow_bits(unsigned pid, unsigned bhint) {
  return rv32_shadow(pid, bhint, HWPROF_IHINT_INC);
}

static int rel_id(const fn_t *f, int block, int counter) {
  return counter - (int)f->region_off[f->pm.blk[block].region] + 1;
}

static bool callee_neutral(ctx_t *c, uint32_t target) {
  slot_t *s = target ? slot_at(c, target) : NULL;
  return s && c->fn[s->fn].neutral && c->fn[s->fn].lo == target;
}

static int plan(ctx_t *c, fn_t *f) {
  pm_func_t *p = &f->pm;
  const unsigned off0 = f->region_off[p->blk[0].region];
  /* entry: this function's counter area */
  if (push_head(c, f->lo, rv32_prof(HWPROF_PROF_OP_INIT, 0, 0), p->base)) return -1;
  if (off0 && push_head(c, f->lo, rv32_prof(HWPROF_PROF_OP_SETOFF, 0, 0), off0)) return -1;
  /* region entries: a block with a predecessor in another region */
  for (unsigned b = 1; b < p->nblk; b++) {
    bool entry = false;
    for (unsigned e = 0; e < p->nedge; e++)
      entry |= p->edge[e].dst == (int)b && p->edge[e].src >= 0 && p->blk[p->edge[e].src].region != p->blk[b].region;
    if (entry && push_head(c, p->blk[b].start, rv32_prof(HWPROF_PROF_OP_SETOFF, 0, 0), f->region_off[p->blk[b].region]))
      return -1;
  }
  /* block counters (indirect targets): prof.id with bhint ALL at the head */
  for (unsigned b = 0; b < p->nblk; b++)
    if (p->blk[b].counter != PM_NONE &&
        push_head(c, p->blk[b].start,
                  rv32_prof(HWPROF_PROF_OP_ID, HWPROF_BHINT_ALL << 1 | HWPROF_IHINT_INC,
                           (uint32_t)rel_id(f, (int)b, p->blk[b].counter)), 0))
      return -1;
  /* calls: put the pir back when the callee may have changed it */
  for (uint32_t a = f->lo; a < f->hi; a += 4) {
    uint32_t t;
    if (classify(&c->elf, a, word_at(c, a), &t) != C_CALL || callee_neutral(c, t)) continue;
    const unsigned off = f->region_off[p->blk[f->blk_of[(a - f->lo) / 4u]].region];
    if (push_tail(c, a, rv32_prof(HWPROF_PROF_OP_INIT, 0, 0), p->base)) return -1;
    if (off && push_tail(c, a, rv32_prof(HWPROF_PROF_OP_SETOFF, 0, 0), off)) return -1;
  }
  /* measured edges: on the branch, jump or return that ends the block, or a prof.id in its tail */
  for (unsigned b = 0; b < p->nblk; b++) {
    const uint32_t term = p->blk[b].end - 4;
    int tk = -1, nt = -1;
    for (unsigned e = 0; e < p->nedge; e++) {
      const pm_edge_t *x = &p->edge[e];
      if (x->src != (int)b || x->counter == PM_NONE) continue;
      const int id = rel_id(f, (int)b, x->counter);
      switch (x->kind) {
        case PM_TAKEN: tk = id; break;
        case PM_NOT_TAKEN: nt = id; break;
        case PM_JUMP: slot_at(c, term)->shadow = shadow_bits((unsigned)id, HWPROF_BHINT_TK); break;
        case PM_RETURN:
        case PM_TAIL: slot_at(c, term)->shadow = shadow_bits((unsigned)id, HWPROF_BHINT_ALL); break;
        case PM_FALL:
        case PM_FALL_OUT:
          if (push_tail(c, term, rv32_prof(HWPROF_PROF_OP_ID, HWPROF_IHINT_INC, (uint32_t)id), 0)) return -1;
          break;
        default: ERR("internal: %s edge measured in %s", pm_kind_names[x->kind], f->name);
      }
    }
    if (p->blk[b].term_counter != PM_NONE) /* an indirect jump counting its block, bhint ALL */
      slot_at(c, term)->shadow = shadow_bits((unsigned)rel_id(f, (int)b, p->blk[b].term_counter), HWPROF_BHINT_ALL);
    if (tk > 0 && nt > 0) {
      if (nt != tk + 1) ERR("internal: %s: branch IDs %d and %d are not consecutive", f->name, tk, nt);
      slot_at(c, term)->shadow = shadow_bits((unsigned)tk, HWPROF_BHINT_EITHER);
    } else if (tk > 0) {
      slot_at(c, term)->shadow = shadow_bits((unsigned)tk, HWPROF_BHINT_TK);
    } else if (nt > 0) {
      slot_at(c, term)->shadow = shadow_bits((unsigned)nt, HWPROF_BHINT_NT);
    }
  }
  return 0;
}

/* ---------------------------------------------------------------- layout and rewriting */

static uint32_t map_code(ctx_t *c, uint32_t a) {
  slot_t *s = slot_at(c, a);
  return s ? s->head_addr : a;
}

static int layout(ctx_t *c) {
  uint32_t cur = c->o->text_at + 4u * STUB_WORDS;
  for (uint32_t a = c->code_lo; a < c->code_hi; a += 4) {
    slot_t *s = &c->slot[(a - c->code_lo) / 4u];
    if (s->fn < 0) continue;
    s->head_addr = cur;
    cur += 4u * s->nhead;
    s->new_addr = cur;
    cur += 4u * (1u + s->ntail);
  }
  c->ntext = (cur - c->o->text_at) / 4u;
  if ((uint64_t)c->o->text_at + 4u * c->ntext > UINT64_C(0x100000000)) ERR("the new text does not fit below 4 GiB");
  c->text = calloc(c->ntext, sizeof *c->text);
  c->text_shadow = calloc(c->ntext, sizeof *c->text_shadow);
  if (c->text == NULL || c->text_shadow == NULL) ERR("out of memory");
  return 0;
}

static void emit(ctx_t *c, uint32_t addr, uint32_t word, uint32_t shadow) {
  unsigned i = (addr - c->o->text_at) / 4u;
  c->text[i] = word;
  c->text_shadow[i] = shadow;
}

/* The start-up code at the new entry: the bounds window of the edge-profiling unit is set to the
 * counter areas, profiling is started, and the program's own entry point runs. Registers t0/t1 are
 * free at the entry of a bare-metal program. */
static int emit_stub(ctx_t *c) {
  const uint32_t hw = c->o->hwprof_base, lo = c->o->counters_at, hi = lo + 4u * c->next_counter;
  uint32_t w[STUB_WORDS], sh[STUB_WORDS] = {0};
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
  w[n++] = rv32_addi(5, 0, 0);
  w[n++] = rv32_addi(6, 0, 0);
  w[n++] = rv32_prof(HWPROF_PROF_OP_START, 0, 0);
  const uint32_t at = c->o->text_at + 4u * n, to = map_code(c, c->elf.entry);
  if (slot_at(c, c->elf.entry) == NULL) ERR("the entry point 0x%08" PRIx32 " is not in a function", c->elf.entry);
  w[n++] = rv32_jal(0, (int32_t)(to - at));
  for (unsigned i = 0; i < n; i++) emit(c, c->o->text_at + 4u * i, w[i], sh[i]);
  return 0;
}

typedef struct {
  uint32_t auipc, target_new, new_pc;
} pcrel_t;

static int rewrite(ctx_t *c) {
  const hwprof_elf_t *e = &c->elf;
  /* PC-relative high parts first: the low parts refer to them */
  pcrel_t *hi = calloc(e->nrel + 1, sizeof *hi);
  unsigned nhi = 0;
  if (hi == NULL) ERR("out of memory");
  for (unsigned i = 0; i < e->nrel; i++) {
    const hwprof_elf_reloc_t *r = &e->rel[i];
    if (r->type == R_RISCV_PCREL_HI20 && slot_at(c, r->where))
      hi[nhi++] = (pcrel_t){r->where, map_code(c, r->target), slot_at(c, r->where)->new_addr};
  }
  int rc = 0;
  /* the moved instructions */
  for (uint32_t a = c->code_lo; a < c->code_hi && rc == 0; a += 4) {
    slot_t *s = slot_at(c, a);
    if (s == NULL) continue;
    uint32_t x = word_at(c, a), t;
    const uint32_t pc = s->new_addr;
    for (unsigned i = 0; i < s->nhead; i++) emit(c, s->head_addr + 4u * i, s->head[i].word, s->head[i].shadow);
    for (unsigned i = 0; i < s->ntail; i++) emit(c, pc + 4u * (1u + i), s->tail[i].word, s->tail[i].shadow);
    const cls_t k = classify(e, a, x, &t);
    const bool is_branch = rv32_opcode(x) == RV32_OP_BRANCH;
    if (is_branch || rv32_opcode(x) == RV32_OP_JAL) {
      if (slot_at(c, t) == NULL) {
        snprintf(c->err, c->errlen, "0x%08" PRIx32 ": jump to 0x%08" PRIx32 ", which is not in a function", a, t);
        rc = -1;
        break;
      }
      int64_t off = (int64_t)map_code(c, t) - pc;
      bool far = is_branch ? !rv32_fits_b(off) : !rv32_fits_j(off);
      if (far) {
        snprintf(c->err, c->errlen,
                 "0x%08" PRIx32 " (%s): the %s to 0x%08" PRIx32 " is out of range after instrumentation", a,
                 c->fn[s->fn].name, k == C_BRANCH ? "branch" : "jump", t);
        rc = -1;
        break;
      }
      x = is_branch ? rv32_set_b(x, (int32_t)off) : rv32_set_j(x, (int32_t)off);
    }
    for (unsigned i = hwprof_elf_reloc_lower_bound(e, a); i < e->nrel && e->rel[i].where == a; i++) {
      const hwprof_elf_reloc_t *r = &e->rel[i];
      switch (r->type) {
        case R_RISCV_BRANCH:
        case R_RISCV_JAL: break; /* done above from the encoding */
        case R_RISCV_CALL:
        case R_RISCV_CALL_PLT: {
          slot_t *j = slot_at(c, a + 4);
          if (j == NULL || j->new_addr != pc + 4 || s->ntail) {
            snprintf(c->err, c->errlen, "0x%08" PRIx32 ": call pair split by the layout", a);
            rc = -1;
            break;
          }
          x = rv32_set_u(x, rv32_hi20(map_code(c, r->target) - pc)); /* the jalr's low part: below, in its own slot */
          break;
        }
        case R_RISCV_PCREL_HI20: {
          uint32_t d = map_code(c, r->target) - pc;
          x = rv32_set_u(x, rv32_hi20(d));
          break;
        }
        case R_RISCV_PCREL_LO12_I:
        case R_RISCV_PCREL_LO12_S: {
          const pcrel_t *h = NULL;
          for (unsigned k2 = 0; k2 < nhi && !h; k2++)
            if (hi[k2].auipc == r->target) h = &hi[k2];
          if (h == NULL) {
            snprintf(c->err, c->errlen, "0x%08" PRIx32 ": low part of a PC-relative pair without its high part", a);
            rc = -1;
            break;
          }
          uint32_t d = h->target_new - h->new_pc;
          x = r->type == R_RISCV_PCREL_LO12_I ? rv32_set_i(x, rv32_lo12(d)) : rv32_set_s(x, rv32_lo12(d));
          break;
        }
        case R_RISCV_HI20: x = rv32_set_u(x, rv32_hi20(map_code(c, r->target))); break;
        case R_RISCV_LO12_I: x = rv32_set_i(x, rv32_lo12(map_code(c, r->target))); break;
        case R_RISCV_LO12_S: x = rv32_set_s(x, rv32_lo12(map_code(c, r->target))); break;
        default:
          snprintf(c->err, c->errlen, "0x%08" PRIx32 " (%s): relocation type %" PRIu32 " in code is not supported", a,
                   c->fn[s->fn].name, r->type);
          rc = -1;
          break;
      }
      if (rc) break;
    }
    /* the jalr of a call pair: its low part */
    if (rc == 0 && a >= 4 && has_call_reloc(e, a - 4, &t)) {
      slot_t *au = slot_at(c, a - 4);
      if (au) x = rv32_set_i(x, rv32_lo12(map_code(c, t) - au->new_addr));
    }
    emit(c, pc, x, s->shadow);
    c->st.moved_insns++;
  }
  /* code addresses in data; references from outside the functions to moved code */
  for (unsigned i = 0; i < e->nrel && rc == 0; i++) {
    const hwprof_elf_reloc_t *r = &e->rel[i];
    if (slot_at(c, r->where)) continue; /* done above */
    if (slot_at(c, r->target) == NULL) continue;
    if (r->type != R_RISCV_32) {
      snprintf(c->err, c->errlen, "0x%08" PRIx32 ": relocation type %" PRIu32 " outside any function refers to code at 0x%08" PRIx32,
               r->where, r->type, r->target);
      rc = -1;
      break;
    }
    uint8_t *p = hwprof_elf_bytes(e, r->where, 4);
    if (p == NULL) continue; /* NOBITS */
    put_word(p, map_code(c, r->target));
  }
  free(hi);
  return rc;
}

/* ---------------------------------------------------------------- output */

typedef struct {
  uint32_t type, vaddr, paddr, filesz, memsz, flags;
  const uint8_t *bytes;
} seg_t;

static int write_elf(ctx_t *c, const char *path) {
  hwprof_elf_t *e = &c->elf;
  /* the old code becomes illegal instructions: a missed code pointer fails loudly */
  for (unsigned i = 0; i < c->nfn; i++) memset(hwprof_elf_bytes(e, c->fn[i].lo, c->fn[i].hi - c->fn[i].lo), 0, c->fn[i].hi - c->fn[i].lo);
  seg_t seg[16];
  unsigned n = 0;
  for (unsigned i = 0; i < e->nph && n < 13; i++) {
    const hwprof_elf_phdr_t *p = &e->ph[i];
    if (p->type != 1) continue;
    seg[n++] = (seg_t){1, p->vaddr, p->paddr, p->filesz, p->memsz, p->flags, e->file + p->offset};
  }
  uint8_t *tb = malloc(4u * c->ntext + 1), *sb = malloc(4u * c->ntext + 1);
  if (tb == NULL || sb == NULL) {
    free(tb);
    free(sb);
    ERR("out of memory");
  }
  for (unsigned i = 0; i < c->ntext; i++) {
    put_word(tb + 4 * i, c->text[i]);
    put_word(sb + 4 * i, c->text_shadow[i]);
  }
  const uint32_t ta = c->o->text_at;
  seg[n++] = (seg_t){1, ta, ta, 4u * c->ntext, 4u * c->ntext, 5u, tb};
  const uint32_t shadow_at = HWPROF_PLAT_SHADOW_BASE + (ta - HWPROF_PLAT_RAM_BASE);
  seg[n++] = (seg_t){1, shadow_at, shadow_at, 4u * c->ntext, 4u * c->ntext, 4u, sb};
  if (c->next_counter) seg[n++] = (seg_t){1, c->o->counters_at, c->o->counters_at, 0, 4u * c->next_counter, 6u, NULL};
  FILE *out = fopen(path, "wb");
  if (out == NULL) {
    free(tb);
    free(sb);
    ERR("%s: cannot write", path);
  }
  uint8_t hdr[52] = {0x7f, 'E', 'L', 'F', 1, 1, 1};
  put_word(hdr + 16, 2u | 243u << 16); /* ET_EXEC, EM_RISCV */
  put_word(hdr + 20, 1);
  put_word(hdr + 24, ta); /* the start-up stub */
  put_word(hdr + 28, 52);
  memcpy(hdr + 36, e->file + 36, 4); /* e_flags (the ABI) */
  put_word(hdr + 40, 52u | 32u << 16);
  put_word(hdr + 44, n);
  uint32_t off = 52 + 32 * n;
  fwrite(hdr, 1, sizeof hdr, out);
  for (unsigned i = 0; i < n; i++) {
    uint8_t ph[32];
    put_word(ph, seg[i].type);
    put_word(ph + 4, seg[i].filesz ? off : 0);
    put_word(ph + 8, seg[i].vaddr);
    put_word(ph + 12, seg[i].paddr);
    put_word(ph + 16, seg[i].filesz);
    put_word(ph + 20, seg[i].memsz);
    put_word(ph + 24, seg[i].flags);
    put_word(ph + 28, 4);
    fwrite(ph, 1, sizeof ph, out);
    off += (seg[i].filesz + 3u) & ~3u;
  }
  static const uint8_t pad[4];
  for (unsigned i = 0; i < n; i++) {
    if (seg[i].filesz) fwrite(seg[i].bytes, 1, seg[i].filesz, out);
    fwrite(pad, 1, ((seg[i].filesz + 3u) & ~3u) - seg[i].filesz, out);
  }
  free(tb);
  free(sb);
  if (fclose(out) != 0) ERR("%s: write failed", path);
  return 0;
}

static int write_map(ctx_t *c, const char *in, const char *path) {
  pm_map_t m = {0};
  snprintf(m.program, sizeof m.program, "%s", in);
  snprintf(m.mode, sizeof m.mode, "%s", c->o->mode == kModeAll ? "all" : "minimal");
  m.k = c->o->k;
  m.cnt_bytes = 4;
  m.counters_at = c->o->counters_at;
  m.total_counters = c->next_counter;
  m.nfn = c->nfn;
  m.fn = calloc(c->nfn + 1, sizeof *m.fn);
  if (m.fn == NULL) ERR("out of memory");
  for (unsigned i = 0; i < c->nfn; i++) {
    fn_t *f = &c->fn[i];
    pm_func_t *p = &f->pm;
    snprintf(p->name, sizeof p->name, "%s", f->name);
    p->lo = f->lo;
    p->hi = f->hi;
    p->new_entry = map_code(c, f->lo);
    p->instrumented = f->ok;
    if (!f->ok) {
      snprintf(p->why, sizeof p->why, "%s", f->why);
      p->nblk = p->nedge = 0;
      p->ncounters = p->nregions = 0;
      p->base = 0;
    }
    for (unsigned b = 0; b < p->nblk; b++) p->blk[b].new_start = map_code(c, p->blk[b].start);
    for (unsigned k = 0; k < p->nedge; k++) {
      pm_edge_t *x = &p->edge[k];
      if (pm_is_virtual(x->kind)) continue;
      const slot_t *s = slot_at(c, p->blk[x->src].end - 4);
      x->term_new = s->new_addr;
      if (x->kind == PM_FALL || x->kind == PM_FALL_OUT) x->term_new += 4u * s->ntail;
      x->dst_new = x->dst == PM_EXIT ? PM_ANY : p->blk[x->dst].new_start;
    }
    m.fn[i] = *p;
  }
  FILE *out = fopen(path, "w");
  if (out == NULL) {
    free(m.fn);
    ERR("%s: cannot write", path);
  }
  int rc = pm_write(&m, out);
  free(m.fn); /* the blocks and edges belong to the functions */
  if (fclose(out) != 0 || rc) ERR("%s: write failed", path);
  return 0;
}

/* ---------------------------------------------------------------- driver */

void instr_opts_default(instr_opts_t *o) {
  memset(o, 0, sizeof *o);
  o->mode = kModeMinimal;
  o->k = 6;
  o->text_at = UINT32_C(0x80800000);
  o->counters_at = UINT32_C(0x80c00000);
  o->hwprof_base = UINT32_C(0x10000000);
}

static void free_ctx(ctx_t *c) {
  for (unsigned i = 0; i < c->nfn; i++) {
    free(c->fn[i].pm.blk);
    free(c->fn[i].pm.edge);
    free(c->fn[i].blk_of);
    free(c->fn[i].region_off);
    free(c->fn[i].callee);
  }
  free(c->fn);
  free(c->slot);
  free(c->text);
  free(c->text_shadow);
  hwprof_elf_free(&c->elf);
}

int instr_run(const char *in_elf, const char *out_elf, const char *map, const instr_opts_t *o, instr_stats_t *st,
              char *err, size_t errlen) {
  ctx_t ctx = {0}, *c = &ctx;
  c->o = o;
  c->err = err;
  c->errlen = errlen;
  int rc = -1;
  if (o->k < 2 || o->k > 12) {
    snprintf(err, errlen, "K = %u: the relative profile ID field must be 2..12 bits", o->k);
    return -1;
  }
  if (hwprof_elf_read(&c->elf, in_elf, HWPROF_ELF_RELOCATABLE, err, errlen)) return -1;
  if (find_functions(c)) goto out;
  for (unsigned i = 0; i < c->nfn; i++) {
    fn_t *f = &c->fn[i];
    if (build_cfg(c, f)) goto out;
    if (!f->ok) continue;
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
    if (assign_ids(c, f)) goto out;
  }
  /* which functions leave the pir alone (then calls to them need no restore) */
  for (unsigned i = 0; i < c->nfn; i++) c->fn[i].neutral = !c->fn[i].ok && !c->fn[i].indirect_call;
  for (bool changed = true; changed;) {
    changed = false;
    for (unsigned i = 0; i < c->nfn; i++) {
      fn_t *f = &c->fn[i];
      if (!f->neutral) continue;
      for (unsigned k = 0; k < f->ncallee; k++) {
        slot_t *s = slot_at(c, f->callee[k]);
        if (s == NULL || !c->fn[s->fn].neutral) {
          f->neutral = false;
          changed = true;
          break;
        }
      }
    }
  }
  for (unsigned i = 0; i < c->nfn; i++) {
    fn_t *f = &c->fn[i];
    c->st.functions++;
    if (!f->ok) {
      c->st.skipped++;
      if (o->report) fprintf(o->report, "left uninstrumented: %s (0x%08" PRIx32 "): %s\n", f->name, f->lo, f->why);
      continue;
    }
    if (plan(c, f)) goto out;
    c->st.instrumented++;
    c->st.regions += f->pm.nregions;
    for (unsigned e = 0; e < f->pm.nedge; e++) {
      c->st.edges += !pm_is_virtual(f->pm.edge[e].kind);
      c->st.measured += f->pm.edge[e].counter != PM_NONE;
    }
    for (unsigned b = 0; b < f->pm.nblk; b++)
      c->st.block_counters += (f->pm.blk[b].counter != PM_NONE) + (f->pm.blk[b].term_counter != PM_NONE);
  }
  if (layout(c) || emit_stub(c) || rewrite(c)) goto out;
  if (write_map(c, in_elf, map)) goto out;
  if (write_elf(c, out_elf)) {
    remove(map); /* nothing half written */
    goto out;
  }
  if (st) *st = c->st;
  rc = 0;
out:
  free_ctx(c);
  return rc;
}
