/* hwprof-sim: run an RV32IM ELF program on the CPU model (sim/rv32.c), alone (--engine=none) or
 * with the C model of hwprof_top (--engine=model, sim/platform.c). The program's console output
 * goes to stdout, the report to stderr.
 *
 * --trace-check turns the trace controller on (every-trace mode) and checks every record it
 * produces: the record must equal what the termination rules give for the executed instructions
 * (tb/oracle/trace_oracle.c), and its reconstruction from the ELF image (sw/trace_recon.c) must give
 * exactly those instructions. The checker only observes the model's state; it adds no cycles.
 *
 * Exit status (sw/include/hwprof_exit.h, docs/tools.md): the program's exit code; 1 for a bad input
 * file; 2 for bad arguments; 3 when the program runs away (instruction limit, a trap with no handler);
 * 4 when a check fails. */
#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hwprof_exit.h"
#include "platform.h"
#include "runner_args.h"
#include "rv32.h"
#include "check/cop_check.h"
#include "check/edge_check.h"
#include "hwprof_edge.h"
#include "pp_readback.h"
#include "check/trace_check.h"
#include "trace_drain.h"
#include "oracle/block_truth.h"
#include "oracle/path_truth.h"
#include "oracle/phase_truth.h"
#include "oracle/value_truth.h"

static const char kUsage[] =
          "usage: hwprof-sim [options] PROGRAM.elf\n"
          "Runs an RV32IM ELF executable (picolibc, --oslib=semihost, linked at 0x80000000) on the CPU model.\n\n"
          "  --max-insns=N   stop with an error after N instructions (default 200000000)\n"
          "  --ram=BYTES     RAM size at 0x80000000 (default 16777216)\n"
          "  --pcs=FILE      write every retired instruction's address, one hex number per line\n"
          "  --pc-counts=FILE  write, for every address that retired, how many times it did and how\n"
          "                  many of those went elsewhere than the next word: 'PC COUNT TAKEN' a line\n"
          "                  (hexadecimal, decimal, decimal), in address order\n"
          "  --engine=E      none: the CPU alone; model: with the C model of hwprof_top (default)\n"
          "  --trace-check   model engine: check every trace record against the executed instructions\n"
          "                  and its reconstruction from the ELF image\n"
          "  --trace-out=FILE  model engine: drain every trace record from the controller's FIFO over APB\n"
          "                  into FILE, a trace file for hwprof-wpp (docs/wpp.md); the program must leave\n"
          "                  the trace controller alone\n"
          "  --blocks-out=FILE  write the exact basic-block stream of the run, cut from the retire\n"
          "                  stream (the oracle of the one hwprof-wpp rebuilds from --trace-out)\n"
          "  --mem-latency=N model engine: cycles from a counter-line read to its data (default 4)\n"
          "  --cache-sets=N, --cache-ways=N  model engine: the profile cache's shape (the Sets and\n"
          "                  Ways build parameters: 2..64 sets, a power of two, default 4; 1..8 ways,\n"
          "                  default 2)\n"
          "  --edge-map=MAP  model engine, a program instrumented by hwprof-instr: after it ends, flush\n"
          "                  the profile cache, derive the edge profile from the counters and compare it\n"
          "                  with the exact edge counts of the run\n"
          "  --edge-profile=FILE, --edge-truth=FILE  with --edge-map: write the two profiles\n"
          "  --out-dir=DIR   files the program opens for writing (semihosting) are created in DIR\n"
          "  --cop-check=FILE  model engine, a value-profiling program (sw/rt/cop_rt.c): after it ends, compare\n"
          "                  the per-PC counts it wrote to FILE with what the retire stream says the filters\n"
          "                  and prescaler chose (written by the program: give --out-dir too)\n"
          "  --value-truth=FILE  model engine: write the exact load-value profile of the loads retired\n"
          "                  while value sampling was on (docs/vpf.md)\n"
          "                  (their directories dropped); without it such opens fail\n"
          "  --taken-penalty=N  timing: N idle cycles after every taken branch, jump, trap entry or\n"
          "                  return (default 0), so that code layout shows in cycles (docs/cpu-model.md)\n"
          "  --icache=BYTES  timing: a direct-mapped instruction cache of BYTES (a power of two, lines of\n"
          "                  16 bytes) whose misses cost --icache-miss=N idle cycles (default 10)\n"
          "  --phase-truth=FILE  write the ground truth of the program's phases: its exact branch profile\n"
          "                  over windows of --phase-window=N program instructions (default 100000) and\n"
          "                  the windows where its hot set changed (docs/dynopt.md)\n"
          "  --path-truth=FILE  write the path profile's oracle: the executed blocks cut into Ball-Larus\n"
          "                  paths per function activation, each distinct path counted (docs/path.md;\n"
          "                  the program must be linked with -Wl,--emit-relocs)\n"
          "  --path-map=MAP  model engine, a program instrumented for paths (hwprof-instr --paths): after\n"
          "                  it ends, flush the profile cache, check the pir's path and link stacks,\n"
          "                  and decode every path counter into --path-profile=FILE (docs/path.md)\n"
          "  --code-range=LO:HI  report how many of the program's instructions retired at addresses in\n"
          "                  [LO, HI) (a code cache: docs/dynopt.md)\n"
          "  --code-cache=LO:HI  the program copies its code into a code cache at [LO, HI) with the\n"
          "                  origin of each word in the HI - LO bytes below LO (docs/dynopt.md): the edge\n"
          "                  check and the phase truth count each copy as its original\n"
          "  --load=ADDR:FILE  copy FILE's bytes into memory at ADDR before the program starts\n"
          "  --dump=ADDR:LEN:FILE  write LEN bytes of memory from ADDR to FILE when the program ends\n"
          "                  (the static layout's profile, docs/dynopt.md)\n"
          "  --trampolines=LO:HI  the code cache's exits leave through jumps at [LO, HI): not the\n"
          "                  program's instructions either (with --code-cache)\n"
          "  --quiet         no report at the end\n"
          "  --help          this text\n"
          "Exit status (docs/tools.md): the program's; 1 a bad input file (the ELF, a map, a file to\n"
          "load) or an output that could not be written; 2 bad arguments; 3 the program ran away; 4 a\n"
          "trace, edge, path or value check failed.\n";

static void usage(FILE *to) { fputs(kUsage, to); }

static int parse_u64(const char *s, uint64_t *out) {
  char *end = NULL;
  errno = 0;
  if (*s == '\0' || *s == '-') return -1;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || *end) return -1;
  *out = v;
  return 0;
}

/* Memory [addr, addr + len) as an offset into the platform's RAM, or -1 (with the error printed). */
static int64_t ram_span(const char *arg, uint64_t addr, uint64_t len, uint64_t ram_size) {
  if (addr < RV_RAM_BASE || len > ram_size || addr - RV_RAM_BASE > ram_size - len) {
    fprintf(stderr, "hwprof-sim: error: argument '%s': [0x%08" PRIx64 ", +0x%" PRIx64 ") is not inside the RAM\n", arg, addr,
            len);
    return -1;
  }
  return (int64_t)(addr - RV_RAM_BASE);
}

/* --load=ADDR:FILE into the RAM; prints the error and returns -1. */
static int load_file(const char *arg, uint8_t *ram, uint64_t ram_size) {
  const char *s = arg + 7, *colon = strchr(s, ':');
  char num[32];
  uint64_t addr;
  if (colon == NULL || (size_t)(colon - s) >= sizeof num || colon[1] == '\0') {
    fprintf(stderr, "hwprof-sim: error: argument '%s': expects ADDR:FILE\n", arg);
    return -1;
  }
  memcpy(num, s, (size_t)(colon - s));
  num[colon - s] = '\0';
  if (parse_u64(num, &addr)) {
    fprintf(stderr, "hwprof-sim: error: argument '%s': expects ADDR:FILE\n", arg);
    return -1;
  }
  FILE *f = fopen(colon + 1, "rb");
  if (f == NULL) {
    fprintf(stderr, "hwprof-sim: error: cannot read '%s': %s\n", colon + 1, strerror(errno));
    return -1;
  }
  long len = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  int64_t off = len < 0 ? -1 : ram_span(arg, addr, (uint64_t)len, ram_size);
  int rc = 0;
  if (len < 0 || off < 0 || fseek(f, 0, SEEK_SET) != 0 || fread(ram + off, 1, (size_t)len, f) != (size_t)len) {
    if (len < 0 || off >= 0) fprintf(stderr, "hwprof-sim: error: cannot read '%s'\n", colon + 1);
    rc = -1;
  }
  fclose(f);
  return rc;
}

/* LO:HI of an argument (arg, for the error) into lo < hi <= 2^32; prints the error and returns -1. */
static int parse_range(const char *arg, const char *s, uint64_t *lo, uint64_t *hi) {
  char first[32];
  const char *colon = strchr(s, ':');
  if (colon == NULL || (size_t)(colon - s) >= sizeof first) {
    fprintf(stderr, "hwprof-sim: error: argument '%s': expects LO:HI\n", arg);
    return -1;
  }
  memcpy(first, s, (size_t)(colon - s));
  first[colon - s] = '\0';
  if (parse_u64(first, lo) || parse_u64(colon + 1, hi) || *lo >= *hi || *hi > 0x100000000u) {
    fprintf(stderr, "hwprof-sim: error: argument '%s': expects LO:HI with LO < HI <= 0x100000000\n", arg);
    return -1;
  }
  return 0;
}

static uint32_t bus_read(void *ctx, uint16_t addr) { return platform_apb(ctx, false, addr, 0); }
static void bus_write(void *ctx, uint16_t addr, uint32_t v) { platform_apb(ctx, true, addr, v); }
static const hwprof_bus_t kBus = {bus_read, bus_write}; /* host-side register access for the drivers */

/* The program's memory, for reading counters back (0 outside RAM: not a counter of the program) */
typedef struct {
  const uint8_t *ram;
  uint32_t base, size;
} ram_view_t;
static uint32_t ram_read32(void *ctx, uint32_t addr) {
  const ram_view_t *v = ctx;
  if (addr < v->base || addr - v->base > v->size - 4u || (addr & 3u)) return 0;
  const uint8_t *p = v->ram + (addr - v->base);
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int main(int argc, char **argv) {
  uint64_t max_insns = 200000000, ram = 16u << 20, mem_latency = 4;
  uint64_t cache_sets = HWPROF_SETS_DEFAULT, cache_ways = HWPROF_WAYS_DEFAULT;
  const char *pcs_path = NULL, *pc_counts_path = NULL, *elf = NULL, *engine = "model";
  const char *trace_out = NULL, *blocks_out = NULL;
  const char *cop_profile = NULL, *value_truth = NULL;
  const char *edge_map = NULL, *edge_profile = NULL, *edge_truth = NULL, *out_dir = NULL;
  const char *path_map = NULL, *path_profile = NULL;
  int quiet = 0, trace_check = 0;
  uint64_t taken_penalty = 0, phase_window = 100000, icache = 0, icache_miss = 10;
  const char *phase_truth_path = NULL;
  const char *path_truth_path = NULL;
  uint64_t range_lo = 0, range_hi = 0; /* --code-range */
  uint64_t cache_lo = 0, cache_hi = 0;  /* --code-cache */
  uint64_t tramp_lo = 0, tramp_hi = 0;  /* --trampolines */
  const char *load_arg = NULL;           /* --load */
  const char *dump_arg = NULL, *dump_path = NULL; /* --dump */
  uint64_t dump_addr = 0, dump_len = 0;
  bool range = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int lack;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strncmp(a, "--max-insns=", 12)) {
      if (parse_u64(a + 12, &max_insns) || max_insns == 0) {
        fprintf(stderr, "hwprof-sim: error: argument '%s': expects a positive integer\n", a);
        return HWPROF_EXIT_USAGE;
      }
    } else if (!strncmp(a, "--ram=", 6)) {
      if (parse_u64(a + 6, &ram) || ram < 4096 || ram > (UINT64_C(1) << 31)) {
        fprintf(stderr, "hwprof-sim: error: argument '%s': expects a size between 4096 and 2^31\n", a);
        return HWPROF_EXIT_USAGE;
      }
    } else if (!strncmp(a, "--mem-latency=", 14)) {
      if (parse_u64(a + 14, &mem_latency) || mem_latency == 0 || mem_latency > 1000) {
        fprintf(stderr, "hwprof-sim: error: argument '%s': expects 1..1000\n", a);
        return HWPROF_EXIT_USAGE;
      }
    } else if (!strncmp(a, "--cache-sets=", 13)) {
      if (parse_u64(a + 13, &cache_sets) || cache_sets < HWPROF_SETS_MIN || cache_sets > HWPROF_SETS_MAX ||
          (cache_sets & (cache_sets - 1u))) {
        fprintf(stderr, "hwprof-sim: error: argument '%s': expects a power of two, %u..%u\n", a, HWPROF_SETS_MIN,
                HWPROF_SETS_MAX);
        return HWPROF_EXIT_USAGE;
      }
    } else if (!strncmp(a, "--cache-ways=", 13)) {
      if (parse_u64(a + 13, &cache_ways) || cache_ways < HWPROF_WAYS_MIN || cache_ways > HWPROF_WAYS_MAX) {
        fprintf(stderr, "hwprof-sim: error: argument '%s': expects %u..%u\n", a, HWPROF_WAYS_MIN, HWPROF_WAYS_MAX);
        return HWPROF_EXIT_USAGE;
      }
    } else if (!strncmp(a, "--engine=", 9)) {
      engine = a + 9;
      if (strcmp(engine, "none") && strcmp(engine, "model")) {
        fprintf(stderr, "hwprof-sim: error: argument '%s': expects none or model (rtl and lockstep: not yet)\n", a);
        return HWPROF_EXIT_USAGE;
      }
    } else if (!strncmp(a, "--out-dir=", 10) && a[10]) {
      out_dir = a + 10;
    } else if (!strncmp(a, "--value-truth=", 14) && a[14]) {
      value_truth = a + 14;
    } else if (!strncmp(a, "--cop-check=", 12) && a[12]) {
      cop_profile = a + 12;
    } else if (!strncmp(a, "--path-map=", 11) && a[11]) {
      path_map = a + 11;
    } else if (!strncmp(a, "--path-profile=", 15) && a[15]) {
      path_profile = a + 15;
    } else if (!strncmp(a, "--edge-map=", 11) && a[11]) {
      edge_map = a + 11;
    } else if (!strncmp(a, "--edge-profile=", 15) && a[15]) {
      edge_profile = a + 15;
    } else if (!strncmp(a, "--edge-truth=", 13) && a[13]) {
      edge_truth = a + 13;
    } else if (!strncmp(a, "--trace-out=", 12) && a[12]) {
      trace_out = a + 12;
    } else if (!strncmp(a, "--blocks-out=", 13) && a[13]) {
      blocks_out = a + 13;
    } else if (!strncmp(a, "--pcs=", 6) && a[6]) {
      pcs_path = a + 6;
    } else if (!strncmp(a, "--pc-counts=", 12) && a[12]) {
      pc_counts_path = a + 12;
    } else if (!strncmp(a, "--code-range=", 13)) {
      if (parse_range(a, a + 13, &range_lo, &range_hi)) return HWPROF_EXIT_USAGE;
      range = true;
    } else if (!strncmp(a, "--code-cache=", 13)) {
      if (parse_range(a, a + 13, &cache_lo, &cache_hi)) return HWPROF_EXIT_USAGE;
      if ((cache_lo | cache_hi) & 3u || cache_hi - cache_lo > cache_lo) {
        fprintf(stderr, "hwprof-sim: error: argument '%s': expects word-aligned LO:HI with room for the origin table below LO\n", a);
        return HWPROF_EXIT_USAGE;
      }
    } else if (!strncmp(a, "--load=", 7)) {
      load_arg = a;
    } else if (!strncmp(a, "--dump=", 7)) {
      char num[2][32];
      const char *c1 = strchr(a + 7, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
      if (c1 == NULL || c2 == NULL || c2[1] == '\0' || (size_t)(c1 - a - 7) >= sizeof num[0] ||
          (size_t)(c2 - c1 - 1) >= sizeof num[1]) {
        fprintf(stderr, "hwprof-sim: error: argument '%s': expects ADDR:LEN:FILE\n", a);
        return HWPROF_EXIT_USAGE;
      }
      memcpy(num[0], a + 7, (size_t)(c1 - a - 7));
      num[0][c1 - a - 7] = '\0';
      memcpy(num[1], c1 + 1, (size_t)(c2 - c1 - 1));
      num[1][c2 - c1 - 1] = '\0';
      if (parse_u64(num[0], &dump_addr) || parse_u64(num[1], &dump_len) || dump_len == 0) {
        fprintf(stderr, "hwprof-sim: error: argument '%s': expects ADDR:LEN:FILE\n", a);
        return HWPROF_EXIT_USAGE;
      }
      dump_arg = a;
      dump_path = c2 + 1;
    } else if (!strncmp(a, "--trampolines=", 14)) {
      if (parse_range(a, a + 14, &tramp_lo, &tramp_hi)) return HWPROF_EXIT_USAGE;
      if ((tramp_lo | tramp_hi) & 3u) {
        fprintf(stderr, "hwprof-sim: error: argument '%s': expects word-aligned LO:HI\n", a);
        return HWPROF_EXIT_USAGE;
      }
    } else if (!strncmp(a, "--taken-penalty=", 16)) {
      if (parse_u64(a + 16, &taken_penalty) || taken_penalty > 1000) {
        fprintf(stderr, "hwprof-sim: error: argument '%s': expects 0..1000\n", a);
        return HWPROF_EXIT_USAGE;
      }
    } else if (!strncmp(a, "--icache=", 9)) {
      if (parse_u64(a + 9, &icache) || icache < 16 || icache > (1u << 20) || (icache & (icache - 1u))) {
        fprintf(stderr, "hwprof-sim: error: argument '%s': expects a power of two from 16 to 1048576\n", a);
        return HWPROF_EXIT_USAGE;
      }
    } else if (!strncmp(a, "--icache-miss=", 14)) {
      if (parse_u64(a + 14, &icache_miss) || icache_miss > 1000) {
        fprintf(stderr, "hwprof-sim: error: argument '%s': expects 0..1000\n", a);
        return HWPROF_EXIT_USAGE;
      }
    } else if (!strncmp(a, "--phase-window=", 15)) {
      if (parse_u64(a + 15, &phase_window) || phase_window == 0) {
        fprintf(stderr, "hwprof-sim: error: argument '%s': expects a positive integer\n", a);
        return HWPROF_EXIT_USAGE;
      }
    } else if (!strncmp(a, "--phase-truth=", 14) && a[14]) {
      phase_truth_path = a + 14;
    } else if (!strncmp(a, "--path-truth=", 13) && a[13]) {
      path_truth_path = a + 13;
    } else if (!strcmp(a, "--trace-check")) {
      trace_check = 1;
    } else if (!strcmp(a, "--quiet")) {
      quiet = 1;
    } else if ((lack = runner_arg_lacks_value(kUsage, a)) != 0) {
      fprintf(stderr, "hwprof-sim: error: option '%.*s' needs a value (%.*s=..., see --help)\n", lack, a, lack, a);
      return HWPROF_EXIT_USAGE;
    } else if (a[0] == '-') {
      fprintf(stderr, "hwprof-sim: error: unknown option '%s' (see --help)\n", a);
      return HWPROF_EXIT_USAGE;
    } else if (elf) {
      fprintf(stderr, "hwprof-sim: error: more than one program given ('%s', '%s')\n", elf, a);
      return HWPROF_EXIT_USAGE;
    } else {
      elf = a;
    }
  }
  if (elf == NULL) {
    fprintf(stderr, "hwprof-sim: error: no program given (see --help)\n");
    return HWPROF_EXIT_USAGE;
  }
  if (tramp_hi && !cache_hi) {
    fprintf(stderr, "hwprof-sim: error: --trampolines needs --code-cache\n");
    return HWPROF_EXIT_USAGE;
  }
  const bool with_model = !strcmp(engine, "model");
  if ((trace_check || edge_map || cop_profile || value_truth || trace_out) && !with_model) {
    fprintf(stderr, "hwprof-sim: error: --trace-check, --trace-out, --edge-map, --cop-check and --value-truth need --engine=model\n");
    return HWPROF_EXIT_USAGE;
  }
  if (trace_check && trace_out) {
    fprintf(stderr, "hwprof-sim: error: --trace-check and --trace-out both configure the trace controller: give one\n");
    return HWPROF_EXIT_USAGE;
  }
  if ((path_map != NULL) != (path_profile != NULL)) {
    fprintf(stderr, "hwprof-sim: error: --path-map and --path-profile go together\n");
    return HWPROF_EXIT_USAGE;
  }
  if (path_map && !with_model) {
    fprintf(stderr, "hwprof-sim: error: --path-map needs --engine=model\n");
    return HWPROF_EXIT_USAGE;
  }
  if ((edge_profile || edge_truth) && !edge_map) {
    fprintf(stderr, "hwprof-sim: error: --edge-profile and --edge-truth need --edge-map\n");
    return HWPROF_EXIT_USAGE;
  }

  static platform_t plat; /* the CPU lives in it; with --engine=none only the CPU is used */
  if (platform_init(&plat, elf, (uint32_t)ram, (unsigned)mem_latency) != 0) {
    fprintf(stderr, "hwprof-sim: error: %s\n", plat.error);
    platform_free(&plat);
    return HWPROF_EXIT_BAD_FILE;
  }
  plat.cfg.edge_prof.sets = (unsigned)cache_sets; /* the state is sized for the largest shape */
  plat.cfg.edge_prof.ways = (unsigned)cache_ways;
  rv_cpu_t *cpu = &plat.cpu;
  if (load_arg && load_file(load_arg, cpu->ram, cpu->ram_size) != 0) {
    platform_free(&plat);
    return HWPROF_EXIT_BAD_FILE;
  }
  if (dump_arg && ram_span(dump_arg, dump_addr, dump_len, cpu->ram_size) < 0) {
    platform_free(&plat);
    return HWPROF_EXIT_USAGE;
  }
  plat.taken_penalty = (unsigned)taken_penalty;
  if (platform_icache(&plat, (unsigned)icache, (unsigned)icache_miss) != 0) {
    fprintf(stderr, "hwprof-sim: error: out of memory for the instruction cache\n");
    platform_free(&plat);
    return HWPROF_EXIT_BAD_FILE;
  }
  cpu->out_dir = out_dir;
  if (!with_model) cpu->mmio.size = 0; /* no devices: the CPU alone */
  FILE *pcs = NULL;
  if (pcs_path && (pcs = fopen(pcs_path, "w")) == NULL) {
    fprintf(stderr, "hwprof-sim: error: cannot write '%s': %s\n", pcs_path, strerror(errno));
    platform_free(&plat);
    return HWPROF_EXIT_BAD_FILE;
  }
  /* per RAM word: its retirements and those that went elsewhere than the next word */
  uint64_t(*pc_counts)[2] = NULL;
  uint64_t pc_outside = 0;
  FILE *pc_counts_file = NULL;
  if (pc_counts_path) {
    pc_counts = calloc(cpu->ram_size / 4, sizeof *pc_counts);
    if (pc_counts == NULL || (pc_counts_file = fopen(pc_counts_path, "w")) == NULL) {
      fprintf(stderr, "hwprof-sim: error: cannot write '%s': %s\n", pc_counts_path, pc_counts ? strerror(errno) : "out of memory");
      free(pc_counts);
      if (pcs) fclose(pcs);
      platform_free(&plat);
      return HWPROF_EXIT_BAD_FILE;
    }
  }
  static trace_check_t tc;
  if (trace_check) {
    char err[240];
    if (trace_check_init(&tc, elf, plat.cfg.trace_ctrl.hist_w, cpu->pc, stderr, err, sizeof err) != 0) {
      fprintf(stderr, "hwprof-sim: error: %s\n", err);
      platform_free(&plat);
      return HWPROF_EXIT_BAD_FILE;
    }
    trace_check_setup_t setup[TRACE_CHECK_SETUP_N];
    trace_check_setup(cpu->pc, setup);
    for (unsigned i = 0; i < TRACE_CHECK_SETUP_N; i++) platform_apb(&plat, true, setup[i].addr, setup[i].data);
  }

  static trace_drain_t drain;
  if (trace_out) {
    char err[300];
    if (trace_drain_init(&drain, trace_out, &kBus, &plat, cpu->pc, err, sizeof err) != 0) {
      fprintf(stderr, "hwprof-sim: error: %s\n", err);
      platform_free(&plat);
      return HWPROF_EXIT_BAD_FILE;
    }
  }
  static block_truth_t bt;
  if (blocks_out) {
    char err[300];
    if (block_truth_init(&bt, blocks_out, err, sizeof err) != 0) {
      fprintf(stderr, "hwprof-sim: error: %s\n", err);
      platform_free(&plat);
      return HWPROF_EXIT_BAD_FILE;
    }
  }

  static edge_check_t ec;
  if (edge_map) {
    char err[300];
    if (edge_check_init(&ec, edge_map, plat.cfg.edge_prof.cnt_w, err, sizeof err)) {
      fprintf(stderr, "hwprof-sim: error: %s\n", err);
      platform_free(&plat);
      return HWPROF_EXIT_BAD_FILE;
    }
    if (cache_hi) {
      edge_check_set_cache(&ec, (uint32_t)cache_lo, (uint32_t)cache_hi, cpu->ram, RV_RAM_BASE, cpu->ram_size);
      cc_origin_set_trampolines(&ec.cc, (uint32_t)tramp_lo, (uint32_t)tramp_hi);
    }
  }

  static pm_map_t pcov_map; /* the path profile's coverage (prof_coverage.h) */
  static prof_cov_t pcov;
  if (path_map) {
    char err[300];
    if (pm_read(&pcov_map, path_map, err, sizeof err) || prof_cov_init_map(&pcov, &pcov_map)) {
      fprintf(stderr, "hwprof-sim: error: %s\n", pcov_map.nfn ? "out of memory" : err);
      platform_free(&plat);
      return HWPROF_EXIT_BAD_FILE;
    }
  }
  static path_truth_t pth;
  if (path_truth_path) {
    char perr[400];
    if (path_truth_init(&pth, elf, perr, sizeof perr) != 0) {
      fprintf(stderr, "hwprof-sim: error: --path-truth: %s\n", perr);
      platform_free(&plat);
      return HWPROF_EXIT_BAD_FILE;
    }
  }
  static phase_truth_t pt;
  FILE *pt_file = NULL;
  if (phase_truth_path &&
      ((pt_file = fopen(phase_truth_path, "w")) == NULL || phase_truth_init(&pt, pt_file, phase_window) != 0)) {
    fprintf(stderr, "hwprof-sim: error: cannot write '%s'%s%s\n", phase_truth_path, errno ? ": " : "",
            errno ? strerror(errno) : "");
    if (pt_file) fclose(pt_file);
    platform_free(&plat);
    return HWPROF_EXIT_BAD_FILE;
  }
  if (phase_truth_path && cache_hi) {
    phase_truth_set_cache(&pt, (uint32_t)cache_lo, (uint32_t)cache_hi, cpu->ram, RV_RAM_BASE, cpu->ram_size);
    cc_origin_set_trampolines(&pt.cc, (uint32_t)tramp_lo, (uint32_t)tramp_hi);
  }

  static cop_check_t cc;
  if (cop_profile) cop_check_init(&cc, HWPROF_PLAT_REG_BASE, plat.cfg.vpf.bitmask_bits);
  static value_truth_t vt;
  if (value_truth) value_truth_init(&vt, HWPROF_PLAT_REG_BASE);

  uint64_t prog_insns = 0, prog_taken = 0, in_range = 0;
  uint64_t ecalls = 0, ecall_insns = 0, ecall_taken = 0; /* the program's figures at its last ecall */
  clock_t t0 = clock();
  rv_status_t st = RV_RUNNING;
  hwprof_retire_ev_t ev;
  while (st == RV_RUNNING && cpu->instret < max_insns) {
    if (with_model) {
      st = platform_step(&plat, &ev);
    } else {
      st = rv_step(cpu, &ev);
      unsigned idle = ev.valid ? platform_fetch(&plat, ev.pc) : 0;
      if (rv_taken_transfer(&ev)) {
        plat.taken_transfers++;
        idle += (unsigned)taken_penalty;
      }
      cpu->cycle += idle;
      plat.penalty_cycles += idle;
    }
    if (ev.valid && ev.trap == HWPROF_TRAP_NONE) { /* the program's own instructions */
      prog_insns++;
      prog_taken += rv_taken_transfer(&ev);
      in_range += range && ev.pc >= range_lo && ev.pc < range_hi;
    } else if (ev.valid && ev.trap == HWPROF_TRAP_ENTRY && cpu->mcause == 11u) { /* an ecall: a firmware request */
      ecalls++;
      ecall_insns = prog_insns;
      ecall_taken = prog_taken;
    }
    if (phase_truth_path) phase_truth_event(&pt, &ev, cpu->instret);
    if (path_truth_path) path_truth_event(&pth, &ev);
    if (pcs && ev.valid) fprintf(pcs, "%08" PRIx32 "\n", ev.pc);
    if (pc_counts && ev.valid) {
      const uint64_t w = ((uint64_t)ev.pc - RV_RAM_BASE) / 4;
      if (ev.pc >= RV_RAM_BASE && w < cpu->ram_size / 4) {
        pc_counts[w][0]++;
        pc_counts[w][1] += ev.next_pc != ev.pc + 4u;
      } else {
        pc_outside++;
      }
    }
    if (trace_check && ev.valid) trace_check_event(&tc, &plat.hw.trace_ctrl, &ev);
    if (trace_out) {
      trace_drain_event(&drain, &ev);
      trace_drain_poll(&drain, plat.out.irq_trace);
    }
    if (blocks_out) block_truth_event(&bt, &ev);
    if (edge_map) edge_check_event(&ec, &ev);
    if (path_map) prof_cov_retire(&pcov, &ev);
    if (cop_profile) cop_check_event(&cc, &ev);
    if (value_truth) value_truth_event(&vt, &ev);
  }
  double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  fflush(stdout);
  if (pcs) fclose(pcs);
  if (pc_counts) {
    for (uint64_t w = 0; w < cpu->ram_size / 4; w++)
      if (pc_counts[w][0])
        fprintf(pc_counts_file, "%08" PRIx64 " %" PRIu64 " %" PRIu64 "\n", RV_RAM_BASE + 4 * w, pc_counts[w][0],
                pc_counts[w][1]);
    free(pc_counts);
    if (fclose(pc_counts_file) != 0 || pc_outside) {
      fprintf(stderr, "hwprof-sim: error: %s: %s\n", pc_counts_path,
              pc_outside ? "instructions retired outside RAM: not counted" : "write error");
      platform_free(&plat);
      return HWPROF_EXIT_BAD_FILE;
    }
  }

  int rc;
  if (st == RV_EXITED) {
    rc = cpu->exit_code & 0xff;
  } else if (st == RV_FAILED) {
    fprintf(stderr, "hwprof-sim: error: %s: %s\n", elf, cpu->error);
    rc = HWPROF_EXIT_RAN_AWAY;
  } else {
    fprintf(stderr, "hwprof-sim: error: %s: still running after %" PRIu64 " instructions (--max-insns)\n", elf,
            cpu->instret);
    rc = HWPROF_EXIT_RAN_AWAY;
  }
  if (!quiet) {
    fprintf(stderr, "hwprof-sim: %s: %" PRIu64 " instructions, exit code %d, %.2f s (%.1f M instructions/s)\n", elf,
            cpu->instret, st == RV_EXITED ? cpu->exit_code : -1, secs, secs > 0 ? cpu->instret / secs / 1e6 : 0.0);
    fprintf(stderr, "  timing: %" PRIu64 " cycles; %" PRIu64 " taken transfers, %" PRIu64 " instruction-cache misses, %" PRIu64
                    " penalty cycles (--taken-penalty=%u, --icache=%u, --icache-miss=%u)\n",
            with_model ? plat.cycles : cpu->cycle, plat.taken_transfers, plat.icache_misses, plat.penalty_cycles,
            (unsigned)taken_penalty, (unsigned)icache, (unsigned)icache_miss);
    fprintf(stderr, "  program: %" PRIu64 " instructions outside trap handlers, %" PRIu64 " taken transfers", prog_insns,
            prog_taken);
    if (range)
      fprintf(stderr, "; %" PRIu64 " retired in [0x%08" PRIx64 ", 0x%08" PRIx64 ") (%.1f%%)", in_range, range_lo, range_hi,
              prog_insns ? 100.0 * (double)in_range / (double)prog_insns : 0.0);
    if (ecalls) /* the firmware runtimes' last request is the finish after the program's main: what follows is
                   their report (docs/cpu-model.md) */
      fprintf(stderr, "; up to its last ecall: %" PRIu64 " instructions, %" PRIu64 " taken transfers", ecall_insns,
              ecall_taken);
    fputc('\n', stderr);
    if (with_model) {
      const hwprof_top_state_t *hw = &plat.hw;
      fprintf(stderr, "  system: %" PRIu64 " cycles, %" PRIu64 " stall cycles, %" PRIu64 " interrupts, %" PRIu64
                      " hwprof register accesses\n",
              plat.cycles, plat.stall_cycles, plat.interrupts, plat.apb_accesses);
      fprintf(stderr, "  edge profiling: %u update operations; cache %u performed, %u misses, %u write-backs, "
                      "%u dropped, %u overflows\n",
              (unsigned)hwprof_prim_counters_get(&hw->pir.stats, HWPROF_PIR_ST_UPDATES), (unsigned)hwprof_prim_counters_get(&hw->edge_prof.stats, HWPROF_EP_ST_UPDATES),
              (unsigned)hwprof_prim_counters_get(&hw->edge_prof.stats, HWPROF_EP_ST_MISSES), (unsigned)hwprof_prim_counters_get(&hw->edge_prof.stats, HWPROF_EP_ST_WBS),
              (unsigned)hwprof_prim_counters_get(&hw->edge_prof.stats, HWPROF_EP_ST_DROPPED), (unsigned)hwprof_prim_counters_get(&hw->edge_prof.stats, HWPROF_EP_ST_OVF));
      fprintf(stderr, "  traces: ended backward %u, indirect %u, full %u; sampled %u, dropped %u\n",
              (unsigned)hwprof_prim_counters_get(&hw->trace_ctrl.stats, HWPROF_TC_ST_BACK), (unsigned)hwprof_prim_counters_get(&hw->trace_ctrl.stats, HWPROF_TC_ST_IND),
              (unsigned)hwprof_prim_counters_get(&hw->trace_ctrl.stats, HWPROF_TC_ST_FULL), (unsigned)hwprof_prim_counters_get(&hw->trace_ctrl.stats, HWPROF_TC_ST_SAMP),
              (unsigned)hwprof_prim_counters_get(&hw->trace_ctrl.stats, HWPROF_TC_ST_DROP));
    }
    if (trace_check) trace_check_report(&tc, stderr);
  }
  if (trace_check && tc.failed && rc == 0) rc = HWPROF_EXIT_DIFFERS;
  if (trace_out) {
    char err[300];
    if (trace_drain_finish(&drain, err, sizeof err) != 0) {
      fprintf(stderr, "hwprof-sim: error: %s\n", err);
      if (rc == 0) rc = HWPROF_EXIT_DIFFERS;
    } else if (plat.interrupts != 0) {
      fprintf(stderr, "hwprof-sim: error: %s: the program took %" PRIu64 " interrupts: its handlers may have used the "
                      "trace controller (--trace-out wants a program without firmware)\n", trace_out, plat.interrupts);
      if (rc == 0) rc = HWPROF_EXIT_DIFFERS;
    } else if (!quiet) {
      fprintf(stderr, "  trace drain: %" PRIu64 " records in %s (%" PRIu64 " drains, %" PRIu64 " program instructions)\n",
              drain.w.records, trace_out, drain.drains, drain.insns);
    }
  }
  if (blocks_out) {
    if (block_truth_finish(&bt) != 0) {
      fprintf(stderr, "hwprof-sim: error: %s: write error\n", blocks_out);
      if (rc == 0) rc = HWPROF_EXIT_BAD_FILE;
    } else if (!quiet) {
      fprintf(stderr, "  blocks: %" PRIu64 " blocks, %" PRIu64 " instructions in %s\n", bt.w.blocks, bt.w.insns, blocks_out);
    }
  }
  if (path_truth_path) {
    FILE *pf = fopen(path_truth_path, "w");
    const bool ok = pf != NULL && path_truth_finish(&pth, pf, elf) == 0;
    if (pf != NULL && fclose(pf) != 0) pf = NULL;
    if (!ok || pf == NULL) {
      fprintf(stderr, "hwprof-sim: error: cannot write '%s'\n", path_truth_path);
      if (rc == 0) rc = HWPROF_EXIT_BAD_FILE;
    } else if (!quiet) {
      fprintf(stderr, "  path truth: %" PRIu64 " activations, %" PRIu64 " paths (%zu distinct), %" PRIu64
                      " block entries%s in %s\n", pth.activations, pth.cut, pth.used, pth.block_entries,
              pth.failed ? " (out of memory: incomplete)" : "", path_truth_path);
    }
    path_truth_free(&pth);
  }
  if (phase_truth_path) {
    phase_truth_finish(&pt, cpu->instret);
    phase_truth_free(&pt);
    if (fclose(pt_file) != 0) {
      fprintf(stderr, "hwprof-sim: error: cannot write '%s'\n", phase_truth_path);
      if (rc == 0) rc = HWPROF_EXIT_BAD_FILE;
    }
  }
  if (edge_map) {
    long d = -1;
    int frc;
    if (st != RV_EXITED) fprintf(stderr, "hwprof-sim: edge check: skipped, the program did not finish\n");
    else if ((frc = edge_check_flush(&kBus, &plat)) != 0) fprintf(stderr, "hwprof-sim: edge check: %s\n", edge_check_flush_why(frc));
    else d = edge_check_finish(&ec, cpu->ram, RV_RAM_BASE, cpu->ram_size, edge_profile, edge_truth, stderr);
    if (d != 0 && rc == 0) rc = HWPROF_EXIT_DIFFERS;
    edge_check_free(&ec);
  }
  if (path_map) {
    int frc = -3;
    const hwprof_t hw = {.base = 0, .bus = &kBus, .bus_ctx = &plat};
    if (st != RV_EXITED) fprintf(stderr, "hwprof-sim: path profile: skipped, the program did not finish\n");
    else if ((frc = edge_check_flush(&kBus, &plat)) != 0) fprintf(stderr, "hwprof-sim: path profile: %s\n", edge_check_flush_why(frc));
    else if ((frc = hwprof_pir_path_check(&hw)) != kHwprofOk)
      fprintf(stderr, "hwprof-sim: path profile: the pir's path stack overflowed or underflowed (PATH_STACK.ERR): "
                      "the path counts are not exact\n");
    if (frc == 0) {
      FILE *pf = fopen(path_profile, "w");
      pp_readback_stats_t ps;
      char perr[400];
      ram_view_t view = {cpu->ram, RV_RAM_BASE, cpu->ram_size};
      if (pf == NULL) {
        fprintf(stderr, "hwprof-sim: error: cannot write '%s'\n", path_profile);
        frc = -1;
      } else if (pp_readback(path_map, NULL, ram_read32, &view, pf, &ps, perr, sizeof perr) != 0) {
        fprintf(stderr, "hwprof-sim: path profile: %s\n", perr);
        frc = -1;
      } else if (!quiet) {
        fprintf(stderr, "  path profile: %u functions, %" PRIu64 " counters, %" PRIu64 " paths counted %" PRIu64
                        " times, in %s\n", ps.functions, ps.counters, ps.paths, ps.count, path_profile);
      }
      if (pf != NULL && fclose(pf) != 0 && frc == 0) {
        fprintf(stderr, "hwprof-sim: error: cannot write '%s'\n", path_profile);
        frc = -1;
      }
      if (frc != 0) remove(path_profile); /* nothing half written */
    }
    if (frc != 0 && rc == 0) rc = HWPROF_EXIT_DIFFERS;
    if (!quiet && st == RV_EXITED) prof_cov_report(&pcov, "  path profile:", 5, stderr);
    prof_cov_free(&pcov);
    pm_free(&pcov_map);
  }
  if (dump_arg) { /* the profile cache written back first: memory holds every counter */
    if (with_model) (void)edge_check_flush(&kBus, &plat);
    FILE *f = fopen(dump_path, "wb");
    bool ok = f != NULL && fwrite(cpu->ram + (dump_addr - RV_RAM_BASE), 1, (size_t)dump_len, f) == (size_t)dump_len;
    if (f != NULL && fclose(f) != 0) ok = false;
    if (!ok) {
      fprintf(stderr, "hwprof-sim: error: cannot write '%s'\n", dump_path);
      if (rc == 0) rc = HWPROF_EXIT_BAD_FILE;
    }
  }
  if (cop_profile) {
    long d = -1;
    if (st != RV_EXITED) fprintf(stderr, "hwprof-sim: cop check: skipped, the program did not finish\n");
    else d = cop_check_finish(&cc, cop_profile, hwprof_prim_counters_get(&plat.hw.vpf.stats, HWPROF_VPF_ST_DROPPED), stderr);
    if (d != 0 && rc == 0) rc = HWPROF_EXIT_DIFFERS;
    cop_check_free(&cc);
  }
  if (value_truth) {
    if (value_truth_write(&vt, value_truth, stderr) != 0 && rc == 0) rc = HWPROF_EXIT_DIFFERS;
    value_truth_free(&vt);
  }
  if (trace_check) trace_check_free(&tc);
  platform_free(&plat);
  return rc;
}
