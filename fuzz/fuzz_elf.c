/* Fuzz target: the ELF reader the host tools share (sw/host/elf/hwprof_elf.c), as the instrumenter and
 * the simulator call it: parse with sections, symbols and relocations, then build the program image. */
#include <stdint.h>
#include <stdlib.h>

#include "hwprof_elf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hwprof_elf_t e;
  char err[256];
  if (hwprof_elf_parse(&e, data, size, "fuzz.elf", HWPROF_ELF_RELOCATABLE, err, sizeof err) == 0) {
    hwprof_image_t img; /* views into e's copy of the file */
    if (hwprof_elf_image(&e, &img, err, sizeof err) == 0) {
      volatile uint32_t sum = 0; /* every segment the reader vouched for, read through */
      for (size_t i = 0; i < img.nseg; i++)
        for (uint32_t k = 0; k < img.seg[i].size; k++) sum += img.seg[i].bytes[k];
      (void)sum;
    }
    hwprof_elf_free(&e);
  }
  return 0;
}
