/* The indexed run file (docs/wpp.md, "The indexed file"): the seed keeps its repeated strata in an
 * ISAM file whose records are reached by ending instruction, ending path number or stratum; this is
 * the equivalent. For every level it holds the repeated units in stream order (so sorted by their
 * ending instruction and by their ending path number, both searched by bisection) and a second index
 * sorted by unit, so any of the three keys finds its records without a scan. */
#ifndef HWPROF_WPP_INDEX_H
#define HWPROF_WPP_INDEX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cycles.h"

#define HWPROF_WPX_MAGIC "HWPWPPIX"
#define HWPROF_WPX_RECORD_BYTES 32u

/* Writes the timeline of w (kept with cfg.keep_runs) to path; 0, or -1 with a reason in err. */
int wpp_index_write(const wpp_t *w, const char *path, char *err, size_t errlen);

typedef struct {
  uint32_t levels;
  uint64_t insns, paths;
  struct {
    uint64_t n;
    wpp_run_t *run;
    uint32_t *by_unit; /* record numbers sorted by (unit, record number) */
  } level[WPP_MAX_LEVELS];
} wpp_index_t;

int wpp_index_load(wpp_index_t *x, const char *path, char *err, size_t errlen);
int wpp_index_parse(wpp_index_t *x, const uint8_t *buf, size_t len, const char *name, char *err, size_t errlen);
void wpp_index_free(wpp_index_t *x);

/* The record of level k covering instruction i, or -1. */
int64_t wpp_index_at_insn(const wpp_index_t *x, unsigned k, uint64_t i);
/* The record of level 0 holding path traversal number p (1-based), or -1. */
int64_t wpp_index_at_path(const wpp_index_t *x, uint64_t p);
/* The records of unit u at level k: *first into by_unit, count returned. */
uint64_t wpp_index_of_unit(const wpp_index_t *x, unsigned k, uint32_t u, uint64_t *first);

#endif /* HWPROF_WPP_INDEX_H */
