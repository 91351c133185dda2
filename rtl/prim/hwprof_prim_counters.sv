// hwprof_prim_counters: a bank of N event counters of W bits each, the statistics of every engine
// (C twin: cmodel/prim/counters.c). Counter i adds inc_i[i] each cycle and wraps around at 2^W;
// clr_i zeroes the whole bank, wr_i[i] loads counter i with wdata_i (software's write: a preset,
// or a value restored after a context switch), and an increment in the same cycle counts after
// the clear and the write (the counter then holds the written value plus that cycle's event).
// Software reads a counter through the engine's register block, which shows count_o.
//
// Reset: synchronous, active low; every counter starts at 0.

`default_nettype none

module hwprof_prim_counters #(
  parameter int unsigned N = 1,   // counters, 1..16
  parameter int unsigned W = 32   // bits per counter, 1..64
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic [N-1:0]   inc_i,    // one bit per counter: count one event this cycle
  input  logic           clr_i,    // zero every counter (before this cycle's increments)
  input  logic [N-1:0]   wr_i,     // one bit per counter: load wdata_i (after the clear)
  input  logic [W-1:0]   wdata_i,
  output logic [N*W-1:0] count_o   // counter i in bits [i*W +: W]
);

  logic [N*W-1:0] count_q, count_d;

  always_comb begin
    count_d = clr_i ? '0 : count_q;
    for (int unsigned i = 0; i < N; i++) begin
      if (wr_i[i]) count_d[i*W +: W] = wdata_i;
      count_d[i*W +: W] = count_d[i*W +: W] + W'(inc_i[i]);
    end
  end

  assign count_o = count_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) count_q <= '0;
    else         count_q <= count_d;
  end

  if ((N < 1) || (N > 16)) begin : g_n_check
    $error("N must be 1..16");
  end
  if ((W < 1) || (W > 64)) begin : g_w_check
    $error("W must be 1..64");
  end

endmodule

`default_nettype wire
