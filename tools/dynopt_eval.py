#!/usr/bin/env python3
"""Scores the dynamic optimizer's phase detection against the ground truth (docs/dynopt.md).

Inputs: the program's output (the firmware's "dynopt: event" lines) and hwprof-sim's --phase-truth
file. A true change is a truth window where a branch's clear majority flipped ("change 1"); windows
that gained only new hot code ("change 2") are counted apart with the transitions near them, since
5A needs none where the new code's hot edges already fall through. A true change it is detected if a
transition (an event of kind phase that changed the layout) comes between the window's start and
DELAY windows after its end; the delay is counted from the window's start (the change happened
somewhere in it, so the figure is an upper bound by up to one window). A transition matched to no
change is false, unless it comes within DELAY windows of the end of the truth's first window (the
initial optimization of the compiler's layout, counted as initial); false-signal interrupts (kind
fts) are counted on their own. Only changes while the
optimizer is on (from its start event to its finish event) are scored.

The strict score (strict_*): a true change is detected only by a transition within one window of
its window's end; every other transition (initial ones and those near new code included), every
phase interrupt that changed no decision and every false-signal interrupt is false; strict_false_per_1e7 is that count per 10^7 instructions of the
optimizer's run (start to finish event).

  dynopt_eval.py [--delay=WINDOWS] [--plot=FILE.png] [--title=T] OUTPUT.txt TRUTH.txt
prints one line of key=value figures; exit 2 on a malformed or missing file (naming it and the line).
"""
import sys


def fail(msg):
    print(f"dynopt_eval: error: {msg}", file=sys.stderr)
    sys.exit(2)


def read_events(path):
    events = []
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    for n, line in enumerate(lines, 1):
        if not line.startswith("dynopt: event "):
            continue
        f = line.split()
        try:
            kv = dict(zip(f[4::2], map(int, f[5::2])))
            events.append({"at": int(f[2]), "kind": f[3], **kv})
        except (ValueError, IndexError):
            fail(f"{path}:{n}: malformed event line")
    if not events:
        fail(f"{path}: no 'dynopt: event' lines (not a dynamic-optimizer run?)")
    return events


def read_truth(path):
    windows, window = [], None
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    if not lines or lines[0] != "hwprof-phase-truth 1":
        fail(f"{path}:1: not a phase-truth file (hwprof-sim --phase-truth)")
    for n, line in enumerate(lines[1:], 2):
        f = line.split()
        if not f or f[0] == "#":
            continue
        try:
            if f[0] == "window" and len(f) == 15 and f[3] == "branches":
                if f[14] not in ("0", "1", "2"):
                    raise ValueError
                windows.append({"start": int(f[1]), "end": int(f[2]), "added": int(f[8]), "weight": int(f[12]),
                                "change": int(f[14])})
            elif f[0] == "window" and len(f) >= 3 and f[2] == "min":
                window = int(f[1])
            elif f[0] not in ("window", "end"):
                fail(f"{path}:{n}: unknown record '{f[0]}'")
            elif f[0] == "error":
                fail(f"{path}:{n}: the truth is incomplete ({' '.join(f[1:])})")
        except (ValueError, IndexError):
            fail(f"{path}:{n}: malformed line")
    if lines[-1].split()[:1] != ["end"]:
        fail(f"{path}: truncated (no 'end' line)")
    if window is None:
        fail(f"{path}:2: no window size")
    return window, windows


def main(argv):
    delay_windows, plot, title, files = 2, None, None, []
    for a in argv:
        if a.startswith("--delay="):
            delay_windows = int(a[8:])
        elif a.startswith("--plot="):
            plot = a[7:]
        elif a.startswith("--title="):
            title = a[8:]
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        elif a.startswith("-"):
            fail(f"unknown option '{a}'")
        else:
            files.append(a)
    if len(files) != 2:
        fail("expects OUTPUT.txt TRUTH.txt (see --help)")
    events = read_events(files[0])
    # the firmware keeps the first HWPROF_DYNOPT_LOG events; its summary counts them all
    lines = open(files[0]).read().splitlines()
    summary = [l for l in lines if l.startswith("dynopt: scheme")]
    quiet = [int(l.split()[1]) for l in lines if l.startswith("dynopt: ") and l.endswith("changed nothing are not listed")]
    if summary:
        f = summary[0].replace(",", "").replace(";", "").split()
        counted = sum(int(f[i - 1]) for i, w in enumerate(f) if w in ("transitions", "periods")) + \
            int(f[f.index("skipped") - 1]) + 2 - sum(quiet)
        if counted > len(events):
            fail(f"{files[0]}: the firmware's log holds {len(events)} of {counted} events (raise HWPROF_DYNOPT_LOG)")
    window, windows = read_truth(files[1])
    # the optimizer is on from its start event to its finish event: changes outside are not its to find
    on = min(e["at"] for e in events if e["kind"] == "start") if any(e["kind"] == "start" for e in events) else 0
    off = max(e["at"] for e in events if e["kind"] == "finish") if any(e["kind"] == "finish" for e in events) else None
    during = [w for w in windows if w["change"] and w["end"] > on and (off is None or w["start"] < off)]
    # kind 1: a branch's clear majority flipped, which 5A is built to signal; kind 2: new hot code
    # only, which needs a transition only where its hot edges are the compiler's jump edges
    changes = [w for w in during if w["change"] == 1]
    new_code = [w for w in during if w["change"] == 2]
    transitions = [e for e in events if e["kind"] == "phase" and e.get("flipped", 0) > 0]
    fts = [e for e in events if e["kind"] == "fts"]
    matched, delays = set(), []
    for c in changes:
        lo, hi = c["start"], c["end"] + delay_windows * window
        hit = [i for i, e in enumerate(transitions) if lo <= e["at"] < hi]
        if hit:
            delays.append(transitions[hit[0]]["at"] - lo)
            matched.update(hit)
    detected = len(delays)
    # the truth's first window sets its baseline hot set; the optimizer starts from the compiler's
    # layout, so the transitions that correct it early (up to DELAY windows after the first window)
    # are the initial optimization, not false ones
    first_end = windows[0]["end"] if windows else 0
    initial = sum(1 for i, e in enumerate(transitions)
                  if i not in matched and e["at"] < first_end + delay_windows * window)
    # a transition near new hot code re-lays that code: not a false one either
    near_new = {i for i, e in enumerate(transitions) if i not in matched and
                any(w["start"] <= e["at"] < w["end"] + delay_windows * window for w in new_code)}
    false = len(transitions) - len(matched) - initial - len(near_new - set(
        i for i, e in enumerate(transitions) if i not in matched and e["at"] < first_end + delay_windows * window))
    repeated = len(matched) - detected  # more transitions within a change's window than the first
    interrupts = sum(1 for e in events if e["kind"] in ("phase", "fts"))
    mean_delay = sum(delays) / len(delays) if delays else 0
    new_found = sum(1 for w in new_code
                    if any(w["start"] <= e["at"] < w["end"] + delay_windows * window for e in transitions))
    # strict: within one window of the change, and everything else false
    strict_matched, strict_detected = set(), 0
    for c in changes:
        hit = [i for i, e in enumerate(transitions) if c["start"] <= e["at"] < c["end"] + window]
        strict_detected += bool(hit)
        strict_matched.update(hit)
    # ... a phase interrupt that changed no decision (flipped 0) is a false one too
    unchanged = sum(1 for e in events if e["kind"] == "phase" and e.get("flipped", 0) == 0)
    strict_false = len(transitions) - len(strict_matched) + unchanged + len(fts)
    run = (off if off is not None else max((w["end"] for w in windows), default=on)) - on
    per_1e7 = strict_false * 1e7 / run if run > 0 else 0.0
    print(f"true_changes={len(changes)} new_code={len(new_code)} new_code_found={new_found} detected={detected} missed={len(changes) - detected} "
          f"false={false} repeated={repeated} initial={initial} fts={len(fts)} interrupts={interrupts} mean_delay={mean_delay:.0f} "
          f"window={window} strict_detected={strict_detected} strict_missed={len(changes) - strict_detected} "
          f"strict_false={strict_false} run={run} strict_false_per_1e7={per_1e7:.2f}")
    if plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(10, 2.6))
        for w in changes:
            ax.axvspan(w["start"] / 1e6, w["end"] / 1e6, color="tab:orange", alpha=0.35, lw=0)
        for w in new_code:
            ax.axvspan(w["start"] / 1e6, w["end"] / 1e6, color="tab:green", alpha=0.25, lw=0)
        ax.vlines([e["at"] / 1e6 for e in transitions], 0.55, 1.0, color="tab:blue", label="transition (re-laid)")
        ax.vlines([e["at"] / 1e6 for e in fts], 0.0, 0.45, color="tab:gray", label="false signal (skipped)")
        other = [e for e in events if e["kind"] == "phase" and e.get("flipped", 0) == 0]
        if other:
            ax.vlines([e["at"] / 1e6 for e in other], 0.3, 0.7, color="tab:red", label="transition, nothing re-laid")
        laid = [e for e in events if e.get("laid", 0) > 0]
        if laid:
            ax.plot([e["at"] / 1e6 for e in laid], [1.08] * len(laid), "v", color="black", ms=5,
                    label="functions laid out again")
        ax.axvspan(0, 0, color="tab:orange", alpha=0.35, label="a branch flipped (truth window)")
        ax.axvspan(0, 0, color="tab:green", alpha=0.25, label="new hot code (truth window)")
        ax.set_yticks([])
        ax.set_xlabel("retired instructions (millions)")
        ax.set_title(title or files[0])
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.35), ncol=4, fontsize=8, frameon=False)
        fig.tight_layout()
        fig.savefig(plot, dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
