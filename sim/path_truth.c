/* The path profile's oracle; see path_truth.h and docs/path-prof.md. */
#include "path_truth.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof_regs.h"

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
  return 0;
}

void path_truth_free(path_truth_t *t) {
  for (unsigned d = 0; d < t->stack_cap; d++) free(t->stack[d].blk);
  free(t->stack);
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

static uint64_t hash_path(int fn, const uint32_t *b, uint32_t len, uint8_t end) {
  uint64_t h = 0xcbf29ce484222325u ^ (uint64_t)(uint32_t)fn ^ ((uint64_t)end << 40);
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

/* counts activation a's current path, which ended as end */
static void record(path_truth_t *t, const path_act_t *a, path_end_t end) {
  if (a->fn < 0 || a->len == 0 || cfg_of(t, a->fn) == NULL || t->failed) return;
  t->cut++;
  if (4 * (t->used + 1) > 3 * t->cap && !grow_table(t)) {
    t->failed = true;
    return;
  }
  const uint64_t h = hash_path(a->fn, a->blk, a->len, (uint8_t)end);
  size_t j = h & (t->cap - 1);
  for (; t->tab[j].count; j = (j + 1) & (t->cap - 1)) {
    const path_entry_t *e = &t->tab[j];
    if (e->hash == h && e->fn == a->fn && e->len == a->len && e->end == end &&
        !memcmp(t->pool + e->off, a->blk, a->len * sizeof *a->blk)) {
      t->tab[j].count++;
      return;
    }
  }
  if (t->pool_len + a->len > t->pool_cap) {
    size_t cap = t->pool_cap ? 2 * t->pool_cap : 4096;
    while (cap < t->pool_len + a->len) cap *= 2;
    uint32_t *p = realloc(t->pool, cap * sizeof *p);
    if (p == NULL) {
      t->failed = true;
      return;
    }
    t->pool = p;
    t->pool_cap = cap;
  }
  memcpy(t->pool + t->pool_len, a->blk, a->len * sizeof *a->blk);
  t->tab[j] = (path_entry_t){h, 1, a->fn, (uint32_t)t->pool_len, a->len, (uint8_t)end};
  t->pool_len += a->len;
  t->used++;
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

void path_truth_event(path_truth_t *t, const hwprof_retire_ev_t *ev) {
  if (!ev->valid || ev->trap == HWPROF_TRAP_HANDLER || ev->trap == 3u || t->failed) return;
  const uint32_t pc = ev->pc;
  const int fn = hwprof_cfg_prog_fn_at(&t->prog, pc);
  if (t->tail_pending && t->depth > 0) { /* a tail call: the activation is the new function's now */
    record(t, &t->stack[t->depth - 1], kPathEndExit);
    t->depth--;
  }
  if (t->depth == 0 || t->call_pending || t->tail_pending) {
    if (push(t, fn) == NULL) {
      t->failed = true;
      return;
    }
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
      if (a->len > 0 && a->last >= 0 && f->idom[blk] >= 0 && f->idom[a->last] >= 0 &&
          hwprof_cfg_dominates(f, blk, a->last)) { /* a back edge ends the path; the next starts here */
        record(t, a, kPathEndBack);
        a->len = 0;
      }
      if (!append(a, (uint32_t)blk)) t->failed = true;
    }
    a->last = blk;
  }
  if (ev->is_call) {
    t->call_pending = true;
  } else if (ev->is_ret) {
    record(t, a, kPathEndExit);
    t->depth--;
  } else if ((ev->kind == HWPROF_KIND_JUMP || ev->kind == HWPROF_KIND_IJUMP) && f != NULL &&
             (ev->next_pc < f->lo || ev->next_pc >= f->hi)) {
    t->tail_pending = true;
  }
}

static const char *const kEndName[] = {"exit", "back", "open"};

int path_truth_finish(path_truth_t *t, FILE *out, const char *program) {
  for (unsigned d = t->depth; d > 0; d--) record(t, &t->stack[d - 1], kPathEndOpen);
  t->depth = 0;
  fprintf(out, "hwprof-path-truth 1\nprogram %s\n", program);
  if (t->failed) fprintf(out, "error out of memory: the paths below are not all\n");
  for (unsigned fn = 0; fn < t->prog.nfn; fn++) {
    unsigned n = 0;
    uint64_t runs = 0;
    for (size_t j = 0; j < t->cap; j++)
      if (t->tab[j].count && t->tab[j].fn == (int)fn) {
        n++;
        runs += t->tab[j].count;
      }
    if (n == 0) continue;
    const hwprof_cfg_func_t *f = &t->prog.fn[fn].cfg;
    fprintf(out, "function %s 0x%08" PRIx32 " paths %u executions %" PRIu64 "\n", t->prog.fn[fn].name, f->lo, n, runs);
    for (size_t j = 0; j < t->cap; j++) {
      const path_entry_t *e = &t->tab[j];
      if (e->count == 0 || e->fn != (int)fn) continue;
      fprintf(out, "path %" PRIu64 " %s", e->count, kEndName[e->end]);
      for (uint32_t k = 0; k < e->len; k++) fprintf(out, " %08" PRIx32, f->blk[t->pool[e->off + k]].start);
      fputc('\n', out);
    }
  }
  fprintf(out, "end activations %" PRIu64 " paths %" PRIu64 " distinct %zu block-entries %" PRIu64 "\n", t->activations,
          t->cut, t->used, t->block_entries);
  return ferror(out) ? -1 : 0;
}
