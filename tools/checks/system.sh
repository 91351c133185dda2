# The whole system's checks of make test (sim/sc/ with hwprof_top as the RTL and the C model in
# lockstep, and the C platform sim/platform.c), sourced by tools/runtests.sh, whose check(), sc_runs(),
# $build, $logdir, $par, $sc and $plain_workloads they use: trace round trips, the swept
# configurations, the firmware's records and traces, the two platforms' one timing, a fault caught,
# bad input refused.

# the trace round trip on the real workloads: every trace record of the whole system is rebuilt
# from the ELF image and must give exactly the executed instructions; the RTL and the model agree
sc_trace_check_workloads() {
  local elf name out rc=0
  sc_runs sc-trace "--engine=lockstep" "--trace-check" -- "${plain_workloads[@]}"
  for elf in "${plain_workloads[@]}"; do
    name=$(basename "$elf" .elf)
    out=$(cat "$logdir/sc-trace-$name.out")
    echo "$name: exit $(cat "$logdir/sc-trace-$name.rc"); $(grep -o 'trace check:.*' <<<"$out"); $(grep -o 'lockstep:.*' <<<"$out")"
    [ "$(cat "$logdir/sc-trace-$name.rc")" = 0 ] && grep -q ' 0 failed' <<<"$out" && grep -q ' 0 mismatches' <<<"$out" ||
      { grep -A12 MISMATCH <<<"$out"; rc=1; }
  done
  return $rc
}
check sc-lockstep-trace-roundtrip-workloads sc_trace_check_workloads

# the whole system in the swept configurations (build/sc_c8, sc_c16, sc_c64: counters of 8, 16 and 64
# bits, 8 ways, lines of 8 counters): a plain program with every trace checked, and two programs
# instrumented for that counter width (hwprof-instr --counter-bytes; their counters overflow often
# at 8 bits) with a profile memory that accepts a request in 60% of the cycles (--mem-grant: the
# cache's requests wait for ready), RTL and C model in lockstep with the port rules checked, and the
# edge profile read back against the exact counts (modulo 2^CntW for 8 and 16 bits: the counters
# wrap); a program instrumented for 32-bit counters is refused by the edge check
sc_swept_configs() {
  local c e o rc=0 opts
  for c in c8 c16 c64; do
    for e in workloads/sort.elf instr/sort-prof-$c.elf instr/lz-prof-$c.elf; do
      opts=(--mem-grant=60 "--edge-map=$build/${e%.elf}.map")
      [[ $e == workloads/* ]] && opts=(--trace-check)
      o=$("$build/sc_$c/hwprof-sc" --engine=lockstep "${opts[@]}" "$build/$e" 2>&1)
      echo "$c $(basename "$e"): exit $?; $(grep -o 'checksum 0x[0-9a-f]* ok' <<<"$o") $(grep -o 'trace check: .* failed' <<<"$o")$(grep -o ', [0-9]* overflows' <<<"$o")$(grep -o 'exact counts.*differences' <<<"$o"); $(grep -o 'port protocol:.*' <<<"$o"); $(grep -o 'lockstep:.*' <<<"$o")"
      grep -q 'checksum 0x[0-9a-f]* ok' <<<"$o" && grep -q ' 0 mismatches' <<<"$o" &&
        { [[ $e != workloads/* ]] || grep -q ' 0 failed' <<<"$o"; } &&
        { [[ $e == workloads/* ]] || grep -q 'exact counts.*: 0 differences' <<<"$o"; } &&
        { [ "$c$e" != c8instr/sort-prof-c8.elf ] ||
          { grep -q ', [1-9][0-9]* overflows' <<<"$o" && grep -q 'port protocol: [1-9]' <<<"$o"; }; } ||
        { grep -A12 -E 'MISMATCH|error|edge check' <<<"$o" | head -20; rc=1; }
    done
  done
  o=$("$build/sc_c8/hwprof-sc" --engine=model "--edge-map=$build/instr/sort-prof.map" "$build/instr/sort-prof.elf" 2>&1)
  echo "c8 sort-prof.elf (32-bit counters): exit $?; $o"
  grep -q "counters are 32 bits wide, the hardware's 8" <<<"$o" || rc=1
  return $rc
}
check sc-lockstep-swept-configurations sc_swept_configs

# firmware on the simulated CPU: the runtime's interrupt handler collects every record the hardware
# sampled (records counted by the firmware == STAT_SAMPLED, none lost or dropped), RTL == model
fw_workloads=("$build"/workloads/*-fw.elf)
sc_firmware_workloads() {
  local elf name out rc=0 recs samp drop
  sc_runs sc-fw "--engine=lockstep" "--max-insns=100000000" -- "${fw_workloads[@]}"
  for elf in "${fw_workloads[@]}"; do
    name=$(basename "$elf" .elf)
    out=$(cat "$logdir/sc-fw-$name.out")
    recs=$(sed -n 's/^firmware: [0-9]* trace interrupts, \([0-9]*\) records.*/\1/p' <<<"$out")
    samp=$(sed -n 's/.*sampled \([0-9]*\), dropped \([0-9]*\).*/\1/p' <<<"$out")
    drop=$(sed -n 's/.*sampled \([0-9]*\), dropped \([0-9]*\).*/\2/p' <<<"$out")
    echo "$name: exit $(cat "$logdir/sc-fw-$name.rc"); firmware counted ${recs:-?} records, hardware sampled ${samp:-?}, dropped ${drop:-?}; $(grep -o 'lockstep:.*' <<<"$out")"
    [ "$(cat "$logdir/sc-fw-$name.rc")" = 0 ] && [ -n "$recs" ] && [ "$recs" = "$samp" ] && [ "$drop" = 0 ] &&
      grep -q ' 0 lost' <<<"$out" && grep -q ' 0 mismatches' <<<"$out" || { grep -A12 MISMATCH <<<"$out"; rc=1; }
  done
  return $rc
}
check sc-lockstep-firmware-collects-every-record sc_firmware_workloads

# traces are program paths while firmware runs: every program with a runtime that takes interrupts
# (trace sampling, the co-processor's, value profiling, simple sampling), the trace controller on
# from the entry, every trace record (LAST_*) rebuilt and compared with the instructions the program
# retired outside its interrupt handlers
firmware_trace_check() {
  local elf name out rc=0
  local elfs=("$build"/workloads/*-fw.elf "$build"/workloads/*-cop*.elf "$build"/workloads/*-vp.elf "$build"/workloads/*-ss.elf)
  for elf in "${elfs[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$par" ]; do wait -n; done
    name=$(basename "$elf" .elf)
    ( "$build/sim/hwprof-sim" --trace-check --max-insns=100000000 "$elf" >/dev/null 2>"$logdir/fw-trace-$name.err"
      echo $? >"$logdir/fw-trace-$name.rc" ) &
  done
  wait
  for elf in "${elfs[@]}"; do
    name=$(basename "$elf" .elf)
    out=$(cat "$logdir/fw-trace-$name.err")
    echo "$name: exit $(cat "$logdir/fw-trace-$name.rc"); $(grep -o 'trace check:.*failed' <<<"$out")"
    [ "$(cat "$logdir/fw-trace-$name.rc")" = 0 ] && grep -q 'trace check: [1-9][0-9]* traces .* 0 failed' <<<"$out" ||
      { grep '^trace check' <<<"$out"; rc=1; }
  done
  return $rc
}
check firmware-interrupts-trace-check-workloads firmware_trace_check

# the C-only platform (sim/platform.c, hwprof-sim) and the SystemC platform with the RTL alone give
# the same cycles, stalls and interrupts, and the same mcycle to the program: the two platforms
# implement one timing
c_platform_matches_systemc() {
  local elf c s rc=0
  for elf in "$build/workloads/lz-fw.elf" "$build/workloads/graph-fw.elf"; do
    c=$("$build/sim/hwprof-sim" --engine=model "$elf" 2>&1 >/dev/null |
      sed -n 's/.*system: \([0-9]*\) cycles, \([0-9]*\) stall cycles, \([0-9]*\) interrupts.*/\1 \2 \3/p')
    s=$("$sc" --engine=rtl "$elf" 2>&1 >/dev/null |
      sed -n 's/.*system: \([0-9]*\) cycles ([^)]*), \([0-9]*\) stall cycles, \([0-9]*\) interrupts.*/\1 \2 \3/p')
    echo "$(basename "$elf"): C platform (cycles stalls interrupts) ${c:-?}; SystemC with the RTL ${s:-?}"
    [ -n "$c" ] && [ "$c" = "$s" ] || rc=1
  done
  # mcycle, as the program reads it (the value-profiling runtime's 'run N cycles'), is the same too
  elf="$build/workloads/vp_known-vp.elf"
  c=$("$build/sim/hwprof-sim" --set=vp_snapshots=0 "$elf" 2>/dev/null | sed -n 's/.* run \([0-9]*\) cycles$/\1/p')
  s=$("$sc" --engine=rtl --set=vp_snapshots=0 "$elf" 2>/dev/null | sed -n 's/.* run \([0-9]*\) cycles$/\1/p')
  echo "$(basename "$elf"): mcycle at the end of profiling: C platform ${c:-?}; SystemC with the RTL ${s:-?}"
  [ -n "$c" ] && [ "$c" = "$s" ] || rc=1
  return $rc
}
check c-platform-matches-systemc-rtl c_platform_matches_systemc

# a deliberate C-model fault in the whole system: exit 5, a report naming cycle and signal, a waveform
sc_inject_is_caught() {
  local out rc fst=lz-fw-mismatch.fst elf
  elf=$(realpath "$build/workloads/lz-fw.elf")
  out=$(cd "$logdir" && rm -f "$fst" && "$sc" --inject=1000 "$elf" 2>&1 >/dev/null)
  rc=$?
  echo "$out"
  [ "$rc" = 5 ] || { echo "expected exit 5, got $rc"; return 1; }
  grep -Eq "MISMATCH at cycle [0-9]+: signal [a-z_]+_o: C model 0x[0-9a-f]+, RTL 0x[0-9a-f]+" <<<"$out" ||
    { echo "no mismatch report"; return 1; }
  [ -s "$logdir/$fst" ] || { echo "no waveform at $logdir/$fst"; return 1; }
}
check sc-inject-fault-is-caught sc_inject_is_caught

# --- the two runners: one clear error naming the argument (exit 2) or the file (exit 1); an option
# that takes a value given without one says so (not "unknown option")
sc_bad_input_rejected() {
  local a out rc bad r
  for a in --engine=verilog --max-insns=0 --mem-latency=abc --inject=-3 --frobnicate; do
    out=$("$sc" "$a" "$build/workloads/lz.elf" 2>&1)
    rc=$?
    echo "$a -> $rc: $out"
    [ "$rc" = 2 ] && grep -q "'$a'" <<<"$out" || return 1
  done
  for r in "$sc" "$build/sim/hwprof-sim"; do
    for a in --edge-map --edge-map= --trace-out --max-insns; do
      out=$("$r" "$a" "$build/workloads/lz.elf" 2>&1)
      rc=$?
      echo "$(basename "$r") $a -> $rc: $out"
      [ "$rc" = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q "option '${a%=}' needs a value" <<<"$out" || return 1
    done
  done
  bad=$(mktemp)
  printf 'not an ELF file' >"$bad"
  for a in /nonexistent.elf "$bad"; do
    out=$("$sc" "$a" 2>&1)
    rc=$?
    echo "$a -> $rc: $out"
    [ "$rc" = 1 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q "error: $a" <<<"$out" || { rm -f "$bad"; return 1; }
  done
  rm -f "$bad"
}
check sc-rejects-bad-input sc_bad_input_rejected

# --- the two runners share their checks and outputs (sim/runner.c): the same program gives the same
# files on the C platform (hwprof-sim, C model) and on the SystemC platform with the RTL (alone, or
# in lockstep with the C model): the retire stream (--pcs, --pc-counts), the value-profiling
# program's per-PC counts checked against the retire stream (--cop-check: the firmware's counts of
# the hardware's choices, exit 0 only when they agree) and the exact value profile (--value-truth),
# and for a program without firmware every trace record drained (--trace-out), the block stream,
# the path and phase truths (--blocks-out, --path-truth, --phase-truth) and the program's figures
runners_same_outputs() {
  local d rc=0 r f out
  d="$logdir/runners-same"
  rm -rf "$d" && mkdir -p "$d/sim" "$d/sc"
  "$build/sim/hwprof-sim" --out-dir="$d/sim" --cop-check="$d/sim/cop-profile.txt" --value-truth="$d/sim/vt.txt" \
    --pcs="$d/sim/vp.pcs" --pc-counts="$d/sim/vp.counts" "$build/workloads/sort-cop.elf" >/dev/null 2>"$d/sim/vp.err" ||
    { cat "$d/sim/vp.err"; return 1; }
  "$sc" --engine=lockstep --out-dir="$d/sc" --cop-check="$d/sc/cop-profile.txt" --value-truth="$d/sc/vt.txt" \
    --pcs="$d/sc/vp.pcs" --pc-counts="$d/sc/vp.counts" "$build/workloads/sort-cop.elf" >/dev/null 2>"$d/sc/vp.err" ||
    { cat "$d/sc/vp.err"; return 1; }
  for r in sim sc; do
    f=$([ $r = sim ] && echo "$build/sim/hwprof-sim" || echo "$sc")
    out=$("$f" --engine=$([ $r = sim ] && echo model || echo rtl) --trace-out="$d/$r/lz.htr" --blocks-out="$d/$r/lz.blocks" \
      --path-truth="$d/$r/lz.paths" --phase-truth="$d/$r/lz.phases" --phase-window=20000 \
      --code-range=0x80000000:0x80001000 "$build/instr/lz.elf" 2>&1 >/dev/null) || { echo "$out"; return 1; }
    grep -o '  program: .*' <<<"$out" >"$d/$r/lz.program"
    echo "$r: $(grep -o 'cop check:.*' "$d/$r/vp.err")"
    echo "$r: $(grep -o 'trace drain:.*' <<<"$out"); $(grep -o 'blocks:.*' <<<"$out"); $(cat "$d/$r/lz.program")"
  done
  for f in cop-profile.txt vt.txt vp.pcs vp.counts lz.htr lz.blocks lz.paths lz.phases lz.program; do
    [ -s "$d/sim/$f" ] || { echo "$f: empty"; rc=1; continue; }
    if cmp -s "$d/sim/$f" "$d/sc/$f"; then echo "$f: the same ($(wc -l <"$d/sim/$f") lines)"; else echo "$f: differs"; rc=1; fi
  done
  grep -q ', 0 PCs differ' "$d/sc/vp.err" && grep -q '0 mismatches' "$d/sc/vp.err" || rc=1
  [ "$(tail -n 1 "$d/sim/vp.pcs")" = "end $(($(wc -l <"$d/sim/vp.pcs") - 1))" ] || { echo "vp.pcs: no end record"; rc=1; }
  return $rc
}
check runners-give-the-same-outputs runners_same_outputs
