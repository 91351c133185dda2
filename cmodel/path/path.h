/* C model of rtl/path/hwprof_path.sv: the path sum and its stack of outer sums, next to the pir (path
 * profiling, seed 004; docs/path.md). Cycle-exact: comb() gives this cycle's outputs from the
 * state and inputs, step() is one rising clock edge. */
#ifndef HWPROF_PATH_H
#define HWPROF_PATH_H

#include "ports.h"
#include "prim/regfile.h"

/* Exactly the flops of hwprof_path. */
typedef struct {
  uint32_t sum;  /* PATH_SUM_W bits */
  uint32_t psp;  /* 8 bits: sums pushed and not popped (counts past the entries, saturating) */
  bool perr;     /* sticky path-stack error */
  hwprof_prim_regfile_state_t stack;    /* u_stack: the saved outer sums, bottom first */
  hwprof_prim_regfile_state_t link_sum; /* u_link_sum: the sums saved by linked calls */
} hwprof_path_state_t;

typedef struct {
  bool take; /* the event is accepted, and the program's */
  const hwprof_retire_ev_t *ev;
  bool call;         /* a linked or starting call: the sum becomes 0 */
  bool link_we;      /* a linked call saves the sum in entry link_waddr */
  unsigned link_waddr;
  bool link_restore; /* a linked return restores it from entry link_raddr */
  unsigned link_raddr;
  bool sum_we;       /* register writes */
  uint32_t sum_wdata;
  bool stack_we;
  uint32_t stack_depth;
  bool stack_err;
} hwprof_path_in_t;

typedef struct {
  bool cnt;         /* the presented event counts a path */
  uint32_t cnt_idx; /* ... at (sum + a) mod 2^PATH_SUM_W */
} hwprof_path_out_t;

void hwprof_path_reset(hwprof_path_state_t *s);
void hwprof_path_comb(const hwprof_path_state_t *s, const hwprof_retire_ev_t *ev, hwprof_path_out_t *out);
void hwprof_path_step(hwprof_path_state_t *s, const hwprof_path_in_t *in);

/* The path word an event carries (0 = none): the rule of docs/path.md, shared with no one
 * else (the CPU model builds the events, the instrumenter the shadow words). */
uint32_t hwprof_path_word_of(const hwprof_retire_ev_t *ev);

#endif /* HWPROF_PATH_H */
