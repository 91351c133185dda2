/* ELF32 RISC-V executables with sections, symbols and relocations; see elf_rel.h. */
#include "elf_rel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t le16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t le32(const uint8_t *p) { return le16(p) | le16(p + 2) << 16; }

#define FAIL(...)                                          \
  do {                                                     \
    char why_[200];                                        \
    snprintf(why_, sizeof why_, __VA_ARGS__);              \
    snprintf(err, errlen, "%s: %s", path, why_);           \
    er_free(e);                                            \
    return -1;                                             \
  } while (0)

static int cmp_reloc(const void *a, const void *b) {
  const er_reloc_t *x = a, *y = b;
  if (x->where != y->where) return x->where < y->where ? -1 : 1;
  return x->type < y->type ? -1 : x->type > y->type;
}

int er_load(er_elf_t *e, const char *path, char *err, size_t errlen) {
  memset(e, 0, sizeof *e);
  FILE *f = fopen(path, "rb");
  if (f == NULL) FAIL("cannot open: %s", strerror(errno));
  if (fseek(f, 0, SEEK_END) != 0) {
    fclose(f);
    FAIL("cannot read");
  }
  long n = ftell(f);
  rewind(f);
  if (n <= 0 || (e->file = malloc((size_t)n)) == NULL || fread(e->file, 1, (size_t)n, f) != (size_t)n) {
    fclose(f);
    FAIL("cannot read");
  }
  fclose(f);
  e->len = (size_t)n;
  const uint8_t *b = e->file;
  if (e->len < 52) FAIL("too short for an ELF32 header (%zu bytes)", e->len);
  if (b[0] != 0x7f || b[1] != 'E' || b[2] != 'L' || b[3] != 'F') FAIL("not an ELF file (bad magic)");
  if (b[4] != 1) FAIL("not a 32-bit ELF (class %u)", (unsigned)b[4]);
  if (b[5] != 1) FAIL("not little-endian (data %u)", (unsigned)b[5]);
  if (le16(b + 16) != 2) FAIL("not an executable (type %u)", (unsigned)le16(b + 16));
  if (le16(b + 18) != 243) FAIL("not a RISC-V file (machine %u)", (unsigned)le16(b + 18));
  e->entry = le32(b + 24);
  uint32_t phoff = le32(b + 28), shoff = le32(b + 32);
  uint32_t phentsize = le16(b + 42), phnum = le16(b + 44), shentsize = le16(b + 46), shnum = le16(b + 48);
  uint32_t shstrndx = le16(b + 50);
  if (phnum == 0 || phentsize < 32 || phoff > e->len || (uint64_t)phnum * phentsize > e->len - phoff)
    FAIL("bad or missing program headers");
  if (shnum == 0 || shentsize < 40 || shoff > e->len || (uint64_t)shnum * shentsize > e->len - shoff)
    FAIL("no section headers (the instrumenter needs a program linked with -Wl,--emit-relocs)");
  if (shstrndx >= shnum) FAIL("bad section name table index %u", (unsigned)shstrndx);
  e->ph = calloc(phnum, sizeof *e->ph);
  e->sec = calloc(shnum, sizeof *e->sec);
  if (e->ph == NULL || e->sec == NULL) FAIL("out of memory");
  e->nph = phnum;
  for (uint32_t i = 0; i < phnum; i++) {
    const uint8_t *p = b + phoff + (size_t)i * phentsize;
    e->ph[i] = (er_phdr_t){le32(p), le32(p + 4), le32(p + 8), le32(p + 12), le32(p + 16), le32(p + 20), le32(p + 24),
                           le32(p + 28)};
    if (e->ph[i].type == 1 && (e->ph[i].offset > e->len || e->ph[i].filesz > e->len - e->ph[i].offset))
      FAIL("segment %u: bytes beyond the end of the file", (unsigned)i);
  }
  e->nsec = shnum;
  for (uint32_t i = 0; i < shnum; i++) {
    const uint8_t *s = b + shoff + (size_t)i * shentsize;
    er_section_t *x = &e->sec[i];
    x->type = le32(s + 4);
    x->flags = le32(s + 8);
    x->addr = le32(s + 12);
    x->offset = le32(s + 16);
    x->size = le32(s + 20);
    x->link = le32(s + 24);
    x->info = le32(s + 28);
    x->entsize = le32(s + 36);
    x->name[0] = (char)le32(s); /* name offset, resolved below */
    if (x->type != 8 /* NOBITS */ && (x->offset > e->len || x->size > e->len - x->offset))
      FAIL("section %u: contents beyond the end of the file", (unsigned)i);
  }
  const er_section_t *strs = &e->sec[shstrndx];
  for (uint32_t i = 0; i < shnum; i++) {
    uint32_t off = le32(b + shoff + (size_t)i * shentsize);
    const char *nm = off < strs->size ? (const char *)b + strs->offset + off : "?";
    size_t k = 0;
    while (k + 1 < sizeof e->sec[i].name && strs->offset + off + k < e->len && nm[k]) {
      e->sec[i].name[k] = nm[k];
      k++;
    }
    e->sec[i].name[k] = 0;
  }
  /* the symbol table */
  for (uint32_t i = 0; i < shnum; i++) {
    const er_section_t *s = &e->sec[i];
    if (s->type != 2 /* SYMTAB */) continue;
    if (s->entsize < 16 || s->link >= shnum) FAIL("malformed symbol table");
    const er_section_t *st = &e->sec[s->link];
    if (st->type == 8 || st->size == 0 || b[st->offset + st->size - 1] != 0)
      FAIL("the symbol string table is empty or not terminated");
    e->nsym = s->size / s->entsize;
    e->sym = calloc(e->nsym ? e->nsym : 1, sizeof *e->sym);
    if (e->sym == NULL) FAIL("out of memory");
    for (uint32_t k = 0; k < e->nsym; k++) {
      const uint8_t *p = b + s->offset + (size_t)k * s->entsize;
      uint32_t nm = le32(p);
      e->sym[k].name = nm < st->size ? (const char *)b + st->offset + nm : "";
      e->sym[k].value = le32(p + 4);
      e->sym[k].size = le32(p + 8);
      e->sym[k].type = p[12] & 15u;
      e->sym[k].bind = p[12] >> 4;
      e->sym[k].shndx = (uint16_t)le16(p + 14);
    }
    break;
  }
  if (e->sym == NULL) FAIL("no symbol table (the instrumenter needs the functions' symbols)");
  /* relocations of allocated sections */
  unsigned cap = 0;
  for (uint32_t i = 0; i < shnum; i++) {
    const er_section_t *s = &e->sec[i];
    if (s->type == 9 /* REL */) FAIL("section %s: REL relocations are not supported", s->name);
    if (s->type != 4 /* RELA */ || s->info >= shnum || !(e->sec[s->info].flags & ER_SHF_ALLOC)) continue;
    if (s->entsize < 12) FAIL("section %s: malformed relocations", s->name);
    cap += s->size / s->entsize;
  }
  if (cap == 0) FAIL("no relocations (link the program with -Wl,--emit-relocs)");
  e->rel = calloc(cap, sizeof *e->rel);
  if (e->rel == NULL) FAIL("out of memory");
  for (uint32_t i = 0; i < shnum; i++) {
    const er_section_t *s = &e->sec[i];
    if (s->type != 4 || s->info >= shnum || !(e->sec[s->info].flags & ER_SHF_ALLOC)) continue;
    const er_section_t *to = &e->sec[s->info];
    for (uint32_t k = 0; k < s->size / s->entsize; k++) {
      const uint8_t *p = b + s->offset + (size_t)k * s->entsize;
      uint32_t off = le32(p), info = le32(p + 4);
      int32_t addend = (int32_t)le32(p + 8);
      uint32_t type = info & 0xffu, sym = info >> 8;
      if (type == R_RISCV_RELAX || type == R_RISCV_NONE) continue;
      if (type == R_RISCV_ALIGN) FAIL("section %s: alignment relocations: link with -Wl,--no-relax", to->name);
      if (sym >= e->nsym) FAIL("section %s: relocation %u names symbol %u of %u", s->name, (unsigned)k, (unsigned)sym, e->nsym);
      /* a linked executable's relocation offsets are addresses */
      e->rel[e->nrel++] = (er_reloc_t){off, type, e->sym[sym].value + (uint32_t)addend, sym};
    }
  }
  qsort(e->rel, e->nrel, sizeof *e->rel, cmp_reloc);
  return 0;
}

void er_free(er_elf_t *e) {
  free(e->file);
  free(e->sec);
  free(e->sym);
  free(e->rel);
  free(e->ph);
  memset(e, 0, sizeof *e);
}

uint8_t *er_bytes(const er_elf_t *e, uint32_t addr, uint32_t n) {
  for (unsigned i = 0; i < e->nsec; i++) {
    const er_section_t *s = &e->sec[i];
    if (!(s->flags & ER_SHF_ALLOC) || s->type == 8 || s->size < n) continue;
    if (addr >= s->addr && addr - s->addr <= s->size - n) return e->file + s->offset + (addr - s->addr);
  }
  return NULL;
}

unsigned er_reloc_lower_bound(const er_elf_t *e, uint32_t addr) {
  unsigned lo = 0, hi = e->nrel;
  while (lo < hi) {
    unsigned mid = (lo + hi) / 2;
    if (e->rel[mid].where < addr) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
