/* The block stream rebuilt from a trace file; see block_stream.h. */
#include "block_stream.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof_recon.h"
#include "rv32_isa.h"

#define MAX_TRACE_INSNS (1u << 24) /* a longer walk is a runaway, not a trace */

typedef struct {
  hwprof_recon_t r;
  hwprof_bkf_t *out;
  uint64_t cap;
} walk_t;

static int grow_walk(walk_t *w) {
  size_t cap = w->r.cap ? 2 * w->r.cap : 4096;
  if (cap > MAX_TRACE_INSNS) return -1;
  uint32_t *p = realloc(w->r.pcs, cap * sizeof *p);
  if (p == NULL) return -1;
  w->r.pcs = p;
  hwprof_block_t *b = realloc(w->r.blocks, cap * sizeof *b);
  if (b == NULL) return -1;
  w->r.blocks = b;
  w->r.cap = w->r.block_cap = cap;
  return 0;
}

static int push_block(walk_t *w, uint32_t start, uint32_t insns) {
  if (w->out->n == w->cap) {
    uint64_t cap = w->cap ? 2 * w->cap : 1u << 16;
    hwprof_block_ev_t *e = realloc(w->out->ev, cap * sizeof *e);
    if (e == NULL) return -1;
    w->out->ev = e;
    w->cap = cap;
  }
  w->out->ev[w->out->n++] = (hwprof_block_ev_t){start, insns};
  w->out->insns += insns;
  return 0;
}

/* Walks one record; kReconTooLong with a buffer at its limit means a runaway. */
static hwprof_recon_status_t walk(walk_t *w, const hwprof_image_t *img, const hwprof_trf_rec_t *rec, unsigned hist_w) {
  const hwprof_trace_rec_t r = {rec->start, rec->hist};
  for (;;) {
    hwprof_recon_status_t s = hwprof_trace_reconstruct(img, &r, hist_w, &w->r);
    if (s != kReconTooLong || grow_walk(w) != 0) return s;
  }
}

int wpp_blocks_from_traces(const hwprof_trf_t *t, const char *name, const hwprof_image_t *img, hwprof_bkf_t *out,
                           void (*progress)(void *ctx, uint64_t done, uint64_t total), void *progress_ctx, char *err,
                           size_t errlen) {
  memset(out, 0, sizeof *out);
  walk_t w = {.out = out};
  int rc = -1;
  if (grow_walk(&w) != 0) goto oom;
  if (t->dropped) {
    snprintf(err, errlen, "%s: the controller dropped %" PRIu32 " records: the stream is incomplete", name, t->dropped);
    goto done;
  }
  for (uint64_t i = 0; i < t->nrec; i++) {
    if (progress && (i & 0xffffu) == 0) progress(progress_ctx, i, t->nrec);
    hwprof_recon_status_t s = walk(&w, img, &t->rec[i], t->hist_w);
    if (s != kReconOk) {
      snprintf(err, errlen, "%s: offset %" PRIu64 ": trace 0x%08" PRIx32 "/0x%08" PRIx32 ": %s at 0x%08" PRIx32, name,
               hwprof_trf_offset(i), t->rec[i].start, t->rec[i].hist, hwprof_recon_status_str(s), w.r.fail_pc);
      goto done;
    }
    for (size_t b = 0; b < w.r.nblocks; b++)
      if (push_block(&w, w.r.blocks[b].first, (w.r.blocks[b].last - w.r.blocks[b].first) / 4u + 1u)) goto oom;
  }
  if (out->insns > t->insns) {
    snprintf(err, errlen, "%s: the records hold %" PRIu64 " instructions, the end record says the program ran %" PRIu64,
             name, out->insns, t->insns);
    goto done;
  }
  const uint64_t left = t->insns - out->insns;
  if (left != 0) { /* the unfinished trace: walk exactly `left` instructions of it */
    if (!t->has_tail) {
      snprintf(err, errlen, "%s: %" PRIu64 " of the program's instructions are in no record (records lost?)", name, left);
      goto done;
    }
    while (w.r.cap < left && grow_walk(&w) == 0) {
    }
    if (w.r.cap < left) goto oom;
    const size_t cap = w.r.cap;
    w.r.cap = w.r.block_cap = (size_t)left; /* the walk stops when it wants one instruction more */
    const hwprof_trace_rec_t r = {t->tail.start, t->tail.hist};
    hwprof_recon_status_t s = hwprof_trace_reconstruct(img, &r, t->hist_w, &w.r);
    w.r.cap = w.r.block_cap = cap;
    unsigned bits = 0, marker = 31;
    while (!((t->tail.hist >> marker) & 1u)) marker--;
    for (size_t k = 0; k < w.r.n; k++) {
      uint32_t insn;
      int32_t off;
      if (hwprof_image_fetch(img, w.r.pcs[k], &insn) && rv32_control_flow(insn, &off) == RV32_CF_BRANCH) bits++;
    }
    if (s != kReconTooLong || w.r.n != left || w.r.pcs[w.r.n - 1] != t->last_pc || bits != marker) {
      snprintf(err, errlen, "%s: the unfinished trace 0x%08" PRIx32 "/0x%08" PRIx32 " does not lead to the program's "
               "last instruction 0x%08" PRIx32 " in %" PRIu64 " instructions", name, t->tail.start, t->tail.hist,
               t->last_pc, left);
      goto done;
    }
    for (size_t b = 0; b < w.r.nblocks; b++)
      if (push_block(&w, w.r.blocks[b].first, (w.r.blocks[b].last - w.r.blocks[b].first) / 4u + 1u)) goto oom;
  }
  if (progress) progress(progress_ctx, t->nrec, t->nrec);
  rc = 0;
  goto done;
oom:
  snprintf(err, errlen, "%s: out of memory", name);
done:
  free(w.r.pcs);
  free(w.r.blocks);
  if (rc != 0) hwprof_bkf_free(out);
  return rc;
}
