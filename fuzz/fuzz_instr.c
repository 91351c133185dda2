/* Fuzz target: the instrumenter end to end (sw/host/instr/instrument.c, instr_run): read the program,
 * build every function's CFG, choose and place the counters, write the instrumented program and the
 * map, both modes in turn. The outputs go to a scratch directory in memory (/dev/shm). */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "fuzz_file.h"
#include "instrument.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static char out[64], map[64];
  if (out[0] == '\0') {
    snprintf(out, sizeof out, "/dev/shm/hwprof-fuzz-%d.elf", (int)getpid());
    snprintf(map, sizeof map, "/dev/shm/hwprof-fuzz-%d.map", (int)getpid());
  }
  const char *in = fuzz_path_of(data, size);
  instr_opts_t o;
  instr_opts_default(&o);
  instr_stats_t st;
  char err[256];
  o.mode = size & 1u ? kModeAll : kModeMinimal; /* the input's length picks the mode */
  (void)instr_run(in, out, map, &o, &st, err, sizeof err);
  unlink(out);
  unlink(map);
  return 0;
}
