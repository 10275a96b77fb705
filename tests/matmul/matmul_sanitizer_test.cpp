// The Matmul under the pipeline sanitizer (racecheck): the cube's memories are each block's own
// (never GM to the cross-block sweep), the split-K partial sums added with enAtomic do not race
// with one another, and a plain GM write by one block (the kit's matmul_splitk clears C with
// Fill in every block) against another block's atomic add is a cross-block hazard.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tiling/tiling_api.h"

namespace {

using AscendC::TPosition;
namespace mt = matmul_tiling;
using Half = AscendC::MatmulType<TPosition::GM, CubeFormat::ND, half>;
using Float = AscendC::MatmulType<TPosition::GM, CubeFormat::ND, float>;

constexpr uint32_t kM = 16, kN = 16, kK = 1024, kCores = 8;  // the vendor splits K in 2

TCubeTiling SplitKTiling() {
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
  mt::MultiCoreMatmulTiling api(*platform);
  api.SetDim(kCores);
  api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
  api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
  api.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
  api.SetBiasType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
  api.SetOrgShape(kM, kN, kK);
  api.SetShape(kM, kN, kK);
  api.EnableBias(false);
  api.EnableMultiCoreSplitK(true);
  TCubeTiling t;
  EXPECT_EQ(api.GetTiling(t), 0);
  EXPECT_GT(t.usedCoreNum, 1);
  return t;
}

// Each block adds its K piece of a 16 x 16 x 1024 product to C; with fill, it first clears C.
std::string RunSplitK(bool fill) {
  const TCubeTiling t = SplitKTiling();
  std::vector<half> a(kM * kK, half(0.5f)), b(kK * kN, half(0.25f));
  std::vector<float> c(kM * kN, 0.0f);
  auto kernel = [&] {
    AscendC::Matmul<Half, Half, Float, Float> mm;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    const auto k0 = static_cast<uint32_t>(AscendC::GetBlockIdx()) * t.singleCoreK;
    AscendC::GlobalTensor<half> ga, gb;
    AscendC::GlobalTensor<float> gc;
    ga.SetGlobalBuffer(a.data() + k0, a.size() - k0);
    gb.SetGlobalBuffer(b.data() + size_t{k0} * kN, b.size() - size_t{k0} * kN);
    gc.SetGlobalBuffer(c.data(), c.size());
    if (fill) AscendC::Fill(gc, kM * kN, 0.0f);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.IterateAll(gc, 1);
    mm.End();
  };
  lngrad::aicore::LaunchOptions o;
  o.soc = "Ascend910B1";
  o.sanitize = lngrad::aicore::san::kRacecheck;
  std::vector<lngrad::aicore::BlockFailure> failures;
  const lngrad::Status s = lngrad::aicore::detail::RunBlocks(
      "matmul_splitk", static_cast<uint32_t>(t.usedCoreNum), kernel, o, &failures);
  std::string text = s.ok() ? "" : "failed: ";
  for (const auto& f : failures) text += "[" + f.check + "] " + f.message + "\n";
  // Without the clearing race every piece lands: kK products of 1/8.
  if (!fill && s.ok()) {
    for (float v : c) EXPECT_EQ(v, kK / 8.0f);
  }
  return text;
}

TEST(MatmulSanitizer, SplitKAtomicAddsAndCubeMemoriesAreNoRace) { EXPECT_EQ(RunSplitK(false), ""); }

TEST(MatmulSanitizer, FillInEveryBlockRacesWithTheAtomicAdds) {
  const std::string r = RunSplitK(true);
  EXPECT_NE(r.find("cross-block hazard on GM"), std::string::npos) << r;
  EXPECT_NE(r.find("FIX Matmul::GetTensorC"), std::string::npos) << r;
  EXPECT_NE(r.find("MTE3 Fill"), std::string::npos) << r;
}

// GetTensorC into a local tensor writes it for initcheck too: a vector instruction reading the
// block of C afterwards finds every byte written (the kit's matmul_fused reads C from VECIN).
TEST(MatmulSanitizer, GetTensorCIntoALocalTensorIsAWrite) {
  const TCubeTiling t = SplitKTiling();
  std::vector<half> a(kM * kK, half(0.5f)), b(kK * kN, half(0.25f));
  std::vector<float> out(kM * kN, -1.0f);
  auto kernel = [&] {
    AscendC::Matmul<Half, Half, Float, Float> mm;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    AscendC::TQue<TPosition::VECIN, 1> in;
    pipe.InitBuffer(in, 1, kM * kN * sizeof(float));
    AscendC::GlobalTensor<half> ga, gb;
    AscendC::GlobalTensor<float> gout;
    ga.SetGlobalBuffer(a.data(), a.size());
    gb.SetGlobalBuffer(b.data(), b.size());
    gout.SetGlobalBuffer(out.data(), out.size());
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.SetTail(kM, kN, kK);
    mm.Iterate();
    AscendC::LocalTensor<float> c = in.AllocTensor<float>();
    mm.GetTensorC(c);
    in.EnQue(c);
    c = in.DeQue<float>();
    AscendC::Muls(c, c, 2.0f, kM * kN);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(gout, c, kM * kN);
    in.FreeTensor(c);
    mm.End();
  };
  lngrad::aicore::LaunchOptions o;
  o.soc = "Ascend910B1";
  o.sanitize = lngrad::aicore::san::kInitcheck | lngrad::aicore::san::kRacecheck;
  std::vector<lngrad::aicore::BlockFailure> failures;
  const lngrad::Status s =
      lngrad::aicore::detail::RunBlocks("matmul_local", 1, kernel, o, &failures);
  std::string text;
  for (const auto& f : failures) text += "[" + f.check + "] " + f.message + "\n";
  EXPECT_TRUE(s.ok()) << text;
  for (float v : out) EXPECT_EQ(v, 2.0f * kK * 0.125f);
}

}  // namespace
