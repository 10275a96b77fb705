// The rounding APIs' scratch on arch 2201/2002 (replay_math_scratch_rounding.h). Provenance:
// written by helper mth5 (session 18) from the toolkit's sources at commit 82b89a15f, read for
// this file, before lngrad's scratch of these APIs was changed: ceil_common_impl.h,
// ceil_v220_impl.h, ceil_v200_impl.h (CeilImpl, CeilProcess); floor_v220_impl.h,
// floor_v200_impl.h (FloorImpl for half and float, FloorProcess, FloorCommonProcess);
// trunc_common_impl.h, trunc_v220_impl.h, trunc_v200_impl.h (TruncImpl, TruncCompute,
// TruncCastForTrunc); round_common_impl.h, round_v220_impl.h, round_v200_impl.h (RoundImpl,
// RoundComputeCount<float> and <half>); frac_common_impl.h, frac_v220_impl.h, frac_v200_impl.h
// (FracImpl, FracCompute, TruncCastForFrac); clamp_common_impl.h (ClampCompute, ClampMaxImpl,
// ClampMinImpl); sign_common_impl.h (SignCompute, SignComputeImpl; before lngrad's Sign
// scratch, sign.h). A separate reading by the same helper who then
// changed lngrad (include/ascendc/adv/lib/math/rounding.h, select.h, sign.h). Each Cast is one
// conversion per element; counter mode: an instruction touches exactly the round's elements.
#include "replay_math_scratch_rounding.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "replay_math_ops.h"

namespace lngrad_replay {
namespace {

constexpr uint32_t kBlk = 32;  // ONE_BLK_SIZE

// A 32-bit word of the scratch (a float or an int32 temp tensor's element).
template <class W>
W Word(const uint8_t* scratch, uint32_t i) {
  W w;
  std::memcpy(&w, scratch + 4 * static_cast<size_t>(i), 4);
  return w;
}
template <class W>
void SetWord(uint8_t* scratch, uint32_t i, W w) {
  std::memcpy(scratch + 4 * static_cast<size_t>(i), &w, 4);
}

// Cast float -> float in the op's mode (2201's CAST_CEIL / FLOOR / TRUNC / RINT; Frac: TRUNC).
float CastIntegral(RoundingOp op, float x) {
  switch (op) {
    case RoundingOp::kCeil:
      return std::ceil(x);
    case RoundingOp::kFloor:
      return std::floor(x);
    case RoundingOp::kRound:
      return std::nearbyint(x);  // the default environment: ties to even
    default:
      return std::trunc(x);
  }
}

// Cast float -> int32 in the op's mode: saturating, NaN -> 0.
int32_t CastInt32(RoundingOp op, float x) {
  if (std::isnan(x)) return 0;
  const double r = static_cast<double>(CastIntegral(op, x));
  return static_cast<int32_t>(std::clamp(r, -2147483648.0, 2147483647.0));
}

float IntToFloat(int32_t v) { return static_cast<float>(v); }  // CAST_NONE: to nearest even

// One round of a float path over `len` elements (Ceil, Trunc, Round on 2002; the loops that
// only write dst): 2201 one Cast into dst; 2002 the int32 in the scratch, then dst.
void FloatRound(RoundingOp op, bool arch2002, const float* src, float* dst, uint32_t len,
                uint8_t* scratch) {
  if (!arch2002) {
    for (uint32_t j = 0; j < len; ++j) dst[j] = CastIntegral(op, src[j]);
    return;
  }
  for (uint32_t j = 0; j < len; ++j) SetWord<int32_t>(scratch, j, CastInt32(op, src[j]));
  for (uint32_t j = 0; j < len; ++j) dst[j] = IntToFloat(Word<int32_t>(scratch, j));
}

// In-place integral part of the float temp at word `base` (TruncCastForTrunc, CeilProcess,
// FloorCommonProcess on the half path: on 2002 the int32 goes to the same words).
void TempIntegral(RoundingOp op, bool arch2002, uint8_t* scratch, uint32_t base, uint32_t len) {
  if (!arch2002) {
    for (uint32_t j = 0; j < len; ++j) {
      SetWord<float>(scratch, base + j, CastIntegral(op, Word<float>(scratch, base + j)));
    }
    return;
  }
  for (uint32_t j = 0; j < len; ++j) {
    SetWord<int32_t>(scratch, base + j, CastInt32(op, Word<float>(scratch, base + j)));
  }
  for (uint32_t j = 0; j < len; ++j) {
    SetWord<float>(scratch, base + j, IntToFloat(Word<int32_t>(scratch, base + j)));
  }
}

template <class Body>
void Rounds(uint32_t n, uint32_t split, Body body) {
  const uint32_t loops = n / split, tail = n % split;
  for (uint32_t i = 0; i < loops; ++i) body(i * split, split);
  if (tail > 0) body(loops * split, tail);
}

}  // namespace

bool ReplayRoundingScratch(RoundingOp op, bool arch2002, const float* src, float* dst, uint32_t n,
                           uint8_t* scratch, uint32_t tmpBytes) {
  const uint32_t split = tmpBytes / 4 / kBlk * kBlk;
  switch (op) {
    case RoundingOp::kFloor:  // FloorImpl<float>: no scratch (2002: dst holds the int32)
      if (arch2002) {
        for (uint32_t j = 0; j < n; ++j) {
          const int32_t i = CastInt32(op, src[j]);
          std::memcpy(dst + j, &i, 4);
        }
        for (uint32_t j = 0; j < n; ++j) {
          int32_t i;
          std::memcpy(&i, dst + j, 4);
          dst[j] = IntToFloat(i);
        }
      } else {
        for (uint32_t j = 0; j < n; ++j) dst[j] = CastIntegral(op, src[j]);
      }
      return true;
    case RoundingOp::kRound:
      if (!arch2002) {  // RoundComputeCount<float> (v220): one Cast, no scratch
        for (uint32_t j = 0; j < n; ++j) dst[j] = CastIntegral(op, src[j]);
        return true;
      }
      [[fallthrough]];
    case RoundingOp::kCeil:
    case RoundingOp::kTrunc:
      if (split == 0) return false;
      Rounds(n, split, [&](uint32_t off, uint32_t len) {
        FloatRound(op, arch2002, src + off, dst + off, len, scratch);
      });
      return true;
    case RoundingOp::kFrac: {  // FracCompute<float>: dst = Trunc(x) (2002: via dst's int32), x -
                               // dst
      if (tmpBytes / 4 == 0) return false;
      for (uint32_t j = 0; j < n; ++j) {
        dst[j] = arch2002 ? IntToFloat(CastInt32(op, src[j])) : CastIntegral(op, src[j]);
      }
      for (uint32_t j = 0; j < n; ++j) dst[j] = src[j] - dst[j];
      return true;
    }
  }
  return false;
}

bool ReplayRoundingScratch(RoundingOp op, bool arch2002, const Half* src, Half* dst, uint32_t n,
                           uint8_t* scratch, uint32_t tmpBytes) {
  uint32_t split = 0;
  if (op == RoundingOp::kCeil || op == RoundingOp::kTrunc) {
    split = tmpBytes / 2 / 2 / kBlk * kBlk;  // sizeof(half), then the CALC_PROCEDURE of 2
  } else if (op == RoundingOp::kFloor || (op == RoundingOp::kRound && !arch2002)) {
    split = tmpBytes / 4 / kBlk * kBlk;
  } else {  // Round on 2002 (ROUND_HALF_CALC_FAC_200), Frac (FRAC_HALF_CALC_PROCEDURE)
    if (op == RoundingOp::kFrac && tmpBytes / 4 == 0) return false;
    split = tmpBytes / 4 / 2 / kBlk * kBlk;
  }
  if (split == 0) return false;
  if (op != RoundingOp::kFrac) {
    Rounds(n, split, [&](uint32_t off, uint32_t len) {
      for (uint32_t j = 0; j < len; ++j) SetWord<float>(scratch, j, HalfToFloat(src[off + j]));
      TempIntegral(op, arch2002, scratch, 0, len);
      for (uint32_t j = 0; j < len; ++j) dst[off + j] = FloatToHalf(Word<float>(scratch, j));
    });
    return true;
  }
  // FracCompute<half>: the widened source at word 0, the result at word `split`.
  Rounds(n, split, [&](uint32_t off, uint32_t len) {
    for (uint32_t j = 0; j < len; ++j) SetWord<float>(scratch, j, HalfToFloat(src[off + j]));
    for (uint32_t j = 0; j < len; ++j) {
      SetWord<float>(scratch, split + j, Word<float>(scratch, j));  // Cast into dstTmp
    }
    TempIntegral(RoundingOp::kTrunc, arch2002, scratch, split, len);
    for (uint32_t j = 0; j < len; ++j) {
      SetWord<float>(scratch, split + j, Word<float>(scratch, j) - Word<float>(scratch, split + j));
    }
    for (uint32_t j = 0; j < len; ++j) dst[off + j] = FloatToHalf(Word<float>(scratch, split + j));
  });
  return true;
}

void ReplayClampScratch(bool clampMax, const float* src, float* dst, float scalar, uint32_t n) {
  for (uint32_t j = 0; j < n; ++j) {
    dst[j] = clampMax ? math_ops::Mins(src[j], scalar) : math_ops::Maxs(src[j], scalar);
  }
}

void ReplayClampScratch(bool clampMax, const Half* src, Half* dst, Half scalar, uint32_t n) {
  const float s = HalfToFloat(scalar);
  for (uint32_t j = 0; j < n; ++j) {  // Mins / Maxs as `x < s ? x : s` / `x > s ? x : s`
    const float x = HalfToFloat(src[j]);
    dst[j] = (clampMax ? x < s : x > s) ? src[j] : scalar;
  }
}

namespace {

// An element of float or Half as float, and a float (exact here: 0, 1, -1) stored as one.
float Widen(float v) { return v; }
float Widen(Half v) { return HalfToFloat(v); }
template <class T>
T Narrow(float v) {
  if constexpr (std::is_same_v<T, Half>) {
    return FloatToHalf(v);
  } else {
    return v;
  }
}

// SignComputeImpl on one round of `len` elements (dst, src at the round's offset; `tmp3` and
// `tmp4` the T tensors), Compare over `rep` repeats of `lanes`.
template <class T>
void SignRound(const T* src, T* dst, uint32_t len, uint32_t rep, uint32_t lanes, uint8_t* bits1,
               uint8_t* bits2, uint8_t* tmp3, uint8_t* tmp4) {
  const auto set = [](uint8_t* p, uint32_t j, T v) {
    std::memcpy(p + sizeof(T) * j, &v, sizeof v);
  };
  const auto get = [](const uint8_t* p, uint32_t j) {
    T v;
    std::memcpy(&v, p + sizeof(T) * j, sizeof v);
    return v;
  };
  for (uint32_t j = 0; j < len; ++j) dst[j] = Narrow<T>(0.0f);  // Duplicate 0
  for (uint32_t k = 0; k < rep * lanes / 8; ++k) bits1[k] = 0, bits2[k] = 0;
  for (uint32_t k = 0; k < rep * lanes; ++k) {  // Compare LT, then GT: every lane
    const float a = Widen(src[k]), b = Widen(dst[k]);
    if (a < b) bits1[k / 8] = static_cast<uint8_t>(bits1[k / 8] | (1u << (k % 8)));
  }
  for (uint32_t k = 0; k < rep * lanes; ++k) {
    const float a = Widen(src[k]), b = Widen(dst[k]);
    if (a > b) bits2[k / 8] = static_cast<uint8_t>(bits2[k / 8] | (1u << (k % 8)));
  }
  for (uint32_t j = 0; j < len; ++j) set(tmp3, j, Narrow<T>(1.0f));  // Duplicate 1, CMPMASK
  const T one = get(tmp3, 0);
  for (uint32_t j = 0; j < len; ++j) {  // Select: bit ? the tensor (dst) : the scalar
    set(tmp4, j, ((bits1[j / 8] >> (j % 8)) & 1u) != 0 ? dst[j] : one);
  }
  for (uint32_t j = 0; j < len; ++j) set(tmp3, j, Narrow<T>(-1.0f));  // Duplicate -1, CMPMASK
  const T minus = get(tmp3, 0);
  for (uint32_t j = 0; j < len; ++j) {
    dst[j] = ((bits2[j / 8] >> (j % 8)) & 1u) != 0 ? dst[j] : minus;
  }
  for (uint32_t j = 0; j < len; ++j) {  // Add(dst, tmp4, dst)
    dst[j] = Narrow<T>(Widen(get(tmp4, j)) + Widen(dst[j]));
  }
}

template <class T>
bool SignScratch(const T* src, T* dst, uint32_t n, uint8_t* scratch, uint32_t tmpBytes) {
  const uint32_t split = tmpBytes / sizeof(T) / 3 / kBlk * kBlk;
  if (split == 0) return false;
  const uint32_t tmpLen = (split / 8 + kBlk - 1) / kBlk * kBlk;
  const uint32_t lanes = 256 / sizeof(T);
  uint8_t* tmp3 = scratch + 2 * tmpLen;
  uint8_t* tmp4 = tmp3 + sizeof(T) * split;
  Rounds(n, split, [&](uint32_t off, uint32_t len) {
    const uint32_t rep = (len * sizeof(T) + 255) / 256;
    SignRound(src + off, dst + off, len, rep, lanes, scratch, scratch + tmpLen, tmp3, tmp4);
  });
  return true;
}

}  // namespace

bool ReplaySignScratch(const float* src, float* dst, uint32_t n, uint8_t* scratch,
                       uint32_t tmpBytes) {
  return SignScratch(src, dst, n, scratch, tmpBytes);
}

bool ReplaySignScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch,
                       uint32_t tmpBytes) {
  return SignScratch(src, dst, n, scratch, tmpBytes);
}

}  // namespace lngrad_replay
