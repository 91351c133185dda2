/* The organisations compared and a key stream through each; see key_probes.h. */
#include "key_probes.h"

#include <inttypes.h>
#include <stdlib.h>
#include <time.h>

const wpp_mode_t wpp_modes[] = {
    {"none-tail", kWppSortNone, false, 0, false}, {"none-head", kWppSortNone, true, 0, false},
    {"mtf", kWppSortMtf, false, 0, false},        {"bounded", kWppSortBounded, false, 0, false},
    {"full", kWppSortFull, false, 0, false},      {"grow", kWppSortNone, false, 1, false},
    {"open", kWppSortNone, false, 0, true},
};
const unsigned wpp_nmodes = sizeof wpp_modes / sizeof wpp_modes[0];

wpp_table_cfg_t wpp_mode_cfg(const wpp_mode_t *m, const wpp_table_cfg_t *cfg) {
  wpp_table_cfg_t c = *cfg;
  c.sort = m->sort;
  c.insert_head = m->insert_head;
  c.grow_load = m->grow_load;
  c.open = m->open;
  if (c.open && c.buckets < 2u) c.buckets = 2u;
  return c;
}

void wpp_probe_header(FILE *to) {
  fprintf(to, "# mode\ttable\tentries\tmax_depth\tlookups\tprobes\tprobes_per_lookup\tsorts\tbuckets_sorted\tupkeep_work"
              "\tphase_changes\tseconds\tcost_per_lookup\twidth\n");
}

void wpp_probe_row(FILE *to, const char *mode, const wpp_table_t *t, double seconds) {
  fprintf(to,
          "%s\t%s\t%" PRIu32 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%.3f\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
          "\t%.3f\t%.3f\t%" PRIu32 "\n",
          mode, t->name, t->n, t->max_depth, t->lookups, t->probes, wpp_table_probes_per_lookup(t), t->sorts,
          t->buckets_sorted, t->sort_work, t->phase_changes, seconds, wpp_table_cost_per_lookup(t), t->nb);
}

typedef struct {
  const uint64_t *keys; /* per entry */
  uint64_t want;
} key_eq_t;

static bool key_eq(const void *ctx, uint32_t idx) {
  const key_eq_t *k = ctx;
  return k->keys[idx] == k->want;
}

static uint32_t key_hash(uint64_t k) { return wpp_hash_u32((uint32_t)(k >> 32) ^ wpp_hash_u32((uint32_t)k)); }

int wpp_probe_keys(FILE *to, const char *mode, const char *table, const wpp_table_cfg_t *cfg, uint64_t n, wpp_key_fn key,
                   void *ctx) {
  wpp_table_t tb;
  uint64_t cap = 1024, *keys = malloc(cap * sizeof *keys);
  if (keys == NULL || wpp_table_init(&tb, table, cfg, NULL) != 0) {
    free(keys);
    return -1;
  }
  int rc = 0;
  const clock_t t0 = clock();
  for (uint64_t i = 0; i < n && rc == 0; i++) {
    key_eq_t k = {keys, key(ctx, i)};
    const uint32_t h = key_hash(k.want);
    if (wpp_table_find(&tb, h, key_eq, &k) != UINT32_MAX) continue;
    if (tb.n == cap) {
      uint64_t *p = realloc(keys, 2 * cap * sizeof *p);
      if (p == NULL) {
        rc = -1;
        break;
      }
      keys = p;
      cap *= 2;
    }
    const uint32_t e = wpp_table_insert(&tb, h);
    if (e == UINT32_MAX) rc = -1;
    else keys[e] = k.want;
  }
  if (rc == 0) wpp_probe_row(to, mode, &tb, (double)(clock() - t0) / CLOCKS_PER_SEC);
  wpp_table_free(&tb);
  free(keys);
  return rc;
}
