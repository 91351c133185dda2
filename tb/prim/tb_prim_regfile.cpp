// Lockstep unit bench of the register-file primitive: rtl/prim/hwprof_prim_regfile.sv against
// cmodel/prim/regfile.c, both read ports on every cycle (lockstep framework, tb/lib/lockstep.h).
//
// Stimulus (--test=):
//   random    reads and writes at random addresses, some past the last word
//   directed  outcomes worked out by hand here: reset to 0, a write seen from the next cycle on
//             by both ports, a read of the old value in the cycle of a write, addresses past the
//             last word read 0 and are not written
//
// The parameters are fixed when Verilator builds the bench: PRIM_REGFILE_N, PRIM_REGFILE_W.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "Vhwprof_prim_regfile.h"
#include "lib/lockstep.h"
#include "verilated.h"
#include "lib/verilated_top.h"

extern "C" {
#include "prim/regfile.h"
}

#ifndef PRIM_REGFILE_N
#define PRIM_REGFILE_N 16
#endif
#ifndef PRIM_REGFILE_W
#define PRIM_REGFILE_W 32
#endif

namespace {

using lockstep::Checker;
using lockstep::Options;
using lockstep::TxLog;

constexpr unsigned kN = PRIM_REGFILE_N;
constexpr uint64_t kMask = PRIM_REGFILE_W >= 64 ? ~0ull : ((1ull << PRIM_REGFILE_W) - 1);

struct Step {
  unsigned ra, rb;
  bool we;
  unsigned waddr;
  uint64_t wdata;
  uint64_t a, b;  // expected reads
  const char* what;
};

std::vector<Step> directed() {
  std::vector<Step> s;
  if (kN >= 4) {
    s.push_back({0, 1, true, 1, 0x11, 0, 0, "after reset every word is 0; write 0x11 to word 1"});
    s.push_back({1, 1, true, 3, 0x33, 0x11, 0x11, "both ports see word 1's new value; write 0x33 to word 3"});
    s.push_back({3, kN, true, 3, 0x44, 0x33, 0, "word 3 reads 0x33 in the cycle it is written 0x44; past the last word reads 0"});
    s.push_back({3, 1, true, kN, 0x55, 0x44, 0x11, "word 3 is 0x44 now; a write past the last word"});
    s.push_back({0, 2, false, 0, 0, 0, 0, "the write past the last word changed nothing"});
  } else {
    s.push_back({0, 0, true, 0, 0x11, 0, 0, "after reset the word is 0; write 0x11"});
    s.push_back({0, 1, true, 1, 0x22, 0x11, 0, "the word is 0x11; past it reads 0; a write past it"});
    s.push_back({0, 1, false, 0, 0, 0x11, 0, "the write past the last word changed nothing"});
  }
  return s;
}

class RegfileBench : public lockstep::BlockBench<Vhwprof_prim_regfile> {
 public:
  explicit RegfileBench(const Options& o) : BlockBench("hwprof_prim_regfile"), rng_(o.seed) {
    cfg_ = hwprof_prim_regfile_cfg_t{kN, PRIM_REGFILE_W};
    require_cfg(hwprof_prim_regfile_cfg_check(&cfg_) == kHwprofOk, "tb_prim_regfile");
    hwprof_prim_regfile_reset(&model_);
    if (o.test == "directed") steps_ = directed();
    rtl_.reset();
  }
  void inject_fault(TxLog& log) override {
    model_.word[0] ^= 1u;
    log.add(0, "inject: flipped bit 0 of the model's word 0");
  }
  void summary(FILE* to) const override {
    std::fprintf(to, "  %u words of %u bits: %llu writes\n", kN, PRIM_REGFILE_W, (unsigned long long)writes_);
    if (!steps_.empty()) std::fprintf(to, "  scripted steps completed %zu of %zu\n", step_, steps_.size());
  }

  bool cycle(uint64_t t, Checker& chk, TxLog& log) override {
    unsigned ra, rb;
    hwprof_prim_regfile_in_t in{};
    const Step* st = nullptr;
    if (!steps_.empty()) {
      if (step_ == steps_.size()) return false;
      st = &steps_[step_++];
      ra = st->ra;
      rb = st->rb;
      in = hwprof_prim_regfile_in_t{st->we, st->waddr, st->wdata & kMask};
    } else {
      ra = static_cast<unsigned>(rng_.below(kN + 2));
      rb = static_cast<unsigned>(rng_.below(kN + 2));
      in.we = rng_.chance(50);
      in.waddr = static_cast<unsigned>(rng_.below(kN + 2));
      in.wdata = rng_.next() & kMask;
    }
    rtl_->raddr_a_i = static_cast<uint8_t>(ra);
    rtl_->raddr_b_i = static_cast<uint8_t>(rb);
    rtl_->we_i = in.we;
    rtl_->waddr_i = static_cast<uint8_t>(in.waddr);
    rtl_->wdata_i = in.wdata;
    rtl_->eval();
    const uint64_t a = hwprof_prim_regfile_read(&model_, &cfg_, ra), b = hwprof_prim_regfile_read(&model_, &cfg_, rb);
    chk.begin_cycle(t);
    chk.eq("rdata_a_o", a, static_cast<uint64_t>(rtl_->rdata_a_o));
    chk.eq("rdata_b_o", b, static_cast<uint64_t>(rtl_->rdata_b_o));
    if (st) {
      chk.expect(st->what, st->a, static_cast<uint64_t>(rtl_->rdata_a_o));
      chk.expect(st->what, st->b, static_cast<uint64_t>(rtl_->rdata_b_o));
    }
    char line[160];
    std::snprintf(line, sizeof line, "read [%u] = 0x%llx, [%u] = 0x%llx; we %d [%u] = 0x%llx", ra,
                  (unsigned long long)a, rb, (unsigned long long)b, in.we, in.waddr, (unsigned long long)in.wdata);
    log.add(t, line);
    writes_ += in.we;
    rtl_.rising_edge(t, [&] { hwprof_prim_regfile_step(&model_, &cfg_, &in); });
    return true;
  }

 private:
  lockstep::Rng rng_;
  hwprof_prim_regfile_cfg_t cfg_{};
  hwprof_prim_regfile_state_t model_{};
  std::vector<Step> steps_;
  size_t step_ = 0;
  uint64_t writes_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  return lockstep::main(argc, argv, "tb_prim_regfile", "random|directed", [](const Options& o) {
    return std::unique_ptr<lockstep::Bench>(new RegfileBench(o));
  });
}
