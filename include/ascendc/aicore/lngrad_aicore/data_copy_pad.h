// lngrad Ascend C runtime: DataCopyPad, the GM <-> UB copy of rows whose length is not a multiple
// of 32 bytes, and SetPadValue (included by data_copy.h).
//
// GM -> UB (Normal mode): row i of blockLen bytes is read from GM at i * (blockLen + srcStride)
// bytes and written to UB as [leftPadding elements][blockLen data bytes][rightPadding elements]
// [dummy bytes up to the next 32-byte boundary]; the next row starts dstStride 32-byte blocks
// after that boundary. UB -> GM: row i is read from UB at i * (AlignUp(blockLen, 32) + srcStride
// * 32) and written to GM at i * (blockLen + dstStride) bytes; only blockLen bytes reach GM.
// Compact mode (Ascend 950PR/950DT only): the rows are packed back to back in UB and only the
// end of the last one is filled up to 32 bytes; dstStride (GM -> UB), srcStride (UB -> GM) and
// the paddings are ignored.
//
// Padding values (docs/ascendc_compat.md, "DataCopyPad"): isPad writes paddingValue into the
// block's pad value register, SetPadValue too; without either the register is undefined (the
// simulator fills 0xFF bytes: NaN in half and float). The dummy bytes get, as documented, the
// row's first element when both paddings are 0, else what the paddings get (on the 950 with
// isPad: paddingValue, as its samples show). The sanitizer counts data and defined paddings as
// written, dummy bytes and undefined paddings as not (initcheck).
//
// Products (the vendor's 产品支持情况): Atlas A2/A3 (2201), Atlas 200I/500 A2 (3002) and Ascend
// 950 (3510) have DataCopyPad; the Atlas inference series (310P, 2002) and training series
// (910, 1001) do not, and PaddingMode::Compact exists on the 950 only: such calls raise
// "DataCopyPad.unsupported_product" in both modes (the device has no such instruction to
// compile to). SetPadValue exists on 2201 and 3510 only ("SetPadValue.unsupported_product"),
// the loop mode (SetLoopModePara) on 3510 only.
// Parameter rules (checked mode, "datacopypad_params"): blockCount <= 4095, blockLen <= 2097151
// and a multiple of sizeof(T), each padding at most 32 bytes, strides in the product's range,
// 64-bit paddingValue 0; the UB operand 32-byte aligned (ub_alignment); tensor and GM bounds
// over everything the device touches, dummy bytes included (tensor_bounds, gm_bounds).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "check.h"
#include "sanitizer.h"
#include "tensor.h"

namespace lngrad::aicore::checks {
inline constexpr const char* kDataCopyPadParams =
    "datacopypad_params";  // a DataCopyPad parameter outside the documented range
}  // namespace lngrad::aicore::checks

namespace AscendC {

enum class PaddingMode : uint8_t {
  Normal = 0,  // every row padded to 32 bytes
  Compact,     // rows packed, the end of the last one padded to 32 bytes (950 only)
};

// The strides are 64-bit signed on the 950 (the GM side may step back by up to blockLen), 32-bit
// unsigned elsewhere, as in the vendor's headers; the simulator checks the range of the product
// it runs.
#if __NPU_ARCH__ == 3510
using DataCopyExtStride = int64_t;
#else
using DataCopyExtStride = uint32_t;
#endif

// blockCount rows of blockLen BYTES; strides: GM side in bytes, UB side in 32-byte blocks, the
// gap from the end of one row to the start of the next.
struct DataCopyExtParams {
  DataCopyExtParams() = default;
  DataCopyExtParams(const uint16_t count, const uint32_t len, const DataCopyExtStride srcStrideIn,
                    const DataCopyExtStride dstStrideIn, const uint32_t rsvIn)
      : blockCount(count),
        blockLen(len),
        srcStride(srcStrideIn),
        dstStride(dstStrideIn),
        rsv(rsvIn) {}
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;
  DataCopyExtStride srcStride = 0;
  DataCopyExtStride dstStride = 0;
  uint32_t rsv = 0;  // reserved
};

// SetLoopModePara's direction.
enum class DataCopyMVType : uint8_t {
  UB_TO_OUT = 0,
  OUT_TO_UB = 1,
};

// The 950's loop mode: DataCopyPad repeated loop2Size x loop1Size times, the source and
// destination moving by the loop strides (bytes, start to start) per iteration.
struct LoopModeParams {
  uint32_t loop1Size = 0;
  uint32_t loop2Size = 0;
  uint64_t loop1SrcStride = 0;
  uint64_t loop1DstStride = 0;
  uint64_t loop2SrcStride = 0;
  uint64_t loop2DstStride = 0;
};

}  // namespace AscendC

namespace lngrad::aicore::detail {
// The fields both padding structs share; V: the type of paddingValue.
template <typename V>
struct PadFields {
  PadFields() = default;
  PadFields(const bool isPadValue, const uint8_t leftPadValue, const uint8_t rightPadValue,
            const V padValue)
      : isPad(isPadValue),
        leftPadding(leftPadValue),
        rightPadding(rightPadValue),
        paddingValue(padValue) {}
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  V paddingValue = V(0);
};
}  // namespace lngrad::aicore::detail

namespace AscendC {

// GM -> UB padding: leftPadding / rightPadding elements (at most 32 bytes each) around each row,
// filled with paddingValue when isPad (else with the SetPadValue register).
template <typename T>
struct DataCopyPadExtParams : lngrad::aicore::detail::PadFields<T> {
  using lngrad::aicore::detail::PadFields<T>::PadFields;
};

// The older prototype's padding: paddingValue is the register's raw bits (the low sizeof(T)
// bytes are used), not a value of T.
struct DataCopyPadParams : lngrad::aicore::detail::PadFields<uint64_t> {
  using lngrad::aicore::detail::PadFields<uint64_t>::PadFields;
};

}  // namespace AscendC

namespace lngrad::aicore::detail {

// One DataCopyPad call, whatever its prototype: what the out-of-line planner checks and lays out.
struct PadCopyArgs {
  const char* api;
  uint64_t block_count;
  uint64_t block_len;   // bytes
  int64_t src_stride;   // GM -> UB: GM bytes; UB -> GM: UB 32-byte blocks
  int64_t dst_stride;   // GM -> UB: UB 32-byte blocks; UB -> GM: GM bytes
  uint32_t elem_size;   // sizeof(T)
  uint32_t left_elems;  // GM -> UB only
  uint32_t right_elems;
  bool is_pad;
  uint64_t pad_bits;  // paddingValue's bits (isPad)
  bool compact;
  bool legacy;  // DataCopyParams + DataCopyPadParams (16-bit fields)
};

// Where the bytes go. Pitches are start to start; extents cover every byte the device touches
// (dummy bytes included), from the operand's start.
struct PadCopyPlan {
  uint64_t count = 0;
  uint64_t len = 0;
  uint64_t gm_pitch = 0;
  uint64_t ub_pitch = 0;
  uint64_t gm_extent = 0;
  uint64_t ub_extent = 0;
  uint32_t left = 0;   // bytes
  uint32_t right = 0;  // bytes
  uint64_t dummy = 0;  // bytes after each row (Normal) or after the packed rows (Compact)
  bool compact = false;
  // GM -> UB fill: `unit` bytes of `pad` repeated; pad_defined false: the register is undefined.
  uint32_t unit = 1;
  uint8_t pad[8] = {};
  bool pad_defined = false;
  bool dummy_is_first_element = false;  // else the dummy bytes get what the paddings get
};

// Product check and (checked mode) parameter rules; sets the pad value register for isPad.
// Returns the layout; count or len 0 is a no-op (count 0 in the plan).
PadCopyPlan PlanPadGmToUb(const PadCopyArgs& a);
PadCopyPlan PlanPadUbToGm(const PadCopyArgs& a);
// The loop mode of a direction (SetLoopModePara); sizes 1 and strides 0 when off.
struct PadLoops {
  uint64_t n1 = 1, n2 = 1;
  uint64_t src1 = 0, dst1 = 0, src2 = 0, dst2 = 0;
  uint64_t SrcExtra() const { return (n1 - 1) * src1 + (n2 - 1) * src2; }
  uint64_t DstExtra() const { return (n1 - 1) * dst1 + (n2 - 1) * dst2; }
};
// The copies, once per loop-mode iteration, and their sanitizer records (MTE2, MTE3).
void RunPadGmToUb(std::byte* ub, const std::byte* gm, const PadCopyPlan& p, const PadLoops& l,
                  const GmRegionSpan& region, const char* api, SrcLoc loc);
void RunPadUbToGm(std::byte* gm, const std::byte* ub, const PadCopyPlan& p, const PadLoops& l,
                  const GmRegionSpan& region, const char* api, SrcLoc loc);
// SetPadValue: product check, then the register.
void SetPadRegister(uint64_t bits, AscendC::TPosition pos);
PadLoops ActiveLoops(bool gm_to_ub);
void SetLoopMode(const AscendC::LoopModeParams& p, AscendC::DataCopyMVType type, bool reset);

template <typename T>
uint64_t PadBits(const T& v) {
  static_assert(sizeof(T) <= 8, "DataCopyPad element types are at most 64 bits");
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  return bits;
}

// The arguments of either prototype; UB -> GM passes no padding.
template <typename T, AscendC::PaddingMode mode, typename Params>
PadCopyArgs PadArgs(const char* api, const Params& p) {
  PadCopyArgs a{};
  a.api = api;
  a.block_count = p.blockCount;
  a.block_len = p.blockLen;
  a.src_stride = static_cast<int64_t>(p.srcStride);
  a.dst_stride = static_cast<int64_t>(p.dstStride);
  a.elem_size = sizeof(T);
  a.compact = mode == AscendC::PaddingMode::Compact;
  a.legacy = std::is_same_v<Params, AscendC::DataCopyParams>;
  return a;
}
template <typename T, AscendC::PaddingMode mode, typename Params, typename Pad>
PadCopyArgs PadArgs(const char* api, const Params& p, const Pad& pad, uint64_t pad_bits) {
  PadCopyArgs a = PadArgs<T, mode>(api, p);
  a.left_elems = pad.leftPadding;
  a.right_elems = pad.rightPadding;
  a.is_pad = pad.isPad;
  a.pad_bits = pad_bits;
  return a;
}

// GM -> UB (dst in UB) or UB -> GM: the plan, the UB side's alignment, both sides' accesses (the
// UB side first), then the copies.
template <typename T, template <typename> class D, template <typename> class S>
void PadCopy(const D<T>& dst, const S<T>& src, const PadCopyArgs& args, SrcLoc loc) {
  constexpr bool kToUb = std::is_same_v<D<T>, AscendC::LocalTensor<T>>;
  const PadCopyPlan plan = kToUb ? PlanPadGmToUb(args) : PlanPadUbToGm(args);
  if (plan.count == 0) return;
  const PadLoops l = ActiveLoops(kToUb);
  const auto elems = [](uint64_t bytes) { return (bytes + sizeof(T) - 1) / sizeof(T); };
  if constexpr (kToUb) {
    CheckUbAligned(dst.View(), args.api, "dst");
    dst.Access(0, elems(l.DstExtra() + plan.ub_extent), args.api);
    const GmRegionSpan region = src.Access(0, elems(l.SrcExtra() + plan.gm_extent), args.api);
    RunPadGmToUb(CopyBytes(dst), CopyBytes(src), plan, l, region, args.api, loc);
  } else {
    CheckUbAligned(src.View(), args.api, "src");
    src.Access(0, elems(l.SrcExtra() + plan.ub_extent), args.api);
    const GmRegionSpan region = dst.Access(0, elems(l.DstExtra() + plan.gm_extent), args.api);
    RunPadUbToGm(CopyBytes(dst), CopyBytes(src), plan, l, region, args.api, loc);
  }
}

}  // namespace lngrad::aicore::detail

namespace AscendC {

// GM -> UB with DataCopyExtParams: blockLen in bytes, srcStride GM bytes, dstStride UB blocks.
template <typename T, PaddingMode mode = PaddingMode::Normal>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                 const DataCopyExtParams& dataCopyParams, const DataCopyPadExtParams<T>& padParams,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace d = lngrad::aicore::detail;
  d::PadCopy(dst, src,
             d::PadArgs<T, mode>("DataCopyPad(GM->UB)", dataCopyParams, padParams,
                                 d::PadBits(padParams.paddingValue)),
             loc);
}

// GM -> UB, the older prototype: DataCopyParams with blockLen in bytes (16-bit fields).
template <typename T, PaddingMode mode = PaddingMode::Normal>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                 const DataCopyParams& dataCopyParams, const DataCopyPadParams& padParams,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace d = lngrad::aicore::detail;
  d::PadCopy(dst, src,
             d::PadArgs<T, mode>("DataCopyPad(GM->UB, DataCopyParams)", dataCopyParams, padParams,
                                 padParams.paddingValue),
             loc);
}

// UB -> GM with DataCopyExtParams: blockLen in bytes, srcStride UB blocks, dstStride GM bytes.
template <typename T, PaddingMode mode = PaddingMode::Normal>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                 const DataCopyExtParams& dataCopyParams,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace d = lngrad::aicore::detail;
  d::PadCopy(dst, src, d::PadArgs<T, mode>("DataCopyPad(UB->GM)", dataCopyParams), loc);
}

// UB -> GM, the older prototype.
template <typename T, PaddingMode mode = PaddingMode::Normal>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                 const DataCopyParams& dataCopyParams,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace d = lngrad::aicore::detail;
  d::PadCopy(dst, src, d::PadArgs<T, mode>("DataCopyPad(UB->GM, DataCopyParams)", dataCopyParams),
             loc);
}

// Sets the pad value register that DataCopyPad GM -> UB uses when isPad is false. pos:
// VECIN, VECOUT or MAX (both). A register write, no memory access: nothing for the sanitizer.
template <typename T, TPosition pos = TPosition::MAX>
void SetPadValue(T paddingValue,
                 [[maybe_unused]] lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::SetPadRegister(lngrad::aicore::detail::PadBits(paddingValue), pos);
}

// Loop mode (950): the DataCopyPad calls of that direction that follow repeat as `loopParams`
// says, until ResetLoopModePara. Strides in bytes; the UB side's must be 32-byte multiples.
inline void SetLoopModePara(const LoopModeParams& loopParams, DataCopyMVType type) {
  lngrad::aicore::detail::SetLoopMode(loopParams, type, false);
}
inline void ResetLoopModePara(DataCopyMVType type) {
  lngrad::aicore::detail::SetLoopMode(LoopModeParams{}, type, true);
}

}  // namespace AscendC
