// The pins of hwprof_top in the SystemC platform: the signals that connect it to the CPU, the APB
// bus, the profile memory and the interrupt lines, one binding used by every engine (the Verilated
// RTL, the C model and the two in lockstep all have exactly Verilator's port names and types), and
// conversions between those pins and the C model's port structs (cmodel/ports.h, cmodel/top.h).
//
// Verilator --sc maps a 1-bit port to bool, 2..32 bits to uint32_t, 33..64 bits to uint64_t and
// wider ports to sc_bv<N>. The platform is built for one configuration of hwprof_top, fixed by the
// HWPROF_CFG_* macros the Makefile passes together with the RTL parameters.
#ifndef HWPROF_SC_PINS_H
#define HWPROF_SC_PINS_H

#include <systemc.h>

#include <cstdint>

extern "C" {
#include "top.h"
}

#if !defined(HWPROF_CFG_CNTW) || !defined(HWPROF_CFG_UPDDEPTH) || !defined(HWPROF_CFG_SETS) || \
    !defined(HWPROF_CFG_WAYS) || !defined(HWPROF_CFG_LINEWORDS) || !defined(HWPROF_CFG_OABDEPTH) || \
    !defined(HWPROF_CFG_HISTW) || !defined(HWPROF_CFG_TFIFO)
#error "the SystemC platform needs the HWPROF_CFG_* parameters of the RTL it is built with (see the Makefile)"
#endif

namespace hwprof_sc {

constexpr unsigned kLineBits = HWPROF_CFG_CNTW * HWPROF_CFG_LINEWORDS;
static_assert(kLineBits > 64, "a counter line of 64 bits or fewer is a uint64_t port in Verilator; not supported here");
using line_bv = sc_bv<kLineBits>;

// The configuration of the C model that matches the RTL built into the platform.
inline hwprof_top_cfg_t model_cfg() {
  hwprof_top_cfg_t c;
  hwprof_top_cfg_default(&c);
  c.pir.cnt_w = HWPROF_CFG_CNTW;
  c.edge_prof = hwprof_edge_prof_cfg_t{HWPROF_CFG_CNTW,   HWPROF_CFG_UPDDEPTH, HWPROF_CFG_SETS,
                                HWPROF_CFG_WAYS,   HWPROF_CFG_LINEWORDS, HWPROF_CFG_OABDEPTH};
  c.trace_ctrl = hwprof_trace_ctrl_cfg_t{HWPROF_CFG_HISTW, HWPROF_CFG_TFIFO};
  return c;
}

// Whole 32-bit words of the vector (sc_bv's word access; its bit and range access is far slower).
static_assert(HWPROF_CFG_CNTW % 32 == 0, "the line conversions move whole 32-bit words");
constexpr unsigned kCntWords32 = HWPROF_CFG_CNTW / 32;

inline void line_from_bv(const line_bv& v, hwprof_line_t* l) {
  for (unsigned w = 0; w < HWPROF_CFG_LINEWORDS; w++) {
    uint64_t x = 0;
    for (unsigned k = 0; k < kCntWords32; k++) x |= static_cast<uint64_t>(v.get_word(w * kCntWords32 + k)) << (32 * k);
    l->w[w] = x;
  }
}

inline line_bv line_to_bv(const hwprof_line_t& l) {
  line_bv v;
  for (unsigned w = 0; w < HWPROF_CFG_LINEWORDS; w++)
    for (unsigned k = 0; k < kCntWords32; k++)
      v.set_word(w * kCntWords32 + k, static_cast<sc_dt::sc_digit>(l.w[w] >> (32 * k)));
  return v;
}

// The ports of hwprof_top, with Verilator's names and types (for the modules standing in for it).
#define HWPROF_SC_TOP_PORTS \
  sc_in<bool> clk_i{"clk_i"}, rst_ni{"rst_ni"}; \
  sc_in<bool> ev_valid_i{"ev_valid_i"}; \
  sc_out<bool> ev_ready_o{"ev_ready_o"}; \
  sc_in<uint32_t> ev_pc_i{"ev_pc_i"}, ev_next_pc_i{"ev_next_pc_i"}, ev_insn_i{"ev_insn_i"}, ev_kind_i{"ev_kind_i"}; \
  sc_in<bool> ev_is_call_i{"ev_is_call_i"}, ev_is_ret_i{"ev_is_ret_i"}, ev_taken_i{"ev_taken_i"}; \
  sc_in<uint32_t> ev_addr_i{"ev_addr_i"}, ev_value_i{"ev_value_i"}, ev_pid_i{"ev_pid_i"}, ev_bhint_i{"ev_bhint_i"}; \
  sc_in<bool> ev_ihint_i{"ev_ihint_i"}; \
  sc_in<uint32_t> ev_op_i{"ev_op_i"}; \
  sc_in<uint64_t> ev_operand_i{"ev_operand_i"}; \
  sc_in<bool> psel_i{"psel_i"}, penable_i{"penable_i"}, pwrite_i{"pwrite_i"}; \
  sc_in<uint32_t> paddr_i{"paddr_i"}, pwdata_i{"pwdata_i"}; \
  sc_out<uint32_t> prdata_o{"prdata_o"}; \
  sc_out<bool> pready_o{"pready_o"}, pslverr_o{"pslverr_o"}; \
  sc_out<bool> mem_req_valid_o{"mem_req_valid_o"}; \
  sc_in<bool> mem_req_ready_i{"mem_req_ready_i"}; \
  sc_out<bool> mem_req_write_o{"mem_req_write_o"}; \
  sc_out<uint64_t> mem_req_addr_o{"mem_req_addr_o"}; \
  sc_out<line_bv> mem_req_wdata_o{"mem_req_wdata_o"}; \
  sc_in<bool> mem_rsp_valid_i{"mem_rsp_valid_i"}; \
  sc_in<line_bv> mem_rsp_rdata_i{"mem_rsp_rdata_i"}; \
  sc_out<bool> irq_phase_o{"irq_phase_o"}, irq_trace_o{"irq_trace_o"}, irq_coproc_o{"irq_coproc_o"}, \
      irq_error_o{"irq_error_o"}; \
  sc_out<bool> upd_valid_o{"upd_valid_o"}, upd_dec_o{"upd_dec_o"}; \
  sc_out<uint64_t> upd_addr_o{"upd_addr_o"};

// Every signal between hwprof_top and the rest of the platform.
struct Wires {
  sc_signal<bool> rst_n{"rst_n"};
  // retire-event port
  sc_signal<bool> ev_valid{"ev_valid"}, ev_ready{"ev_ready"};
  sc_signal<uint32_t> ev_pc{"ev_pc"}, ev_next_pc{"ev_next_pc"}, ev_insn{"ev_insn"}, ev_kind{"ev_kind"};
  sc_signal<bool> ev_is_call{"ev_is_call"}, ev_is_ret{"ev_is_ret"}, ev_taken{"ev_taken"};
  sc_signal<uint32_t> ev_addr{"ev_addr"}, ev_value{"ev_value"}, ev_pid{"ev_pid"}, ev_bhint{"ev_bhint"};
  sc_signal<bool> ev_ihint{"ev_ihint"};
  sc_signal<uint32_t> ev_op{"ev_op"};
  sc_signal<uint64_t> ev_operand{"ev_operand"};
  // APB3
  sc_signal<bool> psel{"psel"}, penable{"penable"}, pwrite{"pwrite"};
  sc_signal<uint32_t> paddr{"paddr"}, pwdata{"pwdata"}, prdata{"prdata"};
  sc_signal<bool> pready{"pready"}, pslverr{"pslverr"};
  // profile memory port
  sc_signal<bool> mem_req_valid{"mem_req_valid"}, mem_req_ready{"mem_req_ready"}, mem_req_write{"mem_req_write"};
  sc_signal<uint64_t> mem_req_addr{"mem_req_addr"};
  sc_signal<line_bv> mem_req_wdata{"mem_req_wdata"};
  sc_signal<bool> mem_rsp_valid{"mem_rsp_valid"};
  sc_signal<line_bv> mem_rsp_rdata{"mem_rsp_rdata"};
  // interrupts
  sc_signal<bool> irq_phase{"irq_phase"}, irq_trace{"irq_trace"}, irq_coproc{"irq_coproc"}, irq_error{"irq_error"};
  // observation port
  sc_signal<bool> upd_valid{"upd_valid"}, upd_dec{"upd_dec"};
  sc_signal<uint64_t> upd_addr{"upd_addr"};
};

// Binds anything with hwprof_top's ports (Vhwprof_top, ModelSc, LockstepSc) to the wires.
template <class Top, class Clock>
void bind_hwprof(Top& t, Clock& clk, Wires& w) {
  t.clk_i(clk);
  t.rst_ni(w.rst_n);
  t.ev_valid_i(w.ev_valid);
  t.ev_ready_o(w.ev_ready);
  t.ev_pc_i(w.ev_pc);
  t.ev_next_pc_i(w.ev_next_pc);
  t.ev_insn_i(w.ev_insn);
  t.ev_kind_i(w.ev_kind);
  t.ev_is_call_i(w.ev_is_call);
  t.ev_is_ret_i(w.ev_is_ret);
  t.ev_taken_i(w.ev_taken);
  t.ev_addr_i(w.ev_addr);
  t.ev_value_i(w.ev_value);
  t.ev_pid_i(w.ev_pid);
  t.ev_bhint_i(w.ev_bhint);
  t.ev_ihint_i(w.ev_ihint);
  t.ev_op_i(w.ev_op);
  t.ev_operand_i(w.ev_operand);
  t.psel_i(w.psel);
  t.penable_i(w.penable);
  t.pwrite_i(w.pwrite);
  t.paddr_i(w.paddr);
  t.pwdata_i(w.pwdata);
  t.prdata_o(w.prdata);
  t.pready_o(w.pready);
  t.pslverr_o(w.pslverr);
  t.mem_req_valid_o(w.mem_req_valid);
  t.mem_req_ready_i(w.mem_req_ready);
  t.mem_req_write_o(w.mem_req_write);
  t.mem_req_addr_o(w.mem_req_addr);
  t.mem_req_wdata_o(w.mem_req_wdata);
  t.mem_rsp_valid_i(w.mem_rsp_valid);
  t.mem_rsp_rdata_i(w.mem_rsp_rdata);
  t.irq_phase_o(w.irq_phase);
  t.irq_trace_o(w.irq_trace);
  t.irq_coproc_o(w.irq_coproc);
  t.irq_error_o(w.irq_error);
  t.upd_valid_o(w.upd_valid);
  t.upd_addr_o(w.upd_addr);
  t.upd_dec_o(w.upd_dec);
}

// Same ports on a child as on its parent (the lockstep wrapper hands its pins to the RTL and model).
template <class Child, class Parent>
void bind_inputs(Child& c, Parent& p) {
  c.clk_i(p.clk_i);
  c.rst_ni(p.rst_ni);
  c.ev_valid_i(p.ev_valid_i);
  c.ev_pc_i(p.ev_pc_i);
  c.ev_next_pc_i(p.ev_next_pc_i);
  c.ev_insn_i(p.ev_insn_i);
  c.ev_kind_i(p.ev_kind_i);
  c.ev_is_call_i(p.ev_is_call_i);
  c.ev_is_ret_i(p.ev_is_ret_i);
  c.ev_taken_i(p.ev_taken_i);
  c.ev_addr_i(p.ev_addr_i);
  c.ev_value_i(p.ev_value_i);
  c.ev_pid_i(p.ev_pid_i);
  c.ev_bhint_i(p.ev_bhint_i);
  c.ev_ihint_i(p.ev_ihint_i);
  c.ev_op_i(p.ev_op_i);
  c.ev_operand_i(p.ev_operand_i);
  c.psel_i(p.psel_i);
  c.penable_i(p.penable_i);
  c.pwrite_i(p.pwrite_i);
  c.paddr_i(p.paddr_i);
  c.pwdata_i(p.pwdata_i);
  c.mem_req_ready_i(p.mem_req_ready_i);
  c.mem_rsp_valid_i(p.mem_rsp_valid_i);
  c.mem_rsp_rdata_i(p.mem_rsp_rdata_i);
}

// The inputs of hwprof_top as the C model takes them, read from anything with its input ports.
template <class Top>
hwprof_top_in_t read_inputs(const Top& t) {
  hwprof_top_in_t in{};
  hwprof_retire_ev_t& e = in.ev;
  e.valid = t.ev_valid_i.read();
  e.pc = t.ev_pc_i.read();
  e.next_pc = t.ev_next_pc_i.read();
  e.insn = t.ev_insn_i.read();
  e.kind = static_cast<uint8_t>(t.ev_kind_i.read());
  e.is_call = t.ev_is_call_i.read();
  e.is_ret = t.ev_is_ret_i.read();
  e.taken = t.ev_taken_i.read();
  e.addr = t.ev_addr_i.read();
  e.value = t.ev_value_i.read();
  e.pid = static_cast<uint16_t>(t.ev_pid_i.read());
  e.bhint = static_cast<uint8_t>(t.ev_bhint_i.read());
  e.ihint = t.ev_ihint_i.read();
  e.op = static_cast<uint8_t>(t.ev_op_i.read());
  e.operand = t.ev_operand_i.read();
  in.apb.psel = t.psel_i.read();
  in.apb.penable = t.penable_i.read();
  in.apb.pwrite = t.pwrite_i.read();
  in.apb.paddr = static_cast<uint16_t>(t.paddr_i.read());
  in.apb.pwdata = t.pwdata_i.read();
  in.mem_req_ready = t.mem_req_ready_i.read();
  in.mem_rsp_valid = t.mem_rsp_valid_i.read();
  if (in.mem_rsp_valid) line_from_bv(t.mem_rsp_rdata_i.read(), &in.mem_rsp_rdata); /* only read then */
  return in;
}

// The outputs of hwprof_top, read from anything with its output ports (the RTL's, the model's).
template <class Top>
hwprof_top_out_t read_outputs(const Top& t) {
  hwprof_top_out_t o{};
  o.ev_ready = t.ev_ready_o.read();
  o.apb.prdata = t.prdata_o.read();
  o.apb.pready = t.pready_o.read();
  o.apb.pslverr = t.pslverr_o.read();
  o.mem_req_valid = t.mem_req_valid_o.read();
  o.mem_req_write = t.mem_req_write_o.read();
  o.mem_req_addr = t.mem_req_addr_o.read();
  line_from_bv(t.mem_req_wdata_o.read(), &o.mem_req_wdata);
  o.irq_phase = t.irq_phase_o.read();
  o.irq_trace = t.irq_trace_o.read();
  o.irq_coproc = t.irq_coproc_o.read();
  o.irq_error = t.irq_error_o.read();
  o.upd.valid = t.upd_valid_o.read();
  o.upd.addr = t.upd_addr_o.read();
  o.upd.dec = t.upd_dec_o.read();
  return o;
}

}  // namespace hwprof_sc

#endif  // HWPROF_SC_PINS_H
