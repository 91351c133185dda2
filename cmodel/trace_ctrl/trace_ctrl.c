/* C model of rtl/trace_ctrl/hwprof_trace_ctrl.sv; see trace_ctrl.h and docs/trace_ctrl.md. */
#include "trace_ctrl/trace_ctrl.h"

#include <string.h>

void hwprof_trace_ctrl_cfg_default(hwprof_trace_ctrl_cfg_t *cfg) {
  cfg->hist_w = HWPROF_HISTW_DEFAULT;
  cfg->fifo_depth = HWPROF_TFIFO_DEFAULT;
}

hwprof_result_t hwprof_trace_ctrl_cfg_check(const hwprof_trace_ctrl_cfg_t *cfg) {
  if (cfg == NULL || cfg->hist_w < HWPROF_HISTW_MIN || cfg->hist_w > HWPROF_HISTW_MAX ||
      cfg->fifo_depth < HWPROF_TFIFO_MIN || cfg->fifo_depth > HWPROF_TFIFO_MAX)
    return kHwprofBadArg;
  return kHwprofOk;
}

void hwprof_trace_ctrl_reset(hwprof_trace_ctrl_state_t *s) {
  memset(s, 0, sizeof *s);
  hwprof_trace_ctrl_reg_reset(&s->regs);
  s->cur_hist = 1; /* the marker */
}

/* What the engine shows its register block (read values: only needed in a cycle with an access). */
/* The FIFO primitive's configuration: a record is {start, history}. */
static hwprof_prim_fifo_cfg_t fifo_cfg(const hwprof_trace_ctrl_cfg_t *cfg) {
  return (hwprof_prim_fifo_cfg_t){32u + cfg->hist_w, cfg->fifo_depth, false, false};
}

static void hw2reg_of(const hwprof_trace_ctrl_state_t *s, const hwprof_trace_ctrl_cfg_t *cfg,
                      hwprof_trace_ctrl_hw2reg_t *hw) {
  const hwprof_prim_fifo_cfg_t fcfg = fifo_cfg(cfg);
  hwprof_prim_fifo_out_t f;
  hwprof_prim_fifo_comb(&s->fifo, &fcfg, 0, &f);
  hw->status_fifo_count = f.count;
  hw->status_start_pending = s->pending;
  hw->cur_start_value = s->cur_start;
  hw->cur_hist_value = s->cur_hist;
  hw->last_start_value = s->last_start;
  hw->last_hist_value = s->last_hist;
  hw->sample_count_value = s->count;
  hw->fifo_start_value = (uint32_t)(f.rdata >> cfg->hist_w);
  hw->fifo_hist_value = (uint32_t)(f.rdata & HWPROF_MASK(cfg->hist_w));
  hw->stat_end_backward_value = (uint32_t)hwprof_prim_counters_get(&s->stats, HWPROF_TC_ST_BACK);
  hw->stat_end_indirect_value = (uint32_t)hwprof_prim_counters_get(&s->stats, HWPROF_TC_ST_IND);
  hw->stat_end_full_value = (uint32_t)hwprof_prim_counters_get(&s->stats, HWPROF_TC_ST_FULL);
  hw->stat_filtered_value = (uint32_t)hwprof_prim_counters_get(&s->stats, HWPROF_TC_ST_FILT);
  hw->stat_sampled_value = (uint32_t)hwprof_prim_counters_get(&s->stats, HWPROF_TC_ST_SAMP);
  hw->stat_dropped_value = (uint32_t)hwprof_prim_counters_get(&s->stats, HWPROF_TC_ST_DROP);
}

/* Every field of e but out and idle is set (no memset: it costs more than the cycle). */
static void eval(const hwprof_trace_ctrl_state_t *s, const hwprof_trace_ctrl_cfg_t *cfg, const hwprof_trace_ctrl_in_t *in, hwprof_trace_ctrl_eval_t *e) {
  const hwprof_trace_ctrl_reg_state_t *r = &s->regs;
  const uint32_t hmask = (uint32_t)HWPROF_MASK(cfg->hist_w);
  const hwprof_retire_ev_t *ev = in->ev;
  /* an event retired inside a trap handler (HANDLER, and the reserved 3) is not the program's */
  const bool handler = (ev->trap & 1u) != 0;
  e->entry = ev->trap == HWPROF_TRAP_ENTRY;
  e->active = r->ctrl_enable && in->ev_fire && !handler;
  e->start = (s->pending && e->active) ? ev->pc : s->cur_start;
  bool is_branch = ev->kind == HWPROF_KIND_BRANCH;
  bool is_jump = ev->kind == HWPROF_KIND_JUMP;
  e->ijump = ev->kind == HWPROF_KIND_IJUMP;
  e->backward = ((is_branch && ev->taken) || is_jump) && ev->next_pc <= ev->pc && !e->entry;
  e->hist_shifted = ((s->cur_hist << 1) | (ev->taken ? 1u : 0u)) & hmask;
  e->shift = e->active && is_branch && !e->backward && !e->entry;
  e->full = e->shift && ((e->hist_shifted >> (cfg->hist_w - 1)) & 1u);
  e->end_trace = e->active && (e->backward || e->ijump || e->full || e->entry);
  e->ended_hist = e->full ? e->hist_shifted : s->cur_hist;
  e->in_range = !r->ctrl_filter_en || (e->start >= r->range_lo_value && e->start < r->range_hi_value);
  e->collected = e->end_trace && e->in_range;
  e->sampled = e->collected && (!r->ctrl_sample_en || s->count <= 1);
  e->push = e->sampled && r->ctrl_fifo_mode;
  e->push_ok = e->push && s->fifo.count != cfg->fifo_depth;

  if (in->reg.access) {
    hwprof_trace_ctrl_hw2reg_t hw;
    hw2reg_of(s, cfg, &hw);
    hwprof_trace_ctrl_reg_comb(r, &in->reg, &hw, &e->r2h, &e->rsp);
  } else { /* the register block's strobes and response without an access: all 0 */
    static const hwprof_trace_ctrl_reg2hw_t none;
    e->r2h = none;
    e->rsp = (hwprof_reg_rsp_t){0};
  }
  e->pop = e->r2h.fifo_ctrl_qe && e->r2h.fifo_ctrl_pop && s->fifo.count != 0;
  e->clear = e->r2h.fifo_ctrl_qe && e->r2h.fifo_ctrl_clear;
}

/* At rest and not addressed */
static bool idle(const hwprof_trace_ctrl_state_t *s, const hwprof_trace_ctrl_in_t *in) {
  return hwprof_trace_ctrl_at_rest(s) && !in->reg.access;
}

void hwprof_trace_ctrl_eval(const hwprof_trace_ctrl_state_t *s, const hwprof_trace_ctrl_cfg_t *cfg,
                            const hwprof_trace_ctrl_in_t *in, hwprof_trace_ctrl_eval_t *e) {
  const bool level = hwprof_trace_ctrl_level(s);
  e->idle = idle(s, in);
  if (e->idle) {
    e->out.reg = (hwprof_reg_rsp_t){0};
    e->out.irq = level;
    return;
  }
  eval(s, cfg, in, e);
  e->out.reg = e->rsp;
  e->out.irq = (e->sampled && !s->regs.ctrl_fifo_mode) || level;
}

void hwprof_trace_ctrl_comb(const hwprof_trace_ctrl_state_t *s, const hwprof_trace_ctrl_cfg_t *cfg, const hwprof_trace_ctrl_in_t *in,
                     hwprof_trace_ctrl_out_t *out) {
  hwprof_trace_ctrl_eval_t e;
  hwprof_trace_ctrl_eval(s, cfg, in, &e);
  *out = e.out;
}

void hwprof_trace_ctrl_step(hwprof_trace_ctrl_state_t *s, const hwprof_trace_ctrl_cfg_t *cfg, const hwprof_trace_ctrl_in_t *in) {
  hwprof_trace_ctrl_eval_t e;
  hwprof_trace_ctrl_eval(s, cfg, in, &e);
  hwprof_trace_ctrl_commit(s, cfg, in, &e);
}

void hwprof_trace_ctrl_commit(hwprof_trace_ctrl_state_t *s, const hwprof_trace_ctrl_cfg_t *cfg, const hwprof_trace_ctrl_in_t *in,
                              const hwprof_trace_ctrl_eval_t *e) {
  if (e->idle) return; /* at rest and not addressed: the edge changes nothing */
  const uint32_t hmask = (uint32_t)HWPROF_MASK(cfg->hist_w);
  /* the values read below, taken before anything is written (the FIFO arrays are only written) */
  const uint16_t old_count = s->count, old_reload = (uint16_t)s->regs.sample_reload_value;
  const bool old_sample_en = s->regs.ctrl_sample_en;
  hwprof_trace_ctrl_hw2reg_t hw; /* of the state before the edge */
  if (in->reg.access) hw2reg_of(s, cfg, &hw);

  const hwprof_prim_counters_cfg_t st_cfg = {HWPROF_TC_ST_N, 32};
  const hwprof_prim_counters_in_t st_in = {
      (uint32_t)(e->end_trace && e->backward) << HWPROF_TC_ST_BACK | (uint32_t)(e->end_trace && (e->ijump || e->entry)) << HWPROF_TC_ST_IND |
          (uint32_t)e->full << HWPROF_TC_ST_FULL | (uint32_t)(e->end_trace && !e->in_range) << HWPROF_TC_ST_FILT |
          (uint32_t)e->sampled << HWPROF_TC_ST_SAMP | (uint32_t)(e->push && !e->push_ok) << HWPROF_TC_ST_DROP,
      false,
      (uint32_t)e->r2h.stat_end_backward_qe << HWPROF_TC_ST_BACK | (uint32_t)e->r2h.stat_end_indirect_qe << HWPROF_TC_ST_IND |
          (uint32_t)e->r2h.stat_end_full_qe << HWPROF_TC_ST_FULL | (uint32_t)e->r2h.stat_filtered_qe << HWPROF_TC_ST_FILT |
          (uint32_t)e->r2h.stat_sampled_qe << HWPROF_TC_ST_SAMP | (uint32_t)e->r2h.stat_dropped_qe << HWPROF_TC_ST_DROP,
      in->reg.wdata}; /* the write data, as the RTL's register values all are */
  hwprof_prim_counters_step(&s->stats, &st_cfg, &st_in);

  if (e->active) {
    s->cur_start = e->start;
    s->pending = false;
  }
  if (e->end_trace) {
    s->cur_start = in->ev->next_pc;
    s->cur_hist = 1;
    s->pending = e->entry;
  } else if (e->shift) {
    s->cur_hist = e->hist_shifted;
  }
  if (e->collected && old_sample_en) s->count = (old_count <= 1) ? old_reload : (uint16_t)(old_count - 1u);
  if (e->collected) {
    s->last_start = e->start;
    s->last_hist = e->ended_hist;
  }

  /* register writes win over the event's change to the same register */
  if (e->r2h.cur_start_qe) {
    s->cur_start = e->r2h.cur_start_value;
    s->pending = false;
  }
  if (e->r2h.cur_hist_qe) s->cur_hist = e->r2h.cur_hist_value & hmask;
  if (e->r2h.last_start_qe) s->last_start = e->r2h.last_start_value;
  if (e->r2h.last_hist_qe) s->last_hist = e->r2h.last_hist_value & hmask;
  if (e->r2h.sample_count_qe) s->count = (uint16_t)e->r2h.sample_count_value;
  hwprof_trace_ctrl_reg_step(&s->regs, &in->reg, &hw);

  /* the FIFO: pop and clear act before the push of the same cycle */
  const hwprof_prim_fifo_cfg_t fcfg = fifo_cfg(cfg);
  const hwprof_prim_fifo_in_t fin = {e->pop, e->clear, e->push_ok, (uint64_t)e->start << cfg->hist_w | e->ended_hist, 0};
  hwprof_prim_fifo_step(&s->fifo, &fcfg, &fin);
}
