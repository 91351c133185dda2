#!/usr/bin/env python3
"""The long lockstep campaign (make campaign): random lockstep on every bench and configuration over
many seeds, at least CAMPAIGN_CYCLES (default 10^9) bench cycles planned, and the whole system
(SystemC platform, RTL and C model in lockstep) on every program on top. Jobs run JOBS at a time;
every finished job is recorded in BUILD/campaign/results-seedCAMPAIGN_SEED.tsv, so a stopped campaign
resumes where it stopped (the same CAMPAIGN_SEED and CAMPAIGN_CYCLES give the same plan), and a new
CAMPAIGN_SEED is a new campaign, the whole-system runs included. A failing job keeps its
log, and its bench's waveform of the cycles before the mismatch, in BUILD/campaign/logs/.

  tools/campaign.py BUILD            plan, run what is not done yet, print the table
  tools/campaign.py BUILD --plan     print the plan only
  tools/campaign.py BUILD --report   the table of what has run

The jobs run on Dask distributed (tools/job_pool.py): the cluster at DASK_SCHEDULER=tcp://host:port,
or a local one of JOBS worker processes; run it with build/venv/bin/python, where make deps puts Dask.

Environment: CAMPAIGN_CYCLES (10^9), CAMPAIGN_SEED (first seed, 1000: make test uses 1-6),
CAMPAIGN_JOB_CYCLES (cycles per random job, 4 M), CAMPAIGN_SYSTEM (1: the whole-system runs; 0 not),
CAMPAIGN_DIR (where the results and logs go: BUILD/campaign), JOBS (local workers: the cores),
DASK_SCHEDULER.
"""
import functools
import glob
import math
import os
import re
import subprocess
import sys
import time

import job_pool  # Dask distributed (tools/job_pool.py)

GOAL = int(float(os.environ.get("CAMPAIGN_CYCLES", "1e9")))
SEED0 = int(os.environ.get("CAMPAIGN_SEED", "1000"))
JOB_CYCLES = int(float(os.environ.get("CAMPAIGN_JOB_CYCLES", "4e6")))
SYSTEM = os.environ.get("CAMPAIGN_SYSTEM", "1") != "0"


def die(msg):
    print(f"campaign: error: {msg}", file=sys.stderr)
    sys.exit(2)


def bench_streams(build):
    """the random streams: (name, binary, args before the seed, env per seed, weight)"""
    s = []
    for cfg in ("top", "small", "large", "c8", "c16", "c64"):
        s.append((f"tb_{cfg}-random", f"{build}/tb_{cfg}/Vhwprof_top", ["--quiet"], False, 3))
        s.append((f"tb_{cfg}-program", f"{build}/tb_{cfg}/Vhwprof_top", ["--test=program", "--quiet"], False, 1))
        s.append((f"tb_{cfg}-counts", f"{build}/tb_{cfg}/Vhwprof_top", ["--test=counts", "--quiet"], False, 1))
    # resets in the middle of traffic
    s.append(("tb_top-resets", f"{build}/tb_top/Vhwprof_top", ["--reset-every=20000", "--quiet"], False, 1))
    # random initial values: the seed also draws every RTL variable's initial value
    s.append(("tb_xinit-random", f"{build}/tb_xinit/Vhwprof_top", ["--quiet"], True, 1))
    for cfg in ("cop", "cop_small", "cop_big"):
        s.append((f"tb_{cfg}-random", f"{build}/tb_{cfg}/Vhwprof_cop", ["--test=random", "--quiet"], False, 2))
        s.append((f"tb_{cfg}-busy", f"{build}/tb_{cfg}/Vhwprof_cop", ["--test=busy", "--quiet"], False, 1))
    for cfg in ("vpf", "vpf_small"):
        s.append((f"tb_{cfg}-random", f"{build}/tb_{cfg}/Vhwprof_vpf", ["--test=random", "--quiet"], False, 1))
    for name, mod in (("prim_fifo", "fifo"), ("prim_fifo_d1", "fifo"), ("prim_ring", "fifo"),
                      ("prim_ring_d1", "fifo"), ("prim_counters", "counters"), ("prim_counters_w3", "counters"),
                      ("prim_regfile", "regfile"),
                      ("prim_regfile_n1", "regfile")):
        s.append((f"tb_{name}-random", f"{build}/tb_{name}/Vhwprof_prim_{mod}", ["--test=random", "--quiet"],
                  False, 0.25))
    s.append(("tb_reg_conformance-random", f"{build}/tb_reg_conformance/Vhwprof_conf_reg", ["--test=random", "--quiet"],
              False, 0.25))
    return s


def path_programs(build):
    """the workloads instrumented for path profiles (docs/path.md), plain, region-based and
    global, made here once into BUILD/campaign/paths/: (name, ELF, map); deep_recursion is left out
    (its path stack overflows by design, and the read-back refuses it)"""
    instr = f"{build}/instr/hwprof-instr"
    pdir = f"{build}/campaign/paths"
    out = []
    if not os.access(instr, os.X_OK):
        return out
    os.makedirs(pdir, exist_ok=True)
    for e in sorted(glob.glob(f"{build}/instr/*.elf")):
        n = os.path.basename(e)[:-4]
        if "-" in n or n == "deep_recursion":
            continue
        for kind in ("plain", "rb", "gp"):
            elf, m = f"{pdir}/{n}-{kind}.elf", f"{pdir}/{n}-{kind}.map"
            if not (os.path.exists(elf) and os.path.getmtime(elf) >= os.path.getmtime(e)):
                r = subprocess.run([instr, "instrument", "--quiet", f"--paths={kind}", e, "-o", elf, f"--map={m}"],
                                   capture_output=True, text=True)
                if r.returncode != 0:
                    die(f"hwprof-instr --paths={kind} {e}: {r.stderr.strip()}")
            out.append((f"{n}-{kind}", elf, m))
    return out


def system_runs(build):
    """the whole-system runs: (name, ELF, extra hwprof-sc options, the platform binary)"""
    runs = []
    sc0 = f"{build}/sc/hwprof-sc"

    def add(pattern, opts_of=lambda e: [], tag=""):
        for e in sorted(glob.glob(f"{build}/{pattern}")):
            n = os.path.basename(e)[:-4]
            runs.append((f"sc-{tag}{n}", e, opts_of(e), sc0))

    # plain programs: every trace checked end to end
    for e in sorted(glob.glob(f"{build}/workloads/*.elf")):
        n = os.path.basename(e)[:-4]
        plain = "-" not in n
        runs.append((f"sc-{n}", e, ["--trace-check"] if plain else [], sc0))
    add("instr/*-prof.elf", lambda e: [f"--edge-map={e[:-4]}.map"], "edge-")
    add("embench/*.elf", lambda e: ["--trace-check"], "embench-")
    for d in ("dyn", "dynrl", "dyn5b", "dynboth", "dynevery", "dynstatic"):
        add(f"{d}/*-prof.elf", tag=f"{d}-")
    add("tcache/*-tc.elf", tag="tcache-")
    # path profiles through the hardware: the stacks checked and every counter decoded after the run
    for n, elf, m in path_programs(build):
        runs.append((f"sc-paths-{n}", elf, [f"--path-map={m}", f"--path-profile={elf[:-4]}.pprof"], sc0))
    # the swept configurations' platforms (build/sc_CONFIG): the plain programs with every trace checked,
    # the instrumented ones in lockstep (no edge check: they count in 32 bits), and those instrumented
    # for the configuration's counter width with their edge check
    for sc in sorted(glob.glob(f"{build}/sc_*/hwprof-sc")):
        cfg = os.path.basename(os.path.dirname(sc))[3:]
        for e in sorted(glob.glob(f"{build}/workloads/*.elf")):
            n = os.path.basename(e)[:-4]
            if "-" not in n:
                runs.append((f"sc_{cfg}-{n}", e, ["--trace-check"], sc))
        for e in sorted(glob.glob(f"{build}/instr/*-prof.elf")):
            runs.append((f"sc_{cfg}-{os.path.basename(e)[:-4]}", e, [], sc))
        for e in sorted(glob.glob(f"{build}/instr/*-prof-{cfg}.elf")):
            runs.append((f"sc_{cfg}-edge-{os.path.basename(e)[:-4]}", e, [f"--edge-map={e[:-4]}.map"], sc))
    return runs


def plan(build):
    jobs = []
    if SYSTEM:
        for name, elf, opts, sc in system_runs(build):
            jobs.append({"name": name, "cmd": [sc, "--engine=lockstep"] + opts + [elf],
                         "env": {}, "planned": 0, "kind": "system"})
    streams = bench_streams(build)
    total_w = sum(w for *_, w in streams)
    # the random jobs: each stream gets its weight's share of the goal, in jobs of JOB_CYCLES
    for name, binary, args, xinit, w in streams:
        share = GOAL * w / total_w
        n = max(1, math.ceil(share / JOB_CYCLES))  # at least the share: the plan reaches the goal
        for i in range(n):
            seed = SEED0 + i
            env = {"HWPROF_RAND_RESET": str(seed)} if xinit else {}
            jobs.append({"name": f"{name}-seed{seed}", "cmd": [binary, f"--seed={seed}", f"--cycles={JOB_CYCLES}"]
                         + args, "env": env, "planned": JOB_CYCLES, "kind": "bench"})
    return jobs


def parse_cycles(out):
    m = re.findall(r"(\d+) lockstep cycles, \d+ comparisons, (\d+) mismatches", out)
    if m:
        return int(m[-1][0]), int(m[-1][1])
    m = re.findall(r"lockstep: (\d+) cycles compared \(\d+ signal comparisons\), (\d+) mismatches", out)
    if m:
        return int(m[-1][0]), int(m[-1][1])
    return None, None


def run_job(job, logdir):
    log = os.path.join(logdir, job["name"] + ".log")
    fst = os.path.join(logdir, job["name"] + ".fst")
    cmd = list(job["cmd"])
    if job["kind"] == "bench":
        cmd.append(f"--fst={fst}")
    t0 = time.time()
    with open(log, "w") as f:
        r = subprocess.run(cmd, env=dict(os.environ, **job["env"]), stdout=f, stderr=subprocess.STDOUT,
                           cwd=logdir if job["kind"] == "system" else None)
    secs = time.time() - t0
    out = open(log, errors="replace").read()
    cycles, mism = parse_cycles(out)
    ok = r.returncode == 0 and mism == 0
    if ok:
        os.remove(log)  # keep only the logs of failures
    return ("PASS" if ok else f"FAIL(exit {r.returncode})"), cycles or 0, mism if mism is not None else -1, secs


def load_done(path):
    done = {}
    if os.path.exists(path):
        for line in open(path):
            f = line.rstrip("\n").split("\t")
            if len(f) == 5:
                done[f[0]] = f
    return done


def stream_of(job):
    return job["name"].rsplit("-seed", 1)[0] if job["kind"] == "bench" else "system (hwprof-sc, every program)"


def time_to_go(jobs, done, par):
    """Seconds until the plan's jobs not yet done are done, estimated from the core-seconds the
    finished jobs of the same stream took (this run's or an earlier one's; a stream with none yet: the
    mean of all finished jobs of its kind), over par cores. Better than extrapolating from the first
    jobs of a run, which are the long whole-system runs."""
    secs, kind_secs = {}, {}
    for j in jobs:
        if j["name"] in done:
            secs.setdefault(stream_of(j), []).append(float(done[j["name"]][4]))
            kind_secs.setdefault(j["kind"], []).append(float(done[j["name"]][4]))
    mean = {k: sum(v) / len(v) for k, v in secs.items()}
    kind_mean = {k: sum(v) / len(v) for k, v in kind_secs.items()}
    overall = [x for v in kind_secs.values() for x in v]
    fallback = sum(overall) / len(overall) if overall else 0.0
    left = sum(mean.get(stream_of(j), kind_mean.get(j["kind"], fallback)) for j in jobs if j["name"] not in done)
    return left / max(1, par)


def report(jobs, done, elapsed=None):
    groups = {}
    for j in jobs:
        key = stream_of(j)
        g = groups.setdefault(key, [0, 0, 0, 0, 0.0, 0])
        g[0] += 1
        if j["name"] in done:
            _, verdict, cyc, mism, secs = done[j["name"]]
            g[1] += 1
            g[2] += int(cyc)
            g[3] += verdict != "PASS"
            g[4] += float(secs)
            g[5] += max(0, int(mism))
    print(f"{'stream':40} {'jobs':>9} {'cycles compared':>16} {'mismatches':>10} {'failed':>6} {'core-s':>8}")
    tot = [0, 0, 0, 0, 0.0, 0]
    for k in sorted(groups):
        g = groups[k]
        print(f"{k:40} {g[1]:>4}/{g[0]:<4} {g[2]:>16,} {g[5]:>10} {g[3]:>6} {g[4]:>8.0f}")
        tot = [a + b for a, b in zip(tot, g)]
    print(f"{'all':40} {tot[1]:>4}/{tot[0]:<4} {tot[2]:>16,} {tot[5]:>10} {tot[3]:>6} {tot[4]:>8.0f}")
    if elapsed is not None:
        print(f"wall time of this run: {elapsed:.0f} s")
    return tot


def main():
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if args else 2)
    # absolute: the whole-system runs start in the log directory (their waveforms land there)
    build = os.path.abspath(args[0])
    mode = args[1] if len(args) > 1 else ""
    if mode not in ("", "--plan", "--report"):
        die(f"unknown option '{mode}' (see --help)")
    out = os.path.abspath(os.environ.get("CAMPAIGN_DIR") or os.path.join(build, "campaign"))
    logdir = os.path.join(out, "logs")
    os.makedirs(logdir, exist_ok=True)
    jobs = plan(build)
    missing = sorted({j["cmd"][0] for j in jobs if not os.access(j["cmd"][0], os.X_OK)})
    if missing:
        die("missing: " + ", ".join(missing) + " (make campaign builds them)")
    # one file a campaign (its first seed): a new seed runs the whole plan again
    res_path = os.path.join(out, f"results-seed{SEED0}.tsv")
    done = load_done(res_path)
    planned = sum(j["planned"] for j in jobs)
    n_done = sum(j["name"] in done for j in jobs)
    print(f"campaign: {len(jobs)} jobs ({sum(j['kind'] == 'system' for j in jobs)} whole-system runs, "
          f"{planned:,} bench cycles planned), seeds from {SEED0}; {n_done} already done", file=sys.stderr)
    if mode == "--plan":
        for j in jobs:
            print(("done  " if j["name"] in done else "      ") + " ".join(j["cmd"]))
        return
    if mode == "--report":
        tot = report(jobs, done)
        sys.exit(1 if tot[3] else 0)
    todo = [j for j in jobs if j["name"] not in done]
    # the long whole-system runs first, so that the end is not one core running one of them
    todo.sort(key=lambda j: j["kind"] != "system")
    par = int(os.environ.get("JOBS") or os.cpu_count() or 2)
    if done:
        print(f"campaign: {len(todo)} jobs to run, {par} at a time, about {time_to_go(jobs, done, par):.0f} s",
              file=sys.stderr)
    t0 = time.time()
    n = cyc = fails = 0
    with open(res_path, "a") as f:
        for j, (verdict, cycles, mism, secs) in job_pool.run(functools.partial(run_job, logdir=logdir), todo, par,
                                                             "campaign"):
            f.write(f"{j['name']}\t{verdict}\t{cycles}\t{mism}\t{secs:.1f}\n")
            f.flush()
            done[j["name"]] = [j["name"], verdict, str(cycles), str(mism), f"{secs:.1f}"]
            n += 1
            cyc += cycles
            if verdict != "PASS":
                fails += 1
                print(f"campaign: FAIL {j['name']}: {verdict}, {mism} mismatches (log: {logdir}/{j['name']}.log)",
                      file=sys.stderr)
            el = time.time() - t0
            print(f"campaign: {n}/{len(todo)} jobs, {cyc:,} cycles compared, {fails} failed, {el:.0f} s, "
                  f"about {time_to_go(jobs, done, par):.0f} s to go", file=sys.stderr)
    tot = report(jobs, done, time.time() - t0)
    sys.exit(1 if tot[3] else 0)


if __name__ == "__main__":
    main()
