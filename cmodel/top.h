/* C model of rtl/hwprof_top.sv: the hwprof subsystem (APB window decode, retire-event port, and the
 * engines present). Cycle-exact and a drop-in replacement for the RTL: given the same inputs,
 * top_comb() gives the same outputs as the RTL on every cycle. */
#ifndef HWPROF_TOP_H
#define HWPROF_TOP_H

#include "pir.h"

typedef struct {
  pir_cfg_t pir;
} top_cfg_t;

/* Exactly the flops of hwprof_top: its engines' state. */
typedef struct {
  pir_state_t pir;
} top_state_t;

typedef struct {
  retire_ev_t ev;
  apb_req_t apb;
} top_in_t;

typedef struct {
  bool ev_ready;
  apb_rsp_t apb;
  upd_op_t upd;
} top_out_t;

/* Fill cfg with the RTL's default parameters. */
void top_cfg_default(top_cfg_t *cfg);
int top_cfg_check(const top_cfg_t *cfg);
void top_reset(top_state_t *s);
void top_comb(const top_state_t *s, const top_cfg_t *cfg, const top_in_t *in, top_out_t *out);
void top_step(top_state_t *s, const top_cfg_t *cfg, const top_in_t *in);

#endif /* HWPROF_TOP_H */
