/* Unit tests of the hwprof_top C model (cmodel/top/top.c): APB window decode, errors, and the retire
 * port's ready rule (docs/registers.md, docs/retire-port.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "top/top.h"

typedef struct {
  hwprof_top_state_t s;
  hwprof_top_cfg_t cfg;
} fixture_t;

static int setup(void **state) {
  static fixture_t f;
  hwprof_top_cfg_default(&f.cfg);
  assert_int_equal(hwprof_top_cfg_check(&f.cfg), kHwprofOk);
  hwprof_top_reset(&f.s);
  *state = &f;
  return 0;
}

/* A full APB transfer: setup cycle then access cycle; returns the access-cycle response. */
static hwprof_apb_rsp_t apb(fixture_t *f, bool write, uint16_t addr, uint32_t data) {
  hwprof_top_in_t in = {0};
  hwprof_top_out_t out;
  in.apb = (hwprof_apb_req_t){.psel = true, .penable = false, .pwrite = write, .paddr = addr, .pwdata = data};
  hwprof_top_comb(&f->s, &f->cfg, &in, &out);
  assert_false(out.apb.pslverr); /* no response outside the access phase */
  assert_int_equal(out.apb.prdata, 0);
  hwprof_top_step(&f->s, &f->cfg, &in);
  in.apb.penable = true;
  hwprof_top_comb(&f->s, &f->cfg, &in, &out);
  hwprof_top_step(&f->s, &f->cfg, &in);
  assert_true(out.apb.pready);
  return out.apb;
}

static void test_top_id_and_version_read(void **state) {
  fixture_t *f = *state;
  hwprof_apb_rsp_t r = apb(f, false, HWPROF_TOP_ID_ADDR, 0);
  assert_false(r.pslverr);
  assert_int_equal(r.prdata, 0x48575046u); /* "HWPF" */
  r = apb(f, false, HWPROF_TOP_VERSION_ADDR, 0);
  assert_int_equal((r.prdata >> HWPROF_TOP_VERSION_HAS_PIR_LSB) & 1u, 1);
}

static void test_top_unmapped_and_read_only_answer_pslverr(void **state) {
  fixture_t *f = *state;
  assert_true(apb(f, true, HWPROF_TOP_ID_ADDR, 0).pslverr);
  assert_true(apb(f, false, 0x0040, 0).pslverr); /* hole in the top window */
  assert_true(apb(f, true, HWPROF_TOP_CFG_TRACE_ADDR, 0).pslverr); /* the build parameters are read-only */
  assert_true(apb(f, true, (HWPROF_COP_WINDOW + HWPROF_COP_WINDOWS) << HWPROF_WINDOW_SHIFT, 1).pslverr); /* no engine past the co-processor's windows */
  assert_true(apb(f, false, 0xfffc, 0).pslverr);
  assert_int_equal(apb(f, false, 0xfffc, 0).prdata, 0);
  assert_int_equal(apb(f, false, HWPROF_TOP_ID_ADDR, 0).prdata, 0x48575046u);
}

static void test_top_pir_write_holds_the_retire_port_for_one_cycle(void **state) {
  fixture_t *f = *state;
  hwprof_top_in_t in = {0};
  hwprof_top_out_t out;
  in.ev = (hwprof_retire_ev_t){.valid = true, .kind = HWPROF_KIND_PROF, .op = HWPROF_PROF_OP_SETOFF, .operand = 7};
  in.apb = (hwprof_apb_req_t){.psel = true, .penable = true, .pwrite = true, .paddr = HWPROF_PIR_OFFSET_ADDR, .pwdata = 3};
  hwprof_top_comb(&f->s, &f->cfg, &in, &out);
  assert_false(out.ev_ready);
  hwprof_top_step(&f->s, &f->cfg, &in);
  assert_int_equal(f->s.pir.offset, 3); /* the write landed; the instruction waited */
  in.apb = (hwprof_apb_req_t){0};
  hwprof_top_comb(&f->s, &f->cfg, &in, &out);
  assert_true(out.ev_ready);
  hwprof_top_step(&f->s, &f->cfg, &in);
  assert_int_equal(f->s.pir.offset, 7); /* then the held instruction retired */
  /* reads and other windows do not stall */
  in.apb = (hwprof_apb_req_t){.psel = true, .penable = true, .pwrite = false, .paddr = HWPROF_PIR_OFFSET_ADDR};
  hwprof_top_comb(&f->s, &f->cfg, &in, &out);
  assert_true(out.ev_ready);
  in.apb = (hwprof_apb_req_t){.psel = true, .penable = true, .pwrite = true, .paddr = HWPROF_TOP_ID_ADDR};
  hwprof_top_comb(&f->s, &f->cfg, &in, &out);
  assert_true(out.ev_ready);
}

static void test_top_setup_phase_alone_changes_nothing(void **state) {
  fixture_t *f = *state;
  hwprof_top_in_t in = {0};
  in.apb = (hwprof_apb_req_t){.psel = true, .penable = false, .pwrite = true, .paddr = HWPROF_PIR_BASE_LO_ADDR, .pwdata = 9};
  hwprof_top_step(&f->s, &f->cfg, &in);
  assert_int_equal(f->s.pir.base, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_top_id_and_version_read, setup),
      cmocka_unit_test_setup(test_top_unmapped_and_read_only_answer_pslverr, setup),
      cmocka_unit_test_setup(test_top_pir_write_holds_the_retire_port_for_one_cycle, setup),
      cmocka_unit_test_setup(test_top_setup_phase_alone_changes_nothing, setup),
  };
  return cmocka_run_group_tests_name("top", tests, NULL, NULL);
}
