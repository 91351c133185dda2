#!/usr/bin/env python3
"""The quick starts of the docs: every fenced code block right after a line `<!-- quickstart -->`.
Writes each into OUT_DIR as a shell script named after its document and position
(README-1.sh, docs-path-1.sh, ...) and prints their names, one a line. make test runs them as
written (tools/checks/docs.sh).

usage: tools/quickstarts.py OUT_DIR FILE.md...
"""

import os
import re
import sys

MARK = "<!-- quickstart -->"


def blocks(path):
    """(line number, text) of every marked block of one document."""
    lines = open(path, encoding="utf-8").read().splitlines()
    found = []
    for n, line in enumerate(lines):
        if line.strip() != MARK:
            continue
        if n + 1 >= len(lines) or not lines[n + 1].startswith("```"):
            raise ValueError(f"{path}:{n + 1}: {MARK} is not followed by a fenced code block")
        end = next((k for k in range(n + 2, len(lines)) if lines[k].startswith("```")), None)
        if end is None:
            raise ValueError(f"{path}:{n + 2}: the code block has no end")
        found.append((n + 2, "\n".join(lines[n + 2:end]) + "\n"))
    return found


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for path in sys.argv[2:]:
        try:
            found = blocks(path)
        except (OSError, ValueError) as e:
            print(f"quickstarts: error: {e}", file=sys.stderr)
            return 1
        stem = re.sub(r"[^A-Za-z0-9_]+", "-", os.path.splitext(path)[0]).strip("-")
        for k, (line, text) in enumerate(found, 1):
            name = f"{stem}-{k}.sh"
            with open(os.path.join(out, name), "w", encoding="utf-8") as f:
                f.write(f"# {path}:{line}\nset -e\n{text}")
            print(name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
