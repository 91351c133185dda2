/* The edge profile's oracle (docs/instrumenter.md, "Reading profiles back"): the exact count of
 * every edge of an instrumented program's map, from the retire stream of its run: each retired
 * control transfer (and each return into a block that follows a call) is looked up by its pc in
 * the map's edges. It shares nothing with the derivation from counters (sw/host/profmap/derive.c) it
 * checks. Host only. */
#ifndef HWPROF_TB_ORACLE_EDGE_TRUTH_H
#define HWPROF_TB_ORACLE_EDGE_TRUTH_H

#include <stdbool.h>
#include <stdint.h>

#include "profmap.h"

/* Exact edge counts from the retire stream of the instrumented program. */
typedef struct pm_truth pm_truth_t;
pm_truth_t *pm_truth_new(const pm_map_t *m);
/* is_ret: the instruction is a return (a fall edge whose block ends in a call has term_new PM_ANY
 * and is taken when a return goes to its dst_new). */
void pm_truth_feed(pm_truth_t *t, uint32_t pc, uint32_t next_pc, bool taken, bool is_ret);
/* Count of edge e of function f. */
int64_t pm_truth_count(const pm_truth_t *t, unsigned f, unsigned e);
void pm_truth_free(pm_truth_t *t);

#endif /* HWPROF_TB_ORACLE_EDGE_TRUTH_H */
