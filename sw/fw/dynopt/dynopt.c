/* Phase detection at run time; see dynopt.h and docs/dynopt.md. */
#include "dynopt.h"

#include "hwprof_edge.h"
#include "rv32_isa.h"

#define kHasPred 0x80u /* rl_flags while the chains are built: a block has a predecessor */

/* The counters are ordinary memory (docs/edge_prof.md): after a flush with invalidate the cache holds
 * nothing, so the firmware reads and writes them directly, before any further update. */
static uint64_t counter_read(const hwprof_dynopt_t *d, uint32_t addr) {
  const volatile uint32_t *w = (const volatile uint32_t *)(uintptr_t)addr;
  return d->meta.hdr->cnt_bytes == 8u ? (uint64_t)w[0] | (uint64_t)w[1] << 32 : w[0];
}

static void counter_write(const hwprof_dynopt_t *d, uint32_t addr, uint64_t v) {
  volatile uint32_t *w = (volatile uint32_t *)(uintptr_t)addr;
  w[0] = (uint32_t)v;
  if (d->meta.hdr->cnt_bytes == 8u) w[1] = (uint32_t)(v >> 32);
}

static uint64_t mask_of(unsigned w) { return w == 64u ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1u; }

/* A probe counter's preset: MAX_VALUE - 1, so that the first run of its edge overflows it. */
static uint64_t probe_preset(const hwprof_dynopt_t *d) { return mask_of(d->cnt_w); }

/* Whether f's probe has counted since it was set (the cache flushed and invalidated). */
static bool probe_moved(const hwprof_dynopt_t *d, uint32_t f) {
  for (unsigned k = 0; k < 2u && d->func_probe[f][k]; k++)
    if (counter_read(d, d->func_probe[f][k]) != probe_preset(d)) return true;
  return false;
}

/* f's probe counters back to the plain counts of their edges (their value less the preset), and f
 * no longer probed (the cache flushed and invalidated). */
static void unprobe(hwprof_dynopt_t *d, uint32_t f) {
  for (unsigned k = 0; k < 2u && d->func_probe[f][k]; k++)
    counter_write(d, d->func_probe[f][k], (counter_read(d, d->func_probe[f][k]) - probe_preset(d)) & mask_of(d->cnt_w));
  d->func_probe[f][0] = d->func_probe[f][1] = 0;
}

void hwprof_dynopt_params_default(hwprof_dynopt_params_t *p) {
  p->trigger = 1;
  p->min_threshold = 64;
  p->ratio_log2 = 3; /* an eighth */
  p->fts_ratio = 1;
  p->invert_ratio = 3;
  p->max_polls = 100000;
  p->scheme = kHwprofScheme5A;
  p->b5_ratio = 8;
  p->quick_pairs = 64;
}

static void log_event(hwprof_dynopt_t *d, uint64_t instret, hwprof_dynopt_event_kind_t kind,
                      const hwprof_phase_summary_t *s, unsigned flipped, unsigned oab, unsigned funcs, unsigned laid) {
  if (d->nlog == HWPROF_DYNOPT_LOG) return; /* the first ones are kept; the counts go on */
  d->log[d->nlog++] = (hwprof_dynopt_event_t){instret, (uint8_t)kind, (uint16_t)(s ? s->crossed : 0),
                                              (uint16_t)(s ? s->fts : 0), (uint16_t)flipped, (uint16_t)oab,
                                              (uint16_t)funcs, (uint16_t)laid};
}

static size_t nfuncs(const hwprof_dynopt_t *d) {
  return d->meta.hdr->nfunc < HWPROF_DYNOPT_MAX_FUNCS ? d->meta.hdr->nfunc : HWPROF_DYNOPT_MAX_FUNCS;
}

/* HOT_THRESHOLD(f) for f's next phase (function scope, docs/dynopt.md): a fraction of f's hottest
 * branch edge in the period that ended, and after a false transition signal in f twice what it
 * was, so that a branch whose minority edge keeps passing an absolute threshold interrupts ever
 * more rarely (paragraphs 60-61). */
static void set_threshold(hwprof_dynopt_t *d, size_t f) {
  const uint64_t max = hwprof_phase_max_count(d->cnt_w);
  uint64_t t = d->func_max[f] >> d->p.ratio_log2;
  if (t < d->p.min_threshold) t = d->p.min_threshold;
  if (d->func_fts[f] && t < 2 * d->func_thr[f]) t = 2 * d->func_thr[f];
  d->func_thr[f] = t > max ? max : t;
  d->func_fts[f] = false;
}

/* Arms f's pairs for a new phase: roles and threshold into phase edges, presets into the counters.
 * The cache must hold none of them (after a flush with invalidate). */
static hwprof_result_t arm_func(hwprof_dynopt_t *d, size_t f) {
  const uint32_t first = d->func_first[f], np = d->func_np[f];
  if (np == 0) return kHwprofOk;
  const uint64_t t = d->func_thr[f];
  for (uint32_t k = 0; k < np; k++) { /* field by field: a compound literal with padding becomes a memset call */
    const hwprof_dynopt_pair_t *q = &d->pair[first + k];
    const bool th = q->b5 ? q->laid_taken : q->taken_hot; /* a 5B pair's h is what its copy makes it */
    hwprof_phase_edge_t *tk = &d->edge[2 * (first + k)], *fl = tk + 1;
    tk->role = th ? kHwprofPhaseHot : kHwprofPhaseCold;
    fl->role = th ? kHwprofPhaseCold : kHwprofPhaseHot;
    tk->threshold = fl->threshold = t;
    tk->mate = 2 * k + 1;
    fl->mate = 2 * k;
  }
  /* 5A and 5B arm alike: hot at 0, cold at MAX_VALUE - threshold (5B: DIFF_THRESHOLD(c), the same
     function-scope threshold) */
  hwprof_result_t r =
      hwprof_phase_presets(kHwprofScheme5A, &d->edge[2 * first], 2 * np, d->cnt_w, &d->counter[2 * first]);
  if (r != kHwprofOk) return r;
  for (uint32_t i = first; i < first + np; i++) {
    counter_write(d, d->pair[i].taken, d->counter[2 * i]);
    counter_write(d, d->pair[i].fall, d->counter[2 * i + 1]);
  }
  return kHwprofOk;
}

/* With 5B, pair i keeps its copy's way of counting while the stopped program may still run an old
 * version of its block (the interrupted instruction is in it, before its branch): 5A and 5B count
 * differently, and an old version keeps its own hints. */
static bool pinned(const hwprof_dynopt_t *d, uint32_t i) {
  const hwprof_dynopt_pair_t *q = &d->pair[i];
  return d->p.scheme == kHwprofScheme5B && d->resume_orig >= q->block_new && d->resume_orig <= q->branch_new;
}

/* Pair i's two edges on their own (mates of each other), for an evaluation of that pair alone. */
static void pair_edges(const hwprof_dynopt_t *d, uint32_t i, hwprof_phase_edge_t e[2]) {
  for (unsigned k = 0; k < 2u; k++) {
    e[k].role = d->edge[2 * i + k].role;
    e[k].threshold = d->edge[2 * i + k].threshold;
    e[k].mate = 1u - k;
  }
}

/* Evaluates f's period: one call for 5A; pair by pair where some are 5B pairs (the arithmetic takes
 * one scheme per call). */
static hwprof_result_t evaluate(hwprof_dynopt_t *d, size_t f, hwprof_phase_summary_t *s) {
  const uint32_t first = d->func_first[f], np = d->func_np[f];
  if (d->func_b5[f] == 0)
    return hwprof_phase_evaluate_armed(kHwprofScheme5A, &d->edge[2 * first], &d->counter[2 * first], 2 * np, d->cnt_w,
                                 d->p.fts_ratio, &d->out[2 * first], s);
  s->crossed = s->fts = 0;
  for (uint32_t i = first; i < first + np; i++) {
    hwprof_phase_edge_t e[2];
    pair_edges(d, i, e);
    hwprof_phase_summary_t one;
    const hwprof_result_t r =
        hwprof_phase_evaluate_armed(d->pair[i].b5 ? kHwprofScheme5B : kHwprofScheme5A, e, &d->counter[2 * i], 2, d->cnt_w,
                              d->p.fts_ratio, &d->out[2 * i], &one);
    if (r != kHwprofOk) return r;
    if (d->pair[i].b5) d->b5_crossed += (uint32_t)one.crossed;
    s->crossed += one.crossed;
    s->fts += one.fts;
  }
  s->skip = s->crossed > 0 && 2u * s->fts > s->crossed;
  return kHwprofOk;
}

/* The pairs of f whose layout should change after the period just worked out (d->out): a branch
 * is laid out taken-first once its taken edge ran invert_ratio times as often as the other, and
 * back once less than invert_ratio - 1 times (an inverted branch's other way costs a stub: a
 * taken branch, a prof.id and a jump). A backward branch (a loop's) never is: its loop needs one
 * taken transfer per iteration however it is laid out, and the compiler's rotated loop has it. */
static unsigned layout_changes(hwprof_dynopt_t *d, size_t f) {
  unsigned n = 0;
  const uint64_t r = d->p.invert_ratio;
  for (uint32_t i = d->func_first[f]; i < d->func_first[f] + d->func_np[f]; i++) {
    const uint64_t t = d->out[2 * i].profile, fl = d->out[2 * i + 1].profile;
    bool want = d->pair[i].want_taken;
    if (!want && t >= r * fl && t > 0) want = true;
    if (want && t < (r - 1u) * fl) want = false;
    if (d->pair[i].backward) want = false; /* a loop's branch: it closes the loop either way */
    if (pinned(d, i) && want != d->pair[i].laid_taken) { /* its old block may still run its branch, counting
                                                            as the current copy says: the next period decides */
      want = d->pair[i].laid_taken;
      d->pinned++;
    }
    d->pair[i].want_taken = want;
    n += want != d->pair[i].laid_taken;
  }
  return n;
}

/* Reads f's counters (the cache flushed and invalidated) and works out f's period since its last
 * arming: profiles folded into the totals, f's hottest edge and FTS for its next threshold. With
 * relayout, the more frequent edge of each branch becomes its hot one (paragraph 17: it falls
 * through) unless most of f's crossings were false signals (paragraph 61). */
static hwprof_result_t work_func(hwprof_dynopt_t *d, size_t f, bool relayout, hwprof_phase_summary_t *sum,
                                 unsigned *flipped) {
  const uint32_t first = d->func_first[f], np = d->func_np[f];
  if (np == 0) return kHwprofOk;
  for (uint32_t i = first; i < first + np; i++) {
    d->counter[2 * i] = counter_read(d, d->pair[i].taken);
    d->counter[2 * i + 1] = counter_read(d, d->pair[i].fall);
  }
  hwprof_phase_summary_t s;
  hwprof_result_t r = evaluate(d, f, &s);
  if (r != kHwprofOk) return r;
  d->func_max[f] = 0;
  for (uint32_t i = 2 * first; i < 2 * (first + np); i++) {
    d->total[i] += d->out[i].profile;
    if (d->out[i].profile > d->func_max[f]) d->func_max[f] = d->out[i].profile;
    if (d->out[i].fts) d->func_fts[f] = true;
  }
  sum->crossed += s.crossed;
  sum->fts += s.fts;
  unsigned flips = 0;
  if (relayout && !s.skip) {
    if (d->rl) (void)layout_changes(d, f);
    for (uint32_t i = first; i < first + np; i++) {
      const uint64_t t = d->out[2 * i].profile, fl = d->out[2 * i + 1].profile;
      const bool th = d->pair[i].taken_hot;
      /* hysteresis: an edge takes over only when it is a quarter more frequent than the current hot
         one, so that a branch going both ways about equally does not flip at every crossing; with
         re-layout, a forward branch's H_i is what the layout makes fall through (its own, stronger
         hysteresis: what an inverted branch's stub costs), so that a cold edge of the layout that
         turns hot interrupts */
      bool taken_hot = th ? !(fl > t + t / 4) : t > fl + fl / 4;
      if (d->rl && !d->pair[i].backward && !d->func_fixed[f]) taken_hot = d->pair[i].want_taken;
      flips += taken_hot != th;
      d->pair[i].taken_hot = taken_hot;
    }
  }
  *flipped += flips;
  /* crossings that changed nothing raise the threshold; a fold only (the end of the run, a 5B period)
     decided nothing */
  if (relayout && s.crossed && flips == 0) d->func_fts[f] = true;
  set_threshold(d, f);
  return kHwprofOk;
}

/* The chain block b is in (union-find over parent, with path halving). */
static uint32_t chain_of(uint32_t *parent, uint32_t b) {
  while (parent[b] != b) {
    parent[b] = parent[parent[b]];
    b = parent[b];
  }
  return b;
}

/* The weight of a counter in the layout: its value now, or with static_at its value at the end of
 * the whole earlier run whose counters were copied there. */
static uint64_t weight_of(const hwprof_dynopt_t *d, uint32_t addr) {
  return counter_read(d, d->static_at ? addr - d->meta.hdr->counters_at + d->static_at : addr);
}

/* Branch k of f: its two edges' weights and whether the layout should make its taken edge fall
 * through (the pair's decision, or with static_at the whole run's: a forward branch taken
 * invert_ratio times as often as not). */
static bool branch_weights(const hwprof_dynopt_t *d, size_t f, uint32_t k, uint64_t *wt, uint64_t *wf) {
  if (!d->static_at) {
    const uint32_t i = d->func_first[f] + k;
    *wt = d->total[2 * i];
    *wf = d->total[2 * i + 1];
    return d->pair[i].want_taken;
  }
  const hwprof_meta_func_t *fn = &d->meta.fn[f];
  const hwprof_meta_branch_t *br = &d->meta.branch[d->func_br[f] + k];
  const hwprof_meta_edge_t *tk = &d->meta.edge[fn->first_edge + br->taken];
  const hwprof_meta_edge_t *nt = &d->meta.edge[fn->first_edge + br->not_taken];
  *wt = weight_of(d, hwprof_meta_counter_addr(&d->meta, (uint32_t)f, tk->counter));
  *wf = weight_of(d, hwprof_meta_counter_addr(&d->meta, (uint32_t)f, nt->counter));
  return tk->dst > tk->src && *wt > 0 && *wt >= (uint64_t)d->p.invert_ratio * *wf;
}

static void note_calls(hwprof_dynopt_t *d, uint32_t f);

/* Lays f out again (paragraph 17), Pettis and Hansen's way: every edge that could fall through is a
 * candidate (a fall edge, a branch's not-taken edge, and its taken edge when the branch is to be
 * laid out taken-first), heaviest first; one joins two chains when its source ends a chain and its
 * destination starts another. Weights are the run's counts so far: a fall edge's counter (plain,
 * never armed), a branch edge's total; the edge a branch should fall through now weighs the
 * branch's every execution, so that the period's decision wins over the history. The chains are
 * then laid out from the one holding the entry, the others by their first block's address. A
 * function with a switch table keeps its layout. Returns whether the copy was placed. */
static bool relayout(hwprof_dynopt_t *d, size_t f) {
  const hwprof_meta_func_t *fn = &d->meta.fn[f];
  const uint32_t n = fn->nblocks, none = 0x7fffffffu; /* not a block index */
  if (n == 0 || n > HWPROF_DYNOPT_MAX_BLOCKS) return false;
  uint32_t bytes = 0;
  for (uint32_t b = 0; b < n; b++) {
    const hwprof_meta_block_t *x = &d->meta.blk[fn->first_block + b];
    if (x->new_end == 0) return false;
    d->rl_blk[b] = (hwprof_rl_block_t){x->new_start, x->new_end};
    d->rl_succ[b] = none; /* the next block in its chain */
    d->rl_chain[b] = b;     /* union-find of the chains: b's parent */
    d->rl_flags[b] = 0;     /* while the chains are built: kHasPred */
    bytes += x->new_end - x->new_start;
  }
  /* a branch reaches 4 KiB: in a much larger function some would not reach their blocks (Embench's
     nsichneu), and finding that out costs the whole attempt */
  if (bytes > HWPROF_DYNOPT_MAX_LAYOUT_BYTES) return false;
  size_t nc = 0;
  for (uint32_t e = 0; e < fn->nedges; e++) {
    const hwprof_meta_edge_t *x = &d->meta.edge[fn->first_edge + e];
    /* an indirect jump's targets (a switch table) hold the program's addresses: every dispatch would
       pay the patch's jump into the copy */
    if (x->kind == 4u) return false;
    if (x->kind == 3u && x->src < n && x->dst < n && nc < 2u * HWPROF_DYNOPT_MAX_BLOCKS) /* a fall edge */
      d->rl_cand[nc++] = (hwprof_dynopt_cand_t){x->src, x->dst,
                                                x->counter == HWPROF_META_NONE
                                                    ? 0
                                                    : weight_of(d, hwprof_meta_counter_addr(&d->meta, f, x->counter))};
  }
  for (uint32_t k = 0; k < d->func_np[f] && nc + 2u <= 2u * HWPROF_DYNOPT_MAX_BLOCKS; k++) {
    const hwprof_meta_branch_t *br = &d->meta.branch[d->func_br[f] + k];
    const hwprof_meta_edge_t *tk = &d->meta.edge[fn->first_edge + br->taken];
    const hwprof_meta_edge_t *nt = &d->meta.edge[fn->first_edge + br->not_taken];
    if (tk->src >= n || tk->dst >= n || nt->dst >= n) continue;
    uint64_t wt, wf;
    const bool th = branch_weights(d, f, k, &wt, &wf);
    d->rl_cand[nc++] = (hwprof_dynopt_cand_t){tk->src, nt->dst, th ? wf : wt + wf};
    if (th) d->rl_cand[nc++] = (hwprof_dynopt_cand_t){tk->src, tk->dst, wt + wf};
  }
  /* heaviest first (Shell sort: in place, no recursion) */
  for (size_t gap = nc / 2u; gap > 0; gap /= 2u)
    for (size_t a = gap; a < nc; a++)
      for (size_t b = a; b >= gap && d->rl_cand[b - gap].w < d->rl_cand[b].w; b -= gap) {
        const hwprof_dynopt_cand_t t = d->rl_cand[b];
        d->rl_cand[b] = d->rl_cand[b - gap];
        d->rl_cand[b - gap] = t;
      }
  /* chains: a block with a successor ends no chain; one with a predecessor (kHasPred) starts none */
  for (size_t c = 0; c < nc; c++) {
    const uint32_t a = d->rl_cand[c].src, b = d->rl_cand[c].dst;
    if (d->rl_succ[a] != none || (d->rl_flags[b] & kHasPred)) continue;
    const uint32_t ra = chain_of(d->rl_chain, a), rb = chain_of(d->rl_chain, b);
    if (ra == rb) continue; /* a cycle */
    d->rl_succ[a] = b;
    d->rl_flags[b] |= kHasPred;
    d->rl_chain[rb] = ra;
  }
  /* a branch is inverted where its taken block follows it */
  for (uint32_t k = 0; k < d->func_np[f]; k++) {
    const hwprof_meta_branch_t *br = &d->meta.branch[d->func_br[f] + k];
    const hwprof_meta_edge_t *tk = &d->meta.edge[fn->first_edge + br->taken];
    uint64_t wt, wf;
    if (tk->src < n && branch_weights(d, f, k, &wt, &wf) && d->rl_succ[tk->src] == tk->dst)
      d->rl_flags[tk->src] |= HWPROF_RL_INVERT;
  }
  /* the order: the entry's chain, then the others by their first block; rl_chain marks what is out */
  uint32_t placed = 0, entry_head = 0;
  const uint32_t entry_chain = chain_of(d->rl_chain, 0);
  for (uint32_t h = 0; h < n; h++)
    if (!(d->rl_flags[h] & kHasPred) && chain_of(d->rl_chain, h) == entry_chain) entry_head = h;
  const uint32_t kOut = 0xffffffffu;
  for (uint32_t s = 0, first = 1; s < n || first; first = 0) {
    uint32_t h = first ? entry_head : s++;
    if (!first && (d->rl_chain[h] == kOut || (d->rl_flags[h] & kHasPred))) continue;
    for (uint32_t b = h; b < n && d->rl_chain[b] != kOut; b = d->rl_succ[b]) {
      d->rl_order[placed++] = b;
      d->rl_chain[b] = kOut;
    }
  }
  for (uint32_t b = 0; b < n; b++) d->rl_flags[b] &= HWPROF_RL_INVERT;
  /* with 5B, each forward branch counts as a 5B pair, h the edge it should fall through; one whose old
     block may still run keeps its copy's way */
  for (uint32_t k = 0; k < d->func_np[f] && d->p.scheme == kHwprofScheme5B && !d->static_at && !d->finished; k++) {
    const uint32_t i = d->func_first[f] + k;
    const hwprof_dynopt_pair_t *q = &d->pair[i];
    const hwprof_meta_branch_t *br = &d->meta.branch[d->func_br[f] + k];
    const hwprof_meta_edge_t *hx = &d->meta.edge[fn->first_edge + (q->want_taken ? br->taken : br->not_taken)];
    const uint64_t h = d->out[2 * i + !q->want_taken].profile, c = d->out[2 * i + q->want_taken].profile;
    if (q->backward || q->src >= n) continue;
    /* a pinned pair keeps its way; a new one needs a clear hot edge, and h's block right behind its
       branch (else h, not c, would pay a jump) */
    if (pinned(d, i) ? !q->b5 : h < (uint64_t)d->p.b5_ratio * c || d->rl_succ[q->src] != hx->dst) continue;
    d->rl_flags[q->src] |= (uint8_t)(HWPROF_RL_5B | (q->want_taken ? HWPROF_RL_5B_H_TAKEN : 0u));
  }
  if (placed != n) return false; /* cannot happen: every block is in one chain */
  /* the calls to re-aim are looked for where the program runs: the armed functions (their calls to f's
     entry, or to the word after its prof.init) and the cache */
  size_t ncall = 0;
  const uint32_t entry_at = d->meta.blk[fn->first_block].new_start;
  for (size_t g = 0; g < nfuncs(d); g++) {
    const hwprof_meta_func_t *gn = &d->meta.fn[g];
    if ((!d->func_armed[g] && !(d->static_at && hwprof_meta_func_fits(&d->meta, (uint32_t)g))) || gn->nblocks == 0) continue;
    const hwprof_meta_block_t *b0 = &d->meta.blk[gn->first_block], *b1 = b0 + gn->nblocks - 1u;
    if (b1->new_end <= b0->new_start) continue;
    if (d->func_armed[g] && !d->func_noted[g]) note_calls(d, (uint32_t)g);
    if (!d->func_armed[g] || d->func_calls[g][1] == UINT32_MAX) { /* its whole code */
      d->rl_callers[ncall++] = (hwprof_rl_block_t){b0->new_start, b1->new_end};
      continue;
    }
    for (uint32_t k = d->func_calls[g][0]; k < d->func_calls[g][0] + d->func_calls[g][1]; k++) { /* its calls to f */
      const uint32_t to = hwprof_cc_origin(d->rl->cc, d->call_to[k]), a = d->call_site[k];
      if (to == entry_at || to == entry_at + 4u)
        d->rl_callers[ncall++] = (hwprof_rl_block_t){a, b1->new_end - a < 12u ? b1->new_end : a + 12u};
    }
  }
  /* ... and in the cache: the earlier copies' calls to f, noted when each was placed (or all of the
     cache if they did not fit), and the new copy itself (from where it starts up to its end) */
  hwprof_cc_t *cc = d->rl->cc;
  const uint32_t copy_at = cc->next;
  if (d->ncache_calls == UINT32_MAX) {
    d->rl_callers[ncall++] = (hwprof_rl_block_t){cc->c.lo, cc->c.hi};
  } else {
    for (uint32_t k = 0; k < d->ncache_calls; k++) {
      const uint32_t to = hwprof_cc_origin(cc, d->cache_call_to[k]), a = d->cache_call[k];
      if (to == entry_at || to == entry_at + 4u) d->rl_callers[ncall++] = (hwprof_rl_block_t){a, a + 12u};
    }
    d->rl_callers[ncall++] = (hwprof_rl_block_t){copy_at, cc->c.hi};
  }
  uint32_t entry;
  const hwprof_cc_status_t st = hwprof_rl_place(d->rl, d->rl_blk, n, d->rl_order, d->rl_flags, d->rl_callers,
                                                  ncall, d->resume_pc, &entry);
  if (st != kHwprofCcPlaced) {
    d->layout_refused++;
    d->layout_last_refusal = (uint32_t)st;
    return false;
  }
  d->layouts++;
  for (uint32_t a = copy_at; a < cc->next && d->ncache_calls != UINT32_MAX; a += 4u) { /* the new copy's calls */
    if (!hwprof_rl_may_call(*hwprof_cc_word(cc, a))) continue;
    const uint32_t to = hwprof_rl_call_target(cc, a, cc->next);
    if (to == 0) continue;
    if (d->ncache_calls == HWPROF_DYNOPT_MAX_CALLS) {
      d->ncache_calls = UINT32_MAX; /* no room: the whole cache is looked at from now on */
      break;
    }
    d->cache_call[d->ncache_calls] = a;
    d->cache_call_to[d->ncache_calls++] = to;
  }
  return true;
}

/* Whether f's layout lags its decisions, or counts a 5B pair whose cold edge no longer is: it ran
 * more than a quarter as often as h in the period (half b5_ratio, the hysteresis of the choice), and
 * c's stub costs on every execution (a 5B period end finds it: c need not cross to be that frequent).
 * Not a pinned one: it keeps its way. */
static bool layout_pending(const hwprof_dynopt_t *d, size_t f) {
  for (uint32_t i = d->func_first[f]; i < d->func_first[f] + d->func_np[f]; i++) {
    const hwprof_dynopt_pair_t *q = &d->pair[i];
    if (q->want_taken != q->laid_taken) return true;
    if (!q->b5 || pinned(d, i)) continue;
    const uint64_t h = d->out[2 * i + !q->laid_taken].profile, c = d->out[2 * i + q->laid_taken].profile;
    if (2u * h < (uint64_t)d->p.b5_ratio * c) return true;
  }
  return false;
}

void hwprof_dynopt_set_relayout(hwprof_dynopt_t *d, hwprof_rl_t *rl) {
  if (d) d->rl = rl;
}

hwprof_result_t hwprof_dynopt_layout_static(hwprof_dynopt_t *d, uint32_t profile_at) {
  if (d == NULL || d->rl == NULL || profile_at == 0 || (profile_at & 3u)) return kHwprofBadArg;
  const hwprof_meta_header_t *h = d->meta.hdr;
  uint64_t any = 0;
  for (uint32_t c = 0; c < h->total_counters && any == 0; c++)
    any |= counter_read(d, profile_at + c * h->cnt_bytes);
  if (any == 0) return kHwprofNoDevice; /* no profile there */
  d->static_at = profile_at;
  for (size_t f = 0; f < nfuncs(d); f++) {
    const hwprof_meta_func_t *fn = &d->meta.fn[f];
    uint64_t ran = 0;
    for (uint32_t c = 0; c < fn->ncounters && fn->base && ran == 0; c++) ran |= weight_of(d, hwprof_meta_counter_addr(&d->meta, (uint32_t)f, c));
    if (ran && !d->func_fixed[f] && hwprof_meta_check_func(&d->meta, (uint32_t)f) == kHwprofOk) (void)relayout(d, f);
  }
  d->static_at = 0;
  d->rl = NULL; /* laid out once: nothing moves afterwards */
  return kHwprofOk;
}

static bool holds(const hwprof_dynopt_t *d, size_t f, uint64_t addr) {
  const hwprof_meta_func_t *fn = &d->meta.fn[f];
  return fn->ncounters && addr >= fn->base && addr < fn->base + (uint64_t)fn->ncounters * d->meta.hdr->cnt_bytes;
}

/* The function whose counter area holds addr, or SIZE_MAX: a binary search of the areas, which the
 * instrumenter lays out in the functions' order (else one look at each). */
static size_t func_of(const hwprof_dynopt_t *d, uint64_t addr) {
  if (d->ncfunc == 0) {
    for (size_t f = 0; f < nfuncs(d); f++)
      if (holds(d, f, addr)) return f;
    return SIZE_MAX;
  }
  uint32_t lo = 0, hi = d->ncfunc; /* the last area starting at or below addr is in [lo, hi) */
  while (hi - lo > 1u) {
    const uint32_t mid = lo + (hi - lo) / 2u;
    if (d->meta.fn[d->cfunc[mid]].base <= addr) lo = mid;
    else hi = mid;
  }
  return holds(d, d->cfunc[lo], addr) ? d->cfunc[lo] : SIZE_MAX;
}

/* Lists the functions to work on: the armed ones the OAB names, or every armed one if it overran or
 * names none (or all is asked); and the functions to arm: the probed ones it names, or, if it
 * overran or names none, every probed one (their probes are read). Empties the OAB. Returns its
 * entries. */
static unsigned mark_funcs(hwprof_dynopt_t *d, bool all) {
  hwprof_edge_oab_entry_t e[16];
  size_t n = 0;
  bool overrun = false;
  if (hwprof_edge_read_oab(&d->hw, e, sizeof e / sizeof e[0], &n, &overrun) != kHwprofOk) overrun = true;
  d->ntodo = d->ntoarm = d->noab = 0;
  if (all || overrun || n == 0) {
    d->ntodo = d->ntoarm = SIZE_MAX;
    return (unsigned)n;
  }
  for (size_t i = 0; i < n; i++) {
    d->oab[d->noab++] = (uint32_t)e[i].addr;
    const size_t f = func_of(d, e[i].addr);
    if (f == SIZE_MAX) continue;
    uint32_t *list = d->func_armed[f] ? d->todo : d->toarm;
    size_t *len = d->func_armed[f] ? &d->ntodo : &d->ntoarm;
    if (!d->func_armed[f] && d->func_probe[f][0] == 0) continue; /* not watched */
    bool listed = false;
    for (size_t k = 0; k < *len && !listed; k++) listed = list[k] == f;
    if (!listed) list[(*len)++] = (uint32_t)f;
  }
  return (unsigned)n;
}

/* With 5B, a copy's stub stopped between its prof.id (the interrupt comes while c's increment
 * overflows): its pair's counters would hold half an execution of c when the period ends, and a
 * reconstruction out of range. The firmware does what the rest of the stub would (the pir's rule:
 * the counter at base + (offset + pid - 1) x size, docs/pir.md) and the program resumes after it.
 * The counters are in memory (flushed and invalidated). */
static void complete_stub(hwprof_dynopt_t *d) {
  d->resume_orig = d->rl ? hwprof_cc_origin(d->rl->cc, d->resume_pc) : d->resume_pc;
  if (d->p.scheme != kHwprofScheme5B || d->rl == NULL || d->resume_orig != 0 ||
      !(hwprof_mmio_read32(&d->hw, HWPROF_PIR_CTRL_ADDR) & 1u))
    return;
  const uint32_t base = hwprof_mmio_read32(&d->hw, HWPROF_PIR_BASE_LO_ADDR);
  const uint32_t offset = hwprof_mmio_read32(&d->hw, HWPROF_PIR_OFFSET_ADDR);
  for (unsigned k = 0; k < 2u; k++) {
    const uint32_t w = *hwprof_cc_word(d->rl->cc, d->resume_pc);
    if (rv32_opcode(w) != RV32_OP_PROF || rv32_funct3(w) != HWPROF_PROF_OP_ID) return;
    const uint32_t pid = w >> 20, addr = base + (offset + pid - 1u) * d->meta.hdr->cnt_bytes;
    if (pid == 0 || func_of(d, addr) == SIZE_MAX) return; /* not a watched counter: left to the program */
    const uint64_t v = counter_read(d, addr);
    counter_write(d, addr, ((rv32_rd(w) & 1u) == HWPROF_IHINT_DEC ? v - 1u : v + 1u) & mask_of(d->cnt_w));
    d->resume_pc += 4u;
    d->stub_completions++;
  }
}

static hwprof_result_t arm_new(hwprof_dynopt_t *d, unsigned *armed);

/* A phase interrupt whose crossings in f are mostly false signals (paragraphs 60-61) changes
 * nothing, and the seed re-initializes counters after an optimization only: the pairs the OAB
 * named (the crossings: it did not overrun) are worked out alone, folded into their totals and
 * re-armed at f's raised threshold; the others keep counting. Returns false, with nothing changed,
 * when it is not such an interrupt (f's whole period is then worked out). Only for a function of
 * many pairs (quick_pairs): the others' longer periods then weigh the history in the next decision,
 * which on phases.c delays the layout of a new phase by some 300,000 instructions. */
static bool fts_quick(hwprof_dynopt_t *d, size_t f, hwprof_phase_summary_t *sum) {
  uint32_t named[16];
  size_t n = 0;
  const uint32_t first = d->func_first[f], np = d->func_np[f];
  for (size_t k = 0; k < d->noab; k++) {
    uint32_t i = first;
    while (i < first + np && d->pair[i].taken != d->oab[k] && d->pair[i].fall != d->oab[k]) i++;
    if (i == first + np) continue; /* not f's, or a counter of f that is no branch edge */
    bool listed = false;
    for (size_t j = 0; j < n && !listed; j++) listed = named[j] == i;
    if (!listed) named[n++] = i;
  }
  if (n == 0) return false;
  hwprof_phase_summary_t s = {0, 0, false};
  for (size_t j = 0; j < n; j++) {
    const uint32_t i = named[j];
    hwprof_phase_edge_t e[2];
    pair_edges(d, i, e);
    d->counter[2 * i] = counter_read(d, d->pair[i].taken);
    d->counter[2 * i + 1] = counter_read(d, d->pair[i].fall);
    hwprof_phase_summary_t one;
    if (hwprof_phase_evaluate_armed(kHwprofScheme5A, e, &d->counter[2 * i], 2, d->cnt_w, d->p.fts_ratio, &d->out[2 * i],
                              &one) != kHwprofOk ||
        one.crossed != 1u)
      return false; /* out of reach, or named without crossing: the whole period decides */
    s.crossed += one.crossed;
    s.fts += one.fts;
  }
  if (2u * s.fts <= s.crossed) return false; /* not mostly false signals: an optimization may follow */
  d->func_fts[f] = true;
  set_threshold(d, f);
  for (size_t j = 0; j < n; j++) {
    const uint32_t i = named[j];
    for (unsigned k = 0; k < 2u; k++) {
      d->total[2 * i + k] += d->out[2 * i + k].profile;
      d->edge[2 * i + k].threshold = d->func_thr[f];
    }
    /* hot at 0, cold at MAX_VALUE - threshold */
    const uint64_t cold = (0u - d->func_thr[f]) & mask_of(d->cnt_w);
    counter_write(d, d->pair[i].taken, d->edge[2 * i].role == kHwprofPhaseHot ? 0 : cold);
    counter_write(d, d->pair[i].fall, d->edge[2 * i + 1].role == kHwprofPhaseHot ? 0 : cold);
  }
  sum->crossed += s.crossed;
  sum->fts += s.fts;
  d->fts_quick++;
  return true;
}

/* The trigger set again and the phase interrupt acknowledged. */
static hwprof_result_t rearm_trigger(hwprof_dynopt_t *d) {
  const hwprof_result_t r = hwprof_edge_arm_trigger(&d->hw, d->p.trigger);
  hwprof_mmio_write32(&d->hw, HWPROF_TOP_IRQ_PENDING_ADDR, 1u << HWPROF_TOP_IRQ_PENDING_PHASE_LSB);
  return r;
}

/* The end of a period for the listed functions: flush, work out, re-arm, arm the functions that
 * started running, the trigger set again. A 5B period end (only_b5) works out every function with
 * 5B pairs and leaves the OAB and a pending phase interrupt to the interrupt. */
static hwprof_result_t end_period(hwprof_dynopt_t *d, uint64_t instret, bool interrupt, bool only_b5) {
  hwprof_result_t r = hwprof_edge_flush(&d->hw, true, d->p.max_polls);
  if (r == kHwprofOk) complete_stub(d);
  unsigned oab = 0;
  if (only_b5) d->ntodo = SIZE_MAX, d->ntoarm = 0;
  else oab = mark_funcs(d, !interrupt);
  hwprof_phase_summary_t s = {0, 0, false};
  unsigned flipped = 0, funcs = 0, laid = 0;
  const size_t n = d->ntodo == SIZE_MAX ? nfuncs(d) : d->ntodo;
  for (size_t k = 0; k < n && r == kHwprofOk; k++) {
    const size_t f = d->ntodo == SIZE_MAX ? k : d->todo[k];
    if (!d->func_armed[f] || (only_b5 && d->func_b5[f] == 0)) continue;
    if (interrupt && d->ntodo != SIZE_MAX && d->func_b5[f] == 0 && d->func_np[f] >= d->p.quick_pairs &&
        fts_quick(d, f, &s)) {
      funcs++;
      continue;
    }
    r = work_func(d, f, !only_b5, &s, &flipped); /* a 5B period end only folds and re-arms */
    if (r == kHwprofOk && d->rl && !d->func_fixed[f] && layout_pending(d, f)) {
      if (relayout(d, f)) {
        d->b5_pairs -= d->func_b5[f];
        d->func_b5[f] = 0;
        for (uint32_t i = d->func_first[f]; i < d->func_first[f] + d->func_np[f]; i++) {
          hwprof_dynopt_pair_t *q = &d->pair[i];
          q->laid_taken = q->want_taken;
          q->b5 = q->src < d->meta.fn[f].nblocks && (d->rl_flags[q->src] & HWPROF_RL_5B_DONE);
          d->func_b5[f] += q->b5;
        }
        d->b5_pairs += d->func_b5[f];
        laid++;
      } else { /* it keeps its layout: 5A goes back to its own hot set for it (a 5B pair stays one) */
        d->func_fixed[f] = true;
      }
    }
    if (r == kHwprofOk) r = arm_func(d, f); /* as the code now counts */
    funcs++;
  }
  unsigned armed = 0;
  if (r == kHwprofOk) r = arm_new(d, &armed);
  if (r != kHwprofOk) {
    d->errors++;
    return r;
  }
  if (armed) {
    d->arm_events++;
    log_event(d, instret, kHwprofDynoptArm, NULL, 0, oab, armed, 0);
  }
  if (only_b5) return kHwprofOk;
  if (interrupt && funcs == 0 && armed) /* only functions that started running: no period ended */
    return rearm_trigger(d);
  hwprof_dynopt_event_kind_t kind = kHwprofDynoptPhase;
  if (!interrupt) {
    kind = kHwprofDynoptPeriod;
    d->periods++;
  } else if (flipped == 0 && s.fts > 0) {
    kind = kHwprofDynoptFts;
    d->fts_skips++;
  } else {
    d->transitions++;
  }
  log_event(d, instret, kind, &s, flipped, oab, funcs, laid);
  return rearm_trigger(d);
}

static hwprof_result_t arm_one(hwprof_dynopt_t *d, uint32_t f);

hwprof_result_t hwprof_dynopt_init(hwprof_dynopt_t *d, const hwprof_t *hw, const hwprof_meta_t *m,
                                   const hwprof_dynopt_params_t *p, uint64_t instret) {
  if (d == NULL || hw == NULL || m == NULL || m->hdr == NULL || p == NULL || p->trigger == 0 ||
      p->trigger > HWPROF_PIR_TRIGGER_VALUE_MASK || p->min_threshold == 0 || p->ratio_log2 > 32 || p->max_polls == 0 ||
      p->invert_ratio < 2 || (p->scheme != kHwprofScheme5A && p->scheme != kHwprofScheme5B) || p->b5_ratio == 0)
    return kHwprofBadArg;
  hwprof_config_t cfg;
  hwprof_result_t r = hwprof_read_config(hw, &cfg);
  if (r != kHwprofOk) return r;
  if (cfg.cnt_w != 8u * m->hdr->cnt_bytes || p->min_threshold > hwprof_phase_max_count(cfg.cnt_w)) return kHwprofBadArg;
  d->hw = *hw;
  d->meta = *m;
  d->p = *p;
  d->cnt_w = cfg.cnt_w;
  d->npairs = d->nlog = 0;
  d->transitions = d->fts_skips = d->periods = d->arm_events = d->armed_funcs = d->errors = d->dropped_pairs = 0;
  d->bad_funcs = d->fts_quick = 0;
  d->ncall_sites = d->ncache_calls = 0;
  d->finished = false;
  d->b5_pairs_end = 0;
  d->noab = 0;
  d->rl = NULL;
  d->static_at = 0;
  d->resume_pc = 0;
  d->layouts = d->layout_refused = d->layout_last_refusal = 0;
  d->b5_pairs = d->b5_crossed = d->pinned = d->stub_completions = 0;
  d->resume_orig = 0;
  /* the probes are written into the counters: none may be in the cache */
  if ((r = hwprof_edge_flush(&d->hw, true, d->p.max_polls)) != kHwprofOk) return r;
  d->ncfunc = 0;
  bool in_order = true;
  for (uint32_t f = 0; f < nfuncs(d); f++) { /* field by field: a loop over all becomes a byte-wise memset */
    const hwprof_meta_func_t *fn = &m->fn[f];
    d->func_max[f] = d->func_thr[f] = 0;
    d->func_first[f] = 0;
    d->func_fts[f] = false;
    d->func_fixed[f] = false;
    d->func_b5[f] = 0;
    d->func_armed[f] = false;
    d->func_probe[f][0] = d->func_probe[f][1] = 0;
    /* a record that does not fit is never used (its records are checked in full when it is armed) */
    const bool fits = hwprof_meta_func_fits(m, f);
    d->func_np[f] = fits ? fn->nbranches : 0;
    d->func_br[f] = fn->first_branch;
    if (fits && fn->ncounters) {
      in_order = in_order && (d->ncfunc == 0 || fn->base > m->fn[d->cfunc[d->ncfunc - 1]].base);
      d->cfunc[d->ncfunc++] = (uint16_t)f;
    }
    if (d->func_np[f] == 0) continue;
    /* its probe: the counters of the edges out of its entry block (every run moves one; a block's
       edges are listed together), preset so that the first run overflows; a function that ran
       already (main, what start-up called) is armed now */
    unsigned k = 0;
    bool ran = false;
    for (uint32_t e = 0; e < fn->nedges && k < 2; e++) {
      const hwprof_meta_edge_t *x = &m->edge[fn->first_edge + e];
      if (x->src == 0u && x->counter != HWPROF_META_NONE && x->counter < fn->ncounters) {
        d->func_probe[f][k] = hwprof_meta_counter_addr(m, f, x->counter);
        ran = ran || counter_read(d, d->func_probe[f][k]) != 0;
        k++;
      } else if (k && x->src != 0u) {
        break;
      }
    }
    if (ran) {
      d->func_probe[f][0] = d->func_probe[f][1] = 0; /* its counters hold plain counts */
      if ((r = arm_one(d, f)) != kHwprofOk) return r;
      continue;
    }
    for (unsigned j = 0; j < k; j++) counter_write(d, d->func_probe[f][j], probe_preset(d));
  }
  if (!in_order) d->ncfunc = 0;
  hwprof_edge_oab_entry_t none[1];
  size_t n;
  bool overrun;
  if ((r = hwprof_edge_read_oab(&d->hw, none, 0, &n, &overrun)) != kHwprofOk) return r; /* empties it */
  log_event(d, instret, kHwprofDynoptStart, NULL, 0, 0, 0, 0);
  return hwprof_edge_arm_trigger(&d->hw, d->p.trigger);
}

/* Notes the direct calls in f's code and their targets: a layout re-aims those that go to the
 * function it lays out (hwprof_rl_place), so that it looks at them only and not at every word of
 * every armed function. */
static void note_calls(hwprof_dynopt_t *d, uint32_t f) {
  const hwprof_meta_func_t *fn = &d->meta.fn[f];
  d->func_noted[f] = true;
  d->func_calls[f][0] = d->ncall_sites;
  d->func_calls[f][1] = 0;
  if (fn->nblocks == 0) return;
  const hwprof_meta_block_t *b0 = &d->meta.blk[fn->first_block], *b1 = b0 + fn->nblocks - 1u;
  for (uint32_t a = b0->new_start; a + 4u <= b1->new_end; a += 4u) {
    if (!hwprof_rl_may_call(*(const volatile uint32_t *)(uintptr_t)a)) continue;
    const uint32_t to = hwprof_rl_call_target(d->rl->cc, a, b1->new_end);
    if (to == 0) continue;
    if (d->ncall_sites == HWPROF_DYNOPT_MAX_CALLS) { /* no room: its whole code is looked at */
      d->ncall_sites = d->func_calls[f][0];
      d->func_calls[f][1] = UINT32_MAX;
      return;
    }
    d->call_site[d->ncall_sites] = a;
    d->call_to[d->ncall_sites++] = to;
    d->func_calls[f][1]++;
  }
}

/* Arms function f, which started running (the cache flushed and invalidated): its records checked,
 * its probe back to plain counts, its pairs built, their plain counts since the start its first
 * totals. */
static hwprof_result_t arm_one(hwprof_dynopt_t *d, uint32_t f) {
  unprobe(d, f);
  if (hwprof_meta_check_func(&d->meta, f) != kHwprofOk) { /* never watched: its counters count plainly */
    d->bad_funcs++;
    d->func_np[f] = 0;
    return kHwprofOk;
  }
  if (d->npairs + d->func_np[f] > HWPROF_DYNOPT_MAX_PAIRS) { /* no room: f stays unwatched */
    d->dropped_pairs += d->func_np[f];
    d->func_np[f] = 0;
    return kHwprofOk;
  }
  const uint32_t first = d->func_first[f] = (uint32_t)d->npairs;
  const hwprof_meta_func_t *fn = &d->meta.fn[f];
  for (uint32_t k = 0; k < d->func_np[f]; k++) {
    const hwprof_meta_branch_t *br = &d->meta.branch[d->func_br[f] + k];
    const hwprof_meta_edge_t *tk = &d->meta.edge[fn->first_edge + br->taken];
    const hwprof_meta_edge_t *nt = &d->meta.edge[fn->first_edge + br->not_taken];
    hwprof_dynopt_pair_t *q = &d->pair[d->npairs++];
    q->taken = hwprof_meta_counter_addr(&d->meta, f, tk->counter);
    q->fall = hwprof_meta_counter_addr(&d->meta, f, nt->counter);
    q->func = (uint16_t)f;
    q->src = (uint16_t)tk->src;
    q->block_new = tk->src < fn->nblocks ? d->meta.blk[fn->first_block + tk->src].new_start : 0;
    q->branch_new = nt->term_new;
    q->b5 = false;
    q->taken_hot = q->want_taken = q->laid_taken = false;
    q->backward = tk->dst <= tk->src; /* blocks are by address */
  }
  for (uint32_t i = first; i < first + d->func_np[f]; i++) {
    d->total[2 * i] = counter_read(d, d->pair[i].taken);
    d->total[2 * i + 1] = counter_read(d, d->pair[i].fall);
  }
  d->func_noted[f] = false; /* its call sites: at the first layout that looks for calls */
  set_threshold(d, f);
  hwprof_result_t r = arm_func(d, f);
  if (r != kHwprofOk) return r;
  d->func_armed[f] = true;
  d->armed_funcs++;
  return kHwprofOk;
}

/* Arms the functions mark_funcs listed, or every probed one whose probe moved. Returns how many. */
static hwprof_result_t arm_new(hwprof_dynopt_t *d, unsigned *armed) {
  *armed = 0;
  const bool all = d->ntoarm == SIZE_MAX;
  const size_t n = all ? nfuncs(d) : d->ntoarm;
  for (size_t k = 0; k < n; k++) {
    const uint32_t f = all ? (uint32_t)k : d->toarm[k];
    if (d->func_armed[f] || d->func_probe[f][0] == 0 || (all && !probe_moved(d, f))) continue;
    const hwprof_result_t r = arm_one(d, f);
    if (r != kHwprofOk) return r;
    *armed += d->func_armed[f];
  }
  return kHwprofOk;
}

hwprof_result_t hwprof_dynopt_on_phase(hwprof_dynopt_t *d, uint64_t instret) {
  return d ? end_period(d, instret, true, false) : kHwprofBadArg;
}

hwprof_result_t hwprof_dynopt_on_period(hwprof_dynopt_t *d, uint64_t instret) {
  return d ? end_period(d, instret, false, false) : kHwprofBadArg;
}

hwprof_result_t hwprof_dynopt_on_5b_period(hwprof_dynopt_t *d, uint64_t instret) {
  if (d == NULL) return kHwprofBadArg;
  return d->b5_pairs ? end_period(d, instret, false, true) : kHwprofOk;
}

hwprof_result_t hwprof_dynopt_finish(hwprof_dynopt_t *d, uint64_t instret) {
  if (d == NULL) return kHwprofBadArg;
  hwprof_result_t r = hwprof_edge_flush(&d->hw, true, d->p.max_polls);
  if (r != kHwprofOk) return r;
  const unsigned oab = mark_funcs(d, true);
  hwprof_phase_summary_t s = {0, 0, false};
  unsigned flipped = 0;
  for (size_t f = 0; f < nfuncs(d); f++) /* the others hold plain counts: already the run's */
    if (d->func_armed[f] && (r = work_func(d, f, false, &s, &flipped)) != kHwprofOk) return r;
  hwprof_mmio_write32(&d->hw, HWPROF_PIR_TRIGGER_ADDR, 0); /* disarmed */
  hwprof_mmio_write32(&d->hw, HWPROF_TOP_IRQ_PENDING_ADDR, 1u << HWPROF_TOP_IRQ_PENDING_PHASE_LSB);
  const uint64_t mask = mask_of(d->cnt_w);
  unsigned funcs = 0;
  for (size_t f = 0; f < nfuncs(d); f++) {
    if (d->func_probe[f][0]) unprobe(d, (uint32_t)f); /* never armed: its probe back to a plain count */
    if (!d->func_armed[f]) continue;
    funcs++;
    for (uint32_t i = d->func_first[f]; i < d->func_first[f] + d->func_np[f]; i++) {
      counter_write(d, d->pair[i].taken, d->total[2 * i] & mask);
      counter_write(d, d->pair[i].fall, d->total[2 * i + 1] & mask);
    }
  }
  /* what runs after this counts plainly: a copy with 5B pairs would count their differences into the
     plain profile, so such a function is laid out once more without them (its layout kept) */
  d->finished = true;
  d->b5_pairs_end = d->b5_pairs;
  unsigned laid = 0;
  for (size_t f = 0; f < nfuncs(d) && d->rl; f++) {
    if (d->func_b5[f] == 0) continue;
    if (!relayout(d, f)) return kHwprofBadState; /* it was laid out before: the same copy fits again */
    d->b5_pairs -= d->func_b5[f];
    d->func_b5[f] = 0;
    laid++;
  }
  log_event(d, instret, kHwprofDynoptFinish, &s, 0, oab, funcs, laid);
  return kHwprofOk;
}
