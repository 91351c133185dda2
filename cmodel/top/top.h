/* C model of rtl/top/hwprof_top.sv: the hwprof subsystem (APB window decode, interrupts, the retire
 * port's ready rule, and the engines). Cycle-exact and a drop-in replacement for the RTL: given the
 * same inputs, hwprof_top_comb() gives the same outputs as the RTL on every cycle. */
#ifndef HWPROF_TOP_H
#define HWPROF_TOP_H

#include "edge_prof/edge_prof.h"
#include "pir/pir.h"
#include "top/autogen/top_reg.h"
#include "trace_ctrl/trace_ctrl.h"
#include "cop/cop.h"
#include "vpf/vpf.h"

typedef struct {
  hwprof_pir_cfg_t pir;
  hwprof_edge_prof_cfg_t edge_prof;
  hwprof_trace_ctrl_cfg_t trace_ctrl;
  hwprof_vpf_cfg_t vpf;
  hwprof_cop_cfg_t cop;
} hwprof_top_cfg_t;

/* Exactly the flops of hwprof_top: its register block (IRQ_PENDING, IRQ_ENABLE) and its engines. */
typedef struct {
  hwprof_top_reg_state_t regs;
  hwprof_pir_state_t pir;
  hwprof_edge_prof_state_t edge_prof;
  hwprof_trace_ctrl_state_t trace_ctrl;
  hwprof_vpf_state_t vpf;
  hwprof_cop_state_t cop;
} hwprof_top_state_t;

typedef struct {
  hwprof_retire_ev_t ev;
  hwprof_apb_req_t apb;
  bool mem_req_ready;
  bool mem_rsp_valid;
  hwprof_line_t mem_rsp_rdata;
} hwprof_top_in_t;

typedef struct {
  bool ev_ready;
  hwprof_apb_rsp_t apb;
  bool mem_req_valid;
  bool mem_req_write;
  uint64_t mem_req_addr;
  hwprof_line_t mem_req_wdata;
  bool irq_phase;
  bool irq_trace;
  bool irq_coproc;
  bool irq_error;
  hwprof_upd_op_t upd; /* observation: update operations entering the update buffer */
} hwprof_top_out_t;

/* Fill cfg with the RTL's default parameters. */
void hwprof_top_cfg_default(hwprof_top_cfg_t *cfg);
hwprof_result_t hwprof_top_cfg_check(const hwprof_top_cfg_t *cfg);
void hwprof_top_reset(hwprof_top_state_t *s);
void hwprof_top_comb(const hwprof_top_state_t *s, const hwprof_top_cfg_t *cfg, const hwprof_top_in_t *in, hwprof_top_out_t *out);
void hwprof_top_step(hwprof_top_state_t *s, const hwprof_top_cfg_t *cfg, const hwprof_top_in_t *in);
/* No APB access, the value profiler and the co-processor at rest (each block's own rule): their
 * outputs are all 0 and their edges change nothing; and the path stack neither using the memory port
 * nor making the presented event wait for it. */
bool hwprof_top_lean(const hwprof_top_state_t *s, const hwprof_top_cfg_t *cfg, const hwprof_top_in_t *in);
/* ... and the pir asking for no update (no event, or one it lets pass: hwprof_pir_passes()), the
 * trace controller letting the event pass (hwprof_trace_ctrl_passes()), and the edge-profiling unit
 * with nothing to decide (hwprof_edge_prof_waiting()): the cycle then only counts the event and
 * puts the update the pir made last cycle, if any, into the update buffer. */
bool hwprof_top_plain(const hwprof_top_state_t *s, const hwprof_top_cfg_t *cfg, const hwprof_top_in_t *in);
/* hwprof_top_comb then hwprof_top_step, evaluating the wiring once: for simulators that do both every
 * cycle. When hwprof_top_lean() holds it evaluates only the pir, the edge-profiling unit and the
 * trace controller, when hwprof_top_plain() holds only the pir's event counter and update buffer.
 * Returns whether the cycle was plain, took no update, left the edge-profiling unit at rest and the
 * trace controller's FIFO-mode interrupt level low: the next cycle may then be
 * hwprof_top_plain_again(). */
bool hwprof_top_cycle(hwprof_top_state_t *s, const hwprof_top_cfg_t *cfg, const hwprof_top_in_t *in, hwprof_top_out_t *out);
/* The cycle after one for which hwprof_top_cycle() (or this) returned true, when it has no APB access
 * (no psel with penable) and no event or one the pir and the trace controller let pass: that plain
 * cycle changes nothing but the pir's event counter (every engine stays as it was, no update and no
 * interrupt cause is raised), so its outputs are the last cycle's. Returns false, changing nothing,
 * when the event is not one both let pass: the caller then runs hwprof_top_cycle(). */
static inline bool hwprof_top_plain_again(hwprof_top_state_t *s, const hwprof_retire_ev_t *ev) {
  if (ev->valid && (!hwprof_pir_passes(&s->pir, ev) || !hwprof_trace_ctrl_passes(&s->trace_ctrl, ev))) return false;
  hwprof_pir_pass(&s->pir, ev->valid && !(ev->trap & 1u));
  return true;
}

#endif /* HWPROF_TOP_H */
