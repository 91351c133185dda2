#!/usr/bin/env bash
# Gate-level lockstep (make gls): Yosys netlists (synth/gls.sh) against the C model,
#   hwprof_top in its lockstep bench: the random stream from several seeds with random initial flop
#                          values, and the directed scenarios, in the default, the small and the
#                          large configuration;
#   hwprof_cop, hwprof_vpf in theirs: every test the RTL runs in make test, shorter; and their small
#                          configurations with every memory as flops and gates too;
#   on the SystemC platform: real programs with each engine busy (traces with the sampling
#                          firmware, edge profiling of an instrumented program, the value-profiling
#                          co-processor, phase interrupts driving the dynamic optimizer).
# Every run must end with 0 mismatches (and the program's own checks passing); a table at the end.
# usage: tools/gls.sh BUILD_DIR   (run through make gls; GLS_SEEDS, GLS_CYCLES to change the stream)
set -uo pipefail
case "${1:-}" in -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
build=${1:?usage: tools/gls.sh BUILD_DIR}
seeds=${GLS_SEEDS:-1 2 3 4}
cycles=${GLS_CYCLES:-300000}
par=${JOBS:-$(nproc 2>/dev/null || echo 2)}
logdir="$build/gls/logs"
mkdir -p "$logdir"

tb_top="$build/gls/tb_top/Vhwprof_top"
tb_small="$build/gls/tb_small/Vhwprof_top"
tb_large="$build/gls/tb_large/Vhwprof_top"
tb_cop="$build/gls/cop/Vhwprof_cop"
tb_vpf="$build/gls/vpf/Vhwprof_vpf"
tb_cop_flops="$build/gls/cop_small-flops/Vhwprof_cop"
tb_vpf_flops="$build/gls/vpf_small-flops/Vhwprof_vpf"
sc="$build/gls/sc/hwprof-sc"
for b in "$tb_top" "$tb_small" "$tb_large" "$tb_cop" "$tb_vpf" "$tb_cop_flops" "$tb_vpf_flops" "$sc"; do
  [ -x "$b" ] || { echo "gls: error: $b is missing (run: make gls)" >&2; exit 2; }
done

# the programs on the SystemC platform: NAME ELF [hwprof-sc options...]
sc_runs=(
  "lz-fw|$build/workloads/lz-fw.elf"
  "lz-edge|$build/instr/lz-prof.elf|--edge-map=$build/instr/lz-prof.map"
  "hashtab-cop|$build/workloads/hashtab-cop.elf"
  "sort-dynopt|$build/dyn/sort-prof.elf"
)
# and a program instrumented for region-based paths (docs/path.md): the path sum and its stack
# as gates, the counters decoded after the run (a path stack error or a bad counter fails the run)
if "$build/instr/hwprof-instr" instrument --quiet --paths=rb "$build/instr/sort.elf" -o "$logdir/sort-rb.elf" \
  --map="$logdir/sort-rb.map"; then
  sc_runs+=("sort-paths-rb|$logdir/sort-rb.elf|--path-map=$logdir/sort-rb.map --path-profile=$logdir/sort-rb.pprof")
fi

# one line per run in $logdir/results: NAME CYCLES MISMATCHES SECONDS VERDICT
results="$logdir/results"
: >"$results"
run() {  # run NAME LOG COMMAND...
  local name=$1 log=$2 t0=$SECONDS rc n m verdict
  shift 2
  "$@" >"$log" 2>&1
  rc=$?
  n=$(grep -o '[0-9]* \(lockstep \)\{0,1\}cycles compared\|[0-9]* lockstep cycles' "$log" | tail -1 | cut -d' ' -f1)
  m=$(grep -o '[0-9]* mismatches' "$log" | tail -1 | cut -d' ' -f1)
  if [ "$rc" = 0 ] && [ "${m:-x}" = 0 ]; then verdict=PASS; else verdict="FAIL(exit $rc)"; fi
  printf '%s %s %s %s %s\n' "$name" "${n:-?}" "${m:-?}" $((SECONDS - t0)) "$verdict" >>"$results"
  printf 'gls: %-34s %-10s %12s cycles, %s mismatches, %ds\n' "$name" "$verdict" "${n:-?}" "${m:-?}" $((SECONDS - t0)) >&2
  [ "$verdict" = PASS ] || tail -n 20 "$log" | sed 's/^/      /' >&2
}

t_start=$SECONDS
jobs_run() {  # queue a run, $par at a time
  while [ "$(jobs -rp | wc -l)" -ge "$par" ]; do wait -n; done
  run "$@" &
}
for s in $seeds; do
  jobs_run "top-random-seed$s" "$logdir/top-random-seed$s.log" \
    env HWPROF_RAND_RESET="$s" "$tb_top" --seed="$s" --cycles="$cycles" --quiet
done
jobs_run top-directed "$logdir/top-directed.log" env HWPROF_RAND_RESET=7 "$tb_top" --test=directed --cycles=20000
jobs_run small-random-seed1 "$logdir/small-random-seed1.log" \
  env HWPROF_RAND_RESET=1 "$tb_small" --seed=1 --cycles="$cycles" --quiet
jobs_run small-directed "$logdir/small-directed.log" env HWPROF_RAND_RESET=9 "$tb_small" --test=directed --cycles=20000
jobs_run large-random-seed1 "$logdir/large-random-seed1.log" \
  env HWPROF_RAND_RESET=1 "$tb_large" --seed=1 --cycles="$cycles" --quiet
jobs_run large-directed "$logdir/large-directed.log" env HWPROF_RAND_RESET=8 "$tb_large" --test=directed --cycles=20000
jobs_run large-counts "$logdir/large-counts.log" env HWPROF_RAND_RESET=2 "$tb_large" --test=counts --seed=2 --cycles=100000 --quiet
for t in timing timing-clock host; do
  jobs_run "cop-$t" "$logdir/cop-$t.log" env HWPROF_RAND_RESET=3 "$tb_cop" --test=$t --cycles=10000
done
for t in busy random valueprof; do
  jobs_run "cop-$t" "$logdir/cop-$t.log" env HWPROF_RAND_RESET=4 "$tb_cop" --test=$t --seed=1 --cycles="$cycles" --quiet
done
jobs_run vpf-directed "$logdir/vpf-directed.log" env HWPROF_RAND_RESET=5 "$tb_vpf" --test=directed --cycles=10000
jobs_run vpf-random "$logdir/vpf-random.log" env HWPROF_RAND_RESET=6 "$tb_vpf" --test=random --seed=1 --cycles="$cycles" --quiet
# the small configurations with the memories as flops
for t in timing timing-clock host; do
  jobs_run "cop_small-flops-$t" "$logdir/cop_small-flops-$t.log" env HWPROF_RAND_RESET=3 "$tb_cop_flops" --test=$t --cycles=10000
done
for t in busy random; do  # (valueprof.s needs Table 1's sizes)
  jobs_run "cop_small-flops-$t" "$logdir/cop_small-flops-$t.log" \
    env HWPROF_RAND_RESET=4 "$tb_cop_flops" --test=$t --seed=1 --cycles="$cycles" --quiet
done
jobs_run vpf_small-flops-directed "$logdir/vpf_small-flops-directed.log" \
  env HWPROF_RAND_RESET=5 "$tb_vpf_flops" --test=directed --cycles=10000
jobs_run vpf_small-flops-random "$logdir/vpf_small-flops-random.log" \
  env HWPROF_RAND_RESET=6 "$tb_vpf_flops" --test=random --seed=1 --cycles="$cycles" --quiet
for r in "${sc_runs[@]}"; do
  IFS='|' read -r name elf opts <<<"$r"
  if [ ! -f "$elf" ]; then
    echo "gls: error: $elf is missing (make workloads builds it)" >&2
    printf '%s ? ? 0 FAIL(missing)\n' "sc-$name" >>"$results"
    continue
  fi
  # shellcheck disable=SC2086
  jobs_run "sc-$name" "$logdir/sc-$name.log" "$sc" --engine=lockstep $opts "$elf"
done
wait

echo
echo "Gate-level lockstep against the C model; netlists (synth/gls.sh):"
for f in hwprof_top-top hwprof_top-small hwprof_top-large hwprof_cop hwprof_vpf hwprof_cop_small-flops hwprof_vpf_small-flops; do
  echo "  $f: $(sed 's/^[a-z_]*: //' "$build/gls/$f.summary" 2>/dev/null || echo '?')"
done
printf '%-28s %14s %11s %8s  %s\n' run "cycles compared" mismatches seconds verdict
sort "$results" | while read -r name n m t v; do
  printf '%-28s %14s %11s %8s  %s\n' "$name" "$n" "$m" "$t" "$v"
done
total=$(awk '$2 ~ /^[0-9]+$/ {s += $2} END {print s+0}' "$results")
fails=$(grep -vc ' PASS$' "$results")
echo "total: $total cycles compared in $((SECONDS - t_start)) s; $fails failing run(s) (logs: $logdir)"
[ "$fails" = 0 ]
