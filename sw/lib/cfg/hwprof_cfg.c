/* The CFG layer; see hwprof_cfg.h. No heap, no stdio: builds for the host and the RV32 target. */
#include "hwprof_cfg.h"

#include <inttypes.h>
#include <string.h>

#include "rv32_isa.h"

void *hwprof_arena_alloc(hwprof_arena_t *a, size_t n) {
  const size_t at = (a->used + 7u) & ~(size_t)7u;
  if (at > a->size || n > a->size - at) return NULL;
  a->used = at + n;
  memset(a->base + at, 0, n);
  return a->base + at;
}

#define ALLOC(a, type, n) ((type *)hwprof_arena_alloc((a), (size_t)(n) * sizeof(type)))

const char *const hwprof_cfg_kind_names[HWPROF_CFG_NKINDS] = {
    "taken", "not-taken", "jump", "fall", "indirect", "return", "tail", "fall-out", "virtual-exit", "virtual-entry",
    "dispatch"};

#define X "0x%08" PRIx32
const char *const hwprof_cfg_why_text[HWPROF_CFG_NWHY] = {
    [HWPROF_CFG_OK] = "",
    [HWPROF_CFG_PROFILED] = "a profiling instruction at " X ": the program is already instrumented",
    [HWPROF_CFG_BRANCH_LEAVES] = "branch at " X " leaves the function",
    [HWPROF_CFG_INDIRECTS] = "%" PRIu32 " indirect jumps share the function's code addresses (their targets cannot be told apart)",
    [HWPROF_CFG_TAKEN_ADDR] = "the address " X " inside the function is taken",
    [HWPROF_CFG_MISALIGNED] = "misaligned code address " X " taken",
    [HWPROF_CFG_FALLS_OFF] = "the branch at " X " falls off the end of the function",
};
#undef X

/* ---------------------------------------------------------------- instructions */

uint32_t hwprof_cfg_word(const hwprof_cfg_code_t *c, uint32_t addr) {
  const uint8_t *p = c->bytes + (addr - c->lo);
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

hwprof_cf_t hwprof_cfg_classify(const hwprof_cfg_code_t *c, uint32_t pc, uint32_t x, uint32_t *target) {
  *target = 0;
  switch (rv32_opcode(x)) {
    case RV32_OP_BRANCH: *target = pc + (uint32_t)rv32_imm_b(x); return HWPROF_CF_BRANCH;
    case RV32_OP_JAL: *target = pc + (uint32_t)rv32_imm_j(x); return rv32_rd(x) ? HWPROF_CF_CALL : HWPROF_CF_JUMP;
    case RV32_OP_JALR: {
      const bool pair = pc >= c->lo + 4u && rv32_call_pair_at(c->rel, c->nrel, pc - 4, hwprof_cfg_word(c, pc - 4), x, target);
      if (rv32_rd(x)) return HWPROF_CF_CALL;
      if (!pair && (rv32_rs1(x) == 1 || rv32_rs1(x) == 5) && rv32_imm_i(x) == 0) return HWPROF_CF_RET;
      if (pair) return HWPROF_CF_TAIL;
      return HWPROF_CF_INDIRECT;
    }
    case RV32_OP_SYSTEM:
      if (x == 0x00000073u || x == RV32_INSN_EBREAK) return HWPROF_CF_ENV;
      if (x == RV32_INSN_MRET) return HWPROF_CF_MRET;
      return HWPROF_CF_NONE;
    case RV32_OP_PROF: return HWPROF_CF_PROF;
    default: return HWPROF_CF_NONE;
  }
}

uint32_t hwprof_cfg_twice_call_at(const hwprof_cfg_code_t *c, uint32_t pc) {
  uint32_t t;
  const uint32_t x = hwprof_cfg_word(c, pc);
  if (c->ntwice == 0 || hwprof_cfg_classify(c, pc, x, &t) != HWPROF_CF_CALL || rv32_rd(x) != 1) return 0;
  bool twice = false;
  for (unsigned k = 0; k < c->ntwice; k++) twice |= c->twice[k] == t;
  if (!twice) return 0;
  uint32_t pt;
  const bool pair = rv32_opcode(x) == RV32_OP_JALR && pc >= c->lo + 4u &&
                    rv32_call_pair_at(c->rel, c->nrel, pc - 4, hwprof_cfg_word(c, pc - 4), x, &pt);
  return pair ? pc - 4u : pc;
}

/* ---------------------------------------------------------------- sizes */

/* Relocations that make a code address inside c a target (jump tables, label addresses): every
 * kind except the fields of the function's own transfers and PC-relative low parts. */
static bool takes_address(const hwprof_cfg_code_t *c, const rv32_reloc_t *r) {
  if (r->target <= c->lo || r->target >= c->hi) return false;
  switch (r->type) {
    case R_RISCV_BRANCH:
    case R_RISCV_JAL:
    case R_RISCV_CALL:
    case R_RISCV_CALL_PLT:
    case R_RISCV_PCREL_LO12_I:
    case R_RISCV_PCREL_LO12_S: return false;
    default: return true;
  }
}

static unsigned count_taken(const hwprof_cfg_code_t *c) {
  unsigned n = 0;
  for (unsigned i = 0; i < c->nrel; i++) n += takes_address(c, &c->rel[i]);
  return n;
}

/* the entries, three a word, and a dispatch node's: one a taken address and one to EXIT */
static size_t max_edges(const hwprof_cfg_code_t *c, unsigned nw, unsigned ntaken) {
  return 2u + c->nentry + 3u * (size_t)nw + ntaken;
}

size_t hwprof_cfg_need(const hwprof_cfg_code_t *c) {
  const unsigned ntaken = count_taken(c);
  const size_t nw = (c->hi - c->lo) / 4u, ne = max_edges(c, (unsigned)nw, ntaken);
  size_t n = nw * sizeof(uint32_t);                                      /* callees */
  n += (nw + 1) + ntaken * sizeof(uint32_t);                             /* leaders, targets */
  n += (nw + 1) * sizeof(hwprof_cfg_block_t) + nw * sizeof(int) + ne * sizeof(hwprof_cfg_edge_t);
  n += 2 * (nw + 1 + ne) * sizeof(int);                                  /* successors, predecessors */
  n += 6 * (nw + 1) * sizeof(int) + (nw + 1) * sizeof(hwprof_cfg_loop_t); /* dominators, loops */
  return n + 24 * 8;                                                     /* alignment */
}

/* ---------------------------------------------------------------- scan and build */

int hwprof_cfg_scan(hwprof_cfg_func_t *f, const hwprof_cfg_code_t *c, hwprof_arena_t *a) {
  memset(f, 0, sizeof *f);
  f->lo = c->lo;
  f->hi = c->hi;
  const unsigned nw = (c->hi - c->lo) / 4u;
  if ((f->callee = ALLOC(a, uint32_t, nw + 1)) == NULL) return -1;
  for (uint32_t pc = c->lo; pc < c->hi; pc += 4) {
    uint32_t t;
    const hwprof_cf_t k = hwprof_cfg_classify(c, pc, hwprof_cfg_word(c, pc), &t);
    if (k == HWPROF_CF_PROF && f->why == HWPROF_CFG_OK) {
      f->why = HWPROF_CFG_PROFILED;
      f->why_arg = pc;
    }
    if (k != HWPROF_CF_CALL) continue;
    if (t == 0) f->indirect_call = true;
    else f->callee[f->ncallee++] = t;
  }
  return 0;
}

static int add_edge(hwprof_cfg_func_t *f, size_t cap, hwprof_cfg_kind_t k, int src, int dst) {
  if (f->nedge == cap) return -1; /* cannot happen: max_edges() bounds it */
  f->edge[f->nedge++] = (hwprof_cfg_edge_t){k, src, dst};
  return 0;
}

#define NO_CFG(w, arg)  \
  do {                  \
    f->why = (w);       \
    f->why_arg = (arg); \
    return 0;           \
  } while (0)

int hwprof_cfg_build(hwprof_cfg_func_t *f, const hwprof_cfg_code_t *c, hwprof_arena_t *a) {
  const unsigned nw = (c->hi - c->lo) / 4u, ntaken = count_taken(c);
  const size_t ecap = max_edges(c, nw, ntaken);
  bool *leader = ALLOC(a, bool, nw + 1);
  uint32_t *targets = ALLOC(a, uint32_t, ntaken + 1);
  unsigned ntargets = 0, nind = 0;
  if (leader == NULL || targets == NULL) return -1;
  f->nblk = f->nedge = 0;
  f->dispatch = -1;
  for (unsigned i = 0; i < c->nrel; i++) {
    const rv32_reloc_t *r = &c->rel[i];
    if (!takes_address(c, r)) continue;
    bool dup = false;
    for (unsigned k = 0; k < ntargets; k++) dup |= targets[k] == r->target;
    if (!dup) targets[ntargets++] = r->target;
  }
  leader[0] = true;
  for (uint32_t pc = c->lo; pc < c->hi; pc += 4) { /* calls that return twice: blocks of their own */
    const uint32_t at = hwprof_cfg_twice_call_at(c, pc);
    if (at) leader[(at - c->lo) / 4u] = leader[(pc - c->lo) / 4u + 1u] = true;
  }
  for (unsigned k = 0; k < c->nentry; k++)
    if (c->entry[k] > c->lo && c->entry[k] < c->hi && !(c->entry[k] & 3u)) leader[(c->entry[k] - c->lo) / 4u] = true;
  for (uint32_t pc = c->lo; pc < c->hi; pc += 4) {
    uint32_t t;
    const unsigned w = (pc - c->lo) / 4u;
    switch (hwprof_cfg_classify(c, pc, hwprof_cfg_word(c, pc), &t)) {
      case HWPROF_CF_BRANCH:
        if (t < c->lo || t >= c->hi || (t & 3u)) NO_CFG(HWPROF_CFG_BRANCH_LEAVES, pc);
        leader[(t - c->lo) / 4u] = true;
        leader[w + 1] = true;
        break;
      case HWPROF_CF_JUMP:
        if (t >= c->lo && t < c->hi && !(t & 3u)) leader[(t - c->lo) / 4u] = true;
        leader[w + 1] = true;
        break;
      case HWPROF_CF_INDIRECT:
        nind++;
        leader[w + 1] = true;
        break;
      case HWPROF_CF_RET:
      case HWPROF_CF_TAIL:
      case HWPROF_CF_MRET: leader[w + 1] = true; break;
      default: break;
    }
  }
  /* without a code address taken inside the function, an indirect jump can only leave it: a tail
   * call through a register (GCC's `return f(...)` through a pointer), an exit like a return */
  const bool dispatch = nind > 1 && ntargets;
  if (dispatch && !c->dispatch) NO_CFG(HWPROF_CFG_INDIRECTS, nind);
  if (nind == 0 && ntargets) NO_CFG(HWPROF_CFG_TAKEN_ADDR, targets[0]);
  for (unsigned k = 0; k < ntargets; k++) {
    if (targets[k] & 3u) NO_CFG(HWPROF_CFG_MISALIGNED, targets[k]);
    leader[(targets[k] - c->lo) / 4u] = true;
  }
  /* blocks */
  f->blk = ALLOC(a, hwprof_cfg_block_t, nw + 1);
  f->blk_of = ALLOC(a, int, nw);
  f->edge = ALLOC(a, hwprof_cfg_edge_t, ecap);
  if (f->blk == NULL || f->blk_of == NULL || f->edge == NULL) return -1;
  for (unsigned w = 0; w < nw; w++) {
    if (leader[w]) f->blk[f->nblk++] = (hwprof_cfg_block_t){.start = c->lo + 4u * w};
    f->blk_of[w] = (int)f->nblk - 1;
  }
  for (unsigned b = 0; b < f->nblk; b++) f->blk[b].end = b + 1 < f->nblk ? f->blk[b + 1].start : c->hi;
  const unsigned ncode = f->nblk; /* the blocks of code; the dispatch node comes after them */
  if (dispatch) {
    f->dispatch = (int)f->nblk;
    f->blk[f->nblk++] = (hwprof_cfg_block_t){.start = c->hi, .end = c->hi};
  }
  /* edges, grouped by source block */
  int bad = add_edge(f, ecap, HWPROF_CFG_VIRTUAL_ENTRY, HWPROF_CFG_EXIT, 0);
  for (unsigned k = 0; k < c->nentry; k++)
    if (c->entry[k] > c->lo && c->entry[k] < c->hi && !(c->entry[k] & 3u))
      bad |= add_edge(f, ecap, HWPROF_CFG_VIRTUAL_ENTRY, HWPROF_CFG_EXIT, f->blk_of[(c->entry[k] - c->lo) / 4u]);
  for (uint32_t pc = c->lo; pc < c->hi; pc += 4)
    if (hwprof_cfg_twice_call_at(c, pc)) {
      f->blk[f->blk_of[(pc - c->lo) / 4u]].landing = true;
      bad |= add_edge(f, ecap, HWPROF_CFG_VIRTUAL_ENTRY, HWPROF_CFG_EXIT, f->blk_of[(pc - c->lo) / 4u]);
    }
  for (unsigned b = 0; b < ncode; b++) {
    const uint32_t term = f->blk[b].end - 4;
    const int next = b + 1 < ncode ? (int)b + 1 : HWPROF_CFG_EXIT;
    bool may_leave = false;
    uint32_t t;
    for (uint32_t pc = f->blk[b].start; pc < f->blk[b].end; pc += 4) {
      const hwprof_cf_t k = hwprof_cfg_classify(c, pc, hwprof_cfg_word(c, pc), &t);
      may_leave |= (k == HWPROF_CF_CALL && !hwprof_cfg_twice_call_at(c, pc)) || k == HWPROF_CF_ENV;
    }
    switch (hwprof_cfg_classify(c, term, hwprof_cfg_word(c, term), &t)) {
      case HWPROF_CF_BRANCH:
        if (next == HWPROF_CFG_EXIT) NO_CFG(HWPROF_CFG_FALLS_OFF, term);
        bad |= add_edge(f, ecap, HWPROF_CFG_TAKEN, (int)b, f->blk_of[(t - c->lo) / 4u]);
        bad |= add_edge(f, ecap, HWPROF_CFG_NOT_TAKEN, (int)b, next);
        break;
      case HWPROF_CF_JUMP:
        if (t >= c->lo && t < c->hi && !(t & 3u)) bad |= add_edge(f, ecap, HWPROF_CFG_JUMP, (int)b, f->blk_of[(t - c->lo) / 4u]);
        else bad |= add_edge(f, ecap, HWPROF_CFG_TAIL, (int)b, HWPROF_CFG_EXIT);
        break;
      case HWPROF_CF_INDIRECT:
        if (ntargets == 0) bad |= add_edge(f, ecap, HWPROF_CFG_TAIL, (int)b, HWPROF_CFG_EXIT);
        if (dispatch) {
          bad |= add_edge(f, ecap, HWPROF_CFG_INDIRECT, (int)b, f->dispatch);
          break;
        }
        for (unsigned k = 0; k < ntargets; k++)
          bad |= add_edge(f, ecap, HWPROF_CFG_INDIRECT, (int)b, f->blk_of[(targets[k] - c->lo) / 4u]);
        break;
      case HWPROF_CF_RET:
      case HWPROF_CF_MRET: bad |= add_edge(f, ecap, HWPROF_CFG_RETURN, (int)b, HWPROF_CFG_EXIT); break;
      case HWPROF_CF_TAIL: bad |= add_edge(f, ecap, HWPROF_CFG_TAIL, (int)b, HWPROF_CFG_EXIT); break;
      default:
        bad |= add_edge(f, ecap, next == HWPROF_CFG_EXIT ? HWPROF_CFG_FALL_OUT : HWPROF_CFG_FALL, (int)b, next);
        break;
    }
    if (may_leave) bad |= add_edge(f, ecap, HWPROF_CFG_VIRTUAL_EXIT, (int)b, HWPROF_CFG_EXIT);
  }
  if (dispatch) {
    for (unsigned k = 0; k < ntargets; k++)
      bad |= add_edge(f, ecap, HWPROF_CFG_DISPATCH, f->dispatch, f->blk_of[(targets[k] - c->lo) / 4u]);
    bad |= add_edge(f, ecap, HWPROF_CFG_DISPATCH, f->dispatch, HWPROF_CFG_EXIT);
  }
  return bad ? -1 : 0;
}

/* ---------------------------------------------------------------- dominators and loops */

static bool real_edge(const hwprof_cfg_edge_t *e) {
  return !hwprof_cfg_is_virtual(e->kind) && e->src >= 0 && e->dst >= 0;
}

/* Compressed adjacency: for node v, list[start[v] .. start[v+1]) (successors or predecessors). */
static int adjacency(const hwprof_cfg_func_t *f, bool succ, int **start, int **list, hwprof_arena_t *a) {
  int *s = ALLOC(a, int, f->nblk + 1), *l = ALLOC(a, int, f->nedge + 1);
  if (s == NULL || l == NULL) return -1;
  for (unsigned e = 0; e < f->nedge; e++)
    if (real_edge(&f->edge[e])) s[(succ ? f->edge[e].src : f->edge[e].dst) + 1]++;
  for (unsigned v = 0; v < f->nblk; v++) s[v + 1] += s[v];
  for (unsigned e = 0; e < f->nedge; e++) /* s[v] runs up to s[v+1] and is put back below */
    if (real_edge(&f->edge[e])) {
      const int from = succ ? f->edge[e].src : f->edge[e].dst;
      l[s[from]++] = succ ? f->edge[e].dst : f->edge[e].src;
    }
  for (unsigned v = f->nblk; v > 0; v--) s[v] = s[v - 1];
  s[0] = 0;
  *start = s;
  *list = l;
  return 0;
}

int hwprof_cfg_loops(hwprof_cfg_func_t *f, hwprof_arena_t *a) {
  const unsigned n = f->nblk;
  int *ss, *sl, *ps, *pl;
  int *rpo = ALLOC(a, int, n + 1), *num = ALLOC(a, int, n + 1), *stack = ALLOC(a, int, n + 1),
      *next = ALLOC(a, int, n + 1);
  f->idom = ALLOC(a, int, n + 1);
  f->loop_of = ALLOC(a, int, n + 1);
  f->loop = ALLOC(a, hwprof_cfg_loop_t, n + 1);
  f->nloop = f->irreducible = 0;
  if (!rpo || !num || !stack || !next || !f->idom || !f->loop_of || !f->loop) return -1;
  if (adjacency(f, true, &ss, &sl, a) || adjacency(f, false, &ps, &pl, a)) return -1;
  if (n == 0) return 0;
  /* reverse postorder of the blocks reachable from the entry (iterative depth-first search) */
  for (unsigned v = 0; v < n; v++) num[v] = -1, f->idom[v] = -1, f->loop_of[v] = -1;
  unsigned sp = 0, done = 0;
  stack[sp++] = 0;
  next[0] = ss[0];
  num[0] = 0; /* on the stack: visited */
  while (sp) {
    const int v = stack[sp - 1];
    if (next[v] < ss[v + 1]) {
      const int w = sl[next[v]++];
      if (num[w] < 0) {
        num[w] = 0;
        next[w] = ss[w];
        stack[sp++] = w;
      }
      continue;
    }
    sp--;
    rpo[n - 1 - done++] = v;
  }
  const int *order = rpo + (n - done); /* order[0..done): reverse postorder, order[0] = entry */
  for (unsigned i = 0; i < done; i++) num[order[i]] = (int)i;
  /* immediate dominators */
  f->idom[0] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (unsigned i = 1; i < done; i++) {
      const int v = order[i];
      int d = -1;
      for (int k = ps[v]; k < ps[v + 1]; k++) {
        int p = pl[k];
        if (num[p] < 0 || f->idom[p] < 0) continue;
        if (d < 0) {
          d = p;
          continue;
        }
        while (p != d) { /* intersect: walk the deeper one up */
          while (num[p] > num[d]) p = f->idom[p];
          while (num[d] > num[p]) d = f->idom[d];
        }
      }
      if (d >= 0 && f->idom[v] != d) {
        f->idom[v] = d;
        changed = true;
      }
    }
  }
  /* natural loops, innermost headers first (a nested header comes later in reverse postorder) */
  int *mark = stack; /* reused: mark[v] = loop whose body walk reached v */
  for (unsigned v = 0; v < n; v++) mark[v] = -1;
  for (int i = (int)done - 1; i >= 0; i--) {
    const int h = order[i];
    unsigned nsrc = 0;
    for (int k = ps[h]; k < ps[h + 1]; k++) {
      const int u = pl[k];
      if (num[u] < 0) continue;
      if (hwprof_cfg_dominates(f, h, u)) nsrc++;
      else if (num[h] <= num[u]) f->irreducible++;
    }
    if (nsrc == 0) continue;
    const int l = (int)f->nloop++;
    f->loop[l] = (hwprof_cfg_loop_t){h, -1, 0, 0};
    unsigned top = 0;
    mark[h] = l;
    f->nloop = (unsigned)l + 1;
    for (int k = ps[h]; k < ps[h + 1]; k++) {
      const int u = pl[k];
      if (num[u] >= 0 && hwprof_cfg_dominates(f, h, u) && mark[u] != l) {
        mark[u] = l;
        next[top++] = u;
      }
    }
    /* every block reaching a back edge's source without passing h; inner loops are taken whole */
    f->loop[l].nblocks = 1;
    while (top) {
      int v = next[--top];
      if (f->loop_of[v] >= 0 && v != h) { /* v belongs to an inner loop: take its outermost loop */
        int m = f->loop_of[v];
        while (f->loop[m].parent >= 0) m = f->loop[m].parent;
        if (m == l) continue;
        f->loop[m].parent = l;
        f->loop[l].nblocks += f->loop[m].nblocks;
        v = f->loop[m].header;
      } else {
        if (v != h) f->loop[l].nblocks++;
        if (v != h) f->loop_of[v] = l;
      }
      for (int k = ps[v]; k < ps[v + 1]; k++) {
        const int u = pl[k];
        if (num[u] < 0 || u == h || mark[u] == l) continue;
        mark[u] = l;
        next[top++] = u;
      }
    }
    if (f->loop_of[h] < 0) f->loop_of[h] = l;
  }
  for (unsigned l = 0; l < f->nloop; l++) {
    unsigned d = 1;
    for (int m = f->loop[l].parent; m >= 0; m = f->loop[m].parent) d++;
    f->loop[l].depth = d;
  }
  return 0;
}

bool hwprof_cfg_dominates(const hwprof_cfg_func_t *f, int a, int b) {
  if (a < 0 || b < 0 || f->idom[b] < 0) return false;
  for (;;) {
    if (b == a) return true;
    if (b == 0) return false;
    b = f->idom[b];
  }
}

bool hwprof_cfg_in_loop(const hwprof_cfg_func_t *f, unsigned l, int b) {
  for (int m = b >= 0 ? f->loop_of[b] : -1; m >= 0; m = f->loop[m].parent)
    if ((unsigned)m == l) return true;
  return false;
}
