#!/usr/bin/env bash
# make bench, section 12: path profiling (seed 004; docs/path.md). On every program
# (the six workloads, the switch table, the threaded interpreter, the Embench programs and the large
# programs, Lua and zstd, when ../shared has them):
# extra retired instructions over the program uninstrumented for edge profiling (hwprof-instr, mode
# minimal, K = 6: section 4's first column), for path profiles collected through the hardware
# (plain Ball-Larus paths, seed 004's region-based and global hierarchical paths) and for the
# software-only build of the same path profiles (--paths-sw: the sum and its stack in memory,
# every operation inserted code); stall cycles of the region-based hardware build; the counters
# each hierarchical embodiment allocates (region-based: one dense array per region; global: one
# array per function, indexed by the global sums, sparse) and the distinct hierarchical paths
# the run took, and the region-based profile's coverage (the share of the run's branch executions
# in functions with a path profile: hwprof-sim --path-map); the region-based hardware build again
# with its chords weighted by the edge profile the edge build's run read back (hw-rbw,
# --path-weights). Every path run is checked against the oracle (hwprof-sim --path-truth): a
# difference fails the bench. Last rows: geometric means of (instructions profiled) /
# (instructions plain) per column, and the ratio of the region-based hardware build's extra
# instructions to edge profiling's (the issue's goal: within 2x). The published anchor: Ball and
# Larus report about 30% average overhead for software path profiling (MICRO-29, 1996).
# usage: tools/path_bench.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sim="$build/sim/hwprof-sim"
# the software-only builds of the large programs run 3 to 4 times longer; every run is also timed
# with 2 idle cycles per taken transfer (the islands' jumps then cost what they do)
maxi="--max-insns=2000000000 --taken-penalty=2"
instr="$build/instr/hwprof-instr"
# more instrumenter options for every instrumented build (PATH_BENCH_INSTR="--link-spill=262144":
# recursive calls linked, docs/instrumenter.md)
read -r -a extra <<<"${PATH_BENCH_INSTR:-}"

insns() { sed -n 's/.*: \([0-9]*\) instructions, exit code 0.*/\1/p' <<<"$1" | head -1; }
cycles() { sed -n 's/.*timing: \([0-9]*\) cycles.*/\1/p' <<<"$1" | head -1; }
stalls() { sed -n 's/.*system: [0-9]* cycles, \([0-9]*\) stall.*/\1/p' <<<"$1" | head -1; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f%%", 100 * (a - b) / b }'; }
map_counters() { sed -n 's/^counters 0x[0-9a-f]* \([0-9]*\)$/\1/p' "$1"; }
prof_paths() { sed -n 's/^end functions [0-9]* counters [0-9]* paths \([0-9]*\) .*/\1/p' "$1"; }

progs=()
for w in graph hashtab interp lz matrix sort switch_table dispatch; do progs+=("$build/instr/$w.elf"); done
for elf in "$build"/embench/*.elf "$build"/bigprogs/*.elf; do
  [ -f "$elf" ] || continue
  case $(basename "$elf" .elf) in *-prof | *-vp | *-ss) continue ;; esac
  progs+=("$elf")
done
[ -d "$build/embench" ] || echo "(../shared/embench is not there: no Embench rows)"
[ -d "$build/bigprogs" ] || echo "(../shared/bigprogs is not there: no Lua and zstd rows)"

echo "== 12. Path profiling (tools/path_bench.sh): extra retired instructions over the program plain, edge"
echo "      profiling (K = 6, minimal) against path profiles collected through the hardware (hw) and the"
echo "      same path profiles in software alone (sw: sum and stack in memory); stall cycles of hw rb;"
echo "      counters allocated (rb: dense per region; gp: global sums, sparse) and distinct hierarchical"
echo "      paths run; cov: the share of branch executions in functions with an rb profile; every path"
echo "      profile equals the oracle's (checked); cyc: the whole run's cycles of edge profiling and of hw rb"
echo "      over the plain program's (1 cycle an instruction, 2 more a taken transfer: islands' jumps count);"
echo "      rbw: hw rb with its chords weighted by the edge build's profile of the same run (--path-weights)."
echo "      Anchor: ~30% for software path profiling (Ball and Larus, MICRO-29)."
printf '%-13s %9s | %-7s | %-7s %-7s %-7s %-7s %6s | %-7s %-7s %-7s | %6s %6s %5s %7s | %-7s %-7s %-7s\n' program instrs edge "hw-bl" "hw-rb" \
  "hw-rbw" "hw-gp" "stall" "sw-bl" "sw-rb" "sw-gp" "c-rb" "c-gp" paths cov "cyc-e" "cyc-rb" "cyc-rbw"
cols=(edge hplain hrb hrbw hgp splain srb sgp cedge chrb chrbw)
declare -A logsum
n=0
fail=0
for elf in "${progs[@]}"; do
  [ -f "$elf" ] || continue
  w=$(basename "$elf" .elf)
  out=$("$sim" $maxi --engine=none "$elf" 2>&1 >/dev/null)
  base=$(insns "$out")
  cbase=$(cycles "$out")
  "$sim" $maxi --quiet --path-truth="$tmp/$w.truth" "$elf" >/dev/null 2>&1
  declare -A got=()
  "$instr" instrument --quiet --k=6 "${extra[@]}" "$elf" -o "$tmp/$w-edge.elf"
  out=$("$sim" $maxi --edge-map="$tmp/$w-edge.map" --edge-profile="$tmp/$w-edge.prof" "$tmp/$w-edge.elf" 2>&1 >/dev/null)
  got[edge]=$(insns "$out")
  got[cedge]=$(cycles "$out")
  st=0 cov=""
  for emb in plain rb gp; do
    for how in h s; do
      flag=""
      [ $how = s ] && flag=--paths-sw
      "$instr" instrument --quiet --paths=$emb $flag "${extra[@]}" "$elf" -o "$tmp/$w-$how$emb.elf" --map="$tmp/$w-$how$emb.map"
      out=$("$sim" $maxi --path-map="$tmp/$w-$how$emb.map" --path-profile="$tmp/$w-$how$emb.pprof" "$tmp/$w-$how$emb.elf" 2>&1 >/dev/null) ||
        { echo "$w $how $emb: the run failed: $(tail -1 <<<"$out")"; fail=1; continue; }
      chk=$("$instr" paths-check "$tmp/$w-$how$emb.pprof" "$tmp/$w.truth" | tail -1)
      grep -q ' 0 differences' <<<"$chk" || { echo "$w $how $emb: $chk"; fail=1; }
      got[$how$emb]=$(insns "$out")
      [ $how$emb = hrb ] && st=$(stalls "$out") && got[chrb]=$(cycles "$out") &&
        cov=$(sed -n 's/.*path profile: coverage: \([0-9.]*%\) of branch.*/\1/p' <<<"$out")
    done
  done
  # region-based again, its chords weighted by the edge build's profile of this run (--path-weights)
  "$instr" instrument --quiet --paths=rb --path-weights="$tmp/$w-edge.prof" --path-weights-map="$tmp/$w-edge.map" "${extra[@]}" \
    "$elf" -o "$tmp/$w-hrbw.elf" --map="$tmp/$w-hrbw.map"
  out=$("$sim" $maxi --path-map="$tmp/$w-hrbw.map" --path-profile="$tmp/$w-hrbw.pprof" "$tmp/$w-hrbw.elf" 2>&1 >/dev/null) ||
    { echo "$w hrbw: the run failed: $(tail -1 <<<"$out")"; fail=1; }
  chk=$("$instr" paths-check "$tmp/$w-hrbw.pprof" "$tmp/$w.truth" | tail -1)
  grep -q ' 0 differences' <<<"$chk" || { echo "$w hrbw: $chk"; fail=1; }
  got[hrbw]=$(insns "$out")
  got[chrbw]=$(cycles "$out")
  printf '%-13s %9s | %-7s | %-7s %-7s %-7s %-7s %6s | %-7s %-7s %-7s | %6s %6s %5s %7s | %-7s %-7s %-7s\n' "$w" "$base" \
    "$(pct "${got[edge]}" "$base")" "$(pct "${got[hplain]}" "$base")" "$(pct "${got[hrb]}" "$base")" "$(pct "${got[hrbw]}" "$base")" \
    "$(pct "${got[hgp]}" "$base")" \
    "$st" "$(pct "${got[splain]}" "$base")" "$(pct "${got[srb]}" "$base")" "$(pct "${got[sgp]}" "$base")" \
    "$(map_counters "$tmp/$w-hrb.map")" "$(map_counters "$tmp/$w-hgp.map")" "$(prof_paths "$tmp/$w-hrb.pprof")" "${cov:--}" \
    "$(pct "${got[cedge]}" "$cbase")" "$(pct "${got[chrb]}" "$cbase")" "$(pct "${got[chrbw]}" "$cbase")"
  for c in "${cols[@]}"; do
    b=$base
    [[ $c == c* ]] && b=$cbase
    logsum[$c]=$(awk -v s="${logsum[$c]:-0}" -v a="${got[$c]}" -v b="$b" 'BEGIN { printf "%.12f", s + log(a / b) }')
  done
  n=$((n + 1))
done
gm() { awk -v s="${logsum[$1]}" -v n="$n" 'BEGIN { printf "%+.1f%%", 100 * (exp(s / n) - 1) }'; }
printf '%-13s %9s | %-7s | %-7s %-7s %-7s %-7s %6s | %-7s %-7s %-7s | %6s %6s %5s %7s | %-7s %-7s %-7s\n' "geomean" "" "$(gm edge)" \
  "$(gm hplain)" "$(gm hrb)" "$(gm hrbw)" "$(gm hgp)" "" "$(gm splain)" "$(gm srb)" "$(gm sgp)" "" "" "" "" "$(gm cedge)" "$(gm chrb)" \
  "$(gm chrbw)"
awk -v e="${logsum[edge]}" -v r="${logsum[hrb]}" -v g="${logsum[hgp]}" -v s="${logsum[srb]}" -v n="$n" 'BEGIN {
  ex = exp(e / n) - 1; rb = exp(r / n) - 1; gp = exp(g / n) - 1; sw = exp(s / n) - 1
  printf "hierarchical paths through the hardware: %.1fx (rb) and %.1fx (gp) the extra instructions of edge profiling (the goal: within 2x: %s); the software-only rb build: %.0fx the hardware rb build'"'"'s\n", rb / ex, gp / ex, rb / ex <= 2 ? "met" : "not met", sw / rb }'
exit $fail
