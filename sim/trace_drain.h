/* The platforms' trace drain (hwprof-sim and hwprof-sc --trace-out=FILE, docs/wpp.md): the trace
 * controller runs in FIFO mode with every trace collected (no sampling, no address filter) from the
 * program's entry, and the host side of the platform empties the FIFO over APB with the trace
 * driver (sw/fw/drivers/hwprof_trace.c) whenever the TRACE interrupt output says it holds a record, writing
 * each record to a trace file (sw/host/wpp/trace_file.h). The drain's register accesses cost cycles but
 * no instruction of the program; it runs before the next instruction, so the FIFO cannot overflow
 * (a dropped record would still be counted in the file's end record). At the end it writes the
 * trace in progress and the program's instruction count, which lets the reader prove the stream is
 * whole. The program must leave the trace controller alone: finish says so if it did not. */
#ifndef HWPROF_SIM_TRACE_DRAIN_H
#define HWPROF_SIM_TRACE_DRAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwprof_trace.h"
#include "ports.h"
#include "trace_file.h"

typedef struct {
  hwprof_t h; /* the registers, over the platform's host-side bus */
  hwprof_trf_writer_t w;
  const char *path;
  uint64_t insns;   /* the program's own instructions (trap handlers' excluded) */
  uint32_t last_pc; /* the last of them */
  uint64_t drains;  /* times the FIFO was emptied */
  uint8_t watermark; /* records in the FIFO that raise the TRACE interrupt */
  bool write_failed;
} trace_drain_t;

/* Configures the controller (the program has not run yet) and creates the file. Returns 0, or -1
 * with a one-line reason in err. */
int trace_drain_init(trace_drain_t *d, const char *path, const hwprof_bus_t *bus, void *bus_ctx, uint32_t entry_pc,
                     char *err, size_t errlen);
/* One retired instruction (the platform's event), after the hardware took it. */
void trace_drain_event(trace_drain_t *d, const hwprof_retire_ev_t *ev);
/* Call between instructions with the TRACE interrupt output: a high one empties the FIFO. */
void trace_drain_poll(trace_drain_t *d, bool irq_trace);
/* After the program stopped: the last records, the trace in progress, the end record. Returns 0,
 * or -1 with the reason (the program reconfigured the controller, records were dropped, a write
 * error) in err; the file is complete either way, its end record says what was dropped. */
int trace_drain_finish(trace_drain_t *d, char *err, size_t errlen);

#endif /* HWPROF_SIM_TRACE_DRAIN_H */
