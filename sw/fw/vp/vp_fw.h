/* The load-value profiler's firmware, portable C (docs/vpf.md, "Firmware"): everything the
 * interrupt handlers of sw/fw/rt/vp_rt.c do, over a driver handle, so the same code runs on the
 * simulated CPU (RV32, the runtime adds the trap plumbing and the timer) and on the host against
 * the C model (tests/vp/test_vp_fw.c, under ASan/UBSan).
 *
 * It runs sw/fw/cop/valueprof.s, one slot per CAM entry (the program is written for Table 1's 256;
 * vp_fw_start places its four arrays for the build's CamEntries): when FAILED reaches its threshold (and, if configured, at the end
 * of an interval) it copies the slots that counted something into its profile and masks the loads
 * it is confident about; on thrashing it splits the current partition; on the timer it re-samples
 * and moves to the next partition. Re-sampling either clears every mask (seed 001's time-based
 * re-sampling) or unmasks one group of masked loads per tick, the ticks spaced further apart while
 * the re-checked loads confirm their profile (docs/vpf.md, "Firmware"). */
#ifndef HWPROF_VP_FW_H
#define HWPROF_VP_FW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hwprof_cop.h"

#define VP_FW_SLOTS_MAX 512u /* slots: CamEntries, at most HWPROF_CAMENTRIES_MAX */
#define VP_FW_MAX_LOADS 4096u /* profile entries (open addressing; kept at most half full by programs of 2,048 load PCs) */
#define VP_FW_MAX_VALUES 8u   /* values kept per load; the samples of further values stay in the total */
#define VP_FW_MAX_PART_BITS 6u
#define VP_FW_FAILED_MAX 63u  /* valueprof.s: i2 is 6 bits wide */
#define VP_FW_BITMASK_WORDS 128u /* the bit-mask filter's words the firmware shadows (4,096 bits at most) */
#define VP_FW_GROUPS 8u       /* re-check groups of the rotating re-sampling (bit-mask words w with w % 8 == g) */
#define VP_FW_MAX_LEVEL 6u    /* the rotating re-sampling's ticks are 1 to 2^6 timer periods apart */
#define VP_FW_LOG 8192u       /* slot records the log holds before it is merged into the profile */
#define VP_FW_BIT_COPIES 0x0fu /* bit_state: the copies that saw this filter bit (saturating at 15) */
#define VP_FW_BIT_PRIOR 0x10u  /* ... the copy before this one that saw it showed bit_value at 90% or more */
#define VP_FW_BIT_CAND 0x20u   /* ... this copy (so far) shows bit_value at 90% or more */
#define VP_FW_BIT_MASKED 0x40u /* ... masked since the last copy that saw it (the next one is a re-check) */
#define VP_FW_BIT_HIGH 0x80u   /* ... the last time because its value was at least 90% (bit_value) */
#define VP_FW_MASK_AFTER_MAX 15u

typedef enum {
  kVpResampleAll,   /* each timer tick clears every mask: every load is profiled again */
  kVpResampleRotate /* each tick unmasks one group of 8; the ticks back off while nothing changes */
} vp_resample_t;

typedef struct {
  unsigned interval_log2; /* records per interval: 2^interval_log2 (1..16; valueprof.s's i4) */
  bool interval_copy;     /* an interval's end copies the slots (false: the engine resumes with them) */
  unsigned mask_after;    /* a load seen in this many copies is masked whatever its bias (seed: 4; at most 15) */
  vp_resample_t resample;
  uint16_t lfsr_seed;     /* the engine's LFSR seed (0: the image's) */
  unsigned clock_log2;    /* the engine runs at 1 / 2^clock_log2 of the system clock (0..3; CLOCK) */
  unsigned mask_agree;    /* copies one after another (of those that see the load) that must show the same value
                             at 90% or more before it is masked for that bias (1: the first such copy, the seed's; 2) */
  bool recheck_changed;   /* a load whose last re-check found a change is unmasked at every tick (false: only
                             with its rotation group) */
  bool extrapolate;       /* a masked load is credited, for the time it stays masked, with the counts of the copy
                             that masked it at that copy's rate (docs/vpf.md, "time-weighted profile") */
} vp_fw_cfg_t;

/* seed 001's policy as docs/vpf.md reads it (copies at every interval's end of 2^15 records and
 * when FAILED reaches its threshold, a load masked by the first copy that shows it biased, every
 * mask cleared at each tick) and the default one (the same copies; a value at 90% masked when two
 * copies agree; rotating re-checks with back-off, and at every tick for the loads that changed; no
 * credits for time masked) */
#define VP_FW_CFG_SEED ((vp_fw_cfg_t){15u, true, 4u, kVpResampleAll, 0, 0, 1u, false, false})
#define VP_FW_CFG_DEFAULT ((vp_fw_cfg_t){15u, true, 4u, kVpResampleRotate, 0, 0, 2u, true, false})

typedef struct {
  uint32_t value, hits, misses;
} vp_fw_value_t;

typedef struct {
  uint32_t pc, total, intervals, last_copy;
  uint8_t n;
  vp_fw_value_t v[VP_FW_MAX_VALUES];
} vp_fw_load_t;

/* a copied slot (pc 0: a copy starts, value = its number), or (pc with bit 0 set) a masked load's
 * credit: the counts of the slot that masked it, weighted */
typedef struct {
  uint32_t pc, value;
  uint32_t counts; /* hits in bits 7:0, misses 15:8, total 31:16 */
  uint32_t weight; /* the counts' weight in 1/256: 256 for a copied slot */
} vp_fw_rec_t;

#define VP_FW_CREDIT_PC 1u          /* the credit records' flag in pc */
#define VP_FW_WEIGHT_MAX (1u << 24) /* a credit's weight at most (65,536 copies' worth) */

typedef struct {
  vp_fw_cfg_t cfg;
  uint32_t n_loads, lost_loads, lost_values, masks_set;
  uint32_t copies, intervals, thrashes, timer_ticks, interrupts, errors;
  uint32_t rechecks, changes; /* re-checked loads copied, and those whose profile had changed */
  uint32_t news;              /* copies since the last tick that found a change or a new load */
  uint32_t level, rot;        /* rotating re-sampling: 2^level periods to the next tick; next group */
  uint32_t bm_bits, bm_hash;  /* the bit-mask filter's size and hash */
  uint32_t bm[VP_FW_BITMASK_WORDS]; /* what the firmware wrote to it */
  uint32_t vol[VP_FW_BITMASK_WORDS]; /* the bits whose last re-check found a change (recheck_changed) */
  uint32_t n_vol;                    /* bits set in vol */
  /* per bit-mask filter bit (the loads that share a bit share its decisions, as they share the
   * filter): the copy that last saw it, the copies that saw it and VP_FW_BIT_* flags, the value it
   * was masked with or that a copy showed at 90% or more */
  uint16_t bit_copy[32u * VP_FW_BITMASK_WORDS];
  uint8_t bit_state[32u * VP_FW_BITMASK_WORDS];
  uint32_t bit_value[32u * VP_FW_BITMASK_WORDS];
  /* extrapolate: per bit, the load PC and counts of the slot that masked it, the time the copy's
   * counts span, and the time it was masked (or, while unmasked, has been profiled) since */
  uint32_t bit_pc[32u * VP_FW_BITMASK_WORDS], bit_counts[32u * VP_FW_BITMASK_WORDS];
  uint32_t bit_span[32u * VP_FW_BITMASK_WORDS], bit_since[32u * VP_FW_BITMASK_WORDS];
  uint32_t now;        /* the caller's clock (the program's instructions so far), set before every call */
  uint32_t copy_start; /* the time the slots were last cleared */
  uint32_t credits;    /* credit records made */
  uint32_t nlog, merges; /* records in the log; merges the log's filling forced during the run */
  bool complete;          /* the last copy left no load unmasked (seed 001 section 5.1); the timer's
                             re-sampling starts the profile again */
  uint32_t completed_at;  /* the copy that first declared it complete (0: never) */
  uint32_t part_bits, part, records_at_start;
  uint32_t slots;          /* the program's slots: the build's CamEntries */
  uint32_t totals[VP_FW_SLOTS_MAX / 2];
  /* last: vp_fw_start clears neither the log nor more than each profile entry's total (an entry is
   * cleared when a load first takes it) */
  vp_fw_rec_t log[VP_FW_LOG];
  vp_fw_load_t prof[VP_FW_MAX_LOADS]; /* the log merged (vp_fw_aggregate) */
  hwprof_cop_image_t image;           /* valueprof.s placed for the slots (written whole by vp_fw_start) */
} vp_fw_t;

/* Clears the profile, loads the program (image: valueprof.s, its arrays placed for the build's
 * CamEntries slots; kHwprofBadArg if the data array holds fewer than 8 bytes a slot) with the
 * policy cfg, no partition, an empty bit-mask filter, enables the
 * co-processor's interrupt cause, and starts the engine and sampling. */
hwprof_result_t vp_fw_start(vp_fw_t *f, const hwprof_t *h, const hwprof_cop_image_t *image, vp_fw_cfg_t cfg);
/* The co-processor's interrupt (call through hwprof_cop_handle_irq: returns the clears for the
 * re-arm, or -1 on an error, which leaves the engine halted). ctx is the vp_fw_t. */
int vp_fw_on_intr(void *ctx, const hwprof_t *h, uint32_t intr_pc);
/* The timer: re-sampling and the next partition. Returns the timer periods to the next tick. */
uint32_t vp_fw_on_timer(vp_fw_t *f, const hwprof_t *h);
/* Whether the bit-mask filter excludes pc now (the firmware's record of it). */
bool vp_fw_masked(const vp_fw_t *f, uint32_t pc);
/* Stops the engine and copies the last slots (with the co-processor's interrupt no longer taken:
 * a pending one's slots are copied here instead). */
hwprof_result_t vp_fw_final_copy(vp_fw_t *f, const hwprof_t *h);
/* The profile file (docs/vpf.md): its first line, then the loads and values. A file with
 * snapshots has 'snapshot <instructions> <overhead>' lines, each followed by vp_fw_write_loads.
 * Return 0, or -1 if writing failed. */
int vp_fw_write_header(FILE *out);
int vp_fw_write_loads(vp_fw_t *f, FILE *out); /* merges the log first */
int vp_fw_write(vp_fw_t *f, FILE *out);       /* header and loads */
/* Merges the log of copied slots into the per-load profile (prof): post-processing, which the
 * copies leave for later (the log's filling forces one). */
void vp_fw_aggregate(vp_fw_t *f);
/* extrapolate: credits every load masked now with its time masked up to f->now, straight into the
 * merged profile (post-processing, before the profile is written); the time starts again from now. */
void vp_fw_credit_masked(vp_fw_t *f);

#endif /* HWPROF_VP_FW_H */
