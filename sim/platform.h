/* The whole system with the C model of hwprof_top: the CPU model's retire events drive the
 * retire-event port cycle by cycle (the CPU stalls while ready is low), the hwprof registers are
 * memory-mapped at PLATFORM_HWPROF_BASE and reached over APB (two cycles per access), the profile
 * cache's memory port is served from the CPU's RAM with a fixed latency (cmodel/mem/mem_model.c), and the interrupt outputs
 * drive the CPU's external interrupt line.
 *
 * The C-only platform: the same timing as the SystemC platform (sim/sc/), which also runs the RTL
 * and both in lockstep; this one is some twenty times faster than that platform with the C model
 * (docs/cpu-model.md, "Speed"). */
#ifndef HWPROF_PLATFORM_H
#define HWPROF_PLATFORM_H

#include "lib/apb_master.h"
#include "mem/mem_model.h"
#include "rv32.h"
#include "top/top.h"

#define PLATFORM_HWPROF_BASE HWPROF_PLAT_REG_BASE /* regs/encodings.json */
#define PLATFORM_HWPROF_SIZE UINT32_C(0x10000)

typedef struct {
  rv_cpu_t cpu;
  hwprof_top_cfg_t cfg;
  hwprof_top_state_t hw;
  hwprof_top_out_t out;      /* hwprof outputs of the last cycle */
  bool plain; /* the last cycle was plain (hwprof_top_cycle()) and the profile memory is idle: the next
                 may be hwprof_top_plain_again() */
  /* hwprof's inputs: in ev_in the CPU's retire event (written there by the CPU model, never an APB
     access), in bus_in an APB access or nothing (never an event) */
  hwprof_top_in_t ev_in, bus_in;
  hwprof_mem_req_t mem_req; /* the memory request of the last cycle (its write data: of the last write) */
  hwprof_mem_model_t mem; /* the memory port's responder, over the CPU's RAM */
  hwprof_apb_master_t apb; /* the APB requester of the host side (tb/lib/apb_master.h) */
  /* timing (docs/cpu-model.md, "Timing"): idle cycles after each taken branch or jump; 0 by default,
     the timing the SystemC platform shares */
  unsigned taken_penalty;
  /* an optional instruction cache (docs/cpu-model.md, "Timing"): direct-mapped, icache_lines lines of
     PLATFORM_ICACHE_LINE bytes (0: none), icache_miss idle cycles per miss */
  unsigned icache_lines, icache_miss;
  uint32_t *icache_tag; /* per line: the line address + 1 (0: invalid) */
  uint64_t icache_misses;
  /* statistics */
  uint64_t cycles, stall_cycles, apb_accesses, interrupts, taken_transfers, penalty_cycles;
  char error[200];
} platform_t;

/* Returns 0, or -1 with the reason (naming the file) in p->error. */
int platform_init(platform_t *p, const char *elf, uint32_t ram_size, unsigned mem_latency);
void platform_free(platform_t *p);
#define PLATFORM_ICACHE_LINE 16u
/* Sets up the instruction cache of bytes bytes (a power of two, at least one line; 0: none).
 * Returns 0, or -1 (a bad size or out of memory). */
int platform_icache(platform_t *p, unsigned bytes, unsigned miss_cycles);
/* The fetch of the instruction at pc: the idle cycles it costs (a miss fills the line). */
unsigned platform_fetch(platform_t *p, uint32_t pc);
/* One instruction: execute it, then present its retire event (p->ev_in.ev) until the port accepts it. */
rv_status_t platform_step(platform_t *p);
/* An APB access from the host side (configuration, monitoring): two cycles, no instruction. */
uint32_t platform_apb(platform_t *p, bool write, uint16_t addr, uint32_t data);

#endif /* HWPROF_PLATFORM_H */
