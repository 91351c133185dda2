/* hwprof-sim: run an RV32IM ELF program on the CPU model (sim/rv32.c).
 *
 * Today it runs the processor alone (the program's console output goes to stdout, the report to
 * stderr) and can write the retired-PC stream for the QEMU comparison; attaching hwprof_top (RTL,
 * C model or both) is the next step of issue 5. Exit status: the program's exit code; 2 for bad
 * arguments or a bad ELF file; 3 when the program runs away (instruction limit, a trap with no
 * handler). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rv32.h"

static void usage(FILE *to) {
  fprintf(to,
          "usage: hwprof-sim [options] PROGRAM.elf\n"
          "Runs an RV32IM ELF executable (picolibc, --oslib=semihost, linked at 0x80000000) on the CPU model.\n\n"
          "  --max-insns=N   stop with an error after N instructions (default 200000000)\n"
          "  --ram=BYTES     RAM size at 0x80000000 (default 16777216)\n"
          "  --pcs=FILE      write every retired instruction's address, one hex number per line\n"
          "  --quiet         no report at the end\n"
          "  --help          this text\n"
          "Exit status: the program's; 2 bad arguments or ELF file; 3 the program ran away.\n");
}

static int parse_u64(const char *s, uint64_t *out) {
  char *end = NULL;
  errno = 0;
  if (*s == '\0' || *s == '-') return -1;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || *end) return -1;
  *out = v;
  return 0;
}

int main(int argc, char **argv) {
  uint64_t max_insns = 200000000, ram = 16u << 20;
  const char *pcs_path = NULL, *elf = NULL;
  int quiet = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strncmp(a, "--max-insns=", 12)) {
      if (parse_u64(a + 12, &max_insns) || max_insns == 0) {
        fprintf(stderr, "hwprof-sim: error: argument '%s': expects a positive integer\n", a);
        return 2;
      }
    } else if (!strncmp(a, "--ram=", 6)) {
      if (parse_u64(a + 6, &ram) || ram < 4096 || ram > (UINT64_C(1) << 31)) {
        fprintf(stderr, "hwprof-sim: error: argument '%s': expects a size between 4096 and 2^31\n", a);
        return 2;
      }
    } else if (!strncmp(a, "--pcs=", 6) && a[6]) {
      pcs_path = a + 6;
    } else if (!strcmp(a, "--quiet")) {
      quiet = 1;
    } else if (a[0] == '-') {
      fprintf(stderr, "hwprof-sim: error: unknown option '%s' (see --help)\n", a);
      return 2;
    } else if (elf) {
      fprintf(stderr, "hwprof-sim: error: more than one program given ('%s', '%s')\n", elf, a);
      return 2;
    } else {
      elf = a;
    }
  }
  if (elf == NULL) {
    fprintf(stderr, "hwprof-sim: error: no program given (see --help)\n");
    return 2;
  }

  rv_cpu_t cpu;
  if (rv_init(&cpu, (uint32_t)ram) != 0 || rv_load_elf(&cpu, elf) != 0) {
    fprintf(stderr, "hwprof-sim: error: %s\n", cpu.error);
    rv_free(&cpu);
    return 2;
  }
  cpu.cmdline = elf; /* as QEMU's semihosting gives the -kernel path */
  FILE *pcs = NULL;
  if (pcs_path && (pcs = fopen(pcs_path, "w")) == NULL) {
    fprintf(stderr, "hwprof-sim: error: cannot write '%s': %s\n", pcs_path, strerror(errno));
    rv_free(&cpu);
    return 2;
  }

  clock_t t0 = clock();
  rv_status_t st = RV_RUNNING;
  retire_ev_t ev;
  while (st == RV_RUNNING && cpu.instret < max_insns) {
    st = rv_step(&cpu, &ev);
    if (pcs && ev.valid) fprintf(pcs, "%08" PRIx32 "\n", ev.pc);
  }
  double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  fflush(stdout);
  if (pcs) fclose(pcs);

  int rc;
  if (st == RV_EXITED) {
    rc = cpu.exit_code & 0xff;
  } else if (st == RV_FAILED) {
    fprintf(stderr, "hwprof-sim: error: %s: %s\n", elf, cpu.error);
    rc = 3;
  } else {
    fprintf(stderr, "hwprof-sim: error: %s: still running after %" PRIu64 " instructions (--max-insns)\n", elf,
            cpu.instret);
    rc = 3;
  }
  if (!quiet)
    fprintf(stderr, "hwprof-sim: %s: %" PRIu64 " instructions, exit code %d, %.2f s (%.1f M instructions/s)\n", elf,
            cpu.instret, st == RV_EXITED ? cpu.exit_code : -1, secs, secs > 0 ? cpu.instret / secs / 1e6 : 0.0);
  rv_free(&cpu);
  return rc;
}
