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
ar rcs "$cov/model/libhwprof_model.a" "$cov"/model/*.o
cc -std=c11 -Wall -Wextra -Werror -Isw/include -Icmodel -Itb -O1 -c tb/progen.c -o "$cov/tbc_progen.o"
verilator --cc --exe --build -j "$(nproc)" -Wall --assert --trace-fst --coverage-line --coverage-toggle \
  --Mdir "$cov/obj" --top-module hwprof_top \
  -CFLAGS "-O1 -I$root/tb -I$root/cmodel -I$root/sw/include" \
  -LDFLAGS "$root/$cov/tbc_progen.o $root/$cov/model/libhwprof_model.a --coverage" \
  -o "$root/$cov/Vhwprof_top" rtl/hwprof.vlt $rtl_src \
  $(for f in $tb_src; do echo "$root/$f"; done) >"$cov/build.log" 2>&1 || { cat "$cov/build.log"; exit 1; }

echo "cov: running the directed test, two random seeds and the counts test" >&2
HWPROF_COVERAGE_FILE="$cov/directed.dat" "$cov/Vhwprof_top" --test=directed --quiet
HWPROF_COVERAGE_FILE="$cov/random1.dat" "$cov/Vhwprof_top" --seed=1 --cycles=500000 --quiet
HWPROF_COVERAGE_FILE="$cov/random2.dat" "$cov/Vhwprof_top" --seed=2 --cycles=500000 --quiet
HWPROF_COVERAGE_FILE="$cov/counts.dat" "$cov/Vhwprof_top" --test=counts --seed=3 --cycles=300000 --quiet
HWPROF_COVERAGE_FILE="$cov/program.dat" "$cov/Vhwprof_top" --test=program --seed=4 --cycles=300000 --quiet
# the value profiler's blocks in their own benches (the top bench only pokes at them): the engine
# with the format's random programs, the front end with its random stream
echo "cov: the co-processor engine and the value-profiling front end in their benches" >&2
mkdir -p "$cov/cop"
cop_lib_src="sw/cop/cop_isa_tables.c sw/cop/cop_image.c sw/cop/cop_asm.c sw/cop/cop_interp.c"  # not hwprof_cpasm.c (a main)
for c in $cop_lib_src; do cc -std=c11 -Isw/include -Isw/cop -O1 -c "$c" -o "$cov/cop/$(basename "${c%.c}").o"; done
ar rcs "$cov/cop/libhwprof_cop.a" "$cov"/cop/*.o
for b in cop vpf; do
  srcs="rtl/hwprof_pkg.sv rtl/hwprof_cop_pkg.sv rtl/prim/hwprof_prim_counters.sv"
  [ "$b" = cop ] && srcs="$srcs rtl/reg/hwprof_cop_reg.sv rtl/hwprof_cop.sv"
  [ "$b" = vpf ] && srcs="$srcs rtl/reg/hwprof_vpf_reg.sv rtl/hwprof_sbuf.sv rtl/hwprof_vpf.sv"
  verilator --cc --exe --build -j "$(nproc)" -Wall --assert --trace-fst --coverage-line --coverage-toggle \
    --Mdir "$cov/obj_$b" --top-module "hwprof_$b" \
    -CFLAGS "-O1 -I$root/tb -I$root/cmodel -I$root/sw/include -I$root/sw/cop" \
    -LDFLAGS "$root/$cov/model/libhwprof_model.a $root/$cov/cop/libhwprof_cop.a --coverage" \
    -o "$root/$cov/V$b" rtl/hwprof.vlt $srcs "$root/tb/tb_$b.cpp" "$root/tb/lockstep.cpp" >"$cov/build_$b.log" 2>&1 ||
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
model_objs "$cov/unit"
for c in sw/*.c sw/cfg/hwprof_cfg.c $cop_lib_src sw/vp/vp_estimate.c sw/vp/vp_fw.c; do
  cc $CFLAGS -Isw/cfg -Isw/cop -Isw/vp -Itb -c "$c" -o "$cov/unit/sw_$(basename "${c%.c}").o"
done
for c in tb/*.c tests/model_sys.c sim/rv32.c sw/profmap/profmap.c sw/elf/hwprof_elf.c; do
  cc -std=c11 -Itb -Itests -Isim -Isw/profmap -Isw/cfg -Isw/include -Isw/elf -Icmodel -O1 -c "$c" -o "$cov/unit/aux_$(basename "${c%.c}").o"
done
for t in tests/test_*.c; do
  n=$(basename "${t%.c}")
  cc $CFLAGS -D_POSIX_C_SOURCE=200809L -Itb -Itests -Isim -Isw/profmap -Isw/cfg -Isw/elf -Isw/cop -Isw/vp "$t" "$cov"/unit/*.o -o "$cov/unit/$n" \
    $(pkg-config --cflags --libs cmocka) -lelf
  "$cov/unit/$n" >/dev/null 2>&1
done

echo
echo "RTL coverage of the lockstep benches (top: directed, 2 x 500k random cycles, 300k-cycle counts test;"
echo "co-processor: timing, host, 200k busy and 500k random cycles; front end: directed, 500k random cycles):"
python3 tools/covsum.py "$cov/merged.dat"
echo "(annotated sources: $cov/annotated/)"
echo
echo "C model line coverage (gcov):"
for c in cmodel/*.c; do
  n=$(basename "${c%.c}")
  b=$(cd "$cov/model" && gcov -n "$n.o" 2>/dev/null | awk -v f="cmodel/$n.c" '$0 ~ "File .*"f"" {getline; print; exit}')
  u=$(cd "$cov/unit" && gcov -n "$n.o" 2>/dev/null |
      awk -v f="cmodel/$n.c" '$0 ~ "File .*"f"" {getline; print; exit}')
  printf '  %-16s bench: %-36s unit tests: %s\n' "$c" "${b:-no data}" "${u:-no data}"
done
