/* The C model of rtl/core/hwprof_rvfi_adapter.sv: a core's RVFI records (one retired instruction
 * each) and the shadow words of its instruction fetches to hwprof_top's retire-event port, through
 * a one-entry buffer that holds the core's memory while an event waits (docs/picorv32.md). Cycle by
 * cycle as the RTL: rvfi_adapter_out() gives the outputs of the current state, rvfi_adapter_step()
 * advances one clock. */
#ifndef HWPROF_CMODEL_RVFI_ADAPTER_H
#define HWPROF_CMODEL_RVFI_ADAPTER_H

#include <stdbool.h>
#include <stdint.h>

#include "ports.h"

/* The RVFI fields the adapter reads, and the fetch beside them. */
typedef struct {
  bool valid;
  uint32_t insn, pc_rdata, pc_wdata, rs1_rdata, rs2_rdata, mem_rdata;
  bool intr; /* rvfi_intr: the record is a trap handler's first instruction */
  bool fetch;
  uint32_t fetch_addr, fetch_shadow;
} rvfi_in_t;

#define RVFI_ADAPTER_FETCHES 4 /* the RTL's Fetches: picorv32 fetches a branch's fall-through and target
                                   before its record arrives */

typedef struct {
  uint32_t f_addr[RVFI_ADAPTER_FETCHES], f_sh[RVFI_ADAPTER_FETCHES]; /* the last fetches, [0] the most recent */
  bool valid, err;
  bool handler;                /* inside a trap handler: from a record with intr through the mret or
                                  retirq that returns */
  hwprof_retire_ev_t ev;       /* the held event (ev.valid unused: valid above) */
} rvfi_adapter_t;

typedef struct {
  hwprof_retire_ev_t ev; /* ev.valid: ev_valid_o */
  bool stall, err;
} rvfi_adapter_out_t;

void rvfi_adapter_reset(rvfi_adapter_t *a);
/* The retire event a record describes, decoded as the CPU model (sim/rv32.c) retires it; sh is the
 * instruction's shadow word. Its trap field is NONE: whether the record is a handler's is the
 * adapter's state (rvfi_adapter_step). */
void rvfi_adapter_decode(const rvfi_in_t *in, uint32_t sh, hwprof_retire_ev_t *ev);
rvfi_adapter_out_t rvfi_adapter_out(const rvfi_adapter_t *a, bool ev_ready);
void rvfi_adapter_step(rvfi_adapter_t *a, const rvfi_in_t *in, bool ev_ready);

#endif /* HWPROF_CMODEL_RVFI_ADAPTER_H */
