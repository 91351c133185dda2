# Host C objects (optimized and sanitized) and the C model library.
# Included by the Makefile in its order: what the files before it define is in scope.

# Every host C source is compiled once per flavour and linked into whatever needs it: optimized in
# $(BUILD)/obj/ (the tools, the platforms, the benches' libraries), with ASan+UBSan in $(BUILD)/asan/
# (the unit tests and the sanitized tools make test drives). The compiler writes each object's
# header dependencies beside it (-MMD). One include path for all: no two headers share a name.
HOST_INC := -Itb -Itests -Isim -Isw/host/instr -Isw/host/rewrite -Isw/host/cop -Isw/host/vp -Isw/fw/vp -Isw/fw/dynopt -Isw/host/wpp -Isw/host/path -Isw/lib/path -Isw/host/report
obj  = $(sort $(patsubst %.c,$(BUILD)/obj/%.o,$(1)))
asan = $(sort $(patsubst %.c,$(BUILD)/asan/%.o,$(1)))
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(HOST_INC) -O2 -MMD -MP -c $< -o $@
$(BUILD)/asan/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(HOST_INC) -g -O1 $(SAN) -MMD -MP -c $< -o $@
-include $(wildcard $(addprefix $(BUILD)/obj/,*/*.d */*/*.d */*/*/*.d) $(addprefix $(BUILD)/asan/,*/*.d */*/*.d */*/*/*.d))

# ---------------------------------------------------------------- C model library (for the benches)
$(BUILD)/model/libhwprof_model.a: $(call obj,$(MODEL_SRC))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^  # a fresh archive: members of sources since removed must not linger
