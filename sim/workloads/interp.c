/* A small stack-machine bytecode interpreter running two different scripts: an iterative
 * Fibonacci (phase 1) and a prime sieve written as bytecode loops (phase 2). */
#include "common.h"

enum { PUSH, LOAD, STORE, ADD, SUB, MUL, LT, JZ, JMP, HALT, LOADI, STOREI };

static int32_t mem[2048];

static int32_t run(const int32_t *code) {
  int32_t stack[64];
  int sp = 0, pc = 0;
  for (;;) {
    int32_t op = code[pc++];
    switch (op) {
      case PUSH: stack[sp++] = code[pc++]; break;
      case LOAD: stack[sp++] = mem[code[pc++]]; break;
      case STORE: mem[code[pc++]] = stack[--sp]; break;
      case ADD: sp--; stack[sp - 1] += stack[sp]; break;
      case SUB: sp--; stack[sp - 1] -= stack[sp]; break;
      case MUL: sp--; stack[sp - 1] *= stack[sp]; break;
      case LT: sp--; stack[sp - 1] = stack[sp - 1] < stack[sp]; break;
      case JZ: { int32_t t = code[pc++]; if (!stack[--sp]) pc = t; break; }
      case JMP: pc = code[pc]; break;
      case LOADI: stack[sp - 1] = mem[16 + stack[sp - 1]]; break;
      case STOREI: { int32_t v = stack[--sp]; int32_t i = stack[--sp]; mem[16 + i] = v; break; }
      default: return stack[sp - 1];
    }
  }
}

/* fib: m0 = a, m1 = b, m2 = n; loop n times: t = a + b (mod via wrap); a = b; b = t */
static const int32_t fib[] = {PUSH, 0, STORE, 0, PUSH, 1, STORE, 1, PUSH, 3000, STORE, 2,
                              /*12*/ LOAD, 2, JZ, 36, LOAD, 0, LOAD, 1, ADD, LOAD, 1, STORE, 0, STORE, 1,
                              LOAD, 2, PUSH, 1, SUB, STORE, 2, JMP, 12, /*36*/ LOAD, 1, HALT};

/* sieve over [2, 1000): m3 = i, m4 = j; mem[16 + k] = 1 marks composite; m5 counts primes.
 * Indices of the labels are given in the comments. */
static const int32_t sieve[] = {
    /*  0 */ PUSH, 2, STORE, 3, PUSH, 0, STORE, 5,
    /*  8 outer */ LOAD, 3, PUSH, 1000, LT, JZ, 66,
    /* 15 */ LOAD, 3, LOADI, JZ, 22, JMP, 57,
    /* 22 prime */ LOAD, 5, PUSH, 1, ADD, STORE, 5, LOAD, 3, LOAD, 3, ADD, STORE, 4,
    /* 36 inner */ LOAD, 4, PUSH, 1000, LT, JZ, 57,
    /* 43 */ LOAD, 4, PUSH, 1, STOREI,
    /* 48 */ LOAD, 4, LOAD, 3, ADD, STORE, 4, JMP, 36,
    /* 57 next */ LOAD, 3, PUSH, 1, ADD, STORE, 3, JMP, 8,
    /* 66 end */ LOAD, 5, HALT,
};

int main(void) {
  int32_t f = run(fib);
  int32_t primes = run(sieve);
  uint32_t h = wl_mix(wl_mix(2166136261u, (uint32_t)f), (uint32_t)primes);
  printf("interp: fib(3000) mod 2^32 = %ld, primes below 1000 = %ld\n", (long)f, (long)primes);
  return wl_finish("interp", h, primes == 168);
}
