/* Tests of the run-time metadata reader (sw/lib/meta.c) on blobs written here by hand: one function
 * of two blocks (a branch at the end of block 0: taken edge to block 1 and not-taken edge to block
 * 1's neighbour, here block 1 as well) and one branch record; each malformed variant must be refused,
 * by the header's check (hwprof_meta_open) or by the function's (hwprof_meta_check_func, and so
 * hwprof_meta_check_all). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hwprof_meta.h"

typedef struct {
  hwprof_meta_header_t h;
  hwprof_meta_func_t f;
  hwprof_meta_block_t b[2];
  hwprof_meta_edge_t e[3];
  hwprof_meta_branch_t br;
} blob_t;

static blob_t good(void) {
  blob_t x;
  memset(&x, 0, sizeof x);
  x.h = (hwprof_meta_header_t){HWPROF_META_MAGIC, HWPROF_META_VERSION, 1, 2, 3, 0x80c00000u, 3, 4, 6, 1, 1, 0x80800124u};
  x.f = (hwprof_meta_func_t){0x80000100u, 0x80000120u, 0x80800100u, 0x80c00000u, 3, 1, 0, 2, 0, 3, 0, 1};
  x.b[0] = (hwprof_meta_block_t){0x80000100u, 0x80000110u, 0x80800100u, 0x80800114u, 0, HWPROF_META_NONE,
                                  HWPROF_META_NONE};
  x.b[1] = (hwprof_meta_block_t){0x80000110u, 0x80000120u, 0x80800114u, 0x80800124u, 0, HWPROF_META_NONE,
                                  HWPROF_META_NONE};
  x.e[0] = (hwprof_meta_edge_t){0, 0, 1, 0x80800110u, 0x80800118u, 0};  /* taken, counter 0 */
  x.e[1] = (hwprof_meta_edge_t){1, 0, 1, 0x80800110u, 0x80800114u, 1};  /* not taken, counter 1 */
  x.e[2] = (hwprof_meta_edge_t){5, 1, HWPROF_META_NONE, 0x8080011cu, 0, 2}; /* return to EXIT */
  x.br = (hwprof_meta_branch_t){0, 0, 1};
  return x;
}

static void test_meta_open_reads_a_consistent_blob(void **state) {
  (void)state;
  blob_t x = good();
  hwprof_meta_t m;
  assert_int_equal(hwprof_meta_open(&m, &x, sizeof x), kHwprofOk);
  assert_int_equal(hwprof_meta_check_func(&m, 0), kHwprofOk);
  assert_int_equal(hwprof_meta_check_all(&m), kHwprofOk);
  assert_int_equal(m.hdr->nbranch, 1);
  assert_int_equal(m.branch[m.fn[0].first_branch].not_taken, 1);
  assert_int_equal(hwprof_meta_counter_addr(&m, 0, 2), 0x80c00008u);
  assert_int_equal(hwprof_meta_code_end(&m), 0x80800124u);
}

/* The header's own faults: hwprof_meta_open refuses them and takes nothing. */
static void test_meta_open_refuses_malformed_headers(void **state) {
  (void)state;
  hwprof_meta_t m = {0};
  blob_t x = good();
  assert_int_equal(hwprof_meta_open(&m, NULL, sizeof x), kHwprofNoDevice);
  assert_int_equal(hwprof_meta_open(&m, &x, sizeof x - 4), kHwprofBadArg); /* truncated: the tables do not fit */
  x.h.magic ^= 1;
  assert_int_equal(hwprof_meta_open(&m, &x, sizeof x), kHwprofBadArg);
  x = good();
  x.h.version = 2; /* no code end, no branch ranges */
  assert_int_equal(hwprof_meta_open(&m, &x, sizeof x), kHwprofBadArg);
  x = good();
  x.h.cnt_bytes = 9;
  assert_int_equal(hwprof_meta_open(&m, &x, sizeof x), kHwprofBadArg);
  x = good();
  x.h.counters_at = 0xfffffffcu; /* its counters would run past the address space */
  assert_int_equal(hwprof_meta_open(&m, &x, sizeof x), kHwprofBadArg);
  assert_null(m.hdr);
}

/* A function's faults: the header opens, the function's check refuses it (and so does the whole
 * check); what the firmware reads before that check, the record's ranges, is refused by
 * hwprof_meta_func_fits where it points outside the tables. */
static void expect_func_refused(blob_t x, bool fits) {
  hwprof_meta_t m;
  assert_int_equal(hwprof_meta_open(&m, &x, sizeof x), kHwprofOk);
  assert_int_equal(hwprof_meta_func_fits(&m, 0), fits);
  assert_int_equal(hwprof_meta_check_func(&m, 0), kHwprofBadArg);
  assert_int_equal(hwprof_meta_check_all(&m), kHwprofBadArg);
}

static void test_meta_check_refuses_malformed_functions(void **state) {
  (void)state;
  blob_t x = good();
  x.f.nblocks = 3; /* past the block table */
  expect_func_refused(x, false);
  x = good();
  x.f.first_branch = 1; /* past the branch table */
  expect_func_refused(x, false);
  x = good();
  x.f.ncounters = 4; /* past the counter areas (3 counters in all) */
  expect_func_refused(x, false);
  x = good();
  x.f.base = 0x80c00002u; /* not on a counter */
  expect_func_refused(x, false);
  x = good();
  x.b[1].new_end = 0x80800110u; /* ends before it starts */
  expect_func_refused(x, true);
  x = good();
  x.e[1].counter = 3; /* past the function's counters */
  expect_func_refused(x, true);
  x = good();
  x.e[0].dst = 2; /* past the function's blocks */
  expect_func_refused(x, true);
  x = good();
  x.br.not_taken = 2; /* a return edge, not a not-taken one */
  expect_func_refused(x, true);
  x = good();
  x.br.func = 1; /* another function's record in this one's range */
  expect_func_refused(x, true);
  x = good();
  x.e[1].counter = HWPROF_META_NONE; /* a derived edge: no branch of the optimizer's */
  expect_func_refused(x, true);
}

/* The branch ranges must cover the table in order: a function that claims none leaves a record
 * nobody's, which only the whole check sees. */
static void test_meta_check_all_refuses_a_record_out_of_range(void **state) {
  (void)state;
  blob_t x = good();
  x.f.nbranches = 0;
  hwprof_meta_t m;
  assert_int_equal(hwprof_meta_open(&m, &x, sizeof x), kHwprofOk);
  assert_int_equal(hwprof_meta_check_func(&m, 0), kHwprofOk);
  assert_int_equal(hwprof_meta_check_all(&m), kHwprofBadArg);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_meta_open_reads_a_consistent_blob),
      cmocka_unit_test(test_meta_open_refuses_malformed_headers),
      cmocka_unit_test(test_meta_check_refuses_malformed_functions),
      cmocka_unit_test(test_meta_check_all_refuses_a_record_out_of_range),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
