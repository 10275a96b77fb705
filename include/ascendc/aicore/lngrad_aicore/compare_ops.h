// lngrad Ascend C runtime: Compare, CompareScalar (Compares) and Select of the basic API.
//
// Compare / CompareScalar write one bit per element (bit k of dst = byte k / 8, bit k % 8,
// little-endian, 1 = true), IEEE comparisons in float (half widened exactly): a NaN makes
// every mode false except NE, +0 == -0. The count form compares floor(count * sizeof(T) /
// 256) whole repeats (Compare.md: elements of an incomplete 256-byte block do not take part;
// checked mode requires whole repeats). The repeat forms read src0/src1 with the strides of
// BinaryRepeatParams / UnaryRepeatParams; the bits of repeat r go to dst bytes
// [r * L / 8, (r + 1) * L / 8) (L = 256 / sizeof(T)), packed, as the vendor's count form packs
// 252-repeat chunks: the dst strides are not read. The mask is "reserved, ignored" on A2/A3,
// 310P and the training series (Compare.md): every lane is compared there; where it is honoured
// (950, Atlas 200I/500 A2) a masked-off lane's bit is written as 0 (lngrad's choice).
//
// Select: dst = bit ? src0 : src1 (src1 a tensor, or in VSEL_TENSOR_SCALAR_MODE a scalar).
// VSEL_CMPMASK_SPR uses bits [0, L) of selMask for every repeat; the other modes consume
// selMask continuously (element k of the instruction uses bit k). The mask filters the
// result: masked-off lanes keep dst. The count form runs `count` elements in Counter mode.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "mask.h"
#include "reduce_ops.h"

namespace AscendC {

enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };

enum class SELMODE : uint8_t {
  VSEL_CMPMASK_SPR = 0,
  VSEL_TENSOR_SCALAR_MODE,
  VSEL_TENSOR_TENSOR_MODE,
};

}  // namespace AscendC

namespace lngrad::aicore::detail::rep {

const char* CmpModeName(AscendC::CMPMODE m);

template <typename V>
bool CompareValues(AscendC::CMPMODE mode, V x, V y) {
  switch (mode) {
    case AscendC::CMPMODE::LT:
      return x < y;
    case AscendC::CMPMODE::GT:
      return x > y;
    case AscendC::CMPMODE::EQ:
      return x == y;
    case AscendC::CMPMODE::LE:
      return x <= y;
    case AscendC::CMPMODE::GE:
      return x >= y;
    case AscendC::CMPMODE::NE:
      return x != y;
  }
  return false;
}
// Integers as they are, half and float as IEEE floats.
template <typename T>
bool CompareOne(AscendC::CMPMODE mode, T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return CompareValues(mode, a, b);
  } else {
    return CompareValues(mode, static_cast<float>(a), static_cast<float>(b));
  }
}

// The types and modes Compare accepts on A2/A3 (Compare.md): half and float in every mode,
// int32_t in EQ only.
template <typename T>
void CheckCmpType(const char* api, AscendC::CMPMODE mode) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, half> || std::is_same_v<T, int32_t>,
                "Compare: T must be half, float or int32_t");
  if (std::is_same_v<T, int32_t> && mode != AscendC::CMPMODE::EQ && CheckedMode()) {
    Raise(op_checks::kCmpMode, api,
          std::string("cmpMode ") + CmpModeName(mode) + " is not defined for int32_t (EQ only)");
  }
}

// The running block's CMPMASK register (128 bits): Compare into the register writes it,
// GetCmpMask reads it out, SetCmpMask loads it; zero until then.
uint8_t* CmpMaskRegister();
inline constexpr uint32_t kCmpMaskBytes = 16;
// GetCmpMask (the register to the tensor t) and SetCmpMask (kToRegister: t to the register).
template <bool kToRegister, typename T>
void MoveCmpMask(const AscendC::LocalTensor<T>& t, SrcLoc loc) {
  constexpr const char* kApi = kToRegister ? "SetCmpMask" : "GetCmpMask";
  CheckOperand(kApi, kToRegister ? "src" : "dst", t.View(), kCmpMaskBytes, 16,
               "the 128-bit register");
  san::Instr in(Pipe::kV, kApi, loc);
  if (in) {
    if (kToRegister) {
      in.Read(t.HostPtr(), kCmpMaskBytes);
    } else {
      in.Write(t.HostPtr(), kCmpMaskBytes);
    }
  }
  if (kToRegister) {
    std::memcpy(CmpMaskRegister(), t.HostPtr(), kCmpMaskBytes);
  } else {
    std::memcpy(t.HostPtr(), CmpMaskRegister(), kCmpMaskBytes);
  }
}

// Whether the product honours the mask of Compare / CompareScalar.
inline bool CompareHonoursMask(NpuArch a) { return a == NpuArch::k3002 || a == NpuArch::k3510; }

// The L result bits of repeat r (masked-off lanes 0). src1: nullptr for the scalar forms.
template <typename T>
void CompareBits(AscendC::CMPMODE mode, const RepeatPlan& plan, uint32_t r, const RepeatOperand& s0,
                 const RepeatOperand* s1, T scalar, uint8_t* bits) {
  constexpr uint32_t L = kLanes<T>;
  std::memset(bits, 0, L / 8);
  for (uint32_t p = 0; p < L; ++p) {
    if (!plan.Active(r, p)) continue;
    const T a = Load<T>(s0.view.ptr + s0.Offset(r, p));
    const T b = s1 != nullptr ? Load<T>(s1->view.ptr + s1->Offset(r, p)) : scalar;
    if (CompareOne(mode, a, b)) bits[p / 8] = static_cast<uint8_t>(bits[p / 8] | (1u << (p % 8)));
  }
}

// src1: nullptr for the scalar forms (then `scalar`).
template <typename T, typename U>
void CompareRepeats(const char* api, const AscendC::LocalTensor<U>& dst, AscendC::CMPMODE mode,
                    const RepeatPlan& plan, const RepeatOperand& s0, const RepeatOperand* s1,
                    T scalar, SrcLoc loc) {
  static_assert(sizeof(U) == 1, "Compare: dst must be int8_t or uint8_t");
  CheckCmpType<T>(api, mode);
  if (plan.Empty()) return;
  constexpr uint32_t L = kLanes<T>;
  const uint64_t dst_bytes = uint64_t{plan.repeats} * L / 8;
  CheckSource(api, plan, s0);
  if (s1 != nullptr) CheckSource(api, plan, *s1);
  CheckOperand(api, "dst", dst.View(), dst_bytes, kBlockBytes,
               std::to_string(plan.repeats) + " repeat(s) of " + std::to_string(L) + " bits");
  CheckDisjoint(api, "dst", dst.View(), dst_bytes, "src0", s0.view, ActiveExtent(plan, s0));
  if (s1 != nullptr) {
    CheckDisjoint(api, "dst", dst.View(), dst_bytes, "src1", s1->view, ActiveExtent(plan, *s1));
  }
  san::Instr in(Pipe::kV, api, loc);
  if (in) {
    RecordActive(in, false, plan, s0);
    if (s1 != nullptr) RecordActive(in, false, plan, *s1);
    in.Write(dst.HostPtr(), dst_bytes);
  }
  auto* d = reinterpret_cast<uint8_t*>(dst.HostPtr());
  for (uint32_t r = 0; r < plan.repeats; ++r) {
    uint8_t bits[L / 8];
    CompareBits(mode, plan, r, s0, s1, scalar, bits);
    std::memcpy(d + r * (L / 8), bits, L / 8);
  }
}

// Compare into the CMPMASK register: one repeat, its L bits in the register's low bits, the
// rest 0.
template <typename T>
void CompareToRegister(const char* api, AscendC::CMPMODE mode, const RepeatPlan& plan,
                       const RepeatOperand& s0, const RepeatOperand& s1, SrcLoc loc) {
  CheckCmpType<T>(api, mode);
  if (plan.Empty()) return;
  CheckSource(api, plan, s0);
  CheckSource(api, plan, s1);
  san::Instr in(Pipe::kV, api, loc);
  if (in) {
    RecordActive(in, false, plan, s0);
    RecordActive(in, false, plan, s1);
  }
  uint8_t bits[kCmpMaskBytes] = {};
  CompareBits<T>(mode, plan, 0, s0, &s1, T{}, bits);
  std::memcpy(CmpMaskRegister(), bits, kCmpMaskBytes);
}

// The plan of a Compare mask form: every lane of repeatTime repeats where the mask is
// reserved, the mask register's plan where it is honoured.
template <typename T, bool isSetMask, typename M>
RepeatPlan ComparePlan(const char* api, const M& mask, int64_t repeat) {
  if (CompareHonoursMask(RunningArch())) return Plan<T, isSetMask>(api, mask, repeat);
  // The register is neither written nor used; repeatTime is checked as mask.h checks it.
  (void)PlanRepeats(api, sizeof(T), MaskArg{}, repeat);
  return FixedPlan(kLanes<T>, static_cast<uint32_t>(repeat & 0xFF), Lanes::First(kLanes<T>));
}

// The count form: whole repeats only.
template <typename T>
RepeatPlan CompareCountPlan(const char* api, uint32_t count) {
  const uint64_t bytes = uint64_t{count} * sizeof(T);
  if (bytes % kRepeatBytes != 0 && CheckedMode()) {
    Raise(op_checks::kCount, api,
          "count is " + std::to_string(count) + " (" + std::to_string(bytes) +
              " B), which must be a multiple of 256 B (" + std::to_string(kLanes<T>) +
              " elements); the device leaves out the rest");
  }
  RestoreMaskAfterCount(MaskContext(api));
  RepeatPlan p = FixedPlan(kLanes<T>, 0, Lanes::First(kLanes<T>));
  p.repeats = static_cast<uint32_t>(bytes / kRepeatBytes);
  return p;
}

const char* SelModeName(AscendC::SELMODE m);

// Select over a plan. src1: nullptr in VSEL_TENSOR_SCALAR_MODE (then `scalar`).
template <typename T, typename U>
void SelectRepeats(const char* api, const AscendC::LocalTensor<U>& sel, AscendC::SELMODE mode,
                   const RepeatPlan& plan, const RepeatOperand* ops, uint32_t n_ops, T scalar,
                   SrcLoc loc) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>,
                "Select: T must be half or float");
  static_assert(std::is_same_v<U, uint8_t> || std::is_same_v<U, uint16_t> ||
                    std::is_same_v<U, uint32_t> || std::is_same_v<U, uint64_t>,
                "Select: the selMask type must be uint8_t, uint16_t, uint32_t or uint64_t");
  if (plan.Empty()) return;
  constexpr uint32_t L = kLanes<T>;
  const bool fixed_bits = mode == AscendC::SELMODE::VSEL_CMPMASK_SPR;
  const uint64_t elems = plan.counter ? plan.count : uint64_t{plan.repeats} * L;
  const uint64_t sel_bytes = fixed_bits ? L / 8 : (elems + 7) / 8;
  CheckRepeatOperands(api, plan, ops, n_ops);
  CheckOperand(api, "selMask", sel.View(), sel_bytes, kBlockBytes,
               std::string(SelModeName(mode)) + ", " + std::to_string(plan.repeats) + " repeat(s)");
  const RepeatOperand& d = ops[0];
  const RepeatOperand& s0 = ops[1];
  const RepeatOperand* s1 = n_ops > 2 ? &ops[2] : nullptr;
  san::Instr in(Pipe::kV, api, loc);
  if (in) {
    RecordActive(in, false, plan, s0);
    if (s1 != nullptr) RecordActive(in, false, plan, *s1);
    in.Read(sel.HostPtr(), sel_bytes);
    RecordActive(in, true, plan, d);
  }
  const auto* bits = reinterpret_cast<const uint8_t*>(sel.HostPtr());
  for (uint32_t r = 0; r < plan.repeats; ++r) {
    for (uint32_t p = 0; p < L; ++p) {
      if (!plan.Active(r, p)) continue;
      const uint64_t k = fixed_bits ? p : uint64_t{r} * L + p;
      const bool take0 = ((bits[k / 8] >> (k % 8)) & 1u) != 0;
      T v;
      if (take0) {
        v = Load<T>(s0.view.ptr + s0.Offset(r, p));
      } else {
        v = s1 != nullptr ? Load<T>(s1->view.ptr + s1->Offset(r, p)) : scalar;
      }
      Store(const_cast<std::byte*>(d.view.ptr) + d.Offset(r, p), v);
    }
  }
}

}  // namespace lngrad::aicore::detail::rep

namespace AscendC {

// ---- Compare ----

template <typename T, typename U>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
             CMPMODE cmpMode, uint32_t count,
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace r = lngrad::aicore::detail::rep;
  const auto plan = r::CompareCountPlan<T>("Compare", count);
  const auto s0 = r::SrcOperand(src0, 1, 8, "src0", "src0BlkStride", "src0RepStride");
  const auto s1 = r::SrcOperand(src1, 1, 8, "src1", "src1BlkStride", "src1RepStride");
  r::CompareRepeats<T>("Compare", dst, cmpMode, plan, s0, &s1, T{}, loc);
}

#define LNGRAD_COMPARE_MASK(MASK_TYPE)                                                            \
  template <typename T, typename U, bool isSetMask = true>                                        \
  void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
               CMPMODE cmpMode, MASK_TYPE, uint8_t repeatTime,                                    \
               const BinaryRepeatParams& repeatParams,                                            \
               lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                  \
    namespace r = lngrad::aicore::detail::rep;                                                    \
    const auto plan = r::ComparePlan<T, isSetMask>("Compare", mask, repeatTime);                  \
    const auto s0 = r::SrcOperand(src0, repeatParams.src0BlkStride, repeatParams.src0RepStride,   \
                                  "src0", "src0BlkStride", "src0RepStride");                      \
    const auto s1 = r::SrcOperand(src1, repeatParams.src1BlkStride, repeatParams.src1RepStride,   \
                                  "src1", "src1BlkStride", "src1RepStride");                      \
    r::CompareRepeats<T>("Compare", dst, cmpMode, plan, s0, &s1, T{}, loc);                       \
  }
LNGRAD_COMPARE_MASK(const uint64_t mask[])
LNGRAD_COMPARE_MASK(const uint64_t mask)
#undef LNGRAD_COMPARE_MASK

// Compare into the CMPMASK register (one repeat; Compare（结果存入寄存器）.md).
#define LNGRAD_COMPARE_REGISTER(MASK_TYPE)                                                         \
  template <typename T, bool isSetMask = true>                                                     \
  void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, MASK_TYPE, \
               const BinaryRepeatParams& repeatParams,                                             \
               lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                   \
    namespace r = lngrad::aicore::detail::rep;                                                     \
    const auto plan = r::ComparePlan<T, isSetMask>("Compare", mask, 1);                            \
    const auto s0 = r::SrcOperand(src0, repeatParams.src0BlkStride, repeatParams.src0RepStride,    \
                                  "src0", "src0BlkStride", "src0RepStride");                       \
    const auto s1 = r::SrcOperand(src1, repeatParams.src1BlkStride, repeatParams.src1RepStride,    \
                                  "src1", "src1BlkStride", "src1RepStride");                       \
    r::CompareToRegister<T>("Compare", cmpMode, plan, s0, s1, loc);                                \
  }
LNGRAD_COMPARE_REGISTER(const uint64_t mask[])
LNGRAD_COMPARE_REGISTER(const uint64_t mask)
#undef LNGRAD_COMPARE_REGISTER

// The CMPMASK register's 128 bits to dst (16 bytes; dst 16-byte aligned).
template <typename T>
void GetCmpMask(const LocalTensor<T>& dst,
                lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::rep::MoveCmpMask<false>(dst, loc);
}

// Loads the CMPMASK register from src (16 bytes; src 16-byte aligned).
template <typename T>
void SetCmpMask(const LocalTensor<T>& src,
                lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::rep::MoveCmpMask<true>(src, loc);
}

// ---- CompareScalar (the 2025 name: Compares): src1 is a scalar ----

#define LNGRAD_COMPARE_SCALAR_MASK(NAME, MASK_TYPE)                                                \
  template <typename T, typename U, bool isSetMask = true>                                         \
  void NAME(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,             \
            CMPMODE cmpMode, MASK_TYPE, uint8_t repeatTime, const UnaryRepeatParams& repeatParams, \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                      \
    namespace r = lngrad::aicore::detail::rep;                                                     \
    const auto plan = r::ComparePlan<T, isSetMask>(#NAME, mask, repeatTime);                       \
    const auto s0 = r::SrcOperand(src0, repeatParams.srcBlkStride, repeatParams.srcRepStride);     \
    r::CompareRepeats<T>(#NAME, dst, cmpMode, plan, s0, nullptr, src1Scalar, loc);                 \
  }
#define LNGRAD_COMPARE_SCALAR(NAME)                                                    \
  template <typename T, typename U>                                                    \
  void NAME(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, \
            CMPMODE cmpMode, uint32_t count,                                           \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {          \
    namespace r = lngrad::aicore::detail::rep;                                         \
    const auto plan = r::CompareCountPlan<T>(#NAME, count);                            \
    const auto s0 = r::SrcOperand(src0, 1, 8);                                         \
    r::CompareRepeats<T>(#NAME, dst, cmpMode, plan, s0, nullptr, src1Scalar, loc);     \
  }                                                                                    \
  LNGRAD_COMPARE_SCALAR_MASK(NAME, const uint64_t mask[])                              \
  LNGRAD_COMPARE_SCALAR_MASK(NAME, const uint64_t mask)
LNGRAD_COMPARE_SCALAR(CompareScalar)
LNGRAD_COMPARE_SCALAR(Compares)
#undef LNGRAD_COMPARE_SCALAR
#undef LNGRAD_COMPARE_SCALAR_MASK

// ---- Select ----

namespace lngrad_select {
template <typename T>
void CheckTensorMode(const char* api, SELMODE mode) {
  if (mode == SELMODE::VSEL_TENSOR_SCALAR_MODE && lngrad::aicore::CheckedMode()) {
    lngrad::aicore::detail::rep::Raise(
        lngrad::aicore::detail::rep::op_checks::kSelMode, api,
        "selMode VSEL_TENSOR_SCALAR_MODE takes a scalar src1; with a tensor src1 use "
        "VSEL_CMPMASK_SPR or VSEL_TENSOR_TENSOR_MODE");
  }
}
inline void CheckScalarMode(const char* api, SELMODE mode) {
  if (mode != SELMODE::VSEL_TENSOR_SCALAR_MODE && lngrad::aicore::CheckedMode()) {
    lngrad::aicore::detail::rep::Raise(
        lngrad::aicore::detail::rep::op_checks::kSelMode, api,
        std::string("selMode ") + lngrad::aicore::detail::rep::SelModeName(mode) +
            " takes a tensor src1; a scalar src1 needs VSEL_TENSOR_SCALAR_MODE");
  }
}
}  // namespace lngrad_select

// Modes 0 and 2, tensor src1; count form.
template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, uint32_t count,
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace r = lngrad::aicore::detail::rep;
  lngrad_select::CheckTensorMode<T>("Select", selMode);
  const auto plan = r::CountPlan<T>("Select", count);
  const lngrad::aicore::detail::RepeatOperand ops[3] = {
      r::Operand(dst.View(), sizeof(T), 1, 8, "dst", "dstBlkStride", "dstRepStride", true),
      r::Operand(src0.View(), sizeof(T), 1, 8, "src0", "src0BlkStride", "src0RepStride"),
      r::Operand(src1.View(), sizeof(T), 1, 8, "src1", "src1BlkStride", "src1RepStride")};
  r::SelectRepeats<T>("Select", selMask, selMode, plan, ops, 3, T{}, loc);
}

// Mode 1, scalar src1; count form.
template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            T src1, SELMODE selMode, uint32_t count,
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace r = lngrad::aicore::detail::rep;
  lngrad_select::CheckScalarMode("Select", selMode);
  const auto plan = r::CountPlan<T>("Select", count);
  const lngrad::aicore::detail::RepeatOperand ops[2] = {
      r::Operand(dst.View(), sizeof(T), 1, 8, "dst", "dstBlkStride", "dstRepStride", true),
      r::Operand(src0.View(), sizeof(T), 1, 8, "src0", "src0BlkStride", "src0RepStride")};
  r::SelectRepeats<T>("Select", selMask, selMode, plan, ops, 2, src1, loc);
}

#define LNGRAD_SELECT_MASK(MASK_TYPE)                                                              \
  template <typename T, typename U, bool isSetMask = true>                                         \
  void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask,                            \
              const LocalTensor<T>& src0, const LocalTensor<T>& src1, SELMODE selMode, MASK_TYPE,  \
              uint8_t repeatTime, const BinaryRepeatParams& repeatParams,                          \
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                    \
    namespace r = lngrad::aicore::detail::rep;                                                     \
    lngrad_select::CheckTensorMode<T>("Select", selMode);                                          \
    const auto plan = r::Plan<T, isSetMask>("Select", mask, repeatTime);                           \
    const lngrad::aicore::detail::RepeatOperand ops[3] = {                                         \
        r::Operand(dst.View(), sizeof(T), repeatParams.dstBlkStride, repeatParams.dstRepStride,    \
                   "dst", "dstBlkStride", "dstRepStride", true),                                   \
        r::Operand(src0.View(), sizeof(T), repeatParams.src0BlkStride, repeatParams.src0RepStride, \
                   "src0", "src0BlkStride", "src0RepStride"),                                      \
        r::Operand(src1.View(), sizeof(T), repeatParams.src1BlkStride, repeatParams.src1RepStride, \
                   "src1", "src1BlkStride", "src1RepStride")};                                     \
    r::SelectRepeats<T>("Select", selMask, selMode, plan, ops, 3, T{}, loc);                       \
  }                                                                                                \
  template <typename T, typename U, bool isSetMask = true>                                         \
  void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask,                            \
              const LocalTensor<T>& src0, T src1, SELMODE selMode, MASK_TYPE, uint8_t repeatTime,  \
              const BinaryRepeatParams& repeatParams,                                              \
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                    \
    namespace r = lngrad::aicore::detail::rep;                                                     \
    lngrad_select::CheckScalarMode("Select", selMode);                                             \
    const auto plan = r::Plan<T, isSetMask>("Select", mask, repeatTime);                           \
    const lngrad::aicore::detail::RepeatOperand ops[2] = {                                         \
        r::Operand(dst.View(), sizeof(T), repeatParams.dstBlkStride, repeatParams.dstRepStride,    \
                   "dst", "dstBlkStride", "dstRepStride", true),                                   \
        r::Operand(src0.View(), sizeof(T), repeatParams.src0BlkStride, repeatParams.src0RepStride, \
                   "src0", "src0BlkStride", "src0RepStride")};                                     \
    r::SelectRepeats<T>("Select", selMask, selMode, plan, ops, 2, src1, loc);                      \
  }
LNGRAD_SELECT_MASK(const uint64_t mask[])
LNGRAD_SELECT_MASK(const uint64_t mask)
#undef LNGRAD_SELECT_MASK

}  // namespace AscendC
