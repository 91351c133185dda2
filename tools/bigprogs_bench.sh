#!/usr/bin/env bash
# make bench, section 4b: edge profiling on the large programs (Lua and zstd, ../shared/bigprogs,
# built by make workloads; skipped with a note when they are not there). Each program instrumented
# at the default K = 6, mode minimal, runs on the CPU model with the C model of hwprof_top:
#  - coverage: the share of branch executions and instructions outside start-up code in
#    instrumented functions (from the retire stream, the edge check's report);
#  - cost: extra retired instructions (and with --no-carriers: every profiling operation an inserted
#    instruction, none carried by the program's own, docs/instrumenter.md), and extra cycles of the whole run under a cycle model of a
#    small core (--taken-penalty=2: two idle cycles after every taken transfer; --icache=8192: an
#    8 KiB direct-mapped instruction cache, 16-byte lines, 10 cycles a miss), against the
#    uninstrumented program under the same model; stall cycles (the CPU waiting for the profiling
#    hardware) included;
#  - the profile cache: misses per 1000 updates and stall cycles with a counter-line latency of 20,
#    for the default shape (4 sets x 2 ways) and two larger ones (the Sets and Ways parameters).
# Every instrumented run also checks its edge profile against the exact counts (0 differences).
# usage: tools/bigprogs_bench.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sim="$build/sim/hwprof-sim"
instr="$build/instr/hwprof-instr"
model=(--taken-penalty=2 --icache=8192 --icache-miss=10)

elfs=()
for elf in "$build"/bigprogs/*.elf; do [ -f "$elf" ] && elfs+=("$elf"); done
if [ ${#elfs[@]} -eq 0 ]; then
  echo "(../shared/bigprogs is not there: no large programs)"
  exit 0
fi

insns() { sed -n 's/.*: \([0-9]*\) instructions, exit code 0.*/\1/p' "$1" | head -1; }
cycles() { sed -n 's/^  timing: \([0-9]*\) cycles.*/\1/p' "$1" | head -1; }
stalls() { sed -n 's/.*system: [0-9]* cycles, \([0-9]*\) stall.*/\1/p' "$1" | head -1; }
per1000() { sed -n 's/.*edge profiling: \([0-9]*\) update operations; cache [0-9]* performed, \([0-9]*\) misses.*/\1 \2/p' "$1" |
  awk '{ printf "%.1f", $1 ? 1000 * $2 / $1 : 0 }'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.2f%%", 100 * (a - b) / b }'; }
exact() { grep -q 'edge check: .* 0 differences' "$1" || { echo "$2: the edge profile differs from the exact counts" >&2; return 1; }; }

# every run of both programs, two at a time
runs=()
for elf in "${elfs[@]}"; do
  w=$(basename "$elf" .elf)
  "$instr" instrument --quiet "$elf" -o "$tmp/$w-prof.elf"
  "$instr" instrument --quiet --no-carriers "$elf" -o "$tmp/$w-nc.elf"
  runs+=("$w-plain --engine=none ${model[*]} $elf")
  runs+=("$w-prof --edge-map=$tmp/$w-prof.map ${model[*]} $tmp/$w-prof.elf")
  runs+=("$w-nc --edge-map=$tmp/$w-nc.map ${model[*]} $tmp/$w-nc.elf")
  for shape in 4:2 16:2 64:4; do
    runs+=("$w-$shape --edge-map=$tmp/$w-prof.map --mem-latency=20 --cache-sets=${shape%:*} --cache-ways=${shape#*:} $tmp/$w-prof.elf")
  done
done
for r in "${runs[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
  read -r tag args <<<"$r"
  # shellcheck disable=SC2086
  "$sim" $args >/dev/null 2>"$tmp/$tag.err" &
done
wait

printf '%-6s %11s | %-9s %-9s | %-9s %-9s %-9s %-9s %9s | %-23s %-23s %-23s\n' program instrs "branches" "instrs" \
  "+instrs" "+cycles" "+i nocar" "+c nocar" "stall/4" "4x2: miss/1k stall/20" "16x2: miss/1k stall/20" "64x4: miss/1k stall/20"
fail=0
for elf in "${elfs[@]}"; do
  w=$(basename "$elf" .elf)
  p="$tmp/$w-prof.err"
  exact "$p" "$w" || fail=1
  exact "$tmp/$w-nc.err" "$w --no-carriers" || fail=1
  for shape in 4:2 16:2 64:4; do exact "$tmp/$w-$shape.err" "$w $shape" || fail=1; done
  cov_b=$(sed -n 's/.*edge check: coverage: \([0-9.]*%\) of branch executions and \([0-9.]*%\) of instructions.*/\1/p' "$p")
  cov_i=$(sed -n 's/.*edge check: coverage: \([0-9.]*%\) of branch executions and \([0-9.]*%\) of instructions.*/\2/p' "$p")
  shapes=()
  for shape in 4:2 16:2 64:4; do
    shapes+=("$(printf '%8s %12s' "$(per1000 "$tmp/$w-$shape.err")" "$(stalls "$tmp/$w-$shape.err")")")
  done
  base_i=$(insns "$tmp/$w-plain.err")
  base_c=$(cycles "$tmp/$w-plain.err")
  printf '%-6s %11s | %-9s %-9s | %-9s %-9s %-9s %-9s %9s | %-23s %-23s %-23s\n' "$w" "$base_i" "$cov_b" "$cov_i" \
    "$(pct "$(insns "$p")" "$base_i")" "$(pct "$(cycles "$p")" "$base_c")" \
    "$(pct "$(insns "$tmp/$w-nc.err")" "$base_i")" "$(pct "$(cycles "$tmp/$w-nc.err")" "$base_c")" \
    "$(stalls "$p")" "${shapes[@]}"
  grep 'edge check: cost:' "$p" | sed "s/^edge check: cost:/       $w cost:/"
done
echo "(coverage outside start-up code; +cycles: the whole run, taken-transfer penalty 2, 8 KiB instruction"
echo " cache, against the uninstrumented program under the same model; nocar: instrumented with"
echo " --no-carriers, every profiling operation an instruction; miss/1k: profile-cache misses per"
echo " 1000 update operations; stall/N: stall cycles with a counter-line latency of N)"
exit $fail
