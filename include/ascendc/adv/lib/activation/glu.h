// lngrad: the Ascend C high-level gated activations GeGLU, ReGlu and SwiGLU (the vendor's
// adv_api/activation/{geglu,reglu,swiglu}.h), on every product (Atlas A2/A3, Ascend 950);
// dst = src0 * act(src1).
//
// Each is the vendor's instruction sequence, replayed per element (eltwise_detail::Ar). All three
// compute in float: half (and ReGlu's bfloat16_t) sources are cast in exactly and the result is
// rounded once to T (RNE; ReGlu's CAST_RINT for bfloat16_t is the same rounding).
//  - GeGLU (geglu_common_impl.h, geglu_3510_impl.h): t = ((x1 * x1 + A) * x1) * B; dst = x0 *
//    (x1 / (e^t + 1)), with A = 22.363860002236, B = -0.0713548162726 on 2201 and the 950's
//    constants A = 22.36386, B = -0.071354814 on 3510 (each rounded to float).
//  - ReGlu (reglu_common_impl.h, reglu_3510_impl.h): dst = x0 * max(x1, 0); on 2201 the vector
//    Maxs (NaN -> 0), on 3510 the register Maxs (a NaN stays NaN, a -0 stays -0:
//    math_common.h's RegMaxOf).
//  - SwiGLU (swiglu_common_impl.h, swiglu_3510_impl.h): dst = x0 * (x1 / (e^(x1 * -beta) + 1)),
//    -beta computed in float.
//
// Checked mode: the count within every operand, GeGLU's and SwiGLU's sources of one size,
// 32-byte aligned operands, dst disjoint from both sources, and on 2201 a sharedTmpBuffer of at
// least the GetXxxMaxMinTmpSize minimum (GeGLU: 0 float / 1024 half; ReGlu: 256 float / 1536 half
// and bfloat16; SwiGLU: 0 float / 1536 half), disjoint from the operands. On 2201/2002 the half
// (ReGlu: and bfloat16) scratch is left as the kit's loop leaves its float buffers (GluScratch);
// float computes in dst and leaves the scratch untouched.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>

#include "lib/activation/eltwise_common.h"

namespace lngrad::aicore::eltwise_detail {

inline float GeGluSteps(float x0, float x1, bool arch3510) {
  using A = Ar<float>;
  const float ka = arch3510 ? 22.36386f : 22.363860002236f;
  const float kb = arch3510 ? -0.071354814f : -0.0713548162726f;
  const float t = A::Muls(A::Mul(A::Adds(A::Mul(x1, x1), ka), x1), kb);
  return A::Mul(x0, A::Div(x1, A::Adds(A::Exp(t), 1.0f)));
}

inline float ReGluSteps(float x0, float x1, bool arch3510) {
  const float m = arch3510 ? math_detail::RegMaxOf(x1, 0.0f) : Ar<float>::Maxs(x1, 0.0f);
  return Ar<float>::Mul(x0, m);
}

inline float SwiGluSteps(float x0, float x1, float beta) {
  return Ar<float>::Mul(x0, SwishSteps(x1, -1.0f * beta));
}

// dst = T(f(float(src0), float(src1))) with the checks of the gated APIs; factor: the tmp
// minimum in 256-byte units (0: none). equal_sizes: the two sources must hold as many elements
// (GeGLU and SwiGLU assert it on both arches, geglu_common_impl.h, swiglu_common_impl.h and their
// 3510 files; ReGlu does not).
template <typename T, typename F>
void GluPass(const char* api, const AscendC::LocalTensor<T>& dst,
             const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>& src1,
             const AscendC::LocalTensor<uint8_t>& tmp, uint32_t factor, uint32_t n, SrcLoc loc, F f,
             bool equal_sizes = true) {
  namespace m = math_detail;
  if (equal_sizes && CheckedMode() && src0.GetSize() != src1.GetSize()) {
    RaiseKernelCheck(checks::kTensorBounds,
                     lngrad::aicore::detail::WithLoc(api, loc) + ": srcTensor0 holds " +
                         std::to_string(src0.GetSize()) + " elements and srcTensor1 " +
                         std::to_string(src1.GetSize()) +
                         "; the two sources must be the same size");
  }
  m::BinaryPass<m::PassScratch::kModelled>(
      api, m::Products::kAll, m::Overlap::kNone, dst, src0, src1, &tmp, m::TmpMinBytes(factor), n,
      loc, [&f](T a, T b) { return T(f(static_cast<float>(a), static_cast<float>(b))); });
}

// The float temp buffers of the half (ReGlu: and bfloat16) sequences on 2201/2002, as the loop
// leaves them (ChunkScratch): element i's values f(x0, x1) in slots at off(len); read from the
// sources after the pass (dst is disjoint from them).
template <size_t K, typename T, typename Off, typename F>
void GluScratch(const char* api, SrcLoc loc, const AscendC::LocalTensor<uint8_t>& tmp,
                const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>& src1,
                uint64_t n, uint64_t chunk, Off off, F f) {
  const T* x0 = src0.HostPtr();
  const T* x1 = src1.HostPtr();
  MakeChunkScratch<float, K>(tmp, n, chunk, off).Write(api, loc, [&](uint64_t i) {
    return f(static_cast<float>(x0[i]), static_cast<float>(x1[i]));
  });
}

// x rounded up to a multiple of 16 (32 bytes of half).
inline uint64_t Up16(uint64_t x) { return (x + 15) / 16 * 16; }

}  // namespace lngrad::aicore::eltwise_detail

namespace AscendC {

template <typename T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
           const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer,
           uint32_t calCount, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace a = lngrad::aicore::eltwise_detail;
  static_assert(a::kHalfOrFloat<T>, "GeGLU: T must be half or float");
  const bool arch3510 = a::On3510();
  a::GluPass("GeGLU", dstTensor, srcTensor0, srcTensor1, sharedTmpBuffer, sizeof(T) == 4 ? 0 : 4,
             calCount, loc,
             [arch3510](float x0, float x1) { return a::GeGluSteps(x0, x1, arch3510); });
  // Half on 2201/2002: chunks of bytes / 8 rounded down to 16; src0 in float at 0, the product
  // at the chunk's count rounded up to 16 (geglu_common_impl.h). Float computes in dst.
  if (sizeof(T) == 4 || arch3510) return;
  const uint64_t chunk = sharedTmpBuffer.View().size_bytes / 8 / 16 * 16;
  a::GluScratch<2>(
      "GeGLU", loc, sharedTmpBuffer, srcTensor0, srcTensor1, calCount, chunk,
      [](uint64_t len) {
        return std::array<uint64_t, 2>{0, a::Up16(len)};
      },
      [](float x0, float x1) {
        return std::array<float, 2>{x0, a::GeGluSteps(x0, x1, false)};
      });
}

template <typename T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
           const LocalTensor<T>& srcTensor1, uint32_t calCount,
           lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  GeGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1,
                          lngrad::aicore::eltwise_detail::FrameworkTmp(), calCount, loc);
}

template <typename T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
           const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer,
           lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  GeGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, sharedTmpBuffer, srcTensor0.GetSize(),
                          loc);
}

template <typename T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
           const LocalTensor<T>& srcTensor1,
           lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  GeGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, srcTensor0.GetSize(), loc);
}

template <typename T, bool isReuseSource = false>
void ReGlu(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
           const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer,
           const uint32_t calCount,
           lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace a = lngrad::aicore::eltwise_detail;
  static_assert(a::kHalfOrFloat<T> || std::is_same_v<T, bfloat16_t>,
                "ReGlu: T must be half, bfloat16_t or float");
  if constexpr (std::is_same_v<T, bfloat16_t>) a::CheckBf16Product("ReGlu");
  a::GluPass(
      "ReGlu", dstTensor, srcTensor0, srcTensor1, sharedTmpBuffer, sizeof(T) == 4 ? 1 : 6, calCount,
      loc, [arch3510 = a::On3510()](float x0, float x1) { return a::ReGluSteps(x0, x1, arch3510); },
      /*equal_sizes=*/false);
  // Half and bfloat16 on 2201/2002: chunks of (bytes / 4) / 3 rounded down to 32; x0, x1 and
  // the product in float at 0, stackSize, 2 stackSize (reglu_common_impl.h). Float: in dst.
  if (sizeof(T) == 4 || a::On3510()) return;
  const uint64_t stack = sharedTmpBuffer.View().size_bytes / 4 / 3 / 32 * 32;
  a::GluScratch<3>(
      "ReGlu", loc, sharedTmpBuffer, srcTensor0, srcTensor1, calCount, stack,
      [stack](uint64_t) {
        return std::array<uint64_t, 3>{0, stack, 2 * stack};
      },
      [](float x0, float x1) {
        return std::array<float, 3>{x0, x1, a::ReGluSteps(x0, x1, false)};
      });
}

template <typename T, bool isReuseSource = false>
void ReGlu(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
           const LocalTensor<T>& srcTensor1, const uint32_t calCount,
           lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  ReGlu<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1,
                          lngrad::aicore::eltwise_detail::FrameworkTmp(), calCount, loc);
}

template <typename T, bool isReuseSource = false>
void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
            const LocalTensor<T>& srcTensor1, const float& scalarValue,
            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace a = lngrad::aicore::eltwise_detail;
  static_assert(a::kHalfOrFloat<T>, "SwiGLU: T must be half or float");
  const float beta = scalarValue;
  a::GluPass("SwiGLU", dstTensor, srcTensor0, srcTensor1, sharedTmpBuffer, sizeof(T) == 4 ? 0 : 6,
             calCount, loc, [beta](float x0, float x1) { return a::SwiGluSteps(x0, x1, beta); });
  // Half on 2201/2002: chunks of (bytes / 4) / 3 rounded down to 16 (16 when that is 0); x1,
  // the product and x0 in float at 0, c and 2c, c the chunk's count rounded up to 16
  // (swiglu_common_impl.h). Float computes in dst.
  if (sizeof(T) == 4 || a::On3510()) return;
  const uint64_t stack =
      std::max<uint64_t>(sharedTmpBuffer.View().size_bytes / 4 / 3 / 16 * 16, 16);
  a::GluScratch<3>(
      "SwiGLU", loc, sharedTmpBuffer, srcTensor0, srcTensor1, calCount, stack,
      [](uint64_t len) {
        return std::array<uint64_t, 3>{0, a::Up16(len), 2 * a::Up16(len)};
      },
      [beta](float x0, float x1) {
        return std::array<float, 3>{x1, a::SwiGluSteps(x0, x1, beta), x0};
      });
}

template <typename T, bool isReuseSource = false>
void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
            const LocalTensor<T>& srcTensor1, const float& scalarValue, const uint32_t calCount,
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue,
                           lngrad::aicore::eltwise_detail::FrameworkTmp(), calCount, loc);
}

template <typename T, bool isReuseSource = false>
void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
            const LocalTensor<T>& srcTensor1, const float& scalarValue,
            const LocalTensor<uint8_t>& sharedTmpBuffer,
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue, sharedTmpBuffer,
                           srcTensor0.GetSize(), loc);
}

template <typename T, bool isReuseSource = false>
void SwiGLU(LocalTensor<T>& dstTensor, LocalTensor<T>& srcTensor0, LocalTensor<T>& srcTensor1,
            const float& scalarValue,
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue,
                           lngrad::aicore::eltwise_detail::FrameworkTmp(), srcTensor0.GetSize(),
                           loc);
}

}  // namespace AscendC
