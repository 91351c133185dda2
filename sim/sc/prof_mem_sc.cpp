// The profile memory of the SystemC platform; see prof_mem_sc.h.
#include "prof_mem_sc.h"

namespace hwprof_sc {

constexpr unsigned kWordBytes = HWPROF_CFG_CNTW / 8;

ProfMemSc::ProfMemSc(sc_module_name name, rv_cpu_t* cpu, unsigned latency)
    : sc_module(name), cpu_(cpu), latency_(latency ? latency : 1) {
  SC_METHOD(tick);
  sensitive << clk_i.pos();
}

bool ProfMemSc::in_ram(uint64_t a) const {
  return a >= RV_RAM_BASE && a + kWordBytes <= RV_RAM_BASE + static_cast<uint64_t>(cpu_->ram_size);
}

// At each rising edge: act on the cycle that ended (its request, its response), then drive the
// next cycle's ready, response valid and data.
void ProfMemSc::tick() {
  if (!rst_ni.read()) {
    rd_pending_ = false;
  } else {
    const bool rsp_given = rsp_valid_o.read();
    const bool granted = req_valid_i.read() && req_ready_o.read();
    if (rsp_given) rd_pending_ = false;
    else if (rd_pending_) rd_wait_--;
    if (granted && req_write_i.read()) {
      writes_++;
      ep_line_t line;
      line_from_bv(req_wdata_i.read(), &line);
      for (unsigned w = 0; w < HWPROF_CFG_LINEWORDS; w++) {
        const uint64_t a = req_addr_i.read() + static_cast<uint64_t>(w) * kWordBytes;
        if (!in_ram(a)) {
          outside_++;
          continue;
        }
        for (unsigned b = 0; b < kWordBytes; b++) cpu_->ram[a - RV_RAM_BASE + b] = static_cast<uint8_t>(line.w[w] >> (8 * b));
      }
    } else if (granted) {
      reads_++;
      rd_pending_ = true;
      rd_addr_ = req_addr_i.read();
      rd_wait_ = latency_ - 1;
    }
  }
  const bool rsp = rd_pending_ && rd_wait_ == 0;
  req_ready_o.write(!rd_pending_);
  rsp_valid_o.write(rsp);
  if (rsp) {
    ep_line_t line{};
    for (unsigned w = 0; w < HWPROF_CFG_LINEWORDS; w++) {
      const uint64_t a = rd_addr_ + static_cast<uint64_t>(w) * kWordBytes;
      if (!in_ram(a)) {
        outside_++;
        continue;
      }
      for (unsigned b = 0; b < kWordBytes; b++) line.w[w] |= static_cast<uint64_t>(cpu_->ram[a - RV_RAM_BASE + b]) << (8 * b);
    }
    rsp_rdata_o.write(line_to_bv(line));
  }
}

}  // namespace hwprof_sc
