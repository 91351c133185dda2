/* ELF32 RISC-V executables with their section headers, symbols and relocations: what the
 * instrumenter needs to move code in a linked program. The program must be linked with
 * `-Wl,--emit-relocs` (the linker keeps every relocation it applied) and without linker relaxation
 * (`-Wl,--no-relax`, so each relocation still describes the instructions in the file). Host only. */
#ifndef HWPROF_INSTR_ELF_REL_H
#define HWPROF_INSTR_ELF_REL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Relocation types of the RISC-V psABI used by linked RV32 programs. */
enum {
  R_RISCV_NONE = 0,
  R_RISCV_32 = 1,
  R_RISCV_BRANCH = 16,
  R_RISCV_JAL = 17,
  R_RISCV_CALL = 18,
  R_RISCV_CALL_PLT = 19,
  R_RISCV_GOT_HI20 = 20,
  R_RISCV_PCREL_HI20 = 23,
  R_RISCV_PCREL_LO12_I = 24,
  R_RISCV_PCREL_LO12_S = 25,
  R_RISCV_HI20 = 26,
  R_RISCV_LO12_I = 27,
  R_RISCV_LO12_S = 28,
  R_RISCV_ADD32 = 35,
  R_RISCV_SUB32 = 39,
  R_RISCV_ALIGN = 43,
  R_RISCV_RELAX = 51,
};

typedef struct {
  char name[48];
  uint32_t type, flags, addr, offset, size, link, info, entsize;
} er_section_t;

#define ER_SHF_WRITE 1u
#define ER_SHF_ALLOC 2u
#define ER_SHF_EXEC 4u

typedef struct {
  const char *name; /* into the file's string table */
  uint32_t value, size;
  uint8_t type; /* 0 notype, 1 object, 2 func, 3 section, 4 file */
  uint8_t bind;
  uint16_t shndx;
} er_symbol_t;

typedef struct {
  uint32_t where;  /* address of the relocated field */
  uint32_t type;
  uint32_t target; /* S + A: the address the field refers to */
  uint32_t sym;    /* symbol index */
} er_reloc_t;

typedef struct {
  uint32_t type, offset, vaddr, paddr, filesz, memsz, flags, align;
} er_phdr_t;

typedef struct {
  uint8_t *file;
  size_t len;
  uint32_t entry;
  er_section_t *sec;
  unsigned nsec;
  er_symbol_t *sym;
  unsigned nsym;
  er_reloc_t *rel; /* relocations of allocated sections, sorted by address */
  unsigned nrel;
  er_phdr_t *ph;
  unsigned nph;
} er_elf_t;

/* Reads path. Returns 0, or -1 with a one-line reason naming the file in err. */
int er_load(er_elf_t *e, const char *path, char *err, size_t errlen);
void er_free(er_elf_t *e);
/* The bytes at addr in an allocated section with file contents (NULL if none covers [addr, +n)). */
uint8_t *er_bytes(const er_elf_t *e, uint32_t addr, uint32_t n);
/* Index of the first relocation at addr or above. */
unsigned er_reloc_lower_bound(const er_elf_t *e, uint32_t addr);

#endif /* HWPROF_INSTR_ELF_REL_H */
