#!/usr/bin/env bash
# make bench, section 8: the dynamic optimizer's phase detection (docs/dynopt.md), scheme 5A, on the
# workloads, the two phase programs and the Embench programs (when built). Each runs on hwprof-sim (the C model of hwprof_top) with the
# timing stated in the header, once plain (no profiling, no firmware) and once instrumented (mode all)
# with the optimizer's firmware, against the ground truth of its phases (hwprof-sim --phase-truth)
# scored by tools/dynopt_eval.py. With PLOTS=DIR it also draws each program's phase timeline there.
# usage: tools/dynopt_bench.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
penalty=${DYNOPT_TAKEN_PENALTY:-2}
window=${DYNOPT_WINDOW:-200000}
py=/usr/bin/python3
[ -x "$py" ] || py=python3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%+.1f%%", 100 * (a - b) / b; else printf "-" }'; }
share() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f%%", 100 * a / b; else printf "-" }'; }

echo "== 8. Dynamic optimizer, scheme 5A (docs/dynopt.md): phase interrupts against the ground truth"
echo "      (windows of $window program instructions); timing: 1 cycle per instruction, $penalty idle"
echo "      cycles per taken transfer (--taken-penalty=$penalty), counter-line latency 4. Plain: the program"
echo "      alone; 5A: instrumented in mode all with the firmware (trigger 1, HOT_THRESHOLD >= 64)"
printf '%-18s %10s %10s %8s %9s %7s | %5s %5s %5s | %5s %5s %6s %5s %5s %5s %8s | %5s\n' program plain-ins 5A-ins extra \
  handler "of-prog" irqs trans fts flips found missed false rep init delay new
for elf in "$build"/dyn/*-prof.elf; do
  name=$(basename "$elf" -prof.elf)
  plain="$build/workloads/$name.elf"
  [[ $name == embench-* ]] && plain="$build/embench/${name#embench-}.elf"
  [ -f "$plain" ] || continue
  p=$("$build/sim/hwprof-sim" --engine=none --taken-penalty="$penalty" "$plain" 2>&1 >/dev/null)
  "$build/sim/hwprof-sim" --taken-penalty="$penalty" --phase-truth="$out/$name.truth" --phase-window="$window" \
    "$elf" >"$out/$name.out" 2>"$out/$name.err" || { echo "$name: the run failed"; cat "$out/$name.err"; exit 1; }
  pins=$(sed -n 's/.* \([0-9]*\) instructions, exit code.*/\1/p' <<<"$p")
  dins=$(sed -n 's/.* \([0-9]*\) instructions, exit code.*/\1/p' "$out/$name.err")
  hins=$(sed -n 's/^dynopt: the handler retired \([0-9]*\) instructions.*/\1/p' "$out/$name.out")
  ev=$("$py" "$(dirname "$0")/dynopt_eval.py" ${PLOTS:+--plot="$PLOTS/dynopt-$name.png"} --title="$name: scheme 5A" \
    "$out/$name.out" "$out/$name.truth")
  get() { sed -n "s/.*\\b$1=\\([0-9]*\\).*/\\1/p" <<<"$ev"; }
  trans=$(sed -n 's/^dynopt: scheme 5A.*; \([0-9]*\) transitions, \([0-9]*\) skipped.*/\1/p' "$out/$name.out")
  printf '%-18s %10s %10s %8s %9s %7s | %5s %5s %5s | %5s %5s %6s %5s %5s %5s %8s | %5s\n' "$name" "$pins" "$dins" \
    "$(pct "$dins" "$pins")" "$hins" "$(share "$hins" "$pins")" "$(get interrupts)" "$trans" "$(get fts)" \
    "$(get true_changes)" "$(get detected)" "$(get missed)" "$(get false)" "$(get repeated)" "$(get initial)" "$(get mean_delay)" \
    "$(get new_code_found)/$(get new_code)"
done
echo "(extra: all instructions the instrumented program with its firmware retired more than the plain one:"
echo " profiling instructions of mode all, the firmware's start-up and its handler; handler: the trap"
echo " handler's own retired instructions, of-prog: as a share of the plain program's; irqs: phase"
echo " interrupts, trans: those that changed the layout decision, fts: those skipped as false signals;"
echo " flips: hot-set changes in the ground truth while the optimizer ran where a branch's majority flipped,"
echo " found/missed/false against them; new: windows that gained only new hot code, with a transition near"
echo " them / all (5A needs none where the new code's hot edges already fall through),"
echo " rep: further transitions within a change's window (one per function a change spans, or churn),"
echo " init: transitions that corrected the compiler's layout at the start (tools/dynopt_eval.py),"
echo " delay: mean instructions from the start of the truth window of a change to its transition."
echo " Cycles with hot traces in the code cache: section 9; with the edge-driven re-layout, and scheme 5B"
echo " beside 5A: section 10)"
