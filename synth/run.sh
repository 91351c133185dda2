#!/usr/bin/env bash
# Area and timing per block (make synth):
#   generic gates  Yosys `synth`, flops legalized to $_DFF_P_ (reset and enable become gates, which
#                  the design's synchronous reset allows), `abc -g cmos2`, `stat -tech cmos`: every
#                  cell has a known transistor cost, so the estimate is a total, not a lower bound
#   iCE40          `synth_ice40` LUT4/DFF/CARRY counts of the block, and fmax from nextpnr-ice40
#                  (HX8K) on an out-of-context wrapper (synth/ooc_wrap.py)
# usage: synth/run.sh OUT_DIR
set -euo pipefail
out=${1:-build/synth}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
mkdir -p "$out"
# the blocks reported; the sources come from the Makefile (RTL_SRC)
# (SYNTH_BLOCKS="..." to choose; the value profiler's blocks hold their arrays as flops: hwprof_vpf
# takes Yosys about ten minutes, hwprof_cop and so hwprof_top ran out of memory on a machine of the
# project's (docs/synthesis.md))
blocks=(${SYNTH_BLOCKS:-hwprof_pir hwprof_edge_prof hwprof_trace_ctrl hwprof_vpf})
case " ${blocks[*]} " in
  *" hwprof_cop "* | *" hwprof_top "*) ;;
  *) echo "synth: note: hwprof_cop and hwprof_top (which holds it) are left out: with the co-processor's" \
       "arrays as flops Yosys runs out of memory (docs/synthesis.md); SYNTH_BLOCKS=... to try" >&2 ;;
esac
srcs=""
for f in ${RTL_SRC:?RTL_SRC must list the RTL sources (run through make synth)}; do srcs="$srcs $root/$f"; done

for t in yosys nextpnr-ice40 python3; do
  command -v "$t" >/dev/null || { echo "synth: error: '$t' not found (run: make deps)" >&2; exit 2; }
done

table="$out/area.txt"
{
  printf '%-18s %8s %8s %12s %8s %8s %8s %10s\n' block cells flops transistors LUT4 DFF CARRY fmax_MHz
} >"$table"

for b in "${blocks[@]}"; do
  echo "synth: $b (generic gates)" >&2
  yosys -q -l "$out/$b.gates.log" -p "read_verilog -sv $srcs; synth -flatten -top $b; \
    dfflegalize -cell \$_DFF_P_ 01; abc -g cmos2; opt_clean; tee -o $out/$b.gates.stat stat -tech cmos" >/dev/null
  cells=$(awk '/Number of cells:/ {n=$4} END {print n}' "$out/$b.gates.stat")
  flops=$(awk '/\$_DFF_P_/ {n=$2} END {print n+0}' "$out/$b.gates.stat")
  tr=$(awk -F: '/Estimated number of transistors/ {gsub(/ /, "", $2); print $2}' "$out/$b.gates.stat")
  case "$tr" in *+*) echo "synth: error: $b transistor count is only a lower bound ($tr)" >&2; exit 1 ;; esac

  echo "synth: $b (iCE40)" >&2
  yosys -q -l "$out/$b.ice40.log" -p "read_verilog -sv $srcs; synth_ice40 -top $b; \
    tee -o $out/$b.ice40.stat stat" >/dev/null
  lut=$(awk '/SB_LUT4/ {n+=$2} END {print n+0}' "$out/$b.ice40.stat")
  dff=$(awk '/SB_DFF/ {n+=$2} END {print n+0}' "$out/$b.ice40.stat")
  carry=$(awk '/SB_CARRY/ {n+=$2} END {print n+0}' "$out/$b.ice40.stat")

  echo "synth: $b (nextpnr-ice40, out of context)" >&2
  yosys -q -p "read_verilog -sv $srcs; hierarchy -top $b; proc; write_json $out/$b.ports.json" >/dev/null
  python3 "$here/ooc_wrap.py" "$out/$b.ports.json" "$b" "$out/ooc_$b.v"
  yosys -q -l "$out/ooc_$b.ice40.log" -p "read_verilog -sv $srcs; read_verilog $out/ooc_$b.v; \
    synth_ice40 -top ooc_$b -json $out/ooc_$b.json" >/dev/null
  if nextpnr-ice40 --hx8k --package ct256 --json "$out/ooc_$b.json" --freq 50 --seed 1 --timing-allow-fail \
      --log "$out/ooc_$b.pnr.log" -q >/dev/null 2>&1; then
    fmax=$(grep -o "Max frequency for clock '[^']*': [0-9.]* MHz" "$out/ooc_$b.pnr.log" | tail -1 |
           sed 's/.*: \([0-9.]*\) MHz/\1/')
  elif pct=$(grep -o 'ICESTORM_LC: *[0-9]*/ *[0-9]* *[0-9]*%' "$out/ooc_$b.pnr.log" | tail -1 |
             sed 's/.* \([0-9]*\)%$/\1/') && [ -n "$pct" ] && [ "$pct" -gt 100 ]; then
    util="$pct%"
    fmax="nofit:$util"
    echo "synth: note: $b needs $util of the HX8K's logic cells with its wrapper: no iCE40 fits it" >&2
  else
    fmax="pnr-failed"
    echo "synth: warning: nextpnr-ice40 failed for $b (see $out/ooc_$b.pnr.log)" >&2
  fi
  printf '%-18s %8s %8s %12s %8s %8s %8s %10s\n' "$b" "$cells" "$flops" "$tr" "$lut" "$dff" "$carry" "${fmax:-?}" >>"$table"
done

echo
echo "Area and timing per block (Yosys 0.23 generic cmos gates; iCE40 HX8K via nextpnr-ice40):"
cat "$table"
echo "(nofit:N%: the block with its out-of-context wrapper needs N% of the largest iCE40's logic cells;"
echo " the per-block rows are the meaningful FPGA figures. Details in $out/)"
