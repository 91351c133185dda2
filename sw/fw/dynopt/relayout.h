/* Block re-layout at run time (docs/dynopt.md, "Re-laying functions out while they run"): the
 * edge-driven optimization of seed 000 section 5. The firmware chooses a new order of a function's
 * basic blocks (the hot edge of each branch falling through, paragraph 17); this writes the
 * function's copy in that order into the code cache (codecache.h) and sends execution there.
 *
 * The copy, block by block in the new order, instruction by instruction:
 *   - a conditional branch whose taken block comes next is inverted (if the caller wants its taken
 *     edge to fall through), so that it falls through; one
 *     whose not-taken block comes next is kept; one whose neither comes next is kept and followed
 *     by a jal to its not-taken block. The profile stays that of the program's edges: an inverted
 *     branch counts with the other hint (TK and NT swapped; EITHER becomes NT with the taken edge's
 *     ID, its not-taken edge's count moving to a prof.id on the way out), and a region switch moves
 *     with its edge (its direction bit flipped, or to a prof.setoff on the way out). What an inverted
 *     branch's taken way needs besides the jump (that prof.id, that prof.setoff) is a stub placed
 *     after the next block copy that ends in an unconditional transfer;
 *   - a block that falls into a block that does not come next gets a jal to it;
 *   - jumps are kept (re-aimed, their hints kept: in mode all they count their edge), calls
 *     re-aimed (their link words kept; to the current copy of a function laid out already); an
 *     auipc whose address the next instruction completes (a call through the link register, an
 *     addi into the same register) is re-encoded with it relative to its new place, another auipc
 *     becomes lui/addi of the value it computed; a relaxed branch's island is skipped (the branch
 *     goes straight to the island's target);
 *     everything else is copied as it is (indirect jumps, returns, ecall, semihosting calls, the
 *     inserted profiling instructions with their shadow words).
 * Scheme 5B (HWPROF_RL_5B, docs/dynopt.md): a block's branch whose hints count its two edges
 * (EITHER) may instead carry the pair of Figure 5B: h, the edge the caller names hot, falls through
 * (followed by a jump if its block is not next), c is taken; the branch decrements c's counter when
 * it goes h's way (NT, c's ID, DEC), and c's way runs a stub that increments c's counter and then
 * h's (two prof.id) before its jump. Only where
 * no old version of the branch can run again: a block with a call whose return landing cannot be
 * patched (a semihosting sequence after it) keeps 5A's hints.
 *
 * Then every block start of the program's function becomes a jal x0 to the block's copy (and, in an
 * entry block whose first instruction is prof.init, the word after it, where direct calls land; and
 * the word after each call inside a block, where it returns), so that whatever runs the old code
 * (the interrupted instruction, a return from a call made before the layout, a jump table) reaches
 * the copy at the next block boundary or return. The old code stays valid: its blocks count the
 * same edges the same way (5A); a 5B branch's old versions run only from the interrupted
 * instruction on, up to their block's end, which the firmware accounts for. A function laid out again gets a new copy; the
 * previous copy's block starts are patched to the new one the same way (cache space is never used
 * again: return addresses may point into a copy).
 *
 * Traces the trace-driven optimizer placed in the same code cache: if one starts inside the
 * function (its start patched), every trace is flushed first (hwprof_cc_flush), so that the copy is
 * made of the program's own words; the traces' copies stay valid code (they count what the
 * program's code counts) and turn hot again if they still are.
 *
 * A branch followed by more of its block (a region switch inserted on its not-taken edge) is kept
 * as it is, and what follows it is copied behind it.
 *
 * Refused (nothing changed): a block start right
 * after a semihosting ebreak (the host reads those words in place), a branch or jump whose copy
 * cannot reach its destination (kHwprofCcTooFar), no room.
 *
 * Portable C11 without allocation, on the target over real memory, in the tests over an array. */
#ifndef HWPROF_DYNOPT_RELAYOUT_H
#define HWPROF_DYNOPT_RELAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "codecache.h"
#include "rv32_isa.h"

/* A basic block of the program: [lo, hi), every inserted instruction included. */
typedef struct {
  uint32_t lo, hi;
} hwprof_rl_block_t;

/* A patched word of the program: its instruction and shadow word, and the copy it jumps to. */
typedef enum {
  kHwprofRlBlockStart = 0, /* a block's first word */
  kHwprofRlInitLanding = 1, /* the word after a block's prof.init (where direct calls land) */
  kHwprofRlReturn = 2,     /* the word after a call inside a block (where it returns) */
} hwprof_rl_landing_t;
typedef struct {
  uint32_t addr, word, shadow, to;
  uint32_t landing; /* hwprof_rl_landing_t */
  uint32_t next;    /* scratch: where a return lands in the copy being placed */
} hwprof_rl_patch_t;

/* Per block, what the caller asks of its branch (in) and what the copy did (out). */
#define HWPROF_RL_INVERT 1u  /* it may be inverted so that its taken edge falls through */
#define HWPROF_RL_5B 2u         /* it should count as a scheme 5B pair ... */
#define HWPROF_RL_5B_H_TAKEN 8u /* ... whose hot edge h is its taken edge (else its not-taken edge) */
#define HWPROF_RL_5B_DONE 4u    /* out: it does */

/* A function laid out at least once: its patches are patch[first .. first + n), by address. */
typedef struct {
  uint32_t lo; /* its first block's start: the key */
  uint32_t first, n;
  uint32_t layouts;
} hwprof_rl_func_t;

typedef struct {
  hwprof_cc_t *cc;
  hwprof_rl_patch_t *patch;
  size_t patch_cap, npatch;
  hwprof_rl_func_t *func;
  size_t func_cap, nfunc;
  uint32_t *copy; /* scratch: each block's copy address (by the blocks' index), copy_cap entries */
  size_t copy_cap;
  /* statistics */
  uint32_t placed, words_out, stubs, calls;
  uint32_t trace_flushes; /* the code cache's traces flushed because one started in a function laid out */
  uint32_t refused[kHwprofCcReasons];
} hwprof_rl_t;

/* kHwprofBadArg (nothing set) if a pointer is NULL or a capacity 0. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_rl_init(hwprof_rl_t *rl, hwprof_cc_t *cc, hwprof_rl_patch_t *patch,
                                                  size_t patch_cap, hwprof_rl_func_t *func, size_t func_cap,
                                                  uint32_t *copy, size_t copy_cap);

/* Lays out the function whose blocks are blk[0..n) (by address, blk[0] its entry) in the order
 * order[0..n) (indexes into blk, each once) and sends execution to the copy; *entry gets the copy
 * of blk[0]. A block's branch is inverted when its taken block comes next and flags (NULL: every
 * block HWPROF_RL_INVERT) says so for the block; otherwise it is kept, with a jump to its not-taken
 * block if that does not come next (an inverted branch's other way pays a stub). With HWPROF_RL_5B
 * it counts as a 5B pair where it can, and HWPROF_RL_5B_DONE says where it does. Then the direct calls
 * found in callers[0..ncallers) (code ranges, the cache's included if given) that go to the
 * function's entry (or to the word after its prof.init, or to an earlier copy's) are re-aimed at
 * the copy, so that a call does not pay the patch's jump: jal, auipc+jalr and lui(+addi)+jalr
 * through the link register. A call whose first instruction has run but not its last (the stopped
 * program resumes at `resume` inside it: its auipc or lui has set the register its jalr reads) is
 * left as it is (0: no such place). Any status other than placed is counted and leaves the program
 * as it was. */
hwprof_cc_status_t hwprof_rl_place(hwprof_rl_t *rl, const hwprof_rl_block_t *blk, size_t n, const uint32_t *order,
                                   uint8_t *flags, const hwprof_rl_block_t *callers, size_t ncallers,
                                   uint32_t resume, uint32_t *entry);

/* The function laid out with blk[0].lo == lo, or NULL. */
const hwprof_rl_func_t *hwprof_rl_func_at(const hwprof_rl_t *rl, uint32_t lo);
/* Whether the word w may start a direct call (a jal with a link register, an auipc, a lui): the
 * quick test before hwprof_rl_call_target, inline for a caller that looks at many words. */
static inline bool hwprof_rl_may_call(uint32_t w) {
  const uint32_t op = rv32_opcode(w);
  return (op == RV32_OP_JAL && rv32_rd(w) != 0) || op == RV32_OP_AUIPC || op == RV32_OP_LUI;
}

/* The target of the direct call that starts at a (a jal with a link register, or an auipc or lui,
 * with an addi, and a jalr through the same link register; its words below hi), or 0: what
 * hwprof_rl_place re-aims. */
uint32_t hwprof_rl_call_target(const hwprof_cc_t *cc, uint32_t a, uint32_t hi);

#endif /* HWPROF_DYNOPT_RELAYOUT_H */
