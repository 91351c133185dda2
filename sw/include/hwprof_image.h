/* A program image: the loaded segments of an RV32 executable, as trace reconstruction reads them.
 * Portable C11 (firmware and host). On the host, sw/host/elf/hwprof_elf.c fills it from an ELF file. */
#ifndef HWPROF_IMAGE_H
#define HWPROF_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HWPROF_IMAGE_MAX_SEGMENTS 8u

typedef struct {
  uint32_t vaddr;
  uint32_t size;        /* bytes present in the file (the rest of memsz is not code) */
  const uint8_t *bytes; /* points into the caller's copy of the file */
  bool exec;
} hwprof_segment_t;

typedef struct {
  uint32_t entry;
  size_t nseg;
  hwprof_segment_t seg[HWPROF_IMAGE_MAX_SEGMENTS];
} hwprof_image_t;

/* The 32-bit word at addr if it lies in an executable segment. */
bool hwprof_image_fetch(const hwprof_image_t *img, uint32_t addr, uint32_t *word);

#endif /* HWPROF_IMAGE_H */
