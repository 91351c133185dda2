// The C model of hwprof_top (cmodel/top/top.c) as a SystemC module with exactly the Verilated RTL's
// ports: a drop-in replacement for Vhwprof_top in the platform. On a rising clock edge it takes one
// step with the inputs as they were before the edge (synchronous active-low reset, as the RTL);
// on any input change it re-evaluates its combinational outputs, as the RTL's eval does.
#ifndef HWPROF_SC_MODEL_SC_H
#define HWPROF_SC_MODEL_SC_H

#include "hwprof_pins.h"

namespace hwprof_sc {

SC_MODULE(ModelSc) {
  HWPROF_SC_TOP_PORTS

  SC_CTOR(ModelSc);

  // The model's flops (observation only: the trace checker and the report read them).
  const hwprof_top_state_t& state() const { return state_; }
  const hwprof_top_cfg_t& cfg() const { return cfg_; }
  // Corrupt the model's state on purpose (shows that the lockstep comparison catches a fault).
  void inject_fault();

 private:
  void eval();
  void write_outputs(const hwprof_top_out_t& o);

  hwprof_top_cfg_t cfg_;
  hwprof_top_state_t state_;
};

}  // namespace hwprof_sc

#endif  // HWPROF_SC_MODEL_SC_H
