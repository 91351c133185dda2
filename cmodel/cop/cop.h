/* C model of rtl/cop/hwprof_cop.sv: the value-profiling co-processor's engine (seed 001 sections
 * 3.3-3.5; docs/cop.md): microcode, CAM and data arrays, the register files, the LFSR, the
 * decoder/field extractor, the two-stage pipeline with its 2-bit predictors, and the host window.
 * Cycle-exact: hwprof_cop_comb() gives this cycle's outputs, hwprof_cop_step() is one rising clock
 * edge. The architectural effect of each microinstruction is the one sw/host/cop/cop_interp.c gives
 * (written independently from the same specification); the benches hold all three to agreement. */
#ifndef HWPROF_COP_H
#define HWPROF_COP_H

#include "autogen/hwprof_cop_isa.h"
#include "ports.h"
#include "prim/counters.h"
#include "cop/autogen/cop_reg.h"

/* the largest sizes the register window describes (regs/cop.json) */
#define HWPROF_COP_MAX_UC HWPROF_COP_UC_LO_ENTRIES
#define HWPROF_COP_MAX_CAM HWPROF_COP_CAM_KEY_ENTRIES
#define HWPROF_COP_MAX_DATA_WORDS HWPROF_COP_DATA_ENTRIES

/* The statistics counters (u_stats), as the RTL numbers them. */
enum { HWPROF_COP_ST_SAMPLES = 0, HWPROF_COP_ST_EXECUTED, HWPROF_COP_ST_MISPREDICT, HWPROF_COP_ST_IDLE, HWPROF_COP_ST_N };

typedef struct {
  unsigned uc_depth;    /* UcDepth: 2..HWPROF_COP_MAX_UC, a power of two */
  unsigned cam_entries; /* CamEntries: 2..HWPROF_COP_MAX_CAM, a power of two */
  unsigned data_bytes;  /* DataBytes: 8..4 * HWPROF_COP_MAX_DATA_WORDS, a power of two */
} hwprof_cop_cfg_t;

/* one sample-buffer record at the engine's input (fields not selected are 0) */
typedef struct {
  uint32_t pc, npc, insn, addr, value;
  uint8_t info; /* kind 2:0, taken 3, is_call 4, is_ret 5 */
} hwprof_cop_record_t;

/* Exactly the flops of hwprof_cop. */
typedef struct {
  hwprof_cop_reg_state_t regs; /* (none: the engine holds every value) */
  uint64_t uc[HWPROF_COP_MAX_UC];
  uint32_t cam_key[HWPROF_COP_MAX_CAM];
  uint8_t cam_valid[HWPROF_COP_MAX_CAM];
  uint32_t data[HWPROF_COP_MAX_DATA_WORDS];
  uint32_t v[HWPROF_COP_NUM_VREGS];
  uint16_t i[HWPROF_COP_NUM_IREGS];
  uint32_t c[HWPROF_COP_NUM_CREGS];
  uint32_t b[HWPROF_COP_NUM_BREGS]; /* 18 bits: address 15:0, size 17:16 */
  uint8_t t[HWPROF_COP_NUM_TREGS];
  uint8_t disp[8];
  uint16_t lfsr;
  uint8_t idxw[HWPROF_COP_NUM_IREGS]; /* width - 1 */
  bool run, halted;
  uint8_t clkdiv; /* CLOCK.DIV_LOG2 */
  uint8_t div;    /* system cycles since the engine's last cycle, while it runs */
  uint8_t intr_pc;
  /* pipeline: fetch address; the fetch/execute register */
  uint8_t fpc;
  bool ex_valid;
  uint64_t ex_insn;
  uint8_t ex_pc, ex_pnext;
  /* decoder/field extractor: the record being processed */
  bool dfe_valid;
  hwprof_cop_record_t dfe;
  hwprof_prim_counters_state_t stats; /* u_stats: HWPROF_COP_ST_* */
} hwprof_cop_state_t;

typedef struct {
  bool smp_valid;          /* the sample buffer holds a record */
  hwprof_cop_record_t smp; /* its oldest */
  hwprof_reg_req_t reg;
} hwprof_cop_in_t;

typedef struct {
  bool smp_pop; /* the oldest record is taken */
  hwprof_reg_rsp_t reg;
  bool irq;     /* an intr target was taken: set the COPROC interrupt cause */
} hwprof_cop_out_t;

void hwprof_cop_cfg_default(hwprof_cop_cfg_t *cfg);
hwprof_result_t hwprof_cop_cfg_check(const hwprof_cop_cfg_t *cfg);
void hwprof_cop_reset(hwprof_cop_state_t *s);
/* Stopped: with no register access, its outputs are all 0 and the edge changes nothing. */
static inline bool hwprof_cop_at_rest(const hwprof_cop_state_t *s) { return !s->run; }
void hwprof_cop_comb(const hwprof_cop_state_t *s, const hwprof_cop_cfg_t *cfg, const hwprof_cop_in_t *in, hwprof_cop_out_t *out);
void hwprof_cop_step(hwprof_cop_state_t *s, const hwprof_cop_cfg_t *cfg, const hwprof_cop_in_t *in);

#endif /* HWPROF_COP_H */
