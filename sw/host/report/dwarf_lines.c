/* DWARF line tables through libdw; see dwarf_lines.h. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "dwarf_lines.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* path without "." and ".." parts (lexically: ".." drops the part before it; at the root it stays
 * at the root; leading ".." of a relative path stay) */
static char *clean_path(const char *p) {
  const size_t n = strlen(p);
  char *out = malloc(n + 2);
  size_t *mark = malloc((n / 2 + 2) * sizeof *mark); /* where each kept part starts in out */
  bool *up = malloc((n / 2 + 2) * sizeof *up); /* ... and whether it is a ".." */
  if (out == NULL || mark == NULL || up == NULL) {
    free(out);
    free(mark);
    free(up);
    return NULL;
  }
  const bool abs = p[0] == '/';
  size_t o = 0, nm = 0;
  for (const char *s = p; *s;) {
    while (*s == '/') s++;
    const char *e = s;
    while (*e && *e != '/') e++;
    const size_t len = (size_t)(e - s);
    const bool dot = len == 1 && s[0] == '.', dotdot = len == 2 && s[0] == '.' && s[1] == '.';
    if (len == 0 || dot || (dotdot && abs && nm == 0)) {
      /* nothing to keep */
    } else if (dotdot && nm > 0 && !up[nm - 1]) {
      o = mark[--nm];
    } else {
      mark[nm] = o;
      up[nm++] = dotdot;
      if (o > 0 || abs) out[o++] = '/';
      memcpy(out + o, s, len);
      o += len;
    }
    s = e;
  }
  if (o == 0) out[o++] = abs ? '/' : '.';
  out[o] = 0;
  free(mark);
  free(up);
  return out;
}

/* path, relative ones joined to the compilation directory dir (when known) */
static int file_index(dl_lines_t *d, const char *dir, const char *path, unsigned *idx) {
  char *joined = NULL;
  if (path[0] != '/' && dir != NULL && dir[0]) {
    joined = malloc(strlen(dir) + strlen(path) + 2);
    if (joined == NULL) return -1;
    sprintf(joined, "%s/%s", dir, path);
    path = joined;
  }
  char *p = clean_path(path);
  free(joined);
  if (p == NULL) return -1;
  for (unsigned i = d->nfile; i-- > 0;) /* the most recent first: rows of one file come together */
    if (strcmp(d->file[i], p) == 0) {
      free(p);
      *idx = i;
      return 0;
    }
  if ((d->nfile & (d->nfile - 1)) == 0) { /* grow at powers of two */
    char **f = realloc(d->file, (d->nfile ? 2 * (size_t)d->nfile : 16) * sizeof *f);
    if (f == NULL) {
      free(p);
      return -1;
    }
    d->file = f;
  }
  d->file[d->nfile] = p;
  *idx = d->nfile++;
  return 0;
}

static int add_range(dl_lines_t *d, size_t *cap, uint32_t lo, uint32_t hi, unsigned file, unsigned line,
                     unsigned disc) {
  if (d->nrange == *cap) {
    *cap = *cap ? 2 * *cap : 1024;
    dl_range_t *r = realloc(d->range, *cap * sizeof *r);
    if (r == NULL) return -1;
    d->range = r;
  }
  d->range[d->nrange++] = (dl_range_t){lo, hi, file, line, disc};
  return 0;
}

/* The code of the inlined copies while reading: pieces of address ranges, each of one node. */
typedef struct {
  uint32_t lo, hi;
  int node;
  unsigned depth;
} piece_t;

typedef struct {
  size_t inl_cap;
  piece_t *piece;
  size_t npiece, piece_cap;
} inl_build_t;

/* GCC's DW_AT_GNU_discriminator (its dwarf2.def; elfutils' dwarf.h lacks it): the discriminator of
 * an inlined copy's call site */
enum { kAtGnuDiscriminator = 0x2136 };

static const char *die_name(Dwarf_Die *die) {
  Dwarf_Attribute at;
  const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &at));
  return name ? name : dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &at));
}

static unsigned die_udata(Dwarf_Die *die, unsigned attr) {
  Dwarf_Attribute at;
  Dwarf_Word w = 0;
  if (dwarf_attr(die, attr, &at) == NULL || dwarf_formudata(&at, &w) != 0 || w > UINT_MAX) return 0;
  return (unsigned)w;
}

/* The functions inlined under die (a subprogram, lexical block or inlined copy), recursively:
 * parent is the inline node they are inlined into (-1: the subprogram), depth its depth. */
static int add_inlines(dl_lines_t *d, inl_build_t *b, Dwarf_Die *die, int parent, unsigned depth) {
  Dwarf_Die child;
  if (dwarf_child(die, &child) != 0) return 0;
  do {
    const int tag = dwarf_tag(&child);
    int node = parent;
    unsigned deeper = depth;
    if (tag == DW_TAG_inlined_subroutine) {
      const char *name = die_name(&child);
      int decl = 0;
      if (name == NULL || dwarf_decl_line(&child, &decl) != 0 || decl <= 0) continue; /* no place in a profile */
      if (d->ninl == b->inl_cap) {
        b->inl_cap = b->inl_cap ? 2 * b->inl_cap : 256;
        dl_inline_t *g = realloc(d->inl, b->inl_cap * sizeof *g);
        if (g == NULL) return -1;
        d->inl = g;
      }
      char *n = strdup(name);
      if (n == NULL) return -1;
      const unsigned disc = die_udata(&child, kAtGnuDiscriminator);
      d->inl[d->ninl] = (dl_inline_t){parent, n, (unsigned)decl, die_udata(&child, DW_AT_call_line), disc};
      node = (int)d->ninl++;
      deeper = depth + 1;
      Dwarf_Addr base, lo, hi;
      for (ptrdiff_t off = 0; (off = dwarf_ranges(&child, off, &base, &lo, &hi)) > 0;) {
        if (hi <= lo || hi > (Dwarf_Addr)UINT32_MAX + 1) continue;
        if (b->npiece == b->piece_cap) {
          b->piece_cap = b->piece_cap ? 2 * b->piece_cap : 1024;
          piece_t *g = realloc(b->piece, b->piece_cap * sizeof *g);
          if (g == NULL) return -1;
          b->piece = g;
        }
        b->piece[b->npiece++] = (piece_t){(uint32_t)lo, (uint32_t)(hi - 1) + 1u, node, deeper};
      }
    }
    if (tag == DW_TAG_inlined_subroutine || tag == DW_TAG_lexical_block)
      if (add_inlines(d, b, &child, node, deeper)) return -1;
  } while (dwarf_siblingof(&child, &child) == 0);
  return 0;
}

static int by_depth(const void *a, const void *b) {
  const piece_t *x = a, *y = b;
  return x->depth < y->depth ? -1 : x->depth > y->depth;
}
static int by_addr(const void *a, const void *b) {
  const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* The pieces as segments that do not overlap, each with its innermost node: the boundaries of every
 * piece cut the address space; each piece, outermost first, paints the segments it covers. */
static int build_segments(dl_lines_t *d, inl_build_t *b) {
  if (b->npiece == 0) return 0;
  uint32_t *cut = malloc(2 * b->npiece * sizeof *cut);
  int *node = NULL;
  if (cut == NULL) return -1;
  size_t n = 0;
  for (size_t i = 0; i < b->npiece; i++) {
    cut[n++] = b->piece[i].lo;
    cut[n++] = b->piece[i].hi;
  }
  qsort(cut, n, sizeof *cut, by_addr);
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (m == 0 || cut[m - 1] != cut[i]) cut[m++] = cut[i];
  if ((node = malloc(m * sizeof *node)) == NULL) {
    free(cut);
    return -1;
  }
  for (size_t i = 0; i < m; i++) node[i] = -1;
  qsort(b->piece, b->npiece, sizeof *b->piece, by_depth);
  for (size_t i = 0; i < b->npiece; i++) {
    const uint32_t *first = bsearch(&b->piece[i].lo, cut, m, sizeof *cut, by_addr);
    for (size_t k = (size_t)(first - cut); k + 1 < m && cut[k] < b->piece[i].hi; k++) node[k] = b->piece[i].node;
  }
  size_t cap = 0;
  for (size_t k = 0; k + 1 < m; k++) cap += node[k] >= 0;
  d->iseg = malloc((cap ? cap : 1) * sizeof *d->iseg);
  for (size_t k = 0; d->iseg && k + 1 < m; k++) {
    if (node[k] < 0) continue;
    if (d->niseg && d->iseg[d->niseg - 1].hi == cut[k] && d->iseg[d->niseg - 1].node == node[k]) d->iseg[d->niseg - 1].hi = cut[k + 1];
    else d->iseg[d->niseg++] = (dl_iseg_t){cut[k], cut[k + 1], node[k]};
  }
  free(cut);
  free(node);
  return d->iseg ? 0 : -1;
}

/* The subprograms with code under die (a compilation unit or a scope), recursively. */
static int add_funcs(dl_lines_t *d, size_t *cap, const char *dir, Dwarf_Die *die, inl_build_t *b) {
  Dwarf_Die child;
  if (dwarf_child(die, &child) != 0) return 0;
  do {
    const int tag = dwarf_tag(&child);
    Dwarf_Addr lo, hi;
    if (tag == DW_TAG_subprogram && dwarf_lowpc(&child, &lo) == 0 && dwarf_highpc(&child, &hi) == 0 && hi > lo &&
        hi <= (Dwarf_Addr)UINT32_MAX + 1) {
      const char *name = die_name(&child);
      const char *file = dwarf_decl_file(&child); /* NULL with some DWARF 5 producers: see dl_read */
      int line = 0;
      unsigned fi = UINT_MAX;
      if (name != NULL && dwarf_decl_line(&child, &line) == 0 && line > 0) {
        if (d->nfunc == *cap) {
          *cap = *cap ? 2 * *cap : 256;
          dl_func_t *f = realloc(d->func, *cap * sizeof *f);
          if (f == NULL) return -1;
          d->func = f;
        }
        char *n = strdup(name);
        if (n == NULL || (file != NULL && file_index(d, dir, file, &fi))) {
          free(n);
          return -1;
        }
        d->func[d->nfunc++] = (dl_func_t){(uint32_t)lo, (uint32_t)(hi - 1) + 1u, n, fi, (unsigned)line};
        if (add_inlines(d, b, &child, -1, 0)) return -1;
      }
    } else if (tag == DW_TAG_namespace || tag == DW_TAG_lexical_block) {
      if (add_funcs(d, cap, dir, &child, b)) return -1;
    }
  } while (dwarf_siblingof(&child, &child) == 0);
  return 0;
}

static int func_by_lo(const void *a, const void *b) {
  const dl_func_t *x = a, *y = b;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int by_lo(const void *a, const void *b) {
  const dl_range_t *x = a, *y = b;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

int dl_read(dl_lines_t *d, const char *path, char *err, size_t errlen) {
  memset(d, 0, sizeof *d);
  err[0] = 0;
  const int fd = open(path, O_RDONLY);
  if (fd < 0) {
    snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    return -1;
  }
  Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
  if (dw == NULL) {
    snprintf(err, errlen, "%s: no DWARF debugging information: build it with -g", path);
    close(fd);
    return -1;
  }
  size_t cap = 0, fcap = 0, hsize;
  inl_build_t ib = {0};
  Dwarf_Off off = 0, next;
  unsigned tables = 0;
  while (!err[0] && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
    Dwarf_Die cu;
    Dwarf_Lines *lines;
    size_t n;
    if (dwarf_offdie(dw, off + hsize, &cu) != NULL && dwarf_getsrclines(&cu, &lines, &n) == 0) {
      Dwarf_Attribute at;
      const char *dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &at));
      tables++;
      for (size_t i = 0; i + 1 < n; i++) {
        Dwarf_Line *l = dwarf_onesrcline(lines, i), *nx = dwarf_onesrcline(lines, i + 1);
        Dwarf_Addr a, b;
        int line;
        bool end;
        if (dwarf_lineendsequence(l, &end) || end) continue;
        if (dwarf_lineaddr(l, &a) || dwarf_lineaddr(nx, &b) || dwarf_lineno(l, &line)) {
          snprintf(err, errlen, "%s: unreadable line table row: %s", path, dwarf_errmsg(-1));
          break;
        }
        if (b <= a || line <= 0) continue; /* a later row at the same address wins; line 0 is no line */
        const char *src = dwarf_linesrc(l, NULL, NULL);
        unsigned fi;
        if (src == NULL) continue;
        if (a > UINT32_MAX || b > (Dwarf_Addr)UINT32_MAX + 1) {
          snprintf(err, errlen, "%s: line table addresses beyond 32 bits", path);
          break;
        }
        unsigned disc = 0;
        (void)dwarf_linediscriminator(l, &disc);
        if (file_index(d, dir, src, &fi) ||
            add_range(d, &cap, (uint32_t)a, (uint32_t)(b - 1) + 1u, fi, (unsigned)line, disc)) {
          snprintf(err, errlen, "out of memory");
          break;
        }
      }
      if (!err[0] && add_funcs(d, &fcap, dir, &cu, &ib)) snprintf(err, errlen, "out of memory");
    }
    off = next;
  }
  dwarf_end(dw);
  close(fd);
  if (!err[0] && build_segments(d, &ib)) snprintf(err, errlen, "out of memory");
  free(ib.piece);
  if (!err[0] && tables == 0) snprintf(err, errlen, "%s: no DWARF line table: build it with -g", path);
  if (err[0]) {
    dl_free(d);
    return -1;
  }
  if (d->nrange) qsort(d->range, d->nrange, sizeof *d->range, by_lo);
  if (d->nfunc) qsort(d->func, d->nfunc, sizeof *d->func, func_by_lo);
  for (size_t i = 0; i < d->nfunc; i++) /* a declaration without a readable file: its entry's */
    if (d->func[i].file == UINT_MAX) {
      const dl_range_t *r = dl_find(d, d->func[i].lo);
      d->func[i].file = r ? r->file : UINT_MAX;
    }
  return 0;
}

const dl_range_t *dl_find(const dl_lines_t *d, uint32_t a) {
  size_t lo = 0, hi = d->nrange;
  while (lo < hi) { /* the last range starting at or below a */
    const size_t mid = lo + (hi - lo) / 2;
    if (d->range[mid].lo <= a)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0) return NULL;
  const dl_range_t *r = &d->range[lo - 1];
  return a < r->hi ? r : NULL;
}

int dl_inline_at(const dl_lines_t *d, uint32_t a) {
  size_t lo = 0, hi = d->niseg;
  while (lo < hi) { /* the last segment starting at or below a */
    const size_t mid = lo + (hi - lo) / 2;
    if (d->iseg[mid].lo <= a) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && a < d->iseg[lo - 1].hi ? d->iseg[lo - 1].node : -1;
}

const dl_func_t *dl_func_at(const dl_lines_t *d, uint32_t lo) {
  size_t a = 0, b = d->nfunc;
  while (a < b) {
    const size_t mid = a + (b - a) / 2;
    if (d->func[mid].lo < lo) a = mid + 1;
    else b = mid;
  }
  return a < d->nfunc && d->func[a].lo == lo ? &d->func[a] : NULL;
}

void dl_free(dl_lines_t *d) {
  for (size_t i = 0; i < d->nfunc; i++) free(d->func[i].name);
  for (size_t i = 0; i < d->ninl; i++) free(d->inl[i].name);
  free(d->inl);
  free(d->iseg);
  free(d->func);
  for (unsigned i = 0; i < d->nfile; i++) free(d->file[i]);
  free(d->file);
  free(d->range);
  memset(d, 0, sizeof *d);
}
