// hwprof_prim_fifo: a ring buffer of Depth entries of Width bits, with a count, a head read port,
// pop, clear and push in the same cycle. The building block of the trace controller's FIFO, and of
// the sample buffer and queues the next engines need (C twin: cmodel/prim/fifo.c).
//
// One cycle's order: the pop (the parent pops only a non-empty FIFO) advances the head, the clear
// empties the FIFO (the head stays where it is), then the push writes the slot after the last
// entry left by them. The parent decides a push against full_o, which is the fullness at the start
// of the cycle: a push into a FIFO full at the start of the cycle is the parent's to refuse, even
// when the same cycle pops.
//
// rdata_o is the head entry, or 0 when the FIFO is empty (so a read of an empty FIFO is defined).
// Reads are one-hot AND-OR selections over the entries, writes constant-index loops with enables
// (a variable index would synthesize as wide as the whole array).
//
// Reset: synchronous, active low; the head and count are reset, the entries too.

`default_nettype none

module hwprof_prim_fifo #(
  parameter int unsigned Width = 32,  // bits per entry, 1..64
  parameter int unsigned Depth = 8    // entries, 1..128
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             pop_i,    // remove the head entry (only when count_o != 0)
  input  logic             clr_i,    // empty the FIFO
  input  logic             push_i,   // append wdata_i (only when !full_o)
  input  logic [Width-1:0] wdata_i,
  output logic [Width-1:0] rdata_o,  // the head entry, 0 when empty
  output logic [7:0]       count_o,
  output logic             full_o
);

  localparam int unsigned PtrW = (Depth > 1) ? $clog2(Depth) : 1;

  logic [Depth*Width-1:0] data_q, data_d;
  logic [PtrW-1:0]        head_q, head_d;
  logic [7:0]             count_q, count_d;
  logic [7:0]             slot;

  always_comb begin
    rdata_o = '0;
    for (int unsigned i = 0; i < Depth; i++) begin
      rdata_o = rdata_o | (data_q[i*Width +: Width] & {Width{32'(head_q) == i}});
    end
    if (count_q == '0) rdata_o = '0;
  end

  assign count_o = count_q;
  assign full_o  = count_q == 8'(Depth);

  always_comb begin
    data_d  = data_q;
    head_d  = head_q;
    count_d = count_q;
    slot    = '0;
    if (pop_i) begin
      head_d  = (head_q == PtrW'(Depth - 1)) ? '0 : head_q + PtrW'(1);
      count_d = count_q - 8'd1;
    end
    if (clr_i) count_d = '0;
    if (push_i) begin
      slot = 8'(head_d) + count_d;
      if (slot >= 8'(Depth)) slot = slot - 8'(Depth);
      for (int unsigned i = 0; i < Depth; i++) begin
        if (32'(slot) == i) data_d[i*Width +: Width] = wdata_i;
      end
      count_d = count_d + 8'd1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      data_q  <= '0;
      head_q  <= '0;
      count_q <= '0;
    end else begin
      data_q  <= data_d;
      head_q  <= head_d;
      count_q <= count_d;
    end
  end

`ifndef SYNTHESIS
  // sampled at the clock edge, as the flops sample them (a combinational check would also see the
  // new state with the old inputs)
  always @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(pop_i && (count_q == '0)));  // the parent pops only a non-empty FIFO
      assert (!(push_i && full_o));          // ... and pushes only into room
      assert (count_q <= 8'(Depth));
      assert (32'(head_q) < Depth);
    end
  end
`endif

  if ((Depth < 1) || (Depth > 128)) begin : g_depth_check
    $error("Depth must be 1..128");
  end
  if ((Width < 1) || (Width > 64)) begin : g_width_check
    $error("Width must be 1..64");
  end

endmodule

`default_nettype wire
