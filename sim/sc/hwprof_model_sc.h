// The C model of hwprof_top (cmodel/top.c) as a SystemC module with exactly the Verilated RTL's
// ports: a drop-in replacement for Vhwprof_top in the platform. On a rising clock edge it takes one
// step with the inputs as they were before the edge (synchronous active-low reset, as the RTL);
// on any input change it re-evaluates its combinational outputs, as the RTL's eval does.
#ifndef HWPROF_SC_MODEL_SC_H
#define HWPROF_SC_MODEL_SC_H

#include "hwprof_pins.h"

namespace hwprof_sc {

SC_MODULE(ModelSc) {
  sc_in<bool> clk_i{"clk_i"}, rst_ni{"rst_ni"};
  sc_in<bool> ev_valid_i{"ev_valid_i"};
  sc_out<bool> ev_ready_o{"ev_ready_o"};
  sc_in<uint32_t> ev_pc_i{"ev_pc_i"}, ev_next_pc_i{"ev_next_pc_i"}, ev_insn_i{"ev_insn_i"}, ev_kind_i{"ev_kind_i"};
  sc_in<bool> ev_is_call_i{"ev_is_call_i"}, ev_is_ret_i{"ev_is_ret_i"}, ev_taken_i{"ev_taken_i"};
  sc_in<uint32_t> ev_addr_i{"ev_addr_i"}, ev_value_i{"ev_value_i"}, ev_pid_i{"ev_pid_i"}, ev_bhint_i{"ev_bhint_i"};
  sc_in<bool> ev_ihint_i{"ev_ihint_i"};
  sc_in<uint32_t> ev_op_i{"ev_op_i"};
  sc_in<uint64_t> ev_operand_i{"ev_operand_i"};
  sc_in<bool> psel_i{"psel_i"}, penable_i{"penable_i"}, pwrite_i{"pwrite_i"};
  sc_in<uint32_t> paddr_i{"paddr_i"}, pwdata_i{"pwdata_i"};
  sc_out<uint32_t> prdata_o{"prdata_o"};
  sc_out<bool> pready_o{"pready_o"}, pslverr_o{"pslverr_o"};
  sc_out<bool> mem_req_valid_o{"mem_req_valid_o"};
  sc_in<bool> mem_req_ready_i{"mem_req_ready_i"};
  sc_out<bool> mem_req_write_o{"mem_req_write_o"};
  sc_out<uint64_t> mem_req_addr_o{"mem_req_addr_o"};
  sc_out<line_bv> mem_req_wdata_o{"mem_req_wdata_o"};
  sc_in<bool> mem_rsp_valid_i{"mem_rsp_valid_i"};
  sc_in<line_bv> mem_rsp_rdata_i{"mem_rsp_rdata_i"};
  sc_out<bool> irq_phase_o{"irq_phase_o"}, irq_trace_o{"irq_trace_o"}, irq_coproc_o{"irq_coproc_o"},
      irq_error_o{"irq_error_o"};
  sc_out<bool> upd_valid_o{"upd_valid_o"}, upd_dec_o{"upd_dec_o"};
  sc_out<uint64_t> upd_addr_o{"upd_addr_o"};

  SC_CTOR(ModelSc);

  // The model's flops (observation only: the trace checker and the report read them).
  const top_state_t& state() const { return state_; }
  const top_cfg_t& cfg() const { return cfg_; }
  // Corrupt the model's state on purpose (shows that the lockstep comparison catches a fault).
  void inject_fault();

 private:
  void eval();
  void write_outputs(const top_out_t& o);

  top_cfg_t cfg_;
  top_state_t state_;
};

}  // namespace hwprof_sc

#endif  // HWPROF_SC_MODEL_SC_H
