// SoftMax's constant-shape config on 2201 (config.oriSrcM and config.oriSrcK both non-zero),
// replayed from a reading of membase/v220/softmax_impl.h (both SoftMaxNDImpl overloads with
// statistics, and the one without), membase/common/softmax_impl/softmax_generic_nd_impl.h
// (SoftMaxNDExtImpl, SoftMaxGenericNDImpl) and membase/v220/softmax_common_impl/
// softmax_common_nd_reduce.h (NewReduce{Max,Sum}LastNDImpl: row i of a split read at i *
// reduceParam.srcK) of the toolkit at commit 82b89a15f. A separate reading by sfxc, the same
// helper who then changed lngrad (include/ascendc/adv/lib/activation/softmax.h), written before
// comparing with it; it shares no code with src/ or include/ascendc/adv. The row reductions are
// the other replay file's (SmxRowMax, SmxRowSum: one row of NewReduce*LastNDImpl). Built with
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
  for (uint32_t i = 0; i < sp.rows; ++i) mx[i] = SmxRowMax(x.data() + i * splitK, cfgK);
  for (uint32_t j = 0; j < n; ++j) x[j] = ExpOf(x[j] - mx[j / t.srcK]);
  // float + isReuseSource (no statistics): Exp writes src, the Sum and the Div read it there.
  if (io.reuseSrc) {
    for (uint32_t j = 0; j < n; ++j) io.src[sp.offset1 + j] = Narrow<T>(x[j]);
  }
  for (uint32_t i = 0; i < sp.rows; ++i) sm[i] = SmxRowSum(x.data() + i * splitK, cfgK);
  for (uint32_t j = 0; j < n; ++j) io.dst[sp.offset1 + j] = Narrow<T>(x[j] / sm[j / t.srcK]);
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

template void ReplaySoftMaxConfig<float, float>(const SmxTiling&, uint32_t, uint32_t,
                                                const CfgIo<float, float>&);
template void ReplaySoftMaxConfig<Half, Half>(const SmxTiling&, uint32_t, uint32_t,
                                              const CfgIo<Half, Half>&);
template void ReplaySoftMaxConfig<Half, float>(const SmxTiling&, uint32_t, uint32_t,
                                               const CfgIo<Half, float>&);

}  // namespace lngrad_replay
