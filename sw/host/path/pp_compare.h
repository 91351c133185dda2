/* Comparing a path profile read back from the hardware (pp_readback.h) with the oracle's paths
 * (hwprof-sim --path-truth, cut from the retire stream alone; docs/path.md): path for path,
 * count for count, in every function the profile covers. Regions are named by their heads'
 * addresses, so the two sides need not number them alike. Host only. */
#ifndef HWPROF_PATH_COMPARE_H
#define HWPROF_PATH_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
  unsigned functions;       /* functions compared */
  unsigned not_profiled;    /* functions the oracle saw run that the profile does not cover */
  uint64_t paths, count;    /* distinct paths (regions' paths) and their counts compared */
  uint64_t open;            /* the oracle's paths still open at the end of the run (never counted) */
  /* coverage: the run's plain paths and block entries (the oracle's, open ones included), and
   * those in functions the profile covers */
  uint64_t run_paths, run_entries, covered_paths, covered_entries;
} pp_compare_stats_t;

/* Prints the first differences to report; returns the number of paths whose counts differ (or
 * that one side lacks), or -1 with a one-line reason naming the file in err. */
long pp_compare_files(const char *profile, const char *truth, FILE *report, pp_compare_stats_t *st, char *err,
                      size_t errlen);

#endif /* HWPROF_PATH_COMPARE_H */
