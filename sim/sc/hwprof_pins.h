// The pins of hwprof_top in the SystemC platform: the signals that connect it to the CPU, the APB
// bus, the profile memory and the interrupt lines, one binding used by every engine (the Verilated
// RTL, the C model and the two in lockstep all have exactly Verilator's port names and types), and
// conversions between those pins and the C model's port structs (cmodel/ports.h, cmodel/top/top.h).
//
// Verilator --sc maps a 1-bit port to bool, 2..32 bits to uint32_t, 33..64 bits to uint64_t and
// wider ports to sc_bv<N>. The platform is built for one configuration of hwprof_top, fixed by the
// HWPROF_PARAM_* macros the Makefile passes together with the RTL parameters.
#ifndef HWPROF_SC_PINS_H
#define HWPROF_SC_PINS_H

#include <systemc.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

extern "C" {
#include "top/top.h"
}

#include "top/top_ports.h"

#if !defined(HWPROF_PARAM_CNTW) || !defined(HWPROF_PARAM_UPDDEPTH) || !defined(HWPROF_PARAM_SETS) || \
    !defined(HWPROF_PARAM_WAYS) || !defined(HWPROF_PARAM_LINEWORDS) || !defined(HWPROF_PARAM_OABDEPTH) || \
    !defined(HWPROF_PARAM_HISTW) || !defined(HWPROF_PARAM_TFIFO)
#error "the SystemC platform needs the HWPROF_PARAM_* parameters of the RTL it is built with (see the Makefile)"
#endif

namespace hwprof_sc {

constexpr unsigned kLineBits = HWPROF_PARAM_CNTW * HWPROF_PARAM_LINEWORDS;
// The type Verilator gives the counter-line ports: an integer up to 64 bits, a bit vector beyond.
using line_bv = std::conditional_t<(kLineBits <= 32), uint32_t,
                                   std::conditional_t<(kLineBits <= 64), uint64_t, sc_bv<kLineBits>>>;

// The configuration of the C model that matches the RTL built into the platform.
inline hwprof_top_cfg_t model_cfg() {
  hwprof_top_cfg_t c;
  hwprof_top_cfg_default(&c);
  c.pir.cnt_w = HWPROF_PARAM_CNTW;
  c.pir.line_words = HWPROF_PARAM_LINEWORDS;
  c.edge_prof = hwprof_edge_prof_cfg_t{HWPROF_PARAM_CNTW,   HWPROF_PARAM_UPDDEPTH, HWPROF_PARAM_SETS,
                                HWPROF_PARAM_WAYS,   HWPROF_PARAM_LINEWORDS, HWPROF_PARAM_OABDEPTH};
  c.trace_ctrl = hwprof_trace_ctrl_cfg_t{HWPROF_PARAM_HISTW, HWPROF_PARAM_TFIFO};
  return c;
}

// The line through its 32-bit words (sc_bv's word access; its bit and range access is far slower).
// Counter w sits at bits [w * CntW +: CntW]: with CntW 8 or 16 several share a word, with 64 one
// spans two, so each counter is put together from the pieces of the words it touches.
constexpr unsigned kLineWords32 = (kLineBits + 31) / 32;
constexpr uint64_t kCntMask = HWPROF_PARAM_CNTW >= 64 ? ~0ull : (1ull << HWPROF_PARAM_CNTW) - 1;

template <class T = line_bv>  // a template, so that the branch for the other kind of port is discarded
void line_words(const T& v, uint32_t* w) {
  if constexpr (std::is_integral_v<T>) {
    const uint64_t x = v;
    for (unsigned i = 0; i < kLineWords32; i++) w[i] = static_cast<uint32_t>(x >> (32 * i));
  } else {
    for (unsigned i = 0; i < kLineWords32; i++) w[i] = v.get_word(i);
  }
}

template <class T = line_bv>
T line_of_words(const uint32_t* w) {
  if constexpr (std::is_integral_v<T>) {
    uint64_t x = 0;
    for (unsigned i = 0; i < kLineWords32; i++) x |= static_cast<uint64_t>(w[i]) << (32 * i);
    return static_cast<T>(x);
  } else {
    T v;
    for (unsigned i = 0; i < kLineWords32; i++) v.set_word(i, static_cast<sc_dt::sc_digit>(w[i]));
    return v;
  }
}

inline void line_from_bv(const line_bv& v, hwprof_line_t* l) {
  uint32_t words[kLineWords32];
  line_words(v, words);
  for (unsigned c = 0; c < HWPROF_PARAM_LINEWORDS; c++) {
    uint64_t x = 0;
    for (unsigned b = 0; b < HWPROF_PARAM_CNTW;) {
      const unsigned bit = c * HWPROF_PARAM_CNTW + b, sh = bit % 32, take = std::min(32u - sh, HWPROF_PARAM_CNTW - b);
      x |= ((static_cast<uint64_t>(words[bit / 32]) >> sh) & ((1ull << take) - 1)) << b;
      b += take;
    }
    l->w[c] = x & kCntMask;
  }
}

inline line_bv line_to_bv(const hwprof_line_t& l) {
  uint32_t words[kLineWords32] = {};
  for (unsigned c = 0; c < HWPROF_PARAM_LINEWORDS; c++)
    for (unsigned b = 0; b < HWPROF_PARAM_CNTW;) {
      const unsigned bit = c * HWPROF_PARAM_CNTW + b, sh = bit % 32, take = std::min(32u - sh, HWPROF_PARAM_CNTW - b);
      words[bit / 32] |= static_cast<uint32_t>((((l.w[c] & kCntMask) >> b) & ((1ull << take) - 1)) << sh);
      b += take;
    }
  return line_of_words(words);
}

// The ports of hwprof_top, with Verilator's names and types (for the modules standing in for it),
// from the one port list (tb/top/top_ports.h).
#define HWPROF_SC_IN_PORT(name, sc_type, member) sc_in<sc_type> name##_i{#name "_i"};
#define HWPROF_SC_OUT_PORT(name, sc_type, member) sc_out<sc_type> name##_o{#name "_o"};
#define HWPROF_SC_TOP_PORTS                            \
  sc_in<bool> clk_i{"clk_i"}, rst_ni{"rst_ni"};        \
  HWPROF_TOP_INPUTS(HWPROF_SC_IN_PORT)                 \
  sc_in<line_bv> mem_rsp_rdata_i{"mem_rsp_rdata_i"};   \
  HWPROF_TOP_OUTPUTS(HWPROF_SC_OUT_PORT)               \
  sc_out<line_bv> mem_req_wdata_o{"mem_req_wdata_o"};

// Every signal between hwprof_top and the rest of the platform, named as the port without _i/_o.
#define HWPROF_SC_WIRE(name, sc_type, member) sc_signal<sc_type> name{#name};
struct Wires {
  sc_signal<bool> rst_n{"rst_n"};
  HWPROF_TOP_INPUTS(HWPROF_SC_WIRE)
  HWPROF_TOP_OUTPUTS(HWPROF_SC_WIRE)
  sc_signal<line_bv> mem_req_wdata{"mem_req_wdata"};
  sc_signal<line_bv> mem_rsp_rdata{"mem_rsp_rdata"};
};
#undef HWPROF_SC_WIRE

// Binds anything with hwprof_top's ports (Vhwprof_top, ModelSc, LockstepSc) to the wires.
template <class Top, class Clock>
void bind_hwprof(Top& t, Clock& clk, Wires& w) {
  t.clk_i(clk);
  t.rst_ni(w.rst_n);
#define HWPROF_SC_BIND_IN(name, sc_type, member) t.name##_i(w.name);
#define HWPROF_SC_BIND_OUT(name, sc_type, member) t.name##_o(w.name);
  HWPROF_TOP_INPUTS(HWPROF_SC_BIND_IN)
  HWPROF_TOP_OUTPUTS(HWPROF_SC_BIND_OUT)
#undef HWPROF_SC_BIND_IN
#undef HWPROF_SC_BIND_OUT
  t.mem_req_wdata_o(w.mem_req_wdata);
  t.mem_rsp_rdata_i(w.mem_rsp_rdata);
}

// Same ports on a child as on its parent (the lockstep wrapper hands its pins to the RTL and model).
template <class Child, class Parent>
void bind_inputs(Child& c, Parent& p) {
  c.clk_i(p.clk_i);
  c.rst_ni(p.rst_ni);
#define HWPROF_SC_BIND_IN(name, sc_type, member) c.name##_i(p.name##_i);
  HWPROF_TOP_INPUTS(HWPROF_SC_BIND_IN)
#undef HWPROF_SC_BIND_IN
  c.mem_rsp_rdata_i(p.mem_rsp_rdata_i);
}

// The inputs of hwprof_top as the C model takes them, read from anything with its input ports.
template <class Top>
hwprof_top_in_t read_inputs(const Top& t) {
  hwprof_top_in_t in{};
#define HWPROF_SC_READ_EV(name, sc_type, member) in.ev.member = static_cast<decltype(in.ev.member)>(t.name##_i.read());
#define HWPROF_SC_READ_APB(name, sc_type, member) in.apb.member = static_cast<decltype(in.apb.member)>(t.name##_i.read());
#define HWPROF_SC_READ_MEM(name, sc_type, member) in.member = t.name##_i.read();
  HWPROF_TOP_EV_INPUTS(HWPROF_SC_READ_EV)
  HWPROF_TOP_APB_INPUTS(HWPROF_SC_READ_APB)
  HWPROF_TOP_MEM_INPUTS(HWPROF_SC_READ_MEM)
#undef HWPROF_SC_READ_EV
#undef HWPROF_SC_READ_APB
#undef HWPROF_SC_READ_MEM
  if (in.mem_rsp_valid) line_from_bv(t.mem_rsp_rdata_i.read(), &in.mem_rsp_rdata); /* only read then */
  return in;
}

// The outputs of hwprof_top, read from anything with its output ports (the RTL's, the model's).
template <class Top>
hwprof_top_out_t read_outputs(const Top& t) {
  hwprof_top_out_t o{};
#define HWPROF_SC_READ_OUT(name, sc_type, member) o.member = t.name##_o.read();
  HWPROF_TOP_OUTPUTS(HWPROF_SC_READ_OUT)
#undef HWPROF_SC_READ_OUT
  line_from_bv(t.mem_req_wdata_o.read(), &o.mem_req_wdata);
  return o;
}

}  // namespace hwprof_sc

#endif  // HWPROF_SC_PINS_H
