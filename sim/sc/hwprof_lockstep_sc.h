// hwprof_top as the RTL and the C model in lockstep: both see the same pins; the RTL's outputs drive
// the platform, the model's go to a comparator that checks every output on every rising clock edge
// (the values the cycle settled on) with the same signal list as the block bench
// (tb/top/top_compare.h), and the rules of the memory and APB ports on the RTL's outputs every cycle
// (tb/lib/port_protocol.h, as the block bench checks them). The first mismatch or broken rule stops the
// simulation with a report naming the cycle and the signal, and the last transactions on the pins.
#ifndef HWPROF_SC_LOCKSTEP_SC_H
#define HWPROF_SC_LOCKSTEP_SC_H

#include <cstdint>
#include <string>

#include "Vhwprof_top.h"
#include "hwprof_model_sc.h"
#include "hwprof_pins.h"
#include "lib/lockstep.h"
#include "lib/port_protocol.h"

namespace hwprof_sc {

SC_MODULE(LockstepSc) {
  HWPROF_SC_TOP_PORTS

  Vhwprof_top rtl{"rtl"};
  ModelSc model{"model"};

  // inject_cycle >= 0: corrupt the model's state at that cycle (proves the comparison catches it).
  LockstepSc(sc_module_name name, int64_t inject_cycle);
  SC_HAS_PROCESS(LockstepSc);

  bool failed() const { return chk_.failed(); }
  uint64_t fail_cycle() const { return chk_.fail_cycle(); }
  uint64_t cycles_compared() const { return cycle_; }
  uint64_t compares() const { return chk_.compares(); }
  // that the port rules were exercised: cycles a request waited for ready, line reads answered
  uint64_t held_cycles() const { return proto_.held_cycles(); }
  uint64_t reads_answered() const { return proto_.reads_answered(); }
  // The mismatch report and the last transactions (empty when none failed).
  void report(FILE* to) const;

 private:
  void check();
  void log_transactions(const hwprof_top_in_t& in, const hwprof_top_out_t& r);

  // the model's outputs
#define HWPROF_SC_MODEL_OUT(name, sc_type, member) sc_signal<sc_type> m_##name##_{"m_" #name};
  HWPROF_TOP_OUTPUTS(HWPROF_SC_MODEL_OUT)
#undef HWPROF_SC_MODEL_OUT
  sc_signal<line_bv> m_mem_req_wdata_{"m_mem_req_wdata"};

  // the last transactions, kept raw (formatting each one would cost more than the comparison)
  struct Tx {
    uint64_t cycle;
    char what;  // 'r' retire, 'a' APB, 'm' memory request, 's' memory response, 'i' injected fault
    uint32_t a, b;
    uint64_t c;
    unsigned flags;
  };
  static constexpr size_t kTxDepth = 32;
  Tx tx_[kTxDepth] = {};
  size_t tx_next_ = 0, tx_count_ = 0;
  void add_tx(const Tx& t) {
    tx_[tx_next_] = t;
    tx_next_ = (tx_next_ + 1) % kTxDepth;
    if (tx_count_ < kTxDepth) tx_count_++;
  }

  lockstep::Checker chk_;
  lockstep::PortProtocol proto_;
  uint64_t cycle_ = 0;
  int64_t inject_cycle_;
};

}  // namespace hwprof_sc

#endif  // HWPROF_SC_LOCKSTEP_SC_H
