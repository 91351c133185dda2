// Protocol rules of hwprof_top's ports, checked on the RTL's outputs every cycle, independently of
// the C model (docs/edge_prof.md "Memory port", docs/architecture.md "APB3 register port"):
//   memory port  a request not accepted (valid, ready low) is still made in the next cycle, with the
//                same write flag, address and data; at most one line read is outstanding (no read is
//                accepted between an accepted read and its response); with no request the request
//                outputs are 0; a response comes only while a read is outstanding (the memory
//                model's rule, checked here too)
//   APB          pready is always 1 (zero wait states)
// A rule broken is a failure of the cycle, named in the report like a lockstep mismatch.
#ifndef HWPROF_TB_PORT_PROTOCOL_H
#define HWPROF_TB_PORT_PROTOCOL_H

#include <cstdint>
#include <cstring>

#include "lib/lockstep.h"
#include "top/top.h"

namespace lockstep {

class PortProtocol {
 public:
  // r: the RTL's outputs in this cycle; ready, rsp_valid: the memory's inputs to it in this cycle
  void cycle(const hwprof_top_out_t& r, bool ready, bool rsp_valid, Checker& chk) {
    if (waiting_) {
      chk.expect("protocol: a request not accepted is held (mem_req_valid_o)", 1, r.mem_req_valid);
      if (r.mem_req_valid) {
        chk.expect("protocol: a held request keeps mem_req_write_o", held_.mem_req_write, r.mem_req_write);
        chk.expect("protocol: a held request keeps mem_req_addr_o", held_.mem_req_addr, r.mem_req_addr);
        chk.expect("protocol: a held request keeps mem_req_wdata_o",
                   0, std::memcmp(&held_.mem_req_wdata, &r.mem_req_wdata, sizeof r.mem_req_wdata) != 0);
      }
    }
    if (!r.mem_req_valid) {
      bool zero = !r.mem_req_write && r.mem_req_addr == 0;
      for (unsigned w = 0; w < HWPROF_EP_MAX_LINE_WORDS && zero; w++) zero = r.mem_req_wdata.w[w] == 0;
      chk.expect("protocol: with no request the request outputs are 0", 1, zero);
    }
    if (rsp_valid) {
      chk.expect("protocol: a read response answers an outstanding read", 1, read_out_);
      read_out_ = false;
      reads_answered_++;
    }
    const bool accepted = r.mem_req_valid && ready;
    if (accepted && !r.mem_req_write) {
      chk.expect("protocol: at most one line read outstanding", 0, read_out_);
      read_out_ = true;
    }
    waiting_ = r.mem_req_valid && !ready;
    if (waiting_) {
      held_ = r;
      held_cycles_++;
    }
    chk.expect("protocol: pready is always 1", 1, r.apb.pready);
  }
  // a system reset: the RTL drops a held request and forgets its read in flight
  void reset() {
    waiting_ = false;
    read_out_ = false;
  }
  // cycles a request waited for ready, and reads answered: that the rules were exercised
  uint64_t held_cycles() const { return held_cycles_; }
  uint64_t reads_answered() const { return reads_answered_; }

 private:
  bool waiting_ = false;
  bool read_out_ = false;
  hwprof_top_out_t held_{};
  uint64_t held_cycles_ = 0;
  uint64_t reads_answered_ = 0;
};

}  // namespace lockstep

#endif
