#!/usr/bin/env bash
# make bench: figures that compare side by side, in one run.
#   1. simulation speed of the C model, the RTL, and both in lockstep, on the same stimulus
#   2. update-path cost: stall cycles per 1000 retire events for several cache sizes and memory
#      timings, on the profiled random stream (the C model, which is cycle-exact with the RTL)
#   3. whole-system instructions per second: the CPU model alone, the C-only platform, and the
#      SystemC platform with the C model, the RTL and both in lockstep
#   4. edge-profiling overhead on the workloads and Embench: collaborative profiling against
#      -fprofile-arcs (tools/edge_overhead.sh)
#   5. value profiling: the co-processor (load_count.s) under its firmware on every workload at
#      several prescaler settings: records dropped, engine cycles per record, firmware cost
#   6. the co-processor engine kept busy: simulation speed of its C model, RTL and lockstep
#   7. load-value profiling: the co-processor (seed 001) against simple sampling, error and overhead
#   8. the dynamic optimizer's phase detection (scheme 5A) against the ground truth of the phases
# usage: tools/bench.sh BUILD_DIR   (BENCH_CYCLES overrides the cycles per figure, BENCH_SC_INSNS
# the instructions per SystemC run)
set -euo pipefail
build=${1:-build}
cycles=${BENCH_CYCLES:-2000000}
sc_insns=${BENCH_SC_INSNS:-2000000}

field() { sed -n "s/.*$1 \\([0-9]*\\).*/\\1/p" <<<"$2" | head -1; }
insns() { sed -n 's/.*: \([0-9]*\) instructions, exit code 0.*/\1/p' <<<"$1" | head -1; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.2f%%", b ? 100 * (a - b) / b : 0 }'; }

echo "== 1. Simulation speed: hwprof_top, default configuration, random stream, seed 1, $cycles cycles"
printf '%-10s %12s %10s %12s\n' engine cycles seconds Mcycles/s
for e in model rtl lockstep; do
  line=$("$build/tb_top/Vhwprof_top" --seed=1 --cycles="$cycles" --engine="$e" --quiet | tail -1)
  secs=$(sed -n 's/.*(\([0-9.]*\) s, .*/\1/p' <<<"$line")
  rate=$(sed -n 's/.*, \([0-9.]*\) Mcycles\/s).*/\1/p' <<<"$line")
  printf '%-10s %12s %10s %12s\n' "$e" "$cycles" "$secs" "$rate"
done

echo
echo "== 2. Stall cycles per 1000 retire events (the counts stream: mostly profiled branches and prof.id,"
echo "      counter areas placed at random in 32 KiB, profile IDs 1-64; seed 1, $((cycles / 4)) cycles each)"
printf '%-7s %-22s %-12s %6s %10s %8s %14s\n' config cache memory grant events "hit %" "stalls/1000ev"
for cfg in small top large; do
  case $cfg in
    small) desc="2 sets x 1 way x 2 ctr" ;;
    top) desc="4 sets x 2 ways x 4 ctr" ;;
    large) desc="16 sets x 4 ways x 4 ctr" ;;
  esac
  for mem in 1:2/100 4:12/80 20:40/60; do
    lat=${mem%/*}
    grant=${mem#*/}
    out=$("$build/tb_$cfg/Vhwprof_top" --test=counts --engine=model --seed=1 --cycles=$((cycles / 4)) \
          --mem-latency="$lat" --mem-grant="$grant")
    ev=$(field "retire events accepted" "$out")
    st=$(field "stall cycles" "$out")
    hits=$(field "hits" "$out")
    perf=$(field "performed" "$out")
    printf '%-7s %-22s %-12s %5s%% %10s %8s %14s\n' "$cfg" "$desc" "lat $lat" "$grant" "$ev" \
      "$(awk -v h="$hits" -v p="$perf" 'BEGIN { printf "%.1f", p ? 100 * h / p : 0 }')" \
      "$(awk -v s="$st" -v e="$ev" 'BEGIN { printf "%.0f", e ? 1000 * s / e : 0 }')"
  done
done
echo
echo "== 3. Whole system: instructions per second on the workloads. The CPU model alone; the C-only"
echo "      platform (hwprof-sim, C model); the SystemC platform (hwprof-sc) with hwprof_top as the C"
echo "      model, the Verilated RTL, and both in lockstep (SystemC figures over at most $sc_insns instructions)"
printf '%-11s %12s %9s %9s %6s %9s %9s %9s\n' workload instructions alone "C plat." ratio "SC model" "SC rtl" "SC lockst"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", b / a; else printf "-" }'; }
for elf in "$build"/workloads/*.elf; do
  [ -f "$elf" ] || continue
  case $elf in *-vp.elf | *-ss.elf) continue ;; esac  # value profiling: section 7
  alone=-  # the firmware needs the device: a -fw program cannot run on the CPU alone
  case $elf in
    *-fw.elf) ;;
    *) alone=$( ("$build/sim/hwprof-sim" --engine=none "$elf" 2>&1 >/dev/null || true) |
                 sed -n 's/.*(\([0-9.]*\) M instructions\/s).*/\1/p') ;;
  esac
  line=$( ("$build/sim/hwprof-sim" --engine=model "$elf" 2>&1 >/dev/null || true) | head -1)
  n=$(sed -n 's/.*: \([0-9]*\) instructions,.*/\1/p' <<<"$line")
  model=$(sed -n 's/.*(\([0-9.]*\) M instructions\/s).*/\1/p' <<<"$line")
  sc=()
  for e in model rtl lockstep; do
    sc+=("$( ("$build/sc/hwprof-sc" --engine=$e --max-insns="$sc_insns" "$elf" 2>&1 >/dev/null || true) |
            sed -n 's/.*speed: [0-9.]* s, \([0-9.]*\) M instructions.*/\1/p')")
  done
  printf '%-11s %12s %9s %9s %6s %9s %9s %9s\n' "$(basename "$elf" .elf)" "$n" "$alone" "$model" "$(ratio "$alone" "$model")" \
    "${sc[0]}" "${sc[1]}" "${sc[2]}"
done
# the large programs, instrumented at the default K: edge profiling on, with and without the profile
# checked at the end (--edge-map: the exact-count oracle runs beside the model); each run three times
# right after the CPU model alone (this machine's speed moves between runs): medians, and the
# ratios' range
speed_tmp=$(mktemp -d)
mips() { ("$@" 2>&1 >/dev/null || true) | sed -n 's/.*(\([0-9.]*\) M instructions\/s).*/\1/p' | head -1; }
median3() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
for elf in "$build"/bigprogs/*.elf; do
  [ -f "$elf" ] || continue
  w=$(basename "$elf" .elf)
  "$build/instr/hwprof-instr" instrument --quiet "$elf" -o "$speed_tmp/$w-prof.elf"
  n=$( ("$build/sim/hwprof-sim" "$speed_tmp/$w-prof.elf" 2>&1 >/dev/null || true) | sed -n 's/.*: \([0-9]*\) instructions,.*/\1/p' | head -1)
  for check in "" "--edge-map=$speed_tmp/$w-prof.map"; do
    a=() m=() r=()
    for k in 1 2 3; do
      a+=("$(mips "$build/sim/hwprof-sim" --engine=none "$elf")")
      m+=("$(mips "$build/sim/hwprof-sim" $check "$speed_tmp/$w-prof.elf")")
      r+=("$(ratio "${a[-1]}" "${m[-1]}")")
    done
    printf '%-11s %12s %9s %9s %6s %9s %9s %9s  ratios %s %s\n' "$w-prof" "$n" "$(median3 "${a[@]}")" "$(median3 "${m[@]}")" \
      "$(median3 "${r[@]}")" - - - "$(printf '%s\n' "${r[@]}" | sort -n | paste -sd' ')" "${check:+(--edge-map)}"
  done
done
rm -rf "$speed_tmp"
echo "(M instructions/s; ratio: the C platform's speed over the CPU model's alone (goal >= 0.5); -fw: the"
echo " workload with the firmware runtime sampling traces; X-prof: a large program instrumented at the"
echo " default K, edge profiling on, alone: its uninstrumented build on the CPU model; medians of three"
echo " runs each, each ratio from a run and the CPU-alone run just before it)"
echo
echo "== 3b. A real core: picorv32's RTL with hwprof_top's RTL through the RVFI adapter, in Verilator"
echo "       (hwprof-pico, docs/picorv32.md), each workload instrumented at the default K, the edge"
echo "       profile checked; the CPU model retires one instruction a cycle"
printf '%-11s %12s %11s %6s %11s %11s %12s %12s\n' workload instructions "pico cycles" CPI "held cycles" "M cycles/s" "M insns/s" "differences"
for elf in "$build"/instr/*-prof.elf; do
  [ -x "$build/pico/hwprof-pico" ] || { echo "(hwprof-pico not built: picorv32 is installed by make deps)"; break; }
  w=$(basename "$elf" -prof.elf)
  out=$( ("$build/pico/hwprof-pico" --edge-map="${elf%.elf}.map" "$elf" 2>&1 >/dev/null || true))
  line=$(grep '^hwprof-pico: ' <<<"$out" | head -1)
  n=$(sed -n 's/.*: \([0-9]*\) instructions,.*/\1/p' <<<"$line")
  cyc=$(sed -n 's/.*, \([0-9]*\) cycles (CPI.*/\1/p' <<<"$line")
  cpi=$(sed -n 's/.*(CPI \([0-9.]*\)).*/\1/p' <<<"$line")
  held=$(sed -n 's/.* \([0-9]*\) cycles with the core held.*/\1/p' <<<"$line")
  mcs=$(sed -n 's/.*(\([0-9.]*\) M cycles\/s).*/\1/p' <<<"$line")
  mis=$(awk -v c="$mcs" -v p="$cpi" 'BEGIN { if (p + 0 > 0) printf "%.2f", c / p; else printf "-" }')
  diff=$(sed -n 's/.*exact counts: \([0-9]*\) differences.*/\1/p' <<<"$out")
  printf '%-11s %12s %11s %6s %11s %11s %12s %12s\n' "$w" "${n:--}" "${cyc:--}" "${cpi:--}" "${held:--}" "${mcs:--}" "$mis" "${diff:--}"
done
echo "(held cycles: the adapter held the core while hwprof_top was not ready; differences: the edge"
echo " profile read back against the exact counts of the run)"
echo
echo "   Firmware on picorv32's interrupts: each workload with the trace-sampling runtime (-fw), its"
echo "   whole run (program, handler, start-up) against the workload without it, both on picorv32; the"
echo "   interrupts taken and whether it prints what it prints on the C platform"
printf '%-11s %11s %13s %9s %11s %10s\n' workload interrupts "cycles (-fw)" "(plain)" "extra" "as on C"
tmp=$(mktemp -d)
for w in graph hashtab interp lz matrix sort; do
  [ -x "$build/pico/hwprof-pico" ] || break
  f=$("$build/pico/hwprof-pico" "$build/workloads/$w-fw.elf" 2>&1 >"$tmp/pico-fw.out" | grep '^hwprof-pico: ')
  p=$("$build/pico/hwprof-pico" "$build/workloads/$w.elf" 2>&1 >/dev/null | grep '^hwprof-pico: ')
  "$build/sim/hwprof-sim" "$build/workloads/$w-fw.elf" >"$tmp/c-fw.out" 2>/dev/null
  fc=$(sed -n 's/.*, \([0-9]*\) cycles (CPI.*/\1/p' <<<"$f")
  pc=$(sed -n 's/.*, \([0-9]*\) cycles (CPI.*/\1/p' <<<"$p")
  irq=$(sed -n 's/.* \([0-9]*\) interrupts, .*/\1/p' <<<"$f")
  x=$(awk -v a="$fc" -v b="$pc" 'BEGIN { if (b + 0 > 0) printf "%+.1f%%", 100 * (a - b) / b; else printf "-" }')
  printf '%-11s %11s %13s %9s %11s %10s\n' "$w" "${irq:--}" "${fc:--}" "${pc:--}" "$x" \
    "$(cmp -s "$tmp/pico-fw.out" "$tmp/c-fw.out" && echo same || echo DIFFERS)"
done
rm -rf "$tmp"
echo
echo "== 4. Edge-profiling overhead on every program: collaborative profiling (hwprof-instr) at the default"
echo "      K = 6 and at K = 4, modes minimal and all, against GCC -fprofile-arcs (extra retired instructions"
echo "      over the program uninstrumented; stalls: cycles the CPU waited for the profiling hardware,"
echo "      counter-line latency 4 / 20; tools/edge_overhead.sh)"
tools/edge_overhead.sh "$build"
echo
echo "== 4b. Edge profiling on the large programs (Lua, zstd: ../shared/bigprogs) at K = 6, mode minimal:"
echo "      coverage, extra instructions and whole-run cycles (taken-transfer penalty 2, 8 KiB instruction"
echo "      cache), stall cycles, profile-cache misses per 1000 updates at three cache shapes, and which"
echo "      functions the profiling instructions ran in (tools/bigprogs_bench.sh)"
tools/bigprogs_bench.sh "$build"

echo "== 5. Value profiling on the workloads: the co-processor runs sw/fw/cop/examples/load_count.s (a table"
echo "      of load PCs and counts) on the loads the prescaler keeps, the firmware (sw/fw/rt/cop_rt.c) copies"
echo "      the table at each interrupt and re-arms (C-only platform, cycle-exact with the RTL). dropped/1000:"
echo "      records dropped per 1000 chosen by the prescaler (the buffer was full: value profiling never"
echo "      stalls the CPU); cycles/rec: engine cycles per record by the pipeline rule (1 + instructions +"
echo "      mispredictions); irqs: interrupts (table full or a count at 0xffff); handler: instructions the"
echo "      interrupt handler retired, against the plain program's (setup and the final report not counted)."
printf '%-8s %9s %9s | %-36s | %-36s | %-36s\n' workload instrs loads "prescale 1: drop/1000 cyc/rec irqs handler" \
  "prescale 4" "prescale 16"
for elf in "$build"/workloads/*-cop.elf; do
  w=$(basename "$elf" -cop.elf)
  base=$(insns "$("$build/sim/hwprof-sim" --engine=none "$build/workloads/$w.elf" 2>&1 >/dev/null)")
  row=""
  loads=""
  for p in "" 4 16; do
    out=$("$build/sim/hwprof-sim" "$build/workloads/$w-cop$p.elf" 2>&1)
    read -r passed sampled dropped records executed mispred irqs hins <<<"$(sed -n 's/.*prescale [0-9]*: \([0-9]*\) loads passed the filters, \([0-9]*\) sampled, \([0-9]*\) dropped; the engine ran \([0-9]*\) records in \([0-9]*\) microinstructions (\([0-9]*\) mispredicted), \([0-9]*\) interrupts (handler: \([0-9]*\) instructions).*/\1 \2 \3 \4 \5 \6 \7 \8/p' <<<"$out")"
    [ -z "$loads" ] && loads=$passed
    per=$(awk -v d="$dropped" -v s="$sampled" 'BEGIN { printf "%.1f", (s + d) ? 1000 * d / (s + d) : 0 }')
    cpr=$(awk -v r="$records" -v e="$executed" -v m="$mispred" 'BEGIN { printf "%.2f", r ? (r + e + m) / r : 0 }')
    row="$row | $(printf '%6s %6s %4s %17s' "$per" "$cpr" "$irqs" "$hins ($(pct $((base + hins)) "$base"))")"
  done
  printf '%-8s %9s %9s%s\n' "$w" "$base" "$loads" "$row"
done
echo "(loads: loads that passed the filters at prescale 1, the handler's own loads included)"

echo
echo "== 6. The co-processor engine alone, kept busy (tb_cop --test=busy: a load-counting routine on a"
echo "      record every cycle it can take one, re-armed with one write at each interrupt; seed 1,"
echo "      $cycles cycles): simulation speed of the C model, the Verilated RTL, and both in lockstep"
echo "      (every output compared every cycle, and the interpreter's state after every record)"
printf '%-28s %-9s %12s %10s %10s %12s %10s\n' configuration engine cycles records seconds Mcycles/s krec/s
for p in cop cop_small; do
  case $p in
    cop) desc="64 uc, 256 CAM, 2048 B" ;;
    cop_small) desc="8 uc, 4 CAM, 32 B" ;;
  esac
  for e in model rtl lockstep; do
    out=$("$build/tb_$p/Vhwprof_cop" --test=busy --seed=1 --cycles="$cycles" --engine="$e")
    recs=$(sed -n 's/.*busy: \([0-9]*\) records taken.*/\1/p' <<<"$out")
    secs=$(sed -n 's/.*(\([0-9.]*\) s, [0-9.]* Mcycles\/s).*/\1/p' <<<"$out")
    rate=$(sed -n 's/.*, \([0-9.]*\) Mcycles\/s).*/\1/p' <<<"$out")
    printf '%-28s %-9s %12s %10s %10s %12s %10s\n' "$desc" "$e" "$cycles" "$recs" "$secs" "$rate" \
      "$(awk -v r="$recs" -v s="$secs" 'BEGIN { printf "%.0f", (s > 0 ? r / s / 1000 : 0) }')"
  done
done
echo "(records: records the engine took; the whole system with the co-processor is in section 3's SC columns)"

echo
if [ -x "$build/venv/bin/python" ]; then
  "$build/venv/bin/python" "$(dirname "$0")/valueprof_curves.py" "$build"
  echo
  "$build/venv/bin/python" "$(dirname "$0")/vp_cost.py" "$build"
else
  echo "== 7. (not run: $build/venv is missing; make deps installs Dask into it)"
fi
echo
"$(dirname "$0")/valueprof_eval.sh" "$build"

echo
"$(dirname "$0")/dynopt_bench.sh" "$build"

echo
"$(dirname "$0")/tracecache_bench.sh" "$build"
echo
"$(dirname "$0")/tracecache_bench.sh" "$build" x10
echo
"$(dirname "$0")/tracecache_bench.sh" "$build" x10 8192

echo
"$(dirname "$0")/relayout_bench.sh" "$build"
echo
"$(dirname "$0")/dynopt_cost_bench.sh" "$build"

echo
"$(dirname "$0")/wpp_bench.sh" "$build"

echo
"$(dirname "$0")/path_bench.sh" "$build"

echo
"$(dirname "$0")/pgo_bench.sh" "$build"
