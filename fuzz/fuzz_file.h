/* The fuzz targets' one helper (docs/verification.md, "Fuzzing"): the parsers that take a path read
 * the input from a memory file, so that an execution costs no disk I/O (built with _GNU_SOURCE). */
#ifndef HWPROF_FUZZ_FILE_H
#define HWPROF_FUZZ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* The path of a memory file holding data[0..size) (the same file for the whole run). */
static inline const char *fuzz_path_of(const uint8_t *data, size_t size) {
  static int fd = -1;
  static char path[64];
  if (fd < 0) {
    fd = memfd_create("hwprof-fuzz", 0);
    if (fd < 0) abort();
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  }
  if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size) abort();
  return path;
}

#endif /* HWPROF_FUZZ_FILE_H */
