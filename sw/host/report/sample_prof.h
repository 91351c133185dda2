/* Sample profiles, the form AutoFDO gives profiles taken by sampling hardware counters, from an exact
 * edge profile and the program's DWARF: per function, its entries and, for each source line of its
 * body as an offset from the line it is declared on (with the line table's discriminator), the
 * most times an instruction of that line ran; code inlined into it (DW_TAG_inlined_subroutine) as
 * the inlined function's own profile, nested at the call site it replaced (docs/report.md). Two encodings: LLVM's text format
 * (clang -fprofile-sample-use) and GCC's AutoFDO file (gcc -fauto-profile). Host only. */
#ifndef HWPROF_SAMPLE_PROF_H
#define HWPROF_SAMPLE_PROF_H

#include <stdbool.h>
#include <stdio.h>

#include "dwarf_lines.h"
#include "hwprof_elf.h"
#include "profmap.h"

typedef enum {
  kSampleLlvmText, /* LLVM's text format; discriminators as LLVM's base discriminator */
  kSampleGccAfdo,  /* GCC's AutoFDO file (gcov format, version 2); discriminators as in DWARF */
} sample_format_t;

typedef struct {
  unsigned functions, lines;
  unsigned no_debug;       /* instrumented functions without a subprogram in the DWARF */
  unsigned inlined;        /* instructions of copies of other functions inlined into these (their
                              profiles nested at the call sites, as the DWARF shows them) */
  unsigned other_function; /* instructions whose line is in another file, or beyond the next function
                              declared in the file, and that the DWARF does not show as inlined (no
                              place for them in the profile) */
  unsigned left_out;       /* functions of the map without a profile */
  unsigned callsites;      /* call sites given their callee's profile as if inlined there */
} sample_stats_t;

/* The base discriminator LLVM keys a sample by, from a line table's encoded discriminator. */
unsigned sample_base_discriminator(unsigned disc);

/* Writes the profile of map m's program e to `to` in format fmt. With callsites, each direct call
 * that ran also gets, at its call site, its callee's samples scaled to the share of the callee's
 * entries made from there, as the profile of a build that inlined the callee there would (one level
 * deep): the compiler reading it can then inline hot calls and still find their counts. Returns 0,
 * or -1 with a reason in err. */
int sample_write(FILE *to, sample_format_t fmt, bool callsites, const pm_map_t *m, int64_t *const *counts,
                 const dl_lines_t *d, const hwprof_elf_t *e, sample_stats_t *st, char *err, size_t errlen);

#endif /* HWPROF_SAMPLE_PROF_H */
