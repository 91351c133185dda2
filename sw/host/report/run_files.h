/* The text files of a run directory that the report page reads besides the edge profile
 * (docs/report.md, "One page per run"): a path profile (hwprof-sim --path-profile), the phase truth
 * (hwprof-sim --phase-truth) and one table of hwprof-wpp analyze (PREFIX.paths.txt,
 * PREFIX.strata.txt). Each reader checks the file's first line and every line it keeps, and fails
 * with one line naming the file and line. Host only. */
#ifndef HWPROF_RUN_FILES_H
#define HWPROF_RUN_FILES_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  char fn[64];         /* the function */
  uint32_t head;       /* its region's head block */
  char end[8];         /* exit, back or end */
  uint64_t count;      /* times it ran */
  unsigned nitems;     /* blocks and child regions along it */
  uint32_t first;      /* the address of its first item */
  char items[120];     /* its items as the file has them, cut at a word ("..." appended) */
} rf_path_t;

typedef struct {
  char embodiment[16];
  rf_path_t *path; /* every path of the file, hottest first */
  size_t n;
  unsigned functions;
  uint64_t counters, paths, count; /* the file's end line */
} rf_paths_t;

int rf_read_paths(rf_paths_t *p, const char *path, char *err, size_t errlen);
void rf_free_paths(rf_paths_t *p);

typedef struct {
  uint64_t start, end;
  unsigned branches, hot, added, fresh, weight;
  int change; /* 0 none, 1 direction flips, 2 new hot code */
} rf_window_t;

typedef struct {
  uint64_t window; /* instructions per window */
  rf_window_t *w;
  size_t n;
  uint64_t changes;
} rf_phases_t;

int rf_read_phases(rf_phases_t *p, const char *path, char *err, size_t errlen);
void rf_free_phases(rf_phases_t *p);

typedef struct {
  uint32_t id;
  uint64_t heat;
  double heat_pct;
  uint64_t trips, runs;
  uint32_t max_trips, length;
  uint64_t first_insn;
  char where[96];
  char seq[120]; /* cut at a word ("..." appended) */
} rf_unit_t;

typedef struct {
  rf_unit_t *u; /* the first rows, hottest first */
  size_t n;
  uint64_t units; /* every unit the table lists */
} rf_units_t;

/* Keeps the first max rows of a hwprof-wpp table. */
int rf_read_units(rf_units_t *t, const char *path, size_t max, char *err, size_t errlen);
void rf_free_units(rf_units_t *t);

/* The whole of a small text file (a run's log), NUL-terminated; at most max bytes are kept and
 * "[...]" marks a cut. NULL with the reason in err. */
char *rf_read_text(const char *path, size_t max, char *err, size_t errlen);

#endif /* HWPROF_RUN_FILES_H */
