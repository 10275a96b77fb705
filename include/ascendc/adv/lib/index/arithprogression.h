// lngrad: the Ascend C high-level API Arange / ArithProgression (the vendor's
// adv_api/index/arithprogression.h): dst[i] = firstValue + i * diffValue for i < count.
//
// The values are those of the vendor's sequence (arithprogression_common_impl.h), which float
// and half results depend on: the first 32-byte block (or all of a shorter count) is written by
// the scalar unit as first + diff * i (half: computed in float, rounded once to half; int16_t:
// wrapped to 16 bits); each further block of the first 256 bytes adds the step diff * (32 /
// sizeof(T)) to the block before it, and each further 256-byte repeat adds diff * (256 /
// sizeof(T)) to the repeat before it, with the Adds instruction. Steps: integers in int64_t
// then converted to T, floating types in float then converted to T. Like the device, the call
// writes whole 32-byte blocks: up to ceil(count * sizeof(T) / 32) * 32 bytes (clipped to the
// UB), which the sanitizer records; a count within one block is written element by element.
//
// The 950 (arch 3510) runs its register sequence instead (arithprogression_3510_impl.h): one
// register of L lanes (L = 256 / sizeof(T); 64 for int64_t, two registers) holds
// (T(j) · diff) + first (Arange, Muls, Adds, each rounded in T: half once from float, integers
// wrapped), the step is T(L) · diff, and each repeat stores the register's first
// min(L, count left) lanes and adds the step to every lane: element i·L + j is
// base_j + step + ... + step (i additions, each rounded). Only count elements are written.
//
// Types: int16_t, half, int32_t, float (arch 3510 also int64_t). Checked mode: count > 0 (on
// 3510 count >= 0: 0 writes nothing, the 3510 code asserts only dst's size), count within dst,
// dst 32-byte aligned, diffValue >= 0 as float (`math_arg`; both kits assert it, a NaN fails).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "lib/math/math_common.h"
#include "lngrad_aicore/vector_ops.h"

namespace lngrad::aicore::math_detail {

template <typename T>
T ArithBase(T first, T diff, int32_t i) {
  if constexpr (std::is_same_v<T, half>) {
    return half(static_cast<float>(first) + static_cast<float>(diff) * static_cast<float>(i));
  } else {
    return static_cast<T>(first + diff * static_cast<T>(i));
  }
}

template <typename T>
T ArithStep(T diff, int32_t steps) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<int64_t>(diff) * static_cast<int64_t>(steps));
  } else {
    return static_cast<T>(static_cast<float>(diff) * static_cast<float>(steps));
  }
}

// dst[at + j] = dst[from + j] + step for j < n: the device's Adds.
template <typename T>
void AddsBlock(T* dst, uint64_t at, uint64_t from, T step, uint64_t n) {
  if constexpr (std::is_same_v<T, int64_t>) {
    for (uint64_t j = 0; j < n; ++j) dst[at + j] = dst[from + j] + step;  // no int64 Adds here
  } else {
    detail::ScalarRun(ScalarOp::kAdds, dst + at, dst + from, step, n);
  }
}

// One register lane operation in T (the 950's Muls / Adds / Add): integers wrap, half is
// computed in float and rounded once, float is one IEEE operation.
template <typename T>
T RegLaneMul(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using W = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<W>(static_cast<W>(a) * static_cast<W>(b)));
  } else {
    return T(static_cast<float>(a) * static_cast<float>(b));
  }
}
template <typename T>
T RegLaneAdd(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using W = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<W>(static_cast<W>(a) + static_cast<W>(b)));
  } else {
    return T(static_cast<float>(a) + static_cast<float>(b));
  }
}

// The 950's register sequence (the header comment): out[0, count).
template <typename T>
void ArithProgression3510(T* out, T first, T diff, int32_t count) {
  constexpr uint32_t kLanes = sizeof(T) == 8 ? 64 : 256 / sizeof(T);
  std::array<T, kLanes> reg;
  for (uint32_t j = 0; j < kLanes; ++j) {
    reg[j] = RegLaneAdd(RegLaneMul(T(static_cast<float>(j)), diff), first);
  }
  const T step = RegLaneMul(T(static_cast<float>(kLanes)), diff);
  const auto n = static_cast<uint64_t>(count);
  for (uint64_t done = 0; done < n; done += kLanes) {
    std::copy_n(reg.begin(), std::min<uint64_t>(kLanes, n - done), out + done);
    for (T& lane : reg) lane = RegLaneAdd(lane, step);
  }
}

template <typename T>
void ArithProgression(const char* api, const AscendC::LocalTensor<T>& dst, T first, T diff,
                      int32_t count, SrcLoc loc) {
  static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, half> ||
                    std::is_same_v<T, int32_t> || std::is_same_v<T, float> ||
                    std::is_same_v<T, int64_t>,
                "T must be int16_t, half, int32_t, float or int64_t");
  const bool reg = On3510();
  if (CheckedMode() && (reg ? count < 0 : count <= 0)) {
    RaiseKernelCheck(checks::kInvalidCount, std::string(api) + ": count is " +
                                                std::to_string(count) + ", which must be " +
                                                (reg ? ">= 0" : "> 0"));
  }
  if (CheckedMode() && !(static_cast<float>(diff) >= 0.0f)) {
    RaiseKernelCheck(checks::kMathArg, std::string(api) + ": diffValue is " +
                                           std::to_string(static_cast<float>(diff)) +
                                           ", which must be >= 0");
  }
  if (count <= 0) return;
  CheckElementwise(api, count, Products::kAll, Overlap::kNone, {Op(dst, "dst")});
  if (CheckedMode() && std::is_same_v<T, int64_t> && !reg) {
    RaiseKernelCheck(checks::kProduct, std::string(api) + ": int64_t exists on arch 3510 only");
  }
  if (reg) {
    detail::RestoreMaskAfterCount(detail::MaskContext(api));
    if (san::Instr in(Pipe::kV, api, loc); in) in.Write(dst.HostPtr(), uint64_t(count) * sizeof(T));
    ArithProgression3510(dst.HostPtr(), first, diff, count);
    return;
  }
  constexpr int32_t kBlock = 32 / sizeof(T);
  constexpr int32_t kRepeat = 256 / sizeof(T);
  const auto aligned = static_cast<uint64_t>((count + kBlock - 1) / kBlock * kBlock);
  // The whole blocks the device writes, within the UB.
  const detail::TensorView v = dst.View();
  const uint64_t room = static_cast<uint64_t>(v.ub + v.ub_size - v.ptr) / sizeof(T);
  const uint64_t written =
      count <= kBlock ? static_cast<uint64_t>(count) : std::min<uint64_t>(aligned, room);
  detail::RestoreMaskAfterCount(detail::MaskContext(api));
  {
    san::Instr in(Pipe::kV, api, loc);
    if (in) in.Write(dst.HostPtr(), written * sizeof(T));
  }
  T* out = dst.HostPtr();
  if (count <= kBlock) {
    for (int32_t i = 0; i < count; ++i) out[i] = ArithBase(first, diff, i);
    return;
  }
  std::vector<T> whole(aligned);
  T* w = whole.data();
  for (int32_t i = 0; i < kBlock; ++i) w[i] = ArithBase(first, diff, i);
  const T block_step = ArithStep(diff, kBlock);
  if (count > kRepeat) {
    for (int32_t i = 0; i < 7; ++i) AddsBlock(w, (i + 1) * kBlock, i * kBlock, block_step, kBlock);
    const T repeat_step = ArithStep(diff, kRepeat);
    const int32_t repeat = count / kRepeat, tail = count % kRepeat;
    for (int32_t i = 0; i < repeat - 1; ++i) {
      AddsBlock(w, uint64_t(i + 1) * kRepeat, uint64_t(i) * kRepeat, repeat_step, kRepeat);
    }
    if (tail > 0) {
      const int32_t tail_aligned = (tail + kBlock - 1) / kBlock * kBlock;
      AddsBlock(w, uint64_t(repeat) * kRepeat, uint64_t(repeat - 1) * kRepeat, repeat_step,
                tail_aligned);
    }
  } else {
    const int32_t blocks = static_cast<int32_t>(aligned / kBlock);
    for (int32_t i = 0; i < blocks - 1; ++i) {
      AddsBlock(w, (i + 1) * kBlock, i * kBlock, block_step, kBlock);
    }
  }
  std::copy(w, w + written, out);
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

template <typename T>
void Arange(const LocalTensor<T>& dst, const T firstValue, const T diffValue, const int32_t count,
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::math_detail::ArithProgression("Arange", dst, firstValue, diffValue, count, loc);
}

// The older name of Arange.
template <typename T>
void ArithProgression(const LocalTensor<T>& dstLocal, const T firstValue, const T diffValue,
                      const int32_t count,
                      lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::math_detail::ArithProgression("ArithProgression", dstLocal, firstValue, diffValue,
                                                count, loc);
}

}  // namespace AscendC
