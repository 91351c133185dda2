/* Reading back and checking edge profiles; see edge_check.h. */
#include "check/edge_check.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof_edge.h"

int edge_check_init(edge_check_t *c, const char *map_path, unsigned cnt_w, char *err, size_t errlen) {
  memset(c, 0, sizeof *c);
  if (pm_read(&c->map, map_path, err, errlen)) return -1;
  if (8u * c->map.cnt_bytes != cnt_w) {
    snprintf(err, errlen, "%s: the program's counters are %u bits wide, the hardware's %u (instrument it with "
             "hwprof-instr --counter-bytes=%u)", map_path, 8u * c->map.cnt_bytes, cnt_w, cnt_w / 8u);
    pm_free(&c->map);
    return -1;
  }
  if ((c->truth = pm_truth_new(&c->map)) == NULL || prof_cov_init_map(&c->cov, &c->map)) {
    snprintf(err, errlen, "out of memory");
    edge_check_free(c);
    return -1;
  }
  return 0;
}

void edge_check_set_cache(edge_check_t *c, uint32_t lo, uint32_t hi, const uint8_t *ram, uint32_t ram_base,
                          uint32_t ram_size) {
  c->cc = (cc_origin_t){.lo = lo, .hi = hi, .ram = ram, .ram_base = ram_base, .ram_size = ram_size};
}

/* The instruction before is counted now that the program's next one is known: a branch went the
 * way its original would have taken to get there (its copy may be inverted), unless neither was in
 * the cache and nothing was skipped between them, when the event's own outcome is exact. */
void edge_check_event_cached(edge_check_t *c, const hwprof_retire_ev_t *ev) {
  const uint32_t from = cc_origin_of(&c->cc, ev->pc);
  if (from == 0) return;
  prof_cov_count(&c->cov, from, ev->kind == HWPROF_KIND_BRANCH, ev->kind == HWPROF_KIND_PROF);
  if (c->pending) {
    const bool direct = !c->p_cached && from == ev->pc && c->p_next == ev->pc;
    pm_truth_feed(c->truth, c->p_from, from, direct ? c->p_taken : from != c->p_from + 4u, c->p_ret);
  }
  c->pending = true;
  c->p_cached = from != ev->pc;
  c->p_from = from;
  c->p_pc = ev->pc;
  c->p_next = ev->next_pc;
  c->p_taken = ev->taken;
  c->p_ret = ev->is_ret;
}

int edge_check_flush(const hwprof_bus_t *bus, void *ctx) {
  const hwprof_t hw = {.base = 0, .bus = bus, .bus_ctx = ctx};
  if (hwprof_edge_flush(&hw, false, 100000) != kHwprofOk) return -1;
  return hwprof_pir_link_check(&hw) == kHwprofOk ? 0 : -2;
}

static int write_file(const char *path, const pm_map_t *m, int64_t *const *counts, FILE *report) {
  FILE *f = fopen(path, "w");
  if (f == NULL || pm_write_profile(f, m, counts) || fclose(f)) {
    fprintf(report, "edge check: error: cannot write '%s'\n", path);
    return -1;
  }
  return 0;
}

/* Compares function i's profile from the hardware with the exact one edge by edge: *diff counts
 * the differences, the run's first five are printed. */
static void compare_fn(edge_check_t *c, unsigned i, int64_t *hw, int64_t *truth, uint64_t mod_mask, long *diff,
                       unsigned *edges, uint64_t *events, FILE *report) {
  const pm_func_t *f = &c->map.fn[i];
  for (unsigned e = 0; e < f->nedge; e++) {
    const pm_edge_t *x = &f->edge[e];
    if (hwprof_cfg_is_virtual(x->kind)) continue;
    (*edges)++;
    truth[e] = pm_truth_count(c->truth, i, e);
    *events += (uint64_t)truth[e];
    if ((((uint64_t)truth[e] ^ (uint64_t)hw[e]) & mod_mask) != 0 && (*diff)++ < 5)
      fprintf(report, "edge check: %s: %s edge 0x%08" PRIx32 " -> %s%08" PRIx32 ": hardware %" PRId64 ", exact %" PRId64 "\n",
              f->name, hwprof_cfg_kind_names[x->kind], f->blk[x->src].start, x->dst == HWPROF_CFG_EXIT ? "exit " : "0x",
              x->dst == HWPROF_CFG_EXIT ? 0 : f->blk[x->dst].start, hw[e], truth[e]);
  }
}

long edge_check_finish(edge_check_t *c, const uint8_t *ram, uint32_t ram_base, uint32_t ram_size,
                       const char *profile_out, const char *truth_out, FILE *report) {
  const pm_map_t *m = &c->map;
  if (c->pending) { /* the last instruction: where it went as it was (the program ended) */
    pm_truth_feed(c->truth, c->p_from, c->p_next, c->p_taken, c->p_ret);
    c->pending = false;
  }
  int64_t **hw = calloc(m->nfn + 1, sizeof *hw), **truth = calloc(m->nfn + 1, sizeof *truth);
  long diff = 0, rc = 0;
  unsigned fns = 0, edges = 0, measured = 0, blocks = 0, skipped = 0, derived = 0;
  uint64_t events = 0;
  /* 8- and 16-bit counters wrap in any real run: the hardware keeps each count modulo 2^CntW, and
   * the profile derived from them is compared with the exact counts modulo the same */
  const unsigned mod_bits = m->cnt_bytes < 4 ? 8u * m->cnt_bytes : 0u;
  const uint64_t mod_mask = mod_bits ? (UINT64_C(1) << mod_bits) - 1u : ~UINT64_C(0);
  if (hw == NULL || truth == NULL) rc = -1;
  for (unsigned i = 0; i < m->nfn && rc == 0; i++) {
    const pm_func_t *f = &m->fn[i];
    if (!f->instrumented) {
      skipped += !f->derived;
      continue;
    }
    fns++;
    uint64_t *ctr = calloc(f->ncounters + 1, sizeof *ctr);
    hw[i] = calloc(f->nedge + 1, sizeof **hw);
    truth[i] = calloc(f->nedge + 1, sizeof **truth);
    if (ctr == NULL || hw[i] == NULL || truth[i] == NULL) {
      free(ctr);
      rc = -1;
      break;
    }
    for (unsigned k = 0; k < f->ncounters; k++) {
      uint64_t a = (uint64_t)f->base + (uint64_t)k * m->cnt_bytes;
      if (a < ram_base || a + m->cnt_bytes > (uint64_t)ram_base + ram_size) {
        fprintf(report, "edge check: error: %s: counter %u at 0x%08" PRIx64 " is outside RAM\n", f->name, k, a);
        rc = -1;
        break;
      }
      for (unsigned b = 0; b < m->cnt_bytes; b++) ctr[k] |= (uint64_t)ram[a - ram_base + b] << (8 * b);
    }
    char why[200];
    if (rc == 0 && (mod_bits ? pm_derive_mod(f, ctr, mod_bits, hw[i], why, sizeof why)
                             : pm_derive(f, ctr, hw[i], why, sizeof why))) {
      fprintf(report, "edge check: error: %s\n", why);
      rc = -1;
    }
    free(ctr);
    if (rc == 0) compare_fn(c, i, hw[i], truth[i], mod_mask, &diff, &edges, &events, report);
    for (unsigned e = 0; e < f->nedge; e++) measured += f->edge[e].counter != PM_NONE && !hwprof_cfg_is_virtual(f->edge[e].kind);
    for (unsigned b = 0; b < f->nblk; b++) blocks += (f->blk[b].counter != PM_NONE) + (f->blk[b].term_counter != PM_NONE);
  }
  /* then the functions profiled through their callers (millicode), from the callers' profiles */
  for (unsigned i = 0; i < m->nfn && rc == 0; i++) {
    const pm_func_t *f = &m->fn[i];
    if (!f->derived) continue;
    fns++;
    derived++;
    hw[i] = calloc(f->nedge + 1, sizeof **hw);
    truth[i] = calloc(f->nedge + 1, sizeof **truth);
    char why[200];
    if (hw[i] == NULL || truth[i] == NULL) {
      rc = -1;
    } else if (pm_derive_entries(m, i, hw, mod_bits, hw[i], why, sizeof why)) {
      fprintf(report, "edge check: error: %s\n", why);
      rc = -1;
    } else {
      compare_fn(c, i, hw[i], truth[i], mod_mask, &diff, &edges, &events, report);
    }
  }
  if (rc == 0) {
    fprintf(report,
            "edge check: %u functions (%u left uninstrumented, %u derived from their callers), %u edges (%u measured, "
            "%u block counters, the rest derived), %" PRIu64 " edge traversals; profile from the hardware vs exact "
            "counts%s: %ld differences\n",
            fns, skipped, derived, edges, measured, blocks, events,
            mod_bits == 8 ? " (modulo 2^8)" : mod_bits == 16 ? " (modulo 2^16)" : "", diff);
    prof_cov_report(&c->cov, "edge check:", 5, report);
    if (c->cc.hi)
      fprintf(report, "edge check: code cache [0x%08" PRIx32 ", 0x%08" PRIx32 "): %" PRIu64
                      " instructions retired from copies, %" PRIu64 " of its own or patches (not the program's)\n",
              c->cc.lo, c->cc.hi, c->cc.copies, c->cc.own);
    if (profile_out && write_file(profile_out, m, hw, report)) rc = -1;
    if (truth_out && write_file(truth_out, m, truth, report)) rc = -1;
  }
  for (unsigned i = 0; i < m->nfn; i++) {
    if (hw) free(hw[i]);
    if (truth) free(truth[i]);
  }
  free(hw);
  free(truth);
  return rc ? -1 : diff;
}

void edge_check_free(edge_check_t *c) {
  pm_truth_free(c->truth);
  c->truth = NULL;
  prof_cov_free(&c->cov);
  pm_free(&c->map);
}
