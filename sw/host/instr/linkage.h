/* Linked calls (docs/instrumenter.md, "Linked calls"; the pir's link stack in docs/pir.md): which
 * instrumented functions the hardware can enter and leave with the caller's pir saved and restored,
 * so that neither the callee's prof.init nor the caller's restore after the call is needed.
 *
 * A function is linked when
 *   - it is instrumented and is not the program's entry point;
 *   - every relocation that refers to its entry is a call through ra (jal ra, or an auipc/jalr ra
 *     pair) from a function's code, or a branch or jump of its own code to its entry;
 *   - it leaves only by `ret` (jalr x0, 0(ra)) or by never returning: no tail call, no mret;
 *   - it is on no cycle of the call graph (indirect calls and indirect jumps are taken to reach
 *     every function whose address is taken, tail calls count as calls);
 *   - the linked calls that can be active at once while it runs, its own included, are at most
 *     `entries` (the stack's size): 1 + H(f) <= entries, where H(f) is the most linked calls a
 *     chain of calls from f can stack. Where that fails the functions nearest the leaves lose
 *     their linking first, until it holds everywhere.
 * With entries 0 the link stack spills to memory (docs/pir.md): the last two rules fall, and a
 * recursive function is linked too.
 * The helpers below answer, for both policies, what a call does to the caller's pir. Host only. */
#ifndef HWPROF_INSTR_LINKAGE_H
#define HWPROF_INSTR_LINKAGE_H

#include <stdbool.h>

#include "hwprof_cfg_prog.h"
#include "hwprof_elf.h"
#include "instr_ctx.h"

/* instrumented[i]: function i of p has a CFG and a counter area. Fills linked[i] for every function
 * of p. Returns 0, or -1 when out of memory. */
int instr_linkage(const hwprof_cfg_prog_t *p, const hwprof_elf_t *e, const bool *instrumented, unsigned entries,
                  bool *linked);

/* What a call to target does to the caller's pir, once every function's linkage is decided (the
 * fn_t flags of c), for both policies (edges and paths): whether it never changes it (the callee
 * is neutral); the callee's index if the call is linked (the hardware saves and restores the pir)
 * or call-started (the call starts the callee's area, nothing saved), else -1. */
bool instr_callee_neutral(ctx_t *c, uint32_t target);
int instr_callee_linked(ctx_t *c, uint32_t target);
int instr_callee_started(ctx_t *c, uint32_t target);

/* Whether a function's own recursive call returns with its base: it leaves only by its returns (a
 * tail call, or a dispatch out of the function, would return with another function's base). */
bool instr_self_return_keeps_base(const pm_func_t *p);

#endif /* HWPROF_INSTR_LINKAGE_H */
