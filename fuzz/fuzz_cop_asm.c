/* Fuzz target: the co-processor's assembler (sw/host/cop/cop_asm.c), and the disassembler on what it
 * accepted, as hwprof-cpasm runs them. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cop_asm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *src = malloc(size + 1u);
  if (src == NULL) return 0;
  memcpy(src, data, size);
  src[size] = '\0';
  hwprof_cop_image_t img;
  char err[256];
  if (cop_asm(src, "fuzz.s", &img, err, sizeof err) == 0) {
    FILE *sink = fopen("/dev/null", "w");
    if (sink) {
      (void)cop_disasm(sink, &img);
      fclose(sink);
    }
  }
  free(src);
  return 0;
}
