# The cmocka unit tests, the co-processor and value-profile tools, the firmware for RV32.
# Included by the Makefile in its order: what the files before it define is in scope.

UNIT_TESTS := test_pir test_top test_edge_prof test_edge_driver test_trace_roundtrip test_rv32 test_profmap test_cfg \
              test_cop_asm test_cop_interp test_cop_driver test_vp_estimate test_vp_fw test_phase test_phase_truth test_meta \
              test_codecache test_relayout test_wpp test_table_baselines test_sequitur test_path test_path_plan test_prof_coverage test_edge_truth test_report \
              test_rvfi_adapter
UNIT_SRC := $(MODEL_SRC) $(SW_SRC) $(ELF_SRC) tb/lib/progen.c tb/oracle/trace_oracle.c tests/lib/model_sys.c sim/rv32.c tb/oracle/phase_truth.c tb/check/prof_coverage.c tb/oracle/edge_truth.c \
            $(PROFMAP_SRC) $(COP_SRC) $(VP_SRC) $(DYNOPT_SRC) $(CCACHE_SRC) $(filter sw/host/wpp/%,$(WPP_SRC)) $(PATH_SRC)
# each test's source: tests/SUBJECT/NAME.c
unit_src = $(firstword $(wildcard tests/*/$(1).c))
define UNIT_RULE
$(BUILD)/unit/$(1): $(BUILD)/asan/$(basename $(call unit_src,$(1))).o $$(call asan,$$(UNIT_SRC))
	@mkdir -p $$(dir $$@)
	$$(CC) $$(SAN) $$^ -o $$@ $$$$(pkg-config --libs cmocka) -lelf -lm
endef
$(foreach t,$(filter-out test_report,$(UNIT_TESTS)),$(eval $(call UNIT_RULE,$(t))))

# hwprof-report's writers (sw/host/report/): DWARF through libdw
$(BUILD)/unit/test_report: $(BUILD)/asan/tests/report/test_report.o $(call asan,$(UNIT_SRC) $(REPORT_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(SAN) $^ -o $@ $$(pkg-config --libs cmocka) -ldw -lelf -lm

# the same as a library for the benches (Verilator builds C++; these are C)
$(BUILD)/cop/libhwprof_cop.a: $(call obj,$(COP_SRC))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^  # a fresh archive: members of sources since removed must not linger

# hwprof-cpasm: the co-processor's assembler, disassembler and interpreter front end (and an
# ASan/UBSan build that make test drives as a user would)
CPASM_BIN := $(BUILD)/cop/hwprof-cpasm
$(CPASM_BIN): $(call obj,$(COP_SRC) sw/host/cop/hwprof_cpasm.c)
	@mkdir -p $(dir $@)
	$(CC) $^ -o $@
$(BUILD)/unit/hwprof-cpasm-asan: $(call asan,$(COP_SRC) sw/host/cop/hwprof_cpasm.c)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) $^ -o $@

# hwprof-vpeval: a load-value profile against the run's exact one (docs/vpf.md); ASan/UBSan build
# for make test
VPEVAL_BIN := $(BUILD)/vp/hwprof-vpeval
$(VPEVAL_BIN): $(call obj,$(VP_PROFILE_SRC) sw/host/vp/hwprof_vpeval.c)
	@mkdir -p $(dir $@)
	$(CC) $^ -o $@ -lm
$(BUILD)/unit/hwprof-vpeval-asan: $(call asan,$(VP_PROFILE_SRC) sw/host/vp/hwprof_vpeval.c)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) $^ -o $@ -lm

# the firmware sources must also build for the RV32 target
$(BUILD)/rv32/%.o: sw/%.c $(SW_HDR)
	@mkdir -p $(dir $@)
	$(RV32_CC) $(RV32_FLAGS) -c $< -o $@

unit: $(addprefix $(BUILD)/unit/,$(UNIT_TESTS)) $(patsubst sw/%.c,$(BUILD)/rv32/%.o,$(SW_SRC) $(VP_SRC) $(DYNOPT_SRC) $(CCACHE_SRC))
