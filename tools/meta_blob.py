#!/usr/bin/env python3
"""Cuts the run-time metadata blob (sw/include/hwprof_meta.h) out of an instrumented program, for
the meta fuzz target's seeds (tools/fuzz.sh): finds the header's magic at a word boundary, reads
its counts and writes header and tables. usage: meta_blob.py PROGRAM.elf OUT"""
import struct
import sys

MAGIC = 0x444D5748  # "HWMD"
HEADER, FUNC, BLOCK, EDGE, BRANCH = 12, 12, 7, 6, 3  # words


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: meta_blob.py PROGRAM.elf OUT")
    data = open(sys.argv[1], "rb").read()
    at = 0
    while True:
        at = data.find(struct.pack("<I", MAGIC), at)
        if at < 0:
            sys.exit(f"meta_blob: {sys.argv[1]}: no run-time metadata (instrument with hwprof-instr)")
        if at % 4 == 0 and at + 4 * HEADER <= len(data):
            break
        at += 1
    h = struct.unpack_from("<12I", data, at)
    nfunc, nblock, nedge, nbranch = h[2], h[3], h[4], h[10]
    size = 4 * (HEADER + FUNC * nfunc + BLOCK * nblock + EDGE * nedge + BRANCH * nbranch)
    if at + size > len(data):
        sys.exit(f"meta_blob: {sys.argv[1]}: the metadata at offset {at} runs past the end of the file")
    open(sys.argv[2], "wb").write(data[at:at + size])


if __name__ == "__main__":
    main()
