/* Tests of the path plan (sw/host/path/pp_plan.c): random structured functions (sequences, ifs, loops
 * nested three deep with exits at the head or the latch, returns and breaks out of two loops at
 * once), and the same with random jumps added (irreducible, one region), are planned in all three
 * embodiments; random walks through them apply each edge's path
 * operations with an interpreter of the path words written here from docs/path.md's table (no
 * code shared with the hardware's model); every counted index must decode, and the decoded paths,
 * counted, must be exactly the walks cut into paths by an independent cutter (a stack of the
 * regions a walk is in, written here too). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hammocks.h"
#include "pp_plan.h"

#define MAXN 96
#define MAXE 256
#define MAXR 64

static uint32_t rng_state = 12345u;
static uint32_t rnd(uint32_t n) {
  rng_state = rng_state * 1103515245u + 12345u;
  return (rng_state >> 8) % n;
}

/* ---- a random structured function */
typedef struct {
  uint32_t n; /* blocks; the exit is node n (added at the end) */
  pp_edge_t e[MAXE];
  bool back[MAXE];
  uint32_t ne;
  uint32_t region_of[MAXN + 1];
  uint32_t parent[MAXR], head[MAXR];
  uint32_t nr;
  bool to_exit[MAXE]; /* an edge whose target is the exit (fixed up when the exit's number is known) */
} fn_t;

static uint32_t node(fn_t *f, uint32_t r) {
  f->region_of[f->n] = r;
  return f->n++;
}
static void edge(fn_t *f, uint32_t s, uint32_t d, bool back, bool to_exit) {
  f->e[f->ne] = (pp_edge_t){s, d};
  f->back[f->ne] = back;
  f->to_exit[f->ne++] = to_exit;
}

/* code from block cur on, in region r; after[k]: the block after the k-th enclosing loop (the
 * innermost last); returns the block where control goes on */
static unsigned g_ifs; /* the share (of 8) of ifs: more, and the paths multiply */
static uint32_t gen(fn_t *f, uint32_t cur, uint32_t r, unsigned depth, const uint32_t *after, unsigned nafter,
                    unsigned budget) {
  for (unsigned i = 0; i < budget && f->n + 8 < MAXN && f->ne + 12 < MAXE; i++) {
    switch (rnd(8) < g_ifs ? 2 : rnd(8)) {
      case 0:
      case 1: { /* a block */
        const uint32_t b = node(f, r);
        edge(f, cur, b, false, false);
        cur = b;
        break;
      }
      case 2: { /* if / else */
        const uint32_t t = node(f, r), j = node(f, r);
        edge(f, cur, t, false, false);
        if (rnd(2)) {
          const uint32_t e = node(f, r);
          edge(f, cur, e, false, false);
          edge(f, e, j, false, false);
        } else {
          edge(f, cur, j, false, false);
        }
        edge(f, t, j, false, false);
        cur = j;
        break;
      }
      case 3:
      case 4: { /* a loop: its own region */
        if (depth >= 3 || f->nr == MAXR) break;
        const uint32_t q = f->nr++;
        f->parent[q] = r;
        const uint32_t h = node(f, q), out = node(f, r);
        f->head[q] = h;
        edge(f, cur, h, false, false);
        uint32_t inner[8];
        for (unsigned k = 0; k < nafter; k++) inner[k] = after[k];
        inner[nafter] = out;
        const bool at_head = rnd(2);
        uint32_t body = h;
        if (at_head) { /* while: the head tests */
          body = node(f, q);
          edge(f, h, body, false, false);
          edge(f, h, out, false, false);
        }
        const uint32_t latch = gen(f, body, q, depth + 1, inner, nafter + 1, 1 + rnd(4));
        edge(f, latch, h, true, false);
        if (!at_head) edge(f, latch, out, false, false); /* do-while: the latch tests */
        cur = out;
        break;
      }
      case 5: { /* a return inside, if any loop */
        if (nafter == 0) break;
        const uint32_t ret = node(f, r), go = node(f, r);
        edge(f, cur, ret, false, false);
        edge(f, cur, go, false, false);
        edge(f, ret, 0, false, true);
        cur = go;
        break;
      }
      case 6: { /* a break out of two loops at once */
        if (nafter < 2) break;
        const uint32_t go = node(f, r);
        edge(f, cur, after[nafter - 2], false, false);
        edge(f, cur, go, false, false);
        cur = go;
        break;
      }
      default: { /* a break out of one */
        if (nafter < 1) break;
        const uint32_t go = node(f, r);
        edge(f, cur, after[nafter - 1], false, false);
        edge(f, cur, go, false, false);
        cur = go;
        break;
      }
    }
  }
  return cur;
}

static void make_fn(fn_t *f, unsigned budget) {
  memset(f, 0, sizeof *f);
  f->nr = 1;
  f->parent[0] = PP_NONE;
  const uint32_t entry = node(f, 0);
  f->head[0] = entry;
  const uint32_t last = gen(f, entry, 0, 0, NULL, 0, budget);
  edge(f, last, 0, false, true);
  for (uint32_t i = 0; i < f->ne; i++)
    if (f->to_exit[i]) f->e[i].dst = f->n;
  f->region_of[f->n] = 0;
}

/* Jumps added at random between blocks (gotos): cycles with several entries, so the function is
 * irreducible in general. Its paths are then cut at the retreating edges of a depth-first search in
 * edge order (found here, recursively) and it keeps one region, the function's (docs/path.md). */
static bool dfs_on[MAXN + 1], dfs_seen[MAXN + 1];
static void dfs(fn_t *f, uint32_t v) {
  dfs_seen[v] = dfs_on[v] = true;
  for (uint32_t i = 0; i < f->ne; i++) {
    if (f->e[i].src != v) continue;
    if (dfs_on[f->e[i].dst]) f->back[i] = true;
    else if (!dfs_seen[f->e[i].dst]) dfs(f, f->e[i].dst);
  }
  dfs_on[v] = false;
}
static void add_gotos(fn_t *f, unsigned n) {
  for (unsigned k = 0; k < n && f->ne < MAXE; k++) edge(f, rnd(f->n), rnd(f->n), false, false);
  for (uint32_t i = 0; i < f->ne; i++) f->back[i] = false;
  memset(dfs_on, 0, sizeof dfs_on);
  memset(dfs_seen, 0, sizeof dfs_seen);
  dfs(f, 0);
  f->nr = 1;
  for (uint32_t v = 0; v <= f->n; v++) f->region_of[v] = 0;
}

/* the path graph and regions the plan takes (rep. exit: the first block with an edge out) */
static void to_pp(const fn_t *f, pp_func_t *pf, uint32_t *rep_exit, bool *reach, uint32_t *cfg_edge) {
  for (uint32_t r = 0; r < f->nr; r++) {
    rep_exit[r] = r == 0 ? f->n : PP_NONE;
    for (uint32_t i = 0; r && i < f->ne && rep_exit[r] == PP_NONE; i++) {
      uint32_t x = f->region_of[f->e[i].src], inside = 0;
      for (; x != PP_NONE; x = f->parent[x]) inside |= x == r;
      uint32_t y = f->region_of[f->e[i].dst], dst_in = 0;
      for (; y != PP_NONE; y = f->parent[y]) dst_in |= y == r;
      if (inside && (!dst_in || f->e[i].dst == f->n)) rep_exit[r] = f->e[i].src;
    }
  }
  for (uint32_t v = 0; v <= f->n; v++) reach[v] = true;
  for (uint32_t i = 0; i < f->ne; i++) cfg_edge[i] = i;
  *pf = (pp_func_t){.g = {f->n + 1, 0, f->n, f->e, f->ne}, .back = (bool *)f->back, .cfg_edge = cfg_edge, .reach = reach,
                    .region_of = (uint32_t *)f->region_of, .parent = (uint32_t *)f->parent, .rep_entry = (uint32_t *)f->head,
                    .rep_exit = rep_exit, .reducible = true};
  pf->h = (pp_regions_t){&pf->g, pf->back, pf->region_of, pf->parent, pf->rep_entry, pf->rep_exit, f->nr};
}

/* ---- paths as strings: "HEAD|END|items" (a block's number, or L and a head's) */
typedef struct {
  char s[512];
} key_t;

static int cmp_key(const void *a, const void *b) { return strcmp(((const key_t *)a)->s, ((const key_t *)b)->s); }

/* the independent cutter's state: the regions a walk is in, each with its path's items */
typedef struct {
  uint32_t region[12], item[12][128], len[12];
  unsigned depth;
} cut_t;

static void cut_record(key_t *keys, unsigned *nkeys, unsigned cap, uint32_t head, const uint32_t *items, uint32_t len,
                       bool exit) {
  assert_true(*nkeys < cap);
  char *p = keys[*nkeys].s;
  p += sprintf(p, "%u|%s|", head, exit ? "exit" : "end");
  for (uint32_t i = 0; i < len; i++) p += sprintf(p, items[i] & PP_CHILD ? "L%u," : "%u,", items[i] & ~PP_CHILD);
  (*nkeys)++;
}

/* the region of v in the cut's terms (plain: the function alone) */
static uint32_t creg(const fn_t *f, bool plain, uint32_t v) { return plain ? 0 : f->region_of[v]; }
static uint32_t cparent(const fn_t *f, bool plain, uint32_t r) { return plain ? PP_NONE : f->parent[r]; }
static bool cin(const fn_t *f, bool plain, uint32_t v, uint32_t r) {
  for (uint32_t x = creg(f, plain, v); x != PP_NONE; x = cparent(f, plain, x))
    if (x == r) return true;
  return false;
}
static void cut_end_top(const fn_t *f, cut_t *c, key_t *keys, unsigned *nk, unsigned cap, bool exit) {
  const unsigned t = c->depth - 1;
  cut_record(keys, nk, cap, f->head[c->region[t]], c->item[t], c->len[t], exit);
}
/* v entered from the top region, which holds it */
static void cut_enter(const fn_t *f, bool plain, cut_t *c, uint32_t v) {
  uint32_t chain[12], m = 0;
  for (uint32_t r = creg(f, plain, v); r != c->region[c->depth - 1]; r = cparent(f, plain, r)) chain[m++] = r;
  for (int i = (int)m - 1; i >= -1; i--) {
    const unsigned t = c->depth - 1;
    c->item[t][c->len[t]++] = i >= 0 ? PP_CHILD | f->head[chain[i]] : v;
    if (i >= 0) {
      c->region[c->depth] = chain[i];
      c->len[c->depth++] = 0;
    }
  }
}

/* the operations' interpreter (docs/path.md's table, modulo 2^PATH_SUM_W) */
typedef struct {
  uint32_t sum, stack[64], sp;
  uint32_t *count;
} interp_t;
static void run_ops(interp_t *in, const pp_plan_t *p, uint32_t e) {
  const uint32_t m = PP_VAL_MOD - 1u;
  for (uint32_t k = 0; k < p->op_n[e]; k++) {
    const pp_op_t *o = &p->op[p->op_first[e] + k];
    switch (o->kind) {
      case HWPROF_PATH_OP_ADD: in->sum = (in->sum + o->a) & m; break;
      case HWPROF_PATH_OP_SET: in->sum = o->a; break;
      case HWPROF_PATH_OP_COUNT: in->count[(in->sum + o->a) & m]++; in->sum = o->b; break;
      case HWPROF_PATH_OP_ENTER: in->stack[in->sp++] = (in->sum + o->a) & m; in->sum = o->b; break;
      case HWPROF_PATH_OP_LEAVE: in->count[(in->sum + o->a) & m]++; in->sum = (in->stack[--in->sp] + o->b) & m; break;
      case HWPROF_PATH_OP_POP: in->sum = (in->stack[--in->sp] + o->b) & m; break;
      default: fail_msg("operation %u", o->kind);
    }
    assert_true(in->sp < 64);
  }
}

static uint8_t arena_mem[1u << 22];
static uint32_t counts[PP_MAX_COUNTERS];

typedef struct {
  unsigned planned[3], multi_exits, too_many, regions, hashed, split, hammocks;
  uint64_t compared, blocks;
} stats_t;

/* Hammocks (hammocks.h) for f's regions at a limit of max counters: the split regions replace f's,
 * each checked here to be single-entry, single-exit and acyclic: an edge into it from outside goes
 * to its head, one out of it to its exit (or, for one that ends with its region's paths, ends
 * them: a back edge, a return, out of the region), no back edge inside it but a nested loop's.
 * Returns the hammocks. */
static unsigned split_fn(fn_t *f, uint32_t max) {
  pp_func_t pf;
  uint32_t rep_exit[MAXR], cfg_edge[MAXE];
  bool reach[MAXN + 1];
  to_pp(f, &pf, rep_exit, reach, cfg_edge);
  hwprof_arena_t a = {arena_mem, sizeof arena_mem, 0};
  const uint32_t nr0 = f->nr;
  if (pp_split_hammocks(&pf, max, &a) != kPpOk || pf.nhammock == 0) return 0;
  assert_true(pf.h.nregion <= MAXR);
  for (uint32_t v = 0; v <= f->n; v++) f->region_of[v] = pf.region_of[v];
  for (uint32_t r = 0; r < pf.h.nregion; r++) {
    f->parent[r] = pf.parent[r];
    f->head[r] = pf.rep_entry[r];
  }
  f->nr = pf.h.nregion;
  for (uint32_t k = 0; k < pf.nhammock; k++) {
    const uint32_t hr = pf.hammock[k].region;
    assert_true(hr >= nr0 && f->head[hr] == pf.hammock[k].entry);
    for (uint32_t e = 0; e < f->ne; e++) {
      const bool si = cin(f, false, f->e[e].src, hr), di = cin(f, false, f->e[e].dst, hr);
      if (di && !si) assert_int_equal(f->e[e].dst, pf.hammock[k].entry);
      if (si && !di && pf.hammock[k].exit != PP_NONE) assert_int_equal(f->e[e].dst, pf.hammock[k].exit);
      if (si && !di && pf.hammock[k].exit == PP_NONE) /* one that ends with its region's paths: they end too */
        assert_true(f->back[e] || f->e[e].dst == f->n || !cin(f, false, f->e[e].dst, f->parent[hr]));
      if (si && di && f->back[e]) assert_int_not_equal(f->region_of[f->e[e].dst], hr); /* only a nested loop's */
    }
  }
  return pf.nhammock;
}

/* hammock_max: 0, or split the regions by hammocks to fit that many counters (and plan to it) */
static void run_rounds(unsigned rounds, unsigned budget, unsigned ifs, unsigned gotos, uint32_t hammock_max, stats_t *out) {
  static fn_t f;
  static key_t got[4096], want[4096];
  unsigned planned[3] = {0}, multi_exits = 0, too_many = 0, regions = 0, hashed = 0, split = 0, hammocks = 0;
  uint64_t compared = 0, blocks = 0;
  g_ifs = ifs;
  for (unsigned round = 0; round < rounds; round++) {
    make_fn(&f, budget ? budget : 3 + rnd(6));
    if (gotos) add_gotos(&f, 1 + rnd(gotos));
    const unsigned nh = hammock_max ? split_fn(&f, hammock_max) : 0;
    split += nh > 0;
    hammocks += nh;
    /* each block's distance to the exit, for walks that must end */
    uint32_t dist[MAXN + 1];
    for (uint32_t v = 0; v <= f.n; v++) dist[v] = v == f.n ? 0 : UINT32_MAX;
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t e = 0; e < f.ne; e++)
        if (dist[f.e[e].dst] != UINT32_MAX && dist[f.e[e].dst] + 1 < dist[f.e[e].src]) {
          dist[f.e[e].src] = dist[f.e[e].dst] + 1;
          changed = true;
        }
    }
    for (int emb = 0; emb < 3; emb++) {
      const bool plain = emb == kPpPlain;
      pp_func_t pf;
      uint32_t rep_exit[MAXR], cfg_edge[MAXE];
      bool reach[MAXN + 1];
      to_pp(&f, &pf, rep_exit, reach, cfg_edge);
      hwprof_arena_t a = {arena_mem, sizeof arena_mem, 0};
      uint64_t w[MAXE];
      for (uint32_t i = 0; i < f.ne; i++) w[i] = 1 + rnd(50);
      pp_plan_t p;
      const pp_status_t st = pp_plan_make(&pf, (pp_embodiment_t)emb, round % 3 ? w : NULL,
                                          hammock_max ? hammock_max : PP_MAX_COUNTERS, &a, &p);
      if (st == kPpTooManyPaths) {
        too_many++;
        continue;
      }
      assert_int_equal(st, kPpOk);
      planned[emb]++;
      hashed += p.hashed;
      for (uint32_t e = 0; e < f.ne; e++) {
        unsigned leaves = 0;
        for (uint32_t k = 0; k < p.op_n[e]; k++) leaves += p.op[p.op_first[e] + k].kind == HWPROF_PATH_OP_LEAVE;
        multi_exits += leaves >= 2;
      }
      memset(counts, 0, sizeof counts);
      unsigned nwant = 0, ngot = 0;
      for (unsigned walk = 0; walk < 8; walk++) {
        interp_t in = {.count = counts};
        cut_t c = {.region = {0}, .depth = 1};
        uint32_t v = 0;
        cut_enter(&f, plain, &c, 0);
        for (unsigned step = 0; v != f.n; step++) {
          /* a random way out; after a while, one closer to the exit */
          uint32_t outs[32], no = 0;
          for (uint32_t e = 0; e < f.ne; e++)
            if (f.e[e].src == v) outs[no++] = e;
          assert_true(no > 0 && no <= 32);
          uint32_t e = outs[rnd(no)];
          if (step > 60)
            while (dist[f.e[e].dst] >= dist[v]) e = outs[rnd(no)];
          run_ops(&in, &p, e);
          const uint32_t u = v;
          v = f.e[e].dst;
          if (v == f.n) { /* the function's exit: every open path ends */
            while (c.depth > 1) {
              cut_end_top(&f, &c, want, &nwant, 4096, false);
              c.depth--;
            }
            cut_end_top(&f, &c, want, &nwant, 4096, true);
          } else if (f.back[e]) { /* the loop headed by v: its path ends and restarts */
            const uint32_t h = creg(&f, plain, v);
            while (c.region[c.depth - 1] != h) {
              cut_end_top(&f, &c, want, &nwant, 4096, false);
              c.depth--;
            }
            cut_end_top(&f, &c, want, &nwant, 4096, false);
            c.len[c.depth - 1] = 0;
            c.item[c.depth - 1][c.len[c.depth - 1]++] = v;
          } else {
            while (!cin(&f, plain, v, c.region[c.depth - 1])) {
              cut_end_top(&f, &c, want, &nwant, 4096, false);
              c.depth--;
            }
            cut_enter(&f, plain, &c, v);
          }
          (void)u;
        }
        assert_int_equal(in.sp, 0);
      }
      /* every counted index decodes; its paths, as many times as counted */
      uint32_t items[MAXN + 8], scratch[2 * MAXE + 8];
      for (uint32_t idx = 0; idx < p.ncounters; idx++) {
        if (counts[idx] == 0) continue;
        pp_path_t path;
        assert_int_equal(pp_plan_decode(&p, idx, items, MAXN + 8, scratch, 2 * MAXE + 8, &path), kPpOk);
        for (uint32_t i = 0; i < path.len; i++)
          if (items[i] & PP_CHILD) items[i] = PP_CHILD | p.h.rep_entry[items[i] & ~PP_CHILD];
        for (uint32_t k = 0; k < counts[idx]; k++)
          cut_record(got, &ngot, 4096, p.h.rep_entry[path.region], items, path.len, path.exit);
      }
      compared += ngot;
      if (emb == kPpRegionBased) {
        regions += f.nr;
        blocks += f.n;
      }
      qsort(got, ngot, sizeof *got, cmp_key);
      qsort(want, nwant, sizeof *want, cmp_key);
      assert_int_equal(ngot, nwant);
      for (unsigned k = 0; k < ngot; k++) assert_string_equal(got[k].s, want[k].s);
    }
  }
  *out = (stats_t){{planned[0], planned[1], planned[2]}, multi_exits, too_many, regions, hashed, split, hammocks, compared, blocks};
  printf("plan: %u functions (%.1f blocks, %.1f regions on average), planned %u/%u/%u (plain, rb, gp; %u over the "
         "counters; %u global plans hashed; %u split by %u hammocks), %u edges leaving two regions or more, %" PRIu64
         " paths compared\n",
         rounds, planned[1] ? (double)blocks / planned[1] : 0.0, planned[1] ? (double)regions / planned[1] : 0.0,
         planned[0], planned[1], planned[2], too_many, hashed, split, hammocks, multi_exits, compared);
}

static void test_plan_random_functions_count_every_walk_exactly(void **state) {
  (void)state;
  stats_t st;
  run_rounds(300, 0, 0, 0, 0, &st);
  /* every embodiment planned most functions, and the multi-level exits were there */
  for (int emb = 0; emb < 3; emb++) assert_true(st.planned[emb] > 250);
  assert_true(st.multi_exits > 20);
  assert_true(st.compared > 20000);
}

/* Functions with a run of ifs in each loop: more global sums than counters, which the plan hashes
 * by the hardware's modulus when the hierarchical paths' sums do not collide (docs/path.md,
 * "Limits"); the counts must still be exact. */
static void test_plan_hashed_global_sums_count_exactly(void **state) {
  (void)state;
  stats_t st;
  run_rounds(60, 16, 3, 0, 0, &st);
  assert_true(st.hashed > 5);
  assert_true(st.compared > 1000);
}

/* Functions with gotos added (irreducible in general): one region, paths cut at the retreating
 * edges, back edges into blocks other than the entry; exact in all three embodiments. */
static void test_plan_irreducible_functions_count_every_walk_exactly(void **state) {
  (void)state;
  stats_t st;
  run_rounds(300, 0, 0, 4, 0, &st);
  for (int emb = 0; emb < 3; emb++) assert_true(st.planned[emb] > 250);
  assert_true(st.compared > 20000);
}

/* Functions with runs of ifs whose region-based paths exceed a small limit (64 counters): split by
 * hammocks (hammocks.h), each checked single-entry, single-exit and acyclic, then planned to that
 * limit; the walks must still be counted exactly, in all three embodiments. */
static void test_plan_hammocks_count_every_walk_exactly(void **state) {
  (void)state;
  stats_t st;
  run_rounds(200, 14, 5, 0, 64, &st);
  assert_true(st.split > 100); /* most functions needed hammocks, and then fit */
  assert_true(st.planned[kPpRegionBased] > 190);
  assert_true(st.compared > 5000);
}

/* The same with gotos added (irreducible, one region): hammocks inside the one region, some ending
 * where its paths end (at a back edge, a return); exact in every function that then fits. */
static void test_plan_hammocks_in_irreducible_functions_count_exactly(void **state) {
  (void)state;
  stats_t st;
  run_rounds(200, 14, 5, 3, 64, &st);
  assert_true(st.split > 50);
  assert_true(st.planned[kPpRegionBased] > 60); /* (at 64 counters, most of the rest cannot fit) */
  assert_true(st.compared > 2000);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_plan_random_functions_count_every_walk_exactly),
      cmocka_unit_test(test_plan_hashed_global_sums_count_exactly),
      cmocka_unit_test(test_plan_irreducible_functions_count_every_walk_exactly),
      cmocka_unit_test(test_plan_hammocks_count_every_walk_exactly),
      cmocka_unit_test(test_plan_hammocks_in_irreducible_functions_count_exactly),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
