/* Ball-Larus path numbering (seed 004's starting point; docs/path.md): on a control
 * flow graph with one entry and one exit, every path from the entry to the exit of the graph with
 * its back edges removed gets a unique number, its path sum, in 0 .. N - 1 (N the number of such
 * paths), as the sum of values on its edges.
 *
 *  - Back edges (given, or found by a depth-first search from the entry: an edge to a node on the
 *    search's stack) are removed; each back edge v->w is replaced by two dummy edges, ENTRY->w (a
 *    path that starts at the loop head) and v->EXIT (a path that ends by taking the back edge). The
 *    result is a DAG; a path of the original run is cut into DAG paths at every back edge.
 *  - NumPaths(EXIT) = 1; NumPaths(v) = the sum of NumPaths over v's successors. The edges out of v,
 *    in their order in the graph, get the values 0, NumPaths(w1), NumPaths(w1) + NumPaths(w2), ...:
 *    the sum along a path then counts the paths that go "left" of it at each branch, so every path
 *    gets a different sum and the sums are exactly 0 .. NumPaths(ENTRY) - 1.
 *  - Decoding walks from the entry: at each node the last edge whose value does not exceed what is
 *    left of the sum (pp_decode).
 *  - Increments on chords (Ball and Larus' optimization): with a spanning tree of the DAG plus the
 *    edge EXIT->ENTRY, heaviest edges first, each chord (edge not on the tree) carries an increment
 *    such that the increments along any ENTRY-EXIT path add up to its path sum, and tree edges carry
 *    nothing (pp_chords). The instrumentation then acts only on chords, which a maximum spanning
 *    tree keeps off the frequent edges.
 *
 * The order of a node's outgoing edges decides the values (the seed's figures fix it where they
 * give values: docs/path.md). Portable C11 with no heap and no stdio: memory from a caller's
 * arena (hwprof_cfg.h), as the CFG layer. */
#ifndef HWPROF_PATH_BL_H
#define HWPROF_PATH_BL_H

#include <stdbool.h>
#include <stdint.h>

#include "hwprof_cfg.h"

#define PP_NONE 0xffffffffu
/* count objects of type from arena a (one more, so that a count of 0 still gets memory), or NULL */
#define PP_ALLOC(a, type, count) ((type *)hwprof_arena_alloc((a), sizeof(type) * ((size_t)(count) + 1u)))

typedef struct {
  uint32_t src, dst;
} pp_edge_t;

/* A graph: nodes 0 .. nnodes - 1, its edges in order (a node's outgoing edges in this order get
 * increasing values), one entry and one exit node (the exit has no outgoing edge but back edges'
 * dummies are added to it). */
typedef struct {
  uint32_t nnodes, entry, exit;
  const pp_edge_t *edge;
  uint32_t nedge;
  const bool *start; /* per node, or NULL: where else paths start (a longjmp landing): pp_number adds
                        a dummy ENTRY->v for each, after the back edges' */
} pp_graph_t;

typedef enum {
  kPpReal = 0,       /* an edge of the graph (not a back edge) */
  kPpDummyEntry = 1, /* ENTRY->w for back edge v->w (or a start: pp_graph_t): a path that starts at w */
  kPpDummyExit = 2,  /* v->EXIT for back edge v->w: a path that ends taking it */
} pp_kind_t;

typedef enum {
  kPpOk = 0,
  kPpBadGraph,      /* an edge or the entry/exit out of range, the exit with an outgoing edge */
  kPpUnreachable,   /* a node reached from the entry cannot reach the exit (no path through it) */
  kPpTooManyPaths,  /* more paths than the limit */
  kPpNoMemory,      /* the arena is too small */
  kPpLandingInLoop, /* a longjmp lands inside a loop's region (hierarchical paths: pp_plan.h) */
} pp_status_t;

/* The DAG and its numbering. DAG edges: first the graph's non-back edges in their order, then for
 * each back edge (in the graph's order) its ENTRY->w and v->EXIT dummies, each at its place among
 * its source's outgoing edges: a dummy ENTRY->w comes after the entry's real edges, a dummy v->EXIT
 * after v's real edges (the order of values). */
typedef struct {
  const pp_graph_t *g;
  uint32_t nedge;
  pp_edge_t *edge;
  uint8_t *kind;      /* pp_kind_t */
  uint32_t *orig;     /* the graph edge each DAG edge stands for (a dummy: its back edge) */
  uint64_t *val;      /* Ball-Larus value */
  uint64_t *npaths;   /* per node: paths from it to the exit */
  bool *back;         /* per graph edge */
  uint32_t *dummy_entry, *dummy_exit; /* per graph edge: its dummies' DAG indexes (PP_NONE: not a back edge;
                                         dummy_entry also for a back edge to the entry, whose paths
                                         start at the entry as the function's do: the sum starts at 0) */
  uint32_t *first, *next; /* outgoing DAG edges of each node, in order: first[v], next[e] (PP_NONE ends) */
  uint64_t paths;     /* NumPaths(entry) */
} pp_numbering_t;

/* The back edges of g: the retreating edges of a depth-first search from the entry that takes each
 * node's outgoing edges in edge order (an edge to a node still on the search's path). In a
 * reducible graph these are exactly the edges whose target dominates their source, whatever the
 * order; in an irreducible one the order decides which edge of a cycle with several entries is
 * back. back: one per edge. Memory from a. */
pp_status_t pp_back_edges(const pp_graph_t *g, hwprof_arena_t *a, bool *back);

/* Numbers g's paths. back: per edge, whether it is a back edge (NULL: pp_back_edges()).
 * max_paths: kPpTooManyPaths beyond it (the counters a function can address). Memory from a. */
pp_status_t pp_number(const pp_graph_t *g, const bool *back, uint64_t max_paths, hwprof_arena_t *a, pp_numbering_t *n);

/* The DAG edges of the path whose sum is sum, from the entry to the exit: edges[0 .. *len).
 * kPpBadGraph if sum >= n->paths or cap is too small. */
pp_status_t pp_decode(const pp_numbering_t *n, uint64_t sum, uint32_t *edges, uint32_t cap, uint32_t *len);

/* Increments on chords: weight per DAG edge (NULL: all 1; the heaviest edges go on the tree first,
 * ties by DAG order), the spanning tree of the DAG plus EXIT->ENTRY (that edge on it first, with
 * value 0). inc[e]: the DAG edge's increment (0 on tree edges, which on_tree marks). For every
 * ENTRY-EXIT path, the sum of inc equals the sum of val. */
pp_status_t pp_chords(const pp_numbering_t *n, const uint64_t *weight, hwprof_arena_t *a, int64_t *inc, bool *on_tree);

/* The number of a path given as its blocks (nodes blk[0 .. len), in order), ended by the exit
 * (back false) or by a back edge out of its last block (back true): the sum of the DAG edges it
 * takes, from the entry (or the dummy into a loop head) to the exit (by a real edge, or the dummy of
 * the back edge). 1 with *sum, or 0 when it is not a path of n's DAG (*why says why). Blocks alone
 * do not tell which back edge a path that starts at a loop head follows, when several enter it, nor
 * a path from the entry from one after a back edge into the entry: the first dummy (by edge order),
 * and the entry's real start, are taken. */
int pp_number_path(const pp_numbering_t *n, const uint32_t *blk, uint32_t len, bool back, uint64_t *sum,
                   const char **why);

const char *pp_status_str(pp_status_t s);

#endif /* HWPROF_PATH_BL_H */
