/* An address computed from the pc with no relocation for the linker to keep (the assembler
 * resolved it): code that moves would compute another address, so the instrumenter must refuse the
 * program (make test, instr-rejects-bad-input). */
  .option norelax
  .text
  .globl main
  .type main, @function
main:
  auipc a0, 0
  addi a0, a0, 16
  lw a0, 0(a0)
  ret
  .word 0
  .size main, . - main
