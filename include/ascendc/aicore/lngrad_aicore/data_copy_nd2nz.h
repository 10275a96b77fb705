// lngrad Ascend C runtime: DataCopy GM -> UB with Nd2NzParams, the copy that turns ndNum ND
// matrices into the NZ (fractal) layout on the way (included by data_copy.h).
//
// Semantics (the vendor's 随路转换ND2NZ搬运 page and its figure): C0 = 32 / sizeof(T) elements.
// Row r of ND matrix m is read from src + m * srcNdMatrixStride + r * srcDValue (elements) and
// cut into ceil(dValue / C0) chunks of C0; chunk c of it goes to dst + m * dstNzMatrixStride
// (elements) + c * dstNzC0Stride * C0 + r * dstNzNStride * C0 (both strides in 32-byte blocks).
// The last chunk's elements past dValue are written as 0.
//
// Products: Atlas A2/A3, the 950 and Atlas inference AI Core; not Atlas 200I/500 A2 nor the
// training series ("DataCopy(Nd2NzParams).unsupported_product", both modes). The 950's
// enableSmallC0 mode is not emulated (static). The Atlas inference AI Core's 8 KB of UB scratch
// is not reserved here. Checked mode ("nd2nz_params", naming the field): the ranges of the
// vendor's table 4; always the UB operand 32-byte aligned in checked mode (ub_alignment), tensor
// and GM bounds. Sanitizer: MTE2, one read per source row, one write per 32-byte chunk.
// The GM -> L1 form (the cube's A1, B1, C1) is the same copy into the L1 the cube layer serves.
#pragma once

#include <cstdint>

#include "check.h"
#include "sanitizer.h"
#include "tensor.h"

namespace AscendC {

// The field widths are the vendor's: wider on the 950.
struct Nd2NzParams {
#if __NPU_ARCH__ == 3510
  using D = uint32_t;
  using SrcStride = uint64_t;
  using MatrixStride = uint32_t;
#else
  using D = uint16_t;
  using SrcStride = uint16_t;
  using MatrixStride = uint16_t;
#endif
  Nd2NzParams() = default;
  Nd2NzParams(const uint16_t ndNumIn, const uint16_t nValueIn, const D dValueIn,
              const SrcStride srcNdMatrixStrideIn, const SrcStride srcDValueIn,
              const uint16_t dstNzC0StrideIn, const uint16_t dstNzNStrideIn,
              const MatrixStride dstNzMatrixStrideIn)
      : ndNum(ndNumIn),
        nValue(nValueIn),
        dValue(dValueIn),
        srcNdMatrixStride(srcNdMatrixStrideIn),
        srcDValue(srcDValueIn),
        dstNzC0Stride(dstNzC0StrideIn),
        dstNzNStride(dstNzNStrideIn),
        dstNzMatrixStride(dstNzMatrixStrideIn) {}
  uint16_t ndNum = 0;
  uint16_t nValue = 0;
  D dValue = 0;
  SrcStride srcNdMatrixStride = 0;
  SrcStride srcDValue = 0;
  uint16_t dstNzC0Stride = 0;
  uint16_t dstNzNStride = 0;
  MatrixStride dstNzMatrixStride = 0;
};

}  // namespace AscendC

namespace lngrad::aicore::checks {
inline constexpr const char* kNd2NzParams =
    "nd2nz_params";  // an Nd2NzParams field outside the vendor's range
}  // namespace lngrad::aicore::checks

namespace lngrad::aicore::detail {
// Nd2NzParams with fields wide enough for every arch: the struct's layout follows the kernel's
// __NPU_ARCH__ (the 950's fields are wider), the library is compiled once, so the kernel-side
// template widens it before calling in.
struct Nd2NzArgs {
  uint64_t ndNum, nValue, dValue, srcNdMatrixStride, srcDValue, dstNzC0Stride, dstNzNStride,
      dstNzMatrixStride;
};
inline Nd2NzArgs Widen(const AscendC::Nd2NzParams& p) {
  return {p.ndNum,     p.nValue,        p.dValue,       p.srcNdMatrixStride,
          p.srcDValue, p.dstNzC0Stride, p.dstNzNStride, p.dstNzMatrixStride};
}
// Product and (checked mode) range checks; returns the extents (elements) read and written.
void CheckNd2Nz(const char* api, const Nd2NzArgs& p, uint32_t elem_size, uint64_t* src_extent,
                uint64_t* dst_extent);
// The copy, its zero fill and its MTE2 record.
void RunNd2Nz(const char* api, SrcLoc loc, const Nd2NzArgs& p, std::byte* dst, const std::byte* src,
              uint32_t elem_size);
void CheckUbAligned(const TensorView& v, const char* api, const char* operand);
}  // namespace lngrad::aicore::detail

namespace AscendC {

template <typename T, bool enableSmallC0 = false>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& intriParams,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(!enableSmallC0, "lngrad: the 950's enableSmallC0 ND2NZ mode is not emulated");
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                "ND2NZ moves elements of 1, 2 or 4 bytes");
  namespace d = lngrad::aicore::detail;
  const char* const kApi = IsUbPosition(dst.View().pos) ? "DataCopy(GM->UB, Nd2NzParams)"
                                                        : "DataCopy(GM->L1, Nd2NzParams)";
  d::CheckUbAligned(dst.View(), kApi, "dst");
  uint64_t src_extent = 0;
  uint64_t dst_extent = 0;
  const d::Nd2NzArgs args = d::Widen(intriParams);
  d::CheckNd2Nz(kApi, args, sizeof(T), &src_extent, &dst_extent);
  dst.Access(0, dst_extent, kApi);
  src.Access(0, src_extent, kApi);
  d::RunNd2Nz(kApi, loc, args, reinterpret_cast<std::byte*>(dst.HostPtr()),
              reinterpret_cast<const std::byte*>(src.GetPhyAddr()), sizeof(T));
}

}  // namespace AscendC
