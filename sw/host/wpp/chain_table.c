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

/* Fresh per-bucket arrays of nb buckets (or slots), every one empty; the old ones are freed. */
static int alloc_buckets(wpp_table_t *t, uint32_t nb) {
  uint32_t *head = malloc(nb * sizeof *head), *depth = calloc(nb, sizeof *depth);
  uint32_t *bstamp = calloc(nb, sizeof *bstamp), *bcount = calloc(nb, sizeof *bcount);
  if (head == NULL || depth == NULL || bstamp == NULL || bcount == NULL) {
    free(head);
    free(depth);
    free(bstamp);
    free(bcount);
    return -1;
  }
  memset(head, 0xff, nb * sizeof *head);
  free(t->head);
  free(t->depth);
  free(t->bstamp);
  free(t->bcount);
  t->head = head;
  t->depth = depth;
  t->bstamp = bstamp;
  t->bcount = bcount;
  t->nb = nb;
  return 0;
}

int wpp_table_init(wpp_table_t *t, const char *name, const wpp_table_cfg_t *cfg, const uint64_t *clock) {
  memset(t, 0, sizeof *t);
  if (cfg->buckets == 0 || (cfg->buckets & (cfg->buckets - 1u)) || cfg->period == 0 || cfg->phase_factor == 0 ||
      (cfg->open && (cfg->sort != kWppSortNone || cfg->buckets < 2u)))
    return -1;
  t->name = name;
  t->cfg = *cfg;
  t->clock = clock;
  if (alloc_buckets(t, cfg->buckets) != 0) {
    wpp_table_free(t);
    return -1;
  }
  return 0;
}

void wpp_table_free(wpp_table_t *t) {
  free(t->head);
  free(t->depth);
  free(t->hot);
  free(t->prev_hot);
  free(t->link);
  free(t->scratch);
  free(t->walked);
  free(t->bstamp);
  free(t->bcount);
  free(t->touched);
  free(t->phase);
  memset(t, 0, sizeof *t);
}

static uint32_t period_count(const wpp_table_t *t, uint32_t i) {
  return t->link[i].period_id == t->period_id ? t->link[i].period_count : 0;
}

static bool push(uint32_t **a, uint32_t *n, uint32_t *cap, uint32_t v) {
  if (*n == *cap) {
    uint32_t c = *cap ? 2 * *cap : 64;
    uint32_t *p = realloc(*a, c * sizeof *p);
    if (p == NULL) return false;
    *a = p;
    *cap = c;
  }
  (*a)[(*n)++] = v;
  return true;
}

static void touch(wpp_table_t *t, uint32_t i) {
  wpp_link_t *l = &t->link[i];
  if (l->period_id != t->period_id) {
    l->period_id = t->period_id;
    l->period_count = 0;
  }
  l->period_count++;
  l->count++;
  /* bounded sorting lists an entry when it crosses the frequency threshold, so the sort reads no
     cold entry to find the hot ones */
  if (t->cfg.sort == kWppSortBounded && l->period_count == t->cfg.freq_threshold + 1u) {
    if (!push(&t->hot, &t->nhot, &t->hot_cap, i)) t->hot_lost++;
    t->sort_work++;
  }
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

/* The full sort of one bucket: every entry by accesses in the period, hottest first, stable among
 * equals. */
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
  const bool full = true;
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
    for (uint32_t k = 0; k < n; k++) {
      t->link[neu[k]].next = k + 1 < n ? neu[k + 1] : NONE;
      t->link[neu[k]].prev = k ? neu[k - 1] : NONE;
    }
    t->sort_work += n;
    t->moved += n;
  }
  for (uint32_t k = 0; k < n; k++) t->link[neu[k]].was_hot = k < hot && period_count(t, neu[k]) > t->cfg.freq_threshold;
  t->buckets_sorted++;
}

static void unlink_entry(wpp_table_t *t, uint32_t b, uint32_t i) {
  wpp_link_t *l = &t->link[i];
  if (l->prev == NONE) t->head[b] = l->next;
  else t->link[l->prev].next = l->next;
  if (l->next != NONE) t->link[l->next].prev = l->prev;
}

static void push_front(wpp_table_t *t, uint32_t b, uint32_t i) {
  wpp_link_t *l = &t->link[i];
  l->prev = NONE;
  l->next = t->head[b];
  if (l->next != NONE) t->link[l->next].prev = i;
  t->head[b] = i;
}

/* Bounded sorting (the seed's): in each bucket deeper than the depth threshold, the entries listed
 * this period (accessed more than the frequency threshold) move to the front, most accessed first
 * (ties in chain order); the others keep their order behind them. The chain is read only down to
 * its deepest listed entry. */
/* The hot list grouped by bucket (a counting sort over the buckets it touches, stamped so that no
 * per-bucket array is swept): t->hot holds each bucket's entries together, in listing order. */
static bool group_by_bucket(wpp_table_t *t) {
  const uint32_t m = t->nb - 1u, stamp = t->period_id + 1u;
  uint32_t ntouched = 0;
  for (uint32_t k = 0; k < t->nhot; k++) {
    const uint32_t b = t->link[t->hot[k]].hash & m;
    if (t->bstamp[b] != stamp) {
      t->bstamp[b] = stamp;
      t->bcount[b] = 0;
      if (!push(&t->touched, &ntouched, &t->touched_cap, b)) return false;
    }
    t->bcount[b]++;
  }
  uint32_t at = 0;
  for (uint32_t k = 0; k < ntouched; k++) { /* counts become offsets */
    const uint32_t b = t->touched[k], n = t->bcount[b];
    t->bcount[b] = at;
    at += n;
  }
  if (t->nhot > t->walked_cap) {
    uint32_t *w = realloc(t->walked, t->nhot * sizeof *w);
    if (w == NULL) return false;
    t->walked = w;
    t->walked_cap = t->nhot;
  }
  for (uint32_t k = 0; k < t->nhot; k++) t->walked[t->bcount[t->link[t->hot[k]].hash & m]++] = t->hot[k];
  memcpy(t->hot, t->walked, t->nhot * sizeof *t->hot);
  t->sort_work += 2u * t->nhot + ntouched;
  return true;
}

static void sort_bounded(wpp_table_t *t) {
  if (!group_by_bucket(t)) {
    t->hot_lost += t->nhot;
    t->nhot = 0;
  }
  for (uint32_t g = 0; g < t->nhot;) {
    const uint32_t b = t->link[t->hot[g]].hash & (t->nb - 1u);
    uint32_t end = g;
    while (end < t->nhot && (t->link[t->hot[end]].hash & (t->nb - 1u)) == b) end++;
    uint32_t *grp = t->hot + g;
    const uint32_t h = end - g;
    g = end;
    t->sort_work++; /* the bucket's depth is looked at */
    if (t->depth[b] <= t->cfg.depth_threshold) continue;
    t->buckets_sorted++;
    /* the chain down to its deepest listed entry: positions, and the entries hot at the last sort */
    for (uint32_t k = 0; k < h; k++) t->link[grp[k]].listed = t->period_id + 1u;
    uint32_t seen = 0, k = 0, nwas = 0;
    for (uint32_t i = t->head[b]; i != NONE && seen < h; i = t->link[i].next, k++) {
      t->link[i].pos = k;
      if (t->link[i].listed == t->period_id + 1u) seen++;
      else if (t->link[i].was_hot && !push(&t->walked, &nwas, &t->walked_cap, i)) t->hot_lost++;
    }
    t->sort_work += k;
    for (uint32_t a = 1; a < h; a++) { /* insertion sort, most accessed first, ties by position */
      const uint32_t e = grp[a], c = period_count(t, e);
      uint32_t j = a;
      for (; j > 0; j--) {
        t->sort_work++;
        const uint32_t o = grp[j - 1], co = period_count(t, o);
        if (co > c || (co == c && t->link[o].pos < t->link[e].pos)) break;
        grp[j] = o;
      }
      grp[j] = e;
    }
    bool in_place = true;
    for (uint32_t a = 0; a < h; a++) in_place &= t->link[grp[a]].pos == a;
    if (in_place) continue;
    /* phase changes: y moved ahead of x, x hot at the last sort, y with phase_factor times x's accesses */
    for (uint32_t a = 0; a < h; a++) {
      const uint32_t y = grp[a], cy = period_count(t, y), py = t->link[y].pos;
      for (uint32_t j = 0; j < nwas; j++) { /* ahead of y, now behind every listed entry */
        const uint32_t x = t->walked[j], cx = period_count(t, x);
        if (t->link[x].pos < py && (uint64_t)cy >= (uint64_t)t->cfg.phase_factor * (cx ? cx : 1u)) note_phase(t, y, x);
      }
      for (uint32_t j = a + 1; j < h; j++) { /* listed too, ahead of y before, behind it now */
        const uint32_t x = grp[j], cx = period_count(t, x);
        if (t->link[x].was_hot && t->link[x].pos < py && (uint64_t)cy >= (uint64_t)t->cfg.phase_factor * (cx ? cx : 1u))
          note_phase(t, y, x);
      }
    }
    for (uint32_t a = h; a-- > 0;) {
      unlink_entry(t, b, grp[a]);
      push_front(t, b, grp[a]);
    }
    t->sort_work += h;
    t->moved += h;
  }
  /* hot at this sort: the listed entries of the buckets that were sorted */
  for (uint32_t k = 0; k < t->nprev_hot; k++) t->link[t->prev_hot[k]].was_hot = false;
  t->sort_work += t->nprev_hot;
  t->nprev_hot = 0;
  for (uint32_t k = 0; k < t->nhot; k++) {
    const uint32_t i = t->hot[k];
    if (t->depth[t->link[i].hash & (t->nb - 1u)] <= t->cfg.depth_threshold) continue;
    t->link[i].was_hot = true;
    if (!push(&t->prev_hot, &t->nprev_hot, &t->prev_hot_cap, i)) t->hot_lost++;
  }
  t->sort_work += t->nhot;
  t->nhot = 0;
}

static void end_period(wpp_table_t *t) {
  if (t->cfg.sort == kWppSortBounded) {
    t->sorts++;
    sort_bounded(t);
  } else if (t->cfg.sort == kWppSortFull) {
    t->sorts++;
    for (uint32_t b = 0; b < t->nb; b++) {
      t->sort_work++; /* the bucket's depth is looked at */
      if (t->depth[b] > 1u) sort_bucket(t, b);
    }
  }
  t->period_id++;
  t->in_period = 0;
}

/* Open addressing: the slot holding the entry with this hash that eq accepts, or the empty slot
 * where the probe sequence ends; counts a probe per slot read when `count`. */
static uint32_t open_probe(wpp_table_t *t, uint32_t hash, wpp_key_eq_fn eq, const void *ctx, bool count) {
  const uint32_t m = t->nb - 1u;
  for (uint32_t j = hash & m;; j = (j + 1u) & m) {
    if (count) t->probes++;
    const uint32_t e = t->head[j];
    if (e == NONE || (t->link[e].hash == hash && eq != NULL && eq(ctx, e))) return j;
  }
}

/* Twice the buckets (or slots), every entry placed again: chains keep their order (the old chains
 * are read in order and appended to), open addressing re-probes in entry order. The work counts
 * every old bucket read and every entry placed. */
static int grow(wpp_table_t *t) {
  const uint32_t old_nb = t->nb;
  uint32_t *old_head = t->head;
  t->head = NULL;
  if (alloc_buckets(t, 2u * old_nb) != 0) {
    t->head = old_head;
    return -1;
  }
  t->grows++;
  t->sort_work += old_nb + t->n;
  if (t->cfg.open) {
    for (uint32_t i = 0; i < t->n; i++) t->head[open_probe(t, t->link[i].hash, NULL, NULL, false)] = i;
  } else {
    uint32_t *tail = t->bcount; /* scratch: the last entry of each new chain */
    for (uint32_t b = 0; b < old_nb; b++)
      for (uint32_t i = old_head[b], next; i != NONE; i = next) {
        next = t->link[i].next;
        const uint32_t nbk = t->link[i].hash & (t->nb - 1u);
        t->link[i].next = NONE;
        t->link[i].prev = t->depth[nbk] ? tail[nbk] : NONE;
        if (t->depth[nbk]) t->link[tail[nbk]].next = i;
        else t->head[nbk] = i;
        tail[nbk] = i;
        t->depth[nbk]++;
      }
    memset(t->bcount, 0, t->nb * sizeof *t->bcount);
  }
  free(old_head);
  return 0;
}

uint32_t wpp_table_find(wpp_table_t *t, uint32_t hash, wpp_key_eq_fn eq, const void *ctx) {
  t->lookups++;
  uint32_t found = NONE;
  if (t->cfg.open) {
    found = t->head[open_probe(t, hash, eq, ctx, true)];
  } else {
    const uint32_t b = hash & (t->nb - 1u);
    for (uint32_t i = t->head[b]; i != NONE; i = t->link[i].next) {
      t->probes++;
      if (t->link[i].hash == hash && eq(ctx, i)) {
        found = i;
        break;
      }
    }
    if (found != NONE && t->cfg.sort == kWppSortMtf && t->head[b] != found) {
      unlink_entry(t, b, found);
      push_front(t, b, found);
      t->sort_work++; /* the links rewritten, as the sorts count a moved entry */
      t->moved++;
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
  if (t->cfg.open && 2u * ((uint64_t)t->n + 1u) > t->nb && grow(t) != 0) return NONE; /* at most half full */
  const uint32_t i = t->n++;
  t->link[i] = (wpp_link_t){NONE, NONE, hash, t->period_id, 0, 0, 0, 0, false};
  if (t->cfg.open) {
    t->head[open_probe(t, hash, NULL, NULL, false)] = i; /* where the failed lookup ended, unless it grew */
  } else {
    const uint32_t b = hash & (t->nb - 1u);
    if (t->cfg.insert_head || t->head[b] == NONE) {
      push_front(t, b, i);
    } else {
      uint32_t j = t->head[b];
      while (t->link[j].next != NONE) j = t->link[j].next; /* the walk the failed lookup just made */
      t->link[j].next = i;
      t->link[i].prev = j;
    }
    if (++t->depth[b] > t->max_depth) t->max_depth = t->depth[b];
    if (t->cfg.grow_load && t->n > (uint64_t)t->cfg.grow_load * t->nb && grow(t) != 0) {
      /* out of memory for a wider table: the entry stays, the chains just grow deeper */
    }
  }
  t->inserts++;
  touch(t, i);
  return i;
}
