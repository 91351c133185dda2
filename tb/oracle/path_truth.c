/* The path profile's oracle; see path_truth.h and docs/path.md. */
#include "oracle/path_truth.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "autogen/hwprof_regs.h"
#include "hammocks.h"
#include "pp_plan.h" /* PP_MAX_COUNTERS: the counters a function's path sums can index */

/* Function f's back edges: the retreating edges of a depth-first search from the entry block that
 * takes each block's real edges in the order the CFG lists them (an edge to a block still on the
 * search's path). In a reducible function these are the edges whose target dominates their
 * source; in an irreducible one the order picks which edge into a cycle with several entries cuts
 * the paths. Every jump into a dispatch node is one too: the node starts the next path. 0, -1 out
 * of memory. */
static int back_edges(const hwprof_cfg_func_t *f, path_back_t *out) {
  const unsigned n = f->nblk;
  unsigned *first = calloc(n + 1u, sizeof *first), *list = calloc(f->nedge + 1u, sizeof *list);
  unsigned *cursor = calloc(n + 1u, sizeof *cursor), *stack = calloc(n + 1u, sizeof *stack);
  uint8_t *state = calloc(n + 1u, 1); /* 0 not seen, 1 on the search's path, 2 done */
  bool *is_back = calloc(f->nedge + 1u, sizeof *is_back);
  out->off = calloc(n + 1u, sizeof *out->off);
  int rc = -1;
  if (!first || !list || !cursor || !stack || !state || !is_back || !out->off) goto done;
  /* each block's real edges inside the function, in the CFG's order (a counting sort by source) */
  for (unsigned e = 0; e < f->nedge; e++)
    if (!hwprof_cfg_is_virtual(f->edge[e].kind) && f->edge[e].src >= 0 && f->edge[e].dst >= 0) first[f->edge[e].src + 1]++;
  for (unsigned b = 0; b < n; b++) first[b + 1] += first[b];
  for (unsigned b = 0; b < n; b++) cursor[b] = first[b];
  for (unsigned e = 0; e < f->nedge; e++)
    if (!hwprof_cfg_is_virtual(f->edge[e].kind) && f->edge[e].src >= 0 && f->edge[e].dst >= 0)
      list[cursor[f->edge[e].src]++] = e;
  for (unsigned b = 0; b < n; b++) cursor[b] = first[b];
  unsigned sp = 0, nback = 0;
  if (n > 0) {
    stack[sp++] = 0;
    state[0] = 1;
  }
  while (sp > 0) {
    const unsigned v = stack[sp - 1];
    if (cursor[v] == first[v + 1]) {
      state[v] = 2;
      sp--;
      continue;
    }
    const unsigned e = list[cursor[v]++], w = (unsigned)f->edge[e].dst;
    if (state[w] == 1) {
      is_back[e] = true;
    } else if (state[w] == 0) {
      state[w] = 1;
      stack[sp++] = w;
    }
  }
  for (unsigned e = 0; e < f->nedge; e++) {
    is_back[e] |= f->dispatch >= 0 && f->edge[e].dst == f->dispatch;
    nback += is_back[e];
  }
  if ((out->dst = calloc(nback + 1u, sizeof *out->dst)) == NULL) goto done;
  unsigned k = 0;
  for (unsigned b = 0; b < n; b++) {
    out->off[b] = k;
    for (unsigned i = first[b]; i < first[b + 1]; i++)
      if (is_back[list[i]]) out->dst[k++] = f->edge[list[i]].dst;
  }
  out->off[n] = k;
  rc = 0;
done:
  free(first);
  free(list);
  free(cursor);
  free(stack);
  free(state);
  free(is_back);
  return rc;
}

/* Function f's hammock regions: where the plan puts them (pp_cfg_hammocks), and which blocks each
 * holds, found here: the blocks a walk from its entry along the CFG's forward edges reaches before
 * its exit, inside the region it lies in (one with no exit ends with that region's paths). */
static int hammocks_of(const hwprof_cfg_func_t *f, path_back_t *out) {
  size_t bytes = ((size_t)64 << 10) + ((size_t)f->nblk + f->nedge + 8u) * (f->nloop + 2u) * 256u;
  pp_status_t st = kPpNoMemory;
  pp_cfg_hammock_t *hm = NULL;
  uint32_t n = 0;
  uint8_t *mem = NULL;
  for (int tries = 0; tries < 6 && st == kPpNoMemory; tries++, bytes *= 2) {
    free(mem);
    if ((mem = malloc(bytes)) == NULL) return -1;
    hwprof_arena_t a = {mem, bytes, 0};
    st = pp_cfg_hammocks(f, PP_MAX_COUNTERS, &a, &hm, &n);
  }
  int rc = st == kPpOk ? 0 : -1;
  const unsigned nb = f->nblk;
  if (rc == 0 && n > 0) {
    out->hm_entry = calloc(n, sizeof *out->hm_entry);
    out->hm_exit = calloc(n, sizeof *out->hm_exit);
    out->hm_parent = calloc(n, sizeof *out->hm_parent);
    out->hm_member = calloc((size_t)n * nb, sizeof *out->hm_member);
    int *stack = calloc(nb + 1u, sizeof *stack);
    if (!out->hm_entry || !out->hm_exit || !out->hm_parent || !out->hm_member || !stack) rc = -1;
    for (uint32_t h = 0; h < n && rc == 0; h++) {
      out->hm_entry[h] = hm[h].entry;
      out->hm_exit[h] = hm[h].exit;
      out->hm_parent[h] = -1; /* the function's region, the loop it heads, or the hammock it enters */
      for (unsigned l = 0; l < f->nloop && hm[h].parent_head != 0; l++)
        if (f->loop[l].header == hm[h].parent_head) out->hm_parent[h] = (int)l;
      for (uint32_t j = 0; j < n; j++)
        if (j != h && hm[j].entry == hm[h].parent_head) out->hm_parent[h] = (int)(f->nloop + j);
      const int par = out->hm_parent[h];
      if (par >= (int)f->nloop && par - (int)f->nloop >= (int)h) { /* a hammock's parent comes first */
        rc = -1;
        break;
      }
      bool *in = out->hm_member + (size_t)h * nb, *seen = calloc(nb + 1u, sizeof *seen);
      if (seen == NULL) {
        rc = -1;
        break;
      }
      unsigned sp = 0;
      stack[sp++] = hm[h].entry;
      seen[hm[h].entry] = true;
      if (hm[h].exit >= 0) seen[hm[h].exit] = true;
      while (sp > 0) {
        const int b = stack[--sp];
        in[b] = true;
        for (unsigned e = 0; e < f->nedge; e++) {
          const int d = f->edge[e].dst;
          if (f->edge[e].src != b || d < 0 || hwprof_cfg_is_virtual(f->edge[e].kind) || seen[d]) continue;
          bool back = false; /* the parent region's own back edges end its paths: never inside */
          for (uint32_t i = out->off[b]; i < out->off[b + 1] && !back; i++) back = out->dst[i] == d;
          const bool held = par < 0 ? true
                            : par < (int)f->nloop ? hwprof_cfg_in_loop(f, (unsigned)par, d)
                                                  : out->hm_member[(size_t)(par - (int)f->nloop) * nb + (unsigned)d];
          if (back || !held) continue;
          seen[d] = true;
          stack[sp++] = d;
        }
      }
      free(seen);
    }
    free(stack);
    out->nhm = n;
  }
  free(mem);
  return rc;
}

/* whether the edge from block u to block b of function fn is a back edge */
static bool is_back(const path_truth_t *t, int fn, int u, int b) {
  const path_back_t *k = &t->back[fn];
  for (uint32_t i = k->off[u]; i < k->off[u + 1]; i++)
    if (k->dst[i] == b) return true;
  return false;
}

int path_truth_init(path_truth_t *t, const char *elf_path, char *err, size_t errlen) {
  memset(t, 0, sizeof *t);
  if (hwprof_elf_read(&t->elf, elf_path, HWPROF_ELF_RELOCATABLE, err, errlen)) return -1;
  if (hwprof_cfg_prog_read(&t->prog, &t->elf, err, errlen)) {
    hwprof_elf_free(&t->elf);
    return -1;
  }
  for (unsigned i = 0; i < t->prog.nfn; i++)
    if (!t->prog.fn[i].multi && hwprof_cfg_prog_build(&t->prog, i)) {
      snprintf(err, errlen, "%s: out of memory building the CFGs", elf_path);
      path_truth_free(t);
      return -1;
    }
  if ((t->back = calloc(t->prog.nfn + 1u, sizeof *t->back)) == NULL) {
    snprintf(err, errlen, "%s: out of memory", elf_path);
    path_truth_free(t);
    return -1;
  }
  for (unsigned i = 0; i < t->prog.nfn; i++) {
    const hwprof_cfg_fn_t *fn = &t->prog.fn[i];
    if (fn->multi || !fn->built || fn->cfg.why != HWPROF_CFG_OK) continue;
    if (back_edges(&fn->cfg, &t->back[i]) || hammocks_of(&fn->cfg, &t->back[i])) {
      snprintf(err, errlen, "%s: out of memory finding the back edges", elf_path);
      path_truth_free(t);
      return -1;
    }
  }
  return 0;
}

void path_truth_free(path_truth_t *t) {
  for (unsigned d = 0; d < t->stack_cap; d++) {
    free(t->stack[d].blk);
    for (unsigned k = 0; k < t->stack[d].capfr; k++) free(t->stack[d].fr[k].it);
    free(t->stack[d].fr);
  }
  free(t->stack);
  for (unsigned i = 0; t->back && i < t->prog.nfn; i++) {
    free(t->back[i].off);
    free(t->back[i].dst);
    free(t->back[i].hm_entry);
    free(t->back[i].hm_exit);
    free(t->back[i].hm_parent);
    free(t->back[i].hm_member);
  }
  free(t->back);
  free(t->tab);
  free(t->pool);
  hwprof_cfg_prog_free(&t->prog);
  hwprof_elf_free(&t->elf);
  memset(t, 0, sizeof *t);
}

/* the function's CFG, if it has one */
static const hwprof_cfg_func_t *cfg_of(const path_truth_t *t, int fn) {
  if (fn < 0 || t->prog.fn[fn].multi || !t->prog.fn[fn].built || t->prog.fn[fn].cfg.why != HWPROF_CFG_OK) return NULL;
  return &t->prog.fn[fn].cfg;
}

static uint64_t hash_path(int fn, int region, const uint32_t *b, uint32_t len, uint8_t end) {
  uint64_t h = 0xcbf29ce484222325u ^ (uint64_t)(uint32_t)fn ^ ((uint64_t)end << 40) ^ ((uint64_t)(uint32_t)region << 44);
  for (uint32_t i = 0; i < len; i++) {
    h ^= b[i];
    h *= 0x100000001b3u;
  }
  return h ^ len;
}

static bool grow_table(path_truth_t *t) {
  const size_t cap = t->cap ? 2 * t->cap : 1024;
  path_entry_t *tab = calloc(cap, sizeof *tab);
  if (tab == NULL) return false;
  for (size_t i = 0; i < t->cap; i++) {
    if (t->tab[i].count == 0) continue;
    size_t j = t->tab[i].hash & (cap - 1);
    while (tab[j].count) j = (j + 1) & (cap - 1);
    tab[j] = t->tab[i];
  }
  free(t->tab);
  t->tab = tab;
  t->cap = cap;
  return true;
}

/* counts one path of function fn (region: -1 plain, else the head block of its region), which
 * ended as end */
static void record_items(path_truth_t *t, int fn, int region, const uint32_t *it, uint32_t len, path_end_t end) {
  if (fn < 0 || len == 0 || cfg_of(t, fn) == NULL || t->failed) return;
  if (region < 0) t->cut++;
  else t->hcut++;
  if (4 * (t->used + 1) > 3 * t->cap && !grow_table(t)) {
    t->failed = true;
    return;
  }
  const uint64_t h = hash_path(fn, region, it, len, (uint8_t)end);
  size_t j = h & (t->cap - 1);
  for (; t->tab[j].count; j = (j + 1) & (t->cap - 1)) {
    const path_entry_t *e = &t->tab[j];
    if (e->hash == h && e->fn == fn && e->region == region && e->len == len && e->end == end &&
        !memcmp(t->pool + e->off, it, len * sizeof *it)) {
      t->tab[j].count++;
      return;
    }
  }
  if (t->pool_len + len > t->pool_cap) {
    size_t cap = t->pool_cap ? 2 * t->pool_cap : 4096;
    while (cap < t->pool_len + len) cap *= 2;
    uint32_t *p = realloc(t->pool, cap * sizeof *p);
    if (p == NULL) {
      t->failed = true;
      return;
    }
    t->pool = p;
    t->pool_cap = cap;
  }
  memcpy(t->pool + t->pool_len, it, len * sizeof *it);
  t->tab[j] = (path_entry_t){h, 1, fn, region, (uint32_t)t->pool_len, len, (uint8_t)end};
  t->pool_len += len;
  t->used++;
}

/* counts activation a's current path, which ended as end */
static void record(path_truth_t *t, const path_act_t *a, path_end_t end) { record_items(t, a->fn, -1, a->blk, a->len, end); }

/* ---- hierarchical paths (seed 004's region-based embodiment; the regions the instrumenter uses:
 * the function and its natural loops, but a loop headed by the entry block stays in the function's
 * region; a function with an irreducible loop has only its own region; and the hammocks of a
 * function whose regions have too many paths). Regions: -1 the function's, 0 .. nloop - 1 its
 * loops, nloop + h its hammock h. */

static int eff_loop(const hwprof_cfg_func_t *f, int l) {
  while (l >= 0 && f->loop[l].header == 0) l = f->loop[l].parent;
  return l;
}
/* the innermost region that holds block b among p and the hammocks nested in p (hammocks nest) */
static int hammock_in(const hwprof_cfg_func_t *f, const path_back_t *k, int p, int b) {
  for (bool deeper = true; deeper;) {
    deeper = false;
    for (unsigned h = 0; h < k->nhm && !deeper; h++)
      if (k->hm_parent[h] == p && k->hm_member[h * f->nblk + (unsigned)b]) {
        p = (int)(f->nloop + h);
        deeper = true;
      }
  }
  return p;
}
static int region_of(const hwprof_cfg_func_t *f, const path_back_t *k, int b) {
  return hammock_in(f, k, f->irreducible || f->dispatch >= 0 ? -1 : eff_loop(f, f->loop_of ? f->loop_of[b] : -1), b);
}
static int region_parent(const hwprof_cfg_func_t *f, const path_back_t *k, int r) {
  if (r >= (int)f->nloop) return k->hm_parent[r - (int)f->nloop];
  return hammock_in(f, k, eff_loop(f, f->loop[r].parent), f->loop[r].header);
}
/* the block heading region r (-1: the function's entry block) */
static uint32_t region_head(const hwprof_cfg_func_t *f, const path_back_t *k, int r) {
  return r < 0 ? 0u : r >= (int)f->nloop ? (uint32_t)k->hm_entry[r - (int)f->nloop] : (uint32_t)f->loop[r].header;
}
/* whether region l (-1: the function) holds block b */
static bool region_holds(const hwprof_cfg_func_t *f, const path_back_t *k, int l, int b) {
  for (int r = region_of(f, k, b);; r = region_parent(f, k, r)) {
    if (r == l) return true;
    if (r < 0) return false;
  }
}

static bool frame_add(path_frame_t *fr, uint32_t item) {
  if (fr->len == fr->cap) {
    const uint32_t cap = fr->cap ? 2 * fr->cap : 16;
    uint32_t *it = realloc(fr->it, cap * sizeof *it);
    if (it == NULL) return false;
    fr->it = it;
    fr->cap = cap;
  }
  fr->it[fr->len++] = item;
  return true;
}

static path_frame_t *frame_push(path_act_t *a, int loop) {
  if (a->nfr == a->capfr) {
    const unsigned cap = a->capfr ? 2 * a->capfr : 8;
    path_frame_t *fr = realloc(a->fr, cap * sizeof *fr);
    if (fr == NULL) return NULL;
    memset(fr + a->capfr, 0, (cap - a->capfr) * sizeof *fr);
    a->fr = fr;
    a->capfr = cap;
  }
  path_frame_t *fr = &a->fr[a->nfr++];
  fr->loop = loop;
  fr->len = 0;
  return fr;
}

/* the top frame's path ends (a region left, its back edge taken, the function left) */
static void frame_end(path_truth_t *t, path_act_t *a, const hwprof_cfg_func_t *f, path_end_t end) {
  const path_frame_t *fr = &a->fr[a->nfr - 1];
  record_items(t, a->fn, (int)region_head(f, &t->back[a->fn], fr->loop), fr->it, fr->len, end);
}

/* block b entered from the top frame's region (which holds it): the regions entered on the way */
static bool frame_enter(const path_truth_t *t, path_act_t *a, const hwprof_cfg_func_t *f, int b) {
  const path_back_t *k = &t->back[a->fn];
  int chain[64], m = 0;
  const int top = a->fr[a->nfr - 1].loop;
  for (int r = region_of(f, k, b); r != top; r = region_parent(f, k, r)) {
    if (r < 0 || m == 64) return false;
    chain[m++] = r;
  }
  for (int i = m - 1; i >= -1; i--) {
    const uint32_t item = i >= 0 ? PATH_TRUTH_CHILD | region_head(f, k, chain[i]) : (uint32_t)b;
    if (!frame_add(&a->fr[a->nfr - 1], item)) return false;
    if (i >= 0 && frame_push(a, chain[i]) == NULL) return false;
  }
  return true;
}

/* the activation enters block b (from its last block, or at its start) */
static void hier_block(path_truth_t *t, path_act_t *a, const hwprof_cfg_func_t *f, int b) {
  if (a->nfr == 0) { /* the activation's start: the function's region */
    if (frame_push(a, -1) == NULL || !frame_enter(t, a, f, b)) t->failed = true;
    return;
  }
  const int u = a->last;
  if (u >= 0 && is_back(t, a->fn, u, b)) {
    /* a back edge of the region headed by b (of the function's, in an irreducible function): the
     * regions inside it are left, its path ends, the next one starts at b */
    const int c = region_of(f, &t->back[a->fn], b);
    while (a->nfr > 1 && a->fr[a->nfr - 1].loop != c) {
      frame_end(t, a, f, kPathEndBack);
      a->nfr--;
    }
    if (a->fr[a->nfr - 1].loop != c) {
      t->failed = true;
      return;
    }
    frame_end(t, a, f, kPathEndBack);
    a->fr[a->nfr - 1].len = 0;
    if (!frame_add(&a->fr[a->nfr - 1], (uint32_t)b)) t->failed = true;
    return;
  }
  while (a->nfr > 1 && !region_holds(f, &t->back[a->fn], a->fr[a->nfr - 1].loop, b)) { /* the regions left */
    frame_end(t, a, f, kPathEndBack);
    a->nfr--;
  }
  if (!frame_enter(t, a, f, b)) t->failed = true;
}

/* the activation ends (a return, a tail call: every region's path ends; open: the run ended; back:
 * a jump into the dispatch node left the function, and ended the path there) */
static void hier_end(path_truth_t *t, path_act_t *a, path_end_t end) {
  const hwprof_cfg_func_t *f = a->fn >= 0 ? cfg_of(t, a->fn) : NULL;
  for (; a->nfr > 0; a->nfr--)
    if (f != NULL)
      frame_end(t, a, f, end == kPathEndOpen || end == kPathEndBack ? end : a->nfr > 1 ? kPathEndBack : kPathEndExit);
}

/* whether activation a's last block jumps into its function's dispatch node */
static bool at_dispatch(const path_truth_t *t, const path_act_t *a, const hwprof_cfg_func_t *f) {
  return f != NULL && f->dispatch >= 0 && a->last >= 0 && a->last != f->dispatch && is_back(t, a->fn, a->last, f->dispatch);
}

static path_act_t *push(path_truth_t *t, int fn) {
  if (t->depth == t->stack_cap) {
    const unsigned cap = t->stack_cap ? 2 * t->stack_cap : 64;
    path_act_t *s = realloc(t->stack, cap * sizeof *s);
    if (s == NULL) return NULL;
    memset(s + t->stack_cap, 0, (cap - t->stack_cap) * sizeof *s);
    t->stack = s;
    t->stack_cap = cap;
  }
  path_act_t *a = &t->stack[t->depth++];
  a->fn = fn;
  a->len = 0;
  a->last = -1;
  a->nfr = 0;
  t->activations++;
  return a;
}

static bool append(path_act_t *a, uint32_t blk) {
  if (a->len == a->cap) {
    const uint32_t cap = a->cap ? 2 * a->cap : 32;
    uint32_t *b = realloc(a->blk, cap * sizeof *b);
    if (b == NULL) return false;
    a->blk = b;
    a->cap = cap;
  }
  a->blk[a->len++] = blk;
  return true;
}

/* A longjmp landed at pc in activation a: behind one of its calls of setjmp (the call's block, a
 * landing block of the CFG), its path in progress is cut off and a new one starts at that block;
 * anywhere else the activation goes on (a function the CFG layer does not know returns twice). */
static void land(path_truth_t *t, path_act_t *a, uint32_t pc) {
  const hwprof_cfg_func_t *f = cfg_of(t, a->fn);
  if (f == NULL || pc < f->lo + 4u || pc > f->hi) return;
  const int b = f->blk_of[(pc - 4u - f->lo) / 4u];
  if (b < 0 || !f->blk[b].landing || f->blk[b].end != pc) return;
  record(t, a, kPathEndOpen);
  hier_end(t, a, kPathEndOpen);
  a->len = 0;
  if (!append(a, (uint32_t)b)) t->failed = true;
  hier_block(t, a, f, b);
  a->last = b;
}

void path_truth_event(path_truth_t *t, const hwprof_retire_ev_t *ev, uint32_t sp) {
  if (!ev->valid || ev->trap == HWPROF_TRAP_HANDLER || ev->trap == 3u || t->failed) return;
  const uint32_t pc = ev->pc;
  const int fn = hwprof_cfg_prog_fn_at(&t->prog, pc);
  uint32_t ret_to = t->call_ret, at_sp = t->call_sp; /* a call's; a tail call keeps the activation's */
  if (t->tail_pending && t->depth > 0) { /* a tail call: the activation is the new function's now */
    path_act_t *a = &t->stack[t->depth - 1];
    /* through the dispatch node, the jump ended the path (its edge into the node is a back edge)
     * and the node alone is no path */
    const path_end_t end = at_dispatch(t, a, cfg_of(t, a->fn)) ? kPathEndBack : kPathEndExit;
    record(t, a, end);
    hier_end(t, a, end);
    ret_to = a->ret_to;
    at_sp = a->sp;
    t->depth--;
  }
  if (t->depth == 0 || t->call_pending || t->tail_pending) {
    if (t->depth == 0 && !t->call_pending && !t->tail_pending) ret_to = 0; /* the first: returns who knows where */
    path_act_t *n = push(t, fn);
    if (n == NULL) {
      t->failed = true;
      return;
    }
    n->ret_to = ret_to;
    n->sp = at_sp;
  }
  t->call_pending = t->tail_pending = false;
  path_act_t *a = &t->stack[t->depth - 1];
  const hwprof_cfg_func_t *f = cfg_of(t, fn);
  if (a->fn != fn || f == NULL) {
    t->untracked++; /* code of another function than the activation's, or one without a CFG */
  } else {
    const int blk = f->blk_of[(pc - f->lo) / 4u];
    if (blk >= 0 && pc == f->blk[blk].start) { /* a block entered */
      t->block_entries++;
      if (a->len > 0 && at_dispatch(t, a, f)) { /* through the dispatch node: the jump's back edge into it */
        record(t, a, kPathEndBack);
        a->len = 0;
        if (!append(a, (uint32_t)f->dispatch)) t->failed = true;
        hier_block(t, a, f, f->dispatch);
        a->last = f->dispatch;
      }
      if (a->len > 0 && a->last >= 0 && is_back(t, fn, a->last, blk)) { /* a back edge ends the path; the next starts here */
        record(t, a, kPathEndBack);
        a->len = 0;
      }
      if (!append(a, (uint32_t)blk)) t->failed = true;
      hier_block(t, a, f, blk);
    }
    a->last = blk;
  }
  if (ev->is_call) {
    t->call_pending = true;
    t->call_ret = pc + 4u;
    t->call_sp = sp;
  } else if (ev->is_ret) {
    record(t, a, kPathEndExit);
    hier_end(t, a, kPathEndExit);
    t->depth--;
    if (a->ret_to != 0 && ev->next_pc != a->ret_to) { /* a longjmp landing: the frames it leaves */
      for (; t->depth > 0 && t->stack[t->depth - 1].sp <= sp; t->depth--) {
        record(t, &t->stack[t->depth - 1], kPathEndOpen);
        hier_end(t, &t->stack[t->depth - 1], kPathEndOpen);
      }
      if (t->depth > 0) land(t, &t->stack[t->depth - 1], ev->next_pc);
    }
  } else if ((ev->kind == HWPROF_KIND_JUMP || ev->kind == HWPROF_KIND_IJUMP) && f != NULL &&
             (ev->next_pc < f->lo || ev->next_pc >= f->hi)) {
    t->tail_pending = true;
  }
}

static const char *const kEndName[] = {"exit", "back", "open"};

int path_truth_finish(path_truth_t *t, FILE *out, const char *program) {
  for (unsigned d = t->depth; d > 0; d--) {
    record(t, &t->stack[d - 1], kPathEndOpen);
    hier_end(t, &t->stack[d - 1], kPathEndOpen);
  }
  t->depth = 0;
  fprintf(out, "hwprof-path-truth 1\nprogram %s\n", program);
  if (t->failed) fprintf(out, "error out of memory: the paths below are not all\n");
  for (unsigned fn = 0; fn < t->prog.nfn; fn++) {
    unsigned n = 0;
    uint64_t runs = 0;
    for (size_t j = 0; j < t->cap; j++)
      if (t->tab[j].count && t->tab[j].fn == (int)fn && t->tab[j].region < 0) {
        n++;
        runs += t->tab[j].count;
      }
    if (n == 0) continue;
    const hwprof_cfg_func_t *f = &t->prog.fn[fn].cfg;
    fprintf(out, "function %s 0x%08" PRIx32 " paths %u executions %" PRIu64 "\n", t->prog.fn[fn].name, f->lo, n, runs);
    for (size_t j = 0; j < t->cap; j++) {
      const path_entry_t *e = &t->tab[j];
      if (e->count == 0 || e->fn != (int)fn || e->region >= 0) continue;
      fprintf(out, "path %" PRIu64 " %s", e->count, kEndName[e->end]);
      for (uint32_t k = 0; k < e->len; k++) fprintf(out, " %08" PRIx32, f->blk[t->pool[e->off + k]].start);
      fputc('\n', out);
    }
    /* hierarchical paths, region by region (the function's first: its head is the entry block) */
    for (uint32_t b = 0; b < f->nblk; b++) {
      unsigned rn = 0;
      uint64_t rruns = 0;
      for (size_t j = 0; j < t->cap; j++)
        if (t->tab[j].count && t->tab[j].fn == (int)fn && t->tab[j].region == (int)b) {
          rn++;
          rruns += t->tab[j].count;
        }
      if (rn == 0) continue;
      fprintf(out, "region %08" PRIx32 " paths %u executions %" PRIu64 "\n", f->blk[b].start, rn, rruns);
      for (size_t j = 0; j < t->cap; j++) {
        const path_entry_t *e = &t->tab[j];
        if (e->count == 0 || e->fn != (int)fn || e->region != (int)b) continue;
        /* the function's region ends at its exit; a loop's by leaving or by its back edge: "end" */
        const char *end = e->end == kPathEndOpen ? "open" : e->end == kPathEndExit ? "exit" : "end";
        fprintf(out, "rpath %" PRIu64 " %s", e->count, end);
        for (uint32_t k = 0; k < e->len; k++) {
          const uint32_t x = t->pool[e->off + k];
          if (x & PATH_TRUTH_CHILD) fprintf(out, " L%08" PRIx32, f->blk[x & ~PATH_TRUTH_CHILD].start);
          else fprintf(out, " %08" PRIx32, f->blk[x].start);
        }
        fputc('\n', out);
      }
    }
  }
  fprintf(out, "end activations %" PRIu64 " paths %" PRIu64 " hierarchical %" PRIu64 " distinct %zu block-entries %" PRIu64
               "\n", t->activations, t->cut, t->hcut, t->used, t->block_entries);
  return ferror(out) ? -1 : 0;
}
