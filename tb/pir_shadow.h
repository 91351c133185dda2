// An independent second implementation of the pir's update rule, for the benches' own checks.
#ifndef HWPROF_TB_PIR_SHADOW_H
#define HWPROF_TB_PIR_SHADOW_H

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
  // returns true and the counter address if the accepted event updates a counter
  bool apply(const hwprof_retire_ev_t& e, uint64_t* addr, bool* dec) {
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

}  // namespace hwprof_tb

#endif  // HWPROF_TB_PIR_SHADOW_H
