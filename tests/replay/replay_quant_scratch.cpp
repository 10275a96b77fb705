// AscendQuant's 2201/2002 loops over their scratch (replay_quant_scratch.h).
#include "replay_quant_scratch.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "replay.h"

namespace lngrad_replay::qscr {

namespace {

constexpr uint32_t kBlk = 32;  // ONE_BLK_SIZE

// Element i of a tensor of T (half or float) as float.
float Elem(const std::vector<uint8_t>& b, bool isHalf, uint64_t i) {
  if (isHalf) {
    Half h{};
    std::memcpy(&h.bits, &b[2 * i], 2);
    return HalfToFloat(h);
  }
  float f = 0;
  std::memcpy(&f, &b[4 * i], 4);
  return f;
}

Half GetH(const std::vector<uint8_t>& b, uint64_t i) {
  Half h{};
  std::memcpy(&h.bits, &b[2 * i], 2);
  return h;
}
void PutH(std::vector<uint8_t>& b, uint64_t i, Half h) { std::memcpy(&b[2 * i], &h.bits, 2); }

// The vector instructions on half elements: Cast float -> half CAST_NONE (the block's
// saturating mode), Mul / Muls / Add / Adds (one rounding to half), Cast half -> int8 CAST_NONE
// (nearest even, saturated, NaN -> 0).
Half CastF2H(float v) { return FloatToHalfSaturate(v); }
Half HMul(Half a, Half b) { return FloatToHalf(HalfToFloat(a) * HalfToFloat(b)); }
Half HAdd(Half a, Half b) { return FloatToHalf(HalfToFloat(a) + HalfToFloat(b)); }
int8_t CastH2S8(Half h) {
  const float v = HalfToFloat(h);
  if (std::isnan(v)) return 0;
  const float r = std::nearbyint(v);
  return static_cast<int8_t>(std::clamp(r, -128.0f, 127.0f));
}

// What one IntrinsicsImpl call does in counter mode over `len` elements: src from element `s`,
// dst from `d`, the scale (per channel: halves from element `k` of m.scale; per tensor: hs) and
// the offset (halves from `k` of m.offset, or the scalar ho), through the scratch's halves 0...
struct Step {
  bool perChannel, offsetTensor;
  Half hs, ho;
};
void Intrinsics(const QuantCall& c, const Step& st, QuantMem& m, uint64_t s, uint64_t k,
                uint32_t len) {
  // float: Cast src -> tmp first; half: the Mul(s) reads src itself.
  for (uint32_t j = 0; j < len; ++j) {
    const Half a = c.isHalf ? GetH(m.src, s + j) : CastF2H(Elem(m.src, false, s + j));
    if (!c.isHalf) PutH(m.tmp, j, a);
  }
  for (uint32_t j = 0; j < len; ++j) {
    const Half a = c.isHalf ? GetH(m.src, s + j) : GetH(m.tmp, j);
    PutH(m.tmp, j, HMul(a, st.perChannel ? GetH(m.scale, k + j) : st.hs));
  }
  for (uint32_t j = 0; j < len; ++j) {
    PutH(m.tmp, j, HAdd(GetH(m.tmp, j), st.offsetTensor ? GetH(m.offset, k + j) : st.ho));
  }
  for (uint32_t j = 0; j < len; ++j) m.dst[s + j] = CastH2S8(GetH(m.tmp, j));
}

// Cast<half, float> of `count` elements of a float tensor onto its own first 2 * count bytes.
void CastInPlace(std::vector<uint8_t>& t, uint32_t count) {
  for (uint32_t j = 0; j < count; ++j) PutH(t, j, CastF2H(Elem(t, false, j)));
}

}  // namespace

bool ReplayQuantPerTensor(const QuantCall& c, float scale, float offset, QuantMem& m) {
  const bool isStatic = c.cfgWork != 0 && c.cfgCalc != 0;
  const uint32_t split = (isStatic ? c.cfgWork : c.tmpBytes) / 2 / kBlk * kBlk;
  if (split == 0) return false;
  const uint32_t n = isStatic ? c.cfgCalc : c.calCount;
  const Step st{false, false, FloatToHalf(scale), FloatToHalf(offset)};
  const uint32_t loops = n / split;
  for (uint32_t i = 0; i < loops; ++i) {
    Intrinsics(c, st, m, uint64_t{split} * i, 0, split);
  }
  if (n % split > 0) Intrinsics(c, st, m, uint64_t{split} * loops, 0, n % split);
  return true;
}

bool ReplayQuantPerChannel(const QuantCall& c, float offsetScalar, QuantMem& m) {
  const bool isStatic = c.cfgScale != 0 && c.cfgCalc != 0;
  const uint32_t sc = isStatic ? c.cfgScale : c.scaleCount;
  const uint32_t n = isStatic ? c.cfgCalc : c.calCount;
  if (c.scaleCount == 0 || c.calCount == 0 || c.calCount % c.scaleCount != 0) return false;
  const bool offsetTensor = !m.offset.empty();
  if (!c.isHalf) {  // "source vector of scale is reused" (and of offset)
    CastInPlace(m.scale, sc);
    if (offsetTensor) CastInPlace(m.offset, sc);
  }
  const Half ho = FloatToHalf(offsetScalar);  // static_cast<half>(offset)
  const Step st{true, offsetTensor, Half{}, ho};
  // AscendQuantPerChannelImpl: the config's split and scaleCount when workLocalSize and
  // scaleCount are set, else the scratch's size and the row's count.
  const bool inner = c.cfgWork != 0 && c.cfgScale != 0;
  const uint32_t split = (inner ? c.cfgWork : c.tmpBytes) / 2 / kBlk * kBlk;
  const uint32_t rowCount = inner ? c.cfgScale : sc;
  if (split == 0) return false;
  for (uint32_t row = 0; row < n / sc; ++row) {
    const uint64_t base = uint64_t{row} * sc;
    const uint32_t loops = rowCount / split;
    for (uint32_t i = 0; i < loops; ++i) {
      Intrinsics(c, st, m, base + uint64_t{i} * split, uint64_t{i} * split, split);
    }
    if (rowCount % split > 0) {
      Intrinsics(c, st, m, base + uint64_t{loops} * split, uint64_t{loops} * split,
                 rowCount % split);
    }
  }
  return true;
}

// ---- AscendDequant ----

namespace {

constexpr uint32_t kFloatPerBlock = 8, kFloatPerRepeat = 64, kMaxRepeat = 255;

float GetF(const std::vector<uint8_t>& b, uint64_t i) {
  float f = 0;
  std::memcpy(&f, &b[4 * i], 4);
  return f;
}
void PutF(std::vector<uint8_t>& b, uint64_t i, float v) { std::memcpy(&b[4 * i], &v, 4); }

// The scratch's two float tensors: tmpAddrA (the float scales) at 0, tmpAddrB (the float
// source) after align8(calCount) of them; tmpSize floats of B per round.
struct DqTmp {
  uint64_t b = 0;
  uint32_t tmpSize = 0;
};

// CastDeqscale (and, for a scalar, AscendDequantTmpCalc's Duplicate first): A[0, calCount).
void CastDeqscale(const DequantCall& c, DequantMem& m) {
  for (uint32_t j = 0; j < c.calCount; ++j) {
    float v = 0;
    switch (c.scale) {
      case DqScale::kFloat:
        v = GetF(m.scale, j) + 0.0f;
        break;  // Adds 0
      case DqScale::kBf16: {
        Bf16 h{};
        std::memcpy(&h.bits, &m.scale[2 * j], 2);
        v = Bf16ToFloat(h);  // Cast CAST_NONE: exact
        break;
      }
      case DqScale::kU64:
        v = GetF(m.scale, 2 * j);
        break;  // GatherMask: the even words
      case DqScale::kScalarFloat:
        v = GetF(m.scale, 0) + 0.0f;
        break;  // Duplicate, Adds 0
      case DqScale::kScalarBf16: {
        Bf16 h{};
        std::memcpy(&h.bits, &m.scale[0], 2);
        v = Bf16ToFloat(h) + 0.0f;  // ToFloat, Duplicate, Adds 0
        break;
      }
    }
    PutF(m.tmp, j, v);
  }
}

// DequantMul over k rows of B: the first calCount columns of each row times A.
void DequantMul(const DequantCall& c, const DqTmp& t, DequantMem& m, uint32_t k) {
  const auto mul = [&](uint64_t at, uint32_t col) {
    PutF(m.tmp, t.b + at, GetF(m.tmp, t.b + at) * GetF(m.tmp, col));
  };
  if (k == 0) return;
  if (c.n > kMaxRepeat * kFloatPerBlock) {  // counter mode, calCount per row
    for (uint32_t r = 0; r < k; ++r) {
      for (uint32_t j = 0; j < c.calCount; ++j) mul(uint64_t{r} * c.n + j, j);
    }
    return;
  }
  const uint32_t loops = c.calCount / kFloatPerRepeat, tail = c.calCount % kFloatPerRepeat;
  for (uint32_t i = 0; i < loops; ++i) {  // counter mode 64 * k: k repeats, rows n apart
    for (uint32_t r = 0; r < k; ++r) {
      for (uint32_t j = 0; j < kFloatPerRepeat; ++j) {
        mul(uint64_t{r} * c.n + i * kFloatPerRepeat + j, i * kFloatPerRepeat + j);
      }
    }
  }
  if (tail != 0) {  // normal mode, the low `tail` lanes, up to 255 repeats a call
    for (uint32_t r = 0; r < k; ++r) {
      for (uint32_t j = 0; j < tail; ++j) {
        mul(uint64_t{r} * c.n + loops * kFloatPerRepeat + j, loops * kFloatPerRepeat + j);
      }
    }
  }
}

// CastDst: dataNum floats of B to dst from element `at`, rows of n floats to rows of dstInner.
void CastDst(const DequantCall& c, const DqTmp& t, DequantMem& m, uint64_t at, uint32_t dataNum,
             uint32_t dstInner) {
  const auto put = [&](uint64_t d, float v) {
    if (c.dst == DqDst::kFloat) {
      PutF(m.dst, d, v + 0.0f);  // Adds 0
    } else if (c.dst == DqDst::kHalf) {
      PutH(m.dst, d, FloatToHalfSaturate(v));  // CAST_NONE
    } else {
      const Bf16 h = FloatToBf16Saturate(v);  // CAST_RINT
      std::memcpy(&m.dst[2 * d], &h.bits, 2);
    }
  };
  if (c.dst == DqDst::kFloat || c.n == dstInner) {
    for (uint32_t e = 0; e < dataNum; ++e) put(at + e, GetF(m.tmp, t.b + e));
    return;
  }
  for (uint32_t e = 0; e < dataNum; ++e) {
    put(at + uint64_t{e / c.n} * dstInner + e % c.n, GetF(m.tmp, t.b + e));
  }
}

void CastSrc(const DqTmp& t, DequantMem& m, uint64_t from, uint32_t len) {
  for (uint32_t e = 0; e < len; ++e) {
    int32_t v = 0;
    std::memcpy(&v, &m.src[4 * (from + e)], 4);
    PutF(m.tmp, t.b + e, static_cast<float>(v));  // CAST_NONE: nearest even
  }
}

}  // namespace

bool ReplayDequant(DequantCall c, DequantMem& m) {
  const uint32_t oneBlock = c.dst == DqDst::kFloat ? 8 : 16;
  if (c.singleRow && c.m == 1 && c.calCount % oneBlock == 0 && c.calCount != 0 &&
      c.n % c.calCount == 0) {  // UpdateDequantParams
    c.m = c.n / c.calCount;
    c.n = c.calCount;
  }
  if (c.n == 0 || c.n % kFloatPerBlock != 0 || c.calCount == 0 || c.calCount > c.n) return false;
  DqTmp t;
  t.b = (c.calCount + kFloatPerBlock - 1) / kFloatPerBlock * kFloatPerBlock;
  const uint32_t floats = c.tmpBytes / 4;
  if (floats < t.b) return false;
  t.tmpSize = std::min<uint32_t>((floats - static_cast<uint32_t>(t.b)) / c.n * c.n, c.m * c.n);
  if (t.tmpSize == 0) return false;
  const uint32_t dstInner = (c.n + oneBlock - 1) / oneBlock * oneBlock;
  CastDeqscale(c, m);
  const uint32_t loops = c.count / t.tmpSize, tailSize = c.count % t.tmpSize;
  const uint32_t k = t.tmpSize / c.n;
  const uint64_t castDstIndex = c.n == dstInner ? t.tmpSize : uint64_t{k} * dstInner;
  for (uint32_t i = 0; i < loops; ++i) {
    CastSrc(t, m, uint64_t{i} * t.tmpSize, t.tmpSize);
    DequantMul(c, t, m, k);
    CastDst(c, t, m, i * castDstIndex, t.tmpSize, dstInner);
  }
  if (tailSize > 0) {
    CastSrc(t, m, c.count - tailSize, tailSize);
    DequantMul(c, t, m, tailSize / c.n);
    const uint32_t tailK = tailSize % c.n;
    if (!c.pure && tailK != 0) {
      const uint32_t idx = tailSize - tailK;
      for (uint32_t j = 0; j < tailK; ++j) {
        PutF(m.tmp, t.b + idx + j, GetF(m.tmp, t.b + idx + j) * GetF(m.tmp, j));
      }
    }
    const uint64_t index =
        c.n == dstInner ? c.count - tailSize : uint64_t{c.count - tailSize} / c.n * dstInner;
    CastDst(c, t, m, index, tailSize, dstInner);
  }
  return true;
}

}  // namespace lngrad_replay::qscr
