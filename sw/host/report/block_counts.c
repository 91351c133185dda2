/* Block counts from an edge profile; see block_counts.h. */
#include "block_counts.h"

#include <stdlib.h>

int64_t *block_counts(const pm_func_t *f, const int64_t *cnt) {
  int64_t *bc = calloc(f->nblk ? f->nblk : 1, sizeof *bc);
  if (bc == NULL) return NULL;
  for (unsigned e = 0; e < f->nedge; e++)
    if (f->edge[e].dst != HWPROF_CFG_EXIT && !pm_landing_edge(f, e)) bc[f->edge[e].dst] += cnt[e];
  return bc;
}

int64_t function_entries(const pm_func_t *f, const int64_t *cnt) {
  int64_t n = 0; /* every entry point's (millicode has several) */
  for (unsigned e = 0; e < f->nedge; e++)
    if (f->edge[e].kind == HWPROF_CFG_VIRTUAL_ENTRY && !pm_landing_edge(f, e)) n += cnt[e];
  return n;
}
