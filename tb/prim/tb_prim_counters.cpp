// Lockstep unit bench of the statistics counter bank: rtl/prim/hwprof_prim_counters.sv against
// cmodel/prim/counters.c, every counter on every cycle (lockstep framework, tb/lib/lockstep.h).
//
// Stimulus (--test=):
//   random    random increments on every counter, an occasional clear, now and then a write of
//             one or several counters (often a value just below the wrap)
//   directed  outcomes worked out by hand here: every counter counts its own events only, a clear
//             with an increment in the same cycle keeps that increment, (when W <= 4) a counter
//             wraps around to 0 after 2^W events, a write loads its counter only, an event in the
//             write's cycle counts on top of the value written, a written 2^W - 2 wraps after two
//             events, and a write in a clear's cycle keeps the value written
//
// The parameters are fixed when Verilator builds the bench: PRIM_COUNTERS_N, PRIM_COUNTERS_W.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "Vhwprof_prim_counters.h"
#include "lib/lockstep.h"
#include "verilated.h"
#include "lib/verilated_top.h"

extern "C" {
#include "prim/counters.h"
}

#ifndef PRIM_COUNTERS_N
#define PRIM_COUNTERS_N 6
#endif
#ifndef PRIM_COUNTERS_W
#define PRIM_COUNTERS_W 32
#endif

namespace {

using lockstep::Checker;
using lockstep::Options;
using lockstep::TxLog;

constexpr unsigned kN = PRIM_COUNTERS_N, kW = PRIM_COUNTERS_W;

// bits [lsb +: w] of a Verilated output (a scalar, or a VlWide when the bank is wider than 64 bits)
template <typename T>
uint64_t bits(const T& v, unsigned lsb, unsigned w) {
  const uint64_t x = static_cast<uint64_t>(v) >> lsb;
  return w >= 64 ? x : x & ((1ull << w) - 1);
}
template <std::size_t N>
uint64_t bits(const VlWide<N>& v, unsigned lsb, unsigned w) {
  uint64_t x = 0;
  for (unsigned b = 0; b < w; b++) x |= static_cast<uint64_t>((v[(lsb + b) / 32] >> ((lsb + b) % 32)) & 1u) << b;
  return x;
}
constexpr uint32_t kAll = kN >= 32 ? ~0u : (1u << kN) - 1u;

// one directed step: the inputs, and counters 0 and 1 and the rest (all equal) expected in that
// cycle, before its edge
struct Step {
  uint32_t inc;
  bool clr;
  uint64_t c0, c1, rest;
  const char* what;
  uint32_t wr = 0;
  uint64_t wdata = 0;
};

std::vector<Step> directed() {
  std::vector<Step> s;
  s.push_back({kAll, false, 0, 0, 0, "after reset every counter is 0; one event on each"});
  s.push_back({1u, false, 1, 1, 1, "each counted its event; one more on counter 0 only"});
  s.push_back({2u, true, 2, 1, 1, "counter 0 alone counted; clear, and one event on counter 1 in the same cycle"});
  s.push_back({0u, false, 0, 1, 0, "the clear zeroed the bank, the event of its cycle counted"});
  if (kW <= 4) {
    const uint64_t wrap = 1ull << kW;
    for (uint64_t k = 0; k < wrap; k++)
      s.push_back({1u, false, k, 1, 0, "counter 0 counts up to 2^W - 1"});
    s.push_back({0u, false, 0, 1, 0, "2^W events later counter 0 wrapped around to 0"});
  }
  // writes: counter 0 is 0, counter 1 is 1, the rest 0 here
  const uint64_t mask = kW >= 64 ? ~0ull : (1ull << kW) - 1u;
  s.push_back({kAll & ~3u, false, 0, 1, 0, "write 5 to counter 1; one event on each counter from 2 on", 2u, 5u});
  s.push_back({1u, false, 0, 5 & mask, 1, "counter 1 holds 5, the others are untouched; write 2^W - 2 to counter 0 "
               "with an event on it in the same cycle", 1u, mask - 1u});
  s.push_back({1u, false, mask, 5 & mask, 1, "the write and its cycle's event: 2^W - 1; one more event"});
  s.push_back({0u, true, 0, 5 & mask, 1, "wrapped around to 0; clear, and write 3 to counter 1 in the same cycle", 2u, 3u});
  s.push_back({0u, false, 0, 3 & mask, 0, "the clear zeroed the bank but counter 1, which holds the value written"});
  return s;
}

class CountersBench : public lockstep::BlockBench<Vhwprof_prim_counters> {
 public:
  explicit CountersBench(const Options& o) : BlockBench("hwprof_prim_counters"), rng_(o.seed) {
    cfg_ = hwprof_prim_counters_cfg_t{kN, kW};
    require_cfg(hwprof_prim_counters_cfg_check(&cfg_) == kHwprofOk, "tb_prim_counters");
    hwprof_prim_counters_reset(&model_);
    if (o.test == "directed") steps_ = directed();
    rtl_.reset();
  }
  void inject_fault(TxLog& log) override {
    model_.count[kN - 1] ^= 1u;
    log.add(0, "inject: flipped bit 0 of the model's last counter");
  }
  void summary(FILE* to) const override {
    std::fprintf(to, "  %u counters of %u bits: %llu events, %llu clears, %llu writes\n", kN, kW,
                 (unsigned long long)events_, (unsigned long long)clears_, (unsigned long long)writes_);
    if (!steps_.empty()) std::fprintf(to, "  scripted steps completed %zu of %zu\n", step_, steps_.size());
  }

  bool cycle(uint64_t t, Checker& chk, TxLog& log) override {
    hwprof_prim_counters_in_t in{};
    const Step* st = nullptr;
    if (!steps_.empty()) {
      if (step_ == steps_.size()) return false;
      st = &steps_[step_++];
      in = hwprof_prim_counters_in_t{st->inc, st->clr, st->wr, st->wdata};
    } else {
      in.inc = static_cast<uint32_t>(rng_.next()) & kAll;
      in.clr = rng_.chance(1);
      if (rng_.chance(2)) {  // one counter, now and then several; often a value about to wrap
        in.wr = rng_.chance(80) ? 1u << rng_.below(kN) : static_cast<uint32_t>(rng_.next()) & kAll;
        const uint64_t mask = kW >= 64 ? ~0ull : (1ull << kW) - 1u;
        in.wdata = rng_.chance(50) ? mask - rng_.below(4) : rng_.next();
      }
    }
    rtl_->inc_i = in.inc;
    rtl_->clr_i = in.clr;
    rtl_->wr_i = in.wr;
    rtl_->wdata_i = in.wdata & (kW >= 64 ? ~0ull : (1ull << kW) - 1u);  // a Verilated input holds W bits only
    rtl_->eval();
    chk.begin_cycle(t);
    for (unsigned i = 0; i < kN; i++) {
      const uint64_t rtl = bits(rtl_->count_o, i * kW, kW);
      char name[32];
      std::snprintf(name, sizeof name, "count_o[%u]", i);
      chk.eq(name, hwprof_prim_counters_get(&model_, i), rtl);
      if (st) chk.expect(st->what, i == 0 ? st->c0 : i == 1 ? st->c1 : st->rest, rtl);
    }
    char line[120];
    std::snprintf(line, sizeof line, "inc=0x%x clr=%d wr=0x%x wdata=0x%llx count0=%llu", in.inc, in.clr, in.wr,
                  (unsigned long long)in.wdata, (unsigned long long)hwprof_prim_counters_get(&model_, 0));
    log.add(t, line);
    for (unsigned i = 0; i < kN; i++) events_ += (in.inc >> i) & 1u;
    clears_ += in.clr;
    writes_ += in.wr != 0;
    rtl_.rising_edge(t, [&] { hwprof_prim_counters_step(&model_, &cfg_, &in); });
    return true;
  }

 private:
  lockstep::Rng rng_;
  hwprof_prim_counters_cfg_t cfg_{};
  hwprof_prim_counters_state_t model_{};
  std::vector<Step> steps_;
  size_t step_ = 0;
  uint64_t events_ = 0, clears_ = 0, writes_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  return lockstep::main(argc, argv, "tb_prim_counters", "random|directed", [](const Options& o) {
    return std::unique_ptr<lockstep::Bench>(new CountersBench(o));
  });
}
