/* C model of rtl/prim/hwprof_prim_regfile.sv; see regfile.h. */
#include "regfile.h"

#include <string.h>

hwprof_result_t hwprof_prim_regfile_cfg_check(const hwprof_prim_regfile_cfg_t *cfg) {
  if (cfg == NULL || cfg->n < 1 || cfg->n > HWPROF_PRIM_REGFILE_MAX_N || cfg->w < 1 || cfg->w > 64) return kHwprofBadArg;
  return kHwprofOk;
}

void hwprof_prim_regfile_reset(hwprof_prim_regfile_state_t *s) { memset(s, 0, sizeof *s); }

void hwprof_prim_regfile_step(hwprof_prim_regfile_state_t *s, const hwprof_prim_regfile_cfg_t *cfg,
                              const hwprof_prim_regfile_in_t *in) {
  const uint64_t mask = cfg->w >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << cfg->w) - 1u;
  if (in->we && in->waddr < cfg->n) s->word[in->waddr] = in->wdata & mask;
}
