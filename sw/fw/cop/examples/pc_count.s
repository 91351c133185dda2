# pc_count.s: count the executions of each load PC (an example for docs/cop.md).
#
# Slot n of the table is CAM entry n (the load's PC) and the halfword at 2n of the data array (its
# count). A new PC takes the next slot in turn; when all eight are taken the engine interrupts so
# the host can copy the table out and re-arm.
.fields pc
.dispatch load, entry
.base   b0, 0x000, half        # counts
.const  c0, 1
.idxw   i1, 3                  # next free slot: 0..7, wraps

entry:  cmatch i0, s.pc | bcmiss.t new        # a known PC?
        incs b0[i0] | b done                  # yes: count it (saturating at 0xffff)
new:    cwrite i1, s.pc | st b0[i1], c0 | iinc i1 | bilim full
        b done
full:   b intr                                # the eighth slot is taken: the table is full
