// hwprof-sc: the whole system in SystemC. The CPU model runs an RV32IM ELF program; its retire
// events, its APB transfers to the memory-mapped hwprof registers and the interrupt lines connect
// it to hwprof_top, which is the Verilated RTL (--engine=rtl), the C model (--engine=model) or both
// in lockstep with every output compared on every cycle (--engine=lockstep); the profile memory
// behind hwprof_top is the program's RAM. Firmware linked into the program (sw/fw/rt/) runs as its
// interrupt handler. The program's console output goes to stdout, the report to stderr.
//
// The options, checks and outputs it shares with hwprof-sim are wired in sim/runner.c.
//
// Exit status (sw/include/hwprof_exit.h, docs/tools.md): the program's exit code; 1 a bad input file;
// 2 bad arguments; 3 the program ran away; 4 a check failed; 5 the RTL and the C model differ.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "Vhwprof_top.h"
#include "cpu_sc.h"
#include "hwprof_lockstep_sc.h"
#include "hwprof_model_sc.h"
#include "hwprof_pins.h"
#include "prof_mem_sc.h"
#include "verilated.h"
#include "verilated_fst_sc.h"

extern "C" {
#include "hwprof_exit.h"
}
#include "runner.h"

extern char** environ;

namespace {

using namespace hwprof_sc;

const sc_time kPeriod(10, SC_NS);

// The SystemC platform's own options (the shared ones: runner_opts_t).
struct Options {
  std::string engine = "lockstep";
  uint64_t mem_grant = 100;
  std::string fst;
  uint64_t fst_from = 0;
  int64_t inject = -1;
  bool replay = false;  // internal: the waveform re-run after a mismatch
};

const char kHead[] =
    "usage: hwprof-sc [options] PROGRAM.elf\n"
    "Runs an RV32IM ELF program (picolibc, --oslib=semihost, linked at 0x80000000) on the whole\n"
    "system in SystemC: the CPU model, the APB bus, hwprof_top, its profile memory (the program's\n"
    "RAM) and the interrupt lines.\n\n"
    "The SystemC platform's own options:\n"
    "  --engine=E      hwprof_top as rtl (Verilated), model (the C model) or lockstep (both, every\n"
    "                  output compared on every cycle; the default)\n"
    "  --mem-grant=P   the profile memory accepts a request in a cycle with chance P% (1..100,\n"
    "                  default 100): below 100 the cache's requests wait for ready\n"
    "  --fst=FILE      rtl and lockstep: write the RTL's waveform (from --fst-from=CYCLE on)\n"
    "  --inject=CYCLE  lockstep: corrupt the C model's state at CYCLE (shows the mismatch report)\n"
    "Options of both platforms (sim/runner.c):\n";
const char kTail[] =
    "On a lockstep mismatch the run is repeated with a waveform of the last 200 cycles.\n"
    "Exit status (docs/tools.md): the program's; 1 a bad input file (the ELF, a map) or an output\n"
    "that could not be written; 2 bad arguments; 3 the program ran away; 4 a trace, edge, path\n"
    "or value check failed; 5 the RTL and the C model differ.\n";

// One of the platform's own options (runner_own_opt_fn): 1 taken, 0 not one, -1 bad (printed).
int own_opt(void* ctx, const char* a) {
  Options* o = static_cast<Options*>(ctx);
  uint64_t v;
  int t;
  if ((t = runner_num_opt("hwprof-sc", a, "--mem-grant", 1, 100, &o->mem_grant)) ||
      (t = runner_num_opt("hwprof-sc", a, "--fst-from", 0, UINT64_MAX, &o->fst_from)))
    return t;
  if ((t = runner_num_opt("hwprof-sc", a, "--inject", 0, INT64_MAX, &v)) != 0) {
    o->inject = static_cast<int64_t>(v);
    return t;
  }
  if (!std::strncmp(a, "--engine=", 9)) {
    o->engine = a + 9;
    if (o->engine != "rtl" && o->engine != "model" && o->engine != "lockstep") {
      std::fprintf(stderr, "hwprof-sc: error: argument '%s': expects rtl, model or lockstep\n", a);
      return -1;
    }
    return 1;
  }
  if (!std::strncmp(a, "--fst=", 6) && a[6]) {
    o->fst = a + 6;
    return 1;
  }
  if (!std::strcmp(a, "--replay")) {
    o->replay = true;
    return 1;
  }
  return 0;
}

// Returns -1 to run, or the exit code (0 after --help, 2 after one error).
int parse(int argc, char** argv, runner_opts_t* ro, Options* o) {
  int rc = runner_parse(argc, argv, "hwprof-sc", kHead, kTail, ro, own_opt, o);
  if (rc >= 0) return rc;
  if ((rc = runner_opts_need(ro, "hwprof-sc", true, "", o->engine != "rtl", "use --engine=model or lockstep")) != 0)
    return rc;
  const char* why = nullptr;
  if (!o->fst.empty() && o->engine == "model") why = "--fst records the RTL: use --engine=rtl or lockstep";
  else if (o->inject >= 0 && o->engine != "lockstep") why = "--inject needs --engine=lockstep";
  if (why) {
    std::fprintf(stderr, "hwprof-sc: error: %s\n", why);
    return HWPROF_EXIT_USAGE;
  }
  return -1;
}

// Holds rst_n low for the first two rising edges and releases it at the next falling edge.
SC_MODULE(ResetGen) {
  sc_in<bool> clk_i{"clk_i"};
  sc_out<bool> rst_no{"rst_no"};
  SC_CTOR(ResetGen) { SC_THREAD(run); }
  void run() {
    rst_no.write(false);
    wait(clk_i.posedge_event());
    wait(clk_i.posedge_event());
    wait(clk_i.negedge_event());
    rst_no.write(true);
  }
};

// Opens the waveform at a given cycle (a whole run's waveform of a long program is large).
SC_MODULE(WaveStarter) {
  sc_in<bool> clk_i{"clk_i"};
  VerilatedFstSc* tfp = nullptr;
  std::string path;
  uint64_t from = 0;
  SC_CTOR(WaveStarter) {
    SC_METHOD(tick);
    sensitive << clk_i.pos();
  }
  void tick() {
    if (tfp && !tfp->isOpen() && cycle_ >= from) tfp->open(path.c_str());
    cycle_++;
  }

 private:
  uint64_t cycle_ = 0;
};

// Re-runs this program with a waveform of the cycles before the mismatch; returns the FST's path.
std::string replay_with_waves(int argc, char** argv, const std::string& elf, uint64_t fail_cycle) {
  std::string base = elf.substr(elf.find_last_of('/') + 1);
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".elf") == 0) base.resize(base.size() - 4);
  std::string path = base + "-mismatch.fst";
  const uint64_t from = fail_cycle > 200 ? fail_cycle - 200 : 0;
  std::vector<std::string> args(argv, argv + argc);
  args.push_back("--fst=" + path);
  args.push_back("--fst-from=" + std::to_string(from + 2));  // + the two reset cycles
  args.push_back("--quiet");
  args.push_back("--replay");
  std::vector<char*> cargs;
  for (auto& s : args) cargs.push_back(&s[0]);
  cargs.push_back(nullptr);
  pid_t pid;
  int status = 0;
  std::fflush(nullptr);
  // the replay's console output and report are not wanted: only its waveform
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  if (posix_spawn(&pid, "/proc/self/exe", &fa, nullptr, cargs.data(), environ) != 0 || waitpid(pid, &status, 0) < 0)
    path.clear();
  posix_spawn_file_actions_destroy(&fa);
  return path;
}

// The hwprof statistics, read over APB by the CPU after the program ended (the same for every
// engine: the report shows what software can see).
struct HwStats {
  uint32_t pir_events, pir_updates;
  uint32_t ep_updates, ep_hits, ep_misses, ep_wbs, ep_stalls, ep_dropped, ep_ovf, ep_udf;
  uint32_t tc_back, tc_ind, tc_full, tc_filt, tc_samp, tc_drop;
};

// Register access for the drivers of sw/ from the CPU's thread (host side, after the program).
const hwprof_bus_t kCpuBus = {
    [](void* ctx, uint16_t addr) { return static_cast<CpuSc*>(ctx)->apb(false, addr, 0); },
    [](void* ctx, uint16_t addr, uint32_t v) { static_cast<CpuSc*>(ctx)->apb(true, addr, v); },
};

void read_stats(CpuSc& cpu, HwStats* s) {
  struct {
    uint32_t addr;
    uint32_t* to;
  } regs[] = {
      {HWPROF_PIR_STAT_EVENTS_ADDR, &s->pir_events},
      {HWPROF_PIR_STAT_UPDATES_ADDR, &s->pir_updates},
      {HWPROF_EDGE_PROF_STAT_UPDATES_ADDR, &s->ep_updates},
      {HWPROF_EDGE_PROF_STAT_HITS_ADDR, &s->ep_hits},
      {HWPROF_EDGE_PROF_STAT_MISSES_ADDR, &s->ep_misses},
      {HWPROF_EDGE_PROF_STAT_WRITEBACKS_ADDR, &s->ep_wbs},
      {HWPROF_EDGE_PROF_STAT_STALLS_ADDR, &s->ep_stalls},
      {HWPROF_EDGE_PROF_STAT_DROPPED_ADDR, &s->ep_dropped},
      {HWPROF_EDGE_PROF_STAT_OVERFLOWS_ADDR, &s->ep_ovf},
      {HWPROF_EDGE_PROF_STAT_UNDERFLOWS_ADDR, &s->ep_udf},
      {HWPROF_TRACE_CTRL_STAT_END_BACKWARD_ADDR, &s->tc_back},
      {HWPROF_TRACE_CTRL_STAT_END_INDIRECT_ADDR, &s->tc_ind},
      {HWPROF_TRACE_CTRL_STAT_END_FULL_ADDR, &s->tc_full},
      {HWPROF_TRACE_CTRL_STAT_FILTERED_ADDR, &s->tc_filt},
      {HWPROF_TRACE_CTRL_STAT_SAMPLED_ADDR, &s->tc_samp},
      {HWPROF_TRACE_CTRL_STAT_DROPPED_ADDR, &s->tc_drop},
  };
  for (auto& r : regs) *r.to = cpu.apb(false, r.addr, 0);
}

}  // namespace

int sc_main(int argc, char** argv) {
  static runner_opts_t ro;
  Options o;
  const int prc = parse(argc, argv, &ro, &o);
  if (prc >= 0) return prc;
  const std::string elf = ro.elf;
  sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", SC_DO_NOTHING);
  sc_report_handler::set_actions("/OSCI/SystemC", SC_INFO, SC_DO_NOTHING);  // "simulation stopped by user"
  Verilated::commandArgs(argc, argv);

  static rv_cpu_t cpu;
  if (rv_init(&cpu, static_cast<uint32_t>(ro.ram)) != 0 || rv_load_elf(&cpu, ro.elf) != 0) {
    std::fprintf(stderr, "hwprof-sc: error: %s\n", cpu.error);
    rv_free(&cpu);
    return HWPROF_EXIT_BAD_FILE;
  }
  cpu.cmdline = ro.elf;
  if (o.replay) cpu.console = std::fopen("/dev/null", "w");

  sc_clock clk("clk", kPeriod);
  Wires w;
  ResetGen rst("rst");
  rst.clk_i(clk);
  rst.rst_no(w.rst_n);

  CpuSc cpu_sc("cpu", &cpu, ro.max_insns, ro.quiet ? 0 : ro.progress);
  cpu_sc.clk_i(clk);
  cpu_sc.rst_ni(w.rst_n);
#define HWPROF_SC_BIND_CPU(name, sc_type, member) cpu_sc.name##_o(w.name);
  HWPROF_TOP_EV_INPUTS(HWPROF_SC_BIND_CPU)
  HWPROF_TOP_APB_INPUTS(HWPROF_SC_BIND_CPU)
#undef HWPROF_SC_BIND_CPU
  cpu_sc.ev_ready_i(w.ev_ready);
  cpu_sc.prdata_i(w.prdata);
  cpu_sc.pready_i(w.pready);
  cpu_sc.pslverr_i(w.pslverr);
  cpu_sc.irq_phase_i(w.irq_phase);
  cpu_sc.irq_trace_i(w.irq_trace);
  cpu_sc.irq_coproc_i(w.irq_coproc);
  cpu_sc.irq_error_i(w.irq_error);

  ProfMemSc mem("mem", &cpu, static_cast<unsigned>(ro.mem_latency), static_cast<unsigned>(o.mem_grant));
  mem.clk_i(clk);
  mem.rst_ni(w.rst_n);
  mem.req_valid_i(w.mem_req_valid);
  mem.req_ready_o(w.mem_req_ready);
  mem.req_write_i(w.mem_req_write);
  mem.req_addr_i(w.mem_req_addr);
  mem.req_wdata_i(w.mem_req_wdata);
  mem.rsp_valid_o(w.mem_rsp_valid);
  mem.rsp_rdata_o(w.mem_rsp_rdata);

  if (o.engine != "model") Verilated::traceEverOn(!o.fst.empty());
  std::unique_ptr<Vhwprof_top> rtl;
  std::unique_ptr<ModelSc> model;
  std::unique_ptr<LockstepSc> both;
  Vhwprof_top* traced = nullptr;
  const ModelSc* observed = nullptr;
  if (o.engine == "rtl") {
    rtl.reset(new Vhwprof_top("hwprof_top"));
    bind_hwprof(*rtl, clk, w);
    traced = rtl.get();
  } else if (o.engine == "model") {
    model.reset(new ModelSc("hwprof_top"));
    bind_hwprof(*model, clk, w);
    observed = model.get();
  } else {
    both.reset(new LockstepSc("hwprof_top", o.inject));
    bind_hwprof(*both, clk, w);
    traced = &both->rtl;
    observed = &both->model;
  }
  WaveStarter waves("waves");
  waves.clk_i(clk);

  // the checks and outputs the options ask for (sim/runner.c): configured by the CPU before the
  // program's first instruction, fed on every retire after the rising edge that accepted it (the
  // hardware has taken it), flushed and drained by the CPU after the program
  static runner_checks_t r;
  const hwprof_top_cfg_t cfg = model_cfg();
  if (int rc = runner_checks_init(&r, &ro, "hwprof-sc", &cpu, &cfg)) {
    rv_free(&cpu);
    return rc;
  }
  cpu_sc.before_run = [](CpuSc& c) { (void)runner_checks_start(&r, &kCpuBus, &c); };  // a failure: in finish
  if (r.observe) {
    const hwprof_trace_ctrl_state_t* tc = ro.trace_check ? &observed->state().trace_ctrl : nullptr;
    cpu_sc.on_retire = [tc](const hwprof_retire_ev_t& ev) { runner_checks_retire(&r, &ev, tc); };
  } else {
    cpu_sc.on_retire = [](const hwprof_retire_ev_t& ev) { runner_checks_retire(&r, &ev, nullptr); };
  }
  if (ro.trace_out) cpu_sc.between = [](CpuSc& c) { runner_checks_between(&r, c.irq_trace()); };
  HwStats hw{};
  cpu_sc.after_exit = [&hw](CpuSc& c) {
    read_stats(c, &hw);  // before the flush: its write-backs are not the program's
    runner_checks_exit(&r, &kCpuBus, &c, c.status() == RV_EXITED);
  };

  sc_start(SC_ZERO_TIME);
  std::unique_ptr<VerilatedFstSc> tfp;
  if (!o.fst.empty()) {
    tfp.reset(new VerilatedFstSc);
    traced->trace(tfp.get(), 99);
    waves.tfp = tfp.get();
    waves.path = o.fst;
    waves.from = o.fst_from;
  }
  const auto wall0 = std::chrono::steady_clock::now();
  sc_start();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  if (tfp && tfp->isOpen()) tfp->close();
  std::fflush(stdout);

  int rc;
  const rv_status_t st = cpu_sc.status();
  const bool mismatch = both && both->failed();
  if (mismatch) {
    rc = HWPROF_EXIT_MISMATCH;
  } else if (st == RV_EXITED) {
    rc = cpu.exit_code & 0xff;
  } else if (cpu_sc.ran_away()) {
    std::fprintf(stderr, "hwprof-sc: error: %s: still running after %" PRIu64 " instructions (--max-insns)\n",
                 ro.elf, cpu.instret);
    rc = HWPROF_EXIT_RAN_AWAY;
  } else {
    std::fprintf(stderr, "hwprof-sc: error: %s: %s\n", ro.elf, cpu.error);
    rc = HWPROF_EXIT_RAN_AWAY;
  }
  if (o.replay) return rc;
  if (mismatch) {
    std::fprintf(stderr, "hwprof-sc: %s: the RTL and the C model of hwprof_top differ\n", ro.elf);
    both->report(stderr);
    const std::string fst = o.fst.empty() ? replay_with_waves(argc, argv, elf, both->fail_cycle()) : o.fst;
    if (!fst.empty()) std::fprintf(stderr, "  waveform of the RTL up to the mismatch: %s\n", fst.c_str());
    runner_checks_free(&r);  // the checks compare the hardware's results: not when the two engines differ
    rv_free(&cpu);
    return rc;
  }
  const CpuSc::Stats& s = cpu_sc.stats();
  if (!ro.quiet) {
    std::fprintf(stderr, "hwprof-sc: %s on the SystemC platform, hwprof_top engine: %s\n", ro.elf, o.engine.c_str());
    std::fprintf(stderr, "  run: %" PRIu64 " instructions, exit code %d\n", cpu.instret,
                 st == RV_EXITED ? cpu.exit_code : -1);
    runner_checks_report_program(&r, stderr);
    std::fprintf(stderr,
                 "  system: %" PRIu64 " cycles (%.3f cycles per instruction), %" PRIu64 " stall cycles, %" PRIu64
                 " interrupts, %" PRIu64 " register accesses (%" PRIu64 " wait cycles, %" PRIu64 " errors)\n",
                 s.cycles, cpu.instret ? static_cast<double>(s.cycles) / cpu.instret : 0.0, s.stall_cycles,
                 s.interrupts, s.apb_accesses, s.apb_wait_cycles, s.apb_errors);
    std::fprintf(stderr, "  profile memory: %" PRIu64 " line reads, %" PRIu64 " line writes (latency %" PRIu64 ")\n",
                 mem.reads(), mem.writes(), ro.mem_latency);
    std::fprintf(stderr,
                 "  edge profiling: %u events, %u update operations; cache %u performed, %u hits, %u misses, "
                 "%u write-backs, %u stall cycles, %u dropped, %u overflows, %u underflows\n",
                 hw.pir_events, hw.pir_updates, hw.ep_updates, hw.ep_hits, hw.ep_misses, hw.ep_wbs, hw.ep_stalls,
                 hw.ep_dropped, hw.ep_ovf, hw.ep_udf);
    std::fprintf(stderr,
                 "  traces: ended backward %u, indirect %u, full %u; filtered %u, sampled %u, dropped %u\n",
                 hw.tc_back, hw.tc_ind, hw.tc_full, hw.tc_filt, hw.tc_samp, hw.tc_drop);
    if (both) {
      std::fprintf(stderr, "  port protocol: %" PRIu64 " cycles a request was held for ready, %" PRIu64
                           " line reads answered\n", both->held_cycles(), both->reads_answered());
      std::fprintf(stderr, "  lockstep: %" PRIu64 " cycles compared (%" PRIu64 " signal comparisons), 0 mismatches\n",
                   both->cycles_compared(), both->compares());
    }
    std::fprintf(stderr, "  speed: %.2f s, %.2f M instructions/s, %.2f M cycles/s\n", secs,
                 secs > 0 ? cpu.instret / secs / 1e6 : 0.0, secs > 0 ? s.cycles / secs / 1e6 : 0.0);
  }
  rc = runner_checks_finish(&r, rc, st == RV_EXITED, s.interrupts);
  rv_free(&cpu);
  return rc;
}

// SystemC prints its banner before sc_main; the report should start with the program's output.
int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
