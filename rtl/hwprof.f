// The RTL of hwprof_top, in compile order: the one list of its sources, and the RVFI adapter that
// joins it to a core (rtl/core/, docs/picorv32.md; not part of hwprof_top). The Makefile (RTL_SRC: the
// benches, lint, synthesis, coverage) reads it, and tools/core_gen.py writes hwprof.core from it;
// Verilator and most other tools take it as it is (`verilator -f rtl/hwprof.f`). Paths are relative
// to the repository root. Files under autogen/ are generated (make regs).
rtl/autogen/hwprof_pkg.sv
rtl/cop/autogen/hwprof_cop_pkg.sv
rtl/prim/hwprof_prim_fifo.sv
rtl/prim/hwprof_prim_counters.sv
rtl/prim/hwprof_prim_regfile.sv
rtl/top/autogen/hwprof_param_check.sv
rtl/top/autogen/hwprof_top_reg.sv
rtl/pir/autogen/hwprof_pir_reg.sv
rtl/edge_prof/autogen/hwprof_edge_prof_reg.sv
rtl/trace_ctrl/autogen/hwprof_trace_ctrl_reg.sv
rtl/vpf/autogen/hwprof_vpf_reg.sv
rtl/cop/autogen/hwprof_cop_reg.sv
rtl/path/hwprof_path.sv
rtl/pir/hwprof_pir.sv
rtl/edge_prof/hwprof_edge_prof.sv
rtl/trace_ctrl/hwprof_trace_ctrl.sv
rtl/vpf/hwprof_sbuf.sv
rtl/vpf/hwprof_vpf.sv
rtl/cop/hwprof_cop.sv
rtl/top/hwprof_top.sv
rtl/core/hwprof_rvfi_adapter.sv
