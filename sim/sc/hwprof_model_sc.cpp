// The C model of hwprof_top as a SystemC module; see hwprof_model_sc.h.
#include "hwprof_model_sc.h"

namespace hwprof_sc {

ModelSc::ModelSc(sc_module_name name) : sc_module(name), cfg_(model_cfg()) {
  if (hwprof_top_cfg_check(&cfg_) != kHwprofOk) SC_REPORT_FATAL("hwprof", "the HWPROF_CFG_* parameters are not a valid configuration");
  hwprof_top_reset(&state_);
  SC_METHOD(eval);
  sensitive << clk_i.pos() << rst_ni << ev_valid_i << ev_pc_i << ev_next_pc_i << ev_insn_i << ev_kind_i
            << ev_is_call_i << ev_is_ret_i << ev_taken_i << ev_addr_i << ev_value_i << ev_pid_i << ev_bhint_i
            << ev_ihint_i << ev_op_i << ev_operand_i << psel_i << penable_i << pwrite_i << paddr_i << pwdata_i
            << mem_req_ready_i << mem_rsp_valid_i << mem_rsp_rdata_i;
}

void ModelSc::eval() {
  const hwprof_top_in_t in = read_inputs(*this);
  if (clk_i.posedge()) {
    if (!rst_ni.read()) hwprof_top_reset(&state_);
    else hwprof_top_step(&state_, &cfg_, &in);
  }
  hwprof_top_out_t out;
  hwprof_top_comb(&state_, &cfg_, &in, &out);
  write_outputs(out);
}

void ModelSc::write_outputs(const hwprof_top_out_t& o) {
  ev_ready_o.write(o.ev_ready);
  prdata_o.write(o.apb.prdata);
  pready_o.write(o.apb.pready);
  pslverr_o.write(o.apb.pslverr);
  mem_req_valid_o.write(o.mem_req_valid);
  mem_req_write_o.write(o.mem_req_write);
  mem_req_addr_o.write(o.mem_req_addr);
  mem_req_wdata_o.write(line_to_bv(o.mem_req_wdata));
  irq_phase_o.write(o.irq_phase);
  irq_trace_o.write(o.irq_trace);
  irq_coproc_o.write(o.irq_coproc);
  irq_error_o.write(o.irq_error);
  upd_valid_o.write(o.upd.valid);
  upd_addr_o.write(o.upd.addr);
  upd_dec_o.write(o.upd.dec);
}

void ModelSc::inject_fault() {
  // the pir's count of accepted events: architecturally invisible until software reads
  // STAT_EVENTS, which the platform always does after the program ends, so the fault is caught
  // on every program (a fault in live profiling state can be masked, e.g. by an unsampled trace)
  state_.pir.stats.count[HWPROF_PIR_ST_EVENTS] ^= 1u;
}

}  // namespace hwprof_sc
