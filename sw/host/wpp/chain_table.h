/* A chained hash table with the bounded sorting of seed 003's last part (docs/wpp.md, "The hash
 * table"), and the organisations it is measured against. Bounded sorting: every period (a number of lookups) only buckets deeper than a depth threshold are looked
 * at, and in them only the entries accessed more than a frequency threshold in the period move to the
 * front, hottest first; the others stay behind them in their order. An entry is listed as it
 * crosses the frequency threshold, and chains are doubly linked, so the sort reads a chain only down
 * to its deepest listed entry and moves those entries alone: its cost follows the hot entries, not
 * the table. A sort that puts an entry ahead
 * of one that was hot at the bucket's previous sort, with at least `phase_factor` times its accesses,
 * is reported as a phase change. The table holds no keys: the caller keeps its entries in arrays
 * indexed by entry number and answers the key comparison; the table counts what a lookup costs
 * (probes: entries visited) and what sorting costs (work: buckets inspected, entries visited,
 * comparisons, links rewritten), so the strategies can be compared on the same stream.
 *
 * The baselines: chains in insertion order (new entries last or first); every bucket sorted whole
 * every period; move to the front on every hit; a chained table that doubles its buckets when it
 * holds more entries than `grow_load` per bucket; open addressing (linear probing) that doubles its
 * slots when more than half full. Their upkeep (entries moved to the front, rehashing) is counted
 * in the same work counter as sorting, so probes + work is each one's whole cost. */
#ifndef HWPROF_WPP_CHAIN_TABLE_H
#define HWPROF_WPP_CHAIN_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
  kWppSortNone = 0, /* chains keep insertion order */
  kWppSortBounded,  /* the seed's bounded sorting */
  kWppSortFull,     /* every bucket of two or more entries sorted whole, every period */
  kWppSortMtf,      /* every hit moves to the front of its chain */
} wpp_sort_t;

typedef struct {
  wpp_sort_t sort;
  uint32_t buckets;         /* a power of two */
  uint32_t period;          /* lookups between sorts (> 0) */
  uint32_t depth_threshold; /* bounded: a bucket is sorted only if it holds more entries than this */
  uint32_t freq_threshold;  /* bounded: an entry moves only if accessed more than this in the period */
  uint32_t phase_factor;    /* phase change: the overtaking entry has at least this many times the accesses */
  bool insert_head;         /* new entries first in their chain (default: last) */
  uint32_t grow_load;       /* chained: double the buckets past this many entries per bucket (0: never) */
  bool open;                /* open addressing instead of chains: `buckets` slots to start, linear
                               probing, doubled when more than half full; no sorting */
} wpp_table_cfg_t;

/* A phase change as a sort saw it: entry `up` overtook `down`, which was hot at the previous sort. */
typedef struct {
  uint64_t when;   /* the caller's clock (*clock) at the sort */
  uint32_t period; /* the table's period number */
  uint32_t up, down;
  uint32_t up_count, down_count; /* their accesses in the period */
} wpp_phase_event_t;

typedef struct {
  uint32_t next, prev; /* neighbours in the chain (UINT32_MAX: none) */
  uint32_t hash;
  uint32_t period_id, period_count; /* accesses in period period_id */
  uint32_t pos;                     /* its place in the chain before a sort (scratch) */
  uint32_t listed;                  /* bounded: period_id + 1 while it is in the hot list being sorted */
  uint64_t count;                   /* accesses in all */
  bool was_hot;                     /* moved to the front at its bucket's last sort */
} wpp_link_t;

typedef struct {
  const char *name;
  wpp_table_cfg_t cfg;
  const uint64_t *clock; /* the caller's notion of time, for phase events (may be NULL) */
  uint32_t nb;           /* buckets (chained) or slots (open) now */
  uint32_t *head;        /* per bucket, first entry (UINT32_MAX: empty); open: per slot, its entry */
  uint32_t *depth;       /* per bucket */
  wpp_link_t *link;      /* per entry */
  uint32_t n, cap;
  uint32_t period_id, in_period;
  uint32_t *scratch; /* a bucket's entries while it is sorted */
  uint32_t scratch_cap;
  uint32_t *hot, nhot, hot_cap;                /* bounded: entries past the frequency threshold this period */
  uint32_t *prev_hot, nprev_hot, prev_hot_cap; /* ... and those moved at the last sort (was_hot) */
  uint32_t *walked, walked_cap;                /* scratch of the bounded sort */
  uint32_t *bstamp, *bcount;                   /* per bucket, the bounded sort's grouping (stamped) */
  uint32_t *touched, touched_cap;              /* the buckets the hot list touches */
  uint64_t hot_lost;                           /* list entries lost to memory: the sort is then partial */
  wpp_phase_event_t *phase;
  uint32_t nphase, phase_cap;
  /* statistics */
  uint64_t lookups, probes, inserts, max_depth;
  uint64_t sorts, buckets_sorted, sort_work, moved; /* sort_work: all upkeep (sorts, moves, rehashing) */
  uint64_t grows;
  uint64_t phase_changes;
} wpp_table_t;

/* Returns 0, or -1 (bad configuration or out of memory). */
int wpp_table_init(wpp_table_t *t, const char *name, const wpp_table_cfg_t *cfg, const uint64_t *clock);
void wpp_table_free(wpp_table_t *t);

/* The caller's key comparison: does entry `idx` hold the key being looked up? */
typedef bool (*wpp_key_eq_fn)(const void *ctx, uint32_t idx);

/* Finds the entry with this hash whose key eq accepts, counting one probe per entry visited and one
 * access to the entry found; returns its number, or UINT32_MAX (then insert it). Every period-th
 * lookup runs the sort. */
uint32_t wpp_table_find(wpp_table_t *t, uint32_t hash, wpp_key_eq_fn eq, const void *ctx);
/* A new entry (number t->n before the call) with this hash, accessed once, right after the lookup
 * of its key failed; UINT32_MAX when out of memory. */
uint32_t wpp_table_insert(wpp_table_t *t, uint32_t hash);

/* Average probes per lookup, and the whole cost per lookup: probes plus upkeep work. */
static inline double wpp_table_probes_per_lookup(const wpp_table_t *t) {
  return t->lookups ? (double)t->probes / (double)t->lookups : 0.0;
}
static inline double wpp_table_cost_per_lookup(const wpp_table_t *t) {
  return t->lookups ? (double)(t->probes + t->sort_work) / (double)t->lookups : 0.0;
}

uint32_t wpp_hash_u32(uint32_t x);
uint32_t wpp_hash_seq(const uint32_t *s, uint32_t n);

#endif /* HWPROF_WPP_CHAIN_TABLE_H */
