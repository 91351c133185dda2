// Lockstep bench of hwprof_top: the Verilated RTL against cmodel/top/top.c, every output on every cycle,
// each side with its own memory model (cmodel/mem/mem_model.c) so their memory requests are compared too.
//
// Stimulus (--test=):
//   random    constrained-random retire events and APB transfers (events held while ready is low),
//             counters preloaded near 0 and near the maximum so overflows and underflows happen
//   directed  the update-operation table, pir instructions, register access and misuse, and the
//             edge-profiling scenarios of docs/edge_prof.md; every outcome is also checked against
//             a value worked out by hand here
//   counts    random profiled events with register traffic (reads, flushes, trace-controller and
//             interrupt writes: nothing that changes what is counted), then a flush: every counter
//             in both memories must equal the count computed independently from the accepted
//             events (docs/pir.md rules)
//   program   the retire stream of a generated RV32 program with a consistent control flow
//             (tb/lib/progen.c), with random register traffic: realistic traces through both sides
//
// The RTL parameters are fixed when the bench is built; HWPROF_PARAM_* (set by the Makefile together
// with Verilator's -G options) tell the C model the same values.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "Vhwprof_top.h"
#include "lib/lockstep.h"
#include "top/top_compare.h"
#include "verilated.h"
#include "lib/verilated_top.h"

extern "C" {
#include "mem/mem_model.h"
#include "lib/progen.h"
#include "top/top.h"
}

#include "lib/apb_master.h"
#include "lib/bench_params.h"
#include "top/pir_shadow.h"
#include "lib/port_protocol.h"
#include "top/top_steps.h"
#include "top/wide_port.h"
#include "top/func_cover.h"

namespace {

using lockstep::Checker;
using lockstep::Options;
using lockstep::Rng;
using lockstep::TxLog;

using namespace hwprof_tb;

using lockstep::kind_name;
const char* bhint_name(unsigned b) {
  static const char* names[] = {"tk", "nt", "either", "all"};
  return names[b & 3];
}
const char* op_name(unsigned o) {
  static const char* names[] = {"id", "init", "setoff", "start", "stop", "trigger", "op6", "op7"};
  return names[o & 7];
}

class TopBench : public lockstep::Bench {
 public:
  explicit TopBench(const Options& o)
      : o_(o),
        counts_(o.test == "counts"),
        directed_(o.test == "directed"),
        run_rtl_(o.engine != "model"),
        run_model_(o.engine != "rtl"),
        rng_(o.seed), junk_(o.seed ^ 0x6a756e6bu), traffic_(o.seed ^ 0x74726166u), resets_rng_(o.seed ^ 0x72737475u) {
    if (o.reset_every && o.test != "random" && o.test != "program") {
      std::fprintf(stderr, "tb_top: error: --reset-every works with the random and program tests\n");
      std::exit(2);
    }
    next_reset_ = o.reset_every ? o.reset_every / 2 + resets_rng_.below(o.reset_every) : 0;
    hwprof_top_cfg_default(&cfg_);
    cfg_.pir.cnt_w = HWPROF_PARAM_CNTW;
    cfg_.pir.line_words = HWPROF_PARAM_LINEWORDS;
    cfg_.edge_prof = hwprof_edge_prof_cfg_t{HWPROF_PARAM_CNTW, HWPROF_PARAM_UPDDEPTH, HWPROF_PARAM_SETS,
                                     HWPROF_PARAM_WAYS, HWPROF_PARAM_LINEWORDS, HWPROF_PARAM_OABDEPTH};
    cfg_.trace_ctrl = hwprof_trace_ctrl_cfg_t{HWPROF_PARAM_HISTW, HWPROF_PARAM_TFIFO};
    if (hwprof_top_cfg_check(&cfg_) != kHwprofOk) {
      std::fprintf(stderr, "tb_top: error: the bench was built with a configuration the C model rejects\n");
      std::exit(2);
    }
    hwprof_top_reset(&model_);
    hwprof_mem_model_cfg_t mc{g_mem_base, kMemSize + kSpillBytes + kLinkSpillBytes, HWPROF_PARAM_CNTW, HWPROF_PARAM_LINEWORDS,
                       o.mem_lat_min, o.mem_lat_max, o.mem_grant, o.seed};
    if (hwprof_mem_model_init(&mem_rtl_, &mc) != kHwprofOk || hwprof_mem_model_init(&mem_model_, &mc) != kHwprofOk) {
      std::fprintf(stderr, "tb_top: error: bad memory model configuration\n");
      std::exit(2);
    }
    if (o.test == "program") {
      prog_.reset(new progen_program_t);
      progen_generate(prog_.get(), o.seed);
      progen_start(&run_, o.seed);
    }
    if (o.test == "directed") {
      steps_ = directed_steps();
    } else {
      preload_random();
      setup_steps();
    }
    rtl_.reset();
    in_ = hwprof_top_in_t{};
  }

  ~TopBench() override {
#if VM_COVERAGE
    // coverage builds (make cov) write one data file per run
    if (const char* path = std::getenv("HWPROF_COVERAGE_FILE")) rtl_.context()->coveragep()->write(path);
#endif
    hwprof_mem_model_free(&mem_rtl_);
    hwprof_mem_model_free(&mem_model_);
  }

  void waves_open(const std::string& path) override {
    rtl_.open_waves(path);
  }
  void waves_close() override {
    rtl_.close_waves();
  }

  void inject_fault(TxLog& log) override {
    // flip bit 0 of the model's pir update counter, and again after every write to it from then on:
    // a fault no stimulus masks (the pir's offset, flipped by a first version, is rewritten so often
    // by the random stream that a seed could mask it, and a single flip of the counter is undone
    // by a write that presets it), so the next read of STAT_UPDATES differs
    model_.pir.stats.count[HWPROF_PIR_ST_UPDATES] ^= 1u;
    fault_ = true;
    log.add(now_, "INJECT: C model pir STAT_UPDATES bit 0 flipped");
  }

  bool cycle(uint64_t t, Checker& chk, TxLog& log) override {
    now_ = t;
    // a reset in the middle of traffic (--reset-every): two cycles with rst_ni low while events,
    // register traffic and memory responses go on; between scripted steps, so the setup can follow
    if (o_.reset_every && !in_reset_ && t >= next_reset_ && phase_ == IDLE && step_ >= steps_.size() &&
        !hwprof_apb_master_busy(&apb_)) {
      in_reset_ = 2;
      resets_++;
      log.add(t, "RESET asserted for two cycles");
    }
    rtl_->rst_ni = in_reset_ ? 0 : 1;
    bool more = drive();
    in_.apb = apb_.req;
    if (!in_.apb.psel) { /* an idle bus carries junk, not zeros: the RTL and the model must ignore it */
      in_.apb.penable = junk_.chance(50);
      in_.apb.pwrite = junk_.chance(50);
      in_.apb.paddr = static_cast<uint16_t>(junk_.next());
      in_.apb.pwdata = static_cast<uint32_t>(junk_.next());
    }
    if (more && t + 1 == o_.cycles + extra_cycles() && step_ < steps_.size())
      chk.expect("scripted steps finished in time (steps completed)", steps_.size(), step_);
    const bool run_rtl = run_rtl_;
    const bool run_model = run_model_;
    hwprof_mem_rsp_t mr_rtl, mr_model;
    hwprof_mem_model_comb(&mem_rtl_, &mr_rtl);
    hwprof_mem_model_comb(&mem_model_, &mr_model);
    if (!mr_rtl.rsp_valid && !mr_model.rsp_valid) /* no response: junk on the data lines, the same for both */
      for (unsigned w = 0; w < HWPROF_PARAM_LINEWORDS; w++) mr_rtl.rdata.w[w] = mr_model.rdata.w[w] = junk_.next();
    hwprof_top_out_t m{};
    if (run_rtl) {
      apply_rtl(mr_rtl);
      rtl_->eval();
    }
    const bool read_pending = mem_model_.rd_pending;  // a line read outstanding as the cycle begins
    if (run_model) {
      const bool may_repeat = model_plain_ && !in_reset_ && !(in_.apb.psel && in_.apb.penable);
      cover_.before(model_, cfg_, in_, may_repeat);
      in_.mem_req_ready = mr_model.ready;
      in_.mem_rsp_valid = mr_model.rsp_valid;
      in_.mem_rsp_rdata = mr_model.rdata;
      // outputs and clock edge in one evaluation; nothing below reads or changes the model's
      // state or inputs before the edge, so stepping it here is equivalent
      // after a plain cycle, as the C platform runs most cycles: the outputs are the last cycle's
      if (may_repeat && hwprof_top_plain_again(&model_, &in_.ev))
        m = model_out_;
      else
        model_plain_ = hwprof_top_cycle(&model_, &cfg_, &in_, &m);
      model_out_ = m;
      if (in_reset_) {  // a synchronous reset: the edge loads the reset values
        hwprof_top_reset(&model_);
        model_plain_ = false;
      }
      if (fault_ && in_.apb.psel && in_.apb.penable && in_.apb.pwrite && in_.apb.paddr == HWPROF_PIR_STAT_UPDATES_ADDR)
        model_.pir.stats.count[HWPROF_PIR_ST_UPDATES] ^= 1u;  // the injected fault persists (inject_fault)
    }
    hwprof_top_out_t r = run_rtl ? rtl_outputs() : m;
    if (run_rtl && run_model) compare(m, r, chk);
    if (!run_model) m = r;
    if (run_rtl) proto_.cycle(r, mr_rtl.ready, mr_rtl.rsp_valid, chk);
    check_step(r, chk);
    observe(m, log);
    // rising edge
    rtl_.dump(2 * t);
    if (run_rtl) {
      rtl_->clk_i = 1;
      rtl_->eval();
      hwprof_mem_req_t q{r.mem_req_valid, r.mem_req_write, r.mem_req_addr, r.mem_req_wdata};
      hwprof_mem_model_step(&mem_rtl_, &q);
    }
    if (run_model) {
      hwprof_mem_req_t q{m.mem_req_valid, m.mem_req_write, m.mem_req_addr, m.mem_req_wdata};
      hwprof_mem_model_step(&mem_model_, &q);
      if (!in_reset_) cover_.after(model_, m, in_, read_pending);  // a reset zeroes the statistics
    }
    if (in_reset_) {  // the memory side forgets the read in flight, as the requester does
      hwprof_mem_model_reset_port(&mem_rtl_);
      hwprof_mem_model_reset_port(&mem_model_);
      proto_.reset();
      if (--in_reset_ == 0) {  // the configuration is gone with the reset: set it up again
        steps_.clear();
        step_ = 0;
        setup_steps();
        next_reset_ = t + o_.reset_every / 2 + resets_rng_.below(o_.reset_every);
      }
    }
    rtl_.dump(2 * t + 1);
    rtl_->clk_i = 0;
    accepted_ = in_.ev.valid && m.ev_ready;
    hwprof_apb_master_edge(&apb_, &m.apb);
    last_out_ = m;
    if (mem_rtl_.errors || mem_model_.errors)
      chk.expect(mem_rtl_.errors ? mem_rtl_.error : mem_model_.error, 0, 1);
    if (!more && counts_) check_counts(chk);
    if (!more && o_.require_coverage && cover_.covered() < FuncCover::kRequired) {
      cover_missed_ = "functional coverage: points never reached (" + cover_.missed() + ")";
      chk.expect(cover_missed_.c_str(), FuncCover::kRequired, cover_.covered());
    }
    return more;
  }

  // the counts test drains and flushes after its --cycles of stimulus
  uint64_t extra_cycles() const override { return counts_ ? 2000000 : 0; }

  void summary(FILE* to) const override {
    std::fprintf(to, "  cycles %" PRIu64 ", retire events accepted %" PRIu64 ", stall cycles %" PRIu64 "\n",
                 now_ + 1, events_, stalls_);
    std::fprintf(to, "  update operations %" PRIu64 " (inc %" PRIu64 ", dec %" PRIu64 "):", updates_,
                 updates_ - decs_, decs_);
    static const char* cls[] = {"tk", "nt", "either-taken", "either-not-taken", "all", "prof.id"};
    for (int i = 0; i < 6; i++) std::fprintf(to, " %s %" PRIu64, cls[i], by_class_[i]);
    auto st = [](const hwprof_prim_counters_state_t& s, unsigned i) {
      return static_cast<unsigned>(hwprof_prim_counters_get(&s, i));
    };
    // (the statistics registers as they end: the random stream presets them now and then)
    const hwprof_edge_prof_state_t& ep = model_.edge_prof;
    std::fprintf(to, "\n  cache: performed %u, hits %u, misses %u, write-backs %u, dropped %u, "
                     "overflows %u, underflows %u\n",
                 st(ep.stats, HWPROF_EP_ST_UPDATES), st(ep.stats, HWPROF_EP_ST_HITS), st(ep.stats, HWPROF_EP_ST_MISSES),
                 st(ep.stats, HWPROF_EP_ST_WBS), st(ep.stats, HWPROF_EP_ST_DROPPED), st(ep.stats, HWPROF_EP_ST_OVF),
                 st(ep.stats, HWPROF_EP_ST_UNF));
    const hwprof_trace_ctrl_state_t& tc = model_.trace_ctrl;
    std::fprintf(to, "  traces: ended backward %u, indirect %u, full %u; filtered %u, sampled %u, dropped %u\n",
                 st(tc.stats, HWPROF_TC_ST_BACK), st(tc.stats, HWPROF_TC_ST_IND), st(tc.stats, HWPROF_TC_ST_FULL),
                 st(tc.stats, HWPROF_TC_ST_FILT), st(tc.stats, HWPROF_TC_ST_SAMP), st(tc.stats, HWPROF_TC_ST_DROP));
    std::fprintf(to, "  memory: line reads %" PRIu64 ", line writes %" PRIu64 "; interrupts raised: phase %" PRIu64
                     ", error %" PRIu64 "\n",
                 mem_model_.reads, mem_model_.writes, irq_rises_[0], irq_rises_[1]);
    std::fprintf(to, "  trace interrupts raised: %" PRIu64 "\n", irq_rises_[2]);
    std::fprintf(to, "  port protocol: %" PRIu64 " cycles a request was held for ready, %" PRIu64
                     " line reads answered\n", proto_.held_cycles(), proto_.reads_answered());
    std::fprintf(to, "  APB reads %" PRIu64 ", writes %" PRIu64 ", pslverr %" PRIu64 "\n", apb_reads_,
                 apb_writes_, apb_errors_);
    if (!steps_.empty()) std::fprintf(to, "  scripted steps completed %zu of %zu\n", step_, steps_.size());
    if (o_.reset_every) std::fprintf(to, "  resets in the middle of traffic: %" PRIu64 "\n", resets_);
    if (run_model_) cover_.print(to);
    if (counts_)
      std::fprintf(to, "  counters checked against the independent count: %" PRIu64 " (%" PRIu64 " nonzero updates); "
                       "%" PRIu64 " flush commands written during the stream\n",
                   counters_checked_, expected_updates_, apb_cmds_);
  }

 private:
  // ---------------- stimulus
  bool drive() {
    if (accepted_) in_.ev.valid = false;
    if (step_ < steps_.size() || phase_ != IDLE) return drive_steps();
    if (directed_) return wait_++ < 3;
    if (counts_ && now_ + 1 >= o_.cycles) return finish_counts();
    if (now_ + 1 >= o_.cycles) return false;
    drive_random();
    return true;
  }

  void drive_random() {
    if (!in_.ev.valid) new_event();
    if (!hwprof_apb_master_busy(&apb_) && !counts_ && rng_.chance(10)) random_apb();
    // the counts test's register traffic, from a stream of its own: a seed's events stay the same
    if (counts_ && !hwprof_apb_master_busy(&apb_) && traffic_.chance(2)) random_apb_counts(traffic_);
  }

  uint64_t operand() {
    switch (rng_.pick({70, 10, 8, 6, 6})) {
      case 0: return g_mem_base + rng_.below(kMemSize / 2 / kCntBytes) * kCntBytes;      // counter area
      case 1: return g_mem_base + kMemSize - rng_.below(64) * 4;                          // near the top
      case 2: return rng_.next() & HWPROF_MASK(HWPROF_EV_OPERAND_W);                    // anywhere
      case 3: return g_mem_base + rng_.below(kMemSize / 2) * 2;                           // maybe misaligned
      default: return rng_.below(64);
    }
  }
  void new_event() {
    hwprof_retire_ev_t& e = in_.ev;
    e = hwprof_retire_ev_t{};
    if (prog_) {  // the program's next instruction, or an idle cycle
      if (rng_.chance(85)) e = progen_step(prog_.get(), &run_);
      return;
    }
    e.valid = rng_.chance(85);
    const bool counts = counts_;
    static const std::vector<unsigned> kw = {25, 25, 5, 5, 10, 5, 24, 1};
    static const std::vector<unsigned> kw_counts = {5, 50, 5, 10, 2, 2, 26, 0};
    e.kind = static_cast<uint8_t>(rng_.pick(counts ? kw_counts : kw));
    e.pc = static_cast<uint32_t>(rng_.next()) & ~3u;
    e.next_pc = static_cast<uint32_t>(rng_.next()) & ~3u;
    e.insn = static_cast<uint32_t>(rng_.next());
    e.is_call = rng_.chance(5);
    e.is_ret = rng_.chance(5);
    e.taken = (e.kind == HWPROF_KIND_JUMP || e.kind == HWPROF_KIND_IJUMP) ? rng_.chance(95) : rng_.chance(50);
    // phases of ~300 events in which taken branches and jumps go forward and no indirect jump ends
    // the trace: histories fill up to the marker's top bit, so the FIFO's records and the history
    // registers carry every bit (outside them a quarter of the branches end the trace)
    if (rng_.below(300) == 0) long_traces_ = !long_traces_;
    if (long_traces_ && !counts) {
      if (e.kind == HWPROF_KIND_IJUMP) e.kind = HWPROF_KIND_BRANCH;
      if ((e.kind == HWPROF_KIND_BRANCH || e.kind == HWPROF_KIND_JUMP) && rng_.chance(97))
        e.next_pc = e.pc + 4 * (1 + static_cast<uint32_t>(rng_.below(256)));
    }
    e.addr = static_cast<uint32_t>(rng_.next());
    e.value = static_cast<uint32_t>(rng_.next());
    switch (rng_.pick({counts ? 5u : 20u, 70, 8, 2})) {
      case 0: e.pid = 0; break;
      case 1: e.pid = static_cast<uint16_t>(1 + rng_.below(64)); break;
      case 2: e.pid = static_cast<uint16_t>(rng_.next()); break;
      default: e.pid = 0xffff; break;
    }
    e.bhint = static_cast<uint8_t>(rng_.below(4));
    e.ihint = rng_.chance(30);
    static const std::vector<unsigned> ow = {40, 6, 12, 14, 3, 12, 4, 3};
    static const std::vector<unsigned> ow_counts = {70, 8, 8, 10, 1, 3, 0, 0};
    e.op = static_cast<uint8_t>(rng_.pick(counts ? ow_counts : ow));
    e.operand = operand();
    if (e.op == HWPROF_PROF_OP_SETOFF) e.operand = rng_.below(256);
    if (e.op == HWPROF_PROF_OP_TRIGGER) e.operand = rng_.below(8);
    // on other kinds op means something only for calls, returns and region switches: mostly none,
    // as in a program (region switches on most branches would hide a wrong offset)
    if (e.kind != HWPROF_KIND_PROF && rng_.chance(80)) e.op = 0;
    // any other instruction: no pid and no operation, as in a program, but now and then what a
    // carrier word gives it (docs/pir.md: prof.id, prof.init, prof.setoff), and rarely an operation
    // no carrier word gives (the pir must ignore it)
    if (e.kind == HWPROF_KIND_OTHER || e.kind == HWPROF_KIND_LOAD || e.kind == HWPROF_KIND_STORE) {
      const unsigned c = rng_.pick({82, 8, 4, 4, 2});
      if (c != 1 && c != 4) e.pid = 0;
      e.op = c == 2 ? HWPROF_PROF_OP_INIT : c == 3 ? HWPROF_PROF_OP_SETOFF
           : c == 4 ? static_cast<uint8_t>(HWPROF_PROF_OP_START + rng_.below(5)) : HWPROF_PROF_OP_ID;
      if (c == 2) e.operand = operand();
      if (c == 3) e.operand = rng_.below(256);
    }
    // linked calls and returns (docs/pir.md): jumps often carry them, calls a little more often
    // than returns in bursts, so the link stack fills past its entries and empties below zero
    if ((e.kind == HWPROF_KIND_JUMP || e.kind == HWPROF_KIND_IJUMP) && rng_.chance(40)) {
      if (rng_.chance(1)) link_bias_ = !link_bias_;  // phases of ~100 linked events: deep stacks
      const bool call = rng_.chance(link_bias_ ? 70 : 35);
      e.is_call = call || rng_.chance(5);
      e.is_ret = !call || rng_.chance(5);
      e.op = static_cast<uint8_t>(rng_.chance(90) == call ? HWPROF_PROF_OP_PUSH : HWPROF_PROF_OP_POP);
      if (rng_.chance(20)) e.pid = 0;
    }
    // path words (docs/path.md): prof.path, branches and jumps with op PATH, linked returns;
    // small values so that sums and counters stay near the counter area, ENTERs and pops in
    // bursts so that the path stack fills past its entries and empties below zero
    const bool xfer = e.kind == HWPROF_KIND_BRANCH || e.kind == HWPROF_KIND_JUMP || e.kind == HWPROF_KIND_IJUMP;
    if (xfer && !e.is_call && rng_.chance(counts ? 5 : 15)) e.op = HWPROF_PROF_OP_PATH;
    const bool word = (e.op == HWPROF_PROF_OP_PATH && (e.kind == HWPROF_KIND_PROF || (xfer && !e.is_call))) ||
                      (e.op == HWPROF_PROF_OP_POP && e.is_ret);
    if (word && rng_.chance(90)) {
      // phases of ~70 words that drift the depth by about a third of a level per word: the stack
      // goes through every entry and past both ends
      if (rng_.below(200) < 3) path_bias_ = !path_bias_;
      static const std::vector<unsigned> pk_up = {3, 15, 10, 15, 45, 5, 5, 2};
      static const std::vector<unsigned> pk_down = {3, 20, 10, 20, 5, 25, 15, 2};
      const unsigned k = rng_.pick(path_bias_ ? pk_up : pk_down);
      // any value now and then (more often outside the counts test), so that sums and the saved
      // sums on both stacks carry their upper bits too
      const unsigned vmax = rng_.chance(counts ? 5 : 25) ? (1u << HWPROF_PATH_VAL_W) : 32u;
      e.operand = (uint64_t)k << HWPROF_PATH_KIND_LSB | (uint64_t)rng_.below(vmax) << HWPROF_PATH_A_LSB |
                  (uint64_t)rng_.below(vmax) << HWPROF_PATH_B_LSB;
      if (rng_.chance(3)) e.operand |= (rng_.next() & 0x7full) << 29;  // bits above the word: ignored
    }
    // traps: runs of handler events (an interrupt's handler, up to its mret), now and then an
    // instruction that traps; the reserved value 3 sometimes
    if (in_handler_ ? rng_.chance(15) : rng_.chance(3)) in_handler_ = !in_handler_;
    e.trap = in_handler_ ? (rng_.chance(10) ? 3 : HWPROF_TRAP_HANDLER)
                         : (rng_.chance(3) ? HWPROF_TRAP_ENTRY : HWPROF_TRAP_NONE);
  }

  // the registers the random streams address
  static const std::vector<uint16_t>& regs() {
    static const std::vector<uint16_t> r = {
        HWPROF_TOP_ID_ADDR, HWPROF_TOP_VERSION_ADDR, HWPROF_TOP_IRQ_PENDING_ADDR, HWPROF_TOP_IRQ_ENABLE_ADDR,
        HWPROF_PIR_BASE_LO_ADDR, HWPROF_PIR_BASE_HI_ADDR, HWPROF_PIR_OFFSET_ADDR, HWPROF_PIR_TRIGGER_ADDR,
        HWPROF_PIR_CTRL_ADDR, HWPROF_PIR_STAT_EVENTS_ADDR, HWPROF_PIR_STAT_UPDATES_ADDR, HWPROF_PIR_LINK_ADDR,
        HWPROF_PIR_PATH_SUM_ADDR, HWPROF_PIR_PATH_STACK_ADDR, HWPROF_PIR_PATH_SPILL_LO_ADDR,
        HWPROF_PIR_PATH_SPILL_HI_ADDR, HWPROF_PIR_PATH_SPILL_ADDR, HWPROF_PIR_PATH_ENTRY_SEL_ADDR,
        HWPROF_PIR_PATH_ENTRY_ADDR, HWPROF_PIR_LINK_ENTRY_SEL_ADDR, HWPROF_PIR_LINK_ENTRY_BASE_LO_ADDR,
        HWPROF_PIR_LINK_ENTRY_BASE_HI_ADDR, HWPROF_PIR_LINK_ENTRY_OFFSET_ADDR, HWPROF_PIR_LINK_ENTRY_SUM_ADDR,
        HWPROF_PIR_LINK_SPILL_LO_ADDR, HWPROF_PIR_LINK_SPILL_HI_ADDR, HWPROF_PIR_LINK_SPILL_ADDR,
        HWPROF_EDGE_PROF_CMD_ADDR, HWPROF_EDGE_PROF_STATUS_ADDR, HWPROF_EDGE_PROF_BOUND_LO_LO_ADDR,
        HWPROF_EDGE_PROF_BOUND_LO_HI_ADDR, HWPROF_EDGE_PROF_BOUND_HI_LO_ADDR, HWPROF_EDGE_PROF_BOUND_HI_HI_ADDR,
        HWPROF_EDGE_PROF_OAB_STATUS_ADDR, HWPROF_EDGE_PROF_OAB_CTRL_ADDR, HWPROF_EDGE_PROF_OAB_INDEX_ADDR,
        HWPROF_EDGE_PROF_OAB_ENTRY_LO_ADDR, HWPROF_EDGE_PROF_OAB_ENTRY_HI_ADDR,
        HWPROF_EDGE_PROF_STAT_UPDATES_ADDR, HWPROF_EDGE_PROF_STAT_HITS_ADDR, HWPROF_EDGE_PROF_STAT_MISSES_ADDR,
        HWPROF_EDGE_PROF_STAT_WRITEBACKS_ADDR, HWPROF_EDGE_PROF_STAT_STALLS_ADDR, HWPROF_EDGE_PROF_STAT_DROPPED_ADDR,
        HWPROF_EDGE_PROF_STAT_OVERFLOWS_ADDR, HWPROF_EDGE_PROF_STAT_UNDERFLOWS_ADDR,
        HWPROF_TRACE_CTRL_CTRL_ADDR, HWPROF_TRACE_CTRL_STATUS_ADDR, HWPROF_TRACE_CTRL_CUR_START_ADDR,
        HWPROF_TRACE_CTRL_CUR_HIST_ADDR, HWPROF_TRACE_CTRL_LAST_START_ADDR, HWPROF_TRACE_CTRL_LAST_HIST_ADDR,
        HWPROF_TRACE_CTRL_RANGE_LO_ADDR, HWPROF_TRACE_CTRL_RANGE_HI_ADDR, HWPROF_TRACE_CTRL_SAMPLE_RELOAD_ADDR,
        HWPROF_TRACE_CTRL_SAMPLE_COUNT_ADDR, HWPROF_TRACE_CTRL_FIFO_START_ADDR, HWPROF_TRACE_CTRL_FIFO_HIST_ADDR,
        HWPROF_TRACE_CTRL_FIFO_CTRL_ADDR, HWPROF_TRACE_CTRL_STAT_END_BACKWARD_ADDR, HWPROF_TRACE_CTRL_STAT_END_INDIRECT_ADDR,
        HWPROF_TRACE_CTRL_STAT_END_FULL_ADDR, HWPROF_TRACE_CTRL_STAT_FILTERED_ADDR, HWPROF_TRACE_CTRL_STAT_SAMPLED_ADDR,
        HWPROF_TRACE_CTRL_STAT_DROPPED_ADDR};
    return r;
  }

  // The counts test's register traffic: reads of every register, flushes (with or without
  // invalidation) while updates are in flight, writes to the trace controller and the interrupt
  // registers. Nothing that changes what is counted (the pir, the bounds, INVALIDATE alone): the
  // independent count must stay exact through all of it.
  void random_apb_counts(lockstep::Rng& rng) {
    static const uint16_t writable[] = {HWPROF_TOP_IRQ_PENDING_ADDR, HWPROF_TOP_IRQ_ENABLE_ADDR,
                                        HWPROF_TRACE_CTRL_CTRL_ADDR, HWPROF_TRACE_CTRL_RANGE_LO_ADDR,
                                        HWPROF_TRACE_CTRL_RANGE_HI_ADDR, HWPROF_TRACE_CTRL_SAMPLE_RELOAD_ADDR,
                                        HWPROF_TRACE_CTRL_FIFO_CTRL_ADDR, HWPROF_EDGE_PROF_OAB_CTRL_ADDR,
                                        HWPROF_EDGE_PROF_OAB_INDEX_ADDR};
    const auto& r = regs();
    switch (rng.pick({70, 8, 22})) {
      case 0:
        hwprof_apb_master_start(&apb_, false, r[rng.below(r.size())], 0);
        break;
      case 1:
        hwprof_apb_master_start(&apb_, true, HWPROF_EDGE_PROF_CMD_ADDR, rng.chance(70) ? 1u : 3u);
        apb_cmds_++;
        break;
      default:
        hwprof_apb_master_start(&apb_, true, writable[rng.below(sizeof writable / sizeof writable[0])],
                                static_cast<uint32_t>(rng.next()) & 0xffu);
        break;
    }
  }

  void random_apb() {
    const auto& regs = this->regs();
    hwprof_apb_req_t a{};
    switch (rng_.pick({67, 12, 13, 8})) {
      case 0: a.paddr = regs[rng_.below(regs.size())]; break;
      case 1: a.paddr = static_cast<uint16_t>((rng_.below(4) << 8) | (rng_.below(32) * 4)); break;
      case 2: a.paddr = static_cast<uint16_t>(rng_.next()); break;
      default:  // a register's address with one bit flipped: a decoder that ignores a bit answers it
        a.paddr = static_cast<uint16_t>(regs[rng_.below(regs.size())] ^ (1u << rng_.below(16)));
        break;
    }
    a.pwrite = rng_.chance(40);
    if (long_traces_ && rng_.chance(30)) {  // the long traces' records: read them, pop them
      static const uint16_t fifo[] = {HWPROF_TRACE_CTRL_FIFO_START_ADDR, HWPROF_TRACE_CTRL_FIFO_HIST_ADDR,
                                      HWPROF_TRACE_CTRL_FIFO_CTRL_ADDR, HWPROF_TRACE_CTRL_LAST_HIST_ADDR,
                                      HWPROF_TRACE_CTRL_CUR_HIST_ADDR, HWPROF_TRACE_CTRL_SAMPLE_COUNT_ADDR,
                                      HWPROF_TRACE_CTRL_STATUS_ADDR, HWPROF_TOP_IRQ_PENDING_ADDR};
      a.paddr = fifo[rng_.below(sizeof fifo / sizeof fifo[0])];
      a.pwrite = a.paddr == HWPROF_TRACE_CTRL_FIFO_CTRL_ADDR;
    }
    if (rng_.chance(8)) {  // the overflowed-address buffer's entries: an index, then its halves
      static const uint16_t oab[] = {HWPROF_EDGE_PROF_OAB_INDEX_ADDR, HWPROF_EDGE_PROF_OAB_ENTRY_LO_ADDR,
                                     HWPROF_EDGE_PROF_OAB_ENTRY_HI_ADDR, HWPROF_EDGE_PROF_OAB_ENTRY_LO_ADDR};
      a.paddr = oab[rng_.below(sizeof oab / sizeof oab[0])];
      a.pwrite = a.paddr == HWPROF_EDGE_PROF_OAB_INDEX_ADDR;
    }
    uint32_t v = rng_.chance(20) ? 0xffffffffu : static_cast<uint32_t>(rng_.next());
    switch (a.paddr) {
      case HWPROF_PIR_CTRL_ADDR: v = rng_.chance(85) ? 1u : 0u; break;  // keep profiling mostly on
      case HWPROF_EDGE_PROF_CMD_ADDR: v = static_cast<uint32_t>(rng_.pick({1, 60, 10, 10})); break;
      case HWPROF_EDGE_PROF_OAB_INDEX_ADDR: v = static_cast<uint32_t>(rng_.chance(95) ? rng_.below(12) : rng_.next() & 0xff); break;
      case HWPROF_TRACE_CTRL_FIFO_CTRL_ADDR: v = long_traces_ ? (rng_.chance(95) ? 1u : 2u) : v; break;  // pop, now and then clear
      case HWPROF_TRACE_CTRL_CTRL_ADDR:  // mostly enabled; watermark small, now and then any
        v = (rng_.chance(85) ? 1u : 0u) | (static_cast<uint32_t>(rng_.below(8)) << 1) |
            (static_cast<uint32_t>(rng_.chance(10) ? rng_.below(256) : rng_.below(long_traces_ ? 2 * HWPROF_PARAM_TFIFO + 1 : 6))
             << HWPROF_TRACE_CTRL_CTRL_WATERMARK_LSB);
        break;
      case HWPROF_TRACE_CTRL_SAMPLE_RELOAD_ADDR:  // short periods, now and then any (the next write shortens it)
      case HWPROF_TRACE_CTRL_SAMPLE_COUNT_ADDR:
        v = static_cast<uint32_t>(rng_.chance(long_traces_ ? 30 : 10) ? rng_.below(65536) : rng_.below(6));
        break;
      case HWPROF_TRACE_CTRL_CUR_HIST_ADDR: v = rng_.chance(50) ? 1u : v; break;
      case HWPROF_EDGE_PROF_BOUND_LO_LO_ADDR:  // rarely move the window, mostly keep it sane
        v = rng_.chance(70) ? static_cast<uint32_t>(g_mem_base) : static_cast<uint32_t>(g_mem_base + rng_.below(kMemSize));
        break;
      case HWPROF_EDGE_PROF_BOUND_HI_LO_ADDR:
        v = rng_.chance(70) ? static_cast<uint32_t>(g_mem_base + kMemSize)
                            : static_cast<uint32_t>(g_mem_base + rng_.below(kMemSize));
        break;
      case HWPROF_EDGE_PROF_BOUND_LO_HI_ADDR:  // the window stays inside the memory model
      case HWPROF_EDGE_PROF_BOUND_HI_HI_ADDR: v = static_cast<uint32_t>(g_mem_base >> 32); break;
      // the path stack's spill area stays in the memory model, above the bounds: its base moved by up
      // to 7 blocks of 64 bytes, at most the rest used (small limits often, so that it fills up);
      // entries in memory up to what the area holds, now and then more than its limit (one more line
      // may be spilled on top of a count written while a spill was on its way: the 64th block)
      case HWPROF_PIR_PATH_SPILL_LO_ADDR:
        v = static_cast<uint32_t>(g_mem_base + kMemSize + (rng_.chance(70) ? 0 : 64 * rng_.below(8)));
        break;
      case HWPROF_PIR_PATH_SPILL_HI_ADDR: v = static_cast<uint32_t>((g_mem_base + kMemSize) >> 32); break;
      case HWPROF_PIR_LINK_SPILL_LO_ADDR:  // the link stack's area, the same way
        v = static_cast<uint32_t>(g_mem_base + kMemSize + kSpillBytes + (rng_.chance(70) ? 0 : 64 * rng_.below(8)));
        break;
      case HWPROF_PIR_LINK_SPILL_HI_ADDR: v = static_cast<uint32_t>((g_mem_base + kMemSize + kSpillBytes) >> 32); break;
      case HWPROF_PIR_LINK_SPILL_ADDR: {
        const uint32_t most = link_frames(kSpillBlocks - 8);
        const uint32_t limit = static_cast<uint32_t>(rng_.chance(40) ? rng_.below(2) : rng_.below(kSpillBlocks - 7));
        v = limit | static_cast<uint32_t>(rng_.below(rng_.chance(70) ? link_frames(limit) + 1 : most)) << 16;
        break;
      }
      case HWPROF_PIR_PATH_SPILL_ADDR: {
        const uint32_t per = 64 / kLineBytes, most = (kSpillBlocks - 8) * per;
        const uint32_t limit = static_cast<uint32_t>(rng_.chance(40) ? rng_.below(2) : rng_.below(kSpillBlocks - 7));
        v = limit | static_cast<uint32_t>(rng_.below(rng_.chance(70) ? limit * per + 1 : most)) << 16;
        break;
      }
      default: break;
    }
    hwprof_apb_master_start(&apb_, a.pwrite, a.paddr, v);
  }

  // counters start at 0, small values, or just below the maximum (overflows, underflows)
  void preload_random() {
    for (uint64_t off = 0; off < kMemSize; off += kCntBytes) {
      uint64_t v = 0;
      switch (rng_.pick({60, 25, 15})) {
        case 0: v = 0; break;
        case 1: v = rng_.below(4); break;
        default: v = kCntMax - rng_.below(4); break;
      }
      hwprof_mem_model_poke(&mem_rtl_, g_mem_base + off, v);
      hwprof_mem_model_poke(&mem_model_, g_mem_base + off, v);
      if (counts_) expected_[g_mem_base + off] = v;
    }
  }

  void setup_steps() {
    steps_.push_back(wr(HWPROF_EDGE_PROF_BOUND_LO_LO_ADDR, g_mem_base & 0xffffffff, false, "bounds: low"));
    steps_.push_back(wr(HWPROF_EDGE_PROF_BOUND_LO_HI_ADDR, g_mem_base >> 32, false, "bounds: low, high bits"));
    steps_.push_back(wr(HWPROF_EDGE_PROF_BOUND_HI_LO_ADDR, (g_mem_base + kMemSize) & 0xffffffff, false, "bounds: high"));
    steps_.push_back(wr(HWPROF_EDGE_PROF_BOUND_HI_HI_ADDR, (g_mem_base + kMemSize) >> 32, false, "bounds: high bits"));
    steps_.push_back(wr(HWPROF_TOP_IRQ_ENABLE_ADDR, 0xf, false, "enable every interrupt"));
    steps_.push_back(wr(HWPROF_TRACE_CTRL_CTRL_ADDR, 0x0403, false, "traces into the FIFO, watermark 4"));
    // the path stack spills above the counters (the counts test's shadow keeps as many sums)
    steps_.push_back(wr(HWPROF_PIR_PATH_SPILL_LO_ADDR, (g_mem_base + kMemSize) & 0xffffffff, false, "spill area"));
    steps_.push_back(wr(HWPROF_PIR_PATH_SPILL_HI_ADDR, (g_mem_base + kMemSize) >> 32, false, "spill area, high bits"));
    // (all but 8 blocks: the random stream moves the area's base by up to 7)
    steps_.push_back(wr(HWPROF_PIR_PATH_SPILL_ADDR, kSpillBlocks - 8, false, "spilling on"));
    shadow_.pcap = HWPROF_PATH_STACK_ENTRIES + (kSpillBlocks - 8) * (64 / kLineBytes);
    // the link stack spills above that (the area's base moves by up to 7 blocks too)
    const uint64_t link_area = g_mem_base + kMemSize + kSpillBytes;
    steps_.push_back(wr(HWPROF_PIR_LINK_SPILL_LO_ADDR, link_area & 0xffffffff, false, "link spill area"));
    steps_.push_back(wr(HWPROF_PIR_LINK_SPILL_HI_ADDR, link_area >> 32, false, "link spill area, high bits"));
    steps_.push_back(wr(HWPROF_PIR_LINK_SPILL_ADDR, kSpillBlocks - 8, false, "link spilling on"));
    shadow_.lcap = HWPROF_PIR_LINK_ENTRIES + link_frames(kSpillBlocks - 8);
    // (the counts test leaves the flag to prof.start, which its independent shadow of the pir sees)
    if (!counts_) steps_.push_back(wr(HWPROF_PIR_CTRL_ADDR, 1, false, "profiling on"));
  }

  // counts test: stop the stream, flush, then compare memory with the independent count
  bool finish_counts() {
    if (!flush_queued_) {
      flush_queued_ = true;
      in_.ev.valid = false;
      // a command of the traffic may still be running: wait for it (a flush of its own, refused or
      // not, then STATUS polled), so that the final flush is never refused as busy
      steps_.push_back(sync("wait for the traffic's last command"));
      steps_.push_back(wr(HWPROF_EDGE_PROF_CMD_ADDR, 1, false, "final flush"));
      steps_.push_back(sync("wait for the final flush"));
      return drive_steps();
    }
    return false;
  }

  void check_counts(Checker& chk) {
    for (const auto& kv : expected_) {
      uint64_t a = 0, b = 0;
      hwprof_mem_model_peek(&mem_rtl_, kv.first, &a);
      hwprof_mem_model_peek(&mem_model_, kv.first, &b);
      char what[96];
      if (run_rtl_) {  // the memory of each engine that ran
        std::snprintf(what, sizeof what, "counter 0x%010" PRIx64 " in the RTL's memory", kv.first);
        chk.expect(what, kv.second, a);
      }
      if (run_model_) {
        std::snprintf(what, sizeof what, "counter 0x%010" PRIx64 " in the C model's memory", kv.first);
        chk.expect(what, kv.second, b);
      }
      counters_checked_++;
    }
  }

  // ---------------- scripted steps (directed tests and setup)
  // what the APB (or the event port) is doing this cycle; X_SETUP: this cycle is X's setup phase
  enum Phase { IDLE, EV_WAIT, EV_CHECK, APB_SETUP, APB_ACCESS, SYNC_FLUSH_SETUP, SYNC_FLUSH, SYNC_POLL_START,
               SYNC_POLL_SETUP, SYNC_POLL };

  bool drive_steps() {
    switch (phase_) {
      case IDLE: {
        if (step_ >= steps_.size()) return true;
        const Step& s = steps_[step_];
        switch (s.type) {
          case Step::EVENT:
            in_.ev = s.ev;
            phase_ = EV_WAIT;
            break;
          case Step::READ:
          case Step::WRITE:
            hwprof_apb_master_start(&apb_, s.type == Step::WRITE, s.addr,
                                    s.type == Step::WRITE ? static_cast<uint32_t>(s.data) : 0u);
            phase_ = APB_SETUP;
            break;
          case Step::SYNC:
            // flush (which first drains the update buffer), then poll STATUS until not busy
            hwprof_apb_master_start(&apb_, true, HWPROF_EDGE_PROF_CMD_ADDR, 1u);
            polls_ = 0;
            phase_ = SYNC_FLUSH_SETUP;
            break;
          default:
            break;  // PRELOAD, CHECK_MEM and CHECK_IRQ act in check_step()
        }
        break;
      }
      case APB_SETUP:
      case SYNC_FLUSH_SETUP:
      case SYNC_POLL_SETUP:  // the requester enters its access phase by itself
        phase_ = phase_ == APB_SETUP ? APB_ACCESS : phase_ == SYNC_FLUSH_SETUP ? SYNC_FLUSH : SYNC_POLL;
        break;
      case SYNC_POLL_START:
        hwprof_apb_master_start(&apb_, false, HWPROF_EDGE_PROF_STATUS_ADDR, 0);
        phase_ = SYNC_POLL_SETUP;
        break;
      default:
        break;
    }
    return true;
  }

  void check_step(const hwprof_top_out_t& r, Checker& chk) {
    if (step_ >= steps_.size()) return;
    const Step& s = steps_[step_];
    std::string what = std::string("step ") + std::to_string(step_) + " (" + s.what + ")";
    switch (phase_) {
      case IDLE:
        if (s.type == Step::PRELOAD) {
          hwprof_mem_model_poke(&mem_rtl_, g_mem_base + s.addr, s.data);
          hwprof_mem_model_poke(&mem_model_, g_mem_base + s.addr, s.data);
          step_++;
        } else if (s.type == Step::CHECK_MEM) {
          uint64_t a = 0, b = 0;
          hwprof_mem_model_peek(&mem_rtl_, g_mem_base + s.addr, &a);
          hwprof_mem_model_peek(&mem_model_, g_mem_base + s.addr, &b);
          chk.expect((what + " RTL memory").c_str(), s.data, a);
          chk.expect((what + " C model memory").c_str(), s.data, b);
          step_++;
        } else if (s.type == Step::CHECK_IRQ) {
          unsigned lv = r.irq_phase | r.irq_trace << 1 | r.irq_coproc << 2 | r.irq_error << 3;
          chk.expect((what + " irq levels {error,coproc,trace,phase}").c_str(), s.data, lv);
          step_++;
        }
        break;
      case EV_WAIT:
        if (in_.ev.valid && r.ev_ready) phase_ = s.expect_upd || (directed_ && !s.ignore_upd) ? EV_CHECK : IDLE;
        if (phase_ == IDLE) step_++;
        break;
      case EV_CHECK:
        chk.expect((what + " upd_valid").c_str(), s.expect_upd, r.upd.valid);
        if (s.expect_upd) {
          chk.expect((what + " upd_addr").c_str(), s.upd_addr, r.upd.addr);
          chk.expect((what + " upd_dec").c_str(), s.upd_dec, r.upd.dec);
        }
        finish_step();
        break;
      case APB_ACCESS:
        chk.expect((what + " pslverr").c_str(), s.expect_err, r.apb.pslverr);
        if (s.type == Step::READ) chk.expect((what + " prdata").c_str(), s.data, r.apb.prdata);
        finish_step();
        break;
      case SYNC_FLUSH:
        // a flush refused because one is already running is fine: the poll waits for it
        phase_ = SYNC_POLL_START;
        break;
      case SYNC_POLL:
        if (!(r.apb.prdata & (1u << HWPROF_EDGE_PROF_STATUS_BUSY_LSB))) {
          finish_step();
        } else if (++polls_ > 100000) {
          chk.expect((what + " STATUS.BUSY cleared within 100000 polls").c_str(), 0, 1);
          finish_step();
        } else {
          phase_ = SYNC_POLL_START;
        }
        break;
      default:
        break;
    }
  }
  void finish_step() {
    phase_ = IDLE;
    step_++;
  }

  // ---------------- RTL signals
  void apply_rtl(const hwprof_mem_rsp_t& mr) {
    hwprof_top_in_t in = in_;  // the RTL's own memory responder answers it
    in.mem_req_ready = mr.ready;
    in.mem_rsp_valid = mr.rsp_valid;
#define HWPROF_APPLY_EV(name, sc_type, member) rtl_->name##_i = in.ev.member;
#define HWPROF_APPLY_APB(name, sc_type, member) rtl_->name##_i = in.apb.member;
#define HWPROF_APPLY_MEM(name, sc_type, member) rtl_->name##_i = in.member;
    HWPROF_TOP_EV_INPUTS(HWPROF_APPLY_EV)
    HWPROF_TOP_APB_INPUTS(HWPROF_APPLY_APB)
    HWPROF_TOP_MEM_INPUTS(HWPROF_APPLY_MEM)
#undef HWPROF_APPLY_EV
#undef HWPROF_APPLY_APB
#undef HWPROF_APPLY_MEM
    line_to(mr.rdata, &rtl_->mem_rsp_rdata_i);
  }

  hwprof_top_out_t rtl_outputs() const {
    hwprof_top_out_t r{};
#define HWPROF_READ_OUTPUT(name, sc_type, member) r.member = rtl_->name##_o;
    HWPROF_TOP_OUTPUTS(HWPROF_READ_OUTPUT)
#undef HWPROF_READ_OUTPUT
    line_from(rtl_->mem_req_wdata_o, &r.mem_req_wdata);
    return r;
  }

  void compare(const hwprof_top_out_t& m, const hwprof_top_out_t& r, Checker& chk) {
    lockstep::compare_top_outputs(m, r, HWPROF_PARAM_LINEWORDS, chk);
  }

  void observe(const hwprof_top_out_t& m, TxLog& log) {
    // a single engine cannot mismatch: skip formatting unless a full log was asked for
    const bool text = (run_rtl_ && run_model_) || !o_.log_path.empty();
    char buf[200];
    const hwprof_retire_ev_t& e = in_.ev;
    if (m.upd.valid) {
      updates_++;
      decs_ += m.upd.dec;
      by_class_[pending_class_]++;
      if (text) {
        std::snprintf(buf, sizeof buf, "UPD  %s addr=0x%010" PRIx64, m.upd.dec ? "dec" : "inc", m.upd.addr);
        log.add(now_, buf);
      }
    }
    if (e.valid && !m.ev_ready) stalls_++;
    if (e.valid && m.ev_ready) {
      events_++;
      pending_class_ = classify(e);
      if (counts_) {
        uint64_t addr;
        bool dec;
        if (shadow_.apply(e, &addr, &dec) && addr >= g_mem_base && addr < g_mem_base + kMemSize &&
            addr % kCntBytes == 0) {
          uint64_t& c = expected_[addr];
          c = (dec ? c - 1 : c + 1) & kCntMax;
          expected_updates_++;
        }
      }
      if (text) {
        if (e.kind == HWPROF_KIND_PROF)
          std::snprintf(buf, sizeof buf, "EV   prof.%s operand=0x%" PRIx64 " pid=%u ihint=%u", op_name(e.op),
                        e.operand, e.pid, e.ihint);
        else
          std::snprintf(buf, sizeof buf, "EV   %s pc=0x%08x pid=%u %s.%s taken=%u%s%s%s%s", kind_name(e.kind), e.pc,
                        e.pid, bhint_name(e.bhint), e.ihint ? "dec" : "inc", e.taken, e.is_call ? " call" : "",
                        e.is_ret ? " ret" : "",
                        e.op == HWPROF_PROF_OP_PUSH ? " push" : e.op == HWPROF_PROF_OP_POP ? " pop" : "",
                        e.trap == HWPROF_TRAP_ENTRY ? " trap-entry" : e.trap ? " in-handler" : "");
        log.add(now_, buf);
      }
    }
    if (in_.apb.psel && in_.apb.penable) {
      if (in_.apb.pwrite) apb_writes_++;
      else apb_reads_++;
      apb_errors_ += m.apb.pslverr;
      if (text) {
        std::snprintf(buf, sizeof buf, "APB  %s 0x%04x %s0x%08x%s", in_.apb.pwrite ? "write" : "read ",
                      in_.apb.paddr, in_.apb.pwrite ? "<- " : "-> ",
                      in_.apb.pwrite ? in_.apb.pwdata : m.apb.prdata, m.apb.pslverr ? " PSLVERR" : "");
        log.add(now_, buf);
      }
    }
    if (m.mem_req_valid && text) {
      std::snprintf(buf, sizeof buf, "MEM  %s line 0x%010" PRIx64 "%s", m.mem_req_write ? "write" : "read ",
                    m.mem_req_addr, m.mem_req_write ? "" : " (request)");
      log.add(now_, buf);
    }
    if (m.irq_phase && !last_out_.irq_phase) irq_rises_[0]++;
    if (m.irq_error && !last_out_.irq_error) irq_rises_[1]++;
    if (m.irq_trace && !last_out_.irq_trace) irq_rises_[2]++;
  }

  // which row of the update table an event falls in (for the summary only)
  static int classify(const hwprof_retire_ev_t& e) {
    if (e.kind == HWPROF_KIND_PROF) return 5;
    switch (e.bhint) {
      case HWPROF_BHINT_TK: return 0;
      case HWPROF_BHINT_NT: return 1;
      case HWPROF_BHINT_EITHER: return e.taken ? 2 : 3;
      default: return 4;
    }
  }

  Options o_;
  // the options the cycle loop asks every cycle, decided once
  const bool counts_;    // --test=counts
  const bool directed_;  // --test=directed
  const bool run_rtl_;   // --engine=rtl or lockstep
  const bool run_model_; // --engine=model or lockstep
  Rng rng_;
  Rng junk_; /* what idle buses carry (its own stream: the stimulus stays that of the seed) */
  lockstep::PortProtocol proto_; /* the ports' protocol rules, on the RTL's outputs */
  Rng traffic_;                  /* the counts test's register traffic (its own stream) */
  Rng resets_rng_;               /* when --reset-every resets (its own stream) */
  FuncCover cover_;              /* functional coverage, from the model's state */
  std::string cover_missed_;
  uint64_t next_reset_ = 0, resets_ = 0;
  unsigned in_reset_ = 0; /* cycles of reset still to go */
  bool fault_ = false;     /* --inject: the model's STAT_UPDATES is kept off by one from then on */
  uint64_t apb_cmds_ = 0;        /* cache commands the counts test's traffic wrote */
  lockstep::VerilatedTop<Vhwprof_top> rtl_{"hwprof_top"};
  hwprof_top_cfg_t cfg_;
  hwprof_top_state_t model_;
  bool model_plain_ = false;   // the model's last cycle was plain (hwprof_top_cycle()): the next may be plain again
  hwprof_top_out_t model_out_{};  // the model's outputs of the last cycle
  hwprof_top_in_t in_;
  hwprof_mem_model_t mem_rtl_{};
  hwprof_mem_model_t mem_model_{};
  hwprof_top_out_t last_out_{};
  bool accepted_ = false;
  hwprof_apb_master_t apb_{};  // the APB requester (tb/lib/apb_master.h)
  uint64_t now_ = 0;
  // scripted steps
  std::vector<Step> steps_;
  size_t step_ = 0;
  Phase phase_ = IDLE;
  int wait_ = 0;
  unsigned polls_ = 0;
  bool flush_queued_ = false;
  // program test: the generated program and its run
  std::unique_ptr<progen_program_t> prog_;
  progen_run_t run_{};
  // counts test: the independent count of every counter
  PirShadow shadow_;
  bool link_bias_ = false;  // random linked calls: a phase of mostly calls, or mostly returns
  bool path_bias_ = false;  // random path words: a phase of mostly ENTERs, or mostly pops
  bool in_handler_ = false;  // random traps: inside a handler's run of events
  bool long_traces_ = false;  // random branches: a phase of forward branches only (long histories)
  std::unordered_map<uint64_t, uint64_t> expected_;
  uint64_t counters_checked_ = 0;
  uint64_t expected_updates_ = 0;
  // statistics
  uint64_t events_ = 0, stalls_ = 0, updates_ = 0, decs_ = 0;
  uint64_t by_class_[6] = {0, 0, 0, 0, 0, 0};
  int pending_class_ = 0;
  uint64_t apb_reads_ = 0, apb_writes_ = 0, apb_errors_ = 0;
  uint64_t irq_rises_[3] = {0, 0, 0};
};

}  // namespace

int main(int argc, char** argv) {
  return lockstep::main(argc, argv, "tb_top", "random|directed|counts|program", [](const Options& o) {
    if (o.test == "directed" && o.mem_base != hwprof_tb::g_mem_base) {  // their addresses are worked out by hand
      std::fprintf(stderr, "tb_top: error: --mem-base: the directed scenarios run at 0x%llx only\n",
                   static_cast<unsigned long long>(hwprof_tb::g_mem_base));
      std::exit(2);
    }
    hwprof_tb::g_mem_base = o.mem_base;
    return std::unique_ptr<lockstep::Bench>(new TopBench(o));
  });
}
