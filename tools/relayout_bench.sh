#!/usr/bin/env bash
# make bench, section 10: the edge-driven re-layout (docs/dynopt.md, "Re-laying functions out while
# they run") with both schemes side by side, on the workloads, the two phase programs and the
# Embench programs (when built). Each program runs three times on hwprof-sim (the C model of
# hwprof_top) with the timing in the header: build/dyn (scheme 5A decides, nothing moves),
# build/dynrl (the same firmware lays a function out again whenever its hot set flipped) and
# build/dyn5b (the same with the re-laid functions' forward branches counted as Figure 5B pairs);
# then both optimizers in one program: build/dynboth (5A re-layout and hot traces in the same code
# cache, the trace side with its cost model), build/dynevery (every hot trace placed) and
# build/dyntrace (the trace side alone, with its cost model, no layouts); and the
# offline bound, run: build/dynstatic once to record the whole run's counters (hwprof-sim --dump),
# once more with them loaded (--load): every function laid out at start by the whole run's profile.
# Program figures exclude the trap handler; the handler's instructions are the optimizer's cost;
# every run must keep the program's output and an exact edge profile (the simulator counts the code
# cache's copies as their originals, --code-cache). The two re-layout runs are also scored against
# the ground truth of the program's phases (hwprof-sim --phase-truth, tools/dynopt_eval.py).
# The figures also go to BUILD_DIR/bench/relayout.tsv; with PLOTS=DIR set, each program's phase
# timelines with the layouts marked go to DIR/dynopt-rl-NAME.png and DIR/dynopt-5b-NAME.png.
# usage: tools/relayout_bench.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
mkdir -p "$build/bench"
tsv="$build/bench/relayout.tsv"
penalty=${RL_TAKEN_PENALTY:-2}
window=${DYNOPT_WINDOW:-200000}
sim="$build/sim/hwprof-sim"
py=/usr/bin/python3
[ -x "$py" ] || py=python3
cache=$(sed -n 's/^DYNRL_CACHE := \(.*\)/\1/p' Makefile mk/*.mk)
tramp=$(sed -n 's/^DYNRL_TRAMP_LO := \(.*\)/\1/p' Makefile mk/*.mk):$(sed -n 's/^DYNRL_TRAMP_HI := \(.*\)/\1/p' Makefile mk/*.mk)
period5b=$(sed -n 's/^DYN5B_PERIOD := \(.*\)/\1/p' Makefile mk/*.mk)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'program\tnone_prog_cycles\trl_prog_cycles\tb5_prog_cycles\tnone_all_cycles\trl_all_cycles\tb5_all_cycles\tnone_taken\trl_taken\tb5_taken\trl_handler\tb5_handler\trl_layouts\tb5_layouts\trl_copies\tb5_copies\trl_found\trl_missed\trl_false\trl_delay\tb5_found\tb5_missed\tb5_false\tb5_delay\tb5_pairs\tb5_crossed\tboth_prog_cycles\tboth_taken\tboth_handler\tboth_traces\tevery_prog_cycles\tevery_taken\tevery_handler\tevery_traces\tstatic_prog_cycles\tstatic_taken\tstatic_layouts\ttrace_prog_cycles\ttrace_taken\ttrace_handler\ttrace_traces\trl_strict_found\trl_strict_false\tb5_strict_found\tb5_strict_false\n' >"$tsv"

pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%+.1f%%", 100 * (a - b) / b; else printf "-" }'; }
share() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f%%", 100 * a / b; else printf "-" }'; }
field() { sed -n "s/$1/\\1/p" <<<"$2" | head -1; }
get() { sed -n "s/.*\\b$1=\\([0-9]*\\).*/\\1/p" <<<"$2"; }

# run NAME ELF TAG: one run; sets ins taken pcyc handler cycles layouts copies ev (the phase score)
run() {
  local name=$1 elf=$2 tag=$3 err out truth=()
  [ "$tag" != none ] && truth=(--phase-truth="$tmp/$name.truth" --phase-window="$window")
  err=$("$sim" --taken-penalty="$penalty" --edge-map="${elf%.elf}.map" --code-cache="$cache" --trampolines="$tramp" "${truth[@]}" \
    "${extra[@]}" "$elf" 2>&1 >"$tmp/run.out") ||
    { echo "$name: the run failed ($elf)"; echo "$err" | tail -3; exit 1; }
  out=$(cat "$tmp/run.out")
  grep -q 'exact counts: 0 differences' <<<"$err" || { echo "$name: the edge profile is not exact ($elf)"; exit 1; }
  ins=$(field '.*program: \([0-9]*\) instructions outside.*' "$err") # ... the copies' share of them
  # the program up to the finish request (the firmware's report after it is not the program's)
  pins=$(field '.*up to its last ecall: \([0-9]*\) instructions.*' "$err")
  taken=$(field '.*up to its last ecall: [0-9]* instructions, \([0-9]*\) taken.*' "$err")
  [ -n "$pins" ] && [ -n "$taken" ] || { echo "$name: no finish request in the run ($elf)"; exit 1; }
  pcyc=$((pins + penalty * taken))
  cycles=$(field '.*timing: \([0-9]*\) cycles.*' "$err")
  handler=$(field '.*handler retired \([0-9]*\) instructions.*' "$out")
  handler=${handler:-0}
  layouts=$(field '.*re-layout: \([0-9]*\) layouts.*' "$out")
  layouts=${layouts:-0}
  copies=$(field '.*: \([0-9]*\) instructions retired from copies.*' "$err")
  copies=${copies:-0}
  traces=$(field '^dynopt: traces: .* \([0-9]*\) placed in the code cache.*' "$out")
  traces=${traces:-0}
  b5pairs=$(field '^dynopt: 5B: \([0-9]*\) pairs.*' "$out")
  b5crossed=$(field '^dynopt: 5B: .*, \([0-9]*\) crossings of 5B pairs.*' "$out")
  ev=""
  if [ ${#truth[@]} -gt 0 ]; then
    local title="$name: scheme 5A with re-layout" plot=dynopt-rl
    [ "$tag" = 5b ] && title="$name: scheme 5B with re-layout" plot=dynopt-5b
    ev=$("$py" "$(dirname "$0")/dynopt_eval.py" ${PLOTS:+--plot="$PLOTS/$plot-$name.png"} --title="$title" \
      "$tmp/run.out" "$tmp/$name.truth")
  fi
}

echo "== 10. Edge-driven re-layout at run time (docs/dynopt.md), both schemes side by side: the firmware (mode all)"
echo "      without re-layout (none: scheme 5A decides, nothing moves), with re-layout and scheme 5A (5A), and with"
echo "      re-layout and scheme 5B for the re-laid functions' forward branches (5B: periods of ${period5b:-?} instructions)."
echo "      Timing: 1 cycle per instruction, $penalty idle cycles per taken transfer (--taken-penalty=$penalty);"
echo "      prog-cyc = program instructions + $penalty x its taken transfers, up to the firmware's finish request (its"
echo "      report after that is not the program's). Phases against the ground truth"
echo "      (windows of $window program instructions, tools/dynopt_eval.py)"
printf '%-21s| %8s %8s | %8s %7s %7s %6s %4s %9s | %8s %7s %7s %6s %4s %9s\n' "" none "" "5A" "" "" "" "" "" "5B" "" "" "" "" ""
printf '%-21s| %8s %8s | %8s %7s %7s %6s %4s %9s | %8s %7s %7s %6s %4s %9s\n' program \
  prog-cyc handler prog-cyc vs-none handler copies lay f/m/x,dly prog-cyc vs-none handler copies lay f/m/x,dly
sums=""
both_table=""
extra=()
profile_at=$(sed -n 's/^DYNSTATIC_PROFILE_AT := \(.*\)/\1/p' Makefile mk/*.mk)
counters_at=$(sed -n 's/^#define INSTR_COUNTERS_AT (HWPROF_PLAT_RAM_BASE + \(0x[0-9a-f]*\)u).*/\1/p' sw/host/instr/instrument.h)
counters_at=$(printf "0x%x" $((0x80000000 + counters_at))) # HWPROF_PLAT_RAM_BASE + the offset
missing=()
for rl in "$build"/dynrl/*-prof.elf; do
  [ -f "$rl" ] || continue
  name=$(basename "$rl" -prof.elf)
  none="$build/dyn/$name-prof.elf"
  b5="$build/dyn5b/$name-prof.elf"
  both="$build/dynboth/$name-prof.elf"
  every="$build/dynevery/$name-prof.elf"
  static="$build/dynstatic/$name-prof.elf"
  tronly="$build/dyntrace/$name-prof.elf"
  [ -f "$none" ] && [ -f "$b5" ] && [ -f "$both" ] && [ -f "$every" ] && [ -f "$static" ] && [ -f "$tronly" ] ||
    { missing+=("$name"); continue; }
  run "$name" "$none" none
  n_pcyc=$pcyc n_cyc=$cycles n_taken=$taken n_handler=$handler
  run "$name" "$rl" rl
  r_pcyc=$pcyc r_cyc=$cycles r_taken=$taken r_handler=$handler r_lay=$layouts r_copies=$copies r_ins=$ins r_ev=$ev
  run "$name" "$b5" 5b
  b_pcyc=$pcyc b_cyc=$cycles b_taken=$taken b_handler=$handler b_lay=$layouts b_copies=$copies b_ins=$ins b_ev=$ev
  extra=(--dump="$counters_at:0x40000:$tmp/$name.prof") # the counters (and what follows them)
  run "$name" "$static" none
  grep -q 'static layout: no profile' "$tmp/run.out" || { echo "$name: the static build's first run laid something out"; exit 1; }
  extra=(--load="$profile_at:$tmp/$name.prof")
  run "$name" "$static" none
  extra=()
  s_pcyc=$pcyc s_taken=$taken s_lay=$layouts
  run "$name" "$tronly" none
  t_pcyc=$pcyc t_taken=$taken t_handler=$handler t_traces=$traces
  run "$name" "$both" none
  o_pcyc=$pcyc o_taken=$taken o_handler=$handler o_traces=$traces
  run "$name" "$every" none
  e_pcyc=$pcyc e_taken=$taken e_handler=$handler e_traces=$traces
  both_table+=$(printf '%-21s| %8s %8s | %8s %7s %7s %4s | %8s %7s %8s %6s | %8s %7s %7s %8s %6s | %8s %7s %7s %8s %6s' "$name" "$r_pcyc" "$r_handler" \
    "$s_pcyc" "$(pct "$s_pcyc" "$n_pcyc")" "$(pct "$s_pcyc" "$r_pcyc")" "$s_lay" \
    "$t_pcyc" "$(pct "$t_pcyc" "$n_pcyc")" "$t_handler" "$t_traces" \
    "$o_pcyc" "$(pct "$o_pcyc" "$n_pcyc")" "$(pct "$o_pcyc" "$r_pcyc")" "$o_handler" "$o_traces" \
    "$e_pcyc" "$(pct "$e_pcyc" "$n_pcyc")" "$(pct "$e_pcyc" "$r_pcyc")" "$e_handler" "$e_traces")$'\n'
  score() { local d; d=$(get mean_delay "$1"); echo "$(get detected "$1")/$(get missed "$1")/$(get false "$1"),$((d / 1000))k"; }
  printf '%-21s| %8s %8s | %8s %7s %7s %6s %4s %9s | %8s %7s %7s %6s %4s %9s\n' "$name" "$n_pcyc" "$n_handler" \
    "$r_pcyc" "$(pct "$r_pcyc" "$n_pcyc")" "$r_handler" "$(share "$r_copies" "$r_ins")" "$r_lay" "$(score "$r_ev")" \
    "$b_pcyc" "$(pct "$b_pcyc" "$n_pcyc")" "$b_handler" "$(share "$b_copies" "$b_ins")" "$b_lay" "$(score "$b_ev")"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" \
    "$n_pcyc" "$r_pcyc" "$b_pcyc" "$n_cyc" "$r_cyc" "$b_cyc" "$n_taken" "$r_taken" "$b_taken" "$r_handler" "$b_handler" \
    "$r_lay" "$b_lay" "$r_copies" "$b_copies" "$(get detected "$r_ev")" "$(get missed "$r_ev")" "$(get false "$r_ev")" \
    "$(get mean_delay "$r_ev")" "$(get detected "$b_ev")" "$(get missed "$b_ev")" "$(get false "$b_ev")" \
    "$(get mean_delay "$b_ev")" "${b5pairs:-0}" "${b5crossed:-0}" "$o_pcyc" "$o_taken" "$o_handler" "$o_traces" \
    "$e_pcyc" "$e_taken" "$e_handler" "$e_traces" "$s_pcyc" "$s_taken" "$s_lay" "$t_pcyc" "$t_taken" "$t_handler" \
    "$t_traces" "$(get strict_detected "$r_ev")" "$(get strict_false "$r_ev")" "$(get strict_detected "$b_ev")" \
    "$(get strict_false "$b_ev")" >>"$tsv"
done
[ "${#missing[@]}" = 0 ] ||
  echo "relayout_bench: left out ${missing[*]}: a build of theirs is missing (make bench builds build/dyn*/)"
[ "$(wc -l <"$tsv")" -gt 1 ] || { echo "relayout_bench: error: no program has every build under $build/dyn*/ (run make bench)"; exit 2; }
awk -F'\t' 'NR > 1 { rf += $17; rm += $18; rx += $19; bf += $21; bm += $22; bx += $23; rh += $11; bh += $12; rp += $3; bp += $4; np += $2
                    rsf += $42; rsx += $43; bsf += $44; bsx += $45 }
  END { if (NR > 1) printf "all programs: prog-cyc 5A %+.1f%%, 5B %+.1f%% against none; handler 5A %d, 5B %d instructions; true changes found/missed/false: 5A %d/%d/%d, 5B %d/%d/%d; strictly (within one window; every other transition and false-signal interrupt false): 5A %d/%d/%d, 5B %d/%d/%d\n",
          100 * (rp - np) / np, 100 * (bp - np) / np, rh, bh, rf, rm, rx, bf, bm, bx, rsf, rf + rm - rsf, rsx, bsf, bf + bm - bsf, bsx }' "$tsv"
echo "(vs-none: program cycles against the run without re-layout; handler: the optimizer's own instructions; copies:"
echo " the program's instructions retired from the code cache; lay: layouts placed; f/m/x,dly: the ground truth's"
echo " branch flips found / missed / false transitions, and the mean delay from the start of a change's window."
echo " Every run keeps the output and an exact edge profile. 5B: a pair's cold edge c runs a stub of two prof.id,"
echo " its hot edge decrements c's counter; its counter holds a difference since the last arming, hence the periods.)"
echo
echo "   The offline bound, run (static: every function laid out once at start by the whole run's profile, recorded"
echo "   by an earlier run of the same program; docs/dynopt.md, \"The static layout, run\"), the trace-driven optimizer"
echo "   alone with its cost model (traces), and both optimizers in one program (\"One code cache for both"
echo "   optimizers\"): 5A with re-layout and the trace-driven optimizer sharing the code cache, with its cost model"
echo "   (both) and placing every hot trace (every). vs-none / vs-5A: program cycles against the runs above; lay:"
echo "   functions laid out; traces: hot traces placed in the cache."
printf '%-21s| %8s %8s | %8s %7s %7s %4s | %8s %7s %8s %6s | %8s %7s %7s %8s %6s | %8s %7s %7s %8s %6s\n' "" "5A" "" static \
  "" "" "" traces "" "" "" both "" "" "" "" every "" "" "" ""
printf '%-21s| %8s %8s | %8s %7s %7s %4s | %8s %7s %8s %6s | %8s %7s %7s %8s %6s | %8s %7s %7s %8s %6s\n' program prog-cyc \
  handler prog-cyc vs-none vs-5A lay prog-cyc vs-none handler traces prog-cyc vs-none vs-5A handler traces prog-cyc \
  vs-none vs-5A handler traces
printf '%s' "$both_table"
awk -F'\t' 'NR > 1 { np += $2; rp += $3; op += $27; ep += $31; sp += $35; tp += $38; rh += $11; oh += $29; eh += $33; th += $40; ot += $30; et += $34; tt += $41 }
  END { if (NR > 1) printf "all programs: prog-cyc against none: 5A %+.1f%%, static %+.1f%%, traces %+.1f%%, both %+.1f%%, every %+.1f%%; against 5A: static %+.1f%%, both %+.1f%%, every %+.1f%%; handler 5A %d, traces %d, both %d, every %d instructions; traces placed: traces %d, both %d, every %d\n",
          100 * (rp - np) / np, 100 * (sp - np) / np, 100 * (tp - np) / np, 100 * (op - np) / np, 100 * (ep - np) / np, 100 * (sp - rp) / rp, 100 * (op - rp) / rp, 100 * (ep - rp) / rp, rh, th, oh, eh, tt, ot, et }' "$tsv"
