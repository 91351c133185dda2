/* The run directory's text files; see run_files.h. */
#define _POSIX_C_SOURCE 200809L /* getline */
#include "run_files.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *path;
  char *err;
  size_t errlen;
  FILE *f;
  char *line;
  size_t cap;
  unsigned lineno;
} rd_t;

static int open_rd(rd_t *r, const char *path, char *err, size_t errlen) {
  *r = (rd_t){path, err, errlen, fopen(path, "r"), NULL, 0, 0};
  if (r->f == NULL) {
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    return -1;
  }
  return 0;
}

static void close_rd(rd_t *r) {
  if (r->f) fclose(r->f);
  free(r->line);
}

/* the next line without its newline, or NULL at the end */
static char *next(rd_t *r) {
  ssize_t n = getline(&r->line, &r->cap, r->f);
  if (n < 0) return NULL;
  r->lineno++;
  if (n > 0 && r->line[n - 1] == '\n') r->line[n - 1] = '\0';
  return r->line;
}

static int bad(const rd_t *r, const char *what) {
  snprintf(r->err, r->errlen, "%s:%u: %s", r->path, r->lineno, what);
  return -1;
}

/* s copied into dst[cap], cut at a space and marked with "..." when it does not fit */
static void copy_cut(char *dst, size_t cap, const char *s) {
  const size_t len = strlen(s);
  if (len < cap) {
    memcpy(dst, s, len + 1);
    return;
  }
  size_t k = cap - 4;
  while (k > 0 && s[k] != ' ') k--;
  if (k == 0) k = cap - 4;
  memcpy(dst, s, k);
  memcpy(dst + k, "...", 4);
}

static int by_count(const void *a, const void *b) {
  const rf_path_t *x = a, *y = b;
  if (x->count != y->count) return x->count > y->count ? -1 : 1;
  if (x->head != y->head) return x->head < y->head ? -1 : 1;
  return strcmp(x->items, y->items);
}

void rf_free_paths(rf_paths_t *p) {
  free(p->path);
  memset(p, 0, sizeof *p);
}

int rf_read_paths(rf_paths_t *p, const char *path, char *err, size_t errlen) {
  rd_t r;
  memset(p, 0, sizeof *p);
  if (open_rd(&r, path, err, errlen)) return -1;
  char fn[64] = "", *l;
  uint32_t head = 0;
  int rc = 0, ended = 0;
  size_t cap = 0;
  while (rc == 0 && (l = next(&r)) != NULL) {
    unsigned u1, u2, u3, u4;
    unsigned long long c1, c2, c3;
    char end[8];
    int used = 0;
    if (r.lineno == 1) {
      if (strcmp(l, "hwprof-path-profile 1") != 0) rc = bad(&r, "not a path profile (expected 'hwprof-path-profile 1')");
    } else if (ended) {
      rc = bad(&r, "text after the end line");
    } else if (!strncmp(l, "program ", 8)) {
    } else if (sscanf(l, "embodiment %15s", p->embodiment) == 1) {
    } else if (!strncmp(l, "function ", 9)) {
      const char *sp = strchr(l + 9, ' ');
      if (sp == NULL || sp == l + 9 || sscanf(sp, " 0x%x counters %u", &u1, &u2) != 2) {
        rc = bad(&r, "expected 'function NAME 0xADDR counters N ...'");
        break;
      }
      snprintf(fn, sizeof fn, "%.*s", (int)(sp - (l + 9)), l + 9);
      head = u1;
    } else if (sscanf(l, "region %u head %x depth %u parent %n", &u1, &u2, &u3, &used) == 3 && used > 0) {
      head = u2;
    } else if (sscanf(l, "path %llu %7s %n", &c1, end, &used) == 2 && used > 0) {
      if (fn[0] == '\0') {
        rc = bad(&r, "a path before any function");
        break;
      }
      if (p->n == cap) {
        cap = cap ? 2 * cap : 256;
        rf_path_t *g = realloc(p->path, cap * sizeof *g);
        if (g == NULL) {
          rc = bad(&r, "out of memory");
          break;
        }
        p->path = g;
      }
      rf_path_t *q = &p->path[p->n++];
      memset(q, 0, sizeof *q);
      snprintf(q->fn, sizeof q->fn, "%s", fn);
      snprintf(q->end, sizeof q->end, "%s", end);
      q->head = head;
      q->count = c1;
      const char *items = l + used;
      copy_cut(q->items, sizeof q->items, items);
      for (const char *s = items; *s;) {
        while (*s == ' ') s++;
        if (*s == '\0') break;
        char *e;
        const unsigned long a = strtoul(s + (*s == 'L'), &e, 16);
        if (e == s + (*s == 'L') || (*e != ' ' && *e != '\0')) {
          rc = bad(&r, "expected block addresses (hexadecimal, 'L' before a child region's)");
          break;
        }
        if (q->nitems++ == 0) q->first = (uint32_t)a;
        s = e;
      }
    } else if (sscanf(l, "end functions %u counters %llu paths %llu count %llu", &u4, &c1, &c2, &c3) == 4) {
      p->functions = u4;
      p->counters = c1;
      p->paths = c2;
      p->count = c3;
      ended = 1;
    } else {
      rc = bad(&r, "expected a program, embodiment, function, region, path or end line");
    }
  }
  if (rc == 0 && !ended) rc = bad(&r, "truncated: no end line");
  close_rd(&r);
  if (rc) {
    rf_free_paths(p);
    return -1;
  }
  if (p->n) qsort(p->path, p->n, sizeof *p->path, by_count);
  return 0;
}

void rf_free_phases(rf_phases_t *p) {
  free(p->w);
  memset(p, 0, sizeof *p);
}

int rf_read_phases(rf_phases_t *p, const char *path, char *err, size_t errlen) {
  rd_t r;
  memset(p, 0, sizeof *p);
  if (open_rd(&r, path, err, errlen)) return -1;
  char *l;
  int rc = 0, ended = 0;
  size_t cap = 0;
  while (rc == 0 && (l = next(&r)) != NULL) {
    unsigned long long a, b, c;
    rf_window_t w;
    if (r.lineno == 1) {
      if (strcmp(l, "hwprof-phase-truth 1") != 0) rc = bad(&r, "not a phase truth (expected 'hwprof-phase-truth 1')");
    } else if (l[0] == '#') {
    } else if (ended) {
      rc = bad(&r, "text after the end line");
    } else if (sscanf(l, "window %llu min %llu", &a, &b) == 2) {
      p->window = a;
    } else if (sscanf(l, "window %llu %llu branches %u hot %u added %u new %u weight %u change %d", &a, &b, &w.branches, &w.hot,
                      &w.added, &w.fresh, &w.weight, &w.change) == 8) {
      if (b <= a || (p->n && a < p->w[p->n - 1].end) || w.change < 0 || w.change > 2) {
        rc = bad(&r, "windows out of order or a change other than 0, 1 or 2");
        break;
      }
      w.start = a;
      w.end = b;
      if (p->n == cap) {
        cap = cap ? 2 * cap : 256;
        rf_window_t *g = realloc(p->w, cap * sizeof *g);
        if (g == NULL) {
          rc = bad(&r, "out of memory");
          break;
        }
        p->w = g;
      }
      p->w[p->n++] = w;
    } else if (sscanf(l, "end windows %llu changes %llu", &a, &c) == 2) {
      if (a != p->n) rc = bad(&r, "the end line counts other windows than the file has");
      p->changes = c;
      ended = 1;
    } else {
      rc = bad(&r, "expected a window or end line");
    }
  }
  if (rc == 0 && !ended) rc = bad(&r, "truncated: no end line");
  close_rd(&r);
  if (rc) rf_free_phases(p);
  return rc;
}

void rf_free_units(rf_units_t *t) {
  free(t->u);
  memset(t, 0, sizeof *t);
}

int rf_read_units(rf_units_t *t, const char *path, size_t max, char *err, size_t errlen) {
  rd_t r;
  memset(t, 0, sizeof *t);
  if (open_rd(&r, path, err, errlen)) return -1;
  if ((t->u = calloc(max ? max : 1, sizeof *t->u)) == NULL) {
    close_rd(&r);
    snprintf(err, errlen, "%s: out of memory", path);
    return -1;
  }
  char *l;
  int rc = 0;
  unsigned long long rows = 0;
  while (rc == 0 && (l = next(&r)) != NULL) {
    char level[32];
    unsigned long long units;
    if (r.lineno == 1) {
      if (sscanf(l, "# hwprof-wpp %31[a-z0-9]: %llu units", level, &units) != 2)
        rc = bad(&r, "not a hwprof-wpp table (expected '# hwprof-wpp LEVEL: N units, ...')");
      else
        t->units = units;
      continue;
    }
    if (l[0] == '#') continue;
    rf_unit_t u;
    int used = 0;
    char where[96];
    if (sscanf(l, "%" SCNu32 "\t%" SCNu64 "\t%lf\t%" SCNu64 "\t%" SCNu64 "\t%" SCNu32 "\t%" SCNu32 "\t%" SCNu64 "\t%95[^\t]\t%n",
               &u.id, &u.heat, &u.heat_pct, &u.trips, &u.runs, &u.max_trips, &u.length, &u.first_insn, where, &used) != 9 ||
        used == 0) {
      rc = bad(&r, "expected id, heat, heat%, trips, runs, max_trips, length, first_insn, where and sequence");
      break;
    }
    snprintf(u.where, sizeof u.where, "%s", where);
    copy_cut(u.seq, sizeof u.seq, l + used);
    if (t->n < max) t->u[t->n++] = u;
    rows++;
  }
  if (rc == 0 && r.lineno == 0) rc = bad(&r, "empty file");
  /* the header counts the rows: a table cut short is refused, not shown short */
  if (rc == 0 && rows != t->units) rc = bad(&r, "truncated: the header's count of units differs from the table's rows");
  close_rd(&r);
  if (rc) rf_free_units(t);
  return rc;
}

char *rf_read_text(const char *path, size_t max, char *err, size_t errlen) {
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    return NULL;
  }
  char *buf = malloc(max + 8);
  if (buf == NULL) {
    fclose(f);
    snprintf(err, errlen, "%s: out of memory", path);
    return NULL;
  }
  size_t n = fread(buf, 1, max, f);
  if (ferror(f)) {
    snprintf(err, errlen, "%s: read error", path);
    free(buf);
    fclose(f);
    return NULL;
  }
  if (n == max && fgetc(f) != EOF) memcpy(buf + n, "\n[...]", 6), n += 6;
  buf[n] = '\0';
  fclose(f);
  return buf;
}
