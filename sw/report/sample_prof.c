/* Sample profiles from edge profiles; see sample_prof.h. */
#include "sample_prof.h"

#include <inttypes.h>
#include <stdbool.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "block_counts.h"
#include "rv32_isa.h"
#include "rv32_reloc.h"

typedef struct {
  unsigned offset, disc;
  int64_t count;
} sample_t;

typedef struct {
  unsigned offset, disc;
  uint32_t callee;  /* the callee's entry address, then (after resolve) its index in the list */
  int64_t count;    /* calls made from there */
} callsite_t;

typedef struct {
  const char *name;
  uint32_t lo;      /* the function's entry */
  int64_t head, total;
  sample_t *s;
  size_t n;
  callsite_t *c;
  size_t nc;
} fn_samples_t;

static int by_key(const void *a, const void *b) {
  const sample_t *x = a, *y = b;
  if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
  return x->disc < y->disc ? -1 : x->disc > y->disc;
}

/* LLVM encodes the base discriminator with a prefix code: an odd value has none (0); otherwise the
 * value shifted right once holds it in its low 5 bits, or, with bit 5 set, in bits 6 and up (the
 * high 7 bits) and the low 5 bits. */
unsigned sample_base_discriminator(unsigned disc) {
  if (disc & 1u) return 0;
  const unsigned u = disc >> 1;
  return (u & 0x20u) ? (((u >> 1) & 0xfe0u) | (u & 0x1fu)) : (u & 0x1fu);
}

/* The program's instruction word at a (little-endian), if a file section holds it. */
static bool word_at(const hwprof_elf_t *e, uint32_t a, uint32_t *w) {
  const uint8_t *b = hwprof_elf_bytes(e, a, 4);
  if (b) *w = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
  return b != NULL;
}

/* The first line that is not df's own: the declaration line of the next function declared after it
 * in the same file (UINT_MAX: none). */
static unsigned end_line(const dl_lines_t *d, const dl_func_t *df) {
  unsigned end = UINT_MAX;
  for (size_t i = 0; i < d->nfunc; i++)
    if (d->func[i].file == df->file && d->func[i].decl_line > df->decl_line && d->func[i].decl_line < end)
      end = d->func[i].decl_line;
  return end;
}

/* One function's samples, one a (line offset, discriminator): the most of its instructions' counts. */
static int collect(const pm_func_t *f, const int64_t *cnt, const dl_lines_t *d, const hwprof_elf_t *e,
                   const dl_func_t *df, sample_format_t fmt, fn_samples_t *out, sample_stats_t *st) {
  int64_t *bc = block_counts(f, cnt);
  size_t n = 0;
  for (unsigned b = 0; b < f->nblk; b++)
    n += f->blk[b].end > f->blk[b].start ? (f->blk[b].end - f->blk[b].start) / 4u : 0;
  sample_t *k = malloc((n ? n : 1) * sizeof *k);
  if (bc == NULL || k == NULL) {
    free(bc);
    free(k);
    return -1;
  }
  const unsigned last = end_line(d, df);
  n = 0;
  for (unsigned b = 0; b < f->nblk; b++)
    for (uint32_t a = f->blk[b].start; a < f->blk[b].end; a += 4) {
      const dl_range_t *r = dl_find(d, a);
      if (r == NULL) continue;
      if (r->file != df->file || r->line < df->decl_line || r->line >= last) {
        st->other_function++;
        continue;
      }
      const unsigned disc = fmt == kSampleLlvmText ? sample_base_discriminator(r->disc) : r->disc;
      k[n++] = (sample_t){r->line - df->decl_line, disc, bc[b]};
    }
  if (n) qsort(k, n, sizeof *k, by_key);
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    if (m && k[m - 1].offset == k[i].offset && k[m - 1].disc == k[i].disc) {
      if (k[i].count > k[m - 1].count) k[m - 1].count = k[i].count;
    } else {
      k[m++] = k[i];
    }
  }
  int64_t total = 0;
  for (size_t i = 0; i < m; i++) total += k[i].count;
  /* the direct calls that ran, at the line and discriminator of the call instruction */
  size_t ncap = 0;
  for (unsigned b = 0; b < f->nblk; b++)
    ncap += f->blk[b].end > f->blk[b].start ? (f->blk[b].end - f->blk[b].start) / 4u : 0;
  callsite_t *cs = malloc((ncap ? ncap : 1) * sizeof *cs);
  size_t nc = 0;
  if (cs == NULL) {
    free(bc);
    free(k);
    return -1;
  }
  for (unsigned b = 0; b < f->nblk; b++) {
    const pm_block_t *x = &f->blk[b];
    if (bc[b] == 0) continue;
    for (uint32_t a = x->start; a < x->end; a += 4) {
      uint32_t insn, prev, t = 0;
      if (!word_at(e, a, &insn)) continue;
      bool call = false;
      if (rv32_opcode(insn) == RV32_OP_JAL && rv32_rd(insn) == 1u) {
        t = a + (uint32_t)rv32_imm_j(insn);
        call = true;
      } else if (rv32_opcode(insn) == RV32_OP_JALR && rv32_rd(insn) == 1u && a >= x->start + 4u && word_at(e, a - 4u, &prev)) {
        call = rv32_call_pair_at(e->rel, e->nrel, a - 4u, prev, insn, &t) != 0;
      }
      const dl_range_t *r = call ? dl_find(d, a) : NULL;
      if (r == NULL || r->file != df->file || r->line < df->decl_line || r->line >= last) continue;
      const unsigned disc = fmt == kSampleLlvmText ? sample_base_discriminator(r->disc) : r->disc;
      cs[nc++] = (callsite_t){r->line - df->decl_line, disc, t, bc[b]};
    }
  }
  *out = (fn_samples_t){df->name, f->lo, function_entries(f, cnt), total, k, m, cs, nc};
  st->functions++;
  st->lines += (unsigned)m;
  free(bc);
  return 0;
}

/* A call site's callee profile: the callee's samples scaled to the share of its entries made from
 * there (what the profile of a build that inlined it there would hold). */
static int64_t scaled(int64_t count, const callsite_t *c, const fn_samples_t *callee) {
  return callee->head > 0 ? (int64_t)(((__int128)count * c->count + callee->head / 2) / callee->head) : 0;
}
static int64_t callsite_total(const callsite_t *c, const fn_samples_t *callee) {
  int64_t t = 0;
  for (size_t j = 0; j < callee->n; j++) t += scaled(callee->s[j].count, c, callee);
  return t;
}

static void write_llvm(FILE *to, const fn_samples_t *fs, size_t nfs) {
  for (size_t i = 0; i < nfs; i++) {
    int64_t total = fs[i].total;
    for (size_t j = 0; j < fs[i].nc; j++) total += callsite_total(&fs[i].c[j], &fs[fs[i].c[j].callee]);
    fprintf(to, "%s:%" PRId64 ":%" PRId64 "\n", fs[i].name, total, fs[i].head);
    for (size_t j = 0; j < fs[i].n; j++) {
      const sample_t *s = &fs[i].s[j];
      if (s->disc) fprintf(to, " %u.%u: %" PRId64 "\n", s->offset, s->disc, s->count);
      else fprintf(to, " %u: %" PRId64 "\n", s->offset, s->count);
    }
    for (size_t j = 0; j < fs[i].nc; j++) { /* the callee as if inlined there, one level deep */
      const callsite_t *c = &fs[i].c[j];
      const fn_samples_t *callee = &fs[c->callee];
      if (c->disc) fprintf(to, " %u.%u: %s:%" PRId64 "\n", c->offset, c->disc, callee->name, callsite_total(c, callee));
      else fprintf(to, " %u: %s:%" PRId64 "\n", c->offset, callee->name, callsite_total(c, callee));
      for (size_t k = 0; k < callee->n; k++) {
        const sample_t *s = &callee->s[k];
        if (s->disc) fprintf(to, "  %u.%u: %" PRId64 "\n", s->offset, s->disc, scaled(s->count, c, callee));
        else fprintf(to, "  %u: %" PRId64 "\n", s->offset, scaled(s->count, c, callee));
      }
    }
  }
}

/* GCC's AutoFDO file: gcov words (32 bits, little-endian here, as the host GCC reads them),
 * counters as two words, low first; strings as their length in bytes with the NUL, then those
 * bytes. */
static void put_word(FILE *to, uint32_t w) {
  const unsigned char b[4] = {(unsigned char)w, (unsigned char)(w >> 8), (unsigned char)(w >> 16), (unsigned char)(w >> 24)};
  fwrite(b, 1, 4, to);
}
static void put_counter(FILE *to, int64_t c) {
  put_word(to, (uint32_t)((uint64_t)c & 0xffffffffu));
  put_word(to, (uint32_t)((uint64_t)c >> 32));
}
static void put_string(FILE *to, const char *s) {
  const size_t len = strlen(s) + 1;
  put_word(to, (uint32_t)len);
  fwrite(s, 1, len, to);
}

#define AFDO_MAGIC 0x67636461u      /* "gcda", gcov's data magic */
#define AFDO_VERSION 2u             /* the version GCC 12 reads */
#define AFDO_TAG_NAMES 0xaa000000u  /* the function name table */
#define AFDO_TAG_FUNCS 0xac000000u  /* the function profiles */
#define AFDO_TAG_MODULE 0xab000000u /* the module table (LIPO's; empty) */

static void write_afdo(FILE *to, const fn_samples_t *fs, size_t nfs) {
  put_word(to, AFDO_MAGIC);
  put_word(to, AFDO_VERSION);
  put_word(to, 0);
  put_word(to, AFDO_TAG_NAMES);
  put_word(to, 0); /* the section's length: skipped by the reader */
  put_word(to, (uint32_t)nfs);
  for (size_t i = 0; i < nfs; i++) put_string(to, fs[i].name);
  put_word(to, AFDO_TAG_FUNCS);
  put_word(to, 0);
  put_word(to, (uint32_t)nfs);
  for (size_t i = 0; i < nfs; i++) {
    put_counter(to, fs[i].head);
    put_word(to, (uint32_t)i); /* its name's index */
    put_word(to, (uint32_t)fs[i].n);
    put_word(to, (uint32_t)fs[i].nc);
    for (size_t j = 0; j < fs[i].n; j++) {
      put_word(to, fs[i].s[j].offset << 16 | (fs[i].s[j].disc & 0xffffu));
      put_word(to, 0); /* no indirect-call targets */
      put_counter(to, fs[i].s[j].count);
    }
    for (size_t j = 0; j < fs[i].nc; j++) { /* the callee as if inlined there, one level deep */
      const callsite_t *c = &fs[i].c[j];
      const fn_samples_t *callee = &fs[c->callee];
      put_word(to, c->offset << 16 | (c->disc & 0xffffu));
      put_word(to, c->callee);
      put_word(to, (uint32_t)callee->n);
      put_word(to, 0);
      for (size_t k = 0; k < callee->n; k++) {
        put_word(to, callee->s[k].offset << 16 | (callee->s[k].disc & 0xffffu));
        put_word(to, 0);
        put_counter(to, scaled(callee->s[k].count, c, callee));
      }
    }
  }
  put_word(to, AFDO_TAG_MODULE);
  put_word(to, 0);
  put_word(to, 0); /* no modules */
}

static int by_callsite(const void *a, const void *b) {
  const callsite_t *x = a, *y = b;
  if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
  if (x->disc != y->disc) return x->disc < y->disc ? -1 : 1;
  return x->callee < y->callee ? -1 : x->callee > y->callee;
}

/* Each call site's callee as its index in fs (call sites to functions without samples dropped),
 * several calls from one place to one callee merged. */
static void resolve(fn_samples_t *fs, size_t nfs) {
  for (size_t i = 0; i < nfs; i++) {
    size_t m = 0;
    for (size_t j = 0; j < fs[i].nc; j++) {
      size_t k = 0;
      while (k < nfs && fs[k].lo != fs[i].c[j].callee) k++;
      if (k == nfs || fs[k].head <= 0 || fs[k].n == 0) continue;
      fs[i].c[m] = fs[i].c[j];
      fs[i].c[m++].callee = (uint32_t)k;
    }
    if (m) qsort(fs[i].c, m, sizeof *fs[i].c, by_callsite);
    size_t u = 0;
    for (size_t j = 0; j < m; j++) {
      if (u && by_callsite(&fs[i].c[u - 1], &fs[i].c[j]) == 0) fs[i].c[u - 1].count += fs[i].c[j].count;
      else fs[i].c[u++] = fs[i].c[j];
    }
    fs[i].nc = u;
  }
}

int sample_write(FILE *to, sample_format_t fmt, bool callsites, const pm_map_t *m, int64_t *const *counts,
                 const dl_lines_t *d, const hwprof_elf_t *e, sample_stats_t *st, char *err, size_t errlen) {
  memset(st, 0, sizeof *st);
  fn_samples_t *fs = calloc(m->nfn ? m->nfn : 1, sizeof *fs);
  size_t nfs = 0;
  int rc = fs == NULL ? -1 : 0;
  for (unsigned f = 0; f < m->nfn && !rc; f++) {
    if (!m->fn[f].instrumented || counts[f] == NULL) {
      st->left_out++;
      continue;
    }
    const dl_func_t *df = dl_func_at(d, m->fn[f].lo);
    if (df == NULL || df->file == UINT_MAX) {
      st->no_debug++;
      continue;
    }
    rc = collect(&m->fn[f], counts[f], d, e, df, fmt, &fs[nfs], st);
    nfs += rc == 0;
  }
  if (rc) {
    snprintf(err, errlen, "out of memory");
  } else {
    if (callsites) resolve(fs, nfs);
    else
      for (size_t i = 0; i < nfs; i++) fs[i].nc = 0;
    for (size_t i = 0; i < nfs; i++) st->callsites += (unsigned)fs[i].nc;
    if (fmt == kSampleLlvmText) write_llvm(to, fs, nfs);
    else write_afdo(to, fs, nfs);
    if (ferror(to)) {
      snprintf(err, errlen, "write error");
      rc = -1;
    }
  }
  for (size_t i = 0; i < nfs; i++) {
    free(fs[i].s);
    free(fs[i].c);
  }
  free(fs);
  return rc;
}
