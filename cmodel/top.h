/* C model of rtl/hwprof_top.sv: the hwprof subsystem (APB window decode, interrupts, the retire
 * port's ready rule, and the engines). Cycle-exact and a drop-in replacement for the RTL: given the
 * same inputs, top_comb() gives the same outputs as the RTL on every cycle. */
#ifndef HWPROF_TOP_H
#define HWPROF_TOP_H

#include "edge_prof.h"
#include "pir.h"
#include "reg/top_reg.h"
#include "trace_ctrl.h"

typedef struct {
  pir_cfg_t pir;
  edge_prof_cfg_t edge_prof;
  trace_ctrl_cfg_t trace_ctrl;
} top_cfg_t;

/* Exactly the flops of hwprof_top: its register block (IRQ_PENDING, IRQ_ENABLE) and its engines. */
typedef struct {
  hwprof_top_reg_state_t regs;
  pir_state_t pir;
  edge_prof_state_t edge_prof;
  trace_ctrl_state_t trace_ctrl;
} top_state_t;

typedef struct {
  retire_ev_t ev;
  apb_req_t apb;
  bool mem_req_ready;
  bool mem_rsp_valid;
  ep_line_t mem_rsp_rdata;
} top_in_t;

typedef struct {
  bool ev_ready;
  apb_rsp_t apb;
  bool mem_req_valid;
  bool mem_req_write;
  uint64_t mem_req_addr;
  ep_line_t mem_req_wdata;
  bool irq_phase;
  bool irq_trace;
  bool irq_coproc;
  bool irq_error;
  upd_op_t upd; /* observation: update operations entering the update buffer */
} top_out_t;

/* Fill cfg with the RTL's default parameters. */
void top_cfg_default(top_cfg_t *cfg);
int top_cfg_check(const top_cfg_t *cfg);
void top_reset(top_state_t *s);
void top_comb(const top_state_t *s, const top_cfg_t *cfg, const top_in_t *in, top_out_t *out);
void top_step(top_state_t *s, const top_cfg_t *cfg, const top_in_t *in);
/* top_comb then top_step, evaluating the wiring once: for simulators that do both every cycle. */
void top_cycle(top_state_t *s, const top_cfg_t *cfg, const top_in_t *in, top_out_t *out);

#endif /* HWPROF_TOP_H */
