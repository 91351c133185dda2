/* hwprof-sim: run an RV32IM ELF program on the CPU model (sim/rv32.c), alone (--engine=none) or
 * with the C model of hwprof_top (--engine=model, sim/platform.c). The program's console output
 * goes to stdout, the report to stderr. The options, checks and outputs it shares with hwprof-sc
 * are wired in sim/runner.c; this file adds the C platform's engine choice and timing model.
 *
 * Exit status (sw/include/hwprof_exit.h, docs/tools.md): the program's exit code; 1 for a bad input
 * file; 2 for bad arguments; 3 when the program runs away (instruction limit, a trap with no handler);
 * 4 when a check fails. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hwprof_exit.h"
#include "platform.h"
#include "runner.h"
#include "rv32.h"

static const char kHead[] =
    "usage: hwprof-sim [options] PROGRAM.elf\n"
    "Runs an RV32IM ELF executable (picolibc, --oslib=semihost, linked at 0x80000000) on the CPU model,\n"
    "alone or with the C model of hwprof_top (the C platform; hwprof-sc runs the RTL).\n\n"
    "The C platform's own options:\n"
    "  --engine=E      none: the CPU alone; model: with the C model of hwprof_top (default)\n"
    "  --cache-sets=N, --cache-ways=N  the profile cache's shape (the Sets and Ways build parameters:\n"
    "                  2..64 sets, a power of two, default 4; 1..8 ways, default 2)\n"
    "  --cop-cam=N, --cop-data=BYTES  the co-processor's arrays (the CamEntries and DataBytes build\n"
    "                  parameters: 2..512 entries, 8..4096 bytes, powers of two; default 256 and 2048,\n"
    "                  seed 001's Table 1; its Figures 8 and 9 use half and twice those)\n"
    "  --taken-penalty=N  timing: N idle cycles after every taken branch, jump, trap entry or\n"
    "                  return (default 0), so that code layout shows in cycles (docs/cpu-model.md)\n"
    "  --icache=BYTES  timing: a direct-mapped instruction cache of BYTES (a power of two, lines of\n"
    "                  16 bytes) whose misses cost --icache-miss=N idle cycles (default 10)\n"
    "Options of both platforms (sim/runner.c):\n";
static const char kTail[] =
    "Exit status (docs/tools.md): the program's; 1 a bad input file (the ELF, a map, a file to\n"
    "load) or an output that could not be written; 2 bad arguments; 3 the program ran away; 4 a\n"
    "trace, edge, path or value check failed.\n";

/* The C platform's own options (runner.h). */
typedef struct {
  const char *engine;
  uint64_t cache_sets, cache_ways, taken_penalty, icache, icache_miss, cop_cam, cop_data;
} sim_opts_t;

static int own_opt(void *ctx, const char *a) {
  sim_opts_t *s = ctx;
  int t;
  if (!strncmp(a, "--engine=", 9)) {
    s->engine = a + 9;
    if (strcmp(s->engine, "none") && strcmp(s->engine, "model")) {
      fprintf(stderr, "hwprof-sim: error: argument '%s': expects none or model (the RTL: hwprof-sc)\n", a);
      return -1;
    }
    return 1;
  }
  if ((t = runner_num_opt("hwprof-sim", a, "--cache-ways", HWPROF_WAYS_MIN, HWPROF_WAYS_MAX, &s->cache_ways)) ||
      (t = runner_num_opt("hwprof-sim", a, "--taken-penalty", 0, 1000, &s->taken_penalty)) ||
      (t = runner_num_opt("hwprof-sim", a, "--icache-miss", 0, 1000, &s->icache_miss)))
    return t;
  uint64_t *v = &s->cache_sets;
  if ((t = runner_num_opt("hwprof-sim", a, "--cache-sets", HWPROF_SETS_MIN, HWPROF_SETS_MAX, v)) == 0)
    t = runner_num_opt("hwprof-sim", a, "--icache", 16, 1u << 20, v = &s->icache);
  if (t == 0) t = runner_num_opt("hwprof-sim", a, "--cop-cam", HWPROF_CAMENTRIES_MIN, HWPROF_CAMENTRIES_MAX, v = &s->cop_cam);
  if (t == 0) t = runner_num_opt("hwprof-sim", a, "--cop-data", HWPROF_DATABYTES_MIN, HWPROF_DATABYTES_MAX, v = &s->cop_data);
  if (t > 0 && (*v & (*v - 1u))) { /* the sizes are powers of two */
    fprintf(stderr, "hwprof-sim: error: argument '%s': expects a power of two\n", a);
    return -1;
  }
  return t;
}

static uint32_t bus_read(void *ctx, uint16_t addr) { return platform_apb(ctx, false, addr, 0); }
static void bus_write(void *ctx, uint16_t addr, uint32_t v) { platform_apb(ctx, true, addr, v); }
static const hwprof_bus_t kBus = {bus_read, bus_write}; /* host-side register access for the drivers */

int main(int argc, char **argv) {
  runner_opts_t o;
  sim_opts_t so = {"model", HWPROF_SETS_DEFAULT, HWPROF_WAYS_DEFAULT, 0, 0, 10, HWPROF_CAMENTRIES_DEFAULT, HWPROF_DATABYTES_DEFAULT};
  int rc = runner_parse(argc, argv, "hwprof-sim", kHead, kTail, &o, own_opt, &so);
  if (rc >= 0) return rc;
  const bool with_model = !strcmp(so.engine, "model");
  if ((rc = runner_opts_need(&o, "hwprof-sim", with_model, "use --engine=model", true, "")) != 0) return rc;

  static platform_t plat; /* the CPU lives in it; with --engine=none only the CPU is used */
  if (platform_init(&plat, o.elf, (uint32_t)o.ram, (unsigned)o.mem_latency) != 0) {
    fprintf(stderr, "hwprof-sim: error: %s\n", plat.error);
    platform_free(&plat);
    return HWPROF_EXIT_BAD_FILE;
  }
  plat.cfg.edge_prof.sets = (unsigned)so.cache_sets; /* the state is sized for the largest shape */
  plat.cfg.edge_prof.ways = (unsigned)so.cache_ways;
  plat.cfg.cop.cam_entries = (unsigned)so.cop_cam; /* the same: sized for the largest arrays */
  plat.cfg.cop.data_bytes = (unsigned)so.cop_data;
  rv_cpu_t *cpu = &plat.cpu;
  plat.taken_penalty = (unsigned)so.taken_penalty;
  if (platform_icache(&plat, (unsigned)so.icache, (unsigned)so.icache_miss) != 0) {
    fprintf(stderr, "hwprof-sim: error: out of memory for the instruction cache\n");
    platform_free(&plat);
    return HWPROF_EXIT_BAD_FILE;
  }
  if (!with_model) cpu->mmio.size = 0; /* no devices: the CPU alone */
  static runner_checks_t r;
  if ((rc = runner_checks_init(&r, &o, "hwprof-sim", cpu, &plat.cfg)) != 0 ||
      (with_model && runner_checks_start(&r, &kBus, &plat) != 0)) {
    if (rc == 0) {
      fprintf(stderr, "hwprof-sim: error: %s\n", r.drain_err);
      rc = HWPROF_EXIT_BAD_FILE;
    }
    platform_free(&plat);
    return rc;
  }

  const hwprof_trace_ctrl_state_t *tc = o.trace_check ? &plat.hw.trace_ctrl : NULL;
  uint64_t next_progress = o.progress;
  clock_t t0 = clock();
  rv_status_t st = RV_RUNNING;
  hwprof_retire_ev_t ev_alone; /* with the model, the event is the platform's (plat.ev_in.ev) */
  const hwprof_retire_ev_t *evp = with_model ? &plat.ev_in.ev : &ev_alone;
  while (st == RV_RUNNING && cpu->instret < o.max_insns) {
    if (with_model) {
      st = platform_step(&plat);
    } else {
      st = rv_step(cpu, &ev_alone);
      unsigned idle = ev_alone.valid ? platform_fetch(&plat, ev_alone.pc) : 0;
      if (rv_taken_transfer(&ev_alone)) {
        plat.taken_transfers++;
        idle += (unsigned)so.taken_penalty;
      }
      cpu->cycle += idle;
      plat.penalty_cycles += idle;
    }
    runner_checks_retire(&r, evp, tc);
    runner_checks_between(&r, plat.out.irq_trace);
    if (next_progress && cpu->instret >= next_progress) {
      next_progress += o.progress;
      const double s = (double)(clock() - t0) / CLOCKS_PER_SEC;
      fprintf(stderr, "hwprof-sim: %.1f M instructions, %.1f M cycles, %.0f s (%.2f M instructions/s)\n",
              (double)cpu->instret / 1e6, (double)(with_model ? plat.cycles : cpu->cycle) / 1e6, s,
              s > 0 ? (double)cpu->instret / s / 1e6 : 0.0);
    }
  }
  double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  fflush(stdout);

  if (st == RV_EXITED) {
    rc = cpu->exit_code & 0xff;
  } else if (st == RV_FAILED) {
    fprintf(stderr, "hwprof-sim: error: %s: %s\n", o.elf, cpu->error);
    rc = HWPROF_EXIT_RAN_AWAY;
  } else {
    fprintf(stderr, "hwprof-sim: error: %s: still running after %" PRIu64 " instructions (--max-insns)\n", o.elf,
            cpu->instret);
    rc = HWPROF_EXIT_RAN_AWAY;
  }
  if (!o.quiet) {
    fprintf(stderr, "hwprof-sim: %s: %" PRIu64 " instructions, exit code %d, %.2f s (%.1f M instructions/s)\n", o.elf,
            cpu->instret, st == RV_EXITED ? cpu->exit_code : -1, secs, secs > 0 ? cpu->instret / secs / 1e6 : 0.0);
    fprintf(stderr, "  timing: %" PRIu64 " cycles; %" PRIu64 " taken transfers, %" PRIu64 " instruction-cache misses, %" PRIu64
                    " penalty cycles (--taken-penalty=%u, --icache=%u, --icache-miss=%u)\n",
            with_model ? plat.cycles : cpu->cycle, plat.taken_transfers, plat.icache_misses, plat.penalty_cycles,
            (unsigned)so.taken_penalty, (unsigned)so.icache, (unsigned)so.icache_miss);
    runner_checks_report_program(&r, stderr);
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
  }
  /* after the report: the flush's register accesses and write-backs are not the program's */
  runner_checks_exit(&r, with_model ? &kBus : NULL, &plat, st == RV_EXITED);
  rc = runner_checks_finish(&r, rc, st == RV_EXITED, plat.interrupts);
  platform_free(&plat);
  return rc;
}
