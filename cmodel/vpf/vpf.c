/* C model of rtl/vpf/hwprof_vpf.sv; see vpf.h and docs/cop.md. */
#include "vpf/vpf.h"

#include <string.h>

uint32_t hwprof_vpf_hash(unsigned sel, uint32_t pc) {
  const uint32_t w = pc >> 2;
  switch (sel & 3u) {
    case 0: return w;
    case 1: return w ^ (w >> 12);
    case 2: return w ^ (w >> 7) ^ (w >> 15);
    default: return w ^ (w >> 5) ^ (w >> 11) ^ (w >> 17);
  }
}

void hwprof_vpf_cfg_default(hwprof_vpf_cfg_t *cfg) {
  cfg->sbuf_words = HWPROF_SBUFWORDS_DEFAULT;
  cfg->bitmask_bits = HWPROF_BITMASKBITS_DEFAULT;
}

hwprof_result_t hwprof_vpf_cfg_check(const hwprof_vpf_cfg_t *cfg) {
  if (cfg == NULL) return kHwprofBadArg;
  const hwprof_sbuf_cfg_t sb = {cfg->sbuf_words};
  if (hwprof_sbuf_cfg_check(&sb) != kHwprofOk || cfg->bitmask_bits < HWPROF_BITMASKBITS_MIN ||
      cfg->bitmask_bits > HWPROF_BITMASKBITS_MAX || (cfg->bitmask_bits & (cfg->bitmask_bits - 1u)))
    return kHwprofBadArg;
  return kHwprofOk;
}

void hwprof_vpf_reset(hwprof_vpf_state_t *s) {
  memset(s, 0, sizeof *s);
  hwprof_vpf_reg_reset(&s->regs);
  hwprof_sbuf_reset(&s->sbuf);
}

static unsigned log2u(unsigned x) {
  unsigned n = 0;
  while ((1u << n) < x) n++;
  return n;
}

typedef struct {
  bool passed, chosen, pushed, dropped, sb_clear, bm_clear;
  uint8_t info;
  hwprof_sbuf_out_t sb;
  hwprof_vpf_reg2hw_t r2h;
  hwprof_reg_rsp_t rsp;
} vpf_eval_t;

static void hw2reg_of(const hwprof_vpf_state_t *s, const hwprof_vpf_cfg_t *cfg, const hwprof_sbuf_out_t *sb, const hwprof_reg_req_t *req,
                      hwprof_vpf_hw2reg_t *hw) {
  memset(hw, 0, sizeof *hw);
  hw->prescale_count_value = s->count;
  hw->ctrl_enable = s->enable;
  hw->ctrl_hash_mm = s->hash_mm;
  hw->ctrl_hash_bm = s->hash_bm;
  hw->fields_refuse = s->enable || sb->records != 0;
  hw->sb_status_records = sb->records;
  hw->sb_status_words = sb->used;
  hw->stat_passed_value = (uint32_t)hwprof_prim_counters_get(&s->stats, HWPROF_VPF_ST_PASSED);
  hw->stat_sampled_value = (uint32_t)hwprof_prim_counters_get(&s->stats, HWPROF_VPF_ST_SAMPLED);
  hw->stat_dropped_value = (uint32_t)hwprof_prim_counters_get(&s->stats, HWPROF_VPF_ST_DROPPED);
  hw->cfg_sb_words_log2 = log2u(cfg->sbuf_words);
  hw->cfg_bitmask_log2 = log2u(cfg->bitmask_bits);
  const uint32_t n = hwprof_vpf_reg_bitmask_index(req->addr);
  const bool in = n < cfg->bitmask_bits / 32u;
  hw->bitmask_rdata = in ? s->bitmask[n] : 0;
  hw->bitmask_refuse = !in;
}

static void eval(const hwprof_vpf_state_t *s, const hwprof_vpf_cfg_t *cfg, const hwprof_vpf_in_t *in, vpf_eval_t *e) {
  memset(e, 0, sizeof *e);
  const hwprof_vpf_reg_state_t *r = &s->regs;
  const hwprof_sbuf_cfg_t sbc = {cfg->sbuf_words};
  hwprof_sbuf_comb(&s->sbuf, &sbc, (uint8_t)r->fields_sel, &e->sb);
  const hwprof_retire_ev_t *ev = in->ev;
  if (s->enable && in->ev_fire) {
    const bool kind_ok = (r->kinds_en >> (ev->kind & 7u)) & 1u;
    const bool mm_ok = ((hwprof_vpf_hash(s->hash_mm, ev->pc) ^ r->match_value) & r->mask_value) == 0;
    const uint32_t bi = hwprof_vpf_hash(s->hash_bm, ev->pc) & (cfg->bitmask_bits - 1u);
    const bool bm_ok = !((s->bitmask[bi >> 5] >> (bi & 31u)) & 1u);
    e->passed = kind_ok && mm_ok && bm_ok;
  }
  e->chosen = e->passed && s->count <= 1u;
  e->pushed = e->chosen && e->sb.room;
  e->dropped = e->chosen && !e->sb.room;
  e->info = (uint8_t)((ev ? ev->kind & 7u : 0u) | (ev && ev->taken ? 8u : 0u) | (ev && ev->is_call ? 16u : 0u) | (ev && ev->is_ret ? 32u : 0u));
  hwprof_vpf_hw2reg_t hw;
  if (in->reg.access) hw2reg_of(s, cfg, &e->sb, &in->reg, &hw); /* read values and refusals matter only then */
  else memset(&hw, 0, sizeof hw);
  hwprof_vpf_reg_comb(r, &in->reg, &hw, &e->r2h, &e->rsp);
  e->sb_clear = e->r2h.action_qe && e->r2h.action_sb_clear;
  e->bm_clear = e->r2h.action_qe && e->r2h.action_bitmask_clear;
}

void hwprof_vpf_comb(const hwprof_vpf_state_t *s, const hwprof_vpf_cfg_t *cfg, const hwprof_vpf_in_t *in, hwprof_vpf_out_t *out) {
  if (hwprof_vpf_at_rest(s) && !in->reg.access) { /* idle: nothing to show (most cycles) */
    *out = (hwprof_vpf_out_t){0};
    return;
  }
  vpf_eval_t e;
  eval(s, cfg, in, &e);
  out->smp_valid = e.sb.valid;
  out->smp = e.sb.head;
  out->reg = e.rsp;
}

void hwprof_vpf_step(hwprof_vpf_state_t *s, const hwprof_vpf_cfg_t *cfg, const hwprof_vpf_in_t *in) {
  if (!s->enable && !in->reg.access && !in->smp_pop) return; /* idle: nothing changes */
  vpf_eval_t e;
  eval(s, cfg, in, &e);
  hwprof_vpf_hw2reg_t hw; /* of the state before the edge */
  if (in->reg.access) hw2reg_of(s, cfg, &e.sb, &in->reg, &hw);
  else memset(&hw, 0, sizeof hw);
  const uint8_t fields = (uint8_t)s->regs.fields_sel;

  const hwprof_prim_counters_cfg_t st_cfg = {HWPROF_VPF_ST_N, 32};
  const hwprof_prim_counters_in_t st_in = {
      (uint32_t)e.passed << HWPROF_VPF_ST_PASSED | (uint32_t)e.pushed << HWPROF_VPF_ST_SAMPLED | (uint32_t)e.dropped << HWPROF_VPF_ST_DROPPED,
      false,
      (uint32_t)e.r2h.stat_passed_qe << HWPROF_VPF_ST_PASSED | (uint32_t)e.r2h.stat_sampled_qe << HWPROF_VPF_ST_SAMPLED |
          (uint32_t)e.r2h.stat_dropped_qe << HWPROF_VPF_ST_DROPPED,
      in->reg.wdata}; /* the write data, as the RTL's register values all are */
  hwprof_prim_counters_step(&s->stats, &st_cfg, &st_in);

  if (e.passed) s->count = (uint16_t)(s->count <= 1u ? s->regs.prescale_reload : s->count - 1u);
  if (e.r2h.prescale_count_qe) s->count = (uint16_t)e.r2h.prescale_count_value; /* a register write wins */
  if (e.r2h.ctrl_qe) {
    s->enable = e.r2h.ctrl_enable;
    s->hash_mm = (uint8_t)e.r2h.ctrl_hash_mm;
    s->hash_bm = (uint8_t)e.r2h.ctrl_hash_bm;
  }
  if (e.bm_clear) memset(s->bitmask, 0, sizeof s->bitmask);
  if (e.r2h.bitmask_we) s->bitmask[e.r2h.bitmask_index] = e.r2h.bitmask_wdata;

  const hwprof_sbuf_cfg_t sbc = {cfg->sbuf_words};
  hwprof_sbuf_in_t sin = {fields, e.chosen, {0, 0, 0, 0, 0}, e.info, in->smp_pop, e.sb_clear};
  if (e.chosen) {
    sin.f[HWPROF_SFIELD_PC] = in->ev->pc;
    sin.f[HWPROF_SFIELD_NPC] = in->ev->next_pc;
    sin.f[HWPROF_SFIELD_INSN] = in->ev->insn;
    sin.f[HWPROF_SFIELD_ADDR] = in->ev->addr;
    sin.f[HWPROF_SFIELD_VALUE] = in->ev->value;
  }
  hwprof_sbuf_step(&s->sbuf, &sbc, &sin);
  hwprof_vpf_reg_step(&s->regs, &in->reg, &hw);
}
