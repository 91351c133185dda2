/* A loop with a two-way branch inside, as a map function (seed 000's Figure 3 has the same shape of
 * problem), shared by the unit tests of the map library and of the report writers:
 *
 *   B0 [0x100, 0x110) (entry, no branch) -> B1
 *   B1 [0x110, 0x120): branch, taken -> B3, not taken -> B2
 *   B2 [0x120, 0x130): falls into B3
 *   B3 [0x130, 0x140): branch, taken -> B1 (back edge), not taken -> B4
 *   B4 [0x140, 0x150): return
 *
 * Run: the loop runs 10 times, B1's branch is taken 3 times. Counts by hand:
 *   VENTRY = 1, B0->B1 = 1, B1->B3 (taken) = 3, B1->B2 = 7, B2->B3 = 7, B3->B1 = 9,
 *   B3->B4 = 1, B4->exit = 1.
 * In the instrumented program block b starts at 0x1000 + 32 b. */
#ifndef HWPROF_TESTS_LOOP_FIXTURE_H
#define HWPROF_TESTS_LOOP_FIXTURE_H

#include "profmap.h"

enum { E_VENTRY, E_FALL01, E_TK13, E_NT12, E_FALL23, E_TK31, E_NT34, E_RET4, NE };
static const int64_t kCounts[NE] = {1, 1, 3, 7, 7, 9, 1, 1};

/* Fills blk[5] and edge[NE] (no counters) and returns the function over them. */
static inline pm_func_t loop_fixture(pm_block_t *blk, pm_edge_t *edge) {
  for (int b = 0; b < 5; b++)
    blk[b] = (pm_block_t){0x100u + 16u * (unsigned)b, 0x110u + 16u * (unsigned)b, 0x1000u + 32u * (unsigned)b, 0, 0,
                          PM_NONE, PM_NONE};
  edge[E_VENTRY] = (pm_edge_t){HWPROF_CFG_VIRTUAL_ENTRY, HWPROF_CFG_EXIT, 0, 0, 0, PM_NONE};
  edge[E_FALL01] = (pm_edge_t){HWPROF_CFG_FALL, 0, 1, 0x100c, 0x1020, PM_NONE};
  edge[E_TK13] = (pm_edge_t){HWPROF_CFG_TAKEN, 1, 3, 0x102c, 0x1060, PM_NONE};
  edge[E_NT12] = (pm_edge_t){HWPROF_CFG_NOT_TAKEN, 1, 2, 0x102c, 0x1040, PM_NONE};
  edge[E_FALL23] = (pm_edge_t){HWPROF_CFG_FALL, 2, 3, 0x104c, 0x1060, PM_NONE};
  edge[E_TK31] = (pm_edge_t){HWPROF_CFG_TAKEN, 3, 1, 0x106c, 0x1020, PM_NONE};
  edge[E_NT34] = (pm_edge_t){HWPROF_CFG_NOT_TAKEN, 3, 4, 0x106c, 0x1080, PM_NONE};
  edge[E_RET4] = (pm_edge_t){HWPROF_CFG_RETURN, 4, HWPROF_CFG_EXIT, 0x108c, PM_ANY, PM_NONE};
  return (pm_func_t){.name = "loop", .lo = 0x100, .hi = 0x150, .new_entry = 0x1000, .base = 0x2000, .instrumented = true,
                     .blk = blk, .nblk = 5, .dispatch = -1, .edge = edge, .nedge = NE};
}

#endif /* HWPROF_TESTS_LOOP_FIXTURE_H */
