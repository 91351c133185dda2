// hwprof_trace_ctrl: trace collection hardware.
//
// Seed 002 (Bala, profiling of non-instrumented programs; Figures 5, 6, 7 and 10): a trace is the
// dynamic path from a start address to a trace termination condition, encoded as the start address
// and a branch history: the outcomes of the trace's conditional direct branches, shifted in at the
// bottom above a marker 1 that says where the valid bits begin. docs/architecture.md and
// docs/trace_ctrl.md fix the rules the seed leaves open:
//   - a conditional direct branch shifts its outcome into the current history;
//   - a taken backward branch or jump (next_pc <= pc), any indirect jump (returns included) and a
//     full history (the marker reaching the top bit) end the trace; the outcome of a taken backward
//     branch that ends a trace is implied, not shifted;
//   - ending a trace copies it to the last-trace registers if it is collected (address-range
//     filter), and to the FIFO in FIFO mode if it is also sampled (sampling counter), then starts
//     a new trace at next_pc with the history reset to the marker;
//   - traces are paths of the program, never of a trap handler: an event retired inside a handler
//     (ev_trap_i HANDLER) is ignored, so the trace an interrupt cut resumes where the program does;
//     an instruction that traps (ENTRY) ends its trace, and the next trace starts at the program's
//     first instruction after the handler (START_PENDING until then).
// Traces are samples: the controller never stalls the processor; a full FIFO drops and counts.
//
// Timing: an accepted retire event changes the state at the next clock edge. irq_o pulses in the
// cycle of the event that samples a trace; in FIFO mode it is instead high in every cycle in which
// the FIFO holds at least the watermark. A register write of the same cycle wins over the event's
// change to the same register.
//
// Reset: synchronous, active low; every flop is reset.

`default_nettype none

module hwprof_trace_ctrl #(
  parameter int unsigned HistW     = hwprof_pkg::HISTW_DEFAULT,  // branch history width, 2..32 (marker included)
  parameter int unsigned FifoDepth = hwprof_pkg::TFIFO_DEFAULT   // FIFO records, 1..128
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,

  // accepted retire event
  input  logic                              ev_fire_i,
  input  logic [2:0]                        ev_kind_i,
  input  logic                              ev_taken_i,
  input  logic [31:0]                       ev_pc_i,
  input  logic [31:0]                       ev_next_pc_i,
  input  logic [1:0]                        ev_trap_i,     // TRAP_NONE / HANDLER / ENTRY

  // register window
  input  logic                              reg_access_i,
  input  logic                              reg_write_i,
  input  logic [hwprof_pkg::APB_ADDR_W-1:0] reg_addr_i,
  input  logic [31:0]                       reg_wdata_i,
  output logic [31:0]                       reg_rdata_o,
  output logic                              reg_error_o,

  output logic                              irq_o  // a trace was sampled / the watermark reached
);

  localparam logic [HistW-1:0] Marker = HistW'(1);

  // ---- register block (rtl/trace_ctrl/autogen/hwprof_trace_ctrl_reg.sv, generated from regs/trace_ctrl.json): it
  // holds CTRL, RANGE_LO/HI and SAMPLE_RELOAD; this block holds what the hardware also writes
  hwprof_pkg::trace_ctrl_hw2reg_t hw2reg;
  hwprof_pkg::trace_ctrl_reg2hw_t reg2hw;

  // ---- state
  logic [31:0]      cur_start_q, cur_start_d, last_start_q, last_start_d;
  logic [HistW-1:0] cur_hist_q, cur_hist_d, last_hist_q, last_hist_d;
  logic [15:0]      count_q, count_d;
  logic             pending_q, pending_d;  // a trap entry ended the last trace: the next starts at the program's next pc
  logic [7:0]       fifo_count;  // records in the FIFO (rtl/prim/hwprof_prim_fifo.sv, below)
  logic             fifo_full;
  // statistics: a bank of event counters (hwprof_prim_counters, below), one increment bit each
  localparam int unsigned StBack = 0, StInd = 1, StFull = 2, StFilt = 3, StSamp = 4, StDrop = 5, StN = 6;
  logic [StN-1:0]    st_inc;
  logic [StN*32-1:0] st_count;

  // configuration, from the register block
  logic        cfg_enable, cfg_fifo_mode, cfg_sample_en, cfg_filter_en;
  logic [7:0]  cfg_watermark;
  logic [31:0] cfg_range_lo, cfg_range_hi;
  logic [15:0] cfg_reload;
  assign cfg_enable    = reg2hw.ctrl_enable;
  assign cfg_fifo_mode = reg2hw.ctrl_fifo_mode;
  assign cfg_sample_en = reg2hw.ctrl_sample_en;
  assign cfg_filter_en = reg2hw.ctrl_filter_en;
  assign cfg_watermark = reg2hw.ctrl_watermark;
  assign cfg_range_lo  = reg2hw.range_lo_value;
  assign cfg_range_hi  = reg2hw.range_hi_value;
  assign cfg_reload    = reg2hw.sample_reload_value;

  // ---- trace termination (docs/trace_ctrl.md)
  logic             active, handler, entry, is_branch, is_jump, is_ijump, backward, shift, full, end_trace;
  logic [31:0]      start;  // the current trace's start address
  logic [HistW-1:0] hist_shifted, ended_hist;
  logic             in_range, collected, sampled, push, push_ok;

  assign handler      = ev_trap_i[0];  // HANDLER, and the reserved 3
  assign entry        = ev_trap_i == hwprof_pkg::TRAP_ENTRY;
  assign active       = cfg_enable && ev_fire_i && !handler;
  assign start        = (pending_q && active) ? ev_pc_i : cur_start_q;
  assign is_branch    = ev_kind_i == hwprof_pkg::KIND_BRANCH;
  assign is_jump      = ev_kind_i == hwprof_pkg::KIND_JUMP;
  assign is_ijump     = ev_kind_i == hwprof_pkg::KIND_IJUMP;
  assign backward     = ((is_branch && ev_taken_i) || is_jump) && (ev_next_pc_i <= ev_pc_i) && !entry;
  assign hist_shifted = {cur_hist_q[HistW-2:0], ev_taken_i};
  assign shift        = active && is_branch && !backward && !entry;
  assign full         = shift && hist_shifted[HistW-1];
  assign end_trace    = active && (backward || is_ijump || full || entry);
  assign ended_hist   = full ? hist_shifted : cur_hist_q;
  assign in_range     = !cfg_filter_en || ((start >= cfg_range_lo) && (start < cfg_range_hi));
  assign collected    = end_trace && in_range;
  assign sampled      = collected && (!cfg_sample_en || (count_q <= 16'd1));
  assign push         = sampled && cfg_fifo_mode;
  assign push_ok      = push && !fifo_full;

  // ---- the FIFO of finished traces: {start, history} records; pop and clear act before the push
  // of the same cycle, fullness is judged before them. Its head is read through FIFO_START/HIST.
  logic             pop, clear;
  logic [31:0]      head_start;
  logic [HistW-1:0] head_hist;

  hwprof_prim_fifo #(
    .Width     (32 + HistW),
    .Depth     (FifoDepth),
    .Overwrite (1'b0),
    .IdxRead   (1'b0)
  ) u_fifo (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .pop_i   (pop),
    .clr_i   (clear),
    .push_i  (push_ok),
    .wdata_i ({start, ended_hist}),
    .rdata_o ({head_start, head_hist}),
    .idx_i   (8'd0),  // records are read at the head only
    .idx_rdata_o (),
    .count_o (fifo_count),
    .full_o  (fifo_full)
  );

  always_comb begin
    hw2reg = '0;
    hw2reg.status_fifo_count       = fifo_count;
    hw2reg.status_start_pending    = pending_q;
    hw2reg.cur_start_value         = cur_start_q;
    hw2reg.cur_hist_value          = 32'(cur_hist_q);
    hw2reg.last_start_value        = last_start_q;
    hw2reg.last_hist_value         = 32'(last_hist_q);
    hw2reg.sample_count_value      = count_q;
    hw2reg.fifo_start_value        = head_start;
    hw2reg.fifo_hist_value         = 32'(head_hist);
    hw2reg.stat_end_backward_value = st_count[StBack*32 +: 32];
    hw2reg.stat_end_indirect_value = st_count[StInd*32 +: 32];
    hw2reg.stat_end_full_value     = st_count[StFull*32 +: 32];
    hw2reg.stat_filtered_value     = st_count[StFilt*32 +: 32];
    hw2reg.stat_sampled_value      = st_count[StSamp*32 +: 32];
    hw2reg.stat_dropped_value      = st_count[StDrop*32 +: 32];
  end

  hwprof_trace_ctrl_reg u_reg (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .reg_access_i (reg_access_i),
    .reg_write_i  (reg_write_i),
    .reg_addr_i   (reg_addr_i),
    .reg_wdata_i  (reg_wdata_i),
    .reg_rdata_o  (reg_rdata_o),
    .reg_error_o  (reg_error_o),
    .hw2reg_i     (hw2reg),
    .reg2hw_o     (reg2hw)
  );

  assign pop   = reg2hw.fifo_ctrl_qe && reg2hw.fifo_ctrl_pop && (fifo_count != '0);
  assign clear = reg2hw.fifo_ctrl_qe && reg2hw.fifo_ctrl_clear;

  // the history registers are HistW wide; the bits above read 0 and ignore writes
  logic unused_hist_bits;
  assign unused_hist_bits = ^{reg2hw.cur_hist_value, reg2hw.last_hist_value};

  // ---- next state
  logic [7:0] watermark_eff;

  always_comb begin
    cur_start_d = cur_start_q;
    cur_hist_d  = cur_hist_q;
    last_start_d = last_start_q;
    last_hist_d  = last_hist_q;
    count_d     = count_q;
    pending_d   = pending_q;

    // the trace
    if (active) begin
      cur_start_d = start;
      pending_d   = 1'b0;
    end
    if (end_trace) begin
      cur_start_d = ev_next_pc_i;
      cur_hist_d  = Marker;
      pending_d   = entry;
    end else if (shift) begin
      cur_hist_d = hist_shifted;
    end
    if (collected && cfg_sample_en) count_d = (count_q <= 16'd1) ? cfg_reload : count_q - 16'd1;
    if (collected) begin
      last_start_d = start;
      last_hist_d  = ended_hist;
    end

    // register writes win over the event's change to the same register
    if (reg2hw.cur_start_qe) begin
      cur_start_d = reg2hw.cur_start_value;
      pending_d   = 1'b0;
    end
    if (reg2hw.cur_hist_qe)     cur_hist_d   = reg2hw.cur_hist_value[HistW-1:0];
    if (reg2hw.last_start_qe)   last_start_d = reg2hw.last_start_value;
    if (reg2hw.last_hist_qe)    last_hist_d  = reg2hw.last_hist_value[HistW-1:0];
    if (reg2hw.sample_count_qe) count_d      = reg2hw.sample_count_value;
  end

  // the statistics, one event each
  assign st_inc[StBack] = end_trace && backward;
  assign st_inc[StInd]  = end_trace && (is_ijump || entry);
  assign st_inc[StFull] = full;
  assign st_inc[StFilt] = end_trace && !in_range;
  assign st_inc[StSamp] = sampled;
  assign st_inc[StDrop] = push && !push_ok;
  hwprof_prim_counters #(
    .N (StN),
    .W (32)
  ) u_stats (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .inc_i   (st_inc),
    .clr_i   (1'b0),
    .wr_i    ({reg2hw.stat_dropped_qe, reg2hw.stat_sampled_qe, reg2hw.stat_filtered_qe, reg2hw.stat_end_full_qe,
               reg2hw.stat_end_indirect_qe, reg2hw.stat_end_backward_qe}),
    .wdata_i (reg2hw.stat_end_backward_value),  // every register's value is the write data
    .count_o (st_count)
  );
  // the other statistics registers' values are the same write data as STAT_END_BACKWARD's
  logic unused_stat_wdata;
  assign unused_stat_wdata = ^{reg2hw.stat_end_indirect_value, reg2hw.stat_end_full_value,
                              reg2hw.stat_filtered_value, reg2hw.stat_sampled_value, reg2hw.stat_dropped_value};

  // FIFO mode: a level, asserted while the FIFO holds at least the watermark, so that an
  // acknowledgement only sticks once software has drained it below (a push-triggered pulse would
  // be lost for good if the FIFO filled while the handler ran)
  assign watermark_eff = (cfg_watermark == '0) ? 8'd1 : cfg_watermark;
  assign irq_o = (sampled && !cfg_fifo_mode) || (cfg_fifo_mode && (fifo_count >= watermark_eff));

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cur_start_q  <= '0;
      cur_hist_q   <= Marker;
      last_start_q <= '0;
      last_hist_q  <= '0;
      count_q      <= '0;
      pending_q    <= 1'b0;
    end else begin
      cur_start_q  <= cur_start_d;
      cur_hist_q   <= cur_hist_d;
      last_start_q <= last_start_d;
      last_hist_q  <= last_hist_d;
      count_q      <= count_d;
      pending_q    <= pending_d;
    end
  end

`ifndef SYNTHESIS
  // sampled at the clock edge (the FIFO primitive checks its own pointers and use)
  always @(posedge clk_i) begin
    if (rst_ni) assert (!(end_trace && !cfg_enable));  // a trace ends only while enabled
  end
`endif

  if ((HistW < 2) || (HistW > 32)) begin : g_hist_check
    $error("HistW must be 2..32");
  end
  if ((FifoDepth < 1) || (FifoDepth > 128)) begin : g_fifo_check
    $error("FifoDepth must be 1..128");
  end

endmodule

`default_nettype wire
