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
// return's own counter update, which uses the callee's pir. A frame is {base, offset, path sum};
// PIR_LINK_ENTRIES of them are held in a ring, the oldest at lbot_q. With a spill area (LINK_SPILL*)
// a linked call on a full ring first writes the oldest frame to memory (Beats lines of a slot of
// 2^BeatShift), a linked return on an empty ring first reads the newest back, the event waiting
// at the retire port meanwhile; the memory port is the top's, lent to the pir, which gives it to
// one stack at a time (the link stack first). With no room, the depth counter goes on counting past
// the entries (pushes lost, pops that restore nothing), and a push on a full stack or a pop on an
// empty one sets the sticky LINK.ERR: never silently wrong. Every frame held is in the window
// (LINK_ENTRY_SEL, LINK_ENTRY_*) for a context switch.
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

  // the path and link stacks' spills and fills, through the memory port the top shares
  output logic                                   mem_want_o,
  input  logic                                   mem_grant_i,
  output logic                                   mem_busy_o,
  output logic                                   mem_req_valid_o,
  input  logic                                   mem_req_ready_i,
  output logic                                   mem_req_write_o,
  output logic [hwprof_pkg::PIR_BASE_W-1:0]      mem_req_addr_o,
  output logic [LineWords*CntW-1:0]              mem_req_wdata_o,
  input  logic                                   mem_rsp_valid_i,
  input  logic [LineWords*CntW-1:0]              mem_rsp_rdata_i
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
  localparam int unsigned LPtrW    = $clog2(LinkN);
  localparam int unsigned FrameW   = BaseW + OffsetW + SumW;  // a link frame: {base, offset, sum}
  localparam int unsigned LineW    = LineWords * CntW;
  localparam int unsigned LineShift = $clog2(LineW / 8);
  localparam int unsigned Beats    = (FrameW + LineW - 1) / LineW;  // lines a spilled frame takes
  localparam int unsigned BeatShift = $clog2(Beats);                // ... its slot: 2^BeatShift lines
  localparam int unsigned AsmW     = (Beats == 1) ? FrameW : Beats * LineW;  // a frame on its way

  // ---- state
  logic [BaseW-1:0]    base_q, base_d;
  logic [OffsetW-1:0]  offset_q, offset_d;
  logic [TriggerW-1:0] trigger_q, trigger_d;
  logic                flag_q, flag_d;
  logic [SpW-1:0]      sp_q, sp_d;           // frames held (counts past LinkN when they cannot spill)
  logic                lerr_q, lerr_d;       // sticky link-stack error
  logic [2:0]          lsel_q, lsel_d;       // LINK_ENTRY_SEL
  // the link stack: a ring of frames, the oldest at lbot_q; its spill area and the frame on its way
  logic [LinkN*FrameW-1:0] lstack_q, lstack_d;
  logic [LPtrW-1:0]    lbot_q, lbot_d;
  logic [BaseW-1:0]    lsbase_q, lsbase_d;   // LINK_SPILL_HI/LO
  logic [15:0]         llimit_q, llimit_d;   // LINK_SPILL.LIMIT: 64-byte blocks
  logic [15:0]         llines_q, llines_d;   // LINK_SPILL.LINES: frames in memory
  logic                lreq_q, lreq_d;       // a line request presented ...
  logic                lrwr_q, lrwr_d;       // ... a write (a spill), else a read (a fill)
  logic                lrwait_q, lrwait_d;   // a fill's line read accepted, not yet answered
  logic [BaseW-1:0]    lraddr_q, lraddr_d;
  logic [AsmW-1:0]     lframe_q, lframe_d;   // the frame being written out or read in
  logic [2:0]          lbeat_q, lbeat_d;     // its line
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
  logic [SumW-1:0] path_entry;
  logic [FrameW-1:0] link_entry;            // the frame LINK_ENTRY_SEL names

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
    hw2reg.link_entry_base_lo_value = link_entry[SumW+OffsetW +: 32];
    hw2reg.link_entry_base_hi_value = link_entry[SumW+OffsetW+32 +: BaseW-32];
    hw2reg.link_entry_offset_value  = link_entry[SumW +: OffsetW];
    hw2reg.link_entry_sum_value     = link_entry[SumW-1:0];
    hw2reg.link_spill_lo_value = lsbase_q[31:0];
    hw2reg.link_spill_hi_value = lsbase_q[BaseW-1:32];
    hw2reg.link_spill_limit    = llimit_q;
    hw2reg.link_spill_lines    = llines_q;
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
                  reg2hw.link_entry_sum_qe || reg2hw.link_spill_lo_qe || reg2hw.link_spill_hi_qe ||
                  reg2hw.link_spill_qe;

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

  // ---- the link stack's ring (one-hot AND-OR reads, as hwprof_prim_regfile's): the top frame a
  // pop restores, the oldest (a spill), the window's; a linked call or a fill's frame is written
  // above the frames held, the window writes a part of its frame
  logic [LPtrW-1:0]  ltop_at, lpush_at, lsel_at;
  logic [FrameW-1:0] link_top, link_bottom, link_push;
  assign ltop_at  = lbot_q + LPtrW'(sp_q) - LPtrW'(1);
  assign lpush_at = lbot_q + LPtrW'(sp_q);
  assign lsel_at  = lbot_q + LPtrW'(lsel_q);
  assign link_push = {base_q, offset_q, path_sum};  // u_path's sum is saved beside them
  always_comb begin
    link_top    = '0;
    link_bottom = '0;
    link_entry  = '0;
    for (int unsigned i = 0; i < LinkN; i++) begin
      link_top    = link_top    | (lstack_q[i*FrameW +: FrameW] & {FrameW{32'(ltop_at) == i}});
      link_bottom = link_bottom | (lstack_q[i*FrameW +: FrameW] & {FrameW{32'(lbot_q) == i}});
      link_entry  = link_entry  | (lstack_q[i*FrameW +: FrameW] & {FrameW{32'(lsel_at) == i}});
    end
  end

  // ---- spilling the link stack (docs/pir.md): the presented program event needs its frame moved
  // first. A frame takes Beats lines (one when a line holds it), in a slot of 2^BeatShift lines.
  logic        lpush_ev, lpop_ev, lspill_need, lfill_need, link_stall, lbusy, lgrant;
  logic        lbeat_last, lfill_done;
  logic [21:0] lcap;  // the frames the area holds
  logic [15:0] lslot;
  logic [AsmW-1:0] lframe_in;  // the frame with an answered line shifted in
  assign lpush_ev    = ((ev_kind_i == hwprof_pkg::KIND_JUMP) || (ev_kind_i == hwprof_pkg::KIND_IJUMP)) &&
                       ev_is_call_i && (ev_op_i == hwprof_pkg::PROF_OP_PUSH);
  assign lpop_ev     = ((ev_kind_i == hwprof_pkg::KIND_JUMP) || (ev_kind_i == hwprof_pkg::KIND_IJUMP)) &&
                       ev_is_ret_i && (ev_op_i == hwprof_pkg::PROF_OP_POP);
  assign lcap        = (22'(llimit_q) << (6 - LineShift)) >> BeatShift;
  assign lspill_need = lpush_ev && sp_full && (22'(llines_q) < lcap) && (llines_q != '1);
  assign lfill_need  = lpop_ev && (sp_q == '0) && (llines_q != '0);
  assign link_stall  = ev_valid_i && prog && (lspill_need || lfill_need);
  assign lbusy       = lreq_q || lrwait_q;
  assign lbeat_last  = (lbeat_q == 3'(Beats - 1));
  assign lfill_done  = lrwait_q && mem_rsp_valid_i && lbeat_last;
  assign lslot       = lspill_need ? llines_q : llines_q - 16'd1;
  logic [AsmW-1:0] lframe_next;  // the frame after a spilled line: the next line's bits at the bottom
  logic [LineW-1:0] lline_out;   // the line a spill writes
  if (Beats == 1) begin : g_asm_one
    assign lframe_in   = mem_rsp_rdata_i[FrameW-1:0];
    assign lframe_next = '0;
    assign lline_out   = LineW'(lframe_q);
    if (LineW > FrameW) begin : g_unused_line
      logic unused_line;  // the line's bits above a frame (its sum's, as the path stack uses it, in the low ones)
      assign unused_line = ^mem_rsp_rdata_i[LineW-1:FrameW];
    end
  end else begin : g_asm_beats
    assign lframe_in   = (lframe_q >> LineW) | (AsmW'(mem_rsp_rdata_i) << ((Beats - 1) * LineW));
    assign lframe_next = lframe_q >> LineW;
    assign lline_out   = lframe_q[LineW-1:0];
  end

  always_comb begin
    base_d         = base_q;
    offset_d       = offset_q;
    trigger_d      = trigger_q;
    flag_d         = flag_q;
    sp_d           = sp_q;
    lerr_d         = lerr_q;
    lsel_d         = lsel_q;
    lstack_d       = lstack_q;
    lbot_d         = lbot_q;
    lsbase_d       = lsbase_q;
    llimit_d       = llimit_q;
    llines_d       = llines_q;
    lreq_d         = lreq_q;
    lrwr_d         = lrwr_q;
    lrwait_d       = lrwait_q;
    lraddr_d       = lraddr_q;
    lframe_d       = lframe_q;
    lbeat_d        = lbeat_q;
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

    // the link stack's memory side: a granted request (its slot, and for a spill the oldest frame),
    // each line accepted, each line of a fill answered (the counts saturate: a register write may
    // have changed them while a frame was on its way)
    if (lgrant) begin
      lreq_d   = 1'b1;
      lrwr_d   = lspill_need;
      lbeat_d  = '0;
      lraddr_d = {lsbase_q[BaseW-1:LineShift], LineShift'(0)} + (BaseW'(lslot) << (LineShift + BeatShift));
      lframe_d = lspill_need ? AsmW'(link_bottom) : '0;
    end
    if (lreq_q && mem_req_ready_i) begin
      if (!lrwr_q) begin
        lreq_d   = 1'b0;
        lrwait_d = 1'b1;
      end else if (!lbeat_last) begin
        lbeat_d  = lbeat_q + 3'd1;
        lframe_d = lframe_next;
        lraddr_d = lraddr_q + (BaseW'(1) << LineShift);
      end else begin  // the oldest frame is in memory: its place is free
        lreq_d   = 1'b0;
        lbeat_d  = '0;
        lframe_d = '0;
        lraddr_d = '0;
        lbot_d   = lbot_q + LPtrW'(1);
        sp_d     = (sp_q == '0) ? sp_q : sp_q - SpW'(1);
        llines_d = (llines_q == '1) ? llines_q : llines_q + 16'd1;
      end
    end
    if (lrwait_q && mem_rsp_valid_i) begin
      lrwait_d = 1'b0;
      if (!lbeat_last) begin
        lreq_d   = 1'b1;
        lbeat_d  = lbeat_q + 3'd1;
        lframe_d = lframe_in;
        lraddr_d = lraddr_q + (BaseW'(1) << LineShift);
      end else begin  // the newest spilled frame is back, where a push would go (the ring is empty)
        lbeat_d  = '0;
        lframe_d = '0;
        lraddr_d = '0;
        sp_d     = (sp_q == '1) ? sp_q : sp_q + SpW'(1);
        llines_d = (llines_q == '0) ? llines_q : llines_q - 16'd1;
      end
    end
    // a linked call that finds room, or a fill's frame, goes above the frames held (one writer)
    if ((push && !sp_full) || lfill_done) begin
      for (int unsigned i = 0; i < LinkN; i++)
        if (32'(lpush_at) == i) lstack_d[i*FrameW +: FrameW] = lfill_done ? lframe_in[FrameW-1:0] : link_push;
    end

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
        if (sp_q <= SpW'(LinkN)) {base_d, offset_d} = link_top[FrameW-1:SumW];
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
    if (reg2hw.link_spill_lo_qe) lsbase_d[31:0] = reg2hw.link_spill_lo_value;
    if (reg2hw.link_spill_hi_qe) lsbase_d[BaseW-1:32] = reg2hw.link_spill_hi_value;
    if (reg2hw.link_spill_qe) begin
      llimit_d = reg2hw.link_spill_limit;
      llines_d = reg2hw.link_spill_lines;
    end
    // the window writes a part of frame LINK_ENTRY_SEL (a register write never meets a linked call)
    if (lent_we) begin
      for (int unsigned i = 0; i < LinkN; i++)
        if (32'(lsel_at) == i) lstack_d[i*FrameW +: FrameW] = lent_wdata;
    end
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
      lstack_q       <= '0;
      lbot_q         <= '0;
      lsbase_q       <= '0;
      llimit_q       <= '0;
      llines_q       <= '0;
      lreq_q         <= 1'b0;
      lrwr_q         <= 1'b0;
      lrwait_q       <= 1'b0;
      lraddr_q       <= '0;
      lframe_q       <= '0;
      lbeat_q        <= '0;
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
      lstack_q       <= lstack_d;
      lbot_q         <= lbot_d;
      lsbase_q       <= lsbase_d;
      llimit_q       <= llimit_d;
      llines_q       <= llines_d;
      lreq_q         <= lreq_d;
      lrwr_q         <= lrwr_d;
      lrwait_q       <= lrwait_d;
      lraddr_q       <= lraddr_d;
      lframe_q       <= lframe_d;
      lbeat_q        <= lbeat_d;
      upd_valid_q    <= upd_valid_d;
      upd_addr_q     <= upd_addr_d;
      upd_dec_q      <= upd_dec_d;
    end
  end

  // the window's write: a part of frame LINK_ENTRY_SEL, the rest as it is
  logic              lent_we;
  logic [FrameW-1:0] lent_wdata;
  assign lent_we = reg2hw.link_entry_base_lo_qe || reg2hw.link_entry_base_hi_qe || reg2hw.link_entry_offset_qe ||
                   reg2hw.link_entry_sum_qe;
  always_comb begin
    lent_wdata = link_entry;
    if (reg2hw.link_entry_base_lo_qe) lent_wdata[SumW+OffsetW +: 32] = reg2hw.link_entry_base_lo_value;
    if (reg2hw.link_entry_base_hi_qe) lent_wdata[SumW+OffsetW+32 +: BaseW-32] = reg2hw.link_entry_base_hi_value;
    if (reg2hw.link_entry_offset_qe)  lent_wdata[SumW +: OffsetW] = reg2hw.link_entry_offset_value;
    if (reg2hw.link_entry_sum_qe)     lent_wdata[SumW-1:0] = reg2hw.link_entry_sum_value;
  end

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
    .stall_o        (path_stall),
    .ev_kind_i      (ev_kind_i),
    .ev_is_call_i   (ev_is_call_i),
    .ev_is_ret_i    (ev_is_ret_i),
    .ev_op_i        (ev_op_i),
    .ev_operand_i   (ev_operand_i),
    .cnt_o          (path_cnt),
    .cnt_idx_o      (path_idx),
    .call_i         (push || call_init),
    .link_restore_i (pop && (sp_q != '0) && (sp_q <= SpW'(LinkN))),
    .link_sum_i     (link_top[SumW-1:0]),
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
    .sum_o          (path_sum),
    .stack_depth_o  (path_depth),
    .stack_err_o    (path_err),
    .spill_base_o   (path_spill_base),
    .spill_limit_o  (path_spill_limit),
    .spill_lines_o  (path_spill_lines),
    .sel_o          (path_sel),
    .entry_o        (path_entry),
    .mem_grant_i    (pgrant),
    .mem_busy_o     (pbusy),
    .mem_req_valid_o (preq_valid),
    .mem_req_ready_i (mem_req_ready_i),
    .mem_req_write_o (preq_write),
    .mem_req_addr_o  (preq_addr),
    .mem_req_wdata_o (preq_wdata),
    .mem_rsp_valid_i (mem_rsp_valid_i && pbusy),
    .mem_rsp_rdata_i (mem_rsp_rdata_i[SumW-1:0])
  );

  // ---- the memory port, between the two stacks: the top grants it to the pir when an event waits
  // and neither stack has a request under way; the link stack's frame goes first (a linked return
  // may need both stacks filled), then the path stack's sum
  logic                 path_stall, pbusy, pgrant, preq_valid, preq_write;
  logic [BaseW-1:0]     preq_addr;
  logic [SumW-1:0]      preq_wdata;
  assign stall_o         = link_stall || path_stall;
  assign mem_busy_o      = lbusy || pbusy;
  assign mem_want_o      = stall_o && !mem_busy_o;
  assign lgrant          = mem_grant_i && link_stall;
  assign pgrant          = mem_grant_i && !link_stall;
  assign mem_req_valid_o = lreq_q || preq_valid;
  assign mem_req_write_o = lreq_q ? lrwr_q : preq_write;
  assign mem_req_addr_o  = lreq_q ? lraddr_q : preq_addr;
  assign mem_req_wdata_o = lreq_q ? (lrwr_q ? lline_out : '0) : LineW'(preq_wdata);

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
  if ((1 << LPtrW) != LinkN || (1 << hwprof_pkg::PIR_LINK_ENTRY_SEL_INDEX_WIDTH) != LinkN ||
      hwprof_pkg::PIR_LINK_SPILL_HI_VALUE_WIDTH != BaseW - 32) begin : g_link_ring_check
    $error("PIR_LINK_ENTRIES must be a power of 2 that LINK_ENTRY_SEL.INDEX addresses; LINK_SPILL_HI must match PIR_BASE_W");
  end
  if (Beats > 8 || LineShift > 6) begin : g_link_line_check
    $error("a link frame must fit in 8 memory lines of at most 64 bytes");
  end
  if (LinkN < 1 || LinkN >= (1 << SpW) - 1) begin : g_link_entries_check
    $error("PIR_LINK_ENTRIES must be at least 1 and below 2^PIR_LINK_SP_W - 1");
  end
  if (CntW != 8 && CntW != 16 && CntW != 32 && CntW != 64) begin : g_cntw_check
    $error("CntW must be 8, 16, 32 or 64");
  end

endmodule

`default_nettype wire
