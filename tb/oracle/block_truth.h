/* The exact basic-block stream of a run (hwprof-sim --blocks-out=FILE, docs/wpp.md): the oracle of
 * the block stream rebuilt from the trace controller's records. It cuts the retire stream of the
 * program's own instructions (trap handlers' excluded, a trapping instruction included) after every
 * control transfer the port reports (kind BRANCH, taken or not; JUMP; IJUMP) and after every
 * instruction that trapped; a block is named by its first instruction's address. It reads nothing
 * but the retire events: no decoding, no program image, no trace record. */
#ifndef HWPROF_TB_ORACLE_BLOCK_TRUTH_H
#define HWPROF_TB_ORACLE_BLOCK_TRUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ports.h"
#include "trace_file.h"

typedef struct {
  hwprof_bkf_writer_t w;
  const char *path;
  uint32_t start, insns; /* the block being executed (insns 0: none) */
  bool write_failed;
} block_truth_t;

/* Returns 0, or -1 with a reason naming path in err. */
int block_truth_init(block_truth_t *b, const char *path, char *err, size_t errlen);
void block_truth_event(block_truth_t *b, const hwprof_retire_ev_t *ev);
/* Writes the block in progress and the end record; 0, or -1 (a write error). */
int block_truth_finish(block_truth_t *b);

#endif /* HWPROF_TB_ORACLE_BLOCK_TRUTH_H */
