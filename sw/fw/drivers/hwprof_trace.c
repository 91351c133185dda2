/* Driver and interrupt handler of the trace controller; see include/hwprof_trace.h. */
#include "hwprof_trace.h"

#include "autogen/hwprof_regs.h"

#define BIT(lsb) (UINT32_C(1) << (lsb))

static uint32_t rd(const hwprof_t *h, uint16_t off) { return hwprof_mmio_read32(h, off); }
static void wr(const hwprof_t *h, uint16_t off, uint32_t v) { hwprof_mmio_write32(h, off, v); }

hwprof_result_t hwprof_trace_configure(const hwprof_t *h, const hwprof_trace_config_t *cfg) {
  if (h == NULL || cfg == NULL || cfg->range_lo > cfg->range_hi) return kHwprofBadArg;
  if (cfg->mode != kHwprofTraceEveryTrace && cfg->mode != kHwprofTraceFifo) return kHwprofBadArg;
  if (cfg->mode == kHwprofTraceFifo && cfg->watermark == 0) return kHwprofBadArg;
  if (cfg->mode == kHwprofTraceFifo) {
    /* a watermark above the FIFO's depth would never interrupt: every record would be dropped */
    uint32_t hw = rd(h, HWPROF_TOP_CFG_TRACE_ADDR);
    if (cfg->watermark > HWPROF_FIELD(CFG_TRACE, FIFO_DEPTH, hw)) return kHwprofBadArg;
  }
  uint32_t ctrl = rd(h, HWPROF_TRACE_CTRL_CTRL_ADDR) & BIT(HWPROF_TRACE_CTRL_CTRL_ENABLE_LSB);
  if (cfg->mode == kHwprofTraceFifo) ctrl |= BIT(HWPROF_TRACE_CTRL_CTRL_FIFO_MODE_LSB);
  if (cfg->sample_period) ctrl |= BIT(HWPROF_TRACE_CTRL_CTRL_SAMPLE_EN_LSB);
  if (cfg->range_lo != cfg->range_hi) ctrl |= BIT(HWPROF_TRACE_CTRL_CTRL_FILTER_EN_LSB);
  ctrl |= (uint32_t)cfg->watermark << HWPROF_TRACE_CTRL_CTRL_WATERMARK_LSB;
  wr(h, HWPROF_TRACE_CTRL_RANGE_LO_ADDR, cfg->range_lo);
  wr(h, HWPROF_TRACE_CTRL_RANGE_HI_ADDR, cfg->range_hi);
  wr(h, HWPROF_TRACE_CTRL_SAMPLE_RELOAD_ADDR, cfg->sample_period);
  wr(h, HWPROF_TRACE_CTRL_SAMPLE_COUNT_ADDR, cfg->sample_period);
  wr(h, HWPROF_TRACE_CTRL_FIFO_CTRL_ADDR, BIT(HWPROF_TRACE_CTRL_FIFO_CTRL_CLEAR_LSB));
  wr(h, HWPROF_TRACE_CTRL_CTRL_ADDR, ctrl);
  uint32_t en = rd(h, HWPROF_TOP_IRQ_ENABLE_ADDR);
  wr(h, HWPROF_TOP_IRQ_ENABLE_ADDR, en | BIT(HWPROF_TOP_IRQ_ENABLE_TRACE_LSB));
  return kHwprofOk;
}

hwprof_result_t hwprof_trace_enable(const hwprof_t *h, bool on) {
  if (h == NULL) return kHwprofBadArg;
  uint32_t ctrl = rd(h, HWPROF_TRACE_CTRL_CTRL_ADDR) & ~BIT(HWPROF_TRACE_CTRL_CTRL_ENABLE_LSB);
  wr(h, HWPROF_TRACE_CTRL_CTRL_ADDR, ctrl | (on ? BIT(HWPROF_TRACE_CTRL_CTRL_ENABLE_LSB) : 0u));
  return kHwprofOk;
}

hwprof_result_t hwprof_trace_save(const hwprof_t *h, hwprof_trace_rec_t *cur) {
  if (h == NULL || cur == NULL) return kHwprofBadArg;
  cur->start = rd(h, HWPROF_TRACE_CTRL_CUR_START_ADDR);
  cur->hist = rd(h, HWPROF_TRACE_CTRL_CUR_HIST_ADDR);
  return kHwprofOk;
}

hwprof_result_t hwprof_trace_restore(const hwprof_t *h, const hwprof_trace_rec_t *cur) {
  if (h == NULL || cur == NULL || cur->hist == 0) return kHwprofBadArg; /* a history needs its marker */
  uint32_t ctrl = rd(h, HWPROF_TRACE_CTRL_CTRL_ADDR);
  wr(h, HWPROF_TRACE_CTRL_CTRL_ADDR, ctrl & ~BIT(HWPROF_TRACE_CTRL_CTRL_ENABLE_LSB));
  wr(h, HWPROF_TRACE_CTRL_CUR_START_ADDR, cur->start);
  wr(h, HWPROF_TRACE_CTRL_CUR_HIST_ADDR, cur->hist);
  wr(h, HWPROF_TRACE_CTRL_LAST_START_ADDR, 0); /* the last trace belonged to another process */
  wr(h, HWPROF_TRACE_CTRL_LAST_HIST_ADDR, 0);
  wr(h, HWPROF_TRACE_CTRL_CTRL_ADDR, ctrl);
  return kHwprofOk;
}

hwprof_result_t hwprof_trace_read_last(const hwprof_t *h, hwprof_trace_rec_t *rec) {
  if (h == NULL || rec == NULL) return kHwprofBadArg;
  rec->start = rd(h, HWPROF_TRACE_CTRL_LAST_START_ADDR);
  rec->hist = rd(h, HWPROF_TRACE_CTRL_LAST_HIST_ADDR);
  return kHwprofOk;
}

hwprof_result_t hwprof_trace_pop(const hwprof_t *h, hwprof_trace_rec_t *recs, size_t cap, size_t *n) {
  if (h == NULL || n == NULL || (recs == NULL && cap != 0)) return kHwprofBadArg;
  size_t held = rd(h, HWPROF_TRACE_CTRL_STATUS_ADDR) & HWPROF_TRACE_CTRL_STATUS_FIFO_COUNT_MASK;
  size_t k = held < cap ? held : cap;
  for (size_t i = 0; i < k; i++) {
    recs[i].start = rd(h, HWPROF_TRACE_CTRL_FIFO_START_ADDR);
    recs[i].hist = rd(h, HWPROF_TRACE_CTRL_FIFO_HIST_ADDR);
    wr(h, HWPROF_TRACE_CTRL_FIFO_CTRL_ADDR, BIT(HWPROF_TRACE_CTRL_FIFO_CTRL_POP_LSB));
  }
  *n = k;
  return kHwprofOk;
}

hwprof_result_t hwprof_trace_table_init(hwprof_trace_table_t *t, hwprof_trace_entry_t *slots, size_t cap,
                                        uint32_t threshold, hwprof_trace_hot_fn on_hot, void *hot_ctx) {
  if (t == NULL || slots == NULL || cap == 0 || (cap & (cap - 1)) != 0 || threshold == 0) return kHwprofBadArg;
  *t = (hwprof_trace_table_t){.slots = slots, .cap = cap, .threshold = threshold, .on_hot = on_hot,
                              .hot_ctx = hot_ctx, .min_period = 1};
  for (size_t i = 0; i < cap; i++) slots[i] = (hwprof_trace_entry_t){{0, 0}, 0, false};
  return kHwprofOk;
}

static size_t hash(const hwprof_trace_rec_t *r, size_t cap) {
  uint32_t x = r->start * UINT32_C(0x9e3779b1) ^ (r->hist + UINT32_C(0x7f4a7c15)) * UINT32_C(0x85ebca6b);
  x ^= x >> 15;
  return (size_t)x & (cap - 1u);
}

/* count == 0 marks a free slot: every stored entry has been counted at least once */
static hwprof_trace_entry_t *slot_of(const hwprof_trace_table_t *t, const hwprof_trace_rec_t *rec) {
  size_t i = hash(rec, t->cap);
  for (size_t probe = 0; probe < t->cap; probe++, i = (i + 1u) & (t->cap - 1u)) {
    hwprof_trace_entry_t *e = &t->slots[i];
    if (e->count == 0 || (e->rec.start == rec->start && e->rec.hist == rec->hist)) return e;
  }
  return NULL;
}

const hwprof_trace_entry_t *hwprof_trace_table_find(const hwprof_trace_table_t *t, const hwprof_trace_rec_t *rec) {
  if (t == NULL || rec == NULL) return NULL;
  const hwprof_trace_entry_t *e = slot_of(t, rec);
  return (e && e->count) ? e : NULL;
}

hwprof_trace_entry_t *hwprof_trace_table_add(hwprof_trace_table_t *t, const hwprof_trace_rec_t *rec) {
  if (t == NULL || rec == NULL) return NULL;
  t->records++;
  hwprof_trace_entry_t *e = slot_of(t, rec);
  if (e == NULL) {
    t->lost++;
    return NULL;
  }
  if (e->count == 0) {
    e->rec = *rec; /* step 836: a new entry */
    t->used++;
  }
  if (e->count != UINT32_MAX) e->count++; /* step 834 */
  if (!e->hot && e->count >= t->threshold) { /* steps 840-850 */
    e->hot = true;
    t->hot_traces++;
    if (t->on_hot) {
      const hwprof_trace_rec_t key = e->rec; /* the callback may release the entry (step 858) */
      t->on_hot(t->hot_ctx, &key, e->count);
      e = slot_of(t, &key);
      return (e && e->count) ? e : NULL;
    }
  }
  return e;
}

/* A record counted as hwprof_trace_table_add counts it, in the handler's common case in a few
 * instructions: the trace is in its home slot and stays below the threshold (or is hot already).
 * Anything else (a new trace, one that turns hot, a probe past the home slot, a full table) goes
 * through hwprof_trace_table_add. */
static inline void count_record(hwprof_trace_table_t *t, const hwprof_trace_rec_t *rec) {
  hwprof_trace_entry_t *e = &t->slots[hash(rec, t->cap)];
  if (e->count != 0 && e->rec.start == rec->start && e->rec.hist == rec->hist && e->count != UINT32_MAX &&
      (e->hot || e->count + 1u < t->threshold)) {
    t->records++;
    e->count++;
  } else {
    (void)hwprof_trace_table_add(t, rec);
  }
}

/* Step 858: the entry of a processed trace is freed. Linear probing finds a key by walking from its
 * home slot to a free one, so the entries after the hole that would no longer be reached move back
 * into it (deletion by backward shift: no tombstones, lookups stay as short as before). */
bool hwprof_trace_table_release(hwprof_trace_table_t *t, const hwprof_trace_rec_t *rec) {
  if (t == NULL || rec == NULL) return false;
  hwprof_trace_entry_t *e = slot_of(t, rec);
  if (e == NULL || e->count == 0) return false;
  const size_t mask = t->cap - 1u;
  size_t hole = (size_t)(e - t->slots);
  size_t j = (hole + 1u) & mask;
  for (size_t step = 1; step < t->cap && t->slots[j].count != 0; step++, j = (j + 1u) & mask) {
    const size_t home = hash(&t->slots[j].rec, t->cap);
    /* the entry at j may fill the hole if its home is not in the cyclic range (hole, j] */
    if (((j - home) & mask) >= ((j - hole) & mask)) {
      t->slots[hole] = t->slots[j];
      hole = j;
    }
  }
  t->slots[hole] = (hwprof_trace_entry_t){{0, 0}, 0, false};
  t->used--;
  return true;
}

/* Paragraph 75: once a trace is hot, sample more often (halve the period, not below min_period). */
static void lengthen_period(const hwprof_t *h, hwprof_trace_table_t *t) {
  const uint32_t period = t->lfsr ? t->period : rd(h, HWPROF_TRACE_CTRL_SAMPLE_RELOAD_ADDR);
  uint32_t longer = period + period / 8u + 1u;
  if (longer > t->max_period) longer = t->max_period;
  if (longer <= period) return;
  if (t->lfsr) t->period = (uint16_t)longer;
  else wr(h, HWPROF_TRACE_CTRL_SAMPLE_RELOAD_ADDR, longer);
}

static void shorten_period(const hwprof_t *h, hwprof_trace_table_t *t) {
  uint32_t period = t->lfsr ? t->period : rd(h, HWPROF_TRACE_CTRL_SAMPLE_RELOAD_ADDR);
  uint32_t shorter = period / 2u;
  if (shorter < t->min_period) shorter = t->min_period;
  if (shorter >= period) return;
  if (t->lfsr) t->period = (uint16_t)shorter;
  else wr(h, HWPROF_TRACE_CTRL_SAMPLE_RELOAD_ADDR, shorter);
}

hwprof_result_t hwprof_trace_table_jitter(const hwprof_t *h, hwprof_trace_table_t *t, uint32_t seed) {
  if (h == NULL || t == NULL) return kHwprofBadArg;
  const uint32_t period = rd(h, HWPROF_TRACE_CTRL_SAMPLE_RELOAD_ADDR);
  if (seed != 0 && (period == 0 || period > UINT16_MAX)) return kHwprofBadArg;
  t->lfsr = seed;
  t->period = (uint16_t)period;
  return kHwprofOk;
}

/* The next reload, drawn from [period/2 + 1, period/2 + period] (a 32-bit Galois LFSR). */
static void jitter_period(const hwprof_t *h, hwprof_trace_table_t *t) {
  t->lfsr = (t->lfsr >> 1) ^ (-(t->lfsr & 1u) & UINT32_C(0x80200003));
  const uint32_t p = t->period;
  wr(h, HWPROF_TRACE_CTRL_SAMPLE_RELOAD_ADDR, p / 2u + 1u + t->lfsr % p);
}

hwprof_result_t hwprof_trace_irq_handler(const hwprof_t *h, hwprof_trace_table_t *t) {
  if (h == NULL || t == NULL || t->slots == NULL) return kHwprofBadArg;
  uint32_t hot_before = t->hot_traces;
  /* the handler is not traced: the hardware ignores a trap handler's instructions (docs/trace_ctrl.md,
     "Traps"), so the trace the interrupt cut resumes when the program does */
  const uint32_t ctrl = rd(h, HWPROF_TRACE_CTRL_CTRL_ADDR);
  if (ctrl & BIT(HWPROF_TRACE_CTRL_CTRL_FIFO_MODE_LSB)) {
    /* the records present now, no more: the loop is bounded by the FIFO's depth */
    for (size_t held = rd(h, HWPROF_TRACE_CTRL_STATUS_ADDR) & HWPROF_TRACE_CTRL_STATUS_FIFO_COUNT_MASK; held > 0;
         held--) {
      hwprof_trace_rec_t rec;
      rec.start = rd(h, HWPROF_TRACE_CTRL_FIFO_START_ADDR);
      rec.hist = rd(h, HWPROF_TRACE_CTRL_FIFO_HIST_ADDR);
      wr(h, HWPROF_TRACE_CTRL_FIFO_CTRL_ADDR, BIT(HWPROF_TRACE_CTRL_FIFO_CTRL_POP_LSB));
      count_record(t, &rec);
    }
  } else {
    hwprof_trace_rec_t rec;
    hwprof_result_t r = hwprof_trace_read_last(h, &rec);
    if (r != kHwprofOk) return r;
    (void)hwprof_trace_table_add(t, &rec);
  }
  if (t->hot_traces != hot_before) {
    shorten_period(h, t);
    t->quiet = 0;
  } else if (t->max_period && ++t->quiet == 16u) {
    lengthen_period(h, t);
    t->quiet = 0;
  }
  if (t->lfsr) jitter_period(h, t);
  t->interrupts++;
  wr(h, HWPROF_TOP_IRQ_PENDING_ADDR, BIT(HWPROF_TOP_IRQ_PENDING_TRACE_LSB));
  return kHwprofOk;
}
