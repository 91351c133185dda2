/* Tests of the CFG layer (sw/lib/cfg/hwprof_cfg.c): small functions encoded by hand (tests/lib/hand_enc.h),
 * with the blocks, edges, dominators and loops worked out on paper from the code, never taken
 * from the layer's own output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/hand_enc.h"
#include "hwprof_cfg.h"

#define LO 0x80001000u
#define ADDI_A1 i_type(1, 11, 0, 11, 0x13)             /* addi a1, a1, 1 */
#define BLT_A1_A2(off) b_type(off, 12, 11, 4)          /* blt a1, a2, off */
#define BNE_A1_A2(off) b_type(off, 12, 11, 1)          /* bne a1, a2, off */
#define BEQZ_A0(off) b_type(off, 0, 10, 0)             /* beq a0, x0, off */
#define RET i_type(0, 1, 0, 0, 0x67)                   /* jalr x0, 0(ra) */
#define AUIPC_RA (1u << 7 | 0x17u)                     /* auipc ra, 0 */
#define JALR_RA i_type(0, 1, 0, 1, 0x67)               /* jalr ra, 0(ra) */
#define JR_T1 i_type(0, 6, 0, 0, 0x67)                 /* jalr x0, 0(t1) */
#define PROF_INIT 0x0000002bu                          /* custom-1 */

static uint8_t bytes[256];
static uint8_t arena_mem[1 << 16];
static hwprof_arena_t arena;
static hwprof_cfg_code_t code;
static hwprof_cfg_func_t fn;

/* Builds the CFG (and loops when it exists) of words[n] at LO with the relocations rel[nrel]. */
static void build(const uint32_t *words, unsigned n, const rv32_reloc_t *rel, unsigned nrel) {
  for (unsigned i = 0; i < n; i++)
    for (unsigned b = 0; b < 4; b++) bytes[4 * i + b] = (uint8_t)(words[i] >> (8 * b));
  code = (hwprof_cfg_code_t){.lo = LO, .hi = LO + 4u * n, .bytes = bytes, .rel = rel, .nrel = nrel};
  arena = (hwprof_arena_t){arena_mem, hwprof_cfg_need(&code), 0};
  assert_true(arena.size <= sizeof arena_mem);
  assert_int_equal(hwprof_cfg_scan(&fn, &code, &arena), 0);
  assert_int_equal(hwprof_cfg_build(&fn, &code, &arena), 0);
  if (fn.why == HWPROF_CFG_OK) assert_int_equal(hwprof_cfg_loops(&fn, &arena), 0);
}

static void expect_edge(unsigned i, hwprof_cfg_kind_t k, int src, int dst) {
  assert_true(i < fn.nedge);
  assert_int_equal(fn.edge[i].kind, k);
  assert_int_equal(fn.edge[i].src, src);
  assert_int_equal(fn.edge[i].dst, dst);
}

/* Two nested loops:
 *   B0 0x00 addi            entry
 *   B1 0x04 addi            outer header
 *   B2 0x08 addi            inner header; 0x0c blt -> 0x08
 *   B3 0x10 addi; 0x14 blt -> 0x04
 *   B4 0x18 ret */
static void test_cfg_nested_loops(void **state) {
  (void)state;
  const uint32_t w[] = {ADDI_A1, ADDI_A1, ADDI_A1, BLT_A1_A2(-4), ADDI_A1, BLT_A1_A2(-16), RET};
  build(w, 7, NULL, 0);
  assert_int_equal(fn.why, HWPROF_CFG_OK);
  assert_int_equal(fn.nblk, 5);
  const uint32_t start[] = {0x00, 0x04, 0x08, 0x10, 0x18}, end[] = {0x04, 0x08, 0x10, 0x18, 0x1c};
  for (unsigned b = 0; b < 5; b++) {
    assert_int_equal(fn.blk[b].start, LO + start[b]);
    assert_int_equal(fn.blk[b].end, LO + end[b]);
  }
  assert_int_equal(fn.nedge, 8);
  expect_edge(0, HWPROF_CFG_VIRTUAL_ENTRY, HWPROF_CFG_EXIT, 0);
  expect_edge(1, HWPROF_CFG_FALL, 0, 1);
  expect_edge(2, HWPROF_CFG_FALL, 1, 2);
  expect_edge(3, HWPROF_CFG_TAKEN, 2, 2);
  expect_edge(4, HWPROF_CFG_NOT_TAKEN, 2, 3);
  expect_edge(5, HWPROF_CFG_TAKEN, 3, 1);
  expect_edge(6, HWPROF_CFG_NOT_TAKEN, 3, 4);
  expect_edge(7, HWPROF_CFG_RETURN, 4, HWPROF_CFG_EXIT);
  const int idom[] = {0, 0, 1, 2, 3};
  for (unsigned b = 0; b < 5; b++) assert_int_equal(fn.idom[b], idom[b]);
  assert_true(hwprof_cfg_dominates(&fn, 1, 4));
  assert_false(hwprof_cfg_dominates(&fn, 3, 2));
  assert_int_equal(fn.nloop, 2);
  assert_int_equal(fn.irreducible, 0);
  /* the inner loop (header B2, itself only) is found first; the outer one holds B1-B3 */
  assert_int_equal(fn.loop[0].header, 2);
  assert_int_equal(fn.loop[0].nblocks, 1);
  assert_int_equal(fn.loop[0].parent, 1);
  assert_int_equal(fn.loop[0].depth, 2);
  assert_int_equal(fn.loop[1].header, 1);
  assert_int_equal(fn.loop[1].nblocks, 3);
  assert_int_equal(fn.loop[1].parent, -1);
  assert_int_equal(fn.loop[1].depth, 1);
  const int loop_of[] = {-1, 1, 0, 1, -1};
  for (unsigned b = 0; b < 5; b++) assert_int_equal(fn.loop_of[b], loop_of[b]);
  assert_true(hwprof_cfg_in_loop(&fn, 1, 2));
  assert_false(hwprof_cfg_in_loop(&fn, 0, 3));
}

/* A cycle with two entries is not a natural loop:
 *   B0 0x00 beqz a0 -> 0x0c
 *   B1 0x04 addi; 0x08 jal x0 -> 0x0c? no: falls into B2 through a jump to 0x0c
 *   B2 0x0c addi; 0x10 bne -> 0x04
 *   B3 0x14 ret */
static void test_cfg_irreducible(void **state) {
  (void)state;
  const uint32_t w[] = {BEQZ_A0(12), ADDI_A1, jal(4, 0), ADDI_A1, BNE_A1_A2(-12), RET};
  build(w, 6, NULL, 0);
  assert_int_equal(fn.why, HWPROF_CFG_OK);
  assert_int_equal(fn.nblk, 4);
  expect_edge(1, HWPROF_CFG_TAKEN, 0, 2);
  expect_edge(2, HWPROF_CFG_NOT_TAKEN, 0, 1);
  expect_edge(3, HWPROF_CFG_JUMP, 1, 2);
  expect_edge(4, HWPROF_CFG_TAKEN, 2, 1);
  const int idom[] = {0, 0, 0, 2};
  for (unsigned b = 0; b < 4; b++) assert_int_equal(fn.idom[b], idom[b]);
  assert_int_equal(fn.nloop, 0);
  assert_int_equal(fn.irreducible, 1);
}

/* A call pair (auipc/jalr with R_RISCV_CALL) leaves through a virtual exit edge and names its
 * callee; a self loop is a loop of one block; a block nobody reaches has no dominator. */
static void test_cfg_call_self_loop_unreachable(void **state) {
  (void)state;
  const uint32_t w[] = {AUIPC_RA, JALR_RA, BLT_A1_A2(0), RET, ADDI_A1, RET};
  const rv32_reloc_t rel[] = {{LO, R_RISCV_CALL, 0x80002000u, 0}};
  build(w, 6, rel, 1);
  assert_int_equal(fn.why, HWPROF_CFG_OK);
  assert_int_equal(fn.ncallee, 1);
  assert_int_equal(fn.callee[0], 0x80002000u);
  assert_false(fn.indirect_call);
  uint32_t t;
  assert_int_equal(hwprof_cfg_classify(&code, LO + 4, JALR_RA, &t), HWPROF_CF_CALL);
  assert_int_equal(t, 0x80002000u);
  /* B0 = call pair, B1 = the self loop, B2 = ret, B3 = unreachable addi/ret */
  assert_int_equal(fn.nblk, 4);
  expect_edge(1, HWPROF_CFG_FALL, 0, 1);
  expect_edge(2, HWPROF_CFG_VIRTUAL_EXIT, 0, HWPROF_CFG_EXIT);
  expect_edge(3, HWPROF_CFG_TAKEN, 1, 1);
  expect_edge(4, HWPROF_CFG_NOT_TAKEN, 1, 2);
  assert_int_equal(fn.nloop, 1);
  assert_int_equal(fn.loop[0].header, 1);
  assert_int_equal(fn.loop[0].nblocks, 1);
  assert_int_equal(fn.idom[3], -1);
  assert_false(hwprof_cfg_dominates(&fn, 0, 3));
}

/* A call of setjmp (a function that returns twice) and a call of another function, worked out by hand:
 *   B0 0x00 addi                      entry
 *   B1 0x04 auipc; 0x08 jalr ra       the call of setjmp (0x80003000), a block of its own
 *   B2 0x0c beqz a0 -> 0x18           its value
 *   B3 0x10 auipc; 0x14 jalr ra       a call of 0x80002000 (may never come back)
 *   B4 0x18 ret
 * B1 is a landing block: a virtual entry edge of its own (after the function's), no virtual exit;
 * B3's call has one. */
static void test_cfg_call_returns_twice(void **state) {
  (void)state;
  const uint32_t w[] = {ADDI_A1, AUIPC_RA, JALR_RA, BEQZ_A0(12), AUIPC_RA, JALR_RA, RET};
  const rv32_reloc_t rel[] = {{LO + 4, R_RISCV_CALL, 0x80003000u, 0}, {LO + 16, R_RISCV_CALL, 0x80002000u, 0}};
  const uint32_t twice[] = {0x80003000u};
  for (unsigned i = 0; i < 7; i++)
    for (unsigned b = 0; b < 4; b++) bytes[4 * i + b] = (uint8_t)(w[i] >> (8 * b));
  code = (hwprof_cfg_code_t){.lo = LO, .hi = LO + 28u, .bytes = bytes, .rel = rel, .nrel = 2, .twice = twice, .ntwice = 1};
  arena = (hwprof_arena_t){arena_mem, hwprof_cfg_need(&code), 0};
  assert_int_equal(hwprof_cfg_scan(&fn, &code, &arena), 0);
  assert_int_equal(hwprof_cfg_build(&fn, &code, &arena), 0);
  assert_int_equal(fn.why, HWPROF_CFG_OK);
  assert_int_equal(fn.nblk, 5);
  const uint32_t start[] = {0x00, 0x04, 0x0c, 0x10, 0x18};
  for (unsigned b = 0; b < 5; b++) {
    assert_int_equal(fn.blk[b].start, LO + start[b]);
    assert_int_equal(fn.blk[b].landing, b == 1);
  }
  assert_int_equal(fn.nedge, 9);
  expect_edge(0, HWPROF_CFG_VIRTUAL_ENTRY, HWPROF_CFG_EXIT, 0);
  expect_edge(1, HWPROF_CFG_VIRTUAL_ENTRY, HWPROF_CFG_EXIT, 1);
  expect_edge(2, HWPROF_CFG_FALL, 0, 1);
  expect_edge(3, HWPROF_CFG_FALL, 1, 2);
  expect_edge(4, HWPROF_CFG_TAKEN, 2, 4);
  expect_edge(5, HWPROF_CFG_NOT_TAKEN, 2, 3);
  expect_edge(6, HWPROF_CFG_FALL, 3, 4);
  expect_edge(7, HWPROF_CFG_VIRTUAL_EXIT, 3, HWPROF_CFG_EXIT);
  expect_edge(8, HWPROF_CFG_RETURN, 4, HWPROF_CFG_EXIT);
}

/* Millicode: three entry points into one piece of straight-line code (the shape of libgcc's
 * __riscv_save_N), returning through t0:
 *   B0 0x00 addi; 0x04 j 0x0c     entry (lo)
 *   B1 0x08 addi                  entry 0x08, falls into B2
 *   B2 0x0c addi; 0x10 jr t0      jump target
 *   B3 0x14 addi; 0x18 jr t0      entry 0x14
 * Each entry starts a block and has a virtual entry edge, in the order given, after the first's. */
static void test_cfg_several_entry_points(void **state) {
  (void)state;
  const uint32_t jr_t0 = i_type(0, 5, 0, 0, 0x67);
  const uint32_t w[] = {ADDI_A1, jal(8, 0), ADDI_A1, ADDI_A1, jr_t0, ADDI_A1, jr_t0};
  const uint32_t entry[] = {LO + 0x08, LO + 0x14};
  for (unsigned i = 0; i < 7; i++)
    for (unsigned b = 0; b < 4; b++) bytes[4 * i + b] = (uint8_t)(w[i] >> (8 * b));
  code = (hwprof_cfg_code_t){.lo = LO, .hi = LO + 28u, .bytes = bytes, .entry = entry, .nentry = 2};
  arena = (hwprof_arena_t){arena_mem, hwprof_cfg_need(&code), 0};
  assert_int_equal(hwprof_cfg_scan(&fn, &code, &arena), 0);
  assert_int_equal(hwprof_cfg_build(&fn, &code, &arena), 0);
  assert_int_equal(fn.why, HWPROF_CFG_OK);
  assert_int_equal(fn.nblk, 4);
  const uint32_t starts[] = {0x00, 0x08, 0x0c, 0x14};
  for (unsigned b = 0; b < 4; b++) assert_int_equal(fn.blk[b].start, LO + starts[b]);
  assert_int_equal(fn.nedge, 7);
  expect_edge(0, HWPROF_CFG_VIRTUAL_ENTRY, HWPROF_CFG_EXIT, 0);
  expect_edge(1, HWPROF_CFG_VIRTUAL_ENTRY, HWPROF_CFG_EXIT, 1);
  expect_edge(2, HWPROF_CFG_VIRTUAL_ENTRY, HWPROF_CFG_EXIT, 3);
  expect_edge(3, HWPROF_CFG_JUMP, 0, 2);
  expect_edge(4, HWPROF_CFG_FALL, 1, 2);
  expect_edge(5, HWPROF_CFG_RETURN, 2, HWPROF_CFG_EXIT);
  expect_edge(6, HWPROF_CFG_RETURN, 3, HWPROF_CFG_EXIT);
  /* dominators from the first entry only: what only another entry reaches has none */
  assert_int_equal(hwprof_cfg_loops(&fn, &arena), 0);
  assert_int_equal(fn.idom[1], -1);
  assert_int_equal(fn.idom[3], -1);
}

/* One indirect jump: its targets are the code addresses the program takes inside the function. */
static void test_cfg_switch(void **state) {
  (void)state;
  const uint32_t w[] = {JR_T1, ADDI_A1, RET, ADDI_A1, RET};
  const rv32_reloc_t rel[] = {{0x80200000u, R_RISCV_32, LO + 4, 0}, {0x80200004u, R_RISCV_32, LO + 12, 0}};
  build(w, 5, rel, 2);
  assert_int_equal(fn.why, HWPROF_CFG_OK);
  assert_int_equal(fn.nblk, 3);
  expect_edge(1, HWPROF_CFG_INDIRECT, 0, 1);
  expect_edge(2, HWPROF_CFG_INDIRECT, 0, 2);
  /* the same jump in a function that takes no address of its own: a tail call through t1, which
   * leaves the function like a return; the code after it is unreachable, its blocks still there */
  build(w, 5, NULL, 0);
  assert_int_equal(fn.why, HWPROF_CFG_OK);
  assert_int_equal(fn.nblk, 3);
  assert_int_equal(fn.nedge, 4);
  expect_edge(0, HWPROF_CFG_VIRTUAL_ENTRY, HWPROF_CFG_EXIT, 0);
  expect_edge(1, HWPROF_CFG_TAIL, 0, HWPROF_CFG_EXIT);
  expect_edge(2, HWPROF_CFG_RETURN, 1, HWPROF_CFG_EXIT);
  expect_edge(3, HWPROF_CFG_RETURN, 2, HWPROF_CFG_EXIT);
  /* a taken address without an indirect jump */
  const uint32_t w2[] = {ADDI_A1, ADDI_A1, RET};
  build(w2, 3, rel, 1);
  assert_int_equal(fn.why, HWPROF_CFG_TAKEN_ADDR);
  assert_int_equal(fn.why_arg, LO + 4);
}

/* Two indirect jumps sharing the function's two taken addresses, with the dispatch node:
 *   B0 0x00 jr t1
 *   B1 0x04 addi; 0x08 jr t1      (0x04 taken)
 *   B2 0x0c addi; 0x10 ret        (0x0c taken)
 *   B3 [0x14, 0x14) the node: each jump to it; it to both taken addresses and to EXIT */
static void test_cfg_shared_indirect_jumps_dispatch_node(void **state) {
  (void)state;
  const uint32_t w[] = {JR_T1, ADDI_A1, JR_T1, ADDI_A1, RET};
  const rv32_reloc_t rel[] = {{0x80200000u, R_RISCV_32, LO + 4, 0}, {0x80200004u, R_RISCV_32, LO + 12, 0}};
  build(w, 5, rel, 2);
  assert_int_equal(fn.why, HWPROF_CFG_INDIRECTS); /* without the node */
  assert_int_equal(fn.why_arg, 2);
  for (unsigned i = 0; i < 5; i++)
    for (unsigned b = 0; b < 4; b++) bytes[4 * i + b] = (uint8_t)(w[i] >> (8 * b));
  code = (hwprof_cfg_code_t){.lo = LO, .hi = LO + 20u, .bytes = bytes, .rel = rel, .nrel = 2, .dispatch = true};
  arena = (hwprof_arena_t){arena_mem, hwprof_cfg_need(&code), 0};
  assert_int_equal(hwprof_cfg_scan(&fn, &code, &arena), 0);
  assert_int_equal(hwprof_cfg_build(&fn, &code, &arena), 0);
  assert_int_equal(fn.why, HWPROF_CFG_OK);
  assert_int_equal(fn.nblk, 4);
  assert_int_equal(fn.dispatch, 3);
  assert_int_equal(fn.blk[3].start, LO + 20);
  assert_int_equal(fn.blk[3].end, LO + 20);
  assert_int_equal(fn.blk[2].end, LO + 20);
  assert_int_equal(fn.nedge, 7);
  expect_edge(0, HWPROF_CFG_VIRTUAL_ENTRY, HWPROF_CFG_EXIT, 0);
  expect_edge(1, HWPROF_CFG_INDIRECT, 0, 3);
  expect_edge(2, HWPROF_CFG_INDIRECT, 1, 3);
  expect_edge(3, HWPROF_CFG_RETURN, 2, HWPROF_CFG_EXIT);
  expect_edge(4, HWPROF_CFG_DISPATCH, 3, 1);
  expect_edge(5, HWPROF_CFG_DISPATCH, 3, 2);
  expect_edge(6, HWPROF_CFG_DISPATCH, 3, HWPROF_CFG_EXIT);
  /* the node dominates both targets; B1 -> node -> B1 is a loop headed by the node */
  assert_int_equal(hwprof_cfg_loops(&fn, &arena), 0);
  assert_int_equal(fn.idom[3], 0);
  assert_int_equal(fn.idom[1], 3);
  assert_int_equal(fn.idom[2], 3);
  assert_int_equal(fn.nloop, 1);
  assert_int_equal(fn.loop[0].header, 3);
  assert_int_equal(fn.irreducible, 0);
}

static void test_cfg_refusals(void **state) {
  (void)state;
  const uint32_t leaves[] = {BLT_A1_A2(64), RET};
  build(leaves, 2, NULL, 0);
  assert_int_equal(fn.why, HWPROF_CFG_BRANCH_LEAVES);
  assert_int_equal(fn.why_arg, LO);
  const uint32_t off_end[] = {ADDI_A1, BLT_A1_A2(-4)};
  build(off_end, 2, NULL, 0);
  assert_int_equal(fn.why, HWPROF_CFG_FALLS_OFF);
  assert_int_equal(fn.why_arg, LO + 4);
  /* two indirect jumps and a code address taken: which jump goes where cannot be told */
  const uint32_t two[] = {JR_T1, JR_T1, RET};
  const rv32_reloc_t table[] = {{0x80200000u, R_RISCV_32, LO + 8, 0}};
  build(two, 3, table, 1);
  assert_int_equal(fn.why, HWPROF_CFG_INDIRECTS);
  assert_int_equal(fn.why_arg, 2);
  /* two indirect jumps and no address taken: two tail calls */
  build(two, 3, NULL, 0);
  assert_int_equal(fn.why, HWPROF_CFG_OK);
  expect_edge(1, HWPROF_CFG_TAIL, 0, HWPROF_CFG_EXIT);
  expect_edge(2, HWPROF_CFG_TAIL, 1, HWPROF_CFG_EXIT);
  const uint32_t prof[] = {PROF_INIT, RET};
  build(prof, 2, NULL, 0);
  assert_int_equal(fn.why, HWPROF_CFG_PROFILED);
  /* every reason has a text with one conversion */
  for (unsigned k = 1; k < HWPROF_CFG_NWHY; k++) assert_non_null(strchr(hwprof_cfg_why_text[k], '%'));
}

/* An arena smaller than hwprof_cfg_need() says so instead of writing past it. */
static void test_cfg_arena_too_small(void **state) {
  (void)state;
  const uint32_t w[] = {ADDI_A1, ADDI_A1, ADDI_A1, BLT_A1_A2(-4), ADDI_A1, BLT_A1_A2(-16), RET};
  build(w, 7, NULL, 0);
  int failed = 0;
  for (size_t size = 0; size < hwprof_cfg_need(&code); size += 16) {
    arena = (hwprof_arena_t){arena_mem, size, 0};
    int rc = hwprof_cfg_scan(&fn, &code, &arena);
    if (rc == 0) rc = hwprof_cfg_build(&fn, &code, &arena);
    if (rc == 0) rc = hwprof_cfg_loops(&fn, &arena);
    failed += rc != 0;
    assert_true(arena.used <= size);
  }
  assert_true(failed > 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cfg_nested_loops),       cmocka_unit_test(test_cfg_irreducible),
      cmocka_unit_test(test_cfg_call_self_loop_unreachable), cmocka_unit_test(test_cfg_switch),
      cmocka_unit_test(test_cfg_refusals),           cmocka_unit_test(test_cfg_arena_too_small),
      cmocka_unit_test(test_cfg_shared_indirect_jumps_dispatch_node), cmocka_unit_test(test_cfg_several_entry_points),
      cmocka_unit_test(test_cfg_call_returns_twice),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
