/* hwprof-instr: the instrumenter (seed 000's compiler part) for linked RV32 programs, and the
 * comparison of edge profiles. docs/instrumenter.md. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "func_paths.h"
#include "hwprof_exit.h"
#include "hwprof_cfg_prog.h"
#include "hwprof_meta.h"
#include "instrument.h"
#include "pp_compare.h"
#include "profmap.h"

static void usage(FILE *to) {
  fprintf(to,
          "usage: hwprof-instr instrument [options] PROGRAM.elf -o OUT.elf [--map=OUT.map]\n"
          "       hwprof-instr compare A.prof B.prof\n"
          "       hwprof-instr cfg PROGRAM.elf [--function=NAME]\n"
          "       hwprof-instr paths PROGRAM.elf [--function=NAME] [--max-paths=N] [--truth=FILE]\n"
          "       hwprof-instr paths-check PROFILE TRUTH\n"
          "       hwprof-instr paths-top PROFILE [--top=N] [--function=NAME]\n\n"
          "instrument: builds each function's CFG, chooses the profiled edges, assigns profile IDs,\n"
          "partitions functions into regions, inserts the profiling instructions and writes the\n"
          "instrumented program (run it on hwprof-sim or hwprof-sc) and the map (OUT.map by default).\n"
          "The program must be linked with -Wl,--emit-relocs -Wl,--no-relax. Direct calls of setjmp\n"
          "(and _setjmp, sigsetjmp, __sigsetjmp) get code that keeps the profile exact through a\n"
          "longjmp landing there (docs/instrumenter.md, \"setjmp and longjmp\").\n"
          "  --mode=M         all: every edge that can be counted; minimal: only the edges outside a\n"
          "                   spanning tree, the rest derived (default)\n"
          "  --k=N            bits of a relative profile ID, 2..12 (default 6); more IDs than 2^N - 1\n"
          "                   in a function split it into regions\n"
          "  --text-at=ADDR   where the instrumented code goes (default 0x%08" PRIx32 ")\n"
          "  --counters-at=ADDR  where the counter areas go (default 0x%08" PRIx32 ")\n"
          "  --counter-bytes=N  bytes per counter: the hardware's CntW / 8, 1, 2, 4 or 8 (default 4;\n"
          "                   edge profiles only)\n"
          "  --hwprof-base=ADDR  the hwprof registers (default 0x%08" PRIx32 ")\n"
          "  --skip=F1,F2     leave these functions uninstrumented\n"
          "  --paths=P        path profiles instead of edge profiles (docs/path.md): plain\n"
          "                   (Ball-Larus paths of each function), rb or gp (seed 004's hierarchical\n"
          "                   paths of the function and its natural loops, region-based: one array\n"
          "                   per region, or global: one sparse array); none: edges\n"
          "  --path-spill=BYTES  with --paths through the hardware: the path stack's spill area after\n"
          "                   the counters, whole 64-byte blocks (default %" PRIu32 "; 0: none, a stack\n"
          "                   deeper than the pir's 32 entries loses the path profile)\n"
          "  --link-spill=BYTES  a spill area for the pir's link stack after the counters (whole 64-byte\n"
          "                   blocks; 0: none): every direct call to a function entered only by calls\n"
          "                   is linked then, recursive ones too (docs/pir.md). Default: %" PRIu32 " with\n"
          "                   --paths through the hardware, 0 for edge profiles\n"
          "  --path-weights=PROFILE --path-weights-map=MAP  with --paths: weigh the chords (where the\n"
          "                   path sum's increments go) by the counts of an edge profile of the same\n"
          "                   program (hwprof-sim --edge-profile of an edge-profiling build, MAP its map)\n"
          "                   instead of the loops' guess; the numbering and the profile do not change\n"
          "  --paths-sw       with --paths: the software-only baseline: every path operation is\n"
          "                   inserted code, the sum and its stack in memory at --path-state-at=ADDR\n"
          "                   (default 0x%08" PRIx32 "); the same counters and map as the hardware's\n"
          "  --no-linked-calls  set and restore the pir around every call in software (prof.init in\n"
          "                   the callee and after the call): no linked or starting calls\n"
          "  --no-lazy-restore  restore the pir after every call that needs it in software, even\n"
          "                   where nothing reads it before it is set again\n"
          "  --no-carriers    keep every prof.init, prof.setoff and prof.id an instruction: fold none\n"
          "                   into the carrier words of the program's own instructions beside it\n"
          "                   (docs/pir.md; edge profiles)\n"
          "  --quiet          no summary\n"
          "compare: edge-by-edge comparison of two profiles; exit 4 if they differ.\n"
          "cfg: prints what the CFG layer sees in each function (or one): blocks with their immediate\n"
          "dominator and innermost loop, edges, natural loops with their nesting, or why there is no\n"
          "CFG. The program must be linked with -Wl,--emit-relocs.\n"
          "paths: Ball-Larus path numbering of each function (docs/path.md): its plain paths,\n"
          "and the counters its hierarchical path profile needs, region-based (one array per region:\n"
          "the function and each natural loop) and global (one array, the global path sums' range);\n"
          "--max-paths=N (default 1048576): a function or region with more is reported, not numbered.\n"
          "--truth=FILE: instead, number each path of a path-truth file (hwprof-sim --path-truth) with\n"
          "the function's Ball-Larus numbering and list them by number; exit 4 if one is not a path of\n"
          "the numbered graph or two get the same number.\n"
          "paths-check: compares a path profile read back from the hardware (hwprof-sim --path-map\n"
          "--path-profile) with the oracle's paths (hwprof-sim --path-truth on the original program),\n"
          "path for path, in every function the profile covers; exit 4 if they differ. Its coverage:\n"
          "the share of the run's paths and block entries (the oracle's) in those functions.\n"
          "paths-top: the N (default 5) hottest paths of each function and region of a path profile,\n"
          "with their share of the function's counted paths.\n"
          "Exit status (docs/tools.md): 0 done; 1 a bad input file; 2 bad arguments; 4 a difference.\n",
          (uint32_t)INSTR_TEXT_AT, (uint32_t)INSTR_COUNTERS_AT, (uint32_t)HWPROF_PLAT_REG_BASE, (uint32_t)INSTR_PATH_SPILL_BYTES,
          (uint32_t)INSTR_LINK_SPILL_BYTES, (uint32_t)INSTR_PATH_STATE_AT);
}

static int parse_addr(const char *s, uint32_t *v) {
  char *end;
  errno = 0;
  unsigned long long x = strtoull(s, &end, 0);
  if (*s == 0 || *end || errno || x > 0xffffffffull || (x & 3u)) return -1;
  *v = (uint32_t)x;
  return 0;
}

static int cmd_instrument(int argc, char **argv) {
  instr_opts_t o;
  instr_opts_default(&o);
  const char *in = NULL, *out = NULL, *map = NULL;
  int quiet = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strncmp(a, "--mode=", 7)) {
      if (!strcmp(a + 7, "all")) o.mode = kModeAll;
      else if (!strcmp(a + 7, "minimal")) o.mode = kModeMinimal;
      else {
        fprintf(stderr, "hwprof-instr: error: argument '%s': expects all or minimal\n", a);
        return HWPROF_EXIT_USAGE;
      }
    } else if (!strncmp(a, "--k=", 4)) {
      char *end;
      long k = strtol(a + 4, &end, 10);
      if (a[4] == 0 || *end || k < 2 || k > 12) {
        fprintf(stderr, "hwprof-instr: error: argument '%s': expects 2..12\n", a);
        return HWPROF_EXIT_USAGE;
      }
      o.k = (unsigned)k;
    } else if (!strncmp(a, "--text-at=", 10) || !strncmp(a, "--counters-at=", 14) || !strncmp(a, "--hwprof-base=", 14)) {
      uint32_t *dst = a[2] == 't' ? &o.text_at : a[2] == 'c' ? &o.counters_at : &o.hwprof_base;
      if (parse_addr(strchr(a, '=') + 1, dst)) {
        fprintf(stderr, "hwprof-instr: error: argument '%s': expects a word-aligned 32-bit address\n", a);
        return HWPROF_EXIT_USAGE;
      }
    } else if (!strncmp(a, "--counter-bytes=", 16)) {
      const char *v = a + 16;
      if (strcmp(v, "1") && strcmp(v, "2") && strcmp(v, "4") && strcmp(v, "8")) {
        fprintf(stderr, "hwprof-instr: error: argument '%s': expects 1, 2, 4 or 8\n", a);
        return HWPROF_EXIT_USAGE;
      }
      o.cnt_bytes = (unsigned)(*v - '0');
    } else if (!strncmp(a, "--paths=", 8)) {
      if (!strcmp(a + 8, "plain")) o.paths = kPathsPlain;
      else if (!strcmp(a + 8, "rb")) o.paths = kPathsRegions;
      else if (!strcmp(a + 8, "gp")) o.paths = kPathsGlobal;
      else if (!strcmp(a + 8, "none")) o.paths = kPathsNone;
      else {
        fprintf(stderr, "hwprof-instr: error: argument '%s': expects plain, rb, gp or none\n", a);
        return HWPROF_EXIT_USAGE;
      }
    } else if (!strcmp(a, "--paths-sw")) {
      o.paths_sw = true;
    } else if (!strncmp(a, "--path-state-at=", 16)) {
      if (parse_addr(a + 16, &o.path_state_at) || (o.path_state_at & 0xfffu)) {
        fprintf(stderr, "hwprof-instr: error: argument '%s': expects a 4 KiB-aligned 32-bit address\n", a);
        return HWPROF_EXIT_USAGE;
      }
    } else if (!strncmp(a, "--link-spill=", 13) || !strncmp(a, "--path-spill=", 13)) {
      uint32_t *v = a[2] == 'l' ? &o.link_spill : &o.path_spill; /* (both LIMIT fields are 16 bits) */
      if (parse_addr(a + 13, v) || (*v % 64u) || *v / 64u > HWPROF_PIR_PATH_SPILL_LIMIT_MASK) {
        fprintf(stderr, "hwprof-instr: error: argument '%s': expects whole 64-byte blocks, at most %u bytes\n", a,
                64u * (unsigned)HWPROF_PIR_PATH_SPILL_LIMIT_MASK);
        return HWPROF_EXIT_USAGE;
      }
    } else if (!strncmp(a, "--path-weights=", 15) && a[15]) {
      o.path_weights = a + 15;
    } else if (!strncmp(a, "--path-weights-map=", 19) && a[19]) {
      o.path_weights_map = a + 19;
    } else if (!strcmp(a, "--no-linked-calls")) {
      o.linked_calls = false;
    } else if (!strcmp(a, "--no-carriers")) {
      o.carriers = false;
    } else if (!strcmp(a, "--no-lazy-restore")) {
      o.lazy_restore = false;
    } else if (!strncmp(a, "--skip=", 7)) {
      o.skip = a + 7;
    } else if (!strncmp(a, "--map=", 6) && a[6]) {
      map = a + 6;
    } else if (!strcmp(a, "-o") && i + 1 < argc) {
      out = argv[++i];
    } else if (!strcmp(a, "--quiet")) {
      quiet = 1;
    } else if (a[0] == '-') {
      fprintf(stderr, "hwprof-instr: error: unknown option '%s' (see --help)\n", a);
      return HWPROF_EXIT_USAGE;
    } else if (in) {
      fprintf(stderr, "hwprof-instr: error: more than one program given ('%s', '%s')\n", in, a);
      return HWPROF_EXIT_USAGE;
    } else {
      in = a;
    }
  }
  if (in == NULL || out == NULL) {
    fprintf(stderr, "hwprof-instr: error: instrument needs PROGRAM.elf and -o OUT.elf (see --help)\n");
    return HWPROF_EXIT_USAGE;
  }
  char mapbuf[4096];
  if (map == NULL) {
    size_t n = strlen(out);
    if (n > 4 && !strcmp(out + n - 4, ".elf")) n -= 4;
    snprintf(mapbuf, sizeof mapbuf, "%.*s.map", (int)n, out);
    map = mapbuf;
  }
  o.report = quiet ? NULL : stderr;
  instr_stats_t st;
  char err[400];
  if (instr_run(in, out, map, &o, &st, err, sizeof err)) {
    if (strncmp(err, in, strlen(in)) == 0) fprintf(stderr, "hwprof-instr: error: %s\n", err);
    else fprintf(stderr, "hwprof-instr: error: %s: %s\n", in, err); /* a message about the code names its program */
    return HWPROF_EXIT_BAD_FILE;
  }
  if (!quiet && o.paths != kPathsNone) {
    fprintf(stderr,
            "hwprof-instr: %s -> %s, %s (%s paths): %u functions, %u instrumented, %u left uninstrumented; "
            "%u path operations carried by branches, jumps and returns, %u prof.path inserted; %u instructions "
            "inserted in all\n",
            in, out, map, o.paths == kPathsPlain ? "plain" : o.paths == kPathsGlobal ? "global" : "region-based", st.functions, st.instrumented, st.skipped,
            st.path_carried, st.path_inserted, st.inserted);
    if (o.path_weights != NULL)
      fprintf(stderr, "hwprof-instr: chords weighted by %s's counts in %u of the %u functions planned (the others by "
              "the loops' guess: not in the profile, or another graph)\n", o.path_weights, st.path_weighted,
              st.path_planned);
  }
  else if (!quiet)
    fprintf(stderr,
            "hwprof-instr: %s -> %s, %s (mode %s, K = %u): %u functions, %u instrumented, %u derived from their "
            "callers, %u left uninstrumented; %u edges, %u measured, %u block counters, %u regions; %u profiling "
            "instructions inserted, %u more carried by the program's own instructions (carrier words)\n",
            in, out, map, o.mode == kModeAll ? "all" : "minimal", o.k, st.functions, st.instrumented, st.derived, st.skipped,
            st.edges, st.measured, st.block_counters, st.regions, st.inserted, st.folded);
  if (!quiet && st.meta_bytes)
    fprintf(stderr, "hwprof-instr: run-time metadata for the program's firmware: %u bytes at 0x%08" PRIx32
                    " (its address in '%s')\n", (unsigned)st.meta_bytes, st.meta_at, HWPROF_META_SYMBOL);
  if (!quiet && (st.linked || st.started))
    fprintf(stderr, "hwprof-instr: %u functions linked: %u calls save and restore the caller's pir in the "
                    "hardware's link stack; %u calls start their callee's area (%u functions)\n", st.linked,
            st.linked_calls, st.started_calls, st.started);
  if (!quiet && st.restores)
    fprintf(stderr, "hwprof-instr: %u calls set the caller's pir again in software after they return; %u of "
                    "those restores left out (nothing reads the pir before it is set again)\n", st.restores,
            st.restores_dead);
  if (!quiet && st.landings)
    fprintf(stderr, "hwprof-instr: %u calls of functions that return twice (setjmp): a longjmp landing there puts "
                    "the pir's stacks back to the frame's depths (table of %u entries at 0x%08" PRIx32 ")\n",
            st.landings, (unsigned)INSTR_LANDING_ENTRIES, st.landing_at);
  if (!quiet && st.relaxed)
    fprintf(stderr, "hwprof-instr: %u conditional branches relaxed (their targets went out of reach): each now "
                    "branches to a jump behind it\n", st.relaxed);
  return 0;
}

static int cmd_compare(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "hwprof-instr: error: compare needs two profile files (see --help)\n");
    return HWPROF_EXIT_USAGE;
  }
  char err[300];
  long edges = 0;
  long d = pm_compare_profiles(argv[0], argv[1], stdout, &edges, err, sizeof err);
  if (d < 0) {
    fprintf(stderr, "hwprof-instr: error: %s\n", err);
    return HWPROF_EXIT_BAD_FILE;
  }
  printf("compare: %ld edges, %ld differences\n", edges, d);
  return d ? HWPROF_EXIT_DIFFERS : HWPROF_EXIT_OK;
}

static int cmd_paths_check(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "hwprof-instr: error: paths-check needs a path profile and a path-truth file (see --help)\n");
    return HWPROF_EXIT_USAGE;
  }
  char err[400];
  pp_compare_stats_t st;
  const long d = pp_compare_files(argv[0], argv[1], stdout, &st, err, sizeof err);
  if (d < 0) {
    fprintf(stderr, "hwprof-instr: error: %s\n", err);
    return HWPROF_EXIT_BAD_FILE;
  }
  const double pc = st.run_paths ? 100.0 * (double)st.covered_paths / (double)st.run_paths : 100.0;
  const double ec = st.run_entries ? 100.0 * (double)st.covered_entries / (double)st.run_entries : 100.0;
  printf("paths-check: %u functions, %" PRIu64 " paths counted %" PRIu64 " times by the oracle, %ld differences; "
         "%u functions the oracle saw run have no path profile, %" PRIu64 " paths left open (by the run's end or a longjmp); "
         "coverage: %.2f%% of the run's paths, %.2f%% of its block entries\n",
         st.functions, st.paths, st.count, d, st.not_profiled, st.open, pc, ec);
  return d ? HWPROF_EXIT_DIFFERS : HWPROF_EXIT_OK;
}

/* The hottest paths of a path-profile file, per function and region: the file is already sorted
 * hottest first within each region; this prints the first N of each with their share. */
static int cmd_paths_top(int argc, char **argv) {
  const char *file = NULL, *only = NULL;
  long top = 5;
  for (int i = 0; i < argc; i++) {
    char *end;
    if (!strncmp(argv[i], "--top=", 6)) {
      top = strtol(argv[i] + 6, &end, 10);
      if (argv[i][6] == 0 || *end || top < 1) {
        fprintf(stderr, "hwprof-instr: error: argument '%s': expects a positive count\n", argv[i]);
        return HWPROF_EXIT_USAGE;
      }
    } else if (!strncmp(argv[i], "--function=", 11) && argv[i][11]) {
      only = argv[i] + 11;
    } else if (argv[i][0] == '-' || file) {
      fprintf(stderr, "hwprof-instr: error: paths-top: unexpected argument '%s' (see --help)\n", argv[i]);
      return HWPROF_EXIT_USAGE;
    } else {
      file = argv[i];
    }
  }
  if (file == NULL) {
    fprintf(stderr, "hwprof-instr: error: paths-top needs a path profile (see --help)\n");
    return HWPROF_EXIT_USAGE;
  }
  FILE *f = fopen(file, "r");
  if (f == NULL) {
    fprintf(stderr, "hwprof-instr: error: %s: cannot open: %s\n", file, strerror(errno));
    return HWPROF_EXIT_BAD_FILE;
  }
  static char line[65536];
  char fn[256] = "", region[64] = "";
  unsigned lineno = 0;
  long shown = 0;
  bool ended = false, show = false, header_done = false;
  uint64_t fn_count = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    if (lineno == 1 && strcmp(line, "hwprof-path-profile 1\n")) {
      fprintf(stderr, "hwprof-instr: error: %s:1: not a path-profile file (hwprof-path-profile 1)\n", file);
      fclose(f);
      return HWPROF_EXIT_BAD_FILE;
    }
    unsigned long long cnt;
    unsigned r;
    char head[32], rest[16];
    if (sscanf(line, "function %255s %*s counters %*u regions %*u paths %*u count %llu", fn, &cnt) == 2) {
      fn_count = cnt;
      show = only == NULL || !strcmp(only, fn);
      header_done = false;
      region[0] = 0;
    } else if (sscanf(line, "region %u head %31s", &r, head) == 2) {
      snprintf(region, sizeof region, "%u (head %s)", r, head);
      shown = 0;
    } else if (!strncmp(line, "path ", 5) && show && shown < top && sscanf(line, "path %llu %15s", &cnt, rest) == 2) {
      if (!header_done) printf("%s: %" PRIu64 " paths counted\n", fn, fn_count);
      header_done = true;
      if (shown == 0) printf("  region %s\n", region);
      printf("    %6.2f%%  %s", fn_count ? 100.0 * (double)cnt / (double)fn_count : 0.0, line + 5);
      shown++;
    } else if (!strncmp(line, "end ", 4)) {
      ended = true;
    }
  }
  fclose(f);
  if (!ended) {
    fprintf(stderr, "hwprof-instr: error: %s: no end line: the file is cut short\n", file);
    return HWPROF_EXIT_BAD_FILE;
  }
  return 0;
}

static void print_cfg(const hwprof_cfg_fn_t *f) {
  const hwprof_cfg_func_t *g = &f->cfg;
  printf("function %s 0x%08" PRIx32 "..0x%08" PRIx32, f->name, f->code.lo, f->code.hi);
  if (f->multi) {
    printf(": several entry points, no CFG\n");
    return;
  }
  if (g->why != HWPROF_CFG_OK) {
    printf(": no CFG: ");
    printf(hwprof_cfg_why_text[g->why], g->why_arg);
    printf("\n");
    return;
  }
  printf(": %u blocks, %u edges, %u loops, %u irreducible edges", g->nblk, g->nedge, g->nloop, g->irreducible);
  if (g->dispatch >= 0) printf("; block %d is the dispatch node of its indirect jumps", g->dispatch);
  printf("\n");
  for (unsigned b = 0; b < g->nblk; b++)
    printf("  block %u 0x%08" PRIx32 "..0x%08" PRIx32 " idom %d loop %d\n", b, g->blk[b].start, g->blk[b].end,
           g->idom[b], g->loop_of[b]);
  for (unsigned e = 0; e < g->nedge; e++) {
    const hwprof_cfg_edge_t *x = &g->edge[e];
    printf("  edge %s ", hwprof_cfg_kind_names[x->kind]);
    if (x->src < 0) printf("exit");
    else printf("%d", x->src);
    if (x->dst < 0) printf(" -> exit\n");
    else printf(" -> %d\n", x->dst);
  }
  for (unsigned l = 0; l < g->nloop; l++)
    printf("  loop %u header %d parent %d depth %u blocks %u\n", l, g->loop[l].header, g->loop[l].parent,
           g->loop[l].depth, g->loop[l].nblocks);
}

/* The program of a subcommand that reads CFGs (in may be NULL: none given); the exit status after
 * the error, or 0. */
static int open_program(const char *cmd, const char *in, hwprof_elf_t *e, hwprof_cfg_prog_t *p) {
  if (in == NULL) {
    fprintf(stderr, "hwprof-instr: error: %s needs a program (see --help)\n", cmd);
    return HWPROF_EXIT_USAGE;
  }
  char err[400];
  if (hwprof_elf_read(e, in, HWPROF_ELF_RELOCATABLE, err, sizeof err) ||
      (hwprof_cfg_prog_read(p, e, err, sizeof err) && (hwprof_elf_free(e), 1))) {
    fprintf(stderr, "hwprof-instr: error: %s\n", err);
    return HWPROF_EXIT_BAD_FILE;
  }
  return 0;
}

static int cmd_cfg(int argc, char **argv) {
  const char *in = NULL, *only = NULL;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    } else if (!strncmp(argv[i], "--function=", 11)) {
      only = argv[i] + 11;
    } else if (argv[i][0] == '-') {
      fprintf(stderr, "hwprof-instr: error: unknown option '%s' (see --help)\n", argv[i]);
      return HWPROF_EXIT_USAGE;
    } else if (in == NULL) {
      in = argv[i];
    } else {
      fprintf(stderr, "hwprof-instr: error: argument '%s': one program only\n", argv[i]);
      return HWPROF_EXIT_USAGE;
    }
  }
  hwprof_elf_t e;
  hwprof_cfg_prog_t p;
  int rc = open_program("cfg", in, &e, &p), found = 0;
  if (rc) return rc;
  for (unsigned i = 0; i < p.nfn && rc == 0; i++) {
    if (only && strcmp(p.fn[i].name, only)) continue;
    found = 1;
    if (!p.fn[i].multi && hwprof_cfg_prog_build(&p, i)) {
      fprintf(stderr, "hwprof-instr: error: out of memory\n");
      rc = HWPROF_EXIT_BAD_FILE;
      break;
    }
    print_cfg(&p.fn[i]);
  }
  if (only && !found) {
    fprintf(stderr, "hwprof-instr: error: %s: no function '%s'\n", in, only);
    rc = HWPROF_EXIT_USAGE;
  }
  hwprof_cfg_prog_free(&p);
  hwprof_elf_free(&e);
  return rc;
}

/* hwprof-instr paths --truth: each path of the oracle's file numbered (docs/path.md). */
static int paths_truth(hwprof_cfg_prog_t *p, const char *truth, uint64_t max_paths, uint8_t *mem, size_t arena_bytes) {
  FILE *f = fopen(truth, "r");
  if (f == NULL) {
    fprintf(stderr, "hwprof-instr: error: cannot read '%s': %s\n", truth, strerror(errno));
    return HWPROF_EXIT_BAD_FILE;
  }
  char line[1u << 16], name[128];
  unsigned lineno = 0, numbered = 0, skipped = 0, bad = 0, clashes = 0;
  int fn = -1, rc = 0;
  hwprof_arena_t a = {mem, arena_bytes, 0};
  pp_func_t pf;
  pp_numbering_t n;
  bool have = false;
  uint64_t *sums = NULL;
  size_t nsums = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    unsigned long long lo, count;
    char end[8];
    int off;
    if (lineno == 1) {
      if (strcmp(line, "hwprof-path-truth 1\n")) {
        fprintf(stderr, "hwprof-instr: error: %s:1: not a path-truth file\n", truth);
        rc = HWPROF_EXIT_BAD_FILE;
        break;
      }
    } else if (sscanf(line, "function %127s %llx", name, &lo) == 2) {
      fn = hwprof_cfg_prog_fn_at(p, (uint32_t)lo);
      have = false;
      nsums = 0;
      a.used = 0;
      if (fn >= 0 && !p->fn[fn].multi && !hwprof_cfg_prog_build(p, (unsigned)fn) && p->fn[fn].cfg.why == HWPROF_CFG_OK &&
          pp_func_from_cfg(&p->fn[fn].cfg, &a, &pf) == kPpOk && pp_number(&pf.g, pf.back, max_paths, &a, &n) == kPpOk) {
        have = true;
        sums = hwprof_arena_alloc(&a, sizeof *sums * 65536u);
        if (sums == NULL) have = false;
        printf("function %s 0x%08llx: %" PRIu64 " paths\n", name, lo, n.paths);
      }
    } else if (sscanf(line, "path %llu %7s %n", &count, end, &off) == 2) {
      if (!have || !strcmp(end, "open")) { /* no numbering, or cut by the end of the run */
        skipped++;
        continue;
      }
      const hwprof_cfg_func_t *cf = &p->fn[fn].cfg;
      uint32_t blk[4096], len = 0;
      const char *q = line + off;
      unsigned long long at;
      int used;
      while (len < 4096 && sscanf(q, "%llx%n", &at, &used) == 1) {
        if (cf->dispatch >= 0 && at == cf->blk[cf->dispatch].start) { /* the dispatch node: empty, at the end */
          blk[len++] = (uint32_t)cf->dispatch;
          q += used;
          continue;
        }
        if (at < cf->lo || at >= cf->hi || cf->blk_of[(at - cf->lo) / 4u] < 0) {
          fprintf(stderr, "hwprof-instr: error: %s:%u: 0x%llx is not a block of %s\n", truth, lineno, at, name);
          rc = HWPROF_EXIT_BAD_FILE;
          break;
        }
        blk[len++] = (uint32_t)cf->blk_of[(at - cf->lo) / 4u];
        q += used;
      }
      if (rc) break;
      uint64_t sum;
      const char *why = "";
      if (len == 0 || !pp_number_path(&n, blk, len, !strcmp(end, "back"), &sum, &why)) {
        printf("  NOT A PATH (%s): %s", why, line);
        bad++;
        continue;
      }
      for (size_t k = 0; k < nsums; k++) clashes += sums[k] == sum;
      if (nsums < 65536u) sums[nsums++] = sum;
      numbered++;
      printf("  path %" PRIu64 " count %llu: %s", sum, count, line + off);
    }
  }
  fclose(f);
  if (rc) return rc;
  printf("paths --truth: %u paths numbered, %u skipped (open at the end of the run, or no numbering: no CFG, too many "
         "paths), %u not paths of "
         "the numbered graph, %u numbers shared\n", numbered, skipped, bad, clashes);
  return bad || clashes ? HWPROF_EXIT_DIFFERS : HWPROF_EXIT_OK;
}

/* hwprof-instr paths: what numbering each function's paths gives (docs/path.md). */
static int cmd_paths(int argc, char **argv) {
  const char *in = NULL, *only = NULL, *truth = NULL;
  uint64_t max_paths = 1u << 20;
  for (int i = 0; i < argc; i++) {
    char *end;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    } else if (!strncmp(argv[i], "--function=", 11)) {
      only = argv[i] + 11;
    } else if (!strncmp(argv[i], "--truth=", 8) && argv[i][8]) {
      truth = argv[i] + 8;
    } else if (!strncmp(argv[i], "--max-paths=", 12)) {
      errno = 0;
      max_paths = strtoull(argv[i] + 12, &end, 0);
      if (argv[i][12] == 0 || *end || errno || max_paths == 0) {
        fprintf(stderr, "hwprof-instr: error: argument '%s': expects a positive number\n", argv[i]);
        return HWPROF_EXIT_USAGE;
      }
    } else if (argv[i][0] == '-') {
      fprintf(stderr, "hwprof-instr: error: unknown option '%s' (see --help)\n", argv[i]);
      return HWPROF_EXIT_USAGE;
    } else if (in == NULL) {
      in = argv[i];
    } else {
      fprintf(stderr, "hwprof-instr: error: argument '%s': one program only\n", argv[i]);
      return HWPROF_EXIT_USAGE;
    }
  }
  hwprof_elf_t e;
  hwprof_cfg_prog_t p;
  const int orc = open_program("paths", in, &e, &p);
  if (orc) return orc;
  const size_t arena_bytes = (size_t)64 << 20;
  uint8_t *mem = malloc(arena_bytes);
  if (mem == NULL) {
    fprintf(stderr, "hwprof-instr: error: out of memory\n");
    hwprof_cfg_prog_free(&p);
    hwprof_elf_free(&e);
    return HWPROF_EXIT_BAD_FILE;
  }
  if (truth) {
    const int trc = paths_truth(&p, truth, max_paths, mem, arena_bytes);
    free(mem);
    hwprof_cfg_prog_free(&p);
    hwprof_elf_free(&e);
    return trc;
  }
  printf("%-32s %6s %5s %12s %12s %12s  %s\n", "function", "blocks", "loops", "paths", "rb-counters", "gp-counters",
         "note");
  unsigned nfn = 0, numbered = 0, too_many = 0, other = 0, no_cfg = 0, irreducible = 0;
  uint64_t sum_paths = 0, sum_rb = 0, sum_gp = 0;
  int rc = 0, found = 0;
  for (unsigned i = 0; i < p.nfn && rc == 0; i++) {
    if (only && strcmp(p.fn[i].name, only)) continue;
    found = 1;
    nfn++;
    if (p.fn[i].multi || hwprof_cfg_prog_build(&p, i) || p.fn[i].cfg.why != HWPROF_CFG_OK) {
      printf("%-32s %6s %5s %12s %12s %12s  no CFG\n", p.fn[i].name, "-", "-", "-", "-", "-");
      no_cfg++;
      continue;
    }
    const hwprof_cfg_func_t *f = &p.fn[i].cfg;
    hwprof_arena_t a = {mem, arena_bytes, 0};
    pp_func_t pf;
    pp_numbering_t n;
    pp_status_t st = pp_func_from_cfg(f, &a, &pf);
    if (st == kPpOk) st = pp_number(&pf.g, pf.back, max_paths, &a, &n);
    if (st != kPpOk) {
      printf("%-32s %6u %5u %12s %12s %12s  %s\n", p.fn[i].name, f->nblk, f->nloop, "-", "-", "-", pp_status_str(st));
      too_many += st == kPpTooManyPaths;
      other += st != kPpTooManyPaths;
      continue;
    }
    numbered++;
    sum_paths += n.paths;
    /* the hierarchical profile's counters: per region (region-based), one range (global) */
    char rb[24] = "-", gp[24] = "-";
    const char *note = "";
    /* one region (an irreducible loop, a dispatch node): its hierarchical paths are its plain paths,
     * but counted once per path, not once per back edge it may have come by (Re, Rx join them) */
    const bool one = !pf.reducible || f->dispatch >= 0;
    if (one) note = pf.reducible ? "dispatch node: one region" : "irreducible: one region";
    irreducible += !pf.reducible;
    uint64_t total = 0;
    pp_status_t rs = kPpOk;
    for (uint32_t r = 0; r < pf.h.nregion && rs == kPpOk; r++) {
      pp_graph_t rg;
      uint32_t *node_of, *local_of;
      pp_numbering_t rn;
      rs = pp_rb_augment(&pf.h, r, &a, &rg, &node_of, &local_of);
      if (rs == kPpOk) rs = pp_number(&rg, NULL, max_paths, &a, &rn);
      if (rs == kPpOk) total += rn.paths;
    }
    if (rs == kPpOk) {
      snprintf(rb, sizeof rb, "%" PRIu64, total);
      sum_rb += total;
    } else {
      note = pp_status_str(rs);
    }
    bool lands = false;
    for (uint32_t b = 0; b < f->nblk; b++) lands |= f->blk[b].landing;
    if ((one || lands) && rs == kPpOk) { /* the global graph of one region is its region-based graph */
      snprintf(gp, sizeof gp, "%" PRIu64, total);
      sum_gp += total;
      if (lands) note = "a longjmp lands: global is region-based";
    } else if (!one) {
      pp_graph_t gg;
      bool *added;
      pp_numbering_t gn;
      pp_status_t gs = pp_gp_augment(&pf.h, &a, &gg, &added);
      if (gs == kPpOk) gs = pp_number(&gg, NULL, max_paths, &a, &gn);
      if (gs == kPpOk) {
        snprintf(gp, sizeof gp, "%" PRIu64, gn.paths);
        sum_gp += gn.paths;
      } else if (*note == 0) {
        note = pp_status_str(gs);
      }
    }
    printf("%-32s %6u %5u %12" PRIu64 " %12s %12s  %s\n", p.fn[i].name, f->nblk, f->nloop, n.paths, rb, gp, note);
  }
  if (only && !found) {
    fprintf(stderr, "hwprof-instr: error: %s: no function '%s'\n", in, only);
    rc = HWPROF_EXIT_USAGE;
  }
  if (rc == 0)
    printf("paths: %u functions: %u numbered (%" PRIu64 " paths; counters: region-based %" PRIu64 ", global %" PRIu64
           "), %u with more than %" PRIu64 " paths, %u refused otherwise, %u without a CFG, %u irreducible (one region)\n",
           nfn, numbered, sum_paths, sum_rb, sum_gp, too_many, max_paths, other, no_cfg, irreducible);
  free(mem);
  hwprof_cfg_prog_free(&p);
  hwprof_elf_free(&e);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (!strcmp(argv[1], "instrument")) return cmd_instrument(argc - 2, argv + 2);
  if (!strcmp(argv[1], "compare")) return cmd_compare(argc - 2, argv + 2);
  if (!strcmp(argv[1], "cfg")) return cmd_cfg(argc - 2, argv + 2);
  if (!strcmp(argv[1], "paths")) return cmd_paths(argc - 2, argv + 2);
  if (!strcmp(argv[1], "paths-check")) return cmd_paths_check(argc - 2, argv + 2);
  if (!strcmp(argv[1], "paths-top")) return cmd_paths_top(argc - 2, argv + 2);
  fprintf(stderr, "hwprof-instr: error: unknown command '%s' (instrument, compare, cfg, paths, paths-check or paths-top; see --help)\n",
          argv[1]);
  return HWPROF_EXIT_USAGE;
}
