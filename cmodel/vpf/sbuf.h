/* C model of rtl/vpf/hwprof_sbuf.sv: the value-profiling sample buffer (seed 001 section 3.2;
 * docs/cop.md, "Front end"). A ring of Words 32-bit words holding records of the selected fields
 * only (0..5 words each, in the order pc, next_pc, insn, addr, value) and a ring of their 6-bit info
 * tags; the oldest record is shown expanded (fields not selected read 0). Cycle-exact:
 * hwprof_sbuf_comb() gives this cycle's outputs, hwprof_sbuf_step() is one rising clock edge. */
#ifndef HWPROF_SBUF_H
#define HWPROF_SBUF_H

#include "cop/cop.h"
#include "ports.h"

#define HWPROF_SBUF_MAX_WORDS HWPROF_SBUFWORDS_MAX

typedef struct {
  unsigned words; /* SbufWords: HWPROF_SBUFWORDS_MIN..MAX, a power of two */
} hwprof_sbuf_cfg_t;

/* Exactly the flops of hwprof_sbuf. */
typedef struct {
  uint32_t mem[HWPROF_SBUF_MAX_WORDS];
  uint8_t tag[HWPROF_SBUF_MAX_WORDS];
  uint16_t wptr, rptr; /* word ring */
  uint16_t twptr, trptr; /* tag ring */
  uint16_t records, used; /* records held, words they use */
} hwprof_sbuf_state_t;

typedef struct {
  uint8_t fields;      /* selection (bits HWPROF_SFIELD_*), for the push and the oldest record */
  bool push;           /* a record to write (if it fits) */
  uint32_t f[5];       /* its fields, HWPROF_SFIELD_* order */
  uint8_t info;        /* kind 2:0, taken 3, is_call 4, is_ret 5 */
  bool pop;            /* remove the oldest record */
  bool clear;          /* empty the buffer (before this cycle's push) */
} hwprof_sbuf_in_t;

typedef struct {
  bool valid;               /* a record is held */
  hwprof_cop_record_t head; /* the oldest, expanded (all 0 when none is held) */
  bool room;                /* a record of the selected fields fits (judged before this cycle's pop and clear) */
  unsigned records, used;
} hwprof_sbuf_out_t;

hwprof_result_t hwprof_sbuf_cfg_check(const hwprof_sbuf_cfg_t *cfg);
void hwprof_sbuf_reset(hwprof_sbuf_state_t *s);
void hwprof_sbuf_comb(const hwprof_sbuf_state_t *s, const hwprof_sbuf_cfg_t *cfg, uint8_t fields, hwprof_sbuf_out_t *out);
void hwprof_sbuf_step(hwprof_sbuf_state_t *s, const hwprof_sbuf_cfg_t *cfg, const hwprof_sbuf_in_t *in);

#endif /* HWPROF_SBUF_H */
