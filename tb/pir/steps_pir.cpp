// Directed scenarios of the pir: the update-operation table, pir instructions, register access and misuse.
// Every rd(ADDR, VALUE, ...) step is an expectation: tb_top reads ADDR from the RTL and fails the
// run on another value (Checker::expect, "EXPECTATION FAILED ... step K"); make test runs these
// scenarios as lockstep-directed, the C model compared with the RTL on every cycle besides.
#include "top/top_steps.h"

namespace hwprof_tb {

// Linked calls and returns (docs/pir.md, "Link stack"), worked by hand from a pir written first
// (base 0x0100003000, offset 2); run after the other scenarios (its updates add to the dropped count).
static hwprof_retire_ev_t call_ev(uint64_t callee_base) {
  hwprof_retire_ev_t e = ev_of(HWPROF_KIND_JUMP);
  e.taken = true;
  e.is_call = true;
  e.op = HWPROF_PROF_OP_PUSH;
  e.operand = callee_base;
  return e;
}
static hwprof_retire_ev_t ret_ev(uint16_t pid) {
  hwprof_retire_ev_t e = br(HWPROF_KIND_IJUMP, pid, HWPROF_BHINT_ALL, true);
  e.is_ret = true;
  e.op = HWPROF_PROF_OP_POP;
  return e;
}
void link_steps(std::vector<Step>* out) {
  const uint16_t B = HWPROF_KIND_BRANCH;
  const uint64_t caller = 0x0100003000ull;
  std::vector<Step> s = {
      wr(HWPROF_PIR_BASE_LO_ADDR, caller & 0xffffffffu, false, "link: the caller's base[31:0]"),
      wr(HWPROF_PIR_BASE_HI_ADDR, caller >> 32, false, "base[39:32]"),
      wr(HWPROF_PIR_OFFSET_ADDR, 2, false, "the caller's offset"),
      wr(HWPROF_PIR_LINK_ADDR, 0, false, "an empty link stack"),
      wr(HWPROF_PIR_CTRL_ADDR, 1, false, "profiling on"),
      evs(call_ev(0x5000), "linked call to the area at 0x5000 (no update: pid 0)"),
      rd(HWPROF_PIR_LINK_ADDR, 1, false, "link depth 1"),
      rd(HWPROF_PIR_OFFSET_ADDR, 0, false, "the callee starts at offset 0"),
      upd(br(B, 1, HWPROF_BHINT_TK, true), cnt(0x5000, 0), false, "callee's counter[0]"),
      evs(prof(HWPROF_PROF_OP_SETOFF, 4), "callee setoffset 4"),
      upd(br(B, 1, HWPROF_BHINT_TK, true), cnt(0x5000, 4), false, "callee's counter[4]"),
      evs(call_ev(0x6000), "nested linked call to 0x6000"),
      upd(br(B, 2, HWPROF_BHINT_TK, true), cnt(0x6000, 1), false, "inner callee's counter[1]"),
      upd(ret_ev(1), 0x6000, false, "linked return counted with the inner callee's pir"),
      rd(HWPROF_PIR_LINK_ADDR, 1, false, "link depth 1 after the return"),
      upd(br(B, 1, HWPROF_BHINT_TK, true), cnt(0x5000, 4), false, "base 0x5000 and offset 4 restored"),
      evs(ret_ev(0), "linked return to the caller"),
      upd(br(B, 1, HWPROF_BHINT_TK, true), cnt(caller, 2), false, "caller's base and offset 2 restored"),
      rd(HWPROF_PIR_LINK_ADDR, 0, false, "link depth 0"),
  };
  hwprof_retire_ev_t plain_call = call_ev(0x7000);
  plain_call.op = 0;
  s.push_back(evs(plain_call, "a call without PUSH leaves the pir"));
  hwprof_retire_ev_t not_call = call_ev(0x7000);
  not_call.is_call = false;
  s.push_back(evs(not_call, "op 6 on a jump that is not a call is a path word: 0x7000's kind is NONE"));
  s.push_back(evs(prof(HWPROF_PROF_OP_POP, 0x7000), "POP on a profiling instruction is reserved"));
  s.push_back(upd(br(B, 1, HWPROF_BHINT_TK, true), cnt(caller, 2), false, "pir unchanged by all three"));
  s.push_back(rd(HWPROF_PIR_LINK_ADDR, 0, false, "link depth still 0"));
  // a trap handler's events change nothing (docs/pir.md, "Trap handlers"): its instructions may
  // even be instrumented code the handler calls
  auto in_handler = [](hwprof_retire_ev_t e, uint8_t t) {
    e.trap = t;
    return e;
  };
  s.push_back(evs(in_handler(call_ev(0x7000), HWPROF_TRAP_HANDLER), "handler: a linked call"));
  s.push_back(evs(in_handler(prof(HWPROF_PROF_OP_INIT, 0x7100), HWPROF_TRAP_HANDLER), "handler: prof.init"));
  s.push_back(evs(in_handler(prof(HWPROF_PROF_OP_SETOFF, 9), 3), "handler (trap value 3): prof.setoff"));
  s.push_back(evs(in_handler(br(B, 1, HWPROF_BHINT_TK, true), HWPROF_TRAP_HANDLER), "handler: a counted branch, no update"));
  s.push_back(evs(in_handler(ret_ev(0), HWPROF_TRAP_HANDLER), "handler: a linked return"));
  s.push_back(rd(HWPROF_PIR_LINK_ADDR, 0, false, "link depth still 0, no error"));
  s.push_back(upd(in_handler(br(B, 1, HWPROF_BHINT_TK, true), HWPROF_TRAP_ENTRY), cnt(caller, 2), false,
                  "base, offset unchanged; an instruction that traps is the program's: counted"));
  s.push_back(evs(ret_ev(0), "linked return on an empty stack"));
  s.push_back(rd(HWPROF_PIR_LINK_ADDR, 0x100, false, "LINK.ERR set, depth 0"));
  s.push_back(upd(br(B, 1, HWPROF_BHINT_TK, true), cnt(caller, 2), false, "the pir stays"));
  s.push_back(wr(HWPROF_PIR_LINK_ADDR, 0, false, "clear LINK"));
  for (uint64_t i = 0; i <= HWPROF_PIR_LINK_ENTRIES; ++i)
    s.push_back(evs(call_ev(0x10000 + i * 0x100), "linked calls one past the stack's entries"));
  s.push_back(rd(HWPROF_PIR_LINK_ADDR, 0x100 | (HWPROF_PIR_LINK_ENTRIES + 1), false, "depth 9 and LINK.ERR"));
  const uint64_t last = 0x10000 + HWPROF_PIR_LINK_ENTRIES * 0x100;
  s.push_back(upd(br(B, 1, HWPROF_BHINT_TK, true), last, false, "the last callee's area"));
  s.push_back(evs(ret_ev(0), "return from the call whose frame was lost"));
  s.push_back(upd(br(B, 1, HWPROF_BHINT_TK, true), last, false, "nothing restored: the pir stays"));
  s.push_back(evs(ret_ev(0), "return from the deepest kept frame"));
  s.push_back(upd(br(B, 1, HWPROF_BHINT_TK, true), last - 0x200, false, "restored from the top entry"));
  s.push_back(rd(HWPROF_PIR_LINK_ADDR, 0x100 | (HWPROF_PIR_LINK_ENTRIES - 1), false, "depth 7, ERR stays"));
  s.push_back(wr(HWPROF_PIR_LINK_ADDR, 0x1ff, false, "write depth 255 and ERR"));
  s.push_back(rd(HWPROF_PIR_LINK_ADDR, 0x1ff, false, "LINK reads back"));
  s.push_back(evs(call_ev(0x9000), "a call at depth 255"));
  s.push_back(rd(HWPROF_PIR_LINK_ADDR, 0x1ff, false, "the depth saturates"));
  s.push_back(wr(HWPROF_PIR_LINK_ADDR, 0xfffffe00, false, "clear LINK (upper bits ignored)"));
  s.push_back(rd(HWPROF_PIR_LINK_ADDR, 0, false, "LINK reads 0"));
  // a call that starts its callee's area without saving (op INIT), and region switches carried by
  // a branch and a jump (op SETOFF: after the event's own update)
  hwprof_retire_ev_t init_call = call_ev(0x7000);
  init_call.op = HWPROF_PROF_OP_INIT;
  s.push_back(evs(init_call, "a call that starts the area at 0x7000 without saving"));
  s.push_back(rd(HWPROF_PIR_LINK_ADDR, 0, false, "nothing pushed"));
  s.push_back(upd(br(B, 2, HWPROF_BHINT_TK, true), cnt(0x7000, 1), false, "the callee's counter[1]"));
  hwprof_retire_ev_t sw = br(B, 1, HWPROF_BHINT_TK, true);
  sw.op = HWPROF_PROF_OP_SETOFF;
  sw.operand = 3;
  s.push_back(upd(sw, 0x7000, false, "a branch switching to offset 3 counts at the old offset"));
  s.push_back(upd(br(B, 1, HWPROF_BHINT_TK, true), cnt(0x7000, 3), false, "offset 3 from the next event"));
  hwprof_retire_ev_t swj = br(HWPROF_KIND_JUMP, 0, HWPROF_BHINT_TK, true);
  swj.op = HWPROF_PROF_OP_SETOFF;
  swj.operand = 0x1000005;
  s.push_back(evs(swj, "a jump switching to offset 5 (24 bits kept)"));
  s.push_back(rd(HWPROF_PIR_OFFSET_ADDR, 5, false, "offset reads 5"));
  // carrier words: any other instruction given prof.setoff or prof.init by its shadow word
  hwprof_retire_ev_t ld = br(HWPROF_KIND_LOAD, 0, HWPROF_BHINT_TK, true);
  ld.op = HWPROF_PROF_OP_SETOFF;
  ld.operand = 9;
  s.push_back(evs(ld, "a load carrying SETOFF 9"));
  s.push_back(upd(br(B, 1, HWPROF_BHINT_TK, true), cnt(0x7000, 9), false, "offset 9 from the next event"));
  hwprof_retire_ev_t oi = br(HWPROF_KIND_OTHER, 0, HWPROF_BHINT_TK, true);
  oi.op = HWPROF_PROF_OP_INIT;
  oi.operand = 0x7100;
  s.push_back(evs(oi, "an ALU instruction carrying INIT 0x7100"));
  s.push_back(upd(br(B, 2, HWPROF_BHINT_TK, true), cnt(0x7100, 1), false, "base 0x7100, offset 0"));
  hwprof_retire_ev_t hi = oi;
  hi.operand = 0x7200;
  hi.trap = HWPROF_TRAP_HANDLER;
  s.push_back(evs(hi, "a trap handler's carrier INIT 0x7200: nothing"));
  hwprof_retire_ev_t st = br(HWPROF_KIND_STORE, 0, HWPROF_BHINT_TK, true);
  st.op = HWPROF_PROF_OP_STOP;
  s.push_back(evs(st, "a store with op STOP: nothing (carriers give INIT, SETOFF and ID only)"));
  s.push_back(upd(br(B, 1, HWPROF_BHINT_TK, true), cnt(0x7100, 0), false, "base still 0x7100, profiling still on"));
  s.push_back(wr(HWPROF_PIR_CTRL_ADDR, 0, false, "link: profiling off again"));
  s.push_back(sync("link: drain"));
  s.push_back(wr(HWPROF_TOP_IRQ_PENDING_ADDR, 0xf, false, "clear the error cause (the updates fell outside the bounds)"));
  out->insert(out->end(), s.begin(), s.end());
}

// Path words (docs/path.md, "In the hardware"), every sum and address worked by hand from
// base 0x4000, offset 3; run last (its updates add to the dropped count).
static uint64_t pw(unsigned kind, unsigned a, unsigned b) {
  return (uint64_t)kind << HWPROF_PATH_KIND_LSB | (uint64_t)a << HWPROF_PATH_A_LSB | (uint64_t)b << HWPROF_PATH_B_LSB;
}
static hwprof_retire_ev_t path_ev(uint8_t kind, unsigned op, unsigned a, unsigned b) {
  hwprof_retire_ev_t e = kind == HWPROF_KIND_PROF ? prof(HWPROF_PROF_OP_PATH, 0) : ev_of(kind);
  e.taken = kind != HWPROF_KIND_BRANCH;
  e.op = HWPROF_PROF_OP_PATH;
  e.operand = pw(op, a, b);
  return e;
}
void path_steps(std::vector<Step>* out) {
  const uint8_t P = HWPROF_KIND_PROF, B = HWPROF_KIND_BRANCH, J = HWPROF_KIND_JUMP;
  const uint64_t base = 0x4000;
  std::vector<Step> s = {
      wr(HWPROF_PIR_BASE_LO_ADDR, base, false, "path: base 0x4000"),
      wr(HWPROF_PIR_BASE_HI_ADDR, 0, false, "base[39:32]"),
      wr(HWPROF_PIR_OFFSET_ADDR, 3, false, "offset 3"),
      wr(HWPROF_PIR_LINK_ADDR, 0, false, "an empty link stack"),
      wr(HWPROF_PIR_PATH_STACK_ADDR, 0, false, "an empty path stack"),
      wr(HWPROF_PIR_CTRL_ADDR, 1, false, "profiling on"),
      evs(path_ev(P, HWPROF_PATH_OP_SET, 5, 0), "prof.path SET 5"),
      rd(HWPROF_PIR_PATH_SUM_ADDR, 5, false, "sum 5"),
      evs(path_ev(B, HWPROF_PATH_OP_ADD, 3, 0), "branch ADD 3"),
      evs(path_ev(J, HWPROF_PATH_OP_NONE, 3, 9), "jump with a word of kind NONE"),
      rd(HWPROF_PIR_PATH_SUM_ADDR, 8, false, "sum 8"),
      upd(path_ev(B, HWPROF_PATH_OP_COUNT, 2, 1), cnt(base, 3 + 8 + 2), false, "COUNT 2, 1 -> counter[offset 3 + sum 8 + 2]"),
      rd(HWPROF_PIR_PATH_SUM_ADDR, 1, false, "sum reset to b = 1"),
      evs(path_ev(J, HWPROF_PATH_OP_ENTER, 4, 7), "ENTER 4, 7: push 1 + 4"),
      rd(HWPROF_PIR_PATH_STACK_ADDR, 1, false, "depth 1"),
      rd(HWPROF_PIR_PATH_SUM_ADDR, 7, false, "sum 7"),
      upd(path_ev(P, HWPROF_PATH_OP_LEAVE, 1, 2), cnt(base, 3 + 7 + 1), false, "LEAVE 1, 2 -> counter[3 + 7 + 1]"),
      rd(HWPROF_PIR_PATH_SUM_ADDR, 7, false, "sum = popped 5 + 2"),
      rd(HWPROF_PIR_PATH_STACK_ADDR, 0, false, "depth 0"),
  };
  // a branch's pid is not looked at when its word counts; a prof.id is not a path word
  hwprof_retire_ev_t both = path_ev(B, HWPROF_PATH_OP_COUNT, 0, 0);
  both.pid = 9;
  both.bhint = HWPROF_BHINT_ALL;
  s.push_back(upd(both, cnt(base, 3 + 7), false, "COUNT on a branch with pid 9: the path's counter"));
  hwprof_retire_ev_t id = prof(HWPROF_PROF_OP_ID, pw(HWPROF_PATH_OP_SET, 100, 0));
  id.pid = 1;
  s.push_back(upd(id, cnt(base, 3), false, "prof.id: counter[offset + pid - 1], its operand no word"));
  s.push_back(rd(HWPROF_PIR_PATH_SUM_ADDR, 0, false, "sum 0 (COUNT's b)"));
  // a linked call saves the sum, the callee's own run, the linked return counts then restores
  s.push_back(evs(path_ev(P, HWPROF_PATH_OP_SET, 9, 0), "SET 9"));
  s.push_back(evs(call_ev(0x6000), "linked call to 0x6000"));
  s.push_back(rd(HWPROF_PIR_PATH_SUM_ADDR, 0, false, "the callee's paths begin at sum 0"));
  s.push_back(evs(path_ev(P, HWPROF_PATH_OP_SET, 4, 0), "callee: SET 4"));
  hwprof_retire_ev_t ret = ret_ev(0);
  ret.operand = pw(HWPROF_PATH_OP_COUNT, 1, 0);
  s.push_back(upd(ret, cnt(0x6000, 5), false, "linked return counts the callee's counter[0 + 4 + 1]"));
  s.push_back(rd(HWPROF_PIR_PATH_SUM_ADDR, 9, false, "the caller's sum 9 is back"));
  hwprof_retire_ev_t branch_pop = ret_ev(0);
  branch_pop.kind = B;
  branch_pop.operand = pw(HWPROF_PATH_OP_SET, 2, 0);
  s.push_back(evs(branch_pop, "op POP on a branch: no word"));
  s.push_back(rd(HWPROF_PIR_PATH_SUM_ADDR, 9, false, "sum still 9"));
  hwprof_retire_ev_t start_call = call_ev(0x4000);
  start_call.op = HWPROF_PROF_OP_INIT;
  s.push_back(evs(start_call, "a starting call (op INIT) to 0x4000"));
  s.push_back(rd(HWPROF_PIR_PATH_SUM_ADDR, 0, false, "sets the sum to 0 too"));
  s.push_back(evs(path_ev(P, HWPROF_PATH_OP_SET, 9, 0), "SET 9 again"));
  hwprof_retire_ev_t plain = call_ev(0x5000);
  plain.op = 0;
  s.push_back(evs(plain, "a call that neither links nor starts"));
  s.push_back(rd(HWPROF_PIR_PATH_SUM_ADDR, 9, false, "leaves the sum"));
  s.push_back(upd(path_ev(B, HWPROF_PATH_OP_COUNT, 0x1ffe, 0), cnt(base, 7), false,
                  "COUNT a = -2 (mod 2^13): counter[offset 0 (the starting call) + (9 - 2)]"));
  // the stack's limits: a pop on empty, pushes past the entries, pops that restore nothing
  s.push_back(evs(path_ev(P, HWPROF_PATH_OP_POP, 0, 6), "POP on an empty stack"));
  s.push_back(rd(HWPROF_PIR_PATH_STACK_ADDR, 0x100, false, "ERR, depth 0"));
  s.push_back(rd(HWPROF_PIR_PATH_SUM_ADDR, 6, false, "sum = b"));
  s.push_back(wr(HWPROF_PIR_PATH_STACK_ADDR, 0, false, "clear ERR"));
  for (unsigned i = 0; i <= HWPROF_PATH_STACK_ENTRIES; i++)
    s.push_back(evs(path_ev(P, HWPROF_PATH_OP_ENTER, 0, 20 + i), "ENTER 0, 20 + i"));
  s.push_back(rd(HWPROF_PIR_PATH_STACK_ADDR, 0x100 | (HWPROF_PATH_STACK_ENTRIES + 1), false, "one past the entries: ERR"));
  s.push_back(evs(path_ev(P, HWPROF_PATH_OP_POP, 0, 1), "a pop above the entries"));
  s.push_back(rd(HWPROF_PIR_PATH_SUM_ADDR, 1, false, "restores nothing: sum = b"));
  s.push_back(evs(path_ev(P, HWPROF_PATH_OP_POP, 0, 1), "a pop of the last entry"));
  s.push_back(rd(HWPROF_PIR_PATH_SUM_ADDR, 20 + (HWPROF_PATH_STACK_ENTRIES - 2) + 1, false, "its sum (pushed by the 8th ENTER: 20 + 6) + b"));
  s.push_back(wr(HWPROF_PIR_PATH_SUM_ADDR, 0x1ffff, false, "write the sum (upper bits ignored)"));
  s.push_back(rd(HWPROF_PIR_PATH_SUM_ADDR, 0x1fff, false, "13 bits"));
  s.push_back(evs(path_ev(P, HWPROF_PATH_OP_ADD, 2, 0), "ADD 2 wraps"));
  s.push_back(rd(HWPROF_PIR_PATH_SUM_ADDR, 1, false, "sum 1"));
  s.push_back(wr(HWPROF_PIR_PATH_STACK_ADDR, 0, false, "empty the stack"));
  s.push_back(wr(HWPROF_PIR_CTRL_ADDR, 0, false, "path: profiling off"));
  s.push_back(evs(path_ev(P, HWPROF_PATH_OP_COUNT, 0, 3), "COUNT with flag 0: no update"));
  s.push_back(rd(HWPROF_PIR_PATH_SUM_ADDR, 3, false, "the sum moves all the same"));
  s.push_back(sync("path: drain"));
  s.push_back(wr(HWPROF_TOP_IRQ_PENDING_ADDR, 0xf, false, "clear the error cause"));
  out->insert(out->end(), s.begin(), s.end());
}

// A march through both stacks of the pir: every entry is written with a value of its own, read
// back on the way down, then the same with every value complemented. Each bit of each entry is
// so seen at 0 and at 1, and every entry is told from its neighbours (a read of the wrong entry,
// a bit stuck or tied to another, shows). The random streams rarely push deep enough with values
// wide enough to do this (a mutant that ties entry 6's bit 40 to 0 survived them).
void stack_march_steps(std::vector<Step>* out) {
  const uint8_t P = HWPROF_KIND_PROF;
  const uint32_t m13 = (1u << HWPROF_PATH_SUM_W) - 1u;
  std::vector<Step>& s = *out;
  s.push_back(wr(HWPROF_PIR_PATH_STACK_ADDR, 0, false, "march: an empty path stack"));
  s.push_back(wr(HWPROF_PIR_LINK_ADDR, 0, false, "march: an empty link stack"));
  s.push_back(wr(HWPROF_PIR_CTRL_ADDR, 0, false, "march: profiling off (no updates)"));
  // four passes: the values, then complemented, each twice, the second time with the entries held
  // one cycle longer (a fault that makes a held bit toggle every cycle shows in one of the two:
  // every other step takes two cycles, so without it the parity never changes)
  for (uint32_t pass = 0; pass < 4; pass++) {
    const uint32_t flip = (pass & 2u) ? 0xffffffffu : 0u;
    const bool longer = pass & 1u;
    // path stack: SET v then ENTER 0, 0 pushes v; POP 0, 0 brings it back as the sum
    auto pv = [&](uint32_t i) { return ((0x0a5au + i * 0x0357u) ^ flip) & m13; };
    for (uint32_t i = 0; i < HWPROF_PATH_STACK_ENTRIES; i++) {
      s.push_back(evs(path_ev(P, HWPROF_PATH_OP_SET, pv(i), 0), "march: SET the entry's value"));
      s.push_back(evs(path_ev(P, HWPROF_PATH_OP_ENTER, 0, 0), "march: ENTER pushes it"));
    }
    if (longer) s.push_back(go(path_ev(P, HWPROF_PATH_OP_NONE, 0, 0), "march: one cycle more"));
    s.push_back(rd(HWPROF_PIR_PATH_STACK_ADDR, HWPROF_PATH_STACK_ENTRIES, false, "march: the path stack full"));
    for (uint32_t i = HWPROF_PATH_STACK_ENTRIES; i-- > 0;) {
      s.push_back(evs(path_ev(P, HWPROF_PATH_OP_POP, 0, 0), "march: POP"));
      s.push_back(rd(HWPROF_PIR_PATH_SUM_ADDR, pv(i), false, "march: the entry's value is the sum"));
    }
    s.push_back(rd(HWPROF_PIR_PATH_STACK_ADDR, 0, false, "march: the path stack empty, no error"));
    // link stack: a linked call saves {base, offset} and the sum; the linked return restores them
    auto base = [&](uint32_t i) {
      return (((uint64_t)(0x5au + i * 0x27u) << 32) | (0x3c96a5f0u + i * 0x01234567u)) ^ ((uint64_t)flip << 8 | flip);
    };
    auto off = [&](uint32_t i) { return ((0x00a5c3u + i * 0x013579u) ^ flip) & 0xffffffu; };
    auto sum = [&](uint32_t i) { return ((0x1234u + i * 0x0765u) ^ flip) & m13; };
    for (uint32_t i = 0; i < HWPROF_PIR_LINK_ENTRIES; i++) {
      s.push_back(wr(HWPROF_PIR_BASE_LO_ADDR, base(i) & 0xffffffffu, false, "march: base[31:0]"));
      s.push_back(wr(HWPROF_PIR_BASE_HI_ADDR, (base(i) >> 32) & 0xffu, false, "march: base[39:32]"));
      s.push_back(wr(HWPROF_PIR_OFFSET_ADDR, off(i), false, "march: offset"));
      s.push_back(wr(HWPROF_PIR_PATH_SUM_ADDR, sum(i), false, "march: path sum"));
      s.push_back(evs(call_ev(0x5000), "march: a linked call saves them"));
    }
    if (longer) s.push_back(go(path_ev(P, HWPROF_PATH_OP_NONE, 0, 0), "march: one cycle more"));
    s.push_back(rd(HWPROF_PIR_LINK_ADDR, HWPROF_PIR_LINK_ENTRIES, false, "march: the link stack full"));
    for (uint32_t i = HWPROF_PIR_LINK_ENTRIES; i-- > 0;) {
      s.push_back(evs(ret_ev(0), "march: a linked return restores them"));
      s.push_back(rd(HWPROF_PIR_BASE_LO_ADDR, base(i) & 0xffffffffu, false, "march: base[31:0] back"));
      s.push_back(rd(HWPROF_PIR_BASE_HI_ADDR, (base(i) >> 32) & 0xffu, false, "march: base[39:32] back"));
      s.push_back(rd(HWPROF_PIR_OFFSET_ADDR, off(i), false, "march: offset back"));
      s.push_back(rd(HWPROF_PIR_PATH_SUM_ADDR, sum(i), false, "march: path sum back"));
    }
    s.push_back(rd(HWPROF_PIR_LINK_ADDR, 0, false, "march: the link stack empty, no error"));
  }
}

// The update-operation table of docs/pir.md, with every address worked out by hand:
// counter byte address = base + (offset + pid - 1 [+1 for the not-taken edge of either]) * CntW / 8.
void pir_steps(std::vector<Step>* out) {
  const uint16_t B = HWPROF_KIND_BRANCH;
  std::vector<Step> s = {
      rd(HWPROF_TOP_ID_ADDR, 0x48575046u, false, "ID reads 'HWPF'"),
      evs(br(B, 1, HWPROF_BHINT_TK, true), "flag 0 after reset: no update"),
      evs(prof(HWPROF_PROF_OP_INIT, 0x1000), "initprof 0x1000"),
      evs(br(B, 1, HWPROF_BHINT_TK, true), "flag still 0: no update"),
      evs(prof(HWPROF_PROF_OP_START, 0), "startprof"),
      upd(br(B, 3, HWPROF_BHINT_TK, true), cnt(0x1000, 2), false, "tk, taken -> counter[2]"),
      evs(br(B, 3, HWPROF_BHINT_TK, false), "tk, not taken: no update"),
      upd(br(B, 3, HWPROF_BHINT_NT, false), cnt(0x1000, 2), false, "nt, not taken -> counter[2]"),
      evs(br(B, 3, HWPROF_BHINT_NT, true), "nt, taken: no update"),
      upd(br(B, 5, HWPROF_BHINT_EITHER, true), cnt(0x1000, 4), false, "either, taken -> counter[4]"),
      upd(br(B, 5, HWPROF_BHINT_EITHER, false), cnt(0x1000, 5), false, "either, not taken -> counter[5]"),
      upd(br(B, 6, HWPROF_BHINT_ALL, true), cnt(0x1000, 5), false, "all, taken -> counter[5]"),
      upd(br(B, 6, HWPROF_BHINT_ALL, false), cnt(0x1000, 5), false, "all, not taken -> counter[5]"),
      upd(br(HWPROF_KIND_IJUMP, 2, HWPROF_BHINT_ALL, true), cnt(0x1000, 1), false, "indirect jump, all -> counter[1]"),
      upd(br(HWPROF_KIND_JUMP, 1, HWPROF_BHINT_TK, true), 0x1000, false, "direct jump, tk -> counter[0]"),
      upd(br(B, 4, HWPROF_BHINT_TK, true, true), cnt(0x1000, 3), true, "tk.dec, taken -> decrement counter[3]"),
      evs(br(B, 0, HWPROF_BHINT_ALL, true), "pid 0: no update"),
      upd(br(HWPROF_KIND_LOAD, 3, HWPROF_BHINT_NT, true), cnt(0x1000, 2), false,
          "a load carrying prof.id 3 -> counter[2] (hint ignored)"),
      upd(br(HWPROF_KIND_OTHER, 3, HWPROF_BHINT_TK, false, true), cnt(0x1000, 2), true,
          "an ALU instruction carrying prof.id.dec 3 -> decrement counter[2]"),
      evs(br(HWPROF_KIND_STORE, 0, HWPROF_BHINT_ALL, true), "a store with pid 0: no update"),
  };
  hwprof_retire_ev_t id = prof(HWPROF_PROF_OP_ID, 0);
  id.pid = 7;
  id.bhint = HWPROF_BHINT_NT;  // ignored by prof.id
  id.taken = false;
  s.push_back(upd(id, cnt(0x1000, 6), false, "prof.id 7 -> counter[6] (hint ignored)"));
  id.ihint = true;
  s.push_back(upd(id, cnt(0x1000, 6), true, "prof.id.dec 7 -> decrement counter[6]"));
  hwprof_retire_ev_t id0 = id;
  id0.pid = 0;
  s.push_back(evs(id0, "prof.id 0: no update"));
  s.push_back(evs(prof(HWPROF_PROF_OP_SETOFF, 16), "setoffset 16"));
  s.push_back(upd(br(B, 1, HWPROF_BHINT_TK, true), cnt(0x1000, 16), false, "offset 16, pid 1 -> counter[16]"));
  s.push_back(upd(br(B, 0xffff, HWPROF_BHINT_EITHER, false), cnt(0x1000, 16 + 0xffffull), false,
                  "largest pid, either not taken -> counter[16+65535]"));
  s.push_back(evs(prof(HWPROF_PROF_OP_SETOFF, 0x1ffffff), "setoffset keeps 24 bits"));
  s.push_back(rd(HWPROF_PIR_OFFSET_ADDR, 0xffffff, false, "offset reads 0xffffff"));
  s.push_back(upd(br(B, 0xffff, HWPROF_BHINT_EITHER, false), cnt(0x1000, 0xffffffull + 0xffff), false,
                  "largest offset + largest pid"));
  s.push_back(evs(prof(HWPROF_PROF_OP_INIT, 0x2000), "initprof 0x2000 clears offset"));
  s.push_back(rd(HWPROF_PIR_OFFSET_ADDR, 0, false, "offset reads 0 after initprof"));
  s.push_back(upd(br(B, 1, HWPROF_BHINT_TK, true), 0x2000, false, "new base, offset 0 -> counter[0]"));
  s.push_back(evs(prof(HWPROF_PROF_OP_STOP, 0), "stopprof"));
  s.push_back(evs(br(B, 1, HWPROF_BHINT_ALL, true), "flag 0: no update"));
  s.push_back(rd(HWPROF_PIR_CTRL_ADDR, 0, false, "flag reads 0"));
  s.push_back(evs(prof(HWPROF_PROF_OP_START, 0), "startprof resumes"));
  s.push_back(evs(prof(HWPROF_PROF_OP_TRIGGER, 0x18005), "trigger keeps 15 bits"));
  s.push_back(rd(HWPROF_PIR_TRIGGER_ADDR, 0x0005, false, "trigger reads 5"));
  const uint64_t top = (1ull << 40) - kCntBytes;  // the last counter of the 40-bit space
  s.push_back(evs(prof(HWPROF_PROF_OP_INIT, top), "initprof at the top of the 40-bit space"));
  s.push_back(rd(HWPROF_PIR_BASE_HI_ADDR, 0xff, false, "base[39:32]"));
  s.push_back(rd(HWPROF_PIR_BASE_LO_ADDR, top & 0xffffffffu, false, "base[31:0]"));
  s.push_back(upd(br(B, 2, HWPROF_BHINT_TK, true), 0x0, false, "address wraps at 40 bits"));
  s.push_back(evs(prof(7, 0x123), "reserved prof op does nothing"));
  s.push_back(rd(HWPROF_PIR_BASE_LO_ADDR, top & 0xffffffffu, false, "base unchanged by reserved op"));
  // context switch through registers
  s.push_back(wr(HWPROF_PIR_BASE_LO_ADDR, 0x00003000, false, "write base[31:0]"));
  s.push_back(wr(HWPROF_PIR_BASE_HI_ADDR, 0xffffff01, false, "write base[39:32] (upper bits ignored)"));
  s.push_back(rd(HWPROF_PIR_BASE_HI_ADDR, 0x01, false, "base[39:32] reads 1"));
  s.push_back(wr(HWPROF_PIR_OFFSET_ADDR, 2, false, "write offset"));
  s.push_back(upd(br(B, 1, HWPROF_BHINT_TK, true), cnt(0x0100003000ull, 2), false, "restored pir -> counter[2]"));
  s.push_back(wr(HWPROF_PIR_CTRL_ADDR, 0, false, "write flag 0"));
  s.push_back(evs(br(B, 1, HWPROF_BHINT_TK, true), "flag written 0: no update"));
  s.push_back(rd(HWPROF_PIR_STAT_UPDATES_ADDR, 19, false, "19 updates so far (two of them carrier words')"));
  // statistics take a write (preset, context switch) and count on from it, wrapping at 2^32
  s.push_back(wr(HWPROF_PIR_STAT_UPDATES_ADDR, 0xfffffffeu, false, "preset the update count"));
  s.push_back(rd(HWPROF_PIR_STAT_UPDATES_ADDR, 0xfffffffeu, false, "the update count reads the value written"));
  s.push_back(wr(HWPROF_PIR_STAT_EVENTS_ADDR, 0xffffffffu, false, "preset the event count one below the wrap"));
  s.push_back(evs(br(B, 1, HWPROF_BHINT_TK, true), "one more event (flag 0: no update)"));
  s.push_back(rd(HWPROF_PIR_STAT_EVENTS_ADDR, 0, false, "the event count wrapped around to 0"));
  s.push_back(rd(HWPROF_PIR_STAT_UPDATES_ADDR, 0xfffffffeu, false, "no update: the update count as written"));
  s.push_back(wr(HWPROF_PIR_STAT_UPDATES_ADDR, 19, false, "restore the update count"));
  // misuse: nothing changes, pslverr answers
  s.push_back(wr(HWPROF_TOP_ID_ADDR, 0, true, "write to ID"));
  s.push_back(rd(HWPROF_TOP_ID_ADDR, 0x48575046u, false, "ID unchanged"));
  // the build parameters, as this bench was built (fields at bits 0, 8, 16 of each CFG register)
  s.push_back(rd(HWPROF_TOP_CFG_EDGE_ADDR, HWPROF_PARAM_CNTW | (HWPROF_PARAM_UPDDEPTH << 8) | (HWPROF_PARAM_OABDEPTH << 16),
                 false, "CFG_EDGE: CntW, UpdDepth, OabDepth"));
  s.push_back(rd(HWPROF_TOP_CFG_CACHE_ADDR, HWPROF_PARAM_SETS | (HWPROF_PARAM_WAYS << 8) | (HWPROF_PARAM_LINEWORDS << 16),
                 false, "CFG_CACHE: Sets, Ways, LineWords"));
  s.push_back(rd(HWPROF_TOP_CFG_TRACE_ADDR, HWPROF_PARAM_HISTW | (HWPROF_PARAM_TFIFO << 8), false,
                 "CFG_TRACE: HistW, TraceFifoDepth"));
  s.push_back(wr(HWPROF_TOP_CFG_TRACE_ADDR, 0, true, "write to CFG_TRACE"));
  s.push_back(wr(HWPROF_PIR_LINK_SPILL_ADDR + 4, 0x55, true, "write to an unmapped address in the pir window (after its last register)"));
  s.push_back(rd(HWPROF_PIR_LINK_SPILL_ADDR + 4, 0, true, "read of an unmapped address"));
  s.push_back(wr(0x7f00, 0x55, true, "write to an unmapped window"));
  s.push_back(rd(0xff04, 0, true, "read of an unmapped window"));
  s.push_back(rd(HWPROF_PIR_BASE_LO_ADDR, 0x3000, false, "base unchanged by misuse"));
  s.push_back(rd(HWPROF_PIR_OFFSET_ADDR, 2, false, "offset unchanged by misuse"));
  // none of the updates above was inside the (empty) bounds window
  s.push_back(sync("drain"));
  s.push_back(rd(HWPROF_EDGE_PROF_STAT_DROPPED_ADDR, 19, false, "all 19 dropped: the bounds window is empty after reset"));
  s.push_back(rd(HWPROF_EDGE_PROF_STAT_UPDATES_ADDR, 0, false, "no counter was updated"));
  s.push_back(wr(HWPROF_TOP_IRQ_PENDING_ADDR, 0xf, false, "clear the error cause"));
  out->insert(out->end(), s.begin(), s.end());
}

}  // namespace hwprof_tb
