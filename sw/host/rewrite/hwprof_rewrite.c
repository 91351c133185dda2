/* The rewriting layer; see hwprof_rewrite.h. */
#include "hwprof_rewrite.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "autogen/hwprof_regs.h"
#include "rv32_isa.h"

/* inserted words at one place (any number: a software path profile inserts dozens) */

typedef struct {
  uint32_t word, shadow;
} ins_t;

typedef struct {
  ins_t *w;
  unsigned n, cap;
} ins_list_t;

static int ins_add(ins_list_t *l, uint32_t word, uint32_t shadow) {
  if (l->n == l->cap) {
    const unsigned cap = l->cap ? 2 * l->cap : 4;
    ins_t *w = realloc(l->w, cap * sizeof *w);
    if (w == NULL) return -1;
    l->w = w;
    l->cap = cap;
  }
  l->w[l->n++] = (ins_t){word, shadow};
  return 0;
}

typedef struct {
  ins_list_t before, after, taken, ind;
  uint32_t island;     /* a branch with code on its taken edge: where that code is (behind its function) */
  uint32_t ind_island; /* an indirect jump's target with code on the way in from the jump's tables */
  uint32_t shadow;   /* the instruction's own */
  uint32_t new_addr; /* the instruction in the new text */
  uint32_t entry;    /* the first instruction inserted before it (== new_addr without any) */
  bool relaxed;      /* a branch whose target went out of reach: it now branches to an island */
  uint8_t call_skip; /* direct calls to this instruction land this many inserted words into its head */
} slot_t;

struct hwprof_rw {
  hwprof_elf_t *e;
  const hwprof_cfg_prog_t *p;
  slot_t *slot; /* one per word of [p->code_lo, p->code_hi) */
  uint32_t text_at;
  uint32_t *text, *text_shadow;
  unsigned ntext;
  hwprof_rw_stats_t st;
  unsigned relaxed;
  char *err;
  size_t errlen;
};

#define ERR(...)                                \
  do {                                          \
    snprintf(rw->err, rw->errlen, __VA_ARGS__); \
    return -1;                                  \
  } while (0)

static slot_t *slot_at(const hwprof_rw_t *rw, uint32_t a) {
  if ((a & 3u) || hwprof_cfg_prog_fn_at(rw->p, a) < 0) return NULL;
  return &rw->slot[(a - rw->p->code_lo) / 4u];
}

static uint32_t word_at(const hwprof_rw_t *rw, uint32_t a) {
  const uint8_t *b = hwprof_elf_bytes(rw->e, a, 4);
  return b ? (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24 : 0;
}

/* The GOT slot that the auipc at a (R_RISCV_GOT_HI20) addresses, from its encoding and the
 * load that pairs with it: the linker resolved it, the relocation names only the symbol. */
static uint32_t got_slot(const hwprof_rw_t *rw, uint32_t a) {
  const hwprof_elf_t *e = rw->e;
  uint32_t lo = 0;
  for (unsigned i = 0; i < e->nrel; i++) /* the PCREL_LO12_I whose target is this auipc */
    if (e->rel[i].type == R_RISCV_PCREL_LO12_I && e->rel[i].target == a) {
      lo = (uint32_t)rv32_imm_i(word_at(rw, e->rel[i].where));
      break;
    }
  return a + rv32_imm_u(word_at(rw, a)) + lo;
}

static void put_word(uint8_t *b, uint32_t v) {
  b[0] = (uint8_t)v;
  b[1] = (uint8_t)(v >> 8);
  b[2] = (uint8_t)(v >> 16);
  b[3] = (uint8_t)(v >> 24);
}

hwprof_rw_t *hwprof_rw_new(hwprof_elf_t *e, const hwprof_cfg_prog_t *p, char *err, size_t errlen) {
  hwprof_rw_t *rw = calloc(1, sizeof *rw);
  if (rw) rw->slot = calloc((p->code_hi - p->code_lo) / 4u + 1, sizeof *rw->slot);
  if (rw == NULL || rw->slot == NULL) {
    free(rw);
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  rw->e = e;
  rw->p = p;
  rw->err = err;
  rw->errlen = errlen;
  return rw;
}

void hwprof_rw_free(hwprof_rw_t *rw) {
  if (rw == NULL) return;
  for (uint32_t a = rw->p->code_lo; a < rw->p->code_hi; a += 4) {
    slot_t *s = &rw->slot[(a - rw->p->code_lo) / 4u];
    free(s->before.w);
    free(s->after.w);
    free(s->taken.w);
    free(s->ind.w);
  }
  free(rw->slot);
  free(rw->text);
  free(rw->text_shadow);
  free(rw);
}

static int insert(hwprof_rw_t *rw, uint32_t addr, bool after, uint32_t word, uint32_t shadow) {
  slot_t *s = slot_at(rw, addr);
  if (s == NULL) ERR("internal: 0x%08" PRIx32 " is not moved code", addr);
  if (ins_add(after ? &s->after : &s->before, word, shadow)) ERR("out of memory");
  rw->st.inserted++;
  return 0;
}

int hwprof_rw_on_taken(hwprof_rw_t *rw, uint32_t addr, uint32_t word, uint32_t shadow) {
  slot_t *s = slot_at(rw, addr);
  if (s == NULL || rv32_opcode(word_at(rw, addr)) != RV32_OP_BRANCH)
    ERR("internal: 0x%08" PRIx32 " is not a conditional branch of moved code", addr);
  if (ins_add(&s->taken, word, shadow)) ERR("out of memory");
  rw->st.inserted++;
  return 0;
}

int hwprof_rw_on_indirect(hwprof_rw_t *rw, uint32_t target, uint32_t word, uint32_t shadow) {
  slot_t *s = slot_at(rw, target);
  if (s == NULL) ERR("internal: 0x%08" PRIx32 " is not moved code", target);
  if (ins_add(&s->ind, word, shadow)) ERR("out of memory");
  rw->st.inserted++;
  return 0;
}

/* Where a code address in data (a jump table's entry) that names t goes: the island of code on
 * the indirect way into t, or t's entry. */
static uint32_t data_target(const hwprof_rw_t *rw, uint32_t t) {
  const slot_t *s = slot_at(rw, t);
  return s && s->ind.n ? s->ind_island : hwprof_rw_entry(rw, t);
}

int hwprof_rw_before(hwprof_rw_t *rw, uint32_t addr, uint32_t word, uint32_t shadow) {
  return insert(rw, addr, false, word, shadow);
}

int hwprof_rw_after(hwprof_rw_t *rw, uint32_t addr, uint32_t word, uint32_t shadow) {
  return insert(rw, addr, true, word, shadow);
}

void hwprof_rw_shadow(hwprof_rw_t *rw, uint32_t addr, uint32_t shadow) {
  slot_t *s = slot_at(rw, addr);
  if (s) s->shadow = shadow;
}

int hwprof_rw_call_skip(hwprof_rw_t *rw, uint32_t addr, unsigned words) {
  slot_t *s = slot_at(rw, addr);
  if (s == NULL || words > s->before.n) return -1;
  s->call_skip = (uint8_t)words;
  return 0;
}

/* ---------------------------------------------------------------- carrier words */

/* An instruction that retires as kind OTHER, LOAD or STORE and has no shadow word yet: it can carry a
 * pir operation (docs/pir.md, "Carrier words"). */
static bool can_carry(const hwprof_rw_t *rw, uint32_t a, const slot_t *s) {
  if (s == NULL || s->shadow != 0) return false;
  switch (rv32_opcode(word_at(rw, a))) {
    case RV32_OP_LOAD:
    case RV32_OP_STORE:
    case RV32_OP_IMM:
    case RV32_OP_REG:
    case RV32_OP_LUI:
    case RV32_OP_AUIPC: return true;
    default: return false;
  }
}

/* Whether carrying ops[0 .. n) (carrier words) from a leader on leaves the pir a way into the leader
 * brings (st: base, offset) as it was: no prof.id (it would count on every way in), and every
 * prof.init and prof.setoff ends where it started. */
static bool leaves_state(const uint32_t *ops, unsigned n, const hwprof_rw_pir_t *st) {
  uint64_t base = st->base;
  uint32_t off = st->offset;
  for (unsigned i = 0; i < n; i++) {
    switch (rv32_carry(ops[i])) {
      case HWPROF_CARRY_INIT: base = rv32_carry_base(ops[i]); off = 0; break;
      case HWPROF_CARRY_SETOFF: off = rv32_carry_offset(ops[i]); break;
      default: return false;
    }
  }
  return base == st->base && off == st->offset;
}

/* The run l gives its last operations to the instructions from first on, in order. For a run
 * before first (before: every way into first runs it) first itself may take one. Any other is
 * reached only from the instruction before it, or is a leader whose other ways in (their pir: st)
 * the operations carried from it on leave as they were (leaves_state); it has nothing inserted
 * before it. All must be able to carry, and the chain ends at one with words inserted after it
 * (they run before what follows). keep: the first words of the run, which direct calls skip (they
 * start the area themselves): only a prof.init among them may move (it then does again what the
 * call did). Returns how many moved. */
static unsigned fold_forward(hwprof_rw_t *rw, ins_list_t *l, bool before, uint32_t first, uint32_t lo,
                             uint32_t hi, const bool *leader, const hwprof_rw_pir_t *st, unsigned keep) {
  enum { kMax = 8 };
  uint32_t to[kMax];
  unsigned m = 0, lead = kMax; /* to[lead]: the first leader among them */
  for (uint32_t y = first; y < hi && m < kMax; y += 4) {
    const slot_t *t = slot_at(rw, y);
    if (!can_carry(rw, y, t)) break;
    if (!(before && y == first)) {
      if (t->before.n) break;
      if (leader[(y - lo) / 4u]) {
        if (st == NULL) break;
        if (lead == kMax) lead = m;
      }
    }
    to[m++] = y;
    if (t->after.n) break;
  }
  unsigned k = 0; /* the last k words of the run move to to[0 .. k) */
  uint32_t ops[kMax];
  while (k < m && k < l->n) {
    const unsigned w = l->n - 1u - k;
    if (rv32_carry_of_prof(l->w[w].word, l->w[w].shadow) == 0) break;
    if (w < keep && rv32_funct3(l->w[w].word) != HWPROF_PROF_OP_INIT) break;
    k++;
  }
  for (; k > 0; k--) { /* fewer when those that land on a leader and after it would change its pir */
    for (unsigned j = 0; j < k; j++) ops[j] = rv32_carry_of_prof(l->w[l->n - k + j].word, l->w[l->n - k + j].shadow);
    if (lead >= k || leaves_state(ops + lead, k - lead, &st[(to[lead] - lo) / 4u])) break;
  }
  for (unsigned j = 0; j < k; j++) slot_at(rw, to[j])->shadow = ops[j];
  l->n -= k;
  return k;
}

unsigned hwprof_rw_fold(hwprof_rw_t *rw, uint32_t lo, uint32_t hi, const bool *leader, const hwprof_rw_pir_t *st) {
  unsigned n = 0;
  for (uint32_t a = lo; a < hi; a += 4) {
    slot_t *s = slot_at(rw, a);
    if (s == NULL) continue;
    /* a run before a: every way in runs it, then a */
    if (s->before.n) {
      n += fold_forward(rw, &s->before, true, a, lo, hi, leader, st, s->call_skip);
      if (s->call_skip > s->before.n) s->call_skip = (uint8_t)s->before.n;
    }
    /* a run after a: only a's fall-through; a itself can take its first word when a always falls
     * through (it can carry), the instructions after it its last ones */
    if (s->after.n && can_carry(rw, a, s)) {
      const uint32_t carry = rv32_carry_of_prof(s->after.w[0].word, s->after.w[0].shadow);
      if (carry) {
        s->shadow = carry;
        memmove(s->after.w, s->after.w + 1, (s->after.n - 1u) * sizeof *s->after.w);
        s->after.n--;
        n++;
      }
    }
    if (s->after.n) n += fold_forward(rw, &s->after, false, a + 4u, lo, hi, leader, st, 0);
  }
  rw->st.inserted -= n;
  rw->st.folded += n;
  return n;
}

/* Where a transfer to t lands: a direct call (through ra or t0: a call for the profiling hardware)
 * skips what hwprof_rw_call_skip() said. */
static uint32_t landing(const hwprof_rw_t *rw, uint32_t t, bool call) {
  const slot_t *s = slot_at(rw, t);
  return hwprof_rw_entry(rw, t) + (call && s ? 4u * s->call_skip : 0u);
}

uint32_t hwprof_rw_get_shadow(const hwprof_rw_t *rw, uint32_t addr) {
  const slot_t *s = slot_at(rw, addr);
  return s ? s->shadow : 0;
}

/* Places every moved instruction from cur on; returns the end. Behind each function's last
 * instruction, the islands of its branches with code on their taken edge (that code, then a jump
 * to the target). */
static uint32_t place(hwprof_rw_t *rw, uint32_t cur) {
  const hwprof_cfg_prog_t *p = rw->p;
  for (uint32_t a = p->code_lo; a < p->code_hi; a += 4) {
    slot_t *s = slot_at(rw, a);
    if (s == NULL) continue;
    s->entry = cur;
    cur += 4u * s->before.n;
    s->new_addr = cur;
    cur += 4u * (1u + s->after.n + (s->relaxed ? 2u : 0u));
    const int f = hwprof_cfg_prog_fn_at(p, a);
    if (a + 4u != p->fn[f].code.hi) continue;
    for (uint32_t b = p->fn[f].code.lo; b < p->fn[f].code.hi; b += 4) {
      slot_t *t = slot_at(rw, b);
      if (t->taken.n) {
        t->island = cur;
        cur += 4u * (t->taken.n + 1u);
      }
      if (t->ind.n) {
        t->ind_island = cur;
        cur += 4u * (t->ind.n + 1u);
      }
    }
  }
  return cur;
}

/* Where the conditional branch of slot s at a goes when taken: its island, or its target. */
static uint32_t taken_dest(const hwprof_rw_t *rw, const slot_t *s, uint32_t a) {
  return s->taken.n ? s->island : hwprof_rw_entry(rw, a + (uint32_t)rv32_imm_b(word_at(rw, a)));
}

/* Branch relaxation: a conditional branch whose target is out of its +-4 KiB reach after the
 * insertions keeps its condition and its sense (so its profiling hint still means what the policy
 * said) but branches to an island right behind it:
 *     bxx  rs1, rs2, island      (taken: to the island)
 *     jal  x0, next              (not taken: over the island)
 *   island:
 *     jal  x0, target            (+-1 MiB)
 * Relaxing moves code, which can push other branches out of reach: repeat until none is left. */
static unsigned relax_branches(hwprof_rw_t *rw) {
  const hwprof_cfg_prog_t *p = rw->p;
  unsigned n = 0;
  for (uint32_t a = p->code_lo; a < p->code_hi; a += 4) {
    slot_t *s = slot_at(rw, a);
    if (s == NULL || s->relaxed) continue;
    const uint32_t x = word_at(rw, a);
    if (rv32_opcode(x) != RV32_OP_BRANCH) continue;
    const uint32_t t = a + (uint32_t)rv32_imm_b(x);
    if (slot_at(rw, t) == NULL) continue; /* an error for relocate to report */
    if (!rv32_fits_b((int64_t)taken_dest(rw, s, a) - s->new_addr)) {
      s->relaxed = true;
      n++;
    }
  }
  return n;
}

int hwprof_rw_layout(hwprof_rw_t *rw, uint32_t text_at, unsigned reserved) {
  uint32_t cur = place(rw, text_at + 4u * reserved);
  for (unsigned more; (more = relax_branches(rw)) != 0;) {
    rw->relaxed += more;
    cur = place(rw, text_at + 4u * reserved);
  }
  rw->text_at = text_at;
  rw->ntext = (cur - text_at) / 4u;
  if ((uint64_t)text_at + 4u * rw->ntext > UINT64_C(0x100000000)) ERR("the new text does not fit below 4 GiB");
  rw->text = calloc(rw->ntext + 1, sizeof *rw->text);
  rw->text_shadow = calloc(rw->ntext + 1, sizeof *rw->text_shadow);
  if (rw->text == NULL || rw->text_shadow == NULL) ERR("out of memory");
  return 0;
}

uint32_t hwprof_rw_entry(const hwprof_rw_t *rw, uint32_t addr) {
  const slot_t *s = slot_at(rw, addr);
  return s ? s->entry : addr;
}

uint32_t hwprof_rw_insn(const hwprof_rw_t *rw, uint32_t addr) {
  const slot_t *s = slot_at(rw, addr);
  return s ? s->new_addr : addr;
}

uint32_t hwprof_rw_taken_to(const hwprof_rw_t *rw, uint32_t addr) {
  const slot_t *s = slot_at(rw, addr);
  if (s == NULL) return 0;
  if (s->relaxed) return s->new_addr + 8u;
  return taken_dest(rw, s, addr);
}

unsigned hwprof_rw_after_count(const hwprof_rw_t *rw, uint32_t addr) {
  const slot_t *s = slot_at(rw, addr);
  return s ? s->after.n : 0;
}

uint32_t hwprof_rw_text_end(const hwprof_rw_t *rw) { return rw->text_at + 4u * rw->ntext; }

void hwprof_rw_put(hwprof_rw_t *rw, uint32_t new_addr, uint32_t word, uint32_t shadow) {
  const unsigned i = (new_addr - rw->text_at) / 4u;
  rw->text[i] = word;
  rw->text_shadow[i] = shadow;
}

hwprof_rw_stats_t hwprof_rw_stats(const hwprof_rw_t *rw) {
  hwprof_rw_stats_t st = rw->st;
  st.relaxed = rw->relaxed;
  return st;
}

/* ---------------------------------------------------------------- relocation */

typedef struct {
  uint32_t auipc, target_new, new_pc;
} pcrel_t;

/* The instruction word x at original address a, moved to its new address: its PC-relative or
 * absolute fields rewritten. */
static int relocate_insn(hwprof_rw_t *rw, uint32_t a, uint32_t *xp, const pcrel_t *hi, unsigned nhi) {
  const hwprof_elf_t *e = rw->e;
  const slot_t *s = slot_at(rw, a);
  const char *fname = rw->p->fn[hwprof_cfg_prog_fn_at(rw->p, a)].name;
  const uint32_t pc = s->new_addr;
  uint32_t x = *xp, t;
  const bool is_branch = rv32_opcode(x) == RV32_OP_BRANCH;
  if (is_branch || rv32_opcode(x) == RV32_OP_JAL) {
    t = a + (uint32_t)(is_branch ? rv32_imm_b(x) : rv32_imm_j(x));
    if (slot_at(rw, t) == NULL) ERR("0x%08" PRIx32 ": jump to 0x%08" PRIx32 ", which is not in a function", a, t);
    const uint32_t dest = is_branch ? taken_dest(rw, s, a) : hwprof_rw_entry(rw, t);
    if (s->relaxed) { /* to the island; the jump over it and the island's jump are emitted by the caller */
      const int64_t far = (int64_t)dest - (pc + 8u);
      if (!rv32_fits_j(far))
        ERR("0x%08" PRIx32 " (%s): the branch to 0x%08" PRIx32 " is out of reach even for a jump after instrumentation",
            a, fname, t);
      x = rv32_set_b(x, 8);
    } else {
      const int64_t off = (int64_t)(is_branch ? dest : landing(rw, t, rv32_is_link_reg(rv32_rd(x)))) - pc;
      if (is_branch ? !rv32_fits_b(off) : !rv32_fits_j(off))
        ERR("0x%08" PRIx32 " (%s): the %s to 0x%08" PRIx32 " is out of range after instrumentation", a, fname,
            is_branch ? "branch" : "jump", t);
      x = is_branch ? rv32_set_b(x, (int32_t)off) : rv32_set_j(x, (int32_t)off);
    }
  }
  const unsigned first = hwprof_elf_reloc_lower_bound(e, a);
  if (rv32_opcode(x) == RV32_OP_AUIPC && (first >= e->nrel || e->rel[first].where != a)) {
    /* no relocation: only a call pair can be moved (its target decoded from the pair) */
    if (!rv32_call_pair_at(e->rel, e->nrel, a, x, word_at(rw, a + 4), &t))
      ERR("0x%08" PRIx32 " (%s): an auipc without a relocation that does not start a call: its address cannot be"
          " moved (link with -Wl,--emit-relocs)",
          a, fname);
    const slot_t *j = slot_at(rw, a + 4);
    if (slot_at(rw, t) == NULL) ERR("0x%08" PRIx32 " (%s): call to 0x%08" PRIx32 ", which is not in a function", a, fname, t);
    if (j == NULL || j->new_addr != pc + 4 || s->after.n) ERR("0x%08" PRIx32 ": call pair split by the layout", a);
    x = rv32_set_u(x, rv32_hi20(landing(rw, t, rv32_is_link_reg(rv32_rd(word_at(rw, a + 4)))) - pc));
  }
  for (unsigned i = first; i < e->nrel && e->rel[i].where == a; i++) {
    const hwprof_elf_reloc_t *r = &e->rel[i];
    switch (r->type) {
      case R_RISCV_BRANCH:
      case R_RISCV_JAL: break; /* done above from the encoding */
      case R_RISCV_CALL:
      case R_RISCV_CALL_PLT: {
        const slot_t *j = slot_at(rw, a + 4);
        if (j == NULL || j->new_addr != pc + 4 || s->after.n) ERR("0x%08" PRIx32 ": call pair split by the layout", a);
        x = rv32_set_u(x, rv32_hi20(landing(rw, r->target, rv32_is_link_reg(rv32_rd(word_at(rw, a + 4)))) - pc)); /* the jalr's part: below */
        break;
      }
      case R_RISCV_PCREL_HI20: x = rv32_set_u(x, rv32_hi20(hwprof_rw_entry(rw, r->target) - pc)); break;
      case R_RISCV_GOT_HI20: x = rv32_set_u(x, rv32_hi20(got_slot(rw, a) - pc)); break; /* the slot stays */
      case R_RISCV_TPREL_HI20:
      case R_RISCV_TPREL_LO12_I:
      case R_RISCV_TPREL_LO12_S:
      case R_RISCV_TPREL_ADD: break; /* offsets from the thread pointer: no address in them moves */
      case R_RISCV_PCREL_LO12_I:
      case R_RISCV_PCREL_LO12_S: {
        const pcrel_t *h = NULL;
        for (unsigned k = 0; k < nhi && !h; k++)
          if (hi[k].auipc == r->target) h = &hi[k];
        if (h == NULL) ERR("0x%08" PRIx32 ": low part of a PC-relative pair without its high part", a);
        const uint32_t d = h->target_new - h->new_pc;
        x = r->type == R_RISCV_PCREL_LO12_I ? rv32_set_i(x, rv32_lo12(d)) : rv32_set_s(x, rv32_lo12(d));
        break;
      }
      case R_RISCV_HI20: x = rv32_set_u(x, rv32_hi20(hwprof_rw_entry(rw, r->target))); break;
      case R_RISCV_LO12_I: x = rv32_set_i(x, rv32_lo12(hwprof_rw_entry(rw, r->target))); break;
      case R_RISCV_LO12_S: x = rv32_set_s(x, rv32_lo12(hwprof_rw_entry(rw, r->target))); break;
      default:
        ERR("0x%08" PRIx32 " (%s): relocation type %" PRIu32 " (%s) in code is not supported", a, fname, r->type,
            rv32_reloc_name(r->type));
    }
  }
  /* the jalr of a call pair: its low part */
  if (a >= 4 && slot_at(rw, a - 4) && rv32_call_pair_at(e->rel, e->nrel, a - 4, word_at(rw, a - 4), *xp, &t)) {
    const slot_t *au = slot_at(rw, a - 4);
    if (au) x = rv32_set_i(x, rv32_lo12(landing(rw, t, rv32_is_link_reg(rv32_rd(x))) - au->new_addr));
  }
  *xp = x;
  return 0;
}

int hwprof_rw_relocate(hwprof_rw_t *rw) {
  const hwprof_elf_t *e = rw->e;
  const hwprof_cfg_prog_t *p = rw->p;
  /* PC-relative high parts first: the low parts refer to them */
  pcrel_t *hi = calloc(e->nrel + 1, sizeof *hi);
  unsigned nhi = 0;
  if (hi == NULL) ERR("out of memory");
  for (unsigned i = 0; i < e->nrel; i++) {
    const hwprof_elf_reloc_t *r = &e->rel[i];
    if (r->type == R_RISCV_PCREL_HI20 && slot_at(rw, r->where))
      hi[nhi++] = (pcrel_t){r->where, hwprof_rw_entry(rw, r->target), slot_at(rw, r->where)->new_addr};
    if (r->type == R_RISCV_GOT_HI20 && slot_at(rw, r->where)) /* the low part addresses the GOT slot */
      hi[nhi++] = (pcrel_t){r->where, got_slot(rw, r->where), slot_at(rw, r->where)->new_addr};
  }
  int rc = 0;
  for (uint32_t a = p->code_lo; a < p->code_hi && rc == 0; a += 4) {
    const slot_t *s = slot_at(rw, a);
    if (s == NULL) continue;
    for (unsigned i = 0; i < s->before.n; i++) hwprof_rw_put(rw, s->entry + 4u * i, s->before.w[i].word, s->before.w[i].shadow);
    for (unsigned i = 0; i < s->after.n; i++) /* behind the island of a relaxed branch: its not-taken path */
      hwprof_rw_put(rw, s->new_addr + 4u * (1u + (s->relaxed ? 2u : 0u) + i), s->after.w[i].word, s->after.w[i].shadow);
    uint32_t x = word_at(rw, a);
    rc = relocate_insn(rw, a, &x, hi, nhi);
    hwprof_rw_put(rw, s->new_addr, x, s->shadow);
    if (rc == 0 && s->relaxed) {
      const uint32_t island = s->new_addr + 8u;
      hwprof_rw_put(rw, s->new_addr + 4u, rv32_jal(0, 8), 0); /* not taken: over the island */
      hwprof_rw_put(rw, island, rv32_jal(0, (int32_t)(taken_dest(rw, s, a) - island)), 0);
    }
    if (rc == 0 && s->ind.n) { /* the indirect way in: its code behind the function, then on to this block */
      const uint32_t back = s->ind_island + 4u * s->ind.n;
      for (unsigned i = 0; i < s->ind.n; i++) hwprof_rw_put(rw, s->ind_island + 4u * i, s->ind.w[i].word, s->ind.w[i].shadow);
      hwprof_rw_put(rw, back, rv32_jal(0, (int32_t)((int64_t)s->entry - back)), 0);
    }
    if (rc == 0 && s->taken.n) { /* the taken edge's code behind the function, then on to the target */
      const uint32_t t = a + (uint32_t)rv32_imm_b(word_at(rw, a)), back = s->island + 4u * s->taken.n;
      for (unsigned i = 0; i < s->taken.n; i++) hwprof_rw_put(rw, s->island + 4u * i, s->taken.w[i].word, s->taken.w[i].shadow);
      const int64_t off = (int64_t)hwprof_rw_entry(rw, t) - back;
      if (!rv32_fits_j(off)) {
        rc = -1;
        snprintf(rw->err, rw->errlen, "0x%08" PRIx32 ": the taken edge's code is out of reach of 0x%08" PRIx32, a, t);
      } else {
        hwprof_rw_put(rw, back, rv32_jal(0, (int32_t)off), 0);
      }
    }
    rw->st.moved++;
  }
  free(hi);
  if (rc) return rc;
  /* GOT slots (code built with -fPIC) that hold a function's address */
  for (unsigned i = 0; i < e->nrel; i++) {
    const hwprof_elf_reloc_t *r = &e->rel[i];
    if (r->type != R_RISCV_GOT_HI20 || slot_at(rw, r->where) == NULL || slot_at(rw, r->target) == NULL) continue;
    const uint32_t g = got_slot(rw, r->where);
    uint8_t *b = hwprof_elf_bytes(e, g, 4);
    if (b == NULL || (b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24) != r->target)
      ERR("0x%08" PRIx32 ": the GOT slot at 0x%08" PRIx32 " does not hold the address of 0x%08" PRIx32, r->where, g,
          r->target);
    put_word(b, hwprof_rw_entry(rw, r->target));
  }
  /* code addresses in data, and label differences (R_RISCV_ADD32 with R_RISCV_SUB32 at the same
   * place: the switch tables of -fPIC code); references from outside the functions to moved code */
  for (unsigned i = 0; i < e->nrel; i++) {
    const hwprof_elf_reloc_t *r = &e->rel[i];
    if (slot_at(rw, r->where) || slot_at(rw, r->target) == NULL) continue;
    uint8_t *b = hwprof_elf_bytes(e, r->where, 4);
    if (r->type == R_RISCV_32) {
      if (b) put_word(b, data_target(rw, r->target)); /* NULL: NOBITS */
      continue;
    }
    if (r->type == R_RISCV_ADD32 || r->type == R_RISCV_SUB32) {
      const hwprof_elf_reloc_t *add = NULL, *sub = NULL;
      unsigned nadd = 0, nsub = 0;
      for (unsigned k = hwprof_elf_reloc_lower_bound(e, r->where); k < e->nrel && e->rel[k].where == r->where; k++) {
        if (e->rel[k].type == R_RISCV_ADD32 && nadd++ == 0) add = &e->rel[k];
        if (e->rel[k].type == R_RISCV_SUB32 && nsub++ == 0) sub = &e->rel[k];
      }
      if (nadd != 1 || nsub != 1)
        ERR("0x%08" PRIx32 ": a label difference that refers to code at 0x%08" PRIx32 " needs exactly one R_RISCV_ADD32 "
            "and one R_RISCV_SUB32 there (%u and %u)", r->where, r->target, nadd, nsub);
      if (r != add && slot_at(rw, add->target)) continue; /* done with its ADD32 */
      const uint32_t old = b ? (uint32_t)(b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24) : 0;
      if (b == NULL || old != add->target - sub->target)
        ERR("0x%08" PRIx32 ": the label difference 0x%08" PRIx32 " - 0x%08" PRIx32 " is not what the word holds", r->where,
            add->target, sub->target);
      const uint32_t na = slot_at(rw, add->target) ? data_target(rw, add->target) : add->target;
      const uint32_t ns = slot_at(rw, sub->target) ? hwprof_rw_entry(rw, sub->target) : sub->target;
      put_word(b, na - ns);
      continue;
    }
    ERR("0x%08" PRIx32 ": relocation type %" PRIu32 " (%s) outside any function refers to code at 0x%08" PRIx32,
        r->where, r->type, rv32_reloc_name(r->type), r->target);
  }
  return 0;
}

/* ---------------------------------------------------------------- output */

typedef struct {
  uint32_t type, vaddr, paddr, filesz, memsz, flags;
  const uint8_t *bytes;
} seg_t;

static int write_file(hwprof_rw_t *rw, const char *path, uint32_t entry, const seg_t *seg, unsigned n) {
  FILE *out = fopen(path, "wb");
  if (out == NULL) ERR("%s: cannot write", path);
  uint8_t hdr[52] = {0x7f, 'E', 'L', 'F', 1, 1, 1};
  put_word(hdr + 16, 2u | 243u << 16); /* ET_EXEC, EM_RISCV */
  put_word(hdr + 20, 1);
  put_word(hdr + 24, entry);
  put_word(hdr + 28, 52);
  memcpy(hdr + 36, rw->e->file + 36, 4); /* e_flags (the ABI) */
  put_word(hdr + 40, 52u | 32u << 16);
  put_word(hdr + 44, n);
  uint32_t off = 52 + 32 * n;
  fwrite(hdr, 1, sizeof hdr, out);
  for (unsigned i = 0; i < n; i++) {
    uint8_t ph[32];
    put_word(ph, seg[i].type);
    put_word(ph + 4, seg[i].filesz ? off : 0);
    put_word(ph + 8, seg[i].vaddr);
    put_word(ph + 12, seg[i].paddr);
    put_word(ph + 16, seg[i].filesz);
    put_word(ph + 20, seg[i].memsz);
    put_word(ph + 24, seg[i].flags);
    put_word(ph + 28, 4);
    fwrite(ph, 1, sizeof ph, out);
    off += (seg[i].filesz + 3u) & ~3u;
  }
  static const uint8_t pad[4];
  for (unsigned i = 0; i < n; i++) {
    if (seg[i].filesz) fwrite(seg[i].bytes, 1, seg[i].filesz, out);
    fwrite(pad, 1, ((seg[i].filesz + 3u) & ~3u) - seg[i].filesz, out);
  }
  if (fclose(out) != 0) ERR("%s: write failed", path);
  return 0;
}

int hwprof_rw_write_elf(hwprof_rw_t *rw, const char *path, uint32_t entry, const hwprof_rw_seg_t *extra, unsigned n) {
  hwprof_elf_t *e = rw->e;
  const hwprof_cfg_prog_t *p = rw->p;
  enum { kMaxSeg = 32 };
  seg_t seg[kMaxSeg];
  unsigned ns = 0;
  for (unsigned i = 0; i < e->nph; i++)
    if (e->ph[i].type == HWPROF_ELF_PT_LOAD) ns++;
  if (ns + 2 + n > kMaxSeg) ERR("%u loadable segments: at most %u are supported", ns + n, kMaxSeg - 2);
  /* the old code becomes illegal instructions: a missed code pointer fails loudly */
  for (unsigned i = 0; i < p->nfn; i++) {
    const uint32_t lo = p->fn[i].code.lo, len = p->fn[i].code.hi - lo;
    memset(hwprof_elf_bytes(e, lo, len), 0, len);
  }
  ns = 0;
  for (unsigned i = 0; i < e->nph; i++) {
    const hwprof_elf_phdr_t *ph = &e->ph[i];
    if (ph->type == HWPROF_ELF_PT_LOAD)
      seg[ns++] = (seg_t){1, ph->vaddr, ph->paddr, ph->filesz, ph->memsz, ph->flags, e->file + ph->offset};
  }
  uint8_t *tb = malloc(4u * rw->ntext + 1), *sb = malloc(4u * rw->ntext + 1);
  if (tb == NULL || sb == NULL) {
    free(tb);
    free(sb);
    ERR("out of memory");
  }
  for (unsigned i = 0; i < rw->ntext; i++) {
    put_word(tb + 4 * i, rw->text[i]);
    put_word(sb + 4 * i, rw->text_shadow[i]);
  }
  const uint32_t ta = rw->text_at, bytes = 4u * rw->ntext;
  seg[ns++] = (seg_t){1, ta, ta, bytes, bytes, 5u, tb};
  const uint32_t shadow_at = HWPROF_PLAT_SHADOW_BASE + (ta - HWPROF_PLAT_RAM_BASE);
  seg[ns++] = (seg_t){1, shadow_at, shadow_at, bytes, bytes, 4u, sb};
  for (unsigned i = 0; i < n; i++)
    seg[ns++] = (seg_t){1, extra[i].vaddr, extra[i].vaddr, extra[i].filesz, extra[i].memsz, extra[i].flags, extra[i].bytes};
  const int rc = write_file(rw, path, entry, seg, ns);
  free(tb);
  free(sb);
  return rc;
}
