/* RV32IM disassembly for listings (hwprof-wpp's block stream); see include/rv32_disasm.h. */
#include "rv32_disasm.h"

#include <stdio.h>

#include "rv32_isa.h"

static const char *const kReg[32] = {"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0",
                                     "a1",   "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5",
                                     "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};

const char *rv32_disasm(uint32_t pc, uint32_t x, char *buf, size_t len) {
  const unsigned rd = rv32_rd(x), rs1 = rv32_rs1(x), rs2 = rv32_rs2(x), f3 = rv32_funct3(x), f7 = rv32_funct7(x);
  static const char *const kLoad[8] = {"lb", "lh", "lw", NULL, "lbu", "lhu", NULL, NULL};
  static const char *const kStore[8] = {"sb", "sh", "sw", NULL, NULL, NULL, NULL, NULL};
  static const char *const kBranch[8] = {"beq", "bne", NULL, NULL, "blt", "bge", "bltu", "bgeu"};
  static const char *const kImm[8] = {"addi", NULL, "slti", "sltiu", "xori", NULL, "ori", "andi"};
  static const char *const kReg0[8] = {"add", "sll", "slt", "sltu", "xor", "srl", "or", "and"};
  static const char *const kMul[8] = {"mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"};
  switch (rv32_opcode(x)) {
    case RV32_OP_LUI: snprintf(buf, len, "lui %s, 0x%x", kReg[rd], x >> 12); return buf;
    case RV32_OP_AUIPC: snprintf(buf, len, "auipc %s, 0x%x", kReg[rd], x >> 12); return buf;
    case RV32_OP_JAL: snprintf(buf, len, "jal %s, 0x%08x", kReg[rd], pc + (uint32_t)rv32_imm_j(x)); return buf;
    case RV32_OP_JALR:
      if (f3 != 0) break;
      snprintf(buf, len, "jalr %s, %d(%s)", kReg[rd], rv32_imm_i(x), kReg[rs1]);
      return buf;
    case RV32_OP_BRANCH:
      if (kBranch[f3] == NULL) break;
      snprintf(buf, len, "%s %s, %s, 0x%08x", kBranch[f3], kReg[rs1], kReg[rs2], pc + (uint32_t)rv32_imm_b(x));
      return buf;
    case RV32_OP_LOAD:
      if (kLoad[f3] == NULL) break;
      snprintf(buf, len, "%s %s, %d(%s)", kLoad[f3], kReg[rd], rv32_imm_i(x), kReg[rs1]);
      return buf;
    case RV32_OP_STORE:
      if (kStore[f3] == NULL) break;
      snprintf(buf, len, "%s %s, %d(%s)", kStore[f3], kReg[rs2], rv32_imm_s(x), kReg[rs1]);
      return buf;
    case RV32_OP_IMM:
      if (f3 == 1 && f7 == 0) snprintf(buf, len, "slli %s, %s, %u", kReg[rd], kReg[rs1], rs2);
      else if (f3 == 5 && (f7 == 0 || f7 == 0x20)) snprintf(buf, len, "%s %s, %s, %u", f7 ? "srai" : "srli", kReg[rd], kReg[rs1], rs2);
      else if (kImm[f3]) snprintf(buf, len, "%s %s, %s, %d", kImm[f3], kReg[rd], kReg[rs1], rv32_imm_i(x));
      else break;
      return buf;
    case RV32_OP_REG:
      if (f7 == 1) snprintf(buf, len, "%s %s, %s, %s", kMul[f3], kReg[rd], kReg[rs1], kReg[rs2]);
      else if (f7 == 0) snprintf(buf, len, "%s %s, %s, %s", kReg0[f3], kReg[rd], kReg[rs1], kReg[rs2]);
      else if (f7 == 0x20 && (f3 == 0 || f3 == 5)) snprintf(buf, len, "%s %s, %s, %s", f3 ? "sra" : "sub", kReg[rd], kReg[rs1], kReg[rs2]);
      else break;
      return buf;
    case RV32_OP_MISC_MEM: snprintf(buf, len, f3 == 1 ? "fence.i" : "fence"); return buf;
    case RV32_OP_SYSTEM:
      if (x == 0x00000073u) snprintf(buf, len, "ecall");
      else if (x == RV32_INSN_EBREAK) snprintf(buf, len, "ebreak");
      else if (x == RV32_INSN_MRET) snprintf(buf, len, "mret");
      else if (x == RV32_INSN_WFI) snprintf(buf, len, "wfi");
      else if (f3 != 0 && f3 != 4) {
        static const char *const kCsr[8] = {NULL, "csrrw", "csrrs", "csrrc", NULL, "csrrwi", "csrrsi", "csrrci"};
        if (f3 & 4u) snprintf(buf, len, "%s %s, 0x%x, %u", kCsr[f3], kReg[rd], x >> 20, rs1);
        else snprintf(buf, len, "%s %s, 0x%x, %s", kCsr[f3], kReg[rd], x >> 20, kReg[rs1]);
      } else break;
      return buf;
    case RV32_OP_PROF: {
      static const char *const kProf[8] = {"prof.id", "prof.init", "prof.setoff", "prof.start", "prof.stop", "prof.trigger",
                                           NULL, NULL}; /* HWPROF_PROF_OP_*; 6 and 7 are reserved for kind PROF */
      if (kProf[f3] == NULL) break;
      snprintf(buf, len, "%s %s, 0x%x", kProf[f3], kReg[rd], x >> 20);
      return buf;
    }
    default: break;
  }
  snprintf(buf, len, ".word 0x%08x", x);
  return buf;
}
