/* One static HTML page per run (docs/report.md, "One page per run"): a run directory's profiles
 * (edge, path, load-value, phase truth, whole-program paths) brought together as tables and SVG
 * plots that a browser opens without a server. Host only. */
#ifndef HWPROF_HTML_REPORT_H
#define HWPROF_HTML_REPORT_H

#include <stddef.h>

typedef struct {
  unsigned sections; /* sections drawn from the run's files */
  unsigned absent;   /* sections whose files the run does not have (the page says which) */
  unsigned tables, images;
} html_stats_t;

/* Reads run_dir (program.elf is required; every other file is optional, docs/report.md lists them)
 * and writes out_dir/index.html and its images (SVG files) beside it. Nothing is left in out_dir on an
 * error: returns -1 with a one-line reason naming the file in err. */
int html_report(const char *run_dir, const char *out_dir, html_stats_t *st, char *err, size_t errlen);

#endif /* HWPROF_HTML_REPORT_H */
