/* See trace_oracle.h. */
#include "oracle/trace_oracle.h"

#include <stdlib.h>

int trace_oracle_init(trace_oracle_t *o, unsigned hist_w, uint32_t start) {
  *o = (trace_oracle_t){.hist_w = hist_w, .start = start, .hist = 1, .cap = 1024};
  o->pcs = malloc(o->cap * sizeof *o->pcs);
  return o->pcs ? 0 : -1;
}

void trace_oracle_free(trace_oracle_t *o) {
  free(o->pcs);
  o->pcs = NULL;
}

bool trace_oracle_feed(trace_oracle_t *o, const hwprof_retire_ev_t *ev, uint32_t *start, uint32_t *hist) {
  /* a trap handler's instructions (HANDLER, and the reserved 3) belong to no trace of the program */
  if (ev->trap == HWPROF_TRAP_HANDLER || ev->trap == 3u) return false;
  if (o->ended) { /* the previous instruction ended a trace: a new one starts, where the program
                     goes on (after a trap: at its first instruction after the handler) */
    o->start = o->after_trap ? ev->pc : o->next_start;
    o->hist = 1;
    o->outcomes = 0;
    o->n = 0;
    o->ended = false;
  }
  if (o->n == o->cap) {
    uint32_t *p = realloc(o->pcs, 2 * o->cap * sizeof *p);
    if (p == NULL) abort(); /* out of memory in a test oracle: nothing sensible to continue with */
    o->pcs = p;
    o->cap *= 2;
  }
  o->pcs[o->n++] = ev->pc;
  o->after_trap = ev->trap == HWPROF_TRAP_ENTRY;
  if (o->after_trap) {
    o->ended = true; /* the instruction trapped: its trace ends with it, nothing shifted */
  } else if (ev->kind == HWPROF_KIND_BRANCH) {
    if (ev->taken && ev->next_pc <= ev->pc) {
      o->ended = true; /* taken backward: ends, the outcome is implied */
    } else {
      o->hist = (o->hist << 1) | (ev->taken ? 1u : 0u);
      o->ended = ++o->outcomes == o->hist_w - 1u;
    }
  } else if (ev->kind == HWPROF_KIND_JUMP) {
    o->ended = ev->next_pc <= ev->pc;
  } else if (ev->kind == HWPROF_KIND_IJUMP) {
    o->ended = true;
  }
  if (!o->ended) return false;
  o->next_start = ev->next_pc;
  *start = o->start;
  *hist = o->hist;
  return true;
}
