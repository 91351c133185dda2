/* The one ELF reader of the host tools (the CPU model's loader, the trace check's program image,
 * the instrumenter), on elfutils' libelf: an ELF32 little-endian RISC-V executable with its program
 * headers and, when the caller needs them, its sections, symbols and relocations. Every malformed
 * input gets one line naming the file and the problem; nothing is returned half-read. Host only
 * (the firmware side keeps sw/include/hwprof_image.h, which this module fills). */
#ifndef HWPROF_ELF_H
#define HWPROF_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwprof_image.h"
#include "rv32_reloc.h"

#define HWPROF_ELF_SHF_WRITE 1u
#define HWPROF_ELF_SHF_ALLOC 2u
#define HWPROF_ELF_SHF_EXEC 4u
#define HWPROF_ELF_PT_LOAD 1u

typedef struct {
  char name[48];
  uint32_t type, flags, addr, offset, size, link, info, entsize;
} hwprof_elf_section_t;

typedef struct {
  const char *name; /* into the file's string table */
  uint32_t value, size;
  uint8_t type; /* 0 notype, 1 object, 2 func, 3 section, 4 file */
  uint8_t bind;
  uint16_t shndx;
} hwprof_elf_symbol_t;

typedef rv32_reloc_t hwprof_elf_reloc_t;

typedef struct {
  uint32_t type, offset, vaddr, paddr, filesz, memsz, flags, align;
} hwprof_elf_phdr_t;

typedef struct {
  uint8_t *file; /* the whole file */
  size_t len;
  uint32_t entry;
  hwprof_elf_phdr_t *ph; /* every program header; PT_LOAD contents lie inside the file */
  unsigned nph;
  hwprof_elf_section_t *sec; /* with HWPROF_ELF_SECTIONS */
  unsigned nsec;
  hwprof_elf_symbol_t *sym;
  unsigned nsym;
  hwprof_elf_reloc_t *rel; /* relocations of allocated sections, sorted by address */
  unsigned nrel;
} hwprof_elf_t;

/* What the caller needs beyond the program headers. */
enum {
  HWPROF_ELF_SECTIONS = 1u,       /* section headers and names */
  HWPROF_ELF_SYMBOLS = 5u,        /* sections and the symbol table */
  HWPROF_ELF_RELOCATABLE = 7u,    /* sections, the symbol table and relocations (-Wl,--emit-relocs) */
};

/* Reads path. Returns 0, or -1 with a one-line reason naming the file in err. */
int hwprof_elf_read(hwprof_elf_t *e, const char *path, unsigned need, char *err, size_t errlen);
/* The same from len bytes in memory (copied); name is used in messages. */
int hwprof_elf_parse(hwprof_elf_t *e, const uint8_t *buf, size_t len, const char *name, unsigned need, char *err,
                     size_t errlen);
void hwprof_elf_free(hwprof_elf_t *e);
/* The bytes at addr in an allocated section with file contents (NULL if none covers [addr, +n)). */
uint8_t *hwprof_elf_bytes(const hwprof_elf_t *e, uint32_t addr, uint32_t n);
/* Index of the first relocation at addr or above. */
unsigned hwprof_elf_reloc_lower_bound(const hwprof_elf_t *e, uint32_t addr);
/* The program image (loadable segments with contents) for trace reconstruction; it points into
 * e->file. Returns 0, or -1 with a reason in err. */
int hwprof_elf_image(const hwprof_elf_t *e, hwprof_image_t *img, char *err, size_t errlen);

#endif /* HWPROF_ELF_H */
