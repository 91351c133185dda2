/* C model of rtl/pir/hwprof_pir.sv; see pir.h and docs/pir.md. */
#include "pir/pir.h"

#include <string.h>

#define BASE_MASK HWPROF_MASK(HWPROF_PIR_BASE_W)
#define OFFSET_MASK HWPROF_MASK(HWPROF_PIR_OFFSET_W)
#define TRIGGER_MASK HWPROF_MASK(HWPROF_PIR_TRIGGER_W)
#define PID_MASK HWPROF_MASK(HWPROF_EV_PID_W)
#define SP_MAX HWPROF_MASK(HWPROF_PIR_LINK_SP_W)

hwprof_result_t hwprof_pir_cfg_check(const hwprof_pir_cfg_t *cfg) {
  if (cfg == NULL) return kHwprofBadArg;
  if (cfg->line_words < 2 || cfg->line_words > 8 || (cfg->line_words & (cfg->line_words - 1))) return kHwprofBadArg;
  switch (cfg->cnt_w) {
    case 8: case 16: case 32: case 64: return kHwprofOk;
    default: return kHwprofBadArg;
  }
}

unsigned hwprof_pir_line_shift(const hwprof_pir_cfg_t *cfg) {
  /* (asked every cycle by the simulators' shortcuts: a line's bytes are a power of 2, at least 2) */
  return (unsigned)__builtin_ctz(cfg->line_words * cfg->cnt_w / 8u);
}

void hwprof_pir_reset(hwprof_pir_state_t *s) {
  memset(s, 0, sizeof *s);
  hwprof_pir_reg_reset(&s->regs);
  hwprof_path_reset(&s->path);
}

static unsigned cnt_shift(const hwprof_pir_cfg_t *cfg) {
  switch (cfg->cnt_w) {
    case 8: return 0;
    case 16: return 1;
    case 64: return 3;
    default: return 2;
  }
}

/* ---- the link stack's frames in memory (docs/pir.md): a frame's bits are {base, offset, sum}, the
 * sum lowest; it takes `beats` lines, in a slot of 2^beat_shift lines. */
#define FRAME_W (HWPROF_PIR_BASE_W + HWPROF_PIR_OFFSET_W + HWPROF_PATH_SUM_W)
typedef unsigned __int128 u128;

typedef struct {
  unsigned line_w, line_shift, beats, beat_shift, asm_w;
} link_geom_t;
static link_geom_t geom_of(const hwprof_pir_cfg_t *cfg) {
  link_geom_t g;
  g.line_w = cfg->line_words * cfg->cnt_w;
  g.line_shift = hwprof_pir_line_shift(cfg);
  g.beats = (FRAME_W + g.line_w - 1u) / g.line_w;
  g.beat_shift = 0;
  while ((1u << g.beat_shift) < g.beats) g.beat_shift++;
  g.asm_w = g.beats == 1 ? FRAME_W : g.beats * g.line_w;
  return g;
}
static u128 mask128(unsigned w) { return w >= 128 ? ~(u128)0 : (((u128)1 << w) - 1u); }
static u128 frame_bits(const hwprof_pir_frame_t *f) {
  return (u128)f->base << (HWPROF_PIR_OFFSET_W + HWPROF_PATH_SUM_W) | (u128)f->offset << HWPROF_PATH_SUM_W | f->sum;
}
static hwprof_pir_frame_t frame_of(u128 v) {
  return (hwprof_pir_frame_t){(uint64_t)(v >> (HWPROF_PIR_OFFSET_W + HWPROF_PATH_SUM_W)) & BASE_MASK,
                              (uint32_t)(v >> HWPROF_PATH_SUM_W) & OFFSET_MASK,
                              (uint32_t)v & HWPROF_MASK(HWPROF_PATH_SUM_W)};
}
/* A line's first 128 bits, and a line holding v's low line_w bits. */
static u128 line_bits(const hwprof_line_t *l, const hwprof_pir_cfg_t *cfg) {
  u128 v = 0;
  for (unsigned i = 0; i < cfg->line_words && i * cfg->cnt_w < 128u; i++) v |= (u128)l->w[i] << (i * cfg->cnt_w);
  return v;
}
static void line_of(hwprof_line_t *l, u128 v, const hwprof_pir_cfg_t *cfg) {
  memset(l, 0, sizeof *l);
  for (unsigned i = 0; i < cfg->line_words && i * cfg->cnt_w < 128u; i++)
    l->w[i] = (uint64_t)(v >> (i * cfg->cnt_w)) & HWPROF_MASK(cfg->cnt_w);
}
static bool is_link_push(const hwprof_retire_ev_t *ev) {
  return (ev->kind == HWPROF_KIND_JUMP || ev->kind == HWPROF_KIND_IJUMP) && ev->is_call && ev->op == HWPROF_PROF_OP_PUSH;
}
static bool is_link_pop(const hwprof_retire_ev_t *ev) {
  return (ev->kind == HWPROF_KIND_JUMP || ev->kind == HWPROF_KIND_IJUMP) && ev->is_ret && ev->op == HWPROF_PROF_OP_POP;
}
/* The presented program event needs a frame spilled (a linked call on a full stack, with room in the
 * area) or filled (a linked return with no frame held and one in memory). */
static bool link_spill_need(const hwprof_pir_state_t *s, const link_geom_t *g, const hwprof_retire_ev_t *ev) {
  const uint32_t cap = (s->llimit << (6u - g->line_shift)) >> g->beat_shift;
  return is_link_push(ev) && s->sp >= HWPROF_PIR_LINK_ENTRIES && s->llines < cap && s->llines != 0xffffu;
}
static bool link_fill_need(const hwprof_pir_state_t *s, const hwprof_retire_ev_t *ev) {
  return is_link_pop(ev) && s->sp == 0 && s->llines != 0;
}
static bool link_stalls(const hwprof_pir_state_t *s, const link_geom_t *g, const hwprof_retire_ev_t *ev) {
  return ev->valid && !(ev->trap & 1u) && (link_spill_need(s, g, ev) || link_fill_need(s, ev));
}
#define LRING(x) ((x) % HWPROF_PIR_LINK_ENTRIES)

void hwprof_pir_mem(const hwprof_pir_state_t *s, const hwprof_pir_cfg_t *cfg, hwprof_pir_mem_t *m) {
  hwprof_path_mem_t p;
  hwprof_path_mem(&s->path, &p);
  m->busy = p.busy || s->lreq || s->lrwait;
  m->valid = s->lreq || p.valid;
  m->write = s->lreq ? s->lrwr : p.write;
  m->addr = s->lreq ? s->lraddr : p.addr;
  if (!m->valid) return; /* no line: the top passes the cache's request (the common case) */
  if (s->lreq && s->lrwr) line_of(&m->line, s->lframe & mask128(geom_of(cfg).line_w), cfg);
  else line_of(&m->line, s->lreq ? 0u : p.wdata, cfg);
}

bool hwprof_pir_mem_quiet_event(const hwprof_pir_state_t *s, const hwprof_pir_cfg_t *cfg, const hwprof_retire_ev_t *ev) {
  if (!hwprof_path_quiet(&s->path, hwprof_pir_line_shift(cfg), ev)) return false;
  if (!ev->valid || (s->llimit == 0 && s->llines == 0) || (s->sp != 0 && s->sp < HWPROF_PIR_LINK_ENTRIES)) return true;
  const link_geom_t g = geom_of(cfg);
  return !link_stalls(s, &g, ev);
}

/* Would the presented event update a counter, and is it the not-taken counter of an either branch,
 * or a path's (u_path: its count takes the update, the pid is not looked at)? */
static bool update_of(const hwprof_pir_state_t *s, const hwprof_pir_cfg_t *cfg, const hwprof_retire_ev_t *ev,
                      bool *second, hwprof_path_out_t *path) {
  *second = false;
  if (!hwprof_pir_acts_on(ev)) { /* no path word either (hwprof_path_word_of) */
    path->cnt = false;
    path->cnt_idx = 0;
    path->stall = false;
    return false;
  }
  hwprof_path_comb(&s->path, hwprof_pir_line_shift(cfg), ev, !(ev->trap & 1u), path);
  if (!s->flag || (ev->trap & 1u)) return false; /* a trap handler's: not profiled */
  if (path->cnt) return true;
  if ((ev->pid & PID_MASK) == 0) return false;
  switch (ev->kind) {
    case HWPROF_KIND_BRANCH:
    case HWPROF_KIND_JUMP:
    case HWPROF_KIND_IJUMP:
      switch (ev->bhint) {
        case HWPROF_BHINT_TK: return ev->taken;
        case HWPROF_BHINT_NT: return !ev->taken;
        case HWPROF_BHINT_EITHER: *second = !ev->taken; return true;
        case HWPROF_BHINT_ALL: return true;
        default: return false;
      }
    case HWPROF_KIND_PROF:
    case HWPROF_KIND_OTHER:
    case HWPROF_KIND_LOAD:
    case HWPROF_KIND_STORE: return ev->op == HWPROF_PROF_OP_ID; /* prof.id, or a carrier word's */
    default: return false;
  }
}

/* What the pir shows its register block. */
static void hw2reg_of(const hwprof_pir_state_t *s, hwprof_pir_hw2reg_t *hw) {
  hw->base_lo_value = (uint32_t)(s->base & 0xffffffffu);
  hw->base_hi_value = (uint32_t)(s->base >> 32);
  hw->offset_value = s->offset;
  hw->trigger_value = s->trigger;
  hw->ctrl_flag = s->flag;
  hw->stat_events_value = (uint32_t)hwprof_prim_counters_get(&s->stats, HWPROF_PIR_ST_EVENTS);
  hw->stat_updates_value = (uint32_t)hwprof_prim_counters_get(&s->stats, HWPROF_PIR_ST_UPDATES);
  hw->link_depth = s->sp;
  hw->link_err = s->lerr;
  hw->path_sum_value = s->path.sum;
  hw->path_stack_depth = s->path.psp;
  hw->path_stack_err = s->path.perr;
  hw->path_spill_lo_value = (uint32_t)(s->path.sbase & 0xffffffffu);
  hw->path_spill_hi_value = (uint32_t)(s->path.sbase >> 32);
  hw->path_spill_limit = s->path.limit;
  hw->path_spill_lines = s->path.lines;
  hw->path_entry_sel_index = s->path.sel;
  hw->path_entry_value = hwprof_path_entry(&s->path, s->path.sel);
  const hwprof_pir_frame_t *e = &s->lstack[LRING(s->lbot + s->lsel)];
  hw->link_entry_sel_index = s->lsel;
  hw->link_entry_base_lo_value = (uint32_t)(e->base & 0xffffffffu);
  hw->link_entry_base_hi_value = (uint32_t)(e->base >> 32);
  hw->link_entry_offset_value = e->offset;
  hw->link_entry_sum_value = e->sum;
  hw->link_spill_lo_value = (uint32_t)(s->lsbase & 0xffffffffu);
  hw->link_spill_hi_value = (uint32_t)(s->lsbase >> 32);
  hw->link_spill_limit = s->llimit;
  hw->link_spill_lines = s->llines;
}

/* The register block's response and strobes of this cycle. */
static void regs_of(const hwprof_pir_state_t *s, const hwprof_reg_req_t *req, hwprof_pir_reg2hw_t *r2h,
                    hwprof_reg_rsp_t *rsp) {
  if (!req->access) { /* no strobes, no response (what the block gives, without clearing r2h field by field) */
    static const hwprof_pir_reg2hw_t none;
    *r2h = none;
    *rsp = (hwprof_reg_rsp_t){0};
    return;
  }
  hwprof_pir_hw2reg_t hw;
  hw2reg_of(s, &hw);
  hwprof_pir_reg_comb(&s->regs, req, &hw, r2h, rsp);
}

void hwprof_pir_eval(const hwprof_pir_state_t *s, const hwprof_pir_cfg_t *cfg, const hwprof_pir_in_t *in, hwprof_pir_eval_t *e) {
  if (in->reg.access) {
    hwprof_pir_reg2hw_t r2h;
    regs_of(s, &in->reg, &r2h, &e->out.reg);
  } else {
    e->out.reg = (hwprof_reg_rsp_t){0};
  }
  e->out.upd_req = update_of(s, cfg, in->ev, &e->second, &e->path);
  e->lstall = false;
  e->lspill = false;
  if (s->llimit != 0 || s->llines != 0) {
    const link_geom_t g = geom_of(cfg);
    e->lstall = link_stalls(s, &g, in->ev);
    e->lspill = e->lstall && link_spill_need(s, &g, in->ev);
  }
  e->out.stall = e->path.stall || e->lstall;
  e->out.phase = in->ovf && s->trigger == 1u;
  e->out.upd = s->upd;
}

void hwprof_pir_comb(const hwprof_pir_state_t *s, const hwprof_pir_cfg_t *cfg, const hwprof_pir_in_t *in, hwprof_pir_out_t *out) {
  hwprof_pir_eval_t e;
  hwprof_pir_eval(s, cfg, in, &e);
  *out = e.out;
}

void hwprof_pir_step(hwprof_pir_state_t *s, const hwprof_pir_cfg_t *cfg, const hwprof_pir_in_t *in) {
  hwprof_pir_eval_t e;
  hwprof_pir_eval(s, cfg, in, &e);
  hwprof_pir_commit(s, cfg, in, &e);
}

/* No register access, overflow, underflow, grant or stack memory activity this cycle: the edge is the
 * presented event's alone. */
static bool nothing_else(const hwprof_pir_state_t *s, const hwprof_pir_in_t *in) {
  return !in->reg.access && !in->ovf && !in->unf && !in->mem_grant && !s->path.req && !s->path.rwait && !s->lreq &&
         !s->lrwait;
}

/* The counter an update operation addresses: base + (offset + pid - 1, +1 for the not-taken counter
 * of an either branch, or offset + the path's count index) counters; never negative because pid >= 1.
 * From the state before the edge. */
static uint64_t update_addr(const hwprof_pir_state_t *s, const hwprof_pir_cfg_t *cfg, const hwprof_retire_ev_t *ev,
                            const hwprof_pir_eval_t *e) {
  const uint64_t idx = e->path.cnt ? (uint64_t)s->offset + e->path.cnt_idx
                                   : (uint64_t)s->offset + (ev->pid & PID_MASK) - 1u + (e->second ? 1u : 0u);
  return (s->base + (idx << cnt_shift(cfg))) & BASE_MASK;
}

/* A fired program event whose only effects are the statistics, the update register and a carrier
 * word's or a transfer's init or setoff: not a profiling instruction, no linked call or return (no
 * push, pop or call's init), no path word, and no register access, overflow, underflow, grant or
 * stack memory activity this cycle. */
static bool update_only(const hwprof_pir_state_t *s, const hwprof_pir_in_t *in, const hwprof_pir_eval_t *e) {
  const hwprof_retire_ev_t *ev = in->ev;
  if (!in->ev_fire || (ev->trap & 1u) || !nothing_else(s, in) || e->lstall || ev->kind == HWPROF_KIND_PROF)
    return false;
  if ((ev->kind == HWPROF_KIND_JUMP || ev->kind == HWPROF_KIND_IJUMP) &&
      ((ev->is_call && (ev->op == HWPROF_PROF_OP_PUSH || ev->op == HWPROF_PROF_OP_INIT)) ||
       (ev->is_ret && ev->op == HWPROF_PROF_OP_POP)))
    return false;
  return hwprof_path_word_of(ev) == 0;
}

static void full_commit(hwprof_pir_state_t *s, const hwprof_pir_cfg_t *cfg, const hwprof_pir_in_t *in,
                        const hwprof_pir_eval_t *e);

void hwprof_pir_commit(hwprof_pir_state_t *s, const hwprof_pir_cfg_t *cfg, const hwprof_pir_in_t *in, const hwprof_pir_eval_t *e) {
  const hwprof_retire_ev_t *ev = in->ev;
  const bool fire = in->ev_fire && !(ev->trap & 1u); /* the program's event (a trap handler's changes nothing) */
  if ((!fire || hwprof_pir_passes(s, ev)) && nothing_else(s, in)) {
    /* most cycles: no update, no profiling or link operation, no path word, nothing written */
    hwprof_pir_pass(s, fire);
    return;
  }
  if (update_only(s, in, e)) {
    /* most other cycles: a fired event that updates a counter and may switch the region of its own
     * word (a hinted branch, a prof.id, a carrier word's init or setoff), and nothing else: no link or
     * path operation, no profiling instruction, no register access, overflow or memory activity */
    const hwprof_prim_counters_cfg_t st_cfg = {HWPROF_PIR_ST_N, 32};
    const hwprof_prim_counters_in_t st_in = {
        1u << HWPROF_PIR_ST_EVENTS | (e->out.upd_req ? 1u : 0u) << HWPROF_PIR_ST_UPDATES, false, 0, 0};
    hwprof_prim_counters_step(&s->stats, &st_cfg, &st_in);
    s->upd.valid = e->out.upd_req;
    s->upd.dec = e->out.upd_req && ev->ihint;
    s->upd.addr = e->out.upd_req ? update_addr(s, cfg, ev, e) : 0;
    const bool carried = hwprof_pir_ordinary(ev);
    if (carried && ev->op == HWPROF_PROF_OP_INIT) {
      s->base = ev->operand & BASE_MASK;
      s->offset = 0;
    } else if (ev->op == HWPROF_PROF_OP_SETOFF) { /* a transfer's or a carrier word's */
      s->offset = (uint32_t)(ev->operand & OFFSET_MASK);
    }
    return;
  }
  full_commit(s, cfg, in, e);
}

/* The clock edge of every other cycle (not inlined: the cycles above do not pay for its frame). */
__attribute__((noinline)) static void full_commit(hwprof_pir_state_t *s, const hwprof_pir_cfg_t *cfg,
                                                  const hwprof_pir_in_t *in, const hwprof_pir_eval_t *e) {
  const hwprof_retire_ev_t *ev = in->ev;
  /* The state before the edge: its scalar flops copied here, everything else (the link stack, the
   * path unit, the statistics, the register block) updated in place after the reads of it. */
  const uint64_t base = s->base;
  const uint32_t offset = s->offset, sp = s->sp;
  const uint16_t trigger = s->trigger;
  const bool fire = in->ev_fire && !(ev->trap & 1u);
  const bool hit = fire && e->out.upd_req;
  const hwprof_prim_counters_cfg_t st_cfg = {HWPROF_PIR_ST_N, 32};
  /* the register block's strobes (all 0 without an access) and what it reads of the state before the edge */
  static const hwprof_pir_reg2hw_t no_strobes;
  hwprof_pir_reg2hw_t strobes;
  const hwprof_pir_reg2hw_t *r2h = &no_strobes;
  hwprof_pir_hw2reg_t hw;
  if (in->reg.access) {
    hwprof_reg_rsp_t rsp;
    regs_of(s, &in->reg, &strobes, &rsp);
    r2h = &strobes;
    hw2reg_of(s, &hw);
  }
  /* the link stack's frames read before the edge: the top (a pop), the oldest (a spill), the window's */
  const hwprof_pir_frame_t link_top = s->lstack[LRING(s->lbot + sp + HWPROF_PIR_LINK_ENTRIES - 1u)];
  const hwprof_pir_frame_t link_bottom = s->lstack[s->lbot], link_entry = s->lstack[LRING(s->lbot + s->lsel)];
  const uint32_t lbot = s->lbot, lsel = s->lsel, llines = s->llines, psum = s->path.sum;
  const bool lreq = s->lreq, lrwr = s->lrwr, lrwait = s->lrwait;
  const uint64_t lraddr = s->lraddr;
  const u128 lframe = s->lframe;
  const uint32_t lbeat = s->lbeat;

  const hwprof_prim_counters_in_t st_in = {
      (fire ? 1u : 0u) << HWPROF_PIR_ST_EVENTS | (hit ? 1u : 0u) << HWPROF_PIR_ST_UPDATES, false,
      (uint32_t)r2h->stat_events_qe << HWPROF_PIR_ST_EVENTS | (uint32_t)r2h->stat_updates_qe << HWPROF_PIR_ST_UPDATES,
      in->reg.wdata}; /* the write data, as the RTL's register values all are */
  hwprof_prim_counters_step(&s->stats, &st_cfg, &st_in); /* u_stats: reads nothing of the pir's state */
  s->upd.valid = hit;
  s->upd.dec = hit && ev->ihint;
  s->upd.addr = 0;
  if (hit) s->upd.addr = update_addr(s, cfg, ev, e);

  /* overflow / underflow move the trigger counter (disarmed at zero, saturating at the top) */
  if (in->ovf && trigger != 0) {
    s->trigger = (uint16_t)(trigger - 1u);
  } else if (in->unf && trigger != 0 && trigger != TRIGGER_MASK) {
    s->trigger = (uint16_t)(trigger + 1u);
  }

  /* profiling instructions (a prof.trigger of the same cycle wins over the overflow) */
  if (fire && ev->kind == HWPROF_KIND_PROF) {
    switch (ev->op) {
      case HWPROF_PROF_OP_INIT:
        s->base = ev->operand & BASE_MASK;
        s->offset = 0;
        break;
      case HWPROF_PROF_OP_SETOFF: s->offset = (uint32_t)(ev->operand & OFFSET_MASK); break;
      case HWPROF_PROF_OP_START: s->flag = true; break;
      case HWPROF_PROF_OP_STOP: s->flag = false; break;
      case HWPROF_PROF_OP_TRIGGER: s->trigger = (uint16_t)(ev->operand & TRIGGER_MASK); break;
      default: break; /* prof.id updates a counter only; reserved operations do nothing */
    }
  }

  /* linked calls and returns (after the return's own update, which used the callee's pir) */
  const bool link_ev = fire && (ev->kind == HWPROF_KIND_JUMP || ev->kind == HWPROF_KIND_IJUMP);
  const bool push = link_ev && ev->is_call && ev->op == HWPROF_PROF_OP_PUSH;
  const bool pop = link_ev && ev->is_ret && ev->op == HWPROF_PROF_OP_POP;
  const bool full = sp >= HWPROF_PIR_LINK_ENTRIES;

  /* the link stack's memory side: a granted request (its slot, and for a spill the oldest frame), each
   * line accepted, each line of a fill answered (the counts saturate: a register write may have
   * changed them while a frame was on its way) */
  const bool lgrant = in->mem_grant && e->lstall, pgrant = in->mem_grant && !e->lstall;
  bool lfill_done = false;
  u128 lframe_in = 0;
  if (lgrant || lreq || lrwait) {
    const link_geom_t g = geom_of(cfg);
    const bool last = lbeat == g.beats - 1u;
    const u128 line = lrwait && in->mem_rsp_valid ? line_bits(in->mem_rsp_line, cfg) : 0;
    lframe_in = g.beats == 1 ? line & mask128(FRAME_W)
                             : ((lframe >> g.line_w) | (line << ((g.beats - 1u) * g.line_w))) & mask128(g.asm_w);
    if (lgrant) {
      const uint64_t slot = e->lspill ? llines : (llines - 1u) & 0xffffu;
      s->lreq = true;
      s->lrwr = e->lspill;
      s->lbeat = 0;
      s->lraddr = (((s->lsbase >> g.line_shift) << g.line_shift) + (slot << (g.line_shift + g.beat_shift))) & BASE_MASK;
      s->lframe = e->lspill ? frame_bits(&link_bottom) : 0;
    }
    if (lreq && in->mem_req_ready) {
      if (!lrwr) {
        s->lreq = false;
        s->lrwait = true;
      } else if (!last) {
        s->lbeat = lbeat + 1u;
        s->lframe = g.beats == 1 ? 0 : lframe >> g.line_w;
        s->lraddr = (lraddr + (UINT64_C(1) << g.line_shift)) & BASE_MASK;
      } else { /* the oldest frame is in memory: its place is free */
        s->lreq = false;
        s->lbeat = 0;
        s->lframe = 0;
        s->lraddr = 0;
        s->lbot = LRING(lbot + 1u);
        s->sp = sp == 0 ? 0 : sp - 1u;
        s->llines = llines == 0xffffu ? llines : llines + 1u;
      }
    }
    if (lrwait && in->mem_rsp_valid) {
      s->lrwait = false;
      if (!last) {
        s->lreq = true;
        s->lbeat = lbeat + 1u;
        s->lframe = lframe_in;
        s->lraddr = (lraddr + (UINT64_C(1) << g.line_shift)) & BASE_MASK;
      } else { /* the newest spilled frame is back, where a push would go (the ring is empty) */
        lfill_done = true;
        s->lbeat = 0;
        s->lframe = 0;
        s->lraddr = 0;
        s->sp = sp == 0xffu ? sp : sp + 1u;
        s->llines = llines == 0 ? 0 : llines - 1u;
      }
    }
  }
  /* a linked call that finds room, or a fill's frame, goes above the frames held (one writer) */
  if ((push && !full) || lfill_done)
    s->lstack[LRING(lbot + sp)] = lfill_done ? frame_of(lframe_in) : (hwprof_pir_frame_t){base, offset, psum};
  /* calls that start their callee's area and carrier words' prof.init; region switches on branches
   * and jumps and carrier words' prof.setoff (other operations of a carrier word: none) */
  const bool carried = fire && hwprof_pir_ordinary(ev);
  if ((link_ev && ev->is_call && ev->op == HWPROF_PROF_OP_INIT) || (carried && ev->op == HWPROF_PROF_OP_INIT)) {
    s->base = ev->operand & BASE_MASK;
    s->offset = 0;
  }
  if (fire && ev->op == HWPROF_PROF_OP_SETOFF &&
      (ev->kind == HWPROF_KIND_BRANCH || ev->kind == HWPROF_KIND_JUMP || ev->kind == HWPROF_KIND_IJUMP || carried))
    s->offset = (uint32_t)(ev->operand & OFFSET_MASK);
  if (push) {
    if (full) s->lerr = true; /* this frame is lost */
    if (sp != SP_MAX) s->sp = sp + 1u;
    s->base = ev->operand & BASE_MASK;
    s->offset = 0;
  }
  if (pop) {
    if (sp == 0) {
      s->lerr = true; /* a return with nothing to restore */
    } else {
      s->sp = sp - 1u;
      if (sp <= HWPROF_PIR_LINK_ENTRIES) { /* past the entries the frame was lost: the pir stays */
        s->base = link_top.base;
        s->offset = link_top.offset;
      }
    }
  }

  /* the path sum and its stack; a linked call saves the sum beside {base, offset}, a linked return
   * that finds its frame restores it */
  const hwprof_path_in_t path_in = {
      .take = fire, .ev = ev,
      .call = push || (link_ev && ev->is_call && ev->op == HWPROF_PROF_OP_INIT),
      .link_restore = pop && sp != 0 && sp <= HWPROF_PIR_LINK_ENTRIES, .link_sum = link_top.sum,
      .sum_we = r2h->path_sum_qe, .sum_wdata = r2h->path_sum_value,
      .stack_we = r2h->path_stack_qe, .stack_depth = r2h->path_stack_depth, .stack_err = r2h->path_stack_err,
      .spill_lo_we = r2h->path_spill_lo_qe, .spill_hi_we = r2h->path_spill_hi_qe,
      .spill_lo = r2h->path_spill_lo_value, .spill_hi = r2h->path_spill_hi_value,
      .spill_we = r2h->path_spill_qe, .spill_limit = r2h->path_spill_limit, .spill_lines = r2h->path_spill_lines,
      .sel_we = r2h->path_entry_sel_qe, .sel = r2h->path_entry_sel_index,
      .entry_we = r2h->path_entry_qe, .entry_wdata = r2h->path_entry_value,
      .mem_grant = pgrant, .mem_req_ready = in->mem_req_ready,
      .mem_rsp_valid = in->mem_rsp_valid && (s->path.req || s->path.rwait),
      .mem_rsp_rdata = in->mem_rsp_valid ? (uint32_t)line_bits(in->mem_rsp_line, cfg) & HWPROF_MASK(HWPROF_PATH_SUM_W) : 0u};
  hwprof_path_step(&s->path, hwprof_pir_line_shift(cfg), &path_in);

  /* register writes (context switch) */
  if (r2h->base_lo_qe) s->base = (s->base & ~(uint64_t)0xffffffffu) | r2h->base_lo_value;
  if (r2h->base_hi_qe) s->base = (s->base & 0xffffffffu) | ((uint64_t)r2h->base_hi_value << 32);
  if (r2h->offset_qe) s->offset = r2h->offset_value;
  if (r2h->trigger_qe) s->trigger = (uint16_t)r2h->trigger_value;
  if (r2h->ctrl_qe) s->flag = r2h->ctrl_flag;
  if (r2h->link_qe) {
    s->sp = r2h->link_depth;
    s->lerr = r2h->link_err;
  }
  if (r2h->link_entry_sel_qe) s->lsel = r2h->link_entry_sel_index;
  if (r2h->link_spill_lo_qe) s->lsbase = (s->lsbase & ~(uint64_t)0xffffffffu) | r2h->link_spill_lo_value;
  if (r2h->link_spill_hi_qe)
    s->lsbase = (s->lsbase & 0xffffffffu) | ((uint64_t)(r2h->link_spill_hi_value & HWPROF_MASK(HWPROF_PIR_BASE_W - 32)) << 32);
  if (r2h->link_spill_qe) {
    s->llimit = r2h->link_spill_limit & 0xffffu;
    s->llines = r2h->link_spill_lines & 0xffffu;
  }
  /* the window writes a part of frame LINK_ENTRY_SEL (a register write never meets a linked call) */
  if (r2h->link_entry_base_lo_qe || r2h->link_entry_base_hi_qe || r2h->link_entry_offset_qe || r2h->link_entry_sum_qe) {
    hwprof_pir_frame_t f = link_entry;
    if (r2h->link_entry_base_lo_qe) f.base = (f.base & ~(uint64_t)0xffffffffu) | r2h->link_entry_base_lo_value;
    if (r2h->link_entry_base_hi_qe) f.base = (f.base & 0xffffffffu) | (uint64_t)r2h->link_entry_base_hi_value << 32;
    if (r2h->link_entry_offset_qe) f.offset = r2h->link_entry_offset_value & OFFSET_MASK;
    if (r2h->link_entry_sum_qe) f.sum = r2h->link_entry_sum_value & HWPROF_MASK(HWPROF_PATH_SUM_W);
    s->lstack[LRING(lbot + lsel)] = f;
  }
  if (in->reg.access) hwprof_pir_reg_step(&s->regs, &in->reg, &hw);
}
