/* The report page of a run directory; see html_report.h. */
#define _POSIX_C_SOURCE 200809L /* mkdir, access */
#include "html_report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "block_counts.h"
#include "dwarf_lines.h"
#include "hwprof_elf.h"
#include "map_program.h"
#include "profmap.h"
#include "run_files.h"
#include "svg.h"
#include "vp_estimate.h"
#include "vp_profile.h"
#include "wpp_index.h"

#define TOP_ROWS 20   /* rows of each "hottest" table */
#define TOP_BARS 15   /* bars of each bar chart */
#define WPP_ROWS 12   /* paths given a row of their own in the timeline */
#define LOG_BYTES (64u << 10)
#define SRC_BYTES (8u << 20)

/* A source file's text split into lines, read when a table first shows one of its lines. */
typedef struct {
  bool tried;
  char *text;
  char **line; /* line[k] is line k + 1 */
  unsigned nline;
} src_t;

typedef struct {
  const char *dir, *out;
  char *err;
  size_t errlen;
  FILE *page;
  html_stats_t *st;
  dl_lines_t prog; /* program.elf */
  src_t *src;      /* one per file of prog */
  char **written;  /* files made in out (their final names), removed on an error */
  size_t nwritten;
} ctx_t;

static int fail(ctx_t *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->err, c->errlen, fmt, ap);
  va_end(ap);
  return -1;
}

/* dir/name, malloc'd */
static char *join(const char *dir, const char *name) {
  const size_t n = strlen(dir) + strlen(name) + 2;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%s", dir, name);
  return p;
}

/* the run's file name, or NULL when the run does not have it */
static char *run_file(const ctx_t *c, const char *name) {
  char *p = join(c->dir, name);
  if (p && access(p, R_OK) != 0) {
    free(p);
    p = NULL;
  }
  return p;
}

static void esc(ctx_t *c, const char *s) { svg_escape(c->page, s); }

/* n with thousands separators */
static const char *num(char buf[32], uint64_t n) {
  char raw[24];
  int len = snprintf(raw, sizeof raw, "%" PRIu64, n), o = 0;
  for (int i = 0; i < len; i++) {
    if (i && (len - i) % 3 == 0) buf[o++] = ',';
    buf[o++] = raw[i];
  }
  buf[o] = '\0';
  return buf;
}

/* An image of the page: draws it into out/name (the caller's svg_* call gets the file). */
static FILE *image_open(ctx_t *c, const char *name) {
  char *path = join(c->out, name);
  char **g = path ? realloc(c->written, (c->nwritten + 1) * sizeof *g) : NULL;
  if (g == NULL) {
    free(path);
    fail(c, "out of memory");
    return NULL;
  }
  c->written = g;
  c->written[c->nwritten++] = path;
  FILE *f = fopen(path, "w");
  if (f == NULL) fail(c, "%s: cannot create: %s", path, strerror(errno));
  return f;
}

static int image_close(ctx_t *c, FILE *f, const char *name, const char *alt) {
  if (fclose(f) != 0) return fail(c, "%s/%s: write error", c->out, name);
  fprintf(c->page, "<p><img src=\"%s\" alt=\"", name);
  esc(c, alt);
  fprintf(c->page, "\"></p>\n");
  c->st->images++;
  return 0;
}

/* A bar chart as the page's image name (svg_bars' arguments). */
static int bars_image(ctx_t *c, const char *name, const char *title, const char *alt, const char *const *label,
                      const double *value, const char *const *text, size_t n) {
  if (n == 0) return 0;
  FILE *f = image_open(c, name);
  if (f == NULL) return -1;
  svg_bars(f, title, label, value, text, n);
  return image_close(c, f, name, alt);
}

static void section(ctx_t *c, const char *id, const char *title) {
  fprintf(c->page, "<section id=\"%s\">\n<h2>", id);
  esc(c, title);
  fprintf(c->page, "</h2>\n");
}

/* The section's files are not in the run: says which, and what the run's log (log, when the run
 * has it) reported as errors: its lines that start with "hwprof-sim: " but the first. */
static void absent(ctx_t *c, const char *files, const char *how, const char *log) {
  fprintf(c->page, "<p class=\"absent\">Not in this run: no <code>");
  esc(c, files);
  fprintf(c->page, "</code> in the run directory (%s).</p>\n", how);
  char *path = log ? run_file(c, log) : NULL, e[64];
  char *text = path ? rf_read_text(path, LOG_BYTES, e, sizeof e) : NULL;
  const char *nl = text ? strchr(text, '\n') : NULL;
  for (const char *s = nl; s && *s;) {
    const char *end = strchr(++s, '\n');
    const size_t n = end ? (size_t)(end - s) : strlen(s);
    if (n > 12 && !strncmp(s, "hwprof-sim: ", 12)) {
      char *line = strndup(s, n);
      fprintf(c->page, "<p>");
      esc(c, log);
      fprintf(c->page, ": <code>");
      if (line) esc(c, line);
      fprintf(c->page, "</code></p>\n");
      free(line);
    }
    s = end;
  }
  fprintf(c->page, "</section>\n");
  free(text);
  free(path);
  c->st->absent++;
}

static void table_head(ctx_t *c, const char *cols) { /* cols: '|'-separated headers; a leading '>' aligns right */
  fprintf(c->page, "<table>\n<thead><tr>");
  for (const char *s = cols; *s;) {
    const char *e = strchr(s, '|');
    const size_t n = e ? (size_t)(e - s) : strlen(s);
    const bool right = *s == '>';
    fprintf(c->page, "<th%s>%.*s</th>", right ? " class=\"n\"" : "", (int)(n - right), s + right);
    s += n + (e != NULL);
  }
  fprintf(c->page, "</tr></thead>\n<tbody>\n");
  c->st->tables++;
}

static void table_end(ctx_t *c) { fprintf(c->page, "</tbody>\n</table>\n"); }

/* ---- source lines */

static const char *source_line(ctx_t *c, unsigned file, unsigned line) {
  if (file >= c->prog.nfile) return NULL;
  src_t *s = &c->src[file];
  if (!s->tried) {
    char e[64];
    s->tried = true;
    s->text = rf_read_text(c->prog.file[file], SRC_BYTES, e, sizeof e);
    for (char *p = s->text; p && *p;) {
      char **g = realloc(s->line, (s->nline + 1) * sizeof *g);
      if (g == NULL) break;
      s->line = g;
      s->line[s->nline++] = p;
      p = strchr(p, '\n');
      if (p) *p++ = '\0';
      else break;
    }
  }
  return line >= 1 && line <= s->nline ? s->line[line - 1] : NULL;
}

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* file:line of address a in lines d, as a table cell */
static void where_cell(ctx_t *c, const dl_lines_t *d, uint32_t a) {
  const dl_range_t *r = dl_find(d, a);
  fprintf(c->page, "<td>");
  if (r) {
    fprintf(c->page, "<span title=\"");
    esc(c, d->file[r->file]);
    fprintf(c->page, "\">");
    esc(c, base_name(d->file[r->file]));
    fprintf(c->page, ":%u</span>", r->line);
  } else {
    fprintf(c->page, "0x%08" PRIx32, a);
  }
  fprintf(c->page, "</td>");
}

/* ---- the edge profile: functions and lines */

typedef struct {
  const char *name;
  uint32_t lo;
  int64_t entries, insns;
} hot_fn_t;

typedef struct {
  unsigned file, line;
  int64_t count, heat; /* the most times one of its instructions ran; instructions it retired */
} hot_line_t;

static int by_insns(const void *a, const void *b) {
  const hot_fn_t *x = a, *y = b;
  if (x->insns != y->insns) return x->insns > y->insns ? -1 : 1;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}
static int by_place(const void *a, const void *b) {
  const hot_line_t *x = a, *y = b;
  if (x->file != y->file) return x->file < y->file ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}
static int by_heat(const void *a, const void *b) {
  const hot_line_t *x = a, *y = b;
  if (x->heat != y->heat) return x->heat > y->heat ? -1 : 1;
  return by_place(a, b);
}

typedef struct {
  hot_fn_t *fn;
  unsigned nfn, left_out;
  hot_line_t *line;
  size_t nline;
  int64_t insns, blocks;
} edge_t;

static int edge_tally(ctx_t *c, const pm_map_t *m, int64_t *const *counts, edge_t *e) {
  size_t cap = 0;
  memset(e, 0, sizeof *e);
  if ((e->fn = calloc(m->nfn ? m->nfn : 1, sizeof *e->fn)) == NULL) return fail(c, "out of memory");
  for (unsigned f = 0; f < m->nfn; f++) {
    const pm_func_t *fn = &m->fn[f];
    if (!pm_profiled(fn) || counts[f] == NULL) {
      e->left_out++;
      continue;
    }
    int64_t *bc = block_counts(fn, counts[f]);
    if (bc == NULL) return fail(c, "out of memory");
    hot_fn_t *h = &e->fn[e->nfn++];
    *h = (hot_fn_t){fn->name, fn->lo, function_entries(fn, counts[f]), 0};
    for (unsigned b = 0; b < fn->nblk; b++) {
      const pm_block_t *x = &fn->blk[b];
      h->insns += bc[b] * (int64_t)((x->end - x->start) / 4u);
      if (x->end > x->start) e->blocks += bc[b];
      for (uint32_t a = x->start; a < x->end; a += 4) {
        const dl_range_t *r = dl_find(&c->prog, a);
        if (r == NULL) continue;
        if (e->nline == cap) {
          cap = cap ? 2 * cap : 1024;
          hot_line_t *g = realloc(e->line, cap * sizeof *g);
          if (g == NULL) {
            free(bc);
            return fail(c, "out of memory");
          }
          e->line = g;
        }
        e->line[e->nline++] = (hot_line_t){r->file, r->line, bc[b], bc[b]};
      }
    }
    e->insns += h->insns;
    free(bc);
  }
  if (e->nline) qsort(e->line, e->nline, sizeof *e->line, by_place);
  size_t n = 0;
  for (size_t i = 0; i < e->nline; i++) {
    hot_line_t *last = n ? &e->line[n - 1] : NULL;
    if (last && last->file == e->line[i].file && last->line == e->line[i].line) {
      last->heat += e->line[i].heat;
      if (e->line[i].count > last->count) last->count = e->line[i].count;
    } else {
      e->line[n++] = e->line[i];
    }
  }
  e->nline = n;
  if (e->nfn) qsort(e->fn, e->nfn, sizeof *e->fn, by_insns);
  if (e->nline) qsort(e->line, e->nline, sizeof *e->line, by_heat);
  return 0;
}

static int edge_functions(ctx_t *c, const edge_t *e) {
  char b1[32], b2[32];
  section(c, "functions", "Hottest functions (edge profile)");
  fprintf(c->page,
          "<p>Instructions retired in each profiled function, from its blocks' counts: %s in %u functions; %u "
          "functions of the map have no profile (the edge log below names the ones that ran).</p>\n",
          num(b1, (uint64_t)e->insns), e->nfn, e->left_out);
  const size_t nb = e->nfn < TOP_BARS ? e->nfn : TOP_BARS;
  const char *label[TOP_BARS], *text[TOP_BARS];
  double value[TOP_BARS];
  char pct[TOP_BARS][16];
  for (size_t i = 0; i < nb; i++) {
    label[i] = e->fn[i].name;
    value[i] = (double)e->fn[i].insns;
    snprintf(pct[i], sizeof pct[i], "%.1f%%", e->insns ? 100.0 * (double)e->fn[i].insns / (double)e->insns : 0.0);
    text[i] = pct[i];
  }
  if (bars_image(c, "functions.svg", "instructions retired per function (share of the profiled instructions)",
                 "hottest functions", label, value, text, nb))
    return -1;
  table_head(c, ">#|function|declared at|>entries|>instructions|>share");
  for (unsigned i = 0; i < e->nfn && i < TOP_ROWS; i++) {
    const dl_func_t *df = dl_func_at(&c->prog, e->fn[i].lo);
    fprintf(c->page, "<tr><td class=\"n\">%u</td><td><code>", i + 1);
    esc(c, e->fn[i].name);
    fprintf(c->page, "</code></td><td>");
    if (df && df->file < c->prog.nfile) {
      esc(c, base_name(c->prog.file[df->file]));
      fprintf(c->page, ":%u", df->decl_line);
    }
    fprintf(c->page, "</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%.2f%%</td></tr>\n",
            num(b1, (uint64_t)e->fn[i].entries), num(b2, (uint64_t)e->fn[i].insns),
            e->insns ? 100.0 * (double)e->fn[i].insns / (double)e->insns : 0.0);
  }
  table_end(c);
  fprintf(c->page, "</section>\n");
  return 0;
}

static void edge_lines(ctx_t *c, const edge_t *e) {
  char b1[32], b2[32];
  section(c, "lines", "Hottest source lines (edge profile)");
  fprintf(c->page,
          "<p>Each line's instructions retired (its heat) and the most times one of its instructions ran (lcov's "
          "count), from the program's DWARF line table; %zu lines ran code of a profiled function.</p>\n",
          e->nline);
  table_head(c, ">#|file:line|>instructions|>count|source");
  for (size_t i = 0; i < e->nline && i < TOP_ROWS; i++) {
    const hot_line_t *l = &e->line[i];
    const char *text = source_line(c, l->file, l->line);
    fprintf(c->page, "<tr><td class=\"n\">%zu</td><td><span title=\"", i + 1);
    esc(c, c->prog.file[l->file]);
    fprintf(c->page, "\">");
    esc(c, base_name(c->prog.file[l->file]));
    fprintf(c->page, ":%u</span></td><td class=\"n\">%s</td><td class=\"n\">%s</td><td><code>", l->line,
            num(b1, (uint64_t)l->heat), num(b2, (uint64_t)l->count));
    if (text) esc(c, text);
    else fprintf(c->page, "<span class=\"absent\">(source not on this machine)</span>");
    fprintf(c->page, "</code></td></tr>\n");
  }
  table_end(c);
  fprintf(c->page, "</section>\n");
}

static int sec_edge(ctx_t *c, const char *program, edge_t *e) {
  char *map = run_file(c, "edge.map"), *prof = run_file(c, "edge.prof");
  int rc = 0;
  memset(e, 0, sizeof *e);
  if (map == NULL || prof == NULL) {
    section(c, "functions", "Hottest functions (edge profile)");
    absent(c, "edge.map, edge.prof", "hwprof-instr instrument, then hwprof-sim --edge-map --edge-profile", "edge.log");
    section(c, "lines", "Hottest source lines (edge profile)");
    absent(c, "edge.map, edge.prof", "as above", NULL);
    free(map);
    free(prof);
    return 0;
  }
  pm_map_t m;
  int64_t **counts = NULL;
  hwprof_elf_t elf = {0};
  if (pm_read(&m, map, c->err, c->errlen)) {
    free(map);
    free(prof);
    return -1;
  }
  if (pm_read_profile(&m, prof, &counts, c->err, c->errlen) ||
      hwprof_elf_read(&elf, program, HWPROF_ELF_SYMBOLS, c->err, c->errlen) ||
      map_describes_program(&m, &elf, map, program, c->err, c->errlen) || edge_tally(c, &m, counts, e)) {
    rc = -1;
  } else {
    rc = edge_functions(c, e);
    if (rc == 0) edge_lines(c, e);
    c->st->sections += rc == 0 ? 2 : 0;
  }
  hwprof_elf_free(&elf);
  pm_free_counts(&m, counts);
  pm_free(&m);
  free(map);
  free(prof);
  return rc;
}

/* ---- path profile */

static int sec_paths(ctx_t *c) {
  char *file = run_file(c, "paths.paths");
  char b1[32], b2[32], b3[32];
  section(c, "paths", "Hottest paths (path profile)");
  if (file == NULL) {
    absent(c, "paths.paths", "hwprof-instr instrument --paths, then hwprof-sim --path-map --path-profile", "paths.log");
    return 0;
  }
  rf_paths_t p;
  int rc = rf_read_paths(&p, file, c->err, c->errlen);
  free(file);
  if (rc) return -1;
  fprintf(c->page,
          "<p>Embodiment <code>");
  esc(c, p.embodiment);
  fprintf(c->page, "</code>: %u functions profiled with %s counters; %s distinct paths ran %s times. A path's items are "
          "its blocks' addresses (<code>L</code>: a child region entered); <code>exit</code>: it left the function, "
          "<code>back</code>: it took a back edge, <code>end</code>: it left its region or took its back edge.</p>\n",
          p.functions, num(b1, p.counters), num(b2, p.paths), num(b3, p.count));
  if (p.n == 0) {
    fprintf(c->page, "<p>No path ran in a profiled function.</p>\n</section>\n");
  } else {
    table_head(c, ">#|>count|>share|function|region head|starts at|end|>items|items");
    for (size_t i = 0; i < p.n && i < TOP_ROWS; i++) {
      const rf_path_t *q = &p.path[i];
      fprintf(c->page, "<tr><td class=\"n\">%zu</td><td class=\"n\">%s</td><td class=\"n\">%.2f%%</td><td><code>", i + 1,
              num(b1, q->count), p.count ? 100.0 * (double)q->count / (double)p.count : 0.0);
      esc(c, q->fn);
      fprintf(c->page, "</code></td>");
      where_cell(c, &c->prog, q->head);
      where_cell(c, &c->prog, q->first);
      fprintf(c->page, "<td>");
      esc(c, q->end);
      fprintf(c->page, "</td><td class=\"n\">%u</td><td><code>", q->nitems);
      esc(c, q->items);
      fprintf(c->page, "</code></td></tr>\n");
    }
    table_end(c);
    fprintf(c->page, "</section>\n");
  }
  c->st->sections++;
  rf_free_paths(&p);
  return 0;
}

/* ---- load values */

typedef struct {
  uint32_t pc, value;
  uint64_t total;
  double inv;
  size_t nvalues;
} top_load_t;

static int by_total(const void *a, const void *b) {
  const top_load_t *x = a, *y = b;
  if (x->total != y->total) return x->total > y->total ? -1 : 1;
  return x->pc < y->pc ? -1 : x->pc > y->pc;
}

static int sec_values(ctx_t *c) {
  char *file = run_file(c, "vp-profile.txt"), *elf = run_file(c, "vp.elf");
  char b1[32], b2[32];
  section(c, "values", "Load values (value profile)");
  if (file == NULL || elf == NULL) {
    free(file);
    free(elf);
    absent(c, "vp-profile.txt, vp.elf", "a program built with the value profiler's runtime, run with hwprof-sim --out-dir",
           "vp.log");
    return 0;
  }
  vp_profile_t p;
  dl_lines_t d = {0};
  top_load_t *t = NULL;
  int rc = vp_profile_read(&p, file, c->err, c->errlen);
  if (rc == 0 && (rc = dl_read(&d, elf, c->err, c->errlen)) != 0) vp_profile_free(&p);
  free(file);
  free(elf);
  if (rc) return -1;
  const vp_snapshot_t *s = &p.snap[p.nsnap - 1];
  if ((t = calloc(s->n ? s->n : 1, sizeof *t)) == NULL) rc = fail(c, "out of memory");
  size_t nt = 0, invariant = 0;
  for (size_t i = 0; rc == 0 && i < s->n; i++) {
    const vp_prof_load_t *l = &s->loads[i];
    vp_estimate_t *est = calloc(l->n ? l->n : 1, sizeof *est);
    const vp_load_t in = {l->pc, l->total, l->n, l->v};
    if (est == NULL || vp_estimate(&in, est) != 0) {
      free(est);
      rc = est == NULL ? fail(c, "out of memory") : fail(c, "vp-profile.txt: load 0x%08" PRIx32 ": inconsistent counts", l->pc);
      break;
    }
    if (l->total == 0 || l->n == 0) {
      free(est);
      continue;
    }
    size_t best = 0;
    for (size_t k = 1; k < l->n; k++)
      if (est[k].invariance > est[best].invariance) best = k;
    t[nt++] = (top_load_t){l->pc, l->v[best].value, l->total, est[best].invariance, l->n};
    invariant += est[best].invariance >= 0.9;
    free(est);
  }
  if (rc == 0) {
    if (nt) qsort(t, nt, sizeof *t, by_total);
    fprintf(c->page,
            "<p>The co-processor's profile (%s, the last of %zu snapshots, taken at %s program instructions with %s "
            "profiling instructions, %.2f%%): %zu loads sampled, %zu of them with a value of estimated invariance "
            "&ge; 90%% (seed 001's A.6 estimate from each value's hits and misses). Loads by samples:</p>\n",
            p.kind == kVpSamples ? "simple sampling" : "co-processor", p.nsnap, num(b1, s->instructions),
            num(b2, s->overhead), s->instructions ? 100.0 * (double)s->overhead / (double)s->instructions : 0.0, nt,
            invariant);
    const size_t nb = nt < TOP_BARS ? nt : TOP_BARS;
    char lab[TOP_BARS][64], pct[TOP_BARS][40];
    const char *label[TOP_BARS], *text[TOP_BARS];
    double value[TOP_BARS];
    for (size_t i = 0; i < nb; i++) {
      const dl_range_t *r = dl_find(&d, t[i].pc);
      if (r) snprintf(lab[i], sizeof lab[i], "%s:%u", base_name(d.file[r->file]), r->line);
      else snprintf(lab[i], sizeof lab[i], "0x%08" PRIx32, t[i].pc);
      snprintf(pct[i], sizeof pct[i], "%.0f%% (0x%" PRIx32 ")", 100.0 * t[i].inv, t[i].value);
      label[i] = lab[i];
      text[i] = pct[i];
      value[i] = 100.0 * t[i].inv;
    }
    rc = bars_image(c, "values.svg", "estimated invariance of the most frequent value, the most sampled loads",
                    "invariance of the most sampled loads", label, value, text, nb);
  }
  if (rc == 0 && nt) {
    table_head(c, ">#|load|source|>samples|>values|most frequent value|>invariance");
    for (size_t i = 0; i < nt && i < TOP_ROWS; i++) {
      fprintf(c->page, "<tr%s><td class=\"n\">%zu</td><td><code>0x%08" PRIx32 "</code></td>", t[i].inv >= 0.9 ? " class=\"inv\"" : "",
              i + 1, t[i].pc);
      where_cell(c, &d, t[i].pc);
      fprintf(c->page,
              "<td class=\"n\">%s</td><td class=\"n\">%zu</td><td><code>0x%08" PRIx32 "</code></td><td class=\"n\">%.1f%%</td></tr>\n",
              num(b1, t[i].total), t[i].nvalues, t[i].value, 100.0 * t[i].inv);
    }
    table_end(c);
  }
  if (rc == 0) {
    fprintf(c->page, "</section>\n");
    c->st->sections++;
  }
  free(t);
  dl_free(&d);
  vp_profile_free(&p);
  return rc;
}

/* ---- phases */

static int sec_phases(ctx_t *c) {
  char *file = run_file(c, "phases.txt");
  char b1[32], b2[32];
  section(c, "phases", "Phase timeline (exact branch profile per window)");
  if (file == NULL) {
    absent(c, "phases.txt", "hwprof-sim --phase-truth", NULL);
    return 0;
  }
  rf_phases_t p;
  int rc = rf_read_phases(&p, file, c->err, c->errlen);
  free(file);
  if (rc) return -1;
  fprintf(c->page,
          "<p>The program's hot branch set over windows of %s instructions (hwprof-sim <code>--phase-truth</code>): %zu "
          "windows, %s phase changes (red: a window whose hot set gained branches carrying enough of its executions; "
          "docs/dynopt.md).</p>\n",
          num(b1, p.window), p.n, num(b2, p.changes));
  double *x = calloc(p.n + 1, sizeof *x), *y = calloc(p.n + 1, sizeof *y), *mark = calloc(p.n + 1, sizeof *mark);
  size_t nmark = 0;
  if (x == NULL || y == NULL || mark == NULL) rc = fail(c, "out of memory");
  for (size_t i = 0; rc == 0 && i < p.n; i++) {
    x[i] = (double)p.w[i].end;
    y[i] = p.w[i].hot;
    if (p.w[i].change) mark[nmark++] = (double)p.w[i].start;
  }
  if (rc == 0 && p.n) {
    FILE *f = image_open(c, "phases.svg");
    if (f == NULL) rc = -1;
    else {
      svg_series(f, "hot branch edges per window, phase changes in red", "instructions", "hot edges", x, y, p.n, mark, nmark);
      rc = image_close(c, f, "phases.svg", "phase timeline");
    }
  }
  if (rc == 0 && nmark) {
    table_head(c, ">window start|>end|>branches|>hot edges|>added|>new|>weight|change");
    for (size_t i = 0; i < p.n; i++) {
      const rf_window_t *w = &p.w[i];
      if (!w->change) continue;
      fprintf(c->page,
              "<tr><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%u</td><td class=\"n\">%u</td><td "
              "class=\"n\">%u</td><td class=\"n\">%u</td><td class=\"n\">%u%%</td><td>%s</td></tr>\n",
              num(b1, w->start), num(b2, w->end), w->branches, w->hot, w->added, w->fresh, w->weight,
              w->change == 1 ? "branch directions flipped" : "new hot code");
    }
    table_end(c);
  } else if (rc == 0) {
    fprintf(c->page, "<p>No phase change.</p>\n");
  }
  if (rc == 0) {
    fprintf(c->page, "</section>\n");
    c->st->sections++;
  }
  free(x);
  free(y);
  free(mark);
  rf_free_phases(&p);
  return rc;
}

/* ---- whole-program paths */

static void units_table(ctx_t *c, const rf_units_t *u, const char *what) {
  char b1[32], b2[32];
  table_head(c, ">id|>heat|>heat %|>trips|>runs|>longest run|>length|where|sequence");
  for (size_t i = 0; i < u->n; i++) {
    const rf_unit_t *x = &u->u[i];
    fprintf(c->page,
            "<tr><td class=\"n\">%s %" PRIu32 "</td><td class=\"n\">%s</td><td class=\"n\">%.2f</td><td class=\"n\">%s</td><td "
            "class=\"n\">%" PRIu64 "</td><td class=\"n\">%" PRIu32 "</td><td class=\"n\">%" PRIu32 "</td><td><code>",
            what, x->id, num(b1, x->heat), x->heat_pct, num(b2, x->trips), x->runs, x->max_trips, x->length);
    esc(c, x->where);
    fprintf(c->page, "</code></td><td><code>");
    esc(c, x->seq);
    fprintf(c->page, "</code></td></tr>\n");
  }
  table_end(c);
}

static int wpp_timeline(ctx_t *c, const char *idx, const char *log) {
  wpp_index_t x;
  if (wpp_index_load(&x, idx, c->err, c->errlen)) return -1;
  int rc = 0;
  /* the hottest paths by instructions inside their runs get a row each */
  uint64_t units = 0;
  for (uint64_t i = 0; i < x.level[0].n; i++)
    if (x.level[0].run[i].unit >= units) units = x.level[0].run[i].unit + 1ull;
  uint64_t *heat = calloc(units ? units : 1, sizeof *heat);
  svg_span_t *span = malloc((x.level[0].n + (x.levels > 1 ? x.level[1].n : 0) + 1) * sizeof *span);
  uint64_t *mark = NULL;
  size_t nspan = 0, nmark = 0;
  uint32_t hot[WPP_ROWS];
  unsigned nhot = 0;
  if (heat == NULL || span == NULL) rc = fail(c, "out of memory");
  for (uint64_t i = 0; rc == 0 && i < x.level[0].n; i++) heat[x.level[0].run[i].unit] += x.level[0].run[i].end - x.level[0].run[i].start;
  while (rc == 0 && nhot < WPP_ROWS) {
    uint64_t best = units;
    for (uint64_t u = 0; u < units; u++)
      if (heat[u] && (best == units || heat[u] > heat[best])) best = u;
    if (best == units) break;
    hot[nhot++] = (uint32_t)best;
    heat[best] = 0;
  }
  for (uint64_t i = 0; rc == 0 && i < x.level[0].n; i++) {
    const wpp_run_t *r = &x.level[0].run[i];
    unsigned row = nhot;
    for (unsigned k = 0; k < nhot; k++)
      if (hot[k] == r->unit) row = k;
    span[nspan++] = (svg_span_t){r->start, r->end, row, row < nhot ? row : ~0u};
  }
  for (uint64_t i = 0; rc == 0 && x.levels > 1 && i < x.level[1].n; i++) {
    const wpp_run_t *r = &x.level[1].run[i];
    span[nspan++] = (svg_span_t){r->start, r->end, nhot + 1, r->unit};
  }
  /* the phase changes the hash tables' sorts reported (the analysis log) */
  for (const char *s = log; rc == 0 && s && (s = strstr(s, "phase change: instruction ")) != NULL; s++) {
    uint64_t *g = realloc(mark, (nmark + 1) * sizeof *g);
    if (g == NULL) {
      rc = fail(c, "out of memory");
      break;
    }
    mark = g;
    mark[nmark++] = strtoull(s + 26, NULL, 10);
  }
  char rowtext[WPP_ROWS][24];
  const char *label[WPP_ROWS + 2];
  for (unsigned k = 0; k < nhot; k++) {
    snprintf(rowtext[k], sizeof rowtext[k], "path %" PRIu32, hot[k]);
    label[k] = rowtext[k];
  }
  label[nhot] = "other paths";
  label[nhot + 1] = "strata";
  if (rc == 0) {
    FILE *f = image_open(c, "wpp.svg");
    if (f == NULL) rc = -1;
    else {
      svg_timeline(f, "runs of the hottest paths and the strata over the run, phase changes in red", "instructions", label,
                   nhot + (x.levels > 1 ? 2u : 1u), span, nspan, x.insns, mark, nmark);
      rc = image_close(c, f, "wpp.svg", "whole-program path timeline");
    }
  }
  free(heat);
  free(span);
  free(mark);
  wpp_index_free(&x);
  return rc;
}

static int sec_wpp(ctx_t *c) {
  char *paths = run_file(c, "wpp.paths.txt"), *strata = run_file(c, "wpp.strata.txt"), *idx = run_file(c, "wpp.idx"),
       *logf = run_file(c, "wpp.log");
  int rc = 0;
  section(c, "wpp", "Whole-program paths and strata");
  if (paths == NULL || strata == NULL || idx == NULL || logf == NULL) {
    absent(c, "wpp.paths.txt, wpp.strata.txt, wpp.idx, wpp.log",
           "hwprof-sim --trace-out, then hwprof-wpp analyze --out=RUN-DIR/wpp", "trace.log");
  } else {
    rf_units_t p = {0}, s = {0};
    char *log = rf_read_text(logf, LOG_BYTES, c->err, c->errlen);
    if (log == NULL || rf_read_units(&p, paths, TOP_ROWS, c->err, c->errlen) ||
        rf_read_units(&s, strata, TOP_ROWS, c->err, c->errlen)) {
      rc = -1;
    } else {
      fprintf(c->page,
              "<p>The trace controller's records rebuilt into the run's block stream and cut into paths; repeated paths "
              "make strata (hwprof-wpp, docs/wpp.md). Heat: instructions inside a unit's traversals.</p>\n<pre>");
      esc(c, log);
      fprintf(c->page, "</pre>\n");
      rc = wpp_timeline(c, idx, log);
      if (rc == 0) {
        char b[32];
        fprintf(c->page, "<h3>Hottest paths (%s distinct)</h3>\n", num(b, p.units));
        units_table(c, &p, "P");
        fprintf(c->page, "<h3>Hottest strata (%s distinct)</h3>\n", num(b, s.units));
        units_table(c, &s, "S");
        fprintf(c->page, "</section>\n");
        c->st->sections++;
      }
    }
    free(log);
    rf_free_units(&p);
    rf_free_units(&s);
  }
  free(paths);
  free(strata);
  free(idx);
  free(logf);
  return rc;
}

/* ---- summary */

typedef struct {
  const char *file, *what;
} log_t;

static const log_t kLogs[] = {
    {"plain.log", "the program alone (hwprof-sim --engine=none)"},
    {"edge.log", "edge profiling (hwprof-sim --edge-map): the check against the exact counts, coverage, cost"},
    {"paths.log", "path profiling (hwprof-sim --path-map): coverage and cost"},
    {"vp.log", "the value profiler's run"},
    {"trace.log", "the trace controller's drain (hwprof-sim --trace-out)"},
};

static int sec_summary(ctx_t *c, const char *name) {
  section(c, "summary", "Run");
  fprintf(c->page, "<p>Run directory <code>");
  esc(c, c->dir);
  fprintf(c->page, "</code>, program <code>");
  esc(c, name);
  fprintf(c->page, "</code>. What each platform printed:</p>\n");
  table_head(c, "log|run|first line");
  unsigned n = 0;
  char *text[sizeof kLogs / sizeof kLogs[0]] = {NULL};
  for (size_t i = 0; i < sizeof kLogs / sizeof kLogs[0]; i++) {
    char *path = run_file(c, kLogs[i].file);
    if (path == NULL) continue;
    text[i] = rf_read_text(path, LOG_BYTES, c->err, c->errlen);
    free(path);
    if (text[i] == NULL) {
      for (size_t k = 0; k < i; k++) free(text[k]);
      return -1;
    }
    const char *nl = strchr(text[i], '\n');
    fprintf(c->page, "<tr><td><a href=\"#log-%zu\"><code>%s</code></a></td><td>", i, kLogs[i].file);
    esc(c, kLogs[i].what);
    fprintf(c->page, "</td><td><code>");
    char *first = strndup(text[i], nl ? (size_t)(nl - text[i]) : strlen(text[i]));
    if (first) esc(c, first);
    free(first);
    fprintf(c->page, "</code></td></tr>\n");
    n++;
  }
  if (n == 0) fprintf(c->page, "<tr><td colspan=\"3\">(no log in the run directory)</td></tr>\n");
  table_end(c);
  for (size_t i = 0; i < sizeof kLogs / sizeof kLogs[0]; i++) {
    if (text[i] == NULL) continue;
    fprintf(c->page, "<details id=\"log-%zu\"><summary><code>%s</code></summary>\n<pre>", i, kLogs[i].file);
    esc(c, text[i]);
    fprintf(c->page, "</pre></details>\n");
    free(text[i]);
  }
  fprintf(c->page, "</section>\n");
  c->st->sections++;
  return 0;
}

static const char kStyle[] =
    "body{font-family:sans-serif;margin:1.5em auto;max-width:75em;color:#222}"
    "h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:2em}h3{font-size:1em}"
    "table{border-collapse:collapse;font-size:0.85em;margin:0.5em 0}"
    "th,td{border:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top}th{background:#f3f3f3}"
    ".n{text-align:right;white-space:nowrap}tr.inv{background:#eef8ee}.absent{color:#888}"
    "pre{background:#f8f8f8;padding:0.5em;font-size:0.8em;overflow-x:auto}nav a{margin-right:1em}code{font-size:0.95em}";

static int write_page(ctx_t *c, const char *program) {
  const char *name = base_name(c->dir);
  fprintf(c->page, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>hwprof run: ");
  esc(c, name);
  fprintf(c->page, "</title>\n<link rel=\"icon\" href=\"data:,\">\n<style>%s</style>\n</head>\n<body>\n<h1>hwprof run: ", kStyle);
  esc(c, name);
  fprintf(c->page,
          "</h1>\n<nav><a href=\"#summary\">run</a><a href=\"#functions\">functions</a><a href=\"#lines\">lines</a>"
          "<a href=\"#paths\">paths</a><a href=\"#values\">load values</a><a href=\"#phases\">phases</a>"
          "<a href=\"#wpp\">whole-program paths</a></nav>\n");
  edge_t e = {0}; /* its names point into the map, freed by now: only the arrays are freed here */
  int rc = sec_summary(c, program);
  if (rc == 0) rc = sec_edge(c, program, &e);
  free(e.fn);
  free(e.line);
  if (rc == 0) rc = sec_paths(c);
  if (rc == 0) rc = sec_values(c);
  if (rc == 0) rc = sec_phases(c);
  if (rc == 0) rc = sec_wpp(c);
  if (rc == 0) fprintf(c->page, "<p class=\"absent\">Written by hwprof-report html (docs/report.md).</p>\n</body>\n</html>\n");
  return rc;
}

int html_report(const char *run_dir, const char *out_dir, html_stats_t *st, char *err, size_t errlen) {
  ctx_t c = {.dir = run_dir, .out = out_dir, .err = err, .errlen = errlen, .st = st};
  memset(st, 0, sizeof *st);
  struct stat sb;
  if (stat(run_dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) return fail(&c, "%s: not a run directory", run_dir);
  char *program = join(run_dir, "program.elf"), *page = join(out_dir, "index.html");
  int rc = 0;
  bool created = false;
  if (program == NULL || page == NULL) rc = fail(&c, "out of memory");
  else if (access(program, R_OK) != 0) rc = fail(&c, "%s: %s (the run directory must hold the program)", program, strerror(errno));
  else if (dl_read(&c.prog, program, err, errlen)) rc = -1;
  else if ((c.src = calloc(c.prog.nfile ? c.prog.nfile : 1, sizeof *c.src)) == NULL) rc = fail(&c, "out of memory");
  else if (mkdir(out_dir, 0777) == 0) created = true;
  else if (errno != EEXIST) rc = fail(&c, "%s: cannot create: %s", out_dir, strerror(errno));
  char **g = rc ? NULL : realloc(c.written, sizeof *g);
  if (rc == 0 && g == NULL) rc = fail(&c, "out of memory");
  if (rc == 0) {
    c.written = g;
    c.written[c.nwritten++] = page;
    page = NULL;
    if ((c.page = fopen(c.written[0], "w")) == NULL) rc = fail(&c, "%s: cannot create: %s", c.written[0], strerror(errno));
  }
  if (rc == 0) rc = write_page(&c, program);
  if (c.page && fclose(c.page) != 0 && rc == 0) rc = fail(&c, "%s: write error", c.written[0]);
  for (size_t i = 0; i < c.nwritten; i++) {
    if (rc) remove(c.written[i]);
    free(c.written[i]);
  }
  free(c.written);
  if (rc && created) rmdir(out_dir);
  for (unsigned i = 0; c.src && i < c.prog.nfile; i++) {
    free(c.src[i].text);
    free(c.src[i].line);
  }
  free(c.src);
  dl_free(&c.prog);
  free(program);
  free(page);
  return rc;
}
