// The 950's cube paths (built with __NPU_ARCH__ 3510). DataCopy GM -> L1 with Dn2NzParams against
// the reference's reading (its page's second example: column n of each DN matrix becomes row n
// of the NZ result, dValue cut into C0 chunks, padded with zeros). Fixpipe L0C -> UB: the AIC of a
// __mix__(1, 2) kernel writes its AIVs' UBs with dualDstCtl 0 (subBlockId), 1 (rows in halves) and
// 2 (columns in halves); each AIV waits for the AIC's flag and copies its UB to GM. The expected
// layout is the reference's reading (the Fixpipe L0C -> UB page: the M x N matrix split in two
// halves, the first to sub-block 0), written here separately from the implementation; the values
// are exact. The AIVs may declare their UB as a `__ubuf__` array after the AIC wrote it: the
// declaration must keep the AIC's bytes, in checked and unchecked mode.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "lngrad_simt/runtime.h"

namespace {

using AscendC::TPosition;
constexpr uint32_t kM = 32, kN = 64;  // rows, columns (L0C NZ: srcStride kM)
constexpr AscendC::FixpipeConfig kRowMajorUb = {AscendC::CO2Layout::ROW_MAJOR, true};

float Value(uint32_t m, uint32_t n) {
  return static_cast<float>(m) * 0.5f - static_cast<float>(n) * 0.25f;
}

// Runs the kernel: out[sub] receives what the Fixpipe wrote into AIV sub's UB (from byte 0: the
// whole matrix for the destination of a single write, nothing for the other AIV; half of it for
// each AIV of a dual write), so no AIV reads UB bytes nothing wrote.
// declare_ub: each AIV reads its UB through a `__ubuf__ float[kM * kN]` array (what lngrad-asc
// makes of the declaration) declared after the AIC's flag, at UB byte 0 where the Fixpipe wrote.
std::string RunDual(uint8_t dual, bool sub_block, std::vector<float> out[2],
                    bool declare_ub = false) {
  for (int s = 0; s < 2; ++s) out[s].assign(kM * kN, -1.0f);
  float* gm[2] = {out[0].data(), out[1].data()};
  lngrad::aicore::LaunchOptions o;
  o.soc = "Ascend950PR_9599";
  o.split = lngrad::aicore::SplitOf(KERNEL_TYPE_MIX_AIC_1_2);
  std::vector<lngrad::aicore::BlockFailure> failures;
  const auto kernel = [&] {
    AscendC::LocalTensor<float> ub(TPosition::VECOUT, 0, kM * kN);
    if ASCEND_IS_AIC {
      AscendC::LocalTensor<float> c(TPosition::CO1, 0, kM * kN);
      float* p = static_cast<float*>(c.GetPhyAddr());
      for (uint32_t m = 0; m < kM; ++m) {
        for (uint32_t n = 0; n < kN; ++n) p[(n / 16) * kM * 16 + m * 16 + n % 16] = Value(m, n);
      }
      AscendC::FixpipeParamsArch3510<AscendC::CO2Layout::ROW_MAJOR> fp(kN, kM, kM, kN);
      fp.dualDstCtl = dual;
      fp.subBlockId = sub_block;
      if (dual == 2) fp.dstStride = kN / 2;
      AscendC::Fixpipe<float, float, kRowMajorUb>(ub, c, fp);
      AscendC::CrossCoreSetFlag<2, PIPE_FIX>(4);
      return;
    }
    AscendC::CrossCoreWaitFlag(4);
    // The block scope the ACL launcher gives each block of a <<<>>> launch.
    std::optional<lngrad::simt::BlockScope> scope;
    if (declare_ub) {
      scope.emplace(dim3(2), 0);
      auto& array =
          lngrad::simt::BlockArray<float[kM * kN]>(lngrad::simt::BlockKey([] {}), "ubBuf");
      if (&array[0] != static_cast<float*>(ub.GetPhyAddr())) return;  // the test then sees -1s
    }
    const auto sub = AscendC::GetSubBlockIdx();
    const uint32_t written = dual != 0 ? kM * kN / 2 : (sub == (sub_block ? 1 : 0) ? kM * kN : 0);
    if (written == 0) return;
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(gm[sub], kM * kN);
    AscendC::DataCopy(g, ub, written);
    AscendC::PipeBarrier<PIPE_ALL>();
  };
  const lngrad::Status s = lngrad::aicore::detail::RunBlocks("fixpipe_ub", 1, kernel, o, &failures);
  std::string text = s.ok() ? "" : "failed: ";
  for (const auto& f : failures) text += "[" + f.check + "] " + f.message + "\n";
  return text;
}

TEST(FixpipeUb, SingleDestinationGoesToSubBlockId) {
  std::vector<float> out[2];
  ASSERT_EQ(RunDual(0, true, out), "");
  for (uint32_t m = 0; m < kM; ++m) {
    for (uint32_t n = 0; n < kN; ++n) {
      ASSERT_EQ(out[1][m * kN + n], Value(m, n)) << m << "," << n;
      ASSERT_EQ(out[0][m * kN + n], -1.0f);  // AIV 0 received nothing and copied nothing
    }
  }
}

TEST(FixpipeUb, DualDestinationSplitsRows) {
  std::vector<float> out[2];
  ASSERT_EQ(RunDual(1, false, out), "");
  for (uint32_t s = 0; s < 2; ++s) {
    for (uint32_t m = 0; m < kM / 2; ++m) {
      for (uint32_t n = 0; n < kN; ++n) {
        ASSERT_EQ(out[s][m * kN + n], Value(s * kM / 2 + m, n)) << s << ":" << m << "," << n;
      }
    }
  }
}

TEST(FixpipeUb, DualDestinationSplitsColumns) {
  std::vector<float> out[2];
  ASSERT_EQ(RunDual(2, false, out), "");
  for (uint32_t s = 0; s < 2; ++s) {
    for (uint32_t m = 0; m < kM; ++m) {
      for (uint32_t n = 0; n < kN / 2; ++n) {
        ASSERT_EQ(out[s][m * kN / 2 + n], Value(m, s * kN / 2 + n)) << s << ":" << m << "," << n;
      }
    }
  }
}

TEST(FixpipeUb, AnAivDeclaringItsUbArrayKeepsWhatTheAicWrote) {
  const bool was_checked = lngrad::aicore::CheckedMode();
  for (const bool checked : {true, false}) {
    lngrad::aicore::SetCheckedMode(checked);
    std::vector<float> out[2];
    const std::string failed = RunDual(1, false, out, /*declare_ub=*/true);
    lngrad::aicore::SetCheckedMode(was_checked);
    ASSERT_EQ(failed, "") << "checked " << checked;
    for (uint32_t s = 0; s < 2; ++s) {
      for (uint32_t m = 0; m < kM / 2; ++m) {
        for (uint32_t n = 0; n < kN; ++n) {
          ASSERT_EQ(out[s][m * kN + n], Value(s * kM / 2 + m, n))
              << "checked " << checked << ", AIV " << s << ": " << m << "," << n;
        }
      }
    }
  }
}

TEST(FixpipeUb, RulesAreNamed) {
  std::vector<float> out[2];
  const std::string bad = RunDual(3, false, out);
  EXPECT_NE(bad.find("[cube.params]"), std::string::npos) << bad;
  EXPECT_NE(bad.find("dualDstCtl 3"), std::string::npos) << bad;
}

TEST(Dn2Nz, ColumnsBecomeNzRows) {
  constexpr uint32_t kD = 23, kNv = 8, kSrcD = 16, kSrcMat = 400, kC0Stride = 37, kNStride = 2,
                     kDstMat = 320, kC0 = 16;
  std::vector<half> src(kSrcMat * 2);
  for (uint32_t i = 0; i < src.size(); ++i) src[i] = half(static_cast<float>(i % 2000));
  std::vector<half> out(1200, half(-1.0f));
  lngrad::aicore::LaunchOptions o;
  o.soc = "Ascend950PR_9599";
  std::vector<lngrad::aicore::BlockFailure> failures;
  const lngrad::Status s = lngrad::aicore::detail::RunBlocks(
      "dn2nz", 1,
      [&] {
        AscendC::GlobalTensor<half> g;
        g.SetGlobalBuffer(src.data(), src.size());
        AscendC::LocalTensor<half> l1(TPosition::A1, 0, 1200);
        half* host = static_cast<half*>(l1.GetPhyAddr());
        for (uint32_t i = 0; i < 1200; ++i) host[i] = half(-1.0f);
        AscendC::DataCopy(
            l1, g, AscendC::Dn2NzParams(2, kNv, kD, kSrcMat, kSrcD, kC0Stride, kNStride, kDstMat));
        for (uint32_t i = 0; i < 1200; ++i) out[i] = host[i];
      },
      o, &failures);
  ASSERT_TRUE(s.ok()) << s.message();
  std::vector<float> want(1200, -1.0f);
  for (uint32_t m = 0; m < 2; ++m) {
    for (uint32_t n = 0; n < kNv; ++n) {
      for (uint32_t d = 0; d < 32; ++d) {  // two C0 chunks; d >= kD are the zero padding
        const uint32_t at =
            m * kDstMat + n * kNStride * kC0 + (d / kC0) * kC0Stride * kC0 + d % kC0;
        want[at] = d < kD ? static_cast<float>((m * kSrcMat + d * kSrcD + n) % 2000) : 0.0f;
      }
    }
  }
  for (uint32_t i = 0; i < 1200; ++i) ASSERT_EQ(static_cast<float>(out[i]), want[i]) << i;
}

}  // namespace
