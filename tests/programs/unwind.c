/* setjmp/longjmp out of linked calls (docs/instrumenter.md, "Non-local exits"): a protected call
 * (as Lua's luaD_rawrunprotected, or a coroutine's resume) runs work that calls down a few levels
 * and sometimes jumps back out of them, past frames that never return. Protected calls nest, and a
 * jump sometimes lands in an outer one, past an inner protected call's frames as well. Deep
 * recursion under a protected call, with another protected call at its bottom, takes the pir's link
 * stack past its 8 entries (into memory with a spill area) before the jump: a landing then finds
 * its frames in the pir's ring or all of them in memory. After every landing the profile must go on exactly: the counts of
 * the landing function's edges in its own area, and the returns above it back to their callers'. */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>

static uint32_t seed = 2463534242u;
static uint32_t next_rand(void) {
  seed ^= seed << 13;
  seed ^= seed >> 17;
  seed ^= seed << 5;
  return seed;
}

struct guard {
  jmp_buf buf;
  struct guard *outer;
};
static struct guard *innermost;
static uint32_t sum;
static volatile int thrown;

__attribute__((noinline)) static void raise_to(int levels) {
  struct guard *g = innermost;
  while (levels-- > 0 && g->outer) g = g->outer;
  innermost = g;
  thrown++;
  longjmp(g->buf, 1 + (int)(next_rand() & 3));
}

__attribute__((noinline)) static uint32_t leaf(uint32_t v) {
  if ((v & 63) == 7) raise_to((int)((v >> 6) & 1));
  return v * 2654435761u;
}

__attribute__((noinline)) static uint32_t mid(uint32_t v, int n) {
  uint32_t acc = 0;
  for (int i = 0; i < n; i++) acc += leaf(v + (uint32_t)i);
  return acc ^ (acc >> 7);
}

typedef uint32_t (*work_fn)(uint32_t, int);
static int protect(work_fn fn, uint32_t v, int n);

/* direct recursion (linked, with a spill area), a protected call at its bottom every other time */
__attribute__((noinline)) static uint32_t deep(uint32_t v, int depth) {
  if (depth == 0) { /* work after the calls: no tail call, so that the hardware links it */
    const uint32_t r = (v & 4) ? (uint32_t)protect(mid, v, 3) : mid(v, 3);
    return r ^ 5u;
  }
  const uint32_t below = deep(v * 33u + 1u, depth - 1);
  return below + (below & 1); /* work after the call: no tail call */
}
__attribute__((noinline)) static uint32_t dive(uint32_t v, int depth) { return deep(v, depth) + 1u; }

__attribute__((noinline)) static int protect(work_fn fn, uint32_t v, int n) {
  struct guard g;
  g.outer = innermost;
  innermost = &g;
  int code = setjmp(g.buf);
  if (code == 0) {
    sum += fn(v, n);
    innermost = g.outer;
    return 0;
  }
  /* landed here from raise_to: innermost is this guard */
  innermost = g.outer;
  sum = sum * 31u + (uint32_t)code;
  return code;
}

/* a protected call inside a loop: setjmp in the loop's body (hierarchical path profiles leave this
 * function out: a landing would continue the function's path as it was at the call) */
__attribute__((noinline)) static uint32_t retry(uint32_t v0, int n) {
  volatile uint32_t r = 0, v = v0; /* live across setjmp */
  for (volatile int i = 0; i < n; i++) {
    struct guard g;
    g.outer = innermost;
    innermost = &g;
    if (setjmp(g.buf) == 0) {
      r += mid(v + (uint32_t)i * 131u, 2);
    } else {
      r ^= 0x55u;
    }
    innermost = g.outer;
  }
  return r;
}

__attribute__((noinline)) static uint32_t nested(uint32_t v, int n) {
  uint32_t r = 0;
  for (int i = 0; i < n; i++) r += (uint32_t)protect(mid, v + (uint32_t)i * 97u, 4);
  r += mid(v, 2);
  return r;
}

/* The landing code's table holds one frame per slot, chosen by the stack pointer's bits 4..13 (and
 * the call site): two frames 16 KiB apart that call setjmp at the same site share a slot. Built with
 * -DUNWIND_COLLIDE (build/instr/unwind-collide.elf), the program also makes that happen on purpose:
 * a protected call 16 KiB below another one takes its slot, then a jump lands in the outer one. Its
 * depths are gone: the profile must be refused (the stacks' sticky errors), never presented with
 * wrong counts. */
#ifndef UNWIND_COLLIDE
#define UNWIND_COLLIDE 0
#endif
static volatile int unwind_collide;
static long gap = -1;             /* the distance between two nested guards, measured */

__attribute__((noinline)) static uint32_t throw_out(uint32_t v, int n) {
  (void)v;
  (void)n;
  gap = (long)((char *)innermost->outer - (char *)innermost);
  if (unwind_collide == 2) raise_to(1); /* to the outer guard, past this one */
  return 1u;
}
__attribute__((noinline)) static uint32_t padded(uint32_t v, int pad) {
  volatile char *room = __builtin_alloca((size_t)pad + 16u);
  room[0] = (char)v;
  return (uint32_t)protect(throw_out, v, 0) + (uint32_t)room[0];
}
static void collide(void) {
  unwind_collide = 1;
  protect(padded, 1u, 0); /* measures the distance with no padding */
  const long first = gap, pad = 16384 - gap;
  unwind_collide = 2;
  if (pad >= 0) protect(padded, 2u, (int)pad);
  printf("unwind: nested guards %ld bytes apart, then %ld\n", first, gap);
}

int main(void) {
  int caught = 0;
  for (int round = 0; round < 4000; round++) {
    const uint32_t v = next_rand();
    switch (round % 4) {
    case 0: caught += protect(mid, v, 5) != 0; break;
    case 1: caught += protect(nested, v, 3) != 0; break;
    case 2: caught += protect(retry, v, 4) != 0; break;
    default: caught += protect(dive, v, (int)(v % 24u)) != 0; break;
    }
  }
  if (UNWIND_COLLIDE) collide();
  printf("unwind: %d thrown, %d caught at the top, sum 0x%08lx\n", thrown, caught, (unsigned long)sum);
  return 0;
}
