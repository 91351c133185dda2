// The CPU model (sim/rv32.c) as a SystemC module: the processor of seed 000's Figure 4 and of seeds
// 001/002, driving hwprof_top's retire-event port, the APB requester for its memory-mapped
// registers, and taking the four interrupt lines (ORed into the external interrupt).
//
// Timing, one instruction at a time (the same cycles as sim/platform.c, the C-only platform):
// - at a falling clock edge the CPU executes its next instruction and drives its retire event;
// - at each rising edge it samples ev_ready: the event is accepted at the first edge with ready
//   high; every edge with ready low is a stall cycle and the event stays on the pins;
// - a 32-bit load or store to [PLATFORM_HWPROF_BASE, +64 KiB) is one APB transfer made while the
//   instruction executes: setup cycle, then access cycles until pready; the instruction retires
//   after it (its event is driven in the next cycle);
// - an interrupt taken (no instruction retires) is one cycle with ev_valid low;
// - the interrupt lines are sampled at the rising edge before each instruction.
#ifndef HWPROF_SC_CPU_SC_H
#define HWPROF_SC_CPU_SC_H

#include <cstdint>
#include <cstdio>
#include <functional>

#include "lib/apb_master.h"
#include "hwprof_pins.h"

extern "C" {
#include "platform.h" /* PLATFORM_HWPROF_BASE, PLATFORM_HWPROF_SIZE */
#include "rv32.h"
}

namespace hwprof_sc {

SC_MODULE(CpuSc) {
  sc_in<bool> clk_i{"clk_i"}, rst_ni{"rst_ni"};
  // the requester's side of the retire-event and APB ports (tb/top/top_ports.h)
  HWPROF_TOP_EV_INPUTS(HWPROF_SC_OUT_PORT)
  HWPROF_TOP_APB_INPUTS(HWPROF_SC_OUT_PORT)
  sc_in<bool> ev_ready_i{"ev_ready_i"};
  sc_in<uint32_t> prdata_i{"prdata_i"};
  sc_in<bool> pready_i{"pready_i"}, pslverr_i{"pslverr_i"};
  sc_in<bool> irq_phase_i{"irq_phase_i"}, irq_trace_i{"irq_trace_i"}, irq_coproc_i{"irq_coproc_i"},
      irq_error_i{"irq_error_i"};

  struct Stats {
    uint64_t cycles = 0;        // from the first instruction to the acceptance of the last one
    uint64_t stall_cycles = 0;  // rising edges with a retire event waiting for ev_ready
    uint64_t interrupts = 0;
    uint64_t apb_accesses = 0;
    uint64_t apb_errors = 0;
    uint64_t apb_wait_cycles = 0;  // access cycles with pready low
  };

  // The CPU is the caller's (its RAM also backs the profile memory). After the program ends,
  // `after_exit` runs in the CPU's thread (it may use apb()), then the simulation stops.
  CpuSc(sc_module_name name, rv_cpu_t* cpu, uint64_t max_insns, uint64_t progress_every);
  SC_HAS_PROCESS(CpuSc);

  // One APB transfer; only from the CPU's thread (the MMIO callbacks, after_exit).
  uint32_t apb(bool write, uint32_t addr, uint32_t wdata);

  std::function<void(CpuSc&)> after_exit;
  // Runs in the CPU's thread after reset, before the first instruction (host configuration).
  std::function<void(CpuSc&)> before_run;
  // Called on every accepted retire event (the trace checker), in the CPU's thread at the falling
  // edge after the acceptance, when the engines have taken the event.
  std::function<void(const hwprof_retire_ev_t&)> on_retire;
  // Runs in the CPU's thread between two instructions, at the falling edge before the next one, with
  // no event valid (it may use apb(): the trace drain empties the FIFO here).
  std::function<void(CpuSc&)> between;
  bool irq_trace() const { return irq_trace_i.read(); }

  rv_status_t status() const { return status_; }
  bool ran_away() const { return ran_away_; }
  const Stats& stats() const { return stats_; }

 private:
  void run();
  void drive_event(const hwprof_retire_ev_t& e);
  void drive_apb();
  void sample_irq();
  static uint32_t mmio_read(void* ctx, uint32_t off);
  static void mmio_write(void* ctx, uint32_t off, uint32_t v);

  rv_cpu_t* cpu_;
  uint64_t max_insns_, progress_every_;
  rv_status_t status_ = RV_RUNNING;
  bool ran_away_ = false;
  Stats stats_;
  hwprof_apb_master_t apb_{};  // the APB requester (tb/lib/apb_master.h)
};

}  // namespace hwprof_sc

#endif  // HWPROF_SC_CPU_SC_H
