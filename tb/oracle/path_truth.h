/* The path profile's oracle (docs/path.md): the executed block sequence, cut from the
 * retire stream and the program's CFGs alone (no edge values, no numbering), into Ball-Larus paths
 * per function activation: a path starts where an activation starts or where a back edge (a
 * retreating edge of a depth-first search in the CFG's edge order: in a reducible function, an
 * edge to a block that dominates its source) lands, and ends at the function's return or tail call, at
 * the back edge it takes, or at the end of the run. Calls do not end a path: the callee's own
 * activation has its own, and the caller's goes on where the call returns. A return that goes
 * elsewhere than behind its call (a longjmp landing) leaves every activation whose call's stack
 * pointer is at or below the one it lands with: their paths are cut off, never finished ("open");
 * in the activation it lands in, behind a call of setjmp, the path in progress is cut off too and a
 * new one starts at the call's block (the CFG's landing block: hwprof_cfg.h).
 * Each distinct path of
 * each function is counted; the file lists them (docs/path.md, "Files").
 * The program's instructions only: a trap handler's are not followed (ev->trap). The program must
 * be linked with -Wl,--emit-relocs (the CFG layer needs its relocations). */
#ifndef HWPROF_TB_ORACLE_PATH_TRUTH_H
#define HWPROF_TB_ORACLE_PATH_TRUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hwprof_cfg_prog.h"
#include "hwprof_elf.h"
#include "ports.h"

typedef enum { kPathEndExit = 0, kPathEndBack = 1, kPathEndOpen = 2 } path_end_t;

/* A region's current hierarchical path: its items are blocks, or PATH_TRUTH_CHILD | the header
 * block of a nested region passed through as one node. */
#define PATH_TRUTH_CHILD 0x80000000u
typedef struct {
  int loop;            /* the region: a natural loop, or -1 for the function */
  uint32_t *it;
  uint32_t len, cap;
} path_frame_t;

typedef struct {
  int fn;              /* the function, or -1 (code the CFG layer has no function for) */
  uint32_t *blk;       /* the current path's blocks */
  uint32_t len, cap;
  int last;            /* the block of the last instruction, or -1 */
  path_frame_t *fr;    /* hierarchical paths: the regions the activation is in, outermost first */
  unsigned nfr, capfr;
  uint32_t ret_to;     /* where its return goes (the instruction after its call; 0: not known) */
  uint32_t sp;         /* the stack pointer at its call */
} path_act_t;

typedef struct {
  uint64_t hash, count;
  int fn;
  int region;        /* -1: a plain path; else a hierarchical path of the region headed by this block */
  uint32_t off, len; /* its blocks in pool[off .. off + len) */
  uint8_t end;       /* path_end_t */
} path_entry_t;

/* A function's back edges (the paths' cuts): the targets of block b's are dst[off[b] .. off[b + 1]);
 * and its hammock regions (sw/host/path/hammocks.h: the plan's, for a function whose loops alone
 * leave too many paths): hammock h entered at block hm_entry[h], left to hm_exit[h], directly in
 * region hm_parent[h] (-1: the function's, else a loop), its blocks those hm_member[h * nblk + b]
 * marks, found here by walking the CFG from its entry to its exit */
typedef struct {
  uint32_t *off;
  int *dst;
  unsigned nhm;
  int *hm_entry, *hm_exit, *hm_parent;
  bool *hm_member;
} path_back_t;

typedef struct {
  hwprof_elf_t elf;
  hwprof_cfg_prog_t prog;
  path_back_t *back; /* per function with a CFG */
  path_act_t *stack;
  unsigned depth, stack_cap;
  bool call_pending;   /* the last program instruction was a call: the next one starts an activation */
  bool tail_pending;   /* ... a jump out of its function: the next one replaces the activation */
  uint32_t call_ret, call_sp; /* the pending call's return address and stack pointer */
  path_entry_t *tab;
  size_t cap, used;
  uint32_t *pool;
  size_t pool_len, pool_cap;
  uint64_t activations, cut, hcut, block_entries, untracked; /* cut: plain paths; hcut: hierarchical ones */
  bool failed; /* out of memory: the file says so */
} path_truth_t;

/* Reads the program's functions and builds their CFGs; -1 with the reason in err. */
int path_truth_init(path_truth_t *t, const char *elf_path, char *err, size_t errlen);
/* One retired instruction; sp: the stack pointer (x2) after it. */
void path_truth_event(path_truth_t *t, const hwprof_retire_ev_t *ev, uint32_t sp);
/* Ends the open paths (kPathEndOpen) and writes the file; -1 if it cannot be written. */
int path_truth_finish(path_truth_t *t, FILE *out, const char *program);
void path_truth_free(path_truth_t *t);

#endif /* HWPROF_TB_ORACLE_PATH_TRUTH_H */
