#!/usr/bin/env python3
"""gcov as a second, independent oracle (docs/instrumenter.md): the invocation count of every function in an
edge profile read back from the hardware must equal what riscv64-unknown-elf-gcov reports for the
same function of the -fprofile-arcs build of the same source.

usage: gcov_oracle.py GCOV_JSON PROFILE [MAP ELF]   (GCOV_JSON: gcov --json-format --stdout output,
one document per source file, one per line when gcov was given several; MAP and ELF: the profiled
program's map and ELF file)
A function gcov counts that is not in the profile is accepted only when the profiled program does not
have it (inlined or removed: no function symbol of that name in ELF) or the map lists it as left
uninstrumented, with its reason; given MAP and ELF, anything else is a difference.
Prints one line per workload; exit 1 on a difference, 2 on bad input."""
import json
import subprocess
import sys

from branch_oracle import read_ended


def elf_functions(elf):
    """the function symbols of an ELF file (riscv64-unknown-elf-nm)"""
    r = subprocess.run(["riscv64-unknown-elf-nm", "--defined-only", elf], capture_output=True, text=True)
    if r.returncode != 0:
        raise OSError(f"{elf}: nm failed: {r.stderr.strip()}")
    return {w[2] for w in (line.split() for line in r.stdout.splitlines()) if len(w) == 3 and w[1] in "tTwW"}


def map_status(path):
    """function name -> its status in the map ('instrumented', or 'skipped REASON')"""
    st = {}
    for line in read_ended(path):
        w = line.split()
        if len(w) >= 9 and w[0] == "function":
            st[w[1]] = " ".join(w[8:])
    return st


def main(argv):
    if len(argv) not in (3, 5):
        print("usage: gcov_oracle.py GCOV_JSON PROFILE [MAP ELF]", file=sys.stderr)
        return 2
    try:
        with open(argv[1]) as f:
            docs = [json.loads(line) for line in f if line.strip()]
        gcov = {"files": [fl for d in docs for fl in d.get("files", [])]}
        ours = {}
        for line in read_ended(argv[2]):
            w = line.split()
            if len(w) >= 5 and w[0] == "function" and w[3] == "entries":
                ours[w[1]] = int(w[4])
        status = map_status(argv[3]) if len(argv) == 5 else None
        symbols = elf_functions(argv[4]) if len(argv) == 5 else None
    except (OSError, ValueError) as e:
        print(f"gcov oracle: error: {e}", file=sys.stderr)
        return 2
    compared = differ = absent = skipped = 0
    for fl in gcov.get("files", []):
        for fn in fl.get("functions", []):
            name, count = fn["name"], fn["execution_count"]
            if name not in ours:
                if status is None:  # no map: taken as not a function of the profiled build
                    absent += 1
                elif status.get(name, "").startswith("skipped"):
                    skipped += 1  # left uninstrumented, with its reason in the map
                elif name not in symbols and name not in status:
                    absent += 1  # inlined or removed: the profiled program has no such function
                else:
                    differ += 1
                    print(f"  {name}: gcov {count}, not in the profile although the program has it"
                          f" ({status.get(name, 'a symbol the map does not list')})")
                continue
            compared += 1
            if ours[name] != count:
                differ += 1
                print(f"  {name}: gcov {count}, hardware {ours[name]}")
    print(f"gcov oracle: {compared} functions compared ({absent} not in the profiled build: inlined or removed"
          + (f"; {skipped} left uninstrumented" if status is not None else "; not checked against the program")
          + f"), {differ} invocation counts differ")
    return 1 if differ or not compared else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
