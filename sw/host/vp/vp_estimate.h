/* The invariance estimate of seed 001's Appendix A.6 (docs/vpf.md, "Estimation").
 *
 * What the profiler recorded for one static load, summed over every slot copy of it: the samples
 * its slots counted in all (total), and for each value that was ever the active value the hits and
 * misses counted while it was. Each value's share of the samples is estimated from three sources:
 * its own hits; the misses counted while another value w was active, shared among the values other
 * than w in proportion to their hits; and the samples no value accounts for (total minus every hit
 * and miss), shared equally but at most 20% of them to any one value. A value's invariance is its
 * estimated samples divided by total. Portable C (host tools and firmware). */
#ifndef HWPROF_VP_ESTIMATE_H
#define HWPROF_VP_ESTIMATE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint32_t value;
  uint64_t hits, misses;
} vp_value_t;

typedef struct {
  uint32_t pc;
  uint64_t total; /* every sample the load's slots counted */
  size_t n_values;
  const vp_value_t *values;
} vp_load_t;

typedef struct {
  double samples;    /* estimated samples of the value */
  double invariance; /* samples / total (0 when total is 0) */
} vp_estimate_t;

/* out[k] is the estimate of load->values[k]. Returns 0, or -1 if the counts are inconsistent (the
 * hits and misses add up to more than the total) or an argument is NULL. */
int vp_estimate(const vp_load_t *load, vp_estimate_t *out);

#endif /* HWPROF_VP_ESTIMATE_H */
