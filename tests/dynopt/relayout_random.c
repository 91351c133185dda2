/* Block re-layout (sw/fw/dynopt/relayout.c) at random moments of real programs, in random orders. For
 * each program instrumented for the dynamic optimizer (build/dyn/NAME-prof.elf, its map beside it):
 * run it on the whole platform (CPU model and hwprof_top's C model, the firmware taking its phase
 * interrupts) and keep its output; run it again and, at instructions drawn at random over the run,
 * lay a random function out in a random order of its blocks (so that branches are inverted, kept,
 * or followed by jumps in every combination, with every kind of profiling hint and region switch
 * the instrumenter writes), whatever is running then: the firmware's handler, the middle of a
 * block, a callee of the function. The program's output and exit code must be the same, and its
 * edge profile, read back from the counters, must equal the exact one counted from the retire
 * stream through the code cache's origin table (tb/check/edge_check.c): 0 differences. The orders are
 * not what an optimizer would choose; that is the point (the oracles are the program's own output
 * and the exact profile).
 *
 * usage: relayout-random SEED LAYOUTS ELF...     (exit 0: every program the same and exact)
 * To find what broke a program: RELAYOUT_LIMIT=K makes only the first K layouts (bisect on it),
 * RELAYOUT_VERBOSE=1 lists each layout, RELAYOUT_DIFF=1 lists the words a layout changed outside
 * its copy, RELAYOUT_DUMP=FILE writes each copy's words (objdump -b binary), RELAYOUT_DUMP_CACHE=FILE
 * the origin table and the cache at the end. (A seed of 8 on crc32 found a call re-aimed while the
 * program was stopped between its auipc and its jalr.) */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/edge_check.h"
#include "hwprof_meta.h"
#include "platform.h"
#include "relayout.h"

#define RAM (16u << 20)
#define MAX_INSNS 200000000u
#define CACHE_LO 0x80780000u /* as the firmware's (sw/fw/rt/dynopt_rt.c): free in build/dyn's memory map */
#define CACHE_HI 0x80800000u
#define MAX_BLOCKS 4096u

typedef struct {
  char *out;
  size_t len;
  int exit_code;
  uint64_t insns, in_cache;
} run_t;

static uint64_t rng_next(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static uint32_t apb_read(void *ctx, uint16_t addr) { return platform_apb(ctx, false, addr, 0); }
static void apb_write(void *ctx, uint16_t addr, uint32_t v) { platform_apb(ctx, true, addr, v); }
static const hwprof_bus_t kBus = {apb_read, apb_write};

/* The run-time metadata in the loaded program: the instrumenter puts it after the counter areas. */
static int find_meta(const platform_t *p, const pm_map_t *map, hwprof_meta_t *m) {
  const uint32_t from = map->counters_at + 4u * map->total_counters;
  for (uint32_t a = (from + 3u) & ~3u; a + 64u <= RV_RAM_BASE + RAM; a += 4u) {
    const uint8_t *w = p->cpu.ram + (a - RV_RAM_BASE);
    uint32_t magic;
    memcpy(&magic, w, 4);
    if (magic == HWPROF_META_MAGIC)
      return hwprof_meta_open(m, w, RV_RAM_BASE + RAM - a) == kHwprofOk && hwprof_meta_check_all(m) == kHwprofOk ? 0 : -1;
  }
  return -1;
}

typedef struct {
  platform_t plat;
  edge_check_t ec;
  hwprof_meta_t meta;
  hwprof_cc_t cc;
  hwprof_rl_t rl;
  hwprof_cc_patch_t cc_patch[1];
  hwprof_cc_exit_t cc_exit[1];
  hwprof_rl_patch_t patch[65536];
  hwprof_rl_func_t func[4096];
  uint32_t copy[MAX_BLOCKS], order[MAX_BLOCKS];
  hwprof_rl_block_t blk[MAX_BLOCKS];
  uint64_t max_insns; /* a run taking longer ran away */
  uint32_t ring[4096]; /* the last PCs */
  uint32_t last_prog; /* the last PC outside a trap handler */
  bool told;
  size_t limit;  /* only the first layouts (RELAYOUT_LIMIT, to find the one that breaks a program) */
  bool verbose;  /* each layout on stderr (RELAYOUT_VERBOSE) */
} world_t;

/* Lays function f out in a random order (entry first or not, drawn too). Returns its status. */
static hwprof_cc_status_t random_layout(world_t *w, uint32_t f, uint64_t *s) {
  const hwprof_meta_func_t *fn = &w->meta.fn[f];
  const uint32_t n = fn->nblocks;
  for (uint32_t b = 0; b < n; b++) {
    const hwprof_meta_block_t *x = &w->meta.blk[fn->first_block + b];
    w->blk[b] = (hwprof_rl_block_t){x->new_start, x->new_end};
    w->order[b] = b;
  }
  for (uint32_t b = n; b > 1; b--) { /* Fisher-Yates */
    const uint32_t k = (uint32_t)(rng_next(s) % b), t = w->order[b - 1];
    w->order[b - 1] = w->order[k];
    w->order[k] = t;
  }
  uint32_t entry;
  const uint32_t from = w->cc.next;
  static uint8_t snap[0x480000];
  const uint32_t SNAP_LO = 0x80780000u;
  if (getenv("RELAYOUT_DIFF")) memcpy(snap, w->plat.cpu.ram + (SNAP_LO - RV_RAM_BASE), sizeof snap);
  /* calls re-aimed anywhere in the program's code and the cache */
  const hwprof_rl_block_t callers[2] = {{w->cc.c.code_lo, w->cc.c.code_hi}, {w->cc.c.lo, w->cc.c.hi}};
  const hwprof_cc_status_t st = hwprof_rl_place(&w->rl, w->blk, n, w->order, NULL, callers, 2, w->plat.cpu.pc,
                                                &entry);
  if (getenv("RELAYOUT_DIFF"))
    for (uint32_t a = SNAP_LO; a < SNAP_LO + sizeof snap; a += 4u) {
      uint32_t x, y;
      memcpy(&x, snap + (a - SNAP_LO), 4);
      memcpy(&y, w->plat.cpu.ram + (a - RV_RAM_BASE), 4);
      if (x != y && (a < from || a >= w->cc.next)) fprintf(stderr, "  changed %08x: %08x -> %08x\n", a, x, y);
    }
  const char *dump = getenv("RELAYOUT_DUMP"); /* the copy's words, to disassemble (objdump -b binary) */
  FILE *d = st == kHwprofCcPlaced && dump ? fopen(dump, "wb") : NULL;
  if (d) {
    fwrite(w->plat.cpu.ram + (from - RV_RAM_BASE), 1, w->cc.next - from, d);
    fclose(d);
    for (uint32_t b = 0; b < n; b++) fprintf(stderr, "  block %u [0x%08x, 0x%08x) -> 0x%08x\n", (unsigned)b,
                                             (unsigned)w->blk[b].lo, (unsigned)w->blk[b].hi, (unsigned)w->copy[b]);
  }
  return st;
}

/* Runs the loaded program to its end, laying out a random function at each of the sorted
 * instruction counts at[0..nat). */
static int run(world_t *w, run_t *r, const uint64_t *at, size_t nat, uint64_t *s) {
  FILE *con = open_memstream(&r->out, &r->len);
  if (con == NULL) return -1;
  w->plat.cpu.console = con;
  rv_status_t st = RV_RUNNING;
  hwprof_retire_ev_t ev;
  size_t k = 0;
  r->insns = r->in_cache = 0;
  while (st == RV_RUNNING && w->plat.cpu.instret < w->max_insns) {
    while (k < nat && w->plat.cpu.instret >= at[k]) {
      uint32_t f = (uint32_t)(rng_next(s) % w->meta.hdr->nfunc);
      for (uint32_t tries = 0; tries < w->meta.hdr->nfunc && (w->meta.fn[f].nblocks == 0 ||
                                                             w->meta.fn[f].nblocks > MAX_BLOCKS); tries++)
        f = (f + 1u) % w->meta.hdr->nfunc;
      if (w->meta.fn[f].nblocks && w->meta.fn[f].nblocks <= MAX_BLOCKS && k < w->limit) {
        const hwprof_cc_status_t st = random_layout(w, f, s);
        if (w->verbose)
          fprintf(stderr, "layout %zu at %" PRIu64 " (pc 0x%08" PRIx32 "): function %" PRIu32 " [0x%08" PRIx32
                          ", %" PRIu32 " blocks): %s, copy 0x%08" PRIx32 "\n",
                  k, w->plat.cpu.instret, w->plat.cpu.pc, f, w->meta.fn[f].new_entry, w->meta.fn[f].nblocks,
                  hwprof_cc_status_str(st), w->copy[0]);
      }
      k++;
    }
    if (getenv("RELAYOUT_WATCH")) {
      const uint32_t pc = w->plat.cpu.pc, sp = w->plat.cpu.x[2];
      if (pc == 0x807801c0u || pc == 0x807801bcu || pc == 0x80780104u || pc == 0x808033c0u || pc == 0x808033bcu) {
        uint32_t slot = 0;
        memcpy(&slot, w->plat.cpu.ram + (sp + 60u - RV_RAM_BASE), 4);
        fprintf(stderr, "  watch pc %08x ra %08x sp %08x [sp+60] %08x at %" PRIu64 "\n", pc, w->plat.cpu.x[1], sp, slot,
                w->plat.cpu.instret);
      }
    }
    st = platform_step(&w->plat);
    ev = w->plat.ev_in.ev;
    if (ev.valid && getenv("RELAYOUT_WHERE") && w->plat.cpu.mcause == 1u && !w->told) {
      w->told = true;
      fprintf(stderr, "  first fault; before it:");
      for (unsigned i = 4096u - 16u; i < 4096u; i++) fprintf(stderr, " %08" PRIx32, w->ring[(w->plat.cpu.instret + 1u + i) % 4096u]);
      fprintf(stderr, "\n");
    }
    if (ev.valid) w->ring[w->plat.cpu.instret % 4096u] = ev.pc;
    if (ev.valid && ev.trap != HWPROF_TRAP_HANDLER) w->last_prog = ev.pc;
    if (ev.valid && nat) edge_check_event(&w->ec, &ev);
    if (!ev.valid) continue;
    r->insns++;
    r->in_cache += ev.pc >= CACHE_LO && ev.pc < CACHE_HI;
  }
  fclose(con);
  const char *dump_all = getenv("RELAYOUT_DUMP_CACHE"); /* the cache and its origins at the end */
  if (dump_all && nat) {
    FILE *d = fopen(dump_all, "wb");
    if (d) {
      fwrite(w->plat.cpu.ram + (CACHE_LO - (CACHE_HI - CACHE_LO) - RV_RAM_BASE), 1, 2u * (CACHE_HI - CACHE_LO), d);
      fclose(d);
    }
  }
  if (st == RV_RUNNING) { /* ran away: where */
    fprintf(stderr, "  ran away; the last instructions:");
    for (unsigned i = 4096u - 16u; i < 4096u; i++) fprintf(stderr, " %08" PRIx32, w->ring[(w->plat.cpu.instret + 1u + i) % 4096u]);
    fprintf(stderr, "; the program's last: %08" PRIx32 " (mcause %08" PRIx32 ", mepc %08" PRIx32 ")\n", w->last_prog,
            w->plat.cpu.mcause, w->plat.cpu.mepc);
  }
  r->exit_code = st == RV_EXITED ? w->plat.cpu.exit_code : -1;
  if (st == RV_FAILED) fprintf(stderr, "  the run failed: %s\n", w->plat.cpu.error);
  return st == RV_EXITED ? 0 : -1;
}

/* The program's own output: the firmware's "dynopt:" lines (its statistics and events, whose
 * instruction counts move with the layout) left out. */
static size_t own_output(const char *in, size_t len, char *out) {
  size_t n = 0;
  for (size_t i = 0; i < len;) {
    const char *nl = memchr(in + i, '\n', len - i);
    const size_t end = nl ? (size_t)(nl - in) + 1u : len;
    if (strncmp(in + i, "dynopt:", end - i < 7 ? end - i : 7) != 0) {
      memcpy(out + n, in + i, end - i);
      n += end - i;
    }
    i = end;
  }
  return n;
}

static int cmp_u64(const void *a, const void *b) {
  const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static int check_program(const char *elf, uint64_t seed, unsigned nlayouts) {
  static world_t a, b;
  run_t ra = {0}, rb = {0};
  int rc = 1;
  char map_path[512], err[300];
  const size_t len = strlen(elf);
  if (len < 5 || len >= sizeof map_path || strcmp(elf + len - 4, ".elf") != 0) {
    fprintf(stderr, "%s: expects NAME.elf with NAME.map beside it\n", elf);
    return 1;
  }
  snprintf(map_path, sizeof map_path, "%.*s.map", (int)(len - 4), elf);
  memset(&a.plat, 0, sizeof a.plat);
  memset(&b.plat, 0, sizeof b.plat);
  if (platform_init(&a.plat, elf, RAM, 4) || platform_init(&b.plat, elf, RAM, 4)) {
    fprintf(stderr, "%s: %s%s\n", elf, a.plat.error, b.plat.error);
    goto out;
  }
  if (edge_check_init(&b.ec, map_path, b.plat.cfg.edge_prof.cnt_w, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    goto out;
  }
  edge_check_set_cache(&b.ec, CACHE_LO, CACHE_HI, b.plat.cpu.ram, RV_RAM_BASE, RAM);
  if (find_meta(&b.plat, &b.ec.map, &b.meta)) {
    fprintf(stderr, "%s: no run-time metadata (of version %u) found behind the counters\n", elf, HWPROF_META_VERSION);
    goto out_ec;
  }
  uint64_t s = seed * 0x9e3779b97f4a7c15u + 1u;
  const char *lim = getenv("RELAYOUT_LIMIT");
  b.limit = lim ? (size_t)strtoull(lim, NULL, 0) : SIZE_MAX;
  b.verbose = getenv("RELAYOUT_VERBOSE") != NULL;
  a.max_insns = MAX_INSNS;
  if (run(&a, &ra, NULL, 0, &s) != 0) {
    fprintf(stderr, "%s: the program did not run to its end\n", elf);
    goto out_ec;
  }
  const hwprof_cc_config_t c = {.mem_base = RV_RAM_BASE, .mem = (uint32_t *)(void *)b.plat.cpu.ram,
                                .mem_words = RAM / 4u, .shadow = b.plat.cpu.shadow, .code_lo = CACHE_HI,
                                .code_hi = b.meta.hdr->counters_at, .lo = CACHE_LO, .hi = CACHE_HI,
                                .patch = b.cc_patch, .patch_cap = 1, .exit = b.cc_exit, .exit_cap = 1,
                                .origin = (uint32_t *)(void *)(b.plat.cpu.ram + (CACHE_LO - (CACHE_HI - CACHE_LO) - RV_RAM_BASE))};
  if (hwprof_cc_init(&b.cc, c) != kHwprofOk ||
      hwprof_rl_init(&b.rl, &b.cc, b.patch, sizeof b.patch / sizeof b.patch[0], b.func, sizeof b.func / sizeof b.func[0],
                     b.copy, MAX_BLOCKS) != kHwprofOk) {
    fprintf(stderr, "%s: the cache's configuration is refused\n", elf);
    goto out_ec;
  }
  uint64_t *at = calloc(nlayouts + 1u, sizeof *at);
  if (at == NULL) goto out_ec;
  for (unsigned i = 0; i < nlayouts; i++) at[i] = rng_next(&s) % ra.insns;
  qsort(at, nlayouts, sizeof *at, cmp_u64);
  b.max_insns = 2u * ra.insns + 1000000u; /* layouts cost little: twice as long has run away */
  const int ran = run(&b, &rb, at, nlayouts, &s);
  free(at);
  long diff = -1;
  if (ran != 0) {
    fprintf(stderr, "%s: the run with re-layouts did not end\n", elf);
  } else if (edge_check_flush(&kBus, &b.plat) == 0) {
    FILE *quiet = fopen("/dev/null", "w");
    diff = edge_check_finish(&b.ec, b.plat.cpu.ram, RV_RAM_BASE, RAM, NULL, NULL, quiet ? quiet : stderr);
    if (quiet) fclose(quiet);
    if (diff != 0) (void)edge_check_finish(&b.ec, b.plat.cpu.ram, RV_RAM_BASE, RAM, NULL, NULL, stderr);
  }
  char *oa = malloc(ra.len + 1u), *ob = malloc(rb.len + 1u);
  if (oa == NULL || ob == NULL) {
    free(oa), free(ob);
    goto out_ec;
  }
  const size_t na = own_output(ra.out, ra.len, oa), nb = own_output(rb.out, rb.len, ob);
  const int same = ra.exit_code == rb.exit_code && na == nb && memcmp(oa, ob, na) == 0;
  printf("%s: %u layouts: %" PRIu32 " placed", elf, nlayouts, b.rl.placed);
  for (unsigned r = 1; r < kHwprofCcReasons; r++)
    if (b.rl.refused[r]) printf(", %" PRIu32 " %s", b.rl.refused[r], hwprof_cc_status_str((hwprof_cc_status_t)r));
  printf("; %.1f%% of %" PRIu64 " instructions from the cache; exit %d / %d, output %s, edge profile %ld differences\n",
         rb.insns ? 100.0 * (double)rb.in_cache / (double)rb.insns : 0.0, rb.insns, ra.exit_code, rb.exit_code,
         same ? "the same" : "DIFFERENT", diff);
  if (!same) fprintf(stderr, "--- expected\n%.*s--- got\n%.*s", (int)na, oa, (int)nb, ob);
  free(oa), free(ob);
  rc = same && diff == 0 && b.rl.placed > 0 && rb.in_cache > 0 ? 0 : 1;
out_ec:
  edge_check_free(&b.ec);
out:
  platform_free(&a.plat);
  platform_free(&b.plat);
  free(ra.out);
  free(rb.out);
  return rc;
}

int main(int argc, char **argv) {
  char *end = NULL;
  if (argc < 4 || (strtoull(argv[1], &end, 0), *end) || strtoul(argv[2], NULL, 0) == 0) {
    fprintf(stderr, "usage: relayout-random SEED LAYOUTS ELF...   (build/dyn/NAME-prof.elf, NAME-prof.map beside it)\n");
    return 2;
  }
  const uint64_t seed = strtoull(argv[1], NULL, 0);
  const unsigned n = (unsigned)strtoul(argv[2], NULL, 0);
  int failed = 0;
  for (int i = 3; i < argc; i++) failed += check_program(argv[i], seed + (uint64_t)i, n);
  printf("relayout-random: %d programs, %d with a difference\n", argc - 3, failed);
  return failed ? 1 : 0;
}
