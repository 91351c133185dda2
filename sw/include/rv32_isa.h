/* RV32 instruction formats: the one place that knows how RV32I/M instructions and the profiling
 * extension's prof.* instructions (custom-1) are laid out. Used by the CPU model (sim/rv32.c), the trace
 * reconstruction (sw/lib/trace_recon.c) and the instrumenter (sw/host/instr/).
 *
 * Header-only static inline functions over uint32_t words: no heap, no stdio, so the firmware can
 * use it on the RV32 target (the dynamic optimizer re-lays code at run time). Immediates are
 * returned sign-extended as int32_t; the set_* functions replace an immediate field and keep every
 * other bit of the word. The memory map and the shadow-word layout of the profiling extension come
 * from regs/encodings.json (hwprof_regs.h).
 *
 * The test program generator (tb/lib/progen.c) keeps its own encoder on purpose: it is the independent
 * side of the trace round trip. */
#ifndef HWPROF_RV32_ISA_H
#define HWPROF_RV32_ISA_H

#include <stdbool.h>
#include <stdint.h>

#include "autogen/hwprof_regs.h"

/* major opcodes (bits 6:0) */
#define RV32_OP_LOAD 0x03u
#define RV32_OP_CUSTOM0 0x0bu /* picorv32's interrupt instructions (RV32_INSN_PICO_RETIRQ) */
#define RV32_OP_MISC_MEM 0x0fu
#define RV32_OP_IMM 0x13u
#define RV32_OP_AUIPC 0x17u
#define RV32_OP_STORE 0x23u
#define RV32_OP_PROF HWPROF_OPCODE_PROF /* the profiling extension's prof.* (custom-1) */
#define RV32_OP_REG 0x33u
#define RV32_OP_LUI 0x37u
#define RV32_OP_BRANCH 0x63u
#define RV32_OP_JALR 0x67u
#define RV32_OP_JAL 0x6fu
#define RV32_OP_SYSTEM 0x73u

#define RV32_INSN_WFI 0x10500073u
#define RV32_INSN_MRET 0x30200073u
/* picorv32's return from its interrupt handler (custom-0, funct7 2: pc = q0); the other instructions of
   its interrupt extension: getq rd, qN (funct7 0) and setq qN, rs (funct7 1) */
#define RV32_INSN_PICO_RETIRQ 0x0400000bu
#define RV32_INSN_EBREAK 0x00100073u
/* a semihosting call is ebreak between these two (slli x0,x0,0x1f and srai x0,x0,7) */
#define RV32_INSN_SEMIHOST_PRE 0x01f01013u
#define RV32_INSN_SEMIHOST_POST 0x40705013u

/* ---- fields */
static inline uint32_t rv32_opcode(uint32_t x) { return x & 0x7fu; }
static inline unsigned rv32_rd(uint32_t x) { return (x >> 7) & 0x1fu; }
static inline unsigned rv32_funct3(uint32_t x) { return (x >> 12) & 7u; }
static inline unsigned rv32_rs1(uint32_t x) { return (x >> 15) & 0x1fu; }
static inline unsigned rv32_rs2(uint32_t x) { return (x >> 20) & 0x1fu; }
static inline unsigned rv32_funct7(uint32_t x) { return x >> 25; }

/* the low `bits` bits of v, sign-extended */
static inline int32_t rv32_sext(uint32_t v, unsigned bits) {
  uint32_t m = UINT32_C(1) << (bits - 1u);
  v &= (m << 1) - 1u;
  return (int32_t)((v ^ m) - m);
}

/* ---- immediates, sign-extended */
static inline int32_t rv32_imm_i(uint32_t x) { return rv32_sext(x >> 20, 12); }
static inline int32_t rv32_imm_s(uint32_t x) { return rv32_sext((x >> 25) << 5 | ((x >> 7) & 0x1fu), 12); }
static inline int32_t rv32_imm_b(uint32_t x) {
  return rv32_sext(((x >> 31) & 1u) << 12 | ((x >> 7) & 1u) << 11 | ((x >> 25) & 0x3fu) << 5 | ((x >> 8) & 0xfu) << 1,
                   13);
}
static inline uint32_t rv32_imm_u(uint32_t x) { return x & 0xfffff000u; }
static inline int32_t rv32_imm_j(uint32_t x) {
  return rv32_sext(((x >> 31) & 1u) << 20 | ((x >> 12) & 0xffu) << 12 | ((x >> 20) & 1u) << 11 |
                       ((x >> 21) & 0x3ffu) << 1,
                   21);
}

/* ---- replacing an immediate (the caller checks the range: a B offset is 13 bits, a J offset 21) */
static inline uint32_t rv32_set_i(uint32_t x, int32_t imm) { return (x & 0xfffffu) | ((uint32_t)imm & 0xfffu) << 20; }
static inline uint32_t rv32_set_s(uint32_t x, int32_t imm) {
  uint32_t v = (uint32_t)imm;
  return (x & 0x01fff07fu) | ((v >> 5) & 0x7fu) << 25 | (v & 0x1fu) << 7;
}
static inline uint32_t rv32_set_b(uint32_t x, int32_t off) {
  uint32_t v = (uint32_t)off;
  return (x & 0x01fff07fu) | ((v >> 12) & 1u) << 31 | ((v >> 5) & 0x3fu) << 25 | ((v >> 1) & 0xfu) << 8 |
         ((v >> 11) & 1u) << 7;
}
static inline uint32_t rv32_set_u(uint32_t x, uint32_t hi20) { return (x & 0xfffu) | hi20 << 12; }
static inline uint32_t rv32_set_j(uint32_t x, int32_t off) {
  uint32_t v = (uint32_t)off;
  return (x & 0xfffu) | ((v >> 20) & 1u) << 31 | ((v >> 1) & 0x3ffu) << 21 | ((v >> 11) & 1u) << 20 |
         ((v >> 12) & 0xffu) << 12;
}
/* whether an offset fits a B-type (13-bit) or J-type (21-bit) field */
static inline bool rv32_fits_b(int64_t off) { return off >= -4096 && off <= 4094 && (off & 1) == 0; }
static inline bool rv32_fits_j(int64_t off) { return off >= -(1 << 20) && off <= (1 << 20) - 2 && (off & 1) == 0; }

/* hi/lo split of a 32-bit value or displacement for lui/auipc + addi/load/store (lo sign-extended) */
static inline uint32_t rv32_hi20(uint32_t v) { return ((v + 0x800u) >> 12) & 0xfffffu; }
static inline int32_t rv32_lo12(uint32_t v) { return rv32_sext(v & 0xfffu, 12); }

/* ---- encoders */
static inline uint32_t rv32_lui(unsigned rd, uint32_t v) { return rv32_set_u(RV32_OP_LUI | rd << 7, rv32_hi20(v)); }
static inline uint32_t rv32_addi(unsigned rd, unsigned rs1, int32_t imm) {
  return rv32_set_i(RV32_OP_IMM | rd << 7 | rs1 << 15, imm);
}
static inline uint32_t rv32_sw(unsigned rs2, unsigned rs1, int32_t off) {
  return rv32_set_s(RV32_OP_STORE | 2u << 12 | rs1 << 15 | rs2 << 20, off);
}
static inline uint32_t rv32_jal(unsigned rd, int32_t off) { return rv32_set_j(RV32_OP_JAL | rd << 7, off); }
static inline uint32_t rv32_lw(unsigned rd, unsigned rs1, int32_t off) {
  return rv32_set_i(RV32_OP_LOAD | 2u << 12 | rd << 7 | rs1 << 15, off);
}
static inline uint32_t rv32_add(unsigned rd, unsigned rs1, unsigned rs2) {
  return RV32_OP_REG | rd << 7 | rs1 << 15 | rs2 << 20;
}
static inline uint32_t rv32_slli(unsigned rd, unsigned rs1, unsigned sh) {
  return RV32_OP_IMM | 1u << 12 | rd << 7 | rs1 << 15 | (sh & 31u) << 20;
}
static inline uint32_t rv32_srli(unsigned rd, unsigned rs1, unsigned sh) {
  return RV32_OP_IMM | 5u << 12 | rd << 7 | rs1 << 15 | (sh & 31u) << 20;
}
static inline uint32_t rv32_andi(unsigned rd, unsigned rs1, int32_t imm) {
  return rv32_set_i(RV32_OP_IMM | 7u << 12 | rd << 7 | rs1 << 15, imm);
}
static inline uint32_t rv32_ori(unsigned rd, unsigned rs1, int32_t imm) {
  return rv32_set_i(RV32_OP_IMM | 6u << 12 | rd << 7 | rs1 << 15, imm);
}
static inline uint32_t rv32_sub(unsigned rd, unsigned rs1, unsigned rs2) {
  return RV32_OP_REG | 0x20u << 25 | rd << 7 | rs1 << 15 | rs2 << 20;
}
static inline uint32_t rv32_or(unsigned rd, unsigned rs1, unsigned rs2) {
  return RV32_OP_REG | 6u << 12 | rd << 7 | rs1 << 15 | rs2 << 20;
}
/* a conditional branch: funct3 0 beq, 1 bne, 4 blt, 5 bge, 6 bltu, 7 bgeu */
static inline uint32_t rv32_branch(unsigned funct3, unsigned rs1, unsigned rs2, int32_t off) {
  return rv32_set_b(RV32_OP_BRANCH | funct3 << 12 | rs1 << 15 | rs2 << 20, off);
}
/* prof.<op> (op = HWPROF_PROF_OP_*) with rs1 = x0: the operand comes from the instruction's shadow
 * word; prof.id carries its pid in imm[11:0] and its hints in rd (ihint rd[0], bhint rd[2:1]). */
static inline uint32_t rv32_prof(uint32_t op, uint32_t rd, uint32_t imm) {
  return (imm & 0xfffu) << 20 | op << 12 | rd << 7 | RV32_OP_PROF;
}

/* ---- control flow, as trace reconstruction and CFG building see it */
typedef enum {
  RV32_CF_NONE = 0, /* falls through */
  RV32_CF_BRANCH,   /* conditional, pc-relative (offset) */
  RV32_CF_JAL,      /* unconditional, pc-relative (offset) */
  RV32_CF_JALR,     /* indirect */
  RV32_CF_SYSTEM,   /* ecall, ebreak, mret: a trap or trap return (wfi excluded) */
} rv32_cf_t;

static inline rv32_cf_t rv32_control_flow(uint32_t x, int32_t *offset) {
  *offset = 0;
  switch (rv32_opcode(x)) {
    case RV32_OP_BRANCH: *offset = rv32_imm_b(x); return RV32_CF_BRANCH;
    case RV32_OP_JAL: *offset = rv32_imm_j(x); return RV32_CF_JAL;
    case RV32_OP_JALR: return RV32_CF_JALR;
    case RV32_OP_SYSTEM: return (rv32_funct3(x) == 0 && x != RV32_INSN_WFI) ? RV32_CF_SYSTEM : RV32_CF_NONE;
    default: return RV32_CF_NONE;
  }
}

/* ---- the shadow word of the profiling extension: pid, bhint, ihint of a branch or jump */
static inline uint32_t rv32_shadow(uint32_t pid, uint32_t bhint, uint32_t ihint) {
  return (pid & ((UINT32_C(1) << HWPROF_SHADOW_PID_W) - 1u)) << HWPROF_SHADOW_PID_LSB |
         (bhint & 3u) << HWPROF_SHADOW_BHINT_LSB | (ihint & 1u) << HWPROF_SHADOW_IHINT_LSB;
}

static inline uint32_t rv32_shadow_pid(uint32_t s) {
  return (s >> HWPROF_SHADOW_PID_LSB) & ((UINT32_C(1) << HWPROF_SHADOW_PID_W) - 1u);
}
static inline uint32_t rv32_shadow_bhint(uint32_t s) { return (s >> HWPROF_SHADOW_BHINT_LSB) & 3u; }
static inline uint32_t rv32_shadow_ihint(uint32_t s) { return (s >> HWPROF_SHADOW_IHINT_LSB) & 1u; }
static inline bool rv32_shadow_pop(uint32_t s) { return (s >> HWPROF_SHADOW_POP_LSB) & 1u; }

/* ---- calls and returns as the psABI and the profiling hardware see them: a jal/jalr whose rd is a
 * link register (ra or t0) is a call; a jalr x0 through one is a return */
static inline bool rv32_is_link_reg(uint32_t r) { return r == 1u || r == 5u; }

/* ---- the shadow word of a call (docs/pir.md, "Link stack"): a linked call to the counter area at
 * base (a multiple of 4) pushes the caller's pir; 0 leaves the pir alone */
static inline uint32_t rv32_shadow_link(uint32_t base) { return (base & ~UINT32_C(3)) | UINT32_C(1) << HWPROF_SHADOW_LINK_LSB; }
static inline bool rv32_shadow_linked(uint32_t s) { return (s >> HWPROF_SHADOW_LINK_LSB) & 1u; }
/* ... a call that starts the callee's area without saving the caller's pir */
static inline uint32_t rv32_shadow_callinit(uint32_t base) {
  return (base & ~UINT32_C(3)) | UINT32_C(1) << HWPROF_SHADOW_CALLINIT_LSB;
}
static inline bool rv32_shadow_is_callinit(uint32_t s) { return !rv32_shadow_linked(s) && ((s >> HWPROF_SHADOW_CALLINIT_LSB) & 1u); }

/* ---- a region switch carried by a branch or jump: offset (below 2^SHADOW_SETOFF_W) when it goes
 * the chosen way (not_taken: when a branch falls through; a jump is always taken) */
static inline uint32_t rv32_shadow_setoff(uint32_t offset, bool not_taken) {
  return UINT32_C(1) << HWPROF_SHADOW_SETOFF_EN_LSB | (uint32_t)not_taken << HWPROF_SHADOW_SETOFF_NT_LSB |
         (offset & ((UINT32_C(1) << HWPROF_SHADOW_SETOFF_W) - 1u)) << HWPROF_SHADOW_SETOFF_LSB;
}
static inline bool rv32_shadow_has_setoff(uint32_t s) { return (s >> HWPROF_SHADOW_SETOFF_EN_LSB) & 1u; }
static inline bool rv32_shadow_setoff_nt(uint32_t s) { return (s >> HWPROF_SHADOW_SETOFF_NT_LSB) & 1u; }
static inline uint32_t rv32_shadow_setoff_value(uint32_t s) {
  return (s >> HWPROF_SHADOW_SETOFF_LSB) & ((UINT32_C(1) << HWPROF_SHADOW_SETOFF_W) - 1u);
}
static inline uint32_t rv32_shadow_link_base(uint32_t s) { return s & ~UINT32_C(3); }

/* ---- a carrier word (docs/pir.md, "Carrier words"): the shadow word of an instruction that retires
 * as kind OTHER, LOAD or STORE gives it one pir operation, that of a prof.init (base, a multiple of
 * 4), prof.setoff (offset) or prof.id (pid, ihint) performed as it retires; 0 gives none */
static inline uint32_t rv32_carry_init(uint32_t base) {
  return (base & ~UINT32_C(3)) | HWPROF_CARRY_INIT << HWPROF_SHADOW_CARRY_LSB;
}
static inline uint32_t rv32_carry_setoff(uint32_t offset) {
  return offset << HWPROF_CARRY_WIDTH | HWPROF_CARRY_SETOFF << HWPROF_SHADOW_CARRY_LSB;
}
static inline uint32_t rv32_carry_id(uint32_t pid, uint32_t ihint) {
  return (pid & 0xffffu) << HWPROF_SHADOW_CARRY_PID_LSB | (ihint & 1u) << HWPROF_SHADOW_CARRY_IHINT_LSB |
         HWPROF_CARRY_ID << HWPROF_SHADOW_CARRY_LSB;
}
static inline uint32_t rv32_carry(uint32_t s) {
  return (s >> HWPROF_SHADOW_CARRY_LSB) & ((UINT32_C(1) << HWPROF_CARRY_WIDTH) - 1u);
}
/* ... the base of its prof.init, the offset of its prof.setoff */
static inline uint32_t rv32_carry_base(uint32_t s) { return s & ~UINT32_C(3); }
static inline uint32_t rv32_carry_offset(uint32_t s) { return s >> HWPROF_CARRY_WIDTH; }
/* ... the operation it carries as retire-event fields (the op is HWPROF_PROF_OP_ID with pid 0 for none) */
static inline void rv32_carry_fields(uint32_t s, uint8_t *op, uint64_t *operand, uint16_t *pid, bool *ihint) {
  switch (rv32_carry(s)) {
    case HWPROF_CARRY_INIT: *op = HWPROF_PROF_OP_INIT; *operand = rv32_carry_base(s); break;
    case HWPROF_CARRY_SETOFF: *op = HWPROF_PROF_OP_SETOFF; *operand = rv32_carry_offset(s); break;
    case HWPROF_CARRY_ID:
      *op = HWPROF_PROF_OP_ID;
      *pid = (uint16_t)(s >> HWPROF_SHADOW_CARRY_PID_LSB);
      *ihint = (s >> HWPROF_SHADOW_CARRY_IHINT_LSB) & 1u;
      break;
    default: break;
  }
}
/* The carrier word that does what the inserted profiling instruction x does (its shadow word sh
 * holds a prof.init's or prof.setoff's operand when rs1 = x0), or 0 when none can: another
 * operation, an operand from a register, a base that is not a multiple of 4. */
static inline uint32_t rv32_carry_of_prof(uint32_t x, uint32_t sh) {
  if (rv32_opcode(x) != RV32_OP_PROF) return 0;
  const unsigned op = rv32_funct3(x);
  if (op == HWPROF_PROF_OP_ID) { /* pid in imm[11:0], ihint in rd[0] (rv32_prof) */
    const uint32_t pid = x >> 20;
    return pid ? rv32_carry_id(pid, rv32_rd(x) & 1u) : 0;
  }
  if (rv32_rs1(x) != 0) return 0;
  if (op == HWPROF_PROF_OP_INIT) return (sh & 3u) ? 0 : rv32_carry_init(sh);
  if (op == HWPROF_PROF_OP_SETOFF) return sh >> (32u - HWPROF_CARRY_WIDTH) ? 0 : rv32_carry_setoff(sh);
  return 0;
}

/* ---- path words (docs/path.md): an operation (HWPROF_PATH_OP_*) and two values below
 * 2^PATH_VAL_W, in bits 28:0; prof.path (op HWPROF_PROF_OP_PATH, rs1 = x0) takes one from its
 * shadow word, a branch or jump carries one in its shadow word (bit 30 set, bit 31 clear) when it
 * goes the chosen way, a return carries the kind and a only (b reads 0: bit 19 stays its POP bit) */
#define RV32_PATH_VAL_MAX ((UINT32_C(1) << HWPROF_PATH_VAL_W) - 1u)
static inline uint32_t rv32_path_word(uint32_t kind, uint32_t a, uint32_t b) {
  return (kind & 7u) << HWPROF_PATH_KIND_LSB | (a & RV32_PATH_VAL_MAX) << HWPROF_PATH_A_LSB |
         (b & RV32_PATH_VAL_MAX) << HWPROF_PATH_B_LSB;
}
static inline uint32_t rv32_path_kind(uint32_t w) { return (w >> HWPROF_PATH_KIND_LSB) & 7u; }
static inline uint32_t rv32_path_a(uint32_t w) { return (w >> HWPROF_PATH_A_LSB) & RV32_PATH_VAL_MAX; }
static inline uint32_t rv32_path_b(uint32_t w) { return (w >> HWPROF_PATH_B_LSB) & RV32_PATH_VAL_MAX; }
static inline uint32_t rv32_shadow_path(uint32_t word, bool not_taken) {
  return UINT32_C(1) << HWPROF_SHADOW_PATH_LSB | (uint32_t)not_taken << HWPROF_SHADOW_PATH_NT_LSB |
         (word & ((UINT32_C(1) << HWPROF_SHADOW_PATH_NT_LSB) - 1u));
}
static inline bool rv32_shadow_has_path(uint32_t s) {
  return !rv32_shadow_has_setoff(s) && ((s >> HWPROF_SHADOW_PATH_LSB) & 1u);
}
static inline bool rv32_shadow_path_nt(uint32_t s) { return (s >> HWPROF_SHADOW_PATH_NT_LSB) & 1u; }
static inline uint32_t rv32_shadow_path_word(uint32_t s) {
  return s & ((UINT32_C(1) << HWPROF_SHADOW_PATH_NT_LSB) - 1u);
}
/* a return's: the word's kind and a (b must be 0), and the POP bit of a linked return */
static inline uint32_t rv32_shadow_ret_path(uint32_t word, bool linked) {
  return UINT32_C(1) << HWPROF_SHADOW_PATH_LSB | (word & ((UINT32_C(1) << HWPROF_PATH_B_LSB) - 1u)) |
         (uint32_t)linked << HWPROF_SHADOW_POP_LSB;
}
static inline uint32_t rv32_shadow_ret_path_word(uint32_t s) { return s & ((UINT32_C(1) << HWPROF_PATH_B_LSB) - 1u); }

#endif /* HWPROF_RV32_ISA_H */
