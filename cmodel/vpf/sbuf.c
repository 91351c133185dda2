/* C model of rtl/vpf/hwprof_sbuf.sv; see sbuf.h. */
#include "vpf/sbuf.h"

#include <string.h>

static unsigned popcount5(uint8_t f) {
  unsigned n = 0;
  for (unsigned b = 0; b < 5; b++) n += (f >> b) & 1u;
  return n;
}

hwprof_result_t hwprof_sbuf_cfg_check(const hwprof_sbuf_cfg_t *cfg) {
  if (cfg == NULL || cfg->words < HWPROF_SBUFWORDS_MIN || cfg->words > HWPROF_SBUFWORDS_MAX || (cfg->words & (cfg->words - 1u)))
    return kHwprofBadArg;
  return kHwprofOk;
}

void hwprof_sbuf_reset(hwprof_sbuf_state_t *s) { memset(s, 0, sizeof *s); }

void hwprof_sbuf_comb(const hwprof_sbuf_state_t *s, const hwprof_sbuf_cfg_t *cfg, uint8_t fields, hwprof_sbuf_out_t *out) {
  const unsigned m = cfg->words - 1u, k = popcount5(fields);
  memset(out, 0, sizeof *out);
  out->valid = s->records != 0;
  out->records = s->records;
  out->used = s->used;
  out->room = s->records < cfg->words && s->used + k <= cfg->words;
  if (!out->valid) return; /* the outputs show 0 with no record held */
  uint32_t f[5] = {0, 0, 0, 0, 0};
  unsigned j = 0;
  for (unsigned b = 0; b < 5; b++)
    if ((fields >> b) & 1u) f[b] = s->mem[(s->rptr + j++) & m];
  out->head.pc = f[HWPROF_SFIELD_PC];
  out->head.npc = f[HWPROF_SFIELD_NPC];
  out->head.insn = f[HWPROF_SFIELD_INSN];
  out->head.addr = f[HWPROF_SFIELD_ADDR];
  out->head.value = f[HWPROF_SFIELD_VALUE];
  out->head.info = s->tag[s->trptr & m];
}

void hwprof_sbuf_step(hwprof_sbuf_state_t *s, const hwprof_sbuf_cfg_t *cfg, const hwprof_sbuf_in_t *in) {
  const unsigned m = cfg->words - 1u, k = popcount5(in->fields);
  const bool room = s->records < cfg->words && s->used + k <= cfg->words;
  if (in->clear) {
    s->rptr = s->wptr;
    s->trptr = s->twptr;
    s->records = 0;
    s->used = 0;
  } else if (in->pop && s->records != 0) {
    s->rptr = (uint16_t)((s->rptr + k) & m);
    s->trptr = (uint16_t)((s->trptr + 1u) & m);
    s->records--;
    s->used = (uint16_t)(s->used - k);
  }
  if (in->push && room) {
    unsigned j = 0;
    for (unsigned b = 0; b < 5; b++)
      if ((in->fields >> b) & 1u) s->mem[(s->wptr + j++) & m] = in->f[b];
    s->tag[s->twptr] = in->info & 0x3fu;
    s->wptr = (uint16_t)((s->wptr + k) & m);
    s->twptr = (uint16_t)((s->twptr + 1u) & m);
    s->records++;
    s->used = (uint16_t)(s->used + k);
  }
}
