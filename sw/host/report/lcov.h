/* An lcov tracefile (the format lcov's geninfo writes and genhtml reads) from an exact edge profile
 * and the program's DWARF line table: line, function and branch counts of every instrumented
 * function (docs/report.md). Host only. */
#ifndef HWPROF_LCOV_H
#define HWPROF_LCOV_H

#include <stdio.h>

#include "dwarf_lines.h"
#include "profmap.h"

typedef struct {
  unsigned files, lines, lines_hit, functions, functions_hit, branches, branches_hit;
  unsigned left_out;       /* functions of the map without a profile (uninstrumented, or absent) */
  char first_left_out[64]; /* the first of them */
} lcov_stats_t;

/* Writes the tracefile of map m's program to `to`: counts[f][e] from pm_read_profile, lines from d,
 * test_name for its TN line (may be ""). Line counts: the most times any instruction of the line
 * ran; function counts: the function's entries; branches: every instruction with two or more ways
 * out, numbered by its address in the original program (a conditional branch: taken first, then not
 * taken; an indirect jump: one per target). Returns 0, or -1 with a reason in err. */
int lcov_write(FILE *to, const pm_map_t *m, int64_t *const *counts, const dl_lines_t *d, const char *test_name,
               lcov_stats_t *st, char *err, size_t errlen);

#endif /* HWPROF_LCOV_H */
