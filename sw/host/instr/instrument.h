/* The instrumenter: the compiler's part of seed 000 (sections 1-5 of its detailed description),
 * applied to a linked RV32 program. Per function it builds the CFG, chooses the profiled edges,
 * assigns profile IDs, allocates the counter area, partitions the function into regions when the
 * IDs outgrow the K-bit ID field, and places the profiling instructions; then it moves every
 * function to a new text segment with the inserted instructions and writes the shadow words and
 * the map. docs/instrumenter.md describes the rules and the file formats. Host only. */
#ifndef HWPROF_INSTR_INSTRUMENT_H
#define HWPROF_INSTR_INSTRUMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "autogen/hwprof_regs.h"

typedef enum { kModeAll = 0, kModeMinimal = 1 } instr_mode_t;
/* Path profiles instead of edge profiles (docs/path.md): none (edges), plain Ball-Larus paths,
 * or seed 004's hierarchical paths (the function and its natural loops), region-based or global. */
typedef enum { kPathsNone = 0, kPathsPlain = 1, kPathsRegions = 2, kPathsGlobal = 3 } instr_paths_t;

/* Default places in the platform's RAM (regs/encodings.json): the moved code 8 MiB above the RAM
 * base, the counter areas 12 MiB above it (the programs' own code and data stay below 4 MiB). */
#define INSTR_TEXT_AT (HWPROF_PLAT_RAM_BASE + 0x800000u)
#define INSTR_COUNTERS_AT (HWPROF_PLAT_RAM_BASE + 0xc00000u)
#define INSTR_PATH_STATE_AT (INSTR_COUNTERS_AT - 0x80000u)
#define INSTR_PATH_SW_STACK 65536u /* entries of the software-only build's path stack */
#define INSTR_PATH_SPILL_BYTES 0x40000u /* the hardware path stack's spill area (docs/path.md): 256 KiB */
#define INSTR_LINK_SPILL_BYTES 0x40000u /* the link stack's, for path profiles through the hardware */
#define INSTR_LANDING_ENTRIES 1024u /* entries (16 bytes) of the table of frames that called setjmp (landing.c) */
#define INSTR_LINK_SPILL_AUTO UINT32_MAX /* link_spill: INSTR_LINK_SPILL_BYTES for paths through the
                                            hardware, 0 for edge profiles */

typedef struct {
  instr_mode_t mode;
  unsigned k;            /* bits of a relative profile ID (2..12); regions hold at most 2^k - 1 IDs */
  uint32_t text_at;      /* where the moved code goes */
  uint32_t counters_at;  /* where the counter areas go */
  unsigned cnt_bytes;    /* bytes per counter: the hardware's CntW / 8 (1, 2, 4 or 8; edge profiles) */
  uint32_t hwprof_base;  /* the hwprof register window (the start-up code sets the bounds there) */
  const char *skip;      /* comma-separated function names left uninstrumented (moved only) */
  bool linked_calls;     /* use the pir's link stack for calls where linkage.h allows (default) */
  bool lazy_restore;     /* leave out the restore after a call when nothing reads the pir before it is
                            set again (default) */
  bool carriers;         /* fold inserted prof.init, prof.setoff and prof.id into carrier words of the
                            program's own instructions where they can (docs/pir.md; default; not
                            with paths_sw, which inserts no profiling instruction) */
  instr_paths_t paths;   /* path profiles instead of edge profiles */
  bool paths_sw;         /* ... collected by inserted code alone, the sum and its stack in memory (the
                            software-only baseline; no profiling instruction, no linked call) */
  uint32_t path_state_at; /* that build's sum, stack pointer and stack (4 KiB aligned) */
  uint32_t path_spill;   /* with paths through the hardware: bytes of the path stack's spill area, placed
                            after the counters (a multiple of 64, at most 64 * 65535; 0: no spilling) */
  uint32_t link_spill;   /* bytes of the link stack's spill area, after the path stack's (the same rules);
                            with one, every call linkage.h allows is linked, recursive ones too (0:
                            linked calls bounded by the link stack's entries); INSTR_LINK_SPILL_AUTO
                            (the default): an area for paths through the hardware, none for edges */
  const char *path_weights, *path_weights_map; /* with paths: an edge profile (and its map) of the same
                            program, whose counts weigh the chords (path_weights.h); NULL: the loops' guess */
  FILE *report;          /* one line per function that is left uninstrumented, with the reason */
} instr_opts_t;

typedef struct {
  unsigned functions, instrumented, skipped;
  unsigned derived; /* not instrumented, profiled through their callers (millicode) */
  unsigned edges, measured, block_counters, regions;
  unsigned inserted; /* profiling instructions inserted */
  unsigned folded;   /* ... and those folded into carrier words instead */
  unsigned moved_insns;
  unsigned relaxed; /* conditional branches relaxed (their target went out of reach) */
  unsigned linked, linked_calls; /* functions entered by linked calls, and those calls */
  unsigned started, started_calls; /* functions whose calls start their area (no save), and those calls */
  unsigned restores, restores_dead; /* calls after which the pir is set again in software, and those whose
                                       restore is left out (nothing reads the pir before it is set again) */
  unsigned path_carried, path_inserted; /* path operations carried by branches, jumps and returns, and
                                           prof.path instructions inserted (calls' brackets included) */
  unsigned path_weighted, path_planned; /* with path_weights: functions whose chords the profile weighed,
                                           of those planned */
  unsigned landings; /* calls of functions that return twice, with the code that keeps the stacks right */
  uint32_t landing_at; /* ... and the table of their frames' depths, or 0 */
  uint32_t meta_at, meta_bytes; /* run-time metadata (the program defines hwprof_meta), or 0 */
} instr_stats_t;

void instr_opts_default(instr_opts_t *o);
/* Reads in_elf, writes out_elf and map. Returns 0, or -1 with a one-line reason in err (nothing is
 * written then). */
int instr_run(const char *in_elf, const char *out_elf, const char *map, const instr_opts_t *o, instr_stats_t *st,
              char *err, size_t errlen);

#endif /* HWPROF_INSTR_INSTRUMENT_H */
