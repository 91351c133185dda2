#!/usr/bin/env bash
# make fuzz: libFuzzer on every parser of input (docs/verification.md, "Fuzzing"), each target for
# FUZZ_SECONDS seconds from a seed corpus of the project's own files, then a table: executions,
# coverage (libFuzzer's edges), corpus size, crashes. Each target keeps its corpus in
# BUILD/fuzz/corpus/TARGET (a rerun goes on from there) and writes what crashes it to
# BUILD/fuzz/crashes/TARGET/; every file in tests/fuzz/TARGET/ (a crash found earlier, kept as a
# regression input) runs first and must not crash. Exit 1 if anything crashed.
# usage: tools/fuzz.sh BUILD_DIR TARGET...   (targets: elf instr map profile meta cop_asm cop_image
#        wpp_trace wpp_index regtool; regtool is the register generator, fuzzed by tools/fuzz_regtool.py)
set -uo pipefail
build=${1:?usage: tools/fuzz.sh BUILD_DIR TARGET...}
shift
[ $# -gt 0 ] || { echo "fuzz: no targets" >&2; exit 2; }
secs=${FUZZ_SECONDS:-120}
case $secs in '' | *[!0-9]*) echo "fuzz: FUZZ_SECONDS must be a number of seconds, not '$secs'" >&2; exit 2 ;; esac
dir="$build/fuzz"
seeds="$dir/seeds"
mkdir -p "$seeds"

# the seeds: the project's own files of each kind (built by make workloads)
strip_debug() { riscv64-unknown-elf-strip --strip-debug "$1" -o "$2" 2>/dev/null || cp "$1" "$2"; }
seed() {
  local t=$1 d="$seeds/$1" f
  rm -rf "$d"
  mkdir -p "$d"
  case $t in
    elf | instr)
      for f in sort matrix; do [ -f "$build/workloads/$f.elf" ] && strip_debug "$build/workloads/$f.elf" "$d/$f.elf"; done
      [ $t = elf ] && [ -f "$build/instr/sort-prof.elf" ] && strip_debug "$build/instr/sort-prof.elf" "$d/sort-prof.elf" ;;
    map) for f in sort matrix; do [ -f "$build/instr/$f-prof.map" ] && cp "$build/instr/$f-prof.map" "$d/"; done ;;
    profile)
      [ -f "$build/instr/sort-prof.elf" ] && "$build/sim/hwprof-sim" --edge-map="$build/instr/sort-prof.map" \
        --edge-profile="$d/sort.prof" "$build/instr/sort-prof.elf" >/dev/null 2>&1 ;;
    meta) # the run-time metadata blob of an instrumented program, cut out of its image
      for f in sort matrix; do
        [ -f "$build/dyn/$f-prof.elf" ] && python3 "$(dirname "$0")/meta_blob.py" "$build/dyn/$f-prof.elf" "$d/$f.meta"
      done ;;
    cop_asm) cp sw/host/cop/*.s sw/fw/cop/examples/*.s "$d/" ;;
    path_files) # a path profile (first byte odd) and a path-truth file (even) of sort, region-based
      if [ -f "$build/instr/sort.elf" ]; then
        "$build/instr/hwprof-instr" instrument --quiet --paths=rb "$build/instr/sort.elf" -o "$d/sort-rb.elf" --map="$d/sort-rb.map" &&
          "$build/sim/hwprof-sim" --quiet --path-map="$d/sort-rb.map" --path-profile="$d/p" "$d/sort-rb.elf" >/dev/null 2>&1 &&
          "$build/sim/hwprof-sim" --quiet --path-truth="$d/t" "$build/instr/sort.elf" >/dev/null 2>&1 &&
          { printf '\001' | cat - "$d/p" >"$d/profile.seed"; printf '\000' | cat - "$d/t" >"$d/truth.seed"; }
        rm -f "$d"/sort-rb.* "$d/p" "$d/t"
      fi ;;
    report_files) # a run directory's path profile, phase truth, wpp table and value profile (first byte 0-3)
      if [ -f "$build/instr/sort.elf" ] && [ -f "$build/workloads/sort-vp.elf" ]; then
        "$(dirname "$0")/report_run.sh" "$build" "$build/instr/sort.elf" "$d/run" "$build/workloads/sort-vp.elf" >/dev/null 2>&1 &&
          { printf '\000' | cat - "$d/run/paths.paths" >"$d/paths.seed"; printf '\001' | cat - "$d/run/phases.txt" >"$d/phases.seed"
            printf '\002' | cat - "$d/run/wpp.strata.txt" >"$d/strata.seed"; printf '\003' | cat - "$d/run/vp-profile.txt" >"$d/vp.seed"; }
        rm -rf "$d/run"
      fi ;;
    wpp_trace) # trace files of fuzz/fuzz_wpp_trace.c's fixed program, worked by hand (docs/wpp.md, "Files")
      python3 - "$d" <<'PY'
import struct, sys
def trf(recs, tail, insns, last, dropped=0):
    b = b"HWPTRACE" + struct.pack("<IIII", 1, 32, 0x80000000, 0) + bytes(8)
    for s, h in recs: b += struct.pack("<II", s, h)
    if tail: b += struct.pack("<IIII", 1, 0, *tail)
    return b + struct.pack("<IIIIII", 2, 0, insns & 0xffffffff, insns >> 32, dropped, last)
B = 0x80000000
recs = [(B, 0b11), (B, 0b10), (B + 0x20, 0b10), (B + 0x10, 0b10)]  # 3 + 6 + 3 + 3 instructions
open(sys.argv[1] + "/loops.htr", "wb").write(trf(recs, (B, 1), 16, B))
open(sys.argv[1] + "/whole.htr", "wb").write(trf(recs * 3, None, 45, B + 0x18))
PY
      ;;
    wpp_index) # the indexed file of a small analysis
      python3 -c 'import struct, sys
b = b"HWPBLOCK" + struct.pack("<II", 1, 0); n = 0
for i in range(400):
    a = 0x80000000 + 4 * [0, 1, 2, 0, 1, 3][i % 6] + (64 if i > 200 else 0); b += struct.pack("<II", a, 3); n += 3
open(sys.argv[1], "wb").write(b + struct.pack("<IIII", 0, 0, n, 0))' "$d/small.blk" &&
        "$build/wpp/hwprof-wpp" analyze --quiet --blocks="$d/small.blk" --out="$d/small" && rm -f "$d"/small.blk "$d"/small.*.txt "$d"/small.log ;;
    cop_image)
      for f in sw/host/cop/*.s sw/fw/cop/examples/*.s; do
        "$build/cop/hwprof-cpasm" "$f" -o "$d/$(basename "$f" .s).cop" >/dev/null 2>&1
      done ;;
  esac
  [ -n "$(ls -A "$d")" ] || { echo "fuzz: $t: no seed files (run make workloads first)" >&2; return 1; }
}

rc=0
printf '%-10s %8s %12s %10s %8s %8s %7s  %s\n' target seconds executions exec/s cov corpus crashes regression
for t in "$@"; do
  if [ "$t" = regtool ]; then # Python: mutated descriptions through the generator, its regressions first
    log="$dir/regtool.log"
    echo "fuzz: regtool: $secs s (log: $log)" >&2
    python3 tools/fuzz_regtool.py --seconds "$secs" --out "$dir/crashes/regtool" >"$log" 2>&1 || rc=1
    rounds=$(sed -n 's/^fuzz_regtool: \([0-9]*\) rounds in.*/\1/p' "$log")
    ndef=$(sed -n 's/.*, \([0-9]*\) defects$/\1/p' "$log" | tail -1)
    printf '%-10s %8s %12s %10s %8s %8s %7s  %s\n' regtool "$secs" "${rounds:-?}" "$(( ${rounds:-0} / (secs > 0 ? secs : 1) ))" \
      - - "${ndef:-?}" "$(ls tests/fuzz/regtool 2>/dev/null | wc -l) in the rounds"
    continue
  fi
  bin="$dir/fuzz_$t"
  [ -x "$bin" ] || { echo "fuzz: $bin is not built (make fuzz builds it)" >&2; rc=1; continue; }
  seed "$t" || { rc=1; continue; }
  corpus="$dir/corpus/$t"
  crashes="$dir/crashes/$t"
  mkdir -p "$corpus" "$crashes"
  # regression inputs first: each runs once and must not crash
  reg="-"
  if [ -d "tests/fuzz/$t" ] && [ -n "$(ls -A "tests/fuzz/$t")" ]; then
    if "$bin" tests/fuzz/"$t"/* >"$dir/$t-regression.log" 2>&1; then reg="$(ls "tests/fuzz/$t" | wc -l) ok"
    else reg="FAILED ($dir/$t-regression.log)"; rc=1; fi
  fi
  log="$dir/$t.log"
  echo "fuzz: $t: $secs s from $(ls "$seeds/$t" | wc -l) seeds (log: $log)" >&2
  "$bin" "$corpus" "$seeds/$t" -max_total_time="$secs" -print_final_stats=1 -artifact_prefix="$crashes/" \
    -rss_limit_mb=4096 -timeout=20 >"$log" 2>&1
  execs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  ncrash=$(find "$crashes" -type f | wc -l)
  [ "$ncrash" -eq 0 ] || rc=1
  grep -q 'ERROR: \(libFuzzer\|AddressSanitizer\|UndefinedBehaviorSanitizer\)\|runtime error:' "$log" && { [ "$ncrash" -gt 0 ] || ncrash="?"; rc=1; }
  printf '%-10s %8s %12s %10s %8s %8s %7s  %s\n' "$t" "$secs" "${execs:-?}" "$(( ${execs:-0} / (secs > 0 ? secs : 1) ))" \
    "${cov:-?}" "$(ls "$corpus" | wc -l)" "$ncrash" "$reg"
done
[ $rc = 0 ] || echo "fuzz: crashes or sanitizer reports: see $dir/crashes/ and the logs; each becomes a test in tests/fuzz/TARGET/" >&2
exit $rc
