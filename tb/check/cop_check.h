/* The value-profiling check of the whole-system runner (hwprof-sim --cop-check=FILE): the firmware
 * (sw/fw/rt/cop_rt.c) writes its per-PC load counts to FILE; meanwhile this check counts, from the
 * retire stream alone, which loads the front end had to choose. It sees the program's own stores
 * to the front end's registers (CTRL, KINDS, MASK, MATCH, PRESCALE, PRESCALE_COUNT, ACTION,
 * BITMASK: their data is in the retire event) and applies the filter and prescaler rules of
 * docs/cop.md, written again here from that text: it shares no code with cmodel/vpf/vpf.c.
 *
 * Outcome: with no record dropped, the firmware's count of every PC equals the chosen loads of that
 * PC; with drops (the sample buffer was full), no PC has more than was chosen and the totals differ
 * by exactly the drops. */
#ifndef HWPROF_TB_CHECK_COP_CHECK_H
#define HWPROF_TB_CHECK_COP_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ports.h"

typedef struct {
  uint32_t pc;
  uint64_t chosen; /* loads of this PC the prescaler took */
  uint64_t counted; /* the firmware's count (after cop_check_finish) */
} cop_check_pc_t;

typedef struct {
  uint32_t reg_base;     /* bus address of hwprof_top's register port */
  unsigned bitmask_bits; /* the build's BitmaskBits */
  /* the front end's registers as the program wrote them */
  uint32_t ctrl, kinds, mask, match, prescale, count;
  uint32_t bitmask[128];
  /* per PC: open addressing, grown by doubling */
  cop_check_pc_t *pcs;
  size_t cap, used;
  uint64_t passed, chosen;
} cop_check_t;

void cop_check_init(cop_check_t *c, uint32_t reg_base, unsigned bitmask_bits);
void cop_check_event(cop_check_t *c, const hwprof_retire_ev_t *ev);
/* Reads the firmware's profile file (format in docs/cop.md, "The firmware's profile file"),
 * compares, prints one line to report (and the first differences). dropped: the front end's count
 * of dropped records. Returns the number of PCs in error, or -1 when the file is missing or
 * malformed (printed, naming the file and line). */
long cop_check_finish(cop_check_t *c, const char *profile_path, uint64_t dropped, FILE *report);
void cop_check_free(cop_check_t *c);

#endif /* HWPROF_TB_CHECK_COP_CHECK_H */
