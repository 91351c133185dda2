/* Driver of the value-profiling co-processor (seed 001; docs/cop.md): load a program image
 * (hwprof-cpasm), set the front end's filters, start, stop, read the arrays back, mask PCs in the
 * bit-mask filter, and the interrupt handler hook. Portable C: it runs on the simulated CPU as the
 * co-processor's interrupt handler and on the host against the C model (tests/cop/test_cop_driver.c).
 * Every function checks its arguments before touching the hardware. */
#ifndef HWPROF_COP_DRV_H
#define HWPROF_COP_DRV_H

#include <stdbool.h>
#include <stdint.h>

#include "hwprof.h"
#include "hwprof_cop_image.h"

/* the co-processor's build parameters (the CFG registers of windows cop and vpf) */
typedef struct {
  unsigned uc_depth, cam_entries, data_bytes; /* engine */
  unsigned sbuf_words, bitmask_bits;          /* front end */
} hwprof_cop_config_t;

/* the front end's settings besides the opcode filter and the field selection (those come with the
 * image: its kinds and fields) */
typedef struct {
  uint16_t prescale; /* keep one passing instruction in this many (0, 1: all) */
  uint8_t hash_mm;   /* hash of the mask/match filter, 0..3 (docs/cop.md) */
  uint8_t hash_bm;   /* hash of the bit-mask filter, 0..3 */
  uint32_t mask;     /* mask/match: keep instructions with (hash ^ match) & mask == 0 */
  uint32_t match;
} hwprof_cop_filter_t;

/* the clears a start may do first (CMD bits) */
#define HWPROF_COP_CLEAR_CAM (1u << HWPROF_COP_CMD_CAM_INVAL_LSB)
#define HWPROF_COP_CLEAR_DATA (1u << HWPROF_COP_CMD_DATA_CLEAR_LSB)
#define HWPROF_COP_CLEAR_IDX (1u << HWPROF_COP_CMD_IDX_CLEAR_LSB)
#define HWPROF_COP_CLEAR_ALL (HWPROF_COP_CLEAR_CAM | HWPROF_COP_CLEAR_DATA | HWPROF_COP_CLEAR_IDX)

typedef struct {
  bool running, halted;
  uint32_t intr_pc;
  uint32_t records, executed, mispredicts, idle; /* engine statistics */
  uint32_t passed, sampled, dropped;             /* front end statistics */
  uint32_t buffered;                             /* records in the sample buffer */
} hwprof_cop_status_t;

HWPROF_WARN_UNUSED hwprof_result_t hwprof_cop_read_config(const hwprof_t *h, hwprof_cop_config_t *out);
/* Load an image into a stopped engine: its words, constants, base and target registers, index
 * widths, dispatch table and LFSR seed, and the front end's field selection and opcode filter.
 * kHwprofBadArg (nothing written) if the image does not fit the hardware or is malformed;
 * kHwprofBusy if the engine runs or sampling is enabled. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_cop_load(const hwprof_t *h, const hwprof_cop_image_t *img);
HWPROF_WARN_UNUSED hwprof_result_t hwprof_cop_set_filter(const hwprof_t *h, const hwprof_cop_filter_t *f);
/* Start: the clears asked for (HWPROF_COP_CLEAR_*), the engine, then sampling. One CMD write. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_cop_start(const hwprof_t *h, uint32_t clears);
/* Stop sampling and the engine (records still buffered stay there). */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_cop_stop(const hwprof_t *h);
HWPROF_WARN_UNUSED hwprof_result_t hwprof_cop_status(const hwprof_t *h, hwprof_cop_status_t *out);
/* Sampling off, then wait (at most max_polls rounds) until the engine has processed every record
 * the buffer held; poll(ctx), if not NULL, is called on each round (where a host takes the
 * co-processor's interrupt; on a CPU that takes it as a trap, NULL). kHwprofBusy if it does not
 * drain (an engine halted for an interrupt nobody takes). */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_cop_drain(const hwprof_t *h, unsigned max_polls, void (*poll)(void *ctx), void *ctx);
/* Read n data-array words from word index first; n CAM entries (keys and valid bits). */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_cop_read_data(const hwprof_t *h, uint32_t first, uint32_t n, uint32_t *out);
HWPROF_WARN_UNUSED hwprof_result_t hwprof_cop_read_cam(const hwprof_t *h, uint32_t first, uint32_t n, uint32_t *keys, uint8_t *valid);
/* Exclude (or include again) one PC through the bit-mask filter, with the hash the filter uses. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_cop_mask_pc(const hwprof_t *h, uint32_t pc, bool exclude);
HWPROF_WARN_UNUSED hwprof_result_t hwprof_cop_clear_mask(const hwprof_t *h);

/* The interrupt hook: called with the address of the `intr` that halted the engine; it reads what
 * it needs and returns the clears to do before the engine restarts (HWPROF_COP_CLEAR_*), or a
 * negative value to leave it halted. */
typedef int (*hwprof_cop_intr_fn)(void *ctx, const hwprof_t *h, uint32_t intr_pc);
/* The co-processor's interrupt handler: if the COPROC cause is pending, acknowledge it and call fn;
 * then restart the engine as fn says (one write). *handled says whether the cause was pending. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_cop_handle_irq(const hwprof_t *h, hwprof_cop_intr_fn fn, void *ctx, bool *handled);

/* the PC hashes of the filters (docs/cop.md), for software that sets filter bits itself */
static inline uint32_t hwprof_cop_pc_hash(unsigned sel, uint32_t pc) {
  const uint32_t w = pc >> 2;
  switch (sel & 3u) {
    case 0: return w;
    case 1: return w ^ (w >> 12);
    case 2: return w ^ (w >> 7) ^ (w >> 15);
    default: return w ^ (w >> 5) ^ (w >> 11) ^ (w >> 17);
  }
}

#endif /* HWPROF_COP_DRV_H */
