/* A measured edge profile as the weights of the path plan's chords (docs/path.md, "The plan"):
 * hwprof-instr instrument --paths=... --path-weights=PROFILE --path-weights-map=MAP, where PROFILE
 * is the edge profile an edge-profiling build of the same program read back (its map MAP). Each
 * function whose blocks and edges the map lists as the program's CFG has them gets its edges'
 * counts; the others keep the loops' guess. */
#ifndef HWPROF_INSTR_PATH_WEIGHTS_H
#define HWPROF_INSTR_PATH_WEIGHTS_H

#include <stddef.h>
#include <stdint.h>

#include "hwprof_cfg.h"
#include "profmap.h"

typedef struct {
  pm_map_t map;
  int64_t **rows; /* per map function, its edges' counts, or NULL */
  unsigned matched, asked;
} instr_weights_t;

/* Reads the profile and its map. Returns 0, or -1 with a one-line reason naming the file in err. */
int instr_weights_load(instr_weights_t *w, const char *profile, const char *map, char *err, size_t errlen);
/* The counts of the built CFG g of the function at lo, per CFG edge (the caller frees them), or
 * NULL when the profile has no such function with the same graph (or memory ran out). */
uint64_t *instr_weights_for(instr_weights_t *w, uint32_t lo, const hwprof_cfg_func_t *g);
void instr_weights_free(instr_weights_t *w);

#endif /* HWPROF_INSTR_PATH_WEIGHTS_H */
