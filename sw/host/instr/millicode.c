/* Millicode profiled through its callers (docs/instrumenter.md, "Per function"): a function with
 * several entry points into code without a decision of its own is not instrumented; instrument.c's
 * analyse() marks it derived when its edge counts follow from its entries', and this file finds what
 * counts each entry (the calls and jumps into it, all from instrumented functions), or takes the
 * profile back with the reason. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "instr_ctx.h"
#include "rv32_isa.h"

/* A derived function loses its profile: why says the reason. */
static void underive(fn_t *d, const char *why) {
  d->derived = false;
  snprintf(d->why, sizeof d->why, "%s", why);
  free(d->pm.blk);
  free(d->pm.edge);
  free(d->pm.src);
  d->pm.blk = NULL;
  d->pm.edge = NULL;
  d->pm.src = NULL;
  d->pm.nblk = d->pm.nedge = d->pm.nsrc = 0;
  d->pm.dispatch = -1;
}

/* The virtual entry edge of derived function d at address t, or -1 when t is no entry point. */
static int entry_edge(const pm_func_t *d, uint32_t t) {
  for (unsigned e = 0; e < d->nedge; e++)
    if (d->edge[e].kind == HWPROF_CFG_VIRTUAL_ENTRY && d->blk[d->edge[e].dst].start == t) return (int)e;
  return -1;
}

/* Whether relocation x makes its target a code address the program takes (for an indirect call or
 * jump, or a trap vector), rather than the target of a direct transfer. */
static bool takes_code_address(const rv32_reloc_t *x) {
  switch (x->type) {
    case R_RISCV_BRANCH: case R_RISCV_JAL: case R_RISCV_CALL: case R_RISCV_CALL_PLT:
    case R_RISCV_PCREL_LO12_I: case R_RISCV_PCREL_LO12_S: case R_RISCV_RELAX: case R_RISCV_ALIGN: return false;
    default: return true;
  }
}

/* Trap code: the function whose address the program writes into mtvec (picolibc's _trap: an auipc
 * or lui with its relocation, then csrw mtvec), and the start-up and trap functions (.init) that
 * nothing but trap code enters, directly, with no address taken. They run only in trap handlers,
 * which no profile counts (docs/pir.md), so calls from them count nothing either. trap[nfn]. */
static void find_trap_code(const ctx_t *c, bool *trap) {
  const hwprof_cfg_prog_t *p = &c->prog;
  for (unsigned r = 0; r < c->elf.nrel; r++) { /* (start-up code need not lie in a function) */
    const rv32_reloc_t *y = &c->elf.rel[r];
    const int t = y->type == R_RISCV_PCREL_HI20 || y->type == R_RISCV_HI20 ? hwprof_cfg_prog_fn_at(p, y->target) : -1;
    const uint8_t *b = t >= 0 && p->fn[t].code.lo == y->target ? hwprof_elf_bytes(&c->elf, y->where, 20) : NULL;
    for (unsigned k = 1; b && k < 5; k++) {
      const uint32_t x = (uint32_t)b[4 * k] | (uint32_t)b[4 * k + 1] << 8 | (uint32_t)b[4 * k + 2] << 16 |
                         (uint32_t)b[4 * k + 3] << 24;
      const unsigned rd = b[0] >> 7 | (b[1] & 0xfu) << 1;
      if ((x & 0xfff07fffu) == ((0x305u << 20) | (1u << 12) | RV32_OP_SYSTEM) && rv32_rs1(x) == rd) trap[t] = true;
    }
  }
  const int entry = hwprof_cfg_prog_fn_at(p, c->elf.entry);
  for (bool changed = true; changed;) {
    changed = false;
    for (unsigned g = 0; g < p->nfn; g++) {
      if (trap[g] || (int)g == entry || strcmp(p->fn[g].section, ".init")) continue;
      bool entered = false, other = false;
      for (unsigned r = 0; r < c->elf.nrel && !other; r++)
        other = c->elf.rel[r].target >= p->fn[g].code.lo && c->elf.rel[r].target < p->fn[g].code.hi &&
                takes_code_address(&c->elf.rel[r]);
      for (unsigned j = 0; j < p->nfn && !other; j++) {
        const hwprof_cfg_code_t *code = &p->fn[j].code;
        for (uint32_t pc = code->lo; pc < code->hi && !other && j != g; pc += 4) {
          uint32_t t;
          const hwprof_cf_t k = hwprof_cfg_classify(code, pc, hwprof_cfg_word(code, pc), &t);
          if (k != HWPROF_CF_CALL && k != HWPROF_CF_JUMP && k != HWPROF_CF_TAIL && k != HWPROF_CF_BRANCH) continue;
          if (t < p->fn[g].code.lo || t >= p->fn[g].code.hi) continue;
          entered = true;
          other = !trap[j];
        }
        if (j + 1 == g && code->hi == p->fn[g].code.lo) { /* the code before may fall into it */
          uint32_t t;
          const hwprof_cf_t k = hwprof_cfg_classify(code, code->hi - 4u, hwprof_cfg_word(code, code->hi - 4u), &t);
          other |= k != HWPROF_CF_JUMP && k != HWPROF_CF_RET && k != HWPROF_CF_TAIL && k != HWPROF_CF_INDIRECT &&
                   k != HWPROF_CF_MRET;
        }
      }
      if (entered && !other) trap[g] = changed = true;
    }
  }
}

/* Where each entry of a derived function is counted: at every direct call or jump to it, all from
 * instrumented functions. A call counts as its block's in-flow when nothing before it in the block
 * can leave (another call, an environment call); a jump as its tail-call edge. Anything else (a
 * caller left out, a call that cannot be counted, a jump into the middle, the code's address taken
 * for an indirect call) and the function stays unprofiled, with that reason. */
int instr_find_sources(ctx_t *c) {
  const hwprof_cfg_prog_t *p = &c->prog;
  char why[160];
  bool *trap = calloc(p->nfn + 1, sizeof *trap);
  if (trap == NULL) ERR("out of memory");
  find_trap_code(c, trap);
  for (unsigned r = 0; r < c->elf.nrel; r++) {
    const rv32_reloc_t *x = &c->elf.rel[r];
    const int d = hwprof_cfg_prog_fn_at(p, x->target);
    if (d < 0 || !c->fn[d].derived || !takes_code_address(x)) continue;
    snprintf(why, sizeof why, "several entry points; its address 0x%08" PRIx32 " is taken at 0x%08" PRIx32
             " (an indirect call there is not counted)", x->target, x->where);
    underive(&c->fn[d], why);
  }
  for (unsigned j = 0; j < p->nfn; j++) {
    const hwprof_cfg_code_t *code = &p->fn[j].code;
    for (uint32_t pc = code->lo; pc < code->hi; pc += 4) {
      uint32_t t;
      const hwprof_cf_t k = hwprof_cfg_classify(code, pc, hwprof_cfg_word(code, pc), &t);
      if (k != HWPROF_CF_CALL && k != HWPROF_CF_JUMP && k != HWPROF_CF_TAIL && k != HWPROF_CF_BRANCH) continue;
      const int d = t ? hwprof_cfg_prog_fn_at(p, t) : -1;
      if (d < 0 || (unsigned)d == j || !c->fn[d].derived) continue;
      pm_func_t *dm = &c->fn[d].pm;
      const int entry = entry_edge(dm, t);
      if (trap[j]) continue; /* runs in trap handlers only: counted by no profile */
      if (!c->fn[j].ok) {
        snprintf(why, sizeof why, "several entry points; entered from %s (0x%08" PRIx32 "), which is not instrumented",
                 p->fn[j].name, pc);
        underive(&c->fn[d], why);
        continue;
      }
      if (entry < 0 || k == HWPROF_CF_BRANCH) {
        snprintf(why, sizeof why, "several entry points; entered at 0x%08" PRIx32 " from 0x%08" PRIx32 ", not by a "
                 "call or jump to one of them", t, pc);
        underive(&c->fn[d], why);
        continue;
      }
      const hwprof_cfg_func_t *g = &p->fn[j].cfg;
      const pm_func_t *cm = &c->fn[j].pm;
      const int b = g->blk_of[(pc - code->lo) / 4u];
      pm_source_t s = {entry, j, PM_NONE, PM_NONE};
      if (k == HWPROF_CF_CALL) {
        s.block = b;
        for (uint32_t a = g->blk[b].start; a < pc && s.block != PM_NONE; a += 4) {
          const hwprof_cf_t ka = hwprof_cfg_classify(code, a, hwprof_cfg_word(code, a), &t);
          if (ka == HWPROF_CF_CALL || ka == HWPROF_CF_ENV) s.block = PM_NONE;
        }
      } else {
        for (unsigned e = 0; e < cm->nedge; e++)
          if (cm->edge[e].src == b && cm->edge[e].kind == HWPROF_CFG_TAIL) s.edge = (int)e;
      }
      if (s.block == PM_NONE && s.edge == PM_NONE) {
        snprintf(why, sizeof why, "several entry points; the call at 0x%08" PRIx32 " in %s follows another call in its "
                 "block", pc, p->fn[j].name);
        underive(&c->fn[d], why);
        continue;
      }
      pm_source_t *n = realloc(dm->src, (dm->nsrc + 1) * sizeof *n);
      if (n == NULL) {
        free(trap);
        ERR("out of memory");
      }
      dm->src = n;
      dm->src[dm->nsrc++] = s;
    }
  }
  free(trap);
  return 0;
}
