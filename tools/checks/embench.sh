# The checks of make test on Embench (third-party programs, ../shared/embench; each skipped with a
# note when they are not there), sourced by tools/runtests.sh, whose check(), $build, $logdir and $sc
# they use: branch relaxation, edge profiles, QEMU's streams and gcov as oracles, lcov tracefiles,
# the trace round trip, every build's relocation patterns.

# branch relaxation in the rewriting layer (sw/host/rewrite/): Embench's nsichneu (one very large
# function) has conditional branches that the inserted profiling instructions put out of reach;
# instrumented, it must report relaxed branches, still pass its own self-check, and give the exact
# edge profile on the C model and on the RTL in lockstep with the C model
instr_relaxes_far_branches() {
  local out m k relaxed rc=0
  for m in minimal all; do
    for k in 4 6; do
      out=$("$build/unit/hwprof-instr-asan" instrument --mode=$m --k=$k "$nsichneu" -o "$logdir/nsichneu-$m-$k.elf" 2>&1) || {
        echo "$out"; return 1; }
      relaxed=$(grep -o '[0-9]* conditional branches relaxed' <<<"$out")
      # at K = 6 the few inserted instructions no longer push a branch out of reach
      [ -n "$relaxed" ] || [ "$k" = 6 ] || { echo "mode $m, K = $k: no branch was relaxed"; rc=1; }
      out=$("$build/sim/hwprof-sim" --edge-map="$logdir/nsichneu-$m-$k.map" "$logdir/nsichneu-$m-$k.elf" 2>&1 >/dev/null)
      echo "mode $m, K = $k: $relaxed; $(grep -o 'exit code [0-9]*' <<<"$out"); $(grep -o 'profile from the hardware.*' <<<"$out")"
      grep -q 'exit code 0' <<<"$out" && grep -q 'edge check: .* 0 differences' <<<"$out" || { echo "$out" | tail -3; rc=1; }
    done
  done
  out=$("$sc" --engine=lockstep --edge-map="$logdir/nsichneu-minimal-4.map" "$logdir/nsichneu-minimal-4.elf" 2>&1)
  echo "RTL in lockstep, mode minimal, K = 4: $(grep -o 'profile from the hardware.*' <<<"$out"); $(grep -o 'lockstep:.*mismatches' <<<"$out")"
  grep -q 'edge check: .* 0 differences' <<<"$out" && grep -q ' 0 mismatches' <<<"$out" || { echo "$out" | tail -5; rc=1; }
  return $rc
}
if [ -f "$nsichneu" ]; then
  check instr-relaxes-far-branches instr_relaxes_far_branches
else
  echo "note: ../shared/embench is not there (EMBENCH=...): the branch-relaxation check on Embench's nsichneu is skipped"
fi

# Embench (third-party programs, ../shared/embench): every program instrumented at the default K
# (the ASan/UBSan instrumenter), run on the C model: its own self-check passes, the edge profile read
# back equals the exact counts, and the extra retired instructions stay within the design's 1%
# (docs/instrumenter.md). The RTL in lockstep on crc32 (a leaf called in the hot loop: linked calls)
# and slre (recursion, call-started functions and region switches in its hot function).
embench_edge_profile() {
  local elf w out base prof pct lim rc=0
  for elf in "$build"/embench/*.elf; do
    w=$(basename "$elf" .elf)
    case $w in *-vp|*-ss) continue ;; esac
    out=$("$build/unit/hwprof-instr-asan" instrument "$elf" -o "$logdir/eb-$w.elf" 2>&1) || { echo "$w: $out"; rc=1; continue; }
    base=$("$build/sim/hwprof-sim" --engine=none "$elf" 2>&1 >/dev/null | sed -n 's/.*: \([0-9]*\) instructions, exit code 0.*/\1/p')
    out=$("$build/sim/hwprof-sim" --edge-map="$logdir/eb-$w.map" --edge-profile="$logdir/eb-$w.prof" "$logdir/eb-$w.elf" 2>&1 >/dev/null)
    prof=$(sed -n 's/.*: \([0-9]*\) instructions, exit code 0.*/\1/p' <<<"$out")
    [ -n "$base" ] && [ -n "$prof" ] || { echo "$w: did not exit 0"; echo "$out" | tail -3; rc=1; continue; }
    lim=1
    pct=$(awk -v a="$prof" -v b="$base" 'BEGIN { printf "%.2f", 100 * (a - b) / b }')
    echo "$w: $base instructions, +$pct% instrumented (limit $lim%); $(grep -o 'profile from the hardware.*' <<<"$out")"
    echo "$w: $(grep -o 'coverage: [0-9.]*% of branch executions and [0-9.]*% of instructions' <<<"$out") outside start-up code"
    grep -q 'edge check: .* 0 differences' <<<"$out" || rc=1
    awk -v p="$pct" -v l="$lim" 'BEGIN { exit !(p <= l) }' || { echo "$w: overhead above $lim%"; rc=1; }
  done
  for w in crc32 slre; do
    out=$("$sc" --engine=lockstep --edge-map="$logdir/eb-$w.map" "$logdir/eb-$w.elf" 2>&1)
    echo "$w, RTL in lockstep: $(grep -o 'profile from the hardware.*' <<<"$out"); $(grep -o 'lockstep:.*mismatches' <<<"$out")"
    grep -q 'edge check: .* 0 differences' <<<"$out" && grep -q ' 0 mismatches' <<<"$out" || { echo "$out" | tail -5; rc=1; }
  done
  grep -q 'functions linked' <<<"$("$build/unit/hwprof-instr-asan" instrument "$build/embench/crc32.elf" -o "$logdir/eb-x.elf" 2>&1)" ||
    { echo "crc32: no linked call"; rc=1; }
  return $rc
}
# the relocation patterns other compiler options give (docs/instrumenter.md, "Input"): Embench built
# at -O0, -Os -fPIC (GOT accesses), -O3 and with -ffunction-sections --gc-sections, each program
# instrumented (ASan/UBSan build) and run: the same output and exit code 0 as the uninstrumented
# build, the exact edge profile; and a switch table of label differences (tests/programs/switch_table.c,
# -fPIC: R_RISCV_ADD32/SUB32 pairs in read-only data) and a threaded-code interpreter
# (tests/programs/dispatch.c: indirect jumps sharing a table of labels, an indirect tail call), which
# must also reach their self-checks
instr_takes_every_build() {
  local elf v w out plain prof rc=0 n=0
  for elf in "$build"/embench-*/*.elf "$build/instr/switch_table.elf" "$build/instr/dispatch.elf"; do
    [ -f "$elf" ] || continue # no Embench builds: the switch table and the interpreter alone
    v=$(basename "$(dirname "$elf")")
    w=$(basename "$elf" .elf)
    out=$("$build/unit/hwprof-instr-asan" instrument --quiet "$elf" -o "$logdir/opt-$v-$w.elf" 2>&1) || {
      echo "$v/$w: $out"; rc=1; continue; }
    plain=$("$build/sim/hwprof-sim" --engine=none "$elf" 2>/dev/null)
    prof=$("$build/sim/hwprof-sim" --edge-map="$logdir/opt-$v-$w.map" "$logdir/opt-$v-$w.elf" 2>"$logdir/opt-$v-$w.err")
    out=$(cat "$logdir/opt-$v-$w.err")
    if [ "$plain" = "$prof" ] && grep -q 'exit code 0' <<<"$out" && grep -q 'edge check: .* 0 differences' <<<"$out"; then
      n=$((n + 1))
    else
      echo "$v/$w: $(grep -o 'exit code [0-9]*' <<<"$out"); $(grep 'edge check: .*differences' <<<"$out")"
      [ "$plain" = "$prof" ] || echo "$v/$w: its output differs from the uninstrumented build's"
      rc=1
    fi
  done
  echo "$n builds instrumented: same output, exit code 0, exact edge profile"
  for w in switch_table dispatch; do
    grep -q "$w: \(-*[0-9]*\) (expected \1)" <<<"$("$build/sim/hwprof-sim" "$logdir/opt-instr-$w.elf" 2>/dev/null)" ||
      { echo "$w: wrong checksum"; rc=1; }
  done
  [ "$n" -ge "${1:-50}" ] || { echo "expected ${1:-50} builds (48 of Embench, the switch table and the interpreter)"; rc=1; }
  return $rc
}
instr_takes_every_build_alone() { instr_takes_every_build 2; }

# Embench against the independent oracles: QEMU's retired-PC stream of each program equals the CPU
# model's; the taken/not-taken count of every branch in QEMU's stream of the original program
# equals the profile read back from the hardware for the instrumented one (tb/oracle/branch_oracle.py,
# no code shared with the instrumenter); gcov's invocation and line counts agree with the hardware's
# in one binary (the -O0 -fprofile-arcs build, instrumented: gcov's counters and the hardware's
# profile the same run; gcov_same_run in tools/checks/common.sh); and every trace record of each
# program (no firmware: every trace) rebuilds into the instructions that ran (the trace check)
embench_qemu() {
  mkdir -p "$logdir/qemu"
  QEMU_KEEP="$logdir/qemu" tools/qemu_check.sh "$build/sim/hwprof-sim" "${embench_elfs[@]}"
}
embench_branch_oracle() {
  local elf w out rc=0
  for elf in "${embench_elfs[@]}"; do
    w=$(basename "$elf" .elf)
    [ -s "$logdir/qemu/$w.pcs" ] && [ -s "$logdir/eb-$w.prof" ] || { echo "$w: no QEMU stream or no profile (an earlier check failed)"; rc=1; continue; }
    out=$(python3 tb/oracle/branch_oracle.py "$elf" "$logdir/qemu/$w.pcs" "$logdir/eb-$w.map" "$logdir/eb-$w.prof" 2>&1) || rc=1
    echo "$w: $out"
  done
  return $rc
}
embench_gcov_oracle() {
  local elf w rc=0
  for elf in "${embench_elfs[@]}"; do
    w=$(basename "$elf" .elf)
    gcov_same_run "$w" "$build/gcov/embench-O0/$w.elf" "$logdir/gcov-eb/$w" || rc=1
  done
  return $rc
}
# Coverage for lcov and genhtml (docs/report.md): each program's hardware profile (from
# embench-edge-profile-default-k) written as an lcov tracefile by hwprof-report (ASan/UBSan); every
# line count and every conditional branch's taken and not-taken counts must equal what QEMU's retire
# stream of the program and binutils' line table give (tb/oracle/lcov_oracle.py), every line that ran
# in a profiled function must have its record, and genhtml must render all the tracefiles
embench_lcov() {
  local elf w out rc=0
  mkdir -p "$logdir/lcov"
  for elf in "${embench_elfs[@]}"; do
    w=$(basename "$elf" .elf)
    [ -s "$logdir/qemu/$w.pcs" ] && [ -s "$logdir/eb-$w.prof" ] || { echo "$w: no QEMU stream or no profile (an earlier check failed)"; rc=1; continue; }
    out=$("$build/unit/hwprof-report-asan" lcov --test-name="${w//-/_}" "$logdir/eb-$w.map" "$logdir/eb-$w.prof" -o "$logdir/lcov/$w.info" 2>&1) ||
      { echo "$w: $out"; rc=1; continue; }
    echo "$w: ${out#hwprof-report: }"
    out=$(python3 tb/oracle/lcov_oracle.py stream "$logdir/lcov/$w.info" "$elf" "$logdir/qemu/$w.pcs" 2>&1) || rc=1
    echo "$w: $out"
  done
  out=$(genhtml --quiet --branch-coverage --ignore-errors source -o "$logdir/lcov/html" "$logdir"/lcov/*.info 2>&1) &&
    [ -s "$logdir/lcov/html/index.html" ] || { echo "genhtml: $out"; rc=1; }
  echo "genhtml rendered the $(ls "$logdir"/lcov/*.info | wc -l) tracefiles: $logdir/lcov/html/index.html"
  return $rc
}
embench_trace_check() {
  local elf out rc=0
  for elf in "${embench_elfs[@]}"; do
    out=$("$build/sim/hwprof-sim" --trace-check "$elf" 2>&1 >/dev/null)
    echo "$(basename "$elf" .elf): $(grep -o 'exit code [0-9]*' <<<"$out"); $(grep -o 'trace check:.*' <<<"$out")"
    grep -q 'exit code 0' <<<"$out" && grep -q 'trace check: .* 0 failed' <<<"$out" || rc=1
  done
  return $rc
}

if [ -f "$nsichneu" ]; then
  check embench-edge-profile-default-k embench_edge_profile
  check qemu-check-embench embench_qemu
  check embench-branch-oracle-qemu embench_branch_oracle
  check embench-gcov-oracle-functions-lines embench_gcov_oracle
  check embench-lcov-retire-stream embench_lcov
  check embench-trace-check embench_trace_check
  check instr-takes-every-build instr_takes_every_build
else
  echo "note: ../shared/embench is not there (EMBENCH=...): the edge-profiling checks on Embench are skipped"
  check instr-takes-switch-table-and-dispatch instr_takes_every_build_alone
fi
