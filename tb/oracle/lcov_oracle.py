#!/usr/bin/env python3
"""Checks an lcov tracefile written by hwprof-report against oracles that share no code with it.

usage: lcov_oracle.py stream INFO ELF PCS   (PCS: a retire stream, or hwprof-sim --pc-counts's file)
       lcov_oracle.py gcov INFO GCOV_JSON ELF PCS

stream: PCS is a retire stream of ELF itself (one hexadecimal pc per line, as QEMU's or
  hwprof-sim --pcs write it), or the same counted by hwprof-sim --pc-counts. Each pc's line comes
  from binutils' decoded line table (readelf -wL; it names files by base name, so files that share
  one are left out), each branch's outcome from the next pc. Every DA record must equal the most
  times any instruction of that line retired; every conditional branch's BRDA pair (its address is
  the block number) its taken and not-taken counts (a branch to the next word: their sum, which is
  all a stream can tell); a line with retired code of a profiled function (by its symbol) that has
  no DA record is a difference too.
gcov: ELF is an -O0 -fprofile-arcs -ftest-coverage build (linked with --emit-relocs), GCOV_JSON
  riscv64-unknown-elf-gcov --json-format --stdout of a run of it instrumented by hwprof-instr (one
  run feeds both), INFO the tracefile of that run's hardware profile and PCS the retire stream of
  ELF itself. Every function both list must have the same count, and every line both list must
  have run in both or in neither, with one exception: GCC gives the counter updates it inserts on
  edges no line-table row, so they take the line of the row before them; a line whose code runs
  into such an update (an instruction with a relocation against a __gcov0. symbol) may have run in
  the tracefile and not in gcov, and is accepted when its own instructions (those before the
  update) ran as gcov says and its DA record equals the most retirements of all its instructions.
  A line only gcov lists must be a function's declarator (gcov counts the entry there, the line
  table gives the prologue to the brace) or a case label (no code of its own), or lie in a file
  whose code the linker left out (gcov counts 0 there); a line only the tracefile lists must be a
  brace (prologue and epilogue).
Prints one line; exit 1 on a difference, 2 on bad input."""
import bisect
import json
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict

import branch_oracle  # the ELF's code words and the B-type decoding (tb/oracle/branch_oracle.py)


def read_info(path):
    """{file: {"DA": {line: count}, "FN": {name: line}, "FNDA": {name: count}, "BRDA": {(line, block): [counts]}}}"""
    out = {}
    cur = None
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            key, _, val = line.partition(":")
            if key == "SF":
                cur = out.setdefault(os.path.normpath(val), {"DA": {}, "FN": {}, "FNDA": {}, "BRDA": defaultdict(list)})
            elif key == "DA":
                ln, c = val.split(",")[:2]
                cur["DA"][int(ln)] = int(c)
            elif key == "FN":
                ln, name = val.split(",", 1)
                cur["FN"][name] = int(ln)
            elif key == "FNDA":
                c, name = val.split(",", 1)
                cur["FNDA"][name] = int(c)
            elif key == "BRDA":
                ln, blk, br, c = val.split(",")
                cur["BRDA"][(int(ln), int(blk))].append((int(br), 0 if c == "-" else int(c)))
            elif key in ("TN", "FNF", "FNH", "BRF", "BRH", "LF", "LH", "end_of_record", ""):
                pass
            else:
                raise ValueError(f"{path}:{n}: not an lcov record: {line[:60]}")
    return out


ROW = re.compile(r"^(\S+)\s+(\d+|-)\s+(0x[0-9a-f]+)(\s+\d+)?(\s+x)?\s*$")


def line_table(elf):
    """sorted [(lo, hi, file base name, line)] from binutils' decoded DWARF line table (readelf -wL):
    an address takes the last row at or below it in its sequence; line 0 is no line"""
    r = subprocess.run(["riscv64-unknown-elf-readelf", "-wL", "-W", elf], capture_output=True, text=True)
    if r.returncode != 0:
        raise OSError(f"{elf}: readelf failed: {r.stderr.strip()}")
    ranges = []
    prev = None
    for raw in r.stdout.splitlines():
        m = ROW.match(raw)
        if not m:
            continue
        base, ln, addr = m.group(1), m.group(2), int(m.group(3), 16)
        if prev is not None and addr > prev[0] and prev[2] > 0:
            ranges.append((prev[0], addr, prev[1], prev[2]))
        prev = None if ln == "-" else (addr, base, int(ln))
    ranges.sort()
    return ranges


def lines_of(table, pcs):
    """pc -> (file base name, line) for the pcs with a line"""
    los = [t[0] for t in table]
    res = {}
    for pc in pcs:
        i = bisect.bisect_right(los, pc) - 1
        if i >= 0 and pc < table[i][1]:
            res[pc] = (table[i][2], table[i][3])
    return res


def function_ranges(elf, names):
    """(address, size) of the function symbols named in names (binutils' nm)"""
    r = subprocess.run(["riscv64-unknown-elf-nm", "-S", "--defined-only", elf], capture_output=True, text=True)
    if r.returncode != 0:
        raise OSError(f"{elf}: nm failed: {r.stderr.strip()}")
    out = []
    for line in r.stdout.splitlines():
        w = line.split()
        if len(w) == 4 and w[2] in "tTwW" and w[3] in names:
            out.append((int(w[0], 16), int(w[1], 16)))
    return out


def read_stream(pcs_path):
    """(retirements, retirements that went elsewhere than the next word) per pc, from a retire
    stream (one hex pc a line: QEMU's, or hwprof-sim --pcs's, which ends with 'end LINES') or from
    hwprof-sim --pc-counts's file ('PC COUNT TAKEN' lines, which must end with 'end LINES')"""
    count = Counter()
    taken = Counter()
    prev = None
    with open(pcs_path) as f:
        lines = f.read().splitlines()
    ended = bool(lines) and lines[-1].startswith("end ")
    if ended:
        if lines[-1] != f"end {len(lines) - 1}":
            raise ValueError(f"{pcs_path}: the end record says {lines[-1][4:]} lines, the file has {len(lines) - 1}")
        lines.pop()
    if lines and len(lines[0].split()) == 3 and not ended:
        raise ValueError(f"{pcs_path}: truncated: no end record")
    for raw in lines:
        w = raw.split()
        if len(w) == 3:  # hwprof-sim --pc-counts: the stream counted already
            count[int(w[0], 16)] += int(w[1])
            taken[int(w[0], 16)] += int(w[2])
            continue
        pc = int(raw, 16)
        count[pc] += 1
        if prev is not None and pc != prev + 4:
            taken[prev] += 1
        prev = pc
    return count, taken


def check_stream(info, elf, pcs_path):
    count, taken = read_stream(pcs_path)
    table = line_table(elf)
    branch_pcs = {blk for rec in info.values() for (_, blk) in rec["BRDA"]}
    where = lines_of(table, set(count) | branch_pcs)
    segs = branch_oracle.segments(elf)
    # the tracefile's files by base name (the oracle's line table names files by base name only):
    # a base name two of its files share is left out
    by_base = defaultdict(list)
    for f in info:
        by_base[os.path.basename(f)].append(f)
    ambiguous = {b for b, fs in by_base.items() if len(fs) > 1}
    truth = defaultdict(int)  # (base name, line) -> most retirements of one instruction
    for pc, c in count.items():
        if pc in where:
            truth[where[pc]] = max(truth[where[pc]], c)
    diff = compared = branches = skipped = 0
    shown = []
    for f, rec in info.items():
        base = os.path.basename(f)
        if base in ambiguous:
            skipped += len(rec["DA"])
            continue
        for ln, c in rec["DA"].items():
            compared += 1
            if truth.get((base, ln), 0) != c:
                diff += 1
                shown.append(f"{f}:{ln}: tracefile {c}, retire stream {truth.get((base, ln), 0)}")
        for (ln, blk), brs in rec["BRDA"].items():
            w = branch_oracle.word_at(segs, blk)
            if w is None or w & 0x7F != 0x63:
                continue  # not a conditional branch (an indirect jump's targets)
            branches += 1
            got = [c for _, c in sorted(brs)]
            want = [taken[blk], count[blk] - taken[blk]]
            if branch_oracle.branch_target(blk, w) == blk + 4 and len(got) == 2:
                # a branch to the next word: the stream cannot tell its ways apart, only their sum
                got, want = [sum(got)], [count[blk]]
            if got != want or where.get(blk) != (base, ln):
                diff += 1
                shown.append(f"{f}:{ln}: branch at 0x{blk:08x}: tracefile {got}, retire stream {want}"
                             f" (line {where.get(blk)})")
    # every line that ran code of a function the tracefile profiles has a record
    profiled = {(os.path.basename(f), ln) for f, rec in info.items() for ln in rec["DA"]}
    names = {name for rec in info.values() for name in rec["FNDA"]}
    for lo, size in function_ranges(elf, names):
        for pc in range(lo, lo + size, 4):
            if count[pc] and pc in where and where[pc] not in profiled and where[pc][0] not in ambiguous:
                diff += 1
                shown.append(f"{where[pc][0]}:{where[pc][1]}: ran (0x{pc:08x}), no DA record")
    for line in shown[:10]:
        print("  " + line)
    print(f"lcov oracle (retire stream): {compared} lines and {branches} conditional branches compared"
          f" ({skipped} lines of files sharing a base name not compared), {diff} differ")
    return 1 if diff or not compared else 0


def counter_code(elf):
    """addresses of the instructions that address gcov's counters (a relocation against a __gcov0.
    symbol; the program is linked with --emit-relocs): GCC emits no line-table row for the counter
    updates it inserts on edges, so they take the line of the row before them"""
    r = subprocess.run(["riscv64-unknown-elf-objdump", "-dr", elf], capture_output=True, text=True)
    if r.returncode != 0:
        raise OSError(f"{elf}: objdump failed: {r.stderr.strip()}")
    return sorted(int(m.group(1), 16) for m in re.finditer(r"^\s+([0-9a-f]+): R_RISCV_\w+\s+__gcov0\.", r.stdout, re.M))


CASE_LABEL = re.compile(r"^\s*(case\b[^:]*|default)\s*:\s*$")
BRACE = re.compile(r"^\s*[{}]\s*(/\*.*\*/|//.*)?$")


def source_line(path, ln, cache={}):
    if path not in cache:
        try:
            with open(path, errors="replace") as f:
                cache[path] = f.read().split("\n")
        except OSError:
            cache[path] = []
    text = cache[path]
    return text[ln - 1] if 0 < ln <= len(text) else None


def check_gcov(info, gcov_json, elf, pcs_path):
    """gcov of an -O0 --coverage build against the tracefile of the same run (see the usage)"""
    docs = []
    with open(gcov_json) as f:
        docs = [json.loads(line) for line in f if line.strip()]
    counters = counter_code(elf)
    count, _ = read_stream(pcs_path)
    # per (base name, line) whose code runs into counter updates: the most retirements of one of
    # its own instructions (those before the counter code of each of its ranges)
    # and of all its instructions (what the tracefile must say, as the line table defines the line)
    own, whole = {}, {}
    table = line_table(elf)
    for lo, hi, base, ln in table:
        i = bisect.bisect_left(counters, lo)
        if i < len(counters) and counters[i] < hi:
            own[(base, ln)] = max([own.get((base, ln), 0)] + [count[a] for a in range(lo, counters[i], 4)])
    for lo, hi, base, ln in table:
        if (base, ln) not in own:
            continue
        whole[(base, ln)] = max([whole.get((base, ln), 0)] + [count[a] for a in range(lo, hi, 4)])
        i = bisect.bisect_left(counters, lo)
        if not (i < len(counters) and counters[i] < hi):  # its ranges without counter code are its own whole
            own[(base, ln)] = max([own[(base, ln)]] + [count[a] for a in range(lo, hi, 4)])
    n = Counter()
    bad = []
    for d in docs:
        cwd = d.get("current_working_directory", "")
        for fl in d.get("files", []):
            path = os.path.normpath(os.path.join(cwd, fl["file"]))
            base = os.path.basename(path)
            gl = {}
            for L in fl["lines"]:
                gl.setdefault(L["line_number"], L["count"])
            starts = {fn["start_line"] for fn in fl.get("functions", [])}
            ours = info.get(path)
            if ours is None:  # a file whose code the linker left out: gcov has only zeros for it
                n["file_no_code"] += len(gl)
                if any(gl.values()):
                    bad.append(f"{path}: gcov counts lines of a file the tracefile does not have")
                continue
            for ln, c in sorted(gl.items()):
                if ln in ours["DA"]:
                    n["both"] += 1
                    n["count_equal"] += ours["DA"][ln] == c
                    if (ours["DA"][ln] > 0) == (c > 0):
                        n["executed_equal"] += 1
                    elif (base, ln) in own and (own[(base, ln)] > 0) == (c > 0) and whole[(base, ln)] == ours["DA"][ln]:
                        n["counter_code"] += 1
                    else:
                        bad.append(f"{path}:{ln}: gcov {c}, tracefile {ours['DA'][ln]}: {source_line(path, ln)!r}")
                elif ln in starts:
                    n["declarator"] += 1
                elif CASE_LABEL.match(source_line(path, ln) or "x"):
                    n["case_label"] += 1
                else:
                    bad.append(f"{path}:{ln}: only gcov lists it ({c}): {source_line(path, ln)!r}")
            for ln in sorted(set(ours["DA"]) - set(gl)):
                if BRACE.match(source_line(path, ln) or "x"):
                    n["brace"] += 1
                else:
                    bad.append(f"{path}:{ln}: only the tracefile lists it ({ours['DA'][ln]}): {source_line(path, ln)!r}")
            for fn in fl.get("functions", []):
                if fn["name"] in ours["FNDA"]:
                    n["fn_both"] += 1
                    if ours["FNDA"][fn["name"]] != fn["execution_count"]:
                        bad.append(f"{path}: {fn['name']}: gcov {fn['execution_count']} calls,"
                                   f" tracefile {ours['FNDA'][fn['name']]}")
    for line in bad[:10]:
        print("  " + line)
    print(f"lcov oracle (gcov): {n['both']} lines in both, executed in both or in neither {n['executed_equal']}"
          f" (counts equal {n['count_equal']}), {n['counter_code']} running into gcov's counter code;"
          f" only gcov's: {n['declarator']} function declarators, {n['case_label']} case labels,"
          f" {n['file_no_code']} of files without code; only the tracefile's: {n['brace']} braces;"
          f" {n['fn_both']} functions in both; {len(bad)} differences")
    return 1 if bad or not n["fn_both"] else 0


def main(argv):
    try:
        if len(argv) == 5 and argv[1] == "stream":
            return check_stream(read_info(argv[2]), argv[3], argv[4])
        if len(argv) == 6 and argv[1] == "gcov":
            return check_gcov(read_info(argv[2]), argv[3], argv[4], argv[5])
    except (OSError, ValueError, KeyError) as e:
        print(f"lcov oracle: error: {e}", file=sys.stderr)
        return 2
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
