/* RISC-V psABI relocations as linked RV32 programs keep them (-Wl,--emit-relocs): the types the
 * tools handle and one record per relocated field. Plain types, no heap, no stdio: the host's ELF
 * reader (sw/host/elf/) fills them, the CFG layer (sw/lib/cfg/) and the rewriting layer (sw/host/rewrite/) read
 * them, and the firmware may use them on the RV32 target. */
#ifndef HWPROF_RV32_RELOC_H
#define HWPROF_RV32_RELOC_H

#include <stdint.h>

#include "rv32_isa.h"

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
  R_RISCV_TPREL_HI20 = 29,
  R_RISCV_TPREL_LO12_I = 30,
  R_RISCV_TPREL_LO12_S = 31,
  R_RISCV_TPREL_ADD = 32,
  R_RISCV_ADD32 = 35,
  R_RISCV_SUB32 = 39,
  R_RISCV_ALIGN = 43,
  R_RISCV_RELAX = 51,
};

/* The psABI name of a relocation type, without its R_RISCV_ prefix ("type N" names it otherwise). */
static inline const char *rv32_reloc_name(uint32_t type) {
  switch (type) {
    case 0: return "NONE"; case 1: return "32"; case 2: return "64"; case 3: return "RELATIVE";
    case 16: return "BRANCH"; case 17: return "JAL"; case 18: return "CALL"; case 19: return "CALL_PLT";
    case 20: return "GOT_HI20"; case 21: return "TLS_GOT_HI20"; case 22: return "TLS_GD_HI20";
    case 23: return "PCREL_HI20"; case 24: return "PCREL_LO12_I"; case 25: return "PCREL_LO12_S";
    case 26: return "HI20"; case 27: return "LO12_I"; case 28: return "LO12_S"; case 29: return "TPREL_HI20";
    case 30: return "TPREL_LO12_I"; case 31: return "TPREL_LO12_S"; case 32: return "TPREL_ADD";
    case 33: return "ADD8"; case 34: return "ADD16"; case 35: return "ADD32"; case 36: return "ADD64";
    case 37: return "SUB8"; case 38: return "SUB16"; case 39: return "SUB32"; case 40: return "SUB64";
    case 43: return "ALIGN"; case 44: return "RVC_BRANCH"; case 45: return "RVC_JUMP"; case 51: return "RELAX";
    case 52: return "SUB6"; case 53: return "SET6"; case 54: return "SET8"; case 55: return "SET16";
    case 56: return "SET32"; case 57: return "32_PCREL";
    default: return "unknown";
  }
}

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

/* Whether the words at addr (auipc_word) and addr + 4 (jalr_word) are a call pair: an auipc with an
 * R_RISCV_CALL/CALL_PLT relocation, or, with no relocation at addr at all, an auipc rX and a jalr
 * through rX (what an assembler leaves when caller and callee share a section: clang's, for a
 * function calling itself). Its target into *target: the relocation's, or decoded from the pair. */
static inline int rv32_call_pair_at(const rv32_reloc_t *rel, unsigned n, uint32_t addr, uint32_t auipc_word,
                                    uint32_t jalr_word, uint32_t *target) {
  const unsigned i = rv32_reloc_lower_bound(rel, n, addr);
  if (i < n && rel[i].where == addr) return rv32_reloc_call_at(rel, n, addr, target);
  if (rv32_opcode(auipc_word) != RV32_OP_AUIPC || rv32_rd(auipc_word) == 0 || rv32_opcode(jalr_word) != RV32_OP_JALR ||
      (jalr_word >> 12 & 7u) != 0 || rv32_rs1(jalr_word) != rv32_rd(auipc_word))
    return 0;
  if (target) *target = addr + rv32_imm_u(auipc_word) + (uint32_t)rv32_imm_i(jalr_word);
  return 1;
}

#endif /* HWPROF_RV32_RELOC_H */
