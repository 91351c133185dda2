// Synthesis tops for hwprof beside a real core (make synth-pico, docs/picorv32.md): picorv32 (from
// the pythondata-cpu-picorv32 package, read after this file) in the platform's configuration
// (sim/pico/hwprof_pico_cpu.sv) with its RVFI port, alone and with the RVFI adapter that turns its
// records into hwprof_top's retire events. The difference is what an integrator adds to the core
// before hwprof_top; hwprof_top's own rows are in synth/run.sh's table.
`define RISCV_FORMAL

// picorv32 with its RVFI port (hwprof_pico_cpu); the RVFI fields the adapter reads leave through
// one XOR-folded word, so that synthesis keeps them without a pin each (its two interrupt lines are
// inputs, and what eoi says of them is folded in too)
module hwprof_pico_core (
  input  logic        clk_i,
  input  logic        rst_ni,
  output logic        trap_o,
  output logic        mem_valid_o,
  output logic        mem_instr_o,
  input  logic        mem_ready_i,
  output logic [31:0] mem_addr_o,
  output logic [31:0] mem_wdata_o,
  output logic [3:0]  mem_wstrb_o,
  input  logic [31:0] mem_rdata_i,
  input  logic        irq_ext_i,
  input  logic        irq_timer_i,
  output logic        rvfi_valid_o,
  output logic [31:0] rvfi_fold_o
);
  logic [31:0] insn, pc_r, pc_w, rs1, rs2, mrd, eoi;
  logic intr;
  hwprof_pico_cpu u_cpu (
    .clk_i, .rst_ni, .trap_o, .mem_valid_o, .mem_instr_o, .mem_ready_i, .mem_addr_o, .mem_wdata_o, .mem_wstrb_o,
    .mem_rdata_i, .irq_i({20'b0, irq_ext_i, 3'b0, irq_timer_i, 7'b0}), .eoi_o(eoi), .pcpi_valid_o(), .pcpi_insn_o(),
    .pcpi_rs1_o(), .pcpi_rs2_o(), .pcpi_ready_i(1'b0), .pcpi_wait_i(1'b0), .pcpi_wr_i(1'b0), .pcpi_rd_i(32'b0), .rvfi_valid_o, .rvfi_intr_o(intr),
    .rvfi_insn_o(insn), .rvfi_pc_rdata_o(pc_r), .rvfi_pc_wdata_o(pc_w),
    .rvfi_rs1_rdata_o(rs1), .rvfi_rs2_rdata_o(rs2), .rvfi_mem_rdata_o(mrd)
  );
  assign rvfi_fold_o = insn ^ pc_r ^ pc_w ^ rs1 ^ rs2 ^ mrd ^ {20'b0, eoi[11], 3'b0, eoi[7], 6'b0, intr};
endmodule

// picorv32 and the RVFI adapter: the core's memory (with the shadow word beside each answer) on one
// side, hwprof_top's retire-event port on the other
module hwprof_pico_pair (
  input  logic        clk_i,
  input  logic        rst_ni,
  output logic        trap_o,
  output logic        mem_valid_o,
  output logic        mem_instr_o,
  input  logic        mem_ready_i,
  output logic [31:0] mem_addr_o,
  output logic [31:0] mem_wdata_o,
  output logic [3:0]  mem_wstrb_o,
  input  logic [31:0] mem_rdata_i,
  input  logic [31:0] mem_shadow_i,
  input  logic        irq_ext_i,
  input  logic        irq_timer_i,
  output logic [1:0]  eoi_o,
  output logic        ev_valid_o,
  input  logic        ev_ready_i,
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
  output logic        err_o
);
  logic mem_valid, mem_instr, mem_ready, stall, rvfi_valid, intr;
  logic [31:0] mem_addr, insn, pc_r, pc_w, rs1, rs2, mrd, eoi;
  assign eoi_o = {eoi[11], eoi[7]};
  assign mem_ready = mem_ready_i && !stall;
  assign mem_valid_o = mem_valid;
  assign mem_instr_o = mem_instr;
  assign mem_addr_o = mem_addr;
  hwprof_pico_cpu u_cpu (
    .clk_i, .rst_ni, .trap_o, .mem_valid_o(mem_valid), .mem_instr_o(mem_instr), .mem_ready_i(mem_ready),
    .mem_addr_o(mem_addr), .mem_wdata_o, .mem_wstrb_o, .mem_rdata_i,
    .irq_i({20'b0, irq_ext_i, 3'b0, irq_timer_i, 7'b0}), .eoi_o(eoi), .pcpi_valid_o(), .pcpi_insn_o(),
    .pcpi_rs1_o(), .pcpi_rs2_o(), .pcpi_ready_i(1'b0), .pcpi_wait_i(1'b0), .pcpi_wr_i(1'b0), .pcpi_rd_i(32'b0),
    .rvfi_valid_o(rvfi_valid), .rvfi_intr_o(intr),
    .rvfi_insn_o(insn), .rvfi_pc_rdata_o(pc_r), .rvfi_pc_wdata_o(pc_w), .rvfi_rs1_rdata_o(rs1),
    .rvfi_rs2_rdata_o(rs2), .rvfi_mem_rdata_o(mrd)
  );
  hwprof_rvfi_adapter u_adapter (
    .clk_i, .rst_ni,
    .rvfi_valid_i(rvfi_valid), .rvfi_insn_i(insn), .rvfi_pc_rdata_i(pc_r), .rvfi_pc_wdata_i(pc_w),
    .rvfi_rs1_rdata_i(rs1), .rvfi_rs2_rdata_i(rs2), .rvfi_mem_rdata_i(mrd), .rvfi_intr_i(intr),
    .fetch_i(mem_valid && mem_instr && mem_ready), .fetch_addr_i(mem_addr), .fetch_shadow_i(mem_shadow_i),
    .ev_valid_o, .ev_ready_i, .ev_pc_o, .ev_next_pc_o, .ev_insn_o, .ev_kind_o, .ev_is_call_o, .ev_is_ret_o,
    .ev_taken_o, .ev_addr_o, .ev_value_o, .ev_pid_o, .ev_bhint_o, .ev_ihint_o, .ev_op_o, .ev_operand_o,
    .ev_trap_o, .stall_o(stall), .err_o
  );
endmodule
