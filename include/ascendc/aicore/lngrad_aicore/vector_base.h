// lngrad Ascend C runtime: what the vector instruction families share (vector_ops.h includes
// it): operand checks, the count-form and mask/repeat-form drivers, the runs of each form.
#pragma once

#include <array>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <initializer_list>
#include <iterator>
#include <string>
#include <type_traits>

#include "bfloat16.h"
#include "check.h"
#include "instructions.h"
#include "mask.h"
#include "sanitizer.h"
#include "tensor.h"

namespace lngrad::aicore::detail {

struct VecOperand {
  TensorView view;
  uint32_t elem_size;
  const char* name;
};
// Applies the operand rules above; operands[0] is the destination.
void CheckVectorOperands(const char* api, int64_t count,
                         std::initializer_list<VecOperand> operands);

template <typename T>
inline constexpr bool kIsVecFloat = std::is_same_v<T, float> || std::is_same_v<T, half>;
template <typename T>
inline constexpr bool kIsVecInt = std::is_same_v<T, int32_t> || std::is_same_v<T, int16_t> ||
                                  std::is_same_v<T, uint32_t> || std::is_same_v<T, uint16_t>;
template <typename T>
inline constexpr bool kIsSignedVecInt = std::is_same_v<T, int32_t> || std::is_same_v<T, int16_t>;

static_assert(sizeof(half) == sizeof(Half) && alignof(half) == alignof(Half));
// The instruction set's view of kernel operands: `half` and lngrad::Half share the binary16
// storage.
inline Half* AsHalf(half* p) { return reinterpret_cast<Half*>(p); }
inline const Half* AsHalf(const half* p) { return reinterpret_cast<const Half*>(p); }
template <typename T>
auto InstrPtr(T* p) {
  if constexpr (std::is_same_v<std::remove_const_t<T>, half>) {
    return AsHalf(p);
  } else {
    return p;
  }
}

// One float -> half conversion in the given mode (the instruction set's FloatToHalf, as `half`).
inline half FloatToHalf(float f, AscendC::RoundMode mode) noexcept {
  return half::FromBits(lngrad::aicore::FloatToHalf(f, mode).bits);
}
using lngrad::aicore::RoundModeName;

// Integer lanes wrap modulo 2^bits like the hardware; computed unsigned to stay defined in C++.
template <typename T>
T IntOp(BinaryOp op, T x, T y) {
  using U = std::make_unsigned_t<T>;
  const U a = static_cast<U>(x);
  const U b = static_cast<U>(y);
  switch (op) {
    case BinaryOp::kAdd:
      return static_cast<T>(static_cast<U>(a + b));
    case BinaryOp::kSub:
      return static_cast<T>(static_cast<U>(a - b));
    case BinaryOp::kMul:
      return static_cast<T>(static_cast<U>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b)));
    case BinaryOp::kMax:
      return x > y ? x : y;
    case BinaryOp::kMin:
      return x < y ? x : y;
    default:
      return T{0};
  }
}
template <typename T>
void IntBinary(BinaryOp op, T* dst, const T* a, const T* b, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) dst[i] = IntOp(op, a[i], b[i]);
}
inline BinaryOp ScalarToBinary(ScalarOp op) {
  // By ScalarOp's order: Adds, Subs, Muls, Divs, Maxs, Mins (integer forms: Adds, Muls, Maxs,
  // Mins; the others map to kAdd).
  constexpr BinaryOp kOf[] = {BinaryOp::kAdd, BinaryOp::kAdd, BinaryOp::kMul,
                              BinaryOp::kAdd, BinaryOp::kMax, BinaryOp::kMin};
  const auto i = static_cast<size_t>(op);
  return i < std::size(kOf) ? kOf[i] : BinaryOp::kAdd;
}

// The arithmetic of one contiguous run (every form ends here).
template <typename T>
void BinaryRun(BinaryOp op, T* dst, const T* a, const T* b, uint64_t n) {
  if constexpr (kIsVecFloat<T>) {
    MakeOps(Impl::kAuto).Binary(op, InstrPtr(dst), InstrPtr(a), InstrPtr(b), n);
  } else {
    IntBinary(op, dst, a, b, n);
  }
}
template <typename T>
void ScalarRun(ScalarOp op, T* dst, const T* a, T s, uint64_t n) {
  if constexpr (kIsVecFloat<T>) {
    MakeOps(Impl::kAuto).Scalar(op, InstrPtr(dst), InstrPtr(a), static_cast<float>(s), n);
  } else {
    // Element by element in increasing order, also when dst overlaps a.
    for (uint64_t i = 0; i < n; ++i) dst[i] = IntOp(ScalarToBinary(op), a[i], s);
  }
}
template <typename T>
void UnaryRun(UnaryOp op, T* dst, const T* a, uint64_t n) {
  if constexpr (kIsVecFloat<T>) {
    MakeOps(Impl::kAuto).Unary(op, InstrPtr(dst), InstrPtr(a), n);
  } else {
    for (uint64_t i = 0; i < n; ++i) dst[i] = a[i] > T{0} ? a[i] : T{0};  // Relu
  }
}
// Checked mode: 1- and 8-byte element types exist on Ascend 950PR/950DT only
// (checks::kVectorType, naming the API and the product).
void RequireWideTypeProduct(const char* api, uint32_t elem_size);

// A fill moves bits: every 4-byte type fills as float, every 2-byte type as half.
template <typename T>
void FillRun(T* dst, T v, uint64_t n) {
  static_assert(std::is_trivially_copyable_v<T>);
  const Ops ops = MakeOps(Impl::kAuto);
  if constexpr (sizeof(T) == 1 || sizeof(T) == 8) {
    for (uint64_t i = 0; i < n; ++i) std::memcpy(dst + i, &v, sizeof(T));
  } else if constexpr (sizeof(T) == 4) {
    ops.Fill(reinterpret_cast<float*>(dst), std::bit_cast<float>(v), n);
  } else {
    ops.Fill(reinterpret_cast<Half*>(dst), std::bit_cast<Half>(v), n);
  }
}

// The sanitizer's record of a count form: srcs read, dst written, `bytes` each (the size of
// the element type of that operand times count).
struct CountAccess {
  const void* p;
  uint64_t bytes;
};
inline void RecordCount(san::Instr& in, CountAccess dst, std::initializer_list<CountAccess> srcs) {
  if (!in) return;
  for (const CountAccess& s : srcs) in.Read(s.p, s.bytes);
  in.Write(dst.p, dst.bytes);
}

template <typename T>
void Binary(BinaryOp op, const char* api, const AscendC::LocalTensor<T>& dst,
            const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>& src1, int32_t count,
            SrcLoc loc) {
  CheckVectorOperands(api, count,
                      {{dst.View(), sizeof(T), "dst"},
                       {src0.View(), sizeof(T), "src0"},
                       {src1.View(), sizeof(T), "src1"}});
  RestoreMaskAfterCount(MaskContext(api));
  const uint64_t n = static_cast<uint32_t>(count);
  san::Instr in(Pipe::kV, api, loc);
  RecordCount(in, {dst.HostPtr(), n * sizeof(T)},
              {{src0.HostPtr(), n * sizeof(T)}, {src1.HostPtr(), n * sizeof(T)}});
  BinaryRun(op, dst.HostPtr(), src0.HostPtr(), src1.HostPtr(), n);
}

template <typename T>
void Scalar(ScalarOp op, const char* api, const AscendC::LocalTensor<T>& dst,
            const AscendC::LocalTensor<T>& src, T s, int32_t count, SrcLoc loc) {
  CheckVectorOperands(api, count, {{dst.View(), sizeof(T), "dst"}, {src.View(), sizeof(T), "src"}});
  RestoreMaskAfterCount(MaskContext(api));
  const uint64_t n = static_cast<uint32_t>(count);
  san::Instr in(Pipe::kV, api, loc);
  RecordCount(in, {dst.HostPtr(), n * sizeof(T)}, {{src.HostPtr(), n * sizeof(T)}});
  ScalarRun(op, dst.HostPtr(), src.HostPtr(), s, n);
}

template <typename T>
void Unary(UnaryOp op, const char* api, const AscendC::LocalTensor<T>& dst,
           const AscendC::LocalTensor<T>& src, int32_t count, SrcLoc loc) {
  CheckVectorOperands(api, count, {{dst.View(), sizeof(T), "dst"}, {src.View(), sizeof(T), "src"}});
  RestoreMaskAfterCount(MaskContext(api));
  const uint64_t n = static_cast<uint32_t>(count);
  san::Instr in(Pipe::kV, api, loc);
  RecordCount(in, {dst.HostPtr(), n * sizeof(T)}, {{src.HostPtr(), n * sizeof(T)}});
  UnaryRun(op, dst.HostPtr(), src.HostPtr(), n);
}

// ---------------------------------------------------------------------------------------------
// Mask/repeat forms: plan (mask.h), checks, then the runs, each recorded for the sanitizer.

template <typename T>
RepeatOperand Operand(const AscendC::LocalTensor<T>& t, uint32_t blk, uint32_t rep,
                      const char* name, const char* blk_name, const char* rep_name,
                      bool is_dst = false) {
  return RepeatOperand{t.View(), sizeof(T), blk, rep, name, blk_name, rep_name, is_dst};
}

// Runs kernel(ptrs, n) over the active runs of `plan` (ops[0] is the destination).
template <size_t N, class K>
void RunPlan(const char* api, SrcLoc loc, const RepeatPlan& plan,
             const std::array<RepeatOperand, N>& ops, bool accumulate_src1, K&& kernel) {
  CheckRepeatOperands(api, plan, ops.data(), N, accumulate_src1);
  san::Instr in(Pipe::kV, api, loc);
  std::array<const RepeatOperand*, N> p{};
  for (size_t i = 0; i < N; ++i) p[i] = &ops[i];
  ForEachRun(plan, p, [&](const std::array<std::byte*, N>& at, uint64_t n) {
    if (in) {
      for (size_t i = 1; i < N; ++i) in.Read(at[i], n * ops[i].elem_size);
      in.Write(at[0], n * ops[0].elem_size);
    }
    kernel(at, n);
  });
}

template <size_t N, class K>
void RunRepeat(const char* api, SrcLoc loc, uint32_t mask_elem_size, const MaskArg& mask,
               int64_t repeat_time, const std::array<RepeatOperand, N>& ops, bool accumulate_src1,
               K&& kernel) {
  const RepeatPlan plan = PlanRepeats(api, mask_elem_size, mask, repeat_time);
  RunPlan(api, loc, plan, ops, accumulate_src1, kernel);
}

template <typename T>
std::array<RepeatOperand, 3> BinaryOperands(const AscendC::LocalTensor<T>& dst,
                                            const AscendC::LocalTensor<T>& src0,
                                            const AscendC::LocalTensor<T>& src1,
                                            const AscendC::BinaryRepeatParams& p) {
  return {
      Operand(dst, p.dstBlkStride, p.dstRepStride, "dst", "dstBlkStride", "dstRepStride", true),
      Operand(src0, p.src0BlkStride, p.src0RepStride, "src0", "src0BlkStride", "src0RepStride"),
      Operand(src1, p.src1BlkStride, p.src1RepStride, "src1", "src1BlkStride", "src1RepStride")};
}
template <typename T, typename U>
std::array<RepeatOperand, 2> UnaryOperands(const AscendC::LocalTensor<T>& dst,
                                           const AscendC::LocalTensor<U>& src,
                                           const AscendC::UnaryRepeatParams& p) {
  return {Operand(dst, p.dstBlkStride, p.dstRepStride, "dst", "dstBlkStride", "dstRepStride", true),
          Operand(src, p.srcBlkStride, p.srcRepStride, "src", "srcBlkStride", "srcRepStride")};
}

template <typename T>
void BinaryRepeat(BinaryOp op, const char* api, SrcLoc loc, const AscendC::LocalTensor<T>& dst,
                  const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>& src1,
                  const MaskArg& mask, int64_t repeat_time, const AscendC::BinaryRepeatParams& p) {
  // The vendor's exception to the overlap rule (通用地址重叠约束): Add, Sub, Mul, Max, Min on
  // half, float and int32 may accumulate into src1.
  constexpr bool kAccType =
      std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, int32_t>;
  const bool acc = kAccType && op != BinaryOp::kDiv;
  RunRepeat(api, loc, sizeof(T), mask, repeat_time, BinaryOperands(dst, src0, src1, p), acc,
            [op](const std::array<std::byte*, 3>& at, uint64_t n) {
              BinaryRun(op, reinterpret_cast<T*>(at[0]), reinterpret_cast<const T*>(at[1]),
                        reinterpret_cast<const T*>(at[2]), n);
            });
}

template <typename T>
void ScalarRepeat(ScalarOp op, const char* api, SrcLoc loc, const AscendC::LocalTensor<T>& dst,
                  const AscendC::LocalTensor<T>& src, T s, const MaskArg& mask, int64_t repeat_time,
                  const AscendC::UnaryRepeatParams& p) {
  RunRepeat(api, loc, sizeof(T), mask, repeat_time, UnaryOperands(dst, src, p), false,
            [op, s](const std::array<std::byte*, 2>& at, uint64_t n) {
              ScalarRun(op, reinterpret_cast<T*>(at[0]), reinterpret_cast<const T*>(at[1]), s, n);
            });
}

template <typename T>
void UnaryRepeat(UnaryOp op, const char* api, SrcLoc loc, const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<T>& src, const MaskArg& mask, int64_t repeat_time,
                 const AscendC::UnaryRepeatParams& p) {
  RunRepeat(api, loc, sizeof(T), mask, repeat_time, UnaryOperands(dst, src, p), false,
            [op](const std::array<std::byte*, 2>& at, uint64_t n) {
              UnaryRun(op, reinterpret_cast<T*>(at[0]), reinterpret_cast<const T*>(at[1]), n);
            });
}

// A count form with isSetMask = false: one repeat with the default strides under the mask
// register as it is (the vendor's Level 2 implementation); count is not read.
inline AscendC::UnaryRepeatParams DefaultUnaryParams() { return {}; }

}  // namespace lngrad::aicore::detail
