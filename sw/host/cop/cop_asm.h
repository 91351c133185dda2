/* The co-processor's assembler and disassembler (docs/cop.md, "Assembly language"). Every field
 * position, code and mnemonic comes from the generated format (hwprof_cop_isa.h). */
#ifndef HWPROF_COP_ASM_H
#define HWPROF_COP_ASM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hwprof_cop_image.h"

/* Assemble the NUL-terminated source src (name: what messages call it) into img. 0, or -1 with one
 * message in err: "name:line:column: error: ...". */
int cop_asm(const char *src, const char *name, hwprof_cop_image_t *img, char *err, size_t errlen);

/* Write img as assembly that cop_asm turns back into the same image. A word the assembler would not
 * produce (reserved codes, bits no operation uses, a prediction on an unconditional branch) is
 * written as `.word` with its decoding in a comment. */
int cop_disasm(FILE *f, const hwprof_cop_image_t *img);

/* One word as text, targets as `.+N` (for traces and messages); 1 if it is canonical (cop_asm gives
 * back the same word for this text), 0 if it is shown as `.word`. */
int cop_disasm_word(uint64_t word, char *buf, size_t len);

#endif
