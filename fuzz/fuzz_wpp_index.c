/* Fuzz target: hwprof-wpp's indexed run file (sw/host/wpp/wpp_index.c) and the three queries on it: a
 * file the reader accepts must answer any query within its arrays. */
#include <stdint.h>
#include <stdlib.h>

#include "wpp_index.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  wpp_index_t x;
  char err[300];
  if (wpp_index_parse(&x, data, size, "fuzz.idx", err, sizeof err) != 0) return 0;
  volatile uint64_t sum = 0;
  const uint64_t probes[] = {0, 1, x.insns / 2, x.insns ? x.insns - 1 : 0, x.insns, UINT64_MAX};
  for (unsigned k = 0; k < x.levels; k++)
    for (unsigned p = 0; p < sizeof probes / sizeof probes[0]; p++) {
      int64_t r = wpp_index_at_insn(&x, k, probes[p]);
      if (r >= 0) sum += x.level[k].run[r].unit;
      uint64_t first, n = wpp_index_of_unit(&x, k, (uint32_t)probes[p], &first);
      for (uint64_t i = 0; i < n; i++) sum += x.level[k].run[x.level[k].by_unit[first + i]].trips;
    }
  for (unsigned p = 0; p < sizeof probes / sizeof probes[0]; p++) {
    int64_t r = wpp_index_at_path(&x, probes[p]);
    if (r >= 0) sum += x.level[0].run[r].end;
  }
  (void)sum;
  wpp_index_free(&x);
  return 0;
}
