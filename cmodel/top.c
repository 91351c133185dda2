/* C model of rtl/hwprof_top.sv; see top.h. */
#include "top.h"

#define WINDOW_OF(addr) ((unsigned)(addr) >> HWPROF_WINDOW_SHIFT)

/* The wires hwprof_top derives from its inputs before they reach the engines. */
typedef struct {
  bool top_sel;
  bool pir_sel;
  bool ev_ready;
  pir_in_t pir;
} wires_t;

static wires_t wires_of(const top_in_t *in) {
  wires_t w;
  bool access = in->apb.psel && in->apb.penable;
  w.top_sel = access && WINDOW_OF(in->apb.paddr) == HWPROF_TOP_WINDOW;
  w.pir_sel = access && WINDOW_OF(in->apb.paddr) == HWPROF_PIR_WINDOW;
  /* a register write to the pir window holds the retire port for its access cycle */
  w.ev_ready = !(w.pir_sel && in->apb.pwrite);
  w.pir.ev_fire = in->ev.valid && w.ev_ready;
  w.pir.ev = &in->ev;
  w.pir.reg_access = w.pir_sel;
  w.pir.reg_write = in->apb.pwrite;
  w.pir.reg_addr = in->apb.paddr;
  w.pir.reg_wdata = in->apb.pwdata;
  return w;
}

void top_cfg_default(top_cfg_t *cfg) { cfg->pir.cnt_w = 32; }

int top_cfg_check(const top_cfg_t *cfg) {
  if (cfg == NULL) return HWPROF_EINVAL;
  return pir_cfg_check(&cfg->pir);
}

void top_reset(top_state_t *s) { pir_reset(&s->pir); }

void top_comb(const top_state_t *s, const top_cfg_t *cfg, const top_in_t *in, top_out_t *out) {
  wires_t w = wires_of(in);
  pir_out_t pir;
  pir_comb(&s->pir, &cfg->pir, &w.pir, &pir);

  bool access = in->apb.psel && in->apb.penable;
  bool top_hit = true;
  uint32_t top_rdata = 0;
  switch (in->apb.paddr) {
    case HWPROF_TOP_ID_ADDR: top_rdata = HWPROF_TOP_ID_RESVAL; break;
    case HWPROF_TOP_VERSION_ADDR: top_rdata = HWPROF_TOP_VERSION_RESVAL; break;
    default: top_hit = false; break;
  }
  bool top_error = w.top_sel && (!top_hit || in->apb.pwrite);
  bool unmapped = access && !w.top_sel && !w.pir_sel;

  out->ev_ready = w.ev_ready;
  out->apb.pready = true;
  out->apb.pslverr = top_error || pir.reg_error || unmapped;
  out->apb.prdata = ((w.top_sel && !in->apb.pwrite && top_hit) ? top_rdata : 0) | pir.reg_rdata;
  out->upd = pir.upd;
}

void top_step(top_state_t *s, const top_cfg_t *cfg, const top_in_t *in) {
  wires_t w = wires_of(in);
  pir_step(&s->pir, &cfg->pir, &w.pir);
}
