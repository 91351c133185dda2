/* Trace reconstruction (seed 002, Figure 9): from a (start address, branch history) record and the
 * program image, walk the instructions from the start, follow each conditional branch by its
 * history bit (oldest outcome first, just below the marker), and stop at the instruction that ended
 * the trace. docs/trace_ctrl_sw.md states the rules, which mirror the trace controller's. */
#ifndef HWPROF_RECON_H
#define HWPROF_RECON_H

#include <stddef.h>
#include <stdint.h>

#include "hwprof_image.h"
#include "hwprof_trace.h"

typedef enum {
  kReconOk = 0,
  kReconNoMarker,      /* history is 0, or wider than hist_w */
  kReconStartOutside,  /* the start address is not in an executable segment */
  kReconLeftImage,     /* the walk reached an address outside the image */
  kReconBadHistory,    /* the history contradicts the code (e.g. a shifted taken backward branch) */
  kReconTooLong,       /* more instructions than the caller's buffer (or the walk limit) */
} hwprof_recon_status_t;

typedef struct {
  uint32_t first; /* address of the block's first instruction */
  uint32_t last;  /* address of its last instruction */
} hwprof_block_t;

typedef struct {
  uint32_t *pcs; /* caller's buffer for the instruction addresses */
  size_t cap;
  size_t n;
  hwprof_block_t *blocks; /* caller's buffer for the basic blocks (may be NULL) */
  size_t block_cap;
  size_t nblocks;
  uint32_t fail_pc; /* where a failed walk stopped */
} hwprof_recon_t;

hwprof_recon_status_t hwprof_trace_reconstruct(const hwprof_image_t *img, const hwprof_trace_rec_t *rec,
                                               unsigned hist_w, hwprof_recon_t *out);
const char *hwprof_recon_status_str(hwprof_recon_status_t s);

#endif /* HWPROF_RECON_H */
