// The C model of hwprof_top as a SystemC module; see hwprof_model_sc.h.
#include "hwprof_model_sc.h"

namespace hwprof_sc {

ModelSc::ModelSc(sc_module_name name) : sc_module(name), cfg_(model_cfg()) {
  if (hwprof_top_cfg_check(&cfg_) != kHwprofOk) SC_REPORT_FATAL("hwprof", "the HWPROF_PARAM_* parameters are not a valid configuration");
  hwprof_top_reset(&state_);
  SC_METHOD(eval);
  sensitive << clk_i.pos() << rst_ni << mem_rsp_rdata_i;
#define HWPROF_SC_SENSITIVE(name, sc_type, member) sensitive << name##_i;
  HWPROF_TOP_INPUTS(HWPROF_SC_SENSITIVE)
#undef HWPROF_SC_SENSITIVE
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
#define HWPROF_SC_WRITE_OUT(name, sc_type, member) name##_o.write(o.member);
  HWPROF_TOP_OUTPUTS(HWPROF_SC_WRITE_OUT)
#undef HWPROF_SC_WRITE_OUT
  mem_req_wdata_o.write(line_to_bv(o.mem_req_wdata));
}

void ModelSc::inject_fault() {
  // the pir's count of accepted events: architecturally invisible until software reads
  // STAT_EVENTS, which the platform always does after the program ends, so the fault is caught
  // on every program (a fault in live profiling state can be masked, e.g. by an unsampled trace)
  state_.pir.stats.count[HWPROF_PIR_ST_EVENTS] ^= 1u;
}

}  // namespace hwprof_sc
