/* The load-value profiler's firmware, portable C (docs/vpf.md, "Firmware"): everything the
 * interrupt handlers of sw/fw/rt/vp_rt.c do, over a driver handle, so the same code runs on the
 * simulated CPU (RV32, the runtime adds the trap plumbing and the timer) and on the host against
 * the C model (tests/vp/test_vp_fw.c, under ASan/UBSan).
 *
 * It runs sw/fw/cop/valueprof.s: at the end of an interval or when FAILED reaches its threshold it
 * copies the slots that counted something into its profile and masks the loads it is confident
 * about; on thrashing it splits the current partition; on the timer it re-samples (clears the
 * masks) and moves to the next partition. */
#ifndef HWPROF_VP_FW_H
#define HWPROF_VP_FW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hwprof_cop.h"

#define VP_FW_SLOTS 256u
#define VP_FW_MAX_LOADS 2048u /* profile entries (open addressing) */
#define VP_FW_MAX_VALUES 8u   /* values kept per load; the samples of further values stay in the total */
#define VP_FW_MAX_PART_BITS 6u
#define VP_FW_FAILED_MAX 63u  /* valueprof.s: i2 is 6 bits wide */

typedef struct {
  uint32_t value, hits, misses;
} vp_fw_value_t;

typedef struct {
  uint32_t pc, total, intervals, last_copy;
  uint8_t n;
  uint16_t mask_gen; /* masked while equal to the current generation (re-sampling starts a new one) */
  vp_fw_value_t v[VP_FW_MAX_VALUES];
} vp_fw_load_t;

typedef struct {
  vp_fw_load_t prof[VP_FW_MAX_LOADS];
  uint32_t n_loads, lost_loads, lost_values, masked_now, masks_set;
  uint16_t gen;
  uint32_t copies, intervals, thrashes, timer_ticks, interrupts, errors;
  bool complete;          /* the last copy left no load unmasked (seed 001 section 5.1); the timer's
                             re-sampling starts the profile again */
  uint32_t completed_at;  /* the copy that first declared it complete (0: never) */
  uint32_t part_bits, part, records_at_start;
  uint32_t totals[VP_FW_SLOTS / 2];
} vp_fw_t;

/* Clears the profile (f must be zeroed or have been started before), loads the program (image: valueprof.s) with 2^interval_log2 records per
 * interval (1..16), no partition, an empty bit-mask filter, enables the co-processor's interrupt
 * cause, and starts the engine and sampling. */
hwprof_result_t vp_fw_start(vp_fw_t *f, const hwprof_t *h, const hwprof_cop_image_t *image, unsigned interval_log2);
/* The co-processor's interrupt (call through hwprof_cop_handle_irq: returns the clears for the
 * re-arm, or -1 on an error, which leaves the engine halted). ctx is the vp_fw_t. */
int vp_fw_on_intr(void *ctx, const hwprof_t *h, uint32_t intr_pc);
/* The timer: re-sampling and the next partition. */
void vp_fw_on_timer(vp_fw_t *f, const hwprof_t *h);
/* Stops the engine and copies the last slots (with the co-processor's interrupt no longer taken:
 * a pending one's slots are copied here instead). */
hwprof_result_t vp_fw_final_copy(vp_fw_t *f, const hwprof_t *h);
/* The profile file (docs/vpf.md): its first line, then the loads and values. A file with
 * snapshots has 'snapshot <instructions> <overhead>' lines, each followed by vp_fw_write_loads.
 * Return 0, or -1 if writing failed. */
int vp_fw_write_header(FILE *out);
int vp_fw_write_loads(const vp_fw_t *f, FILE *out);
int vp_fw_write(const vp_fw_t *f, FILE *out); /* header and loads */

#endif /* HWPROF_VP_FW_H */
