/* Memory model for the profile cache's memory port (line requests, valid/ready; a write completes
 * when accepted, a read is answered by one response cycle after a seeded latency). Grant
 * back-pressure and latency jitter come from a seeded generator, so two instances with the same
 * configuration behave identically given identical requests: the lockstep bench gives one to the
 * RTL and one to the C model and compares their requests. Same comb/step form as the C model. */
#ifndef HWPROF_MEM_MODEL_H
#define HWPROF_MEM_MODEL_H

#include "edge_prof.h"

typedef struct {
  uint64_t base;       /* byte address of the first byte held */
  uint64_t size;       /* bytes held (a multiple of the line size) */
  unsigned cnt_w;      /* counter (word) width: 8, 16, 32 or 64 */
  unsigned line_words; /* words per line */
  unsigned lat_min;    /* read latency in cycles after acceptance, >= 1 */
  unsigned lat_max;    /* >= lat_min */
  unsigned grant_pct;  /* chance, in percent, that the port accepts in a given cycle (1..100) */
  uint64_t seed;
} mem_model_cfg_t;

typedef struct {
  mem_model_cfg_t cfg;
  uint8_t *bytes;
  uint64_t rng;
  bool grant_now;   /* the accept decision for this cycle */
  bool rd_pending;
  unsigned rd_wait; /* cycles until the response */
  uint64_t rd_addr;
  uint64_t reads, writes, errors;
  char error[160]; /* the first error, "" if none */
} mem_model_t;

typedef struct {
  bool valid;
  bool write;
  uint64_t addr;
  ep_line_t wdata;
} mem_req_t;

typedef struct {
  bool ready;
  bool rsp_valid;
  ep_line_t rdata;
} mem_rsp_t;

/* HWPROF_OK, or HWPROF_EINVAL for a bad configuration (nothing allocated). */
int mem_model_init(mem_model_t *m, const mem_model_cfg_t *cfg);
void mem_model_free(mem_model_t *m);
void mem_model_comb(const mem_model_t *m, mem_rsp_t *out);
void mem_model_step(mem_model_t *m, const mem_req_t *req);
/* Backdoor access to one word (for preloading and checking); false if out of range. */
bool mem_model_peek(const mem_model_t *m, uint64_t addr, uint64_t *value);
bool mem_model_poke(mem_model_t *m, uint64_t addr, uint64_t value);

#endif /* HWPROF_MEM_MODEL_H */
