// An independent second implementation of the pir's update rule, for the benches' own checks.
#ifndef HWPROF_TB_PIR_SHADOW_H
#define HWPROF_TB_PIR_SHADOW_H

#include <utility>
#include <vector>

#include "bench_cfg.h"

extern "C" {
#include "ports.h"
}

namespace hwprof_tb {

// ---- the update rule of docs/pir.md, written again here, independently of cmodel/pir.c
struct PirShadow {
  uint64_t base = 0;
  uint32_t offset = 0;
  bool flag = false;
  // link stack: a vector that grows without bound, and a count of what the hardware can keep
  std::vector<std::pair<uint64_t, uint32_t>> link;
  unsigned depth = 0;
  bool link_err = false;
  // returns true and the counter address if the accepted event updates a counter
  bool apply(const hwprof_retire_ev_t& e, uint64_t* addr, bool* dec) {
    bool upd = false;
    uint64_t idx = 0;
    // a trap handler's events (trap 1, and the reserved 3) are not the program's: nothing at all
    if (e.trap == HWPROF_TRAP_HANDLER || e.trap == 3) {
      *addr = 0;
      *dec = false;
      return false;
    }
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
    const bool jump = e.kind == HWPROF_KIND_JUMP || e.kind == HWPROF_KIND_IJUMP;
    if (jump && e.is_call && e.op == HWPROF_PROF_OP_INIT) {
      base = e.operand & ((1ull << 40) - 1);
      offset = 0;
    }
    if ((jump || e.kind == HWPROF_KIND_BRANCH) && e.op == HWPROF_PROF_OP_SETOFF)
      offset = static_cast<uint32_t>(e.operand & 0xffffff);
    if (jump && e.is_call && e.op == HWPROF_PROF_OP_PUSH) {
      if (depth < HWPROF_PIR_LINK_ENTRIES) link.emplace_back(base, offset);
      else link_err = true;
      if (depth < 255) ++depth;
      base = e.operand & ((1ull << 40) - 1);
      offset = 0;
    }
    if (jump && e.is_ret && e.op == HWPROF_PROF_OP_POP) {
      if (depth == 0) {
        link_err = true;
      } else {
        if (depth <= HWPROF_PIR_LINK_ENTRIES) {
          base = link.back().first;
          offset = link.back().second;
          link.pop_back();
        }
        --depth;
      }
    }
    return upd;
  }
};

}  // namespace hwprof_tb

#endif  // HWPROF_TB_PIR_SHADOW_H
