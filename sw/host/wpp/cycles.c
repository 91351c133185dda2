/* The hierarchy of cycles; see cycles.h. */
#include "cycles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

const char *wpp_level_name(unsigned k, char *buf, size_t len) {
  if (k == 0) snprintf(buf, len, "paths");
  else if (k == 1) snprintf(buf, len, "strata");
  else snprintf(buf, len, "layer%u", k - 2);
  return buf;
}

static bool grow(void **p, uint64_t *cap, uint64_t need, size_t size) {
  if (need <= *cap) return true;
  uint64_t c = *cap ? *cap : 64;
  while (c < need) c *= 2;
  void *q = realloc(*p, c * size);
  if (q == NULL) return false;
  *p = q;
  *cap = c;
  return true;
}

static bool grow32(void **p, uint32_t *cap, uint64_t need, size_t size) {
  uint64_t c = *cap;
  if (need > UINT32_MAX - 1u) return false;
  bool ok = grow(p, &c, need, size);
  *cap = (uint32_t)c;
  return ok;
}

int wpp_init(wpp_t *w, const wpp_cfg_t *cfg) {
  memset(w, 0, sizeof *w);
  if (cfg->levels == 0 || cfg->levels > WPP_MAX_LEVELS) return -1;
  w->cfg = *cfg;
  if (wpp_table_init(&w->blocks, "blocks", &cfg->table, &w->now) != 0) return -1;
  static const char *const kNames[WPP_MAX_LEVELS] = {"paths", "strata", "layer0", "layer1",
                                                    "layer2", "layer3", "layer4", "layer5"};
  for (unsigned k = 0; k < cfg->levels; k++) {
    w->level[k].name = kNames[k];
    if (wpp_table_init(&w->level[k].table, kNames[k], &cfg->table, &w->now) != 0) {
      wpp_free(w);
      return -1;
    }
  }
  return 0;
}

void wpp_free(wpp_t *w) {
  wpp_table_free(&w->blocks);
  free(w->block_addr);
  free(w->block_insns);
  free(w->block_execs);
  for (unsigned k = 0; k < WPP_MAX_LEVELS; k++) {
    wpp_level_t *l = &w->level[k];
    wpp_table_free(&l->table);
    free(l->unit);
    free(l->arena);
    free(l->np);
    free(l->stamp);
    free(l->run);
  }
  memset(w, 0, sizeof *w);
}

/* ---------------------------------------------------------------- the units of one level */

typedef struct {
  const wpp_level_t *l;
  const uint32_t *seq;
  uint32_t len;
} seq_key_t;

static bool seq_eq(const void *ctx, uint32_t idx) {
  const seq_key_t *k = ctx;
  const wpp_unit_t *u = &k->l->unit[idx];
  return u->len == k->len && memcmp(k->l->arena + u->seq, k->seq, k->len * sizeof *k->seq) == 0;
}

/* The unit with the symbols of np: found, or made. NONE when out of memory. */
static uint32_t unit_of(wpp_t *w, wpp_level_t *l) {
  const uint32_t h = wpp_hash_seq(l->np, l->np_len);
  const seq_key_t key = {l, l->np, l->np_len};
  uint32_t u = wpp_table_find(&l->table, h, seq_eq, &key);
  if (u != NONE) return u;
  if (!grow32((void **)&l->unit, &l->unit_cap, (uint64_t)l->nunit + 1, sizeof *l->unit) ||
      !grow((void **)&l->arena, &l->arena_cap, l->arena_n + l->np_len, sizeof *l->arena)) {
    w->failed = true;
    return NONE;
  }
  u = wpp_table_insert(&l->table, h);
  if (u == NONE || u != l->nunit) {
    w->failed = true;
    return NONE;
  }
  memcpy(l->arena + l->arena_n, l->np, l->np_len * sizeof *l->np);
  l->unit[l->nunit++] = (wpp_unit_t){l->np_len, l->arena_n, h, 0, 0, 0, l->np_start, 0};
  l->arena_n += l->np_len;
  return u;
}

static void feed(wpp_t *w, unsigned k, uint32_t sym, uint64_t insns, uint64_t start, uint64_t path_end);

/* The previous unit's run ends: it is a repeated unit, sent on to the level above. */
static void send_on(wpp_t *w, unsigned k) {
  wpp_level_t *l = &w->level[k];
  if (!l->have_pp) return;
  wpp_unit_t *u = &l->unit[l->pp];
  u->trips += l->pp_trips;
  u->runs++;
  u->insns += l->pp_insns;
  if (l->pp_trips > u->max_trips) u->max_trips = l->pp_trips > UINT32_MAX ? UINT32_MAX : (uint32_t)l->pp_trips;
  if (w->cfg.keep_runs) {
    if (grow((void **)&l->run, &l->run_cap, l->nrun + 1, sizeof *l->run))
      l->run[l->nrun++] = (wpp_run_t){l->pp_start, l->pp_start + l->pp_insns, l->pp_path_end, l->pp,
                                      l->pp_trips > UINT32_MAX ? UINT32_MAX : (uint32_t)l->pp_trips};
    else
      w->failed = true;
  }
  l->have_pp = false;
  if (k + 1 < w->cfg.levels) feed(w, k + 1, l->pp, l->pp_insns, l->pp_start, l->pp_path_end);
}

/* The unit being built is closed (the seed's New Path completed). */
static void close_unit(wpp_t *w, unsigned k) {
  wpp_level_t *l = &w->level[k];
  if (l->np_len == 0) return;
  if (k == 0) l->np_path_end = ++w->path_traversals;
  const wpp_unit_t *p = l->have_pp ? &l->unit[l->pp] : NULL;
  if (p && p->len == l->np_len && memcmp(l->arena + p->seq, l->np, l->np_len * sizeof *l->np) == 0) {
    l->pp_trips++; /* the same as the previous one: one more trip */
    l->pp_insns += l->np_insns;
    l->pp_path_end = l->np_path_end;
    if (k == 0 && w->cfg.on_path) w->cfg.on_path(w->cfg.on_path_ctx, l->pp);
  } else {
    send_on(w, k);
    uint32_t u = unit_of(w, l);
    if (u != NONE) {
      l->pp = u;
      l->have_pp = true;
      l->pp_trips = 1;
      l->pp_insns = l->np_insns;
      l->pp_start = l->np_start;
      l->pp_path_end = l->np_path_end;
      if (k == 0 && w->cfg.on_path) w->cfg.on_path(w->cfg.on_path_ctx, u);
    }
  }
  l->np_len = 0;
  l->np_insns = 0;
  if (++l->gen == 0) { /* the stamps wrapped: forget them all */
    memset(l->stamp, 0, l->stamp_cap * sizeof *l->stamp);
    l->gen = 1;
  }
}

static void feed(wpp_t *w, unsigned k, uint32_t sym, uint64_t insns, uint64_t start, uint64_t path_end) {
  wpp_level_t *l = &w->level[k];
  l->symbols++;
  if (l->gen == 0) l->gen = 1;
  if (sym < l->stamp_cap && l->stamp[sym] == l->gen) close_unit(w, k); /* a repeat closes the cycle */
  if (sym >= l->stamp_cap) {
    uint32_t old = l->stamp_cap;
    if (!grow32((void **)&l->stamp, &l->stamp_cap, (uint64_t)sym + 1, sizeof *l->stamp)) {
      w->failed = true;
      return;
    }
    memset(l->stamp + old, 0, (l->stamp_cap - old) * sizeof *l->stamp);
  }
  if (!grow32((void **)&l->np, &l->np_cap, (uint64_t)l->np_len + 1, sizeof *l->np)) {
    w->failed = true;
    return;
  }
  if (l->np_len == 0) l->np_start = start;
  l->np[l->np_len++] = sym;
  l->np_insns += insns;
  l->stamp[sym] = l->gen;
  if (k > 0) l->np_path_end = path_end; /* level 0 counts its own traversals in close_unit */
}

/* ---------------------------------------------------------------- blocks */

typedef struct {
  const wpp_t *w;
  uint32_t addr;
} addr_key_t;

static bool addr_eq(const void *ctx, uint32_t idx) {
  const addr_key_t *k = ctx;
  return k->w->block_addr[idx] == k->addr;
}

void wpp_block(wpp_t *w, uint32_t start, uint32_t insns) {
  const uint32_t h = wpp_hash_u32(start);
  const addr_key_t key = {w, start};
  w->block_events++;
  uint32_t b = wpp_table_find(&w->blocks, h, addr_eq, &key);
  if (b == NONE) {
    const uint32_t old_cap = w->block_cap;
    if (!grow32((void **)&w->block_addr, &w->block_cap, (uint64_t)w->nblocks + 1, sizeof *w->block_addr)) {
      w->failed = true;
      return;
    }
    if (w->block_cap != old_cap) {
      void *p1 = realloc(w->block_insns, w->block_cap * sizeof *w->block_insns);
      if (p1) w->block_insns = p1;
      void *p2 = realloc(w->block_execs, w->block_cap * sizeof *w->block_execs);
      if (p2) w->block_execs = p2;
      if (p1 == NULL || p2 == NULL) {
        w->block_cap = old_cap; /* grow again next time */
        w->failed = true;
        return;
      }
    }
    if ((b = wpp_table_insert(&w->blocks, h)) != w->nblocks) {
      w->failed = true;
      return;
    }
    w->block_addr[b] = start;
    w->block_insns[b] = insns;
    w->block_execs[b] = 0;
    w->nblocks++;
  }
  w->block_execs[b]++;
  if (insns > w->block_insns[b]) w->block_insns[b] = insns; /* only a stream cut short differs */
  feed(w, 0, b, insns, w->now, 0);
  w->now += insns;
}

void wpp_symbol(wpp_t *w, unsigned k, uint32_t sym, uint64_t insns) {
  if (k >= w->cfg.levels) return;
  feed(w, k, sym, insns, w->now, w->path_traversals);
  w->now += insns;
}

int wpp_finish(wpp_t *w) {
  for (unsigned k = 0; k < w->cfg.levels; k++) {
    close_unit(w, k);
    send_on(w, k);
  }
  return w->failed ? -1 : 0;
}
