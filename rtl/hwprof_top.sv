// hwprof_top: the hwprof profiling subsystem.
//
// Ports as DESIGN.md section 4: the retire-event port (valid/ready, one retired instruction per
// cycle), the APB3 register port (zero wait states, one window per engine selected by
// paddr[15:8]), and, until the edge-profiling unit consumes them, the update operations generated
// from retired branches and profiling instructions (docs/pir.md).
//
// Engines present: the profile information register and update-operation generation (seed 000,
// sections 6 and 7).
//
// Reset: synchronous, active low; every flop is reset (inside the engines).

`default_nettype none

module hwprof_top #(
  parameter int unsigned CntW = 32  // profile counter width in bits: 8, 16, 32 or 64
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,

  // retire-event port (processor -> hwprof); the processor holds the event while ev_ready_o is low
  input  logic                                ev_valid_i,
  output logic                                ev_ready_o,
  input  logic [31:0]                         ev_pc_i,
  input  logic [31:0]                         ev_next_pc_i,
  input  logic [31:0]                         ev_insn_i,
  input  logic [2:0]                          ev_kind_i,
  input  logic                                ev_is_call_i,
  input  logic                                ev_is_ret_i,
  input  logic                                ev_taken_i,
  input  logic [31:0]                         ev_addr_i,
  input  logic [31:0]                         ev_value_i,
  input  logic [hwprof_pkg::EV_PID_W-1:0]     ev_pid_i,
  input  logic [1:0]                          ev_bhint_i,
  input  logic                                ev_ihint_i,
  input  logic [2:0]                          ev_op_i,
  input  logic [hwprof_pkg::EV_OPERAND_W-1:0] ev_operand_i,

  // APB3 register port
  input  logic                                psel_i,
  input  logic                                penable_i,
  input  logic                                pwrite_i,
  input  logic [hwprof_pkg::APB_ADDR_W-1:0]   paddr_i,
  input  logic [31:0]                         pwdata_i,
  output logic [31:0]                         prdata_o,
  output logic                                pready_o,
  output logic                                pslverr_o,

  // generated profile update operations
  output logic                                upd_valid_o,
  output logic [hwprof_pkg::PIR_BASE_W-1:0]   upd_addr_o,
  output logic                                upd_dec_o
);

  localparam int unsigned WinW = hwprof_pkg::APB_ADDR_W - hwprof_pkg::WINDOW_SHIFT;

  // ---- APB window decode
  logic            apb_access;
  logic [WinW-1:0] window;
  logic            top_sel, pir_sel;

  assign apb_access = psel_i && penable_i;
  assign window     = paddr_i[hwprof_pkg::APB_ADDR_W-1:hwprof_pkg::WINDOW_SHIFT];
  assign top_sel    = apb_access && (window == hwprof_pkg::TOP_WINDOW);
  assign pir_sel    = apb_access && (window == hwprof_pkg::PIR_WINDOW);

  // A register write to the pir window holds the retire port for its one access cycle, so the
  // instruction and the write never race for the same field and neither is lost.
  assign ev_ready_o = !(pir_sel && pwrite_i);

  logic ev_fire;
  assign ev_fire = ev_valid_i && ev_ready_o;

  // ---- the top window: identification, read-only
  logic [31:0] top_rdata;
  logic        top_hit;

  always_comb begin
    top_hit   = 1'b1;
    top_rdata = '0;
    unique case (paddr_i)
      hwprof_pkg::TOP_ID_ADDR:      top_rdata = hwprof_pkg::TOP_ID_RESVAL;
      hwprof_pkg::TOP_VERSION_ADDR: top_rdata = hwprof_pkg::TOP_VERSION_RESVAL;
      default:                      top_hit   = 1'b0;
    endcase
  end

  logic top_error;
  assign top_error = top_sel && (!top_hit || pwrite_i);

  // ---- engines
  logic [31:0] pir_rdata;
  logic        pir_error;

  hwprof_pir #(
    .CntW (CntW)
  ) u_pir (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .ev_fire_i    (ev_fire),
    .ev_kind_i    (ev_kind_i),
    .ev_taken_i   (ev_taken_i),
    .ev_pid_i     (ev_pid_i),
    .ev_bhint_i   (ev_bhint_i),
    .ev_ihint_i   (ev_ihint_i),
    .ev_op_i      (ev_op_i),
    .ev_operand_i (ev_operand_i),
    .reg_access_i (pir_sel),
    .reg_write_i  (pwrite_i),
    .reg_addr_i   (paddr_i),
    .reg_wdata_i  (pwdata_i),
    .reg_rdata_o  (pir_rdata),
    .reg_error_o  (pir_error),
    .upd_valid_o  (upd_valid_o),
    .upd_addr_o   (upd_addr_o),
    .upd_dec_o    (upd_dec_o)
  );

  // ---- APB response: zero wait states; an address outside every window is an error
  logic unmapped;
  assign unmapped = apb_access && !top_sel && !pir_sel;

  assign pready_o  = 1'b1;
  assign pslverr_o = top_error || pir_error || unmapped;
  assign prdata_o  = ((top_sel && !pwrite_i && top_hit) ? top_rdata : '0) | pir_rdata;

  // retire-event fields the present engines do not use (the trace controller and the value
  // profiler will)
  logic unused_ev;
  assign unused_ev = ^{ev_pc_i, ev_next_pc_i, ev_insn_i, ev_is_call_i, ev_is_ret_i, ev_addr_i,
                       ev_value_i};

endmodule

`default_nettype wire
