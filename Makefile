# hwprof: open, synthesizable profiling hardware with a bit-exact C reference model.
# `make help` lists the targets. A fresh Debian machine needs only `make sim` and `make test`.

SHELL := /bin/bash
.DEFAULT_GOAL := help

BUILD    ?= build
SEED     ?= 1
CYCLES   ?= 200000
JOBS     ?= $(shell nproc 2>/dev/null || echo 2)
# what a user target builds first, JOBS at a time (unless make was given its own -j)
SUBMAKE   = $(MAKE) --no-print-directory $(if $(findstring -j,$(MAKEFLAGS)),,-j$(JOBS))

CC       ?= cc
CFLAGS_COMMON := -std=c11 -Wall -Wextra -Werror -Isw/include -Icmodel -Isw/elf -Isw/cfg -Isw/profmap
SAN      := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

VERILATOR ?= verilator
# Verilator's runtime (verilated.cpp, its FST writer, its threads) is the same C++ in every one of the
# thirty-odd benches: through ccache (make deps installs it; its cache in the build directory) it is
# compiled once a build, not once a bench
ifneq ($(shell command -v ccache 2>/dev/null),)
export OBJCACHE := ccache
export CCACHE_DIR ?= $(abspath $(BUILD))/ccache
endif
RTL_PKG  := rtl/hwprof_pkg.sv rtl/hwprof_cop_pkg.sv
RTL_REG  := rtl/reg/hwprof_cfg_check.sv rtl/reg/hwprof_top_reg.sv rtl/reg/hwprof_pir_reg.sv rtl/reg/hwprof_edge_prof_reg.sv \
            rtl/reg/hwprof_trace_ctrl_reg.sv rtl/reg/hwprof_vpf_reg.sv rtl/reg/hwprof_cop_reg.sv
# the value profiler's blocks, also linted and benched on their own
RTL_COP  := $(RTL_PKG) rtl/prim/hwprof_prim_counters.sv rtl/reg/hwprof_cop_reg.sv rtl/hwprof_cop.sv
RTL_VPF  := $(RTL_PKG) rtl/prim/hwprof_prim_counters.sv rtl/reg/hwprof_vpf_reg.sv rtl/hwprof_sbuf.sv rtl/hwprof_vpf.sv
RTL_PRIM := rtl/prim/hwprof_prim_fifo.sv rtl/prim/hwprof_prim_counters.sv rtl/prim/hwprof_prim_cam.sv \
            rtl/prim/hwprof_prim_regfile.sv
RTL_SRC  := $(RTL_PKG) $(RTL_PRIM) $(RTL_REG) rtl/hwprof_path.sv rtl/hwprof_pir.sv rtl/hwprof_edge_prof.sv rtl/hwprof_trace_ctrl.sv \
            rtl/hwprof_sbuf.sv rtl/hwprof_vpf.sv rtl/hwprof_cop.sv rtl/hwprof_top.sv
VLT      := rtl/hwprof.vlt
MODEL_SRC := cmodel/reg/top_reg.c cmodel/reg/pir_reg.c cmodel/reg/edge_prof_reg.c cmodel/reg/trace_ctrl_reg.c cmodel/reg/cop_reg.c cmodel/reg/vpf_reg.c \
             cmodel/prim/fifo.c cmodel/prim/counters.c cmodel/prim/cam.c cmodel/prim/regfile.c cmodel/path.c cmodel/pir.c cmodel/edge_prof.c cmodel/trace_ctrl.c cmodel/cop.c cmodel/sbuf.c cmodel/vpf.c cmodel/top.c cmodel/mem_model.c
MODEL_HDR := $(wildcard cmodel/*.h cmodel/reg/*.h cmodel/prim/*.h) sw/include/hwprof_regs.h
SW_SRC   := sw/hwprof_edge.c sw/hwprof_trace.c sw/hwprof_cop.c sw/trace_recon.c sw/image.c
SW_HDR   := $(wildcard sw/include/*.h)
# the host tools' one ELF reader (libelf)
ELF_SRC  := sw/elf/hwprof_elf.c
ELF_HDR  := sw/elf/hwprof_elf.h
# The host software's layers (docs/architecture.md): the CFG layer (its core also builds for the
# RV32 target), the rewriting layer, the map library shared by the instrumenter and the platforms.
CFG_SRC  := sw/cfg/hwprof_cfg.c sw/cfg/hwprof_cfg_prog.c
# path profiling (docs/path-prof.md): Ball-Larus numbering
PATH_SRC := sw/path/bl.c sw/path/regions.c sw/path/func_paths.c sw/path/pp_plan.c
# host only (files, the ELF and map layers): reading a path profile back, comparing it with the oracle
PATH_HOST_SRC := sw/path/pp_readback.c sw/path/pp_compare.c
RW_SRC   := sw/rewrite/hwprof_rewrite.c
PROFMAP_SRC := sw/profmap/profmap.c sw/cfg/hwprof_cfg.c
PROFMAP_HDR := sw/profmap/profmap.h sw/cfg/hwprof_cfg.h
# The co-processor's tools (docs/coproc.md): the format's name tables (generated from
# regs/cop_uinsn.json), image files, the assembler/disassembler, the instruction-level interpreter.
COP_SRC  := sw/cop/cop_isa_tables.c sw/cop/cop_image.c sw/cop/cop_asm.c sw/cop/cop_interp.c
COP_HDR  := sw/cop/cop_image.h sw/cop/cop_asm.h sw/cop/cop_interp.h
VP_SRC   := sw/vp/vp_estimate.c sw/vp/vp_fw.c
# whole-program path analysis (docs/wpp.md): the file formats (also in the simulator), the analysis
WPP_FILE_SRC := sw/wpp/trace_file.c
WPP_SRC  := $(WPP_FILE_SRC) sw/wpp/block_stream.c sw/wpp/chain_table.c sw/wpp/cycles.c sw/wpp/wpp_index.c sw/wpp/wpp_tables.c \
            sw/trace_recon.c sw/image.c sw/rv32_disasm.c $(ELF_SRC)
WPP_HDR  := $(wildcard sw/wpp/*.h) $(ELF_HDR) $(SW_HDR)
VP_HDR   := sw/vp/vp_estimate.h sw/vp/vp_fw.h
# the dynamic optimizer (docs/dynopt.md): portable firmware, built for the host tests and for RV32
DYNOPT_SRC := sw/dynopt/phase.c sw/dynopt/meta.c sw/dynopt/dynopt.c
# the code cache and the trace-driven optimizer (firmware of the -tc programs)
CCACHE_SRC := sw/dynopt/codecache.c sw/dynopt/trace_opt.c sw/dynopt/relayout.c
RELAYOUT_SRC := sw/dynopt/codecache.c sw/dynopt/relayout.c
DYNOPT_HDR := sw/dynopt/phase.h sw/dynopt/meta.h sw/dynopt/dynopt.h sw/include/hwprof_meta.h sw/dynopt/codecache.h sw/dynopt/trace_opt.h \
              sw/dynopt/relayout.h
RV32_CC  ?= riscv64-unknown-elf-gcc
RV32_FLAGS := --specs=picolibc.specs -march=rv32im -mabi=ilp32 -std=c11 -Wall -Wextra -Werror -O2 -Isw/include

# Debian packages the project needs (make deps installs the missing ones).
DEB_PKGS := make g++ ccache python3 verilator yosys nextpnr-ice40 fpga-icestorm libcmocka-dev libsystemc-dev libelf-dev pkg-config \
            gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf qemu-system-misc python3-matplotlib

.PHONY: campaign mutate mutate-deep FORCE gls dynopt help deps lint regs regs-check test sim sim-blocks synth cov bench clean inject bench-bin unit qemu-check workloads plots

help:
	@echo "hwprof make targets"
	@echo "  make sim        install missing dependencies, then run a workload on the whole system in SystemC"
	@echo "                  and print the report: WORKLOAD=$(WORKLOADS) (or ELF=path),"
	@echo "                  ENGINE=lockstep (default; RTL and C model compared every cycle), rtl or model"
	@echo "  make sim-blocks the RTL and C model of hwprof_top in lockstep on a random stream (SEED=, CYCLES=)"
	@echo "  make test       install missing dependencies, then every check CI runs (regs, lint, unit"
	@echo "                  tests under ASan/UBSan, directed and random lockstep benches, fault injection)"
	@echo "  make deps       install the Debian packages the project needs (as root), or print the command;"
	@echo "                  FuseSoC from PyPI into $(BUILD)/venv"
	@echo "  make lint       verilator --lint-only -Wall on the RTL"
	@echo "  make regs       regenerate from regs/*.json: rtl/hwprof_pkg.sv, the register blocks rtl/reg/ and"
	@echo "                  cmodel/reg/, sw/include/hwprof_regs.h, docs/registers.md"
	@echo "  make synth      Yosys cell/transistor estimates and iCE40 LUTs/fmax per block"
	@echo "  make mutate     mutants of every RTL module (Yosys mutate) against a fast lockstep subset;"
	@echo "                  MUTANTS_PER_MODULE (40) per module, resumable, survivors through a SAT"
	@echo "                  proof of equivalence (docs/verification.md);"
	@echo "                  make mutate-deep: then its survivors through the long suite"
	@echo "  make campaign   10^9 lockstep cycles over every bench, configuration and program (resumable;"
	@echo "                  CAMPAIGN_CYCLES, CAMPAIGN_SEED, JOBS)"
	@echo "  make gls        hwprof_top's Yosys gate netlist in lockstep with the C model (bench and SystemC)"
	@echo "  make cov        RTL line and toggle coverage of the benches, gcov of the C model"
	@echo "  make bench      in one run: simulation speed (RTL, C model, lockstep, whole system), stall cycles,"
	@echo "                  profiling overhead per workload (collaborative vs gcc -fprofile-arcs), value"
	@echo "                  profiling, the dynamic optimizer's phase detection against a ground truth"
	@echo "  make plots      value-profiling figures and phase timelines (build/plots/)"
	@echo "  make dynopt     the workloads with the dynamic optimizer's firmware (build/dyn/*-prof.elf)"
	@echo "  make inject     run the bench with a deliberate C-model fault; shows the mismatch report"
	@echo "  make qemu-check the CPU model's retired-PC stream against QEMU's, on every workload"
	@echo "  make fuzz       libFuzzer (clang, installed by it) on every input parser, FUZZ_SECONDS per target;"
	@echo "                  crashes go to $(BUILD)/fuzz/crashes/TARGET/ (docs/verification.md)"
	@echo "  make workloads  build the RV32 workloads (build/workloads/*.elf), instrumented (build/instr/*-prof.elf)"
	@echo "                  and with -fprofile-arcs (build/gcov/*.elf); run one with"
	@echo "                  build/sim/hwprof-sim build/workloads/sort.elf"
	@echo "  make clean      remove $(BUILD)/"

# ---------------------------------------------------------------- dependencies
deps:
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "deps: all Debian packages present"; exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then \
	  echo "deps: installing:$$missing"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get update -qq && apt-get install -y -qq --no-install-recommends $$missing >/dev/null || \
	    { echo "deps: apt-get install failed"; exit 1; }; \
	  echo "deps: installed:$$missing"; \
	else \
	  echo "deps: missing Debian packages:$$missing"; \
	  echo "deps: run as root:  apt-get install -y$$missing"; exit 1; \
	fi
	@$(MAKE) --no-print-directory -s $(FUSESOC)

# FuseSoC (PyPI) in a virtual environment of the build folder: make test runs its parser and lint
# target on hwprof.core. Without PyPI the core file is still checked (tools/core_check.py).
FUSESOC := $(BUILD)/venv/bin/fusesoc
$(FUSESOC):
	@python3 -m venv $(BUILD)/venv && $(BUILD)/venv/bin/pip install -q --disable-pip-version-check fusesoc \
	  && echo "deps: installed FuseSoC in $(BUILD)/venv" \
	  || echo "deps: note: FuseSoC could not be installed from PyPI; hwprof.core is checked without it"

# ---------------------------------------------------------------- generated register map
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

# ---------------------------------------------------------------- host objects
# Every host C source is compiled once per flavour and linked into whatever needs it: optimized in
# $(BUILD)/obj/ (the tools, the platforms, the benches' libraries), with ASan+UBSan in $(BUILD)/asan/
# (the unit tests and the sanitized tools make test drives). The compiler writes each object's
# header dependencies beside it (-MMD). One include path for all: no two headers share a name.
HOST_INC := -Itb -Itests -Isim -Isw/instr -Isw/rewrite -Isw/cop -Isw/vp -Isw/dynopt -Isw/wpp -Isw/path
obj  = $(sort $(patsubst %.c,$(BUILD)/obj/%.o,$(1)))
asan = $(sort $(patsubst %.c,$(BUILD)/asan/%.o,$(1)))
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(HOST_INC) -O2 -MMD -MP -c $< -o $@
$(BUILD)/asan/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(HOST_INC) -g -O1 $(SAN) -MMD -MP -c $< -o $@
-include $(wildcard $(BUILD)/obj/*/*.d $(BUILD)/obj/*/*/*.d $(BUILD)/asan/*/*.d $(BUILD)/asan/*/*/*.d)

# ---------------------------------------------------------------- C model library (for the benches)
$(BUILD)/model/libhwprof_model.a: $(call obj,$(MODEL_SRC))
	@mkdir -p $(dir $@)
	ar rcs $@ $^

# ---------------------------------------------------------------- lockstep bench of hwprof_top
TB_TOP := $(BUILD)/tb_top/Vhwprof_top
VFLAGS := -Wall --assert --trace-fst -O3 --x-assign fast --x-initial fast

# C helpers of the benches (built with the C compiler; Verilator would compile .c files as C++)
$(BUILD)/tbc/%.o: tb/%.c tb/%.h $(MODEL_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -Itb -O2 -c $< -o $@

$(BUILD)/tbc/libhwprof_tbc.a: $(BUILD)/tbc/progen.o
	ar rcs $@ $^

TB_SRC := tb/tb_top.cpp tb/lockstep.cpp tb/top_steps.cpp tb/steps_pir.cpp tb/steps_edge_prof.cpp tb/steps_trace_ctrl.cpp \
          tb/steps_cop.cpp
TB_DEPS := $(RTL_SRC) $(VLT) $(TB_SRC) tb/lockstep.h tb/top_compare.h tb/progen.h tb/bench_cfg.h \
           tb/top_steps.h tb/wide_port.h tb/pir_shadow.h tb/verilated_top.h tb/apb_master.h tb/top_ports.h $(BUILD)/model/libhwprof_model.a \
           $(BUILD)/tbc/libhwprof_tbc.a

# Bench configurations: the RTL parameters are fixed when Verilator builds a bench, and the same
# values reach the C model through HWPROF_CFG_*.
# NAME:CntW:UpdDepth:Sets:Ways:LineWords:OabDepth:HistW:TraceFifoDepth; "top" is hwprof_top's default
# configuration, read from regs/encodings.json (the parameters' one source)
DEFAULT_CFG := $(shell python3 -c 'import json; print(":".join(str(c["default"]) for c in \
                 json.load(open("regs/encodings.json"))["config"]))')
TB_CONFIGS := top:$(DEFAULT_CFG) small:32:2:2:1:2:4:8:2 large:32:8:16:4:4:16:16:32 xinit:$(DEFAULT_CFG) \
              c8:8:4:4:2:4:8:32:8 c16:16:2:8:8:8:4:16:4 c64:64:4:4:4:8:8:32:8
# xinit: the default configuration with every variable's initial value drawn at run time (zeros, or
# random with HWPROF_RAND_RESET=SEED, tb/verilated_top.h): a register the reset misses shows
VFLAGS_xinit := -Wall --assert --trace-fst -O3 --x-assign unique --x-initial unique
tb_field = $(word $(2),$(subst :, ,$(1)))

# the RTL's parameters of a configuration, as Verilator's -G options
tb_gflags = -GCntW=$(call tb_field,$(1),2) -GUpdDepth=$(call tb_field,$(1),3) -GSets=$(call tb_field,$(1),4) \
  -GWays=$(call tb_field,$(1),5) -GLineWords=$(call tb_field,$(1),6) -GOabDepth=$(call tb_field,$(1),7) \
  -GHistW=$(call tb_field,$(1),8) -GTraceFifoDepth=$(call tb_field,$(1),9)
# TB_RULE: $(1) NAME:CntW:..., $(2) the bench's directory, $(3) the hardware's sources (RTL or a
# netlist), $(4) Verilator's flags (with the RTL's -G parameters), $(5) further prerequisites
define TB_RULE
$(2)/Vhwprof_top: $(TB_DEPS) $(5)
	@mkdir -p $$(dir $$@)
	@rm -f $$@  # relink: Verilator's own make does not see the libraries change
	$(VERILATOR) --cc --exe --build -j $(JOBS) $(4) --Mdir $$(dir $$@)obj \
	  --top-module hwprof_top \
	  -CFLAGS "-O2 -I$(CURDIR)/tb -I$(CURDIR)/cmodel -I$(CURDIR)/sw/include \
	    -DHWPROF_CFG_CNTW=$(call tb_field,$(1),2) -DHWPROF_CFG_UPDDEPTH=$(call tb_field,$(1),3) \
	    -DHWPROF_CFG_SETS=$(call tb_field,$(1),4) -DHWPROF_CFG_WAYS=$(call tb_field,$(1),5) \
	    -DHWPROF_CFG_LINEWORDS=$(call tb_field,$(1),6) -DHWPROF_CFG_OABDEPTH=$(call tb_field,$(1),7) \
	    -DHWPROF_CFG_HISTW=$(call tb_field,$(1),8) -DHWPROF_CFG_TFIFO=$(call tb_field,$(1),9)" \
	  -LDFLAGS "$(CURDIR)/$(BUILD)/tbc/libhwprof_tbc.a $(CURDIR)/$(BUILD)/model/libhwprof_model.a" \
	  -o $(CURDIR)/$$@ $(3) $(addprefix $(CURDIR)/,$(TB_SRC)) >$$(dir $$@)build.log 2>&1 \
	  || { cat $$(dir $$@)build.log; exit 1; }
endef
$(foreach c,$(TB_CONFIGS),$(eval $(call TB_RULE,$(c),$(BUILD)/tb_$(call tb_field,$(c),1),$(VLT) $(RTL_SRC),\
  $(or $(VFLAGS_$(call tb_field,$(c),1)),$(VFLAGS)) $(call tb_gflags,$(c)))))
TB_BINS := $(foreach c,$(TB_CONFIGS),$(BUILD)/tb_$(call tb_field,$(c),1)/Vhwprof_top)

# Lockstep unit benches of the primitives (rtl/prim/ against cmodel/prim/), one per configuration.
# PRIM_RULE: $(1) bench name, $(2) module, $(3) Verilator -G options, $(4) -D options for the bench
define PRIM_RULE
$(BUILD)/tb_$(1)/V$(2): rtl/prim/$(2).sv $(VLT) tb/tb_$(2:hwprof_%=%).cpp tb/lockstep.cpp tb/lockstep.h \
    tb/verilated_top.h $(BUILD)/model/libhwprof_model.a
	@mkdir -p $$(dir $$@)
	@rm -f $$@  # relink: Verilator's own make does not see the libraries change
	$(VERILATOR) --cc --exe --build -j $(JOBS) $(VFLAGS) --Mdir $$(dir $$@)obj --top-module $(2) $(3) \
	  -CFLAGS "-O2 -I$(CURDIR)/tb -I$(CURDIR)/cmodel -I$(CURDIR)/sw/include $(4)" \
	  -LDFLAGS "$(CURDIR)/$(BUILD)/model/libhwprof_model.a" \
	  -o $(CURDIR)/$$@ $(VLT) rtl/prim/$(2).sv $(CURDIR)/tb/tb_$(2:hwprof_%=%).cpp $(CURDIR)/tb/lockstep.cpp \
	  >$$(dir $$@)build.log 2>&1 || { cat $$(dir $$@)build.log; exit 1; }
endef
# the FIFO / ring buffer, NAME:Width:Depth:Overwrite:IdxRead
PRIM_FIFO_CONFIGS := prim_fifo:40:5:0:1 prim_fifo_d1:8:1:0:0 prim_ring:41:4:1:1 prim_ring_d1:9:1:1:1
$(foreach c,$(PRIM_FIFO_CONFIGS),$(eval $(call PRIM_RULE,$(call tb_field,$(c),1),hwprof_prim_fifo,\
  -GWidth=$(call tb_field,$(c),2) -GDepth=$(call tb_field,$(c),3) -GOverwrite="1'b$(call tb_field,$(c),4)" \
  -GIdxRead="1'b$(call tb_field,$(c),5)",\
  -DPRIM_FIFO_WIDTH=$(call tb_field,$(c),2) -DPRIM_FIFO_DEPTH=$(call tb_field,$(c),3) \
  -DPRIM_FIFO_OVERWRITE=$(call tb_field,$(c),4) -DPRIM_FIFO_IDX_READ=$(call tb_field,$(c),5))))
# the statistics counter bank, NAME:N:W
PRIM_COUNTERS_CONFIGS := prim_counters:6:32 prim_counters_w3:3:3
$(foreach c,$(PRIM_COUNTERS_CONFIGS),$(eval $(call PRIM_RULE,$(call tb_field,$(c),1),hwprof_prim_counters,\
  -GN=$(call tb_field,$(c),2) -GW=$(call tb_field,$(c),3),\
  -DPRIM_COUNTERS_N=$(call tb_field,$(c),2) -DPRIM_COUNTERS_W=$(call tb_field,$(c),3))))
# the CAM, NAME:N:KeyW (the co-processor's PC slots)
PRIM_CAM_CONFIGS := prim_cam:8:20 prim_cam_n1:1:3
$(foreach c,$(PRIM_CAM_CONFIGS),$(eval $(call PRIM_RULE,$(call tb_field,$(c),1),hwprof_prim_cam,\
  -GN=$(call tb_field,$(c),2) -GKeyW=$(call tb_field,$(c),3),\
  -DPRIM_CAM_N=$(call tb_field,$(c),2) -DPRIM_CAM_KEYW=$(call tb_field,$(c),3))))
# the register file, NAME:N:W (the co-processor's registers and small arrays)
PRIM_REGFILE_CONFIGS := prim_regfile:16:32 prim_regfile_n1:1:7
$(foreach c,$(PRIM_REGFILE_CONFIGS),$(eval $(call PRIM_RULE,$(call tb_field,$(c),1),hwprof_prim_regfile,\
  -GN=$(call tb_field,$(c),2) -GW=$(call tb_field,$(c),3),\
  -DPRIM_REGFILE_N=$(call tb_field,$(c),2) -DPRIM_REGFILE_W=$(call tb_field,$(c),3))))
# The co-processor engine's lockstep bench (tb/tb_cop.cpp: the RTL against the C model every cycle,
# and the architectural state against the instruction-level interpreter), NAME:UcDepth:CamEntries:DataBytes
COP_CONFIGS := cop:64:256:2048 cop_small:8:4:32
# COP_RULE: $(1) NAME:UcDepth:CamEntries:DataBytes, $(2) the bench's directory, $(3) the hardware's
# sources, $(4) Verilator's flags (with the RTL's -G parameters), $(5) further prerequisites
cop_gflags = -GUcDepth=$(call tb_field,$(1),2) -GCamEntries=$(call tb_field,$(1),3) -GDataBytes=$(call tb_field,$(1),4)
define COP_RULE
$(2)/Vhwprof_cop: $(RTL_COP) $(VLT) tb/tb_cop.cpp tb/lockstep.cpp tb/lockstep.h tb/verilated_top.h \
    $(BUILD)/model/libhwprof_model.a $(BUILD)/cop/libhwprof_cop.a $(5)
	@mkdir -p $$(dir $$@)
	@rm -f $$@  # relink: Verilator's own make does not see the libraries change
	$(VERILATOR) --cc --exe --build -j $(JOBS) $(4) --Mdir $$(dir $$@)obj --top-module hwprof_cop \
	  -CFLAGS "-O2 -I$(CURDIR)/tb -I$(CURDIR)/cmodel -I$(CURDIR)/sw/include -I$(CURDIR)/sw/cop \
	    -DCOP_UC=$(call tb_field,$(1),2) -DCOP_CAM=$(call tb_field,$(1),3) -DCOP_DATA=$(call tb_field,$(1),4)" \
	  -LDFLAGS "$(CURDIR)/$(BUILD)/model/libhwprof_model.a $(CURDIR)/$(BUILD)/cop/libhwprof_cop.a" \
	  -o $(CURDIR)/$$@ $(3) $(CURDIR)/tb/tb_cop.cpp $(CURDIR)/tb/lockstep.cpp \
	  >$$(dir $$@)build.log 2>&1 || { cat $$(dir $$@)build.log; exit 1; }
endef
$(foreach c,$(COP_CONFIGS),$(eval $(call COP_RULE,$(c),$(BUILD)/tb_$(call tb_field,$(c),1),$(VLT) $(RTL_COP),\
  $(VFLAGS) $(call cop_gflags,$(c)))))
COP_BINS := $(foreach c,$(COP_CONFIGS),$(BUILD)/tb_$(call tb_field,$(c),1)/Vhwprof_cop)

# The value-profiling front end's lockstep bench (tb/tb_vpf.cpp: filters, prescaler and sample buffer,
# the RTL against the C model every cycle and against the bench's record-level reference),
# NAME:SbufWords:BitmaskBits
VPF_CONFIGS := vpf:256:4096 vpf_small:8:32
# VPF_RULE: $(1) NAME:SbufWords:BitmaskBits, $(2) the bench's directory, $(3) the hardware's sources,
# $(4) Verilator's flags (with the RTL's -G parameters), $(5) further prerequisites
vpf_gflags = -GSbufWords=$(call tb_field,$(1),2) -GBitmaskBits=$(call tb_field,$(1),3)
define VPF_RULE
$(2)/Vhwprof_vpf: $(RTL_VPF) $(VLT) tb/tb_vpf.cpp tb/lockstep.cpp tb/lockstep.h tb/verilated_top.h \
    $(BUILD)/model/libhwprof_model.a $(5)
	@mkdir -p $$(dir $$@)
	@rm -f $$@  # relink: Verilator's own make does not see the libraries change
	$(VERILATOR) --cc --exe --build -j $(JOBS) $(4) --Mdir $$(dir $$@)obj --top-module hwprof_vpf \
	  -CFLAGS "-O2 -I$(CURDIR)/tb -I$(CURDIR)/cmodel -I$(CURDIR)/sw/include \
	    -DVPF_WORDS=$(call tb_field,$(1),2) -DVPF_BITS=$(call tb_field,$(1),3)" \
	  -LDFLAGS "$(CURDIR)/$(BUILD)/model/libhwprof_model.a" \
	  -o $(CURDIR)/$$@ $(3) $(CURDIR)/tb/tb_vpf.cpp $(CURDIR)/tb/lockstep.cpp \
	  >$$(dir $$@)build.log 2>&1 || { cat $$(dir $$@)build.log; exit 1; }
endef
$(foreach c,$(VPF_CONFIGS),$(eval $(call VPF_RULE,$(c),$(BUILD)/tb_$(call tb_field,$(c),1),$(VLT) $(RTL_VPF),\
  $(VFLAGS) $(call vpf_gflags,$(c)))))
VPF_BINS := $(foreach c,$(VPF_CONFIGS),$(BUILD)/tb_$(call tb_field,$(c),1)/Vhwprof_vpf)

PRIM_BINS := $(foreach c,$(PRIM_FIFO_CONFIGS),$(BUILD)/tb_$(call tb_field,$(c),1)/Vhwprof_prim_fifo) \
             $(foreach c,$(PRIM_COUNTERS_CONFIGS),$(BUILD)/tb_$(call tb_field,$(c),1)/Vhwprof_prim_counters) \
             $(foreach c,$(PRIM_CAM_CONFIGS),$(BUILD)/tb_$(call tb_field,$(c),1)/Vhwprof_prim_cam) \
             $(foreach c,$(PRIM_REGFILE_CONFIGS),$(BUILD)/tb_$(call tb_field,$(c),1)/Vhwprof_prim_regfile)

# The register generator's conformance bench: the conformance block (tools/reggen/conformance/conf.json,
# every access kind and option) generated into $(BUILD)/regconf with the same emitters as the engines'
# blocks, its RTL against its C twin in lockstep (tb/tb_reg_conformance.cpp).
REGCONF := $(BUILD)/regconf
$(REGCONF)/stamp: tools/regtool.py $(wildcard tools/reggen/*.py) tools/reggen/conformance/conf.json regs/encodings.json
	@mkdir -p $(dir $@)
	python3 tools/regtool.py --conformance $(REGCONF) && touch $@
$(REGCONF)/conf_reg.o: $(REGCONF)/stamp cmodel/ports.h
	$(CC) $(CFLAGS_COMMON:-Isw/include=-I$(REGCONF)/sw/include -Isw/include) -I$(REGCONF)/cmodel/reg -O2 \
	  -c $(REGCONF)/cmodel/reg/conf_reg.c -o $@
$(BUILD)/tb_reg_conformance/Vhwprof_conf_reg: $(REGCONF)/conf_reg.o tb/tb_reg_conformance.cpp tb/lockstep.cpp \
    tb/lockstep.h tb/verilated_top.h $(VLT)
	@mkdir -p $(dir $@)
	@rm -f $@  # relink: Verilator's own make does not see the libraries change
	$(VERILATOR) --cc --exe --build -j $(JOBS) $(VFLAGS) --Mdir $(dir $@)obj --top-module hwprof_conf_reg \
	  -CFLAGS "-O2 -I$(CURDIR)/$(REGCONF)/tb -I$(CURDIR)/$(REGCONF)/cmodel/reg -I$(CURDIR)/$(REGCONF)/sw/include \
	    -I$(CURDIR)/tb -I$(CURDIR)/cmodel -I$(CURDIR)/sw/include" \
	  -LDFLAGS "$(CURDIR)/$(REGCONF)/conf_reg.o" \
	  -o $(CURDIR)/$@ $(VLT) $(REGCONF)/rtl/hwprof_pkg.sv $(REGCONF)/rtl/reg/hwprof_conf_reg.sv \
	  $(CURDIR)/tb/tb_reg_conformance.cpp $(CURDIR)/tb/lockstep.cpp >$(dir $@)build.log 2>&1 \
	  || { cat $(dir $@)build.log; exit 1; }
REGCONF_BIN := $(BUILD)/tb_reg_conformance/Vhwprof_conf_reg

bench-bin: $(TB_BINS) $(PRIM_BINS) $(REGCONF_BIN) $(COP_BINS) $(VPF_BINS)

# ---------------------------------------------------------------- unit tests (cmocka, ASan+UBSan)
UNIT_TESTS := test_pir test_top test_edge_prof test_edge_driver test_trace_roundtrip test_rv32 test_profmap test_cfg \
              test_cop_asm test_cop_interp test_cop_driver test_vp_estimate test_vp_fw test_phase test_phase_truth test_meta \
              test_codecache test_relayout test_wpp test_path test_path_plan test_prof_coverage
UNIT_SRC := $(MODEL_SRC) $(SW_SRC) $(ELF_SRC) tb/progen.c tb/trace_oracle.c tests/model_sys.c sim/rv32.c sim/phase_truth.c sim/prof_coverage.c \
            $(PROFMAP_SRC) $(COP_SRC) $(VP_SRC) $(DYNOPT_SRC) $(CCACHE_SRC) $(filter sw/wpp/%,$(WPP_SRC)) $(PATH_SRC)
$(BUILD)/unit/%: $(BUILD)/asan/tests/%.o $(call asan,$(UNIT_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(SAN) $^ -o $@ $$(pkg-config --libs cmocka) -lelf

# the same as a library for the benches (Verilator builds C++; these are C)
$(BUILD)/cop/libhwprof_cop.a: $(call obj,$(COP_SRC))
	@mkdir -p $(dir $@)
	ar rcs $@ $^

# hwprof-cpasm: the co-processor's assembler, disassembler and interpreter front end (and an
# ASan/UBSan build that make test drives as a user would)
CPASM_BIN := $(BUILD)/cop/hwprof-cpasm
$(CPASM_BIN): $(call obj,$(COP_SRC) sw/cop/hwprof_cpasm.c)
	@mkdir -p $(dir $@)
	$(CC) $^ -o $@
$(BUILD)/unit/hwprof-cpasm-asan: $(call asan,$(COP_SRC) sw/cop/hwprof_cpasm.c)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) $^ -o $@

# hwprof-vpeval: a load-value profile against the run's exact one (docs/valueprof.md); ASan/UBSan build
# for make test
VPEVAL_BIN := $(BUILD)/vp/hwprof-vpeval
$(VPEVAL_BIN): $(call obj,sw/vp/vp_estimate.c sw/vp/hwprof_vpeval.c)
	@mkdir -p $(dir $@)
	$(CC) $^ -o $@ -lm
$(BUILD)/unit/hwprof-vpeval-asan: $(call asan,sw/vp/vp_estimate.c sw/vp/hwprof_vpeval.c)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) $^ -o $@ -lm

# the firmware sources must also build for the RV32 target
$(BUILD)/rv32/%.o: sw/%.c $(SW_HDR)
	@mkdir -p $(dir $@)
	$(RV32_CC) $(RV32_FLAGS) -c $< -o $@

unit: $(addprefix $(BUILD)/unit/,$(UNIT_TESTS)) $(patsubst sw/%.c,$(BUILD)/rv32/%.o,$(SW_SRC) $(VP_SRC) $(DYNOPT_SRC) $(CCACHE_SRC))

# ---------------------------------------------------------------- CPU model and workloads
INSTR_SRC := $(ELF_SRC) $(CFG_SRC) $(RW_SRC) sw/profmap/profmap.c sw/instr/instrument.c sw/instr/path_instr.c sw/instr/linkage.c \
             $(PATH_SRC) $(PATH_HOST_SRC)
SIM_SRC  := sim/rv32.c sim/platform.c sim/trace_check.c sim/trace_drain.c sim/block_truth.c $(WPP_FILE_SRC) sw/hwprof_trace.c sim/edge_check.c sim/prof_coverage.c sim/cop_check.c sim/value_truth.c sim/phase_truth.c sim/path_truth.c sw/cfg/hwprof_cfg_prog.c $(PROFMAP_SRC) sw/hwprof_edge.c sim/hwprof_sim.c tb/trace_oracle.c sw/trace_recon.c sw/image.c $(ELF_SRC) $(MODEL_SRC) \
            $(PATH_SRC) $(PATH_HOST_SRC)
SIM_BIN  := $(BUILD)/sim/hwprof-sim
$(SIM_BIN): $(call obj,$(SIM_SRC))
	@mkdir -p $(dir $@)
	$(CC) $^ -o $@ -lelf

# The SystemC platform (sim/sc/): the CPU model, APB, the profile memory and hwprof_top as the
# Verilated RTL (verilator --sc), the C model, or both in lockstep, chosen at run time. Built for the
# default configuration of hwprof_top (the "top" bench configuration).
SC_CFG     := $(word 1,$(TB_CONFIGS))
SC_CFLAGS  := -DHWPROF_CFG_CNTW=$(call tb_field,$(SC_CFG),2) -DHWPROF_CFG_UPDDEPTH=$(call tb_field,$(SC_CFG),3) \
              -DHWPROF_CFG_SETS=$(call tb_field,$(SC_CFG),4) -DHWPROF_CFG_WAYS=$(call tb_field,$(SC_CFG),5) \
              -DHWPROF_CFG_LINEWORDS=$(call tb_field,$(SC_CFG),6) -DHWPROF_CFG_OABDEPTH=$(call tb_field,$(SC_CFG),7) \
              -DHWPROF_CFG_HISTW=$(call tb_field,$(SC_CFG),8) -DHWPROF_CFG_TFIFO=$(call tb_field,$(SC_CFG),9)
SC_SRC     := $(wildcard sim/sc/*.cpp) tb/lockstep.cpp
SC_HDR     := $(wildcard sim/sc/*.h) tb/lockstep.h tb/top_compare.h tb/top_ports.h tb/port_protocol.h
SIMC_SRC   := sim/rv32.c sim/trace_check.c sim/trace_drain.c $(WPP_FILE_SRC) sw/hwprof_trace.c sim/edge_check.c sim/prof_coverage.c $(PROFMAP_SRC) sw/hwprof_edge.c tb/trace_oracle.c sw/trace_recon.c sw/image.c \
              $(ELF_SRC) sw/cfg/hwprof_cfg_prog.c $(PATH_SRC) $(PATH_HOST_SRC)
SC_BIN     := $(BUILD)/sc/hwprof-sc
$(BUILD)/simc/libhwprof_simc.a: $(call obj,$(SIMC_SRC))
	@mkdir -p $(dir $@)
	ar rcs $@ $^
# SC_RULE: $(1) the binary, $(2) the hardware's sources (RTL or a netlist), $(3) Verilator's flags
# (with the RTL's -G parameters), $(4) further prerequisites, $(5) the C side's configuration flags
# (default SC_CFLAGS)
define SC_RULE
$(1): $(SC_SRC) $(SC_HDR) tb/apb_master.h sim/platform.h sim/rv32.h sim/trace_check.h sim/trace_drain.h sim/edge_check.h sim/prof_coverage.h \
           $(BUILD)/model/libhwprof_model.a $(BUILD)/simc/libhwprof_simc.a $(4)
	@mkdir -p $$(dir $$@)
	@rm -f $$@  # relink: Verilator's own make does not see the libraries change
	$(VERILATOR) --sc --exe --build -j $(JOBS) $(3) -MAKEFLAGS "OPT_FAST=-O2 OPT_GLOBAL=-O2" --Mdir $$(dir $$@)obj --top-module hwprof_top \
	  -CFLAGS "-O2 -I$(CURDIR)/sim/sc -I$(CURDIR)/sim -I$(CURDIR)/sw/profmap -I$(CURDIR)/sw/cfg -I$(CURDIR)/tb -I$(CURDIR)/cmodel -I$(CURDIR)/sw/include -I$(CURDIR)/sw/elf -I$(CURDIR)/sw/wpp -I$(CURDIR)/sw/path $(if $(5),$(5),$(SC_CFLAGS))" \
	  -LDFLAGS "$(CURDIR)/$(BUILD)/simc/libhwprof_simc.a $(CURDIR)/$(BUILD)/model/libhwprof_model.a -lsystemc -lelf" \
	  -o $(CURDIR)/$$@ $(2) $(addprefix $(CURDIR)/,$(SC_SRC)) >$$(dir $$@)build.log 2>&1 \
	  || { cat $$(dir $$@)build.log; exit 1; }
endef
$(eval $(call SC_RULE,$(SC_BIN),$(VLT) $(RTL_SRC),$(VFLAGS) $(call tb_gflags,$(SC_CFG)),$(RTL_SRC) $(VLT)))
# ... and in the swept configurations of counter width, ways and line size:
# build/sc_NAME/hwprof-sc, the RTL and the C model both in configuration NAME (make campaign and
# make test run programs on them)
SC_CONFIGS := c8 c16 c64
sc_cfg_of = $(filter $(1):%,$(TB_CONFIGS))
sc_cflags = -DHWPROF_CFG_CNTW=$(call tb_field,$(1),2) -DHWPROF_CFG_UPDDEPTH=$(call tb_field,$(1),3) \
            -DHWPROF_CFG_SETS=$(call tb_field,$(1),4) -DHWPROF_CFG_WAYS=$(call tb_field,$(1),5) \
            -DHWPROF_CFG_LINEWORDS=$(call tb_field,$(1),6) -DHWPROF_CFG_OABDEPTH=$(call tb_field,$(1),7) \
            -DHWPROF_CFG_HISTW=$(call tb_field,$(1),8) -DHWPROF_CFG_TFIFO=$(call tb_field,$(1),9)
SC_CONFIG_BINS := $(foreach c,$(SC_CONFIGS),$(BUILD)/sc_$(c)/hwprof-sc)
$(foreach c,$(SC_CONFIGS),$(eval $(call SC_RULE,$(BUILD)/sc_$(c)/hwprof-sc,$(VLT) $(RTL_SRC),$(VFLAGS) $(call tb_gflags,$(call sc_cfg_of,$(c))),$(RTL_SRC) $(VLT),$(call sc_cflags,$(call sc_cfg_of,$(c))))))

# Workloads: real C programs, picolibc with semihosting, linked at the platform's RAM base
# (regs/encodings.json PLAT_RAM_BASE, 0x80000000 as QEMU virt's RAM): 2 MiB of code, then 2 MiB of data
PLAT_RAM_BASE := $(shell sed -n 's/^\#define HWPROF_PLAT_RAM_BASE \(0x[0-9a-f]*\)u.*/\1/p' sw/include/hwprof_regs.h)
WL_DATA_BASE  := $(shell printf '0x%x' $$(( $(PLAT_RAM_BASE) + 0x200000 )))
WORKLOADS := sort hashtab interp lz graph matrix
WL_FLAGS := --specs=picolibc.specs --oslib=semihost --crt0=semihost -march=rv32im -mabi=ilp32 -O2 \
            -Wall -Wextra -Werror -Wl,--defsym=__flash=$(PLAT_RAM_BASE) -Wl,--defsym=__flash_size=0x200000 \
            -Wl,--defsym=__ram=$(WL_DATA_BASE) -Wl,--defsym=__ram_size=0x200000
WL_ELFS  := $(addprefix $(BUILD)/workloads/,$(addsuffix .elf,$(WORKLOADS)))
$(BUILD)/workloads/%.elf: sim/workloads/%.c sim/workloads/common.h
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) $< -o $@

# The same workloads with the firmware runtime (sw/rt/hwprof_rt.c): main becomes workload_main, the
# runtime configures the trace controller and handles its interrupts with the drivers of sw/.
FW_SRC   := sw/hwprof_trace.c sw/hwprof_edge.c
FW_ELFS  := $(addprefix $(BUILD)/workloads/,$(addsuffix -fw.elf,$(WORKLOADS)))
$(BUILD)/workloads/%-fw.elf: sim/workloads/%.c sim/workloads/common.h sw/rt/hwprof_rt.c $(FW_SRC) $(SW_HDR)
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -Isw/include -Dmain=workload_main -c $< -o $(@:.elf=.o)
	$(RV32_CC) $(WL_FLAGS) -march=rv32im_zicsr -Isw/include -c sw/rt/hwprof_rt.c -o $(@:.elf=-rt.o)
	$(RV32_CC) $(WL_FLAGS) -Isw/include $(@:.elf=.o) $(@:.elf=-rt.o) $(FW_SRC) -o $@

# ... and with the trace-driven optimizer (docs/dynopt.md, "Hot traces into the code cache"): the same
# runtime built with HWPROF_TRACE_CACHE places hot traces in a code cache, the first 64 KiB of RAM
# (the symbols hwprof_code_cache and hwprof_code_cache_end), the program linked behind it, and its
# exits' trampolines in the 64 KiB below 1 MiB (hwprof_trampolines, hwprof_trampolines_end): every
# way between the cache and the code is a backward jump, which ends a trace. Every jump must be in
# reach (1 MiB: the firmware refuses to start if the program's image reaches the trampolines).
TC_SRC      := $(FW_SRC) $(CCACHE_SRC) sw/trace_recon.c sw/image.c
TC_HDR      := $(DYNOPT_HDR)
TC_CODE_AT  := $(shell printf '0x%x' $$(( $(PLAT_RAM_BASE) + 0x10000 )))
TC_TRAMP_AT := $(shell printf '0x%x' $$(( $(PLAT_RAM_BASE) + 0xf0000 )))
TC_TRAMP_END := $(shell printf '0x%x' $$(( $(PLAT_RAM_BASE) + 0x100000 )))
tc_flags     = $(subst __flash=$(PLAT_RAM_BASE),__flash=$(TC_CODE_AT),$(subst __flash_size=0x200000,__flash_size=0x1f0000,$(1))) \
               -Wl,--defsym=hwprof_code_cache=$(PLAT_RAM_BASE) -Wl,--defsym=hwprof_code_cache_end=$(TC_CODE_AT) \
               -Wl,--defsym=hwprof_trampolines=$(TC_TRAMP_AT) -Wl,--defsym=hwprof_trampolines_end=$(TC_TRAMP_END)
TC_WL_FLAGS := $(call tc_flags,$(WL_FLAGS))
# build/tcache/: every program with that runtime, -fw without the cache and -tc with it (make test,
# make bench section 9). Both sample with jitter (hwprof_trace_table_jitter): a loop that enters a
# placed trace comes round in a cycle of a few traces (the patch's jump is one), and a fixed 1 in 2 or
# 1 in 3 would only ever see one of them
TC_SAMPLING := -DSAMPLE_JITTER=0x1d872b41u
TC_PROGRAMS := $(WORKLOADS) phases stable
TC_ELFS     := $(foreach p,$(TC_PROGRAMS),$(BUILD)/tcache/$(p)-fw.elf $(BUILD)/tcache/$(p)-tc.elf)
define TC_WORKLOAD_RULE
$(BUILD)/tcache/%-$(1).elf: sim/workloads/%.c sim/workloads/common.h sw/rt/hwprof_rt.c $(TC_SRC) $(TC_HDR) $(SW_HDR)
	@mkdir -p $$(dir $$@)
	$(RV32_CC) $(2) -Isw/include -Dmain=workload_main -c $$< -o $$(@:.elf=.o)
	$(RV32_CC) $(2) -march=rv32im_zicsr -Isw/include -Isw/dynopt $(3) -c sw/rt/hwprof_rt.c -o $$(@:.elf=-rt.o)
	$(RV32_CC) $(2) -Isw/include -Isw/dynopt $$(@:.elf=.o) $$(@:.elf=-rt.o) $(4) -o $$@
endef
$(eval $(call TC_WORKLOAD_RULE,fw,$(WL_FLAGS),$(TC_SAMPLING),$(FW_SRC)))
$(eval $(call TC_WORKLOAD_RULE,tc,$(TC_WL_FLAGS),$(TC_SAMPLING) -DHWPROF_TRACE_CACHE,$(TC_SRC)))

# The same workloads with the value-profiling runtime (sw/rt/cop_rt.c): the co-processor runs
# sw/cop/examples/load_count.s (embedded by hwprof-cpasm --c) on every load, the runtime is its
# interrupt handler (sw/hwprof_cop.c) and checks the accounting at the end. -cop<N>: prescaler N.
COP_FW_PROG := sw/cop/examples/load_count.s
COP_FW_ELFS := $(addprefix $(BUILD)/workloads/,$(addsuffix -cop.elf,$(WORKLOADS)))
$(BUILD)/fw/cop_image.c: $(COP_FW_PROG) $(CPASM_BIN)
	@mkdir -p $(dir $@)
	$(CPASM_BIN) --c cop_image $(COP_FW_PROG) -o $@
define COP_FW_RULE
$(BUILD)/workloads/%-cop$(1).elf: sim/workloads/%.c sim/workloads/common.h sw/rt/cop_rt.c sw/rt/cop_rt_common.h sw/hwprof_cop.c $(BUILD)/fw/cop_image.c $(SW_HDR)
	@mkdir -p $$(dir $$@)
	$(RV32_CC) $(WL_FLAGS) -Isw/include -Dmain=workload_main -c $$< -o $$(@:.elf=.o)
	$(RV32_CC) $(WL_FLAGS) -march=rv32im_zicsr -Isw/include $(if $(1),-DCOP_PRESCALE=$(1)u) -c sw/rt/cop_rt.c -o $$(@:.elf=-rt.o)
	$(RV32_CC) $(WL_FLAGS) -Isw/include $$(@:.elf=.o) $$(@:.elf=-rt.o) sw/hwprof_cop.c $(BUILD)/fw/cop_image.c -o $$@
endef
$(eval $(call COP_FW_RULE,))
$(eval $(call COP_FW_RULE,4))
$(eval $(call COP_FW_RULE,16))

# The same workloads with the load-value profiling runtime (sw/rt/vp_rt.c): the co-processor runs
# sw/cop/valueprof.s (seed 001's Figure 10) on every load; the runtime copies, masks, partitions and
# writes vp-profile.txt (docs/valueprof.md).
# The programs profiled: the workloads and three written for the value profiler (sim/workloads/vp_*.c:
# known values, glacial values, a load working set four times the slots)
VP_PROGRAMS := $(WORKLOADS) vp_known vp_glacial vp_wide
VP_FW_ELFS := $(addprefix $(BUILD)/workloads/,$(addsuffix -vp.elf,$(VP_PROGRAMS)))
$(BUILD)/fw/vp_image.c: sw/cop/valueprof.s $(CPASM_BIN)
	@mkdir -p $(dir $@)
	$(CPASM_BIN) --c vp_image sw/cop/valueprof.s -o $@
$(BUILD)/workloads/%-vp.elf: sim/workloads/%.c sim/workloads/common.h sw/rt/vp_rt.c sw/rt/cop_rt_common.h sw/vp/vp_fw.c sw/vp/vp_fw.h sw/hwprof_cop.c \
                             $(BUILD)/fw/vp_image.c $(SW_HDR)
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -Isw/include -Dmain=workload_main -c $< -o $(@:.elf=.o)
	$(RV32_CC) $(WL_FLAGS) -march=rv32im_zicsr -Isw/include -Isw/vp -c sw/rt/vp_rt.c -o $(@:.elf=-rt.o)
	$(RV32_CC) $(WL_FLAGS) -Isw/include $(@:.elf=.o) $(@:.elf=-rt.o) sw/vp/vp_fw.c sw/hwprof_cop.c $(BUILD)/fw/vp_image.c -o $@

# ... and with the simple-sampling baseline (sw/rt/ss_rt.c, sw/cop/simplesamp.s: one load in 1024)
SS_FW_ELFS := $(addprefix $(BUILD)/workloads/,$(addsuffix -ss.elf,$(VP_PROGRAMS)))
$(BUILD)/fw/ss_image.c: sw/cop/simplesamp.s $(CPASM_BIN)
	@mkdir -p $(dir $@)
	$(CPASM_BIN) --c ss_image sw/cop/simplesamp.s -o $@
$(BUILD)/workloads/%-ss.elf: sim/workloads/%.c sim/workloads/common.h sw/rt/ss_rt.c sw/rt/cop_rt_common.h sw/hwprof_cop.c $(BUILD)/fw/ss_image.c $(SW_HDR)
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -Isw/include -Dmain=workload_main -c $< -o $(@:.elf=.o)
	$(RV32_CC) $(WL_FLAGS) -march=rv32im_zicsr -Isw/include -c sw/rt/ss_rt.c -o $(@:.elf=-rt.o)
	$(RV32_CC) $(WL_FLAGS) -Isw/include $(@:.elf=.o) $(@:.elf=-rt.o) sw/hwprof_cop.c $(BUILD)/fw/ss_image.c -o $@

# Whole-program paths and strata (docs/wpp.md, seed 003): hwprof-wpp on the trace files the platforms
# drain (hwprof-sim --trace-out) and the block files of the retire stream (--blocks-out)
WPP_BIN  := $(BUILD)/wpp/hwprof-wpp
$(WPP_BIN): $(call obj,$(WPP_SRC) sw/wpp/hwprof_wpp.c)
	@mkdir -p $(dir $@)
	$(CC) $^ -o $@ -lelf
$(BUILD)/unit/hwprof-wpp-asan: $(call asan,$(WPP_SRC) sw/wpp/hwprof_wpp.c)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) $^ -o $@ -lelf

# The instrumenter (sw/instr/) and the workloads it instruments: built again with the
# relocations kept (-Wl,--emit-relocs) and without linker relaxation, then instrumented
# (mode minimal, K = INSTR_K: small enough that functions are split into regions).
INSTR_BIN := $(BUILD)/instr/hwprof-instr
INSTR_K   ?= 4
$(INSTR_BIN): $(call obj,$(INSTR_SRC) sw/instr/hwprof_instr.c)
	@mkdir -p $(dir $@)
	$(CC) $^ -o $@ -lelf
# the code cache on random paths of real programs (tests/codecache_random.c), under ASan/UBSan
$(BUILD)/unit/codecache-random: $(call asan,tests/codecache_random.c sim/rv32.c sw/dynopt/codecache.c $(ELF_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(SAN) $^ -o $@ -lelf

# block re-layout at random moments in random orders (tests/relayout_random.c), on the whole platform,
# under ASan/UBSan: the program's output and its exact edge profile through the code cache
RL_RANDOM_SRC := $(filter-out sim/hwprof_sim.c,$(SIM_SRC)) sw/dynopt/codecache.c sw/dynopt/relayout.c sw/dynopt/meta.c
$(BUILD)/unit/relayout-random: $(call asan,tests/relayout_random.c $(RL_RANDOM_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(SAN) $^ -o $@ -lelf

$(BUILD)/unit/hwprof-instr-asan: $(call asan,$(INSTR_SRC) sw/instr/hwprof_instr.c)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) $^ -o $@ -lelf
WL_RELOC := $(addprefix $(BUILD)/instr/,$(addsuffix .elf,$(WORKLOADS)))
WL_PROF  := $(addprefix $(BUILD)/instr/,$(addsuffix -prof.elf,$(WORKLOADS)))
.SECONDARY: $(WL_RELOC)  # the inputs stay: the maps name them, users compare against them
$(BUILD)/instr/%.elf: sim/workloads/%.c sim/workloads/common.h
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -Wl,--emit-relocs -Wl,--no-relax $< -o $@
$(BUILD)/instr/%-prof.elf: $(BUILD)/instr/%.elf $(INSTR_BIN)
	$(INSTR_BIN) instrument --quiet --k=$(INSTR_K) $< -o $@
# two of them with counters of the swept configurations' widths (CntW 8, 16, 64: 1, 2 and 8 bytes),
# run with their edge check on build/sc_c8, sc_c16, sc_c64 (make test)
SWEPT_PROGRAMS := sort lz
WL_PROF_SWEPT := $(foreach c,$(SC_CONFIGS),$(addprefix $(BUILD)/instr/,$(addsuffix -prof-$(c).elf,$(SWEPT_PROGRAMS))))
define SWEPT_PROF_RULE
$(BUILD)/instr/%-prof-$(1).elf: $(BUILD)/instr/%.elf $(INSTR_BIN)
	$(INSTR_BIN) instrument --quiet --k=$(INSTR_K) --counter-bytes=$$$$(($(call tb_field,$(call sc_cfg_of,$(1)),2) / 8)) $$< -o $$@
endef
$(foreach c,$(SC_CONFIGS),$(eval $(call SWEPT_PROF_RULE,$(c))))

# The dynamic optimizer (docs/dynopt.md): the workloads and two programs written with clear phases,
# linked with its firmware runtime (sw/rt/dynopt_rt.c) and their relocations kept, then instrumented
# in mode all (every branch's two edges counted) with the run-time metadata the firmware reads.
PHASE_WORKLOADS := phases stable
DYN_PROGRAMS := $(WORKLOADS) $(PHASE_WORKLOADS)
DYN_ELFS := $(addprefix $(BUILD)/dyn/,$(addsuffix -prof.elf,$(DYN_PROGRAMS)))
DYN_FW := sw/rt/dynopt_rt.c $(DYNOPT_SRC) $(RELAYOUT_SRC) sw/hwprof_edge.c
.SECONDARY: $(addprefix $(BUILD)/dyn/,$(addsuffix .elf,$(DYN_PROGRAMS)))
$(BUILD)/dyn/%.elf: sim/workloads/%.c sim/workloads/common.h $(DYN_FW) $(DYNOPT_HDR) $(SW_HDR)
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -Isw/include -Dmain=workload_main -c $< -o $(@:.elf=.o)
	$(RV32_CC) $(WL_FLAGS) -march=rv32im_zicsr -Isw/include -Isw/dynopt -c sw/rt/dynopt_rt.c -o $(@:.elf=-rt.o)
	$(RV32_CC) $(WL_FLAGS) -Isw/include -Isw/dynopt -Wl,--emit-relocs -Wl,--no-relax $(@:.elf=.o) $(@:.elf=-rt.o) \
	  $(DYNOPT_SRC) $(RELAYOUT_SRC) sw/hwprof_edge.c -o $@
$(BUILD)/dyn/%-prof.elf: $(BUILD)/dyn/%.elf $(INSTR_BIN)
	$(INSTR_BIN) instrument --quiet --mode=all $< -o $@
$(BUILD)/workloads/phases.elf $(BUILD)/workloads/stable.elf: $(BUILD)/workloads/%.elf: sim/workloads/%.c sim/workloads/common.h
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) $< -o $@
# a program that takes ecall and ebreak traps into its own handler (compared with QEMU too)
TRAPS_ELF := $(BUILD)/workloads/traps.elf
$(TRAPS_ELF): sim/workloads/traps.c sim/workloads/common.h
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -march=rv32im_zicsr -c $< -o $(@:.elf=.o)
	$(RV32_CC) $(WL_FLAGS) $(@:.elf=.o) -o $@

# The software-instrumentation baseline: the same workloads with GCC's -fprofile-arcs (and
# -ftest-coverage for gcov's notes), the freestanding gcov runtime of sw/rt/gcov_rt.c writing the
# .gcda files through semihosting at exit (hwprof-sim --out-dir=DIR).
WL_GCOV  := $(addprefix $(BUILD)/gcov/,$(addsuffix .elf,$(WORKLOADS)))
GCOV_CFLAGS := --specs=picolibc.specs -march=rv32im -mabi=ilp32 -O2 -Wall -Wextra -Werror
$(BUILD)/gcov/%.o: sim/workloads/%.c sim/workloads/common.h
	@mkdir -p $(dir $@)
	$(RV32_CC) $(GCOV_CFLAGS) -fprofile-arcs -ftest-coverage -fprofile-info-section=gcov_info -c $< -o $@
$(BUILD)/gcov/gcov_rt.o: sw/rt/gcov_rt.c
	@mkdir -p $(dir $@)
	$(RV32_CC) $(GCOV_CFLAGS) -c $< -o $@
$(BUILD)/gcov/%.elf: $(BUILD)/gcov/%.o $(BUILD)/gcov/gcov_rt.o
	$(RV32_CC) $(WL_FLAGS) $^ -lgcov -o $@
.SECONDARY: $(WL_GCOV:.elf=.o)

# The CFG layer's core is firmware too (the dynamic optimizer re-lays code at run time): it must
# build for the RV32 target without a heap or stdio.
$(BUILD)/fw/hwprof_cfg.o: sw/cfg/hwprof_cfg.c sw/cfg/hwprof_cfg.h $(SW_HDR)
	@mkdir -p $(dir $@)
	$(RV32_CC) --specs=picolibc.specs -march=rv32im -mabi=ilp32 -O2 -ffreestanding -Wall -Wextra -Werror \
	  -Isw/include -c $< -o $@
	@if $(RV32_CC:gcc=nm) -u $@ | grep -v -w memset | grep -q .; then \
	  echo "$@: the firmware part of the CFG layer needs more than memset:"; $(RV32_CC:gcc=nm) -u $@; exit 1; fi

# Embench-IoT programs (third-party test input, never project code) from EMBENCH when that folder
# is there; the project's board support is sim/embench/. Linked like the workloads, with the
# relocations kept so the instrumenter can take them. make test instruments all of them (edge
# profile exact, overhead bounded, the RTL in lockstep on a few; nsichneu also needs branch
# relaxation once profiling instructions are inserted).
EMBENCH ?= ../shared/embench
EMBENCH_FLAGS := --specs=picolibc.specs --oslib=semihost --crt0=semihost -march=rv32im -mabi=ilp32 -O2 \
                 -Wl,--defsym=__flash=$(PLAT_RAM_BASE) -Wl,--defsym=__flash_size=0x200000 \
                 -Wl,--defsym=__ram=$(WL_DATA_BASE) -Wl,--defsym=__ram_size=0x200000 \
                 -Wl,--emit-relocs -Wl,--no-relax -DHAVE_BOARDSUPPORT_H -include boardsupport.h -Isim/embench
EMBENCH_TEST := $(foreach p,$(notdir $(wildcard $(EMBENCH)/src/*)),$(BUILD)/embench/$(p).elf)
$(BUILD)/embench/%.elf: sim/embench/boardsupport.h sim/embench/board.c
	@mkdir -p $(dir $@)
	$(RV32_CC) $(EMBENCH_FLAGS) -I$(EMBENCH)/support -I$(EMBENCH)/src/$* $(EMBENCH)/src/$*/*.c \
	  $(EMBENCH)/support/main.c $(EMBENCH)/support/beebsc.c sim/embench/board.c -lm -o $@

# The large real programs (third-party test input, never project code) from BIGPROGS when that
# folder is there: Lua and zstd with their drivers, built as its README says, on their own memory
# map (4 MiB of code, then 4 MiB of RAM). make test instruments both (edge profile exact, coverage).
BIGPROGS ?= ../shared/bigprogs
BIG_RAM_BASE := $(shell printf '0x%x' $$(( $(PLAT_RAM_BASE) + 0x400000 )))
BIG_FLAGS := --specs=picolibc.specs --oslib=semihost --crt0=semihost -march=rv32im -mabi=ilp32 -O2 -g \
             -Wl,--defsym=__flash=$(PLAT_RAM_BASE) -Wl,--defsym=__flash_size=0x400000 \
             -Wl,--defsym=__ram=$(BIG_RAM_BASE) -Wl,--defsym=__ram_size=0x400000 -Wl,--emit-relocs -Wl,--no-relax
BIG_ELFS := $(if $(wildcard $(BIGPROGS)/lua/onelua.c),$(BUILD)/bigprogs/lua.elf) \
            $(if $(wildcard $(BIGPROGS)/zstd/bench_main.c),$(BUILD)/bigprogs/zstd.elf)
$(BUILD)/bigprogs/lua.elf: $(wildcard $(BIGPROGS)/lua/*.c $(BIGPROGS)/lua/*.h)
	@mkdir -p $(dir $@)
	$(RV32_CC) $(BIG_FLAGS) -DMAKE_LIB -DLUA_USE_C89 $(BIGPROGS)/lua/onelua.c $(BIGPROGS)/lua/bench_main.c -lm -o $@
$(BUILD)/bigprogs/zstd.elf: $(wildcard $(BIGPROGS)/zstd/*.c $(BIGPROGS)/zstd/*/*.c $(BIGPROGS)/zstd/*/*.h)
	@mkdir -p $(dir $@)
	$(RV32_CC) $(BIG_FLAGS) -DZSTD_NO_INTRINSICS -DZSTD_DISABLE_ASM -DZSTD_LEGACY_SUPPORT=0 -I$(BIGPROGS)/zstd \
	  -I$(BIGPROGS)/zstd/common $(BIGPROGS)/zstd/common/*.c $(BIGPROGS)/zstd/compress/*.c \
	  $(BIGPROGS)/zstd/decompress/*.c $(BIGPROGS)/zstd/bench_main.c -o $@

# ... and with other options (the relocation patterns they give, docs/instrumenter.md): make test
# instruments each of these builds
comma := ,
EMBENCH_OPTS := O0 Os-pic O3 gc-sections
EB_OPT_O0 := -O0
EB_OPT_Os-pic := -Os -fPIC
EB_OPT_O3 := -O3
EB_OPT_gc-sections := -ffunction-sections -fdata-sections -Wl$(comma)--gc-sections
define EMBENCH_OPT_RULE
$(BUILD)/embench-$(1)/%.elf: sim/embench/boardsupport.h sim/embench/board.c
	@mkdir -p $$(dir $$@)
	$(RV32_CC) $(EMBENCH_FLAGS) $(EB_OPT_$(1)) -I$(EMBENCH)/support -I$(EMBENCH)/src/$$* $(EMBENCH)/src/$$*/*.c \
	  $(EMBENCH)/support/main.c $(EMBENCH)/support/beebsc.c sim/embench/board.c -lm -o $$@
endef
$(foreach v,$(EMBENCH_OPTS),$(eval $(call EMBENCH_OPT_RULE,$(v))))
EMBENCH_OPT_ELFS := $(foreach v,$(EMBENCH_OPTS),$(foreach p,$(notdir $(wildcard $(EMBENCH)/src/*)),$(BUILD)/embench-$(v)/$(p).elf))

# A switch table of label differences (-fPIC): a test input of the instrumenter's own
$(BUILD)/instr/switch_table.elf: tests/programs/switch_table.c
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -fPIC -Wl,--emit-relocs -Wl,--no-relax $< -o $@

# Recursion deeper than the pir's path stack: a path profile of it must be refused (make test)
$(BUILD)/instr/deep_recursion.elf: tests/programs/deep_recursion.c
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -Wl,--emit-relocs -Wl,--no-relax $< -o $@

# ... and with GCC's -fprofile-arcs (the software baseline of make bench's section 4; the gcov
# runtime of sw/rt/gcov_rt.c writes the .gcda files at exit)
EMBENCH_GCOV := $(foreach p,$(notdir $(wildcard $(EMBENCH)/src/*)),$(BUILD)/gcov/embench/$(p).elf)
$(BUILD)/gcov/embench/%.elf: sim/embench/boardsupport.h sim/embench/board.c $(BUILD)/gcov/gcov_rt.o
	@mkdir -p $(dir $@)
	$(RV32_CC) $(EMBENCH_FLAGS) -fprofile-arcs -ftest-coverage -fprofile-info-section=gcov_info -I$(EMBENCH)/support \
	  -I$(EMBENCH)/src/$* $(EMBENCH)/src/$*/*.c $(EMBENCH)/support/main.c $(EMBENCH)/support/beebsc.c sim/embench/board.c \
	  $(BUILD)/gcov/gcov_rt.o -lgcov -lm -o $@

# ... and, for the gcov oracle of make test, with -fno-inline as well: instrumented by hwprof-instr,
# the same binary is profiled by gcov's counters and by the hardware, and no function's count
# includes inlined copies (gcov counts those as invocations, the hardware cannot)
EMBENCH_GCOV_NI := $(foreach p,$(notdir $(wildcard $(EMBENCH)/src/*)),$(BUILD)/gcov/embench-noinline/$(p).elf)
$(BUILD)/gcov/embench-noinline/%.elf: sim/embench/boardsupport.h sim/embench/board.c $(BUILD)/gcov/gcov_rt.o
	@mkdir -p $(dir $@)
	$(RV32_CC) $(EMBENCH_FLAGS) -fno-inline -fprofile-arcs -ftest-coverage -fprofile-info-section=gcov_info \
	  -I$(EMBENCH)/support -I$(EMBENCH)/src/$* $(EMBENCH)/src/$*/*.c $(EMBENCH)/support/main.c \
	  $(EMBENCH)/support/beebsc.c sim/embench/board.c $(BUILD)/gcov/gcov_rt.o -lgcov -lm -o $@

# ... and every Embench program under the load-value profiler and under simple sampling (make bench
# section 7, make plots), when EMBENCH is there
EMBENCH_PROGS := $(notdir $(wildcard $(EMBENCH)/src/*))
EMBENCH_VP := $(foreach p,$(EMBENCH_PROGS),$(BUILD)/embench/$(p)-vp.elf $(BUILD)/embench/$(p)-ss.elf)
define EMBENCH_RT_RULE
$(BUILD)/embench/%-$(1).elf: sim/embench/boardsupport.h sim/embench/board.c sim/embench/runtime_main.c sw/rt/$(1)_rt.c sw/rt/cop_rt_common.h \
                             sw/hwprof_cop.c $(VP_SRC) $(VP_HDR) $(BUILD)/fw/$(1)_image.c $(SW_HDR)
	@mkdir -p $$(dir $$@)
	$(RV32_CC) $(EMBENCH_FLAGS) -I$(EMBENCH)/support -Dmain=embench_main -c $(EMBENCH)/support/main.c -o $$(@:.elf=-main.o)
	$(RV32_CC) $(WL_FLAGS) -march=rv32im_zicsr -Isw/include -Isw/vp -c sw/rt/$(1)_rt.c -o $$(@:.elf=-rt.o)
	$(RV32_CC) $(WL_FLAGS) -Isw/include -c sw/hwprof_cop.c -o $$(@:.elf=-drv.o)
	$(RV32_CC) $(WL_FLAGS) -Isw/include -c sw/vp/vp_fw.c -o $$(@:.elf=-fw.o)
	$(RV32_CC) $(WL_FLAGS) -Isw/include -c $(BUILD)/fw/$(1)_image.c -o $$(@:.elf=-img.o)
	$(RV32_CC) $(EMBENCH_FLAGS) -I$(EMBENCH)/support -I$(EMBENCH)/src/$$* $(EMBENCH)/src/$$*/*.c $(EMBENCH)/support/beebsc.c \
	  sim/embench/board.c sim/embench/runtime_main.c $$(@:.elf=-main.o) $$(@:.elf=-rt.o) $$(@:.elf=-drv.o) $$(@:.elf=-fw.o) \
	  $$(@:.elf=-img.o) -lm -o $$@
endef
$(eval $(call EMBENCH_RT_RULE,vp))
$(eval $(call EMBENCH_RT_RULE,ss))

# ... and with the trace firmware (sw/rt/hwprof_rt.c): build/tcache/embench-P-fw.elf samples traces
# into the Figure 8 table, -tc also places the hot ones in the code cache (make test, make bench
# section 9)
define EMBENCH_TRACE_RULE
$(BUILD)/tcache/embench-%-$(1).elf: sim/embench/boardsupport.h sim/embench/board.c sim/embench/runtime_main.c \
                                    sw/rt/hwprof_rt.c $(TC_SRC) $(TC_HDR) $(SW_HDR)
	@mkdir -p $$(dir $$@)
	$(RV32_CC) $(2) -I$(EMBENCH)/support -Dmain=embench_main -c $(EMBENCH)/support/main.c -o $$(@:.elf=-main.o)
	$(RV32_CC) $(WL_FLAGS) -march=rv32im_zicsr -Isw/include -Isw/dynopt $(3) -c sw/rt/hwprof_rt.c -o $$(@:.elf=-rt.o)
	$(RV32_CC) $(2) -Isw/include -I$(EMBENCH)/support -I$(EMBENCH)/src/$$* $(EMBENCH)/src/$$*/*.c $(EMBENCH)/support/beebsc.c \
	  sim/embench/board.c sim/embench/runtime_main.c $$(@:.elf=-main.o) $$(@:.elf=-rt.o) $(4) -lm -o $$@
endef
$(eval $(call EMBENCH_TRACE_RULE,fw,$(EMBENCH_FLAGS),$(TC_SAMPLING),$(FW_SRC)))
$(eval $(call EMBENCH_TRACE_RULE,tc,$(call tc_flags,$(EMBENCH_FLAGS)),$(TC_SAMPLING) -DHWPROF_TRACE_CACHE,$(TC_SRC)))
EMBENCH_TRACE := $(foreach p,$(EMBENCH_PROGS),$(BUILD)/tcache/embench-$(p)-fw.elf $(BUILD)/tcache/embench-$(p)-tc.elf)

# ... and with the dynamic optimizer's firmware (docs/dynopt.md), instrumented: build/dyn/embench-P-prof.elf
EMBENCH_DYN := $(foreach p,$(EMBENCH_PROGS),$(BUILD)/dyn/embench-$(p)-prof.elf)
.SECONDARY: $(foreach p,$(EMBENCH_PROGS),$(BUILD)/dyn-embench/$(p).elf)
$(BUILD)/dyn/embench-%-prof.elf: $(BUILD)/dyn-embench/%.elf $(INSTR_BIN)
	$(INSTR_BIN) instrument --quiet --mode=all $< -o $@
$(BUILD)/dyn-embench/%.elf: sim/embench/boardsupport.h sim/embench/board.c sim/embench/runtime_main.c $(DYN_FW) $(DYNOPT_HDR) $(SW_HDR)
	@mkdir -p $(dir $@)
	$(RV32_CC) $(EMBENCH_FLAGS) -I$(EMBENCH)/support -Dmain=embench_main -c $(EMBENCH)/support/main.c -o $(@:.elf=-main.o)
	$(RV32_CC) $(WL_FLAGS) -march=rv32im_zicsr -Isw/include -Isw/dynopt -c sw/rt/dynopt_rt.c -o $(@:.elf=-rt.o)
	$(RV32_CC) $(EMBENCH_FLAGS) -Isw/include -Isw/dynopt -I$(EMBENCH)/support -I$(EMBENCH)/src/$* $(EMBENCH)/src/$*/*.c \
	  $(EMBENCH)/support/beebsc.c sim/embench/board.c sim/embench/runtime_main.c $(@:.elf=-main.o) $(@:.elf=-rt.o) \
	  $(DYNOPT_SRC) $(RELAYOUT_SRC) sw/hwprof_edge.c -Wl,--emit-relocs -Wl,--no-relax -lm -o $@

# ... and the same with the edge-driven re-layout (docs/dynopt.md, "Re-laying functions out while they
# run"): build/dynrl/NAME-prof.elf with scheme 5A, build/dyn5b/NAME-prof.elf with scheme 5B for the
# re-laid functions; the simulator's exact profiles need --code-cache=$(DYNRL_CACHE)
DYNRL_CACHE := 0x80780000:0x80800000
# ... and with both optimizers, the trampolines the cache's exits leave through (above the code)
DYNRL_TRAMP_LO := 0x80870000
DYNRL_TRAMP_HI := 0x80880000
DYNRL_TRAMPOLINES := $(DYNRL_TRAMP_LO):$(DYNRL_TRAMP_HI)
define DYNRL_RULES
$(1)_ELFS := $$(addprefix $(BUILD)/$(1)/,$$(addsuffix -prof.elf,$$(DYN_PROGRAMS))) \
              $$(foreach p,$$(EMBENCH_PROGS),$(BUILD)/$(1)/embench-$$(p)-prof.elf)
.SECONDARY: $$(addprefix $(BUILD)/$(1)/,$$(addsuffix .elf,$$(DYN_PROGRAMS))) $$(foreach p,$$(EMBENCH_PROGS),$(BUILD)/$(1)-embench/$$(p).elf)
$(BUILD)/$(1)/%.elf: sim/workloads/%.c sim/workloads/common.h $$(DYN_FW) $$(RELAYOUT_SRC) $(3) $$(DYNOPT_HDR) $$(SW_HDR)
	@mkdir -p $$(dir $$@)
	$$(RV32_CC) $$(WL_FLAGS) -Isw/include -Dmain=workload_main -c $$< -o $$(@:.elf=.o)
	$$(RV32_CC) $$(WL_FLAGS) -march=rv32im_zicsr -Isw/include -Isw/dynopt $(2) -c sw/rt/dynopt_rt.c -o $$(@:.elf=-rt.o)
	$$(RV32_CC) $$(WL_FLAGS) -Isw/include -Isw/dynopt -Wl,--emit-relocs -Wl,--no-relax $$(@:.elf=.o) $$(@:.elf=-rt.o) \
	  $$(DYNOPT_SRC) $$(RELAYOUT_SRC) sw/hwprof_edge.c $(3) -o $$@
$(BUILD)/$(1)/embench-%-prof.elf: $(BUILD)/$(1)-embench/%.elf $$(INSTR_BIN)
	$$(INSTR_BIN) instrument --quiet --mode=all $$< -o $$@
$(BUILD)/$(1)/%-prof.elf: $(BUILD)/$(1)/%.elf $$(INSTR_BIN)
	$$(INSTR_BIN) instrument --quiet --mode=all $$< -o $$@
$(BUILD)/$(1)-embench/%.elf: sim/embench/boardsupport.h sim/embench/board.c sim/embench/runtime_main.c $$(DYN_FW) $$(RELAYOUT_SRC) $(3) $$(DYNOPT_HDR) $$(SW_HDR)
	@mkdir -p $$(dir $$@)
	$$(RV32_CC) $$(EMBENCH_FLAGS) -I$$(EMBENCH)/support -Dmain=embench_main -c $$(EMBENCH)/support/main.c -o $$(@:.elf=-main.o)
	$$(RV32_CC) $$(WL_FLAGS) -march=rv32im_zicsr -Isw/include -Isw/dynopt $(2) -c sw/rt/dynopt_rt.c -o $$(@:.elf=-rt.o)
	$$(RV32_CC) $$(EMBENCH_FLAGS) -Isw/include -Isw/dynopt -I$$(EMBENCH)/support -I$$(EMBENCH)/src/$$* $$(EMBENCH)/src/$$*/*.c \
	  $$(EMBENCH)/support/beebsc.c sim/embench/board.c sim/embench/runtime_main.c $$(@:.elf=-main.o) $$(@:.elf=-rt.o) \
	  $$(DYNOPT_SRC) $$(RELAYOUT_SRC) sw/hwprof_edge.c $(3) -Wl,--emit-relocs -Wl,--no-relax -lm -o $$@
endef
$(eval $(call DYNRL_RULES,dynrl,-DDYNOPT_RELAYOUT))
# 5B's counters hold a difference since their last arming: its periods are short (docs/dynopt.md)
DYN5B_PERIOD := 500000
$(eval $(call DYNRL_RULES,dyn5b,-DDYNOPT_RELAYOUT -DDYNOPT_SCHEME_5B -DDYNOPT_PERIOD_5B=$(DYN5B_PERIOD)))
# ... and both optimizers in one program (docs/dynopt.md, "One code cache for both optimizers"): the
# edge-driven re-layout with scheme 5A and the trace-driven one, sharing the code cache
DYNBOTH_SRC := sw/dynopt/trace_opt.c sw/trace_recon.c sw/image.c sw/hwprof_trace.c
DYNBOTH_FLAGS := -DDYNOPT_RELAYOUT -DDYNOPT_TRACES -DDYNOPT_TRAMP_LO=$(DYNRL_TRAMP_LO)u -DDYNOPT_TRAMP_HI=$(DYNRL_TRAMP_HI)u
$(eval $(call DYNRL_RULES,dynboth,$(DYNBOTH_FLAGS),$(DYNBOTH_SRC)))
# ... and the same placing every hot trace (no cost model, dense sampling, no back-off): the check that
# traces and layouts share the cache exactly (make test), and the bench's "without the cost model"
DYNBOTH_EVERY := -DDYNOPT_TRACE_SHARE=0 -DDYNOPT_TRACE_MIN_GAIN=0 -DDYNOPT_TRACE_SAMPLE=8 -DDYNOPT_TRACE_MIN_SAMPLE=2 \
                 -DDYNOPT_TRACE_MAX_SAMPLE=0
$(eval $(call DYNRL_RULES,dynevery,$(DYNBOTH_FLAGS) $(DYNBOTH_EVERY),$(DYNBOTH_SRC)))
# ... and the offline bound, run (docs/dynopt.md, "The static layout, run"): every function laid out
# once at start from a whole earlier run's counters, loaded at DYNSTATIC_PROFILE_AT (make bench)
DYNSTATIC_PROFILE_AT := 0x80f00000
$(eval $(call DYNRL_RULES,dynstatic,-DDYNOPT_RELAYOUT -DDYNOPT_STATIC -DDYNOPT_PROFILE_AT=$(DYNSTATIC_PROFILE_AT)u))
DYNRL_ELFS := $(dynrl_ELFS) $(dyn5b_ELFS) $(dynboth_ELFS) $(dynevery_ELFS) $(dynstatic_ELFS)
# ... and the trace-driven optimizer alone on the same instrumented programs, with its cost model
# (make bench only: the cache and the traces as in build/dynboth, no layouts)
$(eval $(call DYNRL_RULES,dyntrace,$(DYNBOTH_FLAGS) -DDYNOPT_TRACES_ONLY,$(DYNBOTH_SRC)))

dynopt: $(DYN_ELFS) $(EMBENCH_DYN) $(DYNRL_ELFS) $(SIM_BIN)

WORKLOAD_FILES := $(WL_ELFS) $(FW_ELFS) $(COP_FW_ELFS) $(VP_FW_ELFS) $(SS_FW_ELFS) $(WL_PROF) $(WL_PROF_SWEPT) $(WL_GCOV) $(BUILD)/fw/hwprof_cfg.o $(EMBENCH_TEST) \
           $(EMBENCH_OPT_ELFS) $(BUILD)/instr/switch_table.elf $(BUILD)/instr/deep_recursion.elf $(EMBENCH_GCOV) $(EMBENCH_GCOV_NI) $(DYN_ELFS) $(EMBENCH_DYN) \
           $(addprefix $(BUILD)/workloads/,$(addsuffix .elf,$(PHASE_WORKLOADS))) $(TC_ELFS) $(EMBENCH_TRACE) $(DYNRL_ELFS) \
           $(TRAPS_ELF) $(BIG_ELFS)
workloads: $(WORKLOAD_FILES) $(SIM_BIN) $(INSTR_BIN)  # and the tools the docs run on them

qemu-check: $(SIM_BIN) $(WL_ELFS)  # plain programs only: QEMU has no hwprof device
	@tools/qemu_check.sh $(SIM_BIN) $(WL_ELFS)

# ---------------------------------------------------------------- fuzzing (docs/verification.md, "Fuzzing")
# libFuzzer (Debian's clang) with ASan and UBSan on every parser of input; not part of make test:
# make fuzz [FUZZ_SECONDS=N per target] [FUZZ_TARGETS="elf map ..."]. Seeds are the project's own files.
FUZZ_PKGS := clang libclang-rt-14-dev
FUZZ_CC := clang
FUZZ_SECONDS ?= 120
FUZZ_TARGETS ?= elf instr map profile meta cop_asm cop_image wpp_trace wpp_index path_files regtool
FUZZ_FLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
              -Isw/include -Isw/elf \
              -Isw/cfg -Isw/profmap -Isw/instr -Isw/rewrite -Isw/path -Isw/cop -Isw/dynopt -Isw/wpp -Ifuzz
FUZZ_SRC_elf := $(ELF_SRC) sw/image.c
FUZZ_SRC_instr := $(INSTR_SRC) sw/image.c
FUZZ_SRC_map := $(PROFMAP_SRC)
FUZZ_SRC_profile := $(PROFMAP_SRC)
FUZZ_SRC_meta := sw/dynopt/meta.c
FUZZ_SRC_cop_asm := $(COP_SRC)
FUZZ_SRC_cop_image := $(COP_SRC)
FUZZ_SRC_wpp_trace := sw/wpp/trace_file.c sw/wpp/block_stream.c sw/wpp/chain_table.c sw/wpp/cycles.c sw/trace_recon.c sw/image.c
FUZZ_SRC_wpp_index := sw/wpp/wpp_index.c sw/wpp/trace_file.c
FUZZ_SRC_path_files := sw/path/pp_compare.c
$(BUILD)/fuzz/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz_file.h $(INSTR_SRC) $(PROFMAP_SRC) $(COP_SRC) sw/dynopt/meta.c sw/image.c \
                     $(SW_HDR) $(ELF_HDR) $(PROFMAP_HDR) $(COP_HDR) $(WPP_SRC) $(WPP_HDR) | fuzz-deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $< $(FUZZ_SRC_$*) -o $@ -lelf
fuzz-deps:
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(FUZZ_PKGS)"
# (regtool: the register generator, in Python, by tools/fuzz_regtool.py: no binary)
fuzz: $(addprefix $(BUILD)/fuzz/fuzz_,$(filter-out regtool,$(FUZZ_TARGETS))) workloads $(CPASM_BIN) $(WPP_BIN)
	@FUZZ_SECONDS=$(FUZZ_SECONDS) tools/fuzz.sh "$(BUILD)" $(FUZZ_TARGETS)
.PHONY: fuzz fuzz-deps

# ---------------------------------------------------------------- the suites
test: deps
	@$(SUBMAKE) unit bench-bin $(SIM_BIN) $(SC_BIN) $(SC_CONFIG_BINS) workloads $(BUILD)/unit/hwprof-instr-asan $(BUILD)/unit/codecache-random \
	  $(BUILD)/unit/relayout-random \
	  $(CPASM_BIN) $(BUILD)/unit/hwprof-cpasm-asan $(VPEVAL_BIN) $(BUILD)/unit/hwprof-vpeval-asan $(BUILD)/unit/hwprof-wpp-asan \
	  $(WPP_BIN)
	@tools/runtests.sh "$(BUILD)" $(UNIT_TESTS)

WORKLOAD ?= interp
ENGINE   ?= lockstep
ELF      ?= $(BUILD)/workloads/$(WORKLOAD)-fw.elf
# what make sim runs (it builds only these): the program, and for a named workload its plain and
# instrumented builds
SIM_RUNS := $(filter $(ELF),$(WORKLOAD_FILES)) \
            $(if $(filter $(WORKLOAD),$(WORKLOADS)),$(BUILD)/workloads/$(WORKLOAD).elf $(BUILD)/instr/$(WORKLOAD)-prof.elf)
sim: deps
	@$(SUBMAKE) $(SC_BIN) $(SIM_RUNS)
	@test -f "$(ELF)" || { echo "sim: error: no program '$(ELF)' (WORKLOAD is one of: $(WORKLOADS); or ELF=path)"; exit 2; }
	@echo "sim: $(ELF) on the SystemC platform, hwprof_top as $(ENGINE); the firmware samples traces"
	$(SC_BIN) --engine=$(ENGINE) --progress=2000000 $(ELF)
	@if [ "$(ENGINE)" != rtl ] && [ -f "$(BUILD)/workloads/$(WORKLOAD).elf" ]; then \
	  echo "sim: $(BUILD)/workloads/$(WORKLOAD).elf without firmware, every trace checked end to end"; \
	  out=$$($(SC_BIN) --engine=$(ENGINE) --trace-check $(BUILD)/workloads/$(WORKLOAD).elf 2>&1 >/dev/null); rc=$$?; \
	  echo "$$out" | grep -vE '^  (program|system|profile memory|edge profiling|traces|speed):|on the SystemC platform'; \
	  [ $$rc = 0 ] || exit $$rc; \
	fi
	@if [ -f "$(BUILD)/instr/$(WORKLOAD)-prof.elf" ]; then \
	  echo "sim: $(BUILD)/instr/$(WORKLOAD)-prof.elf, instrumented by hwprof-instr: the edge profile read back from the"; \
	  echo "     hardware (flush, counters, derived edges) against the exact edge counts of the run"; \
	  out=$$($(SC_BIN) --engine=$(ENGINE) --edge-map=$(BUILD)/instr/$(WORKLOAD)-prof.map \
	         $(BUILD)/instr/$(WORKLOAD)-prof.elf 2>&1 >/dev/null); rc=$$?; \
	  echo "$$out" | grep -E '^  (system|edge profiling|lockstep):|edge check|error|MISMATCH'; \
	  exit $$rc; \
	fi

# the block-level co-simulation: RTL and C model of hwprof_top in lockstep on a random stream
sim-blocks: deps
	@$(SUBMAKE) $(TB_TOP)
	$(TB_TOP) --seed=$(SEED) --cycles=$(CYCLES) --progress=1000000

inject: $(TB_TOP)
	@echo "inject: flipping one bit of the C model's pir update counter at cycle 1000; the bench must report it"
	-$(TB_TOP) --seed=$(SEED) --cycles=200000 --inject=1000

bench: bench-bin $(SIM_BIN) $(SC_BIN) $(WPP_BIN) workloads $(COP_FW_ELFS:-cop.elf=-cop4.elf) $(COP_FW_ELFS:-cop.elf=-cop16.elf) $(VPEVAL_BIN) \
       $(EMBENCH_VP) $(EMBENCH_GCOV) $(dyntrace_ELFS)
	@tools/bench.sh "$(BUILD)"

# The load-value profiling figures (docs/valueprof.md): measured as in make bench's section 7, drawn
# with Debian's matplotlib (the system Python, where python3-matplotlib installs it)
PLOT_PY ?= /usr/bin/python3
plots: deps $(SIM_BIN) $(WPP_BIN) workloads $(VPEVAL_BIN) $(EMBENCH_VP)
	@tools/valueprof_eval.sh "$(BUILD)"
	@$(PLOT_PY) tools/plot_valueprof.py "$(BUILD)" "$(BUILD)/plots"
	@mkdir -p "$(BUILD)/plots"
	@PLOTS="$(BUILD)/plots" tools/dynopt_bench.sh "$(BUILD)"
	@PLOTS="$(BUILD)/plots" tools/tracecache_bench.sh "$(BUILD)"
	@PLOTS="$(BUILD)/plots" tools/relayout_bench.sh "$(BUILD)"
	@$(SIM_BIN) --quiet --trace-out="$(BUILD)/plots/phases.htr" "$(BUILD)/workloads/phases.elf" >/dev/null && \
	  $(WPP_BIN) analyze --quiet --buckets=16 --trace="$(BUILD)/plots/phases.htr" --elf="$(BUILD)/workloads/phases.elf" \
	    --out="$(BUILD)/plots/wpp-phases" && $(PLOT_PY) tools/plot_wpp.py "$(BUILD)/plots/wpp-phases" "$(BUILD)/plots/wpp-phases.png"
	@echo "plots: the phase timelines in $(BUILD)/plots/dynopt-*.png (with re-layout: dynopt-rl-*.png), the code cache in $(BUILD)/plots/tracecache.png, whole-program paths of phases.c in $(BUILD)/plots/wpp-phases.png"

synth: deps
	@RTL_SRC="$(RTL_SRC)" synth/run.sh "$(BUILD)/synth"

# ---------------------------------------------------------------- gate-level lockstep (make gls)
# hwprof_top as the netlist Yosys makes of it (synth/gls.sh: generic gates, the value profiler's
# large arrays kept as memories), built into the same lockstep bench and SystemC platform as the RTL
# and compared with the C model cycle for cycle (tools/gls.sh, docs/verification.md). The netlist is
# not lint-clean Verilog by the RTL's rules (unused gate outputs, flat names), hence no -Wall; its
# flops start random with HWPROF_RAND_RESET, as the xinit bench's do.
GLS_CONFIGS := top:$(DEFAULT_CFG) small:32:2:2:1:2:4:8:2 $(filter large:%,$(TB_CONFIGS))
VFLAGS_GLS  := -Wno-fatal -Wno-lint -Wno-style --trace-fst -O3 --x-assign unique --x-initial unique
# the same parameters as NAME=VALUE for Yosys (synth/gls.sh, tools/mutate.py)
gls_params = $(subst -G,,$(call tb_gflags,$(1)))
define GLS_RULE
$(BUILD)/gls/hwprof_top-$(call tb_field,$(1),1).v: $(RTL_SRC) synth/gls.sh
	@RTL_SRC="$(RTL_SRC)" synth/gls.sh hwprof_top $$@ $(call gls_params,$(1))
$(call TB_RULE,$(1),$(BUILD)/gls/tb_$(call tb_field,$(1),1),$(CURDIR)/$(BUILD)/gls/hwprof_top-$(call tb_field,$(1),1).v,\
  $(VFLAGS_GLS),$(BUILD)/gls/hwprof_top-$(call tb_field,$(1),1).v)
endef
$(foreach c,$(GLS_CONFIGS),$(eval $(call GLS_RULE,$(c))))
GLS_SC_BIN := $(BUILD)/gls/sc/hwprof-sc
$(eval $(call SC_RULE,$(GLS_SC_BIN),$(CURDIR)/$(BUILD)/gls/hwprof_top-top.v,$(VFLAGS_GLS),$(BUILD)/gls/hwprof_top-top.v))
# the value profiler's blocks alone, in their own benches (their stimulus reaches what hwprof_top's
# random stream does not: microcode, the CAM, the bit-mask table)
$(BUILD)/gls/hwprof_cop.v: $(RTL_SRC) synth/gls.sh
	@RTL_SRC="$(RTL_SRC)" synth/gls.sh hwprof_cop $@ $(subst -G,,$(call cop_gflags,$(word 1,$(COP_CONFIGS))))
$(BUILD)/gls/hwprof_vpf.v: $(RTL_SRC) synth/gls.sh
	@RTL_SRC="$(RTL_SRC)" synth/gls.sh hwprof_vpf $@ $(subst -G,,$(call vpf_gflags,$(word 1,$(VPF_CONFIGS))))
$(eval $(call COP_RULE,$(word 1,$(COP_CONFIGS)),$(BUILD)/gls/cop,$(CURDIR)/$(BUILD)/gls/hwprof_cop.v,$(VFLAGS_GLS),\
  $(BUILD)/gls/hwprof_cop.v))
$(eval $(call VPF_RULE,$(word 1,$(VPF_CONFIGS)),$(BUILD)/gls/vpf,$(CURDIR)/$(BUILD)/gls/hwprof_vpf.v,$(VFLAGS_GLS),\
  $(BUILD)/gls/hwprof_vpf.v))
# ... and their small configurations with every memory as flops and gates too (GLS_MEM=flops): the
# microcode, CAM, data array, sample buffer and bit-mask table's decoders and read multiplexers
$(BUILD)/gls/hwprof_cop_small-flops.v: $(RTL_SRC) synth/gls.sh
	@GLS_MEM=flops RTL_SRC="$(RTL_SRC)" synth/gls.sh hwprof_cop $@ $(subst -G,,$(call cop_gflags,$(word 2,$(COP_CONFIGS))))
$(BUILD)/gls/hwprof_vpf_small-flops.v: $(RTL_SRC) synth/gls.sh
	@GLS_MEM=flops RTL_SRC="$(RTL_SRC)" synth/gls.sh hwprof_vpf $@ $(subst -G,,$(call vpf_gflags,$(word 2,$(VPF_CONFIGS))))
$(eval $(call COP_RULE,$(word 2,$(COP_CONFIGS)),$(BUILD)/gls/cop_small-flops,$(CURDIR)/$(BUILD)/gls/hwprof_cop_small-flops.v,\
  $(VFLAGS_GLS),$(BUILD)/gls/hwprof_cop_small-flops.v))
$(eval $(call VPF_RULE,$(word 2,$(VPF_CONFIGS)),$(BUILD)/gls/vpf_small-flops,$(CURDIR)/$(BUILD)/gls/hwprof_vpf_small-flops.v,\
  $(VFLAGS_GLS),$(BUILD)/gls/hwprof_vpf_small-flops.v))
GLS_BINS := $(foreach c,$(GLS_CONFIGS),$(BUILD)/gls/tb_$(call tb_field,$(c),1)/Vhwprof_top) $(GLS_SC_BIN) \
            $(BUILD)/gls/cop/Vhwprof_cop $(BUILD)/gls/vpf/Vhwprof_vpf \
            $(BUILD)/gls/cop_small-flops/Vhwprof_cop $(BUILD)/gls/vpf_small-flops/Vhwprof_vpf

gls: deps
	@$(SUBMAKE) $(GLS_BINS) workloads
	@tools/gls.sh "$(BUILD)"

# ---------------------------------------------------------------- mutation testing (make mutate)
# Mutants of every RTL module from Yosys' mutate pass, all in one design behind the input mutsel,
# each run on a fast lockstep subset against the unmutated C model (tools/mutate.py,
# docs/verification.md). MUTANTS_PER_MODULE and MUTATE_SEED choose the sample; the runs resume.
MUTATE_DIR := $(BUILD)/mutate
MUTANTS_PER_MODULE ?= 40
MUTATE_SEED ?= 1
$(MUTATE_DIR)/params: FORCE
	@mkdir -p $(dir $@)
	@echo "per_module=$(MUTANTS_PER_MODULE) seed=$(MUTATE_SEED)" | cmp -s - $@ || \
	  echo "per_module=$(MUTANTS_PER_MODULE) seed=$(MUTATE_SEED)" >$@
# the units: each bench's design with its own mutants (tools/mutate.py), built in its bench's
# default configuration
mutate_gen = @RTL_SRC="$(RTL_SRC)" MUTANTS_PER_MODULE=$(MUTANTS_PER_MODULE) MUTATE_SEED=$(MUTATE_SEED) \
  python3 tools/mutate.py gen $(BUILD) $(1) $(2)
$(MUTATE_DIR)/top/mutants.v: $(RTL_SRC) tools/mutate.py $(MUTATE_DIR)/params
	$(call mutate_gen,top,$(call gls_params,$(word 1,$(TB_CONFIGS))))
$(MUTATE_DIR)/cop/mutants.v: $(RTL_SRC) tools/mutate.py $(MUTATE_DIR)/params
	$(call mutate_gen,cop,$(subst -G,,$(call cop_gflags,$(word 1,$(COP_CONFIGS)))))
$(MUTATE_DIR)/vpf/mutants.v: $(RTL_SRC) tools/mutate.py $(MUTATE_DIR)/params
	$(call mutate_gen,vpf,$(subst -G,,$(call vpf_gflags,$(word 1,$(VPF_CONFIGS)))))
VFLAGS_MUTANT := $(VFLAGS_GLS) -CFLAGS -DHWPROF_MUTANT_SELECT
$(eval $(call TB_RULE,$(word 1,$(TB_CONFIGS)),$(MUTATE_DIR)/top,$(CURDIR)/$(MUTATE_DIR)/top/mutants.v,\
  $(VFLAGS_MUTANT),$(MUTATE_DIR)/top/mutants.v))
$(eval $(call COP_RULE,$(word 1,$(COP_CONFIGS)),$(MUTATE_DIR)/cop,$(CURDIR)/$(MUTATE_DIR)/cop/mutants.v,\
  $(VFLAGS_MUTANT),$(MUTATE_DIR)/cop/mutants.v))
$(eval $(call VPF_RULE,$(word 1,$(VPF_CONFIGS)),$(MUTATE_DIR)/vpf,$(CURDIR)/$(MUTATE_DIR)/vpf/mutants.v,\
  $(VFLAGS_MUTANT),$(MUTATE_DIR)/vpf/mutants.v))
MUTATE_BINS := $(MUTATE_DIR)/top/Vhwprof_top $(MUTATE_DIR)/cop/Vhwprof_cop $(MUTATE_DIR)/vpf/Vhwprof_vpf
mutate: deps
	@$(SUBMAKE) $(MUTATE_BINS)
	@MUTANTS_PER_MODULE=$(MUTANTS_PER_MODULE) MUTATE_SEED=$(MUTATE_SEED) python3 tools/mutate.py run $(BUILD)
	@python3 tools/mutate.py equiv $(BUILD)
	@MUTANTS_PER_MODULE=$(MUTANTS_PER_MODULE) MUTATE_SEED=$(MUTATE_SEED) python3 tools/mutate.py report $(BUILD) \
	  | tee $(MUTATE_DIR)/report.txt
# the fast subset's survivors through the long suite (about make test's lengths), then the report
mutate-deep: mutate
	@MUTANTS_PER_MODULE=$(MUTANTS_PER_MODULE) MUTATE_SEED=$(MUTATE_SEED) python3 tools/mutate.py run --deep $(BUILD)
	@MUTANTS_PER_MODULE=$(MUTANTS_PER_MODULE) MUTATE_SEED=$(MUTATE_SEED) python3 tools/mutate.py report $(BUILD) \
	  | tee $(MUTATE_DIR)/report.txt
FORCE:

# ---------------------------------------------------------------- the long campaign (make campaign)
# Random lockstep on every bench and configuration over many seeds, and the whole system in lockstep
# on every program, CAMPAIGN_CYCLES (10^9) compared cycles, JOBS at a time, resumable
# (tools/campaign.py, docs/verification.md); make test keeps its shorter suite.
campaign: deps
	@$(SUBMAKE) bench-bin $(SC_BIN) $(SC_CONFIG_BINS) workloads
	@tools/campaign.py "$(BUILD)"

COV_PKGS := lcov
cov: deps
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(COV_PKGS)"
	@$(SUBMAKE) $(SIM_BIN) workloads
	@RTL_SRC="$(RTL_SRC)" UNIT_SRC="$(UNIT_SRC)" MODEL_SRC="$(MODEL_SRC)" TB_SRC="$(TB_SRC)" INSTR_SRC="$(INSTR_SRC)" \
	  WPP_SRC="$(WPP_SRC)" tools/coverage.sh "$(BUILD)"

clean:
	rm -rf $(BUILD)
