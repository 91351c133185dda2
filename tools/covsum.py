#!/usr/bin/env python3
"""Summarize a Verilator coverage.dat by coverage type and source file.

usage: covsum.py COVERAGE_DAT
Prints, for line and toggle coverage (and branch if present), covered/total points per RTL file; a
point reached through several instances (or benches) counts once, covered if any covered it.
"""
import collections
import re
import sys


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    path = sys.argv[1]
    # A point is a place in the source: the same line reached through two instances (a block in its
    # own bench and inside hwprof_top) is one point, covered if either instance covered it.
    points = {}  # (type, file, point fields but the hierarchy) -> covered
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
                # the place: line, kind of point and span (not the instance's hierarchy, page or column)
                key = (kind, src, fields.get("l"), fields.get("o"), fields.get("S"))
                points[key] = points.get(key, False) or int(m.group(2)) > 0
    except OSError as e:
        print(f"covsum: error: {path}: {e.strerror}", file=sys.stderr)
        return 2
    stats = collections.defaultdict(lambda: [0, 0])  # (type, file) -> [covered, total]
    for (kind, src, *_), covered in points.items():
        stats[(kind, src)][1] += 1
        stats[(kind, src)][0] += covered
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
