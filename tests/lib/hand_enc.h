/* RV32 encoders written by hand from the RISC-V specification for the unit tests: the independent
 * side of every test that decodes instructions (the CPU model, the CFG layer), so they share no code
 * with sw/include/rv32_isa.h. */
#ifndef HWPROF_TESTS_HAND_ENC_H
#define HWPROF_TESTS_HAND_ENC_H

#include <stdint.h>

static inline uint32_t r_type(uint32_t f7, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op) {
  return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
static inline uint32_t i_type(int32_t imm, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op) {
  return ((uint32_t)imm & 0xfffu) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
static inline uint32_t s_type(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3) {
  uint32_t i = (uint32_t)imm;
  return ((i >> 5) & 0x7fu) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (i & 0x1fu) << 7 | 0x23u;
}
static inline uint32_t b_type(int32_t off, uint32_t rs2, uint32_t rs1, uint32_t f3) {
  uint32_t i = (uint32_t)off;
  return ((i >> 12) & 1u) << 31 | ((i >> 5) & 0x3fu) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | ((i >> 1) & 0xfu) << 8 |
         ((i >> 11) & 1u) << 7 | 0x63u;
}
static inline uint32_t jal(int32_t off, uint32_t rd) {
  uint32_t i = (uint32_t)off;
  return ((i >> 20) & 1u) << 31 | ((i >> 1) & 0x3ffu) << 21 | ((i >> 11) & 1u) << 20 | ((i >> 12) & 0xffu) << 12 |
         rd << 7 | 0x6fu;
}
#endif /* HWPROF_TESTS_HAND_ENC_H */
