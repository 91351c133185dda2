/* Unit tests of the A.6 estimate (sw/host/vp/vp_estimate.c); every expected number is worked out by hand
 * in the comment next to it from the rule in vp_estimate.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "vp_estimate.h"

#define EPS 1e-9

/* two values, total 100: A 40 hits 10 misses, B 20 hits 10 misses; unaccounted 100 - 80 = 20.
 * A: 40 + B's 10 misses x 40 / (60 - 20) = 10, + min(20 / 2, 0.2 x 20) = 4 -> 54
 * B: 20 + A's 10 misses x 20 / (60 - 40) = 10, + 4 -> 34 */
static void two_values(void **state) {
  (void)state;
  const vp_value_t v[] = {{0xa, 40, 10}, {0xb, 20, 10}};
  const vp_load_t l = {0x80000100u, 100, 2, v};
  vp_estimate_t e[2];
  assert_int_equal(vp_estimate(&l, e), 0);
  assert_float_equal(e[0].samples, 54.0, EPS);
  assert_float_equal(e[1].samples, 34.0, EPS);
  assert_float_equal(e[0].invariance, 0.54, EPS);
  assert_float_equal(e[1].invariance, 0.34, EPS);
}

/* three values, total 80: A 30/6, B 10/4, C 10/0; unaccounted 80 - 60 = 20.
 * A's 6 misses to B and C by 10:10 -> 3 and 3; B's 4 misses to A and C by 30:10 -> 3 and 1.
 * A 30 + 3 = 33, B 10 + 3 = 13, C 10 + 3 + 1 = 14; each + min(20 / 3, 4) = 4 -> 37, 17, 18 */
static void three_values(void **state) {
  (void)state;
  const vp_value_t v[] = {{1, 30, 6}, {2, 10, 4}, {3, 10, 0}};
  const vp_load_t l = {0x80000104u, 80, 3, v};
  vp_estimate_t e[3];
  assert_int_equal(vp_estimate(&l, e), 0);
  assert_float_equal(e[0].samples, 37.0, EPS);
  assert_float_equal(e[1].samples, 17.0, EPS);
  assert_float_equal(e[2].samples, 18.0, EPS);
  assert_float_equal(e[2].invariance, 18.0 / 80.0, EPS);
}

/* one value, total 20: 10 hits 5 misses; its misses have no other value to go to; unaccounted 5,
 * share min(5, 1) = 1 -> 11 of 20 */
static void one_value(void **state) {
  (void)state;
  const vp_value_t v[] = {{7, 10, 5}};
  const vp_load_t l = {0x80000108u, 20, 1, v};
  vp_estimate_t e[1];
  assert_int_equal(vp_estimate(&l, e), 0);
  assert_float_equal(e[0].samples, 11.0, EPS);
  assert_float_equal(e[0].invariance, 0.55, EPS);
}

/* ten values with 1 hit each, total 110: 10 counted, 100 unaccounted; 100 / 10 = 10 each (under
 * the 20% cap) -> 11 each; with four values (total 104) the cap binds: min(100 / 4, 20) = 20 -> 21 */
static void unaccounted_cap(void **state) {
  (void)state;
  vp_value_t v[10];
  for (unsigned k = 0; k < 10; k++) v[k] = (vp_value_t){k, 1, 0};
  vp_estimate_t e[10];
  const vp_load_t ten = {0x8000010cu, 110, 10, v};
  assert_int_equal(vp_estimate(&ten, e), 0);
  for (unsigned k = 0; k < 10; k++) assert_float_equal(e[k].samples, 11.0, EPS);
  const vp_load_t four = {0x8000010cu, 104, 4, v};
  assert_int_equal(vp_estimate(&four, e), 0);
  for (unsigned k = 0; k < 4; k++) assert_float_equal(e[k].samples, 21.0, EPS);
}

/* inconsistent counts and bad arguments are refused; no values and no samples give nothing */
static void refusals(void **state) {
  (void)state;
  const vp_value_t v[] = {{1, 10, 5}};
  vp_estimate_t e[1];
  const vp_load_t over = {0, 14, 1, v}; /* 15 counted > 14 */
  assert_int_equal(vp_estimate(&over, e), -1);
  assert_int_equal(vp_estimate(NULL, e), -1);
  const vp_load_t ok = {0, 15, 1, v};
  assert_int_equal(vp_estimate(&ok, NULL), -1);
  const vp_load_t empty = {0, 0, 0, NULL};
  assert_int_equal(vp_estimate(&empty, e), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(two_values), cmocka_unit_test(three_values), cmocka_unit_test(one_value),
      cmocka_unit_test(unaccounted_cap), cmocka_unit_test(refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
