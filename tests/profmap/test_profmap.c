/* Unit tests of the instrumenter's map library (sw/host/profmap/): deriving edge counts by flow
 * conservation, the map and profile files (the exact profile's oracle: tests/oracle/test_edge_truth.c).
 * Expected counts are worked out by hand in each test from the CFG drawn in its comment. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/loop_fixture.h"
#include "profmap.h"

static pm_block_t blk[5];
static pm_edge_t edge[NE];
static pm_func_t fn;

static int setup(void **state) {
  (void)state;
  fn = loop_fixture(blk, edge);
  return 0;
}

/* Counters for the measured edges (counter i = edge list order), values from kCounts. */
static void measure(const int *edges, int n, uint64_t *ctr) {
  for (int i = 0; i < n; i++) {
    edge[edges[i]].counter = i;
    ctr[i] = (uint64_t)kCounts[edges[i]];
  }
  fn.ncounters = (unsigned)n;
}

static void test_profmap_derive_from_the_edges_outside_a_spanning_tree(void **state) {
  (void)state;
  /* 6 nodes (5 blocks + EXIT), 8 edges: a spanning tree has 5, so 3 measured suffice. The tree
     {VENTRY, B0->B1, B1->B2, B2->B3, B3->B4} leaves B1->B3, B3->B1, B4->exit. */
  const int m[] = {E_TK13, E_TK31, E_RET4};
  uint64_t ctr[3];
  measure(m, 3, ctr);
  assert_true(pm_solvable(&fn));
  int64_t out[NE];
  char why[200];
  assert_int_equal(pm_derive(&fn, ctr, out, why, sizeof why), 0);
  for (int e = 0; e < NE; e++) assert_int_equal(out[e], kCounts[e]);
}

static void test_profmap_two_measured_edges_do_not_determine_the_loop(void **state) {
  (void)state;
  const int m[] = {E_TK13, E_RET4}; /* the back edge's count is lost in the cycle B1-B3 */
  uint64_t ctr[2];
  measure(m, 2, ctr);
  assert_false(pm_solvable(&fn));
  int64_t out[NE];
  char why[200];
  assert_int_equal(pm_derive(&fn, ctr, out, why, sizeof why), -1);
  assert_non_null(strstr(why, "do not determine"));
}

static void test_profmap_block_counter_replaces_an_edge(void **state) {
  (void)state;
  /* count B1 instead of the back edge: in(B1) = B0->B1 + B3->B1 = 10 */
  const int m[] = {E_TK13, E_RET4};
  uint64_t ctr[3];
  measure(m, 2, ctr);
  blk[1].counter = 2;
  ctr[2] = 10;
  fn.ncounters = 3;
  assert_true(pm_solvable(&fn));
  int64_t out[NE];
  char why[200];
  assert_int_equal(pm_derive(&fn, ctr, out, why, sizeof why), 0);
  assert_int_equal(out[E_TK31], 9);
  assert_int_equal(out[E_NT12], 7);
}

static void test_profmap_contradicting_counters_are_an_error(void **state) {
  (void)state;
  const int m[] = {E_TK13, E_TK31, E_RET4};
  uint64_t ctr[3];
  measure(m, 3, ctr);
  ctr[0] = 50; /* taken more often than the loop runs: B1->B2 derives negative */
  int64_t out[NE];
  char why[200];
  assert_int_equal(pm_derive(&fn, ctr, out, why, sizeof why), -1);
  assert_non_null(strstr(why, "contradict"));
}

/* 3-bit counters keep each count modulo 8: the derived edges are the counts modulo 8 (B1->B2's 7
 * comes out of 1 + 1 - 3, negative as plain integers), and redundant counters are checked modulo 8 */
static void test_profmap_derive_modulo_wrapped_counters(void **state) {
  (void)state;
  const int m[] = {E_TK13, E_TK31, E_RET4};
  uint64_t ctr[4];
  measure(m, 3, ctr);
  for (int i = 0; i < 3; i++) ctr[i] %= 8; /* 3, 9 -> 1, 1 */
  int64_t out[NE];
  char why[200];
  assert_int_equal(pm_derive(&fn, ctr, out, why, sizeof why), -1); /* as exact counts they contradict */
  assert_int_equal(pm_derive_mod(&fn, ctr, 3, out, why, sizeof why), 0);
  for (int e = 0; e < NE; e++) assert_int_equal(out[e], kCounts[e] % 8);
  blk[1].counter = 3;
  ctr[3] = 10 % 8;
  fn.ncounters = 4;
  assert_int_equal(pm_derive_mod(&fn, ctr, 3, out, why, sizeof why), 0);
  ctr[3] = 11 % 8; /* one update too many on B1's counter */
  assert_int_equal(pm_derive_mod(&fn, ctr, 3, out, why, sizeof why), -1);
  assert_non_null(strstr(why, "contradict"));
  assert_int_equal(pm_derive_mod(&fn, ctr, 0, out, why, sizeof why), -1);
}

static void test_profmap_redundant_counters_must_agree(void **state) {
  (void)state;
  /* all three loop edges measured and B1 counted too: over-determined, consistent */
  const int m[] = {E_TK13, E_TK31, E_RET4};
  uint64_t ctr[4];
  measure(m, 3, ctr);
  blk[1].counter = 3;
  ctr[3] = 10;
  fn.ncounters = 4;
  int64_t out[NE];
  char why[200];
  assert_int_equal(pm_derive(&fn, ctr, out, why, sizeof why), 0);
  ctr[3] = 11; /* one update too many on B1's counter: no longer conserved */
  assert_int_equal(pm_derive(&fn, ctr, out, why, sizeof why), -1);
  assert_non_null(strstr(why, "contradict"));
}


/* A map written and read back is the same map; a bad text line, an unknown edge kind, a map cut at
 * any line, an end record whose counts differ and a line after it are each one error naming the
 * file. */
static void test_profmap_map_file_round_trip_and_bad_line(void **state) {
  (void)state;
  edge[E_TK13].counter = 0;
  fn.ncounters = 1;
  pm_map_t m = {.program = "p.elf", .mode = "minimal", .k = 4, .cnt_bytes = 4, .counters_at = 0x2000,
                .total_counters = 1, .text_lo = 0x1000, .text_hi = 0x10a0, .nfn = 1, .fn = &fn};
  char path[] = "/tmp/hwprof-map-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "w");
  assert_int_equal(pm_write(&m, f), 0);
  fclose(f);
  pm_map_t r;
  char err[300];
  assert_int_equal(pm_read(&r, path, err, sizeof err), 0);
  assert_int_equal(r.nfn, 1);
  assert_string_equal(r.fn[0].name, "loop");
  assert_int_equal(r.fn[0].nblk, 5);
  assert_int_equal(r.fn[0].nedge, NE);
  assert_int_equal(r.fn[0].edge[E_TK13].kind, HWPROF_CFG_TAKEN);
  assert_int_equal(r.fn[0].edge[E_TK13].counter, 0);
  assert_int_equal(r.fn[0].edge[E_RET4].dst, HWPROF_CFG_EXIT);
  assert_int_equal(r.fn[0].blk[3].new_start, 0x1060);
  assert_int_equal(r.text_lo, 0x1000);
  assert_int_equal(r.text_hi, 0x10a0);
  pm_free(&r);
  char whole[4096];
  f = fopen(path, "r");
  const size_t len = fread(whole, 1, sizeof whole - 1, f);
  whole[len] = 0;
  fclose(f);
  char ends[40];
  snprintf(ends, sizeof ends, "\nend 1 5 %d\n", NE); /* one function, its 5 blocks and NE edges */
  assert_memory_equal(whole, "hwprof-map 2\n", 13);
  assert_non_null(strstr(whole, ends));
  assert_int_equal(strlen(strstr(whole, ends)), strlen(ends));
  /* a text range that ends before it starts */
  char bad[] = "/tmp/hwprof-map-XXXXXX";
  fd = mkstemp(bad);
  assert_true(fd >= 0);
  f = fdopen(fd, "w");
  fputs("hwprof-map 2\ntext 0x2000 0x1000\nend 0 0 0\n", f);
  fclose(f);
  assert_int_equal(pm_read(&r, bad, err, sizeof err), -1);
  assert_non_null(strstr(err, bad));
  assert_non_null(strstr(err, "text line"));
  /* cut after each of its lines but the last (the end record): refused */
  unsigned cuts = 0;
  for (const char *nl = strchr(whole, '\n'); nl && nl[1]; nl = strchr(nl + 1, '\n'), cuts++) {
    f = fopen(bad, "w");
    fwrite(whole, 1, (size_t)(nl + 1 - whole), f);
    fclose(f);
    assert_int_equal(pm_read(&r, bad, err, sizeof err), -1);
    assert_non_null(strstr(err, bad));
  }
  assert_true(cuts > 10);
  /* the end record's counts changed, a line after it, an unknown edge kind */
  const char *tails[] = {"end 1 5 99\n", "end 1 5 8\nedge 8 fall 0 1 0x0 0x0 -\n", NULL};
  const char *why[] = {"end record counts", "after the end record", "unknown edge kind"};
  for (unsigned i = 0; i < 3; i++) {
    f = fopen(bad, "w");
    if (tails[i]) {
      fwrite(whole, 1, len - strlen(ends) + 1, f);
      fputs(tails[i], f);
    } else {
      char *t = strdup(whole), *k = strstr(t, " taken ");
      assert_non_null(k);
      memcpy(k, " sidew ", 7);
      fputs(t, f);
      free(t);
    }
    fclose(f);
    assert_int_equal(pm_read(&r, bad, err, sizeof err), -1);
    assert_non_null(strstr(err, bad));
    assert_non_null(strstr(err, why[i]));
  }
  remove(bad);
  remove(path);
}

static void test_profmap_compare_counts_differing_edges(void **state) {
  (void)state;
  int64_t a[NE], b[NE];
  memcpy(a, kCounts, sizeof a);
  memcpy(b, kCounts, sizeof b);
  b[E_NT12] = 6;
  pm_map_t m = {.program = "p.elf", .nfn = 1, .fn = &fn};
  char pa[] = "/tmp/hwprof-prof-a-XXXXXX", pb[] = "/tmp/hwprof-prof-b-XXXXXX";
  int fa = mkstemp(pa), fb = mkstemp(pb);
  FILE *f = fdopen(fa, "w");
  int64_t *rows_a[1] = {a}, *rows_b[1] = {b};
  pm_write_profile(f, &m, rows_a);
  fclose(f);
  f = fdopen(fb, "w");
  pm_write_profile(f, &m, rows_b);
  fclose(f);
  long edges = 0;
  char err[200];
  assert_int_equal(pm_compare_profiles(pa, pa, NULL, &edges, err, sizeof err), 0);
  assert_int_equal(edges, NE - 1); /* the virtual edge is not in a profile */
  assert_int_equal(pm_compare_profiles(pa, pb, NULL, &edges, err, sizeof err), 1);
  remove(pa);
  remove(pb);
}

/* A profile file read back against its map gives the counts written, the virtual entry edge the
 * function's entries; a file missing an edge of a function it gives, naming an edge the map does
 * not have, ending in the middle of a line or at any line before its end record, with an end record
 * whose counts differ or a line after it, or of the old format, is refused with the file and line
 * named, by the reader and by the comparison. */
static void test_profmap_profile_file_read_back(void **state) {
  (void)state;
  int64_t a[NE];
  memcpy(a, kCounts, sizeof a);
  pm_map_t m = {.program = "p.elf", .nfn = 1, .fn = &fn};
  char p[] = "/tmp/hwprof-prof-r-XXXXXX";
  FILE *f = fdopen(mkstemp(p), "w");
  int64_t *rows[1] = {a};
  pm_write_profile(f, &m, rows);
  fclose(f);
  int64_t **got = NULL;
  char err[200], whole[2048];
  assert_int_equal(pm_read_profile(&m, p, &got, err, sizeof err), 0);
  assert_non_null(got[0]);
  for (int e = 0; e < NE; e++) assert_int_equal(got[0][e], kCounts[e]);
  pm_free_counts(&m, got);
  f = fopen(p, "r");
  const size_t len = fread(whole, 1, sizeof whole - 1, f);
  whole[len] = 0;
  fclose(f);
  /* the file as written: the header, the program, the function, its edges, the end record */
  assert_memory_equal(whole, "hwprof-profile 2\nprogram p.elf\nfunction loop ", 44);
  char ends[32];
  snprintf(ends, sizeof ends, "\nend 1 %d\n", NE - 1); /* the virtual entry edge is not in the file */
  assert_non_null(strstr(whole, ends));
  assert_int_equal(strlen(strstr(whole, ends)), strlen(ends));
  const char *bad[] = {
      "hwprof-profile 2\nfunction loop 0x00000100 entries 1\nedge fall 0x00000100 0x00000110 1\nend 1 1\n", /* edges missing */
      "hwprof-profile 2\nfunction loop 0x00000100 entries 1\nedge jump 0x00000100 0x00000110 1\nend 1 1\n", /* no such edge */
      "hwprof-profile 2\nfunction loop 0x00000100 entries 1\nedge fall 0x00000100 0x0000011", /* cut short */
      "hwprof-profile 2\nfunction other 0x00000100 entries 1\nend 1 0\n", /* not in the map */
      "hwprof-profile 1\nfunction loop 0x00000100 entries 1\n",            /* the old format */
  };
  const char *why[] = {"has no count", "no such edge", "truncated", "not a profiled function", "not an hwprof profile"};
  for (unsigned i = 0; i < sizeof bad / sizeof *bad; i++) {
    f = fopen(p, "w");
    fputs(bad[i], f);
    fclose(f);
    got = NULL;
    assert_int_equal(pm_read_profile(&m, p, &got, err, sizeof err), -1);
    assert_null(got);
    assert_non_null(strstr(err, p));
    assert_non_null(strstr(err, why[i]));
  }
  /* the good file cut after each of its lines but the last, its end record's counts changed, a line
     after it: refused by both readers */
  char q[] = "/tmp/hwprof-prof-q-XXXXXX";
  fclose(fdopen(mkstemp(q), "w"));
  long edges = 0;
  unsigned cuts = 0;
  for (const char *nl = strchr(whole, '\n'); nl && nl[1]; nl = strchr(nl + 1, '\n'), cuts++) {
    f = fopen(p, "w");
    fwrite(whole, 1, (size_t)(nl + 1 - whole), f);
    fclose(f);
    got = NULL;
    assert_int_equal(pm_read_profile(&m, p, &got, err, sizeof err), -1);
    assert_null(got);
    assert_true(strstr(err, "truncated") || strstr(err, "has no count"));
    f = fopen(q, "w");
    fputs(whole, f);
    fclose(f);
    assert_int_equal(pm_compare_profiles(q, p, NULL, &edges, err, sizeof err), -1);
    assert_non_null(strstr(err, p));
  }
  assert_true(cuts >= 4);
  const char *tails[] = {"end 2 99\n", "end 1 1 1\n"};
  for (unsigned i = 0; i < 3; i++) {
    f = fopen(p, "w");
    fwrite(whole, 1, len - strlen(ends) + 1, f); /* up to and with the newline before the end record */
    if (i < 2) fputs(tails[i], f);
    else fprintf(f, "%sedge fall 0x00000100 0x00000110 1\n", ends + 1);
    fclose(f);
    got = NULL;
    assert_int_equal(pm_read_profile(&m, p, &got, err, sizeof err), -1);
    assert_non_null(strstr(err, i == 0 ? "counts differ" : i == 1 ? "malformed" : "after the end record"));
    assert_int_equal(pm_compare_profiles(q, p, NULL, &edges, err, sizeof err), -1);
  }
  remove(p);
  remove(q);
}

/* Millicode with two entry points, profiled through its callers (the loop above, whose counts are
 * kCounts):
 *
 *   D0 [0x200, 0x208) entry A, falls into D1;  D1 [0x208, 0x210) entry B, returns.
 *   edges: 0 virtual entry -> D0, 1 virtual entry -> D1, 2 D0 -> D1 (fall), 3 D1 -> exit (return)
 *
 * Entry A is called at the head of the loop's B2 (its in-flow: B1 -> B2 = 7); entry B at the head
 * of B1 (in-flow: B0 -> B1 + B3 -> B1 = 1 + 9 = 10) and jumped to by the return edge (1; any edge
 * stands for a tail call here). By hand: A = 7, B = 11, D0 -> D1 = 7, return = 18. */
static void test_profmap_derived_function_from_its_callers(void **state) {
  (void)state;
  pm_block_t db[2] = {{0x200, 0x208, 0x3000, 0, 0, PM_NONE, PM_NONE}, {0x208, 0x210, 0x3008, 0, 0, PM_NONE, PM_NONE}};
  pm_edge_t de[5] = {{HWPROF_CFG_VIRTUAL_ENTRY, HWPROF_CFG_EXIT, 0, 0, 0, PM_NONE},
                     {HWPROF_CFG_VIRTUAL_ENTRY, HWPROF_CFG_EXIT, 1, 0, 0, PM_NONE},
                     {HWPROF_CFG_FALL, 0, 1, 0x3004, 0x3008, PM_NONE},
                     {HWPROF_CFG_RETURN, 1, HWPROF_CFG_EXIT, 0x300c, PM_ANY, PM_NONE},
                     {HWPROF_CFG_TAKEN, 0, HWPROF_CFG_EXIT, 0x3004, 0x3100, PM_NONE}};
  pm_source_t src[3] = {{0, 0, 2, PM_NONE}, {1, 0, 1, PM_NONE}, {1, 0, PM_NONE, E_RET4}};
  pm_func_t fns[2] = {fn, {.name = "__riscv_save_12", .lo = 0x200, .hi = 0x210, .new_entry = 0x3000, .derived = true,
                           .src = src, .nsrc = 3, .blk = db, .nblk = 2, .dispatch = -1, .edge = de, .nedge = 4}};
  pm_map_t m = {.program = "p.elf", .mode = "minimal", .k = 4, .cnt_bytes = 4, .counters_at = 0x2000, .nfn = 2, .fn = fns};
  int64_t a[NE], got[5];
  memcpy(a, kCounts, sizeof a);
  int64_t *rows[2] = {a, NULL};
  char why[200];
  assert_true(pm_solvable_entries(&fns[1]));
  assert_int_equal(pm_derive_entries(&m, 1, rows, 0, got, why, sizeof why), 0);
  const int64_t want[4] = {7, 11, 7, 18};
  for (int e = 0; e < 4; e++) assert_int_equal(got[e], want[e]);
  assert_int_equal(pm_derive_entries(&m, 1, rows, 3, got, why, sizeof why), 0); /* 3-bit counters: modulo 8 */
  for (int e = 0; e < 4; e++) assert_int_equal(got[e], want[e] % 8);
  /* a branch in it (D0 -> exit taken, the fall its other way): its counts no longer follow */
  de[2].kind = HWPROF_CFG_NOT_TAKEN;
  fns[1].nedge = 5;
  assert_false(pm_solvable_entries(&fns[1]));
  assert_int_equal(pm_derive_entries(&m, 1, rows, 0, got, why, sizeof why), -1);
  assert_non_null(strstr(why, "do not determine"));
  de[2].kind = HWPROF_CFG_FALL;
  fns[1].nedge = 4;
  /* a caller without a profile */
  rows[0] = NULL;
  assert_int_equal(pm_derive_entries(&m, 1, rows, 0, got, why, sizeof why), -1);
  assert_non_null(strstr(why, "has no profile"));
  rows[0] = a;

  /* the map file keeps it (status derived, its from lines), and a profile file its entries */
  char path[] = "/tmp/hwprof-map-d-XXXXXX";
  FILE *f = fdopen(mkstemp(path), "w");
  assert_int_equal(pm_write(&m, f), 0);
  fclose(f);
  pm_map_t r;
  char err[300];
  assert_int_equal(pm_read(&r, path, err, sizeof err), 0);
  assert_true(r.fn[1].derived && !r.fn[1].instrumented && pm_profiled(&r.fn[1]));
  assert_int_equal(r.fn[1].nsrc, 3);
  assert_int_equal(r.fn[1].src[2].edge, E_RET4);
  assert_int_equal(r.fn[1].src[2].block, PM_NONE);
  assert_int_equal(r.fn[1].src[1].block, 1);
  memset(got, 0, sizeof got);
  assert_int_equal(pm_derive_entries(&r, 1, rows, 0, got, why, sizeof why), 0);
  for (int e = 0; e < 4; e++) assert_int_equal(got[e], want[e]);
  rows[1] = got;
  char pp[] = "/tmp/hwprof-prof-d-XXXXXX";
  f = fdopen(mkstemp(pp), "w");
  assert_int_equal(pm_write_profile(f, &r, rows), 0);
  fclose(f);
  int64_t **back = NULL;
  assert_int_equal(pm_read_profile(&r, pp, &back, err, sizeof err), 0);
  for (int e = 0; e < 4; e++) assert_int_equal(back[1][e], want[e]); /* the entries split again: 7 and 11 */
  pm_free_counts(&r, back);
  pm_free(&r);
  remove(pp);
  /* from lines that name no caller's profile, no virtual entry edge, or sit in another function */
  char whole[4096];
  f = fopen(path, "r");
  whole[fread(whole, 1, sizeof whole - 1, f)] = 0;
  fclose(f);
  const char *from[][2] = {{"from 1 0 block 1\n", "from 1 1 block 0\n"},
                           {"from 1 0 block 1\n", "from 1 0 block 9\n"},
                           {"from 1 0 block 1\n", "from 2 0 block 1\n"},
                           {"from 1 0 block 1\n", "from 1 0 blob 1\n"}};
  const char *reason[] = {"not an instrumented function's", "not an instrumented function's", "not a virtual entry edge",
                          "malformed from line"};
  for (unsigned i = 0; i < 4; i++) {
    char *t = strdup(whole), *k = strstr(t, from[i][0]);
    assert_non_null(k);
    f = fopen(path, "w");
    fwrite(t, 1, (size_t)(k - t), f);
    fputs(from[i][1], f);
    fputs(k + strlen(from[i][0]), f);
    fclose(f);
    free(t);
    assert_int_equal(pm_read(&r, path, err, sizeof err), -1);
    assert_non_null(strstr(err, path));
    assert_non_null(strstr(err, reason[i]));
  }
  char *t = strdup(whole), *k = strstr(t, "function loop ");
  assert_non_null(k);
  char *nl = strchr(k, '\n');
  f = fopen(path, "w");
  fwrite(t, 1, (size_t)(nl + 1 - t), f);
  fputs("from 0 0 block 1\n", f); /* in an instrumented function */
  fputs(nl + 1, f);
  fclose(f);
  free(t);
  assert_int_equal(pm_read(&r, path, err, sizeof err), -1);
  assert_non_null(strstr(err, "outside a derived function"));
  remove(path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_profmap_profile_file_read_back, setup),
      cmocka_unit_test_setup(test_profmap_derived_function_from_its_callers, setup),
      cmocka_unit_test_setup(test_profmap_derive_from_the_edges_outside_a_spanning_tree, setup),
      cmocka_unit_test_setup(test_profmap_two_measured_edges_do_not_determine_the_loop, setup),
      cmocka_unit_test_setup(test_profmap_block_counter_replaces_an_edge, setup),
      cmocka_unit_test_setup(test_profmap_contradicting_counters_are_an_error, setup),
      cmocka_unit_test_setup(test_profmap_redundant_counters_must_agree, setup),
      cmocka_unit_test_setup(test_profmap_derive_modulo_wrapped_counters, setup),
      cmocka_unit_test_setup(test_profmap_map_file_round_trip_and_bad_line, setup),
      cmocka_unit_test_setup(test_profmap_compare_counts_differing_edges, setup),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
