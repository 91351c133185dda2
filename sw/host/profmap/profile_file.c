/* Profile files (docs/instrumenter.md, "The profile file"): writing an edge profile, reading one
 * back against its map, comparing two. Part of the map's library (profmap.h). A file starts with
 * its header line and ends with its end record, which counts the functions and edges before it:
 * a file cut anywhere is refused, never read short. */
#include "profmap.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define PROFILE_HEADER "hwprof-profile 2"

int pm_write_profile(FILE *to, const pm_map_t *m, int64_t *const *counts) {
  fprintf(to, PROFILE_HEADER "\nprogram %s\n", m->program);
  unsigned long nfunc = 0, nedge = 0;
  for (unsigned f = 0; f < m->nfn; f++) {
    const pm_func_t *fn = &m->fn[f];
    if (!pm_profiled(fn) || counts[f] == NULL) continue;
    int64_t entries = 0; /* the virtual entry edges: the function's invocations */
    for (unsigned e = 0; e < fn->nedge; e++)
      if (fn->edge[e].kind == HWPROF_CFG_VIRTUAL_ENTRY) entries += counts[f][e];
    fprintf(to, "function %s 0x%08" PRIx32 " entries %" PRId64 "\n", fn->name, fn->lo, entries);
    nfunc++;
    for (unsigned e = 0; e < fn->nedge; e++) {
      const pm_edge_t *x = &fn->edge[e];
      if (hwprof_cfg_is_virtual(x->kind)) continue;
      fprintf(to, "edge %s 0x%08" PRIx32 " ", hwprof_cfg_kind_names[x->kind], fn->blk[x->src].start);
      if (x->dst == HWPROF_CFG_EXIT)
        fprintf(to, "exit");
      else
        fprintf(to, "0x%08" PRIx32, fn->blk[x->dst].start);
      fprintf(to, " %" PRId64 "\n", counts[f][e]);
      nedge++;
    }
  }
  fprintf(to, "end %lu %lu\n", nfunc, nedge);
  return ferror(to) ? -1 : 0;
}

/* A function with several entry points (a derived one) gets its entries as one sum; each entry
 * edge's share is what leaves its block less what reaches it from the function's own blocks. */
static void split_entries(const pm_func_t *fn, int64_t *row) {
  unsigned n = 0;
  for (unsigned e = 0; e < fn->nedge; e++) n += fn->edge[e].kind == HWPROF_CFG_VIRTUAL_ENTRY;
  if (n < 2) return;
  for (unsigned e = 0; e < fn->nedge; e++) {
    if (fn->edge[e].kind != HWPROF_CFG_VIRTUAL_ENTRY) continue;
    const int b = fn->edge[e].dst;
    int64_t v = 0;
    for (unsigned g = 0; g < fn->nedge; g++) {
      if (hwprof_cfg_is_virtual(fn->edge[g].kind)) continue;
      v += fn->edge[g].src == b ? row[g] : 0;
      v -= fn->edge[g].dst == b ? row[g] : 0;
    }
    row[e] = v;
  }
}

/* One line of a profile file, after its first. */
typedef enum { kLineSkip, kLineFunction, kLineEdge, kLineEnd, kLineBad } line_kind_t;
typedef struct {
  char name[80];                       /* function: its name */
  bool full;                           /* ... with its address and entries */
  unsigned long long at;               /* ... its address */
  char kind[32], src[24], dst[24];     /* edge: kind, source block, destination block or "exit" */
  long long count;                     /* function: entries; edge: its count */
  unsigned long nfunc, nedge;          /* end: the functions and edges before it */
} line_t;

static bool profile_header(const char *buf) { return strcmp(buf, PROFILE_HEADER "\n") == 0; }

/* What the end record and what follows it say, given the functions and edges read: "" when they
 * agree and nothing follows, else the error (the line number goes in front). */
static const char *end_problem(bool ended, unsigned long nfunc, unsigned long nedge, const line_t *end) {
  if (!ended) return "truncated: no end record";
  if (end->nfunc != nfunc || end->nedge != nedge) return "the end record's counts differ from the file's";
  return "";
}

static line_kind_t profile_line(const char *buf, line_t *r) {
  if (!strncmp(buf, "program ", 8) || buf[0] == '#' || buf[0] == '\n') return kLineSkip;
  if (sscanf(buf, "function %79s", r->name) == 1) {
    r->full = sscanf(buf, "function %*s %llx entries %lld", &r->at, &r->count) == 2;
    return kLineFunction;
  }
  if (sscanf(buf, "edge %31s %23s %23s %lld", r->kind, r->src, r->dst, &r->count) == 4) return kLineEdge;
  char rest;
  if (sscanf(buf, "end %lu %lu %c", &r->nfunc, &r->nedge, &rest) == 2) return kLineEnd;
  return kLineBad;
}

typedef struct {
  char key[176]; /* function kind src dst */
  int64_t count;
  bool seen;
} prof_line_t;

static int read_profile(const char *path, prof_line_t **out, unsigned *n, char *err, size_t errlen) {
  FILE *in = fopen(path, "r");
  if (in == NULL) {
    snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    return -1;
  }
  char buf[512], fn[80] = "";
  unsigned cap = 0, line = 0;
  unsigned long nfunc = 0;
  bool ended = false;
  line_t end = {0};
  *out = NULL;
  *n = 0;
  while (fgets(buf, sizeof buf, in)) {
    line++;
    if (strchr(buf, '\n') == NULL) {
      snprintf(err, errlen, feof(in) ? "%s:%u: truncated (the last line has no end)" : "%s:%u: line too long", path, line);
      break;
    }
    if (line == 1) {
      if (!profile_header(buf)) {
        snprintf(err, errlen, "%s:1: not an hwprof profile (expected '" PROFILE_HEADER "')", path);
        break;
      }
      continue;
    }
    if (ended) {
      snprintf(err, errlen, "%s:%u: a line after the end record", path, line);
      break;
    }
    line_t r;
    const line_kind_t k = profile_line(buf, &r);
    if (k == kLineSkip) continue;
    if (k == kLineEnd) {
      ended = true;
      end = r;
      continue;
    }
    if (k == kLineFunction) {
      snprintf(fn, sizeof fn, "%s", r.name);
      nfunc++;
      continue;
    }
    if (k == kLineEdge && fn[0]) {
      prof_line_t *p = *n < cap ? *out : realloc(*out, (size_t)(cap = cap ? 2 * cap : 256) * sizeof **out);
      if (p == NULL) {
        snprintf(err, errlen, "out of memory");
        break;
      }
      *out = p;
      snprintf(p[*n].key, sizeof p[*n].key, "%s %s %s %s", fn, r.kind, r.src, r.dst);
      p[*n].count = r.count;
      p[*n].seen = false;
      (*n)++;
      continue;
    }
    snprintf(err, errlen, "%s:%u: malformed line", path, line);
    break;
  }
  if (line == 0 && !err[0]) snprintf(err, errlen, "%s: empty (expected '" PROFILE_HEADER "')", path);
  if (!err[0] && end_problem(ended, nfunc, *n, &end)[0])
    snprintf(err, errlen, "%s:%u: %s", path, line, end_problem(ended, nfunc, *n, &end));
  bool bad = err[0] != 0;
  fclose(in);
  if (bad) {
    free(*out);
    *out = NULL;
    return -1;
  }
  return 0;
}

static int cmp_key(const void *a, const void *b) {
  return strcmp(((const prof_line_t *)a)->key, ((const prof_line_t *)b)->key);
}

long pm_compare_profiles(const char *a, const char *b, FILE *to, long *edges, char *err, size_t errlen) {
  prof_line_t *pa, *pb;
  unsigned na, nb;
  err[0] = 0;
  if (read_profile(a, &pa, &na, err, errlen)) return -1;
  if (read_profile(b, &pb, &nb, err, errlen)) {
    free(pa);
    return -1;
  }
  if (na) qsort(pa, na, sizeof *pa, cmp_key);
  if (nb) qsort(pb, nb, sizeof *pb, cmp_key);
  long diff = 0;
  unsigned shown = 0;
  for (unsigned i = 0; i < na; i++) {
    prof_line_t *m = nb ? bsearch(&pa[i], pb, nb, sizeof *pb, cmp_key) : NULL;
    if (m) m->seen = true;
    if (m == NULL || m->count != pa[i].count) {
      diff++;
      if (shown++ < 10 && to) {
        if (m)
          fprintf(to, "  %s: %lld in %s, %lld in %s\n", pa[i].key, (long long)pa[i].count, a, (long long)m->count, b);
        else
          fprintf(to, "  %s: only in %s\n", pa[i].key, a);
      }
    }
  }
  for (unsigned i = 0; i < nb; i++)
    if (!pb[i].seen) {
      diff++;
      if (shown++ < 10 && to) fprintf(to, "  %s: only in %s\n", pb[i].key, b);
    }
  *edges = (long)(na > nb ? na : nb);
  free(pa);
  free(pb);
  return diff;
}

/* The edge of f that a profile line names: kind, the source block's start and the destination's
 * start (or EXIT); the first one not yet given a count (used[e]). -1 when there is none. */
static int edge_named(const pm_func_t *f, const char *kind, uint32_t src, bool to_exit, uint32_t dst,
                      const bool *used) {
  for (unsigned e = 0; e < f->nedge; e++) {
    const pm_edge_t *x = &f->edge[e];
    if (used[e] || hwprof_cfg_is_virtual(x->kind) || strcmp(hwprof_cfg_kind_names[x->kind], kind) != 0) continue;
    if (f->blk[x->src].start != src) continue;
    if (to_exit ? x->dst != HWPROF_CFG_EXIT : (x->dst == HWPROF_CFG_EXIT || f->blk[x->dst].start != dst)) continue;
    return (int)e;
  }
  return -1;
}

int pm_read_profile(const pm_map_t *m, const char *path, int64_t ***counts_out, char *err, size_t errlen) {
  err[0] = 0;
  *counts_out = NULL;
  FILE *in = fopen(path, "r");
  if (in == NULL) {
    snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    return -1;
  }
  int64_t **counts = calloc(m->nfn ? m->nfn : 1, sizeof *counts);
  bool **used = calloc(m->nfn ? m->nfn : 1, sizeof *used);
  char buf[512];
  unsigned line = 0;
  int f = -1;
  unsigned long nfunc = 0, nedge = 0;
  bool ended = false;
  line_t end = {0};
  if (counts == NULL || used == NULL) {
    snprintf(err, errlen, "out of memory");
    goto out;
  }
  while (fgets(buf, sizeof buf, in)) {
    line++;
    if (strchr(buf, '\n') == NULL) {
      snprintf(err, errlen, feof(in) ? "%s:%u: truncated (the last line has no end)" : "%s:%u: line too long", path, line);
      goto out;
    }
    if (line == 1) {
      if (!profile_header(buf)) {
        snprintf(err, errlen, "%s:1: not an hwprof profile (expected '" PROFILE_HEADER "')", path);
        goto out;
      }
      continue;
    }
    if (ended) {
      snprintf(err, errlen, "%s:%u: a line after the end record", path, line);
      goto out;
    }
    line_t r;
    const line_kind_t k = profile_line(buf, &r);
    if (k == kLineSkip) continue;
    if (k == kLineEnd) {
      ended = true;
      end = r;
      continue;
    }
    if (k == kLineFunction && r.full) {
      nfunc++;
      const char *name = r.name;
      const unsigned long long at = r.at;
      const long long count = r.count;
      f = -1;
      for (unsigned i = 0; i < m->nfn && f < 0; i++)
        if (pm_profiled(&m->fn[i]) && m->fn[i].lo == at && strcmp(m->fn[i].name, name) == 0) f = (int)i;
      if (f < 0) {
        snprintf(err, errlen, "%s:%u: function %s at 0x%08llx is not a profiled function of the map", path, line,
                 name, at);
        goto out;
      }
      if (counts[f]) {
        snprintf(err, errlen, "%s:%u: function %s given twice", path, line, name);
        goto out;
      }
      const pm_func_t *fn = &m->fn[f];
      counts[f] = calloc(fn->nedge ? fn->nedge : 1, sizeof **counts);
      used[f] = calloc(fn->nedge ? fn->nedge : 1, sizeof **used);
      if (counts[f] == NULL || used[f] == NULL) {
        snprintf(err, errlen, "out of memory");
        goto out;
      }
      for (unsigned e = 0; e < fn->nedge; e++)
        if (fn->edge[e].kind == HWPROF_CFG_VIRTUAL_ENTRY) {
          counts[f][e] = count;
          used[f][e] = true;
        } else if (hwprof_cfg_is_virtual(fn->edge[e].kind)) {
          used[f][e] = true; /* not in the file: never counted */
        }
      continue;
    }
    if (k == kLineEdge && f >= 0) {
      const char *kind = r.kind, *src = r.src, *dst = r.dst;
      const long long count = r.count;
      const bool to_exit = strcmp(dst, "exit") == 0;
      const int e = edge_named(&m->fn[f], kind, (uint32_t)strtoul(src, NULL, 16), to_exit,
                               to_exit ? 0 : (uint32_t)strtoul(dst, NULL, 16), used[f]);
      if (e < 0) {
        snprintf(err, errlen, "%s:%u: %s has no such edge (%s %s %s) in the map", path, line, m->fn[f].name, kind, src,
                 dst);
        goto out;
      }
      if (count < 0) {
        snprintf(err, errlen, "%s:%u: negative count", path, line);
        goto out;
      }
      counts[f][e] = count;
      used[f][e] = true;
      nedge++;
      continue;
    }
    snprintf(err, errlen, "%s:%u: malformed line", path, line);
    goto out;
  }
  if (line == 0) snprintf(err, errlen, "%s: empty (expected '" PROFILE_HEADER "')", path);
  if (!err[0] && end_problem(ended, nfunc, nedge, &end)[0])
    snprintf(err, errlen, "%s:%u: %s", path, line, end_problem(ended, nfunc, nedge, &end));
  for (unsigned i = 0; i < m->nfn && !err[0]; i++)
    for (unsigned e = 0; counts[i] && e < m->fn[i].nedge; e++)
      if (!used[i][e]) {
        snprintf(err, errlen, "%s: truncated: edge %u of %s has no count", path, e, m->fn[i].name);
        break;
      }
  for (unsigned i = 0; i < m->nfn && !err[0]; i++)
    if (counts[i]) split_entries(&m->fn[i], counts[i]);
out:
  fclose(in);
  for (unsigned i = 0; used && i < m->nfn; i++) free(used[i]);
  free(used);
  if (err[0]) {
    pm_free_counts(m, counts);
    return -1;
  }
  *counts_out = counts;
  return 0;
}

void pm_free_counts(const pm_map_t *m, int64_t **counts) {
  for (unsigned i = 0; counts && i < m->nfn; i++) free(counts[i]);
  free(counts);
}
