// The directed scenarios of the hwprof_top lockstep bench: a step is a retire event, a register
// access, a memory preload or check, or an interrupt check, each with the outcome worked out by hand
// (or by an independent computation in the scenario). One file of scenarios per block:
// tb/pir/steps_pir.cpp, tb/edge_prof/steps_edge_prof.cpp, tb/trace_ctrl/steps_trace_ctrl.cpp, tb/cop/steps_cop.cpp (the value
// profiler's path through the top: front end, engine, interrupt).
#ifndef HWPROF_TB_TOP_STEPS_H
#define HWPROF_TB_TOP_STEPS_H

#include <vector>

#include "lib/bench_params.h"

extern "C" {
#include "ports.h"
}

namespace hwprof_tb {

struct Step {
  enum Type { EVENT, READ, WRITE, SYNC, PRELOAD, CHECK_MEM, CHECK_IRQ } type;
  hwprof_retire_ev_t ev;
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

// The byte address of counter idx of the area at base (40-bit addresses wrap): counters are
// kCntBytes wide, so every expected address follows the configuration.
inline uint64_t cnt(uint64_t base, uint64_t idx) { return (base + idx * kCntBytes) & ((1ull << 40) - 1); }

inline hwprof_retire_ev_t ev_of(uint8_t kind) {
  hwprof_retire_ev_t e{};
  e.valid = true;
  e.kind = kind;
  e.pc = 0x80000000u;
  e.next_pc = 0x80000004u;
  return e;
}
inline hwprof_retire_ev_t prof(uint8_t op, uint64_t operand) {
  hwprof_retire_ev_t e = ev_of(HWPROF_KIND_PROF);
  e.op = op;
  e.operand = operand;
  return e;
}
inline hwprof_retire_ev_t br(uint8_t kind, uint16_t pid, uint8_t bhint, bool taken, bool dec = false) {
  hwprof_retire_ev_t e = ev_of(kind);
  e.pid = pid;
  e.bhint = bhint;
  e.taken = taken;
  e.ihint = dec;
  return e;
}
inline Step evs(hwprof_retire_ev_t e, const char* what) { return Step{Step::EVENT, e, 0, 0, false, 0, false, false, what}; }
inline Step go(hwprof_retire_ev_t e, const char* what) {
  return Step{Step::EVENT, e, 0, 0, false, 0, false, false, what, true};
}
inline Step upd(hwprof_retire_ev_t e, uint64_t addr, bool dec, const char* what) {
  return Step{Step::EVENT, e, 0, 0, true, addr, dec, false, what};
}
inline Step rd(uint16_t a, uint64_t v, bool err, const char* what) {
  return Step{Step::READ, hwprof_retire_ev_t{}, a, v, false, 0, false, err, what};
}
inline Step wr(uint16_t a, uint64_t v, bool err, const char* what) {
  return Step{Step::WRITE, hwprof_retire_ev_t{}, a, v, false, 0, false, err, what};
}
inline Step sync(const char* what) { return Step{Step::SYNC, hwprof_retire_ev_t{}, 0, 0, false, 0, false, false, what}; }
inline Step preload(uint16_t off, uint64_t v, const char* what) {
  return Step{Step::PRELOAD, hwprof_retire_ev_t{}, off, v, false, 0, false, false, what};
}
inline Step mem_is(uint16_t off, uint64_t v, const char* what) {
  return Step{Step::CHECK_MEM, hwprof_retire_ev_t{}, off, v, false, 0, false, false, what};
}
inline Step irq_is(unsigned levels, const char* what) {
  return Step{Step::CHECK_IRQ, hwprof_retire_ev_t{}, 0, levels, false, 0, false, false, what};
}
inline void repeat(std::vector<Step>* s, int n, const Step& st) {
  for (int i = 0; i < n; i++) s->push_back(st);
}

// the scenarios, by block
void pir_steps(std::vector<Step>* s);
void edge_steps(std::vector<Step>* s);
void trace_steps(std::vector<Step>* s);
void link_steps(std::vector<Step>* s);
void path_steps(std::vector<Step>* s);
void stack_march_steps(std::vector<Step>* s);
void cop_steps(std::vector<Step>* s);
// every scenario that applies to this bench's configuration
std::vector<Step> directed_steps();

}  // namespace hwprof_tb

#endif  // HWPROF_TB_TOP_STEPS_H
