/* Phase-transition arithmetic; see phase.h and docs/dynopt.md. */
#include "phase.h"

static bool width_ok(unsigned w) { return w == 8u || w == 16u || w == 32u || w == 64u; }
static uint64_t mask_of(unsigned w) { return w == 64u ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1u; }

uint64_t hwprof_phase_max_count(unsigned cnt_w) {
  return width_ok(cnt_w) ? (UINT64_C(1) << (cnt_w - 1u)) - 1u : 0;
}

/* Is edge i paired the way scheme 5B pairs: a cold and a hot edge pointing at each other? */
static bool pair_5b(const hwprof_phase_edge_t *e, size_t i) {
  const hwprof_phase_edge_t *m = &e[e[i].mate];
  return e[i].role != m->role;
}

static hwprof_result_t check(hwprof_phase_scheme_t scheme, const hwprof_phase_edge_t *e, size_t n, unsigned w) {
  if ((e == NULL && n > 0) || !width_ok(w) || (scheme != kHwprofScheme5A && scheme != kHwprofScheme5B))
    return kHwprofBadArg;
  const uint64_t max = hwprof_phase_max_count(w);
  for (size_t i = 0; i < n; i++) {
    if (e[i].role != kHwprofPhaseHot && e[i].role != kHwprofPhaseCold) return kHwprofBadArg;
    if (e[i].threshold > max || (e[i].role == kHwprofPhaseCold && e[i].threshold == 0)) return kHwprofBadArg;
    if (e[i].mate == HWPROF_PHASE_NONE) continue;
    if (e[i].mate >= n || e[i].mate == i || e[e[i].mate].mate != i) return kHwprofBadArg;
    if (scheme == kHwprofScheme5B && !pair_5b(e, i)) return kHwprofBadArg;
  }
  return kHwprofOk;
}

hwprof_result_t hwprof_phase_presets(hwprof_phase_scheme_t scheme, const hwprof_phase_edge_t *edges, size_t n,
                                     unsigned cnt_w, uint64_t *counters) {
  hwprof_result_t r = check(scheme, edges, n, cnt_w);
  if (r != kHwprofOk) return r;
  if (counters == NULL && n > 0) return kHwprofBadArg;
  /* a cold edge at MAX_VALUE - threshold = -threshold mod 2^CntW; in 5B a paired cold edge's
     threshold is its DIFF_THRESHOLD: the same preset, another meaning */
  for (size_t i = 0; i < n; i++)
    counters[i] = edges[i].role == kHwprofPhaseHot ? 0 : (0u - edges[i].threshold) & mask_of(cnt_w);
  return kHwprofOk;
}

/* 5A for one edge: profile, membership, crossing. */
static hwprof_result_t eval_5a(const hwprof_phase_edge_t *e, uint64_t counter, unsigned w, hwprof_phase_out_t *o) {
  const uint64_t max = hwprof_phase_max_count(w);
  if (e->role == kHwprofPhaseHot) {
    if (counter > max) return kHwprofBadState; /* an H_i edge cannot get there in a period (paragraph 56) */
    o->profile = counter;
    o->hot_next = counter > e->threshold; /* paragraph 58, first clause */
    return kHwprofOk;
  }
  const uint64_t profile = (e->threshold + counter) & mask_of(w); /* paragraph 59, modulo 2^CntW */
  if (profile > max) return kHwprofBadState;
  o->profile = profile;
  o->crossed = o->hot_next = profile >= e->threshold; /* the counter wrapped: paragraph 58, second clause */
  return kHwprofOk;
}

hwprof_result_t hwprof_phase_evaluate(hwprof_phase_scheme_t scheme, const hwprof_phase_edge_t *edges,
                                      const uint64_t *counters, size_t n, unsigned cnt_w, unsigned fts_ratio,
                                      hwprof_phase_out_t *out, hwprof_phase_summary_t *summary) {
  const hwprof_result_t r = check(scheme, edges, n, cnt_w);
  return r != kHwprofOk ? r : hwprof_phase_evaluate_armed(scheme, edges, counters, n, cnt_w, fts_ratio, out, summary);
}

hwprof_result_t hwprof_phase_evaluate_armed(hwprof_phase_scheme_t scheme, const hwprof_phase_edge_t *edges,
                                            const uint64_t *counters, size_t n, unsigned cnt_w, unsigned fts_ratio,
                                            hwprof_phase_out_t *out, hwprof_phase_summary_t *summary) {
  hwprof_result_t r;
  if (!width_ok(cnt_w) || (scheme != kHwprofScheme5A && scheme != kHwprofScheme5B) || (n > 0 && edges == NULL) ||
      (n > 0 && (counters == NULL || out == NULL)) || summary == NULL)
    return kHwprofBadArg;
  const uint64_t mask = mask_of(cnt_w), max = hwprof_phase_max_count(cnt_w);
  summary->crossed = summary->fts = 0;
  summary->skip = false;
  for (size_t i = 0; i < n; i++) { /* field by field: a struct assignment becomes a memset call per edge */
    out[i].profile = 0;
    out[i].hot_next = out[i].crossed = out[i].fts = false;
  }

  /* profiles and memberships */
  for (size_t i = 0; i < n; i++) {
    const hwprof_phase_edge_t *e = &edges[i];
    if (scheme == kHwprofScheme5A || e->mate == HWPROF_PHASE_NONE) {
      if ((r = eval_5a(e, counters[i], cnt_w, &out[i])) != kHwprofOk) return r;
      continue;
    }
    if (e->role != kHwprofPhaseCold) continue; /* a pair is worked out from its cold edge */
    const size_t h = e->mate;
    /* counter(h) collected profile(c); counter(c) = MAX_VALUE - D + profile(c) - profile(h) */
    const uint64_t pc = counters[h], ph = (counters[h] - counters[i] - e->threshold) & mask;
    if (pc > max || ph > max) return kHwprofBadState;
    out[i].profile = pc;
    out[h].profile = ph;
    /* profile(c) - profile(h) >= D now: the last wrap of counter(c) was an overflow not undone */
    out[i].crossed = out[i].hot_next = pc >= ph && pc - ph >= e->threshold;
    out[h].hot_next = !out[i].crossed;
  }

  /* crossings, and which of them are false transition signals (5A only) */
  for (size_t i = 0; i < n; i++) {
    if (!out[i].crossed) continue;
    summary->crossed++;
    const uint32_t m = edges[i].mate;
    if (scheme != kHwprofScheme5A || fts_ratio == 0 || m == HWPROF_PHASE_NONE || edges[m].role != kHwprofPhaseHot)
      continue;
    const uint64_t pc = out[i].profile, pm = out[m].profile;
    out[i].fts = pc <= UINT64_MAX / fts_ratio && pm >= pc * fts_ratio;
    if (out[i].fts) summary->fts++;
  }
  summary->skip = summary->crossed > 0 && 2u * summary->fts > summary->crossed;
  return kHwprofOk;
}
