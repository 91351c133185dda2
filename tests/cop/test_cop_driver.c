/* Unit tests of the co-processor driver (sw/fw/drivers/hwprof_cop.c) against the C model of hwprof_top (the
 * value profiler integrated with the other engines): load a program, filter, run on retire events,
 * read the table back, take the interrupt and re-arm, mask a PC; bad images touch nothing. The
 * expected tables are worked out by hand from sw/fw/cop/examples/pc_count.s (comments below). */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cop_asm.h"
#include "hwprof_cop.h"
#include "lib/model_sys.h"

static model_sys_t sys;
static hwprof_cop_image_t img;

static void load_pc_count(void) {
  char *src = NULL;
  FILE *f = fopen("sw/fw/cop/examples/pc_count.s", "r");
  assert_non_null(f);
  size_t cap = 0;
  ssize_t n = getdelim(&src, &cap, '\0', f);
  fclose(f);
  assert_true(n > 0);
  char err[256];
  if (cop_asm(src, "pc_count.s", &img, err, sizeof err)) fail_msg("%s", err);
  free(src);
}

static int setup(void **state) {
  (void)state;
  model_sys_init(&sys, NULL, NULL);
  load_pc_count();
  return 0;
}

static void idle(unsigned n) {
  for (unsigned k = 0; k < n; k++) {
    hwprof_top_in_t in = {0};
    model_sys_cycle(&sys, &in);
  }
}

static void retire(uint8_t kind, uint32_t pc, uint32_t value) {
  hwprof_retire_ev_t ev = {0};
  ev.kind = kind;
  ev.pc = pc;
  ev.next_pc = pc + 4;
  ev.insn = 0x00452503u;
  ev.addr = 0x80200000u;
  ev.value = value;
  assert_int_equal(model_sys_retire(&sys, ev), 0); /* the value profiler never holds the port */
  idle(12); /* long enough for the longest routine (two mispredictions): no record waits */
}

typedef struct {
  unsigned calls;
  uint32_t intr_pc;
  uint32_t keys[8];
  uint8_t valid[8];
  uint32_t counts[4];
} seen_t;

static int on_intr(void *ctx, const hwprof_t *h, uint32_t intr_pc) {
  seen_t *s = ctx;
  s->calls++;
  s->intr_pc = intr_pc;
  if (hwprof_cop_read_cam(h, 0, 8, s->keys, s->valid) != kHwprofOk) return -1;
  if (hwprof_cop_read_data(h, 0, 4, s->counts) != kHwprofOk) return -1;
  return (int)HWPROF_COP_CLEAR_ALL; /* copied out: start over with a clean table */
}

static void test_cop_driver_counts_loads_and_rearms_on_the_model(void **state) {
  (void)state;
  hwprof_t *h = &sys.h;
  hwprof_cop_config_t cfg;
  assert_int_equal(hwprof_cop_read_config(h, &cfg), kHwprofOk);
  assert_int_equal(cfg.uc_depth, 64);
  assert_int_equal(cfg.cam_entries, 256);
  assert_int_equal(cfg.data_bytes, 2048);
  assert_int_equal(cfg.sbuf_words, 256);
  assert_int_equal(cfg.bitmask_bits, 4096);
  assert_int_equal(hwprof_cop_load(h, &img), kHwprofOk);
  assert_int_equal(hwprof_mmio_read32(h, HWPROF_COP_UC_LO_ADDR + 8), (uint32_t)img.uc[2]);
  const hwprof_cop_filter_t f = {0, 0, 0, 0, 0};
  assert_int_equal(hwprof_cop_set_filter(h, &f), kHwprofOk);
  hwprof_mmio_write32(h, HWPROF_TOP_IRQ_ENABLE_ADDR, 1u << HWPROF_TOP_IRQ_ENABLE_COPROC_LSB);
  assert_int_equal(hwprof_cop_start(h, HWPROF_COP_CLEAR_ALL), kHwprofOk);
  /* loads at 0x100 three times, 0x104 and 0x108 once; a store and a branch the opcode filter
   * (loads only, from the image) keeps out */
  retire(HWPROF_KIND_LOAD, 0x100, 1);
  retire(HWPROF_KIND_LOAD, 0x104, 1);
  retire(HWPROF_KIND_STORE, 0x300, 0);
  retire(HWPROF_KIND_LOAD, 0x100, 2);
  retire(HWPROF_KIND_BRANCH, 0x304, 0);
  retire(HWPROF_KIND_LOAD, 0x108, 3);
  retire(HWPROF_KIND_LOAD, 0x100, 2);
  hwprof_cop_status_t st;
  assert_int_equal(hwprof_cop_status(h, &st), kHwprofOk);
  assert_true(st.running);
  assert_int_equal(st.passed, 5);
  assert_int_equal(st.sampled, 5);
  assert_int_equal(st.dropped, 0);
  assert_int_equal(st.records, 5);
  assert_int_equal(st.buffered, 0);
  uint32_t keys[4], words[2];
  uint8_t valid[4];
  assert_int_equal(hwprof_cop_read_cam(h, 0, 4, keys, valid), kHwprofOk);
  assert_int_equal(keys[0], 0x100);
  assert_int_equal(keys[1], 0x104);
  assert_int_equal(keys[2], 0x108);
  assert_int_equal(valid[0] + valid[1] + valid[2] + valid[3], 3);
  assert_int_equal(hwprof_cop_read_data(h, 0, 2, words), kHwprofOk);
  assert_int_equal(words[0], 0x00010003); /* halfword counts: 0x100 three times, 0x104 once */
  assert_int_equal(words[1], 0x00000001); /* 0x108 once */
  /* five new PCs take slots 3..7; the eighth slot taken wraps the slot index: intr */
  for (uint32_t k = 0; k < 5; k++) retire(HWPROF_KIND_LOAD, 0x200 + 4 * k, 0);
  assert_true(sys.out.irq_coproc);
  seen_t seen = {0};
  bool handled = false;
  assert_int_equal(hwprof_cop_handle_irq(h, on_intr, &seen, &handled), kHwprofOk);
  assert_true(handled);
  assert_int_equal(seen.calls, 1);
  assert_int_equal(seen.intr_pc, 4); /* `full: b intr` */
  assert_int_equal(seen.keys[7], 0x210);
  for (unsigned k = 0; k < 8; k++) assert_int_equal(seen.valid[k], 1);
  assert_int_equal(seen.counts[0], 0x00010003);
  assert_int_equal(seen.counts[3], 0x00010001); /* 0x20c and 0x210 once each */
  idle(2);
  assert_false(sys.out.irq_coproc);
  /* re-armed with everything cleared, in one write: the engine runs, the table is empty */
  assert_int_equal(hwprof_cop_status(h, &st), kHwprofOk);
  assert_true(st.running);
  assert_false(st.halted);
  assert_int_equal(hwprof_mmio_read32(h, HWPROF_COP_CAM_VALID_ADDR), 0);
  retire(HWPROF_KIND_LOAD, 0x100, 1);
  assert_int_equal(hwprof_cop_read_cam(h, 0, 1, keys, valid), kHwprofOk);
  assert_int_equal(keys[0], 0x100);
  assert_int_equal(valid[0], 1);
  /* no interrupt pending: the handler does nothing */
  assert_int_equal(hwprof_cop_handle_irq(h, on_intr, &seen, &handled), kHwprofOk);
  assert_false(handled);
  assert_int_equal(seen.calls, 1);
}

/* for hwprof_cop_drain: take the interrupt as a host would, counting the calls */
static seen_t drain_seen;
static void drain_poll(void *ctx) {
  (void)ctx;
  idle(1);
  bool handled = false;
  assert_int_equal(hwprof_cop_handle_irq(&sys.h, on_intr, &drain_seen, &handled), kHwprofOk);
}

/* Drain: nine new PCs arrive back to back (no idle between them), so records wait in the buffer
 * while the engine works; the eighth fills pc_count's 8-slot table and halts the engine with the
 * ninth still buffered. Without anyone taking the interrupt the buffer never empties: busy, and
 * sampling is off (CTRL.ENABLE 0). With the interrupt taken (the handler re-arms), the ninth
 * record is processed and the drain ends. */
static void test_cop_driver_drain(void **state) {
  (void)state;
  hwprof_t *h = &sys.h;
  assert_int_equal(hwprof_cop_load(h, &img), kHwprofOk);
  const hwprof_cop_filter_t f = {0, 0, 0, 0, 0};
  assert_int_equal(hwprof_cop_set_filter(h, &f), kHwprofOk);
  hwprof_mmio_write32(h, HWPROF_TOP_IRQ_ENABLE_ADDR, 1u << HWPROF_TOP_IRQ_ENABLE_COPROC_LSB);
  assert_int_equal(hwprof_cop_start(h, HWPROF_COP_CLEAR_ALL), kHwprofOk);
  for (uint32_t k = 0; k < 9; k++) {
    hwprof_retire_ev_t ev = {0};
    ev.kind = HWPROF_KIND_LOAD;
    ev.pc = 0x400 + 4 * k;
    assert_int_equal(model_sys_retire(&sys, ev), 0);
  }
  assert_int_equal(hwprof_cop_drain(h, 200, NULL, NULL), kHwprofBusy);
  assert_int_equal(hwprof_mmio_read32(h, HWPROF_VPF_CTRL_ADDR) & 1u, 0);
  hwprof_cop_status_t st;
  assert_int_equal(hwprof_cop_status(h, &st), kHwprofOk);
  assert_true(st.halted);
  assert_int_equal(st.buffered, 1);
  memset(&drain_seen, 0, sizeof drain_seen);
  assert_int_equal(hwprof_cop_drain(h, 200, drain_poll, NULL), kHwprofOk);
  assert_int_equal(drain_seen.calls, 1);
  assert_int_equal(hwprof_cop_status(h, &st), kHwprofOk);
  assert_int_equal(st.buffered, 0);
  assert_int_equal(st.records, 9);
  assert_int_equal(hwprof_cop_drain(NULL, 1, NULL, NULL), kHwprofBadArg);
}

static void test_cop_driver_masks_a_pc(void **state) {
  (void)state;
  hwprof_t *h = &sys.h;
  assert_int_equal(hwprof_cop_load(h, &img), kHwprofOk);
  const hwprof_cop_filter_t f = {0, 0, 2, 0, 0}; /* bit-mask filter with hash 2 */
  assert_int_equal(hwprof_cop_set_filter(h, &f), kHwprofOk);
  assert_int_equal(hwprof_cop_start(h, 0), kHwprofOk);
  assert_int_equal(hwprof_cop_mask_pc(h, 0x100, true), kHwprofOk);
  /* hash 2 of 0x100: w = 0x40, 0x40 ^ (0x40 >> 7) ^ (0x40 >> 15) = 0x40: bit 0 of word 2 */
  assert_int_equal(hwprof_mmio_read32(h, HWPROF_VPF_BITMASK_ADDR + 8), 1);
  retire(HWPROF_KIND_LOAD, 0x100, 1);
  retire(HWPROF_KIND_LOAD, 0x104, 1);
  hwprof_cop_status_t st;
  assert_int_equal(hwprof_cop_status(h, &st), kHwprofOk);
  assert_int_equal(st.passed, 1); /* 0x104 only */
  assert_int_equal(hwprof_cop_mask_pc(h, 0x100, false), kHwprofOk);
  retire(HWPROF_KIND_LOAD, 0x100, 1);
  assert_int_equal(hwprof_cop_status(h, &st), kHwprofOk);
  assert_int_equal(st.passed, 2);
  assert_int_equal(hwprof_cop_clear_mask(h), kHwprofOk);
  assert_int_equal(hwprof_cop_stop(h), kHwprofOk);
  assert_int_equal(hwprof_cop_status(h, &st), kHwprofOk);
  assert_false(st.running);
}

static void test_cop_driver_refuses_bad_images_and_touches_nothing(void **state) {
  (void)state;
  hwprof_t *h = &sys.h;
  const uint32_t before = hwprof_mmio_read32(h, HWPROF_COP_UC_LO_ADDR);
  hwprof_cop_image_t bad = img;
  bad.n_uc = 65; /* more words than UcDepth */
  assert_int_equal(hwprof_cop_load(h, &bad), kHwprofBadArg);
  bad = img;
  bad.idxw[3] = 0;
  assert_int_equal(hwprof_cop_load(h, &bad), kHwprofBadArg);
  bad = img;
  bad.t[1] = 64;
  assert_int_equal(hwprof_cop_load(h, &bad), kHwprofBadArg);
  bad = img;
  bad.uc[0] |= 1ull << 48;
  assert_int_equal(hwprof_cop_load(h, &bad), kHwprofBadArg);
  assert_int_equal(hwprof_mmio_read32(h, HWPROF_COP_UC_LO_ADDR), before);
  assert_int_equal(hwprof_cop_load(NULL, &img), kHwprofBadArg);
  assert_int_equal(hwprof_cop_start(h, 1u << 7), kHwprofBadArg);
  const hwprof_cop_filter_t f = {0, 4, 0, 0, 0};
  assert_int_equal(hwprof_cop_set_filter(h, &f), kHwprofBadArg);
  /* a running engine is not loaded under its feet */
  assert_int_equal(hwprof_cop_load(h, &img), kHwprofOk);
  assert_int_equal(hwprof_cop_start(h, 0), kHwprofOk);
  assert_int_equal(hwprof_cop_load(h, &img), kHwprofBusy);
  assert_int_equal(hwprof_cop_start(h, 0), kHwprofBusy);
  uint32_t w;
  assert_int_equal(hwprof_cop_read_data(h, 512, 1, &w), kHwprofBadArg);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_cop_driver_counts_loads_and_rearms_on_the_model, setup),
      cmocka_unit_test_setup(test_cop_driver_drain, setup),
      cmocka_unit_test_setup(test_cop_driver_masks_a_pc, setup),
      cmocka_unit_test_setup(test_cop_driver_refuses_bad_images_and_touches_nothing, setup),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
