/* Co-processor images as text files and C initializers (cop_image.h). */
#include "cop_image.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define UINSN_MASK ((1ull << HWPROF_COP_UINSN_W) - 1u)

void cop_image_init(hwprof_cop_image_t *img) {
  memset(img, 0, sizeof *img);
  for (unsigned i = 0; i < HWPROF_COP_NUM_IREGS; i++) img->idxw[i] = COP_IDXW_MAX;
  img->lfsr = COP_LFSR_RESET;
}

static int fail(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return -1;
}

int cop_image_check(const hwprof_cop_image_t *img, char *err, size_t errlen) {
  if (img->n_uc > HWPROF_COP_IMAGE_MAX_UC) return fail(err, errlen, "%u microinstructions, at most %u", img->n_uc, HWPROF_COP_IMAGE_MAX_UC);
  for (uint32_t a = 0; a < img->n_uc; a++)
    if (img->uc[a] & ~UINSN_MASK) return fail(err, errlen, "microinstruction %u has bits above bit %u", a, HWPROF_COP_UINSN_W - 1u);
  for (unsigned n = 0; n < HWPROF_COP_NUM_BREGS; n++) {
    if (img->base_size[n] > HWPROF_COP_SIZE_WORD) return fail(err, errlen, "b%u: element size code %u (0 byte, 1 half, 2 word)", n, img->base_size[n]);
    if (img->base[n] > 0xffffu) return fail(err, errlen, "b%u: address 0x%x does not fit 16 bits", n, img->base[n]);
  }
  for (unsigned n = 0; n < HWPROF_COP_NUM_TREGS; n++)
    if (img->t[n] >= HWPROF_COP_IMAGE_MAX_UC) return fail(err, errlen, "t%u: target %u outside the microcode array", n, img->t[n]);
  for (unsigned n = 0; n < HWPROF_COP_NUM_IREGS; n++)
    if (img->idxw[n] < 1 || img->idxw[n] > COP_IDXW_MAX) return fail(err, errlen, "i%u: width %u (1..%u)", n, img->idxw[n], COP_IDXW_MAX);
  for (unsigned k = 0; k < HWPROF_COP_KINDS; k++)
    if (img->dispatch[k] >= HWPROF_COP_IMAGE_MAX_UC) return fail(err, errlen, "dispatch of kind %u: %u outside the microcode array", k, img->dispatch[k]);
  if (img->fields >> (HWPROF_SFIELD_VALUE + 1u)) return fail(err, errlen, "fields 0x%x: only bits 0..%u name fields", img->fields, HWPROF_SFIELD_VALUE);
  if (img->lfsr == 0) return fail(err, errlen, "the LFSR seed is 0 (an LFSR at 0 stays at 0)");
  return 0;
}

/* one unsigned number (C syntax: decimal, 0x hex); 0 on success */
static int number(const char *tok, uint64_t max, uint64_t *out) {
  if (!tok || !*tok || *tok == '-' || *tok == '+') return -1;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(tok, &end, 0);
  if (errno || *end || v > max) return -1;
  *out = v;
  return 0;
}

int cop_image_read(FILE *f, const char *name, hwprof_cop_image_t *img, char *err, size_t errlen) {
  cop_image_init(img);
  char line[512];
  unsigned lineno = 0;
  int seen_header = 0, seen_end = 0;
  uint64_t end_uc = 0;
  uint8_t seen_uc[HWPROF_COP_IMAGE_MAX_UC] = {0};
  while (fgets(line, sizeof line, f)) {
    lineno++;
    if (!strchr(line, '\n') && !feof(f)) return fail(err, errlen, "%s:%u: line longer than %zu characters", name, lineno, sizeof line - 2);
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    char *tok[5];
    int nt = 0;
    for (char *p = strtok(line, " \t\r\n"); p; p = strtok(NULL, " \t\r\n")) {
      if (nt == 5) return fail(err, errlen, "%s:%u: too many items on the line", name, lineno);
      tok[nt++] = p;
    }
    if (nt == 0) continue;
    if (!seen_header) {
      if (nt != 2 || strcmp(tok[0], "hwprof-cop-image") || strcmp(tok[1], "2"))
        return fail(err, errlen, "%s:%u: not a co-processor image (the first line must be 'hwprof-cop-image 2')", name, lineno);
      seen_header = 1;
      continue;
    }
    if (seen_end) return fail(err, errlen, "%s:%u: an item after the end record", name, lineno);
    if (!strcmp(tok[0], "end")) {
      if (nt != 2 || number(tok[1], HWPROF_COP_IMAGE_MAX_UC, &end_uc))
        return fail(err, errlen, "%s:%u: end: takes the number of microinstructions (0..%u)", name, lineno, HWPROF_COP_IMAGE_MAX_UC);
      seen_end = 1;
      continue;
    }
    uint64_t a = 0, b = 0, c = 0;
    const char *key = tok[0];
    int want = !strcmp(key, "fields") || !strcmp(key, "kinds") || !strcmp(key, "lfsr") ? 2 : !strcmp(key, "base") ? 4 : 3;
    if (strcmp(key, "fields") && strcmp(key, "kinds") && strcmp(key, "lfsr") && strcmp(key, "dispatch") && strcmp(key, "const") &&
        strcmp(key, "base") && strcmp(key, "target") && strcmp(key, "idxw") && strcmp(key, "uc"))
      return fail(err, errlen, "%s:%u: unknown item '%s'", name, lineno, key);
    if (nt != want) return fail(err, errlen, "%s:%u: '%s' takes %d value%s", name, lineno, key, want - 1, want == 2 ? "" : "s");
    if (!strcmp(key, "fields")) {
      if (number(tok[1], 0x1f, &a)) return fail(err, errlen, "%s:%u: fields: '%s' is not a field mask (0..0x1f)", name, lineno, tok[1]);
      img->fields = (uint8_t)a;
    } else if (!strcmp(key, "kinds")) {
      if (number(tok[1], 0xff, &a)) return fail(err, errlen, "%s:%u: kinds: '%s' is not a kind mask (0..0xff)", name, lineno, tok[1]);
      img->kinds = (uint8_t)a;
    } else if (!strcmp(key, "lfsr")) {
      if (number(tok[1], 0xffff, &a) || a == 0) return fail(err, errlen, "%s:%u: lfsr: '%s' is not a seed (1..0xffff)", name, lineno, tok[1]);
      img->lfsr = (uint16_t)a;
    } else if (!strcmp(key, "uc")) {
      if (number(tok[1], HWPROF_COP_IMAGE_MAX_UC - 1, &a)) return fail(err, errlen, "%s:%u: uc: '%s' is not an address (0..%u)", name, lineno, tok[1], HWPROF_COP_IMAGE_MAX_UC - 1);
      if (number(tok[2], UINSN_MASK, &b)) return fail(err, errlen, "%s:%u: uc: '%s' is not a %u-bit word", name, lineno, tok[2], HWPROF_COP_UINSN_W);
      if (seen_uc[a]) return fail(err, errlen, "%s:%u: uc: address %" PRIu64 " given twice", name, lineno, a);
      seen_uc[a] = 1;
      img->uc[a] = b;
      if (a + 1 > img->n_uc) img->n_uc = (uint32_t)a + 1;
    } else {
      unsigned count = !strcmp(key, "dispatch") ? HWPROF_COP_KINDS : !strcmp(key, "const") ? HWPROF_COP_NUM_CREGS
                       : !strcmp(key, "base") ? HWPROF_COP_NUM_BREGS : !strcmp(key, "target") ? HWPROF_COP_NUM_TREGS : HWPROF_COP_NUM_IREGS;
      if (number(tok[1], count - 1, &a)) return fail(err, errlen, "%s:%u: %s: '%s' is not a register number (0..%u)", name, lineno, key, tok[1], count - 1);
      if (!strcmp(key, "dispatch")) {
        if (number(tok[2], HWPROF_COP_IMAGE_MAX_UC - 1, &b)) return fail(err, errlen, "%s:%u: dispatch: '%s' is not an address", name, lineno, tok[2]);
        img->dispatch[a] = (uint32_t)b;
      } else if (!strcmp(key, "const")) {
        if (number(tok[2], 0xffffffffu, &b)) return fail(err, errlen, "%s:%u: const: '%s' is not a 32-bit value", name, lineno, tok[2]);
        img->c[a] = (uint32_t)b;
      } else if (!strcmp(key, "base")) {
        if (number(tok[2], 0xffff, &b)) return fail(err, errlen, "%s:%u: base: '%s' is not a 16-bit address", name, lineno, tok[2]);
        if (number(tok[3], HWPROF_COP_SIZE_WORD, &c)) return fail(err, errlen, "%s:%u: base: '%s' is not a size code (0 byte, 1 half, 2 word)", name, lineno, tok[3]);
        img->base[a] = (uint32_t)b;
        img->base_size[a] = (uint8_t)c;
      } else if (!strcmp(key, "target")) {
        if (number(tok[2], HWPROF_COP_IMAGE_MAX_UC - 1, &b)) return fail(err, errlen, "%s:%u: target: '%s' is not an address", name, lineno, tok[2]);
        img->t[a] = (uint32_t)b;
      } else {
        if (number(tok[2], COP_IDXW_MAX, &b) || b == 0) return fail(err, errlen, "%s:%u: idxw: '%s' is not a width (1..%u)", name, lineno, tok[2], COP_IDXW_MAX);
        img->idxw[a] = (uint8_t)b;
      }
    }
  }
  if (ferror(f)) return fail(err, errlen, "%s: read error", name);
  if (!seen_header) return fail(err, errlen, "%s: empty (not a co-processor image)", name);
  if (!seen_end) return fail(err, errlen, "%s: truncated: no end record", name);
  if (end_uc != img->n_uc)
    return fail(err, errlen, "%s: the end record counts %" PRIu64 " microinstructions, the image has %u", name, end_uc, img->n_uc);
  for (uint32_t u = 0; u < img->n_uc; u++)
    if (!seen_uc[u]) return fail(err, errlen, "%s: uc: address %u missing (the words must be 0 .. %u without gaps)", name, u, img->n_uc - 1);
  return 0;
}

int cop_image_write(FILE *f, const hwprof_cop_image_t *img) {
  fprintf(f, "hwprof-cop-image 2\n");
  fprintf(f, "fields 0x%02x\nkinds 0x%02x\nlfsr 0x%04x\n", img->fields, img->kinds, img->lfsr);
  for (unsigned k = 0; k < HWPROF_COP_KINDS; k++)
    if (img->kinds >> k & 1u) fprintf(f, "dispatch %u %u\n", k, img->dispatch[k]);
  for (unsigned n = 0; n < HWPROF_COP_NUM_CREGS; n++) fprintf(f, "const %u 0x%08x\n", n, img->c[n]);
  for (unsigned n = 0; n < HWPROF_COP_NUM_BREGS; n++) fprintf(f, "base %u 0x%04x %u\n", n, img->base[n], img->base_size[n]);
  for (unsigned n = 0; n < HWPROF_COP_NUM_TREGS; n++) fprintf(f, "target %u %u\n", n, img->t[n]);
  for (unsigned n = 0; n < HWPROF_COP_NUM_IREGS; n++) fprintf(f, "idxw %u %u\n", n, img->idxw[n]);
  for (uint32_t a = 0; a < img->n_uc; a++) fprintf(f, "uc %u 0x%012" PRIx64 "\n", a, img->uc[a]);
  fprintf(f, "end %u\n", img->n_uc);
  return ferror(f) ? -1 : 0;
}

static void list_u32(FILE *f, const char *field, const uint32_t *v, unsigned n) {
  fprintf(f, "  .%s = {", field);
  for (unsigned i = 0; i < n; i++) fprintf(f, "%s0x%xu", i ? ", " : "", v[i]);
  fprintf(f, "},\n");
}

static void list_u8(FILE *f, const char *field, const uint8_t *v, unsigned n) {
  fprintf(f, "  .%s = {", field);
  for (unsigned i = 0; i < n; i++) fprintf(f, "%s%u", i ? ", " : "", v[i]);
  fprintf(f, "},\n");
}

int cop_image_write_c(FILE *f, const hwprof_cop_image_t *img, const char *cname) {
  fprintf(f, "/* co-processor image, generated by hwprof-cpasm */\n#include \"hwprof_cop_image.h\"\n\n");
  fprintf(f, "const hwprof_cop_image_t %s = {\n  .n_uc = %uu,\n  .uc = {", cname, img->n_uc);
  for (uint32_t a = 0; a < img->n_uc; a++) fprintf(f, "%s%s0x%012" PRIx64 "ull", a ? "," : "", a % 4 ? " " : "\n    ", img->uc[a]);
  fprintf(f, "},\n");
  list_u32(f, "c", img->c, HWPROF_COP_NUM_CREGS);
  list_u32(f, "base", img->base, HWPROF_COP_NUM_BREGS);
  list_u8(f, "base_size", img->base_size, HWPROF_COP_NUM_BREGS);
  list_u32(f, "t", img->t, HWPROF_COP_NUM_TREGS);
  list_u8(f, "idxw", img->idxw, HWPROF_COP_NUM_IREGS);
  list_u32(f, "dispatch", img->dispatch, HWPROF_COP_KINDS);
  fprintf(f, "  .kinds = 0x%02xu,\n  .fields = 0x%02xu,\n  .lfsr = 0x%04xu,\n};\n", img->kinds, img->fields, img->lfsr);
  return ferror(f) ? -1 : 0;
}
