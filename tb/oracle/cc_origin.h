/* Where a retired instruction comes from when code runs from a code cache (docs/dynopt.md,
 * "Re-laying functions out while they run"): the dynamic optimizer copies the program's code into
 * the cache [lo, hi) and keeps, in the (hi - lo) bytes right below lo, one word per cache word: the
 * program address whose instruction that word is a copy of, or 0 for a word of the cache's own (a
 * stub, a jump between blocks, an old copy's block start sent on to a newer copy). In the program, a
 * jal x0 into the cache is a patch, not an instruction of the program. The exact profiles that
 * check the hardware (the edge check, the phase truth) see the program through this: an
 * instruction of the cache's own is not there, a copy is its original, and where a transfer went is
 * where the next instruction of the program came from. The cache's trampolines (jal x0 words outside
 * it that its exits leave through, so that they reach the code by a backward jump) are its own words
 * too. */
#ifndef HWPROF_TB_CHECK_CC_ORIGIN_H
#define HWPROF_TB_CHECK_CC_ORIGIN_H

#include <stdbool.h>
#include <stdint.h>

#include "rv32_isa.h"

typedef struct {
  uint32_t lo, hi; /* the cache; hi = 0: none */
  uint32_t tramp_lo, tramp_hi; /* its trampolines (cc_origin_set_trampolines); empty: none */
  const uint8_t *ram;
  uint32_t ram_base, ram_size;
  uint64_t copies, own; /* instructions retired from copies, and the cache's own or patches */
} cc_origin_t;

static inline uint32_t cc_origin_word(const cc_origin_t *o, uint32_t a) {
  if (a < o->ram_base || a - o->ram_base > o->ram_size - 4u) return 0;
  const uint8_t *p = o->ram + (a - o->ram_base);
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void cc_origin_set_trampolines(cc_origin_t *o, uint32_t lo, uint32_t hi) {
  o->tramp_lo = lo;
  o->tramp_hi = hi;
}

/* The program address of the instruction retired at pc, or 0 if it is not the program's. */
static inline uint32_t cc_origin_of(cc_origin_t *o, uint32_t pc) {
  if (pc >= o->tramp_lo && pc < o->tramp_hi) {
    o->own++;
    return 0;
  }
  if (pc >= o->lo && pc < o->hi) {
    const uint32_t from = cc_origin_word(o, o->lo - (o->hi - o->lo) + (pc - o->lo));
    o->copies += from != 0;
    o->own += from == 0;
    return from;
  }
  const uint32_t w = cc_origin_word(o, pc);
  int32_t off;
  if (rv32_control_flow(w, &off) == RV32_CF_JAL && rv32_rd(w) == 0 && pc + (uint32_t)off >= o->lo &&
      pc + (uint32_t)off < o->hi) {
    o->own++;
    return 0;
  }
  return pc;
}

#endif /* HWPROF_TB_CHECK_CC_ORIGIN_H */
