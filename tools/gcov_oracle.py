#!/usr/bin/env python3
"""gcov as a second, independent oracle (issue 6): the invocation count of every function in an
edge profile read back from the hardware must equal what riscv64-unknown-elf-gcov reports for the
same function of the -fprofile-arcs build of the same source.

usage: gcov_oracle.py GCOV_JSON PROFILE   (GCOV_JSON: gcov --json-format --stdout output, one
document per source file, one per line when gcov was given several)
Prints one line per workload; exit 1 on a difference, 2 on bad input."""
import json
import sys


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[-3], file=sys.stderr)
        return 2
    try:
        with open(argv[1]) as f:
            docs = [json.loads(line) for line in f if line.strip()]
        gcov = {"files": [fl for d in docs for fl in d.get("files", [])]}
        ours = {}
        with open(argv[2]) as f:
            for line in f:
                w = line.split()
                if len(w) >= 5 and w[0] == "function" and w[3] == "entries":
                    ours[w[1]] = int(w[4])
    except (OSError, ValueError) as e:
        print(f"gcov oracle: error: {e}", file=sys.stderr)
        return 2
    compared = differ = absent = 0
    for fl in gcov.get("files", []):
        for fn in fl.get("functions", []):
            name, count = fn["name"], fn["execution_count"]
            if name not in ours:  # not a function of the profiled build (inlined or removed there)
                absent += 1
                continue
            compared += 1
            if ours[name] != count:
                differ += 1
                print(f"  {name}: gcov {count}, hardware {ours[name]}")
    print(f"gcov oracle: {compared} functions compared ({absent} not in the profiled build: inlined or removed), "
          f"{differ} invocation counts differ")
    return 1 if differ or not compared else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
