/* The freestanding gcov runtime for programs built with GCC's -fprofile-arcs on the bare-metal RV32
 * target (the software-instrumentation baseline of docs/instrumenter.md). Debian's bare-metal libgcov has no
 * C library underneath, so its usual exit path (__gcov_exit) is missing; GCC 12 documents the
 * freestanding route instead: compile with -fprofile-info-section=gcov_info, which puts a pointer
 * to every object's gcov_info in the section gcov_info, and serialise each one with
 * __gcov_info_to_gcda. This runtime does that when the program exits, writing each .gcda file
 * through picolibc's semihosting stdio (the simulator creates it in its --out-dir). */
#include <gcov.h>
#include <stdio.h>
#include <stdlib.h>

/* bounds of the section, provided by the linker for a section named like a C identifier */
extern const struct gcov_info *const __start_gcov_info[];
extern const struct gcov_info *const __stop_gcov_info[];

static FILE *gcda;

static void open_gcda(const char *name, void *arg) {
  (void)arg;
  gcda = fopen(name, "wb");
}

static void write_gcda(const void *data, unsigned length, void *arg) {
  (void)arg;
  if (gcda) fwrite(data, 1, length, gcda);
}

static void *allocate(unsigned length, void *arg) {
  (void)arg;
  return malloc(length);
}

static void gcov_rt_dump(void) {
  for (const struct gcov_info *const *p = __start_gcov_info; p < __stop_gcov_info; p++) {
    __gcov_info_to_gcda(*p, open_gcda, write_gcda, allocate, NULL);
    if (gcda) fclose(gcda);
    gcda = NULL;
  }
}

__attribute__((constructor)) static void gcov_rt_init(void) { atexit(gcov_rt_dump); }
