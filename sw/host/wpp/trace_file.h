/* The two binary streams of whole-program path analysis (docs/wpp.md, "Files"):
 *
 * - a trace file: the trace controller's records as a platform drained them from the FIFO (every
 *   trace, no sampling, no filter), then the trace in progress when the program stopped and an end
 *   record with the program's instruction count, so a reader can prove nothing is missing;
 * - a block file: a stream of basic blocks (start address, instructions), the exact one the
 *   simulator cuts from the retire stream (the oracle) or the one rebuilt from a trace file.
 *
 * Both are little-endian words after a fixed header; both end with an end record, so a truncated
 * file is told from a complete one. The readers load a whole file and reject anything malformed with
 * one line naming the file and the byte offset; nothing half-read is returned. Host only. */
#ifndef HWPROF_WPP_TRACE_FILE_H
#define HWPROF_WPP_TRACE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define HWPROF_TRF_MAGIC "HWPTRACE"
#define HWPROF_BKF_MAGIC "HWPBLOCK"
#define HWPROF_WPP_FILE_VERSION 1u
#define HWPROF_TRF_HEADER_BYTES 32u
#define HWPROF_BKF_HEADER_BYTES 16u
/* control records of a trace file: a word pair whose second word (a history) is 0 */
#define HWPROF_TRF_TAIL 1u /* then one pair: the current trace's start and history */
#define HWPROF_TRF_END 2u  /* then two pairs: instructions (low, high); dropped records, last pc */

/* ---- trace files ---- */
typedef struct {
  FILE *f;
  uint64_t records;
} hwprof_trf_writer_t;

/* Returns 0, or -1 with a reason naming path in err. */
int hwprof_trf_create(hwprof_trf_writer_t *w, const char *path, unsigned hist_w, uint32_t entry_pc, char *err,
                      size_t errlen);
int hwprof_trf_put(hwprof_trf_writer_t *w, uint32_t start, uint32_t hist);
/* The end of the stream: the trace in progress (if has_tail), the program's instruction count (its
 * own instructions, trap handlers' excluded), the records the controller dropped, the address of the
 * program's last instruction. Closes the file; 0, or -1 on a write error. */
int hwprof_trf_finish(hwprof_trf_writer_t *w, bool has_tail, uint32_t tail_start, uint32_t tail_hist, uint64_t insns,
                      uint32_t dropped, uint32_t last_pc);

typedef struct {
  uint32_t start, hist;
} hwprof_trf_rec_t;

typedef struct {
  unsigned hist_w;
  uint32_t entry_pc;
  hwprof_trf_rec_t *rec; /* the finished traces, in the order they ended */
  uint64_t nrec;
  bool has_tail;
  hwprof_trf_rec_t tail;
  uint64_t insns;
  uint32_t dropped, last_pc;
} hwprof_trf_t;

/* Offset in the file of record i (for messages). */
static inline uint64_t hwprof_trf_offset(uint64_t i) { return HWPROF_TRF_HEADER_BYTES + 8u * i; }
int hwprof_trf_load(hwprof_trf_t *t, const char *path, char *err, size_t errlen);
/* The same from memory (name for messages); the fuzz target's entry. */
int hwprof_trf_parse(hwprof_trf_t *t, const uint8_t *buf, size_t len, const char *name, char *err, size_t errlen);
void hwprof_trf_free(hwprof_trf_t *t);

/* ---- block files ---- */
typedef struct {
  uint32_t start; /* address of the block's first instruction */
  uint32_t insns; /* instructions executed in it (>= 1) */
} hwprof_block_ev_t;

typedef struct {
  FILE *f;
  uint64_t blocks, insns;
} hwprof_bkf_writer_t;

int hwprof_bkf_create(hwprof_bkf_writer_t *w, const char *path, char *err, size_t errlen);
int hwprof_bkf_put(hwprof_bkf_writer_t *w, uint32_t start, uint32_t insns);
/* Writes the end record (the instruction total) and closes; 0, or -1 on a write error. */
int hwprof_bkf_finish(hwprof_bkf_writer_t *w);

typedef struct {
  hwprof_block_ev_t *ev;
  uint64_t n, insns;
} hwprof_bkf_t;

int hwprof_bkf_load(hwprof_bkf_t *b, const char *path, char *err, size_t errlen);
int hwprof_bkf_parse(hwprof_bkf_t *b, const uint8_t *buf, size_t len, const char *name, char *err, size_t errlen);
void hwprof_bkf_free(hwprof_bkf_t *b);

/* Reads a whole file into a malloc'd buffer; 0, or -1 with a reason naming path. */
int hwprof_wpp_slurp(const char *path, uint8_t **buf, size_t *len, char *err, size_t errlen);
/* Every hwprof-wpp file starts with 8 bytes of magic and a 32-bit version: 0 if buf has them (and at
 * least min bytes), or -1 with the reason ("not a KIND file", a version this tool does not read). */
int hwprof_wpp_check_header(const uint8_t *buf, size_t len, size_t min, const char *magic, const char *kind,
                            const char *name, char *err, size_t errlen);
/* Reads path whole and hands it to parse(obj, buf, len, path, err, errlen); parse's result. */
typedef int (*hwprof_wpp_parse_fn)(void *obj, const uint8_t *buf, size_t len, const char *name, char *err, size_t errlen);
int hwprof_wpp_load(const char *path, hwprof_wpp_parse_fn parse, void *obj, char *err, size_t errlen);

#endif /* HWPROF_WPP_TRACE_FILE_H */
