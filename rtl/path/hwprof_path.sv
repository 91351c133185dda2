// hwprof_path: the path sum and its stack of outer sums, next to the pir (path profiling).
//
// Seed 004 (hierarchical path profiling) keeps a running path sum and a save stack of outer sums;
// it allows both to live in hardware registers. Here they do: an event that carries a path word
// (docs/path.md, "In the hardware") adds an edge's increment to the sum, counts a path (the
// pir turns the count into an ordinary update operation on counter[offset + sum + a], through the
// update buffer and profile cache like any other), saves the sum at a region's entry or restores
// it at a region's exit. The carriers (regs/encodings.json):
//
//   kind PROF, op PATH                        prof.path, its word from its shadow word
//   a branch or jump, not a call, op PATH     the word of its shadow word, when it went that way
//   a linked return (is_ret, op POP)          the word of its shadow word (b = 0); after the count,
//                                             the caller's sum comes back from the link stack
//
// A linked call saves the sum in the pir's link stack beside {base, offset}, so a profiled callee's
// paths never disturb its caller's, and its return restores it; a linked or starting call sets the
// sum to 0, where every path of the callee begins; another call is bracketed by the instrumenter (ENTER 0,
// 0 before, POP after). The sum, a counted index and the stack's entries are PATH_SUM_W bits:
// the arithmetic is modulo 2^PATH_SUM_W, so a negative increment is its value modulo that.
//
// Spilling (docs/path.md, "The path stack in memory"): with PATH_SPILL.LIMIT != 0 the stack goes
// on in memory, in an area of LIMIT 64-byte blocks. A push that finds the PATH_STACK_ENTRIES entries
// in use, with room in the area, first writes the oldest of them to line PATH_SPILL.LINES of the
// area (one line per entry, the sum in its low bits) and frees it; a pop that finds no entry held
// but PATH_SPILL.LINES != 0 first reads the newest line back into the empty ring. Either way the
// event waits at the retire port (stall_o) until its line is written or read: the path unit asks
// the top for the memory port (mem_want_o), which grants it (mem_grant_i) when the profile cache
// has no request presented or read outstanding; the request is then held (mem_busy_o) until
// accepted and, for a read, until answered. The entries held here form a ring: the oldest is
// entry bot_q.
//
// Overflow and underflow are never silent: PATH_STACK.DEPTH counts past the entries (saturating
// at 255), a push that finds all entries in use and no room in the spill area loses its sum and
// sets the sticky PATH_STACK.ERR, a pop above the entries restores nothing (sum = b), a pop with
// no entry held and none spilled sets ERR. The read-back refuses a path profile with ERR set.
//
// Context switch: every entry is readable and writable through the window (PATH_ENTRY_SEL and
// PATH_ENTRY, entry 0 the oldest held; the sums in the link stack's frames are the pir's).
//
// Timing: the state changes at the clock edge after the event is accepted (take_i); cnt_o and
// cnt_idx_o say, for the presented event, whether it counts and at which index (sum + a).
//
// Reset: synchronous, active low; every flop is reset.

`default_nettype none

module hwprof_path #(
  parameter int unsigned CntW      = hwprof_pkg::CNTW_DEFAULT,      // counter width: a line's words
  parameter int unsigned LineWords = hwprof_pkg::LINEWORDS_DEFAULT  // words per memory line
) (
  input  logic                                   clk_i,
  input  logic                                   rst_ni,

  // the presented retire event (fields as on the retire-event port) and its acceptance
  input  logic                                   ev_valid_i,  // presented
  input  logic                                   prog_i,      // the program's, not a trap handler's
  input  logic                                   take_i,      // accepted, and the program's
  output logic                                   stall_o,     // it is presented and must wait: its entry is spilled or filled first
  input  logic [2:0]                             ev_kind_i,
  input  logic                                   ev_is_call_i,
  input  logic                                   ev_is_ret_i,
  input  logic [2:0]                             ev_op_i,
  input  logic [hwprof_pkg::EV_OPERAND_W-1:0]    ev_operand_i,
  output logic                                   cnt_o,       // it counts a path (if profiling is on)
  output logic [hwprof_pkg::PATH_SUM_W-1:0]      cnt_idx_o,   // sum + a (modulo 2^PATH_SUM_W)

  // the pir's link stack: a linked call saves sum_o in its frame, a linked return that finds its
  // frame restores link_sum_i; a linked or starting call (call_i) sets the sum to 0, where its
  // callee's paths begin
  input  logic                                   call_i,
  input  logic                                   link_restore_i,
  input  logic [hwprof_pkg::PATH_SUM_W-1:0]      link_sum_i,

  // register writes (PATH_SUM, PATH_STACK, PATH_SPILL*, PATH_ENTRY*) and the values the window shows
  input  logic                                   sum_we_i,
  input  logic [hwprof_pkg::PATH_SUM_W-1:0]      sum_wdata_i,
  input  logic                                   stack_we_i,
  input  logic [7:0]                             stack_depth_i,
  input  logic                                   stack_err_i,
  input  logic                                   spill_lo_we_i,
  input  logic                                   spill_hi_we_i,
  input  logic [31:0]                            spill_lo_i,
  input  logic [hwprof_pkg::PIR_BASE_W-33:0]     spill_hi_i,
  input  logic                                   spill_we_i,
  input  logic [15:0]                            spill_limit_i,
  input  logic [15:0]                            spill_lines_i,
  input  logic                                   sel_we_i,
  input  logic [4:0]                             sel_i,
  input  logic                                   entry_we_i,
  input  logic [hwprof_pkg::PATH_SUM_W-1:0]      entry_wdata_i,
  output logic [hwprof_pkg::PATH_SUM_W-1:0]      sum_o,
  output logic [7:0]                             stack_depth_o,
  output logic                                   stack_err_o,
  output logic [hwprof_pkg::PIR_BASE_W-1:0]      spill_base_o,
  output logic [15:0]                            spill_limit_o,
  output logic [15:0]                            spill_lines_o,
  output logic [4:0]                             sel_o,
  output logic [hwprof_pkg::PATH_SUM_W-1:0]      entry_o,

  // the memory port, shared with the profile cache and the link stack through the pir and the top
  input  logic                                   mem_grant_i, // the port is this unit's from the next cycle
  output logic                                   mem_busy_o,  // a request presented, or a read outstanding
  output logic                                   mem_req_valid_o,
  input  logic                                   mem_req_ready_i,
  output logic                                   mem_req_write_o,
  output logic [hwprof_pkg::PIR_BASE_W-1:0]      mem_req_addr_o,
  output logic [hwprof_pkg::PATH_SUM_W-1:0]      mem_req_wdata_o, // the line's low bits (the rest 0)
  input  logic                                   mem_rsp_valid_i,
  input  logic [hwprof_pkg::PATH_SUM_W-1:0]      mem_rsp_rdata_i  // the answered line's low bits
);

  localparam int unsigned SumW  = hwprof_pkg::PATH_SUM_W;
  localparam int unsigned ValW  = hwprof_pkg::PATH_VAL_W;
  localparam int unsigned N     = hwprof_pkg::PATH_STACK_ENTRIES;
  localparam int unsigned PtrW  = $clog2(N);
  localparam int unsigned BaseW = hwprof_pkg::PIR_BASE_W;
  localparam int unsigned LineShift = $clog2(LineWords * CntW / 8);  // bytes of a line, log2 (at most 6)

  logic [SumW-1:0]  sum_q, sum_d;
  logic [7:0]       psp_q, psp_d;     // sums held here (counts past N with no room to spill)
  logic             perr_q, perr_d;   // sticky path-stack error
  logic [PtrW-1:0]  bot_q, bot_d;     // the oldest entry held
  logic [N*SumW-1:0] stack_q, stack_d;
  logic [BaseW-1:0] sbase_q, sbase_d; // PATH_SPILL_HI/LO
  logic [15:0]      limit_q, limit_d; // PATH_SPILL.LIMIT: the area's 64-byte blocks
  logic [21:0]      cap;              // ... the lines it holds
  logic [15:0]      lines_q, lines_d; // PATH_SPILL.LINES
  logic [4:0]       sel_q, sel_d;     // PATH_ENTRY_SEL
  logic             req_q, req_d;     // a line request presented
  logic             rwr_q, rwr_d;     // ... a write (a spill), else a read (a fill)
  logic [BaseW-1:0] raddr_q, raddr_d;
  logic [SumW-1:0]  rdata_q, rdata_d;
  logic             rwait_q, rwait_d; // a fill's read accepted, not yet answered
  logic [15:0]      line_no;          // the line a granted request moves: LINES (a spill) or LINES - 1

  // ---- the event's path word
  logic is_xfer, has_word;
  assign is_xfer = (ev_kind_i == hwprof_pkg::KIND_BRANCH) || (ev_kind_i == hwprof_pkg::KIND_JUMP) ||
                   (ev_kind_i == hwprof_pkg::KIND_IJUMP);
  assign has_word = ((ev_kind_i == hwprof_pkg::KIND_PROF) && (ev_op_i == 3'(hwprof_pkg::PROF_OP_PATH))) ||
                    (is_xfer && !ev_is_call_i && (ev_op_i == 3'(hwprof_pkg::PROF_OP_PATH))) ||
                    (is_xfer && (ev_kind_i != hwprof_pkg::KIND_BRANCH) && ev_is_ret_i &&
                     (ev_op_i == hwprof_pkg::PROF_OP_POP));

  logic [2:0]      kind;
  logic [SumW-1:0] a, b;
  assign kind = has_word ? ev_operand_i[hwprof_pkg::PATH_KIND_LSB +: 3] : hwprof_pkg::PATH_OP_NONE;
  assign a    = SumW'(ev_operand_i[hwprof_pkg::PATH_A_LSB +: ValW]);
  assign b    = SumW'(ev_operand_i[hwprof_pkg::PATH_B_LSB +: ValW]);

  assign cnt_o     = (kind == hwprof_pkg::PATH_OP_COUNT) || (kind == hwprof_pkg::PATH_OP_LEAVE);
  assign cnt_idx_o = sum_q + a;

  // ---- the stack: the ring's entries (one-hot AND-OR reads, as hwprof_prim_regfile's)
  logic            is_push, is_pop, push, pop, full, has_top;
  logic [PtrW-1:0] top_at, push_at, sel_at;
  logic [SumW-1:0] top, bottom, entry;
  assign is_push = (kind == hwprof_pkg::PATH_OP_ENTER);
  assign is_pop  = (kind == hwprof_pkg::PATH_OP_LEAVE) || (kind == hwprof_pkg::PATH_OP_POP);
  assign push    = take_i && is_push;
  assign pop     = take_i && is_pop;
  assign full    = (psp_q >= 8'(N));
  assign has_top = (psp_q != '0) && (psp_q <= 8'(N));
  assign top_at  = bot_q + PtrW'(psp_q) - PtrW'(1);
  assign push_at = bot_q + PtrW'(psp_q);
  assign sel_at  = bot_q + PtrW'(sel_q);

  always_comb begin
    top    = '0;
    bottom = '0;
    entry  = '0;
    for (int unsigned i = 0; i < N; i++) begin
      top    = top    | (stack_q[i*SumW +: SumW] & {SumW{32'(top_at) == i}});
      bottom = bottom | (stack_q[i*SumW +: SumW] & {SumW{32'(bot_q) == i}});
      entry  = entry  | (stack_q[i*SumW +: SumW] & {SumW{32'(sel_at) == i}});
    end
  end

  // ---- spilling: the presented program event needs its entry moved first
  logic spill_need, fill_need, spill_done, fill_done;
  assign cap        = 22'(limit_q) << (6 - LineShift);
  assign spill_need = is_push && full && (22'(lines_q) < cap) && (lines_q != '1);
  assign fill_need  = is_pop && (psp_q == '0) && (lines_q != '0);
  assign stall_o    = ev_valid_i && prog_i && (spill_need || fill_need);
  assign mem_busy_o = req_q || rwait_q;
  assign spill_done = req_q && rwr_q && mem_req_ready_i;
  assign fill_done  = rwait_q && mem_rsp_valid_i;
  assign line_no    = spill_need ? lines_q : lines_q - 16'd1;

  assign mem_req_valid_o = req_q;
  assign mem_req_write_o = req_q && rwr_q;
  assign mem_req_addr_o  = req_q ? raddr_q : '0;
  assign mem_req_wdata_o = (req_q && rwr_q) ? rdata_q : '0;

  always_comb begin
    sum_d   = sum_q;
    psp_d   = psp_q;
    perr_d  = perr_q;
    bot_d   = bot_q;
    stack_d = stack_q;
    sbase_d = sbase_q;
    limit_d = limit_q;
    lines_d = lines_q;
    sel_d   = sel_q;
    req_d   = req_q;
    rwr_d   = rwr_q;
    raddr_d = raddr_q;
    rdata_d = rdata_q;
    rwait_d = rwait_q;

    // the memory side: a granted request (its line, from the state of the grant), its acceptance,
    // a fill's answer
    if (mem_grant_i) begin
      req_d   = 1'b1;
      rwr_d   = spill_need;
      raddr_d = {sbase_q[BaseW-1:LineShift], LineShift'(0)} +
                (BaseW'(line_no) << LineShift);
      rdata_d = bottom;
    end
    if (req_q && mem_req_ready_i) begin
      req_d   = 1'b0;
      raddr_d = '0;
      rdata_d = '0;
      rwait_d = !rwr_q;
    end
    // (the counts saturate: a register write may have changed them while the line was on its way)
    if (spill_done) begin  // the oldest entry is in memory: its place is free
      bot_d   = bot_q + PtrW'(1);
      psp_d   = (psp_q == '0) ? psp_q : psp_q - 8'd1;
      lines_d = (lines_q == '1) ? lines_q : lines_q + 16'd1;
    end
    if (fill_done) begin   // the newest spilled entry is back, where a push would go (the ring is empty)
      rwait_d = 1'b0;
      psp_d   = (psp_q == '1) ? psp_q : psp_q + 8'd1;
      lines_d = (lines_q == '0) ? lines_q : lines_q - 16'd1;
    end

    if (take_i) begin
      unique case (kind)
        hwprof_pkg::PATH_OP_ADD:   sum_d = sum_q + a;
        hwprof_pkg::PATH_OP_SET:   sum_d = a;
        hwprof_pkg::PATH_OP_COUNT: sum_d = b;
        hwprof_pkg::PATH_OP_ENTER: sum_d = b;
        hwprof_pkg::PATH_OP_LEAVE, hwprof_pkg::PATH_OP_POP: sum_d = (has_top ? top : '0) + b;
        default: ;  // NONE, and the reserved operation: nothing
      endcase
    end
    // a push that finds room, or a fill's answer, writes the entry above the ones held (one writer)
    if ((push && !full) || fill_done) begin
      for (int unsigned i = 0; i < N; i++)
        if (32'(push_at) == i) stack_d[i*SumW +: SumW] = fill_done ? mem_rsp_rdata_i : sum_q + a;
    end
    if (push) begin
      if (full) perr_d = 1'b1;  // this sum is lost
      if (psp_q != '1) psp_d = psp_q + 8'd1;
    end
    if (pop) begin
      if (psp_q == '0) perr_d = 1'b1;  // nothing to restore
      else psp_d = psp_q - 8'd1;
    end
    // a linked or starting call: the callee's paths begin at 0; a linked return: the caller's sum,
    // after the return's own count
    if (call_i) sum_d = '0;
    if (link_restore_i) sum_d = link_sum_i;
    // register writes (they never meet an accepted event)
    if (sum_we_i) sum_d = sum_wdata_i;
    if (stack_we_i) begin
      psp_d  = stack_depth_i;
      perr_d = stack_err_i;
    end
    if (spill_lo_we_i) sbase_d[31:0] = spill_lo_i;
    if (spill_hi_we_i) sbase_d[BaseW-1:32] = spill_hi_i;
    if (spill_we_i) begin
      limit_d = spill_limit_i;
      lines_d = spill_lines_i;
    end
    if (sel_we_i) sel_d = sel_i;
    if (entry_we_i) begin
      for (int unsigned i = 0; i < N; i++)
        if (32'(sel_at) == i) stack_d[i*SumW +: SumW] = entry_wdata_i;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      sum_q   <= '0;
      psp_q   <= '0;
      perr_q  <= 1'b0;
      bot_q   <= '0;
      stack_q <= '0;
      sbase_q <= '0;
      limit_q <= '0;
      lines_q <= '0;
      sel_q   <= '0;
      req_q   <= 1'b0;
      rwr_q   <= 1'b0;
      raddr_q <= '0;
      rdata_q <= '0;
      rwait_q <= 1'b0;
    end else begin
      sum_q   <= sum_d;
      psp_q   <= psp_d;
      perr_q  <= perr_d;
      bot_q   <= bot_d;
      stack_q <= stack_d;
      sbase_q <= sbase_d;
      limit_q <= limit_d;
      lines_q <= lines_d;
      sel_q   <= sel_d;
      req_q   <= req_d;
      rwr_q   <= rwr_d;
      raddr_q <= raddr_d;
      rdata_q <= rdata_d;
      rwait_q <= rwait_d;
    end
  end

  logic unused;
  assign unused = ^{ev_operand_i[hwprof_pkg::EV_OPERAND_W-1:29]};

  assign sum_o         = sum_q;
  assign stack_depth_o = psp_q;
  assign stack_err_o   = perr_q;
  assign spill_base_o  = sbase_q;
  assign spill_limit_o = limit_q;
  assign spill_lines_o = lines_q;
  assign sel_o         = sel_q;
  assign entry_o       = entry;

  if (hwprof_pkg::PIR_PATH_SUM_VALUE_WIDTH != SumW || hwprof_pkg::PIR_PATH_ENTRY_VALUE_WIDTH != SumW) begin : g_sum_width_check
    $error("regs/pir.json PATH_SUM and PATH_ENTRY must be PATH_SUM_W wide");
  end
  if (hwprof_pkg::PIR_PATH_STACK_DEPTH_WIDTH != 8) begin : g_depth_width_check
    $error("regs/pir.json PATH_STACK.DEPTH must be 8 bits");
  end
  if (N < 2 || N >= 255 || (1 << PtrW) != N || hwprof_pkg::PIR_PATH_ENTRY_SEL_INDEX_WIDTH != PtrW) begin : g_entries_check
    $error("PATH_STACK_ENTRIES must be a power of 2 below 255, PATH_ENTRY_SEL.INDEX as wide as its log2");
  end
  if (LineWords * CntW < SumW || LineShift > 6) begin : g_line_check
    $error("a memory line must hold a path sum, and be at most 64 bytes");
  end
  if (ValW != SumW || hwprof_pkg::PATH_B_LSB + ValW > 29 || hwprof_pkg::PATH_A_LSB + ValW > hwprof_pkg::PATH_B_LSB) begin : g_word_check
    $error("a path word's fields must fit in bits 28:0, its values as wide as the sum");
  end

endmodule

`default_nettype wire
