# The block benches' checks of make test (tb/: each RTL block against its C model every cycle),
# sourced by tools/runtests.sh, whose check(), $build, $logdir, $tb, $tb_small, $tb_large, $seeds,
# $per_seed and $counts_events they use: the primitives, hwprof_top's directed scenarios and random
# streams in every configuration, resets mid-traffic, exact counts after a flush, a fault caught, bad
# arguments refused (the summary adds up the random seeds' cycles from their logs).

# --- the primitives' lockstep unit benches (rtl/prim/ against cmodel/prim/): directed outcomes
#     worked out by hand, and a random stream, in two or more configurations each
# (bench directory:Verilated top; the random runs are 500,000 cycles for the FIFO, 300,000 otherwise)
for b in prim_fifo:fifo prim_fifo_d1:fifo prim_ring:fifo prim_ring_d1:fifo prim_counters:counters \
         prim_counters_w3:counters prim_regfile:regfile prim_regfile_n1:regfile; do
  p=${b%%:*}
  bin="$build/tb_$p/Vhwprof_prim_${b#*:}"
  cycles=300000
  [ "${b#*:}" = fifo ] && cycles=500000
  check "lockstep-$p-directed" "$bin" --test=directed --cycles=1000
  check "lockstep-$p-random" "$bin" --seed=1 --cycles=$cycles
done

# the RVFI adapter (rtl/core/ against cmodel/core/, docs/picorv32.md): records worked out by hand,
# and a random core's fetches and records (every instruction class, shadow words of every kind,
# hwprof's ready random)
check lockstep-rvfi-adapter-directed "$build/tb_rvfi_adapter/Vhwprof_rvfi_adapter" --test=directed --cycles=1000
check lockstep-rvfi-adapter-random "$build/tb_rvfi_adapter/Vhwprof_rvfi_adapter" --seed=1 --cycles=500000

check lockstep-directed "$tb" --test=directed --cycles=20000
check lockstep-directed-small-cache "$tb_small" --test=directed --cycles=20000
check lockstep-directed-large-cache "$tb_large" --test=directed --cycles=20000
# (the random runs below and above give --require-coverage: each of the bench's 27 functional
# coverage points, tb/top/func_cover.h, must be reached, or the run fails)
# the counter widths and cache shapes the other benches do not cover: CntW 8 (c8), 16 with 8 ways
# and 8-counter lines (c16), 64 with 8-counter lines (c64); the same directed scenarios (their
# addresses, values and OAB overrun follow the configuration) and 1 M random cycles each
for c in c8 c16 c64; do
  check "lockstep-directed-$c" "$build/tb_$c/Vhwprof_top" --test=directed --cycles=20000
done
# the reset asserted in the middle of traffic (events, register traffic, a read in flight): the RTL
# and the model must come out of it equal, every flop reset (with the reset of the trace controller's
# sampling counter removed, seeds 1 and 2 mismatch at cycles 90,014 and 16,104; without resets in
# the stream they run 300 k cycles clean)
check lockstep-reset-mid-traffic "$tb" --seed=41 --cycles=1000000 --reset-every=20000 --quiet
check lockstep-reset-mid-traffic-program-small "$tb_small" --test=program --seed=42 --cycles=500000 --reset-every=7000 --quiet
check lockstep-random-c8 "$build/tb_c8/Vhwprof_top" --seed=31 --cycles=1000000 --mem-latency=1:12 --require-coverage --quiet
check lockstep-random-c16 "$build/tb_c16/Vhwprof_top" --seed=32 --cycles=1000000 --mem-latency=1:4 --mem-grant=50 --require-coverage --quiet
check lockstep-random-c64 "$build/tb_c64/Vhwprof_top" --seed=33 --cycles=1000000 --require-coverage --quiet

lockstep_random() {
  local seed=$1 out
  out=$("$tb" --seed="$seed" --cycles="$per_seed" --require-coverage)
  local rc=$?
  echo "$out"
  [ "$rc" = 0 ] && grep -q " 0 mismatches" <<<"$out"
}
for s in $seeds; do
  check "lockstep-random-seed$s" lockstep_random "$s"
done
# the C model's shortcuts (docs/architecture.md: hwprof_top_cycle's plain and lean cycles) were
# compared with the RTL: each of tb_top's shortcut points is reached over the seeds above
model_shortcuts() {
  local p n rc=0
  for p in "plain model cycle" "plain cycle again" "plain cycle while tracing" \
    "plain cycle, edge unit waiting" "lean model cycle" "lean cycle with a miss" "lean cycle with a stall" \
    "update arriving in a refill wait" "pir update only" "update stage alone" \
    "refill alone"; do
    n=0
    for s in $seeds; do
      n=$((n + $(grep -o "$p [0-9]*" "$logdir/lockstep-random-seed$s.log" | grep -o '[0-9]*$' || echo 0)))
    done
    echo "$p: $n cycles over seeds $seeds"
    [ "$n" -gt 0 ] || rc=1
  done
  return $rc
}
check lockstep-model-shortcuts-compared model_shortcuts
for c in top small large; do
  check "lockstep-program-$c" "$build/tb_$c/Vhwprof_top" --test=program --seed=31 --cycles=1000000 --quiet
done
check lockstep-random-small-cache "$tb_small" --seed=11 --cycles=2000000 --mem-latency=1:20 --mem-grant=40 --require-coverage --quiet

# random initial values (the xinit bench, built with --x-initial unique): from several seeds every
# register and array of the RTL starts random, the C model at zero; the reset must make them agree
# (a register whose reset is removed shows as a mismatch within a few hundred cycles for most seeds)
random_initial_values() {
  local s out rc=0
  for s in 1 2 3 4 5 6; do
    out=$(HWPROF_RAND_RESET=$s "$build/tb_xinit/Vhwprof_top" --seed="$s" --cycles=300000 --quiet 2>&1)
    echo "initial values from seed $s, random stream: $out"
    grep -q " 0 mismatches" <<<"$out" || rc=1
    out=$(HWPROF_RAND_RESET=$s "$build/tb_xinit/Vhwprof_top" --test=directed --cycles=20000 2>&1 | tail -1)
    echo "initial values from seed $s, directed scenarios: $out"
    grep -q " 0 mismatches" <<<"$out" || rc=1
  done
  return $rc
}
check lockstep-random-initial-values random_initial_values
check lockstep-random-large-cache "$tb_large" --seed=12 --cycles=2000000 --mem-latency=1:3 --mem-grant=100 --require-coverage --quiet

# --- after a flush every counter in memory equals the count computed independently from the
#     event stream, for at least COUNTS_EVENTS events on a small cache (many evictions)
counts_exact() {
  local bin=$1 cycles=$2 min_events=$3 seed=$4 out rc ev
  shift 4
  out=$("$bin" --test=counts --seed="$seed" --cycles="$cycles" "$@")
  rc=$?
  echo "$out"
  [ "$rc" = 0 ] || return 1
  ev=$(sed -n 's/.*retire events accepted \([0-9]*\).*/\1/p' <<<"$out")
  echo "events: $ev (need $min_events)"
  [ "${ev:-0}" -ge "$min_events" ]
}
check counts-exact-after-flush-small-cache counts_exact "$tb_small" $((counts_events * 4)) "$counts_events" 21 \
  --mem-latency=1:8 --mem-grant=70
check counts-exact-after-flush-default-cache counts_exact "$tb" 3000000 300000 22 --mem-latency=2:30 --mem-grant=50

# --- a deliberate RTL/C-model difference must fail the bench with a report naming cycle and signal
inject_is_caught() {
  local fst="$logdir/inject.fst" out rc
  rm -f "$fst"
  out=$("$tb" --seed=1 --cycles=200000 --inject=1000 --fst="$fst")
  rc=$?
  echo "$out"
  [ "$rc" = 1 ] || { echo "expected exit 1, got $rc"; return 1; }
  grep -Eq "MISMATCH at cycle [0-9]+: signal [a-z_]+_o: C model 0x[0-9a-f]+, RTL 0x[0-9a-f]+" <<<"$out" ||
    { echo "no mismatch report"; return 1; }
  [ -s "$fst" ] || { echo "no waveform at $fst"; return 1; }
}
check lockstep-inject-fault-is-caught inject_is_caught

# --- bad bench arguments: one clear error naming the argument, exit 2
bad_args_rejected() {
  local a out rc
  for a in --cycles=abc --seed=-1 --test=nope --inject= --frobnicate --mem-latency=0:3 --mem-grant=101; do
    out=$("$tb" "$a" 2>&1)
    rc=$?
    echo "$a -> $rc: $out"
    [ "$rc" = 2 ] && grep -q "argument '$a'" <<<"$out" || return 1
  done
}
check bench-rejects-bad-arguments bad_args_rejected

# --- the campaign on Dask distributed (tools/campaign.py, tools/job_pool.py): a small campaign (the
#     random benches only, 3 M cycles in jobs of 100,000) runs twice on a local cluster of two
#     workers; in the second, one busy worker's process is killed (SIGKILL) once 5 results are in.
#     Both must record every planned job exactly once, every one passing, and give the same table
#     (the core-seconds aside)
campaign_dask() {
  local py="$build/venv/bin/python" d out jobs kill
  "$py" -c "import distributed" 2>/dev/null || { echo "Dask distributed is not in $build/venv (make deps)"; return 1; }
  for d in clean killed; do
    kill=0
    [ $d = killed ] && kill=5
    rm -rf "$logdir/campaign-$d"
    export CAMPAIGN_DIR="$logdir/campaign-$d" CAMPAIGN_SYSTEM=0 CAMPAIGN_CYCLES=3e6 CAMPAIGN_JOB_CYCLES=1e5 CAMPAIGN_SEED=5000 \
      JOBS=2
    jobs=$("$py" tools/campaign.py "$build" --plan 2>/dev/null | wc -l)
    out=$(DASK_KILL_AFTER=$kill "$py" tools/campaign.py "$build" 2>&1) || { echo "$d: the campaign failed:"; tail -5 <<<"$out"; return 1; }
    grep -E "killed worker|no busy worker" <<<"$out"
    [ $d = clean ] || grep -q "killed worker" <<<"$out" || { echo "killed: no worker was killed"; return 1; }
    cut -f1 "$CAMPAIGN_DIR/results-seed5000.tsv" | sort | uniq -d | sed 's/^/recorded twice: /' | grep . && return 1
    [ "$(wc -l <"$CAMPAIGN_DIR/results-seed5000.tsv")" = "$jobs" ] || { echo "$d: $jobs jobs planned, $(wc -l <"$CAMPAIGN_DIR/results-seed5000.tsv") recorded"; return 1; }
    "$py" tools/campaign.py "$build" --report 2>/dev/null | awk '{ $NF = ""; print }' >"$logdir/campaign-$d.table" || return 1
    echo "$d: $jobs jobs, each recorded once; $(tail -1 "$logdir/campaign-$d.table")"
  done
  unset CAMPAIGN_DIR CAMPAIGN_SYSTEM CAMPAIGN_CYCLES CAMPAIGN_JOB_CYCLES CAMPAIGN_SEED JOBS
  diff "$logdir/campaign-clean.table" "$logdir/campaign-killed.table" && echo "the same table with a worker killed"
}
check campaign-dask-worker-killed-same-table campaign_dask
