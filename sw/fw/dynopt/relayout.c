/* Block re-layout at run time; see relayout.h and docs/dynopt.md. */
#include "relayout.h"

#include "rv32_isa.h"

#define RL_MAX_STUBS 128u /* stubs waiting for the end of a chain of fall-throughs */

hwprof_result_t hwprof_rl_init(hwprof_rl_t *rl, hwprof_cc_t *cc, hwprof_rl_patch_t *patch, size_t patch_cap,
                               hwprof_rl_func_t *func, size_t func_cap, uint32_t *copy, size_t copy_cap) {
  if (rl == NULL || cc == NULL || patch == NULL || patch_cap == 0 || func == NULL || func_cap == 0 || copy == NULL ||
      copy_cap == 0)
    return kHwprofBadArg;
  *rl = (hwprof_rl_t){.cc = cc, .patch = patch, .patch_cap = patch_cap, .func = func, .func_cap = func_cap,
                      .copy = copy, .copy_cap = copy_cap};
  return kHwprofOk;
}

const hwprof_rl_func_t *hwprof_rl_func_at(const hwprof_rl_t *rl, uint32_t lo) {
  for (size_t i = 0; i < rl->nfunc; i++)
    if (rl->func[i].lo == lo) return &rl->func[i];
  return NULL;
}

/* ---- the copy */

typedef struct {
  uint32_t at;     /* the branch whose taken way the stub is */
  uint32_t pid;    /* prof.id of the edge it counts (0: none) ... */
  uint32_t ihint;  /* ... with this increment hint */
  uint32_t pid2;   /* 5B: then prof.id (INC) of the other edge (0: none) */
  uint32_t setoff; /* prof.setoff operand + 1 (0: none) */
  uint32_t to;     /* then a jump to this program address (its copy if it is a block) */
} stub_t;

typedef struct {
  hwprof_rl_t *rl;
  const hwprof_rl_block_t *blk;
  size_t n;
  const hwprof_rl_func_t *prev; /* the function's patches from an earlier layout, or NULL */
  hwprof_rl_patch_t *fpatch;    /* the function's patches (an earlier layout's, or new ones) ... */
  size_t fnpatch;               /* ... by address */
  uint8_t *flags;               /* per block: HWPROF_RL_* (NULL: HWPROF_RL_INVERT) */
  bool dry;                     /* the first pass only measures (the copy addresses) */
  uint32_t cur;
  stub_t stub[RL_MAX_STUBS];
  unsigned nstub;
  hwprof_cc_status_t st;
} emit_t;

static void fail(emit_t *e, hwprof_cc_status_t st) {
  if (e->st == kHwprofCcPlaced) e->st = st;
}

/* The block starting at a (binary search: blk is by address), or SIZE_MAX. */
static size_t block_at(const emit_t *e, uint32_t a) {
  size_t lo = 0, hi = e->n;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2u;
    if (e->blk[mid].lo < a) lo = mid + 1u;
    else hi = mid;
  }
  return lo < e->n && e->blk[lo].lo == a ? lo : SIZE_MAX;
}

/* The patch at a among p[0..n) (by address), or NULL. */
static hwprof_rl_patch_t *patch_in(hwprof_rl_patch_t *p, size_t n, uint32_t a) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2u;
    if (p[mid].addr < a) lo = mid + 1u;
    else hi = mid;
  }
  return lo < n && p[lo].addr == a ? &p[lo] : NULL;
}

/* An earlier layout's patch at a, or NULL. */
static const hwprof_rl_patch_t *old_patch(const emit_t *e, uint32_t a) {
  return e->prev ? patch_in(&e->rl->patch[e->prev->first], e->prev->n, a) : NULL;
}

/* Whether w could be a patch: a patch is always a jal x0 (set_jump), so any other word is the
 * program's own and needs no look-up. */
static bool may_be_patch(uint32_t w) { return rv32_opcode(w) == RV32_OP_JAL && rv32_rd(w) == 0; }

/* The program's instruction and shadow word at a, as they were before any patch. */
static uint32_t orig_word(const emit_t *e, uint32_t a) {
  const uint32_t w = *hwprof_cc_word(e->rl->cc, a);
  const hwprof_rl_patch_t *p = may_be_patch(w) ? old_patch(e, a) : NULL;
  return p ? p->word : w;
}
static uint32_t orig_shadow(const emit_t *e, uint32_t a) {
  const hwprof_rl_patch_t *p = may_be_patch(*hwprof_cc_word(e->rl->cc, a)) ? old_patch(e, a) : NULL;
  return p ? p->shadow : (e->rl->cc->c.shadow ? *hwprof_cc_shadow(e->rl->cc, a) : 0u);
}

static void put(emit_t *e, uint32_t word, uint32_t shadow, uint32_t origin) {
  if (e->st != kHwprofCcPlaced) return;
  hwprof_cc_t *cc = e->rl->cc;
  if (e->cur >= cc->c.hi) {
    fail(e, kHwprofCcNoRoom);
    return;
  }
  if (!e->dry) {
    *hwprof_cc_word(cc, e->cur) = word;
    uint32_t *sh = hwprof_cc_shadow(cc, e->cur);
    if (sh) *sh = shadow;
    hwprof_cc_set_origin(cc, e->cur, origin);
  }
  e->cur += 4u;
}

/* Where a transfer to program address a goes in the copy: the copy of the block there, else a. */
static uint32_t dest(const emit_t *e, uint32_t a) {
  const size_t b = block_at(e, a);
  return b == SIZE_MAX ? a : e->rl->copy[b];
}

/* The words a layout patches: every block start and, after a prof.init at a block start, the word
 * where direct calls land. */
static bool lands_after(const emit_t *e, uint32_t lo, uint32_t hi) {
  const uint32_t w = orig_word(e, lo);
  return hi > lo + 4u && rv32_opcode(w) == RV32_OP_PROF && rv32_funct3(w) == HWPROF_PROF_OP_INIT;
}

/* Where a transfer to a ends up through the jumps layouts wrote: a patched word of the program, an
 * earlier copy's patched entry (a jal x0 into the cache that is the cache's own word, origin 0),
 * followed to the end of the chain. A copied instruction is not (its origin says so; without an
 * origin table nothing in the cache is followed). */
static uint32_t resolve(const hwprof_cc_t *cc, uint32_t a) {
  for (unsigned k = 0; k < 8u; k++) {
    const bool in_cache = a >= cc->c.lo && a < cc->c.hi;
    if (in_cache ? cc->c.origin == NULL || hwprof_cc_origin(cc, a) != 0 : !hwprof_cc_is_code(cc, a)) break;
    const uint32_t w = *hwprof_cc_word(cc, a);
    int32_t off;
    if (rv32_control_flow(w, &off) != RV32_CF_JAL || rv32_rd(w) != 0) break;
    const uint32_t to = a + (uint32_t)off;
    if (to < cc->c.lo || to >= cc->c.hi) break; /* a layout's jumps lead into the cache */
    a = to;
  }
  return a;
}

/* Where a call to address a goes: the current copy of a function laid out whose entry (or landing)
 * is a, directly or through an earlier copy's (a copy made before the callee's latest layout calls
 * an earlier copy), else a. */
static uint32_t call_dest(const hwprof_rl_t *rl, uint32_t a) {
  for (size_t i = 0; i < rl->nfunc; i++) {
    const hwprof_rl_patch_t *p = &rl->patch[rl->func[i].first];
    if (p[0].addr == a) return p[0].to;
    if (rl->func[i].n > 1u && p[1].landing == kHwprofRlInitLanding && p[1].addr == a) return p[1].to;
  }
  return resolve(rl->cc, a);
}

/* ... and from the function being copied: its own entry and landing go to this copy (recursion) */
static uint32_t call_dest_from(const emit_t *e, uint32_t a) {
  if (a == e->blk[0].lo) return e->rl->copy[0];
  if (a == e->blk[0].lo + 4u && e->blk[0].hi > a && lands_after(e, e->blk[0].lo, e->blk[0].hi)) return e->rl->copy[0] + 4u;
  return call_dest(e->rl, a);
}

/* A call: its return address is the next word. */
static bool is_call(uint32_t w) {
  const uint32_t op = rv32_opcode(w);
  return (op == RV32_OP_JAL || op == RV32_OP_JALR) && rv32_rd(w) != 0;
}

/* The words of block b that a layout patches (docs/dynopt.md): its start, the word after its
 * prof.init, the word after each call inside it; into out[] if not NULL. Returns how many. *safe
 * (if not NULL) is cleared when a call's return cannot be patched (a semihosting sequence follows:
 * the host reads those words in place), so that the old block could run its branch again. */
static size_t block_patches(const emit_t *e, size_t b, hwprof_rl_patch_t *out, bool *safe) {
  const uint32_t lo = e->blk[b].lo, hi = e->blk[b].hi;
  size_t n = 0;
  const bool init = lands_after(e, lo, hi);
  for (uint32_t a = lo; a < hi; a += 4u) {
    uint32_t kind;
    if (a == lo) kind = kHwprofRlBlockStart;
    else if (a == lo + 4u && init) kind = kHwprofRlInitLanding;
    else if (is_call(orig_word(e, a - 4u)) && orig_word(e, a) != RV32_INSN_SEMIHOST_PRE) kind = kHwprofRlReturn;
    else {
      if (is_call(orig_word(e, a - 4u)) && safe) *safe = false;
      continue;
    }
    if (out) out[n] = (hwprof_rl_patch_t){a, orig_word(e, a), orig_shadow(e, a), 0, kind, 0};
    n++;
  }
  return n;
}

/* jal rd to program address a (its copy if a block starts there) */
static void put_jal(emit_t *e, unsigned rd, uint32_t a, uint32_t shadow, uint32_t origin) {
  const uint32_t to = dest(e, a);
  if (!e->dry && !rv32_fits_j((int64_t)to - (int64_t)e->cur)) fail(e, kHwprofCcTooFar);
  put(e, rv32_jal(rd, (int32_t)(to - e->cur)), shadow, origin);
}

/* a conditional branch (word w without its offset) to program address a, or to the cache address
 * a with to_cache */
static void put_branch(emit_t *e, uint32_t w, uint32_t shadow, uint32_t origin, uint32_t a, bool to_cache) {
  const uint32_t to = to_cache ? a : dest(e, a);
  if (!e->dry && !rv32_fits_b((int64_t)to - (int64_t)e->cur)) fail(e, kHwprofCcTooFar);
  put(e, rv32_set_b(w, (int32_t)(to - e->cur)), shadow, origin);
}

/* The stubs waiting since the last unconditional transfer: each inverted branch is aimed at its
 * own (in the dry pass, at nothing). */
static void put_stubs(emit_t *e) {
  for (unsigned i = 0; i < e->nstub && e->st == kHwprofCcPlaced; i++) {
    const stub_t *s = &e->stub[i];
    if (!e->dry) {
      const uint32_t *w = hwprof_cc_word(e->rl->cc, s->at);
      if (!rv32_fits_b((int64_t)e->cur - (int64_t)s->at)) fail(e, kHwprofCcTooFar);
      else *hwprof_cc_word(e->rl->cc, s->at) = rv32_set_b(*w, (int32_t)(e->cur - s->at));
    }
    if (s->pid) put(e, rv32_prof(HWPROF_PROF_OP_ID, s->ihint, s->pid), 0, 0);
    if (s->pid2) put(e, rv32_prof(HWPROF_PROF_OP_ID, HWPROF_IHINT_INC, s->pid2), 0, 0);
    if (s->setoff) put(e, rv32_prof(HWPROF_PROF_OP_SETOFF, 0, 0), s->setoff - 1u, 0);
    put_jal(e, 0, s->to, 0, 0);
    e->rl->stubs += !e->dry;
  }
  e->nstub = 0;
}

static bool add_stub(emit_t *e, stub_t st) {
  if (e->nstub == RL_MAX_STUBS) {
    fail(e, kHwprofCcNoRoom);
    return false;
  }
  e->stub[e->nstub++] = st;
  return true;
}

/* Block b's branch as a scheme 5B pair (docs/dynopt.md): w (inverted or not) taken to c's stub, h
 * falling through; sh its shadow word (EITHER, pid p: the program's taken edge p, not-taken p + 1),
 * c_taken whether c is the program's taken edge, c_to where c leads. */
static void copy_branch_5b(emit_t *e, uint32_t pc, uint32_t w, uint32_t sh, bool c_taken, uint32_t c_to) {
  const uint32_t p = rv32_shadow_pid(sh), pc_ = c_taken ? p : p + 1u, ph = c_taken ? p + 1u : p;
  const uint32_t hint_mask = (3u << HWPROF_SHADOW_BHINT_LSB) | (1u << HWPROF_SHADOW_IHINT_LSB) |
                             (((UINT32_C(1) << HWPROF_SHADOW_PID_W) - 1u) << HWPROF_SHADOW_PID_LSB);
  uint32_t s = (sh & ~hint_mask) | rv32_shadow(pc_, HWPROF_BHINT_NT, HWPROF_IHINT_DEC), setoff = 0;
  if (rv32_shadow_has_setoff(sh)) {
    if (rv32_shadow_setoff_nt(sh) == c_taken) { /* on h's way: it stays on the branch, h now not taken */
      s |= UINT32_C(1) << HWPROF_SHADOW_SETOFF_NT_LSB;
    } else { /* on c's way: after the stub's prof.id, which count in the branch's region */
      setoff = rv32_shadow_setoff_value(sh) + 1u;
      s &= ~(UINT32_C(0xfff) << HWPROF_SHADOW_SETOFF_LSB);
    }
  }
  if (add_stub(e, (stub_t){e->cur, pc_, HWPROF_IHINT_INC, ph, setoff, c_to}))
    put_branch(e, w, s, pc, e->cur, true); /* aimed at its stub later */
}

/* Block b's branch at pc (its last instruction) to t, falling into f; next: the program address of
 * the block copied after b (0: none). Returns whether the copy ends in an unconditional transfer. */
static bool copy_branch(emit_t *e, size_t b, uint32_t pc, uint32_t w, uint32_t sh, uint32_t t, uint32_t f,
                        uint32_t next) {
  const uint8_t fl = e->flags ? e->flags[b] : HWPROF_RL_INVERT;
  const bool invert = next == t && t != f && (fl & HWPROF_RL_INVERT);
  /* 5B where the hints count both edges and no old version of the block can run its branch again */
  bool safe = true;
  if ((fl & HWPROF_RL_5B) && t != f && rv32_shadow_bhint(sh) == HWPROF_BHINT_EITHER && rv32_shadow_pid(sh) != 0)
    (void)block_patches(e, b, NULL, &safe);
  else
    safe = false;
  if (e->flags) e->flags[b] = (uint8_t)((fl & ~HWPROF_RL_5B_DONE) | (safe ? HWPROF_RL_5B_DONE : 0u));
  if (safe) { /* h, the edge the caller names, falls through (to a jump if its block does not come next) */
    const bool h_taken = fl & HWPROF_RL_5B_H_TAKEN;
    const uint32_t h_to = h_taken ? t : f;
    copy_branch_5b(e, pc, h_taken ? w ^ (1u << 12) : w, sh, !h_taken, h_taken ? f : t);
    if (h_to == next) return false;
    put_jal(e, 0, h_to, 0, 0);
    return true;
  }
  if (!invert) { /* kept: taken to t, then f by falling through or a jump */
    put_branch(e, w, sh, pc, t, false);
    if (f == next) return false;
    put_jal(e, 0, f, 0, 0);
    return true;
  }
  /* inverted: taken now leaves for f, the fall-through is t; the hints follow the edges */
  uint32_t pid, ihint, setoff;
  const uint32_t s = hwprof_cc_invert_hints(sh, &pid, &ihint, &setoff);
  if (pid == 0 && setoff == 0) { /* nothing to do on the way out: straight there */
    put_branch(e, w ^ (1u << 12), s, pc, f, false);
    return false;
  }
  if (add_stub(e, (stub_t){e->cur, pid, ihint, 0, setoff, f}))
    put_branch(e, w ^ (1u << 12), s, pc, e->cur, true); /* aimed at its stub later */
  return false;
}

/* auipc w and the next instruction w1 compute one address that only w1's result holds: a call
 * through the link register the auipc set (jalr r, imm(r), r = ra or t0), or addi r, r, imm. */
static bool auipc_pair(uint32_t w, uint32_t w1) {
  const unsigned r = rv32_rd(w);
  if (r == 0 || rv32_rs1(w1) != r || rv32_rd(w1) != r || rv32_funct3(w1) != 0) return false;
  return (rv32_opcode(w1) == RV32_OP_JALR && rv32_is_link_reg(r)) || rv32_opcode(w1) == RV32_OP_IMM;
}

/* Copies block b; next is the program address of the block copied after it (0: none). */
static void copy_block(emit_t *e, size_t b, uint32_t next) {
  const hwprof_cc_t *cc = e->rl->cc;
  const uint32_t lo = e->blk[b].lo, hi = e->blk[b].hi;
  bool uncond = false; /* the copy ends in an unconditional transfer */
  bool after_call = false;
  e->rl->copy[b] = e->cur;
  for (uint32_t pc = lo; pc < hi && e->st == kHwprofCcPlaced; pc += 4u) {
    const uint32_t w = orig_word(e, pc), sh = orig_shadow(e, pc);
    if (after_call && !e->dry) { /* a call returns here: where it lands in this copy */
      hwprof_rl_patch_t *p = patch_in(e->fpatch, e->fnpatch, pc);
      if (p && p->landing == kHwprofRlReturn) p->next = e->cur;
    }
    after_call = is_call(w);
    const bool last = pc + 4u == hi;
    int32_t off;
    const rv32_cf_t k = rv32_control_flow(w, &off);
    const uint32_t target = pc + (uint32_t)off;
    uncond = false;
    switch (k) {
      case RV32_CF_BRANCH: {
        uint32_t t = target;
        if (block_at(e, t) == SIZE_MAX && hwprof_cc_is_code(cc, t)) { /* a relaxed branch's island: jal x0 to a block */
          const uint32_t iw = orig_word(e, t);
          int32_t ioff;
          if (rv32_control_flow(iw, &ioff) == RV32_CF_JAL && rv32_rd(iw) == 0 &&
              block_at(e, t + (uint32_t)ioff) != SIZE_MAX && orig_shadow(e, t) == 0)
            t += (uint32_t)ioff;
        }
        if (last) uncond = copy_branch(e, b, pc, w, sh, t, hi, next);
        else put_branch(e, w, sh, pc, t, false); /* what follows it in its block (a region switch of its
                                                    not-taken edge) runs on the way it falls through */
        break;
      }
      case RV32_CF_JAL: /* a jump (kept, with its hint: it may count its edge) or a call */
        put_jal(e, rv32_rd(w), rv32_rd(w) ? call_dest_from(e, target) : target, sh, pc);
        uncond = rv32_rd(w) == 0;
        break;
      case RV32_CF_JALR:
        put(e, w, sh, pc);
        uncond = rv32_rd(w) == 0;
        break;
      default:
        if (rv32_opcode(w) == RV32_OP_AUIPC && pc + 4u < hi && auipc_pair(w, orig_word(e, pc + 4u))) {
          /* auipc and the instruction that completes its address (a call through the link register,
             or addi into the same register): the pair re-encoded relative to where it is now */
          const uint32_t w1 = orig_word(e, pc + 4u), sh1 = orig_shadow(e, pc + 4u);
          uint32_t v = pc + rv32_imm_u(w) + (uint32_t)rv32_imm_i(w1);
          if (rv32_opcode(w1) == RV32_OP_JALR) v = call_dest_from(e, v);
          const uint32_t off = v - e->cur;
          put(e, rv32_set_u(w, rv32_hi20(off)), sh, pc);
          put(e, rv32_set_i(w1, rv32_lo12(off)), sh1, pc + 4u);
          pc += 4u;
          after_call = is_call(w1);
          uncond = rv32_opcode(w1) == RV32_OP_JALR && rv32_rd(w1) == 0;
        } else if (rv32_opcode(w) == RV32_OP_AUIPC) {
          const uint32_t v = pc + rv32_imm_u(w);
          const unsigned rd = rv32_rd(w);
          put(e, rv32_lui(rd, v), sh, pc); /* its carrier word goes with it */
          if (rv32_lo12(v) != 0) put(e, rv32_addi(rd, rd, rv32_lo12(v)), 0, 0);
        } else {
          put(e, w, sh, pc);
        }
        break;
    }
  }
  const uint32_t lw = orig_word(e, hi - 4u);
  if (rv32_opcode(lw) != RV32_OP_BRANCH && !uncond && hi != next) { /* falls into a block not copied next */
    put_jal(e, 0, hi, 0, 0);
    uncond = true;
  }
  if (uncond) put_stubs(e);
}

static void emit(emit_t *e, const uint32_t *order) {
  for (size_t i = 0; i < e->n && e->st == kHwprofCcPlaced; i++)
    copy_block(e, order[i], i + 1u < e->n ? e->blk[order[i + 1u]].lo : 0u);
  put_stubs(e);
}

static bool after_semihost_ebreak(const emit_t *e, uint32_t a) {
  const hwprof_cc_t *cc = e->rl->cc;
  return a - 8u >= cc->c.code_lo && a - 8u < a && orig_word(e, a - 4u) == RV32_INSN_EBREAK &&
         orig_word(e, a - 8u) == RV32_INSN_SEMIHOST_PRE;
}

static void set_jump(hwprof_cc_t *cc, uint32_t at, uint32_t to, bool in_cache) {
  *hwprof_cc_word(cc, at) = rv32_jal(0, (int32_t)(to - at));
  uint32_t *sh = hwprof_cc_shadow(cc, at);
  if (sh) *sh = 0; /* the jump must not count as a profiled transfer */
  if (in_cache) hwprof_cc_set_origin(cc, at, 0);
}

/* ---- direct calls re-aimed at a new copy */

typedef struct {
  const hwprof_cc_t *cc;
  uint32_t from[4], to[4]; /* old call targets and their new ones ... */
  unsigned n;
  uint32_t entry, landing; /* ... and any that leads to the new copy's entry (or landing, if not 0) */
  uint32_t resume; /* where the stopped program resumes (a call it is inside is not changed) */
} retarget_t;

static bool new_target(const retarget_t *t, uint32_t a, uint32_t *to) {
  for (unsigned k = 0; k < t->n; k++)
    if (t->from[k] == a) {
      *to = t->to[k];
      return true;
    }
  const uint32_t r = resolve(t->cc, a); /* an earlier copy's entry: through the chain of patches */
  if (r == a || (r != t->entry && (t->landing == 0 || r != t->landing))) return false;
  *to = r;
  return true;
}

static bool is_call_through(uint32_t jalr, unsigned r) {
  return rv32_opcode(jalr) == RV32_OP_JALR && rv32_funct3(jalr) == 0 && rv32_rd(jalr) == r && rv32_rs1(jalr) == r &&
         rv32_is_link_reg(r);
}

/* The forms of a direct call the layout re-aims (its base register is its link register, which the
 * call overwrites, so a new target changes no other register). */
typedef enum { kCallNone, kCallJal, kCallAuipc, kCallLui, kCallLuiAddi } call_kind_t;

/* The direct call starting at a (its words below hi), and its target. */
static call_kind_t call_at(const hwprof_cc_t *cc, uint32_t a, uint32_t hi, uint32_t *target) {
  const uint32_t w = *hwprof_cc_word(cc, a);
  if (!hwprof_rl_may_call(w)) return kCallNone; /* most words: cheaply */
  int32_t off;
  if (rv32_control_flow(w, &off) == RV32_CF_JAL && rv32_rd(w) != 0) {
    *target = a + (uint32_t)off;
    return kCallJal;
  }
  const unsigned r = rv32_rd(w);
  if (a + 4u >= hi || r == 0) return kCallNone;
  const uint32_t w1 = *hwprof_cc_word(cc, a + 4u);
  if (rv32_opcode(w) == RV32_OP_AUIPC && is_call_through(w1, r)) { /* pc-relative: a program's call */
    *target = a + rv32_imm_u(w) + (uint32_t)rv32_imm_i(w1);
    return kCallAuipc;
  }
  if (rv32_opcode(w) == RV32_OP_LUI && is_call_through(w1, r)) { /* absolute: a copy's call */
    *target = rv32_imm_u(w) + (uint32_t)rv32_imm_i(w1);
    return kCallLui;
  }
  if (rv32_opcode(w) == RV32_OP_LUI && a + 8u < hi && rv32_opcode(w1) == RV32_OP_IMM && rv32_funct3(w1) == 0 &&
      rv32_rd(w1) == r && rv32_rs1(w1) == r && is_call_through(*hwprof_cc_word(cc, a + 8u), r)) {
    *target = rv32_imm_u(w) + (uint32_t)rv32_imm_i(w1) + (uint32_t)rv32_imm_i(*hwprof_cc_word(cc, a + 8u));
    return kCallLuiAddi;
  }
  return kCallNone;
}

uint32_t hwprof_rl_call_target(const hwprof_cc_t *cc, uint32_t a, uint32_t hi) {
  uint32_t t = 0;
  return call_at(cc, a, hi, &t) == kCallNone ? 0u : t;
}

/* The direct call at a, if it goes to an old target: re-aimed (not one the stopped program is
 * inside: it resumes at the jalr, its first word has run). */
static void retarget_call(hwprof_rl_t *rl, uint32_t a, uint32_t hi, const retarget_t *t) {
  const hwprof_cc_t *cc = rl->cc;
  uint32_t old, to;
  const call_kind_t k = call_at(cc, a, hi, &old);
  if (k == kCallNone || (k != kCallJal && (t->resume == a + 4u || t->resume == a + 8u)) || !new_target(t, old, &to))
    return;
  uint32_t *w = hwprof_cc_word(cc, a), *w1 = hwprof_cc_word(cc, a + 4u);
  switch (k) {
    case kCallJal:
      if (!rv32_fits_j((int64_t)to - (int64_t)a)) return;
      *w = rv32_set_j(*w, (int32_t)(to - a));
      break;
    case kCallAuipc:
      *w = rv32_set_u(*w, rv32_hi20(to - a));
      *w1 = rv32_set_i(*w1, rv32_lo12(to - a));
      break;
    case kCallLui:
      *w = rv32_set_u(*w, rv32_hi20(to));
      *w1 = rv32_set_i(*w1, rv32_lo12(to));
      break;
    default: { /* lui, addi, jalr: the jalr's offset kept */
      const int32_t k2 = rv32_imm_i(*hwprof_cc_word(cc, a + 8u));
      *w = rv32_set_u(*w, rv32_hi20(to - (uint32_t)k2));
      *w1 = rv32_set_i(*w1, rv32_lo12(to - (uint32_t)k2));
      break;
    }
  }
  rl->calls++;
}

hwprof_cc_status_t hwprof_rl_place(hwprof_rl_t *rl, const hwprof_rl_block_t *blk, size_t n, const uint32_t *order,
                                   uint8_t *flags, const hwprof_rl_block_t *callers, size_t ncallers,
                                   uint32_t resume, uint32_t *entry) {
  if (rl == NULL || blk == NULL || order == NULL || entry == NULL || n == 0) return kHwprofCcBadTrace;
  hwprof_cc_t *cc = rl->cc;
  /* its scalars set one by one: the stubs are written before they are read, and clearing the whole
     (some 3 KB, picolibc's byte-wise memset) cost some 18,000 instructions a layout on the target */
  emit_t e;
  e.rl = rl;
  e.blk = blk;
  e.n = n;
  e.prev = hwprof_rl_func_at(rl, blk[0].lo);
  e.fpatch = NULL;
  e.fnpatch = 0;
  e.flags = flags;
  e.dry = true;
  e.cur = cc->next;
  e.nstub = 0;
  e.st = kHwprofCcPlaced;
  /* the blocks: code, by address, apart; the order a permutation (rl->copy marks the indexes seen) */
  if (n > rl->copy_cap) e.st = kHwprofCcNoRoom;
  for (size_t i = 0; i < n && e.st == kHwprofCcPlaced; i++) {
    if (!hwprof_cc_is_code(cc, blk[i].lo) || blk[i].hi <= blk[i].lo || !hwprof_cc_is_code(cc, blk[i].hi - 4u) ||
        (blk[i].hi & 3u) ||
        (i > 0 && blk[i].lo < blk[i - 1].hi))
      e.st = kHwprofCcNotCode;
    else if (after_semihost_ebreak(&e, blk[i].lo))
      e.st = kHwprofCcCannotMove;
    rl->copy[i] = 0;
  }
  for (size_t i = 0; i < n && e.st == kHwprofCcPlaced; i++) {
    if (order[i] >= n || rl->copy[order[i]]) e.st = kHwprofCcBadTrace;
    else rl->copy[order[i]] = 1;
  }
  /* a trace of the code cache that starts inside the function (its start patched with a jump): the
     traces are flushed first, so that the copy is made of the program's own words and no trace
     patch is left over a word the layout patches (one code cache for both optimizers) */
  for (size_t i = 0; i < cc->npatch && e.st == kHwprofCcPlaced; i++)
    if (cc->c.patch[i].addr >= blk[0].lo && cc->c.patch[i].addr < blk[n - 1u].hi) {
      if (hwprof_cc_flush(cc) != kHwprofOk) e.st = kHwprofCcBadTrace;
      rl->trace_flushes++;
      break;
    }
  /* the words to patch: an earlier layout's, or new ones (kept only if this one is placed) */
  size_t npatch = 0;
  for (size_t i = 0; i < n && e.st == kHwprofCcPlaced; i++) npatch += block_patches(&e, i, NULL, NULL);
  if (e.st == kHwprofCcPlaced && e.prev == NULL && (rl->npatch + npatch > rl->patch_cap || rl->nfunc == rl->func_cap))
    e.st = kHwprofCcNoRoom;
  if (e.st == kHwprofCcPlaced && e.prev != NULL && e.prev->n != npatch) e.st = kHwprofCcBadTrace; /* other blocks */
  if (e.st == kHwprofCcPlaced) {
    e.fpatch = &rl->patch[e.prev ? e.prev->first : rl->npatch];
    e.fnpatch = npatch;
    for (size_t i = 0, j = 0; i < n && e.prev == NULL; i++) j += block_patches(&e, i, &e.fpatch[j], NULL);
    for (size_t j = 0; j < npatch; j++) e.fpatch[j].next = 0;
    emit(&e, order); /* measures: the copy addresses */
  }
  if (e.st == kHwprofCcPlaced) {
    e.dry = false;
    e.cur = cc->next;
    emit(&e, order);
  }
  for (size_t i = 0; i < n && e.st == kHwprofCcPlaced; i++) /* every block start reaches its copy */
    if (!rv32_fits_j((int64_t)rl->copy[i] - (int64_t)blk[i].lo)) e.st = kHwprofCcTooFar;
  /* ... and every return landing its copy (the copy of the word after each call: found unless the
     blocks are not what the patches were made from) */
  for (size_t j = 0; j < npatch && e.st == kHwprofCcPlaced; j++)
    if (e.fpatch[j].landing == kHwprofRlReturn &&
        (e.fpatch[j].next == 0 || !rv32_fits_j((int64_t)e.fpatch[j].next - (int64_t)e.fpatch[j].addr)))
      e.st = e.fpatch[j].next == 0 ? kHwprofCcBadTrace : kHwprofCcTooFar;
  if (e.st != kHwprofCcPlaced) {
    rl->refused[e.st]++;
    return e.st;
  }
  /* send execution to the copy: the program's patched words, and the earlier copy's */
  hwprof_rl_func_t *f = (hwprof_rl_func_t *)e.prev;
  if (f == NULL) {
    f = &rl->func[rl->nfunc++];
    *f = (hwprof_rl_func_t){blk[0].lo, (uint32_t)rl->npatch, (uint32_t)npatch, 0};
    rl->npatch += npatch;
  }
  hwprof_rl_patch_t *p = &rl->patch[f->first];
  /* the calls to re-aim: to the program's entry (and landing), and to the previous copy's */
  const bool landing = f->n > 1u && p[1].landing == kHwprofRlInitLanding;
  retarget_t t = {.cc = cc, .n = 0, .entry = rl->copy[0], .landing = landing ? rl->copy[0] + 4u : 0u, .resume = resume};
  for (unsigned k = 0; k < 1u + landing; k++) {
    t.from[t.n] = p[k].addr, t.to[t.n++] = rl->copy[0] + 4u * k;
    if (p[k].to) t.from[t.n] = p[k].to, t.to[t.n++] = rl->copy[0] + 4u * k;
  }
  for (size_t j = 0, b = 0; j < f->n; j++) {
    b += j > 0 && p[j].landing == kHwprofRlBlockStart; /* patches are by address: block b's start comes first */
    const uint32_t to = p[j].landing == kHwprofRlReturn ? p[j].next : rl->copy[b] + 4u * p[j].landing;
    if (p[j].to) set_jump(cc, p[j].to, to, true); /* the earlier copy */
    p[j].to = to;
    set_jump(cc, p[j].addr, to, false);
  }
  for (size_t r = 0; r < ncallers && callers; r++) { /* code, or the cache up to the new copy's end */
    const uint32_t lo = callers[r].lo, hi = callers[r].hi;
    const bool code = lo < hi && hwprof_cc_is_code(cc, lo) && hwprof_cc_is_code(cc, hi - 4u);
    const bool cache = lo >= cc->c.lo && lo < cc->c.hi;
    const uint32_t end = cache ? (hi < e.cur ? hi : e.cur) : hi;
    if (code || cache)
      for (uint32_t a = lo; a + 4u <= end; a += 4u) retarget_call(rl, a, end, &t);
  }
  f->layouts++;
  rl->placed++;
  rl->words_out += (e.cur - cc->next) / 4u;
  *entry = rl->copy[0];
  cc->next = e.cur;
  return kHwprofCcPlaced;
}
