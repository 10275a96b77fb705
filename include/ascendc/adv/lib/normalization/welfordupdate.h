// lngrad: AscendC::WelfordUpdate (the toolkit declares it in adv_api/normalization/layernorm.h,
// its config and parameter structs in layernorm_utils.h): one step of Welford's online mean and
// variance over [rnLength = 1, abLength], both prototypes:
//
//   WelfordUpdate<T, U, isReuseSource, config>(outMean, outVar, inMean, inVar, inputX,
//                                              sharedTmpBuffer, para);
//   WelfordUpdate<T, U, isReuseSource, config>(outMean, outVar, inMean, inVar, inputX, para);
//
// T = half or float (inputX), U = float. For i < abComputeLength, in float (half x widened):
//   d = x - inMean; outMean = d * nRec + inMean; outVar = d * (x - outMean) + inVar
// (float + isReuseSource: x - inMean is written over inputX, as the device does). With
// config.isInplace and abComputeLength < abLength, the last ceil8(abLength - abComputeLength)
// elements of inMean / inVar are first copied to outMean / outVar (the computed ones win).
// The same steps on every product (layernorm_common_impl.h; welford_3510_impl.h). On 2201/2002
// the scratch holds what the kit's rounds leave in their float temps (LeaveWelfordScratch).
//
// Always raised: rnLength != 1, abComputeLength not in (0, abLength], abLength beyond inputX or
// not a multiple of 32 bytes of T, operands shorter than abLength, and on arch 2201/2002 a
// sharedTmpBuffer below 256 * k bytes (k = 3 for half, 1 for float + isReuseSource, else 2).
#pragma once

#include <algorithm>
#include <array>
#include <cstring>
#include <type_traits>
#include <vector>

#include "lib/math/math_common.h"
#include "lib/math/math_scratch.h"
#include "lib/normalization/norm_ext_common.h"

namespace lngrad::adv::ext {

// What layernorm_common_impl.h's WelfordUpdateComputeImpl leaves in sharedTmpBuffer on
// 2201/2002: rounds of 64 tmpNum elements (tmpNum = bytes / (256 K); K = 3 for half, 1 for float
// with isReuseSource, else 2) and the tail, each element keeping in the float temps: half
// srcVreg (float x) at 0, tmpVreg ((x - inMean)(x - outMean)) at 64 tmpNum, outVreg (x -
// outMean) at 128 tmpNum; float tmpVreg at 0 and outVreg at 64 tmpNum; float + isReuseSource
// tmpVreg alone. sx / sp / se: those values per element (sx for half, se unless K = 1).
template <typename T>
void LeaveWelfordScratch(lngrad::aicore::SrcLoc loc, const AscendC::LocalTensor<uint8_t>& tmp,
                         uint64_t n, const std::vector<float>& sx, const std::vector<float>& sp,
                         const std::vector<float>& se) {
  namespace m = lngrad::aicore::math_detail;
  const uint64_t bytes = tmp.View().size_bytes;
  if constexpr (sizeof(T) == 2) {
    const uint64_t c = m::ChunkOf(bytes, 3, 64);
    m::LeaveChunkScratch<3>("WelfordUpdate", loc, tmp, n, c, {0, c, 2 * c}, [&](uint64_t i) {
      return std::array<float, 3>{sx[i], sp[i], se[i]};
    });
  } else if (se.empty()) {
    m::LeaveChunkScratch<1>("WelfordUpdate", loc, tmp, n, m::ChunkOf(bytes, 1, 64), {0},
                            [&](uint64_t i) { return std::array<float, 1>{sp[i]}; });
  } else {
    const uint64_t c = m::ChunkOf(bytes, 2, 64);
    m::LeaveChunkScratch<2>("WelfordUpdate", loc, tmp, n, c, {0, c}, [&](uint64_t i) {
      return std::array<float, 2>{sp[i], se[i]};
    });
  }
}

}  // namespace lngrad::adv::ext

namespace AscendC {

struct WelfordUpdateConfig {
  __aicore__ constexpr WelfordUpdateConfig(const bool isInplaceIn) : isInplace(isInplaceIn) {}
  bool isInplace = false;
};
constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};

struct WelfordUpdateParam {
  uint32_t rnLength;
  uint32_t abLength;
  uint32_t abComputeLength;
  float nRec;
};

template <typename T, typename U, bool isReuseSource = false,
          const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
__aicore__ inline void WelfordUpdate(
    const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
    const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
    const LocalTensor<T>& inputX, const LocalTensor<uint8_t>& sharedTmpBuffer,
    const WelfordUpdateParam& para,
    lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>,
                "Failed to check dtype of inputX, inputX support dtype is: half/float.");
  static_assert(std::is_same_v<U, float>,
                "Failed to check dtype of mean/var, mean/var support dtype is: float.");
  namespace ne = lngrad::adv::ext;
  namespace nd = lngrad::adv::detail;
  constexpr const char* kApi = "WelfordUpdate";
  if ASCEND_IS_AIC {
    return;
  }
  ne::RequireProduct(kApi);
  if (lngrad::aicore::CheckedMode()) {
    nd::CheckTensors(kApi, "outputMean", outputMean, "outputVariance", outputVariance, "inputMean",
                     inputMean, "inputVariance", inputVariance, "inputX", inputX);
  }
  const uint32_t ab = para.abLength;
  const uint32_t n = para.abComputeLength;
  ne::Require(para.rnLength == 1, kApi, "para", "para.rnLength must be 1");
  ne::Require(n > 0 && n <= ab, kApi, "para", "para.abComputeLength must be in (0, abLength]");
  ne::Require(ab % (32 / sizeof(T)) == 0, kApi, "para", "para.abLength must be 32B aligned");
  ne::CheckHolds(kApi, "inputX", inputX, ab);
  ne::CheckHolds(kApi, "inputMean", inputMean, ab);
  ne::CheckHolds(kApi, "inputVariance", inputVariance, ab);
  ne::CheckHolds(kApi, "outputMean", outputMean, ab);
  ne::CheckHolds(kApi, "outputVariance", outputVariance, ab);
  const bool reg = ne::RegBase();
  constexpr uint64_t kBufs = sizeof(T) == 2 ? 3 : (isReuseSource ? 1 : 2);
  if (!reg) ne::CheckScratch(kApi, sharedTmpBuffer, kBufs * 256, "one repeat per buffer");
  const bool inplace = config.isInplace && n < ab;
  const uint64_t copyLen = inplace ? std::min<uint64_t>(ab, (ab - n + 7) / 8 * 8) : 0;
  const uint64_t copyAt = ab - copyLen;
  const bool reuse = isReuseSource && std::is_same_v<T, float> && !reg;
  ne::Record(kApi, loc,
             {{inputX.HostPtr(), n * sizeof(T), false},
              {inputMean.HostPtr(), uint64_t{ab} * 4, false},
              {inputVariance.HostPtr(), uint64_t{ab} * 4, false},
              {inputX.HostPtr(), reuse ? n * sizeof(T) : 0, true},
              {outputMean.HostPtr() + copyAt, copyLen * 4, true},
              {outputVariance.HostPtr() + copyAt, copyLen * 4, true},
              {outputMean.HostPtr(), uint64_t{n} * 4, true},
              {outputVariance.HostPtr(), uint64_t{n} * 4, true}});
  // 2201/2002: what each element leaves in the rounds' temps (LeaveWelfordScratch).
  const bool keep = !reg && sharedTmpBuffer.HostPtr() != nullptr;
  std::vector<float> sx(keep && sizeof(T) == 2 ? n : 0), sp(keep ? n : 0),
      se(keep && !reuse ? n : 0);
  float* om = outputMean.HostPtr();
  float* ov = outputVariance.HostPtr();
  const float* im = inputMean.HostPtr();
  const float* iv = inputVariance.HostPtr();
  if (inplace) {
    std::memmove(om + copyAt, im + copyAt, copyLen * 4);
    std::memmove(ov + copyAt, iv + copyAt, copyLen * 4);
  }
  const ne::Ops& ops = ne::StepOps();
  auto* x = ne::Ptr(inputX);
  float xf[ne::kLanes], d[ne::kLanes], e[ne::kLanes];
  for (uint32_t j = 0; j < n; j += ne::kLanes) {
    const uint32_t m = std::min(ne::kLanes, n - j);
    ne::ToFloat(xf, x + j, m);
    ops.Sub(d, xf, im + j, m);
    ops.Muls(e, d, para.nRec, m);
    ops.Add(om + j, e, im + j, m);
    ops.Sub(e, xf, om + j, m);
    if (reuse) std::memcpy(reinterpret_cast<float*>(x) + j, d, m * 4);
    ops.Mul(d, d, e, m);
    ops.Add(ov + j, d, iv + j, m);
    if (!keep) continue;
    std::copy(d, d + m, sp.begin() + j);
    if (!se.empty()) std::copy(e, e + m, se.begin() + j);
    if (!sx.empty()) std::copy(xf, xf + m, sx.begin() + j);
  }
  if (keep) lngrad::adv::ext::LeaveWelfordScratch<T>(loc, sharedTmpBuffer, n, sx, sp, se);
}

template <typename T, typename U, bool isReuseSource = false,
          const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
__aicore__ inline void WelfordUpdate(
    const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
    const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
    const LocalTensor<T>& inputX, const WelfordUpdateParam& para,
    lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  if ASCEND_IS_AIC {
    return;
  }
  const LocalTensor<uint8_t> stack =
      lngrad::adv::detail::PopStackBufferUnlessRegBase("WelfordUpdate");
  WelfordUpdate<T, U, isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance,
                                             inputX, stack, para, loc);
}

}  // namespace AscendC
