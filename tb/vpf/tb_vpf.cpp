// Lockstep bench of the value-profiling front end: rtl/vpf/hwprof_vpf.sv (filters, prescaler, and the
// sample buffer rtl/vpf/hwprof_sbuf.sv) against cmodel/vpf/vpf.c, every output compared on every cycle;
// and against a reference written here from docs/cop.md at the level of records (no cycles, no
// code shared with the model): which instructions pass the three filters and the prescaler, which
// records fit, what each record holds when the engine takes it, the counts, which register writes
// are refused.
//
// Tests (--test=):
//   random    random retire events (PCs from a small set, every kind), random filter settings,
//             bit-mask words and clears, prescaler periods, field selections (refused while enabled
//             or holding records), buffer clears, pops with gaps.
//   directed  outcomes worked out by hand in the comments below: each filter and hash, the
//             prescaler's one in three, the record layout, drops when full, refusals.
//
// The parameters are fixed when Verilator builds the bench: VPF_WORDS, VPF_BITS.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "Vhwprof_vpf.h"
#include "lib/lockstep.h"
#include "lib/verilated_top.h"

extern "C" {
#include "vpf/vpf.h"
}

#ifndef VPF_WORDS
#define VPF_WORDS 256
#endif
#ifndef VPF_BITS
#define VPF_BITS 4096
#endif

namespace {

using lockstep::Checker;
using lockstep::Options;
using lockstep::TxLog;

struct Ev {
  bool fire;
  uint8_t kind;
  uint32_t pc, npc, insn, addr, value;
  bool taken, call, ret;
};
struct Host {
  bool access, write;
  uint16_t addr;
  uint32_t wdata;
};
struct Step {  // directed: one cycle's inputs and what is expected of it
  Ev ev;
  bool pop;
  Host h;
  int64_t expect_rdata;  // -1: not checked
  int expect_error;      // -1: not checked
  const char* what;
};

// ---- the reference: docs/cop.md, "Front end", at the level of records
struct Ref {
  struct Rec {
    uint32_t f[5];
    uint8_t info;
    unsigned words;
  };
  bool enable = false;
  unsigned hash_mm = 0, hash_bm = 0;
  uint32_t kinds = 0, mask = 0, match = 0, reload = 0, count = 0, fields = 0x11;
  std::vector<uint32_t> bits = std::vector<uint32_t>(VPF_BITS / 32, 0);
  std::deque<Rec> recs;
  unsigned used = 0;
  uint32_t passed = 0, sampled = 0, dropped = 0;  // the statistics registers: they wrap, software writes them

  static uint32_t hash(unsigned sel, uint32_t pc) {
    // the four hashes as docs/cop.md writes them, of the word address
    uint32_t w = pc / 4;
    if (sel == 0) return w;
    if (sel == 1) return w ^ (w / 4096);
    if (sel == 2) return w ^ (w / 128) ^ (w / 32768);
    return w ^ (w / 32) ^ (w / 2048) ^ (w / 131072);
  }
  static unsigned nfields(uint32_t f) { return __builtin_popcount(f & 31u); }
  // pslverr: an address the window does not map, a write to a read-only register, a refusal
  bool errors(const Host& h) const {
    const uint16_t base = static_cast<uint16_t>(HWPROF_VPF_WINDOW << HWPROF_WINDOW_SHIFT);
    const unsigned off = static_cast<uint16_t>(h.addr - base);
    if (h.addr < base || off >= 256u * HWPROF_VPF_WINDOWS || (off & 3u)) return true;
    const bool in_array = h.addr >= HWPROF_VPF_BITMASK_ADDR && h.addr < HWPROF_VPF_BITMASK_ADDR + 4 * HWPROF_VPF_BITMASK_ENTRIES;
    if (!in_array && off > 0x30) return true;
    const bool ro = h.addr == HWPROF_VPF_SB_STATUS_ADDR || h.addr == HWPROF_VPF_CFG_ADDR;
    if (h.write && ro) return true;
    return refuses(h);
  }
  bool refuses(const Host& h) const {
    if (!h.write) return false;
    if (h.addr == HWPROF_VPF_FIELDS_ADDR) return enable || !recs.empty();
    if (h.addr >= HWPROF_VPF_BITMASK_ADDR && h.addr < HWPROF_VPF_BITMASK_ADDR + 4 * HWPROF_VPF_BITMASK_ENTRIES)
      return (h.addr - HWPROF_VPF_BITMASK_ADDR) / 4 >= VPF_BITS / 32;
    return false;
  }
  // one cycle; returns whether a record was written
  void cycle(const Ev& e, bool pop, const Host& h, bool refused) {
    bool pass = false;
    if (enable && e.fire) {
      const uint32_t bi = hash(hash_bm, e.pc) % VPF_BITS;
      pass = ((kinds >> e.kind) & 1u) && ((hash(hash_mm, e.pc) ^ match) & mask) == 0 && !((bits[bi / 32] >> (bi % 32)) & 1u);
    }
    const bool chosen = pass && count <= 1;
    const unsigned k = nfields(fields);
    const bool room = recs.size() < VPF_WORDS && used + k <= VPF_WORDS;
    const uint32_t fields_then = fields;
    passed += pass;
    sampled += chosen && room;
    dropped += chosen && !room;
    if (pass) count = count <= 1 ? reload : count - 1;
    bool clear = false;
    if (h.access && h.write && !refused) {
      const uint32_t d = h.wdata;
      switch (h.addr) {
        case HWPROF_VPF_CTRL_ADDR: enable = d & 1u; hash_mm = (d >> 4) & 3u; hash_bm = (d >> 8) & 3u; break;
        case HWPROF_VPF_KINDS_ADDR: kinds = d & 0xffu; break;
        case HWPROF_VPF_MASK_ADDR: mask = d; break;
        case HWPROF_VPF_MATCH_ADDR: match = d; break;
        case HWPROF_VPF_PRESCALE_ADDR: reload = d & 0xffffu; break;
        case HWPROF_VPF_PRESCALE_COUNT_ADDR: count = d & 0xffffu; break;
        case HWPROF_VPF_FIELDS_ADDR: fields = d & 31u; break;
        // a statistics write sets the count; the event of the write's cycle counts on top
        case HWPROF_VPF_STAT_PASSED_ADDR: passed = d + pass; break;
        case HWPROF_VPF_STAT_SAMPLED_ADDR: sampled = d + (chosen && room); break;
        case HWPROF_VPF_STAT_DROPPED_ADDR: dropped = d + (chosen && !room); break;
        case HWPROF_VPF_ACTION_ADDR:
          if (d & 1u) std::fill(bits.begin(), bits.end(), 0u);
          clear = (d >> 1) & 1u;
          break;
        default:
          if (h.addr >= HWPROF_VPF_BITMASK_ADDR && h.addr < HWPROF_VPF_BITMASK_ADDR + 4 * HWPROF_VPF_BITMASK_ENTRIES)
            bits[(h.addr - HWPROF_VPF_BITMASK_ADDR) / 4] = d;
          break;
      }
    }
    if (clear) {
      recs.clear();
      used = 0;
    } else if (pop && !recs.empty()) {
      used -= recs.front().words;
      recs.pop_front();
    }
    if (chosen && room) {
      Rec r{};
      const uint32_t all[5] = {e.pc, e.npc, e.insn, e.addr, e.value};
      for (unsigned b = 0; b < 5; b++) r.f[b] = ((fields_then >> b) & 1u) ? all[b] : 0;
      r.info = static_cast<uint8_t>(e.kind | (e.taken ? 8 : 0) | (e.call ? 16 : 0) | (e.ret ? 32 : 0));
      r.words = k;
      recs.push_back(r);
      used += k;
    }
  }
};

class VpfBench : public lockstep::BlockBench<Vhwprof_vpf> {
 public:
  explicit VpfBench(const Options& o) : BlockBench("hwprof_vpf"), rng_(o.seed), directed_(o.test == "directed") {
    cfg_ = hwprof_vpf_cfg_t{VPF_WORDS, VPF_BITS};
    require_cfg(hwprof_vpf_cfg_check(&cfg_) == kHwprofOk, "tb_vpf");
    hwprof_vpf_reset(&model_);
    rtl_.reset();
    if (directed_) build_directed();
  }
  void inject_fault(TxLog& log) override {
    model_.count ^= 1u;
    log.add(0, "inject: flipped bit 0 of the model's prescaler count");
  }
  void summary(FILE* to) const override {
    std::fprintf(to, "  SbufWords %u, BitmaskBits %u: %llu events, %llu passed, %llu sampled, %llu dropped, %llu records taken and "
                 "checked against the reference, %llu host writes (%llu refused)\n",
                 VPF_WORDS, VPF_BITS, (unsigned long long)events_, (unsigned long long)ref_.passed,
                 (unsigned long long)ref_.sampled, (unsigned long long)ref_.dropped, (unsigned long long)taken_,
                 (unsigned long long)writes_, (unsigned long long)refused_);
    if (directed_) std::fprintf(to, "  scripted steps completed %zu of %zu\n", step_, steps_.size());
  }

  bool cycle(uint64_t t, Checker& chk, TxLog& log) override {
    Step st{};
    if (directed_) {
      if (step_ == steps_.size()) return false;
      st = steps_[step_++];
    } else {
      st = random_step();
    }
    const Ev& e = st.ev;
    hwprof_retire_ev_t ev{};
    ev.valid = e.fire;
    ev.pc = e.pc;
    ev.next_pc = e.npc;
    ev.insn = e.insn;
    ev.kind = e.kind;
    ev.taken = e.taken;
    ev.is_call = e.call;
    ev.is_ret = e.ret;
    ev.addr = e.addr;
    ev.value = e.value;
    // the engine pops only a record that is there
    const bool pop = st.pop && !ref_.recs.empty();
    hwprof_vpf_in_t in{e.fire, &ev, pop, {st.h.access, st.h.access && st.h.write, st.h.addr, st.h.wdata}};
    rtl_->ev_fire_i = e.fire;
    rtl_->ev_kind_i = e.kind;
    rtl_->ev_taken_i = e.taken;
    rtl_->ev_is_call_i = e.call;
    rtl_->ev_is_ret_i = e.ret;
    rtl_->ev_pc_i = e.pc;
    rtl_->ev_next_pc_i = e.npc;
    rtl_->ev_insn_i = e.insn;
    rtl_->ev_addr_i = e.addr;
    rtl_->ev_value_i = e.value;
    rtl_->smp_pop_i = pop;
    rtl_->reg_access_i = in.reg.access;
    rtl_->reg_write_i = in.reg.write;
    rtl_->reg_addr_i = in.reg.addr;
    rtl_->reg_wdata_i = in.reg.wdata;
    rtl_->eval();
    hwprof_vpf_out_t m;
    hwprof_vpf_comb(&model_, &cfg_, &in, &m);
    chk.begin_cycle(t);
    chk.eq("smp_valid_o", m.smp_valid, rtl_->smp_valid_o);
    chk.eq("smp_pc_o", m.smp.pc, rtl_->smp_pc_o);
    chk.eq("smp_npc_o", m.smp.npc, rtl_->smp_npc_o);
    chk.eq("smp_insn_o", m.smp.insn, rtl_->smp_insn_o);
    chk.eq("smp_addr_o", m.smp.addr, rtl_->smp_addr_o);
    chk.eq("smp_value_o", m.smp.value, rtl_->smp_value_o);
    chk.eq("smp_info_o", m.smp.info, rtl_->smp_info_o);
    chk.eq("reg_rdata_o", m.reg.rdata, rtl_->reg_rdata_o);
    chk.eq("reg_error_o", m.reg.error, rtl_->reg_error_o);
    // the reference
    chk.expect("reference: a record is held", !ref_.recs.empty(), rtl_->smp_valid_o);
    if (pop) {
      const Ref::Rec& r = ref_.recs.front();
      chk.expect("reference: the record taken, pc", r.f[0], rtl_->smp_pc_o);
      chk.expect("reference: the record taken, next_pc", r.f[1], rtl_->smp_npc_o);
      chk.expect("reference: the record taken, insn", r.f[2], rtl_->smp_insn_o);
      chk.expect("reference: the record taken, addr", r.f[3], rtl_->smp_addr_o);
      chk.expect("reference: the record taken, value", r.f[4], rtl_->smp_value_o);
      chk.expect("reference: the record taken, info", r.info, rtl_->smp_info_o);
      taken_++;
    }
    const bool refused = in.reg.access && ref_.errors(st.h);
    if (in.reg.access) {
      chk.expect("reference: the access answers pslverr (1) or not (0)", refused, rtl_->reg_error_o);
      writes_ += st.h.write;
      refused_ += refused && st.h.write;
    }
    if (st.expect_rdata >= 0) chk.expect(st.what, static_cast<uint64_t>(st.expect_rdata), rtl_->reg_rdata_o);
    if (st.expect_error >= 0) chk.expect(st.what, static_cast<uint64_t>(st.expect_error), rtl_->reg_error_o);
    char line[200];
    std::snprintf(line, sizeof line, "%s kind %u pc 0x%08x value 0x%08x | pop %d valid %d | %s 0x%04x 0x%08x -> 0x%08x err %d",
                  e.fire ? "ev" : "  ", e.kind, e.pc, e.value, pop, m.smp_valid, in.reg.access ? (in.reg.write ? "W" : "R") : "-",
                  in.reg.addr, in.reg.wdata, m.reg.rdata, m.reg.error);
    log.add(t, line);
    events_ += e.fire;
    ref_.cycle(e, pop, st.h, refused);
    rtl_.rising_edge(t, [&] { hwprof_vpf_step(&model_, &cfg_, &in); });
    if (t % 4096 == 0 || (directed_ && step_ == steps_.size())) {
      chk.expect("reference: passed", ref_.passed, hwprof_prim_counters_get(&model_.stats, HWPROF_VPF_ST_PASSED));
      chk.expect("reference: sampled", ref_.sampled, hwprof_prim_counters_get(&model_.stats, HWPROF_VPF_ST_SAMPLED));
      chk.expect("reference: dropped", ref_.dropped, hwprof_prim_counters_get(&model_.stats, HWPROF_VPF_ST_DROPPED));
    }
    return true;
  }

 private:
  // ---------------------------------------------------------------- random
  Ev random_ev() {
    static const uint32_t kPcs[] = {0x80000100, 0x80000104, 0x80000108, 0x80001000, 0x80004000, 0x80040000, 0x80000000, 0x8000fffc};
    Ev e{};
    e.fire = rng_.chance(70);
    e.kind = static_cast<uint8_t>(rng_.below(8));
    // a few PCs that recur (the prescaler, the records), and PCs from anywhere, whose hashes reach
    // every bit of a filter word and every word of the bit-mask table
    e.pc = rng_.chance(60) ? kPcs[rng_.below(8)] : static_cast<uint32_t>(rng_.next()) & ~3u;
    e.npc = e.pc + 4;
    e.insn = static_cast<uint32_t>(rng_.next());
    e.addr = static_cast<uint32_t>(rng_.next());
    e.value = static_cast<uint32_t>(rng_.next());
    e.taken = rng_.chance(50);
    e.call = rng_.chance(10);
    e.ret = rng_.chance(10);
    return e;
  }
  Step random_step() {
    Step s{};
    s.ev = random_ev();
    // the engine drains in bursts, sometimes not at all for a while (so the buffer fills)
    if (t_ % 2000 == 0) drain_pct_ = static_cast<unsigned>(rng_.below(4)) * 30;
    t_++;
    s.pop = rng_.chance(drain_pct_);
    s.expect_rdata = -1;
    s.expect_error = -1;
    if (rng_.chance(4)) {
      s.h.access = true;
      s.h.write = rng_.chance(60);
      const unsigned r = static_cast<unsigned>(rng_.below(100));
      const uint16_t base = static_cast<uint16_t>(HWPROF_VPF_WINDOW << HWPROF_WINDOW_SHIFT);
      if (r < 8) {
        s.h.addr = HWPROF_VPF_CTRL_ADDR;
        s.h.wdata = static_cast<uint32_t>(rng_.chance(85)) | static_cast<uint32_t>(rng_.below(4)) << 4 | static_cast<uint32_t>(rng_.below(4)) << 8;
      } else if (r < 14) {
        s.h.addr = HWPROF_VPF_KINDS_ADDR;
        s.h.wdata = static_cast<uint32_t>(rng_.next());
      } else if (r < 20) {
        // small values (a few low bits decide), or one or two bits anywhere in the hash
        s.h.addr = rng_.chance(50) ? HWPROF_VPF_MASK_ADDR : HWPROF_VPF_MATCH_ADDR;
        s.h.wdata = rng_.chance(50) ? static_cast<uint32_t>(rng_.below(8))
                                    : (1u << rng_.below(32)) | (rng_.chance(50) ? 1u << rng_.below(32) : 0u);
      } else if (r < 26) {
        s.h.addr = rng_.chance(70) ? HWPROF_VPF_PRESCALE_ADDR : HWPROF_VPF_PRESCALE_COUNT_ADDR;
        s.h.wdata = static_cast<uint32_t>(rng_.below(6));
      } else if (r < 34) {
        s.h.addr = HWPROF_VPF_FIELDS_ADDR;
        s.h.wdata = static_cast<uint32_t>(rng_.below(32));
      } else if (r < 38) {
        s.h.addr = HWPROF_VPF_ACTION_ADDR;
        s.h.wdata = static_cast<uint32_t>(rng_.below(4));
      } else if (r < 60) {
        s.h.addr = static_cast<uint16_t>(HWPROF_VPF_BITMASK_ADDR + 4 * rng_.below(HWPROF_VPF_BITMASK_ENTRIES));
        s.h.wdata = rng_.chance(50) ? 0u : static_cast<uint32_t>(rng_.next() & rng_.next());
      } else if (r < 64) {  // a statistics preset: often just below the wrap
        static const uint16_t stats[] = {HWPROF_VPF_STAT_PASSED_ADDR, HWPROF_VPF_STAT_SAMPLED_ADDR, HWPROF_VPF_STAT_DROPPED_ADDR};
        s.h.addr = stats[rng_.below(sizeof stats / sizeof stats[0])];
        s.h.wdata = rng_.chance(50) ? 0xffffffffu - static_cast<uint32_t>(rng_.below(64)) : static_cast<uint32_t>(rng_.next());
      } else if (r < 70) {  // a register's address with one bit flipped: a decoder ignoring it answers
        static const uint16_t regs[] = {HWPROF_VPF_CTRL_ADDR, HWPROF_VPF_KINDS_ADDR, HWPROF_VPF_MASK_ADDR,
                                        HWPROF_VPF_MATCH_ADDR, HWPROF_VPF_PRESCALE_ADDR, HWPROF_VPF_FIELDS_ADDR,
                                        HWPROF_VPF_ACTION_ADDR, HWPROF_VPF_SB_STATUS_ADDR, HWPROF_VPF_STAT_PASSED_ADDR};
        s.h.addr = static_cast<uint16_t>(regs[rng_.below(sizeof regs / sizeof regs[0])] ^ (1u << rng_.below(16)));
        s.h.wdata = static_cast<uint32_t>(rng_.next()) & 0xfffu;  // small: an alias may be a real register
      } else {
        s.h.addr = static_cast<uint16_t>(base + 4 * rng_.below(HWPROF_VPF_WINDOWS * 64));
        s.h.wdata = static_cast<uint32_t>(rng_.next());
        if (s.h.write && s.h.addr == HWPROF_VPF_ACTION_ADDR) s.h.wdata &= ~1u;  // keep the table
      }
    }
    return s;
  }

  // ---------------------------------------------------------------- directed
  void push(const Ev& e, bool pop, Host h, int64_t rdata = -1, int err = -1, const char* what = "") {
    steps_.push_back(Step{e, pop, h, rdata, err, what});
  }
  static Ev none() { return Ev{}; }
  static Ev load(uint32_t pc, uint32_t value) { return Ev{true, HWPROF_KIND_LOAD, pc, pc + 4, 0x00452503u, 0x2000u, value, false, false, false}; }
  static Host w(uint16_t a, uint32_t d) { return Host{true, true, a, d}; }
  static Host r(uint16_t a) { return Host{true, false, a, 0}; }
  void wr(uint16_t a, uint32_t d, int err = 0, const char* what = "write") { push(none(), false, w(a, d), -1, err, what); }
  void rd(uint16_t a, int64_t v, const char* what) { push(none(), false, r(a), v, 0, what); }

  void build_directed() {
    const uint32_t kEnable = 1;
    rd(HWPROF_VPF_FIELDS_ADDR, 0x11, "FIELDS reset: pc and value");
    rd(HWPROF_VPF_CFG_ADDR, (uint32_t)(__builtin_ctz(VPF_WORDS) | __builtin_ctz(VPF_BITS) << 4), "CFG: log2 sizes");
    // 1. opcode filter: loads only
    wr(HWPROF_VPF_KINDS_ADDR, 1u << HWPROF_KIND_LOAD);
    wr(HWPROF_VPF_CTRL_ADDR, kEnable);
    wr(HWPROF_VPF_FIELDS_ADDR, 0x11, 1, "FIELDS refused while sampling is enabled");
    push(load(0x100, 7), false, Host{});
    push(Ev{true, HWPROF_KIND_STORE, 0x104, 0x108, 0, 0x2000, 0, false, false, false}, false, Host{});
    push(load(0x108, 9), false, Host{});
    rd(HWPROF_VPF_STAT_PASSED_ADDR, 2, "two loads passed, the store did not");
    rd(HWPROF_VPF_SB_STATUS_ADDR, 2 | 4u << 16, "two records of two words (pc, value)");
    // the engine takes the first: pc 0x100, value 7, info = kind load (4); npc/insn/addr not held: 0
    push(none(), true, Host{});
    push(none(), true, Host{});
    rd(HWPROF_VPF_SB_STATUS_ADDR, 0, "both taken");
    // 2. mask/match, hash 0 (w = pc >> 2): MASK 1, MATCH 0 keep even word addresses:
    //    0x100 (w 0x40) passes, 0x104 (w 0x41) does not
    wr(HWPROF_VPF_MASK_ADDR, 1);
    push(load(0x100, 1), false, Host{});
    push(load(0x104, 2), false, Host{});
    rd(HWPROF_VPF_STAT_PASSED_ADDR, 3, "0x100 passed the mask/match filter, 0x104 not");
    //    hash 1 (w ^ w >> 12): pc 0x4000 has w 0x1000, hash 0x1001: odd, filtered; with hash 0 it is even
    wr(HWPROF_VPF_CTRL_ADDR, kEnable | 1u << 4);
    push(load(0x4000, 3), false, Host{});
    rd(HWPROF_VPF_STAT_PASSED_ADDR, 3, "hash 1 makes 0x4000 odd: filtered");
    wr(HWPROF_VPF_CTRL_ADDR, kEnable);
    push(load(0x4000, 3), false, Host{});
    rd(HWPROF_VPF_STAT_PASSED_ADDR, 4, "hash 0 keeps 0x4000 (w 0x1000, even)");
    wr(HWPROF_VPF_MASK_ADDR, 0);
    // 3. bit-mask: hash 0 of 0x100 is 0x40, of 0x104 0x41 (modulo BitmaskBits: in the same word,
    //    bits next to each other); setting 0x100's bit excludes it, 0x104 passes
    const uint32_t bi = 0x40u % VPF_BITS;
    wr(static_cast<uint16_t>(HWPROF_VPF_BITMASK_ADDR + 4 * (bi / 32)), 1u << (bi % 32));
    push(load(0x100, 4), false, Host{});
    push(load(0x104, 5), false, Host{});
    rd(HWPROF_VPF_STAT_PASSED_ADDR, 5, "0x100 excluded by its bit, 0x104 passed");
    wr(HWPROF_VPF_ACTION_ADDR, 1);  // BITMASK_CLEAR
    rd(static_cast<uint16_t>(HWPROF_VPF_BITMASK_ADDR + 4 * (bi / 32)), 0, "the table was cleared");
    push(load(0x100, 6), false, Host{});
    rd(HWPROF_VPF_STAT_PASSED_ADDR, 6, "0x100 passes again");
    // 4. prescaler 3: of seven passing loads the 1st, 4th and 7th are sampled (the count is 0 at first)
    wr(HWPROF_VPF_ACTION_ADDR, 2);  // SB_CLEAR: start empty
    rd(HWPROF_VPF_STAT_SAMPLED_ADDR, 6, "six sampled so far (every one passing)");
    wr(HWPROF_VPF_PRESCALE_ADDR, 3);
    for (uint32_t k = 0; k < 7; k++) push(load(0x200 + 4 * k, k), false, Host{});
    rd(HWPROF_VPF_STAT_SAMPLED_ADDR, 9, "three more sampled");
    push(none(), true, Host{});
    push(none(), true, Host{});
    push(none(), true, Host{});  // values 0, 3, 6 (checked against the reference when taken)
    wr(HWPROF_VPF_PRESCALE_ADDR, 0);
    wr(HWPROF_VPF_PRESCALE_COUNT_ADDR, 0);
    // 5. layout: FIELDS = next_pc | addr (0x0a), set while disabled and empty
    wr(HWPROF_VPF_CTRL_ADDR, 0);
    wr(HWPROF_VPF_FIELDS_ADDR, 0x0a, 0, "FIELDS taken while disabled and empty");
    wr(HWPROF_VPF_CTRL_ADDR, kEnable);
    push(load(0x300, 0x55), false, Host{});
    rd(HWPROF_VPF_SB_STATUS_ADDR, 1 | 2u << 16, "one record of two words (next_pc, addr)");
    push(none(), true, Host{});  // next_pc 0x304, addr 0x2000, pc/insn/value 0
    // 6. full: every field (5 words); floor(Words / 5) records fit, the next is dropped
    wr(HWPROF_VPF_CTRL_ADDR, 0);
    wr(HWPROF_VPF_FIELDS_ADDR, 0x1f);
    wr(HWPROF_VPF_CTRL_ADDR, kEnable);
    const unsigned fit = VPF_WORDS / 5;
    for (unsigned k = 0; k <= fit; k++) push(load(0x400 + 4 * k, k), false, Host{});
    rd(HWPROF_VPF_STAT_DROPPED_ADDR, 1, "the record after the buffer filled was dropped");
    rd(HWPROF_VPF_SB_STATUS_ADDR, fit | (5u * fit) << 16, "Words / 5 records held");
    wr(HWPROF_VPF_CTRL_ADDR, 0);
    wr(HWPROF_VPF_FIELDS_ADDR, 0x1f, 1, "FIELDS refused while records are held");
    for (unsigned k = 0; k < 3; k++) push(none(), true, Host{});
    wr(HWPROF_VPF_ACTION_ADDR, 2);
    rd(HWPROF_VPF_SB_STATUS_ADDR, 0, "SB_CLEAR emptied it");
    // 7. no field (the info tag alone, 0 words a record): the record count is the limit, Words
    //    records fit, the next is dropped; the engine takes two (their info tags), two more fit
    wr(HWPROF_VPF_FIELDS_ADDR, 0, 0, "FIELDS 0 taken while disabled and empty");
    wr(HWPROF_VPF_CTRL_ADDR, kEnable);
    for (unsigned k = 0; k <= VPF_WORDS; k++) push(load(0x800 + 4 * k, k), false, Host{});
    rd(HWPROF_VPF_SB_STATUS_ADDR, VPF_WORDS, "Words records of 0 words held");
    rd(HWPROF_VPF_STAT_DROPPED_ADDR, 2, "the one after them was dropped");
    push(none(), true, Host{});
    push(none(), true, Host{});
    for (unsigned k = 0; k < 3; k++) push(load(0xc00 + 4 * k, k), false, Host{});
    rd(HWPROF_VPF_SB_STATUS_ADDR, VPF_WORDS, "two taken, two more fit, the third is dropped");
    rd(HWPROF_VPF_STAT_DROPPED_ADDR, 3, "three dropped in all");
    wr(HWPROF_VPF_CTRL_ADDR, 0);
    wr(HWPROF_VPF_ACTION_ADDR, 2);
    rd(HWPROF_VPF_SB_STATUS_ADDR, 0, "SB_CLEAR emptied it");
    if (VPF_BITS < 32 * HWPROF_VPF_BITMASK_ENTRIES)
      wr(static_cast<uint16_t>(HWPROF_VPF_BITMASK_ADDR + VPF_BITS / 8), 1, 1, "a bit-mask word beyond BitmaskBits is refused");
  }

  lockstep::Rng rng_;
  bool directed_;
  hwprof_vpf_cfg_t cfg_{};
  hwprof_vpf_state_t model_{};
  Ref ref_;
  std::vector<Step> steps_;
  size_t step_ = 0;
  uint64_t t_ = 0;
  unsigned drain_pct_ = 50;
  uint64_t events_ = 0, taken_ = 0, writes_ = 0, refused_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  return lockstep::main(argc, argv, "tb_vpf", "random|directed", [](const Options& o) {
    return std::unique_ptr<lockstep::Bench>(new VpfBench(o));
  });
}
