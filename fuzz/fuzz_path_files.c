/* Fuzz target: the path-profile and path-truth readers (sw/host/path/pp_compare.c, as `hwprof-instr
 * paths-check` runs them): the input's first byte chooses which side it is; the other side is a
 * small valid file of the other kind (so that the comparison itself runs too). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_file.h"
#include "pp_compare.h"

static const char kProfile[] =
    "hwprof-path-profile 1\nprogram p.elf\nembodiment rb\n"
    "function main 0x80000000 counters 4 regions 2 paths 2 count 12\n"
    "region 0 head 80000000 depth 0 parent - first 0 counters 2\npath 2 exit 80000000 L80000010 80000020\n"
    "region 1 head 80000010 depth 1 parent 80000000 first 2 counters 2\npath 10 end 80000010\n"
    "end functions 1 counters 4 paths 2 count 12\n";
static const char kTruth[] =
    "hwprof-path-truth 1\nprogram p.elf\nfunction main 0x80000000 paths 1 executions 2\n"
    "path 2 exit 80000000 80000010 80000020\nregion 80000000 paths 1 executions 2\n"
    "rpath 2 exit 80000000 L80000010 80000020\nregion 80000010 paths 1 executions 10\nrpath 10 end 80000010\n"
    "end activations 1 paths 11 hierarchical 12 distinct 3 block-entries 13\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  const int as_profile = data[0] & 1;
  const char *in = fuzz_path_of(data + 1, size - 1);
  const char *fixed = as_profile ? kTruth : kProfile;
  const char *other = fuzz_path_in(1, (const uint8_t *)fixed, strlen(fixed));
  FILE *sink = fopen("/dev/null", "w");
  if (sink == NULL) return 0;
  pp_compare_stats_t st;
  char err[256];
  (void)pp_compare_files(as_profile ? in : other, as_profile ? other : in, sink, &st, err, sizeof err);
  fclose(sink);
  return 0;
}
