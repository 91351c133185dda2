/* C model of rtl/hwprof_pir.sv; see pir.h and docs/pir.md. */
#include "pir.h"

#include <string.h>

#define BASE_MASK HWPROF_MASK(HWPROF_PIR_BASE_W)
#define OFFSET_MASK HWPROF_MASK(HWPROF_PIR_OFFSET_W)
#define TRIGGER_MASK HWPROF_MASK(HWPROF_PIR_TRIGGER_W)
#define PID_MASK HWPROF_MASK(HWPROF_EV_PID_W)

int pir_cfg_check(const pir_cfg_t *cfg) {
  if (cfg == NULL) return HWPROF_EINVAL;
  switch (cfg->cnt_w) {
    case 8: case 16: case 32: case 64: return HWPROF_OK;
    default: return HWPROF_EINVAL;
  }
}

void pir_reset(pir_state_t *s) { memset(s, 0, sizeof *s); }

static unsigned cnt_shift(const pir_cfg_t *cfg) {
  switch (cfg->cnt_w) {
    case 8: return 0;
    case 16: return 1;
    case 64: return 3;
    default: return 2;
  }
}

/* Would the presented event update a counter, and is it the not-taken counter of an either branch? */
static bool update_of(const pir_state_t *s, const retire_ev_t *ev, bool *second) {
  *second = false;
  if (!s->flag || (ev->pid & PID_MASK) == 0) return false;
  switch (ev->kind) {
    case HWPROF_KIND_BRANCH:
    case HWPROF_KIND_JUMP:
    case HWPROF_KIND_IJUMP:
      switch (ev->bhint) {
        case HWPROF_BHINT_TK: return ev->taken;
        case HWPROF_BHINT_NT: return !ev->taken;
        case HWPROF_BHINT_EITHER: *second = !ev->taken; return true;
        case HWPROF_BHINT_ALL: return true;
        default: return false;
      }
    case HWPROF_KIND_PROF: return ev->op == HWPROF_PROF_OP_ID;
    default: return false;
  }
}

typedef struct {
  bool hit; /* the address names a register of the window */
  bool ro;  /* ... with no writable field */
  uint32_t rdata;
} reg_decode_t;

static reg_decode_t decode(const pir_state_t *s, uint16_t addr) {
  reg_decode_t d = {true, false, 0};
  switch (addr) {
    case HWPROF_PIR_BASE_LO_ADDR: d.rdata = (uint32_t)(s->base & 0xffffffffu); break;
    case HWPROF_PIR_BASE_HI_ADDR: d.rdata = (uint32_t)(s->base >> 32); break;
    case HWPROF_PIR_OFFSET_ADDR: d.rdata = s->offset; break;
    case HWPROF_PIR_TRIGGER_ADDR: d.rdata = s->trigger; break;
    case HWPROF_PIR_CTRL_ADDR: d.rdata = (uint32_t)s->flag << HWPROF_PIR_CTRL_FLAG_LSB; break;
    case HWPROF_PIR_STAT_EVENTS_ADDR: d.rdata = s->stat_events; d.ro = true; break;
    case HWPROF_PIR_STAT_UPDATES_ADDR: d.rdata = s->stat_updates; d.ro = true; break;
    default: d.hit = false; break;
  }
  return d;
}

void pir_comb(const pir_state_t *s, const pir_cfg_t *cfg, const pir_in_t *in, pir_out_t *out) {
  (void)cfg;
  reg_decode_t d = decode(s, in->reg_addr);
  out->reg_rdata = (in->reg_access && !in->reg_write && d.hit) ? d.rdata : 0;
  out->reg_error = in->reg_access && (!d.hit || (in->reg_write && d.ro));
  bool second;
  out->upd_req = update_of(s, in->ev, &second);
  out->phase = in->ovf && s->trigger == 1u;
  out->upd = s->upd;
}

void pir_step(pir_state_t *s, const pir_cfg_t *cfg, const pir_in_t *in) {
  const retire_ev_t *ev = in->ev;
  pir_state_t n = *s;
  bool second;
  bool hit = in->ev_fire && update_of(s, ev, &second);
  reg_decode_t d = decode(s, in->reg_addr);
  bool reg_we = in->reg_access && in->reg_write && d.hit && !d.ro;

  n.stat_events = s->stat_events + (in->ev_fire ? 1u : 0u);
  n.stat_updates = s->stat_updates + (hit ? 1u : 0u);
  n.upd.valid = hit;
  n.upd.dec = hit && ev->ihint;
  n.upd.addr = 0;
  if (hit) {
    /* index = offset + pid - 1 (+1): never negative because pid >= 1 */
    uint64_t idx = (uint64_t)s->offset + (ev->pid & PID_MASK) - 1u + (second ? 1u : 0u);
    n.upd.addr = (s->base + (idx << cnt_shift(cfg))) & BASE_MASK;
  }

  /* overflow / underflow move the trigger counter (disarmed at zero, saturating at the top) */
  if (in->ovf && s->trigger != 0) {
    n.trigger = (uint16_t)(s->trigger - 1u);
  } else if (in->unf && s->trigger != 0 && s->trigger != TRIGGER_MASK) {
    n.trigger = (uint16_t)(s->trigger + 1u);
  }

  /* profiling instructions (a prof.trigger of the same cycle wins over the overflow) */
  if (in->ev_fire && ev->kind == HWPROF_KIND_PROF) {
    switch (ev->op) {
      case HWPROF_PROF_OP_INIT:
        n.base = ev->operand & BASE_MASK;
        n.offset = 0;
        break;
      case HWPROF_PROF_OP_SETOFF: n.offset = (uint32_t)(ev->operand & OFFSET_MASK); break;
      case HWPROF_PROF_OP_START: n.flag = true; break;
      case HWPROF_PROF_OP_STOP: n.flag = false; break;
      case HWPROF_PROF_OP_TRIGGER: n.trigger = (uint16_t)(ev->operand & TRIGGER_MASK); break;
      default: break; /* prof.id updates a counter only; reserved operations do nothing */
    }
  }

  if (reg_we) {
    uint32_t w = in->reg_wdata;
    switch (in->reg_addr) {
      case HWPROF_PIR_BASE_LO_ADDR:
        n.base = (n.base & ~(uint64_t)HWPROF_PIR_BASE_LO_WMASK) | (w & HWPROF_PIR_BASE_LO_WMASK);
        break;
      case HWPROF_PIR_BASE_HI_ADDR:
        n.base = (n.base & 0xffffffffu) | ((uint64_t)(w & HWPROF_PIR_BASE_HI_WMASK) << 32);
        break;
      case HWPROF_PIR_OFFSET_ADDR: n.offset = w & HWPROF_PIR_OFFSET_WMASK; break;
      case HWPROF_PIR_TRIGGER_ADDR: n.trigger = (uint16_t)(w & HWPROF_PIR_TRIGGER_WMASK); break;
      case HWPROF_PIR_CTRL_ADDR: n.flag = (w >> HWPROF_PIR_CTRL_FLAG_LSB) & 1u; break;
      default: break;
    }
  }
  *s = n;
}
