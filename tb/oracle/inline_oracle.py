#!/usr/bin/env python3
"""Checks the inline stacks of an LLVM sample profile written by hwprof-report sample against an
oracle that shares no code with it: binutils' addr2line -i (each address's chain of inlined
functions and call lines, innermost first) over the retire stream of the same program
(hwprof-sim --pc-counts), and readelf's DWARF dump for where each function is declared.

usage: inline_oracle.py PROFILE.txt ELF PC_COUNTS

For every retired address of a function that has a record in the profile (its outermost function),
the oracle walks its chain from the outside in: each inlined call is a call site keyed by the call's
line minus the declaration line of the function it lies in, and the address's own line minus its
innermost function's declaration line is the sample. Every (function, call-site path, line offset)
must then have the same count in both: the most retirements of one of its addresses (discriminators
merged: the most of theirs). Samples of count 0 in the profile are not checked (the stream has no
such addresses); a function declared on two lines in the program (two static functions of one name)
is left out and counted. Prints one line; exit 1 on a difference, 2 on bad input."""
import re
import subprocess
import sys
from collections import defaultdict

import lcov_oracle  # the retire-stream reader (tb/oracle/lcov_oracle.py)


def decl_lines(elf):
    """function name -> its declaration lines (definitions and abstract instances, not prototypes)"""
    r = subprocess.run(["riscv64-unknown-elf-readelf", "--debug-dump=info", elf], capture_output=True, text=True)
    if r.returncode != 0:
        raise OSError(f"{elf}: readelf failed: {r.stderr.strip()}")
    out = defaultdict(set)
    cur = None

    def flush(d):
        if d and d.get("name") and d.get("line") and not d.get("declaration"):
            out[d["name"]].add(d["line"])

    for raw in r.stdout.splitlines():
        m = re.match(r"\s*<\d+><[0-9a-f]+>: Abbrev Number: \d+ \((\w+)\)", raw)
        if m or re.match(r"\s*<\d+><[0-9a-f]+>: Abbrev Number: 0", raw):
            flush(cur)
            cur = {} if m and m.group(1) == "DW_TAG_subprogram" else None
            continue
        if cur is None:
            continue
        m = re.match(r"\s*<[0-9a-f]+>\s+(DW_AT_\w+)\s*:\s*(.*)$", raw)
        if not m:
            continue
        at, val = m.group(1), m.group(2).strip()
        if at == "DW_AT_name":
            cur["name"] = val.split(": ")[-1].strip()
        elif at == "DW_AT_decl_line":
            cur["line"] = int(val.split()[0], 0)
        elif at == "DW_AT_declaration":
            cur["declaration"] = True
    flush(cur)
    return out


def chains(elf, pcs):
    """pc -> [(function, line)] innermost first (addr2line -i -f -a)"""
    inp = "".join(f"0x{pc:x}\n" for pc in pcs)
    r = subprocess.run(["riscv64-unknown-elf-addr2line", "-i", "-f", "-a", "-e", elf], input=inp, capture_output=True,
                       text=True)
    if r.returncode != 0:
        raise OSError(f"{elf}: addr2line failed: {r.stderr.strip()}")
    out, pc, lines = {}, None, r.stdout.splitlines()
    i = 0
    while i < len(lines):
        if re.match(r"^0x[0-9a-f]+$", lines[i]):
            pc = int(lines[i], 16)
            out[pc] = []
            i += 1
            continue
        fn, loc = lines[i], lines[i + 1] if i + 1 < len(lines) else "?:0"
        m = re.search(r":(\d+|\?)", loc.split(" (discriminator")[0].rsplit("/", 1)[-1])
        ln = int(m.group(1)) if m and m.group(1) != "?" else 0
        out[pc].append((fn, ln))
        i += 2
    return out


def read_profile(path):
    """(root, path of (offset, callee) pairs, line offset) -> count, the discriminators merged by max"""
    prof = {}
    stack = []  # (indent, path) of the call sites above the current line
    root = None
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip():
                continue
            indent = len(line) - len(line.lstrip(" "))
            body = line.strip()
            if indent == 0:
                root = body.split(":")[0]
                stack = [(0, ())]
                continue
            while stack and stack[-1][0] >= indent:
                stack.pop()
            if not stack:
                raise ValueError(f"{path}:{n}: indentation without a record above it")
            where, _, rest = body.partition(": ")
            off = int(where.split(".")[0])
            parts = rest.split(":")
            if len(parts) == 2 and not parts[0].isdigit():  # a call site: callee:total
                stack.append((indent, stack[-1][1] + ((off, parts[0]),)))
                continue
            key = (root, stack[-1][1], off)
            prof[key] = max(prof.get(key, 0), int(parts[0]))
    return prof


def main(argv):
    if len(argv) != 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        prof = read_profile(argv[1])
        counts = {pc: c for pc, c in lcov_oracle.read_stream(argv[3])[0].items() if c > 0}
        decl = decl_lines(argv[2])
        chain = chains(argv[2], sorted(counts))
    except (OSError, ValueError, IndexError) as e:
        print(f"inline oracle: error: {e}", file=sys.stderr)
        return 2
    roots = {k[0] for k in prof}
    truth, ambiguous, outside = {}, set(), 0
    for pc, c in counts.items():
        ch = chain.get(pc, [])
        if not ch or ch[-1][0] not in roots:
            continue
        names = [fn for fn, _ in ch]
        bad = [fn for fn in names if len(decl.get(fn, ())) != 1]
        if bad:
            ambiguous.update(bad)
            continue
        path = []
        for i in range(len(ch) - 1, 0, -1):  # from the outermost function in
            path.append((ch[i][1] - next(iter(decl[ch[i][0]])), ch[i - 1][0]))
        off = ch[0][1] - next(iter(decl[ch[0][0]]))
        if off < 0 or any(o < 0 for o, _ in path):
            outside += 1
            continue
        key = (ch[-1][0], tuple(path), off)
        truth[key] = max(truth.get(key, 0), c)
    skip = {k for k in set(truth) | set(prof) if k[0] in ambiguous or any(fn in ambiguous for _, fn in k[1])}
    diff = [k for k in set(truth) | {k for k, v in prof.items() if v > 0}
            if k not in skip and truth.get(k, 0) != prof.get(k, 0)]
    for k in sorted(diff)[:10]:
        print(f"  {k[0]} {' > '.join(f'{o}:{fn}' for o, fn in k[1]) or '(own code)'} line offset {k[2]}: "
              f"profile {prof.get(k, 'none')}, retire stream {truth.get(k, 'none')}")
    nested = sum(1 for k in truth if k[1] and k not in skip)
    print(f"inline oracle: {len(truth) - len(skip & set(truth))} samples compared ({nested} inside inlined copies),"
          f" {len(diff)} differences; {len(ambiguous)} functions declared twice left out, {outside} addresses"
          f" above their function's declaration")
    return 1 if diff or not truth else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
