/* The trace termination rules of docs/trace_ctrl.md applied to a retire-event stream, written
 * independently of the trace controller's model (a trap handler's instructions are skipped, an
 * instruction that traps ends its trace): it says where each trace ends and what its
 * record must be, and keeps the trace's instruction addresses for comparison with a
 * reconstruction. Used by the trace round-trip test and by hwprof-sim's trace check. */
#ifndef HWPROF_TB_ORACLE_TRACE_ORACLE_H
#define HWPROF_TB_ORACLE_TRACE_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "ports.h"

typedef struct {
  unsigned hist_w;
  uint32_t start;
  uint32_t hist;
  unsigned outcomes;
  uint32_t *pcs; /* the current trace's instructions */
  size_t n, cap;
  bool ended;         /* the last instruction fed ended a trace */
  uint32_t next_start; /* ... and the next trace starts here */
  bool after_trap;     /* ... or, after a trap entry, at the next instruction of the program */
} trace_oracle_t;

/* Returns 0, or -1 if the buffer cannot be allocated. */
int trace_oracle_init(trace_oracle_t *o, unsigned hist_w, uint32_t start);
void trace_oracle_free(trace_oracle_t *o);
/* Feed one retired instruction. Returns true when it ends the current trace; then *start and
 * *hist are the record the hardware must produce, and o->pcs[0..o->n) its instructions, valid
 * until the next call. */
bool trace_oracle_feed(trace_oracle_t *o, const hwprof_retire_ev_t *ev, uint32_t *start, uint32_t *hist);

#endif /* HWPROF_TB_ORACLE_TRACE_ORACLE_H */
