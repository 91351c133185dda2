/* Fuzz target: the co-processor's image file reader (sw/host/cop/cop_image.c), then the check every
 * loader runs on an image before the hardware sees it. */
#include <stdint.h>
#include <stdio.h>

#include "cop_image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FILE *f = fmemopen((void *)data, size, "r");
  if (f == NULL) return 0;
  hwprof_cop_image_t img;
  char err[256];
  if (cop_image_read(f, "fuzz.img", &img, err, sizeof err) == 0) (void)cop_image_check(&img, err, sizeof err);
  fclose(f);
  return 0;
}
