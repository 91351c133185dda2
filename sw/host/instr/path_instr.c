/* The instrumenter's path policy (seed 004; docs/path.md): per function, plan the
 * path profile (sw/host/path/pp_plan.h: regions, numbered graphs, counters, the path operations of
 * every edge) and place the operations where they cost least:
 *
 *  - on the branch, jump or return that takes the edge (its shadow word carries one path word: no
 *    instruction), a branch's taken edge first;
 *  - a prof.path behind a branch (its not-taken edge) or behind a block that falls into the next;
 *  - a prof.path before a jump, a tail call or a return (the edge is the block's only way out), for
 *    every operation of the edge but the last, which the instruction itself carries;
 *  - a prof.path at the head of the block an edge enters when no other way leads there (a taken
 *    edge with several operations, an indirect edge); anything else has no place and the function
 *    keeps no path profile (the reason is reported).
 *
 * Calls: a linked or starting call saves (linked) and zeroes the path sum in the hardware; any
 * other call that may reach profiled code is bracketed: ENTER 0, 0 before it (the sum saved on the
 * path stack, the callee's paths begin at 0), POP after it (then prof.init when the callee may have
 * moved the base, which a carrier word may take). The function's entry runs prof.init and SET 0 for the ways in that are not such
 * calls (indirect calls, uninstrumented callers); direct calls land behind both. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "autogen/hwprof_regs.h"
#include "instr_ctx.h"
#include "linkage.h"
#include "pp_plan.h"
#include "rv32_isa.h"
#include "rv32_reloc.h"

struct instr_path {
  uint8_t *mem;
  hwprof_arena_t arena;
  pp_func_t f;
  pp_plan_t plan;
  uint64_t *counts; /* per CFG edge, a measured profile's counts (--path-weights), or NULL */
};

void instr_path_free(fn_t *f) {
  if (f->path) {
    free(f->path->mem);
    free(f->path->counts);
  }
  free(f->path);
  f->path = NULL;
}

static uint32_t path_word(const pp_op_t *op) { return rv32_path_word(op->kind, op->a, op->b); }

/* Whether the address of block t of function i is taken only from data (a jump table): the
 * rewriting layer can then send the tables to an island. */
static bool tables_only(const ctx_t *c, unsigned i, uint32_t t) {
  const hwprof_cfg_code_t *code = &c->prog.fn[i].code;
  for (unsigned k = 0; k < code->nrel; k++) {
    const rv32_reloc_t *r = &code->rel[k];
    if (r->target != t || r->where < c->prog.code_lo || r->where >= c->prog.code_hi) continue;
    switch (r->type) { /* a transfer's own field takes no address */
      case R_RISCV_BRANCH:
      case R_RISCV_JAL:
      case R_RISCV_CALL:
      case R_RISCV_CALL_PLT:
      case R_RISCV_PCREL_LO12_I:
      case R_RISCV_PCREL_LO12_S: continue;
      default: return false;
    }
  }
  return true;
}

/* How often edge e of the path graph runs: its count in the measured profile when there is one,
 * else by the loops' guess: twice the loop depth of its target, plus one for a back edge. */
static uint64_t hotness(const hwprof_cfg_func_t *g, const instr_path_t *ip, uint32_t e) {
  if (ip->counts != NULL) return ip->counts[ip->f.cfg_edge[e]];
  const hwprof_cfg_edge_t *x = &g->edge[ip->f.cfg_edge[e]];
  const int l = x->dst >= 0 && g->loop_of ? g->loop_of[x->dst] : -1;
  return 2u * (l >= 0 ? g->loop[l].depth : 0u) + (ip->f.back[e] ? 1u : 0u);
}

/* Whether the indirect jump ending block b can carry its edges' operations itself: every edge it
 * takes has the same one operation (a dispatch leaving a loop for every case). */
static bool indirect_carried(const hwprof_cfg_func_t *g, const pp_func_t *f, const pp_plan_t *p, int b) {
  const pp_op_t *one = NULL;
  for (uint32_t e = 0; e < f->g.nedge; e++) {
    const hwprof_cfg_edge_t *x = &g->edge[f->cfg_edge[e]];
    if (x->src != b || x->kind != HWPROF_CFG_INDIRECT) continue;
    if (p->op_n[e] != 1) return false;
    const pp_op_t *op = &p->op[p->op_first[e]];
    if (one && (one->kind != op->kind || one->a != op->a || one->b != op->b)) return false;
    one = op;
  }
  return one != NULL;
}

/* An indirect jump's edge into the dispatch node: the jump carries its operations, as a jump does.
 * (The node's edge to EXIT, a jump that left the function, has no code to run its operations on:
 * the jump's own count ended the path, and the node alone is no path of blocks.) */
static bool into_dispatch(const hwprof_cfg_func_t *g, const hwprof_cfg_edge_t *x) {
  return x->kind == HWPROF_CFG_INDIRECT && g->dispatch >= 0 && x->dst == g->dispatch;
}

/* Operations on the fall edge out of a block with no other way out and no call move to every way
 * into it, when each is a branch, jump or fall with no operation of its own or only an increment,
 * which the first moved operation takes in (ADD x then COUNT/LEAVE/ENTER/ADD a: a + x; then SET or
 * POP: the increment is overwritten). The block's instructions do not look at the path sum: a latch
 * that falls into its loop's head then counts on the branches that lead to it, which can carry
 * the count. Memory from a; false when it runs out. */
static bool hoist_fall_ops(const hwprof_cfg_fn_t *pf, const pp_func_t *f, pp_plan_t *p, hwprof_arena_t *a) {
  const hwprof_cfg_func_t *g = &pf->cfg;
  for (bool moved = true; moved;) {
    moved = false;
    for (uint32_t e = 0; e < f->g.nedge; e++) {
      const hwprof_cfg_edge_t *x = &g->edge[f->cfg_edge[e]];
      if (x->kind != HWPROF_CFG_FALL || p->op_n[e] == 0 || x->src <= 0) continue;
      unsigned out = 0, in = 0, ok = 0;
      for (unsigned k = 0; k < g->nedge; k++) out += g->edge[k].src == x->src;
      for (uint32_t pe = 0; pe < f->g.nedge; pe++) {
        const hwprof_cfg_edge_t *y = &g->edge[f->cfg_edge[pe]];
        if (y->dst != x->src) continue;
        in++;
        const bool plain = p->op_n[pe] == 0 || (p->op_n[pe] == 1 && p->op[p->op_first[pe]].kind == HWPROF_PATH_OP_ADD);
        ok += (y->kind == HWPROF_CFG_TAKEN || y->kind == HWPROF_CFG_NOT_TAKEN || y->kind == HWPROF_CFG_JUMP ||
               y->kind == HWPROF_CFG_FALL) && plain && !f->back[pe] && f->reach[y->src];
      }
      unsigned all_in = 0; /* the CFG's own count: no virtual or indirect way in either */
      for (unsigned k = 0; k < g->nedge; k++) all_in += g->edge[k].dst == x->src;
      if (out != 1 || in == 0 || ok != in || all_in != in) continue;
      bool call = false;
      for (uint32_t a = g->blk[x->src].start; a < g->blk[x->src].end && !call; a += 4) {
        uint32_t t;
        call = hwprof_cfg_classify(&pf->code, a, hwprof_cfg_word(&pf->code, a), &t) == HWPROF_CF_CALL;
      }
      if (call) continue;
      for (uint32_t pe = 0; pe < f->g.nedge; pe++) {
        if (g->edge[f->cfg_edge[pe]].dst != x->src) continue;
        if (p->op_n[pe] == 0) {
          p->op_first[pe] = p->op_first[e];
          p->op_n[pe] = p->op_n[e];
          continue;
        }
        /* its own increment, folded into the first moved operation: a new list at the end */
        const uint32_t add = p->op[p->op_first[pe]].a, n = p->op_n[e];
        pp_op_t *ops = PP_ALLOC(a, pp_op_t, p->nop + n);
        if (ops == NULL) return false;
        for (uint32_t k = 0; k < p->nop; k++) ops[k] = p->op[k];
        for (uint32_t k = 0; k < n; k++) ops[p->nop + k] = p->op[p->op_first[e] + k];
        pp_op_t *first = &ops[p->nop];
        if (first->kind != HWPROF_PATH_OP_SET && first->kind != HWPROF_PATH_OP_POP)
          first->a = (uint16_t)((first->a + add) & (PP_VAL_MOD - 1u));
        p->op = ops;
        p->op_first[pe] = p->nop;
        p->op_n[pe] = n;
        p->nop += n;
      }
      p->op_n[e] = 0;
      moved = true;
    }
  }
  return true;
}

/* The edges into each block (the entry's calls count: a virtual edge). */
static unsigned *in_degrees(const hwprof_cfg_func_t *g) {
  unsigned *indeg = calloc(g->nblk + 1, sizeof *indeg);
  if (indeg == NULL) return NULL;
  for (unsigned e = 0; e < g->nedge; e++)
    if (g->edge[e].dst >= 0) indeg[g->edge[e].dst]++;
  return indeg;
}

int instr_path_landing_sum(const ctx_t *c, unsigned i, uint32_t call) {
  const fn_t *f = &c->fn[i];
  const hwprof_cfg_func_t *g = &c->prog.fn[i].cfg;
  const uint32_t lo = c->prog.fn[i].code.lo;
  uint16_t sum;
  if (!f->ok || f->path == NULL || call < lo || call >= c->prog.fn[i].code.hi) return -1;
  const int b = g->blk_of[(call - lo) / 4u];
  return b >= 0 && pp_plan_start_sum(&f->path->plan, (uint32_t)b, &sum) ? sum : -1;
}

int instr_path_prepare(ctx_t *c, unsigned i) {
  fn_t *f = &c->fn[i];
  const hwprof_cfg_func_t *g = &c->prog.fn[i].cfg;
  instr_path_t *ip = calloc(1, sizeof *ip);
  if (ip == NULL) ERR("out of memory");
  f->path = ip;
  size_t bytes = ((size_t)64 << 10) + ((size_t)g->nblk + g->nedge + 8u) * (g->nloop + 2u) * 256u;
  pp_status_t st = kPpNoMemory;
  uint64_t *counts = c->weights ? instr_weights_for(c->weights, c->prog.fn[i].code.lo, g) : NULL;
  for (int tries = 0; tries < 6 && st == kPpNoMemory; tries++, bytes *= 2) {
    free(ip->mem);
    if ((ip->mem = malloc(bytes)) == NULL) {
      free(counts);
      ERR("out of memory");
    }
    ip->arena = (hwprof_arena_t){ip->mem, bytes, 0};
    const pp_embodiment_t emb = c->o->paths == kPathsPlain     ? kPpPlain
                                : c->o->paths == kPathsGlobal ? kPpGlobal
                                                              : kPpRegionBased;
    st = pp_plan_cfg(g, emb, counts, &ip->arena, &ip->f, &ip->plan);
  }
  ip->counts = counts;
  if (st != kPpOk) {
    if (st == kPpNoMemory) ERR("out of memory planning the paths of %s", c->prog.fn[i].name);
    if (st == kPpTooManyPaths)
      snprintf(f->why, sizeof f->why, "more path counters than a path sum can index (%u)", (unsigned)PP_MAX_COUNTERS);
    else
      snprintf(f->why, sizeof f->why, "no path numbering: %s", pp_status_str(st));
    f->ok = false;
    instr_path_free(f);
    return 0;
  }
  if (!hoist_fall_ops(&c->prog.fn[i], &ip->f, &ip->plan, &ip->arena)) ERR("out of memory");
  /* every operation must have a place (see the top of this file) */
  unsigned *indeg = in_degrees(g);
  if (indeg == NULL) ERR("out of memory");
  const pp_plan_t *p = &ip->plan;
  for (uint32_t e = 0; e < ip->f.g.nedge && f->ok; e++) {
    const hwprof_cfg_edge_t *x = &g->edge[ip->f.cfg_edge[e]];
    const uint32_t n = p->op_n[e];
    const bool alone = x->dst > 0 && indeg[x->dst] == 1;
    if (n == 0 || hwprof_cfg_is_virtual(x->kind) || into_dispatch(g, x) ||
        (x->kind == HWPROF_CFG_DISPATCH && x->dst == HWPROF_CFG_EXIT))
      continue;
    if ((x->kind == HWPROF_CFG_INDIRECT || x->kind == HWPROF_CFG_DISPATCH) && !alone &&
        !tables_only(c, i, g->blk[x->dst].start) && !(indirect_carried(g, &ip->f, p, x->src) && !c->o->paths_sw)) {
      snprintf(f->why, sizeof f->why, "indirect edge 0x%08" PRIx32 " -> 0x%08" PRIx32 " needs %u path operations, "
               "its target has other ways in and its address is taken by code: no path profile",
               g->blk[x->src].end - 4u, g->blk[x->dst].start, n);
      f->ok = false;
    }
    if (x->kind == HWPROF_CFG_RETURN && (p->op[p->op_first[e] + n - 1u].kind != HWPROF_PATH_OP_COUNT ||
                                         p->op[p->op_first[e] + n - 1u].b != 0)) {
      snprintf(f->why, sizeof f->why, "internal: a return that does not end with a count");
      f->ok = false;
    }
  }
  free(indeg);
  if (!f->ok) {
    instr_path_free(f);
    return 0;
  }
  pm_func_t *pm = &f->pm;
  pm->ncounters = p->ncounters;
  pm->nregions = p->h.nregion;
  pm->base = counters_alloc(c, p->ncounters);
  return 0;
}

/* Where code "before" the transfer at a goes: before its auipc when it is the second half of a call
 * pair (the pair must stay whole). */
static uint32_t before_transfer(const hwprof_cfg_code_t *code, uint32_t a) {
  uint32_t t;
  const uint32_t x = hwprof_cfg_word(code, a);
  if (rv32_opcode(x) == RV32_OP_JALR && a >= code->lo + 4u &&
      rv32_call_pair_at(code->rel, code->nrel, a - 4u, hwprof_cfg_word(code, a - 4u), x, &t))
    return a - 4u;
  return a;
}

/* ---------------------------------------------------------------- emitting the operations */

/* Where code goes: before an instruction (every way to it runs it), after it (its fall-through),
 * on a branch's taken edge (an island), on the indirect way into a block (an island). */
typedef enum { kBefore, kAfter, kTaken, kIndirect } place_t;

typedef struct {
  uint32_t w[512];
  unsigned n;
} seq_t;

static void put(seq_t *q, uint32_t w) {
  if (q->n < sizeof q->w / sizeof q->w[0]) q->w[q->n++] = w;
}

enum { T0 = 5, T1 = 6, T2 = 7, SP = 2 };

/* rd += v (modulo 2^PATH_SUM_W: the sum's bits above do not matter, a count masks them) */
static void add_imm(seq_t *q, unsigned rd, uint32_t v) {
  int32_t x = (int32_t)(v & (PP_VAL_MOD - 1u));
  if (x >= (int32_t)(PP_VAL_MOD / 2u)) x -= (int32_t)PP_VAL_MOD;
  while (x != 0) {
    const int32_t step = x > 2047 ? 2047 : x < -2048 ? -2048 : x;
    put(q, rv32_addi(rd, rd, step));
    x -= step;
  }
}

/* The software-only build (--paths-sw): the same operations as code, the sum at S, the stack
 * pointer at S + 4 and the stack above it, in memory; t0-t2 saved below sp (the psABI keeps no
 * data there). t0 holds S throughout. */
static void sw_count(seq_t *q, uint32_t base, uint32_t a) {
  put(q, rv32_lw(T1, T0, 0));
  add_imm(q, T1, a);
  put(q, rv32_slli(T1, T1, 32u - HWPROF_PATH_SUM_W));
  put(q, rv32_srli(T1, T1, 30u - HWPROF_PATH_SUM_W)); /* (sum + a) mod 2^13, times 4 */
  put(q, rv32_lui(T2, base));
  put(q, rv32_add(T1, T1, T2));
  put(q, rv32_lw(T2, T1, rv32_lo12(base)));
  put(q, rv32_addi(T2, T2, 1));
  put(q, rv32_sw(T2, T1, rv32_lo12(base)));
}
static void sw_set(seq_t *q, uint32_t v) {
  put(q, rv32_addi(T1, 0, 0));
  add_imm(q, T1, v);
  put(q, rv32_sw(T1, T0, 0));
}
static void sw_op(seq_t *q, uint32_t base, const pp_op_t *op) {
  switch (op->kind) {
    case HWPROF_PATH_OP_ADD:
      put(q, rv32_lw(T1, T0, 0));
      add_imm(q, T1, op->a);
      put(q, rv32_sw(T1, T0, 0));
      break;
    case HWPROF_PATH_OP_SET: sw_set(q, op->a); break;
    case HWPROF_PATH_OP_COUNT:
      sw_count(q, base, op->a);
      sw_set(q, op->b);
      break;
    case HWPROF_PATH_OP_ENTER:
      put(q, rv32_lw(T1, T0, 0));
      add_imm(q, T1, op->a);
      put(q, rv32_lw(T2, T0, 4));
      put(q, rv32_sw(T1, T2, 0));
      put(q, rv32_addi(T2, T2, 4));
      put(q, rv32_sw(T2, T0, 4));
      sw_set(q, op->b);
      break;
    case HWPROF_PATH_OP_LEAVE:
    case HWPROF_PATH_OP_POP:
      if (op->kind == HWPROF_PATH_OP_LEAVE) sw_count(q, base, op->a);
      put(q, rv32_lw(T2, T0, 4));
      put(q, rv32_addi(T2, T2, -4));
      put(q, rv32_sw(T2, T0, 4));
      put(q, rv32_lw(T1, T2, 0));
      add_imm(q, T1, op->b);
      put(q, rv32_sw(T1, T0, 0));
      break;
    default: break;
  }
}

static int put_words(ctx_t *c, place_t at, uint32_t addr, uint32_t word, uint32_t shadow) {
  switch (at) {
    case kBefore: return hwprof_rw_before(c->rw, addr, word, shadow);
    case kAfter: return hwprof_rw_after(c->rw, addr, word, shadow);
    case kTaken: return hwprof_rw_on_taken(c->rw, addr, word, shadow);
    default: return hwprof_rw_on_indirect(c->rw, addr, word, shadow);
  }
}

/* The operations ops[0 .. n) at a place: one prof.path each (the word in its shadow word), or in
 * the software-only build one sequence of code. */
static int emit(ctx_t *c, place_t at, uint32_t addr, uint32_t base, const pp_op_t *ops, uint32_t n) {
  if (n == 0) return 0;
  if (!c->o->paths_sw) {
    for (uint32_t k = 0; k < n; k++) {
      c->st.path_inserted++;
      if (put_words(c, at, addr, rv32_prof(HWPROF_PROF_OP_PATH, 0, 0), rv32_path_word(ops[k].kind, ops[k].a, ops[k].b)))
        return -1;
    }
    return 0;
  }
  seq_t q = {.n = 0};
  put(&q, rv32_sw(T0, SP, -4));
  put(&q, rv32_sw(T1, SP, -8));
  put(&q, rv32_sw(T2, SP, -12));
  put(&q, rv32_lui(T0, c->o->path_state_at));
  for (uint32_t k = 0; k < n; k++) sw_op(&q, base, &ops[k]);
  put(&q, rv32_lw(T2, SP, -12));
  put(&q, rv32_lw(T1, SP, -8));
  put(&q, rv32_lw(T0, SP, -4));
  if (q.n == sizeof q.w / sizeof q.w[0]) ERR("internal: a software path sequence too long");
  c->st.path_inserted += n;
  for (unsigned k = 0; k < q.n; k++)
    if (put_words(c, at, addr, q.w[k], 0)) return -1;
  return 0;
}

/* instr_path_place's work; indeg: the edges into each block */
static int place(ctx_t *c, unsigned i, const unsigned *indeg) {
  fn_t *f = &c->fn[i];
  const hwprof_cfg_fn_t *pf = &c->prog.fn[i];
  const hwprof_cfg_func_t *g = &pf->cfg;
  const pp_plan_t *p = &f->path->plan;
  const pp_func_t *pfn = &f->path->f;
  const pm_func_t *pm = &f->pm;
  const bool hw = !c->o->paths_sw;
  /* the entry, for the ways in that neither link nor start (direct calls land behind) */
  if (!f->linked) {
    const pp_op_t set0 = {HWPROF_PATH_OP_SET, 0, 0};
    if (hw && hwprof_rw_before(c->rw, pf->code.lo, rv32_prof(HWPROF_PROF_OP_INIT, 0, 0), pm->base)) return -1;
    if (emit(c, kBefore, pf->code.lo, pm->base, &set0, 1)) return -1;
    if (hw && f->call_started && hwprof_rw_call_skip(c->rw, pf->code.lo, 2))
      ERR("internal: %s: no entry code to skip", pf->name);
  }
  /* operations at the head of the block an edge enters alone, or on a taken edge's or an indirect
   * way's island */
  for (uint32_t e = 0; e < pfn->g.nedge; e++) {
    const hwprof_cfg_edge_t *x = &g->edge[pfn->cfg_edge[e]];
    if (p->op_n[e] == 0 || hwprof_cfg_is_virtual(x->kind)) continue;
    const bool alone = x->dst > 0 && indeg[x->dst] == 1;
    if (into_dispatch(g, x) || (x->kind == HWPROF_CFG_DISPATCH && x->dst == HWPROF_CFG_EXIT))
      continue; /* the jump carries them; see into_dispatch() */
    if (x->kind == HWPROF_CFG_INDIRECT && hw && indirect_carried(g, pfn, p, x->src)) {
      if (hwprof_rw_get_shadow(c->rw, g->blk[x->src].end - 4u) == 0) {
        hwprof_rw_shadow(c->rw, g->blk[x->src].end - 4u, rv32_shadow_path(path_word(&p->op[p->op_first[e]]), false));
        c->st.path_carried++;
      }
      continue;
    }
    if (x->kind == HWPROF_CFG_INDIRECT || x->kind == HWPROF_CFG_DISPATCH ||
        (x->kind == HWPROF_CFG_TAKEN && (p->op_n[e] > 1 || !hw))) {
      const uint32_t to = g->blk[x->dst].start;
      const place_t at = alone ? kBefore : x->kind == HWPROF_CFG_TAKEN ? kTaken : kIndirect;
      if (emit(c, at, at == kTaken ? g->blk[x->src].end - 4u : to, pm->base, &p->op[p->op_first[e]], p->op_n[e]))
        return -1;
    }
  }
  /* calls that may reach profiled code without the hardware saving the sum */
  const pp_op_t enter0 = {HWPROF_PATH_OP_ENTER, 0, 0}, pop0 = {HWPROF_PATH_OP_POP, 0, 0};
  for (uint32_t a = pf->code.lo; a < pf->code.hi; a += 4) {
    uint32_t t;
    if (hwprof_cfg_classify(&pf->code, a, hwprof_cfg_word(&pf->code, a), &t) != HWPROF_CF_CALL ||
        instr_callee_neutral(c, t) || instr_callee_linked(c, t) >= 0)
      continue;
    if (emit(c, kBefore, before_transfer(&pf->code, a), pm->base, &enter0, 1)) return -1;
    /* the POP first: the prof.init after it (which leaves the sum alone) is then the run's last
     * operation, which the next instruction may carry (fold_carriers) */
    if (emit(c, kAfter, a, pm->base, &pop0, 1)) return -1;
    if (hw && !(t == pf->code.lo && instr_self_return_keeps_base(pm)) &&
        hwprof_rw_after(c->rw, a, rv32_prof(HWPROF_PROF_OP_INIT, 0, 0), pm->base))
      return -1;
  }
  /* each block's way out */
  const uint32_t linked_pop = f->linked ? UINT32_C(1) << HWPROF_SHADOW_POP_LSB : 0;
  for (unsigned b = 0; b < g->nblk; b++) {
    const uint32_t term = g->blk[b].end - 4u;
    int tk = -1, nt = -1;
    bool ret = false;
    for (uint32_t e = 0; e < pfn->g.nedge; e++) {
      const hwprof_cfg_edge_t *x = &g->edge[pfn->cfg_edge[e]];
      if (x->src != (int)b || hwprof_cfg_is_virtual(x->kind)) continue;
      if (x->kind == HWPROF_CFG_TAKEN) tk = (int)e;
      else if (x->kind == HWPROF_CFG_NOT_TAKEN) nt = (int)e;
      ret |= x->kind == HWPROF_CFG_RETURN;
      const uint32_t n = p->op_n[e];
      const pp_op_t *op = &p->op[p->op_first[e]];
      switch (into_dispatch(g, x) ? HWPROF_CFG_JUMP : x->kind) {
        case HWPROF_CFG_JUMP:
        case HWPROF_CFG_TAIL:
        case HWPROF_CFG_RETURN: /* the transfer carries the last operation */
          if (n == 0) break;
          if (emit(c, kBefore, before_transfer(&pf->code, term), pm->base, op, hw ? n - 1u : n)) return -1;
          if (!hw) break;
          hwprof_rw_shadow(c->rw, term, x->kind == HWPROF_CFG_RETURN ? rv32_shadow_ret_path(path_word(&op[n - 1]), f->linked)
                                                                     : rv32_shadow_path(path_word(&op[n - 1]), false));
          c->st.path_carried++;
          break;
        case HWPROF_CFG_FALL:
        case HWPROF_CFG_FALL_OUT:
          if (emit(c, kAfter, term, pm->base, op, n)) return -1;
          break;
        default: break; /* branches below; indirect edges above */
      }
    }
    if (ret && hwprof_rw_get_shadow(c->rw, term) == 0) hwprof_rw_shadow(c->rw, term, linked_pop);
    /* a branch: its shadow word carries one edge's operation when that edge has just one: the
     * edge that runs more often (by the measured profile, or by the loops' guess: into a deeper
     * loop, or a back edge), else the taken one. The other's go behind the branch (not taken) or, taken, to the head of a
     * target entered only from here or to an island. */
    if (tk < 0 && nt < 0) continue;
    const bool tk1 = hw && tk >= 0 && p->op_n[tk] == 1, nt1 = hw && nt >= 0 && p->op_n[nt] == 1;
    const bool carry_nt = nt1 && (!tk1 || p->op_n[tk] == 0 || hotness(g, f->path, (uint32_t)nt) > hotness(g, f->path, (uint32_t)tk));
    const bool carry_tk = tk1 && !carry_nt;
    if (carry_tk) hwprof_rw_shadow(c->rw, term, rv32_shadow_path(path_word(&p->op[p->op_first[tk]]), false));
    if (carry_nt) hwprof_rw_shadow(c->rw, term, rv32_shadow_path(path_word(&p->op[p->op_first[nt]]), true));
    c->st.path_carried += carry_tk + carry_nt;
    if (nt >= 0 && !carry_nt && emit(c, kAfter, term, pm->base, &p->op[p->op_first[nt]], p->op_n[nt])) return -1;
    if (tk >= 0 && !carry_tk && p->op_n[tk] == 1 && hw) { /* (several: placed above) */
      const hwprof_cfg_edge_t *x = &g->edge[pfn->cfg_edge[tk]];
      const bool alone = x->dst > 0 && indeg[x->dst] == 1;
      if (emit(c, alone ? kBefore : kTaken, alone ? g->blk[x->dst].start : term, pm->base, &p->op[p->op_first[tk]], 1))
        return -1;
    }
  }
  return 0;
}

int instr_path_place(ctx_t *c, unsigned i) {
  unsigned *indeg = in_degrees(&c->prog.fn[i].cfg);
  if (indeg == NULL) ERR("out of memory");
  const int rc = place(c, i, indeg);
  free(indeg);
  return rc;
}
