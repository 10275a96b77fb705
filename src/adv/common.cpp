// Implementation choice and the reduction trees of the simulated device.
#include <cstdlib>
#include <cstring>

#include "common.h"

namespace lngrad::adv {

Impl ResolveImpl(Impl requested) {
  if (requested != Impl::kAuto) return requested;
  const char* env = std::getenv("LNGRAD_IMPL");
  if (env != nullptr && std::strcmp(env, "scalar") == 0) return Impl::kScalar;
  // A separate variable: LNGRAD_IMPL is shared with the native library, which accepts only
  // auto, simd and scalar.
  const char* fuse = std::getenv("LNGRAD_DEVMATH_FUSE");
  if (fuse != nullptr && std::strcmp(fuse, "0") == 0) return Impl::kSimdSteps;
  return Impl::kSimd;
}

const char* SimdTargetName() { return detail::DispatchedTargetName(); }

namespace detail {

float ScalarTree64(const float* src, uint32_t n) {
  // Masked lanes enter the tree as +0 (spec §1.8 [inference]); the tree adds adjacent pairs,
  // level by level, always left + right.
  float lane[detail::kRepeatLanes];
  const uint32_t active = n < detail::kRepeatLanes ? n : detail::kRepeatLanes;
  for (uint32_t i = 0; i < detail::kRepeatLanes; ++i) lane[i] = i < active ? src[i] : 0.0f;
  for (uint32_t width = detail::kRepeatLanes; width > 1; width /= 2) {
    for (uint32_t j = 0; j < width / 2; ++j) lane[j] = lane[2 * j] + lane[2 * j + 1];
  }
  return lane[0];
}

void ScalarReduceSumRows(float* dst, const float* src, uint32_t calSize, uint32_t hLength) {
  const uint32_t count = calSize / hLength;
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t base = static_cast<uint64_t>(i) * hLength;
    const float* pass_src = src;
    uint32_t total = hLength;
    while (total > 1) {
      const uint32_t repeats = total / detail::kRepeatLanes;
      const uint32_t tail = total % detail::kRepeatLanes;
      // Full repeats land in consecutive slots (one WholeReduceSum, repeats in order); a single
      // repeat of exactly 64 values is the row's final sum and goes straight to dst[i].
      for (uint32_t j = 0; j < repeats; ++j) {
        const float v = ScalarTree64(pass_src + base + uint64_t{j} * detail::kRepeatLanes,
                                     detail::kRepeatLanes);
        dst[total == detail::kRepeatLanes ? uint64_t{i} : base + j] = v;
      }
      if (tail > 0) {
        const float v =
            ScalarTree64(pass_src + base + uint64_t{repeats} * detail::kRepeatLanes, tail);
        dst[total < detail::kRepeatLanes ? uint64_t{i} : base + repeats] = v;
      }
      total = static_cast<uint32_t>(detail::CeilDiv(total, detail::kRepeatLanes));
      pass_src = dst;
    }
  }
}

uint64_t ReduceSumRowsExtent(uint64_t calSize, uint64_t h) {
  if (h == 0) return 0;
  const uint64_t count = calSize / h;
  if (count == 0 || h == 1) return 0;
  // Final sums at dst[0..count); the first pass of a row wider than 64 fills ceil(h/64) slots
  // from its base, later passes fewer.
  const uint64_t slots = h > kRepeatLanes ? CeilDiv(h, kRepeatLanes) : 0;
  return std::max(count, (count - 1) * h + slots);
}

}  // namespace detail

float ReduceRepeat64(const float* src, uint32_t n, Impl impl) {
  return detail::MakeOps(impl).Tree(src, n);
}

void ReduceSumRows(float* dst, const float* src, uint32_t calSize, uint32_t hLength, Impl impl) {
  if (hLength == 0) return;
  detail::MakeOps(impl).ReduceSumRows(dst, src, calSize, hLength);
}

}  // namespace lngrad::adv
