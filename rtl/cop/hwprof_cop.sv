// hwprof_cop: the value-profiling co-processor's engine.
//
// Seed 001 (Zilles and Sohi, sections 3.3-3.5, Table 1): a microcoded engine that runs one short
// routine per sample-buffer record. docs/cop.md is the specification; the microinstruction
// format comes from regs/cop_uinsn.json (hwprof_cop_pkg). What it holds:
//   - the microcode array (UcDepth x 48 bits; each word's PRED field is its 2-bit predictor, which
//     the engine updates), the CAM (CamEntries 32-bit keys with valid bits), the data array
//     (DataBytes, little-endian 32-bit words, elements of 1, 2 or 4 bytes read-modify-written in
//     one cycle), the register files v, i (width per register, IDXW), c, b, t, the dispatch table
//     (start address per retire kind), the LFSR;
//   - the decoder/field extractor: the record being processed;
//   - the pipeline: fetch/decode (with the prediction of the next address) and execute, one
//     microinstruction per cycle, one cycle lost on a wrong prediction and after done/intr.
//
// Timing (docs/cop.md, "Pipeline and timing"): with no record in the DFE, a record at the input
// is taken (smp_pop_o) and fetching restarts at its start address; its first instruction executes
// two cycles later. `done` takes the next record in the same cycle. `intr` halts the engine and
// pulses irq_o. The host's window refuses writes to engine state while the engine runs.
//
// The arrays are written in their always_ff with an index (one write port each), as memories are:
// copying them through a _d/_q pair every cycle would cost the simulation thousands of words per
// cycle for no difference in the hardware described. The microcode words, the data array and the
// CAM keys are not reset and not cleared word by word: a bit per word says whether it was written
// since reset (or, for the data array, since the last DATA_CLEAR), and a word not written reads 0.
// That is the flash clear of a memory, and what the C model's zeroed arrays show; Yosys then sees
// each of them as one memory (make synth's memory view).
//
// Reset: synchronous, active low; every flop is reset except the microcode, data and CAM-key words
// (above).

`default_nettype none

module hwprof_cop #(
  parameter int unsigned UcDepth    = hwprof_pkg::UCDEPTH_DEFAULT,    // microcode words, 2..64, a power of two
  parameter int unsigned CamEntries = hwprof_pkg::CAMENTRIES_DEFAULT, // CAM entries, 2..512, a power of two
  parameter int unsigned DataBytes  = hwprof_pkg::DATABYTES_DEFAULT   // data array bytes, 8..4096, a power of two
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,

  // the sample buffer's oldest record (fields not selected are 0)
  input  logic                              smp_valid_i,
  input  logic [31:0]                       smp_pc_i,
  input  logic [31:0]                       smp_npc_i,
  input  logic [31:0]                       smp_insn_i,
  input  logic [31:0]                       smp_addr_i,
  input  logic [31:0]                       smp_value_i,
  input  logic [5:0]                        smp_info_i,   // kind 2:0, taken 3, is_call 4, is_ret 5
  output logic                              smp_pop_o,

  // register window
  input  logic                              reg_access_i,
  input  logic                              reg_write_i,
  input  logic [hwprof_pkg::APB_ADDR_W-1:0] reg_addr_i,
  input  logic [31:0]                       reg_wdata_i,
  output logic [31:0]                       reg_rdata_o,
  output logic                              reg_error_o,

  output logic                              irq_o  // an intr target was taken
);
  localparam int unsigned UINSN_W   = hwprof_cop_pkg::UINSN_W;
  localparam int unsigned PcW       = $clog2(UcDepth);
  localparam int unsigned CamW      = $clog2(CamEntries);
  localparam int unsigned DataAW    = $clog2(DataBytes);
  localparam int unsigned DataWords = DataBytes / 4;
  localparam int unsigned DwW       = DataAW - 2;
  localparam logic [PcW-1:0] PcMask = PcW'(UcDepth - 1);

  // ---- register block (rtl/cop/autogen/hwprof_cop_reg.sv, generated from regs/cop.json); the engine holds
  // every value itself
  hwprof_pkg::cop_hw2reg_t hw2reg;
  hwprof_pkg::cop_reg2hw_t reg2hw;

  // ---- state
  logic [UINSN_W-1:0]      uc_q [UcDepth];        // not reset: see uc_wr_q
  logic [UcDepth-1:0]       uc_wr_q;                 // word k written since reset
  logic [31:0]              cam_key_q [CamEntries];  // not reset: see cam_kw_q
  logic [CamEntries-1:0]    cam_kw_q;                // key k written since reset
  logic [CamEntries-1:0]    cam_valid_q;
  logic [31:0]              data_q [DataWords];      // not reset: see data_wr_q
  logic [DataWords-1:0]     data_wr_q;               // word k written since reset or DATA_CLEAR
  logic [31:0]        v_q [hwprof_cop_pkg::NUM_VREGS], v_d [hwprof_cop_pkg::NUM_VREGS];
  logic [15:0]        i_q [hwprof_cop_pkg::NUM_IREGS], i_d [hwprof_cop_pkg::NUM_IREGS];
  logic [31:0]        c_q [hwprof_cop_pkg::NUM_CREGS], c_d [hwprof_cop_pkg::NUM_CREGS];
  logic [17:0]        b_q [hwprof_cop_pkg::NUM_BREGS], b_d [hwprof_cop_pkg::NUM_BREGS];
  logic [PcW-1:0]     t_q [hwprof_cop_pkg::NUM_TREGS], t_d [hwprof_cop_pkg::NUM_TREGS];
  logic [PcW-1:0]     disp_q [8], disp_d [8];
  logic [15:0]        lfsr_q, lfsr_d;
  logic [3:0]         idxw_q [hwprof_cop_pkg::NUM_IREGS], idxw_d [hwprof_cop_pkg::NUM_IREGS];  // width - 1
  logic               run_q, run_d, halted_q, halted_d;
  logic [1:0]         clkdiv_q, clkdiv_d;  // CLOCK.DIV_LOG2
  logic [2:0]         div_q, div_d;        // system cycles since the engine's last cycle, while it runs
  logic [PcW-1:0]     intr_pc_q, intr_pc_d;
  logic [PcW-1:0]     fpc_q, fpc_d;
  logic               ex_valid_q, ex_valid_d;
  logic [UINSN_W-1:0] ex_insn_q, ex_insn_d;
  logic [PcW-1:0]     ex_pc_q, ex_pc_d, ex_pnext_q, ex_pnext_d;
  logic               dfe_valid_q, dfe_valid_d;
  logic [31:0]        dfe_pc_q, dfe_pc_d, dfe_npc_q, dfe_npc_d, dfe_insn_q, dfe_insn_d;
  logic [31:0]        dfe_addr_q, dfe_addr_d, dfe_value_q, dfe_value_d;
  logic [5:0]         dfe_info_q, dfe_info_d;

  // statistics (hwprof_prim_counters, below)
  localparam int unsigned StSamples = 0, StExecuted = 1, StMispredict = 2, StIdle = 3, StN = 4;
  logic [StN-1:0]    st_inc;
  logic [StN*32-1:0] st_count;

  // index register read values (modulo 2^width)
  logic [15:0] imask [hwprof_cop_pkg::NUM_IREGS];
  logic [15:0] iread [hwprof_cop_pkg::NUM_IREGS];
  always_comb begin
    for (int unsigned n = 0; n < hwprof_cop_pkg::NUM_IREGS; n++) begin
      imask[n] = 16'hffff >> (4'd15 - idxw_q[n]);
      iread[n] = i_q[n] & imask[n];
    end
  end

  // ---- the host: STOP acts at once, the engine is idle in that cycle. The engine's clock: one
  // engine cycle in 2^clkdiv_q system cycles while it runs (div_q counts them from 0, the first
  // running cycle), the engine idle in the others
  logic stop, active, tick;
  assign stop   = reg2hw.stop_qe && reg2hw.stop_stop;
  assign tick   = (div_q & 3'((4'd1 << clkdiv_q) - 4'd1)) == 3'd0;
  assign active = run_q && !stop && tick;

  // ---- execute stage: the instruction's fields
  logic [3:0] f_alu;
  logic [1:0] f_dst, f_cam, f_dreg;
  logic [4:0] f_sa, f_sb;
  logic [2:0] f_cidx, f_dop, f_base, f_didx, f_iop, f_ireg;
  logic [3:0] f_cond, f_tgt;
  logic [1:0] f_pred_now;  // the word's predictor as the array holds it now
  assign f_alu   = ex_insn_q[hwprof_cop_pkg::UI_ALU_OP_LSB +: hwprof_cop_pkg::UI_ALU_OP_W];
  assign f_dst   = ex_insn_q[hwprof_cop_pkg::UI_ALU_DST_LSB +: hwprof_cop_pkg::UI_ALU_DST_W];
  assign f_sa    = ex_insn_q[hwprof_cop_pkg::UI_SRC_A_LSB +: hwprof_cop_pkg::UI_SRC_A_W];
  assign f_sb    = ex_insn_q[hwprof_cop_pkg::UI_SRC_B_LSB +: hwprof_cop_pkg::UI_SRC_B_W];
  assign f_cam   = ex_insn_q[hwprof_cop_pkg::UI_CAM_OP_LSB +: hwprof_cop_pkg::UI_CAM_OP_W];
  assign f_cidx  = ex_insn_q[hwprof_cop_pkg::UI_CAM_IDX_LSB +: hwprof_cop_pkg::UI_CAM_IDX_W];
  assign f_dop   = ex_insn_q[hwprof_cop_pkg::UI_DATA_OP_LSB +: hwprof_cop_pkg::UI_DATA_OP_W];
  assign f_dreg  = ex_insn_q[hwprof_cop_pkg::UI_DATA_REG_LSB +: hwprof_cop_pkg::UI_DATA_REG_W];
  assign f_base  = ex_insn_q[hwprof_cop_pkg::UI_DATA_BASE_LSB +: hwprof_cop_pkg::UI_DATA_BASE_W];
  assign f_didx  = ex_insn_q[hwprof_cop_pkg::UI_DATA_IDX_LSB +: hwprof_cop_pkg::UI_DATA_IDX_W];
  assign f_iop   = ex_insn_q[hwprof_cop_pkg::UI_IDX_OP_LSB +: hwprof_cop_pkg::UI_IDX_OP_W];
  assign f_ireg  = ex_insn_q[hwprof_cop_pkg::UI_IDX_REG_LSB +: hwprof_cop_pkg::UI_IDX_REG_W];
  assign f_cond  = ex_insn_q[hwprof_cop_pkg::UI_COND_LSB +: hwprof_cop_pkg::UI_COND_W];
  assign f_tgt   = ex_insn_q[hwprof_cop_pkg::UI_TARGET_LSB +: hwprof_cop_pkg::UI_TARGET_W];
  // the microcode array's read ports (a word not written since reset reads 0)
  logic [UINSN_W-1:0]  uc_at_ex, uc_at_f;
  logic [UINSN_W-33:0] uc_at_wlo, uc_at_rhi;  // the high parts (bits 47:32)
  logic [31:0]         uc_at_whi, uc_at_rlo;  // the low parts
  logic [PcW-1:0]      ri_uclo_w, ri_uchi_w;  // the host's read indexes (below)
  assign uc_at_ex  = uc_wr_q[ex_pc_q] ? uc_q[ex_pc_q] : '0;
  assign uc_at_f   = uc_wr_q[fpc_q] ? uc_q[fpc_q] : '0;
  // a host write of one half keeps the other
  assign uc_at_wlo = uc_wr_q[reg2hw.uc_lo_index[PcW-1:0]] ? uc_q[reg2hw.uc_lo_index[PcW-1:0]][UINSN_W-1:32] : '0;
  assign uc_at_whi = uc_wr_q[reg2hw.uc_hi_index[PcW-1:0]] ? uc_q[reg2hw.uc_hi_index[PcW-1:0]][31:0] : '0;
  assign uc_at_rlo = uc_wr_q[ri_uclo_w] ? uc_q[ri_uclo_w][31:0] : '0;
  assign uc_at_rhi = uc_wr_q[ri_uchi_w] ? uc_q[ri_uchi_w][UINSN_W-1:32] : '0;
  assign f_pred_now = uc_at_ex[hwprof_cop_pkg::UI_PRED_LSB +: hwprof_cop_pkg::UI_PRED_W];

  // ---- the data element: byte address base | (index << size), modulo the array, aligned
  logic [1:0]        e_size;
  logic [15:0]       e_baddr;
  logic [DataAW-1:0] e_addr;
  logic [DwW-1:0]    e_widx;
  logic [4:0]        e_lane;
  logic [31:0]       e_max, e_word, mem;
  logic              data_op;
  always_comb begin
    e_size  = (b_q[f_base][17:16] == 2'd3) ? 2'd2 : b_q[f_base][17:16];
    e_baddr = b_q[f_base][15:0] | (iread[f_didx] << e_size);  // bits above DataAW-1 are dropped
    e_addr  = e_baddr[DataAW-1:0] & ~(DataAW'((1 << e_size) - 1));
    e_widx  = e_addr[DataAW-1:2];
    e_lane  = {e_addr[1:0], 3'b000};
    e_max   = (e_size == 2'd2) ? 32'hffff_ffff : (e_size == 2'd1) ? 32'h0000_ffff : 32'h0000_00ff;
    e_word  = data_wr_q[e_widx] ? data_q[e_widx] : 32'd0;
    data_op = (f_dop == hwprof_cop_pkg::DATA_OP_READ) || (f_dop == hwprof_cop_pkg::DATA_OP_WRITE) || (f_dop == hwprof_cop_pkg::DATA_OP_INCS) ||
              (f_dop == hwprof_cop_pkg::DATA_OP_DECS);
    mem     = data_op ? ((e_word >> e_lane) & e_max) : 32'd0;
  end

  // ---- operands: registers, the element, the decoder/field extractor
  function automatic logic [31:0] source(input logic [4:0] code, input logic [31:0] m);
    source = 32'd0;
    if (code <= 5'(hwprof_cop_pkg::SRC_V3)) begin
      source = v_q[code[1:0]];
    end else if (code <= 5'(hwprof_cop_pkg::SRC_C3)) begin
      source = c_q[code[1:0]];
    end else if (code <= 5'(hwprof_cop_pkg::SRC_I7)) begin
      source = {16'd0, iread[code[2:0]]};
    end else begin
      unique case (code)
        hwprof_cop_pkg::SRC_MEM:    source = m;
        hwprof_cop_pkg::SRC_S_PC:   source = dfe_pc_q;
        hwprof_cop_pkg::SRC_S_NPC:  source = dfe_npc_q;
        hwprof_cop_pkg::SRC_S_INSN: source = dfe_insn_q;
        hwprof_cop_pkg::SRC_S_ADDR: source = dfe_addr_q;
        hwprof_cop_pkg::SRC_S_VAL:  source = dfe_value_q;
        hwprof_cop_pkg::SRC_S_INFO: source = {26'd0, dfe_info_q};
        hwprof_cop_pkg::SRC_S_RD:   source = {27'd0, dfe_insn_q[11:7]};
        hwprof_cop_pkg::SRC_S_RS1:  source = {27'd0, dfe_insn_q[19:15]};
        hwprof_cop_pkg::SRC_S_RS2:  source = {27'd0, dfe_insn_q[24:20]};
        hwprof_cop_pkg::SRC_S_F3:   source = {29'd0, dfe_insn_q[14:12]};
        hwprof_cop_pkg::SRC_S_IMM:  source = {{20{dfe_insn_q[31]}}, dfe_insn_q[31:20]};
        default:    source = 32'd0;  // ZERO and the reserved codes
      endcase
    end
  endfunction

  logic [31:0] opa, opb;
  assign opa = source(f_sa, mem);
  assign opb = source(f_sb, mem);

  // ---- ALU
  logic [31:0] alu_r;
  logic [32:0] alu_sum;
  logic        alu_w, asat;
  always_comb begin
    alu_r   = opa;
    alu_w   = 1'b1;
    asat    = 1'b0;
    alu_sum = {1'b0, opa} + {1'b0, opb};
    unique case (f_alu)
      hwprof_cop_pkg::ALU_OP_MOV:  alu_r = opa;
      hwprof_cop_pkg::ALU_OP_ADD:  alu_r = opa + opb;
      hwprof_cop_pkg::ALU_OP_SUB:  alu_r = opa - opb;
      hwprof_cop_pkg::ALU_OP_ADDS: begin
        asat  = alu_sum[32];
        alu_r = asat ? 32'hffff_ffff : alu_sum[31:0];
      end
      hwprof_cop_pkg::ALU_OP_SUBS: begin
        asat  = opb > opa;
        alu_r = asat ? 32'd0 : opa - opb;
      end
      hwprof_cop_pkg::ALU_OP_AND:  alu_r = opa & opb;
      hwprof_cop_pkg::ALU_OP_OR:   alu_r = opa | opb;
      hwprof_cop_pkg::ALU_OP_XOR:  alu_r = opa ^ opb;
      hwprof_cop_pkg::ALU_OP_SHL:  alu_r = opa << opb[4:0];
      hwprof_cop_pkg::ALU_OP_SHR:  alu_r = opa >> opb[4:0];
      hwprof_cop_pkg::ALU_OP_RAND: alu_r = {16'd0, lfsr_q} & opb;
      default:     alu_w = 1'b0;  // NOP and the reserved codes: R = A, no write
    endcase
  end

  // ---- CAM lookup (the lowest valid entry holding A)
  logic            chit;
  logic [CamW-1:0] match_idx;
  always_comb begin
    chit      = 1'b0;
    match_idx = '0;
    if (active && dfe_valid_q && ex_valid_q && (f_cam == hwprof_cop_pkg::CAM_OP_MATCH)) begin  // only when it executes
      for (int unsigned k = 0; k < CamEntries; k++) begin
        if (!chit && cam_valid_q[k] && (cam_key_q[k] == opa)) begin
          chit      = 1'b1;
          match_idx = CamW'(k);
        end
      end
    end
  end
  logic [CamW-1:0] cam_entry;
  assign cam_entry = iread[f_cidx][CamW-1:0];

  // ---- data write-back value
  logic [31:0] d_new, d_word;
  logic        d_w, dsat;
  always_comb begin
    d_new = mem;
    dsat  = 1'b0;
    d_w   = (f_dop == hwprof_cop_pkg::DATA_OP_WRITE) || (f_dop == hwprof_cop_pkg::DATA_OP_INCS) || (f_dop == hwprof_cop_pkg::DATA_OP_DECS);
    if (f_dop == hwprof_cop_pkg::DATA_OP_WRITE) d_new = opb & e_max;
    if (f_dop == hwprof_cop_pkg::DATA_OP_INCS) begin
      d_new = (mem == e_max) ? e_max : mem + 32'd1;
      dsat  = d_new == e_max;
    end
    if (f_dop == hwprof_cop_pkg::DATA_OP_DECS) begin
      d_new = (mem == 32'd0) ? 32'd0 : mem - 32'd1;
      dsat  = d_new == 32'd0;
    end
    d_word = (e_word & ~(e_max << e_lane)) | (d_new << e_lane);
  end

  // ---- index incrementer
  logic [15:0] i_new, i_old, i_msk;
  logic        i_w, ilim;
  always_comb begin
    i_old = iread[f_ireg];
    i_msk = imask[f_ireg];
    i_new = i_old;
    i_w   = 1'b1;
    ilim  = 1'b0;
    unique case (f_iop)
      hwprof_cop_pkg::IDX_OP_INC: begin
        i_new = (i_old + 16'd1) & i_msk;
        ilim  = i_new == 16'd0;
      end
      hwprof_cop_pkg::IDX_OP_INCS: begin
        i_new = (i_old == i_msk) ? i_msk : i_old + 16'd1;
        ilim  = i_new == i_msk;
      end
      hwprof_cop_pkg::IDX_OP_DECS: begin
        i_new = (i_old == 16'd0) ? 16'd0 : i_old - 16'd1;
        ilim  = i_new == 16'd0;
      end
      hwprof_cop_pkg::IDX_OP_CLR:  i_new = 16'd0;
      hwprof_cop_pkg::IDX_OP_LOAD: i_new = opa[15:0] & i_msk;
      default:     i_w = 1'b0;
    endcase
  end

  // ---- branch slot
  logic           taken, cond_br, is_treg, done, intr;
  logic [PcW-1:0] actual;
  logic [1:0]     pred_new;
  always_comb begin
    unique case (f_cond)
      hwprof_cop_pkg::COND_ALWAYS: taken = 1'b1;
      hwprof_cop_pkg::COND_EQ:     taken = opa == opb;
      hwprof_cop_pkg::COND_NE:     taken = opa != opb;
      hwprof_cop_pkg::COND_LTU:    taken = opa < opb;
      hwprof_cop_pkg::COND_GEU:    taken = opa >= opb;
      hwprof_cop_pkg::COND_Z:      taken = alu_r == 32'd0;
      hwprof_cop_pkg::COND_NZ:     taken = alu_r != 32'd0;
      hwprof_cop_pkg::COND_ASAT:   taken = asat;
      hwprof_cop_pkg::COND_CHIT:   taken = chit;
      hwprof_cop_pkg::COND_CMISS:  taken = !chit;
      hwprof_cop_pkg::COND_DSAT:   taken = dsat;
      hwprof_cop_pkg::COND_NDSAT:  taken = !dsat;
      hwprof_cop_pkg::COND_ILIM:   taken = ilim;
      hwprof_cop_pkg::COND_NILIM:  taken = !ilim;
      default:     taken = 1'b0;  // NONE and the reserved code
    endcase
    cond_br  = (f_cond >= 4'(hwprof_cop_pkg::COND_EQ)) && (f_cond <= 4'(hwprof_cop_pkg::COND_NILIM));
    pred_new = taken ? ((f_pred_now == 2'd3) ? 2'd3 : f_pred_now + 2'd1)
                     : ((f_pred_now == 2'd0) ? 2'd0 : f_pred_now - 2'd1);
    is_treg  = (f_tgt >= 4'(hwprof_cop_pkg::TARGET_T0)) && (f_tgt <= 4'(hwprof_cop_pkg::TARGET_T3));
    done     = taken && (f_tgt == 4'(hwprof_cop_pkg::TARGET_DONE));
    intr     = taken && (f_tgt == 4'(hwprof_cop_pkg::TARGET_INTR));
    if (taken && (f_tgt <= 4'(hwprof_cop_pkg::TARGET_M0))) begin
      actual = (ex_pc_q + PcW'(hwprof_cop_pkg::target_offset(f_tgt))) & PcMask;
    end else if (taken && is_treg) begin
      actual = t_q[f_tgt[1:0]];
    end else begin
      actual = (ex_pc_q + PcW'(1)) & PcMask;
    end
  end

  // ---- fetch stage: the word at the fetch address and the address predicted after it
  logic [UINSN_W-1:0] fword;
  logic [3:0]         fw_cond, fw_tgt;
  logic [1:0]         fw_pred;
  logic [PcW-1:0]     fnext;
  always_comb begin
    fword   = uc_at_f;
    fw_cond = fword[hwprof_cop_pkg::UI_COND_LSB +: hwprof_cop_pkg::UI_COND_W];
    fw_tgt  = fword[hwprof_cop_pkg::UI_TARGET_LSB +: hwprof_cop_pkg::UI_TARGET_W];
    fw_pred = fword[hwprof_cop_pkg::UI_PRED_LSB +: hwprof_cop_pkg::UI_PRED_W];
    fnext   = (fpc_q + PcW'(1)) & PcMask;
    if ((fw_cond != 4'(hwprof_cop_pkg::COND_NONE)) && (fw_cond <= 4'(hwprof_cop_pkg::COND_NILIM)) &&
        ((fw_cond == 4'(hwprof_cop_pkg::COND_ALWAYS)) || (fw_pred >= 2'd2))) begin
      if (fw_tgt <= 4'(hwprof_cop_pkg::TARGET_M0)) begin
        fnext = (fpc_q + PcW'(hwprof_cop_pkg::target_offset(fw_tgt))) & PcMask;
      end else if ((fw_tgt >= 4'(hwprof_cop_pkg::TARGET_T0)) && (fw_tgt <= 4'(hwprof_cop_pkg::TARGET_T3))) begin
        fnext = t_q[fw_tgt[1:0]];
      end
    end
  end

  // ---- control: what happens this cycle
  logic exec, finish, redirect, fetch, load;
  always_comb begin
    exec     = active && dfe_valid_q && ex_valid_q;
    finish   = exec && (done || intr);
    redirect = exec && !finish && (actual != ex_pnext_q);
    fetch    = active && dfe_valid_q && !finish && !redirect;
    load     = active && smp_valid_i && (!dfe_valid_q || (exec && done));
  end
  assign smp_pop_o = load;
  assign irq_o     = exec && intr;

  // ---- next state of the registers (arrays below; register files copied element by element, as
  // Yosys 0.23 reads no whole unpacked-array assignment)
  always_comb begin
    for (int unsigned n = 0; n < hwprof_cop_pkg::NUM_VREGS; n++) v_d[n] = v_q[n];
    for (int unsigned n = 0; n < hwprof_cop_pkg::NUM_IREGS; n++) i_d[n] = i_q[n];
    for (int unsigned n = 0; n < hwprof_cop_pkg::NUM_CREGS; n++) c_d[n] = c_q[n];
    for (int unsigned n = 0; n < hwprof_cop_pkg::NUM_BREGS; n++) b_d[n] = b_q[n];
    for (int unsigned n = 0; n < hwprof_cop_pkg::NUM_TREGS; n++) t_d[n] = t_q[n];
    for (int unsigned n = 0; n < 8; n++) disp_d[n] = disp_q[n];
    lfsr_d      = lfsr_q;
    for (int unsigned n = 0; n < hwprof_cop_pkg::NUM_IREGS; n++) idxw_d[n] = idxw_q[n];
    run_d       = run_q;
    halted_d    = halted_q;
    clkdiv_d    = clkdiv_q;
    intr_pc_d   = intr_pc_q;
    fpc_d       = fpc_q;
    ex_valid_d  = ex_valid_q;
    ex_insn_d   = ex_insn_q;
    ex_pc_d     = ex_pc_q;
    ex_pnext_d  = ex_pnext_q;
    dfe_valid_d = dfe_valid_q;
    dfe_pc_d    = dfe_pc_q;
    dfe_npc_d   = dfe_npc_q;
    dfe_insn_d  = dfe_insn_q;
    dfe_addr_d  = dfe_addr_q;
    dfe_value_d = dfe_value_q;
    dfe_info_d  = dfe_info_q;

    if (exec) begin
      if (f_dop == hwprof_cop_pkg::DATA_OP_READ) v_d[f_dreg] = mem;
      if (alu_w) v_d[f_dst] = alu_r;
      if (chit) i_d[f_cidx] = 16'(match_idx);
      if (i_w) i_d[f_ireg] = i_new;
      if (f_alu == hwprof_cop_pkg::ALU_OP_RAND) lfsr_d = {1'b0, lfsr_q[15:1]} ^ (lfsr_q[0] ? 16'hB400 : 16'h0000);
    end
    if (active) begin
      if (finish) begin
        ex_valid_d  = 1'b0;
        dfe_valid_d = 1'b0;
      end
      if (exec && intr) begin
        run_d     = 1'b0;
        halted_d  = 1'b1;
        intr_pc_d = ex_pc_q;
      end
      if (redirect) begin
        ex_valid_d = 1'b0;
        fpc_d      = actual;
      end
      if (fetch) begin
        ex_valid_d = 1'b1;
        ex_insn_d  = fword;
        ex_pc_d    = fpc_q;
        ex_pnext_d = fnext;
        fpc_d      = fnext;
      end
      if (load) begin
        dfe_valid_d = 1'b1;
        dfe_pc_d    = smp_pc_i;
        dfe_npc_d   = smp_npc_i;
        dfe_insn_d  = smp_insn_i;
        dfe_addr_d  = smp_addr_i;
        dfe_value_d = smp_value_i;
        dfe_info_d  = smp_info_i;
        fpc_d       = disp_q[smp_info_i[2:0]];
      end
    end
    if (stop) begin
      run_d       = 1'b0;
      ex_valid_d  = 1'b0;
      dfe_valid_d = 1'b0;
    end
    // host writes: refused while the engine runs, so they never meet the engine's writes
    if (reg2hw.cmd_qe) begin
      if (reg2hw.cmd_idx_clear) begin
        for (int unsigned n = 0; n < hwprof_cop_pkg::NUM_IREGS; n++) i_d[n] = 16'd0;
      end
      if (reg2hw.cmd_start) begin
        run_d    = 1'b1;
        halted_d = 1'b0;
      end
    end
    if (reg2hw.lfsr_qe) lfsr_d = reg2hw.lfsr_value;
    if (reg2hw.clock_qe) clkdiv_d = reg2hw.clock_div_log2;
    // counted while the engine runs on (cleared as it starts and stops)
    div_d = (run_q && run_d) ? 3'((div_q + 3'd1) & 3'((4'd1 << clkdiv_q) - 4'd1)) : 3'd0;
    if (reg2hw.idxw_qe) begin
      idxw_d[0] = reg2hw.idxw_w0;
      idxw_d[1] = reg2hw.idxw_w1;
      idxw_d[2] = reg2hw.idxw_w2;
      idxw_d[3] = reg2hw.idxw_w3;
      idxw_d[4] = reg2hw.idxw_w4;
      idxw_d[5] = reg2hw.idxw_w5;
      idxw_d[6] = reg2hw.idxw_w6;
      idxw_d[7] = reg2hw.idxw_w7;
    end
    if (reg2hw.v_we) v_d[reg2hw.v_index] = reg2hw.v_wdata;
    if (reg2hw.i_we) i_d[reg2hw.i_index] = reg2hw.i_wdata[15:0];
    if (reg2hw.c_we) c_d[reg2hw.c_index] = reg2hw.c_wdata;
    if (reg2hw.b_we) b_d[reg2hw.b_index] = reg2hw.b_wdata[17:0];
    if (reg2hw.t_we) t_d[reg2hw.t_index] = reg2hw.t_wdata[PcW-1:0];
    if (reg2hw.dispatch_we) disp_d[reg2hw.dispatch_index] = reg2hw.dispatch_wdata[PcW-1:0];
  end

  // ---- array write ports: the engine while it runs, the host while it does not
  logic                uc_we;
  logic [PcW-1:0]      uc_widx;
  logic [UINSN_W-1:0]  uc_wdata;
  logic                cam_we, cam_wvalid, cam_clr;
  logic [CamW-1:0]     cam_widx;
  logic [31:0]         cam_wkey;
  logic                dt_we, dt_clr;
  logic [DwW-1:0]      dt_widx;
  logic [31:0]         dt_wdata;
  always_comb begin
    uc_we      = exec && cond_br;
    uc_widx    = ex_pc_q;
    uc_wdata   = uc_at_ex;
    uc_wdata[hwprof_cop_pkg::UI_PRED_LSB +: hwprof_cop_pkg::UI_PRED_W] = pred_new;
    if (reg2hw.uc_lo_we) begin
      uc_we    = 1'b1;
      uc_widx  = reg2hw.uc_lo_index[PcW-1:0];
      uc_wdata = {uc_at_wlo, reg2hw.uc_lo_wdata};
    end
    if (reg2hw.uc_hi_we) begin
      uc_we    = 1'b1;
      uc_widx  = reg2hw.uc_hi_index[PcW-1:0];
      uc_wdata = {reg2hw.uc_hi_wdata[UINSN_W-33:0], uc_at_whi};
    end
    cam_clr    = reg2hw.cmd_qe && reg2hw.cmd_cam_inval;
    cam_we     = exec && ((f_cam == hwprof_cop_pkg::CAM_OP_WRITE) || (f_cam == hwprof_cop_pkg::CAM_OP_INVAL));
    cam_widx   = cam_entry;
    cam_wkey   = (f_cam == hwprof_cop_pkg::CAM_OP_WRITE) ? opa : (cam_kw_q[cam_entry] ? cam_key_q[cam_entry] : 32'd0);
    cam_wvalid = f_cam == hwprof_cop_pkg::CAM_OP_WRITE;
    if (reg2hw.cam_key_we) begin
      cam_we     = 1'b1;
      cam_widx   = reg2hw.cam_key_index[CamW-1:0];
      cam_wkey   = reg2hw.cam_key_wdata;
      cam_wvalid = 1'b1;
    end
    dt_clr   = reg2hw.cmd_qe && reg2hw.cmd_data_clear;
    dt_we    = exec && d_w;
    dt_widx  = e_widx;
    dt_wdata = d_word;
    if (reg2hw.data_we) begin
      dt_we    = 1'b1;
      dt_widx  = reg2hw.data_index[DwW-1:0];
      dt_wdata = reg2hw.data_wdata;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      uc_wr_q <= '0;
    end else if (uc_we) begin
      uc_wr_q[uc_widx] <= 1'b1;
    end
  end
  always_ff @(posedge clk_i) begin  // memory: no reset (uc_wr_q)
    if (uc_we) uc_q[uc_widx] <= uc_wdata;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cam_valid_q <= '0;
      cam_kw_q    <= '0;
    end else begin
      if (cam_clr) cam_valid_q <= '0;
      if (cam_we) begin
        cam_valid_q[cam_widx] <= cam_wvalid;
        cam_kw_q[cam_widx]    <= 1'b1;
      end
    end
  end
  always_ff @(posedge clk_i) begin  // memory: no reset (cam_kw_q)
    if (cam_we) cam_key_q[cam_widx] <= cam_wkey;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni || dt_clr) begin
      data_wr_q <= '0;
    end else if (dt_we) begin
      data_wr_q[dt_widx] <= 1'b1;
    end
  end
  always_ff @(posedge clk_i) begin  // memory: no reset (data_wr_q)
    if (dt_we) data_q[dt_widx] <= dt_wdata;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int unsigned n = 0; n < hwprof_cop_pkg::NUM_VREGS; n++) v_q[n] <= '0;
      for (int unsigned n = 0; n < hwprof_cop_pkg::NUM_IREGS; n++) i_q[n] <= '0;
      for (int unsigned n = 0; n < hwprof_cop_pkg::NUM_CREGS; n++) c_q[n] <= '0;
      for (int unsigned n = 0; n < hwprof_cop_pkg::NUM_BREGS; n++) b_q[n] <= '0;
      for (int unsigned n = 0; n < hwprof_cop_pkg::NUM_TREGS; n++) t_q[n] <= '0;
      for (int unsigned n = 0; n < 8; n++) disp_q[n] <= '0;
      lfsr_q      <= hwprof_pkg::COP_LFSR_RESVAL[15:0];
      for (int unsigned n = 0; n < hwprof_cop_pkg::NUM_IREGS; n++) idxw_q[n] <= 4'hf;
      run_q       <= 1'b0;
      halted_q    <= 1'b0;
      clkdiv_q    <= '0;
      div_q       <= '0;
      intr_pc_q   <= '0;
      fpc_q       <= '0;
      ex_valid_q  <= 1'b0;
      ex_insn_q   <= '0;
      ex_pc_q     <= '0;
      ex_pnext_q  <= '0;
      dfe_valid_q <= 1'b0;
      dfe_pc_q    <= '0;
      dfe_npc_q   <= '0;
      dfe_insn_q  <= '0;
      dfe_addr_q  <= '0;
      dfe_value_q <= '0;
      dfe_info_q  <= '0;
    end else begin
      for (int unsigned n = 0; n < hwprof_cop_pkg::NUM_VREGS; n++) v_q[n] <= v_d[n];
      for (int unsigned n = 0; n < hwprof_cop_pkg::NUM_IREGS; n++) i_q[n] <= i_d[n];
      for (int unsigned n = 0; n < hwprof_cop_pkg::NUM_CREGS; n++) c_q[n] <= c_d[n];
      for (int unsigned n = 0; n < hwprof_cop_pkg::NUM_BREGS; n++) b_q[n] <= b_d[n];
      for (int unsigned n = 0; n < hwprof_cop_pkg::NUM_TREGS; n++) t_q[n] <= t_d[n];
      for (int unsigned n = 0; n < 8; n++) disp_q[n] <= disp_d[n];
      lfsr_q      <= lfsr_d;
      for (int unsigned n = 0; n < hwprof_cop_pkg::NUM_IREGS; n++) idxw_q[n] <= idxw_d[n];
      run_q       <= run_d;
      halted_q    <= halted_d;
      clkdiv_q    <= clkdiv_d;
      div_q       <= div_d;
      intr_pc_q   <= intr_pc_d;
      fpc_q       <= fpc_d;
      ex_valid_q  <= ex_valid_d;
      ex_insn_q   <= ex_insn_d;
      ex_pc_q     <= ex_pc_d;
      ex_pnext_q  <= ex_pnext_d;
      dfe_valid_q <= dfe_valid_d;
      dfe_pc_q    <= dfe_pc_d;
      dfe_npc_q   <= dfe_npc_d;
      dfe_insn_q  <= dfe_insn_d;
      dfe_addr_q  <= dfe_addr_d;
      dfe_value_q <= dfe_value_d;
      dfe_info_q  <= dfe_info_d;
    end
  end

  // ---- statistics
  always_comb begin
    st_inc               = '0;
    st_inc[StSamples]    = finish;
    st_inc[StExecuted]   = exec;
    st_inc[StMispredict] = redirect;
    st_inc[StIdle]       = active && !dfe_valid_q;
  end
  hwprof_prim_counters #(
    .N (StN),
    .W (32)
  ) u_stats (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .inc_i   (st_inc),
    .clr_i   (1'b0),
    .wr_i    ({reg2hw.stat_idle_qe, reg2hw.stat_mispredict_qe, reg2hw.stat_executed_qe, reg2hw.stat_samples_qe}),
    .wdata_i (reg2hw.stat_samples_value),  // every register's value is the write data
    .count_o (st_count)
  );
  // the other statistics registers' values are the same write data as STAT_SAMPLES's
  logic unused_stat_wdata;
  assign unused_stat_wdata = ^{reg2hw.stat_executed_value, reg2hw.stat_mispredict_value, reg2hw.stat_idle_value};

  // ---- what the engine shows its register block. The entry an array access names is worked out
  // here from the address (not taken from reg2hw, whose strobes depend on hw2reg's refusals)
  function automatic logic [10:0] entry(input logic [hwprof_pkg::APB_ADDR_W-1:0] base);
    logic [hwprof_pkg::APB_ADDR_W-1:0] off;
    off   = reg_addr_i - base;
    entry = 11'(off >> 2);  // the block spans 8 KB: 2048 words
  endfunction
  logic [10:0] ri_v, ri_i, ri_c, ri_b, ri_t, ri_disp, ri_uclo, ri_uchi, ri_cv, ri_key, ri_data;
  // the valid bits padded to whole words of 32 (CAM_VALID's layout)
  localparam int unsigned CvPad = hwprof_pkg::COP_CAM_KEY_ENTRIES;  // the largest CamEntries
  logic [CvPad-1:0] cv_pad;
  assign cv_pad = CvPad'(cam_valid_q);
  assign ri_v    = entry(hwprof_pkg::COP_V_ADDR);
  assign ri_i    = entry(hwprof_pkg::COP_I_ADDR);
  assign ri_c    = entry(hwprof_pkg::COP_C_ADDR);
  assign ri_b    = entry(hwprof_pkg::COP_B_ADDR);
  assign ri_t    = entry(hwprof_pkg::COP_T_ADDR);
  assign ri_disp = entry(hwprof_pkg::COP_DISPATCH_ADDR);
  assign ri_uclo = entry(hwprof_pkg::COP_UC_LO_ADDR);
  assign ri_uchi = entry(hwprof_pkg::COP_UC_HI_ADDR);
  assign ri_uclo_w = ri_uclo[PcW-1:0];
  assign ri_uchi_w = ri_uchi[PcW-1:0];
  assign ri_cv   = entry(hwprof_pkg::COP_CAM_VALID_ADDR);
  assign ri_key  = entry(hwprof_pkg::COP_CAM_KEY_ADDR);
  assign ri_data = entry(hwprof_pkg::COP_DATA_ADDR);

  always_comb begin
    hw2reg = '0;
    hw2reg.cmd_refuse            = run_q;
    hw2reg.status_running        = run_q;
    hw2reg.status_halted         = halted_q;
    hw2reg.status_dfe_valid      = dfe_valid_q;
    hw2reg.status_fetch_pc       = 8'(fpc_q);
    hw2reg.status_intr_pc        = 8'(intr_pc_q);
    hw2reg.lfsr_value            = lfsr_q;
    hw2reg.lfsr_refuse           = run_q || (reg_wdata_i[15:0] == 16'd0);
    hw2reg.idxw_refuse           = run_q;
    hw2reg.clock_refuse          = run_q;
    hw2reg.clock_div_log2        = clkdiv_q;
    hw2reg.idxw_w0               = idxw_q[0];
    hw2reg.idxw_w1               = idxw_q[1];
    hw2reg.idxw_w2               = idxw_q[2];
    hw2reg.idxw_w3               = idxw_q[3];
    hw2reg.idxw_w4               = idxw_q[4];
    hw2reg.idxw_w5               = idxw_q[5];
    hw2reg.idxw_w6               = idxw_q[6];
    hw2reg.idxw_w7               = idxw_q[7];
    hw2reg.stat_samples_value    = st_count[StSamples*32 +: 32];
    hw2reg.stat_executed_value   = st_count[StExecuted*32 +: 32];
    hw2reg.stat_mispredict_value = st_count[StMispredict*32 +: 32];
    hw2reg.stat_idle_value       = st_count[StIdle*32 +: 32];
    hw2reg.cfg_uc_log2           = 4'(PcW);
    hw2reg.cfg_cam_log2          = 4'(CamW);
    hw2reg.cfg_data_log2         = 4'(DataAW);
    hw2reg.v_rdata               = v_q[ri_v[1:0]];
    hw2reg.v_refuse              = run_q;
    hw2reg.i_rdata               = {16'd0, iread[ri_i[2:0]]};
    hw2reg.i_refuse              = run_q;
    hw2reg.c_rdata               = c_q[ri_c[1:0]];
    hw2reg.c_refuse              = run_q;
    hw2reg.b_rdata               = {14'd0, b_q[ri_b[2:0]]};
    hw2reg.b_refuse              = run_q;
    hw2reg.t_rdata               = 32'(t_q[ri_t[1:0]]);
    hw2reg.t_refuse              = run_q;
    hw2reg.dispatch_rdata        = 32'(disp_q[ri_disp[2:0]]);
    hw2reg.dispatch_refuse       = run_q;
    hw2reg.uc_lo_rdata           = (32'(ri_uclo) < UcDepth) ? uc_at_rlo : 32'd0;
    hw2reg.uc_lo_refuse          = run_q || (32'(ri_uclo) >= UcDepth);
    hw2reg.uc_hi_rdata           = (32'(ri_uchi) < UcDepth) ? 32'(uc_at_rhi) : 32'd0;
    hw2reg.uc_hi_refuse          = run_q || (32'(ri_uchi) >= UcDepth);
    if (32'(ri_cv) * 32 < CamEntries) hw2reg.cam_valid_rdata = cv_pad[32*ri_cv[3:0] +: 32];
    hw2reg.cam_key_rdata         = ((32'(ri_key) < CamEntries) && cam_kw_q[ri_key[CamW-1:0]]) ?
                                   cam_key_q[ri_key[CamW-1:0]] : 32'd0;
    hw2reg.cam_key_refuse        = run_q || (32'(ri_key) >= CamEntries);
    hw2reg.data_rdata            = ((32'(ri_data) < DataWords) && data_wr_q[ri_data[DwW-1:0]]) ?
                                   data_q[ri_data[DwW-1:0]] : 32'd0;
    hw2reg.data_refuse           = run_q || (32'(ri_data) >= DataWords);
  end

  hwprof_cop_reg u_reg (
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

  // the array entries a read names are worked out above from the address; bits above an array's
  // size, the address bits a byte address does not use and the ro array's index are not needed
  logic unused_bits;
  assign unused_bits = ^{reg2hw.cam_valid_index, e_baddr[15:DataAW], ri_v[10:2], ri_i[10:3], ri_c[10:2], ri_b[10:3],
                         ri_t[10:2], ri_disp[10:3], ri_cv[10:4]};

  // ---- parameter checks
  if ((UcDepth < 2) || (UcDepth > 64) || ((UcDepth & (UcDepth - 1)) != 0)) begin : g_uc_check
    $error("UcDepth must be 2..64, a power of two");
  end
  if ((CamEntries < 2) || (CamEntries > hwprof_pkg::COP_CAM_KEY_ENTRIES) || ((CamEntries & (CamEntries - 1)) != 0)) begin : g_cam_check
    $error("CamEntries must be 2..512, a power of two");
  end
  if ((DataBytes < 8) || (DataBytes > 4 * hwprof_pkg::COP_DATA_ENTRIES) || ((DataBytes & (DataBytes - 1)) != 0)) begin : g_data_check
    $error("DataBytes must be 8..4096, a power of two");
  end

endmodule

`default_nettype wire
