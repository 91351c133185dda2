#!/usr/bin/env python3
"""Mutation testing of the RTL (make mutate).

Mutants come from Yosys' `mutate` pass on hwprof_top flattened after `prep`: each one changes one
bit of one cell port (inverted, tied to 0 or 1, or replaced by another bit of the same cell, negated
or not). All the chosen mutants are built into one design, each switched on by its own value of a
new input `mutsel` (0: none), so one Verilator build serves them all. Each mutant runs a fixed, fast
subset of the lockstep suite against the unmutated C model; it is killed when any run reports a
mismatch, fails an assertion, or hangs. Mutants are attributed to the RTL module whose instance holds
the mutated cell (one module per file), and sampled evenly per module.

Each bench is a unit with its own mutant design: hwprof_top in tb_top (every module but the value
profiler's), hwprof_cop in tb_cop, hwprof_vpf in tb_vpf; the modules of a unit are those of its
design's hierarchy that no smaller unit holds.

  tools/mutate.py gen BUILD UNIT [PARAM=VALUE ...]  choose the unit's mutants, write its design
  tools/mutate.py run BUILD [UNIT ...]               run every mutant not yet run (resumable)
  tools/mutate.py equiv BUILD [UNIT ...]             prove survivors equivalent (Yosys SAT), see below;
                                                     a stopped run's verdicts are kept (--salvage: only that)
  tools/mutate.py run --deep BUILD [UNIT ...]        the survivors through the long suite (resumable)
  tools/mutate.py report BUILD                       the table per module, the surviving mutants

Equivalence (`equiv`): a survivor of the fast subset is proven equivalent when no state and no input
make the mutated design's outputs or next state differ from the original's. Yosys builds a miter of
the unit's design against the design holding every survivor (each behind its mutsel value), with
every flip-flop cut into an input (its present value) and an output (its next value) shared by both
sides, and every memory cut the same way (its read data an input, its addresses, write data and
enables outputs); SAT then proves the miter's trigger 0 for each survivor's mutsel. The proof is
sound (equal next-state and output functions over every state give equal behaviour from every
reset), not complete: a mutant masked only in the states the design can reach comes out "differs"
and stays a survivor. The design with no mutant switched on must prove equivalent first, and ten
mutants the benches killed, drawn at random, must not (a proof of one would show a cut hiding a
difference). A survivor whose mutated bit is an x constant of the RTL (a don't-care) is equivalent
by definition and skips the proof. Hand-argued equivalences go in tools/mutate-equivalent.txt.
"""
import argparse
import functools
import json
import math
import os
import random
import re
import subprocess
import sys
import time

import job_pool  # Dask distributed (tools/job_pool.py)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PER_MODULE = int(os.environ.get("MUTANTS_PER_MODULE", "40"))
SEED = int(os.environ.get("MUTATE_SEED", "1"))
POOL = 30000          # candidates Yosys lists over a unit's design, before the sampling per module
CTRL_WIDTH = 16

# unit -> (design, bench binary, instance paths left to other units, the fast subset it runs)
# The subset runs in order; the first failure kills the mutant.
CYCLES = os.environ.get("MUTATE_CYCLES", "60000")
SAT_TIMEOUT = int(os.environ.get("MUTATE_SAT_TIMEOUT", "60"))  # seconds per survivor's proof
EQUIV_CONTROLS = 10   # killed mutants (drawn at random) each unit's equivalence proof must not prove (a soundness check)
UNITS = {
    "top": ("hwprof_top", "Vhwprof_top", ("u_cop", "u_vpf"), [
        ("directed", ["--test=directed", "--cycles=20000"]),
        ("random", ["--seed=1", "--cycles=" + CYCLES, "--quiet"]),
        ("counts", ["--test=counts", "--seed=2", "--cycles=40000", "--quiet", "--mem-base=0xfffffd0000"]),
    ]),
    "cop": ("hwprof_cop", "Vhwprof_cop", (), [
        ("timing", ["--test=timing", "--cycles=10000"]),
        ("host", ["--test=host", "--cycles=10000"]),
        ("random", ["--test=random", "--seed=1", "--cycles=" + CYCLES, "--quiet"]),
        ("valueprof", ["--test=valueprof", "--seed=1", "--cycles=" + CYCLES, "--quiet"]),
    ]),
    "vpf": ("hwprof_vpf", "Vhwprof_vpf", (), [
        ("directed", ["--test=directed", "--cycles=10000"]),
        ("random", ["--test=random", "--seed=1", "--cycles=" + CYCLES, "--quiet"]),
    ]),
}

# The long suite a survivor of the fast subset runs next (`run --deep`): other seeds, 25 to 50 times
# the fast subset's cycles. A mutant it kills is a gap of the fast subset only.
DEEP = {
    "top": [("random-seed2", ["--seed=2", "--cycles=1000000", "--quiet", "--mem-base=0xfffffe0000"])]
    + [("counts", ["--test=counts", "--seed=22", "--cycles=1000000", "--quiet", "--mem-latency=2:30", "--mem-grant=50"])],
    "cop": [("random-seed2", ["--test=random", "--seed=2", "--cycles=1500000", "--quiet"]),
            ("busy", ["--test=busy", "--seed=1", "--cycles=500000", "--quiet"])],
    "vpf": [("random-seed%d" % s, ["--test=random", "--seed=%d" % s, "--cycles=1000000", "--quiet"]) for s in (2, 3)],
}


def die(msg):
    print(f"mutate: error: {msg}", file=sys.stderr)
    sys.exit(2)


def yosys(args, log, what):
    """run Yosys on a script (["-p", text] or ["-s", file]); die naming what failed and the log"""
    r = subprocess.run(["yosys", "-q", "-l", log] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode != 0:
        die(f"Yosys failed {what} (log: {log}): {r.stderr.strip()[-400:]}")


def is_flop_port(r):
    """a mutant of a flip-flop's port: the equivalence proof leaves it out (cut into an input and an
    output, the mutated flip-flop would no longer match its twin in the unmutated design by name)"""
    return "dff$" in r["cell"]


def read_sources():
    srcs = os.environ.get("RTL_SRC")
    if not srcs:
        die("RTL_SRC must list the RTL sources (run through make mutate)")
    return " ".join(os.path.join(ROOT, f) for f in srcs.split())


def instance_modules(hier_json, top):
    """instance path ('' for the top, 'u_edge_prof.u_reg', ...) -> RTL module name"""
    mods = json.load(open(hier_json))["modules"]

    def base(t):
        m = re.search(r"(hwprof_\w+?)(?:\\|$)", t)
        return m.group(1) if m else t

    out = {}

    def walk(mod_name, path):
        out[path] = base(mod_name)
        for cname, cell in mods[mod_name]["cells"].items():
            t = cell["type"]
            if t.startswith("$") and not t.startswith("$paramod"):
                continue
            if t not in mods:
                continue
            walk(t, (path + "." if path else "") + cname.lstrip("\\"))

    top_name = next(n for n in mods if mods[n].get("attributes", {}).get("top") or n == top)
    walk(top_name, "")
    return out


def parse_mutation(line):
    """one `mutate -mode ...` line -> dict of its options (src as a list)"""
    toks = line.split()
    d = {"src": []}
    i = 1
    while i < len(toks):
        k = toks[i].lstrip("-")
        v = toks[i + 1]
        if k == "src":
            d["src"].append(v)
        else:
            d[k] = v
        i += 2
    return d


def cell_instance(cell):
    """the instance path of a flattened cell: $flatten\\u_a.\\u_b.$procmux$1 -> u_a.u_b; a memory
    keeps its hierarchical name (u_sbuf.mem_q -> u_sbuf); a cell of the top -> ''"""
    if not cell.startswith("$flatten"):
        if cell.startswith("$") or "." not in cell:
            return ""
        return cell.lstrip("\\").rsplit(".", 1)[0]
    rest = cell[len("$flatten"):].replace("\\", "")
    parts = rest.split(".")
    path = []
    for p in parts:
        if p.startswith("$"):
            break
        path.append(p)
    # the cell's own name is the last part when it is not a $-name (a named cell of the module)
    if len(path) == len(parts):
        path = path[:-1]
    return ".".join(path)


def own_src(m, module):
    """the src entries of the mutated cell in its module's own file, else all of them"""
    own = [s for s in m["src"] if os.path.basename(s.split(":")[0]) == module + ".sv"]
    return own or m["src"]


def gen(build, unit, params):
    if unit not in UNITS:
        die(f"unknown unit '{unit}' (units: {', '.join(UNITS)})")
    design, _, others, _ = UNITS[unit]
    out = os.path.join(build, "mutate", unit)
    os.makedirs(out, exist_ok=True)
    srcs = read_sources()
    chparam = ""
    for p in params:
        if "=" not in p:
            die(f"'{p}' is not NAME=VALUE")
        k, v = p.split("=", 1)
        chparam += f"chparam -set {k} {v} {design}; "
    print(f"mutate: {unit}: Yosys prep -flatten of {design}{' (' + ' '.join(params) + ')' if params else ''}, "
          f"{POOL} candidate mutations (seed {SEED})", file=sys.stderr)
    yosys(["-p", f"read_verilog -sv {srcs}; {chparam}hierarchy -top {design}; proc; write_json {out}/hier.json"],
          f"{out}/hier.log", "reading the hierarchy")
    yosys(["-p", f"read_verilog -sv {srcs}; {chparam}prep -flatten -top {design}; write_rtlil {out}/prep.il; "
           f"mutate -list {POOL} -seed {SEED} -o {out}/pool.txt"], f"{out}/prep.log", "listing the candidates")
    inst = instance_modules(f"{out}/hier.json", design)
    by_module = {}
    for line in open(f"{out}/pool.txt"):
        if not line.startswith("mutate "):
            continue
        m = parse_mutation(line)
        if not m["cell"].startswith("$"):
            # a memory cell (named after its array): its ports are left alone (the logic that
            # drives them is mutated; Yosys' splitnets cannot take a mutated memory port)
            continue
        path = cell_instance(m["cell"])
        if path not in inst:
            die(f"cell {m['cell']}: instance '{path}' is not in the hierarchy")
        if any(path == o or path.startswith(o + ".") for o in others):
            continue
        module = inst[path]
        m["instance"] = path or "(top)"
        m["module"] = module
        m["line"] = line.strip()
        by_module.setdefault(module, []).append(m)
    rng = random.Random(SEED)
    chosen = []
    for module in sorted(by_module):
        pool = by_module[module]
        pick = pool if len(pool) <= PER_MODULE else rng.sample(pool, PER_MODULE)
        chosen += [(module, len(pool), m) for m in pick]
    if len(chosen) >= 2 ** CTRL_WIDTH:
        die("too many mutants for the mutsel input")
    before = {}
    for name in ("mutants.tsv", "apply.ys"):
        if os.path.exists(f"{out}/{name}"):
            before[name] = open(f"{out}/{name}").read()
    with open(f"{out}/mutants.tsv", "w") as f:
        f.write("# id\tmodule\tinstance\tmode\tcell\tport[bit]\twhere (own file:line)\tpool size\n")
        script = []
        for i, (module, pool_n, m) in enumerate(chosen, start=1):
            where = []
            for src in own_src(m, module):
                if ":" in src:
                    w = os.path.relpath(src.split(":")[0], ROOT) + ":" + src.split(":")[1].split(".")[0]
                    if w not in where:
                        where.append(w)
            f.write(f"{i}\t{module}\t{m['instance']}\t{m['mode']}\t{m['cell']}\t{m['port']}[{m['portbit']}]"
                    f"\t{','.join(where)}\t{pool_n}\n")
            script.append(m["line"] + f" -ctrl mutsel {CTRL_WIDTH} {i}")
    with open(f"{out}/apply.ys", "w") as f:
        f.write(f"read_rtlil {out}/prep.il\n")
        f.write("\n".join(script) + "\n")
        # splitnets -driver: a vector whose bits several cells drive is split, so that no bit of it
        # feeds another through logic; with such vectors whole (UNOPTFLAT), Verilator 5.006
        # simulated hwprof_vpf's design with mutant 101 switched off wrong. (A full splitnets
        # makes hwprof_top's design too big for Verilator: 19 GB and counting.)
        f.write(f"opt_clean\nsplitnets -driver\nwrite_verilog -noattr {out}/mutants.v.tmp\n")
    print(f"mutate: {unit}: {len(chosen)} mutants over {len(by_module)} modules ({PER_MODULE} per module at most); "
          f"Yosys builds them into one design", file=sys.stderr)
    yosys(["-s", f"{out}/apply.ys"], f"{out}/apply.log", "applying the mutants")
    os.replace(f"{out}/mutants.v.tmp", f"{out}/mutants.v")
    # a new set of mutants: earlier results no longer apply. The same set again (this script
    # changed, not the RTL or the sample): the proofs still hold; the runs start over when the bench
    # is rebuilt (run)
    same = all(before.get(n) == open(f"{out}/{n}").read() for n in ("mutants.tsv", "apply.ys"))
    for name in ("results.tsv", "deep.tsv") if same else ("results.tsv", "deep.tsv", "equiv.tsv"):
        if os.path.exists(f"{out}/{name}"):
            os.remove(f"{out}/{name}")


def load_mutants(build, unit):
    path = os.path.join(build, "mutate", unit, "mutants.tsv")
    if not os.path.exists(path):
        die(f"{path} is missing (run: make mutate)")
    rows = []
    for line in open(path):
        if line.startswith("#"):
            continue
        f = line.rstrip("\n").split("\t")
        rows.append({"unit": unit, "id": int(f[0]), "module": f[1], "instance": f[2], "mode": f[3], "cell": f[4],
                     "port": f[5], "where": f[6], "pool": int(f[7]), "ctrlbit": None})
    # a cnot mutant's other bit (which bit of the port it is combined with) is in the design's script
    script = os.path.join(build, "mutate", unit, "apply.ys")
    if os.path.exists(script):
        ctrl = {}
        for line in open(script):
            m = re.search(r" -ctrlbit (\d+) .* -ctrl mutsel \d+ (\d+)$", line.strip())
            if m:
                ctrl[int(m.group(2))] = int(m.group(1))
        for r in rows:
            r["ctrlbit"] = ctrl.get(r["id"])
    return rows


def run_one(unit, tb, mid, timeout, deep=False):
    env = dict(os.environ, HWPROF_MUTANT=str(mid))
    t0 = time.time()
    for name, args in (DEEP[unit] if deep else UNITS[unit][3]):
        cmd = [tb] + args + ["--no-replay"]
        try:
            r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               timeout=timeout)
        except subprocess.TimeoutExpired:
            return "killed", f"{name}: hung (over {timeout} s)", time.time() - t0
        if r.returncode != 0:
            m = re.search(r"MISMATCH at cycle (\d+): signal (\S+)", r.stdout)
            why = f"{name}: mismatch at cycle {m.group(1)} on {m.group(2)}" if m else \
                f"{name}: exit {r.returncode} " + (r.stdout.strip().splitlines() or [""])[-1][:80]
            return "killed", why, time.time() - t0
    return "survived", "", time.time() - t0


def load_results(build, unit, name="results.tsv"):
    res = {}
    path = os.path.join(build, "mutate", unit, name)
    if os.path.exists(path):
        for line in open(path):
            f = line.rstrip("\n").split("\t")
            if len(f) >= 3 and f[0].isdigit():
                res[int(f[0])] = f
    return res


def check_no_mutant(build, unit, tb, timeout, deep):
    """the design with no mutant switched on must pass the subset (or the long suite): else the flow
    itself is broken and no kill means anything"""
    verdict, why, secs = run_one(unit, tb, 0, timeout, deep)
    if verdict != "survived":
        die(f"{unit}: the mutant design with no mutant switched on fails the "
            f"{'long suite' if deep else 'subset'} ({why}): the flow is broken")
    with open(os.path.join(build, "mutate", unit, "deep.tsv" if deep else "results.tsv"), "a") as f:
        f.write(f"0\tnone\tpasses\t{secs:.1f}\n")


def run_triple(t, timeout, deep):
    unit, tb, r = t
    return run_one(unit, tb, r["id"], timeout, deep)


def run_pool(build, todo, jobs, timeout, deep):
    """run (unit, bench, mutant) triples on Dask distributed (tools/job_pool.py: DASK_SCHEDULER's
    cluster, or jobs local workers), appending each verdict to the unit's results (deep.tsv for the
    long suite) as it comes"""
    name = "deep.tsv" if deep else "results.tsv"
    files = {u: open(os.path.join(build, "mutate", u, name), "a") for u in {t[0] for t in todo}}
    t0 = time.time()
    n = killed = 0
    every = 10 if deep else 20
    fn = functools.partial(run_triple, timeout=timeout, deep=deep)
    for (_, _, r), (verdict, why, secs) in job_pool.run(fn, todo, jobs, "mutate"):
        f = files[r["unit"]]
        f.write(f"{r['id']}\t{verdict}\t{why}\t{secs:.1f}\n")
        f.flush()
        n += 1
        killed += verdict == "killed"
        if n % every == 0 or n == len(todo):
            el = time.time() - t0
            print(f"mutate: {'long suite ' if deep else ''}{n}/{len(todo)} run, {killed} killed, {el:.0f} s, "
                  f"about {el / n * (len(todo) - n):.0f} s to go", file=sys.stderr)
    for f in files.values():
        f.close()


def run(build, units, deep=False):
    jobs = int(os.environ.get("JOBS") or os.cpu_count() or 2)
    timeout = int(os.environ.get("MUTATE_TIMEOUT", "120"))
    if deep:
        return run_deep(build, units, jobs, timeout * 10)
    todo = []
    for unit in units:
        tb = os.path.join(build, "mutate", unit, UNITS[unit][1])
        if not os.access(tb, os.X_OK):
            die(f"{tb} is missing (run: make mutate)")
        rows = load_mutants(build, unit)
        res_path = os.path.join(build, "mutate", unit, "results.tsv")
        if os.path.exists(res_path) and os.path.getmtime(tb) > os.path.getmtime(res_path):
            # the bench was rebuilt (its stimulus or the C model changed): the results start over
            print(f"mutate: {unit}: {tb} is newer than its results: running every mutant again", file=sys.stderr)
            for name in ("results.tsv", "deep.tsv"):
                if os.path.exists(os.path.join(build, "mutate", unit, name)):
                    os.remove(os.path.join(build, "mutate", unit, name))
        done = load_results(build, unit)
        # mutant 0 (none) must pass: the mutant design with every mutant off is the RTL
        if 0 not in done:
            check_no_mutant(build, unit, tb, 600, False)
        left = [r for r in rows if r["id"] not in done]
        print(f"mutate: {unit}: {len(rows)} mutants, {len(rows) - len(left)} already run, {len(left)} to run",
              file=sys.stderr)
        todo += [(unit, tb, r) for r in left]
    print(f"mutate: {len(todo)} mutants to run, {jobs} at a time", file=sys.stderr)
    run_pool(build, todo, jobs, timeout, False)


def equiv(build, units, salvage_only=False):
    """prove the fast subset's survivors equivalent (see the module's help), but those the long suite
    killed if it ran first; results in UNIT/equiv.tsv: id, proven | differs (SAT found a state and
    input that tell them apart) | unknown (timeout)"""
    for unit in units:
        design = UNITS[unit][0]
        out = os.path.join(build, "mutate", unit)
        res = load_results(build, unit)
        # a proof that timed out is tried again (MUTATE_SAT_TIMEOUT longer, or a less loaded machine)
        done = {k for k, v in load_results(build, unit, "equiv.tsv").items() if v[1] != "unknown"}
        deep = load_results(build, unit, "deep.tsv")
        rows = [r for r in load_mutants(build, unit) if r["id"] in res and not is_flop_port(r)]
        surv = [r["id"] for r in rows if res[r["id"]][1] == "survived" and r["id"] not in done
                and deep.get(r["id"], (None, None))[1] != "killed"]
        dc = dont_care_bits(f"{out}/prep.il", [r for r in rows if r["id"] in surv])
        if dc:
            with open(f"{out}/equiv.tsv", "a") as f:
                for i in sorted(dc):
                    f.write(f"{i}\tproven\tx: the mutated bit is a don't-care constant of the RTL\n")
            print(f"mutate: {unit}: {len(dc)} survivors mutate a don't-care (x) bit: equivalent by definition",
                  file=sys.stderr)
            surv = [i for i in surv if i not in dc]
        print(f"mutate: {unit}: {len(surv)} survivors of the fast subset to prove equivalent", file=sys.stderr)
        if not surv:
            continue
        # controls: mutants the benches killed can't be equivalent; a proof of one would show the
        # miter unsound (a cut that hides a difference), so a few of them go through it first
        killed = [r["id"] for r in rows if res[r["id"]][1] == "killed"]
        controls = sorted(random.Random(SEED).sample(killed, min(EQUIV_CONTROLS, len(killed))))
        # an interrupted proof run: the verdicts it reached are kept, the rest proven now
        salvaged = salvage_verdicts(out, unit, surv, controls)
        if salvage_only:
            print(f"mutate: {unit}: {len(salvaged)} verdicts kept from a stopped proof run", file=sys.stderr)
            continue
        if salvaged:
            surv = [i for i in surv if i not in salvaged]
            print(f"mutate: {unit}: {len(salvaged)} verdicts kept from the interrupted run, {len(surv)} to prove",
                  file=sys.stderr)
            if not surv:
                continue
        lines = {}
        for line in open(f"{out}/apply.ys"):
            if line.startswith("mutate "):
                lines[int(line.split()[-1])] = line.strip().replace(f" -module {design} ", " -module gate ")
        mem = "gold/t:$mem_v2"
        script = [f"read_rtlil {out}/prep.il", f"rename {design} gold",
                  # memories: each one's ports turned inside out (expose -evert): its read data an
                  # input shared by both sides, its addresses, enables and write data outputs compared.
                  # expose skips cells and wires with private names, so the memories (ROMs from case
                  # tables among them) are named first, and none may be left over
                  f"rename -enumerate -pattern mutate_mem% {mem}", f"expose -evert {mem}",
                  f"select -assert-none {mem}", "setundef -undriven -zero gold",
                  "design -save base", "rename gold gate"]
        script += [lines[i] for i in controls + surv]
        script += ["design -copy-from base -as gold gold", "cd gold", f"add -input mutsel {CTRL_WIDTH}", "cd ..",
                   # flip-flops: present value an input, next value an output, both shared
                   "expose -evert-dff t:$dff", "miter -equiv -make_outputs gold gate miter", "hierarchy -top miter",
                   # gold and gate share all but the mutants' cones: merged once, here
                   "flatten", "opt_clean", "opt_merge", "opt_expr", "opt_merge", "opt_clean",
                   # every flip-flop cut: one whose output still drives logic here was left out
                   "select -assert-none miter/t:$dff", "design -save miter"]
        for i in [0] + controls + surv:
            # one mutant switched on: the others fold away, its cone is all that stays apart
            script += ["design -load miter", "cd miter", "delete -port in_mutsel",
                       f"connect -set in_mutsel {CTRL_WIDTH}'d{i}", "cd ..", "opt_expr", "opt_merge", "opt_clean",
                       f"log EQUIV-MUTANT {i}", f"sat -prove trigger 0 -timeout {SAT_TIMEOUT}"]
        with open(f"{out}/equiv.ys", "w") as f:
            f.write("\n".join(script) + "\n")
        t0 = time.time()
        print(f"mutate: {unit}: Yosys builds the miter and proves {len(surv)} survivors "
              f"(up to {SAT_TIMEOUT} s each; log: {out}/equiv.log)", file=sys.stderr)
        yosys(["-s", f"{out}/equiv.ys"], f"{out}/equiv.log", f"proving {unit}'s survivors")
        verdict = read_verdicts(f"{out}/equiv.log")
        if verdict.get(0) != "proven":
            die(f"{unit}: the design with no mutant switched on is not proven equal to itself "
                f"({verdict.get(0, 'no verdict')}): the equivalence flow is broken (log: {out}/equiv.log)")
        wrong = [i for i in controls if verdict.get(i) == "proven"]
        if wrong:
            die(f"{unit}: mutant(s) {', '.join(map(str, wrong))}, killed by the benches, proven equivalent: "
                f"the miter is unsound (log: {out}/equiv.log)")
        print(f"mutate: {unit}: controls: {sum(verdict.get(i) == 'differs' for i in controls)} of {len(controls)} "
              f"killed mutants shown to differ", file=sys.stderr)
        with open(f"{out}/equiv.tsv", "a") as f:
            for i in surv:
                f.write(f"{i}\t{verdict.get(i, 'unknown')}\tsat\n")
        n = sum(verdict.get(i) == "proven" for i in surv)
        print(f"mutate: {unit}: {n} of {len(surv)} survivors proven equivalent in {time.time() - t0:.0f} s",
              file=sys.stderr)


def dont_care_bits(prep, rows):
    """the mutants whose mutated input bit is an x constant in the design (a don't-care value, the
    data of a memory write whose enable is off, for example): any value there is the RTL's, so such
    a mutant is one implementation of the same RTL, equivalent by definition. Returns their ids."""
    want = {}
    for r in rows:
        m = re.match(r"(\w+)\[(\d+)\]$", r["port"])
        if m:
            want.setdefault(r["cell"], []).append((m.group(1), int(m.group(2)), r["id"]))
    found, cell = set(), None
    for line in open(prep):
        t = line.split()
        if len(t) >= 3 and t[0] == "cell":
            cell = t[2] if t[2] in want else None
        elif cell and len(t) == 3 and t[0] == "connect":
            c = re.match(r"(\d+)'([01xz]+)$", t[2])
            # RTLIL writes a constant of one repeated digit short (32'x): its leftmost digit extends it
            bits = c.group(2).rjust(int(c.group(1)), c.group(2)[0]) if c else ""
            for port, bit, mid in want[cell]:
                if t[1] == "\\" + port and bit < len(bits) and bits[-1 - bit] == "x":
                    found.add(mid)
        elif t[:1] == ["end"]:
            cell = None
    return found


def read_verdicts(log):
    """each mutant's verdict in a proof log: proven, differs, or unknown (no answer: a timeout, or
    the run stopped before it)"""
    verdict, cur = {}, None
    for line in open(log):
        m = re.search(r"EQUIV-MUTANT (\d+)", line)
        if m:
            cur = int(m.group(1))
            verdict[cur] = "unknown"
        elif cur is not None and "no model found: SUCCESS" in line:
            verdict[cur] = "proven"
        elif cur is not None and "model found: FAIL" in line:
            verdict[cur] = "differs"
    return verdict


def salvage_verdicts(out, unit, surv, controls):
    """the answers a stopped proof run of this sample gave (its log newer than the sample's design):
    kept in UNIT/equiv.tsv when that run's own checks had passed (no mutant: proven; every control
    reached, none proven, as equiv requires); returns the ids kept"""
    log, design = f"{out}/equiv.log", f"{out}/apply.ys"
    if not (os.path.exists(log) and os.path.exists(design) and os.path.getmtime(log) > os.path.getmtime(design)):
        return set()
    verdict = read_verdicts(log)
    if verdict.get(0) != "proven" or any(i not in verdict or verdict[i] == "proven" for i in controls):
        return set()
    kept = [i for i in surv if verdict.get(i) in ("proven", "differs")]
    with open(f"{out}/equiv.tsv", "a") as f:
        for i in kept:
            f.write(f"{i}\t{verdict[i]}\tsat\n")
    return set(kept)


def proven_equivalent(build, unit):
    return {k for k, v in load_results(build, unit, "equiv.tsv").items() if v[1] == "proven"}


def run_deep(build, units, jobs, timeout):
    """the fast subset's survivors through the long suite; results in UNIT/deep.tsv"""
    todo = []
    for unit in units:
        res = load_results(build, unit)
        deep = load_results(build, unit, "deep.tsv")
        tb = os.path.join(build, "mutate", unit, UNITS[unit][1])
        if 0 not in deep:
            check_no_mutant(build, unit, tb, timeout, True)
        eq = proven_equivalent(build, unit)
        surv = [r for r in load_mutants(build, unit) if r["id"] in res and res[r["id"]][1] == "survived"
                and r["id"] not in eq]
        left = [r for r in surv if r["id"] not in deep]
        print(f"mutate: {unit}: {len(surv)} survivors of the fast subset, {len(left)} to run through the long suite",
              file=sys.stderr)
        todo += [(unit, tb, r) for r in left]
    run_pool(build, todo, jobs, timeout, True)


def wilson(k, n, z=1.96):
    """95% Wilson interval of a proportion k/n"""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (c - h) / d, (c + h) / d


def report(build):
    rows, res, deep, sat = [], {}, {}, {}
    for unit in UNITS:
        if os.path.exists(os.path.join(build, "mutate", unit, "mutants.tsv")):
            rows += load_mutants(build, unit)
            res.update({(unit, k): v for k, v in load_results(build, unit).items()})
            deep.update({(unit, k): v for k, v in load_results(build, unit, "deep.tsv").items()})
            sat.update({(unit, k): v[1] for k, v in load_results(build, unit, "equiv.tsv").items()})
    if not rows:
        die(f"no mutants in {build}/mutate (run: make mutate)")
    equiv = load_equivalent()
    mods = {}
    for r in rows:
        mods.setdefault(r["module"], []).append(r)
    print(f"Mutation testing of the RTL: Yosys `mutate` (prep -flatten of each unit's design), up to "
          f"{PER_MODULE} mutants per module sampled from {POOL} candidates (seed {SEED})")
    for unit, (design, _, _, st) in UNITS.items():
        print(f"  unit {unit}: {design}; fast subset: " + ", ".join(n + " " + " ".join(a) for n, a in st))
        print(f"           long suite for its survivors: " + ", ".join(n + " " + " ".join(a) for n, a in DEEP[unit]))
    print(f"{'module':22} {'unit':11} {'pool':>6} {'run':>4} {'killed':>6} {'+long':>5} {'surv':>5} {'equiv':>5} "
          f"{'fast':>6} {'95% interval':>12} {'+long':>6}")
    tot = [0, 0, 0, 0, 0]
    survivors = []
    for module in sorted(mods):
        rs = mods[module]
        ran = [r for r in rs if (r["unit"], r["id"]) in res]
        k = [r for r in ran if res[(r["unit"], r["id"])][1] == "killed"]
        surv = [r for r in ran if res[(r["unit"], r["id"])][1] == "survived"]
        eq = [r for r in surv if mutation_key(r) in equiv or sat.get((r["unit"], r["id"])) == "proven"]
        surv = [r for r in surv if r not in eq]
        kl = [r for r in surv if deep.get((r["unit"], r["id"]), [0, ""])[1] == "killed"]
        left = [r for r in surv if r not in kl]
        survivors += left
        ne = len(k) + len(surv)
        lo, hi = wilson(len(k), ne)
        fast = f"{100 * len(k) / ne:.1f}%" if ne else "-"
        full = f"{100 * (len(k) + len(kl)) / ne:.1f}%" if ne else "-"
        units = "+".join(sorted({r["unit"] for r in rs}))
        pool = sum({r["unit"]: r["pool"] for r in rs}.values())
        print(f"{module:22} {units:11} {pool:>6} {len(ran):>4} {len(k):>6} {len(kl):>5} {len(left):>5} {len(eq):>5} "
              f"{fast:>6} {100 * lo:>5.0f}-{100 * hi:.0f}% {full:>6}")
        tot = [tot[0] + len(ran), tot[1] + len(k), tot[2] + len(kl), tot[3] + len(left), tot[4] + len(eq)]
    ne = tot[1] + tot[2] + tot[3]
    print(f"{'all':22} {'':11} {'':>6} {tot[0]:>4} {tot[1]:>6} {tot[2]:>5} {tot[3]:>5} {tot[4]:>5} "
          f"{(100 * tot[1] / ne if ne else 0):>5.1f}% {'':>12} {(100 * (tot[1] + tot[2]) / ne if ne else 0):>5.1f}%")
    missing = len(rows) - tot[0]
    if missing:
        print(f"({missing} mutants not run yet: make mutate resumes)")
    nodeep = sum(1 for r in survivors if (r["unit"], r["id"]) not in deep)
    if nodeep:
        print(f"({nodeep} survivors not yet through the long suite: make mutate-deep)")
    flops = sum(1 for r in survivors if is_flop_port(r))
    unproven = sum(1 for r in survivors if (r["unit"], r["id"]) not in sat and not is_flop_port(r))
    if flops:
        print(f"({flops} survivors mutate a flip-flop's port, which the equivalence proof leaves out)")
    if unproven:
        print(f"({unproven} survivors not yet through the equivalence proof: make mutate runs it)")
    if survivors:
        print("\nsurviving mutants (not shown equivalent): unit/id module proof mode cell port[bit] where")
        print("  (proof: differs = SAT found a state and input that tell the mutant from the RTL, a state the "
              "design may or may not reach; unknown = the proof timed out; - = not tried)")
        for r in survivors:
            p = sat.get((r["unit"], r["id"]), "-")
            print(f"  {r['unit']}/{r['id']:<4} {r['module']:22} {p:7} {r['mode']:6} {r['cell']} {r['port']} "
                  f"{r['where']}")
    print("(fast: killed by the fast subset / (killed + survived), equivalent mutants left out, with Wilson's 95% "
          "interval for the module's sample; +long: killed by the fast subset or, after it, by the long suite. "
          "equiv: proven equivalent by the SAT miter (tools/mutate.py --help) or argued by hand in "
          "tools/mutate-equivalent.txt; "
          f"{build}/mutate/UNIT/ holds each unit's mutants, design and results)")


def load_equivalent():
    path = os.path.join(ROOT, "tools", "mutate-equivalent.txt")
    eq = {}
    if os.path.exists(path):
        for line in open(path):
            line = line.strip()
            if line and not line.startswith("#"):
                key, _, why = line.partition(" ")
                eq[key] = why
    return eq


def mutation_key(r):
    """a mutation's name that stays the same whichever sample it is drawn in: unit, mode, cell, port
    and bit, and for cnot0/cnot1 the other bit. The cell is named by its type and source line without
    Yosys' running number (which any change to what is read before it shifts), so an argument covers
    every cell of that type on that line."""
    cell = r["cell"].replace(ROOT + "/", "")  # the same in any clone of the repository
    cell = re.sub(r"\$\d+$", "", cell)
    other = f":{r['ctrlbit']}" if r.get("ctrlbit") is not None else ""  # cnot0/cnot1: the bit combined with
    return f"{r['unit']}:{r['mode']}:{cell}:{r['port']}{other}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("step", choices=["gen", "run", "equiv", "report"])
    ap.add_argument("build", help="the build directory (build)")
    ap.add_argument("rest", nargs="*", help="gen: UNIT [PARAM=VALUE ...]; run: UNIT ... (default all)")
    ap.add_argument("--deep", action="store_true", help="run: the fast subset's survivors through the long suite")
    ap.add_argument("--salvage", action="store_true",
                    help="equiv: only keep the verdicts a stopped proof run reached (equiv resumes from them anyway)")
    a = ap.parse_args()
    if a.step == "gen":
        if not a.rest:
            die("gen needs a unit (" + ", ".join(UNITS) + ")")
        gen(a.build, a.rest[0], a.rest[1:])
    elif a.step == "run":
        for u in a.rest:
            if u not in UNITS:
                die(f"unknown unit '{u}' (units: {', '.join(UNITS)})")
        run(a.build, a.rest or list(UNITS), a.deep)
    elif a.step == "equiv":
        for u in a.rest:
            if u not in UNITS:
                die(f"unknown unit '{u}' (units: {', '.join(UNITS)})")
        equiv(a.build, a.rest or list(UNITS), a.salvage)
    else:
        report(a.build)


if __name__ == "__main__":
    main()
