/* The base of the hwprof drivers: the result convention (hwprof_result.h), the register-access handle
 * (hwprof_mmio.h) and the subsystem's build parameters, read from the top window's CFG_* registers
 * so that drivers check their arguments against the hardware they run on. */
#ifndef HWPROF_H
#define HWPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwprof_mmio.h"
#include "autogen/hwprof_regs.h"
#include "hwprof_result.h"



/* The build parameters of hwprof_top (docs/registers.md, CFG_*). */
typedef struct {
  unsigned cnt_w, upd_depth, oab_depth;  /* counter width, update buffer, overflowed-address buffer */
  unsigned sets, ways, line_words;       /* profile cache */
  unsigned hist_w, trace_fifo_depth;     /* trace controller */
} hwprof_config_t;

#define HWPROF_FIELD(reg, field, v) \
  (((v) >> HWPROF_TOP_##reg##_##field##_LSB) & HWPROF_TOP_##reg##_##field##_MASK)

/* Read the build parameters (three register reads). */
static inline HWPROF_WARN_UNUSED hwprof_result_t hwprof_read_config(const hwprof_t *h, hwprof_config_t *out) {
  if (h == NULL || out == NULL) return kHwprofBadArg;
  uint32_t e = hwprof_mmio_read32(h, HWPROF_TOP_CFG_EDGE_ADDR);
  uint32_t c = hwprof_mmio_read32(h, HWPROF_TOP_CFG_CACHE_ADDR);
  uint32_t t = hwprof_mmio_read32(h, HWPROF_TOP_CFG_TRACE_ADDR);
  out->cnt_w = HWPROF_FIELD(CFG_EDGE, CNTW, e);
  out->upd_depth = HWPROF_FIELD(CFG_EDGE, UPD_DEPTH, e);
  out->oab_depth = HWPROF_FIELD(CFG_EDGE, OAB_DEPTH, e);
  out->sets = HWPROF_FIELD(CFG_CACHE, SETS, c);
  out->ways = HWPROF_FIELD(CFG_CACHE, WAYS, c);
  out->line_words = HWPROF_FIELD(CFG_CACHE, LINE_WORDS, c);
  out->hist_w = HWPROF_FIELD(CFG_TRACE, HIST_W, t);
  out->trace_fifo_depth = HWPROF_FIELD(CFG_TRACE, FIFO_DEPTH, t);
  return kHwprofOk;
}

#endif /* HWPROF_H */
