/* Unit tests of the co-processor's instruction-level interpreter (sw/host/cop/cop_interp.c). Each
 * expected value is worked out by hand from the rules of docs/cop.md ("One microinstruction")
 * and written in the comment next to it. Programs are written in assembly (the assembler's encodings
 * are checked against hand-computed words in test_cop_asm.c). */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cop_asm.h"
#include "cop_interp.h"

static cop_interp_t s;

static void load(const char *src) {
  hwprof_cop_image_t img;
  char err[512];
  if (cop_asm(src, "t.s", &img, err, sizeof err)) fail_msg("%s", err);
  cop_interp_free(&s);
  assert_int_equal(cop_interp_init(&s, COP_GEOM_DEFAULT), 0);
  assert_int_equal(cop_interp_load(&s, &img), 0);
}

static int run(uint8_t kind, uint32_t pc, uint32_t value) {
  cop_sample_t x = {.pc = pc, .npc = pc + 4, .insn = 0x00452503u /* lw a0, 4(a0) */, .addr = 0x2000, .value = value, .kind = kind};
  return cop_interp_sample(&s, &x, 1000);
}

static int teardown(void **state) {
  (void)state;
  cop_interp_free(&s);
  return 0;
}

/* a PC-count table: the CAM holds PCs, a halfword counter per slot */
static void test_cop_interp_counts_loads_per_pc(void **state) {
  (void)state;
  load(".fields pc, value\n.dispatch load, entry\n.base b0, 0x000, half\n.const c0, 1\n.idxw i1, 3\n"
       "entry:  cmatch i0, s.pc | bcmiss.t new\n"
       "        incs b0[i0] | b done\n"
       "new:    cwrite i1, s.pc | st b0[i1], c0 | iinc i1 | bilim full\n"
       "        b done\n"
       "full:   b intr\n");
  const uint32_t pcs[] = {0x100, 0x104, 0x100, 0x108, 0x100};
  for (int k = 0; k < 5; k++) assert_int_equal(run(4, pcs[k], 0), COP_SAMPLE_DONE);
  /* slots in first-seen order: 0x100 -> 0, 0x104 -> 1, 0x108 -> 2; counts 3, 1, 1 */
  assert_true(s.cam_valid[0] && s.cam_key[0] == 0x100);
  assert_true(s.cam_valid[1] && s.cam_key[1] == 0x104);
  assert_true(s.cam_valid[2] && s.cam_key[2] == 0x108);
  assert_false(s.cam_valid[3]);
  assert_int_equal(cop_interp_data_get(&s, 0, 2), 3);
  assert_int_equal(cop_interp_data_get(&s, 2, 2), 1);
  assert_int_equal(cop_interp_data_get(&s, 4, 2), 1);
  /* 3 + 3 + 2 + 3 + 2 instructions */
  assert_int_equal(s.executed, 13);
  assert_int_equal(s.samples, 5);
  /* five more new PCs: i1 runs 3, 4, 5, 6, 7 -> 0 (width 3): the eighth slot wraps and interrupts */
  for (uint32_t k = 0; k < 4; k++) assert_int_equal(run(4, 0x200 + 4 * k, 0), COP_SAMPLE_DONE);
  assert_int_equal(s.i[1], 7);
  assert_int_equal(run(4, 0x300, 0), COP_SAMPLE_INTR);
  assert_int_equal(s.intr_pc, 4);
  assert_int_equal(s.i[1], 0);
  assert_int_equal(run(4, 0x304, 0), COP_ERR_HALTED);
  cop_interp_resume(&s);
  assert_int_equal(run(4, 0x100, 0), COP_SAMPLE_DONE);
  assert_int_equal(cop_interp_data_get(&s, 0, 2), 4);
}

static void test_cop_interp_alu_results(void **state) {
  (void)state;
  load(".fields value\n.dispatch other, a\n.const c0, 0xffffffff\n.const c1, 2\n.const c2, 33\n.const c3, 0xffff\n"
       "a: mov v0, c0\n"
       "   adds v1, v0, c1 | basat.t sat1\n" /* 0xffffffff + 2 saturates: 0xffffffff, ASAT */
       "   b intr\n"
       "sat1: add v2, v0, c1\n"             /* wraps: 1 */
       "   subs v3, c1, c2 | basat.t sat2\n" /* 2 - 33 saturates at 0 */
       "   b intr\n"
       "sat2: shl v0, c1, c2\n"            /* 2 << (33 & 31) = 4 */
       "   rand v1, c3\n"                   /* LFSR 0xace1 & 0xffff; LFSR -> 0xe270 */
       "   rand v3, c3\n"                   /* 0xe270; LFSR -> 0x7138 */
       "   sub v2, v2, c1 | bz.t .+2\n"     /* 1 - 2 = 0xffffffff: not zero */
       "   xor v2, v2, c0 | bz.t .+2\n"     /* 0xffffffff ^ 0xffffffff = 0: taken */
       "   b intr\n"
       "   shr v2, c0, c2 | b done\n");     /* 0xffffffff >> 1 */
  assert_int_equal(run(0, 0, 0), COP_SAMPLE_DONE);
  assert_int_equal(s.v[0], 4);
  assert_int_equal(s.v[1], 0xace1);
  assert_int_equal(s.v[2], 0x7fffffff);
  assert_int_equal(s.v[3], 0xe270);
  assert_int_equal(s.lfsr, 0x7138);
  assert_int_equal(cop_lfsr_next(0x7138), 0x389c); /* even: a plain shift */
}

static void test_cop_interp_index_widths_and_limits(void **state) {
  (void)state;
  load(".fields value\n.dispatch other, a\n.idxw i0, 2\n.idxw i1, 3\n.idxw i2, 4\n.const c0, 0x1234\n"
       "a: iload i2, c0\n"           /* 0x1234 mod 16 = 4 */
       "   iincs i1 | bilim.t .+2\n" /* 0 -> 1 */
       "   b .-1\n"                 /* back until i1 saturates at 7 */
       "   iinc i0 | bnilim .\n"     /* 0 -> 1 -> 2 -> 3 -> 0: ILIM on the wrap */
       "   idecs i2 | bnilim .\n"    /* 4 -> 3 -> 2 -> 1 -> 0 */
       "   idecs i2 | bilim done\n"  /* stays 0, ILIM */
       "   b intr\n");
  assert_int_equal(run(0, 0, 0), COP_SAMPLE_DONE);
  assert_int_equal(s.i[0], 0);
  assert_int_equal(s.i[1], 7);
  assert_int_equal(s.i[2], 0);
  /* 1 + 7 iincs and 6 b .-1 + 4 iinc + 4 idecs + 1 */
  assert_int_equal(s.executed, 1 + 7 + 6 + 4 + 4 + 1);
}

static void test_cop_interp_data_elements_and_saturation(void **state) {
  (void)state;
  load(".fields value\n.dispatch load, a\n.base b0, 0x100, byte\n.base b1, 0x200, half\n.base b2, 0x300, word\n"
       ".const c0, 0xfe\n.const c1, 0x12345678\n.idxw i3, 2\n"
       "a: iload i1, c0\n"                       /* i1 = 0xfe */
       "   st b0[i1], c0\n"                      /* byte at 0x100 | 0xfe = 0x1fe */
       "   incs b0[i1] | bdsat.t .+2\n"          /* 0xfe -> 0xff: saturated */
       "   b intr\n"
       "   incs b0[i1] | bndsat intr_at\n"       /* stays 0xff, DSAT again */
       "   st b2[i1], c1\n"                      /* word at (0x300 | 0xfe << 2) mod 2048 = 0x3f8 */
       "   ld v0, b1[i1]\n"                      /* half at 0x200 | 0xfe << 1 = 0x3fc, still 0 */
       "   st b1[i1], s.value\n"                 /* half at 0x3fc := low 16 bits of value */
       "   decs b0[i3] | bdsat .+2\n"            /* byte at 0x100: 0 stays 0, DSAT */
       "   b intr\n"
       "   st b2[i3], zero | iinc i3 | bnilim .\n" /* clear words 0x300..0x30c */
       "   b done\n"
       "intr_at: b intr\n");
  /* seed words 0x300..0x30c so the clear loop is visible */
  for (uint32_t a = 0x300; a < 0x310; a++) s.data[a] = 0xaa;
  assert_int_equal(run(4, 0x100, 0xcafef00d), COP_SAMPLE_DONE);
  assert_int_equal(s.data[0x1fe], 0xff);
  assert_int_equal(cop_interp_data_get(&s, 0x3f8, 4), 0x12345678);
  assert_int_equal(s.v[0], 0); /* 0x3fc was 0 before the store to it */
  assert_int_equal(cop_interp_data_get(&s, 0x3fc, 2), 0xf00d);
  assert_int_equal(s.data[0x100], 0);
  for (uint32_t a = 0x300; a < 0x310; a += 4) assert_int_equal(cop_interp_data_get(&s, a, 4), 0);
}

static void test_cop_interp_write_back_order_and_operands_before(void **state) {
  (void)state;
  load(".fields pc\n.dispatch branch, a\n.const c1, 77\n.base b0, 0, word\n"
       "a: cwrite i0, s.pc\n"                  /* entry 0 = pc */
       "   ld v0, b0[i2] | mov v0, c1\n"       /* ALU wins over the read: v0 = 77 */
       "   cmatch i2, s.pc | iinc i2\n"        /* hit at 0, but the index slot wins: i2 = 0 + 1 */
       "   iinc i1 | st b0[i1], c1\n"          /* stored at the old i1 = 0 */
       "   iinc i1 | ld v1, b0[i1] | b done\n"); /* read at the old i1 = 1: 0 */
  assert_int_equal(run(1, 0x444, 0), COP_SAMPLE_DONE);
  assert_int_equal(s.v[0], 77);
  assert_int_equal(s.i[2], 1);
  assert_int_equal(cop_interp_data_get(&s, 0, 4), 77);
  assert_int_equal(s.v[1], 0);
  assert_int_equal(s.i[1], 2);
}

static void test_cop_interp_cam_lowest_match_and_invalidate(void **state) {
  (void)state;
  load(".fields pc\n.dispatch load, a\n.const c0, 9\n.const c1, 200\n"
       "a: cwrite i0, s.pc\n"                /* entry 0 */
       "   iload i0, c0\n"
       "   cwrite i0, s.pc\n"                /* entry 9 */
       "   iload i1, c1\n"
       "   cwrite i1, s.pc\n"                /* entry 200 */
       "   cmatch i2, s.pc | bcmiss intr_at\n" /* lowest: 0 */
       "   cinval i2\n"
       "   cmatch i3, s.pc | bcmiss intr_at\n" /* now 9 */
       "   b done\n"
       "intr_at: b intr\n");
  assert_int_equal(run(4, 0x88, 0), COP_SAMPLE_DONE);
  assert_int_equal(s.i[2], 0);
  assert_int_equal(s.i[3], 9);
  assert_false(s.cam_valid[0]);
  assert_true(s.cam_valid[9] && s.cam_valid[200]);
  cop_interp_cam_invalidate(&s);
  assert_false(s.cam_valid[9] || s.cam_valid[200]);
}

static void test_cop_interp_dispatch_targets_and_runaway(void **state) {
  (void)state;
  load(".fields insn\n.dispatch load, ld_\n.dispatch store, st_\n.target t1, far\n"
       "ld_: mov v0, s.rd | b t1\n"              /* lw a0, 4(a0): rd = 10 */
       "st_: b .\n"                              /* a loop that never ends */
       "nop\nnop\nnop\nnop\nnop\nnop\nnop\nnop\nnop\nnop\n"
       "far: mov v1, s.imm | b done\n");         /* imm = 4 */
  assert_int_equal(run(4, 0, 0), COP_SAMPLE_DONE);
  assert_int_equal(s.v[0], 10);
  assert_int_equal(s.v[1], 4);
  assert_int_equal(run(5, 0, 0), COP_ERR_RUNAWAY);
}

/* fields the record does not hold read 0; s.info always there */
static void test_cop_interp_unselected_fields_read_zero(void **state) {
  (void)state;
  hwprof_cop_image_t img;
  char err[512];
  assert_int_equal(cop_asm(".fields pc, value\n.dispatch load, a\na: mov v0, s.value\n mov v1, s.info | b done\n", "t.s", &img, err, sizeof err), 0);
  img.fields = 1u << HWPROF_SFIELD_PC; /* value no longer in the record */
  cop_interp_free(&s);
  assert_int_equal(cop_interp_init(&s, COP_GEOM_DEFAULT), 0);
  assert_int_equal(cop_interp_load(&s, &img), 0);
  cop_sample_t x = {.pc = 4, .value = 99, .kind = 4, .taken = 1, .is_ret = 1};
  assert_int_equal(cop_interp_sample(&s, &x, 10), COP_SAMPLE_DONE);
  assert_int_equal(s.v[0], 0);
  assert_int_equal(s.v[1], 4u | 1u << 3 | 1u << 5);
}

/* reserved codes (words built by hand: the assembler never emits them) have their defined effects */
static void test_cop_interp_reserved_codes(void **state) {
  (void)state;
  hwprof_cop_image_t img;
  memset(&img, 0, sizeof img);
  for (unsigned k = 0; k < 8; k++) img.idxw[k] = 16;
  img.lfsr = 1;
  img.fields = 0x1f;
  img.kinds = 1;
  img.c[0] = 5;
  img.n_uc = 4;
  /* 0: ALU 12 (reserved) dst v1, A = c0 (4): no write; COND 15 (reserved): never taken */
  img.uc[0] = 12ull | 1ull << 4 | 4ull << 6 | 15ull << 38;
  /* 1: MOV v2, A = source 30 (reserved: reads 0); DATA_OP 6 (reserved): nothing */
  img.uc[1] = 1ull | 2ull << 4 | 30ull << 6 | 6ull << 21;
  /* 2: ALWAYS to target 14 (reserved): falls through; IDX_OP 7 (reserved) on i0 */
  img.uc[2] = 1ull << 38 | 14ull << 42 | 7ull << 32;
  /* 3: b done */
  img.uc[3] = 1ull << 38 | 12ull << 42;
  cop_interp_free(&s);
  assert_int_equal(cop_interp_init(&s, COP_GEOM_DEFAULT), 0);
  assert_int_equal(cop_interp_load(&s, &img), 0);
  s.v[1] = 0x55;
  s.v[2] = 0x66;
  s.i[0] = 3;
  cop_sample_t x = {.kind = 0};
  assert_int_equal(cop_interp_sample(&s, &x, 10), COP_SAMPLE_DONE);
  assert_int_equal(s.executed, 4);
  assert_int_equal(s.v[1], 0x55);
  assert_int_equal(s.v[2], 0);
  assert_int_equal(s.i[0], 3);
  for (unsigned a = 0; a < 2048; a++) assert_int_equal(s.data[a], 0);
}

static void test_cop_interp_refuses_bad_geometry_and_oversized_image(void **state) {
  (void)state;
  cop_interp_t t;
  assert_int_equal(cop_interp_init(&t, (cop_geom_t){48, 256, 2048}), COP_ERR_ARG);
  assert_int_equal(cop_interp_init(&t, (cop_geom_t){64, 256, 2}), COP_ERR_ARG);
  assert_int_equal(cop_interp_init(&t, (cop_geom_t){8, 4, 16}), 0);
  hwprof_cop_image_t img;
  memset(&img, 0, sizeof img);
  img.n_uc = 9;
  assert_int_equal(cop_interp_load(&t, &img), COP_ERR_ARG);
  cop_interp_free(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_cop_interp_counts_loads_per_pc, teardown),
      cmocka_unit_test_teardown(test_cop_interp_alu_results, teardown),
      cmocka_unit_test_teardown(test_cop_interp_index_widths_and_limits, teardown),
      cmocka_unit_test_teardown(test_cop_interp_data_elements_and_saturation, teardown),
      cmocka_unit_test_teardown(test_cop_interp_write_back_order_and_operands_before, teardown),
      cmocka_unit_test_teardown(test_cop_interp_cam_lowest_match_and_invalidate, teardown),
      cmocka_unit_test_teardown(test_cop_interp_dispatch_targets_and_runaway, teardown),
      cmocka_unit_test_teardown(test_cop_interp_unselected_fields_read_zero, teardown),
      cmocka_unit_test_teardown(test_cop_interp_reserved_codes, teardown),
      cmocka_unit_test(test_cop_interp_refuses_bad_geometry_and_oversized_image),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
