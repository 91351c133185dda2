#!/usr/bin/env python3
"""Opens a report page of hwprof-report html in a real headless browser (Chromium through Selenium
and chromedriver) and checks what a reader would see: the page loads, every image loads (complete,
with a width), every table has rows, and the browser's console has no error. With --pc-counts and
--elf it also checks the hottest-functions table against an oracle that shares no code with the
report: each row's instructions must equal the retirements (hwprof-sim --pc-counts of the program
alone) inside the function's symbol (binutils' nm), and its entries at least one.

usage: html_check.py PAGE.html [--pc-counts=FILE --elf=PROGRAM.elf] [--screenshot=OUT.png]
Prints one line; exit 1 on a failed check, 2 when the browser or Selenium is missing."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "oracle"))
import lcov_oracle  # noqa: E402  the retire-stream reader (tb/oracle/lcov_oracle.py)

CHROMEDRIVER = "/usr/bin/chromedriver"


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1300,1000"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)


def check_functions(rows, counts_path, elf):
    """rows: [[#, function, declared at, entries, instructions, share]] as the page shows them"""
    counts, _ = lcov_oracle.read_stream(counts_path)
    names = {r[1] for r in rows}
    ranges = {}
    r = subprocess.run(["riscv64-unknown-elf-nm", "-S", "--defined-only", elf], capture_output=True, text=True)
    if r.returncode != 0:
        raise OSError(f"{elf}: nm failed: {r.stderr.strip()}")
    for line in r.stdout.splitlines():
        w = line.split()
        if len(w) == 4 and w[2] in "tTwW" and w[3] in names:
            ranges[w[3]] = (int(w[0], 16), int(w[1], 16))
    bad = []
    for row in rows:
        name, entries, insns = row[1], int(row[3].replace(",", "")), int(row[4].replace(",", ""))
        if name not in ranges:
            bad.append(f"{name}: no symbol of that name in {elf}")
            continue
        lo, size = ranges[name]
        want = sum(c for pc, c in counts.items() if lo <= pc < lo + size)
        if insns != want or (want > 0 and entries < 1):
            bad.append(f"{name}: the page says {insns} instructions ({entries} entries), the retire stream {want}")
    return bad


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    opts = dict(a[2:].split("=", 1) for a in argv[1:] if a.startswith("--") and "=" in a)
    if len(args) != 1 or "--help" in argv or ("pc-counts" in opts) != ("elf" in opts):
        print(__doc__)
        return 0 if "--help" in argv else 2
    page = os.path.abspath(args[0])
    if not os.path.isfile(page):
        print(f"html_check: error: no page {page}", file=sys.stderr)
        return 2
    if not os.path.exists(CHROMEDRIVER):
        print(f"html_check: error: {CHROMEDRIVER} is missing (Debian's chromium-driver: make deps)", file=sys.stderr)
        return 2
    try:
        drv = browser()
    except ImportError:
        print("html_check: error: Selenium is missing (make deps installs it into build/venv)", file=sys.stderr)
        return 2
    fails = []
    try:
        drv.get("file://" + page)
        state = drv.execute_script("return document.readyState")
        if state != "complete":
            fails.append(f"the page did not finish loading ({state})")
        images = drv.execute_script(
            "return Array.from(document.images).map(i => [i.getAttribute('src'), i.complete, i.naturalWidth])")
        fails += [f"image {src} did not load" for src, done, width in images if not done or width == 0]
        tables = drv.execute_script(
            "return Array.from(document.querySelectorAll('table')).map(t => ["
            "t.closest('section') ? t.closest('section').id : '', t.querySelectorAll('tbody tr').length])")
        fails += [f"a table of section '{sec}' has no rows" for sec, rows in tables if rows == 0]
        sections = drv.execute_script("return Array.from(document.querySelectorAll('section')).map(s => s.id)")
        console = [e for e in drv.get_log("browser") if e.get("level") == "SEVERE"]
        fails += [f"console error: {e.get('message', '')[:200]}" for e in console]
        rows = drv.execute_script(
            "return Array.from(document.querySelectorAll('#functions tbody tr')).map("
            "r => Array.from(r.cells).map(c => c.textContent.trim()))")
        if "screenshot" in opts:
            drv.set_window_size(1300, drv.execute_script("return document.body.scrollHeight") + 50)
            drv.save_screenshot(opts["screenshot"])
    finally:
        drv.quit()
    if not images or not tables:
        fails.append(f"{len(images)} images and {len(tables)} tables: the page shows no profile")
    checked = ""
    if "pc-counts" in opts:
        if not rows:
            fails.append("no hottest-functions table to check")
        fails += check_functions(rows, opts["pc-counts"], opts["elf"])
        checked = f"; {len(rows)} functions' instructions equal to the retire stream's" if not fails else ""
    for f in fails[:10]:
        print(f"html_check: {page}: {f}")
    print(f"html_check: {page}: {len(sections)} sections, {len(tables)} tables "
          f"({sum(r for _, r in tables)} rows), {sum(1 for _, d, w in images if d and w)} of {len(images)} images loaded, "
          f"{len(console)} console errors{checked}: {'FAILED' if fails else 'ok'}")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
