/* Fuzz target: the map file reader (sw/host/profmap/map_file.c, pm_read) and what the tools do with a map
 * read: derive every function's edge counts from counters (pm_derive), as `hwprof-instr read` does. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_file.h"
#include "profmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  pm_map_t m;
  char err[256];
  if (pm_read(&m, fuzz_path_of(data, size), err, sizeof err) != 0) return 0;
  for (unsigned f = 0; f < m.nfn; f++) {
    const pm_func_t *fn = &m.fn[f];
    uint64_t *c = calloc(fn->ncounters + 1u, sizeof *c);
    int64_t *counts = calloc(fn->nedge + 1u, sizeof *counts);
    char why[128];
    if (c && counts && pm_solvable(fn)) (void)pm_derive(fn, c, counts, why, sizeof why);
    free(c);
    free(counts);
  }
  pm_free(&m);
  return 0;
}
