/* The edge profile's oracle: exact edge counts of an instrumented program's run, from its retire
 * stream and its map alone (no counter, no derivation); see edge_truth.h. */
#include "oracle/edge_truth.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  uint32_t pc;  /* the edge's last instruction; for a fall edge after a call, the pc returned to */
  bool by_ret;  /* ... that one: a return to pc is the traversal */
  bool mark;    /* pc jumps into a dispatch node: its edges are in the dispatch table (one mark a pc) */
  uint32_t to;  /* a dispatch-table slot's target: the edge is taken when the jump at pc goes there */
  unsigned f, e;
  int next; /* chain */
} truth_slot_t;

struct pm_truth {
  const pm_map_t *m;
  int *head; /* hash of pc -> first slot */
  int *dhead; /* hash of {pc, target} -> first slot: a dispatch node's edges, by the jump into it and
                 where it went (an interpreter's dispatch has a hundred: one lookup, not a hundred) */
  unsigned mask;
  truth_slot_t *slot;
  unsigned nslot;
  int64_t **count; /* [f][e] */
};

/* Whether block b of fn is its dispatch node (the empty block). */
static bool is_node(const pm_func_t *fn, int b) { return b >= 0 && fn->blk[b].start == fn->blk[b].end; }

static unsigned hash_pc(uint32_t pc, unsigned mask) { return (unsigned)((pc >> 2) * 2654435761u) & mask; }
static unsigned hash_to(uint32_t pc, uint32_t to, unsigned mask) { return hash_pc(pc ^ (to * 40503u), mask); }

static truth_slot_t *add_slot(pm_truth_t *t, int *head, unsigned h) {
  truth_slot_t *s = &t->slot[t->nslot];
  s->next = head[h];
  head[h] = (int)t->nslot++;
  return s;
}
static bool marked(const pm_truth_t *t, uint32_t pc) {
  for (int i = t->head[hash_pc(pc, t->mask)]; i >= 0; i = t->slot[i].next)
    if (t->slot[i].mark && t->slot[i].pc == pc) return true;
  return false;
}

pm_truth_t *pm_truth_new(const pm_map_t *m) {
  pm_truth_t *t = calloc(1, sizeof *t);
  if (t == NULL) return NULL;
  t->m = m;
  unsigned n = 0;
  for (unsigned f = 0; f < m->nfn; f++) {
    const pm_func_t *fn = &m->fn[f];
    if (!pm_profiled(fn)) continue;
    unsigned jumps = 0; /* into a dispatch node: each of its edges is taken from any of them */
    for (unsigned e = 0; e < fn->nedge; e++) jumps += fn->edge[e].kind == HWPROF_CFG_INDIRECT && is_node(fn, fn->edge[e].dst);
    for (unsigned e = 0; e < fn->nedge; e++) n += fn->edge[e].kind == HWPROF_CFG_DISPATCH ? jumps : 1u;
    n += jumps; /* their marks */
  }
  unsigned size = 64;
  while (size < 2 * n) size *= 2;
  t->mask = size - 1;
  t->head = malloc(size * sizeof *t->head);
  t->dhead = malloc(size * sizeof *t->dhead);
  t->slot = calloc(n + 1, sizeof *t->slot);
  t->count = calloc(m->nfn + 1, sizeof *t->count);
  if (t->head == NULL || t->dhead == NULL || t->slot == NULL || t->count == NULL) {
    pm_truth_free(t);
    return NULL;
  }
  for (unsigned i = 0; i < size; i++) t->head[i] = t->dhead[i] = -1;
  for (unsigned f = 0; f < m->nfn; f++) {
    const pm_func_t *fn = &m->fn[f];
    if (!pm_profiled(fn)) continue;
    if ((t->count[f] = calloc(fn->nedge + 1, sizeof **t->count)) == NULL) {
      pm_truth_free(t);
      return NULL;
    }
    for (unsigned e = 0; e < fn->nedge; e++) {
      if (hwprof_cfg_is_virtual(fn->edge[e].kind)) continue;
      if (fn->edge[e].kind == HWPROF_CFG_DISPATCH) { /* the node to dst: any jump into it that goes there */
        if (fn->edge[e].dst == HWPROF_CFG_EXIT) continue; /* counted in pm_truth_count() */
        for (unsigned g = 0; g < fn->nedge; g++) {
          if (fn->edge[g].kind != HWPROF_CFG_INDIRECT || !is_node(fn, fn->edge[g].dst)) continue;
          const uint32_t pc = fn->edge[g].term_new, to = fn->edge[e].dst_new;
          if (to == PM_ANY) { /* (taken whatever the target: looked at like any edge) */
            truth_slot_t *a = add_slot(t, t->head, hash_pc(pc, t->mask));
            a->pc = pc;
            a->f = f;
            a->e = e;
            continue;
          }
          if (!marked(t, pc)) {
            truth_slot_t *k = add_slot(t, t->head, hash_pc(pc, t->mask));
            k->pc = pc;
            k->mark = true;
          }
          truth_slot_t *s = add_slot(t, t->dhead, hash_to(pc, to, t->mask));
          s->pc = pc;
          s->to = to;
          s->f = f;
          s->e = e;
        }
        continue;
      }
      const bool by_ret = fn->edge[e].term_new == PM_ANY;
      const uint32_t pc = by_ret ? fn->edge[e].dst_new : fn->edge[e].term_new;
      truth_slot_t *s = add_slot(t, t->head, hash_pc(pc, t->mask));
      s->by_ret = by_ret;
      s->pc = pc;
      s->f = f;
      s->e = e;
    }
  }
  return t;
}

void pm_truth_feed(pm_truth_t *t, uint32_t pc, uint32_t next_pc, bool taken, bool is_ret) {
  if (is_ret) /* a fall edge after a call is taken when the callee returns to its block */
    for (int i = t->head[hash_pc(next_pc, t->mask)]; i >= 0; i = t->slot[i].next)
      if (t->slot[i].by_ret && t->slot[i].pc == next_pc) t->count[t->slot[i].f][t->slot[i].e]++;
  for (int i = t->head[hash_pc(pc, t->mask)]; i >= 0; i = t->slot[i].next) {
    const truth_slot_t *s = &t->slot[i];
    if (s->pc != pc || s->by_ret) continue;
    if (s->mark) { /* a jump into a dispatch node: the node's edge to where it went */
      for (int j = t->dhead[hash_to(pc, next_pc, t->mask)]; j >= 0; j = t->slot[j].next)
        if (t->slot[j].pc == pc && t->slot[j].to == next_pc) t->count[t->slot[j].f][t->slot[j].e]++;
      continue;
    }
    const pm_edge_t *x = &t->m->fn[s->f].edge[s->e];
    bool hit;
    switch (x->kind) {
      case HWPROF_CFG_TAKEN: hit = taken; break;
      case HWPROF_CFG_NOT_TAKEN: hit = !taken; break;
      default: hit = x->dst_new == PM_ANY || x->dst_new == next_pc; break;
    }
    if (hit) t->count[s->f][s->e]++;
  }
}

int64_t pm_truth_count(const pm_truth_t *t, unsigned f, unsigned e) {
  if (t->count[f] == NULL) return 0;
  const pm_func_t *fn = &t->m->fn[f];
  const pm_edge_t *x = &fn->edge[e];
  if (x->kind != HWPROF_CFG_DISPATCH || x->dst != HWPROF_CFG_EXIT) return t->count[f][e];
  /* the jumps into the dispatch node that went to none of its targets: out of the function */
  int64_t n = 0;
  for (unsigned g = 0; g < fn->nedge; g++) {
    if (fn->edge[g].kind == HWPROF_CFG_INDIRECT && fn->edge[g].dst == x->src) n += t->count[f][g];
    if (fn->edge[g].kind == HWPROF_CFG_DISPATCH && fn->edge[g].src == x->src && fn->edge[g].dst != HWPROF_CFG_EXIT)
      n -= t->count[f][g];
  }
  return n;
}

void pm_truth_free(pm_truth_t *t) {
  if (t == NULL) return;
  if (t->count)
    for (unsigned f = 0; f < t->m->nfn; f++) free(t->count[f]);
  free(t->count);
  free(t->head);
  free(t->dhead);
  free(t->slot);
  free(t);
}
