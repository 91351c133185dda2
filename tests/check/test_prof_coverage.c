/* Tests of the coverage count (tb/check/prof_coverage.c): a made-up program of four functions and a
 * retire stream whose shares are worked out by hand in each test. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "check/prof_coverage.h"

/* Given out of order: start-up code at 0x100, a profiled function at 0x200, one left out at 0x300
 * (its range given too long: it is cut at 0x340, where the next one starts), a profiled one at
 * 0x340. Nothing at 0x180..0x200. */
static const prof_cov_fn_t kFns[] = {
    {0x300, 0x380, "dispatch", "14 indirect jumps", false, 0, 0, 0},
    {0x100, 0x180, "_start", "start-up", true, 0, 0, 0},
    {0x340, 0x400, "leaf", NULL, false, 0, 0, 0},
    {0x200, 0x300, "main", NULL, false, 0, 0, 0},
};

static prof_cov_t run(void) {
  prof_cov_t c;
  assert_int_equal(prof_cov_init(&c, kFns, 4), 0);
  /* 10 start-up instructions, 2 of them branches; 2 instructions outside every function */
  for (int i = 0; i < 10; i++) prof_cov_count(&c, 0x100u + 4u * (unsigned)i, i < 2, false);
  prof_cov_count(&c, 0x180, false, false);
  prof_cov_count(&c, 0x1fc, true, false);
  /* main: 40 instructions, 10 branches; dispatch: 30 instructions, 10 branches (its last word is
   * 0x33c); leaf at its first word: 30 instructions, 0 branches */
  for (int k = 0; k < 10; k++) {
    for (int i = 0; i < 4; i++) prof_cov_count(&c, 0x200u + 4u * (unsigned)i, i == 3, false);
    for (int i = 0; i < 3; i++) prof_cov_count(&c, 0x334u + 4u * (unsigned)i, i == 2, false);
    for (int i = 0; i < 3; i++) prof_cov_count(&c, 0x340u + 4u * (unsigned)i, false, false);
    prof_cov_count(&c, 0x34cu, false, true); /* a profiling instruction of leaf */
  }
  return c;
}

static void test_prof_coverage_shares_outside_startup_and_whole_run(void **state) {
  (void)state;
  prof_cov_t c = run();
  prof_cov_sum_t s = prof_cov_sum(&c, true); /* main + dispatch + leaf */
  assert_int_equal(s.insns, 100);
  assert_int_equal(s.covered_insns, 70);
  assert_int_equal(s.branches, 20);
  assert_int_equal(s.covered_branches, 10);
  s = prof_cov_sum(&c, false); /* + 10 start-up + 2 outside */
  assert_int_equal(s.insns, 112);
  assert_int_equal(s.covered_insns, 70);
  assert_int_equal(s.branches, 23);
  assert_int_equal(s.covered_branches, 10);
  prof_cov_free(&c);
}

static void test_prof_coverage_report_names_what_is_left_out(void **state) {
  (void)state;
  prof_cov_t c = run();
  char buf[2048] = {0};
  FILE *f = fmemopen(buf, sizeof buf - 1, "w");
  assert_non_null(f);
  prof_cov_report(&c, "edge check:", 5, f);
  fclose(f);
  /* 10 of 20 branch executions, 70 of 100 instructions; the whole run 10/23 = 43.47..%, 70/112 = 62.5% */
  assert_non_null(strstr(buf, "edge check: coverage: 50.00% of branch executions and 70.00% of instructions"));
  assert_non_null(strstr(buf, "whole run: 43.47% and 62.50%"));
  /* dispatch: 30 of 112 instructions (26.78..%), 10 of 23 branches (43.47..%); start-up code is not listed */
  assert_non_null(strstr(buf, "left out dispatch: 26.78% of instructions, 43.47% of branch executions (14 indirect jumps)"));
  assert_null(strstr(buf, "_start"));
  /* leaf's 10 profiling instructions are no program instruction: 10 of 112 is 8.92..% */
  assert_non_null(strstr(buf, "edge check: cost: 10 profiling instructions, 8.92% of the program's instructions; most in leaf 10 (8.92%)"));
  prof_cov_free(&c);
}

static void test_prof_coverage_complete_is_exactly_100(void **state) {
  (void)state;
  static const prof_cov_fn_t one[] = {{0x200, 0x300, "main", NULL, false, 0, 0, 0}};
  prof_cov_t c;
  assert_int_equal(prof_cov_init(&c, one, 1), 0);
  for (int i = 0; i < 9999; i++) prof_cov_count(&c, 0x200, true, false);
  char buf[1024] = {0};
  FILE *f = fmemopen(buf, sizeof buf - 1, "w");
  prof_cov_report(&c, "x", 5, f);
  fclose(f);
  assert_non_null(strstr(buf, "x coverage: 100% of branch executions and 100% of instructions"));
  /* one instruction outside: 9999 of 10000 is 99.99%, never rounded up to 100 */
  prof_cov_count(&c, 0x400, true, false);
  f = fmemopen(buf, sizeof buf - 1, "w");
  prof_cov_report(&c, "x", 5, f);
  fclose(f);
  assert_non_null(strstr(buf, "whole run: 99.99% and 99.99%"));
  prof_cov_free(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_prof_coverage_shares_outside_startup_and_whole_run),
      cmocka_unit_test(test_prof_coverage_report_names_what_is_left_out),
      cmocka_unit_test(test_prof_coverage_complete_is_exactly_100),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
