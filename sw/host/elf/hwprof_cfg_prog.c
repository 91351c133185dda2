/* The functions of a program; see hwprof_cfg_prog.h. */
#include "hwprof_cfg_prog.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ERR(...)                              \
  do {                                        \
    snprintf(err, errlen, __VA_ARGS__);       \
    hwprof_cfg_prog_free(p);                  \
    return -1;                                \
  } while (0)

static int cmp_fn(const void *a, const void *b) {
  const hwprof_cfg_fn_t *x = a, *y = b;
  return x->code.lo < y->code.lo ? -1 : x->code.lo > y->code.lo;
}

bool hwprof_cfg_returns_twice(const char *name) {
  static const char *const kNames[] = {"setjmp", "_setjmp", "sigsetjmp", "__sigsetjmp"};
  for (unsigned k = 0; k < sizeof kNames / sizeof *kNames; k++)
    if (!strcmp(name, kNames[k])) return true;
  return false;
}

int hwprof_cfg_prog_read(hwprof_cfg_prog_t *p, const hwprof_elf_t *e, char *err, size_t errlen) {
  memset(p, 0, sizeof *p);
  unsigned cap = 0;
  for (unsigned i = 0; i < e->nsym; i++) {
    const hwprof_elf_symbol_t *s = &e->sym[i];
    if (s->type != 2 || s->size == 0 || s->shndx == 0 || s->shndx >= e->nsec) continue;
    const hwprof_elf_section_t *sec = &e->sec[s->shndx];
    if (!(sec->flags & HWPROF_ELF_SHF_EXEC) || !(sec->flags & HWPROF_ELF_SHF_ALLOC)) continue;
    if ((s->value | s->size) & 3u)
      ERR("function %s at 0x%08" PRIx32 ": not word aligned (compressed code is not supported)", s->name, s->value);
    if (p->nfn == cap) {
      cap = cap ? 2 * cap : 64;
      hwprof_cfg_fn_t *n = realloc(p->fn, cap * sizeof *n);
      if (n == NULL) ERR("out of memory");
      p->fn = n;
    }
    hwprof_cfg_fn_t *f = &p->fn[p->nfn++];
    memset(f, 0, sizeof *f);
    /* shared indirect jumps through a dispatch node (hwprof_cfg.h), as every profile sees them */
    f->code = (hwprof_cfg_code_t){.lo = s->value, .hi = s->value + s->size, .rel = e->rel, .nrel = e->nrel, .dispatch = true};
    snprintf(f->name, sizeof f->name, "%s", s->name);
    f->section = sec->name;
  }
  if (p->nfn == 0) ERR("no functions (FUNC symbols with a size) in executable sections");
  qsort(p->fn, p->nfn, sizeof *p->fn, cmp_fn);
  /* merge aliases and overlapping ranges (millicode with several entry points: every other start is
   * one, kept in order) */
  unsigned n = 0;
  for (unsigned i = 0; i < p->nfn; i++) {
    if (n && p->fn[i].code.lo < p->fn[n - 1].code.hi) {
      hwprof_cfg_fn_t *q = &p->fn[n - 1];
      const uint32_t at = p->fn[i].code.lo;
      if (at != q->code.lo && (q->code.nentry == 0 || q->entry[q->code.nentry - 1] != at)) {
        uint32_t *e = realloc(q->entry, (q->code.nentry + 1) * sizeof *e);
        if (e == NULL) {
          p->nfn = n;
          ERR("out of memory");
        }
        q->entry = e;
        q->entry[q->code.nentry++] = at;
        q->multi = true;
      }
      if (p->fn[i].code.hi > q->code.hi) q->code.hi = p->fn[i].code.hi;
      continue;
    }
    p->fn[n++] = p->fn[i];
  }
  p->nfn = n;
  for (unsigned i = 0; i < n; i++) p->fn[i].code.entry = p->fn[i].entry;
  if ((p->twice = malloc((n + 1) * sizeof *p->twice)) == NULL) ERR("out of memory");
  for (unsigned i = 0; i < n; i++)
    if (hwprof_cfg_returns_twice(p->fn[i].name)) p->twice[p->ntwice++] = p->fn[i].code.lo;
  for (unsigned i = 0; i < n; i++) {
    p->fn[i].code.twice = p->twice;
    p->fn[i].code.ntwice = p->ntwice;
  }
  p->code_lo = p->fn[0].code.lo;
  p->code_hi = p->fn[n - 1].code.hi;
  if (p->code_hi - p->code_lo > (64u << 20)) ERR("functions span more than 64 MiB");
  const unsigned words = (p->code_hi - p->code_lo) / 4u;
  if ((p->fn_of = malloc(words * sizeof *p->fn_of)) == NULL) ERR("out of memory");
  for (unsigned w = 0; w < words; w++) p->fn_of[w] = -1;
  for (unsigned i = 0; i < n; i++) {
    hwprof_cfg_fn_t *f = &p->fn[i];
    const uint32_t len = f->code.hi - f->code.lo;
    if ((f->code.bytes = hwprof_elf_bytes(e, f->code.lo, len)) == NULL)
      ERR("function %s: no contents at 0x%08" PRIx32, f->name, f->code.lo);
    for (uint32_t w = 0; w < len / 4u; w++) p->fn_of[(f->code.lo - p->code_lo) / 4u + w] = (int)i;
    f->arena.size = hwprof_cfg_need(&f->code);
    if ((f->arena.base = malloc(f->arena.size)) == NULL) ERR("out of memory");
    if (hwprof_cfg_scan(&f->cfg, &f->code, &f->arena)) ERR("internal: %s: arena too small", f->name);
    if (f->cfg.why == HWPROF_CFG_PROFILED)
      ERR("%s: a profiling instruction at 0x%08" PRIx32 ": the program is already instrumented", f->name,
          f->cfg.why_arg);
  }
  return 0;
}

int hwprof_cfg_prog_build(hwprof_cfg_prog_t *p, unsigned i) {
  hwprof_cfg_fn_t *f = &p->fn[i];
  if (f->built) return 0;
  if (hwprof_cfg_build(&f->cfg, &f->code, &f->arena)) return -1;
  if (f->cfg.why == HWPROF_CFG_OK && hwprof_cfg_loops(&f->cfg, &f->arena)) return -1;
  f->built = true;
  return 0;
}

int hwprof_cfg_prog_fn_at(const hwprof_cfg_prog_t *p, uint32_t addr) {
  if (addr < p->code_lo || addr >= p->code_hi) return -1;
  return p->fn_of[(addr - p->code_lo) / 4u];
}

void hwprof_cfg_prog_free(hwprof_cfg_prog_t *p) {
  for (unsigned i = 0; i < p->nfn; i++) {
    free(p->fn[i].arena.base);
    free(p->fn[i].entry);
  }
  free(p->twice);
  free(p->fn);
  free(p->fn_of);
  memset(p, 0, sizeof *p);
}
