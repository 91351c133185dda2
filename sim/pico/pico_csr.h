// The machine-mode interface the firmware was written for (mtvec, mie, mstatus.MIE, mcause, mepc,
// mret, the counters and the CLINT timer of the simulated platform: docs/cpu-model.md), emulated for
// picorv32, which has no CSRs and takes interrupts its own way (docs/picorv32.md, "Interrupts and
// firmware").
//
// - A CSR instruction runs as it is: picorv32 does not know it and offers it on its co-processor port
//   (PCPI), where the bench answers it at once, every form (csrrw/s/c and their immediates), with the
//   CSR's old value in rd (csr_access). It retires as it does on the CPU model.
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
  return x;  // any other form reaches csr_access, which refuses it
}

struct Machine {
  uint32_t mstatus = 0x1800u, mie = 0, mtvec = 0, mscratch = 0, mcause = 0, mtval = 0;
  uint64_t mtimecmp = UINT64_MAX, instret = 0, cycle = 0, interrupts = 0;
  uint32_t eoi = 0;
  static constexpr uint32_t kMIE = 1u << 3, kMPIE = 1u << 7;

  uint32_t mip(bool ext) const { return (ext ? kLineExt : 0u) | (instret >= mtimecmp ? kLineTimer : 0u); }

  // The CSR instruction x on the co-processor port, a its rs1 value: false when it is not one the
  // CPU model has (or an access to mepc the stand-ins do not cover); else *old is rd's new value.
  bool csr_access(uint32_t x, uint32_t a, bool ext, uint32_t *old) {
    const uint32_t f3 = rv32_funct3(x), rs1 = rv32_rs1(x), csr = x >> 20;
    if (rv32_opcode(x) != RV32_OP_SYSTEM || f3 == 0 || f3 == 4 || csr == kCsrMepc) return false;
    const uint32_t v = f3 >= 5 ? rs1 : a;  // the immediate forms: rs1 is the value
    uint32_t r = 0;
    switch (csr) {
      case 0x300: r = mstatus; break;
      case 0x301: r = 0x40001100u; break;  // misa: RV32, I, M, as the CPU model says
      case 0x304: r = mie; break;
      case 0x305: r = mtvec; break;
      case 0x340: r = mscratch; break;
      case 0x342: r = mcause; break;
      case 0x343: r = mtval; break;
      case 0x344: r = mip(ext); break;
      case 0xf11: case 0xf12: case 0xf13: case 0xf14: r = 0; break;
      case 0xb00: case 0xc00: case 0xc01: r = static_cast<uint32_t>(cycle); break;
      case 0xb80: case 0xc80: case 0xc81: r = static_cast<uint32_t>(cycle >> 32); break;
      case 0xb02: case 0xc02: r = static_cast<uint32_t>(instret); break;
      case 0xb82: case 0xc82: r = static_cast<uint32_t>(instret >> 32); break;
      default: return false;
    }
    *old = r;
    const uint32_t op = f3 & 3u;                      // 1 write, 2 set, 3 clear
    if (op != 1 && rs1 == 0) return true;             // a read alone
    const uint32_t n = op == 1 ? v : op == 2 ? r | v : r & ~v;
    switch (csr) {
      case 0x300: mstatus = (n & (kMIE | kMPIE)) | 0x1800u; break;
      case 0x304: mie = n & (kLineExt | kLineTimer); break;
      case 0x305: mtvec = n & ~2u; break;
      case 0x340: mscratch = n; break;
      case 0x342: mcause = n; break;
      case 0x343: mtval = n; break;
      default: break;  // misa, mip, the ids: writes ignored; the counters: not written here
    }
    return true;
  }
  // picorv32's interrupt lines for the next edge
  uint32_t lines(bool ext) const {
    if (!(mstatus & kMIE)) return 0;
    return mie & mip(ext);
  }
  // the core entered or left a handler (its eoi this cycle)
  void track(uint32_t eoi_now) {
    if (!eoi && eoi_now) {
      mstatus = (mstatus & kMIE ? kMPIE : 0u) | 0x1800u;
      mcause = eoi_now & kLineExt ? 0x8000000bu : 0x80000007u;
      interrupts++;
    } else if (eoi && !eoi_now) {
      mstatus = (mstatus & kMPIE ? kMIE : 0u) | kMPIE | 0x1800u;
    }
    eoi = eoi_now;
  }
};

}  // namespace pico

#endif  // HWPROF_SIM_PICO_CSR_H
