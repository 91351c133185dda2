"""make bench section 7 (docs/vpf.md, "Evaluation"): load-value profiling's error against what the
user pays, as curves, for the co-processor (seed 001's algorithm, sw/fw/rt/vp_rt.c) and simple
sampling (sw/fw/rt/ss_rt.c), on every program at a realistic length.

Every run is one ELF of the program with a runtime, its settings given at run time (hwprof-sim
--set): the same ELF with profiling off is the cost baseline. A run's cost is its cycles up to the
end of the profiler's last copy (the runtime's 'run N cycles', mcycle: the system's clock cycles,
stalls and register-window transfers included) against the baseline's, on the cycle model below.
The error is seed 001's (hwprof-vpeval's first line) against the exact profile of the same run
(hwprof-sim --value-truth).

  simple sampling: one load in 16, 64, 256, 1024, 4096; 5 prescaler phases each
  co-processor: its knobs (interval, masking after N copies, re-sampling policy); 5 LFSR seeds each

Each program runs its main R times in a row (the runtime's repeat setting), R chosen so a run has
at least --min-insns instructions (10^7); one more run of the default setting at 2R gives the cost
once converged: the cycles the second R runs add over the baseline's, as a share of theirs. The
--long programs with the most instructions (default 5) run again at >= 10^8 instructions, the
co-processor's default setting and simple sampling at one load in 64, 256 and 1024, 5 seeds or
phases each.

Section 7c, seed 001 section 5.3: the co-processor's default setting with half and twice Table 1's
arrays (128 and 512 slots: hwprof-sim --cop-cam, --cop-data) and with its engine clocked at 1/2,
1/4 and 1/8 of the system (vp_clock_log2), 5 seeds each at the same R; and Figure 8's convergence
at the three array sizes on the programs with the most pairs (a snapshot every 200,000
instructions, the error of each in BUILD/bench/vp-arrays/PROGRAM-SLOTS.curve, plotted by make plots).

The jobs run on Dask distributed (tools/job_pool.py: DASK_SCHEDULER, or a local cluster) and their
results are recorded in BUILD/bench/vp-curves.tsv as they come; a rerun does only what is missing
(delete the file to start again). The table (and the goal, at the end) is printed from that file.

usage: valueprof_curves.py BUILD [--min-insns=N] [--long=N] [--jobs=N] [--programs=a,b,...] [--table-only]
"""
import csv
import math
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

TIMING = ["--taken-penalty=2", "--icache=8192", "--icache-miss=20"]
RATES = [16, 64, 256, 1024, 4096]
SEEDS = 5
# co-processor settings: name -> hwprof-sim --set arguments (the runtime's defaults otherwise)
COP = {
    "default": [],
    "interval13": ["vp_interval_log2=13"],
    "interval16": ["vp_interval_log2=16"],
    "mask2": ["vp_mask_after=2"],
    "mask8": ["vp_mask_after=8"],
    "seed-resample": ["vp_resample=0"],
    "mask-at-once": ["vp_mask_agree=1"],
    "rotation-only": ["vp_recheck_changed=0"],
    "extrapolate": ["vp_extrapolate=1"],
}
LFSR_SEEDS = [0, 0x1234, 0x7A5B, 0x0F0F, 0x3C21]
ARRAYS = [128, 512]  # slots (CAM entries; 8 data bytes a slot) besides Table 1's 256
CLOCKS = [2, 4, 8]   # system cycles per engine cycle besides 1
FIG8_PROGRAMS = ["vp_wide", "nsichneu", "nettle-sha256"]
LONG_INSNS = 10 ** 8
LONG_RATES = [64, 256, 1024]
NOT_REPEATABLE = {"hashtab": "its table keeps the first run's keys: a second run never ends"}
FIELDS = ["program", "kind", "setting", "seed", "repeat", "program_insns", "run_cycles", "error", "found", "counted",
          "lw_error", "on", "cov", "irqs", "failed"]


def sh(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def programs(build, only):
    progs = []
    for d in ("workloads", "embench"):
        dd = os.path.join(build, d)
        if not os.path.isdir(dd):
            continue
        for f in sorted(os.listdir(dd)):
            if f.endswith("-vp.elf"):
                name = f[:-len("-vp.elf")]
                if os.path.exists(os.path.join(dd, name + "-ss.elf")) and (not only or name in only):
                    progs.append((name, os.path.join(dd, name)))
    return progs


def base_insns(build, stem):
    """instructions of one run of the program with profiling off (the CPU model alone)"""
    rc, out = sh([os.path.join(build, "sim", "hwprof-sim"), "--engine=none", "--set=vp_on=0", stem + "-vp.elf"])
    m = re.search(r": (\d+) instructions, exit code 0", out)
    if rc != 0 or not m:
        raise RuntimeError(f"{stem}-vp.elf with profiling off failed:\n{out[-2000:]}")
    return int(m.group(1))


def run_job(job, build):
    """one run: (program, stem, kind, setting, seed, repeat) -> a result row (dict); a run that
    fails gives a row whose 'failed' says why (the table shows it)"""
    try:
        return run_one(job, build)
    except RuntimeError as e:
        prog, _, kind, setting, seed, repeat = job
        return {"program": prog, "kind": kind, "setting": setting, "seed": seed, "repeat": repeat,
                "failed": " ".join(str(e).split())[:300]}


def run_one(job, build):
    prog, stem, kind, setting, seed, repeat = job
    sim = os.path.join(build, "sim", "hwprof-sim")
    row = {"program": prog, "kind": kind, "setting": setting, "seed": seed, "repeat": repeat}
    pre = "ss" if kind in ("ss", "ss-off") else "vp"
    sets = [f"--set={pre}_repeat={repeat}", f"--set={pre}_snapshots={1 if kind == 'vp-conv' else 0}"]
    if kind.endswith("off"):
        rc, out = sh([sim, "--engine=none"] + TIMING + [f"--set={pre}_on=0"] + sets + [f"{stem}-{pre}.elf"])
        m = re.search(r"off; run (\d+) cycles", out)
        if rc != 0 or not m:
            raise RuntimeError(f"{prog} {kind} x{repeat}:\n{out[-2000:]}")
        row.update(run_cycles=int(m.group(1)))
        return row
    curve = []
    if kind == "ss":
        sets += [f"--set=ss_prescale={setting}", f"--set=ss_phase={1 + seed * int(setting) // SEEDS}"]
    elif kind in ("vp-arrays", "vp-conv"):
        sets += [f"--cop-cam={setting}", f"--cop-data={8 * int(setting)}", f"--set=vp_seed={LFSR_SEEDS[seed]}"]
        if kind == "vp-conv":  # writing a snapshot of 2,000 loads costs ~10^6 instructions (not the run's)
            d = os.path.join(build, "bench", "vp-arrays")
            os.makedirs(d, exist_ok=True)
            curve = [f"--curve={os.path.join(d, f'{prog}-{setting}.curve')}"]
            sets.append(f"--max-insns={20 * LONG_INSNS}")
    elif kind == "vp-clock":
        sets += [f"--set=vp_clock_log2={int(setting).bit_length() - 1}", f"--set=vp_seed={LFSR_SEEDS[seed]}"]
    else:
        sets += [f"--set={s}" for s in COP[setting]] + [f"--set=vp_seed={LFSR_SEEDS[seed]}"]
    with tempfile.TemporaryDirectory() as tmp:
        truth = os.path.join(tmp, "truth.txt")
        rc, out = sh([sim] + TIMING + sets + [f"--out-dir={tmp}", f"--value-truth={truth}", f"{stem}-{pre}.elf"])
        m = re.search(r"program (\d+) instructions; .* run (\d+) cycles", out)
        if rc != 0 or not m or "firmware: FAILED" in out:
            raise RuntimeError(f"{prog} {kind} {setting} seed {seed}:\n{out[-2000:]}")
        row.update(program_insns=int(m.group(1)), run_cycles=int(m.group(2)))
        row["irqs"] = int(re.search(r" (\d+) interrupts", out).group(1))
        row["on"] = float(re.search(r"coverage: ([0-9.]+)% of the program.s loads", out).group(1))
        prof = os.path.join(tmp, "vp-samples.txt" if kind == "ss" else "vp-profile.txt")
        rc, ev = sh([os.path.join(build, "vp", "hwprof-vpeval"), f"--truth={truth}", prof] + curve)
        if rc != 0:
            raise RuntimeError(f"{prog} {kind} {setting} seed {seed}: hwprof-vpeval:\n{ev}")
    m = re.search(r": (\d+) pairs counted .*, (\d+) found; .* invariance ([0-9.]+)", ev)
    row.update(counted=int(m.group(1)), found=int(m.group(2)), error=float(m.group(3)))
    row["lw_error"] = float(re.search(r"load-weighted: .* instances ([0-9.]+)", ev).group(1))
    row["cov"] = float(re.search(r", ([0-9.]+)% of their loads", ev).group(1))
    return row


def key(r):
    return (r["program"], r["kind"], str(r["setting"]), str(r["seed"]), str(r["repeat"]))


def load_rows(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return list(csv.DictReader(f, delimiter="\t"))


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def interp_error(curve, ovh):
    """simple sampling's error at overhead ovh: linear in the error and the overhead's logarithm
    between the two rates around it (the cheapest or dearest rate's outside the curve's span);
    curve: [(overhead, error)]"""
    pts = sorted((max(o, 1e-6), e) for o, e in curve)
    if not pts:
        return float("nan"), "none"
    if ovh <= pts[0][0]:
        return pts[0][1], "below"  # cheaper than the cheapest rate: its error (a better one than sampling would get)
    if ovh >= pts[-1][0]:
        return pts[-1][1], "above"
    for (o0, e0), (o1, e1) in zip(pts, pts[1:]):
        if o0 <= ovh <= o1:
            t = (math.log(ovh) - math.log(o0)) / (math.log(o1) - math.log(o0)) if o1 > o0 else 0.0
            return e0 + t * (e1 - e0), "between"
    return pts[-1][1], "above"


def table(rows, progs_order):
    by = {}
    for r in rows:
        by.setdefault(r["program"], []).append(r)
    print(f"{'program':13} {'instrs':>11} {'R':>3} {'pairs':>5} | {'simple sampling: 1/N -> overhead% error (min..max over 5 phases)':<66}")
    goal_rows = []
    for prog in progs_order:
        every = by.get(prog, [])
        rs = [r for r in every if not r.get("failed")]
        for r in every:
            if r.get("failed"):
                print(f"{prog}: FAILED run ({r['kind']} {r['setting']} seed {r['seed']} x{r['repeat']}): {r['failed']}")
        offs = {int(r["repeat"]): int(r["run_cycles"]) for r in rs if r["kind"] == "vp-off"}
        ssoff = {int(r["repeat"]): int(r["run_cycles"]) for r in rs if r["kind"] == "ss-off"}
        if not offs or not ssoff:
            continue
        R = min(offs)
        runs = [r for r in rs if r["kind"] in ("ss", "vp") and int(r["repeat"]) == R]
        if not runs:
            continue
        pairs = max(int(r["counted"]) for r in runs)
        insns = mean([int(r["program_insns"]) for r in runs])

        def ovh(r):
            base = ssoff[R] if r["kind"] == "ss" else offs[R]
            return 100.0 * (int(r["run_cycles"]) - base) / base

        print(f"{prog:13} {insns:11,.0f} {R:3} {pairs:5} |", end="")
        curve = []
        for rate in RATES:
            pts = [r for r in runs if r["kind"] == "ss" and int(r["setting"]) == rate]
            if not pts:
                continue
            o = mean([ovh(r) for r in pts])
            es = [float(r["error"]) for r in pts]
            curve.append((o, mean(es)))
            print(f" 1/{rate}: {o:.2f}% {mean(es):.3f} ({min(es):.3f}..{max(es):.3f});", end="")
        print()
        cops = {}
        for name in COP:
            pts = [r for r in runs if r["kind"] == "vp" and r["setting"] == name]
            if pts:
                es = [float(r["error"]) for r in pts]
                cops[name] = (mean([ovh(r) for r in pts]), mean(es), min(es), max(es),
                              mean([float(r["found"]) for r in pts]), mean([float(r["cov"]) for r in pts]))
        line = "   co-processor:"
        below = 0
        for name, (o, e, lo, hi, found, cov) in cops.items():
            se, where = interp_error(curve, o)
            below += e < se
            line += f" {name} {o:.2f}% {e:.3f} ({lo:.3f}..{hi:.3f}, {found:.0f} found, cov {cov:.1f}%);"
        print(line)
        conv = None
        r2 = [r for r in rs if r["kind"] == "vp" and r["setting"] == "default" and int(r["repeat"]) == 2 * R]
        r1 = [r for r in runs if r["kind"] == "vp" and r["setting"] == "default" and r["seed"] == "0"]
        if r2 and r1 and 2 * R in offs:
            extra = (int(r2[0]["run_cycles"]) - offs[2 * R]) - (int(r1[0]["run_cycles"]) - offs[R])
            conv = 100.0 * extra / (offs[2 * R] - offs[R])
        if "default" in cops:
            o, e = cops["default"][0], cops["default"][1]
            se, where = interp_error(curve, o)
            ratio = se / e if e > 0 else (float("inf") if se > 0 else 1.0)  # both exact: equal
            goal_rows.append((prog, pairs, o, e, se, where, ratio, below, len(cops), conv))
            print(f"   at the default's overhead ({o:.2f}%) simple sampling's error is {se:.3f} ({where} its curve): "
                  f"ratio {ratio:.1f}; {below} of {len(cops)} settings below sampling's curve; cost once converged: "
                  + (f"{conv:.2f}%" if conv is not None else "not measured"))
    return goal_rows


def long_table(rows):
    """the programs run at >= 10^8 instructions: the co-processor's default against sampling"""
    by = {}
    for r in rows:
        if not r.get("failed"):
            by.setdefault(r["program"], []).append(r)
    lines = []
    for prog, rs in by.items():
        reps = sorted({int(r["repeat"]) for r in rs if r["kind"] == "vp-off"})
        if len(reps) < 2 or not any(int(r["program_insns"] or 0) >= LONG_INSNS for r in rs if r["kind"] in ("ss", "vp")):
            continue
        R = max(int(r["repeat"]) for r in rs if r["kind"] in ("ss", "vp") and int(r["program_insns"] or 0) >= LONG_INSNS)
        offs = {r["kind"]: int(r["run_cycles"]) for r in rs if r["kind"].endswith("off") and int(r["repeat"]) == R}
        if len(offs) < 2:
            continue
        runs = [r for r in rs if r["kind"] in ("ss", "vp") and int(r["repeat"]) == R]
        curve, text = [], ""
        for rate in LONG_RATES:
            pts = [r for r in runs if r["kind"] == "ss" and r["setting"] == str(rate)]
            if pts:
                o = mean([100.0 * (int(r["run_cycles"]) - offs["ss-off"]) / offs["ss-off"] for r in pts])
                es = [float(r["error"]) for r in pts]
                curve.append((o, mean(es)))
                text += f" 1/{rate}: {o:.2f}% {mean(es):.3f} ({min(es):.3f}..{max(es):.3f});"
        pts = [r for r in runs if r["kind"] == "vp"]
        if not pts:
            continue
        o = mean([100.0 * (int(r["run_cycles"]) - offs["vp-off"]) / offs["vp-off"] for r in pts])
        es = [float(r["error"]) for r in pts]
        se, where = interp_error(curve, o)
        lines.append(f"{prog:13} {mean([int(r['program_insns']) for r in pts]):13,.0f} x{R}: co-processor {o:.2f}% "
                     f"{mean(es):.3f} ({min(es):.3f}..{max(es):.3f}); simple sampling{text} at {o:.2f}%: {se:.3f} "
                     f"({where}), ratio {se / mean(es) if mean(es) > 0 else (float('inf') if se > 0 else 1.0):.1f}")
    if lines:
        print("   at >= 10^8 instructions (the longest programs; the co-processor's default setting):")
        for line in lines:
            print("   " + line)


def sensitivity_table(rows, progs_order):
    """section 7c: the default setting at half and twice the arrays and at slower engine clocks,
    beside Table 1's arrays at the full clock (section 7's default rows)"""
    by = {}
    for r in rows:
        if not r.get("failed"):
            by.setdefault(r["program"], []).append(r)
    cols = [("vp", "default", "256")] + [("vp-arrays", str(a), str(a)) for a in ARRAYS] + \
           [("vp-clock", str(c), f"1/{c}") for c in CLOCKS]
    print("== 7c. The co-processor's sensitivity (seed 001 section 5.3, Figures 8 and 9): its default setting with"
          " 128, 256 (Table 1) and 512 slots")
    print("      (CAM entries, 8 data bytes each), and with 256 slots and the engine clocked at 1/2, 1/4, 1/8 of the"
          " system; overhead % (cycles, as section 7), error (mean over 5 seeds), found of the pairs")
    print(f"{'program':13} {'pairs':>5} | " + " | ".join(f"{lab:>19}" for _, _, lab in cols))
    sums = {lab: [] for _, _, lab in cols}
    for prog in progs_order:
        rs = by.get(prog, [])
        offs = {int(r["repeat"]): int(r["run_cycles"]) for r in rs if r["kind"] == "vp-off"}
        if not offs:
            continue
        R = min(offs)
        cells, pairs, full = [], 0, True
        for kind, setting, lab in cols:
            pts = [r for r in rs if r["kind"] == kind and r["setting"] == setting and int(r["repeat"]) == R]
            if not pts:
                cells.append(f"{'-':>19}")
                full = False
                continue
            pairs = max(pairs, max(int(r["counted"]) for r in pts))
            o = mean([100.0 * (int(r["run_cycles"]) - offs[R]) / offs[R] for r in pts])
            e = mean([float(r["error"]) for r in pts])
            cells.append(f"{o:6.2f}% {e:.3f} {mean([float(r['found']) for r in pts]):4.0f}")
            sums[lab].append((o, e, pairs))
        if any(c.strip() != "-" for c in cells):
            print(f"{prog:13} {pairs:5} | " + " | ".join(cells) + ("" if full else "  (runs missing)"))
    scored = {lab: [(o, e) for o, e, p in v if p >= 10] for lab, v in sums.items()}
    if scored["256"]:
        print("  mean over the programs with >= 10 pairs: " + "; ".join(
            f"{lab}: {mean([o for o, _ in v]):.2f}% {mean([e for _, e in v]):.3f}" for lab, v in scored.items() if v))
    print(f"  Figure 8 (make plots, valueprof-arrays-convergence.png): the error of a snapshot every 200,000"
          f" instructions at the three sizes, on {', '.join(p for p in FIG8_PROGRAMS if p in by)}")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    opts = dict(a[2:].split("=", 1) if "=" in a else (a[2:], "1") for a in sys.argv[1:] if a.startswith("--"))
    if len(args) != 1 or "help" in opts:
        print(__doc__)
        sys.exit(0 if "help" in opts else 2)
    build = args[0]
    min_insns = int(float(opts.get("min-insns", "1e7")))
    only = set(opts["programs"].split(",")) if "programs" in opts else None
    for t in ("sim/hwprof-sim", "vp/hwprof-vpeval"):
        if not os.access(os.path.join(build, t), os.X_OK):
            print(f"valueprof_curves: error: {build}/{t} not built (make bench builds it)", file=sys.stderr)
            sys.exit(2)
    progs = programs(build, only)
    if not progs:
        print(f"valueprof_curves: error: no {build}/workloads/*-vp.elf (make workloads)", file=sys.stderr)
        sys.exit(2)
    if not any("/embench/" in s for _, s in progs) and only is None:
        print("(note: no Embench programs: ../shared/embench is absent, or make bench was not the target that built them)")
    path = os.path.join(build, "bench", "vp-curves.tsv")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    rows = load_rows(path)
    done = {key(r) for r in rows}
    jobs = []
    sizes = {}
    for prog, stem in progs:
        if "table-only" in opts:
            break
        n = base_insns(build, stem)
        sizes[prog] = (n, stem)
        R = 1 if prog in NOT_REPEATABLE else max(1, math.ceil(min_insns / n))
        if prog in NOT_REPEATABLE:
            print(f"(note: {prog} runs once, {n:,} instructions: {NOT_REPEATABLE[prog]})")
        want = [(prog, stem, "vp-off", "-", 0, R), (prog, stem, "ss-off", "-", 0, R)]
        want += [(prog, stem, "ss", rate, s, R) for rate in RATES for s in range(SEEDS)]
        want += [(prog, stem, "vp", name, s, R) for name in COP for s in range(SEEDS)]
        if prog not in NOT_REPEATABLE:
            want += [(prog, stem, "vp-off", "-", 0, 2 * R), (prog, stem, "vp", "default", 0, 2 * R)]
        want += [(prog, stem, "vp-arrays", a, s, R) for a in ARRAYS for s in range(SEEDS)]
        want += [(prog, stem, "vp-clock", c, s, R) for c in CLOCKS for s in range(SEEDS)]
        if prog in FIG8_PROGRAMS:
            want += [(prog, stem, "vp-conv", a, 0, R) for a in [128, 256, 512]]
        jobs += [j for j in want if (j[0], j[2], str(j[3]), str(j[4]), str(j[5])) not in done]
    longest = sorted((p for p in sizes if p not in NOT_REPEATABLE), key=lambda p: -sizes[p][0])[:int(opts.get("long", "5"))]
    for prog in longest:
        n, stem = sizes[prog]
        R = max(1, math.ceil(LONG_INSNS / n))
        want = [(prog, stem, "vp-off", "-", 0, R), (prog, stem, "ss-off", "-", 0, R)]
        want += [(prog, stem, "ss", rate, s, R) for rate in LONG_RATES for s in range(SEEDS)]
        want += [(prog, stem, "vp", "default", s, R) for s in range(SEEDS)]
        jobs += [j for j in want if (j[0], j[2], str(j[3]), str(j[4]), str(j[5])) not in done]
    # section 7's runs first, then 7c's: an interrupted run leaves the main table whole sooner
    jobs.sort(key=lambda j: j[2] in ("vp-arrays", "vp-clock", "vp-conv"))
    if jobs:
        import functools
        import job_pool
        new = not os.path.exists(path)
        with open(path, "a", newline="") as f:
            w = csv.DictWriter(f, fieldnames=FIELDS, delimiter="\t", extrasaction="ignore")
            if new:
                w.writeheader()
            n = 0
            for _, row in job_pool.run(functools.partial(run_job, build=build), jobs, int(opts.get("jobs", "2")),
                                       "valueprof"):
                w.writerow({k: row.get(k, "") for k in FIELDS})
                f.flush()
                n += 1
                if n % 25 == 0:
                    print(f"valueprof: {n} of {len(jobs)} runs done", file=sys.stderr)
        rows = load_rows(path)
    print("== 7. Load-value profiling (docs/vpf.md): error against what the user pays, seed 001 Figure 7's comparison")
    print("      error: seed 001's frequency-weighted RMS error of the invariance (values of >= 200 instances and >= 25%"
          " of their load's; hwprof-vpeval); overhead: cycles of the run (program, handlers, setup, final copy) over")
    print(f"      the same program with profiling off, on the cycle model {' '.join(TIMING)}; mean over 5 phases/seeds,")
    print("      (min..max); R: runs of the program in a row; cov: the share of the loads at load PCs the profile holds")
    goal = table(rows, [p for p, _ in progs])
    long_table(rows)
    sensitivity_table(rows, [p for p, _ in progs])
    print()
    print("Goal (docs/vpf.md): on every program with at least 10 pairs, at the co-processor's overhead its error is at"
          " least 4x below simple sampling's; its cost once converged is below 1% on every program.")
    met = [g for g in goal if g[1] >= 10 and g[6] >= 4.0]
    scored = [g for g in goal if g[1] >= 10]
    conv_ok = [g for g in goal if g[9] is not None and g[9] < 1.0]
    print(f"  4x lower error at equal cost: {len(met)} of {len(scored)} programs with >= 10 pairs"
          f" ({', '.join(g[0] for g in scored if g not in met) or 'none'} not)")
    print(f"  cost once converged below 1%: {len(conv_ok)} of {len([g for g in goal if g[9] is not None])} programs measured"
          f" ({', '.join(g[0] + ' %.2f%%' % g[9] for g in goal if g[9] is not None and g[9] >= 1.0) or 'none'} not)")
    print(f"(the runs: {path})")


if __name__ == "__main__":
    main()
