// hwprof_edge_prof: the edge-profiling unit's update path.
//
// Seed 000 (Wu, collaborative profiling), section 7 and Figure 4: the update operations the pir
// generates go into a profile update buffer and are performed by a profile cache backed by memory,
// without bringing data to the processor. Counters are CntW-bit modular; a carry out of an increment
// is an overflow, a borrow out of a decrement an underflow; both are reported the cycle after the
// update to the pir (which moves the trigger counter) and recorded in the overflowed-address
// buffer. docs/architecture.md
// fixes the counter, trigger, bounds and no-loss rules; docs/edge_prof.md describes the cycle
// behaviour that the C model (cmodel/edge_prof/edge_prof.c) repeats exactly.
//
// Structure:
//   update buffer   FIFO of UpdDepth (address, dec) entries; the parent stalls any retire event that
//                   would generate an update while the buffer cannot take it (nothing is dropped)
//   profile cache   Sets x Ways lines of LineWords counters, write-back, write-allocate, blocking,
//                   in two stages: the lookup compares the head operation's tag and, on a hit, hands
//                   the operation to the update stage, which reads, increments or decrements and
//                   writes its counter the next cycle (one update per cycle); a miss writes back a
//                   dirty victim, then fills
//   commands        FLUSH writes back every dirty line, INVALIDATE clears every line; a command
//                   first drains the update buffer (events that would update wait meanwhile)
//   bounds          an update outside [bound_lo, bound_hi) or not counter-aligned when it enters
//                   the update buffer is dropped at its lookup, counted and reported (drop_o)
//   OAB             the OabDepth most recent overflowed/underflowed counter addresses
//
// Memory port: line requests, valid/ready; a write completes when it is accepted, a read is
// answered later by one mem_rsp_valid_i cycle carrying the line. At most one read is outstanding.
//
// Reset: synchronous, active low; every flop is reset.

`default_nettype none

module hwprof_edge_prof #(
  parameter int unsigned CntW      = hwprof_pkg::CNTW_DEFAULT,       // counter width: 8, 16, 32 or 64
  parameter int unsigned UpdDepth  = hwprof_pkg::UPDDEPTH_DEFAULT,   // update buffer entries, 1..128
  parameter int unsigned Sets      = hwprof_pkg::SETS_DEFAULT,       // cache sets, a power of two >= 2
  parameter int unsigned Ways      = hwprof_pkg::WAYS_DEFAULT,       // cache ways, 1..8
  parameter int unsigned LineWords = hwprof_pkg::LINEWORDS_DEFAULT,  // counters per line, a power of two >= 2
  parameter int unsigned OabDepth  = hwprof_pkg::OABDEPTH_DEFAULT    // overflowed-address buffer entries, 1..128
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,

  // update operations from the pir
  input  logic                                upd_valid_i,
  input  logic [hwprof_pkg::PIR_BASE_W-1:0]   upd_addr_i,
  input  logic                                upd_dec_i,
  output logic                                upd_space_o,  // an updating event may retire now
  input  logic                                ev_stall_i,   // a valid retire event is waiting
  input  logic                                hold_i,       // perform no update this cycle

  // results
  output logic                                ovf_o,
  output logic                                unf_o,
  output logic                                drop_o,

  // register window
  input  logic                                reg_access_i,
  input  logic                                reg_write_i,
  input  logic [hwprof_pkg::APB_ADDR_W-1:0]   reg_addr_i,
  input  logic [31:0]                         reg_wdata_i,
  output logic [31:0]                         reg_rdata_o,
  output logic                                reg_error_o,

  // memory port (lines)
  output logic                                mem_req_valid_o,
  input  logic                                mem_req_ready_i,
  output logic                                mem_req_write_o,
  output logic [hwprof_pkg::PIR_BASE_W-1:0]   mem_req_addr_o,
  output logic [LineWords*CntW-1:0]           mem_req_wdata_o,
  input  logic                                mem_rsp_valid_i,
  input  logic [LineWords*CntW-1:0]           mem_rsp_rdata_i,
  output logic                                mem_rd_wait_o    // a read is outstanding (the top lends the port out only without)
);

  localparam int unsigned AddrW    = hwprof_pkg::PIR_BASE_W;
  localparam int unsigned CntShift = $clog2(CntW / 8);
  localparam int unsigned WordW    = $clog2(LineWords);
  localparam int unsigned SetW     = $clog2(Sets);
  localparam int unsigned OffW     = CntShift + WordW;  // byte offset within a line
  localparam int unsigned TagW     = AddrW - OffW - SetW;
  localparam int unsigned WayW     = (Ways > 1) ? $clog2(Ways) : 1;
  localparam logic [AddrW-1:0] AlignMask = AddrW'((1 << CntShift) - 1);

  localparam logic [2:0] StIdle     = 3'd0;  // perform updates, or start a command
  localparam logic [2:0] StWb       = 3'd1;  // write back the dirty victim of a miss
  localparam logic [2:0] StFill     = 3'd2;  // request the missing line
  localparam logic [2:0] StFillWait = 3'd3;  // wait for the line
  localparam logic [2:0] StWalk     = 3'd4;  // command: visit line (walk_set, walk_way)
  localparam logic [2:0] StWalkWb   = 3'd5;  // command: write that line back

  localparam int unsigned Lines = Sets * Ways;
  localparam int unsigned LineW = LineWords * CntW;
  localparam int unsigned LineIdxW = (Lines > 1) ? $clog2(Lines) : 1;

  // Arrays are flat vectors indexed with +: (Yosys 0.23 accepts neither multi-dimensional packed
  // arrays nor whole-array copies of unpacked ones). A line is numbered set * Ways + way.
  function automatic int unsigned line_of(logic [SetW-1:0] set, logic [WayW-1:0] way);
    line_of = 32'(set) * Ways + 32'(way);
  endfunction

  // ---- state
  logic [2:0]                     state_q, state_d;
  logic [7:0]                     fifo_count;  // the update buffer (hwprof_prim_fifo, below)
  logic                           pop, ovf, unf, drop;  // this cycle: the head operation leaves the
  logic                           u_ovf, u_unf;         // the update stage's counter overflows, underflows
                                                        // buffer; it overflowed, underflowed, was dropped
  logic [Lines-1:0]               valid_q, valid_d;
  logic [Lines-1:0]               dirty_q, dirty_d;
  logic [Lines*TagW-1:0]          tag_q, tag_d;
  logic [Lines*LineW-1:0]         data_q, data_d;
  logic [Sets*WayW-1:0]           rr_q, rr_d;       // per set: next victim when no way is free
  logic [WayW-1:0]                              victim_q, victim_d;
  logic                                         retry_q, retry_d; // head op already missed once
  logic                                         miss_q, miss_d;   // the lookup missed (counted next cycle)
  // the update stage: an operation that hit in the lookup stage, performed the next cycle
  logic                                         u_valid_q, u_valid_d;
  logic [LineIdxW-1:0]                          u_line_q, u_line_d;
  logic [WordW-1:0]                             u_word_q, u_word_d;
  logic                                         u_dec_q, u_dec_d;
  logic [AddrW-1:0]                             u_addr_q, u_addr_d;
  logic                                         u_first_q, u_first_d; // a hit at the first lookup
  // the report: an overflow or underflow of the update stage, reported the next cycle (to the pir,
  // the OAB and the statistics), held while a pir register is written
  logic                                         rep_q, rep_d;
  logic                                         rep_unf_q, rep_unf_d;
  logic [AddrW-1:0]                             rep_addr_q, rep_addr_d;
  logic                                         cmd_busy_q, cmd_busy_d;
  logic                                         cmd_flush_q, cmd_flush_d;
  logic                                         cmd_inval_q, cmd_inval_d;
  logic [SetW-1:0]                              walk_set_q, walk_set_d;
  logic [WayW-1:0]                              walk_way_q, walk_way_d;
  logic [7:0]                                   oab_count;  // the OAB (hwprof_prim_fifo, below)
  logic                                         oab_overrun_q, oab_overrun_d;
  // statistics: a bank of event counters (hwprof_prim_counters, below), one increment bit each
  localparam int unsigned StUpdates = 0, StHits = 1, StMisses = 2, StWbs = 3, StStalls = 4,
                          StDropped = 5, StOvf = 6, StUnf = 7, StN = 8;
  logic [StN-1:0]    st_inc;
  logic [StN*32-1:0] st_count;

  // ---- register block (rtl/edge_prof/autogen/hwprof_edge_prof_reg.sv, generated from regs/edge_prof.json): it
  // holds the bounds and OAB_INDEX; this block holds the status, the OAB and the statistics
  hwprof_pkg::edge_prof_hw2reg_t hw2reg;
  hwprof_pkg::edge_prof_reg2hw_t reg2hw;
  logic [AddrW-1:0] bound_lo, bound_hi;  // the bounds window [bound_lo, bound_hi)
  logic [7:0]       oab_index;           // the OAB entry OAB_ENTRY_LO/HI show
  assign bound_lo  = {reg2hw.bound_lo_hi_value, reg2hw.bound_lo_lo_value};
  assign bound_hi  = {reg2hw.bound_hi_hi_value, reg2hw.bound_hi_lo_value};
  assign oab_index = reg2hw.oab_index_value;

  // ---- the operation at the head of the update buffer
  logic [AddrW-1:0] head_addr;
  logic             head_dec;
  logic [SetW-1:0]  head_set;
  logic [WordW-1:0] head_word;
  logic [TagW-1:0]  head_tag;
  logic             head_bad;
  logic             head_hit;
  logic [WayW-1:0]  head_way;
  logic             free_found;
  logic [WayW-1:0]  free_way;

  // The update buffer: {bad, dec, addr} per operation, first in first out. An operation is checked
  // against the bounds window (and the counter alignment) as it enters: bad marks one the lookup
  // drops (the check is not on the lookup's path). A push while full cannot happen: upd_space_o
  // (below) keeps room for the operation in flight from the pir.
  logic upd_bad;
  assign upd_bad = ((upd_addr_i & AlignMask) != '0) || (upd_addr_i < bound_lo) || (upd_addr_i >= bound_hi);
  hwprof_prim_fifo #(
    .Width     (AddrW + 2),
    .Depth     (UpdDepth),
    .Overwrite (1'b0),
    .IdxRead   (1'b0)
  ) u_upd_buf (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .pop_i       (pop),
    .clr_i       (1'b0),
    .push_i      (upd_valid_i),
    .wdata_i     ({upd_bad, upd_dec_i, upd_addr_i}),
    .rdata_o     ({head_bad, head_dec, head_addr}),
    .idx_i       (8'd0),
    .idx_rdata_o (),
    .count_o     (fifo_count),
    .full_o      ()
  );
  assign head_set  = head_addr[OffW +: SetW];
  assign head_word = head_addr[CntShift +: WordW];
  assign head_tag  = head_addr[AddrW-1 -: TagW];

  // the head operation's set: valid bits and tags of its ways
  logic [Ways-1:0]      set_valid;
  logic [Ways*TagW-1:0] set_tags;
  always_comb begin
    set_valid = '0;
    set_tags  = '0;
    for (int unsigned st = 0; st < Sets; st++) begin
      set_valid = set_valid | (valid_q[st*Ways +: Ways] & {Ways{32'(head_set) == st}});
      set_tags  = set_tags | (tag_q[st*Ways*TagW +: Ways*TagW] & {(Ways*TagW){32'(head_set) == st}});
    end
  end

  always_comb begin
    head_hit   = 1'b0;
    head_way   = '0;
    free_found = 1'b0;
    free_way   = '0;
    for (int unsigned w = 0; w < Ways; w++) begin
      if (!head_hit && set_valid[w] && (set_tags[w*TagW +: TagW] == head_tag)) begin
        head_hit = 1'b1;
        head_way = WayW'(w);
      end
      if (!free_found && !set_valid[w]) begin
        free_found = 1'b1;
        free_way   = WayW'(w);
      end
    end
  end

  logic [CntW-1:0] old_cnt, new_cnt;  // the update stage's counter, before and after
  logic [WayW-1:0] head_rr;
  int unsigned     victim_line, walk_line, rd_line, rr_line;
  logic [LineIdxW-1:0] hit_line;  // the head operation's line when it hits
  logic [LineW-1:0] rd_data;  // the one line-read port: the victim's or the walked line
  logic [TagW-1:0]  rd_tag;
  assign hit_line    = LineIdxW'(line_of(head_set, head_way));
  assign victim_line = line_of(head_set, victim_q);
  assign walk_line   = line_of(walk_set_q, walk_way_q);
  assign rr_line     = line_of(head_set, head_rr);
  assign rd_line     = (state_q == StWalkWb) ? walk_line : victim_line;
  always_comb begin
    rd_data = '0;
    rd_tag  = '0;
    old_cnt = '0;
    for (int unsigned l = 0; l < Lines; l++) begin
      rd_data = rd_data | (data_q[l*LineW +: LineW] & {LineW{rd_line == l}});
      rd_tag  = rd_tag | (tag_q[l*TagW +: TagW] & {TagW{rd_line == l}});
      for (int unsigned w = 0; w < LineWords; w++) begin
        old_cnt = old_cnt | (data_q[(l*LineWords + w)*CntW +: CntW] &
                             {CntW{(32'(u_line_q) == l) && (32'(u_word_q) == w)}});
      end
    end
    head_rr = '0;
    for (int unsigned st = 0; st < Sets; st++) begin
      head_rr = head_rr | (rr_q[st*WayW +: WayW] & {WayW{32'(head_set) == st}});
    end
  end
  assign new_cnt = u_dec_q ? old_cnt - CntW'(1) : old_cnt + CntW'(1);

  // ---- the OAB: the OabDepth most recent {underflow, address} records (a full OAB drops its
  // oldest record and sets the overrun flag); OAB_INDEX selects the entry software reads
  logic [AddrW-1:0] oab_entry;  // 0 when OAB_INDEX >= the count
  logic             oab_entry_unf;
  logic             oab_full, oab_clear, oab_record;
  assign oab_clear  = reg2hw.oab_ctrl_qe && reg2hw.oab_ctrl_clear;
  assign oab_record = ovf || unf;  // after a clear of the same cycle: the new record is kept
  hwprof_prim_fifo #(
    .Width     (AddrW + 1),
    .Depth     (OabDepth),
    .Overwrite (1'b1)
  ) u_oab (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .pop_i       (1'b0),
    .clr_i       (oab_clear),
    .push_i      (oab_record),
    .wdata_i     ({unf, rep_addr_q}),
    .rdata_o     (),
    .idx_i       (oab_index),
    .idx_rdata_o ({oab_entry_unf, oab_entry}),
    .count_o     (oab_count),
    .full_o      (oab_full)
  );

  always_comb begin
    hw2reg = '0;
    hw2reg.status_busy           = cmd_busy_q;
    hw2reg.status_pending        = fifo_count;
    hw2reg.cmd_refuse            = cmd_busy_q;  // a command is running: a new one is refused
    hw2reg.oab_status_count      = oab_count;
    hw2reg.oab_status_overrun    = oab_overrun_q;
    hw2reg.oab_entry_lo_addr      = oab_entry[31:0];
    hw2reg.oab_entry_hi_addr      = oab_entry[AddrW-1:32];
    hw2reg.oab_entry_hi_underflow = oab_entry_unf;
    hw2reg.stat_updates_value    = st_count[StUpdates*32 +: 32];
    hw2reg.stat_hits_value       = st_count[StHits*32 +: 32];
    hw2reg.stat_misses_value     = st_count[StMisses*32 +: 32];
    hw2reg.stat_writebacks_value = st_count[StWbs*32 +: 32];
    hw2reg.stat_stalls_value     = st_count[StStalls*32 +: 32];
    hw2reg.stat_dropped_value    = st_count[StDropped*32 +: 32];
    hw2reg.stat_overflows_value  = st_count[StOvf*32 +: 32];
    hw2reg.stat_underflows_value = st_count[StUnf*32 +: 32];
  end

  hwprof_edge_prof_reg u_reg (
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

  // ---- the update path and the commands
  logic last_line;
  assign last_line = (walk_set_q == SetW'(Sets - 1)) && (walk_way_q == WayW'(Ways - 1));

  logic walk_advance;  // the walk moves to the next line this cycle

  always_comb begin
    state_d       = state_q;
    valid_d       = valid_q;
    dirty_d       = dirty_q;
    tag_d         = tag_q;
    data_d        = data_q;
    rr_d          = rr_q;
    victim_d      = victim_q;
    retry_d       = retry_q;
    miss_d        = 1'b0;
    u_valid_d     = u_valid_q && hold_i;  // performed below unless held
    u_line_d      = u_line_q;
    u_word_d      = u_word_q;
    u_dec_d       = u_dec_q;
    u_addr_d      = u_addr_q;
    u_first_d     = u_first_q;
    cmd_busy_d    = cmd_busy_q;
    cmd_flush_d   = cmd_flush_q;
    cmd_inval_d   = cmd_inval_q;
    walk_set_d    = walk_set_q;
    walk_way_d    = walk_way_q;
    st_inc           = '0;
    st_inc[StStalls] = ev_stall_i;
    st_inc[StMisses] = miss_q;  // the lookup's miss, counted the cycle after it (off the lookup's path)
    pop           = 1'b0;
    walk_advance  = 1'b0;
    u_ovf         = 1'b0;
    u_unf         = 1'b0;
    // the report of the cycle before
    ovf           = rep_q && !rep_unf_q && !hold_i;
    unf           = rep_q && rep_unf_q && !hold_i;
    st_inc[StOvf] = ovf;
    st_inc[StUnf] = unf;
    drop          = 1'b0;
    mem_req_valid_o = 1'b0;
    mem_req_write_o = 1'b0;
    mem_req_addr_o  = '0;
    mem_req_wdata_o = '0;

    // the update stage (only ever holding an operation in StIdle): the counter the lookup found
    if (u_valid_q && !hold_i) begin
      // constant-index loop: per-word enables instead of a variable-offset write
      for (int unsigned l = 0; l < Lines; l++) begin
        for (int unsigned w = 0; w < LineWords; w++) begin
          if ((l == 32'(u_line_q)) && (w == 32'(u_word_q))) begin
            data_d[(l*LineWords + w)*CntW +: CntW] = new_cnt;
          end
        end
      end
      dirty_d[u_line_q] = 1'b1;
      u_ovf = !u_dec_q && (old_cnt == '1);
      u_unf = u_dec_q && (old_cnt == '0);
      st_inc[StUpdates] = 1'b1;
      st_inc[StHits]    = u_first_q;
    end
    // ... reported the next cycle (a held report and a held update stage wait together)
    rep_d     = hold_i ? rep_q : (u_ovf || u_unf);
    rep_unf_d = hold_i ? rep_unf_q : u_unf;
    rep_addr_d = hold_i ? rep_addr_q : u_addr_q;

    unique case (state_q)
      StIdle: begin
        if (fifo_count != '0) begin
          if (hold_i) begin
            // a pir register write this cycle: the trigger counter must not move under it
          end else if (head_bad) begin
            pop          = 1'b1;
            drop         = 1'b1;
            st_inc[StDropped] = 1'b1;
          end else if (head_hit) begin
            // to the update stage, which performs it next cycle
            pop       = 1'b1;
            u_valid_d = 1'b1;
            u_line_d  = hit_line;
            u_word_d  = head_word;
            u_dec_d   = head_dec;
            u_addr_d  = head_addr;
            u_first_d = !retry_q;
            retry_d   = 1'b0;
          end else begin
            miss_d      = 1'b1;
            retry_d     = 1'b1;
            victim_d    = free_found ? free_way : head_rr;
            // (the update stage's operation of this cycle dirties its line too)
            state_d     = (!free_found && (dirty_q[rr_line] || (u_valid_q && (32'(u_line_q) == rr_line)))) ?
                          StWb : StFill;
          end
        end else if (cmd_busy_q && !upd_valid_i && !u_valid_q) begin
          // the update buffer and the update stage have drained: walk the cache
          walk_set_d = '0;
          walk_way_d = '0;
          state_d    = StWalk;
        end
      end

      StWb: begin
        mem_req_valid_o = 1'b1;
        mem_req_write_o = 1'b1;
        mem_req_addr_o  = {rd_tag, head_set, OffW'(0)};
        mem_req_wdata_o = rd_data;
        if (mem_req_ready_i) begin
          valid_d[victim_line] = 1'b0;
          dirty_d[victim_line] = 1'b0;
          st_inc[StWbs] = 1'b1;
          state_d  = StFill;
        end
      end

      StFill: begin
        mem_req_valid_o = 1'b1;
        mem_req_addr_o  = {head_tag, head_set, OffW'(0)};
        if (mem_req_ready_i) state_d = StFillWait;
      end

      StFillWait: begin
        if (mem_rsp_valid_i) begin
          valid_d[victim_line] = 1'b1;
          dirty_d[victim_line] = 1'b0;
          for (int unsigned l = 0; l < Lines; l++) begin
            if (l == victim_line) begin
              tag_d[l*TagW +: TagW]    = head_tag;
              data_d[l*LineW +: LineW] = mem_rsp_rdata_i;
            end
          end
          rr_d[32'(head_set)*WayW +: WayW]  = (victim_q == WayW'(Ways - 1)) ? '0 : victim_q + WayW'(1);
          state_d = StIdle;
        end
      end

      StWalk, StWalkWb: begin
        walk_advance = 1'b1;
        if (state_q == StWalk && cmd_flush_q && valid_q[walk_line] && dirty_q[walk_line]) begin
          walk_advance = 1'b0;
          state_d = StWalkWb;
        end else if (state_q == StWalkWb) begin
          mem_req_valid_o = 1'b1;
          mem_req_write_o = 1'b1;
          mem_req_addr_o  = {rd_tag, walk_set_q, OffW'(0)};
          mem_req_wdata_o = rd_data;
          walk_advance = mem_req_ready_i;
          if (mem_req_ready_i) begin
            dirty_d[walk_line] = 1'b0;
            st_inc[StWbs] = 1'b1;
          end
        end
        if (walk_advance) begin
          if (cmd_inval_q) begin
            valid_d[walk_line] = 1'b0;
            dirty_d[walk_line] = 1'b0;
          end
          if (last_line) begin
            state_d    = StIdle;
            cmd_busy_d = 1'b0;
          end else begin
            state_d = StWalk;
            if (walk_way_q == WayW'(Ways - 1)) begin
              walk_way_d = '0;
              walk_set_d = walk_set_q + SetW'(1);
            end else begin
              walk_way_d = walk_way_q + WayW'(1);
            end
          end
        end
      end

      default: state_d = StIdle;
    endcase

    // a command write starts a command (misuse while busy was refused by the decode)
    if (reg2hw.cmd_qe) begin
      cmd_flush_d = reg2hw.cmd_flush;
      cmd_inval_d = reg2hw.cmd_invalidate;
      cmd_busy_d  = cmd_flush_d || cmd_inval_d;
    end
  end

  // Room for one more updating event: the one in flight from the pir is counted too.
  assign upd_space_o = !cmd_busy_q && ((fifo_count + 8'(upd_valid_i)) < 8'(UpdDepth));

  // ---- the OAB's overrun flag: a record pushed into an OAB still full after this cycle's clear
  always_comb begin
    oab_overrun_d = oab_clear ? 1'b0 : oab_overrun_q;
    if (oab_record && oab_full && !oab_clear) oab_overrun_d = 1'b1;
  end

  hwprof_prim_counters #(
    .N (StN),
    .W (32)
  ) u_stats (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .inc_i   (st_inc),
    .clr_i   (1'b0),
    .wr_i    ({reg2hw.stat_underflows_qe, reg2hw.stat_overflows_qe, reg2hw.stat_dropped_qe,
               reg2hw.stat_stalls_qe, reg2hw.stat_writebacks_qe, reg2hw.stat_misses_qe, reg2hw.stat_hits_qe,
               reg2hw.stat_updates_qe}),
    .wdata_i (reg2hw.stat_updates_value),  // every register's value is the write data
    .count_o (st_count)
  );
  // the other statistics registers' values are the same write data as STAT_UPDATES's
  logic unused_stat_wdata;
  assign unused_stat_wdata = ^{reg2hw.stat_hits_value, reg2hw.stat_misses_value, reg2hw.stat_writebacks_value,
                              reg2hw.stat_stalls_value, reg2hw.stat_dropped_value, reg2hw.stat_overflows_value,
                              reg2hw.stat_underflows_value};

  assign ovf_o  = ovf;
  assign unf_o  = unf;
  assign drop_o = drop;

  assign mem_rd_wait_o = (state_q == StFillWait);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q       <= StIdle;
      valid_q       <= '0;
      dirty_q       <= '0;
      tag_q         <= '0;
      data_q        <= '0;
      rr_q          <= '0;
      victim_q      <= '0;
      retry_q       <= 1'b0;
      miss_q        <= 1'b0;
      u_valid_q     <= 1'b0;
      u_line_q      <= '0;
      u_word_q      <= '0;
      u_dec_q       <= 1'b0;
      u_addr_q      <= '0;
      u_first_q     <= 1'b0;
      rep_q         <= 1'b0;
      rep_unf_q     <= 1'b0;
      rep_addr_q    <= '0;
      cmd_busy_q    <= 1'b0;
      cmd_flush_q   <= 1'b0;
      cmd_inval_q   <= 1'b0;
      walk_set_q    <= '0;
      walk_way_q    <= '0;
      oab_overrun_q <= 1'b0;
    end else begin
      state_q       <= state_d;
      valid_q       <= valid_d;
      dirty_q       <= dirty_d;
      tag_q         <= tag_d;
      data_q        <= data_d;
      rr_q          <= rr_d;
      victim_q      <= victim_d;
      retry_q       <= retry_d;
      miss_q        <= miss_d;
      u_valid_q     <= u_valid_d;
      u_line_q      <= u_line_d;
      u_word_q      <= u_word_d;
      u_dec_q       <= u_dec_d;
      u_addr_q      <= u_addr_d;
      u_first_q     <= u_first_d;
      rep_q         <= rep_d;
      rep_unf_q     <= rep_unf_d;
      rep_addr_q    <= rep_addr_d;
      cmd_busy_q    <= cmd_busy_d;
      cmd_flush_q   <= cmd_flush_d;
      cmd_inval_q   <= cmd_inval_d;
      walk_set_q    <= walk_set_d;
      walk_way_q    <= walk_way_d;
      oab_overrun_q <= oab_overrun_d;
    end
  end

`ifndef SYNTHESIS
  // no update is ever dropped for lack of room: the parent's ready rule guarantees space
  always_comb begin
    if (rst_ni) assert (!(upd_valid_i && !pop && (fifo_count == 8'(UpdDepth))));
  end
  // sampled at the clock edge, as the flops sample them
  always @(posedge clk_i) begin
    if (rst_ni) begin
      // a command write is refused while one runs (regs/edge_prof.json), so commands never overlap
      assert (!(reg2hw.cmd_qe && cmd_busy_q));
    end
  end
`endif

  if ((Sets < 2) || ((Sets & (Sets - 1)) != 0)) begin : g_sets_check
    $error("Sets must be a power of two >= 2");
  end
  if ((LineWords < 2) || ((LineWords & (LineWords - 1)) != 0)) begin : g_line_check
    $error("LineWords must be a power of two >= 2");
  end
  if ((Ways < 1) || (Ways > 8)) begin : g_ways_check
    $error("Ways must be 1..8");
  end
  // (index sums are 8-bit: head + count stays below 256)
  if ((UpdDepth < 1) || (UpdDepth > 128) || (OabDepth < 1) || (OabDepth > 128)) begin : g_depth_check
    $error("UpdDepth and OabDepth must be 1..128");
  end

endmodule

`default_nettype wire
