// The configuration of hwprof_top a lockstep bench is built for. The RTL parameters are fixed when
// Verilator builds the bench; the Makefile passes the same values as HWPROF_PARAM_* to every C++ file
// of the bench (and to the C model's configuration). The defaults are hwprof_top's (regs/encodings.json).
#ifndef HWPROF_TB_BENCH_CFG_H
#define HWPROF_TB_BENCH_CFG_H

#include <cstdint>

#include "autogen/hwprof_regs.h" /* the defaults: regs/encodings.json */

#ifndef HWPROF_PARAM_CNTW
#define HWPROF_PARAM_CNTW HWPROF_CNTW_DEFAULT
#endif
#ifndef HWPROF_PARAM_UPDDEPTH
#define HWPROF_PARAM_UPDDEPTH HWPROF_UPDDEPTH_DEFAULT
#endif
#ifndef HWPROF_PARAM_SETS
#define HWPROF_PARAM_SETS HWPROF_SETS_DEFAULT
#endif
#ifndef HWPROF_PARAM_WAYS
#define HWPROF_PARAM_WAYS HWPROF_WAYS_DEFAULT
#endif
#ifndef HWPROF_PARAM_LINEWORDS
#define HWPROF_PARAM_LINEWORDS HWPROF_LINEWORDS_DEFAULT
#endif
#ifndef HWPROF_PARAM_OABDEPTH
#define HWPROF_PARAM_OABDEPTH HWPROF_OABDEPTH_DEFAULT
#endif
#ifndef HWPROF_PARAM_HISTW
#define HWPROF_PARAM_HISTW HWPROF_HISTW_DEFAULT
#endif
#ifndef HWPROF_PARAM_TFIFO
#define HWPROF_PARAM_TFIFO HWPROF_TFIFO_DEFAULT
#endif

namespace hwprof_tb {

// the counter memory and the bounds window over it: at --mem-base (set before the bench is built,
// so that every address the stimulus and the directed steps compute follows it), kMemSize bytes
inline uint64_t g_mem_base = 0x80000000ull;
constexpr uint64_t kMemSize = 0x10000ull;
// above it, outside the bounds, the path stack's spill area: kSpillBlocks blocks of 64 bytes
// (PATH_SPILL.LIMIT's unit), each 64 / kLineBytes entries
constexpr unsigned kSpillBlocks = 64;
constexpr uint64_t kSpillBytes = kSpillBlocks * 64ull;
constexpr unsigned kLineBytes = HWPROF_PARAM_LINEWORDS * HWPROF_PARAM_CNTW / 8;
// above that, the link stack's spill area, as large; a frame ({base, offset, sum}, 77 bits) takes
// kFrameLines lines of a slot of kFrameSlot lines (docs/pir.md)
constexpr uint64_t kLinkSpillBytes = kSpillBytes;
constexpr unsigned kFrameLines = (77 + 8 * kLineBytes - 1) / (8 * kLineBytes);
constexpr unsigned kFrameSlot = kFrameLines == 1 ? 1 : kFrameLines == 2 ? 2 : kFrameLines <= 4 ? 4 : 8;
// the frames LIMIT blocks hold
constexpr unsigned link_frames(unsigned blocks) { return blocks * (64 / kLineBytes) / kFrameSlot; }
constexpr unsigned kCntBytes = HWPROF_PARAM_CNTW / 8;
constexpr uint64_t kCntMax = HWPROF_PARAM_CNTW >= 64 ? ~0ull : ((1ull << HWPROF_PARAM_CNTW) - 1);

}  // namespace hwprof_tb

#endif  // HWPROF_TB_BENCH_CFG_H
