#!/usr/bin/env bash
# make cov: RTL line and toggle coverage of the lockstep bench (Verilator), and line coverage of the
# C model (gcov) over the unit tests and the bench. usage: tools/coverage.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
cov="$build/cov"
rtl_src=${RTL_SRC:?RTL_SRC must list the RTL sources (run through make cov)}
unit_src=${UNIT_SRC:?UNIT_SRC must list the unit-test sources (run through make cov)}
model_src=${MODEL_SRC:?MODEL_SRC must list the C model sources (run through make cov)}
tb_src=${TB_SRC:?TB_SRC must list the block bench sources (run through make cov)}
rm -rf "$cov"
mkdir -p "$cov/model" "$cov/unit"
cd "$root"
CFLAGS="-std=c11 -Wall -Wextra -Werror -Isw/include -Icmodel -O0 --coverage"

# model_objs DIR: compile the C model with gcov into DIR (one .gcda set per DIR)
model_objs() {
  local c
  for c in $model_src; do
    cc $CFLAGS -c "$c" -o "$1/$(basename "${c%.c}").o"
  done
}

echo "cov: building the C model with gcov and the bench with Verilator coverage" >&2
model_objs "$cov/model"
rm -f "$cov/model/libhwprof_model.a" && ar rcs "$cov/model/libhwprof_model.a" "$cov"/model/*.o
cc -std=c11 -Wall -Wextra -Werror -Isw/include -Icmodel -Itb -O1 -c tb/lib/progen.c -o "$cov/tbc_progen.o"
verilator --cc --exe --build -j "$(nproc)" -Wall --assert --trace-fst --coverage-line --coverage-toggle \
  --Mdir "$cov/obj" --top-module hwprof_top \
  -CFLAGS "-O1 -I$root/tb -I$root/cmodel -I$root/sw/include" \
  -LDFLAGS "$root/$cov/tbc_progen.o $root/$cov/model/libhwprof_model.a --coverage" \
  -o "$root/$cov/Vhwprof_top" rtl/hwprof.vlt $rtl_src \
  $(for f in $tb_src; do echo "$root/$f"; done) >"$cov/build.log" 2>&1 || { cat "$cov/build.log"; exit 1; }

# the second random seed and the counts test with the counter memory high in the 40-bit space (bits
# 39:17 set, then bits 39:18 and 16), so that the addresses' and tags' upper bits toggle too
echo "cov: running the directed test, two random seeds and the counts test" >&2
HWPROF_COVERAGE_FILE="$cov/directed.dat" "$cov/Vhwprof_top" --test=directed --quiet
HWPROF_COVERAGE_FILE="$cov/random1.dat" "$cov/Vhwprof_top" --seed=1 --cycles=500000 --quiet
HWPROF_COVERAGE_FILE="$cov/random2.dat" "$cov/Vhwprof_top" --seed=2 --cycles=500000 --quiet --mem-base=0xfffffe0000
HWPROF_COVERAGE_FILE="$cov/counts.dat" "$cov/Vhwprof_top" --test=counts --seed=3 --cycles=300000 --quiet \
  --mem-base=0xfffffd0000
HWPROF_COVERAGE_FILE="$cov/program.dat" "$cov/Vhwprof_top" --test=program --seed=4 --cycles=300000 --quiet
# the value profiler's blocks in their own benches (the top bench only pokes at them): the engine
# with the format's random programs, the front end with its random stream
echo "cov: the co-processor engine and the value-profiling front end in their benches" >&2
mkdir -p "$cov/cop"
cop_lib_src="sw/host/cop/autogen/cop_isa_tables.c sw/host/cop/cop_image.c sw/host/cop/cop_asm.c sw/host/cop/cop_interp.c"  # not hwprof_cpasm.c (a main)
for c in $cop_lib_src; do cc -std=c11 -Isw/include -Isw/host/cop -O1 -c "$c" -o "$cov/cop/$(basename "${c%.c}").o"; done
rm -f "$cov/cop/libhwprof_cop.a" && ar rcs "$cov/cop/libhwprof_cop.a" "$cov"/cop/*.o
for b in cop vpf; do
  # the packages, the counters, the block's register block and its own sources (rtl/$b/)
  srcs="rtl/autogen/hwprof_pkg.sv rtl/cop/autogen/hwprof_cop_pkg.sv rtl/prim/hwprof_prim_counters.sv"
  srcs="$srcs rtl/$b/autogen/hwprof_${b}_reg.sv $(ls rtl/$b/*.sv)"
  verilator --cc --exe --build -j "$(nproc)" -Wall --assert --trace-fst --coverage-line --coverage-toggle \
    --Mdir "$cov/obj_$b" --top-module "hwprof_$b" \
    -CFLAGS "-O1 -I$root/tb -I$root/cmodel -I$root/sw/include -I$root/sw/host/cop" \
    -LDFLAGS "$root/$cov/model/libhwprof_model.a $root/$cov/cop/libhwprof_cop.a --coverage" \
    -o "$root/$cov/V$b" rtl/hwprof.vlt $srcs "$root/tb/$b/tb_$b.cpp" "$root/tb/lib/lockstep.cpp" >"$cov/build_$b.log" 2>&1 ||
    { cat "$cov/build_$b.log"; exit 1; }
done
HWPROF_COVERAGE_FILE="$cov/cop_timing.dat" "$cov/Vcop" --test=timing --quiet
HWPROF_COVERAGE_FILE="$cov/cop_host.dat" "$cov/Vcop" --test=host --quiet
HWPROF_COVERAGE_FILE="$cov/cop_busy.dat" "$cov/Vcop" --test=busy --cycles=200000 --quiet
HWPROF_COVERAGE_FILE="$cov/cop_random.dat" "$cov/Vcop" --test=random --seed=1 --cycles=500000 --quiet
HWPROF_COVERAGE_FILE="$cov/vpf_directed.dat" "$cov/Vvpf" --test=directed --quiet
HWPROF_COVERAGE_FILE="$cov/vpf_random.dat" "$cov/Vvpf" --test=random --seed=1 --cycles=500000 --quiet
verilator_coverage --write "$cov/merged.dat" "$cov"/directed.dat "$cov"/random1.dat "$cov"/random2.dat "$cov"/counts.dat \
  "$cov"/program.dat "$cov"/cop_*.dat "$cov"/vpf_*.dat
verilator_coverage --annotate "$cov/annotated" "$cov/merged.dat" >/dev/null

echo "cov: unit tests with gcov" >&2
# every source of the unit tests (the Makefile's UNIT_SRC), compiled once with gcov; the C model's
# objects keep their basenames, which the per-file report below asks gcov for
inc=${COV_INC:?COV_INC must hold the host build include paths (run through make cov)}  # the Makefile's: one list
for c in $unit_src; do
  cc $CFLAGS $inc -c "$c" -o "$cov/unit/$(basename "${c%.c}").o"
done
for t in tests/*/test_*.c; do
  n=$(basename "${t%.c}")
  cc $CFLAGS $inc -c "$t" -o "$cov/unit/$n.t.o"
  cc --coverage "$cov/unit/$n.t.o" $(ls "$cov"/unit/*.o | grep -v '\.t\.o$') -o "$cov/unit/$n" $(pkg-config --libs cmocka) -ldw -lelf -lm
  "$cov/unit/$n" >/dev/null 2>&1 || { echo "cov: $n failed" >&2; exit 1; }
done

# the host tools as a user runs them: the instrumenter on a workload in both modes, hwprof-wpp on a
# drained trace (every command), each built with gcov
echo "cov: the host tools with gcov" >&2
mkdir -p "$cov/tools"
tools_inc=$inc
cc $CFLAGS $tools_inc ${INSTR_SRC:?INSTR_SRC must list the instrumenter sources (run through make cov)} sw/host/instr/hwprof_instr.c -o "$cov/tools/hwprof-instr" -lelf
"$cov/tools/hwprof-instr" instrument --quiet --k=4 "$build/instr/sort.elf" -o "$cov/tools/sort-min.elf"
"$cov/tools/hwprof-instr" instrument --quiet --mode=all "$build/instr/interp.elf" -o "$cov/tools/interp-all.elf"
"$cov/tools/hwprof-instr" cfg "$build/instr/lz.elf" >/dev/null
cc $CFLAGS $tools_inc ${WPP_SRC:?WPP_SRC must list the hwprof-wpp sources (run through make cov)} sw/host/wpp/hwprof_wpp.c -o "$cov/tools/hwprof-wpp" -lelf
"$build/sim/hwprof-sim" --quiet --trace-out="$cov/tools/sort.htr" --blocks-out="$cov/tools/sort.blk" "$build/workloads/sort.elf" >/dev/null
w="$cov/tools/hwprof-wpp"
"$w" analyze --quiet --trace="$cov/tools/sort.htr" --elf="$build/workloads/sort.elf" --out="$cov/tools/sort" --buckets=16
"$w" analyze --quiet --blocks="$cov/tools/sort.blk" --out="$cov/tools/sortb" --sort=full --insert=head --levels=6
"$w" blocks --trace="$cov/tools/sort.htr" --elf="$build/workloads/sort.elf" --text --disasm >/dev/null
"$w" probes --trace="$cov/tools/sort.htr" --elf="$build/workloads/sort.elf" --buckets=16 >/dev/null
"$w" query "$cov/tools/sort.idx" --insn=1000 >/dev/null
"$w" query "$cov/tools/sort.idx" --path-number=100 >/dev/null
"$w" query "$cov/tools/sort.idx" --unit=strata:1 >/dev/null
"$w" --help >/dev/null

# one report of every C line the runs above executed: the C model (bench and unit tests), the
# drivers and firmware (unit tests), the tools; lcov's HTML (Debian's lcov, which make cov installs)
echo "cov: lcov report of the C code" >&2
lcov --quiet --capture --directory "$cov/model" --directory "$cov/unit" --directory "$cov/tools" \
  --output-file "$cov/c-all.info" >"$cov/lcov.log" 2>&1 || { cat "$cov/lcov.log"; exit 1; }
lcov --quiet --extract "$cov/c-all.info" "$root/cmodel/*" "$root/sw/*" "$root/sim/*" --output-file "$cov/c.info" \
  >>"$cov/lcov.log" 2>&1 || { cat "$cov/lcov.log"; exit 1; }
genhtml --quiet --title "hwprof: C model, drivers, firmware, tools" "$cov/c.info" --output-directory "$cov/c-html" \
  >>"$cov/lcov.log" 2>&1 || { cat "$cov/lcov.log"; exit 1; }

echo
echo "RTL coverage of the lockstep benches (top: directed, 2 x 500k random cycles, 300k-cycle counts test;"
echo "co-processor: timing, host, 200k busy and 500k random cycles; front end: directed, 500k random cycles):"
python3 tools/covsum.py "$cov/merged.dat" --waivers=tools/cov-waivers.txt --uncovered=40
echo "(annotated sources: $cov/annotated/)"
echo
echo "C line coverage (lcov; HTML in $cov/c-html/index.html):"
lcov --summary "$cov/c.info" 2>&1 | grep -E 'lines|functions' | sed 's/^/ /'
lcov --list "$cov/c.info" 2>/dev/null | awk -F'|' 'NF > 2 && $1 ~ /\.c/ { print "  " $1 "|" $2 }' | head -80
echo
echo "C model line coverage (gcov):"
for c in cmodel/*/*.c; do  # every block folder (the root holds only ports.h)
  [ "${c#cmodel/prim/}" = "$c" ] || continue
  n=$(basename "${c%.c}")
  b=$(cd "$cov/model" && gcov -n "$n.o" 2>/dev/null | awk -v f="$c" '$0 ~ "File .*"f"" {getline; print; exit}')
  u=$(cd "$cov/unit" && gcov -n "$n.o" 2>/dev/null |
      awk -v f="$c" '$0 ~ "File .*"f"" {getline; print; exit}')
  printf '  %-16s bench: %-36s unit tests: %s\n' "$c" "${b:-no data}" "${u:-no data}"
done
