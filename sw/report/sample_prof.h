/* An LLVM sample profile (its text format, read by clang -fprofile-sample-use) from an exact edge
 * profile and the program's DWARF: per function, its entries and, for each source line of its body
 * as an offset from the line it is declared on (with the line table's discriminator), the most
 * times an instruction of that line ran (docs/report.md). Host only. */
#ifndef HWPROF_SAMPLE_PROF_H
#define HWPROF_SAMPLE_PROF_H

#include <stdio.h>

#include "dwarf_lines.h"
#include "profmap.h"

typedef struct {
  unsigned functions, lines;
  unsigned no_debug;     /* instrumented functions without a subprogram in the DWARF */
  unsigned other_file;   /* instructions of a function whose line is in another file (code inlined
                            from elsewhere: a flat profile has no place for it) */
  unsigned left_out;     /* functions of the map without a profile */
} sample_stats_t;

/* The base discriminator LLVM keys a sample by, from a line table's encoded discriminator. */
unsigned sample_base_discriminator(unsigned disc);

/* Writes the profile of map m's program to `to`. Returns 0, or -1 with a reason in err. */
int sample_write(FILE *to, const pm_map_t *m, int64_t *const *counts, const dl_lines_t *d, sample_stats_t *st,
                 char *err, size_t errlen);

#endif /* HWPROF_SAMPLE_PROF_H */
