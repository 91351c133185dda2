/* Reading a path profile back (docs/path.md, "The path-profile file"): after the
 * profile cache is flushed, every counter of a program instrumented for paths (hwprof-instr
 * --paths) is read from memory and decoded, with the plan remade from the original program the
 * map names (sw/host/path/pp_plan.h: the same plan the instrumenter placed), into its region and path;
 * the result is a path-profile file. Host only. */
#ifndef HWPROF_PATH_READBACK_H
#define HWPROF_PATH_READBACK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Reads the 32-bit counter at addr (the runner's memory). */
typedef uint32_t (*pp_read32_fn)(void *ctx, uint32_t addr);

typedef struct {
  unsigned functions;  /* functions with a path profile */
  uint64_t counters;   /* counters read */
  uint64_t paths;      /* distinct paths counted (non-zero counters) */
  uint64_t count;      /* their counts summed */
} pp_readback_stats_t;

/* Writes the path-profile file of the program instrumented with map_path to out. program: the
 * original program (NULL: the one the map names). Returns 0, or -1 with a one-line reason naming
 * the file in err (a map not made for paths, a program that does not match it, a counter that is
 * not a path of its function). */
int pp_readback(const char *map_path, const char *program, pp_read32_fn read32, void *ctx, FILE *out,
                pp_readback_stats_t *st, char *err, size_t errlen);

#endif /* HWPROF_PATH_READBACK_H */
