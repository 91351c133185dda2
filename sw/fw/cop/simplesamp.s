# simplesamp.s: the simple-sampling baseline of seed 001 section 5 (docs/vpf.md).
# The front end's prescaler keeps one load in N (1024 for the baseline); this program only moves
# each kept record out of the sample buffer into a ring of 256 (PC, value) pairs in the data array,
# and interrupts when the ring is full so the host handler (sw/fw/rt/ss_rt.c) counts them.
.fields pc, value
.dispatch load, entry
.base   b0, 0x000, word        # PCs
.base   b1, 0x400, word        # values
.idxw   i1, 8                  # the next pair: 0..255, wraps

entry:  st b0[i1], s.pc
        st b1[i1], s.value | iinc i1 | bnilim.t done
        b intr                 # the ring is full
