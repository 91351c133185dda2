/* C model of rtl/vpf/hwprof_vpf.sv: the value-profiling front end (seed 001 section 3.2, Figure 3;
 * docs/cop.md, "Front end"): the opcode-class, PC mask/match and PC bit-mask filters on the
 * retire port, the prescaler, the sample buffer (cmodel/vpf/sbuf.c) and the statistics, with the
 * register window `vpf`. It never stalls the processor: a record that does not fit is dropped and
 * counted. Cycle-exact: hwprof_vpf_comb() gives this cycle's outputs, hwprof_vpf_step() is one
 * rising clock edge. */
#ifndef HWPROF_VPF_H
#define HWPROF_VPF_H

#include "ports.h"
#include "prim/counters.h"
#include "vpf/autogen/vpf_reg.h"
#include "vpf/sbuf.h"

#define HWPROF_VPF_MAX_BITMASK_WORDS HWPROF_VPF_BITMASK_ENTRIES

/* The statistics counters (u_stats), as the RTL numbers them. */
enum { HWPROF_VPF_ST_PASSED = 0, HWPROF_VPF_ST_SAMPLED, HWPROF_VPF_ST_DROPPED, HWPROF_VPF_ST_N };

typedef struct {
  unsigned sbuf_words;   /* SbufWords */
  unsigned bitmask_bits; /* BitmaskBits: HWPROF_BITMASKBITS_MIN..MAX, a power of two */
} hwprof_vpf_cfg_t;

/* Exactly the flops of hwprof_vpf: its register block's (KINDS, MASK, MATCH, PRESCALE, FIELDS),
 * its own, and the sample buffer's. */
typedef struct {
  hwprof_vpf_reg_state_t regs;
  bool enable;                /* CTRL */
  uint8_t hash_mm, hash_bm;
  uint16_t count; /* prescaler */
  uint32_t bitmask[HWPROF_VPF_MAX_BITMASK_WORDS];
  hwprof_sbuf_state_t sbuf;
  hwprof_prim_counters_state_t stats; /* u_stats: HWPROF_VPF_ST_* */
} hwprof_vpf_state_t;

typedef struct {
  bool ev_fire;                /* a retire event is accepted this cycle */
  const hwprof_retire_ev_t *ev;
  bool smp_pop;                /* the engine takes the oldest record */
  hwprof_reg_req_t reg;
} hwprof_vpf_in_t;

typedef struct {
  bool smp_valid;
  hwprof_cop_record_t smp; /* the oldest record, expanded */
  hwprof_reg_rsp_t reg;
} hwprof_vpf_out_t;

/* the four PC hashes of docs/cop.md (w = pc >> 2) */
uint32_t hwprof_vpf_hash(unsigned sel, uint32_t pc);

void hwprof_vpf_cfg_default(hwprof_vpf_cfg_t *cfg);
hwprof_result_t hwprof_vpf_cfg_check(const hwprof_vpf_cfg_t *cfg);
void hwprof_vpf_reset(hwprof_vpf_state_t *s);
/* Off with an empty sample buffer: with no register access and no pop, its outputs are all 0 and the
 * edge changes nothing. */
static inline bool hwprof_vpf_at_rest(const hwprof_vpf_state_t *s) { return !s->enable && s->sbuf.records == 0; }
void hwprof_vpf_comb(const hwprof_vpf_state_t *s, const hwprof_vpf_cfg_t *cfg, const hwprof_vpf_in_t *in, hwprof_vpf_out_t *out);
void hwprof_vpf_step(hwprof_vpf_state_t *s, const hwprof_vpf_cfg_t *cfg, const hwprof_vpf_in_t *in);

#endif /* HWPROF_VPF_H */
