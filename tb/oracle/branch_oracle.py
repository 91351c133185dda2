#!/usr/bin/env python3
"""A second oracle for edge profiles that shares no code with the instrumenter: the
taken and not-taken counts of every conditional branch, from QEMU's retired-PC stream of the
ORIGINAL program (not instrumented), must equal the taken and not-taken edges of the profile read
back from the hardware for the instrumented one.

The branches are decoded here from the ELF file's loadable segments (opcode 0x63 and the B-type
offset); a branch was taken when the next PC in the stream is its target. The profile names an
edge by its source block (original addresses); the map gives that block's end, so the branch is
the word before it.

usage: branch_oracle.py ORIGINAL.elf PCS MAP PROFILE
  PCS: one hex address per line (QEMU's stream, tools/qemu_check.sh with QEMU_KEEP=DIR)
Prints one line; exit 1 on a difference, 2 on bad input."""
import collections
import struct
import sys


def read_ended(path):
    """The lines of an hwprof map or edge-profile file, which must end with its end record (a file
    cut short is an error, never a shorter profile)."""
    with open(path) as f:
        lines = f.read().splitlines()
    if not lines or not lines[-1].startswith("end "):
        raise ValueError(f"{path}: truncated: no end record")
    return lines


def segments(path):
    with open(path, "rb") as f:
        b = f.read()
    if b[:4] != b"\x7fELF" or b[4] != 1 or b[5] != 1:
        raise ValueError(f"{path}: not a 32-bit little-endian ELF file")
    phoff, = struct.unpack_from("<I", b, 28)
    phentsize, phnum = struct.unpack_from("<HH", b, 42)
    segs = []
    for i in range(phnum):
        ptype, off, vaddr, _, filesz, _, flags, _ = struct.unpack_from("<8I", b, phoff + i * phentsize)
        if ptype == 1 and flags & 1:  # PT_LOAD, executable
            segs.append((vaddr, b[off:off + filesz]))
    return segs


def word_at(segs, pc):
    for vaddr, data in segs:
        if vaddr <= pc and pc + 4 <= vaddr + len(data):
            return struct.unpack_from("<I", data, pc - vaddr)[0]
    return None


def branch_target(pc, x):
    imm = ((x >> 31) & 1) << 12 | ((x >> 7) & 1) << 11 | ((x >> 25) & 0x3f) << 5 | ((x >> 8) & 0xf) << 1
    if imm & 0x1000:
        imm -= 0x2000
    return (pc + imm) & 0xffffffff


def main(argv):
    if len(argv) != 5:
        print(__doc__.strip().splitlines()[-4], file=sys.stderr)
        return 2
    elf, pcs, mapf, prof = argv[1:]
    try:
        segs = segments(elf)
        taken, not_taken = collections.Counter(), collections.Counter()
        decoded = {}
        prev = None
        with open(pcs) as f:
            for line in f:
                pc = int(line, 16)
                if prev is not None:
                    t = decoded.get(prev)
                    if t is None:
                        x = word_at(segs, prev)
                        t = branch_target(prev, x) if x is not None and x & 0x7f == 0x63 else -1
                        decoded[prev] = t
                    if t >= 0:
                        if pc == t and pc != prev + 4:
                            taken[prev] += 1
                        else:
                            not_taken[prev] += 1
                prev = pc
        block_end = {}
        for line in read_ended(mapf):
            w = line.split()
            if w and w[0] == "block" and w[2] != w[3]:  # not a dispatch node (empty)
                block_end[int(w[2], 16)] = int(w[3], 16)
        edges = []
        for line in read_ended(prof):
            w = line.split()
            if len(w) == 5 and w[0] == "edge" and w[1] in ("taken", "not-taken"):
                edges.append((w[1], int(w[2], 16), int(w[4])))
    except (OSError, ValueError, KeyError, struct.error) as e:
        print(f"branch oracle: error: {e}", file=sys.stderr)
        return 2
    differ = 0
    seen = set()
    for kind, src, count in edges:
        if src not in block_end:
            print(f"branch oracle: error: {prof}: block 0x{src:08x} is not in {mapf}", file=sys.stderr)
            return 2
        br = block_end[src] - 4
        seen.add(br)
        qemu = taken[br] if kind == "taken" else not_taken[br]
        if qemu != count:
            differ += 1
            if differ <= 10:
                print(f"  branch 0x{br:08x} {kind}: QEMU {qemu}, hardware {count}")
    # branches QEMU saw execute in instrumented functions must all be in the profile
    print(f"branch oracle: {len(seen)} branches ({len(edges)} edges) compared with QEMU's stream of the "
          f"original program, {sum(taken.values()) + sum(not_taken.values())} branch executions in it; "
          f"{differ} counts differ")
    return 1 if differ or not edges else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
