# The instrumenter's checks of make test (docs/instrumenter.md), sourced by tools/runtests.sh, whose
# check(), $build, $logdir, $par, $sc and $plain_workloads they use: exact edge profiles on the C
# model and the RTL, the gcov oracle, refused and unanalysable input, the fuzzers' regression inputs,
# the ASan build's output, the CFG layer.

# --- the instrumenter: every workload instrumented (mode minimal from the build, mode all
#     here; K = 4, so functions are split into regions), run on the C model alone (hwprof-sim) and
#     on the RTL with the C model in lockstep (hwprof-sc); after each run the cache is flushed, the
#     edge profile derived from the counters, and it must equal the exact edge counts of the run
edge_profiles_c_model() {
  local elf name out rc=0 m
  for elf in "${prof_workloads[@]}"; do
    name=$(basename "$elf" -prof.elf)
    "$instr" instrument --quiet --mode=all --k=4 "$build/instr/$name.elf" -o "$logdir/$name-all.elf" || return 1
    for m in "${elf%.elf}" "$logdir/$name-all"; do
      out=$("$build/sim/hwprof-sim" --edge-map="$m.map" "$m.elf" 2>&1 >/dev/null) || { echo "$out"; rc=1; }
      echo "$(basename "$m"): $(grep -o 'edge check:.*' <<<"$out" | head -1)"
      grep -q 'edge check: .* 0 differences' <<<"$out" || rc=1
    done
  done
  return $rc
}
check instr-edge-profiles-exact-c-model edge_profiles_c_model

# ... and with the RTL in lockstep, in both instrumentation modes (minimal at K = 4, and all: every
# branch's two edges counted, which exercises the either/all hints and their counters)
edge_profiles_rtl() {
  local elf name rc=0 all=()
  for elf in "${prof_workloads[@]}"; do
    name=$(basename "$elf" -prof.elf)
    [ -f "$logdir/$name-all.elf" ] ||
      "$instr" instrument --quiet --mode=all --k=4 "$build/instr/$name.elf" -o "$logdir/$name-all.elf" || return 1
    all+=("$logdir/$name-all.elf")
  done
  sc_runs sc-edge "--engine=lockstep" "--edge-map=@MAP@" -- "${prof_workloads[@]}" "${all[@]}"
  for elf in "${prof_workloads[@]}" "${all[@]}"; do
    name=$(basename "$elf" .elf)
    out=$(cat "$logdir/sc-edge-$name.out")
    echo "$name: exit $(cat "$logdir/sc-edge-$name.rc"); $(grep -o 'edge check:.*differences' <<<"$out"); $(grep -o 'lockstep:.*' <<<"$out")"
    [ "$(cat "$logdir/sc-edge-$name.rc")" = 0 ] && grep -q 'edge check: .* 0 differences' <<<"$out" &&
      grep -q ' 0 mismatches' <<<"$out" || { grep -A12 'MISMATCH\|error' <<<"$out"; rc=1; }
  done
  return $rc
}
check instr-edge-profiles-exact-rtl-lockstep edge_profiles_rtl

# setjmp and longjmp (docs/instrumenter.md, "setjmp and longjmp"): tests/programs/unwind.c leaves
# linked calls, nested protected calls, a loop that calls setjmp and recursion up to 27 frames deep
# by longjmp. Instrumented (the
# ASan/UBSan instrumenter) in both modes, at K = 2 and 4, with a link stack spill area (recursion
# linked, frames in memory when the jump comes), without linked calls: each build names its two
# calls of setjmp (the landing code), and its edge profile equals the exact counts of the run on the C
# model; the default and the spilling builds on the RTL in lockstep too. Without the landing code
# the abandoned frames stay on the link stack: LINK.ERR, or counts in the wrong function's area.
# (Mutants of the landing code that skip the cut of the ring's count, or of the lines in memory,
# give differences here.)
instr_longjmp() {
  local v name out rc=0 elfs=() d="$logdir/unwind"
  mkdir -p "$d"
  for v in "" --mode=all --k=2 --link-spill=4096 --no-linked-calls; do
    name=unwind${v//[^a-z0-9]/}
    out=$("$build/unit/hwprof-instr-asan" instrument --k=4 $v "$build/instr/unwind.elf" -o "$d/$name.elf" 2>&1) ||
      { echo "$v: $out"; rc=1; continue; }
    grep -q '^hwprof-instr: 2 calls of functions that return twice' <<<"$out" || { echo "$name: no landing code"; rc=1; }
    out=$("$build/sim/hwprof-sim" --edge-map="$d/$name.map" "$d/$name.elf" 2>&1 >/dev/null)
    echo "$name: $(grep -o 'edge check:.*differences' <<<"$out" | head -1)"
    grep -q 'edge check: .* 0 differences' <<<"$out" || { grep -i 'error\|LINK' <<<"$out"; rc=1; }
  done
  elfs=("$d/unwind.elf" "$d/unwindlinkspill4096.elf")
  sc_runs sc-unwind "--engine=lockstep" "--edge-map=@MAP@" -- "${elfs[@]}"
  for v in "${elfs[@]}"; do
    name=$(basename "$v" .elf)
    out=$(cat "$logdir/sc-unwind-$name.out")
    echo "$name on the RTL in lockstep: exit $(cat "$logdir/sc-unwind-$name.rc"); $(grep -o 'edge check:.*differences' <<<"$out"); $(grep -o 'lockstep:.*' <<<"$out")"
    [ "$(cat "$logdir/sc-unwind-$name.rc")" = 0 ] && grep -q 'edge check: .* 0 differences' <<<"$out" &&
      grep -q ' 0 mismatches' <<<"$out" || rc=1
  done
  # two frames that call setjmp 16 KiB apart share the landing table's slot: the landing in the
  # outer one cannot find its depths, and the profile is refused (exit 4), never wrong
  for v in "" --link-spill=4096; do
    name=unwind-collide${v//[^a-z0-9]/}
    "$build/unit/hwprof-instr-asan" instrument --quiet $v "$build/instr/unwind-collide.elf" -o "$d/$name.elf" || { rc=1; continue; }
    out=$("$build/sim/hwprof-sim" --edge-map="$d/$name.map" "$d/$name.elf" 2>&1 >/dev/null)
    local st=$?
    echo "$name: exit $st: $(grep -o 'edge check:.*' <<<"$out" | head -1)"
    [ $st = 4 ] && grep -q 'edge check: .*(LINK.ERR: .*longjmp.*not exact' <<<"$out" || rc=1
  done
  return $rc
}
check instr-longjmp-landings-exact instr_longjmp

# gcov as a second oracle: each function's invocation count in the profile read back from the
# hardware equals gcov's for the -fprofile-arcs build (the freestanding runtime writes the .gcda)
gcov_oracle() {
  local w rc=0 out
  for elf in "${prof_workloads[@]}"; do
    w=$(basename "$elf" -prof.elf)
    mkdir -p "$logdir/gcov"
    cp "$build/gcov/$w.gcno" "$logdir/gcov/"
    rm -f "$logdir/gcov/$w.gcda"  # a run that writes none must not be judged on an earlier one's
    "$build/sim/hwprof-sim" --engine=none --out-dir="$logdir/gcov" "$build/gcov/$w.elf" >/dev/null 2>&1 || { echo "$w: gcov build failed"; rc=1; continue; }
    [ -s "$logdir/gcov/$w.gcda" ] || { echo "$w: no .gcda written"; rc=1; continue; }
    riscv64-unknown-elf-gcov --json-format --stdout -o "$logdir/gcov" "sim/workloads/$w.c" >"$logdir/gcov/$w.json" 2>/dev/null || { rc=1; continue; }
    "$build/sim/hwprof-sim" --edge-map="${elf%.elf}.map" --edge-profile="$logdir/gcov/$w.prof" "$elf" >/dev/null 2>&1 || { rc=1; continue; }
    out=$(python3 tb/oracle/gcov_oracle.py "$logdir/gcov/$w.json" "$logdir/gcov/$w.prof" "${elf%.elf}.map" "$elf") || rc=1
    echo "$w: $out"
  done
  return $rc
}
check gcov-oracle-function-counts gcov_oracle

# ... and gcov's function and line counts against the hardware's in one binary: each workload built
# at -O0 with -fprofile-arcs, instrumented, run once (gcov_same_run in tools/checks/common.sh)
gcov_lines() {
  local g rc=0
  for g in "$build"/gcov/O0/*.elf; do
    gcov_same_run "$(basename "$g" .elf)" "$g" "$logdir/gcov-O0/$(basename "$g" .elf)" || rc=1
  done
  return $rc
}
check gcov-oracle-functions-lines-O0 gcov_lines

# lcov tracefiles (docs/report.md): each workload's hardware profile (from gcov-oracle-function-counts)
# written by hwprof-report (ASan/UBSan): every line and conditional branch count equal to what the
# CPU model's retire stream (hwprof-sim --pc-counts, the uninstrumented program) and binutils' line
# table give (tb/oracle/lcov_oracle.py), every line that ran in a profiled function recorded
lcov_workloads() {
  local w rc=0 out
  mkdir -p "$logdir/lcov-wl"
  for elf in "${prof_workloads[@]}"; do
    w=$(basename "$elf" -prof.elf)
    [ -s "$logdir/gcov/$w.prof" ] || { echo "$w: no profile (an earlier check failed)"; rc=1; continue; }
    "$build/sim/hwprof-sim" --engine=none --quiet --pc-counts="$logdir/lcov-wl/$w.counts" "$build/instr/$w.elf" >/dev/null 2>&1 ||
      { echo "$w: the uninstrumented run failed"; rc=1; continue; }
    out=$("$build/unit/hwprof-report-asan" lcov "${elf%.elf}.map" "$logdir/gcov/$w.prof" -o "$logdir/lcov-wl/$w.info" 2>&1) ||
      { echo "$w: $out"; rc=1; continue; }
    echo "$w: ${out#hwprof-report: }"
    out=$(python3 tb/oracle/lcov_oracle.py stream "$logdir/lcov-wl/$w.info" "$build/instr/$w.elf" "$logdir/lcov-wl/$w.counts" 2>&1) || rc=1
    echo "$w: $out"
  done
  return $rc
}
check lcov-workloads-retire-stream lcov_workloads

# programs built by clang: each workload compiled by clang -O2 (calls between functions of one section
# carry no relocation: the instrumenter decodes the auipc/jalr pair), instrumented (ASan/UBSan
# build): the same output as the clang build uninstrumented, exit code 0, the exact edge profile
instr_takes_clang_builds() {
  local elf w out rc=0 n=0
  for elf in "$build"/clang/*.elf; do
    w=$(basename "$elf" .elf)
    out=$("$build/unit/hwprof-instr-asan" instrument --quiet "$elf" -o "$logdir/clang-$w.elf" 2>&1) || { echo "$w: $out"; rc=1; continue; }
    "$build/sim/hwprof-sim" --engine=none "$elf" >"$logdir/clang-$w.plain" 2>/dev/null
    out=$("$build/sim/hwprof-sim" --edge-map="$logdir/clang-$w.map" --edge-profile="$logdir/clang-$w.prof" "$logdir/clang-$w.elf" 2>&1 >"$logdir/clang-$w.out")
    if cmp -s "$logdir/clang-$w.plain" "$logdir/clang-$w.out" && grep -q 'exit code 0' <<<"$out" &&
      grep -q 'edge check: .* 0 differences' <<<"$out"; then
      n=$((n + 1))
    else
      echo "$w: $(grep -o 'exit code [-0-9]*' <<<"$out"); $(grep 'edge check: .*differences' <<<"$out")"
      rc=1
    fi
  done
  echo "$n clang builds instrumented: same output, exit code 0, exact edge profile"
  [ "$n" -ge 6 ] || { echo "expected the 6 workloads"; rc=1; }
  return $rc
}
check instr-takes-clang-builds instr_takes_clang_builds

# the LLVM sample profile (docs/report.md) read by the compiler it is for: hwprof-report sample
# (ASan/UBSan) on each clang-built workload's hardware profile (from instr-takes-clang-builds);
# llvm-profdata reads it, and clang -fprofile-sample-use gives every function the profile has
# samples for the entry count the hardware measured (LLVM's function_entry_count: entries + 1);
# and every function's entries equal the retirements of its first instruction in the uninstrumented
# run (hwprof-sim --pc-counts; its address from binutils' nm)
report_sample_clang() {
  local w s rc=0 out
  for w in sort hashtab interp lz graph matrix; do
    [ -s "$logdir/clang-$w.prof" ] || { echo "$w: no profile (an earlier check failed)"; rc=1; continue; }
    s="$logdir/clang-$w.sample.txt"
    out=$("$build/unit/hwprof-report-asan" sample "$logdir/clang-$w.map" "$logdir/clang-$w.prof" -o "$s" 2>&1) ||
      { echo "$w: $out"; rc=1; continue; }
    "$build/sim/hwprof-sim" --engine=none --quiet --pc-counts="$logdir/clang-$w.counts" "$build/clang/$w.elf" >/dev/null 2>&1
    out=$(riscv64-unknown-elf-nm --defined-only "$build/clang/$w.elf" | awk -v counts="$logdir/clang-$w.counts" '
      BEGIN { while ((getline l < counts) > 0) { split(l, f, " "); c[f[1]] = f[2] } }
      FILENAME != "-" && $0 !~ /^ / { split($0, f, ":"); head[f[1]] = f[3]; next }
      FILENAME == "-" && ($2 == "T" || $2 == "t") && ($3 in head) { m++
        if (head[$3] != c[$1] + 0) { bad++; print "  " $3 ": " head[$3] " entries in the profile, " c[$1] + 0 " in the retire stream" } }
      END { printf "%d functions: entries equal to the retire stream'"'"'s but %d\n", m, bad; exit bad || !m }' \
      "$s" -) || rc=1
    echo "$w: $out"
    llvm-profdata show --sample "$s" >/dev/null || { echo "$w: llvm-profdata does not read it"; rc=1; continue; }
    clang --target=riscv32-unknown-elf -march=rv32im -mabi=ilp32 -isystem /usr/lib/picolibc/riscv64-unknown-elf/include \
      -O2 -g -fno-inline -fprofile-sample-use="$s" -S -emit-llvm "sim/workloads/$w.c" -o "$logdir/clang-$w.ll" ||
      { echo "$w: clang failed"; rc=1; continue; }
    out=$(awk -v samples="$s" '
      BEGIN { while ((getline l < samples) > 0) if (l !~ /^ /) { split(l, f, ":"); head[f[1]] = f[3] } }
      /^define / && match($0, /@[A-Za-z0-9_.]+/) && match($0, /!prof ![0-9]+/) {
        split(substr($0, RSTART, RLENGTH), p, "!"); fn = $0; sub(/^[^@]*@/, "", fn); sub(/\(.*/, "", fn); want[p[3]] = fn }
      /function_entry_count/ { id = $1; sub(/^!/, "", id); n = $0; sub(/.*i64 /, "", n); sub(/}.*/, "", n); got[id] = n + 0 }
      END { for (id in want) { fn = want[id]; if (!(fn in head) || head[fn] == 0) continue
              m++; if (got[id] != head[fn] + 1) { bad++; print "  " fn ": entry count " got[id] ", profile entries " head[fn] } }
            printf "%d functions with samples, %d entry counts differ\n", m, bad; exit bad || !m }' "$logdir/clang-$w.ll") || rc=1
    echo "$w: ${out}"
  done
  return $rc
}
check report-sample-profile-clang report_sample_clang

# the AutoFDO file (docs/report.md) read by GCC: hwprof-report afdo --callsites (ASan/UBSan) on each
# workload's hardware profile (from gcov-oracle-function-counts); GCC -fauto-profile compiles the
# workload with it without a complaint, and its blocks carry counts from it ("(auto FDO)")
report_afdo_gcc() {
  local w a rc=0 out n
  mkdir -p "$logdir/afdo"
  for elf in "${prof_workloads[@]}"; do
    w=$(basename "$elf" -prof.elf)
    a="$logdir/afdo/$w.afdo"
    [ -s "$logdir/gcov/$w.prof" ] || { echo "$w: no profile (an earlier check failed)"; rc=1; continue; }
    out=$("$build/unit/hwprof-report-asan" afdo --callsites "${elf%.elf}.map" "$logdir/gcov/$w.prof" -o "$a" 2>&1) ||
      { echo "$w: $out"; rc=1; continue; }
    echo "$w: ${out#hwprof-report: }"
    out=$(cd "$logdir/afdo" && riscv64-unknown-elf-gcc --specs=picolibc.specs -march=rv32im -mabi=ilp32 -O2 -g \
      -fauto-profile="$w.afdo" -fdump-tree-optimized-blocks-details -c "$OLDPWD/sim/workloads/$w.c" -o "$w.o" 2>&1) ||
      { echo "$w: gcc failed: $out"; rc=1; continue; }
    [ -z "$out" ] || { echo "$w: gcc complained: $out"; rc=1; }
    n=$(cat "$logdir/afdo/$w"*optimized 2>/dev/null | grep -c 'count [0-9]* (auto FDO)')
    echo "$w: gcc -fauto-profile: $n blocks with counts from the file"
    [ "$n" -gt 0 ] || rc=1
  done
  return $rc
}
check report-afdo-gcc report_afdo_gcc

# inline stacks (docs/report.md): hwprof-report sample (ASan/UBSan) on each workload's hardware
# profile of its -O2 build, whose inlined copies go to nested call-site records; every sample with a
# count equal to what binutils' addr2line -i (each address's inline chain) and readelf's declaration
# lines make of the uninstrumented run's retire stream (tb/oracle/inline_oracle.py)
report_inline_stacks() {
  local w s rc=0 out
  mkdir -p "$logdir/inline"
  for elf in "${prof_workloads[@]}"; do
    w=$(basename "$elf" -prof.elf)
    s="$logdir/inline/$w.sample.txt"
    [ -s "$logdir/gcov/$w.prof" ] || { echo "$w: no profile (an earlier check failed)"; rc=1; continue; }
    "$build/sim/hwprof-sim" --engine=none --pc-counts="$logdir/inline/$w.counts" "$build/instr/$w.elf" >/dev/null 2>&1 &&
      out=$("$build/unit/hwprof-report-asan" sample "${elf%.elf}.map" "$logdir/gcov/$w.prof" -o "$s" 2>&1) ||
      { echo "$w: ${out:-the uninstrumented run failed}"; rc=1; continue; }
    echo "$w: ${out#hwprof-report: }"
    out=$(python3 tb/oracle/inline_oracle.py "$s" "$build/instr/$w.elf" "$logdir/inline/$w.counts") || rc=1
    echo "$w: $out"
  done
  return $rc
}
check report-inline-stacks-addr2line report_inline_stacks

# hwprof-report on bad input: one line naming the input, exit 1 (a bad file) or 2 (bad arguments),
# no tracefile left behind
report_bad_input() {
  local map="$build/instr/sort-prof.map" prof="$logdir/gcov/sort.prof" d="$logdir/report-bad" out rc a
  mkdir -p "$d"
  [ -s "$prof" ] || { echo "no profile of sort (an earlier check failed)"; return 1; }
  head -c 300 "$prof" >"$d/truncated.prof"
  sed 's/^edge \(.*\) \([0-9]*\)$/edge \1 x\2/' "$prof" >"$d/malformed.prof"
  printf 'hwprof-profile 2\nfunction no_such_function 0x80000000 entries 1\nend 1 0\n' >"$d/other.prof"
  head -n -1 "$prof" >"$d/no-end.prof" # cut at a line: only the end record tells
  for a in "$d/truncated.prof" "$d/malformed.prof" "$d/other.prof" "$d/no-end.prof" /nonexistent.prof; do
    rm -f "$d/out.info"
    out=$("$build/unit/hwprof-report-asan" lcov "$map" "$a" -o "$d/out.info" 2>&1)
    rc=$?
    echo "$(basename "$a") -> $rc: $out"
    [ "$rc" = 1 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q "$a" <<<"$out" && [ ! -e "$d/out.info" ] || return 1
  done
  # a program without a line table (the instrumented program has no sections)
  out=$("$build/unit/hwprof-report-asan" lcov --program="$build/instr/sort-prof.elf" "$map" "$prof" -o "$d/out.info" 2>&1)
  rc=$?
  echo "no line table -> $rc: $out"
  [ "$rc" = 1 ] && grep -q "sort-prof.elf" <<<"$out" && [ ! -e "$d/out.info" ] || return 1
  # a map that does not describe the program (another program's: as a stale map of a rebuilt one)
  out=$("$build/unit/hwprof-report-asan" lcov --program="$build/instr/lz.elf" "$map" "$prof" -o "$d/out.info" 2>&1)
  rc=$?
  echo "another program's map -> $rc: $out"
  [ "$rc" = 1 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q "sort-prof.map does not describe" <<<"$out" && [ ! -e "$d/out.info" ] || return 1
  # a map cut at a line (between two functions, where only its end record tells)
  head -n "$(($(grep -n '^function' "$map" | sed -n 11p | cut -d: -f1) - 1))" "$map" >"$d/cut.map"
  out=$("$build/unit/hwprof-report-asan" lcov "$d/cut.map" "$prof" -o "$d/out.info" 2>&1)
  rc=$?
  echo "a map cut between two functions -> $rc: $out"
  [ "$rc" = 1 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q "cut.map:[0-9]*: truncated: no end record" <<<"$out" &&
    [ ! -e "$d/out.info" ] || return 1
  for a in --frobnicate --test-name=a-b; do
    out=$("$build/unit/hwprof-report-asan" lcov "$a" "$map" "$prof" 2>&1)
    rc=$?
    echo "$a -> $rc: $out"
    [ "$rc" = 2 ] && grep -q -- "$a" <<<"$out" || return 1
  done
}
check report-rejects-bad-input report_bad_input

# millicode (__riscv_save_N, __riscv_restore_N: several entry points into straight-line code) is not
# instrumented but profiled from its callers' counts: the report and the map say so, and the edge
# check holds its derived edges against the retire stream (0 differences); with its callers' counts
# taken away (the map's from lines of __riscv_restore_12 deleted) the same check finds differences
# there, and with a caller left out (--skip) it is reported as left out with that reason, never
# mis-counted. picolibc's printf core, two indirect jumps sharing one table, is instrumented through
# a dispatch node (its map has the node's edges)
instr_reports_unanalysable() {
  local out d=$logdir/interp-report
  out=$("$instr" instrument "$build/instr/interp.elf" -o "$d.elf" 2>&1) || { echo "$out"; return 1; }
  grep 'derived from\|left uninstrumented' <<<"$out"
  grep -q 'derived from its callers: __riscv_save_12 (0x[0-9a-f]*): [0-9]* entry points, counted at [1-9][0-9]* calls' <<<"$out" &&
    grep -q '^function __riscv_save_12 .* derived$' "$d.map" &&
    grep -q '^function __riscv_restore_12 .* derived$' "$d.map" &&
    grep -q '^function __d_vfprintf .* instrumented' "$d.map" &&
    awk '/^function __d_vfprintf /{f=1; next} /^function /{f=0} f && $1 == "edge" && $3 == "dispatch" {n++}
         END {print "__d_vfprintf: " n " dispatch edges"; exit !(n > 1)}' "$d.map" || return 1
  out=$("$build/sim/hwprof-sim" --edge-map="$d.map" --edge-profile="$d.prof" "$d.elf" 2>&1 >/dev/null)
  grep 'edge check: [0-9]* functions' <<<"$out"
  grep -q 'edge check: .* 2 derived from their callers.* 0 differences' <<<"$out" &&
    grep -q '^function __riscv_restore_12 0x[0-9a-f]* entries [1-9]' "$d.prof" || return 1
  awk '/^function /{f = ($2 == "__riscv_restore_12")} !(f && $1 == "from")' "$d.map" >"$d-nofrom.map"
  out=$("$build/sim/hwprof-sim" --edge-map="$d-nofrom.map" "$d.elf" 2>&1 >/dev/null)
  echo "without its callers' counts: $(grep -o '[0-9]* differences' <<<"$out")"
  grep -q 'edge check: __riscv_restore_12: ' <<<"$out" && ! grep -q ' 0 differences' <<<"$out" || return 1
  out=$("$instr" instrument --skip=__d_vfprintf "$build/instr/interp.elf" -o "$d-skip.elf" 2>&1) || { echo "$out"; return 1; }
  grep 'left uninstrumented: __riscv_save_12' <<<"$out"
  grep -q 'left uninstrumented: __riscv_save_12 (0x[0-9a-f]*): several entry points; entered from __d_vfprintf' <<<"$out" &&
    grep -q '^function __riscv_save_12 .* skipped several entry points; entered from __d_vfprintf' "$d-skip.map" || return 1
  out=$("$build/sim/hwprof-sim" --edge-map="$d-skip.map" "$d-skip.elf" 2>&1 >/dev/null)
  grep -q 'edge check: .* 0 differences' <<<"$out" && grep -q 'left out __riscv_save_12: ' <<<"$out"
}
check instr-derives-millicode-reports-unanalysable instr_reports_unanalysable

# bad input: one error naming the input, exit 1 (a bad input file, docs/tools.md), nothing written
# (an auipc whose address no relocation lets the instrumenter move: tests/programs/bare_auipc.S)
instr_bad_input_rejected() {
  local a out rc bad
  bad=$(mktemp)
  printf 'not an ELF file' >"$bad"
  for a in "$bad" /nonexistent.elf "$build/workloads/sort.elf" "$build/instr/sort-prof.elf" "$build/instr/bare_auipc.elf"; do
    rm -f "$logdir/bad-out.elf"
    out=$("$instr" instrument --quiet "$a" -o "$logdir/bad-out.elf" 2>&1)
    rc=$?
    echo "$a -> $rc: $out"
    [ "$rc" = 1 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q "error: $a" <<<"$out" && [ ! -e "$logdir/bad-out.elf" ] ||
      { rm -f "$bad"; return 1; }
  done
  rm -f "$bad"
  for a in --k=1 --k=13 --mode=most --text-at=0x80000002 --frobnicate; do
    out=$("$instr" instrument "$a" "$build/instr/sort.elf" -o "$logdir/bad-out.elf" 2>&1)
    rc=$?
    echo "$a -> $rc: $out"
    [ "$rc" = 2 ] && grep -q "'$a'" <<<"$out" || return 1
  done
}
check instr-rejects-bad-input instr_bad_input_rejected

# what the fuzzers found (make fuzz, tests/fuzz/TARGET/): each input, given to the tool that reads
# such files in its ASan/UBSan build, gets one error naming it and exit 1, no sanitizer report
fuzz_regressions() {
  local f out rc asan="$build/unit/hwprof-instr-asan"
  for f in tests/fuzz/elf/* tests/fuzz/instr/* tests/fuzz/profile/*; do
    [ -f "$f" ] || continue
    case $f in
      *.prof) out=$("$asan" compare "$f" "$f" 2>&1) ;;
      *) out=$("$asan" instrument "$f" -o "$logdir/fuzz-out.elf" 2>&1) ;;
    esac
    rc=$?
    echo "$f -> $rc: $out"
    [ "$rc" = 1 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q "error: $f" <<<"$out" && [ ! -e "$logdir/fuzz-out.elf" ] ||
      return 1
  done
}
check fuzz-regressions-clean-errors fuzz_regressions
# the register generator, fuzzed (make fuzz: tools/fuzz_regtool.py): its regression inputs
# (tests/fuzz/regtool/) and 3000 mutated descriptions, each ending in the outputs or one error
# naming the file
check regtool-mutated-descriptions-clean-errors python3 tools/fuzz_regtool.py --rounds 3000 --seed 7 --out "$logdir/regtool-fuzz"

# the instrumenter under ASan/UBSan gives the same outputs as the optimised build
instr_asan_same_output() {
  local w
  for w in sort interp; do
    "$build/unit/hwprof-instr-asan" instrument --quiet --k=4 "$build/instr/$w.elf" -o "$logdir/$w-asan.elf" || return 1
    cmp "$logdir/$w-asan.elf" "$build/instr/$w-prof.elf" && cmp "$logdir/$w-asan.map" "$build/instr/$w-prof.map" || return 1
    echo "$w: identical"
  done
}
check instr-asan-same-output instr_asan_same_output

# the CFG layer (sw/lib/cfg/) on every workload under ASan/UBSan: every function analysed, loops found
# in every program
cfg_layer_on_workloads() {
  local elf w out
  for elf in "${prof_workloads[@]}"; do
    w=$(basename "$elf" -prof.elf)
    out=$("$build/unit/hwprof-instr-asan" cfg "$build/instr/$w.elf") || return 1
    echo "$w: $(grep -c '^function' <<<"$out") functions, $(grep -c '^  loop' <<<"$out") loops," \
      "$(grep -c 'no CFG' <<<"$out") without a CFG"
    grep -q '^  loop' <<<"$out" || return 1
  done
}
check cfg-layer-on-workloads cfg_layer_on_workloads
