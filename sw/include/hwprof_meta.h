/* Run-time metadata of an instrumented program (docs/dynopt.md, "What the optimizer knows at run
 * time"): the instrumenter's map in binary, loaded with the program, for the firmware that runs
 * inside it (the dynamic optimizer). The instrumenter writes it (sw/host/profmap/meta_blob.c,
 * pm_meta_blob) when the program defines the 32-bit word `hwprof_meta`, in an extra loadable segment
 * whose address it stores in that word. Its reader (below, sw/lib/meta.c) is portable C11 without
 * allocation: the firmware opens the blob and checks each function it uses; the instrumenter checks
 * the whole blob it writes.
 *
 * Little-endian 32-bit words, every record a whole number of words:
 *   header    hwprof_meta_header_t
 *   functions hwprof_meta_func_t[nfunc]   (in the map's order)
 *   blocks    hwprof_meta_block_t[nblock] (each function's blocks together, in its order)
 *   edges     hwprof_meta_edge_t[nedge]   (each function's edges together, in its order)
 *   branches  hwprof_meta_branch_t[nbranch] (every conditional branch whose two edges are counted,
 *                                           by function)
 * The fields mean what the map's do (docs/instrumenter.md, "The map"). */
#ifndef HWPROF_META_H
#define HWPROF_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwprof_result.h"

#define HWPROF_META_MAGIC UINT32_C(0x444d5748) /* "HWMD" */
#define HWPROF_META_VERSION 3u /* 2: blocks carry new_end; 3: the code's end, each function's branches */
#define HWPROF_META_NONE UINT32_C(0xffffffff) /* no counter; the EXIT block */
#define HWPROF_META_SYMBOL "hwprof_meta"       /* the word the instrumenter fills with the blob's address */

typedef struct {
  uint32_t magic, version;
  uint32_t nfunc, nblock, nedge;
  uint32_t counters_at, total_counters;
  uint32_t cnt_bytes; /* bytes per counter in memory */
  uint32_t k;         /* bits of a relative profile ID */
  uint32_t mode;      /* 0 minimal, 1 all */
  uint32_t nbranch;
  uint32_t code_end;  /* where the instrumented program's code ends (the map's text_hi) */
} hwprof_meta_header_t;

typedef struct {
  uint32_t lo, hi;    /* original address range */
  uint32_t new_entry; /* instrumented program */
  uint32_t base;      /* counter area (0: not instrumented) */
  uint32_t ncounters, nregions;
  uint32_t first_block, nblocks; /* into the blocks (0 blocks: not instrumented) */
  uint32_t first_edge, nedges;
  uint32_t first_branch, nbranches; /* into the branches */
} hwprof_meta_func_t;

typedef struct {
  uint32_t start, end, new_start; /* original [start, end), and where it is now ... */
  uint32_t new_end;               /* ... up to here, what is inserted after its last instruction included
                                     (0: not known; such a function is not re-laid at run time) */
  uint32_t region;
  uint32_t counter, term_counter; /* function-relative counter indexes, or HWPROF_META_NONE */
} hwprof_meta_block_t;

typedef struct {
  uint32_t kind;     /* hwprof_cfg_kind_t: 0 taken, 1 not taken, 2 jump, 3 fall, ... */
  uint32_t src, dst; /* function-relative block indexes; dst HWPROF_META_NONE: EXIT */
  uint32_t term_new, dst_new;
  uint32_t counter;  /* function-relative counter index, or HWPROF_META_NONE (derived) */
} hwprof_meta_edge_t;

/* A conditional branch whose taken and not-taken edges both have counters (the dynamic optimizer's
 * unit of layout). */
typedef struct {
  uint32_t func;                /* function index */
  uint32_t taken, not_taken;    /* the two edges: function-relative edge indexes */
} hwprof_meta_branch_t;

/* The reader: views into the blob, which the program image holds. */
typedef struct {
  const hwprof_meta_header_t *hdr;
  const hwprof_meta_func_t *fn;
  const hwprof_meta_block_t *blk;
  const hwprof_meta_edge_t *edge;
  const hwprof_meta_branch_t *branch;
} hwprof_meta_t;

/* Opens the blob of bytes bytes at blob (word aligned): its magic, version and sizes, and that its
 * tables fit in it. O(1): a function's own records are checked by hwprof_meta_check_func before
 * they are used (the firmware checks only the functions that run), and the instrumenter checks the
 * whole blob when it writes it (hwprof_meta_check_all). kHwprofBadArg (m untouched) when the header
 * is not a consistent one; kHwprofNoDevice when blob is NULL (the program was not instrumented with
 * metadata). */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_meta_open(hwprof_meta_t *m, const void *blob, size_t bytes);

/* Whether function f's record stays inside the tables (its blocks, edges, branches and counter
 * area): O(1), what reading one of its edges needs. */
bool hwprof_meta_func_fits(const hwprof_meta_t *m, uint32_t f);

/* Checks every record of function f: its record fits, each block's and edge's indexes are inside f
 * (blocks, counters), each of its branch records names f and a counted taken and a counted not-taken
 * edge out of one block. kHwprofBadArg if not (f is then not to be used). */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_meta_check_func(const hwprof_meta_t *m, uint32_t f);

/* Checks every function (hwprof_meta_check_func), and that their branch ranges follow one another
 * through the branch table: what the instrumenter runs on the blob it writes, and the tests. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_meta_check_all(const hwprof_meta_t *m);

/* Where the instrumented program's code ends (the header's code_end). */
static inline uint32_t hwprof_meta_code_end(const hwprof_meta_t *m) { return m->hdr->code_end; }

/* The counter's address in memory (function f's counter index i). */
static inline uint32_t hwprof_meta_counter_addr(const hwprof_meta_t *m, uint32_t f, uint32_t i) {
  return m->fn[f].base + i * m->hdr->cnt_bytes;
}

#endif /* HWPROF_META_H */
