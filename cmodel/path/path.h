/* C model of rtl/path/hwprof_path.sv: the path sum and its stack of outer sums, next to the pir (path
 * profiling, seed 004; docs/path.md), with the stack's spills to memory. Cycle-exact: comb() gives
 * this cycle's outputs from the state and inputs, step() is one rising clock edge. */
#ifndef HWPROF_PATH_H
#define HWPROF_PATH_H

#include "ports.h"

/* Exactly the flops of hwprof_path. */
typedef struct {
  uint32_t sum;  /* PATH_SUM_W bits */
  uint32_t psp;  /* 8 bits: sums held (counts past the entries when they cannot spill, saturating) */
  bool perr;     /* sticky path-stack error */
  uint32_t bot;  /* the oldest entry held (the entries form a ring) */
  uint16_t stack[HWPROF_PATH_STACK_ENTRIES]; /* stack_q */
  uint64_t sbase;  /* PATH_SPILL_HI/LO: the spill area, PIR_BASE_W bits */
  uint32_t limit;  /* PATH_SPILL.LIMIT: the area's size in 64-byte blocks (0: spilling off) */
  uint32_t lines;  /* PATH_SPILL.LINES: entries in memory */
  uint32_t sel;    /* PATH_ENTRY_SEL */
  bool req;        /* a line request presented ... */
  bool rwr;        /* ... a write (spill), else a read (fill) */
  uint64_t raddr;
  uint32_t rdata;
  bool rwait;      /* a fill's read accepted, not yet answered */
} hwprof_path_state_t;

typedef struct {
  bool take;     /* the event is accepted, and the program's */
  const hwprof_retire_ev_t *ev;
  bool call;         /* a linked or starting call: the sum becomes 0 */
  bool link_restore; /* a linked return restores link_sum, saved in its frame (the pir's) */
  uint32_t link_sum;
  bool sum_we;       /* register writes */
  uint32_t sum_wdata;
  bool stack_we;
  uint32_t stack_depth;
  bool stack_err;
  bool spill_lo_we, spill_hi_we;
  uint32_t spill_lo, spill_hi;
  bool spill_we;
  uint32_t spill_limit, spill_lines;
  bool sel_we;
  uint32_t sel;
  bool entry_we;
  uint32_t entry_wdata;
  /* the memory port, as the top lends it */
  bool mem_grant;
  bool mem_req_ready;
  bool mem_rsp_valid;
  uint32_t mem_rsp_rdata; /* the answered line's low PATH_SUM_W bits */
} hwprof_path_in_t;

typedef struct {
  bool cnt;         /* the presented event counts a path */
  uint32_t cnt_idx; /* ... at (sum + a) mod 2^PATH_SUM_W */
  bool stall;       /* ... it is valid, the program's, and must wait: its entry is spilled or filled first */
} hwprof_path_out_t;

/* The memory side's outputs (from the state alone). */
typedef struct {
  bool busy; /* a request presented, or a read outstanding */
  bool valid, write;
  uint64_t addr;
  uint32_t wdata; /* the line's low bits (the rest 0) */
} hwprof_path_mem_t;

void hwprof_path_reset(hwprof_path_state_t *s);
/* line_shift: log2 of a memory line's bytes (1..6); prog: the presented event is the program's (not a
 * trap handler's). */
void hwprof_path_comb(const hwprof_path_state_t *s, unsigned line_shift, const hwprof_retire_ev_t *ev, bool prog,
                      hwprof_path_out_t *out);
void hwprof_path_step(hwprof_path_state_t *s, unsigned line_shift, const hwprof_path_in_t *in);
static inline void hwprof_path_mem(const hwprof_path_state_t *s, hwprof_path_mem_t *m) {
  m->busy = s->req || s->rwait;
  m->valid = s->req;
  m->write = s->req && s->rwr;
  m->addr = s->req ? s->raddr : 0;
  m->wdata = s->req && s->rwr ? s->rdata : 0;
}
/* The window's values. */
static inline uint32_t hwprof_path_entry(const hwprof_path_state_t *s, unsigned index) {
  return s->stack[(s->bot + index) % HWPROF_PATH_STACK_ENTRIES];
}
/* No memory request under way and no presented event that needs a spill or fill (for the
 * simulators' shortcuts: most cycles, decided cheaply). */
bool hwprof_path_quiet(const hwprof_path_state_t *s, unsigned line_shift, const hwprof_retire_ev_t *ev);

/* The path word an event carries (0 = none): the rule of docs/path.md, shared with no one
 * else (the CPU model builds the events, the instrumenter the shadow words). */
uint32_t hwprof_path_word_of(const hwprof_retire_ev_t *ev);

#endif /* HWPROF_PATH_H */
