"""make bench section 7d (docs/vpf.md, "Where the cycles go"): what the co-processor's default setting
costs on each program, split by where the cycles go, so that a change to the firmware or the
hardware can be weighed before it is built.

Per program (the same R as section 7: runs of its main in a row, at least --min-insns instructions
in all), two runs on section 7's cycle model: the program with profiling off (the baseline) and the
co-processor's default setting (LFSR seed 0) with hwprof-sim --pc-counts. The overhead (the run's
cycles over the baseline's) is split into

  copy      instructions in copy_slots (the slots read through the register window, logged, and
            the mask decisions, inlined) and hwprof_cop_read_data (the totals);
  timer     vp_fw_on_timer and what it calls (re-checks, partitions);
  other     the rest of the handler's instructions (the runtime's count): trap entry and exit,
            the interrupt's cause, the log merged in the run, setup and the final copy;
  window    the register-window transfers' extra cycles (2 a transfer: 3 cycles against an
            instruction's 1; hwprof-sim's count of hwprof register accesses);
  rest      what is left: the handler's taken-transfer penalties and instruction-cache misses,
            and the program's own misses that the handler's code caused.

and per copy: copies, the handler's copy instructions per copy.

usage: vp_cost.py BUILD [--programs=a,b,...] [--min-insns=N]
"""
import concurrent.futures
import math
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from valueprof_curves import NOT_REPEATABLE, TIMING, base_insns, programs, sh  # noqa: E402

COPY = ("copy_slots", "hwprof_cop_read_data")
TIMER = ("vp_fw_on_timer", "unmask", "set_partition", "hwprof_cop_set_filter")


def functions(elf):
    """[(start, end, name)] of the ELF's functions, sorted"""
    out = subprocess.run(["riscv64-unknown-elf-nm", "-S", "-n", elf], stdout=subprocess.PIPE, text=True).stdout
    fs = []
    for line in out.splitlines():
        p = line.split()
        if len(p) == 4 and p[2] in "tT":
            fs.append((int(p[0], 16), int(p[0], 16) + int(p[1], 16), p[3]))
    return fs


def per_function(elf, counts_path):
    import bisect
    fs = functions(elf)
    starts = [f[0] for f in fs]
    acc = {}
    with open(counts_path) as f:
        for line in f:
            p = line.split()
            try:
                pc, n = int(p[0], 16), int(p[1])
            except (IndexError, ValueError):
                continue  # a comment or the end line
            i = bisect.bisect_right(starts, pc) - 1
            name = fs[i][2] if i >= 0 and pc < fs[i][1] else "?"
            acc[name] = acc.get(name, 0) + n
    return acc


def measure(build, prog, stem, repeat):
    sim = os.path.join(build, "sim", "hwprof-sim")
    elf = f"{stem}-vp.elf"
    sets = [f"--set=vp_repeat={repeat}", "--set=vp_snapshots=0"]
    rc, off = sh([sim, "--engine=none"] + TIMING + sets + ["--set=vp_on=0", elf])
    m = re.search(r"off; run (\d+) cycles", off)
    if rc != 0 or not m:
        raise RuntimeError(f"{prog}: the baseline run failed:\n{off[-1500:]}")
    base = int(m.group(1))
    with tempfile.TemporaryDirectory() as tmp:
        counts = os.path.join(tmp, "pc-counts.txt")
        rc, out = sh([sim] + TIMING + sets + [f"--pc-counts={counts}", elf])
        m = re.search(r"\((\d+) copies, .* setup (\d+), handler (\d+), final copy (\d+) instructions; .* run (\d+) cycles",
                      out)
        acc = re.search(r"(\d+) hwprof register accesses", out)
        if rc != 0 or not m or not acc:
            raise RuntimeError(f"{prog}: the co-processor's run failed:\n{out[-1500:]}")
        fn = per_function(elf, counts)
    copies, setup, handler, final, run = (int(m.group(k)) for k in (1, 2, 3, 4, 5))
    return {"program": prog, "repeat": repeat, "base": base, "run": run, "copies": copies,
            "handler": setup + handler + final, "copy": sum(fn.get(f, 0) for f in COPY),
            "timer": sum(fn.get(f, 0) for f in TIMER), "window": 2 * int(acc.group(1))}


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) >= 2 else 2
    build = argv[1]
    opts = dict(a[2:].split("=", 1) for a in argv[2:] if a.startswith("--") and "=" in a)
    bad = [a for a in argv[2:] if not (a.startswith("--programs=") or a.startswith("--min-insns="))]
    if bad:
        print(f"vp_cost: error: unknown argument {bad[0]} (--help)", file=sys.stderr)
        return 2
    only = set(opts["programs"].split(",")) if "programs" in opts else None
    min_insns = int(float(opts.get("min-insns", "1e7")))
    progs = programs(build, only)
    if not progs:
        print(f"vp_cost: error: no {build}/workloads/*-vp.elf (make workloads)", file=sys.stderr)
        return 2
    jobs = []
    for prog, stem in progs:
        n = base_insns(build, stem)
        jobs.append((prog, stem, 1 if prog in NOT_REPEATABLE else max(1, math.ceil(min_insns / n))))
    print("== 7d. Where the co-processor's cycles go (docs/vpf.md): its default setting, LFSR seed 0, section 7's R")
    print(f"      and cycle model ({' '.join(TIMING)}); shares of the overhead cycles (the run's over the baseline's)")
    print(f"{'program':14} {'R':>3} {'overhead':>9} {'copies':>6} | {'copy':>6} {'timer':>6} {'other':>6} {'window':>6}"
          f" {'rest':>6} | {'copy instructions a copy':>24}")
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futs = [pool.submit(measure, build, *j) for j in jobs]
        for fut in futs:
            try:
                r = fut.result()
            except RuntimeError as e:
                print(f"FAILED: {e}")
                continue
            ovh = r["run"] - r["base"]
            if ovh <= 0:
                print(f"{r['program']:14} {r['repeat']:>3} {100.0 * ovh / r['base']:8.2f}% (no overhead to split)")
                continue
            other = r["handler"] - r["copy"] - r["timer"]
            rest = ovh - r["handler"] - r["window"]
            share = lambda x: f"{100.0 * x / ovh:5.1f}%"
            per_copy = f"{r['copy'] / r['copies']:,.0f}" if r["copies"] else "-"
            print(f"{r['program']:14} {r['repeat']:>3} {100.0 * ovh / r['base']:8.2f}% {r['copies']:>6} | "
                  f"{share(r['copy'])} {share(r['timer'])} {share(other)} {share(r['window'])} {share(rest)} | {per_copy:>24}")
    print("(copy: copy_slots and the totals' read; timer: vp_fw_on_timer and its calls; other: the rest of the handler,")
    print(" setup and final copy; window: 2 extra cycles a register-window transfer; rest: the handler's taken-transfer")
    print(" and instruction-cache cycles)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
