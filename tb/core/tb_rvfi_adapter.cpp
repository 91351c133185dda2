// Lockstep unit bench of the RVFI adapter: rtl/core/hwprof_rvfi_adapter.sv against
// cmodel/core/rvfi_adapter.c, every output on every cycle (lockstep framework, tb/lib/lockstep.h).
//
// Stimulus (--test=):
//   random    a core's fetches (random addresses, shadow words built from every field kind and
//             random ones) and RVFI records of random instructions of every class (branches of each
//             condition with equal and unequal operands, jal/jalr through link and other registers,
//             loads of every width at every byte offset, stores, prof.* with rs1 zero or not, mret
//             and picorv32's retirq, other opcodes), each of the record's address among the last
//             fetches, as a core makes them (and now and then not, or while the buffer is full: the
//             error flag), now and then a handler's first record (rvfi_intr); hwprof's ready random
//   directed  records whose events are worked out by hand here: a taken beq carrying pid 3 and
//             hint EITHER, a not-taken bne switching regions when not taken, lbu and lh at byte
//             offsets of one word, a linked call (op PUSH, the callee's base), a return popping the
//             link stack, prof.init from the shadow word and prof.id from its own bits, a carrier
//             word's prof.setoff on an add, the held event while ready is low, an interrupt handler
//             (its first record with rvfi_intr, one inside, its retirq: trap HANDLER, the retirq an
//             indirect jump; the record after it the program's again), a record without its fetch
//             (err)
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "Vhwprof_rvfi_adapter.h"
#include "lib/lockstep.h"
#include "lib/verilated_top.h"
#include "verilated.h"

extern "C" {
#include "core/rvfi_adapter.h"
#include "rv32_isa.h"
}

namespace {

using lockstep::Checker;
using lockstep::Options;
using lockstep::TxLog;

uint32_t r_type(uint32_t f7, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op) {
  return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
uint32_t i_type(uint32_t imm, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op) {
  return (imm & 0xfffu) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

// one directed step: the inputs of a cycle, and what the event must say once it is held
struct Step {
  rvfi_in_t in;
  bool ready;
  const char* what;
  // expected in the cycle after the record (the held event); kind 255: nothing to check
  unsigned kind = 255;
  bool taken = false, is_call = false, is_ret = false;
  uint32_t addr = 0, value = 0, pid = 0, bhint = 0, op = 0;
  uint64_t operand = 0;
  bool err = false;
  unsigned trap = HWPROF_TRAP_NONE;
};

constexpr uint32_t kPc = 0x80001000u;

std::vector<Step> directed() {
  std::vector<Step> s;
  auto fetch = [](uint32_t a, uint32_t sh) {
    rvfi_in_t in{};
    in.fetch = true;
    in.fetch_addr = a;
    in.fetch_shadow = sh;
    return in;
  };
  auto rec = [](uint32_t pc, uint32_t insn, uint32_t a, uint32_t b, uint32_t mem) {
    rvfi_in_t in{};
    in.valid = true;
    in.insn = insn;
    in.pc_rdata = pc;
    in.pc_wdata = pc + 4;
    in.rs1_rdata = a;
    in.rs2_rdata = b;
    in.mem_rdata = mem;
    return in;
  };
  // beq a0, a1 (equal): taken; shadow pid 3, bhint EITHER (2), ihint INC
  s.push_back({fetch(kPc, rv32_shadow(3, HWPROF_BHINT_EITHER, 0)), true, "fetch the beq"});
  s.push_back({fetch(kPc + 4, 0), true, "fetch its fall-through (picorv32 does)"});
  s.push_back({rec(kPc, 0x00b50463u, 7, 7, 0), true, "the beq's record, operands equal"});
  s.push_back({rvfi_in_t{}, true, "beq: a taken branch with pid 3, hint EITHER", HWPROF_KIND_BRANCH, true, false, false, 0, 0,
               3, HWPROF_BHINT_EITHER, 0, 0});
  // bne a0, a1 (equal): not taken; switches to region offset 5 when not taken
  s.push_back({fetch(kPc + 8, rv32_shadow_setoff(5, true)), true, "fetch a bne"});
  s.push_back({rec(kPc + 8, 0x00b51463u, 9, 9, 0), true, "its record, operands equal"});
  s.push_back({rvfi_in_t{}, true, "bne not taken: op SETOFF 5", HWPROF_KIND_BRANCH, false, false, false, 0, 0, 0, 0,
               HWPROF_PROF_OP_SETOFF, 5});
  // lbu a2, 2(a0) with a0 = 0x80002000: the word 0x11223344 gives byte 2 = 0x22
  s.push_back({fetch(kPc + 12, 0), true, "fetch an lbu"});
  s.push_back({rec(kPc + 12, i_type(2, 10, 4, 12, 0x03), 0x80002000u, 0, 0x11223344u), true, "its record"});
  s.push_back({rvfi_in_t{}, true, "lbu at offset 2: 0x22", HWPROF_KIND_LOAD, false, false, false, 0x80002002u, 0x22u});
  // lh a2, 2(a0): the upper half 0x8899 sign-extended
  s.push_back({fetch(kPc + 16, 0), true, "fetch an lh"});
  s.push_back({rec(kPc + 16, i_type(2, 10, 1, 12, 0x03), 0x80002000u, 0, 0x88991122u), true, "its record"});
  s.push_back({rvfi_in_t{}, true, "lh at offset 2: 0xffff8899", HWPROF_KIND_LOAD, false, false, false, 0x80002002u,
               0xffff8899u});
  // jalr ra, 0(a5): a call; its link word makes it linked to the area at 0x80c00040
  s.push_back({fetch(kPc + 20, rv32_shadow_link(0x80c00040u)), true, "fetch a jalr ra"});
  s.push_back({rec(kPc + 20, i_type(0, 15, 0, 1, 0x67), 0x80003000u, 0, 0), true, "its record"});
  s.push_back({rvfi_in_t{}, true, "a linked call: op PUSH, base 0x80c00040", HWPROF_KIND_IJUMP, true, true, false, 0, 0, 0, 0,
               HWPROF_PROF_OP_PUSH, 0x80c00040u});
  // ret (jalr x0, 0(ra)) whose shadow word pops the link stack
  s.push_back({fetch(kPc + 24, 1u << HWPROF_SHADOW_POP_LSB), true, "fetch a ret"});
  s.push_back({rec(kPc + 24, 0x00008067u, 0x80001100u, 0, 0), true, "its record"});
  s.push_back({rvfi_in_t{}, true, "a linked return: op POP", HWPROF_KIND_IJUMP, true, false, true, 0, 0, 0, 0,
               HWPROF_PROF_OP_POP, 0});
  // prof.init with rs1 = x0: its operand is the shadow word
  s.push_back({fetch(kPc + 28, 0x80c00100u), true, "fetch a prof.init x0"});
  s.push_back({rec(kPc + 28, i_type(0, 0, HWPROF_PROF_OP_INIT, 0, 0x2b), 0, 0, 0), true, "its record"});
  s.push_back({rvfi_in_t{}, true, "prof.init: the operand from the shadow word", HWPROF_KIND_PROF, false, false, false, 0, 0, 0,
               0, HWPROF_PROF_OP_INIT, 0x80c00100u});
  // prof.id 17 with rd = 0b110 (bhint ALL, ihint INC)
  s.push_back({fetch(kPc + 32, 0), true, "fetch a prof.id"});
  s.push_back({rec(kPc + 32, i_type(17, 0, HWPROF_PROF_OP_ID, 6, 0x2b), 0, 0, 0), true, "its record"});
  s.push_back({rvfi_in_t{}, true, "prof.id 17, bhint ALL", HWPROF_KIND_PROF, false, false, false, 0, 0, 17, HWPROF_BHINT_ALL,
               HWPROF_PROF_OP_ID, 0});
  // add with a carrier word: prof.setoff 12
  s.push_back({fetch(kPc + 36, rv32_carry_setoff(12)), true, "fetch an add carrying setoff 12"});
  s.push_back({rec(kPc + 36, r_type(0, 11, 10, 0, 12, 0x33), 1, 2, 0), true, "its record"});
  s.push_back({rvfi_in_t{}, false, "a carrier word: op SETOFF 12 (held: ready low)", HWPROF_KIND_OTHER, false, false, false, 0,
               0, 0, 0, HWPROF_PROF_OP_SETOFF, 12});
  s.push_back({rvfi_in_t{}, false, "still held, the same event", HWPROF_KIND_OTHER, false, false, false, 0, 0, 0, 0,
               HWPROF_PROF_OP_SETOFF, 12});
  s.push_back({rvfi_in_t{}, true, "taken now"});
  // an interrupt: the handler's first record (rvfi_intr: a jump), one inside it, its retirq; then the
  // program's next record
  rvfi_in_t intr = rec(0x7ffffff0u, 0x0000006fu, 0, 0, 0);
  intr.intr = true;
  s.push_back({fetch(0x7ffffff0u, 0), true, "fetch the vector's jump"});
  s.push_back({intr, true, "its record, with rvfi_intr"});
  s.push_back({rvfi_in_t{}, true, "the handler's first: a jump, trap HANDLER", HWPROF_KIND_JUMP, true, false, false, 0, 0, 0,
               0, 0, 0, false, HWPROF_TRAP_HANDLER});
  s.push_back({fetch(kPc + 0x200, rv32_shadow(5, HWPROF_BHINT_TK, 0)), true, "fetch a handler's bne"});
  s.push_back({rec(kPc + 0x200, 0x00b51463u, 1, 2, 0), true, "its record (taken)"});
  s.push_back({rvfi_in_t{}, true, "inside the handler: HANDLER", HWPROF_KIND_BRANCH, true, false, false, 0, 0, 5,
               HWPROF_BHINT_TK, 0, 0, false, HWPROF_TRAP_HANDLER});
  s.push_back({fetch(kPc + 0x204, 0), true, "fetch the retirq"});
  rvfi_in_t ret = rec(kPc + 0x204, RV32_INSN_PICO_RETIRQ, kPc + 40, 0, 0);
  ret.pc_wdata = kPc + 40;
  s.push_back({ret, true, "its record"});
  s.push_back({rvfi_in_t{}, true, "retirq: an indirect jump, the handler's last", HWPROF_KIND_IJUMP, true, false, false, 0, 0,
               0, 0, 0, 0, false, HWPROF_TRAP_HANDLER});
  s.push_back({fetch(kPc + 40, 0), true, "fetch the interrupted program's next"});
  s.push_back({rec(kPc + 40, 0x00000013u, 0, 0, 0), true, "its record"});
  s.push_back({rvfi_in_t{}, true, "the program's again: trap NONE", HWPROF_KIND_OTHER, false, false, false, 0, 0, 0, 0, 0, 0,
               false, HWPROF_TRAP_NONE});
  // a record whose address was never fetched: the error flag
  s.push_back({rec(0x80009000u, 0x00000013u, 0, 0, 0), true, "a record without its fetch"});
  s.push_back({rvfi_in_t{}, true, "err is set and stays", HWPROF_KIND_OTHER, false, false, false, 0, 0, 0, 0, 0, 0, true});
  return s;
}

class AdapterBench : public lockstep::BlockBench<Vhwprof_rvfi_adapter> {
 public:
  explicit AdapterBench(const Options& o) : BlockBench("hwprof_rvfi_adapter"), rng_(o.seed) {
    rvfi_adapter_reset(&model_);
    if (o.test == "directed") steps_ = directed();
    rtl_.reset();
  }
  void inject_fault(TxLog& log) override {
    model_.err = !model_.err;
    log.add(0, "inject: flipped the model's error flag");
  }
  void summary(FILE* to) const override {
    std::fprintf(to, "  %llu records (%llu held while not ready), %llu fetches, %llu cycles stalling the core\n",
                 (unsigned long long)records_, (unsigned long long)held_, (unsigned long long)fetches_,
                 (unsigned long long)stalls_);
    if (!steps_.empty()) std::fprintf(to, "  scripted steps completed %zu of %zu\n", step_, steps_.size());
  }

  bool cycle(uint64_t t, Checker& chk, TxLog& log) override {
    rvfi_in_t in{};
    bool ready;
    const Step* st = nullptr;
    if (!steps_.empty()) {
      if (step_ == steps_.size()) return false;
      st = &steps_[step_++];
      in = st->in;
      ready = st->ready;
    } else {
      ready = rng_.chance(70);
      random_inputs(&in, ready);
    }
    const rvfi_adapter_out_t m = rvfi_adapter_out(&model_, ready);
    drive(in, ready);
    rtl_->eval();
    chk.begin_cycle(t);
    compare(chk, m);
    if (st && st->kind != 255) {
      chk.expect(st->what, 1, rtl_->ev_valid_o);
      chk.expect(st->what, st->kind, rtl_->ev_kind_o);
      chk.expect(st->what, st->taken, rtl_->ev_taken_o);
      chk.expect(st->what, st->is_call, rtl_->ev_is_call_o);
      chk.expect(st->what, st->is_ret, rtl_->ev_is_ret_o);
      chk.expect(st->what, st->addr, rtl_->ev_addr_o);
      chk.expect(st->what, st->value, rtl_->ev_value_o);
      chk.expect(st->what, st->pid, rtl_->ev_pid_o);
      chk.expect(st->what, st->bhint, rtl_->ev_bhint_o);
      chk.expect(st->what, st->op, rtl_->ev_op_o);
      chk.expect(st->what, st->operand, static_cast<uint64_t>(rtl_->ev_operand_o));
      chk.expect(st->what, st->err, rtl_->err_o);
      chk.expect(st->what, st->trap, rtl_->ev_trap_o);
      chk.expect(st->what, !st->ready, rtl_->stall_o);
    }
    char line[200];
    std::snprintf(line, sizeof line, "rec=%d pc=0x%08x insn=0x%08x fetch=%d addr=0x%08x sh=0x%08x ready=%d ev=%d kind=%u op=%u",
                  in.valid, in.pc_rdata, in.insn, in.fetch, in.fetch_addr, in.fetch_shadow, ready, m.ev.valid, m.ev.kind,
                  m.ev.op);
    log.add(t, line);
    records_ += in.valid;
    held_ += m.ev.valid && !ready;
    fetches_ += in.fetch;
    stalls_ += m.stall;
    rtl_.rising_edge(t, [&] { rvfi_adapter_step(&model_, &in, ready); });
    return true;
  }

 private:
  void drive(const rvfi_in_t& in, bool ready) {
    rtl_->rvfi_valid_i = in.valid;
    rtl_->rvfi_insn_i = in.insn;
    rtl_->rvfi_pc_rdata_i = in.pc_rdata;
    rtl_->rvfi_pc_wdata_i = in.pc_wdata;
    rtl_->rvfi_rs1_rdata_i = in.rs1_rdata;
    rtl_->rvfi_rs2_rdata_i = in.rs2_rdata;
    rtl_->rvfi_mem_rdata_i = in.mem_rdata;
    rtl_->rvfi_intr_i = in.intr;
    rtl_->fetch_i = in.fetch;
    rtl_->fetch_addr_i = in.fetch_addr;
    rtl_->fetch_shadow_i = in.fetch_shadow;
    rtl_->ev_ready_i = ready;
  }
  void compare(Checker& chk, const rvfi_adapter_out_t& m) {
    chk.eq("ev_valid_o", m.ev.valid, rtl_->ev_valid_o);
    chk.eq("stall_o", m.stall, rtl_->stall_o);
    chk.eq("err_o", m.err, rtl_->err_o);
    if (!m.ev.valid) return;
    chk.eq("ev_pc_o", m.ev.pc, rtl_->ev_pc_o);
    chk.eq("ev_next_pc_o", m.ev.next_pc, rtl_->ev_next_pc_o);
    chk.eq("ev_insn_o", m.ev.insn, rtl_->ev_insn_o);
    chk.eq("ev_kind_o", m.ev.kind, rtl_->ev_kind_o);
    chk.eq("ev_is_call_o", m.ev.is_call, rtl_->ev_is_call_o);
    chk.eq("ev_is_ret_o", m.ev.is_ret, rtl_->ev_is_ret_o);
    chk.eq("ev_taken_o", m.ev.taken, rtl_->ev_taken_o);
    chk.eq("ev_addr_o", m.ev.addr, rtl_->ev_addr_o);
    chk.eq("ev_value_o", m.ev.value, rtl_->ev_value_o);
    chk.eq("ev_pid_o", m.ev.pid, rtl_->ev_pid_o);
    chk.eq("ev_bhint_o", m.ev.bhint, rtl_->ev_bhint_o);
    chk.eq("ev_ihint_o", m.ev.ihint, rtl_->ev_ihint_o);
    chk.eq("ev_op_o", m.ev.op, rtl_->ev_op_o);
    chk.eq("ev_operand_o", m.ev.operand, static_cast<uint64_t>(rtl_->ev_operand_o));
    chk.eq("ev_trap_o", m.ev.trap, rtl_->ev_trap_o);
  }
  uint32_t random_shadow() {
    const uint32_t a = static_cast<uint32_t>(rng_.next());
    switch (rng_.pick({20, 15, 10, 10, 10, 10, 10, 15})) {
      case 0: return 0;
      case 1: return rv32_shadow(a & 0x3f, a >> 8, a >> 10);
      case 2: return rv32_shadow_setoff(a & 0x3ff, a >> 31);
      case 3: return rv32_shadow_path(a, a >> 31) | (a >> 19 & 1u) << HWPROF_SHADOW_POP_LSB;
      case 4: return rng_.chance(50) ? rv32_shadow_link(a) : rv32_shadow_callinit(a);
      case 5: return rv32_carry_id(a & 0xffff, a >> 20);
      case 6: return rng_.chance(50) ? rv32_carry_init(a) : rv32_carry_setoff(a & 0xffff);
      default: return a;
    }
  }
  uint32_t random_insn() {
    const uint32_t rd = static_cast<uint32_t>(rng_.pick({30, 30, 10, 30})), rs1 = static_cast<uint32_t>(rng_.pick({20, 25, 5, 25, 25}));
    const uint32_t reg_rd = rd == 0 ? 0 : rd == 1 ? 1 : rd == 2 ? 5 : 10 + static_cast<uint32_t>(rng_.below(6));
    const uint32_t reg_rs1 = rs1 == 0 ? 0 : rs1 == 1 ? 1 : rs1 == 2 ? 5 : 10 + static_cast<uint32_t>(rng_.below(6));
    const uint32_t imm = static_cast<uint32_t>(rng_.next()) & 0xfffu;
    static const uint32_t kBranchF3[] = {0, 1, 4, 5, 6, 7};
    static const uint32_t kLoadF3[] = {0, 1, 2, 4, 5};
    switch (rng_.pick({20, 8, 10, 15, 10, 15, 18, 4})) {
      case 0: return (imm >> 5) << 25 | 11u << 20 | reg_rs1 << 15 | kBranchF3[rng_.below(6)] << 12 | (imm & 31u) << 7 | 0x63u;
      case 1: return (static_cast<uint32_t>(rng_.next()) & 0xfffff000u) | reg_rd << 7 | 0x6fu;
      case 2: return i_type(imm, reg_rs1, 0, reg_rd, 0x67);
      case 3: return i_type(imm, reg_rs1, kLoadF3[rng_.below(5)], reg_rd, 0x03);
      case 4: return (imm >> 5) << 25 | 11u << 20 | reg_rs1 << 15 | static_cast<uint32_t>(rng_.below(3)) << 12 | (imm & 31u) << 7 | 0x23u;
      case 5: return i_type(imm, reg_rs1, static_cast<uint32_t>(rng_.below(7)), reg_rd, 0x2b);
      case 7: return rng_.chance(50) ? RV32_INSN_MRET : RV32_INSN_PICO_RETIRQ;
      default: return (static_cast<uint32_t>(rng_.next()) & ~0x7fu) | (rng_.chance(50) ? 0x13u : 0x33u);
    }
  }
  void random_inputs(rvfi_in_t* in, bool ready) {
    // a record: of one of the last three fetches (before this cycle's), not while an event waits
    // unaccepted (a core held); rarely otherwise (the error flag, sticky)
    const bool may = !model_.valid || ready;
    const bool odd = rng_.below(1000) < 2;
    if (nfetched_ && (may ? rng_.chance(35) : odd)) {
      in->valid = true;
      in->pc_rdata = odd && rng_.chance(50) ? 0x90000000u : fetched_[rng_.below(nfetched_ < 3 ? nfetched_ : 3)];
      in->insn = random_insn();
      in->pc_wdata = rng_.chance(60) ? in->pc_rdata + 4u : static_cast<uint32_t>(rng_.next()) & ~3u;
      const uint32_t v = static_cast<uint32_t>(rng_.next());
      in->rs1_rdata = rng_.chance(10) ? 0 : v;
      in->rs2_rdata = rng_.chance(30) ? in->rs1_rdata : static_cast<uint32_t>(rng_.next());
      in->mem_rdata = static_cast<uint32_t>(rng_.next());
      in->intr = rng_.chance(3);
    }
    if (rng_.chance(40)) {  // a fetch: mostly near the last one, as a core walks code
      in->fetch = true;
      in->fetch_addr = rng_.chance(80) ? last_fetch_ + 4u * static_cast<uint32_t>(rng_.below(3))
                                       : 0x80000000u + 4u * static_cast<uint32_t>(rng_.below(4096));
      in->fetch_shadow = random_shadow();
      fetched_[nfetched_++ % 3] = in->fetch_addr;
      last_fetch_ = in->fetch_addr;
    }
  }

  lockstep::Rng rng_;
  rvfi_adapter_t model_{};
  std::vector<Step> steps_;
  size_t step_ = 0;
  uint32_t fetched_[3] = {0, 0, 0}, last_fetch_ = 0x80000000u;
  unsigned nfetched_ = 0;
  uint64_t records_ = 0, held_ = 0, fetches_ = 0, stalls_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  return lockstep::main(argc, argv, "tb_rvfi_adapter", "random|directed", [](const Options& o) {
    return std::unique_ptr<lockstep::Bench>(new AdapterBench(o));
  });
}
