#!/usr/bin/python3
"""The phase timeline of a hwprof-wpp analysis (docs/wpp.md): the runs of the hottest paths over the
program's instructions (one row per path, the rest in one row), the strata below them, and the phase
changes the hash tables' sorts reported as vertical lines. Reads PREFIX.idx (the indexed run file)
and PREFIX.log (the summary).

usage: tools/plot_wpp.py PREFIX OUT.png [--paths=N]"""
import re
import struct
import sys

MAGIC = b"HWPWPPIX"


def load_index(path):
    with open(path, "rb") as f:
        buf = f.read()
    if len(buf) < 32 or buf[:8] != MAGIC:
        raise ValueError(f"{path}: not a hwprof-wpp index file")
    _, levels, insns, _paths = struct.unpack_from("<IIQQ", buf, 8)
    off, runs = 32, []
    for k in range(levels):
        if off + 8 > len(buf):
            raise ValueError(f"{path}: truncated at offset {off}")
        (n,) = struct.unpack_from("<Q", buf, off)
        off += 8
        if off + n * 36 > len(buf):
            raise ValueError(f"{path}: truncated at offset {off}")
        level = [struct.unpack_from("<QQQII", buf, off + 32 * i) for i in range(n)]
        off += 32 * n + 4 * n
        runs.append(level)
    return insns, runs


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    if len(args) != 2 or any(a in ("-h", "--help") for a in argv[1:]):
        print(__doc__)
        return 0 if "--help" in argv or "-h" in argv else 2
    npaths = 12
    for a in argv[1:]:
        if a.startswith("--paths="):
            npaths = int(a[8:])
    prefix, out = args
    try:
        insns, runs = load_index(prefix + ".idx")
        log = open(prefix + ".log").read()
    except (OSError, ValueError) as e:
        print(f"plot_wpp: error: {e}", file=sys.stderr)
        return 1
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    heat = {}
    for start, end, _pe, unit, _trips in runs[0]:
        heat[unit] = heat.get(unit, 0) + end - start
    hot = sorted(heat, key=lambda u: (-heat[u], u))[:npaths]
    row = {u: i for i, u in enumerate(hot)}
    fig, ax = plt.subplots(figsize=(11, 0.35 * (npaths + 4) + 1.5))
    cmap = plt.get_cmap("tab20")
    bars = {}
    for start, end, _pe, unit, _trips in runs[0]:
        r = row.get(unit, npaths)
        bars.setdefault(r, []).append((start, end - start))
    for r, spans in bars.items():
        ax.broken_barh(spans, (r - 0.4, 0.8), color=cmap(r % 20) if r < npaths else "0.7", linewidth=0)
    labels = [f"path {u}" for u in hot] + ["other paths"]
    if len(runs) > 1:  # the strata, one row, coloured by stratum
        spans = {}
        for start, end, _pe, unit, _trips in runs[1]:
            spans.setdefault(unit % 20, []).append((start, end - start))
        for c, s in spans.items():
            ax.broken_barh(s, (npaths + 1 - 0.4, 0.8), color=cmap(c), linewidth=0)
        labels.append("strata")
    for m in re.finditer(r"^phase change: instruction (\d+), (\w+):", log, re.M):
        ax.axvline(int(m.group(1)), color="red", linewidth=0.8, alpha=0.6)
    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, max(insns, 1))
    ax.set_xlabel("instructions (red: phase changes reported by the hash tables' sorts)")
    first = log.splitlines()[0].replace("# hwprof-wpp analyze: ", "") if log else prefix
    ax.set_title(f"whole-program paths: {first}", fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"plot_wpp: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
