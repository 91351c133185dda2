/* The instrumenter's map and what tools do with it (docs/instrumenter.md): reading and writing the
 * map file, turning the counters read back from the hardware into a per-function edge profile
 * (derived edges computed from the measured ones by flow conservation), counting the exact edge
 * profile from a retire-event stream (the independent truth), and writing and comparing profile
 * files. Host only. */
#ifndef HWPROF_PROFMAP_H
#define HWPROF_PROFMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hwprof_cfg.h" /* edge kinds, HWPROF_CFG_EXIT */

#define PM_NONE (-1)         /* no counter */
#define PM_ANY UINT32_C(0)   /* dst_new of an edge to EXIT: any next pc */
/* The reason a start-up or trap function (section .init) is left out: coverage figures leave that
 * code out ("outside start-up code"). */
#define PM_WHY_STARTUP "start-up and trap code (.init)"

typedef struct {
  uint32_t start, end; /* original addresses [start, end) */
  uint32_t new_start;  /* where the block (its inserted head included) is in the instrumented program */
  uint32_t new_end;    /* its end there, the tail inserted after its last instruction included (0: not
                          known, as in a map read from a file: the text format does not carry it) */
  int region;
  int counter;      /* block counter (prof.id with bhint ALL at the head): in-flow, or PM_NONE */
  int term_counter; /* counter carried by the block's last instruction (bhint ALL on an indirect
                       jump): executions of it = the block's real out-edges, or PM_NONE */
} pm_block_t;

typedef struct {
  hwprof_cfg_kind_t kind;
  int src, dst;       /* block indexes; HWPROF_CFG_EXIT */
  uint32_t term_new;  /* address of the last instruction before the edge, instrumented program (0: virtual,
                         or a fall edge whose block ends in a call: a return to dst_new takes it) */
  uint32_t dst_new;   /* the next pc the edge leads to, or PM_ANY */
  int counter;        /* function-relative counter index, or PM_NONE (derived) */
} pm_edge_t;

/* What one entry of a derived function counts: a call into it at the head of a caller's block (the
 * call runs each time the block is entered: nothing before it in the block can leave), or a caller's
 * tail-call edge that jumps to it. */
typedef struct {
  int entry;      /* the derived function's virtual entry edge */
  unsigned fn;    /* the caller: an instrumented function of the map */
  int block;      /* the caller's block whose in-flow counts the calls, or PM_NONE */
  int edge;       /* the caller's edge whose count counts the jumps, or PM_NONE */
} pm_source_t;

typedef struct {
  char name[64];
  uint32_t lo, hi;    /* original address range */
  uint32_t new_entry; /* instrumented program */
  uint32_t base;      /* counter area */
  unsigned ncounters, nregions;
  bool instrumented;
  /* Not instrumented, yet profiled: code without a decision of its own (millicode: several entry
   * points into straight-line code) whose edge counts follow from how often each entry is reached,
   * which its callers' profiles say (src); it has blocks and edges, no counters. */
  bool derived;
  pm_source_t *src;
  unsigned nsrc;
  char why[160];      /* why not (neither instrumented nor derived) */
  pm_block_t *blk;
  unsigned nblk;
  int dispatch;       /* the dispatch node (sw/lib/cfg/hwprof_cfg.h): the empty block [hi, hi), or -1 */
  pm_edge_t *edge;
  unsigned nedge;
} pm_func_t;

typedef struct pm_map {
  char program[256];
  char mode[16];
  unsigned k;
  unsigned cnt_bytes;
  uint32_t counters_at;
  unsigned total_counters;
  uint32_t text_lo, text_hi; /* the instrumented program's code [text_lo, text_hi): every function's
                                copy, in the map's order (0, 0: not known, a map without a text line) */
  pm_func_t *fn;
  unsigned nfn;
} pm_map_t;


/* Whether f has an edge profile: its own counters, or derived from its callers'. */
static inline bool pm_profiled(const pm_func_t *f) { return f->instrumented || f->derived; }
/* Whether edge e of f is the way longjmp landings come in (the block of a call of setjmp:
 * hwprof_cfg.h): a virtual entry edge into a block other than the entry, in a function with one
 * entry point (a derived function's other entry edges are its entries). */
static inline bool pm_landing_edge(const pm_func_t *f, unsigned e) {
  return f->edge[e].kind == HWPROF_CFG_VIRTUAL_ENTRY && f->edge[e].dst > 0 && !f->derived;
}

int pm_write(const pm_map_t *m, FILE *to);
/* The map in the binary form the firmware reads at run time (sw/include/hwprof_meta.h): a malloc'd
 * array of *nwords words, checked whole with hwprof_meta_check_all. Returns 0, or -1 (out of memory,
 * or a blob that fails its check). */
int pm_meta_blob(const pm_map_t *m, uint32_t **words, size_t *nwords);
/* Returns 0, or -1 with a one-line reason naming the file and line in err. */
int pm_read(pm_map_t *m, const char *path, char *err, size_t errlen);
void pm_free(pm_map_t *m);

/* Whether every edge of f follows from its counters (flow conservation). */
bool pm_solvable(const pm_func_t *f);
/* Edge counts (counts[f->nedge]) from the function's counters. Returns 0, or -1 with the reason in
 * why (unsolvable, or counters that contradict each other). */
int pm_derive(const pm_func_t *f, const uint64_t *counters, int64_t *counts, char *why, size_t whylen);
/* The same for counters that wrapped: each counter holds its count modulo 2^bits (1..63), and so do
 * the edge counts derived (each in [0, 2^bits)); counters contradict each other when flow is not
 * conserved modulo 2^bits. */
int pm_derive_mod(const pm_func_t *f, const uint64_t *counters, unsigned bits, int64_t *counts, char *why,
                  size_t whylen);

/* Whether every edge of a derived function follows from the counts of its entries. */
bool pm_solvable_entries(const pm_func_t *f);
/* A derived function's edge counts (counts[m->fn[f].nedge]) from its callers' (rows[g] for each
 * caller g, derived first; modulo 2^bits when bits is 1..63, exact when 0). Returns 0, or -1 with
 * the reason in why. */
int pm_derive_entries(const pm_map_t *m, unsigned f, int64_t *const *rows, unsigned bits, int64_t *counts, char *why,
                      size_t whylen);

/* counts[f][e] for every profiled function (NULL rows are skipped). */
int pm_write_profile(FILE *to, const pm_map_t *m, int64_t *const *counts);
/* Reads a profile file written for map m (by pm_write_profile): *counts gets a row counts[f][e] for
 * every function of the file (NULL for the others; the virtual entry edges hold the function's
 * entries, other virtual edges 0). Every line must name a profiled function of m and one of
 * its edges, and each function given must have all its edges. Returns 0, or -1 with a one-line
 * reason naming the file and line in err (nothing allocated). */
int pm_read_profile(const pm_map_t *m, const char *path, int64_t ***counts, char *err, size_t errlen);
void pm_free_counts(const pm_map_t *m, int64_t **counts);
/* Compares two profile files edge by edge: prints the first differences to `to`, returns the
 * number of differing or missing edges (and the edges compared), or -1 with err on a bad file. */
long pm_compare_profiles(const char *a, const char *b, FILE *to, long *edges, char *err, size_t errlen);

#endif /* HWPROF_PROFMAP_H */
