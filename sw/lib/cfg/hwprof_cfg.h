/* The CFG layer: what a linked RV32 function's control flow is. Per function (an address range of
 * code plus the program's relocations): how each instruction transfers control, the basic blocks,
 * the edges between them with their kinds (the edges of seed 000's flow equations, two virtual kinds
 * included), the direct callees, the dominator tree and the natural loops with their nesting.
 *
 * The instrumenter's policies (sw/host/instr/) build on it; so will path numbering, region nesting and
 * block re-layout at run time. This file and hwprof_cfg.c use no heap and no stdio: memory comes
 * from a caller's arena sized by hwprof_cfg_need(), so the same code builds for the RV32 target
 * (the firmware) and for the host. Finding the functions of an ELF file is the host's part:
 * hwprof_cfg_prog.h. */
#ifndef HWPROF_CFG_H
#define HWPROF_CFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rv32_reloc.h"

/* ---------------------------------------------------------------- the arena */

/* A bump allocator over caller memory; allocations are 8-byte aligned and zeroed. */
typedef struct {
  uint8_t *base;
  size_t size, used;
} hwprof_arena_t;

void *hwprof_arena_alloc(hwprof_arena_t *a, size_t n);

/* ---------------------------------------------------------------- instructions */

typedef enum {
  HWPROF_CF_NONE,     /* falls through */
  HWPROF_CF_BRANCH,   /* conditional branch */
  HWPROF_CF_JUMP,     /* jal x0: jump (inside the function) or tail call (outside) */
  HWPROF_CF_CALL,     /* jal/jalr with a link register */
  HWPROF_CF_RET,      /* jalr x0, 0(ra|t0) */
  HWPROF_CF_TAIL,     /* jalr x0 of an auipc/jalr call pair (a tail call) */
  HWPROF_CF_INDIRECT, /* any other jalr x0 (switch tables, computed gotos, tail calls through a register) */
  HWPROF_CF_ENV,      /* ecall, ebreak: may not come back */
  HWPROF_CF_MRET,     /* return from a trap */
  HWPROF_CF_PROF      /* a profiling instruction (custom-1) */
} hwprof_cf_t;

/* A function's code: the address range [lo, hi) (word aligned), its bytes (little-endian words),
 * and the program's relocations sorted by address (the instructions that form call pairs and the
 * code addresses the program takes are told by them). */
typedef struct {
  uint32_t lo, hi;
  const uint8_t *bytes;
  const rv32_reloc_t *rel;
  unsigned nrel;
  /* Several indirect jumps sharing the function's code addresses (a computed-goto dispatch, merged
   * switch tables): false, no CFG (HWPROF_CFG_INDIRECTS); true, a dispatch node (see
   * hwprof_cfg_build()). */
  bool dispatch;
  /* Entry points besides lo (millicode: overlapping symbols of one piece of code), in increasing
   * order, each a word in (lo, hi); each starts a block and has a virtual entry edge of its own. */
  const uint32_t *entry;
  unsigned nentry;
  /* The entry addresses of the program's functions that return twice (setjmp and its kin), in any
   * order. A direct call of one (with its auipc, for a pair) is a block of its own, which the call
   * never leaves for good (no virtual exit: the first return always comes) and which has a virtual
   * entry edge: the later returns, a longjmp landing behind the call. */
  const uint32_t *twice;
  unsigned ntwice;
} hwprof_cfg_code_t;

uint32_t hwprof_cfg_word(const hwprof_cfg_code_t *c, uint32_t addr);
/* What the instruction x at pc does to control flow; *target gets the target of a direct transfer
 * (and of a call pair's jalr), 0 otherwise. */
/* The first word of the direct call at pc (its auipc, for a pair) when it calls a function that
 * returns twice (c->twice), else 0. */
uint32_t hwprof_cfg_twice_call_at(const hwprof_cfg_code_t *c, uint32_t pc);
hwprof_cf_t hwprof_cfg_classify(const hwprof_cfg_code_t *c, uint32_t pc, uint32_t x, uint32_t *target);

/* ---------------------------------------------------------------- blocks and edges */

/* Edge kinds. Real edges first; the two virtual kinds only close the flow equations. */
typedef enum {
  HWPROF_CFG_TAKEN = 0,     /* a conditional branch's taken edge */
  HWPROF_CFG_NOT_TAKEN,     /* its fall-through edge */
  HWPROF_CFG_JUMP,          /* an unconditional jump inside the function */
  HWPROF_CFG_FALL,          /* a block without a transfer falling into the next block */
  HWPROF_CFG_INDIRECT,      /* an indirect jump (switch) to one of its targets */
  HWPROF_CFG_RETURN,        /* a return (ret, mret) to the caller: to EXIT */
  HWPROF_CFG_TAIL,          /* a jump or indirect tail call to another function (an auipc/jalr pair,
                               or any jalr x0 of a function that takes no code address of its own): to EXIT */
  HWPROF_CFG_FALL_OUT,      /* the last block falling past the end of the function: to EXIT */
  HWPROF_CFG_VIRTUAL_EXIT,  /* a block with a call or an environment call may leave and never come back */
  HWPROF_CFG_VIRTUAL_ENTRY, /* EXIT -> an entry block: the function's invocations (there) */
  HWPROF_CFG_DISPATCH,      /* the dispatch node to one of the function's code addresses, or to EXIT (a
                               real edge, numbered last so the kinds before it keep their numbers) */
  HWPROF_CFG_NKINDS
} hwprof_cfg_kind_t;

#define HWPROF_CFG_EXIT (-1) /* an edge's dst (or a virtual entry edge's src) */

extern const char *const hwprof_cfg_kind_names[HWPROF_CFG_NKINDS];
static inline bool hwprof_cfg_is_virtual(hwprof_cfg_kind_t k) {
  return k == HWPROF_CFG_VIRTUAL_EXIT || k == HWPROF_CFG_VIRTUAL_ENTRY;
}

typedef struct {
  uint32_t start, end; /* [start, end) */
  bool landing;        /* a call of a function that returns twice: longjmps land behind it */
} hwprof_cfg_block_t;

typedef struct {
  hwprof_cfg_kind_t kind;
  int src, dst; /* block indexes, or HWPROF_CFG_EXIT */
} hwprof_cfg_edge_t;

/* Why a function has no CFG; each text takes one argument (an address or a count). */
typedef enum {
  HWPROF_CFG_OK = 0,
  HWPROF_CFG_PROFILED,        /* a profiling instruction: the program is already instrumented */
  HWPROF_CFG_BRANCH_LEAVES,   /* a conditional branch to another function */
  HWPROF_CFG_INDIRECTS,       /* several indirect jumps and code addresses taken inside the function */
  HWPROF_CFG_TAKEN_ADDR,      /* a code address taken inside a function without an indirect jump */
  HWPROF_CFG_MISALIGNED,      /* a misaligned code address taken */
  HWPROF_CFG_FALLS_OFF,       /* a branch whose fall-through is past the end */
  HWPROF_CFG_NWHY
} hwprof_cfg_why_t;

/* printf formats, one uint32_t argument each. */
extern const char *const hwprof_cfg_why_text[HWPROF_CFG_NWHY];

/* A natural loop: the blocks that reach one of the header's back edges without passing the header. */
typedef struct {
  int header;
  int parent; /* the innermost loop around this one, or -1 */
  unsigned depth; /* 1 for an outermost loop */
  unsigned nblocks;
} hwprof_cfg_loop_t;

typedef struct {
  uint32_t lo, hi;
  /* from hwprof_cfg_scan(): direct call targets, whether there is an indirect call */
  uint32_t *callee;
  unsigned ncallee;
  bool indirect_call;
  /* from hwprof_cfg_build() */
  hwprof_cfg_why_t why;
  uint32_t why_arg;
  hwprof_cfg_block_t *blk;
  unsigned nblk;
  int dispatch; /* the dispatch node's block (the last, empty: [hi, hi)), or -1 */
  hwprof_cfg_edge_t *edge;
  unsigned nedge;
  int *blk_of; /* word index ((addr - lo) / 4) -> block */
  /* from hwprof_cfg_loops(); blocks not reachable from the entry have idom -1 */
  int *idom;     /* immediate dominator; the entry block's is itself */
  hwprof_cfg_loop_t *loop;
  unsigned nloop;
  int *loop_of;  /* block -> innermost loop, or -1 */
  unsigned irreducible; /* retreating edges whose target does not dominate their source */
} hwprof_cfg_func_t;

/* Arena bytes that scan, build and loops together may need for the function c. */
size_t hwprof_cfg_need(const hwprof_cfg_code_t *c);
/* The calls of c (direct targets, indirect calls). Returns 0; -1 when the arena is too small.
 * f->why is HWPROF_CFG_PROFILED when c holds a profiling instruction. */
int hwprof_cfg_scan(hwprof_cfg_func_t *f, const hwprof_cfg_code_t *c, hwprof_arena_t *a);
/* Blocks and edges. Returns 0 (f->why says whether the CFG exists), -1 when the arena is too small.
 * Blocks start at the entry (and every other entry point, each with a virtual entry edge, in order
 * after the first's), at every branch or jump target, after every transfer, and at every
 * code address the program takes inside the function (the targets of its one indirect jump). In a
 * function that takes no code address of its own, every indirect jump is a tail call (to EXIT).
 * Several indirect jumps in a function that takes code addresses (c->dispatch set) each go to one
 * dispatch node, an empty block after the others, which goes to every taken address and to EXIT
 * (any of them may be a tail call): a superset of the real edges, whose counts the jumps' and the
 * targets' counts determine (the count of one jump to one target is a path through the node). */
int hwprof_cfg_build(hwprof_cfg_func_t *f, const hwprof_cfg_code_t *c, hwprof_arena_t *a);
/* Dominators (Cooper, Harvey and Kennedy's iteration over reverse postorder, real edges only) and
 * natural loops with their nesting. Needs a built CFG. Returns 0, -1 when the arena is too small. */
int hwprof_cfg_loops(hwprof_cfg_func_t *f, hwprof_arena_t *a);
/* Whether block a dominates block b (both reachable). */
bool hwprof_cfg_dominates(const hwprof_cfg_func_t *f, int a, int b);
/* Whether block b belongs to loop l (or to a loop nested in it). */
bool hwprof_cfg_in_loop(const hwprof_cfg_func_t *f, unsigned l, int b);

#endif /* HWPROF_CFG_H */
