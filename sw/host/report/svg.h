/* Small SVG charts for the report page (docs/report.md, "One page per run"): horizontal bars, a
 * series over the run with marked instants, and a timeline of spans in rows. Each writes one
 * standalone SVG document that a browser shows through an <img> element. Host only. */
#ifndef HWPROF_SVG_H
#define HWPROF_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One bar a row: label[i] and value[i] >= 0, longest bar for the largest value; text[i] (may be
 * NULL) is printed after the bar, otherwise the value. */
void svg_bars(FILE *to, const char *title, const char *const *label, const double *value, const char *const *text, size_t n);

/* y[i] over x[i] (x ascending) as steps, with a vertical line at each of mark[nmark]. */
void svg_series(FILE *to, const char *title, const char *xlabel, const char *ylabel, const double *x, const double *y,
                size_t n, const double *mark, size_t nmark);

typedef struct {
  uint64_t start, end; /* [start, end) on the x axis */
  unsigned row;        /* < nrow */
  unsigned color;      /* an index into a fixed palette; ~0u: grey */
} svg_span_t;

/* Spans in rows labelled row_label[nrow] over [0, xmax), with vertical lines at mark[nmark]. Spans
 * of a row closer than a pixel to each other are drawn as one. */
void svg_timeline(FILE *to, const char *title, const char *xlabel, const char *const *row_label, unsigned nrow,
                  const svg_span_t *span, size_t nspan, uint64_t xmax, const uint64_t *mark, size_t nmark);

/* s with &, <, >, " and ' escaped (HTML and XML text and attributes). */
void svg_escape(FILE *to, const char *s);

#endif /* HWPROF_SVG_H */
