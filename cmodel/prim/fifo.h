/* C model of rtl/prim/hwprof_prim_fifo.sv: a ring buffer with a count, a head read port, an indexed
 * read port, and pop, clear and push in one cycle (in that order); with overwrite, a push into a
 * full FIFO replaces the oldest entry. Cycle-exact: comb() gives this cycle's outputs,
 * step() is one rising clock edge. */
#ifndef HWPROF_PRIM_FIFO_H
#define HWPROF_PRIM_FIFO_H

#include <stdbool.h>
#include <stdint.h>

#include "hwprof_result.h"

#define HWPROF_PRIM_FIFO_MAX_DEPTH 128u

typedef struct {
  unsigned width; /* Width: 1..64 */
  unsigned depth; /* Depth: 1..HWPROF_PRIM_FIFO_MAX_DEPTH */
  bool overwrite; /* Overwrite */
  bool idx_read;  /* IdxRead: the indexed read port exists (otherwise idx_rdata is 0) */
} hwprof_prim_fifo_cfg_t;

/* Exactly the flops of hwprof_prim_fifo. */
typedef struct {
  uint64_t data[HWPROF_PRIM_FIFO_MAX_DEPTH];
  unsigned head;
  unsigned count;
} hwprof_prim_fifo_state_t;

typedef struct {
  bool pop;   /* only when count != 0 */
  bool clr;
  bool push;  /* only when !full, or the same cycle pops or clears (any time with overwrite) */
  uint64_t wdata;
  unsigned idx; /* idx_i: 0..255 */
} hwprof_prim_fifo_in_t;

typedef struct {
  uint64_t rdata; /* the head entry, 0 when empty */
  uint64_t idx_rdata; /* entry idx behind the head, 0 when idx >= count */
  unsigned count;
  bool full;
} hwprof_prim_fifo_out_t;

hwprof_result_t hwprof_prim_fifo_cfg_check(const hwprof_prim_fifo_cfg_t *cfg);
void hwprof_prim_fifo_reset(hwprof_prim_fifo_state_t *s);
/* This cycle's outputs (idx: idx_i). Inline: engines read their FIFOs several times a cycle. */
static inline void hwprof_prim_fifo_comb(const hwprof_prim_fifo_state_t *s, const hwprof_prim_fifo_cfg_t *cfg,
                                         unsigned idx, hwprof_prim_fifo_out_t *out) {
  out->count = s->count;
  out->full = s->count == cfg->depth;
  out->rdata = s->count ? s->data[s->head] : 0;
  out->idx_rdata = 0;
  if (!cfg->idx_read || idx >= s->count) return;
  unsigned pos = (s->head + idx) & 0xffu;
  if (pos >= cfg->depth) pos -= cfg->depth;
  if (pos < cfg->depth) out->idx_rdata = s->data[pos];
}
/* One clock edge. Inline, as comb(): the update buffer steps every cycle the edge unit works. */
static inline void hwprof_prim_fifo_step(hwprof_prim_fifo_state_t *s, const hwprof_prim_fifo_cfg_t *cfg,
                                         const hwprof_prim_fifo_in_t *in) {
  const uint64_t mask = cfg->width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << cfg->width) - 1u;
  unsigned head = s->head, count = s->count;
  if (in->pop) {
    head = (head == cfg->depth - 1u) ? 0 : head + 1u;
    count = (count - 1u) & 0xffu;
  }
  if (in->clr) count = 0;
  if (in->push) {
    unsigned slot;
    if (cfg->overwrite && count == cfg->depth) { /* replace the oldest entry */
      slot = head;
      head = (head == cfg->depth - 1u) ? 0 : head + 1u;
    } else {
      slot = (head + count) & 0xffu;
      if (slot >= cfg->depth) slot -= cfg->depth;
      count = (count + 1u) & 0xffu;
    }
    if (slot < cfg->depth) s->data[slot] = in->wdata & mask;
  }
  s->head = head;
  s->count = count;
}

#endif /* HWPROF_PRIM_FIFO_H */
