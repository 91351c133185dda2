#!/usr/bin/env bash
# The checks of `make test`, in order. Each prints PASS or FAIL with its time; the last line is
# "test: N passed, M failed". Usage: tools/runtests.sh BUILD_DIR UNIT_TEST...
#
# Environment: LOCKSTEP_SEEDS (default "1 2 3 4") and LOCKSTEP_CYCLES (cycles per seed, default
# 2600000): together at least 10 million random lockstep cycles of the default configuration;
# COUNTS_EVENTS (default 10000000): retire events of the exact-count test on the small cache.
set -u
build=${1:?usage: runtests.sh BUILD_DIR UNIT_TEST...}
shift
units=("$@")
tb="$build/tb_top/Vhwprof_top"
tb_small="$build/tb_small/Vhwprof_top"
tb_large="$build/tb_large/Vhwprof_top"
counts_events=${COUNTS_EVENTS:-10000000}
seeds=${LOCKSTEP_SEEDS:-1 2 3 4}
per_seed=${LOCKSTEP_CYCLES:-2600000}
logdir="$build/test-logs"
mkdir -p "$logdir"

passed=0
failed=0
failures=()

# check NAME COMMAND...: run, record, and show the log of a failure
check() {
  local name=$1
  shift
  local log="$logdir/$name.log"
  local t0=$SECONDS
  if "$@" >"$log" 2>&1; then
    passed=$((passed + 1))
    printf 'PASS  %-40s %4ds\n' "$name" $((SECONDS - t0))
  else
    failed=$((failed + 1))
    failures+=("$name")
    printf 'FAIL  %-40s %4ds  (log: %s)\n' "$name" $((SECONDS - t0)) "$log"
    tail -n 30 "$log" | sed 's/^/      /'
  fi
}

# --- generated files and lint
check regs-up-to-date python3 tools/regtool.py --check
check lint make --no-print-directory lint

# --- the register generator rejects a malformed description, naming the file
regtool_rejects_bad_input() {
  local tmp
  tmp=$(mktemp -d)
  mkdir -p "$tmp/regs"
  cp regs/*.json "$tmp/regs/"
  echo '{"name": "pir", "window": 1, "registers": [ {"name": "X", ' >"$tmp/regs/pir.json"
  local out rc
  out=$(python3 tools/regtool.py --root "$tmp" 2>&1)
  rc=$?
  rm -rf "$tmp"
  echo "$out"
  [ "$rc" = 2 ] && grep -q "regs/pir.json:[0-9]*:[0-9]*: malformed JSON" <<<"$out"
}
check regtool-rejects-malformed-description regtool_rejects_bad_input

# --- unit tests of the C model (cmocka, ASan+UBSan)
for u in "${units[@]}"; do
  check "unit-$u" "$build/unit/$u"
done

# --- the CPU model: its retired-PC stream equals QEMU's on every workload
plain_workloads=()
for elf in "$build"/workloads/*.elf; do
  case $elf in *-fw.elf) ;; *) plain_workloads+=("$elf") ;; esac
done
check qemu-check-workloads tools/qemu_check.sh "$build/sim/hwprof-sim" "${plain_workloads[@]}"

# --- the trace round trip on the real workloads: every trace record of the whole system (CPU model
#     + C model) is reconstructed from the ELF image and must give exactly the executed instructions
trace_check_workloads() {
  local elf out rc=0
  for elf in "${plain_workloads[@]}"; do
    out=$("$build/sim/hwprof-sim" --engine=model --trace-check "$elf" 2>&1 >/dev/null) || rc=1
    echo "$(basename "$elf" .elf): $(grep 'trace check:' <<<"$out")"
    grep -q ' 0 failed' <<<"$out" || rc=1
  done
  return $rc
}
check trace-roundtrip-workloads trace_check_workloads

# --- firmware on the simulated CPU: the runtime's interrupt handler must collect every record the
#     hardware sampled (records counted by the firmware == STAT_SAMPLED, none lost or dropped)
firmware_collects_every_record() {
  local elf out rc=0 recs samp drop
  for elf in "$build"/workloads/*-fw.elf; do
    out=$("$build/sim/hwprof-sim" --engine=model --max-insns=100000000 "$elf" 2>&1) || { echo "$out"; rc=1; continue; }
    recs=$(sed -n 's/^firmware: [0-9]* trace interrupts, \([0-9]*\) records.*/\1/p' <<<"$out")
    samp=$(sed -n 's/.*sampled \([0-9]*\), dropped \([0-9]*\).*/\1/p' <<<"$out")
    drop=$(sed -n 's/.*sampled \([0-9]*\), dropped \([0-9]*\).*/\2/p' <<<"$out")
    echo "$(basename "$elf" .elf): firmware counted ${recs:-?} records, hardware sampled ${samp:-?}, dropped ${drop:-?}"
    [ -n "$recs" ] && [ "$recs" = "$samp" ] && [ "$drop" = 0 ] && grep -q ' 0 lost' <<<"$out" || rc=1
  done
  return $rc
}
check firmware-collects-every-record firmware_collects_every_record

# --- lockstep benches: directed tests in every configuration
check lockstep-directed "$tb" --test=directed --cycles=20000
check lockstep-directed-small-cache "$tb_small" --test=directed --cycles=20000
check lockstep-directed-large-cache "$tb_large" --test=directed --cycles=20000

total_cycles=0
lockstep_random() {
  local seed=$1 out
  out=$("$tb" --seed="$seed" --cycles="$per_seed" --quiet)
  local rc=$?
  echo "$out"
  [ "$rc" = 0 ] && grep -q " 0 mismatches" <<<"$out"
}
lockstep_failed=0
for s in $seeds; do
  check "lockstep-random-seed$s" lockstep_random "$s" || true
  grep -q " 0 mismatches" "$logdir/lockstep-random-seed$s.log" || lockstep_failed=$((lockstep_failed + 1))
  n=$(grep -o '[0-9]* lockstep cycles' "$logdir/lockstep-random-seed$s.log" | cut -d' ' -f1)
  total_cycles=$((total_cycles + ${n:-0}))
done
for c in top small large; do
  check "lockstep-program-$c" "$build/tb_$c/Vhwprof_top" --test=program --seed=31 --cycles=1000000 --quiet
done
check lockstep-random-small-cache "$tb_small" --seed=11 --cycles=2000000 --mem-latency=1:20 --mem-grant=40 --quiet
check lockstep-random-large-cache "$tb_large" --seed=12 --cycles=2000000 --mem-latency=1:3 --mem-grant=100 --quiet

# --- after a flush every counter in memory equals the count computed independently from the
#     event stream, for at least COUNTS_EVENTS events on a small cache (many evictions)
counts_exact() {
  local bin=$1 cycles=$2 min_events=$3 seed=$4 out rc ev
  shift 4
  out=$("$bin" --test=counts --seed="$seed" --cycles="$cycles" "$@")
  rc=$?
  echo "$out"
  [ "$rc" = 0 ] || return 1
  ev=$(sed -n 's/.*retire events accepted \([0-9]*\).*/\1/p' <<<"$out")
  echo "events: $ev (need $min_events)"
  [ "${ev:-0}" -ge "$min_events" ]
}
check counts-exact-after-flush-small-cache counts_exact "$tb_small" $((counts_events * 4)) "$counts_events" 21 \
  --mem-latency=1:8 --mem-grant=70
check counts-exact-after-flush-default-cache counts_exact "$tb" 3000000 300000 22 --mem-latency=2:30 --mem-grant=50

# --- a deliberate RTL/C-model difference must fail the bench with a report naming cycle and signal
inject_is_caught() {
  local fst="$logdir/inject.fst" out rc
  rm -f "$fst"
  out=$("$tb" --seed=1 --cycles=200000 --inject=1000 --fst="$fst")
  rc=$?
  echo "$out"
  [ "$rc" = 1 ] || { echo "expected exit 1, got $rc"; return 1; }
  grep -Eq "MISMATCH at cycle [0-9]+: signal [a-z_]+_o: C model 0x[0-9a-f]+, RTL 0x[0-9a-f]+" <<<"$out" ||
    { echo "no mismatch report"; return 1; }
  [ -s "$fst" ] || { echo "no waveform at $fst"; return 1; }
}
check lockstep-inject-fault-is-caught inject_is_caught

# --- bad bench arguments: one clear error naming the argument, exit 2
bad_args_rejected() {
  local a out rc
  for a in --cycles=abc --seed=-1 --test=nope --inject= --frobnicate --mem-latency=0:3 --mem-grant=101; do
    out=$("$tb" "$a" 2>&1)
    rc=$?
    echo "$a -> $rc: $out"
    [ "$rc" = 2 ] && grep -q "argument '$a'" <<<"$out" || return 1
  done
}
check bench-rejects-bad-arguments bad_args_rejected

echo
grep -h "^round trip\|^handler:" "$logdir/unit-test_trace_roundtrip.log" 2>/dev/null | sed 's/^/trace /'
tail -n 1 "$logdir/qemu-check-workloads.log" 2>/dev/null
awk '{t += $4; i += $6; gsub(/[(]/, "", $6)} / failed/ {f += $(NF-1)} END {
  if (NR) printf "trace round trip on the workloads: %d traces checked, %d failed\n", t, f }' \
  "$logdir/trace-roundtrip-workloads.log" 2>/dev/null
echo "lockstep: $total_cycles random cycles across seeds ($seeds); runs with a mismatch: $lockstep_failed"
if [ ${#failures[@]} -gt 0 ]; then
  echo "failed: ${failures[*]}"
fi
echo "test: $passed passed, $failed failed"
[ "$failed" = 0 ]
