/* hwprof-cpasm: assembler, disassembler and interpreter front end of the value-profiling
 * co-processor's microcode (docs/cop.md). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cop_asm.h"
#include "cop_image.h"
#include "cop_interp.h"

static const char kUsage[] =
    "usage: hwprof-cpasm [options] SOURCE.s -o IMAGE.cop   assemble\n"
    "       hwprof-cpasm --c NAME SOURCE.s -o IMAGE.c      assemble into a C initializer named NAME\n"
    "       hwprof-cpasm -d IMAGE.cop [-o OUT.s]           disassemble (reassembles to the same image)\n"
    "       hwprof-cpasm --run IMAGE.cop SAMPLES           run the instruction-level interpreter on a sample\n"
    "                                                      file and print the architectural result\n"
    "\n"
    "options:\n"
    "  -o FILE          output (default: standard output)\n"
    "  --uc-depth N     --run: microcode words (default 64); --cam N entries (256); --data N bytes (2048)\n"
    "  --max-steps N    --run: instructions allowed per sample before it is a runaway (default 100000)\n"
    "  --stop-at-intr   --run: stop at the first interrupt (default: report it and resume)\n"
    "  -h, --help       this text\n"
    "\n"
    "A sample file starts with the line 'hwprof-samples 1', has one record per line: KIND PC NPC INSN\n"
    "ADDR VALUE [TAKEN], numbers in C syntax, KIND a retire kind name (load, store, branch, ...) or\n"
    "0..7, and ends with 'end SAMPLES' (their number); '#' starts a comment. --run prints the\n"
    "samples consumed, the microinstructions executed, the interrupts, the registers, the valid CAM\n"
    "entries and the non-zero data words; an interrupt is reported and the engine resumed, as a host\n"
    "handler that only restarts it would.\n";

static char *slurp(const char *path, char *err, size_t errlen) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (!buf) break;
    if (n + 1 >= cap) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = nb;
    }
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (!buf || bad) {
    free(buf);
    snprintf(err, errlen, "%s: %s", path, bad ? "read error" : "out of memory");
    return NULL;
  }
  if (memchr(buf, 0, n)) {
    free(buf);
    snprintf(err, errlen, "%s: contains a NUL byte (not a text file)", path);
    return NULL;
  }
  buf[n] = 0;
  return buf;
}

static int parse_u32(const char *s, uint32_t *out) {
  if (!s || !*s || *s == '-') return -1;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || *end || v > 0xffffffffull) return -1;
  *out = (uint32_t)v;
  return 0;
}

static const char *const kKinds[8] = {"other", "branch", "jump", "ijump", "load", "store", "prof", "kind7"};

static int run(const char *image_path, const char *samples_path, cop_geom_t g, uint32_t max_steps, int stop_at_intr, FILE *out) {
  char err[512];
  FILE *f = fopen(image_path, "r");
  if (!f) {
    fprintf(stderr, "hwprof-cpasm: %s: cannot open: %s\n", image_path, strerror(errno));
    return 1;
  }
  hwprof_cop_image_t img;
  int rc = cop_image_read(f, image_path, &img, err, sizeof err);
  fclose(f);
  if (rc) {
    fprintf(stderr, "hwprof-cpasm: %s\n", err);
    return 1;
  }
  cop_interp_t s;
  if (cop_interp_init(&s, g)) {
    fprintf(stderr, "hwprof-cpasm: bad geometry (each size a power of two, uc-depth at most %u)\n", HWPROF_COP_IMAGE_MAX_UC);
    return 2;
  }
  if (cop_interp_load(&s, &img)) {
    fprintf(stderr, "hwprof-cpasm: %s: %u microinstructions do not fit a %u-word microcode array\n", image_path, img.n_uc, g.uc_depth);
    cop_interp_free(&s);
    return 1;
  }
  FILE *sf = fopen(samples_path, "r");
  if (!sf) {
    fprintf(stderr, "hwprof-cpasm: %s: cannot open: %s\n", samples_path, strerror(errno));
    cop_interp_free(&s);
    return 1;
  }
  char line[512];
  unsigned lineno = 0;
  bool header = false, ended = false, stopped = false;
  uint64_t lines = 0; /* sample lines, for the end record */
  rc = 0;
  while (rc == 0 && fgets(line, sizeof line, sf)) {
    lineno++;
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    char *tok[8];
    int nt = 0;
    for (char *p = strtok(line, " \t\r\n"); p && nt < 8; p = strtok(NULL, " \t\r\n")) tok[nt++] = p;
    if (nt == 0) continue;
    if (!header) { /* the format's header: 'hwprof-samples 1' */
      header = nt == 2 && !strcmp(tok[0], "hwprof-samples") && !strcmp(tok[1], "1");
      if (!header) {
        fprintf(stderr, "hwprof-cpasm: %s:%u: not a sample file (no 'hwprof-samples 1' header)\n", samples_path, lineno);
        rc = 1;
      }
      continue;
    }
    if (ended) {
      fprintf(stderr, "hwprof-cpasm: %s:%u: a sample after the end record\n", samples_path, lineno);
      rc = 1;
      break;
    }
    if (!strcmp(tok[0], "end")) {
      uint32_t n;
      if (nt != 2 || parse_u32(tok[1], &n) || n != lines) {
        fprintf(stderr, "hwprof-cpasm: %s:%u: the end record must be 'end %" PRIu64 "' (the samples above it)\n",
                samples_path, lineno, lines);
        rc = 1;
      }
      ended = true;
      continue;
    }
    lines++;
    cop_sample_t x;
    memset(&x, 0, sizeof x);
    uint32_t v[6] = {0};
    int kind = -1;
    for (int k = 0; k < 8; k++)
      if (!strcmp(tok[0], kKinds[k])) kind = k;
    if (kind < 0 && parse_u32(tok[0], &v[0]) == 0 && v[0] < 8) kind = (int)v[0];
    int ok = kind >= 0 && (nt == 6 || nt == 7);
    for (int k = 1; ok && k < nt; k++) ok = parse_u32(tok[k], &v[k - 1]) == 0;
    if (!ok) {
      fprintf(stderr, "hwprof-cpasm: %s:%u: not a sample (KIND PC NPC INSN ADDR VALUE [TAKEN])\n", samples_path, lineno);
      rc = 1;
      break;
    }
    x.kind = (uint8_t)kind;
    x.pc = v[0];
    x.npc = v[1];
    x.insn = v[2];
    x.addr = v[3];
    x.value = v[4];
    x.taken = nt == 7 ? (uint8_t)(v[5] != 0) : 0;
    int r = cop_interp_sample(&s, &x, max_steps);
    if (r == COP_SAMPLE_INTR) {
      fprintf(out, "interrupt: sample %" PRIu64 " (line %u), at microinstruction %u\n", s.samples, lineno, s.intr_pc);
      if (stop_at_intr) {
        stopped = true;
        break;
      }
      cop_interp_resume(&s);
    } else if (r < 0) {
      fprintf(stderr, "hwprof-cpasm: %s:%u: the routine ran more than %u instructions (a loop that never ends?)\n", samples_path, lineno, max_steps);
      rc = 1;
      break;
    }
  }
  fclose(sf);
  if (rc == 0 && !stopped && !ended) {
    fprintf(stderr, "hwprof-cpasm: %s: truncated: %s\n", samples_path,
            header ? "no end record ('end SAMPLES')" : "empty (no 'hwprof-samples 1' header)");
    rc = 1;
  }
  fprintf(out, "samples %" PRIu64 ", microinstructions %" PRIu64 ", interrupts %" PRIu64 "\n", s.samples, s.executed, s.interrupts);
  for (unsigned n = 0; n < HWPROF_COP_NUM_VREGS; n++) fprintf(out, "v%u 0x%08x%s", n, s.v[n], n + 1 < HWPROF_COP_NUM_VREGS ? "  " : "\n");
  for (unsigned n = 0; n < HWPROF_COP_NUM_IREGS; n++)
    fprintf(out, "i%u %u%s", n, s.i[n] & ((1u << s.idxw[n]) - 1u), n + 1 < HWPROF_COP_NUM_IREGS ? "  " : "\n");
  fprintf(out, "lfsr 0x%04x\n", s.lfsr);
  for (uint32_t e = 0; e < g.cam_entries; e++)
    if (s.cam_valid[e]) fprintf(out, "cam %u 0x%08x\n", e, s.cam_key[e]);
  for (uint32_t a = 0; a < g.data_bytes; a += 4) {
    uint32_t w = cop_interp_data_get(&s, a, 4);
    if (w) fprintf(out, "data 0x%03x 0x%08x\n", a, w);
  }
  cop_interp_free(&s);
  return rc;
}

int main(int argc, char **argv) {
  const char *out_path = NULL, *cname = NULL, *in = NULL, *samples = NULL;
  int disasm = 0, do_run = 0, stop_at_intr = 0;
  cop_geom_t g = COP_GEOM_DEFAULT;
  uint32_t max_steps = 100000;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int has_val = i + 1 < argc;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(kUsage, stdout);
      return 0;
    } else if (!strcmp(a, "-o") && has_val) {
      out_path = argv[++i];
    } else if (!strcmp(a, "--c") && has_val) {
      cname = argv[++i];
    } else if (!strcmp(a, "-d")) {
      disasm = 1;
    } else if (!strcmp(a, "--run")) {
      do_run = 1;
    } else if (!strcmp(a, "--stop-at-intr")) {
      stop_at_intr = 1;
    } else if ((!strcmp(a, "--uc-depth") || !strcmp(a, "--cam") || !strcmp(a, "--data") || !strcmp(a, "--max-steps")) && has_val) {
      uint32_t v;
      if (parse_u32(argv[++i], &v) || v == 0) {
        fprintf(stderr, "hwprof-cpasm: %s: '%s' is not a positive number\n", a, argv[i]);
        return 2;
      }
      if (!strcmp(a, "--uc-depth")) g.uc_depth = v;
      else if (!strcmp(a, "--cam")) g.cam_entries = v;
      else if (!strcmp(a, "--data")) g.data_bytes = v;
      else max_steps = v;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "hwprof-cpasm: unknown option or missing value: %s (try --help)\n", a);
      return 2;
    } else if (!in) {
      in = a;
    } else if (do_run && !samples) {
      samples = a;
    } else {
      fprintf(stderr, "hwprof-cpasm: one input file only (got '%s' and '%s')\n", in, a);
      return 2;
    }
  }
  if (!in || (do_run && !samples) || (disasm && (do_run || cname))) {
    fputs(kUsage, stderr);
    return 2;
  }
  char err[512];
  hwprof_cop_image_t img;
  if (disasm) {
    FILE *f = fopen(in, "r");
    if (!f) {
      fprintf(stderr, "hwprof-cpasm: %s: cannot open: %s\n", in, strerror(errno));
      return 1;
    }
    int rc = cop_image_read(f, in, &img, err, sizeof err);
    fclose(f);
    if (rc) {
      fprintf(stderr, "hwprof-cpasm: %s\n", err);
      return 1;
    }
  } else if (!do_run) {
    char *src = slurp(in, err, sizeof err);
    if (!src) {
      fprintf(stderr, "hwprof-cpasm: %s\n", err);
      return 1;
    }
    int rc = cop_asm(src, in, &img, err, sizeof err);
    free(src);
    if (rc) {
      fprintf(stderr, "%s\n", err);
      return 1;
    }
  }
  /* write to a temporary and rename, so a failed run leaves no partial output */
  char tmp[4096];
  FILE *out = stdout;
  if (out_path) {
    if (snprintf(tmp, sizeof tmp, "%s.tmp", out_path) >= (int)sizeof tmp) {
      fprintf(stderr, "hwprof-cpasm: %s: path too long\n", out_path);
      return 2;
    }
    out = fopen(tmp, "w");
    if (!out) {
      fprintf(stderr, "hwprof-cpasm: %s: cannot create: %s\n", tmp, strerror(errno));
      return 1;
    }
  }
  int rc = do_run ? run(in, samples, g, max_steps, stop_at_intr, out)
           : disasm ? (cop_disasm(out, &img) ? 1 : 0)
           : cname ? (cop_image_write_c(out, &img, cname) ? 1 : 0)
                   : (cop_image_write(out, &img) ? 1 : 0);
  if (out_path) {
    if (fclose(out) != 0 && rc == 0) {
      fprintf(stderr, "hwprof-cpasm: %s: write error\n", tmp);
      rc = 1;
    }
    if (rc == 0 && rename(tmp, out_path) != 0) {
      fprintf(stderr, "hwprof-cpasm: %s: cannot write: %s\n", out_path, strerror(errno));
      rc = 1;
    }
    if (rc != 0) remove(tmp);
  }
  return rc;
}
