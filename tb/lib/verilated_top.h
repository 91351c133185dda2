// The Verilated side of a lockstep block bench: the simulation context, the model instance, the
// FST waveform on demand, and the reset sequence (two clock cycles with rst_ni low). Shared by every
// bench in tb/ (the top must have clk_i and rst_ni).
#ifndef HWPROF_TB_VERILATED_TOP_H
#define HWPROF_TB_VERILATED_TOP_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "lib/lockstep.h"
#include "verilated.h"
#include "verilated_fst_c.h"

namespace lockstep {

template <typename V>
class VerilatedTop {
 public:
  explicit VerilatedTop(const char* name) : ctx_(new VerilatedContext) {
    ctx_->traceEverOn(true);
    ctx_->randReset(0);
    if (const char* seed = std::getenv("HWPROF_RAND_RESET")) {
      ctx_->randReset(2);
      ctx_->randSeed(static_cast<int>(std::strtol(seed, nullptr, 10)));
    }
    Verilated::threadContextp(ctx_.get()); /* the initial values are drawn from the thread's context */
    top_.reset(new V(ctx_.get(), name));
#ifdef HWPROF_MUTANT_SELECT
    // a mutant design (make mutate, tools/mutate.py): HWPROF_MUTANT=N switches mutant N on, 0 none
    const char* mutant = std::getenv("HWPROF_MUTANT");
    top_->mutsel = mutant ? static_cast<uint32_t>(std::strtoul(mutant, nullptr, 10)) : 0u;
#endif
  }
  ~VerilatedTop() {
    close_waves();
    top_->final();
  }
  V* operator->() const { return top_.get(); }
  V* get() const { return top_.get(); }
  VerilatedContext* context() const { return ctx_.get(); }
  // rst_ni low for two clock cycles, then high with the clock low
  void reset() {
    top_->rst_ni = 0;
    for (int i = 0; i < 2; i++) {
      top_->clk_i = 0;
      top_->eval();
      top_->clk_i = 1;
      top_->eval();
    }
    top_->clk_i = 0;
    top_->rst_ni = 1;
  }
  void open_waves(const std::string& path) {
    fst_.reset(new VerilatedFstC);
    top_->trace(fst_.get(), 99);
    fst_->open(path.c_str());
  }
  void close_waves() {
    if (fst_) fst_->close();
    fst_.reset();
  }
  void dump(uint64_t time) {
    if (fst_) fst_->dump(time);
  }
  // The rising clock edge that ends cycle t: the waveform sample of the cycle, the RTL's edge, the
  // model's edge (model_step) at the same moment, the sample after it, and the clock low again.
  template <typename F>
  void rising_edge(uint64_t t, F&& model_step) {
    dump(2 * t);
    top_->clk_i = 1;
    top_->eval();
    model_step();
    dump(2 * t + 1);
    top_->clk_i = 0;
  }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<V> top_;
  std::unique_ptr<VerilatedFstC> fst_;
};

// The base of a block bench with one Verilated top: the RTL instance and the waveform hooks of
// lockstep::Bench. require_cfg() stops with one error line when the C model rejects the
// configuration the bench was built with.
template <typename V>
class BlockBench : public Bench {
 public:
  explicit BlockBench(const char* top) : rtl_(top) {}
  ~BlockBench() override {
#if VM_COVERAGE
    // coverage builds (make cov) write one data file per run
    if (const char* path = std::getenv("HWPROF_COVERAGE_FILE")) rtl_.context()->coveragep()->write(path);
#endif
  }
  void waves_open(const std::string& path) override { rtl_.open_waves(path); }
  void waves_close() override { rtl_.close_waves(); }

 protected:
  static void require_cfg(bool ok, const char* bench) {
    if (ok) return;
    std::fprintf(stderr, "%s: error: the bench was built with a configuration the C model rejects\n", bench);
    std::exit(2);
  }
  VerilatedTop<V> rtl_;
};

}  // namespace lockstep

#endif  // HWPROF_TB_VERILATED_TOP_H
