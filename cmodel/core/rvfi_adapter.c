/* The RVFI adapter's C model; see rvfi_adapter.h. */
#include "core/rvfi_adapter.h"

#include <string.h>

#include "core/retire_fields.h"
#include "rv32_isa.h"

void rvfi_adapter_reset(rvfi_adapter_t *a) {
  memset(a, 0, sizeof *a);
  for (unsigned i = 0; i < RVFI_ADAPTER_FETCHES; i++) a->f_addr[i] = UINT32_MAX;
}

void rvfi_adapter_decode(const rvfi_in_t *in, uint32_t sh, hwprof_retire_ev_t *ev) {
  const uint32_t x = in->insn, rd = rv32_rd(x), rs1 = rv32_rs1(x), f3 = rv32_funct3(x);
  const uint32_t a = in->rs1_rdata, b = in->rs2_rdata;
  memset(ev, 0, sizeof *ev);
  ev->valid = true;
  ev->pc = in->pc_rdata;
  ev->next_pc = in->pc_wdata;
  ev->insn = x;
  ev->kind = HWPROF_KIND_OTHER;
  switch (rv32_opcode(x)) {
    case RV32_OP_BRANCH:
      ev->kind = HWPROF_KIND_BRANCH;
      switch (f3) {
        case 0: ev->taken = a == b; break;
        case 1: ev->taken = a != b; break;
        case 4: ev->taken = (int32_t)a < (int32_t)b; break;
        case 5: ev->taken = (int32_t)a >= (int32_t)b; break;
        case 6: ev->taken = a < b; break;
        default: ev->taken = a >= b; break;
      }
      break;
    case RV32_OP_JAL:
      ev->kind = HWPROF_KIND_JUMP;
      ev->taken = true;
      ev->is_call = rv32_is_link_reg(rd);
      break;
    case RV32_OP_JALR:
      ev->kind = HWPROF_KIND_IJUMP;
      ev->taken = true;
      ev->is_call = rv32_is_link_reg(rd);
      ev->is_ret = rd == 0u && rv32_is_link_reg(rs1);
      break;
    case RV32_OP_LOAD: {
      ev->kind = HWPROF_KIND_LOAD;
      ev->addr = a + (uint32_t)rv32_imm_i(x);
      const uint32_t w = in->mem_rdata >> (8u * (ev->addr & 3u));
      switch (f3) {
        case 0: ev->value = (uint32_t)(int32_t)(int8_t)w; break;
        case 1: ev->value = (uint32_t)(int32_t)(int16_t)w; break;
        case 4: ev->value = w & 0xffu; break;
        case 5: ev->value = w & 0xffffu; break;
        default: ev->value = w; break;
      }
      break;
    }
    case RV32_OP_STORE:
      ev->kind = HWPROF_KIND_STORE;
      ev->addr = a + (uint32_t)rv32_imm_s(x);
      ev->value = b;
      break;
    case RV32_OP_PROF:
      ev->kind = HWPROF_KIND_PROF;
      ev->op = (uint8_t)f3;
      ev->operand = (rs1 == 0u && f3 != HWPROF_PROF_OP_ID) ? sh : a;
      if (f3 == HWPROF_PROF_OP_ID) {
        ev->pid = (uint16_t)(x >> 20);
        ev->ihint = rd & 1u;
        ev->bhint = (uint8_t)((rd >> 1) & 3u);
      }
      break;
    case RV32_OP_SYSTEM:
    case RV32_OP_CUSTOM0:
      if (x == RV32_INSN_MRET || x == RV32_INSN_PICO_RETIRQ) { /* a handler's return: as the CPU model's mret */
        ev->kind = HWPROF_KIND_IJUMP;
        ev->taken = true;
      }
      break;
    default: break;
  }
  hwprof_ev_shadow_fields(ev, sh);
}

rvfi_adapter_out_t rvfi_adapter_out(const rvfi_adapter_t *a, bool ev_ready) {
  rvfi_adapter_out_t o = {.ev = a->ev, .stall = a->valid && !ev_ready, .err = a->err};
  o.ev.valid = a->valid;
  return o;
}

void rvfi_adapter_step(rvfi_adapter_t *a, const rvfi_in_t *in, bool ev_ready) {
  if (in->valid) {
    bool hit = false;
    uint32_t sh = 0;
    for (unsigned i = 0; i < RVFI_ADAPTER_FETCHES && !hit; i++) /* the most recent fetch of its address */
      if (a->f_addr[i] == in->pc_rdata) {
        hit = true;
        sh = a->f_sh[i];
      }
    a->err = a->err || (a->valid && !ev_ready) || !hit;
    rvfi_adapter_decode(in, sh, &a->ev);
    const bool handler = in->intr || a->handler;
    a->ev.trap = handler ? HWPROF_TRAP_HANDLER : HWPROF_TRAP_NONE;
    a->handler = handler && in->insn != RV32_INSN_MRET && in->insn != RV32_INSN_PICO_RETIRQ;
    a->valid = true;
  } else if (ev_ready) {
    a->valid = false;
  }
  if (in->fetch) {
    memmove(&a->f_addr[1], &a->f_addr[0], (RVFI_ADAPTER_FETCHES - 1) * sizeof a->f_addr[0]);
    memmove(&a->f_sh[1], &a->f_sh[0], (RVFI_ADAPTER_FETCHES - 1) * sizeof a->f_sh[0]);
    a->f_addr[0] = in->fetch_addr;
    a->f_sh[0] = in->fetch_shadow;
  }
}
