/* hwprof-report: profiles read back from the hardware, written for the tools
 * people already use. docs/report.md. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf_lines.h"
#include "lcov.h"
#include "profmap.h"

static void usage(FILE *to) {
  fprintf(to, "usage: hwprof-report lcov [options] MAP PROFILE\n\n"
              "lcov: writes an lcov tracefile (lcov's .info format: genhtml "
              "renders it as HTML) of the\n"
              "program's exact edge profile: MAP is the map hwprof-instr wrote, "
              "PROFILE the edge profile\n"
              "read back from the hardware (hwprof-sim or hwprof-sc --edge-map=MAP "
              "--edge-profile=PROFILE).\n"
              "Source lines come from the DWARF line table of the program the map "
              "was made from (build\n"
              "it with -g). For every instrumented function: each source line's "
              "count (the most times any\n"
              "of its instructions ran), the function's entries, and every "
              "instruction with two or more\n"
              "ways out as a branch (conditional branches: taken, then not taken; "
              "indirect jumps: one per\n"
              "target). Functions left uninstrumented have no records; a summary "
              "on standard error names\n"
              "how many.\n"
              "  --program=ELF    the program the map was made from (default: the "
              "map's program line)\n"
              "  -o FILE          write the tracefile to FILE (default: standard "
              "output)\n"
              "  --test-name=NAME the tracefile's test name (TN; default none)\n"
              "  --quiet          no summary\n"
              "  --help           this text\n"
              "Exit status: 0; 1 a bad or inconsistent input file (one line naming "
              "it); 2 bad arguments.\n");
}

static int lcov_main(int argc, char **argv) {
  const char *program = NULL, *out = NULL, *test_name = "", *files[2];
  unsigned nfiles = 0;
  int quiet = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strncmp(a, "--program=", 10))
      program = a + 10;
    else if (!strcmp(a, "-o") && i + 1 < argc)
      out = argv[++i];
    else if (!strncmp(a, "--test-name=", 12))
      test_name = a + 12;
    else if (!strcmp(a, "--quiet"))
      quiet = 1;
    else if (!strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "hwprof-report: unknown option %s (see --help)\n", a);
      return 2;
    } else if (nfiles < 2)
      files[nfiles++] = a;
    else {
      fprintf(stderr,
              "hwprof-report: lcov takes a map and a profile, not %s too (see "
              "--help)\n",
              a);
      return 2;
    }
  }
  if (nfiles != 2) {
    fprintf(stderr, "hwprof-report: lcov needs MAP and PROFILE (see --help)\n");
    return 2;
  }
  for (const char *t = test_name; *t; t++)
    if (!(*t == '_' || (*t >= '0' && *t <= '9') || (*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z'))) {
      fprintf(stderr,
              "hwprof-report: --test-name=%s: only letters, digits and _ "
              "(lcov's rule)\n",
              test_name);
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
  int rc = 1;
  FILE *to = NULL;
  if (pm_read_profile(&m, files[1], &counts, err, sizeof err)) goto fail;
  if (program == NULL) program = m.program;
  if (dl_read(&d, program, err, sizeof err)) goto fail;
  to = out ? fopen(out, "w") : stdout;
  if (to == NULL) {
    snprintf(err, sizeof err, "%s: cannot create: %s", out, strerror(errno));
    goto fail;
  }
  lcov_stats_t st;
  if (lcov_write(to, &m, counts, &d, test_name, &st, err, sizeof err)) goto fail;
  if (out && fclose(to)) {
    to = NULL;
    snprintf(err, sizeof err, "%s: write error: %s", out, strerror(errno));
    goto fail;
  }
  to = NULL;
  if (!quiet) {
    fprintf(stderr,
            "hwprof-report: %s: %u source files; lines %u of %u hit (%.2f%%), "
            "functions %u of %u, branches %u of %u",
            out ? out : "(standard output)", st.files, st.lines_hit, st.lines,
            st.lines ? 100.0 * st.lines_hit / st.lines : 0.0, st.functions_hit, st.functions, st.branches_hit,
            st.branches);
    if (st.left_out) fprintf(stderr, "; %u functions without a profile (first: %s)", st.left_out, st.first_left_out);
    fprintf(stderr, "\n");
  }
  rc = 0;
  goto done;
fail:
  fprintf(stderr, "hwprof-report: %s\n", err);
  if (to && to != stdout) fclose(to);
  if (out && to) remove(out);
done:
  dl_free(&d);
  pm_free_counts(&m, counts);
  pm_free(&m);
  return rc;
}

int main(int argc, char **argv) {
  if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    usage(stdout);
    return 0;
  }
  if (argc >= 2 && !strcmp(argv[1], "lcov")) return lcov_main(argc - 2, argv + 2);
  fprintf(stderr, "hwprof-report: %s (see --help)\n", argc < 2 ? "no command given" : "unknown command");
  return 2;
}
