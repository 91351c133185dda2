/* Tests of the code cache (sw/fw/dynopt/codecache.c) and the trace-driven optimizer (trace_opt.c), and
 * of the trace table's release (sw/fw/drivers/hwprof_trace.c). The program and every expected word of the
 * cache were assembled by GNU as (riscv64-unknown-elf-as -march=rv32i, objdump -M no-aliases) from
 * the source in the comments, not by the encoders the code under test uses.
 *
 * Memory: 0x80000000..0x80000200; the cache is its first 0x100 bytes, the program the rest:
 *   100 loop: lw   a4,0(a0)        00052703
 *   104       beq  a4,zero,110     00070663
 *   108       addi a5,a5,1         00178793
 *   10c       jal  zero,118        00c0006f
 *   110 skip: auipc a3,0x0         00000697
 *   114       jal  ra,130 <func>   01c000ef
 *   118 join: addi a0,a0,4         00450513
 *   11c       bne  a0,a1,100       feb512e3
 *   120       jalr zero,0(ra)      00008067
 *   124..12c  addi zero,zero,0     00000013 (x3)
 *   130 func: addi a2,a2,1         00160613
 *   134       jalr zero,0(ra)      00008067
 *   138       addi t0,t0,1         00128293
 *   13c       ecall                00000073
 *   140       auipc ra,0x0         00000097  (an unrelaxed call of func ...
 *   144       jalr ra,-16(ra)      ff0080e7
 *   148       auipc t1,0x0         00000317  ... and tail call)
 *   14c       jalr zero,-24(t1)    fe830067
 *   150       jal  zero,100        fb1ff06f
 *   154       slli zero,zero,0x1f  01f01013  (a semihosting call: ...
 *   158       ebreak               00100073
 *   15c       srai zero,zero,0x7   40705013  ... the host recognizes the three in place)
 *   160       addi t0,t0,1         00128293 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "codecache.h"
#include "trace_opt.h"

#define BASE UINT32_C(0x80000000)
#define WORDS 128u
#define CODE_LO (BASE + 0x100u)

static const uint32_t kProgram[] = {
    0x00052703, 0x00070663, 0x00178793, 0x00c0006f, 0x00000697, 0x01c000ef, 0x00450513, 0xfeb512e3,
    0x00008067, 0x00000013, 0x00000013, 0x00000013, 0x00160613, 0x00008067, 0x00128293, 0x00000073,
    0x00000097, 0xff0080e7, 0x00000317, 0xfe830067, 0xfb1ff06f, 0x01f01013, 0x00100073, 0x40705013,
    0x00128293,
};

typedef struct {
  uint32_t mem[WORDS], shadow[WORDS];
  hwprof_cc_patch_t patch[4];
  hwprof_cc_exit_t exit[16];
  hwprof_cc_t cc;
} fixture_t;

/* the fixture's memory, the program, a cache of cache_bytes at BASE, no trampolines */
static hwprof_cc_config_t config(fixture_t *f, uint32_t cache_bytes) {
  return (hwprof_cc_config_t){.mem_base = BASE, .mem = f->mem, .mem_words = WORDS, .shadow = f->shadow,
                              .code_lo = CODE_LO, .code_hi = CODE_LO + sizeof kProgram, .lo = BASE,
                              .hi = BASE + cache_bytes, .patch = f->patch, .patch_cap = 4, .exit = f->exit,
                              .exit_cap = 16};
}

static uint32_t *at(fixture_t *f, uint32_t addr) { return &f->mem[(addr - BASE) / 4u]; }

static void setup_memory(fixture_t *f, uint32_t cache_bytes) {
  memset(f, 0, sizeof *f);
  memcpy(at(f, CODE_LO), kProgram, sizeof kProgram);
  assert_int_equal(hwprof_cc_init(&f->cc, config(f, cache_bytes)), kHwprofOk);
}

/* Trace A: 100, 104 (taken), 110, 114 (the call), 130, 134 (the return ends it). */
static const uint32_t kTraceA[] = {0x80000100, 0x80000104, 0x80000110, 0x80000114, 0x80000130, 0x80000134};
/* Its copy, assembled from:
 *   0  lw   a4,0(a0)        00: the taken beq is inverted ...
 *   4  bne  a4,zero,20      ... and leaves through the stub at 20 for the old fall-through 108
 *   8  lui  a3,0x80000      the auipc's value, 0x80000110
 *   c  addi a3,a3,0x110
 *  10  lui  ra,0x80000      the call's return address, 0x80000118; the jal itself is dropped
 *  14  addi ra,ra,0x118
 *  18  addi a2,a2,1         the callee, inline
 *  1c  jalr zero,0(ra)      the return, copied
 *  20  jal  zero,108        the stub */
static const uint32_t kCopyA[] = {0x00052703, 0x00071e63, 0x800006b7, 0x11068693, 0x800000b7,
                                  0x11808093, 0x00160613, 0x00008067, 0x0e80006f};
#define PATCH_TO_BASE_FROM_100 UINT32_C(0xf01ff06f) /* at 100: jal zero,.-0x100 */

static void test_cc_trace_with_taken_branch_auipc_and_call_is_laid_straight(void **state) {
  (void)state;
  static fixture_t f;
  setup_memory(&f, 0x100);
  uint32_t entry = 0;
  assert_int_equal(hwprof_cc_place_trace(&f.cc, kTraceA, 6, &entry), kHwprofCcPlaced);
  assert_int_equal(entry, BASE);
  for (unsigned i = 0; i < sizeof kCopyA / 4; i++) assert_int_equal(f.mem[i], kCopyA[i]);
  assert_int_equal(f.cc.next, BASE + sizeof kCopyA);
  assert_int_equal(*at(&f, 0x80000100), PATCH_TO_BASE_FROM_100);
  for (unsigned i = 1; i < sizeof kProgram / 4; i++) assert_int_equal(*at(&f, CODE_LO + 4 * i), kProgram[i]);
  const hwprof_cc_patch_t *p = hwprof_cc_patch_at(&f.cc, 0x80000100);
  assert_non_null(p);
  assert_int_equal(p->word, kProgram[0]);
  assert_int_equal(p->entry, BASE);
  assert_int_equal(f.cc.placed, 1);
  /* the same start again: refused, nothing changes */
  assert_int_equal(hwprof_cc_place_trace(&f.cc, kTraceA, 6, &entry), kHwprofCcAlreadyPlaced);
  assert_int_equal(f.cc.refused[kHwprofCcAlreadyPlaced], 1);
  assert_int_equal(f.cc.next, BASE + sizeof kCopyA);
}

/* Trace B: the loop's other path, 100, 104 (falls through), 108, 10c (the jump), 118, 11c (taken
 * backward: the end). Its copy:
 *   0  lw   a4,0(a0)
 *   4  beq  a4,zero,18      kept: its taken way leaves through the stub at 18 for 110
 *   8  addi a5,a5,1
 *   c  addi a0,a0,4         the jump to 118 is dropped
 *  10  bne  a0,a1,0         the loop's branch goes to the copy's own entry
 *  14  jal  zero,120        and its fall-through leaves
 *  18  jal  zero,110        the stub */
static const uint32_t kTraceB[] = {0x80000100, 0x80000104, 0x80000108, 0x8000010c, 0x80000118, 0x8000011c};
static const uint32_t kCopyB[] = {0x00052703, 0x00070a63, 0x00178793, 0x00450513, 0xfeb518e3, 0x10c0006f, 0x0f80006f};

static void test_cc_loop_trace_branches_back_to_its_entry(void **state) {
  (void)state;
  static fixture_t f;
  setup_memory(&f, 0x100);
  uint32_t entry = 0;
  assert_int_equal(hwprof_cc_place_trace(&f.cc, kTraceB, 6, &entry), kHwprofCcPlaced);
  for (unsigned i = 0; i < sizeof kCopyB / 4; i++) assert_int_equal(f.mem[i], kCopyB[i]);
  assert_int_equal(*at(&f, 0x80000100), PATCH_TO_BASE_FROM_100);
}

/* An instrumented program keeps its profile in the cache (docs/dynopt.md, "One code cache for both
 * optimizers"): every edge the original counts, its copy counts the same way.
 * Trace A with the beq at 104 counting both its edges (EITHER, pid 5: taken 5, not taken 6; shadow
 * 0x00020005): the inverted bne counts the old taken edge as its fall-through (NT, pid 5: 0x00010005)
 * and its stub counts the old not-taken edge before it leaves:
 *   0..1c  as kCopyA     (the bne at 4 still aimed at the stub at 20)
 *  20  prof.id 6        0060002b  (.insn i CUSTOM_1, 0, x0, x0, 6)
 *  24  jal  zero,108    0e40006f
 * Trace B with the jump at 10c counting its edge (TK, pid 7) and switching the region offset to 9
 * (shadow 0x80900007): the dropped jump leaves its two operations in its place:
 *   0  lw   a4,0(a0)      00052703
 *   4  beq  a4,zero,20    00070e63
 *   8  addi a5,a5,1       00178793
 *   c  prof.id 7          0070002b  (its origin: the jump at 10c)
 *  10  prof.setoff        0000202b  (shadow word 9)
 *  14  addi a0,a0,4       00450513
 *  18  bne  a0,a1,0       feb514e3
 *  1c  jal  zero,120      1040006f
 *  20  jal  zero,110      0f00006f  (the stub) */
static void test_cc_profiled_trace_counts_what_the_original_counts(void **state) {
  (void)state;
  static fixture_t f;
  static uint32_t origin[64];
  setup_memory(&f, 0x100);
  f.shadow[(0x80000104 - BASE) / 4] = 0x00020005u;
  uint32_t entry;
  assert_int_equal(hwprof_cc_place_trace(&f.cc, kTraceA, 6, &entry), kHwprofCcPlaced);
  for (unsigned i = 0; i < 8; i++) assert_int_equal(f.mem[i], kCopyA[i]);
  assert_int_equal(f.shadow[1], 0x00010005u);
  assert_int_equal(f.mem[8], 0x0060002bu);
  assert_int_equal(f.shadow[8], 0);
  assert_int_equal(f.mem[9], 0x0e40006fu);
  /* a branch whose way out counts is not re-aimed when its exit is linked: the stub's jump is */
  const uint32_t t108[] = {0x80000108, 0x8000010c};
  assert_int_equal(hwprof_cc_place_trace(&f.cc, t108, 2, &entry), kHwprofCcPlaced);
  assert_int_equal(f.mem[1], kCopyA[1]);
  assert_int_equal(f.mem[9], 0x00000013u); /* the copy of 108 is right behind the stub: its jump became a nop */
  assert_int_equal(entry, BASE + 0x28);

  memset(origin, 0, sizeof origin);
  hwprof_cc_config_t c = config(&f, 0x100);
  setup_memory(&f, 0x100);
  c.origin = origin;
  assert_int_equal(hwprof_cc_init(&f.cc, c), kHwprofOk);
  f.shadow[(0x8000010c - BASE) / 4] = 0x80900007u;
  assert_int_equal(hwprof_cc_place_trace(&f.cc, kTraceB, 6, &entry), kHwprofCcPlaced);
  const uint32_t want[] = {0x00052703, 0x00070e63, 0x00178793, 0x0070002b, 0x0000202b,
                           0x00450513, 0xfeb514e3, 0x1040006f, 0x0f00006f};
  for (unsigned i = 0; i < 9; i++) assert_int_equal(f.mem[i], want[i]);
  assert_int_equal(f.shadow[3], 0);
  assert_int_equal(f.shadow[4], 9);
  const uint32_t want_origin[] = {0x80000100, 0x80000104, 0x80000108, 0x8000010c, 0,
                                  0x80000118, 0x8000011c, 0, 0};
  for (unsigned i = 0; i < 9; i++) assert_int_equal(origin[i], want_origin[i]);
  /* without profiling bits, the origin table keeps a nop in the jump's place: its edge is seen */
  setup_memory(&f, 0x100);
  assert_int_equal(hwprof_cc_init(&f.cc, c), kHwprofOk);
  assert_int_equal(hwprof_cc_place_trace(&f.cc, kTraceB, 6, &entry), kHwprofCcPlaced);
  assert_int_equal(f.mem[3], 0x00000013u);
  assert_int_equal(origin[3], 0x8000010cu);
  /* with min_gain 1, a trace with no taken transfer inside (118, then the loop's branch at its end)
     is not worth its patch: refused; trace B (its jump dropped) is placed */
  setup_memory(&f, 0x100);
  c.min_gain = 1;
  assert_int_equal(hwprof_cc_init(&f.cc, c), kHwprofOk);
  const uint32_t straight[] = {0x80000118, 0x8000011c};
  assert_int_equal(hwprof_cc_place_trace(&f.cc, straight, 2, &entry), kHwprofCcNoGain);
  assert_int_equal(*at(&f, 0x80000118), kProgram[6]);
  assert_int_equal(hwprof_cc_place_trace(&f.cc, kTraceB, 6, &entry), kHwprofCcPlaced);
  /* a word the re-layout sends into the cache (a jal there) does not start a trace */
  *at(&f, 0x80000118) = 0xee9ff06fu; /* jal zero,.-0x118: to BASE */
  const uint32_t sent[] = {0x80000118, 0x8000011c};
  assert_int_equal(hwprof_cc_place_trace(&f.cc, sent, 2, &entry), kHwprofCcAlreadyPlaced);
}

/* A trace ending in ecall: the copy leaves it to the original code. 138 addi t0; 13c ecall:
 *   0  addi t0,t0,1         00128293
 *   4  jal  zero,13c        1380006f
 * and the patch at 138 is jal zero,.-0x138 (ec9ff06f). A trace starting at the ecall would only
 * jump back to its own patch: refused. */
static void test_cc_trap_is_left_to_the_original_code(void **state) {
  (void)state;
  static fixture_t f;
  setup_memory(&f, 0x100);
  const uint32_t ecall_only[] = {0x8000013c};
  uint32_t entry;
  assert_int_equal(hwprof_cc_place_trace(&f.cc, ecall_only, 1, &entry), kHwprofCcFirstInsn);
  const uint32_t t[] = {0x80000138, 0x8000013c};
  assert_int_equal(hwprof_cc_place_trace(&f.cc, t, 2, &entry), kHwprofCcPlaced);
  assert_int_equal(f.mem[0], 0x00128293);
  assert_int_equal(f.mem[1], 0x1380006f);
  assert_int_equal(*at(&f, 0x80000138), 0xec9ff06f);
}

/* A second trace, 118 and 11c (the last: both ways kept), placed behind B; its way back to 100, B's
 * patched start, goes straight to B's entry (traces linked in the cache), with no stub:
 *  1c  addi a0,a0,4         00450513
 *  20  bne  a0,a1,0         feb510e3  (B's entry, not 100)
 *  24  jal  zero,120        0fc0006f */
static void test_cc_exit_to_a_placed_start_goes_to_its_copy(void **state) {
  (void)state;
  static fixture_t f;
  setup_memory(&f, 0x100);
  uint32_t e1, e2;
  assert_int_equal(hwprof_cc_place_trace(&f.cc, kTraceB, 6, &e1), kHwprofCcPlaced);
  const uint32_t tail[] = {0x80000118, 0x8000011c};
  assert_int_equal(hwprof_cc_place_trace(&f.cc, tail, 2, &e2), kHwprofCcPlaced);
  assert_int_equal(e2, BASE + 0x1c);
  const uint32_t want[] = {0x00450513, 0xfeb510e3, 0x0fc0006f};
  for (unsigned i = 0; i < 3; i++) assert_int_equal(f.mem[7 + i], want[i]);
  assert_int_equal(f.cc.next, BASE + 0x28);
}

/* A call whose return site starts a placed trace returns straight into that copy: the trace at 118
 * (118, 11c) placed first at 0, then trace A at 10, whose call at 114 returns to 118; its return
 * address is the copy's entry, 0x80000000 (not 0x80000118), whose low 12 bits are 0, so one lui:
 *   20  lui  ra,0x80000       800000b7
 *   24  addi a2,a2,1          00160613  (the callee) */
static void test_cc_call_returns_into_the_copy_of_its_return_site(void **state) {
  (void)state;
  static fixture_t f;
  setup_memory(&f, 0x100);
  uint32_t e1, e2;
  const uint32_t site[] = {0x80000118, 0x8000011c};
  assert_int_equal(hwprof_cc_place_trace(&f.cc, site, 2, &e1), kHwprofCcPlaced);
  assert_int_equal(e1, BASE);
  assert_int_equal(hwprof_cc_place_trace(&f.cc, kTraceA, 6, &e2), kHwprofCcPlaced);
  assert_int_equal(e2, BASE + 0x10);
  assert_int_equal(*at(&f, BASE + 0x20), 0x800000b7);
  assert_int_equal(*at(&f, BASE + 0x24), 0x00160613);
}

/* auipc + jalr through the register it set: the target is known, so the copy jumps there.
 * Trace 140, 144 (the call): at 0, the auipc's value left out (the call overwrites ra)
 *    0  lui  ra,0x80000       800000b7  (the return address, 0x80000148)
 *    4  addi ra,ra,0x148      14808093
 *    8  jal  zero,130         1280006f
 * Trace 148, 14c (the tail call) in a fresh cache:
 *    0  lui  t1,0x80000       80000337
 *    4  addi t1,t1,0x148      14830313
 *    8  jal  zero,130         1280006f */
static void test_cc_unrelaxed_call_becomes_a_direct_jump(void **state) {
  (void)state;
  static fixture_t f;
  uint32_t entry;
  setup_memory(&f, 0x100);
  const uint32_t call[] = {0x80000140, 0x80000144};
  assert_int_equal(hwprof_cc_place_trace(&f.cc, call, 2, &entry), kHwprofCcPlaced);
  const uint32_t want_call[] = {0x800000b7, 0x14808093, 0x1280006f};
  for (unsigned i = 0; i < 3; i++) assert_int_equal(f.mem[i], want_call[i]);
  assert_int_equal(f.cc.next, BASE + 0xc);
  setup_memory(&f, 0x100);
  const uint32_t tail[] = {0x80000148, 0x8000014c};
  assert_int_equal(hwprof_cc_place_trace(&f.cc, tail, 2, &entry), kHwprofCcPlaced);
  const uint32_t want_tail[] = {0x80000337, 0x14830313, 0x1280006f};
  for (unsigned i = 0; i < 3; i++) assert_int_equal(f.mem[i], want_tail[i]);
  /* a jalr whose base was not set by the auipc just before it in the trace is left to the code */
  setup_memory(&f, 0x100);
  const uint32_t alone[] = {0x80000144};
  assert_int_equal(hwprof_cc_place_trace(&f.cc, alone, 1, &entry), kHwprofCcFirstInsn);
}

/* A trace that reaches another trace's start (its patch: a backward jump, where the hardware ends a
 * trace) ends there, with that trace's copy appended: func (130, 134) placed first at 0, then
 * trace A, which calls it, at 8:
 *    8  lw   a4,0(a0)         00052703
 *    c  bne  a4,zero,28       00071e63
 *   10  lui  a3,0x80000       800006b7
 *   14  addi a3,a3,0x110      11068693
 *   18  lui  ra,0x80000       800000b7
 *   1c  addi ra,ra,0x118      11808093
 *   20  addi a2,a2,1          00160613  (func's copy, appended)
 *   24  jalr zero,0(ra)       00008067
 *   28  jal  zero,108         0e00006f  (the stub) */
static void test_cc_trace_reaching_a_placed_start_appends_its_copy(void **state) {
  (void)state;
  static fixture_t f;
  setup_memory(&f, 0x100);
  uint32_t e1, e2;
  const uint32_t func[] = {0x80000130, 0x80000134};
  assert_int_equal(hwprof_cc_place_trace(&f.cc, func, 2, &e1), kHwprofCcPlaced);
  assert_int_equal(f.mem[0], 0x00160613);
  assert_int_equal(f.mem[1], 0x00008067);
  assert_int_not_equal(*at(&f, 0x80000130), 0x00160613); /* patched */
  assert_int_equal(hwprof_cc_place_trace(&f.cc, kTraceA, 6, &e2), kHwprofCcPlaced);
  assert_int_equal(e2, BASE + 8);
  const uint32_t want[] = {0x00052703, 0x00071e63, 0x800006b7, 0x11068693, 0x800000b7,
                           0x11808093, 0x00160613, 0x00008067, 0x0e00006f};
  for (unsigned i = 0; i < 9; i++) assert_int_equal(f.mem[2 + i], want[i]);
  assert_int_equal(f.cc.next, BASE + 0x2c);
}

/* An appended copy keeps its branches' and jumps' destinations: trace B at 0 (body 0..18, its stub
 * at 18), then 150 (the jump to 100, dropped) and B appended at 1c:
 *   1c  lw   a4,0(a0)         00052703
 *   20  beq  a4,zero,18       fe070ce3  (B's stub, in reach)
 *   24  addi a5,a5,1          00178793
 *   28  addi a0,a0,4          00450513
 *   2c  bne  a0,a1,0          fcb51ae3  (B's entry)
 *   30  jal  zero,120         0f00006f  (B's exit to 120, an exit of this copy too) */
static void test_cc_appended_copy_keeps_its_destinations(void **state) {
  (void)state;
  static fixture_t f;
  setup_memory(&f, 0x100);
  uint32_t e1, e2;
  assert_int_equal(hwprof_cc_place_trace(&f.cc, kTraceB, 6, &e1), kHwprofCcPlaced);
  assert_int_equal(f.cc.nexit, 2);
  const uint32_t t[] = {0x80000150, 0x80000100};
  assert_int_equal(hwprof_cc_place_trace(&f.cc, t, 2, &e2), kHwprofCcPlaced);
  assert_int_equal(e2, BASE + 0x1c);
  const uint32_t want[] = {0x00052703, 0xfe070ce3, 0x00178793, 0x00450513, 0xfcb51ae3, 0x0f00006f};
  for (unsigned i = 0; i < 6; i++) assert_int_equal(f.mem[7 + i], want[i]);
  assert_int_equal(f.cc.next, BASE + 0x34);
  assert_int_equal(f.cc.nexit, 3);
  assert_int_equal(f.cc.c.exit[2].at, BASE + 0x30);
  assert_int_equal(f.cc.c.exit[2].to, 0x80000120);
}

/* An appended copy whose last jump was linked to the copy right behind it (and so became a nop)
 * must go on there. X = 108, 10c (jump dropped), 118: at 0, its exit to 11c at 8. Y = 11c (falls
 * through), 120 at c: X's exit becomes a nop. Z = 150, 100, 104 (falls through), then X's start:
 *   18  lw   a4,0(a0)         Z's own
 *   1c  beq  a4,zero,30       its stub at 30
 *   20  addi a5,a5,1          X appended ...
 *   24  addi a0,a0,4
 *   28  addi zero,zero,0      00000013  ... its linked nop
 *   2c  jal  zero,c           fe1ff06f  on to Y, where X went on (the first version fell into the stub) */
static void test_cc_appended_copy_goes_on_where_its_nop_went(void **state) {
  (void)state;
  static fixture_t f;
  setup_memory(&f, 0x100);
  uint32_t e;
  const uint32_t x[] = {0x80000108, 0x8000010c, 0x80000118};
  const uint32_t y[] = {0x8000011c, 0x80000120};
  const uint32_t z[] = {0x80000150, 0x80000100, 0x80000104, 0x80000108};
  assert_int_equal(hwprof_cc_place_trace(&f.cc, x, 3, &e), kHwprofCcPlaced);
  assert_int_equal(hwprof_cc_place_trace(&f.cc, y, 2, &e), kHwprofCcPlaced);
  assert_int_equal(e, BASE + 0xc);
  assert_int_equal(f.mem[2], 0x00000013);
  assert_int_equal(hwprof_cc_place_trace(&f.cc, z, 4, &e), kHwprofCcPlaced);
  assert_int_equal(e, BASE + 0x18);
  assert_int_equal(f.mem[10], 0x00000013);
  assert_int_equal(f.mem[11], 0xfe1ff06f);
}

static void test_cc_flush_restores_the_program(void **state) {
  (void)state;
  static fixture_t f;
  setup_memory(&f, 0x100);
  uint32_t entry;
  f.shadow[(0x80000100 - BASE) / 4] = 0x5u;
  const uint32_t t[] = {0x80000118, 0x8000011c};
  assert_int_equal(hwprof_cc_place_trace(&f.cc, kTraceB, 6, &entry), kHwprofCcPlaced);
  assert_int_equal(f.shadow[(0x80000100 - BASE) / 4], 0); /* the patch's jump carries no profiling bits */
  assert_int_equal(f.shadow[0], 0x5u);                    /* the copied lw keeps its shadow word */
  assert_int_equal(hwprof_cc_place_trace(&f.cc, t, 2, &entry), kHwprofCcPlaced);
  assert_int_equal(*at(&f, 0x80000100), PATCH_TO_BASE_FROM_100);
  assert_int_equal(hwprof_cc_place_trace(&f.cc, t, 2, &entry), kHwprofCcAlreadyPlaced);
  const uint32_t next = f.cc.next;
  uint32_t copies[WORDS];
  memcpy(copies, f.mem, sizeof copies);
  assert_int_equal(hwprof_cc_flush(&f.cc), kHwprofOk);
  for (unsigned i = 0; i < sizeof kProgram / 4; i++) assert_int_equal(*at(&f, CODE_LO + 4 * i), kProgram[i]);
  assert_int_equal(f.shadow[(0x80000100 - BASE) / 4], 0x5u);
  assert_int_equal(f.cc.npatch, 0);
  /* the copies stay valid code where they were (a return address may point into one); new ones go
     after them, and the same start can be placed again */
  assert_int_equal(f.cc.next, next);
  for (uint32_t a = BASE; a < next; a += 4) assert_int_equal(*at(&f, a), copies[(a - BASE) / 4]);
  assert_int_equal(hwprof_cc_place_trace(&f.cc, t, 2, &entry), kHwprofCcPlaced);
  assert_int_equal(entry, next);
}

/* Refusals leave the program and the placed traces as they were. */
static void test_cc_refusals_change_nothing(void **state) {
  (void)state;
  static fixture_t f;
  uint32_t entry;
  /* the dropped call at 114 would carry profiling bits (a linked call's) */
  setup_memory(&f, 0x100);
  f.shadow[(0x80000114 - BASE) / 4] = 0x80000201u;
  assert_int_equal(hwprof_cc_place_trace(&f.cc, kTraceA, 6, &entry), kHwprofCcProfiled);
  assert_int_equal(*at(&f, 0x80000100), kProgram[0]);
  /* ... and so would a dropped jump whose shadow word holds a return's pop bit */
  f.shadow[(0x8000010c - BASE) / 4] = 1u << 19;
  assert_int_equal(hwprof_cc_place_trace(&f.cc, kTraceB, 6, &entry), kHwprofCcProfiled);
  assert_int_equal(f.cc.placed, 0);
  assert_int_equal(f.cc.refused[kHwprofCcProfiled], 2);
  /* a cache of 8 words cannot hold the 9 of trace A */
  setup_memory(&f, 0x20);
  assert_int_equal(hwprof_cc_place_trace(&f.cc, kTraceA, 6, &entry), kHwprofCcNoRoom);
  assert_int_equal(*at(&f, 0x80000100), kProgram[0]);
  assert_int_equal(f.cc.next, BASE);
  /* not a path: 104 neither falls through to nor branches to 118 */
  setup_memory(&f, 0x100);
  const uint32_t bad[] = {0x80000100, 0x80000104, 0x80000118};
  assert_int_equal(hwprof_cc_place_trace(&f.cc, bad, 3, &entry), kHwprofCcBadTrace);
  const uint32_t outside[] = {0x80000100, 0x80000104, 0x80000200};
  assert_int_equal(hwprof_cc_place_trace(&f.cc, outside, 3, &entry), kHwprofCcNotCode);
  assert_int_equal(*at(&f, 0x80000100), kProgram[0]);
  assert_int_equal(f.cc.placed, 0);
  assert_int_equal(f.cc.refused[kHwprofCcBadTrace], 1);
  assert_int_equal(f.cc.refused[kHwprofCcNotCode], 1);
}

/* A semihosting call runs in place: a trace may not start at any of its three words (a patch on
 * the one after the ebreak would hide the call from the host; found by codecache-random), and one
 * that reaches it leaves to the code before it. */
static void test_cc_semihosting_call_stays_in_place(void **state) {
  (void)state;
  static fixture_t f;
  setup_memory(&f, 0x100);
  uint32_t e;
  const uint32_t at_pre[] = {0x80000154, 0x80000158};
  const uint32_t at_ebreak[] = {0x80000158, 0x8000015c};
  const uint32_t at_post[] = {0x8000015c, 0x80000160};
  assert_int_equal(hwprof_cc_place_trace(&f.cc, at_pre, 2, &e), kHwprofCcFirstInsn);
  assert_int_equal(hwprof_cc_place_trace(&f.cc, at_ebreak, 2, &e), kHwprofCcFirstInsn);
  assert_int_equal(hwprof_cc_place_trace(&f.cc, at_post, 2, &e), kHwprofCcFirstInsn);
  assert_int_equal(*at(&f, 0x8000015c), 0x40705013);
  assert_int_equal(f.cc.placed, 0);
}

static void test_cc_init_rejects_overlap_and_misalignment(void **state) {
  (void)state;
  static fixture_t f;
  hwprof_cc_t cc;
  hwprof_cc_config_t c = config(&f, 0x80);
  assert_int_equal(hwprof_cc_init(&cc, c), kHwprofOk);
  c.lo = CODE_LO + 0x20; /* the cache over the code */
  c.hi = CODE_LO + 0x80;
  assert_int_equal(hwprof_cc_init(&cc, c), kHwprofBadArg);
  c = config(&f, 0x80);
  c.lo = BASE + 2; /* misaligned */
  assert_int_equal(hwprof_cc_init(&cc, c), kHwprofBadArg);
  c = config(&f, 0x80);
  c.code_hi = BASE + 4 * WORDS + 4; /* past the memory */
  assert_int_equal(hwprof_cc_init(&cc, c), kHwprofBadArg);
  c = config(&f, 0x80);
  c.patch_cap = 0;
  assert_int_equal(hwprof_cc_init(&cc, c), kHwprofBadArg);
  c = config(&f, 0x80);
  c.tramp_lo = BASE + 0x40; /* trampolines inside the cache */
  c.tramp_hi = BASE + 0x60;
  assert_int_equal(hwprof_cc_init(&cc, c), kHwprofBadArg);
}

/* Trampolines at 180..200 and linking. Trace A's way off (to 108) leaves through a trampoline:
 *   20  jal zero,180        1600006f  (A's stub)
 *  180  jal zero,108        f89ff06f  (backward into the code: the trace controller ends a trace there)
 * Then the trace from that exit, 108, 10c (dropped), 118, 11c (the last), is placed at 24:
 *   24  addi a5,a5,1        00178793
 *   28  addi a0,a0,4        00450513
 *   2c  bne  a0,a1,0        fcb51ae3  (the way to 100 goes straight to A's copy)
 *   30  jal  zero,184       1540006f  (the fall-through to 120, through a new trampoline)
 *  184  jal  zero,120       f9dff06f
 * and A is linked to it: its stub at 20 would become jal zero,24, the next word, so it becomes a nop
 * (addi zero,zero,0: 00000013), and the branch that used the stub goes there itself, 4:
 * bne a4,zero,24 (02071063); 108 is patched with jal zero,24 (f1dff06f). */
static void test_cc_exits_go_through_trampolines_until_linked(void **state) {
  (void)state;
  static fixture_t f;
  memset(&f, 0, sizeof f);
  memcpy(at(&f, CODE_LO), kProgram, sizeof kProgram);
  hwprof_cc_config_t c = config(&f, 0x80);
  c.tramp_lo = BASE + 0x180;
  c.tramp_hi = BASE + 0x200;
  assert_int_equal(hwprof_cc_init(&f.cc, c), kHwprofOk);
  uint32_t e1, e2;
  assert_int_equal(hwprof_cc_place_trace(&f.cc, kTraceA, 6, &e1), kHwprofCcPlaced);
  for (unsigned i = 0; i + 1 < sizeof kCopyA / 4; i++) assert_int_equal(f.mem[i], kCopyA[i]);
  assert_int_equal(f.mem[8], 0x1600006f);
  assert_int_equal(*at(&f, 0x80000180), 0xf89ff06f);
  assert_int_equal(f.cc.nexit, 2); /* the stub's way to 108, and the call's return address 118 */
  const uint32_t t[] = {0x80000108, 0x8000010c, 0x80000118, 0x8000011c};
  assert_int_equal(hwprof_cc_place_trace(&f.cc, t, 4, &e2), kHwprofCcPlaced);
  assert_int_equal(e2, BASE + 0x24);
  const uint32_t want[] = {0x00178793, 0x00450513, 0xfcb51ae3, 0x1540006f};
  for (unsigned i = 0; i < 4; i++) assert_int_equal(f.mem[9 + i], want[i]);
  assert_int_equal(*at(&f, 0x80000184), 0xf9dff06f);
  assert_int_equal(f.mem[8], 0x00000013); /* linked: a jump to the next word, so a nop */
  assert_int_equal(f.mem[1], 0x02071063);
  assert_int_equal(*at(&f, 0x80000108), 0xf1dff06f);
  assert_int_equal(f.cc.linked, 1);
  assert_int_equal(f.cc.nexit, 2); /* 30's way to 120, and the return address 118 (no trace starts there) */
  assert_int_equal(f.cc.tramp_next, BASE + 0x188);
  /* flush: the program as it was, no exit left to link; the trampolines stay (copies use them) */
  assert_int_equal(hwprof_cc_flush(&f.cc), kHwprofOk);
  for (unsigned i = 0; i < sizeof kProgram / 4; i++) assert_int_equal(*at(&f, CODE_LO + 4 * i), kProgram[i]);
  assert_int_equal(f.cc.tramp_next, BASE + 0x188);
  assert_int_equal(*at(&f, 0x80000184), 0xf9dff06f);
  assert_int_equal(f.cc.nexit, 0);
}

/* A copied call's return address follows a trace placed later at it: trace A loads 118 into ra (its
 * call's return address, no copy there yet); once a trace starts at 118 (addi a0,a0,4; bne back to
 * 100), A's lui and addi load that copy's entry, 24, so the return goes straight there and not
 * through the patch at 118. Encodings by hand: lui ra,0x80000 = 800000b7, addi ra,ra,0x24 =
 * 0x024 << 20 | ra << 15 | ra << 7 | 0x13 = 02408093. */
static void test_cc_return_address_follows_a_trace_placed_later(void **state) {
  (void)state;
  static fixture_t f;
  setup_memory(&f, 0x100);
  uint32_t e1, e2;
  assert_int_equal(hwprof_cc_place_trace(&f.cc, kTraceA, 6, &e1), kHwprofCcPlaced);
  assert_int_equal(f.mem[4], 0x800000b7);
  assert_int_equal(f.mem[5], 0x11808093); /* 118, the original return address */
  const uint32_t r[] = {0x80000118, 0x8000011c};
  assert_int_equal(hwprof_cc_place_trace(&f.cc, r, 2, &e2), kHwprofCcPlaced);
  assert_int_equal(e2, BASE + 0x24);
  assert_int_equal(f.mem[4], 0x800000b7);
  assert_int_equal(f.mem[5], 0x02408093); /* 24, the copy of the trace at 118 */
  assert_int_equal(f.cc.returns_linked, 1);
  for (size_t i = 0; i < f.cc.nexit; i++) assert_false(f.exit[i].ret); /* nothing left to re-aim */
  /* a flush forgets the noted return addresses with the exits (the old copies stay valid code) */
  assert_int_equal(hwprof_cc_flush(&f.cc), kHwprofOk);
  assert_int_equal(f.cc.nexit, 0);
}

/* The hot callback: record (start 100, history 0b11: marker, then the beq taken) rebuilds trace A
 * from the program, places it and releases its table entry; a record at the patched start is left
 * alone. */
/* The cost model of the trace side (docs/dynopt.md, "One code cache for both optimizers"). Trace A
 * ({100, 0x3}: the beq taken, the call inlined) straightens two taken transfers, trace B ({100, 0x2}:
 * the beq falls through, the jump at 10c dropped) one.
 * - min_gain 2: B turns hot first and is refused (nothing worth its patch); its start is then left
 *   alone, so A, hot later, is not placed either (its patch would send B's way through an exit).
 * - min_share_pct 80: A holds 4 of the start's 5 samples (80%, not more): not placed; alone at the
 *   start it is. */
static void test_trace_opt_places_only_traces_worth_their_patch(void **state) {
  (void)state;
  static fixture_t f;
  static hwprof_trace_entry_t slots[16];
  static hwprof_trace_table_t table;
  static hwprof_trace_opt_t o;
  const hwprof_trace_rec_t a = {0x80000100, 0x3}, b = {0x80000100, 0x2};
  setup_memory(&f, 0x100);
  hwprof_cc_config_t c = config(&f, 0x100);
  c.min_gain = 2;
  assert_int_equal(hwprof_cc_init(&f.cc, c), kHwprofOk);
  assert_int_equal(hwprof_trace_table_init(&table, slots, 16, 2, hwprof_trace_opt_on_hot, &o), kHwprofOk);
  assert_int_equal(hwprof_trace_opt_init(&o, &f.cc, &table, 32), kHwprofOk);
  (void)hwprof_trace_table_add(&table, &b);
  (void)hwprof_trace_table_add(&table, &b);
  assert_int_equal(f.cc.refused[kHwprofCcNoGain], 1);
  assert_int_equal(o.nleft, 1);
  (void)hwprof_trace_table_add(&table, &a);
  (void)hwprof_trace_table_add(&table, &a);
  assert_int_equal(o.left_alone, 1);
  assert_int_equal(f.cc.placed, 0);
  assert_int_equal(*at(&f, 0x80000100), kProgram[0]);

  setup_memory(&f, 0x100);
  assert_int_equal(hwprof_trace_table_init(&table, slots, 16, 4, hwprof_trace_opt_on_hot, &o), kHwprofOk);
  assert_int_equal(hwprof_trace_opt_init(&o, &f.cc, &table, 32), kHwprofOk);
  o.min_share_pct = 80;
  (void)hwprof_trace_table_add(&table, &b);
  for (unsigned i = 0; i < 4; i++) (void)hwprof_trace_table_add(&table, &a);
  assert_int_equal(o.minority, 1);
  assert_int_equal(f.cc.placed, 0);
  assert_non_null(hwprof_trace_table_find(&table, &a)); /* it stays, hot: not handed over again */
  assert_int_equal(hwprof_trace_table_init(&table, slots, 16, 4, hwprof_trace_opt_on_hot, &o), kHwprofOk);
  for (unsigned i = 0; i < 4; i++) (void)hwprof_trace_table_add(&table, &a);
  assert_int_equal(f.cc.placed, 1);
  for (unsigned i = 0; i < sizeof kCopyA / 4; i++) assert_int_equal(f.mem[i], kCopyA[i]);
}

static void test_trace_opt_places_a_hot_trace_and_releases_its_entry(void **state) {
  (void)state;
  static fixture_t f;
  setup_memory(&f, 0x100);
  static hwprof_trace_entry_t slots[16];
  static hwprof_trace_table_t table;
  static hwprof_trace_opt_t o;
  assert_int_equal(hwprof_trace_table_init(&table, slots, 16, 2, hwprof_trace_opt_on_hot, &o), kHwprofOk);
  assert_int_equal(hwprof_trace_opt_init(&o, &f.cc, &table, 32), kHwprofOk);
  const hwprof_trace_rec_t a = {0x80000100, 0x3};
  assert_non_null(hwprof_trace_table_add(&table, &a));
  assert_null(hwprof_trace_table_add(&table, &a)); /* hot at 2: placed, released */
  assert_null(hwprof_trace_table_find(&table, &a));
  assert_int_equal(table.used, 0);
  for (unsigned i = 0; i < sizeof kCopyA / 4; i++) assert_int_equal(f.mem[i], kCopyA[i]);
  assert_int_equal(o.hot, 1);
  /* the patched start again (the patch's jump alone): no placement, the entry stays */
  assert_non_null(hwprof_trace_table_add(&table, &a));
  assert_non_null(hwprof_trace_table_add(&table, &a));
  assert_int_equal(o.cached_start, 1);
  assert_int_equal(f.cc.placed, 1);
  /* a history that contradicts the code (the backward bne at 11c shifted as taken): not rebuilt */
  const hwprof_trace_rec_t bad = {0x80000118, 0x3};
  (void)hwprof_trace_table_add(&table, &bad);
  (void)hwprof_trace_table_add(&table, &bad);
  assert_int_equal(o.recon_failed, 1);
  assert_non_null(hwprof_trace_table_find(&table, &bad));
}

/* Release by backward shift: with every key in one probe run, removing one keeps the others found. */
static void test_trace_table_release_keeps_the_probe_runs_whole(void **state) {
  (void)state;
  static hwprof_trace_entry_t slots[8];
  static hwprof_trace_table_t table;
  assert_int_equal(hwprof_trace_table_init(&table, slots, 8, 1000, NULL, NULL), kHwprofOk);
  hwprof_trace_rec_t r[8];
  for (unsigned i = 0; i < 8; i++) {
    r[i] = (hwprof_trace_rec_t){0x80000000u + 4u * i, 2u + i};
    for (unsigned k = 0; k <= i; k++) assert_non_null(hwprof_trace_table_add(&table, &r[i])); /* count i + 1 */
  }
  assert_int_equal(table.used, 8); /* full */
  for (unsigned gone = 0; gone < 8; gone += 3) {
    assert_true(hwprof_trace_table_release(&table, &r[gone]));
    assert_false(hwprof_trace_table_release(&table, &r[gone]));
    assert_null(hwprof_trace_table_find(&table, &r[gone]));
    for (unsigned i = gone + 1; i < 8; i++) {
      const hwprof_trace_entry_t *e = hwprof_trace_table_find(&table, &r[i]);
      assert_non_null(e);
      assert_int_equal(e->count, i + 1);
    }
  }
  assert_int_equal(table.used, 5);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cc_trace_with_taken_branch_auipc_and_call_is_laid_straight),
      cmocka_unit_test(test_cc_loop_trace_branches_back_to_its_entry),
      cmocka_unit_test(test_cc_profiled_trace_counts_what_the_original_counts),
      cmocka_unit_test(test_cc_trap_is_left_to_the_original_code),
      cmocka_unit_test(test_cc_exit_to_a_placed_start_goes_to_its_copy),
      cmocka_unit_test(test_cc_trace_reaching_a_placed_start_appends_its_copy),
      cmocka_unit_test(test_cc_appended_copy_keeps_its_destinations),
      cmocka_unit_test(test_cc_appended_copy_goes_on_where_its_nop_went),
      cmocka_unit_test(test_cc_unrelaxed_call_becomes_a_direct_jump),
      cmocka_unit_test(test_cc_call_returns_into_the_copy_of_its_return_site),
      cmocka_unit_test(test_cc_flush_restores_the_program),
      cmocka_unit_test(test_cc_exits_go_through_trampolines_until_linked),
      cmocka_unit_test(test_cc_return_address_follows_a_trace_placed_later),
      cmocka_unit_test(test_cc_refusals_change_nothing),
      cmocka_unit_test(test_cc_semihosting_call_stays_in_place),
      cmocka_unit_test(test_cc_init_rejects_overlap_and_misalignment),
      cmocka_unit_test(test_trace_opt_places_a_hot_trace_and_releases_its_entry),
      cmocka_unit_test(test_trace_opt_places_only_traces_worth_their_patch),
      cmocka_unit_test(test_trace_table_release_keeps_the_probe_runs_whole),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
