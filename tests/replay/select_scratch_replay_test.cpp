// SelectWithBytesMask's sharedTmpBuffer after the call on Ascend910B1 (2201) and Ascend310P1
// (2002), compared bit for bit with the replay of the kit's files (replay_select_scratch.h):
// the whole UB buffer holding the scratch (its bytes past the scratch's size must be left
// alone), plus dst and 40 elements past it, the mask and the tensor source (replay_v200.h).
// The scratch starts as random bytes: the Compare's lanes past a round read them.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../aicore/checked_mode_scope.h"
#include "../aicore/repeat_test_util.h"
#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "replay_select_scratch.h"
#include "replay_v200.h"

namespace {

using namespace AscendC;
using lngrad::aicore::test::kUbBufBytes;
using lngrad::aicore::test::OnBlock;
using lngrad::aicore::test::Ub;
namespace rp = lngrad_replay;

constexpr const char* k310P = "Ascend310P1";
constexpr const char* k910B = "Ascend910B1";

template <class T>
using Bits = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;

// Mask elements: zero / nonzero at random and, by width, the values that matter to the half Cast
// (4 bytes: +-0, subnormals, NaN, +-inf, past 65504, 65519/65520, tiny; 2: 0x8000, values that
// round; 1: 0x80, 0xFF).
template <class U>
std::vector<U> MaskValues(std::mt19937& gen, size_t n) {
  static const uint32_t k4[] = {0x80000000u, 0x00000001u, 0x807FFFFFu, 0x7FC00000u, 0xFF800001u,
                                0x7F800000u, 0xFF800000u, 0x477FE000u, 0x477FF000u, 0x4F000000u,
                                0x2F000000u, 0x33800001u, 0xC77FFF00u, 0x3F800000u};
  static const uint32_t k2[] = {0x8000u, 0x0801u, 0x7FFFu, 0xFFFFu, 0x0001u, 0x1003u};
  static const uint32_t k1[] = {0x80u, 0xFFu, 0x01u};
  std::vector<U> m(n);
  for (size_t i = 0; i < n; ++i) {
    uint32_t bits = gen() % 3 == 0 ? 0u : static_cast<uint32_t>(gen());
    if (gen() % 2 == 0) {
      if (sizeof(U) == 4) bits = k4[gen() % std::size(k4)];
      if (sizeof(U) == 2) bits = k2[gen() % std::size(k2)];
      if (sizeof(U) == 1) bits = k1[gen() % std::size(k1)];
    }
    std::memcpy(&m[i], &bits, sizeof(U));
  }
  return m;
}

struct SelCase {
  uint32_t first, srcLast, maskLast;
  bool reuseMask, scalarFirst;
  uint32_t tmpBytes;  // 0: the whole 40 KiB buffer
};

template <class T, class U, bool reuseMask>
void CallSelect(Ub& ub, const SelCase& c, T scalar, uint32_t n, uint32_t maskN) {
  LocalTensor<T> dst = ub.Get<T>(3), src = ub.Get<T>(0);
  LocalTensor<U> mask = ub.Get<U>(1);
  LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
  src.SetSize(n);
  dst.SetSize(n);
  mask.SetSize(maskN);
  if (c.tmpBytes != 0) tmp.SetSize(c.tmpBytes);
  SelectWithBytesMaskShapeInfo info;
  info.firstAxis = c.first;
  info.srcLastAxis = c.srcLast;
  info.maskLastAxis = c.maskLast;
  if (c.scalarFirst) {
    Select<T, U, reuseMask>(dst, scalar, src, mask, tmp, info);
  } else {
    Select<T, U, reuseMask>(dst, src, scalar, mask, tmp, info);
  }
}

template <class T, class U>
void CompareScratch(const char* soc, const SelCase& c, uint32_t seed) {
  SCOPED_TRACE(std::string(soc) + " seed " + std::to_string(seed) + " axes " +
               std::to_string(c.first) + "x" + std::to_string(c.srcLast) + "/" +
               std::to_string(c.maskLast) + " tmp " + std::to_string(c.tmpBytes) +
               (c.reuseMask ? " reuse" : "") + (c.scalarFirst ? " scalarFirst" : ""));
  // The kit's kernel check (selectwithbytesmaskcheck_common.h, CPU debug only) rejects float
  // masks and rows not of whole 32-byte blocks, which checked mode refuses; the device runs
  // them, so the cases the check rejects (counts that end mid-repeat) run unchecked.
  const bool kitAccepts = std::is_integral_v<U> && c.srcLast * sizeof(T) % 32 == 0 &&
                          c.maskLast * sizeof(U) % 32 == 0 && c.maskLast % 16 == 0 &&
                          c.maskLast >= c.srcLast;
  lngrad::aicore::test::CheckedModeScope mode(kitAccepts);
  std::mt19937 gen(seed);
  const uint32_t n = c.first * c.srcLast, maskN = c.first * c.maskLast;
  std::vector<T> src(n);
  for (auto& v : src) v = static_cast<T>(static_cast<float>(gen() % 2000) * 0.25f - 250.0f);
  const std::vector<U> mask = MaskValues<U>(gen, maskN);
  std::vector<uint8_t> scratch0(kUbBufBytes);
  for (auto& b : scratch0) b = static_cast<uint8_t>(gen());
  const T scalar = static_cast<T>(-7.5f);
  std::vector<T> dst, srcAfter;
  std::vector<U> maskAfter;
  std::vector<uint8_t> scratch;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, src);
        ub.Put<U>(1, mask);
        ub.Put<uint8_t>(2, scratch0);
        ub.Put<T>(3, {}, static_cast<T>(99.0f));
        if (c.reuseMask) {
          CallSelect<T, U, true>(ub, c, scalar, n, maskN);
        } else {
          CallSelect<T, U, false>(ub, c, scalar, n, maskN);
        }
        dst = ub.Take<T>(3);
        srcAfter = ub.Take<T>(0);
        maskAfter = ub.Take<U>(1);
        scratch = ub.Take<uint8_t>(2);
      },
      soc);
  const bool is310P = std::string(soc) == k310P;
  // The scratch: the replay runs over the call's size, the rest of the buffer stays.
  const uint32_t size = c.tmpBytes != 0 ? c.tmpBytes : kUbBufBytes;
  std::vector<uint8_t> want(scratch0.begin(), scratch0.begin() + size);
  std::vector<uint8_t> maskBytes(maskN * sizeof(U));
  if (!maskBytes.empty()) std::memcpy(maskBytes.data(), mask.data(), maskBytes.size());
  const rp::SelectScratchCall sc{is310P,
                                 c.reuseMask,
                                 c.scalarFirst,
                                 c.first,
                                 c.srcLast,
                                 c.maskLast,
                                 static_cast<uint32_t>(sizeof(U)),
                                 static_cast<uint32_t>(sizeof(T)),
                                 n};
  rp::ReplaySelectBytesScratch(sc, maskBytes, reinterpret_cast<const uint8_t*>(&scalar), want);
  want.insert(want.end(), scratch0.begin() + size, scratch0.end());
  EXPECT_EQ(scratch, want) << "the scratch buffer";
  // dst (and 40 past it), the mask after the call, the source.
  using B = Bits<T>;
  std::vector<B> srcBits(n), head(n);
  if (n != 0) std::memcpy(srcBits.data(), src.data(), n * sizeof(T));
  B scalarBits, sentinelBits;
  const T sentinel = static_cast<T>(99.0f);
  std::memcpy(&scalarBits, &scalar, sizeof(T));
  std::memcpy(&sentinelBits, &sentinel, sizeof(T));
  const rp::SelectBytesCall call{
      is310P,  c.reuseMask, c.scalarFirst, true,
      c.first, c.srcLast,   c.maskLast,    static_cast<uint32_t>(sizeof(U))};
  rp::ReplaySelectBytes<B>(call, srcBits, scalarBits, maskBytes, head);
  std::vector<B> wantDst(n + 40, sentinelBits), gotDst(n + 40);
  std::copy(head.begin(), head.end(), wantDst.begin());
  std::memcpy(gotDst.data(), dst.data(), gotDst.size() * sizeof(T));
  EXPECT_EQ(gotDst, wantDst) << "dst and the 40 elements past it";
  std::vector<uint8_t> gotMask(maskBytes.size());
  if (!gotMask.empty()) std::memcpy(gotMask.data(), maskAfter.data(), gotMask.size());
  EXPECT_EQ(gotMask, maskBytes) << "the mask after the call";
  std::vector<B> gotSrc(n);
  if (n != 0) std::memcpy(gotSrc.data(), srcAfter.data(), n * sizeof(T));
  EXPECT_EQ(gotSrc, srcBits) << "the tensor source";
}

// Equal axes: counts 0, 1, 16, tails past whole 128-lane repeats and past the rounds (1024
// bytes: rounds of 384 elements), a few thousand; scratch sizes 1024, 1100, 2080, the whole.
template <class T, class U>
void EqualAxes(uint32_t seed) {
  for (const char* soc : {k910B, k310P}) {
    for (const uint32_t tmp : {1024u, 1100u, 2080u, 0u}) {
      for (const uint32_t n : {0u, 1u, 16u, 144u, 400u, 1000u, 4112u}) {
        for (const bool sf : {false, true}) {
          const uint32_t s = ++seed;
          CompareScratch<T, U>(soc, {1, n, n, s % 2 == 0, sf, tmp}, s);
        }
      }
    }
  }
}

TEST(SelectWithBytesMaskScratch, EqualAxesHalf) {
  EqualAxes<half, uint8_t>(100);
  EqualAxes<half, int16_t>(200);
  EqualAxes<half, uint32_t>(301);
  EqualAxes<half, float>(400);
}

TEST(SelectWithBytesMaskScratch, EqualAxesFloat) {
  EqualAxes<float, uint8_t>(501);
  EqualAxes<float, uint16_t>(600);
  EqualAxes<float, int32_t>(701);
  EqualAxes<float, float>(800);
}

// Axes that differ: 2201 packs the rows (into the scratch without isReuseMask, the work area
// after them), 2002 runs row by row; both overloads, both isReuseMask.
template <class T, class U>
void RowCases(uint32_t seed) {
  const uint32_t step = 32 / sizeof(T);
  for (const char* soc : {k910B, k310P}) {
    for (const bool reuse : {false, true}) {
      for (const bool sf : {false, true}) {
        const auto packed = [](uint32_t n) {
          return static_cast<uint32_t>((n * sizeof(U) + 31) / 32 * 32);
        };
        CompareScratch<T, U>(soc, {3, 2 * step, 64, reuse, sf, 1024 + packed(6 * step)}, ++seed);
        CompareScratch<T, U>(soc, {5, step, 32, reuse, sf, 0}, ++seed);
        CompareScratch<T, U>(soc, {7, 9 * step, 160, reuse, sf, 1100 + packed(63 * step)}, ++seed);
        CompareScratch<T, U>(soc, {12, 25 * step, 28 * step, reuse, sf, 0}, ++seed);
        CompareScratch<T, U>(soc, {0, step, 32, reuse, sf, 0}, ++seed);
      }
    }
  }
}

TEST(SelectWithBytesMaskScratch, RowsDiffer) {
  RowCases<half, uint8_t>(1000);
  RowCases<half, int16_t>(1100);
  RowCases<half, float>(1200);
  RowCases<float, uint8_t>(1300);
  RowCases<float, uint16_t>(1400);
  RowCases<float, uint32_t>(1500);
}

}  // namespace
