/* The text outputs of hwprof-wpp; see wpp_tables.h. */
#include "wpp_tables.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

const char *wpp_sym_name(const wpp_symtab_t *s, uint32_t addr, char *buf, size_t len) {
  size_t lo = 0, hi = s->n; /* the last symbol at or below addr */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s->sym[mid].addr <= addr) lo = mid + 1;
    else hi = mid;
  }
  if (lo == 0 || addr - s->sym[lo - 1].addr >= (s->sym[lo - 1].size ? s->sym[lo - 1].size : 1u)) {
    snprintf(buf, len, "?");
  } else {
    snprintf(buf, len, "%s+0x%" PRIx32, s->sym[lo - 1].name, addr - s->sym[lo - 1].addr);
  }
  return buf;
}

/* hottest first, ties by number: the order does not depend on the hash table's chains */
static const uint64_t *g_heat;
static int by_heat(const void *a, const void *b) {
  const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  if (g_heat[x] != g_heat[y]) return g_heat[x] > g_heat[y] ? -1 : 1;
  return x < y ? -1 : x > y;
}

static uint32_t *order_by_heat(const uint64_t *heat, uint32_t n) {
  uint32_t *o = malloc((n ? n : 1) * sizeof *o);
  if (o == NULL) return NULL;
  for (uint32_t i = 0; i < n; i++) o[i] = i;
  g_heat = heat;
  qsort(o, n, sizeof *o, by_heat);
  return o;
}

static double pct(uint64_t a, uint64_t b) { return b ? 100.0 * (double)a / (double)b : 0.0; }

static void symbol_name(FILE *f, unsigned k, const wpp_t *w, uint32_t s, bool first) {
  if (!first) fputc(' ', f);
  if (k == 0 && s < w->nblocks) fprintf(f, "0x%08" PRIx32, w->block_addr[s]);
  else if (k == 0) fprintf(f, "B%" PRIu32, s); /* fed directly: a block number */
  else if (k == 1) fprintf(f, "P%" PRIu32, s);
  else if (k == 2) fprintf(f, "S%" PRIu32, s);
  else fprintf(f, "L%u.%" PRIu32, k - 3, s);
}

static int write_level(const wpp_t *w, unsigned k, const char *path, const wpp_symtab_t *syms) {
  FILE *f = fopen(path, "w");
  if (f == NULL) return -1;
  const wpp_level_t *l = &w->level[k];
  uint64_t *heat = malloc((l->nunit ? l->nunit : 1) * sizeof *heat);
  uint32_t *o = NULL;
  if (heat) {
    for (uint32_t u = 0; u < l->nunit; u++) heat[u] = l->unit[u].insns;
    o = order_by_heat(heat, l->nunit);
  }
  if (o == NULL) {
    free(heat);
    fclose(f);
    return -1;
  }
  char name[16], where[96];
  uint64_t runs = 0;
  for (uint32_t u = 0; u < l->nunit; u++) runs += l->unit[u].runs;
  fprintf(f, "# hwprof-wpp %s: %" PRIu32 " units, %" PRIu64 " runs, hottest first (docs/wpp.md)\n",
          wpp_level_name(k, name, sizeof name), l->nunit, runs);
  fprintf(f, "# heat: instructions inside the unit's traversals; trips: traversals; runs: repeated units formed\n");
  fprintf(f, "# id\theat\theat%%\ttrips\truns\tmax_trips\tlength\tfirst_insn\twhere\tsequence\n");
  for (uint32_t i = 0; i < l->nunit; i++) {
    const wpp_unit_t *u = &l->unit[o[i]];
    const uint32_t *seq = wpp_unit_seq(l, o[i]);
    uint32_t first_block = seq[0];
    bool named = true; /* a level fed directly (wpp_symbol) has no blocks below it */
    for (unsigned j = k; j > 0 && named; j--)
      if ((named = first_block < w->level[j - 1].nunit)) first_block = wpp_unit_seq(&w->level[j - 1], first_block)[0];
    if (first_block >= w->nblocks) named = false;
    fprintf(f, "%" PRIu32 "\t%" PRIu64 "\t%.2f\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu32 "\t%" PRIu32 "\t%" PRIu64 "\t%s\t", o[i],
            u->insns, pct(u->insns, w->now), u->trips, u->runs, u->max_trips, u->len, u->first_insn,
            named ? wpp_sym_name(syms, w->block_addr[first_block], where, sizeof where) : "?");
    for (uint32_t j = 0; j < u->len; j++) symbol_name(f, k, w, seq[j], j == 0);
    fputc('\n', f);
  }
  free(o);
  free(heat);
  return fclose(f) == 0 ? 0 : -1;
}

static int write_blocks(const wpp_t *w, const char *path, const wpp_symtab_t *syms) {
  FILE *f = fopen(path, "w");
  if (f == NULL) return -1;
  uint64_t *heat = malloc((w->nblocks ? w->nblocks : 1) * sizeof *heat);
  uint32_t *o = NULL;
  if (heat) {
    for (uint32_t b = 0; b < w->nblocks; b++) heat[b] = w->block_execs[b] * w->block_insns[b];
    o = order_by_heat(heat, w->nblocks);
  }
  if (o == NULL) {
    free(heat);
    fclose(f);
    return -1;
  }
  char where[96];
  fprintf(f, "# hwprof-wpp blocks: %" PRIu32 " blocks, %" PRIu64 " executed, %" PRIu64 " instructions, hottest first\n",
          w->nblocks, w->block_events, w->now);
  fprintf(f, "# id\tstart\tinsns\texecutions\theat\theat%%\twhere\n");
  for (uint32_t i = 0; i < w->nblocks; i++) {
    const uint32_t b = o[i];
    fprintf(f, "%" PRIu32 "\t0x%08" PRIx32 "\t%" PRIu32 "\t%" PRIu64 "\t%" PRIu64 "\t%.2f\t%s\n", b, w->block_addr[b],
            w->block_insns[b], w->block_execs[b], heat[b], pct(heat[b], w->now),
            wpp_sym_name(syms, w->block_addr[b], where, sizeof where));
  }
  free(o);
  free(heat);
  return fclose(f) == 0 ? 0 : -1;
}

int wpp_write_tables(const wpp_t *w, const char *prefix, const wpp_symtab_t *syms, char *err, size_t errlen) {
  char path[4096], name[16];
  snprintf(path, sizeof path, "%s.blocks.txt", prefix);
  if (write_blocks(w, path, syms) != 0) goto fail;
  for (unsigned k = 0; k < w->cfg.levels; k++) {
    snprintf(path, sizeof path, "%s.%s.txt", prefix, wpp_level_name(k, name, sizeof name));
    if (write_level(w, k, path, syms) != 0) goto fail;
  }
  return 0;
fail:
  snprintf(err, errlen, "%s: cannot write: %s", path, errno ? strerror(errno) : "out of memory");
  return -1;
}

static void table_line(FILE *f, const wpp_table_t *t) {
  fprintf(f, "  %-7s %8" PRIu32 " entries, depth max %3" PRIu64 ", %10" PRIu64 " lookups, %.2f probes/lookup, "
             "%" PRIu64 " sorts (%" PRIu64 " buckets, work %" PRIu64 "), %" PRIu64 " phase changes\n",
          t->name, t->n, t->max_depth, t->lookups, wpp_table_probes_per_lookup(t), t->sorts, t->buckets_sorted,
          t->sort_work, t->phase_changes);
}

void wpp_write_summary(const wpp_t *w, FILE *f, const wpp_symtab_t *syms) {
  char name[16];
  fprintf(f, "blocks: %" PRIu64 " executed, %" PRIu32 " distinct, %" PRIu64 " instructions\n", w->block_events, w->nblocks,
          w->now);
  for (unsigned k = 0; k < w->cfg.levels; k++) {
    const wpp_level_t *l = &w->level[k];
    uint64_t trips = 0, runs = 0;
    for (uint32_t u = 0; u < l->nunit; u++) {
      trips += l->unit[u].trips;
      runs += l->unit[u].runs;
    }
    fprintf(f, "%s: %" PRIu32 " distinct, %" PRIu64 " traversals, %" PRIu64 " runs (repeated units)\n",
            wpp_level_name(k, name, sizeof name), l->nunit, trips, runs);
  }
  const wpp_table_cfg_t *c = &w->cfg.table;
  static const char *const kSort[] = {"none", "bounded", "full"};
  fprintf(f, "hash tables: %" PRIu32 " buckets, sort %s, period %" PRIu32 " lookups, depth threshold %" PRIu32
             ", frequency threshold %" PRIu32 ", phase factor %" PRIu32 ", new entries at the %s\n",
          c->buckets, kSort[c->sort], c->period, c->depth_threshold, c->freq_threshold, c->phase_factor,
          c->insert_head ? "head" : "tail");
  table_line(f, &w->blocks);
  for (unsigned k = 0; k < w->cfg.levels; k++) table_line(f, &w->level[k].table);
  const wpp_table_t *ts[1 + WPP_MAX_LEVELS] = {&w->blocks};
  for (unsigned k = 0; k < w->cfg.levels; k++) ts[1 + k] = &w->level[k].table;
  for (unsigned i = 0; i <= w->cfg.levels; i++) {
    const wpp_table_t *t = ts[i];
    for (uint32_t j = 0; j < t->nphase; j++) {
      const wpp_phase_event_t *e = &t->phase[j];
      char where[96];
      if (i == 0)
        fprintf(f, "phase change: instruction %" PRIu64 ", %s: block 0x%08" PRIx32 " (%s, %" PRIu32
                   " accesses) overtook block 0x%08" PRIx32 " (%" PRIu32 ")\n",
                e->when, t->name, w->block_addr[e->up], wpp_sym_name(syms, w->block_addr[e->up], where, sizeof where),
                e->up_count, w->block_addr[e->down], e->down_count);
      else
        fprintf(f, "phase change: instruction %" PRIu64 ", %s: %" PRIu32 " (%" PRIu32 " accesses) overtook %" PRIu32
                   " (%" PRIu32 ")\n",
                e->when, t->name, e->up, e->up_count, e->down, e->down_count);
    }
  }
}
