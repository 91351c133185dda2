/* Hammock regions: what makes a function whose region-based paths are too many for its counters
 * profiled after all (docs/path.md, "Hammocks"). In a region's augmented graph (regions.h, its
 * child regions as single nodes), a hammock is a node x and a node y that postdominates it (every
 * path from x reaches y; y may be Rx: the hammock then ends where its region's paths end) such
 * that x dominates every node a walk from x reaches before y: entered only at x, left only to y.
 * Made a region, its paths are counted in its own numbering and the region around it sees it as
 * one node: a product of paths becomes a sum.
 *
 * pp_split_hammocks() adds hammocks to a function whose region-based counters exceed the limit:
 * with a cap K (8192, 4096, ... 2 paths per hammock), it takes from the region with the most paths
 * the hammock that removes the most paths ((paths of the hammock - 1) x paths into x x paths out
 * of y), collapses it and goes on until the regions and hammocks together fit; the largest K that
 * fits wins. A hammock may hold loops and other hammocks; it starts at a block of its region's own
 * that is not the region's head, the function's entry, a block entered from outside the region or
 * by a back edge, nor another hammock's start; it does not end at the function's exit node. Host
 * code, portable C11, no stdio. */
#ifndef HWPROF_PATH_HAMMOCKS_H
#define HWPROF_PATH_HAMMOCKS_H

#include "func_paths.h"

/* A hammock region: entered at node entry, left to node exit (nodes of the function's graph), or,
 * exit PP_NONE, left where its region's paths end (by a back edge of the region, a return, or out
 * of the region). */
typedef struct pp_hammock {
  uint32_t entry, exit;
  uint32_t region; /* its region index in the function's regions after the split */
} pp_hammock_t;

/* Splits f's regions by hammocks until its region-based counters fit max_counters: f->h and its
 * arrays are replaced (memory from a), the hammocks listed in f->hammock. kPpOk (also when nothing
 * needed splitting), kPpTooManyPaths (no cap fits: a single link has too many paths, or the links
 * cannot start runs), kPpNoMemory. */
pp_status_t pp_split_hammocks(pp_func_t *f, uint32_t max_counters, hwprof_arena_t *a);

/* A hammock of a CFG function, in its blocks: entered at block entry, left to block exit (-1: where
 * its region's paths end), lying directly in the region headed by block parent_head (0: the
 * function's; else a loop's header or another hammock's entry). */
typedef struct {
  int entry, exit, parent_head;
} pp_cfg_hammock_t;

/* The hammocks the hierarchical plans of cfg get (pp_func_from_cfg, then pp_split_hammocks with
 * max_counters): *n of them in *out, none when its regions fit or cannot be split. Memory from a. */
pp_status_t pp_cfg_hammocks(const hwprof_cfg_func_t *cfg, uint32_t max_counters, hwprof_arena_t *a,
                            pp_cfg_hammock_t **out, uint32_t *n);

#endif /* HWPROF_PATH_HAMMOCKS_H */
