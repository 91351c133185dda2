#!/usr/bin/env bash
# make bench, section 9: hot traces into the code cache (docs/dynopt.md, "Hot traces into the code
# cache"), on the workloads, the two phase programs and the Embench programs (when built). Each
# program runs three times on hwprof-sim (the C model of hwprof_top) with the timing stated in the
# header: plain (no firmware), -fw (the trace firmware samples traces into the Figure 8 table) and
# -tc (the same firmware also places hot traces in the code cache). The program's own figures
# (instructions and taken transfers outside the trap handler) are what the layout changes; the
# handler's instructions are the profiling's cost.
# The figures also go to BUILD_DIR/bench/tracecache.tsv (tools/plot_tracecache.py draws them; with
# PLOTS=DIR set, this script calls it, into DIR/tracecache.png).
# With x10 (section 9b) it runs the Embench programs ten times longer (BUILD_DIR/tcache-x10,
# GLOBAL_SCALE_FACTOR 10), without the offline bound (its retired-PC stream would take gigabytes).
# With a third argument, BYTES (section 9c: x10 8192), every run also has a direct-mapped
# instruction cache of BYTES (lines of 16 bytes) whose misses cost TC_ICACHE_MISS (default 10)
# idle cycles: the whole run's cycles (all-cyc and the all-vs columns) include its misses, the
# program's own (prog-cyc) do not.
# usage: tools/tracecache_bench.sh BUILD_DIR [x10 [BYTES]]
set -euo pipefail
build=${1:-build}
set_=${2:-}
icache=${3:-0}
usage="usage: tools/tracecache_bench.sh BUILD_DIR [x10 [ICACHE_BYTES]]"
[ -z "$set_" ] || [ "$set_" = x10 ] || { echo "$usage" >&2; exit 2; }
[[ $icache =~ ^[0-9]+$ ]] && { [ "$icache" = 0 ] || [ $((icache & (icache - 1))) = 0 ]; } ||
  { echo "tracecache_bench: error: '$icache' is not a power of two (instruction-cache bytes); $usage" >&2; exit 2; }
icache_miss=${TC_ICACHE_MISS:-10}
ic=()
[ "$icache" = 0 ] || ic=(--icache="$icache" --icache-miss="$icache_miss")
dir="$build/tcache${set_:+-$set_}"
mkdir -p "$build/bench"
tsv="$build/bench/tracecache${set_:+-$set_}$([ "$icache" = 0 ] || echo "-ic$icache").tsv"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
py=/usr/bin/python3
[ -x "$py" ] || py=python3
printf 'program\tplain_prog_cycles\tstatic_prog_cycles\tfw_prog_cycles\tfw_all_cycles\ttc_prog_cycles\ttc_all_cycles\tfw_taken\ttc_taken\tcached\n' >"$tsv"
penalty=${TC_TAKEN_PENALTY:-2}
sim="$build/sim/hwprof-sim"
cache=$(sed -n 's/^#define HWPROF_PLAT_RAM_BASE \(0x[0-9a-f]*\)u.*/\1/p' sw/include/autogen/hwprof_regs.h)
cache_end=$(printf '0x%x' $((cache + 0x10000)))

pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%+.1f%%", 100 * (a - b) / b; else printf "-" }'; }
field() { sed -n "s/$1/\\1/p" <<<"$2" | head -1; }

if [ "$icache" != 0 ]; then
  echo "== 9c. Section 9b with a $icache-byte direct-mapped instruction cache (16-byte lines, $icache_miss-cycle misses):"
  echo "      what the code cache's layout and the firmware's code do to a small core's instruction cache."
  echo "      The trace firmware, sampling 1 in 64 at first,"
elif [ -n "$set_" ]; then
  echo "== 9b. Section 9 with the Embench programs ten times longer (GLOBAL_SCALE_FACTOR 10), no offline"
  echo "      bound: what sampling costs once its back-off has run. The trace firmware, sampling 1 in 64 at first,"
else
  echo "== 9. Hot traces into the code cache (docs/dynopt.md): the trace firmware, sampling 1 in 64 at first,"
fi
echo "      1 in 32 at the most, backing off to 1 in 4096 while nothing new turns hot, hot at 16 samples,"
icdesc="no instruction cache"
[ "$icache" = 0 ] || icdesc="a $icache-byte instruction cache, $icache_miss cycles a miss (--icache=$icache)"
echo "      with and without placing hot traces; timing: 1 cycle per instruction, $penalty idle cycles per taken"
echo "      transfer (--taken-penalty=$penalty), $icdesc. Program figures exclude the trap handler;"
echo "      prog-cyc = program instructions + $penalty x its taken transfers"
printf '%-21s| %8s %7s %8s | %8s %7s %8s %6s | %8s %7s %8s %8s %9s | %8s %7s %8s %8s %9s %6s %6s %5s | %7s %7s %7s %8s\n' program \
  plain-ins taken prog-cyc st-ins taken prog-cyc vs-pl fw-ins taken prog-cyc handler all-cyc tc-ins taken prog-cyc handler \
  all-cyc cached traces refus "vs-fw" "vs-plain" "all-vs-fw" "all-vs-pl"
for tc in "$dir"/*-tc.elf; do
  [ -f "$tc" ] || continue
  name=$(basename "$tc" -tc.elf)
  plain="$build/workloads/$name.elf"
  [[ $name == embench-* ]] && plain="$build/embench/${name#embench-}.elf"
  [ -z "$set_" ] || plain="$dir/$name-plain.elf"
  [ -f "$plain" ] && [ -f "$dir/$name-fw.elf" ] || continue
  row=()
  plain_pc=0
  plain_cyc=0
  fw_pc=0
  fw_cyc=0
  for v in "" -fw -tc; do
    elf="$dir/$name$v.elf"
    [ -n "$v" ] || elf=$plain
    pcs=()
    [ -n "$v" ] || [ -n "$set_" ] || pcs=(--pcs="$tmp/pcs")
    err=$("$sim" --taken-penalty="$penalty" "${ic[@]}" --code-range="$cache:$cache_end" "${pcs[@]}" "$elf" 2>&1 >"$tmp/out") ||
      { echo "$name$v: the run failed"; echo "$err"; exit 1; }
    total=$(field '.* \([0-9]*\) instructions, exit code.*' "$err")
    cycles=$(field '.*timing: \([0-9]*\) cycles.*' "$err")
    ins=$(field '.*program: \([0-9]*\) instructions outside.*' "$err")
    taken=$(field '.*instructions outside trap handlers, \([0-9]*\) taken.*' "$err")
    cached=$(field '.*retired in \[[^)]*) (\([0-9.]*%\)).*' "$err")
    pc=$((ins + penalty * taken))
    case $v in
      "")
        row+=("$ins" "$taken" "$pc")
        plain_pc=$pc
        plain_cyc=$cycles
        if [ -n "$set_" ]; then
          row+=(- - - -)
        else
          read -r _ _ sins staken < <("$py" "$(dirname "$0")/static_layout.py" "$elf" "$tmp/pcs") ||
            { echo "$name: the static layout failed"; exit 1; }
          spc=$((sins + penalty * staken))
          row+=("$sins" "$staken" "$spc" "$(pct "$spc" "$pc")")
        fi
        ;;
      -fw) row+=("$ins" "$taken" "$pc" "$((total - ins))" "$cycles"); fw_pc=$pc; fw_cyc=$cycles ;;
      -tc)
        out=$(cat "$tmp/out")
        placed=$(field '.*: \([0-9]*\) traces placed.*' "$out")
        refused=$(( $(field '.*, \([0-9]*\) not rebuilt.*' "$out") + $(field '.*, \([0-9]*\) refused$' "$out") ))
        row+=("$ins" "$taken" "$pc" "$((total - ins))" "$cycles" "$cached" "${placed:-0}" "${refused:-0}" \
          "$(pct "$pc" "$fw_pc")" "$(pct "$pc" "$plain_pc")" "$(pct "$cycles" "$fw_cyc")" "$(pct "$cycles" "$plain_cyc")")
        ;;
    esac
  done
  printf '%-21s| %8s %7s %8s | %8s %7s %8s %6s | %8s %7s %8s %8s %9s | %8s %7s %8s %8s %9s %6s %6s %5s | %7s %7s %7s %8s\n' \
    "$name" "${row[@]}"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "${row[2]}" "${row[5]}" "${row[9]}" "${row[11]}" "${row[14]}" \
    "${row[16]}" "${row[8]}" "${row[13]}" "${row[17]%\%}" >>"$tsv"
done
if [ -n "${PLOTS:-}" ] && [ -z "$set_" ] && [ "$icache" = 0 ]; then
  "$py" "$(dirname "$0")/plot_tracecache.py" "$tsv" "$PLOTS/tracecache.png"
fi
echo "(plain: the program alone; st: the same program with its blocks laid out offline from its whole run's"
echo " edge profile (tools/static_layout.py: Pettis-Hansen chains, counted by a model that reproduces the plain"
echo " run's figures exactly), vs-pl its cycles against plain's: the offline bound of layout;"
echo " fw: with the trace firmware, laid out as the compiler left it; tc: the same"
echo " with hot traces placed in the code cache, the program linked 64 KiB higher; taken: the program's"
echo " taken branches, jumps, calls and returns; handler: instructions of the trap handler (sampling,"
echo " the table, rebuilding and placing traces); cached: the program's instructions retired in the code"
echo " cache; traces: placed, refus: hot traces not placed (not rebuilt or refused by the cache);"
echo " all-cyc: the whole run's cycles, handler included; vs-fw, vs-plain: the -tc program's own cycles"
echo " against the -fw one's and the plain one's; all-vs-fw, all-vs-pl: the whole run's, -tc against -fw"
echo " and against the plain program's whole run (what a user pays or gains)."
echo " The edge-driven re-layout at run time has its own section (tools/relayout_bench.sh))"
