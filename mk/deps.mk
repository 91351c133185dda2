# The Debian packages and FuseSoC (make deps).
# Included by the Makefile in its order: what the files before it define is in scope.

# the Debian packages of DEB_PKGS (make sim needs nothing else), then FuseSoC, Selenium, Dask and
# picorv32 (mk/pico.mk)
deps: deps-packages
	@$(MAKE) --no-print-directory -s $(FUSESOC) $(SELENIUM) $(DASK) $(PICO_PKG)
deps-packages:
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

# FuseSoC (PyPI) in a virtual environment of the build folder: make test runs its parser and lint
# target on hwprof.core. Without PyPI the core file is still checked (tools/core_check.py).
FUSESOC := $(BUILD)/venv/bin/fusesoc
$(FUSESOC):
	@python3 -m venv $(BUILD)/venv && $(BUILD)/venv/bin/pip install -q --disable-pip-version-check fusesoc \
	  && echo "deps: installed FuseSoC in $(BUILD)/venv" \
	  || echo "deps: note: FuseSoC could not be installed from PyPI; hwprof.core is checked without it"

# Selenium (PyPI) in the same environment: make test drives Debian's chromium through chromedriver
# with it to check the report page (tb/check/html_check.py). Without it that check fails and says why.
SELENIUM := $(BUILD)/venv/.selenium
$(SELENIUM): $(FUSESOC)
	@$(BUILD)/venv/bin/pip install -q --disable-pip-version-check selenium && touch $@ \
	  && echo "deps: installed Selenium in $(BUILD)/venv" \
	  || echo "deps: note: Selenium could not be installed from PyPI; the report page check will fail"

# Dask distributed (PyPI) in the same environment: make campaign and make mutate run their jobs on it
# (tools/job_pool.py), make test kills a worker in the middle of a small campaign. VENV_PY runs them.
VENV_PY := $(BUILD)/venv/bin/python
DASK := $(BUILD)/venv/.dask
$(DASK): $(FUSESOC)
	@$(BUILD)/venv/bin/pip install -q --disable-pip-version-check distributed && touch $@ \
	  && echo "deps: installed Dask distributed in $(BUILD)/venv" \
	  || echo "deps: note: Dask distributed could not be installed from PyPI; make campaign and make mutate need it"
