/* Tests of the edge-profiling unit's C model (cmodel/edge_prof/edge_prof.c inside cmodel/top/top.c), driven the
 * way firmware drives the hardware: the driver (sw/fw/drivers/hwprof_edge.c) runs against the model through
 * APB transactions, retire events go in through the retire port, and the counters land in a memory
 * model (cmodel/mem/mem_model.c). Expected values follow from the decisions in docs/architecture.md and seed 000. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hwprof_edge.h"
#include "mem/mem_model.h"
#include "lib/model_sys.h"

#define MEM_BASE UINT64_C(0x80000000)
#define MEM_SIZE UINT64_C(0x4000)
#define MAXC UINT64_C(0xffffffff)

typedef struct {
  model_sys_t sys;
  hwprof_mem_model_t mem;
} fixture_t;

#define SYS(state) (&((fixture_t *)*(state))->sys)

static uint32_t apb(model_sys_t *y, bool write, uint16_t addr, uint32_t data) {
  return model_sys_apb(y, write, addr, data);
}
static unsigned retire(model_sys_t *y, hwprof_retire_ev_t ev) { return model_sys_retire(y, ev); }

static hwprof_retire_ev_t init_at(uint64_t base) {
  return (hwprof_retire_ev_t){.valid = true, .kind = HWPROF_KIND_PROF, .op = HWPROF_PROF_OP_INIT, .operand = base};
}
static hwprof_retire_ev_t inc_edge(uint16_t pid) {
  return (hwprof_retire_ev_t){.valid = true, .kind = HWPROF_KIND_BRANCH, .pid = pid, .bhint = HWPROF_BHINT_ALL, .taken = 1};
}
static hwprof_retire_ev_t dec_edge(uint16_t pid) {
  hwprof_retire_ev_t e = inc_edge(pid);
  e.ihint = true;
  return e;
}

static uint64_t counter(model_sys_t *y, uint64_t addr) {
  uint64_t v = 0;
  assert_true(hwprof_mem_model_peek(y->mem, addr, &v));
  return v;
}

static int setup_with(void **state, unsigned lat_max, unsigned grant) {
  static fixture_t fx;
  hwprof_top_cfg_t cfg;
  hwprof_top_cfg_default(&cfg);
  assert_int_equal(hwprof_top_cfg_check(&cfg), kHwprofOk);
  hwprof_mem_model_cfg_t mc = {MEM_BASE, MEM_SIZE, 32, cfg.edge_prof.line_words, 1, lat_max, grant, 7};
  assert_int_equal(hwprof_mem_model_init(&fx.mem, &mc), kHwprofOk);
  model_sys_init(&fx.sys, &cfg, &fx.mem);
  assert_int_equal(hwprof_edge_init(&fx.sys.h), kHwprofOk);
  assert_int_equal(hwprof_edge_set_bounds(&fx.sys.h, (hwprof_edge_bounds_t){MEM_BASE, MEM_BASE + MEM_SIZE}),
                   kHwprofOk);
  *state = &fx;
  return 0;
}
static int setup(void **state) { return setup_with(state, 6, 60); }
static int setup_slow_memory(void **state) { return setup_with(state, 400, 100); }
static int teardown(void **state) {
  hwprof_mem_model_free(&((fixture_t *)*state)->mem);
  return 0;
}

static void test_edge_prof_driver_flush_writes_exact_counts(void **state) {
  model_sys_t *y = SYS(state);
  assert_int_equal(hwprof_edge_start(&y->h), kHwprofOk);
  retire(y, init_at(MEM_BASE + 0x100));
  for (int i = 0; i < 5; i++) retire(y, inc_edge(1));
  for (int i = 0; i < 3; i++) retire(y, inc_edge(2));
  retire(y, dec_edge(3));
  assert_int_equal(hwprof_edge_flush(&y->h, false, 1000), kHwprofOk);
  assert_int_equal(counter(y, MEM_BASE + 0x100), 5);
  assert_int_equal(counter(y, MEM_BASE + 0x104), 3);
  assert_int_equal(counter(y, MEM_BASE + 0x108), MAXC); /* 0 - 1 wraps */
  hwprof_edge_stats_t st;
  assert_int_equal(hwprof_edge_read_stats(&y->h, &st), kHwprofOk);
  assert_int_equal(st.updates, 9);
  assert_int_equal(st.underflows, 1);
  assert_int_equal(st.overflows, 0);
}

static void test_edge_prof_driver_handles_a_phase_transition(void **state) {
  model_sys_t *y = SYS(state);
  hwprof_edge_log_t log = {0};
  assert_true(hwprof_mem_model_poke(y->mem, MEM_BASE + 0x200, MAXC - 1)); /* MAX_VALUE - 2: threshold 2 */
  assert_true(hwprof_mem_model_poke(y->mem, MEM_BASE + 0x204, MAXC));     /* MAX_VALUE - 1: threshold 1 */
  assert_int_equal(hwprof_edge_arm_trigger(&y->h, 2), kHwprofOk);
  assert_int_equal(hwprof_edge_start(&y->h), kHwprofOk);
  retire(y, init_at(MEM_BASE + 0x200));
  retire(y, inc_edge(2)); /* overflow: trigger 2 -> 1 */
  retire(y, inc_edge(1));
  assert_int_equal(hwprof_edge_flush(&y->h, false, 1000), kHwprofOk);
  assert_false(y->out.irq_phase);
  retire(y, inc_edge(1)); /* the second increment overflows: trigger 1 -> 0 */
  assert_int_equal(hwprof_edge_flush(&y->h, false, 1000), kHwprofOk);
  assert_true(y->out.irq_phase);
  assert_int_equal(hwprof_edge_irq_handler(&y->h, &log), kHwprofOk);
  assert_int_equal(log.phase_transitions, 1);
  assert_int_equal(log.entries, 2);
  assert_int_equal(log.entry[0].addr, MEM_BASE + 0x204);
  assert_int_equal(log.entry[1].addr, MEM_BASE + 0x200);
  apb(y, false, HWPROF_TOP_ID_ADDR, 0); /* one more cycle: the level follows the pending bit */
  assert_false(y->out.irq_phase);
}

static void test_edge_prof_full_update_buffer_stalls_and_loses_nothing(void **state) {
  model_sys_t *y = SYS(state); /* slow memory: the first miss holds the buffer */
  const unsigned depth = y->cfg.edge_prof.upd_depth;
  assert_int_equal(hwprof_edge_start(&y->h), kHwprofOk);
  retire(y, init_at(MEM_BASE));
  unsigned waited[12];
  for (unsigned i = 0; i < depth + 2; i++) waited[i] = retire(y, inc_edge((uint16_t)(1 + i)));
  /* the first depth updates find room (one in flight counts), the next waits for the memory */
  for (unsigned i = 0; i < depth; i++) assert_int_equal(waited[i], 0);
  assert_true(waited[depth] > 0);
  assert_int_equal(hwprof_edge_flush(&y->h, false, 100000), kHwprofOk);
  for (unsigned i = 0; i < depth + 2; i++) assert_int_equal(counter(y, MEM_BASE + 4 * i), 1);
  hwprof_edge_stats_t st;
  assert_int_equal(hwprof_edge_read_stats(&y->h, &st), kHwprofOk);
  assert_true(st.stalls >= waited[depth]);
}

static void test_edge_prof_command_while_busy_is_refused(void **state) {
  model_sys_t *y = SYS(state); /* slow memory: a flush of a dirty line takes a while */
  assert_int_equal(hwprof_edge_start(&y->h), kHwprofOk);
  retire(y, init_at(MEM_BASE));
  retire(y, inc_edge(1));
  apb(y, true, HWPROF_EDGE_PROF_CMD_ADDR, 1u << HWPROF_EDGE_PROF_CMD_FLUSH_LSB);
  assert_false(y->pslverr);
  assert_true(apb(y, false, HWPROF_EDGE_PROF_STATUS_ADDR, 0) & 1u);
  apb(y, true, HWPROF_EDGE_PROF_CMD_ADDR, 1u << HWPROF_EDGE_PROF_CMD_INVALIDATE_LSB);
  assert_true(y->pslverr);
  assert_false(y->s.edge_prof.cmd_inval); /* the running command is unchanged */
  for (int i = 0; i < 10000 && (apb(y, false, HWPROF_EDGE_PROF_STATUS_ADDR, 0) & 1u); i++) {
  }
  assert_int_equal(counter(y, MEM_BASE), 1);
}

static void test_edge_prof_trigger_saturates_and_stays_disarmed_at_zero(void **state) {
  model_sys_t *y = SYS(state);
  hwprof_pir_ctx_t ctx = {.base = MEM_BASE, .offset = 0, .trigger = 0x7fff, .flag = true};
  assert_int_equal(hwprof_pir_restore(&y->h, &ctx), kHwprofOk);
  retire(y, dec_edge(1)); /* 0 - 1: underflow; trigger at its maximum stays there */
  assert_int_equal(hwprof_edge_flush(&y->h, false, 1000), kHwprofOk);
  assert_int_equal(hwprof_pir_save(&y->h, &ctx), kHwprofOk);
  assert_int_equal(ctx.trigger, 0x7fff);
  ctx.trigger = 0;
  assert_int_equal(hwprof_pir_restore(&y->h, &ctx), kHwprofOk);
  retire(y, dec_edge(2)); /* another underflow: a disarmed trigger stays 0 */
  assert_true(hwprof_mem_model_poke(y->mem, MEM_BASE + 8, MAXC));
  retire(y, inc_edge(3)); /* an overflow: still 0, and no interrupt */
  assert_int_equal(hwprof_edge_flush(&y->h, false, 1000), kHwprofOk);
  assert_int_equal(hwprof_pir_save(&y->h, &ctx), kHwprofOk);
  assert_int_equal(ctx.trigger, 0);
  assert_int_equal(apb(y, false, HWPROF_TOP_IRQ_PENDING_ADDR, 0), 0);
}

/* A path word on prof.path (docs/path.md): operation k, values a and b. */
static hwprof_retire_ev_t path_word(unsigned k, uint32_t a, uint32_t b) {
  return (hwprof_retire_ev_t){.valid = true, .kind = HWPROF_KIND_PROF, .op = HWPROF_PROF_OP_PATH,
                              .operand = k << HWPROF_PATH_KIND_LSB | a << HWPROF_PATH_A_LSB | b << HWPROF_PATH_B_LSB};
}

/* The path stack goes on in memory past its entries, and a context switch in the middle keeps every
 * sum: 300 ENTERs push 1..300 (sum 0 + a), another program's pir runs in between, and 300 POPs give
 * them back newest first (sum = the popped value + 0), without an error; one more POP has nothing. */
static void test_edge_prof_path_stack_spills_and_survives_a_context_switch(void **state) {
  model_sys_t *y = SYS(state);
  const uint64_t spill = MEM_BASE + MEM_SIZE / 2; /* above the bounds below */
  assert_int_equal(hwprof_edge_set_bounds(&y->h, (hwprof_edge_bounds_t){MEM_BASE, spill}), kHwprofOk);
  assert_int_equal(hwprof_pir_path_spill(&y->h, spill + 1, 64), kHwprofBadArg); /* misaligned */
  assert_int_equal(hwprof_pir_path_spill(&y->h, spill, 100), kHwprofBadArg);    /* not whole blocks */
  assert_int_equal(hwprof_pir_path_spill(&y->h, spill, MEM_SIZE / 2), kHwprofOk);
  const unsigned n = 300, held = HWPROF_PATH_STACK_ENTRIES;
  for (unsigned i = 1; i <= n; i++) retire(y, path_word(HWPROF_PATH_OP_ENTER, i, 0));
  assert_int_equal(apb(y, false, HWPROF_PIR_PATH_STACK_ADDR, 0), held); /* no error, 32 held */
  assert_int_equal(apb(y, false, HWPROF_PIR_PATH_SPILL_ADDR, 0) >> HWPROF_PIR_PATH_SPILL_LINES_LSB, n - held);
  /* the oldest spilled sum is in line 0 of the area, its low bits */
  assert_int_equal(counter(y, spill) & 0x1fffu, 1);

  hwprof_pir_ctx_t saved, other = {.base = MEM_BASE, .flag = true};
  assert_int_equal(hwprof_pir_save(&y->h, &saved), kHwprofOk);
  for (unsigned i = 0; i < held; i++) assert_int_equal(saved.path_entry[i], n - held + 1 + i);
  assert_int_equal(hwprof_pir_restore(&y->h, &other), kHwprofOk); /* another program: an empty stack */
  for (unsigned i = 1; i <= 40; i++) retire(y, path_word(HWPROF_PATH_OP_ENTER, 0x1000 + i, 0));
  assert_int_equal(hwprof_pir_restore(&y->h, &saved), kHwprofOk);

  for (unsigned i = n; i >= 1; i--) {
    retire(y, path_word(HWPROF_PATH_OP_POP, 0, 0));
    assert_int_equal(apb(y, false, HWPROF_PIR_PATH_SUM_ADDR, 0), i);
  }
  assert_int_equal(hwprof_pir_path_check(&y->h), kHwprofOk);
  assert_int_equal(apb(y, false, HWPROF_PIR_PATH_SPILL_ADDR, 0) >> HWPROF_PIR_PATH_SPILL_LINES_LSB, 0);
  retire(y, path_word(HWPROF_PATH_OP_POP, 0, 0));
  assert_int_equal(hwprof_pir_path_check(&y->h), kHwprofPathLost);
}

/* The link stack's entries are in the window: three linked calls save {base, offset} and the sum,
 * a context switch clears and restores them, and the returns give each caller its pir back. */
static void test_edge_prof_link_entries_survive_a_context_switch(void **state) {
  model_sys_t *y = SYS(state);
  hwprof_pir_ctx_t saved, other = {.base = MEM_BASE};
  for (unsigned i = 0; i < 3; i++) {
    retire(y, init_at(MEM_BASE + 0x40 * i));
    retire(y, (hwprof_retire_ev_t){.valid = true, .kind = HWPROF_KIND_PROF, .op = HWPROF_PROF_OP_SETOFF, .operand = 5 + i});
    retire(y, path_word(HWPROF_PATH_OP_SET, 100 + i, 0));
    retire(y, (hwprof_retire_ev_t){.valid = true, .kind = HWPROF_KIND_JUMP, .is_call = true, .taken = true,
                                   .op = HWPROF_PROF_OP_PUSH, .operand = MEM_BASE + 0x1000});
  }
  assert_int_equal(hwprof_pir_save(&y->h, &saved), kHwprofOk);
  for (unsigned i = 0; i < 3; i++) {
    assert_int_equal(saved.link_entry[i].base, MEM_BASE + 0x40 * i);
    assert_int_equal(saved.link_entry[i].offset, 5 + i);
    assert_int_equal(saved.link_entry[i].sum, 100 + i);
  }
  assert_int_equal(hwprof_pir_restore(&y->h, &other), kHwprofOk);
  assert_int_equal(hwprof_pir_restore(&y->h, &saved), kHwprofOk);
  for (int i = 2; i >= 0; i--) {
    retire(y, (hwprof_retire_ev_t){.valid = true, .kind = HWPROF_KIND_JUMP, .is_ret = true, .taken = true,
                                   .op = HWPROF_PROF_OP_POP});
    assert_int_equal(apb(y, false, HWPROF_PIR_BASE_LO_ADDR, 0), (uint32_t)(MEM_BASE + 0x40 * (unsigned)i));
    assert_int_equal(apb(y, false, HWPROF_PIR_OFFSET_ADDR, 0), 5 + (unsigned)i);
    assert_int_equal(apb(y, false, HWPROF_PIR_PATH_SUM_ADDR, 0), 100 + (unsigned)i);
  }
  assert_int_equal(hwprof_pir_link_check(&y->h), kHwprofOk);
}

/* The link stack goes on in memory too: 40 linked calls, each from its own base, offset and path sum,
 * 32 of the frames spilled (one 16-byte line each, default configuration); another program's pir
 * in between; the 40 returns give every caller its base, offset and sum back, newest first. */
static void test_edge_prof_link_stack_spills_and_survives_a_context_switch(void **state) {
  model_sys_t *y = SYS(state);
  const uint64_t spill = MEM_BASE + MEM_SIZE / 2;
  assert_int_equal(hwprof_edge_set_bounds(&y->h, (hwprof_edge_bounds_t){MEM_BASE, spill}), kHwprofOk);
  assert_int_equal(hwprof_pir_link_spill(&y->h, spill, 1000), kHwprofBadArg); /* not whole blocks */
  assert_int_equal(hwprof_pir_link_spill(&y->h, spill, MEM_SIZE / 2), kHwprofOk);
  const unsigned n = 40, held = HWPROF_PIR_LINK_ENTRIES;
  for (unsigned i = 0; i < n; i++) {
    retire(y, init_at(MEM_BASE + 0x40 * i));
    retire(y, (hwprof_retire_ev_t){.valid = true, .kind = HWPROF_KIND_PROF, .op = HWPROF_PROF_OP_SETOFF, .operand = 3 * i});
    retire(y, path_word(HWPROF_PATH_OP_SET, 7 * i + 1, 0));
    retire(y, (hwprof_retire_ev_t){.valid = true, .kind = HWPROF_KIND_JUMP, .is_call = true, .taken = true,
                                   .op = HWPROF_PROF_OP_PUSH, .operand = MEM_BASE + 0x1000});
  }
  assert_int_equal(apb(y, false, HWPROF_PIR_LINK_ADDR, 0), held); /* no error, 8 held */
  assert_int_equal(apb(y, false, HWPROF_PIR_LINK_SPILL_ADDR, 0) >> HWPROF_PIR_LINK_SPILL_LINES_LSB, n - held);
  /* the oldest frame is line 0 of the area: {base, offset, sum}, the sum in the low 13 bits */
  assert_int_equal(counter(y, spill) & 0x1fffu, 1);
  assert_int_equal((counter(y, spill) >> 13) & 0x7ffffu, 0); /* offset 0 (its low 19 bits, in word 0) */

  hwprof_pir_ctx_t saved, other = {.base = MEM_BASE};
  assert_int_equal(hwprof_pir_save(&y->h, &saved), kHwprofOk);
  assert_int_equal(saved.link_entry[0].base, MEM_BASE + 0x40 * (n - held));
  assert_int_equal(hwprof_pir_restore(&y->h, &other), kHwprofOk);
  for (unsigned i = 0; i < 12; i++)
    retire(y, (hwprof_retire_ev_t){.valid = true, .kind = HWPROF_KIND_JUMP, .is_call = true, .taken = true,
                                   .op = HWPROF_PROF_OP_PUSH, .operand = MEM_BASE + 0x2000});
  assert_int_equal(hwprof_pir_restore(&y->h, &saved), kHwprofOk);
  for (int i = (int)n - 1; i >= 0; i--) {
    retire(y, (hwprof_retire_ev_t){.valid = true, .kind = HWPROF_KIND_JUMP, .is_ret = true, .taken = true,
                                   .op = HWPROF_PROF_OP_POP});
    assert_int_equal(apb(y, false, HWPROF_PIR_BASE_LO_ADDR, 0), (uint32_t)(MEM_BASE + 0x40 * (unsigned)i));
    assert_int_equal(apb(y, false, HWPROF_PIR_OFFSET_ADDR, 0), 3 * (unsigned)i);
    assert_int_equal(apb(y, false, HWPROF_PIR_PATH_SUM_ADDR, 0), 7 * (unsigned)i + 1);
  }
  assert_int_equal(hwprof_pir_link_check(&y->h), kHwprofOk);
  retire(y, (hwprof_retire_ev_t){.valid = true, .kind = HWPROF_KIND_JUMP, .is_ret = true, .taken = true,
                                 .op = HWPROF_PROF_OP_POP});
  assert_int_equal(hwprof_pir_link_check(&y->h), kHwprofLinkLost);
}

static void test_edge_prof_cfg_check_rejects_bad_parameters(void **state) {
  (void)state;
  hwprof_edge_prof_cfg_t c;
  hwprof_edge_prof_cfg_default(&c);
  assert_int_equal(hwprof_edge_prof_cfg_check(&c), kHwprofOk);
  c.sets = 3;
  assert_int_equal(hwprof_edge_prof_cfg_check(&c), kHwprofBadArg);
  hwprof_edge_prof_cfg_default(&c);
  c.line_words = 1;
  assert_int_equal(hwprof_edge_prof_cfg_check(&c), kHwprofBadArg);
  hwprof_edge_prof_cfg_default(&c);
  c.ways = 0;
  assert_int_equal(hwprof_edge_prof_cfg_check(&c), kHwprofBadArg);
  hwprof_edge_prof_cfg_default(&c);
  c.upd_depth = HWPROF_EP_MAX_UPD + 1;
  assert_int_equal(hwprof_edge_prof_cfg_check(&c), kHwprofBadArg);
  hwprof_top_cfg_t t;
  hwprof_top_cfg_default(&t);
  t.pir.cnt_w = 16; /* the pir and the cache must agree on the counter width */
  assert_int_equal(hwprof_top_cfg_check(&t), kHwprofBadArg);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_edge_prof_driver_flush_writes_exact_counts, setup, teardown),
      cmocka_unit_test_setup_teardown(test_edge_prof_driver_handles_a_phase_transition, setup, teardown),
      cmocka_unit_test_setup_teardown(test_edge_prof_full_update_buffer_stalls_and_loses_nothing, setup_slow_memory,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_edge_prof_command_while_busy_is_refused, setup_slow_memory, teardown),
      cmocka_unit_test_setup_teardown(test_edge_prof_trigger_saturates_and_stays_disarmed_at_zero, setup, teardown),
      cmocka_unit_test_setup_teardown(test_edge_prof_path_stack_spills_and_survives_a_context_switch, setup, teardown),
      cmocka_unit_test_setup_teardown(test_edge_prof_link_entries_survive_a_context_switch, setup, teardown),
      cmocka_unit_test_setup_teardown(test_edge_prof_link_stack_spills_and_survives_a_context_switch, setup, teardown),
      cmocka_unit_test(test_edge_prof_cfg_check_rejects_bad_parameters),
  };
  return cmocka_run_group_tests_name("edge_prof", tests, NULL, NULL);
}
