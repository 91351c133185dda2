/* Run-time metadata reader; see meta.h. */
#include "meta.h"

hwprof_result_t hwprof_meta_open(hwprof_meta_t *m, const void *blob, size_t bytes) {
  if (m == NULL) return kHwprofBadArg;
  if (blob == NULL) return kHwprofNoDevice;
  if (((uintptr_t)blob & 3u) || bytes < sizeof(hwprof_meta_header_t)) return kHwprofBadArg;
  const hwprof_meta_header_t *h = blob;
  if (h->magic != HWPROF_META_MAGIC || h->version != HWPROF_META_VERSION) return kHwprofBadArg;
  if (h->cnt_bytes == 0 || h->cnt_bytes > 8 || h->nfunc > bytes || h->nblock > bytes || h->nedge > bytes ||
      h->nbranch > bytes)
    return kHwprofBadArg;
  const size_t need = sizeof *h + (size_t)h->nfunc * sizeof(hwprof_meta_func_t) +
                      (size_t)h->nblock * sizeof(hwprof_meta_block_t) + (size_t)h->nedge * sizeof(hwprof_meta_edge_t) +
                      (size_t)h->nbranch * sizeof(hwprof_meta_branch_t);
  if (need > bytes) return kHwprofBadArg;
  const hwprof_meta_func_t *fn = (const hwprof_meta_func_t *)(h + 1);
  const hwprof_meta_block_t *blk = (const hwprof_meta_block_t *)(fn + h->nfunc);
  const hwprof_meta_edge_t *edge = (const hwprof_meta_edge_t *)(blk + h->nblock);
  const hwprof_meta_branch_t *branch = (const hwprof_meta_branch_t *)(edge + h->nedge);
  for (uint32_t f = 0; f < h->nfunc; f++) {
    const hwprof_meta_func_t *x = &fn[f];
    if (x->first_block > h->nblock || x->nblocks > h->nblock - x->first_block || x->first_edge > h->nedge ||
        x->nedges > h->nedge - x->first_edge)
      return kHwprofBadArg;
    for (uint32_t b = 0; b < x->nblocks; b++) {
      const hwprof_meta_block_t *y = &blk[x->first_block + b];
      if ((y->counter != HWPROF_META_NONE && y->counter >= x->ncounters) ||
          (y->term_counter != HWPROF_META_NONE && y->term_counter >= x->ncounters) || y->start > y->end ||
          (y->new_end != 0 && y->new_end < y->new_start))
        return kHwprofBadArg;
    }
    for (uint32_t e = 0; e < x->nedges; e++) {
      const hwprof_meta_edge_t *y = &edge[x->first_edge + e];
      if ((y->src != HWPROF_META_NONE && y->src >= x->nblocks) || (y->dst != HWPROF_META_NONE && y->dst >= x->nblocks) ||
          (y->counter != HWPROF_META_NONE && y->counter >= x->ncounters))
        return kHwprofBadArg;
    }
  }
  for (uint32_t i = 0; i < h->nbranch; i++) {
    const hwprof_meta_branch_t *b = &branch[i];
    if (b->func >= h->nfunc || b->taken >= fn[b->func].nedges || b->not_taken >= fn[b->func].nedges ||
        (i > 0 && b->func < branch[i - 1].func))
      return kHwprofBadArg;
    const hwprof_meta_edge_t *t = &edge[fn[b->func].first_edge + b->taken], *n = &edge[fn[b->func].first_edge + b->not_taken];
    if (t->kind != 0u || n->kind != 1u || t->src != n->src || t->counter == HWPROF_META_NONE ||
        n->counter == HWPROF_META_NONE)
      return kHwprofBadArg;
  }
  *m = (hwprof_meta_t){h, fn, blk, edge, branch};
  return kHwprofOk;
}

uint32_t hwprof_meta_code_end(const hwprof_meta_t *m) {
  uint32_t end = 0;
  for (uint32_t f = 0; f < m->hdr->nfunc; f++) {
    const hwprof_meta_func_t *x = &m->fn[f];
    const uint32_t moved = x->new_entry + (x->hi - x->lo);
    if (moved > end) end = moved;
    for (uint32_t b = 0; b < x->nblocks; b++)
      if (m->blk[x->first_block + b].new_end > end) end = m->blk[x->first_block + b].new_end;
  }
  return end;
}
