/* The profiling fields of a retire event from the instruction's shadow word (docs/retire-port.md,
 * docs/pir.md): what a branch or jump carries (its pid and hints, a call's link word, a region
 * switch, a path word), and the operation a carrier word gives any other instruction. The CPU model
 * (sim/rv32.c) and the RVFI adapter's model (cmodel/core/rvfi_adapter.c) both decode with it; the
 * RTL adapter (rtl/core/hwprof_rvfi_adapter.sv) implements the same. */
#ifndef HWPROF_CMODEL_RETIRE_FIELDS_H
#define HWPROF_CMODEL_RETIRE_FIELDS_H

#include "ports.h"
#include "rv32_isa.h"

/* ev: kind, taken, is_call and is_ret already set; sh: the instruction's shadow word. */
static inline void hwprof_ev_shadow_fields(hwprof_retire_ev_t *ev, uint32_t sh) {
  if (ev->kind == HWPROF_KIND_BRANCH || ev->kind == HWPROF_KIND_JUMP || ev->kind == HWPROF_KIND_IJUMP) {
    if (ev->is_call) { /* a call's shadow word is its link word: no pid, no hints */
      if (rv32_shadow_linked(sh) || rv32_shadow_is_callinit(sh)) {
        ev->op = rv32_shadow_linked(sh) ? HWPROF_PROF_OP_PUSH : HWPROF_PROF_OP_INIT;
        ev->operand = rv32_shadow_link_base(sh);
      }
    } else if (rv32_shadow_has_path(sh)) { /* a path word (docs/path.md): no pid, no hints */
      if (ev->is_ret) {
        ev->op = rv32_shadow_pop(sh) ? HWPROF_PROF_OP_POP : HWPROF_PROF_OP_PATH;
        ev->operand = rv32_shadow_ret_path_word(sh);
      } else if (rv32_shadow_path_nt(sh) != ev->taken) {
        ev->op = HWPROF_PROF_OP_PATH;
        ev->operand = rv32_shadow_path_word(sh);
      }
    } else {
      ev->pid = (uint16_t)rv32_shadow_pid(sh);
      ev->bhint = (uint8_t)rv32_shadow_bhint(sh);
      ev->ihint = rv32_shadow_ihint(sh);
      if (ev->is_ret && rv32_shadow_pop(sh)) {
        ev->op = HWPROF_PROF_OP_POP;
      } else if (rv32_shadow_has_setoff(sh) && rv32_shadow_setoff_nt(sh) != ev->taken) {
        ev->op = HWPROF_PROF_OP_SETOFF; /* the region switch, when it went the chosen way */
        ev->operand = rv32_shadow_setoff_value(sh);
      }
    }
  } else if (ev->kind == HWPROF_KIND_OTHER || ev->kind == HWPROF_KIND_LOAD || ev->kind == HWPROF_KIND_STORE) {
    /* any other instruction: a carrier word gives it a prof.init, prof.setoff or prof.id */
    if (sh) rv32_carry_fields(sh, &ev->op, &ev->operand, &ev->pid, &ev->ihint);
  }
}

#endif /* HWPROF_CMODEL_RETIRE_FIELDS_H */
