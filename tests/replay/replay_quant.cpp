// The quantization family's replay (replay_reduce_quant.h): AscendQuant's half sequence and
// AscendDequant's float one, element by element in the toolkit's instruction order.
#include <cmath>
#include <cstring>

#include "replay.h"
#include "replay_reduce_quant.h"

namespace lngrad_replay {

namespace {

// Cast float -> half, CAST_NONE, in the saturation mode every block starts in.
float CastToHalf(float v) { return HalfToFloat(FloatToHalfSaturate(v)); }
// A float scalar passed where the instruction takes a half (static_cast<half>): nearest even.
float ScalarHalf(float v) { return HalfToFloat(FloatToHalf(v)); }
float HalfMul(float a, float b) { return RoundT(a * b, true); }
float HalfAdd(float a, float b) { return RoundT(a + b, true); }

// Cast half -> int8, CAST_NONE: nearest even, saturated, NaN -> 0.
int8_t HalfToInt8(float h) {
  if (std::isnan(h)) return 0;
  const float r = std::nearbyint(h);
  if (r >= 127.0f) return 127;
  if (r <= -128.0f) return -128;
  return static_cast<int8_t>(r);
}

// Cast float -> bfloat16, CAST_RINT, in the saturation mode: inf -> +-max, NaN -> +0.
float CastToBf16(float v) {
  if (std::isnan(v)) return 0.0f;
  const float r = RoundBf16(v);
  if (std::isinf(r)) return std::copysign(RoundBf16(3.3895313892515355e38f), r);
  return r;
}

}  // namespace

std::vector<int8_t> ReplayAscendQuant(bool isHalf, const std::vector<float>& src, float scale,
                                      float offset, uint32_t calCount) {
  const float hs = ScalarHalf(scale), ho = ScalarHalf(offset);
  std::vector<int8_t> dst(calCount);
  for (uint32_t i = 0; i < calCount; ++i) {
    const float h = isHalf ? src[i] : CastToHalf(src[i]);
    dst[i] = HalfToInt8(HalfAdd(HalfMul(h, hs), ho));
  }
  return dst;
}

std::vector<int8_t> ReplayAscendQuantPerChannel(const QuantChannelCall& c,
                                                const std::vector<float>& src,
                                                std::vector<float>* scaleHalf,
                                                std::vector<float>* offsetHalf) {
  // A float scale (offset) tensor: Cast to half in place over scaleCount elements first.
  std::vector<float> hs(c.scale.begin(), c.scale.begin() + c.scaleCount);
  std::vector<float> ho;
  if (!c.offset.empty()) ho.assign(c.offset.begin(), c.offset.begin() + c.scaleCount);
  if (!c.isHalf) {
    for (float& v : hs) v = CastToHalf(v);
    for (float& v : ho) v = CastToHalf(v);
  }
  if (scaleHalf != nullptr) *scaleHalf = hs;
  if (offsetHalf != nullptr) *offsetHalf = ho;
  const float hoScalar = ScalarHalf(c.offsetScalar);
  std::vector<int8_t> dst(c.calCount);
  for (uint32_t i = 0; i < c.calCount; ++i) {
    const uint32_t j = i % c.scaleCount;
    const float h = c.isHalf ? src[i] : CastToHalf(src[i]);
    const float scaled = HalfMul(h, hs[j]);
    dst[i] = HalfToInt8(HalfAdd(scaled, ho.empty() ? hoScalar : ho[j]));
  }
  return dst;
}

std::vector<float> ReplayAscendDequant(const DequantCall& c, const std::vector<int32_t>& src,
                                       const std::vector<float>& scale) {
  uint32_t m = c.m, n = c.n;
  const uint32_t perBlock = c.dstHalf || c.dstBf16 ? 16 : 8;
  const size_t total = c.total != 0 ? c.total : size_t{m} * n;
  if (c.singleRowMode && m == 1 && c.calCount % perBlock == 0 && n % c.calCount == 0) {
    m = n / c.calCount;  // UpdateDequantParams: rows of calCount
    n = c.calCount;
  }
  std::vector<float> dst(size_t{m} * n);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t j = 0; j < n; ++j) {
      const size_t e = size_t{r} * n + j;
      if (e >= total) continue;
      float v = static_cast<float>(src[e]);  // Cast int32 -> float, nearest even
      if (j < c.calCount) v = v * (c.scaleAddsZero ? scale[j] + 0.0f : scale[j]);
      dst[e] = c.dstHalf ? CastToHalf(v) : (c.dstBf16 ? CastToBf16(v) : v + 0.0f);
    }
  }
  return dst;
}

float RoundBf16(float v) {
  if (std::isnan(v)) return v;
  uint32_t b = 0;
  std::memcpy(&b, &v, 4);
  b += 0x7FFFu + ((b >> 16) & 1u);  // nearest even on the dropped 16 bits
  b &= 0xFFFF0000u;
  float r = 0;
  std::memcpy(&r, &b, 4);
  return r;
}

std::vector<float> ReplayAscendAntiQuant(const AntiQuantCall& c, const std::vector<int8_t>& src) {
  const uint32_t rows = c.transpose ? c.N : c.K, cols = c.transpose ? c.K : c.N;
  std::vector<float> dst(size_t{rows} * cols);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t j = 0; j < cols; ++j) {
      const size_t e = size_t{r} * cols + j;
      float h = static_cast<float>(src[e]);  // Cast int8 -> half: exact
      float o = c.offsetScalar, s = c.scaleScalar;
      if (!c.scale.empty()) {
        uint32_t at = c.transpose ? r : j;  // the Brcb path / the performance path
        if (!c.transpose && !c.hasOffset) at = r / (c.K / c.groups) * c.N + j;
        if (c.transpose && !c.brcb) at = r * c.groups + j / (c.K / c.groups);
        s = c.scale[at];
        if (c.hasOffset) o = c.offset[at];
        // bfloat16's performance path (PreCast): the scale's floats follow offset.GetSize() of
        // the offset's, read from float N (session 17, helper aqn5: the first reading had
        // scale[n]; with an offset of more than N elements the multiplier is offset[N + n]).
        if (c.bf16 && c.hasOffset && !c.transpose && c.N + j < c.offset.size()) {
          s = c.offset[c.N + j];
        } else if (c.bf16 && c.hasOffset && !c.transpose) {
          s = c.scale[c.N + j - c.offset.size()];
        }
      }
      if (c.bf16) {
        if (c.hasOffset) h = h + o;
        dst[e] = CastToBf16(h * s);
        continue;
      }
      if (c.hasOffset) h = HalfAdd(h, o);
      dst[e] = HalfMul(h, s);
    }
  }
  return dst;
}

}  // namespace lngrad_replay
