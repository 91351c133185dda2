/* The run-time metadata reader; see hwprof_meta.h. */
#include "hwprof_meta.h"

hwprof_result_t hwprof_meta_open(hwprof_meta_t *m, const void *blob, size_t bytes) {
  if (m == NULL) return kHwprofBadArg;
  if (blob == NULL) return kHwprofNoDevice;
  if (((uintptr_t)blob & 3u) || bytes < sizeof(hwprof_meta_header_t)) return kHwprofBadArg;
  const hwprof_meta_header_t *h = blob;
  if (h->magic != HWPROF_META_MAGIC || h->version != HWPROF_META_VERSION) return kHwprofBadArg;
  if (h->cnt_bytes == 0 || h->cnt_bytes > 8 || h->nfunc > bytes || h->nblock > bytes || h->nedge > bytes ||
      h->nbranch > bytes || h->total_counters > UINT32_MAX / 8u ||
      (uint64_t)h->counters_at + (uint64_t)h->total_counters * h->cnt_bytes > UINT32_MAX + UINT64_C(1))
    return kHwprofBadArg;
  const size_t need = sizeof *h + (size_t)h->nfunc * sizeof(hwprof_meta_func_t) +
                      (size_t)h->nblock * sizeof(hwprof_meta_block_t) + (size_t)h->nedge * sizeof(hwprof_meta_edge_t) +
                      (size_t)h->nbranch * sizeof(hwprof_meta_branch_t);
  if (need > bytes) return kHwprofBadArg;
  const hwprof_meta_func_t *fn = (const hwprof_meta_func_t *)(h + 1);
  const hwprof_meta_block_t *blk = (const hwprof_meta_block_t *)(fn + h->nfunc);
  const hwprof_meta_edge_t *edge = (const hwprof_meta_edge_t *)(blk + h->nblock);
  const hwprof_meta_branch_t *branch = (const hwprof_meta_branch_t *)(edge + h->nedge);
  *m = (hwprof_meta_t){h, fn, blk, edge, branch};
  return kHwprofOk;
}

bool hwprof_meta_func_fits(const hwprof_meta_t *m, uint32_t f) {
  const hwprof_meta_header_t *h = m->hdr;
  if (f >= h->nfunc) return false;
  const hwprof_meta_func_t *x = &m->fn[f];
  if (x->first_block > h->nblock || x->nblocks > h->nblock - x->first_block || x->first_edge > h->nedge ||
      x->nedges > h->nedge - x->first_edge || x->first_branch > h->nbranch || x->nbranches > h->nbranch - x->first_branch)
    return false;
  if (x->ncounters == 0) return true;
  /* its counters inside the counter areas, whole counters (the firmware writes them) */
  const uint64_t at = (uint64_t)h->counters_at, end = at + (uint64_t)h->total_counters * h->cnt_bytes;
  return x->base >= at && (x->base - at) % h->cnt_bytes == 0 && (uint64_t)x->ncounters * h->cnt_bytes <= end - x->base;
}

hwprof_result_t hwprof_meta_check_func(const hwprof_meta_t *m, uint32_t f) {
  if (m == NULL || m->hdr == NULL || !hwprof_meta_func_fits(m, f)) return kHwprofBadArg;
  const hwprof_meta_func_t *x = &m->fn[f];
  for (uint32_t b = 0; b < x->nblocks; b++) {
    const hwprof_meta_block_t *y = &m->blk[x->first_block + b];
    if ((y->counter != HWPROF_META_NONE && y->counter >= x->ncounters) ||
        (y->term_counter != HWPROF_META_NONE && y->term_counter >= x->ncounters) || y->start > y->end ||
        (y->new_end != 0 && y->new_end < y->new_start))
      return kHwprofBadArg;
  }
  for (uint32_t e = 0; e < x->nedges; e++) {
    const hwprof_meta_edge_t *y = &m->edge[x->first_edge + e];
    if ((y->src != HWPROF_META_NONE && y->src >= x->nblocks) || (y->dst != HWPROF_META_NONE && y->dst >= x->nblocks) ||
        (y->counter != HWPROF_META_NONE && y->counter >= x->ncounters))
      return kHwprofBadArg;
  }
  for (uint32_t i = x->first_branch; i < x->first_branch + x->nbranches; i++) {
    const hwprof_meta_branch_t *b = &m->branch[i];
    if (b->func != f || b->taken >= x->nedges || b->not_taken >= x->nedges) return kHwprofBadArg;
    const hwprof_meta_edge_t *t = &m->edge[x->first_edge + b->taken], *n = &m->edge[x->first_edge + b->not_taken];
    if (t->kind != 0u || n->kind != 1u || t->src != n->src || t->counter == HWPROF_META_NONE ||
        n->counter == HWPROF_META_NONE)
      return kHwprofBadArg;
  }
  return kHwprofOk;
}

hwprof_result_t hwprof_meta_check_all(const hwprof_meta_t *m) {
  if (m == NULL || m->hdr == NULL) return kHwprofBadArg;
  uint32_t next_branch = 0; /* the functions' branch ranges cover the table in order */
  for (uint32_t f = 0; f < m->hdr->nfunc; f++) {
    if (hwprof_meta_check_func(m, f) != kHwprofOk) return kHwprofBadArg;
    if (m->fn[f].nbranches && m->fn[f].first_branch != next_branch) return kHwprofBadArg;
    next_branch += m->fn[f].nbranches;
  }
  return next_branch == m->hdr->nbranch ? kHwprofOk : kHwprofBadArg;
}
