// SoftMax's constant-shape config on 2201 (config.oriSrcM and config.oriSrcK both non-zero),
// replayed from a reading of membase/v220/softmax_impl.h (both SoftMaxNDImpl overloads with
// statistics, and the one without), membase/common/softmax_impl/softmax_generic_nd_impl.h
// (SoftMaxNDExtImpl, SoftMaxGenericNDImpl) and membase/v220/softmax_common_impl/
// softmax_common_nd_reduce.h (NewReduce{Max,Sum}LastNDImpl: row i of a split read at i *
// reduceParam.srcK) of the toolkit at commit 82b89a15f. A separate reading by sfxc, the same
// helper who then changed lngrad (include/ascendc/adv/lib/activation/softmax.h), written before
// comparing with it; it shares no code with src/ or include/ascendc/adv. The row reductions are
// the other replay file's (SmxRowMax, SmxRowSum: one row of NewReduce*LastNDImpl; SoftmaxFlashV2's
// max SmxKitRowMax, the kit's order with NaN and zero ties). Built with
// lngrad_strict_fp: every float operation rounds alone.
//
// What the source does with the config set: the shape test (oriSrcK % 64 == 0, oriSrcK < 2048,
// oriSrcM % 8 == 0) takes SoftMaxBasicBlock with the tiling, whatever isBasicBlock (with
// statistics only); otherwise the generic loop over the tiling's splits with a ReduceLastND of
// originalSrcK = config.oriSrcK, srcK = splitK = config.oriSrcK rounded up to 8, dstK = 16 for
// half data with half statistics, else 8. The Sub, Exp, Div and the casts keep the tiling's
// srcK and split sizes; only the reductions use splitK as their row stride.
#include <cmath>
#include <type_traits>
#include <vector>

#include "replay_softmax.h"

namespace lngrad_replay {
namespace {

constexpr uint32_t kBlk = 8;  // FLOAT_NUM_PER_BLK

// Exp of §2: in double, rounded once to float.
float ExpOf(float x) { return static_cast<float>(std::exp(static_cast<double>(x))); }

template <class T>
T Narrow(float v) {
  if constexpr (std::is_same_v<T, Half>) {
    return FloatToHalfRoundAway(v);  // FLOAT2HALF_ROUND_MODE on 2201
  } else {
    return v;
  }
}

// One split of the generic loop: rows n at offset1 (src/dst) and offset2 (statistics). x is the
// split's splitSize values in float (half: tmpBuffer0 after the Cast; float: src, then dst).
// Max reads x at row stride splitK, Sub writes x - max at stride srcK, Exp over all of it, Sum
// reads at stride splitK again, Div at srcK. Returns through e the split's results in float.
struct Split {
  uint32_t offset1, offset2, rows;
};

template <class T, class S>
void CfgSplit(const SmxTiling& t, const Split& sp, uint32_t cfgK, uint32_t statK,
              const CfgIo<T, S>& io) {
  const uint32_t splitK = (cfgK + kBlk - 1) / kBlk * kBlk;
  const uint32_t n = sp.rows * t.srcK;
  std::vector<float> x(n), mx(sp.rows), sm(sp.rows);
  for (uint32_t j = 0; j < n; ++j) x[j] = ToFloat(io.src[sp.offset1 + j]);
  // NewReduceMaxLastNDImpl's lanes for a split of sp.rows rows (NaN and ±0 ties as the kit's
  // operand order gives them; cfg session 22: the adjacent-pair tree before).
  for (uint32_t i = 0; i < sp.rows; ++i) {
    mx[i] = SmxKitRowMax(x.data() + i * splitK, cfgK, sp.rows, false);
  }
  // GenericSubNDImpl / GenericDivNDImpl read column c of row r from the work buffer's float
  // r * reduceK + c % 8; the reductions' broadcast (AlignedBroadCastImpl, then the Copy back)
  // left row i's value on floats i * statK .. i * statK + statK - 1 (sfx7's reading: with the
  // kernel's re-tile of half data without statistics, reduceK 8 against statK 16).
  auto at = [&](uint32_t j) { return (j / t.srcK * t.reduceK + j % t.srcK % kBlk) / statK; };
  for (uint32_t j = 0; j < n; ++j) x[j] = ExpOf(x[j] - mx[at(j)]);
  // float + isReuseSource (no statistics): Exp writes src, the Sum and the Div read it there.
  if (io.reuseSrc) {
    for (uint32_t j = 0; j < n; ++j) io.src[sp.offset1 + j] = Narrow<T>(x[j]);
  }
  for (uint32_t i = 0; i < sp.rows; ++i) sm[i] = SmxRowSum(x.data() + i * splitK, cfgK);
  for (uint32_t j = 0; j < n; ++j) io.dst[sp.offset1 + j] = Narrow<T>(x[j] / sm[at(j)]);
  if (io.sum == nullptr) return;
  for (uint32_t i = 0; i < sp.rows; ++i) {
    for (uint32_t l = 0; l < statK; ++l) {
      io.max[sp.offset2 + i * statK + l] = Narrow<S>(mx[i]);
      io.sum[sp.offset2 + i * statK + l] = Narrow<S>(sm[i]);
    }
  }
}

}  // namespace

template <class T, class S>
void ReplaySoftMaxConfig(const SmxTiling& t, uint32_t cfgM, uint32_t cfgK, const CfgIo<T, S>& io) {
  const bool shapeBasic = cfgK % 64 == 0 && cfgK < 2048 && cfgM % kBlk == 0;
  if (io.sum != nullptr && shapeBasic) {
    ReplaySoftMax(t, cfgK, io.src, io.dst, io.sum, io.max, true);
    return;
  }
  const uint32_t statK = std::is_same_v<T, Half> && std::is_same_v<S, Half> ? 2 * kBlk : kBlk;
  // SoftMaxNDExtImpl's / SoftMaxNDImpl's loop: `i <= rangeM`, the tail entered after split
  // rangeM - 1 (the first split runs even with rangeM = 0).
  Split sp{0, 0, t.splitM};
  for (uint32_t i = 0; i <= t.rangeM; ++i) {
    CfgSplit(t, sp, cfgK, statK, io);
    sp.offset1 += t.splitSize;
    sp.offset2 += t.reduceSize;
    if (i == t.rangeM - 1) {
      if (t.tailM == 0) break;
      sp = {t.rangeM * t.splitSize, t.rangeM * t.reduceSize, t.tailM};
    }
  }
}

// ---- SoftmaxFlashV2 with the constant-shape config in the broadcast mode (sfx6's reading of
// membase/common/softmax_flashv2_impl/softmax_flashv2_{common,no_update,update}_impl.h at commit
// 82b89a15f, the same helper who then changed lngrad's softmaxflashv2.h; written before comparing
// with it). Outside the config's basic shape, SoftmaxFlashV2NoUpdate / SoftmaxFlashV2NDImpl build
// a ReduceLastND of originalSrcK = config.oriSrcK, srcK = splitK (config.oriSrcK rounded up to
// 8) and dstK = 32 bytes of the statistics, and run SoftmaxFlashV2NoUpdateExtImpl /
// SoftmaxFlashV2NDExtImpl's split loop: NewReduceMaxLastNDImpl and NewReduceSumLastNDImpl read
// row i of the split at i * splitK, GenericSubNDImpl subtracts at the tiling's srcK (lane c % 8
// of the row's statistics at the tiling's reduceK), Exp and the casts cover the split's
// splitSize elements. The update's statistic steps run lane by lane over reduceSize entries:
// Max(inMax, rowmax), exp(inMax - max), expMax * inExpSum + rowsum. The row max: SmxKitRowMax
// (NewReduceMaxLastNDImpl's order for the split's rows; session 22). 2002 (membase/v200 includes
// the same common files): its float update stores max with Adds(.., 0) (a -0 max becomes +0)
// and FLOAT2HALF_ROUND_MODE is CAST_NONE (nearest even); 2201 DataCopy and CAST_ROUND.
namespace {

template <class T>
T NarrowOn(float v, bool arch2002) {
  if constexpr (std::is_same_v<T, Half>) {
    return arch2002 ? FloatToHalf(v) : FloatToHalfRoundAway(v);
  } else {
    return v;
  }
}

float VMax(float a, float b) { return a > b ? a : b; }  // Max(a, b), a the first operand

template <class T, class S>
void FlashCfgSplit(const SmxTiling& t, const Split& sp, uint32_t cfgK, const FlashCfgRun& run,
                   const FlashIo<T, S>& io) {
  const uint32_t splitK = (cfgK + kBlk - 1) / kBlk * kBlk, lanes = 32 / sizeof(S);
  const uint32_t n = sp.rows * t.srcK, ns = sp.rows * lanes;
  std::vector<float> x(n), rmax(sp.rows), rsum(sp.rows), inMax(ns), inSum(ns), mx(ns), em(ns);
  for (uint32_t j = 0; j < n; ++j) x[j] = ToFloat(io.src[sp.offset1 + j]);
  // The kit's max order for the split's rows (session 22, wob: NaN and zero ties).
  for (uint32_t i = 0; i < sp.rows; ++i) {
    rmax[i] = SmxKitRowMax(x.data() + i * splitK, cfgK, sp.rows, run.arch2002);
  }
  for (uint32_t j = 0; j < ns; ++j) {
    mx[j] = rmax[j / lanes];
    if (!run.update) continue;
    inMax[j] = ToFloat(io.inMax[sp.offset2 + j]);
    inSum[j] = ToFloat(io.inSum[sp.offset2 + j]);
    mx[j] = VMax(inMax[j], rmax[j / lanes]);
    em[j] = ExpOf(inMax[j] - mx[j]);
  }
  for (uint32_t j = 0; j < n; ++j) {
    const uint32_t r = j / t.srcK, c = j % t.srcK;
    x[j] = ExpOf(x[j] - mx[r * lanes + c % kBlk]);
    io.dst[sp.offset1 + j] = NarrowOn<T>(x[j], run.arch2002);
  }
  for (uint32_t i = 0; i < sp.rows; ++i) rsum[i] = SmxRowSum(x.data() + i * splitK, cfgK);
  for (uint32_t j = 0; j < ns; ++j) {
    const float s = run.update ? em[j] * inSum[j] + rsum[j / lanes] : rsum[j / lanes];
    const bool adds = run.arch2002 && run.update && std::is_same_v<T, float>;
    io.max[sp.offset2 + j] = NarrowOn<S>(adds ? mx[j] + 0.0f : mx[j], run.arch2002);
    io.sum[sp.offset2 + j] = NarrowOn<S>(s, run.arch2002);
  }
  if (!run.update) return;
  if constexpr (std::is_same_v<T, Half> && std::is_same_v<S, float>) {
    // BroadCastLastImpl: each row's 8 float lanes to 16, cast at offset2 * 2; on 2002 (session
    // 23, fnz, reading softmax_common_broadcast.h's BroadCastLastCompute, which membase/v200's
    // BroadCastLastImpl calls: each row's element 0 Duplicated over its 16) lane 0's value.
    for (uint32_t i = 0; i < sp.rows; ++i) {
      for (uint32_t l = 0; l < 2 * kBlk; ++l) {
        io.expMax[sp.offset2 * 2 + i * 2 * kBlk + l] =
            NarrowOn<T>(em[i * lanes + (run.arch2002 ? 0 : l % kBlk)], run.arch2002);
      }
    }
  } else {
    for (uint32_t j = 0; j < ns; ++j) io.expMax[sp.offset2 + j] = NarrowOn<T>(em[j], run.arch2002);
  }
}

}  // namespace

template <class T, class S>
void ReplaySoftmaxFlashV2Config(const SmxTiling& t, uint32_t cfgK, const FlashCfgRun& run,
                                const FlashIo<T, S>& io) {
  Split sp{0, 0, t.splitM};
  for (uint32_t i = 0; i <= t.rangeM; ++i) {
    FlashCfgSplit(t, sp, cfgK, run, io);
    sp.offset1 += t.splitSize;
    sp.offset2 += t.reduceSize;
    if (i == t.rangeM - 1) {
      if (t.tailM == 0) break;
      sp = {t.rangeM * t.splitSize, t.rangeM * t.reduceSize, t.tailM};
    }
  }
}

// CalculateNDSplitM's basic-block rows (m > 8, srcM % 8 == 0): 8-multiples dividing srcM,
// halved while a split passes 64 repeats of 256 elements.
static uint32_t BasicBlockRows(uint32_t m, uint32_t srcM, uint32_t srcK) {
  m = m / kBlk * kBlk;
  while (srcM % m != 0) m -= kBlk;
  while (m * srcK >= 64 * 256) m /= 2;
  return m;
}

// The ND tiling's fields for m rows a split (splitK = srcK, reduceK one block of statistics),
// the splits spread over `rows` rows (srcM, or oriSrcM for the kernel's re-tile).
static SmxTiling NdSplits(uint32_t srcM, uint32_t srcK, uint32_t blk, uint32_t m, uint32_t rows) {
  SmxTiling t{};
  t.srcM = srcM;
  t.srcK = srcK;
  t.srcSize = srcM * srcK;
  t.outMaxM = srcM;
  t.outMaxK = blk;
  t.outMaxSize = srcM * blk;
  t.reduceM = t.splitM = m;
  t.reduceK = blk;
  t.reduceSize = m * blk;
  t.splitK = srcK;
  t.splitSize = m * srcK;
  t.rangeM = m == 0 ? 0 : rows / m;
  t.tailM = m == 0 ? 0 : rows % m;
  t.tailSplitSize = t.tailM * srcK;
  t.tailReduceSize = t.tailM * blk;
  return t;
}

SmxTiling SmxFlashV2Tiling(uint32_t workFloats, uint32_t srcM, uint32_t srcK, uint32_t typeSize1,
                           uint32_t typeSize2, bool isBasicBlock) {
  // SoftMaxFlashV2TilingFuncImpl (softmax_flashv2_base_impl.h), ND, isFlashOutputBrc false; the
  // basic branch is CalculateNDSplitM (softmax_common_shape_process.h).
  const uint32_t blk = 32 / typeSize2;
  uint32_t m = 0;
  if (isBasicBlock && srcK % 64 == 0 && srcM % kBlk == 0) {
    m = typeSize1 == 2 ? workFloats / (blk + srcK + 64) : workFloats / (blk + 64);
    if (m > srcM) m = srcM;
    if (m > kBlk) {  // isBasicBlock, srcM % 8 == 0
      m = BasicBlockRows(m, srcM, srcK);
    }
  } else {
    m = typeSize1 == 2 ? workFloats / (2 * blk + srcK + 64) : workFloats / (blk + 64);
  }
  if (m < srcM && m > kBlk) m = m / kBlk * kBlk;
  if (m > srcM) m = srcM;
  return NdSplits(srcM, srcK, blk, m, srcM);
}

SmxTiling SmxKernelTiling(uint32_t workFloats, uint32_t srcM, uint32_t srcK, uint32_t oriM,
                          uint32_t typeSize1, uint32_t typeSize2, bool isBasicBlock) {
  // softmax_tiling_func.h SoftMaxTilingFunc (ND): CalculateNDSplitM on {srcM, srcK}, then the
  // 8-row cut and the cap at oriSrcM; rangeM and tailM of oriSrcM.
  const uint32_t blk = 32 / typeSize2;
  uint32_t m = typeSize1 == 2 ? workFloats / (blk + srcK + 64) : workFloats / (blk + 64);
  if (m > srcM) m = srcM;
  if (isBasicBlock && m > kBlk && srcM % kBlk == 0) {
    m = BasicBlockRows(m, srcM, srcK);
  }
  if (m < oriM && m > kBlk) m = m / kBlk * kBlk;
  if (m > oriM) m = oriM;
  return NdSplits(srcM, srcK, blk, m, oriM);
}

SmxTiling SmxGradTiling(uint32_t workFloats, uint32_t srcM, uint32_t srcK, uint32_t typeSize,
                        bool isFront, bool isBasicBlock) {
  // softmax_tiling_func.h SoftMaxGradTilingFunc (ND; sfx7's reading): rows per split w / (2 blk +
  // 3 srcK + 64) for half, w / (blk + srcK + 64) for float with isFront, else w / (srcK + 2 blk
  // + 64); cut to 8-multiples between 8 and srcM, at most srcM; isBasicBlock with isFront (above
  // 8 rows, srcM % 8 == 0): 8-multiples dividing srcM, halved while rows * srcK >= 64 * 256;
  // rangeM and tailM of srcM (not oriSrcM).
  const uint32_t blk = 32 / typeSize;
  uint32_t m = typeSize == 2 ? workFloats / (blk * 2 + srcK * 3 + 64)
                             : (isFront ? workFloats / (blk + srcK + 64)
                                        : workFloats / (srcK + blk * 2 + 64));
  if (m < srcM && m > kBlk) m = m / kBlk * kBlk;
  if (m > srcM) m = srcM;
  if (isBasicBlock && isFront && m > kBlk && srcM % kBlk == 0) {
    m = BasicBlockRows(m, srcM, srcK);
  }
  return NdSplits(srcM, srcK, blk, m, srcM);
}

uint32_t SmxFlashBasicRows(uint32_t workFloats, uint32_t srcM, uint32_t srcK, uint32_t blk) {
  // softmax_tiling_func.h SoftMaxFlashTilingFunc with isUpdate and isBasicBlock: reduceM = w /
  // (blk * 4 + srcK * 2), at most srcM, then (above 8, srcM % 8 == 0) 8-multiples dividing srcM.
  uint32_t m = workFloats / (blk * 4 + srcK * 2);
  if (m > srcM) m = srcM;
  if (m > kBlk && srcM % kBlk == 0) {
    m = m / kBlk * kBlk;
    while (srcM % m != 0) m -= kBlk;
  }
  return m;
}

template void ReplaySoftmaxFlashV2Config<float, float>(const SmxTiling&, uint32_t,
                                                       const FlashCfgRun&,
                                                       const FlashIo<float, float>&);
template void ReplaySoftmaxFlashV2Config<Half, Half>(const SmxTiling&, uint32_t, const FlashCfgRun&,
                                                     const FlashIo<Half, Half>&);
template void ReplaySoftmaxFlashV2Config<Half, float>(const SmxTiling&, uint32_t,
                                                      const FlashCfgRun&,
                                                      const FlashIo<Half, float>&);

template void ReplaySoftMaxConfig<float, float>(const SmxTiling&, uint32_t, uint32_t,
                                                const CfgIo<float, float>&);
template void ReplaySoftMaxConfig<Half, Half>(const SmxTiling&, uint32_t, uint32_t,
                                              const CfgIo<Half, Half>&);
template void ReplaySoftMaxConfig<Half, float>(const SmxTiling&, uint32_t, uint32_t,
                                               const CfgIo<Half, float>&);

}  // namespace lngrad_replay
