// The rank-N Broadcast of arch 3510 (lib/broadcast/broadcast_rank_n.h): GetBroadcastTilingInfo's
// fields pinned against the toolkit's algorithm worked by hand, and Broadcast's results against
// numpy's broadcasting written here (each dst index reads src at 0 along its broadcast dims), for
// 1-, 2-, 4- and 8-byte data, ranks 1 to 9, with and without dim fusion (constRank); the checked
// refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "math_api_test_util.h"
#include "../aicore/sanitizer_off.h"

namespace {

using namespace AscendC;
using namespace lngrad::adv::testing;

using Dims = std::vector<uint32_t>;

uint64_t Count(const Dims& d) {
  uint64_t n = 1;
  for (uint32_t v : d) n *= v;
  return n;
}

// numpy's broadcasting of a compact src into a compact dst.
template <typename T>
std::vector<T> Oracle(const std::vector<T>& src, const Dims& dst_shape, const Dims& src_shape) {
  const uint64_t n = Count(dst_shape);
  std::vector<T> out(n);
  for (uint64_t k = 0; k < n; ++k) {
    uint64_t rest = k, from = 0, src_step = 1;
    for (size_t d = dst_shape.size(); d-- > 0;) {
      const uint64_t i = rest % dst_shape[d];
      rest /= dst_shape[d];
      if (src_shape[d] != 1) from += i * src_step;
      src_step *= src_shape[d];
    }
    out[k] = src[from];
  }
  return out;
}

template <typename T>
std::vector<T> Random(uint64_t n, uint32_t seed) {
  std::mt19937_64 g(seed);
  std::vector<T> v(n);
  for (auto& x : v) {
    uint64_t bits = g();
    std::memcpy(&x, &bits, sizeof(T));
  }
  return v;
}

struct Out {
  std::string check, message;
  BroadcastTiling tiling{};
  std::vector<uint8_t> dst;  // bytes of the dst buffer after the call
};

// GetBroadcastTilingInfo and Broadcast on one block of `soc`; dst pre-filled with 0xA5.
template <typename T, int kConstRank = -1>
Out RunBrc(const Dims& dst_shape, const Dims& src_shape, const std::vector<T>& src, const char* soc,
           BroadcastTiling* tiling_in = nullptr) {
  Out r;
  // (at most 64 KiB: the refusal cases name shapes larger than the UB)
  const uint64_t dst_bytes =
      std::min<uint64_t>((Count(dst_shape) * sizeof(T) + 63) / 32 * 32, 65536);
  const uint64_t src_bytes = (src.size() * sizeof(T) + 63) / 32 * 32;
  lngrad::aicore::LaunchOptions o;
  o.soc = soc;
  const lngrad::Status st = lngrad::aicore::Launch(
      1,
      [&] {
        TPipe pipe;
        TBuf<> sb, db;
        pipe.InitBuffer(sb, static_cast<uint32_t>(src_bytes));
        pipe.InitBuffer(db, static_cast<uint32_t>(dst_bytes));
        LocalTensor<T> s = sb.Get<T>(), d = db.Get<T>();
        std::memset(s.HostPtr(), 0, src_bytes);
        std::memcpy(s.HostPtr(), src.data(), src.size() * sizeof(T));
        std::memset(d.HostPtr(), 0xA5, dst_bytes);
        try {
          if (tiling_in != nullptr) {
            r.tiling = *tiling_in;
          } else {
            GetBroadcastTilingInfo<T, kConstRank>(static_cast<uint32_t>(dst_shape.size()),
                                                  dst_shape.data(), src_shape.data(), false,
                                                  r.tiling);
          }
          Broadcast<T, kConstRank>(d, s, dst_shape.data(), src_shape.data(), &r.tiling);
        } catch (const lngrad::aicore::KernelCheckError& e) {
          lngrad::aicore::DismissKernelCheck(e);
          r.check = e.check();
          r.message = e.message();
        }
        const auto* p = reinterpret_cast<const uint8_t*>(d.HostPtr());
        r.dst.assign(p, p + dst_bytes);
      },
      o);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return r;
}

template <typename T, int kConstRank = -1>
void ExpectBroadcast(const Dims& dst_shape, const Dims& src_shape, uint32_t seed) {
  SCOPED_TRACE(::testing::Message() << "sizeof(T) " << sizeof(T) << " constRank " << kConstRank
                                    << " rank " << dst_shape.size() << " seed " << seed);
  const std::vector<T> src = Random<T>(Count(src_shape), seed);
  const Out r = RunBrc<T, kConstRank>(dst_shape, src_shape, src, k950);
  ASSERT_EQ(r.check, "") << r.message;
  const std::vector<T> want = Oracle(src, dst_shape, src_shape);
  ASSERT_EQ(std::memcmp(r.dst.data(), want.data(), want.size() * sizeof(T)), 0);
  // Nothing past dst's elements, except the 32-byte rounding of an equal-size copy.
  const uint64_t end = Count(dst_shape) * sizeof(T);
  const uint64_t copied = Count(src_shape) == Count(dst_shape) ? (end + 31) / 32 * 32 : end;
  for (uint64_t b = copied; b < r.dst.size(); ++b) ASSERT_EQ(r.dst[b], 0xA5) << "byte " << b;
}

TEST(TransformBroadcastRankN, TilingWithDimFusion) {
  const Out r = RunBrc<float>({2, 3, 4, 5}, {2, 1, 1, 5}, std::vector<float>(10, 1.0f), k950);
  ASSERT_EQ(r.check, "") << r.message;
  const BroadcastTiling& t = r.tiling;
  EXPECT_EQ(t.oriRank, 4u);
  EXPECT_EQ(t.rank, 3u);  // {2} equal, {3, 4} broadcast, {5} equal
  EXPECT_EQ(t.srcSize, 10u);
  EXPECT_EQ(t.dstSize, 120u);
  EXPECT_EQ(t.loopNum, 0u);
  const uint32_t shape[9] = {2, 12, 5, 5, 1, 1, 1, 1, 1};  // [3] keeps the original dim
  for (int i = 0; i < 9; ++i) EXPECT_EQ(t.dstShape[i], shape[i]) << i;
  const uint32_t ds[3] = {60, 5, 1}, ss[3] = {5, 0, 1};
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(t.dstStride[i], ds[i]) << i;
    EXPECT_EQ(t.srcStride[i], ss[i]) << i;
  }
  const uint32_t ori_dst[4] = {2, 3, 4, 5}, ori_src[4] = {2, 1, 1, 5};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(t.oriDstShape[i], ori_dst[i]);
    EXPECT_EQ(t.oriSrcShape[i], ori_src[i]);
  }
}

TEST(TransformBroadcastRankN, TilingWithConstRankKeepsDims) {
  const Out r = RunBrc<float, 4>({2, 3, 4, 5}, {2, 1, 1, 5}, std::vector<float>(10, 1.0f), k950);
  ASSERT_EQ(r.check, "") << r.message;
  const BroadcastTiling& t = r.tiling;
  EXPECT_EQ(t.rank, 4u);
  const uint32_t ds[4] = {60, 20, 5, 1}, ss[4] = {5, 0, 0, 1};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(t.dstShape[i], (Dims{2, 3, 4, 5}[i])) << i;
    EXPECT_EQ(t.dstStride[i], ds[i]) << i;
    EXPECT_EQ(t.srcStride[i], ss[i]) << i;
  }
}

// 8-byte data as pairs of 4-byte units: a broadcast last dim gets a dim of 2, an equal last dim
// is doubled, and at rank 9 dim 0 becomes the loop (loopNum, srcStride[9]).
TEST(TransformBroadcastRankN, TilingOf8ByteData) {
  Out r = RunBrc<int64_t>({4, 3}, {4, 1}, std::vector<int64_t>(4, 1), k950);
  ASSERT_EQ(r.check, "") << r.message;
  EXPECT_EQ(r.tiling.rank, 3u);
  EXPECT_EQ(r.tiling.srcSize, 8u);
  EXPECT_EQ(r.tiling.dstSize, 24u);
  EXPECT_EQ(r.tiling.dstShape[2], 2u);
  EXPECT_EQ(r.tiling.dstStride[0], 6u);
  EXPECT_EQ(r.tiling.srcStride[0], 2u);
  EXPECT_EQ(r.tiling.srcStride[1], 0u);
  r = RunBrc<int64_t>({3, 4}, {1, 4}, std::vector<int64_t>(4, 1), k950);
  EXPECT_EQ(r.tiling.rank, 2u);
  EXPECT_EQ(r.tiling.dstShape[1], 8u);
  EXPECT_EQ(r.tiling.dstStride[0], 8u);
  EXPECT_EQ(r.tiling.srcStride[0], 0u);
  const Dims dst9(9, 2), src9 = {1, 2, 1, 2, 1, 2, 1, 2, 1};
  r = RunBrc<int64_t>(dst9, src9, std::vector<int64_t>(16, 1), k950);
  EXPECT_EQ(r.tiling.rank, 9u);
  EXPECT_EQ(r.tiling.loopNum, 2u);
  EXPECT_EQ(r.tiling.srcStride[9], 0u);  // dim 0 broadcasts
  EXPECT_EQ(r.tiling.dstShape[8], 2u);
  EXPECT_EQ(r.tiling.dstShape[0], 2u);
}

TEST(TransformBroadcastRankN, ResultsAgainstNumpy) {
  const std::vector<std::pair<Dims, Dims>> cases = {
      {{7}, {1}},
      {{5, 33}, {5, 1}},
      {{5, 33}, {1, 33}},
      {{3, 5}, {3, 5}},
      {{2, 3, 4, 5}, {2, 1, 1, 5}},
      {{3, 1, 17}, {1, 1, 17}},
      {{2, 3, 2, 3, 2}, {1, 3, 1, 3, 1}},
      {Dims(9, 2), {1, 2, 1, 2, 1, 2, 1, 2, 1}},
      {Dims(9, 2), {2, 1, 2, 1, 2, 1, 2, 1, 2}},
      {{4, 1, 6, 2, 3, 2, 1, 2}, {4, 1, 1, 2, 1, 2, 1, 1}},
  };
  uint32_t seed = 1;
  for (const auto& [d, s] : cases) {
    ExpectBroadcast<int8_t>(d, s, seed++);
    ExpectBroadcast<half>(d, s, seed++);
    ExpectBroadcast<float>(d, s, seed++);
    ExpectBroadcast<int64_t>(d, s, seed++);
  }
  ExpectBroadcast<float, 2>({5, 33}, {5, 1}, seed++);
  ExpectBroadcast<uint16_t, 3>({3, 1, 17}, {1, 1, 17}, seed++);
  ExpectBroadcast<uint64_t, 4>({2, 3, 4, 5}, {2, 1, 1, 5}, seed++);
  ExpectBroadcast<int32_t, 5>({2, 3, 2, 3, 2}, {1, 3, 1, 3, 1}, seed++);
}

TEST(TransformBroadcastRankN, CheckedRefusals) {
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(true);
  const std::vector<float> src(8, 1.0f);
  const auto expect = [](const Out& r, const std::string& needle) {
    EXPECT_EQ(r.check, "transform_params") << r.message;
    EXPECT_NE(r.message.find(needle), std::string::npos) << r.message;
  };
  expect(RunBrc<float>({4, 2}, {4, 1}, src, k910B), "runs on arch 3510 only");
  expect(RunBrc<float>({4, 2}, {3, 1}, src, k950), "srcShape[0] = 3 cannot broadcast");
  expect(RunBrc<float>(Dims(10, 1), Dims(10, 1), src, k950), "rank should be in range [1, 9]");
  expect(RunBrc<float, 3>({4, 2}, {4, 1}, src, k950), "constRank should be equal to rank");
  BroadcastTiling other{};
  {
    const Out made = RunBrc<float>({4, 2}, {4, 1}, src, k950);
    other = made.tiling;
  }
  expect(RunBrc<float>({4, 3}, {4, 1}, src, k950, &other), "the tiling's shapes should be equal");
  expect(RunBrc<float>({70000, 2}, {1, 2}, src, k950), "shape should be less than uint16 max");
  lngrad::aicore::SetCheckedMode(was);
}

}  // namespace
