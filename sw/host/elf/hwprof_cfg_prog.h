/* The host's part of the CFG layer: the functions of a linked RV32 program read through
 * sw/host/elf/hwprof_elf.h (FUNC symbols with a size in executable sections; aliases merged, overlapping
 * symbols merged into one function marked multi-entry; setjmp's kin known as such), each with its calls scanned, and on demand
 * its CFG, dominators and loops (hwprof_cfg.h) in an arena of its own. Several indirect jumps that
 * share a function's code addresses go through a dispatch node (code.dispatch set). */
#ifndef HWPROF_CFG_PROG_H
#define HWPROF_CFG_PROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwprof_cfg.h"
#include "hwprof_elf.h"

typedef struct {
  char name[64];
  const char *section; /* the name of its section (into the ELF) */
  bool multi;          /* several entry points: overlapping function symbols */
  uint32_t *entry;     /* the entry points besides code.lo (code.entry points here) */
  hwprof_cfg_code_t code;
  hwprof_cfg_func_t cfg; /* callees after hwprof_cfg_prog_read(); the rest after _build() */
  bool built;
  hwprof_arena_t arena;
} hwprof_cfg_fn_t;

typedef struct {
  hwprof_cfg_fn_t *fn; /* sorted by address, disjoint */
  unsigned nfn;
  uint32_t code_lo, code_hi; /* span of all functions */
  int *fn_of;                /* word of [code_lo, code_hi) -> function, or -1 */
  uint32_t *twice;           /* the entries of the functions that return twice (every code.twice) */
  unsigned ntwice;
} hwprof_cfg_prog_t;

/* Whether a function of this name returns twice: setjmp, _setjmp, sigsetjmp, __sigsetjmp (their
 * calls get blocks of their own, hwprof_cfg.h; the instrumenter's landing code, docs/instrumenter.md). */
bool hwprof_cfg_returns_twice(const char *name);

/* Finds the functions of e and scans their calls. e must stay alive (and unmodified in its code)
 * while p is used. Returns 0, or -1 with a one-line reason in err (p is freed then). A function
 * holding a profiling instruction is an error: the program is already instrumented. */
int hwprof_cfg_prog_read(hwprof_cfg_prog_t *p, const hwprof_elf_t *e, char *err, size_t errlen);
/* Builds function i's CFG, dominators and loops. Returns 0 (fn[i].cfg.why says whether a CFG
 * exists), -1 when out of memory. */
int hwprof_cfg_prog_build(hwprof_cfg_prog_t *p, unsigned i);
/* The function whose code holds addr (any word of it), or -1. */
int hwprof_cfg_prog_fn_at(const hwprof_cfg_prog_t *p, uint32_t addr);
void hwprof_cfg_prog_free(hwprof_cfg_prog_t *p);

#endif /* HWPROF_CFG_PROG_H */
