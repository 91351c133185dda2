/* C model of rtl/path/hwprof_path.sv; see path.h and docs/path.md. */
#include "path/path.h"

#include <string.h>

#define SUM_MASK HWPROF_MASK(HWPROF_PATH_SUM_W)
#define VAL_MASK HWPROF_MASK(HWPROF_PATH_VAL_W)
#define N HWPROF_PATH_STACK_ENTRIES
#define RING(x) ((x) % N)

void hwprof_path_reset(hwprof_path_state_t *s) { memset(s, 0, sizeof *s); }

static bool is_xfer(const hwprof_retire_ev_t *ev) {
  return ev->kind == HWPROF_KIND_BRANCH || ev->kind == HWPROF_KIND_JUMP || ev->kind == HWPROF_KIND_IJUMP;
}

uint32_t hwprof_path_word_of(const hwprof_retire_ev_t *ev) {
  const bool word = (ev->kind == HWPROF_KIND_PROF && ev->op == HWPROF_PROF_OP_PATH) ||
                    (is_xfer(ev) && !ev->is_call && ev->op == HWPROF_PROF_OP_PATH) ||
                    (is_xfer(ev) && ev->kind != HWPROF_KIND_BRANCH && ev->is_ret && ev->op == HWPROF_PROF_OP_POP);
  return word ? (uint32_t)(ev->operand & 0xffffffffu) : 0u;
}

static unsigned kind_of(uint32_t w) { return (w >> HWPROF_PATH_KIND_LSB) & 7u; }
static uint32_t a_of(uint32_t w) { return (w >> HWPROF_PATH_A_LSB) & VAL_MASK; }
static uint32_t b_of(uint32_t w) { return (w >> HWPROF_PATH_B_LSB) & VAL_MASK; }
static bool is_pop(unsigned k) { return k == HWPROF_PATH_OP_LEAVE || k == HWPROF_PATH_OP_POP; }

/* The presented event needs its entry spilled (a push on a full stack with room in the area) or
 * filled (a pop with no entry held and one in memory). */
static bool spill_need(const hwprof_path_state_t *s, unsigned line_shift, unsigned k) {
  const uint32_t cap = s->limit << (6u - line_shift); /* the lines the area's 64-byte blocks hold */
  return k == HWPROF_PATH_OP_ENTER && s->psp >= N && s->lines < cap && s->lines != 0xffffu;
}
static bool fill_need(const hwprof_path_state_t *s, unsigned k) { return is_pop(k) && s->psp == 0 && s->lines != 0; }

bool hwprof_path_quiet(const hwprof_path_state_t *s, unsigned line_shift, const hwprof_retire_ev_t *ev) {
  if (s->req || s->rwait) return false;
  if (!ev->valid || (s->limit == 0 && s->lines == 0) || (s->psp != 0 && s->psp < N)) return true;
  const unsigned k = kind_of(hwprof_path_word_of(ev));
  return (ev->trap & 1u) || !(spill_need(s, line_shift, k) || fill_need(s, k));
}

void hwprof_path_comb(const hwprof_path_state_t *s, unsigned line_shift, const hwprof_retire_ev_t *ev, bool prog,
                      hwprof_path_out_t *out) {
  const uint32_t w = hwprof_path_word_of(ev);
  const unsigned k = kind_of(w);
  out->cnt = k == HWPROF_PATH_OP_COUNT || k == HWPROF_PATH_OP_LEAVE;
  out->cnt_idx = (s->sum + a_of(w)) & SUM_MASK;
  out->stall = ev->valid && prog && (spill_need(s, line_shift, k) || fill_need(s, k));
}

void hwprof_path_step(hwprof_path_state_t *s, unsigned line_shift, const hwprof_path_in_t *in) {
  const uint32_t w = hwprof_path_word_of(in->ev);
  const unsigned k = kind_of(w);
  /* no path operation, call, return, memory activity or register write (most events): nothing changes */
  if ((!in->take || k == HWPROF_PATH_OP_NONE) && !in->call && !in->link_restore && !in->sum_we && !in->stack_we &&
      !in->mem_grant && !s->req && !s->rwait && !in->spill_lo_we && !in->spill_hi_we && !in->spill_we && !in->sel_we &&
      !in->entry_we)
    return;
  const uint32_t a = a_of(w), b = b_of(w);
  /* The state before the edge (every scalar, and the words read of the arrays). */
  const hwprof_path_state_t q = *s;
  const bool push = in->take && k == HWPROF_PATH_OP_ENTER;
  const bool pop = in->take && is_pop(k);
  const bool full = q.psp >= N;
  const bool has_top = q.psp != 0 && q.psp <= N;
  const uint32_t top = q.stack[RING(q.bot + q.psp - 1u)];
  const bool spill = spill_need(&q, line_shift, k);

  /* the memory side: a granted request (its line, from the state of the grant), its acceptance,
   * a fill's answer */
  if (in->mem_grant) {
    s->req = true;
    s->rwr = spill;
    const uint64_t line = spill ? q.lines : (q.lines - 1u) & 0xffffu;
    s->raddr = (((q.sbase >> line_shift) << line_shift) + (line << line_shift)) & HWPROF_MASK(HWPROF_PIR_BASE_W);
    s->rdata = q.stack[q.bot];
  }
  if (q.req && in->mem_req_ready) {
    s->req = false;
    s->raddr = 0;
    s->rdata = 0;
    s->rwait = !q.rwr;
  }
  /* (the counts saturate: a register write may have changed them while the line was on its way) */
  if (q.req && q.rwr && in->mem_req_ready) { /* the oldest entry is in memory: its place is free */
    s->bot = RING(q.bot + 1u);
    s->psp = q.psp == 0 ? 0 : q.psp - 1u;
    s->lines = q.lines == 0xffffu ? q.lines : q.lines + 1u;
  }
  const bool filled = q.rwait && in->mem_rsp_valid;
  if (filled) { /* the newest spilled entry is back, where a push would go (the ring is empty) */
    s->rwait = false;
    s->psp = q.psp == 0xffu ? q.psp : q.psp + 1u;
    s->lines = q.lines == 0 ? 0 : q.lines - 1u;
  }

  if (in->take) {
    switch (k) {
      case HWPROF_PATH_OP_ADD: s->sum = (q.sum + a) & SUM_MASK; break;
      case HWPROF_PATH_OP_SET: s->sum = a; break;
      case HWPROF_PATH_OP_COUNT:
      case HWPROF_PATH_OP_ENTER: s->sum = b; break;
      case HWPROF_PATH_OP_LEAVE:
      case HWPROF_PATH_OP_POP: s->sum = ((has_top ? top : 0u) + b) & SUM_MASK; break;
      default: break; /* NONE, and the reserved operation */
    }
  }
  /* a push that finds room, or a fill's answer, writes the entry above the ones held (one writer) */
  if ((push && !full) || filled)
    s->stack[RING(q.bot + q.psp)] = (uint16_t)((filled ? in->mem_rsp_rdata : q.sum + a) & SUM_MASK);
  if (push) {
    if (full) s->perr = true; /* this sum is lost */
    if (q.psp != 0xffu) s->psp = q.psp + 1u;
  }
  if (pop) {
    if (q.psp == 0) s->perr = true; /* nothing to restore */
    else s->psp = q.psp - 1u;
  }
  if (in->call) s->sum = 0;
  if (in->link_restore) s->sum = in->link_sum & SUM_MASK;
  /* register writes (they never meet an accepted event) */
  if (in->sum_we) s->sum = in->sum_wdata & SUM_MASK;
  if (in->stack_we) {
    s->psp = in->stack_depth & 0xffu;
    s->perr = in->stack_err;
  }
  if (in->spill_lo_we) s->sbase = (s->sbase & ~(uint64_t)0xffffffffu) | in->spill_lo;
  if (in->spill_hi_we)
    s->sbase = (s->sbase & 0xffffffffu) | ((uint64_t)(in->spill_hi & HWPROF_MASK(HWPROF_PIR_BASE_W - 32)) << 32);
  if (in->spill_we) {
    s->limit = in->spill_limit & 0xffffu;
    s->lines = in->spill_lines & 0xffffu;
  }
  if (in->sel_we) s->sel = in->sel & (N - 1u);
  if (in->entry_we) s->stack[RING(q.bot + q.sel)] = (uint16_t)(in->entry_wdata & SUM_MASK);
}
