/* C model of rtl/hwprof_pir.sv: the profile information register and update-operation generation
 * (seed 000, sections 6 and 7; docs/pir.md). Cycle-exact: comb() gives this cycle's outputs from
 * the state and inputs, step() is one rising clock edge. */
#ifndef HWPROF_PIR_H
#define HWPROF_PIR_H

#include "ports.h"
#include "reg/pir_reg.h"

typedef struct {
  unsigned cnt_w; /* counter width in bits: 8, 16, 32 or 64 (RTL parameter CntW) */
} pir_cfg_t;

/* Exactly the flops of hwprof_pir. */
typedef struct {
  uint64_t base;    /* PIR_BASE_W bits */
  uint32_t offset;  /* PIR_OFFSET_W bits */
  uint16_t trigger; /* PIR_TRIGGER_W bits */
  bool flag;
  uint32_t stat_events;
  uint32_t stat_updates;
  upd_op_t upd; /* registered update operation */
  hwprof_pir_reg_state_t regs; /* the register block (no flops: the pir holds every register) */
} pir_state_t;

typedef struct {
  bool ev_fire; /* a retire event is accepted this cycle */
  const retire_ev_t *ev;
  hwprof_reg_req_t reg; /* an APB access phase aimed at the pir window */
  bool ovf; /* a counter overflowed: decrement the trigger counter */
  bool unf; /* a counter underflowed: increment it (saturating) */
} pir_in_t;

typedef struct {
  hwprof_reg_rsp_t reg;
  bool upd_req; /* the presented event would generate an update operation */
  bool phase;   /* the trigger counter reaches zero this cycle */
  upd_op_t upd;
} pir_out_t;

/* Returns HWPROF_OK or HWPROF_EINVAL for a configuration the RTL does not accept. */
int pir_cfg_check(const pir_cfg_t *cfg);
void pir_reset(pir_state_t *s);
void pir_comb(const pir_state_t *s, const pir_cfg_t *cfg, const pir_in_t *in, pir_out_t *out);
void pir_step(pir_state_t *s, const pir_cfg_t *cfg, const pir_in_t *in);

#endif /* HWPROF_PIR_H */
