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

typedef struct node node_t;

/* A function inlined at a call site of the node that holds it (from the DWARF). */
typedef struct {
  unsigned offset, disc;
  node_t *callee;
} inlined_t;

/* One function's profile where it ran: its own lines, the functions inlined into it (each a node
 * of its own), and the direct calls it made. */
struct node {
  const char *name;
  unsigned decl_line;
  sample_t *s;
  size_t n, ns_cap;
  inlined_t *kid;
  size_t nk, nk_cap;
  callsite_t *c;
  size_t nc, nc_cap;
};

typedef struct {
  node_t root;      /* the function as a subprogram */
  uint32_t lo;      /* its entry */
  int64_t head;     /* its entries */
} fn_samples_t;

/* v[n] grown to hold one more element of `size` bytes; NULL when out of memory */
static void *grow(void **v, size_t n, size_t *cap, size_t size) {
  if (n == *cap) {
    const size_t c = *cap ? 2 * *cap : 8;
    void *g = realloc(*v, c * size);
    if (g == NULL) return NULL;
    *v = g;
    *cap = c;
  }
  return (char *)*v + n * size;
}

static void free_node(node_t *x) {
  for (size_t i = 0; i < x->nk; i++) {
    free_node(x->kid[i].callee);
    free(x->kid[i].callee);
  }
  free(x->s);
  free(x->kid);
  free(x->c);
}

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

/* The node of root that holds the code at a: the root itself, or the innermost inlined copy, reached
 * from the root through each inlined call site (keyed by the call's line as an offset from the
 * declaration of what it is inlined into), nodes made on the way. Sets *bad when the DWARF puts a
 * call site before the declaration that holds it (no offset: the code has no place). */
static node_t *place(node_t *root, const dl_lines_t *d, uint32_t a, sample_format_t fmt, bool *bad) {
  int chain[64];
  unsigned depth = 0;
  *bad = false;
  for (int k = dl_inline_at(d, a); k >= 0 && depth < 64; k = d->inl[k].parent) chain[depth++] = k;
  node_t *x = root;
  while (depth > 0) {
    const dl_inline_t *in = &d->inl[chain[--depth]];
    if (in->call_line < x->decl_line) {
      *bad = true;
      return NULL;
    }
    const unsigned off = in->call_line - x->decl_line;
    const unsigned disc = fmt == kSampleLlvmText ? sample_base_discriminator(in->call_disc) : in->call_disc;
    size_t i = 0;
    while (i < x->nk && !(x->kid[i].offset == off && x->kid[i].disc == disc && strcmp(x->kid[i].callee->name, in->name) == 0)) i++;
    if (i == x->nk) {
      inlined_t *k = grow((void **)&x->kid, x->nk, &x->nk_cap, sizeof *x->kid);
      node_t *c = calloc(1, sizeof *c);
      if (k == NULL || c == NULL) {
        free(c);
        return NULL;
      }
      *c = (node_t){.name = in->name, .decl_line = in->decl_line};
      *k = (inlined_t){off, disc, c};
      x->nk++;
    }
    x = x->kid[i].callee;
  }
  return x;
}

/* Every node's samples sorted, one a (line offset, discriminator): the most of its instructions'. */
static void merge(node_t *x) {
  if (x->n) qsort(x->s, x->n, sizeof *x->s, by_key);
  size_t m = 0;
  for (size_t i = 0; i < x->n; i++) {
    if (m && x->s[m - 1].offset == x->s[i].offset && x->s[m - 1].disc == x->s[i].disc) {
      if (x->s[i].count > x->s[m - 1].count) x->s[m - 1].count = x->s[i].count;
    } else {
      x->s[m++] = x->s[i];
    }
  }
  x->n = m;
  for (size_t i = 0; i < x->nk; i++) merge(x->kid[i].callee);
}

static unsigned count_lines(const node_t *x) {
  unsigned n = (unsigned)x->n;
  for (size_t i = 0; i < x->nk; i++) n += count_lines(x->kid[i].callee);
  return n;
}

/* The direct call ending at a (a jal, or a call pair's jalr), or false; its target in *t. */
static bool direct_call(const hwprof_elf_t *e, const pm_block_t *x, uint32_t a, uint32_t *t) {
  uint32_t insn, prev;
  if (!word_at(e, a, &insn)) return false;
  if (rv32_opcode(insn) == RV32_OP_JAL && rv32_rd(insn) == 1u) {
    *t = a + (uint32_t)rv32_imm_j(insn);
    return true;
  }
  return rv32_opcode(insn) == RV32_OP_JALR && rv32_rd(insn) == 1u && a >= x->start + 4u && word_at(e, a - 4u, &prev) &&
         rv32_call_pair_at(e->rel, e->nrel, a - 4u, prev, insn, t) != 0;
}

/* One function's profile: each instruction's count goes to the node of the function whose code it
 * is (the subprogram, or a copy inlined into it), under its line as an offset from that function's
 * declaration; code of another function that the DWARF does not show as inlined has no place. */
static int collect(const pm_func_t *f, const int64_t *cnt, const dl_lines_t *d, const hwprof_elf_t *e,
                   const dl_func_t *df, sample_format_t fmt, fn_samples_t *out, sample_stats_t *st) {
  int64_t *bc = block_counts(f, cnt);
  if (bc == NULL) return -1;
  *out = (fn_samples_t){.root = {.name = df->name, .decl_line = df->decl_line}, .lo = f->lo,
                        .head = function_entries(f, cnt)};
  const unsigned last = end_line(d, df);
  int rc = 0;
  for (unsigned b = 0; b < f->nblk && !rc; b++) {
    const pm_block_t *x = &f->blk[b];
    for (uint32_t a = x->start; a < x->end && !rc; a += 4) {
      const dl_range_t *r = dl_find(d, a);
      if (r == NULL) continue;
      bool bad;
      node_t *n = place(&out->root, d, a, fmt, &bad);
      if (n == NULL && !bad) {
        rc = -1;
        break;
      }
      if (bad || r->line < n->decl_line || (n == &out->root && (r->file != df->file || r->line >= last))) {
        st->other_function++;
        continue;
      }
      st->inlined += n != &out->root;
      const unsigned disc = fmt == kSampleLlvmText ? sample_base_discriminator(r->disc) : r->disc;
      sample_t *k = grow((void **)&n->s, n->n, &n->ns_cap, sizeof *n->s);
      if (k == NULL) {
        rc = -1;
        break;
      }
      *k = (sample_t){r->line - n->decl_line, disc, bc[b]};
      n->n++;
      /* a direct call that ran, at the line and discriminator of the call instruction */
      uint32_t t;
      if (bc[b] && direct_call(e, x, a, &t)) {
        callsite_t *c = grow((void **)&n->c, n->nc, &n->nc_cap, sizeof *n->c);
        if (c == NULL) {
          rc = -1;
          break;
        }
        *c = (callsite_t){r->line - n->decl_line, disc, t, bc[b]};
        n->nc++;
      }
    }
  }
  free(bc);
  if (rc) {
    free_node(&out->root);
    return -1;
  }
  merge(&out->root);
  st->functions++;
  st->lines += count_lines(&out->root);
  return 0;
}

/* A call site's callee profile: the callee's own samples scaled to the share of its entries made
 * from there (what the profile of a build that inlined it there would hold). */
static int64_t scaled(int64_t count, const callsite_t *c, const fn_samples_t *callee) {
  return callee->head > 0 ? (int64_t)(((__int128)count * c->count + callee->head / 2) / callee->head) : 0;
}
static int64_t callsite_total(const callsite_t *c, const fn_samples_t *callee) {
  int64_t t = 0;
  for (size_t j = 0; j < callee->root.n; j++) t += scaled(callee->root.s[j].count, c, callee);
  return t;
}

static int64_t node_total(const node_t *x, const fn_samples_t *fs) {
  int64_t t = 0;
  for (size_t j = 0; j < x->n; j++) t += x->s[j].count;
  for (size_t j = 0; j < x->nk; j++) t += node_total(x->kid[j].callee, fs);
  for (size_t j = 0; j < x->nc; j++) t += callsite_total(&x->c[j], &fs[x->c[j].callee]);
  return t;
}

static void llvm_key(FILE *to, unsigned indent, unsigned offset, unsigned disc) {
  fprintf(to, "%*s", (int)indent, "");
  if (disc) fprintf(to, "%u.%u: ", offset, disc);
  else fprintf(to, "%u: ", offset);
}

/* A node's body, one more space of indentation than its header. */
static void llvm_body(FILE *to, const node_t *x, const fn_samples_t *fs, unsigned indent) {
  for (size_t j = 0; j < x->n; j++) {
    llvm_key(to, indent, x->s[j].offset, x->s[j].disc);
    fprintf(to, "%" PRId64 "\n", x->s[j].count);
  }
  for (size_t j = 0; j < x->nk; j++) { /* a copy inlined there */
    const node_t *k = x->kid[j].callee;
    llvm_key(to, indent, x->kid[j].offset, x->kid[j].disc);
    fprintf(to, "%s:%" PRId64 "\n", k->name, node_total(k, fs));
    llvm_body(to, k, fs, indent + 1);
  }
  for (size_t j = 0; j < x->nc; j++) { /* a call that ran, its callee as if inlined there (one level) */
    const callsite_t *c = &x->c[j];
    const fn_samples_t *callee = &fs[c->callee];
    llvm_key(to, indent, c->offset, c->disc);
    fprintf(to, "%s:%" PRId64 "\n", callee->root.name, callsite_total(c, callee));
    for (size_t k = 0; k < callee->root.n; k++) {
      llvm_key(to, indent + 1, callee->root.s[k].offset, callee->root.s[k].disc);
      fprintf(to, "%" PRId64 "\n", scaled(callee->root.s[k].count, c, callee));
    }
  }
}

static void write_llvm(FILE *to, const fn_samples_t *fs, size_t nfs) {
  for (size_t i = 0; i < nfs; i++) {
    fprintf(to, "%s:%" PRId64 ":%" PRId64 "\n", fs[i].root.name, node_total(&fs[i].root, fs), fs[i].head);
    llvm_body(to, &fs[i].root, fs, 1);
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

/* The name table: every function that has a profile, then every function inlined somewhere. */
typedef struct {
  const char **name;
  size_t n, cap;
} names_t;

static int name_index(names_t *t, const char *name, uint32_t *idx) {
  for (size_t i = 0; i < t->n; i++)
    if (strcmp(t->name[i], name) == 0) {
      *idx = (uint32_t)i;
      return 0;
    }
  const char **slot = grow((void **)&t->name, t->n, &t->cap, sizeof *t->name);
  if (slot == NULL) return -1;
  *slot = name;
  *idx = (uint32_t)t->n++;
  return 0;
}

static int add_names(names_t *t, const node_t *x) {
  uint32_t idx;
  if (name_index(t, x->name, &idx)) return -1;
  for (size_t j = 0; j < x->nk; j++)
    if (add_names(t, x->kid[j].callee)) return -1;
  return 0;
}

/* A function record without its head count: name, positions, then each call site's callee. */
static void afdo_node(FILE *to, const node_t *x, const fn_samples_t *fs, names_t *t) {
  uint32_t idx = 0;
  (void)name_index(t, x->name, &idx); /* present: add_names put it there */
  put_word(to, idx);
  put_word(to, (uint32_t)x->n);
  put_word(to, (uint32_t)(x->nk + x->nc));
  for (size_t j = 0; j < x->n; j++) {
    put_word(to, x->s[j].offset << 16 | (x->s[j].disc & 0xffffu));
    put_word(to, 0); /* no indirect-call targets */
    put_counter(to, x->s[j].count);
  }
  for (size_t j = 0; j < x->nk; j++) { /* a copy inlined there */
    put_word(to, x->kid[j].offset << 16 | (x->kid[j].disc & 0xffffu));
    afdo_node(to, x->kid[j].callee, fs, t);
  }
  for (size_t j = 0; j < x->nc; j++) { /* a call that ran, its callee as if inlined there (one level) */
    const callsite_t *c = &x->c[j];
    const fn_samples_t *callee = &fs[c->callee];
    put_word(to, c->offset << 16 | (c->disc & 0xffffu));
    (void)name_index(t, callee->root.name, &idx);
    put_word(to, idx);
    put_word(to, (uint32_t)callee->root.n);
    put_word(to, 0);
    for (size_t k = 0; k < callee->root.n; k++) {
      put_word(to, callee->root.s[k].offset << 16 | (callee->root.s[k].disc & 0xffffu));
      put_word(to, 0);
      put_counter(to, scaled(callee->root.s[k].count, c, callee));
    }
  }
}

static int write_afdo(FILE *to, const fn_samples_t *fs, size_t nfs) {
  names_t t = {0};
  for (size_t i = 0; i < nfs; i++)
    if (add_names(&t, &fs[i].root)) {
      free(t.name);
      return -1;
    }
  put_word(to, AFDO_MAGIC);
  put_word(to, AFDO_VERSION);
  put_word(to, 0);
  put_word(to, AFDO_TAG_NAMES);
  put_word(to, 0); /* the section's length: skipped by the reader */
  put_word(to, (uint32_t)t.n);
  for (size_t i = 0; i < t.n; i++) put_string(to, t.name[i]);
  put_word(to, AFDO_TAG_FUNCS);
  put_word(to, 0);
  put_word(to, (uint32_t)nfs);
  for (size_t i = 0; i < nfs; i++) {
    put_counter(to, fs[i].head);
    afdo_node(to, &fs[i].root, fs, &t);
  }
  put_word(to, AFDO_TAG_MODULE);
  put_word(to, 0);
  put_word(to, 0); /* no modules */
  free(t.name);
  return 0;
}

static int by_callsite(const void *a, const void *b) {
  const callsite_t *x = a, *y = b;
  if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
  if (x->disc != y->disc) return x->disc < y->disc ? -1 : 1;
  return x->callee < y->callee ? -1 : x->callee > y->callee;
}

/* Each call site's callee as its index in fs (call sites to functions without samples dropped, and
 * those where the DWARF already has a copy of the callee inlined at the same place), several calls
 * from one place to one callee merged; counted into *n. Without callsites, none is kept. */
static void resolve(node_t *x, fn_samples_t *fs, size_t nfs, bool callsites, unsigned *n) {
  size_t m = 0;
  for (size_t j = 0; j < x->nc && callsites; j++) {
    size_t k = 0;
    while (k < nfs && fs[k].lo != x->c[j].callee) k++;
    if (k == nfs || fs[k].head <= 0 || fs[k].root.n == 0) continue;
    bool inlined = false;
    for (size_t i = 0; i < x->nk && !inlined; i++)
      inlined = x->kid[i].offset == x->c[j].offset && x->kid[i].disc == x->c[j].disc &&
                strcmp(x->kid[i].callee->name, fs[k].root.name) == 0;
    if (inlined) continue;
    x->c[m] = x->c[j];
    x->c[m++].callee = (uint32_t)k;
  }
  if (m) qsort(x->c, m, sizeof *x->c, by_callsite);
  size_t u = 0;
  for (size_t j = 0; j < m; j++) {
    if (u && by_callsite(&x->c[u - 1], &x->c[j]) == 0) x->c[u - 1].count += x->c[j].count;
    else x->c[u++] = x->c[j];
  }
  x->nc = u;
  *n += (unsigned)u;
  for (size_t i = 0; i < x->nk; i++) resolve(x->kid[i].callee, fs, nfs, callsites, n);
}

int sample_write(FILE *to, sample_format_t fmt, bool callsites, const pm_map_t *m, int64_t *const *counts,
                 const dl_lines_t *d, const hwprof_elf_t *e, sample_stats_t *st, char *err, size_t errlen) {
  memset(st, 0, sizeof *st);
  fn_samples_t *fs = calloc(m->nfn ? m->nfn : 1, sizeof *fs);
  size_t nfs = 0;
  int rc = fs == NULL ? -1 : 0;
  for (unsigned f = 0; f < m->nfn && !rc; f++) {
    if (!pm_profiled(&m->fn[f]) || counts[f] == NULL) {
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
    for (size_t i = 0; i < nfs; i++) resolve(&fs[i].root, fs, nfs, callsites, &st->callsites);
    if (fmt == kSampleLlvmText) write_llvm(to, fs, nfs);
    else if (write_afdo(to, fs, nfs)) rc = -1;
    if (rc) snprintf(err, errlen, "out of memory");
    else if (ferror(to)) {
      snprintf(err, errlen, "write error");
      rc = -1;
    }
  }
  for (size_t i = 0; i < nfs; i++) free_node(&fs[i].root);
  free(fs);
  return rc;
}
