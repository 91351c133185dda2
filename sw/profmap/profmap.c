/* The instrumenter's map, edge-profile derivation, the exact profile from a retire stream, and
 * profile files; see profmap.h and docs/instrumenter.md. */
#include "profmap.h"

#include "hwprof_meta.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- the map file */

static void node_str(int b, char *buf, size_t n) {
  if (b == HWPROF_CFG_EXIT) snprintf(buf, n, "exit");
  else snprintf(buf, n, "%d", b);
}

static void counter_str(int c, char *buf, size_t n) {
  if (c == PM_NONE) snprintf(buf, n, "-");
  else snprintf(buf, n, "%d", c);
}

int pm_write(const pm_map_t *m, FILE *to) {
  fprintf(to, "hwprof-map 1\n");
  fprintf(to, "program %s\nmode %s\nk %u\ncounter-bytes %u\ncounters 0x%08" PRIx32 " %u\n", m->program, m->mode, m->k,
          m->cnt_bytes, m->counters_at, m->total_counters);
  if (m->text_hi) fprintf(to, "text 0x%08" PRIx32 " 0x%08" PRIx32 "\n", m->text_lo, m->text_hi);
  for (unsigned i = 0; i < m->nfn; i++) {
    const pm_func_t *f = &m->fn[i];
    fprintf(to, "function %s 0x%08" PRIx32 " 0x%08" PRIx32 " 0x%08" PRIx32 " 0x%08" PRIx32 " %u %u %s%s%s\n", f->name,
            f->lo, f->hi, f->new_entry, f->base, f->ncounters, f->nregions,
            f->instrumented ? "instrumented" : "skipped", f->instrumented ? "" : " ", f->instrumented ? "" : f->why);
    for (unsigned b = 0; b < f->nblk; b++) {
      const pm_block_t *x = &f->blk[b];
      char c[16], t[16];
      counter_str(x->counter, c, sizeof c);
      counter_str(x->term_counter, t, sizeof t);
      fprintf(to, "block %u 0x%08" PRIx32 " 0x%08" PRIx32 " 0x%08" PRIx32 " %d %s %s\n", b, x->start, x->end,
              x->new_start, x->region, c, t);
    }
    for (unsigned e = 0; e < f->nedge; e++) {
      const pm_edge_t *x = &f->edge[e];
      char s[16], d[16], c[16];
      node_str(x->src, s, sizeof s);
      node_str(x->dst, d, sizeof d);
      counter_str(x->counter, c, sizeof c);
      fprintf(to, "edge %u %s %s %s 0x%08" PRIx32 " 0x%08" PRIx32 " %s\n", e, hwprof_cfg_kind_names[x->kind], s, d,
              x->term_new, x->dst_new, c);
    }
  }
  return ferror(to) ? -1 : 0;
}

void pm_free(pm_map_t *m) {
  for (unsigned i = 0; i < m->nfn; i++) {
    free(m->fn[i].blk);
    free(m->fn[i].edge);
  }
  free(m->fn);
  memset(m, 0, sizeof *m);
}

static int parse_node(const char *s, int *out) {
  if (!strcmp(s, "exit")) {
    *out = HWPROF_CFG_EXIT;
    return 0;
  }
  char *end;
  long v = strtol(s, &end, 10);
  if (*s == 0 || *end || v < 0 || v > 1000000) return -1;
  *out = (int)v;
  return 0;
}

static int parse_counter(const char *s, int *out) {
  if (!strcmp(s, "-")) {
    *out = PM_NONE;
    return 0;
  }
  return parse_node(s, out) == 0 && *out != HWPROF_CFG_EXIT ? 0 : -1;
}

#define BAD(...)                                                          \
  do {                                                                    \
    char why_[160];                                                       \
    snprintf(why_, sizeof why_, __VA_ARGS__);                             \
    snprintf(err, errlen, "%s:%u: %s", path, line, why_);                 \
    fclose(in);                                                           \
    pm_free(m);                                                           \
    return -1;                                                            \
  } while (0)

static void *grow(void *p, unsigned n, unsigned *cap, size_t size) {
  if (n < *cap) return p;
  unsigned c = *cap ? *cap * 2 : 16;
  void *q = realloc(p, (size_t)c * size);
  if (q) *cap = c;
  return q;
}

int pm_read(pm_map_t *m, const char *path, char *err, size_t errlen) {
  memset(m, 0, sizeof *m);
  unsigned line = 0;
  FILE *in = fopen(path, "r");
  if (in == NULL) {
    snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    return -1;
  }
  char buf[512];
  unsigned fcap = 0, bcap = 0, ecap = 0;
  pm_func_t *f = NULL;
  bool header = false;
  while (fgets(buf, sizeof buf, in)) {
    line++;
    if (strchr(buf, '\n') == NULL && !feof(in)) BAD("line too long");
    char word[32];
    if (sscanf(buf, "%31s", word) != 1 || word[0] == '#') continue;
    if (!header) {
      unsigned v;
      if (sscanf(buf, "hwprof-map %u", &v) != 1 || v != 1) BAD("not an hwprof map (expected 'hwprof-map 1')");
      header = true;
    } else if (!strcmp(word, "program")) {
      if (sscanf(buf, "program %255s", m->program) != 1) BAD("malformed program line");
    } else if (!strcmp(word, "mode")) {
      if (sscanf(buf, "mode %15s", m->mode) != 1) BAD("malformed mode line");
    } else if (!strcmp(word, "k")) {
      if (sscanf(buf, "k %u", &m->k) != 1) BAD("malformed k line");
    } else if (!strcmp(word, "counter-bytes")) {
      if (sscanf(buf, "counter-bytes %u", &m->cnt_bytes) != 1 ||
          (m->cnt_bytes != 1 && m->cnt_bytes != 2 && m->cnt_bytes != 4 && m->cnt_bytes != 8))
        BAD("malformed counter-bytes line (1, 2, 4 or 8)");
    } else if (!strcmp(word, "counters")) {
      if (sscanf(buf, "counters %" SCNx32 " %u", &m->counters_at, &m->total_counters) != 2)
        BAD("malformed counters line");
    } else if (!strcmp(word, "text")) {
      if (sscanf(buf, "text %" SCNx32 " %" SCNx32, &m->text_lo, &m->text_hi) != 2 || m->text_hi <= m->text_lo)
        BAD("malformed text line (two addresses, the first below the second)");
    } else if (!strcmp(word, "function")) {
      if ((m->fn = grow(m->fn, m->nfn, &fcap, sizeof *m->fn)) == NULL) BAD("out of memory");
      f = &m->fn[m->nfn++];
      memset(f, 0, sizeof *f);
      f->dispatch = -1;
      bcap = ecap = 0;
      char status[32];
      int pos = 0;
      if (sscanf(buf, "function %63s %" SCNx32 " %" SCNx32 " %" SCNx32 " %" SCNx32 " %u %u %31s %n", f->name, &f->lo,
                 &f->hi, &f->new_entry, &f->base, &f->ncounters, &f->nregions, status, &pos) < 8)
        BAD("malformed function line");
      /* the program's counters line comes first and counts every function's counters (%u also
       * takes "-3", as 4294967293) */
      if (f->ncounters > m->total_counters)
        BAD("function %s has %u counters, more than the program's %u (counters line)", f->name, f->ncounters,
            m->total_counters);
      f->instrumented = !strcmp(status, "instrumented");
      if (!f->instrumented && strcmp(status, "skipped")) BAD("function status '%s' (instrumented or skipped)", status);
      if (!f->instrumented) {
        snprintf(f->why, sizeof f->why, "%s", buf + pos);
        f->why[strcspn(f->why, "\n")] = 0;
      }
    } else if (!strcmp(word, "block")) {
      if (f == NULL) BAD("block before any function");
      if ((f->blk = grow(f->blk, f->nblk, &bcap, sizeof *f->blk)) == NULL) BAD("out of memory");
      pm_block_t *x = &f->blk[f->nblk];
      unsigned idx;
      char c[16], t[16];
      if (sscanf(buf, "block %u %" SCNx32 " %" SCNx32 " %" SCNx32 " %d %15s %15s", &idx, &x->start, &x->end,
                 &x->new_start, &x->region, c, t) != 7 || idx != f->nblk || parse_counter(c, &x->counter) ||
          parse_counter(t, &x->term_counter))
        BAD("malformed block line");
      if ((x->counter != PM_NONE && (unsigned)x->counter >= f->ncounters) ||
          (x->term_counter != PM_NONE && (unsigned)x->term_counter >= f->ncounters))
        BAD("block counter out of range");
      if (x->start == x->end) { /* the dispatch node: one, empty */
        if (f->dispatch >= 0) BAD("a second empty block (a function has at most one dispatch node)");
        f->dispatch = (int)f->nblk;
      }
      f->nblk++;
    } else if (!strcmp(word, "edge")) {
      if (f == NULL) BAD("edge before any function");
      if ((f->edge = grow(f->edge, f->nedge, &ecap, sizeof *f->edge)) == NULL) BAD("out of memory");
      pm_edge_t *x = &f->edge[f->nedge];
      unsigned idx;
      char kind[32], s[16], d[16], c[16];
      if (sscanf(buf, "edge %u %31s %15s %15s %" SCNx32 " %" SCNx32 " %15s", &idx, kind, s, d, &x->term_new, &x->dst_new,
                 c) != 7 || idx != f->nedge)
        BAD("malformed edge line");
      int k;
      for (k = 0; k < HWPROF_CFG_NKINDS && strcmp(kind, hwprof_cfg_kind_names[k]); k++) {
      }
      if (k == HWPROF_CFG_NKINDS) BAD("unknown edge kind '%s'", kind);
      x->kind = (hwprof_cfg_kind_t)k;
      if (parse_node(s, &x->src) || parse_node(d, &x->dst) || parse_counter(c, &x->counter)) BAD("malformed edge line");
      if ((x->src != HWPROF_CFG_EXIT && (unsigned)x->src >= f->nblk) || (x->dst != HWPROF_CFG_EXIT && (unsigned)x->dst >= f->nblk))
        BAD("edge %u names a block that does not exist", idx);
      if (x->counter != PM_NONE && (unsigned)x->counter >= f->ncounters) BAD("edge counter %d out of range", x->counter);
      f->nedge++;
    } else {
      BAD("unknown line '%s'", word);
    }
  }
  if (!header) BAD("empty file");
  fclose(in);
  if (m->cnt_bytes == 0) {
    snprintf(err, errlen, "%s: no counter-bytes line", path);
    pm_free(m);
    return -1;
  }
  return 0;
}

/* ---------------------------------------------------------------- derivation */

/* The equations: flow conservation at each block and at EXIT (in = out); in = count for a block
 * counter; real out-edges = count for a counter on a block's last instruction. Each is
 * sum(sign[e] * x[e]) = rhs; equation() gives the sign of edge e in equation (v, kind), and
 * false when the equation does not exist. */
static bool equation(const pm_func_t *f, int v, int kind, const uint64_t *counters, int64_t *rhs) {
  if (kind == 0) {
    *rhs = 0;
    return true;
  }
  if (v < 0) return false;
  int c = kind == 1 ? f->blk[v].counter : f->blk[v].term_counter;
  if (c == PM_NONE) return false;
  *rhs = counters ? (int64_t)counters[c] : 0;
  return true;
}

static int sign_in(const pm_edge_t *x, int v, int kind) {
  switch (kind) {
    case 0: return (x->dst == v ? 1 : 0) - (x->src == v ? 1 : 0);
    case 1: return x->dst == v ? 1 : 0;
    default: return x->src == v && !hwprof_cfg_is_virtual(x->kind) ? 1 : 0;
  }
}

/* Repeatedly solves an equation with a single unknown edge; then checks every equation (more
 * counters than unknowns make the system over-determined: the counters must agree). Returns 0,
 * 1 if some edge stays unknown, 2 if an equation does not hold. */
/* mask: the counters' values are counts modulo mask + 1 (all ones: exact counts); the redundant
 * equations are checked modulo the same. */
static int solve(const pm_func_t *f, bool *known, int64_t *val, const uint64_t *counters, uint64_t mask) {
  const int n = (int)f->nblk;
  bool progress = true;
  while (progress) {
    progress = false;
    for (int v = -1; v < n; v++) { /* -1: EXIT */
      for (int kind = 0; kind < 3; kind++) {
        int64_t rhs;
        if (!equation(f, v, kind, counters, &rhs)) continue;
        int64_t sum = 0;
        int unknown = -1, nunknown = 0, sign = 0;
        for (unsigned e = 0; e < f->nedge; e++) {
          int s = sign_in(&f->edge[e], v, kind);
          if (s == 0) continue;
          if (known[e]) {
            sum += s * val[e];
          } else {
            nunknown++;
            unknown = (int)e;
            sign = s;
          }
        }
        if (nunknown != 1) continue;
        val[unknown] = (rhs - sum) * sign;
        known[unknown] = true;
        progress = true;
      }
    }
  }
  for (unsigned e = 0; e < f->nedge; e++)
    if (!known[e]) return 1;
  if (counters == NULL) return 0;
  for (int v = -1; v < n; v++)
    for (int kind = 0; kind < 3; kind++) {
      int64_t rhs, sum = 0;
      if (!equation(f, v, kind, counters, &rhs)) continue;
      for (unsigned e = 0; e < f->nedge; e++) sum += sign_in(&f->edge[e], v, kind) * val[e];
      if (((uint64_t)sum - (uint64_t)rhs) & mask) return 2;
    }
  return 0;
}

bool pm_solvable(const pm_func_t *f) {
  bool *known = calloc(f->nedge + 1, sizeof *known);
  int64_t *val = calloc(f->nedge + 1, sizeof *val);
  bool ok = known && val;
  if (ok) {
    for (unsigned e = 0; e < f->nedge; e++) known[e] = f->edge[e].counter != PM_NONE;
    ok = solve(f, known, val, NULL, ~UINT64_C(0)) == 0;
  }
  free(known);
  free(val);
  return ok;
}

static int derive(const pm_func_t *f, const uint64_t *counters, uint64_t mask, int64_t *counts, char *why,
                  size_t whylen) {
  bool *known = calloc(f->nedge + 1, sizeof *known);
  if (known == NULL) {
    snprintf(why, whylen, "out of memory");
    return -1;
  }
  for (unsigned e = 0; e < f->nedge; e++) {
    known[e] = f->edge[e].counter != PM_NONE;
    counts[e] = known[e] ? (int64_t)counters[f->edge[e].counter] : 0;
  }
  int st = solve(f, known, counts, counters, mask);
  free(known);
  if (st == 1) {
    snprintf(why, whylen, "%s: the measured edges do not determine every edge", f->name);
    return -1;
  }
  if (st == 2) {
    snprintf(why, whylen, "%s: the counters contradict each other (flow is not conserved)", f->name);
    return -1;
  }
  if (mask != ~UINT64_C(0)) { /* residues: every value in [0, mask] is one */
    for (unsigned e = 0; e < f->nedge; e++) counts[e] = (int64_t)((uint64_t)counts[e] & mask);
    return 0;
  }
  for (unsigned e = 0; e < f->nedge; e++)
    if (counts[e] < 0) {
      int n = snprintf(why, whylen, "%s: edge %u derives to %" PRId64 " (the counters contradict each other; counters:",
                       f->name, e, counts[e]);
      for (unsigned k = 0; k < f->ncounters && k < 16 && n > 0 && (size_t)n < whylen; k++)
        n += snprintf(why + n, whylen - (size_t)n, " %" PRIu64, counters[k]);
      if (n > 0 && (size_t)n < whylen) snprintf(why + n, whylen - (size_t)n, "%s)", f->ncounters > 16 ? " ..." : "");
      return -1;
    }
  return 0;
}

int pm_derive(const pm_func_t *f, const uint64_t *counters, int64_t *counts, char *why, size_t whylen) {
  return derive(f, counters, ~UINT64_C(0), counts, why, whylen);
}

int pm_derive_mod(const pm_func_t *f, const uint64_t *counters, unsigned bits, int64_t *counts, char *why,
                  size_t whylen) {
  if (bits == 0 || bits > 63) {
    snprintf(why, whylen, "%s: %u-bit counters: expects 1..63 bits", f->name, bits);
    return -1;
  }
  return derive(f, counters, (UINT64_C(1) << bits) - 1u, counts, why, whylen);
}

/* ---------------------------------------------------------------- the truth */

typedef struct {
  uint32_t pc;  /* the edge's last instruction; for a fall edge after a call, the pc returned to */
  bool by_ret;  /* ... that one: a return to pc is the traversal */
  unsigned f, e;
  int next; /* chain */
} truth_slot_t;

struct pm_truth {
  const pm_map_t *m;
  int *head; /* hash of pc -> first slot */
  unsigned mask;
  truth_slot_t *slot;
  unsigned nslot;
  int64_t **count; /* [f][e] */
};

/* Whether block b of fn is its dispatch node (the empty block). */
static bool is_node(const pm_func_t *fn, int b) { return b >= 0 && fn->blk[b].start == fn->blk[b].end; }

static unsigned hash_pc(uint32_t pc, unsigned mask) { return (unsigned)((pc >> 2) * 2654435761u) & mask; }

pm_truth_t *pm_truth_new(const pm_map_t *m) {
  pm_truth_t *t = calloc(1, sizeof *t);
  if (t == NULL) return NULL;
  t->m = m;
  unsigned n = 0;
  for (unsigned f = 0; f < m->nfn; f++) {
    const pm_func_t *fn = &m->fn[f];
    if (!fn->instrumented) continue;
    unsigned jumps = 0; /* into a dispatch node: each of its edges is taken from any of them */
    for (unsigned e = 0; e < fn->nedge; e++) jumps += fn->edge[e].kind == HWPROF_CFG_INDIRECT && is_node(fn, fn->edge[e].dst);
    for (unsigned e = 0; e < fn->nedge; e++) n += fn->edge[e].kind == HWPROF_CFG_DISPATCH ? jumps : 1u;
  }
  unsigned size = 64;
  while (size < 2 * n) size *= 2;
  t->mask = size - 1;
  t->head = malloc(size * sizeof *t->head);
  t->slot = calloc(n + 1, sizeof *t->slot);
  t->count = calloc(m->nfn + 1, sizeof *t->count);
  if (t->head == NULL || t->slot == NULL || t->count == NULL) {
    pm_truth_free(t);
    return NULL;
  }
  for (unsigned i = 0; i < size; i++) t->head[i] = -1;
  for (unsigned f = 0; f < m->nfn; f++) {
    const pm_func_t *fn = &m->fn[f];
    if (!fn->instrumented) continue;
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
          truth_slot_t *s = &t->slot[t->nslot];
          *s = (truth_slot_t){.pc = fn->edge[g].term_new, .f = f, .e = e, .by_ret = false};
          const unsigned h = hash_pc(s->pc, t->mask);
          s->next = t->head[h];
          t->head[h] = (int)t->nslot++;
        }
        continue;
      }
      truth_slot_t *s = &t->slot[t->nslot];
      s->by_ret = fn->edge[e].term_new == PM_ANY;
      s->pc = s->by_ret ? fn->edge[e].dst_new : fn->edge[e].term_new;
      s->f = f;
      s->e = e;
      unsigned h = hash_pc(s->pc, t->mask);
      s->next = t->head[h];
      t->head[h] = (int)t->nslot++;
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
  free(t->slot);
  free(t);
}

/* ---------------------------------------------------------------- run-time metadata */

static uint32_t meta_index(int i) { return i < 0 ? HWPROF_META_NONE : (uint32_t)i; }

int pm_meta_blob(const pm_map_t *m, uint32_t **words, size_t *nwords) {
  size_t nblock = 0, nedge = 0, nbranch = 0;
  for (unsigned f = 0; f < m->nfn; f++) {
    nblock += m->fn[f].nblk;
    nedge += m->fn[f].nedge;
    for (unsigned e = 0; e < m->fn[f].nedge; e++) /* a counted taken edge: a branch if its not-taken one is too */
      nbranch += m->fn[f].edge[e].kind == HWPROF_CFG_TAKEN && m->fn[f].edge[e].counter != PM_NONE;
  }
  const size_t hw = sizeof(hwprof_meta_header_t) / 4, fw = sizeof(hwprof_meta_func_t) / 4,
               bw = sizeof(hwprof_meta_block_t) / 4, ew = sizeof(hwprof_meta_edge_t) / 4;
  const size_t rw = sizeof(hwprof_meta_branch_t) / 4;
  const size_t n = hw + m->nfn * fw + nblock * bw + nedge * ew + nbranch * rw;
  uint32_t *w = calloc(n, 4);
  if (w == NULL) return -1;
  hwprof_meta_header_t *h = (hwprof_meta_header_t *)w;
  *h = (hwprof_meta_header_t){HWPROF_META_MAGIC, HWPROF_META_VERSION, m->nfn, (uint32_t)nblock, (uint32_t)nedge,
                              m->counters_at, m->total_counters, m->cnt_bytes, m->k,
                              strcmp(m->mode, "all") == 0 ? 1u : 0u, 0};
  hwprof_meta_func_t *fn = (hwprof_meta_func_t *)(w + hw);
  hwprof_meta_block_t *blk = (hwprof_meta_block_t *)(w + hw + m->nfn * fw);
  hwprof_meta_edge_t *edge = (hwprof_meta_edge_t *)(w + hw + m->nfn * fw + nblock * bw);
  hwprof_meta_branch_t *br = (hwprof_meta_branch_t *)(w + hw + m->nfn * fw + nblock * bw + nedge * ew);
  uint32_t b0 = 0, e0 = 0;
  for (unsigned f = 0; f < m->nfn; f++) {
    const pm_func_t *p = &m->fn[f];
    fn[f] = (hwprof_meta_func_t){p->lo, p->hi, p->new_entry, p->base, p->ncounters, p->nregions, b0, p->nblk, e0,
                                 p->nedge};
    for (unsigned b = 0; b < p->nblk; b++) {
      const pm_block_t *x = &p->blk[b];
      blk[b0 + b] = (hwprof_meta_block_t){x->start, x->end, x->new_start, x->new_end, (uint32_t)x->region,
                                          meta_index(x->counter), meta_index(x->term_counter)};
    }
    for (unsigned e = 0; e < p->nedge; e++) {
      const pm_edge_t *x = &p->edge[e];
      edge[e0 + e] = (hwprof_meta_edge_t){(uint32_t)x->kind, meta_index(x->src), meta_index(x->dst), x->term_new,
                                          x->dst_new, meta_index(x->counter)};
    }
    for (unsigned e = 0; e < p->nedge; e++) {
      if (p->edge[e].kind != HWPROF_CFG_TAKEN || p->edge[e].counter == PM_NONE) continue;
      for (unsigned g = 0; g < p->nedge; g++)
        if (p->edge[g].kind == HWPROF_CFG_NOT_TAKEN && p->edge[g].src == p->edge[e].src && p->edge[g].counter != PM_NONE) {
          br[h->nbranch++] = (hwprof_meta_branch_t){f, e, g};
          break;
        }
    }
    b0 += p->nblk;
    e0 += p->nedge;
  }
  *nwords = n - (nbranch - h->nbranch) * rw; /* taken edges whose not-taken edge is derived are no branch */
  *words = w;
  return 0;
}
