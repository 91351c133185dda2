/* Unit tests of hwprof-report's writers (sw/host/report/): the lcov tracefile and the sample profiles
 * of one function whose counts, lines and expected records are worked out by hand below, and LLVM's
 * base discriminator. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "block_counts.h"
#include "lcov.h"
#include "lib/loop_fixture.h"
#include "sample_prof.h"

/* The loop of tests/lib/loop_fixture.h, declared on line 10 of f.c, its lines:
 *
 *   B0 [0x100, 0x110) line 10
 *   B1 [0x110, 0x120) line 11, then line 12 (discriminator 2) from 0x118
 *   B2 [0x120, 0x130) line 12 (discriminator 4)
 *   B3 [0x130, 0x140) line 13
 *   B4 [0x140, 0x150) line 14
 *
 * Block counts (in-flow): B0 1, B1 10, B2 7, B3 10, B4 1. */
static int64_t counts_row[NE];

static pm_block_t blk[5];
static pm_edge_t edge[NE];
static pm_func_t fn;
static pm_map_t map;
static dl_range_t range[6] = {{0x100, 0x110, 0, 10, 0}, {0x110, 0x118, 0, 11, 0}, {0x118, 0x120, 0, 12, 2},
                              {0x120, 0x130, 0, 12, 4}, {0x130, 0x140, 0, 13, 0}, {0x140, 0x150, 0, 14, 0}};
static char fname[] = "/src/f.c", loopname[] = "loop";
static char *files[1] = {fname};
static dl_func_t funcs[1] = {{0x100, 0x150, loopname, 0, 10}};
static dl_lines_t lines = {.range = range, .nrange = 6, .file = files, .nfile = 1, .func = funcs, .nfunc = 1};

/* The same code with B3 and B4 inlined (as a DWARF's DW_TAG_inlined_subroutine would show them):
 * B3 is helper (declared on line 40) inlined at loop's line 13, its line 41; B4 is leaf (declared on
 * line 50) inlined at helper's line 42, its line 51. */
static dl_range_t range_inl[6] = {{0x100, 0x110, 0, 10, 0}, {0x110, 0x118, 0, 11, 0}, {0x118, 0x120, 0, 12, 2},
                                  {0x120, 0x130, 0, 12, 4}, {0x130, 0x140, 0, 41, 0}, {0x140, 0x150, 0, 51, 0}};
static char helpername[] = "helper", leafname[] = "leaf";
static dl_inline_t inl[2] = {{-1, helpername, 40, 13, 0}, {0, leafname, 50, 42, 0}};
static dl_iseg_t iseg[2] = {{0x130, 0x140, 0}, {0x140, 0x150, 1}};
static dl_lines_t lines_inl = {.range = range_inl, .nrange = 6, .file = files, .nfile = 1, .func = funcs, .nfunc = 1,
                               .inl = inl, .ninl = 2, .iseg = iseg, .niseg = 2};

static int setup(void **state) {
  (void)state;
  fn = loop_fixture(blk, edge);
  memcpy(counts_row, kCounts, sizeof counts_row);
  map = (pm_map_t){.program = "p.elf", .nfn = 1, .fn = &fn};
  return 0;
}

/* The whole output of a writer as bytes, their number in *n (freed by the caller). */
static unsigned char *captured_bytes(FILE *f, long *n) {
  fflush(f);
  *n = ftell(f);
  unsigned char *b = calloc((size_t)*n + 1, 1);
  rewind(f);
  assert_int_equal(fread(b, 1, (size_t)*n, f), (size_t)*n);
  fclose(f);
  return b;
}

/* The whole output of a writer, as a string (freed by the caller). */
static char *captured(FILE *f) {
  fflush(f);
  long n = ftell(f);
  char *s = calloc((size_t)n + 1, 1);
  rewind(f);
  if (fread(s, 1, (size_t)n, f) != (size_t)n) s[0] = 0;
  fclose(f);
  return s;
}

static void test_report_lcov_records(void **state) {
  (void)state;
  int64_t *rows[1] = {counts_row};
  FILE *f = tmpfile();
  lcov_stats_t st;
  char err[200];
  assert_int_equal(lcov_write(f, &map, rows, &lines, "t", &st, err, sizeof err), 0);
  char *s = captured(f);
  /* lines: the most times one of their instructions ran (line 12: B1's tail 10, B2 7); branches:
   * B1's at 0x11c (284) on line 12, taken 3 and not taken 7; B3's at 0x13c (316) on line 13, 9 and 1 */
  assert_string_equal(s, "TN:t\nSF:/src/f.c\nFN:10,loop\nFNDA:1,loop\nFNF:1\nFNH:1\n"
                         "BRDA:12,284,0,3\nBRDA:12,284,1,7\nBRDA:13,316,0,9\nBRDA:13,316,1,1\nBRF:4\nBRH:4\n"
                         "DA:10,1\nDA:11,10\nDA:12,10\nDA:13,10\nDA:14,1\nLF:5\nLH:5\nend_of_record\n");
  free(s);
}

/* The loop function's samples in format fmt from lines d (no ELF: no call sites), into a temporary
 * file (read it with captured or captured_bytes). */
static FILE *sampled(sample_format_t fmt, const dl_lines_t *d, sample_stats_t *st) {
  int64_t *rows[1] = {counts_row};
  hwprof_elf_t none = {0};
  FILE *f = tmpfile();
  char err[200];
  assert_non_null(f);
  assert_int_equal(sample_write(f, fmt, true, &map, rows, d, &none, st, err, sizeof err), 0);
  return f;
}

static void test_report_llvm_sample_profile(void **state) {
  (void)state;
  sample_stats_t st;
  FILE *f = sampled(kSampleLlvmText, &lines, &st);
  char *s = captured(f);
  /* offsets from line 10; discriminators 2 and 4 are LLVM's base discriminators 1 and 2; total 39 */
  assert_string_equal(s, "loop:39:1\n 0: 1\n 1: 10\n 2.1: 10\n 2.2: 7\n 3: 10\n 4: 1\n");
  free(s);
  assert_int_equal(st.functions, 1);
  assert_int_equal(st.lines, 6);
}

static void test_report_gcc_afdo_file(void **state) {
  (void)state;
  sample_stats_t st;
  FILE *f = sampled(kSampleGccAfdo, &lines, &st);
  long n;
  unsigned char *b = captured_bytes(f, &n);
  /* words: magic "gcda", version 2, 0; names: tag, length, 1, "loop\0" (length 5 bytes); functions:
   * tag, length, 1; entries 1 (two words), name 0, 6 positions, 0 call sites; then (offset << 16 |
   * discriminator, 0 targets, count as two words) x 6; the empty module table: tag, 0, 0 */
  static const uint32_t head[] = {0x67636461u, 2, 0, 0xaa000000u, 0, 1, 5};
  for (unsigned i = 0; i < 7; i++)
    assert_int_equal(b[4 * i] | b[4 * i + 1] << 8 | b[4 * i + 2] << 16 | (uint32_t)b[4 * i + 3] << 24, head[i]);
  assert_memory_equal(b + 28, "loop", 5);
  static const uint32_t rest[] = {0xac000000u, 0, 1, 1, 0, 0, 6, 0,
                                  0u << 16, 0, 1, 0, 1u << 16, 0, 10, 0, 2u << 16 | 2, 0, 10, 0,
                                  2u << 16 | 4, 0, 7, 0, 3u << 16, 0, 10, 0, 4u << 16, 0, 1, 0,
                                  0xab000000u, 0, 0};
  const unsigned char *r = b + 33;
  assert_int_equal(n, 33 + 4 * (long)(sizeof rest / sizeof *rest));
  for (unsigned i = 0; i < sizeof rest / sizeof *rest; i++)
    assert_int_equal(r[4 * i] | r[4 * i + 1] << 8 | r[4 * i + 2] << 16 | (uint32_t)r[4 * i + 3] << 24, rest[i]);
  free(b);
}

/* inlined code goes to the inlined function's own profile, nested at the call site it replaced:
 * helper at loop's offset 3 (line 13), its line 41 at offset 1; leaf at helper's offset 2 (line 42),
 * its line 51 at offset 1; totals include what is nested */
static void test_report_llvm_inline_stacks(void **state) {
  (void)state;
  sample_stats_t st;
  FILE *f = sampled(kSampleLlvmText, &lines_inl, &st);
  char *s = captured(f);
  assert_string_equal(s, "loop:39:1\n 0: 1\n 1: 10\n 2.1: 10\n 2.2: 7\n 3: helper:11\n  1: 10\n  2: leaf:1\n   1: 1\n");
  free(s);
  assert_int_equal(st.lines, 6);
  assert_int_equal(st.inlined, 8); /* B3's and B4's four instructions each */
  assert_int_equal(st.other_function, 0);
}

/* ... and in GCC's file: the names of the inlined functions in the table, each call site's callee a
 * function record without a head count, nested */
static void test_report_gcc_afdo_inline_stacks(void **state) {
  (void)state;
  sample_stats_t st;
  FILE *f = sampled(kSampleGccAfdo, &lines_inl, &st);
  long n;
  unsigned char *b = captured_bytes(f, &n);
  /* names: 3; "loop\0" (5 bytes), "helper\0" (7), "leaf\0" (5), each after its length */
  static const uint32_t head[] = {0x67636461u, 2, 0, 0xaa000000u, 0, 3};
  for (unsigned i = 0; i < 6; i++)
    assert_int_equal(b[4 * i] | b[4 * i + 1] << 8 | b[4 * i + 2] << 16 | (uint32_t)b[4 * i + 3] << 24, head[i]);
  const unsigned char *p = b + 24;
  assert_int_equal(p[0], 5);
  assert_memory_equal(p + 4, "loop", 5);
  assert_int_equal(p[9], 7);
  assert_memory_equal(p + 13, "helper", 7);
  assert_int_equal(p[20], 5);
  assert_memory_equal(p + 24, "leaf", 5);
  static const uint32_t rest[] = {0xac000000u, 0, 1,
                                  1, 0, 0, 4, 1, /* loop: entries 1, name 0, 4 positions, 1 call site */
                                  0u << 16, 0, 1, 0, 1u << 16, 0, 10, 0, 2u << 16 | 2, 0, 10, 0, 2u << 16 | 4, 0, 7, 0,
                                  3u << 16, 1, 1, 1, /* at offset 3: helper, 1 position, 1 call site */
                                  1u << 16, 0, 10, 0,
                                  2u << 16, 2, 1, 0, /* at offset 2: leaf, 1 position */
                                  1u << 16, 0, 1, 0,
                                  0xab000000u, 0, 0};
  const unsigned char *r = p + 29;
  assert_int_equal(n, (r - b) + 4 * (long)(sizeof rest / sizeof *rest));
  for (unsigned i = 0; i < sizeof rest / sizeof *rest; i++)
    assert_int_equal(r[4 * i] | r[4 * i + 1] << 8 | r[4 * i + 2] << 16 | (uint32_t)r[4 * i + 3] << 24, rest[i]);
  free(b);
}

/* LLVM's prefix code (small values: doubled; 32 and up: bit 6 set, the high part above it); an odd
 * discriminator carries no base discriminator */
static void test_report_llvm_base_discriminator(void **state) {
  (void)state;
  assert_int_equal(sample_base_discriminator(0), 0);
  assert_int_equal(sample_base_discriminator(2), 1);
  assert_int_equal(sample_base_discriminator(62), 31);
  assert_int_equal(sample_base_discriminator(3), 0);
  /* 40 = 0b101000: ((40 & 0xfe0) << 1 | (40 & 0x1f) | 0x20) << 1 = (64 | 8 | 32) << 1 = 208 */
  assert_int_equal(sample_base_discriminator(208), 40);
}

/* The loop with a longjmp landing behind a call in B2 (a virtual entry edge into B2, 4 landings): B2
 * still ran 7 times (the landings come in behind its call) and the function was entered once; a
 * derived function's second virtual entry edge is an entry. */
static void test_report_landing_edge_counts(void **state) {
  (void)state;
  pm_block_t b[5];
  pm_edge_t e[NE + 1];
  pm_func_t f = loop_fixture(b, e);
  e[NE] = (pm_edge_t){HWPROF_CFG_VIRTUAL_ENTRY, HWPROF_CFG_EXIT, 2, 0, 0, PM_NONE};
  f.nedge = NE + 1;
  int64_t cnt[NE + 1];
  for (int i = 0; i < NE; i++) cnt[i] = kCounts[i];
  cnt[NE] = 4;
  assert_true(pm_landing_edge(&f, NE));
  assert_false(pm_landing_edge(&f, E_VENTRY));
  int64_t *bc = block_counts(&f, cnt);
  assert_non_null(bc);
  const int64_t want[5] = {1, 10, 7, 10, 1};
  for (int i = 0; i < 5; i++) assert_int_equal(bc[i], want[i]);
  free(bc);
  assert_int_equal(function_entries(&f, cnt), 1);
  f.derived = true;
  f.instrumented = false;
  assert_false(pm_landing_edge(&f, NE));
  assert_int_equal(function_entries(&f, cnt), 5);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_report_lcov_records, setup),
      cmocka_unit_test_setup(test_report_llvm_sample_profile, setup),
      cmocka_unit_test_setup(test_report_gcc_afdo_file, setup),
      cmocka_unit_test_setup(test_report_llvm_inline_stacks, setup),
      cmocka_unit_test_setup(test_report_gcc_afdo_inline_stacks, setup),
      cmocka_unit_test(test_report_llvm_base_discriminator),
      cmocka_unit_test(test_report_landing_edge_counts),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
