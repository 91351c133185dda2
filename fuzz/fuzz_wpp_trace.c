/* Fuzz target: a trace file (sw/host/wpp/trace_file.c) as hwprof-wpp reads it, then everything it feeds:
 * the blocks rebuilt through a small fixed program (loops, forward and backward branches, a call
 * and its return, an ecall) and the hierarchy of cycles with tables small enough to sort often. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "block_stream.h"
#include "cycles.h"
#include "trace_file.h"

#define BASE 0x80000000u
/* 0x00 addi; 0x04 beq x0,x1,+12; 0x08 addi; 0x0c jal ra,+20; 0x10 bne x1,x2,-16; 0x14 addi;
 * 0x18 jal x0,-24; 0x1c ecall; 0x20 addi; 0x24 blt x1,x2,-4... then return (jalr x0,ra) */
static const uint32_t kCode[] = {0x00100093u, 0x00100663u, 0x00108093u, 0x014000efu, 0xfe2098e3u, 0x00108093u,
                                 0xfe9ff06fu, 0x00000073u, 0x00108093u, 0xfe20cee3u, 0x00008067u, 0x00000013u};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hwprof_trf_t t;
  char err[300];
  if (hwprof_trf_parse(&t, data, size, "fuzz.htr", err, sizeof err) != 0) return 0;
  uint8_t bytes[sizeof kCode];
  for (unsigned i = 0; i < sizeof kCode / 4; i++)
    for (unsigned b = 0; b < 4; b++) bytes[4 * i + b] = (uint8_t)(kCode[i] >> (8 * b));
  const hwprof_image_t img = {BASE, 1, {{BASE, sizeof bytes, bytes, true}}};
  hwprof_bkf_t blocks;
  if (t.insns <= (1u << 20) && wpp_blocks_from_traces(&t, "fuzz.htr", &img, &blocks, NULL, NULL, err, sizeof err) == 0) {
    static wpp_t w;
    const wpp_cfg_t cfg = {.levels = 4, .table = {kWppSortBounded, 4, 64, 1, 2, 2, false, 0, false}, .keep_runs = true};
    if (wpp_init(&w, &cfg) == 0) {
      for (uint64_t i = 0; i < blocks.n; i++) wpp_block(&w, blocks.ev[i].start, blocks.ev[i].insns);
      wpp_finish(&w);
      wpp_free(&w);
    }
    hwprof_bkf_free(&blocks);
  }
  hwprof_trf_free(&t);
  return 0;
}
