/* The host tools' ELF reader, on libelf; see hwprof_elf.h. */
#include "hwprof_elf.h"

#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(...)                                             \
  do {                                                        \
    char why_[200];                                           \
    snprintf(why_, sizeof why_, __VA_ARGS__);                 \
    if (err && errlen) snprintf(err, errlen, "%s: %s", name, why_); \
    if (elf) elf_end(elf);                                    \
    hwprof_elf_free(e);                                       \
    return -1;                                                \
  } while (0)

static int cmp_reloc(const void *a, const void *b) {
  const hwprof_elf_reloc_t *x = a, *y = b;
  if (x->where != y->where) return x->where < y->where ? -1 : 1;
  return x->type < y->type ? -1 : x->type > y->type;
}

/* A string of the file (libelf checks it is terminated inside its section), or NULL. */
static const char *file_string(const hwprof_elf_t *e, Elf *elf, size_t section, size_t offset) {
  const char *s = elf_strptr(elf, section, offset);
  if (s == NULL || s < (const char *)e->file || s >= (const char *)e->file + e->len) return NULL;
  return s;
}

static int sections(hwprof_elf_t *e, Elf *elf, const char *name, char *err, size_t errlen) {
  size_t shnum = 0, shstrndx = 0;
  if (elf_getshdrnum(elf, &shnum) != 0 || shnum == 0)
    FAIL("no section headers (the instrumenter needs a program linked with -Wl,--emit-relocs)");
  if (elf_getshdrstrndx(elf, &shstrndx) != 0 || shstrndx >= shnum) FAIL("bad section name table index");
  if ((e->sec = calloc(shnum, sizeof *e->sec)) == NULL) FAIL("out of memory");
  e->nsec = (unsigned)shnum;
  for (size_t i = 0; i < shnum; i++) {
    Elf_Scn *scn = elf_getscn(elf, i);
    Elf32_Shdr *sh = scn ? elf32_getshdr(scn) : NULL;
    if (sh == NULL) FAIL("section %zu: %s", i, elf_errmsg(-1));
    hwprof_elf_section_t *x = &e->sec[i];
    *x = (hwprof_elf_section_t){"", sh->sh_type, sh->sh_flags, sh->sh_addr, sh->sh_offset, sh->sh_size,
                                sh->sh_link, sh->sh_info, sh->sh_entsize};
    if (x->type != SHT_NOBITS && (x->offset > e->len || x->size > e->len - x->offset))
      FAIL("section %zu: contents beyond the end of the file", i);
    const char *nm = file_string(e, elf, shstrndx, sh->sh_name);
    snprintf(x->name, sizeof x->name, "%s", nm ? nm : "?");
  }
  return 0;
}

static int symbols(hwprof_elf_t *e, Elf *elf, const char *name, char *err, size_t errlen) {
  for (unsigned i = 0; i < e->nsec; i++) {
    const hwprof_elf_section_t *s = &e->sec[i];
    if (s->type != SHT_SYMTAB) continue;
    if (s->entsize < sizeof(Elf32_Sym) || s->link >= e->nsec) FAIL("malformed symbol table");
    const hwprof_elf_section_t *st = &e->sec[s->link];
    if (st->type == SHT_NOBITS || st->size == 0 || e->file[st->offset + st->size - 1] != 0)
      FAIL("the symbol string table is empty or not terminated");
    Elf_Data *d = elf_getdata(elf_getscn(elf, i), NULL);
    if (d == NULL) FAIL("symbol table: %s", elf_errmsg(-1));
    e->nsym = s->size / s->entsize;
    if ((e->sym = calloc(e->nsym ? e->nsym : 1, sizeof *e->sym)) == NULL) FAIL("out of memory");
    for (unsigned k = 0; k < e->nsym; k++) {
      GElf_Sym y;
      if (gelf_getsym(d, (int)k, &y) == NULL) FAIL("symbol %u: %s", k, elf_errmsg(-1));
      const char *nm = file_string(e, elf, s->link, y.st_name);
      e->sym[k] = (hwprof_elf_symbol_t){nm ? nm : "", (uint32_t)y.st_value, (uint32_t)y.st_size,
                                        (uint8_t)GELF_ST_TYPE(y.st_info), (uint8_t)GELF_ST_BIND(y.st_info),
                                        (uint16_t)y.st_shndx};
    }
    return 0;
  }
  FAIL("no symbol table (the instrumenter needs the functions' symbols)");
}

static bool reloc_section(const hwprof_elf_t *e, const hwprof_elf_section_t *s) {
  return s->type == SHT_RELA && s->info < e->nsec && (e->sec[s->info].flags & HWPROF_ELF_SHF_ALLOC);
}

static int relocations(hwprof_elf_t *e, Elf *elf, const char *name, char *err, size_t errlen) {
  unsigned cap = 0;
  for (unsigned i = 0; i < e->nsec; i++) {
    const hwprof_elf_section_t *s = &e->sec[i];
    if (s->type == SHT_REL) FAIL("section %s: REL relocations are not supported", s->name);
    if (!reloc_section(e, s)) continue;
    if (s->entsize < sizeof(Elf32_Rela)) FAIL("section %s: malformed relocations", s->name);
    cap += s->size / s->entsize;
  }
  if (cap == 0) FAIL("no relocations (link the program with -Wl,--emit-relocs)");
  if ((e->rel = calloc(cap, sizeof *e->rel)) == NULL) FAIL("out of memory");
  for (unsigned i = 0; i < e->nsec; i++) {
    const hwprof_elf_section_t *s = &e->sec[i];
    if (!reloc_section(e, s)) continue;
    const hwprof_elf_section_t *to = &e->sec[s->info];
    Elf_Data *d = elf_getdata(elf_getscn(elf, i), NULL);
    if (d == NULL) FAIL("section %s: %s", s->name, elf_errmsg(-1));
    for (unsigned k = 0; k < s->size / s->entsize; k++) {
      GElf_Rela r;
      if (gelf_getrela(d, (int)k, &r) == NULL) FAIL("section %s: relocation %u: %s", s->name, k, elf_errmsg(-1));
      uint32_t type = (uint32_t)GELF_R_TYPE(r.r_info), sym = (uint32_t)GELF_R_SYM(r.r_info);
      if (type == R_RISCV_RELAX || type == R_RISCV_NONE) continue;
      if (type == R_RISCV_ALIGN) FAIL("section %s: alignment relocations: link with -Wl,--no-relax", to->name);
      if (sym >= e->nsym) FAIL("section %s: relocation %u names symbol %u of %u", s->name, k, (unsigned)sym, e->nsym);
      /* a linked executable's relocation offsets are addresses */
      e->rel[e->nrel++] =
          (hwprof_elf_reloc_t){(uint32_t)r.r_offset, type, e->sym[sym].value + (uint32_t)(int32_t)r.r_addend, sym};
    }
  }
  qsort(e->rel, e->nrel, sizeof *e->rel, cmp_reloc);
  return 0;
}

/* Parses e->file (already read or copied); on failure frees e. */
static int parse(hwprof_elf_t *e, const char *name, unsigned need, char *err, size_t errlen) {
  Elf *elf = NULL;
  const uint8_t *b = e->file;
  /* the identification bytes first, for a precise message */
  if (e->len < sizeof(Elf32_Ehdr)) FAIL("too short for an ELF32 header (%zu bytes)", e->len);
  if (memcmp(b, ELFMAG, SELFMAG) != 0) FAIL("not an ELF file (bad magic)");
  if (b[EI_CLASS] != ELFCLASS32) FAIL("not a 32-bit ELF (class %u)", (unsigned)b[EI_CLASS]);
  if (b[EI_DATA] != ELFDATA2LSB) FAIL("not little-endian (data %u)", (unsigned)b[EI_DATA]);
  if (elf_version(EV_CURRENT) == EV_NONE) FAIL("libelf: %s", elf_errmsg(-1));
  if ((elf = elf_memory((char *)e->file, e->len)) == NULL || elf_kind(elf) != ELF_K_ELF)
    FAIL("not an ELF file (%s)", elf_errmsg(-1));
  Elf32_Ehdr *eh = elf32_getehdr(elf);
  if (eh == NULL) FAIL("bad ELF header (%s)", elf_errmsg(-1));
  if (eh->e_type != ET_EXEC) FAIL("not an executable (type %u)", (unsigned)eh->e_type);
  if (eh->e_machine != EM_RISCV) FAIL("not a RISC-V file (machine %u)", (unsigned)eh->e_machine);
  e->entry = eh->e_entry;
  /* libelf hands out the tables in place: at a misaligned offset (no linker writes one) their fields
     would be read misaligned */
  if (eh->e_phoff % 4u || eh->e_shoff % 4u)
    FAIL("%s headers at a misaligned file offset (0x%x)", eh->e_phoff % 4u ? "program" : "section",
         (unsigned)(eh->e_phoff % 4u ? eh->e_phoff : eh->e_shoff));
  size_t phnum = 0;
  if (elf_getphdrnum(elf, &phnum) != 0 || phnum == 0) FAIL("no program headers");
  Elf32_Phdr *ph = elf32_getphdr(elf);
  if (ph == NULL) FAIL("program headers beyond the end of the file (%s)", elf_errmsg(-1));
  if ((e->ph = calloc(phnum, sizeof *e->ph)) == NULL) FAIL("out of memory");
  e->nph = (unsigned)phnum;
  for (size_t i = 0; i < phnum; i++) {
    e->ph[i] = (hwprof_elf_phdr_t){ph[i].p_type,  ph[i].p_offset, ph[i].p_vaddr, ph[i].p_paddr,
                                   ph[i].p_filesz, ph[i].p_memsz, ph[i].p_flags, ph[i].p_align};
    const hwprof_elf_phdr_t *p = &e->ph[i];
    if (p->type != HWPROF_ELF_PT_LOAD) continue;
    if (p->offset > e->len || p->filesz > e->len - p->offset)
      FAIL("segment %zu: bytes beyond the end of the file", i);
    if (p->filesz > p->memsz)
      FAIL("segment %zu: file size 0x%x exceeds memory size 0x%x", i, (unsigned)p->filesz, (unsigned)p->memsz);
    if ((uint64_t)p->vaddr + p->memsz > UINT64_C(0x100000000) || (uint64_t)p->paddr + p->memsz > UINT64_C(0x100000000))
      FAIL("segment %zu: wraps the 32-bit address space", i);
  }
  if ((need & HWPROF_ELF_SECTIONS) && sections(e, elf, name, err, errlen)) return -1;
  if ((need & HWPROF_ELF_SYMBOLS) == HWPROF_ELF_SYMBOLS && symbols(e, elf, name, err, errlen)) return -1;
  if ((need & HWPROF_ELF_RELOCATABLE) == HWPROF_ELF_RELOCATABLE && relocations(e, elf, name, err, errlen)) return -1;
  elf_end(elf);
  return 0;
}

int hwprof_elf_parse(hwprof_elf_t *e, const uint8_t *buf, size_t len, const char *name, unsigned need, char *err,
                     size_t errlen) {
  Elf *elf = NULL;
  memset(e, 0, sizeof *e);
  if (buf == NULL) FAIL("no contents");
  if ((e->file = malloc(len ? len : 1)) == NULL) FAIL("out of memory");
  memcpy(e->file, buf, len);
  e->len = len;
  return parse(e, name, need, err, errlen);
}

int hwprof_elf_read(hwprof_elf_t *e, const char *path, unsigned need, char *err, size_t errlen) {
  Elf *elf = NULL;
  const char *name = path;
  memset(e, 0, sizeof *e);
  FILE *f = fopen(path, "rb");
  if (f == NULL) FAIL("cannot open: %s", strerror(errno));
  long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  if (n >= 0) rewind(f);
  if (n < 0 || (e->file = malloc(n ? (size_t)n : 1)) == NULL || fread(e->file, 1, (size_t)n, f) != (size_t)n) {
    fclose(f);
    FAIL("cannot read");
  }
  fclose(f);
  e->len = (size_t)n;
  return parse(e, name, need, err, errlen);
}

void hwprof_elf_free(hwprof_elf_t *e) {
  free(e->file);
  free(e->ph);
  free(e->sec);
  free(e->sym);
  free(e->rel);
  memset(e, 0, sizeof *e);
}

uint8_t *hwprof_elf_bytes(const hwprof_elf_t *e, uint32_t addr, uint32_t n) {
  for (unsigned i = 0; i < e->nsec; i++) {
    const hwprof_elf_section_t *s = &e->sec[i];
    if (!(s->flags & HWPROF_ELF_SHF_ALLOC) || s->type == SHT_NOBITS || s->size < n) continue;
    if (addr >= s->addr && addr - s->addr <= s->size - n) return e->file + s->offset + (addr - s->addr);
  }
  return NULL;
}

unsigned hwprof_elf_reloc_lower_bound(const hwprof_elf_t *e, uint32_t addr) {
  return rv32_reloc_lower_bound(e->rel, e->nrel, addr);
}

int hwprof_elf_image(const hwprof_elf_t *e, hwprof_image_t *img, char *err, size_t errlen) {
  img->nseg = 0;
  img->entry = e->entry;
  for (unsigned i = 0; i < e->nph; i++) {
    const hwprof_elf_phdr_t *p = &e->ph[i];
    if (p->type != HWPROF_ELF_PT_LOAD || p->filesz == 0) continue;
    if (img->nseg == HWPROF_IMAGE_MAX_SEGMENTS) {
      if (err && errlen) snprintf(err, errlen, "more than %u loadable segments", (unsigned)HWPROF_IMAGE_MAX_SEGMENTS);
      img->nseg = 0;
      return -1;
    }
    img->seg[img->nseg++] = (hwprof_segment_t){p->vaddr, p->filesz, e->file + p->offset, (p->flags & PF_X) != 0};
  }
  if (img->nseg == 0) {
    if (err && errlen) snprintf(err, errlen, "no loadable segment with contents");
    return -1;
  }
  return 0;
}
