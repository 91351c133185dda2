/* RV32IM instruction-set simulator; see rv32.h. */
#include "rv32.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/retire_fields.h"
#include "hwprof_elf.h"

enum {
  CAUSE_FETCH_MISALIGNED = 0,
  CAUSE_FETCH_FAULT = 1,
  CAUSE_ILLEGAL = 2,
  CAUSE_BREAKPOINT = 3,
  CAUSE_LOAD_MISALIGNED = 4,
  CAUSE_LOAD_FAULT = 5,
  CAUSE_STORE_MISALIGNED = 6,
  CAUSE_STORE_FAULT = 7,
  CAUSE_ECALL_M = 11,
};
#define CAUSE_IRQ_EXT_M (UINT32_C(0x80000000) | 11u)
#define CAUSE_IRQ_TIMER_M (UINT32_C(0x80000000) | 7u)
#define MSTATUS_MIE (1u << 3)
#define MSTATUS_MPIE (1u << 7)
#define MSTATUS_MPP (3u << 11)
#define MIE_MEIE (1u << 11)
#define MIE_MTIE (1u << 7)

int rv_init(rv_cpu_t *cpu, uint32_t ram_size) {
  memset(cpu, 0, sizeof *cpu);
  cpu->ram = calloc(ram_size, 1);
  if (cpu->ram == NULL) {
    snprintf(cpu->error, sizeof cpu->error, "cannot allocate %u bytes of RAM", (unsigned)ram_size);
    return -1;
  }
  cpu->ram_size = ram_size;
  cpu->shadow = calloc(ram_size / 4u, sizeof(uint32_t));
  if (cpu->shadow == NULL) {
    snprintf(cpu->error, sizeof cpu->error, "cannot allocate the shadow words");
    return -1;
  }
  cpu->mstatus = MSTATUS_MPP;
  cpu->mtimecmp = UINT64_MAX; /* no timer interrupt until software sets one */
  cpu->console = stdout;
  return 0;
}

void rv_free(rv_cpu_t *cpu) {
  for (unsigned i = 0; i < RV_MAX_OUT_FILES; i++)
    if (cpu->out_file[i]) {
      fclose(cpu->out_file[i]);
      cpu->out_file[i] = NULL;
    }
  free(cpu->ram);
  free(cpu->shadow);
  cpu->ram = NULL;
  cpu->shadow = NULL;
}

/* ---------------------------------------------------------------- memory */
static bool in_ram(const rv_cpu_t *c, uint32_t addr, uint32_t len) {
  return addr >= RV_RAM_BASE && addr - RV_RAM_BASE <= c->ram_size - len;
}
static bool in_shadow(const rv_cpu_t *c, uint32_t addr, uint32_t len) {
  return addr >= RV_SHADOW_BASE && addr - RV_SHADOW_BASE <= c->ram_size - len;
}
static bool in_mmio(const rv_cpu_t *c, uint32_t addr) {
  return c->mmio.size && addr >= c->mmio.base && addr - c->mmio.base < c->mmio.size;
}

/* the machine timer (docs/cpu-model.md): mtime is instret; mtimecmp is software's. A word access at
 * addr (aligned): false when addr is not the timer's; mtime ignores writes */
static bool timer_access(rv_cpu_t *c, uint32_t addr, bool write, uint32_t *v) {
  uint64_t *t;
  if (addr - HWPROF_PLAT_MTIMECMP < 8u) t = &c->mtimecmp;
  else if (addr - HWPROF_PLAT_MTIME < 8u) t = &c->instret;
  else return false;
  const unsigned sh = (addr & 4u) ? 32u : 0u;
  if (!write) *v = (uint32_t)(*t >> sh);
  else if (t == &c->mtimecmp) *t = (*t & ~(UINT64_C(0xffffffff) << sh)) | (uint64_t)*v << sh;
  return true;
}

bool rv_timer_access(rv_cpu_t *cpu, uint32_t addr, bool write, uint32_t *v) {
  return (addr & 3u) == 0 && timer_access(cpu, addr, write, v);
}

/* little-endian bytes of RAM, as the compiler reads them in one access on a little-endian host */
static inline uint32_t le_bytes(const uint8_t *p, unsigned len) {
  switch (len) {
    case 1: return p[0];
    case 2: return (uint32_t)p[0] | (uint32_t)p[1] << 8;
    default: return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  }
}
static inline void put_le_bytes(uint8_t *p, unsigned len, uint32_t v) {
  switch (len) {
    case 1: p[0] = (uint8_t)v; break;
    case 2:
      p[0] = (uint8_t)v;
      p[1] = (uint8_t)(v >> 8);
      break;
    default:
      p[0] = (uint8_t)v;
      p[1] = (uint8_t)(v >> 8);
      p[2] = (uint8_t)(v >> 16);
      p[3] = (uint8_t)(v >> 24);
      break;
  }
}

static bool load(rv_cpu_t *c, uint32_t addr, unsigned len, uint32_t *v) {
  if (in_ram(c, addr, len)) {
    *v = le_bytes(c->ram + (addr - RV_RAM_BASE), len);
    return true;
  }
  if (in_shadow(c, addr, 4) && len == 4) {
    *v = c->shadow[(addr - RV_SHADOW_BASE) / 4u];
    return true;
  }
  if (in_mmio(c, addr) && len == 4) {
    *v = c->mmio.read32(c->mmio.ctx, addr - c->mmio.base);
    return true;
  }
  return len == 4 && (addr & 3u) == 0 && timer_access(c, addr, false, v); /* after RAM: off the common path */
}

static bool store(rv_cpu_t *c, uint32_t addr, unsigned len, uint32_t v) {
  if (in_ram(c, addr, len)) {
    put_le_bytes(c->ram + (addr - RV_RAM_BASE), len, v);
    return true;
  }
  if (in_shadow(c, addr, 4) && len == 4) {
    c->shadow[(addr - RV_SHADOW_BASE) / 4u] = v;
    return true;
  }
  if (in_mmio(c, addr) && len == 4) {
    c->mmio.write32(c->mmio.ctx, addr - c->mmio.base, v);
    return true;
  }
  return len == 4 && (addr & 3u) == 0 && timer_access(c, addr, true, &v);
}

/* ---------------------------------------------------------------- ELF loading */
int rv_load_elf(rv_cpu_t *cpu, const char *path) {
  hwprof_elf_t e;
  if (hwprof_elf_read(&e, path, 0, cpu->error, sizeof cpu->error) != 0) return -1;
#define ELF_FAIL(...)                                                   \
  do {                                                                  \
    int n_ = snprintf(cpu->error, sizeof cpu->error, "%s: ", path);     \
    if (n_ > 0 && (size_t)n_ < sizeof cpu->error)                       \
      snprintf(cpu->error + n_, sizeof cpu->error - (size_t)n_, __VA_ARGS__); \
    hwprof_elf_free(&e);                                                \
    return -1;                                                          \
  } while (0)
  unsigned loaded = 0;
  for (unsigned i = 0; i < e.nph; i++) {
    const hwprof_elf_phdr_t *ph = &e.ph[i];
    if (ph->type != HWPROF_ELF_PT_LOAD) continue; /* the reader checked sizes and offsets */
    const uint8_t *src = e.file + ph->offset;
    uint32_t paddr = ph->paddr, filesz = ph->filesz, memsz = ph->memsz;
    if (memsz && in_shadow(cpu, paddr, memsz)) { /* shadow words, from the instrumenter */
      if ((paddr | memsz) & 3u) ELF_FAIL("segment %u: shadow words must be word aligned", i);
      uint32_t *dst = cpu->shadow + (paddr - RV_SHADOW_BASE) / 4u;
      memset(dst, 0, memsz);
      for (uint32_t k = 0; k + 4u <= filesz; k += 4u)
        dst[k / 4u] = (uint32_t)src[k] | (uint32_t)src[k + 1] << 8 | (uint32_t)src[k + 2] << 16 |
                      (uint32_t)src[k + 3] << 24;
      continue;
    }
    if (memsz && !in_ram(cpu, paddr, memsz))
      ELF_FAIL("segment %u [0x%08x, +0x%x) lies outside RAM [0x%08x, +0x%x) and the shadow window", i,
               (unsigned)paddr, (unsigned)memsz, (unsigned)RV_RAM_BASE, (unsigned)cpu->ram_size);
    memcpy(cpu->ram + (paddr - RV_RAM_BASE), src, filesz);
    memset(cpu->ram + (paddr - RV_RAM_BASE) + filesz, 0, memsz - filesz);
    loaded++;
  }
  if (loaded == 0) ELF_FAIL("no loadable segment");
  cpu->pc = e.entry;
  hwprof_elf_free(&e);
  return 0;
#undef ELF_FAIL
}

/* ---------------------------------------------------------------- traps */
static void trap(rv_cpu_t *c, uint32_t cause, uint32_t tval, uint32_t epc) {
  c->mepc = epc;
  c->mcause = cause;
  c->mtval = tval;
  uint32_t mie = c->mstatus & MSTATUS_MIE;
  c->mstatus = (c->mstatus & ~(MSTATUS_MIE | MSTATUS_MPIE)) | (mie ? MSTATUS_MPIE : 0) | MSTATUS_MPP;
  c->trap_depth++;
  uint32_t base = c->mtvec & ~3u;
  c->pc = ((c->mtvec & 3u) == 1u && (cause & 0x80000000u)) ? base + 4u * (cause & 0x7fffffffu) : base;
}

static const char *cause_name(uint32_t cause) {
  switch (cause) {
    case CAUSE_FETCH_MISALIGNED: return "misaligned instruction fetch";
    case CAUSE_FETCH_FAULT: return "instruction fetch outside memory";
    case CAUSE_ILLEGAL: return "illegal instruction";
    case CAUSE_BREAKPOINT: return "breakpoint";
    case CAUSE_LOAD_MISALIGNED: return "misaligned load";
    case CAUSE_LOAD_FAULT: return "load outside memory";
    case CAUSE_STORE_MISALIGNED: return "misaligned store";
    case CAUSE_STORE_FAULT: return "store outside memory";
    case CAUSE_ECALL_M: return "ecall";
    default: return "exception";
  }
}

/* A synchronous exception; with no handler installed the program has run away: stop with an error. */
static rv_status_t exception(rv_cpu_t *c, uint32_t cause, uint32_t tval, hwprof_retire_ev_t *ev) {
  if (c->mtvec == 0) {
    snprintf(c->error, sizeof c->error, "%s at pc 0x%08x (mtval 0x%08x) and no trap handler (mtvec = 0)",
             cause_name(cause), (unsigned)c->pc, (unsigned)tval);
    return RV_FAILED;
  }
  uint32_t pc = c->pc;
  ev->trap = c->trap_depth ? HWPROF_TRAP_HANDLER : HWPROF_TRAP_ENTRY;
  trap(c, cause, tval, pc);
  /* ecall and ebreak retire; a faulting instruction does not, but the discontinuity is reported
     as an indirect jump (trap ENTRY) so that trace hardware sees the trap entry */
  ev->valid = true;
  ev->pc = pc;
  ev->next_pc = c->pc;
  ev->kind = HWPROF_KIND_IJUMP;
  ev->taken = true;
  return RV_RUNNING;
}

/* ---------------------------------------------------------------- CSRs */
static bool csr_read(rv_cpu_t *c, uint32_t n, uint32_t *v) {
  switch (n) {
    case 0x300: *v = c->mstatus; return true;
    case 0x301: *v = 0x40001100u; return true; /* misa: RV32, I, M */
    case 0x304: *v = c->mie; return true;
    case 0x305: *v = c->mtvec; return true;
    case 0x340: *v = c->mscratch; return true;
    case 0x341: *v = c->mepc; return true;
    case 0x342: *v = c->mcause; return true;
    case 0x343: *v = c->mtval; return true;
    case 0x344: *v = (c->irq_line ? MIE_MEIE : 0) | (c->instret >= c->mtimecmp ? MIE_MTIE : 0); return true; /* mip */
    case 0xf11: case 0xf12: case 0xf13: case 0xf14: *v = 0; return true; /* ids, hart 0 */
    case 0xb00: case 0xc00: case 0xc01: *v = (uint32_t)c->cycle; return true;
    case 0xb80: case 0xc80: case 0xc81: *v = (uint32_t)(c->cycle >> 32); return true;
    case 0xb02: case 0xc02: *v = (uint32_t)c->instret; return true;
    case 0xb82: case 0xc82: *v = (uint32_t)(c->instret >> 32); return true;
    default: return false;
  }
}

static bool csr_write(rv_cpu_t *c, uint32_t n, uint32_t v) {
  switch (n) {
    case 0x300: c->mstatus = (v & (MSTATUS_MIE | MSTATUS_MPIE)) | MSTATUS_MPP; return true;
    case 0x301: return true; /* misa: writes ignored */
    case 0x304: c->mie = v & (MIE_MEIE | MIE_MTIE); return true;
    case 0x305: c->mtvec = v & ~2u; return true;
    case 0x340: c->mscratch = v; return true;
    case 0x341: c->mepc = v & ~3u; return true;
    case 0x342: c->mcause = v; return true;
    case 0x343: c->mtval = v; return true;
    case 0x344: return true; /* mip.MEIP follows the line */
    case 0xb00: c->cycle = (c->cycle & ~UINT64_C(0xffffffff)) | v; return true;
    case 0xb80: c->cycle = (c->cycle & UINT64_C(0xffffffff)) | (uint64_t)v << 32; return true;
    case 0xb02: c->instret = (c->instret & ~UINT64_C(0xffffffff)) | v; return true;
    case 0xb82: c->instret = (c->instret & UINT64_C(0xffffffff)) | (uint64_t)v << 32; return true;
    default: return false;
  }
}

/* A CSR instruction (csrrw/s/c and their immediate forms; a its rs1 value): false when it is
 * illegal (an unknown CSR, a write to a read-only one), else *old is the CSR's value before it. */
static bool csr_exec(rv_cpu_t *c, uint32_t insn, uint32_t a, uint32_t *old) {
  const uint32_t f3 = rv32_funct3(insn), rs1 = rv32_rs1(insn), csr = insn >> 20, src = (f3 & 4u) ? rs1 : a;
  if (f3 == 0 || f3 == 4 || !csr_read(c, csr, old)) return false;
  const uint32_t val = (f3 & 3u) == 1 ? src : (f3 & 3u) == 2 ? *old | src : *old & ~src;
  const bool writes = (f3 & 3u) == 1 || rs1 != 0;
  return !writes || ((csr >> 10) != 3u && csr_write(c, csr, val));
}

bool rv_csr(rv_cpu_t *cpu, uint32_t insn, uint32_t rs1_value, uint32_t *old) {
  return csr_exec(cpu, insn, rs1_value, old);
}

/* ---------------------------------------------------------------- semihosting */
enum {
  SYS_OPEN = 0x01, SYS_CLOSE = 0x02, SYS_WRITEC = 0x03, SYS_WRITE0 = 0x04, SYS_WRITE = 0x05, SYS_READ = 0x06,
  SYS_READC = 0x07, SYS_ISERROR = 0x08, SYS_ISTTY = 0x09, SYS_SEEK = 0x0a, SYS_FLEN = 0x0c, SYS_CLOCK = 0x10,
  SYS_TIME = 0x11, SYS_ERRNO = 0x13, SYS_GET_CMDLINE = 0x15, SYS_HEAPINFO = 0x16, SYS_EXIT = 0x18,
  SYS_EXIT_EXTENDED = 0x20, SYS_ELAPSED = 0x30, SYS_TICKFREQ = 0x31,
};
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u

static uint32_t arg(rv_cpu_t *c, uint32_t block, unsigned i) {
  uint32_t v = 0;
  (void)load(c, block + 4u * i, 4, &v);
  return v;
}

/* The ":semihosting-features" pseudo-file: magic "SHFB" and one byte of features (extended exit,
 * separate stdout and stderr), as QEMU provides it; picolibc reads it to choose how to exit. */
static const uint8_t kFeatures[5] = {'S', 'H', 'F', 'B', 0x03};
enum { FH_STDIN = 0, FH_STDOUT = 1, FH_STDERR = 2, FH_FEATURES = 3, FH_FILE0 = 4 };

/* A write-only host file (c->out_dir set): the program's path loses its directories and the file is
 * created in out_dir (the gcov runtime's .gcda files). Returns the handle or UINT32_MAX. */
static uint32_t open_out_file(rv_cpu_t *c, uint32_t name, uint32_t len) {
  char path[512], base[128];
  size_t n = 0;
  for (uint32_t i = 0, ch = 0; i < len; i++) {
    if (!load(c, name + i, 1, &ch)) return UINT32_MAX;
    if (ch == '/') n = 0;
    else if (n + 1 < sizeof base) base[n++] = (char)ch;
    else return UINT32_MAX;
  }
  base[n] = 0;
  if (n == 0 || !strcmp(base, ".") || !strcmp(base, "..")) return UINT32_MAX;
  for (unsigned i = 0; i < RV_MAX_OUT_FILES; i++) {
    if (c->out_file[i]) continue;
    snprintf(path, sizeof path, "%s/%s", c->out_dir, base);
    c->out_file[i] = fopen(path, "wb");
    return c->out_file[i] ? FH_FILE0 + i : UINT32_MAX;
  }
  return UINT32_MAX;
}

static FILE *out_file(rv_cpu_t *c, uint32_t fh) {
  return fh >= FH_FILE0 && fh - FH_FILE0 < RV_MAX_OUT_FILES ? c->out_file[fh - FH_FILE0] : NULL;
}

static bool name_is(rv_cpu_t *c, uint32_t name, uint32_t len, const char *want) {
  if (len != strlen(want)) return false;
  for (uint32_t i = 0, ch = 0; i < len; i++)
    if (!load(c, name + i, 1, &ch) || ch != (uint8_t)want[i]) return false;
  return true;
}

/* Returns true if the program exited. */
static bool semihost(rv_cpu_t *c) {
  uint32_t op = c->x[10], a = c->x[11];
  uint32_t ret = 0;
  switch (op) {
    case SYS_OPEN: { /* the console ":tt", the features file, and write-only files in out_dir */
      uint32_t name = arg(c, a, 0), mode = arg(c, a, 1), len = arg(c, a, 2);
      if (name_is(c, name, len, ":tt")) {
        ret = mode < 4 ? FH_STDIN : mode < 8 ? FH_STDOUT : FH_STDERR;
      } else if (name_is(c, name, len, ":semihosting-features") && mode < 4) {
        c->features_pos = 0;
        ret = FH_FEATURES;
      } else if (c->out_dir && mode >= 4 && mode < 8) { /* "w", "wb", "w+", "w+b" */
        ret = open_out_file(c, name, len);
      } else {
        ret = UINT32_MAX;
      }
      break;
    }
    case SYS_WRITEC: {
      uint32_t ch = 0;
      (void)load(c, a, 1, &ch);
      fputc((int)ch, c->console);
      break;
    }
    case SYS_WRITE0:
      for (uint32_t p = a, ch = 1; load(c, p, 1, &ch) && ch; p++) fputc((int)ch, c->console);
      break;
    case SYS_WRITE: {
      uint32_t fh = arg(c, a, 0), buf = arg(c, a, 1), len = arg(c, a, 2);
      FILE *f = out_file(c, fh);
      if (f) {
        uint32_t i = 0, ch = 0;
        for (; i < len && load(c, buf + i, 1, &ch) && fputc((int)ch, f) != EOF; i++) {
        }
        ret = len - i;
        break;
      }
      if (fh != FH_STDOUT && fh != FH_STDERR) {
        ret = len;
        break;
      }
      for (uint32_t i = 0, ch = 0; i < len && load(c, buf + i, 1, &ch); i++) fputc((int)ch, c->console);
      ret = 0; /* bytes not written */
      break;
    }
    case SYS_READ: {
      uint32_t fh = arg(c, a, 0), buf = arg(c, a, 1), len = arg(c, a, 2), n = 0;
      if (fh == FH_FEATURES) {
        for (; n < len && c->features_pos < sizeof kFeatures; n++, c->features_pos++)
          (void)store(c, buf + n, 1, kFeatures[c->features_pos]);
      }
      ret = len - n; /* bytes not read */
      break;
    }
    case SYS_READC: ret = UINT32_MAX; break;
    case SYS_ISTTY: ret = arg(c, a, 0) < FH_FEATURES; break;
    case SYS_SEEK:
      if (arg(c, a, 0) == FH_FEATURES) c->features_pos = arg(c, a, 1);
      ret = 0;
      break;
    case SYS_FLEN: ret = arg(c, a, 0) == FH_FEATURES ? (uint32_t)sizeof kFeatures : UINT32_MAX; break;
    case SYS_CLOSE: {
      FILE *f = out_file(c, arg(c, a, 0));
      if (f) {
        ret = fclose(f) == 0 ? 0 : UINT32_MAX;
        c->out_file[arg(c, a, 0) - FH_FILE0] = NULL;
      }
      break;
    }
    case SYS_ISERROR: case SYS_ERRNO: case SYS_TIME: ret = 0; break;
    case SYS_CLOCK: ret = (uint32_t)(c->cycle / 100000u); break; /* centiseconds at 10 MHz, deterministic */
    case SYS_ELAPSED:
      (void)store(c, a, 4, (uint32_t)c->cycle);
      (void)store(c, a + 4, 4, (uint32_t)(c->cycle >> 32));
      break;
    case SYS_TICKFREQ: ret = 10000000u; break;
    case SYS_GET_CMDLINE: {
      uint32_t buf = arg(c, a, 0), cap = arg(c, a, 1);
      const char *cl = c->cmdline ? c->cmdline : "";
      uint32_t n = (uint32_t)strlen(cl);
      if (n + 1u > cap) {
        ret = UINT32_MAX;
        break;
      }
      for (uint32_t i = 0; i <= n; i++) (void)store(c, buf + i, 1, (uint8_t)cl[i]);
      (void)store(c, a + 4, 4, n);
      break;
    }
    case SYS_HEAPINFO: { /* zeros: let the C library use its linker symbols */
      uint32_t blk = arg(c, a, 0);
      for (unsigned i = 0; i < 4; i++) (void)store(c, blk + 4u * i, 4, 0);
      break;
    }
    case SYS_EXIT:
      c->exit_code = a == ADP_STOPPED_APPLICATION_EXIT ? 0 : 1;
      return true;
    case SYS_EXIT_EXTENDED:
      c->exit_code = arg(c, a, 0) == ADP_STOPPED_APPLICATION_EXIT ? (int)arg(c, a, 1) : 1;
      return true;
    default: ret = UINT32_MAX; break;
  }
  c->x[10] = ret;
  return false;
}

bool rv_semihost(rv_cpu_t *cpu) { return semihost(cpu); }

static bool is_semihost_call(rv_cpu_t *c) {
  uint32_t before = 0, after = 0;
  return load(c, c->pc - 4u, 4, &before) && load(c, c->pc + 4u, 4, &after) && before == RV32_INSN_SEMIHOST_PRE &&
         after == RV32_INSN_SEMIHOST_POST;
}

/* ---------------------------------------------------------------- execution */
/* immediates as the unsigned addends of the datapath */
static uint32_t imm_i(uint32_t i) { return (uint32_t)rv32_imm_i(i); }
static uint32_t imm_s(uint32_t i) { return (uint32_t)rv32_imm_s(i); }
static uint32_t imm_b(uint32_t i) { return (uint32_t)rv32_imm_b(i); }
static uint32_t imm_j(uint32_t i) { return (uint32_t)rv32_imm_j(i); }

static uint32_t mulh_ss(int32_t a, int32_t b) { return (uint32_t)(((int64_t)a * (int64_t)b) >> 32); }
static uint32_t mulh_su(int32_t a, uint32_t b) { return (uint32_t)(((int64_t)a * (int64_t)(uint64_t)b) >> 32); }
static uint32_t mulh_uu(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }

rv_status_t rv_step(rv_cpu_t *c, hwprof_retire_ev_t *ev) {
  memset(ev, 0, sizeof *ev);
  c->cycle++;
  if (c->irq_line && (c->mstatus & MSTATUS_MIE) && (c->mie & MIE_MEIE)) {
    trap(c, CAUSE_IRQ_EXT_M, 0, c->pc);
    return RV_RUNNING; /* no instruction retired */
  }
  if (c->instret >= c->mtimecmp && (c->mstatus & MSTATUS_MIE) && (c->mie & MIE_MTIE)) {
    trap(c, CAUSE_IRQ_TIMER_M, 0, c->pc); /* below the external interrupt, as the privileged spec orders them */
    return RV_RUNNING;
  }
  uint32_t pc = c->pc, insn = 0;
  ev->trap = c->trap_depth ? HWPROF_TRAP_HANDLER : HWPROF_TRAP_NONE; /* mret included: it is the handler's */
  if (pc & 3u) return exception(c, CAUSE_FETCH_MISALIGNED, pc, ev);
  if (!in_ram(c, pc, 4)) return exception(c, CAUSE_FETCH_FAULT, pc, ev);
  insn = le_bytes(c->ram + (pc - RV_RAM_BASE), 4);

  uint32_t rd = rv32_rd(insn), rs1 = rv32_rs1(insn), rs2 = rv32_rs2(insn);
  uint32_t f3 = rv32_funct3(insn), f7 = rv32_funct7(insn);
  uint32_t a = c->x[rs1], b = c->x[rs2];
  uint32_t next = pc + 4u, result = 0;
  bool write_rd = false;
  ev->valid = true;
  ev->pc = pc;
  ev->insn = insn;
  ev->kind = HWPROF_KIND_OTHER;

  switch (rv32_opcode(insn)) {
    case RV32_OP_LUI: result = rv32_imm_u(insn); write_rd = true; break;          /* LUI */
    case RV32_OP_AUIPC: result = pc + rv32_imm_u(insn); write_rd = true; break;   /* AUIPC */
    case RV32_OP_JAL:                                                                 /* JAL */
      result = pc + 4u;
      write_rd = true;
      next = pc + imm_j(insn);
      ev->kind = HWPROF_KIND_JUMP;
      ev->taken = true;
      ev->is_call = rv32_is_link_reg(rd);
      break;
    case RV32_OP_JALR:                                                                 /* JALR */
      if (f3 != 0) return exception(c, CAUSE_ILLEGAL, insn, ev);
      result = pc + 4u;
      write_rd = true;
      next = (a + imm_i(insn)) & ~1u;
      ev->kind = HWPROF_KIND_IJUMP;
      ev->taken = true;
      ev->is_call = rv32_is_link_reg(rd);
      ev->is_ret = rd == 0u && rv32_is_link_reg(rs1);
      break;
    case RV32_OP_BRANCH: {                                                               /* branches */
      bool t;
      switch (f3) {
        case 0: t = a == b; break;
        case 1: t = a != b; break;
        case 4: t = (int32_t)a < (int32_t)b; break;
        case 5: t = (int32_t)a >= (int32_t)b; break;
        case 6: t = a < b; break;
        case 7: t = a >= b; break;
        default: return exception(c, CAUSE_ILLEGAL, insn, ev);
      }
      ev->kind = HWPROF_KIND_BRANCH;
      ev->taken = t;
      if (t) next = pc + imm_b(insn);
      break;
    }
    case RV32_OP_LOAD: {                                                               /* loads */
      uint32_t addr = a + imm_i(insn), v = 0;
      unsigned len = (f3 & 3u) == 0 ? 1u : (f3 & 3u) == 1 ? 2u : 4u;
      if (f3 == 3 || f3 > 5) return exception(c, CAUSE_ILLEGAL, insn, ev);
      if (addr & (len - 1u)) return exception(c, CAUSE_LOAD_MISALIGNED, addr, ev);
      if (!load(c, addr, len, &v)) return exception(c, CAUSE_LOAD_FAULT, addr, ev);
      if (f3 == 0) v = (uint32_t)(int32_t)(int8_t)v;
      if (f3 == 1) v = (uint32_t)(int32_t)(int16_t)v;
      result = v;
      write_rd = true;
      ev->kind = HWPROF_KIND_LOAD;
      ev->addr = addr;
      ev->value = v;
      break;
    }
    case RV32_OP_STORE: {                                                               /* stores */
      uint32_t addr = a + imm_s(insn);
      unsigned len = f3 == 0 ? 1u : f3 == 1 ? 2u : 4u;
      if (f3 > 2) return exception(c, CAUSE_ILLEGAL, insn, ev);
      if (addr & (len - 1u)) return exception(c, CAUSE_STORE_MISALIGNED, addr, ev);
      if (!store(c, addr, len, b)) return exception(c, CAUSE_STORE_FAULT, addr, ev);
      ev->kind = HWPROF_KIND_STORE;
      ev->addr = addr;
      ev->value = b;
      break;
    }
    case RV32_OP_IMM: {                                                               /* OP-IMM */
      uint32_t imm = imm_i(insn), sh = rs2;
      switch (f3) {
        case 0: result = a + imm; break;
        case 2: result = (int32_t)a < (int32_t)imm; break;
        case 3: result = a < imm; break;
        case 4: result = a ^ imm; break;
        case 6: result = a | imm; break;
        case 7: result = a & imm; break;
        case 1:
          if (f7 != 0) return exception(c, CAUSE_ILLEGAL, insn, ev);
          result = a << sh;
          break;
        default: /* 5 */
          if (f7 == 0) result = a >> sh;
          else if (f7 == 0x20) result = (uint32_t)((int32_t)a >> sh);
          else return exception(c, CAUSE_ILLEGAL, insn, ev);
          break;
      }
      write_rd = true;
      break;
    }
    case RV32_OP_REG:                                                                 /* OP */
      if (f7 == 1) {
        switch (f3) {
          case 0: result = a * b; break;
          case 1: result = mulh_ss((int32_t)a, (int32_t)b); break;
          case 2: result = mulh_su((int32_t)a, b); break;
          case 3: result = mulh_uu(a, b); break;
          case 4:
            result = b == 0 ? UINT32_MAX
                   : (a == 0x80000000u && b == UINT32_MAX) ? a
                   : (uint32_t)((int32_t)a / (int32_t)b);
            break;
          case 5: result = b == 0 ? UINT32_MAX : a / b; break;
          case 6:
            result = b == 0 ? a : (a == 0x80000000u && b == UINT32_MAX) ? 0 : (uint32_t)((int32_t)a % (int32_t)b);
            break;
          default: result = b == 0 ? a : a % b; break;
        }
      } else if (f7 == 0 || (f7 == 0x20 && (f3 == 0 || f3 == 5))) {
        switch (f3) {
          case 0: result = f7 ? a - b : a + b; break;
          case 1: result = a << (b & 31u); break;
          case 2: result = (int32_t)a < (int32_t)b; break;
          case 3: result = a < b; break;
          case 4: result = a ^ b; break;
          case 5: result = f7 ? (uint32_t)((int32_t)a >> (b & 31u)) : a >> (b & 31u); break;
          case 6: result = a | b; break;
          default: result = a & b; break;
        }
      } else {
        return exception(c, CAUSE_ILLEGAL, insn, ev);
      }
      write_rd = true;
      break;
    case RV32_OP_MISC_MEM: break;                                                          /* FENCE, FENCE.I */
    case RV32_OP_PROF:                                                    /* prof.* */
      if (f3 > HWPROF_PROF_OP_PATH) return exception(c, CAUSE_ILLEGAL, insn, ev); /* funct3 7 */
      ev->kind = HWPROF_KIND_PROF;
      ev->op = (uint8_t)f3;
      /* rs1 = x0: the operand is the instruction's shadow word (inserted code needs no register) */
      ev->operand = (rs1 == 0u && f3 != HWPROF_PROF_OP_ID) ? c->shadow[(pc - RV_RAM_BASE) / 4u] : a;
      if (f3 == HWPROF_PROF_OP_ID) {
        ev->pid = (uint16_t)(insn >> 20);
        ev->ihint = rd & 1u;
        ev->bhint = (uint8_t)((rd >> 1) & 3u);
      }
      break;
    case RV32_OP_SYSTEM:                                                                 /* SYSTEM */
      if (f3 == 0) {
        if (insn == 0x00000073u) return exception(c, CAUSE_ECALL_M, 0, ev);
        if (insn == RV32_INSN_EBREAK) {
          if (is_semihost_call(c)) {
            if (semihost(c)) {
              c->instret++;
              ev->next_pc = pc + 4u;
              c->pc = pc + 4u;
              return RV_EXITED;
            }
            break;
          }
          return exception(c, CAUSE_BREAKPOINT, pc, ev);
        }
        if (insn == RV32_INSN_MRET) {                                             /* MRET */
          next = c->mepc;
          uint32_t mpie = c->mstatus & MSTATUS_MPIE;
          c->mstatus = (c->mstatus & ~MSTATUS_MIE) | (mpie ? MSTATUS_MIE : 0) | MSTATUS_MPIE | MSTATUS_MPP;
          if (c->trap_depth) c->trap_depth--;
          ev->kind = HWPROF_KIND_IJUMP;
          ev->taken = true;
          break;
        }
        if (insn == 0x10500073u) break;                                        /* WFI */
        return exception(c, CAUSE_ILLEGAL, insn, ev);
      } else {
        if (!csr_exec(c, insn, a, &result)) return exception(c, CAUSE_ILLEGAL, insn, ev);
        write_rd = true;
      }
      break;
    default:
      return exception(c, CAUSE_ILLEGAL, insn, ev);
  }
  if (write_rd && rd) c->x[rd] = result;
  /* a branch or jump carries the profiling bits of its shadow word, any other instruction those of a
   * carrier word */
  hwprof_ev_shadow_fields(ev, c->shadow[(pc - RV_RAM_BASE) / 4u]);
  c->pc = next;
  ev->next_pc = next;
  c->instret++;
  return RV_RUNNING;
}
