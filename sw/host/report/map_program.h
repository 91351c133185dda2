/* Whether an instrumenter's map was made from a given program: the check every hwprof-report
 * command makes before it reads the program's source lines for the map's profile. Host only. */
#ifndef HWPROF_MAP_PROGRAM_H
#define HWPROF_MAP_PROGRAM_H

#include <stddef.h>

#include "hwprof_elf.h"
#include "profmap.h"

/* Every instrumented function of m has a symbol of its name at its address in the program e (a map
 * of another build, or of another program, names other functions there). Returns 0, or -1 with a
 * reason naming both files (map, program) in err. */
int map_describes_program(const pm_map_t *m, const hwprof_elf_t *e, const char *map, const char *program, char *err,
                          size_t errlen);

#endif /* HWPROF_MAP_PROGRAM_H */
