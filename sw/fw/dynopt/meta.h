/* The run-time metadata of an instrumented program, read by the firmware inside it
 * (sw/include/hwprof_meta.h has the layout, docs/dynopt.md its use). Portable C11, no allocation:
 * the views point into the blob, which the program image holds. */
#ifndef HWPROF_DYNOPT_META_H
#define HWPROF_DYNOPT_META_H

#include <stddef.h>
#include <stdint.h>

#include "hwprof_meta.h"
#include "hwprof_result.h"

typedef struct {
  const hwprof_meta_header_t *hdr;
  const hwprof_meta_func_t *fn;
  const hwprof_meta_block_t *blk;
  const hwprof_meta_edge_t *edge;
  const hwprof_meta_branch_t *branch;
} hwprof_meta_t;

/* Checks the blob of bytes bytes at blob (word aligned): magic, version, sizes, and every index in
 * range (a function's blocks and edges inside the tables, an edge's blocks and counters inside its
 * function, a branch's function and its edges: a counted taken and not-taken edge out of one block). kHwprofBadArg (m untouched) when it is not a consistent blob; kHwprofNoDevice when
 * blob is NULL (the program was not instrumented with metadata). */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_meta_open(hwprof_meta_t *m, const void *blob, size_t bytes);

/* Where the instrumented program's code ends: past every function's last block (new_end), and past
 * new_entry + its original size for a function without blocks (not instrumented: moved as it is). */
uint32_t hwprof_meta_code_end(const hwprof_meta_t *m);

/* The counter's address in memory (function f's counter index i). */
static inline uint32_t hwprof_meta_counter_addr(const hwprof_meta_t *m, uint32_t f, uint32_t i) {
  return m->fn[f].base + i * m->hdr->cnt_bytes;
}

#endif /* HWPROF_DYNOPT_META_H */
