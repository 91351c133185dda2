/* The exact basic-block stream of a run; see block_truth.h. */
#include "oracle/block_truth.h"

#include <string.h>

#include "autogen/hwprof_regs.h"

int block_truth_init(block_truth_t *b, const char *path, char *err, size_t errlen) {
  memset(b, 0, sizeof *b);
  b->path = path;
  return hwprof_bkf_create(&b->w, path, err, errlen);
}

static void close_block(block_truth_t *b) {
  if (b->insns) b->write_failed |= hwprof_bkf_put(&b->w, b->start, b->insns) != 0;
  b->insns = 0;
}

void block_truth_event(block_truth_t *b, const hwprof_retire_ev_t *ev) {
  if (!ev->valid || (ev->trap != HWPROF_TRAP_NONE && ev->trap != HWPROF_TRAP_ENTRY)) return;
  if (b->insns == 0) b->start = ev->pc;
  b->insns++;
  if (ev->kind == HWPROF_KIND_BRANCH || ev->kind == HWPROF_KIND_JUMP || ev->kind == HWPROF_KIND_IJUMP ||
      ev->trap == HWPROF_TRAP_ENTRY)
    close_block(b);
}

int block_truth_finish(block_truth_t *b) {
  close_block(b);
  const int rc = hwprof_bkf_finish(&b->w);
  return rc != 0 || b->write_failed ? -1 : 0;
}
