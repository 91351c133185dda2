/* C model of rtl/edge_prof/hwprof_edge_prof.sv: update buffer, profile cache, commands, bounds window,
 * overflowed-address buffer and statistics (seed 000 section 7; docs/edge_prof.md). Cycle-exact:
 * hwprof_edge_prof_comb() gives this cycle's outputs, hwprof_edge_prof_step() is one rising clock edge. */
#ifndef HWPROF_EDGE_PROF_H
#define HWPROF_EDGE_PROF_H

#include "ports.h"
#include "prim/counters.h"
#include "prim/fifo.h"
#include "edge_prof/autogen/edge_prof_reg.h"

/* Largest configurations the model holds: the ranges of regs/encodings.json. */
#define HWPROF_EP_MAX_UPD HWPROF_UPDDEPTH_MAX
#define HWPROF_EP_MAX_SETS HWPROF_SETS_MAX
#define HWPROF_EP_MAX_WAYS HWPROF_WAYS_MAX
#define HWPROF_EP_MAX_LINE_WORDS HWPROF_LINEWORDS_MAX
#define HWPROF_EP_MAX_LINES (HWPROF_EP_MAX_SETS * HWPROF_EP_MAX_WAYS)
#define HWPROF_EP_MAX_OAB HWPROF_OABDEPTH_MAX

/* The statistics counters (u_stats), as the RTL numbers them. */
enum {
  HWPROF_EP_ST_UPDATES = 0,
  HWPROF_EP_ST_HITS,
  HWPROF_EP_ST_MISSES,
  HWPROF_EP_ST_WBS,
  HWPROF_EP_ST_STALLS,
  HWPROF_EP_ST_DROPPED,
  HWPROF_EP_ST_OVF,
  HWPROF_EP_ST_UNF,
  HWPROF_EP_ST_N
};

/* The RTL parameters of hwprof_edge_prof. */
typedef struct {
  unsigned cnt_w;      /* CntW: 8, 16, 32 or 64 */
  unsigned upd_depth;  /* UpdDepth: 1..HWPROF_EP_MAX_UPD */
  unsigned sets;       /* Sets: power of two, 2..HWPROF_EP_MAX_SETS */
  unsigned ways;       /* Ways: 1..HWPROF_EP_MAX_WAYS */
  unsigned line_words; /* LineWords: power of two, 2..HWPROF_EP_MAX_LINE_WORDS */
  unsigned oab_depth;  /* OabDepth: 1..HWPROF_EP_MAX_OAB */
} hwprof_edge_prof_cfg_t;


/* Exactly the flops of hwprof_edge_prof: its register block's (bounds, OAB_INDEX) and its own. */
typedef struct {
  hwprof_edge_prof_reg_state_t regs;
  uint8_t state;
  hwprof_prim_fifo_state_t upd_buf; /* u_upd_buf: {dec, addr} per operation */
  bool valid[HWPROF_EP_MAX_LINES]; /* line = set * ways + way */
  bool dirty[HWPROF_EP_MAX_LINES];
  uint64_t tag[HWPROF_EP_MAX_LINES];
  hwprof_line_t data[HWPROF_EP_MAX_LINES];
  unsigned rr[HWPROF_EP_MAX_SETS];
  unsigned victim;
  bool retry;
  bool miss_q; /* the lookup missed last cycle: STAT_MISSES counts it now */
  /* the update stage: an operation that hit in the lookup, performed the next cycle */
  bool u_valid;
  unsigned u_line;
  unsigned u_word;
  bool u_dec;
  uint64_t u_addr;
  bool u_first; /* it hit at its first lookup */
  /* the report: an overflow or underflow of the update stage, reported the next cycle */
  bool rep_valid;
  bool rep_unf;
  uint64_t rep_addr;
  bool cmd_busy;
  bool cmd_flush;
  bool cmd_inval;
  unsigned walk_set;
  unsigned walk_way;
  hwprof_prim_fifo_state_t oab; /* u_oab: {underflow, addr} per record, overwrite when full */
  bool oab_overrun;
  hwprof_prim_counters_state_t stats; /* u_stats: HWPROF_EP_ST_* */
} hwprof_edge_prof_state_t;

typedef struct {
  hwprof_upd_op_t upd;  /* update operation from the pir */
  bool ev_stall; /* a valid retire event is waiting */
  bool hold;     /* perform no update this cycle (a pir register write) */
  hwprof_reg_req_t reg;
  bool mem_req_ready;
  bool mem_rsp_valid;
  const hwprof_line_t *mem_rsp_rdata; /* the line answered; read only when mem_rsp_valid */
} hwprof_edge_prof_in_t;

typedef struct {
  bool upd_space;
  bool ovf;
  bool unf;
  bool drop;
  hwprof_reg_rsp_t reg;
  bool mem_req_valid;
  bool mem_req_write;
  uint64_t mem_req_addr;
  const hwprof_line_t *mem_req_wdata; /* a line of the state (or all 0), valid until the clock edge */
} hwprof_edge_prof_out_t;

/* Address fields of a counter address. */
typedef struct {
  unsigned set;
  unsigned word;
  uint64_t tag;
} hwprof_ep_addr_t;

/* Everything the RTL's always_comb blocks compute in a cycle from the state and the inputs: the
 * outputs and the decisions the clock edge carries out. */
typedef struct {
  hwprof_edge_prof_out_t out;
  bool waiting; /* nothing to decide (idle with no update waiting, or a refill's line not yet there; no
                   command, no access), an update may arrive: only out is set */
  bool stage_only; /* idle with no update waiting, no command, access, hold or report: only the update
                      stage works (its perform, new_cnt, u_ovf, u_unf and out are set) */
  bool refill; /* a miss's write-back or fill request, or its line arriving, with no command, access,
                  hold or report (out, head_addr, ha, wb_done, fill_done and next_state are set) */
  /* the head operation of the update buffer, as read this cycle (the edge reuses it) */
  uint64_t head_addr;
  hwprof_ep_addr_t ha;
  /* decisions for the clock edge */
  bool pop;
  bool issue;   /* the head operation hit: it goes to the update stage */
  bool head_dec;
  unsigned hit_line; /* ... its line and word */
  unsigned word;
  bool perform; /* the update stage's operation updates its counter */
  uint64_t new_cnt;
  bool u_ovf, u_unf; /* ... which overflows or underflows (reported the next cycle) */
  bool miss;
  unsigned miss_victim;
  uint8_t next_state;
  bool wb_done;   /* StWb write accepted */
  bool fill_done; /* StFillWait line arrived */
  bool walk_start;
  bool walk_wb_done;
  bool walk_advance;
  hwprof_edge_prof_reg2hw_t r2h; /* the register block's strobes: set only in a cycle with an access */
} hwprof_edge_prof_eval_t;

void hwprof_edge_prof_cfg_default(hwprof_edge_prof_cfg_t *cfg);
/* kHwprofOk, or kHwprofBadArg for parameters the RTL (or this model) does not accept. */
hwprof_result_t hwprof_edge_prof_cfg_check(const hwprof_edge_prof_cfg_t *cfg);
void hwprof_edge_prof_reset(hwprof_edge_prof_state_t *s);
/* Idle with no update waiting and no command: with no update arriving and no register access, its
 * outputs are all 0 but upd_space (1) and the edge changes nothing but the stall counter. */
static inline bool hwprof_edge_prof_at_rest(const hwprof_edge_prof_state_t *s) {
  return s->state == 0 /* StIdle */ && s->upd_buf.count == 0 && !s->u_valid && !s->miss_q && !s->rep_valid &&
         !s->cmd_busy;
}
/* Nothing to decide this cycle (most cycles of a run): no register access and no command, and either
 * at rest or waiting for a refill's line that has not come (mem_rsp_valid low). The outputs are then
 * all 0 but upd_space, and the edge only takes an arriving update (hwprof_edge_prof_take()) and
 * counts a stalled event. */
static inline bool hwprof_edge_prof_waiting(const hwprof_edge_prof_state_t *s, bool access, bool mem_rsp_valid) {
  return !access && !s->cmd_busy && !s->miss_q && !s->rep_valid &&
         ((s->state == 0 /* StIdle */ && s->upd_buf.count == 0 && !s->u_valid) ||
          (s->state == 3 /* StFillWait */ && !mem_rsp_valid)); /* (the update stage is empty outside StIdle) */
}
/* A line read is outstanding (mem_rd_wait_o: the top lends the memory port out only without one). */
static inline bool hwprof_edge_prof_rd_wait(const hwprof_edge_prof_state_t *s) { return s->state == 3 /* StFillWait */; }
/* The update buffer takes an arriving update (never full: the pir asks only while there is room). */
void hwprof_edge_prof_take(hwprof_edge_prof_state_t *s, const hwprof_edge_prof_cfg_t *cfg, const hwprof_upd_op_t *upd);
void hwprof_edge_prof_comb(const hwprof_edge_prof_state_t *s, const hwprof_edge_prof_cfg_t *cfg, const hwprof_edge_prof_in_t *in,
                    hwprof_edge_prof_out_t *out);
void hwprof_edge_prof_step(hwprof_edge_prof_state_t *s, const hwprof_edge_prof_cfg_t *cfg, const hwprof_edge_prof_in_t *in);
/* comb() and step() in two halves that decide once, for simulators that do both every cycle:
 * eval() gives this cycle's outputs (e->out) and decisions, commit() is the clock edge carrying them
 * out. Between the two, only in->ev_stall may change (it is counted, never decided on). */
void hwprof_edge_prof_eval(const hwprof_edge_prof_state_t *s, const hwprof_edge_prof_cfg_t *cfg,
                           const hwprof_edge_prof_in_t *in, hwprof_edge_prof_eval_t *e);
void hwprof_edge_prof_commit(hwprof_edge_prof_state_t *s, const hwprof_edge_prof_cfg_t *cfg, const hwprof_edge_prof_in_t *in,
                             hwprof_edge_prof_eval_t *e);

#endif /* HWPROF_EDGE_PROF_H */
