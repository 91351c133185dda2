/* The whole system with the C model of hwprof_top; see platform.h. */
#include "platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One clock cycle of hwprof_top with the inputs in (the retire event and APB request set, the memory
 * port's set here). The inputs and the memory request live in the platform: nothing is copied a cycle
 * but what changes (a copy of a just-written event stalls on store forwarding), the line of a read
 * response only when it is answered, the write data only when a line is written. */
static void hw_cycle(platform_t *p, hwprof_top_in_t *in) {
  p->cycles++;
  /* after a plain cycle with the profile memory idle: most cycles of a run (hwprof_top_plain_again()) */
  if (p->plain && !(in->apb.psel && in->apb.penable) && hwprof_top_plain_again(&p->hw, &in->ev)) return;
  /* the memory port: the profile memory over the CPU's RAM (cmodel/mem/mem_model.c) */
  in->mem_req_ready = hwprof_mem_model_ready(&p->mem);
  in->mem_rsp_valid = hwprof_mem_model_rsp_valid(&p->mem);
  if (in->mem_rsp_valid) hwprof_mem_model_rsp_line(&p->mem, &in->mem_rsp_rdata);
  const bool plain = hwprof_top_cycle(&p->hw, &p->cfg, in, &p->out);
  hwprof_mem_req_t *q = &p->mem_req;
  q->valid = p->out.mem_req_valid;
  q->write = p->out.mem_req_write;
  q->addr = p->out.mem_req_addr;
  if (q->valid && q->write) q->wdata = p->out.mem_req_wdata;
  /* an idle memory stays idle until the next request (which a plain cycle does not make) */
  const bool mem_idle = hwprof_mem_model_idle(&p->mem, q);
  if (!mem_idle) hwprof_mem_model_step(&p->mem, q);
  p->plain = plain && mem_idle;
  p->cpu.irq_line = p->out.irq_phase || p->out.irq_trace || p->out.irq_coproc || p->out.irq_error;
}

uint32_t platform_apb(platform_t *p, bool write, uint16_t addr, uint32_t data) {
  hwprof_apb_master_start(&p->apb, write, addr, data);
  do {
    p->bus_in.apb = p->apb.req;
    hw_cycle(p, &p->bus_in);
  } while (!hwprof_apb_master_edge(&p->apb, &p->out.apb));
  p->apb_accesses++;
  return p->apb.rdata;
}

static uint32_t mmio_read(void *ctx, uint32_t off) { return platform_apb(ctx, false, (uint16_t)off, 0); }
static void mmio_write(void *ctx, uint32_t off, uint32_t v) { platform_apb(ctx, true, (uint16_t)off, v); }

int platform_init(platform_t *p, const char *elf, uint32_t ram_size, unsigned mem_latency) {
  memset(p, 0, sizeof *p);
  if (rv_init(&p->cpu, ram_size) != 0 || rv_load_elf(&p->cpu, elf) != 0) {
    memcpy(p->error, p->cpu.error, sizeof p->error);
    return -1;
  }
  p->cpu.cmdline = elf;
  p->cpu.mmio = (rv_mmio_t){PLATFORM_HWPROF_BASE, PLATFORM_HWPROF_SIZE, mmio_read, mmio_write, p};
  hwprof_top_cfg_default(&p->cfg);
  hwprof_top_reset(&p->hw);
  /* granted whenever no read is outstanding; a read answers mem_latency cycles after acceptance */
  const unsigned lat = mem_latency ? mem_latency : 1u;
  const hwprof_mem_model_cfg_t mc = {RV_RAM_BASE, ram_size, p->cfg.edge_prof.cnt_w, p->cfg.edge_prof.line_words,
                                     lat, lat, 100, 0};
  if (hwprof_mem_model_init_over(&p->mem, &mc, p->cpu.ram) != kHwprofOk) {
    snprintf(p->error, sizeof p->error, "%s: the profile memory cannot be set up over %u bytes of RAM", elf,
             (unsigned)ram_size);
    return -1;
  }
  return 0;
}

int platform_icache(platform_t *p, unsigned bytes, unsigned miss_cycles) {
  free(p->icache_tag);
  p->icache_tag = NULL;
  p->icache_lines = 0;
  p->icache_miss = miss_cycles;
  if (bytes == 0) return 0;
  if (bytes < PLATFORM_ICACHE_LINE || (bytes & (bytes - 1u))) return -1;
  p->icache_lines = bytes / PLATFORM_ICACHE_LINE;
  return (p->icache_tag = calloc(p->icache_lines, sizeof *p->icache_tag)) ? 0 : -1;
}

unsigned platform_fetch(platform_t *p, uint32_t pc) {
  if (p->icache_lines == 0) return 0;
  const uint32_t line = pc / PLATFORM_ICACHE_LINE, set = line & (p->icache_lines - 1u);
  if (p->icache_tag[set] == line + 1u) return 0;
  p->icache_tag[set] = line + 1u;
  p->icache_misses++;
  return p->icache_miss;
}

void platform_free(platform_t *p) {
  free(p->icache_tag);
  p->icache_tag = NULL;
  hwprof_mem_model_free(&p->mem);
  rv_free(&p->cpu);
}

/* A cycle with neither an event nor an APB access. */
static void idle_cycle(platform_t *p) {
  p->bus_in.apb = (hwprof_apb_req_t){0};
  hw_cycle(p, &p->bus_in);
}

rv_status_t platform_step(platform_t *p) {
  hwprof_retire_ev_t *ev = &p->ev_in.ev;
  rv_status_t st = rv_step(&p->cpu, ev);
  if (!ev->valid) {
    if (st == RV_RUNNING) { /* an interrupt was taken: a cycle with no instruction */
      p->interrupts++;
      idle_cycle(p);
    }
    p->cpu.cycle = p->cycles; /* mcycle counts the system's clock cycles */
    return st;
  }
  for (hw_cycle(p, &p->ev_in); !p->out.ev_ready; hw_cycle(p, &p->ev_in)) p->stall_cycles++;
  unsigned idle = platform_fetch(p, ev->pc); /* its fetch missed the instruction cache */
  if (rv_taken_transfer(ev)) {
    p->taken_transfers++;
    idle += p->taken_penalty; /* the fetch redirect */
  }
  for (unsigned i = 0; i < idle; i++) idle_cycle(p);
  p->penalty_cycles += idle;
  p->cpu.cycle = p->cycles; /* mcycle counts the system's clock cycles: stalls, bus and idle cycles too */
  return st;
}
