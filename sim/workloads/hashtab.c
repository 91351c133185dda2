/* Phase 1: build an open-addressing hash table; phase 2: many lookups of a few hot keys, whose
 * loads return the same values again and again (invariant loads, seed 001's target). */
#include "common.h"

#define CAP 2048
#define KEYS 1200
static uint32_t keys[CAP], vals[CAP];

static uint32_t slot(uint32_t k) { return (k * 2654435761u) >> 21; }

static void put(uint32_t k, uint32_t v) {
  uint32_t i = slot(k);
  while (keys[i] && keys[i] != k) i = (i + 1) & (CAP - 1);
  keys[i] = k;
  vals[i] = v;
}

static int get(uint32_t k, uint32_t *v) {
  for (uint32_t i = slot(k); keys[i]; i = (i + 1) & (CAP - 1))
    if (keys[i] == k) {
      *v = vals[i];
      return 1;
    }
  return 0;
}

int main(void) {
  uint32_t h = 2166136261u, inserted[KEYS];
  for (int i = 0; i < KEYS; i++) {
    inserted[i] = 1 + wl_rand() % 1000000u;
    put(inserted[i], (uint32_t)i);
  }
  int ok = 1, found = 0;
  for (int i = 0; i < 30000; i++) {
    uint32_t k = (i % 8) ? inserted[i % 16] : 1000001u + (uint32_t)i; /* hot keys, and misses */
    uint32_t v;
    if (get(k, &v)) {
      found++;
      h = wl_mix(h, v);
      ok = ok && inserted[v] == k;
    }
  }
  printf("hashtab: %d keys, %d hits\n", KEYS, found);
  return wl_finish("hashtab", h, ok && found == 26250);
}
