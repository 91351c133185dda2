# The checks of make test on a real core's RTL (docs/picorv32.md), sourced by tools/runtests.sh, whose
# check(), $build and $logdir they use: picorv32 (pythondata-cpu-picorv32, installed by make deps)
# with hwprof_top's RTL, joined by the RVFI adapter (rtl/core/), in Verilator (build/pico/hwprof-pico),
# the adapter's RTL compared with its C model every cycle of every run.
#
# Every workload instrumented by the build, tests/programs/unwind.c (longjmp landings), and every
# Embench program (../shared/embench, skipped with a note where absent) instrumented at the default K: the program prints on picorv32 what it prints
# on the C platform and exits 0; the edge profile read back from the hardware equals the exact counts
# of the run; and it equals, edge for edge, the profile the C platform (the CPU model) reads back for
# the same program (hwprof-instr compare): the same program gives the same profile on both cores.
# With a slow profile memory (200 cycles a line) the adapter holds the core and the profile stays exact.
# Region-based path profiles of the workloads equal the C platform's and the oracle's; their trace
# records (without firmware) equal the C platform's and rebuild into the exact block stream. The
# trace-sampling firmware and the trace-driven optimizer run on picorv32's interrupts as on the C
# platform; the value-profiling co-processor's per-PC counts equal the retire stream's, and seed
# 001's value profiler finds vp_known's values.

pico=$build/pico/hwprof-pico

# pico_same NAME ELF MAP [ARGS...]: the program on both cores; one line; 0 when all of it holds
pico_same() {
  local w=$1 elf=$2 map=$3 d=$logdir/pico out cmp
  shift 3
  mkdir -p "$d"
  "$build/sim/hwprof-sim" --edge-map="$map" --edge-profile="$d/$w.c.prof" "$elf" >"$d/$w.c.out" 2>"$d/$w.c.err"
  "$pico" "$@" --edge-map="$map" --edge-profile="$d/$w.p.prof" "$elf" >"$d/$w.p.out" 2>"$d/$w.p.err"
  local rc=$?
  out=$(cat "$d/$w.p.err")
  cmp=$("$build/bin/hwprof-instr" compare "$d/$w.c.prof" "$d/$w.p.prof" 2>&1)
  echo "$w: $(sed -n 's/^hwprof-pico: [^:]*: \(.*\), [0-9.]* s (.*/\1/p' <<<"$out"); $(grep -o '[0-9]* edge traversals; profile from the hardware vs exact counts: [0-9]* differences' <<<"$out"); against the C platform's: $(grep -o '[0-9]* differences' <<<"$cmp")"
  [ "$rc" = 0 ] && cmp -s "$d/$w.c.out" "$d/$w.p.out" && grep -q 'edge check: .* 0 differences' <<<"$out" &&
    grep -q '^compare: .* 0 differences' <<<"$cmp" || { tail -n 3 "$d/$w.p.err"; return 1; }
}

pico_workloads() {
  local elf w rc=0 d=$logdir/pico
  for elf in "${prof_workloads[@]}"; do
    w=$(basename "$elf" -prof.elf)
    pico_same "$w" "$elf" "${elf%.elf}.map" || rc=1
  done
  # and longjmp out of linked calls (tests/programs/unwind.c): the landing code on a real core
  mkdir -p "$d"
  "$instr" instrument --quiet "$build/instr/unwind.elf" -o "$d/unwind.elf" || { echo "unwind: not instrumented"; return 1; }
  pico_same unwind "$d/unwind.elf" "$d/unwind.map" || rc=1
  return $rc
}

pico_embench() {
  local elf w rc=0 d=$logdir/pico
  mkdir -p "$d"
  for elf in "${embench_elfs[@]}"; do
    w=$(basename "$elf" .elf)
    "$instr" instrument --quiet "$elf" -o "$d/eb-$w.elf" || { echo "$w: not instrumented"; rc=1; continue; }
    pico_same "$w" "$d/eb-$w.elf" "$d/eb-$w.map" || rc=1
  done
  return $rc
}

# back-pressure: a profile memory of 200 cycles a line fills the update buffer; the adapter holds the
# core (its stall cycles counted) and nothing is lost
pico_backpressure() {
  local w=interp out held
  pico_same "$w-slow" "$build/instr/$w-prof.elf" "$build/instr/$w-prof.map" --mem-latency=200 || return 1
  held=$(sed -n 's/.* \([0-9]*\) cycles with the core held by the adapter.*/\1/p' "$logdir/pico/$w-slow.p.err")
  echo "$w, 200-cycle profile memory: the core held $held cycles"
  [ "${held:-0}" -gt 0 ]
}

# region-based path profiles (docs/path.md) on picorv32: every workload instrumented with
# --paths=rb (the ASan/UBSan instrumenter); the profile decoded from the hardware's counters after
# the run equals the C platform's file byte for byte, and the oracle's paths of the uninstrumented
# run on the CPU model (hwprof-sim --path-truth), path for path and count for count
pico_paths() {
  local w f out rc=0 d=$logdir/pico
  mkdir -p "$d"
  for w in graph hashtab interp lz matrix sort; do
    f=$build/instr/$w.elf
    "$build/sim/hwprof-sim" --quiet --path-truth="$d/$w.paths" "$f" >/dev/null 2>&1 &&
      "$build/unit/hwprof-instr-asan" instrument --quiet --paths=rb "$f" -o "$d/$w-rb.elf" &&
      "$build/sim/hwprof-sim" --quiet --path-map="$d/$w-rb.map" --path-profile="$d/$w-rb.c.pprof" "$d/$w-rb.elf" >/dev/null 2>&1 ||
      { echo "$w: the C platform's run failed"; rc=1; continue; }
    "$pico" --path-map="$d/$w-rb.map" --path-profile="$d/$w-rb.p.pprof" "$d/$w-rb.elf" >"$d/$w-rb.p.out" 2>"$d/$w-rb.p.err" ||
      { echo "$w: the run on picorv32 failed:"; tail -3 "$d/$w-rb.p.err"; rc=1; continue; }
    out=$("$build/unit/hwprof-instr-asan" paths-check "$d/$w-rb.p.pprof" "$d/$w.paths" 2>&1)
    echo "$w rb: $(tail -1 <<<"$out")"
    cmp -s "$d/$w-rb.c.pprof" "$d/$w-rb.p.pprof" || { echo "$w: the path profile differs from the C platform's"; rc=1; }
    grep -q '^paths-check: [1-9][0-9]* functions, [1-9][0-9]* paths .* 0 differences' <<<"$out" || rc=1
  done
  return $rc
}

# trace records (docs/wpp.md) on picorv32: the six workloads without firmware, the trace controller's
# FIFO drained over APB into a trace file while the core is held; the file equals the C platform's
# byte for byte, and the blocks hwprof-wpp (ASan/UBSan) rebuilds from it and the program image equal
# the exact block stream cut from the CPU model's retire port
pico_traces() {
  local elf w rc=0 d=$logdir/pico
  mkdir -p "$d"
  for w in graph hashtab interp lz matrix sort; do
    elf=$build/workloads/$w.elf
    "$build/sim/hwprof-sim" --trace-out="$d/$w.c.htr" --blocks-out="$d/$w.truth.blk" "$elf" >/dev/null 2>&1 ||
      { echo "$w: the C platform's run failed"; rc=1; continue; }
    "$pico" --trace-out="$d/$w.p.htr" "$elf" >/dev/null 2>"$d/$w.t.err" || { echo "$w: the run on picorv32 failed:"; tail -3 "$d/$w.t.err"; rc=1; continue; }
    "$wpp" blocks --quiet --trace="$d/$w.p.htr" --elf="$elf" --out="$d/$w.rebuilt.blk" || { rc=1; continue; }
    echo "$w: $(sed -n 's/.*trace drain: \([0-9]*\) records.*(.* \([0-9]*\) program instructions)/\1 records, \2 instructions/p' "$d/$w.t.err")"
    cmp -s "$d/$w.p.htr" "$d/$w.c.htr" || { echo "$w: the trace file differs from the C platform's"; rc=1; }
    cmp -s "$d/$w.rebuilt.blk" "$d/$w.truth.blk" || { echo "$w: the blocks rebuilt from the records differ from the retire stream's"; rc=1; }
    rm -f "$d/$w.truth.blk" "$d/$w.rebuilt.blk"
  done
  return $rc
}

# firmware and interrupts on picorv32 (docs/picorv32.md, "Interrupts and firmware"): the six
# workloads with the trace-sampling runtime (-fw) and with the trace-driven optimizer that places hot
# traces in a code cache and patches the program (-tc), unchanged; the bench emulates the machine
# mode they were written for on picorv32's own interrupts. Each must print on picorv32 what it prints
# on the C platform (the program's output and the firmware's: records, distinct and hot traces, the
# hottest trace, the sampling period, what was placed), take as many interrupts, and leave the trace
# controller with the same counts of ended traces (a handler's instruction reaching the controller
# would change them); every sampled record collected (sampled = the firmware's records), none dropped
pico_firmware() {
  local elf n rc=0 d=$logdir/pico c p recs
  mkdir -p "$d"
  for elf in "$build"/workloads/{graph,hashtab,interp,lz,matrix,sort}-fw.elf "$build"/tcache/{graph,hashtab,interp,lz,matrix,sort}-tc.elf; do
    while [ "$(jobs -rp | wc -l)" -ge "$par" ]; do wait -n; done
    n=$(basename "$elf" .elf)
    ( "$build/sim/hwprof-sim" "$elf" >"$d/fw-$n.c.out" 2>"$d/fw-$n.c.err"; echo $? >"$d/fw-$n.c.rc"
      "$pico" "$elf" >"$d/fw-$n.p.out" 2>"$d/fw-$n.p.err"; echo $? >"$d/fw-$n.p.rc" ) &
  done
  wait
  for elf in "$build"/workloads/{graph,hashtab,interp,lz,matrix,sort}-fw.elf "$build"/tcache/{graph,hashtab,interp,lz,matrix,sort}-tc.elf; do
    n=$(basename "$elf" .elf)
    c=$(sed -n 's/.*system: .*, \([0-9]*\) interrupts,.*/\1/p' "$d/fw-$n.c.err")
    p=$(sed -n 's/.* \([0-9]*\) interrupts, [0-9.]* s .*/\1/p' "$d/fw-$n.p.err")
    recs=$(sed -n 's/^firmware: [0-9]* trace interrupts, \([0-9]*\) records.*/\1/p' "$d/fw-$n.p.out")
    echo "$n: exit $(cat "$d/fw-$n.c.rc") / $(cat "$d/fw-$n.p.rc"); interrupts ${c:-?} / ${p:-?};$(grep -o ' sampled [0-9]*, dropped [0-9]*' "$d/fw-$n.p.err") on picorv32, the firmware counted ${recs:-?} records; output and trace counts $(cmp -s "$d/fw-$n.c.out" "$d/fw-$n.p.out" && diff -q <(grep '^  traces:' "$d/fw-$n.c.err") <(grep '^  traces:' "$d/fw-$n.p.err") >/dev/null && echo same || echo DIFFER)"
    [ "$(cat "$d/fw-$n.c.rc")" = 0 ] && [ "$(cat "$d/fw-$n.p.rc")" = 0 ] && [ -n "$p" ] && [ "$p" -gt 0 ] && [ "$c" = "$p" ] &&
      cmp -s "$d/fw-$n.c.out" "$d/fw-$n.p.out" &&
      [ "$(grep '^  traces:' "$d/fw-$n.c.err")" = "$(grep '^  traces:' "$d/fw-$n.p.err")" ] &&
      grep -q "^  traces: .* sampled $recs, dropped 0\$" "$d/fw-$n.p.err" ||
      { diff "$d/fw-$n.c.out" "$d/fw-$n.p.out" | head -4; tail -n 3 "$d/fw-$n.p.err"; rc=1; }
  done
  return $rc
}

# the value-profiling co-processor and its firmware on picorv32: the six workloads with the runtime
# of sw/fw/rt/cop_rt.c (the co-processor counts every load per PC; the firmware copies its counts at
# its interrupts and writes them to a file); the firmware's accounting is exact and its per-PC counts
# equal the independent count of the loads the front end had to choose, from the events hwprof_top
# took on picorv32 (--cop-check, tb/check/cop_check.c: totals agree, dropped records accounted),
# the handler taking interrupts (the tables of interp, sort and matrix fill); a profile with one
# count changed must be caught
pico_cop() {
  local elf w rc=0 d=$logdir/pico/cop out n irqs=0
  mkdir -p "$d"
  for elf in "$build"/workloads/{graph,hashtab,interp,lz,matrix,sort}-cop.elf; do
    while [ "$(jobs -rp | wc -l)" -ge "$par" ]; do wait -n; done
    w=$(basename "$elf" -cop.elf)
    mkdir -p "$d/$w"
    ( "$pico" --out-dir="$d/$w" --cop-check="$d/$w/cop-profile.txt" "$elf" >"$d/$w.out" 2>"$d/$w.err"; echo $? >"$d/$w.rc" ) &
  done
  wait
  for elf in "$build"/workloads/{graph,hashtab,interp,lz,matrix,sort}-cop.elf; do
    w=$(basename "$elf" -cop.elf)
    echo "$w: exit $(cat "$d/$w.rc"); $(grep -o '[0-9]* interrupts, [0-9.]* s' "$d/$w.err" | sed 's/, [0-9.]* s//'); $(grep -o 'cop check:.*' "$d/$w.err")"
    n=$(sed -n 's/.* \([0-9]*\) interrupts, [0-9.]* s .*/\1/p' "$d/$w.err")
    irqs=$((irqs + ${n:-0}))
    [ "$(cat "$d/$w.rc")" = 0 ] && grep -q 'accounting exact' "$d/$w.out" && grep -q 'totals agree, 0 PCs differ' "$d/$w.err" ||
      { tail -n 4 "$d/$w.err"; rc=1; }
  done
  echo "interrupts taken by the co-processor's handler on picorv32: $irqs"
  [ "$irqs" -gt 0 ] || rc=1
  awk 'NR == 3 { $2 = $2 + 1 } { print }' "$d/lz/cop-profile.txt" >"$d/tampered.txt"
  mkdir -p "$d/run"
  out=$("$pico" --out-dir="$d/run" --cop-check="$d/tampered.txt" "$build/workloads/lz-cop.elf" 2>&1) && rc=1
  echo "tampered: $(grep -o 'cop check:.*' <<<"$out" | tail -1)"
  grep -q 'TOTALS DIFFER' <<<"$out" || rc=1
  return $rc
}

# seed 001's load-value profiler on picorv32: vp_known (load values known by construction) with the
# runtime of sw/fw/rt/vp_rt.c (sw/fw/cop/valueprof.s on the co-processor, its copies and timer
# interrupts through picorv32's lines 11 and 7); the exact profile counted from the events
# hwprof_top took (--value-truth); hwprof-vpeval (ASan/UBSan) finds the 5 pairs of vp_known, each
# estimated within 0.05 of the truth, as on the C platform
pico_valueprof() {
  local d=$logdir/pico/vp out
  rm -rf "$d" && mkdir -p "$d"
  "$pico" --out-dir="$d" --value-truth="$d/truth.txt" "$build/workloads/vp_known-vp.elf" >"$d/out" 2>"$d/err" ||
    { tail -n 4 "$d/err"; return 1; }
  out=$("$build/unit/hwprof-vpeval-asan" --truth="$d/truth.txt" "$d/vp-profile.txt" --pairs="$d/pairs.txt" 2>&1) ||
    { echo "$out"; return 1; }
  echo "vp_known: $(grep -o '[0-9]* interrupts, [0-9.]* s' "$d/err" | sed 's/, [0-9.]* s//'); $(head -1 <<<"${out#*: }")"
  grep -q 'firmware: FAILED' "$d/out" && return 1
  awk 'NR > 1 { n++; d = $6 - $5; if (d < 0) d = -d; if (d > 0.05) { print "  off by more than 0.05:", $0; bad = 1 } }
       END { if (n != 5) { print "  expected the 5 pairs of vp_known, got", n; bad = 1 } exit bad }' "$d/pairs.txt"
}

# the comparison of the adapter's RTL with its C model can fail: a bit of the model's event flipped
# (--inject-fault) stops the run with exit 5 and a report naming the cycle
pico_fault() {
  local out rc
  out=$("$pico" --inject-fault=5000 "$build/instr/sort-prof.elf" 2>&1 >/dev/null)
  rc=$?
  echo "exit $rc: $(grep -m1 MISMATCH <<<"$out")"
  [ "$rc" = 5 ] && grep -q 'MISMATCH at cycle [0-9]*: the adapter.s RTL and C model differ' <<<"$out"
}

if [ -x "$pico" ]; then
  check pico-workloads-same-profile-as-c-platform pico_workloads
  check pico-adapter-holds-core-nothing-lost pico_backpressure
  check pico-adapter-fault-is-caught pico_fault
  check pico-path-profiles-equal-oracle pico_paths
  check pico-trace-records-equal-c-platform pico_traces
  check pico-firmware-interrupts-same-as-c-platform pico_firmware
  check pico-cop-firmware-counts-equal-retire-stream pico_cop
  check pico-valueprof-known-values pico_valueprof
  if [ ${#embench_elfs[@]} -gt 0 ]; then
    check pico-embench-same-profile-as-c-platform pico_embench
  else
    echo "note: ../shared/embench is not there (EMBENCH=...): the Embench programs on picorv32 are skipped"
  fi
else
  check pico-built false  # make test builds it; without picorv32 from PyPI (make deps) it fails here
fi
