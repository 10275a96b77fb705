// lngrad: the Ascend C high-level API CumSum (the vendor's adv_api/math/cumsum.h): prefix sums
// of an outter x inner matrix along the last axis (within each row) or the first axis (down
// each column), half and float.
//
// The sums are the device's on arch 2201 (cumsum_common_impl.h): line by line, each partial
// sum one float addition of the previous partial sum and the next element (half: widened to
// float, summed in float, rounded to half once at the end, CAST_NONE). Copies the device makes
// with Adds(x, 0) turn -0 into +0: the float results of both axes' first row/column (first
// axis: row 0 is src + 0; last axis: every result passes through + 0, half too), and
// lastRowTensor (the last row of dst + 0). Arch 3510 (regbase/3510/cumsum_3510_impl.h): the
// same sums in the same order (the last axis through transposes, half cast to float and back to
// nearest even without saturation), its copies plain loads and stores: no + 0, so a -0 stays -0
// (row 0, column 0, lastRowTensor). CUMSUM_ALGORITHM_SKLANSKY (950 only) sums in the
// Sklansky order: level by level, the upper half of each block of 2^(k+1) rows (first axis) or
// columns (last axis) adds the last partial sum of the lower half. The scratch holds what each
// arch's code leaves there (StoreCumSumScratch: the sums, widened or transposed by chunks).
//
// Checks: the operands hold outter * inner elements (lastRowTensor inner) always; checked mode:
// inner * sizeof(T) a multiple of 32, operands 32-byte aligned, dst and src identical or
// disjoint, sharedTmpBuffer at least GetCumSumMaxMinTmpSize's minimum on every arch (first
// axis: half outter * inner * 4 bytes, float none; last axis: float 16 * inner * 8, half
// 16 * inner * 2 + 16 * inner * 4) and disjoint from the operands.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "lib/math/math_steps.h"

namespace AscendC {

enum class CumSumAlgorithm { CUMSUM_ALGORITHM_LINEBYLINE = 0, CUMSUM_ALGORITHM_SKLANSKY = 1 };

struct CumSumConfig {
  bool isLastAxis{true};
  bool isReuseSource{false};
  bool outputLastRow{false};
  CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};

struct CumSumInfo {
  uint32_t outter{0};
  uint32_t inner{0};
};

constexpr CumSumConfig defaultCumSumConfig = {true, false, true};

}  // namespace AscendC

namespace lngrad::aicore::math_detail {

// Prefix sums of v[0], v[stride], ... (n values, float) in place, in the chosen order.
inline void PrefixSums(float* v, uint32_t n, uint64_t stride, bool sklansky) {
  if (!sklansky) {
    for (uint32_t i = 1; i < n; ++i) v[i * stride] = v[(i - 1) * stride] + v[i * stride];
    return;
  }
  for (uint32_t half_block = 1; half_block < n; half_block *= 2) {
    for (uint32_t i = 0; i < n; ++i) {
      if ((i & half_block) == 0) continue;
      const uint32_t last_lower = (i & ~(2 * half_block - 1)) + half_block - 1;
      v[i * stride] = v[last_lower * stride] + v[i * stride];
    }
  }
}

// The scratch minimum both archs' sources assert (2201's cumsum_common_impl.h, the 950's
// cumsum_3510_impl.h: the same formulas), GetCumSumMaxMinTmpSize's minimum.
inline uint64_t CumSumTmpMin(uint32_t type_size, bool last_axis, const AscendC::CumSumInfo& info) {
  const uint64_t inner = info.inner;
  if (!last_axis) return type_size == 2 ? uint64_t{info.outter} * inner * 4 : 0;
  const uint64_t cast = type_size == 2 ? inner * 16 * 2 : 0;
  return cast + 16 * inner * type_size * 2;
}

inline void CheckCumSumShape(const AscendC::CumSumInfo& info, uint32_t type_size) {
  if (!CheckedMode()) return;
  if (info.outter == 0 || info.inner == 0 || (uint64_t{info.inner} * type_size) % 32 != 0) {
    RaiseKernelCheck(checks::kInvalidCount,
                     "CumSum: cumSumInfo is {" + std::to_string(info.outter) + ", " +
                         std::to_string(info.inner) +
                         "}; both must be > 0 and inner * sizeof(T) a multiple of 32 bytes");
  }
}

// What CumSum leaves in sharedTmpBuffer (2201/2002: cumsum_common_impl.h; the 950:
// regbase/3510/cumsum_3510_impl.h; the same layout), from the float sums `v` (outter x inner,
// row-major) lngrad computes anyway. First axis: float none (it sums in dst); half the float
// sums at the scratch's start. Last axis: chunks of tmp bytes / minimum * 16 rows, then the
// rest; a chunk of m rows, a = m rounded up to 16, leaves its sums transposed, [inner][a]
// (column r past m, in the last group of 16 rows g.., repeats row g + (r - g) % (m - g), as
// the transposes' address lists do), as T at the start (half: rounded, with the float copy at
// byte 2 * a * inner), and transposed back, [a][inner] T at element a * inner (half: over the
// float copy; on the 950 only when m is not a multiple of 16, its transpose back going straight
// to dst otherwise). Every full chunk writes the same bytes, so the last full chunk and the
// tail give the result.
template <typename T>
void StoreCumSumScratch(const std::vector<float>& v, const AscendC::LocalTensor<uint8_t>& tmp,
                        const AscendC::CumSumInfo& info, bool last_axis, SrcLoc loc) {
  constexpr bool kHalf = sizeof(T) == 2;
  uint8_t* base = tmp.HostPtr();
  uint64_t written = 0;
  if (!last_axis) {
    if (!kHalf) return;
    written = v.size() * sizeof(float);
    if (written > tmp.View().size_bytes) {
      detail::OnTensorOverrun(tmp.View(), 0, v.size(), sizeof(float), "CumSum sharedTmpBuffer");
    }
    std::memcpy(base, v.data(), written);
  } else {
    // Chunks of 0 rows (a scratch under the minimum, unchecked): the kit divides by 0.
    const uint64_t inner = info.inner;
    const uint64_t chunk = tmp.GetSize() / CumSumTmpMin(sizeof(T), true, info) * 16;
    if (chunk == 0) return;
    const uint64_t full = info.outter / chunk, tail = info.outter % chunk;
    const auto one = [&](uint64_t row0, uint64_t m) {
      const uint64_t a = (m + 15) / 16 * 16;
      T* t = reinterpret_cast<T*>(base);
      float* f = reinterpret_cast<float*>(base + (kHalf ? 2 * a * inner : 0));
      T* back = t + a * inner;
      const bool back_written = !kHalf || m % 16 != 0 || !On3510();
      for (uint64_t r = 0; r < a; ++r) {
        const uint64_t g = r / 16 * 16, row = row0 + g + (r - g) % (m - g);
        for (uint64_t c = 0; c < inner; ++c) {
          const float x = v[row * inner + c];
          t[c * a + r] = Narrow<T>(x);
          if (kHalf) f[c * a + r] = x;
        }
      }
      if (back_written) {
        for (uint64_t r = 0; r < a; ++r) {
          for (uint64_t c = 0; c < inner; ++c) back[r * inner + c] = t[c * a + r];
        }
      }
      written = std::max(written, (kHalf ? 6 : 2 * sizeof(T)) * a * inner);
    };
    if (full != 0) one((full - 1) * chunk, chunk);
    if (tail != 0) one(full * chunk, tail);
  }
  san::Instr rec(Pipe::kV, "CumSum", loc);
  if (rec) rec.Write(base, written);
}

template <typename T, const AscendC::CumSumConfig& config>
void CumSumRun(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& last_row,
               const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>& tmp,
               const AscendC::CumSumInfo& info, SrcLoc loc) {
  static_assert(kHalfOrFloat<T>, "CumSum: T must be half or float");
  constexpr const char* kApi = "CumSum";
  CheckCumSumShape(info, sizeof(T));
  const uint64_t n = uint64_t{info.outter} * info.inner;
  const Operand d = Op(dst, "dstTensor"), s = Op(src, "srcTensor");
  const Operand l = Op(last_row, "lastRowTensor");
  CheckElementwise(kApi, static_cast<int64_t>(n), Products::kAll, Overlap::kIdentical, {d, s});
  if constexpr (config.outputLastRow) {
    CheckElementwise(kApi, info.inner, Products::kAll, Overlap::kNone, {l, d});
  }
  CheckTmpBuffer(kApi, tmp.View(), CumSumTmpMin(sizeof(T), config.isLastAxis, info),
                 static_cast<int64_t>(n), {d, s});
  detail::RestoreMaskAfterCount(detail::MaskContext(kApi));
  Record(kApi, loc, n, {d, s});
  std::vector<float> v(n);
  const T* in = src.HostPtr();
  for (uint64_t i = 0; i < n; ++i) v[i] = Widen(in[i]);
  const bool skl = config.algorithm == AscendC::CumSumAlgorithm::CUMSUM_ALGORITHM_SKLANSKY;
  const bool arch3510 = On3510();  // plain register copies there: no + 0
  if constexpr (config.isLastAxis) {
    for (uint32_t r = 0; r < info.outter; ++r)
      PrefixSums(&v[uint64_t{r} * info.inner], info.inner, 1, skl);
  } else {
    for (uint32_t c = 0; c < info.inner; ++c) PrefixSums(&v[c], info.outter, info.inner, skl);
  }
  StoreCumSumScratch<T>(v, tmp, info, config.isLastAxis, loc);
  T* out = dst.HostPtr();
  for (uint64_t i = 0; i < n; ++i) {
    T r = Narrow<T>(v[i]);
    // The device's Adds(x, 0) copies (see the header comment).
    const bool plus_zero =
        !arch3510 && (config.isLastAxis || (std::is_same_v<T, float> && i < info.inner));
    if (plus_zero) r = Narrow<T>(Widen(r) + 0.0f);
    out[i] = r;
  }
  if constexpr (config.outputLastRow) {
    Record(kApi, loc, info.inner, {l, d});
    T* lr = last_row.HostPtr();
    for (uint32_t j = 0; j < info.inner; ++j) {
      const T x = out[n - info.inner + j];
      lr[j] = arch3510 ? x : Narrow<T>(Widen(x) + 0.0f);
    }
  }
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

template <typename T, const CumSumConfig& config = defaultCumSumConfig>
void CumSum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& lastRowTensor,
            const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
            const CumSumInfo& cumSumInfo,
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::math_detail::CumSumRun<T, config>(dstTensor, lastRowTensor, srcTensor,
                                                    sharedTmpBuffer, cumSumInfo, loc);
}

template <typename T, const CumSumConfig& config = defaultCumSumConfig>
void CumSum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& lastRowTensor,
            const LocalTensor<T>& srcTensor, const CumSumInfo& cumSumInfo,
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::math_detail::CumSumRun<T, config>(dstTensor, lastRowTensor, srcTensor,
                                                    lngrad::aicore::math_detail::StackTmp(),
                                                    cumSumInfo, loc);
}

}  // namespace AscendC
