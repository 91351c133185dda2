/* Tests of whole-program path analysis (sw/host/wpp/, docs/wpp.md). The expected states are the seed's
 * own walk-throughs (seed 003: the block sequences A B C A B C B and A B C A B D A, Table 1, the
 * stratum examples, the bucket whose frequencies it lists), worked by hand; the random-stream test
 * checks the hierarchy against the stream itself: expanding the runs of each level gives back the
 * stream below it, symbol for symbol. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "block_stream.h"
#include "chain_table.h"
#include "cycles.h"
#include "lib/hand_enc.h"
#include "trace_file.h"
#include "wpp_index.h"

static const wpp_table_cfg_t kTable = {kWppSortNone, 16, 1u << 30, 4, 16, 10, false, 0, false};

static wpp_t *new_wpp(unsigned levels) {
  static wpp_t w;
  const wpp_cfg_t cfg = {.levels = levels, .table = kTable, .keep_runs = true};
  assert_int_equal(wpp_init(&w, &cfg), 0);
  return &w;
}

/* a unit's symbols as a string of letters (block n or unit n -> 'A' + n) */
static const char *seq_str(const wpp_level_t *l, uint32_t u) {
  static char buf[64];
  const uint32_t *s = wpp_unit_seq(l, u);
  uint32_t n = l->unit[u].len < 63 ? l->unit[u].len : 63;
  for (uint32_t i = 0; i < n; i++) buf[i] = (char)('A' + s[i]);
  buf[n] = '\0';
  return buf;
}
static const char *np_str(const wpp_level_t *l) {
  static char buf[64];
  uint32_t n = l->np_len < 63 ? l->np_len : 63;
  for (uint32_t i = 0; i < n; i++) buf[i] = (char)('A' + l->np[i]);
  buf[n] = '\0';
  return buf;
}

/* blocks A, B, C, D at 0x100, 0x200, ... (block numbers follow first appearance: feed A first) */
static void blocks(wpp_t *w, const char *s) {
  for (; *s; s++) wpp_block(w, 0x100u * (uint32_t)(*s - 'A' + 1), (uint32_t)(*s - 'A' + 1));
}

/* The seed's first walk-through: at the third B of A B C A B C B the previous path is ABC with two
 * trips (ABC matched ABC) and the new path holds B alone. */
static void test_wpp_paths_abcabcb_matches_previous(void **state) {
  (void)state;
  wpp_t *w = new_wpp(1);
  blocks(w, "ABCABCB");
  const wpp_level_t *l = &w->level[0];
  assert_true(l->have_pp);
  assert_string_equal(seq_str(l, l->pp), "ABC");
  assert_int_equal(l->pp_trips, 2);
  assert_string_equal(np_str(l), "B");
  assert_int_equal(l->nrun, 0); /* nothing sent on yet */
  assert_int_equal(wpp_finish(w), 0);
  assert_int_equal(l->nunit, 2);
  assert_int_equal(l->unit[0].trips, 2);
  assert_int_equal(l->unit[0].insns, 2 * (1 + 2 + 3));
  assert_int_equal(l->unit[1].trips, 1);
  wpp_free(w);
}

/* The second: at the third A of A B C A B D A, ABC (one trip) has been sent on, the previous path
 * is ABD and the new path holds A. */
static void test_wpp_paths_abcabda_sends_previous_on(void **state) {
  (void)state;
  wpp_t *w = new_wpp(2);
  blocks(w, "ABCABD");
  const wpp_level_t *l = &w->level[0];
  assert_string_equal(seq_str(l, l->pp), "ABC");
  blocks(w, "A");
  assert_string_equal(seq_str(l, l->pp), "ABD");
  assert_int_equal(l->pp_trips, 1);
  assert_string_equal(np_str(l), "A");
  assert_int_equal(l->nrun, 1);
  assert_int_equal(l->run[0].unit, 0); /* ABC, path 0 */
  assert_int_equal(l->run[0].trips, 1);
  assert_int_equal(l->run[0].start, 0);
  assert_int_equal(l->run[0].end, 1 + 2 + 3);
  assert_int_equal(w->level[1].np_len, 1); /* the stratum level took it */
  assert_int_equal(w->level[1].np[0], 0);
  wpp_free(w);
}

/* Table 1: A B C B ...: the first three blocks are path 0; the second B starts path 1. */
static void test_wpp_paths_table1_repeat_starts_next_path(void **state) {
  (void)state;
  wpp_t *w = new_wpp(1);
  blocks(w, "ABCB");
  const wpp_level_t *l = &w->level[0];
  assert_string_equal(seq_str(l, 0), "ABC");
  assert_string_equal(np_str(l), "B");
  assert_int_equal(w->path_traversals, 1);
  wpp_free(w);
}

/* Strata repeat the method over repeated paths: R1 R2 R3 R1 R2 R3 R2 leaves the previous stratum
 * R1R2R3 with two trips and R2 in the new one; R1 R2 R3 R1 R2 R4 R1 sends R1R2R3 on and keeps
 * R1R2R4. */
static void test_wpp_strata_follow_the_path_method(void **state) {
  (void)state;
  wpp_t *w = new_wpp(3);
  const uint32_t a[] = {1, 2, 3, 1, 2, 3, 2};
  for (unsigned i = 0; i < 7; i++) wpp_symbol(w, 1, a[i], 10);
  const wpp_level_t *s = &w->level[1];
  assert_string_equal(seq_str(s, s->pp), "BCD");
  assert_int_equal(s->pp_trips, 2);
  assert_string_equal(np_str(s), "C");
  wpp_free(w);

  w = new_wpp(3);
  const uint32_t b[] = {1, 2, 3, 1, 2, 4, 1};
  for (unsigned i = 0; i < 7; i++) wpp_symbol(w, 1, b[i], 10);
  s = &w->level[1];
  assert_string_equal(seq_str(s, s->pp), "BCE");
  assert_int_equal(s->nrun, 1);
  assert_string_equal(seq_str(s, s->run[0].unit), "BCD");
  assert_int_equal(s->run[0].trips, 1);
  assert_string_equal(np_str(s), "B");
  assert_int_equal(w->level[2].np_len, 1); /* stratum layer 0 took the repeated stratum */
  wpp_free(w);
}

/* Expanding each level's runs gives back the stream below it; heat sums to the instructions. */
static void test_wpp_random_stream_runs_expand_to_the_stream(void **state) {
  (void)state;
  enum { N = 200000 };
  static uint32_t addr[N], ins[N];
  uint32_t x = 12345;
  uint32_t phase_loop = 3;
  uint64_t total = 0;
  for (unsigned i = 0; i < N; i++) { /* loops of a few blocks, changing now and then, with noise */
    x = x * 1664525u + 1013904223u;
    if (i % 5000 == 0) phase_loop = 2 + (x >> 28) % 5;
    uint32_t b = (i % phase_loop) + ((x >> 24) % 16 == 0 ? 8 + (x >> 20) % 8 : 0) + (i / 5000 % 3) * 20;
    addr[i] = 0x1000u + 4u * b;
    ins[i] = 1 + b % 7;
    total += ins[i];
  }
  wpp_t *w = new_wpp(4);
  for (unsigned i = 0; i < N; i++) wpp_block(w, addr[i], ins[i]);
  assert_int_equal(wpp_finish(w), 0);
  assert_int_equal(w->now, total);
  /* level 0 runs expand into the block stream */
  const wpp_level_t *p = &w->level[0];
  uint64_t pos = 0, insns = 0;
  for (uint64_t r = 0; r < p->nrun; r++) {
    const wpp_unit_t *u = &p->unit[p->run[r].unit];
    assert_int_equal(p->run[r].start, insns);
    for (uint32_t t = 0; t < p->run[r].trips; t++)
      for (uint32_t j = 0; j < u->len; j++, pos++) {
        assert_true(pos < N);
        assert_int_equal(w->block_addr[wpp_unit_seq(p, p->run[r].unit)[j]], addr[pos]);
        insns += ins[pos];
      }
    assert_int_equal(p->run[r].end, insns);
  }
  assert_int_equal(pos, N);
  /* each higher level's runs expand into the runs of the level below */
  for (unsigned k = 1; k < 4; k++) {
    const wpp_level_t *l = &w->level[k], *below = &w->level[k - 1];
    uint64_t i = 0, heat = 0;
    for (uint64_t r = 0; r < l->nrun; r++)
      for (uint32_t t = 0; t < l->run[r].trips; t++)
        for (uint32_t j = 0; j < l->unit[l->run[r].unit].len; j++, i++) {
          assert_true(i < below->nrun);
          assert_int_equal(wpp_unit_seq(l, l->run[r].unit)[j], below->run[i].unit);
        }
    assert_int_equal(i, below->nrun);
    for (uint32_t u = 0; u < l->nunit; u++) heat += l->unit[u].insns;
    assert_int_equal(heat, total);
  }
  /* the indexed file finds the runs again */
  char err[200];
  const char *path = "test_wpp.idx";
  assert_int_equal(wpp_index_write(w, path, err, sizeof err), 0);
  wpp_index_t ix;
  assert_int_equal(wpp_index_load(&ix, path, err, sizeof err), 0);
  for (uint64_t r = 0; r < p->nrun; r += 97) {
    assert_int_equal(wpp_index_at_insn(&ix, 0, p->run[r].start), (int64_t)r);
    assert_int_equal(wpp_index_at_insn(&ix, 0, p->run[r].end - 1), (int64_t)r);
    assert_int_equal(wpp_index_at_path(&ix, p->run[r].path_end), (int64_t)r);
    uint64_t first, n = wpp_index_of_unit(&ix, 0, p->run[r].unit, &first);
    assert_int_equal(n, p->unit[p->run[r].unit].runs);
  }
  assert_int_equal(wpp_index_at_insn(&ix, 0, total), -1);
  wpp_index_free(&ix);
  remove(path);
  wpp_free(w);
}

/* ---------------------------------------------------------------- the hash table */

static uint32_t key_of[16];
static uint32_t want;
static bool eq(const void *ctx, uint32_t idx) {
  (void)ctx;
  return key_of[idx] == want;
}
static uint32_t access(wpp_table_t *t, uint32_t key, uint32_t times) {
  uint32_t idx = UINT32_MAX;
  want = key;
  for (uint32_t i = 0; i < times; i++) idx = wpp_table_find(t, 0, eq, NULL);
  return idx;
}

/* The seed's bucket (its frequencies divided by 100, the threshold too): 1,000,000; 1,010,000; 90;
 * 0; 84; 999; 321; 67; 52 with a threshold of 1,000: only the first two exceed it, they swap and
 * lead, the others keep their order behind them. */
static void test_wpp_table_bounded_sort_moves_only_hot_entries(void **state) {
  (void)state;
  const uint32_t counts[] = {1000000, 1010000, 90, 0, 84, 999, 321, 67, 52};
  uint64_t sum = 0;
  for (unsigned i = 0; i < 9; i++) sum += counts[i] + 1u;
  const wpp_table_cfg_t cfg = {kWppSortBounded, 1, (uint32_t)sum, 4, 1000, 10, false, 0, false};
  wpp_table_t t;
  assert_int_equal(wpp_table_init(&t, "t", &cfg, NULL), 0);
  for (unsigned i = 0; i < 9; i++) {
    key_of[i] = 100 + i;
    want = key_of[i];
    assert_int_equal(wpp_table_find(&t, 0, eq, NULL), UINT32_MAX);
    assert_int_equal(wpp_table_insert(&t, 0), i);
  }
  for (unsigned i = 0; i < 9; i++) access(&t, key_of[i], counts[i]);
  assert_int_equal(t.sorts, 1); /* the period ended with the last access */
  const uint32_t expect[] = {1, 0, 2, 3, 4, 5, 6, 7, 8};
  uint32_t e = t.head[0];
  for (unsigned i = 0; i < 9; i++, e = t.link[e].next) assert_int_equal(e, expect[i]);
  assert_int_equal(e, UINT32_MAX);
  /* a lookup of the entry at place p costs p probes */
  const uint64_t before = t.probes;
  access(&t, key_of[1], 1);
  assert_int_equal(t.probes - before, 1);
  access(&t, key_of[5], 1);
  assert_int_equal(t.probes - before, 1 + 6);
  assert_int_equal(t.phase_changes, 0); /* nothing was hot before this first sort */
  wpp_table_free(&t);
}

/* A bucket no deeper than the threshold (here exactly as deep) is left alone; a full sort orders
 * every bucket. */
static void test_wpp_table_depth_threshold_and_full_sort(void **state) {
  (void)state;
  for (int full = 0; full < 2; full++) {
    const wpp_table_cfg_t cfg = {full ? kWppSortFull : kWppSortBounded, 1, 3 + 1 + 5 + 9, 3, 0, 10, false, 0, false};
    wpp_table_t t;
    assert_int_equal(wpp_table_init(&t, "t", &cfg, NULL), 0);
    for (unsigned i = 0; i < 3; i++) {
      key_of[i] = i;
      want = i;
      wpp_table_find(&t, 0, eq, NULL);
      wpp_table_insert(&t, 0);
    }
    access(&t, 0, 1);
    access(&t, 1, 5);
    access(&t, 2, 9);
    assert_int_equal(t.sorts, 1);
    assert_int_equal(t.head[0], full ? 2u : 0u); /* depth 3, not more than 3: bounded leaves it */
    if (full) {
      assert_int_equal(t.link[2].next, 1);
      assert_int_equal(t.link[1].next, 0);
    }
    wpp_table_free(&t);
  }
}

/* A phase change: an entry hot at one sort is overtaken at the next by one with ten times its
 * accesses; with only twice its accesses the order changes but no phase change is reported. */
static void test_wpp_table_phase_change_needs_the_factor(void **state) {
  (void)state;
  for (int strong = 0; strong < 2; strong++) {
    const wpp_table_cfg_t cfg = {kWppSortBounded, 1, 100, 1, 5, 10, false, 0, false};
    uint64_t clock = 0;
    wpp_table_t t;
    assert_int_equal(wpp_table_init(&t, "t", &cfg, &clock), 0);
    for (unsigned i = 0; i < 3; i++) {
      key_of[i] = i;
      want = i;
      wpp_table_find(&t, 0, eq, NULL);
      wpp_table_insert(&t, 0);
    }
    access(&t, 2, 97 - 3); /* period 1: entry 2 hot, moves first */
    access(&t, 0, 3);
    assert_int_equal(t.sorts, 1);
    assert_int_equal(t.head[0], 2);
    assert_true(t.link[2].was_hot);
    clock = 777;
    /* period 2: entry 1 takes over; entry 2 gets 9 (strong) or 40 accesses */
    const uint32_t c2 = strong ? 9 : 40;
    access(&t, 2, c2);
    access(&t, 1, 100 - c2);
    assert_int_equal(t.sorts, 2);
    assert_int_equal(t.head[0], 1);
    assert_int_equal(t.phase_changes, strong ? 1 : 0);
    if (strong) {
      assert_int_equal(t.phase[0].up, 1);
      assert_int_equal(t.phase[0].down, 2);
      assert_int_equal(t.phase[0].when, 777);
      assert_int_equal(t.phase[0].up_count, 91);
      assert_int_equal(t.phase[0].down_count, 9);
    }
    wpp_table_free(&t);
  }
}

/* Bounded sorting on a random stream, against the rule computed here from counts kept here: at each
 * period's end every bucket deeper than the threshold must hold its entries that were accessed more
 * than the frequency threshold in the period first (most accessed first, ties in their previous
 * order), then the others in their previous order; the chains stay whole in both directions. */
enum { RK = 64, RB = 4, RP = 200, RT = 3, RD = 5 };
static uint32_t rnd_key_of[RK];
static uint32_t rnd_want;
static bool rnd_eq(const void *ctx, uint32_t idx) {
  (void)ctx;
  return rnd_key_of[idx] == rnd_want;
}
static unsigned chain_of(const wpp_table_t *t, uint32_t b, uint32_t *out) {
  unsigned n = 0;
  uint32_t prev = UINT32_MAX;
  for (uint32_t i = t->head[b]; i != UINT32_MAX; prev = i, i = t->link[i].next) {
    assert_int_equal(t->link[i].prev, prev);
    out[n++] = i;
  }
  return n;
}
static void test_wpp_table_bounded_sort_random_stream_follows_the_rule(void **state) {
  (void)state;
  const wpp_table_cfg_t cfg = {kWppSortBounded, RB, RP, RD, RT, 10, false, 0, false};
  wpp_table_t t;
  assert_int_equal(wpp_table_init(&t, "t", &cfg, NULL), 0);
  uint32_t x = 99, count[RK] = {0}, before[RB][RK], nb[RB], key_entry[RK];
  memset(key_entry, 0xff, sizeof key_entry);
  for (unsigned period = 0; period < 300; period++) {
    memset(count, 0, sizeof count);
    for (unsigned l = 0; l < RP; l++) {
      x = x * 1103515245u + 12345u;
      /* a few hot keys that change every 40 periods, and noise; every fifth period they take turns,
         so their counts tie */
      const uint32_t pick = period % 5 == 0 ? (period / 5 + l) % 3 : (x >> 20) % 3;
      uint32_t key = (x >> 16) % 4 ? ((period / 40) * 7 + pick) % RK : (x >> 8) % RK;
      if (l == RP - 1)
        for (uint32_t b = 0; b < RB; b++) nb[b] = chain_of(&t, b, before[b]);
      rnd_want = key;
      const uint32_t h = wpp_hash_u32(key);
      uint32_t e = wpp_table_find(&t, h, rnd_eq, NULL);
      if (e == UINT32_MAX) {
        e = wpp_table_insert(&t, h);
        rnd_key_of[e] = key;
        key_entry[key] = e;
        if (l == RP - 1) before[h & (RB - 1)][nb[h & (RB - 1)]++] = e; /* it joins at the tail */
      }
      count[e]++;
    }
    assert_int_equal(t.sorts, period + 1);
    for (uint32_t b = 0; b < RB; b++) {
      uint32_t after[RK], expect[RK], n = chain_of(&t, b, after), m = 0;
      assert_int_equal(n, nb[b]);
      assert_int_equal(n, t.depth[b]);
      if (n > RD) {
        for (uint32_t i = 0; i < n; i++) /* hot ones, most accessed first, stable */
          if (count[before[b][i]] > RT) {
            uint32_t j = m++;
            while (j > 0 && count[expect[j - 1]] < count[before[b][i]]) {
              expect[j] = expect[j - 1];
              j--;
            }
            expect[j] = before[b][i];
          }
        for (uint32_t i = 0; i < n; i++)
          if (count[before[b][i]] <= RT) expect[m++] = before[b][i];
      } else {
        memcpy(expect, before[b], n * sizeof *expect);
      }
      for (uint32_t i = 0; i < n; i++)
        if (after[i] != expect[i]) fail_msg("period %u bucket %u place %u: entry %u, expected %u", period, b, i, after[i], expect[i]);
    }
  }
  assert_true(t.phase_changes > 0); /* the hot keys changed every 40 periods */
  wpp_table_free(&t);
}

/* ---------------------------------------------------------------- files and the rebuilt stream */

static void put32(uint8_t *p, uint32_t v) {
  for (unsigned i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static size_t trace_file(uint8_t *buf, const uint32_t *words, size_t nwords) {
  memset(buf, 0, HWPROF_TRF_HEADER_BYTES);
  memcpy(buf, HWPROF_TRF_MAGIC, 8);
  put32(buf + 8, 1);
  put32(buf + 12, 16); /* HistW */
  put32(buf + 16, 0x100);
  for (size_t i = 0; i < nwords; i++) put32(buf + HWPROF_TRF_HEADER_BYTES + 4 * i, words[i]);
  return HWPROF_TRF_HEADER_BYTES + 4 * nwords;
}

static void test_wpp_trace_file_rejects_malformed_input(void **state) {
  (void)state;
  uint8_t buf[256];
  char err[300];
  hwprof_trf_t t;
  const uint32_t good[] = {0x100, 3, HWPROF_TRF_TAIL, 0, 0x100, 1, HWPROF_TRF_END, 0, 5, 0, 0, 0x100};
  size_t n = trace_file(buf, good, 12);
  assert_int_equal(hwprof_trf_parse(&t, buf, n, "x.htr", err, sizeof err), 0);
  assert_int_equal(t.nrec, 1);
  assert_true(t.has_tail);
  assert_int_equal(t.insns, 5);
  hwprof_trf_free(&t);
  const struct {
    size_t cut; /* bytes kept (0: all) */
    unsigned word;
    uint32_t value;
    const char *says;
  } bad[] = {
      {n - 8, 0, 0, "truncated end record"},  {n - 3, 0, 0, "truncated: 5 bytes"}, {32 + 8, 0, 0, "no end record"},
      {0, 1, 0x80000000u, "no marker"},         {0, 6, 7, "unknown control record 7"},
      {0, 1, 0, "unknown control record 256"}, {20, 0, 0, "not a hwprof trace file"},
  };
  for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    uint32_t w[12];
    memcpy(w, good, sizeof w);
    if (bad[i].word || bad[i].value) w[bad[i].word] = bad[i].value;
    size_t len = trace_file(buf, w, 12);
    if (bad[i].cut) len = bad[i].cut;
    assert_int_equal(hwprof_trf_parse(&t, buf, len, "x.htr", err, sizeof err), -1);
    if (strstr(err, bad[i].says) == NULL || strstr(err, "x.htr") == NULL) fail_msg("case %u: '%s'", i, err);
  }
  /* history width out of range */
  trace_file(buf, good, 12);
  put32(buf + 12, 40);
  assert_int_equal(hwprof_trf_parse(&t, buf, n, "x.htr", err, sizeof err), -1);
  assert_non_null(strstr(err, "offset 12"));
}

/* A hand-made program: 0x100 addi; 0x104 beq x0,x0,+8; 0x108 addi; 0x10c addi; 0x110 jal -16.
 * Trace 1: 0x100 with the branch taken (history 0b11), ended by the backward jal: blocks
 * [0x100, 0x104] (2) and [0x10c, 0x110] (2). The unfinished trace starts at 0x100 again and has run
 * one instruction. */
static void test_wpp_blocks_rebuilt_with_unfinished_trace(void **state) {
  (void)state;
  const uint32_t code[] = {i_type(1, 0, 0, 5, 0x13), b_type(8, 0, 0, 0), i_type(2, 0, 0, 5, 0x13),
                           i_type(3, 0, 0, 5, 0x13), jal(-16, 0)};
  uint8_t bytes[sizeof code];
  for (unsigned i = 0; i < 5; i++) put32(bytes + 4 * i, code[i]);
  hwprof_image_t img = {0x100, 1, {{0x100, sizeof bytes, bytes, true}}};
  hwprof_trf_t t = {32, 0x100, NULL, 1, true, {0x100, 1}, 5, 0, 0x100};
  hwprof_trf_rec_t rec = {0x100, 3};
  t.rec = &rec;
  hwprof_bkf_t b;
  char err[300];
  assert_int_equal(wpp_blocks_from_traces(&t, "x.htr", &img, &b, NULL, NULL, err, sizeof err), 0);
  assert_int_equal(b.n, 3);
  assert_int_equal(b.ev[0].start, 0x100);
  assert_int_equal(b.ev[0].insns, 2);
  assert_int_equal(b.ev[1].start, 0x10c);
  assert_int_equal(b.ev[1].insns, 2);
  assert_int_equal(b.ev[2].start, 0x100);
  assert_int_equal(b.ev[2].insns, 1);
  hwprof_bkf_free(&b);
  t.last_pc = 0x104; /* not where one instruction leads */
  assert_int_equal(wpp_blocks_from_traces(&t, "x.htr", &img, &b, NULL, NULL, err, sizeof err), -1);
  assert_non_null(strstr(err, "does not lead"));
  t.last_pc = 0x100;
  t.insns = 4 + 3; /* three instructions of the tail would need the branch's outcome */
  assert_int_equal(wpp_blocks_from_traces(&t, "x.htr", &img, &b, NULL, NULL, err, sizeof err), -1);
  t.insns = 3; /* fewer than the records hold */
  assert_int_equal(wpp_blocks_from_traces(&t, "x.htr", &img, &b, NULL, NULL, err, sizeof err), -1);
  assert_non_null(strstr(err, "the end record says"));
  t.insns = 5;
  t.dropped = 2;
  assert_int_equal(wpp_blocks_from_traces(&t, "x.htr", &img, &b, NULL, NULL, err, sizeof err), -1);
  assert_non_null(strstr(err, "dropped 2"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_wpp_paths_abcabcb_matches_previous),
      cmocka_unit_test(test_wpp_paths_abcabda_sends_previous_on),
      cmocka_unit_test(test_wpp_paths_table1_repeat_starts_next_path),
      cmocka_unit_test(test_wpp_strata_follow_the_path_method),
      cmocka_unit_test(test_wpp_random_stream_runs_expand_to_the_stream),
      cmocka_unit_test(test_wpp_table_bounded_sort_moves_only_hot_entries),
      cmocka_unit_test(test_wpp_table_depth_threshold_and_full_sort),
      cmocka_unit_test(test_wpp_table_phase_change_needs_the_factor),
      cmocka_unit_test(test_wpp_table_bounded_sort_random_stream_follows_the_rule),
      cmocka_unit_test(test_wpp_trace_file_rejects_malformed_input),
      cmocka_unit_test(test_wpp_blocks_rebuilt_with_unfinished_trace),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
