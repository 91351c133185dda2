/* A synthetic key stream at the scale seed 003 speaks of (about 2 million paths), for measuring
 * the hash tables where no program here reaches that many (docs/wpp.md, "The hash table"): each of
 * `phases` equal stretches draws its keys from a Zipf distribution over all `keys` keys (rank r with
 * probability proportional to 1/r^s), through its own random permutation of the keys, so each phase
 * has a different hot set, as a run moving from one benchmark to the next would. Deterministic for a
 * seed; rewinding replays the same stream. */
#ifndef HWPROF_WPP_ZIPF_STREAM_H
#define HWPROF_WPP_ZIPF_STREAM_H

#include <stdint.h>

typedef struct {
  uint64_t lookups, per_phase; /* stream length, lookups per phase */
  uint32_t bits, phases;       /* keys = 2^bits */
  uint64_t seed;
  double *cdf; /* per rank, the probability of this rank or a hotter one */
  uint64_t i, rng;
  uint32_t phase, salt, mul1, mul2; /* the current phase's permutation */
} wpp_zipf_t;

/* keys a power of two from 2^4 to 2^26, lookups >= 1, phases 1..lookups, s > 0. Returns 0, or -1
 * (bad parameters or out of memory). */
int wpp_zipf_init(wpp_zipf_t *z, uint64_t keys, uint64_t lookups, uint32_t phases, double s, uint64_t seed);
void wpp_zipf_free(wpp_zipf_t *z);
void wpp_zipf_rewind(wpp_zipf_t *z);
/* The next key (in 0 .. keys-1); the stream has z->lookups of them. */
uint32_t wpp_zipf_next(wpp_zipf_t *z);

#endif /* HWPROF_WPP_ZIPF_STREAM_H */
