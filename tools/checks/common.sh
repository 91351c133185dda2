# What every subject file of make test's checks uses (sourced by tools/runtests.sh before any of
# them; each subject then runs in its own shell): the programs the checks run, the tools they run
# them with, sc_runs() and wpp_one().

# --- the tools
sc=$(realpath "$build/sc/hwprof-sc")
instr="$build/instr/hwprof-instr"
wpp="$build/unit/hwprof-wpp-asan"

# --- the programs
# the workloads without the hwprof device's firmware (QEMU has no such device)
plain_workloads=()
for elf in "$build"/workloads/*.elf; do
  case $elf in *-fw.elf | *-cop*.elf | *-vp.elf | *-ss.elf) ;; *) plain_workloads+=("$elf") ;; esac
done
# the workloads instrumented by the build (mode minimal, K = INSTR_K)
prof_workloads=("$build"/instr/*-prof.elf)
# Embench (../shared/embench; none when it is not there), without the value-profiling builds
embench_elfs=()
for elf in "$build"/embench/*.elf; do
  case $elf in *-vp.elf | *-ss.elf) ;; *) embench_elfs+=("$elf") ;; esac
done
nsichneu="$build/embench/nsichneu.elf"

# sc_runs TAG ARGS... -- ELF...: runs hwprof-sc on each ELF, $par at a time; output and exit code
# of each in $logdir/TAG-NAME.{out,rc}. In ARGS, @MAP@ stands for the ELF's map (X.elf -> X.map),
# @TRACE@ for $logdir/wpp/NAME/sc.htr.
sc_runs() {
  local tag=$1 args=() elf name a
  shift
  while [ "$1" != -- ]; do args+=("$1"); shift; done
  shift
  for elf in "$@"; do
    while [ "$(jobs -rp | wc -l)" -ge "$par" ]; do wait -n; done
    name=$(basename "$elf" .elf)
    local run=()
    for a in "${args[@]}"; do a=${a//@MAP@/${elf%.elf}.map}; run+=("${a//@TRACE@/$logdir/wpp/$name/sc.htr}"); done
    ( "$sc" "${run[@]}" "$elf" >"$logdir/$tag-$name.out" 2>&1; echo $? >"$logdir/$tag-$name.rc" ) &
  done
  wait
}

# wpp_one ELF TAG: whole-program paths of one program (docs/wpp.md), one line: the program runs
# with the trace controller drained into a trace file and with the exact block stream cut from the
# retire port; hwprof-wpp (ASan/UBSan) rebuilds the blocks from the records and the program image:
# the two block files must be byte-equal, and the tables and indexed file of the hierarchy (paths,
# strata, stratum layers) built from either must be too, the retire stream's kept in an open-addressing
# table instead of the default bounded-sorted chains (the tables must not depend on how units are found)
wpp_one() {
  local elf=$1 d="$logdir/wpp/$2" out
  mkdir -p "$d"
  out=$("$build/sim/hwprof-sim" --trace-out="$d/run.htr" --blocks-out="$d/truth.blk" "$elf" 2>&1 >/dev/null) ||
    { echo "$2: hwprof-sim failed: $out"; return 1; }
  "$wpp" blocks --quiet --trace="$d/run.htr" --elf="$elf" --out="$d/rebuilt.blk" || return 1
  cmp "$d/rebuilt.blk" "$d/truth.blk" || { echo "$2: the blocks rebuilt from the trace records differ from the retire stream's"; return 1; }
  "$wpp" analyze --quiet --trace="$d/run.htr" --elf="$elf" --out="$d/hw" &&
    "$wpp" analyze --quiet --blocks="$d/truth.blk" --elf="$elf" --table=open --out="$d/truth" || return 1
  local f
  for f in blocks.txt paths.txt strata.txt layer0.txt layer1.txt idx; do
    cmp "$d/hw.$f" "$d/truth.$f" || { echo "$2: $f differs"; return 1; }
  done
  echo "$2: $(sed -n 's/.*trace drain: \([0-9]*\) records.*/\1 records/p' <<<"$out"); $(grep -E '^(blocks|paths|strata|layer0):' "$d/hw.log" | sed 's/ distinct.*//; s/ executed.*//' | tr '\n' ' ')equal"
  rm -f "$d/truth.blk" "$d/rebuilt.blk"
}

# gcov_same_run NAME ELF DIR: two lines. ELF is an -O0 -fprofile-arcs -ftest-coverage build linked
# with --emit-relocs (its notes beside it, ELF-*.gcno). It is instrumented by hwprof-instr and runs
# once, so gcov's counters and the hardware's edge profile count the same run (which must give the
# exact edge profile). Every function both count must agree (tb/oracle/gcov_oracle.py); the tracefile
# hwprof-report (ASan/UBSan) writes of the profile must agree with gcov on every line both list,
# except the lines whose code runs into gcov's own counter updates, which must still agree by their
# own instructions (tb/oracle/lcov_oracle.py gcov, with the uninstrumented build's retire stream), and
# on every line that only one of them lists (docs/report.md).
gcov_same_run() {
  local w=$1 g=$2 d=$3 out rc=0
  rm -rf "$d" && mkdir -p "$d/plain" && cp "$g-"*.gcno "$d/"
  "$instr" instrument --quiet "$g" -o "$d/prof.elf" || { echo "$w: not instrumented"; return 1; }
  out=$("$build/sim/hwprof-sim" --edge-map="$d/prof.map" --edge-profile="$d/prof.prof" --out-dir="$d" "$d/prof.elf" 2>&1 >/dev/null)
  grep -q 'exit code 0' <<<"$out" && grep -q 'edge check: .* 0 differences' <<<"$out" ||
    { echo "$w: $(grep -o 'exit code [0-9]*' <<<"$out"); $(grep 'edge check' <<<"$out")"; return 1; }
  (cd "$d" && riscv64-unknown-elf-gcov --json-format --stdout ./*.gcda >gcov.json 2>/dev/null) || { echo "$w: gcov failed"; return 1; }
  "$build/sim/hwprof-sim" --engine=none --out-dir="$d/plain" --pc-counts="$d/plain.counts" "$g" >/dev/null 2>&1 ||
    { echo "$w: the uninstrumented run failed"; return 1; }
  out=$(python3 tb/oracle/gcov_oracle.py "$d/gcov.json" "$d/prof.prof" "$d/prof.map" "$d/prof.elf") || rc=1
  echo "$w: $out"
  "$build/unit/hwprof-report-asan" lcov --quiet "$d/prof.map" "$d/prof.prof" -o "$d/hw.info" || return 1
  out=$(python3 tb/oracle/lcov_oracle.py gcov "$d/hw.info" "$d/gcov.json" "$g" "$d/plain.counts") || rc=1
  echo "$w: $out"
  return $rc
}
