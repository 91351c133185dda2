/* ELF32 loader and instruction fetch from a program image; see include/hwprof_image.h. */
#include <stdio.h>

#include "hwprof_image.h"

static uint32_t le16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t le32(const uint8_t *p) { return le16(p) | le16(p + 2) << 16; }

#define FAIL(...)                                  \
  do {                                             \
    if (err && errlen) snprintf(err, errlen, __VA_ARGS__); \
    img->nseg = 0;                                 \
    return -1;                                     \
  } while (0)

int hwprof_image_load_elf(hwprof_image_t *img, const uint8_t *buf, size_t len, char *err, size_t errlen) {
  if (img == NULL) return -1;
  img->nseg = 0;
  img->entry = 0;
  if (buf == NULL || len < 52) FAIL("too short for an ELF32 header (%zu bytes)", len);
  if (buf[0] != 0x7f || buf[1] != 'E' || buf[2] != 'L' || buf[3] != 'F') FAIL("not an ELF file (bad magic)");
  if (buf[4] != 1) FAIL("not a 32-bit ELF (class %u)", (unsigned)buf[4]);
  if (buf[5] != 1) FAIL("not little-endian (data %u)", (unsigned)buf[5]);
  if (le16(buf + 16) != 2) FAIL("not an executable (type %u)", (unsigned)le16(buf + 16));
  if (le16(buf + 18) != 243) FAIL("not a RISC-V file (machine %u)", (unsigned)le16(buf + 18));
  uint32_t phoff = le32(buf + 28);
  uint32_t phentsize = le16(buf + 42), phnum = le16(buf + 44);
  if (phnum == 0) FAIL("no program headers");
  if (phentsize < 32) FAIL("program header entries too small (%u bytes)", (unsigned)phentsize);
  if (phoff > len || (uint64_t)phnum * phentsize > len - phoff) FAIL("program headers beyond the end of the file");
  img->entry = le32(buf + 24);
  for (uint32_t i = 0; i < phnum; i++) {
    const uint8_t *ph = buf + phoff + (size_t)i * phentsize;
    if (le32(ph) != 1) continue; /* PT_LOAD only */
    uint32_t off = le32(ph + 4), vaddr = le32(ph + 8), filesz = le32(ph + 16), memsz = le32(ph + 20);
    uint32_t flags = le32(ph + 24);
    if (filesz > memsz) FAIL("segment %u: file size 0x%x exceeds memory size 0x%x", (unsigned)i, (unsigned)filesz, (unsigned)memsz);
    if (off > len || filesz > len - off) FAIL("segment %u: bytes beyond the end of the file", (unsigned)i);
    if ((uint64_t)vaddr + memsz > UINT64_C(0x100000000)) FAIL("segment %u: wraps the 32-bit address space", (unsigned)i);
    if (filesz == 0) continue;
    if (img->nseg == HWPROF_IMAGE_MAX_SEGMENTS) FAIL("more than %u loadable segments", (unsigned)HWPROF_IMAGE_MAX_SEGMENTS);
    img->seg[img->nseg++] = (hwprof_segment_t){vaddr, filesz, buf + off, (flags & 1u) != 0};
  }
  if (img->nseg == 0) FAIL("no loadable segment with contents");
  return 0;
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
