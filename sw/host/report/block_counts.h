/* What an edge profile says about each block of a function: the times it ran. Shared by the
 * report writers (lcov.c, sample_prof.c). Host only. */
#ifndef HWPROF_BLOCK_COUNTS_H
#define HWPROF_BLOCK_COUNTS_H

#include <stdint.h>

#include "profmap.h"

/* bc[b] = the count of f's block b: the sum of the counts of the edges entering it (the virtual
 * entry edge included), from cnt[f->nedge] (pm_read_profile's row). A malloc'd array, or NULL. */
int64_t *block_counts(const pm_func_t *f, const int64_t *cnt);
/* f's entries: the count of its virtual entry edge. */
int64_t function_entries(const pm_func_t *f, const int64_t *cnt);

#endif /* HWPROF_BLOCK_COUNTS_H */
