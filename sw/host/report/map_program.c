/* A map against its program; see map_program.h. */
#include "map_program.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

int map_describes_program(const pm_map_t *m, const hwprof_elf_t *e, const char *map, const char *program, char *err,
                          size_t errlen) {
  for (unsigned i = 0; i < m->nfn; i++) {
    const pm_func_t *f = &m->fn[i];
    if (!pm_profiled(f)) continue;
    bool found = false;
    for (unsigned k = 0; k < e->nsym && !found; k++)
      found = e->sym[k].value == f->lo && e->sym[k].name != NULL && strcmp(e->sym[k].name, f->name) == 0;
    if (!found) {
      snprintf(err, errlen,
               "%s does not describe %s (a stale map, or another program's?): %s is not at 0x%08" PRIx32 " there", map,
               program, f->name, f->lo);
      return -1;
    }
  }
  return 0;
}
