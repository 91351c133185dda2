/* C model of rtl/prim/hwprof_prim_counters.sv: a bank of event counters that wrap around, cleared
 * all at once or loaded one by one by software's writes (the clear, then the write, then the same
 * cycle's increments). Cycle-exact: the outputs are the
 * state (hwprof_prim_counters_get()), step() is one rising clock edge. */
#ifndef HWPROF_PRIM_COUNTERS_H
#define HWPROF_PRIM_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "hwprof_result.h"

#define HWPROF_PRIM_COUNTERS_MAX_N 16u

typedef struct {
  unsigned n; /* N: 1..HWPROF_PRIM_COUNTERS_MAX_N */
  unsigned w; /* W: 1..64 */
} hwprof_prim_counters_cfg_t;

/* Exactly the flops of hwprof_prim_counters. */
typedef struct {
  uint64_t count[HWPROF_PRIM_COUNTERS_MAX_N];
} hwprof_prim_counters_state_t;

typedef struct {
  uint32_t inc;   /* bit i: counter i counts one event */
  bool clr;
  uint32_t wr;    /* bit i: counter i is loaded with wdata */
  uint64_t wdata;
} hwprof_prim_counters_in_t;

hwprof_result_t hwprof_prim_counters_cfg_check(const hwprof_prim_counters_cfg_t *cfg);
void hwprof_prim_counters_reset(hwprof_prim_counters_state_t *s);
/* count_o's counter i. */
static inline uint64_t hwprof_prim_counters_get(const hwprof_prim_counters_state_t *s, unsigned i) {
  return s->count[i];
}
/* One clock edge. Inline: every engine calls it each cycle with a constant configuration. */
static inline void hwprof_prim_counters_step(hwprof_prim_counters_state_t *s, const hwprof_prim_counters_cfg_t *cfg,
                                             const hwprof_prim_counters_in_t *in) {
  const uint64_t mask = cfg->w >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << cfg->w) - 1u;
  if (in->clr)
    for (unsigned i = 0; i < cfg->n; i++) s->count[i] = 0;
  for (uint32_t b = in->wr & ((1u << cfg->n) - 1u); b; b &= b - 1u) s->count[__builtin_ctz(b)] = in->wdata & mask;
  /* only the counters with an event change (most cycles have one or none) */
  for (uint32_t b = in->inc & ((1u << cfg->n) - 1u); b; b &= b - 1u) {
    const unsigned i = (unsigned)__builtin_ctz(b);
    s->count[i] = (s->count[i] + 1u) & mask;
  }
}

#endif /* HWPROF_PRIM_COUNTERS_H */
