/* lcov tracefiles from edge profiles; see lcov.h. */
#include "lcov.h"

#include "block_counts.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  unsigned file, line;
  int64_t count;
} line_t;

typedef struct {
  unsigned file, line;
  const char *name;
  int64_t count;
} fn_t;

typedef struct {
  unsigned file, line;
  uint32_t block; /* lcov's block number: the instruction's address */
  unsigned branch;
  int64_t count; /* -1: the instruction never ran ("-") */
} br_t;

typedef struct {
  void *p;
  size_t n, cap, size;
} vec_t;

static void *push(vec_t *v) {
  if (v->n == v->cap) {
    const size_t cap = v->cap ? 2 * v->cap : 256;
    void *p = realloc(v->p, cap * v->size);
    if (p == NULL) return NULL;
    v->p = p;
    v->cap = cap;
  }
  return (char *)v->p + v->size * v->n++;
}

static int cmp_line(const void *a, const void *b) {
  const line_t *x = a, *y = b;
  if (x->file != y->file) return x->file < y->file ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}
static int cmp_fn(const void *a, const void *b) {
  const fn_t *x = a, *y = b;
  if (x->file != y->file) return x->file < y->file ? -1 : 1;
  if (x->line != y->line) return x->line < y->line ? -1 : 1;
  return strcmp(x->name, y->name);
}
static int cmp_br(const void *a, const void *b) {
  const br_t *x = a, *y = b;
  if (x->file != y->file) return x->file < y->file ? -1 : 1;
  if (x->line != y->line) return x->line < y->line ? -1 : 1;
  if (x->block != y->block) return x->block < y->block ? -1 : 1;
  return x->branch < y->branch ? -1 : x->branch > y->branch;
}

/* files in the order of their paths */
typedef struct {
  const char *path;
  unsigned file;
} file_order_t;
static int cmp_path(const void *a, const void *b) {
  return strcmp(((const file_order_t *)a)->path, ((const file_order_t *)b)->path);
}

/* One function's lines, entry and branches. */
static int add_function(const pm_func_t *f, const int64_t *cnt, const dl_lines_t *d, vec_t *lines, vec_t *fns,
                        vec_t *brs) {
  int64_t *bc = block_counts(f, cnt);
  if (bc == NULL) return -1;
  int rc = 0;
  for (unsigned b = 0; b < f->nblk && !rc; b++) {
    const pm_block_t *x = &f->blk[b];
    for (uint32_t a = x->start; a < x->end; a += 4) {
      const dl_range_t *r = dl_find(d, a);
      if (r == NULL) continue;
      line_t *l = push(lines);
      if (l == NULL) {
        rc = -1;
        break;
      }
      *l = (line_t){r->file, r->line, bc[b]};
    }
    if (x->start >= x->end) continue; /* the dispatch node: no instruction */
    unsigned ways = 0;
    for (unsigned e = 0; e < f->nedge; e++) ways += f->edge[e].src == (int)b && !hwprof_cfg_is_virtual(f->edge[e].kind);
    const dl_range_t *r = dl_find(d, x->end - 4u);
    if (ways < 2 || r == NULL) continue;
    unsigned k = 0;
    for (unsigned pass = 0; pass < 3; pass++) /* taken, not taken, then the other ways in map order */
      for (unsigned e = 0; e < f->nedge && !rc; e++) {
        const hwprof_cfg_kind_t kind = f->edge[e].kind;
        if (f->edge[e].src != (int)b || hwprof_cfg_is_virtual(kind)) continue;
        if (pass != (kind == HWPROF_CFG_TAKEN ? 0u : kind == HWPROF_CFG_NOT_TAKEN ? 1u : 2u)) continue;
        br_t *p = push(brs);
        if (p == NULL)
          rc = -1;
        else
          *p = (br_t){r->file, r->line, x->end - 4u, k++, bc[b] ? cnt[e] : -1};
      }
  }
  const dl_range_t *r = dl_find(d, f->lo);
  if (!rc && r != NULL) {
    fn_t *p = push(fns);
    if (p == NULL)
      rc = -1;
    else
      *p = (fn_t){r->file, r->line, f->name, function_entries(f, cnt)};
  }
  free(bc);
  return rc;
}

int lcov_write(FILE *to, const pm_map_t *m, int64_t *const *counts, const dl_lines_t *d, const char *test_name,
               lcov_stats_t *st, char *err, size_t errlen) {
  vec_t lines = {NULL, 0, 0, sizeof(line_t)}, fns = {NULL, 0, 0, sizeof(fn_t)}, brs = {NULL, 0, 0, sizeof(br_t)};
  file_order_t *order = calloc(d->nfile ? d->nfile : 1, sizeof *order);
  size_t *first[3] = {NULL, NULL, NULL};
  int rc = order == NULL ? -1 : 0;
  memset(st, 0, sizeof *st);
  for (unsigned f = 0; f < m->nfn && !rc; f++) {
    if (!pm_profiled(&m->fn[f]) || counts[f] == NULL) {
      if (st->left_out++ == 0) snprintf(st->first_left_out, sizeof st->first_left_out, "%s", m->fn[f].name);
      continue;
    }
    rc = add_function(&m->fn[f], counts[f], d, &lines, &fns, &brs);
  }
  if (rc) {
    snprintf(err, errlen, "out of memory");
    goto out;
  }
  /* one count a line: the most of its instructions' */
  if (lines.n) qsort(lines.p, lines.n, lines.size, cmp_line);
  line_t *L = lines.p;
  size_t nl = 0;
  for (size_t i = 0; i < lines.n; i++) {
    if (nl && L[nl - 1].file == L[i].file && L[nl - 1].line == L[i].line) {
      if (L[i].count > L[nl - 1].count) L[nl - 1].count = L[i].count;
    } else {
      L[nl++] = L[i];
    }
  }
  if (fns.n) qsort(fns.p, fns.n, fns.size, cmp_fn);
  if (brs.n) qsort(brs.p, brs.n, brs.size, cmp_br);
  /* files by path; each file's records together */
  for (unsigned i = 0; i < d->nfile; i++) order[i] = (file_order_t){d->file[i], i};
  if (d->nfile) qsort(order, d->nfile, sizeof *order, cmp_path);
  fprintf(to, "TN:%s\n", test_name);
  const fn_t *F = fns.p;
  const br_t *B = brs.p;
  /* the three arrays are sorted by file index: where each file's slice starts (its end when empty) */
  for (unsigned k = 0; k < 3; k++) {
    first[k] = malloc((d->nfile + 1) * sizeof **first);
    if (first[k] == NULL) {
      snprintf(err, errlen, "out of memory");
      rc = -1;
      goto out;
    }
    const size_t n = k == 0 ? nl : k == 1 ? fns.n : brs.n;
    size_t i = 0;
    for (unsigned file = 0; file <= d->nfile; file++) {
      while (i < n && (k == 0 ? L[i].file : k == 1 ? F[i].file : B[i].file) < file) i++;
      first[k][file] = i;
    }
  }
  for (unsigned oi = 0; oi < d->nfile; oi++) {
    const unsigned file = order[oi].file;
    const size_t l0 = first[0][file], f0 = first[1][file], b0 = first[2][file];
    if ((l0 == nl || L[l0].file != file) && (f0 == fns.n || F[f0].file != file)) continue; /* no profiled code */
    st->files++;
    fprintf(to, "SF:%s\n", d->file[file]);
    unsigned nf = 0, fh = 0, nb = 0, bh = 0, lf = 0, lh = 0;
    for (size_t i = f0; i < fns.n && F[i].file == file; i++) fprintf(to, "FN:%u,%s\n", F[i].line, F[i].name);
    for (size_t i = f0; i < fns.n && F[i].file == file; i++) {
      fprintf(to, "FNDA:%" PRId64 ",%s\n", F[i].count, F[i].name);
      nf++;
      fh += F[i].count > 0;
    }
    fprintf(to, "FNF:%u\nFNH:%u\n", nf, fh);
    for (size_t i = b0; i < brs.n && B[i].file == file; i++) {
      if (B[i].count < 0)
        fprintf(to, "BRDA:%u,%" PRIu32 ",%u,-\n", B[i].line, B[i].block, B[i].branch);
      else
        fprintf(to, "BRDA:%u,%" PRIu32 ",%u,%" PRId64 "\n", B[i].line, B[i].block, B[i].branch, B[i].count);
      nb++;
      bh += B[i].count > 0;
    }
    if (nb) fprintf(to, "BRF:%u\nBRH:%u\n", nb, bh);
    for (size_t i = l0; i < nl && L[i].file == file; i++) {
      fprintf(to, "DA:%u,%" PRId64 "\n", L[i].line, L[i].count);
      lf++;
      lh += L[i].count > 0;
    }
    fprintf(to, "LF:%u\nLH:%u\nend_of_record\n", lf, lh);
    st->lines += lf;
    st->lines_hit += lh;
    st->functions += nf;
    st->functions_hit += fh;
    st->branches += nb;
    st->branches_hit += bh;
  }
  if (ferror(to)) {
    snprintf(err, errlen, "write error");
    rc = -1;
  }
out:
  free(lines.p);
  free(fns.p);
  free(brs.p);
  free(order);
  for (unsigned k = 0; k < 3; k++) free(first[k]);
  return rc;
}
