/* The whole system with the C model of hwprof_top; see platform.h. */
#include "platform.h"

#include <string.h>

/* One clock cycle of hwprof_top with the given retire event and APB request. */
static void hw_cycle(platform_t *p, const retire_ev_t *ev, const apb_req_t *apb) {
  top_in_t in = {0};
  if (ev) in.ev = *ev;
  if (apb) in.apb = *apb;
  /* the memory port: always ready when no read is outstanding; a read answers after the latency */
  const unsigned words = p->cfg.edge_prof.line_words, wbytes = p->cfg.edge_prof.cnt_w / 8u;
  in.mem_req_ready = !p->rd_pending;
  in.mem_rsp_valid = p->rd_pending && p->rd_wait == 0;
  if (in.mem_rsp_valid) {
    for (unsigned w = 0; w < words; w++) {
      uint64_t v = 0, a = p->rd_addr + (uint64_t)w * wbytes;
      if (a >= RV_RAM_BASE && a + wbytes <= RV_RAM_BASE + (uint64_t)p->cpu.ram_size)
        for (unsigned b = 0; b < wbytes; b++) v |= (uint64_t)p->cpu.ram[a - RV_RAM_BASE + b] << (8 * b);
      in.mem_rsp_rdata.w[w] = v;
    }
  }
  top_cycle(&p->hw, &p->cfg, &in, &p->out);
  if (in.mem_rsp_valid) p->rd_pending = false;
  else if (p->rd_pending) p->rd_wait--;
  if (p->out.mem_req_valid && in.mem_req_ready) {
    if (p->out.mem_req_write) {
      p->mem_writes++;
      for (unsigned w = 0; w < words; w++) {
        uint64_t a = p->out.mem_req_addr + (uint64_t)w * wbytes;
        if (a >= RV_RAM_BASE && a + wbytes <= RV_RAM_BASE + (uint64_t)p->cpu.ram_size)
          for (unsigned b = 0; b < wbytes; b++)
            p->cpu.ram[a - RV_RAM_BASE + b] = (uint8_t)(p->out.mem_req_wdata.w[w] >> (8 * b));
      }
    } else {
      p->mem_reads++;
      p->rd_pending = true;
      p->rd_addr = p->out.mem_req_addr;
      p->rd_wait = p->mem_latency ? p->mem_latency - 1u : 0u;
    }
  }
  p->cpu.irq_line = p->out.irq_phase || p->out.irq_trace || p->out.irq_coproc || p->out.irq_error;
  p->cycles++;
}

uint32_t platform_apb(platform_t *p, bool write, uint16_t addr, uint32_t data) {
  apb_req_t a = {.psel = true, .penable = false, .pwrite = write, .paddr = addr, .pwdata = data};
  hw_cycle(p, NULL, &a);
  a.penable = true;
  hw_cycle(p, NULL, &a); /* p->out holds the access phase's outputs */
  p->apb_accesses++;
  return p->out.apb.prdata;
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
  top_cfg_default(&p->cfg);
  top_reset(&p->hw);
  p->mem_latency = mem_latency;
  return 0;
}

void platform_free(platform_t *p) { rv_free(&p->cpu); }

rv_status_t platform_step(platform_t *p, retire_ev_t *ev) {
  rv_status_t st = rv_step(&p->cpu, ev);
  if (!ev->valid) {
    if (st == RV_RUNNING) { /* an interrupt was taken: a cycle with no instruction */
      p->interrupts++;
      hw_cycle(p, NULL, NULL);
    }
    return st;
  }
  for (hw_cycle(p, ev, NULL); !p->out.ev_ready; hw_cycle(p, ev, NULL)) p->stall_cycles++;
  return st;
}
