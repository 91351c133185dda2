/* The synthetic key stream; see zipf_stream.h. */
#include "zipf_stream.h"

#include <math.h>
#include <stdlib.h>

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static void start_phase(wpp_zipf_t *z, uint32_t phase) {
  uint64_t s = z->seed ^ (0x5851f42d4c957f2dull * (phase + 1u));
  z->phase = phase;
  z->salt = (uint32_t)splitmix(&s);
  z->mul1 = (uint32_t)splitmix(&s) | 1u; /* odd: invertible modulo 2^bits */
  z->mul2 = (uint32_t)splitmix(&s) | 1u;
}

int wpp_zipf_init(wpp_zipf_t *z, uint64_t keys, uint64_t lookups, uint32_t phases, double s, uint64_t seed) {
  *z = (wpp_zipf_t){0};
  if (keys < 16u || keys > (1u << 26) || (keys & (keys - 1u)) || lookups == 0 || phases == 0 || phases > lookups ||
      !(s > 0.0))
    return -1;
  while ((1ull << z->bits) < keys) z->bits++;
  z->cdf = malloc(keys * sizeof *z->cdf);
  if (z->cdf == NULL) return -1;
  double sum = 0.0;
  for (uint64_t r = 0; r < keys; r++) z->cdf[r] = (sum += pow((double)(r + 1u), -s));
  for (uint64_t r = 0; r < keys; r++) z->cdf[r] /= sum;
  z->lookups = lookups;
  z->phases = phases;
  z->per_phase = (lookups + phases - 1u) / phases;
  z->seed = seed;
  wpp_zipf_rewind(z);
  return 0;
}

void wpp_zipf_free(wpp_zipf_t *z) {
  free(z->cdf);
  *z = (wpp_zipf_t){0};
}

void wpp_zipf_rewind(wpp_zipf_t *z) {
  z->i = 0;
  z->rng = z->seed;
  start_phase(z, 0);
}

uint32_t wpp_zipf_next(wpp_zipf_t *z) {
  if (z->i / z->per_phase != z->phase) start_phase(z, (uint32_t)(z->i / z->per_phase));
  z->i++;
  const double u = (double)(splitmix(&z->rng) >> 11) * 0x1p-53; /* uniform in [0, 1) */
  uint32_t lo = 0, hi = (1u << z->bits) - 1u;                    /* the first rank whose cdf exceeds u */
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2u;
    if (z->cdf[mid] > u) hi = mid;
    else lo = mid + 1u;
  }
  /* the phase's permutation of the ranks: xor, odd multiplies and an xorshift, each a bijection
     modulo 2^bits */
  const uint32_t m = (1u << z->bits) - 1u;
  uint32_t x = (lo ^ z->salt) & m;
  x = (x * z->mul1) & m;
  x ^= x >> (z->bits / 2u + 1u);
  return (x * z->mul2) & m;
}
