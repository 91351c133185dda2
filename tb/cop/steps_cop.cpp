// Directed scenario of the value-profiling path inside hwprof_top (seed 001): the front end samples
// a load into the sample buffer, the co-processor takes it and runs a one-instruction routine whose
// branch slot is the intr target, and the top raises its co-processor interrupt, which software
// clears by writing 1 and which a second START and record raise again. The co-processor's own bench
// (tb/cop/tb_cop.cpp) checks the engine's timing and arrays; this one checks the wiring between the
// front end, the engine and the top's interrupt registers. Outcomes worked out from
// docs/cop.md and regs/top.json.
#include "top/top_steps.h"

extern "C" {
#include "autogen/hwprof_cop_isa.h"
}

namespace hwprof_tb {

void cop_steps(std::vector<Step>* s) {
  // routine at microcode address 0 (every retire kind dispatches there after reset): no operation,
  // its branch slot always taken to intr
  const uint64_t intr = HWPROF_COP_UI_SET(HWPROF_COP_UI_SET(0ull, COND, HWPROF_COP_COND_ALWAYS), TARGET,
                                          HWPROF_COP_TARGET_INTR);
  // two loads whose fields are each other's complement (pc and next_pc word-aligned), so that every
  // bit of the sample path from the front end through the buffer to the engine changes
  hwprof_retire_ev_t load = ev_of(HWPROF_KIND_LOAD), load2 = load;
  load.pc = 0xaaaaaaa8u;
  load.next_pc = load.pc + 4u;
  load.insn = 0x5555aaaau;
  load.addr = 0xaaaa5555u;
  load.value = 0x5555aaaau;
  load2.pc = 0x55555554u;
  load2.next_pc = load2.pc + 4u;
  load2.insn = ~load.insn;
  load2.addr = ~load.addr;
  load2.value = ~load.value;
  // only the co-processor's interrupt, and nothing else pending: the trace controller stops
  // (its FIFO level would raise the trace interrupt), then every pending bit is cleared
  s->push_back(wr(HWPROF_TRACE_CTRL_CTRL_ADDR, 0, false, "cop: trace controller off"));
  s->push_back(wr(HWPROF_TOP_IRQ_ENABLE_ADDR, 0x4, false, "cop: enable the co-processor's interrupt alone"));
  s->push_back(wr(HWPROF_TOP_IRQ_PENDING_ADDR, 0xf, false, "cop: clear every pending cause"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, 0, false, "cop: nothing pending"));
  s->push_back(irq_is(0, "cop: no interrupt line high"));
  s->push_back(wr(HWPROF_COP_UC_LO_ADDR, static_cast<uint32_t>(intr), false, "cop: routine word 0, bits 31:0"));
  s->push_back(wr(HWPROF_COP_UC_HI_ADDR, static_cast<uint32_t>(intr >> 32), false, "cop: routine word 0, bits 47:32"));
  s->push_back(wr(HWPROF_COP_CMD_ADDR, HWPROF_COP_CMD_START_MASK, false, "cop: START"));
  s->push_back(wr(HWPROF_VPF_FIELDS_ADDR, 0x1f, false, "cop: records hold all five fields"));
  s->push_back(wr(HWPROF_VPF_KINDS_ADDR, 1u << HWPROF_KIND_LOAD, false, "cop: the front end passes loads"));
  s->push_back(wr(HWPROF_VPF_CTRL_ADDR, 1, false, "cop: the front end samples (every passing instruction)"));
  s->push_back(evs(ev_of(HWPROF_KIND_OTHER), "cop: an instruction that is not a load: filtered"));
  s->push_back(evs(load, "cop: a load: sampled"));
  for (int i = 0; i < 4; i++) s->push_back(rd(HWPROF_TOP_ID_ADDR, 0x48575046u, false, "cop: wait while the engine runs"));
  s->push_back(rd(HWPROF_VPF_STAT_PASSED_ADDR, 1, false, "cop: one instruction passed the filters"));
  s->push_back(rd(HWPROF_VPF_STAT_SAMPLED_ADDR, 1, false, "cop: one record sampled"));
  s->push_back(rd(HWPROF_COP_STAT_SAMPLES_ADDR, 1, false, "cop: the engine finished one record"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, 0x4, false, "cop: the co-processor's cause is pending"));
  s->push_back(irq_is(0x4, "cop: the co-processor's line is high"));
  s->push_back(wr(HWPROF_TOP_IRQ_PENDING_ADDR, 0x3, false, "cop: writing 1 to the other causes leaves it"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, 0x4, false, "cop: still pending"));
  s->push_back(wr(HWPROF_TOP_IRQ_PENDING_ADDR, 0x4, false, "cop: write 1 to clear"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, 0, false, "cop: cleared"));
  s->push_back(irq_is(0, "cop: the line is low"));
  // halted at intr: a record waits until the next START
  s->push_back(evs(load2, "cop: another load while the engine is halted"));
  for (int i = 0; i < 4; i++) s->push_back(rd(HWPROF_TOP_ID_ADDR, 0x48575046u, false, "cop: wait"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, 0, false, "cop: halted: the record waits, nothing pending"));
  s->push_back(rd(HWPROF_COP_STAT_SAMPLES_ADDR, 1, false, "cop: still one record finished"));
  s->push_back(wr(HWPROF_TOP_IRQ_ENABLE_ADDR, 0, false, "cop: interrupts disabled"));
  s->push_back(wr(HWPROF_COP_CMD_ADDR, HWPROF_COP_CMD_START_MASK, false, "cop: START again"));
  for (int i = 0; i < 4; i++) s->push_back(rd(HWPROF_TOP_ID_ADDR, 0x48575046u, false, "cop: wait"));
  s->push_back(rd(HWPROF_COP_STAT_SAMPLES_ADDR, 2, false, "cop: the waiting record finished"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, 0x4, false, "cop: pending again, though disabled"));
  s->push_back(irq_is(0, "cop: disabled: the line stays low"));
  s->push_back(wr(HWPROF_TOP_IRQ_ENABLE_ADDR, 0x4, false, "cop: enabled"));
  s->push_back(irq_is(0x4, "cop: the pending cause raises the line"));
  // leave the bench as the other scenarios expect it
  s->push_back(wr(HWPROF_VPF_CTRL_ADDR, 0, false, "cop: the front end stops"));
  s->push_back(wr(HWPROF_TOP_IRQ_PENDING_ADDR, 0xf, false, "cop: clear every pending cause"));
  s->push_back(wr(HWPROF_TOP_IRQ_ENABLE_ADDR, 0xf, false, "cop: every interrupt enabled again"));
  s->push_back(wr(HWPROF_TRACE_CTRL_CTRL_ADDR, 0x0403, false, "cop: traces into the FIFO again, watermark 4"));
}

}  // namespace hwprof_tb
