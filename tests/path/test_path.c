/* Tests of Ball-Larus path numbering (sw/lib/path/bl.c): the seed's own examples rebuilt from its text
 * (seed 004; its figures are not in the file, so the graphs below are what the text says of them,
 * and the successor orders are the ones the values it gives fix), and random graphs against an
 * independent oracle (every path enumerated by brute force, sharing no code with the numbering). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bl.h"
#include "regions.h"

static uint8_t arena_mem[1u << 22];

static hwprof_arena_t fresh_arena(void) { return (hwprof_arena_t){arena_mem, sizeof arena_mem, 0}; }

/* the DAG edge from s to d of kind k (the first one) */
static uint32_t dag_edge(const pp_numbering_t *n, uint32_t s, uint32_t d, pp_kind_t k) {
  for (uint32_t e = 0; e < n->nedge; e++)
    if (n->edge[e].src == s && n->edge[e].dst == d && n->kind[e] == k) return e;
  fail_msg("no DAG edge %u -> %u", s, d);
  return PP_NONE;
}

/* the sum along a path given as nodes (real edges), with vals */
static uint64_t sum_of(const pp_numbering_t *n, const uint64_t *val, const uint32_t *nodes, unsigned len) {
  uint64_t s = 0;
  for (unsigned i = 0; i + 1 < len; i++) s += val[dag_edge(n, nodes[i], nodes[i + 1], kPpReal)];
  return s;
}

/* Figure 4A: region R1 (C, D, E, F; back edge F->C removed) with its source Re and sink Rx. Entries
 * C and E, exits D and F; paths CD, CDF, CEF, EF. The text: Re->C = 0, Re->E = 3, ReEFRx = 3,
 * ReCDFRx = 1, C->E = 2 (Figure 5's walk-through), and Figure 6A addresses CD, CDF, CEF, EF by 0, 1,
 * 2, 3. That fixes the order: Re: C before E; C: D before E; D: Rx before F. */
enum { kRe = 0, kC, kD, kE, kF, kRx };
static const pp_edge_t kFig4a[] = {{kRe, kC}, {kRe, kE}, {kC, kD}, {kC, kE}, {kD, kRx}, {kD, kF}, {kE, kF}, {kF, kRx}};

static void test_bl_figure_4a_region_r1(void **state) {
  (void)state;
  hwprof_arena_t a = fresh_arena();
  const pp_graph_t g = {6, kRe, kRx, kFig4a, 8, NULL};
  pp_numbering_t n;
  assert_int_equal(pp_number(&g, NULL, 1000, &a, &n), kPpOk);
  assert_int_equal(n.paths, 4);
  assert_int_equal(n.val[dag_edge(&n, kRe, kC, kPpReal)], 0);
  assert_int_equal(n.val[dag_edge(&n, kRe, kE, kPpReal)], 3);
  assert_int_equal(n.val[dag_edge(&n, kC, kE, kPpReal)], 2);
  const uint32_t cd[] = {kRe, kC, kD, kRx}, cdf[] = {kRe, kC, kD, kF, kRx}, cef[] = {kRe, kC, kE, kF, kRx},
                 ef[] = {kRe, kE, kF, kRx};
  assert_int_equal(sum_of(&n, n.val, cd, 4), 0);
  assert_int_equal(sum_of(&n, n.val, cdf, 5), 1);
  assert_int_equal(sum_of(&n, n.val, cef, 5), 2);
  assert_int_equal(sum_of(&n, n.val, ef, 4), 3);
  /* decoding gives the paths back */
  uint32_t edges[8], len;
  assert_int_equal(pp_decode(&n, 2, edges, 8, &len), kPpOk);
  assert_int_equal(len, 4);
  assert_int_equal(n.edge[edges[1]].dst, kE);
  assert_int_equal(n.edge[edges[2]].dst, kF);
  assert_int_equal(pp_decode(&n, 4, edges, 8, &len), kPpBadGraph);
}

/* Figure 3A: region R2 (A, B, G, H) with inner region R1 replaced by its representative entry C,
 * Re and Rx; edges A->C, B->C (added, 5b), C->H, C->G (added, 5c). The text: Re->A = 0, Re->B = 2,
 * ReBCGRx = 3; Figure 6B: AR1H, AR1G, BR1H, BR1G = 0, 1, 2, 3 (C: H before G). */
enum { kRe3 = 0, kA3, kB3, kC3, kH3, kG3, kRx3 };
static const pp_edge_t kFig3a[] = {{kRe3, kA3}, {kRe3, kB3}, {kA3, kC3}, {kB3, kC3},
                                   {kC3, kH3},  {kC3, kG3},  {kH3, kRx3}, {kG3, kRx3}};

static void test_bl_figure_3a_region_r2(void **state) {
  (void)state;
  hwprof_arena_t a = fresh_arena();
  const pp_graph_t g = {7, kRe3, kRx3, kFig3a, 8, NULL};
  pp_numbering_t n;
  assert_int_equal(pp_number(&g, NULL, 1000, &a, &n), kPpOk);
  assert_int_equal(n.paths, 4);
  assert_int_equal(n.val[dag_edge(&n, kRe3, kA3, kPpReal)], 0);
  assert_int_equal(n.val[dag_edge(&n, kRe3, kB3, kPpReal)], 2);
  const uint32_t ah[] = {kRe3, kA3, kC3, kH3, kRx3}, ag[] = {kRe3, kA3, kC3, kG3, kRx3}, bh[] = {kRe3, kB3, kC3, kH3, kRx3},
                 bg[] = {kRe3, kB3, kC3, kG3, kRx3};
  assert_int_equal(sum_of(&n, n.val, ah, 5), 0);
  assert_int_equal(sum_of(&n, n.val, ag, 5), 1);
  assert_int_equal(sum_of(&n, n.val, bh, 5), 2);
  assert_int_equal(sum_of(&n, n.val, bg, 5), 3);
}

/* Figure 8A: the global embodiment's augmented graph of Figure 7A (A .. I; R1 = C, D, E, F with
 * entry C and exits D, F; R2 = B, R1, G with entry B and exits D, G and back edge G->B removed;
 * added: A->C, D->I, F->I, G->I (4a, 4b), D->G (4d: R1's representative exit D to its epilog G)).
 * The text's values: A->B = 10, C->E = 7, F->I = 2, G->I = 1, D->G = 2 (ABCDGI = 13 through A->B,
 * D->G, G->I); after the reassignment F->G = D->G = 2 and G->H = D->H = 1 (Figure 9's walk-through),
 * CEF = 9, AR2HI = ABCDHI = 11. They fix the order: A: C before B; C: D before E; D: I, H, G, F;
 * F: G before I; G: H before I. */
enum { kA = 0, kB8, kC8, kD8, kE8, kF8, kG8, kH8, kI8 };
static const pp_edge_t kFig8a[] = {{kA, kC8},  {kA, kB8},  {kB8, kC8}, {kC8, kD8}, {kC8, kE8}, {kD8, kI8},
                                   {kD8, kH8}, {kD8, kG8}, {kD8, kF8}, {kE8, kF8}, {kF8, kG8}, {kF8, kI8},
                                   {kG8, kH8}, {kG8, kI8}, {kH8, kI8}};

static void test_bl_figure_8a_global(void **state) {
  (void)state;
  hwprof_arena_t a = fresh_arena();
  const pp_graph_t g = {9, kA, kI8, kFig8a, 15, NULL};
  pp_numbering_t n;
  assert_int_equal(pp_number(&g, NULL, 1000, &a, &n), kPpOk);
  assert_int_equal(n.paths, 20);
  assert_int_equal(n.val[dag_edge(&n, kA, kB8, kPpReal)], 10);
  assert_int_equal(n.val[dag_edge(&n, kC8, kE8, kPpReal)], 7);
  assert_int_equal(n.val[dag_edge(&n, kF8, kI8, kPpReal)], 2);
  assert_int_equal(n.val[dag_edge(&n, kG8, kI8, kPpReal)], 1);
  assert_int_equal(n.val[dag_edge(&n, kD8, kG8, kPpReal)], 2);
  assert_int_equal(n.val[dag_edge(&n, kD8, kH8, kPpReal)], 1);
  /* the reassignment (by hand here): an inner region's exit edge to an epilog takes the value of the
     representative exit's edge to it */
  n.val[dag_edge(&n, kF8, kG8, kPpReal)] = n.val[dag_edge(&n, kD8, kG8, kPpReal)];
  n.val[dag_edge(&n, kG8, kH8, kPpReal)] = n.val[dag_edge(&n, kD8, kH8, kPpReal)];
  const uint32_t abcdgi[] = {kA, kB8, kC8, kD8, kG8, kI8}, cef[] = {kA, kC8, kE8, kF8, kI8},
                 abcdhi[] = {kA, kB8, kC8, kD8, kH8, kI8};
  assert_int_equal(sum_of(&n, n.val, abcdgi, 6), 13);
  assert_int_equal(sum_of(&n, n.val, cef, 5), 9);
  assert_int_equal(sum_of(&n, n.val, abcdhi, 6), 11);
}

/* A loop: entry -> h, h -> b, b -> h (back), h -> exit. The back edge becomes entry->h and b->exit:
 * four paths (h exit; h b, ending at the back edge; from the loop head: h exit; h b). */
static void test_bl_back_edge_dummies(void **state) {
  (void)state;
  hwprof_arena_t a = fresh_arena();
  const pp_edge_t edges[] = {{0, 1}, {1, 2}, {2, 1}, {1, 3}};
  const pp_graph_t g = {4, 0, 3, edges, 4, NULL};
  pp_numbering_t n;
  assert_int_equal(pp_number(&g, NULL, 1000, &a, &n), kPpOk);
  assert_true(n.back[2]);
  assert_false(n.back[0] || n.back[1] || n.back[3]);
  assert_int_equal(n.paths, 4);
  assert_int_equal(n.kind[n.dummy_entry[2]], kPpDummyEntry);
  assert_int_equal(n.edge[n.dummy_entry[2]].src, 0);
  assert_int_equal(n.edge[n.dummy_exit[2]].dst, 3);
  /* a path that ends by taking the back edge: entry h b then b->exit */
  uint32_t e[8], len;
  bool found = false;
  for (uint64_t s = 0; s < n.paths; s++) {
    assert_int_equal(pp_decode(&n, s, e, 8, &len), kPpOk);
    if (len == 3 && n.kind[e[0]] == kPpReal && n.kind[e[2]] == kPpDummyExit) found = true;
  }
  assert_true(found);
}

/* A diamond, entry 0 -> 1 | 2 -> 3 -> exit 4, with a longjmp landing at 2 (pp_graph_t.start): the
 * numbering adds ENTRY->2 after the real edges, so (worked out by hand, values in edge order) 0->1
 * is 0, 0->2 is 1, the dummy 0->2 is 2, every other edge 0: three paths, the landing's numbered 2;
 * a start at the entry itself adds nothing. */
static void test_bl_landing_start(void **state) {
  (void)state;
  hwprof_arena_t a = fresh_arena();
  const pp_edge_t edges[] = {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}};
  const bool start[] = {true, false, true, false, false};
  const pp_graph_t g = {5, 0, 4, edges, 5, start};
  pp_numbering_t n;
  assert_int_equal(pp_number(&g, NULL, 1000, &a, &n), kPpOk);
  assert_int_equal(n.paths, 3);
  assert_int_equal(n.nedge, 6);
  assert_int_equal(n.kind[5], kPpDummyEntry);
  assert_int_equal(n.edge[5].src, 0);
  assert_int_equal(n.edge[5].dst, 2);
  const uint32_t p013[] = {0, 1, 3}, p023[] = {0, 2, 3}, p23[] = {2, 3};
  uint64_t sum;
  const char *why = "";
  assert_true(pp_number_path(&n, p013, 3, false, &sum, &why));
  assert_int_equal(sum, 0);
  assert_true(pp_number_path(&n, p023, 3, false, &sum, &why));
  assert_int_equal(sum, 1);
  assert_true(pp_number_path(&n, p23, 2, false, &sum, &why));
  assert_int_equal(sum, 2);
  const uint32_t p3[] = {3}; /* no path starts at 3 */
  assert_false(pp_number_path(&n, p3, 1, false, &sum, &why));
}

static void test_bl_refuses_what_it_cannot_number(void **state) {
  (void)state;
  hwprof_arena_t a = fresh_arena();
  /* 70 diamonds in a row: 2^70 paths */
  static pp_edge_t chain[70 * 4];
  for (uint32_t i = 0; i < 70; i++) {
    const uint32_t s = 3 * i;
    chain[4 * i] = (pp_edge_t){s, s + 1};
    chain[4 * i + 1] = (pp_edge_t){s, s + 2};
    chain[4 * i + 2] = (pp_edge_t){s + 1, s + 3};
    chain[4 * i + 3] = (pp_edge_t){s + 2, s + 3};
  }
  const pp_graph_t big = {211, 0, 210, chain, 280, NULL};
  pp_numbering_t n;
  assert_int_equal(pp_number(&big, NULL, UINT64_C(1) << 40, &a, &n), kPpTooManyPaths);
  assert_int_equal(pp_number(&big, NULL, UINT64_MAX, &a, &n), kPpTooManyPaths); /* 2^70 > 2^64 - 1 */
  /* a node from which the exit cannot be reached */
  const pp_edge_t dead[] = {{0, 1}, {0, 2}, {1, 3}};
  const pp_graph_t gd = {4, 0, 3, dead, 3, NULL};
  a = fresh_arena();
  assert_int_equal(pp_number(&gd, NULL, 100, &a, &n), kPpUnreachable);
  /* an edge out of the exit, an edge out of range */
  const pp_edge_t out[] = {{0, 1}, {1, 0}, {1, 2}};
  const pp_graph_t go = {3, 0, 1, out, 3, NULL};
  assert_int_equal(pp_number(&go, (const bool[]){false, false, false}, 100, &a, &n), kPpBadGraph);
  const pp_edge_t range[] = {{0, 7}};
  const pp_graph_t gr = {2, 0, 1, range, 1, NULL};
  assert_int_equal(pp_number(&gr, NULL, 100, &a, &n), kPpBadGraph);
}

/* ---- the augmentations, from the seed's original graphs */

/* out's edges as a set equal the expected ones (order aside); returns the permutation that puts
 * them in the expected order (the order the seed's values fix) into ordered */
static void same_edges(const pp_graph_t *out, const uint32_t *node_of, const pp_edge_t *want, uint32_t nwant,
                       pp_edge_t *ordered) {
  assert_int_equal(out->nedge, nwant);
  for (uint32_t i = 0; i < nwant; i++) {
    bool found = false;
    for (uint32_t e = 0; e < out->nedge && !found; e++) {
      const uint32_t s = node_of ? node_of[out->edge[e].src] : out->edge[e].src;
      const uint32_t d = node_of ? node_of[out->edge[e].dst] : out->edge[e].dst;
      if (s == want[i].src && d == want[i].dst) {
        found = true;
        ordered[i] = out->edge[e];
      }
    }
    if (!found) fail_msg("expected edge %u -> %u is missing", want[i].src, want[i].dst);
  }
}

/* Figure 2A (as the text describes it): outer region R2 = A, B, G, H and inner region R1 = C, D, E, F
 * with back edge F->C; R1's entries C and E (from A and B), its exits D (to H) and F (to G); R2's
 * entries A and B, exits H and G. The function around it: S -> A, S -> B, H -> T, G -> T (S and T
 * in the outermost region R0). Function nodes are named by letter; Re and Rx are PP_NONE in node_of
 * (written RE and RX below). */
enum { nA = 0, nB, nC, nD, nE, nF, nG, nH, nS, nT };
#define RE 100u
#define RX 101u
static const pp_edge_t kFig2a[] = {{nS, nA}, {nS, nB}, {nA, nC}, {nB, nE}, {nC, nD}, {nC, nE}, {nD, nH},
                                   {nD, nF}, {nE, nF}, {nF, nG}, {nF, nC}, {nH, nT}, {nG, nT}};
static const bool kFig2aBack[] = {false, false, false, false, false, false, false,
                                  false, false, false, true,  false, false};
static const uint32_t kFig2aRegion[] = {2, 2, 1, 1, 1, 1, 2, 2, 0, 0}; /* A..H, S, T */
static const uint32_t kFig2aParent[] = {PP_NONE, 2, 0};                /* R0, R1 in R2, R2 in R0 */
static const uint32_t kFig2aRepEntry[] = {nS, nC, nA};                  /* R1: C, as in the text */

static void rename_local(pp_edge_t *e, uint32_t n, const uint32_t *node_of, uint32_t re, uint32_t rx) {
  for (uint32_t i = 0; i < n; i++) {
    e[i].src = e[i].src == re ? RE : e[i].src == rx ? RX : node_of[e[i].src];
    e[i].dst = e[i].dst == re ? RE : e[i].dst == rx ? RX : node_of[e[i].dst];
  }
}

/* The hierarchical path of sum s in a region's graph, as Figure 2B writes it: node letters, an inner
 * region (its representative entry) as "R1", without Re and Rx. */
static void path_name(const pp_numbering_t *n, const uint32_t *node_of, uint32_t inner_rep, uint64_t s, char *buf) {
  uint32_t e[16], len;
  assert_int_equal(pp_decode(n, s, e, 16, &len), kPpOk);
  size_t k = 0;
  for (uint32_t i = 0; i + 1 < len; i++) { /* the nodes after Re, up to the one before Rx */
    const uint32_t v = node_of[n->edge[e[i]].dst];
    if (v == inner_rep) {
      buf[k++] = 'R';
      buf[k++] = '1';
    } else {
      buf[k++] = (char)('A' + v);
    }
  }
  buf[k] = '\0';
}

static void test_rb_augment_figures_3a_and_4a(void **state) {
  (void)state;
  hwprof_arena_t a = fresh_arena();
  const pp_graph_t g = {10, nS, nT, kFig2a, 13, NULL};
  const pp_regions_t h = {&g, kFig2aBack, kFig2aRegion, kFig2aParent, kFig2aRepEntry, NULL, 3};
  pp_graph_t out;
  uint32_t *node_of, *local_of;
  /* R1 (Figure 4A): Re->C, Re->E, C->D, C->E, D->Rx, D->F, E->F, F->Rx, in the order the text fixes */
  assert_int_equal(pp_rb_augment(&h, 1, &a, &out, &node_of, &local_of), kPpOk);
  assert_int_equal(out.nnodes, 6);
  pp_edge_t got[16];
  for (uint32_t e = 0; e < out.nedge; e++) got[e] = out.edge[e];
  rename_local(got, out.nedge, node_of, out.entry, out.exit);
  const pp_edge_t want4[] = {{RE, nC}, {RE, nE}, {nC, nD}, {nC, nE}, {nD, RX}, {nD, nF}, {nE, nF}, {nF, RX}};
  assert_int_equal(out.nedge, 8);
  for (uint32_t i = 0; i < 8; i++) { /* the default order is already the one the text fixes */
    assert_int_equal(got[i].src, want4[i].src);
    assert_int_equal(got[i].dst, want4[i].dst);
  }
  pp_numbering_t n;
  assert_int_equal(pp_number(&out, NULL, 1000, &a, &n), kPpOk);
  assert_int_equal(n.paths, 4);
  assert_int_equal(n.val[dag_edge(&n, out.entry, local_of[nE], kPpReal)], 3);
  /* its paths are Figure 2B's for R1, at Figure 6A's indexes */
  const char *const r1_paths[] = {"CD", "CDF", "CEF", "EF"};
  char name[32];
  for (uint64_t k = 0; k < 4; k++) {
    path_name(&n, node_of, PP_NONE, k, name);
    assert_string_equal(name, r1_paths[k]);
  }
  /* R2 (Figure 3A): Re->A, Re->B, A->C, B->C (5b), C->H, C->G (5c), H->Rx, G->Rx */
  a = fresh_arena();
  assert_int_equal(pp_rb_augment(&h, 2, &a, &out, &node_of, &local_of), kPpOk);
  assert_int_equal(out.nnodes, 7);
  for (uint32_t e = 0; e < out.nedge; e++) got[e] = out.edge[e];
  rename_local(got, out.nedge, node_of, out.entry, out.exit);
  const pp_edge_t want3[] = {{RE, nA}, {RE, nB}, {nA, nC}, {nB, nC}, {nC, nH}, {nC, nG}, {nG, RX}, {nH, RX}};
  assert_int_equal(out.nedge, 8);
  for (uint32_t i = 0; i < 8; i++) {
    bool found = false;
    for (uint32_t e = 0; e < 8; e++) found |= got[e].src == want3[i].src && got[e].dst == want3[i].dst;
    assert_true(found);
  }
  /* every node of R1 maps to its representative entry C */
  assert_int_equal(local_of[nE], local_of[nC]);
  assert_int_equal(local_of[nF], local_of[nC]);
  assert_int_equal(local_of[nS], PP_NONE);
  assert_int_equal(pp_number(&out, NULL, 1000, &a, &n), kPpOk);
  assert_int_equal(n.val[dag_edge(&n, out.entry, local_of[nB], kPpReal)], 2);
  const uint32_t bg[] = {out.entry, local_of[nB], local_of[nC], local_of[nG], out.exit};
  assert_int_equal(sum_of(&n, n.val, bg, 5), 3); /* ReBCGRx */
  const char *const r2_paths[] = {"AR1H", "AR1G", "BR1H", "BR1G"}; /* Figure 2B's for R2, Figure 6B's indexes */
  for (uint64_t k = 0; k < 4; k++) {
    path_name(&n, node_of, nC, k, name);
    assert_string_equal(name, r2_paths[k]);
  }
}

/* Figure 7A (as the text describes it): A -> B, B -> C, C -> D, C -> E, D -> F, D -> H, E -> F,
 * F -> G, G -> B (back), G -> H, H -> I; R1 = C, D, E, F (representative path CD), R2 = B, R1, G
 * (BCD), R3 the function. */
static const pp_edge_t kFig7a[] = {{kA, kB8}, {kB8, kC8}, {kC8, kD8}, {kC8, kE8}, {kD8, kF8}, {kD8, kH8},
                                   {kE8, kF8}, {kF8, kG8}, {kG8, kB8}, {kG8, kH8}, {kH8, kI8}};
static const bool kFig7aBack[] = {false, false, false, false, false, false, false, false, true, false, false};
static const uint32_t kFig7aRegion[] = {2, 1, 0, 0, 0, 0, 1, 2, 2}; /* A..I: regions 0 = R1, 1 = R2, 2 = R3 */
static const uint32_t kFig7aParent[] = {1, 2, PP_NONE};              /* R1 in R2 in R3 */
static const uint32_t kFig7aRepEntry[] = {kC8, kB8, kA};
static const uint32_t kFig7aRepExit[] = {kD8, kD8, kI8};

static void test_gp_augment_figure_8a(void **state) {
  (void)state;
  hwprof_arena_t a = fresh_arena();
  const pp_graph_t g = {9, kA, kI8, kFig7a, 11, NULL};
  const pp_regions_t h = {&g, kFig7aBack, kFig7aRegion, kFig7aParent, kFig7aRepEntry, kFig7aRepExit, 3};
  pp_graph_t out;
  bool *added;
  assert_int_equal(pp_gp_augment(&h, &a, &out, &added), kPpOk);
  /* the edge set of Figure 8A (the back edge G->B removed; A->C, D->I, F->I, G->I, D->G added) */
  pp_edge_t ordered[15];
  same_edges(&out, NULL, kFig8a, 15, ordered);
  unsigned nadded = 0;
  for (uint32_t e = 0; e < out.nedge; e++) nadded += added[e];
  assert_int_equal(nadded, 5);
  /* numbered in the order the text fixes (kFig8a's), then reassigned */
  const pp_graph_t og = {9, kA, kI8, ordered, 15, NULL};
  bool oadded[15];
  for (uint32_t i = 0; i < 15; i++) {
    oadded[i] = false;
    for (uint32_t e = 0; e < out.nedge; e++)
      if (out.edge[e].src == ordered[i].src && out.edge[e].dst == ordered[i].dst) oadded[i] = added[e];
  }
  pp_numbering_t n;
  assert_int_equal(pp_number(&og, NULL, 1000, &a, &n), kPpOk);
  pp_gp_reassign(&h, oadded, &n);
  assert_int_equal(n.val[dag_edge(&n, kF8, kG8, kPpReal)], 2); /* = D->G */
  assert_int_equal(n.val[dag_edge(&n, kG8, kH8, kPpReal)], 1); /* = D->H */
  assert_int_equal(n.val[dag_edge(&n, kF8, kI8, kPpReal)], 2); /* an added edge keeps its value */
  const uint32_t abcdgi[] = {kA, kB8, kC8, kD8, kG8, kI8}, cef[] = {kA, kC8, kE8, kF8, kI8},
                 abcdhi[] = {kA, kB8, kC8, kD8, kH8, kI8};
  assert_int_equal(sum_of(&n, n.val, abcdgi, 6), 13);
  assert_int_equal(sum_of(&n, n.val, cef, 5), 9);
  assert_int_equal(sum_of(&n, n.val, abcdhi, 6), 11);
  /* Figure 9's walk-through of ABCEFGHI: R1's path CEF counts 9 at F->G, R2's path (its sum 10 from
     A->B, then B->C 0, then F->G 2, then G->I 1 at its exit) 13, R3's (A->B 10, G->H 1) 11 */
  const uint64_t r2 = n.val[dag_edge(&n, kA, kB8, kPpReal)] + n.val[dag_edge(&n, kB8, kC8, kPpReal)] +
                      n.val[dag_edge(&n, kF8, kG8, kPpReal)] + n.val[dag_edge(&n, kG8, kI8, kPpReal)];
  assert_int_equal(r2, 13);
  const uint64_t r3 = n.val[dag_edge(&n, kA, kB8, kPpReal)] + n.val[dag_edge(&n, kG8, kH8, kPpReal)] +
                      n.val[dag_edge(&n, kH8, kI8, kPpReal)];
  assert_int_equal(r3, 11);
}

static void test_regions_refuse_malformed_nesting(void **state) {
  (void)state;
  hwprof_arena_t a = fresh_arena();
  const pp_graph_t g = {9, kA, kI8, kFig7a, 11, NULL};
  const uint32_t loop_parent[] = {1, 0, PP_NONE}; /* R1 in R2 in R1 */
  pp_regions_t h = {&g, kFig7aBack, kFig7aRegion, loop_parent, kFig7aRepEntry, kFig7aRepExit, 3};
  pp_graph_t out;
  bool *added;
  uint32_t *node_of, *local_of;
  assert_int_equal(pp_gp_augment(&h, &a, &out, &added), kPpBadGraph);
  const uint32_t bad_rep[] = {kH8, kB8, kA}; /* R1's representative entry outside R1 */
  h = (pp_regions_t){&g, kFig7aBack, kFig7aRegion, kFig7aParent, bad_rep, kFig7aRepExit, 3};
  assert_int_equal(pp_rb_augment(&h, 0, &a, &out, &node_of, &local_of), kPpBadGraph);
  h.rep_entry = kFig7aRepEntry;
  assert_int_equal(pp_rb_augment(&h, 3, &a, &out, &node_of, &local_of), kPpBadGraph); /* no region 3 */
  assert_int_equal(pp_rb_augment(&h, 0, &a, &out, &node_of, &local_of), kPpOk);
}

/* ---- random graphs against brute force */

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint32_t rnd(uint32_t n) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state % n);
}

/* every DAG path from v to the exit, its sums by val and by inc, recorded by the edges' DAG indexes
 * (the oracle walks n->edge with its own loops, not through first/next) */
typedef struct {
  const pp_numbering_t *n;
  const int64_t *inc;
  uint32_t path[64];
  unsigned len;
  uint8_t *seen; /* per sum */
  unsigned count, by_blocks;
} brute_t;

static void brute(brute_t *b, uint32_t v, uint64_t s, int64_t t) {
  const pp_numbering_t *n = b->n;
  if (v == n->g->exit) {
    assert_true(s < n->paths);
    assert_false(b->seen[s]); /* unique */
    b->seen[s] = 1;
    assert_int_equal((int64_t)s, t); /* the increments add up to the path sum */
    uint32_t e[64], len;
    assert_int_equal(pp_decode(n, s, e, 64, &len), kPpOk); /* and the sum decodes to the path */
    assert_int_equal(len, b->len);
    for (unsigned i = 0; i < len; i++) assert_int_equal(e[i], b->path[i]);
    /* and the path given as its blocks (as the oracle writes it) numbers to the same sum, unless it
       starts by a dummy that blocks alone cannot tell: the dummy into the entry itself, or one of
       several into the same loop head (one per back edge into it) */
    uint32_t blk[65], nb = 0, i0 = 0;
    bool ambiguous = false;
    if (n->kind[b->path[0]] == kPpDummyEntry) {
      const uint32_t w = n->edge[b->path[0]].dst;
      unsigned into = 0;
      for (uint32_t e = 0; e < n->nedge; e++) into += n->kind[e] == kPpDummyEntry && n->edge[e].dst == w;
      ambiguous = w == n->g->entry || into > 1;
    }
    if (n->kind[b->path[0]] == kPpDummyEntry) blk[nb++] = n->edge[b->path[i0++]].dst;
    else blk[nb++] = n->g->entry;
    for (uint32_t i = i0; i + 1 < b->len; i++) blk[nb++] = n->edge[b->path[i]].dst;
    uint64_t s2 = 0;
    const char *why = "";
    assert_int_equal(pp_number_path(n, blk, nb, n->kind[b->path[b->len - 1]] == kPpDummyExit, &s2, &why), 1);
    if (!ambiguous) assert_int_equal(s2, s);
    b->by_blocks += !ambiguous;
    b->count++;
    return;
  }
  for (uint32_t e = 0; e < n->nedge; e++) {
    if (n->edge[e].src != v) continue;
    assert_true(b->len < 64);
    b->path[b->len++] = e;
    brute(b, n->edge[e].dst, s + n->val[e], t + b->inc[e]);
    b->len--;
  }
}

static void test_bl_random_graphs_number_every_path_once(void **state) {
  (void)state;
  static pp_edge_t edges[64];
  static uint8_t seen[1u << 16];
  static int64_t inc[256];
  static bool tree[256];
  static uint64_t weight[256];
  unsigned graphs = 0, with_loops = 0, by_blocks = 0;
  for (unsigned round = 0; round < 400; round++) {
    /* nodes 0..k-1 in a row (each falls to the next), forward jumps and branches, some loops back */
    const uint32_t k = 3 + rnd(12);
    uint32_t m = 0;
    for (uint32_t v = 0; v + 1 < k; v++) {
      edges[m++] = (pp_edge_t){v, v + 1};
      if (rnd(3) == 0 && v + 2 < k) edges[m++] = (pp_edge_t){v, v + 2 + rnd(k - v - 2)};
      else if (rnd(5) == 0 && v > 0) edges[m++] = (pp_edge_t){v, rnd(v + 1)}; /* back to itself or before */
    }
    const pp_graph_t g = {k, 0, k - 1, edges, m, NULL};
    hwprof_arena_t a = fresh_arena();
    pp_numbering_t n;
    const pp_status_t st = pp_number(&g, NULL, 1u << 16, &a, &n);
    if (st != kPpOk) {
      assert_int_equal(st, kPpTooManyPaths);
      continue;
    }
    for (uint32_t e = 0; e < n.nedge; e++) weight[e] = rnd(100);
    assert_int_equal(pp_chords(&n, round % 2 ? weight : NULL, &a, inc, tree), kPpOk);
    memset(seen, 0, n.paths);
    brute_t b = {.n = &n, .inc = inc, .seen = seen};
    brute(&b, g.entry, 0, 0); /* from the entry, through the ENTRY->w dummies too: every path */
    assert_int_equal(b.count, n.paths);
    by_blocks += b.by_blocks;
    unsigned chords = 0;
    for (uint32_t e = 0; e < n.nedge; e++) chords += !tree[e];
    /* the k nodes are connected (each falls to the next): a spanning tree of k - 1 edges, one of them
       EXIT->ENTRY, so k - 2 DAG edges on it and the rest chords */
    assert_int_equal(chords + (k - 2u), n.nedge);
    graphs++;
    for (uint32_t e = 0; e < m; e++) with_loops += n.back[e];
  }
  assert_true(graphs > 300);
  assert_true(with_loops > 50);
  assert_true(by_blocks > 2000); /* paths numbered from their blocks (pp_number_path): 3,386 */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bl_figure_4a_region_r1),
      cmocka_unit_test(test_bl_figure_3a_region_r2),
      cmocka_unit_test(test_bl_figure_8a_global),
      cmocka_unit_test(test_bl_back_edge_dummies), cmocka_unit_test(test_bl_landing_start),
      cmocka_unit_test(test_bl_refuses_what_it_cannot_number),
      cmocka_unit_test(test_rb_augment_figures_3a_and_4a),
      cmocka_unit_test(test_gp_augment_figure_8a),
      cmocka_unit_test(test_regions_refuse_malformed_nesting),
      cmocka_unit_test(test_bl_random_graphs_number_every_path_once),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
