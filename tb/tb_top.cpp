// Lockstep bench of hwprof_top: the Verilated RTL against cmodel/top.c, every output on every cycle,
// each side with its own memory model (tb/mem_model.c) so their memory requests are compared too.
//
// Stimulus (--test=):
//   random    constrained-random retire events and APB transfers (events held while ready is low),
//             counters preloaded near 0 and near the maximum so overflows and underflows happen
//   directed  the update-operation table, pir instructions, register access and misuse, and the
//             edge-profiling scenarios of docs/edge-prof.md; every outcome is also checked against
//             a value worked out by hand here
//   counts    random profiled events only, then a flush: every counter in both memories must equal
//             the count computed independently from the accepted events (docs/pir.md rules)
//   program   the retire stream of a generated RV32 program with a consistent control flow
//             (tb/progen.c), with random register traffic: realistic traces through both sides
//
// The RTL parameters are fixed when the bench is built; HWPROF_CFG_* (set by the Makefile together
// with Verilator's -G options) tell the C model the same values.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "Vhwprof_top.h"
#include "lockstep.h"
#include "top_compare.h"
#include "verilated.h"
#include "verilated_fst_c.h"

extern "C" {
#include "mem_model.h"
#include "progen.h"
#include "top.h"
}

#ifndef HWPROF_CFG_CNTW
#define HWPROF_CFG_CNTW 32
#endif
#ifndef HWPROF_CFG_UPDDEPTH
#define HWPROF_CFG_UPDDEPTH 4
#endif
#ifndef HWPROF_CFG_SETS
#define HWPROF_CFG_SETS 4
#endif
#ifndef HWPROF_CFG_WAYS
#define HWPROF_CFG_WAYS 2
#endif
#ifndef HWPROF_CFG_LINEWORDS
#define HWPROF_CFG_LINEWORDS 4
#endif
#ifndef HWPROF_CFG_OABDEPTH
#define HWPROF_CFG_OABDEPTH 8
#endif
#ifndef HWPROF_CFG_HISTW
#define HWPROF_CFG_HISTW 32
#endif
#ifndef HWPROF_CFG_TFIFO
#define HWPROF_CFG_TFIFO 8
#endif

namespace {

using lockstep::Checker;
using lockstep::Options;
using lockstep::Rng;
using lockstep::TxLog;

constexpr uint64_t kMemBase = 0x80000000ull;  // the counter memory and the bounds window
constexpr uint64_t kMemSize = 0x10000ull;
constexpr unsigned kCntBytes = HWPROF_CFG_CNTW / 8;
constexpr uint64_t kCntMax = HWPROF_CFG_CNTW >= 64 ? ~0ull : ((1ull << HWPROF_CFG_CNTW) - 1);

using lockstep::kind_name;
const char* bhint_name(unsigned b) {
  static const char* names[] = {"tk", "nt", "either", "all"};
  return names[b & 3];
}
const char* op_name(unsigned o) {
  static const char* names[] = {"id", "init", "setoff", "start", "stop", "trigger", "op6", "op7"};
  return names[o & 7];
}

// ---- wide-port conversion between Verilator signals and ep_line_t (word i at bits [i*CntW +: CntW])
template <typename T>
void line_from(const T& v, ep_line_t* l) {
  uint64_t x = static_cast<uint64_t>(v);
  for (unsigned w = 0; w < HWPROF_CFG_LINEWORDS; w++)
    l->w[w] = HWPROF_CFG_CNTW >= 64 ? x : (x >> (w * HWPROF_CFG_CNTW)) & kCntMax;
}
template <std::size_t N>
void line_from(const VlWide<N>& v, ep_line_t* l) {
  for (unsigned w = 0; w < HWPROF_CFG_LINEWORDS; w++) {
    uint64_t x = 0;
    for (unsigned b = 0; b < HWPROF_CFG_CNTW; b += 32) {
      unsigned bit = w * HWPROF_CFG_CNTW + b;
      x |= static_cast<uint64_t>(v[bit / 32]) << b;
    }
    l->w[w] = x & kCntMax;
  }
}
template <typename T>
void line_to(const ep_line_t& l, T* v) {
  uint64_t x = 0;
  for (unsigned w = 0; w < HWPROF_CFG_LINEWORDS; w++)
    x |= HWPROF_CFG_CNTW >= 64 ? l.w[w] : (l.w[w] & kCntMax) << (w * HWPROF_CFG_CNTW);
  *v = static_cast<T>(x);
}
template <std::size_t N>
void line_to(const ep_line_t& l, VlWide<N>* v) {
  for (std::size_t i = 0; i < N; i++) (*v)[i] = 0;
  for (unsigned w = 0; w < HWPROF_CFG_LINEWORDS; w++)
    for (unsigned b = 0; b < HWPROF_CFG_CNTW; b += 32) {
      unsigned bit = w * HWPROF_CFG_CNTW + b;
      (*v)[bit / 32] |= static_cast<uint32_t>((l.w[w] & kCntMax) >> b);
    }
}

// ---- the update rule of docs/pir.md, written again here, independently of cmodel/pir.c
struct PirShadow {
  uint64_t base = 0;
  uint32_t offset = 0;
  bool flag = false;
  // returns true and the counter address if the accepted event updates a counter
  bool apply(const retire_ev_t& e, uint64_t* addr, bool* dec) {
    bool upd = false;
    uint64_t idx = 0;
    if (flag && e.pid != 0) {
      idx = offset + e.pid - 1ull;
      if (e.kind == HWPROF_KIND_PROF) {
        upd = e.op == HWPROF_PROF_OP_ID;
      } else if (e.kind == HWPROF_KIND_BRANCH || e.kind == HWPROF_KIND_JUMP || e.kind == HWPROF_KIND_IJUMP) {
        if (e.bhint == HWPROF_BHINT_TK) upd = e.taken;
        if (e.bhint == HWPROF_BHINT_NT) upd = !e.taken;
        if (e.bhint == HWPROF_BHINT_ALL) upd = true;
        if (e.bhint == HWPROF_BHINT_EITHER) {
          upd = true;
          idx += e.taken ? 0 : 1;
        }
      }
    }
    *addr = (base + idx * kCntBytes) & ((1ull << 40) - 1);
    *dec = e.ihint;
    if (e.kind == HWPROF_KIND_PROF) {
      if (e.op == HWPROF_PROF_OP_INIT) {
        base = e.operand & ((1ull << 40) - 1);
        offset = 0;
      }
      if (e.op == HWPROF_PROF_OP_SETOFF) offset = static_cast<uint32_t>(e.operand & 0xffffff);
      if (e.op == HWPROF_PROF_OP_START) flag = true;
      if (e.op == HWPROF_PROF_OP_STOP) flag = false;
    }
    return upd;
  }
};

// ---- directed steps
struct Step {
  enum Type { EVENT, READ, WRITE, SYNC, PRELOAD, CHECK_MEM, CHECK_IRQ } type;
  retire_ev_t ev;
  uint16_t addr;      // READ/WRITE: register; PRELOAD/CHECK_MEM: offset in the counter memory
  uint64_t data;      // write data, expected read data, preload value, expected memory value,
                      // CHECK_IRQ: expected {error, coproc, trace, phase} levels
  bool expect_upd;    // EVENT: an update operation follows
  uint64_t upd_addr;
  bool upd_dec;
  bool expect_err;    // READ/WRITE: pslverr
  const char* what;
  bool ignore_upd;    // EVENT: its update operation is checked by later steps, not here
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
Step go(retire_ev_t e, const char* what) {
  return Step{Step::EVENT, e, 0, 0, false, 0, false, false, what, true};
}
Step upd(retire_ev_t e, uint64_t addr, bool dec, const char* what) {
  return Step{Step::EVENT, e, 0, 0, true, addr, dec, false, what};
}
Step rd(uint16_t a, uint64_t v, bool err, const char* what) {
  return Step{Step::READ, retire_ev_t{}, a, v, false, 0, false, err, what};
}
Step wr(uint16_t a, uint64_t v, bool err, const char* what) {
  return Step{Step::WRITE, retire_ev_t{}, a, v, false, 0, false, err, what};
}
Step sync(const char* what) { return Step{Step::SYNC, retire_ev_t{}, 0, 0, false, 0, false, false, what}; }
Step preload(uint16_t off, uint64_t v, const char* what) {
  return Step{Step::PRELOAD, retire_ev_t{}, off, v, false, 0, false, false, what};
}
Step mem_is(uint16_t off, uint64_t v, const char* what) {
  return Step{Step::CHECK_MEM, retire_ev_t{}, off, v, false, 0, false, false, what};
}
Step irq_is(unsigned levels, const char* what) {
  return Step{Step::CHECK_IRQ, retire_ev_t{}, 0, levels, false, 0, false, false, what};
}
void repeat(std::vector<Step>* s, int n, const Step& st) {
  for (int i = 0; i < n; i++) s->push_back(st);
}

// The update-operation table of docs/pir.md, with every address worked out by hand:
// counter byte address = base + (offset + pid - 1 [+1 for the not-taken edge of either]) * 4.
void pir_steps(std::vector<Step>* out) {
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
  s.push_back(evs(prof(6, 0x123), "reserved prof op does nothing"));
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
  // none of the updates above was inside the (empty) bounds window
  s.push_back(sync("drain"));
  s.push_back(rd(HWPROF_EDGE_PROF_STAT_DROPPED_ADDR, 17, false, "all 17 dropped: the bounds window is empty after reset"));
  s.push_back(rd(HWPROF_EDGE_PROF_STAT_UPDATES_ADDR, 0, false, "no counter was updated"));
  s.push_back(wr(HWPROF_TOP_IRQ_PENDING_ADDR, 0xf, false, "clear the error cause"));
  out->insert(out->end(), s.begin(), s.end());
}

// Edge-profiling scenarios (docs/edge-prof.md); written for the default configuration (32-bit
// counters). Memory offsets are relative to kMemBase; expected values worked out by hand.
void edge_steps(std::vector<Step>* s) {
  const uint16_t B = HWPROF_KIND_BRANCH;
  const uint64_t M = 0xffffffffull;  // counter maximum
  const uint64_t base = kMemBase;
  auto inc = [&](uint16_t pid) { return br(B, pid, HWPROF_BHINT_ALL, true); };
  auto dec = [&](uint16_t pid) { return br(B, pid, HWPROF_BHINT_ALL, true, true); };
  s->push_back(wr(HWPROF_EDGE_PROF_BOUND_LO_LO_ADDR, base & 0xffffffff, false, "bounds: low"));
  s->push_back(wr(HWPROF_EDGE_PROF_BOUND_HI_LO_ADDR, (base + kMemSize) & 0xffffffff, false, "bounds: high"));
  s->push_back(wr(HWPROF_TOP_IRQ_ENABLE_ADDR, 0x9, false, "enable phase and error interrupts"));
  s->push_back(wr(HWPROF_PIR_OFFSET_ADDR, 0, false, "offset 0"));
  s->push_back(wr(HWPROF_PIR_CTRL_ADDR, 1, false, "profiling on"));

  // 1. a counter initialized to MAX - threshold overflows after exactly threshold + 1 increments
  s->push_back(preload(0x0, M - 5, "counter[0] = MAX - 5 (threshold 5)"));
  s->push_back(go(prof(HWPROF_PROF_OP_INIT, base), "initprof at the counter area"));
  s->push_back(go(prof(HWPROF_PROF_OP_TRIGGER, 1), "trigger 1"));
  repeat(s, 5, go(inc(1), "increment counter[0]"));
  s->push_back(sync("flush"));
  s->push_back(mem_is(0x0, M, "after 5 increments counter[0] = MAX"));
  s->push_back(rd(HWPROF_EDGE_PROF_STAT_OVERFLOWS_ADDR, 0, false, "no overflow yet"));
  s->push_back(rd(HWPROF_PIR_TRIGGER_ADDR, 1, false, "trigger still 1"));
  s->push_back(irq_is(0, "no interrupt yet"));
  s->push_back(go(inc(1), "the 6th increment"));
  s->push_back(sync("flush"));
  s->push_back(mem_is(0x0, 0, "counter[0] wrapped to 0"));
  s->push_back(rd(HWPROF_EDGE_PROF_STAT_OVERFLOWS_ADDR, 1, false, "one overflow"));
  s->push_back(rd(HWPROF_PIR_TRIGGER_ADDR, 0, false, "trigger reached 0"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, 1, false, "phase transition pending"));
  s->push_back(irq_is(1, "irq_phase_o high"));
  s->push_back(rd(HWPROF_EDGE_PROF_OAB_STATUS_ADDR, 1, false, "OAB holds one entry"));
  s->push_back(wr(HWPROF_EDGE_PROF_OAB_INDEX_ADDR, 0, false, "OAB index 0"));
  s->push_back(rd(HWPROF_EDGE_PROF_OAB_ENTRY_LO_ADDR, base & 0xffffffff, false, "OAB entry 0: counter[0]"));
  s->push_back(rd(HWPROF_EDGE_PROF_OAB_ENTRY_HI_ADDR, 0, false, "OAB entry 0 is an overflow"));
  s->push_back(preload(0x80, M, "counter[32] = MAX"));
  s->push_back(go(inc(33), "another overflow, with the trigger at zero"));
  s->push_back(sync("flush"));
  s->push_back(rd(HWPROF_EDGE_PROF_STAT_OVERFLOWS_ADDR, 2, false, "two overflows"));
  s->push_back(rd(HWPROF_PIR_TRIGGER_ADDR, 0, false, "at zero the trigger stays disarmed"));
  s->push_back(wr(HWPROF_TOP_IRQ_PENDING_ADDR, 1, false, "acknowledge the phase transition"));
  s->push_back(irq_is(0, "interrupt cleared"));

  // 2. scheme 5B: an overflow later undone by an underflow restores the trigger counter
  s->push_back(wr(HWPROF_EDGE_PROF_OAB_CTRL_ADDR, 1, false, "clear the OAB"));
  s->push_back(preload(0x40, M - 2, "counter[16] = MAX - 2 (difference threshold 2)"));
  s->push_back(go(prof(HWPROF_PROF_OP_TRIGGER, 2), "trigger 2"));
  repeat(s, 3, go(inc(17), "cold edge: increment counter[16]"));
  s->push_back(sync("flush"));
  s->push_back(rd(HWPROF_PIR_TRIGGER_ADDR, 1, false, "overflow: trigger 2 -> 1"));
  s->push_back(go(dec(17), "hot edge: decrement counter[16]"));
  s->push_back(sync("flush"));
  s->push_back(mem_is(0x40, M, "counter[16] underflowed back to MAX"));
  s->push_back(rd(HWPROF_PIR_TRIGGER_ADDR, 2, false, "underflow: trigger restored to 2"));
  s->push_back(rd(HWPROF_EDGE_PROF_OAB_STATUS_ADDR, 2, false, "OAB: two entries"));
  s->push_back(wr(HWPROF_EDGE_PROF_OAB_INDEX_ADDR, 1, false, "OAB index 1"));
  s->push_back(rd(HWPROF_EDGE_PROF_OAB_ENTRY_LO_ADDR, (base + 0x40) & 0xffffffff, false, "entry 1: counter[16]"));
  s->push_back(rd(HWPROF_EDGE_PROF_OAB_ENTRY_HI_ADDR, 0x80000000u, false, "entry 1 is tagged underflow"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, 0, false, "no phase transition"));

  // 3. overflowed-address buffer overrun: 10 overflows into 8 entries keep the last 8
  s->push_back(wr(HWPROF_EDGE_PROF_OAB_CTRL_ADDR, 1, false, "clear the OAB"));
  s->push_back(go(prof(HWPROF_PROF_OP_TRIGGER, 0), "trigger 0 (disarmed)"));
  for (uint16_t i = 0; i < 10; i++) s->push_back(preload(0x100 + 4 * i, M, "counter at MAX"));
  s->push_back(go(prof(HWPROF_PROF_OP_INIT, base + 0x100), "initprof at 0x100"));
  for (uint16_t i = 1; i <= 10; i++) s->push_back(go(inc(i), "overflow a counter"));
  s->push_back(sync("flush"));
  s->push_back(rd(HWPROF_EDGE_PROF_OAB_STATUS_ADDR, 0x80000008u, false, "8 entries, overrun"));
  s->push_back(wr(HWPROF_EDGE_PROF_OAB_INDEX_ADDR, 0, false, "OAB index 0"));
  s->push_back(rd(HWPROF_EDGE_PROF_OAB_ENTRY_LO_ADDR, (base + 0x108) & 0xffffffff, false, "oldest kept: the 3rd"));
  s->push_back(wr(HWPROF_EDGE_PROF_OAB_INDEX_ADDR, 7, false, "OAB index 7"));
  s->push_back(rd(HWPROF_EDGE_PROF_OAB_ENTRY_LO_ADDR, (base + 0x124) & 0xffffffff, false, "newest: the 10th"));
  s->push_back(wr(HWPROF_EDGE_PROF_OAB_INDEX_ADDR, 8, false, "OAB index 8"));
  s->push_back(rd(HWPROF_EDGE_PROF_OAB_ENTRY_LO_ADDR, 0, false, "beyond the count reads 0"));
  s->push_back(rd(HWPROF_EDGE_PROF_STAT_OVERFLOWS_ADDR, 13, false, "13 overflows in all"));
  s->push_back(rd(HWPROF_PIR_TRIGGER_ADDR, 0, false, "trigger disarmed: unchanged"));

  // 4. out-of-bounds and misaligned updates are dropped, counted and flagged
  s->push_back(wr(HWPROF_EDGE_PROF_OAB_CTRL_ADDR, 1, false, "clear the OAB"));
  s->push_back(preload(kMemSize - 4, 41, "last counter of the window = 41"));
  s->push_back(go(prof(HWPROF_PROF_OP_INIT, base + kMemSize - 4), "initprof at the last counter"));
  s->push_back(go(inc(1), "inside the window"));
  s->push_back(go(inc(2), "first byte above the window"));
  s->push_back(go(prof(HWPROF_PROF_OP_INIT, base - 4), "initprof below the window"));
  s->push_back(go(inc(1), "below the window"));
  s->push_back(go(prof(HWPROF_PROF_OP_INIT, base + 2), "initprof misaligned"));
  s->push_back(go(inc(1), "misaligned counter"));
  s->push_back(sync("flush"));
  s->push_back(mem_is(kMemSize - 4, 42, "the counter inside was updated"));
  s->push_back(rd(HWPROF_EDGE_PROF_STAT_DROPPED_ADDR, 17 + 3, false, "3 more dropped"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, 8, false, "error cause pending"));
  s->push_back(irq_is(8, "irq_error_o high"));
  s->push_back(wr(HWPROF_TOP_IRQ_PENDING_ADDR, 8, false, "acknowledge"));

  // 5. cache conflicts and evictions: five lines of one set, each incremented twice
  const uint16_t line = kCntBytes * HWPROF_CFG_LINEWORDS;
  const uint16_t stride = line * HWPROF_CFG_SETS;  // same set, next tag
  for (uint16_t i = 0; i < 5; i++) s->push_back(preload(0x1000 + i * stride, 100 * (i + 1), "conflict line"));
  for (int round = 0; round < 2; round++) {
    for (uint16_t i = 0; i < 5; i++) {
      s->push_back(go(prof(HWPROF_PROF_OP_INIT, base + 0x1000 + i * stride), "initprof at a conflicting line"));
      s->push_back(go(inc(1), "increment its first counter"));
    }
  }
  s->push_back(sync("flush"));
  for (uint16_t i = 0; i < 5; i++) s->push_back(mem_is(0x1000 + i * stride, 100 * (i + 1) + 2, "two increments each"));

  // 6. flush issued while updates are still in the update buffer
  s->push_back(go(prof(HWPROF_PROF_OP_INIT, base + 0x2000), "initprof at 0x2000"));
  for (uint16_t p = 1; p <= 4; p++) s->push_back(go(inc(p), "increment"));
  s->push_back(wr(HWPROF_EDGE_PROF_CMD_ADDR, 1, false, "flush right away"));
  s->push_back(sync("wait for the flush"));
  for (uint16_t p = 0; p < 4; p++) s->push_back(mem_is(0x2000 + 4 * p, 1, "each pending update reached memory"));

  // 7. invalidate discards cached counts; the next update refills from memory
  s->push_back(preload(0x3000, 7, "counter = 7"));
  s->push_back(go(prof(HWPROF_PROF_OP_INIT, base + 0x3000), "initprof at 0x3000"));
  s->push_back(go(inc(1), "increment (cached: 8)"));
  s->push_back(sync("flush"));
  s->push_back(mem_is(0x3000, 8, "flushed: 8"));
  s->push_back(go(inc(1), "increment (cached: 9, dirty)"));
  s->push_back(wr(HWPROF_EDGE_PROF_CMD_ADDR, 2, false, "invalidate without flush"));
  s->push_back(sync("wait"));
  s->push_back(mem_is(0x3000, 8, "the cached 9 was discarded"));
  s->push_back(go(inc(1), "increment again: refill from 8"));
  s->push_back(sync("flush"));
  s->push_back(mem_is(0x3000, 9, "9"));
  s->push_back(wr(HWPROF_EDGE_PROF_CMD_ADDR, 0, false, "a command of no bits does nothing"));
  s->push_back(rd(HWPROF_EDGE_PROF_STATUS_ADDR, 0, false, "idle"));
  s->push_back(wr(HWPROF_EDGE_PROF_STATUS_ADDR, 0, true, "STATUS is read-only"));
}

// Trace-controller scenarios (docs/trace-ctrl.md). Expected register values worked out by hand
// (Figure 7 of seed 002) or, for the full-history case, by shifting outcomes above a marker here.
retire_ev_t cf(uint8_t kind, uint32_t pc, uint32_t next_pc, bool taken) {
  retire_ev_t e = ev_of(kind);
  e.pc = pc;
  e.next_pc = next_pc;
  e.taken = taken;
  return e;
}
void trace_steps(std::vector<Step>* s) {
  const uint8_t B = HWPROF_KIND_BRANCH, IJ = HWPROF_KIND_IJUMP, J = HWPROF_KIND_JUMP;
  const uint32_t XXX = 0x1000, AAA = 0x2000, BBB = 0x2040, DDD = 0x2100, WWW = 0x5000;
  const uint32_t en = 1u << HWPROF_TRACE_CTRL_CTRL_ENABLE_LSB;
  // Figure 7: trace XXX with history 00100101 ends at an indirect jump to AAA, ...
  s->push_back(wr(HWPROF_TRACE_CTRL_CUR_START_ADDR, XXX, false, "current start = XXX"));
  s->push_back(wr(HWPROF_TRACE_CTRL_CUR_HIST_ADDR, 0x25, false, "current history = 00100101"));
  s->push_back(wr(HWPROF_TRACE_CTRL_CTRL_ADDR, en, false, "enable, interrupt on every trace"));
  s->push_back(go(cf(IJ, XXX + 0x30, AAA, true), "indirect jump to AAA ends trace XXX"));
  s->push_back(rd(HWPROF_TRACE_CTRL_LAST_START_ADDR, XXX, false, "last start = XXX"));
  s->push_back(rd(HWPROF_TRACE_CTRL_LAST_HIST_ADDR, 0x25, false, "last history = 00100101"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_START_ADDR, AAA, false, "current start = AAA"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_HIST_ADDR, 0x01, false, "current history = 00000001"));
  s->push_back(go(cf(HWPROF_KIND_OTHER, AAA, AAA + 4, false), "straight-line code"));
  s->push_back(go(cf(B, AAA + 4, BBB, true), "branch to BBB if Z: taken"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_HIST_ADDR, 0x03, false, "history = 00000011"));
  s->push_back(go(cf(B, BBB + 8, BBB + 12, false), "branch to CCC if N: not taken"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_HIST_ADDR, 0x06, false, "history = 00000110"));
  s->push_back(go(cf(B, BBB + 16, DDD, true), "branch to DDD if C: taken"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_HIST_ADDR, 0x0d, false, "history = 00001101"));
  s->push_back(go(cf(IJ, DDD + 4, WWW, true), "indirect branch to WWW"));
  s->push_back(rd(HWPROF_TRACE_CTRL_LAST_START_ADDR, AAA, false, "last start = AAA"));
  s->push_back(rd(HWPROF_TRACE_CTRL_LAST_HIST_ADDR, 0x0d, false, "last history = 00001101"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_START_ADDR, WWW, false, "current start = WWW"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_HIST_ADDR, 0x01, false, "current history = 00000001"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, 2, false, "trace interrupt pending"));
  s->push_back(wr(HWPROF_TOP_IRQ_PENDING_ADDR, 2, false, "acknowledge"));
  s->push_back(rd(HWPROF_TRACE_CTRL_STAT_END_INDIRECT_ADDR, 2, false, "two traces ended by indirect jumps"));

  // a taken backward branch ends the trace without shifting its (implied) outcome
  s->push_back(go(cf(B, WWW + 4, WWW + 8, false), "not taken: shift 0"));
  s->push_back(go(cf(B, WWW + 12, WWW + 12, true), "taken to itself: backward, ends"));
  s->push_back(rd(HWPROF_TRACE_CTRL_LAST_HIST_ADDR, 0x02, false, "history 10: the backward outcome is implied"));
  s->push_back(go(cf(B, WWW + 0x40, WWW + 0x20, false), "backward target, not taken: shifted"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_HIST_ADDR, 0x02, false, "history 10"));
  s->push_back(go(cf(J, WWW + 0x44, WWW + 0x80, true), "forward jump: neither shifts nor ends"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_HIST_ADDR, 0x02, false, "history still 10"));
  s->push_back(go(cf(J, WWW + 0x84, WWW, true), "backward jump ends"));
  s->push_back(rd(HWPROF_TRACE_CTRL_LAST_START_ADDR, WWW + 12, false, "that trace started after the backward branch"));
  s->push_back(rd(HWPROF_TRACE_CTRL_STAT_END_BACKWARD_ADDR, 2, false, "two traces ended backward"));

  // a full history ends a trace after exactly HistW - 1 outcomes
  uint32_t hist = 1;
  for (unsigned i = 0; i + 1 < HWPROF_CFG_HISTW; i++) {
    bool t = (i % 3) == 0;
    hist = (hist << 1) | (t ? 1u : 0u);
    if (i + 2 < HWPROF_CFG_HISTW)
      s->push_back(go(cf(B, 0x6000 + 8 * i, t ? 0x6000 + 8 * i + 8 : 0x6000 + 8 * i + 4, t), "outcome"));
  }
  s->push_back(rd(HWPROF_TRACE_CTRL_STAT_END_FULL_ADDR, 0, false, "HistW - 2 outcomes: not full yet"));
  const unsigned last = HWPROF_CFG_HISTW - 2;
  const bool lt = (last % 3) == 0;
  const uint32_t after = 0x6000 + 8 * last + (lt ? 8 : 4);
  s->push_back(go(cf(B, 0x6000 + 8 * last, after, lt), "outcome HistW - 1"));
  s->push_back(rd(HWPROF_TRACE_CTRL_STAT_END_FULL_ADDR, 1, false, "the marker reached the top bit: ended"));
  s->push_back(rd(HWPROF_TRACE_CTRL_LAST_HIST_ADDR, hist, false, "all HistW - 1 outcomes kept below the marker"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_START_ADDR, after, false, "next trace starts at next_pc"));

  // address-range filter and sampling counter: one trace in three, inside [0x7000, 0x8000)
  s->push_back(wr(HWPROF_TOP_IRQ_PENDING_ADDR, 2, false, "acknowledge"));
  s->push_back(wr(HWPROF_TRACE_CTRL_RANGE_LO_ADDR, 0x7000, false, "range low"));
  s->push_back(wr(HWPROF_TRACE_CTRL_RANGE_HI_ADDR, 0x8000, false, "range high"));
  s->push_back(wr(HWPROF_TRACE_CTRL_SAMPLE_RELOAD_ADDR, 3, false, "sample one in three"));
  s->push_back(wr(HWPROF_TRACE_CTRL_SAMPLE_COUNT_ADDR, 3, false, "sampling counter = 3"));
  s->push_back(wr(HWPROF_TRACE_CTRL_CTRL_ADDR,
                  en | (1u << HWPROF_TRACE_CTRL_CTRL_SAMPLE_EN_LSB) | (1u << HWPROF_TRACE_CTRL_CTRL_FILTER_EN_LSB),
                  false, "sample and filter"));
  s->push_back(rd(HWPROF_TRACE_CTRL_STAT_SAMPLED_ADDR, 5, false, "5 sampled so far"));
  s->push_back(go(cf(IJ, after + 0x100, 0x7000, true), "ends a trace outside the range; next starts at 0x7000"));
  s->push_back(rd(HWPROF_TRACE_CTRL_STAT_FILTERED_ADDR, 1, false, "filtered"));
  for (uint32_t i = 0; i < 5; i++)
    s->push_back(go(cf(IJ, 0x7000 + 0x100 * i + 0x10, 0x7100 + 0x100 * i, true), "trace in range"));
  s->push_back(rd(HWPROF_TRACE_CTRL_STAT_SAMPLED_ADDR, 6, false, "5 collected traces, one sampled (the 3rd)"));
  s->push_back(rd(HWPROF_TRACE_CTRL_LAST_START_ADDR, 0x7200, false, "the sampled one started at 0x7200"));
  s->push_back(rd(HWPROF_TRACE_CTRL_SAMPLE_COUNT_ADDR, 1, false, "counter: reloaded to 3, then 2 more"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, 2, false, "the sample interrupted"));
  s->push_back(wr(HWPROF_TOP_IRQ_PENDING_ADDR, 2, false, "acknowledge"));

  // FIFO mode with a watermark; a full FIFO drops and counts
  const uint32_t fifo = en | (1u << HWPROF_TRACE_CTRL_CTRL_FIFO_MODE_LSB) | (2u << HWPROF_TRACE_CTRL_CTRL_WATERMARK_LSB);
  s->push_back(wr(HWPROF_TRACE_CTRL_CTRL_ADDR, fifo, false, "FIFO mode, watermark 2"));
  s->push_back(go(cf(IJ, 0x9000, 0x9100, true), "trace 0x7500 ends: FIFO 1"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, HWPROF_CFG_TFIFO >= 2 ? 0 : 2, false, "below the watermark"));
  s->push_back(go(cf(IJ, 0x9104, 0x9200, true), "trace 0x9100 ends: FIFO 2"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, HWPROF_CFG_TFIFO >= 2 ? 2 : 0, false, "watermark reached"));
  s->push_back(wr(HWPROF_TOP_IRQ_PENDING_ADDR, 2, false, "acknowledge while still at the watermark"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, HWPROF_CFG_TFIFO >= 2 ? 2 : 0, false, "a level: pending again"));
  s->push_back(rd(HWPROF_TRACE_CTRL_FIFO_START_ADDR, 0x7500, false, "oldest record"));
  s->push_back(wr(HWPROF_TRACE_CTRL_FIFO_CTRL_ADDR, 1, false, "pop"));
  s->push_back(wr(HWPROF_TOP_IRQ_PENDING_ADDR, 2, false, "acknowledge below the watermark"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, 0, false, "the acknowledgement sticks"));
  s->push_back(rd(HWPROF_TRACE_CTRL_FIFO_START_ADDR, HWPROF_CFG_TFIFO >= 2 ? 0x9100 : 0, false, "next record"));
  s->push_back(wr(HWPROF_TRACE_CTRL_FIFO_CTRL_ADDR, 2, false, "clear"));
  s->push_back(rd(HWPROF_TRACE_CTRL_STAT_DROPPED_ADDR, HWPROF_CFG_TFIFO >= 2 ? 0 : 1, false, "dropped so far"));
  for (uint32_t i = 0; i < HWPROF_CFG_TFIFO + 2; i++)
    s->push_back(go(cf(IJ, 0xa000 + 0x10 * i, 0xa010 + 0x10 * i, true), "fill the FIFO"));
  s->push_back(rd(HWPROF_TRACE_CTRL_STATUS_ADDR, HWPROF_CFG_TFIFO, false, "FIFO full"));
  s->push_back(rd(HWPROF_TRACE_CTRL_STAT_DROPPED_ADDR, HWPROF_CFG_TFIFO >= 2 ? 2 : 3, false, "two more dropped"));
  s->push_back(rd(HWPROF_TRACE_CTRL_FIFO_START_ADDR, 0x9200, false, "the oldest kept record"));
  s->push_back(wr(HWPROF_TRACE_CTRL_FIFO_CTRL_ADDR, 2, false, "clear"));
  s->push_back(rd(HWPROF_TRACE_CTRL_FIFO_START_ADDR, 0, false, "empty FIFO reads 0"));
  s->push_back(wr(HWPROF_TRACE_CTRL_FIFO_START_ADDR, 0, true, "FIFO_START is read-only"));
  s->push_back(wr(HWPROF_TRACE_CTRL_CTRL_ADDR, 0, false, "disable"));
  s->push_back(go(cf(IJ, 0xb000, 0xc000, true), "ignored while disabled"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_START_ADDR, 0xa010 + 0x10 * (HWPROF_CFG_TFIFO + 1), false, "unchanged"));
  s->push_back(wr(HWPROF_TOP_IRQ_PENDING_ADDR, 0xf, false, "acknowledge all"));
}

std::vector<Step> directed_steps() {
  std::vector<Step> s;
  pir_steps(&s);
  if (HWPROF_CFG_CNTW == 32 && HWPROF_CFG_OABDEPTH == 8) edge_steps(&s);
  trace_steps(&s);
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
    cfg_.pir.cnt_w = HWPROF_CFG_CNTW;
    cfg_.edge_prof = edge_prof_cfg_t{HWPROF_CFG_CNTW, HWPROF_CFG_UPDDEPTH, HWPROF_CFG_SETS,
                                     HWPROF_CFG_WAYS, HWPROF_CFG_LINEWORDS, HWPROF_CFG_OABDEPTH};
    cfg_.trace_ctrl = trace_ctrl_cfg_t{HWPROF_CFG_HISTW, HWPROF_CFG_TFIFO};
    if (top_cfg_check(&cfg_) != HWPROF_OK) {
      std::fprintf(stderr, "tb_top: error: the bench was built with a configuration the C model rejects\n");
      std::exit(2);
    }
    top_reset(&model_);
    mem_model_cfg_t mc{kMemBase, kMemSize, HWPROF_CFG_CNTW, HWPROF_CFG_LINEWORDS,
                       o.mem_lat_min, o.mem_lat_max, o.mem_grant, o.seed};
    if (mem_model_init(&mem_rtl_, &mc) != HWPROF_OK || mem_model_init(&mem_model_, &mc) != HWPROF_OK) {
      std::fprintf(stderr, "tb_top: error: bad memory model configuration\n");
      std::exit(2);
    }
    if (o.test == "program") {
      prog_.reset(new progen_program_t);
      progen_generate(prog_.get(), o.seed);
      progen_start(&run_, o.seed);
    }
    if (o.test == "directed") {
      steps_ = directed_steps();
    } else {
      preload_random();
      setup_steps();
    }
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
    mem_model_free(&mem_rtl_);
    mem_model_free(&mem_model_);
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
    bool more = drive();
    if (more && t + 1 == o_.cycles + extra_cycles() && step_ < steps_.size())
      chk.expect("scripted steps finished in time (steps completed)", steps_.size(), step_);
    const bool run_rtl = o_.engine != "model";
    const bool run_model = o_.engine != "rtl";
    mem_rsp_t mr_rtl, mr_model;
    mem_model_comb(&mem_rtl_, &mr_rtl);
    mem_model_comb(&mem_model_, &mr_model);
    top_out_t m{};
    if (run_rtl) {
      apply_rtl(mr_rtl);
      rtl_->eval();
    }
    if (run_model) {
      in_.mem_req_ready = mr_model.ready;
      in_.mem_rsp_valid = mr_model.rsp_valid;
      in_.mem_rsp_rdata = mr_model.rdata;
      // outputs and clock edge in one evaluation; nothing below reads or changes the model's
      // state or inputs before the edge, so stepping it here is equivalent
      top_cycle(&model_, &cfg_, &in_, &m);
    }
    top_out_t r = run_rtl ? rtl_outputs() : m;
    if (run_rtl && run_model) compare(m, r, chk);
    if (!run_model) m = r;
    check_step(r, chk);
    observe(m, log);
    // rising edge
    if (fst_) fst_->dump(2 * t);
    if (run_rtl) {
      rtl_->clk_i = 1;
      rtl_->eval();
      mem_req_t q{r.mem_req_valid, r.mem_req_write, r.mem_req_addr, r.mem_req_wdata};
      mem_model_step(&mem_rtl_, &q);
    }
    if (run_model) {
      mem_req_t q{m.mem_req_valid, m.mem_req_write, m.mem_req_addr, m.mem_req_wdata};
      mem_model_step(&mem_model_, &q);
    }
    if (fst_) fst_->dump(2 * t + 1);
    rtl_->clk_i = 0;
    accepted_ = in_.ev.valid && m.ev_ready;
    apb_done_ = in_.apb.psel && in_.apb.penable;
    last_out_ = m;
    if (mem_rtl_.errors || mem_model_.errors)
      chk.expect(mem_rtl_.errors ? mem_rtl_.error : mem_model_.error, 0, 1);
    if (!more && o_.test == "counts") check_counts(chk);
    return more;
  }

  // the counts test drains and flushes after its --cycles of stimulus
  uint64_t extra_cycles() const override { return o_.test == "counts" ? 2000000 : 0; }

  void summary(FILE* to) const override {
    std::fprintf(to, "  cycles %" PRIu64 ", retire events accepted %" PRIu64 ", stall cycles %" PRIu64 "\n",
                 now_ + 1, events_, stalls_);
    std::fprintf(to, "  update operations %" PRIu64 " (inc %" PRIu64 ", dec %" PRIu64 "):", updates_,
                 updates_ - decs_, decs_);
    static const char* cls[] = {"tk", "nt", "either-taken", "either-not-taken", "all", "prof.id"};
    for (int i = 0; i < 6; i++) std::fprintf(to, " %s %" PRIu64, cls[i], by_class_[i]);
    const edge_prof_state_t& ep = model_.edge_prof;
    std::fprintf(to, "\n  cache: performed %u, hits %u, misses %u, write-backs %u, dropped %u, "
                     "overflows %u, underflows %u\n",
                 ep.st_updates, ep.st_hits, ep.st_misses, ep.st_wbs, ep.st_dropped, ep.st_ovf, ep.st_unf);
    const trace_ctrl_state_t& tc = model_.trace_ctrl;
    std::fprintf(to, "  traces: ended backward %u, indirect %u, full %u; filtered %u, sampled %u, dropped %u\n",
                 tc.st_back, tc.st_ind, tc.st_full, tc.st_filt, tc.st_samp, tc.st_drop);
    std::fprintf(to, "  memory: line reads %" PRIu64 ", line writes %" PRIu64 "; interrupts raised: phase %" PRIu64
                     ", error %" PRIu64 "\n",
                 mem_model_.reads, mem_model_.writes, irq_rises_[0], irq_rises_[1]);
    std::fprintf(to, "  trace interrupts raised: %" PRIu64 "\n", irq_rises_[2]);
    std::fprintf(to, "  APB reads %" PRIu64 ", writes %" PRIu64 ", pslverr %" PRIu64 "\n", apb_reads_,
                 apb_writes_, apb_errors_);
    if (!steps_.empty()) std::fprintf(to, "  scripted steps completed %zu of %zu\n", step_, steps_.size());
    if (o_.test == "counts")
      std::fprintf(to, "  counters checked against the independent count: %" PRIu64 " (%" PRIu64 " nonzero updates)\n",
                   counters_checked_, expected_updates_);
  }

 private:
  // ---------------- stimulus
  bool drive() {
    apb_req_t& a = in_.apb;
    if (apb_done_) a = apb_req_t{};
    if (accepted_) in_.ev.valid = false;
    if (step_ < steps_.size() || phase_ != IDLE) return drive_steps();
    if (o_.test == "directed") return wait_++ < 3;
    if (o_.test == "counts" && now_ + 1 >= o_.cycles) return finish_counts();
    if (now_ + 1 >= o_.cycles) return false;
    drive_random();
    return true;
  }

  void drive_random() {
    if (!in_.ev.valid) new_event();
    apb_req_t& a = in_.apb;
    if (a.psel && !a.penable) {
      a.penable = true;  // setup -> access
    } else if (!a.psel && o_.test != "counts" && rng_.chance(10)) {
      random_apb();
    }
  }

  uint64_t operand() {
    switch (rng_.pick({70, 10, 8, 6, 6})) {
      case 0: return kMemBase + rng_.below(kMemSize / 2 / kCntBytes) * kCntBytes;      // counter area
      case 1: return kMemBase + kMemSize - rng_.below(64) * 4;                          // near the top
      case 2: return rng_.next() & HWPROF_MASK(HWPROF_EV_OPERAND_W);                    // anywhere
      case 3: return kMemBase + rng_.below(kMemSize / 2) * 2;                           // maybe misaligned
      default: return rng_.below(64);
    }
  }
  void new_event() {
    retire_ev_t& e = in_.ev;
    e = retire_ev_t{};
    if (prog_) {  // the program's next instruction, or an idle cycle
      if (rng_.chance(85)) e = progen_step(prog_.get(), &run_);
      return;
    }
    e.valid = rng_.chance(85);
    const bool counts = o_.test == "counts";
    static const std::vector<unsigned> kw = {25, 25, 5, 5, 10, 5, 24, 1};
    static const std::vector<unsigned> kw_counts = {5, 50, 5, 10, 2, 2, 26, 0};
    e.kind = static_cast<uint8_t>(rng_.pick(counts ? kw_counts : kw));
    e.pc = static_cast<uint32_t>(rng_.next()) & ~3u;
    e.next_pc = static_cast<uint32_t>(rng_.next()) & ~3u;
    e.insn = static_cast<uint32_t>(rng_.next());
    e.is_call = rng_.chance(5);
    e.is_ret = rng_.chance(5);
    e.taken = (e.kind == HWPROF_KIND_JUMP || e.kind == HWPROF_KIND_IJUMP) ? rng_.chance(95) : rng_.chance(50);
    e.addr = static_cast<uint32_t>(rng_.next());
    e.value = static_cast<uint32_t>(rng_.next());
    switch (rng_.pick({counts ? 5u : 20u, 70, 8, 2})) {
      case 0: e.pid = 0; break;
      case 1: e.pid = static_cast<uint16_t>(1 + rng_.below(64)); break;
      case 2: e.pid = static_cast<uint16_t>(rng_.next()); break;
      default: e.pid = 0xffff; break;
    }
    e.bhint = static_cast<uint8_t>(rng_.below(4));
    e.ihint = rng_.chance(30);
    static const std::vector<unsigned> ow = {40, 6, 12, 14, 3, 12, 4, 3};
    static const std::vector<unsigned> ow_counts = {70, 8, 8, 10, 1, 3, 0, 0};
    e.op = static_cast<uint8_t>(rng_.pick(counts ? ow_counts : ow));
    e.operand = operand();
    if (e.op == HWPROF_PROF_OP_SETOFF) e.operand = rng_.below(256);
    if (e.op == HWPROF_PROF_OP_TRIGGER) e.operand = rng_.below(8);
  }

  void random_apb() {
    static const uint16_t regs[] = {
        HWPROF_TOP_ID_ADDR, HWPROF_TOP_VERSION_ADDR, HWPROF_TOP_IRQ_PENDING_ADDR, HWPROF_TOP_IRQ_ENABLE_ADDR,
        HWPROF_PIR_BASE_LO_ADDR, HWPROF_PIR_BASE_HI_ADDR, HWPROF_PIR_OFFSET_ADDR, HWPROF_PIR_TRIGGER_ADDR,
        HWPROF_PIR_CTRL_ADDR, HWPROF_PIR_STAT_EVENTS_ADDR, HWPROF_PIR_STAT_UPDATES_ADDR,
        HWPROF_EDGE_PROF_CMD_ADDR, HWPROF_EDGE_PROF_STATUS_ADDR, HWPROF_EDGE_PROF_BOUND_LO_LO_ADDR,
        HWPROF_EDGE_PROF_BOUND_LO_HI_ADDR, HWPROF_EDGE_PROF_BOUND_HI_LO_ADDR, HWPROF_EDGE_PROF_BOUND_HI_HI_ADDR,
        HWPROF_EDGE_PROF_OAB_STATUS_ADDR, HWPROF_EDGE_PROF_OAB_CTRL_ADDR, HWPROF_EDGE_PROF_OAB_INDEX_ADDR,
        HWPROF_EDGE_PROF_OAB_ENTRY_LO_ADDR, HWPROF_EDGE_PROF_OAB_ENTRY_HI_ADDR,
        HWPROF_EDGE_PROF_STAT_UPDATES_ADDR, HWPROF_EDGE_PROF_STAT_MISSES_ADDR,
        HWPROF_EDGE_PROF_STAT_STALLS_ADDR, HWPROF_EDGE_PROF_STAT_OVERFLOWS_ADDR,
        HWPROF_TRACE_CTRL_CTRL_ADDR, HWPROF_TRACE_CTRL_STATUS_ADDR, HWPROF_TRACE_CTRL_CUR_START_ADDR,
        HWPROF_TRACE_CTRL_CUR_HIST_ADDR, HWPROF_TRACE_CTRL_LAST_START_ADDR, HWPROF_TRACE_CTRL_LAST_HIST_ADDR,
        HWPROF_TRACE_CTRL_RANGE_LO_ADDR, HWPROF_TRACE_CTRL_RANGE_HI_ADDR, HWPROF_TRACE_CTRL_SAMPLE_RELOAD_ADDR,
        HWPROF_TRACE_CTRL_SAMPLE_COUNT_ADDR, HWPROF_TRACE_CTRL_FIFO_START_ADDR, HWPROF_TRACE_CTRL_FIFO_HIST_ADDR,
        HWPROF_TRACE_CTRL_FIFO_CTRL_ADDR, HWPROF_TRACE_CTRL_STAT_END_FULL_ADDR, HWPROF_TRACE_CTRL_STAT_DROPPED_ADDR};
    apb_req_t& a = in_.apb;
    a.psel = true;
    a.penable = false;
    switch (rng_.pick({75, 12, 13})) {
      case 0: a.paddr = regs[rng_.below(sizeof regs / sizeof regs[0])]; break;
      case 1: a.paddr = static_cast<uint16_t>((rng_.below(4) << 8) | (rng_.below(32) * 4)); break;
      default: a.paddr = static_cast<uint16_t>(rng_.next()); break;
    }
    a.pwrite = rng_.chance(40);
    uint32_t v = rng_.chance(20) ? 0xffffffffu : static_cast<uint32_t>(rng_.next());
    switch (a.paddr) {
      case HWPROF_PIR_CTRL_ADDR: v = rng_.chance(85) ? 1u : 0u; break;  // keep profiling mostly on
      case HWPROF_EDGE_PROF_CMD_ADDR: v = static_cast<uint32_t>(rng_.pick({1, 60, 10, 10})); break;
      case HWPROF_EDGE_PROF_OAB_INDEX_ADDR: v = static_cast<uint32_t>(rng_.below(12)); break;
      case HWPROF_TRACE_CTRL_CTRL_ADDR:  // mostly enabled; watermark small
        v = (rng_.chance(85) ? 1u : 0u) | (static_cast<uint32_t>(rng_.below(8)) << 1) |
            (static_cast<uint32_t>(rng_.below(6)) << HWPROF_TRACE_CTRL_CTRL_WATERMARK_LSB);
        break;
      case HWPROF_TRACE_CTRL_SAMPLE_RELOAD_ADDR:
      case HWPROF_TRACE_CTRL_SAMPLE_COUNT_ADDR: v = static_cast<uint32_t>(rng_.below(6)); break;
      case HWPROF_TRACE_CTRL_CUR_HIST_ADDR: v = rng_.chance(50) ? 1u : v; break;
      case HWPROF_EDGE_PROF_BOUND_LO_LO_ADDR:  // rarely move the window, mostly keep it sane
        v = rng_.chance(70) ? static_cast<uint32_t>(kMemBase) : static_cast<uint32_t>(kMemBase + rng_.below(kMemSize));
        break;
      case HWPROF_EDGE_PROF_BOUND_HI_LO_ADDR:
        v = rng_.chance(70) ? static_cast<uint32_t>(kMemBase + kMemSize)
                            : static_cast<uint32_t>(kMemBase + rng_.below(kMemSize));
        break;
      case HWPROF_EDGE_PROF_BOUND_LO_HI_ADDR:  // the window stays inside the memory model
      case HWPROF_EDGE_PROF_BOUND_HI_HI_ADDR: v = static_cast<uint32_t>(kMemBase >> 32); break;
      default: break;
    }
    a.pwdata = v;
  }

  // counters start at 0, small values, or just below the maximum (overflows, underflows)
  void preload_random() {
    for (uint64_t off = 0; off < kMemSize; off += kCntBytes) {
      uint64_t v = 0;
      switch (rng_.pick({60, 25, 15})) {
        case 0: v = 0; break;
        case 1: v = rng_.below(4); break;
        default: v = kCntMax - rng_.below(4); break;
      }
      mem_model_poke(&mem_rtl_, kMemBase + off, v);
      mem_model_poke(&mem_model_, kMemBase + off, v);
      if (o_.test == "counts") expected_[kMemBase + off] = v;
    }
  }

  void setup_steps() {
    steps_.push_back(wr(HWPROF_EDGE_PROF_BOUND_LO_LO_ADDR, kMemBase & 0xffffffff, false, "bounds: low"));
    steps_.push_back(wr(HWPROF_EDGE_PROF_BOUND_LO_HI_ADDR, kMemBase >> 32, false, "bounds: low, high bits"));
    steps_.push_back(wr(HWPROF_EDGE_PROF_BOUND_HI_LO_ADDR, (kMemBase + kMemSize) & 0xffffffff, false, "bounds: high"));
    steps_.push_back(wr(HWPROF_EDGE_PROF_BOUND_HI_HI_ADDR, (kMemBase + kMemSize) >> 32, false, "bounds: high bits"));
    steps_.push_back(wr(HWPROF_TOP_IRQ_ENABLE_ADDR, 0xf, false, "enable every interrupt"));
    steps_.push_back(wr(HWPROF_TRACE_CTRL_CTRL_ADDR, 0x0403, false, "traces into the FIFO, watermark 4"));
    // (the counts test leaves the flag to prof.start, which its independent shadow of the pir sees)
    if (o_.test != "counts") steps_.push_back(wr(HWPROF_PIR_CTRL_ADDR, 1, false, "profiling on"));
  }

  // counts test: stop the stream, flush, then compare memory with the independent count
  bool finish_counts() {
    if (!flush_queued_) {
      flush_queued_ = true;
      in_.ev.valid = false;
      steps_.push_back(wr(HWPROF_EDGE_PROF_CMD_ADDR, 1, false, "final flush"));
      steps_.push_back(sync("wait for the final flush"));
      return drive_steps();
    }
    return false;
  }

  void check_counts(Checker& chk) {
    for (const auto& kv : expected_) {
      uint64_t a = 0, b = 0;
      mem_model_peek(&mem_rtl_, kv.first, &a);
      mem_model_peek(&mem_model_, kv.first, &b);
      char what[96];
      std::snprintf(what, sizeof what, "counter 0x%010" PRIx64 " in the RTL's memory", kv.first);
      chk.expect(what, kv.second, a);
      std::snprintf(what, sizeof what, "counter 0x%010" PRIx64 " in the C model's memory", kv.first);
      chk.expect(what, kv.second, b);
      counters_checked_++;
    }
  }

  // ---------------- scripted steps (directed tests and setup)
  // what the APB (or the event port) is doing this cycle; X_SETUP: this cycle is X's setup phase
  enum Phase { IDLE, EV_WAIT, EV_CHECK, APB_SETUP, APB_ACCESS, SYNC_FLUSH_SETUP, SYNC_FLUSH, SYNC_POLL_START,
               SYNC_POLL_SETUP, SYNC_POLL };

  bool drive_steps() {
    apb_req_t& a = in_.apb;
    switch (phase_) {
      case IDLE: {
        if (step_ >= steps_.size()) return true;
        const Step& s = steps_[step_];
        switch (s.type) {
          case Step::EVENT:
            in_.ev = s.ev;
            phase_ = EV_WAIT;
            break;
          case Step::READ:
          case Step::WRITE:
            a = apb_req_t{true, false, s.type == Step::WRITE, s.addr,
                          s.type == Step::WRITE ? static_cast<uint32_t>(s.data) : 0u};
            phase_ = APB_SETUP;
            break;
          case Step::SYNC:
            // flush (which first drains the update buffer), then poll STATUS until not busy
            a = apb_req_t{true, false, true, HWPROF_EDGE_PROF_CMD_ADDR, 1u};
            polls_ = 0;
            phase_ = SYNC_FLUSH_SETUP;
            break;
          default:
            break;  // PRELOAD, CHECK_MEM and CHECK_IRQ act in check_step()
        }
        break;
      }
      case APB_SETUP:
      case SYNC_FLUSH_SETUP:
      case SYNC_POLL_SETUP:
        a.penable = true;
        phase_ = phase_ == APB_SETUP ? APB_ACCESS : phase_ == SYNC_FLUSH_SETUP ? SYNC_FLUSH : SYNC_POLL;
        break;
      case SYNC_POLL_START:
        a = apb_req_t{true, false, false, HWPROF_EDGE_PROF_STATUS_ADDR, 0};
        phase_ = SYNC_POLL_SETUP;
        break;
      default:
        break;
    }
    return true;
  }

  void check_step(const top_out_t& r, Checker& chk) {
    if (step_ >= steps_.size()) return;
    const Step& s = steps_[step_];
    std::string what = std::string("step ") + std::to_string(step_) + " (" + s.what + ")";
    switch (phase_) {
      case IDLE:
        if (s.type == Step::PRELOAD) {
          mem_model_poke(&mem_rtl_, kMemBase + s.addr, s.data);
          mem_model_poke(&mem_model_, kMemBase + s.addr, s.data);
          step_++;
        } else if (s.type == Step::CHECK_MEM) {
          uint64_t a = 0, b = 0;
          mem_model_peek(&mem_rtl_, kMemBase + s.addr, &a);
          mem_model_peek(&mem_model_, kMemBase + s.addr, &b);
          chk.expect((what + " RTL memory").c_str(), s.data, a);
          chk.expect((what + " C model memory").c_str(), s.data, b);
          step_++;
        } else if (s.type == Step::CHECK_IRQ) {
          unsigned lv = r.irq_phase | r.irq_trace << 1 | r.irq_coproc << 2 | r.irq_error << 3;
          chk.expect((what + " irq levels {error,coproc,trace,phase}").c_str(), s.data, lv);
          step_++;
        }
        break;
      case EV_WAIT:
        if (in_.ev.valid && r.ev_ready) phase_ = s.expect_upd || (o_.test == "directed" && !s.ignore_upd) ? EV_CHECK : IDLE;
        if (phase_ == IDLE) step_++;
        break;
      case EV_CHECK:
        chk.expect((what + " upd_valid").c_str(), s.expect_upd, r.upd.valid);
        if (s.expect_upd) {
          chk.expect((what + " upd_addr").c_str(), s.upd_addr, r.upd.addr);
          chk.expect((what + " upd_dec").c_str(), s.upd_dec, r.upd.dec);
        }
        finish_step();
        break;
      case APB_ACCESS:
        chk.expect((what + " pslverr").c_str(), s.expect_err, r.apb.pslverr);
        if (s.type == Step::READ) chk.expect((what + " prdata").c_str(), s.data, r.apb.prdata);
        finish_step();
        break;
      case SYNC_FLUSH:
        // a flush refused because one is already running is fine: the poll waits for it
        phase_ = SYNC_POLL_START;
        break;
      case SYNC_POLL:
        if (!(r.apb.prdata & (1u << HWPROF_EDGE_PROF_STATUS_BUSY_LSB))) {
          finish_step();
        } else if (++polls_ > 100000) {
          chk.expect((what + " STATUS.BUSY cleared within 100000 polls").c_str(), 0, 1);
          finish_step();
        } else {
          phase_ = SYNC_POLL_START;
        }
        break;
      default:
        break;
    }
  }
  void finish_step() {
    phase_ = IDLE;
    step_++;
  }

  // ---------------- RTL signals
  void apply_rtl(const mem_rsp_t& mr) {
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
    rtl_->mem_req_ready_i = mr.ready;
    rtl_->mem_rsp_valid_i = mr.rsp_valid;
    line_to(mr.rdata, &rtl_->mem_rsp_rdata_i);
  }

  top_out_t rtl_outputs() const {
    top_out_t r{};
    r.ev_ready = rtl_->ev_ready_o;
    r.apb.pready = rtl_->pready_o;
    r.apb.prdata = rtl_->prdata_o;
    r.apb.pslverr = rtl_->pslverr_o;
    r.mem_req_valid = rtl_->mem_req_valid_o;
    r.mem_req_write = rtl_->mem_req_write_o;
    r.mem_req_addr = rtl_->mem_req_addr_o;
    line_from(rtl_->mem_req_wdata_o, &r.mem_req_wdata);
    r.irq_phase = rtl_->irq_phase_o;
    r.irq_trace = rtl_->irq_trace_o;
    r.irq_coproc = rtl_->irq_coproc_o;
    r.irq_error = rtl_->irq_error_o;
    r.upd.valid = rtl_->upd_valid_o;
    r.upd.addr = rtl_->upd_addr_o;
    r.upd.dec = rtl_->upd_dec_o;
    return r;
  }

  void compare(const top_out_t& m, const top_out_t& r, Checker& chk) {
    lockstep::compare_top_outputs(m, r, HWPROF_CFG_LINEWORDS, chk);
  }

  void observe(const top_out_t& m, TxLog& log) {
    // a single engine cannot mismatch: skip formatting unless a full log was asked for
    const bool text = o_.engine == "lockstep" || !o_.log_path.empty();
    char buf[200];
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
      if (o_.test == "counts") {
        uint64_t addr;
        bool dec;
        if (shadow_.apply(e, &addr, &dec) && addr >= kMemBase && addr < kMemBase + kMemSize &&
            addr % kCntBytes == 0) {
          uint64_t& c = expected_[addr];
          c = (dec ? c - 1 : c + 1) & kCntMax;
          expected_updates_++;
        }
      }
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
    if (m.mem_req_valid && text) {
      std::snprintf(buf, sizeof buf, "MEM  %s line 0x%010" PRIx64 "%s", m.mem_req_write ? "write" : "read ",
                    m.mem_req_addr, m.mem_req_write ? "" : " (request)");
      log.add(now_, buf);
    }
    if (m.irq_phase && !last_out_.irq_phase) irq_rises_[0]++;
    if (m.irq_error && !last_out_.irq_error) irq_rises_[1]++;
    if (m.irq_trace && !last_out_.irq_trace) irq_rises_[2]++;
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
  mem_model_t mem_rtl_{};
  mem_model_t mem_model_{};
  top_out_t last_out_{};
  bool accepted_ = false;
  bool apb_done_ = false;
  uint64_t now_ = 0;
  // scripted steps
  std::vector<Step> steps_;
  size_t step_ = 0;
  Phase phase_ = IDLE;
  int wait_ = 0;
  unsigned polls_ = 0;
  bool flush_queued_ = false;
  // program test: the generated program and its run
  std::unique_ptr<progen_program_t> prog_;
  progen_run_t run_{};
  // counts test: the independent count of every counter
  PirShadow shadow_;
  std::unordered_map<uint64_t, uint64_t> expected_;
  uint64_t counters_checked_ = 0;
  uint64_t expected_updates_ = 0;
  // statistics
  uint64_t events_ = 0, stalls_ = 0, updates_ = 0, decs_ = 0;
  uint64_t by_class_[6] = {0, 0, 0, 0, 0, 0};
  int pending_class_ = 0;
  uint64_t apb_reads_ = 0, apb_writes_ = 0, apb_errors_ = 0;
  uint64_t irq_rises_[3] = {0, 0, 0};
};

}  // namespace

int main(int argc, char** argv) {
  return lockstep::main(argc, argv, "tb_top", "random|directed|counts|program", [](const Options& o) {
    return std::unique_ptr<lockstep::Bench>(new TopBench(o));
  });
}
