/* Unit tests of SEQUITUR (sw/host/wpp/sequitur.c): the grammar must generate exactly the sequence it
 * was given (expanded here symbol by symbol) and keep both of its properties (no digram twice, every
 * rule used at least twice) after every append; and on sequences worked by hand, the grammar's size
 * is the one the algorithm's definition gives. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sequitur.h"

typedef struct {
  const uint32_t *want;
  uint64_t n, bad;
} cmp_t;

static void compare(void *ctx, uint32_t t) {
  cmp_t *c = ctx;
  if (c->n >= UINT64_MAX / 2 || t != c->want[c->n]) c->bad++;
  c->n++;
}

/* Appends seq[n], checking the grammar's properties every `every` appends, then its expansion. */
static void build_and_check(const uint32_t *seq, size_t n, size_t every, sq_stats_t *st) {
  sq_t *g = sq_new();
  assert_non_null(g);
  char why[200];
  for (size_t i = 0; i < n; i++) {
    assert_int_equal(sq_append(g, seq[i]), 0);
    if ((i + 1) % every == 0 || i + 1 == n) {
      if (sq_check(g, why, sizeof why) != 0) fail_msg("after %zu symbols: %s", i + 1, why);
    }
  }
  cmp_t c = {seq, 0, 0};
  assert_int_equal(sq_expand(g, compare, &c), n);
  assert_int_equal(c.bad, 0);
  sq_stats(g, st);
  assert_int_equal(st->terminals, n);
  sq_free(g);
}

/* sequences worked by hand. "abcdbcabcd" (the SEQUITUR paper's example): bc repeats and becomes
 * B; then aBd repeats and becomes C: S -> C B C, B -> b c, C -> a B d: 3 rules, 8 symbols */
static void test_sequitur_small_examples(void **state) {
  (void)state;
  sq_stats_t st;
  static const uint32_t abcdbc[] = {1, 2, 3, 4, 2, 3, 1, 2, 3, 4};
  build_and_check(abcdbc, 10, 1, &st);
  assert_int_equal(st.rules, 3);
  assert_int_equal(st.symbols, 8);
  /* a run: "aaaaaaaa" (8): S -> B B, B -> A A, A -> a a: 3 rules, 6 symbols */
  static const uint32_t run8[] = {7, 7, 7, 7, 7, 7, 7, 7};
  build_and_check(run8, 8, 1, &st);
  assert_int_equal(st.rules, 3);
  assert_int_equal(st.symbols, 6);
  /* "abab": S -> A A, A -> a b */
  static const uint32_t abab[] = {1, 2, 1, 2};
  build_and_check(abab, 4, 1, &st);
  assert_int_equal(st.rules, 2);
  assert_int_equal(st.symbols, 4);
  /* no repetition: S alone, as long as the sequence */
  static const uint32_t distinct[] = {1, 2, 3, 4, 5};
  build_and_check(distinct, 5, 1, &st);
  assert_int_equal(st.rules, 1);
  assert_int_equal(st.symbols, 5);
}

/* a loop nest's path stream: (A B^k C)^m repeated, the shape hwprof-wpp feeds it; the grammar grows
 * with the logarithm of the repetitions, not with them */
static void test_sequitur_loop_nest(void **state) {
  (void)state;
  size_t n = 0;
  uint32_t *seq = malloc(200000 * sizeof *seq);
  assert_non_null(seq);
  for (int m = 0; m < 2000; m++) {
    seq[n++] = 10;
    for (int k = 0; k < 50; k++) seq[n++] = 11;
    seq[n++] = 12;
  }
  sq_stats_t st;
  build_and_check(seq, n, 997, &st);
  assert_true(st.symbols < 200);
  free(seq);
}

/* random sequences over small alphabets (many repeats, runs, overlaps), the properties checked after
 * every append on the short ones */
static void test_sequitur_random(void **state) {
  (void)state;
  srand(7);
  for (int round = 0; round < 300; round++) {
    const size_t n = 1 + (size_t)(rand() % (round < 250 ? 200 : 20000));
    const uint32_t alphabet = 1 + (uint32_t)(rand() % (round % 3 == 0 ? 2 : round % 3 == 1 ? 4 : 40));
    uint32_t *seq = malloc(n * sizeof *seq);
    assert_non_null(seq);
    for (size_t i = 0; i < n; i++) {
      /* copies of earlier stretches now and then, as programs repeat themselves */
      if (i > 10 && rand() % 8 == 0) {
        size_t from = (size_t)rand() % (i - 5), len = 1 + (size_t)(rand() % 12);
        for (size_t j = 0; j < len && i < n; j++) seq[i++] = seq[from + j];
        i--;
      } else {
        seq[i] = (uint32_t)rand() % alphabet;
      }
    }
    sq_stats_t st;
    build_and_check(seq, n, n <= 200 ? 1 : 501, &st);
    free(seq);
  }
}

static void test_sequitur_refuses_nonterminal_values(void **state) {
  (void)state;
  sq_t *g = sq_new();
  assert_int_equal(sq_append(g, 1), 0);
  assert_int_equal(sq_append(g, 0x80000000u), -1);
  assert_int_equal(sq_append(g, 2), -1); /* refuses more once it failed */
  sq_free(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sequitur_small_examples),
      cmocka_unit_test(test_sequitur_loop_nest),
      cmocka_unit_test(test_sequitur_random),
      cmocka_unit_test(test_sequitur_refuses_nonterminal_values),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
