/* Seed 001 Appendix A.6: see vp_estimate.h. */
#include "vp_estimate.h"

int vp_estimate(const vp_load_t *load, vp_estimate_t *out) {
  if (load == NULL || out == NULL || (load->n_values && load->values == NULL)) return -1;
  const size_t n = load->n_values;
  uint64_t hits = 0, counted = 0;
  for (size_t k = 0; k < n; k++) {
    hits += load->values[k].hits;
    counted += load->values[k].hits + load->values[k].misses;
  }
  if (counted > load->total) return -1;
  for (size_t k = 0; k < n; k++) out[k].samples = (double)load->values[k].hits;
  /* the misses of each value go to the others, in proportion to their hits */
  for (size_t w = 0; w < n; w++) {
    const uint64_t others = hits - load->values[w].hits;
    if (load->values[w].misses == 0 || others == 0) continue; /* nobody known to give them to */
    for (size_t v = 0; v < n; v++)
      if (v != w) out[v].samples += (double)load->values[w].misses * (double)load->values[v].hits / (double)others;
  }
  /* the samples nobody accounts for: equal shares, at most 20% of them each */
  const double rest = (double)(load->total - counted);
  if (n && rest > 0) {
    const double share = rest / (double)n < 0.2 * rest ? rest / (double)n : 0.2 * rest;
    for (size_t k = 0; k < n; k++) out[k].samples += share;
  }
  for (size_t k = 0; k < n; k++) out[k].invariance = load->total ? out[k].samples / (double)load->total : 0.0;
  return 0;
}
