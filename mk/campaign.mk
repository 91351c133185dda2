# The long campaign and coverage (make campaign, make cov).
# Included by the Makefile in its order: what the files before it define is in scope.

# Random lockstep on every bench and configuration over many seeds, and the whole system in lockstep
# on every program, CAMPAIGN_CYCLES (10^9) compared cycles, JOBS at a time, resumable
# (tools/campaign.py, docs/verification.md), on Dask distributed (DASK_SCHEDULER, or a local cluster);
# make test keeps its shorter suite.
campaign: deps
	@+$(SUBMAKE) bench-bin $(SC_BIN) $(SC_CONFIG_BINS) workloads
	@$(VENV_PY) tools/campaign.py "$(BUILD)"

COV_PKGS := lcov
cov: deps
	@$(MAKE) --no-print-directory deps-packages DEB_PKGS="$(COV_PKGS)"
	@+$(SUBMAKE) $(SIM_BIN) workloads
	@COV_INC="$(filter -I%,$(CFLAGS_COMMON)) $(HOST_INC)" RTL_SRC="$(RTL_SRC)" UNIT_SRC="$(sort $(UNIT_SRC) $(REPORT_SRC))" MODEL_SRC="$(MODEL_SRC)" TB_SRC="$(TB_SRC)" INSTR_SRC="$(INSTR_SRC)" \
	  WPP_SRC="$(WPP_SRC)" tools/coverage.sh "$(BUILD)"
