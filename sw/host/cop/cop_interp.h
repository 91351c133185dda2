/* Instruction-level interpreter of the co-processor's microcode (docs/cop.md, "One
 * microinstruction"): the architectural result of a program on a stream of samples. Written from the
 * format description (hwprof_cop_isa.h) and the specification alone, never from the cycle model, so
 * it is the second oracle for the cycle-exact C model and the RTL (as Spike is for a core): arrays,
 * registers, interrupts and samples consumed must agree; timing and the PRED bits are not
 * architectural and are not modelled here. */
#ifndef HWPROF_COP_INTERP_H
#define HWPROF_COP_INTERP_H

#include <stdint.h>

#include "hwprof_cop_image.h"

typedef struct {
  uint32_t uc_depth;     /* UcDepth: microcode words, a power of two */
  uint32_t cam_entries;  /* CamEntries, a power of two */
  uint32_t data_bytes;   /* DataBytes, a power of two, at least 4 */
} cop_geom_t;

#define COP_GEOM_DEFAULT ((cop_geom_t){64u, 256u, 2048u})

/* one record of the sample buffer; fields the image's selection leaves out are not seen */
typedef struct {
  uint32_t pc, npc, insn, addr, value;
  uint8_t kind, taken, is_call, is_ret;
} cop_sample_t;

typedef struct {
  cop_geom_t g;
  uint64_t *uc;
  uint32_t *cam_key;
  uint8_t *cam_valid;
  uint8_t *data;
  uint32_t v[HWPROF_COP_NUM_VREGS];
  uint32_t i[HWPROF_COP_NUM_IREGS];
  uint8_t idxw[HWPROF_COP_NUM_IREGS];
  uint32_t c[HWPROF_COP_NUM_CREGS];
  uint32_t base[HWPROF_COP_NUM_BREGS];
  uint8_t base_size[HWPROF_COP_NUM_BREGS];
  uint32_t t[HWPROF_COP_NUM_TREGS];
  uint32_t dispatch[HWPROF_COP_KINDS];
  uint16_t lfsr;
  uint8_t fields;
  /* what happened */
  int halted;            /* an `intr` was taken; cop_interp_resume clears it */
  uint32_t intr_pc;      /* the instruction that took it */
  uint64_t samples;      /* samples finished (done or intr) */
  uint64_t executed;     /* microinstructions executed */
  uint64_t interrupts;
} cop_interp_t;

enum {
  COP_SAMPLE_DONE = 0,     /* the routine ended with `done` */
  COP_SAMPLE_INTR = 1,     /* it ended with `intr`: the engine is halted */
  COP_ERR_HALTED = -1,     /* the engine is halted: nothing was run */
  COP_ERR_RUNAWAY = -2,    /* more than max_steps instructions on one sample (a loop that never ends) */
  COP_ERR_ARG = -3,        /* bad geometry or image (too big for the geometry) */
  COP_ERR_NOMEM = -4,
};

/* Allocate the arrays of geometry g, cleared (CAM invalid, data 0, registers 0, widths 16). */
int cop_interp_init(cop_interp_t *s, cop_geom_t g);
void cop_interp_free(cop_interp_t *s);
/* Load a program: words, register initial values, widths, dispatch, seed, field selection; the
 * arrays and v/i registers are left as they are (the host clears them separately, as in hardware). */
int cop_interp_load(cop_interp_t *s, const hwprof_cop_image_t *img);
/* The host's clear operations (docs/cop.md, Host access). */
void cop_interp_cam_invalidate(cop_interp_t *s);
void cop_interp_data_clear(cop_interp_t *s);
void cop_interp_resume(cop_interp_t *s);

/* Run the routine of one sample; COP_SAMPLE_DONE/INTR or a negative COP_ERR_*. */
int cop_interp_sample(cop_interp_t *s, const cop_sample_t *in, uint32_t max_steps);

/* Read and write an element of the data array as the engine sees it (byte address, size 1/2/4). */
uint32_t cop_interp_data_get(const cop_interp_t *s, uint32_t addr, unsigned bytes);

/* the next LFSR state (16-bit Galois, taps 0xB400) */
uint16_t cop_lfsr_next(uint16_t x);

#endif
