#!/usr/bin/python3
"""make plots: the code cache's figures (docs/dynopt.md, "Hot traces into the code cache"), from
what tools/tracecache_bench.sh measured (BUILD/bench/tracecache.tsv).

Left: what layout does to each program's own cycles (outside the trap handler): hot traces in the
code cache against the compiler's layout (-tc / -fw), with the share of its instructions the cache
ran, and the offline bound, the program laid out from its whole run's profile against the program
alone (static / plain). Right: the whole run's cycles, handler included, -tc against -fw.

usage: plot_tracecache.py TSV OUT.png
"""
import csv
import sys


def main(argv):
    if len(argv) != 3 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) == 2 and argv[1] in ("-h", "--help") else 2
    tsv, out = argv[1], argv[2]
    try:
        with open(tsv) as f:
            rows = list(csv.DictReader(f, delimiter="\t"))
    except OSError as e:
        sys.stderr.write("plot_tracecache: error: %s: %s (tools/tracecache_bench.sh makes it)\n" % (tsv, e.strerror))
        return 2
    need = ("program", "plain_prog_cycles", "static_prog_cycles", "fw_prog_cycles", "fw_all_cycles", "tc_prog_cycles",
            "tc_all_cycles", "cached")
    if not rows or any(k not in rows[0] for k in need):
        sys.stderr.write("plot_tracecache: error: %s: no programs, or not the bench's columns\n" % tsv)
        return 2
    try:
        data = [(r["program"], int(r["plain_prog_cycles"]), int(r["fw_prog_cycles"]), int(r["fw_all_cycles"]),
                 int(r["tc_prog_cycles"]), int(r["tc_all_cycles"]), float(r["cached"]), int(r["static_prog_cycles"]))
                for r in rows]
    except ValueError as e:
        sys.stderr.write("plot_tracecache: error: %s: %s\n" % (tsv, e))
        return 2
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.stderr.write("plot_tracecache: error: matplotlib not found (make deps installs python3-matplotlib)\n")
        return 2

    names = [d[0] for d in data]
    y = list(range(len(data)))
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 0.42 * len(data) + 1.8), sharey=True)
    h = 0.38
    ax1.barh([i - h / 2 for i in y], [d[7] / d[1] for d in data], h, label="offline bound: static layout / plain",
             color="#999999")
    ax1.barh([i + h / 2 for i in y], [d[4] / d[2] for d in data], h, label="hot traces in the code cache / -fw",
             color="#1f77b4")
    ax1.axvline(1.0, color="black", linewidth=0.8)
    for i, d in enumerate(data):
        ax1.text(max(d[4] / d[2], 1.0) + 0.02, i + h / 2, "%.0f%% cached" % d[6], va="center", fontsize=7)
    ax1.set_xlabel("program cycles / with the compiler's layout")
    ax1.set_title("layout: the program's own cycles")
    ax1.legend(loc="upper center", bbox_to_anchor=(0.5, -0.07), ncol=2, fontsize=8)
    ax2.barh(y, [d[5] / d[3] for d in data], 0.6, color="#2ca02c")
    ax2.axvline(1.0, color="black", linewidth=0.8)
    ax2.set_xlabel("whole-run cycles / without the cache")
    ax2.set_title("the whole run, sampling handler included")
    ax1.set_yticks(y)
    ax1.set_yticklabels(names, fontsize=8)
    ax1.invert_yaxis()
    fig.suptitle("Hot traces into the code cache (make bench section 9; 1 cycle per instruction + 2 per taken transfer)",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print("plot_tracecache: wrote %s" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
