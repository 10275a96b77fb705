// ReduceXorSum and SelectWithBytesMask of lngrad on Ascend310P1 (arch 2002) and Ascend910B1
// (2201) as kernels, compared bit for bit with the replay of the kit's v200 / v220 files
// (replay_v200.h): dst, the mask after the call and the checks the kit's code asserts.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../aicore/repeat_test_util.h"
#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "replay_reduce_quant.h"
#include "replay_v200.h"

namespace {

using namespace AscendC;
using lngrad::aicore::test::CheckOf;
using lngrad::aicore::test::OnBlock;
using lngrad::aicore::test::Ub;
namespace rp = lngrad_replay;

constexpr const char* k310P = "Ascend310P1";
constexpr const char* k910B = "Ascend910B1";

// ---- ReduceXorSum ----

std::vector<int16_t> Ints(std::mt19937& gen, uint32_t n, int lo, int span) {
  std::vector<int16_t> v(n);
  for (auto& x : v) x = static_cast<int16_t>(lo + static_cast<int>(gen() % span));
  return v;
}

// dst[0] and src0 after the call; tmpBytes 0: the whole 40 KiB buffer, else that many bytes.
int16_t RunXorSum(const char* soc, const std::vector<int16_t>& a, const std::vector<int16_t>& b,
                  uint32_t n, bool reuse, uint32_t tmpBytes, std::vector<int16_t>* aAfter) {
  int16_t got = 0;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<int16_t>(0, a);
        ub.Put<int16_t>(1, b);
        LocalTensor<int16_t> dst = ub.Get<int16_t>(3);
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        if (tmpBytes != 0) tmp.SetSize(tmpBytes);
        if (reuse) {
          ReduceXorSum<int16_t, true>(dst, ub.Get<int16_t>(0), ub.Get<int16_t>(1), tmp, n);
        } else {
          ReduceXorSum<int16_t>(dst, ub.Get<int16_t>(0), ub.Get<int16_t>(1), tmp, n);
        }
        got = ub.Take<int16_t>(3)[0];
        *aAfter = ub.Take<int16_t>(0);
      },
      soc);
  return got;
}

// The minimum scratch: three int16_t parts of calCount rounded up to 32 elements (two with
// isReuseSource), as GetReduceXorSumMaxMinTmpSize reports it.
uint32_t MinXorTmp(uint32_t n, bool reuse) { return (reuse ? 2 : 3) * ((n + 31) / 32 * 32) * 2; }

TEST(ReduceXorSumV200, On310PCastsThroughHalf) {
  uint32_t seed = 8100;
  struct Range {
    int lo, span;
  };
  // Small values (exact in half), the full int16_t range (|x ^ y| > 2048 rounds to half), and
  // values in [0, 4096) whose xor stays there (rounded above 2048, sums exact in float).
  const Range ranges[] = {{-20, 40}, {-32768, 65536}, {0, 4096}};
  for (uint32_t n : {1u, 7u, 64u, 100u, 300u, 512u, 4000u}) {
    for (const Range& r : ranges) {
      if (n > 512 && r.span > 4096) continue;  // the replay's exact-sum condition
      std::mt19937 gen(++seed);
      const std::vector<int16_t> a = Ints(gen, n, r.lo, r.span), b = Ints(gen, n, r.lo, r.span);
      const int16_t want = rp::ReplayReduceXorSum2002(a, b, n);
      for (bool reuse : {false, true}) {
        for (uint32_t tmp : {0u, MinXorTmp(n, reuse)}) {
          std::vector<int16_t> aAfter;
          const int16_t got = RunXorSum(k310P, a, b, n, reuse, tmp, &aAfter);
          EXPECT_EQ(got, want) << "n " << n << " range " << r.span << (reuse ? " reuse" : "")
                               << " tmp " << tmp;
          aAfter.resize(n);
          EXPECT_EQ(aAfter, a) << "src0 after the call, n " << n;
        }
      }
    }
  }
}

// The same inputs on 2201 keep the exact int16_t -> float path (the 2201 replay), so the two
// products differ where a value or the sum leaves half's integers.
TEST(ReduceXorSumV200, ProductsDifferAsTheKitsFilesDo) {
  const std::vector<int16_t> a(3, int16_t{0}), b = {4097, 4097, 1};  // 4097 is 4096 in half
  std::vector<int16_t> after;
  EXPECT_EQ(RunXorSum(k910B, a, b, 3, false, 0, &after), rp::ReplayReduceXorSum(a, b, 3));
  EXPECT_EQ(RunXorSum(k910B, a, b, 3, false, 0, &after), 8195);
  EXPECT_EQ(RunXorSum(k310P, a, b, 3, false, 0, &after), rp::ReplayReduceXorSum2002(a, b, 3));
  EXPECT_EQ(RunXorSum(k310P, a, b, 3, false, 0, &after), 8192);  // 4096 + 4096 + 1, then half
}

// ---- SelectWithBytesMask ----

template <class T>
using Bits = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;

// Mask elements: mostly 0 / nonzero at random, with the special values of each width (4-byte:
// -0.0f, a float subnormal, NaN; 2-byte: 0x8000; 1-byte: 0x80).
template <class U>
std::vector<U> MaskValues(std::mt19937& gen, size_t n) {
  std::vector<U> m(n);
  for (size_t i = 0; i < n; ++i) {
    uint32_t bits = gen() % 3 == 0 ? 0u : static_cast<uint32_t>(gen());
    if (sizeof(U) == 4 && i % 7 == 3) bits = 0x80000000u;
    if (sizeof(U) == 4 && i % 7 == 5) bits = 0x00000001u;
    if (sizeof(U) == 4 && i % 11 == 6) bits = 0x7FC00000u;
    if (sizeof(U) == 2 && i % 7 == 3) bits = 0x8000u;
    if (sizeof(U) == 1 && i % 7 == 3) bits = 0x80u;
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
void CompareSelect(const char* soc, const SelCase& c, uint32_t seed) {
  SCOPED_TRACE(std::string(soc) + " seed " + std::to_string(seed));
  std::mt19937 gen(seed);
  const uint32_t n = c.first * c.srcLast, maskN = c.first * c.maskLast;
  std::vector<T> src(n);
  for (auto& v : src) v = static_cast<T>(static_cast<float>(gen() % 2000) * 0.25f - 250.0f);
  const std::vector<U> mask = MaskValues<U>(gen, maskN);
  const T scalar = static_cast<T>(-7.5f);
  std::vector<T> dst;
  std::vector<U> maskAfter;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, src);
        ub.Put<U>(1, mask);
        ub.Put<T>(3, {}, static_cast<T>(99.0f));
        if (c.reuseMask) {
          CallSelect<T, U, true>(ub, c, scalar, n, maskN);
        } else {
          CallSelect<T, U, false>(ub, c, scalar, n, maskN);
        }
        dst = ub.Take<T>(3);
        maskAfter = ub.Take<U>(1);
      },
      soc);
  using B = Bits<T>;
  std::vector<B> srcBits(n), wantDst(n + 40);
  std::memcpy(srcBits.data(), src.data(), n * sizeof(T));
  const T sentinel = static_cast<T>(99.0f);
  B scalarBits, sentinelBits;
  std::memcpy(&scalarBits, &scalar, sizeof(T));
  std::memcpy(&sentinelBits, &sentinel, sizeof(T));
  for (auto& w : wantDst) w = sentinelBits;
  std::vector<uint8_t> wantMask(maskN * sizeof(U));
  std::memcpy(wantMask.data(), mask.data(), wantMask.size());
  const rp::SelectBytesCall call{std::string(soc) == k310P,
                                 c.reuseMask,
                                 c.scalarFirst,
                                 true,
                                 c.first,
                                 c.srcLast,
                                 c.maskLast,
                                 static_cast<uint32_t>(sizeof(U))};
  std::vector<B> got(n + 40);
  std::memcpy(got.data(), dst.data(), got.size() * sizeof(T));
  std::vector<B> wantHead(n);
  rp::ReplaySelectBytes<B>(call, srcBits, scalarBits, wantMask, wantHead);
  std::copy(wantHead.begin(), wantHead.end(), wantDst.begin());
  EXPECT_EQ(got, wantDst) << "dst and the 40 elements past it";
  std::vector<uint8_t> gotMask(wantMask.size());
  std::memcpy(gotMask.data(), maskAfter.data(), gotMask.size());
  EXPECT_EQ(gotMask, wantMask) << "the mask after the call";
}

// Axes that differ: 2201 packs the mask rows (into the mask itself with isReuseMask), 2002 reads
// each row where it is and leaves the mask alone.
TEST(SelectWithBytesMaskV200, MaskRowsOn310PAnd910B) {
  uint32_t seed = 8200;
  for (const char* soc : {k310P, k910B}) {
    CompareSelect<half, uint8_t>(soc, {4, 16, 32, true, false, 0}, ++seed);
    CompareSelect<half, uint8_t>(soc, {4, 16, 32, false, true, 0}, ++seed);
    CompareSelect<float, int16_t>(soc, {3, 8, 32, true, true, 0}, ++seed);
    CompareSelect<float, uint32_t>(soc, {5, 8, 16, true, false, 0}, ++seed);
    CompareSelect<half, uint16_t>(soc, {2, 48, 64, false, false, 0}, ++seed);
    CompareSelect<half, int32_t>(soc, {3, 128, 128, true, false, 0}, ++seed);  // equal axes
    CompareSelect<float, uint8_t>(soc, {7, 64, 64, false, true, 0}, ++seed);
  }
}

// 2002's ComputeMaskExtraBufSize is 0: without isReuseMask and with axes that differ, 1024 bytes
// of sharedTmpBuffer suffice there; 2201 asks 1024 plus the packed mask rounded to 32 bytes.
TEST(SelectWithBytesMaskV200, ScratchMinimumPerProduct) {
  CompareSelect<float, int16_t>(k310P, {3, 8, 16, false, false, 1024}, 8301);
  CompareSelect<half, uint8_t>(k310P, {4, 16, 32, false, true, 1024}, 8302);
  CompareSelect<float, int16_t>(k910B, {3, 8, 16, false, false, 1024 + 64}, 8303);
  const auto check = CheckOf(
      [](Ub& ub) {
        CallSelect<float, int16_t, false>(ub, {3, 8, 16, false, false, 1024}, 1.0f, 24, 48);
      },
      k910B);
  EXPECT_EQ(check.first, "tmp_buffer") << check.second;
}

}  // namespace
