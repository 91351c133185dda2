// hwprof_pico_cpu: picorv32 (unmodified, from the pythondata-cpu-picorv32 package; RISCV_FORMAL
// defined, so its RVFI port exists) in the one configuration the picorv32 platform uses, for the
// system (hwprof_pico_sys.sv) and the synthesis tops (synth/pico_synth.sv): RV32IM with its faster
// options (fast multiplier, divider, barrel shifter), no compressed code, the profiling instructions
// (custom-1) answered as no-ops on its co-processor port (prof.* with funct3 7, reserved, are not
// answered: the core takes them as illegal), starting at 0. Its own counter instructions are off
// (ENABLE_COUNTERS 0): every CSR instruction, like any other it does not know, is offered on the
// co-processor port, whose other answers come from outside (pcpi_*: the platform's CSRs and
// semihosting, sim/pico/pico_csr.h; tied off in the synthesis tops).
//
// Interrupts: picorv32's own (its custom-0 instructions: retirq, maskirq, getq/setq and the q
// registers, which keep the interrupted pc in q0), taken at IrqVector. Two lines, both
// level-sensitive (not latched) so that a line the handler has cleared does not interrupt again:
// irq_i[11], the external interrupt (hwprof's outputs, as mip.MEIP on the CPU model), and irq_i[7],
// the timer (mip.MTIP); every other line is masked for good, so an ebreak or an illegal instruction
// still stops the core (trap_o). Lines 7 and 11 are masked at reset, until a maskirq unmasks them.
// eoi_o: the lines the handler running was entered for (0 outside a handler).
//
// Out: its native memory interface and the RVFI fields the RVFI adapter reads.
module hwprof_pico_cpu #(
  parameter logic [31:0] IrqVector = 32'h7fff_fff0
) (
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
  input  logic [31:0] irq_i,
  output logic [31:0] eoi_o,
  output logic        pcpi_valid_o,  // the co-processor port: an instruction the core does not know
  output logic [31:0] pcpi_insn_o,
  output logic [31:0] pcpi_rs1_o,
  output logic [31:0] pcpi_rs2_o,
  input  logic        pcpi_ready_i,  // ... answered from outside (not prof.*: those are answered here)
  input  logic        pcpi_wait_i,   //     or to be answered later (no timeout meanwhile)
  input  logic        pcpi_wr_i,
  input  logic [31:0] pcpi_rd_i,
  output logic        rvfi_valid_o,
  output logic        rvfi_intr_o,
  output logic [31:0] rvfi_insn_o,
  output logic [31:0] rvfi_pc_rdata_o,
  output logic [31:0] rvfi_pc_wdata_o,
  output logic [31:0] rvfi_rs1_rdata_o,
  output logic [31:0] rvfi_rs2_rdata_o,
  output logic [31:0] rvfi_mem_rdata_o
);
  localparam logic [31:0] IrqLines = 32'h0000_0880;  // 11 (external) and 7 (timer)
  logic prof;  // a prof.* offered: completes as a no-op
  assign prof = pcpi_valid_o && pcpi_insn_o[6:0] == 7'(hwprof_pkg::OPCODE_PROF) && pcpi_insn_o[14:12] != 3'd7;
  /* verilator lint_off PINCONNECTEMPTY */
  picorv32 #(
    .ENABLE_COUNTERS(0), .ENABLE_PCPI(1), .ENABLE_MUL(0), .ENABLE_FAST_MUL(1), .ENABLE_DIV(1), .BARREL_SHIFTER(1),
    .COMPRESSED_ISA(0), .ENABLE_IRQ(1), .ENABLE_IRQ_QREGS(1), .ENABLE_IRQ_TIMER(0),
    .MASKED_IRQ(~IrqLines), .LATCHED_IRQ(32'h0000_0000),
    .CATCH_MISALIGN(1), .CATCH_ILLINSN(1), .PROGADDR_RESET(32'h0000_0000), .PROGADDR_IRQ(IrqVector)
  ) u_core (
    .clk(clk_i), .resetn(rst_ni), .trap(trap_o),
    .mem_valid(mem_valid_o), .mem_instr(mem_instr_o), .mem_ready(mem_ready_i), .mem_addr(mem_addr_o),
    .mem_wdata(mem_wdata_o), .mem_wstrb(mem_wstrb_o), .mem_rdata(mem_rdata_i),
    .mem_la_read(), .mem_la_write(), .mem_la_addr(), .mem_la_wdata(), .mem_la_wstrb(),
    .pcpi_valid(pcpi_valid_o), .pcpi_insn(pcpi_insn_o), .pcpi_rs1(pcpi_rs1_o), .pcpi_rs2(pcpi_rs2_o),
    .pcpi_wr(!prof && pcpi_wr_i), .pcpi_rd(pcpi_rd_i), .pcpi_wait(!prof && pcpi_wait_i),
    .pcpi_ready(prof || pcpi_ready_i),
    .irq(irq_i & IrqLines), .eoi(eoi_o),
    .rvfi_valid(rvfi_valid_o), .rvfi_order(), .rvfi_insn(rvfi_insn_o), .rvfi_trap(), .rvfi_halt(), .rvfi_intr(rvfi_intr_o),
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
