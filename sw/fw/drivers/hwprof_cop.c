/* Driver of the value-profiling co-processor; see hwprof_cop.h and docs/cop.md. */
#include "hwprof_cop.h"

#define F(win, reg, field, v) (((v) >> HWPROF_##win##_##reg##_##field##_LSB) & HWPROF_##win##_##reg##_##field##_MASK)
/* a one-bit field's bit in its register (the generated _MASK is the field's, not shifted) */
#define BIT(win, reg, field) (1u << HWPROF_##win##_##reg##_##field##_LSB)

hwprof_result_t hwprof_cop_read_config(const hwprof_t *h, hwprof_cop_config_t *out) {
  if (h == NULL || out == NULL) return kHwprofBadArg;
  const uint32_t c = hwprof_mmio_read32(h, HWPROF_COP_CFG_ADDR), v = hwprof_mmio_read32(h, HWPROF_VPF_CFG_ADDR);
  out->uc_depth = 1u << F(COP, CFG, UC_LOG2, c);
  out->cam_entries = 1u << F(COP, CFG, CAM_LOG2, c);
  out->data_bytes = 1u << F(COP, CFG, DATA_LOG2, c);
  out->sbuf_words = 1u << F(VPF, CFG, SB_WORDS_LOG2, v);
  out->bitmask_bits = 1u << F(VPF, CFG, BITMASK_LOG2, v);
  return kHwprofOk;
}

static bool engine_running(const hwprof_t *h) {
  return F(COP, STATUS, RUNNING, hwprof_mmio_read32(h, HWPROF_COP_STATUS_ADDR)) != 0;
}

hwprof_result_t hwprof_cop_load(const hwprof_t *h, const hwprof_cop_image_t *img) {
  if (h == NULL || img == NULL) return kHwprofBadArg;
  hwprof_cop_config_t cfg;
  hwprof_result_t rc = hwprof_cop_read_config(h, &cfg);
  if (rc != kHwprofOk) return rc;
  if (img->n_uc == 0 || img->n_uc > cfg.uc_depth || img->lfsr == 0 || (img->fields >> (HWPROF_SFIELD_VALUE + 1u)) != 0) return kHwprofBadArg;
  for (unsigned n = 0; n < HWPROF_COP_NUM_IREGS; n++)
    if (img->idxw[n] < 1u || img->idxw[n] > 16u) return kHwprofBadArg;
  for (unsigned n = 0; n < HWPROF_COP_NUM_BREGS; n++)
    if (img->base_size[n] > HWPROF_COP_SIZE_WORD || img->base[n] > 0xffffu) return kHwprofBadArg;
  for (unsigned n = 0; n < HWPROF_COP_NUM_TREGS; n++)
    if (img->t[n] >= cfg.uc_depth) return kHwprofBadArg;
  for (unsigned k = 0; k < HWPROF_COP_KINDS; k++)
    if (((img->kinds >> k) & 1u) && img->dispatch[k] >= cfg.uc_depth) return kHwprofBadArg;
  for (uint32_t a = 0; a < img->n_uc; a++)
    if (img->uc[a] >> HWPROF_COP_UINSN_W) return kHwprofBadArg;
  if (engine_running(h) || F(VPF, CTRL, ENABLE, hwprof_mmio_read32(h, HWPROF_VPF_CTRL_ADDR))) return kHwprofBusy;
  for (uint32_t a = 0; a < img->n_uc; a++) {
    hwprof_mmio_write32(h, HWPROF_COP_UC_LO_ADDR + 4u * a, (uint32_t)img->uc[a]);
    hwprof_mmio_write32(h, HWPROF_COP_UC_HI_ADDR + 4u * a, (uint32_t)(img->uc[a] >> 32));
  }
  for (unsigned n = 0; n < HWPROF_COP_NUM_CREGS; n++) hwprof_mmio_write32(h, HWPROF_COP_C_ADDR + 4u * n, img->c[n]);
  for (unsigned n = 0; n < HWPROF_COP_NUM_BREGS; n++)
    hwprof_mmio_write32(h, HWPROF_COP_B_ADDR + 4u * n, img->base[n] | (uint32_t)img->base_size[n] << 16);
  for (unsigned n = 0; n < HWPROF_COP_NUM_TREGS; n++) hwprof_mmio_write32(h, HWPROF_COP_T_ADDR + 4u * n, img->t[n]);
  for (unsigned k = 0; k < HWPROF_COP_KINDS; k++) hwprof_mmio_write32(h, HWPROF_COP_DISPATCH_ADDR + 4u * k, img->dispatch[k]);
  uint32_t w = 0;
  for (unsigned n = 0; n < HWPROF_COP_NUM_IREGS; n++) w |= (uint32_t)(img->idxw[n] - 1u) << (4u * n);
  hwprof_mmio_write32(h, HWPROF_COP_IDXW_ADDR, w);
  hwprof_mmio_write32(h, HWPROF_COP_LFSR_ADDR, img->lfsr);
  hwprof_mmio_write32(h, HWPROF_VPF_FIELDS_ADDR, img->fields); /* refused only with records buffered */
  hwprof_mmio_write32(h, HWPROF_VPF_KINDS_ADDR, img->kinds);
  return kHwprofOk;
}

static uint32_t ctrl_of(const hwprof_cop_filter_t *f, bool enable) {
  return (enable ? 1u : 0u) << HWPROF_VPF_CTRL_ENABLE_LSB | (uint32_t)f->hash_mm << HWPROF_VPF_CTRL_HASH_MM_LSB |
         (uint32_t)f->hash_bm << HWPROF_VPF_CTRL_HASH_BM_LSB;
}

hwprof_result_t hwprof_cop_set_filter(const hwprof_t *h, const hwprof_cop_filter_t *f) {
  if (h == NULL || f == NULL || f->hash_mm > 3u || f->hash_bm > 3u) return kHwprofBadArg;
  const bool enabled = F(VPF, CTRL, ENABLE, hwprof_mmio_read32(h, HWPROF_VPF_CTRL_ADDR)) != 0;
  hwprof_mmio_write32(h, HWPROF_VPF_MASK_ADDR, f->mask);
  hwprof_mmio_write32(h, HWPROF_VPF_MATCH_ADDR, f->match);
  hwprof_mmio_write32(h, HWPROF_VPF_PRESCALE_ADDR, f->prescale);
  hwprof_mmio_write32(h, HWPROF_VPF_PRESCALE_COUNT_ADDR, 0);
  hwprof_mmio_write32(h, HWPROF_VPF_CTRL_ADDR, ctrl_of(f, enabled));
  return kHwprofOk;
}

hwprof_result_t hwprof_cop_start(const hwprof_t *h, uint32_t clears) {
  if (h == NULL || (clears & ~(uint32_t)HWPROF_COP_CLEAR_ALL) != 0) return kHwprofBadArg;
  if (engine_running(h)) return kHwprofBusy;
  hwprof_mmio_write32(h, HWPROF_COP_CMD_ADDR, clears | BIT(COP, CMD, START));
  const uint32_t ctrl = hwprof_mmio_read32(h, HWPROF_VPF_CTRL_ADDR);
  hwprof_mmio_write32(h, HWPROF_VPF_CTRL_ADDR, ctrl | BIT(VPF, CTRL, ENABLE));
  return kHwprofOk;
}

hwprof_result_t hwprof_cop_stop(const hwprof_t *h) {
  if (h == NULL) return kHwprofBadArg;
  const uint32_t ctrl = hwprof_mmio_read32(h, HWPROF_VPF_CTRL_ADDR);
  hwprof_mmio_write32(h, HWPROF_VPF_CTRL_ADDR, ctrl & ~(uint32_t)BIT(VPF, CTRL, ENABLE));
  hwprof_mmio_write32(h, HWPROF_COP_STOP_ADDR, BIT(COP, STOP, STOP));
  return kHwprofOk;
}

hwprof_result_t hwprof_cop_status(const hwprof_t *h, hwprof_cop_status_t *out) {
  if (h == NULL || out == NULL) return kHwprofBadArg;
  const uint32_t st = hwprof_mmio_read32(h, HWPROF_COP_STATUS_ADDR);
  out->running = F(COP, STATUS, RUNNING, st) != 0;
  out->halted = F(COP, STATUS, HALTED, st) != 0;
  out->intr_pc = F(COP, STATUS, INTR_PC, st);
  out->records = hwprof_mmio_read32(h, HWPROF_COP_STAT_SAMPLES_ADDR);
  out->executed = hwprof_mmio_read32(h, HWPROF_COP_STAT_EXECUTED_ADDR);
  out->mispredicts = hwprof_mmio_read32(h, HWPROF_COP_STAT_MISPREDICT_ADDR);
  out->idle = hwprof_mmio_read32(h, HWPROF_COP_STAT_IDLE_ADDR);
  out->passed = hwprof_mmio_read32(h, HWPROF_VPF_STAT_PASSED_ADDR);
  out->sampled = hwprof_mmio_read32(h, HWPROF_VPF_STAT_SAMPLED_ADDR);
  out->dropped = hwprof_mmio_read32(h, HWPROF_VPF_STAT_DROPPED_ADDR);
  out->buffered = F(VPF, SB_STATUS, RECORDS, hwprof_mmio_read32(h, HWPROF_VPF_SB_STATUS_ADDR));
  return kHwprofOk;
}

hwprof_result_t hwprof_cop_drain(const hwprof_t *h, unsigned max_polls, void (*poll)(void *ctx), void *ctx) {
  if (h == NULL) return kHwprofBadArg;
  const uint32_t ctrl = hwprof_mmio_read32(h, HWPROF_VPF_CTRL_ADDR);
  hwprof_mmio_write32(h, HWPROF_VPF_CTRL_ADDR, ctrl & ~(uint32_t)BIT(VPF, CTRL, ENABLE));
  for (unsigned polls = 0; polls <= max_polls; polls++) {
    if (poll) poll(ctx);
    /* the buffer first, then the engine's decoder/field extractor: a record moving from one to
     * the other between the two reads is seen in the second */
    const uint32_t buffered = F(VPF, SB_STATUS, RECORDS, hwprof_mmio_read32(h, HWPROF_VPF_SB_STATUS_ADDR));
    if (buffered == 0 && !F(COP, STATUS, DFE_VALID, hwprof_mmio_read32(h, HWPROF_COP_STATUS_ADDR))) return kHwprofOk;
  }
  return kHwprofBusy;
}

hwprof_result_t hwprof_cop_read_data(const hwprof_t *h, uint32_t first, uint32_t n, uint32_t *out) {
  if (h == NULL || (out == NULL && n != 0)) return kHwprofBadArg;
  hwprof_cop_config_t cfg;
  hwprof_result_t rc = hwprof_cop_read_config(h, &cfg);
  if (rc != kHwprofOk) return rc;
  if (first > cfg.data_bytes / 4u || n > cfg.data_bytes / 4u - first) return kHwprofBadArg;
  for (uint32_t k = 0; k < n; k++) out[k] = hwprof_mmio_read32(h, HWPROF_COP_DATA_ADDR + 4u * (first + k));
  return kHwprofOk;
}

hwprof_result_t hwprof_cop_read_cam(const hwprof_t *h, uint32_t first, uint32_t n, uint32_t *keys, uint8_t *valid) {
  if (h == NULL || ((keys == NULL || valid == NULL) && n != 0)) return kHwprofBadArg;
  hwprof_cop_config_t cfg;
  hwprof_result_t rc = hwprof_cop_read_config(h, &cfg);
  if (rc != kHwprofOk) return rc;
  if (first > cfg.cam_entries || n > cfg.cam_entries - first) return kHwprofBadArg;
  uint32_t word = 0, word_idx = UINT32_MAX;
  for (uint32_t k = 0; k < n; k++) {
    const uint32_t e = first + k;
    keys[k] = hwprof_mmio_read32(h, HWPROF_COP_CAM_KEY_ADDR + 4u * e);
    if (e / 32u != word_idx) {
      word_idx = e / 32u;
      word = hwprof_mmio_read32(h, HWPROF_COP_CAM_VALID_ADDR + 4u * word_idx);
    }
    valid[k] = (uint8_t)((word >> (e % 32u)) & 1u);
  }
  return kHwprofOk;
}

hwprof_result_t hwprof_cop_mask_pc(const hwprof_t *h, uint32_t pc, bool exclude) {
  if (h == NULL) return kHwprofBadArg;
  hwprof_cop_config_t cfg;
  hwprof_result_t rc = hwprof_cop_read_config(h, &cfg);
  if (rc != kHwprofOk) return rc;
  const unsigned sel = F(VPF, CTRL, HASH_BM, hwprof_mmio_read32(h, HWPROF_VPF_CTRL_ADDR));
  const uint32_t bit = hwprof_cop_pc_hash(sel, pc) & (cfg.bitmask_bits - 1u);
  const uint32_t addr = HWPROF_VPF_BITMASK_ADDR + 4u * (bit / 32u);
  uint32_t w = hwprof_mmio_read32(h, addr);
  w = exclude ? w | (1u << (bit % 32u)) : w & ~(1u << (bit % 32u));
  hwprof_mmio_write32(h, addr, w);
  return kHwprofOk;
}

hwprof_result_t hwprof_cop_clear_mask(const hwprof_t *h) {
  if (h == NULL) return kHwprofBadArg;
  hwprof_mmio_write32(h, HWPROF_VPF_ACTION_ADDR, BIT(VPF, ACTION, BITMASK_CLEAR));
  return kHwprofOk;
}

hwprof_result_t hwprof_cop_handle_irq(const hwprof_t *h, hwprof_cop_intr_fn fn, void *ctx, bool *handled) {
  if (h == NULL || fn == NULL || handled == NULL) return kHwprofBadArg;
  *handled = false;
  if (!F(TOP, IRQ_PENDING, COPROC, hwprof_mmio_read32(h, HWPROF_TOP_IRQ_PENDING_ADDR))) return kHwprofOk;
  hwprof_mmio_write32(h, HWPROF_TOP_IRQ_PENDING_ADDR, BIT(TOP, IRQ_PENDING, COPROC));
  *handled = true;
  const uint32_t st = hwprof_mmio_read32(h, HWPROF_COP_STATUS_ADDR);
  const int clears = fn(ctx, h, F(COP, STATUS, INTR_PC, st));
  if (clears < 0) return kHwprofOk;
  if (((uint32_t)clears & ~(uint32_t)HWPROF_COP_CLEAR_ALL) != 0) return kHwprofBadArg;
  /* re-arm: one write */
  hwprof_mmio_write32(h, HWPROF_COP_CMD_ADDR, (uint32_t)clears | BIT(COP, CMD, START));
  return kHwprofOk;
}
