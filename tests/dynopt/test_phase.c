/* Tests of the phase-transition arithmetic (sw/fw/dynopt/phase.c), schemes 5A and 5B of seed 000.
 * Every counter value is worked out by hand from the executions an edge had, with 8-bit counters
 * (MAX_VALUE = 256): a counter armed at 256 - T and incremented x times holds (256 - T + x) mod 256;
 * in 5B the cold edge's counter gains 1 per execution of c and loses 1 per execution of h, and the
 * hot edge's counter gains 1 per execution of c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "phase.h"

#define NONE HWPROF_PHASE_NONE
#define HOT kHwprofPhaseHot
#define COLD kHwprofPhaseCold

static void test_phase_max_count_is_half_the_modulus_less_one(void **state) {
  (void)state;
  assert_int_equal(hwprof_phase_max_count(8), 127);
  assert_int_equal(hwprof_phase_max_count(16), 32767);
  assert_true(hwprof_phase_max_count(64) == UINT64_C(0x7fffffffffffffff));
  assert_int_equal(hwprof_phase_max_count(12), 0);
}

/* Two branches: (A taken, B fall) with A hot and B cold, (C taken, D fall) with D hot and C cold;
 * E, a block counter, cold and unpaired. Thresholds 10 (5A). */
static const hwprof_phase_edge_t k5a[] = {
    {HOT, 10, 1}, {COLD, 10, 0}, {COLD, 10, 3}, {HOT, 10, 2}, {COLD, 10, NONE},
};

static void test_phase_presets_5a_cold_edges_at_max_value_minus_threshold(void **state) {
  (void)state;
  uint64_t c[5];
  assert_int_equal(hwprof_phase_presets(kHwprofScheme5A, k5a, 5, 8, c), kHwprofOk);
  assert_int_equal(c[0], 0);
  assert_int_equal(c[1], 246); /* 256 - 10 */
  assert_int_equal(c[2], 246);
  assert_int_equal(c[3], 0);
  assert_int_equal(c[4], 246);
  assert_int_equal(hwprof_phase_presets(kHwprofScheme5A, k5a, 5, 32, c), kHwprofOk);
  assert_int_equal(c[1], UINT32_C(0xfffffff6));
}

/* Executions in the period: A 25, B 12, C 10, D 7, E 9. Counters: A 25; B (246 + 12) mod 256 = 2
 * (wrapped on its 10th execution); C 246 + 10 = 256 -> 0 (wrapped on exactly its 10th); D 7;
 * E 246 + 9 = 255 (not wrapped). */
static void test_phase_5a_reconstructs_profiles_and_the_new_hot_set(void **state) {
  (void)state;
  const uint64_t counters[] = {25, 2, 0, 7, 255};
  hwprof_phase_out_t o[5];
  hwprof_phase_summary_t s;
  assert_int_equal(hwprof_phase_evaluate(kHwprofScheme5A, k5a, counters, 5, 8, 1, o, &s), kHwprofOk);
  /* paragraph 59: profile = counter (H_i), threshold + counter (C_i) */
  assert_int_equal(o[0].profile, 25);
  assert_int_equal(o[1].profile, 12);
  assert_int_equal(o[2].profile, 10);
  assert_int_equal(o[3].profile, 7);
  assert_int_equal(o[4].profile, 9);
  /* paragraph 58: A stays (25 > 10), D leaves (7 <= 10), B and C crossed, E did not */
  assert_true(o[0].hot_next);
  assert_true(o[1].hot_next && o[1].crossed);
  assert_true(o[2].hot_next && o[2].crossed);
  assert_false(o[3].hot_next);
  assert_false(o[4].hot_next || o[4].crossed);
  /* B (12) still loses to its hot mate A (25): a false transition signal; C (10) beats D (7) */
  assert_true(o[1].fts);
  assert_false(o[2].fts);
  assert_int_equal(s.crossed, 2);
  assert_int_equal(s.fts, 1);
  assert_false(s.skip); /* one of two: not a majority */
  /* the firmware's entry point for edges it armed gives the same, field by field */
  hwprof_phase_out_t o2[5];
  hwprof_phase_summary_t s2;
  assert_int_equal(hwprof_phase_evaluate_armed(kHwprofScheme5A, k5a, counters, 5, 8, 1, o2, &s2), kHwprofOk);
  for (unsigned i = 0; i < 5; i++) {
    assert_int_equal(o2[i].profile, o[i].profile);
    assert_int_equal(o2[i].hot_next, o[i].hot_next);
    assert_int_equal(o2[i].crossed, o[i].crossed);
    assert_int_equal(o2[i].fts, o[i].fts);
  }
  assert_int_equal(s2.crossed, 2);
  assert_int_equal(s2.fts, 1);
  assert_int_equal(hwprof_phase_evaluate_armed(kHwprofScheme5A, k5a, counters, 5, 12, 1, o2, &s2), kHwprofBadArg);
  /* with a ratio of 2, B (12) is not FTS: A (25) is more than twice as frequent? 25 > 24: yes */
  assert_int_equal(hwprof_phase_evaluate(kHwprofScheme5A, k5a, counters, 5, 8, 2, o, &s), kHwprofOk);
  assert_true(o[1].fts);
  /* ... with 3 it is not (25 < 36), and a ratio of 0 turns the test off */
  assert_int_equal(hwprof_phase_evaluate(kHwprofScheme5A, k5a, counters, 5, 8, 3, o, &s), kHwprofOk);
  assert_false(o[1].fts);
  assert_int_equal(hwprof_phase_evaluate(kHwprofScheme5A, k5a, counters, 5, 8, 0, o, &s), kHwprofOk);
  assert_int_equal(s.fts, 0);
}

/* A crossing that only ties its hot mate changes no layout decision: a false signal at ratio 1.
 * B executed 25 times, as often as A: counter (246 + 25) mod 256 = 15. */
static void test_phase_5a_tie_with_the_hot_mate_is_a_false_signal(void **state) {
  (void)state;
  const uint64_t counters[] = {25, 15, 250, 7, 255};
  hwprof_phase_out_t o[5];
  hwprof_phase_summary_t s;
  assert_int_equal(hwprof_phase_evaluate(kHwprofScheme5A, k5a, counters, 5, 8, 1, o, &s), kHwprofOk);
  assert_int_equal(o[1].profile, 25);
  assert_true(o[1].crossed && o[1].fts);
}

/* Only B crossed, and it is a false signal: the optimization is skipped (paragraph 61). */
static void test_phase_5a_majority_of_false_signals_skips_the_optimization(void **state) {
  (void)state;
  const uint64_t counters[] = {25, 2, 250, 7, 255}; /* C: 246 + 4 */
  hwprof_phase_out_t o[5];
  hwprof_phase_summary_t s;
  assert_int_equal(hwprof_phase_evaluate(kHwprofScheme5A, k5a, counters, 5, 8, 1, o, &s), kHwprofOk);
  assert_int_equal(o[2].profile, 4);
  assert_false(o[2].crossed);
  assert_int_equal(s.crossed, 1);
  assert_int_equal(s.fts, 1);
  assert_true(s.skip);
}

/* A period that ran too long: a hot counter past 127, or a cold edge that executed 200 times
 * (246 + 200 = 446 -> 190, whose profile 200 exceeds what a period allows) */
static void test_phase_5a_counters_out_of_reach_are_a_bad_state(void **state) {
  (void)state;
  hwprof_phase_out_t o[5];
  hwprof_phase_summary_t s;
  const uint64_t hot_far[] = {128, 2, 0, 7, 255};
  assert_int_equal(hwprof_phase_evaluate(kHwprofScheme5A, k5a, hot_far, 5, 8, 1, o, &s), kHwprofBadState);
  const uint64_t cold_far[] = {25, 190, 0, 7, 255};
  assert_int_equal(hwprof_phase_evaluate(kHwprofScheme5A, k5a, cold_far, 5, 8, 1, o, &s), kHwprofBadState);
}

static void test_phase_bad_edges_and_widths_are_refused(void **state) {
  (void)state;
  uint64_t c[2] = {77, 77};
  const hwprof_phase_edge_t one_way[] = {{HOT, 10, 1}, {COLD, 10, NONE}};
  assert_int_equal(hwprof_phase_presets(kHwprofScheme5A, one_way, 2, 8, c), kHwprofBadArg);
  const hwprof_phase_edge_t both_cold[] = {{COLD, 10, 1}, {COLD, 10, 0}};
  assert_int_equal(hwprof_phase_presets(kHwprofScheme5A, both_cold, 2, 8, c), kHwprofOk); /* 5A allows it */
  c[0] = c[1] = 77;
  assert_int_equal(hwprof_phase_presets(kHwprofScheme5B, both_cold, 2, 8, c), kHwprofBadArg);
  const hwprof_phase_edge_t zero[] = {{COLD, 0, NONE}};
  assert_int_equal(hwprof_phase_presets(kHwprofScheme5A, zero, 1, 8, c), kHwprofBadArg);
  const hwprof_phase_edge_t big[] = {{COLD, 128, NONE}};
  assert_int_equal(hwprof_phase_presets(kHwprofScheme5A, big, 1, 8, c), kHwprofBadArg);
  const hwprof_phase_edge_t self[] = {{COLD, 5, 0}};
  assert_int_equal(hwprof_phase_presets(kHwprofScheme5A, self, 1, 8, c), kHwprofBadArg);
  assert_int_equal(hwprof_phase_presets(kHwprofScheme5A, k5a, 5, 12, c), kHwprofBadArg);
  assert_int_equal(c[0], 77); /* nothing written */
  assert_int_equal(c[1], 77);
}

/* 5B: one branch, c = the taken edge (cold, DIFF_THRESHOLD 5), h = the fall edge (hot). Armed:
 * counter(c) = 256 - 5 = 251, counter(h) = 0. */
static const hwprof_phase_edge_t k5b[] = {{COLD, 5, 1}, {HOT, 0, 0}};

static void test_phase_presets_5b_cold_edge_at_max_value_minus_diff_threshold(void **state) {
  (void)state;
  uint64_t c[2];
  assert_int_equal(hwprof_phase_presets(kHwprofScheme5B, k5b, 2, 8, c), kHwprofOk);
  assert_int_equal(c[0], 251);
  assert_int_equal(c[1], 0);
}

/* c runs 7 times, h once: counter(c) = 251 + 7 - 1 = 257 -> 1 (it wrapped when c led by 5),
 * counter(h) = 7. Paragraph 71: profile(c) = 7, profile(h) = 7 - 1 - 5 = 1. c leads by 6 >= 5. */
static void test_phase_5b_overflow_swaps_the_pair(void **state) {
  (void)state;
  const uint64_t counters[] = {1, 7};
  hwprof_phase_out_t o[2];
  hwprof_phase_summary_t s;
  assert_int_equal(hwprof_phase_evaluate(kHwprofScheme5B, k5b, counters, 2, 8, 1, o, &s), kHwprofOk);
  assert_int_equal(o[0].profile, 7);
  assert_int_equal(o[1].profile, 1);
  assert_true(o[0].crossed && o[0].hot_next);
  assert_false(o[1].hot_next);
  assert_false(o[0].fts);
  assert_int_equal(s.crossed, 1);
  assert_false(s.skip);
}

/* Paragraph 72: c runs 6 times (counter(c) 251 -> 257 = 1: it overflowed when c led by 5), then h
 * runs 3 times (1 -> 0 -> 255 -> 254: an underflow undoes it). counter(h) = 6. profile(c) = 6,
 * profile(h) = (6 - 254 - 5) mod 256 = 3; c leads by 3 < 5: it does not count, h stays hot. */
static void test_phase_5b_overflow_then_underflow_does_not_count(void **state) {
  (void)state;
  const uint64_t counters[] = {254, 6};
  hwprof_phase_out_t o[2];
  hwprof_phase_summary_t s;
  assert_int_equal(hwprof_phase_evaluate(kHwprofScheme5B, k5b, counters, 2, 8, 1, o, &s), kHwprofOk);
  assert_int_equal(o[0].profile, 6);
  assert_int_equal(o[1].profile, 3);
  assert_false(o[0].crossed || o[0].hot_next);
  assert_true(o[1].hot_next);
  assert_int_equal(s.crossed, 0);
}

/* h far ahead (c 2, h 40): counter(c) = 251 + 2 - 40 = 213, counter(h) = 2; profile(h) =
 * (2 - 213 - 5) mod 256 = 40. A profile(h) beyond 127 is out of reach: c 0, h 130 would leave
 * counter(c) = 251 - 130 = 121 and profile(h) = (0 - 121 - 5) mod 256 = 130. */
static void test_phase_5b_hot_edge_far_ahead_and_out_of_reach(void **state) {
  (void)state;
  hwprof_phase_out_t o[2];
  hwprof_phase_summary_t s;
  const uint64_t ahead[] = {213, 2};
  assert_int_equal(hwprof_phase_evaluate(kHwprofScheme5B, k5b, ahead, 2, 8, 1, o, &s), kHwprofOk);
  assert_int_equal(o[0].profile, 2);
  assert_int_equal(o[1].profile, 40);
  assert_true(o[1].hot_next);
  const uint64_t far[] = {121, 0};
  assert_int_equal(hwprof_phase_evaluate(kHwprofScheme5B, k5b, far, 2, 8, 1, o, &s), kHwprofBadState);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_phase_max_count_is_half_the_modulus_less_one),
      cmocka_unit_test(test_phase_presets_5a_cold_edges_at_max_value_minus_threshold),
      cmocka_unit_test(test_phase_5a_reconstructs_profiles_and_the_new_hot_set),
      cmocka_unit_test(test_phase_5a_tie_with_the_hot_mate_is_a_false_signal),
      cmocka_unit_test(test_phase_5a_majority_of_false_signals_skips_the_optimization),
      cmocka_unit_test(test_phase_5a_counters_out_of_reach_are_a_bad_state),
      cmocka_unit_test(test_phase_bad_edges_and_widths_are_refused),
      cmocka_unit_test(test_phase_presets_5b_cold_edge_at_max_value_minus_diff_threshold),
      cmocka_unit_test(test_phase_5b_overflow_swaps_the_pair),
      cmocka_unit_test(test_phase_5b_overflow_then_underflow_does_not_count),
      cmocka_unit_test(test_phase_5b_hot_edge_far_ahead_and_out_of_reach),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
