/* C model of rtl/hwprof_top.sv; see top.h. */
#include "top.h"

#define WINDOW_OF(addr) ((unsigned)(addr) >> HWPROF_WINDOW_SHIFT)

/* The wires hwprof_top derives from its inputs and its engines' outputs. */
typedef struct {
  bool access;
  bool top_sel;
  bool pir_sel;
  bool ep_sel;
  bool tc_sel;
  bool pir_write;
  bool ev_ready;
  pir_in_t pir;
  pir_out_t pir_out;
  edge_prof_in_t ep;
  edge_prof_out_t ep_out;
  trace_ctrl_in_t tc;
  trace_ctrl_out_t tc_out;
  /* top window */
  bool top_hit;
  bool top_ro;
  uint32_t top_rdata;
} wires_t;

static void wires_of(const top_state_t *s, const top_cfg_t *cfg, const top_in_t *in, wires_t *w) {
  const apb_req_t *a = &in->apb;
  w->access = a->psel && a->penable;
  w->top_sel = w->access && WINDOW_OF(a->paddr) == HWPROF_TOP_WINDOW;
  w->pir_sel = w->access && WINDOW_OF(a->paddr) == HWPROF_PIR_WINDOW;
  w->ep_sel = w->access && WINDOW_OF(a->paddr) == HWPROF_EDGE_PROF_WINDOW;
  w->tc_sel = w->access && WINDOW_OF(a->paddr) == HWPROF_TRACE_CTRL_WINDOW;
  w->pir_write = w->pir_sel && a->pwrite;

  /* the edge-profiling unit's outputs do not depend on ev_stall (it only counts) */
  w->ep = (edge_prof_in_t){
      .upd = s->pir.upd,
      .hold = w->pir_write,
      .reg_access = w->ep_sel,
      .reg_write = a->pwrite,
      .reg_addr = a->paddr,
      .reg_wdata = a->pwdata,
      .mem_req_ready = in->mem_req_ready,
      .mem_rsp_valid = in->mem_rsp_valid,
      .mem_rsp_rdata = in->mem_rsp_rdata,
  };
  edge_prof_comb(&s->edge_prof, &cfg->edge_prof, &w->ep, &w->ep_out);

  /* the pir's upd_req does not depend on ev_fire, nor phase on anything but ovf */
  w->pir = (pir_in_t){
      .ev = &in->ev,
      .reg_access = w->pir_sel,
      .reg_write = a->pwrite,
      .reg_addr = a->paddr,
      .reg_wdata = a->pwdata,
      .ovf = w->ep_out.ovf,
      .unf = w->ep_out.unf,
  };
  pir_comb(&s->pir, &cfg->pir, &w->pir, &w->pir_out);

  /* a pir write holds the retire port; an updating event waits for room in the update buffer */
  w->ev_ready = !w->pir_write && (!w->pir_out.upd_req || w->ep_out.upd_space);
  w->pir.ev_fire = in->ev.valid && w->ev_ready;
  w->ep.ev_stall = in->ev.valid && !w->ev_ready;

  w->tc = (trace_ctrl_in_t){
      .ev_fire = w->pir.ev_fire,
      .ev = &in->ev,
      .reg_access = w->tc_sel,
      .reg_write = a->pwrite,
      .reg_addr = a->paddr,
      .reg_wdata = a->pwdata,
  };
  trace_ctrl_comb(&s->trace_ctrl, &cfg->trace_ctrl, &w->tc, &w->tc_out);

  w->top_hit = true;
  w->top_ro = false;
  w->top_rdata = 0;
  switch (a->paddr) {
    case HWPROF_TOP_ID_ADDR: w->top_rdata = HWPROF_TOP_ID_RESVAL; w->top_ro = true; break;
    case HWPROF_TOP_VERSION_ADDR: w->top_rdata = HWPROF_TOP_VERSION_RESVAL; w->top_ro = true; break;
    case HWPROF_TOP_IRQ_PENDING_ADDR: w->top_rdata = s->irq_pending; break;
    case HWPROF_TOP_IRQ_ENABLE_ADDR: w->top_rdata = s->irq_enable; break;
    default: w->top_hit = false; break;
  }
}

void top_cfg_default(top_cfg_t *cfg) {
  cfg->pir.cnt_w = 32;
  edge_prof_cfg_default(&cfg->edge_prof);
  trace_ctrl_cfg_default(&cfg->trace_ctrl);
}

int top_cfg_check(const top_cfg_t *cfg) {
  if (cfg == NULL) return HWPROF_EINVAL;
  if (cfg->pir.cnt_w != cfg->edge_prof.cnt_w) return HWPROF_EINVAL;
  int rc = pir_cfg_check(&cfg->pir);
  if (rc == HWPROF_OK) rc = edge_prof_cfg_check(&cfg->edge_prof);
  return rc ? rc : trace_ctrl_cfg_check(&cfg->trace_ctrl);
}

void top_reset(top_state_t *s) {
  s->irq_pending = 0;
  s->irq_enable = 0;
  pir_reset(&s->pir);
  edge_prof_reset(&s->edge_prof);
  trace_ctrl_reset(&s->trace_ctrl);
}

#define IRQ_BIT(cause) (1u << HWPROF_TOP_IRQ_PENDING_##cause##_LSB)
#define EN_BIT(cause) (1u << HWPROF_TOP_IRQ_ENABLE_##cause##_LSB)

/* This cycle's outputs, from the state, the inputs and the wires. */
static void outputs_of(const top_state_t *s, const top_in_t *in, const wires_t *w, top_out_t *out) {
  bool top_error = w->top_sel && (!w->top_hit || (in->apb.pwrite && w->top_ro));
  bool unmapped = w->access && !w->top_sel && !w->pir_sel && !w->ep_sel && !w->tc_sel;

  out->ev_ready = w->ev_ready;
  out->apb.pready = true;
  out->apb.pslverr = top_error || w->pir_out.reg_error || w->ep_out.reg_error || w->tc_out.reg_error || unmapped;
  out->apb.prdata = ((w->top_sel && !in->apb.pwrite && w->top_hit) ? w->top_rdata : 0) | w->pir_out.reg_rdata |
                    w->ep_out.reg_rdata | w->tc_out.reg_rdata;
  out->mem_req_valid = w->ep_out.mem_req_valid;
  out->mem_req_write = w->ep_out.mem_req_write;
  out->mem_req_addr = w->ep_out.mem_req_addr;
  out->mem_req_wdata = w->ep_out.mem_req_wdata;
  out->irq_phase = (s->irq_pending & IRQ_BIT(PHASE)) && (s->irq_enable & EN_BIT(PHASE));
  out->irq_trace = (s->irq_pending & IRQ_BIT(TRACE)) && (s->irq_enable & EN_BIT(TRACE));
  out->irq_coproc = (s->irq_pending & IRQ_BIT(COPROC)) && (s->irq_enable & EN_BIT(COPROC));
  out->irq_error = (s->irq_pending & IRQ_BIT(ERROR)) && (s->irq_enable & EN_BIT(ERROR));
  out->upd = w->pir_out.upd;
}

/* The clock edge. */
static void advance(top_state_t *s, const top_cfg_t *cfg, const top_in_t *in, const wires_t *w) {
  const uint8_t mask = (1u << TOP_NUM_IRQ) - 1u;
  bool top_we = w->top_sel && in->apb.pwrite && w->top_hit && !w->top_ro;
  uint8_t pending = s->irq_pending;
  if (top_we && in->apb.paddr == HWPROF_TOP_IRQ_ENABLE_ADDR) s->irq_enable = in->apb.pwdata & mask;
  if (top_we && in->apb.paddr == HWPROF_TOP_IRQ_PENDING_ADDR) pending &= (uint8_t)~in->apb.pwdata;
  /* a cause in the clearing cycle stays pending */
  if (w->pir_out.phase) pending |= IRQ_BIT(PHASE);
  if (w->ep_out.drop) pending |= IRQ_BIT(ERROR);
  if (w->tc_out.irq) pending |= IRQ_BIT(TRACE);
  s->irq_pending = pending & mask;
  pir_step(&s->pir, &cfg->pir, &w->pir);
  edge_prof_step(&s->edge_prof, &cfg->edge_prof, &w->ep);
  trace_ctrl_step(&s->trace_ctrl, &cfg->trace_ctrl, &w->tc);
}

void top_comb(const top_state_t *s, const top_cfg_t *cfg, const top_in_t *in, top_out_t *out) {
  wires_t w;
  wires_of(s, cfg, in, &w);
  outputs_of(s, in, &w, out);
}

void top_step(top_state_t *s, const top_cfg_t *cfg, const top_in_t *in) {
  wires_t w;
  wires_of(s, cfg, in, &w);
  advance(s, cfg, in, &w);
}

void top_cycle(top_state_t *s, const top_cfg_t *cfg, const top_in_t *in, top_out_t *out) {
  wires_t w;
  wires_of(s, cfg, in, &w);
  outputs_of(s, in, &w, out);
  advance(s, cfg, in, &w);
}
