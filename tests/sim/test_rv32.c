/* Instruction tests of the CPU model (sim/rv32.c). Each test places a few encoded instructions in
 * RAM and checks registers, CSRs and retire events against values from the RISC-V specification
 * (worked out here by hand), never against the simulator's own output. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rv32.h"

#include "lib/hand_enc.h"

#define ADDI(rd, rs1, imm) i_type(imm, rs1, 0, rd, 0x13)
#define CSRRW(rd, csr, rs1) i_type(csr, rs1, 1, rd, 0x73)
#define CSRRS(rd, csr, rs1) i_type(csr, rs1, 2, rd, 0x73)
#define ECALL 0x00000073u
#define MRET 0x30200073u

static rv_cpu_t cpu;
static FILE *console;
static char console_buf[256];

static int setup(void **state) {
  (void)state;
  assert_int_equal(rv_init(&cpu, 1 << 16), 0);
  console = fmemopen(console_buf, sizeof console_buf, "w");
  assert_non_null(console);
  cpu.console = console;
  cpu.pc = RV_RAM_BASE;
  return 0;
}
static int teardown(void **state) {
  (void)state;
  fclose(console);
  rv_free(&cpu);
  return 0;
}

static void put(uint32_t addr, uint32_t word) {
  for (int i = 0; i < 4; i++) cpu.ram[addr - RV_RAM_BASE + (uint32_t)i] = (uint8_t)(word >> (8 * i));
}
static void program(const uint32_t *code, size_t n) {
  for (size_t i = 0; i < n; i++) put(RV_RAM_BASE + 4u * (uint32_t)i, code[i]);
}
static hwprof_retire_ev_t step(void) {
  hwprof_retire_ev_t ev;
  assert_int_equal(rv_step(&cpu, &ev), RV_RUNNING);
  return ev;
}

static void test_rv32_m_extension_edge_cases(void **state) {
  (void)state;
  const uint32_t code[] = {
      r_type(1, 2, 1, 4, 3, 0x33),  /* div  x3 = x1 / x2 */
      r_type(1, 2, 1, 5, 4, 0x33),  /* divu x4 */
      r_type(1, 2, 1, 6, 5, 0x33),  /* rem  x5 */
      r_type(1, 2, 1, 7, 6, 0x33),  /* remu x6 */
  };
  program(code, 4);
  cpu.x[1] = 1234;
  cpu.x[2] = 0; /* division by zero: quotient all ones, remainder the dividend */
  for (int i = 0; i < 4; i++) step();
  assert_int_equal(cpu.x[3], 0xffffffffu);
  assert_int_equal(cpu.x[4], 0xffffffffu);
  assert_int_equal(cpu.x[5], 1234);
  assert_int_equal(cpu.x[6], 1234);
  cpu.pc = RV_RAM_BASE;
  cpu.x[1] = 0x80000000u; /* overflow: INT_MIN / -1 = INT_MIN, remainder 0 */
  cpu.x[2] = 0xffffffffu;
  for (int i = 0; i < 4; i++) step();
  assert_int_equal(cpu.x[3], 0x80000000u);
  assert_int_equal(cpu.x[4], 0);
  assert_int_equal(cpu.x[5], 0);
  assert_int_equal(cpu.x[6], 0x80000000u);
  cpu.pc = RV_RAM_BASE;
  cpu.x[1] = (uint32_t)-7;
  cpu.x[2] = 2; /* truncating division: -7 / 2 = -3, -7 % 2 = -1 */
  for (int i = 0; i < 4; i++) step();
  assert_int_equal(cpu.x[3], (uint32_t)-3);
  assert_int_equal(cpu.x[5], (uint32_t)-1);
}

static void test_rv32_multiply_high_variants(void **state) {
  (void)state;
  const uint32_t code[] = {
      r_type(1, 2, 1, 0, 3, 0x33), /* mul */
      r_type(1, 2, 1, 1, 4, 0x33), /* mulh */
      r_type(1, 2, 1, 2, 5, 0x33), /* mulhsu */
      r_type(1, 2, 1, 3, 6, 0x33), /* mulhu */
  };
  program(code, 4);
  cpu.x[1] = 0xffffffffu; /* -1 signed, 2^32-1 unsigned */
  cpu.x[2] = 0xffffffffu;
  for (int i = 0; i < 4; i++) step();
  assert_int_equal(cpu.x[3], 1);           /* low word of 1 or of (2^32-1)^2 */
  assert_int_equal(cpu.x[4], 0);           /* (-1)(-1) = 1 */
  assert_int_equal(cpu.x[5], 0xffffffffu); /* (-1)(2^32-1) = -(2^32-1): high word all ones */
  assert_int_equal(cpu.x[6], 0xfffffffeu); /* (2^32-1)^2 = 2^64 - 2^33 + 1 */
}

static void test_rv32_loads_extend_and_report_address_and_value(void **state) {
  (void)state;
  const uint32_t code[] = {
      i_type(0, 1, 0, 3, 0x03), /* lb  x3, 0(x1) */
      i_type(0, 1, 4, 4, 0x03), /* lbu x4 */
      i_type(0, 1, 1, 5, 0x03), /* lh  x5 */
      i_type(0, 1, 5, 6, 0x03), /* lhu x6 */
      s_type(4, 2, 1, 2),       /* sw  x2, 4(x1) */
      i_type(4, 1, 2, 7, 0x03), /* lw  x7, 4(x1) */
  };
  program(code, 6);
  put(RV_RAM_BASE + 0x100, 0x12348086u);
  cpu.x[1] = RV_RAM_BASE + 0x100;
  cpu.x[2] = 0xcafef00du;
  hwprof_retire_ev_t ev = step();
  assert_int_equal(cpu.x[3], 0xffffff86u);
  assert_int_equal(ev.kind, HWPROF_KIND_LOAD);
  assert_int_equal(ev.addr, RV_RAM_BASE + 0x100);
  assert_int_equal(ev.value, 0xffffff86u);
  step();
  assert_int_equal(cpu.x[4], 0x86);
  step();
  assert_int_equal(cpu.x[5], 0xffff8086u);
  step();
  assert_int_equal(cpu.x[6], 0x8086);
  ev = step();
  assert_int_equal(ev.kind, HWPROF_KIND_STORE);
  ev = step();
  assert_int_equal(cpu.x[7], 0xcafef00du);
}

static void test_rv32_control_transfers_fill_the_retire_event(void **state) {
  (void)state;
  const uint32_t code[] = {
      b_type(8, 2, 1, 0),            /* 0: beq x1, x2, +8 (taken: equal) */
      ADDI(0, 0, 0),                 /* 4 */
      b_type(-8, 0, 1, 1),           /* 8: bne x1, x0, -8 (not taken: x1 == 0) */
      jal(8, 1),                     /* 12: jal ra, +8 -> 20 (a call) */
      ADDI(0, 0, 0),                 /* 16 */
      i_type(0, 1, 0, 0, 0x67),      /* 20: jalr x0, 0(ra) -> 16 (a return) */
  };
  program(code, 6);
  hwprof_retire_ev_t ev = step();
  assert_int_equal(ev.kind, HWPROF_KIND_BRANCH);
  assert_true(ev.taken);
  assert_int_equal(ev.next_pc, RV_RAM_BASE + 8);
  ev = step();
  assert_int_equal(ev.kind, HWPROF_KIND_BRANCH);
  assert_false(ev.taken);
  assert_int_equal(ev.next_pc, RV_RAM_BASE + 12);
  ev = step();
  assert_int_equal(ev.kind, HWPROF_KIND_JUMP);
  assert_true(ev.is_call);
  assert_int_equal(cpu.x[1], RV_RAM_BASE + 16);
  ev = step();
  assert_int_equal(ev.kind, HWPROF_KIND_IJUMP);
  assert_true(ev.is_ret);
  assert_int_equal(ev.next_pc, RV_RAM_BASE + 16);
  assert_int_equal(cpu.instret, 4);
}

static void test_rv32_ecall_traps_and_mret_returns(void **state) {
  (void)state;
  const uint32_t handler = RV_RAM_BASE + 0x80;
  const uint32_t code[] = {CSRRW(0, 0x305, 1), CSRRW(0, 0x300, 2), ECALL, ADDI(5, 0, 7)};
  program(code, 4);
  put(handler, CSRRS(6, 0x341, 0)); /* csrr x6, mepc */
  put(handler + 4, ADDI(6, 6, 4));
  put(handler + 8, CSRRW(0, 0x341, 6)); /* mepc += 4 */
  put(handler + 12, MRET);
  cpu.x[1] = handler;
  cpu.x[2] = 1u << 3; /* mstatus.MIE */
  assert_int_equal(step().trap, HWPROF_TRAP_NONE);
  step();
  hwprof_retire_ev_t ev = step(); /* ecall */
  assert_int_equal(ev.kind, HWPROF_KIND_IJUMP);
  assert_int_equal(ev.trap, HWPROF_TRAP_ENTRY); /* the instruction that trapped */
  assert_int_equal(cpu.pc, handler);
  assert_int_equal(cpu.mcause, 11);
  assert_int_equal(cpu.mepc, RV_RAM_BASE + 8);
  assert_int_equal(cpu.mstatus & ((1u << 3) | (1u << 7)), 1u << 7); /* MIE -> MPIE */
  for (int i = 0; i < 3; i++) assert_int_equal(step().trap, HWPROF_TRAP_HANDLER);
  ev = step(); /* mret */
  assert_int_equal(ev.kind, HWPROF_KIND_IJUMP);
  assert_int_equal(ev.trap, HWPROF_TRAP_HANDLER); /* the handler's last instruction */
  assert_int_equal(cpu.pc, RV_RAM_BASE + 12);
  assert_int_equal(cpu.mstatus & (1u << 3), 1u << 3); /* MIE restored */
  assert_int_equal(step().trap, HWPROF_TRAP_NONE); /* the program again */
  assert_int_equal(cpu.x[5], 7);
}

static void test_rv32_misaligned_load_traps_with_the_address(void **state) {
  (void)state;
  const uint32_t code[] = {CSRRW(0, 0x305, 1), i_type(2, 2, 2, 3, 0x03)}; /* lw x3, 2(x2) */
  program(code, 2);
  cpu.x[1] = RV_RAM_BASE + 0x40;
  cpu.x[2] = RV_RAM_BASE + 0x100;
  step();
  step();
  assert_int_equal(cpu.mcause, 4);
  assert_int_equal(cpu.mtval, RV_RAM_BASE + 0x102);
  assert_int_equal(cpu.pc, RV_RAM_BASE + 0x40);
}

static void test_rv32_illegal_instruction_without_handler_is_an_error(void **state) {
  (void)state;
  put(RV_RAM_BASE, 0xffffffffu);
  hwprof_retire_ev_t ev;
  assert_int_equal(rv_step(&cpu, &ev), RV_FAILED);
  assert_non_null(strstr(cpu.error, "illegal instruction at pc 0x80000000"));
}

static void test_rv32_external_interrupt_taken_only_when_enabled(void **state) {
  (void)state;
  const uint32_t code[] = {ADDI(1, 1, 1), ADDI(1, 1, 1), ADDI(1, 1, 1)};
  program(code, 3);
  cpu.mtvec = RV_RAM_BASE + 0x80;
  cpu.irq_line = true;
  hwprof_retire_ev_t ev = step(); /* mstatus.MIE = 0: not taken */
  assert_true(ev.valid);
  cpu.mstatus |= 1u << 3;
  ev = step(); /* mie.MEIE = 0: not taken */
  assert_true(ev.valid);
  cpu.mie = 1u << 11;
  ev = step();
  assert_false(ev.valid); /* no instruction retired */
  assert_int_equal(cpu.mcause, 0x8000000bu);
  assert_int_equal(cpu.mepc, RV_RAM_BASE + 8);
  assert_int_equal(cpu.pc, RV_RAM_BASE + 0x80);
  assert_int_equal(cpu.x[1], 2);
  /* the handler's instructions say so (ev.trap), its mret included; then the program's again */
  put(RV_RAM_BASE + 0x80, ADDI(7, 7, 1));
  put(RV_RAM_BASE + 0x84, MRET);
  cpu.irq_line = false;
  ev = step();
  assert_int_equal(ev.trap, HWPROF_TRAP_HANDLER);
  ev = step();
  assert_int_equal(ev.trap, HWPROF_TRAP_HANDLER);
  assert_int_equal(ev.next_pc, RV_RAM_BASE + 8);
  ev = step();
  assert_int_equal(ev.trap, HWPROF_TRAP_NONE);
  assert_int_equal(cpu.x[1], 3);
}

/* the machine timer (docs/cpu-model.md): mtime is instret; mtimecmp at HWPROF_PLAT_MTIMECMP. A
 * program stores 6 into mtimecmp (x2 = 0x02004000 by LUI; mtimecmp's high word 0): instructions
 * 0..3 are the LUI, two stores and an ADDI, retiring with instret 1..4; after the 6th retired
 * instruction mtime = 6 >= 6, so the interrupt comes before the 7th (at pc 4 x 6), mcause
 * 0x80000007, and the external interrupt, when both are pending, first. */
static void test_rv32_machine_timer_interrupts_at_mtimecmp(void **state) {
  (void)state;
  const uint32_t code[] = {
      0x02004137u,               /* lui x2, 0x2004: x2 = 0x02004000 */
      s_type(4, 0, 2, 2),        /* sw x0, 4(x2): mtimecmp high = 0 */
      ADDI(3, 0, 6),             /* x3 = 6 */
      s_type(0, 3, 2, 2),        /* sw x3, 0(x2): mtimecmp low = 6 */
      ADDI(1, 1, 1), ADDI(1, 1, 1), ADDI(1, 1, 1), ADDI(1, 1, 1),
  };
  program(code, 8);
  cpu.mtvec = RV_RAM_BASE + 0x80;
  cpu.mstatus |= 1u << 3;
  cpu.mie = 1u << 7; /* MTIE */
  assert_int_equal(cpu.mtimecmp, UINT64_MAX); /* no timer interrupt after reset */
  for (unsigned k = 0; k < 6; k++) assert_true(step().valid);
  assert_int_equal(cpu.mtimecmp, 6);
  assert_int_equal(cpu.instret, 6);
  hwprof_retire_ev_t ev = step();
  assert_false(ev.valid);
  assert_int_equal(cpu.mcause, 0x80000007u);
  assert_int_equal(cpu.mepc, RV_RAM_BASE + 24);
  assert_int_equal(cpu.x[1], 2);
  /* both pending, both enabled: the external interrupt first */
  cpu.pc = RV_RAM_BASE + 24;
  cpu.mstatus |= 1u << 3;
  cpu.mie = (1u << 7) | (1u << 11);
  cpu.irq_line = true;
  ev = step();
  assert_false(ev.valid);
  assert_int_equal(cpu.mcause, 0x8000000bu);
}

static void test_rv32_semihosting_write_and_extended_exit(void **state) {
  (void)state;
  const uint32_t call[] = {0x01f01013u, 0x00100073u, 0x40705013u}; /* slli; ebreak; srai */
  program(call, 3);
  put(RV_RAM_BASE + 12, 0x01f01013u);
  put(RV_RAM_BASE + 16, 0x00100073u);
  put(RV_RAM_BASE + 20, 0x40705013u);
  memcpy(cpu.ram + 0x200, "hi\n", 4);
  put(RV_RAM_BASE + 0x300, 0x20026u); /* ADP_Stopped_ApplicationExit */
  put(RV_RAM_BASE + 0x304, 42u);
  cpu.x[10] = 0x04; /* SYS_WRITE0 */
  cpu.x[11] = RV_RAM_BASE + 0x200;
  step();
  step();
  step();
  cpu.x[10] = 0x20; /* SYS_EXIT_EXTENDED */
  cpu.x[11] = RV_RAM_BASE + 0x300;
  step();
  hwprof_retire_ev_t ev;
  assert_int_equal(rv_step(&cpu, &ev), RV_EXITED);
  assert_int_equal(cpu.exit_code, 42);
  fflush(console);
  assert_string_equal(console_buf, "hi\n");
}

static uint32_t prof(uint32_t op, uint32_t rs1, uint32_t rd, uint32_t imm) {
  return imm << 20 | rs1 << 15 | op << 12 | rd << 7 | HWPROF_OPCODE_PROF;
}

static void test_rv32_profiling_instructions_become_prof_events(void **state) {
  (void)state;
  const uint32_t code[] = {
      prof(HWPROF_PROF_OP_INIT, 1, 0, 0),     /* prof.init x1 */
      prof(HWPROF_PROF_OP_SETOFF, 2, 0, 0),   /* prof.setoff x2 */
      prof(HWPROF_PROF_OP_START, 0, 0, 0),    /* prof.start */
      prof(HWPROF_PROF_OP_ID, 0, 0x5, 0x123), /* prof.id 0x123, dec, bhint 2 */
      prof(7, 0, 0, 0),                        /* reserved: illegal */
  };
  program(code, 5);
  cpu.x[1] = 0x80001000u;
  cpu.x[2] = 24;
  hwprof_retire_ev_t ev = step();
  assert_int_equal(ev.kind, HWPROF_KIND_PROF);
  assert_int_equal(ev.op, HWPROF_PROF_OP_INIT);
  assert_int_equal(ev.operand, 0x80001000u);
  ev = step();
  assert_int_equal(ev.op, HWPROF_PROF_OP_SETOFF);
  assert_int_equal(ev.operand, 24);
  ev = step();
  assert_int_equal(ev.op, HWPROF_PROF_OP_START);
  ev = step();
  assert_int_equal(ev.op, HWPROF_PROF_OP_ID);
  assert_int_equal(ev.pid, 0x123);
  assert_true(ev.ihint);
  assert_int_equal(ev.bhint, 2);
  assert_int_equal(cpu.instret, 4); /* each counts as one retired instruction */
  hwprof_retire_ev_t bad;
  assert_int_equal(rv_step(&cpu, &bad), RV_FAILED);
  assert_non_null(strstr(cpu.error, "illegal instruction"));
}

static void test_rv32_profiling_operand_from_shadow_word_when_rs1_is_x0(void **state) {
  (void)state;
  const uint32_t code[] = {
      prof(HWPROF_PROF_OP_INIT, 0, 0, 0),    /* prof.init x0: base from the shadow word */
      prof(HWPROF_PROF_OP_SETOFF, 0, 0, 0),  /* prof.setoff x0 */
      prof(HWPROF_PROF_OP_TRIGGER, 3, 0, 0), /* prof.trigger x3: a register, shadow ignored */
      prof(HWPROF_PROF_OP_ID, 0, 0, 5),      /* prof.id 5: pid from imm, shadow ignored */
  };
  program(code, 4);
  cpu.shadow[0] = 0x80c00000u;
  cpu.shadow[1] = 63u;
  cpu.shadow[2] = 1234u;
  cpu.shadow[3] = 0xffffu;
  cpu.x[3] = 17;
  hwprof_retire_ev_t ev = step();
  assert_int_equal(ev.op, HWPROF_PROF_OP_INIT);
  assert_int_equal(ev.operand, 0x80c00000u);
  ev = step();
  assert_int_equal(ev.op, HWPROF_PROF_OP_SETOFF);
  assert_int_equal(ev.operand, 63);
  ev = step();
  assert_int_equal(ev.operand, 17);
  ev = step();
  assert_int_equal(ev.pid, 5);
}

/* Path words (docs/path.md), with the bits written out by hand: prof.path (funct3 6) takes
 * its word from its shadow word; a branch's shadow word with bit 30 set (bit 31 clear) carries
 * bits 28:0 as op PATH when it goes the way bit 29 names, and no pid; a return carries bits 15:0
 * (kind, a) and, with bit 19, is a linked return (op POP). */
static void test_rv32_path_words_ride_on_prof_path_branches_and_returns(void **state) {
  (void)state;
  const uint32_t code[] = {
      prof(6, 0, 0, 0),           /* 0: prof.path, word from the shadow */
      b_type(8, 0, 0, 0),         /* 4: beq x0, x0, +8: taken */
      ADDI(0, 0, 0),              /* 8 */
      b_type(8, 0, 0, 1),         /* 12: bne x0, x0, +8: not taken */
      i_type(0, 1, 0, 0, 0x67),   /* 16: ret */
      i_type(0, 1, 0, 0, 0x67),   /* 20: ret */
  };
  program(code, 6);
  cpu.shadow[0] = 0x00123456u;
  cpu.shadow[1] = 0x40000000u | (3u << 16) | (5u << 3) | 3u;             /* when taken: COUNT 5, 3 */
  cpu.shadow[3] = 0x40000000u | (1u << 29) | (0x1fffu << 16) | (2u << 3) | 1u; /* when not taken: ADD 2 */
  cpu.shadow[4] = 0x40000000u | (1u << 19) | (7u << 3) | 3u;             /* linked return, COUNT 7 */
  cpu.shadow[5] = 0x40000000u | (9u << 3) | 3u;                          /* return, COUNT 9 */
  cpu.x[1] = RV_RAM_BASE + 20;
  hwprof_retire_ev_t ev = step();
  assert_int_equal(ev.kind, HWPROF_KIND_PROF);
  assert_int_equal(ev.op, 6);
  assert_int_equal(ev.operand, 0x00123456u);
  ev = step();
  assert_int_equal(ev.op, 6);
  assert_int_equal(ev.operand, (3u << 16) | (5u << 3) | 3u);
  assert_int_equal(ev.pid, 0);
  cpu.pc = RV_RAM_BASE + 12;
  ev = step();
  assert_false(ev.taken);
  assert_int_equal(ev.op, 6);
  assert_int_equal(ev.operand, 0x1fff0000u | (2u << 3) | 1u); /* b's 13 bits and the rest of 28:0 */
  ev = step();
  assert_true(ev.is_ret);
  assert_int_equal(ev.op, HWPROF_PROF_OP_POP);
  assert_int_equal(ev.operand, (7u << 3) | 3u);
  ev = step();
  assert_int_equal(ev.op, 6);
  assert_int_equal(ev.operand, (9u << 3) | 3u);
  /* the taken branch with its word for the not-taken way: nothing */
  cpu.shadow[1] |= 1u << 29;
  cpu.pc = RV_RAM_BASE + 4;
  ev = step();
  assert_int_equal(ev.op, 0);
  assert_int_equal(ev.pid, 0);
}

static void test_rv32_shadow_words_annotate_branches_and_can_be_patched(void **state) {
  (void)state;
  const uint32_t code[] = {
      b_type(8, 0, 0, 0),            /* 0: beq x0, x0, +8 */
      ADDI(0, 0, 0),                 /* 4 */
      s_type(0, 2, 1, 2),            /* 8: sw x2, 0(x1): patch the branch's shadow word */
      jal(-12, 0),                   /* 12: back to 0 */
      ADDI(3, 0, 1),                 /* 16: an ordinary instruction: its shadow word is a carrier word */
  };
  program(code, 5);
  cpu.shadow[0] = 7u | (2u << HWPROF_SHADOW_BHINT_LSB); /* pid 7, either, inc */
  cpu.shadow[4] = 9u;
  cpu.x[1] = RV_SHADOW_BASE;                          /* the shadow word of the instruction at 0 */
  cpu.x[2] = 5u | (1u << HWPROF_SHADOW_IHINT_LSB) | (3u << HWPROF_SHADOW_BHINT_LSB);
  hwprof_retire_ev_t ev = step();
  assert_int_equal(ev.pid, 7);
  assert_int_equal(ev.bhint, 2);
  assert_false(ev.ihint);
  step(); /* the store */
  ev = step();
  assert_int_equal(ev.kind, HWPROF_KIND_JUMP);
  assert_int_equal(ev.pid, 0);
  ev = step(); /* the branch again, patched */
  assert_int_equal(ev.pid, 5);
  assert_int_equal(ev.bhint, 3);
  assert_true(ev.ihint);
  cpu.pc = RV_RAM_BASE + 16;
  ev = step();
  assert_int_equal(ev.kind, HWPROF_KIND_OTHER);
  assert_int_equal(ev.pid, 0);
  assert_int_equal(ev.op, HWPROF_PROF_OP_INIT); /* 9 = 0b10_01: prof.init 8 */
  assert_int_equal(ev.operand, 8);
}

/* Carrier words (docs/pir.md): bits 1:0 of an ordinary instruction's shadow word give it a
 * prof.init (1: base = the word with those bits cleared), prof.setoff (2: offset = the word >> 2)
 * or prof.id (3: pid in bits 31:16, ihint in bit 2); 0 gives nothing. Words written by hand. */
static void test_rv32_carrier_words_give_other_instructions_a_pir_operation(void **state) {
  (void)state;
  const uint32_t code[] = {
      ADDI(1, 0, 0x100),         /* 0: addi x1, x0, 0x100: INIT 0x80c00040 */
      ADDI(0, 0, 0),             /* 4: a load, below */
      ADDI(0, 0, 0),             /* 8: a store, below */
      0x000102b7u,               /* 12: lui x5, 0x10: SETOFF 1000 */
      ADDI(6, 0, 1),             /* 16: ID 0x1234, ihint 1 */
      ADDI(7, 0, 2),             /* 20: ID with pid 0: nothing */
      ADDI(8, 0, 3),             /* 24: shadow 0: nothing */
  };
  program(code, 7);
  cpu.shadow[0] = 0x80c00041u;
  cpu.shadow[3] = 0x00000fa2u;                /* 1000 << 2 | 2 */
  cpu.shadow[4] = 0x12340007u;                /* pid 0x1234 << 16 | ihint 1 << 2 | 3 */
  cpu.shadow[5] = 0x00000003u;                /* ID, pid 0 */
  hwprof_retire_ev_t ev = step();
  assert_int_equal(ev.kind, HWPROF_KIND_OTHER);
  assert_int_equal(ev.op, HWPROF_PROF_OP_INIT);
  assert_int_equal(ev.operand, 0x80c00040u);
  assert_int_equal(ev.pid, 0);
  assert_int_equal(cpu.x[1], 0x100);
  cpu.pc = RV_RAM_BASE + 12;
  ev = step();
  assert_int_equal(ev.op, HWPROF_PROF_OP_SETOFF);
  assert_int_equal(ev.operand, 1000);
  assert_int_equal(cpu.x[5], 0x10000);
  ev = step();
  assert_int_equal(ev.op, HWPROF_PROF_OP_ID);
  assert_int_equal(ev.pid, 0x1234);
  assert_true(ev.ihint);
  ev = step();
  assert_int_equal(ev.op, HWPROF_PROF_OP_ID);
  assert_int_equal(ev.pid, 0);
  assert_false(ev.ihint);
  ev = step();
  assert_int_equal(ev.op, 0);
  assert_int_equal(ev.operand, 0);
  assert_int_equal(ev.pid, 0);
  /* a load and a store carry them too */
  cpu.shadow[1] = 0x80c00101u;
  cpu.shadow[2] = 0x00050003u;
  cpu.x[1] = RV_RAM_BASE + 0x200;
  const uint32_t ls[] = {i_type(0, 1, 2, 2, 0x03), s_type(4, 1, 1, 2)}; /* lw x2, 0(x1); sw x1, 4(x1) */
  put(RV_RAM_BASE + 4, ls[0]);
  put(RV_RAM_BASE + 8, ls[1]);
  cpu.pc = RV_RAM_BASE + 4;
  ev = step();
  assert_int_equal(ev.kind, HWPROF_KIND_LOAD);
  assert_int_equal(ev.op, HWPROF_PROF_OP_INIT);
  assert_int_equal(ev.operand, 0x80c00100u);
  ev = step();
  assert_int_equal(ev.kind, HWPROF_KIND_STORE);
  assert_int_equal(ev.op, HWPROF_PROF_OP_ID);
  assert_int_equal(ev.pid, 5);
  assert_false(ev.ihint);
}

/* A call's shadow word is its link word (bit 0: a linked call, op PUSH, operand = the callee's
 * counter area); a return's bit 19 makes it a linked return (op POP) next to its pid and hints. */
static void test_rv32_calls_and_returns_read_link_words(void **state) {
  (void)state;
  const uint32_t code[] = {
      jal(8, 1),                   /* 0: call 8 (jal ra) */
      ADDI(0, 0, 0),               /* 4 */
      i_type(0, 1, 0, 0, 0x67),    /* 8: ret (jalr x0, 0(ra)) */
      jal(-12, 5),                 /* 12: jal t0, 0: a call with a zero shadow word */
  };
  program(code, 4);
  cpu.shadow[0] = 0x80c00040u | 1u;                                   /* linked, area 0x80c00040 */
  cpu.shadow[2] = 3u | (3u << HWPROF_SHADOW_BHINT_LSB) | (1u << HWPROF_SHADOW_POP_LSB); /* pid 3, all, pop */
  hwprof_retire_ev_t ev = step();
  assert_true(ev.is_call);
  assert_int_equal(ev.op, HWPROF_PROF_OP_PUSH);
  assert_int_equal(ev.operand, 0x80c00040u);
  assert_int_equal(ev.pid, 0); /* a link word carries no pid */
  ev = step();
  assert_true(ev.is_ret);
  assert_int_equal(ev.op, HWPROF_PROF_OP_POP);
  assert_int_equal(ev.pid, 3);
  assert_int_equal(ev.bhint, HWPROF_BHINT_ALL);
  cpu.shadow[2] = 3u; /* the same return without bit 19 */
  cpu.pc = RV_RAM_BASE + 12;
  ev = step();
  assert_true(ev.is_call);
  assert_int_equal(ev.op, 0); /* not linked */
  ev = step(); /* the call at 0 again, now from t0's call: still linked */
  assert_int_equal(ev.op, HWPROF_PROF_OP_PUSH);
  ev = step();
  assert_int_equal(ev.op, 0);
  assert_int_equal(ev.pid, 3);
}

/* A call's shadow word with bit 1 (bit 0 clear) starts the callee's area without saving (op INIT);
 * a branch's or jump's shadow word can carry a region switch (op SETOFF) for one direction. */
static void test_rv32_call_init_and_region_switches(void **state) {
  (void)state;
  const uint32_t code[] = {
      jal(8, 1),           /* 0: call 8 */
      ADDI(0, 0, 0),       /* 4 */
      b_type(8, 0, 0, 0),  /* 8: beq x0, x0, +8 (taken) */
      ADDI(0, 0, 0),       /* 12 */
      b_type(8, 1, 0, 0),  /* 16: bne x0, x0, +8 (not taken) */
      jal(-24, 0),         /* 20: j 0 (no switch) */
  };
  program(code, 6);
  cpu.shadow[0] = 0x80c00100u | 2u;                                       /* starts the area at 0x80c00100 */
  cpu.shadow[2] = 4u | rv32_shadow_setoff(7, false);                      /* pid 4, to offset 7 when taken */
  cpu.shadow[4] = 5u | (1u << HWPROF_SHADOW_BHINT_LSB) | rv32_shadow_setoff(1023, false); /* when taken only */
  hwprof_retire_ev_t ev = step();
  assert_int_equal(ev.op, HWPROF_PROF_OP_INIT);
  assert_int_equal(ev.operand, 0x80c00100u);
  ev = step();
  assert_true(ev.taken);
  assert_int_equal(ev.pid, 4);
  assert_int_equal(ev.op, HWPROF_PROF_OP_SETOFF);
  assert_int_equal(ev.operand, 7);
  ev = step(); /* the bne at 16, not taken: its switch is for the taken way */
  assert_false(ev.taken);
  assert_int_equal(ev.pid, 5);
  assert_int_equal(ev.op, 0);
  cpu.shadow[4] = rv32_shadow_setoff(1023, true);
  cpu.pc = RV_RAM_BASE + 16;
  ev = step();
  assert_int_equal(ev.op, HWPROF_PROF_OP_SETOFF); /* now for the not-taken way */
  assert_int_equal(ev.operand, 1023);
  ev = step(); /* j 0: a jump without a switch */
  assert_int_equal(ev.op, 0);
}

static void test_rv32_bad_elf_files_are_rejected_by_name(void **state) {
  (void)state;
  assert_int_equal(rv_load_elf(&cpu, "/nonexistent/prog.elf"), -1);
  assert_non_null(strstr(cpu.error, "/nonexistent/prog.elf: cannot open"));
  char path[] = "/tmp/hwprof-rv32-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "wb");
  for (int i = 0; i < 64; i++) fputc('x', f);
  fclose(f);
  assert_int_equal(rv_load_elf(&cpu, path), -1);
  assert_non_null(strstr(cpu.error, "not an ELF file"));
  remove(path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_rv32_m_extension_edge_cases, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rv32_multiply_high_variants, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rv32_loads_extend_and_report_address_and_value, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rv32_control_transfers_fill_the_retire_event, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rv32_ecall_traps_and_mret_returns, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rv32_misaligned_load_traps_with_the_address, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rv32_illegal_instruction_without_handler_is_an_error, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rv32_path_words_ride_on_prof_path_branches_and_returns, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rv32_external_interrupt_taken_only_when_enabled, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rv32_machine_timer_interrupts_at_mtimecmp, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rv32_semihosting_write_and_extended_exit, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rv32_profiling_instructions_become_prof_events, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rv32_carrier_words_give_other_instructions_a_pir_operation, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rv32_profiling_operand_from_shadow_word_when_rs1_is_x0, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rv32_shadow_words_annotate_branches_and_can_be_patched, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rv32_calls_and_returns_read_link_words, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rv32_call_init_and_region_switches, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rv32_bad_elf_files_are_rejected_by_name, setup, teardown),
  };
  return cmocka_run_group_tests_name("rv32", tests, NULL, NULL);
}
