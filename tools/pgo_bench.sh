#!/usr/bin/env bash
# make bench, section 13: a compiler fed by the hardware's profile (docs/report.md). For each
# workload and Embench program, cycles of the whole run on the CPU model under a stated cycle model
# (--taken-penalty=2: two idle cycles after every taken transfer; --icache=8192: an 8 KiB
# direct-mapped instruction cache, 16-byte lines, 10 cycles a miss) for five builds:
#  - gcc:        GCC -O2
#  - gcc-pgo:    GCC -O2 -fprofile-use, fed by the .gcda of a -fprofile-arcs run (instrumented PGO,
#                the baseline a user would otherwise pick; its profiling run costs what section 4's
#                -fprofile-arcs column says)
#  - gcc-hw:     GCC -O2 -fauto-profile, fed by hwprof-report afdo --callsites: the exact edge profile
#                the hardware read back from a GCC -O2 -fno-inline build instrumented by hwprof-instr
#  - gcc-hwi:    GCC -O2 -fauto-profile, fed by hwprof-report afdo --callsites on the production build
#                itself (gcc, instrumented): code inlined there goes to the inlined function's profile
#                at its call site, as the DWARF's inline stacks show it
#  - gcc-unroll: GCC -O2 -funroll-loops -fpeel-loops without a profile: two of the optimizations
#                -fprofile-use turns on, to tell their share of its gain from the profile's
#  - clang:      clang -O2
#  - clang-hw:   clang -O2 -fprofile-sample-use, fed by hwprof-report sample: the exact edge profile
#                the hardware read back from a clang -O2 -fno-inline -fdebug-info-for-profiling build
#                instrumented by hwprof-instr (its profiling run's extra instructions are printed: the
#                hardware's cost)
#  - clang-hwi:  clang -O2 -fprofile-sample-use, fed by hwprof-report sample on the production build
#                (clang -O2 -fdebug-info-for-profiling, instrumented), inline stacks kept
# Each build's gain is against its own compiler without a profile. Every run's output must equal
# its plain build's, and the profiled run's edge profile the exact counts.
# usage: tools/pgo_bench.sh BUILD_DIR [EMBENCH_DIR [BIGPROGS_DIR]]   (PGO_ONLY="NAME...": those alone)
set -euo pipefail
build=${1:-build}
embench=${2:-../shared/embench}
bigprogs=${3:-../shared/bigprogs}
sim_bin=$(realpath -m "$build/sim/hwprof-sim")
instr=$(realpath -m "$build/instr/hwprof-instr")
report=$(realpath -m "$build/report/hwprof-report")
model=(--taken-penalty=2 --icache=8192 --icache-miss=10)
out=$(realpath -m "$build/pgo") # absolute: each program builds in its own folder (cd), and its flags name files there
mkdir -p "$out"
sim() { "$sim_bin" --max-insns=2000000000 "$@"; }
for t in "$sim_bin" "$instr" "$report"; do
  [ -x "$t" ] || { echo "pgo bench: $t is missing (make workloads)" >&2; exit 2; }
done
for t in clang riscv64-unknown-elf-gcc; do
  command -v "$t" >/dev/null || { echo "pgo bench: $t not found (make deps)" >&2; exit 2; }
done
root=$(pwd)
pico=/usr/lib/picolibc/riscv64-unknown-elf/include
link=(--specs=picolibc.specs --oslib=semihost --crt0=semihost -march=rv32im -mabi=ilp32
  -Wl,--defsym=__flash=0x80000000 -Wl,--defsym=__flash_size=0x200000 -Wl,--defsym=__ram=0x80200000
  -Wl,--defsym=__ram_size=0x200000 -Wl,--emit-relocs -Wl,--no-relax)
gcc_c=(riscv64-unknown-elf-gcc --specs=picolibc.specs -march=rv32im -mabi=ilp32 -O2 -g)
# clang keeps a relocation on every call with -ffunction-sections (the instrumenter moves code); a
# static bare-metal program's thread-local variables (picolibc's errno) are local-exec
clang_c=(clang --target=riscv32-unknown-elf -march=rv32im -mabi=ilp32 -isystem "$pico" -O2 -g -ffunction-sections
  -ftls-model=local-exec)

# programs: NAME|SOURCES (relative to the repository)|extra compiler flags|link flags (default: the
# workloads' memory map)
progs=()
for w in sort hashtab interp lz graph matrix; do progs+=("$w|sim/workloads/$w.c||"); done
if [ -d "$embench/src" ]; then
  for d in "$embench"/src/*/; do
    p=$(basename "$d")
    srcs=$(ls "$d"*.c | tr '\n' ' ')
    progs+=("$p|$srcs $embench/support/main.c $embench/support/beebsc.c sim/embench/board.c|-DHAVE_BOARDSUPPORT_H -include $root/sim/embench/boardsupport.h -I$root/sim/embench -I$root/$embench/support -I$root/$d|")
  done
else
  echo "(../shared/embench is not there: no Embench programs)"
fi
# the large programs as ../shared/bigprogs/README builds them (4 MiB of code, then 4 MiB of RAM)
big_map="-Wl,--defsym=__flash=0x80000000 -Wl,--defsym=__flash_size=0x400000 -Wl,--defsym=__ram=0x80400000 -Wl,--defsym=__ram_size=0x400000"
if [ -f "$bigprogs/lua/onelua.c" ]; then
  progs+=("lua|$bigprogs/lua/onelua.c $bigprogs/lua/bench_main.c|-DMAKE_LIB -DLUA_USE_C89|$big_map")
fi
if [ -f "$bigprogs/zstd/bench_main.c" ]; then
  zs=$(ls "$bigprogs"/zstd/common/*.c "$bigprogs"/zstd/compress/*.c "$bigprogs"/zstd/decompress/*.c | tr '\n' ' ')
  progs+=("zstd|$zs $bigprogs/zstd/bench_main.c|-DZSTD_NO_INTRINSICS -DZSTD_DISABLE_ASM -DZSTD_LEGACY_SUPPORT=0 -I$root/$bigprogs/zstd -I$root/$bigprogs/zstd/common|$big_map")
fi
[ -d "$bigprogs" ] || echo "(../shared/bigprogs is not there: no large programs)"
if [ -n "${PGO_ONLY:-}" ]; then # PGO_ONLY="lua zstd": only these programs
  kept=()
  for p in "${progs[@]}"; do [[ " $PGO_ONLY " == *" ${p%%|*} "* ]] && kept+=("$p"); done
  progs=("${kept[@]}")
fi

cycles() { sed -n 's/^  timing: \([0-9]*\) cycles.*/\1/p' "$1" | head -1; }
insns() { sed -n 's/.*: \([0-9]*\) instructions, exit code 0.*/\1/p' "$1" | head -1; }

# one program: every build and run in $out/NAME/, one result line in $out/NAME/result
one() {
  local name=$1 srcs=$2 flags=$3 map=$4 d="$out/$1" s abs=() f
  rm -rf "$d" && mkdir -p "$d"
  for s in $srcs; do abs+=("$root/$s"); done
  # shellcheck disable=SC2206
  local fl=($flags) lk=("${link[@]}")
  # shellcheck disable=SC2206
  [ -n "$map" ] && lk=("${link[@]:0:5}" $map "${link[@]:9}")
  local rc=0
  (
    set -e
    cd "$d"
    # hw_profile B REPORT-ARGS...: B.elf instrumented and run (B-hw.*), its plain run (B-plain.*), and
    # hwprof-report REPORT-ARGS on the profile read back (B-hw.map, B.prof)
    hw_profile() {
      local b=$1
      shift
      "$instr" instrument --quiet "$b.elf" -o "$b-hw.elf"
      sim --engine=none "$b.elf" >"$b-plain.out" 2>"$b-plain.err"
      sim --edge-map="$b-hw.map" --edge-profile="$b.prof" "$b-hw.elf" >"$b-hw.out" 2>"$b-hw.err"
      "$report" "$1" --quiet "${@:2}" "$b-hw.map" "$b.prof"
    }
    # GCC, plain and with instrumented PGO (objects by name, so that -fprofile-use finds the .gcda)
    mkdir -p gcc gcc-gen gcc-pgo run-gen
    for f in "${abs[@]}"; do
      o=$(basename "$f" .c).o
      "${gcc_c[@]}" "${fl[@]}" -c "$f" -o "gcc/$o"
      (cd gcc-gen && "${gcc_c[@]}" "${fl[@]}" -fprofile-arcs -fprofile-info-section=gcov_info -c "$f" -o "$o")
    done
    "${gcc_c[@]}" -c "$root/sw/fw/rt/gcov_rt.c" -o gcov_rt.o
    riscv64-unknown-elf-gcc "${lk[@]}" gcc/*.o -lm -o gcc.elf
    # GCC fed by the hardware: the profiling build (-fno-inline: a flat profile), then -fauto-profile
    mkdir -p gcc-prof gcc-hw
    for f in "${abs[@]}"; do "${gcc_c[@]}" "${fl[@]}" -fno-inline -c "$f" -o "gcc-prof/$(basename "$f" .c).o"; done
    riscv64-unknown-elf-gcc "${lk[@]}" gcc-prof/*.o -lm -o gcc-prof.elf
    hw_profile gcc-prof afdo --callsites -o gcc-prof.afdo
    for f in "${abs[@]}"; do "${gcc_c[@]}" "${fl[@]}" -fauto-profile="$d/gcc-prof.afdo" -c "$f" -o "gcc-hw/$(basename "$f" .c).o"; done
    riscv64-unknown-elf-gcc "${lk[@]}" gcc-hw/*.o -lm -o gcc-hw.elf
    # ... and the production build itself profiled: gcc.elf instrumented, its inlined code given to the
    # inlined functions at their call sites (the DWARF's inline stacks), then -fauto-profile
    mkdir -p gcc-hwi
    cp gcc.elf gcc-O2.elf
    hw_profile gcc-O2 afdo --callsites -o gcc-O2.afdo
    for f in "${abs[@]}"; do "${gcc_c[@]}" "${fl[@]}" -fauto-profile="$d/gcc-O2.afdo" -c "$f" -o "gcc-hwi/$(basename "$f" .c).o"; done
    riscv64-unknown-elf-gcc "${lk[@]}" gcc-hwi/*.o -lm -o gcc-hwi.elf
    mkdir -p gcc-unroll
    for f in "${abs[@]}"; do "${gcc_c[@]}" "${fl[@]}" -funroll-loops -fpeel-loops -c "$f" -o "gcc-unroll/$(basename "$f" .c).o"; done
    riscv64-unknown-elf-gcc "${lk[@]}" gcc-unroll/*.o -lm -o gcc-unroll.elf
    riscv64-unknown-elf-gcc "${lk[@]}" gcc-gen/*.o gcov_rt.o -lgcov -lm -o gcc-gen.elf
    sim --engine=none --out-dir=run-gen gcc-gen.elf >gcc-gen.out 2>gcc-gen.err
    # the runtime wrote gcc-gen/NAME.gcda (the simulator drops the directory); -fprofile-use looks
    # for it beside the object it writes
    cp run-gen/*.gcda gcc-pgo/
    for f in "${abs[@]}"; do
      (cd gcc-pgo && "${gcc_c[@]}" "${fl[@]}" -fprofile-use -Werror=missing-profile -c "$f" -o "$(basename "$f" .c).o")
    done
    riscv64-unknown-elf-gcc "${lk[@]}" gcc-pgo/*.o -lm -o gcc-pgo.elf
    # clang, plain, the profiling build (-fno-inline: a flat profile) and the one fed by the hardware
    mkdir -p clang clang-prof clang-hw clang-O2 clang-hwi
    for f in "${abs[@]}"; do
      o=$(basename "$f" .c).o
      "${clang_c[@]}" "${fl[@]}" -c "$f" -o "clang/$o"
      "${clang_c[@]}" "${fl[@]}" -fno-inline -fdebug-info-for-profiling -c "$f" -o "clang-prof/$o"
      "${clang_c[@]}" "${fl[@]}" -fdebug-info-for-profiling -c "$f" -o "clang-O2/$o"
    done
    # the production build profiled (as it ships, with -fdebug-info-for-profiling), inline stacks kept
    riscv64-unknown-elf-gcc "${lk[@]}" clang-O2/*.o -lm -o clang-O2.elf
    hw_profile clang-O2 sample -o clang-O2.sample.txt
    for f in "${abs[@]}"; do
      "${clang_c[@]}" "${fl[@]}" -fprofile-sample-use=clang-O2.sample.txt -c "$f" -o "clang-hwi/$(basename "$f" .c).o"
    done
    riscv64-unknown-elf-gcc "${lk[@]}" clang-hwi/*.o -lm -o clang-hwi.elf
    riscv64-unknown-elf-gcc "${lk[@]}" clang/*.o -lm -o clang.elf
    riscv64-unknown-elf-gcc "${lk[@]}" clang-prof/*.o -lm -o clang-prof.elf
    hw_profile clang-prof sample -o clang-prof.sample.txt
    for f in "${abs[@]}"; do
      "${clang_c[@]}" "${fl[@]}" -fprofile-sample-use=clang-prof.sample.txt -c "$f" -o "clang-hw/$(basename "$f" .c).o"
    done
    riscv64-unknown-elf-gcc "${lk[@]}" clang-hw/*.o -lm -o clang-hw.elf
    for b in gcc gcc-unroll gcc-pgo gcc-hw gcc-hwi clang clang-hw clang-hwi; do
      sim --engine=none "${model[@]}" $b.elf >$b.out 2>$b.err
    done
  ) >"$d/build.log" 2>&1 || rc=$?
  [ $rc = 0 ] || { echo "$name: build or run failed (see $d/build.log)"; return 1; }
  local b ok=1
  for b in gcc-unroll gcc-pgo gcc-hw gcc-hwi clang-hw clang-hwi; do
    cmp -s "$d/$b.out" "$d/${b%%-*}.out" || { echo "$name: $b prints something else than ${b%%-*}"; ok=0; }
  done
  for b in gcc-prof clang-prof gcc-O2 clang-O2; do
    cmp -s "$d/$b-hw.out" "$d/$b-plain.out" || { echo "$name: the instrumented $b build prints something else"; ok=0; }
    grep -q 'edge check: .* 0 differences' "$d/$b-hw.err" || { echo "$name: the hardware profile of the $b build differs from the exact counts"; ok=0; }
  done
  [ $ok = 1 ] || return 1
  printf '%s %s %s %s %s %s %s %s %s %s %s %s %s\n' "$name" "$(cycles "$d/gcc.err")" "$(cycles "$d/gcc-pgo.err")" "$(cycles "$d/clang.err")" \
    "$(cycles "$d/clang-hw.err")" "$(insns "$d/clang-prof-plain.err")" "$(insns "$d/clang-prof-hw.err")" \
    "$(cycles "$d/gcc-unroll.err")" "$(cycles "$d/gcc-hw.err")" "$(cycles "$d/gcc-hwi.err")" "$(cycles "$d/clang-hwi.err")" \
    "$(insns "$d/gcc-O2-plain.err")" "$(insns "$d/gcc-O2-hw.err")" >"$d/result"
}

echo "== 13. A compiler fed by the hardware's profile: cycles of the whole run under the cycle model below;"
echo "      GCC with instrumented PGO (gcc-pgo), GCC and clang fed the hardware's exact edge profile as an"
echo "      AutoFDO file (gcc-hw, gcc-hwi: hwprof-report afdo) and an LLVM sample profile (clang-hw,"
echo "      clang-hwi: hwprof-report sample), each against the same compiler without a profile; gcc-unroll:"
echo "      GCC with the loop unrolling and peeling -fprofile-use turns on, without a profile"
echo "      (tools/pgo_bench.sh)"
fail=0
for p in "${progs[@]}"; do
  IFS='|' read -r name srcs flags map <<<"$p"
  while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n || fail=1; done
  one "$name" "$srcs" "$flags" "$map" &
done
wait || fail=1

printf '(cycle model: %s; every build prints what its plain build prints)\n' "${model[*]}"
printf '%-14s | %10s %8s %8s %8s %8s | %10s %8s %8s | %8s %8s\n' program gcc gcc-pgo gcc-hw gcc-hwi gcc-unr \
  clang clang-hw clang-hwi "cost O2" "cost -fni"
awk '
  function pct(a, b) { return 100 * (b - a) / b }
  { printf "%-14s | %10d %+7.2f%% %+7.2f%% %+7.2f%% %+7.2f%% | %10d %+7.2f%% %+7.2f%% | %+7.3f%% %+7.3f%%\n", $1, $2,
      pct($3, $2), pct($9, $2), pct($10, $2), pct($8, $2), $4, pct($5, $4), pct($11, $4), 100 * ($13 - $12) / $12,
      100 * ($7 - $6) / $6
    lg += log($2 / $3); lh += log($2 / $9); li += log($2 / $10); lu += log($2 / $8); lc += log($4 / $5)
    lci += log($4 / $11); lo += log($13 / $12); n++ }
  END { if (n) printf "%-14s | %10s %+7.2f%% %+7.2f%% %+7.2f%% %+7.2f%% | %10s %+7.2f%% %+7.2f%% | %+7.3f%%\n", "geomean (" n ")",
          "", 100 * (1 - exp(-lg / n)), 100 * (1 - exp(-lh / n)), 100 * (1 - exp(-li / n)), 100 * (1 - exp(-lu / n)), "",
          100 * (1 - exp(-lc / n)), 100 * (1 - exp(-lci / n)), 100 * (exp(lo / n) - 1) }
' < <(for p in "${progs[@]}"; do IFS='|' read -r name _ <<<"$p"; cat "$out/$name/result" 2>/dev/null || true; done)
echo "(gains: fewer cycles than the same compiler without a profile. gcc-hw and clang-hw are fed the profile of"
echo " a -fno-inline build (gcc-hw with the callees' samples at their call sites: hwprof-report --callsites);"
echo " gcc-hwi and clang-hwi that of the production -O2 build itself, its inlined code nested at the call"
echo " sites (the DWARF's inline stacks; clang's build with -fdebug-info-for-profiling). cost O2: extra"
echo " instructions of the instrumented production GCC build, the profiling run gcc-hwi needs; cost -fni: of"
echo " the instrumented clang -fno-inline build over itself)"
exit $fail
