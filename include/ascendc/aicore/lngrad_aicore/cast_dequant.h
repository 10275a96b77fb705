// lngrad Ascend C runtime: CastDequant, the DEQSCALE-driven conversions int16_t -> int8_t /
// uint8_t (s162b8) and int32_t -> half (s322fp16), and SetDeqScale's vector form with VdeqInfo
// (included by vector_ops.h after vector_cast.h; the scalar forms of SetDeqScale are in ctrl.h).
//
// s162b8, one element x with a parameter set (scale, offset, signMode), as the 3510 file
// (dav_3510 kernel_operator_vec_vconv_impl.h) spells out the A2/A3 instruction vconv_deqs162b8:
// scale keeps 1 sign, 8 exponent and 10 mantissa bits (float bits & 0xffffe000); x * scale in
// float, rounded to int16_t (nearest even, saturated), clamped to [-256, 255], plus offset, then
// saturated to int8_t (signMode) or uint8_t. The offset is the 9-bit field sign-extended on the
// A2/A3 and inference AI Core (the page: a signed 9-bit integer) and zero-extended on the 950
// (its file reads (word >> 37) & 0x1ff). isVecDeq: element e of each 32-byte source block takes
// parameter set e of the 16 the vdeq tensor holds, read from UB when CastDequant runs.
// Placement: the 16 results of a source block fill the upper 16 bytes (halfBlock) or the lower 16
// of the corresponding 32-byte destination block; the other half is not written, except by the
// 950's count form, which stores whole repeats (256 bytes each, the other half and the lanes
// past count 0). int32_t -> half is Cast with CAST_RINT (the A2/A3 implementation's call).
#pragma once

#include <cstdint>
#include <type_traits>

#include "ctrl.h"
#include "vector_base.h"
#include "vector_cast.h"

#define LNGRAD_SRCLOC_ARG lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()

namespace AscendC {

inline constexpr int32_t VDEQ_TENSOR_SIZE = 16;

// The 16 parameter sets of the vector quantisation (the vendor's kernel_struct_vdeq.h layout).
struct VdeqInfo {
  VdeqInfo() {}
  VdeqInfo(const float vdeqScaleIn[VDEQ_TENSOR_SIZE], const int16_t vdeqOffsetIn[VDEQ_TENSOR_SIZE],
           const bool vdeqSignModeIn[VDEQ_TENSOR_SIZE]) {
    for (int32_t i = 0; i < VDEQ_TENSOR_SIZE; ++i) {
      vdeqScale[i] = vdeqScaleIn[i];
      vdeqOffset[i] = vdeqOffsetIn[i];
      vdeqSignMode[i] = vdeqSignModeIn[i];
    }
  }
  float vdeqScale[VDEQ_TENSOR_SIZE] = {0};
  int16_t vdeqOffset[VDEQ_TENSOR_SIZE] = {0};
  bool vdeqSignMode[VDEQ_TENSOR_SIZE] = {0};
};

}  // namespace AscendC

namespace lngrad::aicore::detail {

// How one CastDequant (s162b8) runs: the 16 parameter words (one repeated, or the vdeq
// entries), the placement and the running product's offset rule.
struct DeqCtx {
  uint64_t words[16];
  bool vec;
  bool half_block;
  bool arch3510;
};
// The s162b8 result of one element (the header's formula).
uint8_t DequantS16(int16_t x, uint64_t word, bool vec, bool arch3510) noexcept;

// Checked mode: the product has CastDequant for the pair (s16: int16_t -> b8, else int32_t ->
// half; unsupported_on_product) and the DEQSCALE register was written by the SetDeqScale form
// the call needs (cast_dequant).
void RequireDeqForm(bool s16, bool vec, SrcLoc loc);
// RequireDeqForm, then (checked) signMode matches the destination type for the scalar form
// (cast_dequant). Reads the parameter words: the register, or the 16 vdeq entries from the
// destination's UB (always inside the UB: ub_bounds), that read recorded in `in`.
DeqCtx PrepareCastDequant(bool signed_dst, bool vec, bool half_block, const TensorView& dst,
                          san::Instr& in, SrcLoc loc);
// SetDeqScale's vdeq tensor: checked, 32-byte aligned (ub_alignment) and at least 128 B
// (cast_dequant).
void CheckVdeqTensor(const TensorView& vdeq);
// The continuous-mask forms (checked, isSetMask, Normal mode): the mask in [0, 256 / elem_size]
// of the wider type, as the kit's CheckMaskValue asserts (cast_dequant); unchecked lngrad runs a
// larger mask as a full repeat, as the kit's SetMask(len) sets it.
void CheckDequantMaskLen(int32_t mask, uint32_t elem_size, bool is_set_mask, SrcLoc loc);

// n elements from src (contiguous) whose first lies at place `place` (0..15) of its block, into
// the destination whose block of that element starts at dst_block; records the bytes written.
void DequantRun(std::byte* dst_block, uint32_t place, const int16_t* src, uint64_t n,
                const DeqCtx& c, san::Instr& in);
// The count form's body (the 950 also zeroes the rest of its whole repeats, up to the UB end).
void DequantCount(const TensorView& dst, const int16_t* src, uint32_t count, const DeqCtx& c,
                  san::Instr& in);

template <typename T, typename U>
constexpr void CheckDequantTypes() {
  static_assert(
      (std::is_same_v<U, int16_t> && (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>)) ||
          (std::is_same_v<U, int32_t> && std::is_same_v<T, half>),
      "CastDequant: the pairs are int16_t -> int8_t / uint8_t and int32_t -> half");
}
template <typename T, bool isSetMask, bool isVecDeq, bool halfBlock>
void DequantRepeat(SrcLoc loc, const AscendC::LocalTensor<T>& dst,
                   const AscendC::LocalTensor<int16_t>& src, const MaskArg& mask,
                   int64_t repeat_time, const AscendC::UnaryRepeatParams& p) {
  const RepeatPlan plan = PlanRepeats("CastDequant", sizeof(int16_t), mask, repeat_time);
  // The vendor's checks view dst as half (CheckFunVecBinaryScalarDiffType on dst as half).
  std::array<RepeatOperand, 2> ops = UnaryOperands(dst, src, p);
  ops[0].elem_size = sizeof(int16_t);
  CheckRepeatOperands("CastDequant", plan, ops.data(), 2);
  san::Instr in(Pipe::kV, "CastDequant", loc);
  const DeqCtx c =
      PrepareCastDequant(std::is_same_v<T, int8_t>, isVecDeq, halfBlock, dst.View(), in, loc);
  std::array<const RepeatOperand*, 2> po{&ops[0], &ops[1]};
  const std::byte* base = ops[0].view.ptr;
  ForEachRun(plan, po, [&](const std::array<std::byte*, 2>& at, uint64_t n) {
    if (in) in.Read(at[1], n * sizeof(int16_t));
    const uint32_t in_block = static_cast<uint32_t>((at[0] - base) % 32);
    DequantRun(at[0] - in_block, in_block / 2, reinterpret_cast<const int16_t*>(at[1]), n, c, in);
  });
}

}  // namespace lngrad::aicore::detail

namespace AscendC {

// SetDeqScale for CastDequant<..., isVecDeq = true>: writes the 16 parameter sets into vdeq
// (uint64_t, at least 128 B, 32-byte aligned; scalar writes, as the vendor's SetValue loop) and
// points DEQSCALE at it (its UB address / 32). CastDequant reads the entries when it runs.
template <typename T>
void SetDeqScale(const LocalTensor<T>& vdeq, const VdeqInfo& vdeqInfo) {
  static_assert(std::is_same_v<T, uint64_t>, "SetDeqScale: the vdeq tensor holds uint64_t");
  lngrad::aicore::detail::CheckVdeqTensor(vdeq.View());
  for (int32_t i = 0; i < VDEQ_TENSOR_SIZE; ++i) {
    vdeq.SetValue(static_cast<uint32_t>(i),
                  lngrad::aicore::DeqScaleConfig(vdeqInfo.vdeqScale[i], vdeqInfo.vdeqOffset[i],
                                                 vdeqInfo.vdeqSignMode[i]));
  }
  lngrad::aicore::SetDeqScaleRegister(vdeq.GetPhyAddr() >> 5, lngrad::aicore::DeqForm::kVector);
}

// The count form: count elements in Counter mode (the mask register is left full and Normal).
template <typename T, typename U, bool isVecDeq = true, bool halfBlock = true>
void CastDequant(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count,
                 LNGRAD_SRCLOC_ARG) {
  namespace d = lngrad::aicore::detail;
  d::CheckDequantTypes<T, U>();
  if constexpr (std::is_same_v<U, int32_t>) {
    d::RequireDeqForm(false, isVecDeq, loc);
    Cast(dst, src, RoundMode::CAST_RINT, count, loc);
  } else {
    d::CheckVectorOperands("CastDequant", count,
                           {{dst.View(), sizeof(int16_t), "dst"}, {src.View(), sizeof(U), "src"}});
    d::RestoreMaskAfterCount(d::MaskContext("CastDequant"));
    lngrad::aicore::san::Instr in(lngrad::aicore::Pipe::kV, "CastDequant", loc);
    const d::DeqCtx c =
        d::PrepareCastDequant(std::is_same_v<T, int8_t>, isVecDeq, halfBlock, dst.View(), in, loc);
    if (in) in.Read(src.HostPtr(), uint64_t{count} * sizeof(U));
    d::DequantCount(dst.View(), src.HostPtr(), count, c, in);
  }
}

// The mask/repeat forms: the mask counts int16_t (int32_t) source elements, 128 (64) a repeat.
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true,
          bool halfBlock = true>
void CastDequant(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                 uint8_t repeatTime, const UnaryRepeatParams& repeatParams, LNGRAD_SRCLOC_ARG) {
  namespace d = lngrad::aicore::detail;
  d::CheckDequantTypes<T, U>();
  if constexpr (std::is_same_v<U, int32_t>) {
    d::RequireDeqForm(false, isVecDeq, loc);
    Cast<T, U, isSetMask>(dst, src, RoundMode::CAST_RINT, mask, repeatTime, repeatParams, loc);
  } else {
    d::DequantRepeat<T, isSetMask, isVecDeq, halfBlock>(
        loc, dst, src, d::BitsMaskArg(mask, isSetMask), repeatTime, repeatParams);
  }
}
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true,
          bool halfBlock = true>
void CastDequant(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,
                 uint8_t repeatTime, const UnaryRepeatParams& repeatParams, LNGRAD_SRCLOC_ARG) {
  namespace d = lngrad::aicore::detail;
  d::CheckDequantTypes<T, U>();
  d::CheckDequantMaskLen(mask, sizeof(U), isSetMask, loc);
  if constexpr (std::is_same_v<U, int32_t>) {
    d::RequireDeqForm(false, isVecDeq, loc);
    Cast<T, U, isSetMask>(dst, src, RoundMode::CAST_RINT, static_cast<uint64_t>(mask), repeatTime,
                          repeatParams, loc);
  } else {
    d::DequantRepeat<T, isSetMask, isVecDeq, halfBlock>(
        loc, dst, src, d::LenMaskArg(static_cast<uint64_t>(static_cast<int64_t>(mask)), isSetMask),
        repeatTime, repeatParams);
  }
}

// CastDeq: the vendor's earlier name of CastDequant ("CastDeq has been updated, please use
// CastDequant instead"), the same forms.
template <typename T, typename U, bool isVecDeq = true, bool halfBlock = true>
void CastDeq(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count,
             LNGRAD_SRCLOC_ARG) {
  CastDequant<T, U, isVecDeq, halfBlock>(dst, src, count, loc);
}
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true,
          bool halfBlock = true>
void CastDeq(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
             uint8_t repeatTime, const UnaryRepeatParams& repeatParams, LNGRAD_SRCLOC_ARG) {
  CastDequant<T, U, isSetMask, isVecDeq, halfBlock>(dst, src, mask, repeatTime, repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true,
          bool halfBlock = true>
void CastDeq(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,
             uint8_t repeatTime, const UnaryRepeatParams& repeatParams, LNGRAD_SRCLOC_ARG) {
  CastDequant<T, U, isSetMask, isVecDeq, halfBlock>(dst, src, mask, repeatTime, repeatParams, loc);
}

}  // namespace AscendC

#undef LNGRAD_SRCLOC_ARG
