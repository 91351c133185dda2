#!/usr/bin/env python3
"""Check hwprof.core (FuseSoC CAPI2) against the tree, without FuseSoC: every file it lists exists,
every RTL source (rtl/**/*.sv) is listed, and its parameters are exactly hwprof_top's, with the
same defaults. FuseSoC's own parser and lint target run as well where FuseSoC is installed (make test).

usage: tools/core_check.py [ROOT]
"""

import glob
import json
import os
import re
import sys


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    core = os.path.join(root, "hwprof.core")
    try:
        text = open(core, encoding="utf-8").read()
    except OSError as e:
        print(f"core_check: error: hwprof.core: cannot read: {e.strerror}", file=sys.stderr)
        return 2
    errors = []
    if not text.startswith("CAPI=2:"):
        errors.append("hwprof.core: the first line must be CAPI=2:")
    listed = re.findall(r"^\s+- ([\w./-]+\.(?:sv|svh|v|vlt))\b", text, re.M)
    for f in listed:
        if not os.path.isfile(os.path.join(root, f)):
            errors.append(f"hwprof.core lists {f}, which does not exist")
    rtl = sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "rtl", "**", "*.sv"), recursive=True))
    for f in rtl:
        if f not in listed:
            errors.append(f"{f} is not listed in hwprof.core")
    # parameters: name and default, as in the core, in the description (regs/encodings.json, which
    # gives the RTL its defaults) and in hwprof_top's header
    core_params = dict(re.findall(r"^  (\w+):\n    datatype: int\n    default: (\d+)", text, re.M))
    enc = json.load(open(os.path.join(root, "regs", "encodings.json"), encoding="utf-8"))
    desc_params = {c["name"]: str(c["default"]) for c in enc.get("config", [])}
    top = open(os.path.join(root, "rtl", "hwprof_top.sv"), encoding="utf-8").read()
    rtl_params = re.findall(r"parameter\s+int\s+unsigned\s+(\w+)\s*=\s*hwprof_pkg::(\w+)_DEFAULT", top)
    by_c = {c["c"]: c["name"] for c in enc.get("config", [])}
    rtl_names = {name: by_c.get(c) for name, c in rtl_params}
    if core_params != desc_params:
        errors.append(f"hwprof.core parameters {core_params} differ from regs/encodings.json's {desc_params}")
    if any(rtl_names.get(n) != n for n in desc_params) or len(rtl_names) != len(desc_params):
        errors.append(f"hwprof_top's parameters {sorted(rtl_names)} do not take their defaults from "
                      f"regs/encodings.json ({sorted(desc_params)})")
    rtl_params = desc_params
    for e in errors:
        print(f"core_check: error: {e}", file=sys.stderr)
    if errors:
        return 1
    print(f"core_check: hwprof.core lists {len(listed)} files (all {len(rtl)} RTL sources) and "
          f"hwprof_top's {len(rtl_params)} parameters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
