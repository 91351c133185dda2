// The profile memory behind hwprof_top's memory port, in the SystemC platform: counter lines live in
// the CPU's RAM (the counter area is part of the program's memory, as in seed 000). The responder
// is cmodel/mem/mem_model.c, as in sim/platform.c and the block benches, over the CPU's RAM: a request
// is granted whenever no read is outstanding; a write-back is stored at the edge that accepts it; a
// line read is answered `latency` cycles later with the line as it is in RAM at the edge that
// starts the response cycle.
#ifndef HWPROF_SC_PROF_MEM_SC_H
#define HWPROF_SC_PROF_MEM_SC_H

#include <cstdint>

#include "hwprof_pins.h"

extern "C" {
#include "mem/mem_model.h"
#include "rv32.h"
}

namespace hwprof_sc {

SC_MODULE(ProfMemSc) {
  sc_in<bool> clk_i{"clk_i"}, rst_ni{"rst_ni"};
  sc_in<bool> req_valid_i{"req_valid_i"}, req_write_i{"req_write_i"};
  sc_out<bool> req_ready_o{"req_ready_o"};
  sc_in<uint64_t> req_addr_i{"req_addr_i"};
  sc_in<line_bv> req_wdata_i{"req_wdata_i"};
  sc_out<bool> rsp_valid_o{"rsp_valid_o"};
  sc_out<line_bv> rsp_rdata_o{"rsp_rdata_o"};

  // grant_pct: the chance, in percent, that the port accepts a request in a cycle (100: always)
  ProfMemSc(sc_module_name name, rv_cpu_t* cpu, unsigned latency, unsigned grant_pct = 100);
  SC_HAS_PROCESS(ProfMemSc);

  ~ProfMemSc() override { hwprof_mem_model_free(&mem_); }
  uint64_t reads() const { return mem_.reads; }
  uint64_t writes() const { return mem_.writes; }
  uint64_t outside() const { return mem_.errors; }  // words outside RAM (read as 0, writes dropped)

 private:
  void tick();

  hwprof_mem_model_t mem_{};
};

}  // namespace hwprof_sc

#endif  // HWPROF_SC_PROF_MEM_SC_H
