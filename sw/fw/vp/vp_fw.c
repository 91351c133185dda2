/* The load-value profiler's firmware: see vp_fw.h. */
#include "vp_fw.h"

#include <string.h>

#include "autogen/hwprof_regs.h"

static vp_fw_load_t *entry_of(vp_fw_t *f, uint32_t pc) {
  for (uint32_t k = (pc >> 2) & (VP_FW_MAX_LOADS - 1u), probes = 0; probes < VP_FW_MAX_LOADS;
       probes++, k = (k + 1u) & (VP_FW_MAX_LOADS - 1u)) {
    vp_fw_load_t *e = &f->prof[k];
    if (e->total != 0 && e->pc == pc) return e;
    if (e->total == 0) {
      e->pc = pc;
      f->n_loads++;
      return e;
    }
  }
  return NULL;
}

/* Copy the slots into the profile; mask what is characterised (unless final). Only the slots that
 * counted something are read (the totals first): a copy costs little when few slots were used. The
 * register window is read directly (the driver's array reads check their bounds on every call). */
static int copy_slots(vp_fw_t *f, const hwprof_t *h, bool final) {
  if (hwprof_cop_read_data(h, 384, VP_FW_SLOTS / 2, f->totals) != kHwprofOk) return -1;
  bool unmasked = false; /* a load of this copy left unmasked */
  for (uint32_t n = 0; n < VP_FW_SLOTS; n++) {
    const uint32_t total = (f->totals[n / 2] >> (16u * (n % 2u))) & 0xffffu;
    if (total == 0) continue;
    const uint32_t key = hwprof_mmio_read32(h, HWPROF_COP_CAM_KEY_ADDR + 4u * n);
    const uint32_t value = hwprof_mmio_read32(h, HWPROF_COP_DATA_ADDR + 4u * n);
    const uint32_t hits = (hwprof_mmio_read32(h, HWPROF_COP_DATA_ADDR + 4u * (256u + n / 4u)) >> (8u * (n % 4u))) & 0xffu;
    const uint32_t misses = (hwprof_mmio_read32(h, HWPROF_COP_DATA_ADDR + 4u * (320u + n / 4u)) >> (8u * (n % 4u))) & 0xffu;
    vp_fw_load_t *e = entry_of(f, key);
    if (e == NULL) {
      f->lost_loads++;
      continue;
    }
    e->total += total;
    if (e->last_copy != f->copies + 1u) { /* a load may hold several slots in one interval */
      e->intervals++;
      e->last_copy = f->copies + 1u;
    }
    uint32_t k = 0;
    while (k < e->n && e->v[k].value != value) k++;
    if (k == e->n && e->n < VP_FW_MAX_VALUES) e->v[e->n++].value = value;
    if (k < e->n) {
      e->v[k].hits += hits;
      e->v[k].misses += misses;
    } else {
      f->lost_values++;
    }
    if (final || e->mask_gen == f->gen) continue;
    /* confident at a strong bias over enough samples, or after 4 intervals (seed 001 5.1.4) */
    const uint32_t seen = hits + misses;
    const bool sure = seen >= 16u && (10u * hits >= 9u * seen || 10u * hits <= seen);
    if (sure || e->intervals >= 4u) {
      if (hwprof_cop_mask_pc(h, e->pc, true) != kHwprofOk) return -1;
      e->mask_gen = f->gen;
      f->masked_now++;
      f->masks_set++;
    } else {
      unmasked = true;
    }
  }
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

hwprof_result_t vp_fw_start(vp_fw_t *f, const hwprof_t *h, const hwprof_cop_image_t *image, unsigned interval_log2) {
  if (f == NULL || h == NULL || image == NULL || interval_log2 < 1u || interval_log2 > 16u) return kHwprofBadArg;
  /* a zeroed vp_fw_t (static storage) needs no clearing: the firmware's start stays cheap */
  if (f->n_loads || f->gen) memset(f, 0, sizeof *f);
  f->gen = 1;
  hwprof_result_t rc = hwprof_cop_load(h, image);
  if (rc != kHwprofOk) return rc;
  const uint32_t idxw = hwprof_mmio_read32(h, HWPROF_COP_IDXW_ADDR);
  hwprof_mmio_write32(h, HWPROF_COP_IDXW_ADDR, (idxw & ~(0xfu << 16)) | (uint32_t)(interval_log2 - 1u) << 16); /* i4 */
  set_partition(f, h);
  if ((rc = hwprof_cop_clear_mask(h)) != kHwprofOk) return rc;
  hwprof_mmio_write32(h, HWPROF_TOP_IRQ_ENABLE_ADDR,
                      hwprof_mmio_read32(h, HWPROF_TOP_IRQ_ENABLE_ADDR) | 1u << HWPROF_TOP_IRQ_ENABLE_COPROC_LSB);
  return hwprof_cop_start(h, HWPROF_COP_CLEAR_ALL);
}

int vp_fw_on_intr(void *ctx, const hwprof_t *h, uint32_t intr_pc) {
  vp_fw_t *f = ctx;
  (void)intr_pc; /* the index registers tell the cause */
  f->interrupts++;
  hwprof_cop_status_t st;
  if (hwprof_cop_status(h, &st) != kHwprofOk) return -1;
  const uint32_t failed = hwprof_mmio_read32(h, HWPROF_COP_I_ADDR + 4u * 2u);
  const uint32_t interval = hwprof_mmio_read32(h, HWPROF_COP_I_ADDR + 4u * 4u);
  if (interval == 0 || failed == VP_FW_FAILED_MAX) { /* i4 wrapped: the interval ended */
    f->intervals += interval == 0;
    f->copies++;
    if (copy_slots(f, h, false) != 0) return -1;
    if (f->part_bits) {
      f->part = (f->part + 1u) & ((1u << f->part_bits) - 1u);
      set_partition(f, h);
    }
  } else {
    /* thrashing: the samples have little information (not copied); split the current part 4 ways
     * if it thrashed fast, 2 otherwise */
    f->thrashes++;
    if (f->part_bits < VP_FW_MAX_PART_BITS) {
      f->part_bits += (st.records - f->records_at_start < 4096u && f->part_bits + 2u <= VP_FW_MAX_PART_BITS) ? 2u : 1u;
      set_partition(f, h);
    }
  }
  f->records_at_start = st.records;
  return (int)HWPROF_COP_CLEAR_ALL;
}

void vp_fw_on_timer(vp_fw_t *f, const hwprof_t *h) {
  f->timer_ticks++;
  if (hwprof_cop_clear_mask(h) != kHwprofOk) f->errors++;
  f->gen++; /* every mask is gone */
  f->masked_now = 0;
  f->complete = false;
  if (f->part_bits) {
    f->part = (f->part + 1u) & ((1u << f->part_bits) - 1u);
    set_partition(f, h);
  }
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

int vp_fw_write(const vp_fw_t *f, FILE *out) { return vp_fw_write_header(out) | vp_fw_write_loads(f, out); }

int vp_fw_write_loads(const vp_fw_t *f, FILE *out) {
  for (uint32_t k = 0; k < VP_FW_MAX_LOADS; k++) {
    const vp_fw_load_t *e = &f->prof[k];
    if (e->total == 0) continue;
    fprintf(out, "load 0x%08lx %lu %lu %u\n", (unsigned long)e->pc, (unsigned long)e->total, (unsigned long)e->intervals,
            e->mask_gen == f->gen ? 1u : 0u);
    for (uint32_t j = 0; j < e->n; j++)
      fprintf(out, "value 0x%08lx %lu %lu\n", (unsigned long)e->v[j].value, (unsigned long)e->v[j].hits,
              (unsigned long)e->v[j].misses);
  }
  return ferror(out) ? -1 : 0;
}
