#!/usr/bin/env bash
# make bench, section 10: the edge-driven re-layout (docs/dynopt.md, "Re-laying functions out while
# they run"), on the workloads, the two phase programs and the Embench programs (when built). Each
# program runs twice on hwprof-sim (the C model of hwprof_top) with the timing in the header:
# build/dyn (scheme 5A decides, nothing moves) and build/dynrl (the same firmware lays a function out
# again whenever its hot set flipped). Program figures exclude the trap handler; the handler's
# instructions are the optimizer's cost; both runs must keep the program's output and an exact edge
# profile (the simulator counts the code cache's copies as their originals, --code-cache).
# The figures also go to BUILD_DIR/bench/relayout.tsv; with PLOTS=DIR set, each program's phase
# timeline with its layouts marked goes to DIR/dynopt-rl-NAME.png (tools/dynopt_eval.py).
# usage: tools/relayout_bench.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
mkdir -p "$build/bench"
tsv="$build/bench/relayout.tsv"
penalty=${RL_TAKEN_PENALTY:-2}
sim="$build/sim/hwprof-sim"
py=/usr/bin/python3
[ -x "$py" ] || py=python3
cache=$(sed -n 's/^DYNRL_CACHE := \(.*\)/\1/p' Makefile)
printf 'program\tnone_prog_cycles\trl_prog_cycles\tnone_all_cycles\trl_all_cycles\tnone_taken\trl_taken\tlayouts\tcopies\n' >"$tsv"

pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%+.1f%%", 100 * (a - b) / b; else printf "-" }'; }
field() { sed -n "s/$1/\\1/p" <<<"$2" | head -1; }

echo "== 10. Edge-driven re-layout at run time (docs/dynopt.md): scheme 5A's firmware (mode all), without and with"
echo "      laying out again each function whose hot set flipped; timing: 1 cycle per instruction, $penalty idle cycles"
echo "      per taken transfer (--taken-penalty=$penalty). prog-cyc = program instructions + $penalty x its taken transfers"
printf '%-21s| %8s %7s %8s %8s %9s | %8s %7s %8s %8s %9s %7s %6s | %7s %7s %7s\n' program \
  ins taken prog-cyc handler all-cyc ins taken prog-cyc handler all-cyc layouts copies vs-none taken all-vs
for rl in "$build"/dynrl/*-prof.elf; do
  [ -f "$rl" ] || continue
  name=$(basename "$rl" -prof.elf)
  none="$build/dyn/$name-prof.elf"
  [ -f "$none" ] || continue
  vals=()
  for elf in "$none" "$rl"; do
    truth=()
    [ -n "${PLOTS:-}" ] && [ "$elf" = "$rl" ] && truth=(--phase-truth="$build/bench/relayout-$name.truth" --phase-window=200000)
    err=$("$sim" --taken-penalty="$penalty" --edge-map="${elf%.elf}.map" --code-cache="$cache" "${truth[@]}" "$elf" 2>&1 >"$build/bench/relayout-run.out") ||
      { echo "$name: the run failed ($elf)"; echo "$err" | tail -3; exit 1; }
    out=$(cat "$build/bench/relayout-run.out")
    grep -q 'exact counts: 0 differences' <<<"$err" || { echo "$name: the edge profile is not exact ($elf)"; exit 1; }
    ins=$(field '.*program: \([0-9]*\) instructions outside.*' "$err")
    taken=$(field '.*instructions outside trap handlers, \([0-9]*\) taken.*' "$err")
    cycles=$(field '.*timing: \([0-9]*\) cycles.*' "$err")
    handler=$(field '.*handler retired \([0-9]*\) instructions.*' "$out")
    layouts=$(field '.*re-layout: \([0-9]*\) layouts.*' "$out")
    copies=$(field '.*: \([0-9]*\) instructions retired from copies.*' "$err")
    vals+=("$ins" "$taken" $((ins + penalty * taken)) "${handler:-0}" "$cycles" "${layouts:-0}" "${copies:-0}")
    if [ ${#truth[@]} -gt 0 ]; then # the timeline with the layouts marked (PLOTS=DIR)
      "$py" "$(dirname "$0")/dynopt_eval.py" --plot="$PLOTS/dynopt-rl-$name.png" --title="$name: scheme 5A with re-layout" \
        "$build/bench/relayout-run.out" "$build/bench/relayout-$name.truth" >/dev/null
      rm -f "$build/bench/relayout-$name.truth"
    fi
  done
  frac=$(awk -v c="${vals[13]}" -v i="${vals[7]}" 'BEGIN { printf "%.0f%%", (i > 0 ? 100 * c / i : 0) }')
  printf '%-21s| %8s %7s %8s %8s %9s | %8s %7s %8s %8s %9s %7s %6s | %7s %7s %7s\n' "$name" "${vals[0]}" "${vals[1]}" "${vals[2]}" \
    "${vals[3]}" "${vals[4]}" "${vals[7]}" "${vals[8]}" "${vals[9]}" "${vals[10]}" "${vals[11]}" "${vals[12]}" "$frac" \
    "$(pct "${vals[9]}" "${vals[2]}")" "$(pct "${vals[8]}" "${vals[1]}")" "$(pct "${vals[11]}" "${vals[4]}")"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "${vals[2]}" "${vals[9]}" "${vals[4]}" "${vals[11]}" "${vals[1]}" \
    "${vals[8]}" "${vals[12]}" "${vals[13]}" >>"$tsv"
done
rm -f "$build/bench/relayout-run.out"
echo "(copies: the program's instructions retired from the code cache; vs-none: program cycles with re-layout against"
echo " without; all-vs: every cycle, the handler's included. Both runs keep the output and an exact edge profile.)"
