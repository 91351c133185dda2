// Synthesis tops for hwprof beside a real core (make synth-pico, docs/picorv32.md): picorv32 (from
// the pythondata-cpu-picorv32 package, read after this file) in the configuration of
// sim/pico/hwprof_pico_sys.sv with its RVFI port, alone and with the RVFI adapter that turns its
// records into hwprof_top's retire events. The difference is what an integrator adds to the core
// before hwprof_top; hwprof_top's own rows are in synth/run.sh's table.
`define RISCV_FORMAL

// picorv32 with its RVFI port; the RVFI fields the adapter reads leave through one XOR-folded word,
// so that synthesis keeps them without a pin each
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
  output logic        rvfi_valid_o,
  output logic [31:0] rvfi_fold_o
);
  logic pcpi_valid;
  logic [31:0] pcpi_insn, insn, pc_r, pc_w, rs1, rs2, mrd;
  /* verilator lint_off PINCONNECTEMPTY */
  picorv32 #(
    .ENABLE_PCPI(1), .ENABLE_MUL(0), .ENABLE_FAST_MUL(1), .ENABLE_DIV(1), .BARREL_SHIFTER(1),
    .COMPRESSED_ISA(0), .ENABLE_IRQ(0), .CATCH_MISALIGN(1), .CATCH_ILLINSN(1), .PROGADDR_RESET(32'h0000_0000)
  ) u_core (
    .clk(clk_i), .resetn(rst_ni), .trap(trap_o),
    .mem_valid(mem_valid_o), .mem_instr(mem_instr_o), .mem_ready(mem_ready_i), .mem_addr(mem_addr_o),
    .mem_wdata(mem_wdata_o), .mem_wstrb(mem_wstrb_o), .mem_rdata(mem_rdata_i),
    .mem_la_read(), .mem_la_write(), .mem_la_addr(), .mem_la_wdata(), .mem_la_wstrb(),
    .pcpi_valid(pcpi_valid), .pcpi_insn(pcpi_insn), .pcpi_rs1(), .pcpi_rs2(),
    .pcpi_wr(1'b0), .pcpi_rd(32'b0), .pcpi_wait(1'b0),
    .pcpi_ready(pcpi_valid && pcpi_insn[6:0] == 7'h0b && pcpi_insn[14:12] != 3'd7),
    .irq(32'b0), .eoi(),
    .rvfi_valid(rvfi_valid_o), .rvfi_order(), .rvfi_insn(insn), .rvfi_trap(), .rvfi_halt(), .rvfi_intr(),
    .rvfi_mode(), .rvfi_ixl(), .rvfi_rs1_addr(), .rvfi_rs2_addr(), .rvfi_rs1_rdata(rs1), .rvfi_rs2_rdata(rs2),
    .rvfi_rd_addr(), .rvfi_rd_wdata(), .rvfi_pc_rdata(pc_r), .rvfi_pc_wdata(pc_w), .rvfi_mem_addr(),
    .rvfi_mem_rmask(), .rvfi_mem_wmask(), .rvfi_mem_rdata(mrd), .rvfi_mem_wdata(),
    .rvfi_csr_mcycle_rmask(), .rvfi_csr_mcycle_wmask(), .rvfi_csr_mcycle_rdata(), .rvfi_csr_mcycle_wdata(),
    .rvfi_csr_minstret_rmask(), .rvfi_csr_minstret_wmask(), .rvfi_csr_minstret_rdata(), .rvfi_csr_minstret_wdata(),
    .trace_valid(), .trace_data()
  );
  /* verilator lint_on PINCONNECTEMPTY */
  assign rvfi_fold_o = insn ^ pc_r ^ pc_w ^ rs1 ^ rs2 ^ mrd;
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
  logic mem_valid, mem_instr, mem_ready, stall, pcpi_valid, rvfi_valid;
  logic [31:0] mem_addr, pcpi_insn, insn, pc_r, pc_w, rs1, rs2, mrd;
  assign mem_ready = mem_ready_i && !stall;
  assign mem_valid_o = mem_valid;
  assign mem_instr_o = mem_instr;
  assign mem_addr_o = mem_addr;
  /* verilator lint_off PINCONNECTEMPTY */
  picorv32 #(
    .ENABLE_PCPI(1), .ENABLE_MUL(0), .ENABLE_FAST_MUL(1), .ENABLE_DIV(1), .BARREL_SHIFTER(1),
    .COMPRESSED_ISA(0), .ENABLE_IRQ(0), .CATCH_MISALIGN(1), .CATCH_ILLINSN(1), .PROGADDR_RESET(32'h0000_0000)
  ) u_core (
    .clk(clk_i), .resetn(rst_ni), .trap(trap_o),
    .mem_valid(mem_valid), .mem_instr(mem_instr), .mem_ready(mem_ready), .mem_addr(mem_addr),
    .mem_wdata(mem_wdata_o), .mem_wstrb(mem_wstrb_o), .mem_rdata(mem_rdata_i),
    .mem_la_read(), .mem_la_write(), .mem_la_addr(), .mem_la_wdata(), .mem_la_wstrb(),
    .pcpi_valid(pcpi_valid), .pcpi_insn(pcpi_insn), .pcpi_rs1(), .pcpi_rs2(),
    .pcpi_wr(1'b0), .pcpi_rd(32'b0), .pcpi_wait(1'b0),
    .pcpi_ready(pcpi_valid && pcpi_insn[6:0] == 7'h0b && pcpi_insn[14:12] != 3'd7),
    .irq(32'b0), .eoi(),
    .rvfi_valid(rvfi_valid), .rvfi_order(), .rvfi_insn(insn), .rvfi_trap(), .rvfi_halt(), .rvfi_intr(),
    .rvfi_mode(), .rvfi_ixl(), .rvfi_rs1_addr(), .rvfi_rs2_addr(), .rvfi_rs1_rdata(rs1), .rvfi_rs2_rdata(rs2),
    .rvfi_rd_addr(), .rvfi_rd_wdata(), .rvfi_pc_rdata(pc_r), .rvfi_pc_wdata(pc_w), .rvfi_mem_addr(),
    .rvfi_mem_rmask(), .rvfi_mem_wmask(), .rvfi_mem_rdata(mrd), .rvfi_mem_wdata(),
    .rvfi_csr_mcycle_rmask(), .rvfi_csr_mcycle_wmask(), .rvfi_csr_mcycle_rdata(), .rvfi_csr_mcycle_wdata(),
    .rvfi_csr_minstret_rmask(), .rvfi_csr_minstret_wmask(), .rvfi_csr_minstret_rdata(), .rvfi_csr_minstret_wdata(),
    .trace_valid(), .trace_data()
  );
  /* verilator lint_on PINCONNECTEMPTY */
  hwprof_rvfi_adapter u_adapter (
    .clk_i, .rst_ni,
    .rvfi_valid_i(rvfi_valid), .rvfi_insn_i(insn), .rvfi_pc_rdata_i(pc_r), .rvfi_pc_wdata_i(pc_w),
    .rvfi_rs1_rdata_i(rs1), .rvfi_rs2_rdata_i(rs2), .rvfi_mem_rdata_i(mrd),
    .fetch_i(mem_valid && mem_instr && mem_ready), .fetch_addr_i(mem_addr), .fetch_shadow_i(mem_shadow_i),
    .ev_valid_o, .ev_ready_i, .ev_pc_o, .ev_next_pc_o, .ev_insn_o, .ev_kind_o, .ev_is_call_o, .ev_is_ret_o,
    .ev_taken_o, .ev_addr_o, .ev_value_o, .ev_pid_o, .ev_bhint_o, .ev_ihint_o, .ev_op_o, .ev_operand_o,
    .ev_trap_o, .stall_o(stall), .err_o
  );
endmodule
