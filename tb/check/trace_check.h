/* The end-to-end trace check of the whole-system runners (hwprof-sim, hwprof-sc): the trace
 * controller is enabled from the program's entry (firmware may then configure sampling, the FIFO,
 * interrupts: LAST_* hold every collected trace in any mode), and each record that appears in
 * LAST_* must equal what the termination rules give for the executed instructions
 * (tb/oracle/trace_oracle.c: a trap handler's instructions are no trace's), and its reconstruction from
 * the ELF image (sw/lib/trace_recon.c) must give exactly those instructions. If the program disables the
 * controller, the check stops there. It observes the C model's state; it adds no cycles. */
#ifndef HWPROF_TB_CHECK_TRACE_CHECK_H
#define HWPROF_TB_CHECK_TRACE_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hwprof_elf.h"
#include "hwprof_image.h"
#include "trace_ctrl/trace_ctrl.h"
#include "oracle/trace_oracle.h"

typedef struct {
  hwprof_image_t img;
  hwprof_elf_t elf; /* the program; img points into its copy of the file */
  unsigned hist_w;
  trace_oracle_t oracle;
  uint32_t seen, filtered; /* traces the model ended so far, and filtered (its statistics) */
  uint64_t checked, failed, instrs, skipped; /* skipped: ended outside the address-range filter */
  uint64_t stopped_at; /* 0, or the instruction at which the program disabled the controller */
  uint64_t events;
  uint32_t *pcs;
  size_t cap;
  FILE *errors; /* where the first failures are described */
} trace_check_t;

/* The registers to write before the program runs (every-trace mode, the current trace started at
 * the entry point), in order. */
typedef struct {
  uint16_t addr;
  uint32_t data;
} trace_check_setup_t;
#define TRACE_CHECK_SETUP_N 3u
void trace_check_setup(uint32_t entry_pc, trace_check_setup_t out[TRACE_CHECK_SETUP_N]);

/* Returns 0, or -1 with a one-line reason (naming the file) in err. */
int trace_check_init(trace_check_t *t, const char *elf, unsigned hist_w, uint32_t entry_pc, FILE *errors,
                     char *err, size_t errlen);
/* One retired instruction, after the trace controller has taken it (its state after the edge). */
void trace_check_event(trace_check_t *t, const hwprof_trace_ctrl_state_t *tc, const hwprof_retire_ev_t *ev);
/* The one-line summary: traces and instructions checked, failures, where the check stopped. */
void trace_check_report(const trace_check_t *t, FILE *f);
void trace_check_free(trace_check_t *t);

#endif /* HWPROF_TB_CHECK_TRACE_CHECK_H */
