# The generated register map and RTL lint.
# Included by the Makefile in its order: what the files before it define is in scope.

regs:
	python3 tools/regtool.py

regs-check:
	python3 tools/regtool.py --check

# hwprof.core (FuseSoC) from the RTL file list rtl/hwprof.f and the parameters in regs/encodings.json
core:
	python3 tools/core_gen.py

# the RTL source list, for scripts (tools/runtests.sh)
print-rtl-src:
	@echo $(RTL_SRC)

# ---------------------------------------------------------------- lint
lint:
	$(VERILATOR) --lint-only -Wall $(VLT) $(RTL_SRC) --top-module hwprof_top
	$(VERILATOR) --lint-only -Wall $(VLT) $(call rtl_block,pir path) --top-module hwprof_pir
	$(VERILATOR) --lint-only -Wall $(VLT) $(RTL_COP) --top-module hwprof_cop
	$(VERILATOR) --lint-only -Wall $(VLT) $(RTL_COP) --top-module hwprof_cop -GUcDepth=2 -GCamEntries=2 -GDataBytes=8
	$(VERILATOR) --lint-only -Wall $(VLT) $(RTL_VPF) --top-module hwprof_vpf
	$(VERILATOR) --lint-only -Wall $(VLT) $(RTL_VPF) --top-module hwprof_vpf -GSbufWords=8 -GBitmaskBits=32
	$(VERILATOR) --lint-only -Wall $(VLT) $(call rtl_block,edge_prof) --top-module hwprof_edge_prof
	$(VERILATOR) --lint-only -Wall $(VLT) $(call rtl_block,trace_ctrl) --top-module hwprof_trace_ctrl
	$(VERILATOR) --lint-only -Wall $(VLT) $(RTL_SRC) --top-module hwprof_top -GSets=2 -GWays=1 -GLineWords=2 \
	  -GUpdDepth=1 -GOabDepth=1 -GCntW=8 -GHistW=2 -GTraceFifoDepth=1
	$(VERILATOR) --lint-only -Wall $(VLT) rtl/prim/hwprof_prim_counters.sv --top-module hwprof_prim_counters -GN=6 -GW=32
	$(VERILATOR) --lint-only -Wall $(VLT) rtl/prim/hwprof_prim_regfile.sv --top-module hwprof_prim_regfile -GN=16 -GW=32
	$(VERILATOR) --lint-only -Wall $(VLT) rtl/prim/hwprof_prim_regfile.sv --top-module hwprof_prim_regfile -GN=1 -GW=1
	$(VERILATOR) --lint-only -Wall $(VLT) rtl/prim/hwprof_prim_counters.sv --top-module hwprof_prim_counters -GN=1 -GW=1
	$(VERILATOR) --lint-only -Wall $(VLT) rtl/prim/hwprof_prim_fifo.sv --top-module hwprof_prim_fifo -GWidth=40 -GDepth=5
	$(VERILATOR) --lint-only -Wall $(VLT) rtl/prim/hwprof_prim_fifo.sv --top-module hwprof_prim_fifo -GWidth=1 -GDepth=1 \
	  -GIdxRead="1'b0"
	$(VERILATOR) --lint-only -Wall $(VLT) rtl/prim/hwprof_prim_fifo.sv --top-module hwprof_prim_fifo -GWidth=41 -GDepth=3 \
	  -GOverwrite="1'b1"
	$(VERILATOR) --lint-only -Wall $(VLT) rtl/autogen/hwprof_pkg.sv rtl/core/hwprof_rvfi_adapter.sv --top-module hwprof_rvfi_adapter
	$(VERILATOR) --lint-only -Wall $(VLT) rtl/autogen/hwprof_pkg.sv rtl/core/hwprof_rvfi_adapter.sv --top-module hwprof_rvfi_adapter \
	  -GFetches=1
	@echo "lint: clean"
