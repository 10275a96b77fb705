// lngrad Ascend C runtime: DataCopy with SliceInfo, the GM <-> UB copy of a sub-box of a
// multi-dimensional ND tensor (included by data_copy.h).
//
// Semantics (the vendor's 切片数据搬运 page and its example): dimension 0 is the row. On each
// side its SliceInfo {startIndex, endIndex, stride, burstLen, shapeValue} selects N bursts of
// burstLen 32-byte blocks, stride elements apart, from element startIndex to endIndex
// (inclusive): endIndex - startIndex + 1 = (N - 1) * stride + N * burstLen * 32 / sizeof(T).
// A dimension i >= 1 selects indices startIndex, startIndex + stride + 1, ... up to endIndex
// (burstLen must be 1 there), one index being a whole slab of the lower dimensions, whose
// lengths are the shapeValues (or, when srcSliceInfo[0].shapeValue is 0, the tensors'
// ShapeInfo). Every selected src row is copied, in order (dimension 1 fastest), to the
// selected dst row of the same rank; burst count and length are the source's, each side's gap
// between bursts its own stride. The UB side's gap is in whole 32-byte blocks: the device
// rounds stride * sizeof(T) down to a multiple of 32 (checked mode raises slice_params).
//
// Products: Atlas A2/A3 (2201), the 950 (3510) and Atlas inference AI Core (2002); not Atlas
// 200I/500 A2 (3002) nor the training series (1001): "DataCopy(SliceInfo).unsupported_product"
// in both modes. Element types of 1, 2 and 4 bytes, 8 on the 950 only.
// Checked mode ("slice_params"): the rules of the vendor's 约束说明, each naming the SliceInfo
// field: dimValue in [1, 8]; startIndex < endIndex <= shapeValue; the burst equation above;
// burstLen 1 beyond dimension 0 and equal on both sides; the same N per dimension on both sides
// (so that every burst has a destination); at most MAX_SLICE_SIZE rows; UB gaps in whole blocks.
// Always: the UB operand 32-byte aligned in checked mode (ub_alignment), tensor and GM bounds.
// Sanitizer: MTE2 (GM -> UB) / MTE3 (UB -> GM), one record per burst.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "check.h"
#include "sanitizer.h"
#include "tensor.h"

namespace AscendC {

inline constexpr int32_t K_MAX_DIM = 8;              // dimensions of a slice copy
inline constexpr uint32_t MAX_SLICE_SIZE = 6 * 256;  // rows of one slice copy

struct SliceInfo {
  SliceInfo() = default;
  SliceInfo(const uint32_t startIndexIn, const uint32_t endIndexIn, const uint32_t strideIn,
            const uint32_t burstLenIn, const uint32_t shapeValueIn = 0)
      : startIndex(startIndexIn),
        endIndex(endIndexIn),
        stride(strideIn),
        burstLen(burstLenIn),
        shapeValue(shapeValueIn) {}
  uint32_t startIndex = 0;
  uint32_t endIndex = 32 - 1;
  uint32_t stride = 0;
  uint32_t burstLen = 32;
  uint32_t shapeValue = 0;
};

}  // namespace AscendC

namespace lngrad::aicore::checks {
inline constexpr const char* kSliceParams =
    "slice_params";  // a SliceInfo outside the vendor's documented rules
}  // namespace lngrad::aicore::checks

namespace lngrad::aicore::detail {

// A checked slice copy: each row's first element on both sides, the burst geometry in bytes
// and the extents (elements from the tensors' starts) the copy touches.
struct SlicePlan {
  std::vector<uint64_t> src_rows;  // element offsets
  std::vector<uint64_t> dst_rows;
  uint32_t bursts = 0;
  uint64_t burst_bytes = 0;
  uint64_t src_pitch = 0;  // bytes, burst start to burst start
  uint64_t dst_pitch = 0;
  uint64_t src_extent = 0;  // elements
  uint64_t dst_extent = 0;
};

// Plans (and in checked mode checks) a slice copy; to_ub: GM -> UB (else UB -> GM).
SlicePlan PlanSliceCopy(const char* api, bool to_ub, const AscendC::SliceInfo* dst_info,
                        const AscendC::SliceInfo* src_info, uint32_t dim_value, uint32_t elem_size,
                        const AscendC::ShapeInfo& dst_shape, const AscendC::ShapeInfo& src_shape);
// Copies the plan's bursts and records them on `pipe` (after the copy for GM writes).
void RunSliceCopy(const SlicePlan& plan, Pipe pipe, const char* api, SrcLoc loc, std::byte* dst,
                  const std::byte* src, uint32_t elem_size);
void CheckUbAligned(const TensorView& v, const char* api, const char* operand);

// Either direction (D, S: LocalTensor and GlobalTensor): the UB side's alignment, the plan, the
// accesses (the UB side first), then the copy on MTE2 (GM -> UB) or MTE3.
template <typename T, template <typename> class D, template <typename> class S>
void SliceCopy(const D<T>& dst, const S<T>& src, const AscendC::SliceInfo dst_info[],
               const AscendC::SliceInfo src_info[], uint32_t dim_value, SrcLoc loc) {
  constexpr bool kToUb = std::is_same_v<D<T>, AscendC::LocalTensor<T>>;
  constexpr const char* api = kToUb ? "DataCopy(GM->UB, SliceInfo)" : "DataCopy(UB->GM, SliceInfo)";
  if constexpr (kToUb) {
    CheckUbAligned(dst.View(), api, "dst");
  } else {
    CheckUbAligned(src.View(), api, "src");
  }
  const SlicePlan plan = PlanSliceCopy(api, kToUb, dst_info, src_info, dim_value, sizeof(T),
                                       dst.GetShapeInfo(), src.GetShapeInfo());
  if constexpr (kToUb) {
    dst.Access(0, plan.dst_extent, api);
    src.Access(0, plan.src_extent, api);
  } else {
    src.Access(0, plan.src_extent, api);
    dst.Access(0, plan.dst_extent, api);
  }
  RunSliceCopy(plan, kToUb ? Pipe::kMte2 : Pipe::kMte3, api, loc, CopyBytes(dst), CopyBytes(src),
               sizeof(T));
}

}  // namespace lngrad::aicore::detail

namespace AscendC {

// GM -> UB: the srcSliceInfo box of src into the dstSliceInfo box of dst.
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const SliceInfo dstSliceInfo[],
              const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::SliceCopy(dst, src, dstSliceInfo, srcSliceInfo, dimValue, loc);
}

// UB -> GM: the srcSliceInfo box of src into the dstSliceInfo box of dst.
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const SliceInfo dstSliceInfo[],
              const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::SliceCopy(dst, src, dstSliceInfo, srcSliceInfo, dimValue, loc);
}

}  // namespace AscendC
