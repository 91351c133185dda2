// hwprof_sbuf: the value-profiling sample buffer.
//
// Seed 001 section 3.2: the buffer decouples the retirement of tagged instructions from their
// processing by the co-processor, and holds only the fields the profiling program needs, so that a
// record is as narrow as the application allows. docs/cop.md ("Front end") is the
// specification. A ring of Words 32-bit words holds each record's selected fields (0..5 words, in
// the order pc, next_pc, insn, addr, value); a second ring holds each record's 6-bit info tag (kind,
// taken, is_call, is_ret), which always travels with it. The oldest record is shown expanded
// (fields not selected read 0).
//
// Timing: a push writes at the clock edge, the record is shown from the next cycle; with no
// record held the outputs show 0. room_o is
// judged on the state at the start of the cycle (before this cycle's pop and clear); a push without
// room is ignored (the parent counts it dropped). A clear empties the buffer before this cycle's
// push, which is kept; it wins over this cycle's pop. The selection must not change while records
// are held (the parent refuses such writes).
//
// The rings are memories written with an index (see hwprof_cop.sv for why), not reset: only
// words of records pushed since are ever shown.
//
// Reset: synchronous, active low; every flop is reset except the rings.

`default_nettype none

module hwprof_sbuf #(
  parameter int unsigned Words = hwprof_pkg::SBUFWORDS_DEFAULT  // 32-bit words, 8..256, a power of two
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [4:0]  fields_i,   // selection, bit HWPROF_SFIELD_*
  input  logic        push_i,
  input  logic [31:0] f_pc_i,
  input  logic [31:0] f_npc_i,
  input  logic [31:0] f_insn_i,
  input  logic [31:0] f_addr_i,
  input  logic [31:0] f_value_i,
  input  logic [5:0]  info_i,
  input  logic        pop_i,
  input  logic        clear_i,
  output logic        valid_o,
  output logic [31:0] head_pc_o,
  output logic [31:0] head_npc_o,
  output logic [31:0] head_insn_o,
  output logic [31:0] head_addr_o,
  output logic [31:0] head_value_o,
  output logic [5:0]  head_info_o,
  output logic        room_o,
  output logic [15:0] records_o,
  output logic [15:0] used_o
);

  localparam int unsigned AW = $clog2(Words);

  logic [31:0]   mem_q [Words];
  logic [5:0]    tag_q [Words];
  logic [AW-1:0] wptr_q, wptr_d, rptr_q, rptr_d, twptr_q, twptr_d, trptr_q, trptr_d;
  logic [15:0]   records_q, records_d, used_q, used_d;

  // the record's size in words
  logic [2:0] k;
  assign k = 3'(fields_i[0]) + 3'(fields_i[1]) + 3'(fields_i[2]) + 3'(fields_i[3]) + 3'(fields_i[4]);

  assign room_o    = (32'(records_q) < Words) && (32'(used_q) + 32'(k) <= Words);
  assign valid_o   = records_q != 16'd0;
  assign records_o = records_q;
  assign used_o    = used_q;

  // the pushed record's words: the selected fields packed in order
  logic [31:0] f [5];
  logic [31:0] packed_f [5];
  assign f[0] = f_pc_i;
  assign f[1] = f_npc_i;
  assign f[2] = f_insn_i;
  assign f[3] = f_addr_i;
  assign f[4] = f_value_i;
  always_comb begin
    logic [2:0] j;
    j = 3'd0;
    for (int unsigned n = 0; n < 5; n++) packed_f[n] = 32'd0;
    for (int unsigned b = 0; b < 5; b++) begin
      if (fields_i[b]) begin
        packed_f[j] = f[b];
        j = j + 3'd1;
      end
    end
  end

  // the oldest record, expanded
  logic [31:0] head [5];
  always_comb begin
    logic [2:0] j;
    j = 3'd0;
    for (int unsigned b = 0; b < 5; b++) begin
      head[b] = 32'd0;
      if (fields_i[b] && valid_o) begin
        head[b] = mem_q[rptr_q + AW'(j)];
        j = j + 3'd1;
      end
    end
  end
  assign head_pc_o    = head[0];
  assign head_npc_o   = head[1];
  assign head_insn_o  = head[2];
  assign head_addr_o  = head[3];
  assign head_value_o = head[4];
  assign head_info_o  = valid_o ? tag_q[trptr_q] : 6'd0;

  logic push_ok;
  assign push_ok = push_i && room_o;

  always_comb begin
    wptr_d    = wptr_q;
    rptr_d    = rptr_q;
    twptr_d   = twptr_q;
    trptr_d   = trptr_q;
    records_d = records_q;
    used_d    = used_q;
    if (clear_i) begin
      rptr_d    = wptr_q;
      trptr_d   = twptr_q;
      records_d = 16'd0;
      used_d    = 16'd0;
    end else if (pop_i && (records_q != 16'd0)) begin
      rptr_d    = rptr_q + AW'(k);
      trptr_d   = trptr_q + AW'(1);
      records_d = records_q - 16'd1;
      used_d    = used_q - 16'(k);
    end
    if (push_ok) begin
      wptr_d    = wptr_q + AW'(k);
      twptr_d   = twptr_q + AW'(1);
      records_d = records_d + 16'd1;
      used_d    = used_d + 16'(k);
    end
  end

  always_ff @(posedge clk_i) begin  // memories: no reset
    if (push_ok) begin
      for (int unsigned j = 0; j < 5; j++) begin
        if (j < 32'(k)) mem_q[wptr_q + AW'(j)] <= packed_f[j];
      end
      tag_q[twptr_q] <= info_i;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      wptr_q    <= '0;
      rptr_q    <= '0;
      twptr_q   <= '0;
      trptr_q   <= '0;
      records_q <= '0;
      used_q    <= '0;
    end else begin
      wptr_q    <= wptr_d;
      rptr_q    <= rptr_d;
      twptr_q   <= twptr_d;
      trptr_q   <= trptr_d;
      records_q <= records_d;
      used_q    <= used_d;
    end
  end

  if ((Words < 8) || (Words > 256) || ((Words & (Words - 1)) != 0)) begin : g_words_check
    $error("Words must be 8..256, a power of two");
  end

endmodule

`default_nettype wire
