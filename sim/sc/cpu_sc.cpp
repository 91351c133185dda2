// The CPU model as a SystemC module; see cpu_sc.h.
#include "cpu_sc.h"

#include <chrono>
#include <cinttypes>

namespace hwprof_sc {

CpuSc::CpuSc(sc_module_name name, rv_cpu_t* cpu, uint64_t max_insns, uint64_t progress_every)
    : sc_module(name), cpu_(cpu), max_insns_(max_insns), progress_every_(progress_every) {
  cpu_->mmio = rv_mmio_t{PLATFORM_HWPROF_BASE, PLATFORM_HWPROF_SIZE, mmio_read, mmio_write, this};
  SC_THREAD(run);
}

uint32_t CpuSc::mmio_read(void* ctx, uint32_t off) { return static_cast<CpuSc*>(ctx)->apb(false, off, 0); }
void CpuSc::mmio_write(void* ctx, uint32_t off, uint32_t v) { static_cast<CpuSc*>(ctx)->apb(true, off, v); }

// Called at a falling edge (or right after another transfer ended at a rising edge): setup phase in
// the current cycle, access phase from the next rising edge until pready (tb/lib/apb_master.h). Returns
// at the rising edge that completed the transfer, with the bus idle again for the cycle that edge
// starts.
uint32_t CpuSc::apb(bool write, uint32_t addr, uint32_t wdata) {
  hwprof_apb_master_start(&apb_, write, static_cast<uint16_t>(addr), wdata);
  do {
    drive_apb();
    wait(clk_i.posedge_event());
    const hwprof_apb_rsp_t rsp{prdata_i.read(), pready_i.read(), pslverr_i.read()};
    if (hwprof_apb_master_edge(&apb_, &rsp)) break;
  } while (true);
  drive_apb();
  stats_.apb_accesses = apb_.accesses;
  stats_.apb_errors = apb_.errors;
  stats_.apb_wait_cycles = apb_.wait_cycles;
  return apb_.rdata;
}

void CpuSc::drive_apb() {
#define HWPROF_SC_DRIVE_APB(name, sc_type, member) name##_o.write(apb_.req.member);
  HWPROF_TOP_APB_INPUTS(HWPROF_SC_DRIVE_APB)
#undef HWPROF_SC_DRIVE_APB
}

void CpuSc::drive_event(const hwprof_retire_ev_t& e) {
  ev_valid_o.write(e.valid);
  if (!e.valid) return;
#define HWPROF_SC_DRIVE_EV(name, sc_type, member) name##_o.write(e.member);
  HWPROF_TOP_EV_INPUTS(HWPROF_SC_DRIVE_EV)
#undef HWPROF_SC_DRIVE_EV
}

void CpuSc::sample_irq() {
  cpu_->irq_line = irq_phase_i.read() || irq_trace_i.read() || irq_coproc_i.read() || irq_error_i.read();
}

void CpuSc::run() {
  ev_valid_o.write(false);
  psel_o.write(false);
  penable_o.write(false);
  // the reset generator releases rst_n at a falling edge: the first instruction executes there
  while (!rst_ni.read()) wait(rst_ni.posedge_event());
  const sc_clock* clock = dynamic_cast<const sc_clock*>(clk_i.get_interface());
  if (clock == nullptr) SC_REPORT_FATAL("hwprof", "CpuSc: clk_i must be bound to an sc_clock");
  const sc_time period = clock->period();
  if (before_run) {
    before_run(*this);  // returns at a rising edge
    wait(clk_i.negedge_event());
  }
  const sc_time start = sc_time_stamp();
  sc_time end = start;
  const auto wall0 = std::chrono::steady_clock::now();
  uint64_t next_progress = progress_every_;
  hwprof_retire_ev_t ev{};
  for (;;) {  // at a falling edge
    if (cpu_->instret >= max_insns_) {
      ran_away_ = true;
      break;
    }
    ev_valid_o.write(false);       // the previous event was accepted: not valid during any APB transfer
    if (between) between(*this);
    status_ = rv_step(cpu_, &ev);  // may make APB transfers (and so wait for clock edges)
    drive_event(ev);
    if (!ev.valid) stats_.interrupts += status_ == RV_RUNNING;
    wait(clk_i.posedge_event());
    if (ev.valid) {
      while (!ev_ready_i.read()) {
        stats_.stall_cycles++;
        wait(clk_i.posedge_event());
      }
    }
    sample_irq();
    end = sc_time_stamp();
    cpu_->cycle = (end - start).value() / period.value() + 1;  // mcycle: the clock cycles so far, as on the C platform
    if (progress_every_ && cpu_->instret >= next_progress) {
      next_progress += progress_every_;
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
      std::fprintf(stderr, "hwprof-sc: %.1f M instructions, %.1f M cycles, %.0f s (%.2f M instructions/s)\n",
                   cpu_->instret / 1e6, static_cast<double>((end - start).value() / period.value()) / 1e6, s,
                   s > 0 ? cpu_->instret / s / 1e6 : 0.0);
    }
    wait(clk_i.negedge_event());
    // observers run here, when every process of the accepting edge has run (the model has stepped)
    if (ev.valid && on_retire) on_retire(ev);
    if (status_ != RV_RUNNING) break;
  }
  ev_valid_o.write(false);
  // cycles: from the falling edge of the first instruction to the rising edge that accepted the last
  stats_.cycles = (end - start).value() / period.value() + 1;
  if (after_exit) after_exit(*this);
  sc_stop();
}

}  // namespace hwprof_sc
