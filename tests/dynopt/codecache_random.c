/* The code cache (sw/fw/dynopt/codecache.c) on random paths of real programs. For each ELF: run it on
 * the CPU model and keep its retired-PC stream and its output; cut random paths out of that stream
 * (any start, any length up to 40, ending at the first indirect jump or trap), place them in a code
 * cache in a fresh copy of the program's memory, and run it again: its output and exit code must be
 * the same, and part of it must have run from the cache. The paths start anywhere, not only where
 * the trace controller would start one, so the rules of the copy meet far more shapes of code than
 * the hot traces of make test's end-to-end check do; the oracle is the program's own output.
 *
 * usage: codecache-random SEED PATHS ELF...     (exit 0: every program the same; 1: a difference) */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecache.h"
#include "rv32.h"

#define RAM (16u << 20)
#define MAX_INSNS 200000000u
#define MAX_PATH 40u
#define CACHE_LO (RV_RAM_BASE + 0xf0000u) /* free in the workloads' and Embench's memory map */
#define CACHE_HI (RV_RAM_BASE + 0x100000u)

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

/* Runs the loaded program to its end; pcs (if not NULL) gets the retired PCs. */
static int run(rv_cpu_t *cpu, run_t *r, uint32_t **pcs, size_t *npcs) {
  FILE *con = open_memstream(&r->out, &r->len);
  if (con == NULL) return -1;
  cpu->console = con;
  size_t cap = 0;
  rv_status_t st = RV_RUNNING;
  hwprof_retire_ev_t ev;
  r->insns = r->in_cache = 0;
  while (st == RV_RUNNING && cpu->instret < MAX_INSNS) {
    st = rv_step(cpu, &ev);
    if (!ev.valid) continue;
    r->insns++;
    r->in_cache += ev.pc >= CACHE_LO && ev.pc < CACHE_HI;
    if (pcs) {
      if (*npcs == cap) {
        cap = cap ? 2 * cap : 1u << 20;
        uint32_t *more = realloc(*pcs, cap * sizeof **pcs);
        if (more == NULL) break;
        *pcs = more;
      }
      (*pcs)[(*npcs)++] = ev.pc;
    }
  }
  fclose(con);
  r->exit_code = st == RV_EXITED ? cpu->exit_code : -1;
  if (st == RV_FAILED) fprintf(stderr, "  the run failed: %s\n", cpu->error);
  return st == RV_EXITED ? 0 : -1;
}

/* The path from stream index s: up to len instructions, ending at the first jalr or system
 * instruction (an indirect jump or a trap ends a trace in the hardware too). */
static size_t cut(const rv_cpu_t *cpu, const uint32_t *pcs, size_t npcs, size_t s, size_t len, uint32_t *path) {
  size_t n = 0;
  for (size_t i = s; i < npcs && n < len; i++) {
    path[n++] = pcs[i];
    uint32_t w;
    memcpy(&w, cpu->ram + (pcs[i] - RV_RAM_BASE), 4);
    int32_t off;
    const rv32_cf_t k = rv32_control_flow(w, &off);
    if (k == RV32_CF_JALR || k == RV32_CF_SYSTEM) break;
  }
  return n;
}

static int check_program(const char *elf, uint64_t seed, unsigned npaths) {
  static rv_cpu_t a, b;
  run_t ra = {0}, rb = {0};
  uint32_t *pcs = NULL;
  size_t npcs = 0;
  int rc = 1;
  if (rv_init(&a, RAM) || rv_load_elf(&a, elf)) {
    fprintf(stderr, "%s: %s\n", elf, a.error);
    rv_free(&a);
    return 1;
  }
  if (run(&a, &ra, &pcs, &npcs) != 0 || npcs == 0) {
    fprintf(stderr, "%s: the program did not run to its end\n", elf);
    goto out_a;
  }
  uint32_t code_lo = UINT32_MAX, code_hi = 0;
  for (size_t i = 0; i < npcs; i++) {
    if (pcs[i] < code_lo) code_lo = pcs[i];
    if (pcs[i] + 4u > code_hi) code_hi = pcs[i] + 4u;
  }
  if (code_hi > CACHE_LO) {
    fprintf(stderr, "%s: code up to 0x%08" PRIx32 " reaches the cache at 0x%08" PRIx32 "\n", elf, code_hi, CACHE_LO);
    goto out_a;
  }
  if (rv_init(&b, RAM) || rv_load_elf(&b, elf)) {
    fprintf(stderr, "%s: %s\n", elf, b.error);
    goto out_b;
  }
  static hwprof_cc_patch_t patch[4096];
  static hwprof_cc_exit_t exits[16384];
  hwprof_cc_t cc;
  const hwprof_cc_config_t c = {.mem_base = RV_RAM_BASE, .mem = (uint32_t *)(void *)b.ram, .mem_words = RAM / 4u,
                                .shadow = b.shadow, .code_lo = code_lo, .code_hi = code_hi, .lo = CACHE_LO,
                                .hi = CACHE_HI, .patch = patch, .patch_cap = 4096, .exit = exits, .exit_cap = 16384};
  if (hwprof_cc_init(&cc, c) != kHwprofOk) {
    fprintf(stderr, "%s: the cache's configuration is refused\n", elf);
    goto out_b;
  }
  /* every executed instruction, with one of its executions drawn at random (reservoir sampling), so
     that paths start at instructions drawn uniformly, not where the program spends its time */
  uint64_t s = seed * 0x9e3779b97f4a7c15u + 1u;
  const size_t nwords = (code_hi - code_lo) / 4u;
  size_t *at = calloc(nwords, sizeof *at), *seen = calloc(nwords, sizeof *seen), *starts = calloc(nwords, sizeof *starts);
  if (at == NULL || seen == NULL || starts == NULL) {
    fprintf(stderr, "%s: out of memory\n", elf);
    free(at), free(seen), free(starts);
    goto out_b;
  }
  for (size_t i = 0; i < npcs; i++) {
    const size_t w = (pcs[i] - code_lo) / 4u;
    if (rng_next(&s) % ++seen[w] == 0) at[w] = i;
  }
  size_t nstarts = 0;
  for (size_t w = 0; w < nwords; w++)
    if (seen[w]) starts[nstarts++] = at[w];
  uint32_t path[MAX_PATH];
  for (unsigned k = 0; k < npaths; k++) {
    const size_t n = cut(&a, pcs, npcs, starts[rng_next(&s) % nstarts], 1u + (size_t)(rng_next(&s) % MAX_PATH), path);
    uint32_t entry;
    (void)hwprof_cc_place_trace(&cc, path, n, &entry);
  }
  free(at), free(seen), free(starts);
  if (run(&b, &rb, NULL, NULL) != 0) fprintf(stderr, "%s: the run with the cache did not end\n", elf);
  const int same = ra.exit_code == rb.exit_code && ra.len == rb.len && memcmp(ra.out, rb.out, ra.len) == 0;
  printf("%s: %u paths: %" PRIu32 " placed", elf, npaths, cc.placed);
  for (unsigned r = 1; r < kHwprofCcReasons; r++)
    if (cc.refused[r]) printf(", %" PRIu32 " %s", cc.refused[r], hwprof_cc_status_str((hwprof_cc_status_t)r));
  printf("; %.1f%% of %" PRIu64 " instructions from the cache; exit %d / %d, output %s\n",
         rb.insns ? 100.0 * (double)rb.in_cache / (double)rb.insns : 0.0, rb.insns, ra.exit_code, rb.exit_code,
         same ? "the same" : "DIFFERENT");
  rc = same && cc.placed > 0 && rb.in_cache > 0 ? 0 : 1;
out_b:
  rv_free(&b);
out_a:
  rv_free(&a);
  free(pcs);
  free(ra.out);
  free(rb.out);
  return rc;
}

int main(int argc, char **argv) {
  char *end = NULL;
  if (argc < 4 || (strtoull(argv[1], &end, 0), *end) || strtoul(argv[2], NULL, 0) == 0) {
    fprintf(stderr, "usage: codecache-random SEED PATHS ELF...\n");
    return 2;
  }
  const uint64_t seed = strtoull(argv[1], NULL, 0);
  const unsigned npaths = (unsigned)strtoul(argv[2], NULL, 0);
  int failed = 0;
  for (int i = 3; i < argc; i++) failed += check_program(argv[i], seed + (uint64_t)i, npaths);
  printf("codecache-random: %d programs, %d with a difference\n", argc - 3, failed);
  return failed ? 1 : 0;
}
