// Tests of layer reg: a whole-register load's sanitizer record, lane by lane
// (lngrad_reg/lane_init.h). A kernel's tile that ends inside a register: the load reads bytes
// past the tile, which nothing wrote or another pipe writes meanwhile, and only a use of a lane
// holding them is a finding. The kernels run with every tool on.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "capi_test_util.h"
#include "lngrad_aicore/sanitizer.h"

namespace {

using lngrad::reg::testing::Ub;

constexpr uint32_t kTile = 20;  // floats the kernel writes (80 bytes of a 256-byte register)

// Writes floats [0, kTile) of UB byte 0 with a register store, loads the register at byte 0.
__simd_vf__ void WriteTileLoad(vector_float& x) {
  vector_float ones;
  asc_duplicate_scalar(ones, 1.0f, asc_create_mask_b32(PAT_ALL));
  uint32_t n = kTile;
  asc_storealign(Ub<float>(0), ones, asc_update_mask_b32(n));
  asc_loadalign(x, Ub<float>(0));
}
constexpr int kLoadLine = __LINE__ - 2;  // the asc_loadalign above

// x + x under the first `lanes` lanes, stored under them at UB byte 4096.
template <uint32_t lanes>
__simd_vf__ void AddLanes() {
  vector_float x, y;
  WriteTileLoad(x);
  uint32_t n = lanes;
  const vector_bool m = asc_update_mask_b32(n);
  asc_add(y, x, x, m);
  asc_storealign(Ub<float>(4096), y, m);
}

// The loaded register overwritten whole before its use.
__simd_vf__ void OverwriteThenUse() {
  vector_float x, y;
  WriteTileLoad(x);
  asc_duplicate_scalar(x, 2.0f, asc_create_mask_b32(PAT_ALL));
  asc_add(y, x, x, asc_create_mask_b32(PAT_ALL));
  asc_storealign(Ub<float>(4096), y, asc_create_mask_b32(PAT_ALL));
}

// A zeroing operation under the tile's mask writes every lane of its destination (the others
// become 0), so the whole result is defined.
__simd_vf__ void ZeroingOpThenUse() {
  vector_float x, y;
  WriteTileLoad(x);
  uint32_t n = kTile;
  asc_mul_scalar(x, x, 3.0f, asc_update_mask_b32(n));
  asc_add(y, x, x, asc_create_mask_b32(PAT_ALL));
  asc_storealign(Ub<float>(4096), y, asc_create_mask_b32(PAT_ALL));
}

// The loaded register assigned whole from a defined one holding the same bytes as the load
// brought in (UB nothing wrote reads as 0 here): the assignment is a write.
__simd_vf__ void AssignThenUse() {
  vector_float x, zeros, y;
  WriteTileLoad(x);
  asc_duplicate_scalar(zeros, 0.0f, asc_create_mask_b32(PAT_ALL));
  x = zeros;
  asc_add(y, x, x, asc_create_mask_b32(PAT_ALL));
  asc_storealign(Ub<float>(4096), y, asc_create_mask_b32(PAT_ALL));
}

// The loaded register stored whole, no operation in between.
__simd_vf__ void StoreWhole() {
  vector_float x;
  WriteTileLoad(x);
  asc_storealign(Ub<float>(4096), x, asc_create_mask_b32(PAT_ALL));
}

std::vector<lngrad::aicore::BlockFailure> RunSanitized(void (*body)()) {
  lngrad::aicore::LaunchOptions o;
  o.soc = "Ascend950PR_9599";
  o.sanitize = lngrad::aicore::san::kAllTools;
  std::vector<lngrad::aicore::BlockFailure> failures;
  testing::internal::CaptureStderr();
  (void)lngrad::aicore::RunBlocks("reg_test", 1, body, o, &failures);
  (void)testing::internal::GetCapturedStderr();
  return failures;
}

std::string Messages(const std::vector<lngrad::aicore::BlockFailure>& failures) {
  std::string all;
  for (const auto& f : failures) all += f.message + "\n";
  return all;
}

TEST(RegLaneInit, LanesOfTheTileAreClean) {
  const auto failures = RunSanitized([] { asc_vf_call<AddLanes<kTile>>(); });
  EXPECT_TRUE(failures.empty()) << Messages(failures);
}

TEST(RegLaneInit, ALanePastTheTileIsReportedAsTheLoadsRead) {
  const auto failures = RunSanitized([] { asc_vf_call<AddLanes<kTile + 1>>(); });
  ASSERT_EQ(failures.size(), 1u) << Messages(failures);
  const std::string& m = failures[0].message;
  // Lane kTile only: bytes [80, 84) of the register, UB [80, 84), read by the load's line.
  EXPECT_NE(m.find("[initcheck] read of uninitialised UB: V asc_loadalign at"), std::string::npos)
      << m;
  EXPECT_NE(m.find("lane_init_test.cpp:" + std::to_string(kLoadLine)), std::string::npos) << m;
  EXPECT_NE(m.find("reads UB bytes [80, 84)"), std::string::npos) << m;
}

TEST(RegLaneInit, AnOverwrittenRegisterIsClean) {
  const auto failures = RunSanitized([] { asc_vf_call<OverwriteThenUse>(); });
  EXPECT_TRUE(failures.empty()) << Messages(failures);
}

TEST(RegLaneInit, AZeroingOperationDefinesEveryLane) {
  const auto failures = RunSanitized([] { asc_vf_call<ZeroingOpThenUse>(); });
  EXPECT_TRUE(failures.empty()) << Messages(failures);
}

TEST(RegLaneInit, AnAssignedRegisterIsClean) {
  const auto failures = RunSanitized([] { asc_vf_call<AssignThenUse>(); });
  EXPECT_TRUE(failures.empty()) << Messages(failures);
}

TEST(RegLaneInit, AStoreOfTheUnwrittenLanesIsReported) {
  const auto failures = RunSanitized([] { asc_vf_call<StoreWhole>(); });
  ASSERT_EQ(failures.size(), 1u) << Messages(failures);
  const std::string& m = failures[0].message;
  EXPECT_NE(m.find("V asc_loadalign at"), std::string::npos) << m;
  EXPECT_NE(m.find("reads UB bytes [80, 256)"), std::string::npos) << m;
}

// MTE2 brings 512 bytes into UB; a vector function loads the first register and uses `lanes`
// lanes of it; MTE2 then writes bytes [128, 256) again with nothing ordering it after the load.
template <uint32_t lanes>
__simd_vf__ void UseLanesOfCopy() {
  vector_float x, y;
  asc_loadalign(x, Ub<float>(0));
  uint32_t n = lanes;
  const vector_bool m = asc_update_mask_b32(n);
  asc_add(y, x, x, m);
  asc_storealign(Ub<float>(4096), y, m);
}
template <uint32_t lanes>
void CopyUseOverwrite() {
  static std::vector<float> gm(128, 1.0f);
  asc_copy_gm2ub_align(Ub<float>(0), gm.data(), 512);
  asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
  asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
  asc_vf_call<UseLanesOfCopy<lanes>>();
  asc_copy_gm2ub_align(Ub<float>(128), gm.data(), 128);
  asc_sync();
}

TEST(RegLaneInit, AnotherPipesWriteOfUnusedLanesIsNoRace) {
  const auto failures = RunSanitized(CopyUseOverwrite<32>);
  EXPECT_TRUE(failures.empty()) << Messages(failures);
}

TEST(RegLaneInit, AnotherPipesWriteOfAUsedLaneIsARace) {
  const auto failures = RunSanitized(CopyUseOverwrite<33>);
  ASSERT_EQ(failures.size(), 1u) << Messages(failures);
  const std::string& m = failures[0].message;
  EXPECT_NE(m.find("[racecheck] write-after-read hazard on UB bytes [128, 132)"), std::string::npos)
      << m;
}

}  // namespace
