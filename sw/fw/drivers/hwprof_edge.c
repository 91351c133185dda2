/* Driver of the edge-profiling unit and the pir; see include/hwprof_edge.h. Register offsets and
 * fields come only from the generated hwprof_regs.h. */
#include "hwprof_edge.h"

#include "autogen/hwprof_regs.h"

#define ADDR_LIMIT (UINT64_C(1) << HWPROF_PIR_BASE_W)
#define BIT(lsb) (UINT32_C(1) << (lsb))

static uint32_t rd(const hwprof_t *h, uint16_t off) { return hwprof_mmio_read32(h, off); }
static void wr(const hwprof_t *h, uint16_t off, uint32_t v) { hwprof_mmio_write32(h, off, v); }

hwprof_result_t hwprof_edge_init(const hwprof_t *h) {
  if (h == NULL) return kHwprofBadArg;
  if (rd(h, HWPROF_TOP_ID_ADDR) != HWPROF_TOP_ID_RESVAL) return kHwprofNoDevice;
  wr(h, HWPROF_PIR_CTRL_ADDR, 0);
  wr(h, HWPROF_TOP_IRQ_ENABLE_ADDR, 0);
  wr(h, HWPROF_TOP_IRQ_PENDING_ADDR, HWPROF_TOP_IRQ_PENDING_WMASK);
  wr(h, HWPROF_EDGE_PROF_OAB_CTRL_ADDR, BIT(HWPROF_EDGE_PROF_OAB_CTRL_CLEAR_LSB));
  return kHwprofOk;
}

hwprof_result_t hwprof_edge_set_bounds(const hwprof_t *h, hwprof_edge_bounds_t b) {
  if (h == NULL || b.lo >= b.hi || b.hi > ADDR_LIMIT) return kHwprofBadArg;
  /* hi may be 2^40 (the whole space); the register holds 40 bits, so cap it at the last byte */
  uint64_t hi = b.hi == ADDR_LIMIT ? ADDR_LIMIT - 1u : b.hi;
  wr(h, HWPROF_EDGE_PROF_BOUND_LO_LO_ADDR, (uint32_t)b.lo);
  wr(h, HWPROF_EDGE_PROF_BOUND_LO_HI_ADDR, (uint32_t)(b.lo >> 32));
  wr(h, HWPROF_EDGE_PROF_BOUND_HI_LO_ADDR, (uint32_t)hi);
  wr(h, HWPROF_EDGE_PROF_BOUND_HI_HI_ADDR, (uint32_t)(hi >> 32));
  return kHwprofOk;
}

hwprof_result_t hwprof_edge_arm_trigger(const hwprof_t *h, uint16_t count) {
  if (h == NULL || count == 0 || count > HWPROF_PIR_TRIGGER_VALUE_MASK) return kHwprofBadArg;
  wr(h, HWPROF_PIR_TRIGGER_ADDR, count);
  uint32_t en = rd(h, HWPROF_TOP_IRQ_ENABLE_ADDR);
  wr(h, HWPROF_TOP_IRQ_ENABLE_ADDR,
     en | BIT(HWPROF_TOP_IRQ_ENABLE_PHASE_LSB) | BIT(HWPROF_TOP_IRQ_ENABLE_ERROR_LSB));
  return kHwprofOk;
}

static hwprof_result_t set_flag(const hwprof_t *h, bool on) {
  if (h == NULL) return kHwprofBadArg;
  wr(h, HWPROF_PIR_CTRL_ADDR, on ? BIT(HWPROF_PIR_CTRL_FLAG_LSB) : 0u);
  return kHwprofOk;
}

hwprof_result_t hwprof_edge_start(const hwprof_t *h) { return set_flag(h, true); }
hwprof_result_t hwprof_edge_stop(const hwprof_t *h) { return set_flag(h, false); }

static hwprof_result_t command(const hwprof_t *h, uint32_t cmd, uint32_t max_polls) {
  if (h == NULL || max_polls == 0) return kHwprofBadArg;
  if (rd(h, HWPROF_EDGE_PROF_STATUS_ADDR) & BIT(HWPROF_EDGE_PROF_STATUS_BUSY_LSB)) return kHwprofBusy;
  wr(h, HWPROF_EDGE_PROF_CMD_ADDR, cmd);
  for (uint32_t i = 0; i < max_polls; i++) {
    if (!(rd(h, HWPROF_EDGE_PROF_STATUS_ADDR) & BIT(HWPROF_EDGE_PROF_STATUS_BUSY_LSB))) return kHwprofOk;
  }
  return kHwprofTimeout;
}

hwprof_result_t hwprof_edge_flush(const hwprof_t *h, bool invalidate, uint32_t max_polls) {
  uint32_t cmd = BIT(HWPROF_EDGE_PROF_CMD_FLUSH_LSB);
  if (invalidate) cmd |= BIT(HWPROF_EDGE_PROF_CMD_INVALIDATE_LSB);
  return command(h, cmd, max_polls);
}

hwprof_result_t hwprof_edge_invalidate(const hwprof_t *h, uint32_t max_polls) {
  return command(h, BIT(HWPROF_EDGE_PROF_CMD_INVALIDATE_LSB), max_polls);
}

hwprof_result_t hwprof_edge_read_oab(const hwprof_t *h, hwprof_edge_oab_entry_t *entries, size_t cap,
                                     size_t *count, bool *overrun) {
  if (h == NULL || count == NULL || overrun == NULL || (entries == NULL && cap != 0)) return kHwprofBadArg;
  uint32_t st = rd(h, HWPROF_EDGE_PROF_OAB_STATUS_ADDR);
  size_t held = (st >> HWPROF_EDGE_PROF_OAB_STATUS_COUNT_LSB) & HWPROF_EDGE_PROF_OAB_STATUS_COUNT_MASK;
  *overrun = (st >> HWPROF_EDGE_PROF_OAB_STATUS_OVERRUN_LSB) & 1u;
  size_t n = held < cap ? held : cap;
  for (size_t i = 0; i < n; i++) {
    wr(h, HWPROF_EDGE_PROF_OAB_INDEX_ADDR, (uint32_t)i);
    uint32_t lo = rd(h, HWPROF_EDGE_PROF_OAB_ENTRY_LO_ADDR);
    uint32_t hi = rd(h, HWPROF_EDGE_PROF_OAB_ENTRY_HI_ADDR);
    entries[i].addr = ((uint64_t)((hi >> HWPROF_EDGE_PROF_OAB_ENTRY_HI_ADDR_LSB) &
                                  HWPROF_EDGE_PROF_OAB_ENTRY_HI_ADDR_MASK) << 32) | lo;
    entries[i].underflow = (hi >> HWPROF_EDGE_PROF_OAB_ENTRY_HI_UNDERFLOW_LSB) & 1u;
  }
  *count = n;
  wr(h, HWPROF_EDGE_PROF_OAB_CTRL_ADDR, BIT(HWPROF_EDGE_PROF_OAB_CTRL_CLEAR_LSB));
  return kHwprofOk;
}

hwprof_result_t hwprof_edge_read_stats(const hwprof_t *h, hwprof_edge_stats_t *out) {
  if (h == NULL || out == NULL) return kHwprofBadArg;
  out->updates = rd(h, HWPROF_EDGE_PROF_STAT_UPDATES_ADDR);
  out->hits = rd(h, HWPROF_EDGE_PROF_STAT_HITS_ADDR);
  out->misses = rd(h, HWPROF_EDGE_PROF_STAT_MISSES_ADDR);
  out->writebacks = rd(h, HWPROF_EDGE_PROF_STAT_WRITEBACKS_ADDR);
  out->stalls = rd(h, HWPROF_EDGE_PROF_STAT_STALLS_ADDR);
  out->dropped = rd(h, HWPROF_EDGE_PROF_STAT_DROPPED_ADDR);
  out->overflows = rd(h, HWPROF_EDGE_PROF_STAT_OVERFLOWS_ADDR);
  out->underflows = rd(h, HWPROF_EDGE_PROF_STAT_UNDERFLOWS_ADDR);
  return kHwprofOk;
}

/* A stack's spill area: its base registers and its size in 64-byte blocks (LIMIT, bits 15:0 of both
 * stacks' registers), no entries in it yet. */
static hwprof_result_t set_spill(const hwprof_t *h, uint16_t lo, uint16_t hi, uint16_t reg, uint64_t base,
                                 uint32_t bytes) {
  if (h == NULL || (base & 63u) || (bytes & 63u) || bytes / 64u > HWPROF_PIR_PATH_SPILL_LIMIT_MASK ||
      base + bytes > ADDR_LIMIT)
    return kHwprofBadArg;
  wr(h, lo, (uint32_t)base);
  wr(h, hi, (uint32_t)(base >> 32));
  wr(h, reg, bytes / 64u);
  return kHwprofOk;
}
_Static_assert(HWPROF_PIR_PATH_SPILL_LIMIT_LSB == 0 && HWPROF_PIR_LINK_SPILL_LIMIT_LSB == 0 &&
                   HWPROF_PIR_PATH_SPILL_LIMIT_MASK == HWPROF_PIR_LINK_SPILL_LIMIT_MASK,
               "set_spill: both stacks' LIMIT fields are bits 15:0");

hwprof_result_t hwprof_pir_path_spill(const hwprof_t *h, uint64_t base, uint32_t bytes) {
  return set_spill(h, HWPROF_PIR_PATH_SPILL_LO_ADDR, HWPROF_PIR_PATH_SPILL_HI_ADDR, HWPROF_PIR_PATH_SPILL_ADDR, base,
                   bytes);
}

hwprof_result_t hwprof_pir_link_spill(const hwprof_t *h, uint64_t base, uint32_t bytes) {
  return set_spill(h, HWPROF_PIR_LINK_SPILL_LO_ADDR, HWPROF_PIR_LINK_SPILL_HI_ADDR, HWPROF_PIR_LINK_SPILL_ADDR, base,
                   bytes);
}

hwprof_result_t hwprof_pir_save(const hwprof_t *h, hwprof_pir_ctx_t *ctx) {
  if (h == NULL || ctx == NULL) return kHwprofBadArg;
  ctx->base = ((uint64_t)rd(h, HWPROF_PIR_BASE_HI_ADDR) << 32) | rd(h, HWPROF_PIR_BASE_LO_ADDR);
  ctx->offset = rd(h, HWPROF_PIR_OFFSET_ADDR);
  ctx->trigger = (uint16_t)rd(h, HWPROF_PIR_TRIGGER_ADDR);
  ctx->flag = (rd(h, HWPROF_PIR_CTRL_ADDR) >> HWPROF_PIR_CTRL_FLAG_LSB) & 1u;
  ctx->link = rd(h, HWPROF_PIR_LINK_ADDR);
  ctx->path_sum = rd(h, HWPROF_PIR_PATH_SUM_ADDR);
  ctx->path_stack = rd(h, HWPROF_PIR_PATH_STACK_ADDR);
  ctx->path_spill_base = ((uint64_t)rd(h, HWPROF_PIR_PATH_SPILL_HI_ADDR) << 32) | rd(h, HWPROF_PIR_PATH_SPILL_LO_ADDR);
  ctx->path_spill = rd(h, HWPROF_PIR_PATH_SPILL_ADDR);
  ctx->link_spill_base = ((uint64_t)rd(h, HWPROF_PIR_LINK_SPILL_HI_ADDR) << 32) | rd(h, HWPROF_PIR_LINK_SPILL_LO_ADDR);
  ctx->link_spill = rd(h, HWPROF_PIR_LINK_SPILL_ADDR);
  for (uint32_t i = 0; i < HWPROF_PIR_LINK_ENTRIES; i++) {
    wr(h, HWPROF_PIR_LINK_ENTRY_SEL_ADDR, i);
    hwprof_pir_link_entry_t *e = &ctx->link_entry[i];
    e->base = ((uint64_t)rd(h, HWPROF_PIR_LINK_ENTRY_BASE_HI_ADDR) << 32) | rd(h, HWPROF_PIR_LINK_ENTRY_BASE_LO_ADDR);
    e->offset = rd(h, HWPROF_PIR_LINK_ENTRY_OFFSET_ADDR);
    e->sum = rd(h, HWPROF_PIR_LINK_ENTRY_SUM_ADDR);
  }
  for (uint32_t i = 0; i < HWPROF_PATH_STACK_ENTRIES; i++) {
    wr(h, HWPROF_PIR_PATH_ENTRY_SEL_ADDR, i);
    ctx->path_entry[i] = (uint16_t)rd(h, HWPROF_PIR_PATH_ENTRY_ADDR);
  }
  return kHwprofOk;
}

hwprof_result_t hwprof_pir_link_check(const hwprof_t *h) {
  if (h == NULL) return kHwprofBadArg;
  return (rd(h, HWPROF_PIR_LINK_ADDR) >> HWPROF_PIR_LINK_ERR_LSB) & 1u ? kHwprofLinkLost : kHwprofOk;
}

hwprof_result_t hwprof_pir_path_check(const hwprof_t *h) {
  if (h == NULL) return kHwprofBadArg;
  return (rd(h, HWPROF_PIR_PATH_STACK_ADDR) >> HWPROF_PIR_PATH_STACK_ERR_LSB) & 1u ? kHwprofPathLost : kHwprofOk;
}

hwprof_result_t hwprof_pir_restore(const hwprof_t *h, const hwprof_pir_ctx_t *ctx) {
  if (h == NULL || ctx == NULL || ctx->base >= ADDR_LIMIT || ctx->offset > HWPROF_PIR_OFFSET_VALUE_MASK ||
      ctx->trigger > HWPROF_PIR_TRIGGER_VALUE_MASK || (ctx->link & ~HWPROF_PIR_LINK_WMASK) ||
      (ctx->path_sum & ~HWPROF_PIR_PATH_SUM_WMASK) || (ctx->path_stack & ~HWPROF_PIR_PATH_STACK_WMASK) ||
      ctx->path_spill_base >= ADDR_LIMIT || (ctx->path_spill & ~HWPROF_PIR_PATH_SPILL_WMASK) ||
      ctx->link_spill_base >= ADDR_LIMIT || (ctx->link_spill & ~HWPROF_PIR_LINK_SPILL_WMASK))
    return kHwprofBadArg;
  for (uint32_t i = 0; i < HWPROF_PIR_LINK_ENTRIES; i++) {
    const hwprof_pir_link_entry_t *e = &ctx->link_entry[i];
    if (e->base >= ADDR_LIMIT || e->offset > HWPROF_PIR_OFFSET_VALUE_MASK || (e->sum & ~HWPROF_PIR_LINK_ENTRY_SUM_WMASK))
      return kHwprofBadArg;
  }
  for (uint32_t i = 0; i < HWPROF_PATH_STACK_ENTRIES; i++)
    if (ctx->path_entry[i] & ~HWPROF_PIR_PATH_ENTRY_WMASK) return kHwprofBadArg;
  wr(h, HWPROF_PIR_CTRL_ADDR, 0); /* no update with a half-restored pir */
  for (uint32_t i = 0; i < HWPROF_PIR_LINK_ENTRIES; i++) {
    const hwprof_pir_link_entry_t *e = &ctx->link_entry[i];
    wr(h, HWPROF_PIR_LINK_ENTRY_SEL_ADDR, i);
    wr(h, HWPROF_PIR_LINK_ENTRY_BASE_LO_ADDR, (uint32_t)e->base);
    wr(h, HWPROF_PIR_LINK_ENTRY_BASE_HI_ADDR, (uint32_t)(e->base >> 32));
    wr(h, HWPROF_PIR_LINK_ENTRY_OFFSET_ADDR, e->offset);
    wr(h, HWPROF_PIR_LINK_ENTRY_SUM_ADDR, e->sum);
  }
  for (uint32_t i = 0; i < HWPROF_PATH_STACK_ENTRIES; i++) {
    wr(h, HWPROF_PIR_PATH_ENTRY_SEL_ADDR, i);
    wr(h, HWPROF_PIR_PATH_ENTRY_ADDR, ctx->path_entry[i]);
  }
  wr(h, HWPROF_PIR_PATH_SPILL_LO_ADDR, (uint32_t)ctx->path_spill_base);
  wr(h, HWPROF_PIR_PATH_SPILL_HI_ADDR, (uint32_t)(ctx->path_spill_base >> 32));
  wr(h, HWPROF_PIR_PATH_SPILL_ADDR, ctx->path_spill);
  wr(h, HWPROF_PIR_LINK_SPILL_LO_ADDR, (uint32_t)ctx->link_spill_base);
  wr(h, HWPROF_PIR_LINK_SPILL_HI_ADDR, (uint32_t)(ctx->link_spill_base >> 32));
  wr(h, HWPROF_PIR_LINK_SPILL_ADDR, ctx->link_spill);
  wr(h, HWPROF_PIR_BASE_LO_ADDR, (uint32_t)ctx->base);
  wr(h, HWPROF_PIR_BASE_HI_ADDR, (uint32_t)(ctx->base >> 32));
  wr(h, HWPROF_PIR_OFFSET_ADDR, ctx->offset);
  wr(h, HWPROF_PIR_TRIGGER_ADDR, ctx->trigger);
  wr(h, HWPROF_PIR_LINK_ADDR, ctx->link);
  wr(h, HWPROF_PIR_PATH_SUM_ADDR, ctx->path_sum);
  wr(h, HWPROF_PIR_PATH_STACK_ADDR, ctx->path_stack);
  wr(h, HWPROF_PIR_CTRL_ADDR, ctx->flag ? BIT(HWPROF_PIR_CTRL_FLAG_LSB) : 0u);
  return kHwprofOk;
}

hwprof_result_t hwprof_edge_irq_handler(const hwprof_t *h, hwprof_edge_log_t *log) {
  if (h == NULL || log == NULL) return kHwprofBadArg;
  uint32_t pending = rd(h, HWPROF_TOP_IRQ_PENDING_ADDR);
  uint32_t ack = 0;
  if (pending & BIT(HWPROF_TOP_IRQ_PENDING_PHASE_LSB)) {
    hwprof_result_t r = hwprof_edge_read_oab(h, log->entry, HWPROF_EDGE_LOG_ENTRIES, &log->entries, &log->overrun);
    if (r != kHwprofOk) return r;
    log->phase_transitions++;
    ack |= BIT(HWPROF_TOP_IRQ_PENDING_PHASE_LSB);
  }
  if (pending & BIT(HWPROF_TOP_IRQ_PENDING_ERROR_LSB)) {
    log->errors++;
    ack |= BIT(HWPROF_TOP_IRQ_PENDING_ERROR_LSB);
  }
  if (ack) wr(h, HWPROF_TOP_IRQ_PENDING_ADDR, ack);
  return kHwprofOk;
}
