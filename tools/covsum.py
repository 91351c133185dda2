#!/usr/bin/env python3
"""Summarize a Verilator coverage.dat by coverage type and source file.

usage: covsum.py COVERAGE_DAT [--waivers=FILE] [--uncovered=N]
Prints, for line and toggle coverage (and branch if present), covered/total points per RTL file; a
point reached through several instances (or benches) counts once, covered if any covered it.

With --waivers, the points a waiver names are left out of the figures and listed with the waiver's
reason (docs/verification.md, "Coverage"). A waiver line is

    KIND FILE REGEX  -- reason

KIND is line or toggle, FILE an RTL file name (rtl/ and the directory left out), REGEX a Python
regular expression that must match the whole point name (a signal and bit for toggle, e.g.
'mem_req_addr_o\\[(1[6-9]|[23]\\d)\\]'; for line coverage the point's kind and line, 'if:120'). Every
waiver needs a reason; a waiver that matches no point, or one that waives a point the runs did
cover, is reported, so the file cannot hide a real gap or go stale silently. --uncovered=N lists
up to N points neither covered nor waived, by file.
"""
import collections
import re
import sys


def parse_waivers(path):
    waivers = []
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            ln = raw.strip()
            if not ln or ln.startswith("#"):
                continue
            rule, sep, reason = ln.partition(" -- ")
            parts = rule.split()
            if not sep or not reason.strip() or len(parts) != 3 or parts[0] not in ("line", "toggle"):
                raise ValueError(f"{path}:{n}: expected 'line|toggle FILE REGEX -- reason'")
            try:
                rx = re.compile(parts[2])
            except re.error as e:
                raise ValueError(f"{path}:{n}: bad regular expression: {e}") from None
            waivers.append({"line": n, "kind": parts[0], "file": parts[1], "rx": rx, "text": parts[2],
                             "reason": reason.strip(), "points": 0, "covered": 0})
    return waivers


def point_name(kind, fields):
    if kind == "toggle":
        return fields.get("o", "?")
    return f"{fields.get('o', '?')}:{fields.get('l', '?')}"


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    opts = dict(a[2:].split("=", 1) for a in argv[1:] if a.startswith("--") and "=" in a)
    if len(args) != 1 or any(a.startswith("--") and "=" not in a for a in argv[1:]):
        print(__doc__, file=sys.stderr)
        return 2
    path = args[0]
    try:
        waivers = parse_waivers(opts["waivers"]) if "waivers" in opts else []
        show = int(opts.get("uncovered", "0"))
    except (OSError, ValueError) as e:
        print(f"covsum: error: {e}", file=sys.stderr)
        return 2
    # A point is a place in the source: the same line reached through two instances (a block in its
    # own bench and inside hwprof_top) is one point, covered if either instance covered it.
    points = {}  # (type, file, line, point name, span) -> covered
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
                key = (kind, src, fields.get("l"), point_name(kind, fields), fields.get("S"))
                points[key] = points.get(key, False) or int(m.group(2)) > 0
    except OSError as e:
        print(f"covsum: error: {path}: {e.strerror}", file=sys.stderr)
        return 2
    stats = collections.defaultdict(lambda: [0, 0, 0])  # (type, file) -> [covered, total, waived]
    uncovered = collections.defaultdict(list)
    for (kind, src, _line, name, _span), covered in points.items():
        w = next((w for w in waivers if w["kind"] == kind and w["file"] == src and w["rx"].fullmatch(name)), None)
        if w:
            w["points"] += 1
            w["covered"] += covered
            stats[(kind, src)][2] += 1
            continue
        stats[(kind, src)][1] += 1
        stats[(kind, src)][0] += covered
        if not covered:
            uncovered[(kind, src)].append(name)
    if not stats:
        print(f"covsum: error: {path}: no coverage points", file=sys.stderr)
        return 1
    print(f"{'type':8} {'file':24} {'covered':>8} {'total':>7} {'percent':>8} {'waived':>7}")
    for kind in sorted({k for k, _ in stats}):
        tc = tt = tw = 0
        for (k, src), (c, t, wv) in sorted(stats.items()):
            if k != kind:
                continue
            tc, tt, tw = tc + c, tt + t, tw + wv
            print(f"{kind:8} {src:24} {c:8} {t:7} {100.0 * c / t if t else 100.0:7.1f}% {wv:7}")
        line = f"{kind:8} {'TOTAL':24} {tc:8} {tt:7} {100.0 * tc / tt if tt else 100.0:7.1f}% {tw:7}"
        if tw:
            line += f"   (without waivers: {tc} of {tt + tw}, {100.0 * tc / (tt + tw):.1f}%)"
        print(line)
    if waivers:
        print(f"\nwaivers ({opts['waivers']}): {sum(w['points'] for w in waivers)} points")
        for w in waivers:
            flag = " NO POINT MATCHES" if not w["points"] else (f" ({w['covered']} of them covered)" if w["covered"] else "")
            print(f"  {w['kind']:6} {w['file']:22} {w['text']:34} {w['points']:5} points{flag}: {w['reason']}")
    if show:
        print(f"\nuncovered points, not waived (up to {show}):")
        left = show
        for (kind, src), names in sorted(uncovered.items()):
            if left <= 0:
                break
            shown = names[:left]
            left -= len(shown)
            print(f"  {kind} {src}: {', '.join(shown)}{' ...' if len(names) > len(shown) else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
