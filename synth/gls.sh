#!/usr/bin/env bash
# The gate-level netlist of one block, for gate-level simulation (make gls):
#   Yosys `synth -flatten -noshare` on the block with the given parameters, the arrays Yosys infers
#   as memories kept as memory cells (they would be SRAM macros; everything else, the small arrays
#   it turns into registers included, becomes gates), `techmap`, `abc -g` to Yosys' generic
#   two-input gates and multiplexers, `splitnets` (every internal vector becomes single-bit nets:
#   Verilator 5.006 simulated hwprof_vpf's unsplit netlist wrong, docs/verification.md), and
#   `write_verilog -noattr`: gates as assignments, flops as always blocks, memories as Verilog
#   arrays. Nothing of the RTL's own source text is left. GLS_MEM=flops maps every memory to flops
#   and gates as well (its read multiplexers, write decoders and enables), for the small
#   configurations, where that stays simulable.
# usage: [GLS_MEM=flops] synth/gls.sh BLOCK OUT.v [NAME=VALUE ...]   (RTL_SRC from the Makefile)
set -euo pipefail
usage="usage: [GLS_MEM=flops] synth/gls.sh BLOCK OUT.v [PARAM=VALUE ...]  (RTL_SRC lists the sources; run through make gls)"
case "${1:-}" in -h|--help) echo "$usage"; exit 0 ;; esac
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
block=$1
out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
command -v yosys >/dev/null || { echo "gls: error: 'yosys' not found (run: make deps)" >&2; exit 2; }
srcs=""
for f in ${RTL_SRC:?RTL_SRC must list the RTL sources (run through make gls)}; do srcs="$srcs $root/$f"; done
chparam=""
for p in "$@"; do
  case "$p" in
    *=*) chparam="$chparam chparam -set ${p%%=*} ${p#*=} $block;" ;;
    *) echo "gls: error: '$p' is not NAME=VALUE" >&2; exit 2 ;;
  esac
done
# which memories become flops: those without write ports (tables), or with GLS_MEM=flops every one
case "${GLS_MEM:-arrays}" in
  arrays) mem_sel='t:$mem_v2 r:WR_PORTS=0 %i' ;;
  flops) mem_sel='t:$mem_v2' ;;
  *) echo "gls: error: GLS_MEM='$GLS_MEM': expects arrays or flops" >&2; exit 2 ;;
esac
mkdir -p "$(dirname "$out")"
log="${out%.v}.log"
echo "gls: $block${*:+ ($*)}${GLS_MEM:+, memories as ${GLS_MEM}}: Yosys netlist -> $out" >&2
# write to a temporary name: a netlist cut short by an error is never taken for a whole one
yosys -q -l "$log" -p "read_verilog -sv $srcs; $chparam synth -flatten -noshare -top $block -run begin:fine; \
  memory_map $mem_sel; opt -fast -full; techmap; opt -fast; \
  abc -g AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX; opt_clean; check -assert; splitnets; \
  tee -q -o ${out%.v}.stat stat; write_verilog -noattr $out.tmp" 2> >(grep -v "Replacing memory .* with list of registers" >&2) \
  || { echo "gls: error: Yosys failed on $block (log: $log)" >&2; rm -f "$out.tmp"; exit 1; }
# a vector of thousands of single-bit nets is written as one concatenation on one line, past
# Verilator's 40,000 tokens a line (the large configuration's 8,192-bit cache data): one net a line
awk 'length > 20000 { gsub(/, /, ",\n") } { print }' "$out.tmp" >"$out.tmp2" && rm -f "$out.tmp" \
  || { echo "gls: error: could not write $out" >&2; rm -f "$out.tmp" "$out.tmp2"; exit 1; }
mv "$out.tmp2" "$out"
awk '/Number of cells:/ {c=$4} /\$_(S?DFF|DFFE|SDFFE|SDFFCE)[A-Z0-9_]*/ {f+=$2} /\$mem_v2/ {m=$2}
     END {printf "%s: %d cells, %d flops, %d memories kept as arrays\n", b, c, f, m}' b="$block" "${out%.v}.stat" \
  | tee "${out%.v}.summary" | sed "s/^/gls: /" >&2
