/* See model_sys.h. */
#include "lib/model_sys.h"

#include <stdlib.h>
#include <string.h>

static uint32_t bus_read(void *ctx, uint16_t off) { return model_sys_apb(ctx, false, off, 0); }
static void bus_write(void *ctx, uint16_t off, uint32_t v) { model_sys_apb(ctx, true, off, v); }
static const hwprof_bus_t model_bus = {bus_read, bus_write};

void model_sys_init(model_sys_t *y, const hwprof_top_cfg_t *cfg, hwprof_mem_model_t *mem) {
  memset(y, 0, sizeof *y);
  if (cfg) y->cfg = *cfg;
  else hwprof_top_cfg_default(&y->cfg);
  hwprof_top_reset(&y->s);
  y->mem = mem;
  y->h = (hwprof_t){.base = 0, .bus = &model_bus, .bus_ctx = y};
}

void model_sys_cycle(model_sys_t *y, hwprof_top_in_t *in) {
  hwprof_mem_rsp_t mr = {0};
  if (y->mem) hwprof_mem_model_comb(y->mem, &mr);
  in->mem_req_ready = mr.ready;
  in->mem_rsp_valid = mr.rsp_valid;
  in->mem_rsp_rdata = mr.rdata;
  hwprof_top_cycle(&y->s, &y->cfg, in, &y->out);
  hwprof_mem_req_t q = {y->out.mem_req_valid, y->out.mem_req_write, y->out.mem_req_addr, y->out.mem_req_wdata};
  if (y->mem) hwprof_mem_model_step(y->mem, &q);
  else if (q.valid) abort(); /* a memory request with no memory: the test set the system up wrong */
  y->cycles++;
}

uint32_t model_sys_apb(model_sys_t *y, bool write, uint16_t addr, uint32_t data) {
  hwprof_top_in_t in = {0};
  in.apb = (hwprof_apb_req_t){.psel = true, .penable = false, .pwrite = write, .paddr = addr, .pwdata = data};
  model_sys_cycle(y, &in);
  in.apb.penable = true;
  model_sys_cycle(y, &in);
  y->pslverr = y->out.apb.pslverr;
  return y->out.apb.prdata;
}

unsigned model_sys_retire(model_sys_t *y, hwprof_retire_ev_t ev) {
  hwprof_top_in_t in = {0};
  in.ev = ev;
  in.ev.valid = true;
  for (unsigned waited = 0;; waited++) {
    model_sys_cycle(y, &in);
    if (y->out.ev_ready) return waited;
    if (waited > 1000000) abort(); /* a stall that never ends is a model bug; fail loudly */
  }
}
