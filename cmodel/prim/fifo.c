/* C model of rtl/prim/hwprof_prim_fifo.sv; see fifo.h. */
#include "fifo.h"

#include <string.h>

hwprof_result_t hwprof_prim_fifo_cfg_check(const hwprof_prim_fifo_cfg_t *cfg) {
  if (cfg == NULL || cfg->width < 1 || cfg->width > 64 || cfg->depth < 1 || cfg->depth > HWPROF_PRIM_FIFO_MAX_DEPTH)
    return kHwprofBadArg;
  return kHwprofOk;
}

void hwprof_prim_fifo_reset(hwprof_prim_fifo_state_t *s) { memset(s, 0, sizeof *s); }
