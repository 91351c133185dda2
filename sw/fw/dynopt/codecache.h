/* The code cache of the dynamic optimizer (docs/dynopt.md, "The code cache"): an area of
 * executable memory into which firmware writes re-laid copies of the running program's code, and
 * the patches that send execution there. One code cache serves both optimizers: a hot trace of the
 * trace controller (seed 002, Figure 9 steps 850-858) is placed here straight-line, and a phase
 * transition (seed 000, section 5) may flush what the new phase made cold.
 *
 * Placing a trace: its instructions (as trace reconstruction lists them) are copied in order, so
 * that the recorded path falls through:
 *   - a conditional branch inside the trace whose recorded way was taken is inverted, its target
 *     becoming the original fall-through; one that fell through keeps its condition; either way the
 *     way off the trace leaves through an exit stub (jal x0 back to the original code) placed after
 *     the trace's body, as a branch reaches only 4 KiB;
 *   - a direct jump inside the trace is dropped (its target is the next copied instruction); a
 *     direct call becomes lui/addi of its return address into its link register: the copy of the
 *     trace placed at the original return address if there is one (the return then goes straight
 *     there), else that address (so are the calls below);
 *   - auipc becomes lui/addi of the value it computed at its original address;
 *   - the last instruction: a conditional branch keeps both ways (taken to a stub, or straight to a
 *     copy in reach, then a jal for the fall-through); a jalr right after the auipc that set its
 *     base (an unrelaxed call or tail call) becomes a jal to its target (and lui/addi of its return
 *     address); another indirect jump with rd = x0 (a return) is copied; an indirect call becomes
 *     lui/addi of its return address and a jalr x0 (if rd is not its base register); anything else
 *     (ecall, ebreak, mret, a semihosting call, an indirect call through its own link register) is
 *     left to the original code: the copy ends with a jal x0 to it;
 *   - an instruction that is another placed trace's start (its patch) ends the trace: with the
 *     cache below the code the patch is a backward jump, which ends a trace in the hardware, so a
 *     trace rebuilt from the running program stops there. That trace's copy (up to
 *     HWPROF_CC_APPEND_MAX words) is appended, re-aimed to its new place (its branches and jumps
 *     keep their destinations), so that a loop cut into traces by the hardware does not pay a
 *     jump between them; a longer one is jumped to;
 *   - every way that leads to the trace's own start goes to the copy's entry instead (a loop stays
 *     in the cache), and a way to another placed trace's start straight to that trace's copy; a
 *     jump that leaves for original code is re-aimed at the copy of a trace placed there later
 *     (traces linked, as Dynamo links fragments).
 * Trampolines (optional): an exit to original code goes through a jal x0 in an area above the code,
 * so that it arrives by a backward jump. With the cache below the code, both ways between the two
 * are then backward jumps, and the trace controller ends a trace at each (seed 002): the traces
 * that run in the cache start there (the address filter drops them), and a trace that leaves the
 * cache starts where it lands in the original code, so the paths off a placed trace turn into
 * traces of their own.
 * Then the word at the trace's start becomes jal x0 to the copy's entry (the original word is kept
 * for flush and for reading the program as it was). Shadow words (the profiling bits of the
 * profiling ISA extension) are copied with their instructions; a trace whose change of an
 * instruction would change what its shadow word does (an inverted or dropped branch or jump, a
 * call, with a non-zero shadow word) is refused.
 *
 * Self-modifying code: the CPU model fetches every instruction from memory, so a word written by
 * a store is what executes next (docs/cpu-model.md); a core with an instruction cache would need
 * fence.i after the writes. Everything here runs while the program is stopped (in a trap handler).
 *
 * Portable C11 without allocation: the firmware runs it on the target over real memory, the tests
 * on the host over an array. */
#ifndef HWPROF_DYNOPT_CODECACHE_H
#define HWPROF_DYNOPT_CODECACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwprof_result.h"

#define HWPROF_CC_APPEND_MAX 64u /* the longest copy appended to a trace that runs into it */

/* A patched word: the original instruction and shadow word at addr. */
typedef struct {
  uint32_t addr, word, shadow;
  uint32_t entry, end; /* its copy in the cache: [entry, end), then the copy's exit stubs */
} hwprof_cc_patch_t;

/* A jump in the cache that leaves it for original address `to` (directly or through a trampoline):
 * re-aimed at the copy of a trace placed later at `to` (traces linked), and so is the conditional
 * branch whose stub it is, if any, when the copy is in its reach. Or (ret) the lui and addi at `at`
 * that load a copied call's return address `to` into its link register: aimed at the copy of a
 * trace placed later at `to`, so that the return goes straight there rather than through its patch. */
typedef struct {
  uint32_t at, to;
  uint32_t branch; /* the branch that jumps to this stub, or 0 */
  bool ret;
} hwprof_cc_exit_t;

/* Why a trace was not placed (nothing changed). */
typedef enum {
  kHwprofCcPlaced = 0,
  kHwprofCcNoRoom,        /* the cache, the trampolines, the patch or the exit table is full */
  kHwprofCcTooFar,        /* a branch or jump offset does not fit its field */
  kHwprofCcNotCode,       /* an address outside the program's code */
  kHwprofCcAlreadyPlaced, /* the start is already patched */
  kHwprofCcFirstInsn,     /* the first instruction cannot run from the cache (the copy would only jump back) */
  kHwprofCcProfiled,      /* an instruction the copy changes carries profiling bits in its shadow word */
  kHwprofCcBadTrace,      /* the listed addresses are not a path of the code */
  kHwprofCcCannotMove,    /* re-layout: a block the copy cannot reproduce (docs/dynopt.md) */
  kHwprofCcNoGain,        /* the copy would remove fewer taken transfers than min_gain */
  kHwprofCcReasons
} hwprof_cc_status_t;

/* Where things are: every address word aligned, the three areas apart, all inside the memory. */
typedef struct {
  uint32_t mem_base;          /* memory as the program sees it: the words of [mem_base, mem_base + 4 * mem_words) */
  uint32_t *mem;
  uint32_t mem_words;
  uint32_t *shadow;           /* their shadow words, or NULL (a program without profiling bits) */
  uint32_t code_lo, code_hi;  /* the program's code: traces are taken from [code_lo, code_hi) */
  uint32_t lo, hi;            /* the cache: copies and their exit stubs */
  uint32_t tramp_lo, tramp_hi; /* trampolines (empty: exits jump to the code directly) */
  hwprof_cc_patch_t *patch;   /* storage for the patches ... */
  size_t patch_cap;
  hwprof_cc_exit_t *exit;     /* ... and the exits */
  size_t exit_cap;
  uint32_t min_gain;          /* a trace is placed only if its copy removes at least this many taken transfers
                                 (taken branches inverted, jumps and calls dropped, a placed trace appended):
                                 the patch's jump and the exits cost taken transfers of their own; 0: every
                                 trace is placed */
  uint32_t *origin;           /* one word per cache word, or NULL: the program address whose instruction the
                                 word is a copy of (the first word of an instruction's expansion), 0 for a
                                 word of the cache's own (a stub, a jump between blocks, a patched-over start);
                                 the simulator's exact profile reads it (docs/dynopt.md) */
} hwprof_cc_config_t;

typedef struct {
  hwprof_cc_config_t c;
  uint32_t next;      /* the cache's first free address */
  uint32_t tramp_next; /* the first free trampoline */
  size_t npatch, nexit;
  /* statistics */
  uint32_t placed, insns_in, words_out, linked, returns_linked;
  uint32_t refused[kHwprofCcReasons];
} hwprof_cc_t;

/* kHwprofBadArg (nothing set) for a configuration that breaks the rules above. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_cc_init(hwprof_cc_t *cc, hwprof_cc_config_t config);

/* Places the trace whose instructions are pcs[0..n) in execution order (pcs[0] is its start) and
 * patches its start; *entry gets the copy's address. Any other status counts the refusal and leaves
 * the program and the placed traces as they were (the cache's free space may have been written). */
hwprof_cc_status_t hwprof_cc_place_trace(hwprof_cc_t *cc, const uint32_t *pcs, size_t n, uint32_t *entry);

/* The memory word at program address a, its shadow word (NULL without shadow words), and whether a
 * is a word of the program's code: what the cache's users (the re-layout) read and write through. */
static inline uint32_t *hwprof_cc_word(const hwprof_cc_t *cc, uint32_t a) { return &cc->c.mem[(a - cc->c.mem_base) / 4u]; }
static inline uint32_t *hwprof_cc_shadow(const hwprof_cc_t *cc, uint32_t a) {
  return cc->c.shadow ? &cc->c.shadow[(a - cc->c.mem_base) / 4u] : NULL;
}
bool hwprof_cc_is_code(const hwprof_cc_t *cc, uint32_t a);

/* Sets the origin of the cache word at a (no origin table: nothing). */
void hwprof_cc_set_origin(hwprof_cc_t *cc, uint32_t a, uint32_t origin);
/* The program address whose instruction runs at a: a itself outside the cache, the origin of a
 * cache word (0: the cache's own word, or no origin table). */
uint32_t hwprof_cc_origin(const hwprof_cc_t *cc, uint32_t a);

/* The patch at addr, or NULL: whether a trace starts there. */
const hwprof_cc_patch_t *hwprof_cc_patch_at(const hwprof_cc_t *cc, uint32_t addr);

/* Removes every trace from use: the original words back at their starts, no exit linked any more.
 * The copies stay where they are and their space is not used again: the stopped program may resume
 * inside one, and return addresses on its stack may point into them (a copied call returns straight
 * into the copy of the trace at its return site), so every copy must stay valid code; each still
 * leaves for the original code or for another copy that also stays. */
HWPROF_WARN_UNUSED hwprof_result_t hwprof_cc_flush(hwprof_cc_t *cc);

const char *hwprof_cc_status_str(hwprof_cc_status_t s);

/* The shadow word of a conditional branch inverted so that its taken way falls through, the hints
 * following their edges: TK and NT swap; EITHER (taken edge p, not taken p + 1) becomes NT with p,
 * and p + 1 moves to the new taken way as *pid (prof.id with *ihint); a region switch on the old
 * taken edge stays on the branch (now not taken), one on the old not-taken edge moves to the new
 * taken way as *setoff (prof.setoff's operand + 1). *pid and *setoff are 0 when the new taken way
 * has nothing to do before it leaves. Both optimizers' copies invert branches this way. */
uint32_t hwprof_cc_invert_hints(uint32_t sh, uint32_t *pid, uint32_t *ihint, uint32_t *setoff);

#endif /* HWPROF_DYNOPT_CODECACHE_H */
