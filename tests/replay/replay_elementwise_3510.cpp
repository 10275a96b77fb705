// The 950's element-wise selection, bit, logic, Axpy and ArithProgression register loops
// (replay_elementwise_3510.h says what was read, and the conventions).
#include "replay_elementwise_3510.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

namespace lngrad_replay {

namespace {

constexpr uint32_t kVecLen = 256;  // bytes of one vector register (GetVecLen())

// Reg::UpdateMask(count): the lanes of this repeat, and count lowered by `lanes`.
uint32_t UpdateMask(uint32_t& count, uint32_t lanes) {
  const uint32_t active = count < lanes ? count : lanes;
  count -= active;
  return active;
}

// Lanes of one repeat for elements of `bytes` bytes: one register, or two for 8-byte elements
// (RegTraitNumTwo: 2 * 256 / 8 = 64).
constexpr uint32_t LanesOf(uint32_t bytes) { return bytes == 8 ? 64u : kVecLen / bytes; }

uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

}  // namespace

// ---- Where --------------------------------------------------------------------------------

void ReplayWhere3510(uint8_t* dst, const uint8_t* src0, bool src0Scalar, const uint8_t* src1,
                     bool src1Scalar, const uint8_t* cond, uint32_t count, uint32_t elemBytes) {
  // repeatTime from the WhereType (uint32 for 8-byte T: 64 lanes), the loop's stride and
  // masks from the register type (64 lanes of uint64 in two registers): the same 64.
  const uint32_t lanes = LanesOf(elemBytes);
  const uint32_t repeatTime = CeilDiv(count, elemBytes == 8 ? kVecLen / 4 : lanes);
  uint32_t left = count;
  std::vector<uint8_t> reg0(static_cast<size_t>(lanes) * elemBytes);
  std::vector<uint8_t> reg1(reg0.size());
  // Duplicate of the scalar forms, once before the loop.
  if (src0Scalar) {
    for (uint32_t j = 0; j < lanes; ++j) std::memcpy(&reg0[j * elemBytes], src0, elemBytes);
  }
  if (src1Scalar) {
    for (uint32_t j = 0; j < lanes; ++j) std::memcpy(&reg1[j * elemBytes], src1, elemBytes);
  }
  for (uint32_t i = 0; i < repeatTime; ++i) {
    const uint32_t active = UpdateMask(left, lanes);
    const size_t base = static_cast<size_t>(i) * lanes;
    // The condition's 256 bytes from byte i * lanes, compared NE 0 under the full mask, then
    // MaskUnPack'ed (0, 1 or 2 times): lane j's bit is byte j's.
    if (!src0Scalar) std::memcpy(reg0.data(), src0 + base * elemBytes, reg0.size());
    if (!src1Scalar) std::memcpy(reg1.data(), src1 + base * elemBytes, reg1.size());
    for (uint32_t j = 0; j < active; ++j) {
      const bool sel = cond[base + j] != 0;
      const uint8_t* from = sel ? &reg0[j * elemBytes] : &reg1[j * elemBytes];
      std::memcpy(dst + (base + j) * elemBytes, from, elemBytes);
    }
  }
}

// ---- Xor ----------------------------------------------------------------------------------

void ReplayXor3510(uint16_t* dst, const uint16_t* a, const uint16_t* b, uint32_t calCount) {
  constexpr uint32_t oneRepSize = kVecLen / 2;
  const uint32_t repeatTimes = CeilDiv(calCount, oneRepSize);
  uint32_t left = calCount;
  for (uint32_t i = 0; i < repeatTimes; ++i) {
    const uint32_t active = UpdateMask(left, oneRepSize);
    for (uint32_t j = 0; j < active; ++j) {
      const size_t e = static_cast<size_t>(i) * oneRepSize + j;
      dst[e] = static_cast<uint16_t>(a[e] ^ b[e]);
    }
  }
}

// ---- BitwiseAnd / Or / Xor / Not ----------------------------------------------------------

namespace {

template <class U>
U BitApply(BitOp op, U x, U y) {
  switch (op) {
    case BitOp::kAnd:
      return static_cast<U>(x & y);
    case BitOp::kOr:
      return static_cast<U>(x | y);
    case BitOp::kXor:
      return static_cast<U>(x ^ y);
    case BitOp::kNot:
      return static_cast<U>(~x);
  }
  return x;
}

// One step of BitwiseTemplateImplVF / BitwiseNotCompute: UpdateMask, load at element `at`,
// the operation under the mask, store of the selected lanes. The loaded registers are copied
// before the store (the load precedes it), so an in-place call reads the old values.
template <class U>
void BitwiseBlock(BitOp op, U* dst, const U* a, const U* b, size_t at, uint32_t& left,
                  uint32_t lanes) {
  const uint32_t active = UpdateMask(left, lanes);
  std::vector<U> ra(a + at, a + at + active);
  std::vector<U> rb(active);
  if (op != BitOp::kNot) std::copy(b + at, b + at + active, rb.begin());
  for (uint32_t j = 0; j < active; ++j) dst[at + j] = BitApply(op, ra[j], rb[j]);
}

}  // namespace

template <class U>
void ReplayBitwise3510(BitOp op, U* dst, const U* a, const U* b, uint32_t count) {
  static_assert(std::is_unsigned_v<U>);
  const uint32_t lanes = LanesOf(sizeof(U));
  const uint32_t repeatTime = CeilDiv(count, lanes) / 2;
  const size_t offset = static_cast<size_t>(repeatTime) * lanes;
  uint32_t left = count;
  for (uint32_t i = 0; i < repeatTime; ++i) {
    BitwiseBlock(op, dst, a, b, static_cast<size_t>(i) * lanes, left, lanes);
    BitwiseBlock(op, dst, a, b, static_cast<size_t>(i) * lanes + offset, left, lanes);
  }
  BitwiseBlock(op, dst, a, b, static_cast<size_t>(repeatTime) * 2 * lanes, left, lanes);
}

template void ReplayBitwise3510<uint8_t>(BitOp, uint8_t*, const uint8_t*, const uint8_t*, uint32_t);
template void ReplayBitwise3510<uint16_t>(BitOp, uint16_t*, const uint16_t*, const uint16_t*,
                                          uint32_t);
template void ReplayBitwise3510<uint32_t>(BitOp, uint32_t*, const uint32_t*, const uint32_t*,
                                          uint32_t);
template void ReplayBitwise3510<uint64_t>(BitOp, uint64_t*, const uint64_t*, const uint64_t*,
                                          uint32_t);

// ---- LogicalXor ---------------------------------------------------------------------------

namespace {

// CompareScalar<U, NE>(v, 0).
template <class U>
bool NonZero(U v) {
  if constexpr (std::is_same_v<U, Half>) {
    return HalfToFloat(v) != 0.0f;
  } else if constexpr (std::is_same_v<U, Bf16>) {
    return Bf16ToFloat(v) != 0.0f;
  } else {
    return v != U(0);
  }
}

}  // namespace

template <class U>
void ReplayLogicalXor3510(uint8_t* dst, const U* a, const U* b, uint32_t count) {
  const uint32_t lanes = LanesOf(sizeof(U));
  const uint32_t repeatTime = CeilDiv(count, lanes);
  uint32_t left = count;
  for (uint32_t i = 0; i < repeatTime; ++i) {
    // The compares run under the count's mask (unselected lanes false), MaskXor under it too,
    // then both masks are packed to bytes and Select(1, 0) is stored under the packed mask.
    const uint32_t active = UpdateMask(left, lanes);
    for (uint32_t j = 0; j < active; ++j) {
      const size_t e = static_cast<size_t>(i) * lanes + j;
      dst[e] = (NonZero(a[e]) != NonZero(b[e])) ? 1u : 0u;
    }
  }
}

template void ReplayLogicalXor3510<uint8_t>(uint8_t*, const uint8_t*, const uint8_t*, uint32_t);
template void ReplayLogicalXor3510<int8_t>(uint8_t*, const int8_t*, const int8_t*, uint32_t);
template void ReplayLogicalXor3510<uint16_t>(uint8_t*, const uint16_t*, const uint16_t*, uint32_t);
template void ReplayLogicalXor3510<int16_t>(uint8_t*, const int16_t*, const int16_t*, uint32_t);
template void ReplayLogicalXor3510<uint32_t>(uint8_t*, const uint32_t*, const uint32_t*, uint32_t);
template void ReplayLogicalXor3510<int32_t>(uint8_t*, const int32_t*, const int32_t*, uint32_t);
template void ReplayLogicalXor3510<uint64_t>(uint8_t*, const uint64_t*, const uint64_t*, uint32_t);
template void ReplayLogicalXor3510<int64_t>(uint8_t*, const int64_t*, const int64_t*, uint32_t);
template void ReplayLogicalXor3510<float>(uint8_t*, const float*, const float*, uint32_t);
template void ReplayLogicalXor3510<Half>(uint8_t*, const Half*, const Half*, uint32_t);
template void ReplayLogicalXor3510<Bf16>(uint8_t*, const Bf16*, const Bf16*, uint32_t);

// ---- Axpy ---------------------------------------------------------------------------------

namespace {

// The exact x·s + d rounded once to half. x·s is exact in double (two 11-bit significands);
// the double sum is made round-to-odd (53 >= 2·11 + 2 bits), so rounding it to half once more
// gives the correctly rounded result.
Half FusedHalf(Half x, Half s, Half d) {
  const double p = static_cast<double>(HalfToFloat(x)) * static_cast<double>(HalfToFloat(s));
  const double c = HalfToFloat(d);
  double r = p + c;
  if (std::isfinite(r)) {
    const double bp = r - c;  // TwoSum: the rounding error of p + c
    const double err = (p - bp) + (c - (r - bp));
    uint64_t bits = 0;
    std::memcpy(&bits, &r, sizeof r);
    if (err != 0.0 && (bits & 1u) == 0) r = std::nextafter(r, err > 0.0 ? INFINITY : -INFINITY);
  }
  return DoubleToHalf(r);
}

// One masked Reg::Axpy step on `active` lanes from element `at`.
template <class D, class S, class Op>
void AxpyBlock(D* dst, const S* src, size_t at, uint32_t active, Op fused) {
  for (uint32_t j = 0; j < active; ++j) dst[at + j] = fused(src[at + j], dst[at + j]);
}

// AxpyImpl's split of calCount and AxpyCompute's block order (pairs i, i + offset; the single
// block; the tail under maskTail).
template <class D, class S, class Op>
void AxpyLoops(D* dst, const S* src, uint32_t calCount, Op fused) {
  constexpr uint32_t oneRepSize = kVecLen / sizeof(D);
  uint32_t tailCount = calCount % oneRepSize;
  uint32_t repeatTimes = calCount / oneRepSize;
  if (tailCount == 0 && repeatTimes > 0) {
    --repeatTimes;
    tailCount += oneRepSize;
  }
  const uint32_t unroll = repeatTimes / 2;
  const uint32_t single = repeatTimes % 2;
  const size_t offset = static_cast<size_t>(unroll) * oneRepSize;
  for (uint32_t i = 0; i < unroll; ++i) {
    AxpyBlock(dst, src, static_cast<size_t>(i) * oneRepSize, oneRepSize, fused);
    AxpyBlock(dst, src, static_cast<size_t>(i) * oneRepSize + offset, oneRepSize, fused);
  }
  const size_t singleAt = static_cast<size_t>(unroll) * oneRepSize * 2;
  for (uint32_t j = 0; j < single; ++j) AxpyBlock(dst, src, singleAt, oneRepSize, fused);
  AxpyBlock(dst, src, singleAt + static_cast<size_t>(single) * oneRepSize, tailCount, fused);
}

}  // namespace

void ReplayAxpy3510(float* dst, const float* src, float s, uint32_t calCount) {
  AxpyLoops(dst, src, calCount, [s](float x, float d) { return std::fmaf(x, s, d); });
}

void ReplayAxpy3510(float* dst, const Half* src, Half s, uint32_t calCount) {
  // DIST_UNPACK_B16 load, Cast half -> float (exact), Axpy with the half scalar as float.
  const float sf = HalfToFloat(s);
  AxpyLoops(dst, src, calCount, [sf](Half x, float d) { return std::fmaf(HalfToFloat(x), sf, d); });
}

void ReplayAxpy3510(Half* dst, const Half* src, Half s, uint32_t calCount) {
  AxpyLoops(dst, src, calCount, [s](Half x, Half d) { return FusedHalf(x, s, d); });
}

// ---- ArithProgression ---------------------------------------------------------------------

namespace {

// One lane operation in T: integers wrap, float IEEE, half rounded once from float (exact
// operands; float's 24 bits make the double rounding innocuous for + and ×).
template <class T>
T LaneMul(T a, T b) {
  if constexpr (std::is_same_v<T, Half>) {
    return FloatToHalf(HalfToFloat(a) * HalfToFloat(b));
  } else if constexpr (std::is_same_v<T, float>) {
    return a * b;
  } else {
    using W = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<W>(static_cast<W>(a) * static_cast<W>(b)));
  }
}

template <class T>
T LaneAdd(T a, T b) {
  if constexpr (std::is_same_v<T, Half>) {
    return FloatToHalf(HalfToFloat(a) + HalfToFloat(b));
  } else if constexpr (std::is_same_v<T, float>) {
    return a + b;
  } else {
    using W = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<W>(static_cast<W>(a) + static_cast<W>(b)));
  }
}

// static_cast<T>(n) of a small non-negative integer (exact in every T here).
template <class T>
T FromIndex(uint32_t n) {
  if constexpr (std::is_same_v<T, Half>) {
    return FloatToHalf(static_cast<float>(n));
  } else {
    return static_cast<T>(n);
  }
}

}  // namespace

template <class T>
void ReplayArithProgression3510(T* dst, T first, T diff, int32_t count) {
  // The kit's int32 CeilDivision gives no repeat for a count in (-lanes, 0]; a count below that
  // wraps the uint16 repeat count, which the replay does not model (it covers counts >= 0).
  if (count <= 0) return;
  const uint32_t lanes = LanesOf(sizeof(T));
  // GetBaseArithProgression: Arange(0), Muls(diff), Adds(first) over every lane.
  std::vector<T> reg(lanes);
  for (uint32_t j = 0; j < lanes; ++j) reg[j] = LaneAdd(LaneMul(FromIndex<T>(j), diff), first);
  // stepReg = Duplicate(T(lanes)) · diff.
  const T step = LaneMul(FromIndex<T>(lanes), diff);
  const uint32_t n = static_cast<uint32_t>(count);
  const uint32_t repeatTimes = CeilDiv(n, lanes);
  uint32_t left = n;
  for (uint32_t i = 0; i < repeatTimes; ++i) {
    const uint32_t active = UpdateMask(left, lanes);
    for (uint32_t j = 0; j < active; ++j) dst[static_cast<size_t>(i) * lanes + j] = reg[j];
    for (uint32_t j = 0; j < lanes; ++j) reg[j] = LaneAdd(reg[j], step);
  }
}

template void ReplayArithProgression3510<int16_t>(int16_t*, int16_t, int16_t, int32_t);
template void ReplayArithProgression3510<int32_t>(int32_t*, int32_t, int32_t, int32_t);
template void ReplayArithProgression3510<int64_t>(int64_t*, int64_t, int64_t, int32_t);
template void ReplayArithProgression3510<float>(float*, float, float, int32_t);
template void ReplayArithProgression3510<Half>(Half*, Half, Half, int32_t);

}  // namespace lngrad_replay
