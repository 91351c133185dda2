// hwprof_top: the hwprof profiling subsystem.
//
// Ports (docs/architecture.md, Interfaces): the retire-event port (valid/ready, one retired instruction per
// cycle), the APB3 register port (zero wait states, one window per engine selected by
// paddr[15:8]), the memory port of the profile cache (lines, valid/ready requests, responses),
// one level interrupt output per cause, and an observation port showing the update operations the
// pir generates (docs/architecture.md).
//
// Engines present: the profile information register and update-operation generation (seed 000,
// sections 6 and 7), the edge-profiling unit (update buffer, profile cache, overflow, trigger,
// overflowed-address buffer, bounds; seed 000 section 7, Figure 4), the trace controller
// (seed 002, Figures 5-7 and 10), and the value profiler (seed 001): its front end (filters,
// prescaler, sample buffer) and its microcoded co-processor. The value profiler never holds the
// retire port.
//
// Reset: synchronous, active low; every flop is reset.

`default_nettype none

module hwprof_top #(
  parameter int unsigned CntW      = hwprof_pkg::CNTW_DEFAULT,       // profile counter width in bits
  parameter int unsigned UpdDepth  = hwprof_pkg::UPDDEPTH_DEFAULT,   // update buffer entries
  parameter int unsigned Sets      = hwprof_pkg::SETS_DEFAULT,       // profile cache sets
  parameter int unsigned Ways      = hwprof_pkg::WAYS_DEFAULT,       // profile cache ways
  parameter int unsigned LineWords = hwprof_pkg::LINEWORDS_DEFAULT,  // counters per cache line
  parameter int unsigned OabDepth  = hwprof_pkg::OABDEPTH_DEFAULT,   // overflowed-address buffer entries
  parameter int unsigned HistW     = hwprof_pkg::HISTW_DEFAULT,      // trace branch history width
  parameter int unsigned TraceFifoDepth = hwprof_pkg::TFIFO_DEFAULT, // trace FIFO records
  parameter int unsigned UcDepth    = hwprof_pkg::UCDEPTH_DEFAULT,    // co-processor microcode words
  parameter int unsigned CamEntries = hwprof_pkg::CAMENTRIES_DEFAULT, // co-processor CAM entries
  parameter int unsigned DataBytes  = hwprof_pkg::DATABYTES_DEFAULT,  // co-processor data array bytes
  parameter int unsigned SbufWords  = hwprof_pkg::SBUFWORDS_DEFAULT,  // sample buffer words
  parameter int unsigned BitmaskBits = hwprof_pkg::BITMASKBITS_DEFAULT // PC bit-mask filter bits
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,

  // retire-event port (processor -> hwprof); the processor holds the event while ev_ready_o is low
  input  logic                                ev_valid_i,
  output logic                                ev_ready_o,
  input  logic [31:0]                         ev_pc_i,
  input  logic [31:0]                         ev_next_pc_i,
  input  logic [31:0]                         ev_insn_i,
  input  logic [2:0]                          ev_kind_i,
  input  logic                                ev_is_call_i,
  input  logic                                ev_is_ret_i,
  input  logic                                ev_taken_i,
  input  logic [31:0]                         ev_addr_i,
  input  logic [31:0]                         ev_value_i,
  input  logic [hwprof_pkg::EV_PID_W-1:0]     ev_pid_i,
  input  logic [1:0]                          ev_bhint_i,
  input  logic                                ev_ihint_i,
  input  logic [2:0]                          ev_op_i,
  input  logic [hwprof_pkg::EV_OPERAND_W-1:0] ev_operand_i,
  input  logic [1:0]                          ev_trap_i,     // TRAP_NONE / HANDLER / ENTRY (docs/retire-port.md)

  // APB3 register port
  input  logic                                psel_i,
  input  logic                                penable_i,
  input  logic                                pwrite_i,
  input  logic [hwprof_pkg::APB_ADDR_W-1:0]   paddr_i,
  input  logic [31:0]                         pwdata_i,
  output logic [31:0]                         prdata_o,
  output logic                                pready_o,
  output logic                                pslverr_o,

  // memory port of the profile cache (lines), shared with the path stack's spills
  output logic                                mem_req_valid_o,
  input  logic                                mem_req_ready_i,
  output logic                                mem_req_write_o,
  output logic [hwprof_pkg::PIR_BASE_W-1:0]   mem_req_addr_o,
  output logic [LineWords*CntW-1:0]           mem_req_wdata_o,
  input  logic                                mem_rsp_valid_i,
  input  logic [LineWords*CntW-1:0]           mem_rsp_rdata_i,

  // interrupts: pending & enable, one level per cause
  output logic                                irq_phase_o,
  output logic                                irq_trace_o,
  output logic                                irq_coproc_o,
  output logic                                irq_error_o,

  // observation: the update operations the pir generates (entering the update buffer)
  output logic                                upd_valid_o,
  output logic [hwprof_pkg::PIR_BASE_W-1:0]   upd_addr_o,
  output logic                                upd_dec_o
);

  localparam int unsigned WinW = hwprof_pkg::APB_ADDR_W - hwprof_pkg::WINDOW_SHIFT;

  // ---- APB window decode
  logic            apb_access;
  logic [WinW-1:0] window;
  logic            top_sel, pir_sel, ep_sel, tc_sel, vpf_sel, cop_sel;

  assign apb_access = psel_i && penable_i;
  assign window     = paddr_i[hwprof_pkg::APB_ADDR_W-1:hwprof_pkg::WINDOW_SHIFT];
  assign top_sel    = apb_access && (window == hwprof_pkg::TOP_WINDOW);
  assign pir_sel    = apb_access && (window == hwprof_pkg::PIR_WINDOW);
  assign ep_sel     = apb_access && (window == hwprof_pkg::EDGE_PROF_WINDOW);
  assign tc_sel     = apb_access && (window == hwprof_pkg::TRACE_CTRL_WINDOW);
  // the value profiler's blocks span several windows
  assign vpf_sel    = apb_access && (window >= hwprof_pkg::VPF_WINDOW) &&
                      (32'(window) < 32'(hwprof_pkg::VPF_WINDOW) + hwprof_pkg::VPF_WINDOWS);
  assign cop_sel    = apb_access && (window >= hwprof_pkg::COP_WINDOW) &&
                      (32'(window) < 32'(hwprof_pkg::COP_WINDOW) + hwprof_pkg::COP_WINDOWS);

  // A register write to the pir window holds the retire port and the profile cache for its one
  // access cycle, so neither an instruction nor an overflow races the write for a pir field.
  // An event that would generate an update also waits while the update buffer has no room:
  // no update is ever dropped.
  // An event whose path-stack entry must first be spilled to or filled from memory waits for it.
  logic pir_write, upd_req, upd_space, path_stall;
  assign pir_write  = pir_sel && pwrite_i;
  assign ev_ready_o = !pir_write && (!upd_req || upd_space) && !path_stall;

  logic ev_fire;
  assign ev_fire = ev_valid_i && ev_ready_o;

  // ---- the build parameters must be ones regs/encodings.json allows (generated check; it holds no logic)
  hwprof_param_check #(
    .CntW           (CntW),
    .UpdDepth       (UpdDepth),
    .Sets           (Sets),
    .Ways           (Ways),
    .LineWords      (LineWords),
    .OabDepth       (OabDepth),
    .HistW          (HistW),
    .TraceFifoDepth (TraceFifoDepth),
    .UcDepth        (UcDepth),
    .CamEntries     (CamEntries),
    .DataBytes      (DataBytes),
    .SbufWords      (SbufWords),
    .BitmaskBits    (BitmaskBits)
  ) u_cfg_check ();

  // ---- the top window: identification and interrupts (rtl/top/autogen/hwprof_top_reg.sv, generated from
  // regs/top.json, holds ID, VERSION, IRQ_PENDING and IRQ_ENABLE; CFG_* show the parameters)
  hwprof_pkg::top_hw2reg_t top_hw2reg;
  hwprof_pkg::top_reg2hw_t top_reg2hw;
  logic [31:0]             top_rdata;
  logic                    top_error;
  logic                    phase, drop, trace_irq, cop_irq;

  always_comb begin
    top_hw2reg = '0;
    // a cause raised in the clearing cycle stays pending
    top_hw2reg.irq_pending_phase_set  = phase;
    top_hw2reg.irq_pending_trace_set  = trace_irq;
    top_hw2reg.irq_pending_coproc_set = cop_irq;
    top_hw2reg.irq_pending_error_set  = drop;
    // the build parameters, readable so that software can check its arguments against them
    top_hw2reg.cfg_edge_cntw          = 8'(CntW);
    top_hw2reg.cfg_edge_upd_depth     = 8'(UpdDepth);
    top_hw2reg.cfg_edge_oab_depth     = 8'(OabDepth);
    top_hw2reg.cfg_cache_sets         = 8'(Sets);
    top_hw2reg.cfg_cache_ways         = 8'(Ways);
    top_hw2reg.cfg_cache_line_words   = 8'(LineWords);
    top_hw2reg.cfg_trace_hist_w       = 8'(HistW);
    top_hw2reg.cfg_trace_fifo_depth   = 8'(TraceFifoDepth);
  end

  hwprof_top_reg u_top_reg (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .reg_access_i (top_sel),
    .reg_write_i  (pwrite_i),
    .reg_addr_i   (paddr_i),
    .reg_wdata_i  (pwdata_i),
    .reg_rdata_o  (top_rdata),
    .reg_error_o  (top_error),
    .hw2reg_i     (top_hw2reg),
    .reg2hw_o     (top_reg2hw)
  );

  assign irq_phase_o  = top_reg2hw.irq_pending_phase  & top_reg2hw.irq_enable_phase;
  assign irq_trace_o  = top_reg2hw.irq_pending_trace  & top_reg2hw.irq_enable_trace;
  assign irq_coproc_o = top_reg2hw.irq_pending_coproc & top_reg2hw.irq_enable_coproc;
  assign irq_error_o  = top_reg2hw.irq_pending_error  & top_reg2hw.irq_enable_error;

  // ---- engines
  logic [31:0] pir_rdata, ep_rdata, tc_rdata;
  logic        pir_error, ep_error, tc_error;
  logic        ovf, unf;
  logic        upd_valid, upd_dec;
  logic [hwprof_pkg::PIR_BASE_W-1:0] upd_addr;

  // ---- the memory port: the profile cache's, lent to the pir's path and link stacks (docs/path.md,
  // docs/pir.md). The pir is granted the port in a cycle when the cache presents no request and waits for no read; from
  // the next cycle its request is presented, and the cache's held back, until it is accepted and,
  // for a read, answered (so at most one read is ever outstanding and a held request never changes).
  logic                               ep_req_valid, ep_req_write, ep_rd_wait;
  logic [hwprof_pkg::PIR_BASE_W-1:0]  ep_req_addr;
  logic [LineWords*CntW-1:0]          ep_req_wdata;
  logic                               ps_want, ps_grant, ps_busy, ps_req_valid, ps_req_write;
  logic [hwprof_pkg::PIR_BASE_W-1:0]  ps_req_addr;
  logic [LineWords*CntW-1:0]          ps_req_wdata;
  assign ps_grant        = ps_want && !ep_req_valid && !ep_rd_wait;
  assign mem_req_valid_o = ps_req_valid || (!ps_busy && ep_req_valid);
  assign mem_req_write_o = ps_req_valid ? ps_req_write : (!ps_busy && ep_req_write);
  assign mem_req_addr_o  = ps_req_valid ? ps_req_addr : (ps_busy ? '0 : ep_req_addr);
  assign mem_req_wdata_o = ps_req_valid ? ps_req_wdata : (ps_busy ? '0 : ep_req_wdata);

  hwprof_pir #(
    .CntW      (CntW),
    .LineWords (LineWords)
  ) u_pir (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .ev_valid_i   (ev_valid_i),
    .ev_fire_i    (ev_fire),
    .ev_kind_i    (ev_kind_i),
    .ev_is_call_i (ev_is_call_i),
    .ev_is_ret_i  (ev_is_ret_i),
    .ev_taken_i   (ev_taken_i),
    .ev_pid_i     (ev_pid_i),
    .ev_bhint_i   (ev_bhint_i),
    .ev_ihint_i   (ev_ihint_i),
    .ev_op_i      (ev_op_i),
    .ev_operand_i (ev_operand_i),
    .ev_trap_i    (ev_trap_i),
    .upd_req_o    (upd_req),
    .stall_o      (path_stall),
    .ovf_i        (ovf),
    .unf_i        (unf),
    .phase_o      (phase),
    .reg_access_i (pir_sel),
    .reg_write_i  (pwrite_i),
    .reg_addr_i   (paddr_i),
    .reg_wdata_i  (pwdata_i),
    .reg_rdata_o  (pir_rdata),
    .reg_error_o  (pir_error),
    .upd_valid_o  (upd_valid),
    .upd_addr_o   (upd_addr),
    .upd_dec_o    (upd_dec),
    .mem_want_o      (ps_want),
    .mem_grant_i     (ps_grant),
    .mem_busy_o      (ps_busy),
    .mem_req_valid_o (ps_req_valid),
    .mem_req_ready_i (mem_req_ready_i),
    .mem_req_write_o (ps_req_write),
    .mem_req_addr_o  (ps_req_addr),
    .mem_req_wdata_o (ps_req_wdata),
    .mem_rsp_valid_i (mem_rsp_valid_i && ps_busy),
    .mem_rsp_rdata_i (mem_rsp_rdata_i)
  );

  hwprof_edge_prof #(
    .CntW      (CntW),
    .UpdDepth  (UpdDepth),
    .Sets      (Sets),
    .Ways      (Ways),
    .LineWords (LineWords),
    .OabDepth  (OabDepth)
  ) u_edge_prof (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .upd_valid_i     (upd_valid),
    .upd_addr_i      (upd_addr),
    .upd_dec_i       (upd_dec),
    .upd_space_o     (upd_space),
    .ev_stall_i      (ev_valid_i && !ev_ready_o),
    .hold_i          (pir_write),
    .ovf_o           (ovf),
    .unf_o           (unf),
    .drop_o          (drop),
    .reg_access_i    (ep_sel),
    .reg_write_i     (pwrite_i),
    .reg_addr_i      (paddr_i),
    .reg_wdata_i     (pwdata_i),
    .reg_rdata_o     (ep_rdata),
    .reg_error_o     (ep_error),
    .mem_req_valid_o (ep_req_valid),
    .mem_req_ready_i (mem_req_ready_i && !ps_busy),
    .mem_req_write_o (ep_req_write),
    .mem_req_addr_o  (ep_req_addr),
    .mem_req_wdata_o (ep_req_wdata),
    .mem_rsp_valid_i (mem_rsp_valid_i && !ps_busy),
    .mem_rsp_rdata_i (mem_rsp_rdata_i),
    .mem_rd_wait_o   (ep_rd_wait)
  );

  hwprof_trace_ctrl #(
    .HistW     (HistW),
    .FifoDepth (TraceFifoDepth)
  ) u_trace_ctrl (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .ev_fire_i    (ev_fire),
    .ev_kind_i    (ev_kind_i),
    .ev_taken_i   (ev_taken_i),
    .ev_pc_i      (ev_pc_i),
    .ev_next_pc_i (ev_next_pc_i),
    .ev_trap_i    (ev_trap_i),
    .reg_access_i (tc_sel),
    .reg_write_i  (pwrite_i),
    .reg_addr_i   (paddr_i),
    .reg_wdata_i  (pwdata_i),
    .reg_rdata_o  (tc_rdata),
    .reg_error_o  (tc_error),
    .irq_o        (trace_irq)
  );

  // ---- the value profiler: front end (filters, prescaler, sample buffer) and co-processor
  logic [31:0] vpf_rdata, cop_rdata;
  logic        vpf_error, cop_error;
  logic        smp_valid, smp_pop;
  logic [31:0] smp_pc, smp_npc, smp_insn, smp_addr, smp_value;
  logic [5:0]  smp_info;

  hwprof_vpf #(
    .SbufWords   (SbufWords),
    .BitmaskBits (BitmaskBits)
  ) u_vpf (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .ev_fire_i    (ev_fire),
    .ev_kind_i    (ev_kind_i),
    .ev_taken_i   (ev_taken_i),
    .ev_is_call_i (ev_is_call_i),
    .ev_is_ret_i  (ev_is_ret_i),
    .ev_pc_i      (ev_pc_i),
    .ev_next_pc_i (ev_next_pc_i),
    .ev_insn_i    (ev_insn_i),
    .ev_addr_i    (ev_addr_i),
    .ev_value_i   (ev_value_i),
    .smp_valid_o  (smp_valid),
    .smp_pc_o     (smp_pc),
    .smp_npc_o    (smp_npc),
    .smp_insn_o   (smp_insn),
    .smp_addr_o   (smp_addr),
    .smp_value_o  (smp_value),
    .smp_info_o   (smp_info),
    .smp_pop_i    (smp_pop),
    .reg_access_i (vpf_sel),
    .reg_write_i  (pwrite_i),
    .reg_addr_i   (paddr_i),
    .reg_wdata_i  (pwdata_i),
    .reg_rdata_o  (vpf_rdata),
    .reg_error_o  (vpf_error)
  );

  hwprof_cop #(
    .UcDepth    (UcDepth),
    .CamEntries (CamEntries),
    .DataBytes  (DataBytes)
  ) u_cop (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .smp_valid_i  (smp_valid),
    .smp_pc_i     (smp_pc),
    .smp_npc_i    (smp_npc),
    .smp_insn_i   (smp_insn),
    .smp_addr_i   (smp_addr),
    .smp_value_i  (smp_value),
    .smp_info_i   (smp_info),
    .smp_pop_o    (smp_pop),
    .reg_access_i (cop_sel),
    .reg_write_i  (pwrite_i),
    .reg_addr_i   (paddr_i),
    .reg_wdata_i  (pwdata_i),
    .reg_rdata_o  (cop_rdata),
    .reg_error_o  (cop_error),
    .irq_o        (cop_irq)
  );

  assign upd_valid_o = upd_valid;
  assign upd_addr_o  = upd_addr;
  assign upd_dec_o   = upd_dec;

  // ---- APB response: zero wait states; an address outside every window is an error
  logic unmapped;
  assign unmapped = apb_access && !top_sel && !pir_sel && !ep_sel && !tc_sel && !vpf_sel && !cop_sel;

  assign pready_o  = 1'b1;
  assign pslverr_o = top_error || pir_error || ep_error || tc_error || vpf_error || cop_error || unmapped;
  assign prdata_o  = top_rdata | pir_rdata | ep_rdata | tc_rdata | vpf_rdata | cop_rdata;

endmodule

`default_nettype wire
