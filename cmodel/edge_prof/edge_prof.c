/* C model of rtl/edge_prof/hwprof_edge_prof.sv; see edge_prof.h and docs/edge_prof.md.
 *
 * hwprof_edge_prof_step() first decides everything from the current state (as the RTL's always_comb reads
 * only _q values), then writes the next state in place: the state is large, and copying it every
 * cycle would dominate the model's speed. */
#include "edge_prof/edge_prof.h"

#include <string.h>

#define ADDR_MASK HWPROF_MASK(HWPROF_PIR_BASE_W)

static const hwprof_line_t zero_line; /* the write data while no line is written */

enum { ST_IDLE = 0, ST_WB = 1, ST_FILL = 2, ST_FILL_WAIT = 3, ST_WALK = 4, ST_WALK_WB = 5 };

/* log2 of a power of two (every size it is asked for: hwprof_edge_prof_cfg_check) */
static unsigned log2u(unsigned v) { return (unsigned)__builtin_ctz(v); }

static bool pow2_in(unsigned v, unsigned lo, unsigned hi) {
  return v >= lo && v <= hi && (v & (v - 1u)) == 0;
}

void hwprof_edge_prof_cfg_default(hwprof_edge_prof_cfg_t *cfg) {
  cfg->cnt_w = HWPROF_CNTW_DEFAULT; /* the defaults and ranges come from regs/encodings.json */
  cfg->upd_depth = HWPROF_UPDDEPTH_DEFAULT;
  cfg->sets = HWPROF_SETS_DEFAULT;
  cfg->ways = HWPROF_WAYS_DEFAULT;
  cfg->line_words = HWPROF_LINEWORDS_DEFAULT;
  cfg->oab_depth = HWPROF_OABDEPTH_DEFAULT;
}

hwprof_result_t hwprof_edge_prof_cfg_check(const hwprof_edge_prof_cfg_t *cfg) {
  if (cfg == NULL) return kHwprofBadArg;
  if (cfg->cnt_w != 8 && cfg->cnt_w != 16 && cfg->cnt_w != 32 && cfg->cnt_w != 64) return kHwprofBadArg;
  if (cfg->upd_depth < HWPROF_UPDDEPTH_MIN || cfg->upd_depth > HWPROF_UPDDEPTH_MAX) return kHwprofBadArg;
  if (!pow2_in(cfg->sets, HWPROF_SETS_MIN, HWPROF_SETS_MAX)) return kHwprofBadArg;
  if (cfg->ways < HWPROF_WAYS_MIN || cfg->ways > HWPROF_WAYS_MAX) return kHwprofBadArg;
  if (!pow2_in(cfg->line_words, HWPROF_LINEWORDS_MIN, HWPROF_LINEWORDS_MAX)) return kHwprofBadArg;
  if (cfg->oab_depth < HWPROF_OABDEPTH_MIN || cfg->oab_depth > HWPROF_OABDEPTH_MAX) return kHwprofBadArg;
  return kHwprofOk;
}

void hwprof_edge_prof_reset(hwprof_edge_prof_state_t *s) {
  memset(s, 0, sizeof *s);
  hwprof_edge_prof_reg_reset(&s->regs);
}

/* The bounds window and the OAB entry shown, held by the register block. */
static uint64_t bound_lo(const hwprof_edge_prof_state_t *s) {
  return ((uint64_t)s->regs.bound_lo_hi_value << 32) | s->regs.bound_lo_lo_value;
}
static uint64_t bound_hi(const hwprof_edge_prof_state_t *s) {
  return ((uint64_t)s->regs.bound_hi_hi_value << 32) | s->regs.bound_hi_lo_value;
}

static hwprof_ep_addr_t split(const hwprof_edge_prof_cfg_t *cfg, uint64_t addr) {
  unsigned cnt_shift = log2u(cfg->cnt_w / 8u);
  unsigned word_w = log2u(cfg->line_words);
  unsigned set_w = log2u(cfg->sets);
  hwprof_ep_addr_t a;
  a.word = (unsigned)(addr >> cnt_shift) & (cfg->line_words - 1u);
  a.set = (unsigned)(addr >> (cnt_shift + word_w)) & (cfg->sets - 1u);
  a.tag = (addr & ADDR_MASK) >> (cnt_shift + word_w + set_w);
  return a;
}

static uint64_t line_addr(const hwprof_edge_prof_cfg_t *cfg, uint64_t tag, unsigned set) {
  unsigned off_w = log2u(cfg->cnt_w / 8u) + log2u(cfg->line_words);
  unsigned set_w = log2u(cfg->sets);
  return ((tag << (off_w + set_w)) | ((uint64_t)set << off_w)) & ADDR_MASK;
}

/* The two FIFO primitives: an entry is {flag, address} (dec of an update; underflow of a record),
 * an update's with the bad bit above them (outside the bounds or misaligned as it entered). */
static hwprof_prim_fifo_cfg_t upd_buf_cfg(const hwprof_edge_prof_cfg_t *cfg) {
  return (hwprof_prim_fifo_cfg_t){HWPROF_PIR_BASE_W + 2u, cfg->upd_depth, false, false};
}
static hwprof_prim_fifo_cfg_t oab_cfg(const hwprof_edge_prof_cfg_t *cfg) {
  return (hwprof_prim_fifo_cfg_t){HWPROF_PIR_BASE_W + 1u, cfg->oab_depth, true, true};
}
static uint64_t entry(bool flag, uint64_t addr) { return (uint64_t)flag << HWPROF_PIR_BASE_W | (addr & ADDR_MASK); }
static bool entry_flag(uint64_t e) { return (e >> HWPROF_PIR_BASE_W) & 1u; }
static bool entry_bad(uint64_t e) { return (e >> (HWPROF_PIR_BASE_W + 1u)) & 1u; }

/* The update buffer's count and head operation. */
static unsigned upd_buf_head(const hwprof_edge_prof_state_t *s, const hwprof_edge_prof_cfg_t *cfg, uint64_t *addr,
                             bool *dec, bool *bad) {
  const hwprof_prim_fifo_cfg_t fc = upd_buf_cfg(cfg);
  hwprof_prim_fifo_out_t f;
  hwprof_prim_fifo_comb(&s->upd_buf, &fc, 0, &f);
  *addr = f.rdata & ADDR_MASK;
  *dec = entry_flag(f.rdata);
  *bad = entry_bad(f.rdata);
  return f.count;
}

/* An update operation as it enters the update buffer: checked against the bounds window and the
 * counter alignment of that cycle (the register block's flops). */
static uint64_t upd_entry(const hwprof_edge_prof_state_t *s, const hwprof_edge_prof_cfg_t *cfg,
                          const hwprof_upd_op_t *upd) {
  const uint64_t align_mask = (uint64_t)(cfg->cnt_w / 8u) - 1u, a = upd->addr & ADDR_MASK;
  const bool bad = (a & align_mask) != 0 || a < bound_lo(s) || a >= bound_hi(s);
  return (uint64_t)bad << (HWPROF_PIR_BASE_W + 1u) | entry(upd->dec, a);
}

/* What the unit shows its register block. */
static void hw2reg_of(const hwprof_edge_prof_state_t *s, const hwprof_edge_prof_cfg_t *cfg, hwprof_edge_prof_hw2reg_t *hw) {
  const hwprof_prim_fifo_cfg_t oc = oab_cfg(cfg);
  hwprof_prim_fifo_out_t oab; /* idx_rdata: the entry OAB_INDEX selects, 0 past the count */
  hwprof_prim_fifo_comb(&s->oab, &oc, s->regs.oab_index_value, &oab);
  uint64_t head_addr;
  bool head_dec;
  hw->cmd_refuse = s->cmd_busy; /* a command is running: a new one is refused */
  hw->status_busy = s->cmd_busy;
  bool head_bad;
  hw->status_pending = upd_buf_head(s, cfg, &head_addr, &head_dec, &head_bad) & 0xffu;
  hw->oab_status_count = oab.count & 0xffu;
  hw->oab_status_overrun = s->oab_overrun;
  hw->oab_entry_lo_addr = (uint32_t)(oab.idx_rdata & ADDR_MASK);
  hw->oab_entry_hi_addr = (uint32_t)((oab.idx_rdata & ADDR_MASK) >> 32);
  hw->oab_entry_hi_underflow = entry_flag(oab.idx_rdata);
  hw->stat_updates_value = (uint32_t)hwprof_prim_counters_get(&s->stats, HWPROF_EP_ST_UPDATES);
  hw->stat_hits_value = (uint32_t)hwprof_prim_counters_get(&s->stats, HWPROF_EP_ST_HITS);
  hw->stat_misses_value = (uint32_t)hwprof_prim_counters_get(&s->stats, HWPROF_EP_ST_MISSES);
  hw->stat_writebacks_value = (uint32_t)hwprof_prim_counters_get(&s->stats, HWPROF_EP_ST_WBS);
  hw->stat_stalls_value = (uint32_t)hwprof_prim_counters_get(&s->stats, HWPROF_EP_ST_STALLS);
  hw->stat_dropped_value = (uint32_t)hwprof_prim_counters_get(&s->stats, HWPROF_EP_ST_DROPPED);
  hw->stat_overflows_value = (uint32_t)hwprof_prim_counters_get(&s->stats, HWPROF_EP_ST_OVF);
  hw->stat_underflows_value = (uint32_t)hwprof_prim_counters_get(&s->stats, HWPROF_EP_ST_UNF);
}

/* The update stage's decision: its counter's new value, and whether it overflows or underflows
 * (reported the next cycle). */
static void stage_decide(const hwprof_edge_prof_state_t *s, const hwprof_edge_prof_cfg_t *cfg, hwprof_edge_prof_eval_t *e) {
  const uint64_t cnt_mask = HWPROF_MASK(cfg->cnt_w), old_cnt = s->data[s->u_line].w[s->u_word];
  e->perform = true;
  e->new_cnt = (s->u_dec ? old_cnt - 1u : old_cnt + 1u) & cnt_mask;
  e->u_ovf = !s->u_dec && old_cnt == cnt_mask;
  e->u_unf = s->u_dec && old_cnt == 0;
}
/* ... and its edge: the counter written, its line dirty; returns the statistics' events (an update,
 * a hit when it hit at its first lookup). */
static uint32_t stage_perform(hwprof_edge_prof_state_t *s, const hwprof_edge_prof_eval_t *e) {
  s->data[s->u_line].w[s->u_word] = e->new_cnt;
  s->dirty[s->u_line] = true;
  return 1u << HWPROF_EP_ST_UPDATES | (s->u_first ? 1u : 0u) << HWPROF_EP_ST_HITS;
}

/* (not inlined, as full_edge(): the cycles that need neither pay for their stack frame) */
__attribute__((noinline)) static void eval(const hwprof_edge_prof_state_t *s, const hwprof_edge_prof_cfg_t *cfg,
                                           const hwprof_edge_prof_in_t *in, hwprof_edge_prof_eval_t *e) {
  /* every field of e starts at 0 (set one by one: a memset of the whole costs more than the cycle) */
  hwprof_edge_prof_out_t *o = &e->out;
  o->upd_space = o->ovf = o->unf = o->drop = false;
  o->reg = (hwprof_reg_rsp_t){0};
  o->mem_req_valid = o->mem_req_write = false;
  o->mem_req_addr = 0;
  o->mem_req_wdata = &zero_line;
  e->pop = e->issue = e->perform = e->miss = e->wb_done = e->fill_done = e->walk_start = e->walk_wb_done =
      e->walk_advance = false;
  e->head_dec = e->u_ovf = e->u_unf = false;
  e->hit_line = e->word = e->miss_victim = 0;
  e->new_cnt = 0;

  /* the head operation */
  uint64_t head_addr;
  bool head_dec;
  bool head_bad;
  const unsigned upd_count = upd_buf_head(s, cfg, &head_addr, &head_dec, &head_bad);
  const hwprof_ep_addr_t ha = split(cfg, head_addr);
  e->head_addr = head_addr;
  e->ha = ha;
  bool head_hit = false, free_found = false;
  unsigned head_way = 0, free_way = 0;
  for (unsigned w = 0; w < cfg->ways && s->state == ST_IDLE && upd_count != 0; w++) { /* (only a lookup reads them) */
    unsigned l = ha.set * cfg->ways + w;
    if (!head_hit && s->valid[l] && s->tag[l] == ha.tag) {
      head_hit = true;
      head_way = w;
    }
    if (!free_found && !s->valid[l]) {
      free_found = true;
      free_way = w;
    }
  }
  unsigned hit_line = ha.set * cfg->ways + head_way;
  unsigned victim_line = ha.set * cfg->ways + s->victim;
  unsigned walk_line = s->walk_set * cfg->ways + s->walk_way;

  /* the update stage (only ever holding an operation in StIdle): the counter the lookup found */
  if (s->u_valid && !in->hold) stage_decide(s, cfg, e);
  /* the report of the cycle before (held while a pir register is written) */
  o->ovf = s->rep_valid && !s->rep_unf && !in->hold;
  o->unf = s->rep_valid && s->rep_unf && !in->hold;

  /* register window */
  if (in->reg.access) {
    hwprof_edge_prof_hw2reg_t hw;
    hw2reg_of(s, cfg, &hw);
    hwprof_edge_prof_reg_comb(&s->regs, &in->reg, &hw, &e->r2h, &o->reg);
  } /* (without an access the strobes are all 0: commit() does not read e->r2h) */

  e->next_state = s->state;
  switch (s->state) {
    case ST_IDLE:
      if (upd_count != 0) {
        if (in->hold) {
          /* a pir register write this cycle */
        } else if (head_bad) {
          e->pop = true;
          o->drop = true;
        } else if (head_hit) { /* to the update stage, which performs it next cycle */
          e->pop = true;
          e->issue = true;
          e->head_dec = head_dec;
          e->hit_line = hit_line;
          e->word = ha.word;
        } else {
          const unsigned rr = s->rr[ha.set], rr_line = ha.set * cfg->ways + rr;
          e->miss = true;
          e->miss_victim = free_found ? free_way : rr;
          /* (the update stage's operation of this cycle dirties its line too) */
          e->next_state =
              (!free_found && (s->dirty[rr_line] || (s->u_valid && s->u_line == rr_line))) ? ST_WB : ST_FILL;
        }
      } else if (s->cmd_busy && !in->upd.valid && !s->u_valid) {
        e->walk_start = true;
        e->next_state = ST_WALK;
      }
      break;
    case ST_WB:
      o->mem_req_valid = true;
      o->mem_req_write = true;
      o->mem_req_addr = line_addr(cfg, s->tag[victim_line], ha.set);
      o->mem_req_wdata = &s->data[victim_line];
      if (in->mem_req_ready) {
        e->wb_done = true;
        e->next_state = ST_FILL;
      }
      break;
    case ST_FILL:
      o->mem_req_valid = true;
      o->mem_req_addr = line_addr(cfg, ha.tag, ha.set);
      if (in->mem_req_ready) e->next_state = ST_FILL_WAIT;
      break;
    case ST_FILL_WAIT:
      if (in->mem_rsp_valid) {
        e->fill_done = true;
        e->next_state = ST_IDLE;
      }
      break;
    case ST_WALK:
    case ST_WALK_WB: {
      bool advance = true;
      if (s->state == ST_WALK && s->cmd_flush && s->valid[walk_line] && s->dirty[walk_line]) {
        advance = false;
        e->next_state = ST_WALK_WB;
      } else if (s->state == ST_WALK_WB) {
        o->mem_req_valid = true;
        o->mem_req_write = true;
        o->mem_req_addr = line_addr(cfg, s->tag[walk_line], s->walk_set);
        o->mem_req_wdata = &s->data[walk_line];
        advance = in->mem_req_ready;
        e->walk_wb_done = in->mem_req_ready;
      }
      e->walk_advance = advance;
      if (advance) {
        bool last = s->walk_set == cfg->sets - 1u && s->walk_way == cfg->ways - 1u;
        e->next_state = last ? ST_IDLE : ST_WALK;
      }
      break;
    }
    default: e->next_state = ST_IDLE; break;
  }

  o->upd_space = !s->cmd_busy && (upd_count + (in->upd.valid ? 1u : 0u)) < cfg->upd_depth;
}

/* What eval() gives when waiting() holds: all 0 but upd_space (set by the caller). */
static void waiting_out(hwprof_edge_prof_out_t *o) {
  o->ovf = o->unf = o->drop = false;
  o->reg = (hwprof_reg_rsp_t){0};
  o->mem_req_valid = o->mem_req_write = false;
  o->mem_req_addr = 0;
  o->mem_req_wdata = &zero_line;
}

static bool waiting(const hwprof_edge_prof_state_t *s, const hwprof_edge_prof_in_t *in) {
  _Static_assert(ST_IDLE == 0 && ST_FILL_WAIT == 3, "hwprof_edge_prof_at_rest() and _waiting() name StIdle 0, StFillWait 3");
  return hwprof_edge_prof_waiting(s, in->reg.access, in->mem_rsp_valid);
}

void hwprof_edge_prof_take(hwprof_edge_prof_state_t *s, const hwprof_edge_prof_cfg_t *cfg, const hwprof_upd_op_t *upd) {
  const hwprof_prim_fifo_cfg_t uc = upd_buf_cfg(cfg);
  const hwprof_prim_fifo_in_t ui = {false, false, true, upd_entry(s, cfg, upd), 0};
  hwprof_prim_fifo_step(&s->upd_buf, &uc, &ui);
}

/* The update stage works alone: idle with the update buffer empty and an operation in the stage, no
 * report, lookup miss, command, register access or hold. Only the stage decides (eval()'s perform). */
static bool stage_only(const hwprof_edge_prof_state_t *s, const hwprof_edge_prof_in_t *in) {
  return s->u_valid && s->state == ST_IDLE && s->upd_buf.count == 0 && !in->reg.access && !in->hold &&
         !s->cmd_busy && !s->miss_q && !s->rep_valid;
}

/* A refill's line arrives (StFillWait): the victim line takes it, clean, and the set's round robin
 * moves past the victim. */
static void fill_line(hwprof_edge_prof_state_t *s, const hwprof_edge_prof_cfg_t *cfg, unsigned victim_line,
                      const hwprof_ep_addr_t *ha, const hwprof_line_t *line) {
  s->valid[victim_line] = true;
  s->dirty[victim_line] = false;
  s->tag[victim_line] = ha->tag;
  s->data[victim_line] = *line;
  for (unsigned i = 0; i < cfg->line_words; i++) s->data[victim_line].w[i] &= HWPROF_MASK(cfg->cnt_w);
  s->rr[ha->set] = (s->victim == cfg->ways - 1u) ? 0 : s->victim + 1u;
}

/* A miss at work: StWb or StFill presenting its request, or StFillWait taking its line, with no
 * command, register access, hold or report (the update stage is empty outside StIdle). */
static bool refill(const hwprof_edge_prof_state_t *s, const hwprof_edge_prof_in_t *in) {
  return (s->state == ST_WB || s->state == ST_FILL || (s->state == ST_FILL_WAIT && in->mem_rsp_valid)) &&
         !in->reg.access && !in->hold && !s->cmd_busy && !s->rep_valid && !s->u_valid;
}

/* eval() of a refill() cycle: only the memory request or the line's arrival is decided. */
static void refill_eval(const hwprof_edge_prof_state_t *s, const hwprof_edge_prof_cfg_t *cfg,
                        const hwprof_edge_prof_in_t *in, hwprof_edge_prof_eval_t *e) {
  hwprof_edge_prof_out_t *o = &e->out;
  waiting_out(o);
  o->upd_space = s->upd_buf.count + (in->upd.valid ? 1u : 0u) < cfg->upd_depth;
  bool head_dec, head_bad; /* (the miss's operation, at the head of the buffer until it hits) */
  (void)upd_buf_head(s, cfg, &e->head_addr, &head_dec, &head_bad);
  e->ha = split(cfg, e->head_addr);
  e->wb_done = e->fill_done = false;
  e->next_state = s->state;
  if (s->state == ST_WB) {
    const unsigned victim_line = e->ha.set * cfg->ways + s->victim;
    o->mem_req_valid = o->mem_req_write = true;
    o->mem_req_addr = line_addr(cfg, s->tag[victim_line], e->ha.set);
    o->mem_req_wdata = &s->data[victim_line];
    e->wb_done = in->mem_req_ready;
    if (e->wb_done) e->next_state = ST_FILL;
  } else if (s->state == ST_FILL) {
    o->mem_req_valid = true;
    o->mem_req_addr = line_addr(cfg, e->ha.tag, e->ha.set);
    if (in->mem_req_ready) e->next_state = ST_FILL_WAIT;
  } else { /* StFillWait, the line here */
    e->fill_done = true;
    e->next_state = ST_IDLE;
  }
}

/* full_edge() of a refill() cycle. */
static void refill_edge(hwprof_edge_prof_state_t *s, const hwprof_edge_prof_cfg_t *cfg, const hwprof_edge_prof_in_t *in,
                        const hwprof_edge_prof_eval_t *e) {
  const hwprof_ep_addr_t ha = e->ha;
  const unsigned victim_line = ha.set * cfg->ways + s->victim;
  const hwprof_prim_counters_cfg_t st_cfg = {HWPROF_EP_ST_N, 32};
  const hwprof_prim_counters_in_t st_in = {(in->ev_stall ? 1u : 0u) << HWPROF_EP_ST_STALLS |
                                               (s->miss_q ? 1u : 0u) << HWPROF_EP_ST_MISSES |
                                               (e->wb_done ? 1u : 0u) << HWPROF_EP_ST_WBS,
                                           false, 0, 0};
  hwprof_prim_counters_step(&s->stats, &st_cfg, &st_in);
  s->rep_valid = s->rep_unf = false; /* (no update performed: no report) */
  s->rep_addr = s->u_addr;
  s->miss_q = false;
  if (e->wb_done) s->valid[victim_line] = s->dirty[victim_line] = false;
  if (e->fill_done) fill_line(s, cfg, victim_line, &ha, in->mem_rsp_rdata);
  s->state = e->next_state;
  if (in->upd.valid) hwprof_edge_prof_take(s, cfg, &in->upd);
}

void hwprof_edge_prof_eval(const hwprof_edge_prof_state_t *s, const hwprof_edge_prof_cfg_t *cfg,
                           const hwprof_edge_prof_in_t *in, hwprof_edge_prof_eval_t *e) {
  e->waiting = waiting(s, in);
  e->stage_only = !e->waiting && stage_only(s, in);
  e->refill = !e->waiting && !e->stage_only && refill(s, in);
  if (e->refill) {
    refill_eval(s, cfg, in, e);
    return;
  }
  if (e->waiting || e->stage_only) {
    waiting_out(&e->out);
    /* the buffer has room for an arriving update unless it fills it (not cmd_busy: both rules say so) */
    e->out.upd_space = s->upd_buf.count + (in->upd.valid ? 1u : 0u) < cfg->upd_depth;
    if (e->stage_only) stage_decide(s, cfg, e);
    return;
  }
  eval(s, cfg, in, e);
}

void hwprof_edge_prof_comb(const hwprof_edge_prof_state_t *s, const hwprof_edge_prof_cfg_t *cfg, const hwprof_edge_prof_in_t *in,
                    hwprof_edge_prof_out_t *out) {
  hwprof_edge_prof_eval_t e;
  hwprof_edge_prof_eval(s, cfg, in, &e);
  *out = e.out;
}

void hwprof_edge_prof_step(hwprof_edge_prof_state_t *s, const hwprof_edge_prof_cfg_t *cfg, const hwprof_edge_prof_in_t *in) {
  hwprof_edge_prof_eval_t e;
  hwprof_edge_prof_eval(s, cfg, in, &e);
  hwprof_edge_prof_commit(s, cfg, in, &e);
}

static void full_edge(hwprof_edge_prof_state_t *s, const hwprof_edge_prof_cfg_t *cfg, const hwprof_edge_prof_in_t *in,
                      const hwprof_edge_prof_eval_t *e);

void hwprof_edge_prof_commit(hwprof_edge_prof_state_t *s, const hwprof_edge_prof_cfg_t *cfg, const hwprof_edge_prof_in_t *in,
                             hwprof_edge_prof_eval_t *e) {
  if (e->waiting) { /* the update buffer takes an arriving update; a stalled event is counted */
    if (in->ev_stall) {
      const hwprof_prim_counters_cfg_t st_cfg = {HWPROF_EP_ST_N, 32};
      const hwprof_prim_counters_in_t st_in = {1u << HWPROF_EP_ST_STALLS, false, 0, 0};
      hwprof_prim_counters_step(&s->stats, &st_cfg, &st_in);
    }
    if (in->upd.valid) hwprof_edge_prof_take(s, cfg, &in->upd);
    return;
  }
  if (e->refill) {
    refill_edge(s, cfg, in, e);
    return;
  }
  if (e->stage_only) { /* commit()'s update path with nothing else at work: no report, no lookup */
    const hwprof_prim_counters_cfg_t st_cfg = {HWPROF_EP_ST_N, 32};
    const hwprof_prim_counters_in_t st_in = {(in->ev_stall ? 1u : 0u) << HWPROF_EP_ST_STALLS | stage_perform(s, e), false,
                                             0, 0};
    hwprof_prim_counters_step(&s->stats, &st_cfg, &st_in);
    s->rep_valid = e->u_ovf || e->u_unf;
    s->rep_unf = e->u_unf;
    s->rep_addr = s->u_addr;
    s->u_valid = false;
    if (in->upd.valid) hwprof_edge_prof_take(s, cfg, &in->upd);
    return;
  }
  full_edge(s, cfg, in, e);
}

/* The clock edge of a cycle eval() decided. */
__attribute__((noinline)) static void full_edge(hwprof_edge_prof_state_t *s, const hwprof_edge_prof_cfg_t *cfg,
                                                const hwprof_edge_prof_in_t *in, const hwprof_edge_prof_eval_t *e) {
  const hwprof_edge_prof_out_t *o = &e->out;
  /* values read before anything is written */
  const uint64_t head_addr = e->head_addr;
  const hwprof_ep_addr_t ha = e->ha;
  const unsigned victim_line = ha.set * cfg->ways + s->victim;
  const unsigned walk_line = s->walk_set * cfg->ways + s->walk_way;
  const bool was_retry = s->retry;
  const uint64_t u_addr = s->u_addr, rep_addr = s->rep_addr;
  hwprof_edge_prof_hw2reg_t hw; /* of the state before the edge */
  if (in->reg.access) hw2reg_of(s, cfg, &hw);

  uint32_t st_inc = (in->ev_stall ? 1u : 0u) << HWPROF_EP_ST_STALLS; /* the statistics' events */

  /* the update path */
  if (o->drop) st_inc |= 1u << HWPROF_EP_ST_DROPPED;
  st_inc |= (o->ovf ? 1u : 0u) << HWPROF_EP_ST_OVF | (o->unf ? 1u : 0u) << HWPROF_EP_ST_UNF; /* the report */
  if (!in->hold) { /* the next report: the update stage's overflow or underflow (else held) */
    s->rep_valid = e->u_ovf || e->u_unf;
    s->rep_unf = e->u_unf;
    s->rep_addr = u_addr;
  }
  if (e->perform) st_inc |= stage_perform(s, e);
  if (e->issue) { /* the lookup's hit enters the update stage */
    s->u_valid = true;
    s->u_line = e->hit_line;
    s->u_word = e->word;
    s->u_dec = e->head_dec;
    s->u_addr = head_addr;
    s->u_first = !was_retry;
    s->retry = false;
  } else {
    s->u_valid = s->u_valid && in->hold; /* performed, or held by a pir register write */
  }
  if (s->miss_q) st_inc |= 1u << HWPROF_EP_ST_MISSES; /* the lookup's miss of the cycle before */
  s->miss_q = e->miss;
  if (e->miss) {
    s->retry = true;
    s->victim = e->miss_victim;
  }
  if (e->wb_done) {
    s->valid[victim_line] = false;
    s->dirty[victim_line] = false;
    st_inc |= 1u << HWPROF_EP_ST_WBS;
  }
  if (e->fill_done) fill_line(s, cfg, victim_line, &ha, in->mem_rsp_rdata);
  if (e->walk_start) {
    s->walk_set = 0;
    s->walk_way = 0;
  }
  if (e->walk_wb_done) {
    s->dirty[walk_line] = false;
    st_inc |= 1u << HWPROF_EP_ST_WBS;
  }
  /* the register block's strobes (all 0 without an access: e->r2h is then not set) */
  static const hwprof_edge_prof_reg2hw_t no_strobes;
  const hwprof_edge_prof_reg2hw_t *r2h = in->reg.access ? &e->r2h : &no_strobes;
  const hwprof_prim_counters_cfg_t st_cfg = {HWPROF_EP_ST_N, 32};
  const uint32_t st_wr =
      !in->reg.access ? 0u
                      : (uint32_t)r2h->stat_updates_qe << HWPROF_EP_ST_UPDATES | (uint32_t)r2h->stat_hits_qe << HWPROF_EP_ST_HITS |
                            (uint32_t)r2h->stat_misses_qe << HWPROF_EP_ST_MISSES |
                            (uint32_t)r2h->stat_writebacks_qe << HWPROF_EP_ST_WBS |
                            (uint32_t)r2h->stat_stalls_qe << HWPROF_EP_ST_STALLS |
                            (uint32_t)r2h->stat_dropped_qe << HWPROF_EP_ST_DROPPED |
                            (uint32_t)r2h->stat_overflows_qe << HWPROF_EP_ST_OVF |
                            (uint32_t)r2h->stat_underflows_qe << HWPROF_EP_ST_UNF;
  /* (the write data: as the RTL's register values all are) */
  const hwprof_prim_counters_in_t st_in = {st_inc, false, st_wr, in->reg.wdata};
  hwprof_prim_counters_step(&s->stats, &st_cfg, &st_in);
  bool cmd_busy_next = s->cmd_busy;
  if (e->walk_advance) {
    if (s->cmd_inval) {
      s->valid[walk_line] = false;
      s->dirty[walk_line] = false;
    }
    if (e->next_state == ST_IDLE) {
      cmd_busy_next = false;
    } else if (s->walk_way == cfg->ways - 1u) {
      s->walk_way = 0;
      s->walk_set++;
    } else {
      s->walk_way++;
    }
  }
  s->state = e->next_state;

  /* a command write starts a command */
  if (r2h->cmd_qe) {
    s->cmd_flush = r2h->cmd_flush;
    s->cmd_inval = r2h->cmd_invalidate;
    cmd_busy_next = s->cmd_flush || s->cmd_inval;
  }
  s->cmd_busy = cmd_busy_next;

  /* the update buffer */
  const hwprof_prim_fifo_cfg_t uc = upd_buf_cfg(cfg);
  const hwprof_prim_fifo_in_t ui = {e->pop, false, in->upd.valid, in->upd.valid ? upd_entry(s, cfg, &in->upd) : 0, 0};
  hwprof_prim_fifo_step(&s->upd_buf, &uc, &ui);

  /* the register block's flops (bounds, OAB_INDEX: written only by an access), and an OAB clear */
  if (in->reg.access) hwprof_edge_prof_reg_step(&s->regs, &in->reg, &hw);
  /* the OAB: a record after a clear of the same cycle is kept; one pushed into an OAB still full
   * after the clear replaces the oldest and sets the overrun flag */
  const bool oab_clear = r2h->oab_ctrl_qe && r2h->oab_ctrl_clear, record = o->ovf || o->unf;
  if (!oab_clear && !record) return; /* (the OAB and its flag keep their state) */
  const hwprof_prim_fifo_cfg_t oc = oab_cfg(cfg);
  hwprof_prim_fifo_out_t of;
  hwprof_prim_fifo_comb(&s->oab, &oc, 0, &of);
  if (oab_clear) s->oab_overrun = false;
  if (record && of.full && !oab_clear) s->oab_overrun = true;
  const hwprof_prim_fifo_in_t oi = {false, oab_clear, record, entry(o->unf, rep_addr), 0};
  hwprof_prim_fifo_step(&s->oab, &oc, &oi);
}
