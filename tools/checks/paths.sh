# Path profiling's checks of make test (docs/path-prof.md), sourced by tools/runtests.sh, whose
# check(), $build and $logdir they use: numbering on real code, the oracle against the numbering.

# path numbering on real code (docs/path-prof.md; `hwprof-instr paths`, under ASan/UBSan): every
# function of the workloads and the Embench programs that has a CFG is numbered, or refused only for
# having more paths than the limit, with its region-based and global counters; none is refused for
# a graph the numbering cannot take (a dead end, a cycle left by the back edges)
paths_on_real_code() {
  local f out rc=0
  for f in "$build"/instr/{graph,hashtab,interp,lz,matrix,sort}.elf "$build"/embench/*.elf; do
    [ -f "$f" ] || continue
    [[ $(basename "$f") == *-* ]] && continue
    out=$("$build/unit/hwprof-instr-asan" paths "$f" 2>&1) || { echo "$f: exit $?"; echo "$out" | tail -3; rc=1; continue; }
    echo "$(basename "$f"): $(tail -1 <<<"$out")"
    grep -q '^paths: [0-9]* functions: [1-9][0-9]* numbered.*, 0 refused otherwise' <<<"$out" || rc=1
  done
  return $rc
}
check paths-numbered-in-every-function paths_on_real_code

# the path profile's oracle against the numbering (docs/path-prof.md): hwprof-sim --path-truth cuts
# each run's executed blocks into paths per function activation from the retire stream and the
# CFGs alone (dominators, returns), no edge values; hwprof-instr paths --truth numbers each of them
# with the function's Ball-Larus numbering: every path the run took must be a path of the numbered
# graph (from the entry or a loop head, to a return or a back edge), and distinct paths must get
# distinct numbers. A malformed truth file is one error naming it.
paths_truth_numbered() {
  local f out rc=0 name
  for f in "$build"/instr/{graph,hashtab,interp,lz,matrix,sort}.elf "$build"/embench/*.elf; do
    [ -f "$f" ] || continue
    name=$(basename "$f" .elf)
    [[ $name == *-* ]] && continue
    "$build/sim/hwprof-sim" --quiet --path-truth="$logdir/$name.paths" "$f" >/dev/null 2>&1 || { echo "$name: the run failed"; rc=1; continue; }
    out=$("$build/unit/hwprof-instr-asan" paths "$f" --truth="$logdir/$name.paths" 2>&1)
    echo "$name: exit $?; $(tail -1 <<<"$out")"
    grep -q '^paths --truth: [1-9][0-9]* paths numbered, .* 0 not paths of the numbered graph, 0 numbers shared$' <<<"$out" ||
      { grep 'NOT A PATH' <<<"$out" | head -3; rc=1; }
  done
  printf 'hwprof-path-truth 1\nprogram x\nfunction main 0x%s paths 1 executions 1\npath 1 exit 00000004\n' \
    "$(sed -n 's/^function main \(0x[0-9a-f]*\) .*/\1/p' "$logdir/sort.paths" | sed 's/0x//')" >"$logdir/bad.paths"
  out=$("$build/unit/hwprof-instr-asan" paths "$build/instr/sort.elf" --truth="$logdir/bad.paths" 2>&1)
  echo "a block outside the function: exit $?: $(tail -1 <<<"$out")"
  grep -q "bad.paths:4: 0x4 is not a block of main" <<<"$out" || rc=1
  out=$("$build/unit/hwprof-instr-asan" paths "$build/instr/sort.elf" --truth="$build/instr/sort-prof.map" 2>&1)
  echo "not a truth file: exit $?: $out"
  grep -q "sort-prof.map:1: not a path-truth file" <<<"$out" || rc=1
  return $rc
}
check paths-truth-are-numbered-paths paths_truth_numbered
