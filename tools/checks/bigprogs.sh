# The checks of make test on the large real programs (third-party test input, ../shared/bigprogs:
# Lua and zstd, 10^7-10^8 instructions a run; skipped with a note when the folder is not there),
# sourced by tools/runtests.sh, whose check(), $build and $logdir they use, and wpp_one (tools/checks/common.sh).
#
# Each program instrumented at the default K (the ASan/UBSan instrumenter) runs on the C model: it
# prints what the uninstrumented build prints (its own checksum included) and exits 0, the edge
# profile read back from the hardware equals the exact counts of the run, and the run's coverage
# (the share of branch executions and instructions in profiled functions, from the retire stream) is
# printed with the extra instructions the profiling costs: every branch execution and every
# instruction outside start-up code must lie in a profiled function (100%; the millicode
# __riscv_save_N/__riscv_restore_N is profiled through its callers' counts: docs/instrumenter.md).

big_elfs=()
for elf in "$build"/bigprogs/*.elf; do
  [ -f "$elf" ] && big_elfs+=("$elf")
done

# big_parallel FUNC: FUNC NAME for every large program, all at once
big_parallel() {
  local elf
  for elf in "${big_elfs[@]}"; do
    "$1" "$(basename "$elf" .elf)" &
  done
  wait
}

# bigprog_run NAME: instruments and runs one program, writing $logdir/big-NAME.{plain,prof,err,out}
# (and the uninstrumented run's per-address retirements, big-NAME.counts)
bigprog_run() {
  local w=$1 elf="$build/bigprogs/$1.elf"
  "$build/sim/hwprof-sim" --engine=none --pc-counts="$logdir/big-$w.counts" "$elf" >"$logdir/big-$w.plain" 2>"$logdir/big-$w.plain.err" &&
    "$build/unit/hwprof-instr-asan" instrument "$elf" -o "$logdir/big-$w.elf" >"$logdir/big-$w.instr" 2>&1 &&
    "$build/sim/hwprof-sim" --edge-map="$logdir/big-$w.map" --edge-profile="$logdir/big-$w.prof" \
      "$logdir/big-$w.elf" >"$logdir/big-$w.out" 2>"$logdir/big-$w.err"
}

bigprogs_edge_profile() {
  local elf w base prof pct cov rc=0
  big_parallel bigprog_run
  for elf in "${big_elfs[@]}"; do
    w=$(basename "$elf" .elf)
    base=$(sed -n 's/.*: \([0-9]*\) instructions, exit code 0.*/\1/p' "$logdir/big-$w.plain.err" 2>/dev/null)
    prof=$(sed -n 's/.*: \([0-9]*\) instructions, exit code 0.*/\1/p' "$logdir/big-$w.err" 2>/dev/null)
    if [ -z "$base" ] || [ -z "$prof" ]; then
      echo "$w: did not run to exit code 0"
      tail -n 3 "$logdir/big-$w.instr" "$logdir/big-$w.err" 2>/dev/null
      rc=1
      continue
    fi
    cmp -s "$logdir/big-$w.plain" "$logdir/big-$w.out" || { echo "$w: its output differs from the uninstrumented build's"; rc=1; }
    pct=$(awk -v a="$prof" -v b="$base" 'BEGIN { printf "%.2f", 100 * (a - b) / b }')
    echo "$w: $base instructions, +$pct% instrumented; $(grep -o "[0-9]* derived from their callers, [0-9]* left uninstrumented" "$logdir/big-$w.instr")"
    grep 'edge check: ' "$logdir/big-$w.err"
    grep -q 'edge check: .* 0 differences' "$logdir/big-$w.err" || rc=1
    # every branch execution and instruction outside start-up code in a profiled function
    cov=$(sed -n 's/.*edge check: coverage: \([0-9.]*%\) of branch executions and \([0-9.]*%\) of instructions.*/\1 \2/p' "$logdir/big-$w.err")
    [ "$cov" = "100% 100%" ] || { echo "$w: coverage ${cov:-unknown} of branch executions and instructions, not 100%"; rc=1; }
  done
  return $rc
}

# lcov tracefiles of the large programs (docs/report.md): hwprof-report (ASan/UBSan) on each hardware
# profile; every line and conditional branch count equal to what the uninstrumented run's retire
# stream and binutils' line table give (tb/oracle/lcov_oracle.py)
bigprogs_lcov() {
  local elf w out rc=0
  for elf in "${big_elfs[@]}"; do
    w=$(basename "$elf" .elf)
    [ -s "$logdir/big-$w.prof" ] && [ -s "$logdir/big-$w.counts" ] || { echo "$w: no profile (an earlier check failed)"; rc=1; continue; }
    out=$("$build/unit/hwprof-report-asan" lcov "$logdir/big-$w.map" "$logdir/big-$w.prof" -o "$logdir/big-$w.info" 2>&1) ||
      { echo "$w: $out"; rc=1; continue; }
    echo "$w: ${out#hwprof-report: }"
    python3 tb/oracle/lcov_oracle.py stream "$logdir/big-$w.info" "$elf" "$logdir/big-$w.counts" >"$logdir/big-$w.lcov-oracle" 2>&1 &
  done
  wait
  for elf in "${big_elfs[@]}"; do
    w=$(basename "$elf" .elf)
    echo "$w: $(cat "$logdir/big-$w.lcov-oracle" 2>/dev/null)"
    grep -q 'compared.*, 0 differ$' "$logdir/big-$w.lcov-oracle" 2>/dev/null || rc=1
  done
  return $rc
}

# ... and their sample profiles' inline stacks against addr2line -i and the same retire stream
# (tb/oracle/inline_oracle.py; report-inline-stacks-addr2line does the workloads)
bigprogs_inline() {
  local elf w out rc=0
  for elf in "${big_elfs[@]}"; do
    w=$(basename "$elf" .elf)
    [ -s "$logdir/big-$w.prof" ] && [ -s "$logdir/big-$w.counts" ] || { echo "$w: no profile (an earlier check failed)"; rc=1; continue; }
    out=$("$build/unit/hwprof-report-asan" sample "$logdir/big-$w.map" "$logdir/big-$w.prof" -o "$logdir/big-$w.sample.txt" 2>&1) ||
      { echo "$w: $out"; rc=1; continue; }
    echo "$w: ${out#hwprof-report: }"
    out=$(python3 tb/oracle/inline_oracle.py "$logdir/big-$w.sample.txt" "$elf" "$logdir/big-$w.counts") || rc=1
    echo "$w: $out"
  done
  return $rc
}

# whole-program paths on the large programs (wpp_one):
# every trace record drained, the blocks rebuilt from them equal to the retire stream's, and the
# hierarchy built from either the same; both programs at once, their big files removed after
bigprogs_wpp() {
  local elf w rc=0
  for elf in "${big_elfs[@]}"; do
    w=$(basename "$elf" .elf)
    wpp_one "$elf" "big-$w" >"$logdir/big-$w.wpp" 2>&1 &
  done
  wait
  for elf in "${big_elfs[@]}"; do
    w=$(basename "$elf" .elf)
    cat "$logdir/big-$w.wpp"
    grep -q "^big-$w: .*equal$" "$logdir/big-$w.wpp" || rc=1
    rm -f "$logdir/wpp/big-$w/run.htr" "$logdir/wpp/big-$w/truth.blk" "$logdir/wpp/big-$w/rebuilt.blk" "$logdir/wpp/big-$w/"*.idx
  done
  return $rc
}

# region-based path profiles of the large programs (docs/path.md): each instrumented with
# --paths=rb (the ASan/UBSan instrumenter) runs on the C model with the uninstrumented build's
# output; the profile read back from the hardware equals the oracle's paths of the uninstrumented
# run (the retire stream and the CFGs), path for path and count for count; the coverage is printed
# with the functions left out that ran most; Lua's interpreter loop (luaV_execute, its handlers'
# indirect jumps through a dispatch node) must be in the profile
bigprog_paths() {
  local w=$1 elf="$build/bigprogs/$1.elf"
  "$build/sim/hwprof-sim" --quiet --path-truth="$logdir/big-$w-paths.truth" "$elf" >/dev/null 2>&1 &&
    "$build/unit/hwprof-instr-asan" instrument --quiet --paths=rb "$elf" -o "$logdir/big-$w-rb.elf" &&
    "$build/sim/hwprof-sim" --path-map="$logdir/big-$w-rb.map" --path-profile="$logdir/big-$w-rb.pprof" \
      "$logdir/big-$w-rb.elf" >"$logdir/big-$w-rb.out" 2>"$logdir/big-$w-rb.err"
}
bigprogs_paths() {
  local elf w out rc=0
  big_parallel bigprog_paths
  for elf in "${big_elfs[@]}"; do
    w=$(basename "$elf" .elf)
    if [ ! -s "$logdir/big-$w-rb.pprof" ]; then
      echo "$w: no path profile"
      tail -n 3 "$logdir/big-$w-rb.err" 2>/dev/null
      rc=1
      continue
    fi
    "$build/sim/hwprof-sim" --quiet "$elf" 2>/dev/null | cmp -s - "$logdir/big-$w-rb.out" ||
      { echo "$w: its output differs from the uninstrumented build's"; rc=1; }
    out=$("$build/unit/hwprof-instr-asan" paths-check "$logdir/big-$w-rb.pprof" "$logdir/big-$w-paths.truth" 2>&1)
    echo "$w rb: $(tail -1 <<<"$out")"
    grep 'path profile: coverage' "$logdir/big-$w-rb.err" | head -4
    grep -q '^paths-check: [1-9][0-9]* functions, [1-9][0-9]* paths .* 0 differences' <<<"$out" || { echo "$out" | head -5; rc=1; }
    if [ "$w" = lua ]; then
      grep -q '^function luaV_execute ' "$logdir/big-$w-rb.pprof" || { echo "lua: luaV_execute has no path profile"; rc=1; }
    fi
    rm -f "$logdir/big-$w-paths.truth"
  done
  return $rc
}

# Lua with scripts that leave functions by longjmp all the time (sim/bigprogs/lua_unwind.c: coroutine
# generators, errors caught by pcall, failing coroutines; 25 M instructions; docs/instrumenter.md,
# "setjmp and longjmp"): instrumented for edges (as built, and with a link stack spill area, which
# links the interpreter's recursive calls too) and for region-based paths, it prints what the
# uninstrumented build prints (its own check of the scripts' values included) and exits 0; the edge
# profiles equal the exact counts of the run, the path profile the oracle's paths, the protected call
# that every yield and error lands in (luaD_rawrunprotected) with them
lua_unwind_one() {
  local v=$1 elf="$build/lua-unwind/lua-unwind.elf" d="$logdir/lua-unwind"
  local name=${v//[^a-z0-9]/}
  name=lu${name:-edges}
  if [[ $v == --paths=* ]]; then
    "$build/unit/hwprof-instr-asan" instrument --quiet $v "$elf" -o "$d/$name.elf" &&
      "$build/sim/hwprof-sim" --path-map="$d/$name.map" --path-profile="$d/$name.pprof" "$d/$name.elf" >"$d/$name.out" 2>"$d/$name.err"
  else
    "$build/unit/hwprof-instr-asan" instrument $v "$elf" -o "$d/$name.elf" >"$d/$name.instr" 2>&1 &&
      "$build/sim/hwprof-sim" --edge-map="$d/$name.map" "$d/$name.elf" >"$d/$name.out" 2>"$d/$name.err"
  fi
}
lua_unwind() {
  local v name rc=0 elf="$build/lua-unwind/lua-unwind.elf" d="$logdir/lua-unwind"
  mkdir -p "$d"
  "$build/sim/hwprof-sim" --quiet "$elf" >"$d/plain.out" 2>/dev/null || { echo "the uninstrumented build failed"; rc=1; }
  "$build/sim/hwprof-sim" --quiet --path-truth="$d/truth" "$elf" >/dev/null 2>&1 &
  lua_unwind_one "" & lua_unwind_one --link-spill=262144 & lua_unwind_one --paths=rb &
  wait
  for v in "" --link-spill=262144 --paths=rb; do
    name=${v//[^a-z0-9]/}
    name=lu${name:-edges}
    cmp -s "$d/plain.out" "$d/$name.out" || { echo "$name: its output differs from the uninstrumented build's"; rc=1; }
    if [[ $v == --paths=* ]]; then
      out=$("$build/unit/hwprof-instr-asan" paths-check "$d/$name.pprof" "$d/truth" 2>&1)
      echo "$name: $(tail -1 <<<"$out")"
      grep -q '^paths-check: [1-9][0-9]* functions, .* 0 differences' <<<"$out" || rc=1
      grep -q '^function luaD_rawrunprotected ' "$d/$name.pprof" || { echo "luaD_rawrunprotected has no path profile"; rc=1; }
    else
      echo "$name: $(grep -o '[0-9]* calls of functions that return twice' "$d/$name.instr")"
      grep -o 'edge check: [0-9]* functions.*' "$d/$name.err"
      grep -q 'edge check: .* 0 differences' "$d/$name.err" || { tail -3 "$d/$name.err"; rc=1; }
    fi
  done
  rm -f "$d/truth"
  return $rc
}

if [ ${#big_elfs[@]} -gt 0 ]; then
  check bigprogs-edge-profile-coverage bigprogs_edge_profile
  check bigprogs-path-profile-rb-equal-oracle bigprogs_paths
  check bigprogs-lcov-retire-stream bigprogs_lcov
  check bigprogs-inline-stacks-addr2line bigprogs_inline
  check bigprogs-wpp-blocks-equal-retire-stream bigprogs_wpp
  [ -f "$build/lua-unwind/lua-unwind.elf" ] && check bigprogs-lua-longjmp-exact lua_unwind
else
  echo "note: ../shared/bigprogs is not there (BIGPROGS=...): the checks on Lua and zstd are skipped"
fi
