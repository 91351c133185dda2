#!/usr/bin/env python3
"""The offline bound of block layout (docs/dynopt.md, "The static layout"): from a program's
complete retired-PC stream, lay each function's blocks out once with the whole run's edge profile
(Pettis and Hansen's bottom-up chaining: the most frequent edge first, joining a chain's tail to
another's head) and count what the program would retire and how many transfers it would take.

The counting model, applied to both layouts:
  - a block's last instruction decides: a conditional branch costs a taken transfer on the way
    that does not fall through (inverted if its target is placed next), and one more (a jump, one
    instruction more) for the other way when neither successor is placed next; a direct jump to
    the block placed next disappears (one instruction less), otherwise it is taken; a block that
    falls through to a block not placed next needs a jump (taken, one instruction more);
  - calls, returns, indirect jumps and traps are taken transfers in any layout (a call's return
    comes back inside the calling block: calls do not end blocks here).
Applied to the program's own layout it must give exactly the taken transfers the CPU model
counted (the script checks that, a check of the model); applied to the chained layout it gives the
bound. Code that ran is all it sees: blocks that never ran keep no place.

usage: static_layout.py ELF PCS        (PCS: hwprof-sim --pcs=FILE, one hex PC a line, then 'end LINES')
prints: instructions taken-transfers (program as linked) instructions taken-transfers (laid out)
"""
import struct
import subprocess
import sys
from collections import defaultdict


def die(msg):
    sys.stderr.write("static_layout: error: %s\n" % msg)
    sys.exit(2)


def load_words(path):
    """The 32-bit words of the ELF's loadable segments, by address."""
    try:
        data = open(path, "rb").read()
    except OSError as e:
        die("%s: %s" % (path, e.strerror))
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        die("%s: not a little-endian ELF32 file" % path)
    phoff, = struct.unpack_from("<I", data, 28)
    phentsize, phnum = struct.unpack_from("<HH", data, 42)
    words = {}
    for i in range(phnum):
        p_type, off, vaddr, paddr, filesz = struct.unpack_from("<IIIII", data, phoff + i * phentsize)
        if p_type != 1:
            continue
        for k in range(0, filesz - 3, 4):
            words[paddr + k] = struct.unpack_from("<I", data, off + k)[0]
    return words


def functions(path):
    """[(start, end)] of the ELF's functions, from its symbol table (nm -S)."""
    try:
        out = subprocess.run(["riscv64-unknown-elf-nm", "-S", "-n", path], capture_output=True, text=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        die("%s: nm failed: %s" % (path, e))
    fns = []
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "tTwW":
            a, n = int(f[0], 16), int(f[1], 16)
            if n:
                fns.append((a, a + n))
    return sorted(set(fns))


def kind(w):
    """'b' conditional branch, 'j' direct jump (jal x0), 'c' call (jal or jalr with a link), 'i'
    jalr x0 (a return or indirect jump), 's' system (ecall, ebreak, mret), '' anything else."""
    op = w & 0x7f
    rd = (w >> 7) & 0x1f
    if op == 0x63:
        return "b"
    if op == 0x6f:
        return "j" if rd == 0 else "c"
    if op == 0x67:
        return "i" if rd == 0 else "c"  # an indirect call returns to the next word too
    if op == 0x73 and (w >> 12) & 7 == 0 and w != 0x10500073:
        return "s"
    return ""


def imm_b(w):
    v = ((w >> 31) & 1) << 12 | ((w >> 7) & 1) << 11 | ((w >> 25) & 0x3f) << 5 | ((w >> 8) & 0xf) << 1
    return v - (1 << 13) if v & (1 << 12) else v


def imm_j(w):
    v = ((w >> 31) & 1) << 20 | ((w >> 12) & 0xff) << 12 | ((w >> 20) & 1) << 11 | ((w >> 21) & 0x3ff) << 1
    return v - (1 << 21) if v & (1 << 20) else v


def main(argv):
    if len(argv) != 3 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) == 2 and argv[1] in ("-h", "--help") else 2
    words = load_words(argv[1])
    fns = functions(argv[1])
    starts = set(a for a, _ in fns)

    def fn_of(pc):
        lo, hi = 0, len(fns)
        while lo < hi:
            mid = (lo + hi) // 2
            if fns[mid][0] <= pc:
                lo = mid + 1
            else:
                hi = mid
        i = lo - 1
        return i if i >= 0 and fns[i][0] <= pc < fns[i][1] else -1

    # the stream: instructions, transfers (pc -> next pc) and the leaders of blocks
    insns = 0
    taken_measured = 0
    taken_bj = 0  # of those, by conditional branches and direct jumps: what a layout changes
    trans = defaultdict(int)  # (pc, next) for every pair that is not pc -> pc + 4 or ends a block
    count = defaultdict(int)  # executions of each pc
    prev = None
    try:
        with open(argv[2]) as f:
            lines = f.read().splitlines()
    except OSError as e:
        die("%s: %s" % (argv[2], e.strerror))
    if not lines or lines[-1] != "end %d" % (len(lines) - 1):
        die("%s: truncated: no end record ('end %d')" % (argv[2], max(len(lines) - 1, 0)))
    if True:
        for line in lines[:-1]:
            try:
                pc = int(line, 16)
            except ValueError:
                die("%s: not a hex PC: %r" % (argv[2], line.strip()))
            insns += 1
            count[pc] += 1
            if prev is not None:
                w = words.get(prev)
                if w is None:
                    die("%s: 0x%08x is not in the program's image" % (argv[2], prev))
                k = kind(w)
                if pc != prev + 4 or k in ("b", "j"):
                    trans[(prev, pc)] += 1
                # as the CPU model counts them: every jump, a branch or trap that went elsewhere
                if k in ("j", "c", "i") or (k in ("b", "s") and pc != prev + 4):
                    taken_measured += 1
                    taken_bj += k in ("b", "j")
            prev = pc
    if insns == 0:
        die("%s: no PCs" % argv[2])

    # blocks of executed code per function: a leader is a function start, a transfer's target, or
    # the instruction after a branch or direct jump (calls stay inside blocks)
    leaders = set(starts)
    for (a, b) in trans:
        k = kind(words[a])
        if k in ("b", "j"):
            leaders.add(b)
            leaders.add(a + 4)
        elif b != a + 4:
            leaders.add(b)
    executed = sorted(count)
    blocks = {}  # leader -> (last pc, function)
    cur = None
    for pc in executed:
        if cur is None or pc in leaders or pc != blocks[cur][0] + 4 or fn_of(pc) != blocks[cur][1] or \
                kind(words[blocks[cur][0]]) in ("b", "j", "i", "s"):
            cur = pc
            blocks[cur] = (pc, fn_of(pc))
        else:
            blocks[cur] = (pc, blocks[cur][1])
    last_of = {b: blocks[b][0] for b in blocks}

    # the edges between blocks of one function, with their counts; the cost model needs, per
    # block, the executions of each successor
    succ = defaultdict(lambda: defaultdict(int))
    for b, (last, fi) in blocks.items():
        k = kind(words[last])
        if k == "b":
            t, f_ = last + imm_b(words[last]), last + 4
            if t in blocks and blocks[t][1] == fi:
                succ[b][t] += trans.get((last, t), 0)
            if f_ != t and f_ in blocks and blocks[f_][1] == fi:
                succ[b][f_] += trans.get((last, f_), 0)
        elif k == "j":
            t = last + imm_j(words[last])
            if t in blocks and blocks[t][1] == fi:
                succ[b][t] += trans.get((last, t), 0)
        elif k == "":
            n = last + 4
            if n in blocks and blocks[n][1] == fi:
                succ[b][n] += count[last]
        elif k == "c":  # the call returns to the next word: as a fall-through, once per call
            n = last + 4
            if n in blocks and blocks[n][1] == fi:
                succ[b][n] += count[last]

    def cost(next_of, relaid):
        """(instructions more, taken transfers) of the conditional branches, direct jumps and
        fall-throughs in a layout (relaid: a jump to the block placed next is dropped)."""
        d_insns, taken = 0, 0
        for b, (last, fi) in blocks.items():
            k = kind(words[last])
            nxt = next_of.get(b)
            if k == "b":
                t, f_ = last + imm_b(words[last]), last + 4
                nt, nf = trans.get((last, t), 0), trans.get((last, f_), 0) if f_ != t else 0
                if t == f_:
                    taken += 0 if nxt == f_ else nt
                    d_insns += 0 if nxt == f_ else nt
                elif nxt == f_:
                    taken += nt
                elif nxt == t:
                    taken += nf  # inverted
                else:
                    taken += nt + nf
                    d_insns += nf  # the jump for the way that used to fall through
            elif k == "j":
                t = last + imm_j(words[last])
                n = trans.get((last, t), 0)
                if relaid and nxt == t:
                    d_insns -= n
                else:
                    taken += n
            elif k in ("", "c"):
                n = last + 4
                if n in blocks and blocks[n][1] == fi and nxt != n:
                    m = succ[b].get(n, 0)
                    taken += m
                    d_insns += m
        return d_insns, taken

    # the program as linked: each block followed by the executed block at the next address
    linked = {}
    for b, (last, fi) in blocks.items():
        n = last + 4
        if n in blocks and blocks[n][1] == fi:
            linked[b] = n
    d0, intra0 = cost(linked, False)
    # the check of the model: as linked, it must add and remove nothing and count exactly the taken
    # branches and direct jumps of the stream
    if d0 != 0 or intra0 != taken_bj:
        die("%s: the model does not reproduce the program as linked (%d instructions more, %d taken "
            "branches and jumps against %d in the stream)" % (argv[1], d0, intra0, taken_bj))
    fixed = taken_measured - taken_bj  # calls, returns, indirect jumps, traps: any layout takes them

    # Pettis-Hansen: chains joined along the heaviest edges first
    head = {b: b for b in blocks}  # chain of each block, by its head
    tail_of = {b: b for b in blocks}  # chain head -> tail
    nxt = {}
    edges = sorted(((n, a, b) for a in succ for b, n in succ[a].items() if n > 0 and b in blocks), reverse=True)
    for n, a, b in edges:
        ha, hb = head[a], head[b]
        if a == b or ha == hb or tail_of[ha] != a or hb != b or b in starts:
            continue
        nxt[a] = b
        tb = tail_of[hb]
        for x in list(head):
            if head[x] == hb:
                head[x] = ha
        tail_of[ha] = tb
        del tail_of[hb]
    d1, intra1 = cost(nxt, True)
    print(insns, taken_measured, insns + d1, fixed + intra1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
