#!/usr/bin/python3
"""Draws make bench section 13 (tools/pgo_bench.sh, docs/report.md): for each program, the cycles
saved by GCC's instrumented PGO, by GCC fed the hardware's profile (AutoFDO file), by GCC's unrolling
flags alone and by clang fed the hardware's profile (LLVM sample profile), each against the same
compiler without a profile.

usage: plot_pgo.py BUILD_DIR OUT.png   (reads BUILD_DIR/pgo/NAME/result, written by pgo_bench.sh)"""
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(argv):
    if len(argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    base = os.path.join(argv[1], "pgo")
    rows = []
    try:
        for name in sorted(os.listdir(base)):
            path = os.path.join(base, name, "result")
            if os.path.isfile(path):
                with open(path) as f:
                    w = f.read().split()
                if len(w) != 13:
                    raise ValueError(f"{path}: expected 13 fields, found {len(w)}")
                rows.append((w[0], [int(x) for x in w[1:]]))
    except (OSError, ValueError) as e:
        print(f"plot_pgo: error: {e}", file=sys.stderr)
        return 2
    if not rows:
        print(f"plot_pgo: error: no results under {base} (run tools/pgo_bench.sh first)", file=sys.stderr)
        return 2
    # result: name gcc gcc-pgo clang clang-hw prof-plain-insns prof-hw-insns gcc-unroll gcc-hw gcc-hwi clang-hwi
    # gcc-insns gcc-instrumented-insns
    series = [("GCC, instrumented PGO", lambda c: (c[0], c[1])),
              ("GCC, hardware profile of a -fno-inline build (AutoFDO)", lambda c: (c[0], c[7])),
              ("GCC, hardware profile of the -O2 build itself (AutoFDO, inline stacks)", lambda c: (c[0], c[8])),
              ("GCC, unrolling flags, no profile", lambda c: (c[0], c[6])),
              ("clang, hardware profile of a -fno-inline build (sample)", lambda c: (c[2], c[3])),
              ("clang, hardware profile of the -O2 build itself (sample, inline stacks)", lambda c: (c[2], c[9]))]
    names = [r[0] for r in rows] + ["geomean"]
    fig, ax = plt.subplots(figsize=(14, 5.5))
    width = 0.13
    for k, (label, pick) in enumerate(series):
        gains = []
        logs = 0.0
        for _, c in rows:
            base_c, new_c = pick(c)
            gains.append(100.0 * (base_c - new_c) / base_c)
            logs += math.log(base_c / new_c)
        gains.append(100.0 * (1 - math.exp(-logs / len(rows))))
        xs = [i + (k - (len(series) - 1) / 2) * width for i in range(len(names))]
        ax.bar(xs, gains, width, label=label)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=45, ha="right")
    ax.set_ylabel("cycles saved against the same compiler without a profile (%)")
    ax.set_ylim(-50, 60)
    ax.set_title("Profile-guided builds (taken-transfer penalty 2, 8 KiB instruction cache): make bench section 13")
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(argv[2], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
