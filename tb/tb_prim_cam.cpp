// Lockstep unit bench of the CAM primitive: rtl/prim/hwprof_prim_cam.sv against cmodel/prim/cam.c,
// every output on every cycle (lockstep framework, tb/lockstep.h).
//
// Stimulus (--test=):
//   random    lookups and writes drawn from a small set of keys (so lookups hit, and duplicates
//             occur), invalidations, out-of-range indexes, an occasional clear
//   directed  outcomes worked out by hand here: a miss, a hit, the lowest of two matching entries,
//             an invalidated entry, a clear with a write in the same cycle (the write is kept), a
//             write past the last entry (ignored)
//
// The parameters are fixed when Verilator builds the bench: PRIM_CAM_N, PRIM_CAM_KEYW.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "Vhwprof_prim_cam.h"
#include "lockstep.h"
#include "verilated.h"
#include "verilated_top.h"

extern "C" {
#include "prim/cam.h"
}

#ifndef PRIM_CAM_N
#define PRIM_CAM_N 8
#endif
#ifndef PRIM_CAM_KEYW
#define PRIM_CAM_KEYW 20
#endif

namespace {

using lockstep::Checker;
using lockstep::Options;
using lockstep::TxLog;

constexpr unsigned kN = PRIM_CAM_N;
constexpr uint64_t kKeyMask = PRIM_CAM_KEYW >= 64 ? ~0ull : ((1ull << PRIM_CAM_KEYW) - 1);

// one directed step: the lookup and the write of the cycle, and the lookup's expected outcome
struct Step {
  uint64_t key;
  bool clr, we;
  unsigned widx;
  uint64_t wkey;
  bool wvalid;
  bool hit;
  unsigned hit_idx;
  uint64_t match;
  const char* what;
};

std::vector<Step> directed() {
  std::vector<Step> s;
  s.push_back({5, false, true, 0, 5, true, false, 0, 0, "after reset nothing is valid: 5 misses; write 5 to entry 0"});
  if (kN >= 4) {
    s.push_back({5, false, true, 2, 7, true, true, 0, 0x1, "5 hits entry 0; write 7 to entry 2"});
    s.push_back({7, false, true, 3, 5, true, true, 2, 0x4, "7 hits entry 2; write 5 again, to entry 3"});
    s.push_back({5, false, true, 0, 5, false, true, 0, 0x9, "5 is in entries 0 and 3: the lowest wins; invalidate entry 0"});
    s.push_back({5, true, true, 1, 9, true, true, 3, 0x8, "5 is left in entry 3; clear, and write 9 to entry 1 in the same cycle"});
    s.push_back({5, false, false, 0, 0, false, false, 0, 0, "the clear invalidated entry 3: 5 misses"});
    s.push_back({9, false, true, kN, 9, true, true, 1, 0x2, "the write of the clear's cycle was kept: 9 hits entry 1; write past the last entry"});
    s.push_back({9, false, false, 0, 0, false, true, 1, 0x2, "the write past the last entry changed nothing"});
  } else {
    s.push_back({5, true, true, 0, 3, true, true, 0, 0x1, "5 hits entry 0; clear, and write 3 to entry 0 in the same cycle"});
    s.push_back({3, false, true, 1, 5, true, true, 0, 0x1, "3 hits entry 0 (the write was kept); write past the last entry"});
    s.push_back({5, false, false, 0, 0, false, false, 0, 0, "5 misses: the write past the last entry changed nothing"});
  }
  return s;
}

class CamBench : public lockstep::BlockBench<Vhwprof_prim_cam> {
 public:
  explicit CamBench(const Options& o) : BlockBench("hwprof_prim_cam"), rng_(o.seed) {
    cfg_ = hwprof_prim_cam_cfg_t{kN, PRIM_CAM_KEYW};
    require_cfg(hwprof_prim_cam_cfg_check(&cfg_) == kHwprofOk, "tb_prim_cam");
    hwprof_prim_cam_reset(&model_);
    if (o.test == "directed") steps_ = directed();
    rtl_.reset();
  }
  void inject_fault(TxLog& log) override {
    model_.valid ^= 1u;
    log.add(0, "inject: flipped the model's valid bit of entry 0");
  }
  void summary(FILE* to) const override {
    std::fprintf(to, "  %u entries of %u bits: %llu lookups hit, %llu writes, %llu clears\n", kN, PRIM_CAM_KEYW,
                 (unsigned long long)hits_, (unsigned long long)writes_, (unsigned long long)clears_);
    if (!steps_.empty()) std::fprintf(to, "  scripted steps completed %zu of %zu\n", step_, steps_.size());
  }

  bool cycle(uint64_t t, Checker& chk, TxLog& log) override {
    hwprof_prim_cam_in_t in{};
    const Step* st = nullptr;
    if (!steps_.empty()) {
      if (step_ == steps_.size()) return false;
      st = &steps_[step_++];
      in = hwprof_prim_cam_in_t{st->key & kKeyMask, st->clr, st->we, st->widx, st->wkey & kKeyMask, st->wvalid};
    } else {
      const uint64_t key_set = kN + 3;  // a few more keys than entries: lookups both hit and miss
      in.key = (rng_.chance(5) ? rng_.next() : 1000 + rng_.below(key_set)) & kKeyMask;
      in.clr = rng_.chance(1);
      in.we = rng_.chance(40);
      in.widx = static_cast<unsigned>(rng_.below(kN + 2));
      in.wkey = (1000 + rng_.below(key_set)) & kKeyMask;
      in.wvalid = rng_.chance(85);
    }
    rtl_->key_i = in.key;
    rtl_->clr_i = in.clr;
    rtl_->we_i = in.we;
    rtl_->widx_i = static_cast<uint8_t>(in.widx);
    rtl_->wkey_i = in.wkey;
    rtl_->wvalid_i = in.wvalid;
    rtl_->eval();
    hwprof_prim_cam_out_t m;
    hwprof_prim_cam_comb(&model_, &cfg_, in.key, &m);
    chk.begin_cycle(t);
    chk.eq("hit_o", m.hit, rtl_->hit_o);
    chk.eq("hit_idx_o", m.hit_idx, rtl_->hit_idx_o);
    chk.eq("match_o", m.match, static_cast<uint64_t>(rtl_->match_o));
    if (st) {
      chk.expect(st->what, st->hit, rtl_->hit_o);
      chk.expect(st->what, st->hit_idx, rtl_->hit_idx_o);
      chk.expect(st->what, st->match, static_cast<uint64_t>(rtl_->match_o));
    }
    char line[160];
    std::snprintf(line, sizeof line, "key 0x%llx -> hit %d idx %u; clr %d we %d [%u] = 0x%llx valid %d",
                  (unsigned long long)in.key, m.hit, m.hit_idx, in.clr, in.we, in.widx, (unsigned long long)in.wkey,
                  in.wvalid);
    log.add(t, line);
    hits_ += m.hit;
    writes_ += in.we;
    clears_ += in.clr;
    rtl_.rising_edge(t, [&] { hwprof_prim_cam_step(&model_, &cfg_, &in); });
    return true;
  }

 private:
  lockstep::Rng rng_;
  hwprof_prim_cam_cfg_t cfg_{};
  hwprof_prim_cam_state_t model_{};
  std::vector<Step> steps_;
  size_t step_ = 0;
  uint64_t hits_ = 0, writes_ = 0, clears_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  return lockstep::main(argc, argv, "tb_prim_cam", "random|directed", [](const Options& o) {
    return std::unique_ptr<lockstep::Bench>(new CamBench(o));
  });
}
