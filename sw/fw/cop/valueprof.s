# valueprof.s: load-value profiling, seed 001 section 5 and Appendix A (the flow of its Figure 10),
# for the co-processor at Table 1's sizes (256 CAM entries, 2 KB data array). docs/vpf.md
# describes the algorithm, the slot layout and the interrupt causes; this file is the program.
#
# A slot n (0..255) is CAM entry n (the load's PC; valid while the slot is on) and four elements of
# the data array: its active value, a 1-byte hit counter, a 1-byte miss counter, a 2-byte total.
#   b0  0x000  word   active value     (1 KB)
#   b1  0x400  byte   hits             (256 B)
#   b2  0x500  byte   misses           (256 B)
#   b3  0x600  half   total samples    (512 B)
# Index registers: i0 the matching slot (MSLOT), i1 the next slot up for replacement (RSLOT, 8 bits,
# round robin), i2 FAILED (a saturating count of failed replacements, minus the successful ones;
# 6 bits: the interrupt at 63), i3 the replacements (10 bits: it wraps after 1024 = 4 x 256, the
# thrash interrupt), i4 the records of this interval (16 bits: the interval interrupt every 65,536
# records, which stands in for the seed's timer: the firmware copies the slots, moves to the next
# partition and re-samples). Every interrupt leaves the engine halted; the firmware tells the cause
# by the index registers (i4 = 0: interval; i2 = 63: FAILED; otherwise thrashing) or by
# STATUS.INTR_PC (labels interval_intr, failed_intr, thrash_intr).
.fields pc, value
.dispatch load, entry
.base   b0, 0x000, word
.base   b1, 0x400, byte
.base   b2, 0x500, byte
.base   b3, 0x600, half
.const  c0, 1
.const  c1, 2                  # shift: 4 x hits
.const  c2, 16                 # state I: a value with this many samples is kept
.const  c3, 15                 # RAND15
.idxw   i0, 8
.idxw   i1, 8
.idxw   i2, 6
.idxw   i3, 10
.idxw   i4, 16
.target t0, off
.target t1, miss
.target t2, interval_intr

entry:  iinc i4 | bilim t2                             # the 65,536th record of the interval
# a slot holds the PC: count the sample, then compare the value with the active one
        cmatch i0, s.pc | bcmiss t1                    # MSLOT? no: the replacement path
        incs b3[i0] | bdsat off                        # total; saturated: turn the slot off
        ld v0, b0[i0] | bne mem, s.value, mismatch     # the active value?
match:  incs b1[i0] | bndsat.t done                    # a hit; a saturated hit counter (F) turns off
off:    cinval i0 | b done                             # the slot keeps its counts, no more updates
mismatch:
        incs b2[i0] | bdsat off                        # a miss; saturated (F): off
        shl v1, mem, c1 | ld v3, b1[i0]                # D: v1 = 4 x hits (v3 = hits)
        bltu v1, mem, low | ld v2, b2[i0]              # invariance below 20% (4 hits < misses): low (v2 = misses)
        add v0, v3, v2                                 # at 20% or more: the active value's samples
        bltu v0, c2, done                              # fewer than 16: keep it
        shl v1, v2, c0                                 # T: 2 x misses
        bgeu v3, v1, done                              # invariance 2/3 or more (hits >= 2 misses): keep it
        cinval i0 | b t1                               # below 2/3: off, and this record starts over (miss)
low:    add v0, v3, v2                                 # the active value's samples
        bgeu v0, c2, turn                              # I: 16 or more: keep them, turn the slot off
        st b0[i0], s.value                             # H: this value becomes the active one,
        st b1[i0], c0                                  #    hits 1,
        st b2[i0], zero | b done                       #    misses 0
turn:   cinval i0 | b t1                               # I: off, and this record starts over (miss)

# no slot holds the PC: replace RSLOT if RAND15() is greater than its total
miss:   rand v0, c3
        ld v1, b3[i1] | bltu mem, v0, replace
        iinc i1                                        # K: RSLOT moves on; FAILED up
        iincs i2 | bnilim.t done
failed_intr:
        b intr                                         # FAILED reached 63: copy the slots out
replace:
        cwrite i1, s.pc | st b0[i1], s.value           # M: the new PC and its value,
        st b1[i1], c0                                  #    hits 1,
        st b2[i1], zero                                #    misses 0,
        st b3[i1], c0 | idecs i2                       #    total 1; FAILED down
        iinc i1                                        # RSLOT moves on
        iinc i3 | bnilim.t done                        # the replacements
thrash_intr:
        b intr                                         # 1024 replacements: thrashing
interval_intr:
        b intr                                         # the end of an interval (the record is not processed)
