// What AscendAntiQuant's 2201 bfloat16 performance path (not transposed, offset tensor) leaves
// in its scratch, with dst: a replay of the kit's instructions, repeat by repeat, over the bytes
// of sharedTmpBuffer.
//
// Provenance: written from impl/adv_api/detail/quantization/antiquant/ascend_antiquant_impl.h
// (AscendAntiQuantNoTranspose: AntiQuantCheckPerformanceMode, PreCast, the calls of
// ANTIQUANT_MAX_K = 255 rows and the kTail call, each AscendAntiQuantNoTransposePerformance and,
// for N % 64, ...PerformanceTail at NAlign) and ascend_antiquant_c220_impl.h (the bfloat16_t
// PreCast, AscendAntiQuantNoTransposePerformance{,Tail}, AntiQuantCheckPerformanceMode), with
// ascend_antiquant_common.h's constants and kernel_utils_constants.h's repeat strides, read for
// this file by helper aq2 (session 18) before lngrad's model of the scratch was written; the
// same helper then wrote that model (a separate reading, not an independent person). No code is
// shared with src/ or include/; the element conversions are replay.h's.
#pragma once

#include <cstdint>
#include <vector>

namespace lngrad_replay::aqscr {

// One call: int4b_t or int8_t source, K rows (the call's K), srcSize elements (N = srcSize / K),
// the offset and scale tensors' bfloat16 bits (their GetSize() the vectors' sizes).
struct PerfScratchCall {
  bool int4 = false;
  uint32_t k = 0, srcSize = 0;
  std::vector<uint16_t> offset, scale;
};

// Runs the path over src's bytes, dst's bfloat16 bits and the scratch's bytes (its size
// sharedTmpBuffer.GetSize()). False where the call would not take the performance path, or where
// the replay does not follow the kit (int4b_t N not a multiple of 64, int8_t N not a multiple of
// 16, or N not a multiple of 32 with K above 255: the strides truncate), or where a write would
// fall outside the scratch or dst.
bool Bf16PerformanceScratch(const PerfScratchCall& c, const std::vector<uint8_t>& src,
                            std::vector<uint16_t>& dst, std::vector<uint8_t>& tmp);

}  // namespace lngrad_replay::aqscr
