#!/usr/bin/env bash
# A run directory for hwprof-report html (docs/report.md, "One page per run"): one program run
# through every profile the project collects, on the C-only platform, each run's files and log kept:
#   program.elf           the program as built (its DWARF gives the page its source lines)
#   plain.log, phases.txt the program alone, with the phase truth (--phase-truth)
#   edge.*                instrumented for edge profiling (hwprof-instr, default K and mode), its map,
#                         the profile read back from the hardware and checked against the exact counts
#   paths.*               instrumented for region-based path profiles (--paths=rb), the profile (none
#                         when the hardware could not keep it: paths.log says why)
#   trace.htr, trace.log, wpp.*  every trace record drained (--trace-out), hwprof-wpp analyze
#   vp.elf, vp-profile.txt, vp.log  the value profiler's build of the same source, when given
# then writes the page, RUN-DIR/report/index.html.
# usage: tools/report_run.sh BUILD_DIR PROGRAM.elf RUN-DIR [VALUE-PROFILER.elf]
# (HWPROF_REPORT=PATH: another build of hwprof-report, make test's ASan/UBSan one)
set -euo pipefail
if [ $# -lt 3 ] || [ $# -gt 4 ] || [ "$1" = --help ]; then
  sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
  [ "${1:-}" = --help ] && exit 0 || exit 2
fi
build=$1 elf=$2 dir=$3 vp=${4:-}
sim="$build/sim/hwprof-sim"
instr="$build/instr/hwprof-instr"
wpp="$build/wpp/hwprof-wpp"
report=${HWPROF_REPORT:-$build/report/hwprof-report}
for t in "$sim" "$instr" "$wpp" "$report"; do
  [ -x "$t" ] || { echo "report_run: error: $t is not built (make workloads)" >&2; exit 2; }
done
[ -f "$elf" ] || { echo "report_run: error: no program '$elf'" >&2; exit 2; }
[ -z "$vp" ] || [ -f "$vp" ] || { echo "report_run: error: no value-profiler build '$vp'" >&2; exit 2; }
rm -rf "$dir"
mkdir -p "$dir"
cp "$elf" "$dir/program.elf"
step() { echo "report_run: $(basename "$elf" .elf): $*" >&2; }
# run LOG CMD...: the command's standard error into LOG; stop with it shown if the command fails
run() {
  local log=$1
  shift
  "$@" >/dev/null 2>"$dir/$log" || { echo "report_run: error: $* failed:" >&2; tail -5 "$dir/$log" >&2; exit 1; }
}
step "the program alone, with the phase truth"
run plain.log "$sim" --engine=none --phase-truth="$dir/phases.txt" "$dir/program.elf"
step "edge profile"
"$instr" instrument --quiet "$dir/program.elf" -o "$dir/edge.elf" --map="$dir/edge.map"
run edge.log "$sim" --edge-map="$dir/edge.map" --edge-profile="$dir/edge.prof" "$dir/edge.elf"
step "path profile"
"$instr" instrument --quiet --paths=rb "$dir/program.elf" -o "$dir/paths.elf" --map="$dir/paths.map"
# a path profile the hardware could not keep (its path stack overflowed: docs/path.md, "Limits")
# leaves no file; the page then says why, from the log
"$sim" --path-map="$dir/paths.map" --path-profile="$dir/paths.paths" "$dir/paths.elf" >/dev/null 2>"$dir/paths.log" ||
  step "no path profile: $(grep -m1 '^hwprof-sim: path profile: ' "$dir/paths.log" || tail -1 "$dir/paths.log")"
step "every trace record, whole-program paths"
run trace.log "$sim" --trace-out="$dir/trace.htr" "$dir/program.elf"
"$wpp" analyze --quiet --trace="$dir/trace.htr" --elf="$dir/program.elf" --out="$dir/wpp"
if [ -n "$vp" ]; then
  step "value profile"
  cp "$vp" "$dir/vp.elf"
  run vp.log "$sim" --out-dir="$dir" "$dir/vp.elf"
fi
"$report" html "$dir"
