// Conformance bench of the register generator: the RTL register block and the C register block
// that tools/regtool.py generates from one description (tools/reggen/conformance/conf.json, which
// uses every access kind, storage and option a description may use) are run in lockstep on
// random accesses (mapped and unmapped addresses, reads and writes, random data) with random
// engine values (hw2reg, refusals included); every output is compared on every cycle: read data,
// pslverr, and each reg2hw member (the stored values against the C block's flops; strobes; the
// written values and array indexes when their strobe or access makes them meaningful).
//
// The glue that knows the description (drive hw2reg into both, compare reg2hw) is generated
// beside the block: conf_reg_glue.h (tools/reggen/emit_tb.py).
#include <cstdio>
#include <memory>
#include <string>

#include "Vhwprof_conf_reg.h"
#include "lib/lockstep.h"
#include "verilated.h"
#include "lib/verilated_top.h"

extern "C" {
#include "conf_reg.h"
}

namespace {

// bits [lsb +: w] (w <= 32) of a flattened Verilated packed-struct port, scalar or VlWide
template <typename T>
uint32_t get_bits(const T& v, unsigned lsb, unsigned w) {
  const uint64_t x = static_cast<uint64_t>(v) >> lsb;
  return static_cast<uint32_t>(w >= 32 ? x : x & ((1ull << w) - 1));
}
template <std::size_t N>
uint32_t get_bits(const VlWide<N>& v, unsigned lsb, unsigned w) {
  uint32_t x = 0;
  for (unsigned b = 0; b < w; b++) x |= ((v[(lsb + b) / 32] >> ((lsb + b) % 32)) & 1u) << b;
  return x;
}
template <typename T>
void set_bits(T& v, unsigned lsb, unsigned w, uint32_t value) {
  const uint64_t m = (w >= 32 ? 0xffffffffull : ((1ull << w) - 1)) << lsb;
  v = static_cast<T>((static_cast<uint64_t>(v) & ~m) | ((static_cast<uint64_t>(value) << lsb) & m));
}
template <std::size_t N>
void set_bits(VlWide<N>& v, unsigned lsb, unsigned w, uint32_t value) {
  for (unsigned b = 0; b < w; b++) {
    const unsigned bit = lsb + b;
    v[bit / 32] = (v[bit / 32] & ~(1u << (bit % 32))) | (((value >> b) & 1u) << (bit % 32));
  }
}

}  // namespace

#include "conf_reg_glue.h"

namespace {

using lockstep::Checker;
using lockstep::Options;
using lockstep::TxLog;

class ConformanceBench : public lockstep::BlockBench<Vhwprof_conf_reg> {
 public:
  explicit ConformanceBench(const Options& o) : BlockBench("hwprof_conf_reg"), rng_(o.seed) {
    hwprof_conf_reg_reset(&model_);
    rtl_.reset();
  }
  void inject_fault(TxLog& log) override {
    conf_glue::inject(&model_);
    log.add(0, "inject: flipped bit 0 of the C block's first flop");
  }
  void summary(FILE* to) const override {
    std::fprintf(to, "  accesses %llu (writes %llu, pslverr %llu), hw2reg values %llu\n", (unsigned long long)accesses_,
                 (unsigned long long)writes_, (unsigned long long)errors_, (unsigned long long)cycles_);
  }

  bool cycle(uint64_t t, Checker& chk, TxLog& log) override {
    hwprof_reg_req_t req{};
    req.access = rng_.chance(70);
    req.write = rng_.chance(50);
    // mostly the block's own words (registers, arrays, holes, both windows), sometimes anything
    const uint16_t window = static_cast<uint16_t>(HWPROF_CONF_WINDOW << HWPROF_WINDOW_SHIFT);
    req.addr = rng_.chance(90) ? static_cast<uint16_t>(window + rng_.below(64 * HWPROF_CONF_WINDOWS) * 4) : static_cast<uint16_t>(rng_.next());
    req.wdata = rng_.chance(20) ? 0xffffffffu : static_cast<uint32_t>(rng_.next());
    hwprof_conf_hw2reg_t hw{};
    conf_glue::randomize(rng_, req, &hw);
    conf_glue::drive(hw, rtl_.get());
    rtl_->reg_access_i = req.access;
    rtl_->reg_write_i = req.write;
    rtl_->reg_addr_i = req.addr;
    rtl_->reg_wdata_i = req.wdata;
    rtl_->eval();
    hwprof_conf_reg2hw_t r2h;
    hwprof_reg_rsp_t rsp;
    hwprof_conf_reg_comb(&model_, &req, &hw, &r2h, &rsp);
    chk.begin_cycle(t);
    chk.eq("reg_rdata_o", rsp.rdata, rtl_->reg_rdata_o);
    chk.eq("reg_error_o", rsp.error, rtl_->reg_error_o);
    conf_glue::compare(chk, req, model_, r2h, rtl_.get());
    char line[120];
    std::snprintf(line, sizeof line, "%s %s 0x%04x wdata 0x%08x -> rdata 0x%08x%s", req.access ? "access" : "idle  ",
                  req.write ? "write" : "read ", req.addr, req.wdata, rsp.rdata, rsp.error ? " PSLVERR" : "");
    log.add(t, line);
    accesses_ += req.access;
    writes_ += req.access && req.write;
    errors_ += rsp.error;
    cycles_++;
    rtl_.rising_edge(t, [&] { hwprof_conf_reg_step(&model_, &req, &hw); });
    return true;
  }

 private:
  lockstep::Rng rng_;
  hwprof_conf_reg_state_t model_{};
  uint64_t accesses_ = 0, writes_ = 0, errors_ = 0, cycles_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  return lockstep::main(argc, argv, "tb_reg_conformance", "random", [](const Options& o) {
    return std::unique_ptr<lockstep::Bench>(new ConformanceBench(o));
  });
}
