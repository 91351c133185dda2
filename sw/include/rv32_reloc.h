/* RISC-V psABI relocations as linked RV32 programs keep them (-Wl,--emit-relocs): the types the
 * tools handle and one record per relocated field. Plain types, no heap, no stdio: the host's ELF
 * reader (sw/elf/) fills them, the CFG layer (sw/cfg/) and the rewriting layer (sw/rewrite/) read
 * them, and the firmware may use them on the RV32 target. */
#ifndef HWPROF_RV32_RELOC_H
#define HWPROF_RV32_RELOC_H

#include <stdint.h>

enum {
  R_RISCV_NONE = 0,
  R_RISCV_32 = 1,
  R_RISCV_BRANCH = 16,
  R_RISCV_JAL = 17,
  R_RISCV_CALL = 18,
  R_RISCV_CALL_PLT = 19,
  R_RISCV_GOT_HI20 = 20,
  R_RISCV_PCREL_HI20 = 23,
  R_RISCV_PCREL_LO12_I = 24,
  R_RISCV_PCREL_LO12_S = 25,
  R_RISCV_HI20 = 26,
  R_RISCV_LO12_I = 27,
  R_RISCV_LO12_S = 28,
  R_RISCV_ADD32 = 35,
  R_RISCV_SUB32 = 39,
  R_RISCV_ALIGN = 43,
  R_RISCV_RELAX = 51,
};

typedef struct {
  uint32_t where;  /* address of the relocated field */
  uint32_t type;
  uint32_t target; /* S + A: the address the field refers to */
  uint32_t sym;    /* symbol index */
} rv32_reloc_t;

/* Index of the first relocation at addr or above in rel[n], sorted by where. */
static inline unsigned rv32_reloc_lower_bound(const rv32_reloc_t *rel, unsigned n, uint32_t addr) {
  unsigned lo = 0, hi = n;
  while (lo < hi) {
    unsigned mid = lo + (hi - lo) / 2;
    if (rel[mid].where < addr) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Whether the auipc at addr starts a call pair (R_RISCV_CALL/CALL_PLT); its target into *target. */
static inline int rv32_reloc_call_at(const rv32_reloc_t *rel, unsigned n, uint32_t addr, uint32_t *target) {
  for (unsigned i = rv32_reloc_lower_bound(rel, n, addr); i < n && rel[i].where == addr; i++)
    if (rel[i].type == R_RISCV_CALL || rel[i].type == R_RISCV_CALL_PLT) {
      if (target) *target = rel[i].target;
      return 1;
    }
  return 0;
}

#endif /* HWPROF_RV32_RELOC_H */
