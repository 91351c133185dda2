/* RV32IM disassembly, one instruction to text ("addi a0, a0, 1"; branch and jump targets as
 * absolute addresses; the profiling extension's custom-1 instructions as prof.<funct3>; anything
 * else as .word). For listings only: nothing decodes this text back. */
#ifndef HWPROF_RV32_DISASM_H
#define HWPROF_RV32_DISASM_H

#include <stddef.h>
#include <stdint.h>

const char *rv32_disasm(uint32_t pc, uint32_t insn, char *buf, size_t len);

#endif /* HWPROF_RV32_DISASM_H */
