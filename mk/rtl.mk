# The generated register map and RTL lint.
# Included by the Makefile in its order: what the files before it define is in scope.

regs:
	python3 tools/regtool.py

regs-check:
	python3 tools/regtool.py --check

# the RTL source list, for scripts (tools/runtests.sh)
print-rtl-src:
	@echo $(RTL_SRC)

# ---------------------------------------------------------------- lint
lint:
	$(VERILATOR) --lint-only -Wall $(VLT) $(RTL_SRC) --top-module hwprof_top
	$(VERILATOR) --lint-only -Wall $(VLT) $(RTL_PKG) $(RTL_PRIM) rtl/reg/hwprof_pir_reg.sv rtl/hwprof_path.sv rtl/hwprof_pir.sv --top-module hwprof_pir
	$(VERILATOR) --lint-only -Wall $(VLT) $(RTL_COP) --top-module hwprof_cop
	$(VERILATOR) --lint-only -Wall $(VLT) $(RTL_COP) --top-module hwprof_cop -GUcDepth=2 -GCamEntries=2 -GDataBytes=8
	$(VERILATOR) --lint-only -Wall $(VLT) $(RTL_VPF) --top-module hwprof_vpf
	$(VERILATOR) --lint-only -Wall $(VLT) $(RTL_VPF) --top-module hwprof_vpf -GSbufWords=8 -GBitmaskBits=32
	$(VERILATOR) --lint-only -Wall $(VLT) $(RTL_PKG) $(RTL_PRIM) rtl/reg/hwprof_edge_prof_reg.sv rtl/hwprof_edge_prof.sv \
	  --top-module hwprof_edge_prof
	$(VERILATOR) --lint-only -Wall $(VLT) $(RTL_PKG) $(RTL_PRIM) rtl/reg/hwprof_trace_ctrl_reg.sv rtl/hwprof_trace_ctrl.sv \
	  --top-module hwprof_trace_ctrl
	$(VERILATOR) --lint-only -Wall $(VLT) $(RTL_SRC) --top-module hwprof_top -GSets=2 -GWays=1 -GLineWords=2 \
	  -GUpdDepth=1 -GOabDepth=1 -GCntW=8 -GHistW=2 -GTraceFifoDepth=1
	$(VERILATOR) --lint-only -Wall $(VLT) rtl/prim/hwprof_prim_counters.sv --top-module hwprof_prim_counters -GN=6 -GW=32
	$(VERILATOR) --lint-only -Wall $(VLT) rtl/prim/hwprof_prim_cam.sv --top-module hwprof_prim_cam -GN=16 -GKeyW=30
	$(VERILATOR) --lint-only -Wall $(VLT) rtl/prim/hwprof_prim_cam.sv --top-module hwprof_prim_cam -GN=1 -GKeyW=1
	$(VERILATOR) --lint-only -Wall $(VLT) rtl/prim/hwprof_prim_regfile.sv --top-module hwprof_prim_regfile -GN=16 -GW=32
	$(VERILATOR) --lint-only -Wall $(VLT) rtl/prim/hwprof_prim_regfile.sv --top-module hwprof_prim_regfile -GN=1 -GW=1
	$(VERILATOR) --lint-only -Wall $(VLT) rtl/prim/hwprof_prim_counters.sv --top-module hwprof_prim_counters -GN=1 -GW=1
	$(VERILATOR) --lint-only -Wall $(VLT) rtl/prim/hwprof_prim_fifo.sv --top-module hwprof_prim_fifo -GWidth=40 -GDepth=5
	$(VERILATOR) --lint-only -Wall $(VLT) rtl/prim/hwprof_prim_fifo.sv --top-module hwprof_prim_fifo -GWidth=1 -GDepth=1 \
	  -GIdxRead="1'b0"
	$(VERILATOR) --lint-only -Wall $(VLT) rtl/prim/hwprof_prim_fifo.sv --top-module hwprof_prim_fifo -GWidth=41 -GDepth=3 \
	  -GOverwrite="1'b1"
	@echo "lint: clean"
