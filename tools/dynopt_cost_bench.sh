#!/usr/bin/env bash
# make bench, section 10b: what the dynamic optimizer costs on runs of 10^7 instructions and more
# (docs/dynopt.md, "Checks and figures"): the twelve Embench programs ten times longer
# (GLOBAL_SCALE_FACTOR 10, 22-52 M instructions), built with the edge-driven re-layout and scheme 5A
# (build/dynrl-x10/, instrumented in mode all), each beside the same program uninstrumented and
# without the optimizer (build/tcache-x10/embench-P-plain.elf). Per program: the optimizer's own
# instructions (everything its trap handler retired, counted by the simulator, entry and exit
# included) as a share of the whole run, the goal being 1%; and the whole run's cycles against the
# plain program's, what a user pays (program, profiling instructions, handler); and Lua
# (../shared/bigprogs) the same way, build/dynrl-big/P-prof.elf against its plain build: its own
# driver (build/bigprogs/lua.elf, 59 M instructions) and ours of five scripts run twice
# (sim/bigprogs/lua_phases.c, build/lua-phases/lua-phases.elf, 219 M).
# The timing is in the header. Every run must keep an exact edge profile. Its phase detection is scored strictly
# against the ground truth (hwprof-sim --phase-truth, windows of 200,000 program instructions,
# tools/dynopt_eval.py): a branch flip is found only by a transition within one window of it, and
# every other transition and every false-signal interrupt is false. The figures also go to
# BUILD_DIR/bench/dynopt-cost.tsv.
# usage: tools/dynopt_cost_bench.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
sim="$build/sim/hwprof-sim"
penalty=${COST_TAKEN_PENALTY:-2}
icache=${COST_ICACHE:-8192}
miss=${COST_ICACHE_MISS:-20}
timing=(--taken-penalty="$penalty" --icache="$icache" --icache-miss="$miss" --max-insns=1000000000)
window=${DYNOPT_WINDOW:-200000}
py=/usr/bin/python3
[ -x "$py" ] || py=python3
cache=$(sed -n 's/^DYNRL_CACHE := \(.*\)/\1/p' Makefile mk/*.mk)
tsv="$build/bench/dynopt-cost.tsv"
mkdir -p "$build/bench"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== 10b. The dynamic optimizer's own cost on long runs (docs/dynopt.md): Embench ten times longer, the re-layout"
echo "       with scheme 5A (build/dynrl-x10), against the plain program (build/tcache-x10/embench-P-plain.elf)."
echo "       Timing: 1 cycle per instruction, $penalty idle cycles per taken transfer, a $icache-byte direct-mapped"
echo "       instruction cache of 16-byte lines, $miss cycles a miss. handler = every instruction the optimizer's trap"
echo "       handler retired (the simulator's count); goal: <= 1.0% of the run."
progs=()
declare -A opt_elf plain_elf
for elf in "$build"/dynrl-x10/embench-*-prof.elf; do
  [ -f "$elf" ] || continue
  p=$(basename "$elf" -prof.elf)
  [ -f "$build/tcache-x10/$p-plain.elf" ] || continue
  progs+=("$p") opt_elf[$p]=$elf plain_elf[$p]=$build/tcache-x10/$p-plain.elf
done
for p in lua:bigprogs lua-phases:lua-phases; do
  dir=${p#*:} p=${p%%:*}
  [ -f "$build/dynrl-big/$p-prof.elf" ] && [ -f "$build/$dir/$p.elf" ] || continue
  progs+=("$p") opt_elf[$p]=$build/dynrl-big/$p-prof.elf plain_elf[$p]=$build/$dir/$p.elf
done
if [ ${#progs[@]} -eq 0 ]; then
  echo "   (not run: no build/dynrl-x10 programs with their plain builds, no build/dynrl-big; ../shared/embench or"
  echo "   ../shared/bigprogs is needed)"
  exit 0
fi

# one program: both runs, one line of figures into $tmp/P.tsv
one() {
  local p=$1 elf=${opt_elf[$1]} out plain
  plain=$("$sim" "${timing[@]}" "${plain_elf[$1]}" 2>&1 >/dev/null)
  local plain_insns plain_cyc
  plain_insns=$(sed -n 's/^hwprof-sim: .*: \([0-9]*\) instructions, exit code.*/\1/p' <<<"$plain")
  plain_cyc=$(sed -n 's/.*timing: \([0-9]*\) cycles.*/\1/p' <<<"$plain")
  out=$("$sim" "${timing[@]}" --edge-map="${elf%.elf}.map" --code-cache="$cache" --phase-truth="$tmp/$p.truth" \
    --phase-window="$window" "$elf" 2>&1) || { echo "$p: the run failed ($elf)" >&2; return 1; }
  grep -q 'exact counts: 0 differences' <<<"$out" || { echo "$p: the edge profile is not exact ($elf)" >&2; return 1; }
  local all prog cyc layouts armed ints
  all=$(sed -n 's/^hwprof-sim: .*: \([0-9]*\) instructions, exit code.*/\1/p' <<<"$out")
  prog=$(sed -n 's/.*program: \([0-9]*\) instructions outside trap handlers.*/\1/p' <<<"$out")
  cyc=$(sed -n 's/.*timing: \([0-9]*\) cycles.*/\1/p' <<<"$out")
  layouts=$(sed -n 's/^dynopt: re-layout: \([0-9]*\) layouts.*/\1/p' <<<"$out")
  armed=$(sed -n 's/.* \([0-9]*\) functions armed at their first run.*/\1/p' <<<"$out")
  ints=$(sed -n 's/.*system: [0-9]* cycles, [0-9]* stall cycles, \([0-9]*\) interrupts.*/\1/p' <<<"$out")
  local ev
  echo "$out" >"$tmp/$p.out"
  ev=$("$py" "$(dirname "$0")/dynopt_eval.py" "$tmp/$p.out" "$tmp/$p.truth") || { echo "$p: the phase scoring failed" >&2; return 1; }
  ev_get() { sed -n "s/.*\b$1=\([0-9.]*\).*/\1/p" <<<"$ev"; }
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$p" "$plain_insns" "$all" "$prog" "$((all - prog))" "$ints" "$armed" \
    "${layouts:-0}" "$plain_cyc" "$cyc" "$(ev_get true_changes)" "$(ev_get strict_detected)" "$(ev_get strict_false)" \
    "$(ev_get strict_false_per_1e7)" >"$tmp/$p.tsv"
}
par=${JOBS:-$(nproc 2>/dev/null || echo 2)}
for p in "${progs[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$par" ]; do wait -n || exit 1; done
  one "$p" &
done
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || exit 1; done

printf 'program\tplain_instructions\tinstructions\toutside_handler\thandler\tinterrupts\tarmed\tlayouts\tplain_cycles\tcycles\tflips\tflips_found\tstrict_false\tstrict_false_per_1e7\n' >"$tsv"
printf '   %-22s %11s %11s %10s %7s %5s %6s %7s %11s %11s %8s %6s %6s %7s\n' program "plain ins" instructions handler share ints \
  armed layouts "plain cyc" cycles "vs plain" flips false "per 1e7"
met=0
for p in "${progs[@]}"; do
  cat "$tmp/$p.tsv" >>"$tsv"
  IFS=$'\t' read -r name plain_insns all prog handler ints armed layouts plain cyc flips found sfalse per <"$tmp/$p.tsv"
  share=$(awk -v h="$handler" -v a="$all" 'BEGIN { printf "%.2f%%", 100 * h / a }')
  awk -v h="$handler" -v a="$all" 'BEGIN { exit !(100 * h / a <= 1.0) }' && met=$((met + 1))
  vs=$(awk -v a="$cyc" -v b="$plain" 'BEGIN { if (b > 0) printf "%+.1f%%", 100 * (a - b) / b; else printf "-" }')
  printf '   %-22s %11s %11s %10s %7s %5s %6s %7s %11s %11s %8s %6s %6s %7s\n' "$name" "$plain_insns" "$all" "$handler" "$share" \
    "$ints" "$armed" "$layouts" "$plain" "$cyc" "$vs" "$found/$flips" "$sfalse" "$per"
done
echo "   the optimizer's own instructions at most 1% of the run: $met of ${#progs[@]} programs (figures: $tsv)"
echo "   (flips: the truth's branch flips found strictly / all; false: transitions not within one window of a flip and"
echo "   false-signal interrupts; per 1e7: false ones per 10^7 instructions of the optimizer's run, the goal being 1)"
