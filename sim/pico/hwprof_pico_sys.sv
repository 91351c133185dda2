// hwprof_pico_sys: picorv32 (unmodified, from the pythondata-cpu-picorv32 package, with its RVFI
// port) and hwprof_top joined by hwprof_rvfi_adapter; the test bench (sim/pico/pico_main.cpp) is
// the memory on both sides and the APB requester (docs/picorv32.md).
//
// - picorv32 in the platform's configuration (hwprof_pico_cpu.sv). It starts at 0, where the bench's
//   boot words jump to the program's entry; records of instructions below RamBase (those words) do
//   not reach the adapter, but for an interrupt handler's first instruction (rvfi_intr: the jump at
//   IrqVector to the handler), which tells the adapter that a handler runs.
// - Its interrupt lines (core_irq_i) come from the bench, which emulates the machine-mode CSRs the
//   firmware was written for (mstatus.MIE, mie, mtvec, mcause) and drives them from hwprof's
//   interrupt outputs (irq_o) and its timer; core_eoi_o says which lines the running handler took.
//   The CSR instructions, and the semihosting calls, reach the bench on picorv32's co-processor
//   port (pcpi_*), which answers them as the CPU model executes them.
// - The bench answers the core's memory requests (mem_ready_i, mem_rdata_i) and gives, with every
//   instruction it answers, the instruction's shadow word (mem_shadow_i: a second read port). The
//   adapter's stall holds mem_ready while an event waits for hwprof_top.
// - The adapter's inputs and outputs are outputs here too: the bench runs the adapter's C model on
//   them and compares the two every cycle.
module hwprof_pico_sys #(
  parameter logic [31:0] RamBase = 32'h8000_0000,
  parameter logic [31:0] IrqVector = RamBase - 32'h10  // below RAM: the bench answers its fetch with a jump to mtvec
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  output logic        trap_o,        // the core stopped (an illegal instruction, a misaligned access)

  // the core's memory (picorv32's native interface)
  output logic        mem_valid_o,
  output logic        mem_instr_o,
  input  logic        mem_ready_i,
  output logic [31:0] mem_addr_o,
  output logic [31:0] mem_wdata_o,
  output logic [3:0]  mem_wstrb_o,
  input  logic [31:0] mem_rdata_i,
  input  logic [31:0] mem_shadow_i,
  input  logic [31:0] core_irq_i,    // picorv32's interrupt lines (11 external, 7 timer)
  output logic [31:0] core_eoi_o,    // the lines the running handler was entered for
  output logic        pcpi_valid_o,  // picorv32's co-processor port: the CSR and semihosting
  output logic [31:0] pcpi_insn_o,   // instructions reach the bench here
  output logic [31:0] pcpi_rs1_o,
  output logic [31:0] pcpi_rs2_o,
  input  logic        pcpi_ready_i,
  input  logic        pcpi_wait_i,
  input  logic        pcpi_wr_i,
  input  logic [31:0] pcpi_rd_i,

  // APB to hwprof_top
  input  logic        psel_i,
  input  logic        penable_i,
  input  logic        pwrite_i,
  input  logic [hwprof_pkg::APB_ADDR_W-1:0] paddr_i,
  input  logic [31:0] pwdata_i,
  output logic [31:0] prdata_o,
  output logic        pready_o,
  output logic        pslverr_o,

  // hwprof_top's profile memory
  output logic                                mem_req_valid_o,
  input  logic                                mem_req_ready_i,
  output logic                                mem_req_write_o,
  output logic [hwprof_pkg::PIR_BASE_W-1:0]   mem_req_addr_o,
  output logic [hwprof_pkg::LINEWORDS_DEFAULT*hwprof_pkg::CNTW_DEFAULT-1:0] mem_req_wdata_o,
  input  logic                                mem_rsp_valid_i,
  input  logic [hwprof_pkg::LINEWORDS_DEFAULT*hwprof_pkg::CNTW_DEFAULT-1:0] mem_rsp_rdata_i,
  output logic [3:0]                          irq_o,  // phase, trace, co-processor, error

  // observation: the adapter's inputs ...
  output logic        rvfi_valid_o,
  output logic [31:0] rvfi_insn_o,
  output logic [31:0] rvfi_pc_rdata_o,
  output logic [31:0] rvfi_pc_wdata_o,
  output logic [31:0] rvfi_rs1_rdata_o,
  output logic [31:0] rvfi_rs2_rdata_o,
  output logic [31:0] rvfi_mem_rdata_o,
  output logic        rvfi_intr_o,
  output logic        fetch_o,
  // ... and outputs
  output logic        ev_valid_o,
  output logic        ev_ready_o,
  output logic [31:0] ev_pc_o,
  output logic [31:0] ev_next_pc_o,
  output logic [31:0] ev_insn_o,
  output logic [2:0]  ev_kind_o,
  output logic        ev_is_call_o,
  output logic        ev_is_ret_o,
  output logic        ev_taken_o,
  output logic [31:0] ev_addr_o,
  output logic [31:0] ev_value_o,
  output logic [hwprof_pkg::EV_PID_W-1:0] ev_pid_o,
  output logic [1:0]  ev_bhint_o,
  output logic        ev_ihint_o,
  output logic [2:0]  ev_op_o,
  output logic [hwprof_pkg::EV_OPERAND_W-1:0] ev_operand_o,
  output logic [1:0]  ev_trap_o,
  output logic        stall_o,
  output logic        adapter_err_o
);
  // ---------------------------------------------------------------- the core
  logic        mem_valid, mem_instr, mem_ready;
  logic [31:0] mem_addr;
  logic        rvfi_valid, rvfi_intr;
  logic [31:0] rvfi_insn, rvfi_pc_rdata, rvfi_pc_wdata, rvfi_rs1_rdata, rvfi_rs2_rdata, rvfi_mem_rdata;
  hwprof_pico_cpu #(.IrqVector(IrqVector)) u_cpu (
    .clk_i, .rst_ni, .trap_o,
    .mem_valid_o(mem_valid), .mem_instr_o(mem_instr), .mem_ready_i(mem_ready), .mem_addr_o(mem_addr),
    .mem_wdata_o, .mem_wstrb_o, .mem_rdata_i, .irq_i(core_irq_i), .eoi_o(core_eoi_o),
    .pcpi_valid_o, .pcpi_insn_o, .pcpi_rs1_o, .pcpi_rs2_o, .pcpi_ready_i, .pcpi_wait_i, .pcpi_wr_i, .pcpi_rd_i,
    .rvfi_valid_o(rvfi_valid), .rvfi_intr_o(rvfi_intr), .rvfi_insn_o(rvfi_insn), .rvfi_pc_rdata_o(rvfi_pc_rdata),
    .rvfi_pc_wdata_o(rvfi_pc_wdata), .rvfi_rs1_rdata_o(rvfi_rs1_rdata), .rvfi_rs2_rdata_o(rvfi_rs2_rdata),
    .rvfi_mem_rdata_o(rvfi_mem_rdata)
  );
  assign mem_valid_o = mem_valid;
  assign mem_instr_o = mem_instr;
  assign mem_addr_o = mem_addr;
  assign mem_ready = mem_ready_i && !stall_o;

  // ---------------------------------------------------------------- the adapter
  assign rvfi_valid_o = rvfi_valid && (rvfi_pc_rdata >= RamBase || rvfi_intr);
  assign rvfi_intr_o = rvfi_intr;
  assign rvfi_insn_o = rvfi_insn;
  assign rvfi_pc_rdata_o = rvfi_pc_rdata;
  assign rvfi_pc_wdata_o = rvfi_pc_wdata;
  assign rvfi_rs1_rdata_o = rvfi_rs1_rdata;
  assign rvfi_rs2_rdata_o = rvfi_rs2_rdata;
  assign rvfi_mem_rdata_o = rvfi_mem_rdata;
  assign fetch_o = mem_valid && mem_instr && mem_ready;
  logic ev_ready;
  hwprof_rvfi_adapter u_adapter (
    .clk_i, .rst_ni,
    .rvfi_valid_i(rvfi_valid_o), .rvfi_insn_i(rvfi_insn), .rvfi_pc_rdata_i(rvfi_pc_rdata),
    .rvfi_pc_wdata_i(rvfi_pc_wdata), .rvfi_rs1_rdata_i(rvfi_rs1_rdata), .rvfi_rs2_rdata_i(rvfi_rs2_rdata),
    .rvfi_mem_rdata_i(rvfi_mem_rdata), .rvfi_intr_i(rvfi_intr),
    .fetch_i(fetch_o), .fetch_addr_i(mem_addr), .fetch_shadow_i(mem_shadow_i),
    .ev_valid_o, .ev_ready_i(ev_ready), .ev_pc_o, .ev_next_pc_o, .ev_insn_o, .ev_kind_o, .ev_is_call_o,
    .ev_is_ret_o, .ev_taken_o, .ev_addr_o, .ev_value_o, .ev_pid_o, .ev_bhint_o, .ev_ihint_o, .ev_op_o,
    .ev_operand_o, .ev_trap_o, .stall_o, .err_o(adapter_err_o)
  );
  assign ev_ready_o = ev_ready;

  // ---------------------------------------------------------------- the profiling hardware
  /* verilator lint_off PINCONNECTEMPTY */
  hwprof_top u_hwprof (
    .clk_i, .rst_ni,
    .ev_valid_i(ev_valid_o), .ev_ready_o(ev_ready), .ev_pc_i(ev_pc_o), .ev_next_pc_i(ev_next_pc_o),
    .ev_insn_i(ev_insn_o), .ev_kind_i(ev_kind_o), .ev_is_call_i(ev_is_call_o), .ev_is_ret_i(ev_is_ret_o),
    .ev_taken_i(ev_taken_o), .ev_addr_i(ev_addr_o), .ev_value_i(ev_value_o), .ev_pid_i(ev_pid_o),
    .ev_bhint_i(ev_bhint_o), .ev_ihint_i(ev_ihint_o), .ev_op_i(ev_op_o), .ev_operand_i(ev_operand_o),
    .ev_trap_i(ev_trap_o),
    .psel_i, .penable_i, .pwrite_i, .paddr_i, .pwdata_i, .prdata_o, .pready_o, .pslverr_o,
    .mem_req_valid_o, .mem_req_ready_i, .mem_req_write_o, .mem_req_addr_o, .mem_req_wdata_o,
    .mem_rsp_valid_i, .mem_rsp_rdata_i,
    .irq_phase_o(irq_o[0]), .irq_trace_o(irq_o[1]), .irq_coproc_o(irq_o[2]), .irq_error_o(irq_o[3]),
    .upd_valid_o(), .upd_addr_o(), .upd_dec_o()
  );
  /* verilator lint_on PINCONNECTEMPTY */
endmodule
