/* The chained hash table with bounded sorting; see chain_table.h. */
#include "chain_table.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

uint32_t wpp_hash_u32(uint32_t x) { /* a 32-bit finalizer: word addresses spread over all buckets */
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  return x ^ (x >> 16);
}

uint32_t wpp_hash_seq(const uint32_t *s, uint32_t n) {
  uint32_t h = 0x811c9dc5u ^ n;
  for (uint32_t i = 0; i < n; i++) h = wpp_hash_u32(h ^ s[i]) + i;
  return wpp_hash_u32(h);
}

int wpp_table_init(wpp_table_t *t, const char *name, const wpp_table_cfg_t *cfg, const uint64_t *clock) {
  memset(t, 0, sizeof *t);
  if (cfg->buckets == 0 || (cfg->buckets & (cfg->buckets - 1u)) || cfg->period == 0 || cfg->phase_factor == 0)
    return -1;
  t->name = name;
  t->cfg = *cfg;
  t->clock = clock;
  t->head = malloc(cfg->buckets * sizeof *t->head);
  t->depth = calloc(cfg->buckets, sizeof *t->depth);
  t->bucket_period = calloc(cfg->buckets, sizeof *t->bucket_period);
  t->bucket_count = calloc(cfg->buckets, sizeof *t->bucket_count);
  if (t->head == NULL || t->depth == NULL || t->bucket_period == NULL || t->bucket_count == NULL) {
    wpp_table_free(t);
    return -1;
  }
  memset(t->head, 0xff, cfg->buckets * sizeof *t->head);
  return 0;
}

void wpp_table_free(wpp_table_t *t) {
  free(t->head);
  free(t->depth);
  free(t->bucket_period);
  free(t->bucket_count);
  free(t->link);
  free(t->scratch);
  free(t->phase);
  memset(t, 0, sizeof *t);
}

static uint32_t period_count(const wpp_table_t *t, uint32_t i) {
  return t->link[i].period_id == t->period_id ? t->link[i].period_count : 0;
}

static void touch(wpp_table_t *t, uint32_t i) {
  const uint32_t b = t->link[i].hash & (t->cfg.buckets - 1u);
  if (t->bucket_period[b] != t->period_id) {
    t->bucket_period[b] = t->period_id;
    t->bucket_count[b] = 0;
  }
  t->bucket_count[b]++;
  wpp_link_t *l = &t->link[i];
  if (l->period_id != t->period_id) {
    l->period_id = t->period_id;
    l->period_count = 0;
  }
  l->period_count++;
  l->count++;
}

static void note_phase(wpp_table_t *t, uint32_t up, uint32_t down) {
  t->phase_changes++;
  if (t->nphase == t->phase_cap) {
    uint32_t cap = t->phase_cap ? 2 * t->phase_cap : 64;
    wpp_phase_event_t *p = realloc(t->phase, cap * sizeof *p);
    if (p == NULL) return; /* counted, not listed */
    t->phase = p;
    t->phase_cap = cap;
  }
  t->phase[t->nphase++] = (wpp_phase_event_t){t->clock ? *t->clock : t->lookups, t->period_id, up, down,
                                               period_count(t, up), period_count(t, down)};
}

/* Sorts one bucket: the entries that qualify (all of them for a full sort) move to the front by
 * accesses in the period, hottest first and stable among equals; the rest follow in their order. */
static void sort_bucket(wpp_table_t *t, uint32_t b) {
  const uint32_t d = t->depth[b];
  if (d > t->scratch_cap) {
    uint32_t *s = realloc(t->scratch, 2u * d * sizeof *s);
    if (s == NULL) return;
    t->scratch = s;
    t->scratch_cap = d;
  }
  uint32_t *old = t->scratch, *neu = t->scratch + d; /* old order, new order */
  uint32_t n = 0, hot = 0;
  for (uint32_t i = t->head[b]; i != NONE; i = t->link[i].next) old[n++] = i;
  t->sort_work += n;
  const bool full = t->cfg.sort == kWppSortFull;
  for (uint32_t k = 0; k < n; k++) /* the first group, in chain order */
    if (full || period_count(t, old[k]) > t->cfg.freq_threshold) neu[hot++] = old[k];
  /* insertion sort of the first group, descending; stable */
  for (uint32_t k = 1; k < hot; k++) {
    const uint32_t e = neu[k], c = period_count(t, e);
    uint32_t j = k;
    for (; j > 0; j--) {
      t->sort_work++;
      if (period_count(t, neu[j - 1]) >= c) break;
      neu[j] = neu[j - 1];
    }
    neu[j] = e;
  }
  uint32_t rest = hot;
  for (uint32_t k = 0; k < n; k++)
    if (!(full || period_count(t, old[k]) > t->cfg.freq_threshold)) neu[rest++] = old[k];
  if (memcmp(old, neu, n * sizeof *old) != 0) {
    /* a phase change: an entry moved ahead of one that was hot at the last sort and has at most
       1/phase_factor of its accesses now */
    for (uint32_t k = 0; k < n; k++) t->link[old[k]].pos = k;
    for (uint32_t a = 0; a < hot; a++) {
      const uint32_t up = neu[a], cu = period_count(t, up), pu = t->link[up].pos;
      for (uint32_t nd = a + 1; nd < n; nd++) {
        const uint32_t down = neu[nd], cd = period_count(t, down);
        if (t->link[down].pos < pu && t->link[down].was_hot &&
            (uint64_t)cu >= (uint64_t)t->cfg.phase_factor * (cd ? cd : 1u))
          note_phase(t, up, down);
      }
    }
    t->head[b] = neu[0];
    for (uint32_t k = 0; k + 1 < n; k++) t->link[neu[k]].next = neu[k + 1];
    t->link[neu[n - 1]].next = NONE;
    t->sort_work += n;
    t->moved += n;
  }
  for (uint32_t k = 0; k < n; k++) t->link[neu[k]].was_hot = k < hot && period_count(t, neu[k]) > t->cfg.freq_threshold;
  t->buckets_sorted++;
}

static void end_period(wpp_table_t *t) {
  if (t->cfg.sort != kWppSortNone) {
    t->sorts++;
    const uint32_t min_depth = t->cfg.sort == kWppSortFull ? 1u : t->cfg.depth_threshold;
    for (uint32_t b = 0; b < t->cfg.buckets; b++) {
      t->sort_work++; /* the bucket's depth is looked at */
      const uint32_t accesses = t->bucket_period[b] == t->period_id ? t->bucket_count[b] : 0;
      if (t->depth[b] > min_depth && (t->cfg.sort == kWppSortFull || accesses > t->cfg.freq_threshold)) sort_bucket(t, b);
    }
  }
  t->period_id++;
  t->in_period = 0;
}

uint32_t wpp_table_find(wpp_table_t *t, uint32_t hash, wpp_key_eq_fn eq, const void *ctx) {
  t->lookups++;
  uint32_t found = NONE;
  for (uint32_t i = t->head[hash & (t->cfg.buckets - 1u)]; i != NONE; i = t->link[i].next) {
    t->probes++;
    if (t->link[i].hash == hash && eq(ctx, i)) {
      found = i;
      break;
    }
  }
  if (found != NONE) touch(t, found);
  if (++t->in_period >= t->cfg.period) end_period(t);
  return found;
}

uint32_t wpp_table_insert(wpp_table_t *t, uint32_t hash) {
  if (t->n == t->cap) {
    uint32_t cap = t->cap ? 2 * t->cap : 256;
    wpp_link_t *l = realloc(t->link, cap * sizeof *l);
    if (l == NULL) return NONE;
    t->link = l;
    t->cap = cap;
  }
  const uint32_t i = t->n++, b = hash & (t->cfg.buckets - 1u);
  t->link[i] = (wpp_link_t){NONE, hash, t->period_id, 0, 0, 0, false};
  if (t->cfg.insert_head || t->head[b] == NONE) {
    t->link[i].next = t->head[b];
    t->head[b] = i;
  } else {
    uint32_t j = t->head[b];
    while (t->link[j].next != NONE) j = t->link[j].next; /* the walk the failed lookup just made */
    t->link[j].next = i;
  }
  if (++t->depth[b] > t->max_depth) t->max_depth = t->depth[b];
  t->inserts++;
  touch(t, i);
  return i;
}
