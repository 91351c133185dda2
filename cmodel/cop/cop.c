/* C model of rtl/cop/hwprof_cop.sv; see cop.h and docs/cop.md. */
#include "cop/cop.h"

#include <string.h>

#define UI(w, F) HWPROF_COP_UI_GET(w, F)

void hwprof_cop_cfg_default(hwprof_cop_cfg_t *cfg) {
  cfg->uc_depth = HWPROF_UCDEPTH_DEFAULT;
  cfg->cam_entries = HWPROF_CAMENTRIES_DEFAULT;
  cfg->data_bytes = HWPROF_DATABYTES_DEFAULT;
}

static bool pow2(unsigned x) { return x && !(x & (x - 1u)); }

hwprof_result_t hwprof_cop_cfg_check(const hwprof_cop_cfg_t *cfg) {
  if (cfg == NULL || !pow2(cfg->uc_depth) || cfg->uc_depth < HWPROF_UCDEPTH_MIN || cfg->uc_depth > HWPROF_UCDEPTH_MAX ||
      !pow2(cfg->cam_entries) || cfg->cam_entries < HWPROF_CAMENTRIES_MIN || cfg->cam_entries > HWPROF_CAMENTRIES_MAX ||
      !pow2(cfg->data_bytes) || cfg->data_bytes < HWPROF_DATABYTES_MIN || cfg->data_bytes > HWPROF_DATABYTES_MAX)
    return kHwprofBadArg;
  return kHwprofOk;
}

void hwprof_cop_reset(hwprof_cop_state_t *s) {
  memset(s, 0, sizeof *s);
  hwprof_cop_reg_reset(&s->regs);
  s->lfsr = (uint16_t)HWPROF_COP_LFSR_RESVAL;
  memset(s->idxw, 15, sizeof s->idxw);
}

static unsigned log2u(unsigned x) {
  unsigned n = 0;
  while ((1u << n) < x) n++;
  return n;
}

static unsigned idx_width(const hwprof_cop_state_t *s, unsigned n) { return s->idxw[n] + 1u; }

static uint32_t idx_mask(const hwprof_cop_state_t *s, unsigned n) { return (1u << idx_width(s, n)) - 1u; }
static uint32_t idx_read(const hwprof_cop_state_t *s, unsigned n) { return s->i[n] & idx_mask(s, n); }

/* the fetch stage's prediction: the address fetched after the word u at address pc */
static uint8_t predict(const hwprof_cop_state_t *s, const hwprof_cop_cfg_t *cfg, uint64_t u, uint8_t pc) {
  const unsigned cond = UI(u, COND), tgt = UI(u, TARGET), pm = cfg->uc_depth - 1u;
  const uint8_t fall = (uint8_t)((pc + 1u) & pm);
  const bool known = hwprof_cop_target_has_offset_of(tgt) || (tgt >= HWPROF_COP_TARGET_T0 && tgt <= HWPROF_COP_TARGET_T3);
  if (cond == HWPROF_COP_COND_NONE || cond > HWPROF_COP_COND_NILIM || !known) return fall;
  const bool taken = cond == HWPROF_COP_COND_ALWAYS || UI(u, PRED) >= 2u;
  if (!taken) return fall;
  if (hwprof_cop_target_has_offset_of(tgt)) return (uint8_t)((unsigned)((int)pc + hwprof_cop_target_offset_of(tgt)) & pm);
  return (uint8_t)(s->t[tgt - HWPROF_COP_TARGET_T0] & pm);
}

/* What executing the instruction in the execute stage does (all from the state before the edge). */
typedef struct {
  bool active, stop, exec, finish, done, intr, redirect, fetch, pop, load;
  uint8_t actual; /* the right next address */
  /* architectural effects */
  uint32_t a, b, r, mem;
  bool alu_w, asat, chit, dsat, ilim, taken, data_w, idx_w, pred_w;
  uint32_t match_idx, data_word_idx, data_word, idx_new;
  uint8_t pred_new;
  /* host */
  hwprof_cop_reg2hw_t r2h;
  hwprof_reg_rsp_t rsp;
} cop_eval_t;

static uint32_t source(const hwprof_cop_state_t *s, unsigned code, uint32_t mem) {
  const hwprof_cop_record_t *x = &s->dfe;
  if (code <= HWPROF_COP_SRC_V3) return s->v[code];
  if (code >= HWPROF_COP_SRC_C0 && code <= HWPROF_COP_SRC_C3) return s->c[code - HWPROF_COP_SRC_C0];
  if (code >= HWPROF_COP_SRC_I0 && code <= HWPROF_COP_SRC_I7) return idx_read(s, code - HWPROF_COP_SRC_I0);
  switch (code) {
    case HWPROF_COP_SRC_MEM: return mem;
    case HWPROF_COP_SRC_S_PC: return x->pc;
    case HWPROF_COP_SRC_S_NPC: return x->npc;
    case HWPROF_COP_SRC_S_INSN: return x->insn;
    case HWPROF_COP_SRC_S_ADDR: return x->addr;
    case HWPROF_COP_SRC_S_VAL: return x->value;
    case HWPROF_COP_SRC_S_INFO: return x->info & 0x3fu;
    case HWPROF_COP_SRC_S_RD: return x->insn >> 7 & 0x1fu;
    case HWPROF_COP_SRC_S_RS1: return x->insn >> 15 & 0x1fu;
    case HWPROF_COP_SRC_S_RS2: return x->insn >> 20 & 0x1fu;
    case HWPROF_COP_SRC_S_F3: return x->insn >> 12 & 0x7u;
    case HWPROF_COP_SRC_S_IMM: return (x->insn >> 20) | ((x->insn >> 31) ? 0xfffff000u : 0u);
    default: return 0;
  }
}

static void execute(const hwprof_cop_state_t *s, const hwprof_cop_cfg_t *cfg, cop_eval_t *e) {
  const uint64_t w = s->ex_insn;
  const unsigned alu = UI(w, ALU_OP), cam = UI(w, CAM_OP), dop = UI(w, DATA_OP), iop = UI(w, IDX_OP), cond = UI(w, COND),
                 tgt = UI(w, TARGET);
  /* the data element: byte address base | (index << size), modulo the array, aligned */
  const uint32_t bv = s->b[UI(w, DATA_BASE)];
  const unsigned size = (bv >> 16 & 3u) == 3u ? 2u : (bv >> 16 & 3u);
  const uint32_t eaddr = (((bv & 0xffffu) | idx_read(s, UI(w, DATA_IDX)) << size) & (cfg->data_bytes - 1u)) & ~((1u << size) - 1u);
  const unsigned lane = (eaddr & 3u) * 8u;
  const uint32_t emax = size == 2 ? 0xffffffffu : (1u << (8u << size)) - 1u;
  e->data_word_idx = eaddr >> 2;
  const uint32_t word = s->data[e->data_word_idx];
  const bool data_op = dop >= HWPROF_COP_DATA_OP_READ && dop <= HWPROF_COP_DATA_OP_DECS;
  e->mem = data_op ? (word >> lane) & emax : 0;
  e->a = source(s, UI(w, SRC_A), e->mem);
  e->b = source(s, UI(w, SRC_B), e->mem);
  /* ALU */
  e->alu_w = true;
  e->r = e->a;
  switch (alu) {
    case HWPROF_COP_ALU_OP_MOV: e->r = e->a; break;
    case HWPROF_COP_ALU_OP_ADD: e->r = e->a + e->b; break;
    case HWPROF_COP_ALU_OP_SUB: e->r = e->a - e->b; break;
    case HWPROF_COP_ALU_OP_ADDS:
      e->r = e->a + e->b;
      e->asat = e->r < e->a;
      if (e->asat) e->r = 0xffffffffu;
      break;
    case HWPROF_COP_ALU_OP_SUBS:
      e->asat = e->b > e->a;
      e->r = e->asat ? 0 : e->a - e->b;
      break;
    case HWPROF_COP_ALU_OP_AND: e->r = e->a & e->b; break;
    case HWPROF_COP_ALU_OP_OR: e->r = e->a | e->b; break;
    case HWPROF_COP_ALU_OP_XOR: e->r = e->a ^ e->b; break;
    case HWPROF_COP_ALU_OP_SHL: e->r = e->a << (e->b & 31u); break;
    case HWPROF_COP_ALU_OP_SHR: e->r = e->a >> (e->b & 31u); break;
    case HWPROF_COP_ALU_OP_RAND: e->r = s->lfsr & e->b; break;
    default: e->alu_w = false; break;
  }
  /* CAM lookup */
  if (cam == HWPROF_COP_CAM_OP_MATCH)
    for (unsigned k = 0; k < cfg->cam_entries; k++)
      if (s->cam_valid[k] && s->cam_key[k] == e->a) {
        e->chit = true;
        e->match_idx = k;
        break;
      }
  /* data write-back value */
  uint32_t nv = e->mem;
  e->data_w = dop == HWPROF_COP_DATA_OP_WRITE || dop == HWPROF_COP_DATA_OP_INCS || dop == HWPROF_COP_DATA_OP_DECS;
  if (dop == HWPROF_COP_DATA_OP_WRITE) nv = e->b & emax;
  if (dop == HWPROF_COP_DATA_OP_INCS) {
    nv = e->mem == emax ? emax : e->mem + 1u;
    e->dsat = nv == emax;
  }
  if (dop == HWPROF_COP_DATA_OP_DECS) {
    nv = e->mem == 0 ? 0 : e->mem - 1u;
    e->dsat = nv == 0;
  }
  e->data_word = (word & ~(emax << lane)) | (nv << lane);
  /* index incrementer */
  const unsigned ir = UI(w, IDX_REG);
  const uint32_t im = idx_mask(s, ir), iv = idx_read(s, ir);
  e->idx_w = true;
  switch (iop) {
    case HWPROF_COP_IDX_OP_INC: e->idx_new = (iv + 1u) & im; e->ilim = e->idx_new == 0; break;
    case HWPROF_COP_IDX_OP_INCS: e->idx_new = iv == im ? im : iv + 1u; e->ilim = e->idx_new == im; break;
    case HWPROF_COP_IDX_OP_DECS: e->idx_new = iv == 0 ? 0 : iv - 1u; e->ilim = e->idx_new == 0; break;
    case HWPROF_COP_IDX_OP_CLR: e->idx_new = 0; break;
    case HWPROF_COP_IDX_OP_LOAD: e->idx_new = e->a & im; break;
    default: e->idx_w = false; break;
  }
  /* branch */
  switch (cond) {
    case HWPROF_COP_COND_ALWAYS: e->taken = true; break;
    case HWPROF_COP_COND_EQ: e->taken = e->a == e->b; break;
    case HWPROF_COP_COND_NE: e->taken = e->a != e->b; break;
    case HWPROF_COP_COND_LTU: e->taken = e->a < e->b; break;
    case HWPROF_COP_COND_GEU: e->taken = e->a >= e->b; break;
    case HWPROF_COP_COND_Z: e->taken = e->r == 0; break;
    case HWPROF_COP_COND_NZ: e->taken = e->r != 0; break;
    case HWPROF_COP_COND_ASAT: e->taken = e->asat; break;
    case HWPROF_COP_COND_CHIT: e->taken = e->chit; break;
    case HWPROF_COP_COND_CMISS: e->taken = !e->chit; break;
    case HWPROF_COP_COND_DSAT: e->taken = e->dsat; break;
    case HWPROF_COP_COND_NDSAT: e->taken = !e->dsat; break;
    case HWPROF_COP_COND_ILIM: e->taken = e->ilim; break;
    case HWPROF_COP_COND_NILIM: e->taken = !e->ilim; break;
    default: e->taken = false; break;
  }
  /* the predictor of a conditional branch learns its outcome */
  e->pred_w = cond >= HWPROF_COP_COND_EQ && cond <= HWPROF_COP_COND_NILIM;
  const unsigned p = UI(s->uc[s->ex_pc], PRED);
  e->pred_new = (uint8_t)(e->taken ? (p == 3u ? 3u : p + 1u) : (p == 0u ? 0u : p - 1u));
  const unsigned pm = cfg->uc_depth - 1u;
  e->done = e->taken && tgt == HWPROF_COP_TARGET_DONE;
  e->intr = e->taken && tgt == HWPROF_COP_TARGET_INTR;
  if (e->taken && hwprof_cop_target_has_offset_of(tgt)) e->actual = (uint8_t)((unsigned)((int)s->ex_pc + hwprof_cop_target_offset_of(tgt)) & pm);
  else if (e->taken && tgt >= HWPROF_COP_TARGET_T0 && tgt <= HWPROF_COP_TARGET_T3) e->actual = (uint8_t)(s->t[tgt - HWPROF_COP_TARGET_T0] & pm);
  else e->actual = (uint8_t)((s->ex_pc + 1u) & pm);
}

static void hw2reg_of(const hwprof_cop_state_t *s, const hwprof_cop_cfg_t *cfg, const hwprof_reg_req_t *req, hwprof_cop_hw2reg_t *hw) {
  memset(hw, 0, sizeof *hw);
  const bool running = s->run;
  hw->cmd_refuse = running;
  hw->status_running = s->run;
  hw->status_halted = s->halted;
  hw->status_dfe_valid = s->dfe_valid;
  hw->status_fetch_pc = s->fpc;
  hw->status_intr_pc = s->intr_pc;
  hw->lfsr_value = s->lfsr;
  hw->lfsr_refuse = running || (req->wdata & 0xffffu) == 0;
  hw->idxw_refuse = running;
  hw->clock_refuse = running;
  hw->clock_div_log2 = s->clkdiv;
  hw->idxw_w0 = s->idxw[0];
  hw->idxw_w1 = s->idxw[1];
  hw->idxw_w2 = s->idxw[2];
  hw->idxw_w3 = s->idxw[3];
  hw->idxw_w4 = s->idxw[4];
  hw->idxw_w5 = s->idxw[5];
  hw->idxw_w6 = s->idxw[6];
  hw->idxw_w7 = s->idxw[7];
  hw->stat_samples_value = (uint32_t)hwprof_prim_counters_get(&s->stats, HWPROF_COP_ST_SAMPLES);
  hw->stat_executed_value = (uint32_t)hwprof_prim_counters_get(&s->stats, HWPROF_COP_ST_EXECUTED);
  hw->stat_mispredict_value = (uint32_t)hwprof_prim_counters_get(&s->stats, HWPROF_COP_ST_MISPREDICT);
  hw->stat_idle_value = (uint32_t)hwprof_prim_counters_get(&s->stats, HWPROF_COP_ST_IDLE);
  hw->cfg_uc_log2 = log2u(cfg->uc_depth);
  hw->cfg_cam_log2 = log2u(cfg->cam_entries);
  hw->cfg_data_log2 = log2u(cfg->data_bytes);
  hw->v_rdata = s->v[hwprof_cop_reg_v_index(req->addr)];
  hw->v_refuse = running;
  hw->i_rdata = idx_read(s, hwprof_cop_reg_i_index(req->addr));
  hw->i_refuse = running;
  hw->c_rdata = s->c[hwprof_cop_reg_c_index(req->addr)];
  hw->c_refuse = running;
  hw->b_rdata = s->b[hwprof_cop_reg_b_index(req->addr)];
  hw->b_refuse = running;
  hw->t_rdata = s->t[hwprof_cop_reg_t_index(req->addr)];
  hw->t_refuse = running;
  hw->dispatch_rdata = s->disp[hwprof_cop_reg_dispatch_index(req->addr)];
  hw->dispatch_refuse = running;
  const bool uc_in = hwprof_cop_reg_uc_lo_index(req->addr) < cfg->uc_depth, uc_hi_in = hwprof_cop_reg_uc_hi_index(req->addr) < cfg->uc_depth;
  hw->uc_lo_rdata = uc_in ? (uint32_t)s->uc[hwprof_cop_reg_uc_lo_index(req->addr)] : 0;
  hw->uc_lo_refuse = running || !uc_in;
  hw->uc_hi_rdata = uc_hi_in ? (uint32_t)(s->uc[hwprof_cop_reg_uc_hi_index(req->addr)] >> 32) : 0;
  hw->uc_hi_refuse = running || !uc_hi_in;
  for (unsigned k = 0; k < 32; k++) {
    const unsigned e = hwprof_cop_reg_cam_valid_index(req->addr) * 32u + k;
    if (e < cfg->cam_entries && s->cam_valid[e]) hw->cam_valid_rdata |= 1u << k;
  }
  const bool key_in = hwprof_cop_reg_cam_key_index(req->addr) < cfg->cam_entries, data_in = hwprof_cop_reg_data_index(req->addr) < cfg->data_bytes / 4u;
  hw->cam_key_rdata = key_in ? s->cam_key[hwprof_cop_reg_cam_key_index(req->addr)] : 0;
  hw->cam_key_refuse = running || !key_in;
  hw->data_rdata = data_in ? s->data[hwprof_cop_reg_data_index(req->addr)] : 0;
  hw->data_refuse = running || !data_in;
}

static void eval(const hwprof_cop_state_t *s, const hwprof_cop_cfg_t *cfg, const hwprof_cop_in_t *in, cop_eval_t *e) {
  memset(e, 0, sizeof *e);
  /* the register block first: its strobes are needed to know whether the engine runs */
  hwprof_cop_hw2reg_t hw;
  if (in->reg.access) hw2reg_of(s, cfg, &in->reg, &hw); /* read values and refusals matter only then */
  else memset(&hw, 0, sizeof hw);
  hwprof_cop_reg_comb(&s->regs, &in->reg, &hw, &e->r2h, &e->rsp);
  e->stop = e->r2h.stop_qe && e->r2h.stop_stop;
  e->active = s->run && !e->stop && (s->div & ((1u << s->clkdiv) - 1u)) == 0; /* the engine's clock ticks */
  if (!e->active) return;
  if (!s->dfe_valid) {
    e->load = e->pop = in->smp_valid;
    return;
  }
  if (s->ex_valid) {
    e->exec = true;
    execute(s, cfg, e);
    e->finish = e->done || e->intr;
    e->redirect = !e->finish && e->actual != s->ex_pnext;
  }
  if (e->finish) {
    e->load = e->pop = e->done && in->smp_valid;
    return;
  }
  e->fetch = !e->redirect;
}

void hwprof_cop_comb(const hwprof_cop_state_t *s, const hwprof_cop_cfg_t *cfg, const hwprof_cop_in_t *in, hwprof_cop_out_t *out) {
  if (hwprof_cop_at_rest(s) && !in->reg.access) { /* stopped and not addressed: nothing to show (most cycles) */
    *out = (hwprof_cop_out_t){0};
    return;
  }
  cop_eval_t e;
  eval(s, cfg, in, &e);
  out->smp_pop = e.pop;
  out->reg = e.rsp;
  out->irq = e.intr;
}

void hwprof_cop_step(hwprof_cop_state_t *s, const hwprof_cop_cfg_t *cfg, const hwprof_cop_in_t *in) {
  if (hwprof_cop_at_rest(s) && !in->reg.access) return; /* stopped and not addressed: nothing changes */
  cop_eval_t e;
  eval(s, cfg, in, &e);
  /* what the edge reads of the state before it, taken before anything is written */
  const uint64_t w = s->ex_insn, fword = s->uc[s->fpc], pred_word = s->uc[s->ex_pc];
  const uint8_t ex_pc = s->ex_pc, fpc = s->fpc;
  const bool dfe_was = s->dfe_valid;
  const uint16_t lfsr = s->lfsr;
  const bool ran = s->run;
  const unsigned centry = idx_read(s, UI(w, CAM_IDX)) & (cfg->cam_entries - 1u);
  const uint8_t fnext = e.fetch ? predict(s, cfg, fword, fpc) : 0;
  const uint8_t start = (uint8_t)(s->disp[in->smp.info & 7u] & (cfg->uc_depth - 1u));
  hwprof_cop_hw2reg_t hw;
  if (in->reg.access) hw2reg_of(s, cfg, &in->reg, &hw);
  else memset(&hw, 0, sizeof hw);
  const hwprof_cop_reg2hw_t *r = &e.r2h;

  const hwprof_prim_counters_cfg_t st_cfg = {HWPROF_COP_ST_N, 32};
  const hwprof_prim_counters_in_t st_in = {
      (uint32_t)(e.exec && e.finish) << HWPROF_COP_ST_SAMPLES | (uint32_t)e.exec << HWPROF_COP_ST_EXECUTED |
          (uint32_t)e.redirect << HWPROF_COP_ST_MISPREDICT | (uint32_t)(e.active && !dfe_was) << HWPROF_COP_ST_IDLE,
      false,
      (uint32_t)r->stat_samples_qe << HWPROF_COP_ST_SAMPLES | (uint32_t)r->stat_executed_qe << HWPROF_COP_ST_EXECUTED |
          (uint32_t)r->stat_mispredict_qe << HWPROF_COP_ST_MISPREDICT | (uint32_t)r->stat_idle_qe << HWPROF_COP_ST_IDLE,
      in->reg.wdata}; /* the write data, as the RTL's register values all are */
  hwprof_prim_counters_step(&s->stats, &st_cfg, &st_in);

  if (e.exec) {
    if (UI(w, DATA_OP) == HWPROF_COP_DATA_OP_READ) s->v[UI(w, DATA_REG)] = e.mem;
    if (e.alu_w) s->v[UI(w, ALU_DST)] = e.r;
    const unsigned cam = UI(w, CAM_OP);
    if (cam == HWPROF_COP_CAM_OP_WRITE) {
      s->cam_key[centry] = e.a;
      s->cam_valid[centry] = 1;
    } else if (cam == HWPROF_COP_CAM_OP_INVAL) {
      s->cam_valid[centry] = 0;
    }
    if (e.data_w) s->data[e.data_word_idx] = e.data_word;
    if (e.chit) s->i[UI(w, CAM_IDX)] = (uint16_t)e.match_idx;
    if (e.idx_w) s->i[UI(w, IDX_REG)] = (uint16_t)e.idx_new;
    if (UI(w, ALU_OP) == HWPROF_COP_ALU_OP_RAND) s->lfsr = (uint16_t)((lfsr >> 1) ^ ((lfsr & 1u) ? 0xB400u : 0u));
    if (e.pred_w) s->uc[ex_pc] = HWPROF_COP_UI_SET(pred_word, PRED, e.pred_new);
  }
  /* pipeline and record */
  if (e.active) {
    if (e.finish) {
      s->ex_valid = false;
      s->dfe_valid = false;
    }
    if (e.intr) {
      s->run = false;
      s->halted = true;
      s->intr_pc = ex_pc;
    }
    if (e.redirect) {
      s->ex_valid = false;
      s->fpc = e.actual;
    }
    if (e.fetch) {
      s->ex_valid = true;
      s->ex_insn = fword;
      s->ex_pc = fpc;
      s->ex_pnext = fnext;
      s->fpc = fnext;
    }
    if (e.load) {
      s->dfe_valid = true;
      s->dfe = in->smp;
      s->fpc = start;
    }
  }
  if (e.stop) {
    s->run = false;
    s->ex_valid = false;
    s->dfe_valid = false;
  }

  /* host writes (refused while the engine runs, so they never meet the engine's own writes) */
  if (r->cmd_qe) {
    if (r->cmd_cam_inval) memset(s->cam_valid, 0, sizeof s->cam_valid);
    if (r->cmd_data_clear) memset(s->data, 0, sizeof s->data);
    if (r->cmd_idx_clear) memset(s->i, 0, sizeof s->i);
    if (r->cmd_start) {
      s->run = true;
      s->halted = false;
    }
  }
  if (r->lfsr_qe) s->lfsr = (uint16_t)r->lfsr_value;
  /* the engine's clock: counted while it runs on (cleared as it starts and stops), by the divider
   * set before this edge */
  s->div = (ran && s->run) ? (uint8_t)((s->div + 1u) & ((1u << s->clkdiv) - 1u)) : 0;
  if (r->clock_qe) s->clkdiv = (uint8_t)r->clock_div_log2;
  if (r->idxw_qe) {
    const uint32_t w[8] = {r->idxw_w0, r->idxw_w1, r->idxw_w2, r->idxw_w3, r->idxw_w4, r->idxw_w5, r->idxw_w6, r->idxw_w7};
    for (unsigned n = 0; n < HWPROF_COP_NUM_IREGS; n++) s->idxw[n] = (uint8_t)w[n];
  }
  if (r->v_we) s->v[r->v_index] = r->v_wdata;
  if (r->i_we) s->i[r->i_index] = (uint16_t)r->i_wdata;
  if (r->c_we) s->c[r->c_index] = r->c_wdata;
  if (r->b_we) s->b[r->b_index] = r->b_wdata & 0x3ffffu;
  if (r->t_we) s->t[r->t_index] = (uint8_t)(r->t_wdata & (cfg->uc_depth - 1u));
  if (r->dispatch_we) s->disp[r->dispatch_index] = (uint8_t)(r->dispatch_wdata & (cfg->uc_depth - 1u));
  if (r->uc_lo_we) s->uc[r->uc_lo_index] = (s->uc[r->uc_lo_index] & ~UINT64_C(0xffffffff)) | r->uc_lo_wdata;
  if (r->uc_hi_we) s->uc[r->uc_hi_index] = (s->uc[r->uc_hi_index] & UINT64_C(0xffffffff)) | (uint64_t)(r->uc_hi_wdata & 0xffffu) << 32;
  if (r->cam_key_we) {
    s->cam_key[r->cam_key_index] = r->cam_key_wdata;
    s->cam_valid[r->cam_key_index] = 1;
  }
  if (r->data_we) s->data[r->data_index] = r->data_wdata;
  hwprof_cop_reg_step(&s->regs, &in->reg, &hw);
}
