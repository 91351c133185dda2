#!/usr/bin/env python3
"""Summarize a Verilator coverage.dat by coverage type and source file.

usage: covsum.py COVERAGE_DAT
Prints, for line and toggle coverage (and branch if present), covered/total points per RTL file.
"""
import collections
import re
import sys


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    path = sys.argv[1]
    stats = collections.defaultdict(lambda: [0, 0])  # (type, file) -> [covered, total]
    pat = re.compile(r"^C '(.*)' (\d+)$")
    try:
        with open(path, encoding="latin-1") as f:
            for ln in f:
                m = pat.match(ln.rstrip("\n"))
                if not m:
                    continue
                fields = dict(kv.split("\x02", 1) for kv in m.group(1).split("\x01") if "\x02" in kv)
                kind = fields.get("page", "?").split("/")[0].replace("v_", "")
                src = fields.get("f", "?").split("/")[-1]
                st = stats[(kind, src)]
                st[1] += 1
                st[0] += int(m.group(2)) > 0
    except OSError as e:
        print(f"covsum: error: {path}: {e.strerror}", file=sys.stderr)
        return 2
    if not stats:
        print(f"covsum: error: {path}: no coverage points", file=sys.stderr)
        return 1
    print(f"{'type':8} {'file':22} {'covered':>8} {'total':>7} {'percent':>8}")
    for kind in sorted({k for k, _ in stats}):
        tc = tt = 0
        for (k, src), (c, t) in sorted(stats.items()):
            if k != kind:
                continue
            tc += c
            tt += t
            print(f"{kind:8} {src:22} {c:8} {t:7} {100.0 * c / t:7.1f}%")
        print(f"{kind:8} {'TOTAL':22} {tc:8} {tt:7} {100.0 * tc / tt:7.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
