/* LLVM sample profiles from edge profiles; see sample_prof.h. */
#include "sample_prof.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "block_counts.h"

typedef struct {
  unsigned offset, disc;
  int64_t count;
} key_t_;

static int by_key(const void *a, const void *b) {
  const key_t_ *x = a, *y = b;
  if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
  return x->disc < y->disc ? -1 : x->disc > y->disc;
}

/* LLVM encodes the base discriminator with a prefix code: an odd value has none (0); otherwise the
 * value shifted right once holds it in its low 5 bits, or, with bit 5 set, in bits 6 and up (the
 * high 7 bits) and the low 5 bits. */
unsigned sample_base_discriminator(unsigned disc) {
  if (disc & 1u) return 0;
  const unsigned u = disc >> 1;
  return (u & 0x20u) ? (((u >> 1) & 0xfe0u) | (u & 0x1fu)) : (u & 0x1fu);
}

static int write_function(FILE *to, const pm_func_t *f, const int64_t *cnt, const dl_lines_t *d, const dl_func_t *df,
                          sample_stats_t *st) {
  int64_t *bc = block_counts(f, cnt);
  size_t n = 0;
  for (unsigned b = 0; b < f->nblk; b++) n += f->blk[b].end > f->blk[b].start ? (f->blk[b].end - f->blk[b].start) / 4u : 0;
  key_t_ *k = malloc((n ? n : 1) * sizeof *k);
  if (bc == NULL || k == NULL) {
    free(bc);
    free(k);
    return -1;
  }
  n = 0;
  for (unsigned b = 0; b < f->nblk; b++)
    for (uint32_t a = f->blk[b].start; a < f->blk[b].end; a += 4) {
      const dl_range_t *r = dl_find(d, a);
      if (r == NULL || r->line < df->decl_line) continue;
      if (r->file != df->file) {
        st->other_file++;
        continue;
      }
      k[n++] = (key_t_){r->line - df->decl_line, sample_base_discriminator(r->disc), bc[b]};
    }
  if (n) qsort(k, n, sizeof *k, by_key);
  size_t m = 0;
  int64_t total = 0;
  for (size_t i = 0; i < n; i++) { /* one sample count a key: the most of its instructions' */
    if (m && k[m - 1].offset == k[i].offset && k[m - 1].disc == k[i].disc) {
      if (k[i].count > k[m - 1].count) k[m - 1].count = k[i].count;
    } else {
      k[m++] = k[i];
    }
  }
  for (size_t i = 0; i < m; i++) total += k[i].count;
  fprintf(to, "%s:%" PRId64 ":%" PRId64 "\n", df->name, total, function_entries(f, cnt));
  for (size_t i = 0; i < m; i++) {
    if (k[i].disc) fprintf(to, " %u.%u: %" PRId64 "\n", k[i].offset, k[i].disc, k[i].count);
    else fprintf(to, " %u: %" PRId64 "\n", k[i].offset, k[i].count);
  }
  st->functions++;
  st->lines += (unsigned)m;
  free(bc);
  free(k);
  return 0;
}

int sample_write(FILE *to, const pm_map_t *m, int64_t *const *counts, const dl_lines_t *d, sample_stats_t *st,
                 char *err, size_t errlen) {
  memset(st, 0, sizeof *st);
  for (unsigned f = 0; f < m->nfn; f++) {
    if (!m->fn[f].instrumented || counts[f] == NULL) {
      st->left_out++;
      continue;
    }
    const dl_func_t *df = dl_func_at(d, m->fn[f].lo);
    if (df == NULL) {
      st->no_debug++;
      continue;
    }
    if (write_function(to, &m->fn[f], counts[f], d, df, st)) {
      snprintf(err, errlen, "out of memory");
      return -1;
    }
  }
  if (ferror(to)) {
    snprintf(err, errlen, "write error");
    return -1;
  }
  return 0;
}
