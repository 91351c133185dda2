/* SVG charts; see svg.h. */
#include "svg.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#define FONT "font-family=\"sans-serif\" font-size=\"11\""

static const char *const kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                                       "#e377c2", "#17becf", "#bcbd22", "#aec7e8", "#ffbb78", "#98df8a"};
#define NPALETTE (sizeof kPalette / sizeof kPalette[0])

void svg_escape(FILE *to, const char *s) {
  for (; *s; s++) {
    switch (*s) {
      case '&': fputs("&amp;", to); break;
      case '<': fputs("&lt;", to); break;
      case '>': fputs("&gt;", to); break;
      case '"': fputs("&quot;", to); break;
      case '\'': fputs("&#39;", to); break;
      default: fputc(*s, to);
    }
  }
}

static void head(FILE *to, unsigned w, unsigned h, const char *title) {
  fprintf(to, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  fprintf(to, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\">\n", w, h, w, h);
  fprintf(to, "<rect width=\"%u\" height=\"%u\" fill=\"white\"/>\n<text x=\"8\" y=\"16\" %s font-weight=\"bold\">", w, h, FONT);
  svg_escape(to, title);
  fprintf(to, "</text>\n");
}

/* a round step of about a fifth of span, for axis ticks */
static double tick_step(double span) {
  if (!(span > 0)) return 1;
  const double raw = span / 5, p = pow(10, floor(log10(raw))), m = raw / p;
  return p * (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10);
}

static void number(FILE *to, double v) {
  const double a = fabs(v);
  if (a >= 1e9) fprintf(to, "%gG", v / 1e9);
  else if (a >= 1e6) fprintf(to, "%gM", v / 1e6);
  else if (a >= 1e3) fprintf(to, "%gk", v / 1e3);
  else fprintf(to, "%g", v);
}

/* the x axis of a plot area [x0, x0 + w) at y, for values [0, xmax), and its label */
static void x_axis(FILE *to, double x0, double w, double y, double xmax, const char *xlabel) {
  fprintf(to, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", x0, y, x0 + w, y);
  const double step = tick_step(xmax);
  for (double v = 0; v <= xmax * 1.0001; v += step) {
    const double x = x0 + w * v / xmax;
    fprintf(to, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>", x, y, x, y + 4);
    fprintf(to, "<text x=\"%.1f\" y=\"%.1f\" %s text-anchor=\"middle\">", x, y + 16, FONT);
    number(to, v);
    fprintf(to, "</text>\n");
  }
  fprintf(to, "<text x=\"%.1f\" y=\"%.1f\" %s text-anchor=\"middle\">", x0 + w / 2, y + 32, FONT);
  svg_escape(to, xlabel);
  fprintf(to, "</text>\n");
}

void svg_bars(FILE *to, const char *title, const char *const *label, const double *value, const char *const *text, size_t n) {
  const unsigned row = 18, lw = 260, bw = 420, w = lw + bw + 140, h = 30 + row * (unsigned)n + 10;
  double max = 0;
  for (size_t i = 0; i < n; i++)
    if (value[i] > max) max = value[i];
  head(to, w, h, title);
  for (size_t i = 0; i < n; i++) {
    const double y = 28 + row * (double)i, len = max > 0 ? bw * value[i] / max : 0;
    fprintf(to, "<text x=\"%u\" y=\"%.1f\" %s text-anchor=\"end\">", lw - 6, y + 12, FONT);
    svg_escape(to, label[i]);
    fprintf(to, "</text><rect x=\"%u\" y=\"%.1f\" width=\"%.1f\" height=\"%u\" fill=\"%s\"/>", lw, y + 2, len, row - 4,
            kPalette[0]);
    fprintf(to, "<text x=\"%.1f\" y=\"%.1f\" %s>", lw + len + 4, y + 12, FONT);
    if (text && text[i]) svg_escape(to, text[i]);
    else number(to, value[i]);
    fprintf(to, "</text>\n");
  }
  fprintf(to, "</svg>\n");
}

void svg_series(FILE *to, const char *title, const char *xlabel, const char *ylabel, const double *x, const double *y,
                size_t n, const double *mark, size_t nmark) {
  const double x0 = 60, y0 = 30, w = 700, h = 200;
  double xmax = 0, ymax = 0;
  for (size_t i = 0; i < n; i++) {
    if (x[i] > xmax) xmax = x[i];
    if (y[i] > ymax) ymax = y[i];
  }
  if (xmax <= 0) xmax = 1;
  if (ymax <= 0) ymax = 1;
  ymax *= 1.1;
  head(to, (unsigned)(x0 + w + 20), (unsigned)(y0 + h + 45), title);
  const double ystep = tick_step(ymax);
  for (double v = 0; v <= ymax; v += ystep) {
    const double py = y0 + h - h * v / ymax;
    fprintf(to, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>", x0, py, x0 + w, py);
    fprintf(to, "<text x=\"%.1f\" y=\"%.1f\" %s text-anchor=\"end\">", x0 - 4, py + 4, FONT);
    number(to, v);
    fprintf(to, "</text>\n");
  }
  fprintf(to, "<text transform=\"translate(12 %.1f) rotate(-90)\" %s text-anchor=\"middle\">", y0 + h / 2, FONT);
  svg_escape(to, ylabel);
  fprintf(to, "</text>\n");
  for (size_t i = 0; i < nmark; i++) {
    const double px = x0 + w * mark[i] / xmax;
    fprintf(to, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"red\" stroke-opacity=\"0.7\"/>\n", px, y0, px,
            y0 + h);
  }
  if (n) {
    fprintf(to, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", kPalette[0]);
    for (size_t i = 0; i < n; i++) { /* y[i] holds over (x[i - 1], x[i]] */
      const double px = x0 + w * (i ? x[i - 1] : 0) / xmax, py = y0 + h - h * y[i] / ymax;
      fprintf(to, "%.1f,%.1f %.1f,%.1f ", px, py, x0 + w * x[i] / xmax, py);
    }
    fprintf(to, "\"/>\n");
  }
  x_axis(to, x0, w, y0 + h, xmax, xlabel);
  fprintf(to, "</svg>\n");
}

void svg_timeline(FILE *to, const char *title, const char *xlabel, const char *const *row_label, unsigned nrow,
                  const svg_span_t *span, size_t nspan, uint64_t xmax, const uint64_t *mark, size_t nmark) {
  const double x0 = 130, y0 = 28, w = 700, row = 16;
  const double h = row * nrow;
  if (xmax == 0) xmax = 1;
  head(to, (unsigned)(x0 + w + 20), (unsigned)(y0 + h + 45), title);
  for (unsigned r = 0; r < nrow; r++) {
    fprintf(to, "<text x=\"%.1f\" y=\"%.1f\" %s text-anchor=\"end\">", x0 - 6, y0 + row * r + 12, FONT);
    svg_escape(to, row_label[r]);
    fprintf(to, "</text>\n");
  }
  /* per row, the span being drawn: extended while the next one starts within a pixel of its end */
  double *open_x = malloc(nrow * sizeof *open_x), *open_end = malloc(nrow * sizeof *open_end);
  unsigned *open_color = malloc(nrow * sizeof *open_color);
  if (open_x == NULL || open_end == NULL || open_color == NULL) nrow = 0;
  for (unsigned r = 0; r < nrow; r++) open_x[r] = -1;
  const double px_per = w / (double)xmax;
  for (size_t i = 0; i <= nspan; i++) {
    const svg_span_t *s = i < nspan ? &span[i] : NULL;
    for (unsigned r = 0; r < nrow; r++) {
      /* a gap of more than a pixel, or another color once the open span is a pixel wide (a narrower
         one takes the next span in, its color kept: the picture cannot show finer) */
      const bool flush = s == NULL || (s->row == r && open_x[r] >= 0 &&
                                       (x0 + s->start * px_per > open_end[r] + 1 ||
                                        (s->color != open_color[r] && open_end[r] - open_x[r] >= 1)));
      if (flush && open_x[r] >= 0) {
        const double width = open_end[r] - open_x[r] < 0.5 ? 0.5 : open_end[r] - open_x[r];
        fprintf(to, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n", open_x[r], y0 + row * r + 2,
                width, row - 4, open_color[r] == ~0u ? "#aaa" : kPalette[open_color[r] % NPALETTE]);
        open_x[r] = -1;
      }
    }
    if (s == NULL || s->row >= nrow) continue;
    if (open_x[s->row] < 0) {
      open_x[s->row] = x0 + s->start * px_per;
      open_color[s->row] = s->color;
    }
    open_end[s->row] = x0 + s->end * px_per;
  }
  free(open_x);
  free(open_end);
  free(open_color);
  for (size_t i = 0; i < nmark; i++) {
    const double px = x0 + mark[i] * px_per;
    fprintf(to, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"red\" stroke-opacity=\"0.7\"/>\n", px, y0, px,
            y0 + h);
  }
  x_axis(to, x0, w, y0 + h, (double)xmax, xlabel);
  fprintf(to, "</svg>\n");
}
