# Path profiling's checks of make test (docs/path.md), sourced by tools/runtests.sh, whose
# check(), $build and $logdir they use: numbering on real code, the oracle against the numbering.

# path numbering on real code (docs/path.md; `hwprof-instr paths`, under ASan/UBSan): every
# function of the workloads and the Embench programs that has a CFG is numbered, or refused only for
# having more paths than the limit, with its region-based and global counters; none is refused for
# a graph the numbering cannot take (a dead end, a cycle left by the back edges)
paths_on_real_code() {
  local f out rc=0
  for f in "$build"/instr/{graph,hashtab,interp,lz,matrix,sort,dispatch}.elf "$build"/embench/*.elf; do
    [ -f "$f" ] || continue
    case $(basename "$f" .elf) in *-prof | *-vp | *-ss) continue ;; esac
    out=$("$build/unit/hwprof-instr-asan" paths "$f" 2>&1) || { echo "$f: exit $?"; echo "$out" | tail -3; rc=1; continue; }
    echo "$(basename "$f"): $(tail -1 <<<"$out")"
    grep -q '^paths: [0-9]* functions: [1-9][0-9]* numbered.*, 0 refused otherwise' <<<"$out" || rc=1
  done
  return $rc
}
check paths-numbered-in-every-function paths_on_real_code

# the path profile's oracle against the numbering (docs/path.md): hwprof-sim --path-truth cuts
# each run's executed blocks into paths per function activation from the retire stream and the
# CFGs alone (back edges by its own depth-first search, returns), no edge values; hwprof-instr
# paths --truth numbers each of them with the function's Ball-Larus numbering: every path the run
# took must be a path of the numbered
# graph (from the entry or a loop head, to a return or a back edge), and distinct paths must get
# distinct numbers. A malformed truth file is one error naming it.
paths_truth_numbered() {
  local f out rc=0 name e
  for f in "$build"/instr/{graph,hashtab,interp,lz,matrix,sort,dispatch}.elf "$build"/embench/*.elf; do
    [ -f "$f" ] || continue
    name=$(basename "$f" .elf)
    case $name in *-prof | *-vp | *-ss) continue ;; esac
    "$build/sim/hwprof-sim" --quiet --path-truth="$logdir/$name.paths" "$f" >/dev/null 2>&1 || { echo "$name: the run failed"; rc=1; continue; }
    out=$("$build/unit/hwprof-instr-asan" paths "$f" --truth="$logdir/$name.paths" 2>&1)
    echo "$name: exit $?; $(tail -1 <<<"$out")"
    grep -q '^paths --truth: [1-9][0-9]* paths numbered, .* 0 not paths of the numbered graph, 0 numbers shared$' <<<"$out" ||
      { grep 'NOT A PATH' <<<"$out" | head -3; rc=1; }
  done
  printf 'hwprof-path-truth 1\nprogram x\nfunction main 0x%s paths 1 executions 1\npath 1 exit 00000004\n' \
    "$(sed -n 's/^function main \(0x[0-9a-f]*\) .*/\1/p' "$logdir/sort.paths" | sed 's/0x//')" >"$logdir/bad.paths"
  out=$("$build/unit/hwprof-instr-asan" paths "$build/instr/sort.elf" --truth="$logdir/bad.paths" 2>&1)
  e=$?
  echo "a block outside the function: exit $e: $(tail -1 <<<"$out")"
  [ "$e" = 1 ] && grep -q "bad.paths:4: 0x4 is not a block of main" <<<"$out" || rc=1
  out=$("$build/unit/hwprof-instr-asan" paths "$build/instr/sort.elf" --truth="$build/instr/sort-prof.map" 2>&1)
  e=$?
  echo "not a truth file: exit $e: $out"
  [ "$e" = 1 ] && grep -q "sort-prof.map:1: not a path-truth file" <<<"$out" || rc=1
  return $rc
}
check paths-truth-are-numbered-paths paths_truth_numbered

# path profiles collected through the hardware (docs/path.md): each workload, the
# switch table of label differences (tests/programs/switch_table.c), the threaded-code interpreter
# (tests/programs/dispatch.c: indirect jumps through a dispatch node), the loop of 2^40 paths per
# iteration (tests/programs/many_paths.c, whose hierarchical profiles need hammocks) and each Embench program
# instrumented by hwprof-instr --paths (under ASan/UBSan) for plain Ball-Larus paths,
# region-based and global hierarchical paths; run on hwprof-sim with the C model, its output the
# uninstrumented program's; after the run the profile cache is flushed, the pir's path and link
# stacks checked, every counter decoded (--path-map); the decoded profile must equal the oracle's
# paths of the uninstrumented run (hwprof-sim --path-truth: the retire stream and the CFGs, no
# numbering), path for path and count for count (hwprof-instr paths-check), in every function it
# covers; the share of branch executions those functions hold is printed (the run's coverage). The
# reasons functions were left without a profile are counted.
paths_hw_equal_oracle() {
  local f out rc=0 name emb want got
  for f in "$build"/instr/{graph,hashtab,interp,lz,matrix,sort,switch_table,dispatch,many_paths}.elf "$build"/embench/*.elf; do
    [ -f "$f" ] || continue
    name=$(basename "$f" .elf)
    case $name in *-prof | *-vp | *-ss) continue ;; esac
    [ -f "$logdir/$name.paths" ] || "$build/sim/hwprof-sim" --quiet --path-truth="$logdir/$name.paths" "$f" >/dev/null 2>&1
    want=$("$build/sim/hwprof-sim" --quiet "$f" 2>/dev/null)
    for emb in plain rb gp; do
      "$build/unit/hwprof-instr-asan" instrument --paths=$emb "$f" -o "$logdir/$name-$emb.elf" \
        --map="$logdir/$name-$emb.map" >"$logdir/$name-$emb.instr" 2>&1 || { echo "$name $emb: instrument failed"; tail -2 "$logdir/$name-$emb.instr"; rc=1; continue; }
      got=$("$build/sim/hwprof-sim" --path-map="$logdir/$name-$emb.map" --path-profile="$logdir/$name-$emb.pprof" \
        "$logdir/$name-$emb.elf" 2>"$logdir/$name-$emb.err") || { echo "$name $emb: the run failed:"; tail -3 "$logdir/$name-$emb.err"; rc=1; continue; }
      [ "$got" = "$want" ] || { echo "$name $emb: output differs from the uninstrumented program's"; rc=1; }
      out=$("$build/unit/hwprof-instr-asan" paths-check "$logdir/$name-$emb.pprof" "$logdir/$name.paths" 2>&1)
      echo "$name $emb: $(tail -1 <<<"$out"); $(grep -o 'coverage: [0-9.]*% of branch executions' "$logdir/$name-$emb.err")"
      grep -q '^paths-check: [1-9][0-9]* functions, [1-9][0-9]* paths .* 0 differences' <<<"$out" || { echo "$out" | head -5; rc=1; }
    done
  done
  # the loop of 2^40 paths per iteration (tests/programs/many_paths.c) is profiled through hammocks
  for emb in rb gp; do
    ! grep -q "left uninstrumented: churn" "$logdir/many_paths-$emb.instr" ||
      { echo "many_paths $emb: churn has no path profile (no hammocks?)"; rc=1; }
  done
  echo "functions left without a path profile, by reason (all programs, all three embodiments):"
  sed -n 's/^left uninstrumented: [^:]*: //p' "$logdir"/*-{plain,rb,gp}.instr 2>/dev/null | sed 's/0x[0-9a-f]*/ADDR/g' |
    sort | uniq -c | sort -rn
  return $rc
}
check paths-hardware-equal-oracle paths_hw_equal_oracle

# chords weighted by a measured edge profile (hwprof-instr --path-weights, docs/path.md "The plan"):
# the threaded interpreter, interp, sort and matrix are instrumented for edges, run, and their edge
# profile read back; each is instrumented again for plain, region-based and global paths with that
# profile weighing the chords, and must print the uninstrumented program's output and read back the
# oracle's paths exactly. The weights must have been used: every function planned weighted, and
# at least one program's placement different from the loops' guess (the build of the check above).
paths_weighted_chords() {
  local f name emb out got want rc=0 differ=0 d="$logdir/weighted"
  mkdir -p "$d"
  for name in dispatch interp sort matrix; do
    f=$build/instr/$name.elf
    want=$("$build/sim/hwprof-sim" --quiet "$f" 2>/dev/null)
    "$build/unit/hwprof-instr-asan" instrument --quiet "$f" -o "$d/$name-edge.elf" &&
      "$build/sim/hwprof-sim" --quiet --edge-map="$d/$name-edge.map" --edge-profile="$d/$name-edge.prof" "$d/$name-edge.elf" \
        >/dev/null 2>&1 || { echo "$name: the edge build's run failed"; rc=1; continue; }
    for emb in plain rb gp; do
      out=$("$build/unit/hwprof-instr-asan" instrument --paths=$emb --path-weights="$d/$name-edge.prof" \
        --path-weights-map="$d/$name-edge.map" "$f" -o "$d/$name-$emb.elf" --map="$d/$name-$emb.map" 2>&1) ||
        { echo "$name $emb: instrument failed: $(tail -1 <<<"$out")"; rc=1; continue; }
      grep -q "chords weighted by .* in \([1-9][0-9]*\) of the \1 functions planned" <<<"$out" ||
        { echo "$name $emb: not every function weighted: $(grep 'chords weighted' <<<"$out")"; rc=1; }
      cmp -s "$d/$name-$emb.elf" "$logdir/$name-$emb.elf" || differ=$((differ + 1))
      got=$("$build/sim/hwprof-sim" --path-map="$d/$name-$emb.map" --path-profile="$d/$name-$emb.pprof" \
        "$d/$name-$emb.elf" 2>"$d/$name-$emb.err") || { echo "$name $emb: the run failed:"; tail -3 "$d/$name-$emb.err"; rc=1; continue; }
      [ "$got" = "$want" ] || { echo "$name $emb: output differs from the uninstrumented program's"; rc=1; }
      out=$("$build/unit/hwprof-instr-asan" paths-check "$d/$name-$emb.pprof" "$logdir/$name.paths" 2>&1)
      echo "$name $emb weighted: $(tail -1 <<<"$out")"
      grep -q '^paths-check: [1-9][0-9]* functions, [1-9][0-9]* paths .* 0 differences' <<<"$out" || rc=1
    done
  done
  echo "builds whose placement the weights changed: $differ of 12"
  [ "$differ" -gt 0 ] || rc=1
  return $rc
}
check paths-weighted-chords-equal-oracle paths_weighted_chords

# the same on the SystemC platform with the RTL and the C model in lockstep: the counters the RTL
# wrote decode to the same file as hwprof-sim's (sort region-based, matrix plain, one Embench
# program global, and the threaded-code interpreter region-based), 0 mismatches
paths_rtl_lockstep() {
  local rc=0 name emb out
  for run in sort:rb matrix:plain crc32:gp dispatch:rb; do
    name=${run%%:*} emb=${run##*:}
    [ -f "$logdir/$name-$emb.elf" ] || continue
    out=$("$sc" --engine=lockstep --path-map="$logdir/$name-$emb.map" --path-profile="$logdir/$name-$emb-sc.pprof" \
      "$logdir/$name-$emb.elf" 2>&1) || { echo "$name $emb: exit $?"; echo "$out" | tail -3; rc=1; continue; }
    echo "$name $emb: $(grep -o 'lockstep:.*' <<<"$out"); $(grep -o 'path profile:.*' <<<"$out" | sed 's/, in .*//')"
    grep -q 'lockstep: .* 0 mismatches' <<<"$out" || rc=1
    cmp -s "$logdir/$name-$emb.pprof" "$logdir/$name-$emb-sc.pprof" && echo "  the same file as hwprof-sim's" ||
      { echo "  differs from hwprof-sim's"; rc=1; }
  done
  return $rc
}
check paths-rtl-lockstep-same-profile paths_rtl_lockstep

# recursion 5,000 deep (docs/path.md, "The path stack in memory"; docs/pir.md, "The link stack in
# memory"): by default the recursive calls are linked and the link stack spills its frames to the
# instrumenter's area; with --link-spill=0 they are bracketed and the path stack spills its sums
# instead. Either way the profile equals the oracle's (all three embodiments by default, rb both
# ways), and on the SystemC platform the RTL in lockstep writes the same files. With no area for
# the stack that needs one, or one too small, the profile is refused after the run (PATH_STACK.ERR
# or LINK.ERR: exit 4, no file), never counted wrong
paths_deep_recursion() {
  local rc=0 out emb v d="$logdir/deep-paths"
  mkdir -p "$d"
  "$build/sim/hwprof-sim" --quiet --path-truth="$d/deep.truth" "$build/instr/deep_recursion.elf" >/dev/null || rc=1
  for v in plain rb gp rb:--link-spill=0; do
    emb=${v%%:*}
    local opt=${v#"$emb"} name=$emb
    opt=${opt#:}
    [ -n "$opt" ] && name=$emb-nolink
    "$build/unit/hwprof-instr-asan" instrument --quiet --paths=$emb $opt "$build/instr/deep_recursion.elf" \
      -o "$d/deep-$name.elf" --map="$d/deep-$name.map" || rc=1
    out=$("$build/sim/hwprof-sim" --path-map="$d/deep-$name.map" --path-profile="$d/deep-$name.pprof" "$d/deep-$name.elf" 2>&1)
    echo "$name: $(grep -o 'system: .*' <<<"$out"); $(grep -o 'cost: [0-9]* profiling instructions, [0-9.]*%' <<<"$out")"
    out=$("$build/unit/hwprof-instr-asan" paths-check "$d/deep-$name.pprof" "$d/deep.truth" 2>&1)
    echo "  $out"
    grep -q '^paths-check: [1-9][0-9]* functions, .* 0 differences' <<<"$out" || rc=1
  done
  for v in rb rb-nolink; do
    out=$("$sc" --engine=lockstep --path-map="$d/deep-$v.map" --path-profile="$d/deep-$v-sc.pprof" "$d/deep-$v.elf" 2>&1)
    echo "$v on the SystemC platform, RTL in lockstep: exit $?: $(grep -o 'lockstep:.*' <<<"$out")"
    grep -q 'lockstep: .* 0 mismatches' <<<"$out" || rc=1
    cmp -s "$d/deep-$v.pprof" "$d/deep-$v-sc.pprof" && echo "  the same file as hwprof-sim's" || { echo "  differs"; rc=1; }
  done
  local want
  for v in "--link-spill=0 --path-spill=0" "--link-spill=0 --path-spill=4096" "--link-spill=1024"; do
    "$build/unit/hwprof-instr-asan" instrument --quiet --paths=rb $v "$build/instr/deep_recursion.elf" \
      -o "$d/deep-x.elf" --map="$d/deep-x.map" || rc=1
    rm -f "$d/deep-x.pprof"
    out=$("$build/sim/hwprof-sim" --quiet --path-map="$d/deep-x.map" --path-profile="$d/deep-x.pprof" "$d/deep-x.elf" 2>&1)
    echo "$v: exit $?: $(tail -1 <<<"$out")"
    want="path stack lost entries (PATH_STACK.ERR"
    [ "$v" = "--link-spill=1024" ] && want="link stack lost frames (LINK.ERR"
    grep -qF "$want" <<<"$out" && [ ! -e "$d/deep-x.pprof" ] || rc=1
  done
  out=$("$build/unit/hwprof-instr-asan" instrument --quiet --paths=rb --path-spill=100 "$build/instr/deep_recursion.elf" \
    -o "$d/x.elf" 2>&1)
  echo "--path-spill=100: exit $?: $out"
  grep -q "expects whole 64-byte blocks" <<<"$out" || rc=1
  return $rc
}
check paths-deep-recursion-spills-exact paths_deep_recursion

# setjmp and longjmp (docs/instrumenter.md, "setjmp and longjmp"; docs/path.md): tests/programs/unwind.c
# leaves functions by longjmp out of calls, nested protected calls and recursion with its frames
# spilled. The oracle leaves the activations a landing abandons (their paths cut off, never counted)
# and starts a new path at the block of the call of setjmp it lands behind; the landing code puts the
# path and link stacks back to the landing frame's depths and sets the sum that path starts with.
# The oracle's paths are paths of the numbering (`paths --truth`, landings' included). Each
# embodiment through the hardware, and the software-only build, gives a profile equal to the
# oracle's, with the protected call (protect: setjmp outside loops) in it; `retry` (setjmp in a
# loop) is profiled by plain paths and left out of hierarchical ones with its reason, the coverage
# saying what that costs; region-based on the RTL in lockstep writes the same file. Two frames that
# call setjmp 16 KiB apart (unwind-collide.elf): refused, exit 4.
paths_longjmp() {
  local rc=0 out v emb opt name d="$logdir/unwind-paths"
  mkdir -p "$d"
  "$build/sim/hwprof-sim" --quiet --path-truth="$d/unwind.truth" "$build/instr/unwind.elf" >/dev/null || rc=1
  out=$("$build/unit/hwprof-instr-asan" paths "$build/instr/unwind.elf" --truth="$d/unwind.truth" 2>&1) || rc=1
  echo "$(tail -1 <<<"$out")"
  grep -q '^paths --truth: [1-9][0-9]* paths numbered, .* 0 not paths of the numbered graph, 0 numbers shared' <<<"$out" || rc=1
  for v in plain rb gp rb:--paths-sw plain:--paths-sw; do
    emb=${v%%:*}
    opt=${v#"$emb"}
    opt=${opt#:}
    name=$emb${opt:+-sw}
    out=$("$build/unit/hwprof-instr-asan" instrument --paths=$emb $opt "$build/instr/unwind.elf" -o "$d/$name.elf" \
      --map="$d/$name.map" 2>&1) || { echo "$out"; rc=1; continue; }
    if [ "$emb" = plain ]; then
      grep -q '^left uninstrumented: retry' <<<"$out" && { echo "$name: retry left out"; rc=1; }
    else
      grep -q '^left uninstrumented: retry .*a longjmp lands inside a loop' <<<"$out" || { echo "$name: retry not left out"; rc=1; }
    fi
    out=$("$build/sim/hwprof-sim" --path-map="$d/$name.map" --path-profile="$d/$name.pprof" "$d/$name.elf" 2>&1)
    echo "$name: $(grep -o 'left out retry:.*' <<<"$out")"
    grep -q '^function protect ' "$d/$name.pprof" || { echo "$name: protect has no path profile"; rc=1; }
    out=$("$build/unit/hwprof-instr-asan" paths-check "$d/$name.pprof" "$d/unwind.truth" 2>&1)
    echo "  $out"
    grep -q '^paths-check: [1-9][0-9]* functions, .* 0 differences' <<<"$out" || rc=1
  done
  out=$("$sc" --engine=lockstep --path-map="$d/rb.map" --path-profile="$d/rb-sc.pprof" "$d/rb.elf" 2>&1)
  echo "rb on the SystemC platform, RTL in lockstep: $(grep -o 'lockstep:.*' <<<"$out")"
  grep -q 'lockstep: .* 0 mismatches' <<<"$out" || rc=1
  cmp -s "$d/rb.pprof" "$d/rb-sc.pprof" && echo "  the same file as hwprof-sim's" || { echo "  differs"; rc=1; }
  "$build/unit/hwprof-instr-asan" instrument --quiet --paths=rb "$build/instr/unwind-collide.elf" -o "$d/collide.elf" || rc=1
  out=$("$build/sim/hwprof-sim" --quiet --path-map="$d/collide.map" --path-profile="$d/collide.pprof" "$d/collide.elf" 2>&1)
  echo "unwind-collide rb: exit $?: $(tail -1 <<<"$out")"
  grep -q 'stack lost .*longjmp landing' <<<"$out" && [ ! -e "$d/collide.pprof" ] || rc=1
  return $rc
}
check paths-longjmp-landings-exact paths_longjmp

# bad input: an edge map given as a path map,
# a program that is not the map's, a cut or malformed profile each get one error naming the file;
# the fuzzer's finds stay fixed
paths_bad_input() {
  local rc=0 out d="$logdir/bad-paths"
  mkdir -p "$d"
  out=$("$build/sim/hwprof-sim" --quiet --path-map="$build/instr/sort-prof.map" --path-profile="$d/x.pprof" "$build/instr/sort-prof.elf" 2>&1)
  echo "an edge map: exit $?: $(tail -1 <<<"$out")"
  grep -q "sort-prof.map: mode minimal: not a map of path profiles" <<<"$out" || rc=1
  sed 's#^program .*#program '"$build"'/instr/lz.elf#' "$logdir/sort-rb.map" >"$d/other.map"
  out=$("$build/sim/hwprof-sim" --quiet --path-map="$d/other.map" --path-profile="$d/x.pprof" "$logdir/sort-rb.elf" 2>&1)
  echo "another program: exit $?: $(tail -1 <<<"$out")"
  grep -q "is not in .*lz.elf\|not the program instrumented" <<<"$out" || rc=1
  head -5 "$logdir/sort-rb.pprof" >"$d/cut.pprof"
  out=$("$build/unit/hwprof-instr-asan" paths-check "$d/cut.pprof" "$logdir/sort.paths" 2>&1)
  echo "a cut profile: exit $?: $out"
  grep -q "cut.pprof:5: no end line: the file is cut short" <<<"$out" || rc=1
  sed '4s/^function \([^ ]*\) 0x/function \1 zz/' "$logdir/sort-rb.pprof" >"$d/bad.pprof"
  out=$("$build/unit/hwprof-instr-asan" paths-check "$d/bad.pprof" "$logdir/sort.paths" 2>&1)
  echo "a malformed line: exit $?: $out"
  grep -q "bad.pprof:4: malformed function line" <<<"$out" || rc=1
  out=$("$build/unit/hwprof-instr-asan" paths-check "$logdir/sort-rb.pprof" "$logdir/sort-rb.map" 2>&1)
  echo "not a truth file: exit $?: $out"
  grep -q "sort-rb.map:1: not a path-truth file" <<<"$out" || rc=1
  out=$("$build/unit/hwprof-instr-asan" instrument --paths=rb --path-weights="$logdir/weighted/sort-edge.prof" \
    "$build/instr/sort.elf" -o "$d/w.elf" 2>&1)
  echo "path weights without their map: exit $?: $out"
  grep -q "need --paths and both the edge profile and its map" <<<"$out" || rc=1
  out=$("$build/unit/hwprof-instr-asan" instrument --paths=rb --path-weights="$logdir/weighted/sort-edge.prof" \
    --path-weights-map="$logdir/sort-rb.map" "$build/instr/sort.elf" -o "$d/w.elf" 2>&1)
  echo "a path profile's map as the weights': exit $?: $out"
  grep -q "sort-rb.map: the map of a path profile (mode paths-rb)" <<<"$out" || rc=1
  head -3 "$logdir/weighted/sort-edge.prof" >"$d/cut.prof"
  out=$("$build/unit/hwprof-instr-asan" instrument --paths=rb --path-weights="$d/cut.prof" \
    --path-weights-map="$logdir/weighted/sort-edge.map" "$build/instr/sort.elf" -o "$d/w.elf" 2>&1)
  echo "a cut edge profile as weights: exit $?: $out"
  grep -q "cut.prof" <<<"$out" && [ ! -e "$d/w.elf" ] || rc=1
  # what the fuzzer found (make fuzz, target path_files; tests/fuzz/path_files/): each input read
  # under ASan/UBSan against a valid file of the other kind ends in a result or one error, no report
  local f e
  for f in tests/fuzz/path_files/*; do
    [ -f "$f" ] || continue
    case $f in
      *.truth) out=$("$build/unit/hwprof-instr-asan" paths-check "$logdir/sort-rb.pprof" "$f" 2>&1) ;;
      *) out=$("$build/unit/hwprof-instr-asan" paths-check "$f" "$logdir/sort.paths" 2>&1) ;;
    esac
    e=$?
    echo "$f: exit $e: $(tail -1 <<<"$out")"
    case $e in 0 | 1 | 4) ;; *) rc=1 ;; esac # a result, a difference or one error: never a crash
    ! grep -q "runtime error\|Sanitizer" <<<"$out" || rc=1
  done
  return $rc
}
check paths-bad-input-one-error paths_bad_input
