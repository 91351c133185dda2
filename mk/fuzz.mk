# Fuzzing (make fuzz).
# Included by the Makefile in its order: what the files before it define is in scope.

# libFuzzer (Debian's clang) with ASan and UBSan on every parser of input; not part of make test:
# make fuzz [FUZZ_SECONDS=N per target] [FUZZ_TARGETS="elf map ..."]. Seeds are the project's own files.
FUZZ_PKGS := clang libclang-rt-14-dev
FUZZ_CC := clang
FUZZ_SECONDS ?= 120
FUZZ_TARGETS ?= elf instr map profile meta cop_asm cop_image wpp_trace wpp_index path_files report_files regtool
FUZZ_FLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
              -Isw/include -Isw/host/elf \
              -Isw/lib/cfg -Isw/host/profmap -Isw/host/instr -Isw/host/rewrite -Isw/host/path -Isw/lib/path -Isw/host/cop -Isw/fw/dynopt -Isw/host/wpp -Isw/host/report -Isw/host/vp -Isw/fw/vp -Ifuzz
FUZZ_SRC_elf := $(ELF_SRC) sw/lib/image.c
FUZZ_SRC_instr := $(INSTR_SRC) sw/lib/image.c
FUZZ_SRC_map := $(PROFMAP_SRC)
FUZZ_SRC_profile := $(PROFMAP_SRC)
FUZZ_SRC_meta := sw/lib/meta.c
FUZZ_SRC_cop_asm := $(COP_SRC)
FUZZ_SRC_cop_image := $(COP_SRC)
FUZZ_SRC_wpp_trace := sw/host/wpp/trace_file.c sw/host/wpp/block_stream.c sw/host/wpp/chain_table.c sw/host/wpp/cycles.c sw/lib/trace_recon.c sw/lib/image.c
FUZZ_SRC_wpp_index := sw/host/wpp/wpp_index.c sw/host/wpp/trace_file.c
FUZZ_SRC_path_files := sw/host/path/pp_compare.c
FUZZ_SRC_report_files := sw/host/report/run_files.c $(VP_PROFILE_SRC)
$(BUILD)/fuzz/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz_file.h $(INSTR_SRC) $(PROFMAP_SRC) $(COP_SRC) sw/lib/image.c \
                     $(SW_HDR) $(ELF_HDR) $(PROFMAP_HDR) $(COP_HDR) $(WPP_SRC) $(WPP_HDR) $(REPORT_SRC) | fuzz-deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $< $(FUZZ_SRC_$*) -o $@ -lelf
fuzz-deps:
	@$(MAKE) --no-print-directory deps-packages DEB_PKGS="$(FUZZ_PKGS)"
# (regtool: the register generator, in Python, by tools/fuzz_regtool.py: no binary)
fuzz: $(addprefix $(BUILD)/fuzz/fuzz_,$(filter-out regtool,$(FUZZ_TARGETS))) workloads $(CPASM_BIN) $(WPP_BIN)
	@FUZZ_SECONDS=$(FUZZ_SECONDS) tools/fuzz.sh "$(BUILD)" $(FUZZ_TARGETS)
.PHONY: fuzz fuzz-deps
