/* C model of rtl/hwprof_trace_ctrl.sv: trace start address and branch history with marker bit,
 * termination, last-trace registers, FIFO, address-range filter, sampling counter (seed 002;
 * docs/trace-ctrl.md). Cycle-exact: trace_ctrl_comb() gives this cycle's outputs,
 * trace_ctrl_step() is one rising clock edge. */
#ifndef HWPROF_TRACE_CTRL_H
#define HWPROF_TRACE_CTRL_H

#include "ports.h"
#include "reg/trace_ctrl_reg.h"

#define TC_MAX_FIFO 128u

typedef struct {
  unsigned hist_w;     /* HistW: 2..32 */
  unsigned fifo_depth; /* FifoDepth: 1..TC_MAX_FIFO */
} trace_ctrl_cfg_t;

/* Exactly the flops of hwprof_trace_ctrl: its register block's (CTRL, RANGE_LO/HI, SAMPLE_RELOAD)
 * and its own. */
typedef struct {
  hwprof_trace_ctrl_reg_state_t regs;
  uint32_t cur_start, cur_hist, last_start, last_hist;
  uint16_t count;
  uint32_t fifo_start[TC_MAX_FIFO];
  uint32_t fifo_hist[TC_MAX_FIFO];
  unsigned fifo_head, fifo_count;
  uint32_t st_back, st_ind, st_full, st_filt, st_samp, st_drop;
} trace_ctrl_state_t;

typedef struct {
  bool ev_fire;
  const retire_ev_t *ev;
  hwprof_reg_req_t reg;
} trace_ctrl_in_t;

typedef struct {
  hwprof_reg_rsp_t reg;
  bool irq; /* set the TRACE interrupt cause */
} trace_ctrl_out_t;

void trace_ctrl_cfg_default(trace_ctrl_cfg_t *cfg);
int trace_ctrl_cfg_check(const trace_ctrl_cfg_t *cfg);
void trace_ctrl_reset(trace_ctrl_state_t *s);
void trace_ctrl_comb(const trace_ctrl_state_t *s, const trace_ctrl_cfg_t *cfg, const trace_ctrl_in_t *in,
                     trace_ctrl_out_t *out);
void trace_ctrl_step(trace_ctrl_state_t *s, const trace_ctrl_cfg_t *cfg, const trace_ctrl_in_t *in);

#endif /* HWPROF_TRACE_CTRL_H */
