// Lockstep unit bench of the FIFO primitive: rtl/prim/hwprof_prim_fifo.sv against
// cmodel/prim/fifo.c, every output on every cycle (lockstep framework, tb/lib/lockstep.h).
//
// Stimulus (--test=):
//   random    pushes, pops and clears in every combination a parent may make (a pop only when not
//             empty, a push only into room after the same cycle's pop and clear, or any time with
//             Overwrite), random data, a random index on the indexed read port
//   directed  a scenario whose outcomes are worked out by hand here: order, wrap-around, pop and
//             push in one cycle, clear and push in one cycle, full, indexed reads, a push into a
//             full FIFO (with a pop; with Overwrite, without one: the oldest entry goes), empty
//             reads as 0
//
// The parameters are fixed when Verilator builds the bench: PRIM_FIFO_WIDTH, PRIM_FIFO_DEPTH,
// PRIM_FIFO_OVERWRITE, PRIM_FIFO_IDX_READ (without the indexed port, idx_rdata_o must read 0).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "Vhwprof_prim_fifo.h"
#include "lib/lockstep.h"
#include "verilated.h"
#include "lib/verilated_top.h"

extern "C" {
#include "prim/fifo.h"
}

#ifndef PRIM_FIFO_WIDTH
#define PRIM_FIFO_WIDTH 40
#endif
#ifndef PRIM_FIFO_DEPTH
#define PRIM_FIFO_DEPTH 5
#endif
#ifndef PRIM_FIFO_OVERWRITE
#define PRIM_FIFO_OVERWRITE 0
#endif
#ifndef PRIM_FIFO_IDX_READ
#define PRIM_FIFO_IDX_READ 1
#endif

namespace {

using lockstep::Checker;
using lockstep::Options;
using lockstep::TxLog;

constexpr uint64_t kMask = PRIM_FIFO_WIDTH >= 64 ? ~0ull : ((1ull << PRIM_FIFO_WIDTH) - 1);

// one directed step: the inputs, and the outputs expected in that cycle (before its edge)
struct Step {
  bool pop, clr, push;
  uint64_t wdata;
  unsigned count;   // expected count_o
  uint64_t rdata;   // expected rdata_o
  const char* what;
  unsigned idx = 0;        // idx_i
  int64_t idx_rdata = -1;  // expected idx_rdata_o; -1: the same as rdata (idx 0 is the head)
};

std::vector<Step> directed() {
  std::vector<Step> s;
  const unsigned D = PRIM_FIFO_DEPTH;
  s.push_back({false, false, true, 11, 0, 0, "empty: count 0, reads 0; push 11"});
  if (D >= 4) {
    s.push_back({false, false, true, 22, 1, 11, "one entry, head 11; push 22"});
    s.push_back({false, false, true, 33, 2, 11, "push 33"});
    s.push_back({true, false, true, 44, 3, 11, "pop 11 and push 44 in one cycle"});
    s.push_back({true, false, false, 0, 3, 22, "head is 22 (first in, first out); pop"});
    s.push_back({true, false, false, 0, 2, 33, "pop 33"});
    s.push_back({false, true, true, 55, 1, 44, "clear and push 55 in one cycle: the push is kept"});
    s.push_back({true, false, false, 0, 1, 55, "only 55 is left; pop"});
  } else {
    s.push_back({true, false, false, 0, 1, 11, "a small FIFO: pop 11"});
    s.push_back({false, true, true, 55, 0, 0, "clear and push 55 in one cycle: the push is kept"});
    s.push_back({true, false, false, 0, 1, 55, "pop 55"});
  }
  // fill to full, across the wrap-around of the storage
  for (unsigned i = 0; i < D; i++) s.push_back({false, false, true, 100 + i, i, i ? 100 : 0, "fill"});
  s.push_back({false, false, false, 0, D, 100, "full: count = depth, head is the first pushed; index depth-1 is the last",
               D - 1, 100 + D - 1});
  s.push_back({false, false, false, 0, D, 100, "an index past the count reads 0", D, 0});
  if (PRIM_FIFO_OVERWRITE)
    s.push_back({false, false, true, 200, D, 100, "push 200 into the full FIFO: it replaces the oldest entry (100)"});
  else
    s.push_back({true, false, true, 200, D, 100, "pop 100 and push 200 into the full FIFO in one cycle"});
  s.push_back({false, false, false, 0, D, D > 1 ? 101 : 200, "still full; 200 is the last entry", D - 1, 200});
  for (unsigned i = 0; i < D; i++)
    s.push_back({true, false, false, 0, D - i, i + 1 < D ? 101 + i : 200, "drain in order"});
  s.push_back({false, false, false, 0, 0, 0, "empty again: reads 0"});
  return s;
}

class FifoBench : public lockstep::BlockBench<Vhwprof_prim_fifo> {
 public:
  explicit FifoBench(const Options& o) : BlockBench("hwprof_prim_fifo"), rng_(o.seed) {
    cfg_ = hwprof_prim_fifo_cfg_t{PRIM_FIFO_WIDTH, PRIM_FIFO_DEPTH, PRIM_FIFO_OVERWRITE != 0, PRIM_FIFO_IDX_READ != 0};
    require_cfg(hwprof_prim_fifo_cfg_check(&cfg_) == kHwprofOk, "tb_prim_fifo");
    hwprof_prim_fifo_reset(&model_);
    if (o.test == "directed") steps_ = directed();
    rtl_.reset();
  }
  void inject_fault(TxLog& log) override {
    model_.count ^= 1u;
    log.add(0, "inject: flipped bit 0 of the model's count");
  }
  void summary(FILE* to) const override {
    std::fprintf(to,
                 "  width %u, depth %u, overwrite %d: %llu pushes (%llu into a full FIFO), %llu pops, %llu clears, "
                 "%llu cycles full\n",
                 PRIM_FIFO_WIDTH, PRIM_FIFO_DEPTH, PRIM_FIFO_OVERWRITE, (unsigned long long)pushes_,
                 (unsigned long long)full_pushes_, (unsigned long long)pops_, (unsigned long long)clears_,
                 (unsigned long long)full_);
    if (!steps_.empty()) std::fprintf(to, "  scripted steps completed %zu of %zu\n", step_, steps_.size());
  }

  bool cycle(uint64_t t, Checker& chk, TxLog& log) override {
    hwprof_prim_fifo_in_t in{};
    const Step* st = nullptr;
    if (!steps_.empty()) {
      if (step_ == steps_.size()) return false;
      st = &steps_[step_++];
      in = hwprof_prim_fifo_in_t{st->pop, st->clr, st->push, st->wdata & kMask, st->idx};
    } else {
      // a parent's use: pop only a non-empty FIFO, push only into room after this cycle's pop and
      // clear (any time with Overwrite); any index, past the count too
      hwprof_prim_fifo_out_t now;
      hwprof_prim_fifo_comb(&model_, &cfg_, 0, &now);
      in.pop = now.count != 0 && rng_.chance(45);
      in.clr = rng_.chance(3);
      in.push = (PRIM_FIFO_OVERWRITE || !now.full || in.pop || in.clr) && rng_.chance(55);
      in.wdata = rng_.next() & kMask;
      in.idx = static_cast<unsigned>(rng_.chance(5) ? rng_.below(256) : rng_.below(PRIM_FIFO_DEPTH + 2));
    }
    hwprof_prim_fifo_out_t m;
    hwprof_prim_fifo_comb(&model_, &cfg_, in.idx, &m);
    rtl_->pop_i = in.pop;
    rtl_->clr_i = in.clr;
    rtl_->push_i = in.push;
    rtl_->wdata_i = in.wdata;
    rtl_->idx_i = static_cast<uint8_t>(in.idx);
    rtl_->eval();
    chk.begin_cycle(t);
    chk.eq("count_o", m.count, rtl_->count_o);
    chk.eq("full_o", m.full, rtl_->full_o);
    chk.eq("rdata_o", m.rdata, static_cast<uint64_t>(rtl_->rdata_o));
    chk.eq("idx_rdata_o", m.idx_rdata, static_cast<uint64_t>(rtl_->idx_rdata_o));
    if (st) {
      chk.expect(st->what, st->count, rtl_->count_o);
      chk.expect(st->what, st->rdata, static_cast<uint64_t>(rtl_->rdata_o));
      const uint64_t want_idx = st->idx_rdata < 0 ? st->rdata : static_cast<uint64_t>(st->idx_rdata);
      chk.expect(st->what, PRIM_FIFO_IDX_READ ? want_idx : 0u, static_cast<uint64_t>(rtl_->idx_rdata_o));
    }
    char line[200];
    std::snprintf(line, sizeof line, "pop=%d clr=%d push=%d wdata=0x%llx idx=%u count=%u rdata=0x%llx idx_rdata=0x%llx",
                  in.pop, in.clr, in.push, (unsigned long long)in.wdata, in.idx, m.count, (unsigned long long)m.rdata,
                  (unsigned long long)m.idx_rdata);
    log.add(t, line);
    pushes_ += in.push;
    full_pushes_ += in.push && m.full;
    pops_ += in.pop;
    clears_ += in.clr;
    full_ += m.full;
    rtl_.rising_edge(t, [&] { hwprof_prim_fifo_step(&model_, &cfg_, &in); });
    return true;
  }

 private:
  lockstep::Rng rng_;
  hwprof_prim_fifo_cfg_t cfg_{};
  hwprof_prim_fifo_state_t model_{};
  std::vector<Step> steps_;
  size_t step_ = 0;
  uint64_t pushes_ = 0, full_pushes_ = 0, pops_ = 0, clears_ = 0, full_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  return lockstep::main(argc, argv, "tb_prim_fifo", "random|directed", [](const Options& o) {
    return std::unique_ptr<lockstep::Bench>(new FifoBench(o));
  });
}
