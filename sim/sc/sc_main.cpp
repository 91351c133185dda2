// hwprof-sc: the whole system in SystemC. The CPU model runs an RV32IM ELF program; its retire
// events, its APB transfers to the memory-mapped hwprof registers and the interrupt lines connect
// it to hwprof_top, which is the Verilated RTL (--engine=rtl), the C model (--engine=model) or both
// in lockstep with every output compared on every cycle (--engine=lockstep); the profile memory
// behind hwprof_top is the program's RAM. Firmware linked into the program (sw/rt/) runs as its
// interrupt handler. The program's console output goes to stdout, the report to stderr.
//
// Exit status (sw/include/hwprof_exit.h, docs/tools.md): the program's exit code; 1 a bad input file;
// 2 bad arguments; 3 the program ran away; 4 a check failed; 5 the RTL and the C model differ.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
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
#include "check/edge_check.h"
#include "hwprof_edge.h"
#include "hwprof_exit.h"
#include "pp_readback.h"
#include "runner_args.h"
#include "check/trace_check.h"
#include "trace_drain.h"
}

extern char** environ;

namespace {

using namespace hwprof_sc;

const sc_time kPeriod(10, SC_NS);

struct Options {
  std::string elf;
  std::string engine = "lockstep";
  uint64_t max_insns = 200000000;
  uint64_t ram = 16u << 20;
  uint64_t mem_latency = 4;
  uint64_t mem_grant = 100;
  uint64_t progress = 0;
  std::string fst;
  uint64_t fst_from = 0;
  int64_t inject = -1;
  bool trace_check = false;
  std::string trace_out;
  std::string edge_map, edge_profile, edge_truth;
  std::string path_map, path_profile;
  bool quiet = false;
  bool replay = false;  // internal: the waveform re-run after a mismatch
};

const char kUsage[] =
               "usage: hwprof-sc [options] PROGRAM.elf\n"
               "Runs an RV32IM ELF program (picolibc, --oslib=semihost, linked at 0x80000000) on the whole\n"
               "system in SystemC: the CPU model, the APB bus, hwprof_top, its profile memory (the program's\n"
               "RAM) and the interrupt lines.\n\n"
               "  --engine=E       hwprof_top as rtl (Verilated), model (the C model) or lockstep (both, every\n"
               "                   output compared on every cycle; the default)\n"
               "  --max-insns=N    stop with an error after N instructions (default 200000000)\n"
               "  --ram=BYTES      RAM size at 0x80000000 (default 16777216)\n"
               "  --mem-latency=N  cycles from a counter-line read to its data (default 4)\n"
               "  --mem-grant=P    the profile memory accepts a request in a cycle with chance P%% (1..100,\n"
               "                   default 100): below 100 the cache's requests wait for ready\n"
               "  --trace-check    model and lockstep: enable the trace controller (every trace) and check\n"
               "                   each record against the executed instructions and its reconstruction\n"
               "  --trace-out=FILE drain every trace record from the controller's FIFO over APB into FILE\n"
               "                   between instructions (the records of the engine the CPU sees: the RTL in\n"
               "                   lockstep), a trace file for hwprof-wpp (docs/wpp.md); a program without firmware\n"
               "  --edge-map=MAP   a program instrumented by hwprof-instr: after it ends, flush the profile\n"
               "                   cache over APB, derive the edge profile from the counters and compare it\n"
               "                   with the exact edge counts of the run (--edge-profile=FILE,\n"
               "                   --edge-truth=FILE write the two)\n"
               "  --path-map=MAP   a program instrumented for paths (hwprof-instr --paths): after it ends,\n"
               "                   flush the profile cache over APB, check the pir's stacks and decode the\n"
               "                   counters (the RTL's, in lockstep) into --path-profile=FILE\n"
               "  --progress=N     print progress every N instructions\n"
               "  --fst=FILE       rtl and lockstep: write the RTL's waveform (from --fst-from=CYCLE on)\n"
               "  --inject=CYCLE   lockstep: corrupt the C model's state at CYCLE (shows the mismatch report)\n"
               "  --quiet          no report at the end\n"
               "  --help           this text\n"
               "On a lockstep mismatch the run is repeated with a waveform of the last 200 cycles.\n"
               "Exit status (docs/tools.md): the program's; 1 a bad input file (the ELF, a map) or an output\n"
               "that could not be written; 2 bad arguments; 3 the program ran away; 4 a trace, edge or path\n"
               "check failed; 5 the RTL and the C model differ.\n";

void usage(FILE* to) { std::fputs(kUsage, to); }

bool parse_u64(const char* s, uint64_t* out) {
  char* end = nullptr;
  errno = 0;
  if (*s == '\0' || *s == '-') return false;
  unsigned long long v = std::strtoull(s, &end, 0);
  if (errno || *end) return false;
  *out = v;
  return true;
}

// Returns 0, or the exit code for a bad command line (after printing one error).
int parse(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    auto num = [&](const char* name, uint64_t lo, uint64_t hi, uint64_t* v) {
      const size_t n = std::strlen(name);
      if (std::strncmp(a, name, n) || a[n] != '=') return false;
      if (!parse_u64(a + n + 1, v) || *v < lo || *v > hi) {
        std::fprintf(stderr, "hwprof-sc: error: argument '%s': expects an integer in %" PRIu64 "..%" PRIu64 "\n", a,
                     lo, hi);
        std::exit(HWPROF_EXIT_USAGE);
      }
      return true;
    };
    uint64_t v;
    if (!std::strcmp(a, "--help") || !std::strcmp(a, "-h")) {
      usage(stdout);
      std::exit(0);
    } else if (num("--max-insns", 1, UINT64_MAX, &o->max_insns) || num("--ram", 4096, UINT64_C(1) << 31, &o->ram) ||
               num("--mem-latency", 1, 1000, &o->mem_latency) || num("--mem-grant", 1, 100, &o->mem_grant) ||
               num("--progress", 1, UINT64_MAX, &o->progress) ||
               num("--fst-from", 0, UINT64_MAX, &o->fst_from)) {
    } else if (num("--inject", 0, INT64_MAX, &v)) {
      o->inject = static_cast<int64_t>(v);
    } else if (!std::strncmp(a, "--engine=", 9)) {
      o->engine = a + 9;
      if (o->engine != "rtl" && o->engine != "model" && o->engine != "lockstep") {
        std::fprintf(stderr, "hwprof-sc: error: argument '%s': expects rtl, model or lockstep\n", a);
        return HWPROF_EXIT_USAGE;
      }
    } else if (!std::strncmp(a, "--fst=", 6) && a[6]) {
      o->fst = a + 6;
    } else if (!std::strncmp(a, "--path-map=", 11) && a[11]) {
      o->path_map = a + 11;
    } else if (!std::strncmp(a, "--path-profile=", 15) && a[15]) {
      o->path_profile = a + 15;
    } else if (!std::strncmp(a, "--edge-map=", 11) && a[11]) {
      o->edge_map = a + 11;
    } else if (!std::strncmp(a, "--edge-profile=", 15) && a[15]) {
      o->edge_profile = a + 15;
    } else if (!std::strncmp(a, "--edge-truth=", 13) && a[13]) {
      o->edge_truth = a + 13;
    } else if (!std::strncmp(a, "--trace-out=", 12) && a[12]) {
      o->trace_out = a + 12;
    } else if (!std::strcmp(a, "--trace-check")) {
      o->trace_check = true;
    } else if (!std::strcmp(a, "--quiet")) {
      o->quiet = true;
    } else if (!std::strcmp(a, "--replay")) {
      o->replay = true;
    } else if (const int n = runner_arg_lacks_value(kUsage, a)) {
      std::fprintf(stderr, "hwprof-sc: error: option '%.*s' needs a value (%.*s=..., see --help)\n", n, a, n, a);
      return HWPROF_EXIT_USAGE;
    } else if (a[0] == '-') {
      std::fprintf(stderr, "hwprof-sc: error: unknown option '%s' (see --help)\n", a);
      return HWPROF_EXIT_USAGE;
    } else if (!o->elf.empty()) {
      std::fprintf(stderr, "hwprof-sc: error: more than one program given ('%s', '%s')\n", o->elf.c_str(), a);
      return HWPROF_EXIT_USAGE;
    } else {
      o->elf = a;
    }
  }
  if (o->elf.empty()) {
    std::fprintf(stderr, "hwprof-sc: error: no program given (see --help)\n");
    return HWPROF_EXIT_USAGE;
  }
  if (o->trace_check && o->engine == "rtl") {
    std::fprintf(stderr, "hwprof-sc: error: --trace-check observes the C model: use --engine=model or lockstep\n");
    return HWPROF_EXIT_USAGE;
  }
  if (o->trace_check && !o->trace_out.empty()) {
    std::fprintf(stderr, "hwprof-sc: error: --trace-check and --trace-out both configure the trace controller: give one\n");
    return HWPROF_EXIT_USAGE;
  }
  if (!o->fst.empty() && o->engine == "model") {
    std::fprintf(stderr, "hwprof-sc: error: --fst records the RTL: use --engine=rtl or lockstep\n");
    return HWPROF_EXIT_USAGE;
  }
  if (o->path_map.empty() != o->path_profile.empty()) {
    std::fprintf(stderr, "hwprof-sc: error: --path-map and --path-profile go together\n");
    return HWPROF_EXIT_USAGE;
  }
  if ((!o->edge_profile.empty() || !o->edge_truth.empty()) && o->edge_map.empty()) {
    std::fprintf(stderr, "hwprof-sc: error: --edge-profile and --edge-truth need --edge-map\n");
    return HWPROF_EXIT_USAGE;
  }
  if (o->inject >= 0 && o->engine != "lockstep") {
    std::fprintf(stderr, "hwprof-sc: error: --inject needs --engine=lockstep\n");
    return HWPROF_EXIT_USAGE;
  }
  return 0;
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
std::string replay_with_waves(int argc, char** argv, const Options& o, uint64_t fail_cycle) {
  std::string base = o.elf.substr(o.elf.find_last_of('/') + 1);
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
  Options o;
  if (int rc = parse(argc, argv, &o)) return rc;
  sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", SC_DO_NOTHING);
  sc_report_handler::set_actions("/OSCI/SystemC", SC_INFO, SC_DO_NOTHING);  // "simulation stopped by user"
  Verilated::commandArgs(argc, argv);

  static rv_cpu_t cpu;
  if (rv_init(&cpu, static_cast<uint32_t>(o.ram)) != 0 || rv_load_elf(&cpu, o.elf.c_str()) != 0) {
    std::fprintf(stderr, "hwprof-sc: error: %s\n", cpu.error);
    rv_free(&cpu);
    return HWPROF_EXIT_BAD_FILE;
  }
  cpu.cmdline = o.elf.c_str();
  if (o.replay) cpu.console = std::fopen("/dev/null", "w");

  sc_clock clk("clk", kPeriod);
  Wires w;
  ResetGen rst("rst");
  rst.clk_i(clk);
  rst.rst_no(w.rst_n);

  CpuSc cpu_sc("cpu", &cpu, o.max_insns, o.quiet ? 0 : o.progress);
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

  ProfMemSc mem("mem", &cpu, static_cast<unsigned>(o.mem_latency), static_cast<unsigned>(o.mem_grant));
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

  // the trace check: set up by the CPU before the program's first instruction, fed on every retire
  static trace_check_t tc;
  if (o.trace_check) {
    char err[240];
    if (trace_check_init(&tc, o.elf.c_str(), observed->cfg().trace_ctrl.hist_w, cpu.pc, stderr, err, sizeof err)) {
      std::fprintf(stderr, "hwprof-sc: error: %s\n", err);
      return HWPROF_EXIT_BAD_FILE;
    }
    cpu_sc.before_run = [](CpuSc& c) {
      trace_check_setup_t setup[TRACE_CHECK_SETUP_N];
      trace_check_setup(cpu.pc, setup);
      for (const auto& s : setup) c.apb(true, s.addr, s.data);
    };
  }
  // the trace drain: configured by the CPU before the program, emptied between instructions
  static trace_drain_t drain;
  static char drain_err[300];
  static bool drain_ok = false;
  if (!o.trace_out.empty()) {
    cpu_sc.before_run = [&o](CpuSc& c) {
      drain_ok = trace_drain_init(&drain, o.trace_out.c_str(), &kCpuBus, &c, cpu.pc, drain_err, sizeof drain_err) == 0;
    };
    cpu_sc.between = [](CpuSc& c) {
      if (drain_ok) trace_drain_poll(&drain, c.irq_trace());
    };
  }
  static edge_check_t ec;
  if (!o.edge_map.empty()) {
    char err[300];
    if (edge_check_init(&ec, o.edge_map.c_str(), HWPROF_CFG_CNTW, err, sizeof err)) {
      std::fprintf(stderr, "hwprof-sc: error: %s\n", err);
      return HWPROF_EXIT_BAD_FILE;
    }
  }
  // called after the rising edge that accepted the event: the model has taken it
  if (o.trace_check || !o.edge_map.empty() || !o.trace_out.empty())
    cpu_sc.on_retire = [observed, &o](const hwprof_retire_ev_t& ev) {
      if (drain_ok) trace_drain_event(&drain, &ev);
      if (o.trace_check) trace_check_event(&tc, &observed->state().trace_ctrl, &ev);
      if (!o.edge_map.empty()) edge_check_event(&ec, &ev);
    };
  HwStats hw{};
  int flushed = -1;
  int drained = -1;
  int path_flushed = -1;
  cpu_sc.after_exit = [&hw, &o, &flushed, &drained, &path_flushed](CpuSc& c) {
    if (drain_ok) drained = trace_drain_finish(&drain, drain_err, sizeof drain_err);
    read_stats(c, &hw);
    if (!o.edge_map.empty() && c.status() == RV_EXITED)
      flushed = edge_check_flush(&kCpuBus, &c);
    if (!o.path_map.empty() && c.status() == RV_EXITED) {
      const hwprof_t h = {0, &kCpuBus, &c};
      path_flushed = edge_check_flush(&kCpuBus, &c);
      if (path_flushed == 0 && hwprof_pir_path_check(&h) != kHwprofOk) path_flushed = -3;
    }
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
                 o.elf.c_str(), cpu.instret);
    rc = HWPROF_EXIT_RAN_AWAY;
  } else {
    std::fprintf(stderr, "hwprof-sc: error: %s: %s\n", o.elf.c_str(), cpu.error);
    rc = HWPROF_EXIT_RAN_AWAY;
  }
  if (o.replay) return rc;
  if (mismatch) {
    std::fprintf(stderr, "hwprof-sc: %s: the RTL and the C model of hwprof_top differ\n", o.elf.c_str());
    both->report(stderr);
    const std::string fst = o.fst.empty() ? replay_with_waves(argc, argv, o, both->fail_cycle()) : o.fst;
    if (!fst.empty()) std::fprintf(stderr, "  waveform of the RTL up to the mismatch: %s\n", fst.c_str());
  }
  const CpuSc::Stats& s = cpu_sc.stats();
  if (!o.quiet && !mismatch) {
    std::fprintf(stderr, "hwprof-sc: %s on the SystemC platform, hwprof_top engine: %s\n", o.elf.c_str(),
                 o.engine.c_str());
    std::fprintf(stderr, "  program: %" PRIu64 " instructions, exit code %d\n", cpu.instret,
                 st == RV_EXITED ? cpu.exit_code : -1);
    std::fprintf(stderr,
                 "  system: %" PRIu64 " cycles (%.3f cycles per instruction), %" PRIu64 " stall cycles, %" PRIu64
                 " interrupts, %" PRIu64 " register accesses (%" PRIu64 " wait cycles, %" PRIu64 " errors)\n",
                 s.cycles, cpu.instret ? static_cast<double>(s.cycles) / cpu.instret : 0.0, s.stall_cycles,
                 s.interrupts, s.apb_accesses, s.apb_wait_cycles, s.apb_errors);
    std::fprintf(stderr, "  profile memory: %" PRIu64 " line reads, %" PRIu64 " line writes (latency %" PRIu64 ")\n",
                 mem.reads(), mem.writes(), o.mem_latency);
    std::fprintf(stderr,
                 "  edge profiling: %u events, %u update operations; cache %u performed, %u hits, %u misses, "
                 "%u write-backs, %u stall cycles, %u dropped, %u overflows, %u underflows\n",
                 hw.pir_events, hw.pir_updates, hw.ep_updates, hw.ep_hits, hw.ep_misses, hw.ep_wbs, hw.ep_stalls,
                 hw.ep_dropped, hw.ep_ovf, hw.ep_udf);
    std::fprintf(stderr,
                 "  traces: ended backward %u, indirect %u, full %u; filtered %u, sampled %u, dropped %u\n",
                 hw.tc_back, hw.tc_ind, hw.tc_full, hw.tc_filt, hw.tc_samp, hw.tc_drop);
    if (o.trace_check) trace_check_report(&tc, stderr);
    if (both) {
      std::fprintf(stderr, "  port protocol: %" PRIu64 " cycles a request was held for ready, %" PRIu64
                           " line reads answered\n", both->held_cycles(), both->reads_answered());
      std::fprintf(stderr, "  lockstep: %" PRIu64 " cycles compared (%" PRIu64 " signal comparisons), 0 mismatches\n",
                   both->cycles_compared(), both->compares());
    }
    std::fprintf(stderr, "  speed: %.2f s, %.2f M instructions/s, %.2f M cycles/s\n", secs,
                 secs > 0 ? cpu.instret / secs / 1e6 : 0.0, secs > 0 ? s.cycles / secs / 1e6 : 0.0);
  }
  if (o.trace_check) {
    if (tc.failed && rc == 0) rc = HWPROF_EXIT_DIFFERS;
    trace_check_free(&tc);
  }
  if (!o.trace_out.empty() && !mismatch) {
    if (!drain_ok || drained != 0) {
      std::fprintf(stderr, "hwprof-sc: error: %s\n", drain_ok && drained < 0 && !drain_err[0] ? "trace drain failed" : drain_err);
      if (rc == 0) rc = HWPROF_EXIT_DIFFERS;
    } else if (s.interrupts != 0) {
      std::fprintf(stderr, "hwprof-sc: error: %s: the program took %" PRIu64 " interrupts: its handlers may have used the "
                   "trace controller (--trace-out wants a program without firmware)\n", o.trace_out.c_str(), s.interrupts);
      if (rc == 0) rc = HWPROF_EXIT_DIFFERS;
    } else if (!o.quiet) {
      std::fprintf(stderr, "  trace drain: %" PRIu64 " records in %s (%" PRIu64 " drains, %" PRIu64 " program instructions)\n",
                   drain.w.records, o.trace_out.c_str(), drain.drains, drain.insns);
    }
  }
  if (!o.edge_map.empty()) {
    long d = -1;
    if (mismatch) {
    } else if (st != RV_EXITED) {
      std::fprintf(stderr, "hwprof-sc: edge check: skipped, the program did not finish\n");
    } else if (flushed != 0) {
      std::fprintf(stderr, "hwprof-sc: edge check: %s\n", edge_check_flush_why(flushed));
    } else {
      d = edge_check_finish(&ec, cpu.ram, RV_RAM_BASE, cpu.ram_size, o.edge_profile.empty() ? nullptr : o.edge_profile.c_str(),
                            o.edge_truth.empty() ? nullptr : o.edge_truth.c_str(), stderr);
    }
    if (d != 0 && rc == 0) rc = HWPROF_EXIT_DIFFERS;
    edge_check_free(&ec);
  }
  if (!o.path_map.empty()) { /* the counters the hardware (the RTL in lockstep) wrote, decoded */
    int prc = -1;
    if (mismatch) {
    } else if (st != RV_EXITED) {
      std::fprintf(stderr, "hwprof-sc: path profile: skipped, the program did not finish\n");
    } else if (path_flushed != 0) {
      std::fprintf(stderr, "hwprof-sc: path profile: %s\n",
                   path_flushed == -3 ? "the pir's path stack overflowed or underflowed (PATH_STACK.ERR): not exact"
                                      : edge_check_flush_why(path_flushed));
    } else {
      FILE* pf = std::fopen(o.path_profile.c_str(), "w");
      pp_readback_stats_t ps;
      char perr[400];
      struct View {
        const uint8_t* ram;
        uint32_t base, size;
      } view{cpu.ram, RV_RAM_BASE, cpu.ram_size};
      auto read32 = [](void* ctx, uint32_t addr) -> uint32_t {
        const View* v = static_cast<const View*>(ctx);
        if (addr < v->base || addr - v->base > v->size - 4u || (addr & 3u)) return 0;
        const uint8_t* b = v->ram + (addr - v->base);
        return uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
      };
      if (pf == nullptr) {
        std::fprintf(stderr, "hwprof-sc: error: cannot write '%s'\n", o.path_profile.c_str());
      } else if (pp_readback(o.path_map.c_str(), nullptr, read32, &view, pf, &ps, perr, sizeof perr) != 0) {
        std::fprintf(stderr, "hwprof-sc: path profile: %s\n", perr);
      } else {
        prc = 0;
        if (!o.quiet)
          std::fprintf(stderr, "  path profile: %u functions, %" PRIu64 " paths counted %" PRIu64 " times, in %s\n",
                       ps.functions, ps.paths, ps.count, o.path_profile.c_str());
      }
      if (pf != nullptr && std::fclose(pf) != 0) prc = -1;
      if (prc != 0) std::remove(o.path_profile.c_str());
    }
    if (prc != 0 && rc == 0) rc = HWPROF_EXIT_DIFFERS;
  }
  rv_free(&cpu);
  return rc;
}

// SystemC prints its banner before sc_main; the report should start with the program's output.
int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
