/* See runner.h. */
#include "runner.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof_edge.h"
#include "hwprof_elf.h"
#include "hwprof_exit.h"
#include "pp_readback.h"

const char runner_usage_common[] =
    "  --max-insns=N   stop with an error after N instructions (default 200000000)\n"
    "  --ram=BYTES     RAM size at 0x80000000 (default 16777216)\n"
    "  --mem-latency=N cycles from a counter-line read to its data (default 4)\n"
    "  --out-dir=DIR   files the program opens for writing (semihosting) are created in DIR (their\n"
    "                  directories dropped); without it such opens fail\n"
    "  --progress=N    print progress every N instructions\n"
    "  --quiet         no report at the end\n"
    "  --help          this text\n"
    "Checks and outputs (the same on both platforms, docs/tools.md):\n"
    "  --pcs=FILE      write every retired instruction's address, one hex number per line, then\n"
    "                  'end LINES'\n"
    "  --pc-counts=FILE  write, for every address that retired, how many times it did and how\n"
    "                  many of those went elsewhere than the next word: 'PC COUNT TAKEN' a line\n"
    "                  (hexadecimal, decimal, decimal), in address order, then 'end LINES'\n"
    "  --trace-check   check every trace record against the executed instructions and its\n"
    "                  reconstruction from the ELF image (observes the C model)\n"
    "  --trace-out=FILE  drain every trace record from the controller's FIFO over APB into FILE\n"
    "                  between instructions, a trace file for hwprof-wpp (docs/wpp.md); the program\n"
    "                  must leave the trace controller alone\n"
    "  --blocks-out=FILE  write the exact basic-block stream of the run, cut from the retire\n"
    "                  stream (the oracle of the one hwprof-wpp rebuilds from --trace-out)\n"
    "  --edge-map=MAP  a program instrumented by hwprof-instr: after it ends, flush the profile\n"
    "                  cache over APB, derive the edge profile from the counters and compare it\n"
    "                  with the exact edge counts of the run\n"
    "  --edge-profile=FILE, --edge-truth=FILE  with --edge-map: write the two profiles\n"
    "  --path-map=MAP  a program instrumented for paths (hwprof-instr --paths): after it ends,\n"
    "                  flush the profile cache, check the pir's path and link stacks, and decode\n"
    "                  every path counter into --path-profile=FILE (docs/path.md)\n"
    "  --path-truth=FILE  write the path profile's oracle: the executed blocks cut into Ball-Larus\n"
    "                  paths per function activation, each distinct path counted (docs/path.md;\n"
    "                  the program must be linked with -Wl,--emit-relocs)\n"
    "  --phase-truth=FILE  write the ground truth of the program's phases: its exact branch profile\n"
    "                  over windows of --phase-window=N program instructions (default 100000) and\n"
    "                  the windows where its hot set changed (docs/dynopt.md)\n"
    "  --cop-check=FILE  a value-profiling program (sw/fw/rt/cop_rt.c): after it ends, compare the\n"
    "                  per-PC counts it wrote to FILE with what the retire stream says the filters\n"
    "                  and prescaler chose (written by the program: give --out-dir too)\n"
    "  --value-truth=FILE  write the exact load-value profile of the loads retired while value\n"
    "                  sampling was on (docs/vpf.md)\n"
    "  --code-range=LO:HI  report how many of the program's instructions retired at addresses in\n"
    "                  [LO, HI) (a code cache: docs/dynopt.md)\n"
    "  --code-cache=LO:HI  the program copies its code into a code cache at [LO, HI) with the\n"
    "                  origin of each word in the HI - LO bytes below LO (docs/dynopt.md): the edge\n"
    "                  check and the phase truth count each copy as its original\n"
    "  --trampolines=LO:HI  the code cache's exits leave through jumps at [LO, HI): not the\n"
    "                  program's instructions either (with --code-cache)\n"
    "  --load=ADDR:FILE  copy FILE's bytes into memory at ADDR before the program starts\n"
    "  --set=SYMBOL=VALUE  store VALUE (32 bits, C syntax) in the program's 4-byte data object\n"
    "                  SYMBOL before it starts: a firmware's run-time settings (docs/vpf.md); up\n"
    "                  to 16 times\n"
    "  --dump=ADDR:LEN:FILE  write LEN bytes of memory from ADDR to FILE when the program ends\n"
    "                  (after the profile cache's flush; the static layout's profile, docs/dynopt.md)\n";

static int parse_u64(const char *s, uint64_t *out) {
  char *end = NULL;
  errno = 0;
  if (*s == '\0' || *s == '-') return -1;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || *end) return -1;
  *out = v;
  return 0;
}

/* arg is an option the help shows as --NAME=VALUE, given as --NAME or --NAME=: the length of --NAME. */
static int lacks_value(const char *usage, const char *arg) {
  const size_t n = strcspn(arg, "=");
  if (strncmp(arg, "--", 2) || n < 3 || (arg[n] == '=' && arg[n + 1])) return 0;
  for (const char *u = strstr(usage, " --"); u; u = strstr(u + 1, " --"))
    if (!strncmp(u + 1, arg, n) && u[1 + n] == '=') return (int)n;
  return 0;
}

/* Splits s at its first colon into a number and the rest; -1 when it does not. */
static int split_num(const char *s, uint64_t *num, const char **rest) {
  char buf[32];
  const char *colon = strchr(s, ':');
  if (colon == NULL || (size_t)(colon - s) >= sizeof buf) return -1;
  memcpy(buf, s, (size_t)(colon - s));
  buf[colon - s] = '\0';
  *rest = colon + 1;
  return parse_u64(buf, num);
}

/* LO:HI into lo < hi <= 2^32 (word-aligned when aligned); prints the error and returns -1. */
static int parse_range(const char *tool, const char *arg, const char *s, bool aligned, uint64_t *lo, uint64_t *hi) {
  const char *rest;
  if (split_num(s, lo, &rest) || parse_u64(rest, hi) || *lo >= *hi || *hi > 0x100000000u || (aligned && (*lo | *hi) & 3u)) {
    fprintf(stderr, "%s: error: argument '%s': expects %sLO:HI with LO < HI <= 0x100000000\n", tool, arg,
            aligned ? "word-aligned " : "");
    return -1;
  }
  return 0;
}

int runner_num_opt(const char *tool, const char *a, const char *name, uint64_t lo, uint64_t hi, uint64_t *v) {
  const size_t n = strlen(name);
  if (strncmp(a, name, n) || a[n] != '=') return 0;
  if (parse_u64(a + n + 1, v) || *v < lo || *v > hi) {
    fprintf(stderr, "%s: error: argument '%s': expects an integer in %" PRIu64 "..%" PRIu64 "\n", tool, a, lo, hi);
    return -1;
  }
  return 1;
}

/* A file option --NAME=FILE: 1 taken, 0 not. */
static int file_opt(const char *a, const char *name, const char **v) {
  const size_t n = strlen(name);
  if (strncmp(a, name, n) || a[n] != '=' || a[n + 1] == '\0') return 0;
  *v = a + n + 1;
  return 1;
}

/* One shared option: 1 taken, 0 not shared, -1 bad (printed). */
static int common_opt(const char *tool, const char *a, runner_opts_t *o) {
  int t;
  if ((t = runner_num_opt(tool, a, "--max-insns", 1, UINT64_MAX, &o->max_insns)) ||
      (t = runner_num_opt(tool, a, "--ram", 4096, UINT64_C(1) << 31, &o->ram)) ||
      (t = runner_num_opt(tool, a, "--mem-latency", 1, 1000, &o->mem_latency)) ||
      (t = runner_num_opt(tool, a, "--progress", 1, UINT64_MAX, &o->progress)) ||
      (t = runner_num_opt(tool, a, "--phase-window", 1, UINT64_MAX, &o->phase_window)))
    return t;
  if (file_opt(a, "--out-dir", &o->out_dir) || file_opt(a, "--pcs", &o->pcs) || file_opt(a, "--pc-counts", &o->pc_counts) ||
      file_opt(a, "--trace-out", &o->trace_out) || file_opt(a, "--blocks-out", &o->blocks_out) ||
      file_opt(a, "--edge-map", &o->edge_map) || file_opt(a, "--edge-profile", &o->edge_profile) ||
      file_opt(a, "--edge-truth", &o->edge_truth) || file_opt(a, "--path-map", &o->path_map) ||
      file_opt(a, "--path-profile", &o->path_profile) || file_opt(a, "--path-truth", &o->path_truth) ||
      file_opt(a, "--phase-truth", &o->phase_truth) || file_opt(a, "--cop-check", &o->cop_check) ||
      file_opt(a, "--value-truth", &o->value_truth))
    return 1;
  if (!strcmp(a, "--trace-check")) {
    o->trace_check = true;
    return 1;
  }
  if (!strcmp(a, "--quiet")) {
    o->quiet = true;
    return 1;
  }
  if (!strncmp(a, "--code-range=", 13)) {
    o->range = true;
    return parse_range(tool, a, a + 13, false, &o->range_lo, &o->range_hi) ? -1 : 1;
  }
  if (!strncmp(a, "--code-cache=", 13)) {
    if (parse_range(tool, a, a + 13, true, &o->cache_lo, &o->cache_hi)) return -1;
    if (o->cache_hi - o->cache_lo > o->cache_lo) {
      fprintf(stderr, "%s: error: argument '%s': expects room for the origin table below LO\n", tool, a);
      return -1;
    }
    return 1;
  }
  if (!strncmp(a, "--trampolines=", 14)) return parse_range(tool, a, a + 14, true, &o->tramp_lo, &o->tramp_hi) ? -1 : 1;
  if (!strncmp(a, "--load=", 7)) {
    const char *file;
    uint64_t addr;
    if (split_num(a + 7, &addr, &file) || *file == '\0') {
      fprintf(stderr, "%s: error: argument '%s': expects ADDR:FILE\n", tool, a);
      return -1;
    }
    o->load_arg = a;
    return 1;
  }
  if (!strncmp(a, "--set=", 6)) {
    const char *eq = strchr(a + 6, '=');
    uint64_t v;
    if (eq == NULL || eq == a + 6 || parse_u64(eq + 1, &v) || v > 0xffffffffu) {
      fprintf(stderr, "%s: error: argument '%s': expects SYMBOL=VALUE (VALUE below 2^32)\n", tool, a);
      return -1;
    }
    if (o->nset == RUNNER_MAX_SETS) {
      fprintf(stderr, "%s: error: argument '%s': at most %u --set options\n", tool, a, RUNNER_MAX_SETS);
      return -1;
    }
    o->set_arg[o->nset++] = a;
    return 1;
  }
  if (!strncmp(a, "--dump=", 7)) {
    const char *len, *file;
    if (split_num(a + 7, &o->dump_addr, &len) || split_num(len, &o->dump_len, &file) || o->dump_len == 0 ||
        *file == '\0') {
      fprintf(stderr, "%s: error: argument '%s': expects ADDR:LEN:FILE\n", tool, a);
      return -1;
    }
    o->dump_arg = a;
    o->dump_path = file;
    return 1;
  }
  return 0;
}

int runner_parse(int argc, char **argv, const char *tool, const char *head, const char *tail, runner_opts_t *o,
                 runner_own_opt_fn own, void *ctx) {
  memset(o, 0, sizeof *o);
  o->max_insns = 200000000;
  o->ram = 16u << 20;
  o->mem_latency = 4;
  o->phase_window = 100000;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int t, n;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(head, stdout);
      fputs(runner_usage_common, stdout);
      fputs(tail, stdout);
      return 0;
    }
    if ((t = common_opt(tool, a, o)) == 0) t = own(ctx, a);
    if (t < 0) return HWPROF_EXIT_USAGE;
    if (t > 0) continue;
    if ((n = lacks_value(runner_usage_common, a)) || (n = lacks_value(head, a))) {
      fprintf(stderr, "%s: error: option '%.*s' needs a value (%.*s=..., see --help)\n", tool, n, a, n, a);
      return HWPROF_EXIT_USAGE;
    }
    if (a[0] == '-') {
      fprintf(stderr, "%s: error: unknown option '%s' (see --help)\n", tool, a);
      return HWPROF_EXIT_USAGE;
    }
    if (o->elf) {
      fprintf(stderr, "%s: error: more than one program given ('%s', '%s')\n", tool, o->elf, a);
      return HWPROF_EXIT_USAGE;
    }
    o->elf = a;
  }
  const char *why = NULL;
  if (o->elf == NULL) why = "no program given (see --help)";
  else if (o->tramp_hi && !o->cache_hi) why = "--trampolines needs --code-cache";
  else if (o->trace_check && o->trace_out) why = "--trace-check and --trace-out both configure the trace controller: give one";
  else if ((o->path_map != NULL) != (o->path_profile != NULL)) why = "--path-map and --path-profile go together";
  else if ((o->edge_profile || o->edge_truth) && !o->edge_map) why = "--edge-profile and --edge-truth need --edge-map";
  if (why) {
    fprintf(stderr, "%s: error: %s\n", tool, why);
    return HWPROF_EXIT_USAGE;
  }
  return -1;
}

int runner_opts_need(const runner_opts_t *o, const char *tool, bool hwprof, const char *hwprof_how, bool model,
                     const char *model_how) {
  if (!hwprof && (o->trace_check || o->trace_out || o->edge_map || o->path_map || o->cop_check || o->value_truth)) {
    fprintf(stderr, "%s: error: --trace-check, --trace-out, --edge-map, --path-map, --cop-check and --value-truth "
                    "need hwprof_top: %s\n", tool, hwprof_how);
    return HWPROF_EXIT_USAGE;
  }
  if (!model && o->trace_check) {
    fprintf(stderr, "%s: error: --trace-check observes the C model: %s\n", tool, model_how);
    return HWPROF_EXIT_USAGE;
  }
  return 0;
}

/* Memory [addr, addr + len) inside the RAM, as an offset; -1 (printed) when not. */
static int64_t ram_span(const char *tool, const char *arg, uint64_t addr, uint64_t len, uint64_t ram_size) {
  if (addr < RV_RAM_BASE || len > ram_size || addr - RV_RAM_BASE > ram_size - len) {
    fprintf(stderr, "%s: error: argument '%s': [0x%08" PRIx64 ", +0x%" PRIx64 ") is not inside the RAM\n", tool, arg,
            addr, len);
    return -1;
  }
  return (int64_t)(addr - RV_RAM_BASE);
}

/* --load=ADDR:FILE into the RAM; an exit code after the error, or 0. */
static int load_file(const char *tool, const char *arg, uint8_t *ram, uint64_t ram_size) {
  uint64_t addr;
  const char *path;
  (void)split_num(arg + 7, &addr, &path); /* checked when parsed */
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    fprintf(stderr, "%s: error: cannot read '%s': %s\n", tool, path, strerror(errno));
    return HWPROF_EXIT_BAD_FILE;
  }
  long len = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  int64_t off = len < 0 ? -1 : ram_span(tool, arg, addr, (uint64_t)len, ram_size);
  int rc = 0;
  if (len < 0 || off < 0 || fseek(f, 0, SEEK_SET) != 0 || fread(ram + off, 1, (size_t)len, f) != (size_t)len) {
    if (len < 0 || off >= 0) fprintf(stderr, "%s: error: cannot read '%s'\n", tool, path);
    rc = off < 0 && len >= 0 ? HWPROF_EXIT_USAGE : HWPROF_EXIT_BAD_FILE;
  }
  fclose(f);
  return rc;
}

/* --set=SYMBOL=VALUE: the symbol from the program's symbol table, a 4-byte object in the RAM; an
 * exit code after the error, or 0. */
static int set_symbols(const char *tool, const runner_opts_t *o, uint8_t *ram, uint64_t ram_size) {
  hwprof_elf_t e;
  char err[300];
  if (hwprof_elf_read(&e, o->elf, HWPROF_ELF_SYMBOLS, err, sizeof err) != 0) {
    fprintf(stderr, "%s: error: %s\n", tool, err);
    return HWPROF_EXIT_BAD_FILE;
  }
  int rc = 0;
  for (unsigned k = 0; k < o->nset && rc == 0; k++) {
    const char *a = o->set_arg[k], *name = a + 6, *eq = strchr(name, '=');
    const size_t len = (size_t)(eq - name);
    uint64_t v;
    (void)parse_u64(eq + 1, &v); /* checked when parsed */
    const hwprof_elf_symbol_t *sym = NULL;
    for (unsigned i = 0; i < e.nsym && sym == NULL; i++)
      if (e.sym[i].name && strlen(e.sym[i].name) == len && !strncmp(e.sym[i].name, name, len)) sym = &e.sym[i];
    if (sym == NULL || sym->type != 1 || sym->size != 4) {
        fprintf(stderr, "%s: error: argument '%s': %s has %s\n", tool, a, o->elf,
              sym == NULL ? "no such symbol" : "it, but not as a 4-byte data object");
      rc = HWPROF_EXIT_USAGE;
      break;
    }
    /* at its address, and where start-up code copies initialized data from (the segment's
     * physical address: picolibc's crt0 copies .data there) */
    uint32_t at[2] = {sym->value, sym->value};
    bool in_file = false;
    for (unsigned i = 0; i < e.nph; i++) {
      const hwprof_elf_phdr_t *ph = &e.ph[i];
      if (ph->type == 1 && sym->value >= ph->vaddr && sym->value - ph->vaddr + 4u <= ph->filesz) {
        at[1] = ph->paddr + (sym->value - ph->vaddr);
        in_file = true;
      }
    }
    if (!in_file) { /* .bss: the start-up code would clear what we store */
      fprintf(stderr, "%s: error: argument '%s': %s has no initial value in %s (zero-initialized data is "
                      "cleared when the program starts)\n", tool, a, sym->name, o->elf);
      rc = HWPROF_EXIT_USAGE;
      break;
    }
    for (unsigned c = 0; c < 2 && rc == 0; c++) {
      const int64_t off = ram_span(tool, a, at[c], 4, ram_size);
      if (off < 0) rc = HWPROF_EXIT_USAGE;
      for (unsigned b = 0; b < 4 && off >= 0; b++) ram[off + b] = (uint8_t)(v >> (8 * b));
    }
  }
  hwprof_elf_free(&e);
  return rc;
}

int runner_checks_init(runner_checks_t *r, const runner_opts_t *o, const char *tool, rv_cpu_t *cpu,
                       const hwprof_top_cfg_t *cfg) {
  memset(r, 0, sizeof *r);
  r->o = o;
  r->tool = tool;
  r->cpu = cpu;
  r->flushed = 1;
  r->observe = o->pcs || o->pc_counts || o->trace_check || o->trace_out || o->blocks_out || o->edge_map || o->path_map ||
               o->path_truth || o->phase_truth || o->cop_check || o->value_truth;
  cpu->out_dir = o->out_dir;
  char err[400];
  err[0] = '\0';
  int rc;
  if (o->load_arg && (rc = load_file(tool, o->load_arg, cpu->ram, cpu->ram_size)) != 0) return rc;
  if (o->nset && (rc = set_symbols(tool, o, cpu->ram, cpu->ram_size)) != 0) return rc;
  if (o->dump_arg && ram_span(tool, o->dump_arg, o->dump_addr, o->dump_len, cpu->ram_size) < 0) return HWPROF_EXIT_USAGE;
  if (o->trace_check && trace_check_init(&r->tc, o->elf, cfg->trace_ctrl.hist_w, cpu->pc, stderr, err, sizeof err) != 0)
    goto bad;
  if (o->edge_map) {
    if (edge_check_init(&r->ec, o->edge_map, cfg->edge_prof.cnt_w, err, sizeof err)) goto bad;
    if (o->cache_hi) {
      edge_check_set_cache(&r->ec, (uint32_t)o->cache_lo, (uint32_t)o->cache_hi, cpu->ram, RV_RAM_BASE, cpu->ram_size);
      cc_origin_set_trampolines(&r->ec.cc, (uint32_t)o->tramp_lo, (uint32_t)o->tramp_hi);
    }
  }
  if (o->path_map && (pm_read(&r->pcov_map, o->path_map, err, sizeof err) || prof_cov_init_map(&r->pcov, &r->pcov_map))) {
    if (r->pcov_map.nfn) snprintf(err, sizeof err, "out of memory");
    goto bad;
  }
  if (o->path_truth && path_truth_init(&r->pth, o->elf, err, sizeof err) != 0) {
    fprintf(stderr, "%s: error: --path-truth: %s\n", tool, err);
    return HWPROF_EXIT_BAD_FILE;
  }
  /* the outputs, once every input has been read */
  if (o->pcs && (r->pcs = fopen(o->pcs, "w")) == NULL) {
    fprintf(stderr, "%s: error: cannot write '%s': %s\n", tool, o->pcs, strerror(errno));
    return HWPROF_EXIT_BAD_FILE;
  }
  if (o->pc_counts && ((r->pc_counts = calloc(cpu->ram_size / 4, sizeof *r->pc_counts)) == NULL ||
                       (r->pc_counts_file = fopen(o->pc_counts, "w")) == NULL)) {
    fprintf(stderr, "%s: error: cannot write '%s': %s\n", tool, o->pc_counts, r->pc_counts ? strerror(errno) : "out of memory");
    return HWPROF_EXIT_BAD_FILE;
  }
  if (o->blocks_out && block_truth_init(&r->bt, o->blocks_out, err, sizeof err) != 0) goto bad;
  if (o->phase_truth) {
    errno = 0;
    if ((r->pt_file = fopen(o->phase_truth, "w")) == NULL || phase_truth_init(&r->pt, r->pt_file, o->phase_window) != 0) {
      fprintf(stderr, "%s: error: cannot write '%s'%s%s\n", tool, o->phase_truth, errno ? ": " : "",
              errno ? strerror(errno) : "");
      return HWPROF_EXIT_BAD_FILE;
    }
    if (o->cache_hi) {
      phase_truth_set_cache(&r->pt, (uint32_t)o->cache_lo, (uint32_t)o->cache_hi, cpu->ram, RV_RAM_BASE, cpu->ram_size);
      cc_origin_set_trampolines(&r->pt.cc, (uint32_t)o->tramp_lo, (uint32_t)o->tramp_hi);
    }
  }
  if (o->cop_check) cop_check_init(&r->cc, HWPROF_PLAT_REG_BASE, cfg->vpf.bitmask_bits);
  if (o->value_truth) value_truth_init(&r->vt, HWPROF_PLAT_REG_BASE);
  return 0;
bad:
  fprintf(stderr, "%s: error: %s\n", tool, err);
  return HWPROF_EXIT_BAD_FILE;
}

int runner_checks_start(runner_checks_t *r, const hwprof_bus_t *bus, void *bus_ctx) {
  if (r->o->trace_check) {
    trace_check_setup_t setup[TRACE_CHECK_SETUP_N];
    trace_check_setup(r->cpu->pc, setup);
    for (unsigned i = 0; i < TRACE_CHECK_SETUP_N; i++) bus->write32(bus_ctx, (uint16_t)setup[i].addr, setup[i].data);
  }
  if (r->o->trace_out) {
    r->drain_ok = trace_drain_init(&r->drain, r->o->trace_out, bus, bus_ctx, r->cpu->pc, r->drain_err,
                                   sizeof r->drain_err) == 0;
    if (!r->drain_ok) return -1;
  }
  return 0;
}

void runner_checks_observe(runner_checks_t *r, const hwprof_retire_ev_t *ev, const hwprof_trace_ctrl_state_t *tc) {
  const runner_opts_t *o = r->o;
  if (o->phase_truth) phase_truth_event(&r->pt, ev, r->cpu->instret);
  if (o->path_truth) path_truth_event(&r->pth, ev, r->cpu->x[2]);
  if (r->drain_ok) trace_drain_event(&r->drain, ev);
  if (o->blocks_out) block_truth_event(&r->bt, ev);
  if (o->edge_map) edge_check_event(&r->ec, ev);
  if (o->path_map) prof_cov_retire(&r->pcov, ev);
  if (o->cop_check) cop_check_event(&r->cc, ev);
  if (o->value_truth) value_truth_event(&r->vt, ev);
  if (!ev->valid) return;
  if (o->trace_check) trace_check_event(&r->tc, tc, ev);
  if (r->pcs) {
    fprintf(r->pcs, "%08" PRIx32 "\n", ev->pc);
    r->pcs_lines++;
  }
  if (r->pc_counts) {
    const uint64_t w = ((uint64_t)ev->pc - RV_RAM_BASE) / 4;
    if (ev->pc >= RV_RAM_BASE && w < r->cpu->ram_size / 4) {
      r->pc_counts[w][0]++;
      r->pc_counts[w][1] += ev->next_pc != ev->pc + 4u;
    } else {
      r->pc_outside++;
    }
  }
}

void runner_checks_exit(runner_checks_t *r, const hwprof_bus_t *bus, void *bus_ctx, bool exited) {
  const runner_opts_t *o = r->o;
  if (r->drain_ok) r->drained = trace_drain_finish(&r->drain, r->drain_err, sizeof r->drain_err);
  if (bus == NULL) return;
  /* the profile cache written back: memory holds every counter (a dump wants them whatever the end) */
  if (((o->edge_map || o->path_map) && exited) || o->dump_arg) r->flushed = edge_check_flush(bus, bus_ctx);
  if (o->path_map && exited && r->flushed == 0) {
    const hwprof_t h = {0, bus, bus_ctx};
    r->path_stack_err = hwprof_pir_path_check(&h) != kHwprofOk;
  }
  if (o->cop_check) r->vpf_dropped = bus->read32(bus_ctx, HWPROF_VPF_STAT_DROPPED_ADDR);
}

void runner_checks_report_program(const runner_checks_t *r, FILE *to) {
  fprintf(to, "  program: %" PRIu64 " instructions outside trap handlers, %" PRIu64 " taken transfers", r->prog_insns,
          r->prog_taken);
  if (r->o->range)
    fprintf(to, "; %" PRIu64 " retired in [0x%08" PRIx64 ", 0x%08" PRIx64 ") (%.1f%%)", r->in_range, r->o->range_lo,
            r->o->range_hi, r->prog_insns ? 100.0 * (double)r->in_range / (double)r->prog_insns : 0.0);
  if (r->ecalls) /* the firmware runtimes' last request is the finish after the program's main: what follows is
                    their report (docs/cpu-model.md) */
    fprintf(to, "; up to its last ecall: %" PRIu64 " instructions, %" PRIu64 " taken transfers", r->ecall_insns,
            r->ecall_taken);
  fputc('\n', to);
}

/* The program's memory, for reading counters back (0 outside RAM: not a counter of the program). */
static uint32_t ram_read32(void *ctx, uint32_t addr) {
  const rv_cpu_t *cpu = ctx;
  if (addr < RV_RAM_BASE || addr - RV_RAM_BASE > cpu->ram_size - 4u || (addr & 3u)) return 0;
  const uint8_t *p = cpu->ram + (addr - RV_RAM_BASE);
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A file closed: 0, or -1 when it had a write error (fclose reports the last one). */
static int close_ok(FILE *f) { return ferror(f) | fclose(f) ? -1 : 0; }

/* The path profile decoded from the counters into --path-profile; 0, or -1 (printed, no file left). */
static int path_profile(runner_checks_t *r) {
  const runner_opts_t *o = r->o;
  FILE *pf = fopen(o->path_profile, "w");
  pp_readback_stats_t ps;
  char perr[400];
  int rc = 0;
  if (pf == NULL) {
    fprintf(stderr, "%s: error: cannot write '%s'\n", r->tool, o->path_profile);
    return -1;
  }
  if (pp_readback(o->path_map, NULL, ram_read32, r->cpu, pf, &ps, perr, sizeof perr) != 0) {
    fprintf(stderr, "%s: path profile: %s\n", r->tool, perr);
    rc = -1;
  }
  if (close_ok(pf) != 0 && rc == 0) {
    fprintf(stderr, "%s: error: cannot write '%s'\n", r->tool, o->path_profile);
    rc = -1;
  }
  if (rc != 0) remove(o->path_profile); /* nothing half written */
  else if (!o->quiet)
    fprintf(stderr, "  path profile: %u functions, %" PRIu64 " counters, %" PRIu64 " paths counted %" PRIu64 " times, in %s\n",
            ps.functions, ps.counters, ps.paths, ps.count, o->path_profile);
  return rc;
}

int runner_checks_finish(runner_checks_t *r, int rc, bool exited, uint64_t interrupts) {
  const runner_opts_t *o = r->o;
  const char *tool = r->tool;
#define FAIL(code) \
  do {             \
    if (rc == 0) rc = (code); \
  } while (0)
  if (o->trace_check) {
    if (!o->quiet) trace_check_report(&r->tc, stderr);
    if (r->tc.failed) FAIL(HWPROF_EXIT_DIFFERS);
  }
  if (r->pcs) {
    fprintf(r->pcs, "end %" PRIu64 "\n", r->pcs_lines);
    if (close_ok(r->pcs) != 0) {
      fprintf(stderr, "%s: error: cannot write '%s'\n", tool, o->pcs);
      FAIL(HWPROF_EXIT_BAD_FILE);
    }
    r->pcs = NULL;
  }
  if (r->pc_counts) {
    FILE *f = r->pc_counts_file;
    uint64_t lines = 0;
    r->pc_counts_file = NULL;
    for (uint64_t w = 0; w < r->cpu->ram_size / 4; w++)
      if (r->pc_counts[w][0]) {
        fprintf(f, "%08" PRIx64 " %" PRIu64 " %" PRIu64 "\n", RV_RAM_BASE + 4 * w, r->pc_counts[w][0], r->pc_counts[w][1]);
        lines++;
      }
    fprintf(f, "end %" PRIu64 "\n", lines);
    if (close_ok(f) != 0 || r->pc_outside) {
      fprintf(stderr, "%s: error: %s: %s\n", tool, o->pc_counts,
              r->pc_outside ? "instructions retired outside RAM: not counted" : "write error");
      FAIL(HWPROF_EXIT_BAD_FILE);
    }
  }
  if (o->trace_out) {
    if (!r->drain_ok || r->drained != 0) {
      fprintf(stderr, "%s: error: %s\n", tool, r->drain_err[0] ? r->drain_err : "trace drain failed");
      FAIL(r->drain_ok ? HWPROF_EXIT_DIFFERS : HWPROF_EXIT_BAD_FILE);
    } else if (interrupts != 0) {
      fprintf(stderr, "%s: error: %s: the program took %" PRIu64 " interrupts: its handlers may have used the "
                      "trace controller (--trace-out wants a program without firmware)\n", tool, o->trace_out, interrupts);
      FAIL(HWPROF_EXIT_DIFFERS);
    } else if (!o->quiet) {
      fprintf(stderr, "  trace drain: %" PRIu64 " records in %s (%" PRIu64 " drains, %" PRIu64 " program instructions)\n",
              r->drain.w.records, o->trace_out, r->drain.drains, r->drain.insns);
    }
  }
  if (o->blocks_out) {
    if (block_truth_finish(&r->bt) != 0) {
      fprintf(stderr, "%s: error: %s: write error\n", tool, o->blocks_out);
      FAIL(HWPROF_EXIT_BAD_FILE);
    } else if (!o->quiet) {
      fprintf(stderr, "  blocks: %" PRIu64 " blocks, %" PRIu64 " instructions in %s\n", r->bt.w.blocks, r->bt.w.insns,
              o->blocks_out);
    }
  }
  if (o->path_truth) {
    FILE *pf = fopen(o->path_truth, "w");
    const bool ok = pf != NULL && path_truth_finish(&r->pth, pf, o->elf) == 0;
    if (pf == NULL || close_ok(pf) != 0 || !ok) {
      fprintf(stderr, "%s: error: cannot write '%s'\n", tool, o->path_truth);
      FAIL(HWPROF_EXIT_BAD_FILE);
    } else if (!o->quiet) {
      fprintf(stderr, "  path truth: %" PRIu64 " activations, %" PRIu64 " paths (%zu distinct), %" PRIu64
                      " block entries%s in %s\n", r->pth.activations, r->pth.cut, r->pth.used, r->pth.block_entries,
              r->pth.failed ? " (out of memory: incomplete)" : "", o->path_truth);
    }
  }
  if (o->phase_truth) {
    phase_truth_finish(&r->pt, r->cpu->instret);
    const int bad = close_ok(r->pt_file);
    r->pt_file = NULL;
    if (bad) {
      fprintf(stderr, "%s: error: cannot write '%s'\n", tool, o->phase_truth);
      FAIL(HWPROF_EXIT_BAD_FILE);
    }
  }
  if (o->edge_map) {
    long d = -1;
    if (!exited) fprintf(stderr, "%s: edge check: skipped, the program did not finish\n", tool);
    else if (r->flushed != 0) fprintf(stderr, "%s: edge check: %s\n", tool, edge_check_flush_why(r->flushed));
    else d = edge_check_finish(&r->ec, r->cpu->ram, RV_RAM_BASE, r->cpu->ram_size, o->edge_profile, o->edge_truth, stderr);
    if (d != 0) FAIL(HWPROF_EXIT_DIFFERS);
  }
  if (o->path_map) {
    int prc = -1;
    if (!exited) fprintf(stderr, "%s: path profile: skipped, the program did not finish\n", tool);
    else if (r->flushed != 0) fprintf(stderr, "%s: path profile: %s\n", tool, edge_check_flush_why(r->flushed));
    else if (r->path_stack_err)
      fprintf(stderr, "%s: path profile: the pir's path stack lost entries (PATH_STACK.ERR: it overflowed or underflowed, "
                      "or a longjmp landing could not put it back): the path counts are not exact\n", tool);
    else prc = path_profile(r);
    if (prc != 0) FAIL(HWPROF_EXIT_DIFFERS);
    if (!o->quiet && exited) prof_cov_report(&r->pcov, "  path profile:", 5, stderr);
  }
  if (o->dump_arg) {
    FILE *f = fopen(o->dump_path, "wb");
    bool ok = f != NULL && fwrite(r->cpu->ram + (o->dump_addr - RV_RAM_BASE), 1, (size_t)o->dump_len, f) == (size_t)o->dump_len;
    if (f != NULL && fclose(f) != 0) ok = false;
    if (!ok) {
      fprintf(stderr, "%s: error: cannot write '%s'\n", tool, o->dump_path);
      FAIL(HWPROF_EXIT_BAD_FILE);
    }
  }
  if (o->cop_check) {
    long d = -1;
    if (!exited) fprintf(stderr, "%s: cop check: skipped, the program did not finish\n", tool);
    else d = cop_check_finish(&r->cc, o->cop_check, r->vpf_dropped, stderr);
    if (d != 0) FAIL(HWPROF_EXIT_DIFFERS);
  }
  if (o->value_truth && value_truth_write(&r->vt, o->value_truth, stderr) != 0) FAIL(HWPROF_EXIT_DIFFERS);
#undef FAIL
  runner_checks_free(r);
  return rc;
}

void runner_checks_free(runner_checks_t *r) {
  const runner_opts_t *o = r->o;
  if (o == NULL) return;
  if (r->pcs) fclose(r->pcs);
  if (r->pc_counts_file) fclose(r->pc_counts_file);
  free(r->pc_counts);
  if (o->trace_check) trace_check_free(&r->tc);
  if (o->edge_map) edge_check_free(&r->ec);
  if (o->path_map) {
    prof_cov_free(&r->pcov);
    pm_free(&r->pcov_map);
  }
  if (o->path_truth) path_truth_free(&r->pth);
  if (o->phase_truth) phase_truth_free(&r->pt);
  if (r->pt_file) fclose(r->pt_file);
  if (o->cop_check) cop_check_free(&r->cc);
  if (o->value_truth) value_truth_free(&r->vt);
  memset(r, 0, sizeof *r);
}
