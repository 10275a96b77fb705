// lngrad: the Ascend C high-level API Sign (the vendor's adv_api/math/sign.h): half and float
// (int64_t on Ascend 950 only).
//
// The result is the device's sequence on arch 2201 (sign_common_impl.h), per element in T: lt =
// x < 0, gt = x > 0 (Compare against a block of 0); a = lt ? 0 : 1; b = gt ? 0 : -1 (Select);
// r = a + b. So -1 for x < 0, 1 for x > 0, +0 for either zero and for NaN (which compares
// neither less nor greater): exact. Arch 3510 runs its register implementation; the result is
// the same exact function.
//
// The scratch on 2201/2002 (sharedTmpBuffer, or the stack buffer) holds what the kit's rounds
// leave there (splitCount = bytes / sizeof(T) / 3 down to 32 elements; the last full round and
// the tail decide): the LT and GT bit masks of the Compares (tmpLen = splitCount / 8 up to 32
// bytes each), then T tensors of splitCount elements holding -1 (the second Duplicate) and a.
// Compare ignores the mask on these arches: it writes the bits of whole 256-byte repeats, the
// lanes past a round's elements comparing src there with dst there as memory holds them (dst's
// content before the call; a lane past the UB compares false, lngrad's choice). Those reads past
// the count are not recorded for the sanitizer.
//
// Checked mode: calCount within every operand, operands 32-byte aligned and dst disjoint from
// src, sharedTmpBuffer at least GetSignMaxMinTmpSize's minimum (768 bytes) on 2201/2002 and
// disjoint from the operands, int64_t on arch 3510 only.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "lib/math/math_scratch.h"
#include "lib/math/math_steps.h"

namespace lngrad::aicore::math_detail {

template <typename T>
T SignSteps(T x) {
  if constexpr (std::is_same_v<T, int64_t>) {
    return static_cast<T>((x < 0 ? 0 : 1) + (x > 0 ? 0 : -1));
  } else {
    const float v = static_cast<float>(x);
    const float a = v < 0.0f ? 0.0f : 1.0f, b = v > 0.0f ? 0.0f : -1.0f;
    return T(a + b);
  }
}

// Element idx of t as float, read from memory (a Compare lane past the count): false past the UB.
template <typename T>
bool SignLaneFromMemory(const AscendC::LocalTensor<T>& t, uint64_t idx, float* v) {
  const detail::TensorView w = t.View();
  const std::byte* p = w.ptr + idx * sizeof(T);
  if (p < w.ub || p + sizeof(T) > w.ub + w.ub_size) return false;
  T e;
  std::memcpy(&e, p, sizeof(T));
  *v = static_cast<float>(e);
  return true;
}

// What SignCompute's rounds leave in the scratch (the header comment): xs and ds hold src and
// dst's prior content for elements first .. n - 1, the rest is read from memory.
template <typename T>
class SignScratch {
 public:
  SignScratch(const AscendC::LocalTensor<uint8_t>& tmp, uint64_t n)
      : tmp_(tmp),
        n_(n),
        chunk_(On3510() ? 0 : tmp.View().size_bytes / sizeof(T) / 3 / 32 * 32),
        tmp_len_((chunk_ / 8 + 31) / 32 * 32),
        slots_(tmp, n, chunk_, Slots{2 * tmp_len_ / sizeof(T), chunk_}) {}
  uint64_t First() const { return chunk_ == 0 ? n_ : slots_.First(); }

  void Write(const char* api, SrcLoc loc, const AscendC::LocalTensor<T>& src,
             const AscendC::LocalTensor<T>& dst, const std::vector<float>& xs,
             const std::vector<float>& ds) const {
    if (!slots_.Active()) return;
    const uint64_t first = First();
    slots_.Write(api, loc, [&](uint64_t i) {
      return std::array<T, 2>{T(-1.0f), T(xs[i - first] < 0.0f ? 0.0f : 1.0f)};
    });
    constexpr uint64_t kLanes = 256 / sizeof(T);
    uint8_t* bits = tmp_.HostPtr();
    san::Instr rec(Pipe::kV, api, loc);
    for (uint64_t off = first; off < n_; off += chunk_) {
      const uint64_t len = std::min(chunk_, n_ - off), rep = (len * sizeof(T) + 255) / 256;
      const uint64_t bytes = rep * kLanes / 8;
      std::fill(bits, bits + bytes, uint8_t{0});
      std::fill(bits + tmp_len_, bits + tmp_len_ + bytes, uint8_t{0});
      for (uint64_t k = 0; k < rep * kLanes; ++k) {
        const uint64_t i = off + k;
        float x = 0.0f, d = 0.0f;  // the round's own elements compare with its Duplicate'd 0
        if (i < n_) {
          x = xs[i - first];
          if (k >= len) d = ds[i - first];
        } else if (!SignLaneFromMemory(src, i, &x) || !SignLaneFromMemory(dst, i, &d)) {
          continue;
        }
        const uint8_t bit = static_cast<uint8_t>(1u << (k % 8));
        if (x < d) bits[k / 8] |= bit;
        if (x > d) bits[tmp_len_ + k / 8] |= bit;
      }
      if (rec) {
        rec.Write(bits, bytes);
        rec.Write(bits + tmp_len_, bytes);
      }
    }
  }

 private:
  struct Slots {
    uint64_t base, chunk;
    std::array<uint64_t, 2> operator()(uint64_t) const { return {base, base + chunk}; }
  };
  const AscendC::LocalTensor<uint8_t>& tmp_;
  uint64_t n_, chunk_, tmp_len_;
  ChunkScratch<T, 2, Slots> slots_;
};

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

template <typename T, bool isReuseSource = false>
void Sign(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kHalfOrFloat<T> || std::is_same_v<T, int64_t>,
                "Sign: T must be half, float or int64_t");
  const m::Products products =
      std::is_same_v<T, int64_t> ? m::Products::kOnly3510 : m::Products::kAll;
  if constexpr (std::is_same_v<T, int64_t>) {
    m::UnaryPass("Sign", products, m::Overlap::kNone, dstTensor, srcTensor, &sharedTmpBuffer,
                 m::TmpMinBytes(3), calCount, loc, [](T x) { return m::SignSteps(x); });
  } else {
    // src and dst's prior content for the elements the last rounds cover, taken as the pass
    // reaches them (the step runs once per element, in order, before dst[i] is stored).
    const m::SignScratch<T> scratch(sharedTmpBuffer, calCount);
    const uint64_t first = scratch.First();
    std::vector<float> xs(calCount - first), ds(calCount - first);
    const T* prior = dstTensor.HostPtr();
    uint64_t at = 0;
    m::UnaryPass<m::PassScratch::kModelled>("Sign", products, m::Overlap::kNone, dstTensor,
                                            srcTensor, &sharedTmpBuffer, m::TmpMinBytes(3),
                                            calCount, loc, [&](T x) {
                                              if (at >= first) {
                                                xs[at - first] = static_cast<float>(x);
                                                ds[at - first] = static_cast<float>(prior[at]);
                                              }
                                              ++at;
                                              return m::SignSteps(x);
                                            });
    scratch.Write("Sign", loc, srcTensor, dstTensor, xs, ds);
  }
}

LNGRAD_MATH_UNARY_FORWARDS(Sign)

}  // namespace AscendC
