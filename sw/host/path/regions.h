/* Regions and the two augmentations of seed 004 (docs/path.md): the graphs on which
 * Ball-Larus numbering (bl.h) gives hierarchical paths their sums.
 *
 * A function's regions nest (a tree; the outermost holds the function's entry and exit): each node
 * of the function belongs to one innermost region. Of a region R: its entries are its nodes that an
 * edge from outside R enters (and the function's entry), its exits its nodes with an edge leaving R
 * (and the function's exit); a back edge of R (both ends in R, given by the caller) is removed, its
 * source becoming an exit and its target an entry. A prolog of R is a node outside R with an edge
 * to an entry of R, an epilog a node outside R that an edge from an exit of R enters.
 *
 * Region-based (pp_rb_augment, steps 1-5): one graph per region R: R's own nodes, and each child
 * region r as one node, its representative entry Er(r); every edge between them mapped to those
 * nodes (which adds the edges from r's prologs to Er(r) and from Er(r) to r's epilogs, steps 5b and
 * 5c, an edge already there not added twice); a source Re with an edge to every entry and a sink Rx
 * with an edge from every exit (steps 2 and 3; Rx->Re, step 4, is the numbering's own EXIT->ENTRY).
 * A child region that is never left (an endless loop) gets an edge to Rx too, which no run takes.
 *
 * Global (pp_gp_augment, steps 1-4): the whole function's graph, back edges removed, with, for every
 * region R but the outermost, an edge from the function's entry to each entry of R, from each exit
 * of R to the function's exit, from each prolog of R to its representative entry Er(R) and from its
 * representative exit Xr(R) to each epilog (4a-4d; an edge already there not added twice). After
 * numbering, pp_gp_reassign gives each edge from a prolog p to an entry of R the value of p->Er(R),
 * and each edge from an exit of R to an epilog o the value of Xr(R)->o, so that the plain paths of
 * one hierarchical path share its sum.
 *
 * Edge order (which fixes the values): region-based: Re's edges by node, then each node's edges, an
 * exit's edge to Rx first, then the mapped edges in the function's edge order; global: the function's
 * edges in their order, then the added ones in step order. Portable C11, no heap, no stdio. */
#ifndef HWPROF_PATH_REGIONS_H
#define HWPROF_PATH_REGIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "bl.h"

typedef struct {
  const pp_graph_t *g;       /* the function */
  const bool *back;          /* per edge of g: a back edge */
  const uint32_t *region_of; /* per node of g: its innermost region */
  const uint32_t *parent;    /* per region: the enclosing one (PP_NONE: the outermost) */
  const uint32_t *rep_entry; /* per region: Er (a node of it; the region-based augmentation uses only this) */
  const uint32_t *rep_exit;  /* per region: Xr (global) */
  uint32_t nregion;
} pp_regions_t;

/* The regions a plan uses: h's (only the outermost when plain), but a region whose representative
 * entry is the function's entry node is merged into its parent, with the regions nested in it (a
 * call could not enter it once). out: new region_of, parent, rep_entry and rep_exit from a, the same
 * graph and back edges; func_region[k] (h->nregion of them, or NULL): the region of h that region
 * k of out is. */
pp_status_t pp_regions_used(const pp_regions_t *h, bool plain, hwprof_arena_t *a, pp_regions_t *out,
                            uint32_t *func_region);

/* Whether node v lies in region r (directly or in one nested in it). */
bool pp_in_region(const pp_regions_t *h, uint32_t v, uint32_t r);

/* Region r's graph for the region-based embodiment: out->nnodes = its nodes, Re and Rx (an edge from
 * Re into each node a path of r starts at: an entry of r, a back edge's target, a landing: g->start); node_of[i]
 * the function's node that local node i is (Re and Rx: PP_NONE), local_of[v] the local node that
 * function node v maps to (PP_NONE: outside r). Memory from a. */
pp_status_t pp_rb_augment(const pp_regions_t *h, uint32_t r, hwprof_arena_t *a, pp_graph_t *out, uint32_t **node_of,
                          uint32_t **local_of);

/* The function's graph for the global embodiment (the same nodes as h->g, back edges removed);
 * added[e]: out edge e was added (4a-4d). Memory from a. */
pp_status_t pp_gp_augment(const pp_regions_t *h, hwprof_arena_t *a, pp_graph_t *out, bool **added);

/* The reassignment after numbering the global graph (n numbers the graph pp_gp_augment made, added
 * its added[]): each of the function's own edges that leaves a region takes the value of the edge
 * from the representative exit of the outermost region it leaves to the same node, and one that
 * enters a region (and leaves none) the value of the edge from the same node to the representative
 * entry of the outermost region it enters. The added edges keep theirs (they count a region's paths
 * at its exit: the value from an exit to the function's exit). */
void pp_gp_reassign(const pp_regions_t *h, const bool *added, pp_numbering_t *n);
/* The DAG edge whose value pp_gp_reassign gives DAG edge e (e itself when it keeps its own): the edge
 * of the canonical plain path that e stands for. */
uint32_t pp_gp_canonical(const pp_regions_t *h, const bool *added, const pp_numbering_t *n, uint32_t e);

#endif /* HWPROF_PATH_REGIONS_H */
