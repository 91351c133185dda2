/* Tests of the load-value profiler's firmware (sw/fw/vp/vp_fw.c) on the host, against the C model of
 * hwprof_top running sw/fw/cop/valueprof.s (ASan/UBSan build, as every unit test): the same code the
 * simulated CPU runs as its interrupt handler. The expected outcomes come from the algorithm's
 * rules (docs/vpf.md) and the construction of each stream, stated next to each check. */
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
#include "vp_estimate.h"
#include "vp_fw.h"

static model_sys_t sys;
static hwprof_cop_image_t img;
static vp_fw_t fw;
static unsigned irqs_taken;

static int setup(void **state) {
  (void)state;
  model_sys_init(&sys, NULL, NULL);
  char *src = NULL;
  FILE *f = fopen("sw/fw/cop/valueprof.s", "r");
  assert_non_null(f);
  size_t cap = 0;
  ssize_t n = getdelim(&src, &cap, '\0', f);
  fclose(f);
  assert_true(n > 0);
  char err[256];
  if (cop_asm(src, "valueprof.s", &img, err, sizeof err)) fail_msg("%s", err);
  free(src);
  irqs_taken = 0;
  return 0;
}

static void take_irq(void *ctx) {
  (void)ctx;
  if (!sys.out.irq_coproc) return;
  bool handled = false;
  assert_int_equal(hwprof_cop_handle_irq(&sys.h, vp_fw_on_intr, &fw, &handled), kHwprofOk);
  assert_true(handled);
  irqs_taken++;
}

/* one load; then idle until the engine has taken it (it never holds the CPU) */
static void load(uint32_t pc, uint32_t value) {
  hwprof_retire_ev_t ev = {0};
  ev.kind = HWPROF_KIND_LOAD;
  ev.pc = pc;
  ev.next_pc = pc + 4;
  ev.insn = 0x00452503u;
  ev.value = value;
  assert_int_equal(model_sys_retire(&sys, ev), 0);
  for (unsigned k = 0; k < 14; k++) {
    hwprof_top_in_t in = {0};
    model_sys_cycle(&sys, &in);
    take_irq(NULL);
  }
}

static const vp_fw_load_t *find(uint32_t pc) {
  vp_fw_aggregate(&fw);
  for (unsigned k = 0; k < VP_FW_MAX_LOADS; k++)
    if (fw.prof[k].total && fw.prof[k].pc == pc) return &fw.prof[k];
  return NULL;
}

static double estimate(const vp_fw_load_t *e, uint32_t value) {
  vp_value_t v[VP_FW_MAX_VALUES];
  vp_estimate_t est[VP_FW_MAX_VALUES];
  for (unsigned k = 0; k < e->n; k++) v[k] = (vp_value_t){e->v[k].value, e->v[k].hits, e->v[k].misses};
  const vp_load_t l = {e->pc, e->total, e->n, v};
  assert_int_equal(vp_estimate(&l, est), 0);
  for (unsigned k = 0; k < e->n; k++)
    if (e->v[k].value == value) return est[k].invariance;
  return 0.0;
}

/* Two loads interleaved, 1,200 times each: A always loads 7; B loads 5, 5, 5, 9 in turn (5: 75%).
 * Intervals of 2^7 = 128 records. A's active value is 7 with all hits: at the first copy (64
 * records of A at most) it is masked (100% >= 90% over >= 16 samples), and no record of A passes
 * after that. B stays below 90% and above 10%: it is masked only after it has been seen in 4
 * intervals (4 x 128 records < 1,200), then nothing passes. The profile gives A's 7 an invariance
 * of 1 and B's 5 0.75 +- 0.1. */
static vp_fw_cfg_t seed_policy(unsigned interval_log2) {
  vp_fw_cfg_t c = VP_FW_CFG_SEED;
  c.interval_log2 = interval_log2;
  return c;
}

static void invariant_and_variant_loads(void **state) {
  (void)state;
  const uint32_t A = 0x80001000u, B = 0x80001004u;
  assert_int_equal(vp_fw_start(&fw, &sys.h, &img, seed_policy(7)), kHwprofOk);
  for (unsigned k = 0; k < 1200; k++) {
    load(A, 7);
    load(B, (k % 4 == 3) ? 9 : 5);
  }
  assert_int_equal(hwprof_cop_drain(&sys.h, 100000u, take_irq, NULL), kHwprofOk);
  assert_int_equal(vp_fw_final_copy(&fw, &sys.h), kHwprofOk);
  assert_int_equal(fw.errors, 0);
  assert_int_equal(fw.intervals, 4);     /* the 4th copy masked B: no record after it */
  assert_int_equal(fw.thrashes, 0);      /* two loads never thrash 256 slots */
  const vp_fw_load_t *a = find(A), *b = find(B);
  assert_non_null(a);
  assert_non_null(b);
  assert_int_equal(a->n, 1);             /* A never showed another value */
  assert_int_equal(a->v[0].misses, 0);
  assert_true(a->total <= 64);           /* masked at the first copy */
  assert_true(vp_fw_masked(&fw, A));     /* still masked: no timer tick here */
  assert_true(estimate(a, 7) == 1.0);
  const double b5 = estimate(b, 5);
  assert_true(b5 > 0.65 && b5 < 0.85);
  assert_true(b->intervals >= 4);        /* B was masked only after its 4th interval */
  assert_true(vp_fw_masked(&fw, B));
  assert_true(fw.complete);              /* the 4th copy left nothing unmasked */
  assert_int_equal(fw.completed_at, 4);
  /* the hardware agrees: A's bit in the bit-mask filter is set */
  hwprof_cop_status_t st;
  assert_int_equal(hwprof_cop_status(&sys.h, &st), kHwprofOk);
  assert_true(st.passed < 2400);         /* masked loads stopped passing */
}

/* 1,500 loads of distinct PCs in turn, one value each: with 256 slots nearly every record misses
 * and replaces; after 1,024 replacements the program interrupts for thrashing. The firmware copies
 * nothing then and splits the program: the mask/match filter's MASK gains 2 bits (the thrashing
 * came within 4,096 records), so only one PC in 4 passes afterwards. */
static void thrashing_splits_the_program(void **state) {
  (void)state;
  assert_int_equal(vp_fw_start(&fw, &sys.h, &img, seed_policy(16)), kHwprofOk);
  for (unsigned k = 0; k < 1500; k++) load(0x80002000u + 4u * k, 1);
  assert_true(fw.thrashes >= 1);
  assert_int_equal(fw.copies, 0);        /* nothing copied on thrashing, no interval ended */
  assert_int_equal(fw.part_bits, 2);
  assert_int_equal(hwprof_mmio_read32(&sys.h, HWPROF_VPF_MASK_ADDR), 3u);
  hwprof_cop_status_t st;
  assert_int_equal(hwprof_cop_status(&sys.h, &st), kHwprofOk);
  const uint32_t before = st.passed;
  for (unsigned k = 0; k < 400; k++) load(0x80002000u + 4u * k, 1);
  assert_int_equal(hwprof_cop_status(&sys.h, &st), kHwprofOk);
  assert_int_equal(st.passed - before, 100); /* hash 0 is the word address: one in four PCs */
}

/* The seed's policy: the timer re-samples, every mask is dropped (the bit-mask filter reads 0 again)
 * and the partition moves on. */
static void timer_resamples_and_rotates(void **state) {
  (void)state;
  assert_int_equal(vp_fw_start(&fw, &sys.h, &img, seed_policy(9)), kHwprofOk);
  for (unsigned k = 0; k < 600; k++) load(0x80003000u, 3); /* masked at the first copy */
  assert_true(fw.masks_set >= 1);
  uint32_t any = 0;
  for (unsigned w = 0; w < 128; w++) any |= hwprof_mmio_read32(&sys.h, HWPROF_VPF_BITMASK_ADDR + 4u * w);
  assert_true(any != 0);
  fw.part_bits = 1; /* as if split once */
  assert_int_equal(vp_fw_on_timer(&fw, &sys.h), 1);
  any = 0;
  for (unsigned w = 0; w < 128; w++) any |= hwprof_mmio_read32(&sys.h, HWPROF_VPF_BITMASK_ADDR + 4u * w);
  assert_int_equal(any, 0);
  assert_false(vp_fw_masked(&fw, 0x80003000u));
  assert_false(fw.complete);             /* re-sampling starts the profile again */
  assert_int_equal(fw.part, 1);
  assert_int_equal(hwprof_mmio_read32(&sys.h, HWPROF_VPF_MATCH_ADDR), 1u);
  assert_int_equal(fw.errors, 0);
}

/* With interval copies off, only FAILED (the slots are full) copies, not an interval's end: 100
 * loads of one value each, 30 times over in turn, fit the 256 slots (no replacement fails, FAILED
 * stays at 0). Intervals of 2^9 records end 5 times in 3,000 records, the engine resumes with its
 * slots each time, nothing is copied; the final copy finds every sample but the 5 records that
 * ended an interval (those are not processed) and the first pass's records whose draw for an empty
 * slot was 0 (K: one in 16 on average, a load's first record at most). */
static void without_interval_copies_only_failed_copies(void **state) {
  (void)state;
  vp_fw_cfg_t c = VP_FW_CFG_DEFAULT;
  c.interval_log2 = 9;
  c.interval_copy = false;
  assert_int_equal(vp_fw_start(&fw, &sys.h, &img, c), kHwprofOk);
  for (unsigned r = 0; r < 30; r++)
    for (unsigned k = 0; k < 100; k++) load(0x80005000u + 4u * k, 11);
  assert_int_equal(hwprof_cop_drain(&sys.h, 100000u, take_irq, NULL), kHwprofOk);
  assert_int_equal(fw.intervals, 3000 / 512);
  assert_int_equal(fw.copies, 0);
  assert_int_equal(fw.thrashes, 0);
  assert_int_equal(vp_fw_final_copy(&fw, &sys.h), kHwprofOk);
  uint32_t sum = 0;
  for (unsigned k = 0; k < 100; k++) {
    const vp_fw_load_t *e = find(0x80005000u + 4u * k);
    assert_non_null(e);
    assert_true(e->total >= 28 && e->total <= 30);
    sum += e->total;
  }
  assert_true(sum <= 3000 - 3000 / 512 && sum >= 3000 - 3000 / 512 - 16);
  assert_int_equal(fw.errors, 0);
}

/* Rotating re-checks (intervals of 2^7 records, copied at their end here): A loads 3 only; the first
 * copy shows 3 at 100% over >= 16 samples, the second agrees, and A is masked then (the default's
 * two copies in a row). The ticks back off (1, 2, 4, ... 64 periods) while the copies in between
 * find nothing new, and each tick unmasks the group of bit-mask words w with w % 8 equal to its
 * turn: after 8 ticks A is profiled again. Then A loads 4 only: the re-check's copy finds a value
 * the profile lacks at 100%, and the next tick comes after one period. */
static vp_fw_cfg_t rotating(void) {
  vp_fw_cfg_t c = VP_FW_CFG_DEFAULT;
  c.interval_log2 = 7;
  return c;
}

static void rotating_recheck_backs_off_and_resets(void **state) {
  (void)state;
  const uint32_t A = 0x80006000u;
  assert_int_equal(vp_fw_start(&fw, &sys.h, &img, rotating()), kHwprofOk);
  for (unsigned r = 0; r < 200; r++) load(A, 3);
  assert_int_equal(fw.copies, 1);
  assert_false(vp_fw_masked(&fw, A)); /* one copy's evidence only */
  for (unsigned r = 0; r < 100; r++) load(A, 3);
  assert_int_equal(fw.copies, 2);
  assert_true(vp_fw_masked(&fw, A));
  const uint32_t group = (hwprof_cop_pc_hash(fw.bm_hash, A) & (fw.bm_bits - 1u)) / 32u % VP_FW_GROUPS;
  assert_int_equal(vp_fw_on_timer(&fw, &sys.h), 1); /* the copies since the start found a new load */
  for (unsigned t = 1, want = 2; t < VP_FW_GROUPS; t++, want = want < 64 ? 2 * want : 64) {
    const bool turn = fw.rot % VP_FW_GROUPS == group;
    assert_int_equal(vp_fw_on_timer(&fw, &sys.h), want);
    assert_int_equal(vp_fw_masked(&fw, A), !turn && fw.rot <= group);
  }
  assert_false(vp_fw_masked(&fw, A)); /* every group had its turn */
  for (unsigned r = 0; r < 200; r++) load(A, 4);
  assert_int_equal(hwprof_cop_drain(&sys.h, 100000u, take_irq, NULL), kHwprofOk);
  assert_int_equal(fw.rechecks, 1);
  assert_int_equal(fw.changes, 1);
  assert_int_equal(vp_fw_on_timer(&fw, &sys.h), 1);
  assert_int_equal(fw.errors, 0);
}

/* A load whose value moves with the program's phase (intervals of 2^7 records). A loads 3 for one
 * copy, then 5: a copy at 100% of 3 and one at 100% of 5 do not agree, so A is not masked after
 * either (the seed's policy masks it at the first); a third copy of 5 agrees with the second and
 * masks A at 5. A re-check that finds a change (A loads 7) marks A: from then on every tick
 * unmasks it, whatever the rotation's turn, until a re-check finds it unchanged (the copies of 7
 * that follow), after which ticks of other groups leave it masked. (Masking after a number of
 * copies is set out of reach here.) */
static void phase_changing_load_is_masked_on_agreement_and_rechecked_often(void **state) {
  (void)state;
  const uint32_t A = 0x80007000u;
  vp_fw_cfg_t c = rotating();
  c.mask_after = VP_FW_MASK_AFTER_MAX; /* the count of copies never decides here */
  assert_int_equal(vp_fw_start(&fw, &sys.h, &img, c), kHwprofOk);
  const uint32_t group = (hwprof_cop_pc_hash(fw.bm_hash, A) & (fw.bm_bits - 1u)) / 32u % VP_FW_GROUPS;
  for (unsigned r = 0; r < 128; r++) load(A, 3);
  assert_int_equal(fw.copies, 1);
  assert_false(vp_fw_masked(&fw, A));
  for (unsigned r = 0; r < 128; r++) load(A, 5);
  assert_int_equal(fw.copies, 2);
  assert_false(vp_fw_masked(&fw, A)); /* 3, then 5: no agreement */
  for (unsigned r = 0; r < 128; r++) load(A, 5);
  assert_int_equal(fw.copies, 3);
  assert_true(vp_fw_masked(&fw, A)); /* 5 twice in a row */
  assert_int_equal(fw.n_vol, 0);
  /* ticks until A's group has had its turn: A is re-checked, and loads 7 */
  while (vp_fw_masked(&fw, A)) vp_fw_on_timer(&fw, &sys.h);
  for (unsigned r = 0; r < 128; r++) load(A, 7);
  assert_int_equal(fw.changes, 1);
  assert_int_equal(fw.n_vol, 1);
  assert_false(vp_fw_masked(&fw, A)); /* 7 once: no agreement yet */
  for (unsigned r = 0; r < 128; r++) load(A, 7);
  assert_true(vp_fw_masked(&fw, A));  /* 7 twice */
  assert_int_equal(fw.rot % VP_FW_GROUPS == group, 0); /* the next tick is not A's group's turn ... */
  vp_fw_on_timer(&fw, &sys.h);
  assert_false(vp_fw_masked(&fw, A)); /* ... but A changed at its last re-check */
  for (unsigned r = 0; r < 128; r++) load(A, 7);
  assert_int_equal(fw.rechecks, 2);
  assert_int_equal(fw.changes, 1);    /* 7 again: no change */
  assert_int_equal(fw.n_vol, 0);
  assert_true(vp_fw_masked(&fw, A));  /* agrees with the value it was masked with */
  while (fw.rot % VP_FW_GROUPS == group) vp_fw_on_timer(&fw, &sys.h);
  vp_fw_on_timer(&fw, &sys.h);
  assert_true(vp_fw_masked(&fw, A));  /* another group's turn: A stays masked */
  assert_int_equal(fw.errors, 0);
  /* the seed's policy: masked at the first copy, whatever follows */
  model_sys_init(&sys, NULL, NULL);
  assert_int_equal(vp_fw_start(&fw, &sys.h, &img, seed_policy(7)), kHwprofOk);
  for (unsigned r = 0; r < 128; r++) load(A, 3);
  assert_true(vp_fw_masked(&fw, A));
  vp_fw_cfg_t bad = rotating();
  bad.mask_agree = 3;
  assert_int_equal(vp_fw_start(&fw, &sys.h, &img, bad), kHwprofBadArg);
  bad = rotating();
  bad.mask_after = VP_FW_MASK_AFTER_MAX + 1u;
  assert_int_equal(vp_fw_start(&fw, &sys.h, &img, bad), kHwprofBadArg);
}

/* The time-weighted profile (extrapolate): a masked load is credited, for its time masked, with the
 * counts of the slot that masked it at that slot's rate. The clock is the test's (f->now). A loads 9
 * only: copy 1 at time 1,000 (T1 samples), copy 2 at 2,000 (T2 samples, masked: two copies agree;
 * its counts took 2,000 - 1,000, the time since the slots were cleared). Credited up to 6,000, A has
 * been masked 4,000: 4 x T2 more samples, all hits of 9. A second credit at the same time adds
 * nothing; a re-check's counts take the time since the bit was unmasked. Without extrapolate nothing is credited; the seed's policy clearing every mask at a tick
 * credits through the log. */
static void masked_loads_credited_for_their_time_masked(void **state) {
  (void)state;
  const uint32_t A = 0x80008000u;
  vp_fw_cfg_t c = rotating();
  c.extrapolate = true;
  assert_int_equal(vp_fw_start(&fw, &sys.h, &img, c), kHwprofOk);
  fw.now = 1000;
  for (unsigned r = 0; r < 128; r++) load(A, 9);
  assert_int_equal(fw.copies, 1);
  const uint32_t t1 = find(A)->total;
  fw.now = 2000;
  for (unsigned r = 0; r < 128; r++) load(A, 9);
  assert_int_equal(fw.copies, 2);
  assert_true(vp_fw_masked(&fw, A));
  const uint32_t t2 = find(A)->total - t1;
  assert_true(t1 >= 120 && t2 >= 120);
  fw.now = 6000;
  vp_fw_credit_masked(&fw);
  const vp_fw_load_t *e = find(A);
  assert_int_equal(e->total, t1 + t2 + 4u * t2);
  assert_int_equal(e->n, 1);
  assert_int_equal(e->v[0].hits, t1 + t2 + 4u * t2);
  assert_int_equal(e->v[0].misses, 0);
  assert_int_equal(e->intervals, 2); /* a credit is not a copy */
  assert_int_equal(fw.credits, 1);
  vp_fw_credit_masked(&fw);
  assert_int_equal(find(A)->total, t1 + t2 + 4u * t2);
  /* re-checked at 6,000 (nothing more to credit), copied at 7,000 and masked again: its counts took
   * the 1,000 since it was unmasked, not the 5,000 since the slots were cleared; up to 9,000: 2 x T3 */
  while (vp_fw_masked(&fw, A)) vp_fw_on_timer(&fw, &sys.h);
  assert_int_equal(fw.credits, 1);
  fw.now = 7000;
  for (unsigned r = 0; r < 128; r++) load(A, 9);
  assert_int_equal(fw.copies, 3);
  assert_true(vp_fw_masked(&fw, A));
  const uint32_t t3 = find(A)->total - (t1 + t2 + 4u * t2);
  fw.now = 9000;
  vp_fw_credit_masked(&fw);
  assert_int_equal(find(A)->total, t1 + t2 + 4u * t2 + t3 + 2u * t3);
  /* without it */
  model_sys_init(&sys, NULL, NULL);
  c.extrapolate = false;
  assert_int_equal(vp_fw_start(&fw, &sys.h, &img, c), kHwprofOk);
  fw.now = 1000;
  for (unsigned r = 0; r < 256; r++) load(A, 9);
  fw.now = 6000;
  vp_fw_credit_masked(&fw);
  assert_int_equal(fw.credits, 0);
  assert_true(find(A)->total <= 256);
  /* the seed's re-sampling: the tick's unmasking credits through the log */
  model_sys_init(&sys, NULL, NULL);
  c = seed_policy(7);
  c.extrapolate = true;
  assert_int_equal(vp_fw_start(&fw, &sys.h, &img, c), kHwprofOk);
  fw.now = 1000;
  for (unsigned r = 0; r < 128; r++) load(A, 9); /* masked at once: 1,000 of time for T samples */
  const uint32_t t = find(A)->total;
  fw.now = 3000;
  vp_fw_on_timer(&fw, &sys.h);
  assert_false(vp_fw_masked(&fw, A));
  assert_int_equal(fw.credits, 1);
  assert_int_equal(find(A)->total, t + 2u * t);
  assert_int_equal(fw.errors, 0);
}

/* the profile file: the format docs/vpf.md gives */
static void profile_file(void **state) {
  (void)state;
  assert_int_equal(vp_fw_start(&fw, &sys.h, &img, seed_policy(16)), kHwprofOk);
  for (unsigned k = 0; k < 40; k++) load(0x80004000u, k < 30 ? 2 : 3);
  assert_int_equal(hwprof_cop_drain(&sys.h, 100000u, take_irq, NULL), kHwprofOk);
  assert_int_equal(vp_fw_final_copy(&fw, &sys.h), kHwprofOk);
  char buf[512] = {0};
  FILE *f = fmemopen(buf, sizeof buf - 1, "w");
  assert_non_null(f);
  assert_int_equal(vp_fw_write(&fw, f), 0);
  fclose(f);
  /* one slot: M on the first record (hits 1), 29 hits, then 10 misses (4 x 30 >= 10: no
   * re-selection); total 40 */
  assert_string_equal(buf, "# hwprof-vp-profile 2\n# load PC total intervals masked, then its values: value hits misses\n"
                           "load 0x80004000 40 1 0\nvalue 0x00000002 30 10\n");
}

/* The program placed for seed 001's half and twice the arrays (Figures 8 and 9), and Table 1's:
 * CamEntries S of 128, 256 and 512 with 8 S data bytes. A stream of 3S/4 loads of distinct PCs in
 * turn, 48 rounds, each PC always loading its own number: each PC takes a slot the first time
 * RAND15 is above the next slot's total (every slot starts empty, so 15 times in 16), and the S/4
 * spare slots absorb the few that miss, so the replacements stay far below the 4S of the thrashing
 * interrupt: no thrashing, and the final copy finds every load with one value and no miss. With
 * 3S/2 PCs in turn they cannot all have slots and the program thrashes. The slots above 256 in the
 * largest build hold loads (the program's indexes are 9 bits wide there). A data array smaller
 * than 8 bytes a slot, or an image that is not valueprof.s, is refused. */
static void arrays_of_half_and_twice_the_slots(void **state) {
  (void)state;
  for (unsigned s = 128; s <= 512; s *= 2) {
    hwprof_top_cfg_t cfg;
    hwprof_top_cfg_default(&cfg);
    cfg.cop.cam_entries = s;
    cfg.cop.data_bytes = 8u * s;
    for (unsigned over = 0; over < 2; over++) {
      const unsigned loads = over ? 3u * s / 2u : 3u * s / 4u;
      model_sys_init(&sys, &cfg, NULL);
      assert_int_equal(vp_fw_start(&fw, &sys.h, &img, seed_policy(16)), kHwprofOk);
      assert_int_equal(fw.slots, s);
      for (unsigned r = 0; r < 48; r++)
        for (unsigned k = 0; k < loads; k++) load(0x80010000u + 4u * k, k);
      if (over) {
        assert_true(fw.thrashes >= 1);
        continue;
      }
      assert_int_equal(fw.thrashes, 0);
      assert_int_equal(fw.copies, 0);
      if (s == 512) assert_true(hwprof_mmio_read32(&sys.h, HWPROF_COP_CAM_KEY_ADDR + 4u * 300u) != 0);
      assert_int_equal(hwprof_cop_drain(&sys.h, 100000u, take_irq, NULL), kHwprofOk);
      assert_int_equal(vp_fw_final_copy(&fw, &sys.h), kHwprofOk);
      assert_int_equal(fw.errors, 0);
      for (unsigned k = 0; k < loads; k++) {
        const vp_fw_load_t *e = find(0x80010000u + 4u * k);
        assert_non_null(e);
        assert_int_equal(e->n, 1);
        assert_int_equal(e->v[0].value, k);
        assert_int_equal(e->v[0].misses, 0);
        assert_true(e->total >= 40 && e->total <= 48);
      }
    }
  }
  hwprof_top_cfg_t cfg;
  hwprof_top_cfg_default(&cfg);
  cfg.cop.cam_entries = 512;
  model_sys_init(&sys, &cfg, NULL); /* 2,048 data bytes: 4 a slot */
  assert_int_equal(vp_fw_start(&fw, &sys.h, &img, seed_policy(16)), kHwprofBadArg);
  model_sys_init(&sys, NULL, NULL);
  hwprof_cop_image_t other = img;
  other.base[3] = 0x700u;
  assert_int_equal(vp_fw_start(&fw, &sys.h, &other, seed_policy(16)), kHwprofBadArg);
}

/* The engine's clock (CLOCK, seed 001 section 5.3), set by the firmware: valueprof.s takes at least
 * 4 engine cycles a record (a hit: cmatch, incs, ld | bne, incs | b done), so at 1/8 of the system
 * clock at least 32 system cycles. 2,000 loads of one PC and value, one a system cycle: the engine
 * takes at most 2,000 / 32 + 1 records while they come, the sample buffer holds at most its 256
 * words' worth, so at least 2,000 - 256 - 63 are dropped by the front end, and every record sampled
 * is counted (a hit each, no other value). At the full clock with the loads 14 cycles apart nothing
 * is dropped (the other tests). A ratio beyond 1/8 is refused. */
static void engine_at_an_eighth_of_the_clock(void **state) {
  (void)state;
  vp_fw_cfg_t c = seed_policy(16);
  c.clock_log2 = 3;
  assert_int_equal(vp_fw_start(&fw, &sys.h, &img, c), kHwprofOk);
  assert_int_equal(hwprof_mmio_read32(&sys.h, HWPROF_COP_CLOCK_ADDR), 3);
  for (unsigned k = 0; k < 2000; k++) {
    hwprof_retire_ev_t ev = {0};
    ev.kind = HWPROF_KIND_LOAD;
    ev.pc = 0x80005000u;
    ev.next_pc = ev.pc + 4;
    ev.insn = 0x00452503u;
    ev.value = 42;
    assert_int_equal(model_sys_retire(&sys, ev), 0); /* the CPU is never held */
    take_irq(NULL);
  }
  hwprof_cop_status_t st;
  assert_int_equal(hwprof_cop_status(&sys.h, &st), kHwprofOk);
  assert_int_equal(st.passed, 2000);
  assert_int_equal(st.sampled + st.dropped, 2000);
  assert_true(st.dropped >= 2000u - 256u - 63u);
  assert_int_equal(hwprof_cop_drain(&sys.h, 100000u, take_irq, NULL), kHwprofOk);
  assert_int_equal(vp_fw_final_copy(&fw, &sys.h), kHwprofOk);
  const vp_fw_load_t *e = find(0x80005000u);
  assert_non_null(e);
  assert_int_equal(e->total, st.sampled);
  assert_int_equal(e->n, 1);
  assert_int_equal(e->v[0].hits, st.sampled > 255 ? 255 : st.sampled); /* the hit byte saturates (F) */
  c.clock_log2 = 4;
  assert_int_equal(vp_fw_start(&fw, &sys.h, &img, c), kHwprofBadArg);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(invariant_and_variant_loads, setup),
      cmocka_unit_test_setup(thrashing_splits_the_program, setup),
      cmocka_unit_test_setup(timer_resamples_and_rotates, setup),
      cmocka_unit_test_setup(without_interval_copies_only_failed_copies, setup),
      cmocka_unit_test_setup(rotating_recheck_backs_off_and_resets, setup),
      cmocka_unit_test_setup(phase_changing_load_is_masked_on_agreement_and_rechecked_often, setup),
      cmocka_unit_test_setup(masked_loads_credited_for_their_time_masked, setup),
      cmocka_unit_test_setup(profile_file, setup),
      cmocka_unit_test_setup(arrays_of_half_and_twice_the_slots, setup),
      cmocka_unit_test_setup(engine_at_an_eighth_of_the_clock, setup),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
