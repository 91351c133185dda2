#!/usr/bin/env bash
# make bench, section 11: whole-program paths (docs/wpp.md, seed 003) on every program without
# firmware, on Embench and on the large programs (when built). Each program runs once on hwprof-sim with the trace
# controller drained into a trace file (--trace-out); hwprof-wpp rebuilds its blocks and builds the
# hierarchy. Then the seed's claim about bounded sorting: the same analysis with the hash tables'
# chains in insertion order (new entries last: the order bounded sorting starts from; new entries
# first: the usual cheap alternative), with bounded sorting, and with every bucket sorted every period,
# at WPP_BUCKETS buckets per table (default 16: deep chains, as a table holding millions of paths
# in bounded width has; at 256 the chains here are short and nothing needs sorting). Probes: chain
# entries visited per lookup; sort work: buckets inspected + entries visited + comparisons + links
# rewritten by the sorts. Then the fair baselines at the tool's default width (256 buckets) and at
# WPP_BUCKETS: each table's whole cost per lookup (probes + upkeep: sorting, moves to the front,
# rehashing) for chains in insertion order, move to the front on a hit, bounded sorting, full
# sorting, chains doubled past one entry per bucket and open addressing at most half full; and the
# same organisations on a synthetic stream at the seed's scale (WPP_SYNTHETIC keys,lookups,phases:
# default 2^21 keys, about the seed's 2 million paths, 2^25 lookups in 8 phases, Zipf s=1, at
# WPP_SYN_BUCKETS buckets, default 65,536: 32 entries per chain when full, sorted every
# WPP_SYN_PERIOD lookups, default 262,144). Last, the phase changes the sorts reported on the phases
# program against its ground truth (hwprof-sim --phase-truth). Figures also go to
# BUILD_DIR/bench/wpp.tsv and wpp-modes.tsv.
# usage: tools/wpp_bench.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
buckets=${WPP_BUCKETS:-16}
synthetic=${WPP_SYNTHETIC:-2097152,33554432,8}
syn_buckets=${WPP_SYN_BUCKETS:-65536}
syn_period=${WPP_SYN_PERIOD:-262144}
sim="$build/sim/hwprof-sim"
wpp="$build/wpp/hwprof-wpp"
mkdir -p "$build/bench"
tsv="$build/bench/wpp.tsv"
mtsv="$build/bench/wpp-modes.tsv"
printf 'program\twidth\tmode\ttable\tentries\tlookups\tprobes\tupkeep\tcost_per_lookup\n' >"$mtsv"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

progs=()
for elf in "$build"/workloads/*.elf "$build"/embench/*.elf "$build"/bigprogs/*.elf; do
  case $elf in *-fw.elf | *-cop*.elf | *-vp.elf | *-ss.elf | */vp_*.elf) ;; *) [ -f "$elf" ] && progs+=("$elf") ;; esac
done

echo "== 11. Whole-program paths (seed 003) from the trace controller's records (docs/wpp.md): per program,"
echo "      the blocks rebuilt from the drained records, the hierarchy (distinct units; runs = repeated"
echo "      units), analysis speed; then probes per lookup of the block table (every block looks it up) and"
echo "      the path table at $buckets buckets: chains in insertion order (new last / new first), bounded"
echo "      sorting (depth > 4, > 64 accesses in the period of 16384 lookups), every bucket sorted every"
echo "      period; and the sorting work of bounded against full"
printf 'program\tinsns\trecords\tblocks\tdistinct_blocks\tpaths\tpath_runs\tstrata\tstratum_runs\tlayer0\tlayer1\tblocks_per_s\tblk_tail\tblk_head\tblk_bounded\tblk_full\tpth_tail\tpth_head\tpth_bounded\tpth_full\twork_bounded\twork_full\ttr_tail\ttr_head\ttr_bounded\ttr_full\ttr_open\n' >"$tsv"
printf '%-14s %9s %8s %8s %6s %6s %7s %6s %6s %6s | %-27s | %-27s | %-20s | %s\n' program insns records blocks paths runs strata layer0 layer1 "Mblk/s" \
  "block table: tail head bnd full" "path table: tail head bnd full" "sort work bnd/full" "Figure 8 table: tail head bnd full open"
sum_tail=0 sum_bnd=0 sum_head=0 sum_full=0 nprog=0
for elf in "${progs[@]}"; do
  name=$(basename "$elf" .elf)
  out=$("$sim" --trace-out="$tmp/$name.htr" "$elf" 2>&1 >/dev/null) || { echo "$name: the run failed"; echo "$out" | tail -3; exit 1; }
  insns=$(sed -n 's/.*trace drain: [0-9]* records.* \([0-9]*\) program instructions.*/\1/p' <<<"$out")
  records=$(sed -n 's/.*trace drain: \([0-9]*\) records.*/\1/p' <<<"$out")
  an=$("$wpp" analyze --trace="$tmp/$name.htr" --elf="$elf" --out="$tmp/$name") || { echo "$name: hwprof-wpp failed"; exit 1; }
  echo "$name $(grep '^grammar:' <<<"$an")" >>"$tmp/grammar"
  blocks=$(sed -n 's/^blocks: \([0-9]*\) executed, \([0-9]*\) distinct.*/\1/p' <<<"$an")
  dblocks=$(sed -n 's/^blocks: \([0-9]*\) executed, \([0-9]*\) distinct.*/\2/p' <<<"$an")
  lvl() { sed -n "s/^$1: \\([0-9]*\\) distinct, [0-9]* traversals, \\([0-9]*\\) runs.*/\\$2/p" <<<"$an"; }
  speed=$(sed -n 's/^analysis: .* \([0-9.]*\) M blocks\/s.*/\1/p' <<<"$an")
  pr=$("$wpp" probes --trace="$tmp/$name.htr" --elf="$elf" --buckets="$buckets")
  pr256=$("$wpp" probes --trace="$tmp/$name.htr" --elf="$elf" --buckets=256)
  for w in "$buckets" 256; do
    if [ "$w" = 256 ]; then p=$pr256; else p=$pr; fi
    awk -F'\t' -v prog="$name" -v w="$w" '!/^#/ { print prog "\t" w "\t" $1 "\t" $2 "\t" $3 "\t" $5 "\t" $6 "\t" $10 "\t" $13 }' <<<"$p" >>"$mtsv"
  done
  ppl() { awk -F'\t' -v m="$1" -v t="$2" '$1 == m && $2 == t { printf "%.2f", $7 }' <<<"$pr"; }
  work() { awk -F'\t' -v m="$1" '$1 == m { w += $10 } END { printf "%d", w }' <<<"$pr"; }
  bt=$(ppl none-tail blocks) bh=$(ppl none-head blocks) bb=$(ppl bounded blocks) bf=$(ppl full blocks)
  pt=$(ppl none-tail paths) ph=$(ppl none-head paths) pb=$(ppl bounded paths) pf=$(ppl full paths)
  wb=$(work bounded) wf=$(work full)
  tt=$(ppl none-tail traces) th=$(ppl none-head traces) tb=$(ppl bounded traces) tf=$(ppl full traces) to=$(ppl open traces)
  printf '%-14s %9s %8s %8s %6s %6s %7s %6s %6s %6s | %6s %6s %6s %6s | %6s %6s %6s %6s | %20s | %5s %5s %5s %5s %5s\n' "$name" "$insns" "$records" "$blocks" \
    "$(lvl paths 1)" "$(lvl paths 2)" "$(lvl strata 1)" "$(lvl layer0 1)" "$(lvl layer1 1)" "$speed" "$bt" "$bh" "$bb" "$bf" "$pt" "$ph" "$pb" "$pf" "$wb / $wf" \
    "$tt" "$th" "$tb" "$tf" "$to"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$insns" "$records" "$blocks" "$dblocks" \
    "$(lvl paths 1)" "$(lvl paths 2)" "$(lvl strata 1)" "$(lvl strata 2)" "$(lvl layer0 1)" "$(lvl layer1 1)" "$speed" \
    "$bt" "$bh" "$bb" "$bf" "$pt" "$ph" "$pb" "$pf" "$wb" "$wf" "$tt" "$th" "$tb" "$tf" "$to" >>"$tsv"
  [ "$name" = phases ] && cp "$tmp/$name.log" "$tmp/phases-wpp.log" && "$wpp" analyze --quiet --trace="$tmp/$name.htr" --elf="$elf" \
    --buckets="$buckets" --out="$tmp/phases-deep"
done
awk -F'\t' 'NR > 1 { bt += $13 * $4; bh += $14 * $4; bb += $15 * $4; bf += $16 * $4; n += $4; wb += $21; wf += $22 }
  END { if (n) printf "all programs, weighted by blocks: block table %.2f (new last) / %.2f (new first) / %.2f (bounded) / %.2f (full) probes per lookup; bounded sorting %.1fx fewer than new-last, %.1fx than new-first; its sort work %.0f%% of the full sort'"'"'s\n", bt / n, bh / n, bb / n, bf / n, bt / bb, bh / bb, 100 * wb / (wf ? wf : 1)
        }' "$tsv"
ratios=$(awk -F'\t' 'NR > 1 { printf "%.3f %.4f\n", $13 / $15, $22 ? $21 / $22 : 0 }' "$tsv")
n=$(wc -l <<<"$ratios")
med() { sort -g | sed -n "$(((n + 1) / 2))p"; }
printf 'per program (block table): bounded sorting >= 2x fewer probes than new-last on %s of %s (median %.1fx); its sort work < 10%% of the full sort'"'"'s on %s (median %.0f%%); both on %s\n' \
  "$(awk '$1 >= 2' <<<"$ratios" | wc -l)" "$n" "$(cut -d' ' -f1 <<<"$ratios" | med)" "$(awk '$2 < 0.1' <<<"$ratios" | wc -l)" \
  "$(cut -d' ' -f2 <<<"$ratios" | med | awk '{ print 100 * $1 }')" "$(awk '$1 >= 2 && $2 < 0.1' <<<"$ratios" | wc -l)"
awk -F'\t' 'NR > 1 { tt += $23 * $3; th += $24 * $3; tb += $25 * $3; tf += $26 * $3; to += $27 * $3; r += $3 }
  END { if (r) printf "Figure 8 table, weighted by records: %.2f (new last) / %.2f (new first) / %.2f (bounded) / %.2f (full) chained, %.2f open addressing at most half full\n", tt / r, th / r, tb / r, tf / r, to / r }' "$tsv"
echo "(probes: chain entries visited per lookup at $buckets buckets; runs: repeated paths; layer0/1: stratum layers;"
echo " Mblk/s: blocks analysed per second by hwprof-wpp, all levels, with the timeline kept)"
echo "fair baselines: whole cost per lookup (probes + upkeep work: entries visited, compared or relinked by sorting,"
echo "moves to the front, rehashing), weighted by lookups; tail/head: insertion order; mtf: move to the front on a hit;"
echo "bnd/full: bounded/full sorting; grow: chains doubled past one entry per bucket; open: linear probing, at most half full"
modes="none-tail none-head mtf bounded full grow open"
summ() { # label, awk filter on the program name, width, table
  awk -F'\t' -v w="$3" -v tbl="$4" -v modes="$modes" -v label="$1" "NR > 1 && \$2 == w && \$4 == tbl && ($2)"' {
      c[$3] += $7 + $8; l[$3] += $6; progs[$1] = 1 }
    END { np = 0; for (p in progs) np++; if (!np) exit
          n = split(modes, m, " "); best = ""; line = sprintf("  %-34s", sprintf(label, np))
          for (i = 1; i <= n; i++) { v = l[m[i]] ? c[m[i]] / l[m[i]] : 0; line = line sprintf(" %6.2f", v)
            if (m[i] != "bounded" && (best == "" || v < bv)) { best = m[i]; bv = v } }
          b = l["bounded"] ? c["bounded"] / l["bounded"] : 0
          printf "%s | %-9s %5.2fx\n", line, best, b ? bv / b : 0 }' "$mtsv"
}
printf '  %-34s %6s %6s %6s %6s %6s %6s %6s | %s\n' "table, programs, buckets" tail head mtf bnd full grow open "best other, its cost / bnd's"
for w in 256 "$buckets"; do
  for tbl in blocks paths traces; do
    summ "$tbl, %d small programs, $w" '$1 != "lua" && $1 != "zstd"' "$w" "$tbl"
    summ "$tbl, %d large (Lua, zstd), $w" '$1 == "lua" || $1 == "zstd"' "$w" "$tbl"
  done
done
echo "at the seed's scale (synthetic: $synthetic keys,lookups,phases, Zipf s=1, $syn_buckets buckets, sorts every $syn_period lookups):"
syn=$("$wpp" probes --synthetic="$synthetic" --buckets="$syn_buckets" --period="$syn_period")
awk -F'\t' '!/^#/ { printf "  %-9s %8d entries %10d lookups %6.2f probes + %6.2f upkeep = %6.2f per lookup (width %d)\n", $1, $3, $5, $7, $5 ? $10 / $5 : 0, $13, $14 }' <<<"$syn"
awk -F'\t' -v prog=synthetic -v w="$syn_buckets" '!/^#/ { print prog "\t" w "\t" $1 "\t" $2 "\t" $3 "\t" $5 "\t" $6 "\t" $10 "\t" $13 }' <<<"$syn" >>"$mtsv"
echo "whole-program path as a grammar (SEQUITUR over the path traversals, as Larus' WPP; each checked to expand to them):"
printf '  %-14s %11s %7s %8s %14s %14s %8s\n' program traversals rules symbols "grammar b/insn" "trace b/insn" smaller
sed -n 's/^\([^ ]*\) grammar: SEQUITUR over the \([0-9]*\) path traversals: \([0-9]*\) rules, \([0-9]*\) symbols, [0-9]* bits (\([0-9.]*\) bits per instruction) against [0-9]* bits for the path trace (\([0-9.]*\) bits per instruction), \([0-9.]*x\) smaller.*/\1 \2 \3 \4 \5 \6 \7/p' \
  "$tmp/grammar" | awk '{ printf "  %-14s %11s %7s %8s %14s %14s %8s\n", $1, $2, $3, $4, $5, $6, $7 }'
if [ -f "$tmp/phases-deep.log" ]; then
  "$sim" --quiet --phase-truth="$tmp/phases.truth" --phase-window=100000 "$build/workloads/phases.elf" >/dev/null 2>&1 || true
  echo "phases program: changes of its hot branch set (hwprof-sim --phase-truth, windows of 100,000 instructions):"
  awk '$1 == "window" && $(NF - 1) == "change" && $NF != 0 { printf "  truth: window [%d, %d) change %d\n", $2, $3, $NF }' "$tmp/phases.truth"
  echo "  reported by the bounded sorting at $buckets buckets (a sort putting an entry with 10x the accesses ahead of one hot"
  echo "  at the previous sort; first per period):"
  grep '^phase change' "$tmp/phases-deep.log" | awk '{ split($4, a, ","); if (a[1] != last) print "  wpp: " $0; last = a[1] }' | sed 's/phase change: //'
fi
