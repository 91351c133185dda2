/* The indexed run file; see wpp_index.h. Layout (little-endian): a 32-byte header (magic, version,
 * levels, instructions, path traversals), then per level: the record count (8 bytes), the records
 * (start, end, path_end: 8 bytes each; unit, trips: 4 bytes each) and the unit index (4 bytes per
 * record). */
#include "wpp_index.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace_file.h"

static void put64(FILE *f, uint64_t v, int *bad) {
  uint8_t b[8];
  for (unsigned i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
  *bad |= fwrite(b, 1, 8, f) != 8;
}
static void put32(FILE *f, uint32_t v, int *bad) {
  uint8_t b[4];
  for (unsigned i = 0; i < 4; i++) b[i] = (uint8_t)(v >> (8 * i));
  *bad |= fwrite(b, 1, 4, f) != 4;
}
static uint64_t get64(const uint8_t *p) {
  uint64_t v = 0;
  for (unsigned i = 0; i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}
static uint32_t get32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static const wpp_run_t *g_sort_runs; /* qsort has no context argument in C11 */
static int by_unit_cmp(const void *a, const void *b) {
  const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  const uint32_t ux = g_sort_runs[x].unit, uy = g_sort_runs[y].unit;
  return ux != uy ? (ux < uy ? -1 : 1) : (x < y ? -1 : x > y);
}

static uint32_t *unit_index(const wpp_run_t *run, uint64_t n) {
  uint32_t *ix = malloc((n ? n : 1) * sizeof *ix);
  if (ix == NULL) return NULL;
  for (uint64_t i = 0; i < n; i++) ix[i] = (uint32_t)i;
  g_sort_runs = run;
  qsort(ix, n, sizeof *ix, by_unit_cmp);
  return ix;
}

int wpp_index_write(const wpp_t *w, const char *path, char *err, size_t errlen) {
  FILE *f = fopen(path, "wb");
  if (f == NULL) {
    snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
    return -1;
  }
  int bad = fwrite(HWPROF_WPX_MAGIC, 1, 8, f) != 8;
  put32(f, HWPROF_WPP_FILE_VERSION, &bad);
  put32(f, w->cfg.levels, &bad);
  put64(f, w->now, &bad);
  put64(f, w->path_traversals, &bad);
  for (unsigned k = 0; k < w->cfg.levels && !bad; k++) {
    const wpp_level_t *l = &w->level[k];
    if (l->nrun > UINT32_MAX) bad = 1;
    put64(f, l->nrun, &bad);
    for (uint64_t i = 0; i < l->nrun; i++) {
      put64(f, l->run[i].start, &bad);
      put64(f, l->run[i].end, &bad);
      put64(f, l->run[i].path_end, &bad);
      put32(f, l->run[i].unit, &bad);
      put32(f, l->run[i].trips, &bad);
    }
    uint32_t *ix = unit_index(l->run, l->nrun);
    if (ix == NULL) bad = 1;
    for (uint64_t i = 0; ix && i < l->nrun; i++) put32(f, ix[i], &bad);
    free(ix);
  }
  bad |= fclose(f) != 0;
  if (bad) {
    snprintf(err, errlen, "%s: write error", path);
    return -1;
  }
  return 0;
}

int wpp_index_parse(wpp_index_t *x, const uint8_t *buf, size_t len, const char *name, char *err, size_t errlen) {
  memset(x, 0, sizeof *x);
  if (hwprof_wpp_check_header(buf, len, 32, HWPROF_WPX_MAGIC, "wpp index", name, err, errlen)) return -1;
  x->levels = get32(buf + 12);
  x->insns = get64(buf + 16);
  x->paths = get64(buf + 24);
  if (x->levels == 0 || x->levels > WPP_MAX_LEVELS) {
    snprintf(err, errlen, "%s: offset 12: %" PRIu32 " levels (expects 1..%u)", name, x->levels, WPP_MAX_LEVELS);
    return -1;
  }
  size_t off = 32;
  for (unsigned k = 0; k < x->levels; k++) {
    if (len - off < 8) goto truncated;
    const uint64_t n = get64(buf + off);
    off += 8;
    if (n > (len - off) / (HWPROF_WPX_RECORD_BYTES + 4u)) goto truncated;
    x->level[k].n = n;
    x->level[k].run = malloc((n ? n : 1) * sizeof *x->level[k].run);
    x->level[k].by_unit = malloc((n ? n : 1) * sizeof *x->level[k].by_unit);
    if (x->level[k].run == NULL || x->level[k].by_unit == NULL) {
      snprintf(err, errlen, "%s: out of memory", name);
      wpp_index_free(x);
      return -1;
    }
    for (uint64_t i = 0; i < n; i++, off += HWPROF_WPX_RECORD_BYTES) {
      const uint8_t *p = buf + off;
      wpp_run_t r = {get64(p), get64(p + 8), get64(p + 16), get32(p + 24), get32(p + 28)};
      const wpp_run_t *prev = i ? &x->level[k].run[i - 1] : NULL;
      if (r.end < r.start || r.end > x->insns || r.trips == 0 || (prev && (r.start < prev->end || r.path_end < prev->path_end))) {
        snprintf(err, errlen, "%s: offset %zu: level %u record %" PRIu64 " is out of order or out of range", name, off, k, i);
        wpp_index_free(x);
        return -1;
      }
      x->level[k].run[i] = r;
    }
    for (uint64_t i = 0; i < n; i++, off += 4) {
      const uint32_t j = get32(buf + off);
      const uint32_t *prev = i ? &x->level[k].by_unit[i - 1] : NULL;
      if (j >= n || (prev && (x->level[k].run[*prev].unit > x->level[k].run[j].unit ||
                              (x->level[k].run[*prev].unit == x->level[k].run[j].unit && *prev >= j)))) {
        snprintf(err, errlen, "%s: offset %zu: level %u's unit index is not sorted", name, off, k);
        wpp_index_free(x);
        return -1;
      }
      x->level[k].by_unit[i] = j;
    }
  }
  if (off != len) {
    snprintf(err, errlen, "%s: offset %zu: data after the last level", name, off);
    wpp_index_free(x);
    return -1;
  }
  return 0;
truncated:
  snprintf(err, errlen, "%s: truncated at offset %zu", name, off);
  wpp_index_free(x);
  return -1;
}

static int index_parse(void *x, const uint8_t *buf, size_t len, const char *name, char *err, size_t errlen) {
  return wpp_index_parse(x, buf, len, name, err, errlen);
}
int wpp_index_load(wpp_index_t *x, const char *path, char *err, size_t errlen) {
  memset(x, 0, sizeof *x);
  return hwprof_wpp_load(path, index_parse, x, err, errlen);
}

void wpp_index_free(wpp_index_t *x) {
  for (unsigned k = 0; k < WPP_MAX_LEVELS; k++) {
    free(x->level[k].run);
    free(x->level[k].by_unit);
  }
  memset(x, 0, sizeof *x);
}

int64_t wpp_index_at_insn(const wpp_index_t *x, unsigned k, uint64_t i) {
  if (k >= x->levels) return -1;
  const wpp_run_t *r = x->level[k].run;
  uint64_t lo = 0, hi = x->level[k].n; /* the first record ending after i */
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (r[mid].end <= i) lo = mid + 1;
    else hi = mid;
  }
  return lo < x->level[k].n && r[lo].start <= i ? (int64_t)lo : -1;
}

int64_t wpp_index_at_path(const wpp_index_t *x, uint64_t p) {
  const wpp_run_t *r = x->level[0].run;
  uint64_t lo = 0, hi = x->level[0].n; /* the first record whose path_end >= p */
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (r[mid].path_end < p) lo = mid + 1;
    else hi = mid;
  }
  return p >= 1 && lo < x->level[0].n && r[lo].path_end - r[lo].trips < p ? (int64_t)lo : -1;
}

uint64_t wpp_index_of_unit(const wpp_index_t *x, unsigned k, uint32_t u, uint64_t *first) {
  *first = 0;
  if (k >= x->levels) return 0;
  const uint32_t *ix = x->level[k].by_unit;
  const wpp_run_t *r = x->level[k].run;
  uint64_t lo = 0, hi = x->level[k].n;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (r[ix[mid]].unit < u) lo = mid + 1;
    else hi = mid;
  }
  uint64_t end = lo;
  while (end < x->level[k].n && r[ix[end]].unit == u) end++;
  *first = lo;
  return end - lo;
}
