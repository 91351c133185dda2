# The dynamic optimizer's checks of make test (docs/dynopt.md), sourced by tools/runtests.sh, whose
# check(), $build, $logdir, $par and $sc they use: scheme 5A's phase interrupts with an exact
# profile, hot traces in the code cache (end to end and on random paths), the layout bound's model,
# the edge-driven re-layout (end to end and at random moments).

# the dynamic optimizer's phase detection (docs/dynopt.md), scheme 5A, on the workloads, the two
# phase programs and the Embench programs (when ../shared/embench is there; they check themselves
# through their exit code): each instrumented (mode all) with its firmware, which arms the counters, takes the
# phase interrupts and reconstructs the profile period by period. The program's output is unchanged
# (its own check), and the whole run's profile the firmware writes back equals the exact one counted
# from the retire stream (hwprof-sim --edge-map): every reconstruction of paragraph 59 was exact.
# phases.c changes its hot set three times: at least three transitions must be taken.
dynopt_end_to_end() {
  local elf name out rc=0 tr
  for elf in "$build"/dyn/*-prof.elf; do
    while [ "$(jobs -rp | wc -l)" -ge "$par" ]; do wait -n; done
    name=$(basename "$elf" -prof.elf)
    ( "$build/sim/hwprof-sim" --edge-map="${elf%.elf}.map" "$elf" >"$logdir/dynopt-$name.out" 2>&1
      echo $? >"$logdir/dynopt-$name.rc" ) &
  done
  wait
  for elf in "$build"/dyn/*-prof.elf; do
    name=$(basename "$elf" -prof.elf)
    out=$(cat "$logdir/dynopt-$name.out")
    tr=$(sed -n 's/^dynopt: scheme 5A.*; \([0-9]*\) transitions.*/\1/p' <<<"$out")
    echo "$name: exit $(cat "$logdir/dynopt-$name.rc"); $(grep -o '[0-9]* transitions, [0-9]* skipped as false signals' <<<"$out"); $(grep -o 'handler retired [0-9]* instructions' <<<"$out"); $(grep -o 'profile from the hardware vs exact counts: [0-9]* differences' <<<"$out")"
    [ "$(cat "$logdir/dynopt-$name.rc")" = 0 ] && { [[ $name == embench-* ]] || grep -q 'checksum 0x[0-9a-f]* ok' <<<"$out"; } &&
      grep -q 'exact counts: 0 differences' <<<"$out" && grep -q ' 0 error interrupts, 0 unexpected traps' <<<"$out" &&
      { [ "$name" != phases ] || [ "${tr:-0}" -ge 3 ]; } || { grep -E 'error|edge check' <<<"$out" | head -5; rc=1; }
  done
  return $rc
}
check dynopt-5a-phase-interrupts-exact-profile dynopt_end_to_end

# the phase scoring of make bench (tools/dynopt_eval.py) on a log and a truth written by hand:
# windows of 100,000 instructions, flips at 200,000 and 400,000, new hot code at 600,000; the
# optimizer's transitions at 50,000 (initial), 250,000 (the first flip, within its window's end),
# 620,000 and 650,000 (the second flip, but only within two windows of its end), 950,000 (near
# nothing), one false-signal interrupt and one phase interrupt that changed nothing. Lenient: 2
# found, 1 repeated, 1 initial, 1 false. Strict (one window, everything else false): 1 found, 1
# missed, 4 transitions and the 2 interrupts false, 6 in 999,000 instructions: 60.06 per 10^7.
dynopt_eval_hand_worked() {
  local tmp out
  tmp=$(mktemp -d)
  {
    echo "hwprof-phase-truth 1"
    echo "window 100000 min 64 share 60 weight 1"
    local k c
    for k in 0 1 2 3 4 5 6 7 8 9; do
      c=0; [ "$k" = 2 ] || [ "$k" = 4 ] && c=1; [ "$k" = 6 ] && c=2
      echo "window $((k * 100000)) $(((k + 1) * 100000)) branches 10 hot 4 added 1 new 0 weight 5 change $c"
    done
    echo "end windows 10 changes 3"
  } >"$tmp/truth"
  printf '%s\n' "dynopt: event 1000 start crossed 0 fts 0 flipped 0 oab 0 functions 0 laid 0" \
    "dynopt: event 50000 phase crossed 1 fts 0 flipped 1 oab 1 functions 1 laid 1" \
    "dynopt: event 250000 phase crossed 1 fts 0 flipped 1 oab 1 functions 1 laid 1" \
    "dynopt: event 300000 fts crossed 1 fts 1 flipped 0 oab 1 functions 1 laid 0" \
    "dynopt: event 450000 phase crossed 1 fts 0 flipped 0 oab 1 functions 1 laid 0" \
    "dynopt: event 620000 phase crossed 1 fts 0 flipped 1 oab 1 functions 1 laid 1" \
    "dynopt: event 650000 phase crossed 1 fts 0 flipped 2 oab 1 functions 1 laid 1" \
    "dynopt: event 950000 phase crossed 1 fts 0 flipped 1 oab 1 functions 1 laid 1" \
    "dynopt: event 1000000 finish crossed 0 fts 0 flipped 0 oab 0 functions 1 laid 0" >"$tmp/out"
  out=$(python3 tools/dynopt_eval.py "$tmp/out" "$tmp/truth")
  rm -rf "$tmp"
  echo "$out"
  grep -q "true_changes=2 new_code=1 new_code_found=1 detected=2 missed=0 false=1 repeated=1 initial=1 fts=1 " <<<"$out" &&
    grep -q " strict_detected=1 strict_missed=1 strict_false=6 run=999000 strict_false_per_1e7=60.06$" <<<"$out"
}
check dynopt-eval-scores-hand-worked-log dynopt_eval_hand_worked

# hot traces into the code cache (docs/dynopt.md): every program with the trace firmware, once as
# the compiler laid it out (-fw) and once with hot traces placed in the code cache (-tc), on the
# workloads, the two phase programs and the Embench programs (when ../shared/embench is there). The
# program's own output (its results and checks, every line but the firmware's) must be the same in
# both with its checksum check passed, its exit code 0 (Embench's own verification, which prints
# nothing), the firmware must have placed traces and the
# program run some of its instructions from the cache, with no unexpected trap; one program runs on
# the SystemC platform with the RTL and the C model in lockstep while its code is rewritten.
tcache_end_to_end() {
  local elf name rc=0 v cached placed
  for elf in "$build"/tcache/*-tc.elf "$build"/tcache/*-fw.elf; do
    while [ "$(jobs -rp | wc -l)" -ge "$par" ]; do wait -n; done
    name=$(basename "$elf" .elf)
    ( "$build/sim/hwprof-sim" --code-range=0x80000000:0x80010000 "$elf" >"$logdir/tcache-$name.out" \
        2>"$logdir/tcache-$name.err"
      echo $? >"$logdir/tcache-$name.rc" ) &
  done
  wait
  for elf in "$build"/tcache/*-tc.elf; do
    name=$(basename "$elf" -tc.elf)
    cached=$(sed -n 's/.*retired in \[[^)]*) (\([0-9.]*\)%).*/\1/p' "$logdir/tcache-$name-tc.err")
    placed=$(sed -n 's/^firmware: code cache .*: \([0-9]*\) traces placed.*/\1/p' "$logdir/tcache-$name-tc.out")
    echo "$name: exit $(cat "$logdir/tcache-$name-fw.rc") / $(cat "$logdir/tcache-$name-tc.rc"); ${placed:-?} traces placed, ${cached:-?}% of the program's instructions from the cache"
    for v in fw tc; do grep -v '^firmware:' "$logdir/tcache-$name-$v.out" >"$logdir/tcache-$name-$v.prog"; done
    [ "$(cat "$logdir/tcache-$name-fw.rc")" = 0 ] && [ "$(cat "$logdir/tcache-$name-tc.rc")" = 0 ] &&
      { [[ $name == embench-* ]] || grep -q 'checksum 0x[0-9a-f]* ok' "$logdir/tcache-$name-tc.prog"; } &&
      cmp -s "$logdir/tcache-$name-fw.prog" "$logdir/tcache-$name-tc.prog" &&
      [ "${placed:-0}" -ge 1 ] && awk -v c="${cached:-0}" 'BEGIN { exit !(c > 0) }' ||
      { echo "  the runs differ or failed:"; diff "$logdir/tcache-$name-fw.prog" "$logdir/tcache-$name-tc.prog" | head -5
        grep -E 'error|unexpected' "$logdir/tcache-$name-tc.out" "$logdir/tcache-$name-tc.err" | head -3; rc=1; }
  done
  local out
  out=$("$sc" --engine=lockstep "$build/tcache/lz-tc.elf" 2>&1)
  echo "lz-tc on the SystemC platform: $(grep -o 'traces placed[^;]*' <<<"$out" | head -1); $(grep -o 'lockstep:.*' <<<"$out")"
  grep -q 'checksum 0x[0-9a-f]* ok' <<<"$out" && grep -q ' 0 mismatches' <<<"$out" && grep -q '[1-9][0-9]* traces placed' <<<"$out" ||
    { grep -A12 -E 'MISMATCH|error' <<<"$out" | head -20; rc=1; }
  return $rc
}
check tcache-hot-traces-same-output tcache_end_to_end

# ... and on random paths of real programs (tests/dynopt/codecache_random.c, under ASan/UBSan): 1000 paths
# cut at random from the retired stream of every plain workload and Embench program (all its option
# builds too), starting anywhere, placed in a code cache, and the program run again: its output and
# exit code must not change
codecache_random() {
  local progs=() p
  for p in sort hashtab interp lz graph matrix phases stable; do progs+=("$build/workloads/$p.elf"); done
  for p in "$build"/embench/*.elf "$build"/embench-*/*.elf; do
    [ -f "$p" ] || continue
    case $p in *-vp.elf | *-ss.elf) ;; *) progs+=("$p") ;; esac
  done
  "$build/unit/codecache-random" "${CODECACHE_SEED:-1}" 1000 "${progs[@]}"
}
check codecache-random-paths-same-output codecache_random

# the offline bound of layout (tools/static_layout.py, make bench section 9) counts with a model:
# applied to the program as linked it must give exactly the instructions and taken transfers the
# CPU model counted (the script refuses to answer otherwise; here both sides are compared)
static_layout_model() {
  local elf rc=0 err want got
  for elf in "$build/workloads/sort.elf" "$build/workloads/hashtab.elf" "$build/embench/slre.elf"; do
    [ -f "$elf" ] || continue
    err=$("$build/sim/hwprof-sim" --pcs="$logdir/static-layout.pcs" "$elf" 2>&1 >/dev/null) || { echo "$elf: the run failed"; rc=1; continue; }
    want=$(sed -n 's/.*program: \([0-9]*\) instructions outside trap handlers, \([0-9]*\) taken transfers.*/\1 \2/p' <<<"$err")
    got=$(python3 tools/static_layout.py "$elf" "$logdir/static-layout.pcs") || { rc=1; continue; }
    echo "$(basename "$elf"): CPU model $want, model as linked $(cut -d' ' -f1,2 <<<"$got"), laid out $(cut -d' ' -f3,4 <<<"$got")"
    [ -n "$want" ] && [ "$want" = "$(cut -d' ' -f1,2 <<<"$got")" ] || rc=1
  done
  rm -f "$logdir/static-layout.pcs"
  return $rc
}
check static-layout-model-reproduces-the-run static_layout_model

# the edge-driven re-layout (docs/dynopt.md, "Re-laying functions out while they run"): the same
# programs with the firmware laying out again each function whose hot set flipped, with scheme 5A
# (build/dynrl/) and with scheme 5B for the re-laid functions' forward branches (build/dyn5b/).
# The program's output is unchanged (its own check; Embench's through its exit code), and its edge
# profile, read back from the counters, equals the exact one counted from the retire stream with
# every copy in the code cache counted as its original (hwprof-sim --code-cache): the inverted
# branches' hints, their stubs and the moved region switches counted every edge of the program, and
# with 5B the firmware's reconstruction (paragraph 71) gave back every period's profile.
# phases.c must have been laid out at least three times and run most of its instructions from
# copies, and with 5B have had 5B pairs cross; one program runs on the SystemC platform with the RTL
# and the C model in lockstep while its code moves, with each scheme.
# Both optimizers in one program (docs/dynopt.md, "One code cache for both optimizers"): the same
# with the trace-driven optimizer placing hot traces in the same cache, with its cost model
# (build/dynboth/) and placing every hot trace (build/dynevery/): every copy, stub and flush must
# keep the output and the exact profile; build/dynevery must have placed at least 100 traces over
# all programs (some in phases.c) and flushed traces by a layout in at least one, and runs graph.c in
# RTL lockstep too.
relayout_end_to_end() {
  local elf name out err rc=0 cache tramp dir placed_all=0 flushed_all=0
  cache=$(sed -n 's/^DYNRL_CACHE := \(.*\)/\1/p' Makefile mk/*.mk)
  tramp=$(sed -n 's/^DYNRL_TRAMP_LO := \(.*\)/\1/p' Makefile mk/*.mk):$(sed -n 's/^DYNRL_TRAMP_HI := \(.*\)/\1/p' Makefile mk/*.mk)
  for elf in "$build"/dynrl/*-prof.elf "$build"/dyn5b/*-prof.elf "$build"/dynboth/*-prof.elf "$build"/dynevery/*-prof.elf; do
    while [ "$(jobs -rp | wc -l)" -ge "$par" ]; do wait -n; done
    name=$(basename "$(dirname "$elf")")-$(basename "$elf" -prof.elf)
    ( "$build/sim/hwprof-sim" --edge-map="${elf%.elf}.map" --code-cache="$cache" --trampolines="$tramp" "$elf" >"$logdir/$name.out" \
        2>"$logdir/$name.err"
      echo $? >"$logdir/$name.rc" ) &
  done
  wait
  for elf in "$build"/dynrl/*-prof.elf "$build"/dyn5b/*-prof.elf "$build"/dynboth/*-prof.elf "$build"/dynevery/*-prof.elf; do
    dir=$(basename "$(dirname "$elf")")
    name=$dir-$(basename "$elf" -prof.elf)
    out=$(cat "$logdir/$name.out")
    err=$(cat "$logdir/$name.err")
    local layouts copies ins crossed
    layouts=$(sed -n 's/^dynopt: re-layout: \([0-9]*\) layouts.*/\1/p' <<<"$out")
    copies=$(sed -n 's/.*: \([0-9]*\) instructions retired from copies.*/\1/p' <<<"$err")
    ins=$(sed -n 's/.*program: \([0-9]*\) instructions outside.*/\1/p' <<<"$err")
    crossed=$(sed -n 's/^dynopt: 5B: .*, \([0-9]*\) crossings of 5B pairs.*/\1/p' <<<"$out")
    local placed flushes
    placed=$(sed -n 's/^dynopt: traces: .* \([0-9]*\) placed in the code cache.*/\1/p' <<<"$out")
    flushes=$(sed -n 's/^dynopt: traces: .* \([0-9]*\) flushes by a layout.*/\1/p' <<<"$out")
    [ "$dir" = dynevery ] && placed_all=$((placed_all + ${placed:-0})) && flushed_all=$((flushed_all + ${flushes:-0}))
    echo "$name: exit $(cat "$logdir/$name.rc"); ${layouts:-?} layouts, ${copies:-?} of ${ins:-?} program instructions from copies;${crossed:+ $crossed crossings of 5B pairs;}${placed:+ $placed traces placed, $flushes flushed by a layout;} $(grep -o 'exact counts: [0-9]* differences' <<<"$err")"
    [ "$(cat "$logdir/$name.rc")" = 0 ] && { [[ $name == *-embench-* ]] || grep -q 'checksum 0x[0-9a-f]* ok' <<<"$out"; } &&
      { [[ $dir != dynboth && $dir != dynevery ]] || grep -q ' 0 handler errors$' <<<"$out"; } &&
      { [ "$name" != dynevery-phases ] || [ "${placed:-0}" -ge 1 ]; } &&
      grep -q 'exact counts: 0 differences' <<<"$err" && grep -q ' 0 error interrupts, 0 unexpected traps' <<<"$out" &&
      { [[ $name != *-phases ]] || { [ "${layouts:-0}" -ge 3 ] && [ $((2 * ${copies:-0})) -gt "${ins:-0}" ]; }; } &&
      { [ "$name" != dyn5b-phases ] || [ "${crossed:-0}" -ge 1 ]; } ||
      { grep -E 'error|edge check' <<<"$out$err" | head -5; rc=1; }
  done
  echo "dynevery: $placed_all traces placed over all programs (at least 100), $flushed_all flushes by a layout (at least 1)"
  [ "$placed_all" -ge 100 ] && [ "$flushed_all" -ge 1 ] || rc=1
  for dir in dynrl dyn5b dynevery; do
    out=$("$sc" --engine=lockstep "$build/$dir/graph-prof.elf" 2>&1)
    echo "$dir/graph on the SystemC platform: $(grep -o 're-layout: [0-9]* layouts' <<<"$out");$(grep -o ' [0-9]* placed in the code cache' <<<"$out") $(grep -o 'lockstep:.*' <<<"$out")"
    grep -q 'checksum 0x[0-9a-f]* ok' <<<"$out" && grep -q ' 0 mismatches' <<<"$out" && grep -q 're-layout: [1-9][0-9]* layouts' <<<"$out" &&
      { [ "$dir" != dynevery ] || grep -q ' [1-9][0-9]* placed in the code cache' <<<"$out"; } ||
      { grep -A12 -E 'MISMATCH|error' <<<"$out" | head -20; rc=1; }
  done
  return $rc
}
check dynopt-relayout-same-output-exact-profile relayout_end_to_end

# ... and Lua (../shared/bigprogs, when there) with the re-layout firmware: its own driver (70 M
# instructions), sim/bigprogs/lua_phases.c (five scripts run twice, 240 M) and lua_unwind.c
# (coroutines and pcall errors: longjmp landings, docs/instrumenter.md, 37 M): each program's own
# checksum check passes (exit code 0), the whole run's edge profile is exact through the code cache,
# no error interrupt or unexpected trap, and functions were laid out
relayout_lua() {
  local p elf out rc cache fail=0
  cache=$(sed -n 's/^DYNRL_CACHE := \(.*\)/\1/p' Makefile mk/*.mk)
  for p in lua lua-phases lua-unwind; do
    elf="$build/dynrl-big/$p-prof.elf"
    if [ ! -f "$elf" ]; then
      echo "skipped: $elf is not built (../shared/bigprogs is absent)"
      continue
    fi
    out=$("$build/sim/hwprof-sim" --max-insns=1000000000 --edge-map="${elf%.elf}.map" --code-cache="$cache" "$elf" 2>&1)
    rc=$?
    echo "$out" | grep -v '^dynopt: event'
    [ "$rc" = 0 ] && grep -q 'exact counts: 0 differences' <<<"$out" && grep -q ' 0 error interrupts, 0 unexpected traps' <<<"$out" &&
      grep -q '^dynopt: re-layout: [1-9][0-9]* layouts' <<<"$out" || fail=1
  done
  return $fail
}
check dynopt-relayout-lua-same-output-exact-profile relayout_lua

# the offline bound, run (docs/dynopt.md, "The static layout, run"): build/dynstatic records a whole
# run's counters (hwprof-sim --dump: its first run lays nothing out and says so), and with them loaded
# (--load) lays every function that ran out once at start. The loaded run keeps the program's output
# and its exact edge profile through the code cache, and laid functions out; a missing or misplaced
# profile file is one clear error naming it.
static_layout_run() {
  local cache rc=0 name elf out err prof lay counters_at profile_at
  cache=$(sed -n 's/^DYNRL_CACHE := \(.*\)/\1/p' Makefile mk/*.mk)
  profile_at=$(sed -n 's/^DYNSTATIC_PROFILE_AT := \(.*\)/\1/p' Makefile mk/*.mk)
  counters_at=0x80c00000 # the instrumenter's counter area (INSTR_COUNTERS_AT)
  for name in phases graph sort embench-depthconv embench-slre; do
    elf="$build/dynstatic/$name-prof.elf"
    [ -f "$elf" ] || continue
    prof="$logdir/static-$name.prof"
    out=$("$build/sim/hwprof-sim" --dump="$counters_at:0x40000:$prof" "$elf" 2>&1)
    grep -q 'static layout: no profile at' <<<"$out" || { echo "$name: the recording run laid something out"; rc=1; }
    "$build/sim/hwprof-sim" --load="$profile_at:$prof" --edge-map="${elf%.elf}.map" --code-cache="$cache" "$elf" \
      >"$prof.out" 2>"$prof.err"
    out=$(cat "$prof.out")
    err=$(cat "$prof.err")
    lay=$(sed -n 's/^dynopt: static layout: \([0-9]*\) functions laid out.*/\1/p' <<<"$out")
    echo "$name: ${lay:-?} functions laid out from the whole run's profile; $(grep -o 'exact counts: [0-9]* differences' <<<"$err")"
    [ "${lay:-0}" -ge 1 ] && grep -q 'exact counts: 0 differences' <<<"$err" &&
      { [[ $name == embench-* ]] || grep -q 'checksum 0x[0-9a-f]* ok' <<<"$out"; } || rc=1
    rm -f "$prof" "$prof.out" "$prof.err"
  done
  out=$("$build/sim/hwprof-sim" --load="$profile_at:$logdir/no-such.prof" "$build/dynstatic/sort-prof.elf" 2>&1)
  echo "missing file: exit $?: $out"
  grep -q "cannot read '$logdir/no-such.prof'" <<<"$out" || rc=1
  out=$("$build/sim/hwprof-sim" --load="0x90000000:$build/dynstatic/sort-prof.map" "$build/dynstatic/sort-prof.elf" 2>&1)
  echo "outside the RAM: exit $?: $out"
  grep -q "is not inside the RAM" <<<"$out" || rc=1
  return $rc
}
check dynopt-static-layout-run-same-output-exact-profile static_layout_run

# ... and at random moments in random orders (tests/dynopt/relayout_random.c, under ASan/UBSan): 100
# functions laid out in random block orders while each program runs (the firmware's handler, a
# callee or the middle of a block running then), on workloads, the phase programs and Embench
# programs: the same output and an exact edge profile through the code cache
relayout_random() {
  local progs=() p
  for p in sort interp lz phases embench-crc32 embench-nsichneu embench-slre embench-xgboost; do
    [ -f "$build/dyn/$p-prof.elf" ] && progs+=("$build/dyn/$p-prof.elf")
  done
  "$build/unit/relayout-random" "${RELAYOUT_SEED:-1}" 100 "${progs[@]}"
}
check relayout-random-same-output-exact-profile relayout_random
