/* The measured edge profile as chord weights; see path_weights.h. */
#include "path_weights.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int instr_weights_load(instr_weights_t *w, const char *profile, const char *map, char *err, size_t errlen) {
  memset(w, 0, sizeof *w);
  if (pm_read(&w->map, map, err, errlen) != 0) return -1;
  if (strncmp(w->map.mode, "paths", 5) == 0) {
    snprintf(err, errlen, "%s: the map of a path profile (mode %s): --path-weights needs an edge profile's", map,
             w->map.mode);
  } else if (pm_read_profile(&w->map, profile, &w->rows, err, errlen) == 0) {
    return 0;
  }
  pm_free(&w->map);
  return -1;
}

void instr_weights_free(instr_weights_t *w) {
  if (w->rows) pm_free_counts(&w->map, w->rows);
  pm_free(&w->map);
  memset(w, 0, sizeof *w);
}

/* whether the map lists function m's blocks and edges as the program's CFG g has them */
static bool same_graph(const pm_func_t *m, const hwprof_cfg_func_t *g) {
  if (m->nblk != g->nblk || m->nedge != g->nedge) return false;
  for (unsigned b = 0; b < g->nblk; b++)
    if (m->blk[b].start != g->blk[b].start || m->blk[b].end != g->blk[b].end) return false;
  for (unsigned e = 0; e < g->nedge; e++)
    if (m->edge[e].kind != g->edge[e].kind || m->edge[e].src != g->edge[e].src || m->edge[e].dst != g->edge[e].dst)
      return false;
  return true;
}

uint64_t *instr_weights_for(instr_weights_t *w, uint32_t lo, const hwprof_cfg_func_t *g) {
  w->asked++;
  for (unsigned f = 0; f < w->map.nfn; f++) {
    if (w->map.fn[f].lo != lo || w->rows[f] == NULL || !same_graph(&w->map.fn[f], g)) continue;
    uint64_t *c = malloc((g->nedge ? g->nedge : 1u) * sizeof *c);
    if (c == NULL) return NULL;
    for (unsigned e = 0; e < g->nedge; e++) c[e] = w->rows[f][e] > 0 ? (uint64_t)w->rows[f][e] : 0u;
    w->matched++;
    return c;
  }
  return NULL;
}
