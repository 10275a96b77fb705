// Host tiling of TransData (the vendor's adv_api/transpose/transdata_tiling.h):
// GetTransDataMaxMinTmpSize, after impl/adv_api/tiling/transpose/transdata_tiling.cpp. The
// scratch is one size (max == min), in bytes, from N, C, D, H, W of the NCDHW side, with
// C1 = ceil(C/16), N1 = ceil(N/16) and P = H*W rounded up to 16 (every element counted as 2 bytes):
// - NCDHW -> NDC1HWC0: 2*D*P + 2*D*C1*16*P;
// - NDC1HWC0 -> NCDHW: 2*D*C1*16*P + 512;
// - NCDHW -> FRACTAL_Z_3D: max(2*C*D*P, 2*D*H*W*N1*16) + 2*N1*16*D*C1*16*P;
// - FRACTAL_Z_3D -> NCDHW: 2*N1*16*C1*16*D*P, doubled unless N and C are multiples of 16.
// Shapes: NCDHW {N, C, D, H, W}; NDC1HWC0 {N, D, C1, H, W, 16}; FRACTAL_Z_3D
// {D, C1, H, W, N1, 16, 16}; the other side's N, C, D, H, W must match.
// Errors (a data type other than DT_FLOAT16, DT_BF16, DT_UINT16, DT_INT16; another format pair;
// a product other than arch 2201 or 3510; shapes that do not match the formats): message on
// stderr, false, outputs untouched, lngrad::tiling::LastTilingStatus() set.
#pragma once

#include <cstdint>

#include "graph/types.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_types.h"

namespace AscendC {

// The kernel's lngrad_aicore/tensor.h and lib/transpose/transdata.h declare these too, under
// the same guards (a .asc file includes both sides).
#ifndef ASCC_ENUM_DATAFORMAT
#define ASCC_ENUM_DATAFORMAT
enum class DataFormat : uint8_t {
  ND = 0,
  NZ,
  NCHW,
  NC1HWC0,
  NHWC,
  NCDHW,
  NDC1HWC0,
  FRACTAL_Z_3D,
};
#endif  // ASCC_ENUM_DATAFORMAT

#ifndef ASCC_PARAM_TRANSDATACONFIG
#define ASCC_PARAM_TRANSDATACONFIG
struct TransDataConfig {
  DataFormat srcFormat;
  DataFormat dstFormat;
};
#endif  // ASCC_PARAM_TRANSDATACONFIG

bool GetTransDataMaxMinTmpSize(const platform_ascendc::PlatformAscendC& platform,
                               const ge::Shape& srcShape, const ge::Shape& dstShape,
                               ge::DataType dataType, const TransDataConfig& config,
                               uint32_t& maxValue, uint32_t& minValue);

}  // namespace AscendC

namespace lngrad::tiling {

Status TransDataMaxMinTmpSize(const platform_ascendc::PlatformAscendC& platform,
                              const ge::Shape& srcShape, const ge::Shape& dstShape,
                              ge::DataType dataType, const AscendC::TransDataConfig& config,
                              uint32_t& maxValue, uint32_t& minValue);

}  // namespace lngrad::tiling
