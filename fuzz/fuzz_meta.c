/* Fuzz target: the run-time metadata reader the firmware runs on the blob inside a program
 * (sw/fw/dynopt/meta.c, hwprof_meta_open): a blob it accepts must be safe to walk as the firmware does. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "meta.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint32_t *blob = malloc(size + 4u); /* word aligned, as in the program */
  if (blob == NULL) return 0;
  memcpy(blob, data, size);
  hwprof_meta_t m;
  if (hwprof_meta_open(&m, blob, size) == kHwprofOk) {
    volatile uint64_t sum = 0; /* every index the reader vouched for, followed as the firmware does */
    for (uint32_t f = 0; f < m.hdr->nfunc; f++)
      for (uint32_t e = 0; e < m.fn[f].nedges; e++) {
        const hwprof_meta_edge_t *x = &m.edge[m.fn[f].first_edge + e];
        sum += x->counter;
        if (x->src != HWPROF_META_NONE) sum += m.blk[m.fn[f].first_block + x->src].new_start;
        if (x->dst != HWPROF_META_NONE) sum += m.blk[m.fn[f].first_block + x->dst].new_end;
      }
    for (uint32_t b = 0; b < m.hdr->nbranch; b++) {
      const hwprof_meta_func_t *fn = &m.fn[m.branch[b].func];
      sum += m.edge[fn->first_edge + m.branch[b].taken].term_new + m.edge[fn->first_edge + m.branch[b].not_taken].term_new;
    }
    (void)sum;
  }
  free(blob);
  return 0;
}
