# Gate-level lockstep (make gls).
# Included by the Makefile in its order: what the files before it define is in scope.

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
	@+$(SUBMAKE) $(GLS_BINS) workloads
	@tools/gls.sh "$(BUILD)"
