/* Unit tests of the edge-profiling driver (sw/fw/drivers/hwprof_edge.c) against a fake register file: what
 * the driver writes, in what order, and that a bad argument touches nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hwprof_edge.h"
#include "autogen/hwprof_regs.h"

#define BUSY_FOREVER 0xffffffffu

typedef struct {
  uint32_t reg[0x10000 / 4];
  unsigned reads, writes;
  unsigned busy_reads;      /* STATUS reads busy this many more times */
  unsigned busy_after_cmd;  /* busy_reads set by a CMD write; BUSY_FOREVER: never idle again */
  unsigned status_reads;
  unsigned cmd_writes;
  hwprof_edge_oab_entry_t oab[8];
  unsigned oab_count;
} fake_t;

static uint32_t fake_read(void *ctx, uint16_t off) {
  fake_t *f = ctx;
  f->reads++;
  if (off == HWPROF_EDGE_PROF_STATUS_ADDR) {
    f->status_reads++;
    if (f->busy_reads) {
      if (f->busy_reads != BUSY_FOREVER) f->busy_reads--;
      return 1u << HWPROF_EDGE_PROF_STATUS_BUSY_LSB;
    }
    return 0;
  }
  if (off == HWPROF_EDGE_PROF_OAB_STATUS_ADDR) return f->oab_count | (f->reg[off / 4] & 0x80000000u);
  unsigned idx = f->reg[HWPROF_EDGE_PROF_OAB_INDEX_ADDR / 4];
  if (off == HWPROF_EDGE_PROF_OAB_ENTRY_LO_ADDR) return idx < f->oab_count ? (uint32_t)f->oab[idx].addr : 0;
  if (off == HWPROF_EDGE_PROF_OAB_ENTRY_HI_ADDR)
    return idx < f->oab_count ? (uint32_t)(f->oab[idx].addr >> 32) | (uint32_t)f->oab[idx].underflow << 31 : 0;
  return f->reg[off / 4];
}

static void fake_write(void *ctx, uint16_t off, uint32_t v) {
  fake_t *f = ctx;
  f->writes++;
  if (off == HWPROF_EDGE_PROF_CMD_ADDR) {
    f->cmd_writes++;
    f->busy_reads = f->busy_after_cmd;
  }
  if (off == HWPROF_EDGE_PROF_OAB_CTRL_ADDR && (v & 1u)) {
    f->oab_count = 0;
    f->reg[HWPROF_EDGE_PROF_OAB_STATUS_ADDR / 4] = 0;
    return;
  }
  if (off == HWPROF_TOP_IRQ_PENDING_ADDR) {
    f->reg[off / 4] &= ~v; /* write 1 to clear */
    return;
  }
  f->reg[off / 4] = v;
}

static const hwprof_bus_t fake_bus = {fake_read, fake_write};

typedef struct {
  fake_t f;
  hwprof_t h;
} fixture_t;

static int setup(void **state) {
  static fixture_t fx;
  memset(&fx, 0, sizeof fx);
  fx.f.reg[HWPROF_TOP_ID_ADDR / 4] = HWPROF_TOP_ID_RESVAL;
  fx.h = (hwprof_t){.base = 0, .bus = &fake_bus, .bus_ctx = &fx.f};
  *state = &fx;
  return 0;
}

static void test_edge_driver_bad_arguments_touch_nothing(void **state) {
  fixture_t *fx = *state;
  hwprof_edge_oab_entry_t e[2];
  size_t n;
  bool ov;
  hwprof_pir_ctx_t ctx = {.base = UINT64_C(1) << 40}, bad_link = {.link = 1u << 9}, bad_sum = {.path_sum = 1u << 13},
                   bad_stack = {.path_stack = 1u << 9};
  assert_int_equal(hwprof_edge_set_bounds(&fx->h, (hwprof_edge_bounds_t){.lo = 8, .hi = 8}), kHwprofBadArg);
  assert_int_equal(hwprof_edge_set_bounds(&fx->h, (hwprof_edge_bounds_t){.lo = 0, .hi = (UINT64_C(1) << 40) + 1}),
                   kHwprofBadArg);
  assert_int_equal(hwprof_edge_arm_trigger(&fx->h, 0), kHwprofBadArg);
  assert_int_equal(hwprof_edge_arm_trigger(&fx->h, 0x8000), kHwprofBadArg);
  assert_int_equal(hwprof_edge_flush(&fx->h, false, 0), kHwprofBadArg);
  assert_int_equal(hwprof_edge_read_oab(&fx->h, NULL, 2, &n, &ov), kHwprofBadArg);
  assert_int_equal(hwprof_edge_read_oab(&fx->h, e, 2, NULL, &ov), kHwprofBadArg);
  assert_int_equal(hwprof_pir_restore(&fx->h, &ctx), kHwprofBadArg);
  assert_int_equal(hwprof_pir_restore(&fx->h, &bad_link), kHwprofBadArg);
  assert_int_equal(hwprof_pir_restore(&fx->h, &bad_sum), kHwprofBadArg);
  assert_int_equal(hwprof_pir_restore(&fx->h, &bad_stack), kHwprofBadArg);
  assert_int_equal(hwprof_edge_irq_handler(&fx->h, NULL), kHwprofBadArg);
  assert_int_equal(hwprof_edge_start(NULL), kHwprofBadArg);
  assert_int_equal(fx->f.reads + fx->f.writes, 0);
}

static void test_edge_driver_init_rejects_a_missing_device(void **state) {
  fixture_t *fx = *state;
  fx->f.reg[HWPROF_TOP_ID_ADDR / 4] = 0xdeadbeef;
  assert_int_equal(hwprof_edge_init(&fx->h), kHwprofNoDevice);
  assert_int_equal(fx->f.writes, 0);
  fx->f.reg[HWPROF_TOP_ID_ADDR / 4] = HWPROF_TOP_ID_RESVAL;
  fx->f.reg[HWPROF_PIR_CTRL_ADDR / 4] = 1;
  fx->f.reg[HWPROF_TOP_IRQ_PENDING_ADDR / 4] = 0x9;
  assert_int_equal(hwprof_edge_init(&fx->h), kHwprofOk);
  assert_int_equal(fx->f.reg[HWPROF_PIR_CTRL_ADDR / 4], 0);
  assert_int_equal(fx->f.reg[HWPROF_TOP_IRQ_PENDING_ADDR / 4], 0);
  assert_int_equal(fx->f.reg[HWPROF_TOP_IRQ_ENABLE_ADDR / 4], 0);
}

static void test_edge_driver_bounds_split_into_40_bit_registers(void **state) {
  fixture_t *fx = *state;
  assert_int_equal(hwprof_edge_set_bounds(&fx->h, (hwprof_edge_bounds_t){.lo = 0x1280000000ull, .hi = 0x12800f0000ull}),
                   kHwprofOk);
  assert_int_equal(fx->f.reg[HWPROF_EDGE_PROF_BOUND_LO_LO_ADDR / 4], 0x80000000u);
  assert_int_equal(fx->f.reg[HWPROF_EDGE_PROF_BOUND_LO_HI_ADDR / 4], 0x12);
  assert_int_equal(fx->f.reg[HWPROF_EDGE_PROF_BOUND_HI_LO_ADDR / 4], 0x800f0000u);
  assert_int_equal(fx->f.reg[HWPROF_EDGE_PROF_BOUND_HI_HI_ADDR / 4], 0x12);
}

static void test_edge_driver_flush_polls_until_idle(void **state) {
  fixture_t *fx = *state;
  fx->f.busy_after_cmd = 3; /* busy for three polls, idle on the fourth */
  assert_int_equal(hwprof_edge_flush(&fx->h, true, 10), kHwprofOk);
  assert_int_equal(fx->f.cmd_writes, 1);
  assert_int_equal(fx->f.reg[HWPROF_EDGE_PROF_CMD_ADDR / 4], 3u); /* FLUSH | INVALIDATE */
  assert_int_equal(fx->f.status_reads, 1 + 4);                   /* pre-check + 4 polls */
  assert_int_equal(hwprof_edge_invalidate(&fx->h, 10), kHwprofOk);
  assert_int_equal(fx->f.reg[HWPROF_EDGE_PROF_CMD_ADDR / 4], 2u);
}

static void test_edge_driver_flush_refused_while_busy(void **state) {
  fixture_t *fx = *state;
  fx->f.busy_reads = 1;
  assert_int_equal(hwprof_edge_flush(&fx->h, false, 10), kHwprofBusy);
  assert_int_equal(fx->f.cmd_writes, 0);
}

static void test_edge_driver_flush_times_out_after_max_polls(void **state) {
  fixture_t *fx = *state;
  fx->f.busy_after_cmd = BUSY_FOREVER;
  assert_int_equal(hwprof_edge_flush(&fx->h, false, 7), kHwprofTimeout);
  assert_int_equal(fx->f.status_reads, 1 + 7);
}

static void test_edge_driver_oab_read_oldest_first_then_cleared(void **state) {
  fixture_t *fx = *state;
  fx->f.oab[0] = (hwprof_edge_oab_entry_t){0x80000010ull, false};
  fx->f.oab[1] = (hwprof_edge_oab_entry_t){0xab80000020ull, true};
  fx->f.oab[2] = (hwprof_edge_oab_entry_t){0x80000030ull, false};
  fx->f.oab_count = 3;
  fx->f.reg[HWPROF_EDGE_PROF_OAB_STATUS_ADDR / 4] = 0x80000000u; /* overrun */
  hwprof_edge_oab_entry_t e[2];
  size_t n = 99;
  bool ov = false;
  assert_int_equal(hwprof_edge_read_oab(&fx->h, e, 2, &n, &ov), kHwprofOk);
  assert_int_equal(n, 2);
  assert_true(ov);
  assert_int_equal(e[0].addr, 0x80000010ull);
  assert_false(e[0].underflow);
  assert_int_equal(e[1].addr, 0xab80000020ull);
  assert_true(e[1].underflow);
  assert_int_equal(fx->f.oab_count, 0); /* cleared */
}

static void test_edge_driver_arm_trigger_enables_phase_and_error(void **state) {
  fixture_t *fx = *state;
  assert_int_equal(hwprof_edge_arm_trigger(&fx->h, 5), kHwprofOk);
  assert_int_equal(fx->f.reg[HWPROF_PIR_TRIGGER_ADDR / 4], 5);
  assert_int_equal(fx->f.reg[HWPROF_TOP_IRQ_ENABLE_ADDR / 4],
                   (1u << HWPROF_TOP_IRQ_ENABLE_PHASE_LSB) | (1u << HWPROF_TOP_IRQ_ENABLE_ERROR_LSB));
}

static void test_edge_driver_pir_save_restore_round_trip(void **state) {
  fixture_t *fx = *state;
  hwprof_pir_ctx_t in = {.base = 0x7f12345678ull, .offset = 0xabcdef, .trigger = 0x1234, .flag = true, .link = 0x105,
                         .path_sum = 0x1abc, .path_stack = 0x103},
                   out;
  assert_int_equal(hwprof_pir_restore(&fx->h, &in), kHwprofOk);
  assert_int_equal(hwprof_pir_save(&fx->h, &out), kHwprofOk);
  assert_int_equal(out.link, 0x105);
  assert_int_equal(out.base, in.base);
  assert_int_equal(out.offset, in.offset);
  assert_int_equal(out.trigger, in.trigger);
  assert_int_equal(out.flag, in.flag);
  assert_int_equal(out.path_sum, 0x1abc);
  assert_int_equal(out.path_stack, 0x103);
}

static void test_edge_driver_link_check_reads_the_sticky_error(void **state) {
  fixture_t *fx = *state;
  fx->f.reg[HWPROF_PIR_LINK_ADDR / 4] = 7; /* seven linked calls open, no error */
  assert_int_equal(hwprof_pir_link_check(&fx->h), kHwprofOk);
  fx->f.reg[HWPROF_PIR_LINK_ADDR / 4] = 1u << HWPROF_PIR_LINK_ERR_LSB;
  assert_int_equal(hwprof_pir_link_check(&fx->h), kHwprofLinkLost);
  assert_int_equal(hwprof_pir_link_check(NULL), kHwprofBadArg);
  fx->f.reg[HWPROF_PIR_PATH_STACK_ADDR / 4] = 8; /* eight sums saved, no error */
  assert_int_equal(hwprof_pir_path_check(&fx->h), kHwprofOk);
  fx->f.reg[HWPROF_PIR_PATH_STACK_ADDR / 4] = 1u << 8; /* ERR is bit 8 (regs/pir.json) */
  assert_int_equal(hwprof_pir_path_check(&fx->h), kHwprofPathLost);
  assert_int_equal(hwprof_pir_path_check(NULL), kHwprofBadArg);
}

static void test_edge_driver_handler_records_and_acknowledges(void **state) {
  fixture_t *fx = *state;
  hwprof_edge_log_t log = {0};
  fx->f.oab[0] = (hwprof_edge_oab_entry_t){0x80000040ull, false};
  fx->f.oab_count = 1;
  fx->f.reg[HWPROF_TOP_IRQ_PENDING_ADDR / 4] = (1u << HWPROF_TOP_IRQ_PENDING_PHASE_LSB) |
                                               (1u << HWPROF_TOP_IRQ_PENDING_ERROR_LSB);
  assert_int_equal(hwprof_edge_irq_handler(&fx->h, &log), kHwprofOk);
  assert_int_equal(log.phase_transitions, 1);
  assert_int_equal(log.errors, 1);
  assert_int_equal(log.entries, 1);
  assert_int_equal(log.entry[0].addr, 0x80000040ull);
  assert_int_equal(fx->f.reg[HWPROF_TOP_IRQ_PENDING_ADDR / 4], 0);
  /* nothing pending: nothing recorded */
  assert_int_equal(hwprof_edge_irq_handler(&fx->h, &log), kHwprofOk);
  assert_int_equal(log.phase_transitions, 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_edge_driver_bad_arguments_touch_nothing, setup),
      cmocka_unit_test_setup(test_edge_driver_init_rejects_a_missing_device, setup),
      cmocka_unit_test_setup(test_edge_driver_bounds_split_into_40_bit_registers, setup),
      cmocka_unit_test_setup(test_edge_driver_flush_polls_until_idle, setup),
      cmocka_unit_test_setup(test_edge_driver_flush_refused_while_busy, setup),
      cmocka_unit_test_setup(test_edge_driver_flush_times_out_after_max_polls, setup),
      cmocka_unit_test_setup(test_edge_driver_oab_read_oldest_first_then_cleared, setup),
      cmocka_unit_test_setup(test_edge_driver_arm_trigger_enables_phase_and_error, setup),
      cmocka_unit_test_setup(test_edge_driver_pir_save_restore_round_trip, setup),
      cmocka_unit_test_setup(test_edge_driver_link_check_reads_the_sticky_error, setup),
      cmocka_unit_test_setup(test_edge_driver_handler_records_and_acknowledges, setup),
  };
  return cmocka_run_group_tests_name("edge_driver", tests, NULL, NULL);
}
