// Lockstep bench framework; see lockstep.h.
#include "lib/lockstep.h"

#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdlib>
#include <cstring>

namespace lockstep {

size_t Rng::pick(const unsigned* weights, size_t n) {
  uint64_t total = 0;
  for (size_t i = 0; i < n; i++) total += weights[i];
  uint64_t r = below(total);
  for (size_t i = 0; i < n; i++) {
    if (r < weights[i]) return i;
    r -= weights[i];
  }
  return n - 1;
}

TxLog::TxLog(size_t depth, const std::string& path) : ring_(depth ? depth : 1) {
  for (std::string& r : ring_) r.reserve(160);
  if (!path.empty()) {
    file_ = std::fopen(path.c_str(), "w");
    if (!file_) {
      std::fprintf(stderr, "error: cannot write transaction log '%s': %s\n", path.c_str(),
                   std::strerror(errno));
      std::exit(2);
    }
  }
}

TxLog::~TxLog() {
  if (file_) std::fclose(file_);
}

void TxLog::add(uint64_t cycle, const char* text) {
  char head[32];
  std::snprintf(head, sizeof head, "%10" PRIu64 "  ", cycle);
  std::string& line = ring_[next_];
  line.assign(head);
  line.append(text);
  if (file_) std::fprintf(file_, "%s\n", line.c_str());
  next_ = (next_ + 1) % ring_.size();
  if (count_ < ring_.size()) count_++;
}

void TxLog::dump_tail(FILE* to) const {
  size_t first = (next_ + ring_.size() - count_) % ring_.size();
  for (size_t i = 0; i < count_; i++) std::fprintf(to, "  %s\n", ring_[(first + i) % ring_.size()].c_str());
}

void Checker::record(const char* head, const char* what, const char* a_name, uint64_t a, const char* b_name,
                     uint64_t b) {
  failed_ = true;
  fail_cycle_ = cycle_;
  char buf[320];
  std::snprintf(buf, sizeof buf, "%s at cycle %" PRIu64 ": %s: %s 0x%" PRIx64 ", %s 0x%" PRIx64, head, cycle_,
                what, a_name, a, b_name, b);
  report_ = buf;
}

void Checker::eq(const char* signal, uint64_t model, uint64_t rtl) {
  compares_++;
  if (model == rtl || failed_) return;
  std::string what = std::string("signal ") + signal;
  record("MISMATCH", what.c_str(), "C model", model, "RTL", rtl);
}

void Checker::expect(const char* what, uint64_t expected, uint64_t actual) {
  compares_++;
  if (expected == actual || failed_) return;
  record("EXPECTATION FAILED", what, "expected", expected, "got", actual);
}

static void usage(FILE* to, const char* name, const char* tests) {
  std::fprintf(to,
               "usage: %s [options]\n"
               "Runs the RTL and the C model in lockstep and compares every output on every cycle.\n\n"
               "  --seed=N        stimulus seed (default 1)\n"
               "  --cycles=N      cycles to run (default 100000; directed tests stop when done)\n"
               "  --test=NAME     stimulus: %s (default random)\n"
               "  --inject=CYCLE  corrupt the C model's state at CYCLE, to show that a difference is caught\n"
               "  --log=FILE      write every transaction to FILE\n"
               "  --fst=FILE      waveform of the cycles before a mismatch (default build/<bench>-mismatch.fst)\n"
               "  --window=N      cycles of waveform before the mismatch (default 200)\n"
               "  --waves-all     trace the whole run into the --fst file\n"
               "  --no-replay     on a mismatch, no replay for a waveform (many short runs: make mutate)\n"
               "  --progress=N    print progress every N cycles\n"
               "  --engine=E      lockstep (default), or rtl / model alone, for speed figures (nothing compared)\n"
               "  --mem-latency=MIN:MAX  memory read latency range in cycles (default 1:8)\n"
               "  --mem-grant=PCT chance in percent that memory accepts a request in a cycle (default 70)\n"
               "  --mem-base=ADDR where the 64 KiB counter memory and the bounds window sit, a 64 KiB-aligned\n"
               "                  40-bit address (default 0x80000000; benches with a counter memory, random\n"
               "                  streams: tb_top's directed scenarios are worked out at the default)\n"
               "  --reset-every=N assert the reset for two cycles about every N cycles, in the middle of traffic\n"
               "                  (benches and tests that support it)\n"
               "  --require-coverage  fail if a functional coverage point of the bench was never reached\n"
               "  --quiet         print only the summary line\n"
               "  --help          this text\n"
               "Exit status: 0 no mismatch, 1 mismatch, 2 bad arguments.\n",
               name, tests);
}

static bool parse_u64(const char* s, uint64_t* out) {
  if (*s == '\0' || *s == '-') return false;
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(s, &end, 0);
  if (errno || *end != '\0') return false;
  *out = v;
  return true;
}

static int parse(int argc, char** argv, const char* name, const char* tests, Options* o) {
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      usage(stdout, name, tests);
      return 0;
    }
    size_t eq = a.find('=');
    std::string key = a.substr(0, eq);
    std::string val = eq == std::string::npos ? "" : a.substr(eq + 1);
    uint64_t n = 0;
    bool num_ok = parse_u64(val.c_str(), &n);
    auto bad = [&](const char* why) {
      std::fprintf(stderr, "%s: error: argument '%s': %s (see --help)\n", name, a.c_str(), why);
      return 2;
    };
    if (key == "--seed") {
      if (!num_ok) return bad("expects a non-negative integer");
      o->seed = n;
    } else if (key == "--cycles") {
      if (!num_ok || n == 0) return bad("expects a positive integer");
      o->cycles = n;
    } else if (key == "--test") {
      if (val.empty()) return bad("expects a test name");
      std::string list = std::string(" ") + tests + " ";
      for (char& c : list) if (c == ',' || c == '|') c = ' ';
      if (list.find(" " + val + " ") == std::string::npos) return bad("unknown test");
      o->test = val;
    } else if (key == "--inject") {
      if (!num_ok) return bad("expects a cycle number");
      o->inject_cycle = static_cast<int64_t>(n);
    } else if (key == "--log") {
      if (val.empty()) return bad("expects a file name");
      o->log_path = val;
    } else if (key == "--fst") {
      if (val.empty()) return bad("expects a file name");
      o->fst_path = val;
    } else if (key == "--window") {
      if (!num_ok || n == 0) return bad("expects a positive integer");
      o->window = n;
    } else if (key == "--progress") {
      if (!num_ok) return bad("expects an integer");
      o->progress = n;
    } else if (key == "--mem-latency") {
      size_t colon = val.find(':');
      uint64_t lo = 0, hi = 0;
      if (colon == std::string::npos || !parse_u64(val.substr(0, colon).c_str(), &lo) ||
          !parse_u64(val.substr(colon + 1).c_str(), &hi) || lo < 1 || hi < lo || hi > 1000)
        return bad("expects MIN:MAX with 1 <= MIN <= MAX <= 1000");
      o->mem_lat_min = static_cast<unsigned>(lo);
      o->mem_lat_max = static_cast<unsigned>(hi);
    } else if (key == "--mem-grant") {
      if (!num_ok || n < 1 || n > 100) return bad("expects a percentage 1..100");
      o->mem_grant = static_cast<unsigned>(n);
    } else if (key == "--mem-base") {
      if (!num_ok || (n & 0xffffull) || n + 0x10000ull > (1ull << 40)) return bad("expects a 64 KiB-aligned address whose 64 KiB fit in 40 bits");
      o->mem_base = n;
    } else if (key == "--reset-every") {
      if (!num_ok || n < 100) return bad("expects an integer of at least 100");
      o->reset_every = n;
    } else if (key == "--engine") {
      if (val != "lockstep" && val != "rtl" && val != "model") return bad("expects lockstep, rtl or model");
      o->engine = val;
    } else if (a == "--quiet") {
      o->quiet = true;
    } else if (a == "--waves-all") {
      o->waves_all = true;
    } else if (a == "--require-coverage") {
      o->require_coverage = true;
    } else if (a == "--no-replay") {
      o->no_replay = true;
    } else {
      return bad("unknown option");
    }
  }
  return -1;
}

// Runs the bench from reset. With trace_from >= 0, opens the waveform at that cycle.
// With `extend`, the bench may run its extra_cycles() past stop_after.
static bool run_once(const Options& o, const Factory& make, int64_t trace_from, uint64_t stop_after, bool extend,
                     TxLog& log, Checker& chk, uint64_t* ran, std::unique_ptr<Bench>* keep) {
  std::unique_ptr<Bench> b = make(o);
  if (extend) stop_after += b->extra_cycles();
  auto t0 = std::chrono::steady_clock::now();
  uint64_t t = 0;
  bool tracing = false;
  for (; t < stop_after; t++) {
    if (trace_from >= 0 && !tracing && t >= static_cast<uint64_t>(trace_from)) {
      b->waves_open(o.fst_path);
      tracing = true;
    }
    if (o.inject_cycle >= 0 && t == static_cast<uint64_t>(o.inject_cycle)) b->inject_fault(log);
    chk.begin_cycle(t);
    bool more = b->cycle(t, chk, log);
    if (chk.failed() && trace_from < 0) {
      t++;
      break;
    }
    if (!more) {
      t++;
      break;
    }
    if (o.progress && (t + 1) % o.progress == 0 && !o.quiet) {
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::fprintf(stderr, "  ... %" PRIu64 " cycles, %.1f s\n", t + 1, s);
    }
  }
  if (tracing) b->waves_close();
  *ran = t;
  if (keep) *keep = std::move(b);
  return !chk.failed();
}

int main(int argc, char** argv, const char* name, const char* tests, const Factory& make) {
  Options o;
  int rc = parse(argc, argv, name, tests, &o);
  if (rc >= 0) return rc;
  if (o.fst_path.empty()) o.fst_path = std::string("build/") + name + "-mismatch.fst";

  TxLog log(32, o.log_path);
  Checker chk;
  uint64_t ran = 0;
  std::unique_ptr<Bench> bench;
  auto t0 = std::chrono::steady_clock::now();
  bool ok = run_once(o, make, o.waves_all ? 0 : -1, o.cycles, true, log, chk, &ran, &bench);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  if (!o.quiet || !ok) {
    std::printf("%s: test=%s seed=%" PRIu64 "\n", name, o.test.c_str(), o.seed);
    bench->summary(stdout);
  }
  if (!ok) {
    std::printf("%s\n", chk.report().c_str());
    std::printf("last transactions before the mismatch (cycle, event):\n");
    log.dump_tail(stdout);
  }
  if (!ok && !o.no_replay) {
    // Replay the same run (same seed, so the same stimulus) with a waveform of the last cycles.
    // Only one Verilated model lives at a time (two contexts with the same scope names deadlock
    // Verilator's scope registry on teardown).
    bench.reset();
    uint64_t from = chk.fail_cycle() > o.window ? chk.fail_cycle() - o.window : 0;
    TxLog quiet_log(1, "");
    Checker replay_chk;
    uint64_t replay_ran = 0;
    run_once(o, make, static_cast<int64_t>(from), chk.fail_cycle() + 2, false, quiet_log, replay_chk,
             &replay_ran, nullptr);
    std::printf("waveform of cycles %" PRIu64 "..%" PRIu64 ": %s\n", from, chk.fail_cycle() + 1,
                o.fst_path.c_str());
  }
  if (o.engine != "lockstep") {
    std::printf("%s: engine=%s alone: %" PRIu64 " cycles, nothing compared (%.2f s, %.2f Mcycles/s)\n", name,
                o.engine.c_str(), ran, secs, secs > 0 ? ran / secs / 1e6 : 0.0);
    return 0;
  }
  std::printf("%s: %" PRIu64 " lockstep cycles, %" PRIu64 " comparisons, %d mismatches (%.2f s, %.2f Mcycles/s)\n",
              name, ran, chk.compares(), ok ? 0 : 1, secs, secs > 0 ? ran / secs / 1e6 : 0.0);
  return ok ? 0 : 1;
}

}  // namespace lockstep
