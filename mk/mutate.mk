# Mutation testing (make mutate).
# Included by the Makefile in its order: what the files before it define is in scope.

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
	@+$(SUBMAKE) $(MUTATE_BINS)
	@MUTANTS_PER_MODULE=$(MUTANTS_PER_MODULE) MUTATE_SEED=$(MUTATE_SEED) $(VENV_PY) tools/mutate.py run $(BUILD)
	@python3 tools/mutate.py equiv $(BUILD)
	@MUTANTS_PER_MODULE=$(MUTANTS_PER_MODULE) MUTATE_SEED=$(MUTATE_SEED) python3 tools/mutate.py report $(BUILD) \
	  | tee $(MUTATE_DIR)/report.txt
# the fast subset's survivors through the long suite (about make test's lengths), then the report
mutate-deep: mutate
	@MUTANTS_PER_MODULE=$(MUTANTS_PER_MODULE) MUTATE_SEED=$(MUTATE_SEED) $(VENV_PY) tools/mutate.py run --deep $(BUILD)
	@MUTANTS_PER_MODULE=$(MUTANTS_PER_MODULE) MUTATE_SEED=$(MUTATE_SEED) python3 tools/mutate.py report $(BUILD) \
	  | tee $(MUTATE_DIR)/report.txt
FORCE:
