#!/usr/bin/env python3
"""Slot-level reference of the load-value profiling algorithm (seed 001, Appendix A; docs/vpf.md).

Written from the algorithm's rules, not from the microcode: it is the oracle for sw/fw/cop/valueprof.s
run by the co-processor's instruction-level interpreter (hwprof-cpasm --run). Both print the same
canonical state, so a test compares them line for line.

  valueprof_ref.py run SAMPLES          the algorithm on a sample file (the interpreter's format)
  valueprof_ref.py decode PROGRAM.s     the interpreter's --run output (stdin) in the same form
  valueprof_ref.py gen KIND SEED N      a sample file: random (PCs and values from small skewed
                                        pools), thrash (more PCs than slots, one value each), glacial
                                        (long runs of one value per PC)
"""
import random
import re
import sys

SLOTS = 256
LFSR_SEED = 0xACE1


def lfsr_next(x):
    """docs/cop.md: 16-bit Galois LFSR, taps 0xB400."""
    return (x >> 1) ^ (0xB400 if x & 1 else 0)


class Algorithm:
    """The slots and counters of the seed's Figure 10 flow, as docs/vpf.md states them."""

    def __init__(self):
        self.pc = [0] * SLOTS
        self.valid = [False] * SLOTS
        self.value = [0] * SLOTS
        self.hits = [0] * SLOTS
        self.misses = [0] * SLOTS
        self.total = [0] * SLOTS
        self.rslot = 0
        self.failed = 0  # saturates at 0 and 63; the interrupt when it reaches 63
        self.replacements = 0  # modulo 1024; the interrupt when it wraps
        self.interval = 0  # records modulo 65536; the interrupt when it wraps (that record is not processed)
        self.lfsr = LFSR_SEED
        self.interrupts = []

    def sample(self, n, pc, value):
        self.interval = (self.interval + 1) % 65536
        if self.interval == 0:
            self.interrupts.append((n, "interval"))
            return
        m = next((k for k in range(SLOTS) if self.valid[k] and self.pc[k] == pc), None)
        if m is not None:
            self.total[m] = min(self.total[m] + 1, 0xFFFF)
            if self.total[m] == 0xFFFF:  # the total saturated: off
                self.valid[m] = False
                return
            if self.value[m] == value:
                self.hits[m] = min(self.hits[m] + 1, 255)
                if self.hits[m] == 255:  # F
                    self.valid[m] = False
                return
            self.misses[m] = min(self.misses[m] + 1, 255)
            if self.misses[m] == 255:  # F
                self.valid[m] = False
                return
            seen = self.hits[m] + self.misses[m]
            if 5 * self.hits[m] >= seen:  # D: invariance >= 20%
                if seen < 16 or 3 * self.hits[m] >= 2 * seen:  # T: fewer than 16 samples, or >= 2/3
                    return
                self.valid[m] = False  # below 2/3 over 16 or more: off, the record starts over
            elif seen >= 16:  # I: off, the record starts over
                self.valid[m] = False
            else:
                self.value[m], self.hits[m], self.misses[m] = value, 1, 0  # H
                return
        r = self.lfsr & 15  # RAND15
        self.lfsr = lfsr_next(self.lfsr)
        k = self.rslot
        self.rslot = (self.rslot + 1) % SLOTS
        if r > self.total[k]:  # M
            self.pc[k], self.valid[k], self.value[k] = pc, True, value
            self.hits[k], self.misses[k], self.total[k] = 1, 0, 1
            self.failed = max(self.failed - 1, 0)
            self.replacements = (self.replacements + 1) % 1024
            if self.replacements == 0:
                self.interrupts.append((n, "thrash"))
        else:  # K
            self.failed = min(self.failed + 1, 63)
            if self.failed == 63:
                self.interrupts.append((n, "failed"))

    def dump(self, out):
        for n, cause in self.interrupts:
            out.write("interrupt %d %s\n" % (n, cause))
        out.write("rslot %d failed %d replacements %d lfsr 0x%04x\n" % (self.rslot, self.failed, self.replacements, self.lfsr))
        for k in range(SLOTS):
            if self.valid[k] or self.value[k] or self.hits[k] or self.misses[k] or self.total[k]:
                pc = "0x%08x" % self.pc[k] if self.valid[k] else "off"
                out.write("slot %d %s value 0x%08x hits %d misses %d total %d\n" % (
                    k, pc, self.value[k], self.hits[k], self.misses[k], self.total[k]))


def read_samples(path):
    """The loads of a sample file: 'hwprof-samples 1', KIND PC NPC INSN ADDR VALUE lines, 'end SAMPLES'."""
    header, ended, n = False, False, 0
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.split("#", 1)[0].split()
            if not line:
                continue
            if not header:
                if line != ["hwprof-samples", "1"]:
                    sys.exit("valueprof_ref: %s:%d: not a sample file (no 'hwprof-samples 1' header)" % (path, lineno))
                header = True
                continue
            if ended:
                sys.exit("valueprof_ref: %s:%d: a sample after the end record" % (path, lineno))
            if line[0] == "end":
                if line != ["end", str(n)]:
                    sys.exit("valueprof_ref: %s:%d: the end record must be 'end %d'" % (path, lineno, n))
                ended = True
                continue
            if len(line) < 6:
                sys.exit("valueprof_ref: %s:%d: expected KIND PC NPC INSN ADDR VALUE" % (path, lineno))
            n += 1
            if line[0] not in ("load", "4"):
                continue  # the program dispatches loads only; the others are consumed unprocessed
            yield int(line[1], 0), int(line[5], 0)
    if not ended:
        sys.exit("valueprof_ref: %s: truncated: no end record" % path)


def label_addresses(path):
    """Microcode address of each label of an assembly file (one instruction per non-directive line)."""
    addr, labels = 0, {}
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*):\s*(.*)$", line)
            if m:
                labels[m.group(1)] = addr
                line = m.group(2)
            if line and not line.startswith("."):
                addr += 1
    return labels


def decode(program, out):
    """The interpreter's --run output -> the canonical state."""
    labels = label_addresses(program)
    causes = {labels["failed_intr"]: "failed", labels["thrash_intr"]: "thrash", labels["interval_intr"]: "interval"}
    cam, data, regs, lfsr, intrs = {}, {}, {}, 0, []
    for line in sys.stdin:
        w = line.split()
        if line.startswith("interrupt:"):
            m = re.match(r"interrupt: sample (\d+) .* at microinstruction (\d+)", line)
            intrs.append((int(m.group(1)), causes.get(int(m.group(2)), "at %s" % m.group(2))))
        elif w and w[0] == "cam":
            cam[int(w[1])] = int(w[2], 0)
        elif w and w[0] == "data":
            data[int(w[1], 0)] = int(w[2], 0)
        elif w and w[0] == "lfsr":
            lfsr = int(w[1], 0)
        elif w and w[0] == "i0":
            regs = {w[k]: int(w[k + 1]) for k in range(0, len(w), 2)}

    def byte(addr):
        return (data.get(addr & ~3, 0) >> (8 * (addr & 3))) & 0xFF

    def half(addr):
        return (data.get(addr & ~3, 0) >> (8 * (addr & 2))) & 0xFFFF

    for n, cause in intrs:
        out.write("interrupt %d %s\n" % (n, cause))
    out.write("rslot %d failed %d replacements %d lfsr 0x%04x\n" % (regs["i1"], regs["i2"], regs["i3"], lfsr))
    for k in range(SLOTS):
        value, hits, misses, total = data.get(4 * k, 0), byte(0x400 + k), byte(0x500 + k), half(0x600 + 2 * k)
        if k in cam or value or hits or misses or total:
            pc = "0x%08x" % cam[k] if k in cam else "off"
            out.write("slot %d %s value 0x%08x hits %d misses %d total %d\n" % (k, pc, value, hits, misses, total))


def gen(kind, seed, n, out):
    rng = random.Random(seed)
    out.write("# valueprof_ref.py gen %s %d %d\nhwprof-samples 1\n" % (kind, seed, n))
    if kind == "random":
        pcs = [0x80001000 + 4 * k for k in range(400)]
        for _ in range(n):
            pc = pcs[int(len(pcs) * rng.random() ** 3)]  # a few hot loads, many cold ones
            v = rng.choice((0, 1, 1, 1, 2, 7, pc & 0xFF, rng.randrange(1 << 32)))
            out.write("load 0x%08x 0 0 0 0x%08x\n" % (pc, v))
    elif kind == "thrash":
        for k in range(n):
            out.write("load 0x%08x 0 0 0 0x%08x\n" % (0x80002000 + 4 * (k % 1500), k % 3))
    elif kind == "glacial":
        for k in range(n):
            pc = 0x80003000 + 4 * rng.randrange(40)
            out.write("load 0x%08x 0 0 0 0x%08x\n" % (pc, (k // 5000) + (pc & 3)))
    else:
        sys.exit("valueprof_ref: unknown stream kind '%s' (random, thrash, glacial)" % kind)
    out.write("end %d\n" % n)


def main(argv):
    if len(argv) >= 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(argv) == 3 and argv[1] == "run":
        alg = Algorithm()
        for n, (pc, value) in enumerate(read_samples(argv[2]), 1):
            alg.sample(n, pc, value)
        alg.dump(sys.stdout)
        return 0
    if len(argv) == 3 and argv[1] == "decode":
        decode(argv[2], sys.stdout)
        return 0
    if len(argv) == 5 and argv[1] == "gen":
        gen(argv[2], int(argv[3]), int(argv[4]), sys.stdout)
        return 0
    sys.stderr.write("usage: valueprof_ref.py run SAMPLES | decode PROGRAM.s | gen KIND SEED N (see --help)\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
