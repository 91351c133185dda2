#!/usr/bin/env bash
# make qemu-check: the CPU model's retired-PC stream, console output and exit code must equal QEMU's
# on every workload (a program that takes traps, sim/workloads/traps.c, compares trap entries,
# handlers and mret too).
# QEMU (qemu-system-riscv32 -M virt, -d in_asm,exec,nochain) logs each translated block's
# instructions once and every execution of a block; tools/qemu_blocks.awk expands that into the
# retired-PC stream (the same stream as single-stepping with one "Trace" line per instruction, which
# takes 8 times as long and 8 times the log). The stream is compared from the program's entry
# (0x80000000) on, after QEMU's boot ROM. usage: tools/qemu_check.sh SIM ELF...   (QEMU_KEEP=DIR keeps QEMU's stream of
# each program as DIR/NAME.pcs, for tb/oracle/branch_oracle.py)
set -u
sim=${1:?usage: qemu_check.sh SIM ELF...}
shift
command -v qemu-system-riscv32 >/dev/null || { echo "qemu-check: error: qemu-system-riscv32 not found (make deps)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
total=0
failed=0
for elf in "$@"; do
  name=$(basename "$elf" .elf)
  # both get the same command line (the path), which the C runtime parses into argv
  "$sim" "$elf" --engine=none --pcs="$tmp/$name.ours" --quiet >"$tmp/$name.out" 2>&1
  ours_rc=$?
  timeout 600 qemu-system-riscv32 -M virt -bios none -kernel "$elf" -semihosting-config enable=on,target=native \
    -d in_asm,exec,nochain -D "$tmp/$name.log" -nographic -monitor none -serial none >"$tmp/$name.qout" 2>&1
  qemu_rc=$?
  awk -f "$(dirname "$0")/qemu_blocks.awk" "$tmp/$name.log" | sed -n '/^80000000$/,$p' >"$tmp/$name.qemu"
  rm -f "$tmp/$name.log"
  [ -n "${QEMU_KEEP:-}" ] && cp "$tmp/$name.qemu" "$QEMU_KEEP/$name.pcs"
  # ours ends with its end record ('end LINES'), QEMU's log has none: checked, then left out
  n=$(($(wc -l <"$tmp/$name.ours") - 1))
  if [ "$(tail -n 1 "$tmp/$name.ours")" = "end $n" ]; then sed -i '$d' "$tmp/$name.ours"; else echo "qemu-check: $name: --pcs has no end record"; fi
  total=$((total + n))
  if cmp -s "$tmp/$name.ours" "$tmp/$name.qemu" && [ "$ours_rc" = "$qemu_rc" ] && cmp -s "$tmp/$name.out" "$tmp/$name.qout"; then
    echo "qemu-check: $name: $n instructions, 0 differing PCs, the same output ($(wc -l <"$tmp/$name.out") lines), exit code $ours_rc in both"
  else
    failed=$((failed + 1))
    line=$(cmp "$tmp/$name.ours" "$tmp/$name.qemu" 2>&1 | sed -n 's/.* line \([0-9]*\).*/\1/p')
    echo "qemu-check: $name: DIFFERS (ours $n instructions, exit $ours_rc; QEMU $(wc -l <"$tmp/$name.qemu"), exit $qemu_rc)"
    cmp -s "$tmp/$name.out" "$tmp/$name.qout" || { echo "  the console output differs (ours | QEMU):"; diff "$tmp/$name.out" "$tmp/$name.qout" | head -6 | sed 's/^/    /'; }
    if [ -n "$line" ]; then
      from=$((line > 3 ? line - 3 : 1))
      echo "  first difference at retired instruction $line; ours | QEMU:"
      paste <(sed -n "${from},$((line + 2))p" "$tmp/$name.ours") <(sed -n "${from},$((line + 2))p" "$tmp/$name.qemu") | sed 's/^/    /'
    fi
  fi
done
echo "qemu-check: $# workloads, $total instructions compared, $failed differing"
[ "$failed" = 0 ]
