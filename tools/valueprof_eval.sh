#!/usr/bin/env bash
# make bench section 7 and make plots' data: load-value profiling on every program (docs/vpf.md).
# Each program runs twice on the C-only platform, with the co-processor's profiler (<w>-vp.elf) and
# with simple sampling (<w>-ss.elf); hwprof-sim --value-truth gives the exact profile of the same
# run and hwprof-vpeval the error. Writes BUILD/bench/valueprof.tsv, and for every run in
# BUILD/bench/vp/ its pairs (<program>-{vp,ss}.pairs) and its error at every snapshot of the profile
# (<program>-{vp,ss}.curve).
# usage: tools/valueprof_eval.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
for t in "$build/sim/hwprof-sim" "$build/vp/hwprof-vpeval"; do
  [ -x "$t" ] || { echo "valueprof_eval: error: $t not built (make workloads $build/vp/hwprof-vpeval)" >&2; exit 2; }
done
ls "$build"/workloads/*-vp.elf >/dev/null 2>&1 || { echo "valueprof_eval: error: no $build/workloads/*-vp.elf (make workloads)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "== 7b. Load-value profiling, one run of each program with the runtimes' defaults and a snapshot of"
echo "      the profile every 200,000 instructions (the convergence curves of make plots): the co-processor"
echo "      (sw/fw/cop/valueprof.s, firmware sw/fw/rt/vp_rt.c) against simple sampling of one load in 1024"
echo "      (sw/fw/rt/ss_rt.c), on the C-only platform. error: seed 001's frequency-weighted RMS error of the"
echo "      estimated invariance (values of at least 200 instances and 25% of their load's; hwprof-vpeval"
echo "      against hwprof-sim --value-truth; a pair not found counts as 0); overhead: instructions of setup,"
echo "      interrupt handlers and the final copy over the program's own (section 7 has the cycles);"
echo "      on: the share of the program's loads (up to the last time sampling went off) retired while it was on;"
echo "      cov: the share of those loads"
echo "      at load PCs the profile holds (the profile's coverage)."
vpdir="$build/bench/vp"
mkdir -p "$vpdir"
tsv="$build/bench/valueprof.tsv"
printf 'program\tinstructions\tpairs\tcop_error\tcop_found\tcop_overhead\tcop_irqs\tcop_on\tcop_cov\tss_error\tss_found\tss_overhead\tss_irqs\tss_on\tss_cov\n' >"$tsv"
printf '%-11s %10s %6s | %-8s %7s %9s %5s %7s %7s | %-8s %7s %9s %5s %7s %7s\n' program instrs pairs "cop err" found overhead irqs \
  on cov "ss err" found overhead irqs on cov
progs=("$build"/workloads/*-vp.elf)
if ls "$build"/embench/*-vp.elf >/dev/null 2>&1; then
  progs+=("$build"/embench/*-vp.elf)
else
  echo "(note: no Embench programs: ../shared/embench is absent, or make bench was not the target that built them)"
fi
for elf in "${progs[@]}"; do
  w=$(basename "$elf" -vp.elf)
  dir=$(dirname "$elf")
  row=()
  for k in vp ss; do
    rm -f "$tmp"/*.txt
    out=$("$build/sim/hwprof-sim" --out-dir="$tmp" --value-truth="$tmp/truth.txt" "$dir/$w-$k.elf" 2>&1)
    f="$tmp/vp-profile.txt"
    [ $k = ss ] && f="$tmp/vp-samples.txt"
    read -r prog setup handler final <<<"$(sed -n 's/.*program \([0-9]*\) instructions; overhead: setup \([0-9]*\), handler \([0-9]*\), final copy \([0-9]*\).*/\1 \2 \3 \4/p' <<<"$out")"
    irqs=$(sed -n 's/.* \([0-9]*\) interrupts.*/\1/p' <<<"$out" | head -1)
    ev=$("$build/vp/hwprof-vpeval" --truth="$tmp/truth.txt" "$f" --pairs="$vpdir/$w-$k.pairs" --curve="$vpdir/$w-$k.curve")
    pairs=$(head -1 <<<"$ev" | sed -n 's/.*: \([0-9]*\) pairs counted.*/\1/p')
    found=$(head -1 <<<"$ev" | sed -n 's/.*), \([0-9]*\) found;.*/\1/p')
    err=$(sed -n 's/.*invariance \([0-9.]*\)$/\1/p' <<<"$ev")
    ovh=$(awk -v s="$setup" -v h="$handler" -v f="$final" -v p="$prog" 'BEGIN { printf "%.2f", p ? 100 * (s + h + f) / p : 0 }')
    on=$(sed -n 's/^value truth: coverage: \([0-9.]*\)% of the program.s loads up to.*/\1/p' <<<"$out")
    cov=$(sed -n 's/.*coverage: the profile holds .*, \([0-9.]*\)% of their loads$/\1/p' <<<"$ev")
    row+=("$err" "$found" "$ovh" "$irqs" "$on" "$cov")
  done
  printf '%-11s %10s %6s | %-8s %7s %8s%% %5s %6s%% %6s%% | %-8s %7s %8s%% %5s %6s%% %6s%%\n' "$w" "$prog" "$pairs" "${row[@]}"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$w" "$prog" "$pairs" "${row[@]}" >>"$tsv"
done
echo "(programs vp_*: written for the value profiler: known values, glacial values, 1024 static loads;"
echo " the others after the six workloads: Embench-IoT, unmodified;"
echo " the data for make plots: $tsv, and the pairs and convergence curves in $vpdir/)"
