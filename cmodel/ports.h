/* Signals of hwprof_top's ports as the C model sees them (docs/architecture.md, docs/retire-port.md).
 * One struct per port direction; field names follow the RTL port names without the _i/_o suffix. */
#ifndef HWPROF_PORTS_H
#define HWPROF_PORTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "autogen/hwprof_regs.h"
#include "hwprof_result.h" /* errors are returned as negative codes, never abort() */

#define HWPROF_MASK(w) ((w) >= 64u ? ~UINT64_C(0) : ((UINT64_C(1) << (w)) - 1u))

/* Retire-event port: one retired instruction, held by the processor while ready is low. */
/* A line as it crosses the memory port: LineWords words of CntW bits, word 0 at the lowest address
 * (the profile cache's counters; the pir's stacks' spilled entries). */
typedef struct {
  uint64_t w[HWPROF_LINEWORDS_MAX];
} hwprof_line_t;

typedef struct {
  bool valid;
  uint32_t pc;
  uint32_t next_pc;
  uint32_t insn;
  uint8_t kind;     /* HWPROF_KIND_* */
  bool is_call;
  bool is_ret;
  bool taken;
  uint32_t addr;
  uint32_t value;
  uint16_t pid;     /* EV_PID_W bits, 0 = no profile ID */
  uint8_t bhint;    /* HWPROF_BHINT_* */
  bool ihint;       /* HWPROF_IHINT_* */
  uint8_t op;       /* HWPROF_PROF_OP_*, when kind is PROF */
  uint64_t operand; /* EV_OPERAND_W bits */
  uint8_t trap;     /* HWPROF_TRAP_*: the program's, a trap handler's, or the instruction that trapped */
} hwprof_retire_ev_t;

/* APB3 requester signals. */
typedef struct {
  bool psel;
  bool penable;
  bool pwrite;
  uint16_t paddr;
  uint32_t pwdata;
} hwprof_apb_req_t;

/* APB3 completer signals. */
typedef struct {
  uint32_t prdata;
  bool pready;
  bool pslverr;
} hwprof_apb_rsp_t;

/* One engine window's share of an APB access: the access phase aimed at the window (the RTL's
 * reg_*_i ports of a block and of its register block). */
typedef struct {
  bool access;
  bool write;
  uint16_t addr;
  uint32_t wdata;
} hwprof_reg_req_t;

/* A window's answer (reg_rdata_o, reg_error_o): rdata is 0 except in a read of a mapped register. */
typedef struct {
  uint32_t rdata;
  bool error;
} hwprof_reg_rsp_t;

/* A generated profile update operation. */
typedef struct {
  bool valid;
  uint64_t addr; /* byte address, PIR_BASE_W bits */
  bool dec;      /* 1 = decrement, 0 = increment */
} hwprof_upd_op_t;

#endif /* HWPROF_PORTS_H */
