// The RTL and the C model of hwprof_top in lockstep; see hwprof_lockstep_sc.h.
#include "hwprof_lockstep_sc.h"

#include <cinttypes>
#include <cstdio>

#include "top/top_compare.h"

namespace hwprof_sc {

LockstepSc::LockstepSc(sc_module_name name, int64_t inject_cycle) : sc_module(name), inject_cycle_(inject_cycle) {
  bind_inputs(rtl, *this);
  bind_inputs(model, *this);
#define HWPROF_SC_BIND_RTL(name, sc_type, member) rtl.name##_o(name##_o);
#define HWPROF_SC_BIND_MODEL(name, sc_type, member) model.name##_o(m_##name##_);
  HWPROF_TOP_OUTPUTS(HWPROF_SC_BIND_RTL)
  HWPROF_TOP_OUTPUTS(HWPROF_SC_BIND_MODEL)
#undef HWPROF_SC_BIND_RTL
#undef HWPROF_SC_BIND_MODEL
  rtl.mem_req_wdata_o(mem_req_wdata_o);
  model.mem_req_wdata_o(m_mem_req_wdata_);
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
  lockstep::compare_top_outputs(m, r, HWPROF_PARAM_LINEWORDS, chk_);
  const hwprof_top_in_t in = read_inputs(*this);
  proto_.cycle(r, in.mem_req_ready, in.mem_rsp_valid, chk_);
  log_transactions(in, r);
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
