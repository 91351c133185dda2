/* C model of rtl/hwprof_trace_ctrl.sv; see trace_ctrl.h and docs/trace-ctrl.md. */
#include "trace_ctrl.h"

#include <string.h>

void trace_ctrl_cfg_default(trace_ctrl_cfg_t *cfg) {
  cfg->hist_w = 32;
  cfg->fifo_depth = 8;
}

int trace_ctrl_cfg_check(const trace_ctrl_cfg_t *cfg) {
  if (cfg == NULL || cfg->hist_w < 2 || cfg->hist_w > 32 || cfg->fifo_depth < 1 || cfg->fifo_depth > TC_MAX_FIFO)
    return HWPROF_EINVAL;
  return HWPROF_OK;
}

void trace_ctrl_reset(trace_ctrl_state_t *s) {
  memset(s, 0, sizeof *s);
  s->watermark = 1;
  s->cur_hist = 1; /* the marker */
}

/* The combinational decisions of one cycle. */
typedef struct {
  bool end_trace, backward, ijump, full, shift, in_range, collected, sampled, push, push_ok;
  uint32_t hist_shifted, ended_hist;
  bool reg_hit, reg_ro, reg_we, pop, clear;
  uint32_t reg_rdata;
} tc_eval_t;

static void eval(const trace_ctrl_state_t *s, const trace_ctrl_cfg_t *cfg, const trace_ctrl_in_t *in, tc_eval_t *e) {
  memset(e, 0, sizeof *e);
  const uint32_t hmask = (uint32_t)HWPROF_MASK(cfg->hist_w);
  const retire_ev_t *ev = in->ev;
  bool active = s->enable && in->ev_fire;
  bool is_branch = ev->kind == HWPROF_KIND_BRANCH;
  bool is_jump = ev->kind == HWPROF_KIND_JUMP;
  e->ijump = ev->kind == HWPROF_KIND_IJUMP;
  e->backward = ((is_branch && ev->taken) || is_jump) && ev->next_pc <= ev->pc;
  e->hist_shifted = ((s->cur_hist << 1) | (ev->taken ? 1u : 0u)) & hmask;
  e->shift = active && is_branch && !e->backward;
  e->full = e->shift && ((e->hist_shifted >> (cfg->hist_w - 1)) & 1u);
  e->end_trace = active && (e->backward || e->ijump || e->full);
  e->ended_hist = e->full ? e->hist_shifted : s->cur_hist;
  e->in_range = !s->filter_en || (s->cur_start >= s->range_lo && s->cur_start < s->range_hi);
  e->collected = e->end_trace && e->in_range;
  e->sampled = e->collected && (!s->sample_en || s->count <= 1);
  e->push = e->sampled && s->fifo_mode;
  e->push_ok = e->push && s->fifo_count != cfg->fifo_depth;

  e->reg_hit = true;
  uint32_t r = 0;
  switch (in->reg_addr) {
    case HWPROF_TRACE_CTRL_CTRL_ADDR:
      r = ((uint32_t)s->enable << HWPROF_TRACE_CTRL_CTRL_ENABLE_LSB) |
          ((uint32_t)s->fifo_mode << HWPROF_TRACE_CTRL_CTRL_FIFO_MODE_LSB) |
          ((uint32_t)s->sample_en << HWPROF_TRACE_CTRL_CTRL_SAMPLE_EN_LSB) |
          ((uint32_t)s->filter_en << HWPROF_TRACE_CTRL_CTRL_FILTER_EN_LSB) |
          ((uint32_t)s->watermark << HWPROF_TRACE_CTRL_CTRL_WATERMARK_LSB);
      break;
    case HWPROF_TRACE_CTRL_STATUS_ADDR: e->reg_ro = true; r = s->fifo_count; break;
    case HWPROF_TRACE_CTRL_CUR_START_ADDR: r = s->cur_start; break;
    case HWPROF_TRACE_CTRL_CUR_HIST_ADDR: r = s->cur_hist; break;
    case HWPROF_TRACE_CTRL_LAST_START_ADDR: r = s->last_start; break;
    case HWPROF_TRACE_CTRL_LAST_HIST_ADDR: r = s->last_hist; break;
    case HWPROF_TRACE_CTRL_RANGE_LO_ADDR: r = s->range_lo; break;
    case HWPROF_TRACE_CTRL_RANGE_HI_ADDR: r = s->range_hi; break;
    case HWPROF_TRACE_CTRL_SAMPLE_RELOAD_ADDR: r = s->reload; break;
    case HWPROF_TRACE_CTRL_SAMPLE_COUNT_ADDR: r = s->count; break;
    case HWPROF_TRACE_CTRL_FIFO_START_ADDR: e->reg_ro = true; r = s->fifo_count ? s->fifo_start[s->fifo_head] : 0; break;
    case HWPROF_TRACE_CTRL_FIFO_HIST_ADDR: e->reg_ro = true; r = s->fifo_count ? s->fifo_hist[s->fifo_head] : 0; break;
    case HWPROF_TRACE_CTRL_FIFO_CTRL_ADDR: break;
    case HWPROF_TRACE_CTRL_STAT_END_BACKWARD_ADDR: e->reg_ro = true; r = s->st_back; break;
    case HWPROF_TRACE_CTRL_STAT_END_INDIRECT_ADDR: e->reg_ro = true; r = s->st_ind; break;
    case HWPROF_TRACE_CTRL_STAT_END_FULL_ADDR: e->reg_ro = true; r = s->st_full; break;
    case HWPROF_TRACE_CTRL_STAT_FILTERED_ADDR: e->reg_ro = true; r = s->st_filt; break;
    case HWPROF_TRACE_CTRL_STAT_SAMPLED_ADDR: e->reg_ro = true; r = s->st_samp; break;
    case HWPROF_TRACE_CTRL_STAT_DROPPED_ADDR: e->reg_ro = true; r = s->st_drop; break;
    default: e->reg_hit = false; break;
  }
  e->reg_rdata = r;
  e->reg_we = in->reg_access && in->reg_write && e->reg_hit && !e->reg_ro;
  bool fifo_ctrl = e->reg_we && in->reg_addr == HWPROF_TRACE_CTRL_FIFO_CTRL_ADDR;
  e->pop = fifo_ctrl && ((in->reg_wdata >> HWPROF_TRACE_CTRL_FIFO_CTRL_POP_LSB) & 1u) && s->fifo_count != 0;
  e->clear = fifo_ctrl && ((in->reg_wdata >> HWPROF_TRACE_CTRL_FIFO_CTRL_CLEAR_LSB) & 1u);
}

/* FIFO occupancy after pop, clear and push, and the slot of the push (from the current head and
 * count, read before anything is written) */
static unsigned fifo_next(unsigned head0, unsigned count0, const trace_ctrl_cfg_t *cfg, const tc_eval_t *e,
                          unsigned *head, unsigned *slot) {
  unsigned h = head0, n = count0;
  if (e->pop) {
    h = (h == cfg->fifo_depth - 1u) ? 0 : h + 1u;
    n--;
  }
  if (e->clear) n = 0;
  unsigned sl = (h + n) & 0xffu;
  if (sl >= cfg->fifo_depth) sl -= cfg->fifo_depth;
  if (e->push_ok) n++;
  *head = h;
  *slot = sl;
  return n;
}

void trace_ctrl_comb(const trace_ctrl_state_t *s, const trace_ctrl_cfg_t *cfg, const trace_ctrl_in_t *in,
                     trace_ctrl_out_t *out) {
  tc_eval_t e;
  eval(s, cfg, in, &e);
  out->reg_rdata = (in->reg_access && !in->reg_write && e.reg_hit) ? e.reg_rdata : 0;
  out->reg_error = in->reg_access && (!e.reg_hit || (in->reg_write && e.reg_ro));
  /* FIFO mode: a level while the FIFO holds at least the watermark (see the RTL) */
  unsigned wm = s->watermark ? s->watermark : 1u;
  out->irq = (e.sampled && !s->fifo_mode) || (s->fifo_mode && s->fifo_count >= wm);
}

void trace_ctrl_step(trace_ctrl_state_t *s, const trace_ctrl_cfg_t *cfg, const trace_ctrl_in_t *in) {
  tc_eval_t e;
  eval(s, cfg, in, &e);
  const uint32_t hmask = (uint32_t)HWPROF_MASK(cfg->hist_w);
  /* the values read below, taken before anything is written (the FIFO arrays are only written) */
  const uint32_t old_start = s->cur_start;
  const uint16_t old_count = s->count, old_reload = s->reload;
  const bool old_sample_en = s->sample_en;
  const unsigned old_head = s->fifo_head, old_fifo_count = s->fifo_count;

  s->st_back += e.end_trace && e.backward;
  s->st_ind += e.end_trace && e.ijump;
  s->st_full += e.full;
  s->st_filt += e.end_trace && !e.in_range;
  s->st_samp += e.sampled;
  s->st_drop += e.push && !e.push_ok;

  if (e.end_trace) {
    s->cur_start = in->ev->next_pc;
    s->cur_hist = 1;
  } else if (e.shift) {
    s->cur_hist = e.hist_shifted;
  }
  if (e.collected && old_sample_en) s->count = (old_count <= 1) ? old_reload : (uint16_t)(old_count - 1u);
  if (e.sampled) {
    s->last_start = old_start;
    s->last_hist = e.ended_hist;
  }

  if (e.reg_we) {
    uint32_t w = in->reg_wdata;
    switch (in->reg_addr) {
      case HWPROF_TRACE_CTRL_CTRL_ADDR:
        s->enable = (w >> HWPROF_TRACE_CTRL_CTRL_ENABLE_LSB) & 1u;
        s->fifo_mode = (w >> HWPROF_TRACE_CTRL_CTRL_FIFO_MODE_LSB) & 1u;
        s->sample_en = (w >> HWPROF_TRACE_CTRL_CTRL_SAMPLE_EN_LSB) & 1u;
        s->filter_en = (w >> HWPROF_TRACE_CTRL_CTRL_FILTER_EN_LSB) & 1u;
        s->watermark = (uint8_t)(w >> HWPROF_TRACE_CTRL_CTRL_WATERMARK_LSB);
        break;
      case HWPROF_TRACE_CTRL_CUR_START_ADDR: s->cur_start = w; break;
      case HWPROF_TRACE_CTRL_CUR_HIST_ADDR: s->cur_hist = w & hmask; break;
      case HWPROF_TRACE_CTRL_LAST_START_ADDR: s->last_start = w; break;
      case HWPROF_TRACE_CTRL_LAST_HIST_ADDR: s->last_hist = w & hmask; break;
      case HWPROF_TRACE_CTRL_RANGE_LO_ADDR: s->range_lo = w; break;
      case HWPROF_TRACE_CTRL_RANGE_HI_ADDR: s->range_hi = w; break;
      case HWPROF_TRACE_CTRL_SAMPLE_RELOAD_ADDR: s->reload = (uint16_t)w; break;
      case HWPROF_TRACE_CTRL_SAMPLE_COUNT_ADDR: s->count = (uint16_t)w; break;
      default: break;
    }
  }

  unsigned head, slot;
  s->fifo_count = fifo_next(old_head, old_fifo_count, cfg, &e, &head, &slot);
  s->fifo_head = head;
  if (e.push_ok) {
    s->fifo_start[slot] = old_start;
    s->fifo_hist[slot] = e.ended_hist;
  }
}
