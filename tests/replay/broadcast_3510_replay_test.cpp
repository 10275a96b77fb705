// lngrad's Broadcast on the 950 (Ascend950PR_9589), the 1- and 2-dim form
// Broadcast<T, dim, axis> and the rank-N form with constRank 2, compared bit for bit with a
// replay of the kit's register code (commit 82b89a15f): broadcast_common_impl.h's
// BroadCastCommon (the strides) and BroadcastCompute<T, dim> (DstShapeCheck; equal sizes:
// DataCopy of the count rounded up to 32 bytes; one source element: BrcDuplicate; otherwise the
// last-dim or not-last-dim wrapper), and broadcast_3510_impl.h's BrcLastWrapperForTwoDim and
// BrcNlastWrapperForTwoDim with every function they call: the E2B and BRC loads, the index
// registers (GenLastGatherIndex, GenNlastGatherIndex, GatherB's block offsets 0 / 32 / 64),
// Gather with B8's two half-register gathers and DeInterleave, the masked aligned stores and
// the unaligned runs. The rank-N form's 3- and 4-dim and dynamic paths (broadcast_3510_impl.h,
// broadcast_gather_3510_impl.h) were read, not replayed (docs/ascendc_kernels.md says what they
// write). Provenance: a separate reading of the kit's source by the helper who then changed
// lib/broadcast (the same person; lngrad's headers had been read before).
#include <cstdint>
#include <vector>

#include "transform_3510_replay_util.h"

namespace {

using namespace AscendC;
using namespace lngrad_replay::transform3510;

// ---- The replay ----

template <typename T>
struct Brc {
  static constexpr uint32_t VL = Lanes<T>(), kHalf = VL / 2, kBlk = 32 / sizeof(T);
  Image<T>& dst;
  const Image<T>& src;
  size_t cur = 0;  // the unaligned stores' address

  T At(size_t i) const { return i < src.mem.size() ? src.mem[i] : T{}; }
  std::vector<T> BrcLoad(size_t at) const { return std::vector<T>(VL, At(at)); }
  std::vector<T> E2bLoad(size_t at) const {  // 8 elements, each to one 32-byte block
    std::vector<T> r(VL);
    for (uint32_t l = 0; l < VL; ++l) r[l] = At(at + l / kBlk);
    return r;
  }
  // Gather by an index register of the index type; B8 gathers two registers of 16-bit lanes
  // and DeInterleave keeps their low bytes: lanes [0, 128) from the first, the rest from the
  // second.
  std::vector<T> Gather(const std::vector<uint32_t>& i1, const std::vector<uint32_t>& i2) const {
    std::vector<T> r(VL);
    for (uint32_t l = 0; l < VL; ++l) {
      r[l] = sizeof(T) == 1 ? At(l < kHalf ? i1[l] : i2[l - kHalf]) : At(i1[l]);
    }
    return r;
  }
  // GenLastGatherIndex (nlast = false: (offset + l) / size1) and GenNlastGatherIndex
  // ((offset + l) mod size1), for the lanes of the index type.
  static std::vector<uint32_t> Index(uint32_t size1, uint32_t offset, bool nlast) {
    const uint32_t lanes = sizeof(T) == 1 ? kHalf : VL;
    std::vector<uint32_t> r(lanes);
    for (uint32_t l = 0; l < lanes; ++l) {
      const uint32_t v = offset + l, q = v / size1;
      r[l] = nlast ? v - q * size1 : q;
    }
    return r;
  }
  static std::vector<uint32_t> Plus(const std::vector<uint32_t>& v, uint32_t k) {
    std::vector<uint32_t> r(v);
    for (uint32_t& x : r) x = sizeof(T) == 4 ? x + k : (x + k) & 0xFFFFu;
    return r;
  }
  void Run(const std::vector<T>& reg, uint32_t n) { dst.StoreRun(cur, reg, n); }

  void Last(uint32_t s0, uint32_t s1) {  // BrcLastWrapperForTwoDim<T, 2>
    if (s1 == kBlk && sizeof(T) != 1) {  // BrcLastE2B
      uint32_t sreg = s0 * s1;
      for (uint32_t i = 0; i < (s0 + VL / s1 - 1) / (VL / s1); ++i) {
        const std::vector<bool> m = UpdateMask(sreg, VL);
        dst.StoreMasked(size_t{i} * VL, E2bLoad(size_t{i} * 8), m);
      }
    } else if (s1 < kHalf) {
      const std::vector<uint32_t> i1 = Index(s1, 0, false), i2 = Index(s1, kHalf, false);
      if (s0 * s1 < VL) {  // BrcLastGatherOne
        dst.StoreMasked(0, Gather(i1, i2), FirstLanes(s0 * s1, VL));
        return;
      }
      GatherTwo(s0, s1, i1, i2, true);  // BrcLastGatherTwo
    } else if (s1 <= VL) {              // BrcLastLessThanVLUnaligned
      for (uint32_t i = 0; i < s0; ++i) Run(BrcLoad(i), s1);
    } else if (s1 % kBlk == 0) {  // BrcLastLargerThanVLAligned
      for (uint32_t i = 0; i < s0; ++i) {
        uint32_t sreg = s1;
        for (uint32_t j = 0; j < (s1 + VL - 1) / VL; ++j) {
          const std::vector<bool> m = UpdateMask(sreg, VL);
          dst.StoreMasked(size_t{i} * s1 + size_t{j} * VL, BrcLoad(i), m);
        }
      }
    } else {  // BrcLastLargerThanVLUnaligned
      for (uint32_t i = 0; i < s0; ++i) {
        for (uint32_t j = 0; j < s1 / VL; ++j) Run(BrcLoad(i), VL);
        Run(BrcLoad(i), s1 % VL);
      }
    }
  }

  // BrcLastGatherTwo (moving: each repeat adds factor * i to the index) and BrcNlastGatherTwo
  // (one gather stored repeatedly).
  void GatherTwo(uint32_t s0, uint32_t s1, const std::vector<uint32_t>& i1,
                 const std::vector<uint32_t>& i2, bool moving) {
    const uint32_t factor = VL / s1, repeat = (s0 + factor - 1) / factor - 1, main = factor * s1;
    const uint32_t tail = s0 * s1 - main * repeat;
    for (uint32_t i = 0; i < repeat; ++i) {
      Run(moving ? Gather(Plus(i1, factor * i), Plus(i2, factor * i)) : Gather(i1, i2), main);
    }
    const uint32_t offset = moving ? factor * repeat : 0;
    Run(Gather(Plus(i1, offset), Plus(i2, offset)), tail);
  }

  void Nlast(uint32_t s0, uint32_t s1) {  // BrcNlastWrapperForTwoDim<T, 2>
    if (s1 < kHalf && s1 % kBlk == 0) {   // GatherB with the scalar-written block offsets
      const uint32_t blocks = s1 / kBlk;
      const uint32_t offs[3][8] = {
          {0, 0, 0, 0, 0, 0, 0, 0}, {0, 32, 0, 32, 0, 32, 0, 32}, {0, 32, 64, 0, 32, 64, 0, 0}};
      std::vector<T> reg(VL);
      for (uint32_t b = 0; b < 8; ++b) {
        for (uint32_t e = 0; e < kBlk; ++e)
          reg[b * kBlk + e] = At(offs[blocks - 1][b] / sizeof(T) + e);
      }
      if (s0 * s1 < VL) {  // BrcNlastGatherBOne
        dst.StoreMasked(0, reg, FirstLanes(s0 * s1, VL));
        return;
      }
      const uint32_t factor = VL / s1, repeat = (s0 + factor - 1) / factor - 1, main = factor * s1;
      for (uint32_t i = 0; i < repeat; ++i)
        dst.StoreMasked(size_t{i} * main, reg, FirstLanes(main, VL));
      dst.StoreMasked(size_t{main} * repeat, reg, FirstLanes(s0 * s1 - main * repeat, VL));
    } else if (s1 < kHalf) {
      const std::vector<uint32_t> i1 = Index(s1, 0, true), i2 = Index(s1, kHalf, true);
      if (s0 * s1 < VL) {  // BrcNlastGatherOne
        dst.StoreMasked(0, Gather(i1, i2), FirstLanes(s0 * s1, VL));
        return;
      }
      GatherTwo(s0, s1, i1, i2, false);
    } else if (s1 <= VL) {  // BrcNlastLessThanVLUnaligned
      for (uint32_t i = 0; i < s0; ++i) Run(src.Load(0), s1);
    } else if (s1 % kBlk == 0 && s1 % VL == 0 && s0 > 8) {  // ...AlignedWithVL
      for (uint32_t i = 0; i < (s1 + VL - 1) / VL; ++i) {
        for (uint32_t j = 0; j < s0; ++j) {
          dst.StoreMasked(size_t{i} * VL + size_t{j} * s1, src.Load(size_t{i} * VL),
                          FirstLanes(VL, VL));
        }
      }
    } else if (s1 % kBlk == 0) {  // ...AlignedWithBlock
      for (uint32_t i = 0; i < s0; ++i) {
        uint32_t sreg = s1;
        for (uint32_t j = 0; j < (s1 + VL - 1) / VL; ++j) {
          const std::vector<bool> m = UpdateMask(sreg, VL);
          dst.StoreMasked(size_t{i} * s1 + size_t{j} * VL, src.Load(size_t{j} * VL), m);
        }
      }
    } else {  // BrcNlastLargerThanVLUnaligned
      const std::vector<T> tmp = src.Load(size_t{s1 / VL} * VL);
      for (uint32_t i = 0; i < s0; ++i) {
        for (uint32_t j = 0; j < s1 / VL; ++j) Run(src.Load(size_t{j} * VL), VL);
        Run(tmp, s1 % VL);
      }
    }
  }
};

// BroadCastCommon + BroadcastCompute<T, dim> (dim 1 or 2).
template <typename T>
void ReplayBroadcast(Image<T>& dst, const Image<T>& src, const std::vector<uint32_t>& dstShape,
                     const std::vector<uint32_t>& srcShape) {
  const uint32_t dim = static_cast<uint32_t>(dstShape.size());
  uint32_t srcSize = 1, dstSize = 1, lastSrc = 1;
  std::vector<uint32_t> srcStride(dim);
  for (uint32_t i = 0; i < dim; ++i) {
    srcSize *= srcShape[i];
    dstSize *= dstShape[i];
  }
  for (uint32_t i = dim; i-- > 0;) {
    const bool brc = srcShape[i] == 1 && dstShape[i] != 1;
    srcStride[i] = brc ? 0 : lastSrc;
    if (!brc) lastSrc *= srcShape[i];
  }
  Brc<T> b{dst, src};
  if (srcSize == dstSize) {  // DataCopy(dst, src, AlignUp(dstSize, 32 / sizeof(T)))
    const uint32_t n = (dstSize + b.kBlk - 1) / b.kBlk * b.kBlk;
    for (uint32_t i = 0; i < n; ++i) dst.mem.at(i) = src.mem.at(i);
  } else if (srcSize == 1) {  // BrcDuplicate
    uint32_t sreg = dstSize;
    for (uint32_t i = 0; i < (dstSize + b.VL - 1) / b.VL; ++i) {
      const std::vector<bool> m = UpdateMask(sreg, b.VL);
      dst.StoreMasked(size_t{i} * b.VL, b.BrcLoad(0), m);
    }
  } else if (srcStride[dim - 1] == 0) {
    b.Last(dstShape[0], dstShape[1]);
  } else {
    b.Nlast(dstShape[0], dstShape[1]);
  }
}

// ---- lngrad against the replay ----

constexpr uint32_t kBuf = 32768;

template <typename T, int32_t dim, int32_t axis>
void Check(std::vector<uint32_t> dstShape, std::vector<uint32_t> srcShape, uint32_t seed) {
  SCOPED_TRACE(::testing::Message() << "Broadcast " << sizeof(T) << "-byte dim " << dim << " axis "
                                    << axis << " dst " << dstShape[0] << "x" << dstShape.back()
                                    << " src " << srcShape[0] << "x" << srcShape.back());
  const std::vector<T> srcImg = RandomBits<T>(seed, kBuf / sizeof(T));
  const std::vector<T> dstImg = RandomBits<T>(seed + 1, kBuf / sizeof(T));
  std::vector<T> got, gotRankN;
  On950({kBuf, kBuf, 4096}, [&](Bufs& b) {
    b.Put<T>(0, srcImg);
    b.Put<T>(1, dstImg);
    LocalTensor<uint8_t> tmp = b.Get<uint8_t>(2);
    // The tensors are the buffers: equal sizes copy the count rounded up to 32 bytes.
    Broadcast<T, dim, axis>(b.Get<T>(1), b.Get<T>(0), dstShape.data(), srcShape.data(), tmp);
    got = b.Take<T>(1);
    if constexpr (dim == 2) {
      b.Put<T>(1, dstImg);
      BroadcastTiling t;
      GetBroadcastTilingInfo<T, 2>(2, dstShape.data(), srcShape.data(), false, t);
      Broadcast<T, 2>(b.Get<T>(1), b.Get<T>(0), dstShape.data(), srcShape.data(), &t);
      gotRankN = b.Take<T>(1);
    }
  });
  Image<T> dst{dstImg};
  ReplayBroadcast(dst, Image<T>{srcImg}, dstShape, srcShape);
  EXPECT_EQ(FirstDiff(got, dst.mem), "") << "the dim form";
  if (dim == 2) {
    EXPECT_EQ(FirstDiff(gotRankN, dst.mem), "") << "the rank-N form, constRank 2";
  }
}

template <typename T>
void EveryPath(uint32_t seed) {
  constexpr uint32_t VL = Lanes<T>(), blk = 32 / sizeof(T);
  // Along the last dim (axis 1): E2B, one gather, repeated gathers, one register a row, whole
  // blocks and other widths above a register.
  for (uint32_t n : {blk, 5u, 7u, VL / 2 - 1, VL / 2, VL - 3, VL, VL + 2 * blk, 2 * VL + 3}) {
    for (uint32_t m : {3u, 20u, 41u}) Check<T, 2, 1>({m, n}, {m, 1}, ++seed);
  }
  // Along the first dim (axis 0): GatherB with 1 to 3 blocks, gathers, one register, whole
  // registers with more than 8 rows, whole blocks, other widths.
  for (uint32_t n : {blk, 2 * blk, 3 * blk, 5u, VL / 2 - 3, VL / 2, VL, 2 * VL, VL + blk, VL + 5}) {
    for (uint32_t m : {2u, 9u, 30u}) Check<T, 2, 0>({m, n}, {1, n}, ++seed);
  }
  Check<T, 2, 0>({5, 13}, {5, 13}, ++seed);  // equal: 65 elements, rounded up to a block
  Check<T, 2, 1>({7, 3}, {1, 1}, ++seed);    // one source element
  Check<T, 1, 0>({37}, {1}, ++seed);
  Check<T, 1, 0>({37}, {37}, ++seed);
}

TEST(BroadcastReplay3510, EveryPathOfTheTwoDimWrappers) {
  EveryPath<float>(1000);
  EveryPath<int32_t>(2000);
  EveryPath<half>(3000);
  EveryPath<bfloat16_t>(4000);
  EveryPath<int8_t>(5000);
  EveryPath<uint8_t>(6000);
}

// BroadcastInternal::DstShapeCheck asserts every dst dim at most 65536 before any branch: for
// the dim form's dims and the rank-N form's fused dims (equal shapes included).
TEST(BroadcastReplay3510, CheckedModeRefusesDimsAbove65536) {
  const auto dimForm = CheckOn950({kBuf, kBuf, 4096}, [](Bufs& b) {
    const uint32_t dst[2] = {2, 70000}, src[2] = {2, 1};
    LocalTensor<uint8_t> tmp = b.Get<uint8_t>(2);
    Broadcast<int8_t, 2, 1>(b.Get<int8_t>(1), b.Get<int8_t>(0), dst, src, tmp);
  });
  EXPECT_EQ(dimForm.first, "transform_params") << dimForm.second;
  EXPECT_NE(dimForm.second.find("uint16"), std::string::npos) << dimForm.second;
  const auto rankN = CheckOn950({kBuf, kBuf, 4096}, [](Bufs& b) {
    const uint32_t shape[2] = {300, 300};  // fused into one dim of 90000
    BroadcastTiling t;
    GetBroadcastTilingInfo<int8_t>(2, shape, shape, false, t);
    Broadcast<int8_t>(b.Get<int8_t>(1), b.Get<int8_t>(0), shape, shape, &t);
  });
  EXPECT_EQ(rankN.first, "transform_params") << rankN.second;
  EXPECT_NE(rankN.second.find("uint16"), std::string::npos) << rankN.second;
}

}  // namespace
