/* The ports of hwprof_top, listed once (X-macros) for every harness that connects to them: the
 * block bench (tb/top/tb_top.cpp: drive the Verilated inputs, read its outputs, compare with the C
 * model) and the SystemC platform (sim/sc/: the port declarations of the modules standing in for
 * hwprof_top, the wires, the bindings, the conversions to and from the C model's port structs, the
 * CPU's side of the retire and APB ports). rtl/top/hwprof_top.sv is the source; a port added there is
 * added here, and every harness follows.
 *
 * X(name, sc_type, member): the port is name_i or name_o; sc_type is its type as Verilator --sc
 * declares it (1 bit: bool, 2..32 bits: uint32_t, 33..64 bits: uint64_t); member is where the C
 * model keeps it (relative to the struct named with each list). clk_i, rst_ni and the two counter
 * lines (mem_rsp_rdata_i, mem_req_wdata_o: wider than 64 bits, converted by each harness) are not
 * in the lists. */
#ifndef HWPROF_TB_TOP_PORTS_H
#define HWPROF_TB_TOP_PORTS_H

/* retire-event port inputs; member of hwprof_retire_ev_t (hwprof_top_in_t.ev) */
#define HWPROF_TOP_EV_INPUTS(X)  \
  X(ev_valid, bool, valid)       \
  X(ev_pc, uint32_t, pc)         \
  X(ev_next_pc, uint32_t, next_pc) \
  X(ev_insn, uint32_t, insn)     \
  X(ev_kind, uint32_t, kind)     \
  X(ev_is_call, bool, is_call)   \
  X(ev_is_ret, bool, is_ret)     \
  X(ev_taken, bool, taken)       \
  X(ev_addr, uint32_t, addr)     \
  X(ev_value, uint32_t, value)   \
  X(ev_pid, uint32_t, pid)       \
  X(ev_bhint, uint32_t, bhint)   \
  X(ev_ihint, bool, ihint)       \
  X(ev_op, uint32_t, op)         \
  X(ev_operand, uint64_t, operand) \
  X(ev_trap, uint32_t, trap)

/* APB3 inputs; member of hwprof_apb_req_t (hwprof_top_in_t.apb) */
#define HWPROF_TOP_APB_INPUTS(X) \
  X(psel, bool, psel)            \
  X(penable, bool, penable)      \
  X(pwrite, bool, pwrite)        \
  X(paddr, uint32_t, paddr)      \
  X(pwdata, uint32_t, pwdata)

/* memory port inputs (besides the read line); member of hwprof_top_in_t */
#define HWPROF_TOP_MEM_INPUTS(X)          \
  X(mem_req_ready, bool, mem_req_ready)   \
  X(mem_rsp_valid, bool, mem_rsp_valid)

/* every input but the line */
#define HWPROF_TOP_INPUTS(X) HWPROF_TOP_EV_INPUTS(X) HWPROF_TOP_APB_INPUTS(X) HWPROF_TOP_MEM_INPUTS(X)

/* outputs (besides the write line); member of hwprof_top_out_t */
#define HWPROF_TOP_OUTPUTS(X)             \
  X(ev_ready, bool, ev_ready)             \
  X(prdata, uint32_t, apb.prdata)         \
  X(pready, bool, apb.pready)             \
  X(pslverr, bool, apb.pslverr)           \
  X(mem_req_valid, bool, mem_req_valid)   \
  X(mem_req_write, bool, mem_req_write)   \
  X(mem_req_addr, uint64_t, mem_req_addr) \
  X(irq_phase, bool, irq_phase)           \
  X(irq_trace, bool, irq_trace)           \
  X(irq_coproc, bool, irq_coproc)         \
  X(irq_error, bool, irq_error)           \
  X(upd_valid, bool, upd.valid)           \
  X(upd_addr, uint64_t, upd.addr)         \
  X(upd_dec, bool, upd.dec)

#endif /* HWPROF_TB_TOP_PORTS_H */
