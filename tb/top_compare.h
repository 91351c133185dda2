// The output comparison of hwprof_top (and the names its transaction logs use) shared by every lockstep harness (the block bench tb/tb_top.cpp
// and the SystemC platform sim/sc/): one list of signals, named as the RTL names its ports.
#ifndef HWPROF_TB_TOP_COMPARE_H
#define HWPROF_TB_TOP_COMPARE_H

#include "lockstep.h"

extern "C" {
#include "top.h"
}

namespace lockstep {

// Retire-event kinds (HWPROF_KIND_*) by name, for transaction logs.
inline const char* kind_name(unsigned k) {
  static const char* const names[] = {"other", "branch", "jump", "ijump", "load", "store", "prof", "kind7"};
  return names[k & 7];
}

// Compares every output of hwprof_top (model = expected, rtl = actual); line_words of the write data.
inline void compare_top_outputs(const hwprof_top_out_t& m, const hwprof_top_out_t& r, unsigned line_words, Checker& chk) {
  chk.eq("ev_ready_o", m.ev_ready, r.ev_ready);
  chk.eq("prdata_o", m.apb.prdata, r.apb.prdata);
  chk.eq("pready_o", m.apb.pready, r.apb.pready);
  chk.eq("pslverr_o", m.apb.pslverr, r.apb.pslverr);
  chk.eq("mem_req_valid_o", m.mem_req_valid, r.mem_req_valid);
  chk.eq("mem_req_write_o", m.mem_req_write, r.mem_req_write);
  chk.eq("mem_req_addr_o", m.mem_req_addr, r.mem_req_addr);
  static const char* const wdata[HWPROF_EP_MAX_LINE_WORDS] = {
      "mem_req_wdata_o word 0", "mem_req_wdata_o word 1", "mem_req_wdata_o word 2", "mem_req_wdata_o word 3",
      "mem_req_wdata_o word 4", "mem_req_wdata_o word 5", "mem_req_wdata_o word 6", "mem_req_wdata_o word 7"};
  for (unsigned w = 0; w < line_words && w < HWPROF_EP_MAX_LINE_WORDS; w++)
    chk.eq(wdata[w], m.mem_req_wdata.w[w], r.mem_req_wdata.w[w]);
  chk.eq("irq_phase_o", m.irq_phase, r.irq_phase);
  chk.eq("irq_trace_o", m.irq_trace, r.irq_trace);
  chk.eq("irq_coproc_o", m.irq_coproc, r.irq_coproc);
  chk.eq("irq_error_o", m.irq_error, r.irq_error);
  chk.eq("upd_valid_o", m.upd.valid, r.upd.valid);
  chk.eq("upd_addr_o", m.upd.addr, r.upd.addr);
  chk.eq("upd_dec_o", m.upd.dec, r.upd.dec);
}

}  // namespace lockstep

#endif  // HWPROF_TB_TOP_COMPARE_H
