/* What the two runners share (hwprof-sim on the C platform, hwprof-sc on the SystemC platform):
 * the options every run takes, their parsing and help text, and the wiring of the checks, oracles
 * and outputs those options ask for (tb/check/, tb/oracle/, sim/trace_drain.c) to a run. Each runner
 * adds only what its platform has: the engines, the timing model (hwprof-sim), the memory's grant
 * rate and waveforms (hwprof-sc). docs/tools.md lists the options.
 *
 * A run calls, in order: runner_parse(); runner_checks_init() once the CPU holds the program;
 * runner_checks_start() before the program's first instruction (register writes); for every retired
 * instruction, after the hardware took it, runner_checks_retire(), and between two instructions
 * runner_checks_between(); after the program stopped, runner_checks_exit() (register accesses: the
 * flush, the drain's last records), then runner_checks_finish() (comparisons, files, report). */
#ifndef HWPROF_SIM_RUNNER_H
#define HWPROF_SIM_RUNNER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "check/cop_check.h"
#include "check/edge_check.h"
#include "check/prof_coverage.h"
#include "check/trace_check.h"
#include "hwprof_mmio.h"
#include "oracle/block_truth.h"
#include "oracle/path_truth.h"
#include "oracle/phase_truth.h"
#include "oracle/value_truth.h"
#include "profmap.h"
#include "rv32.h"
#include "top/top.h"
#include "trace_drain.h"

/* The shared options (runner_usage_common lists them). */
#define RUNNER_MAX_SETS 16u /* --set options at most */

typedef struct {
  const char *elf;
  uint64_t max_insns, ram, mem_latency, progress;
  bool quiet, trace_check;
  const char *out_dir, *pcs, *pc_counts, *trace_out, *blocks_out;
  const char *edge_map, *edge_profile, *edge_truth;
  const char *path_map, *path_profile, *path_truth;
  const char *phase_truth;
  uint64_t phase_window;
  const char *cop_check, *value_truth;
  bool range;
  uint64_t range_lo, range_hi;   /* --code-range */
  uint64_t cache_lo, cache_hi;   /* --code-cache */
  uint64_t tramp_lo, tramp_hi;   /* --trampolines */
  const char *load_arg;          /* --load */
  const char *dump_arg, *dump_path; /* --dump */
  uint64_t dump_addr, dump_len;
  const char *set_arg[RUNNER_MAX_SETS]; /* --set=SYMBOL=VALUE */
  unsigned nset;
} runner_opts_t;

extern const char runner_usage_common[];

/* A numeric option --NAME=V with lo <= V <= hi (C syntax: 0x... allowed): 1 when arg is that option
 * and good (V in *v), 0 when arg is another option, -1 when its value is bad (the error printed). */
int runner_num_opt(const char *tool, const char *arg, const char *name, uint64_t lo, uint64_t hi, uint64_t *v);

/* A runner's own options: 1 when arg is one of them (taken), 0 when it is not, -1 when it is but
 * its value is bad (the error printed). */
typedef int (*runner_own_opt_fn)(void *ctx, const char *arg);

/* Reads the command line into o (defaults first) and the runner's own options through own. The help
 * text is head, runner_usage_common, tail. Returns -1 to run; 0 after --help; HWPROF_EXIT_USAGE
 * after one error naming the argument. */
int runner_parse(int argc, char **argv, const char *tool, const char *head, const char *tail, runner_opts_t *o,
                 runner_own_opt_fn own, void *ctx);

/* What the platform can give the checks: the hardware at all (hwprof), the C model's state (model:
 * what --trace-check observes). Returns 0, or HWPROF_EXIT_USAGE after one error naming the options. */
int runner_opts_need(const runner_opts_t *o, const char *tool, bool hwprof, const char *hwprof_how, bool model,
                     const char *model_how);

typedef struct {
  const runner_opts_t *o;
  const char *tool;
  rv_cpu_t *cpu;
  bool observe; /* some check or output watches the retire stream beyond the program's figures */
  /* the program's figures: its instructions outside trap handlers, taken transfers, those in
     --code-range, and the same at its last ecall (a firmware request) */
  uint64_t prog_insns, prog_taken, in_range, ecalls, ecall_insns, ecall_taken;
  FILE *pcs;
  FILE *pc_counts_file;
  uint64_t (*pc_counts)[2]; /* per RAM word: retirements, and those that went elsewhere than the next word */
  uint64_t pc_outside, pcs_lines;
  trace_check_t tc;
  trace_drain_t drain;
  bool drain_ok;
  int drained; /* trace_drain_finish's result */
  char drain_err[300];
  block_truth_t bt;
  edge_check_t ec;
  pm_map_t pcov_map; /* the path profile's coverage */
  prof_cov_t pcov;
  path_truth_t pth;
  phase_truth_t pt;
  FILE *pt_file;
  cop_check_t cc;
  value_truth_t vt;
  int flushed;       /* runner_checks_exit: the flush's result (edge_check_flush), 1 when not done */
  bool path_stack_err;
  uint64_t vpf_dropped;
} runner_checks_t;

/* Loads and opens what the options ask for (the CPU holds the program; cfg: hwprof_top's
 * configuration). Returns 0, or the exit code after one error (the runner then exits). */
int runner_checks_init(runner_checks_t *r, const runner_opts_t *o, const char *tool, rv_cpu_t *cpu,
                       const hwprof_top_cfg_t *cfg);
/* Before the program's first instruction: the trace check's or the drain's configuration over bus.
 * Returns 0, or -1 (the drain could not start: runner_checks_finish() says why). */
int runner_checks_start(runner_checks_t *r, const hwprof_bus_t *bus, void *bus_ctx);
void runner_checks_observe(runner_checks_t *r, const hwprof_retire_ev_t *ev, const hwprof_trace_ctrl_state_t *tc);
/* One retired instruction, after the hardware took it; tc: the C model's trace controller (NULL
 * without --trace-check). */
static inline void runner_checks_retire(runner_checks_t *r, const hwprof_retire_ev_t *ev,
                                        const hwprof_trace_ctrl_state_t *tc) {
  if (ev->valid && ev->trap == HWPROF_TRAP_NONE) { /* the program's own instructions */
    const bool taken = rv_taken_transfer(ev);
    r->prog_insns++;
    r->prog_taken += taken;
    r->in_range += r->o->range && ev->pc >= r->o->range_lo && ev->pc < r->o->range_hi;
  } else if (ev->valid && ev->trap == HWPROF_TRAP_ENTRY && r->cpu->mcause == 11u) {
    r->ecalls++;
    r->ecall_insns = r->prog_insns;
    r->ecall_taken = r->prog_taken;
  }
  if (r->observe) runner_checks_observe(r, ev, tc);
}
/* Between two instructions, with the TRACE interrupt output (the drain empties the FIFO). */
static inline void runner_checks_between(runner_checks_t *r, bool irq_trace) {
  if (r->drain_ok) trace_drain_poll(&r->drain, irq_trace);
}
/* After the program stopped (exited: it finished), over bus (NULL: no hardware): the drain's last
 * records, the profile cache's flush, the pir's path-stack check, the value filter's drops. */
void runner_checks_exit(runner_checks_t *r, const hwprof_bus_t *bus, void *bus_ctx, bool exited);
/* The program's figures, one line. */
void runner_checks_report_program(const runner_checks_t *r, FILE *to);
/* Comparisons, files and their report lines (unless quiet). rc: the run's exit code so far;
 * interrupts: those the CPU took. Returns the exit code. Frees r. */
int runner_checks_finish(runner_checks_t *r, int rc, bool exited, uint64_t interrupts);
/* What runner_checks_finish() frees, for a run that stops before it (after a successful init). */
void runner_checks_free(runner_checks_t *r);

#ifdef __cplusplus
}
#endif

#endif /* HWPROF_SIM_RUNNER_H */
