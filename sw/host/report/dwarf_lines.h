/* Source lines of a program's code from its DWARF (elfutils' libdw): which file, line and
 * discriminator each instruction address belongs to, and where each function is declared. Host
 * only. */
#ifndef HWPROF_DWARF_LINES_H
#define HWPROF_DWARF_LINES_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint32_t lo, hi; /* addresses [lo, hi) */
  unsigned file;   /* index into files */
  unsigned line;   /* >= 1 */
  unsigned disc;   /* the row's discriminator (0: none) */
} dl_range_t;

typedef struct {
  uint32_t lo, hi;    /* the function's code [lo, hi) */
  char *name;         /* its linkage name, or its name */
  unsigned file;      /* where it is declared: index into files (UINT_MAX: not known) */
  unsigned decl_line;
} dl_func_t;

/* A function inlined somewhere (DW_TAG_inlined_subroutine): one node of an inline tree. */
typedef struct {
  int parent;         /* the inline node it was inlined into, or -1: straight into the subprogram */
  char *name;         /* the inlined function's linkage name, or its name */
  unsigned decl_line; /* where the inlined function is declared */
  unsigned call_line; /* the call it replaces: its line ... */
  unsigned call_disc; /* ... and discriminator (0: none) */
} dl_inline_t;

/* The innermost inline node of the code [lo, hi). */
typedef struct {
  uint32_t lo, hi;
  int node;
} dl_iseg_t;

typedef struct {
  dl_range_t *range;  /* sorted by lo, not overlapping */
  size_t nrange;
  char **file;        /* source paths, made absolute and without "." and ".." parts */
  unsigned nfile;
  dl_func_t *func;    /* the subprograms with code (DW_TAG_subprogram with a low pc), sorted by lo */
  size_t nfunc;
  dl_inline_t *inl;   /* every inlined copy of a function in those subprograms */
  size_t ninl;
  dl_iseg_t *iseg;    /* sorted by lo, not overlapping: where code of an inlined copy lies */
  size_t niseg;
} dl_lines_t;

/* Reads the line table of the ELF file at path. An address takes the line of the last row at or
 * below it in its sequence (of several rows at one address, the last); rows of line 0 (code the
 * compiler made up) give no range. Also reads where each subprogram with code is declared, and
 * the functions inlined into it (their nesting, call sites and code ranges). Returns
 * 0, or -1 with a one-line reason naming the file in err (a file without a line table is an
 * error: build with -g). */
int dl_read(dl_lines_t *d, const char *path, char *err, size_t errlen);
/* The range holding address a, or NULL. */
const dl_range_t *dl_find(const dl_lines_t *d, uint32_t a);
/* The innermost inlined copy holding address a (an index into inl), or -1 (the subprogram's own
 * code). Its parents lead out to the subprogram. */
int dl_inline_at(const dl_lines_t *d, uint32_t a);
/* The subprogram whose code starts at lo, or NULL. */
const dl_func_t *dl_func_at(const dl_lines_t *d, uint32_t lo);
void dl_free(dl_lines_t *d);

#endif /* HWPROF_DWARF_LINES_H */
