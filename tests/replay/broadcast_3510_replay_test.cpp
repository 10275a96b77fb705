// lngrad's Broadcast on the 950 (Ascend950PR_9589), the 1- and 2-dim form
// Broadcast<T, dim, axis> and the rank-N form with constRank 2, compared bit for bit with a
// replay of the kit's register code (commit 82b89a15f): broadcast_common_impl.h's
// BroadCastCommon (the strides) and BroadcastCompute<T, dim> (DstShapeCheck; equal sizes:
// DataCopy of the count rounded up to 32 bytes; one source element: BrcDuplicate; otherwise the
// last-dim or not-last-dim wrapper), and broadcast_3510_impl.h's BrcLastWrapperForTwoDim and
// BrcNlastWrapperForTwoDim with every function they call: the E2B and BRC loads, the index
// registers (GenLastGatherIndex, GenNlastGatherIndex, GatherB's block offsets 0 / 32 / 64),
// Gather with B8's two half-register gathers and DeInterleave, the masked aligned stores and
// the unaligned runs (the replay: broadcast_3510_replay.h; the rank-N form's other paths:
// broadcast_rank_n_3510_replay_test.cpp). Provenance: a separate reading of the kit's source by the
// helper who then changed lib/broadcast (the same person; lngrad's headers had been read before).
#include <cstdint>
#include <vector>

#include "broadcast_3510_replay.h"

namespace {

using namespace AscendC;
using namespace lngrad_replay::transform3510;

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
    b.Last(U16(dstShape[0]), U16(dstShape[1]));
  } else {
    b.Nlast(U16(dstShape[0]), U16(dstShape[1]));
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
