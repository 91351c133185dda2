# The RV32 programs: workloads and their firmware builds, instrumented, gcov and dynamic
# optimizer builds, Embench, the large programs; the instrumenter and hwprof-wpp.
# Included by the Makefile in its order: what the files before it define is in scope.

# Workloads: real C programs, picolibc with semihosting, linked at the platform's RAM base
# (regs/encodings.json PLAT_RAM_BASE, 0x80000000 as QEMU virt's RAM): 2 MiB of code, then 2 MiB of data
PLAT_RAM_BASE := $(shell sed -n 's/^\#define HWPROF_PLAT_RAM_BASE \(0x[0-9a-f]*\)u.*/\1/p' sw/include/autogen/hwprof_regs.h)
WL_DATA_BASE  := $(shell printf '0x%x' $$(( $(PLAT_RAM_BASE) + 0x200000 )))
WORKLOADS := sort hashtab interp lz graph matrix
WL_FLAGS := --specs=picolibc.specs --oslib=semihost --crt0=semihost -march=rv32im -mabi=ilp32 -O2 -g \
            -Wall -Wextra -Werror -Wl,--defsym=__flash=$(PLAT_RAM_BASE) -Wl,--defsym=__flash_size=0x200000 \
            -Wl,--defsym=__ram=$(WL_DATA_BASE) -Wl,--defsym=__ram_size=0x200000
WL_ELFS  := $(addprefix $(BUILD)/workloads/,$(addsuffix .elf,$(WORKLOADS)))
$(BUILD)/workloads/%.elf: sim/workloads/%.c sim/workloads/common.h
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) $< -o $@

# The firmware's sources (drivers, the optimizers, the portable libraries) are compiled once for each
# flag set, the workloads' (wl) and Embench's (eb), and linked into every program that runs them in
# the order listed (the programs come out as they did when each link compiled them again); a runtime
# (sw/fw/rt/) once for each build of it, with that build's flags.
fwobj = $(patsubst %.c,$(BUILD)/fwobj/$(1)/%.o,$(2))
# The runtimes keep their large state in .noinit (the start-up code does not clear it); picolibc's
# linker script has no rule for that section, which lands after .bss, where the heap starts: every
# program linked with a runtime starts its heap after it, so that malloc cannot overwrite it
RT_HEAP := '-Wl,--defsym=__heap_start=ADDR(.noinit)+SIZEOF(.noinit)'
$(BUILD)/fwobj/wl/%.o: %.c $(DYNOPT_HDR) $(SW_HDR)
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -Isw/include -Isw/fw/dynopt -c $< -o $@
$(BUILD)/fwobj/eb/%.o: %.c $(DYNOPT_HDR) $(SW_HDR) sim/embench/boardsupport.h
	@mkdir -p $(dir $@)
	$(RV32_CC) $(EMBENCH_FLAGS) -Isw/include -Isw/fw/dynopt -I$(EMBENCH)/support -c $< -o $@

# The same workloads with the firmware runtime (sw/fw/rt/hwprof_rt.c): main becomes workload_main, the
# runtime configures the trace controller and handles its interrupts with the drivers of sw/.
FW_SRC   := sw/fw/drivers/hwprof_trace.c sw/fw/drivers/hwprof_edge.c
FW_ELFS  := $(addprefix $(BUILD)/workloads/,$(addsuffix -fw.elf,$(WORKLOADS)))
$(BUILD)/fwobj/rt/hwprof_rt.o: sw/fw/rt/hwprof_rt.c $(SW_HDR)
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -march=rv32im_zicsr -Isw/include -c $< -o $@
$(BUILD)/workloads/%-fw.elf: sim/workloads/%.c sim/workloads/common.h $(BUILD)/fwobj/rt/hwprof_rt.o $(call fwobj,wl,$(FW_SRC)) $(SW_HDR)
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -Isw/include -Dmain=workload_main -c $< -o $(@:.elf=.o)
	$(RV32_CC) $(WL_FLAGS) $(RT_HEAP) -Isw/include $(@:.elf=.o) $(BUILD)/fwobj/rt/hwprof_rt.o $(call fwobj,wl,$(FW_SRC)) -o $@

# ... and with the trace-driven optimizer (docs/dynopt.md, "Hot traces into the code cache"): the same
# runtime built with HWPROF_TRACE_CACHE places hot traces in a code cache, the first 64 KiB of RAM
# (the symbols hwprof_code_cache and hwprof_code_cache_end), the program linked behind it, and its
# exits' trampolines in the 64 KiB below 1 MiB (hwprof_trampolines, hwprof_trampolines_end): every
# way between the cache and the code is a backward jump, which ends a trace. Every jump must be in
# reach (1 MiB: the firmware refuses to start if the program's image reaches the trampolines).
TC_SRC      := $(FW_SRC) $(CCACHE_SRC) sw/lib/trace_recon.c sw/lib/image.c
TC_HDR      := $(DYNOPT_HDR)
TC_CODE_AT  := $(shell printf '0x%x' $$(( $(PLAT_RAM_BASE) + 0x10000 )))
TC_TRAMP_AT := $(shell printf '0x%x' $$(( $(PLAT_RAM_BASE) + 0xf0000 )))
TC_TRAMP_END := $(shell printf '0x%x' $$(( $(PLAT_RAM_BASE) + 0x100000 )))
tc_flags     = $(subst __flash=$(PLAT_RAM_BASE),__flash=$(TC_CODE_AT),$(subst __flash_size=0x200000,__flash_size=0x1f0000,$(1))) \
               -Wl,--defsym=hwprof_code_cache=$(PLAT_RAM_BASE) -Wl,--defsym=hwprof_code_cache_end=$(TC_CODE_AT) \
               -Wl,--defsym=hwprof_trampolines=$(TC_TRAMP_AT) -Wl,--defsym=hwprof_trampolines_end=$(TC_TRAMP_END)
TC_WL_FLAGS := $(call tc_flags,$(WL_FLAGS))
# build/tcache/: every program with that runtime, -fw without the cache and -tc with it (make test,
# make bench section 9). Both sample with jitter (hwprof_trace_table_jitter): a loop that enters a
# placed trace comes round in a cycle of a few traces (the patch's jump is one), and a fixed 1 in 2 or
# 1 in 3 would only ever see one of them
TC_SAMPLING := -DSAMPLE_JITTER=0x1d872b41u
TC_PROGRAMS := $(WORKLOADS) phases stable
TC_ELFS     := $(foreach p,$(TC_PROGRAMS),$(BUILD)/tcache/$(p)-fw.elf $(BUILD)/tcache/$(p)-tc.elf)
# (the runtime of each, -fw and -tc, is compiled once, for the workloads and Embench alike: their
# flags differ only in what they tell the linker)
define TC_WORKLOAD_RULE
$(BUILD)/fwobj/rt-$(1)/hwprof_rt.o: sw/fw/rt/hwprof_rt.c $(TC_HDR) $(SW_HDR)
	@mkdir -p $$(dir $$@)
	$(RV32_CC) $(2) -march=rv32im_zicsr -Isw/include -Isw/fw/dynopt $(3) -c $$< -o $$@
$(BUILD)/tcache/%-$(1).elf: sim/workloads/%.c sim/workloads/common.h $(BUILD)/fwobj/rt-$(1)/hwprof_rt.o $(call fwobj,wl,$(4)) $(SW_HDR)
	@mkdir -p $$(dir $$@)
	$(RV32_CC) $(2) -Isw/include -Dmain=workload_main -c $$< -o $$(@:.elf=.o)
	$(RV32_CC) $(2) $(RT_HEAP) -Isw/include -Isw/fw/dynopt $$(@:.elf=.o) $(BUILD)/fwobj/rt-$(1)/hwprof_rt.o $(call fwobj,wl,$(4)) -o $$@
endef
$(eval $(call TC_WORKLOAD_RULE,fw,$(WL_FLAGS),$(TC_SAMPLING),$(FW_SRC)))
$(eval $(call TC_WORKLOAD_RULE,tc,$(TC_WL_FLAGS),$(TC_SAMPLING) -DHWPROF_TRACE_CACHE,$(TC_SRC)))

# The same workloads with the value-profiling runtime (sw/fw/rt/cop_rt.c): the co-processor runs
# sw/fw/cop/examples/load_count.s (embedded by hwprof-cpasm --c) on every load, the runtime is its
# interrupt handler (sw/fw/drivers/hwprof_cop.c) and checks the accounting at the end. -cop<N>: prescaler N.
COP_FW_PROG := sw/fw/cop/examples/load_count.s
COP_FW_ELFS := $(addprefix $(BUILD)/workloads/,$(addsuffix -cop.elf,$(WORKLOADS)))
$(BUILD)/fw/cop_image.c: $(COP_FW_PROG) $(CPASM_BIN)
	@mkdir -p $(dir $@)
	$(CPASM_BIN) --c cop_image $(COP_FW_PROG) -o $@
define COP_FW_RULE
$(BUILD)/workloads/%-cop$(1).elf: sim/workloads/%.c sim/workloads/common.h sw/fw/rt/cop_rt.c sw/fw/rt/cop_rt_common.h sw/fw/rt/rt_counters.h sw/fw/drivers/hwprof_cop.c $(BUILD)/fw/cop_image.c $(SW_HDR)
	@mkdir -p $$(dir $$@)
	$(RV32_CC) $(WL_FLAGS) -Isw/include -Dmain=workload_main -c $$< -o $$(@:.elf=.o)
	$(RV32_CC) $(WL_FLAGS) -march=rv32im_zicsr -Isw/include $(if $(1),-DCOP_PRESCALE=$(1)u) -c sw/fw/rt/cop_rt.c -o $$(@:.elf=-rt.o)
	$(RV32_CC) $(WL_FLAGS) -Isw/include $$(@:.elf=.o) $$(@:.elf=-rt.o) sw/fw/drivers/hwprof_cop.c $(BUILD)/fw/cop_image.c -o $$@
endef
$(eval $(call COP_FW_RULE,))
$(eval $(call COP_FW_RULE,4))
$(eval $(call COP_FW_RULE,16))

# The same workloads with the load-value profiling runtime (sw/fw/rt/vp_rt.c): the co-processor runs
# sw/fw/cop/valueprof.s (seed 001's Figure 10) on every load; the runtime copies, masks, partitions and
# writes vp-profile.txt (docs/vpf.md).
# The programs profiled: the workloads and three written for the value profiler (sim/workloads/vp_*.c:
# known values, glacial values, a load working set four times the slots)
VP_PROGRAMS := $(WORKLOADS) vp_known vp_glacial vp_wide
VP_FW_ELFS := $(addprefix $(BUILD)/workloads/,$(addsuffix -vp.elf,$(VP_PROGRAMS)))
$(BUILD)/fw/vp_image.c: sw/fw/cop/valueprof.s $(CPASM_BIN)
	@mkdir -p $(dir $@)
	$(CPASM_BIN) --c vp_image sw/fw/cop/valueprof.s -o $@
$(BUILD)/workloads/%-vp.elf: sim/workloads/%.c sim/workloads/common.h sw/fw/rt/vp_rt.c sw/fw/rt/cop_rt_common.h sw/fw/rt/rt_counters.h sw/fw/vp/vp_fw.c sw/fw/vp/vp_fw.h sw/fw/drivers/hwprof_cop.c \
                             $(BUILD)/fw/vp_image.c $(SW_HDR)
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -Isw/include -Dmain=workload_main -c $< -o $(@:.elf=.o)
	$(RV32_CC) $(WL_FLAGS) -march=rv32im_zicsr -Isw/include -Isw/fw/vp -c sw/fw/rt/vp_rt.c -o $(@:.elf=-rt.o)
	$(RV32_CC) $(WL_FLAGS) -Isw/include $(@:.elf=.o) $(@:.elf=-rt.o) sw/fw/vp/vp_fw.c sw/fw/drivers/hwprof_cop.c $(BUILD)/fw/vp_image.c -o $@

# ... and with the simple-sampling baseline (sw/fw/rt/ss_rt.c, sw/fw/cop/simplesamp.s: one load in 1024)
SS_FW_ELFS := $(addprefix $(BUILD)/workloads/,$(addsuffix -ss.elf,$(VP_PROGRAMS)))
$(BUILD)/fw/ss_image.c: sw/fw/cop/simplesamp.s $(CPASM_BIN)
	@mkdir -p $(dir $@)
	$(CPASM_BIN) --c ss_image sw/fw/cop/simplesamp.s -o $@
$(BUILD)/workloads/%-ss.elf: sim/workloads/%.c sim/workloads/common.h sw/fw/rt/ss_rt.c sw/fw/rt/cop_rt_common.h sw/fw/rt/rt_counters.h sw/fw/drivers/hwprof_cop.c $(BUILD)/fw/ss_image.c $(SW_HDR)
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -Isw/include -Dmain=workload_main -c $< -o $(@:.elf=.o)
	$(RV32_CC) $(WL_FLAGS) -march=rv32im_zicsr -Isw/include -c sw/fw/rt/ss_rt.c -o $(@:.elf=-rt.o)
	$(RV32_CC) $(WL_FLAGS) -Isw/include $(@:.elf=.o) $(@:.elf=-rt.o) sw/fw/drivers/hwprof_cop.c $(BUILD)/fw/ss_image.c -o $@

# Whole-program paths and strata (docs/wpp.md, seed 003): hwprof-wpp on the trace files the platforms
# drain (hwprof-sim --trace-out) and the block files of the retire stream (--blocks-out)
WPP_BIN  := $(BUILD)/wpp/hwprof-wpp
$(WPP_BIN): $(call obj,$(WPP_SRC) sw/host/wpp/hwprof_wpp.c)
	@mkdir -p $(dir $@)
	$(CC) $^ -o $@ -lelf -lm
$(BUILD)/unit/hwprof-wpp-asan: $(call asan,$(WPP_SRC) sw/host/wpp/hwprof_wpp.c)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) $^ -o $@ -lelf -lm

# Profiles for other tools (docs/report.md): hwprof-report writes an lcov tracefile of an edge
# profile, its lines from the program's DWARF line table (elfutils' libdw)
REPORT_BIN := $(BUILD)/report/hwprof-report
$(REPORT_BIN): $(call obj,$(REPORT_SRC) sw/host/report/hwprof_report.c)
	@mkdir -p $(dir $@)
	$(CC) $^ -o $@ -ldw -lelf -lm
$(BUILD)/unit/hwprof-report-asan: $(call asan,$(REPORT_SRC) sw/host/report/hwprof_report.c)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) $^ -o $@ -ldw -lelf -lm

# The instrumenter (sw/host/instr/) and the workloads it instruments: built again with the
# relocations kept (-Wl,--emit-relocs) and without linker relaxation, then instrumented
# (mode minimal, K = INSTR_K: small enough that functions are split into regions).
INSTR_BIN := $(BUILD)/instr/hwprof-instr
INSTR_K   ?= 4
$(INSTR_BIN): $(call obj,$(INSTR_SRC) sw/host/instr/hwprof_instr.c)
	@mkdir -p $(dir $@)
	$(CC) $^ -o $@ -lelf
# the code cache on random paths of real programs (tests/dynopt/codecache_random.c), under ASan/UBSan
$(BUILD)/unit/codecache-random: $(call asan,tests/dynopt/codecache_random.c sim/rv32.c sw/fw/dynopt/codecache.c $(ELF_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(SAN) $^ -o $@ -lelf

# block re-layout at random moments in random orders (tests/dynopt/relayout_random.c), on the whole platform,
# under ASan/UBSan: the program's output and its exact edge profile through the code cache
RL_RANDOM_SRC := $(filter-out sim/hwprof_sim.c,$(SIM_SRC)) sw/fw/dynopt/codecache.c sw/fw/dynopt/relayout.c sw/lib/meta.c
$(BUILD)/unit/relayout-random: $(call asan,tests/dynopt/relayout_random.c $(RL_RANDOM_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(SAN) $^ -o $@ -lelf

$(BUILD)/unit/hwprof-instr-asan: $(call asan,$(INSTR_SRC) sw/host/instr/hwprof_instr.c)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) $^ -o $@ -lelf
WL_RELOC := $(addprefix $(BUILD)/instr/,$(addsuffix .elf,$(WORKLOADS)))
WL_PROF  := $(addprefix $(BUILD)/instr/,$(addsuffix -prof.elf,$(WORKLOADS)))
.SECONDARY: $(WL_RELOC)  # the inputs stay: the maps name them, users compare against them
$(BUILD)/instr/%.elf: sim/workloads/%.c sim/workloads/common.h
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -Wl,--emit-relocs -Wl,--no-relax $< -o $@
$(BUILD)/instr/%-prof.elf: $(BUILD)/instr/%.elf $(INSTR_BIN)
	$(INSTR_BIN) instrument --quiet --k=$(INSTR_K) $< -o $@
# two of them with counters of the swept configurations' widths (CntW 8, 16, 64: 1, 2 and 8 bytes),
# run with their edge check on build/sc_c8, sc_c16, sc_c64 (make test)
SWEPT_PROGRAMS := sort lz
WL_PROF_SWEPT := $(foreach c,$(SC_CONFIGS),$(addprefix $(BUILD)/instr/,$(addsuffix -prof-$(c).elf,$(SWEPT_PROGRAMS))))
define SWEPT_PROF_RULE
$(BUILD)/instr/%-prof-$(1).elf: $(BUILD)/instr/%.elf $(INSTR_BIN)
	$(INSTR_BIN) instrument --quiet --k=$(INSTR_K) --counter-bytes=$$$$(($(call tb_field,$(call sc_cfg_of,$(1)),2) / 8)) $$< -o $$@
endef
$(foreach c,$(SC_CONFIGS),$(eval $(call SWEPT_PROF_RULE,$(c))))

# The dynamic optimizer (docs/dynopt.md): the workloads and two programs written with clear phases,
# linked with its firmware runtime (sw/fw/rt/dynopt_rt.c) and their relocations kept, then instrumented
# in mode all (every branch's two edges counted) with the run-time metadata the firmware reads.
PHASE_WORKLOADS := phases stable
DYN_PROGRAMS := $(WORKLOADS) $(PHASE_WORKLOADS)
DYN_ELFS := $(addprefix $(BUILD)/dyn/,$(addsuffix -prof.elf,$(DYN_PROGRAMS)))
DYN_FW := $(DYNOPT_SRC) $(RELAYOUT_SRC) sw/fw/drivers/hwprof_edge.c
$(BUILD)/dyn/dynopt-rt.o: sw/fw/rt/dynopt_rt.c sw/fw/rt/rt_counters.h $(DYNOPT_HDR) $(SW_HDR)
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -march=rv32im_zicsr -Isw/include -Isw/fw/dynopt -c $< -o $@
.SECONDARY: $(addprefix $(BUILD)/dyn/,$(addsuffix .elf,$(DYN_PROGRAMS)))
$(BUILD)/dyn/%.elf: sim/workloads/%.c sim/workloads/common.h $(BUILD)/dyn/dynopt-rt.o $(call fwobj,wl,$(DYN_FW)) $(SW_HDR)
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -Isw/include -Dmain=workload_main -c $< -o $(@:.elf=.o)
	$(RV32_CC) $(WL_FLAGS) $(RT_HEAP) -Isw/include -Isw/fw/dynopt -Wl,--emit-relocs -Wl,--no-relax $(@:.elf=.o) $(BUILD)/dyn/dynopt-rt.o \
	  $(call fwobj,wl,$(DYN_FW)) -o $@
$(BUILD)/dyn/%-prof.elf: $(BUILD)/dyn/%.elf $(INSTR_BIN)
	$(INSTR_BIN) instrument --quiet --mode=all $< -o $@
$(BUILD)/workloads/phases.elf $(BUILD)/workloads/stable.elf: $(BUILD)/workloads/%.elf: sim/workloads/%.c sim/workloads/common.h
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) $< -o $@
# a program that takes ecall and ebreak traps into its own handler (compared with QEMU too)
TRAPS_ELF := $(BUILD)/workloads/traps.elf
$(TRAPS_ELF): sim/workloads/traps.c sim/workloads/common.h
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -march=rv32im_zicsr -c $< -o $(@:.elf=.o)
	$(RV32_CC) $(WL_FLAGS) $(@:.elf=.o) -o $@

# The software-instrumentation baseline: the same workloads with GCC's -fprofile-arcs (and
# -ftest-coverage for gcov's notes), the freestanding gcov runtime of sw/fw/rt/gcov_rt.c writing the
# .gcda files through semihosting at exit (hwprof-sim --out-dir=DIR).
WL_GCOV  := $(addprefix $(BUILD)/gcov/,$(addsuffix .elf,$(WORKLOADS)))
GCOV_CFLAGS := --specs=picolibc.specs -march=rv32im -mabi=ilp32 -O2 -g -Wall -Wextra -Werror
$(BUILD)/gcov/%.o: sim/workloads/%.c sim/workloads/common.h
	@mkdir -p $(dir $@)
	$(RV32_CC) $(GCOV_CFLAGS) -fprofile-arcs -ftest-coverage -fprofile-info-section=gcov_info -c $< -o $@
$(BUILD)/gcov/gcov_rt.o: sw/fw/rt/gcov_rt.c
	@mkdir -p $(dir $@)
	$(RV32_CC) $(GCOV_CFLAGS) -c $< -o $@
$(BUILD)/gcov/%.elf: $(BUILD)/gcov/%.o $(BUILD)/gcov/gcov_rt.o
	$(RV32_CC) $(WL_FLAGS) $^ -lgcov -o $@
.SECONDARY: $(WL_GCOV:.elf=.o)
# ... and at -O0, linked for the instrumenter: one run feeds gcov and the hardware (as Embench's below)
WL_GCOV_O0 := $(addprefix $(BUILD)/gcov/O0/,$(addsuffix .elf,$(WORKLOADS)))
$(BUILD)/gcov/O0/%.elf: sim/workloads/%.c sim/workloads/common.h $(BUILD)/gcov/gcov_rt.o
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -O0 -fprofile-arcs -ftest-coverage -fprofile-info-section=gcov_info -Wl,--emit-relocs -Wl,--no-relax \
	  $< $(BUILD)/gcov/gcov_rt.o -lgcov -o $@

# The CFG layer's core is firmware too (the dynamic optimizer re-lays code at run time): it must
# build for the RV32 target without a heap or stdio.
$(BUILD)/fw/hwprof_cfg.o: sw/lib/cfg/hwprof_cfg.c sw/lib/cfg/hwprof_cfg.h $(SW_HDR)
	@mkdir -p $(dir $@)
	$(RV32_CC) --specs=picolibc.specs -march=rv32im -mabi=ilp32 -O2 -ffreestanding -Wall -Wextra -Werror \
	  -Isw/include -c $< -o $@
	@if $(RV32_CC:gcc=nm) -u $@ | grep -v -w memset | grep -q .; then \
	  echo "$@: the firmware part of the CFG layer needs more than memset:"; $(RV32_CC:gcc=nm) -u $@; exit 1; fi

# Embench-IoT programs (third-party test input, never project code) from EMBENCH when that folder
# is there; the project's board support is sim/embench/. Linked like the workloads, with the
# relocations kept so the instrumenter can take them. make test instruments all of them (edge
# profile exact, overhead bounded, the RTL in lockstep on a few; nsichneu also needs branch
# relaxation once profiling instructions are inserted).
EMBENCH ?= ../shared/embench
EMBENCH_FLAGS := --specs=picolibc.specs --oslib=semihost --crt0=semihost -march=rv32im -mabi=ilp32 -O2 -g \
                 -Wl,--defsym=__flash=$(PLAT_RAM_BASE) -Wl,--defsym=__flash_size=0x200000 \
                 -Wl,--defsym=__ram=$(WL_DATA_BASE) -Wl,--defsym=__ram_size=0x200000 \
                 -Wl,--emit-relocs -Wl,--no-relax -DHAVE_BOARDSUPPORT_H -include boardsupport.h -Isim/embench
EMBENCH_TEST := $(foreach p,$(notdir $(wildcard $(EMBENCH)/src/*)),$(BUILD)/embench/$(p).elf)
$(BUILD)/embench/%.elf: sim/embench/boardsupport.h sim/embench/board.c
	@mkdir -p $(dir $@)
	$(RV32_CC) $(EMBENCH_FLAGS) -I$(EMBENCH)/support -I$(EMBENCH)/src/$* $(EMBENCH)/src/$*/*.c \
	  $(EMBENCH)/support/main.c $(EMBENCH)/support/beebsc.c sim/embench/board.c -lm -o $@

# The large real programs (third-party test input, never project code) from BIGPROGS when that
# folder is there: Lua and zstd with their drivers, built as its README says, on their own memory
# map (4 MiB of code, then 4 MiB of RAM). make test instruments both (edge profile exact, coverage).
BIGPROGS ?= ../shared/bigprogs
BIG_RAM_BASE := $(shell printf '0x%x' $$(( $(PLAT_RAM_BASE) + 0x400000 )))
BIG_FLAGS := --specs=picolibc.specs --oslib=semihost --crt0=semihost -march=rv32im -mabi=ilp32 -O2 -g \
             -Wl,--defsym=__flash=$(PLAT_RAM_BASE) -Wl,--defsym=__flash_size=0x400000 \
             -Wl,--defsym=__ram=$(BIG_RAM_BASE) -Wl,--defsym=__ram_size=0x400000 -Wl,--emit-relocs -Wl,--no-relax
BIG_ELFS := $(if $(wildcard $(BIGPROGS)/lua/onelua.c),$(BUILD)/bigprogs/lua.elf) \
            $(if $(wildcard $(BIGPROGS)/zstd/bench_main.c),$(BUILD)/bigprogs/zstd.elf)
$(BUILD)/bigprogs/lua.elf: $(wildcard $(BIGPROGS)/lua/*.c $(BIGPROGS)/lua/*.h)
	@mkdir -p $(dir $@)
	$(RV32_CC) $(BIG_FLAGS) -DMAKE_LIB -DLUA_USE_C89 $(BIGPROGS)/lua/onelua.c $(BIGPROGS)/lua/bench_main.c -lm -o $@
$(BUILD)/bigprogs/zstd.elf: $(wildcard $(BIGPROGS)/zstd/*.c $(BIGPROGS)/zstd/*/*.c $(BIGPROGS)/zstd/*/*.h)
	@mkdir -p $(dir $@)
	$(RV32_CC) $(BIG_FLAGS) -DZSTD_NO_INTRINSICS -DZSTD_DISABLE_ASM -DZSTD_LEGACY_SUPPORT=0 -I$(BIGPROGS)/zstd \
	  -I$(BIGPROGS)/zstd/common $(BIGPROGS)/zstd/common/*.c $(BIGPROGS)/zstd/compress/*.c \
	  $(BIGPROGS)/zstd/decompress/*.c $(BIGPROGS)/zstd/bench_main.c -o $@

# ... and Lua with our driver of five scripts run twice, ten phases in some 2 x 10^8 instructions
# (sim/bigprogs/lua_phases.c; make bench section 10b), apart from the programs of ../shared/bigprogs
# that make test checks as they are (build/bigprogs/)
LUA_PHASES := $(if $(wildcard $(BIGPROGS)/lua/onelua.c),$(BUILD)/lua-phases/lua-phases.elf)
$(BUILD)/lua-phases/lua-phases.elf: $(wildcard $(BIGPROGS)/lua/*.c $(BIGPROGS)/lua/*.h) sim/bigprogs/lua_phases.c sim/bigprogs/lua_driver.h
	@mkdir -p $(dir $@)
	$(RV32_CC) $(BIG_FLAGS) -DMAKE_LIB -DLUA_USE_C89 -I$(BIGPROGS)/lua $(BIGPROGS)/lua/onelua.c sim/bigprogs/lua_phases.c -lm -o $@
# ... and Lua with our driver of scripts that longjmp all the time: coroutine generators, errors
# caught by pcall, failing coroutines (sim/bigprogs/lua_unwind.c; make test's bigprogs checks)
LUA_UNWIND := $(if $(wildcard $(BIGPROGS)/lua/onelua.c),$(BUILD)/lua-unwind/lua-unwind.elf)
$(BUILD)/lua-unwind/lua-unwind.elf: $(wildcard $(BIGPROGS)/lua/*.c $(BIGPROGS)/lua/*.h) sim/bigprogs/lua_unwind.c sim/bigprogs/lua_driver.h
	@mkdir -p $(dir $@)
	$(RV32_CC) $(BIG_FLAGS) -DMAKE_LIB -DLUA_USE_C89 -I$(BIGPROGS)/lua $(BIGPROGS)/lua/onelua.c sim/bigprogs/lua_unwind.c -lm -o $@
# ... and the three with the dynamic optimizer's firmware (the re-layout, scheme 5A; make bench
# section 10b, and make test with lua_unwind.c): their RAM ends 1 MiB lower, where the code cache and its origin table sit below the
# instrumented code
BIG_DYN_FLAGS := $(subst __ram_size=0x400000,__ram_size=0x300000,$(BIG_FLAGS))
BIG_DYN_ELFS := $(if $(wildcard $(BIGPROGS)/lua/onelua.c),$(BUILD)/dynrl-big/lua-prof.elf $(BUILD)/dynrl-big/lua-phases-prof.elf \
                  $(BUILD)/dynrl-big/lua-unwind-prof.elf)
$(BUILD)/dynrl-big/lua.elf: $(BIGPROGS)/lua/bench_main.c
$(BUILD)/dynrl-big/lua-phases.elf: sim/bigprogs/lua_phases.c sim/bigprogs/lua_driver.h
$(BUILD)/dynrl-big/lua-unwind.elf: sim/bigprogs/lua_unwind.c sim/bigprogs/lua_driver.h
$(BUILD)/dynrl-big/%.elf: $(filter-out %/bench_main.c,$(wildcard $(BIGPROGS)/lua/*.c $(BIGPROGS)/lua/*.h)) $(BUILD)/dynrl/dynopt-rt.o \
                          $(call fwobj,wl,$(DYN_FW))
	@mkdir -p $(dir $@)
	$(RV32_CC) $(BIG_DYN_FLAGS) $(RT_HEAP) -DMAKE_LIB -DLUA_USE_C89 -Dmain=workload_main -I$(BIGPROGS)/lua \
	  $(BIGPROGS)/lua/onelua.c $(filter %/bench_main.c %/lua_phases.c %/lua_unwind.c,$^) $(BUILD)/dynrl/dynopt-rt.o $(call fwobj,wl,$(DYN_FW)) -lm -o $@
$(BUILD)/dynrl-big/%-prof.elf: $(BUILD)/dynrl-big/%.elf $(INSTR_BIN)
	$(INSTR_BIN) instrument --quiet --mode=all $< -o $@

# ... and with other options (the relocation patterns they give, docs/instrumenter.md): make test
# instruments each of these builds
comma := ,
EMBENCH_OPTS := O0 Os-pic O3 gc-sections
EB_OPT_O0 := -O0
EB_OPT_Os-pic := -Os -fPIC
EB_OPT_O3 := -O3
EB_OPT_gc-sections := -ffunction-sections -fdata-sections -Wl$(comma)--gc-sections
define EMBENCH_OPT_RULE
$(BUILD)/embench-$(1)/%.elf: sim/embench/boardsupport.h sim/embench/board.c
	@mkdir -p $$(dir $$@)
	$(RV32_CC) $(EMBENCH_FLAGS) $(EB_OPT_$(1)) -I$(EMBENCH)/support -I$(EMBENCH)/src/$$* $(EMBENCH)/src/$$*/*.c \
	  $(EMBENCH)/support/main.c $(EMBENCH)/support/beebsc.c sim/embench/board.c -lm -o $$@
endef
$(foreach v,$(EMBENCH_OPTS),$(eval $(call EMBENCH_OPT_RULE,$(v))))
EMBENCH_OPT_ELFS := $(foreach v,$(EMBENCH_OPTS),$(foreach p,$(notdir $(wildcard $(EMBENCH)/src/*)),$(BUILD)/embench-$(v)/$(p).elf))

# A threaded-code interpreter (indirect jumps sharing a table of labels, an indirect tail call): a
# test input of the profilers' own
$(BUILD)/instr/dispatch.elf: tests/programs/dispatch.c
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -Wl,--emit-relocs -Wl,--no-relax $< -o $@

# A loop of 2^40 paths per iteration, profiled through hammock regions (docs/path.md): a test input
# of the path profiles' own
$(BUILD)/instr/many_paths.elf: tests/programs/many_paths.c
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -Wl,--emit-relocs -Wl,--no-relax $< -o $@

# setjmp and longjmp out of linked calls, nested protected calls, deep recursion (docs/instrumenter.md,
# "setjmp and longjmp"): a test input of the profilers' own
$(BUILD)/instr/unwind.elf: tests/programs/unwind.c
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -Wl,--emit-relocs -Wl,--no-relax $< -o $@
# ... and with two of its frames that call setjmp 16 KiB apart, which the landing code cannot tell apart
$(BUILD)/instr/unwind-collide.elf: tests/programs/unwind.c
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -DUNWIND_COLLIDE=1 -Wl,--emit-relocs -Wl,--no-relax $< -o $@

# A switch table of label differences (-fPIC): a test input of the instrumenter's own
$(BUILD)/instr/switch_table.elf: tests/programs/switch_table.c
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -fPIC -Wl,--emit-relocs -Wl,--no-relax $< -o $@

# The workloads built by clang as for a sample profile (docs/report.md: -fno-inline
# -fdebug-info-for-profiling; objects, which GCC links with picolibc): its assembler leaves the calls
# between functions of one section without relocations, which the instrumenter decodes (make test)
PICOLIBC_INC := /usr/lib/picolibc/riscv64-unknown-elf/include
CLANG_RV32 := clang --target=riscv32-unknown-elf -march=rv32im -mabi=ilp32 -isystem $(PICOLIBC_INC) -O2 -g -Wall -Wextra -Werror \
              -fno-inline -fdebug-info-for-profiling -ftls-model=local-exec
WL_CLANG := $(addprefix $(BUILD)/clang/,$(addsuffix .elf,$(WORKLOADS)))
$(BUILD)/clang/%.elf: sim/workloads/%.c sim/workloads/common.h
	@mkdir -p $(dir $@)
	$(CLANG_RV32) -c $< -o $(@:.elf=.o)
	$(RV32_CC) $(WL_FLAGS) -Wl,--emit-relocs -Wl,--no-relax $(@:.elf=.o) -o $@

# A pc-relative address without a relocation: the instrumenter must refuse it (make test)
$(BUILD)/instr/bare_auipc.elf: tests/programs/bare_auipc.S
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -Wl,--emit-relocs -Wl,--no-relax $< -o $@

# Recursion deeper than the pir's path stack: a path profile of it must be refused (make test)
$(BUILD)/instr/deep_recursion.elf: tests/programs/deep_recursion.c
	@mkdir -p $(dir $@)
	$(RV32_CC) $(WL_FLAGS) -Wl,--emit-relocs -Wl,--no-relax $< -o $@

# ... and with GCC's -fprofile-arcs (the software baseline of make bench's section 4; the gcov
# runtime of sw/fw/rt/gcov_rt.c writes the .gcda files at exit)
EMBENCH_GCOV := $(foreach p,$(notdir $(wildcard $(EMBENCH)/src/*)),$(BUILD)/gcov/embench/$(p).elf)
$(BUILD)/gcov/embench/%.elf: sim/embench/boardsupport.h sim/embench/board.c $(BUILD)/gcov/gcov_rt.o
	@mkdir -p $(dir $@)
	$(RV32_CC) $(EMBENCH_FLAGS) -fprofile-arcs -ftest-coverage -fprofile-info-section=gcov_info -I$(EMBENCH)/support \
	  -I$(EMBENCH)/src/$* $(EMBENCH)/src/$*/*.c $(EMBENCH)/support/main.c $(EMBENCH)/support/beebsc.c sim/embench/board.c \
	  $(BUILD)/gcov/gcov_rt.o -lgcov -lm -o $@

# ... and, for the gcov oracle of make test, at -O0: instrumented by hwprof-instr, the same binary is
# profiled by gcov's counters and by the hardware; no function's count includes inlined copies (gcov
# counts those as invocations, the hardware cannot), and no statement's code moves to another line
# after gcov has counted it (docs/report.md: which lines may still differ, and why)
EMBENCH_GCOV_O0 := $(foreach p,$(notdir $(wildcard $(EMBENCH)/src/*)),$(BUILD)/gcov/embench-O0/$(p).elf)
$(BUILD)/gcov/embench-O0/%.elf: sim/embench/boardsupport.h sim/embench/board.c $(BUILD)/gcov/gcov_rt.o
	@mkdir -p $(dir $@)
	$(RV32_CC) $(EMBENCH_FLAGS) -O0 -fprofile-arcs -ftest-coverage -fprofile-info-section=gcov_info \
	  -I$(EMBENCH)/support -I$(EMBENCH)/src/$* $(EMBENCH)/src/$*/*.c $(EMBENCH)/support/main.c \
	  $(EMBENCH)/support/beebsc.c sim/embench/board.c $(BUILD)/gcov/gcov_rt.o -lgcov -lm -o $@

# ... and every Embench program under the load-value profiler and under simple sampling (make bench
# section 7, make plots), when EMBENCH is there
EMBENCH_PROGS := $(notdir $(wildcard $(EMBENCH)/src/*))
EMBENCH_VP := $(foreach p,$(EMBENCH_PROGS),$(BUILD)/embench/$(p)-vp.elf $(BUILD)/embench/$(p)-ss.elf)
define EMBENCH_RT_RULE
$(BUILD)/embench/%-$(1).elf: sim/embench/boardsupport.h sim/embench/board.c sim/embench/runtime_main.c sw/fw/rt/$(1)_rt.c sw/fw/rt/cop_rt_common.h sw/fw/rt/rt_counters.h \
                             sw/fw/drivers/hwprof_cop.c $(VP_SRC) $(VP_HDR) $(BUILD)/fw/$(1)_image.c $(SW_HDR)
	@mkdir -p $$(dir $$@)
	$(RV32_CC) $(EMBENCH_FLAGS) -I$(EMBENCH)/support -Dmain=embench_main -c $(EMBENCH)/support/main.c -o $$(@:.elf=-main.o)
	$(RV32_CC) $(WL_FLAGS) -march=rv32im_zicsr -Isw/include -Isw/fw/vp -c sw/fw/rt/$(1)_rt.c -o $$(@:.elf=-rt.o)
	$(RV32_CC) $(WL_FLAGS) -Isw/include -c sw/fw/drivers/hwprof_cop.c -o $$(@:.elf=-drv.o)
	$(RV32_CC) $(WL_FLAGS) -Isw/include -c sw/fw/vp/vp_fw.c -o $$(@:.elf=-fw.o)
	$(RV32_CC) $(WL_FLAGS) -Isw/include -c $(BUILD)/fw/$(1)_image.c -o $$(@:.elf=-img.o)
	$(RV32_CC) $(EMBENCH_FLAGS) -I$(EMBENCH)/support -I$(EMBENCH)/src/$$* $(EMBENCH)/src/$$*/*.c $(EMBENCH)/support/beebsc.c \
	  sim/embench/board.c sim/embench/runtime_main.c $$(@:.elf=-main.o) $$(@:.elf=-rt.o) $$(@:.elf=-drv.o) $$(@:.elf=-fw.o) \
	  $$(@:.elf=-img.o) -lm -o $$@
endef
$(eval $(call EMBENCH_RT_RULE,vp))
$(eval $(call EMBENCH_RT_RULE,ss))

# ... and with the trace firmware (sw/fw/rt/hwprof_rt.c): build/tcache/embench-P-fw.elf samples traces
# into the Figure 8 table, -tc also places the hot ones in the code cache (make test, make bench
# section 9)
# ($(5): the directory under BUILD, $(6): more compiler flags)
define EMBENCH_TRACE_RULE
$(BUILD)/$(5)/embench-%-$(1).elf: sim/embench/boardsupport.h sim/embench/board.c sim/embench/runtime_main.c \
                                    $(BUILD)/fwobj/rt-$(1)/hwprof_rt.o $(call fwobj,eb,$(4)) $(SW_HDR)
	@mkdir -p $$(dir $$@)
	$(RV32_CC) $(2) $(6) -I$(EMBENCH)/support -Dmain=embench_main -c $(EMBENCH)/support/main.c -o $$(@:.elf=-main.o)
	$(RV32_CC) $(2) $(6) -Isw/include -I$(EMBENCH)/support -I$(EMBENCH)/src/$$* $(EMBENCH)/src/$$*/*.c $(EMBENCH)/support/beebsc.c \
	  sim/embench/board.c sim/embench/runtime_main.c $$(@:.elf=-main.o) $(BUILD)/fwobj/rt-$(1)/hwprof_rt.o $(call fwobj,eb,$(4)) $(RT_HEAP) -lm -o $$@
endef
$(eval $(call EMBENCH_TRACE_RULE,fw,$(EMBENCH_FLAGS),$(TC_SAMPLING),$(FW_SRC),tcache))
$(eval $(call EMBENCH_TRACE_RULE,tc,$(call tc_flags,$(EMBENCH_FLAGS)),$(TC_SAMPLING) -DHWPROF_TRACE_CACHE,$(TC_SRC),tcache))
EMBENCH_TRACE := $(foreach p,$(EMBENCH_PROGS),$(BUILD)/tcache/embench-$(p)-fw.elf $(BUILD)/tcache/embench-$(p)-tc.elf)
# ... and the same ten times longer (GLOBAL_SCALE_FACTOR 10: 22-55 M instructions each), with the
# plain program beside them as embench-P-plain.elf (make bench section 9b: what sampling costs once
# its back-off has run)
EB_X10 := -DGLOBAL_SCALE_FACTOR=10
$(eval $(call EMBENCH_TRACE_RULE,fw,$(EMBENCH_FLAGS),$(TC_SAMPLING),$(FW_SRC),tcache-x10,$(EB_X10)))
$(eval $(call EMBENCH_TRACE_RULE,tc,$(call tc_flags,$(EMBENCH_FLAGS)),$(TC_SAMPLING) -DHWPROF_TRACE_CACHE,$(TC_SRC),tcache-x10,$(EB_X10)))
$(BUILD)/tcache-x10/embench-%-plain.elf: sim/embench/boardsupport.h sim/embench/board.c
	@mkdir -p $(dir $@)
	$(RV32_CC) $(EMBENCH_FLAGS) $(EB_X10) -I$(EMBENCH)/support -I$(EMBENCH)/src/$* $(EMBENCH)/src/$*/*.c \
	  $(EMBENCH)/support/main.c $(EMBENCH)/support/beebsc.c sim/embench/board.c -lm -o $@
EMBENCH_TRACE_X10 := $(foreach p,$(EMBENCH_PROGS),$(foreach v,plain fw tc,$(BUILD)/tcache-x10/embench-$(p)-$(v).elf))

# ... and with the dynamic optimizer's firmware (docs/dynopt.md), instrumented: build/dyn/embench-P-prof.elf
EMBENCH_DYN := $(foreach p,$(EMBENCH_PROGS),$(BUILD)/dyn/embench-$(p)-prof.elf)
.SECONDARY: $(foreach p,$(EMBENCH_PROGS),$(BUILD)/dyn-embench/$(p).elf)
$(BUILD)/dyn/embench-%-prof.elf: $(BUILD)/dyn-embench/%.elf $(INSTR_BIN)
	$(INSTR_BIN) instrument --quiet --mode=all $< -o $@
$(BUILD)/dyn-embench/%.elf: sim/embench/boardsupport.h sim/embench/board.c sim/embench/runtime_main.c $(BUILD)/dyn/dynopt-rt.o \
                            $(call fwobj,eb,$(DYN_FW)) $(SW_HDR)
	@mkdir -p $(dir $@)
	$(RV32_CC) $(EMBENCH_FLAGS) -I$(EMBENCH)/support -Dmain=embench_main -c $(EMBENCH)/support/main.c -o $(@:.elf=-main.o)
	$(RV32_CC) $(EMBENCH_FLAGS) -Isw/include -Isw/fw/dynopt -I$(EMBENCH)/support -I$(EMBENCH)/src/$* $(EMBENCH)/src/$*/*.c \
	  $(EMBENCH)/support/beebsc.c sim/embench/board.c sim/embench/runtime_main.c $(@:.elf=-main.o) $(BUILD)/dyn/dynopt-rt.o $(RT_HEAP) \
	  $(call fwobj,eb,$(DYN_FW)) -Wl,--emit-relocs -Wl,--no-relax -lm -o $@

# ... and the same with the edge-driven re-layout (docs/dynopt.md, "Re-laying functions out while they
# run"): build/dynrl/NAME-prof.elf with scheme 5A, build/dyn5b/NAME-prof.elf with scheme 5B for the
# re-laid functions; the simulator's exact profiles need --code-cache=$(DYNRL_CACHE)
DYNRL_CACHE := 0x80780000:0x80800000
# ... and with both optimizers, the trampolines the cache's exits leave through (above the code)
DYNRL_TRAMP_LO := 0x80870000
DYNRL_TRAMP_HI := 0x80880000
DYNRL_TRAMPOLINES := $(DYNRL_TRAMP_LO):$(DYNRL_TRAMP_HI)
define DYNRL_RULES
$(1)_ELFS := $$(addprefix $(BUILD)/$(1)/,$$(addsuffix -prof.elf,$$(DYN_PROGRAMS))) \
              $$(foreach p,$$(EMBENCH_PROGS),$(BUILD)/$(1)/embench-$$(p)-prof.elf)
.SECONDARY: $$(addprefix $(BUILD)/$(1)/,$$(addsuffix .elf,$$(DYN_PROGRAMS))) $$(foreach p,$$(EMBENCH_PROGS),$(BUILD)/$(1)-embench/$$(p).elf)
$(BUILD)/$(1)/dynopt-rt.o: sw/fw/rt/dynopt_rt.c sw/fw/rt/rt_counters.h $$(DYNOPT_HDR) $$(SW_HDR)
	@mkdir -p $$(dir $$@)
	$$(RV32_CC) $$(WL_FLAGS) -march=rv32im_zicsr -Isw/include -Isw/fw/dynopt $(2) -c $$< -o $$@
$(BUILD)/$(1)/%.elf: sim/workloads/%.c sim/workloads/common.h $(BUILD)/$(1)/dynopt-rt.o $$(call fwobj,wl,$$(DYN_FW) $(3)) $$(SW_HDR)
	@mkdir -p $$(dir $$@)
	$$(RV32_CC) $$(WL_FLAGS) -Isw/include -Dmain=workload_main -c $$< -o $$(@:.elf=.o)
	$$(RV32_CC) $$(WL_FLAGS) $$(RT_HEAP) -Isw/include -Isw/fw/dynopt -Wl,--emit-relocs -Wl,--no-relax $$(@:.elf=.o) $(BUILD)/$(1)/dynopt-rt.o \
	  $$(call fwobj,wl,$$(DYN_FW) $(3)) -o $$@
$(BUILD)/$(1)/embench-%-prof.elf: $(BUILD)/$(1)-embench/%.elf $$(INSTR_BIN)
	$$(INSTR_BIN) instrument --quiet --mode=all $$< -o $$@
$(BUILD)/$(1)/%-prof.elf: $(BUILD)/$(1)/%.elf $$(INSTR_BIN)
	$$(INSTR_BIN) instrument --quiet --mode=all $$< -o $$@
$(BUILD)/$(1)-embench/%.elf: sim/embench/boardsupport.h sim/embench/board.c sim/embench/runtime_main.c $(BUILD)/$(1)/dynopt-rt.o \
                               $$(call fwobj,eb,$$(DYN_FW) $(3)) $$(SW_HDR)
	@mkdir -p $$(dir $$@)
	$$(RV32_CC) $$(EMBENCH_FLAGS) $(4) -I$$(EMBENCH)/support -Dmain=embench_main -c $$(EMBENCH)/support/main.c -o $$(@:.elf=-main.o)
	$$(RV32_CC) $$(EMBENCH_FLAGS) $(4) -Isw/include -Isw/fw/dynopt -I$$(EMBENCH)/support -I$$(EMBENCH)/src/$$* $$(EMBENCH)/src/$$*/*.c \
	  $$(EMBENCH)/support/beebsc.c sim/embench/board.c sim/embench/runtime_main.c $$(@:.elf=-main.o) $(BUILD)/$(1)/dynopt-rt.o $$(RT_HEAP) \
	  $$(call fwobj,eb,$$(DYN_FW) $(3)) -Wl,--emit-relocs -Wl,--no-relax -lm -o $$@
endef
$(eval $(call DYNRL_RULES,dynrl,-DDYNOPT_RELAYOUT))
# 5B's counters hold a difference since their last arming: its periods are short (docs/dynopt.md)
DYN5B_PERIOD := 500000
$(eval $(call DYNRL_RULES,dyn5b,-DDYNOPT_RELAYOUT -DDYNOPT_SCHEME_5B -DDYNOPT_PERIOD_5B=$(DYN5B_PERIOD)))
# ... and the same ten times longer (GLOBAL_SCALE_FACTOR 10: 22-55 M instructions each; make bench
# section 10b: what the optimizer costs on runs of 10^7 instructions and more)
$(eval $(call DYNRL_RULES,dynrl-x10,-DDYNOPT_RELAYOUT,,$(EB_X10)))
DYNRL_X10 := $(foreach p,$(EMBENCH_PROGS),$(BUILD)/dynrl-x10/embench-$(p)-prof.elf)
# ... and both optimizers in one program (docs/dynopt.md, "One code cache for both optimizers"): the
# edge-driven re-layout with scheme 5A and the trace-driven one, sharing the code cache
DYNBOTH_SRC := sw/fw/dynopt/trace_opt.c sw/lib/trace_recon.c sw/lib/image.c sw/fw/drivers/hwprof_trace.c
DYNBOTH_FLAGS := -DDYNOPT_RELAYOUT -DDYNOPT_TRACES -DDYNOPT_TRAMP_LO=$(DYNRL_TRAMP_LO)u -DDYNOPT_TRAMP_HI=$(DYNRL_TRAMP_HI)u
$(eval $(call DYNRL_RULES,dynboth,$(DYNBOTH_FLAGS),$(DYNBOTH_SRC)))
# ... and the same placing every hot trace (no cost model, dense sampling, no back-off): the check that
# traces and layouts share the cache exactly (make test), and the bench's "without the cost model"
DYNBOTH_EVERY := -DDYNOPT_TRACE_SHARE=0 -DDYNOPT_TRACE_MIN_GAIN=0 -DDYNOPT_TRACE_SAMPLE=8 -DDYNOPT_TRACE_MIN_SAMPLE=2 \
                 -DDYNOPT_TRACE_MAX_SAMPLE=0
$(eval $(call DYNRL_RULES,dynevery,$(DYNBOTH_FLAGS) $(DYNBOTH_EVERY),$(DYNBOTH_SRC)))
# ... and the offline bound, run (docs/dynopt.md, "The static layout, run"): every function laid out
# once at start from a whole earlier run's counters, loaded at DYNSTATIC_PROFILE_AT (make bench)
DYNSTATIC_PROFILE_AT := 0x80f00000
$(eval $(call DYNRL_RULES,dynstatic,-DDYNOPT_RELAYOUT -DDYNOPT_STATIC -DDYNOPT_PROFILE_AT=$(DYNSTATIC_PROFILE_AT)u))
DYNRL_ELFS := $(dynrl_ELFS) $(dyn5b_ELFS) $(dynboth_ELFS) $(dynevery_ELFS) $(dynstatic_ELFS)
# ... and the trace-driven optimizer alone on the same instrumented programs, with its cost model
# (make bench only: the cache and the traces as in build/dynboth, no layouts)
$(eval $(call DYNRL_RULES,dyntrace,$(DYNBOTH_FLAGS) -DDYNOPT_TRACES_ONLY,$(DYNBOTH_SRC)))

dynopt: $(DYN_ELFS) $(EMBENCH_DYN) $(DYNRL_ELFS) $(BIG_DYN_ELFS) $(SIM_BIN)

WORKLOAD_FILES := $(WL_ELFS) $(FW_ELFS) $(COP_FW_ELFS) $(VP_FW_ELFS) $(SS_FW_ELFS) $(WL_PROF) $(WL_PROF_SWEPT) $(WL_GCOV) $(BUILD)/fw/hwprof_cfg.o $(EMBENCH_TEST) \
           $(EMBENCH_OPT_ELFS) $(BUILD)/instr/switch_table.elf $(BUILD)/instr/dispatch.elf $(BUILD)/instr/many_paths.elf $(BUILD)/instr/deep_recursion.elf $(BUILD)/instr/unwind.elf $(BUILD)/instr/unwind-collide.elf $(BUILD)/instr/bare_auipc.elf $(WL_CLANG) $(EMBENCH_GCOV) $(EMBENCH_GCOV_O0) $(WL_GCOV_O0) $(DYN_ELFS) $(EMBENCH_DYN) \
           $(addprefix $(BUILD)/workloads/,$(addsuffix .elf,$(PHASE_WORKLOADS))) $(TC_ELFS) $(EMBENCH_TRACE) $(DYNRL_ELFS) \
           $(TRAPS_ELF) $(BIG_ELFS) $(BIG_DYN_ELFS) $(LUA_PHASES) $(LUA_UNWIND)
workloads: $(WORKLOAD_FILES) $(SIM_BIN) $(INSTR_BIN) $(REPORT_BIN)  # and the tools the docs run on them

qemu-check: $(SIM_BIN) $(WL_ELFS)  # plain programs only: QEMU has no hwprof device
	@tools/qemu_check.sh $(SIM_BIN) $(WL_ELFS)
