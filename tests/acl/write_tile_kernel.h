// The one-tile kernel body shared by the memory-guard tests (tests/acl/memory_guard_test.cpp)
// and the ACL argument fuzzer (fuzz/fuzz_acl_args.cpp): it fills a UB tile with kTileValue and
// copies it to GM. Device code only (no gtest), so that the fuzzer can include it.
#pragma once

#include <cstdint>

#include "kernel_operator.h"

namespace lngrad::acl_test {

inline constexpr uint32_t kTile = 64;  // floats, 256 B
inline constexpr float kTileValue = 7.0f;

// Writes kTileValue to kTile floats at element `at` of z, seen as a GlobalTensor of unknown
// size (only the GM allocation's bounds can be checked).
__aicore__ inline void WriteTileAt(GM_ADDR z, uint32_t at) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, kTile * sizeof(float));
  AscendC::LocalTensor<float> t = buf.Get<float>();
  AscendC::Duplicate(t, kTileValue, kTile);
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z));
  AscendC::DataCopy(g[at], t, kTile);
}

}  // namespace lngrad::acl_test
