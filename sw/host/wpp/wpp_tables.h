/* The text outputs of hwprof-wpp (docs/wpp.md, "Tables"): one table per level and one of blocks,
 * hottest first, and a summary log with the hash tables' costs and the phase changes they saw. The
 * tables hold nothing but what the block stream determines, so two streams that are equal give
 * byte-equal tables (that is how the hardware's stream is checked against the retire stream's). */
#ifndef HWPROF_WPP_TABLES_H
#define HWPROF_WPP_TABLES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cycles.h"

/* Function symbols, to name blocks (may be empty). */
typedef struct {
  uint32_t addr, size;
  const char *name;
} wpp_sym_t;

typedef struct {
  wpp_sym_t *sym; /* sorted by address */
  size_t n;
} wpp_symtab_t;

/* "name+0xoff" for addr, or "?" */
const char *wpp_sym_name(const wpp_symtab_t *s, uint32_t addr, char *buf, size_t len);

/* PREFIX.blocks.txt and PREFIX.<level>.txt for every level. Returns 0, or -1 with a reason in err. */
int wpp_write_tables(const wpp_t *w, const char *prefix, const wpp_symtab_t *syms, char *err, size_t errlen);
/* The summary: counts per level, the hash tables' lookups, probes and sorting work, phase changes. */
void wpp_write_summary(const wpp_t *w, FILE *f, const wpp_symtab_t *syms);

#endif /* HWPROF_WPP_TABLES_H */
