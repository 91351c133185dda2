/* The basic-block stream rebuilt from a trace file (docs/wpp.md, "Blocks from the hardware"): each
 * record is walked through the program image by the trace reconstruction of seed 002's Figure 9
 * (sw/lib/trace_recon.c), which cuts it into blocks after every conditional branch and forward jump; a
 * record's last block ends where the trace ended. The unfinished trace at the end is walked for the
 * instructions the end record leaves over, and must land on the program's last instruction. A
 * record that cannot be followed, or a count that does not add up, is an error naming the file and
 * the record's offset: no partial stream is presented as complete. */
#ifndef HWPROF_WPP_BLOCK_STREAM_H
#define HWPROF_WPP_BLOCK_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "hwprof_image.h"
#include "trace_file.h"

/* Fills out (its ev array malloc'd) from the trace file t read from name. progress, if not NULL, is
 * called now and then with the records done. Returns 0, or -1 with a one-line reason in err. */
int wpp_blocks_from_traces(const hwprof_trf_t *t, const char *name, const hwprof_image_t *img, hwprof_bkf_t *out,
                           void (*progress)(void *ctx, uint64_t done, uint64_t total), void *progress_ctx, char *err,
                           size_t errlen);

#endif /* HWPROF_WPP_BLOCK_STREAM_H */
