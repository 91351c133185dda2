// Directed scenarios of the edge-profiling unit (docs/edge_prof.md).
#include "top/top_steps.h"

namespace hwprof_tb {

// Edge-profiling scenarios (docs/edge_prof.md), in every configuration: addresses follow the
// counter width (cnt()), the overrun the OAB's depth, values fit 8-bit counters. Memory offsets are
// relative to g_mem_base; expected values worked out by hand.
void edge_steps(std::vector<Step>* s) {
  const uint16_t B = HWPROF_KIND_BRANCH;
  const uint64_t M = kCntMax;  // the largest counter value; MAX_VALUE = M + 1 = 2^CntW (docs/dynopt.md)
  const uint16_t K = kCntBytes;
  const uint64_t base = g_mem_base;
  auto inc = [&](uint16_t pid) { return br(B, pid, HWPROF_BHINT_ALL, true); };
  auto dec = [&](uint16_t pid) { return br(B, pid, HWPROF_BHINT_ALL, true, true); };
  s->push_back(wr(HWPROF_EDGE_PROF_BOUND_LO_LO_ADDR, base & 0xffffffff, false, "bounds: low"));
  s->push_back(wr(HWPROF_EDGE_PROF_BOUND_HI_LO_ADDR, (base + kMemSize) & 0xffffffff, false, "bounds: high"));
  s->push_back(wr(HWPROF_TOP_IRQ_ENABLE_ADDR, 0x9, false, "enable phase and error interrupts"));
  s->push_back(wr(HWPROF_PIR_OFFSET_ADDR, 0, false, "offset 0"));
  s->push_back(wr(HWPROF_PIR_CTRL_ADDR, 1, false, "profiling on"));

  // 1. scheme 5A: a counter armed at MAX_VALUE - threshold overflows on exactly its threshold-th increment
  s->push_back(preload(0x0, M + 1 - 5, "counter[0] = MAX_VALUE - 5 (threshold 5)"));
  s->push_back(go(prof(HWPROF_PROF_OP_INIT, base), "initprof at the counter area"));
  s->push_back(go(prof(HWPROF_PROF_OP_TRIGGER, 1), "trigger 1"));
  repeat(s, 4, go(inc(1), "increment counter[0]"));
  s->push_back(sync("flush"));
  s->push_back(mem_is(0x0, M, "after 4 increments counter[0] = MAX_VALUE - 1"));
  s->push_back(rd(HWPROF_EDGE_PROF_STAT_OVERFLOWS_ADDR, 0, false, "no overflow yet"));
  s->push_back(rd(HWPROF_PIR_TRIGGER_ADDR, 1, false, "trigger still 1"));
  s->push_back(irq_is(0, "no interrupt yet"));
  s->push_back(go(inc(1), "the 5th increment"));
  s->push_back(sync("flush"));
  s->push_back(mem_is(0x0, 0, "counter[0] wrapped to 0: profile = threshold + counter = 5 (paragraph 59)"));
  s->push_back(rd(HWPROF_EDGE_PROF_STAT_OVERFLOWS_ADDR, 1, false, "one overflow"));
  s->push_back(rd(HWPROF_PIR_TRIGGER_ADDR, 0, false, "trigger reached 0"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, 1, false, "phase transition pending"));
  s->push_back(irq_is(1, "irq_phase_o high"));
  s->push_back(rd(HWPROF_EDGE_PROF_OAB_STATUS_ADDR, 1, false, "OAB holds one entry"));
  s->push_back(wr(HWPROF_EDGE_PROF_OAB_INDEX_ADDR, 0, false, "OAB index 0"));
  s->push_back(rd(HWPROF_EDGE_PROF_OAB_ENTRY_LO_ADDR, base & 0xffffffff, false, "OAB entry 0: counter[0]"));
  s->push_back(rd(HWPROF_EDGE_PROF_OAB_ENTRY_HI_ADDR, 0, false, "OAB entry 0 is an overflow"));
  s->push_back(preload(32 * K, M, "counter[32] = MAX"));
  s->push_back(go(inc(33), "another overflow, with the trigger at zero"));
  s->push_back(sync("flush"));
  s->push_back(rd(HWPROF_EDGE_PROF_STAT_OVERFLOWS_ADDR, 2, false, "two overflows"));
  s->push_back(rd(HWPROF_PIR_TRIGGER_ADDR, 0, false, "at zero the trigger stays disarmed"));
  s->push_back(wr(HWPROF_TOP_IRQ_PENDING_ADDR, 1, false, "acknowledge the phase transition"));
  s->push_back(irq_is(0, "interrupt cleared"));

  // 2. scheme 5B: an overflow later undone by an underflow restores the trigger counter
  s->push_back(wr(HWPROF_EDGE_PROF_OAB_CTRL_ADDR, 1, false, "clear the OAB"));
  s->push_back(preload(16 * K, M + 1 - 2, "counter[16] = MAX_VALUE - 2 (difference threshold 2)"));
  s->push_back(go(prof(HWPROF_PROF_OP_TRIGGER, 2), "trigger 2"));
  repeat(s, 2, go(inc(17), "cold edge: increment counter[16]"));
  s->push_back(sync("flush"));
  s->push_back(rd(HWPROF_PIR_TRIGGER_ADDR, 1, false, "the cold edge leads by 2: overflow, trigger 2 -> 1"));
  s->push_back(go(dec(17), "hot edge: decrement counter[16]"));
  s->push_back(sync("flush"));
  s->push_back(mem_is(16 * K, M, "counter[16] underflowed back to MAX_VALUE - 1: the cold edge leads by 1"));
  s->push_back(rd(HWPROF_PIR_TRIGGER_ADDR, 2, false, "underflow: trigger restored to 2"));
  s->push_back(rd(HWPROF_EDGE_PROF_OAB_STATUS_ADDR, 2, false, "OAB: two entries"));
  s->push_back(wr(HWPROF_EDGE_PROF_OAB_INDEX_ADDR, 1, false, "OAB index 1"));
  s->push_back(rd(HWPROF_EDGE_PROF_OAB_ENTRY_LO_ADDR, cnt(base, 16) & 0xffffffff, false, "entry 1: counter[16]"));
  s->push_back(rd(HWPROF_EDGE_PROF_OAB_ENTRY_HI_ADDR, 0x80000000u, false, "entry 1 is tagged underflow"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, 0, false, "no phase transition"));

  //    the trigger counter saturates at its top: an underflow leaves all ones, and takes one below
  //    it to all ones (counters 40 and 44: lines no step has cached yet)
  const uint32_t tmax = static_cast<uint32_t>(HWPROF_MASK(HWPROF_PIR_TRIGGER_VALUE_WIDTH));
  s->push_back(preload(40 * K, 0, "counter[40] = 0"));
  s->push_back(preload(44 * K, 0, "counter[44] = 0"));
  s->push_back(wr(HWPROF_PIR_TRIGGER_ADDR, tmax, false, "trigger all ones"));
  s->push_back(go(dec(41), "decrement counter[40]: underflow"));
  s->push_back(sync("flush"));
  s->push_back(rd(HWPROF_PIR_TRIGGER_ADDR, tmax, false, "saturated: the underflow leaves it"));
  s->push_back(wr(HWPROF_PIR_TRIGGER_ADDR, tmax - 1, false, "trigger one below all ones"));
  s->push_back(go(dec(45), "decrement counter[44]: underflow"));
  s->push_back(sync("flush"));
  s->push_back(rd(HWPROF_PIR_TRIGGER_ADDR, tmax, false, "the underflow takes it to all ones"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, 0, false, "still no phase transition"));

  // 3. overflowed-address buffer overrun: OabDepth + 2 overflows keep the last OabDepth
  const uint16_t n = HWPROF_PARAM_OABDEPTH + 2;
  s->push_back(wr(HWPROF_EDGE_PROF_OAB_CTRL_ADDR, 1, false, "clear the OAB"));
  s->push_back(go(prof(HWPROF_PROF_OP_TRIGGER, 0), "trigger 0 (disarmed)"));
  // (at 0x400: the lines of 1 and 2, up to counter[32] of 64-bit counters, stay cached)
  for (uint16_t i = 0; i < n; i++) s->push_back(preload(0x400 + K * i, M, "counter at MAX"));
  s->push_back(go(prof(HWPROF_PROF_OP_INIT, base + 0x400), "initprof at 0x400"));
  for (uint16_t i = 1; i <= n; i++) s->push_back(go(inc(i), "overflow a counter"));
  s->push_back(sync("flush"));
  s->push_back(rd(HWPROF_EDGE_PROF_OAB_STATUS_ADDR, 0x80000000u | HWPROF_PARAM_OABDEPTH, false, "OabDepth entries, overrun"));
  s->push_back(wr(HWPROF_EDGE_PROF_OAB_INDEX_ADDR, 0, false, "OAB index 0"));
  s->push_back(rd(HWPROF_EDGE_PROF_OAB_ENTRY_LO_ADDR, cnt(base + 0x400, 2) & 0xffffffff, false, "oldest kept: the 3rd"));
  s->push_back(wr(HWPROF_EDGE_PROF_OAB_INDEX_ADDR, HWPROF_PARAM_OABDEPTH - 1, false, "the last OAB index"));
  s->push_back(rd(HWPROF_EDGE_PROF_OAB_ENTRY_LO_ADDR, cnt(base + 0x400, n - 1) & 0xffffffff, false, "newest: the last"));
  s->push_back(wr(HWPROF_EDGE_PROF_OAB_INDEX_ADDR, HWPROF_PARAM_OABDEPTH, false, "one past the last index"));
  s->push_back(rd(HWPROF_EDGE_PROF_OAB_ENTRY_LO_ADDR, 0, false, "beyond the count reads 0"));
  s->push_back(rd(HWPROF_EDGE_PROF_STAT_OVERFLOWS_ADDR, 3 + n, false, "3 + OabDepth + 2 overflows in all"));
  s->push_back(rd(HWPROF_PIR_TRIGGER_ADDR, 0, false, "trigger disarmed: unchanged"));

  // 4. out-of-bounds and misaligned updates are dropped, counted and flagged (a byte-wide counter
  //    cannot be misaligned)
  const unsigned misaligned = K > 1 ? 1 : 0;
  s->push_back(wr(HWPROF_EDGE_PROF_OAB_CTRL_ADDR, 1, false, "clear the OAB"));
  s->push_back(preload(kMemSize - K, 41, "last counter of the window = 41"));
  s->push_back(go(prof(HWPROF_PROF_OP_INIT, base + kMemSize - K), "initprof at the last counter"));
  s->push_back(go(inc(1), "inside the window"));
  s->push_back(go(inc(2), "first byte above the window"));
  s->push_back(go(prof(HWPROF_PROF_OP_INIT, base - K), "initprof below the window"));
  s->push_back(go(inc(1), "below the window"));
  if (misaligned) {
    s->push_back(go(prof(HWPROF_PROF_OP_INIT, base + K / 2), "initprof misaligned"));
    s->push_back(go(inc(1), "misaligned counter"));
  }
  s->push_back(sync("flush"));
  s->push_back(mem_is(kMemSize - K, 42, "the counter inside was updated"));
  s->push_back(rd(HWPROF_EDGE_PROF_STAT_DROPPED_ADDR, 19 + 2 + misaligned, false, "2 or 3 more dropped"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, 8, false, "error cause pending"));
  s->push_back(irq_is(8, "irq_error_o high"));
  s->push_back(wr(HWPROF_TOP_IRQ_PENDING_ADDR, 8, false, "acknowledge"));

  // 5. cache conflicts and evictions: five lines of one set, each incremented twice
  const uint16_t line = kCntBytes * HWPROF_PARAM_LINEWORDS;
  const uint16_t stride = line * HWPROF_PARAM_SETS;  // same set, next tag
  for (uint16_t i = 0; i < 5; i++) s->push_back(preload(0x1000 + i * stride, 10 * (i + 1), "conflict line"));
  for (int round = 0; round < 2; round++) {
    for (uint16_t i = 0; i < 5; i++) {
      s->push_back(go(prof(HWPROF_PROF_OP_INIT, base + 0x1000 + i * stride), "initprof at a conflicting line"));
      s->push_back(go(inc(1), "increment its first counter"));
    }
  }
  s->push_back(sync("flush"));
  for (uint16_t i = 0; i < 5; i++) s->push_back(mem_is(0x1000 + i * stride, 10 * (i + 1) + 2, "two increments each"));
  const uint16_t after = 0x1000 + 5 * stride;  // the areas of 6 and 7 lie past the conflicting lines

  // 6. flush issued while updates are still in the update buffer
  s->push_back(go(prof(HWPROF_PROF_OP_INIT, base + after), "initprof past the lines of 5"));
  for (uint16_t p = 1; p <= 4; p++) s->push_back(go(inc(p), "increment"));
  s->push_back(wr(HWPROF_EDGE_PROF_CMD_ADDR, 1, false, "flush right away"));
  s->push_back(sync("wait for the flush"));
  for (uint16_t p = 0; p < 4; p++) s->push_back(mem_is(after + K * p, 1, "each pending update reached memory"));

  // 7. invalidate discards cached counts; the next update refills from memory
  const uint16_t inv = after + 0x1000;
  s->push_back(preload(inv, 7, "counter = 7"));
  s->push_back(go(prof(HWPROF_PROF_OP_INIT, base + inv), "initprof 4 KiB further"));
  s->push_back(go(inc(1), "increment (cached: 8)"));
  s->push_back(sync("flush"));
  s->push_back(mem_is(inv, 8, "flushed: 8"));
  s->push_back(go(inc(1), "increment (cached: 9, dirty)"));
  s->push_back(wr(HWPROF_EDGE_PROF_CMD_ADDR, 2, false, "invalidate without flush"));
  s->push_back(sync("wait"));
  s->push_back(mem_is(inv, 8, "the cached 9 was discarded"));
  s->push_back(go(inc(1), "increment again: refill from 8"));
  s->push_back(sync("flush"));
  s->push_back(mem_is(inv, 9, "9"));
  s->push_back(wr(HWPROF_EDGE_PROF_CMD_ADDR, 0, false, "a command of no bits does nothing"));
  s->push_back(rd(HWPROF_EDGE_PROF_STATUS_ADDR, 0, false, "idle"));
  s->push_back(wr(HWPROF_EDGE_PROF_STATUS_ADDR, 0, true, "STATUS is read-only"));
}

}  // namespace hwprof_tb
