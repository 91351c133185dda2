# load_count.s: count the executions of each load PC, 64 slots (the firmware's program:
# sw/fw/rt/cop_rt.c copies the table out at every interrupt and re-arms).
#
# Slot n is CAM entry n (the load's PC) and the halfword at 2n of the data array (its count). A new
# PC takes the next slot in turn; when the 64th is taken, or a count reaches 0xffff, the engine
# interrupts so the handler copies the table out. Every record is counted exactly once: the counts
# of a table sum to the records it saw.
.fields pc
.dispatch load, entry
.base   b0, 0x000, half        # counts
.const  c0, 1
.idxw   i1, 6                  # next free slot: 0..63, wraps

entry:  cmatch i0, s.pc | bcmiss.t new        # a known PC?
        incs b0[i0] | bndsat.t done           # yes: count it
        b intr                                # the count reached 0xffff: copy the table out
new:    cwrite i1, s.pc | st b0[i1], c0 | iinc i1 | bilim full
        b done
full:   b intr                                # the last slot is taken: the table is full
