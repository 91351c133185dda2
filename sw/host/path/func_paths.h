/* A real function's path graph and regions, from the CFG layer (hwprof_cfg.h), for Ball-Larus
 * numbering (bl.h) and the two hierarchical embodiments (regions.h); docs/path.md.
 *
 * Nodes: the function's blocks and one EXIT node (index nblk) that returns, tail calls and the
 * fall past the end lead to; a block with no edge at all out of it (a call that never returns at
 * the end of a path) gets its virtual edge to EXIT, so that every block can reach the exit. The
 * entry is block 0. Back edges: the retreating edges of a depth-first search in the CFG's edge order
 * (pp_back_edges()): in a reducible function the edges whose target dominates their source (the
 * natural loops'), in an irreducible one also one edge into each cycle with several entries; and
 * every edge into a dispatch node (hwprof_cfg.h: the indirect jumps that share the function's
 * code addresses), so that a path ends at each such jump and the next starts at the node.
 * Regions: the function (region 0) and its natural loops (loop l is region l + 1, nested as the
 * CFG layer nests them); a loop's representative entry is its header, its representative exit the
 * first of its blocks (by address) with an edge out of the loop (the header if none). A function
 * with an irreducible loop or a dispatch node has the one region: its hierarchical paths are its
 * plain paths.
 *
 * Host code (allocation from the caller's arena), portable C11, no stdio. */
#ifndef HWPROF_PATH_FUNC_PATHS_H
#define HWPROF_PATH_FUNC_PATHS_H

#include "bl.h"
#include "regions.h"

typedef struct {
  pp_graph_t g;
  bool *back;
  uint32_t *cfg_edge; /* per edge of g: the CFG edge it is */
  bool *reach;        /* per node: reached from the entry (the exit: always) */
  pp_regions_t h;
  uint32_t *region_of, *parent, *rep_entry, *rep_exit;
  bool reducible; /* false: an irreducible loop, one region */
  struct pp_hammock *hammock; /* regions added by pp_split_hammocks (hammocks.h), or NULL */
  uint32_t nhammock;
} pp_func_t;

/* The graph and regions of f (built, with loops). kPpBadGraph if f has no CFG. */
pp_status_t pp_func_from_cfg(const hwprof_cfg_func_t *f, hwprof_arena_t *a, pp_func_t *out);

#endif /* HWPROF_PATH_FUNC_PATHS_H */
