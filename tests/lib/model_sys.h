/* The C model of hwprof_top with an optional memory model behind it, driven the way a processor
 * and its firmware drive the hardware: APB transfers (also as a hwprof_bus_t, so the drivers in
 * sw/ run against the model) and retire events. Shared by the model-level tests. */
#ifndef HWPROF_TESTS_MODEL_SYS_H
#define HWPROF_TESTS_MODEL_SYS_H

#include "hwprof_mmio.h"
#include "mem/mem_model.h"
#include "top/top.h"

typedef struct {
  hwprof_top_cfg_t cfg;
  hwprof_top_state_t s;
  hwprof_mem_model_t *mem; /* NULL: no memory (the edge-profiling unit must then make no request) */
  hwprof_top_out_t out;    /* outputs of the last cycle */
  uint64_t cycles;
  bool pslverr;     /* of the last APB transfer */
  hwprof_t h;       /* a driver handle whose bus is this system */
} model_sys_t;

/* cfg NULL: the defaults. Resets the model and points h at it. */
void model_sys_init(model_sys_t *y, const hwprof_top_cfg_t *cfg, hwprof_mem_model_t *mem);
/* One clock cycle with the given inputs (the memory's signals are filled in). */
void model_sys_cycle(model_sys_t *y, hwprof_top_in_t *in);
/* A full APB transfer (setup and access cycles); returns prdata of the access cycle. */
uint32_t model_sys_apb(model_sys_t *y, bool write, uint16_t addr, uint32_t data);
/* Present one retire event until the port accepts it; returns the cycles it waited. */
unsigned model_sys_retire(model_sys_t *y, hwprof_retire_ev_t ev);

#endif /* HWPROF_TESTS_MODEL_SYS_H */
