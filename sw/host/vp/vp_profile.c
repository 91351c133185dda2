/* Load-value profile files; see vp_profile.h. */
#include "vp_profile.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *path;
  char *err;
  size_t errlen;
} ctx_t;

static int fail(const ctx_t *c, unsigned line, const char *what) {
  snprintf(c->err, c->errlen, "%s:%u: %s", c->path, line, what);
  return -1;
}

const vp_prof_load_t *vp_profile_load(const vp_snapshot_t *s, uint32_t pc) {
  for (size_t k = 0; k < s->n; k++)
    if (s->loads[k].pc == pc) return &s->loads[k];
  return NULL;
}

static vp_prof_load_t *find_load(vp_snapshot_t *s, uint32_t pc) { return (vp_prof_load_t *)vp_profile_load(s, pc); }

static int add_value(vp_prof_load_t *l, uint32_t value, uint64_t hits, uint64_t misses) {
  for (size_t k = 0; k < l->n; k++)
    if (l->v[k].value == value) {
      l->v[k].hits += hits;
      l->v[k].misses += misses;
      return 0;
    }
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 4;
    vp_value_t *g = realloc(l->v, l->cap * sizeof *g);
    if (g == NULL) return -1;
    l->v = g;
  }
  l->v[l->n++] = (vp_value_t){value, hits, misses};
  return 0;
}

void vp_profile_free(vp_profile_t *p) {
  for (size_t k = 0; k < p->nsnap; k++) {
    for (size_t j = 0; j < p->snap[k].n; j++) free(p->snap[k].loads[j].v);
    free(p->snap[k].loads);
  }
  free(p->snap);
  memset(p, 0, sizeof *p);
}

/* Appends a load to s; NULL when out of memory. */
static vp_prof_load_t *new_load(vp_snapshot_t *s, uint32_t pc, unsigned line) {
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 256;
    vp_prof_load_t *g = realloc(s->loads, s->cap * sizeof *g);
    if (g == NULL) return NULL;
    s->loads = g;
  }
  vp_prof_load_t *l = &s->loads[s->n++];
  memset(l, 0, sizeof *l);
  l->pc = pc;
  l->line = line;
  return l;
}

static int read_lines(FILE *f, vp_profile_t *p, const ctx_t *c) {
  char line[512];
  unsigned lineno = 0;
  size_t caps = 0;
  vp_snapshot_t *cs = NULL;
  vp_prof_load_t *cur = NULL;
  bool ended = false;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    if (lineno == 1) {
      if (!strcmp(line, "# hwprof-vp-profile 2\n")) p->kind = kVpCoprocessor;
      else if (!strcmp(line, "# hwprof-vp-samples 2\n")) p->kind = kVpSamples;
      else return fail(c, 1, "not a profile (expected '# hwprof-vp-profile 2' or '# hwprof-vp-samples 2')");
      continue;
    }
    if (line[0] == '#' || line[0] == '\n') continue;
    if (strchr(line, '\n') == NULL) return fail(c, lineno, feof(f) ? "truncated (the last line has no end)" : "line too long");
    if (ended) return fail(c, lineno, "a line after the end record");
    unsigned long a, b, c3, d;
    char rest;
    if (sscanf(line, "end %lu %c", &a, &rest) == 1) {
      if (a != p->nsnap) return fail(c, lineno, "the end record's count of snapshots differs from the file's");
      ended = true;
      continue;
    }
    const int snap = sscanf(line, "snapshot %lu %lu", &a, &b) == 2;
    if (snap || cs == NULL) {
      if (p->nsnap == caps) {
        caps = caps ? 2 * caps : 16;
        vp_snapshot_t *g = realloc(p->snap, caps * sizeof *g);
        if (g == NULL) return fail(c, lineno, "out of memory");
        p->snap = g;
      }
      cs = &p->snap[p->nsnap++];
      memset(cs, 0, sizeof *cs);
      cur = NULL;
      if (snap) {
        cs->instructions = a;
        cs->overhead = b;
        continue;
      }
    }
    if (p->kind == kVpCoprocessor && sscanf(line, "load %lx %lu %lu %lu", &a, &b, &c3, &d) == 4) {
      if (find_load(cs, (uint32_t)a)) return fail(c, lineno, "load listed twice");
      if ((cur = new_load(cs, (uint32_t)a, lineno)) == NULL) return fail(c, lineno, "out of memory");
      cur->total = b;
    } else if (p->kind == kVpCoprocessor && sscanf(line, "value %lx %lu %lu", &a, &b, &c3) == 3) {
      if (cur == NULL) return fail(c, lineno, "a value before any load");
      if (add_value(cur, (uint32_t)a, b, c3)) return fail(c, lineno, "out of memory");
    } else if (p->kind == kVpSamples && sscanf(line, "%lx %lx %lu", &a, &b, &c3) == 3) {
      cur = find_load(cs, (uint32_t)a);
      if (cur == NULL && (cur = new_load(cs, (uint32_t)a, lineno)) == NULL) return fail(c, lineno, "out of memory");
      cur->total += c3;
      if (add_value(cur, (uint32_t)b, c3, 0)) return fail(c, lineno, "out of memory");
    } else {
      return fail(c, lineno, p->kind == kVpSamples
                                 ? "expected '0x<pc> 0x<value> <count>' or 'snapshot <instructions> <overhead>'"
                                 : "expected 'load 0x<pc> <total> <intervals> <masked>', 'value 0x<value> <hits> "
                                   "<misses>' or 'snapshot <instructions> <overhead>'");
    }
  }
  if (p->nsnap == 0) return fail(c, lineno, "no profile in the file");
  if (!ended) return fail(c, lineno, "truncated: no end record");
  /* a load's hits and misses are samples its slots counted: never more than its total */
  for (size_t k = 0; k < p->nsnap; k++)
    for (size_t j = 0; j < p->snap[k].n; j++) {
      const vp_prof_load_t *l = &p->snap[k].loads[j];
      uint64_t counted = 0;
      for (size_t q = 0; q < l->n; q++) counted += l->v[q].hits + l->v[q].misses;
      if (counted > l->total) return fail(c, l->line, "the load's values have more hits and misses than its total");
    }
  return 0;
}

int vp_profile_read(vp_profile_t *p, const char *path, char *err, size_t errlen) {
  const ctx_t c = {path, err, errlen};
  memset(p, 0, sizeof *p);
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    return -1;
  }
  const int rc = read_lines(f, p, &c);
  fclose(f);
  if (rc) vp_profile_free(p);
  return rc;
}
