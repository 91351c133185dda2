/* A function's path profile, planned (seed 004; docs/path.md): which regions, their
 * numbered graphs, the counters, and the path operations (path words, regs/encodings.json) each
 * edge of the function must perform so that the hardware's path sum counts every path. One plan
 * serves the instrumenter (which places the operations) and the read-back (which decodes a counter
 * index into its region and path), so the two can never disagree.
 *
 *  - plain: Ball-Larus paths of the whole function (one region, every loop's back edge cut);
 *  - region-based (seed 004's RB_PProf): the function and its natural loops as regions (but a loop
 *    headed by the entry block, which no call could enter once: it stays in the function's region),
 *    one numbered graph per region (pp_rb_augment), one counter array per region, placed one after
 *    another: region r's paths are counters start[r] .. start[r] + paths - 1;
 *  - global (seed 004's GPProf): the same regions, one numbered graph for the whole function
 *    (pp_gp_augment, plus an edge to the exit from the source of each back edge of the function's
 *    own region), one counter array indexed by the sum of the canonical plain path a hierarchical
 *    path stands for (pp_gp_canonical: a child region crossed along its representative path Pr from
 *    Er to Xr, the first path from Er to Xr inside it in edge order). Sparse: most sums are plain
 *    paths no hierarchical path stands for.
 *
 * The values are Ball-Larus increments on chords (pp_chords) rather than the plain edge values:
 * tree edges need nothing; the caller's weight per edge keeps operations off the edges where they
 * cost an instruction. The function region's edge from its Re to the entry block is always on the
 * tree, so every path of a function begins at sum 0 (where a call leaves it). The arithmetic is
 * modulo 2^PATH_SUM_W, as the hardware's.
 *
 * The operations of one edge, in order (seed 004's RB_PProf and GPProf with k regions left and m
 * entered): LEAVE (count the inner region's path, pop the outer sum) once per region left, then the
 * edge's own: COUNT at a back edge (the path ends, the next starts at the loop head) or at the
 * function's exit, else an increment (folded into the last LEAVE's b or the first ENTER's a when
 * there is one), then ENTER (push, start the inner sum) once per region entered. In the global
 * embodiment a region's count is its sum plus the increment of the edge from where it was left
 * (the block, or the representative exit of the child it left with) to the function's exit, the
 * push adds the entry edge's and Pr's increments, the inner sum starts at the increment of the
 * edge from the function's entry to the loop head, and a real edge adds its canonical edge's.
 *
 * Portable C11, no heap, no stdio: memory from the caller's arena. */
#ifndef HWPROF_PATH_PLAN_H
#define HWPROF_PATH_PLAN_H

#include "func_paths.h"
#include "autogen/hwprof_regs.h"

typedef enum { kPpPlain = 0, kPpRegionBased = 1, kPpGlobal = 2 } pp_embodiment_t;

#define PP_VAL_MOD (UINT32_C(1) << HWPROF_PATH_SUM_W)
#define PP_MAX_COUNTERS PP_VAL_MOD /* a function's counters: what a path sum can index */

typedef struct {
  uint8_t kind; /* HWPROF_PATH_OP_* */
  uint16_t a, b; /* modulo PP_VAL_MOD */
} pp_op_t;

typedef struct {
  pp_embodiment_t emb;
  const pp_func_t *f;
  pp_regions_t h; /* the regions used (region 0: the function) */
  uint32_t *func_region; /* per region used: the pp_func_t region it is */
  pp_graph_t *rg;        /* per region: its augmented graph (Re = nnodes - 2, Rx = nnodes - 1) */
  uint32_t **node_of, **local_of;
  pp_numbering_t *rn;
  int64_t **inc;         /* per region, per DAG edge: its increment */
  uint32_t *start;       /* per region: its first counter (global: all 0) */
  /* global: the one graph, its numbering and increments, and per region Pr's increments */
  pp_graph_t gg;
  bool *gadded;
  bool *gback_end; /* per edge of gg: the edge that ends a path of the function's region at its back edge */
  pp_numbering_t gn;
  int64_t *ginc, *pr_inc;
  /* global sums beyond the counters, hashed by the modulus (no two hierarchical paths collide):
   * counter h counts region hash_region[h]'s path hash_local[h] of its region-based numbering */
  bool hashed;
  uint32_t *hash_region, *hash_local;
  uint32_t ncounters;
  uint32_t *op_first, *op_n; /* per edge of f->g: its operations op[op_first .. + op_n) */
  pp_op_t *op;
  uint32_t nop;
} pp_plan_t;

/* Plans f's profile. weight: per edge of f->g, how much an operation on it would cost (NULL: 1
 * each). kPpBadGraph: a back edge into a loop it is not in, a cycle left;
 * kPpTooManyPaths: more than max_counters counters. */
pp_status_t pp_plan_make(const pp_func_t *f, pp_embodiment_t emb, const uint64_t *weight, uint32_t max_counters,
                         hwprof_arena_t *a, pp_plan_t *p);

/* The plan of a function of the CFG layer, as the instrumenter makes it and the read-back remakes
 * it: its path graph (pp_func_from_cfg) into f, and the chords' weights: what an operation on the
 * edge costs (no transfer can carry it: an inserted instruction, 3; an indirect edge's 1000; else
 * 1) times how often the edge runs: `counts` (per CFG edge, a measured edge profile), or without
 * them a guess of 10 per loop level, up to 6. The weights choose only the chords (where the
 * increments go), never the numbering: the read-back decodes a plan made with or without them
 * alike. A global plan whose sums do not fit the counters even hashed falls back to the
 * region-based plan (p->emb says which): the same hierarchical paths; so does a function a longjmp
 * lands in (a path starts behind its call of setjmp), and kPpLandingInLoop when that call is in a
 * loop's region (hierarchical plans; plain paths have one region). */
pp_status_t pp_plan_cfg(const hwprof_cfg_func_t *cfg, pp_embodiment_t emb, const uint64_t *counts, hwprof_arena_t *a,
                        pp_func_t *f, pp_plan_t *p);

/* The sum a path of node v's region that starts at v begins with (v: a loop head, entered by its
 * back edge, or a longjmp landing: regions.h), modulo PP_VAL_MOD; false if no path of the plan
 * starts there (or the plan is global). */
bool pp_plan_start_sum(const pp_plan_t *p, uint32_t v, uint16_t *sum);

/* A decoded counter: its region and path: the function's nodes in order, a child region as
 * PP_CHILD | its region (entered at its representative entry); exit: the path reached the
 * function's exit (its last item is then the block that left). */
#define PP_CHILD 0x80000000u
typedef struct {
  uint32_t region;
  uint32_t len;
  bool exit;
} pp_path_t;

/* The path counter index idx counts: items[0 .. path->len). kPpBadGraph if idx is not a counter
 * of the plan or cap is too small. scratch: at least the plan's largest DAG edge count + 1. */
pp_status_t pp_plan_decode(const pp_plan_t *p, uint32_t idx, uint32_t *items, uint32_t cap, uint32_t *scratch,
                           uint32_t scratch_cap, pp_path_t *path);

/* The region used that holds node v directly, and the depth of region r (0: the function). */
unsigned pp_plan_depth(const pp_plan_t *p, uint32_t r);

#endif /* HWPROF_PATH_PLAN_H */
