#!/usr/bin/env bash
# make bench: performance figures that compare side by side, in one run.
# usage: tools/bench.sh BUILD_DIR   (BENCH_CYCLES overrides the cycles per figure)
set -euo pipefail
build=${1:-build}
cycles=${BENCH_CYCLES:-3000000}
tb="$build/tb_top/Vhwprof_top"

echo "hwprof bench: hwprof_top on the constrained-random retire/APB stream, seed 1, $cycles cycles each"
echo
printf '%-22s %12s %10s %14s\n' engine cycles seconds Mcycles/s
for e in model rtl lockstep; do
  line=$("$tb" --seed=1 --cycles="$cycles" --engine="$e" --quiet | tail -1)
  secs=$(sed -n 's/.*(\([0-9.]*\) s, .*/\1/p' <<<"$line")
  rate=$(sed -n 's/.*, \([0-9.]*\) Mcycles\/s).*/\1/p' <<<"$line")
  printf '%-22s %12s %10s %14s\n' "$e" "$cycles" "$secs" "$rate"
done
echo
echo "Not yet measured (they need the CPU model and the edge-profiling unit, later issues):"
echo "  CPU-model instructions/s, profiling overhead vs gcc -fprofile-arcs, stall cycles per 1000 events."
