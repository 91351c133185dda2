/* A program image: the loaded segments of an RV32 executable, and the ELF32 loader that fills it.
 * Portable C11; the loader takes the file's bytes (the host reads the file). */
#ifndef HWPROF_IMAGE_H
#define HWPROF_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HWPROF_IMAGE_MAX_SEGMENTS 8u

typedef struct {
  uint32_t vaddr;
  uint32_t size;        /* bytes present in the file (the rest of memsz is not code) */
  const uint8_t *bytes; /* points into the caller's buffer */
  bool exec;
} hwprof_segment_t;

typedef struct {
  uint32_t entry;
  size_t nseg;
  hwprof_segment_t seg[HWPROF_IMAGE_MAX_SEGMENTS];
} hwprof_image_t;

/* Parse an ELF32 little-endian RISC-V executable held in buf. Returns 0, or -1 with a one-line
 * reason in err (never a partial image). */
int hwprof_image_load_elf(hwprof_image_t *img, const uint8_t *buf, size_t len, char *err, size_t errlen);
/* The 32-bit word at addr if it lies in an executable segment. */
bool hwprof_image_fetch(const hwprof_image_t *img, uint32_t addr, uint32_t *word);

#endif /* HWPROF_IMAGE_H */
