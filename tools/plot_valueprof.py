#!/usr/bin/python3
"""make plots: the load-value profiling figures (docs/vpf.md), from what
tools/valueprof_eval.sh measured (BUILD/bench/valueprof.tsv and BUILD/bench/vp/*.pairs).

  valueprof-bars.png      per program, the error and the overhead of both profilers (seed 001's
                          Figure 6 layout)
  valueprof-scatter.png   per program, estimated against true invariance of every pair counted,
                          the marker by how often the value was loaded (Figure 5's layout)
  valueprof-curves.png    per program, error against overhead in cycles: simple sampling at one
                          load in 16 .. 4096 (mean and range over 5 prescaler phases) and the
                          co-processor's settings (mean and range over 5 LFSR seeds), from
                          BUILD/bench/vp-curves.tsv (tools/valueprof_curves.py, make bench section 7)
  valueprof-arrays.png    per program, the co-processor's error and overhead (cycles) with 128, 256
                          and 512 slots and with its engine at 1, 1/2, 1/4 and 1/8 of the system
                          clock, mean and range over 5 seeds (Figure 9's layout; section 7c)
  valueprof-arrays-convergence.png
                          the error of a snapshot every 200,000 instructions at the three array
                          sizes, against the program's instructions and against the profiling
                          instructions so far (Figure 8's layout; BUILD/bench/vp-arrays/)
  valueprof-convergence-instructions.png, -overhead.png
                          per program, the error of the profile at every timer snapshot against
                          the program's instructions and against the profiling instructions so
                          far (Figure 7's layout)

usage: plot_valueprof.py BUILD_DIR OUT_DIR
"""
import csv
import os
import sys


def grid(plt, n, cols, height):
    """a figure of n panels, cols a row, each hidden until drawn in"""
    nrows = (n + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(4 * cols, height * nrows), squeeze=False)
    for ax in axes.flat:
        ax.set_visible(False)
    return fig, axes


def plot_curves(plt, build, out):
    """error against overhead (cycles) per program, both profilers; None without the data"""
    tsv = os.path.join(build, "bench", "vp-curves.tsv")
    if not os.path.exists(tsv):
        return None
    with open(tsv) as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if not r.get("failed")]
    progs = []
    for r in rows:
        if r["program"] not in progs:
            progs.append(r["program"])
    fig, axes = grid(plt, len(progs), 4, 3.2)
    for ax, prog in zip(axes.flat, progs):
        rs = [r for r in rows if r["program"] == prog]
        off = {(r["kind"], r["repeat"]): int(r["run_cycles"]) for r in rs if r["kind"].endswith("off")}
        runs = [r for r in rs if r["kind"] in ("ss", "vp") and (r["kind"] + "-off", r["repeat"]) in off]
        if not runs:
            continue
        R = min(int(r["repeat"]) for r in runs)
        runs = [r for r in runs if int(r["repeat"]) == R]
        ax.set_visible(True)

        def ovh(r):
            b = off[(r["kind"] + "-off", r["repeat"])]
            return max(100.0 * (int(r["run_cycles"]) - b) / b, 1e-3)

        for kind, colour, label in (("ss", "C1", "simple sampling 1/N"), ("vp", "C0", "co-processor settings")):
            groups = {}
            for r in runs:
                if r["kind"] == kind:
                    groups.setdefault(r["setting"], []).append(r)
            pts = []
            for setting, g in groups.items():
                o = [ovh(r) for r in g]
                e = [float(r["error"]) for r in g]
                pts.append((sum(o) / len(o), sum(e) / len(e), min(e), max(e), setting))
            pts.sort()
            if not pts:
                continue
            ax.errorbar([p[0] for p in pts], [p[1] for p in pts], yerr=[[p[1] - p[2] for p in pts], [p[3] - p[1] for p in pts]],
                        color=colour, marker="o", markersize=3, linestyle="-" if kind == "ss" else "none", capsize=2,
                        label=label)
            for p in pts:
                ax.annotate(p[4] if kind == "ss" else p[4][:7], (p[0], p[1]), fontsize=5, color=colour)
        ax.set_xscale("log")
        ax.set_title("%s (x%d)" % (prog, R), fontsize=9)
        ax.set_xlabel("overhead, % cycles", fontsize=7)
        ax.set_ylabel("seed 001 error", fontsize=7)
        ax.set_ylim(bottom=0)
        ax.tick_params(labelsize=6)
    h, l = next(ax for ax in axes.flat if ax.get_visible()).get_legend_handles_labels()
    fig.legend(h, l, loc="lower center", ncol=2, fontsize=8)
    fig.suptitle("Error against what the run pays (cycles), mean and range over 5 phases or seeds (make bench section 7)")
    fig.tight_layout(rect=(0, 0.04, 1, 0.96))
    path = os.path.join(out, "valueprof-curves.png")
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def plot_sensitivity(plt, build, out):
    """section 7c: the co-processor's default setting at three array sizes and four clock ratios
    (Figure 9), and its convergence at the three sizes (Figure 8); [] without the data"""
    tsv = os.path.join(build, "bench", "vp-curves.tsv")
    if not os.path.exists(tsv):
        return []
    with open(tsv) as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if not r.get("failed")]
    configs = [("vp", "default", "256 slots"), ("vp-arrays", "128", "128 slots"), ("vp-arrays", "512", "512 slots"),
               ("vp-clock", "2", "clock 1/2"), ("vp-clock", "4", "clock 1/4"), ("vp-clock", "8", "clock 1/8")]
    progs, data = [], {}
    for prog in dict.fromkeys(r["program"] for r in rows):
        rs = [r for r in rows if r["program"] == prog]
        offs = {int(r["repeat"]): int(r["run_cycles"]) for r in rs if r["kind"] == "vp-off"}
        if not offs or not any(r["kind"] in ("vp-arrays", "vp-clock") for r in rs):
            continue
        R = min(offs)
        for kind, setting, label in configs:
            pts = [r for r in rs if r["kind"] == kind and r["setting"] == setting and int(r["repeat"]) == R]
            if pts:
                o = [100.0 * (int(r["run_cycles"]) - offs[R]) / offs[R] for r in pts]
                e = [float(r["error"]) for r in pts]
                data[(prog, label)] = (sum(o) / len(o), min(o), max(o), sum(e) / len(e), min(e), max(e))
        progs.append(prog)
    if not progs:
        return []
    written = []
    fig, axes = plt.subplots(4, 1, figsize=(12, 11), sharex=True)
    x = range(len(progs))
    for row, group in ((0, configs[:3]), (2, [configs[0]] + configs[3:])):
        w = 0.8 / len(group)
        for n, (_, _, label) in enumerate(group):
            xs = [k - 0.4 + w * (n + 0.5) for k in x]
            for ax, i in ((axes[row], 3), (axes[row + 1], 0)):
                vals = [data.get((p, label), (0,) * 6) for p in progs]
                ax.bar(xs, [v[i] for v in vals], w, yerr=[[v[i] - v[i + 1] for v in vals], [v[i + 2] - v[i] for v in vals]],
                       capsize=1.5, label=label, color="C%d" % n)
        axes[row].set_ylabel("error", fontsize=8)
        axes[row].set_ylim(bottom=0)
        axes[row + 1].set_ylabel("overhead, % cycles", fontsize=8)
        axes[row].legend(loc="upper left", fontsize=7, ncol=len(group))
    axes[3].set_xticks(list(x))
    axes[3].set_xticklabels(progs, rotation=30, ha="right", fontsize=8)
    fig.suptitle("The co-processor's sensitivity to its arrays and its clock (seed 001 Figure 9; make bench section 7c):"
                 " mean and range over 5 seeds", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    path = os.path.join(out, "valueprof-arrays.png")
    fig.savefig(path, dpi=90)
    plt.close(fig)
    written.append(path)
    d = os.path.join(build, "bench", "vp-arrays")
    conv = sorted({f.rsplit("-", 1)[0] for f in os.listdir(d) if f.endswith(".curve")}) if os.path.isdir(d) else []
    if conv:
        fig, axes = plt.subplots(len(conv), 2, figsize=(10, 3.2 * len(conv)), squeeze=False)
        for ax_row, prog in zip(axes, conv):
            for slots, colour in (("128", "C1"), ("256", "C0"), ("512", "C2")):
                path = os.path.join(d, "%s-%s.curve" % (prog, slots))
                if not os.path.exists(path):
                    continue
                with open(path) as f:
                    pts = [line.split() for line in f if not line.startswith("#")]
                for ax, col in zip(ax_row, (0, 1)):
                    ax.plot([int(p[col]) for p in pts], [float(p[2]) for p in pts], color=colour, marker=".",
                            markersize=3, label="%s slots" % slots)
            for ax, label in zip(ax_row, ("program instructions executed", "profiling instructions spent")):
                ax.set_title(prog, fontsize=9)
                ax.set_xlabel(label, fontsize=8)
                ax.set_ylabel("weighted RMS error", fontsize=8)
                ax.set_ylim(bottom=0)
                ax.tick_params(labelsize=7)
                ax.legend(fontsize=7)
        fig.suptitle("How fast the profile converges with half, Table 1's and twice the arrays (seed 001 Figure 8)",
                     fontsize=10)
        fig.tight_layout(rect=(0, 0, 1, 0.96))
        path = os.path.join(out, "valueprof-arrays-convergence.png")
        fig.savefig(path, dpi=90)
        plt.close(fig)
        written.append(path)
    return written


def main(argv):
    if len(argv) != 3 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) == 2 else 2
    build, out = argv[1], argv[2]
    tsv = os.path.join(build, "bench", "valueprof.tsv")
    curves_tsv = os.path.join(build, "bench", "vp-curves.tsv")
    if not os.path.exists(tsv) and not os.path.exists(curves_tsv):
        sys.stderr.write("plot_valueprof: error: neither %s nor %s (tools/valueprof_eval.sh and tools/valueprof_curves.py "
                         "make them)\n" % (tsv, curves_tsv))
        return 2
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.stderr.write("plot_valueprof: error: matplotlib not found (make deps installs python3-matplotlib)\n")
        return 2
    if not os.path.exists(tsv):
        os.makedirs(out, exist_ok=True)
        written = [plot_curves(plt, build, out)] + plot_sensitivity(plt, build, out)
        print("plot_valueprof: wrote %s (no %s: the single-run figures are not drawn)" % (", ".join(written), tsv))
        return 0
    with open(tsv) as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    if not rows:
        sys.stderr.write("plot_valueprof: error: %s has no programs\n" % tsv)
        return 2
    os.makedirs(out, exist_ok=True)
    names = [r["program"] for r in rows]
    x = range(len(rows))
    w = 0.38

    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(10, 6.5), sharex=True)
    ax1.bar([k - w / 2 for k in x], [float(r["cop_error"]) for r in rows], w, label="co-processor (seed 001)")
    ax1.bar([k + w / 2 for k in x], [float(r["ss_error"]) for r in rows], w, label="simple sampling, 1 in 1024")
    ax1.set_ylabel("weighted RMS error\nof invariance")
    ax1.legend(loc="upper left", fontsize=8)
    for k, r in enumerate(rows):
        if int(r["pairs"]) == 0:
            ax1.text(k, 0.01, "no pairs", ha="center", fontsize=7, rotation=90)
    ax2.bar([k - w / 2 for k in x], [float(r["cop_overhead"]) for r in rows], w)
    ax2.bar([k + w / 2 for k in x], [float(r["ss_overhead"]) for r in rows], w)
    ax2.set_ylabel("overhead\n(% of the program's instructions)")
    ax2.set_xticks(list(x))
    ax2.set_xticklabels(names, rotation=30, ha="right")
    fig.suptitle("Load-value profiling: error and overhead per program (make bench, section 7)")
    fig.tight_layout()
    bars = os.path.join(out, "valueprof-bars.png")
    fig.savefig(bars, dpi=110)
    plt.close(fig)

    shown = [r for r in rows if int(r["pairs"]) > 0]
    fig, axes = grid(plt, len(shown), 3, 3.6)
    for ax, r in zip(axes.flat, shown):
        ax.set_visible(True)
        for kind, colour, label in (("vp", "C0", "co-processor"), ("ss", "C1", "simple sampling")):
            path = os.path.join(build, "bench", "vp", "%s-%s.pairs" % (r["program"], kind))
            pts = []
            with open(path) as f:
                for line in f:
                    if line.startswith("#"):
                        continue
                    _, _, _, n, t, e = line.split()  # the marker by the value's instances (Figure 5)
                    if int(n) >= 200:  # seed 001's pairs only
                        pts.append((float(t), float(e), int(n)))
            for lo, hi, marker in ((0, 1000, "."), (1000, 10000, "o"), (10000, 1 << 62, "s")):
                sel = [p for p in pts if lo <= p[2] < hi]
                if sel:
                    ax.scatter([p[0] for p in sel], [p[1] for p in sel], s=14 if marker == "." else 18, marker=marker,
                               facecolors="none" if marker != "." else colour, edgecolors=colour, alpha=0.7,
                               label="%s, %s" % (label, {".": "value <1k times", "o": "1k-10k", "s": ">10k"}[marker]))
        ax.plot([0, 1], [0, 1], color="grey", linewidth=0.8)
        ax.set_xlim(0, 1.02)
        ax.set_ylim(-0.02, 1.02)
        ax.set_title("%s (%s pairs)" % (r["program"], r["pairs"]), fontsize=9)
        ax.set_xlabel("true invariance", fontsize=8)
        ax.set_ylabel("estimated", fontsize=8)
    handles, labels = [], []
    for ax in axes.flat:
        if ax.get_visible():
            h, l = ax.get_legend_handles_labels()
            for hh, ll in zip(h, l):
                if ll not in labels:
                    handles.append(hh)
                    labels.append(ll)
    fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=7)
    fig.suptitle("Estimated against true invariance of every (load, value) pair counted")
    fig.tight_layout(rect=(0, 0.06, 1, 0.96))
    scatter = os.path.join(out, "valueprof-scatter.png")
    fig.savefig(scatter, dpi=100)
    plt.close(fig)
    # Figure 7's layout: the error over the run, against the program's instructions and against the
    # instructions spent on profiling
    written = [bars, scatter]
    for axis, col, label in (("instructions", 0, "program instructions executed"),
                             ("overhead", 1, "profiling instructions spent")):
        fig, axes = grid(plt, len(shown), 3, 3.2)
        for ax, r in zip(axes.flat, shown):
            ax.set_visible(True)
            for kind, colour, name in (("vp", "C0", "co-processor"), ("ss", "C1", "simple sampling")):
                path = os.path.join(build, "bench", "vp", "%s-%s.curve" % (r["program"], kind))
                if not os.path.exists(path):
                    continue
                pts = []
                with open(path) as f:
                    for line in f:
                        if not line.startswith("#"):
                            w = line.split()
                            pts.append((int(w[col]), float(w[2])))
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], color=colour, marker=".", label=name)
            ax.set_title(r["program"], fontsize=9)
            ax.set_xlabel(label, fontsize=8)
            ax.set_ylabel("weighted RMS error", fontsize=8)
            ax.set_ylim(bottom=0)
            ax.tick_params(labelsize=7)
            if axis == "overhead":
                ax.set_xscale("symlog")
        h, l = axes.flat[0].get_legend_handles_labels()
        fig.legend(h, l, loc="lower center", ncol=2, fontsize=8)
        fig.suptitle("Error of the profile over the run, against %s (one point per timer snapshot)" % label)
        fig.tight_layout(rect=(0, 0.04, 1, 0.96))
        path = os.path.join(out, "valueprof-convergence-%s.png" % axis)
        fig.savefig(path, dpi=90)
        plt.close(fig)
        written.append(path)
    curves = plot_curves(plt, build, out)
    if curves:
        written.append(curves)
    written += plot_sensitivity(plt, build, out)
    print("plot_valueprof: wrote " + ", ".join(written))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
