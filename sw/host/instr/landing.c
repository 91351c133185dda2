/* Non-local exits (docs/instrumenter.md, "setjmp and longjmp"): after every direct call of a
 * function that returns twice (setjmp and its kin: hwprof_cfg_returns_twice()), code that on the
 * first return saves how deep the pir's stacks are and on a later one (a longjmp landing) cuts them
 * back to that, so that the frames the jump abandoned are never popped into the caller's profile.
 * Part of the instrumenter (instrument.c drives it; instr_ctx.h).
 *
 * The saved depths go into a table in memory after the spill areas, one 16-byte entry
 *   {sp, call site, link stack's frames, path stack's entries}
 * per frame, at (sp >> 4) mod INSTR_LANDING_ENTRIES. A frame's stack pointer is the same at both
 * returns (longjmp restores it), and no two live frames share one, so the entry is the frame's
 * unless a live frame 16 KiB away, or a call of setjmp at another site of the same frame, took its
 * slot since: the landing then finds another key and sets the stacks' sticky errors (LINK.ERR,
 * PATH_STACK.ERR), so the profile is refused, never wrong. Frames are counted as a whole, in the pir and in memory (DEPTH + LINES):
 * the frames below the landing are intact wherever they are, in the ring (then its count is cut)
 * or in the spill area (then the ring is emptied and LINES cut). The caller's base and offset
 * come back by the restore after the call, which these calls always get (the callee is never
 * linked nor neutral); the software-only path build keeps its stack pointer in memory instead. */
#include <inttypes.h>
#include <string.h>

#include "autogen/hwprof_regs.h"
#include "instr_ctx.h"
#include "rv32_isa.h"

enum { ZERO = 0, SP = 2, T0 = 5, T1 = 6, T2 = 7, A0 = 10, A1 = 11, A2 = 12, A3 = 13, T3 = 28, T4 = 29, T5 = 30, T6 = 31 };
enum { BNE = 1, BLTU = 6 };
/* the link and path stacks' registers share their layout: a depth and a sticky error, a limit and
 * the lines in memory */
_Static_assert(HWPROF_PIR_LINK_DEPTH_MASK == HWPROF_PIR_PATH_STACK_DEPTH_MASK &&
                   HWPROF_PIR_LINK_ERR_LSB == HWPROF_PIR_PATH_STACK_ERR_LSB &&
                   HWPROF_PIR_LINK_SPILL_LINES_LSB == HWPROF_PIR_PATH_SPILL_LINES_LSB,
               "the link and path stacks' registers differ: count_stack() and cut_stack() take one layout");

/* a straight sequence with forward labels (branch and jump offsets fixed up at the end) */
enum { kMaxWords = 96, kMaxFix = 16, kLabels = 8 };
typedef struct {
  unsigned at, label;
} fix_t;
typedef struct {
  uint32_t w[kMaxWords];
  unsigned n;
  fix_t fix[kMaxFix];
  unsigned nfix;
  int label[kLabels];
} seq_t;
enum { L_LAND, L_BAD, L_END, L_MEM_LINK, L_NEXT_LINK, L_MEM_PATH, L_NEXT_PATH, L_RING_PATH };

static void put(seq_t *q, uint32_t w) {
  if (q->n < kMaxWords) q->w[q->n] = w;
  q->n++;
}
static void to(seq_t *q, uint32_t w, unsigned label) { /* a branch or jal to a label */
  if (q->nfix < kMaxFix) q->fix[q->nfix++] = (fix_t){q->n, label};
  put(q, w);
}
static void here(seq_t *q, unsigned label) { q->label[label] = (int)q->n; }
static void li(seq_t *q, unsigned rd, uint32_t v) {
  put(q, rv32_lui(rd, v));
  if (rv32_lo12(v)) put(q, rv32_addi(rd, rd, rv32_lo12(v)));
}

/* t3 <- a stack's whole count (its DEPTH field + its spill area's LINES), from the registers at
 * t0 + reg and t0 + spill */
static void count_stack(seq_t *q, unsigned rd, int32_t reg, int32_t spill) {
  put(q, rv32_lw(T3, T0, reg));
  put(q, rv32_andi(T3, T3, HWPROF_PIR_LINK_DEPTH_MASK));
  put(q, rv32_lw(T4, T0, spill));
  put(q, rv32_srli(T4, T4, HWPROF_PIR_LINK_SPILL_LINES_LSB));
  put(q, rv32_add(rd, T3, T4));
}

/* the stack at t0 + reg (DEPTH, ERR) and t0 + spill (LIMIT, LINES) cut back to tot entries in all,
 * its sticky error kept */
static void cut_stack(seq_t *q, unsigned tot, int32_t reg, int32_t spill, unsigned mem, unsigned next) {
  put(q, rv32_lw(T4, T0, spill));
  put(q, rv32_srli(A1, T4, HWPROF_PIR_LINK_SPILL_LINES_LSB)); /* the entries in memory now */
  put(q, rv32_lw(T3, T0, reg));
  put(q, rv32_andi(T3, T3, 1 << HWPROF_PIR_LINK_ERR_LSB));
  to(q, rv32_branch(BLTU, tot, A1, 0), mem);
  put(q, rv32_sub(A1, tot, A1)); /* those in memory stay; the ring keeps its oldest */
  put(q, rv32_or(T3, T3, A1));
  put(q, rv32_sw(T3, T0, reg));
  to(q, rv32_jal(ZERO, 0), next);
  here(q, mem); /* the landing's frames are all in memory: the ring empties, LINES is cut */
  put(q, rv32_slli(A1, tot, HWPROF_PIR_LINK_SPILL_LINES_LSB));
  put(q, rv32_slli(T4, T4, 32 - HWPROF_PIR_LINK_SPILL_LINES_LSB));
  put(q, rv32_srli(T4, T4, 32 - HWPROF_PIR_LINK_SPILL_LINES_LSB));
  put(q, rv32_or(T4, T4, A1));
  put(q, rv32_sw(T4, T0, spill));
  put(q, rv32_sw(T3, T0, reg));
  here(q, next);
}

/* the path stack cut back to tot entries (tot >= 1: the call's own bracket pushed one), its top
 * entry, which the POP after the call gives back, set to the sum in a2 */
static void cut_path_stack_top(seq_t *q, unsigned tot, unsigned ring) {
  put(q, rv32_lw(T4, T0, HWPROF_PIR_PATH_SPILL_ADDR));
  put(q, rv32_srli(A1, T4, HWPROF_PIR_PATH_SPILL_LINES_LSB)); /* the entries in memory now */
  put(q, rv32_lw(T3, T0, HWPROF_PIR_PATH_STACK_ADDR));
  put(q, rv32_andi(T3, T3, 1 << HWPROF_PIR_PATH_STACK_ERR_LSB));
  to(q, rv32_branch(BLTU, A1, tot, 0), ring);
  /* all of them in memory: those below the top stay there, the top comes into the ring alone */
  put(q, rv32_addi(A1, tot, -1));
  put(q, rv32_slli(A3, A1, HWPROF_PIR_PATH_SPILL_LINES_LSB));
  put(q, rv32_slli(T4, T4, 32 - HWPROF_PIR_PATH_SPILL_LINES_LSB));
  put(q, rv32_srli(T4, T4, 32 - HWPROF_PIR_PATH_SPILL_LINES_LSB));
  put(q, rv32_or(T4, T4, A3));
  put(q, rv32_sw(T4, T0, HWPROF_PIR_PATH_SPILL_ADDR));
  here(q, ring);
  put(q, rv32_sub(A1, tot, A1)); /* the entries the ring keeps, its oldest */
  put(q, rv32_or(T3, T3, A1));
  put(q, rv32_sw(T3, T0, HWPROF_PIR_PATH_STACK_ADDR));
  put(q, rv32_addi(A1, A1, -1));
  put(q, rv32_sw(A1, T0, HWPROF_PIR_PATH_ENTRY_SEL_ADDR));
  put(q, rv32_sw(A2, T0, HWPROF_PIR_PATH_ENTRY_ADDR));
}

static void set_err(seq_t *q, int32_t reg) {
  put(q, rv32_lw(T3, T0, reg));
  put(q, rv32_ori(T3, T3, 1 << HWPROF_PIR_LINK_ERR_LSB));
  put(q, rv32_sw(T3, T0, reg));
}

/* The code after the call at a (original address) to a function that returns twice. At that point
 * only a0 (the value returned) and sp are live among the caller-saved registers: t0-t6 and a1-a3
 * are free. Both returns end at one last instruction (the entry's link count written again), so
 * the call's way into the next block is one transfer, whichever return it was. path_sum >= 0: the
 * function has a path profile, and a landing starts its path at the call's block with that sum
 * (instr_path_landing_sum), by way of the bracket's POP after the call. */
static int landing_code(ctx_t *c, uint32_t a, int path_sum, seq_t *q) {
  const bool link = c->o->linked_calls && !c->o->paths_sw;
  const bool path_hw = c->o->paths != kPathsNone && !c->o->paths_sw, path_sw = c->o->paths_sw;
  const uint32_t table = instr_landing_at(c);
  memset(q, 0, sizeof *q);
  for (unsigned k = 0; k < kLabels; k++) q->label[k] = -1;
  if (link || path_hw) li(q, T0, c->o->hwprof_base);
  li(q, T2, a); /* the call site: the entry's key is sp and the site */
  put(q, rv32_srli(T1, SP, 4));
  put(q, rv32_andi(T1, T1, INSTR_LANDING_ENTRIES - 1));
  put(q, rv32_slli(T1, T1, 4));
  put(q, rv32_lui(T3, table));
  put(q, rv32_add(T1, T1, T3));
  to(q, rv32_branch(BNE, A0, ZERO, 0), L_LAND);
  /* the first return: the frame's key and its stacks' counts */
  put(q, rv32_sw(SP, T1, 0));
  put(q, rv32_sw(T2, T1, 4));
  if (link) count_stack(q, T5, HWPROF_PIR_LINK_ADDR, HWPROF_PIR_LINK_SPILL_ADDR);
  else put(q, rv32_addi(T5, ZERO, 0));
  if (path_hw) {
    count_stack(q, T6, HWPROF_PIR_PATH_STACK_ADDR, HWPROF_PIR_PATH_SPILL_ADDR);
    put(q, rv32_sw(T6, T1, 12));
  }
  if (path_sw) {
    put(q, rv32_lui(T3, c->o->path_state_at));
    put(q, rv32_lw(T6, T3, 4));
    put(q, rv32_sw(T6, T1, 12));
  }
  to(q, rv32_jal(ZERO, 0), L_END);
  /* the landing: the entry must be this frame's */
  here(q, L_LAND);
  put(q, rv32_lw(T5, T1, 8));
  put(q, rv32_lw(T3, T1, 0));
  to(q, rv32_branch(BNE, T3, SP, 0), L_BAD);
  put(q, rv32_lw(T3, T1, 4));
  to(q, rv32_branch(BNE, T3, T2, 0), L_BAD);
  if (link) cut_stack(q, T5, HWPROF_PIR_LINK_ADDR, HWPROF_PIR_LINK_SPILL_ADDR, L_MEM_LINK, L_NEXT_LINK);
  if (path_hw) {
    put(q, rv32_lw(T6, T1, 12));
    if (path_sum >= 0) {
      li(q, A2, (uint32_t)path_sum);
      cut_path_stack_top(q, T6, L_RING_PATH);
    } else {
      cut_stack(q, T6, HWPROF_PIR_PATH_STACK_ADDR, HWPROF_PIR_PATH_SPILL_ADDR, L_MEM_PATH, L_NEXT_PATH);
    }
  }
  if (path_sw) {
    put(q, rv32_lw(T6, T1, 12));
    put(q, rv32_lui(T3, c->o->path_state_at));
    put(q, rv32_sw(T6, T3, 4));
    if (path_sum >= 0) { /* the top entry, below the stack pointer */
      li(q, A2, (uint32_t)path_sum);
      put(q, rv32_sw(A2, T6, -4));
    }
  }
  to(q, rv32_jal(ZERO, 0), L_END);
  /* another frame's entry: the profile cannot be exact from here on, and says so */
  here(q, L_BAD);
  if (link) set_err(q, HWPROF_PIR_LINK_ADDR);
  if (path_hw) set_err(q, HWPROF_PIR_PATH_STACK_ADDR);
  if (path_sw) put(q, 0); /* no error flag in the software-only build: stop loudly (illegal instruction) */
  here(q, L_END);
  put(q, rv32_sw(T5, T1, 8));
  if (q->n > kMaxWords || q->nfix > kMaxFix) ERR("internal: the landing code is too long");
  for (unsigned k = 0; k < q->nfix; k++) {
    const unsigned at = q->fix[k].at;
    const int32_t off = 4 * (q->label[q->fix[k].label] - (int)at);
    if (q->label[q->fix[k].label] < 0) ERR("internal: a landing label left unplaced");
    q->w[at] = rv32_opcode(q->w[at]) == RV32_OP_JAL ? rv32_set_j(q->w[at], off) : rv32_set_b(q->w[at], off);
  }
  return 0;
}

int instr_plan_landings(ctx_t *c, unsigned i) {
  const hwprof_cfg_code_t *code = &c->prog.fn[i].code;
  for (uint32_t a = code->lo; a < code->hi; a += 4) {
    if (!hwprof_cfg_twice_call_at(code, a)) continue;
    seq_t q;
    if (landing_code(c, a, c->o->paths != kPathsNone ? instr_path_landing_sum(c, i, a) : -1, &q)) return -1;
    for (unsigned k = 0; k < q.n; k++)
      if (hwprof_rw_after(c->rw, a, q.w[k], 0)) ERR("out of memory");
    c->st.landings++;
  }
  return 0;
}
