/* What an edge profile says about each block of a function: the times it ran. Shared by the
 * report writers (lcov.c, sample_prof.c). Host only. */
#ifndef HWPROF_BLOCK_COUNTS_H
#define HWPROF_BLOCK_COUNTS_H

#include <stdint.h>

#include "profmap.h"

/* bc[b] = the times f's block b ran: the sum of the counts of the edges entering it (the virtual
 * entry edge included; a longjmp landing's not, pm_landing_edge: it comes in behind the block's
 * call, whose instructions do not run again), from cnt[f->nedge] (pm_read_profile's row). A
 * malloc'd array, or NULL. */
int64_t *block_counts(const pm_func_t *f, const int64_t *cnt);
/* f's entries: the count of its virtual entry edges (landings' left out). */
int64_t function_entries(const pm_func_t *f, const int64_t *cnt);

#endif /* HWPROF_BLOCK_COUNTS_H */
