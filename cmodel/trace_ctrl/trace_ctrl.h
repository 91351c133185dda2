/* C model of rtl/trace_ctrl/hwprof_trace_ctrl.sv: trace start address and branch history with marker bit,
 * termination, last-trace registers, FIFO, address-range filter, sampling counter (seed 002;
 * docs/trace_ctrl.md). Cycle-exact: hwprof_trace_ctrl_comb() gives this cycle's outputs,
 * hwprof_trace_ctrl_step() is one rising clock edge. */
#ifndef HWPROF_TRACE_CTRL_H
#define HWPROF_TRACE_CTRL_H

#include "ports.h"
#include "prim/counters.h"
#include "prim/fifo.h"
#include "trace_ctrl/autogen/trace_ctrl_reg.h"

/* The statistics counters (u_stats), as the RTL numbers them. */
enum {
  HWPROF_TC_ST_BACK = 0,
  HWPROF_TC_ST_IND,
  HWPROF_TC_ST_FULL,
  HWPROF_TC_ST_FILT,
  HWPROF_TC_ST_SAMP,
  HWPROF_TC_ST_DROP,
  HWPROF_TC_ST_N
};

#define HWPROF_TC_MAX_FIFO HWPROF_TFIFO_MAX
#if HWPROF_TFIFO_MAX > HWPROF_PRIM_FIFO_MAX_DEPTH
#error "the trace FIFO may be deeper than the FIFO primitive holds"
#endif

typedef struct {
  unsigned hist_w;     /* HistW: 2..32 */
  unsigned fifo_depth; /* FifoDepth: 1..HWPROF_TC_MAX_FIFO */
} hwprof_trace_ctrl_cfg_t;

/* Exactly the flops of hwprof_trace_ctrl: its register block's (CTRL, RANGE_LO/HI, SAMPLE_RELOAD)
 * and its own. */
typedef struct {
  hwprof_trace_ctrl_reg_state_t regs;
  uint32_t cur_start, cur_hist, last_start, last_hist;
  uint16_t count;
  bool pending; /* a trap entry ended the last trace: the next starts at the program's next pc */
  hwprof_prim_fifo_state_t fifo; /* {start, history} records, start in the upper 32 bits */
  hwprof_prim_counters_state_t stats; /* u_stats: HWPROF_TC_ST_* */
} hwprof_trace_ctrl_state_t;

typedef struct {
  bool ev_fire;
  const hwprof_retire_ev_t *ev;
  hwprof_reg_req_t reg;
} hwprof_trace_ctrl_in_t;

typedef struct {
  hwprof_reg_rsp_t reg;
  bool irq; /* set the TRACE interrupt cause */
} hwprof_trace_ctrl_out_t;

/* This cycle's outputs and the decisions the clock edge carries out. */
typedef struct {
  hwprof_trace_ctrl_out_t out;
  bool idle; /* at rest and not addressed: only out is set */
  bool active, entry, end_trace, backward, ijump, full, shift, in_range, collected, sampled, push, push_ok;
  uint32_t start, hist_shifted, ended_hist;
  hwprof_trace_ctrl_reg2hw_t r2h;
  hwprof_reg_rsp_t rsp;
  bool pop, clear;
} hwprof_trace_ctrl_eval_t;

void hwprof_trace_ctrl_cfg_default(hwprof_trace_ctrl_cfg_t *cfg);
hwprof_result_t hwprof_trace_ctrl_cfg_check(const hwprof_trace_ctrl_cfg_t *cfg);
void hwprof_trace_ctrl_reset(hwprof_trace_ctrl_state_t *s);
/* Off (every cycle of a run without trace firmware): with no register access, no event is looked
 * at, nothing is sampled, no strobe is set, so the edge changes nothing and the only output is the
 * FIFO-mode interrupt level of what the FIFO still holds. */
static inline bool hwprof_trace_ctrl_at_rest(const hwprof_trace_ctrl_state_t *s) { return !s->regs.ctrl_enable; }
/* With no register access, an event after which the edge changes nothing and the only output is
 * the FIFO-mode level: the controller off, no event, a trap handler's event, or, while no trace start
 * is pending, an event that neither ends a trace nor moves its history (not a branch, jump or
 * indirect jump, not trapping). */
static inline bool hwprof_trace_ctrl_passes(const hwprof_trace_ctrl_state_t *s, const hwprof_retire_ev_t *ev) {
  if (hwprof_trace_ctrl_at_rest(s) || !ev->valid || (ev->trap & 1u)) return true;
  return !s->pending && ev->trap != HWPROF_TRAP_ENTRY && ev->kind != HWPROF_KIND_BRANCH &&
         ev->kind != HWPROF_KIND_JUMP && ev->kind != HWPROF_KIND_IJUMP;
}
/* FIFO mode: the interrupt's level while the FIFO holds at least the watermark (see the RTL) */
static inline bool hwprof_trace_ctrl_level(const hwprof_trace_ctrl_state_t *s) {
  const unsigned wm = s->regs.ctrl_watermark ? s->regs.ctrl_watermark : 1u;
  return s->regs.ctrl_fifo_mode && s->fifo.count >= wm;
}
void hwprof_trace_ctrl_comb(const hwprof_trace_ctrl_state_t *s, const hwprof_trace_ctrl_cfg_t *cfg, const hwprof_trace_ctrl_in_t *in,
                     hwprof_trace_ctrl_out_t *out);
void hwprof_trace_ctrl_step(hwprof_trace_ctrl_state_t *s, const hwprof_trace_ctrl_cfg_t *cfg, const hwprof_trace_ctrl_in_t *in);
/* comb() and step() in two halves that decide once, for simulators that do both every cycle:
 * eval() gives this cycle's outputs (e->out) and decisions, commit() is the clock edge. */
void hwprof_trace_ctrl_eval(const hwprof_trace_ctrl_state_t *s, const hwprof_trace_ctrl_cfg_t *cfg,
                            const hwprof_trace_ctrl_in_t *in, hwprof_trace_ctrl_eval_t *e);
void hwprof_trace_ctrl_commit(hwprof_trace_ctrl_state_t *s, const hwprof_trace_ctrl_cfg_t *cfg, const hwprof_trace_ctrl_in_t *in,
                              const hwprof_trace_ctrl_eval_t *e);

#endif /* HWPROF_TRACE_CTRL_H */
