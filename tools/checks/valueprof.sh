# The value profiler's checks of make test (docs/cop.md, docs/vpf.md), sourced by
# tools/runtests.sh, whose check(), sc_runs(), $build, $logdir, $par, $sc and $prof_workloads they use:
# the co-processor's tools, the load-value program, the co-processor's and the front end's lockstep
# benches, the runtime on the simulated CPU, load-value profiling end to end, bad input refused.

# the co-processor's assembler, disassembler and interpreter (sw/host/cop/, docs/cop.md) used as a
# user would, under ASan/UBSan: the example assembles, disassembles to text that reassembles to the
# same image, embeds as a C initializer that builds for the RV32 target, and runs on its sample file
# with the table worked out by hand (sw/fw/cop/examples/pc_count.samples: 0x80000100 seen 3 times,
# seven other PCs once each; the eighth PC fills the 8-slot table, the interrupt at sample 10 after
# 3+3+2+3+2 + 4 x 3 + 3 = 28 microinstructions); bad input gets one message and a non-zero exit
cpasm="$build/unit/hwprof-cpasm-asan"
cpasm_cli() {
  local d="$logdir/cpasm" out rc
  mkdir -p "$d"
  "$cpasm" sw/fw/cop/examples/pc_count.s -o "$d/pc.cop" || return 1
  "$cpasm" -d "$d/pc.cop" -o "$d/pc.s" && "$cpasm" "$d/pc.s" -o "$d/pc2.cop" && cmp "$d/pc.cop" "$d/pc2.cop" || return 1
  echo "disassembly reassembles to the same image"
  "$cpasm" --c pc_count_image sw/fw/cop/examples/pc_count.s -o "$d/pc.c" &&
    ${RV32_CC:-riscv64-unknown-elf-gcc} --specs=picolibc.specs -march=rv32im -mabi=ilp32 -std=c11 -Wall -Wextra -Werror \
      -Isw/include -c "$d/pc.c" -o "$d/pc.o" || return 1
  echo "C initializer builds for RV32"
  out=$("$cpasm" --run --stop-at-intr "$d/pc.cop" sw/fw/cop/examples/pc_count.samples) || return 1
  echo "$out"
  grep -qx 'interrupt: sample 10 (line 13), at microinstruction 4' <<<"$out" &&
    grep -qx 'samples 10, microinstructions 28, interrupts 1' <<<"$out" &&
    grep -qx 'cam 0 0x80000100' <<<"$out" && grep -qx 'cam 7 0x80000210' <<<"$out" &&
    grep -qx 'data 0x000 0x00010003' <<<"$out" && grep -qx 'data 0x00c 0x00010001' <<<"$out" &&
    [ "$(grep -c '^cam ' <<<"$out")" = 8 ] && [ "$(grep -c '^data ' <<<"$out")" = 4 ] || return 1
  printf 'hwprof-samples 1\nload 0x100 0x104 0 0 1\nload 1 2\nend 2\n' >"$d/bad.samples"
  out=$("$cpasm" --run "$d/pc.cop" "$d/bad.samples" 2>&1 >/dev/null); rc=$?
  echo "bad sample file -> $rc: $out"
  [ "$rc" = 1 ] && grep -q "bad.samples:3: not a sample" <<<"$out" || return 1
  head -n 8 sw/fw/cop/examples/pc_count.samples >"$d/cut.samples"   # cut short: no end record
  out=$("$cpasm" --run "$d/pc.cop" "$d/cut.samples" 2>&1 >/dev/null); rc=$?
  echo "sample file cut short -> $rc: $out"
  [ "$rc" = 1 ] && grep -q "cut.samples: truncated: no end record" <<<"$out" || return 1
  tail -n +4 sw/fw/cop/examples/pc_count.samples >"$d/nohead.samples"   # no header
  out=$("$cpasm" --run "$d/pc.cop" "$d/nohead.samples" 2>&1 >/dev/null); rc=$?
  echo "sample file without its header -> $rc: $out"
  [ "$rc" = 1 ] && grep -q "nohead.samples:1: not a sample file" <<<"$out" || return 1
  printf '.dispatch load, a\na: add v0, v1\n' >"$d/bad.s"
  out=$("$cpasm" "$d/bad.s" -o "$d/bad.cop" 2>&1); rc=$?
  echo "bad source -> $rc: $out"
  [ "$rc" = 1 ] && grep -q "bad.s:2:4: error: 'add' takes 3 operands" <<<"$out" && [ ! -e "$d/bad.cop" ] || return 1
  out=$("$cpasm" -d sw/fw/cop/examples/pc_count.s 2>&1); rc=$?
  echo "source given as an image -> $rc: $out"
  [ "$rc" = 1 ] && grep -q "pc_count.s:6: not a co-processor image" <<<"$out" || return 1
  out=$("$cpasm" --run "$d/pc.cop" 2>&1); rc=$?
  [ "$rc" = 2 ] && grep -q "^usage:" <<<"$out"
}
check cpasm-cli cpasm_cli

# --- the load-value profiling program (sw/fw/cop/valueprof.s, seed 001 Figure 10) on the instruction-
#     level interpreter: a directed stream whose final slots were worked out by hand from the
#     algorithm's rules (docs/vpf.md: replacement M and failure K with the LFSR's first seven
#     numbers 1 0 8 12 14 7 3, a hit, misses under 20%, re-selection H, the 16-sample rule I,
#     hit-counter and miss-counter saturation F, the interval interrupt at record 65,536 (that
#     record is not processed), total saturation), then random, thrashing and
#     glacial streams against the slot-level reference tb/oracle/valueprof_ref.py (written from the
#     rules, not the microcode), state and interrupts line for line
valueprof_program() {
  local d="$logdir/valueprof" ref=tb/oracle/valueprof_ref.py out k
  mkdir -p "$d"
  "$cpasm" sw/fw/cop/valueprof.s -o "$d/vp.cop" || return 1
  awk 'function s(pc, v) { printf "load 0x%08x 0 0 0 0x%08x\n", pc, v; n++ }
       BEGIN { print "hwprof-samples 1"; A = 2147483904; B = A + 4; C = A + 8; D = A + 12; E = A + 16   # A = 0x80000100
               s(A, 5); s(B, 7); s(B, 7); s(A, 5); s(A, 6)          # M K M hit miss
               for (k = 0; k < 8; k++) s(A, 6)                     # misses 9 > 4 x 2: H (11 < 16)
               for (k = 0; k < 15; k++) s(A, 6)                    # hits 16
               for (k = 0; k < 65; k++) s(A, 9)                    # the 9th miss: 16 < 2 x 9, below 2/3
                                                                   # over 25 >= 16: off (T); this record
                                                                   # starts over: M in slot 3
               s(A, 9); s(C, 1)                                    # A hits 58 in slot 3; C in slot 4
               for (k = 0; k < 254; k++) s(C, 1)                   # hits 255: F, off
               s(E, 1); for (k = 0; k < 63; k++) s(E, 1)           # slot 5: hits 64
               for (k = 0; k < 255; k++) s(E, 2)                   # the 33rd miss: 64 < 66: off (T); E
                                                                   # starts over in slot 6 with 2
               s(D, 0); for (k = 1; k <= 65534; k++) s(D, k)       # slot 7 (record 65536: the interval
               s(D, 1); print "end " n }' >"$d/directed.samples"   # interrupt), then total 65535: off
  printf '%s\n' 'interrupt 65536 interval' 'rslot 8 failed 0 replacements 7 lfsr 0xc2c4' \
    'slot 0 off value 0x00000006 hits 16 misses 9 total 35' \
    'slot 2 0x80000104 value 0x00000007 hits 1 misses 0 total 1' \
    'slot 3 0x80000100 value 0x00000009 hits 58 misses 0 total 58' \
    'slot 4 off value 0x00000001 hits 255 misses 0 total 255' \
    'slot 5 off value 0x00000001 hits 64 misses 33 total 97' \
    'slot 6 0x80000110 value 0x00000002 hits 223 misses 0 total 223' \
    'slot 7 off value 0x0000fffb hits 1 misses 3 total 65535' >"$d/directed.expected"
  out=$("$cpasm" --run "$d/vp.cop" "$d/directed.samples" | python3 "$ref" decode sw/fw/cop/valueprof.s) || return 1
  echo "$out"
  diff "$d/directed.expected" - <<<"$out" || return 1
  echo "directed stream: the slots worked out by hand"
  python3 "$ref" run "$d/directed.samples" | diff "$d/directed.expected" - || return 1
  echo "the reference gives the same"
  for k in "random 1 30000" "random 2 70000" "thrash 1 6000" "glacial 1 30000"; do
    python3 "$ref" gen $k >"$d/s.samples"
    python3 "$ref" run "$d/s.samples" >"$d/ref.txt"
    "$cpasm" --run "$d/vp.cop" "$d/s.samples" | python3 "$ref" decode sw/fw/cop/valueprof.s >"$d/int.txt"
    diff "$d/ref.txt" "$d/int.txt" >"$d/diff.txt" || { echo "$k: the program and the reference differ:"; head -20 "$d/diff.txt"; return 1; }
    echo "$k: equal ($(grep -c '^slot' "$d/ref.txt") slots, $(grep -c '^interrupt' "$d/ref.txt") interrupts:" \
      "$(grep -c 'failed$' "$d/ref.txt") failed, $(grep -c 'thrash$' "$d/ref.txt") thrash; $(grep -c ' off ' "$d/ref.txt") turned off)"
  done
  # the comparison can fail: a reference with the 20% threshold moved to 25% must differ
  sed 's/5 \* self.hits\[m\] >= /4 * self.hits[m] >= /' "$ref" >"$d/ref_mutant.py"
  python3 "$d/ref_mutant.py" run "$d/directed.samples" | diff -q "$d/directed.expected" - >/dev/null && return 1
  echo "a reference with the threshold at 25% is told apart"
  sed 's/3 \* self.hits\[m\] >= 2 \* seen/3 * self.hits[m] >= seen/' "$ref" >"$d/ref_mutant2.py"
  python3 "$d/ref_mutant2.py" run "$d/directed.samples" | diff -q "$d/directed.expected" - >/dev/null && return 1
  echo "a reference that keeps values down to 1/3 instead of 2/3 is told apart"
}
check valueprof-program valueprof_program

# --- the co-processor engine (rtl/cop/hwprof_cop.sv against cmodel/cop/cop.c every cycle, and against the
#     instruction-level interpreter sw/host/cop/cop_interp.c after every record): the timing and the
#     host window worked out by hand (the timing also with the engine at a quarter of the system
#     clock), then random programs generated from the format description (re-armed now and then at
#     another clock ratio), in the default configuration (Table 1's sizes), a small one (UcDepth 8,
#     4 CAM entries, 32 data bytes: wrapping addresses) and the largest (512 CAM entries, 4 KB: seed
#     001's double arrays); 4 seeds x 1.5 M cycles each, 18 M cycles in all; and the engine kept busy
#     (a record every cycle it can take one, re-armed at each interrupt) 1 M cycles, with a counting
#     routine and with the load-value profiling program
cop_cycles=${COP_CYCLES:-1500000}
for p in cop cop_small cop_big; do
  bin="$build/tb_$p/Vhwprof_cop"
  check "lockstep-$p-timing" "$bin" --test=timing --cycles=10000
  check "lockstep-$p-timing-clock" "$bin" --test=timing-clock --cycles=10000
  check "lockstep-$p-host" "$bin" --test=host --cycles=10000
  check "lockstep-$p-busy" "$bin" --test=busy --seed=1 --cycles=1000000
  for s in 1 2 3 4; do
    check "lockstep-$p-random-seed$s" "$bin" --test=random --seed=$s --cycles=$cop_cycles
  done
done
# sw/fw/cop/valueprof.s (Table 1's sizes only) kept busy on the cycle model, checked every record
check "lockstep-cop-valueprof" "$build/tb_cop/Vhwprof_cop" --test=valueprof --seed=1 --cycles=1000000

# --- the value-profiling front end (rtl/vpf/hwprof_vpf.sv + rtl/vpf/hwprof_sbuf.sv against cmodel/vpf/vpf.c
#     every cycle, and against the bench's record-level reference written from docs/cop.md):
#     directed outcomes worked out by hand, then 1 M random cycles per configuration
for p in vpf vpf_small; do
  bin="$build/tb_$p/Vhwprof_vpf"
  check "lockstep-$p-directed" "$bin" --test=directed --cycles=10000
  check "lockstep-$p-random" "$bin" --test=random --seed=1 --cycles=1000000
done

# --- value profiling on the simulated CPU: every workload with the runtime sw/fw/rt/cop_rt.c (the
#     co-processor runs sw/fw/cop/examples/load_count.s on every load; the firmware, built with the
#     driver sw/fw/drivers/hwprof_cop.c, is its interrupt handler), on the C-only platform: the program's own
#     self-check passes and the firmware's accounting is exact (every record the front end wrote was
#     processed and counted once; every passing load was written or dropped), and its per-PC counts
#     (cop-profile.txt) agree with the independent count of hwprof-sim --cop-check (tb/check/cop_check.c:
#     the filter and prescaler rules of docs/cop.md applied to the retire stream). A profile with
#     one count changed must be caught. Then two of them in the SystemC platform with the RTL and the
#     C model in lockstep (a real record stream through the new RTL, the engine busy, interrupts
#     taken and re-armed by firmware)
cop_firmware_on_workloads() {
  local elf w out rc=0 dir
  dir=$(mktemp -d)
  for elf in "$build"/workloads/*-cop.elf; do
    w=$(basename "$elf" -cop.elf)
    rm -f "$dir/cop-profile.txt"
    out=$("$build/sim/hwprof-sim" --out-dir="$dir" --cop-check="$dir/cop-profile.txt" "$elf" 2>&1)
    echo "$w: $(grep -o 'prescale.*' <<<"$out" | head -1)"
    echo "$w: $(grep -o 'cop check:.*' <<<"$out" | tail -1)"
    grep -q 'exit code 0' <<<"$out" && grep -q 'accounting exact' <<<"$out" && grep -q 'totals agree, 0 PCs differ' <<<"$out" ||
      { echo "$out" | tail -4; rc=1; }
  done
  # the check must catch a count the firmware got wrong
  awk 'NR == 3 { $2 = $2 + 1 } { print }' "$dir/cop-profile.txt" >"$dir/tampered.txt"
  mkdir -p "$dir/run"
  out=$("$build/sim/hwprof-sim" --out-dir="$dir/run" --cop-check="$dir/tampered.txt" "$elf" 2>&1) && rc=1
  echo "tampered: $(grep -o 'cop check:.*' <<<"$out" | tail -1)"
  grep -q 'TOTALS DIFFER' <<<"$out" || rc=1
  rm -rf "$dir"
  return $rc
}
check cop-firmware-on-workloads cop_firmware_on_workloads
cop_firmware_sc_lockstep() {
  local w out rc=0
  for w in lz hashtab; do
    out=$("$sc" --engine=lockstep "$build/workloads/$w-cop.elf" 2>&1)
    echo "$w: $(grep -o 'lockstep:.*mismatches' <<<"$out"); $(grep -o 'accounting exact.*' <<<"$out")"
    grep -q ' 0 mismatches' <<<"$out" && grep -q 'accounting exact' <<<"$out" || { echo "$out" | tail -5; rc=1; }
  done
  return $rc
}
check cop-firmware-sc-lockstep cop_firmware_sc_lockstep

# --- load-value profiling end to end (docs/vpf.md): every program with the runtime
#     sw/fw/rt/vp_rt.c (sw/fw/cop/valueprof.s on the co-processor) and with the simple-sampling baseline
#     (sw/fw/rt/ss_rt.c), on the C-only platform; hwprof-sim --value-truth counts the exact profile
#     from the retire stream and hwprof-vpeval (ASan/UBSan build) measures each profile against it.
#     The programs and their self-checks pass, the firmware reports no error, and on vp_known (load
#     values known by construction) every value of at least 25% is estimated within 0.05 of the
#     truth. Then vp_known in the SystemC platform with the RTL and the C model in lockstep.
vpeval="$build/unit/hwprof-vpeval-asan"
valueprof_on_programs() {
  local elf w kind out rc=0 dir f
  dir=$(mktemp -d)
  for kind in vp ss; do
    for elf in "$build"/workloads/*-$kind.elf; do
      w=$(basename "$elf" -$kind.elf)
      rm -f "$dir"/*.txt
      out=$("$build/sim/hwprof-sim" --out-dir="$dir" --value-truth="$dir/truth.txt" "$elf" 2>&1)
      f="$dir/vp-profile.txt"
      [ $kind = ss ] && f="$dir/vp-samples.txt"
      if ! grep -q 'exit code 0' <<<"$out" || grep -q 'firmware: FAILED' <<<"$out" || [ ! -f "$f" ]; then
        echo "$w ($kind):"; echo "$out" | tail -5; rc=1; continue
      fi
      on=$(sed -n 's/^value truth: coverage: \([0-9.]*%\) of the program.s loads up to.*/\1/p' <<<"$out")
      out=$("$vpeval" --truth="$dir/truth.txt" "$f" --pairs="$dir/pairs.txt" 2>&1) || { echo "$out"; rc=1; continue; }
      echo "$w ($kind): $(head -1 <<<"${out#*: }")"
      echo "  coverage: $on of the program's loads up to the last time sampling went off retired while it was on; ${out##*coverage: the }"
      if [ "$w" = vp_known ] && [ $kind = vp ]; then
        awk 'NR > 1 { n++; d = $6 - $5; if (d < 0) d = -d; if (d > 0.05) { print "  off by more than 0.05:", $0; bad = 1 } }
             END { if (n != 5) { print "  expected the 5 pairs of vp_known, got", n; bad = 1 } exit bad }' "$dir/pairs.txt" || rc=1
      fi
    done
  done
  rm -rf "$dir"
  return $rc
}
check valueprof-on-programs valueprof_on_programs
valueprof_sc_lockstep() {
  local out
  out=$("$sc" --engine=lockstep "$build/workloads/vp_known-vp.elf" 2>&1)
  echo "$(grep -o 'lockstep:.*mismatches' <<<"$out")"
  grep -q ' 0 mismatches' <<<"$out" && grep -q 'exit code 0\|exit 0' <<<"$out" || { echo "$out" | tail -8; return 1; }
}
check valueprof-sc-lockstep valueprof_sc_lockstep

# hwprof-vpeval (ASan/UBSan build) on malformed files (a file without its end record, or with a line
# after it, included): one message naming the file and line, exit 1; bad arguments: exit 2
vpeval_bad_input_rejected() {
  local d out rc f
  d=$(mktemp -d)
  printf '# hwprof-value-truth 2\n0x80000000 10 0x1:5\nend 1\n' >"$d/truth.txt"
  printf 'junk\n' >"$d/header.txt"
  printf '# hwprof-vp-profile 2\nvalue 0x1 2 3\nend 1\n' >"$d/orphan.txt"
  printf '# hwprof-vp-profile 2\nload 0x80000000 3 1 0\nvalue 0x1 2 3\nend 1\n' >"$d/overcount.txt"
  printf '# hwprof-vp-samples 2\n0x80000000 zz 3\nend 1\n' >"$d/samples.txt"
  printf '# hwprof-vp-profile 2\nsnapshot 10 1\nload 0x80000000 3 1 0\n' >"$d/noend.txt"
  printf '# hwprof-vp-profile 2\nsnapshot 10 1\nend 1\nsnapshot 20 1\n' >"$d/after.txt"
  printf '# hwprof-value-truth 2\n0x80000000 10 0x1:50\nend 1\n' >"$d/truth_bad.txt"
  for f in header:1 orphan:2 overcount:2 samples:2 noend:3 after:4; do
    out=$("$vpeval" --truth="$d/truth.txt" "$d/${f%:*}.txt" 2>&1)
    rc=$?
    echo "${f%:*} -> $rc: $out"
    [ "$rc" = 1 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q "error: $d/${f%:*}.txt:${f#*:}:" <<<"$out" || { rm -rf "$d"; return 1; }
  done
  head -2 "$d/truth.txt" >"$d/truth_cut.txt"
  out=$("$vpeval" --truth="$d/truth_cut.txt" "$d/overcount.txt" 2>&1)
  rc=$?
  echo "truth_cut -> $rc: $out"
  [ "$rc" = 1 ] && grep -q "error: $d/truth_cut.txt:2: truncated: no end record" <<<"$out" || { rm -rf "$d"; return 1; }
  out=$("$vpeval" --truth="$d/truth_bad.txt" "$d/overcount.txt" 2>&1)
  rc=$?
  echo "truth_bad -> $rc: $out"
  [ "$rc" = 1 ] && grep -q "error: $d/truth_bad.txt:2:" <<<"$out" || { rm -rf "$d"; return 1; }
  out=$("$vpeval" --frobnicate 2>&1)
  rc=$?
  echo "--frobnicate -> $rc: $out"
  rm -rf "$d"
  [ "$rc" = 2 ] && grep -q "'--frobnicate'" <<<"$out"
}
check vpeval-rejects-bad-input vpeval_bad_input_rejected

# hwprof-vpeval's two errors on a run worked out by hand (docs/vpf.md, "Evaluation"). Load A ran
# 1,000 times (value 1: 600, value 2: 300, value 3: 100), load B 300 times (values 8 and 9: 150
# each); the samples estimate A's values at 3/4 and 1/4 and B's value 9 at 1, value 8 not found.
# Seed 001's pairs: A/1 and A/2 only (B's values have fewer than 200 instances, A/3 is 10%):
# sqrt((600 x 0.15^2 + 300 x 0.05^2) / 900) = 0.1258. Load-weighted: A/1, A/2 (weight 1,000) and
# B/8, B/9 (weight 300, both off by 0.5): sqrt((1000 x 0.0225 + 1000 x 0.0025 + 2 x 300 x 0.25) /
# 2600) = 0.2594.
vpeval_metric_hand_worked() {
  local d out
  d=$(mktemp -d)
  printf '# hwprof-value-truth 2\n0x80000000 1000 0x1:600 0x2:300 0x3:100\n0x80000010 300 0x9:150 0x8:150\nend 2\n' >"$d/truth.txt"
  printf '# hwprof-vp-samples 2\n0x80000000 0x1 3\n0x80000000 0x2 1\n0x80000010 0x9 1\nend 1\n' >"$d/samples.txt"
  out=$("$vpeval" --truth="$d/truth.txt" "$d/samples.txt" 2>&1)
  echo "$out"
  rm -rf "$d"
  grep -q ': 2 pairs counted .*, 2 found; .* invariance 0.1258$' <<<"$out" &&
    grep -q 'load-weighted: 4 pairs counted .*, 3 found; .* instances 0.2594$' <<<"$out"
}
check vpeval-metric-hand-worked vpeval_metric_hand_worked

# hwprof-sim --set (the runtimes' run-time settings, docs/tools.md): simple sampling of one load in 1000
# from the first passing load samples ceil(passed / 1000) loads; with the prescaler's first count at
# 1000 (ss_phase), floor(passed / 1000); profiling off runs the program alone. A symbol the program lacks,
# one in .bss (the start-up code would clear it) and a value of 2^32 are refused: one line, exit 2. A
# setting the firmware refuses (vp_mask_agree=3), and a build whose data array is too small for its
# slots (512 CAM entries, 2 KB), stop the value profiler's runtime: one FAILED line naming what to
# check, exit 90. The value profiler's settings that are 0 by default are in .data: the
# time-weighted profile (vp_extrapolate=1) credits masked loads.
sim_set_settings() {
  local elf="$build/workloads/vp_known-ss.elf" out passed sampled rc a
  for a in "0:c" "1000:f"; do
    out=$("$build/sim/hwprof-sim" --set=ss_prescale=1000 --set=ss_phase=${a%:*} "$elf" 2>&1)
    passed=$(sed -n 's/.*: \([0-9]*\) loads passed the filters, \([0-9]*\) sampled.*/\1/p' <<<"$out")
    sampled=$(sed -n 's/.*: \([0-9]*\) loads passed the filters, \([0-9]*\) sampled.*/\2/p' <<<"$out")
    echo "ss_phase=${a%:*}: $passed passed, $sampled sampled"
    [ -n "$passed" ] && grep -q "one load in 1000" <<<"$out" || return 1
    if [ "${a#*:}" = c ]; then [ "$sampled" = $(((passed + 999) / 1000)) ] || return 1
    else [ "$sampled" = $((passed / 1000)) ] || return 1; fi
  done
  out=$("$build/sim/hwprof-sim" --set=ss_on=0 "$elf" 2>&1)
  grep -q "ss firmware: off" <<<"$out" && grep -q "exit code 0" <<<"$out" || { echo "$out"; return 1; }
  for a in "--set=no_such=1:no such symbol" "--set=pairs=1:no initial value" "--set=ss_prescale=0x100000000:expects SYMBOL=VALUE"; do
    out=$("$build/sim/hwprof-sim" "${a%%:*}" "$elf" 2>&1)
    rc=$?
    echo "${a%%:*} -> $rc: $out"
    [ "$rc" = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q "${a#*:}" <<<"$out" || return 1
  done
  out=$("$build/sim/hwprof-sim" --set=vp_extrapolate=1 --set=vp_mask_agree=1 --set=vp_recheck_changed=0 \
    "$build/workloads/vp_known-vp.elf" 2>&1)
  echo "vp_extrapolate=1: $(grep -o '[0-9]* credits for time masked' <<<"$out")"
  grep -q "exit code 0" <<<"$out" && grep -q " [1-9][0-9]* credits for time masked" <<<"$out" || return 1
  for a in "--set=vp_mask_agree=3:vp_mask_agree 1..2" "--cop-cam=512:--cop-data=8N with --cop-cam=N"; do
    out=$("$build/sim/hwprof-sim" "${a%%:*}" "$build/workloads/vp_known-vp.elf" 2>&1)
    echo "${a%%:*} -> $(grep -E 'FAILED|exit code' <<<"$out")"
    [ "$(grep -c 'vp firmware: FAILED: the setup refused' <<<"$out")" = 1 ] && grep -q -- "${a#*:}" <<<"$out" &&
      grep -q "exit code 90" <<<"$out" || return 1
  done
}
check sim-set-settings sim_set_settings

# Glacial values (seed 001 5.1.4, docs/vpf.md): hwprof-vpeval's diagnosis on programs whose loads
# are known by construction. vp_glacial, three runs in a row (28.8 M instructions): its twelve cells
# each hold one value for 5,000 to 20,000 loads, then another (wl_rand() & 0xff); at least ten of
# them are diagnosed, and every load diagnosed is one of them (its values in the truth all below
# 256). vp_known mixes its values well: nothing is diagnosed.
vpeval_diagnoses_glacial_values() {
  local d out pcs pc n=0
  d=$(mktemp -d)
  "$build/sim/hwprof-sim" --out-dir="$d" --value-truth="$d/truth.txt" --set=vp_snapshots=0 --set=vp_repeat=3 \
    "$build/workloads/vp_glacial-vp.elf" >/dev/null 2>&1 || { rm -rf "$d"; return 1; }
  out=$("$vpeval" --truth="$d/truth.txt" "$d/vp-profile.txt" | tail -1)
  echo "vp_glacial: ${out#hwprof-vpeval: }"
  pcs=$(sed -n 's/.*eight: //p' <<<"$out")
  for pc in $pcs; do
    n=$((n + 1))
    awk -v pc="$pc" '$1 == pc { for (k = 3; k <= NF; k++) { split($k, a, ":"); if (a[1] !~ /^0x0*[0-9a-f]?[0-9a-f]$/) bad = 1 }; found = 1 }
                     END { exit !(found && !bad) }' "$d/truth.txt" || { echo "  $pc is not one of the cells"; rm -rf "$d"; return 1; }
  done
  "$build/sim/hwprof-sim" --out-dir="$d" --value-truth="$d/truth.txt" --set=vp_snapshots=0 "$build/workloads/vp_known-vp.elf" >/dev/null 2>&1
  out=$("$vpeval" --truth="$d/truth.txt" "$d/vp-profile.txt" | tail -1)
  echo "vp_known: ${out#hwprof-vpeval: }"
  rm -rf "$d"
  [ "$n" -ge 10 ] && grep -q ': 0 loads hold' <<<"$out"
}
check vpeval-diagnoses-glacial-values vpeval_diagnoses_glacial_values
