/* Tests of block re-layout (sw/fw/dynopt/relayout.c) on a hand-worked function. The program and every
 * expected word were assembled by GNU as (riscv64-unknown-elf-as -march=rv32i, objdump -M
 * no-aliases) from the source in the comments, not by the encoders the code under test uses.
 *
 * Memory: 0x80000000..0x80000200; the cache is its first 0x100 bytes, the program the rest. The
 * function, its blocks and their shadow words (the instrumenter's, mode all):
 *   B0 100 prof.init               0000102b  shadow 0x80c00000 (its counter area)
 *      104 lw   a4,0(a0)           00052703
 *      108 beq  a4,zero,118 <B2>   00070863  shadow EITHER pid 1 (taken: counter 1, not taken: 2),
 *                                            a region switch to offset 5 on its not-taken edge
 *   B1 10c addi a5,a5,1            00178793
 *      110 auipc a3,0x0            00000697
 *      114 jal  zero,11c <B3>      0080006f  shadow TK pid 3
 *   B2 118 addi a5,a5,-1           fff78793
 *   B3 11c addi a0,a0,4            00450513
 *      120 jalr zero,0(ra)         00008067  shadow ALL pid 4
 *   ...
 *  140 auipc ra,0x0                00000097  a call of the function, landing behind its prof.init
 *  144 jalr ra,-60(ra)             fc4080e7
 *  148 addi a0,a0,1                00150513 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "relayout.h"

#define BASE UINT32_C(0x80000000)
#define WORDS 128u
#define CODE_LO (BASE + 0x100u)

static const uint32_t kProgram[] = {
    0x0000102b, 0x00052703, 0x00070863, 0x00178793, 0x00000697, 0x0080006f, 0xfff78793, 0x00450513,
    0x00008067, 0x00000013, 0x00000013, 0x00000013, 0x00000013, 0x00000013, 0x00000013, 0x00000013,
    0x00000097, 0xfc4080e7, 0x00150513,
};
#define SH_INIT UINT32_C(0x80c00000)
#define SH_BEQ UINT32_C(0xc0520001) /* setoff enabled, not taken, offset 5; EITHER (2 << 16); pid 1 */
#define SH_JAL UINT32_C(0x00000003) /* TK (0), pid 3 */
#define SH_RET UINT32_C(0x00030004) /* ALL (3 << 16), pid 4 */

static const hwprof_rl_block_t kBlocks[] = {
    {0x80000100, 0x8000010c}, {0x8000010c, 0x80000118}, {0x80000118, 0x8000011c}, {0x8000011c, 0x80000124}};

typedef struct {
  uint32_t mem[WORDS], shadow[WORDS], origin[WORDS];
  hwprof_cc_patch_t cc_patch[1];
  hwprof_cc_exit_t cc_exit[1];
  hwprof_cc_t cc;
  hwprof_rl_patch_t patch[16];
  hwprof_rl_func_t func[2];
  uint32_t copy[8];
  hwprof_rl_t rl;
} fixture_t;

static uint32_t *at(fixture_t *f, uint32_t addr) { return &f->mem[(addr - BASE) / 4u]; }
static uint32_t *sh(fixture_t *f, uint32_t addr) { return &f->shadow[(addr - BASE) / 4u]; }

static void setup(fixture_t *f) {
  memset(f, 0, sizeof *f);
  memcpy(at(f, CODE_LO), kProgram, sizeof kProgram);
  *sh(f, 0x80000100) = SH_INIT;
  *sh(f, 0x80000108) = SH_BEQ;
  *sh(f, 0x80000114) = SH_JAL;
  *sh(f, 0x80000120) = SH_RET;
  const hwprof_cc_config_t c = {.mem_base = BASE, .mem = f->mem, .mem_words = WORDS, .shadow = f->shadow,
                                .code_lo = CODE_LO, .code_hi = CODE_LO + sizeof kProgram, .lo = BASE,
                                .hi = BASE + 0x100u, .patch = f->cc_patch, .patch_cap = 1, .exit = f->cc_exit,
                                .exit_cap = 1, .origin = f->origin};
  assert_int_equal(hwprof_cc_init(&f->cc, c), kHwprofOk);
  assert_int_equal(hwprof_rl_init(&f->rl, &f->cc, f->patch, 16, f->func, 2, f->copy, 8), kHwprofOk);
}

/* Order B0, B2, B3, B1: the beq's taken block comes next, so it is inverted. The copy:
 *   0  prof.init              0000102b  shadow as it was
 *   4  lw   a4,0(a0)          00052703
 *   8  bne  a4,zero,18        00071863  shadow NT pid 1: counts the taken edge (counter 1) when it falls
 *                                       through; the region switch moves to the stub
 *   c  addi a5,a5,-1          fff78793  B2
 *  10  addi a0,a0,4           00450513  B3
 *  14  jalr zero,0(ra)        00008067  shadow as it was; an unconditional end: the stubs follow
 *  18  prof.id 2              0020002b  the stub of the inverted beq: the not-taken edge's counter ...
 *  1c  prof.setoff x0         0000202b  ... its region switch (shadow 5) ...
 *  20  jal  zero,24           0040006f  ... and on to B1
 *  24  addi a5,a5,1           00178793  B1
 *  28  lui  a3,0x80000        800006b7  the auipc's value, 0x80000110
 *  2c  addi a3,a3,0x110       11068693
 *  30  jal  zero,10           fe1ff06f  B1's jump, re-aimed, its hint kept */
static const uint32_t kCopy[] = {0x0000102b, 0x00052703, 0x00071863, 0xfff78793, 0x00450513, 0x00008067, 0x0020002b,
                                 0x0000202b, 0x0040006f, 0x00178793, 0x800006b7, 0x11068693, 0xfe1ff06f};
static const uint32_t kCopyShadow[] = {SH_INIT, 0, 0x00010001, 0, 0, SH_RET, 0, 5, 0, 0, 0, 0, SH_JAL};
static const uint32_t kCopyOrigin[] = {0x80000100, 0x80000104, 0x80000108, 0x80000118, 0x8000011c,
                                       0x80000120, 0, 0, 0, 0x8000010c, 0x80000110, 0, 0x80000114};
static const uint32_t kOrder[] = {0, 2, 3, 1};

static void test_rl_inverts_a_branch_and_keeps_every_edge_count(void **state) {
  (void)state;
  static fixture_t f;
  setup(&f);
  const hwprof_rl_block_t callers[] = {{0x80000140, 0x8000014c}};
  uint32_t entry = 0;
  assert_int_equal(hwprof_rl_place(&f.rl, kBlocks, 4, kOrder, NULL, callers, 1, 0, &entry), kHwprofCcPlaced);
  assert_int_equal(entry, BASE);
  assert_int_equal(f.cc.next, BASE + sizeof kCopy);
  for (unsigned i = 0; i < sizeof kCopy / 4; i++) {
    assert_int_equal(f.mem[i], kCopy[i]);
    assert_int_equal(f.shadow[i], kCopyShadow[i]);
    assert_int_equal(f.origin[i], kCopyOrigin[i]);
  }
  /* every block start, and the word behind the prof.init where calls land, jumps to its copy
     (jal zero from 100 and 104 to +0 and +4: f01ff06f; 10c to +24: f19ff06f; 118 and 11c to +c and
     +10: ef5ff06f), with no profiling bits */
  assert_int_equal(*at(&f, 0x80000100), 0xf01ff06f);
  assert_int_equal(*at(&f, 0x80000104), 0xf01ff06f);
  assert_int_equal(*at(&f, 0x8000010c), 0xf19ff06f);
  assert_int_equal(*at(&f, 0x80000118), 0xef5ff06f);
  assert_int_equal(*at(&f, 0x8000011c), 0xef5ff06f);
  assert_int_equal(*sh(&f, 0x80000100), 0);
  /* the rest of the program as it was, but the call: auipc ra,0x0; jalr ra,-316(ra) to the copy's +4 */
  assert_int_equal(*at(&f, 0x80000108), kProgram[2]);
  assert_int_equal(*sh(&f, 0x80000108), SH_BEQ);
  assert_int_equal(*at(&f, 0x80000140), 0x00000097);
  assert_int_equal(*at(&f, 0x80000144), 0xec4080e7);
  assert_int_equal(*at(&f, 0x80000148), kProgram[18]);
  assert_int_equal(f.rl.calls, 1);
  assert_int_equal(f.rl.stubs, 1);
  const hwprof_rl_func_t *fn = hwprof_rl_func_at(&f.rl, 0x80000100);
  assert_non_null(fn);
  assert_int_equal(fn->n, 5);
  assert_int_equal(f.rl.patch[0].word, kProgram[0]);
  assert_int_equal(f.rl.patch[0].shadow, SH_INIT);
}

/* The same order, but the caller does not want B0's taken edge to fall through (taken_first 0): the
 * beq is kept, aimed at B2's copy right behind a jump to B1's:
 *   8  beq  a4,zero,10        00070463
 *   c  jal  zero,1c           0100006f  B1 after B3
 *  10  addi a5,a5,-1          fff78793  B2, B3 as before
 *  1c  addi a5,a5,1           00178793  B1 ... 28 jal zero,14 (fedff06f) to B3 */
static void test_rl_keeps_a_branch_the_caller_does_not_want_inverted(void **state) {
  (void)state;
  static fixture_t f;
  setup(&f);
  uint8_t keep[4] = {0, 0, 0, 0};
  uint32_t entry = 0;
  assert_int_equal(hwprof_rl_place(&f.rl, kBlocks, 4, kOrder, keep, NULL, 0, 0, &entry), kHwprofCcPlaced);
  const uint32_t copy[] = {0x0000102b, 0x00052703, 0x00070463, 0x0100006f, 0xfff78793, 0x00450513,
                           0x00008067, 0x00178793, 0x800006b7, 0x11068693, 0xfedff06f};
  for (unsigned i = 0; i < sizeof copy / 4; i++) assert_int_equal(f.mem[i], copy[i]);
  assert_int_equal(f.shadow[2], SH_BEQ); /* the hints and the region switch as they were */
  assert_int_equal(f.origin[3], 0);       /* the jump is the cache's own */
  assert_int_equal(f.rl.stubs, 0);
  assert_int_equal(f.cc.next, BASE + sizeof copy);
}

/* The stopped program resumes at the caller's jalr (its auipc has run and set ra): the call is left
 * as it is, the rest is laid out as before. */
static void test_rl_leaves_a_call_the_program_is_inside(void **state) {
  (void)state;
  static fixture_t f;
  setup(&f);
  const hwprof_rl_block_t callers[] = {{0x80000140, 0x8000014c}};
  uint32_t entry = 0;
  assert_int_equal(hwprof_rl_place(&f.rl, kBlocks, 4, kOrder, NULL, callers, 1, 0x80000144, &entry), kHwprofCcPlaced);
  assert_int_equal(*at(&f, 0x80000140), kProgram[16]);
  assert_int_equal(*at(&f, 0x80000144), kProgram[17]);
  assert_int_equal(f.rl.calls, 0);
  assert_int_equal(*at(&f, 0x80000104), 0xf01ff06f); /* it still reaches the copy, through the landing */
}

/* One code cache for both optimizers: a hot trace placed first at B1 (10c, 110, 114 the jump, 11c,
 * 120 the return), its copy 6 words (addi; lui/addi of the auipc's value; prof.id 3 where the
 * counting jump was; addi; jalr) and 10c patched to it. Laying the function out flushes the trace
 * (10c is the program's word again when the copy reads it), the copy goes behind the trace's (its
 * words are kCopy's: every jump in it is relative to itself), and 10c now jumps to B1's copy at
 * 0x18 + 0x24 (jal zero,.-0xd0: f31ff06f). */
static void test_rl_flushes_a_trace_that_starts_in_the_function(void **state) {
  (void)state;
  static fixture_t f;
  setup(&f);
  const uint32_t trace[] = {0x8000010c, 0x80000110, 0x80000114, 0x8000011c, 0x80000120};
  uint32_t entry = 0;
  assert_int_equal(hwprof_cc_place_trace(&f.cc, trace, 5, &entry), kHwprofCcPlaced);
  assert_int_equal(f.cc.next, BASE + 0x18);
  assert_int_equal(f.mem[3], 0x0030002b); /* prof.id 3 (.insn i CUSTOM_1, 0, x0, x0, 3) */
  assert_int_equal(*at(&f, 0x8000010c), 0xef5ff06f); /* jal zero,.-0x10c: the trace's copy */
  assert_int_equal(hwprof_rl_place(&f.rl, kBlocks, 4, kOrder, NULL, NULL, 0, 0, &entry), kHwprofCcPlaced);
  assert_int_equal(f.rl.trace_flushes, 1);
  assert_int_equal(f.cc.npatch, 0);
  assert_int_equal(entry, BASE + 0x18);
  for (unsigned i = 0; i < sizeof kCopy / 4; i++) {
    assert_int_equal(f.mem[6 + i], kCopy[i]);
    assert_int_equal(f.shadow[6 + i], kCopyShadow[i]);
  }
  assert_int_equal(*at(&f, 0x8000010c), 0xf31ff06f);
  assert_int_equal(f.rl.patch[2].word, kProgram[3]); /* 10c's saved word: the program's, not the trace's jump */
}

/* Laid out again in the program's order: a second copy behind the first, read from the program as
 * it was (the patches' saved words); the first copy's block starts now jump on to the second, the
 * program's patches are re-aimed, and so is the call (it went to the first copy). */
static void test_rl_second_layout_supersedes_the_first(void **state) {
  (void)state;
  static fixture_t f;
  setup(&f);
  const hwprof_rl_block_t callers[] = {{0x80000140, 0x8000014c}, {BASE, BASE + 0x100u}};
  const uint32_t identity[] = {0, 1, 2, 3};
  uint32_t e1 = 0, e2 = 0;
  assert_int_equal(hwprof_rl_place(&f.rl, kBlocks, 4, kOrder, NULL, callers, 2, 0, &e1), kHwprofCcPlaced);
  assert_int_equal(hwprof_rl_place(&f.rl, kBlocks, 4, identity, NULL, callers, 2, 0, &e2), kHwprofCcPlaced);
  assert_int_equal(e2, BASE + sizeof kCopy);
  /* the second copy is the function as it was (the beq kept, pointing at B2's copy 5 words on:
     beq a4,zero,.+20 = 00070a63), its auipc as lui/addi, B1's jump to B3's copy (jal zero,.+8 =
     0080006f, kept although B3 is two words on: it counts its edge), B2 falling into B3 */
  const uint32_t second[] = {0x0000102b, 0x00052703, 0x00070a63, 0x00178793, 0x800006b7,
                             0x11068693, 0x0080006f, 0xfff78793, 0x00450513, 0x00008067};
  for (unsigned i = 0; i < sizeof second / 4; i++) assert_int_equal(*at(&f, e2 + 4 * i), second[i]);
  assert_int_equal(*sh(&f, e2 + 8), SH_BEQ);
  /* the first copy's block starts jump to the second's: from 0 and 4 to 34 and 38 (jal zero,.+0x34 =
     0340006f), from c and 10 to 50 and 54 (0440006f), from 24 to 40 (01c0006f); none is the
     program's any more */
  assert_int_equal(*at(&f, BASE), 0x0340006f);
  assert_int_equal(*at(&f, BASE + 4), 0x0340006f);
  assert_int_equal(*at(&f, BASE + 0xc), 0x0440006f);
  assert_int_equal(*at(&f, BASE + 0x10), 0x0440006f);
  assert_int_equal(*at(&f, BASE + 0x24), 0x01c0006f);
  const unsigned own[] = {0, 1, 3, 4, 9};
  for (unsigned i = 0; i < 5; i++) assert_int_equal(f.origin[own[i]], 0);
  assert_int_equal(f.origin[2], 0x80000108); /* the rest of the first copy keeps its origins */
  /* the program's patch at 100 goes to the second copy (jal zero,.-0xcc = f35ff06f) and the call too:
     auipc ra,0x0; jalr ra,-264(ra) (ef8080e7) */
  assert_int_equal(*at(&f, 0x80000100), 0xf35ff06f);
  assert_int_equal(*at(&f, 0x80000144), 0xef8080e7);
  assert_int_equal(hwprof_rl_func_at(&f.rl, 0x80000100)->layouts, 2);
}

/* Scheme 5B (docs/dynopt.md), h the beq's taken edge (B2, which comes next): the beq is inverted,
 * decrements c's counter (the program's not-taken edge, counter 2) on h's way, and c's way runs a
 * stub that increments c's counter, then h's, then switches the region (c's region switch):
 *   8  bne  a4,zero,18        00071863  shadow NT, DEC, pid 2 (no region switch: it moved to the stub)
 *   c  addi a5,a5,-1 ... 14 jalr zero,0(ra)   B2, B3 as in kCopy
 *  18  prof.id 2              0020002b  counter(c) + 1
 *  1c  prof.id 1              0010002b  counter(h) + 1 (it counts profile(c), paragraph 68)
 *  20  prof.setoff x0         0000202b  shadow 5
 *  24  jal  zero,28           0040006f  on to B1
 *  28  addi a5,a5,1 ... 30 addi a3,a3,0x110   B1
 *  34  jal  zero,10           fddff06f */
static void test_rl_counts_a_branch_as_a_5b_pair_h_taken(void **state) {
  (void)state;
  static fixture_t f;
  setup(&f);
  uint8_t flags[4] = {HWPROF_RL_INVERT | HWPROF_RL_5B | HWPROF_RL_5B_H_TAKEN, 0, 0, 0};
  uint32_t entry = 0;
  assert_int_equal(hwprof_rl_place(&f.rl, kBlocks, 4, kOrder, flags, NULL, 0, 0, &entry), kHwprofCcPlaced);
  const uint32_t copy[] = {0x0000102b, 0x00052703, 0x00071863, 0xfff78793, 0x00450513, 0x00008067, 0x0020002b,
                           0x0010002b, 0x0000202b, 0x0040006f, 0x00178793, 0x800006b7, 0x11068693, 0xfddff06f};
  const uint32_t shadow[] = {SH_INIT, 0, 0x00050002, 0, 0, SH_RET, 0, 0, 5, 0, 0, 0, 0, SH_JAL};
  for (unsigned i = 0; i < sizeof copy / 4; i++) {
    assert_int_equal(f.mem[i], copy[i]);
    assert_int_equal(f.shadow[i], shadow[i]);
  }
  assert_int_equal(f.origin[2], 0x80000108);
  assert_int_equal(f.origin[6], 0); /* the stub is the cache's own */
  assert_int_equal(flags[0], HWPROF_RL_INVERT | HWPROF_RL_5B | HWPROF_RL_5B_H_TAKEN | HWPROF_RL_5B_DONE);
  assert_int_equal(f.cc.next, BASE + sizeof copy);
}

/* ... h the not-taken edge (B1), in the program's order: the beq is kept, aimed at c's stub, which
 * comes after B1's jump (the first unconditional end); the region switch, on h's way, stays on it:
 *   8  beq  a4,zero,1c        00070a63  shadow NT, DEC, pid 1, region switch to 5 when not taken
 *   c  addi a5,a5,1 ... 18 jal zero,2c (0140006f)   B1, its jump to B3's copy
 *  1c  prof.id 1              0010002b  counter(c) + 1
 *  20  prof.id 2              0020002b  counter(h) + 1
 *  24  jal  zero,28           0040006f  on to B2
 *  28  addi a5,a5,-1 ... 30 jalr zero,0(ra)   B2, B3 */
static void test_rl_counts_a_branch_as_a_5b_pair_h_not_taken(void **state) {
  (void)state;
  static fixture_t f;
  setup(&f);
  uint8_t flags[4] = {HWPROF_RL_5B, 0, 0, 0};
  const uint32_t identity[] = {0, 1, 2, 3};
  uint32_t entry = 0;
  assert_int_equal(hwprof_rl_place(&f.rl, kBlocks, 4, identity, flags, NULL, 0, 0, &entry), kHwprofCcPlaced);
  const uint32_t copy[] = {0x0000102b, 0x00052703, 0x00070a63, 0x00178793, 0x800006b7, 0x11068693, 0x0140006f,
                           0x0010002b, 0x0020002b, 0x0040006f, 0xfff78793, 0x00450513, 0x00008067};
  for (unsigned i = 0; i < sizeof copy / 4; i++) assert_int_equal(f.mem[i], copy[i]);
  assert_int_equal(f.shadow[2], 0xc0550001);
  assert_int_equal(f.shadow[7], 0);
  assert_int_equal(flags[0], HWPROF_RL_5B | HWPROF_RL_5B_DONE);
  /* a block whose branch is not EITHER (B1 ends in a jump) is not a 5B pair, and a 5B request on a
     kept TK branch changes nothing: the same function with the beq's hint TK */
  setup(&f);
  *sh(&f, 0x80000108) = 0x00000001; /* TK pid 1 */
  flags[0] = HWPROF_RL_5B;
  assert_int_equal(hwprof_rl_place(&f.rl, kBlocks, 4, identity, flags, NULL, 0, 0, &entry), kHwprofCcPlaced);
  assert_int_equal(flags[0], HWPROF_RL_5B);
  assert_int_equal(f.shadow[2], 0x00000001);
}

/* A call inside a block (B1's auipc replaced by jal ra,140): the word after it, where the call
 * returns, is patched like a block start, so that a call made before the layout returns into the
 * copy (jal zero from 114 to the copy's +14: f01ff06f). The copy in the program's order:
 *   8  beq  a4,zero,18 (00070863)   c  addi a5,a5,1   10  jal ra,140 (130000ef)
 *  14  jal  zero,1c (0080006f)      18 B2             1c  B3 */
static void test_rl_patches_where_a_call_returns(void **state) {
  (void)state;
  static fixture_t f;
  setup(&f);
  *at(&f, 0x80000110) = 0x030000ef; /* jal ra,.+0x30 */
  const uint32_t identity[] = {0, 1, 2, 3};
  uint32_t entry = 0;
  assert_int_equal(hwprof_rl_place(&f.rl, kBlocks, 4, identity, NULL, NULL, 0, 0, &entry), kHwprofCcPlaced);
  const uint32_t copy[] = {0x0000102b, 0x00052703, 0x00070863, 0x00178793, 0x130000ef,
                           0x0080006f, 0xfff78793, 0x00450513, 0x00008067};
  for (unsigned i = 0; i < sizeof copy / 4; i++) assert_int_equal(f.mem[i], copy[i]);
  assert_int_equal(f.origin[5], 0x80000114);
  assert_int_equal(*at(&f, 0x80000114), 0xf01ff06f);
  assert_int_equal(*at(&f, 0x80000110), 0x030000ef); /* the call itself stays */
  const hwprof_rl_func_t *fn = hwprof_rl_func_at(&f.rl, 0x80000100);
  assert_int_equal(fn->n, 6);
  assert_int_equal(f.rl.patch[fn->first + 3].addr, 0x80000114);
  assert_int_equal(f.rl.patch[fn->first + 3].landing, kHwprofRlReturn);
  assert_int_equal(f.rl.patch[fn->first + 3].word, kProgram[5]);
}

/* A call that still goes to an earlier copy (it was re-aimed at the first copy, and the second
 * layout did not look where it is) is found through the chain of patched entries by the third
 * layout and re-aimed at the third copy's landing: copies at +0 (13 words), +34 and +5c (10 words
 * each, the program's order), so the call at 140 goes to 80000060: auipc ra,0x0; jalr ra,-224(ra)
 * (f20080e7). */
static void test_rl_reaims_a_call_to_an_older_copy(void **state) {
  (void)state;
  static fixture_t f;
  setup(&f);
  const hwprof_rl_block_t callers[] = {{0x80000140, 0x8000014c}};
  const uint32_t identity[] = {0, 1, 2, 3};
  uint32_t e1 = 0, e2 = 0, e3 = 0;
  assert_int_equal(hwprof_rl_place(&f.rl, kBlocks, 4, kOrder, NULL, callers, 1, 0, &e1), kHwprofCcPlaced);
  assert_int_equal(*at(&f, 0x80000144), 0xec4080e7); /* to the first copy's landing, as above */
  assert_int_equal(hwprof_rl_place(&f.rl, kBlocks, 4, identity, NULL, NULL, 0, 0, &e2), kHwprofCcPlaced);
  assert_int_equal(*at(&f, 0x80000144), 0xec4080e7); /* not looked at */
  assert_int_equal(hwprof_rl_place(&f.rl, kBlocks, 4, identity, NULL, callers, 1, 0, &e3), kHwprofCcPlaced);
  assert_int_equal(e3, BASE + 0x5cu);
  assert_int_equal(*at(&f, 0x80000140), 0x00000097);
  assert_int_equal(*at(&f, 0x80000144), 0xf20080e7);
}

/* Refusals leave everything as it was. */
static void test_rl_refuses_what_it_cannot_do(void **state) {
  (void)state;
  static fixture_t f;
  setup(&f);
  uint32_t entry = 0;
  const uint32_t twice[] = {0, 1, 1, 3};
  assert_int_equal(hwprof_rl_place(&f.rl, kBlocks, 4, twice, NULL, NULL, 0, 0, &entry), kHwprofCcBadTrace);
  const hwprof_rl_block_t outside[] = {{0x80000100, 0x8000010c}, {0x80000300, 0x80000310}};
  const uint32_t two[] = {0, 1};
  assert_int_equal(hwprof_rl_place(&f.rl, outside, 2, two, NULL, NULL, 0, 0, &entry), kHwprofCcNotCode);
  setup(&f);
  f.cc.c.hi = BASE + 0x20u; /* too small for the copy */
  assert_int_equal(hwprof_rl_place(&f.rl, kBlocks, 4, kOrder, NULL, NULL, 0, 0, &entry), kHwprofCcNoRoom);
  assert_int_equal(*at(&f, 0x80000100), kProgram[0]);
  assert_int_equal(f.cc.next, BASE);
  assert_int_equal(f.rl.refused[kHwprofCcNoRoom], 1);
  assert_int_equal(f.rl.nfunc, 0);
  assert_int_equal(hwprof_rl_init(&f.rl, &f.cc, f.patch, 0, f.func, 2, f.copy, 8), kHwprofBadArg);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rl_inverts_a_branch_and_keeps_every_edge_count),
      cmocka_unit_test(test_rl_keeps_a_branch_the_caller_does_not_want_inverted),
      cmocka_unit_test(test_rl_leaves_a_call_the_program_is_inside),
      cmocka_unit_test(test_rl_flushes_a_trace_that_starts_in_the_function),
      cmocka_unit_test(test_rl_second_layout_supersedes_the_first),
      cmocka_unit_test(test_rl_counts_a_branch_as_a_5b_pair_h_taken),
      cmocka_unit_test(test_rl_counts_a_branch_as_a_5b_pair_h_not_taken),
      cmocka_unit_test(test_rl_patches_where_a_call_returns),
      cmocka_unit_test(test_rl_reaims_a_call_to_an_older_copy),
      cmocka_unit_test(test_rl_refuses_what_it_cannot_do),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
