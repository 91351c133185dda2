/* Instruction-level interpreter of the co-processor's microcode (cop_interp.h). Each step follows
 * the numbered list of docs/cop.md, "One microinstruction". */
#include "cop_interp.h"

#include <stdlib.h>
#include <string.h>

static int pow2(uint32_t x) { return x && !(x & (x - 1u)); }

uint16_t cop_lfsr_next(uint16_t x) { return (uint16_t)((x >> 1) ^ ((x & 1u) ? 0xB400u : 0u)); }

int cop_interp_init(cop_interp_t *s, cop_geom_t g) {
  memset(s, 0, sizeof *s);
  if (!pow2(g.uc_depth) || g.uc_depth > HWPROF_COP_IMAGE_MAX_UC || !pow2(g.cam_entries) || !pow2(g.data_bytes) || g.data_bytes < 4)
    return COP_ERR_ARG;
  s->g = g;
  s->uc = calloc(g.uc_depth, sizeof *s->uc);
  s->cam_key = calloc(g.cam_entries, sizeof *s->cam_key);
  s->cam_valid = calloc(g.cam_entries, 1);
  s->data = calloc(g.data_bytes, 1);
  if (!s->uc || !s->cam_key || !s->cam_valid || !s->data) {
    cop_interp_free(s);
    return COP_ERR_NOMEM;
  }
  for (unsigned n = 0; n < HWPROF_COP_NUM_IREGS; n++) s->idxw[n] = 16;
  s->lfsr = 0xace1u;
  return 0;
}

void cop_interp_free(cop_interp_t *s) {
  free(s->uc);
  free(s->cam_key);
  free(s->cam_valid);
  free(s->data);
  s->uc = NULL;
  s->cam_key = NULL;
  s->cam_valid = NULL;
  s->data = NULL;
}

int cop_interp_load(cop_interp_t *s, const hwprof_cop_image_t *img) {
  if (img->n_uc > s->g.uc_depth) return COP_ERR_ARG;
  memset(s->uc, 0, s->g.uc_depth * sizeof *s->uc);
  memcpy(s->uc, img->uc, img->n_uc * sizeof *s->uc);
  memcpy(s->c, img->c, sizeof s->c);
  memcpy(s->base, img->base, sizeof s->base);
  memcpy(s->base_size, img->base_size, sizeof s->base_size);
  memcpy(s->idxw, img->idxw, sizeof s->idxw);
  for (unsigned n = 0; n < HWPROF_COP_NUM_TREGS; n++) s->t[n] = img->t[n] & (s->g.uc_depth - 1u);
  for (unsigned k = 0; k < HWPROF_COP_KINDS; k++) s->dispatch[k] = img->dispatch[k] & (s->g.uc_depth - 1u);
  s->lfsr = img->lfsr;
  s->fields = img->fields;
  return 0;
}

void cop_interp_cam_invalidate(cop_interp_t *s) { memset(s->cam_valid, 0, s->g.cam_entries); }
void cop_interp_data_clear(cop_interp_t *s) { memset(s->data, 0, s->g.data_bytes); }
void cop_interp_resume(cop_interp_t *s) { s->halted = 0; }

static uint32_t wmask(unsigned w) { return w >= 32 ? 0xffffffffu : (1u << w) - 1u; }

static uint32_t idx_get(const cop_interp_t *s, unsigned n) { return s->i[n] & wmask(s->idxw[n]); }

uint32_t cop_interp_data_get(const cop_interp_t *s, uint32_t addr, unsigned bytes) {
  uint32_t v = 0;
  for (unsigned k = 0; k < bytes; k++) v |= (uint32_t)s->data[(addr + k) & (s->g.data_bytes - 1u)] << (8 * k);
  return v;
}

static void data_put(cop_interp_t *s, uint32_t addr, unsigned bytes, uint32_t v) {
  for (unsigned k = 0; k < bytes; k++) s->data[(addr + k) & (s->g.data_bytes - 1u)] = (uint8_t)(v >> (8 * k));
}

/* operand value of a source code */
static uint32_t source(const cop_interp_t *s, const cop_sample_t *x, unsigned code, uint32_t mem) {
  if (code <= HWPROF_COP_SRC_V3) return s->v[code - HWPROF_COP_SRC_V0];
  if (code >= HWPROF_COP_SRC_C0 && code <= HWPROF_COP_SRC_C3) return s->c[code - HWPROF_COP_SRC_C0];
  if (code >= HWPROF_COP_SRC_I0 && code <= HWPROF_COP_SRC_I7) return idx_get(s, code - HWPROF_COP_SRC_I0);
  uint32_t insn = x->insn;
  switch (code) {
    case HWPROF_COP_SRC_MEM: return mem;
    case HWPROF_COP_SRC_S_PC: return x->pc;
    case HWPROF_COP_SRC_S_NPC: return x->npc;
    case HWPROF_COP_SRC_S_INSN: return insn;
    case HWPROF_COP_SRC_S_ADDR: return x->addr;
    case HWPROF_COP_SRC_S_VAL: return x->value;
    case HWPROF_COP_SRC_S_INFO:
      return (uint32_t)(x->kind & 7u) | (uint32_t)(x->taken & 1u) << 3 | (uint32_t)(x->is_call & 1u) << 4 | (uint32_t)(x->is_ret & 1u) << 5;
    case HWPROF_COP_SRC_S_RD: return insn >> 7 & 0x1fu;
    case HWPROF_COP_SRC_S_RS1: return insn >> 15 & 0x1fu;
    case HWPROF_COP_SRC_S_RS2: return insn >> 20 & 0x1fu;
    case HWPROF_COP_SRC_S_F3: return insn >> 12 & 0x7u;
    case HWPROF_COP_SRC_S_IMM: return (uint32_t)((int32_t)insn >> 20);
    case HWPROF_COP_SRC_ZERO: return 0;
    default: return 0; /* reserved codes read 0 */
  }
}

int cop_interp_sample(cop_interp_t *s, const cop_sample_t *in, uint32_t max_steps) {
  if (s->halted) return COP_ERR_HALTED;
  /* the record holds only the selected fields; the info tag always */
  cop_sample_t x = *in;
  if (!(s->fields >> HWPROF_SFIELD_PC & 1u)) x.pc = 0;
  if (!(s->fields >> HWPROF_SFIELD_NPC & 1u)) x.npc = 0;
  if (!(s->fields >> HWPROF_SFIELD_INSN & 1u)) x.insn = 0;
  if (!(s->fields >> HWPROF_SFIELD_ADDR & 1u)) x.addr = 0;
  if (!(s->fields >> HWPROF_SFIELD_VALUE & 1u)) x.value = 0;
  const uint32_t pcmask = s->g.uc_depth - 1u;
  uint32_t pc = s->dispatch[x.kind & 7u];
  for (uint32_t step = 0; step < max_steps; step++) {
    const uint64_t w = s->uc[pc];
    s->executed++;
    const unsigned alu = HWPROF_COP_UI_GET(w, ALU_OP), cam = HWPROF_COP_UI_GET(w, CAM_OP), dop = HWPROF_COP_UI_GET(w, DATA_OP),
                   iop = HWPROF_COP_UI_GET(w, IDX_OP), cond = HWPROF_COP_UI_GET(w, COND), tgt = HWPROF_COP_UI_GET(w, TARGET);
    /* 1. read: the element's address, mem, operands, all before the instruction */
    const unsigned bn = HWPROF_COP_UI_GET(w, DATA_BASE), size = s->base_size[bn] > 2 ? 2u : s->base_size[bn], bytes = 1u << size;
    const uint32_t eaddr = ((s->base[bn] | idx_get(s, HWPROF_COP_UI_GET(w, DATA_IDX)) << size) & (s->g.data_bytes - 1u)) & ~(bytes - 1u);
    const int data_real = dop >= HWPROF_COP_DATA_OP_READ && dop <= HWPROF_COP_DATA_OP_DECS;
    const uint32_t mem = data_real ? cop_interp_data_get(s, eaddr, bytes) : 0;
    const uint32_t a = source(s, &x, HWPROF_COP_UI_GET(w, SRC_A), mem), b = source(s, &x, HWPROF_COP_UI_GET(w, SRC_B), mem);
    /* 2. ALU */
    uint32_t r = a;
    int asat = 0, alu_writes = 1;
    switch (alu) {
      case HWPROF_COP_ALU_OP_MOV: r = a; break;
      case HWPROF_COP_ALU_OP_ADD: r = a + b; break;
      case HWPROF_COP_ALU_OP_SUB: r = a - b; break;
      case HWPROF_COP_ALU_OP_ADDS: r = a + b; if (r < a) { r = 0xffffffffu; asat = 1; } break;
      case HWPROF_COP_ALU_OP_SUBS: if (b > a) { r = 0; asat = 1; } else { r = a - b; } break;
      case HWPROF_COP_ALU_OP_AND: r = a & b; break;
      case HWPROF_COP_ALU_OP_OR: r = a | b; break;
      case HWPROF_COP_ALU_OP_XOR: r = a ^ b; break;
      case HWPROF_COP_ALU_OP_SHL: r = a << (b & 31u); break;
      case HWPROF_COP_ALU_OP_SHR: r = a >> (b & 31u); break;
      case HWPROF_COP_ALU_OP_RAND: r = s->lfsr & b; break;
      default: r = a; alu_writes = 0; break; /* NOP and the reserved codes */
    }
    /* 3. CAM */
    int chit = 0;
    uint32_t match_idx = 0;
    const unsigned ci = HWPROF_COP_UI_GET(w, CAM_IDX);
    const uint32_t centry = idx_get(s, ci) & (s->g.cam_entries - 1u);
    if (cam == HWPROF_COP_CAM_OP_MATCH) {
      for (uint32_t e = 0; e < s->g.cam_entries; e++)
        if (s->cam_valid[e] && s->cam_key[e] == a) {
          chit = 1;
          match_idx = e;
          break;
        }
    } else if (cam == HWPROF_COP_CAM_OP_WRITE) {
      s->cam_key[centry] = a;
      s->cam_valid[centry] = 1;
    } else if (cam == HWPROF_COP_CAM_OP_INVAL) {
      s->cam_valid[centry] = 0;
    }
    /* 4. data */
    int dsat = 0;
    const uint32_t emax = bytes == 4 ? 0xffffffffu : (1u << (8 * bytes)) - 1u;
    if (dop == HWPROF_COP_DATA_OP_WRITE) {
      data_put(s, eaddr, bytes, b);
    } else if (dop == HWPROF_COP_DATA_OP_INCS) {
      uint32_t nv = mem == emax ? emax : mem + 1u;
      data_put(s, eaddr, bytes, nv);
      dsat = nv == emax;
    } else if (dop == HWPROF_COP_DATA_OP_DECS) {
      uint32_t nv = mem == 0 ? 0 : mem - 1u;
      data_put(s, eaddr, bytes, nv);
      dsat = nv == 0;
    }
    /* 5. index */
    int ilim = 0;
    const unsigned ir = HWPROF_COP_UI_GET(w, IDX_REG);
    const uint32_t iw = wmask(s->idxw[ir]), iv = idx_get(s, ir);
    uint32_t inew = iv;
    int iwrite = 1;
    switch (iop) {
      case HWPROF_COP_IDX_OP_INC: inew = (iv + 1u) & iw; ilim = inew == 0; break;
      case HWPROF_COP_IDX_OP_INCS: inew = iv == iw ? iw : iv + 1u; ilim = inew == iw; break;
      case HWPROF_COP_IDX_OP_DECS: inew = iv == 0 ? 0 : iv - 1u; ilim = inew == 0; break;
      case HWPROF_COP_IDX_OP_CLR: inew = 0; break;
      case HWPROF_COP_IDX_OP_LOAD: inew = a & iw; break;
      default: iwrite = 0; break;
    }
    /* 6. write back, the later slot winning */
    if (dop == HWPROF_COP_DATA_OP_READ) s->v[HWPROF_COP_UI_GET(w, DATA_REG)] = mem;
    if (alu_writes) s->v[HWPROF_COP_UI_GET(w, ALU_DST)] = r;
    if (chit) s->i[ci] = match_idx;
    if (iwrite) s->i[ir] = inew;
    if (alu == HWPROF_COP_ALU_OP_RAND) s->lfsr = cop_lfsr_next(s->lfsr);
    /* 7. branch */
    int taken;
    switch (cond) {
      case HWPROF_COP_COND_ALWAYS: taken = 1; break;
      case HWPROF_COP_COND_EQ: taken = a == b; break;
      case HWPROF_COP_COND_NE: taken = a != b; break;
      case HWPROF_COP_COND_LTU: taken = a < b; break;
      case HWPROF_COP_COND_GEU: taken = a >= b; break;
      case HWPROF_COP_COND_Z: taken = r == 0; break;
      case HWPROF_COP_COND_NZ: taken = r != 0; break;
      case HWPROF_COP_COND_ASAT: taken = asat; break;
      case HWPROF_COP_COND_CHIT: taken = chit; break;
      case HWPROF_COP_COND_CMISS: taken = !chit; break;
      case HWPROF_COP_COND_DSAT: taken = dsat; break;
      case HWPROF_COP_COND_NDSAT: taken = !dsat; break;
      case HWPROF_COP_COND_ILIM: taken = ilim; break;
      case HWPROF_COP_COND_NILIM: taken = !ilim; break;
      default: taken = 0; break; /* NONE and the reserved code */
    }
    if (taken && tgt == HWPROF_COP_TARGET_DONE) {
      s->samples++;
      return COP_SAMPLE_DONE;
    }
    if (taken && tgt == HWPROF_COP_TARGET_INTR) {
      s->samples++;
      s->interrupts++;
      s->halted = 1;
      s->intr_pc = pc;
      return COP_SAMPLE_INTR;
    }
    if (taken && hwprof_cop_target_has_offset[tgt]) pc = (uint32_t)((int32_t)pc + hwprof_cop_target_offset[tgt]) & pcmask;
    else if (taken && tgt >= HWPROF_COP_TARGET_T0 && tgt <= HWPROF_COP_TARGET_T3) pc = s->t[tgt - HWPROF_COP_TARGET_T0];
    else pc = (pc + 1u) & pcmask; /* not taken, or a reserved target */
  }
  return COP_ERR_RUNAWAY;
}
