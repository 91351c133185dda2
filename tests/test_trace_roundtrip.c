/* Round trip of the trace path (seed 002): generated RV32 programs with real instruction encodings
 * run with a consistent control flow, so the test knows every trace it executed. Their retire
 * events go through the C model of hwprof_top (cycle-exact with the RTL, as the lockstep benches
 * prove); the driver pops every record from the trace FIFO; sw/trace_recon.c rebuilds each record
 * against the program image, loaded from a real ELF32 file by sw/image.c; and the rebuilt
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
#include "hwprof_trace.h"
#include "top.h"

#define BASE UINT32_C(0x80000000)
#define WORDS 2048u
#define STEPS 400000u

/* ---------------------------------------------------------------- RV32 encodings */
static uint32_t enc_b(int32_t off, unsigned f3) {
  uint32_t i = (uint32_t)off;
  return ((i >> 12) & 1u) << 31 | ((i >> 5) & 0x3fu) << 25 | 5u << 20 | 6u << 15 | f3 << 12 | ((i >> 1) & 0xfu) << 8 |
         ((i >> 11) & 1u) << 7 | 0x63u;
}
static uint32_t enc_j(int32_t off, unsigned rd) {
  uint32_t i = (uint32_t)off;
  return ((i >> 20) & 1u) << 31 | ((i >> 1) & 0x3ffu) << 21 | ((i >> 11) & 1u) << 20 | ((i >> 12) & 0xffu) << 12 |
         rd << 7 | 0x6fu;
}
static uint32_t enc_jalr(unsigned rd, unsigned rs1) { return rs1 << 15 | rd << 7 | 0x67u; }
static uint32_t enc_addi(unsigned rd, unsigned rs1, int32_t imm) {
  return ((uint32_t)imm & 0xfffu) << 20 | rs1 << 15 | rd << 7 | 0x13u;
}

static uint64_t rng_state;
static uint32_t rnd(uint32_t n) {
  rng_state = rng_state * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
  return n ? (uint32_t)(rng_state >> 33) % n : 0;
}

typedef enum { K_OTHER, K_BRANCH, K_JAL, K_CALL, K_IJUMP } gen_kind_t;

typedef struct {
  uint32_t code[WORDS];
  gen_kind_t kind[WORDS];
  uint32_t target[WORDS]; /* direct targets */
} program_t;

/* Branch targets stay within the B-type range and the image; the last word jumps back to the
 * start, so straight-line execution never leaves the image. */
static void generate(program_t *p) {
  for (uint32_t w = 0; w < WORDS; w++) {
    uint32_t pc = BASE + 4u * w;
    uint32_t r = rnd(100);
    if (w == WORDS - 1) r = 200;
    if (r < 62) {
      p->kind[w] = K_OTHER;
      p->code[w] = enc_addi(1 + rnd(30), rnd(32), (int32_t)rnd(4096) - 2048);
    } else if (r < 84) {
      int32_t lo = (int32_t)w - 1000 < 0 ? -(int32_t)w : -1000, hi = (int32_t)(WORDS - 1 - w) > 1000 ? 1000 : (int32_t)(WORDS - 1 - w);
      int32_t d = lo + (int32_t)rnd((uint32_t)(hi - lo + 1));
      p->kind[w] = K_BRANCH;
      p->code[w] = enc_b(4 * d, rnd(2) ? 0u : 1u);
      p->target[w] = pc + (uint32_t)(4 * d);
    } else if ((r < 90 && w + 1 < WORDS - 1) || r == 200) {
      /* forward only (but the wrap-around at the end): unconditional backward jumps could trap the
         run in a cycle with no branch to leave it */
      int32_t d = r == 200 ? -(int32_t)w : 1 + (int32_t)rnd(WORDS - 1 - w);
      p->kind[w] = K_JAL;
      p->code[w] = enc_j(4 * d, 0);
      p->target[w] = pc + (uint32_t)(4 * d);
    } else if (r < 94 && w + 1 < WORDS - 1) {
      int32_t d = 1 + (int32_t)rnd(WORDS - 1 - w);
      p->kind[w] = K_CALL;
      p->code[w] = enc_j(4 * d, 1);
      p->target[w] = pc + (uint32_t)(4 * d);
    } else {
      p->kind[w] = K_IJUMP;
      p->code[w] = enc_jalr(0, rnd(2) ? 1u : 5u); /* a return or a jump through a register */
    }
  }
}

/* ---------------------------------------------------------------- ELF32 file */
static void put16(uint8_t *b, uint32_t v) { b[0] = (uint8_t)v; b[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *b, uint32_t v) { put16(b, v); put16(b + 2, v >> 16); }

static size_t make_elf(const program_t *p, uint8_t *buf) {
  memset(buf, 0, 84);
  memcpy(buf, "\x7f" "ELF", 4);
  buf[4] = 1; /* ELFCLASS32 */
  buf[5] = 1; /* little-endian */
  buf[6] = 1;
  put16(buf + 16, 2);   /* ET_EXEC */
  put16(buf + 18, 243); /* EM_RISCV */
  put32(buf + 20, 1);
  put32(buf + 24, BASE);
  put32(buf + 28, 52); /* phoff */
  put16(buf + 40, 52);
  put16(buf + 42, 32);
  put16(buf + 44, 1);
  uint8_t *ph = buf + 52;
  put32(ph, 1);                /* PT_LOAD */
  put32(ph + 4, 84);           /* offset */
  put32(ph + 8, BASE);         /* vaddr */
  put32(ph + 12, BASE);
  put32(ph + 16, 4 * WORDS);   /* filesz */
  put32(ph + 20, 4 * WORDS);   /* memsz */
  put32(ph + 24, 5);           /* R X */
  for (uint32_t w = 0; w < WORDS; w++) put32(buf + 84 + 4 * w, p->code[w]);
  return 84 + 4 * WORDS;
}

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

/* ---------------------------------------------------------------- the system: C model + driver */
typedef struct {
  top_cfg_t cfg;
  top_state_t s;
  top_out_t out;
  hwprof_t h;
} sys_t;

static void cycle(sys_t *y, top_in_t *in) {
  top_comb(&y->s, &y->cfg, in, &y->out);
  top_step(&y->s, &y->cfg, in);
}
static uint32_t apb(sys_t *y, bool write, uint16_t addr, uint32_t data) {
  top_in_t in = {0};
  in.apb = (apb_req_t){.psel = true, .penable = false, .pwrite = write, .paddr = addr, .pwdata = data};
  cycle(y, &in);
  in.apb.penable = true;
  cycle(y, &in);
  return y->out.apb.prdata;
}
static uint32_t bus_read(void *ctx, uint16_t off) { return apb(ctx, false, off, 0); }
static void bus_write(void *ctx, uint16_t off, uint32_t v) { apb(ctx, true, off, v); }
static const hwprof_bus_t model_bus = {bus_read, bus_write};

static void sys_init(sys_t *y, unsigned hist_w, unsigned fifo_depth) {
  memset(y, 0, sizeof *y);
  top_cfg_default(&y->cfg);
  y->cfg.trace_ctrl.hist_w = hist_w;
  y->cfg.trace_ctrl.fifo_depth = fifo_depth;
  assert_int_equal(top_cfg_check(&y->cfg), HWPROF_OK);
  top_reset(&y->s);
  y->h = (hwprof_t){.base = 0, .bus = &model_bus, .bus_ctx = y};
}

/* ---------------------------------------------------------------- execution and the truth */
typedef struct {
  uint32_t start;
  uint32_t hist;  /* the history this trace must produce */
  size_t first;   /* its instructions: pcs[first .. first + n) */
  size_t n;
} truth_t;

typedef struct {
  program_t prog;
  uint32_t *pcs; /* every executed instruction, in order */
  size_t npcs;
  truth_t *traces;
  size_t ntraces;
} run_t;

/* The termination rules of docs/trace-ctrl.md, written here independently of the C model. */
static void execute(run_t *r, unsigned hist_w, sys_t *y, void (*on_irq)(sys_t *, void *), void *ctx) {
  r->pcs = malloc(sizeof(uint32_t) * STEPS);
  r->traces = malloc(sizeof(truth_t) * STEPS);
  assert_non_null(r->pcs);
  assert_non_null(r->traces);
  r->npcs = r->ntraces = 0;
  uint32_t pc = BASE, hist = 1;
  unsigned outcomes = 0;
  size_t first = 0;
  uint32_t stack[64];
  unsigned sp = 0;
  for (uint32_t step = 0; step < STEPS; step++) {
    uint32_t w = (pc - BASE) / 4u;
    retire_ev_t ev = {.valid = true, .pc = pc, .insn = r->prog.code[w], .kind = HWPROF_KIND_OTHER};
    uint32_t next = pc + 4u;
    bool end = false;
    switch (r->prog.kind[w]) {
      case K_BRANCH:
        ev.kind = HWPROF_KIND_BRANCH;
        ev.taken = rnd(100) < 55;
        if (ev.taken) next = r->prog.target[w];
        if (ev.taken && next <= pc) {
          end = true;
        } else {
          hist = hist << 1 | (ev.taken ? 1u : 0u);
          end = ++outcomes == hist_w - 1u;
        }
        break;
      case K_JAL:
      case K_CALL:
        ev.kind = HWPROF_KIND_JUMP;
        ev.taken = true;
        ev.is_call = r->prog.kind[w] == K_CALL;
        next = r->prog.target[w];
        if (ev.is_call && sp < 64) stack[sp++] = pc + 4u;
        end = next <= pc;
        break;
      case K_IJUMP:
        ev.kind = HWPROF_KIND_IJUMP;
        ev.taken = true;
        next = (sp && rnd(2)) ? stack[--sp] : BASE + 4u * rnd(WORDS);
        end = true;
        break;
      default: break;
    }
    ev.next_pc = next;
    r->pcs[r->npcs++] = pc;
    if (end) {
      r->traces[r->ntraces++] = (truth_t){r->pcs[first], hist, first, r->npcs - first};
      first = r->npcs;
      hist = 1;
      outcomes = 0;
    }
    /* retire it: the trace controller never stalls the processor */
    top_in_t in = {0};
    in.ev = ev;
    cycle(y, &in);
    assert_true(y->out.ev_ready);
    if (y->out.irq_trace) on_irq(y, ctx);
    pc = next;
  }
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
  rng_state = seed;
  generate(&run.prog);
  static uint8_t elf[84 + 4 * WORDS];
  size_t len = make_elf(&run.prog, elf), flen;
  uint8_t *file = elf_file_roundtrip(elf, len, &flen);
  hwprof_image_t img;
  char err[128];
  assert_int_equal(hwprof_image_load_elf(&img, file, flen, err, sizeof err), 0);

  sys_init(&y, hist_w, 8);
  hwprof_trace_config_t tc = {.mode = kHwprofTraceFifo, .watermark = 4};
  assert_int_equal(hwprof_trace_configure(&y.h, &tc), kHwprofOk);
  hwprof_trace_rec_t cur = {BASE, 1};
  assert_int_equal(hwprof_trace_restore(&y.h, &cur), kHwprofOk);
  assert_int_equal(hwprof_trace_enable(&y.h, true), kHwprofOk);

  captured_t cap = {malloc(sizeof(hwprof_trace_rec_t) * STEPS), 0};
  assert_non_null(cap.recs);
  execute(&run, hist_w, &y, pop_all, &cap);
  pop_all(&y, &cap); /* the records below the watermark */
  assert_int_equal(y.s.trace_ctrl.st_drop, 0);
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
  rng_state = 3;
  generate(&run.prog);
  sys_init(&y, 16, 8);
  assert_int_equal(hwprof_trace_table_init(&hc.table, slots, 1 << 16, 50, on_hot, &hc), kHwprofOk);
  hc.hot_calls = 0;
  hwprof_trace_config_t tc = {.mode = kHwprofTraceFifo, .watermark = 6};
  assert_int_equal(hwprof_trace_configure(&y.h, &tc), kHwprofOk);
  hwprof_trace_rec_t cur = {BASE, 1};
  assert_int_equal(hwprof_trace_restore(&y.h, &cur), kHwprofOk);
  assert_int_equal(hwprof_trace_enable(&y.h, true), kHwprofOk);
  execute(&run, 16, &y, handle, &hc);
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
  assert_int_equal(y.s.trace_ctrl.range_lo, 0); /* nothing was written */
}

/* ---------------------------------------------------------------- malformed records and files */
static void test_trace_reconstruct_rejects_malformed_records(void **state) {
  (void)state;
  static program_t p;
  static uint8_t elf[84 + 4 * WORDS];
  rng_state = 4;
  generate(&p);
  /* word 10: a backward branch; word 11: a forward branch */
  p.code[10] = enc_b(-8, 0);
  p.code[11] = enc_b(+8, 0);
  p.code[12] = enc_addi(1, 1, 1);
  size_t len = make_elf(&p, elf);
  hwprof_image_t img;
  assert_int_equal(hwprof_image_load_elf(&img, elf, len, NULL, 0), 0);
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
  p.code[WORDS - 1] = enc_addi(1, 1, 1);
  for (uint32_t w = WORDS - 8; w < WORDS - 1; w++) p.code[w] = enc_addi(1, 1, 1);
  len = make_elf(&p, elf);
  assert_int_equal(hwprof_image_load_elf(&img, elf, len, NULL, 0), 0);
  r = (hwprof_trace_rec_t){BASE + 4 * (WORDS - 8), 1};
  assert_int_equal(hwprof_trace_reconstruct(&img, &r, 32, &out), kReconLeftImage);
  assert_int_equal(out.fail_pc, BASE + 4 * WORDS);
  out.cap = 3;
  assert_int_equal(hwprof_trace_reconstruct(&img, &r, 32, &out), kReconTooLong);
}

static void test_image_loader_rejects_malformed_elf(void **state) {
  (void)state;
  static program_t p;
  static uint8_t elf[84 + 4 * WORDS], bad[84 + 4 * WORDS];
  rng_state = 5;
  generate(&p);
  size_t len = make_elf(&p, elf);
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
    assert_int_equal(hwprof_image_load_elf(&img, bad, cases[i].len ? cases[i].len : len, err, sizeof err), -1);
    assert_int_equal(img.nseg, 0);
    if (strstr(err, cases[i].words) == NULL) fail_msg("case %zu: message '%s' lacks '%s'", i, err, cases[i].words);
  }
  assert_int_equal(hwprof_image_load_elf(&img, elf, len, err, sizeof err), 0);
  assert_int_equal(img.entry, BASE);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_trace_roundtrip_hist32),
      cmocka_unit_test(test_trace_roundtrip_hist8_full_histories),
      cmocka_unit_test(test_trace_handler_counts_equal_the_truth),
      cmocka_unit_test(test_trace_handler_shortens_the_sampling_period),
      cmocka_unit_test(test_trace_driver_bad_arguments),
      cmocka_unit_test(test_trace_reconstruct_rejects_malformed_records),
      cmocka_unit_test(test_image_loader_rejects_malformed_elf),
  };
  return cmocka_run_group_tests_name("trace_roundtrip", tests, NULL, NULL);
}
