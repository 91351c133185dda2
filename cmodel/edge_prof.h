/* C model of rtl/hwprof_edge_prof.sv: update buffer, profile cache, commands, bounds window,
 * overflowed-address buffer and statistics (seed 000 section 7; docs/edge-prof.md). Cycle-exact:
 * edge_prof_comb() gives this cycle's outputs, edge_prof_step() is one rising clock edge. */
#ifndef HWPROF_EDGE_PROF_H
#define HWPROF_EDGE_PROF_H

#include "ports.h"
#include "reg/edge_prof_reg.h"

/* Largest configurations the model holds (the RTL parameters may not exceed them here). */
#define EP_MAX_UPD 64u
#define EP_MAX_SETS 64u
#define EP_MAX_WAYS 8u
#define EP_MAX_LINE_WORDS 8u
#define EP_MAX_LINES (EP_MAX_SETS * EP_MAX_WAYS)
#define EP_MAX_OAB 64u

/* The RTL parameters of hwprof_edge_prof. */
typedef struct {
  unsigned cnt_w;      /* CntW: 8, 16, 32 or 64 */
  unsigned upd_depth;  /* UpdDepth: 1..EP_MAX_UPD */
  unsigned sets;       /* Sets: power of two, 2..EP_MAX_SETS */
  unsigned ways;       /* Ways: 1..EP_MAX_WAYS */
  unsigned line_words; /* LineWords: power of two, 2..EP_MAX_LINE_WORDS */
  unsigned oab_depth;  /* OabDepth: 1..EP_MAX_OAB */
} edge_prof_cfg_t;

/* A cache line as it crosses the memory port: line_words counters of cnt_w bits, word 0 at the
 * lowest address. */
typedef struct {
  uint64_t w[EP_MAX_LINE_WORDS];
} ep_line_t;

/* Exactly the flops of hwprof_edge_prof: its register block's (bounds, OAB_INDEX) and its own. */
typedef struct {
  hwprof_edge_prof_reg_state_t regs;
  uint8_t state;
  uint64_t fifo_addr[EP_MAX_UPD];
  bool fifo_dec[EP_MAX_UPD];
  unsigned fifo_head;
  unsigned fifo_count;
  bool valid[EP_MAX_LINES]; /* line = set * ways + way */
  bool dirty[EP_MAX_LINES];
  uint64_t tag[EP_MAX_LINES];
  ep_line_t data[EP_MAX_LINES];
  unsigned rr[EP_MAX_SETS];
  unsigned victim;
  bool retry;
  bool cmd_busy;
  bool cmd_flush;
  bool cmd_inval;
  unsigned walk_set;
  unsigned walk_way;
  uint64_t oab_addr[EP_MAX_OAB];
  bool oab_unf[EP_MAX_OAB];
  unsigned oab_head;
  unsigned oab_count;
  bool oab_overrun;
  uint32_t st_updates, st_hits, st_misses, st_wbs, st_stalls, st_dropped, st_ovf, st_unf;
} edge_prof_state_t;

typedef struct {
  upd_op_t upd;  /* update operation from the pir */
  bool ev_stall; /* a valid retire event is waiting */
  bool hold;     /* perform no update this cycle (a pir register write) */
  hwprof_reg_req_t reg;
  bool mem_req_ready;
  bool mem_rsp_valid;
  ep_line_t mem_rsp_rdata;
} edge_prof_in_t;

typedef struct {
  bool upd_space;
  bool ovf;
  bool unf;
  bool drop;
  hwprof_reg_rsp_t reg;
  bool mem_req_valid;
  bool mem_req_write;
  uint64_t mem_req_addr;
  ep_line_t mem_req_wdata;
} edge_prof_out_t;

void edge_prof_cfg_default(edge_prof_cfg_t *cfg);
/* HWPROF_OK, or HWPROF_EINVAL for parameters the RTL (or this model) does not accept. */
int edge_prof_cfg_check(const edge_prof_cfg_t *cfg);
void edge_prof_reset(edge_prof_state_t *s);
void edge_prof_comb(const edge_prof_state_t *s, const edge_prof_cfg_t *cfg, const edge_prof_in_t *in,
                    edge_prof_out_t *out);
void edge_prof_step(edge_prof_state_t *s, const edge_prof_cfg_t *cfg, const edge_prof_in_t *in);

#endif /* HWPROF_EDGE_PROF_H */
