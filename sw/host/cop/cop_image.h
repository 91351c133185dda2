/* Co-processor images as text files and C initializers (host side; docs/cop.md).
 *
 * The text form, one item per line ('#' starts a comment):
 *   hwprof-cop-image 2           first line
 *   fields 0x11                  field selection (bits HWPROF_SFIELD_*)
 *   kinds 0x10                   kinds the program dispatches
 *   lfsr 0xace1
 *   dispatch KIND ADDR           KIND 0..7
 *   const N VALUE | base N ADDR LOG2SIZE | target N ADDR | idxw N WIDTH
 *   uc ADDR WORD                 WORD: the 48-bit microinstruction in hex
 *   end N                        last line: N, the number of microinstructions
 * Items may come in any order before the end record; an item not given keeps its default (0; widths
 * IdxW; seed 0xace1). A file without its end record, or with items after it, is refused. */
#ifndef HWPROF_COP_IMAGE_IO_H
#define HWPROF_COP_IMAGE_IO_H

#include <stddef.h>
#include <stdio.h>

#include "hwprof_cop_image.h"

#define COP_IDXW_MAX 16u /* IdxW, the index registers' physical width */
#define COP_LFSR_RESET 0xace1u

/* an empty image: no words, widths COP_IDXW_MAX, LFSR seed COP_LFSR_RESET */
void cop_image_init(hwprof_cop_image_t *img);

/* Check that every value is in range (the same checks the reader makes). 0, or -1 with a message in
 * err naming what is wrong. */
int cop_image_check(const hwprof_cop_image_t *img, char *err, size_t errlen);

/* Read a text image; name is what error messages call the input. 0, or -1 with one message in err
 * ("name:line: ..."); on error *img holds nothing useful. */
int cop_image_read(FILE *f, const char *name, hwprof_cop_image_t *img, char *err, size_t errlen);

/* Write the text form (cop_image_read reads it back unchanged), or a C initializer named cname. */
int cop_image_write(FILE *f, const hwprof_cop_image_t *img);
int cop_image_write_c(FILE *f, const hwprof_cop_image_t *img, const char *cname);

#endif
