/* C model of rtl/prim/hwprof_prim_fifo.sv; see fifo.h. */
#include "fifo.h"

#include <string.h>

hwprof_result_t hwprof_prim_fifo_cfg_check(const hwprof_prim_fifo_cfg_t *cfg) {
  if (cfg == NULL || cfg->width < 1 || cfg->width > 64 || cfg->depth < 1 || cfg->depth > HWPROF_PRIM_FIFO_MAX_DEPTH)
    return kHwprofBadArg;
  return kHwprofOk;
}

void hwprof_prim_fifo_reset(hwprof_prim_fifo_state_t *s) { memset(s, 0, sizeof *s); }

void hwprof_prim_fifo_step(hwprof_prim_fifo_state_t *s, const hwprof_prim_fifo_cfg_t *cfg,
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
