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
CFLAGS_COMMON := -std=c11 -Wall -Wextra -Werror -Isw/include -Icmodel -Isw/host/elf -Isw/lib/cfg -Isw/host/profmap
SAN      := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

VERILATOR ?= verilator
# Verilator's runtime (verilated.cpp, its FST writer, its threads) is the same C++ in every one of the
# thirty-odd benches: through ccache (make deps installs it; its cache in the build directory) it is
# compiled once a build, not once a bench
ifneq ($(shell command -v ccache 2>/dev/null),)
export OBJCACHE := ccache
export CCACHE_DIR ?= $(abspath $(BUILD))/ccache
endif
# ... and each bench's run-once code (Verilator's __Slow files: construction, the waveform's
# declarations) compiled without optimization: a fifth of a bench's build, nothing of its speed
VMAKE_SLOW := OPT_SLOW=-O0
# the RTL: one list (rtl/hwprof.f), and the subsets that are linted and benched on their own,
# picked from it by folder
RTL_SRC  := $(shell grep -v '^ *//' rtl/hwprof.f)
RTL_PKG  := $(filter %/autogen/hwprof_pkg.sv %/autogen/hwprof_cop_pkg.sv,$(RTL_SRC))
RTL_PRIM := $(filter rtl/prim/%,$(RTL_SRC))
rtl_block = $(RTL_PKG) $(RTL_PRIM) $(filter $(addprefix rtl/,$(addsuffix /%,$(1))),$(filter-out $(RTL_PKG),$(RTL_SRC)))
RTL_COP  := $(call rtl_block,cop)
RTL_VPF  := $(call rtl_block,vpf)
VLT      := rtl/hwprof.vlt
MODEL_SRC := cmodel/top/autogen/top_reg.c cmodel/pir/autogen/pir_reg.c cmodel/edge_prof/autogen/edge_prof_reg.c cmodel/trace_ctrl/autogen/trace_ctrl_reg.c cmodel/cop/autogen/cop_reg.c cmodel/vpf/autogen/vpf_reg.c \
             cmodel/prim/fifo.c cmodel/prim/counters.c cmodel/prim/regfile.c cmodel/path/path.c cmodel/pir/pir.c cmodel/edge_prof/edge_prof.c cmodel/trace_ctrl/trace_ctrl.c cmodel/cop/cop.c cmodel/vpf/sbuf.c cmodel/vpf/vpf.c cmodel/top/top.c cmodel/mem/mem_model.c \
             cmodel/core/rvfi_adapter.c
MODEL_HDR := $(wildcard cmodel/*.h cmodel/*/*.h cmodel/*/autogen/*.h) sw/include/autogen/hwprof_regs.h
SW_SRC   := sw/fw/drivers/hwprof_edge.c sw/fw/drivers/hwprof_trace.c sw/fw/drivers/hwprof_cop.c sw/lib/trace_recon.c sw/lib/image.c
SW_HDR   := $(wildcard sw/include/*.h sw/include/autogen/*.h)
# the host tools' one ELF reader (libelf)
ELF_SRC  := sw/host/elf/hwprof_elf.c
ELF_HDR  := sw/host/elf/hwprof_elf.h
# The host software's layers (docs/architecture.md): the CFG layer (its core also builds for the
# RV32 target), the rewriting layer, the map library shared by the instrumenter and the platforms.
CFG_SRC  := sw/lib/cfg/hwprof_cfg.c sw/host/elf/hwprof_cfg_prog.c
# path profiling (docs/path.md): Ball-Larus numbering
PATH_SRC := sw/lib/path/bl.c sw/host/path/regions.c sw/host/path/func_paths.c sw/host/path/hammocks.c sw/host/path/pp_plan.c
# host only (files, the ELF and map layers): reading a path profile back, comparing it with the oracle
PATH_HOST_SRC := sw/host/path/pp_readback.c sw/host/path/pp_compare.c
RW_SRC   := sw/host/rewrite/hwprof_rewrite.c
PROFMAP_SRC := sw/host/profmap/map_file.c sw/host/profmap/derive.c sw/host/profmap/meta_blob.c sw/host/profmap/profile_file.c sw/lib/cfg/hwprof_cfg.c sw/lib/meta.c
PROFMAP_HDR := sw/host/profmap/profmap.h sw/lib/cfg/hwprof_cfg.h
# The co-processor's tools (docs/cop.md): the format's name tables (generated from
# regs/cop_uinsn.json), image files, the assembler/disassembler, the instruction-level interpreter.
COP_SRC  := sw/host/cop/autogen/cop_isa_tables.c sw/host/cop/cop_image.c sw/host/cop/cop_asm.c sw/host/cop/cop_interp.c
COP_HDR  := sw/host/cop/cop_image.h sw/host/cop/cop_asm.h sw/host/cop/cop_interp.h
VP_SRC   := sw/host/vp/vp_estimate.c sw/fw/vp/vp_fw.c
# host: load-value profile files and their A.6 estimate
VP_PROFILE_SRC := sw/host/vp/vp_estimate.c sw/host/vp/vp_profile.c
# whole-program path analysis (docs/wpp.md): the file formats (also in the simulator), the analysis
WPP_FILE_SRC := sw/host/wpp/trace_file.c
WPP_SRC  := $(WPP_FILE_SRC) sw/host/wpp/block_stream.c sw/host/wpp/chain_table.c sw/host/wpp/cycles.c sw/host/wpp/wpp_index.c sw/host/wpp/wpp_tables.c sw/host/wpp/sequitur.c sw/host/wpp/key_probes.c sw/host/wpp/zipf_stream.c \
            sw/lib/trace_recon.c sw/lib/image.c sw/lib/rv32_disasm.c $(ELF_SRC)
# hwprof-report (docs/report.md): the lcov, sample-profile and HTML writers and what they read
REPORT_SRC  := sw/host/report/dwarf_lines.c sw/host/report/block_counts.c sw/host/report/map_program.c sw/host/report/lcov.c sw/host/report/sample_prof.c \
               sw/host/report/svg.c sw/host/report/run_files.c sw/host/report/html_report.c $(VP_PROFILE_SRC) \
               sw/host/wpp/wpp_index.c $(WPP_FILE_SRC) $(PROFMAP_SRC) $(ELF_SRC)
WPP_HDR  := $(wildcard sw/host/wpp/*.h) $(ELF_HDR) $(SW_HDR)
VP_HDR   := sw/host/vp/vp_estimate.h sw/fw/vp/vp_fw.h
# the dynamic optimizer (docs/dynopt.md): portable firmware, built for the host tests and for RV32
DYNOPT_SRC := sw/fw/dynopt/phase.c sw/lib/meta.c sw/fw/dynopt/dynopt.c
# the code cache and the trace-driven optimizer (firmware of the -tc programs)
CCACHE_SRC := sw/fw/dynopt/codecache.c sw/fw/dynopt/trace_opt.c sw/fw/dynopt/relayout.c
RELAYOUT_SRC := sw/fw/dynopt/codecache.c sw/fw/dynopt/relayout.c
DYNOPT_HDR := sw/fw/dynopt/phase.h sw/fw/dynopt/dynopt.h sw/include/hwprof_meta.h sw/fw/dynopt/codecache.h sw/fw/dynopt/trace_opt.h \
              sw/fw/dynopt/relayout.h
RV32_CC  ?= riscv64-unknown-elf-gcc
RV32_FLAGS := --specs=picolibc.specs -march=rv32im -mabi=ilp32 -std=c11 -Wall -Wextra -Werror -O2 -Isw/include

# Debian packages the project needs (make deps installs the missing ones).
DEB_PKGS := make g++ ccache python3 verilator yosys nextpnr-ice40 fpga-icestorm libcmocka-dev libsystemc-dev libelf-dev libdw-dev lcov clang llvm pkg-config \
            gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf qemu-system-misc python3-matplotlib chromium chromium-driver

.PHONY: tools report campaign mutate mutate-deep FORCE gls dynopt help deps deps-packages lint regs regs-check core test sim sim-blocks synth synth-pico cov bench clean inject bench-bin unit qemu-check workloads plots

help:
	@echo "hwprof make targets"
	@echo "  make sim        install missing dependencies, then run a workload on the whole system in SystemC"
	@echo "                  and print the report: WORKLOAD=$(WORKLOADS) (or ELF=path),"
	@echo "                  ENGINE=lockstep (default; RTL and C model compared every cycle), rtl or model;"
	@echo "                  CORE=picorv32: on picorv32's RTL with hwprof_top's RTL instead (after make deps)"
	@echo "  make sim-blocks the RTL and C model of hwprof_top in lockstep on a random stream (SEED=, CYCLES=)"
	@echo "  make test       install missing dependencies, then every check CI runs (regs, lint, unit"
	@echo "                  tests under ASan/UBSan, directed and random lockstep benches, fault injection)"
	@echo "  make deps       install the Debian packages the project needs (as root), or print the command;"
	@echo "                  FuseSoC, Selenium and Dask from PyPI into $(BUILD)/venv (make deps-packages: the Debian packages alone)"
	@echo "  make lint       verilator --lint-only -Wall on the RTL"
	@echo "  make regs       regenerate from regs/*.json every file in an autogen/ folder (the register"
	@echo "                  blocks, the packages, the C constants), docs/registers.md, docs/cop_isa.md"
	@echo "  make core       regenerate hwprof.core (FuseSoC) from the RTL file list rtl/hwprof.f"
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
	@echo "  make report     one program through every profile and its report page: WORKLOAD=$(WORKLOAD)"
	@echo "                  (or PROGRAM=path.elf [VP=its value-profiler build]); build/runs/NAME/report/index.html"
	@echo "  make dynopt     the workloads with the dynamic optimizer's firmware (build/dyn/*-prof.elf)"
	@echo "  make inject     run the bench with a deliberate C-model fault; shows the mismatch report"
	@echo "  make qemu-check the CPU model's retired-PC stream against QEMU's, on every workload"
	@echo "  make fuzz       libFuzzer (clang, installed by it) on every input parser, FUZZ_SECONDS per target;"
	@echo "                  crashes go to $(BUILD)/fuzz/crashes/TARGET/ (docs/verification.md)"
	@echo "  make workloads  build the RV32 workloads (build/workloads/*.elf), instrumented (build/instr/*-prof.elf)"
	@echo "                  and with -fprofile-arcs (build/gcov/*.elf), and the host tools into build/bin/;"
	@echo "                  run one with build/bin/hwprof-sim build/workloads/sort.elf"
	@echo "  make tools      every host tool (hwprof-sim, hwprof-sc, hwprof-instr, hwprof-wpp, hwprof-report,"
	@echo "                  hwprof-cpasm, hwprof-vpeval) linked into build/bin/ (docs/tools.md)"
	@echo "  make clean      remove $(BUILD)/"

# ---------------------------------------------------------------- the build, one subject a file (mk/)
include mk/deps.mk
include mk/rtl.mk
include mk/host.mk
include mk/benches.mk
include mk/unit.mk
include mk/platforms.mk
include mk/workloads.mk
include mk/fuzz.mk
include mk/pico.mk

# ---------------------------------------------------------------- the tools on one path
# Every host tool, linked into build/bin/ (the path the docs use): make workloads links the ones it
# builds (all but hwprof-sc), make sim hwprof-sc, make tools all of them.
HOST_TOOLS := $(SIM_BIN) $(INSTR_BIN) $(REPORT_BIN) $(WPP_BIN) $(CPASM_BIN) $(VPEVAL_BIN)
define BIN_LINK
$(BUILD)/bin/$(notdir $(1)): $(1)
	@mkdir -p $$(dir $$@)
	@ln -sfn ../$$(patsubst $(BUILD)/%,%,$(1)) $$@
endef
$(foreach t,$(HOST_TOOLS) $(SC_BIN),$(eval $(call BIN_LINK,$(t))))
BIN_LINKS := $(addprefix $(BUILD)/bin/,$(notdir $(HOST_TOOLS)))
workloads: $(BIN_LINKS)
tools: $(BIN_LINKS) $(BUILD)/bin/hwprof-sc

# ---------------------------------------------------------------- the suites
test: deps
	@+$(SUBMAKE) unit bench-bin $(SIM_BIN) $(SC_BIN) $(PICO_BIN) $(BUILD)/bin/hwprof-sc $(SC_CONFIG_BINS) workloads $(BUILD)/unit/hwprof-instr-asan $(BUILD)/unit/codecache-random \
	  $(BUILD)/unit/relayout-random $(BUILD)/unit/hwprof-report-asan \
	  $(CPASM_BIN) $(BUILD)/unit/hwprof-cpasm-asan $(VPEVAL_BIN) $(BUILD)/unit/hwprof-vpeval-asan $(BUILD)/unit/hwprof-wpp-asan \
	  $(WPP_BIN) $(filter %/crc32-vp.elf,$(EMBENCH_VP))
	@tools/runtests.sh "$(BUILD)" $(UNIT_TESTS)

WORKLOAD ?= interp
ENGINE   ?= lockstep
ELF      ?= $(BUILD)/workloads/$(WORKLOAD)-fw.elf
# what make sim runs (it builds only these): the program, and for a named workload its plain and
# instrumented builds
SIM_RUNS := $(filter $(ELF),$(WORKLOAD_FILES)) \
            $(if $(filter $(WORKLOAD),$(WORKLOADS)),$(BUILD)/workloads/$(WORKLOAD).elf $(BUILD)/instr/$(WORKLOAD)-prof.elf)
CORE ?= model
ifeq ($(CORE),picorv32)
# the same runs on picorv32's RTL with hwprof_top's RTL (mk/pico.mk, docs/picorv32.md): the plain
# program, then the instrumented one with its edge profile checked
PICO_ELF := $(if $(filter $(WORKLOAD),$(WORKLOADS)),$(BUILD)/workloads/$(WORKLOAD).elf,$(ELF))
sim: deps-packages
	@+$(SUBMAKE) $(PICO_BIN) $(SIM_RUNS) $(if $(filter $(WORKLOAD),$(WORKLOADS)),$(BUILD)/workloads/$(WORKLOAD).elf)
	@test -f "$(PICO_ELF)" || { echo "sim: error: no program '$(PICO_ELF)' (WORKLOAD is one of: $(WORKLOADS); or ELF=path)"; exit 2; }
	@echo "sim: $(PICO_ELF) on picorv32 (RTL) with hwprof_top (RTL), the RVFI adapter's RTL against its C model"
	$(PICO_BIN) $(PICO_ELF)
	@if [ -f "$(BUILD)/instr/$(WORKLOAD)-prof.elf" ]; then \
	  echo "sim: $(BUILD)/instr/$(WORKLOAD)-prof.elf on picorv32: the edge profile read back against the exact counts"; \
	  $(PICO_BIN) --edge-map=$(BUILD)/instr/$(WORKLOAD)-prof.map $(BUILD)/instr/$(WORKLOAD)-prof.elf >/dev/null; \
	fi
else ifneq ($(CORE),model)
sim:
	@echo "sim: error: CORE=$(CORE): the cores are model (the CPU model, default) and picorv32"; exit 2
else
sim: deps-packages
	@+$(SUBMAKE) $(SC_BIN) $(BUILD)/bin/hwprof-sc $(SIM_RUNS)
	@test -f "$(ELF)" || { echo "sim: error: no program '$(ELF)' (WORKLOAD is one of: $(WORKLOADS); or ELF=path)"; exit 2; }
	@echo "sim: $(ELF) on the SystemC platform, hwprof_top as $(ENGINE); the firmware samples traces"
	$(SC_BIN) --engine=$(ENGINE) --progress=2000000 $(ELF)
	@if [ "$(ENGINE)" != rtl ] && [ -f "$(BUILD)/workloads/$(WORKLOAD).elf" ]; then \
	  echo "sim: $(BUILD)/workloads/$(WORKLOAD).elf without firmware, every trace checked end to end"; \
	  out=$$($(SC_BIN) --engine=$(ENGINE) --trace-check $(BUILD)/workloads/$(WORKLOAD).elf 2>&1 >/dev/null); rc=$$?; \
	  echo "$$out" | grep -vE '^  (run|program|system|profile memory|edge profiling|traces|speed):|on the SystemC platform'; \
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
endif

# the block-level co-simulation: RTL and C model of hwprof_top in lockstep on a random stream
sim-blocks: deps-packages
	@+$(SUBMAKE) $(TB_TOP)
	$(TB_TOP) --seed=$(SEED) --cycles=$(CYCLES) --progress=1000000

inject: $(TB_TOP)
	@echo "inject: flipping one bit of the C model's pir update counter at cycle 1000; the bench must report it"
	-$(TB_TOP) --seed=$(SEED) --cycles=200000 --inject=1000

bench: bench-bin $(SIM_BIN) $(SC_BIN) $(PICO_BIN) $(WPP_BIN) workloads $(COP_FW_ELFS:-cop.elf=-cop4.elf) $(COP_FW_ELFS:-cop.elf=-cop16.elf) $(VPEVAL_BIN) \
       $(EMBENCH_VP) $(EMBENCH_GCOV) $(dyntrace_ELFS) $(REPORT_BIN) $(EMBENCH_TRACE_X10) $(DYNRL_X10) $(BIG_DYN_ELFS) $(BIG_ELFS) $(LUA_PHASES)
	@tools/bench.sh "$(BUILD)"

# One program through every profile, and its page (docs/report.md, "One page per run"): a workload by
# name, or any program hwprof-instr takes (PROGRAM=, and VP= its value-profiler build if there is one)
PROGRAM ?= $(BUILD)/instr/$(WORKLOAD).elf
VP      ?= $(if $(filter $(BUILD)/instr/$(WORKLOAD).elf,$(PROGRAM)),$(BUILD)/workloads/$(WORKLOAD)-vp.elf)
report: deps-packages workloads $(WPP_BIN)
	@tools/report_run.sh "$(BUILD)" "$(PROGRAM)" "$(BUILD)/runs/$(basename $(notdir $(PROGRAM)))" $(VP)
	@echo "report: open $(BUILD)/runs/$(basename $(notdir $(PROGRAM)))/report/index.html"

# The load-value profiling figures (docs/vpf.md): measured as in make bench's section 7, drawn
# with Debian's matplotlib (the system Python, where python3-matplotlib installs it)
PLOT_PY ?= /usr/bin/python3
plots: deps $(SIM_BIN) $(WPP_BIN) workloads $(VPEVAL_BIN) $(EMBENCH_VP)
	@$(VENV_PY) tools/valueprof_curves.py "$(BUILD)"
	@tools/valueprof_eval.sh "$(BUILD)"
	@$(PLOT_PY) tools/plot_valueprof.py "$(BUILD)" "$(BUILD)/plots"
	@mkdir -p "$(BUILD)/plots"
	@PLOTS="$(BUILD)/plots" tools/dynopt_bench.sh "$(BUILD)"
	@PLOTS="$(BUILD)/plots" tools/tracecache_bench.sh "$(BUILD)"
	@PLOTS="$(BUILD)/plots" tools/relayout_bench.sh "$(BUILD)"
	@$(SIM_BIN) --quiet --trace-out="$(BUILD)/plots/phases.htr" "$(BUILD)/workloads/phases.elf" >/dev/null && \
	  $(WPP_BIN) analyze --quiet --buckets=16 --trace="$(BUILD)/plots/phases.htr" --elf="$(BUILD)/workloads/phases.elf" \
	    --out="$(BUILD)/plots/wpp-phases" && $(PLOT_PY) tools/plot_wpp.py "$(BUILD)/plots/wpp-phases" "$(BUILD)/plots/wpp-phases.png"
	@tools/pgo_bench.sh "$(BUILD)" >"$(BUILD)/plots/pgo.txt" && $(PLOT_PY) tools/plot_pgo.py "$(BUILD)" "$(BUILD)/plots/pgo.png"
	@echo "plots: the phase timelines in $(BUILD)/plots/dynopt-*.png (with re-layout: dynopt-rl-*.png), the code cache in $(BUILD)/plots/tracecache.png, whole-program paths of phases.c in $(BUILD)/plots/wpp-phases.png, profile-guided builds in $(BUILD)/plots/pgo.png"

synth: deps
	@RTL_SRC="$(RTL_SRC)" synth/run.sh "$(BUILD)/synth"

# ---------------------------------------------------------------- sign-off flows
include mk/gls.mk
include mk/mutate.mk
include mk/campaign.mk

clean:
	rm -rf $(BUILD)
