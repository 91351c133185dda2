// hwprof_vpf: the value-profiling front end.
//
// Seed 001 section 3.2 and Figure 3: retired instructions are considered by three filters used in
// conjunction: an opcode-class filter (one enable per retire kind), a PC mask/match filter (a hash
// of the PC, masked, compared with a match value: the program split into 2^n parts profiled in turn)
// and a PC bit-mask filter (a table of bits indexed by a hash of the PC: set bits exclude single
// instructions), each PC filter with a choice of hashes. A prescaler then keeps one in N of the
// instructions that pass (the simple-sampling baseline runs on the same hardware), and the kept
// ones become records of the sample buffer (hwprof_sbuf). docs/cop.md is the specification.
//
// Value profiling never stalls the processor: this block has no ready output; a record that does
// not fit is dropped and counted (statistics: passed, sampled, dropped).
//
// Timing: an accepted retire event is filtered in its cycle; the record is written at the edge and
// shown to the engine from the next cycle. A register write of the same cycle wins over the
// event's change of the prescaler count.
//
// Reset: synchronous, active low; every flop is reset except the bit-mask table's words, whose
// written bits are (a flash clear; a word not written since reads 0).

`default_nettype none

module hwprof_vpf #(
  parameter int unsigned SbufWords   = hwprof_pkg::SBUFWORDS_DEFAULT,   // sample buffer words, 8..256, a power of two
  parameter int unsigned BitmaskBits = hwprof_pkg::BITMASKBITS_DEFAULT  // PC bit-mask filter bits, 32..4096, a power of two
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,

  // accepted retire event
  input  logic                              ev_fire_i,
  input  logic [2:0]                        ev_kind_i,
  input  logic                              ev_taken_i,
  input  logic                              ev_is_call_i,
  input  logic                              ev_is_ret_i,
  input  logic [31:0]                       ev_pc_i,
  input  logic [31:0]                       ev_next_pc_i,
  input  logic [31:0]                       ev_insn_i,
  input  logic [31:0]                       ev_addr_i,
  input  logic [31:0]                       ev_value_i,

  // the oldest record, to the engine
  output logic                              smp_valid_o,
  output logic [31:0]                       smp_pc_o,
  output logic [31:0]                       smp_npc_o,
  output logic [31:0]                       smp_insn_o,
  output logic [31:0]                       smp_addr_o,
  output logic [31:0]                       smp_value_o,
  output logic [5:0]                        smp_info_o,
  input  logic                              smp_pop_i,

  // register window
  input  logic                              reg_access_i,
  input  logic                              reg_write_i,
  input  logic [hwprof_pkg::APB_ADDR_W-1:0] reg_addr_i,
  input  logic [31:0]                       reg_wdata_i,
  output logic [31:0]                       reg_rdata_o,
  output logic                              reg_error_o
);

  localparam int unsigned BmWords = BitmaskBits / 32;
  localparam int unsigned BmW     = $clog2(BitmaskBits);
  localparam int unsigned BmWW    = (BmW > 5) ? BmW - 5 : 1;  // bits of a word index

  // ---- register block (rtl/vpf/autogen/hwprof_vpf_reg.sv, generated from regs/vpf.json): it holds KINDS,
  // MASK, MATCH, PRESCALE and FIELDS; CTRL is held here (FIELDS' refusal depends on it)
  hwprof_pkg::vpf_hw2reg_t hw2reg;
  hwprof_pkg::vpf_reg2hw_t reg2hw;

  // ---- state
  logic [15:0] count_q, count_d;
  logic        enable_q, enable_d;
  logic [1:0]  hash_mm_q, hash_mm_d, hash_bm_q, hash_bm_d;
  logic [31:0]        bitmask_q [BmWords];  // not reset: see bm_wr_q
  logic [BmWords-1:0] bm_wr_q;              // word written since reset or the last clear

  // statistics (hwprof_prim_counters, below)
  localparam int unsigned StPassed = 0, StSampled = 1, StDropped = 2, StN = 3;
  logic [StN-1:0]    st_inc;
  logic [StN*32-1:0] st_count;

  // ---- the PC hashes of docs/cop.md (w = pc >> 2)
  function automatic logic [31:0] pc_hash(input logic [1:0] sel, input logic [29:0] word_addr);
    logic [31:0] w;
    w = {2'b00, word_addr};
    case (sel)
      2'd0:    pc_hash = w;
      2'd1:    pc_hash = w ^ (w >> 12);
      2'd2:    pc_hash = w ^ (w >> 7) ^ (w >> 15);
      default: pc_hash = w ^ (w >> 5) ^ (w >> 11) ^ (w >> 17);
    endcase
  endfunction

  // ---- filters and prescaler
  logic [BmW-1:0]  bm_idx;
  logic [BmWW-1:0] bm_word;
  logic           kind_ok, mm_ok, bm_ok, passed, chosen, room, pushed, dropped;
  logic [31:0]    hash_mm, hash_bm;
  always_comb begin
    hash_mm = pc_hash(hash_mm_q, ev_pc_i[31:2]);
    hash_bm = pc_hash(hash_bm_q, ev_pc_i[31:2]);
    bm_idx  = hash_bm[BmW-1:0];
    kind_ok = reg2hw.kinds_en[ev_kind_i];
    mm_ok   = ((hash_mm ^ reg2hw.match_value) & reg2hw.mask_value) == 32'd0;
    bm_word = BmWW'(32'(bm_idx) >> 5);
    bm_ok   = !(bm_wr_q[bm_word] && bitmask_q[bm_word][bm_idx[4:0]]);
    passed  = enable_q && ev_fire_i && kind_ok && mm_ok && bm_ok;
    chosen  = passed && (count_q <= 16'd1);
    pushed  = chosen && room;
    dropped = chosen && !room;
  end

  always_comb begin
    count_d = count_q;
    if (passed) count_d = (count_q <= 16'd1) ? reg2hw.prescale_reload : count_q - 16'd1;
    if (reg2hw.prescale_count_qe) count_d = reg2hw.prescale_count_value;  // a register write wins
    enable_d  = enable_q;
    hash_mm_d = hash_mm_q;
    hash_bm_d = hash_bm_q;
    if (reg2hw.ctrl_qe) begin
      enable_d  = reg2hw.ctrl_enable;
      hash_mm_d = reg2hw.ctrl_hash_mm;
      hash_bm_d = reg2hw.ctrl_hash_bm;
    end
  end

  // ---- the bit-mask table: one word written by the host, or all cleared
  logic bm_clear;
  assign bm_clear = reg2hw.action_qe && reg2hw.action_bitmask_clear;
  // a memory with a flash clear: a bit per word says whether it was written since the last clear
  always_ff @(posedge clk_i) begin
    if (!rst_ni || bm_clear) begin
      bm_wr_q <= '0;
    end else if (reg2hw.bitmask_we) begin
      bm_wr_q[BmWW'(reg2hw.bitmask_index)] <= 1'b1;
    end
  end
  always_ff @(posedge clk_i) begin  // memory: no reset (bm_wr_q)
    if (reg2hw.bitmask_we) bitmask_q[BmWW'(reg2hw.bitmask_index)] <= reg2hw.bitmask_wdata;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      count_q   <= '0;
      enable_q  <= 1'b0;
      hash_mm_q <= '0;
      hash_bm_q <= '0;
    end else begin
      count_q   <= count_d;
      enable_q  <= enable_d;
      hash_mm_q <= hash_mm_d;
      hash_bm_q <= hash_bm_d;
    end
  end

  // ---- the sample buffer
  logic [15:0] sb_records, sb_used;
  hwprof_sbuf #(
    .Words (SbufWords)
  ) u_sbuf (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .fields_i     (reg2hw.fields_sel),
    .push_i       (chosen),
    .f_pc_i       (ev_pc_i),
    .f_npc_i      (ev_next_pc_i),
    .f_insn_i     (ev_insn_i),
    .f_addr_i     (ev_addr_i),
    .f_value_i    (ev_value_i),
    .info_i       ({ev_is_ret_i, ev_is_call_i, ev_taken_i, ev_kind_i}),
    .pop_i        (smp_pop_i),
    .clear_i      (reg2hw.action_qe && reg2hw.action_sb_clear),
    .valid_o      (smp_valid_o),
    .head_pc_o    (smp_pc_o),
    .head_npc_o   (smp_npc_o),
    .head_insn_o  (smp_insn_o),
    .head_addr_o  (smp_addr_o),
    .head_value_o (smp_value_o),
    .head_info_o  (smp_info_o),
    .room_o       (room),
    .records_o    (sb_records),
    .used_o       (sb_used)
  );

  // ---- statistics
  always_comb begin
    st_inc            = '0;
    st_inc[StPassed]  = passed;
    st_inc[StSampled] = pushed;
    st_inc[StDropped] = dropped;
  end
  hwprof_prim_counters #(
    .N (StN),
    .W (32)
  ) u_stats (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .inc_i   (st_inc),
    .clr_i   (1'b0),
    .wr_i    ({reg2hw.stat_dropped_qe, reg2hw.stat_sampled_qe, reg2hw.stat_passed_qe}),
    .wdata_i (reg2hw.stat_passed_value),  // every register's value is the write data
    .count_o (st_count)
  );
  // the other statistics registers' values are the same write data as STAT_PASSED's
  logic unused_stat_wdata;
  assign unused_stat_wdata = ^{reg2hw.stat_sampled_value, reg2hw.stat_dropped_value};

  // ---- what the block shows its register block (the bit-mask word a read names is worked out
  // from the address: reg2hw's strobes depend on hw2reg's refusals)
  logic [hwprof_pkg::APB_ADDR_W-1:0] bm_off;
  logic [7:0]                        bm_ri;
  assign bm_off = reg_addr_i - hwprof_pkg::VPF_BITMASK_ADDR;
  assign bm_ri  = bm_off[9:2];
  always_comb begin
    hw2reg = '0;
    hw2reg.prescale_count_value = count_q;
    hw2reg.ctrl_enable          = enable_q;
    hw2reg.ctrl_hash_mm         = hash_mm_q;
    hw2reg.ctrl_hash_bm         = hash_bm_q;
    hw2reg.fields_refuse        = enable_q || (sb_records != 16'd0);
    hw2reg.sb_status_records    = sb_records;
    hw2reg.sb_status_words      = sb_used;
    hw2reg.stat_passed_value    = st_count[StPassed*32 +: 32];
    hw2reg.stat_sampled_value   = st_count[StSampled*32 +: 32];
    hw2reg.stat_dropped_value   = st_count[StDropped*32 +: 32];
    hw2reg.cfg_sb_words_log2    = 4'($clog2(SbufWords));
    hw2reg.cfg_bitmask_log2     = 4'(BmW);
    hw2reg.bitmask_rdata        = ((32'(bm_ri) < BmWords) && bm_wr_q[BmWW'(bm_ri)]) ? bitmask_q[BmWW'(bm_ri)] : 32'd0;
    hw2reg.bitmask_refuse       = 32'(bm_ri) >= BmWords;
  end

  hwprof_vpf_reg u_reg (
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

  logic unused_bits;
  assign unused_bits = ^{hash_bm[31:BmW], bm_off};

  if ((BitmaskBits < 32) || (BitmaskBits > 4096) || ((BitmaskBits & (BitmaskBits - 1)) != 0)) begin : g_bm_check
    $error("BitmaskBits must be 32..4096, a power of two");
  end

endmodule

`default_nettype wire
