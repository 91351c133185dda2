// hwprof_pir: the profile information register and profile-update-operation generation.
//
// Seed 000 (Wu, collaborative profiling), sections 6 and 7: the pir holds base_address, offset,
// trigger_counter and flag; the profiling instructions initprof/setoffset/startprof/stopprof/trigger
// write it; branches and prof_id instructions that carry a non-zero profile ID become update
// operations on counter[offset + pid - 1] (docs/pir.md has the full table, docs/architecture.md the
// decisions). The block also owns the pir register window (regs/pir.json) so that an operating system
// can save and restore every field on a context switch.
//
// Timing: an accepted retire event (ev_fire_i) changes the pir at the next clock edge; the update
// operation it generates is registered and appears on upd_*_o in the following cycle. upd_req_o
// says, before acceptance, whether the presented event would generate one (the parent stalls only
// such events when the update buffer is full). The parent guarantees that a register write and a
// retire event never coincide, nor a register write and an overflow (it holds both during a write
// to this window), so none overrides another.
//
// Trigger counter (docs/architecture.md): an overflow (ovf_i) decrements it, an underflow (unf_i)
// increments it, saturating at its maximum; at zero it stays disarmed. The decrement from one to
// zero pulses phase_o. A prof.trigger retiring in the same cycle wins: its instruction is younger
// than the update that overflowed.
//
// Reset: synchronous, active low; every flop is reset.

`default_nettype none

module hwprof_pir #(
  parameter int unsigned CntW = hwprof_pkg::CNTW_DEFAULT  // counter width in bits: 8, 16, 32 or 64
) (
  input  logic                                   clk_i,
  input  logic                                   rst_ni,

  // accepted retire event (fields as on the retire-event port)
  input  logic                                   ev_fire_i,
  input  logic [2:0]                             ev_kind_i,
  input  logic                                   ev_taken_i,
  input  logic [hwprof_pkg::EV_PID_W-1:0]        ev_pid_i,
  input  logic [1:0]                             ev_bhint_i,
  input  logic                                   ev_ihint_i,
  input  logic [2:0]                             ev_op_i,
  input  logic [hwprof_pkg::EV_OPERAND_W-1:0]    ev_operand_i,
  output logic                                   upd_req_o,    // the presented event would update

  // counter overflow / underflow reported by the edge-profiling unit
  input  logic                                   ovf_i,
  input  logic                                   unf_i,
  output logic                                   phase_o,      // trigger counter reached zero

  // register window: one APB access phase aimed at this window
  input  logic                                   reg_access_i,
  input  logic                                   reg_write_i,
  input  logic [hwprof_pkg::APB_ADDR_W-1:0]      reg_addr_i,
  input  logic [31:0]                            reg_wdata_i,
  output logic [31:0]                            reg_rdata_o,
  output logic                                   reg_error_o,

  // generated update operation, one cycle after the event
  output logic                                   upd_valid_o,
  output logic [hwprof_pkg::PIR_BASE_W-1:0]      upd_addr_o,
  output logic                                   upd_dec_o
);

  localparam int unsigned BaseW    = hwprof_pkg::PIR_BASE_W;
  localparam int unsigned OffsetW  = hwprof_pkg::PIR_OFFSET_W;
  localparam int unsigned TriggerW = hwprof_pkg::PIR_TRIGGER_W;
  localparam int unsigned PidW     = hwprof_pkg::EV_PID_W;
  // counter index = offset + pid - 1 (+1 for the not-taken edge of an either branch): one bit wider
  // than the wider of the two operands
  localparam int unsigned IdxW     = ((OffsetW > PidW) ? OffsetW : PidW) + 1;
  localparam int unsigned CntShift = $clog2(CntW / 8);

  // ---- state
  logic [BaseW-1:0]    base_q, base_d;
  logic [OffsetW-1:0]  offset_q, offset_d;
  logic [TriggerW-1:0] trigger_q, trigger_d;
  logic                flag_q, flag_d;
  logic [63:0]         stat_count;  // {updates, events}: hwprof_prim_counters, below
  logic                upd_valid_q, upd_valid_d;
  logic [BaseW-1:0]    upd_addr_q, upd_addr_d;
  logic                upd_dec_q, upd_dec_d;

  // ---- update-operation generation (docs/pir.md)
  logic           upd_req;     // the presented event would update a counter
  logic           upd_hit;     // ... and it is accepted
  logic           upd_second;  // ... the one after counter[idx] (not-taken edge of an either branch)
  logic [IdxW-1:0] upd_idx;

  always_comb begin
    upd_req    = 1'b0;
    upd_second = 1'b0;
    if (flag_q && (ev_pid_i != '0)) begin
      unique case (ev_kind_i)
        hwprof_pkg::KIND_BRANCH, hwprof_pkg::KIND_JUMP, hwprof_pkg::KIND_IJUMP: begin
          unique case (ev_bhint_i)
            hwprof_pkg::BHINT_TK:     upd_req = ev_taken_i;
            hwprof_pkg::BHINT_NT:     upd_req = !ev_taken_i;
            hwprof_pkg::BHINT_EITHER: begin
              upd_req    = 1'b1;
              upd_second = !ev_taken_i;
            end
            hwprof_pkg::BHINT_ALL:    upd_req = 1'b1;
            default:                  upd_req = 1'b0;
          endcase
        end
        hwprof_pkg::KIND_PROF: upd_req = (ev_op_i == hwprof_pkg::PROF_OP_ID);
        default:               upd_req = 1'b0;
      endcase
    end
  end

  assign upd_hit   = ev_fire_i && upd_req;
  assign upd_req_o = upd_req;

  assign upd_idx = IdxW'(offset_q) + IdxW'(ev_pid_i) - IdxW'(1) + IdxW'(upd_second);

  // ---- register block (rtl/reg/hwprof_pir_reg.sv, generated from regs/pir.json): every pir
  // register is held here, since the profiling instructions write them too
  hwprof_pkg::pir_hw2reg_t hw2reg;
  hwprof_pkg::pir_reg2hw_t reg2hw;

  always_comb begin
    hw2reg = '0;
    hw2reg.base_lo_value      = base_q[31:0];
    hw2reg.base_hi_value      = base_q[BaseW-1:32];
    hw2reg.offset_value       = offset_q;
    hw2reg.trigger_value      = trigger_q;
    hw2reg.ctrl_flag          = flag_q;
    hw2reg.stat_events_value  = stat_count[31:0];
    hw2reg.stat_updates_value = stat_count[63:32];
  end

  hwprof_pir_reg u_reg (
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

  // ---- next state
  logic reg_we;
  assign reg_we = reg2hw.base_lo_qe || reg2hw.base_hi_qe || reg2hw.offset_qe || reg2hw.trigger_qe ||
                  reg2hw.ctrl_qe;

  always_comb begin
    base_d         = base_q;
    offset_d       = offset_q;
    trigger_d      = trigger_q;
    flag_d         = flag_q;
    upd_valid_d    = upd_hit;
    upd_addr_d     = upd_hit ? base_q + (BaseW'(upd_idx) << CntShift) : '0;
    upd_dec_d      = upd_hit && ev_ihint_i;

    // overflow / underflow move the trigger counter (disarmed at zero, saturating at the top)
    if (ovf_i && (trigger_q != '0)) begin
      trigger_d = trigger_q - TriggerW'(1);
    end else if (unf_i && (trigger_q != '0) && (trigger_q != '1)) begin
      trigger_d = trigger_q + TriggerW'(1);
    end

    // profiling instructions
    if (ev_fire_i && (ev_kind_i == hwprof_pkg::KIND_PROF)) begin
      unique case (ev_op_i)
        hwprof_pkg::PROF_OP_INIT: begin
          base_d   = ev_operand_i[BaseW-1:0];
          offset_d = '0;
        end
        hwprof_pkg::PROF_OP_SETOFF:  offset_d  = ev_operand_i[OffsetW-1:0];
        hwprof_pkg::PROF_OP_START:   flag_d    = 1'b1;
        hwprof_pkg::PROF_OP_STOP:    flag_d    = 1'b0;
        hwprof_pkg::PROF_OP_TRIGGER: trigger_d = ev_operand_i[TriggerW-1:0];
        default: ;  // prof.id updates a counter only; reserved operations do nothing
      endcase
    end

    // register writes (context switch); the field widths come from regs/pir.json
    if (reg2hw.base_lo_qe) base_d[31:0]       = reg2hw.base_lo_value;
    if (reg2hw.base_hi_qe) base_d[BaseW-1:32] = reg2hw.base_hi_value;
    if (reg2hw.offset_qe)  offset_d           = reg2hw.offset_value;
    if (reg2hw.trigger_qe) trigger_d          = reg2hw.trigger_value;
    if (reg2hw.ctrl_qe)    flag_d             = reg2hw.ctrl_flag;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      base_q         <= '0;
      offset_q       <= '0;
      trigger_q      <= '0;
      flag_q         <= 1'b0;
      upd_valid_q    <= 1'b0;
      upd_addr_q     <= '0;
      upd_dec_q      <= 1'b0;
    end else begin
      base_q         <= base_d;
      offset_q       <= offset_d;
      trigger_q      <= trigger_d;
      flag_q         <= flag_d;
      upd_valid_q    <= upd_valid_d;
      upd_addr_q     <= upd_addr_d;
      upd_dec_q      <= upd_dec_d;
    end
  end

  // statistics: accepted events, and those that generated an update operation
  hwprof_prim_counters #(
    .N (2),
    .W (32)
  ) u_stats (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .inc_i   ({upd_hit, ev_fire_i}),
    .clr_i   (1'b0),
    .count_o (stat_count)
  );

  assign phase_o     = ovf_i && (trigger_q == TriggerW'(1));
  assign upd_valid_o = upd_valid_q;
  assign upd_addr_o  = upd_addr_q;
  assign upd_dec_o   = upd_dec_q;

`ifndef SYNTHESIS
  // the parent stalls the retire port and holds the cache while this window is written
  always_comb begin
    if (rst_ni) assert (!(reg_we && (ev_fire_i || ovf_i || unf_i)));
    if (rst_ni) assert (!(ovf_i && unf_i));
  end
`endif

  // the description's field widths must be the pir's
  if (hwprof_pkg::PIR_BASE_HI_VALUE_WIDTH != BaseW - 32) begin : g_base_hi_width_check
    $error("regs/pir.json BASE_HI does not match PIR_BASE_W");
  end
  if (hwprof_pkg::PIR_OFFSET_VALUE_WIDTH != OffsetW) begin : g_offset_width_check
    $error("regs/pir.json OFFSET does not match PIR_OFFSET_W");
  end
  if (hwprof_pkg::PIR_TRIGGER_VALUE_WIDTH != TriggerW) begin : g_trigger_width_check
    $error("regs/pir.json TRIGGER does not match PIR_TRIGGER_W");
  end
  if (CntW != 8 && CntW != 16 && CntW != 32 && CntW != 64) begin : g_cntw_check
    $error("CntW must be 8, 16, 32 or 64");
  end

endmodule

`default_nettype wire
