// hwprof_prim_cam: a content-addressable memory of N entries, each a KeyW-bit key with a valid
// bit: one lookup per cycle (which valid entries hold key_i; the lowest such index), one entry
// written per cycle, and a clear of every valid bit (C twin: cmodel/prim/cam.c). The building
// block of the value-profiling co-processor's PC slots (seed 001: a PC is looked up in the CAM).
//
// The lookup sees the entries as they are at the start of the cycle; the clear and the write take
// effect at the clock edge, the write after the clear (an entry written in the cycle of a clear is
// kept). A write to an index >= N is ignored.
//
// Reset: synchronous, active low; every key and valid bit is reset.

`default_nettype none

module hwprof_prim_cam #(
  parameter int unsigned N    = 16,  // entries, 1..64
  parameter int unsigned KeyW = 32   // key bits, 1..64
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [KeyW-1:0] key_i,      // the key looked up this cycle
  output logic            hit_o,      // a valid entry holds key_i
  output logic [7:0]      hit_idx_o,  // the lowest such entry (0 without a hit)
  output logic [N-1:0]    match_o,    // every valid entry holding key_i
  input  logic            clr_i,      // invalidate every entry
  input  logic            we_i,       // write entry widx_i
  input  logic [7:0]      widx_i,
  input  logic [KeyW-1:0] wkey_i,
  input  logic            wvalid_i
);

  logic [N*KeyW-1:0] key_q, key_d;
  logic [N-1:0]      valid_q, valid_d;

  logic found;
  always_comb begin
    match_o   = '0;
    hit_idx_o = '0;
    found     = 1'b0;
    for (int unsigned i = 0; i < N; i++) begin
      match_o[i] = valid_q[i] && (key_q[i*KeyW +: KeyW] == key_i);
      if (match_o[i] && !found) begin  // the lowest matching index wins
        hit_idx_o = 8'(i);
        found     = 1'b1;
      end
    end
  end
  assign hit_o = |match_o;

  always_comb begin
    key_d   = key_q;
    valid_d = clr_i ? '0 : valid_q;
    for (int unsigned i = 0; i < N; i++) begin
      if (we_i && (32'(widx_i) == i)) begin
        key_d[i*KeyW +: KeyW] = wkey_i;
        valid_d[i]            = wvalid_i;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      key_q   <= '0;
      valid_q <= '0;
    end else begin
      key_q   <= key_d;
      valid_q <= valid_d;
    end
  end

  if ((N < 1) || (N > 64)) begin : g_n_check
    $error("N must be 1..64");
  end
  if ((KeyW < 1) || (KeyW > 64)) begin : g_keyw_check
    $error("KeyW must be 1..64");
  end

endmodule

`default_nettype wire
