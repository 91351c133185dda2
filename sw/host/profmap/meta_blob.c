/* The run-time metadata the dynamic optimizer's firmware reads (hwprof_meta.h), serialized from a
 * map; see profmap.h. */
#include "profmap.h"

#include "hwprof_meta.h"

#include <stdlib.h>
#include <string.h>

static uint32_t meta_index(int i) { return i < 0 ? HWPROF_META_NONE : (uint32_t)i; }

/* Where the instrumented code ends: the map's text range, or (a map without one) past every
 * function's last block and past a function without blocks moved as it was. */
static uint32_t code_end(const pm_map_t *m) {
  if (m->text_hi) return m->text_hi;
  uint32_t end = 0;
  for (unsigned f = 0; f < m->nfn; f++) {
    const pm_func_t *p = &m->fn[f];
    if (p->new_entry + (p->hi - p->lo) > end) end = p->new_entry + (p->hi - p->lo);
    for (unsigned b = 0; b < p->nblk; b++)
      if (p->blk[b].new_end > end) end = p->blk[b].new_end;
  }
  return end;
}

int pm_meta_blob(const pm_map_t *m, uint32_t **words, size_t *nwords) {
  size_t nblock = 0, nedge = 0, nbranch = 0;
  /* a derived function has no counters: to the firmware, which reads counters, it is uninstrumented */
#define NBLK(p) ((p)->derived ? 0u : (p)->nblk)
#define NEDGE(p) ((p)->derived ? 0u : (p)->nedge)
  for (unsigned f = 0; f < m->nfn; f++) {
    nblock += NBLK(&m->fn[f]);
    nedge += NEDGE(&m->fn[f]);
    for (unsigned e = 0; e < m->fn[f].nedge; e++) /* a counted taken edge: a branch if its not-taken one is too */
      nbranch += m->fn[f].edge[e].kind == HWPROF_CFG_TAKEN && m->fn[f].edge[e].counter != PM_NONE;
  }
  const size_t hw = sizeof(hwprof_meta_header_t) / 4, fw = sizeof(hwprof_meta_func_t) / 4,
               bw = sizeof(hwprof_meta_block_t) / 4, ew = sizeof(hwprof_meta_edge_t) / 4;
  const size_t rw = sizeof(hwprof_meta_branch_t) / 4;
  const size_t n = hw + m->nfn * fw + nblock * bw + nedge * ew + nbranch * rw;
  uint32_t *w = calloc(n, 4);
  if (w == NULL) return -1;
  hwprof_meta_header_t *h = (hwprof_meta_header_t *)w;
  *h = (hwprof_meta_header_t){HWPROF_META_MAGIC, HWPROF_META_VERSION, m->nfn, (uint32_t)nblock, (uint32_t)nedge,
                              m->counters_at, m->total_counters, m->cnt_bytes, m->k,
                              strcmp(m->mode, "all") == 0 ? 1u : 0u, 0, code_end(m)};
  hwprof_meta_func_t *fn = (hwprof_meta_func_t *)(w + hw);
  hwprof_meta_block_t *blk = (hwprof_meta_block_t *)(w + hw + m->nfn * fw);
  hwprof_meta_edge_t *edge = (hwprof_meta_edge_t *)(w + hw + m->nfn * fw + nblock * bw);
  hwprof_meta_branch_t *br = (hwprof_meta_branch_t *)(w + hw + m->nfn * fw + nblock * bw + nedge * ew);
  uint32_t b0 = 0, e0 = 0;
  for (unsigned f = 0; f < m->nfn; f++) {
    const pm_func_t *p = &m->fn[f];
    fn[f] = (hwprof_meta_func_t){p->lo, p->hi, p->new_entry, p->base, p->ncounters, p->nregions, b0, NBLK(p), e0,
                                 NEDGE(p), h->nbranch, 0};
    if (p->derived) continue;
    for (unsigned b = 0; b < p->nblk; b++) {
      const pm_block_t *x = &p->blk[b];
      blk[b0 + b] = (hwprof_meta_block_t){x->start, x->end, x->new_start, x->new_end, (uint32_t)x->region,
                                          meta_index(x->counter), meta_index(x->term_counter)};
    }
    for (unsigned e = 0; e < p->nedge; e++) {
      const pm_edge_t *x = &p->edge[e];
      edge[e0 + e] = (hwprof_meta_edge_t){(uint32_t)x->kind, meta_index(x->src), meta_index(x->dst), x->term_new,
                                          x->dst_new, meta_index(x->counter)};
    }
    for (unsigned e = 0; e < p->nedge; e++) {
      if (p->edge[e].kind != HWPROF_CFG_TAKEN || p->edge[e].counter == PM_NONE) continue;
      for (unsigned g = 0; g < p->nedge; g++)
        if (p->edge[g].kind == HWPROF_CFG_NOT_TAKEN && p->edge[g].src == p->edge[e].src && p->edge[g].counter != PM_NONE) {
          br[h->nbranch++] = (hwprof_meta_branch_t){f, e, g};
          fn[f].nbranches++;
          break;
        }
    }
    b0 += p->nblk;
    e0 += p->nedge;
  }
#undef NBLK
#undef NEDGE
  *nwords = n - (nbranch - h->nbranch) * rw; /* taken edges whose not-taken edge is derived are no branch */
  /* the firmware checks only the header and the functions it uses: the whole blob is checked here */
  hwprof_meta_t view;
  if (hwprof_meta_open(&view, w, *nwords * 4u) != kHwprofOk || hwprof_meta_check_all(&view) != kHwprofOk) {
    free(w);
    return -1;
  }
  *words = w;
  return 0;
}
