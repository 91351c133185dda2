/* Unit tests of the pir C model (cmodel/pir/pir.c) against seed 000's rules (sections 6 and 7) and
 * the decisions in docs/architecture.md. Expected addresses are worked out here from the rule
 *   counter byte address = base + (offset + pid - 1 [+1 for the not-taken edge of either]) * bytes
 * never read back from the model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pir/pir.h"

typedef struct {
  hwprof_pir_state_t s;
  hwprof_pir_cfg_t cfg;
} fixture_t;

static int setup(void **state) {
  static fixture_t f;
  f.cfg.cnt_w = 32;
  f.cfg.line_words = 4;
  hwprof_pir_reset(&f.s);
  *state = &f;
  return 0;
}

/* One accepted retire event, one clock; returns the update operation it produced (visible after
 * the edge, as on the RTL's registered outputs). */
static hwprof_upd_op_t retire(fixture_t *f, const hwprof_retire_ev_t *ev) {
  hwprof_pir_in_t in = {.ev_fire = true, .ev = ev};
  hwprof_pir_step(&f->s, &f->cfg, &in);
  hwprof_pir_out_t out;
  hwprof_retire_ev_t idle = {0};
  hwprof_pir_in_t none = {.ev = &idle};
  hwprof_pir_comb(&f->s, &f->cfg, &none, &out);
  return out.upd;
}

static hwprof_upd_op_t prof_op(fixture_t *f, uint8_t op, uint64_t operand) {
  hwprof_retire_ev_t ev = {.valid = true, .kind = HWPROF_KIND_PROF, .op = op, .operand = operand};
  return retire(f, &ev);
}

static hwprof_upd_op_t branch(fixture_t *f, uint8_t kind, uint16_t pid, uint8_t bhint, bool taken, bool dec) {
  hwprof_retire_ev_t ev = {.valid = true, .kind = kind, .pid = pid, .bhint = bhint, .taken = taken, .ihint = dec};
  return retire(f, &ev);
}

/* register access through the window, one clock */
static bool reg_write(fixture_t *f, uint16_t addr, uint32_t data) {
  hwprof_retire_ev_t idle = {0};
  hwprof_pir_in_t in = {.ev = &idle, .reg = {.access = true, .write = true, .addr = addr, .wdata = data}};
  hwprof_pir_out_t out;
  hwprof_pir_comb(&f->s, &f->cfg, &in, &out);
  hwprof_pir_step(&f->s, &f->cfg, &in);
  return out.reg.error;
}

static uint32_t reg_read(fixture_t *f, uint16_t addr, bool *error) {
  hwprof_retire_ev_t idle = {0};
  hwprof_pir_in_t in = {.ev = &idle, .reg = {.access = true, .write = false, .addr = addr}};
  hwprof_pir_out_t out;
  hwprof_pir_comb(&f->s, &f->cfg, &in, &out);
  hwprof_pir_step(&f->s, &f->cfg, &in);
  if (error) *error = out.reg.error;
  return out.reg.rdata;
}

static void test_pir_reset_clears_every_field(void **state) {
  fixture_t *f = *state;
  assert_int_equal(f->s.base, 0);
  assert_int_equal(f->s.offset, 0);
  assert_int_equal(f->s.trigger, 0);
  assert_false(f->s.flag);
  assert_false(f->s.upd.valid);
}

static void test_pir_initprof_sets_base_and_clears_offset(void **state) {
  fixture_t *f = *state;
  prof_op(f, HWPROF_PROF_OP_SETOFF, 99);
  assert_int_equal(f->s.offset, 99);
  prof_op(f, HWPROF_PROF_OP_INIT, 0xab12345678ull);
  assert_int_equal(f->s.base, 0xab12345678ull);
  assert_int_equal(f->s.offset, 0);
  /* base_address is 40 bits: higher operand bits are dropped */
  prof_op(f, HWPROF_PROF_OP_INIT, 0xffffffffffffull);
  assert_int_equal(f->s.base, 0xffffffffffull);
}

static void test_pir_field_widths_follow_the_seed(void **state) {
  fixture_t *f = *state;
  prof_op(f, HWPROF_PROF_OP_SETOFF, 0x1234567);  /* offset: 24 bits */
  assert_int_equal(f->s.offset, 0x234567);
  prof_op(f, HWPROF_PROF_OP_TRIGGER, 0x1ffff);   /* trigger_counter: 15 bits */
  assert_int_equal(f->s.trigger, 0x7fff);
  prof_op(f, HWPROF_PROF_OP_START, 0);
  assert_true(f->s.flag);
  prof_op(f, HWPROF_PROF_OP_STOP, 0);
  assert_false(f->s.flag);
}

/* one row of the update-operation table */
typedef struct {
  uint8_t kind, bhint;
  bool taken;
  bool hit;
  unsigned extra; /* 1 for the not-taken edge of an either branch */
} row_t;

static void test_pir_update_table_every_row(void **state) {
  fixture_t *f = *state;
  const uint64_t base = 0x4000;
  const uint32_t offset = 10;
  const uint16_t pid = 3;
  const row_t rows[] = {
      {HWPROF_KIND_BRANCH, HWPROF_BHINT_TK, true, true, 0},
      {HWPROF_KIND_BRANCH, HWPROF_BHINT_TK, false, false, 0},
      {HWPROF_KIND_BRANCH, HWPROF_BHINT_NT, false, true, 0},
      {HWPROF_KIND_BRANCH, HWPROF_BHINT_NT, true, false, 0},
      {HWPROF_KIND_BRANCH, HWPROF_BHINT_EITHER, true, true, 0},
      {HWPROF_KIND_BRANCH, HWPROF_BHINT_EITHER, false, true, 1},
      {HWPROF_KIND_BRANCH, HWPROF_BHINT_ALL, true, true, 0},
      {HWPROF_KIND_BRANCH, HWPROF_BHINT_ALL, false, true, 0},
      {HWPROF_KIND_IJUMP, HWPROF_BHINT_ALL, true, true, 0},
      {HWPROF_KIND_JUMP, HWPROF_BHINT_TK, true, true, 0},
      /* op 0 is ID: a load, store or other instruction with a pid is a carrier word's prof.id,
       * which counts whatever its hint and outcome */
      {HWPROF_KIND_LOAD, HWPROF_BHINT_ALL, true, true, 0},
      {HWPROF_KIND_STORE, HWPROF_BHINT_NT, true, true, 0},
      {HWPROF_KIND_OTHER, HWPROF_BHINT_TK, false, true, 0},
  };
  prof_op(f, HWPROF_PROF_OP_INIT, base);
  prof_op(f, HWPROF_PROF_OP_SETOFF, offset);
  prof_op(f, HWPROF_PROF_OP_START, 0);
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    for (int dec = 0; dec < 2; dec++) {
      hwprof_upd_op_t u = branch(f, rows[i].kind, pid, rows[i].bhint, rows[i].taken, dec);
      assert_int_equal(u.valid, rows[i].hit);
      if (rows[i].hit) {
        assert_int_equal(u.addr, base + (uint64_t)(offset + pid - 1 + rows[i].extra) * 4);
        assert_int_equal(u.dec, dec);
      }
    }
  }
}

static void test_pir_prof_id_updates_counter_idx(void **state) {
  fixture_t *f = *state;
  prof_op(f, HWPROF_PROF_OP_INIT, 0x100);
  prof_op(f, HWPROF_PROF_OP_START, 0);
  hwprof_retire_ev_t ev = {.valid = true, .kind = HWPROF_KIND_PROF, .op = HWPROF_PROF_OP_ID, .pid = 1,
                    .bhint = HWPROF_BHINT_NT, .taken = true};
  hwprof_upd_op_t u = retire(f, &ev);
  assert_true(u.valid);
  assert_int_equal(u.addr, 0x100);
  ev.pid = 0;
  assert_false(retire(f, &ev).valid);
}

/* Carrier words (docs/pir.md): kinds OTHER, LOAD and STORE act as prof.init, prof.setoff and
 * prof.id when their op says so; other ops, or op ID with pid 0, do nothing; a handler's nothing. */
static void test_pir_carrier_words_act_as_profiling_instructions(void **state) {
  fixture_t *f = *state;
  prof_op(f, HWPROF_PROF_OP_START, 0);
  hwprof_retire_ev_t ev = {.valid = true, .kind = HWPROF_KIND_OTHER, .op = HWPROF_PROF_OP_INIT, .operand = 0x2000};
  assert_false(retire(f, &ev).valid);
  ev = (hwprof_retire_ev_t){.valid = true, .kind = HWPROF_KIND_LOAD, .op = HWPROF_PROF_OP_SETOFF, .operand = 5};
  assert_false(retire(f, &ev).valid);
  ev = (hwprof_retire_ev_t){.valid = true, .kind = HWPROF_KIND_STORE, .op = HWPROF_PROF_OP_ID, .pid = 3, .ihint = true};
  hwprof_upd_op_t u = retire(f, &ev);
  assert_true(u.valid);
  assert_true(u.dec);
  assert_int_equal(u.addr, 0x2000 + (5 + 3 - 1) * 4); /* 0x201c */
  ev.pid = 0;
  assert_false(retire(f, &ev).valid);
  /* ops a carrier word never gives change nothing: STOP on a load, TRIGGER on an ALU instruction */
  ev = (hwprof_retire_ev_t){.valid = true, .kind = HWPROF_KIND_LOAD, .op = HWPROF_PROF_OP_STOP};
  retire(f, &ev);
  ev = (hwprof_retire_ev_t){.valid = true, .kind = HWPROF_KIND_OTHER, .op = HWPROF_PROF_OP_TRIGGER, .operand = 9};
  retire(f, &ev);
  assert_int_equal(f->s.trigger, 0);
  /* a trap handler's carrier word changes nothing */
  ev = (hwprof_retire_ev_t){.valid = true, .kind = HWPROF_KIND_OTHER, .op = HWPROF_PROF_OP_INIT, .operand = 0x3000,
                            .trap = HWPROF_TRAP_HANDLER};
  retire(f, &ev);
  ev = (hwprof_retire_ev_t){.valid = true, .kind = HWPROF_KIND_OTHER, .op = HWPROF_PROF_OP_ID, .pid = 1};
  u = retire(f, &ev);
  assert_true(u.valid); /* profiling still on */
  assert_false(u.dec);
  assert_int_equal(u.addr, 0x2000 + 5 * 4); /* base and offset unchanged: 0x2014 */
}

static void test_pir_flag_zero_or_pid_zero_gives_no_update(void **state) {
  fixture_t *f = *state;
  prof_op(f, HWPROF_PROF_OP_INIT, 0x100);
  assert_false(branch(f, HWPROF_KIND_BRANCH, 1, HWPROF_BHINT_ALL, true, false).valid);
  prof_op(f, HWPROF_PROF_OP_START, 0);
  assert_false(branch(f, HWPROF_KIND_BRANCH, 0, HWPROF_BHINT_ALL, true, false).valid);
  assert_true(branch(f, HWPROF_KIND_BRANCH, 1, HWPROF_BHINT_ALL, true, false).valid);
  prof_op(f, HWPROF_PROF_OP_STOP, 0);
  assert_false(branch(f, HWPROF_KIND_BRANCH, 1, HWPROF_BHINT_ALL, true, false).valid);
}

static void test_pir_update_appears_one_cycle_after_the_event(void **state) {
  fixture_t *f = *state;
  prof_op(f, HWPROF_PROF_OP_START, 0);
  hwprof_retire_ev_t ev = {.valid = true, .kind = HWPROF_KIND_BRANCH, .pid = 2, .bhint = HWPROF_BHINT_ALL};
  hwprof_pir_in_t in = {.ev_fire = true, .ev = &ev};
  hwprof_pir_out_t out;
  hwprof_pir_comb(&f->s, &f->cfg, &in, &out);
  assert_false(out.upd.valid); /* not in the event's own cycle */
  hwprof_pir_step(&f->s, &f->cfg, &in);
  hwprof_retire_ev_t idle = {0};
  hwprof_pir_in_t none = {.ev = &idle};
  hwprof_pir_comb(&f->s, &f->cfg, &none, &out);
  assert_true(out.upd.valid);
  assert_int_equal(out.upd.addr, 4);
  hwprof_pir_step(&f->s, &f->cfg, &none);
  hwprof_pir_comb(&f->s, &f->cfg, &none, &out);
  assert_false(out.upd.valid); /* exactly one operation */
}

static void test_pir_counter_width_scales_the_address(void **state) {
  fixture_t *f = *state;
  const unsigned widths[] = {8, 16, 32, 64};
  for (size_t i = 0; i < 4; i++) {
    f->cfg.cnt_w = widths[i];
    assert_int_equal(hwprof_pir_cfg_check(&f->cfg), kHwprofOk);
    prof_op(f, HWPROF_PROF_OP_INIT, 0x1000);
    prof_op(f, HWPROF_PROF_OP_START, 0);
    hwprof_upd_op_t u = branch(f, HWPROF_KIND_BRANCH, 5, HWPROF_BHINT_TK, true, false);
    assert_int_equal(u.addr, 0x1000 + 4 * (widths[i] / 8));
  }
}

static void test_pir_cfg_check_rejects_bad_width(void **state) {
  (void)state;
  hwprof_pir_cfg_t bad = {.cnt_w = 24, .line_words = 4};
  assert_int_equal(hwprof_pir_cfg_check(&bad), kHwprofBadArg);
  const unsigned lines[] = {0, 1, 3, 16};
  for (unsigned i = 0; i < sizeof lines / sizeof lines[0]; i++) {
    hwprof_pir_cfg_t l = {.cnt_w = 32, .line_words = lines[i]};
    assert_int_equal(hwprof_pir_cfg_check(&l), kHwprofBadArg);
  }
  assert_int_equal(hwprof_pir_cfg_check(NULL), kHwprofBadArg);
}

static void test_pir_address_wraps_at_40_bits(void **state) {
  fixture_t *f = *state;
  prof_op(f, HWPROF_PROF_OP_INIT, 0xfffffffff8ull);
  prof_op(f, HWPROF_PROF_OP_START, 0);
  hwprof_upd_op_t u = branch(f, HWPROF_KIND_BRANCH, 4, HWPROF_BHINT_TK, true, false);
  assert_int_equal(u.addr, (0xfffffffff8ull + 12) & 0xffffffffffull);
}

static void test_pir_registers_save_and_restore_every_field(void **state) {
  fixture_t *f = *state;
  bool err = true;
  assert_false(reg_write(f, HWPROF_PIR_BASE_LO_ADDR, 0x89abcdef));
  assert_false(reg_write(f, HWPROF_PIR_BASE_HI_ADDR, 0xffffff42)); /* only 8 bits exist */
  assert_false(reg_write(f, HWPROF_PIR_OFFSET_ADDR, 0xff123456));
  assert_false(reg_write(f, HWPROF_PIR_TRIGGER_ADDR, 0xffff1234));
  assert_false(reg_write(f, HWPROF_PIR_CTRL_ADDR, 0xfffffff1));
  assert_int_equal(f->s.base, 0x4289abcdefull);
  assert_int_equal(reg_read(f, HWPROF_PIR_BASE_HI_ADDR, &err), 0x42);
  assert_false(err);
  assert_int_equal(reg_read(f, HWPROF_PIR_BASE_LO_ADDR, &err), 0x89abcdef);
  assert_int_equal(reg_read(f, HWPROF_PIR_OFFSET_ADDR, &err), 0x123456);
  assert_int_equal(reg_read(f, HWPROF_PIR_TRIGGER_ADDR, &err), 0x1234);
  assert_int_equal(reg_read(f, HWPROF_PIR_CTRL_ADDR, &err), 1);
}

static void test_pir_misuse_answers_error_and_changes_nothing(void **state) {
  fixture_t *f = *state;
  prof_op(f, HWPROF_PROF_OP_START, 0);
  branch(f, HWPROF_KIND_BRANCH, 1, HWPROF_BHINT_ALL, true, false);
  hwprof_pir_state_t before = f->s;
  bool err = false;
  assert_true(reg_write(f, HWPROF_PIR_BASE_LO_ADDR + 0x80, 0x5)); /* unmapped */
  assert_true(reg_write(f, HWPROF_PIR_LINK_SPILL_ADDR + 4, 0)); /* unmapped: after the last register */
  assert_int_equal(reg_read(f, HWPROF_PIR_BASE_LO_ADDR + 0x80, &err), 0);
  assert_true(err);
  assert_memory_equal(&f->s.stats, &before.stats, sizeof before.stats);
  assert_int_equal(f->s.base, before.base);
  assert_int_equal(f->s.offset, before.offset);
  assert_int_equal(f->s.flag, before.flag);
}

static void test_pir_statistics_count_events_and_updates(void **state) {
  fixture_t *f = *state;
  prof_op(f, HWPROF_PROF_OP_START, 0);                                  /* event 1 */
  branch(f, HWPROF_KIND_BRANCH, 1, HWPROF_BHINT_TK, true, false);       /* 2, update */
  branch(f, HWPROF_KIND_BRANCH, 1, HWPROF_BHINT_TK, false, false);      /* 3 */
  branch(f, HWPROF_KIND_BRANCH, 1, HWPROF_BHINT_EITHER, false, true);   /* 4, update */
  assert_int_equal(reg_read(f, HWPROF_PIR_STAT_EVENTS_ADDR, NULL), 4);
  assert_int_equal(reg_read(f, HWPROF_PIR_STAT_UPDATES_ADDR, NULL), 2);
}

/* A statistics register takes a write (a preset, or a value restored after a context switch); the
 * counter goes on from the value written and wraps at 2^32. */
static void test_pir_statistics_written_then_counted(void **state) {
  fixture_t *f = *state;
  prof_op(f, HWPROF_PROF_OP_START, 0);                                  /* event 1 */
  assert_false(reg_write(f, HWPROF_PIR_STAT_EVENTS_ADDR, 0xffffffffu));
  assert_false(reg_write(f, HWPROF_PIR_STAT_UPDATES_ADDR, 41));
  assert_int_equal(reg_read(f, HWPROF_PIR_STAT_EVENTS_ADDR, NULL), 0xffffffffu);
  assert_int_equal(reg_read(f, HWPROF_PIR_STAT_UPDATES_ADDR, NULL), 41);
  branch(f, HWPROF_KIND_BRANCH, 1, HWPROF_BHINT_TK, true, false);       /* an event and an update */
  assert_int_equal(reg_read(f, HWPROF_PIR_STAT_EVENTS_ADDR, NULL), 0);  /* wrapped */
  assert_int_equal(reg_read(f, HWPROF_PIR_STAT_UPDATES_ADDR, NULL), 42);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_pir_reset_clears_every_field, setup),
      cmocka_unit_test_setup(test_pir_statistics_written_then_counted, setup),
      cmocka_unit_test_setup(test_pir_initprof_sets_base_and_clears_offset, setup),
      cmocka_unit_test_setup(test_pir_field_widths_follow_the_seed, setup),
      cmocka_unit_test_setup(test_pir_update_table_every_row, setup),
      cmocka_unit_test_setup(test_pir_prof_id_updates_counter_idx, setup),
      cmocka_unit_test_setup(test_pir_carrier_words_act_as_profiling_instructions, setup),
      cmocka_unit_test_setup(test_pir_flag_zero_or_pid_zero_gives_no_update, setup),
      cmocka_unit_test_setup(test_pir_update_appears_one_cycle_after_the_event, setup),
      cmocka_unit_test_setup(test_pir_counter_width_scales_the_address, setup),
      cmocka_unit_test_setup(test_pir_cfg_check_rejects_bad_width, setup),
      cmocka_unit_test_setup(test_pir_address_wraps_at_40_bits, setup),
      cmocka_unit_test_setup(test_pir_registers_save_and_restore_every_field, setup),
      cmocka_unit_test_setup(test_pir_misuse_answers_error_and_changes_nothing, setup),
      cmocka_unit_test_setup(test_pir_statistics_count_events_and_updates, setup),
  };
  return cmocka_run_group_tests_name("pir", tests, NULL, NULL);
}
