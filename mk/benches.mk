# The lockstep benches (tb/): every RTL block against its C model, Verilated.
# Included by the Makefile in its order: what the files before it define is in scope.

TB_TOP := $(BUILD)/tb_top/Vhwprof_top
VFLAGS := -Wall --assert --trace-fst -O3 --x-assign fast --x-initial fast

# C helpers of the benches (built with the C compiler; Verilator would compile .c files as C++)
$(BUILD)/tbc/%.o: tb/lib/%.c tb/lib/%.h $(MODEL_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -Itb -O2 -c $< -o $@

$(BUILD)/tbc/libhwprof_tbc.a: $(BUILD)/tbc/progen.o
	rm -f $@ && ar rcs $@ $^  # a fresh archive: members of sources since removed must not linger

TB_SRC := tb/top/tb_top.cpp tb/lib/lockstep.cpp tb/top/top_steps.cpp tb/pir/steps_pir.cpp tb/edge_prof/steps_edge_prof.cpp tb/trace_ctrl/steps_trace_ctrl.cpp \
          tb/cop/steps_cop.cpp
TB_DEPS := $(RTL_SRC) $(VLT) $(TB_SRC) $(wildcard tb/top/*.h tb/lib/*.h) $(BUILD)/model/libhwprof_model.a \
           $(BUILD)/tbc/libhwprof_tbc.a

# Bench configurations: the RTL parameters are fixed when Verilator builds a bench, and the same
# values reach the C model through HWPROF_PARAM_*.
# NAME:CntW:UpdDepth:Sets:Ways:LineWords:OabDepth:HistW:TraceFifoDepth; "top" is hwprof_top's default
# configuration, read from regs/encodings.json (the parameters' one source)
DEFAULT_CFG := $(shell python3 -c 'import json; print(":".join(str(c["default"]) for c in \
                 json.load(open("regs/encodings.json"))["config"]))')
TB_CONFIGS := top:$(DEFAULT_CFG) small:32:2:2:1:2:4:8:2 large:32:8:16:4:4:16:16:32 xinit:$(DEFAULT_CFG) \
              c8:8:4:4:2:4:8:32:8 c16:16:2:8:8:8:4:16:4 c64:64:4:4:4:8:8:32:8
# xinit: the default configuration with every variable's initial value drawn at run time (zeros, or
# random with HWPROF_RAND_RESET=SEED, tb/lib/verilated_top.h): a register the reset misses shows
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
	$(VERILATOR) --cc --exe --build -j $(JOBS) -MAKEFLAGS "$(VMAKE_SLOW)" $(4) --Mdir $$(dir $$@)obj \
	  --top-module hwprof_top \
	  -CFLAGS "-O2 -MP -I$(CURDIR)/tb -I$(CURDIR)/cmodel -I$(CURDIR)/sw/include \
	    -DHWPROF_PARAM_CNTW=$(call tb_field,$(1),2) -DHWPROF_PARAM_UPDDEPTH=$(call tb_field,$(1),3) \
	    -DHWPROF_PARAM_SETS=$(call tb_field,$(1),4) -DHWPROF_PARAM_WAYS=$(call tb_field,$(1),5) \
	    -DHWPROF_PARAM_LINEWORDS=$(call tb_field,$(1),6) -DHWPROF_PARAM_OABDEPTH=$(call tb_field,$(1),7) \
	    -DHWPROF_PARAM_HISTW=$(call tb_field,$(1),8) -DHWPROF_PARAM_TFIFO=$(call tb_field,$(1),9)" \
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
$(BUILD)/tb_$(1)/V$(2): rtl/prim/$(2).sv $(VLT) tb/prim/tb_$(2:hwprof_%=%).cpp tb/lib/lockstep.cpp tb/lib/lockstep.h \
    tb/lib/verilated_top.h $(BUILD)/model/libhwprof_model.a
	@mkdir -p $$(dir $$@)
	@rm -f $$@  # relink: Verilator's own make does not see the libraries change
	$(VERILATOR) --cc --exe --build -j $(JOBS) -MAKEFLAGS "$(VMAKE_SLOW)" $(VFLAGS) --Mdir $$(dir $$@)obj --top-module $(2) $(3) \
	  -CFLAGS "-O2 -MP -I$(CURDIR)/tb -I$(CURDIR)/cmodel -I$(CURDIR)/sw/include $(4)" \
	  -LDFLAGS "$(CURDIR)/$(BUILD)/model/libhwprof_model.a" \
	  -o $(CURDIR)/$$@ $(VLT) rtl/prim/$(2).sv $(CURDIR)/tb/prim/tb_$(2:hwprof_%=%).cpp $(CURDIR)/tb/lib/lockstep.cpp \
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
# the register file, NAME:N:W (the co-processor's registers and small arrays)
PRIM_REGFILE_CONFIGS := prim_regfile:16:32 prim_regfile_n1:1:7
$(foreach c,$(PRIM_REGFILE_CONFIGS),$(eval $(call PRIM_RULE,$(call tb_field,$(c),1),hwprof_prim_regfile,\
  -GN=$(call tb_field,$(c),2) -GW=$(call tb_field,$(c),3),\
  -DPRIM_REGFILE_N=$(call tb_field,$(c),2) -DPRIM_REGFILE_W=$(call tb_field,$(c),3))))
# The co-processor engine's lockstep bench (tb/cop/tb_cop.cpp: the RTL against the C model every cycle,
# and the architectural state against the instruction-level interpreter), NAME:UcDepth:CamEntries:DataBytes
COP_CONFIGS := cop:64:256:2048 cop_small:8:4:32 cop_big:64:512:4096
# COP_RULE: $(1) NAME:UcDepth:CamEntries:DataBytes, $(2) the bench's directory, $(3) the hardware's
# sources, $(4) Verilator's flags (with the RTL's -G parameters), $(5) further prerequisites
cop_gflags = -GUcDepth=$(call tb_field,$(1),2) -GCamEntries=$(call tb_field,$(1),3) -GDataBytes=$(call tb_field,$(1),4)
define COP_RULE
$(2)/Vhwprof_cop: $(RTL_COP) $(VLT) tb/cop/tb_cop.cpp tb/lib/lockstep.cpp tb/lib/lockstep.h tb/lib/verilated_top.h \
    $(BUILD)/model/libhwprof_model.a $(BUILD)/cop/libhwprof_cop.a $(5)
	@mkdir -p $$(dir $$@)
	@rm -f $$@  # relink: Verilator's own make does not see the libraries change
	$(VERILATOR) --cc --exe --build -j $(JOBS) -MAKEFLAGS "$(VMAKE_SLOW)" $(4) --Mdir $$(dir $$@)obj --top-module hwprof_cop \
	  -CFLAGS "-O2 -MP -I$(CURDIR)/tb -I$(CURDIR)/cmodel -I$(CURDIR)/sw/include -I$(CURDIR)/sw/host/cop \
	    -DCOP_UC=$(call tb_field,$(1),2) -DCOP_CAM=$(call tb_field,$(1),3) -DCOP_DATA=$(call tb_field,$(1),4)" \
	  -LDFLAGS "$(CURDIR)/$(BUILD)/model/libhwprof_model.a $(CURDIR)/$(BUILD)/cop/libhwprof_cop.a" \
	  -o $(CURDIR)/$$@ $(3) $(CURDIR)/tb/cop/tb_cop.cpp $(CURDIR)/tb/lib/lockstep.cpp \
	  >$$(dir $$@)build.log 2>&1 || { cat $$(dir $$@)build.log; exit 1; }
endef
$(foreach c,$(COP_CONFIGS),$(eval $(call COP_RULE,$(c),$(BUILD)/tb_$(call tb_field,$(c),1),$(VLT) $(RTL_COP),\
  $(VFLAGS) $(call cop_gflags,$(c)))))
COP_BINS := $(foreach c,$(COP_CONFIGS),$(BUILD)/tb_$(call tb_field,$(c),1)/Vhwprof_cop)

# The value-profiling front end's lockstep bench (tb/vpf/tb_vpf.cpp: filters, prescaler and sample buffer,
# the RTL against the C model every cycle and against the bench's record-level reference),
# NAME:SbufWords:BitmaskBits
VPF_CONFIGS := vpf:256:4096 vpf_small:8:32
# VPF_RULE: $(1) NAME:SbufWords:BitmaskBits, $(2) the bench's directory, $(3) the hardware's sources,
# $(4) Verilator's flags (with the RTL's -G parameters), $(5) further prerequisites
vpf_gflags = -GSbufWords=$(call tb_field,$(1),2) -GBitmaskBits=$(call tb_field,$(1),3)
define VPF_RULE
$(2)/Vhwprof_vpf: $(RTL_VPF) $(VLT) tb/vpf/tb_vpf.cpp tb/lib/lockstep.cpp tb/lib/lockstep.h tb/lib/verilated_top.h \
    $(BUILD)/model/libhwprof_model.a $(5)
	@mkdir -p $$(dir $$@)
	@rm -f $$@  # relink: Verilator's own make does not see the libraries change
	$(VERILATOR) --cc --exe --build -j $(JOBS) -MAKEFLAGS "$(VMAKE_SLOW)" $(4) --Mdir $$(dir $$@)obj --top-module hwprof_vpf \
	  -CFLAGS "-O2 -MP -I$(CURDIR)/tb -I$(CURDIR)/cmodel -I$(CURDIR)/sw/include \
	    -DVPF_WORDS=$(call tb_field,$(1),2) -DVPF_BITS=$(call tb_field,$(1),3)" \
	  -LDFLAGS "$(CURDIR)/$(BUILD)/model/libhwprof_model.a" \
	  -o $(CURDIR)/$$@ $(3) $(CURDIR)/tb/vpf/tb_vpf.cpp $(CURDIR)/tb/lib/lockstep.cpp \
	  >$$(dir $$@)build.log 2>&1 || { cat $$(dir $$@)build.log; exit 1; }
endef
$(foreach c,$(VPF_CONFIGS),$(eval $(call VPF_RULE,$(c),$(BUILD)/tb_$(call tb_field,$(c),1),$(VLT) $(RTL_VPF),\
  $(VFLAGS) $(call vpf_gflags,$(c)))))
VPF_BINS := $(foreach c,$(VPF_CONFIGS),$(BUILD)/tb_$(call tb_field,$(c),1)/Vhwprof_vpf)

# The RVFI adapter's lockstep unit bench (rtl/core/ against cmodel/core/; docs/picorv32.md)
TB_ADAPTER := $(BUILD)/tb_rvfi_adapter/Vhwprof_rvfi_adapter
$(TB_ADAPTER): rtl/autogen/hwprof_pkg.sv rtl/core/hwprof_rvfi_adapter.sv $(VLT) tb/core/tb_rvfi_adapter.cpp tb/lib/lockstep.cpp \
    tb/lib/lockstep.h tb/lib/verilated_top.h $(BUILD)/model/libhwprof_model.a
	@mkdir -p $(dir $@)
	@rm -f $@  # relink: Verilator's own make does not see the libraries change
	$(VERILATOR) --cc --exe --build -j $(JOBS) -MAKEFLAGS "$(VMAKE_SLOW)" $(VFLAGS) --Mdir $(dir $@)obj --top-module hwprof_rvfi_adapter \
	  -CFLAGS "-O2 -MP -I$(CURDIR)/tb -I$(CURDIR)/cmodel -I$(CURDIR)/sw/include" \
	  -LDFLAGS "$(CURDIR)/$(BUILD)/model/libhwprof_model.a" \
	  -o $(CURDIR)/$@ $(VLT) rtl/autogen/hwprof_pkg.sv rtl/core/hwprof_rvfi_adapter.sv $(CURDIR)/tb/core/tb_rvfi_adapter.cpp \
	  $(CURDIR)/tb/lib/lockstep.cpp >$(dir $@)build.log 2>&1 || { cat $(dir $@)build.log; exit 1; }

PRIM_BINS := $(foreach c,$(PRIM_FIFO_CONFIGS),$(BUILD)/tb_$(call tb_field,$(c),1)/Vhwprof_prim_fifo) \
             $(foreach c,$(PRIM_COUNTERS_CONFIGS),$(BUILD)/tb_$(call tb_field,$(c),1)/Vhwprof_prim_counters) \
             $(foreach c,$(PRIM_REGFILE_CONFIGS),$(BUILD)/tb_$(call tb_field,$(c),1)/Vhwprof_prim_regfile)

# The register generator's conformance bench: the conformance block (tools/reggen/conformance/conf.json,
# every access kind and option) generated into $(BUILD)/regconf with the same emitters as the engines'
# blocks, its RTL against its C twin in lockstep (tb/regs/tb_reg_conformance.cpp).
REGCONF := $(BUILD)/regconf
$(REGCONF)/stamp: tools/regtool.py $(wildcard tools/reggen/*.py) tools/reggen/conformance/conf.json regs/encodings.json
	@mkdir -p $(dir $@)
	python3 tools/regtool.py --conformance $(REGCONF) && touch $@
$(REGCONF)/conf_reg.o: $(REGCONF)/stamp cmodel/ports.h
	$(CC) $(CFLAGS_COMMON:-Isw/include=-I$(REGCONF)/sw/include -Isw/include) -I$(REGCONF)/cmodel/conf/autogen -O2 \
	  -c $(REGCONF)/cmodel/conf/autogen/conf_reg.c -o $@
$(BUILD)/tb_reg_conformance/Vhwprof_conf_reg: $(REGCONF)/conf_reg.o tb/regs/tb_reg_conformance.cpp tb/lib/lockstep.cpp \
    tb/lib/lockstep.h tb/lib/verilated_top.h $(VLT)
	@mkdir -p $(dir $@)
	@rm -f $@  # relink: Verilator's own make does not see the libraries change
	$(VERILATOR) --cc --exe --build -j $(JOBS) -MAKEFLAGS "$(VMAKE_SLOW)" $(VFLAGS) --Mdir $(dir $@)obj --top-module hwprof_conf_reg \
	  -CFLAGS "-O2 -MP -I$(CURDIR)/$(REGCONF)/tb -I$(CURDIR)/$(REGCONF)/cmodel/conf/autogen -I$(CURDIR)/$(REGCONF)/sw/include \
	    -I$(CURDIR)/tb -I$(CURDIR)/cmodel -I$(CURDIR)/sw/include" \
	  -LDFLAGS "$(CURDIR)/$(REGCONF)/conf_reg.o" \
	  -o $(CURDIR)/$@ $(VLT) $(REGCONF)/rtl/autogen/hwprof_pkg.sv $(REGCONF)/rtl/conf/autogen/hwprof_conf_reg.sv \
	  $(CURDIR)/tb/regs/tb_reg_conformance.cpp $(CURDIR)/tb/lib/lockstep.cpp >$(dir $@)build.log 2>&1 \
	  || { cat $(dir $@)build.log; exit 1; }
REGCONF_BIN := $(BUILD)/tb_reg_conformance/Vhwprof_conf_reg

bench-bin: $(TB_BINS) $(PRIM_BINS) $(REGCONF_BIN) $(COP_BINS) $(VPF_BINS) $(TB_ADAPTER)
