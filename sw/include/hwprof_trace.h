/* Driver of the trace controller (seed 002) and the interrupt handler of its Figure 8: records are
 * counted in a hash table keyed by (start address, branch history); a trace whose count reaches a
 * threshold is handed to a callback (the seed's "process the trace", Figure 9) once, and the
 * sampling period is shortened (paragraph 75). docs/trace_ctrl_sw.md describes the use. Every function
 * checks its arguments before touching the hardware. */
#ifndef HWPROF_TRACE_H
#define HWPROF_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "hwprof.h" /* hwprof_result_t, hwprof_t */

typedef struct {
  uint32_t start;
  uint32_t hist; /* outcomes above a marker 1, oldest outcome highest */
} hwprof_trace_rec_t;

typedef enum {
  kHwprofTraceEveryTrace = 0, /* interrupt per sampled trace, read from LAST_* */
  kHwprofTraceFifo = 1,       /* records batched in the FIFO, interrupt at the watermark */
} hwprof_trace_mode_t;

typedef struct {
  hwprof_trace_mode_t mode;
  uint8_t watermark;      /* FIFO mode: records before the interrupt (1..CFG_TRACE.FIFO_DEPTH) */
  uint16_t sample_period; /* 0: every collected trace; n: one in n */
  uint32_t range_lo;      /* range_lo == range_hi: no address filter */
  uint32_t range_hi;
} hwprof_trace_config_t;

typedef struct {
  hwprof_trace_rec_t rec;
  uint32_t count;
  bool hot; /* reached the threshold (and was handed to the callback) */
} hwprof_trace_entry_t;

/* Called once per trace when its count reaches the threshold. */
typedef void (*hwprof_trace_hot_fn)(void *ctx, const hwprof_trace_rec_t *rec, uint32_t count);

/* The handler's table: storage provided by the caller (no allocation on the target). */
typedef struct {
  hwprof_trace_entry_t *slots;
  size_t cap;       /* a power of two */
  size_t used;
  uint32_t threshold;
  hwprof_trace_hot_fn on_hot;
  void *hot_ctx;
  uint16_t min_period; /* the sampling period is never shortened below this */
  /* Back-off (0: off): every 16th batch in a row that makes no trace hot lengthens the sampling
     period by an eighth (at least 1), up to max_period, so that a program whose hot traces are all
     known stops paying for samples; a new hot trace halves it again (as paragraph 75 does). */
  uint16_t max_period;
  uint16_t quiet; /* batches in a row that made no trace hot, up to 16 */
  /* Jitter (off while lfsr is 0, see hwprof_trace_table_jitter): a 1-in-N counter aliases with a
     program whose traces come round in a cycle sharing a factor with N and samples one phase of it
     only; with jitter each interrupt draws the next reload from [period/2 + 1, period/2 + period]. */
  uint32_t lfsr;
  uint16_t period; /* the period the jitter is drawn around (paragraph 75 shortens it) */
  /* statistics */
  uint32_t records;    /* records read from the hardware */
  uint32_t lost;       /* records not counted because the table was full */
  uint32_t hot_traces; /* traces that reached the threshold */
  uint32_t interrupts; /* interrupts handled */
} hwprof_trace_table_t;

HWPROF_WARN_UNUSED hwprof_result_t hwprof_trace_configure(const hwprof_t *h, const hwprof_trace_config_t *cfg);
HWPROF_WARN_UNUSED hwprof_result_t hwprof_trace_enable(const hwprof_t *h, bool on);
/* Context switch: the current trace's start and history. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_trace_save(const hwprof_t *h, hwprof_trace_rec_t *cur);
HWPROF_WARN_UNUSED hwprof_result_t hwprof_trace_restore(const hwprof_t *h, const hwprof_trace_rec_t *cur);
HWPROF_WARN_UNUSED hwprof_result_t hwprof_trace_read_last(const hwprof_t *h, hwprof_trace_rec_t *rec);
/* Pop up to cap FIFO records, oldest first. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_trace_pop(const hwprof_t *h, hwprof_trace_rec_t *recs, size_t cap,
                                                    size_t *n);

/* Jitter on (seed != 0) around the period SAMPLE_RELOAD holds now; call before enabling traces. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_trace_table_jitter(const hwprof_t *h, hwprof_trace_table_t *t, uint32_t seed);

/* slots must hold cap entries, cap a power of two. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_trace_table_init(hwprof_trace_table_t *t, hwprof_trace_entry_t *slots,
                                                           size_t cap, uint32_t threshold, hwprof_trace_hot_fn on_hot,
                                                           void *hot_ctx);
/* Count one record (Figure 8 steps 820-850); returns its entry, or NULL if the table is full or the
 * hot callback released it. */
hwprof_trace_entry_t *hwprof_trace_table_add(hwprof_trace_table_t *t, const hwprof_trace_rec_t *rec);
/* Free a trace's entry once it has been processed (Figure 9 step 858; the callback may call it):
 * counted anew if it comes again. Returns whether the trace was in the table. */
bool hwprof_trace_table_release(hwprof_trace_table_t *t, const hwprof_trace_rec_t *rec);
const hwprof_trace_entry_t *hwprof_trace_table_find(const hwprof_trace_table_t *t, const hwprof_trace_rec_t *rec);
/* The interrupt handler: reads the record(s) (LAST_* or the whole FIFO), counts them, shortens the
 * sampling period when a trace turns hot, and acknowledges the TRACE interrupt. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_trace_irq_handler(const hwprof_t *h, hwprof_trace_table_t *t);

#endif /* HWPROF_TRACE_H */
