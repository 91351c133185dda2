/* The exact load-value profile of a run (hwprof-sim --value-truth=FILE): every load the program
 * retires while value sampling is enabled (the program's own stores to the front end's CTRL
 * register, seen in the retire stream, say when), counted per load PC and per (PC, value). It is
 * the truth the value profiler's estimates are measured against (docs/vpf.md,
 * "Evaluation"); it reads nothing of the profiling hardware. Its report line says what share of the
 * program's loads (a trap handler's left out), up to the last time sampling went off, retired while
 * it was on: the profile's coverage (what follows is the runtime's final copy and report).
 *
 * File format (text): the line "# hwprof-value-truth 2", comments starting with '#', then one line
 * per load PC, most executed first:
 *   0x<pc> <instances> 0x<value>:<count> ...
 * with the PC's values that make up at least 1% of its instances, most frequent first (at most 16),
 * and last the end record "end <load PCs>". */
#ifndef HWPROF_TB_ORACLE_VALUE_TRUTH_H
#define HWPROF_TB_ORACLE_VALUE_TRUTH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ports.h"

typedef struct {
  uint64_t key; /* pc << 32 | value (pairs) or pc (loads); 0 count = empty */
  uint64_t count;
} value_truth_entry_t;

typedef struct {
  value_truth_entry_t *e;
  size_t cap, used;
} value_truth_map_t;

typedef struct {
  uint32_t reg_base;
  uint32_t ctrl; /* the front end's CTRL as the program last wrote it */
  value_truth_map_t pairs, loads;
  uint64_t instances;
  uint64_t prog_loads, prog_loads_on; /* the program's loads (not a trap handler's), and those while sampling was on */
  uint64_t tail_loads;                /* ... since sampling last went off (while it is off) */
  int oom;
} value_truth_t;

void value_truth_init(value_truth_t *t, uint32_t reg_base);
void value_truth_event(value_truth_t *t, const hwprof_retire_ev_t *ev);
/* Writes the file; prints one line to report. Returns 0, or -1 (printed, naming the file). */
int value_truth_write(value_truth_t *t, const char *path, FILE *report);
void value_truth_free(value_truth_t *t);

#endif /* HWPROF_TB_ORACLE_VALUE_TRUTH_H */
