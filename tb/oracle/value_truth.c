/* hwprof-sim --value-truth: see value_truth.h. */
#include "oracle/value_truth.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "autogen/hwprof_regs.h"

void value_truth_init(value_truth_t *t, uint32_t reg_base) {
  memset(t, 0, sizeof *t);
  t->reg_base = reg_base;
}

static void map_free(value_truth_map_t *m) {
  free(m->e);
  memset(m, 0, sizeof *m);
}

void value_truth_free(value_truth_t *t) {
  map_free(&t->pairs);
  map_free(&t->loads);
}

static size_t hash(uint64_t k, size_t cap) {
  k ^= k >> 29;
  k *= UINT64_C(0xbf58476d1ce4e5b9);
  k ^= k >> 32;
  return (size_t)k & (cap - 1);
}

/* adds one to the count of key; returns -1 when memory runs out */
static int map_add(value_truth_map_t *m, uint64_t key) {
  if (2 * (m->used + 1) > m->cap) {
    const size_t cap = m->cap ? 2 * m->cap : 4096;
    value_truth_entry_t *e = calloc(cap, sizeof *e);
    if (e == NULL) return -1;
    for (size_t k = 0; k < m->cap; k++) {
      if (!m->e[k].count) continue;
      size_t h = hash(m->e[k].key, cap);
      while (e[h].count) h = (h + 1) & (cap - 1);
      e[h] = m->e[k];
    }
    free(m->e);
    m->e = e;
    m->cap = cap;
  }
  size_t h = hash(key, m->cap);
  while (m->e[h].count && m->e[h].key != key) h = (h + 1) & (m->cap - 1);
  if (!m->e[h].count) {
    m->e[h].key = key;
    m->used++;
  }
  m->e[h].count++;
  return 0;
}

void value_truth_event(value_truth_t *t, const hwprof_retire_ev_t *ev) {
  if (!ev->valid) return;
  const bool on = (t->ctrl >> HWPROF_VPF_CTRL_ENABLE_LSB) & 1u;
  if (ev->kind == HWPROF_KIND_LOAD && !(ev->trap & 1u)) {
    t->prog_loads++;
    t->prog_loads_on += on;
    t->tail_loads += !on;
  }
  if (on) t->tail_loads = 0;
  /* the program's loads only: a trap handler's (the profiler's own, after it turned sampling back
   * on, its registers restored) are not what the profile is of */
  if (ev->kind == HWPROF_KIND_LOAD && !(ev->trap & 1u) && ((t->ctrl >> HWPROF_VPF_CTRL_ENABLE_LSB) & 1u)) {
    if (map_add(&t->pairs, (uint64_t)ev->pc << 32 | ev->value) || map_add(&t->loads, ev->pc)) t->oom = 1;
    t->instances++;
  }
  if (ev->kind == HWPROF_KIND_STORE && ((ev->insn >> 12) & 7u) == 2u && ev->addr == t->reg_base + HWPROF_VPF_CTRL_ADDR)
    t->ctrl = ev->value;
}

static int by_count_desc(const void *a, const void *b) {
  const value_truth_entry_t *x = a, *y = b;
  if (x->count != y->count) return x->count < y->count ? 1 : -1;
  return x->key < y->key ? -1 : x->key > y->key;
}

static int by_key(const void *a, const void *b) {
  const value_truth_entry_t *x = a, *y = b;
  return x->key < y->key ? -1 : x->key > y->key;
}

int value_truth_write(value_truth_t *t, const char *path, FILE *report) {
  if (t->oom) {
    fprintf(report, "value truth: error: out of memory while counting; %s not written\n", path);
    return -1;
  }
  /* the pairs sorted by PC (their key's high half), so each PC's values are one run */
  value_truth_entry_t *pairs = malloc((t->pairs.used + 1) * sizeof *pairs);
  value_truth_entry_t *loads = malloc((t->loads.used + 1) * sizeof *loads);
  FILE *f = fopen(path, "w");
  if (pairs == NULL || loads == NULL || f == NULL) {
    fprintf(report, "value truth: error: %s: cannot write\n", path);
    free(pairs);
    free(loads);
    if (f) fclose(f);
    return -1;
  }
  size_t np = 0, nl = 0;
  for (size_t k = 0; k < t->pairs.cap; k++)
    if (t->pairs.e[k].count) pairs[np++] = t->pairs.e[k];
  for (size_t k = 0; k < t->loads.cap; k++)
    if (t->loads.e[k].count) loads[nl++] = t->loads.e[k];
  qsort(pairs, np, sizeof *pairs, by_key);
  qsort(loads, nl, sizeof *loads, by_count_desc);
  fprintf(f, "# hwprof-value-truth 2\n# load PC, instances, then its values of at least 1%% (value:count), most frequent first\n");
  for (size_t k = 0; k < nl; k++) {
    const uint64_t pc = loads[k].key, n = loads[k].count;
    /* this PC's run of pairs */
    size_t lo = 0, hi = np;
    while (lo < hi) {
      const size_t mid = (lo + hi) / 2;
      if ((pairs[mid].key >> 32) < pc) lo = mid + 1;
      else hi = mid;
    }
    size_t end = lo;
    while (end < np && (pairs[end].key >> 32) == pc) end++;
    qsort(pairs + lo, end - lo, sizeof *pairs, by_count_desc);
    fprintf(f, "0x%08" PRIx64 " %" PRIu64, pc, n);
    for (size_t j = lo, shown = 0; j < end && shown < 16 && 100 * pairs[j].count >= n; j++, shown++)
      fprintf(f, " 0x%08" PRIx64 ":%" PRIu64, pairs[j].key & 0xffffffffu, pairs[j].count);
    fputc('\n', f); /* the search above looks at the PC half only: the reordered run does not disturb it */
  }
  fprintf(f, "end %zu\n", nl);
  const int bad = fclose(f) != 0;
  fprintf(report, "value truth: %zu load PCs, %zu (PC, value) pairs, %" PRIu64 " loads while sampling was on: %s%s\n", nl, np,
          t->instances, path, bad ? " (WRITE FAILED)" : "");
  const uint64_t upto = t->prog_loads - t->tail_loads;
  fprintf(report,
          "value truth: coverage: %.2f%% of the program's loads up to the last time sampling went off retired while it was "
          "on (%" PRIu64 " of %" PRIu64 ", a trap handler's left out; %" PRIu64 " more after it)\n",
          upto ? 100.0 * (double)t->prog_loads_on / (double)upto : 0.0, t->prog_loads_on, upto, t->tail_loads);
  free(pairs);
  free(loads);
  return bad ? -1 : 0;
}
