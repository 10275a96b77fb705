// lngrad_replay: the scalar model of the 3510 vector registers that the SoftMax family's 3510
// replays share (replay_softmax_3510.cpp, replay_softmax_3510_nz.cpp); see replay_softmax_3510.h
// for what it models. Written apart from lngrad's implementation.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "replay.h"

namespace lngrad_replay::r3510::reg {

constexpr uint32_t kL = 64;  // float lanes of a vector register
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

struct V {
  float v[kL] = {};
};
using P = uint64_t;  // one bit per float lane
constexpr P kFull = ~P{0};

constexpr P First(uint32_t n) { return n >= kL ? kFull : (P{1} << n) - 1; }
constexpr bool On(P p, uint32_t i) { return ((p >> i) & 1u) != 0; }
// Reg::UpdateMask<uint32_t>(sreg): the next min(sreg, 64) lanes; sreg decreases by that.
inline P UpdateMask(uint32_t& sreg) {
  const uint32_t n = sreg < kL ? sreg : kL;
  sreg -= n;
  return First(n);
}

inline float ExpD(float x) { return static_cast<float>(std::exp(static_cast<double>(x))); }
inline float Log10D(float x) { return static_cast<float>(std::log10(static_cast<double>(x))); }
// The register Max: a NaN operand gives NaN (the first one), else the larger (a on a tie).
inline float MaxOf(float a, float b) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  return a < b ? b : a;
}

// LoadAlign (+ the widening Cast): 64 elements from p; lanes at or past `avail` read 0.
template <class T>
inline V Load(const T* p, int64_t avail) {
  V r;
  for (uint32_t i = 0; i < kL && static_cast<int64_t>(i) < avail; ++i) r.v[i] = ToFloat(p[i]);
  return r;
}
// StoreAlign (+ the narrowing Cast) of the selected lanes below `avail`.
template <class T>
inline void Store(T* p, const V& a, P mask, int64_t avail) {
  for (uint32_t i = 0; i < kL && static_cast<int64_t>(i) < avail; ++i) {
    if (On(mask, i)) p[i] = FromFloat<T>(a.v[i]);
  }
}

template <class F>
inline V Lanes2(const V& a, const V& b, P mask, F f) {
  V r;
  for (uint32_t i = 0; i < kL; ++i) r.v[i] = On(mask, i) ? f(a.v[i], b.v[i]) : 0.0f;
  return r;
}
inline V Add(const V& a, const V& b, P m) {
  return Lanes2(a, b, m, [](float x, float y) { return x + y; });
}
inline V Sub(const V& a, const V& b, P m) {
  return Lanes2(a, b, m, [](float x, float y) { return x - y; });
}
inline V Mul(const V& a, const V& b, P m) {
  return Lanes2(a, b, m, [](float x, float y) { return x * y; });
}
inline V Div(const V& a, const V& b, P m) {
  return Lanes2(a, b, m, [](float x, float y) { return x / y; });
}
inline V Max(const V& a, const V& b, P m) { return Lanes2(a, b, m, MaxOf); }
inline V Exp(const V& a, P m) {
  return Lanes2(a, a, m, [](float x, float) { return ExpD(x); });
}
inline V Log10(const V& a, P m) {
  return Lanes2(a, a, m, [](float x, float) { return Log10D(x); });
}
// FusedExpSub: the difference rounded, then Exp.
inline V ExpSub(const V& a, const V& b, P m) { return Exp(Sub(a, b, m), m); }
inline V Select(const V& a, const V& b, P m) {
  V r;
  for (uint32_t i = 0; i < kL; ++i) r.v[i] = On(m, i) ? a.v[i] : b.v[i];
  return r;
}
inline V Splat(float x) {
  V r;
  for (float& e : r.v) e = x;
  return r;
}
// Duplicate(dst, src, mask): lane 0 of src into the selected lanes, 0 elsewhere.
inline V Brc(const V& a, P m) { return Select(Splat(a.v[0]), V{}, m); }

// The adjacent-pair tree over lanes [b, b + n) of a selected by m; false when none is.
inline bool Tree(const V& a, P m, uint32_t b, uint32_t n, bool isMax, float* out) {
  float val[kL];
  bool on[kL];
  for (uint32_t i = 0; i < n; ++i) val[i] = a.v[b + i], on[i] = On(m, b + i);
  for (uint32_t w = n; w > 1; w /= 2) {
    for (uint32_t i = 0; i < w / 2; ++i) {
      const uint32_t l = 2 * i, r = l + 1;
      if (on[l] && on[r]) {
        val[i] = isMax ? MaxOf(val[l], val[r]) : val[l] + val[r];
      } else {
        val[i] = on[l] ? val[l] : val[r];
      }
      on[i] = on[l] || on[r];
    }
  }
  *out = val[0];
  return on[0];
}
// ReduceSum / ReduceMax: lane 0 the tree, other lanes 0.
inline V Reduce(const V& a, P m, bool isMax) {
  V r;
  float t = 0.0f;
  r.v[0] = Tree(a, m, 0, kL, isMax, &t) ? t : (isMax ? kNegInf : 0.0f);
  return r;
}
// Reduce*WithDataBlock: lane b the tree of block b (8 lanes); an empty block 0 or -inf.
inline V ReduceBlocks(const V& a, P m, bool isMax) {
  V r;
  for (uint32_t b = 0; b < 8; ++b) {
    float t = 0.0f;
    r.v[b] = Tree(a, m, 8 * b, 8, isMax, &t) ? t : (isMax ? kNegInf : 0.0f);
  }
  return r;
}

template <class S>
constexpr uint32_t kStat = 32 / sizeof(S);  // statistics lanes per row

// The NZ fractals of SoftMaxGenericNZ[WithTail]VFImpl: register i of fractal j holds rows 4i ..
// 4i + 3 (16 lanes each) at i * 64 + j * srcM * 16; oriK / 16 whole fractals, then (oriK !=
// srcK) the tail fractal under pregkTail (the first oriK % 16 lanes of each row).
template <class T>
struct NzRegs {
  uint32_t srcM, srcK, oriM, oriK;
  const T* src;
  uint32_t Block() const { return srcM * 16; }
  uint32_t MRepeats() const { return (Block() + kL - 1) / kL; }
  uint32_t Whole() const { return oriK / 16; }
  bool HasTail() const { return srcK != oriK; }
  P TailMask() const {
    P p = 0;
    for (uint32_t l = 0; l < kL; ++l) p |= (l % 16 < oriK % 16) ? P{1} << l : 0;
    return p;
  }
  V Reg(uint32_t i, uint32_t j) const {
    const int64_t at = int64_t{i} * kL + int64_t{j} * Block();
    return Load(src + at, int64_t{srcK / 16} * Block() - at);
  }
};

// The fold of ReduceWithDataBlock's eight results per register (DINTLV: even and odd) into a
// row value: row 4i + q gets op(block 2q, block 2q + 1).
template <class Op>
inline void Fold(const V& b, uint32_t i, std::vector<float>& rows, Op op) {
  for (uint32_t q = 0; q < 4; ++q) rows[4 * i + q] = op(b.v[2 * q], b.v[2 * q + 1]);
}
// LoadE2B of the folded row values (interleaved with themselves): lane l gets row 4i + l / 16.
inline V RowsE2B(const std::vector<float>& rows, uint32_t i) {
  V r;
  for (uint32_t l = 0; l < kL; ++l) r.v[l] = rows[4 * i + l / 16];
  return r;
}

}  // namespace lngrad_replay::r3510::reg
