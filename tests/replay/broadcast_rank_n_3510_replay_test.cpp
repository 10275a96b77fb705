// lngrad's rank-N Broadcast on the 950 (Ascend950PR_9589), GetBroadcastTilingInfo<T, constRank>
// and Broadcast<T, constRank>(dst, src, dstShape, srcShape, &tiling), compared bit for bit with
// the replay of broadcast_3510_replay.h (the kit's BroadcastCompute with its 3- and 4-dim
// wrappers, the dynamic-rank path and the gathers of broadcast_gather_3510_impl.h; the
// provenance is stated there): the tiling field by field, the whole dst buffer (what a call
// writes past its region shows) and the whole src buffer, for float, int32_t, half, bfloat16_t,
// int8_t and uint8_t, constRank 3, 4, 5 and -1 (the fused, dynamic form), and 8-byte T as pairs
// of 4-byte units (constRank 1 to 4, 9 and -1).
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "broadcast_3510_replay.h"

namespace {

using namespace AscendC;
using namespace lngrad_replay::transform3510;

constexpr uint32_t kBuf = 32768;

std::vector<uint32_t> SrcOf(const std::vector<uint32_t>& dst, uint32_t brcMask) {
  std::vector<uint32_t> src(dst);
  for (size_t i = 0; i < dst.size(); ++i) {
    if (brcMask >> i & 1u) src[i] = 1;
  }
  return src;
}

std::string Shape(const std::vector<uint32_t>& s) {
  std::string r = "{";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + "}";
}

// lngrad's tiling and Broadcast against the replay, src and dst buffers of the given bytes.
template <typename T, int constRank>
std::vector<T> Check(const std::vector<uint32_t>& dstShape, const std::vector<uint32_t>& srcShape,
                     uint32_t seed, uint32_t srcBytes = kBuf, uint32_t dstBytes = kBuf) {
  SCOPED_TRACE(::testing::Message() << sizeof(T) << "-byte constRank " << constRank << " dst "
                                    << Shape(dstShape) << " src " << Shape(srcShape));
  const std::vector<T> srcImg = RandomBits<T>(seed, srcBytes / sizeof(T));
  const std::vector<T> dstImg = RandomBits<T>(seed + 1, dstBytes / sizeof(T));
  const uint32_t rank = static_cast<uint32_t>(dstShape.size());
  std::vector<T> got, gotSrc;
  BroadcastTiling t{};
  On950({srcBytes, dstBytes}, [&](Bufs& b) {
    b.Put<T>(0, srcImg);
    b.Put<T>(1, dstImg);
    GetBroadcastTilingInfo<T, constRank>(rank, dstShape.data(), srcShape.data(), false, t);
    Broadcast<T, constRank>(b.Get<T>(1), b.Get<T>(0), dstShape.data(), srcShape.data(), &t);
    got = b.Take<T>(1);
    gotSrc = b.Take<T>(0);
  });
  const TilingR r = ReplayTiling(constRank, dstShape, srcShape);
  EXPECT_EQ(t.rank, r.rank);
  if (t.rank != r.rank) return got;
  EXPECT_EQ(t.srcSize, r.srcSize);
  EXPECT_EQ(t.dstSize, r.dstSize);
  for (uint32_t i = 0; i < r.rank; ++i) {
    EXPECT_EQ(t.dstShape[i], r.shape[i]) << "dim " << i;
    EXPECT_EQ(t.dstStride[i], r.dstStride[i]) << "dim " << i;
    EXPECT_EQ(t.srcStride[i], r.srcStride[i]) << "dim " << i;
  }
  Image<T> dst{dstImg};
  EXPECT_TRUE(ReplayRankN(dst, Image<T>{srcImg}, constRank, r)) << "the kit divides by 0";
  EXPECT_EQ(FirstDiff(got, dst.mem), "") << "dst";
  EXPECT_EQ(FirstDiff(gotSrc, srcImg), "") << "src";
  return got;
}

template <typename T>
bool Fits(const std::vector<uint32_t>& dst) {
  uint64_t n = sizeof(T);
  for (uint32_t d : dst) n *= d;
  return n <= kBuf;
}

// Last dims around the branch points: a block, below and at half a register, a register, above
// it aligned to a block and to a register, unaligned tails.
template <typename T>
std::vector<uint32_t> LastDims() {
  constexpr uint32_t VL = Lanes<T>(), blk = 32 / sizeof(T);
  return {2, 5, blk, 2 * blk, VL / 2 - 1, VL / 2, VL - 3, VL, VL + blk, VL + 5, 2 * VL};
}

// 3 dims, every broadcast pattern, constRank 3 (the 3-dim wrappers) and -1 (fused: the 2- and
// 3-dim wrappers and, for the unaligned widths, the dynamic path).
template <typename T>
void ThreeDims(uint32_t seed) {
  const std::vector<std::vector<uint32_t>> outer = {{3, 8}, {2, 16}, {5, 3}, {1, 7}, {4, 1}};
  for (uint32_t n : LastDims<T>()) {
    for (const auto& ab : outer) {
      const std::vector<uint32_t> dst = {ab[0], ab[1], n};
      if (!Fits<T>(dst)) continue;
      for (uint32_t mask = 1; mask < 8; ++mask) {
        Check<T, 3>(dst, SrcOf(dst, mask), ++seed);
        Check<T, -1>(dst, SrcOf(dst, mask), ++seed);
      }
    }
  }
}

TEST(BroadcastRankNReplay3510, ThreeDimWrappersEveryPath) {
  ThreeDims<float>(10000);
  ThreeDims<int32_t>(20000);
  ThreeDims<half>(30000);
  ThreeDims<bfloat16_t>(40000);
  ThreeDims<int8_t>(50000);
  ThreeDims<uint8_t>(60000);
}

template <typename T>
void FourDims(uint32_t seed) {
  constexpr uint32_t VL = Lanes<T>(), blk = 32 / sizeof(T);
  const std::vector<std::vector<uint32_t>> outer = {{2, 3, 8}, {3, 1, 2}, {2, 2, 16}};
  for (uint32_t n : {2u, 5u, blk, VL / 2 - 1, VL - 3, VL, VL + 5, 2 * VL}) {
    for (const auto& abc : outer) {
      const std::vector<uint32_t> dst = {abc[0], abc[1], abc[2], n};
      if (!Fits<T>(dst)) continue;
      for (uint32_t mask = 1; mask < 16; ++mask) {
        Check<T, 4>(dst, SrcOf(dst, mask), ++seed);
        Check<T, -1>(dst, SrcOf(dst, mask), ++seed);
      }
    }
  }
}

TEST(BroadcastRankNReplay3510, FourDimWrappersEveryPath) {
  FourDims<float>(110000);
  FourDims<int32_t>(120000);
  FourDims<half>(130000);
  FourDims<bfloat16_t>(140000);
  FourDims<int8_t>(150000);
  FourDims<uint8_t>(160000);
}

// Ranks 5 to 7 whose broadcast and equal dims alternate (5 to 7 fused dims: the dynamic path
// with its outer loops; the gathers of GatherWrapperForFourDim for 2- and 4-byte T), and random
// shapes of rank 1 to 6 under constRank -1 and 5.
template <typename T>
void Dynamic(uint32_t seed) {
  constexpr uint32_t VL = Lanes<T>(), blk = 32 / sizeof(T);
  for (uint32_t n : {3u, blk, VL / 2 - 1, VL - 3, VL, VL + 5}) {
    for (uint32_t first : {0u, 1u}) {  // the last dim broadcast or not
      for (const std::vector<uint32_t>& dst :
           {std::vector<uint32_t>{2, 3, 2, 3, n}, std::vector<uint32_t>{3, 2, 2, 3, 2, n},
            std::vector<uint32_t>{2, 2, 2, 2, 2, 2, n}}) {
        if (!Fits<T>(dst)) continue;
        uint32_t mask = 0;
        for (uint32_t i = 0; i < dst.size(); ++i) {
          if ((dst.size() - 1 - i) % 2 == first) mask |= 1u << i;
        }
        Check<T, -1>(dst, SrcOf(dst, mask), ++seed);
        if (dst.size() == 5) Check<T, 5>(dst, SrcOf(dst, mask), ++seed);
      }
    }
  }
  std::mt19937 gen(seed);
  const std::vector<uint32_t> sizes = {1, 2, 3, 4, 7, 8, 16, 33};
  for (int c = 0; c < 150; ++c) {
    std::vector<uint32_t> dst(1 + gen() % 6);
    for (uint32_t& d : dst) d = sizes[gen() % sizes.size()];
    dst.back() = gen() % 2 ? sizes[gen() % sizes.size()] : LastDims<T>()[gen() % 11];
    if (!Fits<T>(dst)) continue;
    const uint32_t mask = gen() % (1u << dst.size());
    if (dst.size() == 5) {
      Check<T, 5>(dst, SrcOf(dst, mask), ++seed);
    } else {
      Check<T, -1>(dst, SrcOf(dst, mask), ++seed);
    }
  }
}

TEST(BroadcastRankNReplay3510, DynamicRankPathAndRandomShapes) {
  Dynamic<float>(210000);
  Dynamic<int32_t>(220000);
  Dynamic<half>(230000);
  Dynamic<bfloat16_t>(240000);
  Dynamic<int8_t>(250000);
  Dynamic<uint8_t>(260000);
}

// 8-byte T: the tiling splits each element into two 4-byte units (a dim of 2 after a broadcast
// last dim, the last dim doubled otherwise, a loop over dim 0 at rank 9); the replay runs on
// those units.
template <typename T, int constRank>
void Check64(const std::vector<uint32_t>& dstShape, const std::vector<uint32_t>& srcShape,
             uint32_t seed) {
  SCOPED_TRACE(::testing::Message() << "8-byte constRank " << constRank << " dst "
                                    << Shape(dstShape) << " src " << Shape(srcShape));
  const std::vector<uint32_t> srcImg = RandomBits<uint32_t>(seed, kBuf / 4);
  const std::vector<uint32_t> dstImg = RandomBits<uint32_t>(seed + 1, kBuf / 4);
  const uint32_t rank = static_cast<uint32_t>(dstShape.size());
  std::vector<uint32_t> got, gotSrc;
  BroadcastTiling t{};
  On950({kBuf, kBuf}, [&](Bufs& b) {
    b.Put<uint32_t>(0, srcImg);
    b.Put<uint32_t>(1, dstImg);
    GetBroadcastTilingInfo<T, constRank>(rank, dstShape.data(), srcShape.data(), false, t);
    Broadcast<T, constRank>(b.Get<T>(1), b.Get<T>(0), dstShape.data(), srcShape.data(), &t);
    got = b.Take<uint32_t>(1);
    gotSrc = b.Take<uint32_t>(0);
  });
  const TilingR r = ReplayTiling(constRank, dstShape, srcShape, true);
  EXPECT_EQ(t.rank, r.rank);
  EXPECT_EQ(t.loopNum, r.loopNum);
  EXPECT_EQ(t.srcStride[9], r.srcStride[9]);
  for (uint32_t i = 0; i < std::min(r.rank, 9u); ++i) {
    EXPECT_EQ(t.dstShape[i], r.shape[i]) << "dim " << i;
    EXPECT_EQ(t.srcStride[i], r.srcStride[i]) << "dim " << i;
  }
  Image<uint32_t> dst{dstImg};
  EXPECT_TRUE(ReplayRankN(dst, Image<uint32_t>{srcImg}, constRank, r));
  EXPECT_EQ(FirstDiff(got, dst.mem), "") << "dst";
  EXPECT_EQ(FirstDiff(gotSrc, srcImg), "") << "src";
}

template <typename T>
void EightByte(uint32_t seed) {
  for (uint32_t n : {1u, 2u, 3u, 4u, 5u, 8u, 16u, 31u, 32u, 33u, 64u, 100u}) {
    for (uint32_t mask = 1; mask < 4; ++mask) {
      Check64<T, 2>({3, n}, SrcOf({3, n}, mask), ++seed);
      Check64<T, -1>({3, n}, SrcOf({3, n}, mask), ++seed);
      Check64<T, 1>({n}, {1}, ++seed);
    }
    for (uint32_t mask = 1; mask < 8; ++mask) {
      Check64<T, 3>({2, 3, n}, SrcOf({2, 3, n}, mask), ++seed);
      Check64<T, -1>({2, 3, n}, SrcOf({2, 3, n}, mask), ++seed);
    }
    for (uint32_t mask = 1; mask < 16; ++mask) {
      Check64<T, 4>({2, 2, 3, n}, SrcOf({2, 2, 3, n}, mask), ++seed);
      Check64<T, -1>({2, 2, 3, n}, SrcOf({2, 2, 3, n}, mask), ++seed);
    }
  }
  for (uint32_t n : {2u, 3u, 5u}) {  // rank 9, alternating: the loop over dim 0
    const std::vector<uint32_t> dst = {2, 2, 2, 2, 2, 2, 2, 2, n};
    Check64<T, 9>(dst, SrcOf(dst, 0x155), ++seed);
    Check64<T, -1>(dst, SrcOf(dst, 0x154), ++seed);
    Check64<T, -1>(dst, SrcOf(dst, 0x0AA), ++seed);
  }
}

TEST(BroadcastRankNReplay3510, EightByteAsPairsOfUnits) {
  EightByte<double>(310000);
  EightByte<uint64_t>(320000);
  EightByte<int64_t>(330000);
}

// 1-byte data on the 3-dim gather path (GatherWrapper: a last dim below 128) gathers through
// uint16_t index lanes (VfGenIndexB8, VfGatherBrcB8): the index arithmetic wraps, and the device
// reads src at the element's offset modulo 65536 once src passes 65536 elements.
TEST(BroadcastRankNReplay3510, OneByteGatherIndicesWrapModulo65536) {
  constexpr uint32_t kSrc = 70016, kDst = 140000;
  const std::vector<uint32_t> nlast = {700, 2, 100}, last = {700, 100, 2};
  const std::vector<uint8_t> got = Check<uint8_t, 3>(nlast, {700, 1, 100}, 11, kSrc, kDst);
  Check<uint8_t, -1>(nlast, {700, 1, 100}, 13, kSrc, kDst);
  Check<int8_t, 3>(nlast, {700, 1, 100}, 15, kSrc, kDst);
  Check<uint8_t, 3>(last, {700, 100, 1}, 17, kSrc, kDst);
  Check<int8_t, 3>(last, {700, 100, 1}, 19, kSrc, kDst);
  Check<int8_t, -1>({1000, 2, 70}, {1000, 1, 70}, 21, kSrc, kDst);
  // No wrap where 1-byte units are not gathered: 4 dims (LoadUnAlign runs), a fused last dim
  // of 128 or more (the dynamic path's runs).
  Check<uint8_t, 4>({2, 350, 2, 100}, {2, 350, 1, 100}, 23, kSrc, kDst);
  Check<uint8_t, 3>({350, 2, 200}, {350, 1, 200}, 27, kSrc, kDst);
  Check<int8_t, -1>({2, 2, 350, 100}, {2, 1, 350, 100}, 25, kSrc, kDst);
  // Row 699 of dst (src offset 69900) reads src[69900 - 65536] on: the wrap, not the broadcast.
  const std::vector<uint8_t> src = RandomBits<uint8_t>(11, kSrc / sizeof(uint8_t));
  ASSERT_EQ(got.size(), kDst);
  for (uint32_t j = 0; j < 2; ++j) {
    for (uint32_t k = 0; k < 100; ++k) {
      EXPECT_EQ(got[699 * 200 + j * 100 + k], src[69900 - 65536 + k]) << j << ", " << k;
    }
  }
}

// A dst dim of exactly 65536 passes DstShapeCheck (at most 65536) and reads 0 in the register
// paths' 16-bit sizes. Session 16 (helper aqn3): every shape of 2, 3 and 4 dims with one dim of
// 65536 and the others 1, 2 or 3 (at most 3 units a row, so that src and dst fit the UB), every
// broadcast pattern, constRank the rank and -1, 1-byte data (wider data does not fit): lngrad
// unchecked against the replay, the whole dst and src buffers, wherever the replay defines the
// result; checked mode refuses, saying the device reads 0 for that dim, exactly where the
// replay's result is not the broadcast (the 2- and 4-dim wrappers write nothing) or undefined
// (GatherWrapper with a last dim of 65536 divides by 0), and elsewhere (GatherWrapper with 65536
// in dim 0 or 1) runs and matches the replay. The 1- and 2-dim form likewise.
struct Dim65536Case {
  std::vector<uint32_t> dst, src;
};

std::vector<Dim65536Case> Dim65536Cases() {
  std::vector<Dim65536Case> r;
  const std::vector<std::vector<uint32_t>> others[3] = {
      {{2}, {3}},
      {{1, 1}, {1, 2}, {2, 1}, {1, 3}, {3, 1}},
      {{1, 1, 1}, {2, 1, 1}, {1, 2, 1}, {1, 1, 2}, {3, 1, 1}, {1, 3, 1}, {1, 1, 3}}};
  for (uint32_t rank = 2; rank <= 4; ++rank) {
    for (uint32_t at = 0; at < rank; ++at) {
      for (const auto& o : others[rank - 2]) {
        std::vector<uint32_t> dst;
        for (uint32_t i = 0, k = 0; i < rank; ++i) dst.push_back(i == at ? 65536 : o[k++]);
        for (uint32_t mask = 1; mask < (1u << rank); ++mask) {
          bool distinct = true;  // a mask bit on a dim of 1 repeats another mask
          for (uint32_t i = 0; i < rank; ++i)
            distinct = distinct && !(mask >> i & 1u && dst[i] == 1);
          const std::vector<uint32_t> src = SrcOf(dst, mask);
          uint64_t ns = 1, nd = 1;
          for (uint32_t i = 0; i < rank; ++i) ns *= src[i], nd *= dst[i];
          // The UB (253952 bytes on the 950) holds src (whole blocks) and dst.
          const bool fits = (ns + 31) / 32 * 32 + nd <= 253952;
          if (distinct && fits && ns != 1 && ns != nd) r.push_back({dst, src});
        }
      }
    }
  }
  return r;
}

// numpy's broadcast of src into the start of dst.
std::vector<uint8_t> Broadcasted(std::vector<uint8_t> dst, const std::vector<uint8_t>& src,
                                 const Dim65536Case& c) {
  const size_t rank = c.dst.size();
  uint64_t n = 1;
  for (uint32_t d : c.dst) n *= d;
  for (uint64_t k = 0; k < n; ++k) {
    uint64_t rest = k, from = 0, dstStride = n;
    for (size_t i = 0; i < rank; ++i) {
      dstStride /= c.dst[i];
      const uint64_t idx = rest / dstStride;
      rest %= dstStride;
      uint64_t inner = 1;
      for (size_t j = i + 1; j < rank; ++j) inner *= c.src[j];
      from += (c.src[i] == 1 ? 0 : idx) * inner;
    }
    dst[k] = src[from];
  }
  return dst;
}

template <int constRank>
void CheckDim65536(const Dim65536Case& c, uint32_t seed, int* kinds) {
  SCOPED_TRACE(::testing::Message()
               << "constRank " << constRank << " dst " << Shape(c.dst) << " src " << Shape(c.src));
  uint32_t kSrc = 1, kDst = 1;
  for (size_t i = 0; i < c.dst.size(); ++i) kSrc *= c.src[i], kDst *= c.dst[i];
  kSrc = (kSrc + 31) / 32 * 32;
  const std::vector<uint8_t> srcImg = RandomBits<uint8_t>(seed, kSrc);
  const std::vector<uint8_t> dstImg = RandomBits<uint8_t>(seed + 1, kDst);
  const uint32_t rank = static_cast<uint32_t>(c.dst.size());
  const auto run = [&](Bufs& b, std::vector<uint8_t>& got, std::vector<uint8_t>& gotSrc) {
    b.Put<uint8_t>(0, srcImg);
    b.Put<uint8_t>(1, dstImg);
    BroadcastTiling t{};
    GetBroadcastTilingInfo<uint8_t, constRank>(rank, c.dst.data(), c.src.data(), false, t);
    Broadcast<uint8_t, constRank>(b.Get<uint8_t>(1), b.Get<uint8_t>(0), c.dst.data(), c.src.data(),
                                  &t);
    got = b.Take<uint8_t>(1);
    gotSrc = b.Take<uint8_t>(0);
  };
  Image<uint8_t> want{dstImg};
  const bool defined =
      ReplayRankN(want, Image<uint8_t>{srcImg}, constRank, ReplayTiling(constRank, c.dst, c.src));
  const bool right = defined && want.mem == Broadcasted(dstImg, srcImg, c);
  ++kinds[!defined ? 0 : right ? 1 : 2];
  std::vector<uint8_t> got, gotSrc;
  SetCheckedMode(false);
  On950({kSrc, kDst}, [&](Bufs& b) { run(b, got, gotSrc); });
  SetCheckedMode(true);
  if (defined) {
    EXPECT_EQ(FirstDiff(got, want.mem), "") << "unchecked";
  }
  EXPECT_EQ(FirstDiff(gotSrc, srcImg), "") << "src, unchecked";
  got.clear();
  const auto r = CheckOn950({kSrc, kDst}, [&](Bufs& b) { run(b, got, gotSrc); });
  if (right) {
    EXPECT_EQ(r.first, "") << r.second;
    EXPECT_EQ(FirstDiff(got, want.mem), "") << "checked";
  } else {
    EXPECT_EQ(r.first, "transform_params") << r.second;
    EXPECT_NE(r.second.find("the device reads 0 for that dim"), std::string::npos) << r.second;
    EXPECT_NE(r.second.find(defined ? "writes nothing" : "divides by 0"), std::string::npos)
        << r.second;
  }
}

TEST(BroadcastRankNReplay3510, ADimOf65536FollowsTheDevice) {
  int kinds[3] = {};  // undefined, the broadcast, another result
  uint32_t seed = 70000;
  for (const Dim65536Case& c : Dim65536Cases()) {
    seed += 2;
    CheckDim65536<-1>(c, seed, kinds);
    if (c.dst.size() == 2) CheckDim65536<2>(c, seed, kinds);
    if (c.dst.size() == 3) CheckDim65536<3>(c, seed, kinds);
    if (c.dst.size() == 4) CheckDim65536<4>(c, seed, kinds);
  }
  EXPECT_GT(kinds[0], 0) << "no case divides by 0";
  EXPECT_GT(kinds[1], 0) << "no case computes the broadcast";
  EXPECT_GT(kinds[2], 0) << "no case writes something else";
  // The device's empty result, shown: constRank 2 along either dim.
  Image<uint8_t> dst{std::vector<uint8_t>(131072, 7)};
  const Image<uint8_t> src{RandomBits<uint8_t>(1, 65536)};
  EXPECT_TRUE(ReplayRankN(dst, src, 2, ReplayTiling(2, {65536, 2}, {65536, 1})));
  EXPECT_TRUE(ReplayRankN(dst, src, -1, ReplayTiling(-1, {2, 65536}, {1, 65536})));
  EXPECT_EQ(FirstDiff(dst.mem, std::vector<uint8_t>(131072, 7)), "") << "the kit writes nothing";
  // The paths whose counts are 32 bits (equal sizes: DataCopy; one source element:
  // BrcDuplicate) keep it in checked mode.
  Check<uint8_t, 2>({65536, 1}, {65536, 1}, 31, 65536, 65536);
  Check<uint8_t, 2>({65536, 2}, {1, 1}, 33, 32, 131072);
}

// The 1- and 2-dim form: BrcLast/NlastWrapperForTwoDim read the dim of 65536 as 0 and write
// nothing (the replay's constRank-2 wrappers, which are the same functions).
template <int axis>
void CheckDimForm65536(const std::vector<uint32_t>& d, const std::vector<uint32_t>& s,
                       uint32_t seed) {
  SCOPED_TRACE(::testing::Message() << "dim form axis " << axis << " dst " << Shape(d));
  const uint32_t kSrc = (s[0] * s[1] + 31) / 32 * 32, kDst = d[0] * d[1];
  const std::vector<uint8_t> srcImg = RandomBits<uint8_t>(seed, kSrc);
  const std::vector<uint8_t> dstImg = RandomBits<uint8_t>(seed + 1, kDst);
  std::vector<uint8_t> got;
  const auto run = [&](Bufs& b) {
    b.Put<uint8_t>(0, srcImg);
    b.Put<uint8_t>(1, dstImg);
    LocalTensor<uint8_t> tmp = b.Get<uint8_t>(2);
    Broadcast<uint8_t, 2, axis>(b.Get<uint8_t>(1), b.Get<uint8_t>(0), d.data(), s.data(), tmp);
    got = b.Take<uint8_t>(1);
  };
  Image<uint8_t> want{dstImg};
  EXPECT_TRUE(ReplayRankN(want, Image<uint8_t>{srcImg}, 2, ReplayTiling(2, d, s)));
  EXPECT_EQ(want.mem, dstImg) << "the replay writes nothing";
  SetCheckedMode(false);
  On950({kSrc, kDst, 1024}, run);
  SetCheckedMode(true);
  EXPECT_EQ(FirstDiff(got, want.mem), "") << "unchecked";
  const auto r = CheckOn950({kSrc, kDst, 1024}, run);
  EXPECT_EQ(r.first, "transform_params") << r.second;
  EXPECT_NE(r.second.find("the device reads 0 for that dim"), std::string::npos) << r.second;
  EXPECT_NE(r.second.find("writes nothing"), std::string::npos) << r.second;
}

TEST(BroadcastRankNReplay3510, DimFormWithADimOf65536FollowsTheDevice) {
  CheckDimForm65536<1>({65536, 2}, {65536, 1}, 90);
  CheckDimForm65536<1>({3, 65536}, {3, 1}, 92);
  CheckDimForm65536<0>({2, 65536}, {1, 65536}, 94);
  CheckDimForm65536<0>({65536, 3}, {1, 3}, 96);
}

}  // namespace
