/* Fuzz target: the profile file reader (sw/profmap/profmap.c, pm_compare_profiles, as
 * `hwprof-instr compare` runs it): the input compared with itself. */
#include <stdint.h>
#include <stdio.h>

#include "fuzz_file.h"
#include "profmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_path_of(data, size);
  FILE *sink = fopen("/dev/null", "w");
  if (sink == NULL) return 0;
  long edges = 0;
  char err[256];
  (void)pm_compare_profiles(path, path, sink, &edges, err, sizeof err);
  fclose(sink);
  return 0;
}
