/* C model of rtl/path/hwprof_path.sv; see path.h and docs/path.md. */
#include "path/path.h"

#include <string.h>

#define SUM_MASK HWPROF_MASK(HWPROF_PATH_SUM_W)
#define VAL_MASK HWPROF_MASK(HWPROF_PATH_VAL_W)

void hwprof_path_reset(hwprof_path_state_t *s) {
  memset(s, 0, sizeof *s);
  hwprof_prim_regfile_reset(&s->stack);
  hwprof_prim_regfile_reset(&s->link_sum);
}

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

void hwprof_path_comb(const hwprof_path_state_t *s, const hwprof_retire_ev_t *ev, hwprof_path_out_t *out) {
  const uint32_t w = hwprof_path_word_of(ev);
  const unsigned k = kind_of(w);
  out->cnt = k == HWPROF_PATH_OP_COUNT || k == HWPROF_PATH_OP_LEAVE;
  out->cnt_idx = (s->sum + a_of(w)) & SUM_MASK;
}

void hwprof_path_step(hwprof_path_state_t *s, const hwprof_path_in_t *in) {
  const uint32_t w = hwprof_path_word_of(in->ev);
  const unsigned k = kind_of(w);
  /* no path operation, call, return or register write (most events): nothing changes */
  if ((!in->take || k == HWPROF_PATH_OP_NONE) && !in->call && !in->link_we && !in->link_restore && !in->sum_we &&
      !in->stack_we)
    return;
  const uint32_t a = a_of(w), b = b_of(w);
  const hwprof_prim_regfile_cfg_t st_cfg = {HWPROF_PATH_STACK_ENTRIES, HWPROF_PATH_SUM_W};
  const hwprof_prim_regfile_cfg_t ln_cfg = {HWPROF_PIR_LINK_ENTRIES, HWPROF_PATH_SUM_W};
  /* The state before the edge: the scalars and the two words read, taken before the arrays are
   * written in place (one word each at most). */
  const uint32_t sum = s->sum, psp = s->psp;
  const bool push = in->take && k == HWPROF_PATH_OP_ENTER;
  const bool pop = in->take && (k == HWPROF_PATH_OP_LEAVE || k == HWPROF_PATH_OP_POP);
  const bool full = psp >= HWPROF_PATH_STACK_ENTRIES;
  const bool has_top = psp != 0 && psp <= HWPROF_PATH_STACK_ENTRIES;
  const uint32_t top = has_top ? (uint32_t)hwprof_prim_regfile_read(&s->stack, &st_cfg, psp - 1u) : 0u;
  const uint32_t linked = in->link_restore ? (uint32_t)hwprof_prim_regfile_read(&s->link_sum, &ln_cfg, in->link_raddr) : 0u;

  if (in->take) {
    switch (k) {
      case HWPROF_PATH_OP_ADD: s->sum = (sum + a) & SUM_MASK; break;
      case HWPROF_PATH_OP_SET: s->sum = a; break;
      case HWPROF_PATH_OP_COUNT:
      case HWPROF_PATH_OP_ENTER: s->sum = b; break;
      case HWPROF_PATH_OP_LEAVE:
      case HWPROF_PATH_OP_POP: s->sum = (top + b) & SUM_MASK; break;
      default: break; /* NONE, and the reserved operation */
    }
  }
  if (push) {
    if (full) s->perr = true; /* this sum is lost */
    if (psp != 0xffu) s->psp = psp + 1u;
  }
  if (pop) {
    if (psp == 0) s->perr = true; /* nothing to restore */
    else s->psp = psp - 1u;
  }
  if (in->call) s->sum = 0;
  if (in->link_restore) s->sum = linked;
  if (in->sum_we) s->sum = in->sum_wdata & SUM_MASK;
  if (in->stack_we) {
    s->psp = in->stack_depth & 0xffu;
    s->perr = in->stack_err;
  }
  const hwprof_prim_regfile_in_t st_in = {push && !full, psp, (sum + a) & SUM_MASK};
  hwprof_prim_regfile_step(&s->stack, &st_cfg, &st_in);
  const hwprof_prim_regfile_in_t ln_in = {in->link_we, in->link_waddr, sum};
  hwprof_prim_regfile_step(&s->link_sum, &ln_cfg, &ln_in);
}
