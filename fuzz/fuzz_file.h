/* The fuzz targets' one helper (docs/verification.md, "Fuzzing"): the parsers that take a path read
 * the input from a memory file, so that an execution costs no disk I/O (built with _GNU_SOURCE). */
#ifndef HWPROF_FUZZ_FILE_H
#define HWPROF_FUZZ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* The path of memory file `slot` (0 or 1: a target may need two) holding data[0..size) (the same
 * file for the whole run). */
static inline const char *fuzz_path_in(int slot, const uint8_t *data, size_t size) {
  static int fd[2] = {-1, -1};
  static char path[2][64];
  if (fd[slot] < 0) {
    fd[slot] = memfd_create("hwprof-fuzz", 0);
    if (fd[slot] < 0) abort();
    snprintf(path[slot], sizeof path[slot], "/proc/self/fd/%d", fd[slot]);
  }
  if (ftruncate(fd[slot], 0) != 0 || pwrite(fd[slot], data, size, 0) != (ssize_t)size) abort();
  return path[slot];
}
static inline const char *fuzz_path_of(const uint8_t *data, size_t size) { return fuzz_path_in(0, data, size); }

#endif /* HWPROF_FUZZ_FILE_H */
