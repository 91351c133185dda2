/* Hammock regions: what makes a function whose region-based paths are too many for its counters
 * profiled after all (docs/path.md, "Limits"). In a region's augmented graph (regions.h, its child
 * regions as single nodes) the nodes that every path from Re to Rx passes form a chain, Re = c0,
 * c1, ..., ck, Rx; the paths of the region are the product of the paths between consecutive links.
 * A run of links [ci, cj) is a hammock: ci dominates everything in it, every way out goes to cj,
 * no back edge leaves or enters it. Made a region of its own, its paths are counted once in its own
 * numbering and the enclosing region sees it as one node: a product becomes a sum.
 *
 * pp_split_hammocks() adds such regions to a function whose region-based counters exceed the limit:
 * with a cap K (8192, 4096, ... 2), every region with more than K paths is cut, link by link, into
 * the longest runs of at most K paths, from the first link that may start one (a block of the
 * region itself, not its head, not the target of a back edge, not the function's entry; the run
 * ends at a link that is a block, not Rx nor the function's exit); the largest K whose regions
 * then fit the limit together is taken. Host code, portable C11, no stdio. */
#ifndef HWPROF_PATH_HAMMOCKS_H
#define HWPROF_PATH_HAMMOCKS_H

#include "func_paths.h"

/* A hammock region: entered at node entry, left to node exit (both nodes of the function's graph). */
typedef struct pp_hammock {
  uint32_t entry, exit;
  uint32_t region; /* its region index in the function's regions after the split */
} pp_hammock_t;

/* Splits f's regions by hammocks until its region-based counters fit max_counters: f->h and its
 * arrays are replaced (memory from a), the hammocks listed in f->hammock. kPpOk (also when nothing
 * needed splitting), kPpTooManyPaths (no cap fits: a single link has too many paths, or the links
 * cannot start runs), kPpNoMemory. */
pp_status_t pp_split_hammocks(pp_func_t *f, uint32_t max_counters, hwprof_arena_t *a);

/* A hammock of a CFG function, in its blocks: entered at block entry, left to block exit, lying
 * directly in the region headed by block parent_head (0: the function's; else a loop's header). */
typedef struct {
  int entry, exit, parent_head;
} pp_cfg_hammock_t;

/* The hammocks the hierarchical plans of cfg get (pp_func_from_cfg, then pp_split_hammocks with
 * max_counters): *n of them in *out, none when its regions fit or cannot be split. Memory from a. */
pp_status_t pp_cfg_hammocks(const hwprof_cfg_func_t *cfg, uint32_t max_counters, hwprof_arena_t *a,
                            pp_cfg_hammock_t **out, uint32_t *n);

#endif /* HWPROF_PATH_HAMMOCKS_H */
