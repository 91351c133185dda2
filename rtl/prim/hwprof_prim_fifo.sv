// hwprof_prim_fifo: a ring buffer of Depth entries of Width bits, with a count, a head read port,
// an indexed read port, pop, clear and push in the same cycle. The building block of the trace
// controller's FIFO, the edge-profiling unit's update buffer and its overflowed-address buffer
// (Overwrite), and of the sample buffer and queues the next engines need (C twin:
// cmodel/prim/fifo.c).
//
// One cycle's order: the pop (the parent pops only a non-empty FIFO) advances the head, the clear
// empties the FIFO (the head stays where it is), then the push writes the slot after the last
// entry left by them. Room is counted after that cycle's pop and clear: full_o is the fullness at
// the start of the cycle, and a push while full_o is the parent's to refuse unless the same cycle
// pops or clears. With Overwrite, a push into a FIFO that is still full after the pop and clear
// replaces the oldest entry instead (the head moves on, the count stays at Depth): a buffer that
// keeps the Depth most recent entries.
//
// rdata_o is the head entry, or 0 when the FIFO is empty (so a read of an empty FIFO is defined);
// idx_rdata_o is the entry idx_i places behind the head (0: the head), or 0 when idx_i >= count_o;
// with IdxRead = 0 the port is not built (idx_rdata_o is 0), for parents that read the head only.
// Reads are one-hot AND-OR selections over the entries, writes constant-index loops with enables
// (a variable index would synthesize as wide as the whole array).
//
// Reset: synchronous, active low; the head and count are reset, the entries too.

`default_nettype none

module hwprof_prim_fifo #(
  parameter int unsigned Width = 32,  // bits per entry, 1..64
  parameter int unsigned Depth = 8,   // entries, 1..128
  parameter bit          Overwrite = 1'b0,  // a push into a full FIFO replaces the oldest entry
  parameter bit          IdxRead = 1'b1     // the indexed read port exists (0: idx_rdata_o is 0)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             pop_i,    // remove the head entry (only when count_o != 0)
  input  logic             clr_i,    // empty the FIFO
  input  logic             push_i,   // append wdata_i (only when !full_o)
  input  logic [Width-1:0] wdata_i,
  output logic [Width-1:0] rdata_o,  // the head entry, 0 when empty
  input  logic [7:0]       idx_i,    // which entry idx_rdata_o shows, counted from the head
  output logic [Width-1:0] idx_rdata_o,
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

  if (IdxRead) begin : g_idx_read
    logic [7:0] idx_pos;  // the slot of entry idx_i
    always_comb begin
      idx_rdata_o = '0;
      idx_pos = 8'(head_q) + idx_i;  // no wrap of the 8 bits while idx_i < count_q <= Depth <= 128
      if (idx_pos >= 8'(Depth)) idx_pos = idx_pos - 8'(Depth);
      for (int unsigned i = 0; i < Depth; i++) begin
        idx_rdata_o = idx_rdata_o | (data_q[i*Width +: Width] & {Width{32'(idx_pos) == i}});
      end
      if (idx_i >= count_q) idx_rdata_o = '0;
    end
  end else begin : g_no_idx_read
    // a parent that reads only the head leaves the indexed port open and pays nothing for it
    logic unused_idx;
    assign unused_idx  = ^idx_i;
    assign idx_rdata_o = '0;
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
      if (Overwrite && (count_d == 8'(Depth))) begin  // replace the oldest entry
        slot   = 8'(head_d);
        head_d = (head_d == PtrW'(Depth - 1)) ? '0 : head_d + PtrW'(1);
      end else begin
        // the slot after the last entry: a pop moves the head on and the count down, which leaves
        // head + count as it was, so the slot comes from the cycle's state alone (the pop is not on
        // the path into the write enables); a clear empties the FIFO at the (popped) head
        slot = clr_i ? 8'(head_d) : 8'(head_q) + count_q;
        if (slot >= 8'(Depth)) slot = slot - 8'(Depth);
        count_d = count_d + 8'd1;
      end
      for (int unsigned i = 0; i < Depth; i++) begin
        if (32'(slot) == i) data_d[i*Width +: Width] = wdata_i;
      end
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
      assert (!(push_i && full_o && !pop_i && !clr_i && !Overwrite));  // ... and pushes only into room
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
