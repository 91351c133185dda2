/* C model of rtl/prim/hwprof_prim_cam.sv: N keys with valid bits; a lookup of the state at the
 * start of the cycle (every match, the lowest matching index), and at the clock edge a clear of
 * every valid bit then a write of one entry. Cycle-exact: comb() gives this cycle's outputs,
 * step() is one rising clock edge. */
#ifndef HWPROF_PRIM_CAM_H
#define HWPROF_PRIM_CAM_H

#include <stdbool.h>
#include <stdint.h>

#include "hwprof_result.h"

#define HWPROF_PRIM_CAM_MAX_N 64u

typedef struct {
  unsigned n;     /* N: 1..HWPROF_PRIM_CAM_MAX_N */
  unsigned key_w; /* KeyW: 1..64 */
} hwprof_prim_cam_cfg_t;

/* Exactly the flops of hwprof_prim_cam. */
typedef struct {
  uint64_t key[HWPROF_PRIM_CAM_MAX_N];
  uint64_t valid; /* bit i: entry i */
} hwprof_prim_cam_state_t;

typedef struct {
  uint64_t key; /* key_i */
  bool clr;
  bool we;
  unsigned widx;
  uint64_t wkey;
  bool wvalid;
} hwprof_prim_cam_in_t;

typedef struct {
  bool hit;
  unsigned hit_idx; /* the lowest matching entry, 0 without a hit */
  uint64_t match;   /* bit i: entry i is valid and holds the key */
} hwprof_prim_cam_out_t;

hwprof_result_t hwprof_prim_cam_cfg_check(const hwprof_prim_cam_cfg_t *cfg);
void hwprof_prim_cam_reset(hwprof_prim_cam_state_t *s);
void hwprof_prim_cam_comb(const hwprof_prim_cam_state_t *s, const hwprof_prim_cam_cfg_t *cfg, uint64_t key,
                          hwprof_prim_cam_out_t *out);
void hwprof_prim_cam_step(hwprof_prim_cam_state_t *s, const hwprof_prim_cam_cfg_t *cfg, const hwprof_prim_cam_in_t *in);

#endif /* HWPROF_PRIM_CAM_H */
