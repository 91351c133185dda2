// hwprof-pico: a program on picorv32's RTL with hwprof_top's RTL, joined by the RVFI adapter
// (sim/pico/hwprof_pico_sys.sv), all in Verilator; this bench is their memory and APB requester
// (docs/picorv32.md).
//
// - The program's memory and shadow words come from the CPU model's ELF loader (sim/rv32.c), which
//   also does its semihosting. picorv32 stops at an ebreak, so the memory answers the fetch of a
//   semihosting call's ebreak (between slli and srai) with an instruction picorv32 does not know,
//   which it offers on its co-processor port (PCPI), where the bench makes the call. picorv32 has
//   no CSRs: the machine-mode interface the firmware uses (CSRs, mret, the timer, interrupts) is
//   emulated (pico_csr.h), its CSR instructions answered on the same port. The fetch of any other
//   word is the word itself, with its shadow word.
// - Stores and loads at hwprof's register window (HWPROF_PLAT_REG_BASE) become APB transfers; the
//   profile memory is the RAM itself (hwprof_mem_model over it, as on the other platforms).
// - The adapter's C model (cmodel/core/rvfi_adapter.c) runs on the same inputs; its outputs are
//   compared with the RTL's every cycle (exit 5 on a difference, naming cycle and field).
// - --edge-map: after the exit the profile cache is flushed over APB and the edge profile read back
//   and checked against the exact counts of the run (tb/check/edge_check.c), as hwprof-sim does;
//   --path-map decodes the path profile the same way (pp_readback); --trace-out drains the trace
//   controller's FIFO over APB while the core is held (sim/trace_drain.c).
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "Vhwprof_pico_sys.h"
#include "pico_csr.h"
#include "verilated.h"
#include "verilated_fst_c.h"

extern "C" {
#include "check/cop_check.h"
#include "check/edge_check.h"
#include "check/prof_coverage.h"
#include "oracle/value_truth.h"
#include "core/rvfi_adapter.h"
#include "mem/mem_model.h"
#include "hwprof_edge.h"
#include "hwprof_exit.h"
#include "hwprof_mmio.h"
#include "lib/apb_master.h"
#include "pp_readback.h"
#include "trace_drain.h"
#include "rv32.h"
}

namespace {

// the stand-in for a semihosting call's ebreak: an instruction picorv32 does not know (custom-2,
// a0 <- op(a0, a1)), which it offers on its co-processor port, where the bench makes the call
constexpr uint32_t kSemihostCall = 11u << 20 | 10u << 15 | 10u << 7 | 0x5bu;

struct Bench {
  std::unique_ptr<VerilatedContext> ctx{new VerilatedContext};
  std::unique_ptr<Vhwprof_pico_sys> top;
  VerilatedFstC *fst = nullptr;
  rv_cpu_t cpu{};
  hwprof_mem_model_t mem{};
  hwprof_apb_master_t apb{};
  rvfi_adapter_t model{};
  uint64_t cycle = 0, retired = 0, stalls = 0, apb_cycles = 0;
  bool exited = false, mismatch = false;
  bool exit_called = false;  // the exit call was made; the run ends when its own record reaches hwprof
  bool apb_core = false, apb_core_done = false;  // the core's access to hwprof's registers: in flight, answered
  uint32_t apb_core_rdata = 0;
  std::string why;  // a run that cannot go on
  uint32_t entry = 0;
  pico::Interrupts irqs{};  // picorv32's interrupts over the CPU model's CSRs (cpu's) and timer
  bool check = false;  // --edge-map
  uint64_t inject = 0;  // --inject-fault
  edge_check_t ec{};
  bool hold = false;   // the core's memory held (the trace drain's register accesses run meanwhile)
  bool drain_on = false;  // --trace-out
  trace_drain_t drain{};
  bool cop = false;    // --cop-check
  cop_check_t cc{};
  bool vt_on = false;  // --value-truth
  value_truth_t vt{};
  bool paths = false;  // --path-map: the path profile's coverage
  pm_map_t pmap{};
  prof_cov_t pcov{};

  uint32_t word(uint32_t a) const {
    if (a < RV_RAM_BASE || a - RV_RAM_BASE + 4u > cpu.ram_size) return 0;
    const uint8_t *p = cpu.ram + (a - RV_RAM_BASE);
    return p[0] | p[1] << 8 | p[2] << 16 | static_cast<uint32_t>(p[3]) << 24;
  }
  uint32_t shadow(uint32_t a) const {
    return a >= RV_RAM_BASE && a - RV_RAM_BASE < cpu.ram_size ? cpu.shadow[(a - RV_RAM_BASE) / 4u] : 0;
  }
  // what the core fetches at a: the boot words, the interrupt vector, the program, or a semihosting
  // or CSR word's stand-in
  uint32_t fetch(uint32_t a) {
    if (a == 0) return pico::kMaskIrqAll;                                   // maskirq x0, x0
    if (a == 4) return (entry + 0x800u) & 0xfffff000u | 5u << 7 | 0x37u;  // lui t0, %hi(entry)
    if (a == 8) return (entry & 0xfffu) << 20 | 5u << 15 | 0x67u;           // jalr x0, %lo(entry)(t0)
    if (a == pico::kIrqVector) {                                            // jal x0, mtvec
      const uint32_t d = cpu.mtvec - a;
      if (d >= (1u << 20)) {
        char b[120];
        std::snprintf(b, sizeof b, "an interrupt with mtvec 0x%08" PRIx32 " out of the vector's reach (1 MiB)", cpu.mtvec);
        why = b;
        return 0;
      }
      return rv32_jal(0, static_cast<int32_t>(d));
    }
    const uint32_t x = word(a);
    if (x == RV32_INSN_EBREAK && word(a - 4) == RV32_INSN_SEMIHOST_PRE && word(a + 4) == RV32_INSN_SEMIHOST_POST)
      return kSemihostCall;
    return pico::stand_in(x);
  }

  void tick();
  bool compare();
  void mem_cycle();
  void pcpi_cycle();
};

// ---------------------------------------------------------------- one clock cycle

// The core's request this cycle, answered (ready, data) before the edge.
void Bench::mem_cycle() {
  Vhwprof_pico_sys &t = *top;
  t.mem_ready_i = 0;
  t.mem_rdata_i = 0;
  t.mem_shadow_i = 0;
  if (exited || hold || !t.mem_valid_o) return;
  const uint32_t a = t.mem_addr_o & ~3u;
  if (t.mem_instr_o) {
    t.mem_ready_i = 1;
    t.mem_rdata_i = fetch(a);
    t.mem_shadow_i = shadow(a);
    return;
  }
  const bool write = t.mem_wstrb_o != 0;
  if (a - HWPROF_PLAT_REG_BASE < 0x10000u) {  // hwprof's registers: an APB transfer, the core waiting
    if (apb_core_done) {
      t.mem_ready_i = 1;
      t.mem_rdata_i = apb_core_rdata;
      if (!t.stall_o) apb_core_done = false;
    } else if (!hwprof_apb_master_busy(&apb)) {
      hwprof_apb_master_start(&apb, write, static_cast<uint16_t>(a - HWPROF_PLAT_REG_BASE), t.mem_wdata_o);
      apb_core = true;
    }
    return;
  }
  t.mem_ready_i = 1;
  uint32_t v = t.mem_wdata_o;  // the timer (mtime: instructions retired), as the CPU model has it
  if ((!write || (!t.stall_o && t.mem_wstrb_o == 0xfu)) && rv_timer_access(&cpu, a, write, &v)) {
    if (!write) t.mem_rdata_i = v;
    return;
  }
  if (write && t.stall_o && rv_timer_access(&cpu, a, false, &v)) return;  // the store completes later
  const bool ram = a >= RV_RAM_BASE && a - RV_RAM_BASE < cpu.ram_size;
  const bool sh = a >= RV_SHADOW_BASE && a - RV_SHADOW_BASE < cpu.ram_size;
  if (!ram && !sh) {
    char b[120];
    std::snprintf(b, sizeof b, "an access at 0x%08" PRIx32 " outside RAM and the shadow window", a);
    why = b;
    t.mem_ready_i = 0;
    return;
  }
  if (!write) {
    t.mem_rdata_i = ram ? word(a) : cpu.shadow[(a - RV_SHADOW_BASE) / 4u];
    return;
  }
  if (t.stall_o) return;
  if (sh) {
    cpu.shadow[(a - RV_SHADOW_BASE) / 4u] = t.mem_wdata_o;
    return;
  }
  for (unsigned b = 0; b < 4; b++)
    if (t.mem_wstrb_o >> b & 1u) cpu.ram[a - RV_RAM_BASE + b] = static_cast<uint8_t>(t.mem_wdata_o >> (8 * b));
}

// An instruction picorv32 offers on its co-processor port (not prof.*, which its configuration
// answers): a semihosting call's stand-in or a CSR instruction, answered before the edge, once,
// while no event waits in the adapter (so the events before it are hwprof's before the call acts;
// meanwhile pcpi_wait keeps the core from taking it as illegal). Anything else is left unanswered:
// the core takes it as an illegal instruction and stops.
void Bench::pcpi_cycle() {
  Vhwprof_pico_sys &t = *top;
  t.pcpi_ready_i = 0;
  t.pcpi_wr_i = 0;
  t.pcpi_rd_i = 0;
  t.pcpi_wait_i = 0;
  const uint32_t x = t.pcpi_insn_o;
  if (!t.pcpi_valid_o || exited || exit_called || rv32_opcode(x) == RV32_OP_PROF) return;
  if (x != kSemihostCall && rv32_opcode(x) != RV32_OP_SYSTEM) return;
  if (t.stall_o) {
    t.pcpi_wait_i = 1;
    return;
  }
  uint32_t r = 0;
  if (x == kSemihostCall) {
    cpu.x[10] = t.pcpi_rs1_o;
    cpu.x[11] = t.pcpi_rs2_o;
    cpu.cycle = cycle;
    if (rv_semihost(&cpu)) exit_called = true;
    r = cpu.x[10];
  } else {
    cpu.cycle = cycle;
    cpu.irq_line = t.irq_o != 0;
    if ((x >> 20) == pico::kCsrMepc || !rv_csr(&cpu, x, t.pcpi_rs1_o, &r)) {
      char b[160];
      std::snprintf(b, sizeof b, "a CSR instruction 0x%08" PRIx32 " the platform does not have (or a form of mepc "
                    "access other than csrr and csrw)", x);
      why = b;
      return;
    }
  }
  t.pcpi_ready_i = 1;
  t.pcpi_wr_i = 1;
  t.pcpi_rd_i = r;
}

// The adapter's RTL against its C model, in the cycle before the edge.
bool Bench::compare() {
  const Vhwprof_pico_sys &t = *top;
  rvfi_adapter_out_t o = rvfi_adapter_out(&model, t.ev_ready_o);
  if (inject && cycle >= inject && o.ev.valid) {  // --inject-fault: the model's pid bit 0 flipped, once
    o.ev.pid ^= 1u;
    inject = 0;
  }
  bool ok = o.ev.valid == t.ev_valid_o && o.stall == t.stall_o && o.err == t.adapter_err_o;
  if (ok && o.ev.valid) {
    const hwprof_retire_ev_t &e = o.ev;
    ok = e.pc == t.ev_pc_o && e.next_pc == t.ev_next_pc_o && e.insn == t.ev_insn_o && e.kind == t.ev_kind_o &&
         e.is_call == t.ev_is_call_o && e.is_ret == t.ev_is_ret_o && e.taken == t.ev_taken_o && e.addr == t.ev_addr_o &&
         e.value == t.ev_value_o && e.pid == t.ev_pid_o && e.bhint == t.ev_bhint_o && e.ihint == t.ev_ihint_o &&
         e.op == t.ev_op_o && e.operand == t.ev_operand_o && e.trap == t.ev_trap_o;
  }
  if (!ok && !mismatch) {
    std::fprintf(stderr,
                 "hwprof-pico: MISMATCH at cycle %" PRIu64 ": the adapter's RTL and C model differ: valid %d/%d "
                 "stall %d/%d err %d/%d pc 0x%08x/0x%08x kind %u/%u op %u/%u pid %u/%u operand 0x%" PRIx64
                 "/0x%" PRIx64 " (C model/RTL)\n",
                 cycle, o.ev.valid, t.ev_valid_o, o.stall, t.stall_o, o.err, t.adapter_err_o, o.ev.pc, t.ev_pc_o,
                 o.ev.kind, t.ev_kind_o, o.ev.op, t.ev_op_o, o.ev.pid, t.ev_pid_o, o.ev.operand,
                 static_cast<uint64_t>(t.ev_operand_o));
    mismatch = true;
  }
  return ok;
}

void Bench::tick() {
  Vhwprof_pico_sys &t = *top;
  // APB: the transfer in flight, if any; the profile memory's answer
  t.psel_i = apb.req.psel;
  t.penable_i = apb.req.penable;
  t.pwrite_i = apb.req.pwrite;
  t.paddr_i = apb.req.paddr;
  t.pwdata_i = apb.req.pwdata;
  const bool rsp = hwprof_mem_model_rsp_valid(&mem);
  t.mem_req_ready_i = hwprof_mem_model_ready(&mem);
  t.mem_rsp_valid_i = rsp;
  if (rsp) {
    hwprof_line_t line;
    hwprof_mem_model_rsp_line(&mem, &line);
    for (unsigned w = 0; w < 4; w++) t.mem_rsp_rdata_i[w] = static_cast<uint32_t>(line.w[w]);
  }
  t.clk_i = 0;
  t.eval();  // this cycle's outputs (the core's request and the adapter's are registered)
  compare();
  mem_cycle();  // the core's memory answers: its inputs reach the flops with the clock edge's eval
  pcpi_cycle();
  irqs.track(&cpu, t.core_eoi_o);
  cpu.irq_line = t.irq_o != 0;
  t.core_irq_i = pico::Interrupts::lines(cpu);
  if (t.rvfi_valid_o) {
    cpu.instret++;
    if (t.rvfi_intr_o && t.rvfi_pc_rdata_o != pico::kIrqVector && why.empty()) {
      char b[120];
      std::snprintf(b, sizeof b, "a handler's first record (rvfi_intr) at 0x%08" PRIx32 ", not the vector",
                    static_cast<uint32_t>(t.rvfi_pc_rdata_o));
      why = b;
    }
  }
  const bool fetched = t.mem_valid_o && t.mem_instr_o && t.mem_ready_i && !t.stall_o;
  // what the edge samples
  const rvfi_in_t in = {static_cast<bool>(t.rvfi_valid_o), t.rvfi_insn_o, t.rvfi_pc_rdata_o, t.rvfi_pc_wdata_o,
                        t.rvfi_rs1_rdata_o, t.rvfi_rs2_rdata_o, t.rvfi_mem_rdata_o,
                        static_cast<bool>(t.rvfi_intr_o), fetched, t.mem_addr_o, t.mem_shadow_i};
  const bool ready = t.ev_ready_o;
  hwprof_mem_req_t req{};
  req.valid = t.mem_req_valid_o;
  req.write = t.mem_req_write_o;
  req.addr = t.mem_req_addr_o;
  for (unsigned w = 0; w < 4; w++) req.wdata.w[w] = t.mem_req_wdata_o[w];
  const hwprof_apb_rsp_t apb_rsp = {t.prdata_o, static_cast<bool>(t.pready_o), static_cast<bool>(t.pslverr_o)};
  const bool ev_taken = t.ev_valid_o && ready;
  hwprof_retire_ev_t ev{};
  if (ev_taken) ev = rvfi_adapter_out(&model, ready).ev;
  const bool apb_was = hwprof_apb_master_busy(&apb);
  t.clk_i = 1;
  t.eval();
  if (fst) fst->dump(cycle);
  rvfi_adapter_step(&model, &in, ready);
  hwprof_mem_model_step(&mem, &req);
  if (apb_was) {
    apb_cycles++;
    if (hwprof_apb_master_edge(&apb, &apb_rsp) && apb_core) {  // the core's access completes next cycle
      apb_core = false;
      apb_core_done = true;
      apb_core_rdata = apb.rdata;
    }
  }
  if (ev_taken && !exited) {  // the program's events, up to the exit call's own, as the CPU model retires them
    retired++;
    if (check) edge_check_event(&ec, &ev);
    if (cop) cop_check_event(&cc, &ev);
    if (vt_on) value_truth_event(&vt, &ev);
    if (paths) prof_cov_retire(&pcov, &ev);
    if (drain_on) trace_drain_event(&drain, &ev);
    if (exit_called && ev.insn == kSemihostCall) exited = true;
  }
  stalls += t.stall_o;
  cycle++;
}

// the program's memory, for reading counters back (0 outside RAM)
uint32_t ram_read32(void *c, uint32_t addr) {
  const Bench *b = static_cast<const Bench *>(c);
  return (addr & 3u) ? 0u : b->word(addr);
}

// hwprof's registers for the checks after the run (the flush): one APB transfer, clocked through
uint32_t bus_read(void *c, uint16_t off) {
  Bench *b = static_cast<Bench *>(c);
  hwprof_apb_master_start(&b->apb, false, off, 0);
  for (unsigned n = 0; hwprof_apb_master_busy(&b->apb) && n < 1000; n++) b->tick();
  return b->apb.rdata;
}
void bus_write(void *c, uint16_t off, uint32_t v) {
  Bench *b = static_cast<Bench *>(c);
  hwprof_apb_master_start(&b->apb, true, off, v);
  for (unsigned n = 0; hwprof_apb_master_busy(&b->apb) && n < 1000; n++) b->tick();
}

const char kUsage[] =
    "usage: hwprof-pico [options] PROGRAM.elf\n"
    "Runs an RV32IM program (built for the simulated platform: RAM at 0x80000000, picolibc with\n"
    "semihosting) on picorv32's RTL, its retired instructions reaching hwprof_top's RTL through the\n"
    "RVFI adapter, all in Verilator; the adapter's C model is compared with its RTL every cycle.\n"
    "A program with a firmware runtime (interrupt handler) runs unchanged: its machine-mode CSRs, mret\n"
    "and interrupts are emulated on picorv32's own interrupts, hwprof's outputs on its line 11 and the\n"
    "timer on line 7. After the run it prints the trace controller's counts.\n"
    "  --edge-map=MAP       after the exit, read the edge profile back from the hardware and check it\n"
    "                       against the exact counts of the run (a program instrumented by hwprof-instr)\n"
    "  --edge-profile=FILE  write the profile read back; --edge-truth=FILE the exact one\n"
    "  --trace-out=FILE     drain every trace record from the controller's FIFO over APB into FILE (the\n"
    "                       core held meanwhile); hwprof-wpp rebuilds the program's blocks from it\n"
    "  --out-dir=DIR        files the program opens for writing (semihosting) are created in DIR\n"
    "  --cop-check=FILE     after the exit, check the value-profiling firmware's per-PC counts (FILE, which\n"
    "                       it writes: give --out-dir too) against the loads the front end had to choose,\n"
    "                       counted from the events hwprof_top took (tb/check/cop_check.c)\n"
    "  --value-truth=FILE   write the exact load-value profile of the run, from the events hwprof_top\n"
    "                       took (tb/oracle/value_truth.c: the program's loads while sampling is on)\n"
    "  --path-map=MAP --path-profile=FILE  after the exit, decode the path profile of a program\n"
    "                       instrumented with hwprof-instr --paths=... from the hardware's counters\n"
    "                       into FILE (hwprof-instr paths-check compares it with hwprof-sim --path-truth)\n"
    "  --max-cycles=N       stop a run that has not exited after N cycles (default 10^10)\n"
    "  --progress=N         print progress every N instructions (as hwprof-sim --progress)\n"
    "  --ram=BYTES          RAM size (default 16 MiB)\n"
    "  --mem-latency=N      cycles from a counter-line read to its data (default 4)\n"
    "  --fst=FILE           write a waveform of the whole run\n"
    "  --inject-fault=C     (a test of the comparison) flip a bit of the C model's event at cycle C or\n"
    "                       the first event after it: the run must stop with a mismatch\n"
    "  --quiet              no summary\n"
    "Exit status: the program's exit code; 1 a bad ELF or map file; 2 bad arguments; 3 the core stopped or ran\n"
    "away; 4 the edge check or the cop check failed; 5 the adapter's RTL and C model differ. docs/picorv32.md\n";

bool opt(const char *a, const char *name, const char **v) {
  const size_t n = std::strlen(name);
  if (std::strncmp(a, name, n) != 0 || a[n] != '=') return false;
  *v = a + n + 1;
  return true;
}

bool num(const char *s, uint64_t *v) {
  char *end;
  *v = std::strtoull(s, &end, 0);
  return *s && !*end;
}

}  // namespace

int main(int argc, char **argv) {
  const char *elf = nullptr, *map = nullptr, *prof_out = nullptr, *truth_out = nullptr, *fst_path = nullptr, *v;
  const char *path_map = nullptr, *path_out = nullptr, *trace_out = nullptr, *out_dir = nullptr, *cop_path = nullptr,
             *vt_path = nullptr;
  uint64_t max_cycles = 10000000000ull, ram = 16u << 20, latency = 4, b_inject = 0, progress = 0;
  bool quiet = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!std::strcmp(a, "--help") || !std::strcmp(a, "-h")) {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (!std::strcmp(a, "--quiet")) quiet = true;
    else if (opt(a, "--edge-map", &map) || opt(a, "--edge-profile", &prof_out) || opt(a, "--edge-truth", &truth_out) ||
             opt(a, "--fst", &fst_path) || opt(a, "--path-map", &path_map) || opt(a, "--path-profile", &path_out) ||
               opt(a, "--trace-out", &trace_out) || opt(a, "--out-dir", &out_dir) || opt(a, "--cop-check", &cop_path) ||
               opt(a, "--value-truth", &vt_path)) {
    } else if (opt(a, "--inject-fault", &v)) {
      if (!num(v, &b_inject) || b_inject == 0) {
        std::fprintf(stderr, "hwprof-pico: error: %s: not a positive cycle\n", a);
        return HWPROF_EXIT_USAGE;
      }
    } else if (opt(a, "--progress", &v)) {
      if (!num(v, &progress) || progress == 0) {
        std::fprintf(stderr, "hwprof-pico: error: %s: not a positive number of instructions\n", a);
        return HWPROF_EXIT_USAGE;
      }
    } else if (opt(a, "--max-cycles", &v) || opt(a, "--ram", &v) || opt(a, "--mem-latency", &v)) {
      uint64_t n;
      const bool is_ram = a[2] == 'r', is_lat = a[3] == 'e';
      if (!num(v, &n) || n == 0 || (is_ram && (n > (256u << 20) || (n & 0xfffu))) || (is_lat && n > 1000)) {
        std::fprintf(stderr, "hwprof-pico: error: %s: not a %s\n", a,
                     is_ram   ? "RAM size (a multiple of 4 KiB up to 256 MiB)"
                     : is_lat ? "latency (1 to 1000 cycles)"
                              : "positive number");
        return HWPROF_EXIT_USAGE;
      }
      (is_ram ? ram : is_lat ? latency : max_cycles) = n;
    } else if (a[0] == '-') {
      std::fprintf(stderr, "hwprof-pico: error: unknown option '%s' (--help lists them)\n", a);
      return HWPROF_EXIT_USAGE;
    } else if (elf) {
      std::fprintf(stderr, "hwprof-pico: error: a second program '%s' (one a run)\n", a);
      return HWPROF_EXIT_USAGE;
    } else {
      elf = a;
    }
  }
  if (!elf) {
    std::fputs(kUsage, stderr);
    return HWPROF_EXIT_USAGE;
  }
  if ((prof_out || truth_out) && !map) {
    std::fprintf(stderr, "hwprof-pico: error: --edge-profile and --edge-truth need --edge-map\n");
    return HWPROF_EXIT_USAGE;
  }
  if (!path_map != !path_out) {
    std::fprintf(stderr, "hwprof-pico: error: --path-map and --path-profile go together\n");
    return HWPROF_EXIT_USAGE;
  }
  Bench b;
  if (rv_init(&b.cpu, static_cast<uint32_t>(ram)) != 0 || rv_load_elf(&b.cpu, elf) != 0) {
    std::fprintf(stderr, "hwprof-pico: error: %s\n", b.cpu.error);
    return HWPROF_EXIT_BAD_FILE;
  }
  b.cpu.cmdline = elf;
  b.cpu.console = stdout;
  b.cpu.out_dir = out_dir;
  if (cop_path) {
    cop_check_init(&b.cc, HWPROF_PLAT_REG_BASE, HWPROF_BITMASKBITS_DEFAULT);
    b.cop = true;
  }
  if (vt_path) {
    value_truth_init(&b.vt, HWPROF_PLAT_REG_BASE);
    b.vt_on = true;
  }
  b.entry = b.cpu.pc;
  char err[400];
  if (map) {
    if (edge_check_init(&b.ec, map, 32, err, sizeof err)) {
      std::fprintf(stderr, "hwprof-pico: error: %s\n", err);
      return HWPROF_EXIT_BAD_FILE;
    }
    b.check = true;
  }
  if (path_map) {
    if (pm_read(&b.pmap, path_map, err, sizeof err) || prof_cov_init_map(&b.pcov, &b.pmap)) {
      std::fprintf(stderr, "hwprof-pico: error: %s\n", err);
      return HWPROF_EXIT_BAD_FILE;
    }
    b.paths = true;
  }
  const hwprof_mem_model_cfg_t mc = {RV_RAM_BASE, ram, 32, 4, static_cast<unsigned>(latency),
                                     static_cast<unsigned>(latency), 100, 0};
  if (hwprof_mem_model_init_over(&b.mem, &mc, b.cpu.ram) != kHwprofOk) {
    std::fprintf(stderr, "hwprof-pico: error: the profile memory cannot be set up\n");
    return HWPROF_EXIT_USAGE;
  }
  b.top.reset(new Vhwprof_pico_sys{b.ctx.get()});
  if (fst_path) {
    b.ctx->traceEverOn(true);
    b.fst = new VerilatedFstC;
    b.top->trace(b.fst, 99);
    b.fst->open(fst_path);
  }
  rvfi_adapter_reset(&b.model);
  b.inject = b_inject;
  b.top->rst_ni = 0;
  for (int i = 0; i < 4; i++) {
    b.top->clk_i = 0;
    b.top->eval();
    b.top->clk_i = 1;
    b.top->eval();
  }
  b.top->rst_ni = 1;
  static const hwprof_bus_t bus = {bus_read, bus_write};
  if (trace_out) {  // the controller configured before the program's first instruction
    b.hold = true;
    if (trace_drain_init(&b.drain, trace_out, &bus, &b, b.entry, err, sizeof err) != 0) {
      std::fprintf(stderr, "hwprof-pico: error: %s\n", err);
      return HWPROF_EXIT_BAD_FILE;
    }
    b.hold = false;
    b.drain_on = true;
  }
  const auto t0 = std::chrono::steady_clock::now();
  int rc = 0;
  uint64_t next_progress = progress;
  while (!b.exited && b.cycle < max_cycles && !b.mismatch && b.why.empty() && !b.top->trap_o) {
    b.tick();
    if (next_progress && b.retired >= next_progress) {
      next_progress += progress;
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::fprintf(stderr, "hwprof-pico: %.1f M instructions, %.1f M cycles, %.0f s (%.2f M cycles/s)\n",
                   b.retired / 1e6, b.cycle / 1e6, s, s > 0 ? b.cycle / s / 1e6 : 0.0);
    }
    if (b.drain_on && (b.top->irq_o & 2u)) {  // the TRACE interrupt: the FIFO emptied, the core held
      b.hold = true;
      trace_drain_poll(&b.drain, true);
      b.hold = false;
    }
  }
  if (b.top->trap_o) {
    std::fprintf(stderr, "hwprof-pico: error: %s: the core stopped (picorv32's trap: an illegal instruction or a "
                         "misaligned access) after %" PRIu64 " instructions, at cycle %" PRIu64 "\n", elf, b.retired, b.cycle);
    rc = HWPROF_EXIT_RAN_AWAY;
  } else if (!b.why.empty()) {
    std::fprintf(stderr, "hwprof-pico: error: %s: %s, at cycle %" PRIu64 "\n", elf, b.why.c_str(), b.cycle);
    rc = HWPROF_EXIT_RAN_AWAY;
  } else if (!b.exited && !b.mismatch) {
    std::fprintf(stderr, "hwprof-pico: error: %s: no exit after %" PRIu64 " cycles (--max-cycles)\n", elf, b.cycle);
    rc = HWPROF_EXIT_RAN_AWAY;
  }
  for (unsigned n = 0; b.top->ev_valid_o && n < 1000 && !b.mismatch; n++) b.tick();  // the last events in
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!quiet)
    std::fprintf(stderr,
                 "hwprof-pico: %s: %" PRIu64 " instructions, %s %d, %" PRIu64 " cycles (CPI %.2f), %" PRIu64
                 " cycles with the core held by the adapter, %" PRIu64 " interrupts, %.2f s (%.2f M cycles/s)\n",
                 elf, b.retired, b.exited ? "exit code" : "stopped before its exit; exit code so far", b.cpu.exit_code, b.cycle, b.retired ? static_cast<double>(b.cycle) / b.retired : 0.0,
                 b.stalls, b.irqs.taken, secs, secs > 0 ? b.cycle / secs / 1e6 : 0.0);
  if (!quiet && !b.mismatch) {  // the trace controller's counts, as hwprof-sim prints them
    const uint32_t back = bus_read(&b, HWPROF_TRACE_CTRL_STAT_END_BACKWARD_ADDR);
    const uint32_t ind = bus_read(&b, HWPROF_TRACE_CTRL_STAT_END_INDIRECT_ADDR);
    const uint32_t full = bus_read(&b, HWPROF_TRACE_CTRL_STAT_END_FULL_ADDR);
    const uint32_t samp = bus_read(&b, HWPROF_TRACE_CTRL_STAT_SAMPLED_ADDR);
    const uint32_t drop = bus_read(&b, HWPROF_TRACE_CTRL_STAT_DROPPED_ADDR);
    std::fprintf(stderr, "  traces: ended backward %" PRIu32 ", indirect %" PRIu32 ", full %" PRIu32 "; sampled %" PRIu32
                         ", dropped %" PRIu32 "\n", back, ind, full, samp, drop);
  }
  if (b.top->adapter_err_o) {
    std::fprintf(stderr, "hwprof-pico: error: the adapter lost a record or met one without its fetch (err_o)\n");
    rc = HWPROF_EXIT_RAN_AWAY;
  }
  if (b.drain_on) {
    b.hold = true;
    char derr[300] = "";
    if (trace_drain_finish(&b.drain, derr, sizeof derr) != 0) {
      std::fprintf(stderr, "hwprof-pico: error: %s\n", derr[0] ? derr : "trace drain failed");
      if (rc == 0) rc = HWPROF_EXIT_DIFFERS;
    } else if (!quiet) {
      std::fprintf(stderr, "  trace drain: %" PRIu64 " records in %s (%" PRIu64 " drains, %" PRIu64 " program instructions)\n",
                   b.drain.w.records, trace_out, b.drain.drains, b.drain.insns);
    }
  }
  if ((b.check || b.paths) && rc == 0 && !b.mismatch) {
    const int fl = edge_check_flush(&bus, &b);  // the counters into memory
    if (fl) {
      std::fprintf(stderr, "hwprof-pico: error: %s\n", edge_check_flush_why(fl));
      rc = HWPROF_EXIT_DIFFERS;
    } else if (b.check) {
      const long d = edge_check_finish(&b.ec, b.cpu.ram, RV_RAM_BASE, b.cpu.ram_size, prof_out, truth_out, stderr);
      if (d != 0) rc = HWPROF_EXIT_DIFFERS;
    }
    const hwprof_t h = {0, &bus, &b};
    if (fl == 0 && b.paths && hwprof_pir_path_check(&h) != kHwprofOk) {
      std::fprintf(stderr, "hwprof-pico: path profile: the pir's path stack overflowed or underflowed "
                           "(PATH_STACK.ERR): the path counts are not exact\n");
      rc = HWPROF_EXIT_DIFFERS;
    } else if (fl == 0 && b.paths) {
      FILE *pf = std::fopen(path_out, "w");
      pp_readback_stats_t ps;
      char perr[400];
      if (pf == nullptr || pp_readback(path_map, nullptr, ram_read32, &b, pf, &ps, perr, sizeof perr) != 0) {
        std::fprintf(stderr, "hwprof-pico: path profile: %s\n", pf ? perr : "cannot write the file");
        rc = HWPROF_EXIT_DIFFERS;
      }
      if (pf && (std::ferror(pf) | std::fclose(pf)) && rc == 0) {
        std::fprintf(stderr, "hwprof-pico: error: cannot write '%s'\n", path_out);
        rc = HWPROF_EXIT_BAD_FILE;
      }
      if (rc) {
        std::remove(path_out);  // nothing half written
      } else if (!quiet) {
        std::fprintf(stderr, "  path profile: %u functions, %" PRIu64 " counters, %" PRIu64 " paths counted %" PRIu64
                             " times, in %s\n", ps.functions, ps.counters, ps.paths, ps.count, path_out);
        prof_cov_report(&b.pcov, "  path profile:", 5, stderr);
      }
    }
  }
  if (b.cop && !b.mismatch) {
    long d = -1;
    if (!b.exited) std::fprintf(stderr, "hwprof-pico: cop check: skipped, the program did not finish\n");
    else d = cop_check_finish(&b.cc, cop_path, bus_read(&b, HWPROF_VPF_STAT_DROPPED_ADDR), stderr);
    if (d != 0 && rc == 0) rc = HWPROF_EXIT_DIFFERS;
  }
  if (b.cop) cop_check_free(&b.cc);
  if (b.vt_on && !b.mismatch && b.exited && value_truth_write(&b.vt, vt_path, stderr) != 0 && rc == 0)
    rc = HWPROF_EXIT_BAD_FILE;
  if (b.vt_on) value_truth_free(&b.vt);
  if (b.paths) {
    prof_cov_free(&b.pcov);
    pm_free(&b.pmap);
  }
  if (b.check) edge_check_free(&b.ec);
  if (b.fst) {
    b.fst->close();
    delete b.fst;
  }
  b.top->final();
  hwprof_mem_model_free(&b.mem);
  const int code = b.cpu.exit_code;
  rv_free(&b.cpu);
  if (b.mismatch) {
    if (!fst_path) std::fprintf(stderr, "hwprof-pico: run it again with --fst=FILE for a waveform of the run\n");
    return HWPROF_EXIT_MISMATCH;
  }
  return rc ? rc : code;
}
