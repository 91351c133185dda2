/* Instruction fetch from a program image; see include/hwprof_image.h. */
#include "hwprof_image.h"

static uint32_t le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

bool hwprof_image_fetch(const hwprof_image_t *img, uint32_t addr, uint32_t *word) {
  if (img == NULL || (addr & 3u)) return false;
  for (size_t i = 0; i < img->nseg; i++) {
    const hwprof_segment_t *s = &img->seg[i];
    if (s->exec && addr >= s->vaddr && addr - s->vaddr <= s->size - 4u && s->size >= 4u) {
      *word = le32(s->bytes + (addr - s->vaddr));
      return true;
    }
  }
  return false;
}
