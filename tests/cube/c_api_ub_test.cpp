// The C API's UB copies and the block sync of a mixed kernel (950): asc_copy_ub2ub and
// asc_copy_ub2l1 in both forms (size; bursts of 32-byte blocks with end-to-start gaps, the
// reference's units, read here separately), asc_sync_block_arrive on each AIV and
// asc_sync_block_wait on the AIC (mode 2: the AIC waits for both AIVs). Each AIV fills its half
// of an L1 array of the AI core; the AIC reads the array once both arrived.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "c_api/asc_simd.h"
#include "kernel_operator.h"

namespace {

using AscendC::TPosition;
using lngrad::cube::ArrayKey;
using lngrad::cube::CubeArray;
constexpr uint32_t kBlocks = 8, kBytes = kBlocks * 32;  // each AIV's share of the L1 array

uint8_t Byte(uint32_t sub, uint32_t i) { return static_cast<uint8_t>(sub * 101 + i * 7 + 3); }

TEST(CubeCApiUb, CopiesAndBlockSyncOfAMixedKernel) {
  std::vector<uint8_t> seen(2 * kBytes, 0);
  lngrad::aicore::LaunchOptions o;
  o.soc = "Ascend950PR_9599";
  o.split = lngrad::aicore::SplitOf(KERNEL_TYPE_MIX_AIC_1_2);
  std::vector<lngrad::aicore::BlockFailure> failures;
  const auto kernel = [&] {
    auto& l1 = CubeArray<uint8_t[2 * kBytes]>(ArrayKey([] {}), "l1", TPosition::A1);
    if ASCEND_IS_AIV {
      const uint32_t sub = AscendC::GetSubBlockIdx();
      AscendC::LocalTensor<uint8_t> ub(TPosition::VECCALC, 0, 4 * kBytes);
      auto* u = static_cast<uint8_t*>(ub.GetPhyAddr());
      // src: the share's blocks 2 apart (one block gap); ub2ub gathers them at kBytes * 2.
      for (uint32_t i = 0; i < kBytes; ++i) u[(i / 32) * 64 + i % 32] = Byte(sub, i);
      asc_copy_ub2ub(u + 2 * kBytes, u, kBlocks, 1, 1, 0);
      asc_copy_ub2ub(u + 3 * kBytes, u + 2 * kBytes, kBytes);  // the size form
      asc_sync_pipe(PIPE_ALL);
      // L1: the first half block by block (no gaps), the rest with the size form.
      asc_copy_ub2l1(l1 + sub * kBytes, u + 3 * kBytes, kBlocks / 2, 1, 0, 0);
      asc_copy_ub2l1(l1 + sub * kBytes + kBytes / 2, u + 3 * kBytes + kBytes / 2, kBytes / 2);
      asc_sync_block_arrive(PIPE_MTE3, 5);
      return;
    }
    asc_sync_block_wait(PIPE_S, 5);
    for (uint32_t i = 0; i < 2 * kBytes; ++i) seen[i] = l1[i];
  };
  const lngrad::Status s = lngrad::aicore::detail::RunBlocks("c_api_ub", 1, kernel, o, &failures);
  ASSERT_TRUE(s.ok()) << (failures.empty() ? "" : failures[0].message);
  for (uint32_t sub = 0; sub < 2; ++sub) {
    for (uint32_t i = 0; i < kBytes; ++i) EXPECT_EQ(seen[sub * kBytes + i], Byte(sub, i)) << i;
  }
}

}  // namespace
