/* Hot traces into the code cache; see trace_opt.h and docs/dynopt.md. */
#include "trace_opt.h"

hwprof_result_t hwprof_trace_opt_init(hwprof_trace_opt_t *o, hwprof_cc_t *cc, hwprof_trace_table_t *table,
                                      unsigned hist_w) {
  if (o == NULL || cc == NULL || table == NULL || hist_w < 2 || hist_w > 32) return kHwprofBadArg;
  o->cc = cc;
  o->table = table;
  o->hist_w = hist_w;
  o->img.entry = cc->c.code_lo;
  o->img.nseg = 1;
  o->img.seg[0].vaddr = cc->c.code_lo;
  o->img.seg[0].size = cc->c.code_hi - cc->c.code_lo;
  o->img.seg[0].bytes = (const uint8_t *)&cc->c.mem[(cc->c.code_lo - cc->c.mem_base) / 4u];
  o->img.seg[0].exec = true;
  o->hot = o->cached_start = o->recon_failed = o->refused = o->left_alone = o->minority = 0;
  o->nleft = o->min_share_pct = 0;
  return kHwprofOk;
}

/* The samples the table holds for traces that start at `start`. */
static uint64_t samples_from(const hwprof_trace_table_t *t, uint32_t start) {
  uint64_t n = 0;
  for (size_t i = 0; i < t->cap; i++)
    if (t->slots[i].count && t->slots[i].rec.start == start) n += t->slots[i].count;
  return n;
}

void hwprof_trace_opt_on_hot(void *ctx, const hwprof_trace_rec_t *rec, uint32_t count) {
  hwprof_trace_opt_t *o = ctx;
  hwprof_cc_t *cc = o->cc;
  o->hot++;
  /* a trace that starts at a placed trace's patch is the patch's jump alone, when the cache lies
     below the code (the jump is backward and ends it), else it runs on into the copy; either way
     there is nothing to place, and its entry stays (hot: it is not handed over again) */
  if (hwprof_cc_patch_at(cc, rec->start) || rec->start < cc->c.code_lo || rec->start >= cc->c.code_hi) {
    o->cached_start++;
    return;
  }
  for (uint32_t i = 0; i < o->nleft; i++)
    if (o->left[i] == rec->start) {
      o->left_alone++;
      return;
    }
  if (o->min_share_pct && 100u * (uint64_t)count <= o->min_share_pct * samples_from(o->table, rec->start)) {
    o->minority++;
    return;
  }
  /* rebuilt from the program as it runs: a trace ends at a placed trace's patch, a backward jump */
  hwprof_recon_t r = {.pcs = o->pcs, .cap = HWPROF_TRACE_OPT_MAX_INSNS};
  const hwprof_recon_status_t rs = hwprof_trace_reconstruct(&o->img, rec, o->hist_w, &r);
  if (rs != kReconOk) { /* the entry stays (hot): it is not handed over again */
    o->recon_failed++;
    return;
  }
  uint32_t entry;
  const hwprof_cc_status_t st = hwprof_cc_place_trace(cc, o->pcs, r.n, &entry);
  if (st != kHwprofCcPlaced) {
    o->refused++;
    if (st == kHwprofCcNoGain && o->nleft < HWPROF_TRACE_OPT_MAX_LEFT) o->left[o->nleft++] = rec->start;
    return;
  }
  (void)hwprof_trace_table_release(o->table, rec); /* step 858 */
}
