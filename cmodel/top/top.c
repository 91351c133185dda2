/* C model of rtl/top/hwprof_top.sv; see top.h. */
#include "top/top.h"

#define WINDOW_OF(addr) ((unsigned)(addr) >> HWPROF_WINDOW_SHIFT)

/* The wires hwprof_top derives from its inputs and its engines' outputs. */
typedef struct {
  bool access;
  bool top_sel;
  bool pir_sel;
  bool ep_sel;
  bool tc_sel;
  bool vpf_sel;
  bool cop_sel;
  bool pir_write;
  bool ev_ready;
  hwprof_pir_in_t pir;
  hwprof_pir_eval_t pir_eval; /* its outputs (pir_out) and decisions */
  hwprof_pir_mem_t ps;        /* the pir's stacks' side of the memory port */
  hwprof_edge_prof_in_t ep;
  hwprof_edge_prof_eval_t ep_eval; /* its outputs and decisions (decided once a cycle) */
  hwprof_trace_ctrl_in_t tc;
  hwprof_trace_ctrl_eval_t tc_eval; /* its outputs (tc_out) and decisions */
  hwprof_vpf_in_t vpf;
  hwprof_vpf_out_t vpf_out;
  hwprof_cop_in_t cop;
  hwprof_cop_out_t cop_out;
  /* top window */
  hwprof_reg_req_t top_req;
  hwprof_top_hw2reg_t top_hw;
  hwprof_top_reg2hw_t top_r2h;
  hwprof_reg_rsp_t top_rsp;
} wires_t;

static void wires_of(const hwprof_top_state_t *s, const hwprof_top_cfg_t *cfg, const hwprof_top_in_t *in, wires_t *w) {
  const hwprof_apb_req_t *a = &in->apb;
  w->access = a->psel && a->penable;
  w->top_sel = w->access && WINDOW_OF(a->paddr) == HWPROF_TOP_WINDOW;
  w->pir_sel = w->access && WINDOW_OF(a->paddr) == HWPROF_PIR_WINDOW;
  w->ep_sel = w->access && WINDOW_OF(a->paddr) == HWPROF_EDGE_PROF_WINDOW;
  w->tc_sel = w->access && WINDOW_OF(a->paddr) == HWPROF_TRACE_CTRL_WINDOW;
  w->vpf_sel = w->access && WINDOW_OF(a->paddr) >= HWPROF_VPF_WINDOW && WINDOW_OF(a->paddr) < HWPROF_VPF_WINDOW + HWPROF_VPF_WINDOWS;
  w->cop_sel = w->access && WINDOW_OF(a->paddr) >= HWPROF_COP_WINDOW && WINDOW_OF(a->paddr) < HWPROF_COP_WINDOW + HWPROF_COP_WINDOWS;
  w->pir_write = w->pir_sel && a->pwrite;

  /* the edge-profiling unit's outputs do not depend on ev_stall (it only counts) */
  /* (field by field: a compound literal would clear the whole first, every cycle) */
  w->ep.upd = s->pir.upd;
  w->ep.ev_stall = false; /* set below */
  w->ep.hold = w->pir_write;
  w->ep.reg = (hwprof_reg_req_t){w->ep_sel, a->pwrite, a->paddr, a->pwdata};
  /* the memory port is the pir's stacks' while one has a request presented or a read outstanding */
  hwprof_pir_mem(&s->pir, &cfg->pir, &w->ps);
  w->ep.mem_req_ready = in->mem_req_ready && !w->ps.busy;
  w->ep.mem_rsp_valid = in->mem_rsp_valid && !w->ps.busy;
  w->ep.mem_rsp_rdata = &in->mem_rsp_rdata;
  hwprof_edge_prof_eval(&s->edge_prof, &cfg->edge_prof, &w->ep, &w->ep_eval);
  const hwprof_edge_prof_out_t *ep_out = &w->ep_eval.out;

  /* the pir's upd_req does not depend on ev_fire, nor phase on anything but ovf */
  w->pir = (hwprof_pir_in_t){
      .ev = &in->ev,
      .reg = {w->pir_sel, a->pwrite, a->paddr, a->pwdata},
      .ovf = ep_out->ovf,
      .unf = ep_out->unf,
      .mem_req_ready = in->mem_req_ready,
      .mem_rsp_valid = in->mem_rsp_valid && w->ps.busy,
      .mem_rsp_line = &in->mem_rsp_rdata,
  };
  hwprof_pir_eval(&s->pir, &cfg->pir, &w->pir, &w->pir_eval);
  const hwprof_pir_out_t *pir_out = &w->pir_eval.out;
  /* the pir is granted the port when the cache presents no request and waits for no read */
  w->pir.mem_grant = pir_out->stall && !w->ps.busy && !ep_out->mem_req_valid &&
                     !hwprof_edge_prof_rd_wait(&s->edge_prof);

  /* a pir write holds the retire port; an updating event waits for room in the update buffer, and
   * an event whose path-stack entry is spilled or filled first for its line */
  w->ev_ready = !w->pir_write && (!pir_out->upd_req || ep_out->upd_space) && !pir_out->stall;
  w->pir.ev_fire = in->ev.valid && w->ev_ready;
  w->ep.ev_stall = in->ev.valid && !w->ev_ready;

  w->tc = (hwprof_trace_ctrl_in_t){
      .ev_fire = w->pir.ev_fire,
      .ev = &in->ev,
      .reg = {w->tc_sel, a->pwrite, a->paddr, a->pwdata},
  };
  hwprof_trace_ctrl_eval(&s->trace_ctrl, &cfg->trace_ctrl, &w->tc, &w->tc_eval);
  const hwprof_trace_ctrl_out_t *tc_out = &w->tc_eval.out;

  /* the value profiler: the front end's record (from its state) feeds the engine, whose pop goes
   * back to the front end's clock edge */
  w->vpf = (hwprof_vpf_in_t){
      .ev_fire = w->pir.ev_fire,
      .ev = &in->ev,
      .smp_pop = false,
      .reg = {w->vpf_sel, a->pwrite, a->paddr, a->pwdata},
  };
  hwprof_vpf_comb(&s->vpf, &cfg->vpf, &w->vpf, &w->vpf_out);
  w->cop = (hwprof_cop_in_t){
      .smp_valid = w->vpf_out.smp_valid,
      .smp = w->vpf_out.smp,
      .reg = {w->cop_sel, a->pwrite, a->paddr, a->pwdata},
  };
  hwprof_cop_comb(&s->cop, &cfg->cop, &w->cop, &w->cop_out);
  w->vpf.smp_pop = w->cop_out.smp_pop;

  /* the top window's register block; a cause raised in the clearing cycle stays pending */
  w->top_req = (hwprof_reg_req_t){w->top_sel, a->pwrite, a->paddr, a->pwdata};
  w->top_hw = (hwprof_top_hw2reg_t){
      .irq_pending_phase_set = pir_out->phase,
      .irq_pending_trace_set = tc_out->irq,
      .irq_pending_coproc_set = w->cop_out.irq,
      .irq_pending_error_set = ep_out->drop,
      /* the build parameters */
      .cfg_edge_cntw = cfg->edge_prof.cnt_w,
      .cfg_edge_upd_depth = cfg->edge_prof.upd_depth,
      .cfg_edge_oab_depth = cfg->edge_prof.oab_depth,
      .cfg_cache_sets = cfg->edge_prof.sets,
      .cfg_cache_ways = cfg->edge_prof.ways,
      .cfg_cache_line_words = cfg->edge_prof.line_words,
      .cfg_trace_hist_w = cfg->trace_ctrl.hist_w,
      .cfg_trace_fifo_depth = cfg->trace_ctrl.fifo_depth,
  };
  hwprof_top_reg_comb(&s->regs, &w->top_req, &w->top_hw, &w->top_r2h, &w->top_rsp);
}

void hwprof_top_cfg_default(hwprof_top_cfg_t *cfg) {
  cfg->pir.cnt_w = HWPROF_CNTW_DEFAULT;
  cfg->pir.line_words = HWPROF_LINEWORDS_DEFAULT;
  hwprof_edge_prof_cfg_default(&cfg->edge_prof);
  hwprof_trace_ctrl_cfg_default(&cfg->trace_ctrl);
  hwprof_vpf_cfg_default(&cfg->vpf);
  hwprof_cop_cfg_default(&cfg->cop);
}

hwprof_result_t hwprof_top_cfg_check(const hwprof_top_cfg_t *cfg) {
  if (cfg == NULL) return kHwprofBadArg;
  if (cfg->pir.cnt_w != cfg->edge_prof.cnt_w || cfg->pir.line_words != cfg->edge_prof.line_words) return kHwprofBadArg;
  hwprof_result_t rc = hwprof_pir_cfg_check(&cfg->pir);
  if (rc == kHwprofOk) rc = hwprof_edge_prof_cfg_check(&cfg->edge_prof);
  if (rc == kHwprofOk) rc = hwprof_trace_ctrl_cfg_check(&cfg->trace_ctrl);
  if (rc == kHwprofOk) rc = hwprof_vpf_cfg_check(&cfg->vpf);
  return rc ? rc : hwprof_cop_cfg_check(&cfg->cop);
}

void hwprof_top_reset(hwprof_top_state_t *s) {
  hwprof_top_reg_reset(&s->regs);
  hwprof_pir_reset(&s->pir);
  hwprof_edge_prof_reset(&s->edge_prof);
  hwprof_trace_ctrl_reset(&s->trace_ctrl);
  hwprof_vpf_reset(&s->vpf);
  hwprof_cop_reset(&s->cop);
}

/* The interrupt outputs: a cause pending and enabled (the top window's flops). */
static void irq_outputs(const hwprof_top_reg_state_t *r, hwprof_top_out_t *out) {
  out->irq_phase = r->irq_pending_phase && r->irq_enable_phase;
  out->irq_trace = r->irq_pending_trace && r->irq_enable_trace;
  out->irq_coproc = r->irq_pending_coproc && r->irq_enable_coproc;
  out->irq_error = r->irq_pending_error && r->irq_enable_error;
}

/* This cycle's outputs, from the state, the inputs and the wires. */
static void outputs_of(const hwprof_top_state_t *s, const wires_t *w, hwprof_top_out_t *out) {
  const hwprof_edge_prof_out_t *ep_out = &w->ep_eval.out;
  const hwprof_pir_out_t *pir_out = &w->pir_eval.out;
  const hwprof_trace_ctrl_out_t *tc_out = &w->tc_eval.out;
  bool unmapped = w->access && !w->top_sel && !w->pir_sel && !w->ep_sel && !w->tc_sel && !w->vpf_sel && !w->cop_sel;

  out->ev_ready = w->ev_ready;
  out->apb.pready = true;
  out->apb.pslverr =
      w->top_rsp.error || pir_out->reg.error || ep_out->reg.error || tc_out->reg.error || w->vpf_out.reg.error ||
      w->cop_out.reg.error || unmapped;
  out->apb.prdata = w->top_rsp.rdata | pir_out->reg.rdata | ep_out->reg.rdata | tc_out->reg.rdata | w->vpf_out.reg.rdata |
                    w->cop_out.reg.rdata;
  if (w->ps.valid) { /* a stack's line */
    out->mem_req_valid = true;
    out->mem_req_write = w->ps.write;
    out->mem_req_addr = w->ps.addr;
    out->mem_req_wdata = w->ps.line;
  } else if (w->ps.busy) { /* its read outstanding: the cache's request waits */
    static const hwprof_line_t no_line;
    out->mem_req_valid = out->mem_req_write = false;
    out->mem_req_addr = 0;
    out->mem_req_wdata = no_line;
  } else {
    out->mem_req_valid = ep_out->mem_req_valid;
    out->mem_req_write = ep_out->mem_req_write;
    out->mem_req_addr = ep_out->mem_req_addr;
    out->mem_req_wdata = *ep_out->mem_req_wdata;
  }
  irq_outputs(&s->regs, out);
  out->upd = pir_out->upd;
}

/* The clock edge. */
static void advance(hwprof_top_state_t *s, const hwprof_top_cfg_t *cfg, wires_t *w) {
  hwprof_top_reg_step(&s->regs, &w->top_req, &w->top_hw);
  hwprof_pir_commit(&s->pir, &cfg->pir, &w->pir, &w->pir_eval);
  hwprof_edge_prof_commit(&s->edge_prof, &cfg->edge_prof, &w->ep, &w->ep_eval);
  hwprof_trace_ctrl_commit(&s->trace_ctrl, &cfg->trace_ctrl, &w->tc, &w->tc_eval);
  hwprof_vpf_step(&s->vpf, &cfg->vpf, &w->vpf);
  hwprof_cop_step(&s->cop, &cfg->cop, &w->cop);
}

void hwprof_top_comb(const hwprof_top_state_t *s, const hwprof_top_cfg_t *cfg, const hwprof_top_in_t *in, hwprof_top_out_t *out) {
  wires_t w;
  wires_of(s, cfg, in, &w);
  outputs_of(s, &w, out);
}

void hwprof_top_step(hwprof_top_state_t *s, const hwprof_top_cfg_t *cfg, const hwprof_top_in_t *in) {
  wires_t w;
  wires_of(s, cfg, in, &w);
  advance(s, cfg, &w);
}

/* Those engines' outputs are all 0 and the register blocks give no strobes and no response: most
 * cycles of a run with edge or path profiling or trace sampling. */
bool hwprof_top_lean(const hwprof_top_state_t *s, const hwprof_top_cfg_t *cfg, const hwprof_top_in_t *in) {
  return !(in->apb.psel && in->apb.penable) && hwprof_vpf_at_rest(&s->vpf) && hwprof_cop_at_rest(&s->cop) &&
         hwprof_pir_mem_quiet(&s->pir, &cfg->pir, &in->ev);
}

/* A lean cycle whose event the pir and the trace controller let pass, with no overflow or underflow
 * for the pir (the edge unit's eval gave mem_* and drop; the caller sets those outputs): the pir asks
 * for no update, so the port is ready; the trace controller raises only its FIFO-mode level, the
 * top window takes it and a drop. The outputs and the top window's edge; the pir's edge (it only
 * counts the event) is the caller's, after the edge unit has read the pir's update. Returns the level. */
static bool passing_cycle(hwprof_top_state_t *s, bool drop, hwprof_top_out_t *out) {
  static const hwprof_reg_req_t no_access;
  out->ev_ready = true;
  out->apb.pready = true;
  out->apb.pslverr = false;
  out->apb.prdata = 0;
  irq_outputs(&s->regs, out);
  out->upd = s->pir.upd;
  const bool level = hwprof_trace_ctrl_level(&s->trace_ctrl);
  if (level || drop) {
    const hwprof_top_hw2reg_t hw = {.irq_pending_trace_set = level, .irq_pending_error_set = drop};
    hwprof_top_reg_step(&s->regs, &no_access, &hw);
  }
  return level;
}

/* The cycle of wires_of(), outputs_of() and advance() when hwprof_top_lean() holds: the same wires, with the
 * value profiler, the co-processor and the register blocks left out. */
static void lean_cycle(hwprof_top_state_t *s, const hwprof_top_cfg_t *cfg, const hwprof_top_in_t *in, hwprof_top_out_t *out) {
  static const hwprof_reg_req_t no_access;
  hwprof_edge_prof_in_t ep;
  ep.upd = s->pir.upd;
  ep.ev_stall = false; /* set below */
  ep.hold = false;
  ep.reg = no_access;
  ep.mem_req_ready = in->mem_req_ready;
  ep.mem_rsp_valid = in->mem_rsp_valid;
  ep.mem_rsp_rdata = &in->mem_rsp_rdata;
  hwprof_edge_prof_eval_t e;
  hwprof_edge_prof_eval(&s->edge_prof, &cfg->edge_prof, &ep, &e);
  out->mem_req_valid = e.out.mem_req_valid;
  out->mem_req_write = e.out.mem_req_write;
  out->mem_req_addr = e.out.mem_req_addr;
  out->mem_req_wdata = *e.out.mem_req_wdata;
  if (!e.out.ovf && !e.out.unf && hwprof_pir_passes(&s->pir, &in->ev) &&
      hwprof_trace_ctrl_passes(&s->trace_ctrl, &in->ev)) { /* only the edge unit at work */
    passing_cycle(s, e.out.drop, out);
    hwprof_pir_pass(&s->pir, in->ev.valid && !(in->ev.trap & 1u));
    hwprof_edge_prof_commit(&s->edge_prof, &cfg->edge_prof, &ep, &e);
    return;
  }
  out->apb.pready = true;
  out->apb.pslverr = false;
  out->apb.prdata = 0;
  irq_outputs(&s->regs, out);
  out->upd = s->pir.upd;
  hwprof_pir_in_t pir = {.ev = &in->ev, .reg = no_access, .ovf = e.out.ovf, .unf = e.out.unf};
  hwprof_pir_eval_t pe;
  hwprof_pir_eval(&s->pir, &cfg->pir, &pir, &pe);
  const hwprof_pir_out_t pir_out = pe.out;
  const bool ev_ready = !pir_out.upd_req || e.out.upd_space;
  pir.ev_fire = in->ev.valid && ev_ready;
  ep.ev_stall = in->ev.valid && !ev_ready;
  const hwprof_trace_ctrl_in_t tc = {.ev_fire = pir.ev_fire, .ev = &in->ev, .reg = no_access};
  hwprof_trace_ctrl_eval_t te;
  hwprof_trace_ctrl_eval(&s->trace_ctrl, &cfg->trace_ctrl, &tc, &te);
  const hwprof_trace_ctrl_out_t *tc_out = &te.out;

  out->ev_ready = ev_ready;

  /* the edge: the top window's block only takes the interrupt causes raised (it has no other input) */
  if (pir_out.phase || tc_out->irq || e.out.drop) {
    const hwprof_top_hw2reg_t hw = {.irq_pending_phase_set = pir_out.phase,
                                    .irq_pending_trace_set = tc_out->irq,
                                    .irq_pending_error_set = e.out.drop};
    hwprof_top_reg_step(&s->regs, &no_access, &hw);
  }
  hwprof_pir_commit(&s->pir, &cfg->pir, &pir, &pe);
  hwprof_edge_prof_commit(&s->edge_prof, &cfg->edge_prof, &ep, &e);
  hwprof_trace_ctrl_commit(&s->trace_ctrl, &cfg->trace_ctrl, &tc, &te);
}

/* hwprof_top_plain() of a lean cycle */
static bool plain_when_lean(const hwprof_top_state_t *s, const hwprof_top_in_t *in) {
  return hwprof_trace_ctrl_passes(&s->trace_ctrl, &in->ev) &&
         hwprof_edge_prof_waiting(&s->edge_prof, false, in->mem_rsp_valid) &&
         /* (the port's ready follows the pir's request even without an event: with no event, ready
          * needs room in the update buffer unless the pir lets its fields pass) */
         (hwprof_pir_passes(&s->pir, &in->ev) ||
          (!in->ev.valid && hwprof_edge_prof_at_rest(&s->edge_prof) && !s->pir.upd.valid));
}

bool hwprof_top_plain(const hwprof_top_state_t *s, const hwprof_top_cfg_t *cfg, const hwprof_top_in_t *in) {
  return hwprof_top_lean(s, cfg, in) && plain_when_lean(s, in);
}

/* The cycle of lean_cycle() when hwprof_top_plain() holds: the pir asks for no update (an event it
 * lets pass), the trace controller lets the event pass too, and the edge-profiling unit has nothing
 * to decide (it only takes the update the pir made last cycle, if any), so the port is ready, no
 * memory request is made and no overflow, underflow or drop is raised. Returns whether the next
 * cycle may be hwprof_top_plain_again(): the edge unit at rest, nothing taken, no level raised. */
static bool plain_cycle(hwprof_top_state_t *s, const hwprof_top_cfg_t *cfg, const hwprof_top_in_t *in,
                        hwprof_top_out_t *out) {
  static const hwprof_line_t no_line;
  out->mem_req_valid = out->mem_req_write = false;
  out->mem_req_addr = 0;
  out->mem_req_wdata = no_line;
  const bool level = passing_cycle(s, false, out);
  const bool take = s->pir.upd.valid;
  if (take) hwprof_edge_prof_take(&s->edge_prof, &cfg->edge_prof, &s->pir.upd);
  hwprof_pir_pass(&s->pir, in->ev.valid && !(in->ev.trap & 1u));
  return !level && !take && hwprof_edge_prof_at_rest(&s->edge_prof);
}

bool hwprof_top_cycle(hwprof_top_state_t *s, const hwprof_top_cfg_t *cfg, const hwprof_top_in_t *in, hwprof_top_out_t *out) {
  if (hwprof_top_lean(s, cfg, in)) {
    if (plain_when_lean(s, in)) return plain_cycle(s, cfg, in, out);
    lean_cycle(s, cfg, in, out);
    return false;
  }
  wires_t w;
  wires_of(s, cfg, in, &w);
  outputs_of(s, &w, out);
  advance(s, cfg, &w);
  return false;
}
