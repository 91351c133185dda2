// Directed scenarios of the trace controller (docs/trace_ctrl.md).
// Every rd(ADDR, VALUE, ...) step is an expectation: tb_top reads ADDR from the RTL and fails the
// run on another value (Checker::expect, "EXPECTATION FAILED ... step K"); make test runs these
// scenarios as lockstep-directed, the C model compared with the RTL on every cycle besides.
#include "top/top_steps.h"

namespace hwprof_tb {

// Trace-controller scenarios (docs/trace_ctrl.md). Expected register values worked out by hand
// (Figure 7 of seed 002) or, for the full-history case, by shifting outcomes above a marker here.
hwprof_retire_ev_t cf(uint8_t kind, uint32_t pc, uint32_t next_pc, bool taken) {
  hwprof_retire_ev_t e = ev_of(kind);
  e.pc = pc;
  e.next_pc = next_pc;
  e.taken = taken;
  return e;
}
void trace_steps(std::vector<Step>* s) {
  const uint8_t B = HWPROF_KIND_BRANCH, IJ = HWPROF_KIND_IJUMP, J = HWPROF_KIND_JUMP;
  const uint32_t XXX = 0x1000, AAA = 0x2000, BBB = 0x2040, DDD = 0x2100, WWW = 0x5000;
  const uint32_t en = 1u << HWPROF_TRACE_CTRL_CTRL_ENABLE_LSB;
  // Figure 7: trace XXX with history 00100101 ends at an indirect jump to AAA, ...
  s->push_back(wr(HWPROF_TRACE_CTRL_CUR_START_ADDR, XXX, false, "current start = XXX"));
  s->push_back(wr(HWPROF_TRACE_CTRL_CUR_HIST_ADDR, 0x25, false, "current history = 00100101"));
  s->push_back(wr(HWPROF_TRACE_CTRL_CTRL_ADDR, en, false, "enable, interrupt on every trace"));
  s->push_back(go(cf(IJ, XXX + 0x30, AAA, true), "indirect jump to AAA ends trace XXX"));
  s->push_back(rd(HWPROF_TRACE_CTRL_LAST_START_ADDR, XXX, false, "last start = XXX"));
  s->push_back(rd(HWPROF_TRACE_CTRL_LAST_HIST_ADDR, 0x25, false, "last history = 00100101"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_START_ADDR, AAA, false, "current start = AAA"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_HIST_ADDR, 0x01, false, "current history = 00000001"));
  s->push_back(go(cf(HWPROF_KIND_OTHER, AAA, AAA + 4, false), "straight-line code"));
  s->push_back(go(cf(B, AAA + 4, BBB, true), "branch to BBB if Z: taken"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_HIST_ADDR, 0x03, false, "history = 00000011"));
  s->push_back(go(cf(B, BBB + 8, BBB + 12, false), "branch to CCC if N: not taken"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_HIST_ADDR, 0x06, false, "history = 00000110"));
  s->push_back(go(cf(B, BBB + 16, DDD, true), "branch to DDD if C: taken"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_HIST_ADDR, 0x0d, false, "history = 00001101"));
  s->push_back(go(cf(IJ, DDD + 4, WWW, true), "indirect branch to WWW"));
  s->push_back(rd(HWPROF_TRACE_CTRL_LAST_START_ADDR, AAA, false, "last start = AAA"));
  s->push_back(rd(HWPROF_TRACE_CTRL_LAST_HIST_ADDR, 0x0d, false, "last history = 00001101"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_START_ADDR, WWW, false, "current start = WWW"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_HIST_ADDR, 0x01, false, "current history = 00000001"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, 2, false, "trace interrupt pending"));
  s->push_back(wr(HWPROF_TOP_IRQ_PENDING_ADDR, 2, false, "acknowledge"));
  s->push_back(rd(HWPROF_TRACE_CTRL_STAT_END_INDIRECT_ADDR, 2, false, "two traces ended by indirect jumps"));

  // a taken backward branch ends the trace without shifting its (implied) outcome
  s->push_back(go(cf(B, WWW + 4, WWW + 8, false), "not taken: shift 0"));
  s->push_back(go(cf(B, WWW + 12, WWW + 12, true), "taken to itself: backward, ends"));
  s->push_back(rd(HWPROF_TRACE_CTRL_LAST_HIST_ADDR, 0x02, false, "history 10: the backward outcome is implied"));
  s->push_back(go(cf(B, WWW + 0x40, WWW + 0x20, false), "backward target, not taken: shifted"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_HIST_ADDR, 0x02, false, "history 10"));
  s->push_back(go(cf(J, WWW + 0x44, WWW + 0x80, true), "forward jump: neither shifts nor ends"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_HIST_ADDR, 0x02, false, "history still 10"));
  s->push_back(go(cf(J, WWW + 0x84, WWW, true), "backward jump ends"));
  s->push_back(rd(HWPROF_TRACE_CTRL_LAST_START_ADDR, WWW + 12, false, "that trace started after the backward branch"));
  s->push_back(rd(HWPROF_TRACE_CTRL_STAT_END_BACKWARD_ADDR, 2, false, "two traces ended backward"));

  // a full history ends a trace after exactly HistW - 1 outcomes
  uint32_t hist = 1;
  for (unsigned i = 0; i + 1 < HWPROF_PARAM_HISTW; i++) {
    bool t = (i % 3) == 0;
    hist = (hist << 1) | (t ? 1u : 0u);
    if (i + 2 < HWPROF_PARAM_HISTW)
      s->push_back(go(cf(B, 0x6000 + 8 * i, t ? 0x6000 + 8 * i + 8 : 0x6000 + 8 * i + 4, t), "outcome"));
  }
  s->push_back(rd(HWPROF_TRACE_CTRL_STAT_END_FULL_ADDR, 0, false, "HistW - 2 outcomes: not full yet"));
  const unsigned last = HWPROF_PARAM_HISTW - 2;
  const bool lt = (last % 3) == 0;
  const uint32_t after = 0x6000 + 8 * last + (lt ? 8 : 4);
  s->push_back(go(cf(B, 0x6000 + 8 * last, after, lt), "outcome HistW - 1"));
  s->push_back(rd(HWPROF_TRACE_CTRL_STAT_END_FULL_ADDR, 1, false, "the marker reached the top bit: ended"));
  s->push_back(rd(HWPROF_TRACE_CTRL_LAST_HIST_ADDR, hist, false, "all HistW - 1 outcomes kept below the marker"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_START_ADDR, after, false, "next trace starts at next_pc"));

  // address-range filter and sampling counter: one trace in three, inside [0x7000, 0x8000)
  s->push_back(wr(HWPROF_TOP_IRQ_PENDING_ADDR, 2, false, "acknowledge"));
  s->push_back(wr(HWPROF_TRACE_CTRL_RANGE_LO_ADDR, 0x7000, false, "range low"));
  s->push_back(wr(HWPROF_TRACE_CTRL_RANGE_HI_ADDR, 0x8000, false, "range high"));
  s->push_back(wr(HWPROF_TRACE_CTRL_SAMPLE_RELOAD_ADDR, 3, false, "sample one in three"));
  s->push_back(wr(HWPROF_TRACE_CTRL_SAMPLE_COUNT_ADDR, 3, false, "sampling counter = 3"));
  s->push_back(wr(HWPROF_TRACE_CTRL_CTRL_ADDR,
                  en | (1u << HWPROF_TRACE_CTRL_CTRL_SAMPLE_EN_LSB) | (1u << HWPROF_TRACE_CTRL_CTRL_FILTER_EN_LSB),
                  false, "sample and filter"));
  s->push_back(rd(HWPROF_TRACE_CTRL_STAT_SAMPLED_ADDR, 5, false, "5 sampled so far"));
  s->push_back(go(cf(IJ, after + 0x100, 0x7000, true), "ends a trace outside the range; next starts at 0x7000"));
  s->push_back(rd(HWPROF_TRACE_CTRL_STAT_FILTERED_ADDR, 1, false, "filtered"));
  for (uint32_t i = 0; i < 5; i++)
    s->push_back(go(cf(IJ, 0x7000 + 0x100 * i + 0x10, 0x7100 + 0x100 * i, true), "trace in range"));
  s->push_back(rd(HWPROF_TRACE_CTRL_STAT_SAMPLED_ADDR, 6, false, "5 collected traces, one sampled (the 3rd)"));
  s->push_back(rd(HWPROF_TRACE_CTRL_LAST_START_ADDR, 0x7400, false,
                  "LAST_* hold the last collected trace, sampled or not (seed 002, paragraph 51)"));
  s->push_back(rd(HWPROF_TRACE_CTRL_SAMPLE_COUNT_ADDR, 1, false, "counter: reloaded to 3, then 2 more"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, 2, false, "the sample interrupted"));
  s->push_back(wr(HWPROF_TOP_IRQ_PENDING_ADDR, 2, false, "acknowledge"));

  // FIFO mode with a watermark; a full FIFO drops and counts
  const uint32_t fifo = en | (1u << HWPROF_TRACE_CTRL_CTRL_FIFO_MODE_LSB) | (2u << HWPROF_TRACE_CTRL_CTRL_WATERMARK_LSB);
  s->push_back(wr(HWPROF_TRACE_CTRL_CTRL_ADDR, fifo, false, "FIFO mode, watermark 2"));
  s->push_back(go(cf(IJ, 0x9000, 0x9100, true), "trace 0x7500 ends: FIFO 1"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, HWPROF_PARAM_TFIFO >= 2 ? 0 : 2, false, "below the watermark"));
  s->push_back(go(cf(IJ, 0x9104, 0x9200, true), "trace 0x9100 ends: FIFO 2"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, HWPROF_PARAM_TFIFO >= 2 ? 2 : 0, false, "watermark reached"));
  s->push_back(wr(HWPROF_TOP_IRQ_PENDING_ADDR, 2, false, "acknowledge while still at the watermark"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, HWPROF_PARAM_TFIFO >= 2 ? 2 : 0, false, "a level: pending again"));
  s->push_back(rd(HWPROF_TRACE_CTRL_FIFO_START_ADDR, 0x7500, false, "oldest record"));
  s->push_back(wr(HWPROF_TRACE_CTRL_FIFO_CTRL_ADDR, 1, false, "pop"));
  s->push_back(wr(HWPROF_TOP_IRQ_PENDING_ADDR, 2, false, "acknowledge below the watermark"));
  s->push_back(rd(HWPROF_TOP_IRQ_PENDING_ADDR, 0, false, "the acknowledgement sticks"));
  s->push_back(rd(HWPROF_TRACE_CTRL_FIFO_START_ADDR, HWPROF_PARAM_TFIFO >= 2 ? 0x9100 : 0, false, "next record"));
  s->push_back(wr(HWPROF_TRACE_CTRL_FIFO_CTRL_ADDR, 2, false, "clear"));
  s->push_back(rd(HWPROF_TRACE_CTRL_STAT_DROPPED_ADDR, HWPROF_PARAM_TFIFO >= 2 ? 0 : 1, false, "dropped so far"));
  for (uint32_t i = 0; i < HWPROF_PARAM_TFIFO + 2; i++)
    s->push_back(go(cf(IJ, 0xa000 + 0x10 * i, 0xa010 + 0x10 * i, true), "fill the FIFO"));
  s->push_back(rd(HWPROF_TRACE_CTRL_STATUS_ADDR, HWPROF_PARAM_TFIFO, false, "FIFO full"));
  s->push_back(rd(HWPROF_TRACE_CTRL_STAT_DROPPED_ADDR, HWPROF_PARAM_TFIFO >= 2 ? 2 : 3, false, "two more dropped"));
  s->push_back(rd(HWPROF_TRACE_CTRL_FIFO_START_ADDR, 0x9200, false, "the oldest kept record"));
  s->push_back(wr(HWPROF_TRACE_CTRL_FIFO_CTRL_ADDR, 2, false, "clear"));
  s->push_back(rd(HWPROF_TRACE_CTRL_FIFO_START_ADDR, 0, false, "empty FIFO reads 0"));
  s->push_back(wr(HWPROF_TRACE_CTRL_FIFO_START_ADDR, 0, true, "FIFO_START is read-only"));

  // traps (docs/trace_ctrl.md, "Traps"): a handler's events are not the program's; an instruction
  // that traps ends its trace and the next starts where the program resumes
  auto trap = [](hwprof_retire_ev_t e, uint8_t t) {
    e.trap = t;
    return e;
  };
  const uint8_t H = HWPROF_TRAP_HANDLER, E = HWPROF_TRAP_ENTRY;
  const uint32_t pend = 1u << HWPROF_TRACE_CTRL_STATUS_START_PENDING_LSB;
  s->push_back(wr(HWPROF_TRACE_CTRL_CTRL_ADDR, en, false, "every-trace mode"));
  s->push_back(wr(HWPROF_TRACE_CTRL_CUR_START_ADDR, 0xd000, false, "current start = 0xd000"));
  s->push_back(wr(HWPROF_TRACE_CTRL_CUR_HIST_ADDR, 1, false, "current history = the marker"));
  s->push_back(go(cf(B, 0xd004, 0xd010, true), "taken: history 11"));
  s->push_back(go(trap(cf(B, 0xe000, 0xe000, true), H), "an interrupt's handler: a backward branch"));
  s->push_back(go(trap(cf(B, 0xe004, 0xe00c, false), H), "... a forward branch"));
  s->push_back(go(trap(cf(IJ, 0xe010, 0xd010, true), H), "... and its mret"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_START_ADDR, 0xd000, false, "the interrupted trace goes on: start 0xd000"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_HIST_ADDR, 0x3, false, "history still 11"));
  s->push_back(go(cf(B, 0xd010, 0xd014, false), "not taken: history 110"));
  s->push_back(go(trap(cf(B, 0xd014, 0xd020, true), 3), "trap value 3 (reserved) acts as HANDLER"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_HIST_ADDR, 0x6, false, "history still 110"));
  s->push_back(go(trap(cf(IJ, 0xd018, 0xe000, true), E), "ecall at 0xd018: a trap entry ends the trace"));
  s->push_back(rd(HWPROF_TRACE_CTRL_LAST_START_ADDR, 0xd000, false, "last start 0xd000"));
  s->push_back(rd(HWPROF_TRACE_CTRL_LAST_HIST_ADDR, 0x6, false, "last history 110"));
  s->push_back(rd(HWPROF_TRACE_CTRL_STATUS_ADDR, pend, false, "START_PENDING"));
  s->push_back(go(trap(cf(B, 0xe000, 0xe008, true), H), "the handler's branch"));
  s->push_back(go(trap(cf(IJ, 0xe020, 0xd01c, true), H), "its mret to 0xd01c"));
  s->push_back(rd(HWPROF_TRACE_CTRL_STATUS_ADDR, pend, false, "still pending: no program instruction yet"));
  s->push_back(go(cf(HWPROF_KIND_OTHER, 0xd01c, 0xd020, false), "the program resumes at 0xd01c"));
  s->push_back(rd(HWPROF_TRACE_CTRL_STATUS_ADDR, 0, false, "started"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_START_ADDR, 0xd01c, false, "current start 0xd01c"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_HIST_ADDR, 1, false, "current history = the marker"));
  s->push_back(go(cf(IJ, 0xd020, 0xd100, true), "indirect jump: ends trace 0xd01c"));
  s->push_back(rd(HWPROF_TRACE_CTRL_LAST_START_ADDR, 0xd01c, false, "last start 0xd01c"));
  s->push_back(go(trap(cf(IJ, 0xd100, 0xe000, true), E), "a trap at the trace's first instruction"));
  s->push_back(rd(HWPROF_TRACE_CTRL_LAST_START_ADDR, 0xd100, false, "last start 0xd100"));
  s->push_back(go(trap(cf(IJ, 0xe000, 0xd200, true), H), "mret to 0xd200"));
  s->push_back(go(cf(IJ, 0xd200, 0xd300, true), "the first program instruction ends its trace at once"));
  s->push_back(rd(HWPROF_TRACE_CTRL_LAST_START_ADDR, 0xd200, false, "that trace started at 0xd200"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_START_ADDR, 0xd300, false, "the next at 0xd300"));
  s->push_back(go(trap(cf(HWPROF_KIND_OTHER, 0xd300, 0xe000, false), E), "a faulting load at 0xd300"));
  s->push_back(rd(HWPROF_TRACE_CTRL_STATUS_ADDR, pend, false, "START_PENDING"));
  s->push_back(wr(HWPROF_TRACE_CTRL_CUR_START_ADDR, 0xd400, false, "software restores a start"));
  s->push_back(rd(HWPROF_TRACE_CTRL_STATUS_ADDR, 0, false, "a write to CUR_START clears START_PENDING"));
  s->push_back(go(cf(IJ, 0xd404, 0xd500, true), "indirect jump"));
  s->push_back(rd(HWPROF_TRACE_CTRL_LAST_START_ADDR, 0xd400, false, "the written start is the trace's"));
  s->push_back(rd(HWPROF_TRACE_CTRL_STAT_END_INDIRECT_ADDR, 2 + 5 + 1 + 2 + HWPROF_PARAM_TFIFO + 2 + 6, false,
                  "trap entries count as indirect ends"));
  s->push_back(wr(HWPROF_TRACE_CTRL_CTRL_ADDR, 0, false, "disable"));
  s->push_back(go(cf(IJ, 0xb000, 0xc000, true), "ignored while disabled"));
  s->push_back(rd(HWPROF_TRACE_CTRL_CUR_START_ADDR, 0xd500, false, "unchanged"));
  s->push_back(wr(HWPROF_TOP_IRQ_PENDING_ADDR, 0xf, false, "acknowledge all"));
}
}  // namespace hwprof_tb
