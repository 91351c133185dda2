// Functional coverage of hwprof_top's benches: the situations the random streams are meant to
// reach, counted from the C model's state around every cycle (in lockstep the RTL is in the same
// state). The bench prints them in its summary; with --require-coverage a point never reached fails
// the run, so a stream that stops reaching a case is noticed (docs/verification.md, "Functional
// coverage").
#ifndef HWPROF_TB_FUNC_COVER_H
#define HWPROF_TB_FUNC_COVER_H

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string>

extern "C" {
#include "top/top.h"
}

namespace hwprof_tb {

class FuncCover {
 public:
  enum Point {
    kHit,                // an update hit a cached line
    kMissCleanVictim,    // a miss whose victim was clean (no write-back)
    kMissDirtyVictim,    // a miss that evicted a dirty line (write-back outside a flush)
    kFlushWriteBack,     // a flush walk wrote a dirty line back
    kFlushDuringRefill,  // a flush command written while a line read was outstanding
    kFlushWithPending,   // a flush command written while the update buffer held operations
    kOabOverrun,         // the overflowed-address buffer overran
    kTriggerDownOvf,     // an overflow decremented the trigger counter
    kTriggerUpUnf,       // an underflow incremented it back
    kPhaseIrq,           // the phase-transition interrupt rose
    kDropped,            // an update outside the bounds (or misaligned) was dropped
    kUpdStall,           // a retire event waited: the update buffer was full
    kFifoDrop,           // the trace FIFO was full: a record dropped
    kFifoWatermarkIrq,   // the trace interrupt rose in FIFO mode (watermark)
    kLinkOverflow,       // a linked call past the link stack's entries
    kLinkUnderflow,      // a linked return on an empty link stack
    kPathCount,          // a path word counted a path (an update at offset + sum + a)
    kPathOverflow,       // an ENTER past the path stack's entries
    kPathUnderflow,      // a pop on an empty path stack
    kCarrierCount,       // an instruction's carrier word gave it prof.id: a counter update (docs/pir.md)
    kCarrierPir,         // ... gave it prof.init or prof.setoff
    kReportHeld,         // an overflow or underflow report waited for a pir register write (docs/edge_prof.md)
    kPathSpill,          // the path stack spilled its oldest entry to memory (docs/path.md)
    kPathFill,           // ... read its newest spilled entry back
    kPathPortWait,       // an event waiting for its spill or fill waited for the cache to free the memory port
    kLinkSpill,          // the link stack spilled its oldest frame to memory (docs/pir.md)
    kLinkFill,           // ... read its newest spilled frame back
    // the C model's shortcuts (counted, not required of every run: a stream that keeps an engine
    // awake never takes them; make test requires them of the default configuration's seeds)
    kPlain,              // the C model took its plain cycle (hwprof_top_plain: only the event counted)
    kPlainAgain,         // ... after a plain cycle, as the C platform does: hwprof_top_plain_again, the outputs kept
    kPlainTracing,       // ... with the trace controller on (an event it lets pass: hwprof_trace_ctrl_passes)
    kPlainWaiting,       // ... with the edge unit waiting: taking the pir's update, or a refill outstanding
    kLean,               // ... its lean cycle (hwprof_top_lean: the engines but the pir and edge unit at rest)
    kLeanMiss,           // ... in which an update missed the cache
    kLeanStall,          // ... in which a retire event waited
    kEdgeWaitArrive,     // the edge unit waiting for a refill's line took an arriving update (its waiting cycle)
    kPirUpdateOnly,      // the pir's edge of an update only (hwprof_pir_commit: a counter update and the event's own
                         // region switch, no link, path or profiling-instruction operation)
    kEdgeStageOnly,      // the edge unit's update stage working alone (hwprof_edge_prof_eval: no lookup, report or command)
    kEdgeRefill,         // ... a miss's write-back or fill request, or its line arriving, alone (no report or command)
    kN
  };
  static const char* name(unsigned p) {
    static const char* const n[kN] = {"cache hit", "miss, clean victim", "miss, dirty victim", "flush write-back",
                                      "flush during a refill", "flush with updates pending", "OAB overrun",
                                      "trigger -1 by overflow", "trigger +1 by underflow", "phase interrupt",
                                      "update dropped (bounds)", "event stalled (buffer full)", "trace FIFO full",
                                      "trace FIFO watermark interrupt", "link stack overflow", "link stack underflow", "path counted", "path stack overflow",
                                      "path stack underflow", "carrier prof.id counted", "carrier prof.init or prof.setoff", "overflow report held",
                                      "path stack spilled", "path stack filled", "spill waiting for the port",
                                      "link stack spilled", "link stack filled",
                                      "plain model cycle",
                                      "plain cycle again", "plain cycle while tracing",
                                      "plain cycle, edge unit waiting", "lean model cycle", "lean cycle with a miss",
                                      "lean cycle with a stall", "update arriving in a refill wait",
                                      "pir update only", "update stage alone", "refill alone"};
    return n[p];
  }

  // call before the cycle's evaluation, with the model's state and the cycle's inputs, and whether the
  // bench may repeat its last (plain) cycle with hwprof_top_plain_again
  void before(const hwprof_top_state_t& s, const hwprof_top_cfg_t& cfg, const hwprof_top_in_t& in, bool may_repeat) {
    b_ = s_of(s);
    plain_ = hwprof_top_plain(&s, &cfg, &in);
    again_ = may_repeat && plain_;
    report_held_ = s.edge_prof.rep_valid && in.apb.psel && in.apb.penable && in.apb.pwrite &&
                   (in.apb.paddr >> HWPROF_WINDOW_SHIFT) == HWPROF_PIR_WINDOW;  // (hwprof_top_plain_again holds exactly when the cycle is plain)
    tracing_ = plain_ && s.trace_ctrl.regs.ctrl_enable;
    waiting_ = plain_ && (s.pir.upd.valid || !hwprof_edge_prof_at_rest(&s.edge_prof));
    lean_ = !plain_ && hwprof_top_lean(&s, &cfg, &in);
    /* StFillWait (3), no command, the line not there yet, no access: hwprof_edge_prof_eval's waiting cycle */
    /* the cache presents a request (StWb 1, StFill 2, StWalkWb 5) or waits for a line (StFillWait 3) */
    const unsigned st = s.edge_prof.state;
    port_wait_ = in.ev.valid && !s.pir.path.req && !s.pir.path.rwait && !s.pir.lreq && !s.pir.lrwait && !hwprof_pir_mem_quiet(&s.pir, &cfg.pir, &in.ev) &&
                 (st == 1 || st == 2 || st == 3 || st == 5);
    wait_arrive_ = s.edge_prof.state == 3 && !s.edge_prof.cmd_busy && s.pir.upd.valid && !in.mem_rsp_valid &&
                   !(in.apb.psel && in.apb.penable);
    const bool access = in.apb.psel && in.apb.penable;
    const hwprof_retire_ev_t& ev = in.ev;
    const bool xfer = ev.kind == HWPROF_KIND_JUMP || ev.kind == HWPROF_KIND_IJUMP;
    const bool linked = xfer && ((ev.is_call && (ev.op == HWPROF_PROF_OP_PUSH || ev.op == HWPROF_PROF_OP_INIT)) ||
                                 (ev.is_ret && ev.op == HWPROF_PROF_OP_POP));
    /* (the edge unit reports an overflow or underflow from its report flop; it has none) */
    upd_only_ = ev.valid && !(ev.trap & 1u) && !access && !s.edge_prof.rep_valid && hwprof_pir_mem_quiet(&s.pir, &cfg.pir, &ev) &&
                ev.kind != HWPROF_KIND_PROF && !hwprof_pir_passes(&s.pir, &ev) && !linked && hwprof_path_word_of(&ev) == 0;
    stage_only_ = s.edge_prof.u_valid && s.edge_prof.state == 0 && s.edge_prof.upd_buf.count == 0 && !s.edge_prof.cmd_busy &&
                  !s.edge_prof.miss_q && !s.edge_prof.rep_valid && !access;
    refill_ = (st == 1 || st == 2 || (st == 3 && in.mem_rsp_valid)) && !s.edge_prof.cmd_busy && !s.edge_prof.rep_valid &&
              !s.edge_prof.u_valid && !access;
  }
  // after the clock edge: the state, the cycle's outputs and inputs, and whether the memory had a
  // line read outstanding when the cycle began
  void after(const hwprof_top_state_t& s, const hwprof_top_out_t& out, const hwprof_top_in_t& in, bool read_pending) {
    const Snap a = s_of(s);
    const uint32_t wbs = events(a.wbs, b_.wbs, HWPROF_EDGE_PROF_STAT_WRITEBACKS_ADDR, in),
                   misses = events(a.misses, b_.misses, HWPROF_EDGE_PROF_STAT_MISSES_ADDR, in);
    hit_[kHit] += events(a.hits, b_.hits, HWPROF_EDGE_PROF_STAT_HITS_ADDR, in);
    misses_ += misses;
    if (b_.flushing) hit_[kFlushWriteBack] += wbs;
    else hit_[kMissDirtyVictim] += wbs;
    hit_[kMissCleanVictim] = misses_ > hit_[kMissDirtyVictim] ? misses_ - hit_[kMissDirtyVictim] : 0;
    const bool flush_cmd = in.apb.psel && in.apb.penable && in.apb.pwrite &&
                           in.apb.paddr == HWPROF_EDGE_PROF_CMD_ADDR && (in.apb.pwdata & 1u);
    hit_[kFlushDuringRefill] += flush_cmd && read_pending;
    hit_[kFlushWithPending] += flush_cmd && b_.upd_pending;
    hit_[kOabOverrun] += a.oab_overrun && !b_.oab_overrun;
    hit_[kTriggerDownOvf] += events(a.ovf, b_.ovf, HWPROF_EDGE_PROF_STAT_OVERFLOWS_ADDR, in) && a.trigger < b_.trigger;
    hit_[kTriggerUpUnf] += events(a.unf, b_.unf, HWPROF_EDGE_PROF_STAT_UNDERFLOWS_ADDR, in) && a.trigger > b_.trigger;
    hit_[kPhaseIrq] += out.irq_phase && !irq_phase_;
    hit_[kDropped] += events(a.dropped, b_.dropped, HWPROF_EDGE_PROF_STAT_DROPPED_ADDR, in);
    hit_[kUpdStall] += in.ev.valid && !out.ev_ready;
    hit_[kFifoDrop] += events(a.fifo_drops, b_.fifo_drops, HWPROF_TRACE_CTRL_STAT_DROPPED_ADDR, in);
    hit_[kFifoWatermarkIrq] += out.irq_trace && !irq_trace_ && b_.fifo_mode;
    hit_[kLinkOverflow] += a.lerr && !b_.lerr && a.sp > HWPROF_PIR_LINK_ENTRIES;
    hit_[kLinkUnderflow] += a.lerr && !b_.lerr && a.sp == 0;
    hit_[kPathCount] += in.ev.valid && out.ev_ready && !(in.ev.trap & 1u) && b_.flag &&
                        ((hwprof_path_word_of(&in.ev) >> HWPROF_PATH_KIND_LSB) & 7u) == HWPROF_PATH_OP_COUNT;
    hit_[kPathOverflow] += a.perr && !b_.perr && a.psp > HWPROF_PATH_STACK_ENTRIES;
    hit_[kPathUnderflow] += a.perr && !b_.perr && a.psp == 0;
    const bool fired = in.ev.valid && out.ev_ready && !(in.ev.trap & 1u) && hwprof_pir_ordinary(&in.ev);
    hit_[kCarrierCount] += fired && b_.flag && in.ev.op == HWPROF_PROF_OP_ID && in.ev.pid != 0;
    hit_[kCarrierPir] += fired && (in.ev.op == HWPROF_PROF_OP_INIT || in.ev.op == HWPROF_PROF_OP_SETOFF);
    hit_[kReportHeld] += report_held_;
    hit_[kPathSpill] += b_.preq && b_.prwr && !a.preq;
    hit_[kPathFill] += b_.prwait && !a.prwait;
    hit_[kPathPortWait] += port_wait_;
    hit_[kLinkSpill] += a.lbot != b_.lbot && !b_.lrwait && b_.lreq;  // (a fill leaves the ring's bottom where it is)
    hit_[kLinkFill] += b_.lrwait && !a.lrwait && !a.lreq;
    hit_[kPlain] += plain_;
    hit_[kPlainAgain] += again_;
    hit_[kPlainTracing] += tracing_;
    hit_[kPlainWaiting] += waiting_;
    hit_[kLean] += lean_;
    hit_[kLeanMiss] += lean_ ? misses : 0;
    hit_[kLeanStall] += lean_ && in.ev.valid && !out.ev_ready;
    hit_[kEdgeWaitArrive] += wait_arrive_;
    hit_[kPirUpdateOnly] += upd_only_ && out.ev_ready;
    hit_[kEdgeStageOnly] += stage_only_;
    hit_[kEdgeRefill] += refill_;
    irq_phase_ = out.irq_phase;
    irq_trace_ = out.irq_trace;
  }

  static constexpr unsigned kRequired = kPlain;  // the points --require-coverage asks of a run
  uint64_t count(unsigned p) const { return hit_[p]; }
  unsigned covered() const {
    unsigned n = 0;
    for (unsigned p = 0; p < kRequired; p++) n += hit_[p] != 0;
    return n;
  }
  std::string missed() const {
    std::string m;
    for (unsigned p = 0; p < kRequired; p++)
      if (!hit_[p]) m += std::string(m.empty() ? "" : ", ") + name(p);
    return m;
  }
  void print(FILE* to) const {
    std::fprintf(to, "  functional coverage: %u of %u points\n   ", covered(), kRequired);
    for (unsigned p = 0; p < kRequired; p++)
      std::fprintf(to, " %s %" PRIu64 "%s", name(p), hit_[p], p + 1 < kRequired ? ";" : "\n");
    std::fprintf(to, "  the C model's shortcuts compared:");
    for (unsigned p = kRequired; p < kN; p++) std::fprintf(to, " %s %" PRIu64 "%s", name(p), hit_[p], p + 1 < kN ? ";" : "\n");
  }

 private:
  // a statistics counter's events in the cycle: its value after the edge less its value before, or
  // less the value software wrote to it in the cycle (the write sets the count, the cycle's event
  // counts on top; the random stream presets them)
  static uint32_t events(uint32_t after, uint32_t before, uint16_t addr, const hwprof_top_in_t& in) {
    const bool written = in.apb.psel && in.apb.penable && in.apb.pwrite && in.apb.paddr == addr;
    return after - (written ? in.apb.pwdata : before);
  }
  struct Snap {
    uint32_t hits, misses, wbs, dropped, ovf, unf, fifo_drops;
    bool flushing, upd_pending, oab_overrun, fifo_mode, lerr, perr, flag, preq, prwr, prwait;
    uint32_t trigger, sp, psp, lbot;
    bool lreq, lrwait;
  };
  static Snap s_of(const hwprof_top_state_t& s) {
    auto g = [](const hwprof_prim_counters_state_t& c, unsigned i) { return static_cast<uint32_t>(hwprof_prim_counters_get(&c, i)); };
    const hwprof_edge_prof_state_t& e = s.edge_prof;
    return Snap{g(e.stats, HWPROF_EP_ST_HITS), g(e.stats, HWPROF_EP_ST_MISSES), g(e.stats, HWPROF_EP_ST_WBS),
                g(e.stats, HWPROF_EP_ST_DROPPED), g(e.stats, HWPROF_EP_ST_OVF), g(e.stats, HWPROF_EP_ST_UNF),
                g(s.trace_ctrl.stats, HWPROF_TC_ST_DROP), e.cmd_busy && e.cmd_flush, e.upd_buf.count != 0,
                e.oab_overrun, s.trace_ctrl.regs.ctrl_fifo_mode, s.pir.lerr, s.pir.path.perr, s.pir.flag,
                s.pir.path.req, s.pir.path.rwr, s.pir.path.rwait, s.pir.trigger, s.pir.sp, s.pir.path.psp,
                s.pir.lbot, s.pir.lreq, s.pir.lrwait};
  }
  Snap b_{};
  uint64_t hit_[kN] = {};
  uint64_t misses_ = 0;
  bool report_held_ = false, port_wait_ = false;
  bool plain_ = false, again_ = false, tracing_ = false, waiting_ = false, lean_ = false, wait_arrive_ = false;
  bool upd_only_ = false, stage_only_ = false, refill_ = false;
  bool irq_phase_ = false, irq_trace_ = false;
};

}  // namespace hwprof_tb

#endif  // HWPROF_TB_FUNC_COVER_H
