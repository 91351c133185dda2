/* C model of rtl/pir/hwprof_pir.sv: the profile information register and update-operation generation
 * (seed 000, sections 6 and 7; docs/pir.md). Cycle-exact: comb() gives this cycle's outputs from
 * the state and inputs, step() is one rising clock edge. */
#ifndef HWPROF_PIR_H
#define HWPROF_PIR_H

#include "path/path.h"
#include "ports.h"
#include "prim/counters.h"
#include "pir/autogen/pir_reg.h"

/* The statistics counters (u_stats), as the RTL numbers them. */
enum { HWPROF_PIR_ST_EVENTS = 0, HWPROF_PIR_ST_UPDATES, HWPROF_PIR_ST_N };

typedef struct {
  unsigned cnt_w;      /* counter width in bits: 8, 16, 32 or 64 (RTL parameter CntW) */
  unsigned line_words; /* words per memory line, 2..8, a power of 2 (LineWords: the path stack's spills) */
} hwprof_pir_cfg_t;

/* A link-stack frame: what a linked call saves. */
typedef struct {
  uint64_t base;
  uint32_t offset;
  uint32_t sum; /* the path sum (u_path's) */
} hwprof_pir_frame_t;

/* Exactly the flops of hwprof_pir. */
typedef struct {
  uint64_t base;    /* PIR_BASE_W bits */
  uint32_t offset;  /* PIR_OFFSET_W bits */
  uint16_t trigger; /* PIR_TRIGGER_W bits */
  bool flag;
  uint32_t sp;   /* PIR_LINK_SP_W bits: frames held (counts past the entries when they cannot spill) */
  bool lerr;     /* sticky link-stack error */
  uint32_t lsel; /* LINK_ENTRY_SEL */
  /* the link stack: a ring of frames, the oldest at lbot; its spill area and the frame on its way */
  hwprof_pir_frame_t lstack[HWPROF_PIR_LINK_ENTRIES];
  uint32_t lbot;
  uint64_t lsbase;  /* LINK_SPILL_HI/LO */
  uint32_t llimit;  /* LINK_SPILL.LIMIT: 64-byte blocks */
  uint32_t llines;  /* LINK_SPILL.LINES: frames in memory */
  bool lreq, lrwr, lrwait;
  uint64_t lraddr;
  unsigned __int128 lframe; /* the frame being written out or read in (its bits, the sum lowest) */
  uint32_t lbeat;
  hwprof_prim_counters_state_t stats; /* u_stats: HWPROF_PIR_ST_* */
  hwprof_path_state_t path; /* u_path: the path sum and its stack */
  hwprof_upd_op_t upd; /* registered update operation */
  hwprof_pir_reg_state_t regs; /* the register block (no flops: the pir holds every register) */
} hwprof_pir_state_t;

typedef struct {
  bool ev_fire; /* a retire event is accepted this cycle (ev->valid: it is presented) */
  const hwprof_retire_ev_t *ev;
  hwprof_reg_req_t reg; /* an APB access phase aimed at the pir window */
  bool ovf; /* a counter overflowed: decrement the trigger counter */
  bool unf; /* a counter underflowed: increment it (saturating) */
  /* the memory port, as the top lends it to the path and link stacks */
  bool mem_grant;
  bool mem_req_ready;
  bool mem_rsp_valid;                /* (the top passes it only while a stack is busy) */
  const hwprof_line_t *mem_rsp_line; /* the answered line; read only when mem_rsp_valid */
} hwprof_pir_in_t;

typedef struct {
  hwprof_reg_rsp_t reg;
  bool upd_req; /* the presented event would generate an update operation */
  bool stall;   /* ... or must wait for the path stack's memory (it is the program's) */
  bool phase;   /* the trigger counter reaches zero this cycle */
  hwprof_upd_op_t upd;
} hwprof_pir_out_t;

/* Returns kHwprofOk or kHwprofBadArg for a configuration the RTL does not accept. */
hwprof_result_t hwprof_pir_cfg_check(const hwprof_pir_cfg_t *cfg);
/* log2 of a memory line's bytes (the path stack's spill slots) */
unsigned hwprof_pir_line_shift(const hwprof_pir_cfg_t *cfg);
void hwprof_pir_reset(hwprof_pir_state_t *s);
void hwprof_pir_comb(const hwprof_pir_state_t *s, const hwprof_pir_cfg_t *cfg, const hwprof_pir_in_t *in, hwprof_pir_out_t *out);
void hwprof_pir_step(hwprof_pir_state_t *s, const hwprof_pir_cfg_t *cfg, const hwprof_pir_in_t *in);

/* An instruction that is neither a transfer nor a profiling instruction (kind OTHER, LOAD, STORE). */
static inline bool hwprof_pir_ordinary(const hwprof_retire_ev_t *ev) {
  return ev->kind == HWPROF_KIND_OTHER || ev->kind == HWPROF_KIND_LOAD || ev->kind == HWPROF_KIND_STORE;
}
/* The events the pir acts on: transfers, profiling instructions, and the others when a carrier word
 * gives them an operation. */
static inline bool hwprof_pir_acts_on(const hwprof_retire_ev_t *ev) {
  if (hwprof_pir_ordinary(ev)) /* only what a carrier word gives it (docs/pir.md) */
    return ev->op == HWPROF_PROF_OP_INIT || ev->op == HWPROF_PROF_OP_SETOFF ||
           (ev->op == HWPROF_PROF_OP_ID && (ev->pid & HWPROF_MASK(HWPROF_EV_PID_W)) != 0);
  return ev->kind == HWPROF_KIND_BRANCH || ev->kind == HWPROF_KIND_JUMP || ev->kind == HWPROF_KIND_IJUMP ||
         ev->kind == HWPROF_KIND_PROF;
}
/* An event the pir lets pass: one it does not act on, or a transfer with no profiling operation
 * (op ID, so no link, region switch or path word) that asks for no update (profiling off, a trap
 * handler's, or no profile ID: a subset of the cases of update_of() in pir.c). With no register
 * access, overflow or underflow, its clock edge is hwprof_pir_pass(). */
static inline bool hwprof_pir_passes(const hwprof_pir_state_t *s, const hwprof_retire_ev_t *ev) {
  if (!hwprof_pir_acts_on(ev)) return true;
  return ev->kind != HWPROF_KIND_PROF && ev->op == HWPROF_PROF_OP_ID &&
         (!s->flag || (ev->trap & 1u) || (ev->pid & HWPROF_MASK(HWPROF_EV_PID_W)) == 0);
}
/* ... the clock edge then: the event counter counts a fired program event (fire: accepted, not a
 * trap handler's), the update register is cleared. */
static inline void hwprof_pir_pass(hwprof_pir_state_t *s, bool fire) {
  const hwprof_prim_counters_cfg_t st_cfg = {HWPROF_PIR_ST_N, 32};
  const hwprof_prim_counters_in_t st_in = {(fire ? 1u : 0u) << HWPROF_PIR_ST_EVENTS, false, 0, 0};
  hwprof_prim_counters_step(&s->stats, &st_cfg, &st_in);
  s->upd.valid = s->upd.dec = false;
  s->upd.addr = 0;
}

/* The stacks' side of the memory port, from the state alone: busy (a request presented or a read
 * outstanding), the request and its line (filled in only when valid). */
typedef struct {
  bool busy, valid, write;
  uint64_t addr;
  hwprof_line_t line;
} hwprof_pir_mem_t;
void hwprof_pir_mem(const hwprof_pir_state_t *s, const hwprof_pir_cfg_t *cfg, hwprof_pir_mem_t *m);
/* Neither stack asks for memory or makes the presented event wait (the simulators' shortcuts). Asked
 * every cycle: with no request under way, and no event or no spill area for either stack, nothing can
 * ask; otherwise the event decides (hwprof_pir_mem_quiet_event()). */
bool hwprof_pir_mem_quiet_event(const hwprof_pir_state_t *s, const hwprof_pir_cfg_t *cfg, const hwprof_retire_ev_t *ev);
static inline bool hwprof_pir_mem_quiet(const hwprof_pir_state_t *s, const hwprof_pir_cfg_t *cfg,
                                        const hwprof_retire_ev_t *ev) {
  if (s->lreq || s->lrwait || s->path.req || s->path.rwait) return false;
  if (!ev->valid || (s->llimit == 0 && s->llines == 0 && s->path.limit == 0 && s->path.lines == 0)) return true;
  return hwprof_pir_mem_quiet_event(s, cfg, ev);
}

/* This cycle's outputs and what the edge needs of the presented event, decided once. */
typedef struct {
  hwprof_pir_out_t out;
  bool second;           /* the update is the not-taken counter of an either branch */
  hwprof_path_out_t path; /* u_path's decision on the event */
  bool lstall;            /* the link stack makes the event wait ... */
  bool lspill;            /* ... to spill its oldest frame (else to fill one) */
} hwprof_pir_eval_t;
/* comb() and step() in two halves that decide once, for simulators that do both every cycle:
 * eval() gives this cycle's outputs (e->out), commit() is the clock edge. Between the two, only
 * in->ev_fire may change (the retire port's ready depends on e->out.upd_req). */
void hwprof_pir_eval(const hwprof_pir_state_t *s, const hwprof_pir_cfg_t *cfg, const hwprof_pir_in_t *in, hwprof_pir_eval_t *e);
void hwprof_pir_commit(hwprof_pir_state_t *s, const hwprof_pir_cfg_t *cfg, const hwprof_pir_in_t *in, const hwprof_pir_eval_t *e);

#endif /* HWPROF_PIR_H */
