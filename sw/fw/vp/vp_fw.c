/* The load-value profiler's firmware: see vp_fw.h. */
#include "vp_fw.h"

#include <stddef.h>
#include <string.h>

#include "autogen/hwprof_regs.h"

static vp_fw_load_t *entry_of(vp_fw_t *f, uint32_t pc) {
  for (uint32_t k = (pc >> 2) & (VP_FW_MAX_LOADS - 1u), probes = 0; probes < VP_FW_MAX_LOADS;
       probes++, k = (k + 1u) & (VP_FW_MAX_LOADS - 1u)) {
    vp_fw_load_t *e = &f->prof[k];
    if (e->total != 0 && e->pc == pc) return e;
    if (e->total == 0) {
      memset(e, 0, sizeof *e);
      e->pc = pc;
      f->n_loads++;
      return e;
    }
  }
  return NULL;
}

/* bytes (a multiple of 4) of word-aligned memory cleared 8 words a turn (the C library's memset goes
 * a byte at a time on RV32 here) */
static void clear_words(void *p, size_t bytes) {
  uint32_t *w = p;
  const size_t n = bytes / 4u;
  size_t k = 0;
  for (; k + 8u <= n; k += 8) w[k] = w[k + 1] = w[k + 2] = w[k + 3] = w[k + 4] = w[k + 5] = w[k + 6] = w[k + 7] = 0;
  for (; k < n; k++) w[k] = 0;
}

static uint32_t bm_bit(const vp_fw_t *f, uint32_t pc) { return hwprof_cop_pc_hash(f->bm_hash, pc) & (f->bm_bits - 1u); }

bool vp_fw_masked(const vp_fw_t *f, uint32_t pc) {
  const uint32_t b = bm_bit(f, pc);
  return (f->bm[b / 32u] >> (b % 32u)) & 1u;
}

static uint32_t weighted(uint32_t count, uint32_t weight) { return (uint32_t)(((uint64_t)count * weight) >> 8); }

/* one record of the log into the per-load profile; copy: the copy it belongs to (0: none) */
static void merge_rec(vp_fw_t *f, const vp_fw_rec_t *r, uint32_t copy) {
  const bool credit = (r->pc & VP_FW_CREDIT_PC) != 0;
  const uint32_t h = r->counts & 0xffu, m = (r->counts >> 8) & 0xffu, total = weighted(r->counts >> 16, r->weight);
  uint32_t hits = h, misses = m;
  if (credit && h + m) { /* the credit's samples all counted, as hits and misses in the slot's proportion (its
                            bytes saturate, its total does not) */
    hits = (uint32_t)((uint64_t)total * h / (h + m));
    misses = total - hits;
  }
  vp_fw_load_t *e = entry_of(f, r->pc & ~VP_FW_CREDIT_PC);
  if (e == NULL) {
    f->lost_loads++;
    return;
  }
  e->total += total;
  if (!credit && e->last_copy != copy) { /* a load may hold several slots in one copy */
    e->intervals++;
    e->last_copy = copy;
  }
  uint32_t k = 0;
  while (k < e->n && e->v[k].value != r->value) k++;
  if (k == e->n && e->n < VP_FW_MAX_VALUES) e->v[e->n++].value = r->value;
  if (k < e->n) {
    e->v[k].hits += hits;
    e->v[k].misses += misses;
  } else {
    f->lost_values++;
  }
}

/* Merge the log into the per-load profile (post-processing: the copies only append to the log). */
void vp_fw_aggregate(vp_fw_t *f) {
  uint32_t copy = 0;
  for (uint32_t i = 0; i < f->nlog; i++) {
    const vp_fw_rec_t *r = &f->log[i];
    if (r->pc == 0) { /* a copy starts */
      copy = r->value + 1u; /* last_copy 0: none yet */
      continue;
    }
    merge_rec(f, r, copy);
  }
  f->nlog = 0;
}

static void log_rec(vp_fw_t *f, uint32_t pc, uint32_t value, uint32_t counts, uint32_t weight) {
  if (f->nlog == VP_FW_LOG) {
    vp_fw_aggregate(f); /* full: merged now, in the handler */
    f->merges++;
  }
  f->log[f->nlog++] = (vp_fw_rec_t){pc, value, counts, weight};
}

/* The credit of masked bit b for its time masked up to now (extrapolate; seed 001 5.1.4's glacial
 * values): the slot that masked it, its counts weighted by the time masked over the time they took.
 * Its time starts again from now. Returns false when there is nothing to credit. */
static bool credit_of(vp_fw_t *f, uint32_t b, vp_fw_rec_t *r) {
  const uint32_t masked = f->now - f->bit_since[b], span = f->bit_span[b];
  f->bit_since[b] = f->now;
  if (!f->cfg.extrapolate || span == 0 || masked == 0 || f->bit_pc[b] == 0) return false;
  const uint64_t w = ((uint64_t)masked << 8) / span;
  *r = (vp_fw_rec_t){f->bit_pc[b] | VP_FW_CREDIT_PC, f->bit_value[b], f->bit_counts[b],
                     w > VP_FW_WEIGHT_MAX ? VP_FW_WEIGHT_MAX : (uint32_t)w};
  f->credits++;
  return true;
}

/* the bits of word w in bits are unmasked: each is credited (into the log) for its time masked */
static void unmask(vp_fw_t *f, const hwprof_t *h, uint32_t w, uint32_t bits) {
  f->bm[w] &= ~bits;
  hwprof_mmio_write32(h, HWPROF_VPF_BITMASK_ADDR + 4u * w, f->bm[w]);
  f->complete = false;
  for (uint32_t left = bits; left; left &= left - 1u) {
    vp_fw_rec_t r;
    if (credit_of(f, 32u * w + (uint32_t)__builtin_ctz(left), &r)) log_rec(f, r.pc, r.value, r.counts, r.weight);
  }
}

void vp_fw_credit_masked(vp_fw_t *f) {
  vp_fw_aggregate(f);
  for (uint32_t w = 0; w < f->bm_bits / 32u; w++)
    for (uint32_t left = f->bm[w]; left; left &= left - 1u) {
      vp_fw_rec_t r;
      if (credit_of(f, 32u * w + (uint32_t)__builtin_ctz(left), &r)) merge_rec(f, &r, 0);
    }
}

static void set_vol(vp_fw_t *f, uint32_t b, bool on) {
  const uint32_t bit = 1u << (b % 32u), was = f->vol[b / 32u] & bit;
  if (on && !was) f->n_vol++;
  if (!on && was) f->n_vol--;
  f->vol[b / 32u] = on ? f->vol[b / 32u] | bit : f->vol[b / 32u] & ~bit;
}

/* The copy's decision for one slot of a load whose bit-mask filter bit is b (seed 001 5.1.4): mask
 * it when its active value is at or below 10% over enough samples; when it is at or above 90% and
 * the copies before this one that saw the bit showed the same value so too (mask_agree copies in
 * all: a load whose value moves with the program's phase is not masked on one phase's evidence); or
 * when the bit has been seen in mask_after copies. Count re-checks and changes; a re-check that
 * found a change marks the bit for a re-check at every tick (recheck_changed). Returns whether the
 * bit is left unmasked. */
static bool decide(vp_fw_t *f, const hwprof_t *h, uint32_t b, uint32_t pc, uint32_t value, uint32_t counts) {
  const uint32_t hits = counts & 0xffu, misses = (counts >> 8) & 0xffu, seen = hits + misses;
  const bool high = seen >= 16u && 10u * hits >= 9u * seen, low = seen >= 16u && 10u * hits <= seen;
  uint8_t *st = &f->bit_state[b];
  if (f->bit_copy[b] != (uint16_t)f->copies) { /* the bit's first slot in this copy */
    f->bit_copy[b] = (uint16_t)f->copies;
    *st = (uint8_t)((*st & ~(VP_FW_BIT_PRIOR | VP_FW_BIT_CAND)) | ((*st & VP_FW_BIT_CAND) ? VP_FW_BIT_PRIOR : 0u));
    if ((*st & VP_FW_BIT_COPIES) < VP_FW_BIT_COPIES) (*st)++;
    if (*st & VP_FW_BIT_MASKED) { /* masked, then unmasked by the timer: a re-check */
      *st &= (uint8_t)~VP_FW_BIT_MASKED;
      f->rechecks++;
      const bool was_high = (*st & VP_FW_BIT_HIGH) != 0;
      const bool changed = seen >= 16u && (was_high ? !high || value != f->bit_value[b] : high);
      if (changed) {
        f->changes++;
        f->news++;
      }
      if (f->cfg.recheck_changed) set_vol(f, b, changed);
    } else if ((*st & VP_FW_BIT_COPIES) == 1u) {
      f->news++; /* a load (a filter bit) never copied before */
    }
  }
  if ((f->bm[b / 32u] >> (b % 32u)) & 1u) return false; /* masked by another slot of this copy */
  uint32_t agreed = 0; /* copies one after another that showed this value at 90% or more, this one included */
  if (high) {
    agreed = (*st & VP_FW_BIT_PRIOR) && f->bit_value[b] == value ? 2u : 1u;
    *st |= VP_FW_BIT_CAND;
    f->bit_value[b] = value;
  }
  if (!(agreed >= f->cfg.mask_agree || low || (*st & VP_FW_BIT_COPIES) >= f->cfg.mask_after)) return true;
  /* the time this slot's counts took: since the slots were cleared, or since the bit was unmasked */
  const uint32_t since_clear = f->now - f->copy_start, since_unmask = f->now - f->bit_since[b];
  f->bit_span[b] = since_clear < since_unmask ? since_clear : since_unmask;
  f->bit_since[b] = f->now;
  f->bit_pc[b] = pc;
  f->bit_value[b] = value; /* (the value a high one was masked with: the re-checks compare with it) */
  f->bit_counts[b] = counts;
  f->bm[b / 32u] |= 1u << (b % 32u);
  hwprof_mmio_write32(h, HWPROF_VPF_BITMASK_ADDR + 4u * (b / 32u), f->bm[b / 32u]);
  *st = (uint8_t)((*st & ~VP_FW_BIT_HIGH) | VP_FW_BIT_MASKED | (high ? VP_FW_BIT_HIGH : 0u));
  f->masks_set++;
  return false;
}

/* Copy the slots into the log; mask what is characterised (unless final). Only the slots that
 * counted something are read (the totals first), their hit and miss bytes a word of four at a time.
 * The register window is read directly (the driver's array reads check their bounds on every
 * call). */
static int copy_slots(vp_fw_t *f, const hwprof_t *h, bool final) {
  const uint32_t s = f->slots; /* valueprof.s's arrays (words): values at 0, hits at s/4, misses at 5s/4... */
  if (hwprof_cop_read_data(h, 3u * s / 2u, s / 2u, f->totals) != kHwprofOk) return -1; /* ... totals at 3s/2 */
  bool unmasked = false; /* a load of this copy left unmasked */
  if (f->nlog + s + 1u > VP_FW_LOG) { /* room in the log for the whole copy, checked once */
    vp_fw_aggregate(f);
    f->merges++;
  }
  vp_fw_rec_t *rec = &f->log[f->nlog];
  *rec++ = (vp_fw_rec_t){0, f->copies, 0, 0};
  const unsigned hash = f->bm_hash;
  const uint32_t bits = f->bm_bits - 1u;
  for (uint32_t n4 = 0; n4 < s; n4 += 4u) {
    const uint32_t t01 = f->totals[n4 / 2u], t23 = f->totals[n4 / 2u + 1u];
    if ((t01 | t23) == 0) continue;
    const uint32_t hits4 = hwprof_mmio_read32(h, HWPROF_COP_DATA_ADDR + 4u * (s + n4 / 4u));
    const uint32_t misses4 = hwprof_mmio_read32(h, HWPROF_COP_DATA_ADDR + 4u * (5u * s / 4u + n4 / 4u));
    for (uint32_t j = 0; j < 4u; j++) {
      const uint32_t total = ((j < 2u ? t01 : t23) >> (16u * (j % 2u))) & 0xffffu;
      if (total == 0) continue;
      const uint32_t n = n4 + j;
      const uint32_t key = hwprof_mmio_read32(h, HWPROF_COP_CAM_KEY_ADDR + 4u * n);
      const uint32_t value = hwprof_mmio_read32(h, HWPROF_COP_DATA_ADDR + 4u * n);
      const uint32_t counts = ((hits4 >> (8u * j)) & 0xffu) | ((misses4 >> (8u * j)) & 0xffu) << 8 | total << 16;
      *rec++ = (vp_fw_rec_t){key, value, counts, 256u};
      if (!final) unmasked |= decide(f, h, hwprof_cop_pc_hash(hash, key) & bits, key, value, counts);
    }
  }
  f->nlog = (uint32_t)(rec - f->log);
  if (!final) {
    f->complete = !unmasked; /* every load the slots saw is characterised */
    if (f->complete && f->completed_at == 0) f->completed_at = f->copies;
  }
  return 0;
}

static void set_partition(vp_fw_t *f, const hwprof_t *h) {
  const uint32_t mask = (1u << f->part_bits) - 1u;
  const hwprof_cop_filter_t flt = {.prescale = 1, .mask = mask, .match = f->part & mask};
  if (hwprof_cop_set_filter(h, &flt) != kHwprofOk) f->errors++;
}

/* valueprof.s for s slots (a power of two, 4 or more): its arrays of s values (words), hits and
 * misses (bytes) and totals (halfwords) at 0, 4s, 5s and 6s, its slot indexes i0 and i1 log2 s
 * bits wide and its replacement count i3 (the thrashing interrupt after 4s) two bits wider. The
 * image must be the program as written for Table 1's 256 slots. */
static hwprof_result_t place_program(vp_fw_t *f, const hwprof_cop_image_t *image, uint32_t s) {
  if (image->base[1] != 0x400u || image->base[2] != 0x500u || image->base[3] != 0x600u || image->idxw[0] != 8u ||
      image->idxw[1] != 8u || image->idxw[3] != 10u)
    return kHwprofBadArg; /* not valueprof.s's layout */
  uint8_t log2s = 0;
  while ((1u << log2s) < s) log2s++;
  f->slots = s;
  f->image = *image;
  f->image.base[1] = 4u * s;
  f->image.base[2] = 5u * s;
  f->image.base[3] = 6u * s;
  f->image.idxw[0] = f->image.idxw[1] = log2s;
  f->image.idxw[3] = (uint8_t)(log2s + 2u);
  return kHwprofOk;
}

hwprof_result_t vp_fw_start(vp_fw_t *f, const hwprof_t *h, const hwprof_cop_image_t *image, vp_fw_cfg_t cfg) {
  if (f == NULL || h == NULL || image == NULL || cfg.interval_log2 < 1u || cfg.interval_log2 > 16u || cfg.mask_after < 1u ||
      cfg.mask_after > VP_FW_MASK_AFTER_MAX || cfg.mask_agree < 1u || cfg.mask_agree > 2u ||
      cfg.clock_log2 > HWPROF_COP_CLOCK_DIV_LOG2_MASK)
    return kHwprofBadArg;
  clear_words(f, offsetof(vp_fw_t, log)); /* the log needs no clearing */
  for (uint32_t k = 0; k < VP_FW_MAX_LOADS; k += 8) /* an entry with total 0 is free; 8 a turn: one branch per 8 */
    f->prof[k].total = f->prof[k + 1].total = f->prof[k + 2].total = f->prof[k + 3].total = f->prof[k + 4].total =
        f->prof[k + 5].total = f->prof[k + 6].total = f->prof[k + 7].total = 0;
  f->cfg = cfg;
  hwprof_cop_config_t hw;
  hwprof_result_t rc = hwprof_cop_read_config(h, &hw);
  if (rc != kHwprofOk) return rc;
  if (hw.bitmask_bits < 32u || hw.bitmask_bits > 32u * VP_FW_BITMASK_WORDS || hw.cam_entries < 4u ||
      hw.cam_entries > VP_FW_SLOTS_MAX || hw.data_bytes < 8u * hw.cam_entries)
    return kHwprofBadArg;
  if ((rc = place_program(f, image, hw.cam_entries)) != kHwprofOk || (rc = hwprof_cop_load(h, &f->image)) != kHwprofOk) return rc;
  f->bm_bits = hw.bitmask_bits;
  if (cfg.lfsr_seed) hwprof_mmio_write32(h, HWPROF_COP_LFSR_ADDR, cfg.lfsr_seed);
  hwprof_mmio_write32(h, HWPROF_COP_CLOCK_ADDR, cfg.clock_log2 << HWPROF_COP_CLOCK_DIV_LOG2_LSB);
  const uint32_t idxw = hwprof_mmio_read32(h, HWPROF_COP_IDXW_ADDR);
  hwprof_mmio_write32(h, HWPROF_COP_IDXW_ADDR, (idxw & ~(0xfu << 16)) | (uint32_t)(cfg.interval_log2 - 1u) << 16); /* i4 */
  set_partition(f, h);
  f->bm_hash = (hwprof_mmio_read32(h, HWPROF_VPF_CTRL_ADDR) >> HWPROF_VPF_CTRL_HASH_BM_LSB) & HWPROF_VPF_CTRL_HASH_BM_MASK;
  if ((rc = hwprof_cop_clear_mask(h)) != kHwprofOk) return rc;
  hwprof_mmio_write32(h, HWPROF_TOP_IRQ_ENABLE_ADDR,
                      hwprof_mmio_read32(h, HWPROF_TOP_IRQ_ENABLE_ADDR) | 1u << HWPROF_TOP_IRQ_ENABLE_COPROC_LSB);
  return hwprof_cop_start(h, HWPROF_COP_CLEAR_ALL);
}

int vp_fw_on_intr(void *ctx, const hwprof_t *h, uint32_t intr_pc) {
  vp_fw_t *f = ctx;
  (void)intr_pc; /* the index registers tell the cause */
  f->interrupts++;
  const uint32_t records = hwprof_mmio_read32(h, HWPROF_COP_STAT_SAMPLES_ADDR);
  const uint32_t failed = hwprof_mmio_read32(h, HWPROF_COP_I_ADDR + 4u * 2u);
  const uint32_t interval = hwprof_mmio_read32(h, HWPROF_COP_I_ADDR + 4u * 4u);
  uint32_t clears = HWPROF_COP_CLEAR_ALL;
  if (failed == VP_FW_FAILED_MAX || (interval == 0 && f->cfg.interval_copy)) { /* the slots are full, or i4 wrapped */
    f->intervals += interval == 0;
    f->copies++;
    if (copy_slots(f, h, false) != 0) return -1;
    if (f->part_bits) {
      f->part = (f->part + 1u) & ((1u << f->part_bits) - 1u);
      set_partition(f, h);
    }
  } else if (interval == 0) {
    f->intervals++; /* nothing new to copy: the engine goes on with its slots */
    clears = 0;
  } else {
    /* thrashing: the samples have little information (not copied); split the current part 4 ways
     * if it thrashed fast, 2 otherwise */
    f->thrashes++;
    if (f->part_bits < VP_FW_MAX_PART_BITS) {
      f->part_bits += (records - f->records_at_start < 4096u && f->part_bits + 2u <= VP_FW_MAX_PART_BITS) ? 2u : 1u;
      set_partition(f, h);
    }
  }
  if (clears) {
    f->records_at_start = records;
    f->copy_start = f->now;
  }
  return (int)clears;
}

uint32_t vp_fw_on_timer(vp_fw_t *f, const hwprof_t *h) {
  f->timer_ticks++;
  uint32_t periods = 1;
  if (f->cfg.resample == kVpResampleAll) {
    for (uint32_t w = 0; f->cfg.extrapolate && w < f->bm_bits / 32u; w++)
      if (f->bm[w]) unmask(f, h, w, f->bm[w]);
    if (hwprof_cop_clear_mask(h) != kHwprofOk) f->errors++;
    memset(f->bm, 0, sizeof f->bm); /* every mask is gone */
    f->complete = false;
  } else {
    /* back off while the copies since the last tick found nothing new; then re-check one group */
    f->level = f->news ? 0 : (f->level < VP_FW_MAX_LEVEL ? f->level + 1u : f->level);
    f->news = 0;
    periods = 1u << f->level;
    const uint32_t g = f->rot++ % VP_FW_GROUPS;
    for (uint32_t w = g; w < f->bm_bits / 32u; w += VP_FW_GROUPS)
      if (f->bm[w]) unmask(f, h, w, f->bm[w]);
    /* and the loads whose last re-check found a change, whatever their group */
    for (uint32_t w = 0; f->n_vol && w < f->bm_bits / 32u; w++)
      if (f->bm[w] & f->vol[w]) unmask(f, h, w, f->bm[w] & f->vol[w]);
  }
  if (f->part_bits) {
    f->part = (f->part + 1u) & ((1u << f->part_bits) - 1u);
    set_partition(f, h);
  }
  return periods;
}

hwprof_result_t vp_fw_final_copy(vp_fw_t *f, const hwprof_t *h) {
  if (hwprof_cop_stop(h) != kHwprofOk || copy_slots(f, h, true) != 0) {
    f->errors++;
    return kHwprofBusy;
  }
  return kHwprofOk;
}

int vp_fw_write_header(FILE *out) {
  fprintf(out, "# hwprof-vp-profile 2\n# load PC total intervals masked, then its values: value hits misses\n");
  return ferror(out) ? -1 : 0;
}

int vp_fw_write(vp_fw_t *f, FILE *out) { return vp_fw_write_header(out) | vp_fw_write_loads(f, out); }

int vp_fw_write_loads(vp_fw_t *f, FILE *out) {
  vp_fw_aggregate(f);
  for (uint32_t k = 0; k < VP_FW_MAX_LOADS; k++) {
    const vp_fw_load_t *e = &f->prof[k];
    if (e->total == 0) continue;
    fprintf(out, "load 0x%08lx %lu %lu %u\n", (unsigned long)e->pc, (unsigned long)e->total, (unsigned long)e->intervals,
            vp_fw_masked(f, e->pc) ? 1u : 0u);
    for (uint32_t j = 0; j < e->n; j++)
      fprintf(out, "value 0x%08lx %lu %lu\n", (unsigned long)e->v[j].value, (unsigned long)e->v[j].hits,
              (unsigned long)e->v[j].misses);
  }
  return ferror(out) ? -1 : 0;
}
