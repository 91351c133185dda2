// hwprof_pico_cpu: picorv32 (unmodified, from the pythondata-cpu-picorv32 package; RISCV_FORMAL
// defined, so its RVFI port exists) in the one configuration the picorv32 platform uses, for the
// system (hwprof_pico_sys.sv) and the synthesis tops (synth/pico_synth.sv): RV32IM with its faster
// options (fast multiplier, divider, barrel shifter), no compressed code, no interrupts, the
// profiling instructions (custom-1) answered as no-ops on its co-processor port (prof.* with funct3
// 7, reserved, are not answered: the core takes them as illegal), starting at 0. Out: its native
// memory interface and the RVFI fields the RVFI adapter reads.
module hwprof_pico_cpu (
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
  output logic [31:0] rvfi_insn_o,
  output logic [31:0] rvfi_pc_rdata_o,
  output logic [31:0] rvfi_pc_wdata_o,
  output logic [31:0] rvfi_rs1_rdata_o,
  output logic [31:0] rvfi_rs2_rdata_o,
  output logic [31:0] rvfi_mem_rdata_o
);
  logic        pcpi_valid;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] pcpi_insn;  // only its opcode and funct3 decide (every prof.* completes as a no-op)
  /* verilator lint_on UNUSEDSIGNAL */
  /* verilator lint_off PINCONNECTEMPTY */
  picorv32 #(
    .ENABLE_PCPI(1), .ENABLE_MUL(0), .ENABLE_FAST_MUL(1), .ENABLE_DIV(1), .BARREL_SHIFTER(1),
    .COMPRESSED_ISA(0), .ENABLE_IRQ(0),
    .CATCH_MISALIGN(1), .CATCH_ILLINSN(1), .PROGADDR_RESET(32'h0000_0000)
  ) u_core (
    .clk(clk_i), .resetn(rst_ni), .trap(trap_o),
    .mem_valid(mem_valid_o), .mem_instr(mem_instr_o), .mem_ready(mem_ready_i), .mem_addr(mem_addr_o),
    .mem_wdata(mem_wdata_o), .mem_wstrb(mem_wstrb_o), .mem_rdata(mem_rdata_i),
    .mem_la_read(), .mem_la_write(), .mem_la_addr(), .mem_la_wdata(), .mem_la_wstrb(),
    .pcpi_valid(pcpi_valid), .pcpi_insn(pcpi_insn), .pcpi_rs1(), .pcpi_rs2(),
    .pcpi_wr(1'b0), .pcpi_rd(32'b0), .pcpi_wait(1'b0),
    .pcpi_ready(pcpi_valid && pcpi_insn[6:0] == 7'(hwprof_pkg::OPCODE_PROF) && pcpi_insn[14:12] != 3'd7),
    .irq(32'b0), .eoi(),
    .rvfi_valid(rvfi_valid_o), .rvfi_order(), .rvfi_insn(rvfi_insn_o), .rvfi_trap(), .rvfi_halt(), .rvfi_intr(),
    .rvfi_mode(), .rvfi_ixl(), .rvfi_rs1_addr(), .rvfi_rs2_addr(), .rvfi_rs1_rdata(rvfi_rs1_rdata_o),
    .rvfi_rs2_rdata(rvfi_rs2_rdata_o), .rvfi_rd_addr(), .rvfi_rd_wdata(), .rvfi_pc_rdata(rvfi_pc_rdata_o),
    .rvfi_pc_wdata(rvfi_pc_wdata_o), .rvfi_mem_addr(), .rvfi_mem_rmask(), .rvfi_mem_wmask(),
    .rvfi_mem_rdata(rvfi_mem_rdata_o), .rvfi_mem_wdata(),
    .rvfi_csr_mcycle_rmask(), .rvfi_csr_mcycle_wmask(), .rvfi_csr_mcycle_rdata(), .rvfi_csr_mcycle_wdata(),
    .rvfi_csr_minstret_rmask(), .rvfi_csr_minstret_wmask(), .rvfi_csr_minstret_rdata(), .rvfi_csr_minstret_wdata(),
    .trace_valid(), .trace_data()
  );
  /* verilator lint_on PINCONNECTEMPTY */
endmodule
