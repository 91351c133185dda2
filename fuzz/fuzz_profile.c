/* Fuzz target: the profile file readers (sw/host/profmap/profile_file.c): pm_compare_profiles, as
 * `hwprof-instr compare` runs it (the input compared with itself), and pm_read_profile against a
 * small map, as `hwprof-report` runs it. */
#include <stdint.h>
#include <stdio.h>

#include "fuzz_file.h"
#include "profmap.h"

/* one function at 0x80000000: a block that branches back to itself or falls into a returning one */
static pm_block_t blk[2] = {{0x80000000u, 0x80000010u, 0, 0, 0, PM_NONE, PM_NONE},
                            {0x80000010u, 0x80000018u, 0, 0, 0, PM_NONE, PM_NONE}};
static pm_edge_t edge[4] = {{HWPROF_CFG_VIRTUAL_ENTRY, HWPROF_CFG_EXIT, 0, 0, 0, PM_NONE},
                            {HWPROF_CFG_TAKEN, 0, 0, 0, 0, 0},
                            {HWPROF_CFG_NOT_TAKEN, 0, 1, 0, 0, PM_NONE},
                            {HWPROF_CFG_RETURN, 1, HWPROF_CFG_EXIT, 0, PM_ANY, PM_NONE}};
static pm_func_t fn = {.name = "loop", .lo = 0x80000000u, .hi = 0x80000018u, .instrumented = true,
                       .blk = blk, .nblk = 2, .dispatch = -1, .edge = edge, .nedge = 4};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_path_of(data, size);
  FILE *sink = fopen("/dev/null", "w");
  if (sink == NULL) return 0;
  long edges = 0;
  char err[256];
  (void)pm_compare_profiles(path, path, sink, &edges, err, sizeof err);
  fclose(sink);
  pm_map_t m = {.program = "p.elf", .nfn = 1, .fn = &fn};
  int64_t **counts = NULL;
  if (pm_read_profile(&m, path, &counts, err, sizeof err) == 0) pm_free_counts(&m, counts);
  return 0;
}
