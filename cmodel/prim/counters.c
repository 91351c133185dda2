/* C model of rtl/prim/hwprof_prim_counters.sv; see counters.h. */
#include "counters.h"

#include <string.h>

hwprof_result_t hwprof_prim_counters_cfg_check(const hwprof_prim_counters_cfg_t *cfg) {
  if (cfg == NULL || cfg->n < 1 || cfg->n > HWPROF_PRIM_COUNTERS_MAX_N || cfg->w < 1 || cfg->w > 64)
    return kHwprofBadArg;
  return kHwprofOk;
}

void hwprof_prim_counters_reset(hwprof_prim_counters_state_t *s) { memset(s, 0, sizeof *s); }
