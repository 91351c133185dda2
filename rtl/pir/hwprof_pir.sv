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
// Link stack (seed 000 paragraph 45: the pir's fields are preserved across calls; docs/pir.md): a
// linked call (kind JUMP/IJUMP, ev_is_call_i, op PUSH) saves base and offset and starts the callee's
// area (base = operand, offset = 0); a linked return (ev_is_ret_i, op POP) restores them, after the
// return's own counter update, which uses the callee's pir. PIR_LINK_ENTRIES entries; the depth
// counter goes on counting past them (pushes lost, pops that restore nothing) and a push on a full
// stack or a pop on an empty one sets the sticky LINK.ERR: never silently wrong.
//
// Carrier words (docs/pir.md): any other instruction (kind OTHER, LOAD, STORE) whose shadow word
// gave it op INIT, SETOFF or ID (with a non-zero pid) acts as prof.init, prof.setoff or prof.id, so
// the instrumenter can fold an inserted profiling instruction into a neighbour of the program's.
//
// Path profiling (seed 004, docs/path.md): the path sum and its stack of outer sums live in
// u_path (rtl/path/hwprof_path.sv); an event whose path word counts a path generates the update
// operation on counter[offset + sum + a] instead of its pid's (the instrumenter never gives an
// event both), and a linked call saves the sum beside {base, offset}.
//
// Trap handlers (docs/pir.md): an event retired inside a trap handler (ev_trap_i HANDLER) is not the
// profiled program's and changes nothing, so a handler may call instrumented code without moving
// the interrupted program's pir or link stack; firmware in a handler uses the register window.
//
// Trigger counter (docs/architecture.md): an overflow (ovf_i) decrements it, an underflow (unf_i)
// increments it, saturating at its maximum; at zero it stays disarmed. The decrement from one to
// zero pulses phase_o. A prof.trigger retiring in the same cycle wins: its instruction is younger
// than the update that overflowed.
//
// Reset: synchronous, active low; every flop is reset.

`default_nettype none

module hwprof_pir #(
  parameter int unsigned CntW      = hwprof_pkg::CNTW_DEFAULT,      // counter width in bits: 8, 16, 32 or 64
  parameter int unsigned LineWords = hwprof_pkg::LINEWORDS_DEFAULT  // words per memory line (the path stack's spills)
) (
  input  logic                                   clk_i,
  input  logic                                   rst_ni,

  // presented and accepted retire event (fields as on the retire-event port)
  input  logic                                   ev_valid_i,
  input  logic                                   ev_fire_i,
  input  logic [2:0]                             ev_kind_i,
  input  logic                                   ev_is_call_i,
  input  logic                                   ev_is_ret_i,
  input  logic                                   ev_taken_i,
  input  logic [hwprof_pkg::EV_PID_W-1:0]        ev_pid_i,
  input  logic [1:0]                             ev_bhint_i,
  input  logic                                   ev_ihint_i,
  input  logic [2:0]                             ev_op_i,
  input  logic [hwprof_pkg::EV_OPERAND_W-1:0]    ev_operand_i,
  input  logic [1:0]                             ev_trap_i,    // TRAP_NONE / HANDLER / ENTRY
  output logic                                   upd_req_o,    // the presented event would update
  output logic                                   stall_o,      // ... or must wait for the path stack's memory

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
  output logic                                   upd_dec_o,

  // the path stack's spills and fills (u_path), through the memory port the top shares
  output logic                                   mem_want_o,
  input  logic                                   mem_grant_i,
  output logic                                   mem_busy_o,
  output logic                                   mem_req_valid_o,
  input  logic                                   mem_req_ready_i,
  output logic                                   mem_req_write_o,
  output logic [hwprof_pkg::PIR_BASE_W-1:0]      mem_req_addr_o,
  output logic [hwprof_pkg::PATH_SUM_W-1:0]      mem_req_wdata_o,
  input  logic                                   mem_rsp_valid_i,
  input  logic [hwprof_pkg::PATH_SUM_W-1:0]      mem_rsp_rdata_i
);

  localparam int unsigned BaseW    = hwprof_pkg::PIR_BASE_W;
  localparam int unsigned OffsetW  = hwprof_pkg::PIR_OFFSET_W;
  localparam int unsigned TriggerW = hwprof_pkg::PIR_TRIGGER_W;
  localparam int unsigned PidW     = hwprof_pkg::EV_PID_W;
  localparam int unsigned SumW     = hwprof_pkg::PATH_SUM_W;
  // counter index = offset + pid - 1 (+1 for the not-taken edge of an either branch), or offset +
  // sum + a for a path: one bit wider than the widest sum of two operands
  localparam int unsigned IdxW     = ((OffsetW > PidW) ? ((OffsetW > SumW) ? OffsetW : SumW)
                                                       : ((PidW > SumW) ? PidW : SumW)) + 1;
  localparam int unsigned CntShift = $clog2(CntW / 8);
  localparam int unsigned LinkN    = hwprof_pkg::PIR_LINK_ENTRIES;
  localparam int unsigned SpW      = hwprof_pkg::PIR_LINK_SP_W;

  // ---- state
  logic [BaseW-1:0]    base_q, base_d;
  logic [OffsetW-1:0]  offset_q, offset_d;
  logic [TriggerW-1:0] trigger_q, trigger_d;
  logic                flag_q, flag_d;
  logic [BaseW+OffsetW-1:0] link_top;       // the saved {base, offset} a pop restores (u_link)
  logic [SpW-1:0]      sp_q, sp_d;           // linked calls not yet returned
  logic                lerr_q, lerr_d;       // sticky link-stack error
  logic [2:0]          lsel_q, lsel_d;       // LINK_ENTRY_SEL
  logic [63:0]         stat_count;  // {updates, events}: hwprof_prim_counters, below
  logic                upd_valid_q, upd_valid_d;
  logic [BaseW-1:0]    upd_addr_q, upd_addr_d;
  logic                upd_dec_q, upd_dec_d;

  // ---- update-operation generation (docs/pir.md)
  logic           upd_req;     // the presented event would update a counter
  logic           upd_hit;     // ... and it is accepted
  logic           upd_second;  // ... the one after counter[idx] (not-taken edge of an either branch)
  logic [IdxW-1:0] upd_idx;
  logic           path_cnt;    // the presented event counts a path (u_path)
  logic [SumW-1:0] path_idx;   // ... at sum + a

  // the program's events; a trap handler's are not profiled (the reserved trap value 3 acts as HANDLER)
  logic prog, take;
  assign prog = !ev_trap_i[0];
  assign take = ev_fire_i && prog;
  logic unused_entry;  // an instruction that trapped is still the program's
  assign unused_entry = ev_trap_i[1];

  always_comb begin
    upd_req    = 1'b0;
    upd_second = 1'b0;
    if (flag_q && path_cnt && prog) begin
      upd_req = 1'b1;
    end else if (flag_q && (ev_pid_i != '0) && prog) begin
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
        // prof.id, and an instruction whose carrier word gives it one
        hwprof_pkg::KIND_PROF, hwprof_pkg::KIND_OTHER, hwprof_pkg::KIND_LOAD, hwprof_pkg::KIND_STORE:
                               upd_req = (ev_op_i == hwprof_pkg::PROF_OP_ID);
        default:               upd_req = 1'b0;
      endcase
    end
  end

  assign upd_hit   = take && upd_req;
  assign upd_req_o = upd_req;

  assign upd_idx = path_cnt ? IdxW'(offset_q) + IdxW'(path_idx)
                            : IdxW'(offset_q) + IdxW'(ev_pid_i) - IdxW'(1) + IdxW'(upd_second);

  // ---- register block (rtl/pir/autogen/hwprof_pir_reg.sv, generated from regs/pir.json): every pir
  // register is held here, since the profiling instructions write them too
  hwprof_pkg::pir_hw2reg_t hw2reg;
  hwprof_pkg::pir_reg2hw_t reg2hw;
  logic [SumW-1:0] path_sum;
  logic [7:0]      path_depth;
  logic            path_err;
  logic [BaseW-1:0] path_spill_base;
  logic [15:0]     path_spill_limit, path_spill_lines;
  logic [4:0]      path_sel;
  logic [SumW-1:0] path_entry, link_entry_sum;
  logic [BaseW+OffsetW-1:0] link_entry;     // the entry LINK_ENTRY_SEL names (u_link port b)

  always_comb begin
    hw2reg = '0;
    hw2reg.base_lo_value      = base_q[31:0];
    hw2reg.base_hi_value      = base_q[BaseW-1:32];
    hw2reg.offset_value       = offset_q;
    hw2reg.trigger_value      = trigger_q;
    hw2reg.ctrl_flag          = flag_q;
    hw2reg.stat_events_value  = stat_count[31:0];
    hw2reg.stat_updates_value = stat_count[63:32];
    hw2reg.link_depth         = sp_q;
    hw2reg.link_err           = lerr_q;
    hw2reg.path_sum_value     = path_sum;
    hw2reg.path_stack_depth   = path_depth;
    hw2reg.path_stack_err     = path_err;
    hw2reg.path_spill_lo_value = path_spill_base[31:0];
    hw2reg.path_spill_hi_value = path_spill_base[BaseW-1:32];
    hw2reg.path_spill_limit   = path_spill_limit;
    hw2reg.path_spill_lines   = path_spill_lines;
    hw2reg.path_entry_sel_index = path_sel;
    hw2reg.path_entry_value   = path_entry;
    hw2reg.link_entry_sel_index = lsel_q;
    hw2reg.link_entry_base_lo_value = link_entry[OffsetW +: 32];
    hw2reg.link_entry_base_hi_value = link_entry[OffsetW+32 +: BaseW-32];
    hw2reg.link_entry_offset_value  = link_entry[OffsetW-1:0];
    hw2reg.link_entry_sum_value     = link_entry_sum;
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
                  reg2hw.ctrl_qe || reg2hw.link_qe || reg2hw.path_sum_qe || reg2hw.path_stack_qe ||
                  reg2hw.path_spill_lo_qe || reg2hw.path_spill_hi_qe || reg2hw.path_spill_qe ||
                  reg2hw.path_entry_sel_qe || reg2hw.path_entry_qe || reg2hw.link_entry_sel_qe ||
                  reg2hw.link_entry_base_lo_qe || reg2hw.link_entry_base_hi_qe || reg2hw.link_entry_offset_qe ||
                  reg2hw.link_entry_sum_qe;

  // ---- link stack operations of the accepted event
  logic link_ev, push, pop, sp_full, sp_top, call_init, br_setoff;
  assign link_ev  = take && ((ev_kind_i == hwprof_pkg::KIND_JUMP) || (ev_kind_i == hwprof_pkg::KIND_IJUMP));
  assign push     = link_ev && ev_is_call_i && (ev_op_i == hwprof_pkg::PROF_OP_PUSH);
  assign pop      = link_ev && ev_is_ret_i && (ev_op_i == hwprof_pkg::PROF_OP_POP);
  // a call that starts its callee's area without saving, and a branch or jump that switches the
  // region offset after its own update (both carried by the instruction's shadow word)
  assign call_init = link_ev && ev_is_call_i && (ev_op_i == hwprof_pkg::PROF_OP_INIT);
  assign br_setoff = take && (ev_op_i == hwprof_pkg::PROF_OP_SETOFF) &&
                     ((ev_kind_i == hwprof_pkg::KIND_BRANCH) || (ev_kind_i == hwprof_pkg::KIND_JUMP) ||
                      (ev_kind_i == hwprof_pkg::KIND_IJUMP));
  // an instruction whose carrier word gives it a prof.init or prof.setoff
  logic ordinary, carry_init, carry_setoff;
  assign ordinary     = (ev_kind_i == hwprof_pkg::KIND_OTHER) || (ev_kind_i == hwprof_pkg::KIND_LOAD) ||
                        (ev_kind_i == hwprof_pkg::KIND_STORE);
  assign carry_init   = take && ordinary && (ev_op_i == hwprof_pkg::PROF_OP_INIT);
  assign carry_setoff = take && ordinary && (ev_op_i == hwprof_pkg::PROF_OP_SETOFF);
  assign sp_full  = (sp_q >= SpW'(LinkN));
  assign sp_top   = (sp_q == '1);

  always_comb begin
    base_d         = base_q;
    offset_d       = offset_q;
    trigger_d      = trigger_q;
    flag_d         = flag_q;
    sp_d           = sp_q;
    lerr_d         = lerr_q;
    lsel_d         = lsel_q;
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
    if (take && (ev_kind_i == hwprof_pkg::KIND_PROF)) begin
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

    // calls that start their callee's area and carrier words' prof.init; region switches on branches
    // and jumps and carrier words' prof.setoff (the kinds exclude each other)
    if (call_init || carry_init) begin
      base_d   = ev_operand_i[BaseW-1:0];
      offset_d = '0;
    end
    if (br_setoff || carry_setoff) offset_d = ev_operand_i[OffsetW-1:0];

    // linked calls and returns
    if (push) begin
      base_d   = ev_operand_i[BaseW-1:0];
      offset_d = '0;
      if (!sp_top) sp_d = sp_q + SpW'(1);
      if (sp_full) lerr_d = 1'b1;
    end
    if (pop) begin
      if (sp_q == '0) begin
        lerr_d = 1'b1;
      end else begin
        sp_d = sp_q - SpW'(1);
        if (sp_q <= SpW'(LinkN)) {base_d, offset_d} = link_top;
      end
    end

    // register writes (context switch); the field widths come from regs/pir.json
    if (reg2hw.base_lo_qe) base_d[31:0]       = reg2hw.base_lo_value;
    if (reg2hw.base_hi_qe) base_d[BaseW-1:32] = reg2hw.base_hi_value;
    if (reg2hw.offset_qe)  offset_d           = reg2hw.offset_value;
    if (reg2hw.trigger_qe) trigger_d          = reg2hw.trigger_value;
    if (reg2hw.ctrl_qe)    flag_d             = reg2hw.ctrl_flag;
    if (reg2hw.link_qe) begin
      sp_d   = reg2hw.link_depth;
      lerr_d = reg2hw.link_err;
    end
    if (reg2hw.link_entry_sel_qe) lsel_d = reg2hw.link_entry_sel_index;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      base_q         <= '0;
      offset_q       <= '0;
      trigger_q      <= '0;
      flag_q         <= 1'b0;
      sp_q           <= '0;
      lerr_q         <= 1'b0;
      lsel_q         <= '0;
      upd_valid_q    <= 1'b0;
      upd_addr_q     <= '0;
      upd_dec_q      <= 1'b0;
    end else begin
      base_q         <= base_d;
      offset_q       <= offset_d;
      trigger_q      <= trigger_d;
      flag_q         <= flag_d;
      sp_q           <= sp_d;
      lerr_q         <= lerr_d;
      lsel_q         <= lsel_d;
      upd_valid_q    <= upd_valid_d;
      upd_addr_q     <= upd_addr_d;
      upd_dec_q      <= upd_dec_d;
    end
  end

  // the link stack's entries, bottom first: a push that finds room writes entry sp, a pop reads
  // entry sp - 1; the window reads entry LINK_ENTRY_SEL on port b and writes a part of it (a
  // register write never meets a linked call)
  logic                     lent_we;
  logic [BaseW+OffsetW-1:0] lent_wdata;
  assign lent_we = reg2hw.link_entry_base_lo_qe || reg2hw.link_entry_base_hi_qe || reg2hw.link_entry_offset_qe;
  always_comb begin
    lent_wdata = link_entry;
    if (reg2hw.link_entry_base_lo_qe) lent_wdata[OffsetW +: 32] = reg2hw.link_entry_base_lo_value;
    if (reg2hw.link_entry_base_hi_qe) lent_wdata[OffsetW+32 +: BaseW-32] = reg2hw.link_entry_base_hi_value;
    if (reg2hw.link_entry_offset_qe)  lent_wdata[OffsetW-1:0] = reg2hw.link_entry_offset_value;
  end
  hwprof_prim_regfile #(
    .N (LinkN),
    .W (BaseW + OffsetW)
  ) u_link (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .raddr_a_i (8'(sp_q - SpW'(1))),
    .rdata_a_o (link_top),
    .raddr_b_i (8'(lsel_q)),
    .rdata_b_o (link_entry),
    .we_i      ((push && !sp_full) || lent_we),
    .waddr_i   (lent_we ? 8'(lsel_q) : 8'(sp_q)),
    .wdata_i   (lent_we ? lent_wdata : {base_q, offset_q})
  );

  // the path sum and its stack (path profiling)
  hwprof_path #(
    .CntW      (CntW),
    .LineWords (LineWords)
  ) u_path (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .ev_valid_i     (ev_valid_i),
    .prog_i         (prog),
    .take_i         (take),
    .stall_o        (stall_o),
    .ev_kind_i      (ev_kind_i),
    .ev_is_call_i   (ev_is_call_i),
    .ev_is_ret_i    (ev_is_ret_i),
    .ev_op_i        (ev_op_i),
    .ev_operand_i   (ev_operand_i),
    .cnt_o          (path_cnt),
    .cnt_idx_o      (path_idx),
    .call_i         (push || call_init),
    .link_we_i      (push && !sp_full),
    .link_waddr_i   (8'(sp_q)),
    .link_restore_i (pop && (sp_q != '0) && (sp_q <= SpW'(LinkN))),
    .link_raddr_i   (8'(sp_q - SpW'(1))),
    .sum_we_i       (reg2hw.path_sum_qe),
    .sum_wdata_i    (reg2hw.path_sum_value),
    .stack_we_i     (reg2hw.path_stack_qe),
    .stack_depth_i  (reg2hw.path_stack_depth),
    .stack_err_i    (reg2hw.path_stack_err),
    .spill_lo_we_i  (reg2hw.path_spill_lo_qe),
    .spill_hi_we_i  (reg2hw.path_spill_hi_qe),
    .spill_lo_i     (reg2hw.path_spill_lo_value),
    .spill_hi_i     (reg2hw.path_spill_hi_value),
    .spill_we_i     (reg2hw.path_spill_qe),
    .spill_limit_i  (reg2hw.path_spill_limit),
    .spill_lines_i  (reg2hw.path_spill_lines),
    .sel_we_i       (reg2hw.path_entry_sel_qe),
    .sel_i          (reg2hw.path_entry_sel_index),
    .entry_we_i     (reg2hw.path_entry_qe),
    .entry_wdata_i  (reg2hw.path_entry_value),
    .link_sel_i     (lsel_q),
    .link_sum_we_i  (reg2hw.link_entry_sum_qe),
    .link_sum_wdata_i (reg2hw.link_entry_sum_value),
    .sum_o          (path_sum),
    .stack_depth_o  (path_depth),
    .stack_err_o    (path_err),
    .spill_base_o   (path_spill_base),
    .spill_limit_o  (path_spill_limit),
    .spill_lines_o  (path_spill_lines),
    .sel_o          (path_sel),
    .entry_o        (path_entry),
    .link_sum_o     (link_entry_sum),
    .mem_want_o     (mem_want_o),
    .mem_grant_i    (mem_grant_i),
    .mem_busy_o     (mem_busy_o),
    .mem_req_valid_o (mem_req_valid_o),
    .mem_req_ready_i (mem_req_ready_i),
    .mem_req_write_o (mem_req_write_o),
    .mem_req_addr_o  (mem_req_addr_o),
    .mem_req_wdata_o (mem_req_wdata_o),
    .mem_rsp_valid_i (mem_rsp_valid_i),
    .mem_rsp_rdata_i (mem_rsp_rdata_i)
  );

  // statistics: the program's accepted events, and those that generated an update operation
  hwprof_prim_counters #(
    .N (2),
    .W (32)
  ) u_stats (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .inc_i   ({upd_hit, take}),
    .clr_i   (1'b0),
    .wr_i    ({reg2hw.stat_updates_qe, reg2hw.stat_events_qe}),
    .wdata_i (reg2hw.stat_events_value),  // every register's value is the write data
    .count_o (stat_count)
  );
  // the other statistics registers' values are the same write data as STAT_EVENTS's
  logic unused_stat_wdata;
  assign unused_stat_wdata = ^{reg2hw.stat_updates_value};

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
  if (hwprof_pkg::PIR_LINK_DEPTH_WIDTH != SpW) begin : g_link_width_check
    $error("regs/pir.json LINK.DEPTH does not match PIR_LINK_SP_W");
  end
  if (hwprof_pkg::PIR_LINK_ENTRY_BASE_HI_VALUE_WIDTH != BaseW - 32 ||
      hwprof_pkg::PIR_LINK_ENTRY_OFFSET_VALUE_WIDTH != OffsetW ||
      hwprof_pkg::PIR_PATH_SPILL_HI_VALUE_WIDTH != BaseW - 32) begin : g_entry_width_check
    $error("regs/pir.json LINK_ENTRY_* and PATH_SPILL_HI must match PIR_BASE_W and PIR_OFFSET_W");
  end
  if (LinkN < 1 || LinkN >= (1 << SpW) - 1) begin : g_link_entries_check
    $error("PIR_LINK_ENTRIES must be at least 1 and below 2^PIR_LINK_SP_W - 1");
  end
  if (CntW != 8 && CntW != 16 && CntW != 32 && CntW != 64) begin : g_cntw_check
    $error("CntW must be 8, 16, 32 or 64");
  end

endmodule

`default_nettype wire
