// Tests of layer reg: a scalar model of the register functions, written from the reference's
// per-element definitions (docs/zh/api/SIMD-API/C-API/reg/) as a separate reading: it shares no
// code with lngrad_reg (op_table.h, engine.h), so a wrong reading there shows here.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

namespace lngrad::reg::testing {

inline constexpr uint32_t kVl = 256;  // the reference's VL in bytes

// The mask register as 256 bools, one per bit; lane i of T is bit i * sizeof(T).
struct ModelMask {
  bool bit[kVl] = {};
};

// Integer results are the low bits of the exact result (two's complement wrap-around).
template <typename T>
T Wrap(int64_t exact) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<uint64_t>(exact)));
}

enum class Op { kAdd, kSub, kMul, kDiv, kAnd };

template <typename T>
T ModelBinary(Op op, T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    switch (op) {
      case Op::kAdd:
        return a + b;
      case Op::kSub:
        return a - b;
      case Op::kMul:
        return a * b;
      case Op::kDiv:
        return a / b;
      case Op::kAnd: {
        uint32_t x, y;
        std::memcpy(&x, &a, 4);
        std::memcpy(&y, &b, 4);
        x &= y;
        T r;
        std::memcpy(&r, &x, 4);
        return r;
      }
    }
  } else {
    const int64_t x = a, y = b;
    switch (op) {
      // Two's complement wrap-around, in unsigned arithmetic (signed overflow is undefined).
      case Op::kAdd:
        return Wrap<T>(static_cast<int64_t>(static_cast<uint64_t>(x) + static_cast<uint64_t>(y)));
      case Op::kSub:
        return Wrap<T>(static_cast<int64_t>(static_cast<uint64_t>(x) - static_cast<uint64_t>(y)));
      case Op::kMul:
        return Wrap<T>(static_cast<int64_t>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y)));
      case Op::kDiv:  // lngrad's documented choice where the reference is silent
        return y == 0 ? Wrap<T>(-1) : Wrap<T>(x / y);
      case Op::kAnd:
        return Wrap<T>(x & y);
    }
  }
  return T{};
}

// Random lanes of T (floats: small integers and fractions, a few zeros; ints: every bit).
template <typename T>
std::vector<T> RandomLanes(std::mt19937& rng, uint32_t n) {
  std::vector<T> v(n);
  for (T& x : v) {
    if constexpr (std::is_floating_point_v<T>) {
      x = static_cast<T>(static_cast<int>(rng() % 2001) - 1000) / T(8);
    } else {
      x = static_cast<T>(rng());
    }
  }
  return v;
}

}  // namespace lngrad::reg::testing

namespace lngrad::reg::testing {

// Unary functions per the reference's pages: abs/neg flip the sign (floats: the sign bit),
// relu max(x, 0), sqrt/exp/ln of the value (float lanes: exp and ln in double, rounded once, as
// lngrad documents for its vector Exp/Ln), the five roundings to an integral value.
enum class UOp { kAbs, kNeg, kRelu, kSqrt, kExp, kLn, kFloor, kCeil, kTrunc, kRound, kRint };
inline float ModelUnary(UOp op, float x) {
  switch (op) {
    case UOp::kAbs:
      return std::fabs(x);
    case UOp::kNeg:
      return -x;
    case UOp::kRelu:
      return x > 0 ? x : 0.0f;
    case UOp::kSqrt:
      return std::sqrt(x);
    case UOp::kExp:
      return static_cast<float>(std::exp(static_cast<double>(x)));
    case UOp::kLn:
      return static_cast<float>(std::log(static_cast<double>(x)));
    case UOp::kFloor:
      return std::floor(x);
    case UOp::kCeil:
      return std::ceil(x);
    case UOp::kTrunc:
      return std::trunc(x);
    case UOp::kRound:
      return std::round(x);
    case UOp::kRint:
      return std::nearbyint(x);
  }
  return 0;
}

enum class BOp { kMax, kMin, kOr, kXor };
template <typename T>
T ModelBinary2(BOp op, T a, T b) {
  if (op == BOp::kMax) return a > b ? a : b;
  if (op == BOp::kMin) return a < b ? a : b;
  uint64_t x = 0, y = 0;
  std::memcpy(&x, &a, sizeof(T));
  std::memcpy(&y, &b, sizeof(T));
  const uint64_t r = op == BOp::kOr ? (x | y) : (x ^ y);
  T out;
  std::memcpy(&out, &r, sizeof(T));
  return out;
}

// c: 0 eq, 1 ne, 2 gt, 3 ge, 4 lt, 5 le.
template <typename T>
bool ModelCompare(int c, T a, T b) {
  const bool r[] = {a == b, a != b, a > b, a >= b, a < b, a <= b};
  return r[c];
}

// The reference's binary tree over [begin, begin + n) with unselected lanes as 0 (sum).
inline float ModelTreeSum(const std::vector<float>& a, const ModelMask& m, uint32_t begin,
                          uint32_t n) {
  std::vector<float> v(n);
  for (uint32_t i = 0; i < n; ++i) v[i] = m.bit[(begin + i) * 4] ? a[begin + i] : 0.0f;
  for (; n > 1; n /= 2) {
    for (uint32_t i = 0; i < n / 2; ++i) v[i] = v[2 * i] + v[2 * i + 1];
  }
  return v[0];
}
inline float ModelMax(const std::vector<float>& a, const ModelMask& m, uint32_t begin, uint32_t n) {
  float best = -std::numeric_limits<float>::infinity();
  for (uint32_t i = begin; i < begin + n; ++i) {
    if (m.bit[i * 4] && a[i] > best) best = a[i];
  }
  return best;
}

}  // namespace lngrad::reg::testing

namespace lngrad::reg::testing {

// The rearrangements, per the reference's pages (Gather, Squeeze, Interleave, DeInterleave, Pack,
// Histograms): gather takes index i modulo the lane count; squeeze packs the selected lanes to
// the front and zero-fills; interleave's pair is a0 b0 a1 b1 ... split in two registers, and
// deinterleave its inverse; pack keeps the low half of each wide lane, in the lower or upper
// half of the result (the other half 0: lngrad's reading); a histogram bin counts the selected
// bytes of its 128 values (cumulative: all values up to n).
template <typename T, typename I>
std::vector<T> ModelGather(const std::vector<T>& src, const std::vector<I>& index) {
  std::vector<T> out(src.size());
  for (size_t i = 0; i < src.size(); ++i) out[i] = src[index[i] % src.size()];
  return out;
}
template <typename T>
std::vector<T> ModelSqueeze(const std::vector<T>& src, const ModelMask& m, uint32_t* n) {
  std::vector<T> out(src.size(), T{});
  *n = 0;
  for (size_t i = 0; i < src.size(); ++i) {
    if (m.bit[i * sizeof(T)]) out[(*n)++] = src[i];
  }
  return out;
}
template <typename T>
std::vector<T> ModelZip(const std::vector<T>& a, const std::vector<T>& b) {
  std::vector<T> out;
  for (size_t i = 0; i < a.size(); ++i) {
    out.push_back(a[i]);
    out.push_back(b[i]);
  }
  return out;
}
inline std::vector<uint16_t> ModelPackLow(const std::vector<uint32_t>& src, bool upper) {
  std::vector<uint16_t> out(2 * src.size(), 0);
  for (size_t i = 0; i < src.size(); ++i) {
    out[(upper ? src.size() : 0) + i] = static_cast<uint16_t>(src[i] & 0xFFFFu);
  }
  return out;
}
inline std::vector<uint16_t> ModelHistogram(const std::vector<uint8_t>& src, const ModelMask& m,
                                            std::vector<uint16_t> acc, int bin, bool cumulative) {
  for (int n = 0; n < 128; ++n) {
    uint32_t c = 0;
    for (size_t i = 0; i < src.size(); ++i) {
      const int v = src[i] - 128 * bin;
      if (m.bit[i] && (cumulative ? (v >= 0 && v <= n) : v == n)) ++c;
    }
    acc[n] = static_cast<uint16_t>(acc[n] + c);
  }
  return acc;
}

// The shaped aligned loads, per the reference's asc_loadalign_* pages: the register's element k
// of a VL register of T from the UB elements ub (ub[0] at the load's address): brc_elem all
// ub[0]; upsample ub[k / 2]; downsample ub[2k]; unpack4 ub[k / 4] in every fourth element, the
// others 0; brc_datablock the first 32-byte block again and again; brc_elem2datablock ub[j] over
// the whole of block j.
enum class ModelShape { kBrcElem, kUpsample, kDownsample, kUnpack4, kBrcBlock, kElemToBlock };
template <typename T>
std::vector<T> ModelShapedLoad(ModelShape shape, const std::vector<T>& ub) {
  const uint32_t n = kVl / sizeof(T), perBlock = 32 / sizeof(T);
  std::vector<T> out(n);
  for (uint32_t k = 0; k < n; ++k) {
    switch (shape) {
      case ModelShape::kBrcElem:
        out[k] = ub[0];
        break;
      case ModelShape::kUpsample:
        out[k] = ub[k / 2];
        break;
      case ModelShape::kDownsample:
        out[k] = ub[2 * k];
        break;
      case ModelShape::kUnpack4:
        out[k] = k % 4 == 0 ? ub[k / 4] : T{};
        break;
      case ModelShape::kBrcBlock:
        out[k] = ub[k % perBlock];
        break;
      case ModelShape::kElemToBlock:
        out[k] = ub[k / perBlock];
        break;
    }
  }
  return out;
}

// The UB vector instructions' repeat form (the reference's asc_add repeat page): element e < 8 *
// perBlock of repeat r lies in block e / perBlock at (r * repStride + block * blkStride) blocks;
// returns the element offset of (r, e) for strides in 32-byte blocks.
inline uint32_t ModelRepeatOffset(uint32_t r, uint32_t e, uint32_t perBlock, uint32_t blkStride,
                                  uint32_t repStride) {
  return (r * repStride + (e / perBlock) * blkStride) * perBlock + e % perBlock;
}

// The fused functions, per the reference's pages (ExpSub, AbsSub, MulDstAdd): the difference or
// the product rounded to float first (lngrad's reading, the vector instructions' one rounding
// per step), exp in double rounded once (as Exp).
inline float ModelExpSub(float a, float b) {
  const float d = a - b;
  return static_cast<float>(std::exp(static_cast<double>(d)));
}
inline float ModelAbsSub(float a, float b) { return std::fabs(a - b); }
inline float ModelMulDstAdd(float d, float a, float b) {
  const float p = d * a;
  return p + b;
}

}  // namespace lngrad::reg::testing
