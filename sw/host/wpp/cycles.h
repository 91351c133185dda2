/* The hierarchy of cycles of seed 003 (docs/wpp.md, "The hierarchy"), over a basic-block stream:
 *
 * - level 0, paths: a path is a run of distinct blocks, closed when the next block repeats one of
 *   them (that block starts the next path). A closed path equal to the previous one adds a trip to
 *   it; a different one sends the previous path on, with its trip count, as a repeated path, and
 *   becomes the previous path itself;
 * - level 1, strata: the same over the stream of repeated paths, with a repeated path's path ID as
 *   its symbol (its trip count is its weight, not its identity: the seed adds a repeated path's trips
 *   to its path's global trip count);
 * - level 2 and up, stratum layers 0, 1, ...: the same over repeated strata, repeated layer-0
 *   units, and so on, as many levels as asked for.
 *
 * Every unit (path, stratum, layer unit) is kept in a chained hash table (chain_table.h) keyed by
 * its symbol sequence; blocks are keyed by start address in one more table, the one every block of
 * the stream looks up. A unit's heat is the instructions executed inside its occurrences (for a
 * path: its instructions times its global trip count, the seed's heat times frequency). The
 * analysis also records every repeated unit it sends on (level, unit, trips, first and last
 * instruction), the timeline the indexed file and the plot are made of. */
#ifndef HWPROF_WPP_CYCLES_H
#define HWPROF_WPP_CYCLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chain_table.h"

#define WPP_MAX_LEVELS 8u

typedef struct {
  uint32_t len;      /* symbols */
  uint64_t seq;      /* offset of its symbols in the level's arena */
  uint32_t hash;
  uint64_t trips;    /* global trip count: traversals */
  uint64_t runs;     /* repeated units it formed (occurrences) */
  uint64_t insns;    /* heat: instructions inside all its traversals */
  uint64_t first_insn; /* where its first traversal began */
  uint32_t max_trips;  /* the longest run */
} wpp_unit_t;

/* One repeated unit sent on: the timeline. */
typedef struct {
  uint64_t start, end; /* instructions [start, end) of the stream */
  uint64_t path_end;   /* path traversals completed at its end (the seed's "ending path number") */
  uint32_t unit, trips;
} wpp_run_t;

typedef struct {
  const char *name;
  wpp_table_t table;
  wpp_unit_t *unit;
  uint32_t nunit, unit_cap;
  uint32_t *arena;
  uint64_t arena_n, arena_cap;
  /* the unit being built (the seed's New Path) */
  uint32_t *np;
  uint32_t np_len, np_cap;
  uint64_t np_insns, np_start, np_path_end;
  uint32_t *stamp; /* stamp[symbol] == gen: the symbol is in np */
  uint32_t stamp_cap, gen;
  /* the previous unit (the seed's Previous Path) and its run */
  uint32_t pp;
  bool have_pp;
  uint64_t pp_trips, pp_insns, pp_start, pp_path_end;
  /* the runs sent on */
  wpp_run_t *run;
  uint64_t nrun, run_cap;
  uint64_t symbols; /* symbols fed */
} wpp_level_t;

typedef struct {
  uint32_t levels; /* 1: paths; 2: + strata; 3: + layer 0; ... */
  wpp_table_cfg_t table;
  bool keep_runs; /* record the timeline */
  /* each path traversal as it closes, by its path ID (NULL: none): the whole-program path's stream */
  void (*on_path)(void *ctx, uint32_t path);
  void *on_path_ctx;
} wpp_cfg_t;

typedef struct {
  wpp_cfg_t cfg;
  uint64_t now; /* instructions so far: the tables' clock */
  /* blocks */
  wpp_table_t blocks;
  uint32_t *block_addr, *block_insns;
  uint64_t *block_execs;
  uint32_t nblocks, block_cap;
  uint64_t block_events;
  uint64_t path_traversals; /* level-0 units closed */
  wpp_level_t level[WPP_MAX_LEVELS];
  bool failed; /* out of memory somewhere: the result is not complete */
} wpp_t;

/* Returns 0, or -1 (bad configuration, out of memory). */
int wpp_init(wpp_t *w, const wpp_cfg_t *cfg);
/* One block of the stream: its start address and the instructions executed in it. */
void wpp_block(wpp_t *w, uint32_t start, uint32_t insns);
/* Feeds symbol sym (a unit of level k - 1, or a block number for k = 0) with its instructions to
 * level k directly: the hand-worked examples of the seed start at any level. */
void wpp_symbol(wpp_t *w, unsigned k, uint32_t sym, uint64_t insns);
/* The end of the stream: closes the unit in progress at every level and sends every previous unit
 * on. Returns 0, or -1 if memory ran out at any point (the result is then incomplete). */
int wpp_finish(wpp_t *w);
void wpp_free(wpp_t *w);

static inline const uint32_t *wpp_unit_seq(const wpp_level_t *l, uint32_t u) { return l->arena + l->unit[u].seq; }
const char *wpp_level_name(unsigned k, char *buf, size_t len);

#endif /* HWPROF_WPP_CYCLES_H */
