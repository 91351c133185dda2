/* Tests of the phase ground truth (tb/oracle/phase_truth.c) on event streams built here: the windows,
 * each one's hot set and the changes are worked out by hand from the streams. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "oracle/phase_truth.h"

static char *buf;
static size_t len;
static FILE *out;
static phase_truth_t t;
static uint64_t instret;

static int setup(void **state) {
  (void)state;
  out = open_memstream(&buf, &len);
  instret = 0;
  return out == NULL || phase_truth_init(&t, out, 200) != 0;
}

static int teardown(void **state) {
  (void)state;
  phase_truth_free(&t);
  fclose(out);
  free(buf);
  return 0;
}

static void branch(uint32_t pc, bool taken, uint8_t trap) {
  hwprof_retire_ev_t e = {.valid = true, .pc = pc, .kind = HWPROF_KIND_BRANCH, .taken = taken, .trap = trap};
  phase_truth_event(&t, &e, ++instret);
}

static void other(void) {
  hwprof_retire_ev_t e = {.valid = true, .pc = 0x80000400u, .kind = HWPROF_KIND_OTHER};
  phase_truth_event(&t, &e, ++instret);
}

/* Window 1 (200 instructions): branch A 100 times, 90 taken (clear majority: taken), plus 100 others.
 * Window 2: A 100 times, 10 taken: its majority flipped, all of the window's branch executions:
 * change. Window 3: A again mostly not taken and B (new) 80 times, 50 / 50 (no clear majority): no
 * change. A trap handler's branches in between count for nothing. */
static void test_phase_truth_flip_is_a_change_and_a_balanced_branch_is_not(void **state) {
  (void)state;
  for (int i = 0; i < 100; i++) {
    branch(0x80000100u, i < 90, HWPROF_TRAP_NONE);
    other();
  }
  for (int i = 0; i < 50; i++) branch(0x80000900u, false, HWPROF_TRAP_HANDLER); /* not counted */
  for (int i = 0; i < 100; i++) {
    branch(0x80000100u, i < 10, HWPROF_TRAP_NONE);
    other();
  }
  for (int i = 0; i < 80; i++) {
    branch(0x80000100u, i < 8, HWPROF_TRAP_NONE);
    branch(0x80000200u, i % 2, HWPROF_TRAP_NONE);
  }
  for (int i = 0; i < 40; i++) other();
  /* window 4: C (new) 100 times, all taken, and A as before (B does not run): a change of new code
     only (kind 2), its edge half of the window's branch executions */
  for (int i = 0; i < 100; i++) {
    branch(0x80000300u, true, HWPROF_TRAP_NONE);
    branch(0x80000100u, i < 10, HWPROF_TRAP_NONE);
  }
  phase_truth_finish(&t, instret);
  fflush(out);
  assert_non_null(strstr(buf, "window 0 200 branches 1 hot 1 added 1 new 1 weight 100 change 0\n")); /* the first */
  assert_non_null(strstr(buf, "window 250 450 branches 1 hot 1 added 1 new 0 weight 100 change 1\n"));
  assert_non_null(strstr(buf, "window 450 650 branches 2 hot 1 added 0 new 0 weight 0 change 0\n"));
  assert_non_null(strstr(buf, "window 650 850 branches 2 hot 2 added 1 new 1 weight 50 change 2\n"));
  assert_non_null(strstr(buf, "end windows 4 changes 2\n"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_phase_truth_flip_is_a_change_and_a_balanced_branch_is_not, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
