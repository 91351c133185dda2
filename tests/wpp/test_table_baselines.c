/* Tests of the organisations the bounded sort is measured against (sw/host/wpp/chain_table.c,
 * docs/wpp.md "The hash table") and of the synthetic key stream (zipf_stream.c). Expected costs come
 * from each organisation's rule worked here, independently: move to the front by hand on one
 * chain; a doubling chained table from the chain order the test computes itself (a key's probes are
 * one more than the earlier keys that share its bucket at the final width); open addressing from
 * the linear-probing invariant read off the slots (a key's probes are its distance from its home
 * slot plus one, every slot between them full, never more than half the slots used); the stream
 * from the Zipf law's own frequencies. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "chain_table.h"
#include "zipf_stream.h"

enum { kKeys = 3000 };
static uint32_t key_of[kKeys];
static uint32_t want;
static bool eq(const void *ctx, uint32_t idx) {
  (void)ctx;
  return key_of[idx] == want;
}

/* a lookup of key with this hash; inserted when missing; returns the probes it took */
static uint64_t lookup(wpp_table_t *t, uint32_t key, uint32_t hash) {
  const uint64_t before = t->probes;
  want = key;
  if (wpp_table_find(t, hash, eq, NULL) == UINT32_MAX) {
    const uint32_t e = wpp_table_insert(t, hash);
    assert_int_not_equal(e, UINT32_MAX);
    key_of[e] = key;
  }
  return t->probes - before;
}

/* One bucket, A B C inserted at the tail: C costs 3 and moves first (C A B), B then costs 3 (B C A),
 * B again 1, A 3 (A B C); each move is one unit of upkeep. */
static void test_table_mtf_by_hand(void **state) {
  (void)state;
  const wpp_table_cfg_t cfg = {kWppSortMtf, 1, 1u << 30, 4, 16, 10, false, 0, false};
  wpp_table_t t;
  assert_int_equal(wpp_table_init(&t, "t", &cfg, NULL), 0);
  assert_int_equal(lookup(&t, 'A', 0), 0); /* an empty bucket: nothing read */
  assert_int_equal(lookup(&t, 'B', 0), 1);
  assert_int_equal(lookup(&t, 'C', 0), 2);
  assert_int_equal(lookup(&t, 'C', 0), 3);
  assert_int_equal(lookup(&t, 'B', 0), 3);
  assert_int_equal(lookup(&t, 'B', 0), 1);
  assert_int_equal(lookup(&t, 'A', 0), 3);
  assert_int_equal(t.sort_work, 3);
  const char order[] = {'A', 'B', 'C'};
  uint32_t e = t.head[0];
  for (unsigned i = 0; i < 3; i++, e = t.link[e].next) assert_int_equal(key_of[e], order[i]);
  assert_int_equal(e, UINT32_MAX);
  wpp_table_free(&t);
}

static uint32_t rnd(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(*s >> 33);
}

/* Chains doubled past `load` entries per bucket: the width is the smallest power of two (from 1)
 * with n <= load * width, and every chain keeps insertion order across the doublings. */
static void test_table_grow_keeps_chain_order(void **state) {
  (void)state;
  for (uint32_t load = 1; load <= 3; load++) {
    const wpp_table_cfg_t cfg = {kWppSortNone, 1, 1u << 30, 4, 16, 10, false, load, false};
    wpp_table_t t;
    assert_int_equal(wpp_table_init(&t, "t", &cfg, NULL), 0);
    uint32_t hash[kKeys];
    uint64_t s = load;
    for (uint32_t i = 0; i < kKeys; i++) {
      hash[i] = rnd(&s);
      lookup(&t, i, hash[i]);
      uint32_t width = 1;
      while ((uint64_t)load * width < i + 1u) width *= 2;
      assert_int_equal(t.nb, width);
    }
    const uint32_t m = t.nb - 1u;
    for (uint32_t i = 0; i < kKeys; i += 7) {
      uint64_t before = 1;
      for (uint32_t j = 0; j < i; j++) before += (hash[j] & m) == (hash[i] & m);
      assert_int_equal(lookup(&t, i, hash[i]), before);
    }
    assert_int_equal(t.n, kKeys);
    assert_true(t.grows > 0 && t.sort_work > kKeys); /* every doubling re-placed every entry */
    wpp_table_free(&t);
  }
}

/* Open addressing: never more than half full; each key's probes are its distance from its home
 * slot plus one, and every slot from home to it is taken (nothing is lost in the doublings). */
static void test_table_open_addressing_invariants(void **state) {
  (void)state;
  const wpp_table_cfg_t cfg = {kWppSortNone, 2, 1u << 30, 4, 16, 10, false, 0, true};
  wpp_table_t t;
  assert_int_equal(wpp_table_init(&t, "t", &cfg, NULL), 0);
  uint32_t hash[kKeys];
  uint64_t s = 99;
  for (uint32_t i = 0; i < kKeys; i++) {
    hash[i] = rnd(&s) & 0xfffu; /* many equal hashes: long runs */
    lookup(&t, i, hash[i]);
    assert_true(2u * t.n <= t.nb);
  }
  const uint32_t m = t.nb - 1u;
  uint32_t *slot_of = calloc(kKeys, sizeof *slot_of), used = 0;
  for (uint32_t j = 0; j <= m; j++)
    if (t.head[j] != UINT32_MAX) slot_of[t.head[j]] = j, used++;
  assert_int_equal(used, kKeys);
  for (uint32_t i = 0; i < kKeys; i++) {
    const uint32_t home = hash[i] & m, dist = (slot_of[i] - home) & m;
    for (uint32_t d = 0; d < dist; d++) assert_int_not_equal(t.head[(home + d) & m], UINT32_MAX);
    assert_int_equal(lookup(&t, i, hash[i]), dist + 1u);
  }
  assert_int_equal(t.n, kKeys);
  free(slot_of);
  wpp_table_free(&t);
  /* sorting has no meaning there */
  const wpp_table_cfg_t bad = {kWppSortBounded, 2, 1u << 30, 4, 16, 10, false, 0, true};
  assert_int_equal(wpp_table_init(&t, "t", &bad, NULL), -1);
}

/* The stream: keys in range; within a phase the k-th most frequent key's share follows the Zipf
 * law (so the phase's map from ranks to keys is one to one); phases differ in their hot key;
 * rewinding replays it. */
static void test_zipf_stream_follows_the_law(void **state) {
  (void)state;
  enum { K = 64, N = 400000, P = 2 };
  wpp_zipf_t z;
  assert_int_equal(wpp_zipf_init(&z, K, N, P, 1.0, 7), 0);
  static uint32_t cnt[P][K];
  uint32_t first[16];
  for (uint32_t i = 0; i < N; i++) {
    const uint32_t k = wpp_zipf_next(&z);
    assert_true(k < K);
    if (i < 16) first[i] = k;
    cnt[i / (N / P)][k]++;
  }
  double h = 0.0;
  for (unsigned r = 1; r <= K; r++) h += 1.0 / r;
  uint32_t hot[P];
  for (unsigned p = 0; p < P; p++) {
    uint32_t sorted[K];
    memcpy(sorted, cnt[p], sizeof sorted);
    for (unsigned a = 1; a < K; a++) /* descending */
      for (unsigned b = a; b > 0 && sorted[b] > sorted[b - 1]; b--) {
        const uint32_t x = sorted[b];
        sorted[b] = sorted[b - 1];
        sorted[b - 1] = x;
      }
    for (unsigned r = 0; r < 8; r++) {
      const double expect = (N / P) / ((r + 1) * h);
      assert_true(fabs(sorted[r] - expect) < 0.05 * expect);
    }
    assert_true(sorted[K - 1] > 0); /* every key drawn: none shares a rank */
    hot[p] = 0;
    for (unsigned k = 1; k < K; k++)
      if (cnt[p][k] > cnt[p][hot[p]]) hot[p] = k;
  }
  assert_int_not_equal(hot[0], hot[1]);
  wpp_zipf_rewind(&z);
  for (unsigned i = 0; i < 16; i++) assert_int_equal(wpp_zipf_next(&z), first[i]);
  wpp_zipf_free(&z);
  assert_int_equal(wpp_zipf_init(&z, 100, N, P, 1.0, 7), -1); /* not a power of two */
  assert_int_equal(wpp_zipf_init(&z, K, 1, 2, 1.0, 7), -1);   /* more phases than lookups */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table_mtf_by_hand),
      cmocka_unit_test(test_table_grow_keeps_chain_order),
      cmocka_unit_test(test_table_open_addressing_invariants),
      cmocka_unit_test(test_zipf_stream_follows_the_law),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
