/* Random RV32 programs and their execution; see progen.h. */
#include "lib/progen.h"

#include <string.h>

uint32_t progen_enc_b(int32_t off, unsigned f3) {
  uint32_t i = (uint32_t)off;
  return ((i >> 12) & 1u) << 31 | ((i >> 5) & 0x3fu) << 25 | 5u << 20 | 6u << 15 | f3 << 12 | ((i >> 1) & 0xfu) << 8 |
         ((i >> 11) & 1u) << 7 | 0x63u;
}
uint32_t progen_enc_j(int32_t off, unsigned rd) {
  uint32_t i = (uint32_t)off;
  return ((i >> 20) & 1u) << 31 | ((i >> 1) & 0x3ffu) << 21 | ((i >> 11) & 1u) << 20 | ((i >> 12) & 0xffu) << 12 |
         rd << 7 | 0x6fu;
}
uint32_t progen_enc_jalr(unsigned rd, unsigned rs1) { return rs1 << 15 | rd << 7 | 0x67u; }
uint32_t progen_enc_addi(unsigned rd, unsigned rs1, int32_t imm) {
  return ((uint32_t)imm & 0xfffu) << 20 | rs1 << 15 | rd << 7 | 0x13u;
}

static uint32_t rnd(uint64_t *s, uint32_t n) {
  *s = *s * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
  return n ? (uint32_t)(*s >> 33) % n : 0;
}

void progen_generate(progen_program_t *p, uint64_t seed) {
  uint64_t s = seed;
  for (uint32_t w = 0; w < PROGEN_WORDS; w++) {
    uint32_t pc = PROGEN_BASE + 4u * w;
    uint32_t r = rnd(&s, 100);
    bool last = w == PROGEN_WORDS - 1;
    bool room = w + 1 < PROGEN_WORDS - 1; /* a forward target exists below the last word */
    if (last) {
      p->kind[w] = PG_JAL;
      p->code[w] = progen_enc_j(-(int32_t)(4 * w), 0);
      p->target[w] = PROGEN_BASE;
    } else if (r < 62) {
      p->kind[w] = PG_OTHER;
      p->code[w] = progen_enc_addi(1 + rnd(&s, 30), rnd(&s, 32), (int32_t)rnd(&s, 4096) - 2048);
    } else if (r < 84) {
      int32_t lo = w < 1000 ? -(int32_t)w : -1000;
      int32_t hi = PROGEN_WORDS - 1 - w > 1000 ? 1000 : (int32_t)(PROGEN_WORDS - 1 - w);
      int32_t d = lo + (int32_t)rnd(&s, (uint32_t)(hi - lo + 1));
      p->kind[w] = PG_BRANCH;
      p->code[w] = progen_enc_b(4 * d, rnd(&s, 2) ? 0u : 1u);
      p->target[w] = pc + (uint32_t)(4 * d);
    } else if (r < 94 && room) {
      bool call = r >= 90;
      int32_t d = 1 + (int32_t)rnd(&s, PROGEN_WORDS - 1 - w);
      p->kind[w] = call ? PG_CALL : PG_JAL;
      p->code[w] = progen_enc_j(4 * d, call ? 1u : 0u);
      p->target[w] = pc + (uint32_t)(4 * d);
    } else if (r < 94) {
      p->kind[w] = PG_OTHER;
      p->code[w] = progen_enc_addi(1, 1, 1);
    } else {
      p->kind[w] = PG_IJUMP;
      p->code[w] = progen_enc_jalr(0, rnd(&s, 2) ? 1u : 5u); /* a return or a jump through a register */
    }
  }
}

void progen_start(progen_run_t *r, uint64_t seed) {
  memset(r, 0, sizeof *r);
  r->rng = seed ^ UINT64_C(0x5eed);
  r->pc = PROGEN_BASE;
}

hwprof_retire_ev_t progen_step(const progen_program_t *p, progen_run_t *r) {
  uint32_t w = (r->pc - PROGEN_BASE) / 4u;
  hwprof_retire_ev_t ev = {.valid = true, .pc = r->pc, .insn = p->code[w], .kind = HWPROF_KIND_OTHER};
  uint32_t next = r->pc + 4u;
  switch (p->kind[w]) {
    case PG_BRANCH:
      ev.kind = HWPROF_KIND_BRANCH;
      ev.taken = rnd(&r->rng, 100) < 55;
      if (ev.taken) next = p->target[w];
      break;
    case PG_JAL:
    case PG_CALL:
      ev.kind = HWPROF_KIND_JUMP;
      ev.taken = true;
      ev.is_call = p->kind[w] == PG_CALL;
      next = p->target[w];
      if (ev.is_call && r->sp < 64) r->stack[r->sp++] = r->pc + 4u;
      break;
    case PG_IJUMP:
      ev.kind = HWPROF_KIND_IJUMP;
      ev.taken = true;
      ev.is_ret = r->sp && rnd(&r->rng, 2);
      next = ev.is_ret ? r->stack[--r->sp] : PROGEN_BASE + 4u * rnd(&r->rng, PROGEN_WORDS);
      break;
    default: break;
  }
  ev.next_pc = next;
  r->pc = next;
  return ev;
}

static void put16(uint8_t *b, uint32_t v) {
  b[0] = (uint8_t)v;
  b[1] = (uint8_t)(v >> 8);
}
static void put32(uint8_t *b, uint32_t v) {
  put16(b, v);
  put16(b + 2, v >> 16);
}

size_t progen_elf(const progen_program_t *p, uint8_t *buf) {
  memset(buf, 0, 84);
  memcpy(buf, "\x7f" "ELF", 4);
  buf[4] = 1; /* ELFCLASS32 */
  buf[5] = 1; /* little-endian */
  buf[6] = 1;
  put16(buf + 16, 2);   /* ET_EXEC */
  put16(buf + 18, 243); /* EM_RISCV */
  put32(buf + 20, 1);
  put32(buf + 24, PROGEN_BASE);
  put32(buf + 28, 52); /* program headers */
  put16(buf + 40, 52);
  put16(buf + 42, 32);
  put16(buf + 44, 1);
  uint8_t *ph = buf + 52;
  put32(ph, 1);  /* PT_LOAD */
  put32(ph + 4, 84);
  put32(ph + 8, PROGEN_BASE);
  put32(ph + 12, PROGEN_BASE);
  put32(ph + 16, 4u * PROGEN_WORDS);
  put32(ph + 20, 4u * PROGEN_WORDS);
  put32(ph + 24, 5); /* R X */
  for (uint32_t w = 0; w < PROGEN_WORDS; w++) put32(buf + 84 + 4 * w, p->code[w]);
  return PROGEN_ELF_BYTES;
}
