// The machine-mode interface the firmware was written for (mtvec, mie, mstatus.MIE, mcause, mepc,
// mret, the counters and the CLINT timer of the simulated platform: docs/cpu-model.md), emulated for
// picorv32, which has no CSRs and takes interrupts its own way (docs/picorv32.md, "Interrupts and
// firmware").
//
// - A CSR instruction runs as it is: picorv32 does not know it and offers it on its co-processor port
//   (PCPI), where the bench answers it at once, every form (csrrw/s/c and their immediates), with the
//   CSR's old value in rd, executing it on the CPU model's CSRs (rv_csr, sim/rv32.c). It retires as
//   it does on the CPU model.
// - But mepc is picorv32's q0, where it keeps the interrupted pc: the fetch of csrr rd, mepc is
//   answered with getq rd, q0, of csrw mepc, rs with setq q0, rs, and of mret with retirq (stand_in).
// - The fetch at the interrupt vector is answered with a jal to mtvec (within 1 MiB of the vector,
//   below RAM).
//
// The interrupt lines follow the CPU model's rule: the external line (11) is mstatus.MIE && mie.MEIE
// && any of hwprof's interrupt outputs, the timer's (7) mstatus.MIE && mie.MTIE && mtime >= mtimecmp,
// with mtime the instructions retired. Entering a handler (picorv32's eoi rises) saves MIE in MPIE,
// clears it and sets mcause from the line taken (the external one first, as the CPU model orders
// them); its return (eoi falls) restores MIE from MPIE.
#ifndef HWPROF_SIM_PICO_CSR_H
#define HWPROF_SIM_PICO_CSR_H

#include <cstdint>

extern "C" {
#include "rv32.h"
#include "rv32_isa.h"
}

namespace pico {

constexpr uint32_t kIrqVector = HWPROF_PLAT_RAM_BASE - 16u;  // hwprof_pico_sys's IrqVector (RamBase - 16)
constexpr uint32_t kLineExt = 1u << 11, kLineTimer = 1u << 7;
constexpr uint32_t kMaskIrqAll = 0x0600000bu;  // maskirq x0, x0: unmask every line not masked for good
constexpr uint32_t kCsrMepc = 0x341u;

// The fetch's stand-in for the instruction word x (x itself when it needs none).
inline uint32_t stand_in(uint32_t x) {
  if (x == RV32_INSN_MRET) return RV32_INSN_PICO_RETIRQ;
  if (rv32_opcode(x) != RV32_OP_SYSTEM || (x >> 20) != kCsrMepc) return x;
  const uint32_t f3 = rv32_funct3(x), rd = rv32_rd(x), rs1 = rv32_rs1(x);
  if ((f3 == 2 || f3 == 3) && rs1 == 0) return rd << 7 | RV32_OP_CUSTOM0;  // csrr rd, mepc: getq rd, q0
  if (f3 == 1 && rd == 0) return 1u << 25 | rs1 << 15 | RV32_OP_CUSTOM0;   // csrw mepc, rs: setq q0, rs
  return x;  // any other form of mepc access reaches the co-processor port, where the bench refuses it
}

// The CSRs themselves are the CPU model's (rv_cpu_t's, executed by rv_csr, the timer by
// rv_timer_access); this is what picorv32's interrupts add to them.
struct Interrupts {
  uint32_t eoi = 0;     // picorv32's eoi as last seen: the lines the running handler took
  uint64_t taken = 0;   // handlers entered
  static constexpr uint32_t kMIE = 1u << 3, kMPIE = 1u << 7, kMPP = 3u << 11;

  // picorv32's lines for the next edge: mie's bits are the lines' (MEIE 11, MTIE 7)
  static uint32_t lines(const rv_cpu_t &c) {
    if (!(c.mstatus & kMIE)) return 0;
    return c.mie & ((c.irq_line ? kLineExt : 0u) | (c.instret >= c.mtimecmp ? kLineTimer : 0u));
  }
  // the core entered or left a handler (its eoi this cycle): mstatus and mcause as the CPU model's
  // trap entry and mret leave them
  void track(rv_cpu_t *c, uint32_t eoi_now) {
    if (!eoi && eoi_now) {
      c->mstatus = (c->mstatus & kMIE ? kMPIE : 0u) | kMPP;
      c->mcause = eoi_now & kLineExt ? 0x8000000bu : 0x80000007u;
      taken++;
    } else if (eoi && !eoi_now) {
      c->mstatus = (c->mstatus & kMPIE ? kMIE : 0u) | kMPIE | kMPP;
    }
    eoi = eoi_now;
  }
};

}  // namespace pico

#endif  // HWPROF_SIM_PICO_CSR_H
