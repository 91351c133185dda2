/* Unit tests of the RVFI adapter's C model (cmodel/core/rvfi_adapter.c) under ASan/UBSan: records
 * decoded into the events the CPU model retires (worked out by hand from the instruction bits, the
 * register values and the shadow word in each test), the shadow word found among the last fetches,
 * the one-entry buffer that holds the core, the error flag, and a trap handler's records. The RTL is held to the same model
 * every cycle by tb/core/tb_rvfi_adapter.cpp. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/rvfi_adapter.h"
#include "rv32_isa.h"

static rvfi_in_t rec(uint32_t pc, uint32_t insn, uint32_t a, uint32_t b, uint32_t mem) {
  rvfi_in_t in;
  memset(&in, 0, sizeof in);
  in.valid = true;
  in.insn = insn;
  in.pc_rdata = pc;
  in.pc_wdata = pc + 4u;
  in.rs1_rdata = a;
  in.rs2_rdata = b;
  in.mem_rdata = mem;
  return in;
}

static void test_rvfi_decode_by_hand(void **state) {
  (void)state;
  hwprof_retire_ev_t ev;
  /* bltu a0, a1 with a0 = 1, a1 = 0xffffffff: taken (unsigned); shadow pid 9, bhint NT, ihint DEC */
  rvfi_in_t in = rec(0x80000100u, 0x00b56463u, 1u, 0xffffffffu, 0);
  rvfi_adapter_decode(&in, rv32_shadow(9, HWPROF_BHINT_NT, 1), &ev);
  assert_int_equal(ev.kind, HWPROF_KIND_BRANCH);
  assert_true(ev.taken);
  assert_int_equal(ev.pid, 9);
  assert_int_equal(ev.bhint, HWPROF_BHINT_NT);
  assert_true(ev.ihint);
  assert_int_equal(ev.pc, 0x80000100u);
  assert_int_equal(ev.next_pc, 0x80000104u);
  /* blt with the same operands: signed, 1 < -1 is false */
  in.insn = 0x00b54463u;
  rvfi_adapter_decode(&in, 0, &ev);
  assert_false(ev.taken);
  /* lb a2, 3(a0), a0 = 0x80002000, word 0x80112233: byte 3 is 0x80, sign-extended */
  in = rec(0x80000104u, 0x00350603u, 0x80002000u, 0, 0x80112233u);
  rvfi_adapter_decode(&in, 0, &ev);
  assert_int_equal(ev.kind, HWPROF_KIND_LOAD);
  assert_int_equal(ev.addr, 0x80002003u);
  assert_int_equal(ev.value, 0xffffff80u);
  /* sw a1, -4(a0): address a0 - 4, value a1 */
  in = rec(0x80000108u, 0xfeb52e23u, 0x80002000u, 0x1234u, 0);
  rvfi_adapter_decode(&in, 0, &ev);
  assert_int_equal(ev.kind, HWPROF_KIND_STORE);
  assert_int_equal(ev.addr, 0x80001ffcu);
  assert_int_equal(ev.value, 0x1234u);
  /* jal t0, +8 (a millicode call through t0) with a starting-call link word: op INIT, the base */
  in = rec(0x8000010cu, 0x008002efu, 0, 0, 0);
  rvfi_adapter_decode(&in, rv32_shadow_callinit(0x80c00200u), &ev);
  assert_int_equal(ev.kind, HWPROF_KIND_JUMP);
  assert_true(ev.is_call);
  assert_false(ev.is_ret);
  assert_int_equal(ev.op, HWPROF_PROF_OP_INIT);
  assert_int_equal(ev.operand, 0x80c00200u);
  /* jr t0 (a millicode return): a return; a path word in its shadow word (kind 2, a = 5) */
  in = rec(0x80000110u, 0x00028067u, 0x80000110u, 0, 0);
  rvfi_adapter_decode(&in, rv32_shadow_ret_path(rv32_path_word(2, 5, 0), false), &ev);
  assert_int_equal(ev.kind, HWPROF_KIND_IJUMP);
  assert_true(ev.is_ret);
  assert_int_equal(ev.op, HWPROF_PROF_OP_PATH);
  assert_int_equal(ev.operand, rv32_path_word(2, 5, 0));
  assert_int_equal(ev.pid, 0);
  /* prof.setoff with rs1 = a5 (= 7): the operand from the register, not the shadow word */
  in = rec(0x80000114u, 0x0027a02bu, 7u, 0, 0);
  rvfi_adapter_decode(&in, 0xdeadbeecu, &ev);
  assert_int_equal(ev.kind, HWPROF_KIND_PROF);
  assert_int_equal(ev.op, HWPROF_PROF_OP_SETOFF);
  assert_int_equal(ev.operand, 7u);
  /* an add carrying prof.id 300, ihint DEC */
  in = rec(0x80000118u, 0x00b50633u, 1, 2, 0);
  rvfi_adapter_decode(&in, rv32_carry_id(300, 1), &ev);
  assert_int_equal(ev.kind, HWPROF_KIND_OTHER);
  assert_int_equal(ev.op, HWPROF_PROF_OP_ID);
  assert_int_equal(ev.pid, 300);
  assert_true(ev.ihint);
}

static void test_rvfi_buffer_fetches_and_error(void **state) {
  (void)state;
  rvfi_adapter_t a;
  rvfi_adapter_reset(&a);
  rvfi_in_t f;
  memset(&f, 0, sizeof f);
  /* fetches of 0x100 (shadow pid 4), its fall-through and its target: the record of 0x100 arrives
     after all three (picorv32's order) and still finds its shadow word */
  const uint32_t at[3] = {0x80000100u, 0x80000104u, 0x80000040u};
  for (unsigned i = 0; i < 3; i++) {
    f.fetch = true;
    f.fetch_addr = at[i];
    f.fetch_shadow = i == 0 ? rv32_shadow(4, HWPROF_BHINT_EITHER, 0) : 0;
    rvfi_adapter_step(&a, &f, true);
  }
  rvfi_in_t r = rec(0x80000100u, 0xfe0518e3u, 0, 0, 0); /* bnez a0, -16: a0 = 0, not taken */
  rvfi_adapter_step(&a, &r, true);
  rvfi_adapter_out_t o = rvfi_adapter_out(&a, false);
  assert_true(o.ev.valid);
  assert_int_equal(o.ev.pid, 4);
  assert_false(o.ev.taken);
  assert_true(o.stall); /* not ready: the core is held */
  assert_false(o.err);
  o = rvfi_adapter_out(&a, true);
  assert_false(o.stall); /* taken this cycle */
  memset(&f, 0, sizeof f);
  rvfi_adapter_step(&a, &f, false); /* not taken: still held */
  assert_true(rvfi_adapter_out(&a, false).ev.valid);
  rvfi_adapter_step(&a, &f, true); /* taken */
  assert_false(rvfi_adapter_out(&a, true).ev.valid);
  /* a record while the buffer is full and not taken: lost, the error flag sticks */
  r = rec(0x80000104u, 0x00000013u, 0, 0, 0);
  rvfi_adapter_step(&a, &r, true);
  rvfi_adapter_step(&a, &r, false);
  assert_true(rvfi_adapter_out(&a, true).err);
  /* ... and a record whose fetch is not among the last four */
  rvfi_adapter_reset(&a);
  r = rec(0x80009000u, 0x00000013u, 0, 0, 0);
  rvfi_adapter_step(&a, &r, true);
  assert_true(rvfi_adapter_out(&a, true).err);
}

/* An interrupt handler: its first record (rvfi_intr) through the retirq or mret that returns are
 * HANDLER, the return an indirect jump as the CPU model's mret; the records before and after are the
 * program's. */
static void test_rvfi_handler_records(void **state) {
  (void)state;
  rvfi_adapter_t a;
  rvfi_adapter_reset(&a);
  const uint32_t ret[2] = {RV32_INSN_PICO_RETIRQ, RV32_INSN_MRET};
  for (unsigned k = 0; k < 2; k++) {
    const uint32_t pcs[5] = {0x80000200u, 0x7ffffff0u, 0x80000400u, 0x80000404u, 0x80000204u};
    const uint32_t insns[5] = {0x00000013u, 0x0000006fu, 0x00000013u, ret[k], 0x00000013u};
    const unsigned want[5] = {HWPROF_TRAP_NONE, HWPROF_TRAP_HANDLER, HWPROF_TRAP_HANDLER, HWPROF_TRAP_HANDLER,
                              HWPROF_TRAP_NONE};
    for (unsigned i = 0; i < 5; i++) {
      rvfi_in_t f;
      memset(&f, 0, sizeof f);
      f.fetch = true;
      f.fetch_addr = pcs[i];
      rvfi_adapter_step(&a, &f, true);
      rvfi_in_t r = rec(pcs[i], insns[i], 0, 0, 0);
      r.intr = i == 1;
      if (i == 3) r.pc_wdata = 0x80000204u;
      rvfi_adapter_step(&a, &r, true);
      const rvfi_adapter_out_t o = rvfi_adapter_out(&a, true);
      assert_true(o.ev.valid);
      assert_int_equal(o.ev.trap, want[i]);
      if (i == 3) {
        assert_int_equal(o.ev.kind, HWPROF_KIND_IJUMP);
        assert_true(o.ev.taken);
        assert_int_equal(o.ev.next_pc, 0x80000204u);
      }
    }
    assert_false(rvfi_adapter_out(&a, true).err);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rvfi_decode_by_hand),
      cmocka_unit_test(test_rvfi_buffer_fetches_and_error),
      cmocka_unit_test(test_rvfi_handler_records),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
