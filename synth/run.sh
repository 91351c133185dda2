#!/usr/bin/env bash
# Area and timing per block (make synth):
#   generic gates  Yosys `synth`, flops legalized to $_DFF_P_ (reset and enable become gates, which
#                  the design's synchronous reset allows), `abc -g cmos2`, `stat -tech cmos`: every
#                  cell has a known transistor cost, so the estimate is a total, not a lower bound
#                  (the flop view: every array as flops and multiplexers)
#   memory view    the same flow with the arrays Yosys infers as memories kept as memory cells: their
#                  bits are listed ($b.mems.txt) and the logic around them is counted alone, so the
#                  arrays can be priced as SRAM/CAM bits (docs/synthesis.md)
#   iCE40          `synth_ice40` LUT4/DFF/CARRY/BRAM counts of the block, and fmax from nextpnr-ice40
#                  (HX8K) on an out-of-context wrapper (synth/ooc_wrap.py)
# Every flow runs without Yosys' SAT-based `share` pass: on the co-processor's engine it ran out of
# memory (24 GiB) where the rest of the flow needs 0.5 GiB (docs/synthesis.md).
# usage: synth/run.sh OUT_DIR
set -euo pipefail
out=${1:-build/synth}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
mkdir -p "$out"
# the blocks reported; the sources come from the Makefile (RTL_SRC)
# (SYNTH_BLOCKS="..." to choose; the value profiler's blocks, whose arrays are large as flops, take
# Yosys several minutes each)
blocks=(${SYNTH_BLOCKS:-hwprof_pir hwprof_edge_prof hwprof_trace_ctrl hwprof_vpf hwprof_cop hwprof_top hwprof_rvfi_adapter})
srcs=""
for f in ${RTL_SRC:?RTL_SRC must list the RTL sources (run through make synth)}; do srcs="$srcs $root/$f"; done

for t in yosys nextpnr-ice40 python3; do
  command -v "$t" >/dev/null || { echo "synth: error: '$t' not found (run: make deps)" >&2; exit 2; }
done
# Yosys, without its expected notes: the small arrays of the RTL (register files, the sample
# buffer's per-lane views) become registers, which it reports on every run
yosys() { command yosys "$@" 2> >(grep -v "Replacing memory .* with list of registers" >&2); }

table="$out/area.txt"
{
  printf '%-18s %8s %7s %11s | %8s %10s | %6s %6s %6s %5s %10s\n' block cells flops transistors \
    mem_bits logic_tr LUT4 DFF CARRY BRAM fmax_MHz
} >"$table"

for b in "${blocks[@]}"; do
  echo "synth: $b (generic gates)" >&2
  yosys -q -l "$out/$b.gates.log" -p "read_verilog -sv $srcs; synth -flatten -noshare -top $b; \
    dfflegalize -cell \$_DFF_P_ 01; abc -g cmos2; opt_clean; tee -o $out/$b.gates.stat stat -tech cmos" >/dev/null
  cells=$(awk '/Number of cells:/ {n=$4} END {print n}' "$out/$b.gates.stat")
  flops=$(awk '/\$_DFF_P_/ {n=$2} END {print n+0}' "$out/$b.gates.stat")
  tr=$(awk -F: '/Estimated number of transistors/ {gsub(/ /, "", $2); print $2}' "$out/$b.gates.stat")
  case "$tr" in *+*) echo "synth: error: $b transistor count is only a lower bound ($tr)" >&2; exit 1 ;; esac

  echo "synth: $b (memory view)" >&2
  # the arrays stay memory cells (the small read-only tables Yosys makes of case statements are
  # mapped to logic); their bits are listed, the logic is what stat can price
  yosys -q -l "$out/$b.mem.log" -p "read_verilog -sv $srcs; synth -flatten -noshare -top $b -run begin:fine; \
    memory_map t:\$mem_v2 r:WR_PORTS=0 %i; tee -q -o $out/$b.mems.dump dump t:\$mem_v2; \
    opt -fast -full; techmap; opt -fast; dfflegalize -cell \$_DFF_P_ 01; abc -g cmos2; opt_clean; \
    tee -o $out/$b.mem.stat stat -tech cmos" >/dev/null
  awk '/^ *cell \$mem_v2 / { name = $3 } /parameter .SIZE / { size = $3 } /parameter .WIDTH / { width = $3 }
       /^ *end$/ && name != "" { printf "%-40s %6d x %3d = %7d bits\n", name, size, width, size * width; name = "" }' \
    "$out/$b.mems.dump" >"$out/$b.mems.txt"
  membits=$(awk '{n += $6} END {print n+0}' "$out/$b.mems.txt")
  logic_tr=$(awk -F: '/Estimated number of transistors/ {gsub(/[ +]/, "", $2); print $2}' "$out/$b.mem.stat")

  echo "synth: $b (iCE40)" >&2
  # synth_ice40 without its share step (see above): its script up to coarse, coarse by hand, the rest
  ice40_coarse="opt_expr; opt_clean; check; opt -nodffe -nosdff; fsm; opt; wreduce; peepopt; opt_clean; \
    techmap -map +/cmp2lut.v -D LUT_WIDTH=4; opt_expr; opt_clean; memory_dff; wreduce t:\$mul; alumacc; opt; \
    memory -nomap; opt_clean"
  yosys -q -l "$out/$b.ice40.log" -p "read_verilog -sv $srcs; synth_ice40 -top $b -run :coarse; $ice40_coarse; \
    synth_ice40 -top $b -run map_ram:; tee -o $out/$b.ice40.stat stat" >/dev/null
  lut=$(awk '/SB_LUT4/ {n+=$2} END {print n+0}' "$out/$b.ice40.stat")
  dff=$(awk '/SB_DFF/ {n+=$2} END {print n+0}' "$out/$b.ice40.stat")
  carry=$(awk '/SB_CARRY/ {n+=$2} END {print n+0}' "$out/$b.ice40.stat")
  bram=$(awk '/SB_RAM40_4K/ {n+=$2} END {print n+0}' "$out/$b.ice40.stat")

  if [ "$lut" -gt 7680 ] || [ "$dff" -gt 7680 ]; then
    # more LUTs or flops than the HX8K has logic cells: no placement to try
    fmax="nofit:$(( (lut > dff ? lut : dff) * 100 / 7680 ))%"
    echo "synth: note: $b needs $lut LUTs and $dff flops, the HX8K has 7680 logic cells: no iCE40 fits it" >&2
    printf '%-18s %8s %7s %11s | %8s %10s | %6s %6s %6s %5s %10s\n' "$b" "$cells" "$flops" "$tr" "$membits" "$logic_tr" \
      "$lut" "$dff" "$carry" "$bram" "$fmax" >>"$table"
    continue
  fi
  echo "synth: $b (nextpnr-ice40, out of context)" >&2
  yosys -q -p "read_verilog -sv $srcs; hierarchy -top $b; proc; write_json $out/$b.ports.json" >/dev/null
  python3 "$here/ooc_wrap.py" "$out/$b.ports.json" "$b" "$out/ooc_$b.v"
  yosys -q -l "$out/ooc_$b.ice40.log" -p "read_verilog -sv $srcs; read_verilog $out/ooc_$b.v; \
    synth_ice40 -top ooc_$b -run :coarse; $ice40_coarse; synth_ice40 -top ooc_$b -run map_ram: -json $out/ooc_$b.json" >/dev/null
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
  printf '%-18s %8s %7s %11s | %8s %10s | %6s %6s %6s %5s %10s\n' "$b" "$cells" "$flops" "$tr" "$membits" "$logic_tr" \
    "$lut" "$dff" "$carry" "$bram" "${fmax:-?}" >>"$table"
done

echo
echo "Area and timing per block (Yosys 0.23 generic cmos gates; iCE40 HX8K via nextpnr-ice40):"
cat "$table"
echo "(cells, flops, transistors: the flop view, every array as flops; mem_bits, logic_tr: the memory"
echo " view, the bits of the arrays kept as memories ($out/<block>.mems.txt) and the transistors of"
echo " everything else; nofit:N%: the block with its out-of-context wrapper needs N% of the largest"
echo " iCE40's logic cells. Details in $out/)"

