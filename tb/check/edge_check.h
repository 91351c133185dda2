/* Reading an edge profile back from the hardware and checking it: after the program
 * ends, the runner flushes the profile cache over APB, reads every instrumented function's
 * counters from RAM and derives its edge profile (sw/host/profmap/derive.c); meanwhile every retired
 * instruction was counted against the map's edges, which gives the exact profile independently of
 * the hardware. The two must be equal, edge for edge. */
#ifndef HWPROF_TB_CHECK_EDGE_CHECK_H
#define HWPROF_TB_CHECK_EDGE_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "oracle/cc_origin.h"
#include "hwprof_mmio.h"
#include "ports.h"
#include "check/prof_coverage.h"
#include "oracle/edge_truth.h"
#include "profmap.h"

typedef struct {
  pm_map_t map;
  pm_truth_t *truth;
  prof_cov_t cov;       /* the share of the run in instrumented functions (prof_coverage.h) */
  bool trapped;         /* the last program instruction trapped (ENTRY) ... */
  uint32_t trapped_pc;  /* ... here: its successor is where the handler resumes the program */
  /* with a code cache (edge_check_set_cache): each instruction is counted once the program's next
     one is known, as the original of what it is a copy of (cc_origin.h) */
  cc_origin_t cc;
  bool pending, p_cached, p_taken, p_ret;
  uint32_t p_from, p_pc, p_next;
} edge_check_t;

/* cnt_w: the hardware's counter width in bits, which the map's counter size must match. Returns 0,
 * or -1 with a one-line reason (naming the file) in err. */
int edge_check_init(edge_check_t *c, const char *map_path, unsigned cnt_w, char *err, size_t errlen);
/* The program runs partly from the code cache [lo, hi) (its origin table below lo, in ram). */
void edge_check_set_cache(edge_check_t *c, uint32_t lo, uint32_t hi, const uint8_t *ram, uint32_t ram_base,
                          uint32_t ram_size);
void edge_check_event_cached(edge_check_t *c, const hwprof_retire_ev_t *ev);
/* The program's profile: a trap handler's instructions are not counted (the pir ignores them too,
 * docs/pir.md), and an instruction that trapped is followed by wherever the handler resumed. */
static inline void edge_check_event(edge_check_t *c, const hwprof_retire_ev_t *ev) {
  if (!ev->valid || ev->trap == HWPROF_TRAP_HANDLER || ev->trap == 3u) return;
  if (c->cc.hi) {
    edge_check_event_cached(c, ev);
    return;
  }
  if (c->trapped) {
    pm_truth_feed(c->truth, c->trapped_pc, ev->pc, true, false);
    c->trapped = false;
  }
  prof_cov_retire(&c->cov, ev);
  if (ev->trap == HWPROF_TRAP_ENTRY) {
    c->trapped = true;
    c->trapped_pc = ev->pc;
    return;
  }
  pm_truth_feed(c->truth, ev->pc, ev->next_pc, ev->taken, ev->is_ret);
}
/* The driver's flush (sw/fw/drivers/hwprof_edge.c: FLUSH, then a bounded poll of STATUS.BUSY) through the
 * runner's register access, then the pir's link-stack check. Returns 0, -1 if the cache stays busy,
 * -2 if the link stack lost a frame (edge_check_flush_why() says it in words). */
int edge_check_flush(const hwprof_bus_t *bus, void *ctx);
/* Derives the profile from the counters in ram, compares it with the exact one, prints one line
 * to report and the run's coverage (the share in instrumented functions, and the functions left
 * out that ran most), writes the profile files when paths are given. Returns the number of differing edges,
 * or -1 on an error (printed). */
static inline const char *edge_check_flush_why(int rc) {
  return rc == -2 ? "the pir's link stack lost frames (LINK.ERR: it overflowed or underflowed, or a longjmp landing "
                             "could not put it back): the profile is not exact"
                  : "the cache stays busy after a flush";
}
long edge_check_finish(edge_check_t *c, const uint8_t *ram, uint32_t ram_base, uint32_t ram_size,
                       const char *profile_out, const char *truth_out, FILE *report);
void edge_check_free(edge_check_t *c);

#endif /* HWPROF_TB_CHECK_EDGE_CHECK_H */
