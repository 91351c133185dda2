/* The instrumenter's map file: writing, reading (every line checked), freeing; see profmap.h and
 * docs/instrumenter.md, "The map". A map starts with its header line and ends with its end record,
 * which counts the functions, blocks and edges before it: a map cut anywhere is refused. */
#include "profmap.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void node_str(int b, char *buf, size_t n) {
  if (b == HWPROF_CFG_EXIT) snprintf(buf, n, "exit");
  else snprintf(buf, n, "%d", b);
}

static void counter_str(int c, char *buf, size_t n) {
  if (c == PM_NONE) snprintf(buf, n, "-");
  else snprintf(buf, n, "%d", c);
}

int pm_write(const pm_map_t *m, FILE *to) {
  fprintf(to, "hwprof-map 2\n");
  unsigned long nblk = 0, nedge = 0;
  fprintf(to, "program %s\nmode %s\nk %u\ncounter-bytes %u\ncounters 0x%08" PRIx32 " %u\n", m->program, m->mode, m->k,
          m->cnt_bytes, m->counters_at, m->total_counters);
  if (m->text_hi) fprintf(to, "text 0x%08" PRIx32 " 0x%08" PRIx32 "\n", m->text_lo, m->text_hi);
  for (unsigned i = 0; i < m->nfn; i++) {
    const pm_func_t *f = &m->fn[i];
    fprintf(to, "function %s 0x%08" PRIx32 " 0x%08" PRIx32 " 0x%08" PRIx32 " 0x%08" PRIx32 " %u %u %s%s%s\n", f->name,
            f->lo, f->hi, f->new_entry, f->base, f->ncounters, f->nregions,
            f->instrumented ? "instrumented" : f->derived ? "derived" : "skipped", pm_profiled(f) ? "" : " ",
            pm_profiled(f) ? "" : f->why);
    for (unsigned b = 0; b < f->nblk; b++) {
      const pm_block_t *x = &f->blk[b];
      char c[16], t[16];
      counter_str(x->counter, c, sizeof c);
      counter_str(x->term_counter, t, sizeof t);
      fprintf(to, "block %u 0x%08" PRIx32 " 0x%08" PRIx32 " 0x%08" PRIx32 " %d %s %s\n", b, x->start, x->end,
              x->new_start, x->region, c, t);
    }
    for (unsigned e = 0; e < f->nedge; e++) {
      const pm_edge_t *x = &f->edge[e];
      char s[16], d[16], c[16];
      node_str(x->src, s, sizeof s);
      node_str(x->dst, d, sizeof d);
      counter_str(x->counter, c, sizeof c);
      fprintf(to, "edge %u %s %s %s 0x%08" PRIx32 " 0x%08" PRIx32 " %s\n", e, hwprof_cfg_kind_names[x->kind], s, d,
              x->term_new, x->dst_new, c);
    }
    for (unsigned k = 0; k < f->nsrc; k++) {
      const pm_source_t *x = &f->src[k];
      fprintf(to, "from %d %u %s %d\n", x->entry, x->fn, x->edge != PM_NONE ? "edge" : "block",
              x->edge != PM_NONE ? x->edge : x->block);
    }
    nblk += f->nblk;
    nedge += f->nedge;
  }
  fprintf(to, "end %u %lu %lu\n", m->nfn, nblk, nedge);
  return ferror(to) ? -1 : 0;
}

void pm_free(pm_map_t *m) {
  for (unsigned i = 0; i < m->nfn; i++) {
    free(m->fn[i].blk);
    free(m->fn[i].edge);
    free(m->fn[i].src);
  }
  free(m->fn);
  memset(m, 0, sizeof *m);
}

static int parse_node(const char *s, int *out) {
  if (!strcmp(s, "exit")) {
    *out = HWPROF_CFG_EXIT;
    return 0;
  }
  char *end;
  long v = strtol(s, &end, 10);
  if (*s == 0 || *end || v < 0 || v > 1000000) return -1;
  *out = (int)v;
  return 0;
}

static int parse_counter(const char *s, int *out) {
  if (!strcmp(s, "-")) {
    *out = PM_NONE;
    return 0;
  }
  return parse_node(s, out) == 0 && *out != HWPROF_CFG_EXIT ? 0 : -1;
}

#define BAD(...)                                                          \
  do {                                                                    \
    char why_[160];                                                       \
    snprintf(why_, sizeof why_, __VA_ARGS__);                             \
    snprintf(err, errlen, "%s:%u: %s", path, line, why_);                 \
    fclose(in);                                                           \
    pm_free(m);                                                           \
    return -1;                                                            \
  } while (0)

static void *grow(void *p, unsigned n, unsigned *cap, size_t size) {
  if (n < *cap) return p;
  unsigned c = *cap ? *cap * 2 : 16;
  void *q = realloc(p, (size_t)c * size);
  if (q) *cap = c;
  return q;
}

int pm_read(pm_map_t *m, const char *path, char *err, size_t errlen) {
  memset(m, 0, sizeof *m);
  unsigned line = 0;
  FILE *in = fopen(path, "r");
  if (in == NULL) {
    snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    return -1;
  }
  char buf[512];
  unsigned fcap = 0, bcap = 0, ecap = 0, scap = 0;
  pm_func_t *f = NULL;
  bool header = false, ended = false;
  unsigned long nblk = 0, nedge = 0;
  while (fgets(buf, sizeof buf, in)) {
    line++;
    if (strchr(buf, '\n') == NULL) BAD(feof(in) ? "truncated (the last line has no end)" : "line too long");
    char word[32];
    if (sscanf(buf, "%31s", word) != 1 || word[0] == '#') continue;
    if (ended) BAD("a line after the end record");
    if (!header) {
      unsigned v;
      if (sscanf(buf, "hwprof-map %u", &v) != 1 || v != 2) BAD("not an hwprof map (expected 'hwprof-map 2')");
      header = true;
    } else if (!strcmp(word, "end")) {
      unsigned long ef, eb, ee;
      char rest;
      if (sscanf(buf, "end %lu %lu %lu %c", &ef, &eb, &ee, &rest) != 3) BAD("malformed end record");
      for (unsigned i = 0; i < m->nfn; i++) {
        nblk += m->fn[i].nblk;
        nedge += m->fn[i].nedge;
      }
      if (ef != m->nfn || eb != nblk || ee != nedge)
        BAD("the end record counts %lu functions, %lu blocks, %lu edges; the map has %u, %lu, %lu", ef, eb, ee, m->nfn,
            nblk, nedge);
      ended = true;
    } else if (!strcmp(word, "program")) {
      if (sscanf(buf, "program %255s", m->program) != 1) BAD("malformed program line");
    } else if (!strcmp(word, "mode")) {
      if (sscanf(buf, "mode %15s", m->mode) != 1) BAD("malformed mode line");
    } else if (!strcmp(word, "k")) {
      if (sscanf(buf, "k %u", &m->k) != 1) BAD("malformed k line");
    } else if (!strcmp(word, "counter-bytes")) {
      if (sscanf(buf, "counter-bytes %u", &m->cnt_bytes) != 1 ||
          (m->cnt_bytes != 1 && m->cnt_bytes != 2 && m->cnt_bytes != 4 && m->cnt_bytes != 8))
        BAD("malformed counter-bytes line (1, 2, 4 or 8)");
    } else if (!strcmp(word, "counters")) {
      if (sscanf(buf, "counters %" SCNx32 " %u", &m->counters_at, &m->total_counters) != 2)
        BAD("malformed counters line");
    } else if (!strcmp(word, "text")) {
      if (sscanf(buf, "text %" SCNx32 " %" SCNx32, &m->text_lo, &m->text_hi) != 2 || m->text_hi <= m->text_lo)
        BAD("malformed text line (two addresses, the first below the second)");
    } else if (!strcmp(word, "function")) {
      if ((m->fn = grow(m->fn, m->nfn, &fcap, sizeof *m->fn)) == NULL) BAD("out of memory");
      f = &m->fn[m->nfn++];
      memset(f, 0, sizeof *f);
      f->dispatch = -1;
      bcap = ecap = 0;
      char status[32];
      int pos = 0;
      if (sscanf(buf, "function %63s %" SCNx32 " %" SCNx32 " %" SCNx32 " %" SCNx32 " %u %u %31s %n", f->name, &f->lo,
                 &f->hi, &f->new_entry, &f->base, &f->ncounters, &f->nregions, status, &pos) < 8)
        BAD("malformed function line");
      /* the program's counters line comes first and counts every function's counters (%u also
       * takes "-3", as 4294967293) */
      if (f->ncounters > m->total_counters)
        BAD("function %s has %u counters, more than the program's %u (counters line)", f->name, f->ncounters,
            m->total_counters);
      f->instrumented = !strcmp(status, "instrumented");
      f->derived = !strcmp(status, "derived");
      if (!pm_profiled(f) && strcmp(status, "skipped"))
        BAD("function status '%s' (instrumented, derived or skipped)", status);
      if (f->derived && (f->ncounters || f->nregions)) BAD("derived function %s with counters", f->name);
      scap = 0;
      if (!pm_profiled(f)) {
        snprintf(f->why, sizeof f->why, "%s", buf + pos);
        f->why[strcspn(f->why, "\n")] = 0;
      }
    } else if (!strcmp(word, "block")) {
      if (f == NULL) BAD("block before any function");
      if ((f->blk = grow(f->blk, f->nblk, &bcap, sizeof *f->blk)) == NULL) BAD("out of memory");
      pm_block_t *x = &f->blk[f->nblk];
      unsigned idx;
      char c[16], t[16];
      if (sscanf(buf, "block %u %" SCNx32 " %" SCNx32 " %" SCNx32 " %d %15s %15s", &idx, &x->start, &x->end,
                 &x->new_start, &x->region, c, t) != 7 || idx != f->nblk || parse_counter(c, &x->counter) ||
          parse_counter(t, &x->term_counter))
        BAD("malformed block line");
      if ((x->counter != PM_NONE && (unsigned)x->counter >= f->ncounters) ||
          (x->term_counter != PM_NONE && (unsigned)x->term_counter >= f->ncounters))
        BAD("block counter out of range");
      if (x->start == x->end) { /* the dispatch node: one, empty */
        if (f->dispatch >= 0) BAD("a second empty block (a function has at most one dispatch node)");
        f->dispatch = (int)f->nblk;
      }
      f->nblk++;
    } else if (!strcmp(word, "edge")) {
      if (f == NULL) BAD("edge before any function");
      if ((f->edge = grow(f->edge, f->nedge, &ecap, sizeof *f->edge)) == NULL) BAD("out of memory");
      pm_edge_t *x = &f->edge[f->nedge];
      unsigned idx;
      char kind[32], s[16], d[16], c[16];
      if (sscanf(buf, "edge %u %31s %15s %15s %" SCNx32 " %" SCNx32 " %15s", &idx, kind, s, d, &x->term_new, &x->dst_new,
                 c) != 7 || idx != f->nedge)
        BAD("malformed edge line");
      int k;
      for (k = 0; k < HWPROF_CFG_NKINDS && strcmp(kind, hwprof_cfg_kind_names[k]); k++) {
      }
      if (k == HWPROF_CFG_NKINDS) BAD("unknown edge kind '%s'", kind);
      x->kind = (hwprof_cfg_kind_t)k;
      if (parse_node(s, &x->src) || parse_node(d, &x->dst) || parse_counter(c, &x->counter)) BAD("malformed edge line");
      if ((x->src != HWPROF_CFG_EXIT && (unsigned)x->src >= f->nblk) || (x->dst != HWPROF_CFG_EXIT && (unsigned)x->dst >= f->nblk))
        BAD("edge %u names a block that does not exist", idx);
      if (x->counter != PM_NONE && (unsigned)x->counter >= f->ncounters) BAD("edge counter %d out of range", x->counter);
      f->nedge++;
    } else if (!strcmp(word, "from")) {
      if (f == NULL || !f->derived) BAD("a from line outside a derived function");
      if ((f->src = grow(f->src, f->nsrc, &scap, sizeof *f->src)) == NULL) BAD("out of memory");
      pm_source_t *x = &f->src[f->nsrc];
      char what[16], rest;
      int idx;
      if (sscanf(buf, "from %d %u %15s %d %c", &x->entry, &x->fn, what, &idx, &rest) != 4 || idx < 0 ||
          (strcmp(what, "block") && strcmp(what, "edge")))
        BAD("malformed from line (from ENTRY-EDGE FUNCTION block|edge INDEX)");
      if (x->entry < 0 || (unsigned)x->entry >= f->nedge || f->edge[x->entry].kind != HWPROF_CFG_VIRTUAL_ENTRY)
        BAD("from line: edge %d of %s is not a virtual entry edge", x->entry, f->name);
      x->block = !strcmp(what, "block") ? idx : PM_NONE;
      x->edge = !strcmp(what, "edge") ? idx : PM_NONE;
      f->nsrc++;
    } else {
      BAD("unknown line '%s'", word);
    }
  }
  if (!header) BAD("empty file");
  if (!ended) BAD("truncated: no end record");
  /* a derived function's callers come anywhere in the map: checked once all are read */
  for (unsigned i = 0; i < m->nfn; i++)
    for (unsigned k = 0; k < m->fn[i].nsrc; k++) {
      const pm_source_t *x = &m->fn[i].src[k];
      const pm_func_t *g = x->fn < m->nfn ? &m->fn[x->fn] : NULL;
      if (g == NULL || !g->instrumented || (x->block != PM_NONE && (unsigned)x->block >= g->nblk) ||
          (x->edge != PM_NONE && (unsigned)x->edge >= g->nedge))
        BAD("%s: a from line names function %u's %s %d, which is not an instrumented function's", m->fn[i].name, x->fn,
            x->edge != PM_NONE ? "edge" : "block", x->edge != PM_NONE ? x->edge : x->block);
    }
  fclose(in);
  if (m->cnt_bytes == 0) {
    snprintf(err, errlen, "%s: no counter-bytes line", path);
    pm_free(m);
    return -1;
  }
  return 0;
}
