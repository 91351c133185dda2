/* The code cache; see codecache.h and docs/dynopt.md. */
#include "codecache.h"

#include "rv32_isa.h"

#define CC_MAX_RETS 16u /* return addresses noted per copy */
#define CC_MAX_EXITS 48u /* a trace holds at most one conditional branch per history bit, plus its end */

bool hwprof_cc_is_code(const hwprof_cc_t *cc, uint32_t a) {
  return (a & 3u) == 0 && a >= cc->c.code_lo && a < cc->c.code_hi;
}
void hwprof_cc_set_origin(hwprof_cc_t *cc, uint32_t a, uint32_t origin) {
  if (cc->c.origin && a >= cc->c.lo && a < cc->c.hi) cc->c.origin[(a - cc->c.lo) / 4u] = origin;
}

uint32_t hwprof_cc_origin(const hwprof_cc_t *cc, uint32_t a) {
  if (a < cc->c.lo || a >= cc->c.hi) return a;
  return cc->c.origin ? cc->c.origin[(a - cc->c.lo) / 4u] : 0u;
}

uint32_t hwprof_cc_invert_hints(uint32_t sh, uint32_t *pid, uint32_t *ihint, uint32_t *setoff) {
  uint32_t s = sh;
  const uint32_t bh = rv32_shadow_bhint(sh), p = rv32_shadow_pid(sh), bh_mask = 3u << HWPROF_SHADOW_BHINT_LSB;
  *pid = *setoff = 0;
  *ihint = rv32_shadow_ihint(sh);
  if (p != 0) {
    if (bh == HWPROF_BHINT_TK) s = (s & ~bh_mask) | HWPROF_BHINT_NT << HWPROF_SHADOW_BHINT_LSB;
    else if (bh == HWPROF_BHINT_NT) s = (s & ~bh_mask) | HWPROF_BHINT_TK << HWPROF_SHADOW_BHINT_LSB;
    else if (bh == HWPROF_BHINT_EITHER) { /* taken edge p: on the fall-through now; not taken p + 1: the new taken way */
      s = (s & ~bh_mask) | HWPROF_BHINT_NT << HWPROF_SHADOW_BHINT_LSB;
      *pid = p + 1u;
    }
  }
  if (rv32_shadow_has_setoff(sh)) {
    if (!rv32_shadow_setoff_nt(sh)) { /* on the taken edge: now the fall-through */
      s |= UINT32_C(1) << HWPROF_SHADOW_SETOFF_NT_LSB;
    } else { /* on the not-taken edge: now the new taken way, where prof.setoff runs after the prof.id */
      *setoff = rv32_shadow_setoff_value(sh) + 1u;
      s &= ~(UINT32_C(0xfff) << HWPROF_SHADOW_SETOFF_LSB); /* bits 31:20: enable, direction, offset */
    }
  }
  return s;
}

static bool apart(uint32_t a_lo, uint32_t a_hi, uint32_t b_lo, uint32_t b_hi) {
  return a_lo == a_hi || b_lo == b_hi || a_hi <= b_lo || b_hi <= a_lo;
}

hwprof_result_t hwprof_cc_init(hwprof_cc_t *cc, hwprof_cc_config_t c) {
  if (cc == NULL || c.mem == NULL || c.patch == NULL || c.patch_cap == 0 || c.exit == NULL || c.exit_cap == 0 ||
      c.mem_words == 0 || ((c.mem_base | c.code_lo | c.code_hi | c.lo | c.hi | c.tramp_lo | c.tramp_hi) & 3u) ||
      c.code_lo >= c.code_hi || c.lo >= c.hi || c.tramp_lo > c.tramp_hi || !apart(c.code_lo, c.code_hi, c.lo, c.hi) ||
      !apart(c.code_lo, c.code_hi, c.tramp_lo, c.tramp_hi) || !apart(c.lo, c.hi, c.tramp_lo, c.tramp_hi))
    return kHwprofBadArg;
  const uint64_t end = (uint64_t)c.mem_base + 4u * (uint64_t)c.mem_words;
  if (c.code_lo < c.mem_base || c.lo < c.mem_base || c.code_hi > end || c.hi > end ||
      (c.tramp_lo != c.tramp_hi && (c.tramp_lo < c.mem_base || c.tramp_hi > end)))
    return kHwprofBadArg;
  *cc = (hwprof_cc_t){.c = c, .next = c.lo, .tramp_next = c.tramp_lo};
  return kHwprofOk;
}

const hwprof_cc_patch_t *hwprof_cc_patch_at(const hwprof_cc_t *cc, uint32_t addr) {
  for (size_t i = 0; i < cc->npatch; i++)
    if (cc->c.patch[i].addr == addr) return &cc->c.patch[i];
  return NULL;
}

static uint32_t jump_word(uint32_t from, uint32_t to) { return rv32_jal(0, (int32_t)(to - from)); }

static void set_patch(hwprof_cc_t *cc, const hwprof_cc_patch_t *p, bool on) {
  *hwprof_cc_word(cc, p->addr) = on ? jump_word(p->addr, p->entry) : p->word;
  uint32_t *sh = hwprof_cc_shadow(cc, p->addr);
  if (sh) *sh = on ? 0u : p->shadow; /* the jump must not count as a profiled transfer */
}

hwprof_result_t hwprof_cc_flush(hwprof_cc_t *cc) {
  if (cc == NULL) return kHwprofBadArg;
  for (size_t i = 0; i < cc->npatch; i++) set_patch(cc, &cc->c.patch[i], false);
  cc->npatch = cc->nexit = 0;
  return kHwprofOk;
}

/* ---- placing a trace */

typedef struct {
  hwprof_cc_t *cc;
  uint32_t start, entry, cur, tramp;
  uint32_t org; /* the origin of the next word put (then 0: the rest of an expansion has none) */
  struct {
    uint32_t at, to;
    bool cached; /* `to` is an address in the cache (an appended copy's branch) */
    uint32_t pid, ihint, setoff; /* an inverted branch's profiling on its way out (hwprof_cc_invert_hints) */
  } branch[CC_MAX_EXITS]; /* branches in the copy that leave it: aimed once the stubs are placed */
  unsigned nbranch;
  hwprof_cc_exit_t exit[CC_MAX_EXITS + 2u]; /* jumps that leave for original code: recorded if placed */
  unsigned nexit;
  hwprof_cc_exit_t ret[CC_MAX_RETS]; /* return addresses of the original code: recorded if placed and room */
  unsigned nret;
  uint32_t gain; /* taken transfers the copy removes from the recorded path */
  hwprof_cc_status_t st;
} emit_t;

static void fail(emit_t *e, hwprof_cc_status_t st) {
  if (e->st == kHwprofCcPlaced) e->st = st;
}

/* The instruction and shadow word the program has at a (a patched start reads as it was). */
static uint32_t orig_word(const hwprof_cc_t *cc, uint32_t a) {
  const hwprof_cc_patch_t *p = hwprof_cc_patch_at(cc, a);
  return p ? p->word : *hwprof_cc_word(cc, a);
}
static uint32_t orig_shadow(const hwprof_cc_t *cc, uint32_t a) {
  const hwprof_cc_patch_t *p = hwprof_cc_patch_at(cc, a);
  return p ? p->shadow : (cc->c.shadow ? *hwprof_cc_shadow(cc, a) : 0u);
}

static void put(emit_t *e, uint32_t word, uint32_t shadow) {
  if (e->st != kHwprofCcPlaced) return;
  if (e->cur >= e->cc->c.hi) {
    fail(e, kHwprofCcNoRoom);
    return;
  }
  *hwprof_cc_word(e->cc, e->cur) = word;
  uint32_t *sh = hwprof_cc_shadow(e->cc, e->cur);
  if (sh) *sh = shadow;
  hwprof_cc_set_origin(e->cc, e->cur, e->org);
  e->org = 0;
  e->cur += 4u;
}

/* rd = v, in two instructions, or one when v's low 12 bits are 0 (what an auipc or a link computed
 * at the original address, or a return address in the cache) */
static void put_const(emit_t *e, unsigned rd, uint32_t v, uint32_t shadow) {
  put(e, rv32_lui(rd, v), shadow); /* an auipc's carrier word goes with it */
  if (rv32_lo12(v) != 0) put(e, rv32_addi(rd, rd, rv32_lo12(v)), 0);
}

/* A copy of a trace placed at a, if any: the copy's own entry for its start, another placed
 * trace's for its start (traces linked, without the patch's jump), else 0. */
static uint32_t copy_of(const emit_t *e, uint32_t a) {
  if (a == e->start) return e->entry;
  const hwprof_cc_patch_t *p = hwprof_cc_patch_at(e->cc, a);
  return p ? p->entry : 0u;
}

/* rd = the return address of a copied call whose original one is r: the copy of the trace placed
 * at r, if any, so that the return goes straight there (without the patch's jump), else r, noted
 * (when it takes a lui and an addi) for a trace placed at r later (link_exits). */
static void put_return(emit_t *e, unsigned rd, uint32_t r) {
  const uint32_t c = copy_of(e, r);
  if (c == 0 && rv32_lo12(r) != 0 && e->nret < CC_MAX_RETS)
    e->ret[e->nret++] = (hwprof_cc_exit_t){e->cur, r, 0, true};
  put_const(e, rd, c ? c : r, 0);
}

/* The trampoline to original address a: an existing one, or one more (committed if placed). */
static uint32_t trampoline(emit_t *e, uint32_t a) {
  const hwprof_cc_t *cc = e->cc;
  for (uint32_t t = cc->c.tramp_lo; t < e->tramp; t += 4u)
    if (*hwprof_cc_word(cc, t) == jump_word(t, a)) return t;
  if (e->tramp >= cc->c.tramp_hi) {
    fail(e, kHwprofCcNoRoom);
    return 0;
  }
  if (!rv32_fits_j((int64_t)a - (int64_t)e->tramp)) {
    fail(e, kHwprofCcTooFar);
    return 0;
  }
  *hwprof_cc_word(cc, e->tramp) = jump_word(e->tramp, a);
  e->tramp += 4u;
  return e->tramp - 4u;
}

/* jal x0 to original address a: to its copy if there is one, else through a trampoline (or
 * straight), recorded as an exit (with the branch whose stub it is, or 0) */
static void put_jump_from(emit_t *e, uint32_t a, uint32_t branch) {
  uint32_t to = copy_of(e, a);
  if (to == 0) {
    if (e->nexit == CC_MAX_EXITS + 2u) {
      fail(e, kHwprofCcNoRoom);
      return;
    }
    e->exit[e->nexit++] = (hwprof_cc_exit_t){e->cur, a, branch, false};
    to = e->cc->c.tramp_lo != e->cc->c.tramp_hi ? trampoline(e, a) : a;
  }
  if (!rv32_fits_j((int64_t)to - (int64_t)e->cur)) fail(e, kHwprofCcTooFar);
  put(e, jump_word(e->cur, to), 0);
}
static void put_jump(emit_t *e, uint32_t a) { put_jump_from(e, a, 0); }

/* a conditional branch whose taken way leaves the copy for address a (original, or in the cache
 * with cached): aimed later */
static void put_exit_branch_to(emit_t *e, uint32_t word, uint32_t shadow, uint32_t a, bool cached) {
  if (e->nbranch == CC_MAX_EXITS) {
    fail(e, kHwprofCcNoRoom);
    return;
  }
  e->branch[e->nbranch].at = e->cur;
  e->branch[e->nbranch].to = a;
  e->branch[e->nbranch].cached = cached;
  e->branch[e->nbranch].pid = e->branch[e->nbranch].ihint = e->branch[e->nbranch].setoff = 0;
  e->nbranch++;
  put(e, word, shadow);
}
static void put_exit_branch(emit_t *e, uint32_t word, uint32_t shadow, uint32_t a) {
  put_exit_branch_to(e, word, shadow, a, false);
}

/* Appends the copy of the trace placed at p, re-aimed: a branch or jump keeps its destination (a
 * jump that is an exit not linked yet stays one, to be linked with the others). */
static void append_copy(emit_t *e, const hwprof_cc_patch_t *p) {
  const hwprof_cc_t *cc = e->cc;
  for (uint32_t w = p->entry; w < p->end && e->st == kHwprofCcPlaced; w += 4u) {
    const uint32_t insn = *hwprof_cc_word(cc, w), sh = cc->c.shadow ? *hwprof_cc_shadow(cc, w) : 0u;
    int32_t off;
    const rv32_cf_t k = rv32_control_flow(insn, &off);
    const uint32_t target = w + (uint32_t)off;
    e->org = cc->c.origin ? cc->c.origin[(w - cc->c.lo) / 4u] : 0u;
    if (k == RV32_CF_BRANCH) {
      put_exit_branch_to(e, insn, sh, target, true);
    } else if (k == RV32_CF_JAL && rv32_rd(insn) == 0) {
      for (size_t i = 0; i < cc->nexit; i++) /* an exit of that copy is one of this copy too */
        if (cc->c.exit[i].at == w) {
          if (e->nexit == CC_MAX_EXITS + 2u) fail(e, kHwprofCcNoRoom);
          else e->exit[e->nexit++] = (hwprof_cc_exit_t){e->cur, cc->c.exit[i].to, 0, false};
          break;
        }
      if (!rv32_fits_j((int64_t)target - (int64_t)e->cur)) fail(e, kHwprofCcTooFar);
      put(e, jump_word(e->cur, target), 0);
    } else {
      /* a return address of that copy still to be re-aimed is one of this copy too (at a lui) */
      for (size_t i = 0; rv32_opcode(insn) == RV32_OP_LUI && i < cc->nexit; i++)
        if (cc->c.exit[i].at == w && cc->c.exit[i].ret) {
          if (e->nret < CC_MAX_RETS) e->ret[e->nret++] = (hwprof_cc_exit_t){e->cur, cc->c.exit[i].to, 0, true};
          break;
        }
      put(e, insn, sh); /* no other instruction of a copy depends on where it is */
    }
  }
  /* a copy's body ends with a jump, unless that jump was linked to the copy right behind it and
     became a nop (link_exits): then the appended body goes on there */
  const uint32_t last = p->end > p->entry ? *hwprof_cc_word(cc, p->end - 4u) : 0u;
  if (rv32_opcode(last) != RV32_OP_JAL && rv32_opcode(last) != RV32_OP_JALR) {
    if (!rv32_fits_j((int64_t)p->end - (int64_t)e->cur)) fail(e, kHwprofCcTooFar);
    put(e, jump_word(e->cur, p->end), 0);
  }
}

/* the exit stubs after the body, one per branch (so that linking can re-aim the branch itself), and
 * every exit branch aimed at its stub (or straight at a copy in reach). An inverted branch whose
 * way out counts an edge or switches region always has its stub (prof.id, prof.setoff, then the
 * jump), and linking re-aims only that jump. */
static void put_stubs(emit_t *e) {
  for (unsigned i = 0; i < e->nbranch && e->st == kHwprofCcPlaced; i++) {
    const uint32_t at = e->branch[i].at, to = e->branch[i].to;
    if (e->branch[i].pid || e->branch[i].setoff) {
      const uint32_t stub = e->cur;
      if (e->branch[i].pid) put(e, rv32_prof(HWPROF_PROF_OP_ID, e->branch[i].ihint, e->branch[i].pid), 0);
      if (e->branch[i].setoff) put(e, rv32_prof(HWPROF_PROF_OP_SETOFF, 0, 0), e->branch[i].setoff - 1u);
      put_jump_from(e, to, 0);
      if (!rv32_fits_b((int64_t)stub - (int64_t)at)) fail(e, kHwprofCcTooFar);
      if (e->st != kHwprofCcPlaced) return;
      uint32_t *w = hwprof_cc_word(e->cc, at);
      *w = rv32_set_b(*w, (int32_t)(stub - at));
      continue;
    }
    uint32_t target = e->branch[i].cached ? to : copy_of(e, to); /* the own entry or a placed trace's */
    if (target == 0 || !rv32_fits_b((int64_t)target - (int64_t)at)) {
      if (e->branch[i].cached) {
        if (!rv32_fits_j((int64_t)to - (int64_t)e->cur)) fail(e, kHwprofCcTooFar);
        target = e->cur;
        put(e, jump_word(e->cur, to), 0);
      } else {
        target = e->cur;
        put_jump_from(e, to, at);
      }
    }
    if (!rv32_fits_b((int64_t)target - (int64_t)at)) {
      fail(e, kHwprofCcTooFar);
      return;
    }
    uint32_t *w = hwprof_cc_word(e->cc, at);
    *w = rv32_set_b(*w, (int32_t)(target - at));
  }
}


/* A jump inside the trace is dropped (its target is copied next); what its shadow word does is kept:
 * a prof.id of the edge it counts (TK or EITHER: a jump is always taken), then a prof.setoff of the
 * region switch it carries. With an origin table and nothing to count, a nop stands in for it, so
 * that the exact profile sees the jump's edge (its origin is the jump). Other profiling bits (a call
 * or return's) cannot be kept: refused. */
static void drop_jump(emit_t *e, uint32_t sh) {
  const uint32_t bh = rv32_shadow_bhint(sh), p = rv32_shadow_pid(sh);
  const bool count = p != 0 && (bh == HWPROF_BHINT_TK || bh == HWPROF_BHINT_EITHER);
  const bool setoff = rv32_shadow_has_setoff(sh) && !rv32_shadow_setoff_nt(sh);
  uint32_t known = 0;
  if (p != 0) known |= rv32_shadow(p, bh, rv32_shadow_ihint(sh));
  if (rv32_shadow_has_setoff(sh)) known |= rv32_shadow_setoff(rv32_shadow_setoff_value(sh), rv32_shadow_setoff_nt(sh));
  if (sh != known) {
    fail(e, kHwprofCcProfiled);
    return;
  }
  if (count) put(e, rv32_prof(HWPROF_PROF_OP_ID, rv32_shadow_ihint(sh), p), 0);
  if (setoff) put(e, rv32_prof(HWPROF_PROF_OP_SETOFF, 0, 0), rv32_shadow_setoff_value(sh));
  if (!count && !setoff && e->cc->c.origin) put(e, rv32_addi(0, 0, 0), 0);
}

/* Copies instruction i of the trace; returns false when the copy ends there. */
static bool copy_insn(emit_t *e, const uint32_t *pcs, size_t n, size_t i) {
  hwprof_cc_t *cc = e->cc;
  const uint32_t pc = pcs[i], insn = orig_word(cc, pc), sh = orig_shadow(cc, pc);
  const bool last = i + 1u == n;
  const uint32_t next = last ? 0u : pcs[i + 1u];
  e->org = pc;
  const unsigned rd = rv32_rd(insn);
  int32_t off;
  rv32_cf_t k = rv32_control_flow(insn, &off);
  const uint32_t target = pc + (uint32_t)off;
  const hwprof_cc_patch_t *placed = i > 0 ? hwprof_cc_patch_at(cc, pc) : NULL;
  if (placed) { /* another trace's start: its copy appended, or a jump to it */
    e->org = 0;
    if ((placed->end - placed->entry) / 4u <= HWPROF_CC_APPEND_MAX) {
      append_copy(e, placed);
      e->gain++; /* the patch's jump */
    } else {
      put_jump(e, pc);
    }
    return false;
  }
  /* a semihosting call is three instructions the host recognizes in place: it runs there */
  const bool semihost =
      insn == RV32_INSN_SEMIHOST_PRE && hwprof_cc_is_code(cc, pc + 4u) && orig_word(cc, pc + 4u) == RV32_INSN_EBREAK;
  /* auipc rs1 then jalr through rs1 (a call or tail call unrelaxed): its target is known */
  const uint32_t before = i > 0 && pcs[i - 1u] == pc - 4u ? orig_word(cc, pc - 4u) : 0u;
  const bool pair = k == RV32_CF_JALR && sh == 0 && rv32_opcode(before) == RV32_OP_AUIPC &&
                    rv32_rd(before) == rv32_rs1(insn) && rv32_rs1(insn) != 0;
  if (pair) {
    if (rd != 0) put_return(e, rd, pc + 4u);
    put_jump(e, (pc - 4u + rv32_imm_u(before) + (uint32_t)rv32_imm_i(insn)) & ~UINT32_C(1));
    return false;
  }
  if (semihost || k == RV32_CF_SYSTEM || (k == RV32_CF_JALR && rd != 0 && (rd == rv32_rs1(insn) || sh != 0))) {
    if (i == 0) fail(e, kHwprofCcFirstInsn);
    e->org = 0;
    put_jump(e, pc); /* left to the original code */
    return false;
  }
  switch (k) {
    case RV32_CF_NONE:
      if (rv32_opcode(insn) == RV32_OP_AUIPC && rd != 0) {
        /* an unrelaxed call's auipc ra: the jalr after it overwrites ra (and needs no base, above) */
        const uint32_t after = !last && next == pc + 4u ? orig_word(cc, next) : 0u;
        /* (kept with an origin table: the exact profile must see every instruction's origin) */
        const bool dead = rv32_opcode(after) == RV32_OP_JALR && rv32_rs1(after) == rd && rv32_rd(after) == rd &&
                          (!cc->c.shadow || orig_shadow(cc, next) == 0) && sh == 0 && cc->c.origin == NULL;
        if (!dead) put_const(e, rd, pc + rv32_imm_u(insn), sh);
      } else {
        put(e, insn, sh);
      }
      if (last) {
        put_jump(e, pc + 4u);
        return false;
      }
      if (next != pc + 4u) fail(e, kHwprofCcBadTrace);
      return true;
    case RV32_CF_BRANCH:
      if (last) { /* both ways leave (or loop to the entry) */
        put_exit_branch(e, insn, sh, target);
        put_jump(e, pc + 4u);
        return false;
      }
      if (next == target && target != pc + 4u) { /* taken: inverted, so that the trace falls through */
        uint32_t pid, ihint, setoff;
        const uint32_t s = hwprof_cc_invert_hints(sh, &pid, &ihint, &setoff);
        put_exit_branch(e, insn ^ (1u << 12), s, pc + 4u); /* beq/bne, blt/bge, bltu/bgeu differ in funct3[0] */
        e->gain++;
        if (e->st == kHwprofCcPlaced) {
          e->branch[e->nbranch - 1u].pid = pid;
          e->branch[e->nbranch - 1u].ihint = ihint;
          e->branch[e->nbranch - 1u].setoff = setoff;
        }
      } else if (next == pc + 4u) {
        put_exit_branch(e, insn, sh, target);
      } else {
        fail(e, kHwprofCcBadTrace);
      }
      return true;
    case RV32_CF_JAL:
      if (rd != 0 && sh != 0) fail(e, kHwprofCcProfiled);
      if (rd != 0) put_return(e, rd, pc + 4u); /* a call */
      if (last) { /* the jump's word carries its origin, or the profiling it does goes first */
        if (rd == 0 && sh != 0) drop_jump(e, sh);
        put_jump(e, target);
        return false;
      }
      if (next != target) fail(e, kHwprofCcBadTrace);
      if (rd == 0) drop_jump(e, sh);
      e->gain++;
      return true;
    case RV32_CF_JALR:
      if (!last) {
        fail(e, kHwprofCcBadTrace);
        return false;
      }
      if (rd != 0) { /* an indirect call: its return address, then a plain indirect jump */
        put_return(e, rd, pc + 4u);
        put(e, insn & ~(0x1fu << 7), 0);
      } else {
        put(e, insn, sh);
      }
      return false;
    default:
      fail(e, kHwprofCcBadTrace);
      return false;
  }
}

/* Every recorded exit to the new trace's start jumps to its copy now (and is no longer an exit), and
 * every recorded return address to it loads the copy's address. */
static void link_exits(hwprof_cc_t *cc, uint32_t start, uint32_t entry) {
  for (size_t i = 0; i < cc->nexit;) {
    const hwprof_cc_exit_t x = cc->c.exit[i];
    if (x.to == start && x.ret) { /* put_return's lui and addi (r's low 12 bits are not 0) */
      uint32_t *lui = hwprof_cc_word(cc, x.at), *addi = hwprof_cc_word(cc, x.at + 4u);
      const unsigned rd = rv32_rd(*lui);
      *lui = rv32_lui(rd, entry);
      *addi = rv32_addi(rd, rd, rv32_lo12(entry));
      cc->c.exit[i] = cc->c.exit[--cc->nexit];
      cc->returns_linked++;
    } else if (x.to == start && !x.ret && rv32_fits_j((int64_t)entry - (int64_t)x.at)) {
      /* a jump to the next word is a nop: no taken transfer (the copy was placed right behind) */
      *hwprof_cc_word(cc, x.at) = entry == x.at + 4u ? rv32_addi(0, 0, 0) : jump_word(x.at, entry);
      if (x.branch && rv32_fits_b((int64_t)entry - (int64_t)x.branch)) { /* the stub is left unused */
        uint32_t *w = hwprof_cc_word(cc, x.branch);
        *w = rv32_set_b(*w, (int32_t)(entry - x.branch));
      }
      cc->c.exit[i] = cc->c.exit[--cc->nexit];
      cc->linked++;
    } else {
      i++;
    }
  }
}

/* The noted return addresses leave the exit table to the jumps, which must be linked (a return
 * address left as it is stays correct). */
static void drop_returns(hwprof_cc_t *cc) {
  size_t n = 0;
  for (size_t i = 0; i < cc->nexit; i++)
    if (!cc->c.exit[i].ret) cc->c.exit[n++] = cc->c.exit[i];
  cc->nexit = n;
}

hwprof_cc_status_t hwprof_cc_place_trace(hwprof_cc_t *cc, const uint32_t *pcs, size_t n, uint32_t *entry) {
  if (cc == NULL || pcs == NULL || entry == NULL || n == 0) return kHwprofCcBadTrace;
  hwprof_cc_status_t st = kHwprofCcPlaced;
  int32_t off0;
  const uint32_t w0 = hwprof_cc_is_code(cc, pcs[0]) ? *hwprof_cc_word(cc, pcs[0]) : 0u;
  const bool sent = rv32_control_flow(w0, &off0) == RV32_CF_JAL && rv32_rd(w0) == 0 &&
                    pcs[0] + (uint32_t)off0 >= cc->c.lo && pcs[0] + (uint32_t)off0 < cc->c.hi;
  if (hwprof_cc_patch_at(cc, pcs[0]) || sent) { /* a trace's start, or a word the re-layout sends to the cache */
    st = kHwprofCcAlreadyPlaced;
  } else if (cc->npatch == cc->c.patch_cap) {
    st = kHwprofCcNoRoom;
  } else {
    for (size_t i = 0; i < n && st == kHwprofCcPlaced; i++)
      if (!hwprof_cc_is_code(cc, pcs[i])) st = kHwprofCcNotCode;
  }
  /* the host recognizes a semihosting call by the words around its ebreak: the one after it must
     stay (the ebreak and the one before cannot start a copy anyway) */
  if (st == kHwprofCcPlaced && pcs[0] - 8u >= cc->c.code_lo && *hwprof_cc_word(cc, pcs[0] - 4u) == RV32_INSN_EBREAK &&
      *hwprof_cc_word(cc, pcs[0] - 8u) == RV32_INSN_SEMIHOST_PRE)
    st = kHwprofCcFirstInsn;
  if (st != kHwprofCcPlaced) {
    cc->refused[st]++;
    return st;
  }
  /* its scalars set one by one: the tables are written before they are read, and clearing the whole
     (some 2.5 KB, picolibc's byte-wise memset) cost some 15,000 instructions a trace on the target */
  emit_t e;
  e.cc = cc;
  e.start = pcs[0];
  e.entry = e.cur = cc->next;
  e.tramp = cc->tramp_next;
  e.org = 0;
  e.nbranch = e.nexit = e.nret = 0;
  e.gain = 0;
  e.st = kHwprofCcPlaced;
  for (size_t i = 0; i < n && e.st == kHwprofCcPlaced; i++)
    if (!copy_insn(&e, pcs, n, i)) break;
  const uint32_t body_end = e.cur;
  if (e.gain < cc->c.min_gain) fail(&e, kHwprofCcNoGain);
  e.org = 0;
  put_stubs(&e);
  if (!rv32_fits_j((int64_t)e.entry - (int64_t)e.start)) fail(&e, kHwprofCcTooFar);
  if (e.st == kHwprofCcPlaced && cc->nexit + e.nexit > cc->c.exit_cap) drop_returns(cc); /* jumps first */
  if (e.st == kHwprofCcPlaced && cc->nexit + e.nexit > cc->c.exit_cap) fail(&e, kHwprofCcNoRoom);
  if (e.st != kHwprofCcPlaced) {
    cc->refused[e.st]++;
    return e.st;
  }
  link_exits(cc, e.start, e.entry);
  for (unsigned i = 0; i < e.nexit; i++) cc->c.exit[cc->nexit++] = e.exit[i];
  /* the return addresses as room allows (one not noted keeps its original value: correct, and its
     return goes through the patch) */
  for (unsigned i = 0; i < e.nret && cc->nexit < cc->c.exit_cap; i++) cc->c.exit[cc->nexit++] = e.ret[i];
  hwprof_cc_patch_t *p = &cc->c.patch[cc->npatch++];
  p->addr = e.start;
  p->word = *hwprof_cc_word(cc, e.start);
  p->shadow = cc->c.shadow ? *hwprof_cc_shadow(cc, e.start) : 0u;
  p->entry = e.entry;
  p->end = body_end;
  set_patch(cc, p, true);
  cc->placed++;
  cc->insns_in += (uint32_t)n;
  cc->words_out += (e.cur - e.entry) / 4u;
  cc->next = e.cur;
  cc->tramp_next = e.tramp;
  *entry = e.entry;
  return kHwprofCcPlaced;
}

const char *hwprof_cc_status_str(hwprof_cc_status_t s) {
  switch (s) {
    case kHwprofCcPlaced: return "placed";
    case kHwprofCcNoRoom: return "no room in the cache, the trampolines, the patch or the exit table";
    case kHwprofCcTooFar: return "an offset does not fit its field";
    case kHwprofCcNotCode: return "an address outside the program's code";
    case kHwprofCcAlreadyPlaced: return "a trace already starts there";
    case kHwprofCcFirstInsn: return "its first instruction cannot run from the cache";
    case kHwprofCcProfiled: return "a changed instruction carries profiling bits";
    case kHwprofCcBadTrace: return "not a path of the code";
    case kHwprofCcCannotMove: return "a block the copy cannot reproduce";
    case kHwprofCcNoGain: return "the copy would straighten too few taken transfers";
    default: return "unknown";
  }
}
