/* Trace reconstruction; see include/hwprof_recon.h. */
#include "hwprof_recon.h"

#include "rv32_isa.h"

/* A semihosting call (slli x0,x0,0x1f; ebreak; srai x0,x0,7) is serviced by the host, not trapped:
 * its ebreak is an ordinary instruction for the trace. */
static bool semihosting_ebreak(const hwprof_image_t *img, uint32_t pc, uint32_t insn) {
  uint32_t before, after;
  return insn == RV32_INSN_EBREAK && hwprof_image_fetch(img, pc - 4u, &before) &&
         before == RV32_INSN_SEMIHOST_PRE && hwprof_image_fetch(img, pc + 4u, &after) &&
         after == RV32_INSN_SEMIHOST_POST;
}

static bool emit(hwprof_recon_t *o, uint32_t pc, bool block_start) {
  if (o->n == o->cap) return false;
  o->pcs[o->n++] = pc;
  if (o->blocks) {
    if (block_start || o->nblocks == 0) {
      if (o->nblocks == o->block_cap) return false;
      o->blocks[o->nblocks++] = (hwprof_block_t){pc, pc};
    } else {
      o->blocks[o->nblocks - 1].last = pc;
    }
  }
  return true;
}

hwprof_recon_status_t hwprof_trace_reconstruct(const hwprof_image_t *img, const hwprof_trace_rec_t *rec,
                                               unsigned hist_w, hwprof_recon_t *out) {
  out->n = 0;
  out->nblocks = 0;
  out->fail_pc = rec->start;
  if (rec->hist == 0 || hist_w < 2 || hist_w > 32 || (hist_w < 32 && (rec->hist >> hist_w) != 0))
    return kReconNoMarker;
  int marker = 31;
  while (!((rec->hist >> marker) & 1u)) marker--;
  const bool full = (unsigned)marker == hist_w - 1u; /* ended by a full history */
  int next_bit = marker - 1;                         /* the oldest outcome */

  uint32_t pc = rec->start, insn;
  if (!hwprof_image_fetch(img, pc, &insn)) return kReconStartOutside;
  bool block_start = true;
  for (;;) {
    if (!hwprof_image_fetch(img, pc, &insn)) {
      out->fail_pc = pc;
      return kReconLeftImage;
    }
    if (!emit(out, pc, block_start)) {
      out->fail_pc = pc;
      return kReconTooLong;
    }
    block_start = false;
    int32_t off;
    /* the processor reports traps and trap returns (ecall, ebreak, mret) as indirect jumps */
    rv32_cf_t k = rv32_control_flow(insn, &off);
    if (k == RV32_CF_SYSTEM && semihosting_ebreak(img, pc, insn)) k = RV32_CF_NONE;
    uint32_t target = pc + (uint32_t)off;
    switch (k) {
      case RV32_CF_BRANCH:
        if (next_bit >= 0) {
          bool taken = (rec->hist >> next_bit--) & 1u;
          if (taken && target <= pc) { /* would have ended the trace instead of shifting */
            out->fail_pc = pc;
            return kReconBadHistory;
          }
          if (next_bit < 0 && full) return kReconOk; /* the outcome that filled the history */
          pc = taken ? target : pc + 4u;
          block_start = true;
        } else {
          /* no outcome left: only a taken backward branch may end the trace here */
          if (target > pc) {
            out->fail_pc = pc;
            return kReconBadHistory;
          }
          return kReconOk;
        }
        break;
      case RV32_CF_JAL:
        if (target <= pc) return kReconOk; /* backward jump ends the trace */
        pc = target;
        block_start = true;
        break;
      case RV32_CF_JALR:
      case RV32_CF_SYSTEM:
        if (next_bit >= 0) { /* outcomes left over: this is not where the trace ended */
          out->fail_pc = pc;
          return kReconBadHistory;
        }
        return kReconOk;
      default:
        pc += 4u;
        break;
    }
  }
}

const char *hwprof_recon_status_str(hwprof_recon_status_t s) {
  switch (s) {
    case kReconOk: return "ok";
    case kReconNoMarker: return "history has no valid marker";
    case kReconStartOutside: return "start address outside the program image";
    case kReconLeftImage: return "walk left the program image";
    case kReconBadHistory: return "history contradicts the code";
    case kReconTooLong: return "trace longer than the buffer";
    default: return "unknown";
  }
}
