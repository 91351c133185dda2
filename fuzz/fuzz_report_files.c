/* Fuzz target: the text files of a run directory that hwprof-report html reads besides the edge
 * profile (sw/host/report/run_files.c, sw/host/vp/vp_profile.c): the input's first byte chooses the reader
 * (0 a path profile, 1 a phase truth, 2 a hwprof-wpp table, 3 a load-value profile). */
#include <stdint.h>
#include <string.h>

#include "fuzz_file.h"
#include "run_files.h"
#include "vp_profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  const char *in = fuzz_path_of(data + 1, size - 1);
  char err[256];
  switch (data[0] & 3) {
    case 0: {
      rf_paths_t p;
      if (rf_read_paths(&p, in, err, sizeof err) == 0) rf_free_paths(&p);
      break;
    }
    case 1: {
      rf_phases_t p;
      if (rf_read_phases(&p, in, err, sizeof err) == 0) rf_free_phases(&p);
      break;
    }
    case 2: {
      rf_units_t u;
      if (rf_read_units(&u, in, 20, err, sizeof err) == 0) rf_free_units(&u);
      break;
    }
    default: {
      vp_profile_t p;
      if (vp_profile_read(&p, in, err, sizeof err) == 0) vp_profile_free(&p);
      break;
    }
  }
  return 0;
}
