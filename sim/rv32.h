/* RV32IM instruction-set simulator: the processor that runs real compiled programs and feeds the
 * retire-event port (docs/architecture.md, "CPU model"). Machine mode only: traps (illegal
 * instruction, misaligned access, ecall, ebreak), an external interrupt line, a machine timer
 * (mtime = instret, mtimecmp: HWPROF_PLAT_MTIME*), mret; picolibc
 * semihosting (console output, exit); an MMIO window for devices; one retire event per retired
 * instruction, with load values.
 *
 * The profiling ISA extension (docs/architecture.md, docs/cpu-model.md): custom-1 prof.* instructions, and a shadow
 * word per instruction carrying a branch's pid and hints, which the loader fills from ELF segments
 * placed in the shadow window and firmware may patch with ordinary stores. */
#ifndef HWPROF_RV32_H
#define HWPROF_RV32_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ports.h" /* hwprof_retire_ev_t */

#include "rv32_isa.h" /* formats, and the platform constants of regs/encodings.json */

/* RAM, where programs are linked; the word at RV_SHADOW_BASE + (A - RV_RAM_BASE) holds the profiling
 * bits of the instruction at A (docs/cpu-model.md). */
#define RV_RAM_BASE HWPROF_PLAT_RAM_BASE
#define RV_SHADOW_BASE HWPROF_PLAT_SHADOW_BASE
/* custom-1: prof.<op> with funct3 = op (HWPROF_PROF_OP_*), operand x[rs1], or the instruction's own
 * shadow word when rs1 is x0 (so inserted code needs no register); prof.id carries its pid in
 * imm[11:0], its ihint in rd[0] and its bhint in rd[2:1] (rv32_isa.h). */

typedef struct rv_cpu rv_cpu_t;

#define RV_MAX_OUT_FILES 4u

/* A device window: accesses to [base, base + size) go to these callbacks (32-bit accesses only). */
typedef struct {
  uint32_t base;
  uint32_t size;
  uint32_t (*read32)(void *ctx, uint32_t offset);
  void (*write32)(void *ctx, uint32_t offset, uint32_t value);
  void *ctx;
} rv_mmio_t;

typedef enum {
  RV_RUNNING = 0, /* the instruction retired (or a trap was taken); keep stepping */
  RV_EXITED,      /* the program called the semihosting exit */
  RV_FAILED,      /* a simulator-level error: see rv_cpu_t.error */
} rv_status_t;

struct rv_cpu {
  uint32_t x[32];
  uint32_t pc;
  /* machine-mode CSRs */
  uint32_t mstatus, mie, mtvec, mepc, mcause, mtval, mscratch;
  bool irq_line; /* the external interrupt input (mip.MEIP) */
  unsigned trap_depth; /* traps taken and not yet returned from: events inside a handler say so (ev->trap) */
  uint64_t mtimecmp; /* the machine timer's compare register (HWPROF_PLAT_MTIMECMP); mtime is instret */
  uint64_t cycle, instret;
  /* memory */
  uint8_t *ram;
  uint32_t ram_size;
  uint32_t *shadow; /* ram_size / 4 shadow words */
  rv_mmio_t mmio;
  /* semihosting */
  FILE *console; /* where the program's stdout/stderr go */
  int exit_code;
  const char *cmdline; /* what SYS_GET_CMDLINE returns (QEMU: the program's path) */
  uint32_t features_pos; /* read position in the ":semihosting-features" pseudo-file */
  const char *out_dir;   /* NULL, or where files the program opens for writing are created */
  FILE *out_file[RV_MAX_OUT_FILES];
  /* a simulator-level error (bad ELF, access outside memory with no trap handler, ...) */
  char error[200];
};

/* ram_size bytes of RAM at RV_RAM_BASE. Returns 0, or -1 with cpu->error set. */
int rv_init(rv_cpu_t *cpu, uint32_t ram_size);
void rv_free(rv_cpu_t *cpu);
/* Load an ELF32 RISC-V executable: segments at their physical addresses, pc at the entry.
 * Returns 0, or -1 with a one-line reason naming the file in cpu->error. */
int rv_load_elf(rv_cpu_t *cpu, const char *path);
/* Execute one instruction (or take a pending interrupt). *ev describes the retired instruction
 * (ev->valid is false when none retired: an interrupt was taken). */
rv_status_t rv_step(rv_cpu_t *cpu, hwprof_retire_ev_t *ev);
/* The semihosting call in x10 (operation) and x11 (argument), made as an ebreak between the two
 * marker words makes it, for a core that runs the program itself (sim/pico: picorv32 cannot take
 * the ebreak): the result in x10; true when the program exits (its code in exit_code). */
bool rv_semihost(rv_cpu_t *cpu);
/* For such a core too: the CSR instruction insn executed on cpu's CSRs as rv_step executes it (rs1_value:
 * its rs1 register; cpu->irq_line, cycle and instret as the core has them): false when it is illegal,
 * else *old is what rd receives. And a word load (write false: into *v) or store (of *v) at the
 * machine timer's address addr: false when addr is not the timer's. */
bool rv_csr(rv_cpu_t *cpu, uint32_t insn, uint32_t rs1_value, uint32_t *old);
bool rv_timer_access(rv_cpu_t *cpu, uint32_t addr, bool write, uint32_t *v);
/* Whether a retired instruction redirected the fetch: a taken branch, a jump, a trap entry or return. */
static inline bool rv_taken_transfer(const hwprof_retire_ev_t *ev) {
  return ev->valid && ((ev->kind == HWPROF_KIND_BRANCH && ev->taken) || ev->kind == HWPROF_KIND_JUMP ||
                       ev->kind == HWPROF_KIND_IJUMP);
}

#endif /* HWPROF_RV32_H */
