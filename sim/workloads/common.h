/* Shared by the workloads: a deterministic generator, a checksum, and the report line every
 * workload prints ("<name>: <phase results> checksum 0x........ ok"), exiting 0 only if its own
 * checks passed. */
#ifndef WORKLOAD_COMMON_H
#define WORKLOAD_COMMON_H

#include <stdint.h>
#include <stdio.h>

static uint32_t wl_seed = 12345u;
static inline uint32_t wl_rand(void) {
  wl_seed = wl_seed * 1103515245u + 12345u;
  return wl_seed >> 1;
}
static inline uint32_t wl_mix(uint32_t h, uint32_t v) { return (h ^ v) * 16777619u; }

static inline int wl_finish(const char *name, uint32_t checksum, int ok) {
  printf("%s: checksum 0x%08lx %s\n", name, (unsigned long)checksum, ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}

#endif
