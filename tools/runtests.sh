#!/usr/bin/env bash
# The checks of `make test`. Each prints PASS or FAIL with its time; the last line is
# "test: N passed, M failed". Usage: tools/runtests.sh BUILD_DIR UNIT_TEST...
# The checks come in groups, one subject each (the generated files and lint, the unit tests, QEMU,
# the subject files in tools/checks/), which share nothing but the build: JOBS (default: the cores)
# of them run at a time, each in its own shell, and each group's report is printed whole, in this
# file's order, once it and the groups before it have ended.
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

par=${JOBS:-$(nproc 2>/dev/null || echo 2)}
results="$logdir/results"  # one line per check: PASS|FAIL NAME
: >"$results"

# check NAME COMMAND...: run, record, and show the log of a failure
check() {
  local name=$1
  shift
  local log="$logdir/$name.log"
  local t0=$SECONDS
  if "$@" >"$log" 2>&1; then
    echo "PASS $name" >>"$results"
    printf 'PASS  %-40s %4ds\n' "$name" $((SECONDS - t0))
  else
    echo "FAIL $name" >>"$results"
    printf 'FAIL  %-40s %4ds  (log: %s)\n' "$name" $((SECONDS - t0)) "$log"
    tail -n 30 "$log" | sed 's/^/      /'
  fi
}

# the programs, the tools and the helpers every group uses
source "$(dirname "$0")/checks/common.sh"

# --- the groups: each a function (the subject files in tools/checks/ are sourced by theirs)
groups=()

# --- generated files and lint
group_generated() {
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

# ... and a description that breaks a rule (an array overlapping a register), naming the array
regtool_rejects_bad_array() {
  local tmp out rc
  tmp=$(mktemp -d)
  mkdir -p "$tmp/regs"
  cp regs/*.json "$tmp/regs/"
  python3 - "$tmp/regs/pir.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["arrays"] = [{"name": "TAB", "offset": 0, "entries": 4, "access": "rw", "desc": "overlaps BASE_LO"}]
json.dump(d, open(sys.argv[1], "w"))
PY
  out=$(python3 tools/regtool.py --root "$tmp" 2>&1)
  rc=$?
  rm -rf "$tmp"
  echo "$out"
  [ "$rc" = 2 ] && grep -q "regs/pir.json: array TAB: word 0 already used by" <<<"$out"
}
check regtool-rejects-overlapping-array regtool_rejects_bad_array

# the generated register blocks conform: the conformance block (every access kind, storage and
# option, arrays included) as RTL against its C twin, random accesses and engine values
check regtool-conformance-lockstep "$build/tb_reg_conformance/Vhwprof_conf_reg" --seed=1 --cycles=300000

# --- hwprof_top refuses to elaborate with a build parameter regs/encodings.json does not allow (the
#     generated rtl/top/autogen/hwprof_param_check.sv; the engines' own range checks may also fire)
rtl_refuses_bad_parameters() {
  local p out
  for p in UpdDepth=65 Sets=3 CntW=24 HistW=1; do
    out=$(verilator --lint-only -Wall rtl/hwprof.vlt $(make -s -C . print-rtl-src) --top-module hwprof_top -G$p 2>&1)
    if [ $? = 0 ] || ! grep -q "${p%%=*} must be .*(regs/encodings.json)" <<<"$out"; then
      echo "-G$p was not refused by the generated check (rtl/top/autogen/hwprof_param_check.sv): $out"
      return 1
    fi
    echo "-G$p: $(grep -m1 -o "${p%%=*} must be .*(regs/encodings.json)" <<<"$out")"
  done
}
check rtl-refuses-out-of-range-parameters rtl_refuses_bad_parameters

# --- the layers (docs/architecture.md): no include running back up a layer, no folders including
#     each other in a loop (tools/layers.py); and the checker tells both apart in a scratch tree with
#     one of each (a portable file including a host tool's header; two folders including each other)
check layers-no-include-up-no-loop python3 tools/layers.py
layers_catch_violations() {
  local tmp out rc
  tmp=$(mktemp -d)
  mkdir -p "$tmp/sw/lib" "$tmp/sw/host/a" "$tmp/sw/host/b"
  printf '#include "tool.h"\n' >"$tmp/sw/lib/core.c"
  printf '#include "b/y.h"\n' >"$tmp/sw/host/a/tool.h"
  printf '#include "a/tool.h"\n' >"$tmp/sw/host/b/y.h"
  (cd "$tmp" && git init -q && git add -A)
  out=$(cd "$tmp" && python3 "$OLDPWD/tools/layers.py" 2>&1)
  rc=$?
  rm -rf "$tmp"
  echo "$out"
  [ "$rc" = 1 ] && grep -q "sw/lib/core.c: includes sw/host/a/tool.h: sw/lib/ may not include sw/host/" <<<"$out" &&
    grep -q "in a loop: sw/host/a <-> sw/host/b" <<<"$out"
}
check layers-checker-catches-violations layers_catch_violations

# --- the FuseSoC core file: every RTL file listed, and FuseSoC's own parser and lint target on it
check core-file-lists-every-rtl-source python3 tools/core_check.py
if [ -x "$build/venv/bin/fusesoc" ]; then
  check fusesoc-lint-target "$build/venv/bin/fusesoc" --cores-root . run --build-root "$build/fusesoc" \
    --target=lint hwprof:hwprof:hwprof
else
  echo "note: FuseSoC is not installed (make deps); hwprof.core was checked by tools/core_check.py only"
fi
}
groups+=(generated)

# --- unit tests of the C model (cmocka, ASan+UBSan)
group_unit() {
  local u
  for u in "${units[@]}"; do
    check "unit-$u" "$build/unit/$u"
  done
}
groups+=(unit)

# --- the CPU model: its retired-PC stream equals QEMU's on every workload
group_qemu() {
  check qemu-check-workloads tools/qemu_check.sh "$build/sim/hwprof-sim" "${plain_workloads[@]}"
}
groups+=(qemu)

# --- the rest, one subject a file in tools/checks/ (check(), the variables above and those of
#     tools/checks/common.sh are theirs too): the whole system on both platforms (sim/sc/ with
#     hwprof_top as the RTL and the C model in lockstep, every output compared on every cycle of every
#     workload), the dynamic optimizer, the instrumenter, path profiling, Embench, whole-program paths,
#     the large programs, the co-processor and load-value profiling, the report page, the block benches,
#     picorv32's RTL with hwprof_top's, the docs' quick starts
for c in system dynopt instr paths embench wpp bigprogs valueprof report lockstep pico docs; do
  eval "group_$c() { source \"$(dirname "$0")/checks/$c.sh\"; }"
  groups+=("$c")
done

# --- run them, $par at a time, the longest first: in the order of the last run's durations in this
#     build directory, or else of these (a fresh clone's, CI's: seconds on two cores, pico 549,
#     lockstep 247, embench 166, dynopt 165, system 118, wpp 114, bigprogs 91, valueprof 85, paths 49,
#     instr 48, report 39, qemu 12), each report printed whole in the order above
order=(pico lockstep embench dynopt system wpp bigprogs valueprof paths instr report qemu generated unit)
if [ -f "$logdir/durations" ]; then
  mapfile -t order < <(sort -k2,2nr "$logdir/durations" | awk -v g=" ${groups[*]} " 'index(g, " " $1 " ") { print $1 }')
fi
known=()
for g in "${order[@]}"; do
  [[ " ${groups[*]} " == *" $g "* ]] && known+=("$g")
done
order=("${known[@]}")
for g in "${groups[@]}"; do
  [[ " ${order[*]} " == *" $g "* ]] || order+=("$g")
done
rm -f "$logdir"/group-*.out "$logdir"/group-*.done
echo "test: ${#groups[@]} groups of checks, $par at a time: ${order[*]}"
printed=0
print_ended() {  # the reports of the groups that have ended, in the order of $groups, up to the first still running
  while [ "$printed" -lt "${#groups[@]}" ] && [ -f "$logdir/group-${groups[$printed]}.done" ]; do
    cat "$logdir/group-${groups[$printed]}.out"
    printed=$((printed + 1))
  done
}
for g in "${order[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$par" ]; do wait -n; print_ended; done
  ( t0=$SECONDS; "group_$g" >"$logdir/group-$g.out" 2>&1; echo "$g $((SECONDS - t0))" >"$logdir/group-$g.done" ) &
done
while [ "$printed" -lt "${#groups[@]}" ]; do
  wait -n 2>/dev/null || sleep 1
  print_ended
done
cat "$logdir"/group-*.done >"$logdir/durations"

echo
grep -h "^round trip\|^handler:" "$logdir/unit-test_trace_roundtrip.log" 2>/dev/null | sed 's/^/trace /'
tail -n 1 "$logdir/qemu-check-workloads.log" 2>/dev/null
sed -n 's/.*trace check: \([0-9]*\) traces.*, \([0-9]*\) failed.*/\1 \2/p' "$logdir"/sc-trace-*.out 2>/dev/null |
  awk '{t += $1; f += $2} END { if (NR) printf "trace round trip on the workloads: %d traces checked, %d failed\n", t, f }'
cat "$logdir"/sc-trace-*.out "$logdir"/sc-fw-*.out 2>/dev/null | awk '
  /  run: / {i += $2} /lockstep: / {c += $2; m += $(NF-1); n++}
  END { if (n) printf "whole system in lockstep: %d runs, %d instructions, %d cycles compared, %d mismatches\n", n, i, c, m }'
cat "$logdir/instr-edge-profiles-exact-c-model.log" "$logdir/instr-edge-profiles-exact-rtl-lockstep.log" 2>/dev/null |
  awk '/edge check: .*differences/ { for (i = 1; i <= NF; i++) { if ($(i) == "edges") e += $(i-1); if ($(i) == "differences") d += $(i-1) } n++ }
    END { if (n) printf "edge profiles read back from the hardware: %d runs, %d edges checked, %d differences\n", n, e, d }'
total_cycles=0
lockstep_failed=0
for s in $seeds; do
  grep -q " 0 mismatches" "$logdir/lockstep-random-seed$s.log" 2>/dev/null || lockstep_failed=$((lockstep_failed + 1))
  n=$(grep -o '[0-9]* lockstep cycles' "$logdir/lockstep-random-seed$s.log" 2>/dev/null | cut -d' ' -f1)
  total_cycles=$((total_cycles + ${n:-0}))
done
echo "lockstep: $total_cycles random cycles across seeds ($seeds); runs with a mismatch: $lockstep_failed"
passed=$(grep -c '^PASS ' "$results")
failed=$(grep -c '^FAIL ' "$results")
if [ "$failed" -gt 0 ]; then
  echo "failed: $(sed -n 's/^FAIL //p' "$results" | tr '\n' ' ')"
fi
echo "checks: $((SECONDS / 60)) min $((SECONDS % 60)) s, $par groups at a time"
echo "test: $passed passed, $failed failed"
[ "$failed" = 0 ]
