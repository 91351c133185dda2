/* Driver of the edge-profiling unit and the pir (seed 000): configuration, profiling control,
 * cache commands, the overflowed-address buffer, and the phase-transition interrupt handler.
 * docs/driver.md describes its use. Every function checks its arguments before touching the
 * hardware: a bad argument returns kHwprofBadArg and no register is accessed. */
#ifndef HWPROF_EDGE_H
#define HWPROF_EDGE_H

#include "hwprof.h" /* hwprof_result_t, hwprof_t */

/* The window counter updates may write: lo <= addr < hi, 40-bit byte addresses. */
typedef struct {
  uint64_t lo;
  uint64_t hi;
} hwprof_edge_bounds_t;

typedef struct {
  uint64_t addr;  /* counter address */
  bool underflow; /* false: the counter overflowed */
} hwprof_edge_oab_entry_t;

typedef struct {
  uint32_t updates, hits, misses, writebacks, stalls, dropped, overflows, underflows;
} hwprof_edge_stats_t;

/* A link-stack entry: what a linked call saved. */
typedef struct {
  uint64_t base;
  uint32_t offset;
  uint32_t sum; /* the path sum saved beside them */
} hwprof_pir_link_entry_t;

/* The pir, as saved and restored on a context switch: every field, both stacks' entries held in the
 * pir, and their spill areas (the lines spilled stay in the program's memory). */
typedef struct {
  uint64_t base;
  uint32_t offset;
  uint16_t trigger;
  bool flag;
  uint32_t link;       /* LINK: the link stack's depth and error */
  uint32_t path_sum;   /* PATH_SUM */
  uint32_t path_stack; /* PATH_STACK: the sums held in the pir and the error */
  uint64_t path_spill_base; /* PATH_SPILL_HI/LO */
  uint32_t path_spill;      /* PATH_SPILL: the area's size and the entries in it */
  uint64_t link_spill_base; /* LINK_SPILL_HI/LO */
  uint32_t link_spill;      /* LINK_SPILL: the area's size and the frames in it */
  hwprof_pir_link_entry_t link_entry[HWPROF_PIR_LINK_ENTRIES]; /* oldest first */
  uint16_t path_entry[HWPROF_PATH_STACK_ENTRIES];              /* oldest first */
} hwprof_pir_ctx_t;

#define HWPROF_EDGE_LOG_ENTRIES 16u

/* What the interrupt handler records. */
typedef struct {
  uint32_t phase_transitions; /* phase-transition interrupts handled */
  uint32_t errors;            /* error interrupts handled (dropped updates) */
  size_t entries;             /* valid entries in entry[] from the last transition */
  bool overrun;               /* the OAB had overwritten entries at the last transition */
  hwprof_edge_oab_entry_t entry[HWPROF_EDGE_LOG_ENTRIES];
} hwprof_edge_log_t;

/* Check the ID, stop profiling, empty the OAB, and clear and disable the interrupts. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_edge_init(const hwprof_t *h);
HWPROF_WARN_UNUSED hwprof_result_t hwprof_edge_set_bounds(const hwprof_t *h, hwprof_edge_bounds_t b);
/* Set the trigger counter to count (1..32767) and enable the phase-transition interrupt. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_edge_arm_trigger(const hwprof_t *h, uint16_t count);
HWPROF_WARN_UNUSED hwprof_result_t hwprof_edge_start(const hwprof_t *h);
HWPROF_WARN_UNUSED hwprof_result_t hwprof_edge_stop(const hwprof_t *h);
/* Write back every dirty counter (and with invalidate, drop the cached lines), waiting at most
 * max_polls reads of STATUS for the command to finish. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_edge_flush(const hwprof_t *h, bool invalidate, uint32_t max_polls);
/* Drop every cached line without writing it back (to re-initialize counters in memory). */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_edge_invalidate(const hwprof_t *h, uint32_t max_polls);
/* Copy up to cap OAB entries, oldest first, then empty the OAB. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_edge_read_oab(const hwprof_t *h, hwprof_edge_oab_entry_t *entries,
                                                        size_t cap, size_t *count, bool *overrun);
HWPROF_WARN_UNUSED hwprof_result_t hwprof_edge_read_stats(const hwprof_t *h, hwprof_edge_stats_t *out);
/* kHwprofOk, or kHwprofLinkLost when a linked call found the pir's link stack full or a linked
 * return found it empty since reset (or since LINK was last written), or software set LINK.ERR (a
 * longjmp landing that could not put the stack back): the profile is not exact. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_pir_link_check(const hwprof_t *h);
/* kHwprofOk, or kHwprofPathLost when a path operation found the path stack full or empty since
 * reset (or since PATH_STACK was last written), or software set PATH_STACK.ERR (a longjmp landing):
 * the path profile is not exact (docs/path.md). */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_pir_path_check(const hwprof_t *h);
/* Let the path stack spill to memory (docs/path.md): bytes at base (64-byte aligned, a multiple of 64,
 * at most 64 * 65535) hold the entries pushed beyond the pir's; bytes 0 turns spilling off. The area
 * must lie outside the bounds window (the profile cache must never hold its lines). Sets the
 * area's entries to 0: call it with no path operation under way (before profiling starts). */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_pir_path_spill(const hwprof_t *h, uint64_t base, uint32_t bytes);
/* The same for the link stack (docs/pir.md): its frames pushed beyond the pir's 8 (each takes one
 * line of 16 bytes or more, two of 8, four of 4, eight of 2: 77 bits rounded up to a power of 2). */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_pir_link_spill(const hwprof_t *h, uint64_t base, uint32_t bytes);
HWPROF_WARN_UNUSED hwprof_result_t hwprof_pir_save(const hwprof_t *h, hwprof_pir_ctx_t *ctx);
HWPROF_WARN_UNUSED hwprof_result_t hwprof_pir_restore(const hwprof_t *h, const hwprof_pir_ctx_t *ctx);
/* The interrupt handler: records a phase transition (the OAB's entries) and dropped updates in
 * log, and acknowledges both causes. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_edge_irq_handler(const hwprof_t *h, hwprof_edge_log_t *log);

#endif /* HWPROF_EDGE_H */
