/* C model of rtl/prim/hwprof_prim_cam.sv; see cam.h. */
#include "cam.h"

#include <string.h>

static uint64_t key_mask(const hwprof_prim_cam_cfg_t *cfg) {
  return cfg->key_w >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << cfg->key_w) - 1u;
}

hwprof_result_t hwprof_prim_cam_cfg_check(const hwprof_prim_cam_cfg_t *cfg) {
  if (cfg == NULL || cfg->n < 1 || cfg->n > HWPROF_PRIM_CAM_MAX_N || cfg->key_w < 1 || cfg->key_w > 64)
    return kHwprofBadArg;
  return kHwprofOk;
}

void hwprof_prim_cam_reset(hwprof_prim_cam_state_t *s) { memset(s, 0, sizeof *s); }

void hwprof_prim_cam_comb(const hwprof_prim_cam_state_t *s, const hwprof_prim_cam_cfg_t *cfg, uint64_t key,
                          hwprof_prim_cam_out_t *out) {
  const uint64_t k = key & key_mask(cfg);
  out->match = 0;
  for (unsigned i = 0; i < cfg->n; i++)
    if (((s->valid >> i) & 1u) && s->key[i] == k) out->match |= UINT64_C(1) << i;
  out->hit = out->match != 0;
  out->hit_idx = out->hit ? (unsigned)__builtin_ctzll(out->match) : 0;
}

void hwprof_prim_cam_step(hwprof_prim_cam_state_t *s, const hwprof_prim_cam_cfg_t *cfg, const hwprof_prim_cam_in_t *in) {
  if (in->clr) s->valid = 0;
  if (in->we && in->widx < cfg->n) {
    s->key[in->widx] = in->wkey & key_mask(cfg);
    const uint64_t bit = UINT64_C(1) << in->widx;
    s->valid = in->wvalid ? s->valid | bit : s->valid & ~bit;
  }
}
