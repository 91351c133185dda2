/* C model of rtl/prim/hwprof_prim_regfile.sv: N words, two combinational read ports on the state
 * at the start of the cycle, one write at the clock edge; addresses >= N read 0 and are not
 * written. Cycle-exact: comb() gives this cycle's outputs, step() is one rising clock edge. */
#ifndef HWPROF_PRIM_REGFILE_H
#define HWPROF_PRIM_REGFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "hwprof_result.h"

#define HWPROF_PRIM_REGFILE_MAX_N 64u

typedef struct {
  unsigned n; /* N: 1..HWPROF_PRIM_REGFILE_MAX_N */
  unsigned w; /* W: 1..64 */
} hwprof_prim_regfile_cfg_t;

/* Exactly the flops of hwprof_prim_regfile. */
typedef struct {
  uint64_t word[HWPROF_PRIM_REGFILE_MAX_N];
} hwprof_prim_regfile_state_t;

typedef struct {
  bool we;
  unsigned waddr;
  uint64_t wdata;
} hwprof_prim_regfile_in_t;

hwprof_result_t hwprof_prim_regfile_cfg_check(const hwprof_prim_regfile_cfg_t *cfg);
void hwprof_prim_regfile_reset(hwprof_prim_regfile_state_t *s);
/* A read port: the word at addr, 0 when addr >= N. */
static inline uint64_t hwprof_prim_regfile_read(const hwprof_prim_regfile_state_t *s,
                                                const hwprof_prim_regfile_cfg_t *cfg, unsigned addr) {
  return addr < cfg->n ? s->word[addr] : 0;
}
void hwprof_prim_regfile_step(hwprof_prim_regfile_state_t *s, const hwprof_prim_regfile_cfg_t *cfg,
                              const hwprof_prim_regfile_in_t *in);

#endif /* HWPROF_PRIM_REGFILE_H */
