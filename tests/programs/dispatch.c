/* A test input for the profilers (docs/path.md, docs/instrumenter.md): a threaded-code
 * interpreter, the shape of Lua's luaV_execute. Each handler ends in its own indirect jump through
 * one table of label addresses (GCC's labels as values), so several indirect jumps share the
 * function's code addresses and the CFG layer joins them in a dispatch node; one handler loops, one
 * calls, and one leaves the function by an indirect tail call through a function pointer, a jump
 * out of the function from the same kind of instruction. The program prints a checksum and exits 0
 * when it matches the value a plain loop over the same operations works out. */
#include <stdio.h>

enum { OP_ADD, OP_MUL, OP_XOR, OP_LOOP, OP_CALL, OP_HALF, OP_END, OP_TAIL };

typedef int (*tail_fn)(int);

__attribute__((noinline)) static int twice(int x) { return 2 * x + 1; }
__attribute__((noinline)) static int negate(int x) { return -x; }
static tail_fn const tails[2] = {twice, negate};

static volatile int sink;

__attribute__((noinline)) static int helper(int x) {
  sink = x;
  return x ^ (x >> 3);
}

/* Runs code from pc with accumulator acc. */
__attribute__((noinline)) static int run(const unsigned char *pc, int acc) {
  static void *const op[] = {&&add, &&mul, &&xor, &&loop, &&call, &&half, &&end, &&tail};
#define NEXT goto *op[*pc++]
  NEXT;
add:
  acc += *pc++;
  NEXT;
mul:
  acc *= *pc++;
  NEXT;
xor:
  acc ^= *pc++ << 4;
  NEXT;
loop:
  for (int k = *pc++; k > 0; k--) acc += k & acc ? 1 : 3;
  NEXT;
call:
  acc = helper(acc);
  NEXT;
half:
  if (acc & 1) acc = (acc >> 1) + 7;
  else acc >>= 1;
  NEXT;
tail:
  return tails[*pc & 1](acc);
end:
  return acc;
#undef NEXT
}

/* the same operations, without an interpreter: the reference */
static int run_ref(const unsigned char *pc, int acc) {
  for (;;) {
    const int o = *pc++;
    if (o == OP_ADD) acc += *pc++;
    else if (o == OP_MUL) acc *= *pc++;
    else if (o == OP_XOR) acc ^= *pc++ << 4;
    else if (o == OP_LOOP) for (int k = *pc++; k > 0; k--) acc += k & acc ? 1 : 3;
    else if (o == OP_CALL) acc = acc ^ (acc >> 3);
    else if (o == OP_HALF) acc = acc & 1 ? (acc >> 1) + 7 : acc >> 1;
    else if (o == OP_TAIL) return *pc & 1 ? -acc : 2 * acc + 1;
    else return acc;
  }
}

static const unsigned char prog[3][24] = {
    {OP_ADD, 3, OP_LOOP, 9, OP_MUL, 5, OP_HALF, OP_CALL, OP_XOR, 7, OP_HALF, OP_END},
    {OP_XOR, 2, OP_CALL, OP_ADD, 11, OP_HALF, OP_LOOP, 4, OP_HALF, OP_TAIL, 0},
    {OP_MUL, 3, OP_HALF, OP_HALF, OP_ADD, 1, OP_LOOP, 6, OP_CALL, OP_TAIL, 1},
};

int main(void) {
  int s = 0, r = 0;
  for (int i = 0; i < 600; i++) {
    s += run(prog[i % 3], i);
    r += run_ref(prog[i % 3], i);
  }
  printf("dispatch: %d (expected %d)\n", s, r);
  return s != r;
}
