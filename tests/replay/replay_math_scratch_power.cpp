// Power<float>'s dst and scratch on arch 2201/2002 (replay_math_scratch_power.h). Provenance:
// written by helper pw (session 18) from the toolkit's sources (asc-devkit, the mirror's HEAD),
// read for this file: power/power_common_impl.h (the float PowerImpl overloads: the 256-byte
// tmpScalar at the buffer's base, splitSize = (bytes - 256) / 4 / factor down to 32, the
// scalar forms' Duplicate of the scalar into a splitSize tensor after tmpScalar, the rounds),
// power_float_impl.h (InitTmpScalar: 8 x 1.0f then 8 x NaN 0x7fc00000; InitDst, DetermineSign,
// GenMaskForSign, GenMaskForOne, GenMaskForNan, CommonPowerF), power_common_utils.h
// (VselPowerTensorScalar: the CMPMASK scalar is tmpScalar's first word), power_v220_impl.h
// (factors 4 / 5, PowerFParamsCalc: tmp1..tmp3 then four masks of splitSize bytes;
// CastFloat2Float one Cast; GrepSignBit: ShiftRight 31 then int32 == 1) and power_v200_impl.h
// (factors 5 / 6, tmp1..tmp4 then the masks; CastFloat2Float through int32, saturating, NaN to
// 0; GrepSignBit: tmp2 = 0x80000000 & x, | tmp4 = 0x3f800000, then < 0.0f). Written before
// lngrad's Power scratch code, without reading it; a separate reading by the same helper who
// then changed lngrad (include/ascendc/adv/lib/math/power_scratch.h). Exp and Ln as
// replay_math_ops.h has them.
#include "replay_math_scratch_power.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "replay_math_ops.h"

namespace lngrad_replay {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

float Round2002(float v, bool floorMode) {
  if (std::isnan(v)) return 0.0f;
  const double d = static_cast<double>(v);
  const double r = floorMode ? std::floor(d) : std::nearbyint(d);
  return static_cast<float>(static_cast<int32_t>(std::clamp(r, -2147483648.0, 2147483647.0)));
}

uint32_t FBits(float v) {
  uint32_t b;
  std::memcpy(&b, &v, 4);
  return b;
}
float OfBits(uint32_t b) {
  float v;
  std::memcpy(&v, &b, 4);
  return v;
}

class Run {
 public:
  Run(bool v200, uint8_t* s, uint32_t bytes) : v200_(v200), s_(s), bytes_(bytes) {}

  float Get(uint32_t w) const { return OfBits(GetBits(w)); }
  uint32_t GetBits(uint32_t w) const {
    uint32_t b;
    std::memcpy(&b, s_ + 4 * static_cast<size_t>(w), 4);
    return b;
  }
  void Set(uint32_t w, float v) { std::memcpy(s_ + 4 * static_cast<size_t>(w), &v, 4); }
  void SetBits(uint32_t w, uint32_t b) { std::memcpy(s_ + 4 * static_cast<size_t>(w), &b, 4); }
  bool Bit(uint32_t maskByte, uint32_t k) const {
    return ((s_[maskByte + k / 8] >> (k % 8)) & 1u) != 0;
  }

  float Rnd(float v, bool floorMode) const {
    if (v200_) return Round2002(v, floorMode);
    return floorMode ? std::floor(v) : std::nearbyint(v);
  }

  // CompareScalar over rep repeats of 64 lanes; lane(k) gives the operand.
  template <class L, class P>
  void Cmp(uint32_t maskByte, uint32_t rep, L lane, P pred) {
    for (uint32_t r = 0; r < rep * 8; ++r) s_[maskByte + r] = 0;
    for (uint32_t k = 0; k < rep * 64; ++k) {
      if (pred(lane(k)))
        s_[maskByte + k / 8] = static_cast<uint8_t>(s_[maskByte + k / 8] | (1u << (k % 8)));
    }
  }
  // dst = a op b over DivCeil(len, 16) 16-bit words.
  void Words(uint32_t d, uint32_t a, uint32_t b, uint32_t len, bool isOr) {
    for (uint32_t i = 0; i < (len + 15) / 16; ++i) {
      uint16_t x, y;
      std::memcpy(&x, s_ + a + 2 * i, 2);
      std::memcpy(&y, s_ + b + 2 * i, 2);
      const uint16_t r = static_cast<uint16_t>(isOr ? (x | y) : (x & y));
      std::memcpy(s_ + d + 2 * i, &r, 2);
    }
  }

  bool v200_;
  uint8_t* s_;
  uint32_t bytes_;
};

// CommonPowerF over one round of len elements: tmp1 at word p, chunk s; X(k) / Y(k) the
// operands' lane k; d gets the result.
template <class XF, class YF>
void CommonPowerF(Run& run, bool arch2002, uint32_t p, uint32_t s, uint32_t len, XF X, YF Y,
                  float* d) {
  const uint32_t t1 = p, t2 = p + s, t3 = p + 2 * s, t4 = p + 3 * s;
  const uint32_t m1 = (p + (arch2002 ? 4 : 3) * s) * 4, m2 = m1 + s, m3 = m2 + s, fiy = m3 + s;
  const uint32_t rep = (len * 4 + 255) / 256;
  const auto W = [&](uint32_t base) {
    return [&run, base](uint32_t k) { return run.Get(base + k); };
  };
  // InitDst.
  for (uint32_t j = 0; j < len; ++j) d[j] = std::fabs(X(j));
  for (uint32_t j = 0; j < len; ++j) d[j] = math_ops::LnF(d[j]);
  for (uint32_t j = 0; j < len; ++j) d[j] = Y(j) * d[j];
  for (uint32_t j = 0; j < len; ++j) d[j] = math_ops::ExpF(d[j]);
  // DetermineSign.
  for (uint32_t j = 0; j < len; ++j) run.Set(t1 + j, std::fabs(Y(j)));
  for (uint32_t j = 0; j < len; ++j) run.Set(t1 + j, run.Rnd(run.Get(t1 + j), false));
  for (uint32_t j = 0; j < len; ++j) run.Set(t2 + j, run.Get(t1 + j) * 0.5f);
  for (uint32_t j = 0; j < len; ++j) run.Set(t2 + j, run.Rnd(run.Get(t2 + j), true));
  for (uint32_t j = 0; j < len; ++j) run.Set(t2 + j, run.Get(t2 + j) * 2.0f);
  for (uint32_t j = 0; j < len; ++j) run.Set(t1 + j, run.Get(t1 + j) - run.Get(t2 + j));
  for (uint32_t j = 0; j < len; ++j) run.Set(t1 + j, run.Get(t1 + j) * -2.0f);
  for (uint32_t j = 0; j < len; ++j) run.Set(t1 + j, run.Get(t1 + j) + 1.0f);
  for (uint32_t j = 0; j < len; ++j) run.Set(t1 + j, run.Rnd(run.Get(t1 + j), false));
  // GenMaskForSign: GrepSignBit into tmpMask1.
  if (arch2002) {
    for (uint32_t j = 0; j < len; ++j) run.SetBits(t2 + j, 0x80000000u);
    for (uint32_t j = 0; j < len; ++j) run.SetBits(t4 + j, 0x3f800000u);
    for (uint32_t j = 0; j < len; ++j) run.SetBits(t2 + j, FBits(X(j)) & run.GetBits(t2 + j));
    for (uint32_t j = 0; j < len; ++j)
      run.SetBits(t2 + j, run.GetBits(t4 + j) | run.GetBits(t2 + j));
    run.Cmp(m1, rep, W(t2), [](float v) { return v < 0.0f; });
  } else {
    for (uint32_t j = 0; j < len; ++j) run.SetBits(t2 + j, FBits(X(j)) >> 31);
    run.Cmp(
        m1, rep, [&](uint32_t k) { return run.GetBits(t2 + k); },
        [](uint32_t v) { return static_cast<int32_t>(v) == 1; });
  }
  for (uint32_t j = 0; j < len; ++j) run.Set(t2 + j, std::fabs(Y(j)));
  for (uint32_t j = 0; j < len; ++j) run.Set(t3 + j, run.Rnd(run.Get(t2 + j), false));
  for (uint32_t j = 0; j < len; ++j) run.Set(t3 + j, run.Get(t2 + j) - run.Get(t3 + j));
  for (uint32_t j = 0; j < len; ++j) run.Set(t3 + j, std::fabs(run.Get(t3 + j)));
  run.Cmp(fiy, rep, W(t3), [](float v) { return v < 0.00000001f; });
  run.Words(m1, fiy, m1, len, false);
  // VselPowerTensorScalar into tmpTensor2, then the Mul.
  for (uint32_t j = 0; j < len; ++j) run.Set(t2 + j, run.Bit(m1, j) ? run.Get(t1 + j) : run.Get(0));
  for (uint32_t j = 0; j < len; ++j) d[j] = run.Get(t2 + j) * d[j];
  // GenMaskForOne.
  for (uint32_t j = 0; j < len; ++j) run.Set(t1 + j, std::fabs(Y(j)));
  run.Cmp(m1, rep, W(t1), [](float v) { return v != 0.0f; });
  run.Cmp(m2, rep, X, [](float v) { return v != 1.0f; });
  run.Words(m1, m2, m1, len, false);
  run.Cmp(m2, rep, X, [](float v) { return v != -1.0f; });
  run.Cmp(m3, rep, W(t1), [](float v) { return v != kInf; });
  run.Words(m2, m3, m2, len, true);
  run.Words(m1, m2, m1, len, false);
  for (uint32_t j = 0; j < len; ++j) d[j] = run.Bit(m1, j) ? d[j] : run.Get(0);
  // GenMaskForNan.
  for (uint32_t j = 0; j < len; ++j) run.Set(t1 + j, std::fabs(Y(j)));
  run.Cmp(m1, rep, W(t1), [](float v) { return v == kInf; });
  run.Words(m1, fiy, m1, len, true);
  run.Cmp(m2, rep, X, [](float v) { return v >= 0.0f; });
  run.Cmp(m3, rep, X, [](float v) { return v == -kInf; });
  run.Words(m2, m3, m2, len, true);
  run.Words(m1, m2, m1, len, true);
  for (uint32_t j = 0; j < len; ++j) d[j] = run.Bit(m1, j) ? d[j] : run.Get(8);
}

}  // namespace

bool ReplayPowerFloatScratch(bool arch2002, int form, const float* x, const float* y, float* dst,
                             uint32_t n, uint8_t* scratch, uint32_t tmpBytes) {
  if (tmpBytes < 256) return false;
  const uint32_t factor = (arch2002 ? 5u : 4u) + (form == 0 ? 0u : 1u);
  const uint32_t s = (tmpBytes - 256) / 4 / factor / 32 * 32;
  if (s == 0) return false;
  Run run(arch2002, scratch, tmpBytes);
  // InitTmpScalar.
  for (uint32_t w = 0; w < 8; ++w) run.Set(w, 1.0f);
  for (uint32_t w = 8; w < 16; ++w) run.SetBits(w, 0x7fc00000u);
  uint32_t p = 64;  // PowerFParamsCalc's base (float words)
  if (form != 0) {
    const float v = form == 1 ? y[0] : x[0];
    for (uint32_t j = 0; j < s; ++j) run.Set(64 + j, v);  // Duplicate into stackSrc
    p = 64 + s;
  }
  for (uint32_t off = 0; off < n; off += s) {
    const uint32_t len = std::min(s, n - off);
    const auto X = [&](uint32_t k) { return form == 2 ? run.Get(64 + k) : x[off + k]; };
    const auto Y = [&](uint32_t k) { return form == 1 ? run.Get(64 + k) : y[off + k]; };
    CommonPowerF(run, arch2002, p, s, len, X, Y, dst + off);
  }
  return true;
}

bool ReplayPowerHalfScratch(bool arch2002, int form, const Half* x, const Half* y, Half* dst,
                            uint32_t n, uint8_t* scratch, uint32_t tmpBytes) {
  if (tmpBytes < 256) return false;
  const uint32_t s = (tmpBytes - 256) / 4 / (arch2002 ? 8u : 7u) / 32 * 32;
  if (s == 0) return false;
  Run run(arch2002, scratch, tmpBytes);
  const uint32_t src0 = 64, src1 = 64 + s, sdst = 64 + 2 * s, p = 64 + 3 * s;
  for (uint32_t w = 0; w < 8; ++w) run.Set(w, 1.0f);
  for (uint32_t w = 8; w < 16; ++w) run.SetBits(w, 0x7fc00000u);
  // The scalar forms Duplicate the widened scalar over a chunk of stackSrc1 / stackSrc0.
  if (form == 1) {
    for (uint32_t j = 0; j < s; ++j) run.Set(src1 + j, HalfToFloat(y[0]));
  } else if (form == 2) {
    for (uint32_t j = 0; j < s; ++j) run.Set(src0 + j, HalfToFloat(x[0]));
  }
  std::vector<float> d(s);
  for (uint32_t off = 0; off < n; off += s) {
    const uint32_t len = std::min(s, n - off);
    if (form != 2) {
      for (uint32_t j = 0; j < len; ++j) run.Set(src0 + j, HalfToFloat(x[off + j]));
    }
    if (form != 1) {
      for (uint32_t j = 0; j < len; ++j) run.Set(src1 + j, HalfToFloat(y[off + j]));
    }
    const auto X = [&](uint32_t k) { return run.Get(src0 + k); };
    const auto Y = [&](uint32_t k) { return run.Get(src1 + k); };
    CommonPowerF(run, arch2002, p, s, len, X, Y, d.data());
    for (uint32_t j = 0; j < len; ++j) run.Set(sdst + j, d[j]);  // stackDst's final values
    for (uint32_t j = 0; j < len; ++j) dst[off + j] = FloatToHalf(run.Get(sdst + j));
  }
  return true;
}

}  // namespace lngrad_replay
