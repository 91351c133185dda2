// hwprof_rvfi_adapter: a core's RISC-V Formal Interface (RVFI) to hwprof_top's retire-event port.
//
// A core that reports each retired instruction on RVFI (picorv32 with RISCV_FORMAL, Ibex, ...) gives
// everything the retire-event port carries but the profiling bits, which live in the instruction's
// shadow word (docs/cpu-model.md): the memory reads it beside every instruction fetch (a second read
// port at the same word of the shadow window) and hands it here with the fetch. The adapter keeps
// the shadow words of the last Fetches fetches (an RVFI record arrives after the next instruction was
// fetched), decodes the record as the CPU model does (docs/retire-port.md: kind, call/return, the
// branch outcome, the load or store, prof.* and the shadow word's fields), marks a trap handler's
// records (trap HANDLER: from the record with rvfi_intr through the mret, or picorv32's retirq, that
// returns) and holds the event in a one-entry buffer until hwprof_top takes it. While an event waits (ev_valid_o and not ev_ready_i)
// stall_o holds the core's next memory transaction, so it cannot retire another: nothing is lost.
// A record that arrives while the buffer is still full (a core that retires without a memory
// transaction in between) or whose fetch is not among the last Fetches sets err_o, sticky until reset.
//
// The C model is cmodel/core/rvfi_adapter.c; docs/picorv32.md describes the pairing with picorv32.
module hwprof_rvfi_adapter #(
  // fetches remembered: picorv32 fetches a branch's fall-through and its target before the branch's
  // record arrives (three); one more for margin
  parameter int unsigned Fetches = 4
) (
  input  logic        clk_i,
  input  logic        rst_ni,

  // RVFI: one retired instruction a pulse
  input  logic        rvfi_valid_i,
  input  logic [31:0] rvfi_insn_i,
  input  logic [31:0] rvfi_pc_rdata_i,
  input  logic [31:0] rvfi_pc_wdata_i,
  input  logic [31:0] rvfi_rs1_rdata_i,
  input  logic [31:0] rvfi_rs2_rdata_i,
  input  logic [31:0] rvfi_mem_rdata_i,  // the word read (picorv32 gives the whole word)
  input  logic        rvfi_intr_i,       // the record is a trap handler's first instruction

  // an instruction fetch completing this cycle, with its shadow word
  input  logic        fetch_i,
  input  logic [31:0] fetch_addr_i,
  input  logic [31:0] fetch_shadow_i,

  // hwprof_top's retire-event port
  output logic                                ev_valid_o,
  input  logic                                ev_ready_i,
  output logic [31:0]                         ev_pc_o,
  output logic [31:0]                         ev_next_pc_o,
  output logic [31:0]                         ev_insn_o,
  output logic [2:0]                          ev_kind_o,
  output logic                                ev_is_call_o,
  output logic                                ev_is_ret_o,
  output logic                                ev_taken_o,
  output logic [31:0]                         ev_addr_o,
  output logic [31:0]                         ev_value_o,
  output logic [hwprof_pkg::EV_PID_W-1:0]     ev_pid_o,
  output logic [1:0]                          ev_bhint_o,
  output logic                                ev_ihint_o,
  output logic [2:0]                          ev_op_o,
  output logic [hwprof_pkg::EV_OPERAND_W-1:0] ev_operand_o,
  output logic [1:0]                          ev_trap_o,

  output logic        stall_o,  // hold the core's memory: an event waits
  output logic        err_o     // a record lost or without its fetch (sticky)
);
  localparam int unsigned OpW = hwprof_pkg::EV_OPERAND_W;

  // ---------------------------------------------------------------- the last fetches
  logic [31:0] f_addr_q [Fetches];
  logic [31:0] f_sh_q [Fetches];
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int i = 0; i < Fetches; i++) begin
        f_addr_q[i] <= '1;
        f_sh_q[i] <= '0;
      end
    end else if (fetch_i) begin
      for (int i = Fetches - 1; i > 0; i--) begin
        f_addr_q[i] <= f_addr_q[i-1];
        f_sh_q[i] <= f_sh_q[i-1];
      end
      f_addr_q[0] <= fetch_addr_i;
      f_sh_q[0] <= fetch_shadow_i;
    end
  end
  logic        sh_hit;
  logic [31:0] sh;
  always_comb begin  // the most recent fetch of the record's address
    sh_hit = 1'b0;
    sh = '0;
    for (int i = Fetches - 1; i >= 0; i--)
      if (f_addr_q[i] == rvfi_pc_rdata_i) begin
        sh_hit = 1'b1;
        sh = f_sh_q[i];
      end
  end

  // ---------------------------------------------------------------- decoding the record
  logic [6:0]  opcode;
  logic [4:0]  rd, rs1;
  logic [2:0]  f3;
  logic [31:0] imm_i, imm_s, a, b;
  assign opcode = rvfi_insn_i[6:0];
  assign rd = rvfi_insn_i[11:7];
  assign f3 = rvfi_insn_i[14:12];
  assign rs1 = rvfi_insn_i[19:15];
  assign imm_i = {{20{rvfi_insn_i[31]}}, rvfi_insn_i[31:20]};
  assign imm_s = {{20{rvfi_insn_i[31]}}, rvfi_insn_i[31:25], rvfi_insn_i[11:7]};
  assign a = rvfi_rs1_rdata_i;
  assign b = rvfi_rs2_rdata_i;

  logic trap_ret;  // mret, or picorv32's retirq: the handler's last instruction
  assign trap_ret = rvfi_insn_i == 32'h3020_0073 || rvfi_insn_i == 32'h0400_000b;
  logic handler;   // the record is a trap handler's: its first (rvfi_intr) through its return
  logic hnd_q;
  assign handler = rvfi_intr_i || hnd_q;

  function automatic logic is_link(input logic [4:0] r);
    is_link = r == 5'd1 || r == 5'd5;
  endfunction

  logic [2:0]  kind;
  logic        is_call, is_ret, taken, xfer;
  logic [31:0] addr, value, word;
  logic [hwprof_pkg::EV_PID_W-1:0] pid;
  logic [1:0]  bhint;
  logic        ihint;
  logic [2:0]  op;
  logic [OpW-1:0] operand;
  logic        sh_setoff, sh_path;
  always_comb begin
    kind = hwprof_pkg::KIND_OTHER;
    is_call = 1'b0;
    is_ret = 1'b0;
    taken = 1'b0;
    addr = '0;
    value = '0;
    pid = '0;
    bhint = '0;
    ihint = 1'b0;
    op = '0;
    operand = '0;
    word = rvfi_mem_rdata_i >> {addr[1:0], 3'b000};
    unique case (opcode)
      7'h63: begin
        kind = hwprof_pkg::KIND_BRANCH;
        unique case (f3)
          3'd0: taken = a == b;
          3'd1: taken = a != b;
          3'd4: taken = $signed(a) < $signed(b);
          3'd5: taken = $signed(a) >= $signed(b);
          3'd6: taken = a < b;
          default: taken = a >= b;  // 7 (2 and 3 are illegal: the core traps, nothing retires)
        endcase
      end
      7'h6f: begin
        kind = hwprof_pkg::KIND_JUMP;
        taken = 1'b1;
        is_call = is_link(rd);
      end
      7'h67: begin
        kind = hwprof_pkg::KIND_IJUMP;
        taken = 1'b1;
        is_call = is_link(rd);
        is_ret = rd == 5'd0 && is_link(rs1);
      end
      7'h03: begin
        kind = hwprof_pkg::KIND_LOAD;
        addr = a + imm_i;
        word = rvfi_mem_rdata_i >> {addr[1:0], 3'b000};
        unique case (f3)
          3'd0: value = {{24{word[7]}}, word[7:0]};
          3'd1: value = {{16{word[15]}}, word[15:0]};
          3'd4: value = {24'b0, word[7:0]};
          3'd5: value = {16'b0, word[15:0]};
          default: value = word;
        endcase
      end
      7'h23: begin
        kind = hwprof_pkg::KIND_STORE;
        addr = a + imm_s;
        value = b;
      end
      7'(hwprof_pkg::OPCODE_PROF): begin  // prof.<f3>: the operand from rs1, or the shadow word when rs1 is x0
        kind = hwprof_pkg::KIND_PROF;
        op = f3;
        operand = (rs1 == 5'd0 && f3 != hwprof_pkg::PROF_OP_ID) ? OpW'(sh) : OpW'(a);
        if (f3 == hwprof_pkg::PROF_OP_ID) begin
          pid = hwprof_pkg::EV_PID_W'(rvfi_insn_i[31:20]);
          ihint = rd[0];
          bhint = rd[2:1];
        end
      end
      7'h73, 7'h0b: begin  // a handler's return (mret, picorv32's retirq): as the CPU model's mret
        if (trap_ret) begin
          kind = hwprof_pkg::KIND_IJUMP;
          taken = 1'b1;
        end
      end
      default: ;
    endcase
    // the profiling bits of the shadow word (rv32.c and cmodel/core/retire_fields.h say the same)
    xfer = kind == hwprof_pkg::KIND_BRANCH || kind == hwprof_pkg::KIND_JUMP || kind == hwprof_pkg::KIND_IJUMP;
    sh_setoff = sh[hwprof_pkg::SHADOW_SETOFF_EN_LSB];
    sh_path = !sh_setoff && sh[hwprof_pkg::SHADOW_PATH_LSB];
    if (xfer) begin
      if (is_call) begin  // its link word
        if (sh[hwprof_pkg::SHADOW_LINK_LSB] || sh[hwprof_pkg::SHADOW_CALLINIT_LSB]) begin
          op = sh[hwprof_pkg::SHADOW_LINK_LSB] ? hwprof_pkg::PROF_OP_PUSH : hwprof_pkg::PROF_OP_INIT;
          operand = OpW'({sh[31:2], 2'b00});
        end
      end else if (sh_path) begin  // a path word
        if (is_ret) begin
          op = sh[hwprof_pkg::SHADOW_POP_LSB] ? hwprof_pkg::PROF_OP_POP : 3'(hwprof_pkg::PROF_OP_PATH);
          operand = OpW'(sh[hwprof_pkg::PATH_B_LSB-1:0]);
        end else if (sh[hwprof_pkg::SHADOW_PATH_NT_LSB] != taken) begin
          op = 3'(hwprof_pkg::PROF_OP_PATH);
          operand = OpW'(sh[hwprof_pkg::SHADOW_PATH_NT_LSB-1:0]);
        end
      end else begin
        pid = sh[hwprof_pkg::SHADOW_PID_LSB +: hwprof_pkg::SHADOW_PID_W];
        bhint = sh[hwprof_pkg::SHADOW_BHINT_LSB +: 2];
        ihint = sh[hwprof_pkg::SHADOW_IHINT_LSB];
        if (is_ret && sh[hwprof_pkg::SHADOW_POP_LSB]) begin
          op = hwprof_pkg::PROF_OP_POP;
        end else if (sh_setoff && sh[hwprof_pkg::SHADOW_SETOFF_NT_LSB] != taken) begin
          op = hwprof_pkg::PROF_OP_SETOFF;
          operand = OpW'(sh[hwprof_pkg::SHADOW_SETOFF_LSB +: hwprof_pkg::SHADOW_SETOFF_W]);
        end
      end
    end else if (kind != hwprof_pkg::KIND_PROF && sh != '0) begin  // a carrier word
      unique case (sh[hwprof_pkg::SHADOW_CARRY_LSB +: 2])
        hwprof_pkg::CARRY_INIT: begin
          op = hwprof_pkg::PROF_OP_INIT;
          operand = OpW'({sh[31:2], 2'b00});
        end
        hwprof_pkg::CARRY_SETOFF: begin
          op = hwprof_pkg::PROF_OP_SETOFF;
          operand = OpW'(sh[31:2]);
        end
        hwprof_pkg::CARRY_ID: begin
          op = hwprof_pkg::PROF_OP_ID;
          pid = sh[hwprof_pkg::SHADOW_CARRY_PID_LSB +: 16];
          ihint = sh[hwprof_pkg::SHADOW_CARRY_IHINT_LSB];
        end
        default: ;
      endcase
    end
  end

  // ---------------------------------------------------------------- the one-entry buffer
  logic valid_q, err_q;
  logic [31:0] pc_q, next_q, insn_q, addr_q, value_q;
  logic [2:0]  kind_q, op_q;
  logic        call_q, ret_q, taken_q, ihint_q;
  logic [hwprof_pkg::EV_PID_W-1:0] pid_q;
  logic [1:0]  bhint_q;
  logic [OpW-1:0] operand_q;
  logic [1:0]  trap_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      valid_q <= 1'b0;
      hnd_q <= 1'b0;
      trap_q <= hwprof_pkg::TRAP_NONE;
      err_q <= 1'b0;
      pc_q <= '0;
      next_q <= '0;
      insn_q <= '0;
      addr_q <= '0;
      value_q <= '0;
      kind_q <= '0;
      op_q <= '0;
      call_q <= 1'b0;
      ret_q <= 1'b0;
      taken_q <= 1'b0;
      ihint_q <= 1'b0;
      pid_q <= '0;
      bhint_q <= '0;
      operand_q <= '0;
    end else begin
      if (rvfi_valid_i) begin
        valid_q <= 1'b1;
        err_q <= err_q || (valid_q && !ev_ready_i) || !sh_hit;
        pc_q <= rvfi_pc_rdata_i;
        next_q <= rvfi_pc_wdata_i;
        insn_q <= rvfi_insn_i;
        addr_q <= addr;
        value_q <= value;
        kind_q <= kind;
        op_q <= op;
        call_q <= is_call;
        ret_q <= is_ret;
        taken_q <= taken;
        ihint_q <= ihint;
        pid_q <= pid;
        bhint_q <= bhint;
        operand_q <= operand;
        trap_q <= handler ? hwprof_pkg::TRAP_HANDLER : hwprof_pkg::TRAP_NONE;
        hnd_q <= handler && !trap_ret;
      end else if (ev_ready_i) begin
        valid_q <= 1'b0;
      end
    end
  end

  assign ev_valid_o = valid_q;
  assign ev_pc_o = pc_q;
  assign ev_next_pc_o = next_q;
  assign ev_insn_o = insn_q;
  assign ev_kind_o = kind_q;
  assign ev_is_call_o = call_q;
  assign ev_is_ret_o = ret_q;
  assign ev_taken_o = taken_q;
  assign ev_addr_o = addr_q;
  assign ev_value_o = value_q;
  assign ev_pid_o = pid_q;
  assign ev_bhint_o = bhint_q;
  assign ev_ihint_o = ihint_q;
  assign ev_op_o = op_q;
  assign ev_operand_o = operand_q;
  assign ev_trap_o = trap_q;
  assign stall_o = valid_q && !ev_ready_i;
  assign err_o = err_q;
endmodule
