// lngrad Ascend C runtime: the 950's multi-dimensional DMA (NDDMA), DataCopy GM -> UB with
// NdDmaParams, and NdDmaDci (included by data_copy.h).
//
// Semantics (the vendor's 多维数据搬运 page and its sample): dimension i (0 innermost) of a
// dim-dimensional copy runs over Lp_i + loopSize_i + Rp_i indices k_i (left padding, data, right
// padding). The element at k goes to dst + sum k_i * loopDstStride_i (elements). When every k_i
// is a data index it is src[sum (k_i - Lp_i) * loopSrcStride_i]; otherwise it is padding:
// constantValue, or with NdDmaConfig::isNearestValueMode the data element nearest to it (each
// k_i clamped into the data range). NdDmaConfig::loopLpSize / loopRpSize other than unsetPad
// replace every dimension's padding. Dimension 0 runs fastest; where the device's loops write one
// element twice, the later write wins here.
//
// Products: Ascend 950PR/950DT (3510) only ("DataCopy(NdDmaParams).unsupported_product" in both
// modes elsewhere). Checked mode ("nddma_params", naming the field and dimension): dim in [1, 5]
// (static), loopSize in [1, 2^20), loopSrcStride < 2^40, loopDstStride < 2^20, for 8-byte types
// constantValue 0 and no nearest mode (static), and the documented overlap rule: when the
// destination strides ascend, each dimension's stride must step past the whole box of the
// dimensions below it. Always: tensor and GM bounds over what is read and written. The UB
// address needs no 32-byte alignment (the NDDMA addresses UB by element).
// NdDmaDci invalidates the NDDMA's cache of GM; the CPU has none, so it does nothing.
// Sanitizer: MTE2; reads one record per data row, writes one per destination row (dimension 0
// strided when loopDstStride_0 > 1).
#pragma once

#include <cstdint>
#include <cstring>

#include "check.h"
#include "sanitizer.h"
#include "tensor.h"

namespace AscendC {

struct NdDmaConfig {
  static constexpr uint16_t unsetPad = 0xffff;
  bool isNearestValueMode = false;
  uint16_t loopLpSize = unsetPad;  // left padding of every dimension, at most 255, or unsetPad
  uint16_t loopRpSize = unsetPad;  // right padding of every dimension, at most 255, or unsetPad
  bool ascOptimize = false;        // reserved
};
using MultiCopyConfig = NdDmaConfig;
inline constexpr NdDmaConfig kDefaultNdDmaConfig = {false, NdDmaConfig::unsetPad,
                                                    NdDmaConfig::unsetPad, false};
inline constexpr NdDmaConfig kDefaultMultiCopyConfig = kDefaultNdDmaConfig;

// Index [0, dim): innermost to outermost dimension; strides and sizes in elements.
template <uint8_t dim>
struct MultiCopyLoopInfo {
  static_assert(dim >= 1 && dim <= 5, "MultiCopy Dims must be between 1 and 5.");
  uint64_t loopSrcStride[dim] = {0};
  uint32_t loopDstStride[dim] = {0};
  uint32_t loopSize[dim] = {0};
  uint8_t loopLpSize[dim] = {0};
  uint8_t loopRpSize[dim] = {0};
};
template <uint8_t dim>
using NdDmaLoopInfo = MultiCopyLoopInfo<dim>;

template <typename T, uint8_t dim>
struct MultiCopyParams {
  MultiCopyLoopInfo<dim> loopInfo;
  T constantValue;  // the padding (constant mode)
};
template <typename T, uint8_t dim>
using NdDmaParams = MultiCopyParams<T, dim>;

}  // namespace AscendC

namespace lngrad::aicore::checks {
inline constexpr const char* kNdDmaParams =
    "nddma_params";  // an NdDmaLoopInfo field outside its documented range
}  // namespace lngrad::aicore::checks

namespace lngrad::aicore::detail {

// One NDDMA copy with the paddings resolved.
struct NdDmaShape {
  uint32_t dim = 1;
  uint64_t src_stride[5] = {};
  uint64_t dst_stride[5] = {};
  uint64_t size[5] = {};
  uint64_t lp[5] = {};
  uint64_t rp[5] = {};
  bool nearest = false;
};
// Product and (checked mode) parameter checks; returns the extents (elements) read and written.
void CheckNdDma(const char* api, const NdDmaShape& s, uint32_t elem_size, bool pad_value_zero,
                uint64_t* src_extent, uint64_t* dst_extent);
// The copy (elements of elem_size bytes) and its MTE2 record.
void RunNdDma(const char* api, SrcLoc loc, const NdDmaShape& s, std::byte* dst,
              const std::byte* src, uint32_t elem_size, const void* pad_value);

}  // namespace lngrad::aicore::detail

namespace AscendC {

template <typename T, uint8_t dim, const NdDmaConfig& config = kDefaultNdDmaConfig>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
              const NdDmaParams<T, dim>& params,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(config.loopLpSize <= 0xff || config.loopLpSize == NdDmaConfig::unsetPad,
                "loopLpSize in config must be either <= 255 or unset");
  static_assert(config.loopRpSize <= 0xff || config.loopRpSize == NdDmaConfig::unsetPad,
                "loopRpSize in config must be either <= 255 or unset");
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "NDDMA moves elements of 1, 2, 4 or 8 bytes");
  static_assert(sizeof(T) != 8 || !config.isNearestValueMode,
                "nddma b64 only supports constant value mode");
  namespace d = lngrad::aicore::detail;
  constexpr const char* kApi = "DataCopy(GM->UB, NdDmaParams)";
  d::NdDmaShape s;
  s.dim = dim;
  s.nearest = config.isNearestValueMode;
  for (uint32_t i = 0; i < dim; ++i) {
    s.src_stride[i] = params.loopInfo.loopSrcStride[i];
    s.dst_stride[i] = params.loopInfo.loopDstStride[i];
    s.size[i] = params.loopInfo.loopSize[i];
    s.lp[i] = config.loopLpSize == NdDmaConfig::unsetPad ? params.loopInfo.loopLpSize[i]
                                                         : config.loopLpSize;
    s.rp[i] = config.loopRpSize == NdDmaConfig::unsetPad ? params.loopInfo.loopRpSize[i]
                                                         : config.loopRpSize;
  }
  const T pad = params.constantValue;
  T zero{};
  const bool pad_zero = std::memcmp(&pad, &zero, sizeof(T)) == 0;
  uint64_t src_extent = 0;
  uint64_t dst_extent = 0;
  d::CheckNdDma(kApi, s, sizeof(T), pad_zero, &src_extent, &dst_extent);
  dst.Access(0, dst_extent, kApi);
  src.Access(0, src_extent, kApi);
  d::RunNdDma(kApi, loc, s, reinterpret_cast<std::byte*>(dst.HostPtr()),
              reinterpret_cast<const std::byte*>(src.GetPhyAddr()), sizeof(T), &pad);
}

// Invalidates the NDDMA's GM cache before a copy reads GM another core may have written.
inline void NdDmaDci() {}

}  // namespace AscendC
