/* A loadable co-processor program (docs/cop.md): what the assembler produces, the interpreter and
 * the driver load. Freestanding (no heap, no stdio): firmware embeds images as C initializers
 * (hwprof-cpasm --c NAME). The text file form is read and written by sw/host/cop/cop_image.c (host). */
#ifndef HWPROF_COP_IMAGE_H
#define HWPROF_COP_IMAGE_H

#include <stdint.h>

#include "autogen/hwprof_cop_isa.h"
#include "autogen/hwprof_regs.h"

/* the largest microcode depth an image can describe (the build parameter UcDepth may be smaller) */
#define HWPROF_COP_IMAGE_MAX_UC 256u
#define HWPROF_COP_KINDS 8u /* dispatch table entries: one per retire kind */
/* element sizes of a base register, as log2 of the bytes */
#define HWPROF_COP_SIZE_BYTE 0u
#define HWPROF_COP_SIZE_HALF 1u
#define HWPROF_COP_SIZE_WORD 2u

typedef struct {
  uint32_t n_uc;                            /* microinstructions: addresses 0 .. n_uc - 1 */
  uint64_t uc[HWPROF_COP_IMAGE_MAX_UC];     /* 48-bit words, PRED holding the initial prediction */
  uint32_t c[HWPROF_COP_NUM_CREGS];         /* constants */
  uint32_t base[HWPROF_COP_NUM_BREGS];      /* byte address of each sub-array */
  uint8_t base_size[HWPROF_COP_NUM_BREGS];  /* HWPROF_COP_SIZE_* */
  uint32_t t[HWPROF_COP_NUM_TREGS];         /* branch targets */
  uint8_t idxw[HWPROF_COP_NUM_IREGS];       /* index register widths, 1 .. IdxW */
  uint32_t dispatch[HWPROF_COP_KINDS];      /* start address per retire kind */
  uint8_t kinds;                            /* bit k: the program handles kind k (opcode filter) */
  uint8_t fields;                           /* bit HWPROF_SFIELD_*: the record holds that field */
  uint16_t lfsr;                            /* LFSR seed, not 0 */
} hwprof_cop_image_t;

#endif
