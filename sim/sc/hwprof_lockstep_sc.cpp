// The RTL and the C model of hwprof_top in lockstep; see hwprof_lockstep_sc.h.
#include "hwprof_lockstep_sc.h"

#include <cinttypes>
#include <cstdio>

#include "top_compare.h"

namespace hwprof_sc {

LockstepSc::LockstepSc(sc_module_name name, int64_t inject_cycle) : sc_module(name), inject_cycle_(inject_cycle) {
  bind_inputs(rtl, *this);
  bind_inputs(model, *this);
  rtl.ev_ready_o(ev_ready_o);
  rtl.prdata_o(prdata_o);
  rtl.pready_o(pready_o);
  rtl.pslverr_o(pslverr_o);
  rtl.mem_req_valid_o(mem_req_valid_o);
  rtl.mem_req_write_o(mem_req_write_o);
  rtl.mem_req_addr_o(mem_req_addr_o);
  rtl.mem_req_wdata_o(mem_req_wdata_o);
  rtl.irq_phase_o(irq_phase_o);
  rtl.irq_trace_o(irq_trace_o);
  rtl.irq_coproc_o(irq_coproc_o);
  rtl.irq_error_o(irq_error_o);
  rtl.upd_valid_o(upd_valid_o);
  rtl.upd_addr_o(upd_addr_o);
  rtl.upd_dec_o(upd_dec_o);
  model.ev_ready_o(m_ev_ready_);
  model.prdata_o(m_prdata_);
  model.pready_o(m_pready_);
  model.pslverr_o(m_pslverr_);
  model.mem_req_valid_o(m_mem_req_valid_);
  model.mem_req_write_o(m_mem_req_write_);
  model.mem_req_addr_o(m_mem_req_addr_);
  model.mem_req_wdata_o(m_mem_req_wdata_);
  model.irq_phase_o(m_irq_phase_);
  model.irq_trace_o(m_irq_trace_);
  model.irq_coproc_o(m_irq_coproc_);
  model.irq_error_o(m_irq_error_);
  model.upd_valid_o(m_upd_valid_);
  model.upd_addr_o(m_upd_addr_);
  model.upd_dec_o(m_upd_dec_);
  SC_METHOD(check);
  sensitive << clk_i.pos();
  dont_initialize();
}

// Runs at each rising edge, before any register has taken the edge's values into account: the
// pins and outputs still hold what the cycle that just ended settled on. Cycles in reset are not
// compared (the RTL's flops start at random values until the first reset edge).
void LockstepSc::check() {
  if (!rst_ni.read()) return;
  const hwprof_top_out_t r = read_outputs(*this);
  const hwprof_top_out_t m = read_outputs(model);
  chk_.begin_cycle(cycle_);
  lockstep::compare_top_outputs(m, r, HWPROF_CFG_LINEWORDS, chk_);
  log_transactions(read_inputs(*this), r);
  if (chk_.failed()) {
    sc_stop();
    return;
  }
  if (static_cast<int64_t>(cycle_) == inject_cycle_) {
    model.inject_fault();
    add_tx({cycle_, 'i', 0, 0, 0, 0});
  }
  cycle_++;
}

// Only cycles that carry a transaction are logged.
void LockstepSc::log_transactions(const hwprof_top_in_t& in, const hwprof_top_out_t& r) {
  if (in.ev.valid && r.ev_ready)
    add_tx({cycle_, 'r', in.ev.pc, in.ev.insn, in.ev.pid, static_cast<unsigned>(in.ev.kind | in.ev.taken << 4)});
  if (in.apb.psel && in.apb.penable && r.apb.pready)
    add_tx({cycle_, 'a', in.apb.paddr, in.apb.pwrite ? in.apb.pwdata : r.apb.prdata, 0,
            static_cast<unsigned>(in.apb.pwrite | r.apb.pslverr << 1)});
  if (r.mem_req_valid && in.mem_req_ready) add_tx({cycle_, 'm', 0, 0, r.mem_req_addr, r.mem_req_write});
  if (in.mem_rsp_valid) add_tx({cycle_, 's', 0, 0, 0, 0});
}

void LockstepSc::report(FILE* to) const {
  if (!chk_.failed()) return;
  std::fprintf(to, "%s\n  last transactions on the pins:\n", chk_.report().c_str());
  for (size_t i = 0; i < tx_count_; i++) {
    const Tx& t = tx_[(tx_next_ + kTxDepth - tx_count_ + i) % kTxDepth];
    std::fprintf(to, "  cycle %" PRIu64 ": ", t.cycle);
    switch (t.what) {
      case 'r':
        std::fprintf(to, "retire %-6s pc=0x%08" PRIx32 " insn=0x%08" PRIx32 " taken=%u pid=%" PRIu64 "\n",
                     lockstep::kind_name(t.flags & 7u), t.a, t.b, t.flags >> 4, t.c);
        break;
      case 'a':
        std::fprintf(to, "apb %s 0x%03" PRIx32 " = 0x%08" PRIx32 "%s\n", (t.flags & 1u) ? "write" : "read ", t.a, t.b,
                     (t.flags & 2u) ? " (pslverr)" : "");
        break;
      case 'm':
        std::fprintf(to, "memory %s 0x%010" PRIx64 "\n", t.flags ? "write" : "read ", t.c);
        break;
      case 's':
        std::fprintf(to, "memory response\n");
        break;
      default:
        std::fprintf(to, "INJECT: C model pir statistics counter EVENTS bit 0 flipped\n");
        break;
    }
  }
}

}  // namespace hwprof_sc
