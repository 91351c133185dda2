// The output comparison of hwprof_top (and the names its transaction logs use) shared by every lockstep harness (the block bench tb/top/tb_top.cpp
// and the SystemC platform sim/sc/): one list of signals, named as the RTL names its ports.
#ifndef HWPROF_TB_TOP_COMPARE_H
#define HWPROF_TB_TOP_COMPARE_H

#include "lib/lockstep.h"
#include "top/top_ports.h"

extern "C" {
#include "top/top.h"
}

namespace lockstep {

// Retire-event kinds (HWPROF_KIND_*) by name, for transaction logs.
inline const char* kind_name(unsigned k) {
  static const char* const names[] = {"other", "branch", "jump", "ijump", "load", "store", "prof", "kind7"};
  return names[k & 7];
}

// Compares every output of hwprof_top (model = expected, rtl = actual); line_words of the write data.
inline void compare_top_outputs(const hwprof_top_out_t& m, const hwprof_top_out_t& r, unsigned line_words, Checker& chk) {
#define HWPROF_COMPARE_OUTPUT(name, sc_type, member) chk.eq(#name "_o", m.member, r.member);
  HWPROF_TOP_OUTPUTS(HWPROF_COMPARE_OUTPUT)
#undef HWPROF_COMPARE_OUTPUT
  static const char* const wdata[HWPROF_EP_MAX_LINE_WORDS] = {
      "mem_req_wdata_o word 0", "mem_req_wdata_o word 1", "mem_req_wdata_o word 2", "mem_req_wdata_o word 3",
      "mem_req_wdata_o word 4", "mem_req_wdata_o word 5", "mem_req_wdata_o word 6", "mem_req_wdata_o word 7"};
  for (unsigned w = 0; w < line_words && w < HWPROF_EP_MAX_LINE_WORDS; w++)
    chk.eq(wdata[w], m.mem_req_wdata.w[w], r.mem_req_wdata.w[w]);
}

}  // namespace lockstep

#endif  // HWPROF_TB_TOP_COMPARE_H
