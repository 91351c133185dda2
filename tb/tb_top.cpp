// Lockstep bench of hwprof_top: the Verilated RTL against cmodel/top.c, every output on every cycle.
//
// Stimulus:
//   random    constrained-random retire events and APB transfers (held while ready is low)
//   directed  each row of the update-operation table (docs/pir.md), the pir instructions, register
//             access and misuse; every outcome is also checked against a value written by hand here
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "Vhwprof_top.h"
#include "lockstep.h"
#include "verilated.h"
#include "verilated_fst_c.h"

extern "C" {
#include "top.h"
}

namespace {

using lockstep::Checker;
using lockstep::Options;
using lockstep::Rng;
using lockstep::TxLog;

const char* kind_name(unsigned k) {
  static const char* names[] = {"other", "branch", "jump", "ijump", "load", "store", "prof", "kind7"};
  return names[k & 7];
}
const char* bhint_name(unsigned b) {
  static const char* names[] = {"tk", "nt", "either", "all"};
  return names[b & 3];
}
const char* op_name(unsigned o) {
  static const char* names[] = {"id", "init", "setoff", "start", "stop", "trigger", "op6", "op7"};
  return names[o & 7];
}

// One step of a directed test: a retire event, or an APB read or write, with its expected outcome.
struct Step {
  enum Type { EVENT, READ, WRITE } type;
  retire_ev_t ev;
  uint16_t addr;
  uint32_t data;      // write data, or expected read data
  bool expect_upd;    // EVENT: an update operation follows
  uint64_t upd_addr;  // EVENT: its byte address
  bool upd_dec;       // EVENT: decrement
  bool expect_err;    // READ/WRITE: pslverr
  const char* what;
};

retire_ev_t ev_of(uint8_t kind) {
  retire_ev_t e{};
  e.valid = true;
  e.kind = kind;
  e.pc = 0x80000000u;
  e.next_pc = 0x80000004u;
  return e;
}
retire_ev_t prof(uint8_t op, uint64_t operand) {
  retire_ev_t e = ev_of(HWPROF_KIND_PROF);
  e.op = op;
  e.operand = operand;
  return e;
}
retire_ev_t br(uint8_t kind, uint16_t pid, uint8_t bhint, bool taken, bool dec = false) {
  retire_ev_t e = ev_of(kind);
  e.pid = pid;
  e.bhint = bhint;
  e.taken = taken;
  e.ihint = dec;
  return e;
}
Step evs(retire_ev_t e, const char* what) { return Step{Step::EVENT, e, 0, 0, false, 0, false, false, what}; }
Step upd(retire_ev_t e, uint64_t addr, bool dec, const char* what) {
  return Step{Step::EVENT, e, 0, 0, true, addr, dec, false, what};
}
Step rd(uint16_t a, uint32_t v, bool err, const char* what) {
  return Step{Step::READ, retire_ev_t{}, a, v, false, 0, false, err, what};
}
Step wr(uint16_t a, uint32_t v, bool err, const char* what) {
  return Step{Step::WRITE, retire_ev_t{}, a, v, false, 0, false, err, what};
}

// The update-operation table of docs/pir.md, with every address worked out by hand:
// counter byte address = base + (offset + pid - 1 [+1 for the not-taken edge of either]) * 4.
std::vector<Step> directed_steps() {
  using namespace std;
  const uint16_t B = HWPROF_KIND_BRANCH;
  std::vector<Step> s = {
      rd(HWPROF_TOP_ID_ADDR, 0x48575046u, false, "ID reads 'HWPF'"),
      evs(br(B, 1, HWPROF_BHINT_TK, true), "flag 0 after reset: no update"),
      evs(prof(HWPROF_PROF_OP_INIT, 0x1000), "initprof 0x1000"),
      evs(br(B, 1, HWPROF_BHINT_TK, true), "flag still 0: no update"),
      evs(prof(HWPROF_PROF_OP_START, 0), "startprof"),
      upd(br(B, 3, HWPROF_BHINT_TK, true), 0x1008, false, "tk, taken -> counter[2]"),
      evs(br(B, 3, HWPROF_BHINT_TK, false), "tk, not taken: no update"),
      upd(br(B, 3, HWPROF_BHINT_NT, false), 0x1008, false, "nt, not taken -> counter[2]"),
      evs(br(B, 3, HWPROF_BHINT_NT, true), "nt, taken: no update"),
      upd(br(B, 5, HWPROF_BHINT_EITHER, true), 0x1010, false, "either, taken -> counter[4]"),
      upd(br(B, 5, HWPROF_BHINT_EITHER, false), 0x1014, false, "either, not taken -> counter[5]"),
      upd(br(B, 6, HWPROF_BHINT_ALL, true), 0x1014, false, "all, taken -> counter[5]"),
      upd(br(B, 6, HWPROF_BHINT_ALL, false), 0x1014, false, "all, not taken -> counter[5]"),
      upd(br(HWPROF_KIND_IJUMP, 2, HWPROF_BHINT_ALL, true), 0x1004, false, "indirect jump, all -> counter[1]"),
      upd(br(HWPROF_KIND_JUMP, 1, HWPROF_BHINT_TK, true), 0x1000, false, "direct jump, tk -> counter[0]"),
      upd(br(B, 4, HWPROF_BHINT_TK, true, true), 0x100c, true, "tk.dec, taken -> decrement counter[3]"),
      evs(br(B, 0, HWPROF_BHINT_ALL, true), "pid 0: no update"),
      evs(br(HWPROF_KIND_LOAD, 3, HWPROF_BHINT_ALL, true), "load carrying a pid: no update"),
      evs(br(HWPROF_KIND_OTHER, 3, HWPROF_BHINT_ALL, true), "other instruction carrying a pid: no update"),
  };
  retire_ev_t id = prof(HWPROF_PROF_OP_ID, 0);
  id.pid = 7;
  id.bhint = HWPROF_BHINT_NT;  // ignored by prof.id
  id.taken = false;
  s.push_back(upd(id, 0x1018, false, "prof.id 7 -> counter[6] (hint ignored)"));
  id.ihint = true;
  s.push_back(upd(id, 0x1018, true, "prof.id.dec 7 -> decrement counter[6]"));
  retire_ev_t id0 = id;
  id0.pid = 0;
  s.push_back(evs(id0, "prof.id 0: no update"));
  s.push_back(evs(prof(HWPROF_PROF_OP_SETOFF, 16), "setoffset 16"));
  s.push_back(upd(br(B, 1, HWPROF_BHINT_TK, true), 0x1040, false, "offset 16, pid 1 -> counter[16]"));
  s.push_back(upd(br(B, 0xffff, HWPROF_BHINT_EITHER, false), 0x1000 + (16 + 0xffffull) * 4, false,
                  "largest pid, either not taken -> counter[16+65535]"));
  s.push_back(evs(prof(HWPROF_PROF_OP_SETOFF, 0x1ffffff), "setoffset keeps 24 bits"));
  s.push_back(rd(HWPROF_PIR_OFFSET_ADDR, 0xffffff, false, "offset reads 0xffffff"));
  s.push_back(upd(br(B, 0xffff, HWPROF_BHINT_EITHER, false), 0x1000 + (0xffffffull + 0xffff) * 4, false,
                  "largest offset + largest pid"));
  s.push_back(evs(prof(HWPROF_PROF_OP_INIT, 0x2000), "initprof 0x2000 clears offset"));
  s.push_back(rd(HWPROF_PIR_OFFSET_ADDR, 0, false, "offset reads 0 after initprof"));
  s.push_back(upd(br(B, 1, HWPROF_BHINT_TK, true), 0x2000, false, "new base, offset 0 -> counter[0]"));
  s.push_back(evs(prof(HWPROF_PROF_OP_STOP, 0), "stopprof"));
  s.push_back(evs(br(B, 1, HWPROF_BHINT_ALL, true), "flag 0: no update"));
  s.push_back(rd(HWPROF_PIR_CTRL_ADDR, 0, false, "flag reads 0"));
  s.push_back(evs(prof(HWPROF_PROF_OP_START, 0), "startprof resumes"));
  s.push_back(evs(prof(HWPROF_PROF_OP_TRIGGER, 0x18005), "trigger keeps 15 bits"));
  s.push_back(rd(HWPROF_PIR_TRIGGER_ADDR, 0x0005, false, "trigger reads 5"));
  s.push_back(evs(prof(HWPROF_PROF_OP_INIT, 0xfffffffffcull), "initprof at the top of the 40-bit space"));
  s.push_back(rd(HWPROF_PIR_BASE_HI_ADDR, 0xff, false, "base[39:32]"));
  s.push_back(rd(HWPROF_PIR_BASE_LO_ADDR, 0xfffffffc, false, "base[31:0]"));
  s.push_back(upd(br(B, 2, HWPROF_BHINT_TK, true), 0x0, false, "address wraps at 40 bits"));
  retire_ev_t reserved = prof(6, 0x123);
  s.push_back(evs(reserved, "reserved prof op does nothing"));
  s.push_back(rd(HWPROF_PIR_BASE_LO_ADDR, 0xfffffffc, false, "base unchanged by reserved op"));
  // context switch through registers
  s.push_back(wr(HWPROF_PIR_BASE_LO_ADDR, 0x00003000, false, "write base[31:0]"));
  s.push_back(wr(HWPROF_PIR_BASE_HI_ADDR, 0xffffff01, false, "write base[39:32] (upper bits ignored)"));
  s.push_back(rd(HWPROF_PIR_BASE_HI_ADDR, 0x01, false, "base[39:32] reads 1"));
  s.push_back(wr(HWPROF_PIR_OFFSET_ADDR, 2, false, "write offset"));
  s.push_back(upd(br(B, 1, HWPROF_BHINT_TK, true), 0x0100003008ull, false, "restored pir -> counter[2]"));
  s.push_back(wr(HWPROF_PIR_CTRL_ADDR, 0, false, "write flag 0"));
  s.push_back(evs(br(B, 1, HWPROF_BHINT_TK, true), "flag written 0: no update"));
  // misuse: nothing changes, pslverr answers
  s.push_back(rd(HWPROF_PIR_STAT_UPDATES_ADDR, 17, false, "17 updates so far"));
  s.push_back(wr(HWPROF_PIR_STAT_UPDATES_ADDR, 0, true, "write to a read-only register"));
  s.push_back(rd(HWPROF_PIR_STAT_UPDATES_ADDR, 17, false, "read-only register unchanged"));
  s.push_back(wr(HWPROF_TOP_ID_ADDR, 0, true, "write to ID"));
  s.push_back(rd(HWPROF_TOP_ID_ADDR, 0x48575046u, false, "ID unchanged"));
  s.push_back(wr(HWPROF_PIR_BASE_LO_ADDR + 0x40, 0x55, true, "write to an unmapped address in the pir window"));
  s.push_back(rd(HWPROF_PIR_BASE_LO_ADDR + 0x40, 0, true, "read of an unmapped address"));
  s.push_back(wr(0x7f00, 0x55, true, "write to an unmapped window"));
  s.push_back(rd(0xff04, 0, true, "read of an unmapped window"));
  s.push_back(rd(HWPROF_PIR_BASE_LO_ADDR, 0x3000, false, "base unchanged by misuse"));
  s.push_back(rd(HWPROF_PIR_OFFSET_ADDR, 2, false, "offset unchanged by misuse"));
  return s;
}

class TopBench : public lockstep::Bench {
 public:
  explicit TopBench(const Options& o) : o_(o), rng_(o.seed) {
    ctx_.reset(new VerilatedContext);
    ctx_->traceEverOn(true);
    ctx_->randReset(0);
    rtl_.reset(new Vhwprof_top(ctx_.get(), "hwprof_top"));
    top_cfg_default(&cfg_);
    top_reset(&model_);
    if (o.test == "directed") steps_ = directed_steps();
    // reset the RTL: two clock edges with rst_ni low
    rtl_->rst_ni = 0;
    for (int i = 0; i < 2; i++) {
      rtl_->clk_i = 0;
      rtl_->eval();
      rtl_->clk_i = 1;
      rtl_->eval();
    }
    rtl_->clk_i = 0;
    rtl_->rst_ni = 1;
    in_ = top_in_t{};
  }

  ~TopBench() override {
    waves_close();
    rtl_->final();
#if VM_COVERAGE
    // coverage builds (make cov) write one data file per run
    if (const char* path = std::getenv("HWPROF_COVERAGE_FILE")) ctx_->coveragep()->write(path);
#endif
  }

  void waves_open(const std::string& path) override {
    fst_.reset(new VerilatedFstC);
    rtl_->trace(fst_.get(), 99);
    fst_->open(path.c_str());
  }
  void waves_close() override {
    if (fst_) fst_->close();
    fst_.reset();
  }

  void inject_fault(TxLog& log) override {
    // flip offset bit 0 in the model only: the next update or register read that uses it differs
    model_.pir.offset ^= 1u;
    log.add(now_, "INJECT: C model pir.offset bit 0 flipped");
  }

  bool cycle(uint64_t t, Checker& chk, TxLog& log) override {
    now_ = t;
    bool more = (o_.test == "directed") ? drive_directed() : (drive_random(), true);
    if (o_.test == "directed" && more && t + 1 == o_.cycles)
      chk.expect("directed test finished within --cycles (steps completed)", steps_.size(), step_done_);
    const bool run_rtl = o_.engine != "model";
    const bool run_model = o_.engine != "rtl";
    top_out_t m{};
    if (run_rtl) {
      apply_rtl();
      rtl_->eval();
    }
    if (run_model) top_comb(&model_, &cfg_, &in_, &m);
    if (run_rtl && run_model) compare(m, chk);
    else if (run_rtl) m = rtl_outputs(m);
    observe(m, log, chk);
    // rising edge
    if (fst_) fst_->dump(2 * t);
    if (run_rtl) {
      rtl_->clk_i = 1;
      rtl_->eval();
    }
    if (run_model) top_step(&model_, &cfg_, &in_);
    if (fst_) fst_->dump(2 * t + 1);
    rtl_->clk_i = 0;
    accepted_ = in_.ev.valid && m.ev_ready;
    apb_done_ = in_.apb.psel && in_.apb.penable;
    return more;
  }

  void summary(FILE* to) const override {
    std::fprintf(to, "  cycles %" PRIu64 ", retire events accepted %" PRIu64 ", stall cycles %" PRIu64 "\n",
                 now_ + 1, events_, stalls_);
    std::fprintf(to, "  update operations %" PRIu64 " (inc %" PRIu64 ", dec %" PRIu64 "):", updates_,
                 updates_ - decs_, decs_);
    static const char* cls[] = {"tk", "nt", "either-taken", "either-not-taken", "all", "prof.id"};
    for (int i = 0; i < 6; i++) std::fprintf(to, " %s %" PRIu64, cls[i], by_class_[i]);
    std::fprintf(to, "\n  APB reads %" PRIu64 ", writes %" PRIu64 ", pslverr %" PRIu64 "\n", apb_reads_,
                 apb_writes_, apb_errors_);
    if (o_.test == "directed")
      std::fprintf(to, "  directed steps completed %zu of %zu\n", step_done_, steps_.size());
  }

 private:
  // ---------------- random stimulus
  uint64_t operand() {
    switch (rng_.below(6)) {
      case 0: return 0;
      case 1: return HWPROF_MASK(HWPROF_EV_OPERAND_W);
      case 2: return rng_.below(64) * 4;
      default: return rng_.next() & HWPROF_MASK(HWPROF_EV_OPERAND_W);
    }
  }
  uint16_t pid() {
    switch (rng_.pick({20, 45, 25, 10})) {
      case 0: return 0;
      case 1: return static_cast<uint16_t>(1 + rng_.below(8));
      case 2: return static_cast<uint16_t>(rng_.next());
      default: return 0xffff;
    }
  }
  void new_event() {
    retire_ev_t& e = in_.ev;
    e = retire_ev_t{};
    e.valid = rng_.chance(85);
    static const std::vector<unsigned> kw = {25, 25, 5, 5, 10, 5, 24, 1};
    e.kind = static_cast<uint8_t>(rng_.pick(kw));
    e.pc = static_cast<uint32_t>(rng_.next()) & ~3u;
    e.next_pc = static_cast<uint32_t>(rng_.next()) & ~3u;
    e.insn = static_cast<uint32_t>(rng_.next());
    e.is_call = rng_.chance(5);
    e.is_ret = rng_.chance(5);
    e.taken = (e.kind == HWPROF_KIND_JUMP || e.kind == HWPROF_KIND_IJUMP) ? rng_.chance(95) : rng_.chance(50);
    e.addr = static_cast<uint32_t>(rng_.next());
    e.value = static_cast<uint32_t>(rng_.next());
    e.pid = pid();
    e.bhint = static_cast<uint8_t>(rng_.below(4));
    e.ihint = rng_.chance(30);
    static const std::vector<unsigned> ow = {40, 8, 15, 14, 4, 12, 4, 3};
    e.op = static_cast<uint8_t>(rng_.pick(ow));
    e.operand = operand();
  }
  uint16_t apb_addr() {
    static const uint16_t regs[] = {
        HWPROF_TOP_ID_ADDR,          HWPROF_TOP_VERSION_ADDR,  HWPROF_PIR_BASE_LO_ADDR,
        HWPROF_PIR_BASE_HI_ADDR,     HWPROF_PIR_OFFSET_ADDR,   HWPROF_PIR_TRIGGER_ADDR,
        HWPROF_PIR_CTRL_ADDR,        HWPROF_PIR_STAT_EVENTS_ADDR, HWPROF_PIR_STAT_UPDATES_ADDR};
    switch (rng_.pick({70, 15, 15})) {
      case 0: return regs[rng_.below(sizeof regs / sizeof regs[0])];
      case 1: return static_cast<uint16_t>((rng_.below(2) << 8) | (rng_.below(64) * 4));
      default: return static_cast<uint16_t>(rng_.next());
    }
  }
  void drive_random() {
    if (accepted_ || now_ == 0) new_event();
    else if (!in_.ev.valid) new_event();  // an idle cycle may become an event; a valid one is held
    apb_req_t& a = in_.apb;
    if (apb_done_) a = apb_req_t{};
    if (a.psel && !a.penable) {
      a.penable = true;  // setup -> access
    } else if (!a.psel && rng_.chance(12)) {
      a.psel = true;
      a.penable = false;
      a.pwrite = rng_.chance(40);
      a.paddr = apb_addr();
      // writes to CTRL mostly keep profiling on, so updates keep flowing
      a.pwdata = (a.paddr == HWPROF_PIR_CTRL_ADDR && rng_.chance(80)) ? 1u
                 : rng_.chance(20) ? 0xffffffffu : static_cast<uint32_t>(rng_.next());
    }
  }

  // ---------------- directed stimulus
  bool drive_directed() {
    apb_req_t& a = in_.apb;
    if (apb_done_) a = apb_req_t{};
    if (accepted_) in_.ev.valid = false;
    if (phase_ == IDLE) {
      if (step_ >= steps_.size()) return wait_ < 3 ? (wait_++, true) : false;
      const Step& s = steps_[step_];
      if (s.type == Step::EVENT) {
        in_.ev = s.ev;
        phase_ = EV_WAIT;
      } else {
        a.psel = true;
        a.penable = false;
        a.pwrite = s.type == Step::WRITE;
        a.paddr = s.addr;
        a.pwdata = s.type == Step::WRITE ? s.data : 0;
        phase_ = APB_SETUP;
      }
    } else if (phase_ == APB_SETUP) {
      a.penable = true;
      phase_ = APB_ACCESS;
    }
    return true;
  }
  enum Phase { IDLE, EV_WAIT, EV_CHECK, APB_SETUP, APB_ACCESS };

  void check_directed(const top_out_t& rtl_like, Checker& chk) {
    if (o_.test != "directed" || step_ >= steps_.size()) return;
    const Step& s = steps_[step_];
    std::string what = std::string("step ") + std::to_string(step_) + " (" + s.what + ")";
    if (phase_ == EV_WAIT && in_.ev.valid && rtl_like.ev_ready) {
      phase_ = EV_CHECK;  // the update operation shows next cycle
    } else if (phase_ == EV_CHECK) {
      chk.expect((what + " upd_valid").c_str(), s.expect_upd, rtl_like.upd.valid);
      if (s.expect_upd) {
        chk.expect((what + " upd_addr").c_str(), s.upd_addr, rtl_like.upd.addr);
        chk.expect((what + " upd_dec").c_str(), s.upd_dec, rtl_like.upd.dec);
      }
      finish_step();
    } else if (phase_ == APB_ACCESS) {
      chk.expect((what + " pslverr").c_str(), s.expect_err, rtl_like.apb.pslverr);
      if (s.type == Step::READ) chk.expect((what + " prdata").c_str(), s.data, rtl_like.apb.prdata);
      finish_step();
    }
  }
  void finish_step() {
    phase_ = IDLE;
    step_++;
    step_done_ = step_;
  }

  // ---------------- compare and observe
  void apply_rtl() {
    const retire_ev_t& e = in_.ev;
    rtl_->ev_valid_i = e.valid;
    rtl_->ev_pc_i = e.pc;
    rtl_->ev_next_pc_i = e.next_pc;
    rtl_->ev_insn_i = e.insn;
    rtl_->ev_kind_i = e.kind;
    rtl_->ev_is_call_i = e.is_call;
    rtl_->ev_is_ret_i = e.is_ret;
    rtl_->ev_taken_i = e.taken;
    rtl_->ev_addr_i = e.addr;
    rtl_->ev_value_i = e.value;
    rtl_->ev_pid_i = e.pid;
    rtl_->ev_bhint_i = e.bhint;
    rtl_->ev_ihint_i = e.ihint;
    rtl_->ev_op_i = e.op;
    rtl_->ev_operand_i = e.operand;
    rtl_->psel_i = in_.apb.psel;
    rtl_->penable_i = in_.apb.penable;
    rtl_->pwrite_i = in_.apb.pwrite;
    rtl_->paddr_i = in_.apb.paddr;
    rtl_->pwdata_i = in_.apb.pwdata;
  }

  void compare(const top_out_t& m, Checker& chk) {
    chk.eq("ev_ready_o", m.ev_ready, rtl_->ev_ready_o);
    chk.eq("prdata_o", m.apb.prdata, rtl_->prdata_o);
    chk.eq("pready_o", m.apb.pready, rtl_->pready_o);
    chk.eq("pslverr_o", m.apb.pslverr, rtl_->pslverr_o);
    chk.eq("upd_valid_o", m.upd.valid, rtl_->upd_valid_o);
    chk.eq("upd_addr_o", m.upd.addr, rtl_->upd_addr_o);
    chk.eq("upd_dec_o", m.upd.dec, rtl_->upd_dec_o);
    // directed expectations are checked on the RTL's outputs
    check_directed(rtl_outputs(m), chk);
  }

  top_out_t rtl_outputs(top_out_t r) const {
    r.ev_ready = rtl_->ev_ready_o;
    r.apb.pready = rtl_->pready_o;
    r.apb.prdata = rtl_->prdata_o;
    r.apb.pslverr = rtl_->pslverr_o;
    r.upd.valid = rtl_->upd_valid_o;
    r.upd.addr = rtl_->upd_addr_o;
    r.upd.dec = rtl_->upd_dec_o;
    return r;
  }

  void observe(const top_out_t& m, TxLog& log, Checker&) {
    // a single engine cannot mismatch: skip formatting unless a full log was asked for
    const bool text = o_.engine == "lockstep" || !o_.log_path.empty();
    char buf[160];
    const retire_ev_t& e = in_.ev;
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
      if (text) {
        if (e.kind == HWPROF_KIND_PROF)
          std::snprintf(buf, sizeof buf, "EV   prof.%s operand=0x%" PRIx64 " pid=%u ihint=%u", op_name(e.op),
                        e.operand, e.pid, e.ihint);
        else
          std::snprintf(buf, sizeof buf, "EV   %s pc=0x%08x pid=%u %s.%s taken=%u", kind_name(e.kind), e.pc,
                        e.pid, bhint_name(e.bhint), e.ihint ? "dec" : "inc", e.taken);
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
  }

  // which row of the update table an event falls in (for the summary only)
  static int classify(const retire_ev_t& e) {
    if (e.kind == HWPROF_KIND_PROF) return 5;
    switch (e.bhint) {
      case HWPROF_BHINT_TK: return 0;
      case HWPROF_BHINT_NT: return 1;
      case HWPROF_BHINT_EITHER: return e.taken ? 2 : 3;
      default: return 4;
    }
  }

  Options o_;
  Rng rng_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vhwprof_top> rtl_;
  std::unique_ptr<VerilatedFstC> fst_;
  top_cfg_t cfg_;
  top_state_t model_;
  top_in_t in_;
  bool accepted_ = false;
  bool apb_done_ = false;
  uint64_t now_ = 0;
  // directed test progress
  std::vector<Step> steps_;
  size_t step_ = 0;
  size_t step_done_ = 0;
  Phase phase_ = IDLE;
  int wait_ = 0;
  // statistics
  uint64_t events_ = 0, stalls_ = 0, updates_ = 0, decs_ = 0;
  uint64_t by_class_[6] = {0, 0, 0, 0, 0, 0};
  int pending_class_ = 0;
  uint64_t apb_reads_ = 0, apb_writes_ = 0, apb_errors_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  return lockstep::main(argc, argv, "tb_top", "random|directed", [](const Options& o) {
    return std::unique_ptr<lockstep::Bench>(new TopBench(o));
  });
}
