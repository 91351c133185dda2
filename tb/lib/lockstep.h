// Lockstep bench framework: drives a Verilated RTL block and its C model with identical inputs,
// compares every output on every cycle, keeps a transaction log, and on a mismatch replays the run
// with an FST waveform of the last cycles. Every block bench in tb/ is built on it (docs/verification.md).
//
// A block bench implements lockstep::Bench and calls lockstep::main() with a factory; the framework
// owns argument parsing, the run loop, the mismatch report, the waveform replay and the exit code.
#ifndef HWPROF_TB_LOCKSTEP_H
#define HWPROF_TB_LOCKSTEP_H

#include <cstdint>
#include <cstdio>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

namespace lockstep {

// Options common to every bench. Parsed from --name=value arguments; see usage().
struct Options {
  uint64_t seed = 1;
  uint64_t cycles = 100000;
  std::string test = "random";   // stimulus: "random" or a directed test the bench names
  int64_t inject_cycle = -1;     // >= 0: corrupt the C model's state at this cycle (proves detection)
  std::string log_path;          // full transaction log ("" = keep only the last entries in memory)
  std::string fst_path;          // waveform written on a mismatch
  uint64_t window = 200;         // cycles of waveform before the mismatch
  uint64_t progress = 0;         // print progress every N cycles (0 = never)
  bool quiet = false;
  bool waves_all = false;        // trace the whole run (debugging), not only a window on mismatch
  bool no_replay = false;        // on a mismatch, report it without the replay that writes a waveform
  std::string engine = "lockstep";  // "lockstep", or "rtl" / "model" alone (speed measurement)
  // benches with a memory port: read latency range (cycles) and grant probability (percent)
  unsigned mem_lat_min = 1;
  unsigned mem_lat_max = 8;
  unsigned mem_grant = 70;
  // benches with a counter memory: where it (and the bounds window over it) sits, 64 KiB aligned
  uint64_t mem_base = 0x80000000ull;
  // benches that support it: assert the reset every N cycles (jittered) in the middle of traffic
  uint64_t reset_every = 0;
  // benches that collect functional coverage: a point never reached fails the run
  bool require_coverage = false;
};

// Small deterministic generator (splitmix64): the same seed gives the same stimulus everywhere.
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
  }
  uint64_t below(uint64_t n) { return n ? next() % n : 0; }  // uniform enough for stimulus
  bool chance(unsigned percent) { return below(100) < percent; }
  // index chosen by weight (a braced list allocates nothing)
  size_t pick(const unsigned* weights, size_t n);
  size_t pick(const std::vector<unsigned>& weights) { return pick(weights.data(), weights.size()); }
  size_t pick(std::initializer_list<unsigned> weights) { return pick(weights.begin(), weights.size()); }

 private:
  uint64_t s_;
};

// Keeps the last `depth` transactions (and all of them in a file when asked).
class TxLog {
 public:
  TxLog(size_t depth, const std::string& path);
  ~TxLog();
  void add(uint64_t cycle, const char* text);
  void dump_tail(FILE* to) const;

 private:
  std::vector<std::string> ring_;  // reused buffers: no allocation per transaction
  size_t next_ = 0;
  size_t count_ = 0;
  FILE* file_ = nullptr;
};

// Compares model (expected) and RTL (actual) outputs; remembers the first mismatch of a cycle.
class Checker {
 public:
  void begin_cycle(uint64_t cycle) { cycle_ = cycle; }
  void eq(const char* signal, uint64_t model, uint64_t rtl);
  // an outcome a directed test expects, independent of the model
  void expect(const char* what, uint64_t expected, uint64_t actual);
  bool failed() const { return failed_; }
  uint64_t fail_cycle() const { return fail_cycle_; }
  const std::string& report() const { return report_; }
  uint64_t compares() const { return compares_; }

 private:
  void record(const char* head, const char* what, const char* a_name, uint64_t a, const char* b_name, uint64_t b);
  uint64_t cycle_ = 0;
  bool failed_ = false;
  uint64_t fail_cycle_ = 0;
  std::string report_;
  uint64_t compares_ = 0;
};

class Bench {
 public:
  virtual ~Bench() = default;
  // Start a waveform at the current cycle (called before cycle()); the bench dumps on each edge.
  virtual void waves_open(const std::string& path) = 0;
  virtual void waves_close() = 0;
  // One clock cycle: drive inputs, compare outputs, clock both sides. Returns false when a
  // directed test has run out of stimulus.
  virtual bool cycle(uint64_t t, Checker& chk, TxLog& log) = 0;
  // Deliberately corrupt the C model's state (the --inject switch).
  virtual void inject_fault(TxLog& log) = 0;
  // Cycles a bench may run past --cycles to finish (drain, flush, final checks).
  virtual uint64_t extra_cycles() const { return 0; }
  // Lines for the end-of-run summary.
  virtual void summary(FILE* to) const = 0;
};

using Factory = std::function<std::unique_ptr<Bench>(const Options&)>;

// Parse options, run, report, replay with waves on a mismatch. Returns the process exit code.
int main(int argc, char** argv, const char* name, const char* tests, const Factory& make);

}  // namespace lockstep

#endif  // HWPROF_TB_LOCKSTEP_H
