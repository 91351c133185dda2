# The two platforms: hwprof-sim (C only) and hwprof-sc (SystemC).
# Included by the Makefile in its order: what the files before it define is in scope.

INSTR_SRC := $(ELF_SRC) $(CFG_SRC) $(RW_SRC) $(filter sw/host/profmap/%,$(PROFMAP_SRC)) sw/lib/meta.c sw/host/instr/instrument.c sw/host/instr/edge_select.c sw/host/instr/edge_plan.c sw/host/instr/emit.c sw/host/instr/landing.c sw/host/instr/millicode.c sw/host/instr/path_instr.c sw/host/instr/path_weights.c sw/host/instr/linkage.c \
             $(PATH_SRC) $(PATH_HOST_SRC)
# What both runners link (sim/runner.c: the shared options, checks, oracles and outputs)
RUNNER_SRC := sim/rv32.c sim/runner.c sim/trace_drain.c $(wildcard tb/check/*.c) $(wildcard tb/oracle/*.c) \
              $(WPP_FILE_SRC) sw/fw/drivers/hwprof_trace.c sw/fw/drivers/hwprof_edge.c sw/lib/trace_recon.c sw/lib/image.c $(ELF_SRC) \
              sw/host/elf/hwprof_cfg_prog.c $(PROFMAP_SRC) $(PATH_SRC) $(PATH_HOST_SRC)
SIM_SRC  := $(RUNNER_SRC) sim/platform.c sim/hwprof_sim.c $(MODEL_SRC)
SIM_BIN  := $(BUILD)/sim/hwprof-sim
$(SIM_BIN): $(call obj,$(SIM_SRC))
	@mkdir -p $(dir $@)
	$(CC) $^ -o $@ -lelf

# The SystemC platform (sim/sc/): the CPU model, APB, the profile memory and hwprof_top as the
# Verilated RTL (verilator --sc), the C model, or both in lockstep, chosen at run time. Built for the
# default configuration of hwprof_top (the "top" bench configuration).
SC_CFG     := $(word 1,$(TB_CONFIGS))
SC_CFLAGS  := -DHWPROF_PARAM_CNTW=$(call tb_field,$(SC_CFG),2) -DHWPROF_PARAM_UPDDEPTH=$(call tb_field,$(SC_CFG),3) \
              -DHWPROF_PARAM_SETS=$(call tb_field,$(SC_CFG),4) -DHWPROF_PARAM_WAYS=$(call tb_field,$(SC_CFG),5) \
              -DHWPROF_PARAM_LINEWORDS=$(call tb_field,$(SC_CFG),6) -DHWPROF_PARAM_OABDEPTH=$(call tb_field,$(SC_CFG),7) \
              -DHWPROF_PARAM_HISTW=$(call tb_field,$(SC_CFG),8) -DHWPROF_PARAM_TFIFO=$(call tb_field,$(SC_CFG),9)
SC_SRC     := $(wildcard sim/sc/*.cpp) tb/lib/lockstep.cpp
SC_HDR     := $(wildcard sim/sc/*.h) tb/lib/lockstep.h tb/top/top_compare.h tb/top/top_ports.h tb/lib/port_protocol.h
SIMC_SRC   := $(RUNNER_SRC)
SC_BIN     := $(BUILD)/sc/hwprof-sc
$(BUILD)/simc/libhwprof_simc.a: $(call obj,$(SIMC_SRC))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^  # a fresh archive: members of sources since removed must not linger
# SC_RULE: $(1) the binary, $(2) the hardware's sources (RTL or a netlist), $(3) Verilator's flags
# (with the RTL's -G parameters), $(4) further prerequisites, $(5) the C side's configuration flags
# (default SC_CFLAGS)
define SC_RULE
$(1): $(SC_SRC) $(SC_HDR) tb/lib/apb_master.h sim/platform.h sim/rv32.h sim/runner.h $(wildcard tb/check/*.h tb/oracle/*.h) sim/trace_drain.h \
           $(BUILD)/model/libhwprof_model.a $(BUILD)/simc/libhwprof_simc.a $(4)
	@mkdir -p $$(dir $$@)
	@rm -f $$@  # relink: Verilator's own make does not see the libraries change
	@# -MP in -CFLAGS: a header since moved or removed does not stop Verilator's own make
	$(VERILATOR) --sc --exe --build -j $(JOBS) $(3) -MAKEFLAGS "OPT_FAST=-O2 OPT_GLOBAL=-O2 $(VMAKE_SLOW)" --Mdir $$(dir $$@)obj --top-module hwprof_top \
	  -CFLAGS "-O2 -MP -I$(CURDIR)/sim/sc -I$(CURDIR)/sim -I$(CURDIR)/sw/host/profmap -I$(CURDIR)/sw/lib/cfg -I$(CURDIR)/tb -I$(CURDIR)/cmodel -I$(CURDIR)/sw/include -I$(CURDIR)/sw/host/elf -I$(CURDIR)/sw/host/wpp -I$(CURDIR)/sw/host/path -I$(CURDIR)/sw/lib/path $(if $(5),$(5),$(SC_CFLAGS))" \
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
sc_cflags = -DHWPROF_PARAM_CNTW=$(call tb_field,$(1),2) -DHWPROF_PARAM_UPDDEPTH=$(call tb_field,$(1),3) \
            -DHWPROF_PARAM_SETS=$(call tb_field,$(1),4) -DHWPROF_PARAM_WAYS=$(call tb_field,$(1),5) \
            -DHWPROF_PARAM_LINEWORDS=$(call tb_field,$(1),6) -DHWPROF_PARAM_OABDEPTH=$(call tb_field,$(1),7) \
            -DHWPROF_PARAM_HISTW=$(call tb_field,$(1),8) -DHWPROF_PARAM_TFIFO=$(call tb_field,$(1),9)
SC_CONFIG_BINS := $(foreach c,$(SC_CONFIGS),$(BUILD)/sc_$(c)/hwprof-sc)
$(foreach c,$(SC_CONFIGS),$(eval $(call SC_RULE,$(BUILD)/sc_$(c)/hwprof-sc,$(VLT) $(RTL_SRC),$(VFLAGS) $(call tb_gflags,$(call sc_cfg_of,$(c))),$(RTL_SRC) $(VLT),$(call sc_cflags,$(call sc_cfg_of,$(c))))))
