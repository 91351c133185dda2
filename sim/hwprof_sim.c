/* hwprof-sim: run an RV32IM ELF program on the CPU model (sim/rv32.c), alone (--engine=none) or
 * with the C model of hwprof_top (--engine=model, sim/platform.c). The program's console output
 * goes to stdout, the report to stderr.
 *
 * --trace-check turns the trace controller on (every-trace mode) and checks every record it
 * produces: the record must equal what the termination rules give for the executed instructions
 * (tb/trace_oracle.c), and its reconstruction from the ELF image (sw/trace_recon.c) must give
 * exactly those instructions. The checker only observes the model's state; it adds no cycles.
 *
 * Exit status: the program's exit code; 2 for bad arguments or a bad ELF file; 3 when the program
 * runs away (instruction limit, a trap with no handler); 4 when a trace check fails. */
#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hwprof_image.h"
#include "hwprof_recon.h"
#include "platform.h"
#include "rv32.h"
#include "trace_oracle.h"

static void usage(FILE *to) {
  fprintf(to,
          "usage: hwprof-sim [options] PROGRAM.elf\n"
          "Runs an RV32IM ELF executable (picolibc, --oslib=semihost, linked at 0x80000000) on the CPU model.\n\n"
          "  --max-insns=N   stop with an error after N instructions (default 200000000)\n"
          "  --ram=BYTES     RAM size at 0x80000000 (default 16777216)\n"
          "  --pcs=FILE      write every retired instruction's address, one hex number per line\n"
          "  --engine=E      none: the CPU alone; model: with the C model of hwprof_top (default)\n"
          "  --trace-check   model engine: check every trace record against the executed instructions\n"
          "                  and its reconstruction from the ELF image\n"
          "  --mem-latency=N model engine: cycles from a counter-line read to its data (default 4)\n"
          "  --quiet         no report at the end\n"
          "  --help          this text\n"
          "Exit status: the program's; 2 bad arguments or ELF file; 3 the program ran away; 4 a trace\n"
          "check failed.\n");
}

static int parse_u64(const char *s, uint64_t *out) {
  char *end = NULL;
  errno = 0;
  if (*s == '\0' || *s == '-') return -1;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || *end) return -1;
  *out = v;
  return 0;
}

/* Reads a whole file (for the reconstruction's program image). */
static uint8_t *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  uint8_t *buf = NULL;
  if (fseek(f, 0, SEEK_END) == 0) {
    long n = ftell(f);
    rewind(f);
    if (n > 0 && (buf = malloc((size_t)n)) != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
      free(buf);
      buf = NULL;
    }
    *len = n > 0 ? (size_t)n : 0;
  }
  fclose(f);
  return buf;
}

typedef struct {
  hwprof_image_t img;
  uint8_t *file;
  trace_oracle_t oracle;
  uint32_t seen;    /* records sampled so far (STAT_SAMPLED of the model) */
  uint64_t checked, failed, instrs;
  uint32_t *pcs;
  size_t cap;
} trace_check_t;

static int trace_check_init(trace_check_t *t, platform_t *p, const char *elf) {
  memset(t, 0, sizeof *t);
  size_t len = 0;
  char err[160];
  t->file = slurp(elf, &len);
  if (t->file == NULL || hwprof_image_load_elf(&t->img, t->file, len, err, sizeof err) != 0) {
    fprintf(stderr, "hwprof-sim: error: %s: %s\n", elf, t->file ? err : "cannot read");
    return -1;
  }
  t->cap = 1 << 16;
  t->pcs = malloc(t->cap * sizeof *t->pcs);
  if (t->pcs == NULL || trace_oracle_init(&t->oracle, p->cfg.trace_ctrl.hist_w, p->cpu.pc) != 0) return -1;
  /* the current trace starts at the entry point; every finished trace interrupts nobody (the
     TRACE interrupt stays disabled) but lands in LAST_*, which the checker observes */
  platform_apb(p, true, HWPROF_TRACE_CTRL_CUR_START_ADDR, p->cpu.pc);
  platform_apb(p, true, HWPROF_TRACE_CTRL_CUR_HIST_ADDR, 1);
  platform_apb(p, true, HWPROF_TRACE_CTRL_CTRL_ADDR, 1u << HWPROF_TRACE_CTRL_CTRL_ENABLE_LSB);
  return 0;
}

static void trace_check_event(trace_check_t *t, const platform_t *p, const retire_ev_t *ev) {
  uint32_t start, hist;
  bool ended = trace_oracle_feed(&t->oracle, ev, &start, &hist);
  uint32_t sampled = p->hw.trace_ctrl.st_samp;
  if (sampled == t->seen && !ended) return;
  t->checked++;
  const char *why = NULL;
  hwprof_trace_rec_t rec = {p->hw.trace_ctrl.last_start, p->hw.trace_ctrl.last_hist};
  hwprof_recon_t out = {.pcs = t->pcs, .cap = t->cap};
  hwprof_recon_status_t st = kReconOk;
  if (!ended || sampled != t->seen + 1) why = "the hardware and the rules disagree on where a trace ends";
  else if (rec.start != start || rec.hist != hist) why = "the record differs from the rules'";
  else if ((st = hwprof_trace_reconstruct(&t->img, &rec, p->cfg.trace_ctrl.hist_w, &out)) != kReconOk)
    why = hwprof_recon_status_str(st);
  else if (out.n != t->oracle.n || memcmp(out.pcs, t->oracle.pcs, out.n * sizeof *out.pcs) != 0)
    why = "the reconstruction differs from the executed instructions";
  t->seen = sampled;
  t->instrs += t->oracle.n;
  if (why && t->failed++ < 5)
    fprintf(stderr, "hwprof-sim: trace check: trace %llu (start 0x%08x, history 0x%08x; expected 0x%08x, 0x%08x): %s\n",
            (unsigned long long)t->checked, (unsigned)rec.start, (unsigned)rec.hist, (unsigned)start,
            (unsigned)hist, why);
}

int main(int argc, char **argv) {
  uint64_t max_insns = 200000000, ram = 16u << 20, mem_latency = 4;
  const char *pcs_path = NULL, *elf = NULL, *engine = "model";
  int quiet = 0, trace_check = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strncmp(a, "--max-insns=", 12)) {
      if (parse_u64(a + 12, &max_insns) || max_insns == 0) {
        fprintf(stderr, "hwprof-sim: error: argument '%s': expects a positive integer\n", a);
        return 2;
      }
    } else if (!strncmp(a, "--ram=", 6)) {
      if (parse_u64(a + 6, &ram) || ram < 4096 || ram > (UINT64_C(1) << 31)) {
        fprintf(stderr, "hwprof-sim: error: argument '%s': expects a size between 4096 and 2^31\n", a);
        return 2;
      }
    } else if (!strncmp(a, "--mem-latency=", 14)) {
      if (parse_u64(a + 14, &mem_latency) || mem_latency == 0 || mem_latency > 1000) {
        fprintf(stderr, "hwprof-sim: error: argument '%s': expects 1..1000\n", a);
        return 2;
      }
    } else if (!strncmp(a, "--engine=", 9)) {
      engine = a + 9;
      if (strcmp(engine, "none") && strcmp(engine, "model")) {
        fprintf(stderr, "hwprof-sim: error: argument '%s': expects none or model (rtl and lockstep: not yet)\n", a);
        return 2;
      }
    } else if (!strncmp(a, "--pcs=", 6) && a[6]) {
      pcs_path = a + 6;
    } else if (!strcmp(a, "--trace-check")) {
      trace_check = 1;
    } else if (!strcmp(a, "--quiet")) {
      quiet = 1;
    } else if (a[0] == '-') {
      fprintf(stderr, "hwprof-sim: error: unknown option '%s' (see --help)\n", a);
      return 2;
    } else if (elf) {
      fprintf(stderr, "hwprof-sim: error: more than one program given ('%s', '%s')\n", elf, a);
      return 2;
    } else {
      elf = a;
    }
  }
  if (elf == NULL) {
    fprintf(stderr, "hwprof-sim: error: no program given (see --help)\n");
    return 2;
  }
  const bool with_model = !strcmp(engine, "model");
  if (trace_check && !with_model) {
    fprintf(stderr, "hwprof-sim: error: --trace-check needs --engine=model\n");
    return 2;
  }

  static platform_t plat; /* the CPU lives in it; with --engine=none only the CPU is used */
  if (platform_init(&plat, elf, (uint32_t)ram, (unsigned)mem_latency) != 0) {
    fprintf(stderr, "hwprof-sim: error: %s\n", plat.error);
    platform_free(&plat);
    return 2;
  }
  rv_cpu_t *cpu = &plat.cpu;
  if (!with_model) cpu->mmio.size = 0; /* no devices: the CPU alone */
  FILE *pcs = NULL;
  if (pcs_path && (pcs = fopen(pcs_path, "w")) == NULL) {
    fprintf(stderr, "hwprof-sim: error: cannot write '%s': %s\n", pcs_path, strerror(errno));
    platform_free(&plat);
    return 2;
  }
  static trace_check_t tc;
  if (trace_check && trace_check_init(&tc, &plat, elf) != 0) {
    platform_free(&plat);
    return 2;
  }

  clock_t t0 = clock();
  rv_status_t st = RV_RUNNING;
  retire_ev_t ev;
  while (st == RV_RUNNING && cpu->instret < max_insns) {
    st = with_model ? platform_step(&plat, &ev) : rv_step(cpu, &ev);
    if (pcs && ev.valid) fprintf(pcs, "%08" PRIx32 "\n", ev.pc);
    if (trace_check && ev.valid) trace_check_event(&tc, &plat, &ev);
  }
  double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  fflush(stdout);
  if (pcs) fclose(pcs);

  int rc;
  if (st == RV_EXITED) {
    rc = cpu->exit_code & 0xff;
  } else if (st == RV_FAILED) {
    fprintf(stderr, "hwprof-sim: error: %s: %s\n", elf, cpu->error);
    rc = 3;
  } else {
    fprintf(stderr, "hwprof-sim: error: %s: still running after %" PRIu64 " instructions (--max-insns)\n", elf,
            cpu->instret);
    rc = 3;
  }
  if (!quiet) {
    fprintf(stderr, "hwprof-sim: %s: %" PRIu64 " instructions, exit code %d, %.2f s (%.1f M instructions/s)\n", elf,
            cpu->instret, st == RV_EXITED ? cpu->exit_code : -1, secs, secs > 0 ? cpu->instret / secs / 1e6 : 0.0);
    if (with_model) {
      const top_state_t *hw = &plat.hw;
      fprintf(stderr, "  system: %" PRIu64 " cycles, %" PRIu64 " stall cycles, %" PRIu64 " interrupts, %" PRIu64
                      " hwprof register accesses\n",
              plat.cycles, plat.stall_cycles, plat.interrupts, plat.apb_accesses);
      fprintf(stderr, "  edge profiling: %u update operations; cache %u performed, %u misses, %u write-backs, "
                      "%u dropped, %u overflows\n",
              hw->pir.stat_updates, hw->edge_prof.st_updates, hw->edge_prof.st_misses, hw->edge_prof.st_wbs,
              hw->edge_prof.st_dropped, hw->edge_prof.st_ovf);
      fprintf(stderr, "  traces: ended backward %u, indirect %u, full %u; sampled %u, dropped %u\n",
              hw->trace_ctrl.st_back, hw->trace_ctrl.st_ind, hw->trace_ctrl.st_full, hw->trace_ctrl.st_samp,
              hw->trace_ctrl.st_drop);
    }
    if (trace_check)
      fprintf(stderr, "  trace check: %llu traces (%llu instructions) checked, %llu failed\n",
              (unsigned long long)tc.checked, (unsigned long long)tc.instrs, (unsigned long long)tc.failed);
  }
  if (trace_check && tc.failed && rc == 0) rc = 4;
  if (trace_check) {
    trace_oracle_free(&tc.oracle);
    free(tc.pcs);
    free(tc.file);
  }
  platform_free(&plat);
  return rc;
}
