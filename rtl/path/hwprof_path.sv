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
// A linked call (the pir pushes {base, offset}) saves the sum beside them (u_link_sum), so a
// profiled callee's paths never disturb its caller's; a linked or starting call sets the sum to 0,
// where every path of the callee begins; another call is bracketed by the instrumenter (ENTER 0,
// 0 before, POP after). The sum, a counted index and the stack's entries are PATH_SUM_W bits:
// the arithmetic is modulo 2^PATH_SUM_W, so a negative increment is its value modulo that.
//
// Overflow and underflow of the path stack are never silent: PATH_STACK.DEPTH counts past the
// entries (saturating at 255), a push that finds all PATH_STACK_ENTRIES in use loses its sum and
// sets the sticky PATH_STACK.ERR, a pop above the entries restores nothing (sum = b), a pop at
// depth 0 sets ERR. The read-back refuses a path profile with ERR set.
//
// Timing: the state changes at the clock edge after the event is accepted (take_i); cnt_o and
// cnt_idx_o say, for the presented event, whether it counts and at which index (sum + a).
//
// Reset: synchronous, active low; every flop is reset.

`default_nettype none

module hwprof_path (
  input  logic                                   clk_i,
  input  logic                                   rst_ni,

  // the presented retire event (fields as on the retire-event port) and its acceptance
  input  logic                                   take_i,      // accepted, and the program's
  input  logic [2:0]                             ev_kind_i,
  input  logic                                   ev_is_call_i,
  input  logic                                   ev_is_ret_i,
  input  logic [2:0]                             ev_op_i,
  input  logic [hwprof_pkg::EV_OPERAND_W-1:0]    ev_operand_i,
  output logic                                   cnt_o,       // it counts a path (if profiling is on)
  output logic [hwprof_pkg::PATH_SUM_W-1:0]      cnt_idx_o,   // sum + a (modulo 2^PATH_SUM_W)

  // the pir's link stack: a linked call saves the sum in entry link_waddr_i, a linked return that
  // finds its frame restores it from entry link_raddr_i; a linked or starting call (call_i) sets
  // the sum to 0, where its callee's paths begin
  input  logic                                   call_i,
  input  logic                                   link_we_i,
  input  logic [7:0]                             link_waddr_i,
  input  logic                                   link_restore_i,
  input  logic [7:0]                             link_raddr_i,

  // register writes (PATH_SUM, PATH_STACK) and the values the window shows
  input  logic                                   sum_we_i,
  input  logic [hwprof_pkg::PATH_SUM_W-1:0]      sum_wdata_i,
  input  logic                                   stack_we_i,
  input  logic [7:0]                             stack_depth_i,
  input  logic                                   stack_err_i,
  output logic [hwprof_pkg::PATH_SUM_W-1:0]      sum_o,
  output logic [7:0]                             stack_depth_o,
  output logic                                   stack_err_o
);

  localparam int unsigned SumW = hwprof_pkg::PATH_SUM_W;
  localparam int unsigned ValW = hwprof_pkg::PATH_VAL_W;
  localparam int unsigned N    = hwprof_pkg::PATH_STACK_ENTRIES;
  localparam int unsigned LinkN = hwprof_pkg::PIR_LINK_ENTRIES;

  logic [SumW-1:0] sum_q, sum_d;
  logic [7:0]      psp_q, psp_d;   // sums pushed and not popped
  logic            perr_q, perr_d; // sticky path-stack error

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

  // ---- the stack of outer sums
  logic            push, pop, full, has_top;
  logic [SumW-1:0] top, link_sum;
  assign push    = take_i && (kind == hwprof_pkg::PATH_OP_ENTER);
  assign pop     = take_i && ((kind == hwprof_pkg::PATH_OP_LEAVE) || (kind == hwprof_pkg::PATH_OP_POP));
  assign full    = (psp_q >= 8'(N));
  assign has_top = (psp_q != '0) && (psp_q <= 8'(N));

  always_comb begin
    sum_d  = sum_q;
    psp_d  = psp_q;
    perr_d = perr_q;
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
    if (link_restore_i) sum_d = link_sum;
    if (sum_we_i) sum_d = sum_wdata_i;
    if (stack_we_i) begin
      psp_d  = stack_depth_i;
      perr_d = stack_err_i;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      sum_q  <= '0;
      psp_q  <= '0;
      perr_q <= 1'b0;
    end else begin
      sum_q  <= sum_d;
      psp_q  <= psp_d;
      perr_q <= perr_d;
    end
  end

  // the saved outer sums, bottom first: a push that finds room writes entry psp, a pop reads
  // entry psp - 1
  logic [SumW-1:0] stack_unused;
  hwprof_prim_regfile #(
    .N (N),
    .W (SumW)
  ) u_stack (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .raddr_a_i (psp_q - 8'd1),
    .rdata_a_o (top),
    .raddr_b_i (8'd0),
    .rdata_b_o (stack_unused),
    .we_i      (push && !full),
    .waddr_i   (psp_q),
    .wdata_i   (sum_q + a)
  );

  // the sums saved by linked calls, beside the pir's {base, offset} entries
  logic [SumW-1:0] link_unused;
  hwprof_prim_regfile #(
    .N (LinkN),
    .W (SumW)
  ) u_link_sum (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .raddr_a_i (link_raddr_i),
    .rdata_a_o (link_sum),
    .raddr_b_i (8'd0),
    .rdata_b_o (link_unused),
    .we_i      (link_we_i),
    .waddr_i   (link_waddr_i),
    .wdata_i   (sum_q)
  );

  logic unused;
  assign unused = ^{stack_unused, link_unused, ev_operand_i[hwprof_pkg::EV_OPERAND_W-1:29]};

  assign sum_o         = sum_q;
  assign stack_depth_o = psp_q;
  assign stack_err_o   = perr_q;

  if (hwprof_pkg::PIR_PATH_SUM_VALUE_WIDTH != SumW) begin : g_sum_width_check
    $error("regs/pir.json PATH_SUM does not match PATH_SUM_W");
  end
  if (hwprof_pkg::PIR_PATH_STACK_DEPTH_WIDTH != 8) begin : g_depth_width_check
    $error("regs/pir.json PATH_STACK.DEPTH must be 8 bits");
  end
  if (N < 1 || N >= 255) begin : g_entries_check
    $error("PATH_STACK_ENTRIES must be at least 1 and below 255");
  end
  if (ValW != SumW || hwprof_pkg::PATH_B_LSB + ValW > 29 || hwprof_pkg::PATH_A_LSB + ValW > hwprof_pkg::PATH_B_LSB) begin : g_word_check
    $error("a path word's fields must fit in bits 28:0, its values as wide as the sum");
  end

endmodule

`default_nettype wire
