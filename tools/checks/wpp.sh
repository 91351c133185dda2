# Whole-program paths' checks of make test (docs/wpp.md), sourced by tools/runtests.sh, whose
# check(), $build and $logdir they use, and tools/checks/common.sh.

# Whole-program paths (docs/wpp.md, seed 003): wpp_one (tools/checks/common.sh) on every program
# without firmware, the trace controller drained into a trace file (every trace, FIFO mode, over APB
# between instructions). On the SystemC platform with the RTL in lockstep, the records read from the
# RTL over APB after every trace end equal the C platform's, on every one of those programs.
wpp_programs() {
  local elf rc=0
  for elf in "${plain_workloads[@]}" "${embench_elfs[@]}"; do
    wpp_one "$elf" "$(basename "$elf" .elf)" || rc=1
  done
  [ "${#embench_elfs[@]}" -gt 0 ] || echo "note: ../shared/embench is not there: the Embench programs are skipped"
  return $rc
}
check wpp-hardware-blocks-equal-retire-stream wpp_programs
wpp_sc_rtl() {
  local rc=0 elf w d out
  sc_runs sc-wpp --engine=lockstep --trace-out=@TRACE@ -- "${plain_workloads[@]}"
  for elf in "${plain_workloads[@]}"; do
    w=$(basename "$elf" .elf) d="$logdir/wpp/$(basename "$elf" .elf)"
    out=$(cat "$logdir/sc-wpp-$w.out")
    [ "$(cat "$logdir/sc-wpp-$w.rc")" = 0 ] && grep -q ' 0 mismatches' <<<"$out" && cmp "$d/sc.htr" "$d/run.htr" &&
      echo "$w: $(grep -o 'trace drain: [0-9]* records' <<<"$out"); $(grep -o 'lockstep:.*' <<<"$out"); the same file as hwprof-sim's" ||
      { echo "$w: $(grep -E 'error|MISMATCH' <<<"$out" | head -3)"; rc=1; }
  done
  return $rc
}
check wpp-rtl-records-over-apb-sc-lockstep wpp_sc_rtl
# the block listing's disassembly (sw/lib/rv32_disasm.c) against binutils' objdump: the mnemonic of
# every instruction the programs executed
wpp_disasm_objdump() {
  local w elf d n bad rc=0
  for w in sort interp; do
    elf="$build/workloads/$w.elf" d="$logdir/wpp/$w"
    "$wpp" blocks --text --disasm --trace="$d/run.htr" --elf="$elf" | awk '/^    [0-9a-f]+:/ { sub(":", "", $1); print $1, $3 }' |
      sort -u >"$d/ours.dis" || return 1
    riscv64-unknown-elf-objdump -d -M no-aliases "$elf" | awk -F'\t' '/^[0-9a-f]+:\t/ { a = $1; sub(":", "", a); print a, $3 }' |
      sort -u >"$d/objdump.dis"
    n=$(join "$d/ours.dis" "$d/objdump.dis" | wc -l)
    bad=$(join "$d/ours.dis" "$d/objdump.dis" | awk '$2 != $3' | head -5)
    [ "$n" -gt 100 ] && [ "$n" = "$(wc -l <"$d/ours.dis")" ] && [ -z "$bad" ] &&
      echo "$w: $n executed instructions, the same mnemonics as objdump's" || { echo "$w: $n compared; differ: $bad"; rc=1; }
  done
  return $rc
}
check wpp-disasm-matches-objdump wpp_disasm_objdump
# bad input: one line naming the file (and the offset), a non-zero exit, nothing written as if whole
wpp_rejects_bad_input() {
  local d="$logdir/wpp/bad" src="$logdir/wpp/sort/run.htr" elf="$build/workloads/sort.elf" out rc=0
  mkdir -p "$d"
  expect_err() { # WHAT PATTERN COMMAND...
    local what=$1 pat=$2
    shift 2
    out=$("$@" 2>&1 >/dev/null) && { echo "$what: accepted"; rc=1; return; }
    [ "$(wc -l <<<"$out")" = 1 ] && grep -q -- "$pat" <<<"$out" && echo "$what: $out" || { echo "$what: wrong message: $out"; rc=1; }
  }
  head -c $(($(stat -c %s "$src") - 8)) "$src" >"$d/cut.htr"
  expect_err "truncated trace file" "cut.htr: offset .*: truncated end record" "$wpp" analyze --trace="$d/cut.htr" --elf="$elf" --out="$d/x"
  head -c 1000 "$src" >"$d/short.htr"
  expect_err "trace file cut mid-stream" "short.htr: truncated: 0 bytes\|short.htr: truncated" "$wpp" analyze --trace="$d/short.htr" --elf="$elf" --out="$d/x"
  { head -c 40 "$src"; printf '\x10\x00\x00\x80\x02\x00\x00\x00'; tail -c +49 "$src"; } >"$d/wrong.htr"
  expect_err "a record that contradicts the code" "wrong.htr: offset 40: trace 0x80000010/0x00000002: history contradicts the code" "$wpp" analyze --trace="$d/wrong.htr" --elf="$elf" --out="$d/x"
  expect_err "records of another program" "run.htr" "$wpp" analyze --trace="$src" --elf="$build/workloads/interp.elf" --out="$d/x"
  { head -c $(($(stat -c %s "$src") - 4)) "$src"; printf '\x00\x00\x00\x00'; } >"$d/tail.htr"  # last pc 0
  expect_err "not a trace file" "sort.elf: not a hwprof trace file" "$wpp" analyze --trace="$elf" --elf="$elf" --out="$d/x"
  expect_err "no program" "needs --elf" "$wpp" analyze --trace="$src"
  expect_err "unknown option" "unknown argument '--bogus'" "$wpp" analyze --bogus
  expect_err "bad bucket count" "expects a power of two" "$wpp" analyze --blocks=x --buckets=3
  expect_err "sorting an open-addressing table" "has no chains to sort" "$wpp" analyze --blocks=x --table=open --sort=bounded
  expect_err "a synthetic stream of 100 keys" "expects KEYS,LOOKUPS,PHASES" "$wpp" probes --synthetic=100,1000,2
  expect_err "unfinished trace that leads elsewhere" "does not lead to the program's last instruction" \
    "$wpp" blocks --text --trace="$d/tail.htr" --elf="$elf"
  expect_err "index query out of range" "no instruction" "$wpp" query "$logdir/wpp/sort/hw.idx" --insn=999999999
  head -c 100 "$logdir/wpp/sort/hw.idx" >"$d/cut.idx"
  expect_err "truncated index" "cut.idx: truncated at offset" "$wpp" query "$d/cut.idx" --insn=1
  [ ! -e "$d/x.paths.txt" ] || { echo "tables were written from bad input"; rc=1; }
  out=$("$wpp" query "$logdir/wpp/sort/hw.idx" --path-number=1000) && grep -q '^paths' <<<"$out" && grep -q '^strata' <<<"$out" &&
    echo "query --path-number=1000: $(head -1 <<<"$out")" || { echo "query: $out"; rc=1; }
  return $rc
}
check wpp-rejects-bad-input wpp_rejects_bad_input
