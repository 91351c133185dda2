/* Fuzz target: the run-time metadata reader the firmware runs on the blob inside a program
 * (sw/lib/meta.c): a blob whose header hwprof_meta_open accepts must be safe to walk as the firmware
 * does, one function at a time once hwprof_meta_check_func accepted it; and hwprof_meta_check_all
 * must accept only what every function's check accepts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof_meta.h"

/* Every index of f the check vouched for, followed as the firmware does. */
static uint64_t walk(const hwprof_meta_t *m, uint32_t f) {
  uint64_t sum = 0;
  const hwprof_meta_func_t *fn = &m->fn[f];
  for (uint32_t e = 0; e < fn->nedges; e++) {
    const hwprof_meta_edge_t *x = &m->edge[fn->first_edge + e];
    sum += x->counter == HWPROF_META_NONE ? 0 : hwprof_meta_counter_addr(m, f, x->counter);
    if (x->src != HWPROF_META_NONE) sum += m->blk[fn->first_block + x->src].new_start;
    if (x->dst != HWPROF_META_NONE) sum += m->blk[fn->first_block + x->dst].new_end;
  }
  for (uint32_t b = fn->first_branch; b < fn->first_branch + fn->nbranches; b++)
    sum += m->edge[fn->first_edge + m->branch[b].taken].term_new + m->edge[fn->first_edge + m->branch[b].not_taken].term_new;
  return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint32_t *blob = malloc(size + 4u); /* word aligned, as in the program */
  if (blob == NULL) return 0;
  memcpy(blob, data, size);
  hwprof_meta_t m;
  if (hwprof_meta_open(&m, blob, size) == kHwprofOk) {
    volatile uint64_t sum = hwprof_meta_code_end(&m);
    bool every = true;
    for (uint32_t f = 0; f < m.hdr->nfunc; f++) {
      if (hwprof_meta_func_fits(&m, f)) /* what the firmware reads of a function before its check: its probe */
        for (uint32_t e = 0; e < m.fn[f].nedges && e < 2u; e++) sum += m.edge[m.fn[f].first_edge + e].counter;
      if (hwprof_meta_check_func(&m, f) == kHwprofOk) sum += walk(&m, f);
      else every = false;
    }
    if (hwprof_meta_check_all(&m) == kHwprofOk && !every) abort(); /* the whole check let a function through */
    (void)sum;
  }
  free(blob);
  return 0;
}
