/* The APB3 requester of every bench and platform: the two phases of a transfer (setup, then access
 * until pready) as a small state machine that the caller clocks, so the same protocol code serves
 * a cycle loop in C (sim/platform.c), a SystemC thread (sim/sc/cpu_sc.cpp) and the lockstep bench's
 * stimulus (tb/top/tb_top.cpp). Each cycle the caller drives m->req, advances the clock, and hands the
 * completer's response of that cycle to hwprof_apb_master_edge().
 *
 * Header-only C, usable from C and C++. */
#ifndef HWPROF_TB_APB_MASTER_H
#define HWPROF_TB_APB_MASTER_H

#include <stdbool.h>
#include <stdint.h>

#include "ports.h"

typedef enum { kHwprofApbIdle = 0, kHwprofApbSetup, kHwprofApbAccess } hwprof_apb_phase_t;

typedef struct {
  hwprof_apb_req_t req; /* what to drive in the current cycle */
  hwprof_apb_phase_t phase;
  uint32_t rdata; /* the last completed transfer's read data and error */
  bool err;
  uint64_t accesses, errors, wait_cycles; /* wait_cycles: access cycles with pready low */
} hwprof_apb_master_t;

/* Starts a transfer: this cycle is its setup phase. */
static inline void hwprof_apb_master_start(hwprof_apb_master_t *m, bool write, uint16_t addr, uint32_t wdata) {
  const hwprof_apb_req_t r = {true, false, write, addr, wdata};
  m->req = r;
  m->phase = kHwprofApbSetup;
}

static inline bool hwprof_apb_master_busy(const hwprof_apb_master_t *m) { return m->phase != kHwprofApbIdle; }

/* The clock edge ending a cycle in which m->req was driven; rsp: the completer's outputs in that
 * cycle. Returns true when the transfer completed at this edge (rdata and err hold its result, and
 * the bus is idle from the next cycle on). */
static inline bool hwprof_apb_master_edge(hwprof_apb_master_t *m, const hwprof_apb_rsp_t *rsp) {
  switch (m->phase) {
    case kHwprofApbSetup:
      m->phase = kHwprofApbAccess;
      m->req.penable = true;
      return false;
    case kHwprofApbAccess: {
      if (!rsp->pready) {
        m->wait_cycles++;
        return false;
      }
      m->rdata = rsp->prdata;
      m->err = rsp->pslverr;
      m->accesses++;
      m->errors += rsp->pslverr;
      const hwprof_apb_req_t idle = {false, false, false, 0, 0}; /* an idle bus drives zeros */
      m->req = idle;
      m->phase = kHwprofApbIdle;
      return true;
    }
    default: return false;
  }
}

#endif /* HWPROF_TB_APB_MASTER_H */
