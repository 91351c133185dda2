/* The platforms' trace drain; see trace_drain.h. */
#include "trace_drain.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "autogen/hwprof_regs.h"

#define DRAIN_BATCH 16u

/* The watermark: half the FIFO (at least 1). The drain runs before the next instruction, which ends
 * at most a trace or two, so the FIFO never fills; each drain reads the status and acknowledges
 * once for the records it pops (3 accesses each), not once a record. */
static uint8_t watermark_of(const hwprof_config_t *hc) {
  return (uint8_t)(hc->trace_fifo_depth >= 4u ? hc->trace_fifo_depth / 2u : 1u);
}

static uint32_t ctrl_expected(uint8_t watermark) {
  return 1u << HWPROF_TRACE_CTRL_CTRL_ENABLE_LSB | 1u << HWPROF_TRACE_CTRL_CTRL_FIFO_MODE_LSB |
         (uint32_t)watermark << HWPROF_TRACE_CTRL_CTRL_WATERMARK_LSB;
}

int trace_drain_init(trace_drain_t *d, const char *path, const hwprof_bus_t *bus, void *bus_ctx, uint32_t entry_pc,
                     char *err, size_t errlen) {
  memset(d, 0, sizeof *d);
  d->path = path;
  d->h = (hwprof_t){HWPROF_PLAT_REG_BASE, bus, bus_ctx}; /* the base is the platform's; the bus carries the accesses */
  hwprof_config_t hc;
  const hwprof_trace_rec_t start = {entry_pc, 1}; /* the first trace starts at the entry point */
  if (hwprof_read_config(&d->h, &hc) != kHwprofOk) {
    snprintf(err, errlen, "the hwprof registers do not answer: no build parameters");
    return -1;
  }
  d->watermark = watermark_of(&hc);
  const hwprof_trace_config_t cfg = {kHwprofTraceFifo, d->watermark, 0, 0, 0};
  if (hwprof_trace_configure(&d->h, &cfg) != kHwprofOk || hwprof_trace_restore(&d->h, &start) != kHwprofOk ||
      hwprof_trace_enable(&d->h, true) != kHwprofOk) {
    snprintf(err, errlen, "the trace controller refused the drain's configuration");
    return -1;
  }
  const uint32_t ctrl = hwprof_mmio_read32(&d->h, HWPROF_TRACE_CTRL_CTRL_ADDR);
  if (ctrl != ctrl_expected(d->watermark)) {
    snprintf(err, errlen, "the trace controller's CTRL reads 0x%08" PRIx32 " after the drain's setup, not 0x%08" PRIx32,
             ctrl, ctrl_expected(d->watermark));
    return -1;
  }
  return hwprof_trf_create(&d->w, path, hc.hist_w, entry_pc, err, errlen);
}

void trace_drain_event(trace_drain_t *d, const hwprof_retire_ev_t *ev) {
  if (!ev->valid || (ev->trap != HWPROF_TRAP_NONE && ev->trap != HWPROF_TRAP_ENTRY)) return;
  d->insns++;
  d->last_pc = ev->pc;
}

static void drain(trace_drain_t *d) {
  hwprof_trace_rec_t recs[DRAIN_BATCH];
  size_t n;
  do {
    if (hwprof_trace_pop(&d->h, recs, DRAIN_BATCH, &n) != kHwprofOk) n = 0;
    for (size_t i = 0; i < n; i++) d->write_failed |= hwprof_trf_put(&d->w, recs[i].start, recs[i].hist) != 0;
  } while (n == DRAIN_BATCH);
  /* the cause is a level in FIFO mode: the acknowledge sticks now that the FIFO is empty */
  hwprof_mmio_write32(&d->h, HWPROF_TOP_IRQ_PENDING_ADDR, 1u << HWPROF_TOP_IRQ_PENDING_TRACE_LSB);
  d->drains++;
}

void trace_drain_poll(trace_drain_t *d, bool irq_trace) {
  if (irq_trace) drain(d);
}

int trace_drain_finish(trace_drain_t *d, char *err, size_t errlen) {
  const uint32_t ctrl = hwprof_mmio_read32(&d->h, HWPROF_TRACE_CTRL_CTRL_ADDR);
  drain(d);
  const uint32_t status = hwprof_mmio_read32(&d->h, HWPROF_TRACE_CTRL_STATUS_ADDR);
  const uint32_t dropped = hwprof_mmio_read32(&d->h, HWPROF_TRACE_CTRL_STAT_DROPPED_ADDR);
  hwprof_trace_rec_t cur = {0, 0};
  if (hwprof_trace_save(&d->h, &cur) != kHwprofOk) cur.hist = 0;
  /* nothing of the current trace ran if a trap ended the last one (its start waits for the program)
     or if the last instruction ended a trace (the current one is its successor, the marker alone:
     the reader tells this case from the instruction count) */
  const bool pending = (status >> HWPROF_TRACE_CTRL_STATUS_START_PENDING_LSB) & HWPROF_TRACE_CTRL_STATUS_START_PENDING_MASK;
  const bool tail = !pending && cur.hist != 0;
  const int wrc = hwprof_trf_finish(&d->w, tail, cur.start, cur.hist, d->insns, dropped, d->last_pc);
  if (wrc != 0 || d->write_failed) {
    snprintf(err, errlen, "%s: write error", d->path);
    return -1;
  }
  if (ctrl != ctrl_expected(d->watermark)) {
    snprintf(err, errlen, "%s: the program reconfigured the trace controller (CTRL 0x%08" PRIx32 "): the stream is not the "
             "drain's", d->path, ctrl);
    return -1;
  }
  if (dropped != 0) {
    snprintf(err, errlen, "%s: the controller dropped %" PRIu32 " records: the stream is incomplete", d->path, dropped);
    return -1;
  }
  return 0;
}
