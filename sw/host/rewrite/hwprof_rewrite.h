/* The rewriting layer: moves every function of a linked RV32 program (hwprof_cfg_prog.h) to a new
 * text segment with instructions inserted before or after any of its instructions, then makes the
 * program whole again: every PC-relative field of the moved code (branches, jumps, call pairs,
 * auipc-based address pairs) and every absolute code address (in code or in data, through the
 * relocations the linker kept with -Wl,--emit-relocs) is rewritten to the new addresses. The old
 * code is zeroed (illegal instructions: a code pointer that was missed fails loudly). Each
 * instruction carries a shadow word (the profiling extension's hint bits), written as a segment
 * at the shadow base of the memory map.
 *
 * Inserted code comes in two places: "before" an instruction (every jump to it runs them too: its
 * new address is that of the first one) and "after" it (only the fall-through path runs them).
 * Policies (the instrumenter) decide what to insert; this layer only keeps the program correct.
 * Host only. */
#ifndef HWPROF_REWRITE_H
#define HWPROF_REWRITE_H

#include <stddef.h>
#include <stdint.h>

#include "hwprof_cfg_prog.h"
#include "hwprof_elf.h"

typedef struct hwprof_rw hwprof_rw_t;

typedef struct {
  unsigned inserted; /* instructions inserted */
  unsigned moved;    /* instructions moved */
  unsigned relaxed;  /* conditional branches relaxed (see hwprof_rw_layout) */
  unsigned folded;   /* inserted instructions folded into carrier words (hwprof_rw_fold) */
} hwprof_rw_stats_t;

/* An extra loadable segment for the output (bytes NULL: zero-filled, memsz only). */
typedef struct {
  uint32_t vaddr, filesz, memsz, flags;
  const uint8_t *bytes;
} hwprof_rw_seg_t;

/* Errors go to err (one line) and the call returns -1 (NULL). e and p stay the caller's; e's code
 * bytes are changed by hwprof_rw_write_elf(). */
hwprof_rw_t *hwprof_rw_new(hwprof_elf_t *e, const hwprof_cfg_prog_t *p, char *err, size_t errlen);
void hwprof_rw_free(hwprof_rw_t *rw);

/* Before layout: insert word (with its shadow word) before / after the instruction at addr, and set
 * the shadow word of the instruction at addr itself. */
int hwprof_rw_before(hwprof_rw_t *rw, uint32_t addr, uint32_t word, uint32_t shadow);
int hwprof_rw_after(hwprof_rw_t *rw, uint32_t addr, uint32_t word, uint32_t shadow);
void hwprof_rw_shadow(hwprof_rw_t *rw, uint32_t addr, uint32_t shadow);
/* ... and on the taken edge of the conditional branch at addr: in an island behind its function
 * (the branch goes there; the island runs the code and jumps to the target: one jump more on the
 * taken path only). */
int hwprof_rw_on_taken(hwprof_rw_t *rw, uint32_t addr, uint32_t word, uint32_t shadow);
/* ... and on the way into target from the jump tables: the code addresses in data that name target
 * (the entries of the tables of an indirect jump) name an island behind its function instead, which
 * runs the code and jumps to target; other ways into target do not run it. */
int hwprof_rw_on_indirect(hwprof_rw_t *rw, uint32_t target, uint32_t word, uint32_t shadow);
uint32_t hwprof_rw_get_shadow(const hwprof_rw_t *rw, uint32_t addr);
/* Before layout, after the insertions at addr: direct calls (jal, auipc/jalr with rd = ra or t0) to addr
 * land words into what is inserted before it (the first words are for the other ways in); jumps,
 * tail calls and code addresses in data still go to the first. Returns -1 if fewer were inserted. */
int hwprof_rw_call_skip(hwprof_rw_t *rw, uint32_t addr, unsigned words);

/* The pir (base address, offset) a way into an instruction brings. */
typedef struct {
  uint64_t base;
  uint32_t offset;
} hwprof_rw_pir_t;

/* Before layout, after the insertions into the function [lo, hi): folds inserted prof.init,
 * prof.setoff and prof.id into carrier words (docs/pir.md): the shadow words of the program's own
 * instructions beside them (ALU, load, store), which then perform the same operation as they retire,
 * in the same order with respect to every update, at no instruction. A run after an instruction that
 * always falls through gives it its first word; a run gives its last words to the instructions it
 * falls into. The caller says, for the instruction at a (index (a - lo) / 4): leader, whether it has
 * a way in other than from the one before it (the entry, a jump's or branch's target, a code address
 * taken, the instruction after a block's transfer); st (or NULL), the pir its other ways in bring,
 * so that operations that leave it as it is may be carried from it on. Returns how many words were
 * folded. */
unsigned hwprof_rw_fold(hwprof_rw_t *rw, uint32_t lo, uint32_t hi, const bool *leader, const hwprof_rw_pir_t *st);

/* Places the moved code at text_at + 4 * reserved; the reserved words are the caller's (put).
 * A conditional branch whose target the insertions put out of its reach is relaxed: it keeps its
 * condition and sense (a profiling hint on it keeps its meaning) and branches to an island behind
 * it, "bxx island; jal x0, next; island: jal x0, target" (one instruction more on either path). */
int hwprof_rw_layout(hwprof_rw_t *rw, uint32_t text_at, unsigned reserved);
/* After layout: where a transfer to the original address addr goes (the first instruction inserted
 * before it; addr itself when it is not moved code), where the instruction itself went, and how
 * many instructions follow it (a relaxed branch's island comes first, then those). */
uint32_t hwprof_rw_entry(const hwprof_rw_t *rw, uint32_t addr);
uint32_t hwprof_rw_insn(const hwprof_rw_t *rw, uint32_t addr);
unsigned hwprof_rw_after_count(const hwprof_rw_t *rw, uint32_t addr);
/* Where the conditional branch at original address addr goes when taken, in the new code (its
 * island when relaxed). */
uint32_t hwprof_rw_taken_to(const hwprof_rw_t *rw, uint32_t addr);
/* After layout: the end of the new text (islands included). */
uint32_t hwprof_rw_text_end(const hwprof_rw_t *rw);
/* A word of the reserved area. */
void hwprof_rw_put(hwprof_rw_t *rw, uint32_t new_addr, uint32_t word, uint32_t shadow);

/* Writes the moved code with every relocated field rewritten, and the code addresses in data. */
int hwprof_rw_relocate(hwprof_rw_t *rw);
/* The new executable: entry point, the original loadable segments (old code zeroed), the new text,
 * its shadow words, and extra[n]. */
int hwprof_rw_write_elf(hwprof_rw_t *rw, const char *path, uint32_t entry, const hwprof_rw_seg_t *extra, unsigned n);
hwprof_rw_stats_t hwprof_rw_stats(const hwprof_rw_t *rw);

#endif /* HWPROF_REWRITE_H */
