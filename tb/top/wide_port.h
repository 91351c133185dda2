// Conversion between a Verilated wide port (word i of a line at bits [i*CntW +: CntW]) and the C
// model's hwprof_line_t, for the profile cache's memory port.
#ifndef HWPROF_TB_WIDE_PORT_H
#define HWPROF_TB_WIDE_PORT_H

#include <algorithm>
#include <cstddef>

#include "lib/bench_params.h"
#include "verilated.h"

extern "C" {
#include "edge_prof/edge_prof.h"
}

namespace hwprof_tb {

template <typename T>
void line_from(const T& v, hwprof_line_t* l) {
  uint64_t x = static_cast<uint64_t>(v);
  for (unsigned w = 0; w < HWPROF_PARAM_LINEWORDS; w++)
    l->w[w] = HWPROF_PARAM_CNTW >= 64 ? x : (x >> (w * HWPROF_PARAM_CNTW)) & kCntMax;
}
// A counter of a wide line may start inside a 32-bit word (CntW 8 or 16) or span two (CntW 64):
// each piece is the bits of one word, shifted to its place in the counter.
template <std::size_t N>
void line_from(const VlWide<N>& v, hwprof_line_t* l) {
  for (unsigned w = 0; w < HWPROF_PARAM_LINEWORDS; w++) {
    uint64_t x = 0;
    for (unsigned b = 0; b < HWPROF_PARAM_CNTW;) {
      const unsigned bit = w * HWPROF_PARAM_CNTW + b, sh = bit % 32, take = std::min(32u - sh, HWPROF_PARAM_CNTW - b);
      x |= ((static_cast<uint64_t>(v[bit / 32]) >> sh) & ((1ull << take) - 1)) << b;
      b += take;
    }
    l->w[w] = x & kCntMax;
  }
}
template <typename T>
void line_to(const hwprof_line_t& l, T* v) {
  uint64_t x = 0;
  for (unsigned w = 0; w < HWPROF_PARAM_LINEWORDS; w++)
    x |= HWPROF_PARAM_CNTW >= 64 ? l.w[w] : (l.w[w] & kCntMax) << (w * HWPROF_PARAM_CNTW);
  *v = static_cast<T>(x);
}
template <std::size_t N>
void line_to(const hwprof_line_t& l, VlWide<N>* v) {
  for (std::size_t i = 0; i < N; i++) (*v)[i] = 0;
  for (unsigned w = 0; w < HWPROF_PARAM_LINEWORDS; w++)
    for (unsigned b = 0; b < HWPROF_PARAM_CNTW;) {
      const unsigned bit = w * HWPROF_PARAM_CNTW + b, sh = bit % 32, take = std::min(32u - sh, HWPROF_PARAM_CNTW - b);
      (*v)[bit / 32] |= static_cast<uint32_t>((((l.w[w] & kCntMax) >> b) & ((1ull << take) - 1)) << sh);
      b += take;
    }
}

}  // namespace hwprof_tb

#endif  // HWPROF_TB_WIDE_PORT_H
