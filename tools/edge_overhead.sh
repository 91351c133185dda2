#!/usr/bin/env bash
# make bench, section 4: the cost of edge profiling on every program (the six workloads and the
# Embench programs built from ../shared/embench when it is there). Collaborative profiling
# (hwprof-instr) at the default K = 6 and at K = 4, modes minimal and all (and minimal at K = 6 with
# --no-carriers: every profiling operation an inserted instruction), against GCC's
# -fprofile-arcs on the same sources (its .gcda dump at exit included). Extra retired instructions
# over the same program uninstrumented, on the CPU model with the C model of hwprof_top
# (cycle-exact with the RTL); stall cycles are the cycles the CPU waited for the profiling hardware
# (counter-line latency 4 and 20, mode minimal, default K). Every instrumented run also checks its
# edge profile against the exact counts; a difference is reported and fails the run.
# The last rows: the geometric mean over the programs of (instructions with profiling) /
# (instructions without), per column, and the same over the Embench programs alone.
# usage: tools/edge_overhead.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sim="$build/sim/hwprof-sim"
instr="$build/instr/hwprof-instr"

insns() { sed -n 's/.*: \([0-9]*\) instructions, exit code 0.*/\1/p' <<<"$1" | head -1; }
stalls() { sed -n 's/.*system: [0-9]* cycles, \([0-9]*\) stall.*/\1/p' <<<"$1" | head -1; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.2f%%", 100 * (a - b) / b }'; }

# program, uninstrumented ELF with relocations, -fprofile-arcs ELF, its own uninstrumented twin
progs=()
for w in graph hashtab interp lz matrix sort; do
  progs+=("$w $build/instr/$w.elf $build/gcov/$w.elf $build/workloads/$w.elf")
done
for elf in "$build"/embench/*.elf; do
  w=$(basename "$elf" .elf)
  case $w in *-vp | *-ss) continue ;; esac
  progs+=("$w $elf $build/gcov/embench/$w.elf $elf")
done
[ -d "$build/embench" ] || echo "(../shared/embench is not there: the workloads only)"

printf '%-14s %9s | %-9s %-9s %-9s %8s %8s | %-9s %-9s | %-9s\n' program instrs "K=6 min" "no carr." "K=6 all" "stall/4" "stall/20" \
  "K=4 min" "K=4 all" "-fprof-arcs"
declare -A logsum logsum_e
cols=(m6 n6 a6 m4 a4 gc)
fail=0
n=0
ne=0
for row in "${progs[@]}"; do
  read -r w relf gelf gbase_elf <<<"$row"
  base=$(insns "$("$sim" --engine=none "$relf" 2>&1 >/dev/null)")
  declare -A got=()
  for k in 6 4; do
    for m in minimal all; do
      "$instr" instrument --quiet --mode=$m --k=$k "$relf" -o "$tmp/$w-$m-$k.elf"
      out=$("$sim" --edge-map="$tmp/$w-$m-$k.map" "$tmp/$w-$m-$k.elf" 2>&1 >/dev/null) || true
      grep -q 'edge check: .* 0 differences' <<<"$out" || { echo "$w mode $m K $k: $(grep 'edge check' <<<"$out" | tail -1)"; fail=1; }
      got[${m:0:1}$k]=$(insns "$out")
      [ "$m$k" = minimal6 ] && s4=$(stalls "$out")
    done
  done
  "$instr" instrument --quiet --no-carriers "$relf" -o "$tmp/$w-nc.elf"
  out=$("$sim" --edge-map="$tmp/$w-nc.map" "$tmp/$w-nc.elf" 2>&1 >/dev/null) || true
  grep -q 'edge check: .* 0 differences' <<<"$out" || { echo "$w --no-carriers: $(grep 'edge check' <<<"$out" | tail -1)"; fail=1; }
  got[n6]=$(insns "$out")
  s20=$(stalls "$("$sim" --mem-latency=20 "$tmp/$w-minimal-6.elf" 2>&1 >/dev/null)")
  gb=$(insns "$("$sim" --engine=none "$gbase_elf" 2>&1 >/dev/null)")
  gi=$(insns "$("$sim" --engine=none --out-dir="$tmp" "$gelf" 2>&1 >/dev/null)")
  printf '%-14s %9s | %-9s %-9s %-9s %8s %8s | %-9s %-9s | %-9s\n' "$w" "$base" "$(pct "${got[m6]}" "$base")" \
    "$(pct "${got[n6]}" "$base")" "$(pct "${got[a6]}" "$base")" "$s4" "$s20" "$(pct "${got[m4]}" "$base")" \
    "$(pct "${got[a4]}" "$base")" "$(pct "$gi" "$gb")"
  emb=0
  [ "$relf" = "$gbase_elf" ] && emb=1
  for c in "${cols[@]}"; do
    if [ $c = gc ]; then r=$(awk -v a="$gi" -v b="$gb" 'BEGIN { print log(a / b) }'); else
      r=$(awk -v a="${got[$c]}" -v b="$base" 'BEGIN { print log(a / b) }'); fi
    logsum[$c]=$(awk -v s="${logsum[$c]:-0}" -v r="$r" 'BEGIN { print s + r }')
    [ $emb = 1 ] && logsum_e[$c]=$(awk -v s="${logsum_e[$c]:-0}" -v r="$r" 'BEGIN { print s + r }')
  done
  n=$((n + 1))
  ne=$((ne + emb))
done
gm() { awk -v s="$1" -v n="$2" 'BEGIN { printf "%+.2f%%", n ? 100 * (exp(s / n) - 1) : 0 }'; }
printf '%-14s %9s | %-9s %-9s %-9s %8s %8s | %-9s %-9s | %-9s\n' "geomean ($n)" "" "$(gm "${logsum[m6]}" $n)" \
  "$(gm "${logsum[n6]}" $n)" "$(gm "${logsum[a6]}" $n)" "" "" "$(gm "${logsum[m4]}" $n)" "$(gm "${logsum[a4]}" $n)" \
  "$(gm "${logsum[gc]}" $n)"
if [ $ne -gt 0 ]; then
  printf '%-14s %9s | %-9s %-9s %-9s %8s %8s | %-9s %-9s | %-9s\n' "Embench ($ne)" "" "$(gm "${logsum_e[m6]}" $ne)" \
    "$(gm "${logsum_e[n6]}" $ne)" "$(gm "${logsum_e[a6]}" $ne)" "" "" "$(gm "${logsum_e[m4]}" $ne)" \
    "$(gm "${logsum_e[a4]}" $ne)" "$(gm "${logsum_e[gc]}" $ne)"
fi
echo "(geomean: of instructions with profiling over instructions without, as a percentage; the"
echo " -fprofile-arcs column is measured against its own uninstrumented build of the same sources)"
exit $fail
