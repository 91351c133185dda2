#!/usr/bin/env python3
"""Fuzz the register generator (tools/regtool.py) with mutated descriptions (docs/verification.md,
"Fuzzing"): each round takes one of regs/*.json, changes it (structure-aware: a value replaced by one
of another type or an edge value, a key dropped, added or duplicated into a sibling, a list entry
dropped or doubled; or, one round in eight, its text cut or a byte changed) and generates every
output from it with the others as committed. A round must end in the outputs or in one DescError
naming the file it comes from; anything else (a Python exception, an error naming another file or
none, a round past the memory limit (2 GB) or the time limit (10 s)) is a defect: its input goes
to BUILD/fuzz/crashes/regtool/ with the traceback, and the exit status is 1. Every file in
tests/fuzz/regtool/ (a defect found earlier, kept as a regression input: its name says which
description it replaces) runs first.

usage: tools/fuzz_regtool.py [--seconds S | --rounds N] [--seed N] [--out DIR]
"""

import argparse
import copy
import json
import os
import random
import resource
import shutil
import signal
import sys
import tempfile
import time
import traceback

TOOLS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TOOLS)
sys.path.insert(0, TOOLS)

import regtool  # noqa: E402
from reggen.desc import DescError  # noqa: E402

# a round that asks for more memory than this (MemoryError) or runs longer (RoundTimeout) is a defect
# (a description must not make the generator grow without bound), not the end of the fuzzer
MEMORY_LIMIT = 2 << 30
ROUND_SECONDS = 10


class RoundTimeout(Exception):
    pass


def on_alarm(signum, frame):
    raise RoundTimeout(f"one round ran longer than {ROUND_SECONDS} s")


EDGE_INTS = (0, 1, -1, 2, 31, 32, 33, 63, 64, 255, 256, 1023, 1024, 65535, 65536, 2**31 - 1, 2**31, 2**32, 2**64, -2**63)
EDGE_STRS = ("", "rw", "ro", "w1c", "wa", "QE", "X", "a" * 300, "0x10", "1e3", "true", "\u00e9", "x y", "7seg")


def nodes(tree):
    """Every (path, value) of a JSON tree, the root included (a list: iterative, a recursive
    generator was the fuzzer's own largest cost)."""
    out, stack = [], [((), tree)]
    while stack:
        path, value = stack.pop()
        out.append((path, value))
        if isinstance(value, dict):
            stack.extend((path + (k,), v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((path + (i,), v) for i, v in enumerate(value))
    return out


def parent_of(tree, path):
    for p in path[:-1]:
        tree = tree[p]
    return tree


def random_value(rng, like):
    r = rng.random()
    if r < 0.35:
        return rng.choice(EDGE_INTS) if not isinstance(like, int) or rng.random() < 0.5 else like + rng.choice((-1, 1))
    if r < 0.6:
        return rng.choice(EDGE_STRS)
    if r < 0.7:
        return rng.choice((True, False, None))
    if r < 0.8:
        return []
    if r < 0.9:
        return {}
    return rng.random() * 1e6


def mutate(rng, tree):
    """One structural change, in place (the root itself may be replaced: returned)."""
    all_nodes = nodes(tree)
    path, value = rng.choice(all_nodes)
    op = rng.random()
    if not path:
        return random_value(rng, value) if op < 0.1 else tree
    parent, key = parent_of(tree, path), path[-1]
    if op < 0.45:
        parent[key] = random_value(rng, value)
    elif op < 0.6:
        del parent[key]
    elif op < 0.7 and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(value))
    elif op < 0.8 and isinstance(value, dict):
        value[rng.choice(("name", "offset", "fields", "lsb", "width", "access", "reset", "hwext", "bogus", "window",
                          "windows", "entries", "refuse", "read_pulse"))] = random_value(rng, 0)
    elif op < 0.9:  # a sibling's value under this key, or this value under another key
        siblings = [k for k in (parent.keys() if isinstance(parent, dict) else range(len(parent))) if k != key]
        if siblings:
            parent[key] = copy.deepcopy(parent[rng.choice(siblings)])
    else:
        if isinstance(value, (dict, list)) and value:
            k = rng.choice(list(value.keys()) if isinstance(value, dict) else range(len(value)))
            del value[k]
    return tree


def mutate_text(rng, text):
    data = bytearray(text.encode("utf-8"))
    if rng.random() < 0.5 and data:
        return bytes(data[: rng.randrange(len(data))])
    for _ in range(rng.randint(1, 4)):
        if data:
            data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


class Fuzz:
    def __init__(self, out):
        # the copy lives in memory where it can (a round reads every description: a disk-backed
        # /tmp made opening files a fifth of a round)
        shm = "/dev/shm"
        self.tmp = tempfile.mkdtemp(prefix="fuzz_regtool.", dir=shm if os.access(shm, os.W_OK) else None)
        shutil.copytree(os.path.join(ROOT, "regs"), os.path.join(self.tmp, "regs"))
        self.names = sorted(n for n in os.listdir(os.path.join(ROOT, "regs")) if n.endswith(".json"))
        self.texts = {n: open(os.path.join(ROOT, "regs", n), encoding="utf-8").read() for n in self.names}
        self.out = out
        self.changed = None  # the description whose copy differs from the committed text
        self.rounds = self.generated = self.refused = self.defects = 0

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def restore(self):
        """Puts the committed text back into the description the last round changed."""
        if self.changed is not None:
            with open(os.path.join(self.tmp, "regs", self.changed), "w", encoding="utf-8") as f:
                f.write(self.texts[self.changed])
            self.changed = None

    def run(self, name, data, origin):
        """Generates with regs/<name> replaced by data; returns whether the round was sound."""
        if self.changed != name:  # (the same file is overwritten below)
            self.restore()
        path = os.path.join(self.tmp, "regs", name)
        self.changed = name
        with open(path, "wb") as f:
            f.write(data)
        self.rounds += 1
        problem = None
        try:
            signal.alarm(ROUND_SECONDS)
            try:
                regtool.generate(self.tmp)
            finally:
                signal.alarm(0)
            self.generated += 1
        except DescError as e:
            self.refused += 1
            # the file changed is named (a clash between two files is reported where it is found,
            # naming both)
            if f"regs/{name}" not in str(e):
                problem = f"the error does not name regs/{name}: {e}"
        except Exception:  # noqa: BLE001 - any other exception is what the fuzzer looks for
            problem = traceback.format_exc()
        if problem is None:
            return True
        self.defects += 1
        os.makedirs(self.out, exist_ok=True)
        stem = os.path.join(self.out, f"{self.defects}-{name}")
        with open(stem, "wb") as f:
            f.write(data)
        with open(stem + ".txt", "w", encoding="utf-8") as f:
            f.write(f"{origin}\n{problem}\n")
        print(f"fuzz_regtool: defect {self.defects} ({origin}): {problem.strip().splitlines()[-1]}")
        print(f"fuzz_regtool:   input: {stem}")
        return False

    def one(self, rng):
        name = rng.choice(self.names)
        if rng.random() < 0.125:
            return self.run(name, mutate_text(rng, self.texts[name]), "text")
        tree = json.loads(self.texts[name])
        for _ in range(rng.randint(1, 3)):
            tree = mutate(rng, tree)
        # compact: the C encoder (indent= takes the pure-Python one, a fifth of a round)
        return self.run(name, json.dumps(tree).encode("utf-8"), "structure")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=None, help="run this long (default: 60 unless --rounds)")
    ap.add_argument("--rounds", type=int, default=None, help="run this many rounds")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "fuzz", "crashes", "regtool"),
                    help="where defects' inputs go")
    args = ap.parse_args()
    if args.rounds is not None and args.rounds < 1 or args.seconds is not None and args.seconds <= 0:
        ap.error("--rounds and --seconds must be positive")
    seconds = args.seconds if args.seconds is not None else (None if args.rounds else 60.0)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY or soft > MEMORY_LIMIT:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, hard))
    signal.signal(signal.SIGALRM, on_alarm)
    fz = Fuzz(args.out)
    try:
        regressions = os.path.join(ROOT, "tests", "fuzz", "regtool")
        for n in sorted(os.listdir(regressions)) if os.path.isdir(regressions) else []:
            target = n.split("-", 1)[-1]
            if target in fz.names:
                fz.run(target, open(os.path.join(regressions, n), "rb").read(), f"regression {n}")
        rng = random.Random(args.seed)
        t0 = last = time.time()
        while (args.rounds is None or fz.rounds < args.rounds) and (seconds is None or time.time() - t0 < seconds):
            fz.one(rng)
            if time.time() - last >= 10:
                last = time.time()
                print(f"fuzz_regtool: {fz.rounds} rounds, {fz.generated} generated, {fz.refused} refused, "
                      f"{fz.defects} defects", flush=True)
        print(f"fuzz_regtool: {fz.rounds} rounds in {time.time() - t0:.0f} s (seed {args.seed}): {fz.generated} "
              f"generated outputs, {fz.refused} refused with an error naming the file, {fz.defects} defects")
    finally:
        fz.close()
    return 1 if fz.defects else 0


if __name__ == "__main__":
    sys.exit(main())
