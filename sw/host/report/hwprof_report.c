/* hwprof-report: profiles read back from the hardware, written for the tools people already use.
 * docs/report.md. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf_lines.h"
#include "hwprof_elf.h"
#include "html_report.h"
#include "lcov.h"
#include "map_program.h"
#include "profmap.h"
#include "sample_prof.h"

static void usage(FILE *to) {
  fprintf(to,
          "usage: hwprof-report lcov [options] MAP PROFILE\n"
          "       hwprof-report sample [options] MAP PROFILE\n"
          "       hwprof-report afdo [options] MAP PROFILE -o FILE.afdo\n"
          "       hwprof-report html [options] RUN-DIR\n\n"
          "MAP is the map hwprof-instr wrote, PROFILE the edge profile read back from the hardware\n"
          "(hwprof-sim or hwprof-sc --edge-map=MAP --edge-profile=PROFILE). Source lines come from\n"
          "the DWARF of the program the map was made from (build it with -g).\n\n"
          "lcov: an lcov tracefile (lcov's .info format: genhtml renders it as HTML). For every\n"
          "instrumented function: each source line's count (the most times any of its instructions\n"
          "ran), the function's entries, and every instruction with two or more ways out as a branch\n"
          "(conditional branches: taken, then not taken; indirect jumps: one per target).\n"
          "sample: an LLVM sample profile in its text format, for clang -fprofile-sample-use: for\n"
          "every instrumented function with DWARF, its entries and, for each line of its body as an\n"
          "offset from its declaration line (with LLVM's base discriminator), the most times an\n"
          "instruction of that line ran; code inlined into it, as the DWARF's inlined subroutines show\n"
          "it, as the inlined function's profile nested at the call site it replaced (with clang,\n"
          "build with -fdebug-info-for-profiling).\n"
          "afdo: the same profile as GCC's AutoFDO file, for gcc -fauto-profile=FILE.afdo (the\n"
          "discriminators as the line table has them; needs -o).\n"
          "--callsites (sample, afdo): each direct call that ran also gets its callee's samples,\n"
          "scaled to the share of the callee's entries made from there, as if the profiled build had\n"
          "inlined it there (one level deep), so that the compiler may inline hot calls and keep their\n"
          "counts (make bench section 13: it helps GCC and hurts clang).\n"
          "Functions left uninstrumented have no records; a summary on standard error says how many.\n"
          "html: one static page for a run directory (tools/report_run.sh writes one): RUN-DIR/report/\n"
          "index.html and its SVG plots, or -o DIR. program.elf is required; the edge profile (edge.map,\n"
          "edge.prof), path profile (paths.paths), value profile (vp-profile.txt, vp.elf), phase truth\n"
          "(phases.txt), whole-program paths (wpp.*) and the platforms' logs (*.log) each give a section\n"
          "when present (docs/report.md).\n\n"
          "  --program=ELF    the program the map was made from (default: the map's program line)\n"
          "  -o FILE          write to FILE (default: standard output)\n"
          "  --test-name=NAME lcov: the tracefile's test name (TN; default none)\n"
          "  --quiet          no summary\n"
          "  --help           this text\n"
          "Exit status: 0; 1 a bad or inconsistent input file (one line naming it); 2 bad arguments.\n");
}

typedef enum { kLcov, kSample, kAfdo } cmd_t;

static int run(cmd_t cmd, int argc, char **argv) {
  const char *program = NULL, *out = NULL, *test_name = "", *files[2];
  unsigned nfiles = 0;
  int quiet = 0, callsites = 0;
  const char *name = cmd == kLcov ? "lcov" : cmd == kSample ? "sample" : "afdo";
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strncmp(a, "--program=", 10)) program = a + 10;
    else if (!strcmp(a, "-o") && i + 1 < argc) out = argv[++i];
    else if (cmd == kLcov && !strncmp(a, "--test-name=", 12)) test_name = a + 12;
    else if (!strcmp(a, "--quiet")) quiet = 1;
    else if (cmd != kLcov && !strcmp(a, "--callsites")) callsites = 1;
    else if (!strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "hwprof-report: %s: unknown option %s (see --help)\n", name, a);
      return 2;
    } else if (nfiles < 2) files[nfiles++] = a;
    else {
      fprintf(stderr, "hwprof-report: %s takes a map and a profile, not %s too (see --help)\n", name, a);
      return 2;
    }
  }
  if (nfiles != 2) {
    fprintf(stderr, "hwprof-report: %s needs MAP and PROFILE (see --help)\n", name);
    return 2;
  }
  if (cmd == kAfdo && out == NULL) {
    fprintf(stderr, "hwprof-report: afdo writes a binary file: give it with -o (see --help)\n");
    return 2;
  }
  for (const char *t = test_name; *t; t++)
    if (!(*t == '_' || (*t >= '0' && *t <= '9') || (*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z'))) {
      fprintf(stderr, "hwprof-report: --test-name=%s: only letters, digits and _ (lcov's rule)\n", test_name);
      return 2;
    }
  char err[512];
  pm_map_t m;
  if (pm_read(&m, files[0], err, sizeof err)) {
    fprintf(stderr, "hwprof-report: %s\n", err);
    return 1;
  }
  int64_t **counts = NULL;
  dl_lines_t d = {0};
  hwprof_elf_t elf = {0};
  int rc = 1;
  FILE *to = NULL;
  if (pm_read_profile(&m, files[1], &counts, err, sizeof err)) goto fail;
  if (program == NULL) program = m.program;
  if (dl_read(&d, program, err, sizeof err) ||
      hwprof_elf_read(&elf, program, cmd == kLcov ? HWPROF_ELF_SYMBOLS : HWPROF_ELF_RELOCATABLE, err, sizeof err) ||
      map_describes_program(&m, &elf, files[0], program, err, sizeof err))
    goto fail;
  to = out ? fopen(out, cmd == kAfdo ? "wb" : "w") : stdout;
  if (to == NULL) {
    snprintf(err, sizeof err, "%s: cannot create: %s", out, strerror(errno));
    goto fail;
  }
  lcov_stats_t ls;
  sample_stats_t ss;
  if (cmd == kLcov ? lcov_write(to, &m, counts, &d, test_name, &ls, err, sizeof err)
                   : sample_write(to, cmd == kSample ? kSampleLlvmText : kSampleGccAfdo, callsites, &m, counts, &d, &elf, &ss, err,
                                  sizeof err))
    goto fail;
  if (out && fclose(to)) {
    to = NULL;
    snprintf(err, sizeof err, "%s: write error: %s", out, strerror(errno));
    goto fail;
  }
  to = NULL;
  if (!quiet && cmd == kLcov) {
    fprintf(stderr,
            "hwprof-report: %s: %u source files; lines %u of %u hit (%.2f%%), functions %u of %u, branches %u of %u",
            out ? out : "(standard output)", ls.files, ls.lines_hit, ls.lines,
            ls.lines ? 100.0 * ls.lines_hit / ls.lines : 0.0, ls.functions_hit, ls.functions, ls.branches_hit,
            ls.branches);
    if (ls.left_out) fprintf(stderr, "; %u functions without a profile (first: %s)", ls.left_out, ls.first_left_out);
    fprintf(stderr, "\n");
  } else if (!quiet) {
    fprintf(stderr,
            "hwprof-report: %s: %u functions, %u line samples, %u call sites; %u functions without a profile, %u "
            "without DWARF; %u instructions of inlined copies nested at their call sites, %u of other functions' "
            "code left out\n",
            out ? out : "(standard output)", ss.functions, ss.lines, ss.callsites, ss.left_out, ss.no_debug,
            ss.inlined, ss.other_function);
  }
  rc = 0;
  goto done;
fail:
  fprintf(stderr, "hwprof-report: %s\n", err);
  if (to && to != stdout) fclose(to);
  if (out && to) remove(out);
done:
  dl_free(&d);
  hwprof_elf_free(&elf);
  pm_free_counts(&m, counts);
  pm_free(&m);
  return rc;
}

/* hwprof-report html [-o DIR] [--quiet] RUN-DIR */
static int run_html(int argc, char **argv) {
  const char *dir = NULL, *out = NULL;
  int quiet = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-o") && i + 1 < argc) out = argv[++i];
    else if (!strcmp(a, "--quiet")) quiet = 1;
    else if (!strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "hwprof-report: html: unknown option %s (see --help)\n", a);
      return 2;
    } else if (dir == NULL) dir = a;
    else {
      fprintf(stderr, "hwprof-report: html takes one run directory, not %s too (see --help)\n", a);
      return 2;
    }
  }
  if (dir == NULL) {
    fprintf(stderr, "hwprof-report: html needs RUN-DIR (see --help)\n");
    return 2;
  }
  char err[512], *def = NULL;
  if (out == NULL) {
    const size_t n = strlen(dir) + sizeof "/report";
    if ((def = malloc(n)) == NULL) {
      fprintf(stderr, "hwprof-report: out of memory\n");
      return 1;
    }
    snprintf(def, n, "%s/report", dir);
    out = def;
  }
  html_stats_t st;
  const int rc = html_report(dir, out, &st, err, sizeof err);
  if (rc) fprintf(stderr, "hwprof-report: %s\n", err);
  else if (!quiet)
    fprintf(stderr, "hwprof-report: %s/index.html: %u sections from the run's files (%u without them), %u tables, %u images\n",
            out, st.sections, st.absent, st.tables, st.images);
  free(def);
  return rc ? 1 : 0;
}

int main(int argc, char **argv) {
  if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    usage(stdout);
    return 0;
  }
  if (argc >= 2 && !strcmp(argv[1], "lcov")) return run(kLcov, argc - 2, argv + 2);
  if (argc >= 2 && !strcmp(argv[1], "sample")) return run(kSample, argc - 2, argv + 2);
  if (argc >= 2 && !strcmp(argv[1], "afdo")) return run(kAfdo, argc - 2, argv + 2);
  if (argc >= 2 && !strcmp(argv[1], "html")) return run_html(argc - 2, argv + 2);
  fprintf(stderr, "hwprof-report: %s (see --help)\n", argc < 2 ? "no command given" : "unknown command");
  return 2;
}
