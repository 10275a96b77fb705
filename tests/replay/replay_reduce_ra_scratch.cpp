// The 2201 reduce APIs' RA pattern with what it leaves in sharedTmpBuffer
// (replay_cumsum_reduce_scratch.h, ReplayReduceRaScratch). Provenance: a separate reading, by the
// helper (t1) who then changed lngrad to match, of the toolkit's
// impl/adv_api/detail/reduce/reduce_common_util_v220_impl.h (BinaryReduceByFirstAxis,
// FindClosestPowerOfTwo in reduce_common_util_impl.h) and of reduce_{sum,mean,max,min,prod,any,
// all}_v220_impl.h (which function each passes: Add, Add then Muls by 1 / first, Max, Min, Mul;
// Any/All: Max/Min for float, Or/And over int16 lanes for uint8, padLast halved and last =
// (last + 1) >> 1), mirror commit 82b89a15f, written before lngrad's RA scratch code:
// - splitK = the largest power of two <= first, remain = first - splitK;
// - not reusing: remain != 0: Adds(tmp, src, 0) over splitK rows, then func(tmp, tmp, src row
//   splitK..) over remain rows; else first > 1: splitK halves and func(tmp, src, src row splitK)
//   over splitK rows; else Adds(dst, src, 0) over `last` and return (scratch untouched);
//   reusing: remain != 0: func(src, src, src row splitK) over remain rows, src the buffer;
// - then, while splitK > 1: it halves, func(buf, buf, buf row splitK) over splitK rows;
//   Adds(dst, buf, 0) over `last` (all counts in elements of the row stride padLast).
// Elements: float one rounding each; half computed in float and rounded once (nearest even);
// Max/Min select a > b ? a : b (a < b ? a : b), the chosen element kept bit for bit; int16
// Or/And bitwise and Adds of 0 the identity. No code shared with lngrad.
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "replay_cumsum_reduce_scratch.h"

namespace lngrad_replay {
namespace {

enum class Fn { kAdd, kMul, kMax, kMin, kOr, kAnd };

float W(float v) { return v; }
float W(Half v) { return HalfToFloat(v); }

template <class T>
T Fun(Fn f, T a, T b) {
  if constexpr (std::is_same_v<T, int16_t>) {
    return static_cast<int16_t>(f == Fn::kOr ? (a | b) : (a & b));
  } else {
    switch (f) {
      case Fn::kAdd:
        return FromFloat<T>(W(a) + W(b));
      case Fn::kMul:
        return FromFloat<T>(W(a) * W(b));
      case Fn::kMax:
        return W(a) > W(b) ? a : b;
      default:
        return W(a) < W(b) ? a : b;
    }
  }
}

template <class T>
T AddsZero(T a) {
  if constexpr (std::is_same_v<T, int16_t>) {
    return a;
  } else {
    return FromFloat<T>(W(a) + 0.0f);
  }
}

template <class T>
void Fold(Fn f, bool reuse, T* src, T* dst, T* tmp, uint32_t first, uint32_t last, uint32_t pad) {
  uint32_t k = 0;
  while ((uint64_t{2} << k) <= first) ++k;
  uint32_t splitK = 1u << k;
  const uint32_t remain = first - splitK;
  T* buf = reuse ? src : tmp;
  if (reuse) {
    for (uint32_t i = 0; remain != 0 && i < pad * remain; ++i) {
      src[i] = Fun(f, src[i], src[splitK * pad + i]);
    }
  } else if (remain != 0) {
    for (uint32_t i = 0; i < splitK * pad; ++i) tmp[i] = AddsZero(src[i]);
    for (uint32_t i = 0; i < pad * remain; ++i) tmp[i] = Fun(f, tmp[i], src[splitK * pad + i]);
  } else if (splitK > 1) {
    splitK >>= 1;
    for (uint32_t i = 0; i < pad * splitK; ++i) tmp[i] = Fun(f, src[i], src[splitK * pad + i]);
  } else {
    for (uint32_t i = 0; i < last; ++i) dst[i] = AddsZero(src[i]);
    return;
  }
  while (splitK > 1) {
    splitK >>= 1;
    for (uint32_t i = 0; i < pad * splitK; ++i) buf[i] = Fun(f, buf[i], buf[splitK * pad + i]);
  }
  for (uint32_t i = 0; i < last; ++i) dst[i] = AddsZero(buf[i]);
}

Fn FnOf(RaOp op) {
  switch (op) {
    case RaOp::kSum:
    case RaOp::kMean:
      return Fn::kAdd;
    case RaOp::kProd:
      return Fn::kMul;
    case RaOp::kMax:
    case RaOp::kAny:
      return Fn::kMax;
    default:
      return Fn::kMin;
  }
}

template <class T>
bool RaFloat(RaOp op, bool reuse, T* src, T* dst, uint32_t first, uint32_t last, uint8_t* scratch) {
  if (first == 0) return false;  // FindClosestPowerOfTwo asserts n != 0
  constexpr uint32_t kBlk = 32 / sizeof(T);
  const uint32_t pad = (last + kBlk - 1) / kBlk * kBlk;
  Fold(FnOf(op), reuse, src, dst, reinterpret_cast<T*>(scratch), first, last, pad);
  if (op == RaOp::kMean) {
    const float r = 1.0f / static_cast<float>(static_cast<int32_t>(first));
    const T rt = FromFloat<T>(r);  // Muls<T>'s scalar as T
    for (uint32_t i = 0; i < last; ++i) dst[i] = FromFloat<T>(W(dst[i]) * W(rt));
  }
  return true;
}

}  // namespace

bool ReplayReduceRaScratch(RaOp op, bool reuse, float* src, float* dst, uint32_t first,
                           uint32_t last, uint8_t* scratch, uint32_t) {
  return RaFloat(op, reuse, src, dst, first, last, scratch);
}

bool ReplayReduceRaScratch(RaOp op, bool reuse, Half* src, Half* dst, uint32_t first, uint32_t last,
                           uint8_t* scratch, uint32_t) {
  return RaFloat(op, reuse, src, dst, first, last, scratch);
}

bool ReplayReduceRaScratch(RaOp op, bool reuse, uint8_t* src, uint8_t* dst, uint32_t first,
                           uint32_t last, uint8_t* scratch, uint32_t) {
  if (first == 0 || (op != RaOp::kAny && op != RaOp::kAll)) return false;
  const uint32_t pad = (last + 31) / 32 * 32 / 2, half_last = (last + 1) / 2;
  // The int16 views of the byte tensors (the device's ReinterpretCast).
  std::vector<int16_t> s(pad * first), d(half_last), t;
  std::memcpy(s.data(), src, s.size() * 2);
  std::memcpy(d.data(), dst, d.size() * 2);
  int16_t* tmp = reinterpret_cast<int16_t*>(scratch);
  Fold(op == RaOp::kAny ? Fn::kOr : Fn::kAnd, reuse, s.data(), d.data(), tmp, first, half_last,
       pad);
  std::memcpy(src, s.data(), s.size() * 2);
  std::memcpy(dst, d.data(), d.size() * 2);
  return true;
}

}  // namespace lngrad_replay
