// The profile memory of the SystemC platform; see prof_mem_sc.h.
#include "prof_mem_sc.h"

namespace hwprof_sc {

ProfMemSc::ProfMemSc(sc_module_name name, rv_cpu_t* cpu, unsigned latency, unsigned grant_pct) : sc_module(name) {
  const unsigned lat = latency ? latency : 1;
  const hwprof_mem_model_cfg_t mc{RV_RAM_BASE, cpu->ram_size, HWPROF_PARAM_CNTW, HWPROF_PARAM_LINEWORDS, lat, lat,
                                  grant_pct ? grant_pct : 100, 0};
  if (hwprof_mem_model_init_over(&mem_, &mc, cpu->ram) != kHwprofOk) {
    SC_REPORT_FATAL("ProfMemSc", "the profile memory cannot be set up over the CPU's RAM");
  }
  SC_METHOD(tick);
  sensitive << clk_i.pos();
}

// At each rising edge: act on the cycle that ended (its request, its response), then drive the
// next cycle's ready, response valid and data.
void ProfMemSc::tick() {
  if (!rst_ni.read()) {
    mem_.rd_pending = false;
  } else {
    hwprof_mem_req_t q{};
    q.valid = req_valid_i.read();
    q.write = req_write_i.read();
    q.addr = req_addr_i.read();
    if (q.valid && q.write) line_from_bv(req_wdata_i.read(), &q.wdata);
    hwprof_mem_model_step(&mem_, &q);
  }
  hwprof_mem_rsp_t r;
  hwprof_mem_model_comb(&mem_, &r);
  req_ready_o.write(r.ready);
  rsp_valid_o.write(r.rsp_valid);
  if (r.rsp_valid) rsp_rdata_o.write(line_to_bv(r.rdata));
}

}  // namespace hwprof_sc
