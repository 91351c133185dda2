// Lockstep bench of the co-processor engine: rtl/cop/hwprof_cop.sv against cmodel/cop/cop.c, every output
// compared on every cycle (smp_pop_o, reg_rdata_o, reg_error_o, irq_o), and the engine's
// architectural state after every finished record compared with the instruction-level interpreter
// (sw/host/cop/cop_interp.c, written from the format and docs/cop.md alone): the interpreter is the
// second oracle, as Spike is for a core.
//
// Tests (--test=):
//   random   programs generated from the format description (regs/cop_uinsn.json, through the
//            generated code tables: every listed code, now and then a reserved one), loaded through
//            the register window; random records with gaps; host reads while the engine runs and
//            writes that must be refused; STOP of routines that do not end (and at random); re-arm
//            with random clears, now and then at another engine clock ratio; intr halts. Each finished record: v, i, LFSR, CAM and data array
//            equal to the interpreter's.
//   timing   sw/fw/cop/examples/pc_count.s on hand-picked records: the cycle of every record's pop,
//            the executed, mispredicted and finished counts, and the table, all worked out by hand
//            from docs/cop.md ("Pipeline and timing"). timing-clock: the same with the engine at a
//            quarter of the system clock (CLOCK.DIV_LOG2 2): every engine cycle four system cycles.
//   host     the window: loads and reads back, refusals while running (every array, CMD, LFSR,
//            IDXW), LFSR seed 0 refused, entries beyond a smaller build, STOP, the one-write re-arm.
//   busy     the engine never waits: a load-counting routine (a CAM slot per load PC, a 16-bit
//            count per slot, intr when the table is full) on back-to-back records whose PCs come
//            from a pool larger than the table; at each interrupt the host re-arms with the
//            one-write CMD, as the firmware does. The speed figure of make bench (--engine=rtl or
//            model runs one side alone); in lockstep, every record is checked as in random.
//   valueprof the same with sw/fw/cop/valueprof.s (the load-value profiling program; read from the
//            repository root, where make test runs the benches): PCs from a pool larger than its
//            256 slots, values from small skewed sets, so every path of the program runs.
//
// The parameters are fixed when Verilator builds the bench: COP_UC, COP_CAM, COP_DATA.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "Vhwprof_cop.h"
#include "lib/lockstep.h"
#include "lib/verilated_top.h"

extern "C" {
#include "cop/cop.h"
#include "cop_asm.h"
#include "cop_interp.h"
}

#ifndef COP_UC
#define COP_UC 64
#endif
#ifndef COP_CAM
#define COP_CAM 256
#endif
#ifndef COP_DATA
#define COP_DATA 2048
#endif

namespace {

using lockstep::Checker;
using lockstep::Options;
using lockstep::TxLog;

// one host access: a write, or a read with (optionally) the value and error a directed test expects
struct HostOp {
  bool write;
  uint16_t addr;
  uint32_t wdata;
  int64_t expect_rdata;  // -1: not checked
  int expect_error;      // -1: not checked
  const char* what;
};

// the records of sw/fw/cop/examples/pc_count.samples' first lines, and more (see the timing test)
const char kPcCount[] =
    ".fields pc\n.dispatch load, entry\n.base b0, 0x000, half\n.const c0, 1\n.idxw i1, 3\n"
    "entry:  cmatch i0, s.pc | bcmiss.t new\n"
    "        incs b0[i0] | b done\n"
    "new:    cwrite i1, s.pc | st b0[i1], c0 | iinc i1 | bilim full\n"
    "        b done\n"
    "full:   b intr\n";

class CopBench : public lockstep::BlockBench<Vhwprof_cop> {
 public:
  explicit CopBench(const Options& o) : BlockBench("hwprof_cop"), rng_(o.seed), test_(o.test) {
    cfg_ = hwprof_cop_cfg_t{COP_UC, COP_CAM, COP_DATA};
    require_cfg(hwprof_cop_cfg_check(&cfg_) == kHwprofOk, "tb_cop");
    hwprof_cop_reset(&model_);
    if (cop_interp_init(&ref_, cop_geom_t{COP_UC, COP_CAM, COP_DATA}) != 0) require_cfg(false, "tb_cop");
    rtl_.reset();
    use_rtl_ = o.engine != "model";
    use_model_ = o.engine != "rtl";
    if (o.engine != "lockstep" && test_ != "busy" && test_ != "valueprof") {
      std::fprintf(stderr, "tb_cop: error: --engine=%s runs one side alone: only with --test=busy or valueprof\n",
                   o.engine.c_str());
      std::exit(2);
    }
    if (timing_test()) setup_timing();
    else if (test_ == "host") setup_host();
    else if (test_ == "busy" || test_ == "valueprof") setup_busy();
    else new_program();
  }
  ~CopBench() override { cop_interp_free(&ref_); }

  void inject_fault(TxLog& log) override {
    model_.v[0] ^= 1u;
    log.add(0, "inject: flipped bit 0 of the model's v0");
  }
  void summary(FILE* to) const override {
    std::fprintf(to, "  UcDepth %u, CamEntries %u, DataBytes %u: %llu programs, %llu records finished (%llu checked against the "
                 "interpreter), %llu microinstructions, %llu mispredictions, %llu interrupts, %llu stops, %llu host accesses "
                 "(%llu refused)\n",
                 COP_UC, COP_CAM, COP_DATA, (unsigned long long)programs_, (unsigned long long)finished_,
                 (unsigned long long)checked_, (unsigned long long)counted_[HWPROF_COP_ST_EXECUTED],
                 (unsigned long long)counted_[HWPROF_COP_ST_MISPREDICT], (unsigned long long)intrs_,
                 (unsigned long long)stops_, (unsigned long long)host_ops_, (unsigned long long)refused_);
    if (timing_test() || test_ == "host")
      std::fprintf(to, "  directed checks passed: %llu\n", (unsigned long long)directed_);
    if (test_ == "busy" || test_ == "valueprof")
      std::fprintf(to, "  busy: %llu records taken (%s), %llu re-arms\n", (unsigned long long)pops_,
                   use_model_ ? "the C model's count" : "the RTL's count", (unsigned long long)intrs_);
  }

  bool cycle(uint64_t t, Checker& chk, TxLog& log) override {
    if (timing_test() || test_ == "host") {
      if (script_.empty() && records_.empty() && t > end_after_) return false;
    } else if (test_ == "busy" || test_ == "valueprof") {
      busy_stimulus();
    } else {
      random_stimulus(t);
    }
    // inputs
    hwprof_cop_in_t in{};
    in.smp_valid = !records_.empty() && !hold_records_;
    if (in.smp_valid) in.smp = records_.front();
    HostOp op{};
    bool access = false;
    if (!script_.empty() && script_.front().addr != 0xffff) {
      op = script_.front();
      access = true;
    }
    in.reg.access = access;
    in.reg.write = access && op.write;
    in.reg.addr = access ? op.addr : 0;
    in.reg.wdata = access ? op.wdata : 0;
    hwprof_cop_out_t m{};
    if (use_rtl_) {
      rtl_->smp_valid_i = in.smp_valid;
      rtl_->smp_pc_i = in.smp.pc;
      rtl_->smp_npc_i = in.smp.npc;
      rtl_->smp_insn_i = in.smp.insn;
      rtl_->smp_addr_i = in.smp.addr;
      rtl_->smp_value_i = in.smp.value;
      rtl_->smp_info_i = in.smp.info;
      rtl_->reg_access_i = in.reg.access;
      rtl_->reg_write_i = in.reg.write;
      rtl_->reg_addr_i = in.reg.addr;
      rtl_->reg_wdata_i = in.reg.wdata;
      rtl_->eval();
    }
    if (use_model_) {
      hwprof_cop_comb(&model_, &cfg_, &in, &m);
    } else {
      m.smp_pop = rtl_->smp_pop_o;
      m.irq = rtl_->irq_o;
      m.reg.rdata = rtl_->reg_rdata_o;
      m.reg.error = rtl_->reg_error_o;
    }
    chk.begin_cycle(t);
    if (use_rtl_ && use_model_) {
      chk.eq("smp_pop_o", m.smp_pop, rtl_->smp_pop_o);
      chk.eq("reg_rdata_o", m.reg.rdata, rtl_->reg_rdata_o);
      chk.eq("reg_error_o", m.reg.error, rtl_->reg_error_o);
      chk.eq("irq_o", m.irq, rtl_->irq_o);
    }
    if (access) {
      if (op.expect_rdata >= 0) chk.expect(op.what, static_cast<uint64_t>(op.expect_rdata), m.reg.rdata);
      if (op.expect_error >= 0) chk.expect(op.what, static_cast<uint64_t>(op.expect_error), m.reg.error);
      if (op.expect_rdata >= 0 || op.expect_error >= 0) directed_++;
      host_ops_++;
      refused_ += m.reg.error;
    }
    if (!script_.empty()) script_.pop_front();
    if (m.smp_pop && pops_ < expect_pops_.size()) {
      char what[64];
      std::snprintf(what, sizeof what, "record %zu is taken in the cycle worked out by hand", pops_ + 1);
      chk.expect(what, expect_pops_[pops_], t);
      directed_++;
    }
    pops_ += m.smp_pop;
    char line[200];
    std::snprintf(line, sizeof line, "%s%s pop %d irq %d | run %d dfe %d fpc %u ex %d@%u | %s 0x%04x 0x%08x -> 0x%08x err %d",
                  in.smp_valid ? "rec " : "    ", in.smp_valid ? kind_name(in.smp.info & 7u) : "", m.smp_pop, m.irq, model_.run,
                  model_.dfe_valid, model_.fpc, model_.ex_valid, model_.ex_pc, access ? (op.write ? "W" : "R") : "-", in.reg.addr,
                  in.reg.wdata, m.reg.rdata, m.reg.error);
    log.add(t, line);

    // the record the model finishes this cycle is the one in its DFE now. The statistics count the
    // events: each one's value after the edge is its value before (or the value a write gives it,
    // which the random test does now and then) plus this cycle's event
    uint64_t stat_from[HWPROF_COP_ST_N];
    for (unsigned n = 0; n < HWPROF_COP_ST_N; n++) {
      const bool written = in.reg.write && in.reg.addr == HWPROF_COP_STAT_SAMPLES_ADDR + 4u * n;
      stat_from[n] = written ? in.reg.wdata : stat(n);
    }
    const bool had_dfe = model_.dfe_valid;
    const hwprof_cop_record_t in_dfe = model_.dfe;
    if (use_rtl_) rtl_.rising_edge(t, [&] { if (use_model_) hwprof_cop_step(&model_, &cfg_, &in); });
    else hwprof_cop_step(&model_, &cfg_, &in);
    if (m.smp_pop) records_.pop_front();
    uint64_t events[HWPROF_COP_ST_N];
    for (unsigned n = 0; n < HWPROF_COP_ST_N; n++) counted_[n] += events[n] = (stat(n) - stat_from[n]) & 0xffffffffu;
    if (events[HWPROF_COP_ST_SAMPLES]) {
      finished_++;
      since_finish_ = 0;
      if (had_dfe && checking_) check_against_interpreter(t, chk, in_dfe, m.irq);
      note_written();
    }
    if (m.irq) {
      intrs_++;
      busy_halted_ = true;  // the busy test re-arms (the others do not look at it)
    }
    return true;
  }

 private:
  static const char* kind_name(unsigned k) {
    static const char* const n[8] = {"other", "branch", "jump", "ijump", "load", "store", "prof", "kind7"};
    return n[k & 7u];
  }
  uint64_t stat(unsigned n) const { return hwprof_prim_counters_get(&model_.stats, n); }

  // ---------------------------------------------------------------- the interpreter as oracle
  void sync_interpreter() {
    for (unsigned k = 0; k < COP_UC; k++) ref_.uc[k] = model_.uc[k];
    for (unsigned k = 0; k < COP_CAM; k++) {
      ref_.cam_key[k] = model_.cam_key[k];
      ref_.cam_valid[k] = model_.cam_valid[k];
    }
    for (unsigned k = 0; k < COP_DATA; k++) ref_.data[k] = static_cast<uint8_t>(model_.data[k / 4] >> (8 * (k % 4)));
    for (unsigned n = 0; n < 4; n++) ref_.v[n] = model_.v[n];
    for (unsigned n = 0; n < 8; n++) {
      ref_.i[n] = model_.i[n] & ((1u << (model_.idxw[n] + 1u)) - 1u);
      ref_.idxw[n] = static_cast<uint8_t>(model_.idxw[n] + 1u);
      ref_.base[n] = model_.b[n] & 0xffffu;
      ref_.base_size[n] = static_cast<uint8_t>((model_.b[n] >> 16) & 3u);
      ref_.dispatch[n] = model_.disp[n];
    }
    for (unsigned n = 0; n < 4; n++) {
      ref_.c[n] = model_.c[n];
      ref_.t[n] = model_.t[n];
    }
    ref_.lfsr = model_.lfsr;
    ref_.fields = 0x1f;  // the bench's records are whole: the sample buffer's selection is not in this block
    ref_.halted = 0;
    checking_ = true;
  }

  void check_against_interpreter(uint64_t t, Checker& chk, const hwprof_cop_record_t& r, bool irq) {
    cop_sample_t x{};
    x.pc = r.pc;
    x.npc = r.npc;
    x.insn = r.insn;
    x.addr = r.addr;
    x.value = r.value;
    x.kind = r.info & 7u;
    x.taken = (r.info >> 3) & 1u;
    x.is_call = (r.info >> 4) & 1u;
    x.is_ret = (r.info >> 5) & 1u;
    const int rc = cop_interp_sample(&ref_, &x, 1000000);
    chk.begin_cycle(t);
    chk.expect("interpreter: the routine ends the same way (0 done, 1 intr)", irq ? 1u : 0u, static_cast<uint64_t>(rc));
    if (rc == COP_SAMPLE_INTR) cop_interp_resume(&ref_);
    char what[96];
    for (unsigned n = 0; n < 4; n++) {
      std::snprintf(what, sizeof what, "interpreter: v%u", n);
      chk.expect(what, ref_.v[n], model_.v[n]);
    }
    for (unsigned n = 0; n < 8; n++) {
      std::snprintf(what, sizeof what, "interpreter: i%u", n);
      // what a read gives: the value modulo 2^width (a CAM match may store an entry number wider)
      chk.expect(what, ref_.i[n] & ((1u << ref_.idxw[n]) - 1u), model_.i[n] & ((1u << (model_.idxw[n] + 1u)) - 1u));
    }
    chk.expect("interpreter: LFSR", ref_.lfsr, model_.lfsr);
    for (unsigned k = 0; k < COP_CAM; k++) {
      if (ref_.cam_valid[k] != model_.cam_valid[k] || ref_.cam_key[k] != model_.cam_key[k]) {
        std::snprintf(what, sizeof what, "interpreter: CAM entry %u (valid << 32 | key)", k);
        chk.expect(what, (uint64_t)ref_.cam_valid[k] << 32 | ref_.cam_key[k], (uint64_t)model_.cam_valid[k] << 32 | model_.cam_key[k]);
      }
    }
    for (unsigned w = 0; w < COP_DATA / 4; w++) {
      const uint32_t rw = cop_interp_data_get(&ref_, 4 * w, 4);
      if (rw != model_.data[w]) {
        std::snprintf(what, sizeof what, "interpreter: data word %u", w);
        chk.expect(what, rw, model_.data[w]);
      }
    }
    checked_++;
  }

  // What the routines write is compared with the RTL only when the host reads it: the data words
  // and CAM keys a finished record changed (in the model) are queued for reads, which the busy and
  // random tests interleave with the engine's work (a corrupted word is read back within a few
  // records instead of by chance).
  void note_written() {
    if (shadow_data_.empty()) {
      shadow_data_.assign(model_.data, model_.data + COP_DATA / 4);
      shadow_key_.assign(model_.cam_key, model_.cam_key + COP_CAM);
      return;
    }
    for (unsigned w = 0; w < COP_DATA / 4; w++) {
      if (model_.data[w] != shadow_data_[w] && readback_.size() < 64)
        readback_.push_back(static_cast<uint16_t>(HWPROF_COP_DATA_ADDR + 4 * w));
      shadow_data_[w] = model_.data[w];
    }
    for (unsigned k = 0; k < COP_CAM; k++) {
      if (model_.cam_key[k] != shadow_key_[k] && readback_.size() < 64)
        readback_.push_back(static_cast<uint16_t>(HWPROF_COP_CAM_KEY_ADDR + 4 * k));
      shadow_key_[k] = model_.cam_key[k];
    }
  }
  void read_back() {
    if (readback_.empty()) return;
    rd(readback_.front(), -1, "read back a word a routine wrote");
    readback_.pop_front();
  }

  // ---------------------------------------------------------------- host scripts
  void wr(uint16_t a, uint32_t d, const char* what = "write", int err = -1) { script_.push_back({true, a, d, -1, err, what}); }
  void rd(uint16_t a, int64_t expect = -1, const char* what = "read", int err = -1) {
    script_.push_back({false, a, 0, expect, err, what});
  }
  void idle(unsigned n) {
    for (unsigned k = 0; k < n; k++) script_.push_back({false, 0xffff, 0, -1, -1, "idle"});
  }
  void load_image(const hwprof_cop_image_t& img, bool fill_uc) {
    for (uint32_t a = 0; a < img.n_uc; a++) {
      wr(static_cast<uint16_t>(HWPROF_COP_UC_LO_ADDR + 4 * a), static_cast<uint32_t>(img.uc[a]));
      wr(static_cast<uint16_t>(HWPROF_COP_UC_HI_ADDR + 4 * a), static_cast<uint32_t>(img.uc[a] >> 32));
    }
    if (fill_uc)
      for (uint32_t a = img.n_uc; a < COP_UC; a++) {
        wr(static_cast<uint16_t>(HWPROF_COP_UC_LO_ADDR + 4 * a), 0);
        wr(static_cast<uint16_t>(HWPROF_COP_UC_HI_ADDR + 4 * a), 0);
      }
    for (unsigned n = 0; n < 4; n++) wr(static_cast<uint16_t>(HWPROF_COP_C_ADDR + 4 * n), img.c[n]);
    for (unsigned n = 0; n < 8; n++)
      wr(static_cast<uint16_t>(HWPROF_COP_B_ADDR + 4 * n), img.base[n] | static_cast<uint32_t>(img.base_size[n]) << 16);
    for (unsigned n = 0; n < 4; n++) wr(static_cast<uint16_t>(HWPROF_COP_T_ADDR + 4 * n), img.t[n]);
    for (unsigned k = 0; k < 8; k++) wr(static_cast<uint16_t>(HWPROF_COP_DISPATCH_ADDR + 4 * k), img.dispatch[k]);
    uint32_t w = 0;
    for (unsigned n = 0; n < 8; n++) w |= static_cast<uint32_t>(img.idxw[n] - 1u) << (4 * n);
    wr(HWPROF_COP_IDXW_ADDR, w);
    wr(HWPROF_COP_LFSR_ADDR, img.lfsr);
  }

  // ---------------------------------------------------------------- timing test
  bool timing_test() const { return test_ == "timing" || test_ == "timing-clock"; }
  static hwprof_cop_record_t rec(uint8_t kind, uint32_t pc) { return hwprof_cop_record_t{pc, pc + 4, 0x00452503u, 0x80200000u, 7, kind}; }

  void setup_timing() {
    hwprof_cop_image_t img;
    char err[256];
    if (cop_asm(kPcCount, "pc_count", &img, err, sizeof err)) {
      std::fprintf(stderr, "tb_cop: %s\n", err);
      std::exit(2);
    }
    load_image(img, true);
    const unsigned k = test_ == "timing-clock" ? 2u : 0u;  // log2 of the system cycles per engine cycle
    wr(HWPROF_COP_CLOCK_ADDR, k, "the engine's clock", 0);
    rd(HWPROF_COP_CLOCK_ADDR, k, "reads back");
    wr(HWPROF_COP_CMD_ADDR, HWPROF_COP_CMD_START_MASK, "start", 0);
    const unsigned start = static_cast<unsigned>(script_.size()) - 1;  // s: the cycle START is written (one op a cycle from 0)
    // The records are there from the start: the first is taken the cycle after START (cycle s+1).
    // By hand (docs/cop.md): a routine of n instructions without a misprediction costs n + 1
    // cycles; a misprediction one more.
    //   r1 0x100 new: entry (bcmiss.t: taken as predicted), new (bilim: not taken as predicted),
    //      b done -> n = 3: pops at s+1 and s+1+4
    //   r2 0x104 new: same, 4 cycles
    //   r3 0x100 hit: entry's bcmiss predicted taken (PRED 2 -> 3 -> 3 after r1, r2) but not taken:
    //      the fetched `new` is discarded (1 cycle), then incs | b done: 2 + 1 + 1 = 4 cycles
    //   r4 0x108 new: PRED of entry is 2 now (3 - 1): predicted taken, taken: 4 cycles
    //   r5 0x100 hit: PRED 3 (2 + 1), mispredicted again: 4 cycles
    for (uint32_t pc : {0x100u, 0x104u, 0x100u, 0x108u, 0x100u}) records_.push_back(rec(HWPROF_KIND_LOAD, pc));
    // At a quarter of the clock the first engine cycle is still s+1 (the first the engine runs), and
    // every engine cycle after it four system cycles later: pops at s+1, s+17, s+33, s+49, s+65.
    for (unsigned r = 0; r < 5; r++) expect_pops_.push_back(start + 1u + (4u * r << k));
    idle(25u << k);
    // after r5 finishes (cycle s+21 executes its done): 13 instructions executed (3+3+2+3+2; the two
    // discarded fetches are not executed), 2 mispredictions, 5 records, and the table
    rd(HWPROF_COP_STAT_SAMPLES_ADDR, 5, "records finished");
    rd(HWPROF_COP_STAT_EXECUTED_ADDR, 13, "microinstructions executed: 3 + 3 + 2 + 3 + 2");
    rd(HWPROF_COP_STAT_MISPREDICT_ADDR, 2, "mispredictions: r3 and r5");
    rd(HWPROF_COP_CAM_KEY_ADDR + 0, 0x100, "slot 0 holds 0x100");
    rd(HWPROF_COP_CAM_KEY_ADDR + 8, 0x108, "slot 2 holds 0x108");
    rd(HWPROF_COP_CAM_VALID_ADDR, 0x7, "slots 0..2 valid");
    rd(HWPROF_COP_DATA_ADDR + 0, 0x00010003, "counts: 0x100 three times, 0x104 once");
    rd(HWPROF_COP_DATA_ADDR + 4, 0x00000001, "0x108 once");
    rd(static_cast<uint16_t>(HWPROF_COP_UC_HI_ADDR + 0), (img.uc[0] >> 32 & 0x3fffu) | 2u << 14,
       "entry's predictor: 2 -> 3, 3, 2, 3, 2 (weakly taken)");
    rd(HWPROF_COP_STATUS_ADDR, -1, "status");
    end_after_ = 0;
  }

  // ---------------------------------------------------------------- host test
  void setup_host() {
    const uint16_t uc_beyond = static_cast<uint16_t>(HWPROF_COP_UC_LO_ADDR + 4 * COP_UC);
    rd(HWPROF_COP_CFG_ADDR, (uint32_t)(__builtin_ctz(COP_UC) | __builtin_ctz(COP_CAM) << 4 | __builtin_ctz(COP_DATA) << 8),
       "CFG shows the build's sizes as log2");
    rd(HWPROF_COP_LFSR_ADDR, 0xace1, "LFSR reset seed");
    // the block answers only its window: the words just past its end and just before it are errors
    const uint16_t win_end = static_cast<uint16_t>((HWPROF_COP_WINDOW + HWPROF_COP_WINDOWS) << HWPROF_WINDOW_SHIFT);
    const uint16_t win_start = static_cast<uint16_t>(HWPROF_COP_WINDOW << HWPROF_WINDOW_SHIFT);
    for (uint16_t a : {win_end, static_cast<uint16_t>(win_end + 4), static_cast<uint16_t>(win_end + 12),
                       static_cast<uint16_t>(win_start - 4)})
      rd(a, 0, "outside the window: an error reading 0", 1);
    rd(HWPROF_COP_IDXW_ADDR, 0xffffffff, "index widths reset to 16");
    wr(HWPROF_COP_LFSR_ADDR, 0, "a seed of 0 is refused", 1);
    rd(HWPROF_COP_LFSR_ADDR, 0xace1, "and changes nothing");
    wr(HWPROF_COP_IDXW_ADDR, 0x76543210, "widths 1..8", 0);
    wr(HWPROF_COP_I_ADDR + 4 * 7, 0xffff, "i7 = 0xffff", 0);
    rd(HWPROF_COP_I_ADDR + 4 * 7, 0xff, "i7 reads modulo 2^8");
    wr(HWPROF_COP_B_ADDR + 4 * 2, 0xffffffff, "b2: 18 bits kept", 0);
    rd(HWPROF_COP_B_ADDR + 4 * 2, 0x3ffff, "b2 reads its 18 bits");
    wr(HWPROF_COP_T_ADDR + 4, 0xffffffff, "t1 keeps log2 UcDepth bits", 0);
    rd(HWPROF_COP_T_ADDR + 4, COP_UC - 1, "t1 reads modulo UcDepth");
    wr(HWPROF_COP_CAM_KEY_ADDR + 4 * 3, 0xabcd, "a key written by the host is valid", 0);
    rd(HWPROF_COP_CAM_VALID_ADDR, 0x8, "entry 3 valid");
    wr(HWPROF_COP_CAM_VALID_ADDR, 1, "CAM_VALID is read-only", 1);
    wr(HWPROF_COP_DATA_ADDR + 4 * 5, 0x12345678, "a data word", 0);
    rd(HWPROF_COP_DATA_ADDR + 4 * 5, 0x12345678, "reads back");
    if (COP_UC < HWPROF_COP_MAX_UC) {
      wr(uc_beyond, 1, "a microcode word beyond UcDepth is refused", 1);
      rd(uc_beyond, 0, "and reads 0");
    }
    if (COP_DATA < 4 * HWPROF_COP_MAX_DATA_WORDS) {
      wr(static_cast<uint16_t>(HWPROF_COP_DATA_ADDR + COP_DATA), 1, "a data word beyond DataBytes is refused", 1);
    }
    if (COP_CAM < HWPROF_COP_MAX_CAM) wr(static_cast<uint16_t>(HWPROF_COP_CAM_KEY_ADDR + 4 * COP_CAM), 1, "a key beyond CamEntries is refused", 1);
    // a program that loops for ever: `b .` at 0
    wr(HWPROF_COP_UC_LO_ADDR, static_cast<uint32_t>(HWPROF_COP_UI_SET(HWPROF_COP_UI_SET(0ull, COND, HWPROF_COP_COND_ALWAYS), TARGET,
                                                                          HWPROF_COP_TARGET_M0)), "b .", 0);
    wr(HWPROF_COP_UC_HI_ADDR, static_cast<uint32_t>(HWPROF_COP_UI_SET(HWPROF_COP_UI_SET(0ull, COND, HWPROF_COP_COND_ALWAYS), TARGET,
                                                                          HWPROF_COP_TARGET_M0) >> 32), "b .", 0);
    records_.push_back(rec(HWPROF_KIND_OTHER, 0x40));
    records_.push_back(rec(HWPROF_KIND_OTHER, 0x44));
    wr(HWPROF_COP_CMD_ADDR, HWPROF_COP_CMD_START_MASK, "start", 0);
    idle(3);
    rd(HWPROF_COP_STATUS_ADDR, 1u | 1u << 2, "running, a record in the DFE (the loop at address 0)");
    const struct { uint16_t a; const char* what; } refused[] = {
        {HWPROF_COP_CMD_ADDR, "CMD refused while running"},        {HWPROF_COP_LFSR_ADDR, "LFSR refused while running"},
        {HWPROF_COP_IDXW_ADDR, "IDXW refused while running"},      {HWPROF_COP_CLOCK_ADDR, "CLOCK refused while running"},
        {HWPROF_COP_V_ADDR, "v0 refused while running"},
        {HWPROF_COP_I_ADDR, "i0 refused while running"},           {HWPROF_COP_C_ADDR, "c0 refused while running"},
        {HWPROF_COP_B_ADDR, "b0 refused while running"},           {HWPROF_COP_T_ADDR, "t0 refused while running"},
        {HWPROF_COP_DISPATCH_ADDR, "dispatch refused while running"}, {HWPROF_COP_UC_LO_ADDR, "uc lo refused while running"},
        {HWPROF_COP_UC_HI_ADDR, "uc hi refused while running"},    {HWPROF_COP_CAM_KEY_ADDR, "CAM key refused while running"},
        {HWPROF_COP_DATA_ADDR, "data refused while running"}};
    for (const auto& r : refused) wr(r.a, 0x5, r.what, 1);
    rd(HWPROF_COP_DATA_ADDR + 4 * 5, 0x12345678, "reads are answered while running, and the refused write changed nothing");
    wr(HWPROF_COP_STAT_SAMPLES_ADDR, 0xfffffffe, "statistics take a write, even while the engine runs", 0);
    rd(HWPROF_COP_STAT_SAMPLES_ADDR, 0xfffffffe, "and read it back (no record finishes in the loop)");
    wr(HWPROF_COP_STAT_SAMPLES_ADDR, 0, "back to 0", 0);
    wr(HWPROF_COP_STOP_ADDR, 1, "stop", 0);
    rd(HWPROF_COP_STATUS_ADDR, 0, "stopped: not running, not halted, the record discarded");
    // clears without START: the engine stays stopped, the data array is cleared
    wr(HWPROF_COP_CMD_ADDR, 0x4, "DATA_CLEAR alone", 0);
    rd(HWPROF_COP_STATUS_ADDR, 0, "still stopped after clears without START");
    rd(HWPROF_COP_DATA_ADDR + 4 * 5, 0, "DATA_CLEAR alone cleared the data array");
    rd(HWPROF_COP_CAM_VALID_ADDR, 0x8, "and left the CAM alone");
    // re-arm in one write: every clear and START
    wr(HWPROF_COP_CMD_ADDR, 0xf, "re-arm: CAM_INVAL | DATA_CLEAR | IDX_CLEAR | START", 0);
    idle(2);
    wr(HWPROF_COP_STOP_ADDR, 1, "stop", 0);
    rd(HWPROF_COP_CAM_VALID_ADDR, 0, "the CAM was invalidated");
    rd(HWPROF_COP_I_ADDR + 4 * 7, 0, "the index registers were cleared");
    rd(HWPROF_COP_STAT_SAMPLES_ADDR, 0, "no record finished (the loop never ends)");
    end_after_ = 0;
  }

  // ---------------------------------------------------------------- random test
  // a random code among the listed ones of an enum (its name table), or now and then a reserved one
  unsigned pick(const char* const* names, unsigned n, unsigned reserved_pct = 1) {
    if (rng_.chance(reserved_pct)) return static_cast<unsigned>(rng_.below(n));
    for (;;) {
      unsigned c = static_cast<unsigned>(rng_.below(n));
      if (names[c]) return c;
    }
  }
  uint32_t value_set() {
    static const uint32_t kValues[] = {0, 1, 7, 0xffffffffu, 0x80000000u, 0x100, 0x104, 0x108};
    return rng_.chance(80) ? kValues[rng_.below(8)] : static_cast<uint32_t>(rng_.next());
  }
  uint64_t random_word() {
    uint64_t w = 0;
    auto set = [&](unsigned lsb, unsigned width, uint64_t v) { w |= (v & ((1ull << width) - 1u)) << lsb; };
    if (rng_.chance(70)) set(HWPROF_COP_UI_ALU_OP_LSB, HWPROF_COP_UI_ALU_OP_W, pick(hwprof_cop_alu_op_name, HWPROF_COP_ALU_OP_CODES));
    set(HWPROF_COP_UI_ALU_DST_LSB, HWPROF_COP_UI_ALU_DST_W, rng_.below(4));
    set(HWPROF_COP_UI_SRC_A_LSB, HWPROF_COP_UI_SRC_A_W, pick(hwprof_cop_src_name, HWPROF_COP_SRC_CODES));
    set(HWPROF_COP_UI_SRC_B_LSB, HWPROF_COP_UI_SRC_B_W, pick(hwprof_cop_src_name, HWPROF_COP_SRC_CODES));
    if (rng_.chance(40)) set(HWPROF_COP_UI_CAM_OP_LSB, HWPROF_COP_UI_CAM_OP_W, pick(hwprof_cop_cam_op_name, HWPROF_COP_CAM_OP_CODES));
    set(HWPROF_COP_UI_CAM_IDX_LSB, HWPROF_COP_UI_CAM_IDX_W, rng_.below(8));
    if (rng_.chance(50)) set(HWPROF_COP_UI_DATA_OP_LSB, HWPROF_COP_UI_DATA_OP_W, pick(hwprof_cop_data_op_name, HWPROF_COP_DATA_OP_CODES));
    set(HWPROF_COP_UI_DATA_REG_LSB, HWPROF_COP_UI_DATA_REG_W, rng_.below(4));
    set(HWPROF_COP_UI_DATA_BASE_LSB, HWPROF_COP_UI_DATA_BASE_W, rng_.below(8));
    set(HWPROF_COP_UI_DATA_IDX_LSB, HWPROF_COP_UI_DATA_IDX_W, rng_.below(8));
    if (rng_.chance(50)) set(HWPROF_COP_UI_IDX_OP_LSB, HWPROF_COP_UI_IDX_OP_W, pick(hwprof_cop_idx_op_name, HWPROF_COP_IDX_OP_CODES));
    set(HWPROF_COP_UI_IDX_REG_LSB, HWPROF_COP_UI_IDX_REG_W, rng_.below(8));
    if (rng_.chance(75)) {
      set(HWPROF_COP_UI_COND_LSB, HWPROF_COP_UI_COND_W, pick(hwprof_cop_cond_name, HWPROF_COP_COND_CODES));
      // `done` often, so most routines end; offsets, t registers, intr now and then
      const unsigned r = static_cast<unsigned>(rng_.below(100));
      const unsigned tgt = r < 40 ? HWPROF_COP_TARGET_DONE : r < 42 ? HWPROF_COP_TARGET_INTR
                                                         : pick(hwprof_cop_target_name, HWPROF_COP_TARGET_CODES, 2);
      set(HWPROF_COP_UI_TARGET_LSB, HWPROF_COP_UI_TARGET_W, tgt);
    }
    set(HWPROF_COP_UI_PRED_LSB, HWPROF_COP_UI_PRED_W, rng_.below(4));
    return w;
  }

  void new_program() {
    hwprof_cop_image_t img{};
    img.n_uc = 2 + static_cast<uint32_t>(rng_.below(COP_UC - 1));
    for (uint32_t a = 0; a < img.n_uc; a++) img.uc[a] = random_word();
    // the last word of a program ends the routine, so falling off its end is rare
    img.uc[img.n_uc - 1] = HWPROF_COP_UI_SET(HWPROF_COP_UI_SET(img.uc[img.n_uc - 1], COND, HWPROF_COP_COND_ALWAYS), TARGET,
                                             HWPROF_COP_TARGET_DONE);
    for (unsigned n = 0; n < 4; n++) img.c[n] = value_set();
    for (unsigned n = 0; n < 8; n++) {
      img.base[n] = static_cast<uint32_t>(rng_.below(0x10000));
      img.base_size[n] = static_cast<uint8_t>(rng_.below(4));  // 3 acts as word
      img.idxw[n] = static_cast<uint8_t>(1 + rng_.below(16));
      img.dispatch[n] = static_cast<uint32_t>(rng_.below(img.n_uc));
    }
    for (unsigned n = 0; n < 4; n++) img.t[n] = static_cast<uint32_t>(rng_.below(img.n_uc));
    img.lfsr = static_cast<uint16_t>(1 + rng_.below(0xffff));
    load_image(img, rng_.chance(50));
    // some state to start from: registers, keys, data words (through the window too)
    for (unsigned n = 0; n < 4; n++) wr(static_cast<uint16_t>(HWPROF_COP_V_ADDR + 4 * n), value_set());
    for (unsigned n = 0; n < 8; n++) wr(static_cast<uint16_t>(HWPROF_COP_I_ADDR + 4 * n), static_cast<uint32_t>(rng_.next()));
    for (unsigned k = 0; k < 6; k++) wr(static_cast<uint16_t>(HWPROF_COP_CAM_KEY_ADDR + 4 * rng_.below(COP_CAM)), value_set());
    for (unsigned k = 0; k < 6; k++)
      wr(static_cast<uint16_t>(HWPROF_COP_DATA_ADDR + 4 * rng_.below(COP_DATA / 4)), static_cast<uint32_t>(rng_.next()));
    rearm();
    programs_++;
    program_start_ = finished_;
  }

  void rearm() {
    // random clears, and START, in one write
    if (rng_.chance(20)) wr(HWPROF_COP_CLOCK_ADDR, static_cast<uint32_t>(rng_.below(4)), "the engine's clock", 0);
    wr(HWPROF_COP_CMD_ADDR, static_cast<uint32_t>(rng_.below(8)) << 1 | HWPROF_COP_CMD_START_MASK, "re-arm", 0);
    want_sync_ = true;
  }

  void random_host_reads() {
    // reads anywhere in the block (registers, arrays, holes), answered while the engine runs
    // and now and then with one address bit flipped: a decoder that ignores a bit answers it;
    const uint16_t base = static_cast<uint16_t>(HWPROF_COP_WINDOW << HWPROF_WINDOW_SHIFT);
    const uint16_t a = static_cast<uint16_t>(base + 4 * rng_.below(HWPROF_COP_WINDOWS * 64));
    // and now and then anywhere in the 64 KB: the block answers only its own window's registers
    if (rng_.chance(3)) {
      rd(static_cast<uint16_t>(rng_.next()));
      return;
    }
    rd(rng_.chance(80) ? a : static_cast<uint16_t>(a ^ (1u << rng_.below(16))));
  }

  // ---------------------------------------------------------------- busy test
  void setup_busy() {
    // as many 16-bit counts as the CAM has entries and the data array holds
    const unsigned slots = COP_CAM < COP_DATA / 2 ? COP_CAM : COP_DATA / 2;
    char src[512];
    std::snprintf(src, sizeof src,
                  ".fields pc\n.dispatch load, entry\n.base b0, 0x000, half\n.const c0, 1\n.idxw i1, %d\n"
                  "entry:  cmatch i0, s.pc | bcmiss.t new\n"
                  "        incs b0[i0] | b done\n"
                  "new:    cwrite i1, s.pc | st b0[i1], c0 | iinc i1 | bilim full\n"
                  "        b done\n"
                  "full:   b intr\n",
                  __builtin_ctz(slots));
    std::string text = src;
    const char* name = "busy";
    if (test_ == "valueprof") {
      name = "sw/fw/cop/valueprof.s";
      FILE* f = std::fopen(name, "r");
      if (f == nullptr) {
        std::fprintf(stderr, "tb_cop: error: cannot open %s (run the bench from the repository root)\n", name);
        std::exit(2);
      }
      text.clear();
      char buf[4096];
      for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
      std::fclose(f);
      if (COP_CAM < 256 || COP_DATA < 2048 || COP_UC < 32) {
        std::fprintf(stderr, "tb_cop: error: %s needs 256 CAM entries, 2048 data bytes, 32 microcode words\n", name);
        std::exit(2);
      }
    }
    hwprof_cop_image_t img;
    char err[256];
    if (cop_asm(text.c_str(), name, &img, err, sizeof err)) {
      std::fprintf(stderr, "tb_cop: %s\n", err);
      std::exit(2);
    }
    load_image(img, true);
    busy_pool_ = test_ == "valueprof" ? 400 : slots + slots / 2;
    wr(HWPROF_COP_CMD_ADDR, HWPROF_COP_CMD_START_MASK, "start", 0);
    want_sync_ = true;
  }

  void busy_stimulus() {
    if (want_sync_ && script_.empty()) {
      if (use_model_ && use_rtl_) sync_interpreter();
      checking_ = use_model_ && use_rtl_;  // one side alone: a speed figure, nothing checked
      want_sync_ = false;
    }
    // the engine never waits for a record; PCs from a pool of 1.5 table sizes, skewed towards the
    // low ones (a few hot loads, many cold ones), so the table fills now and then
    while (records_.size() < 4) {
      const uint32_t n = static_cast<uint32_t>(rng_.below(busy_pool_) * rng_.below(busy_pool_) / busy_pool_);
      hwprof_cop_record_t r = rec(HWPROF_KIND_LOAD, 0x80000000u + 4 * n);
      if (test_ == "valueprof") {
        static const uint32_t kValues[] = {0, 1, 1, 1, 2, 7};
        r.value = rng_.chance(80) ? kValues[rng_.below(6)] : static_cast<uint32_t>(rng_.next());
      }
      records_.push_back(r);
    }
    if (script_.empty() && rng_.chance(10)) read_back();
    if (script_.empty() && busy_halted_) {
      // the firmware's re-arm: clear the table and start, one write
      wr(HWPROF_COP_CMD_ADDR, 0xfu, "re-arm", 0);
      want_sync_ = true;
      busy_halted_ = false;
    }
  }

  void random_stimulus(uint64_t t) {
    (void)t;
    if (want_sync_ && script_.empty()) {
      // the START of the re-arm took effect at the last edge; nothing executes before two cycles
      sync_interpreter();
      want_sync_ = false;
    }
    // records: bursts and gaps
    hold_records_ = rng_.chance(10);
    if (records_.size() < 12 && rng_.chance(60)) {
      hwprof_cop_record_t r{};
      static const uint32_t kPcs[] = {0x100, 0x104, 0x108, 0x10c, 0x200, 0x204, 0x300, 0x304};
      r.pc = rng_.chance(90) ? kPcs[rng_.below(8)] : static_cast<uint32_t>(rng_.next());
      r.npc = r.pc + 4;
      r.insn = static_cast<uint32_t>(rng_.next());
      r.addr = value_set();
      r.value = value_set();
      r.info = static_cast<uint8_t>(rng_.below(64));
      records_.push_back(r);
    }
    since_finish_++;
    if (!script_.empty()) return;
    if (model_.run) {
      if (since_finish_ > 400 || finished_ - program_start_ > 200) {
        // a routine that does not end (or not soon), or time for another program
        wr(HWPROF_COP_STOP_ADDR, 1, "stop", 0);
        stops_++;
        since_finish_ = 0;
        return;
      }
      // one access a cycle, decided on this cycle's state: an expected refusal must not meet a
      // halt that happened while it waited behind another access
      if (!readback_.empty() && rng_.chance(10)) {
        read_back();
      } else if (rng_.chance(3)) {
        random_host_reads();
      } else if (rng_.chance(1)) {
        // a write to engine state while it runs: refused, nothing changes
        static const uint16_t kTargets[] = {HWPROF_COP_CMD_ADDR, HWPROF_COP_LFSR_ADDR, HWPROF_COP_IDXW_ADDR, HWPROF_COP_V_ADDR,
                                            HWPROF_COP_I_ADDR,   HWPROF_COP_C_ADDR,    HWPROF_COP_B_ADDR,    HWPROF_COP_T_ADDR,
                                            HWPROF_COP_DISPATCH_ADDR, HWPROF_COP_UC_LO_ADDR, HWPROF_COP_UC_HI_ADDR,
                                            HWPROF_COP_CAM_KEY_ADDR, HWPROF_COP_DATA_ADDR};
        wr(kTargets[rng_.below(sizeof kTargets / sizeof kTargets[0])], static_cast<uint32_t>(rng_.next()) | 1u,
           "a write to engine state while it runs is refused", 1);
      } else if (rng_.chance(1)) {
        // a statistics register preset, accepted while the engine runs: often just below the wrap
        static const uint16_t kStats[] = {HWPROF_COP_STAT_SAMPLES_ADDR, HWPROF_COP_STAT_EXECUTED_ADDR,
                                          HWPROF_COP_STAT_MISPREDICT_ADDR, HWPROF_COP_STAT_IDLE_ADDR};
        wr(kStats[rng_.below(sizeof kStats / sizeof kStats[0])],
           rng_.chance(50) ? 0xffffffffu - static_cast<uint32_t>(rng_.below(64)) : static_cast<uint32_t>(rng_.next()),
           "a statistics preset", 0);
      }
      if (rng_.below(20000) == 0) {
        wr(HWPROF_COP_STOP_ADDR, 1, "stop at random", 0);
        stops_++;
      }
      return;
    }
    // stopped or halted: look around, sometimes a new program, then re-arm
    for (unsigned k = 0; k < 4; k++) random_host_reads();
    if (rng_.chance(70) || finished_ - program_start_ > 200) {
      new_program();
    } else {
      if (rng_.chance(30)) wr(static_cast<uint16_t>(HWPROF_COP_V_ADDR + 4 * rng_.below(4)), value_set());
      rearm();
    }
  }

  lockstep::Rng rng_;
  std::string test_;
  hwprof_cop_cfg_t cfg_{};
  hwprof_cop_state_t model_{};
  cop_interp_t ref_{};
  std::deque<hwprof_cop_record_t> records_;
  std::vector<uint32_t> shadow_data_, shadow_key_;  // the model's data array and CAM keys at the last record
  std::deque<uint16_t> readback_;                   // host reads of what the records since wrote
  std::deque<HostOp> script_;
  std::vector<uint64_t> expect_pops_;
  bool hold_records_ = false, checking_ = false, want_sync_ = false;
  bool use_rtl_ = true, use_model_ = true, busy_halted_ = false;
  uint64_t busy_pool_ = 0;
  uint64_t end_after_ = 0, since_finish_ = 0, program_start_ = 0;
  static_assert(HWPROF_COP_STAT_IDLE_ADDR == HWPROF_COP_STAT_SAMPLES_ADDR + 4u * HWPROF_COP_ST_IDLE,
                "the statistics registers follow the counter bank's order");
  uint64_t counted_[HWPROF_COP_ST_N] = {};  // events the statistics counted, whatever was written to them
  uint64_t programs_ = 0, finished_ = 0, checked_ = 0, intrs_ = 0, stops_ = 0, host_ops_ = 0, refused_ = 0, directed_ = 0;
  size_t pops_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  return lockstep::main(argc, argv, "tb_cop", "random|timing|timing-clock|host|busy|valueprof", [](const Options& o) {
    return std::unique_ptr<lockstep::Bench>(new CopBench(o));
  });
}
