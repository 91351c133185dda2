/* Unit tests of the co-processor's assembler, disassembler and image files (sw/host/cop/cop_asm.c,
 * cop_image.c). Expected words are worked out by hand from the field table of docs/cop_isa.md
 * (bit positions and codes written out as numbers here, not taken from the generated header), so a
 * change of the format that the tools follow silently still fails these tests. */
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
#include "cop_image.h"

static hwprof_cop_image_t img;
static char err[512];

static int assemble(const char *src) {
  err[0] = 0;
  return cop_asm(src, "t.s", &img, err, sizeof err);
}

/* fields by hand: ALU_OP 3:0, ALU_DST 5:4, SRC_A 10:6, SRC_B 15:11, CAM_OP 17:16, CAM_IDX 20:18,
 * DATA_OP 23:21, DATA_REG 25:24, DATA_BASE 28:26, DATA_IDX 31:29, IDX_OP 34:32, IDX_REG 37:35,
 * COND 41:38, TARGET 45:42, PRED 47:46 */
#define F(v, lsb) ((uint64_t)(v) << (lsb))

static void test_cop_asm_encodes_fields_by_hand(void **state) {
  (void)state;
  const char *src =
      ".fields pc, value\n"
      ".dispatch load, entry\n"
      ".base b0, 0x000, half\n"
      ".const c0, 1\n"
      ".idxw i1, 3\n"
      "entry:  cmatch i0, s.pc | bcmiss.t new\n"
      "        incs b0[i0] | b done\n"
      "new:    cwrite i1, s.pc | st b0[i1], c0 | iinc i1 | bilim full\n"
      "        b done\n"
      "full:   b intr   # the end\n";
  assert_int_equal(assemble(src), 0);
  assert_int_equal(img.n_uc, 5);
  /* cmatch: CAM_OP 1, CAM_IDX 0, SRC_A s.pc = 17; bcmiss = 10, target +2 = code 0, .t = PRED 2 */
  assert_true(img.uc[0] == (F(1, 16) | F(17, 6) | F(10, 38) | F(0, 42) | F(2, 46)));
  /* incs = DATA_OP 3, base 0, idx 0; b = COND 1, done = TARGET 12, PRED 0 */
  assert_true(img.uc[1] == (F(3, 21) | F(1, 38) | F(12, 42)));
  /* cwrite = CAM_OP 2, CAM_IDX 1, A = s.pc 17; st = DATA_OP 2, DATA_IDX 1, B = c0 = 4; iinc = IDX_OP 1,
   * IDX_REG 1; bilim = COND 13 to +2 (code 0), PRED 1 (default: not taken) */
  assert_true(img.uc[2] == (F(2, 16) | F(1, 18) | F(17, 6) | F(2, 21) | F(1, 29) | F(4, 11) | F(1, 32) | F(1, 35) | F(13, 38) |
                            F(0, 42) | F(1, 46)));
  assert_true(img.uc[4] == (F(1, 38) | F(13, 42)));
  assert_int_equal(img.fields, 0x11); /* pc = bit 0, value = bit 4 */
  assert_int_equal(img.kinds, 1u << 4); /* load = kind 4 */
  assert_int_equal(img.dispatch[4], 0);
  assert_int_equal(img.base_size[0], 1);
  assert_int_equal(img.c[0], 1);
  assert_int_equal(img.idxw[1], 3);
  assert_int_equal(img.idxw[0], 16);
}

static void test_cop_asm_alu_and_compare_forms(void **state) {
  (void)state;
  const char *src =
      ".fields value\n.dispatch other, a\n"
      "a: add v3, s.value, c2 | beq s.value, c2, a\n"  /* A and B shared by add and beq: allowed */
      "   rand v1, c3 | iload i7, v2\n"
      "   cmp i5 | bz.st .+3\n"
      "   ld v2, b7[i6] | subs v0, mem, c1 | basat.snt .-1\n"
      "   b t2\n";
  assert_int_equal(assemble(src), 0);
  /* add = 2, dst 3, A s.value = 21, B c2 = 6; beq = 2, target 0 from address 0 = M0 = code 7, PRED 1 */
  assert_true(img.uc[0] == (F(2, 0) | F(3, 4) | F(21, 6) | F(6, 11) | F(2, 38) | F(7, 42) | F(1, 46)));
  /* rand = 11, dst 1, B c3 = 7; iload = 5 on i7, A = v2 = 2 */
  assert_true(img.uc[1] == (F(11, 0) | F(1, 4) | F(7, 11) | F(5, 32) | F(7, 35) | F(2, 6)));
  /* cmp = ALU 0, A = i5 = 13; bz = 6, +3 = code 1, .st = 3 */
  assert_true(img.uc[2] == (F(13, 6) | F(6, 38) | F(1, 42) | F(3, 46)));
  /* ld = 1 into v2 from b7[i6]; subs = 5, dst 0, A mem = 16, B c1 = 5; basat = 8, -1 = code 6, .snt = 0 */
  assert_true(img.uc[3] == (F(1, 21) | F(2, 24) | F(7, 26) | F(6, 29) | F(5, 0) | F(16, 6) | F(5, 11) | F(8, 38) | F(6, 42)));
  /* b t2 = COND 1, TARGET 10 */
  assert_true(img.uc[4] == (F(1, 38) | F(10, 42)));
}

static void test_cop_asm_far_label_uses_a_target_register(void **state) {
  (void)state;
  char src[4096] = ".dispatch load, top\n.target t3, far\ntop: b far\n";
  for (int k = 0; k < 20; k++) strcat(src, "nop\n");
  strcat(src, "far: b done\n");
  assert_int_equal(assemble(src), 0);
  assert_int_equal(img.t[3], 21);
  assert_true(img.uc[0] == (F(1, 38) | F(11, 42))); /* t3 = code 11 */
  /* without the .target, refused with the distance */
  char *no = strstr(src, ".target");
  memcpy(no, "#", 1);
  assert_int_equal(assemble(src), -1);
  assert_non_null(strstr(err, "t.s:3:8: error: 'far' is +21 instructions away"));
}

typedef struct {
  const char *src;
  const char *msg; /* expected at the start of the message */
} bad_t;

static void test_cop_asm_refuses_bad_source_with_one_located_error(void **state) {
  (void)state;
  static const bad_t bad[] = {
      {".dispatch load, a\na: frob v0 | b done\n", "t.s:2:4: error: unknown operation 'frob'"},
      {".fields pc, value\n.dispatch load, a\na: add v0, s.pc, c0 | cmatch i0, s.value | b done\n",
       "t.s:3:34: error: operand A of this instruction is already s.pc (for add)"},
      {".dispatch load, a\na: add v0, v1, v2 | mov v1, v2 | b done\n", "t.s:2:21: error: a second ALU operation"},
      {".dispatch load, a\na: bz done\n", "t.s:2:4: error: bz tests the ALU result"},
      {".dispatch load, a\na: bchit done | b done\n", "t.s:2:17: error: a second branch operation"},
      {".dispatch load, a\na: add v0, v1, v2 | bchit done\nb done\n", "t.s:2:21: error: bchit tests a cmatch"},
      {".dispatch load, a\na: mov v0, s.value | b done\n", "t.s:2:1: error: s.value is read but .fields does not select 'value'"},
      {".dispatch load, a\na: mov v0, v1\n", "t.s:2:1: error: the last instruction can fall through"},
      {"a: b done\n", "t.s:0:1: error: no .dispatch"},
      {".dispatch load, a\na: b done\na: b done\n", "t.s:3:1: error: label 'a' defined twice"},
      {".dispatch load, a\na: b done\nb:\n", "t.s:0:1: error: label 'b' names no instruction"},
      {".dispatch lod, a\na: b done\n", "t.s:1:11: error: 'lod' is not a retire kind"},
      {".dispatch load, a\n.base b1, 3, half\na: b done\n", "t.s:2:11: error: address 3 is not aligned"},
      {".dispatch load, a\n.idxw i2, 17\na: b done\n", "t.s:2:11: error: '17' is not an index width (1..16)"},
      {".dispatch load, a\n.const c4, 1\na: b done\n", "t.s:2:8: error: 'c4' is not a register c0..c3"},
      {".dispatch load, a\n.const c1, 1\n.const c1, 2\na: b done\n", "t.s:3:8: error: c1 set twice"},
      {".dispatch load, a\n.target t0, nowhere\na: b done\n", "t.s:2:1: error: .target t0: 'nowhere' is not a label"},
      {".dispatch load, a\na: ld v4, b0[i0] | b done\n", "t.s:2:7: error: 'v4' is not a value register"},
      {".dispatch load, a\na: st b0(i0), v0 | b done\n", "t.s:2:7: error: 'b0(i0)' is not an element"},
      {".dispatch load, a\na: b.t done\n", "t.s:2:5: error: 'b' is always taken"},
      {".dispatch load, a\na: bnz.maybe done\n", "t.s:2:7: error: '.maybe' is not a prediction suffix"},
      {".dispatch load, a\ndone: b done\n", "t.s:2:1: error: 'done' cannot be a label"},
      {".dispatch load, a\na: mov v0, v1 || b done\n", "t.s:2:16: error: empty operation"},
      {".dispatch load, a\na: .word 0x1000000000000\n", "t.s:2:10: error: '0x1000000000000' is not a 48-bit word"},
      {".dispatch load, a\n.frob 1\na: b done\n", "t.s:2:1: error: unknown directive '.frob'"},
      {"", "t.s:0:1: error: no microinstructions"},
  };
  int failed = 0;
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    int rc = assemble(bad[k].src);
    if (rc != -1 || strncmp(err, bad[k].msg, strlen(bad[k].msg)) != 0) {
      print_error("case %zu: rc %d, message\n  got:  %s\n  want: %s...\n", k, rc, err, bad[k].msg);
      failed++;
    }
  }
  assert_int_equal(failed, 0);
}

static void test_cop_disasm_round_trips_a_program(void **state) {
  (void)state;
  const char *src =
      ".fields pc, npc, insn, addr, value\n.dispatch load, a\n.dispatch store, s\n.const c3, 0xdeadbeef\n"
      ".base b5, 0x7fc, word\n.target t1, s\n.idxw i4, 5\n.lfsr 0x1234\n"
      "a: cmatch i0, s.pc | ld v1, b5[i0] | iincs i4 | bcmiss.t .+4\n"
      "   shr v2, s.insn, c3 | incs b5[i4] | bdsat a\n"
      "   cinval i3 | idecs i4 | bilim.st t1\n"
      "   xor v0, s.rd, s.imm | bltu.snt s.rd, s.imm, .\n"
      "s: st b1[i2], s.addr | iclr i0 | b done\n";
  assert_int_equal(assemble(src), 0);
  hwprof_cop_image_t first = img;
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  assert_int_equal(cop_disasm(f, &first), 0);
  fclose(f);
  int rc = assemble(text);
  if (rc) fail_msg("%s\n%s", err, text);
  assert_memory_equal(&img, &first, sizeof img);
  free(text);
}

/* every word cop_disasm_word calls canonical really assembles back to itself (checked here through
 * cop_asm on a whole program, not the function's own check); words with reserved codes are .word */
static void test_cop_disasm_word_is_exact_on_random_words(void **state) {
  (void)state;
  uint64_t x = 0x9e3779b97f4a7c15ull;
  unsigned canon = 0;
  for (int k = 0; k < 4000; k++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    uint64_t w = x & ((1ull << 48) - 1u);
    char text[512], src[1024];
    int ok = cop_disasm_word(w, text, sizeof text);
    snprintf(src, sizeof src, ".fields pc, npc, insn, addr, value\n.dispatch other, a\na: %s\nb done\n", text);
    if (assemble(src) != 0) fail_msg("word %012llx: '%s' does not assemble: %s", (unsigned long long)w, text, err);
    if (img.uc[0] != w) fail_msg("word %012llx: '%s' assembles to %012llx", (unsigned long long)w, text, (unsigned long long)img.uc[0]);
    canon += (unsigned)ok;
  }
  assert_true(canon > 60); /* about 3% of random words are canonical: the decoder is exercised, not only .word */
}

static void test_cop_image_text_round_trip(void **state) {
  (void)state;
  assert_int_equal(assemble(".fields value\n.dispatch prof, a\n.const c2, 7\n.base b3, 0x40, byte\n.idxw i6, 1\n"
                            "a: iinc i6 | bilim done\nb a\n"), 0);
  hwprof_cop_image_t first = img;
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  assert_int_equal(cop_image_write(f, &first), 0);
  fclose(f);
  f = fmemopen(text, len, "r");
  assert_int_equal(cop_image_read(f, "x.cop", &img, err, sizeof err), 0);
  fclose(f);
  assert_memory_equal(&img, &first, sizeof img);
  assert_int_equal(cop_image_check(&img, err, sizeof err), 0);
  free(text);
}

static void test_cop_image_refuses_malformed_files(void **state) {
  (void)state;
  static const bad_t bad[] = {
      {"", "x.cop: empty"},
      {"hwprof-cop-image 1\n", "x.cop:1: not a co-processor image"},
      {"hwprof-cop-image 2\nuc 0 1\n", "x.cop: truncated: no end record"},
      {"hwprof-cop-image 2\nuc 0 1\nend 2\n", "x.cop: the end record counts 2 microinstructions, the image has 1"},
      {"hwprof-cop-image 2\nuc 0 1\nend 1\nuc 1 1\n", "x.cop:4: an item after the end record"},
      {"hwprof-cop-image 2\nend\n", "x.cop:2: end: takes the number of microinstructions"},
      {"hwprof-cop-image 2\nbogus 1\n", "x.cop:2: unknown item 'bogus'"},
      {"hwprof-cop-image 2\nuc 0\n", "x.cop:2: 'uc' takes 2 values"},
      {"hwprof-cop-image 2\nuc 0 0x1000000000000\n", "x.cop:2: uc: '0x1000000000000' is not a 48-bit word"},
      {"hwprof-cop-image 2\nuc 0 1\nuc 0 2\n", "x.cop:3: uc: address 0 given twice"},
      {"hwprof-cop-image 2\nuc 1 1\nend 2\n", "x.cop: uc: address 0 missing"},
      {"hwprof-cop-image 2\nconst 4 1\n", "x.cop:2: const: '4' is not a register number (0..3)"},
      {"hwprof-cop-image 2\nbase 0 0 3\n", "x.cop:2: base: '3' is not a size code"},
      {"hwprof-cop-image 2\nidxw 0 0\n", "x.cop:2: idxw: '0' is not a width (1..16)"},
      {"hwprof-cop-image 2\nlfsr 0\n", "x.cop:2: lfsr: '0' is not a seed"},
      {"hwprof-cop-image 2\nfields 0x20\n", "x.cop:2: fields: '0x20' is not a field mask"},
      {"hwprof-cop-image 2\ndispatch 8 0\n", "x.cop:2: dispatch: '8' is not a register number (0..7)"},
      {"hwprof-cop-image 2\ntarget 0 -1\n", "x.cop:2: target: '-1' is not an address"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    FILE *f = fmemopen((void *)bad[k].src, strlen(bad[k].src) + 1, "r");
    if (!*bad[k].src) {
      fclose(f);
      f = fopen("/dev/null", "r");
    }
    int rc = cop_image_read(f, "x.cop", &img, err, sizeof err);
    fclose(f);
    if (rc != -1 || strncmp(err, bad[k].msg, strlen(bad[k].msg)) != 0)
      fail_msg("case %zu: rc %d, message\n  got:  %s\n  want: %s...", k, rc, err, bad[k].msg);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cop_asm_encodes_fields_by_hand),
      cmocka_unit_test(test_cop_asm_alu_and_compare_forms),
      cmocka_unit_test(test_cop_asm_far_label_uses_a_target_register),
      cmocka_unit_test(test_cop_asm_refuses_bad_source_with_one_located_error),
      cmocka_unit_test(test_cop_disasm_round_trips_a_program),
      cmocka_unit_test(test_cop_disasm_word_is_exact_on_random_words),
      cmocka_unit_test(test_cop_image_text_round_trip),
      cmocka_unit_test(test_cop_image_refuses_malformed_files),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
