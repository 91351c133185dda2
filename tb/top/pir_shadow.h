// An independent second implementation of the pir's update rule, for the benches' own checks.
#ifndef HWPROF_TB_PIR_SHADOW_H
#define HWPROF_TB_PIR_SHADOW_H

#include <utility>
#include <vector>

#include "lib/bench_params.h"

extern "C" {
#include "ports.h"
}

namespace hwprof_tb {

// ---- the update rule of docs/pir.md, written again here, independently of cmodel/pir/pir.c
struct PirShadow {
  uint64_t base = 0;
  uint32_t offset = 0;
  bool flag = false;
  // link stack: a vector that grows without bound, and a count of what the hardware can keep
  std::vector<std::pair<uint64_t, uint32_t>> link;
  std::vector<uint32_t> link_sum;  // the path sums saved beside them
  unsigned depth = 0;
  bool link_err = false;
  // the frames the hardware keeps: its entries, and the frames its spill area holds (LINK_SPILL)
  unsigned lcap = HWPROF_PIR_LINK_ENTRIES;
  // path profiling (docs/path.md): the sum, its stack and depth, the same way
  uint32_t sum = 0;
  std::vector<uint32_t> pstack;
  unsigned pdepth = 0;
  // the sums the hardware keeps: its entries, and the lines of its spill area (PATH_SPILL.LIMIT)
  unsigned pcap = HWPROF_PATH_STACK_ENTRIES;
  bool path_err = false;
  // the path word an event carries (0: none)
  static uint32_t path_word(const hwprof_retire_ev_t& e) {
    const bool xfer = e.kind == HWPROF_KIND_BRANCH || e.kind == HWPROF_KIND_JUMP || e.kind == HWPROF_KIND_IJUMP;
    const bool word = (e.kind == HWPROF_KIND_PROF && e.op == 6) || (xfer && !e.is_call && e.op == 6) ||
                      (xfer && e.kind != HWPROF_KIND_BRANCH && e.is_ret && e.op == HWPROF_PROF_OP_POP);
    return word ? static_cast<uint32_t>(e.operand) : 0u;
  }
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
    const uint32_t w = path_word(e), op = w & 7u, a = (w >> 3) & 0x1fffu, b = (w >> 16) & 0x1fffu;
    const bool counts = op == 3 || op == 5;  // COUNT, LEAVE
    if (flag && counts) {
      idx = offset + ((sum + a) & 0x1fffu);
      upd = true;
    } else if (flag && e.pid != 0) {
      idx = offset + e.pid - 1ull;
      const bool ordinary = e.kind == HWPROF_KIND_OTHER || e.kind == HWPROF_KIND_LOAD || e.kind == HWPROF_KIND_STORE;
      if (e.kind == HWPROF_KIND_PROF || ordinary) {  // prof.id, or a carrier word's
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
    // the path operation (sum modulo 2^13; a pop above what the stack keeps, or of nothing,
    // restores 0)
    auto pop = [&]() -> uint32_t {
      uint32_t top = 0;
      if (pdepth == 0) {
        path_err = true;
        return 0;
      }
      if (pdepth <= pcap) {
        top = pstack.back();
        pstack.pop_back();
      }
      --pdepth;
      return top;
    };
    switch (op) {
      case 1: sum = (sum + a) & 0x1fffu; break;
      case 2: sum = a; break;
      case 3: sum = b; break;
      case 4:
        if (pdepth < pcap) pstack.push_back((sum + a) & 0x1fffu);
        else path_err = true;
        // (the hardware's count of the sums it holds saturates at 255, on top of the area's)
        if (pdepth < pcap - HWPROF_PATH_STACK_ENTRIES + 255) ++pdepth;
        sum = b;
        break;
      case 5:
      case 6: sum = (pop() + b) & 0x1fffu; break;
      default: break;
    }
    if (e.kind == HWPROF_KIND_PROF) {
      if (e.op == HWPROF_PROF_OP_INIT) {
        base = e.operand & ((1ull << 40) - 1);
        offset = 0;
      }
      if (e.op == HWPROF_PROF_OP_SETOFF) offset = static_cast<uint32_t>(e.operand & 0xffffff);
      if (e.op == HWPROF_PROF_OP_START) flag = true;
      if (e.op == HWPROF_PROF_OP_STOP) flag = false;
    }
    // a carrier word's prof.init or prof.setoff, on any other instruction
    if (e.kind == HWPROF_KIND_OTHER || e.kind == HWPROF_KIND_LOAD || e.kind == HWPROF_KIND_STORE) {
      if (e.op == HWPROF_PROF_OP_INIT) {
        base = e.operand & ((1ull << 40) - 1);
        offset = 0;
      }
      if (e.op == HWPROF_PROF_OP_SETOFF) offset = static_cast<uint32_t>(e.operand & 0xffffff);
    }
    const bool jump = e.kind == HWPROF_KIND_JUMP || e.kind == HWPROF_KIND_IJUMP;
    if (jump && e.is_call && e.op == HWPROF_PROF_OP_INIT) {
      base = e.operand & ((1ull << 40) - 1);
      offset = 0;
      sum = 0;
    }
    if ((jump || e.kind == HWPROF_KIND_BRANCH) && e.op == HWPROF_PROF_OP_SETOFF)
      offset = static_cast<uint32_t>(e.operand & 0xffffff);
    if (jump && e.is_call && e.op == HWPROF_PROF_OP_PUSH) {
      if (depth < lcap) {
        link.emplace_back(base, offset);
        link_sum.push_back(sum);
      } else {
        link_err = true;
      }
      if (depth < lcap - HWPROF_PIR_LINK_ENTRIES + 255) ++depth;  // (the hardware's count saturates at 255)
      base = e.operand & ((1ull << 40) - 1);
      offset = 0;
      sum = 0;
    }
    if (jump && e.is_ret && e.op == HWPROF_PROF_OP_POP) {
      if (depth == 0) {
        link_err = true;
      } else {
        if (depth <= lcap) {
          base = link.back().first;
          offset = link.back().second;
          sum = link_sum.back();
          link.pop_back();
          link_sum.pop_back();
        }
        --depth;
      }
    }
    return upd;
  }
};

}  // namespace hwprof_tb

#endif  // HWPROF_TB_PIR_SHADOW_H
