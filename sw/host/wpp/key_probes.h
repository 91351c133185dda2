/* The table organisations hwprof-wpp probes compares (docs/wpp.md, "The hash table"), and one
 * stream of 64-bit keys run through a table of each: seed 002's Figure 8 handler's records (start
 * and history) or the synthetic stream of zipf_stream.h. */
#ifndef HWPROF_WPP_KEY_PROBES_H
#define HWPROF_WPP_KEY_PROBES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "chain_table.h"

typedef struct {
  const char *name;
  wpp_sort_t sort;
  bool insert_head;
  uint32_t grow_load;
  bool open;
} wpp_mode_t;

/* none-tail, none-head, mtf, bounded, full, grow (chains doubled past one entry per bucket), open
 * (linear probing, at most half full) */
extern const wpp_mode_t wpp_modes[];
extern const unsigned wpp_nmodes;

/* cfg with the mode's organisation (the thresholds and the starting width kept) */
wpp_table_cfg_t wpp_mode_cfg(const wpp_mode_t *m, const wpp_table_cfg_t *cfg);

/* The header and one line of hwprof-wpp probes' table. */
void wpp_probe_header(FILE *to);
void wpp_probe_row(FILE *to, const char *mode, const wpp_table_t *t, double seconds);

/* The i-th key of a stream of n. */
typedef uint64_t (*wpp_key_fn)(void *ctx, uint64_t i);

/* Runs the n keys through a table named `table` of this configuration (a lookup each, an insert
 * when it misses) and prints its line. Returns 0, or -1 (out of memory). */
int wpp_probe_keys(FILE *to, const char *mode, const char *table, const wpp_table_cfg_t *cfg, uint64_t n, wpp_key_fn key,
                   void *ctx);

#endif /* HWPROF_WPP_KEY_PROBES_H */
