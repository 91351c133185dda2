/* Random RV32 programs with real instruction encodings, and a consistent execution of them: the
 * control flow (branch outcomes, indirect targets) is drawn at random, but always agrees with the
 * program's code, so whoever runs it knows every instruction executed. Used by the trace round-trip
 * test and by the lockstep bench's program stream. */
#ifndef HWPROF_PROGEN_H
#define HWPROF_PROGEN_H

#include <stddef.h>
#include <stdint.h>

#include "ports.h"

#define PROGEN_BASE UINT32_C(0x80000000)
#define PROGEN_WORDS 2048u
#define PROGEN_ELF_BYTES (84u + 4u * PROGEN_WORDS)

typedef enum { PG_OTHER, PG_BRANCH, PG_JAL, PG_CALL, PG_IJUMP } progen_kind_t;

typedef struct {
  uint32_t code[PROGEN_WORDS];
  uint8_t kind[PROGEN_WORDS];     /* progen_kind_t */
  uint32_t target[PROGEN_WORDS];  /* direct targets */
} progen_program_t;

typedef struct {
  uint64_t rng;
  uint32_t pc;
  uint32_t stack[64]; /* return addresses of calls, for returns */
  unsigned sp;
} progen_run_t;

/* Branch targets stay within the B-type range and the image; unconditional jumps and calls go
 * forward, except the last word, which jumps back to the start: straight-line execution never
 * leaves the image and no unconditional cycle can trap the run. */
void progen_generate(progen_program_t *p, uint64_t seed);
void progen_start(progen_run_t *r, uint64_t seed);
/* The retire event of the instruction at r->pc; advances r->pc to the next one executed. */
hwprof_retire_ev_t progen_step(const progen_program_t *p, progen_run_t *r);
/* An ELF32 RISC-V executable holding the program (PROGEN_ELF_BYTES); returns its length. */
size_t progen_elf(const progen_program_t *p, uint8_t *buf);

/* RV32 encodings, for tests that edit a program */
uint32_t progen_enc_b(int32_t off, unsigned funct3);
uint32_t progen_enc_j(int32_t off, unsigned rd);
uint32_t progen_enc_jalr(unsigned rd, unsigned rs1);
uint32_t progen_enc_addi(unsigned rd, unsigned rs1, int32_t imm);

#endif /* HWPROF_PROGEN_H */
