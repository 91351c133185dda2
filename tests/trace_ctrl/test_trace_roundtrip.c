/* Round trip of the trace path (seed 002): generated RV32 programs with real instruction encodings
 * run with a consistent control flow, so the test knows every trace it executed. Their retire
 * events go through the C model of hwprof_top (cycle-exact with the RTL, as the lockstep benches
 * prove); the driver pops every record from the trace FIFO; sw/lib/trace_recon.c rebuilds each record
 * against the program image, loaded from a real ELF32 file by sw/lib/image.c; and the rebuilt
 * instruction addresses must equal the executed ones. Also: the Figure 8 handler's counts against
 * the truth, malformed records, and malformed ELF files. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hwprof_image.h"
#include "hwprof_recon.h"
#include "hwprof_elf.h"
#include "hwprof_trace.h"
#include "lib/model_sys.h"
#include "lib/progen.h"
#include "oracle/trace_oracle.h"

#define STEPS 400000u

#define BASE PROGEN_BASE
#define WORDS PROGEN_WORDS

/* Writes the ELF to a file and reads it back, as a tool would. */
static uint8_t *elf_file_roundtrip(const uint8_t *elf, size_t len, size_t *out_len) {
  char path[] = "/tmp/hwprof-trace-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "w+b");
  assert_non_null(f);
  assert_int_equal(fwrite(elf, 1, len, f), len);
  rewind(f);
  uint8_t *buf = malloc(len);
  assert_non_null(buf);
  *out_len = fread(buf, 1, len, f);
  fclose(f);
  remove(path);
  return buf;
}

/* The program image of an ELF held in memory, through the host tools' ELF reader (the image points
 * into the reader's copy of the file, kept until the next call). */
static hwprof_elf_t image_elf;
static int image_of(hwprof_image_t *img, const uint8_t *buf, size_t len, char *err, size_t errlen) {
  hwprof_elf_free(&image_elf);
  img->nseg = 0;
  if (hwprof_elf_parse(&image_elf, buf, len, "program", 0, err, errlen) != 0) return -1;
  return hwprof_elf_image(&image_elf, img, err, errlen);
}

/* ---------------------------------------------------------------- the system: C model + driver */
typedef model_sys_t sys_t;

static void cycle(sys_t *y, hwprof_top_in_t *in) { model_sys_cycle(y, in); }
static uint32_t apb(sys_t *y, bool write, uint16_t addr, uint32_t data) { return model_sys_apb(y, write, addr, data); }

static void sys_init(sys_t *y, unsigned hist_w, unsigned fifo_depth) {
  hwprof_top_cfg_t cfg;
  hwprof_top_cfg_default(&cfg);
  cfg.trace_ctrl.hist_w = hist_w;
  cfg.trace_ctrl.fifo_depth = fifo_depth;
  assert_int_equal(hwprof_top_cfg_check(&cfg), kHwprofOk);
  model_sys_init(y, &cfg, NULL);
}

/* ---------------------------------------------------------------- execution and the truth */
typedef struct {
  uint32_t start;
  uint32_t hist;  /* the history this trace must produce */
  size_t first;   /* its instructions: pcs[first .. first + n) */
  size_t n;
} truth_t;

typedef struct {
  progen_program_t prog;
  uint32_t *pcs; /* every executed instruction, in order */
  size_t npcs;
  truth_t *traces;
  size_t ntraces;
} run_t;

/* The truth comes from tb/oracle/trace_oracle.c: the termination rules, independent of the C model. */
static void execute(run_t *r, uint64_t seed, unsigned hist_w, sys_t *y, void (*on_irq)(sys_t *, void *), void *ctx) {
  r->pcs = malloc(sizeof(uint32_t) * STEPS);
  r->traces = malloc(sizeof(truth_t) * STEPS);
  assert_non_null(r->pcs);
  assert_non_null(r->traces);
  r->npcs = r->ntraces = 0;
  progen_run_t run;
  progen_start(&run, seed);
  trace_oracle_t oracle;
  assert_int_equal(trace_oracle_init(&oracle, hist_w, BASE), 0);
  for (uint32_t step = 0; step < STEPS; step++) {
    hwprof_retire_ev_t ev = progen_step(&r->prog, &run);
    r->pcs[r->npcs++] = ev.pc;
    uint32_t start, hist;
    if (trace_oracle_feed(&oracle, &ev, &start, &hist))
      r->traces[r->ntraces++] = (truth_t){start, hist, r->npcs - oracle.n, oracle.n};
    /* retire it: the trace controller never stalls the processor */
    hwprof_top_in_t in = {0};
    in.ev = ev;
    cycle(y, &in);
    assert_true(y->out.ev_ready);
    if (y->out.irq_trace) on_irq(y, ctx);
  }
  trace_oracle_free(&oracle);
}

static void run_free(run_t *r) {
  free(r->pcs);
  free(r->traces);
}

/* ---------------------------------------------------------------- round trip */
typedef struct {
  hwprof_trace_rec_t *recs;
  size_t n;
} captured_t;

static void pop_all(sys_t *y, void *ctx) {
  captured_t *c = ctx;
  size_t n;
  do {
    assert_int_equal(hwprof_trace_pop(&y->h, c->recs + c->n, 8, &n), kHwprofOk);
    c->n += n;
  } while (n == 8);
  apb(y, true, HWPROF_TOP_IRQ_PENDING_ADDR, 1u << HWPROF_TOP_IRQ_PENDING_TRACE_LSB);
}

static void roundtrip(unsigned hist_w, uint64_t seed) {
  static run_t run;
  static sys_t y;
  progen_generate(&run.prog, seed);
  static uint8_t elf[PROGEN_ELF_BYTES];
  size_t len = progen_elf(&run.prog, elf), flen;
  uint8_t *file = elf_file_roundtrip(elf, len, &flen);
  hwprof_image_t img;
  char err[128];
  assert_int_equal(image_of(&img, file, flen, err, sizeof err), 0);

  sys_init(&y, hist_w, 8);
  hwprof_trace_config_t tc = {.mode = kHwprofTraceFifo, .watermark = 4};
  assert_int_equal(hwprof_trace_configure(&y.h, &tc), kHwprofOk);
  hwprof_trace_rec_t cur = {BASE, 1};
  assert_int_equal(hwprof_trace_restore(&y.h, &cur), kHwprofOk);
  assert_int_equal(hwprof_trace_enable(&y.h, true), kHwprofOk);

  captured_t cap = {malloc(sizeof(hwprof_trace_rec_t) * STEPS), 0};
  assert_non_null(cap.recs);
  execute(&run, seed, hist_w, &y, pop_all, &cap);
  pop_all(&y, &cap); /* the records below the watermark */
  assert_int_equal(hwprof_prim_counters_get(&y.s.trace_ctrl.stats, HWPROF_TC_ST_DROP), 0);
  assert_int_equal(cap.n, run.ntraces);

  static uint32_t pcs[1 << 16];
  static hwprof_block_t blocks[1 << 14];
  size_t checked = 0, instrs = 0;
  for (size_t i = 0; i < cap.n; i++) {
    const truth_t *t = &run.traces[i];
    assert_int_equal(cap.recs[i].start, t->start);
    assert_int_equal(cap.recs[i].hist, t->hist);
    hwprof_recon_t out = {.pcs = pcs, .cap = 1 << 16, .blocks = blocks, .block_cap = 1 << 14};
    hwprof_recon_status_t st = hwprof_trace_reconstruct(&img, &cap.recs[i], hist_w, &out);
    if (st != kReconOk) fail_msg("trace %zu (start 0x%08x): %s at 0x%08x", i, t->start, hwprof_recon_status_str(st), out.fail_pc);
    assert_int_equal(out.n, t->n);
    assert_memory_equal(out.pcs, run.pcs + t->first, t->n * sizeof(uint32_t));
    /* blocks partition the instructions; each is straight-line */
    size_t covered = 0;
    for (size_t b = 0; b < out.nblocks; b++) covered += (out.blocks[b].last - out.blocks[b].first) / 4u + 1u;
    assert_int_equal(covered, out.n);
    checked++;
    instrs += out.n;
  }
  print_message("round trip (HistW %u): %zu traces, %zu instructions reconstructed exactly\n", hist_w, checked,
                 instrs);
  assert_true(checked > 10000);
  free(cap.recs);
  free(file);
  run_free(&run);
}

static void test_trace_roundtrip_hist32(void **state) {
  (void)state;
  roundtrip(32, 1);
}
static void test_trace_roundtrip_hist8_full_histories(void **state) {
  (void)state;
  roundtrip(8, 2);
}

/* ---------------------------------------------------------------- the Figure 8 handler */
typedef struct {
  hwprof_trace_table_t table;
  uint32_t hot_calls;
} handler_ctx_t;

static void on_hot(void *ctx, const hwprof_trace_rec_t *rec, uint32_t count) {
  (void)rec;
  handler_ctx_t *h = ctx;
  h->hot_calls++;
  assert_int_equal(count, h->table.threshold);
}
static void handle(sys_t *y, void *ctx) {
  handler_ctx_t *h = ctx;
  assert_int_equal(hwprof_trace_irq_handler(&y->h, &h->table), kHwprofOk);
}

static void test_trace_handler_counts_equal_the_truth(void **state) {
  (void)state;
  static run_t run;
  static sys_t y;
  static hwprof_trace_entry_t slots[1 << 16];
  static handler_ctx_t hc;
  progen_generate(&run.prog, 3);
  sys_init(&y, 16, 8);
  assert_int_equal(hwprof_trace_table_init(&hc.table, slots, 1 << 16, 50, on_hot, &hc), kHwprofOk);
  hc.hot_calls = 0;
  hwprof_trace_config_t tc = {.mode = kHwprofTraceFifo, .watermark = 6};
  assert_int_equal(hwprof_trace_configure(&y.h, &tc), kHwprofOk);
  hwprof_trace_rec_t cur = {BASE, 1};
  assert_int_equal(hwprof_trace_restore(&y.h, &cur), kHwprofOk);
  assert_int_equal(hwprof_trace_enable(&y.h, true), kHwprofOk);
  execute(&run, 3, 16, &y, handle, &hc);
  handle(&y, &hc);
  assert_int_equal(hc.table.lost, 0);
  assert_int_equal(hc.table.records, run.ntraces);
  /* count the truth independently: each trace's (start, hist), by a linear scan */
  size_t distinct = 0, hot = 0;
  for (size_t i = 0; i < run.ntraces; i++) {
    const truth_t *t = &run.traces[i];
    bool seen = false;
    for (size_t j = 0; j < i && !seen; j++) seen = run.traces[j].start == t->start && run.traces[j].hist == t->hist;
    if (seen) continue;
    uint32_t n = 0;
    for (size_t j = i; j < run.ntraces; j++) n += run.traces[j].start == t->start && run.traces[j].hist == t->hist;
    hwprof_trace_rec_t key = {t->start, t->hist};
    const hwprof_trace_entry_t *e = hwprof_trace_table_find(&hc.table, &key);
    assert_non_null(e);
    assert_int_equal(e->count, n);
    distinct++;
    hot += n >= 50;
    if (distinct > 3000) break; /* the scan is quadratic: a few thousand keys suffice */
  }
  assert_true(hc.hot_calls >= hot);
  assert_int_equal(hc.hot_calls, hc.table.hot_traces);
  print_message("handler: %zu traces, %zu distinct checked, %u hot\n", run.ntraces, distinct, hc.hot_calls);
  run_free(&run);
}

static void test_trace_handler_shortens_the_sampling_period(void **state) {
  (void)state;
  static sys_t y;
  static hwprof_trace_entry_t slots[64];
  hwprof_trace_table_t t;
  sys_init(&y, 32, 8);
  assert_int_equal(hwprof_trace_table_init(&t, slots, 64, 2, NULL, NULL), kHwprofOk);
  hwprof_trace_config_t tc = {.mode = kHwprofTraceEveryTrace, .sample_period = 8};
  assert_int_equal(hwprof_trace_configure(&y.h, &tc), kHwprofOk);
  apb(&y, true, HWPROF_TRACE_CTRL_LAST_START_ADDR, 0x1234);
  apb(&y, true, HWPROF_TRACE_CTRL_LAST_HIST_ADDR, 0x5);
  assert_int_equal(hwprof_trace_irq_handler(&y.h, &t), kHwprofOk);
  assert_int_equal(apb(&y, false, HWPROF_TRACE_CTRL_SAMPLE_RELOAD_ADDR, 0), 8); /* count 1: not hot */
  assert_int_equal(hwprof_trace_irq_handler(&y.h, &t), kHwprofOk);
  assert_int_equal(apb(&y, false, HWPROF_TRACE_CTRL_SAMPLE_RELOAD_ADDR, 0), 4); /* hot: period halved */
  assert_int_equal(t.hot_traces, 1);
  assert_int_equal(t.interrupts, 2);
}

/* Jitter: every interrupt draws the next reload from [p/2 + 1, p/2 + p] around the period p, which
 * paragraph 75 still halves; over 200 interrupts every value of the range comes up (the LFSR is
 * not stuck on a few) and none outside it. */
static void test_trace_handler_jitters_the_sampling_period(void **state) {
  (void)state;
  static sys_t y;
  static hwprof_trace_entry_t slots[64];
  hwprof_trace_table_t t;
  sys_init(&y, 32, 8);
  assert_int_equal(hwprof_trace_table_init(&t, slots, 64, 2, NULL, NULL), kHwprofOk);
  hwprof_trace_config_t tc = {.mode = kHwprofTraceEveryTrace, .sample_period = 8};
  assert_int_equal(hwprof_trace_configure(&y.h, &tc), kHwprofOk);
  assert_int_equal(hwprof_trace_table_jitter(&y.h, &t, 0), kHwprofOk); /* seed 0: off */
  assert_int_equal(t.lfsr, 0);
  assert_int_equal(hwprof_trace_table_jitter(&y.h, &t, 0xace1u), kHwprofOk);
  assert_int_equal(t.period, 8);
  bool seen[16] = {false};
  for (unsigned i = 0; i < 200; i++) {
    apb(&y, true, HWPROF_TRACE_CTRL_LAST_START_ADDR, 0x1000 + 4 * i); /* a new trace each time: none hot */
    apb(&y, true, HWPROF_TRACE_CTRL_LAST_HIST_ADDR, 0x5);
    assert_int_equal(hwprof_trace_irq_handler(&y.h, &t), kHwprofOk);
    const uint32_t r = apb(&y, false, HWPROF_TRACE_CTRL_SAMPLE_RELOAD_ADDR, 0);
    assert_in_range(r, 5, 12);
    seen[r] = true;
  }
  for (unsigned r = 5; r <= 12; r++) assert_true(seen[r]);
  /* a hot trace halves the period the jitter is drawn around: [3, 6] */
  apb(&y, true, HWPROF_TRACE_CTRL_LAST_START_ADDR, 0x1000);
  assert_int_equal(hwprof_trace_irq_handler(&y.h, &t), kHwprofOk);
  assert_int_equal(t.period, 4);
  assert_in_range(apb(&y, false, HWPROF_TRACE_CTRL_SAMPLE_RELOAD_ADDR, 0), 3, 6);
}

/* Back-off: with max_period set, every 16th quiet batch in a row lengthens the period by an eighth
 * (at least 1) up to max_period: 8 -> 10 (8 + 1 + 1) after 16 batches, 12 after 32, then 14, 16, 19,
 * 22, 25, 29, 30 (the cap); a new hot trace halves it (30 -> 15) and starts the count again. */
static void test_trace_handler_backs_off_while_nothing_turns_hot(void **state) {
  (void)state;
  static sys_t y;
  static hwprof_trace_entry_t slots[1024];
  hwprof_trace_table_t t;
  sys_init(&y, 32, 8);
  assert_int_equal(hwprof_trace_table_init(&t, slots, 1024, 2, NULL, NULL), kHwprofOk);
  t.max_period = 30;
  hwprof_trace_config_t tc = {.mode = kHwprofTraceEveryTrace, .sample_period = 8};
  assert_int_equal(hwprof_trace_configure(&y.h, &tc), kHwprofOk);
  const uint32_t want[] = {10, 12, 14, 16, 19, 22, 25, 29, 30, 30};
  for (unsigned i = 0; i < 160; i++) {
    apb(&y, true, HWPROF_TRACE_CTRL_LAST_START_ADDR, 0x1000 + 4 * i); /* a new trace each time: none hot */
    apb(&y, true, HWPROF_TRACE_CTRL_LAST_HIST_ADDR, 0x5);
    assert_int_equal(hwprof_trace_irq_handler(&y.h, &t), kHwprofOk);
    const uint32_t r = apb(&y, false, HWPROF_TRACE_CTRL_SAMPLE_RELOAD_ADDR, 0);
    assert_int_equal(r, i < 15 ? 8u : want[(i + 1) / 16 - 1]);
  }
  apb(&y, true, HWPROF_TRACE_CTRL_LAST_START_ADDR, 0x1000); /* its second sample: hot */
  assert_int_equal(hwprof_trace_irq_handler(&y.h, &t), kHwprofOk);
  assert_int_equal(apb(&y, false, HWPROF_TRACE_CTRL_SAMPLE_RELOAD_ADDR, 0), 15);
  assert_int_equal(t.quiet, 0);
}

static void test_trace_driver_bad_arguments(void **state) {
  (void)state;
  static sys_t y;
  sys_init(&y, 32, 8);
  hwprof_trace_config_t tc = {.mode = kHwprofTraceFifo, .watermark = 0};
  assert_int_equal(hwprof_trace_configure(&y.h, &tc), kHwprofBadArg);
  tc = (hwprof_trace_config_t){.mode = kHwprofTraceEveryTrace, .range_lo = 8, .range_hi = 4};
  assert_int_equal(hwprof_trace_configure(&y.h, &tc), kHwprofBadArg);
  hwprof_trace_rec_t bad = {0x100, 0};
  assert_int_equal(hwprof_trace_restore(&y.h, &bad), kHwprofBadArg);
  hwprof_trace_entry_t slots[3];
  hwprof_trace_table_t t;
  assert_int_equal(hwprof_trace_table_init(&t, slots, 3, 1, NULL, NULL), kHwprofBadArg);
  assert_int_equal(y.s.trace_ctrl.regs.range_lo_value, 0); /* nothing was written */
  /* a watermark above the FIFO's depth (8 here) would never interrupt */
  tc = (hwprof_trace_config_t){.mode = kHwprofTraceFifo, .watermark = 9, .range_lo = 4, .range_hi = 8};
  assert_int_equal(hwprof_trace_configure(&y.h, &tc), kHwprofBadArg);
  assert_int_equal(y.s.trace_ctrl.regs.range_lo_value, 0);
  assert_false(y.s.trace_ctrl.regs.ctrl_fifo_mode);
  tc.watermark = 8;
  assert_int_equal(hwprof_trace_configure(&y.h, &tc), kHwprofOk);
  assert_int_equal(y.s.trace_ctrl.regs.range_lo_value, 4);
}

/* The build parameters software reads are the ones the model was built with. */
static void test_driver_reads_build_parameters(void **state) {
  (void)state;
  static sys_t y;
  for (unsigned i = 0; i < 2; i++) {
    sys_init(&y, i ? 8 : 32, i ? 2 : 8);
    hwprof_config_t c;
    assert_int_equal(hwprof_read_config(&y.h, &c), kHwprofOk);
    assert_int_equal(c.hist_w, i ? 8 : 32);
    assert_int_equal(c.trace_fifo_depth, i ? 2 : 8);
    assert_int_equal(c.cnt_w, y.cfg.edge_prof.cnt_w);
    assert_int_equal(c.upd_depth, y.cfg.edge_prof.upd_depth);
    assert_int_equal(c.oab_depth, y.cfg.edge_prof.oab_depth);
    assert_int_equal(c.sets, y.cfg.edge_prof.sets);
    assert_int_equal(c.ways, y.cfg.edge_prof.ways);
    assert_int_equal(c.line_words, y.cfg.edge_prof.line_words);
  }
  assert_int_equal(hwprof_read_config(&y.h, NULL), kHwprofBadArg);
}

/* ---------------------------------------------------------------- malformed records and files */
static void test_trace_reconstruct_rejects_malformed_records(void **state) {
  (void)state;
  static progen_program_t p;
  static uint8_t elf[PROGEN_ELF_BYTES];
  progen_generate(&p, 4);
  /* word 10: a backward branch; word 11: a forward branch */
  p.code[10] = progen_enc_b(-8, 0);
  p.code[11] = progen_enc_b(+8, 0);
  p.code[12] = progen_enc_addi(1, 1, 1);
  size_t len = progen_elf(&p, elf);
  hwprof_image_t img;
  assert_int_equal(image_of(&img, elf, len, NULL, 0), 0);
  uint32_t pcs[64];
  hwprof_recon_t out = {.pcs = pcs, .cap = 64};
  hwprof_trace_rec_t r = {BASE + 40, 0};
  assert_int_equal(hwprof_trace_reconstruct(&img, &r, 32, &out), kReconNoMarker);
  r.hist = 0x100;
  assert_int_equal(hwprof_trace_reconstruct(&img, &r, 8, &out), kReconNoMarker); /* wider than HistW */
  r = (hwprof_trace_rec_t){0x1000, 1};
  assert_int_equal(hwprof_trace_reconstruct(&img, &r, 32, &out), kReconStartOutside);
  r = (hwprof_trace_rec_t){BASE + 40, 0x3}; /* one outcome, taken, on a backward branch */
  assert_int_equal(hwprof_trace_reconstruct(&img, &r, 32, &out), kReconBadHistory);
  assert_int_equal(out.fail_pc, BASE + 40);
  r = (hwprof_trace_rec_t){BASE + 44, 0x1}; /* no outcome, but a forward branch comes first */
  assert_int_equal(hwprof_trace_reconstruct(&img, &r, 32, &out), kReconBadHistory);
  r = (hwprof_trace_rec_t){BASE + 40, 0x1}; /* no outcome: the backward branch ended it, taken */
  assert_int_equal(hwprof_trace_reconstruct(&img, &r, 32, &out), kReconOk);
  assert_int_equal(out.n, 1);
  /* a walk that leaves the image: the last word made a fall-through */
  for (uint32_t w = WORDS - 8; w < WORDS; w++) p.code[w] = progen_enc_addi(1, 1, 1);
  len = progen_elf(&p, elf);
  assert_int_equal(image_of(&img, elf, len, NULL, 0), 0);
  r = (hwprof_trace_rec_t){BASE + 4 * (WORDS - 8), 1};
  assert_int_equal(hwprof_trace_reconstruct(&img, &r, 32, &out), kReconLeftImage);
  assert_int_equal(out.fail_pc, BASE + 4 * WORDS);
  out.cap = 3;
  assert_int_equal(hwprof_trace_reconstruct(&img, &r, 32, &out), kReconTooLong);
}

static void test_image_loader_rejects_malformed_elf(void **state) {
  (void)state;
  static progen_program_t p;
  static uint8_t elf[PROGEN_ELF_BYTES], bad[PROGEN_ELF_BYTES];
  progen_generate(&p, 5);
  size_t len = progen_elf(&p, elf);
  hwprof_image_t img;
  char err[128];
  struct {
    size_t at;
    uint8_t value;
    size_t len;
    const char *words;
  } cases[] = {
      {0, 0x00, 0, "bad magic"},      {4, 2, 0, "32-bit"},          {5, 2, 0, "little-endian"},
      {18, 0x3e, 0, "RISC-V"},        {16, 1, 0, "executable"},     {SIZE_MAX, 0, 40, "too short"},
      {52 + 4 + 2, 0x10, 0, "end of the file"},                     {44, 0, 0, "no program headers"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    memcpy(bad, elf, len);
    if (cases[i].at != SIZE_MAX) bad[cases[i].at] = cases[i].value;
    err[0] = '\0';
    assert_int_equal(image_of(&img, bad, cases[i].len ? cases[i].len : len, err, sizeof err), -1);
    assert_int_equal(img.nseg, 0);
    if (strstr(err, cases[i].words) == NULL) fail_msg("case %zu: message '%s' lacks '%s'", i, err, cases[i].words);
  }
  assert_int_equal(image_of(&img, elf, len, err, sizeof err), 0);
  assert_int_equal(img.entry, BASE);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_trace_roundtrip_hist32),
      cmocka_unit_test(test_trace_roundtrip_hist8_full_histories),
      cmocka_unit_test(test_trace_handler_counts_equal_the_truth),
      cmocka_unit_test(test_trace_handler_shortens_the_sampling_period),
      cmocka_unit_test(test_trace_handler_jitters_the_sampling_period),
      cmocka_unit_test(test_trace_handler_backs_off_while_nothing_turns_hot),
      cmocka_unit_test(test_trace_driver_bad_arguments),
      cmocka_unit_test(test_driver_reads_build_parameters),
      cmocka_unit_test(test_trace_reconstruct_rejects_malformed_records),
      cmocka_unit_test(test_image_loader_rejects_malformed_elf),
  };
  return cmocka_run_group_tests_name("trace_roundtrip", tests, NULL, NULL);
}
