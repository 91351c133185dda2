// hwprof_trace_ctrl: trace collection hardware.
//
// Seed 002 (Bala, profiling of non-instrumented programs; Figures 5, 6, 7 and 10): a trace is the
// dynamic path from a start address to a trace termination condition, encoded as the start address
// and a branch history: the outcomes of the trace's conditional direct branches, shifted in at the
// bottom above a marker 1 that says where the valid bits begin. DESIGN.md section 5 and
// docs/trace-ctrl.md fix the rules the seed leaves open:
//   - a conditional direct branch shifts its outcome into the current history;
//   - a taken backward branch or jump (next_pc <= pc), any indirect jump (returns included) and a
//     full history (the marker reaching the top bit) end the trace; the outcome of a taken backward
//     branch that ends a trace is implied, not shifted;
//   - ending a trace copies it to the last-trace registers (and to the FIFO in FIFO mode) if it is
//     collected (address-range filter) and sampled (sampling counter), then starts a new trace at
//     next_pc with the history reset to the marker.
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
  parameter int unsigned HistW     = 32,  // branch history width, 2..32 (marker included)
  parameter int unsigned FifoDepth = 8    // FIFO records, 1..128
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,

  // accepted retire event
  input  logic                              ev_fire_i,
  input  logic [2:0]                        ev_kind_i,
  input  logic                              ev_taken_i,
  input  logic [31:0]                       ev_pc_i,
  input  logic [31:0]                       ev_next_pc_i,

  // register window
  input  logic                              reg_access_i,
  input  logic                              reg_write_i,
  input  logic [hwprof_pkg::APB_ADDR_W-1:0] reg_addr_i,
  input  logic [31:0]                       reg_wdata_i,
  output logic [31:0]                       reg_rdata_o,
  output logic                              reg_error_o,

  output logic                              irq_o  // a trace was sampled / the watermark reached
);

  localparam int unsigned FifoW = (FifoDepth > 1) ? $clog2(FifoDepth) : 1;
  localparam logic [HistW-1:0] Marker = HistW'(1);

  // ---- state
  logic             enable_q, enable_d, fifo_mode_q, fifo_mode_d, sample_en_q, sample_en_d;
  logic             filter_en_q, filter_en_d;
  logic [7:0]       watermark_q, watermark_d;
  logic [31:0]      cur_start_q, cur_start_d, last_start_q, last_start_d;
  logic [HistW-1:0] cur_hist_q, cur_hist_d, last_hist_q, last_hist_d;
  logic [31:0]      range_lo_q, range_lo_d, range_hi_q, range_hi_d;
  logic [15:0]      reload_q, reload_d, count_q, count_d;
  logic [FifoDepth*32-1:0]    fifo_start_q, fifo_start_d;
  logic [FifoDepth*HistW-1:0] fifo_hist_q, fifo_hist_d;
  logic [FifoW-1:0] fifo_head_q, fifo_head_d;
  logic [7:0]       fifo_count_q, fifo_count_d;
  logic [31:0] st_back_q, st_back_d, st_ind_q, st_ind_d, st_full_q, st_full_d;
  logic [31:0] st_filt_q, st_filt_d, st_samp_q, st_samp_d, st_drop_q, st_drop_d;

  // ---- trace termination (docs/trace-ctrl.md)
  logic             active, is_branch, is_jump, is_ijump, backward, shift, full, end_trace;
  logic [HistW-1:0] hist_shifted, ended_hist;
  logic             in_range, collected, sampled, push, push_ok;

  assign active       = enable_q && ev_fire_i;
  assign is_branch    = ev_kind_i == hwprof_pkg::KIND_BRANCH;
  assign is_jump      = ev_kind_i == hwprof_pkg::KIND_JUMP;
  assign is_ijump     = ev_kind_i == hwprof_pkg::KIND_IJUMP;
  assign backward     = ((is_branch && ev_taken_i) || is_jump) && (ev_next_pc_i <= ev_pc_i);
  assign hist_shifted = {cur_hist_q[HistW-2:0], ev_taken_i};
  assign shift        = active && is_branch && !backward;
  assign full         = shift && hist_shifted[HistW-1];
  assign end_trace    = active && (backward || is_ijump || full);
  assign ended_hist   = full ? hist_shifted : cur_hist_q;
  assign in_range     = !filter_en_q || ((cur_start_q >= range_lo_q) && (cur_start_q < range_hi_q));
  assign collected    = end_trace && in_range;
  assign sampled      = collected && (!sample_en_q || (count_q <= 16'd1));
  assign push         = sampled && fifo_mode_q;
  assign push_ok      = push && (fifo_count_q != 8'(FifoDepth));

  // ---- register window decode
  logic        reg_hit, reg_ro;
  logic [31:0] reg_rdata;
  logic [31:0] head_start;
  logic [HistW-1:0] head_hist;

  always_comb begin
    head_start = '0;
    head_hist  = '0;
    for (int unsigned i = 0; i < FifoDepth; i++) begin
      head_start = head_start | (fifo_start_q[i*32 +: 32] & {32{32'(fifo_head_q) == i}});
      head_hist  = head_hist | (fifo_hist_q[i*HistW +: HistW] & {HistW{32'(fifo_head_q) == i}});
    end
    if (fifo_count_q == '0) begin
      head_start = '0;
      head_hist  = '0;
    end
  end

  always_comb begin
    reg_hit   = 1'b1;
    reg_ro    = 1'b0;
    reg_rdata = '0;
    unique case (reg_addr_i)
      hwprof_pkg::TRACE_CTRL_CTRL_ADDR: begin
        reg_rdata[hwprof_pkg::TRACE_CTRL_CTRL_ENABLE_LSB]    = enable_q;
        reg_rdata[hwprof_pkg::TRACE_CTRL_CTRL_FIFO_MODE_LSB] = fifo_mode_q;
        reg_rdata[hwprof_pkg::TRACE_CTRL_CTRL_SAMPLE_EN_LSB] = sample_en_q;
        reg_rdata[hwprof_pkg::TRACE_CTRL_CTRL_FILTER_EN_LSB] = filter_en_q;
        reg_rdata[hwprof_pkg::TRACE_CTRL_CTRL_WATERMARK_LSB +: 8] = watermark_q;
      end
      hwprof_pkg::TRACE_CTRL_STATUS_ADDR:        begin reg_ro = 1'b1; reg_rdata = 32'(fifo_count_q); end
      hwprof_pkg::TRACE_CTRL_CUR_START_ADDR:     reg_rdata = cur_start_q;
      hwprof_pkg::TRACE_CTRL_CUR_HIST_ADDR:      reg_rdata = 32'(cur_hist_q);
      hwprof_pkg::TRACE_CTRL_LAST_START_ADDR:    reg_rdata = last_start_q;
      hwprof_pkg::TRACE_CTRL_LAST_HIST_ADDR:     reg_rdata = 32'(last_hist_q);
      hwprof_pkg::TRACE_CTRL_RANGE_LO_ADDR:      reg_rdata = range_lo_q;
      hwprof_pkg::TRACE_CTRL_RANGE_HI_ADDR:      reg_rdata = range_hi_q;
      hwprof_pkg::TRACE_CTRL_SAMPLE_RELOAD_ADDR: reg_rdata = 32'(reload_q);
      hwprof_pkg::TRACE_CTRL_SAMPLE_COUNT_ADDR:  reg_rdata = 32'(count_q);
      hwprof_pkg::TRACE_CTRL_FIFO_START_ADDR:    begin reg_ro = 1'b1; reg_rdata = head_start;       end
      hwprof_pkg::TRACE_CTRL_FIFO_HIST_ADDR:     begin reg_ro = 1'b1; reg_rdata = 32'(head_hist);   end
      hwprof_pkg::TRACE_CTRL_FIFO_CTRL_ADDR:     reg_rdata = '0;
      hwprof_pkg::TRACE_CTRL_STAT_END_BACKWARD_ADDR: begin reg_ro = 1'b1; reg_rdata = st_back_q; end
      hwprof_pkg::TRACE_CTRL_STAT_END_INDIRECT_ADDR: begin reg_ro = 1'b1; reg_rdata = st_ind_q;  end
      hwprof_pkg::TRACE_CTRL_STAT_END_FULL_ADDR:     begin reg_ro = 1'b1; reg_rdata = st_full_q; end
      hwprof_pkg::TRACE_CTRL_STAT_FILTERED_ADDR:     begin reg_ro = 1'b1; reg_rdata = st_filt_q; end
      hwprof_pkg::TRACE_CTRL_STAT_SAMPLED_ADDR:      begin reg_ro = 1'b1; reg_rdata = st_samp_q; end
      hwprof_pkg::TRACE_CTRL_STAT_DROPPED_ADDR:      begin reg_ro = 1'b1; reg_rdata = st_drop_q; end
      default: reg_hit = 1'b0;
    endcase
  end

  logic reg_we;
  assign reg_we      = reg_access_i && reg_write_i && reg_hit && !reg_ro;
  assign reg_rdata_o = (reg_access_i && !reg_write_i && reg_hit) ? reg_rdata : '0;
  assign reg_error_o = reg_access_i && (!reg_hit || (reg_write_i && reg_ro));

  logic pop, clear;
  assign pop   = reg_we && (reg_addr_i == hwprof_pkg::TRACE_CTRL_FIFO_CTRL_ADDR) &&
                 reg_wdata_i[hwprof_pkg::TRACE_CTRL_FIFO_CTRL_POP_LSB] && (fifo_count_q != '0);
  assign clear = reg_we && (reg_addr_i == hwprof_pkg::TRACE_CTRL_FIFO_CTRL_ADDR) &&
                 reg_wdata_i[hwprof_pkg::TRACE_CTRL_FIFO_CTRL_CLEAR_LSB];

  // ---- next state
  logic [7:0] fifo_slot;
  logic [7:0] watermark_eff;

  always_comb begin
    enable_d    = enable_q;
    fifo_mode_d = fifo_mode_q;
    sample_en_d = sample_en_q;
    filter_en_d = filter_en_q;
    watermark_d = watermark_q;
    cur_start_d = cur_start_q;
    cur_hist_d  = cur_hist_q;
    last_start_d = last_start_q;
    last_hist_d  = last_hist_q;
    range_lo_d  = range_lo_q;
    range_hi_d  = range_hi_q;
    reload_d    = reload_q;
    count_d     = count_q;
    fifo_start_d = fifo_start_q;
    fifo_hist_d  = fifo_hist_q;
    fifo_head_d  = fifo_head_q;
    fifo_count_d = fifo_count_q;
    st_back_d = st_back_q + 32'(end_trace && backward);
    st_ind_d  = st_ind_q + 32'(end_trace && is_ijump);
    st_full_d = st_full_q + 32'(full);
    st_filt_d = st_filt_q + 32'(end_trace && !in_range);
    st_samp_d = st_samp_q + 32'(sampled);
    st_drop_d = st_drop_q + 32'(push && !push_ok);
    fifo_slot = '0;

    // the trace
    if (end_trace) begin
      cur_start_d = ev_next_pc_i;
      cur_hist_d  = Marker;
    end else if (shift) begin
      cur_hist_d = hist_shifted;
    end
    if (collected && sample_en_q) count_d = (count_q <= 16'd1) ? reload_q : count_q - 16'd1;
    if (sampled) begin
      last_start_d = cur_start_q;
      last_hist_d  = ended_hist;
    end

    // register writes win over the event's change to the same register
    if (reg_we) begin
      unique case (reg_addr_i)
        hwprof_pkg::TRACE_CTRL_CTRL_ADDR: begin
          enable_d    = reg_wdata_i[hwprof_pkg::TRACE_CTRL_CTRL_ENABLE_LSB];
          fifo_mode_d = reg_wdata_i[hwprof_pkg::TRACE_CTRL_CTRL_FIFO_MODE_LSB];
          sample_en_d = reg_wdata_i[hwprof_pkg::TRACE_CTRL_CTRL_SAMPLE_EN_LSB];
          filter_en_d = reg_wdata_i[hwprof_pkg::TRACE_CTRL_CTRL_FILTER_EN_LSB];
          watermark_d = reg_wdata_i[hwprof_pkg::TRACE_CTRL_CTRL_WATERMARK_LSB +: 8];
        end
        hwprof_pkg::TRACE_CTRL_CUR_START_ADDR:     cur_start_d  = reg_wdata_i;
        hwprof_pkg::TRACE_CTRL_CUR_HIST_ADDR:      cur_hist_d   = reg_wdata_i[HistW-1:0];
        hwprof_pkg::TRACE_CTRL_LAST_START_ADDR:    last_start_d = reg_wdata_i;
        hwprof_pkg::TRACE_CTRL_LAST_HIST_ADDR:     last_hist_d  = reg_wdata_i[HistW-1:0];
        hwprof_pkg::TRACE_CTRL_RANGE_LO_ADDR:      range_lo_d   = reg_wdata_i;
        hwprof_pkg::TRACE_CTRL_RANGE_HI_ADDR:      range_hi_d   = reg_wdata_i;
        hwprof_pkg::TRACE_CTRL_SAMPLE_RELOAD_ADDR: reload_d     = reg_wdata_i[15:0];
        hwprof_pkg::TRACE_CTRL_SAMPLE_COUNT_ADDR:  count_d      = reg_wdata_i[15:0];
        default: ;
      endcase
    end

    // FIFO: pop and clear act before the push of the same cycle; fullness is judged before them
    if (pop) begin
      fifo_head_d  = (fifo_head_q == FifoW'(FifoDepth - 1)) ? '0 : fifo_head_q + FifoW'(1);
      fifo_count_d = fifo_count_q - 8'd1;
    end
    if (clear) fifo_count_d = '0;
    if (push_ok) begin
      fifo_slot = 8'(fifo_head_d) + fifo_count_d;
      if (fifo_slot >= 8'(FifoDepth)) fifo_slot = fifo_slot - 8'(FifoDepth);
      for (int unsigned i = 0; i < FifoDepth; i++) begin
        if (32'(fifo_slot) == i) begin
          fifo_start_d[i*32 +: 32]       = cur_start_q;
          fifo_hist_d[i*HistW +: HistW] = ended_hist;
        end
      end
      fifo_count_d = fifo_count_d + 8'd1;
    end
  end

  // FIFO mode: a level, asserted while the FIFO holds at least the watermark, so that an
  // acknowledgement only sticks once software has drained it below (a push-triggered pulse would
  // be lost for good if the FIFO filled while the handler ran)
  assign watermark_eff = (watermark_q == '0) ? 8'd1 : watermark_q;
  assign irq_o = (sampled && !fifo_mode_q) || (fifo_mode_q && (fifo_count_q >= watermark_eff));

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      enable_q     <= 1'b0;
      fifo_mode_q  <= 1'b0;
      sample_en_q  <= 1'b0;
      filter_en_q  <= 1'b0;
      watermark_q  <= 8'd1;
      cur_start_q  <= '0;
      cur_hist_q   <= Marker;
      last_start_q <= '0;
      last_hist_q  <= '0;
      range_lo_q   <= '0;
      range_hi_q   <= '0;
      reload_q     <= '0;
      count_q      <= '0;
      fifo_start_q <= '0;
      fifo_hist_q  <= '0;
      fifo_head_q  <= '0;
      fifo_count_q <= '0;
      st_back_q    <= '0;
      st_ind_q     <= '0;
      st_full_q    <= '0;
      st_filt_q    <= '0;
      st_samp_q    <= '0;
      st_drop_q    <= '0;
    end else begin
      enable_q     <= enable_d;
      fifo_mode_q  <= fifo_mode_d;
      sample_en_q  <= sample_en_d;
      filter_en_q  <= filter_en_d;
      watermark_q  <= watermark_d;
      cur_start_q  <= cur_start_d;
      cur_hist_q   <= cur_hist_d;
      last_start_q <= last_start_d;
      last_hist_q  <= last_hist_d;
      range_lo_q   <= range_lo_d;
      range_hi_q   <= range_hi_d;
      reload_q     <= reload_d;
      count_q      <= count_d;
      fifo_start_q <= fifo_start_d;
      fifo_hist_q  <= fifo_hist_d;
      fifo_head_q  <= fifo_head_d;
      fifo_count_q <= fifo_count_d;
      st_back_q    <= st_back_d;
      st_ind_q     <= st_ind_d;
      st_full_q    <= st_full_d;
      st_filt_q    <= st_filt_d;
      st_samp_q    <= st_samp_d;
      st_drop_q    <= st_drop_d;
    end
  end

  if ((HistW < 2) || (HistW > 32)) begin : g_hist_check
    $error("HistW must be 2..32");
  end
  if ((FifoDepth < 1) || (FifoDepth > 128)) begin : g_fifo_check
    $error("FifoDepth must be 1..128");
  end

endmodule

`default_nettype wire
