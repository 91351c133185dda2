// hwprof_prim_regfile: a register file of N words of W bits with two read ports and one write port
// (C twin: cmodel/prim/regfile.c). The building block of the co-processor's register files and
// its small data arrays. Reads are combinational and see the words as they are at the start of
// the cycle (a word written this cycle reads its new value from the next cycle on); an address
// >= N reads 0 and a write to one is ignored.
//
// Reset: synchronous, active low; every word is reset to 0.

`default_nettype none

module hwprof_prim_regfile #(
  parameter int unsigned N = 16,  // words, 1..64
  parameter int unsigned W = 32   // bits per word, 1..64
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic [7:0]   raddr_a_i,
  output logic [W-1:0] rdata_a_o,
  input  logic [7:0]   raddr_b_i,
  output logic [W-1:0] rdata_b_o,
  input  logic         we_i,
  input  logic [7:0]   waddr_i,
  input  logic [W-1:0] wdata_i
);

  logic [N*W-1:0] mem_q, mem_d;

  // one-hot AND-OR selections (a variable part-select would synthesize as wide as the array)
  always_comb begin
    rdata_a_o = '0;
    rdata_b_o = '0;
    for (int unsigned i = 0; i < N; i++) begin
      rdata_a_o = rdata_a_o | (mem_q[i*W +: W] & {W{32'(raddr_a_i) == i}});
      rdata_b_o = rdata_b_o | (mem_q[i*W +: W] & {W{32'(raddr_b_i) == i}});
    end
  end

  always_comb begin
    mem_d = mem_q;
    for (int unsigned i = 0; i < N; i++) begin
      if (we_i && (32'(waddr_i) == i)) mem_d[i*W +: W] = wdata_i;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) mem_q <= '0;
    else         mem_q <= mem_d;
  end

  if ((N < 1) || (N > 64)) begin : g_n_check
    $error("N must be 1..64");
  end
  if ((W < 1) || (W > 64)) begin : g_w_check
    $error("W must be 1..64");
  end

endmodule

`default_nettype wire
