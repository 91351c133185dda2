/* The memory behind the profile cache's memory port (line requests, valid/ready; a write completes
 * when accepted, a read is answered by one response cycle after a latency). An environment model,
 * with no RTL twin: the one responder of every bench and platform. The lockstep benches give one to
 * the RTL and one to the C model (seeded grant back-pressure and latency jitter, its own storage);
 * the platforms serve the lines from the CPU's RAM (storage given by the caller, fixed latency,
 * always granting when no read is outstanding). Same comb/step form as the C model. */
#ifndef HWPROF_MEM_MODEL_H
#define HWPROF_MEM_MODEL_H

#include "edge_prof/edge_prof.h"

typedef struct {
  uint64_t base;       /* byte address of the first byte held */
  uint64_t size;       /* bytes held */
  unsigned cnt_w;      /* counter (word) width: 8, 16, 32 or 64 */
  unsigned line_words; /* words per line */
  unsigned lat_min;    /* read latency in cycles after acceptance, >= 1 */
  unsigned lat_max;    /* >= lat_min */
  unsigned grant_pct;  /* chance, in percent, that the port accepts in a given cycle (1..100) */
  uint64_t seed;
} hwprof_mem_model_cfg_t;

typedef struct {
  hwprof_mem_model_cfg_t cfg;
  uint8_t *bytes;
  bool owned;       /* bytes were allocated here (freed by hwprof_mem_model_free) */
  uint64_t rng;
  bool grant_now;   /* the accept decision for this cycle */
  bool rd_pending;
  unsigned rd_wait; /* cycles until the response */
  uint64_t rd_addr;
  uint64_t reads, writes;
  uint64_t errors;  /* words accessed outside [base, base + size): read as 0, writes dropped */
  char error[160];  /* the first error, "" if none */
} hwprof_mem_model_t;

typedef struct {
  bool valid;
  bool write;
  uint64_t addr;
  hwprof_line_t wdata;
} hwprof_mem_req_t;

typedef struct {
  bool ready;
  bool rsp_valid;
  hwprof_line_t rdata;
} hwprof_mem_rsp_t;

/* Zero-filled storage of its own. kHwprofOk, or kHwprofBadArg for a bad configuration (nothing
 * allocated). */
hwprof_result_t hwprof_mem_model_init(hwprof_mem_model_t *m, const hwprof_mem_model_cfg_t *cfg);
/* Storage given by the caller (cfg->size bytes at bytes, kept by the caller). */
hwprof_result_t hwprof_mem_model_init_over(hwprof_mem_model_t *m, const hwprof_mem_model_cfg_t *cfg, uint8_t *bytes);
void hwprof_mem_model_free(hwprof_mem_model_t *m);
void hwprof_mem_model_comb(const hwprof_mem_model_t *m, hwprof_mem_rsp_t *out);
/* comb() in parts, for a simulator that builds the line only when it is answered: */
static inline bool hwprof_mem_model_ready(const hwprof_mem_model_t *m) { return m->grant_now && !m->rd_pending; }
static inline bool hwprof_mem_model_rsp_valid(const hwprof_mem_model_t *m) { return m->rd_pending && m->rd_wait == 0; }
/* the line a valid response carries (words outside the memory read as 0) */
void hwprof_mem_model_rsp_line(const hwprof_mem_model_t *m, hwprof_line_t *line);
void hwprof_mem_model_step(hwprof_mem_model_t *m, const hwprof_mem_req_t *req);
/* step() with no request changes nothing: no read in flight, and a port that always grants with a
 * fixed latency (it draws nothing). A simulator may leave such cycles out. */
static inline bool hwprof_mem_model_idle(const hwprof_mem_model_t *m, const hwprof_mem_req_t *req) {
  return !req->valid && !m->rd_pending && m->cfg.grant_pct >= 100u && m->cfg.lat_min == m->cfg.lat_max;
}
/* The memory side of a system reset: the read in flight is dropped (the requester forgets it);
 * the contents stay. */
void hwprof_mem_model_reset_port(hwprof_mem_model_t *m);
/* Backdoor access to one word (for preloading and checking); false if out of range. */
bool hwprof_mem_model_peek(const hwprof_mem_model_t *m, uint64_t addr, uint64_t *value);
bool hwprof_mem_model_poke(hwprof_mem_model_t *m, uint64_t addr, uint64_t value);

#endif /* HWPROF_MEM_MODEL_H */
