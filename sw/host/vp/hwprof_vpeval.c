/* hwprof-vpeval: how good a load-value profile is (docs/vpf.md, "Evaluation").
 *
 * Reads the exact profile of a run (hwprof-sim --value-truth) and what a profiler recorded in the
 * same run: the co-processor's (vp-profile.txt, estimated with seed 001's A.6, sw/host/vp/vp_estimate.c)
 * or the simple-sampling baseline's (vp-samples.txt: sampled (PC, value) counts, estimated as each
 * value's share of its PC's samples). It prints the RMS error of the estimated invariance two ways
 * (a pair the profile lacks is estimated at 0):
 *   - seed 001 section 5.3 as written: the (load, value) pairs whose value accounts for at least
 *     200 instances of its load and at least 25% of them, each weighted by the value's instances;
 *   - load-weighted: the pairs of loads retired at least 200 times with values of at least 25%,
 *     each weighted by its load's instances (a variant kept for comparison).
 * A profile file may hold snapshots taken during the run: the last is evaluated, and --curve gives
 * the error of each (seed 001 Figure 7). A line gives the profile's coverage: the share of the
 * truth's loads at load PCs it holds. For a co-processor profile a last line diagnoses glacial
 * values (seed 001 section 5.1.4): loads that hold two or more values, each with at least 16 hits
 * and at most one miss in eight. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vp_estimate.h"
#include "vp_profile.h"

static void usage(FILE *to) {
  fprintf(to,
          "usage: hwprof-vpeval --truth=FILE PROFILE [--pairs=OUT] [--curve=OUT]\n\n"
          "  --truth=FILE   the exact profile of the run (hwprof-sim --value-truth=FILE)\n"
          "  PROFILE        vp-profile.txt (the co-processor's firmware) or vp-samples.txt (simple sampling)\n"
          "  --pairs=OUT    write every pair either error counts (of the last snapshot): pc value\n"
          "                 load_instances value_instances true estimated\n"
          "  --curve=OUT    one line per snapshot of the profile: instructions overhead error found counted\n"
          "                 (the seed's error), then the load-weighted error, found and counted\n"
          "  --min-instances=N, --min-invariance=F   the pairs counted (default 200 and 0.25)\n");
}

typedef struct {
  uint32_t pc;
  uint64_t instances;
  size_t n;
  uint32_t value[16];
  uint64_t count[16];
} truth_load_t;

static int fail(const char *path, unsigned line, const char *what) {
  fprintf(stderr, "hwprof-vpeval: error: %s:%u: %s\n", path, line, what);
  return -1;
}

static int read_truth(const char *path, truth_load_t **out, size_t *n_out) {
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    fprintf(stderr, "hwprof-vpeval: error: %s: %s\n", path, strerror(errno));
    return -1;
  }
  char line[2048];
  unsigned lineno = 0;
  size_t n = 0, cap = 0;
  truth_load_t *t = NULL;
  int rc = 0;
  bool ended = false;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    if (lineno == 1 && strcmp(line, "# hwprof-value-truth 2\n") != 0) {
      rc = fail(path, 1, "not a value-truth file (expected the line '# hwprof-value-truth 2')");
      break;
    }
    if (line[0] == '#' || line[0] == '\n') continue;
    if (strchr(line, '\n') == NULL) {
      rc = fail(path, lineno, "truncated (the last line has no end)");
      break;
    }
    if (ended) {
      rc = fail(path, lineno, "a line after the end record");
      break;
    }
    size_t loads;
    char rest;
    if (sscanf(line, "end %zu %c", &loads, &rest) == 1) {
      if (loads != n) {
        rc = fail(path, lineno, "the end record's count of loads differs from the file's");
        break;
      }
      ended = true;
      continue;
    }
    if (n == cap) {
      cap = cap ? 2 * cap : 256;
      truth_load_t *g = realloc(t, cap * sizeof *t);
      if (g == NULL) {
        rc = fail(path, lineno, "out of memory");
        break;
      }
      t = g;
    }
    truth_load_t *l = &t[n];
    memset(l, 0, sizeof *l);
    char *p = line, *end;
    l->pc = (uint32_t)strtoul(p, &end, 16);
    if (end == p || *end != ' ') {
      rc = fail(path, lineno, "expected '0x<pc> <instances> 0x<value>:<count>...'");
      break;
    }
    p = end;
    l->instances = strtoull(p, &end, 10);
    if (end == p) {
      rc = fail(path, lineno, "expected the load's instances after its PC");
      break;
    }
    p = end;
    while (*p == ' ' && l->n < 16) {
      l->value[l->n] = (uint32_t)strtoul(p + 1, &end, 16);
      if (end == p + 1 || *end != ':') {
        rc = fail(path, lineno, "expected 0x<value>:<count>");
        break;
      }
      p = end + 1;
      l->count[l->n] = strtoull(p, &end, 10);
      if (end == p || l->count[l->n] > l->instances) {
        rc = fail(path, lineno, "a value's count is missing or larger than the load's instances");
        break;
      }
      p = end;
      l->n++;
    }
    if (rc) break;
    if (*p != '\n' && *p != 0) {
      rc = fail(path, lineno, "unexpected text after the values (at most 16)");
      break;
    }
    n++;
  }
  if (rc == 0 && !ended) rc = fail(path, lineno, lineno ? "truncated: no end record" : "empty (not a value-truth file)");
  fclose(f);
  if (rc) {
    free(t);
    return -1;
  }
  *out = t;
  *n_out = n;
  return 0;
}

typedef struct {
  size_t counted, found; /* seed 001's pairs: the value's instances >= min, its share >= min */
  double error;          /* ... weighted by the value's instances */
  size_t lw_counted, lw_found; /* load-weighted: the load's instances >= min, the value's share >= min */
  double lw_error;             /* ... weighted by the load's instances */
  size_t pcs, pcs_held;       /* the truth's load PCs, and those the profile holds */
  uint64_t loads, loads_held; /* ... their instances */
} eval_t;

/* the two weighted RMS errors of one profile against the truth; pairs (if not NULL) gets every pair
 * either counts */
static int evaluate(const truth_load_t *truth, size_t n_truth, const vp_snapshot_t *sn, uint64_t min_instances, double min_inv,
                    FILE *pairs, const char *path, eval_t *out) {
  double sw = 0, se = 0, lw_sw = 0, lw_se = 0;
  memset(out, 0, sizeof *out);
  for (size_t k = 0; k < n_truth; k++) {
    const truth_load_t *t = &truth[k];
    const vp_prof_load_t *p = vp_profile_load(sn, t->pc);
    out->pcs++;
    out->loads += t->instances;
    out->pcs_held += p != NULL;
    out->loads_held += p != NULL ? t->instances : 0;
    if (t->instances < min_instances) continue; /* neither error counts a value of such a load */
    vp_estimate_t est[64];
    vp_estimate_t *e = est;
    if (p && p->n > 64 && (e = malloc(p->n * sizeof *e)) == NULL) return -1;
    vp_load_t l = {t->pc, p ? p->total : 0, p ? p->n : 0, p ? p->v : NULL};
    if (p && vp_estimate(&l, e) != 0) {
      fprintf(stderr, "hwprof-vpeval: error: %s: load 0x%08" PRIx32 ": hits and misses exceed its total\n", path, t->pc);
      if (e != est) free(e);
      return -1;
    }
    for (size_t j = 0; j < t->n; j++) {
      const double inv = (double)t->count[j] / (double)t->instances;
      if (inv < min_inv) continue;
      const bool seed = t->count[j] >= min_instances;
      double got = 0;
      bool have = false;
      for (size_t q = 0; p && q < p->n; q++)
        if (p->v[q].value == t->value[j]) {
          got = e[q].invariance;
          have = true;
        }
      const double d2 = (got - inv) * (got - inv);
      out->lw_counted++;
      out->lw_found += have;
      lw_sw += (double)t->instances;
      lw_se += (double)t->instances * d2;
      if (seed) {
        out->counted++;
        out->found += have;
        sw += (double)t->count[j];
        se += (double)t->count[j] * d2;
      }
      if (pairs)
        fprintf(pairs, "0x%08" PRIx32 " 0x%08" PRIx32 " %" PRIu64 " %" PRIu64 " %.6f %.6f\n", t->pc, t->value[j], t->instances,
                t->count[j], inv, got);
    }
    if (e != est) free(e);
  }
  out->error = sw > 0 ? sqrt(se / sw) : 0.0;
  out->lw_error = lw_sw > 0 ? sqrt(lw_se / lw_sw) : 0.0;
  return 0;
}

/* seed 001 5.1.4: several values each seen for a long stretch alone (many hits, almost no misses) */
static bool is_glacial(const vp_prof_load_t *l) {
  size_t long_runs = 0;
  for (size_t j = 0; j < l->n; j++) long_runs += l->v[j].hits >= 16 && 8 * l->v[j].misses <= l->v[j].hits;
  return long_runs >= 2;
}

int main(int argc, char **argv) {
  const char *truth_path = NULL, *profile_path = NULL, *pairs_path = NULL, *curve_path = NULL;
  uint64_t min_instances = 200;
  double min_inv = 0.25;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else if (!strncmp(a, "--truth=", 8) && a[8]) {
      truth_path = a + 8;
    } else if (!strncmp(a, "--pairs=", 8) && a[8]) {
      pairs_path = a + 8;
    } else if (!strncmp(a, "--curve=", 8) && a[8]) {
      curve_path = a + 8;
    } else if (!strncmp(a, "--min-instances=", 16) && a[16]) {
      char *end;
      min_instances = strtoull(a + 16, &end, 10);
      if (*end || a[16] == '-') {
        fprintf(stderr, "hwprof-vpeval: error: '%s': expected a count\n", a);
        return 2;
      }
    } else if (!strncmp(a, "--min-invariance=", 17) && a[17]) {
      char *end;
      min_inv = strtod(a + 17, &end);
      if (*end || !(min_inv >= 0.0 && min_inv <= 1.0)) {
        fprintf(stderr, "hwprof-vpeval: error: '%s': expected a fraction from 0 to 1\n", a);
        return 2;
      }
    } else if (a[0] == '-') {
      fprintf(stderr, "hwprof-vpeval: error: unknown option '%s' (see --help)\n", a);
      return 2;
    } else if (profile_path == NULL) {
      profile_path = a;
    } else {
      fprintf(stderr, "hwprof-vpeval: error: one profile at a time ('%s')\n", a);
      return 2;
    }
  }
  if (truth_path == NULL || profile_path == NULL) {
    usage(stderr);
    return 2;
  }
  truth_load_t *truth;
  size_t n_truth;
  vp_profile_t prof;
  char err[512];
  if (read_truth(truth_path, &truth, &n_truth)) return 1;
  if (vp_profile_read(&prof, profile_path, err, sizeof err)) {
    fprintf(stderr, "hwprof-vpeval: error: %s\n", err);
    free(truth);
    return 1;
  }
  const vp_snapshot_t *snaps = prof.snap;
  const size_t n_snaps = prof.nsnap;
  FILE *pairs = NULL, *curve = NULL;
  if ((pairs_path && (pairs = fopen(pairs_path, "w")) == NULL) || (curve_path && (curve = fopen(curve_path, "w")) == NULL)) {
    fprintf(stderr, "hwprof-vpeval: error: %s: %s\n", pairs && pairs_path ? curve_path : pairs_path ? pairs_path : curve_path,
            strerror(errno));
    if (pairs) fclose(pairs);
    vp_profile_free(&prof);
    free(truth);
    return 1;
  }
  int rc = 0;
  eval_t ev;
  if (curve) {
    fprintf(curve, "# instructions overhead error found counted lw_error lw_found lw_counted (one line per snapshot)\n");
    for (size_t k = 0; k < n_snaps && rc == 0; k++) {
      rc = evaluate(truth, n_truth, &snaps[k], min_instances, min_inv, NULL, profile_path, &ev);
      if (rc == 0)
        fprintf(curve, "%" PRIu64 " %" PRIu64 " %.6f %zu %zu %.6f %zu %zu\n", snaps[k].instructions, snaps[k].overhead, ev.error,
                ev.found, ev.counted, ev.lw_error, ev.lw_found, ev.lw_counted);
    }
    fclose(curve);
  }
  if (pairs) fprintf(pairs, "# pc value load_instances value_instances true_invariance estimated_invariance\n");
  if (rc == 0) rc = evaluate(truth, n_truth, &snaps[n_snaps - 1], min_instances, min_inv, pairs, profile_path, &ev);
  if (pairs) fclose(pairs);
  if (rc == 0) {
    printf("hwprof-vpeval: %s (%s): %zu pairs counted (values of at least %" PRIu64 " instances and %.0f%% of their load's), "
           "%zu found; frequency-weighted RMS error of the invariance %.4f\n",
           profile_path, prof.kind == kVpSamples ? "simple sampling" : "co-processor, A.6 estimate", ev.counted, min_instances,
           100 * min_inv, ev.found, ev.error);
    printf("hwprof-vpeval: load-weighted: %zu pairs counted (loads of at least %" PRIu64 " instances, values of at least %.0f%%), "
           "%zu found; RMS error weighted by the load's instances %.4f\n",
           ev.lw_counted, min_instances, 100 * min_inv, ev.lw_found, ev.lw_error);
  }
  if (rc == 0)
    printf("hwprof-vpeval: coverage: the profile holds %zu of the %zu load PCs retired while sampling was on, "
           "%.2f%% of their loads\n",
           ev.pcs_held, ev.pcs, ev.loads ? 100.0 * (double)ev.loads_held / (double)ev.loads : 0.0);
  if (rc == 0 && prof.kind == kVpCoprocessor) {
    const vp_snapshot_t *sn = &snaps[n_snaps - 1];
    size_t glacial = 0;
    for (size_t k = 0; k < sn->n; k++) glacial += is_glacial(&sn->loads[k]);
    printf("hwprof-vpeval: glacial values (seed 001 5.1.4): %zu loads hold two or more values each with at least 16 hits "
           "and at most one miss in eight%s",
           glacial, glacial ? ":" : "\n");
    for (size_t k = 0, shown = 0; k < sn->n && glacial; k++)
      if (is_glacial(&sn->loads[k])) printf(" 0x%08" PRIx32 "%s", sn->loads[k].pc, ++shown == glacial ? "\n" : "");
  }
  vp_profile_free(&prof);
  free(truth);
  return rc ? 1 : 0;
}
