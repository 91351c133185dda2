# hwprof on a real core's RTL: picorv32 (PyPI pythondata-cpu-picorv32, installed by make deps into
# $(BUILD)/venv, used as it is) with hwprof_top, joined by the RVFI adapter, in Verilator
# (docs/picorv32.md). Included by the Makefile in its order: what the files before it define is in scope.

PICO_PKG := $(BUILD)/venv/.picorv32
$(PICO_PKG): $(FUSESOC)
	@$(BUILD)/venv/bin/pip install -q --disable-pip-version-check pythondata-cpu-picorv32 && touch $@ \
	  && echo "deps: installed picorv32 (pythondata-cpu-picorv32) in $(BUILD)/venv" \
	  || echo "deps: note: pythondata-cpu-picorv32 could not be installed from PyPI; make sim CORE=picorv32 needs it"
# the package's picorv32.v, or nothing
pico_v = $(shell $(VENV_PY) -c 'import os, pythondata_cpu_picorv32 as p; print(os.path.join(p.data_location, "picorv32.v"))' 2>/dev/null)

PICO_BIN := $(BUILD)/pico/hwprof-pico
PICO_RTL := sim/pico/hwprof_pico_cpu.sv sim/pico/hwprof_pico_sys.sv  # the adapter is in RTL_SRC (rtl/hwprof.f)
PICO_VFLAGS := -Wall -DRISCV_FORMAL -O3 --x-assign fast --x-initial fast --trace-fst
$(PICO_BIN): $(PICO_RTL) sim/pico/pico_main.cpp sim/pico/pico_csr.h sim/pico/pico.vlt $(RTL_SRC) $(VLT) sim/rv32.h $(wildcard tb/check/*.h) \
             $(BUILD)/model/libhwprof_model.a $(BUILD)/simc/libhwprof_simc.a
	@pv="$(pico_v)"; [ -f "$$pv" ] || { echo "pico: picorv32 is not installed (pythondata-cpu-picorv32 from PyPI): run make deps"; exit 1; }
	@mkdir -p $(dir $@)
	@rm -f $@
	$(VERILATOR) --cc --exe --build -j $(JOBS) $(PICO_VFLAGS) -MAKEFLAGS "OPT_FAST=-O2 OPT_GLOBAL=-O2 $(VMAKE_SLOW)" --Mdir $(dir $@)obj \
	  --top-module hwprof_pico_sys \
	  -CFLAGS "-O2 -MP -I$(CURDIR)/sim -I$(CURDIR)/sw/host/profmap -I$(CURDIR)/sw/lib/cfg -I$(CURDIR)/tb -I$(CURDIR)/cmodel -I$(CURDIR)/sw/include -I$(CURDIR)/sw/host/elf -I$(CURDIR)/sw/host/wpp -I$(CURDIR)/sw/host/path -I$(CURDIR)/sw/lib/path $(SC_CFLAGS)" \
	  -LDFLAGS "$(CURDIR)/$(BUILD)/simc/libhwprof_simc.a $(CURDIR)/$(BUILD)/model/libhwprof_model.a -lelf" \
	  -o $(CURDIR)/$@ $(VLT) sim/pico/pico.vlt $(RTL_SRC) $(PICO_RTL) "$(pico_v)" $(CURDIR)/sim/pico/pico_main.cpp \
	  >$(dir $@)build.log 2>&1 || { cat $(dir $@)build.log; exit 1; }

# picorv32 alone and with the RVFI adapter (synth/pico_synth.sv), measured as make synth measures
# blocks (synth/run.sh): cells, transistors, iCE40 LUTs and fmax
synth-pico: deps
	@pv="$(pico_v)"; [ -f "$$pv" ] || { echo "synth-pico: picorv32 is not installed (pythondata-cpu-picorv32 from PyPI): run make deps"; exit 1; }; \
	RTL_SRC="rtl/autogen/hwprof_pkg.sv rtl/core/hwprof_rvfi_adapter.sv synth/pico_synth.sv sim/pico/hwprof_pico_cpu.sv $$(realpath --relative-to=$(CURDIR) $$pv)" \
	  SYNTH_BLOCKS="hwprof_pico_core hwprof_pico_pair" synth/run.sh "$(BUILD)/synth-pico"
