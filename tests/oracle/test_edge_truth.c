/* Unit tests of the edge profile's oracle (tb/oracle/edge_truth.c): exact edge counts of a map's edges
 * from retired (pc, next pc) pairs. Expected counts are worked out by hand in each test from the CFG
 * drawn in its comment (lib/loop_fixture.h for the loop). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "oracle/edge_truth.h"
#include "lib/loop_fixture.h"

static pm_block_t blk[5];
static pm_edge_t edge[NE];
static pm_func_t fn;

static int setup(void **state) {
  (void)state;
  fn = loop_fixture(blk, edge);
  return 0;
}

/* One pass through the loop of lib/loop_fixture.h, by its new addresses. */
static void test_edge_truth_counts_edges_from_pc_pairs(void **state) {
  (void)state;
  pm_map_t m = {.nfn = 1, .fn = &fn, .cnt_bytes = 4};
  pm_truth_t *t = pm_truth_new(&m);
  assert_non_null(t);
  /* one pass: B0 -> B1 (taken) -> B3 (not taken) -> B4 -> return */
  pm_truth_feed(t, 0x100c, 0x1020, false, false); /* end of B0, falls into B1 */
  pm_truth_feed(t, 0x102c, 0x1060, true, false);  /* B1's branch taken */
  pm_truth_feed(t, 0x106c, 0x1070, false, false); /* B3's branch not taken */
  pm_truth_feed(t, 0x1050, 0x1054, false, false); /* an instruction that ends no edge */
  pm_truth_feed(t, 0x108c, 0x4444, true, false);  /* the return, anywhere */
  assert_int_equal(pm_truth_count(t, 0, E_FALL01), 1);
  assert_int_equal(pm_truth_count(t, 0, E_TK13), 1);
  assert_int_equal(pm_truth_count(t, 0, E_NT12), 0);
  assert_int_equal(pm_truth_count(t, 0, E_NT34), 1);
  assert_int_equal(pm_truth_count(t, 0, E_TK31), 0);
  assert_int_equal(pm_truth_count(t, 0, E_RET4), 1);
  assert_int_equal(pm_truth_count(t, 0, E_VENTRY), 0);
  pm_truth_free(t);
}

/* A block ending in a call with nothing inserted after it: its fall edge is taken when the callee
 * returns into the next block (term_new PM_ANY), never by the call itself or a jump there. */
static void test_edge_truth_fall_after_call_counts_returns(void **state) {
  (void)state;
  pm_block_t b[2] = {{0x2000, 0x2010, 0x8000, 0, 0, PM_NONE, PM_NONE}, {0x2010, 0x2014, 0x8010, 0, 0, PM_NONE, PM_NONE}};
  pm_edge_t e[2] = {{HWPROF_CFG_FALL, 0, 1, PM_ANY, 0x8010, PM_NONE},
                    {HWPROF_CFG_RETURN, 1, HWPROF_CFG_EXIT, 0x8010, PM_ANY, PM_NONE}};
  pm_func_t f = {.name = "g", .lo = 0x2000, .hi = 0x2014, .instrumented = true, .blk = b, .nblk = 2, .edge = e, .nedge = 2};
  pm_map_t m = {.nfn = 1, .fn = &f, .cnt_bytes = 4};
  pm_truth_t *t = pm_truth_new(&m);
  assert_non_null(t);
  pm_truth_feed(t, 0x800c, 0x9000, true, false); /* the call */
  assert_int_equal(pm_truth_count(t, 0, 0), 0);
  pm_truth_feed(t, 0x9008, 0x8010, true, true);  /* the callee's return into the next block */
  assert_int_equal(pm_truth_count(t, 0, 0), 1);
  pm_truth_feed(t, 0x8004, 0x8010, true, false); /* a jump to the same place is not the edge */
  pm_truth_feed(t, 0x9008, 0x8014, true, true);  /* a return elsewhere is not either */
  assert_int_equal(pm_truth_count(t, 0, 0), 1);
  pm_truth_free(t);
}

/* A dispatch node (sw/lib/cfg/hwprof_cfg.h): jumps J1 (end of B0, the entry) and J2 (end of B1) to the
 * node N, N to B1, to B2 and to EXIT; B2 returns. New addresses: B0 0x8000..0x8008 (J1 at 0x8004),
 * B1 0x8008..0x8010 (J2 at 0x800c), B2 0x8010..0x8018 (ret at 0x8014).
 * Three calls: J1 -> B1, J2 -> B2, return; J1 -> B2, return; J1 -> B1, J2 -> 0x9000 (a tail call).
 * By hand: J1->N 3, J2->N 2, N->B1 2, N->B2 2, N->EXIT 1, returns 2, entries 3. */
static void test_edge_truth_dispatch_node(void **state) {
  (void)state;
  pm_block_t b[4] = {{0x2000, 0x2008, 0x8000, 0, 0, PM_NONE, PM_NONE}, {0x2008, 0x2010, 0x8008, 0, 0, PM_NONE, PM_NONE},
                     {0x2010, 0x2018, 0x8010, 0, 0, PM_NONE, PM_NONE}, {0x2018, 0x2018, 0, 0, 0, PM_NONE, PM_NONE}};
  pm_edge_t e[7] = {{HWPROF_CFG_INDIRECT, 0, 3, 0x8004, PM_ANY, PM_NONE},
                    {HWPROF_CFG_INDIRECT, 1, 3, 0x800c, PM_ANY, PM_NONE},
                    {HWPROF_CFG_DISPATCH, 3, 1, 0, 0x8008, PM_NONE},
                    {HWPROF_CFG_DISPATCH, 3, 2, 0, 0x8010, PM_NONE},
                    {HWPROF_CFG_DISPATCH, 3, HWPROF_CFG_EXIT, 0, PM_ANY, PM_NONE},
                    {HWPROF_CFG_RETURN, 2, HWPROF_CFG_EXIT, 0x8014, PM_ANY, PM_NONE},
                    {HWPROF_CFG_VIRTUAL_ENTRY, HWPROF_CFG_EXIT, 0, 0, 0, PM_NONE}};
  pm_func_t f = {.name = "d", .lo = 0x2000, .hi = 0x2018, .instrumented = true, .blk = b, .nblk = 4, .edge = e, .nedge = 7};
  pm_map_t m = {.nfn = 1, .fn = &f, .cnt_bytes = 4};
  pm_truth_t *t = pm_truth_new(&m);
  assert_non_null(t);
  pm_truth_feed(t, 0x8004, 0x8008, true, false);
  pm_truth_feed(t, 0x800c, 0x8010, true, false);
  pm_truth_feed(t, 0x8014, 0x7000, true, true);
  pm_truth_feed(t, 0x8004, 0x8010, true, false);
  pm_truth_feed(t, 0x8014, 0x7000, true, true);
  pm_truth_feed(t, 0x8004, 0x8008, true, false);
  pm_truth_feed(t, 0x800c, 0x9000, true, false);
  pm_truth_feed(t, 0x8010, 0x8008, true, false); /* not a jump into the node */
  const int64_t want[6] = {3, 2, 2, 2, 1, 2};
  for (unsigned k = 0; k < 6; k++) assert_int_equal(pm_truth_count(t, 0, k), want[k]);
  pm_truth_free(t);
  /* derived from what the instrumenter counts: each jump (bhint ALL on it), B1's entries (a block
   * counter) and the return: the node's other edges and the entries follow */
  b[0].term_counter = 0;
  b[1].term_counter = 1;
  b[1].counter = 2;
  e[5].counter = 3;
  f.ncounters = 4;
  const uint64_t ctr[4] = {3, 2, 2, 2};
  int64_t got[7];
  char why[200];
  assert_int_equal(pm_derive(&f, ctr, got, why, sizeof why), 0);
  const int64_t want2[7] = {3, 2, 2, 2, 1, 2, 3};
  for (unsigned k = 0; k < 7; k++) assert_int_equal(got[k], want2[k]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_edge_truth_counts_edges_from_pc_pairs, setup),
      cmocka_unit_test(test_edge_truth_fall_after_call_counts_returns),
      cmocka_unit_test(test_edge_truth_dispatch_node),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
