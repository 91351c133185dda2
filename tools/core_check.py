#!/usr/bin/env python3
"""Check the RTL file list and hwprof.core (FuseSoC CAPI2) against the tree, without FuseSoC: rtl/hwprof.f
lists every RTL source (rtl/**/*.sv) once, hwprof.core is what tools/core_gen.py writes from it, and
hwprof_top's parameters take their defaults from regs/encodings.json. FuseSoC's own parser and lint
target run as well where FuseSoC is installed (make test).

usage: tools/core_check.py [ROOT]
"""

import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import core_gen  # noqa: E402


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    errors = []
    try:
        listed = core_gen.rtl_files(root)
        generated = core_gen.generate(root)
    except core_gen.GenError as e:
        print(f"core_check: error: {e}", file=sys.stderr)
        return 2
    rtl = sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "rtl", "**", "*.sv"), recursive=True))
    for f in rtl:
        if f not in listed:
            errors.append(f"{f} is not listed in rtl/hwprof.f")
    for f in sorted(set(f for f in listed if listed.count(f) > 1)):
        errors.append(f"rtl/hwprof.f lists {f} more than once")
    try:
        text = open(os.path.join(root, "hwprof.core"), encoding="utf-8").read()
    except OSError as e:
        print(f"core_check: error: hwprof.core: cannot read: {e.strerror}", file=sys.stderr)
        return 2
    if text != generated:
        errors.append("hwprof.core is not what tools/core_gen.py writes from rtl/hwprof.f (run `make core`)")
    try:  # the core must be YAML FuseSoC can read (PyYAML where installed; FuseSoC's own check also runs)
        import yaml
    except ImportError:
        yaml = None
    if yaml is not None:
        try:
            yaml.safe_load(text)
        except yaml.YAMLError as e:
            errors.append(f"hwprof.core is not valid YAML: {str(e).splitlines()[0]}")
    # parameters: name and default in the description (regs/encodings.json, which gives the RTL its
    # defaults and the core its parameters) and in hwprof_top's header
    enc = json.load(open(os.path.join(root, "regs", "encodings.json"), encoding="utf-8"))
    desc_params = {c["name"]: str(c["default"]) for c in enc.get("config", [])}
    top = open(os.path.join(root, "rtl", "top", "hwprof_top.sv"), encoding="utf-8").read()
    rtl_params = re.findall(r"parameter\s+int\s+unsigned\s+(\w+)\s*=\s*hwprof_pkg::(\w+)_DEFAULT", top)
    by_c = {c["c"]: c["name"] for c in enc.get("config", [])}
    rtl_names = {name: by_c.get(c) for name, c in rtl_params}
    if any(rtl_names.get(n) != n for n in desc_params) or len(rtl_names) != len(desc_params):
        errors.append(f"hwprof_top's parameters {sorted(rtl_names)} do not take their defaults from "
                      f"regs/encodings.json ({sorted(desc_params)})")
    rtl_params = desc_params
    for e in errors:
        print(f"core_check: error: {e}", file=sys.stderr)
    if errors:
        return 1
    print(f"core_check: rtl/hwprof.f and hwprof.core list all {len(rtl)} RTL sources; "
          f"hwprof_top's {len(rtl_params)} parameters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
