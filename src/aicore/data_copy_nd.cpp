// The multi-dimensional copies (data_copy_slice.h, nd_dma.h) and GlobalTensor::SetL2CacheHint.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "lngrad_aicore/data_copy.h"
#include "lngrad_aicore/sys.h"

namespace lngrad::aicore::detail {
namespace {

std::string SocText(const Product& p) {
  return std::string(p.soc) + " (" + std::string(p.product_line) + ", __NPU_ARCH__ " +
         NpuArchName(p.arch) + ")";
}

const Product& RunningProduct(const char* api) { return *RequireBlockContext(api).product; }

[[noreturn]] void RaiseUnsupported(const char* check, const char* api, const Product& p,
                                   const char* where) {
  RaiseKernelCheck(check, std::string(api) + " is not supported on " + SocText(p) +
                              ": the vendor's prototype exists on " + where);
}

[[noreturn]] void RaiseSlice(const char* api, const std::string& what) {
  RaiseKernelCheck(checks::kSliceParams, std::string(api) + ": " + what);
}

std::string Field(const char* side, uint32_t i, const char* field) {
  return std::string(side) + "SliceInfo[" + std::to_string(i) + "]." + field;
}

// The indices (dimension 0: bursts) a SliceInfo selects along one dimension, per the vendor's
// equation; 0 when none fits.
uint64_t SliceCount(const AscendC::SliceInfo& s, uint64_t unit) {
  const uint64_t span = uint64_t{s.endIndex} - s.startIndex + 1 + s.stride;
  const uint64_t step = uint64_t{s.burstLen} * unit + s.stride;
  return step == 0 || s.endIndex < s.startIndex ? 0 : span / step;
}

void CheckSliceSide(const char* api, const char* side, const AscendC::SliceInfo* info,
                    const uint32_t* shape, uint32_t dim_value, uint32_t c0) {
  for (uint32_t i = 0; i < dim_value; ++i) {
    const AscendC::SliceInfo& s = info[i];
    if (!(s.startIndex < s.endIndex && s.endIndex <= shape[i])) {
      RaiseSlice(api, Field(side, i, "startIndex") + " " + std::to_string(s.startIndex) + ", " +
                          Field(side, i, "endIndex") + " " + std::to_string(s.endIndex) +
                          " and the dimension's length " + std::to_string(shape[i]) +
                          " break startIndex < endIndex <= shapeValue");
    }
    if (i > 0 && s.burstLen != 1) {
      RaiseSlice(api, Field(side, i, "burstLen") + " is " + std::to_string(s.burstLen) +
                          ", which must be 1 beyond dimension 0");
    }
    const uint64_t unit = i == 0 ? c0 : 1;
    const uint64_t n = SliceCount(s, unit);
    if (n == 0 ||
        (n - 1) * s.stride + n * s.burstLen * unit != uint64_t{s.endIndex} - s.startIndex + 1) {
      RaiseSlice(api, Field(side, i, "endIndex") + " - startIndex + 1 = " +
                          std::to_string(uint64_t{s.endIndex} - s.startIndex + 1) +
                          " is not (N - 1) * stride + N * " +
                          (i == 0 ? "burstLen * 32 / sizeof(T)" : std::string("burstLen")) +
                          " for any N >= 1 (stride " + std::to_string(s.stride) + ", burstLen " +
                          std::to_string(s.burstLen) + ")");
    }
  }
}

}  // namespace

SlicePlan PlanSliceCopy(const char* api, bool to_ub, const AscendC::SliceInfo* dst_info,
                        const AscendC::SliceInfo* src_info, uint32_t dim_value, uint32_t elem_size,
                        const AscendC::ShapeInfo& dst_shape, const AscendC::ShapeInfo& src_shape) {
  const Product& p = RunningProduct(api);
  if (p.arch == NpuArch::k3002 || p.arch == NpuArch::k1001) {
    RaiseUnsupported("DataCopy(SliceInfo).unsupported_product", api, p,
                     "Atlas A2/A3, Atlas inference AI Core and Ascend 950PR/950DT only");
  }
  const bool checked = CheckedMode();
  if (checked && elem_size == 8 && p.arch != NpuArch::k3510) {
    RaiseSlice(api,
               "8-byte elements are supported on Ascend 950PR/950DT only, not on " + SocText(p));
  }
  // The shapes index the arrays below: the dimension count is a memory-safety rule, in both modes.
  if (dim_value < 1 || dim_value > static_cast<uint32_t>(AscendC::K_MAX_DIM)) {
    RaiseSlice(api, "dimValue is " + std::to_string(dim_value) + ", which should be in [1, " +
                        std::to_string(AscendC::K_MAX_DIM) + "]");
  }
  const uint32_t c0 = 32 / elem_size;
  // As the vendor: the SliceInfos' lengths, or the tensors' ShapeInfo when src's is 0.
  const bool use_shape_value = src_info[0].shapeValue != 0;
  uint32_t src_len[AscendC::K_MAX_DIM];
  uint32_t dst_len[AscendC::K_MAX_DIM];
  for (uint32_t i = 0; i < dim_value; ++i) {
    src_len[i] = use_shape_value ? src_info[i].shapeValue : src_shape.shape[i];
    dst_len[i] = use_shape_value ? dst_info[i].shapeValue : dst_shape.shape[i];
  }
  if (checked) {
    CheckSliceSide(api, "src", src_info, src_len, dim_value, c0);
    CheckSliceSide(api, "dst", dst_info, dst_len, dim_value, c0);
    for (uint32_t i = 0; i < dim_value; ++i) {
      if (src_info[i].burstLen != dst_info[i].burstLen) {
        RaiseSlice(api, Field("src", i, "burstLen") + " " + std::to_string(src_info[i].burstLen) +
                            " differs from " + Field("dst", i, "burstLen") + " " +
                            std::to_string(dst_info[i].burstLen));
      }
      const uint64_t unit = i == 0 ? c0 : 1;
      if (SliceCount(src_info[i], unit) != SliceCount(dst_info[i], unit)) {
        RaiseSlice(api, "dimension " + std::to_string(i) + " selects " +
                            std::to_string(SliceCount(src_info[i], unit)) +
                            (i == 0 ? " bursts" : " indices") + " of src but " +
                            std::to_string(SliceCount(dst_info[i], unit)) + " of dst (" +
                            Field("dst", i, "endIndex") + ")");
      }
    }
    const AscendC::SliceInfo& ub0 = to_ub ? dst_info[0] : src_info[0];
    if (uint64_t{ub0.stride} * elem_size % 32 != 0) {
      RaiseSlice(api, Field(to_ub ? "dst" : "src", 0, "stride") + " " + std::to_string(ub0.stride) +
                          " elements is not a whole number of "
                          "32-byte blocks, which the UB side's gap must be (the device rounds "
                          "it down)");
    }
  }
  SlicePlan plan;
  // Rows: dimension 1 fastest (the vendor's offset list), each side its own slab lengths.
  auto rows = [&](const AscendC::SliceInfo* info, const uint32_t* len, std::vector<uint64_t>& out) {
    uint64_t start = info[0].startIndex;
    uint64_t slab = 1;
    out.assign(1, 0);
    for (uint32_t i = 1; i < dim_value; ++i) {
      slab *= len[i - 1];
      start += slab * info[i].startIndex;
      const uint64_t n = SliceCount(info[i], 1);
      const size_t lower = out.size();
      for (uint64_t k = 1; k < n; ++k) {
        for (size_t j = 0; j < lower; ++j) out.push_back(out[j] + k * (1 + info[i].stride) * slab);
      }
      if (n == 0) out.clear();
    }
    for (uint64_t& r : out) r += start;
  };
  rows(src_info, src_len, plan.src_rows);
  rows(dst_info, dst_len, plan.dst_rows);
  if (checked && plan.src_rows.size() > AscendC::MAX_SLICE_SIZE) {
    RaiseSlice(api, "the slice has " + std::to_string(plan.src_rows.size()) +
                        " rows, more than MAX_SLICE_SIZE " +
                        std::to_string(AscendC::MAX_SLICE_SIZE));
  }
  // The device copies src's rows; a dst with fewer rows (unchecked mode) stops the copy there.
  if (plan.dst_rows.size() < plan.src_rows.size()) plan.src_rows.resize(plan.dst_rows.size());
  plan.bursts = static_cast<uint32_t>(SliceCount(src_info[0], c0));
  plan.burst_bytes = uint64_t{src_info[0].burstLen} * 32;
  const uint64_t src_gap = uint64_t{src_info[0].stride} * elem_size;
  const uint64_t dst_gap = uint64_t{dst_info[0].stride} * elem_size;
  plan.src_pitch = plan.burst_bytes + (to_ub ? src_gap : src_gap / 32 * 32);
  plan.dst_pitch = plan.burst_bytes + (to_ub ? dst_gap / 32 * 32 : dst_gap);
  if (plan.bursts != 0 && !plan.src_rows.empty()) {
    const uint64_t src_bytes = (uint64_t{plan.bursts} - 1) * plan.src_pitch + plan.burst_bytes;
    const uint64_t dst_bytes = (uint64_t{plan.bursts} - 1) * plan.dst_pitch + plan.burst_bytes;
    plan.src_extent = plan.src_rows.back() + (src_bytes + elem_size - 1) / elem_size;
    plan.dst_extent =
        plan.dst_rows[plan.src_rows.size() - 1] + (dst_bytes + elem_size - 1) / elem_size;
  }
  return plan;
}

void RunSliceCopy(const SlicePlan& plan, Pipe pipe, const char* api, SrcLoc loc, std::byte* dst,
                  const std::byte* src, uint32_t elem_size) {
  for (size_t r = 0; r < plan.src_rows.size(); ++r) {
    std::byte* d = dst + plan.dst_rows[r] * elem_size;
    const std::byte* s = src + plan.src_rows[r] * elem_size;
    for (uint32_t b = 0; b < plan.bursts; ++b) {
      std::memmove(d + b * plan.dst_pitch, s + b * plan.src_pitch, plan.burst_bytes);
    }
  }
  // After the copy: a GM write is fingerprinted by what it left there.
  san::Instr in(pipe, api, loc);
  if (!in || plan.bursts == 0) return;
  for (size_t r = 0; r < plan.src_rows.size(); ++r) {
    in.ReadBlocks(src + plan.src_rows[r] * elem_size, plan.bursts, plan.burst_bytes,
                  plan.src_pitch);
    in.WriteBlocks(dst + plan.dst_rows[r] * elem_size, plan.bursts, plan.burst_bytes,
                   plan.dst_pitch);
  }
}

// ---------------------------------------------------------------------------------------------
// NDDMA

namespace {

[[noreturn]] void RaiseNdDma(const char* api, const std::string& what) {
  RaiseKernelCheck(checks::kNdDmaParams, std::string(api) + ": " + what);
}

std::string LoopField(const char* field, uint32_t i) {
  return std::string("loopInfo.") + field + "[" + std::to_string(i) + "]";
}

}  // namespace

void CheckNdDma(const char* api, const NdDmaShape& s, uint32_t elem_size, bool pad_value_zero,
                uint64_t* src_extent, uint64_t* dst_extent) {
  const Product& p = RunningProduct(api);
  if (p.arch != NpuArch::k3510) {
    RaiseUnsupported("DataCopy(NdDmaParams).unsupported_product", api, p,
                     "Ascend 950PR/950DT (__NPU_ARCH__ 3510) only");
  }
  if (CheckedMode()) {
    for (uint32_t i = 0; i < s.dim; ++i) {
      if (s.size[i] < 1 || s.size[i] >= (uint64_t{1} << 20)) {
        RaiseNdDma(api, LoopField("loopSize", i) + " is " + std::to_string(s.size[i]) +
                            ", which should be in [1, 2^20)");
      }
      if (s.src_stride[i] >= (uint64_t{1} << 40)) {
        RaiseNdDma(api, LoopField("loopSrcStride", i) + " is " + std::to_string(s.src_stride[i]) +
                            ", which should be below 2^40");
      }
      if (s.dst_stride[i] >= (uint64_t{1} << 20)) {
        RaiseNdDma(api, LoopField("loopDstStride", i) + " is " + std::to_string(s.dst_stride[i]) +
                            ", which should be below 2^20");
      }
    }
    if (elem_size == 8 && !pad_value_zero) {
      RaiseNdDma(api,
                 "constantValue must be 0 for 8-byte elements (nddma b64 only supports const "
                 "pad value 0)");
    }
    bool ascending = true;
    for (uint32_t i = 1; i < s.dim; ++i)
      ascending = ascending && s.dst_stride[i] > s.dst_stride[i - 1];
    if (ascending) {
      uint64_t box = 1;  // elements spanned by the dimensions below i
      for (uint32_t i = 1; i < s.dim; ++i) {
        box += (s.lp[i - 1] + s.size[i - 1] + s.rp[i - 1] - 1) * s.dst_stride[i - 1];
        if (s.dst_stride[i] < box) {
          RaiseNdDma(api, LoopField("loopDstStride", i) + " is " + std::to_string(s.dst_stride[i]) +
                              ": with ascending destination strides it must be at least " +
                              std::to_string(box) +
                              ", the elements the lower dimensions span (the loops' address "
                              "spaces may not interleave or overlap)");
        }
      }
    }
  }
  uint64_t src = 1;
  uint64_t dst = 1;
  for (uint32_t i = 0; i < s.dim; ++i) {
    if (s.size[i] == 0) {
      src = 0;
      dst = 0;
      break;
    }
    src += (s.size[i] - 1) * s.src_stride[i];
    dst += (s.lp[i] + s.size[i] + s.rp[i] - 1) * s.dst_stride[i];
  }
  *src_extent = src;
  *dst_extent = dst;
}

void RunNdDma(const char* api, SrcLoc loc, const NdDmaShape& s, std::byte* dst,
              const std::byte* src, uint32_t elem_size, const void* pad_value) {
  uint64_t total[5] = {};
  uint64_t outer = 1;
  for (uint32_t i = 0; i < s.dim; ++i) {
    if (s.size[i] == 0) return;
    total[i] = s.lp[i] + s.size[i] + s.rp[i];
    if (i > 0) outer *= total[i];
  }
  san::Instr in(Pipe::kMte2, api, loc);
  uint64_t k[5] = {};
  for (uint64_t o = 0; o < outer; ++o) {
    // k[1..dim) from o, dimension 1 fastest.
    uint64_t rest = o;
    bool outer_data = true;
    uint64_t dst_row = 0;
    uint64_t src_row = 0;
    for (uint32_t i = 1; i < s.dim; ++i) {
      k[i] = rest % total[i];
      rest /= total[i];
      dst_row += k[i] * s.dst_stride[i];
      const bool data = k[i] >= s.lp[i] && k[i] < s.lp[i] + s.size[i];
      outer_data = outer_data && data;
      const uint64_t clamped = k[i] < s.lp[i] ? 0 : (data ? k[i] - s.lp[i] : s.size[i] - 1);
      src_row += clamped * s.src_stride[i];
    }
    const bool read_row = outer_data || s.nearest;
    for (uint64_t k0 = 0; k0 < total[0]; ++k0) {
      std::byte* d = dst + (dst_row + k0 * s.dst_stride[0]) * elem_size;
      const bool data = k0 >= s.lp[0] && k0 < s.lp[0] + s.size[0];
      if (read_row && (data || s.nearest)) {
        const uint64_t c = k0 < s.lp[0] ? 0 : (data ? k0 - s.lp[0] : s.size[0] - 1);
        std::memmove(d, src + (src_row + c * s.src_stride[0]) * elem_size, elem_size);
      } else {
        std::memcpy(d, pad_value, elem_size);
      }
    }
    if (in) {
      if (outer_data) {
        if (s.src_stride[0] == 1) {
          in.Read(src + src_row * elem_size, s.size[0] * elem_size);
        } else {
          in.ReadBlocks(src + src_row * elem_size, s.size[0], elem_size,
                        s.src_stride[0] * elem_size);
        }
      }
      if (s.dst_stride[0] == 1) {
        in.Write(dst + dst_row * elem_size, total[0] * elem_size);
      } else {
        in.WriteBlocks(dst + dst_row * elem_size, total[0], elem_size, s.dst_stride[0] * elem_size);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// ND2NZ

void CheckNd2Nz(const char* api, const Nd2NzArgs& p, uint32_t elem_size, uint64_t* src_extent,
                uint64_t* dst_extent) {
  const Product& prod = RunningProduct(api);
  if (prod.arch == NpuArch::k3002 || prod.arch == NpuArch::k1001) {
    RaiseUnsupported("DataCopy(Nd2NzParams).unsupported_product", api, prod,
                     "Atlas A2/A3, Atlas inference AI Core and Ascend 950PR/950DT only");
  }
  if (CheckedMode()) {
    struct Rule {
      const char* name;
      uint64_t value, lo, hi;
    };
    const Rule rules[] = {
        {"ndNum", p.ndNum, 0, 4095},
        {"nValue", p.nValue, 0, 16384},
        {"dValue", p.dValue, 0, 65535},
        {"srcNdMatrixStride", p.srcNdMatrixStride, 0, 65535},
        {"srcDValue", p.srcDValue, 1, 65535},
        {"dstNzC0Stride", p.dstNzC0Stride, 1, 16384},
        {"dstNzNStride", p.dstNzNStride, 1, 16384},
        // Unused with one matrix (the vendor's samples pass 0 then).
        {"dstNzMatrixStride", p.dstNzMatrixStride, p.ndNum > 1 ? 1u : 0u, 65535},
    };
    for (const Rule& r : rules) {
      if (r.value < r.lo || r.value > r.hi) {
        RaiseKernelCheck(checks::kNd2NzParams, std::string(api) + ": intriParams." + r.name +
                                                   " is " + std::to_string(r.value) +
                                                   ", which should be in [" + std::to_string(r.lo) +
                                                   ", " + std::to_string(r.hi) + "]");
      }
    }
  }
  *src_extent = 0;
  *dst_extent = 0;
  if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;
  const uint64_t c0 = 32 / elem_size;
  const uint64_t chunks = (uint64_t{p.dValue} + c0 - 1) / c0;
  *src_extent = (uint64_t{p.ndNum} - 1) * p.srcNdMatrixStride +
                (uint64_t{p.nValue} - 1) * p.srcDValue + p.dValue;
  *dst_extent = (uint64_t{p.ndNum} - 1) * p.dstNzMatrixStride +
                (chunks - 1) * p.dstNzC0Stride * c0 +
                (uint64_t{p.nValue} - 1) * p.dstNzNStride * c0 + c0;
}

void RunNd2Nz(const char* api, SrcLoc loc, const Nd2NzArgs& p, std::byte* dst, const std::byte* src,
              uint32_t elem_size) {
  if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;
  const uint64_t row_bytes = uint64_t{p.dValue} * elem_size;
  const uint64_t chunks = (row_bytes + 31) / 32;
  const uint64_t c0_pitch = uint64_t{p.dstNzC0Stride} * 32;
  san::Instr in(Pipe::kMte2, api, loc);
  for (uint64_t m = 0; m < p.ndNum; ++m) {
    for (uint64_t r = 0; r < p.nValue; ++r) {
      const std::byte* s = src + (m * p.srcNdMatrixStride + r * p.srcDValue) * elem_size;
      std::byte* d = dst + m * p.dstNzMatrixStride * elem_size + r * p.dstNzNStride * 32;
      for (uint64_t c = 0; c < chunks; ++c) {
        const uint64_t n = std::min<uint64_t>(32, row_bytes - c * 32);
        std::memmove(d + c * c0_pitch, s + c * 32, n);
        if (n < 32) std::memset(d + c * c0_pitch + n, 0, 32 - n);
      }
      if (in) {
        in.Read(s, row_bytes);
        in.WriteBlocks(d, chunks, 32, c0_pitch);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// SetL2CacheHint

void CheckL2CacheHint(AscendC::CacheMode mode, SrcLoc loc) {
  if (!CheckedMode()) return;
  const BlockContext* ctx = CurrentBlockContext();
  if (ctx == nullptr) return;  // host code: no product to check against
  const std::string at = WithLoc("GlobalTensor::SetL2CacheHint", loc);
  const Product& p = *ctx->product;
  if (p.arch != NpuArch::k2201 && p.arch != NpuArch::k3510) {
    RaiseKernelCheck("SetL2CacheHint.unsupported_product",
                     at + " is not supported on " + SocText(p) +
                         ": the vendor documents it for Atlas A2/A3 and Ascend 950PR/950DT only");
  }
  const auto m = static_cast<uint8_t>(mode);
  if (m != 0 && m != 1 && m != 2 && m != 4) {
    RaiseKernelCheck("l2_cache_mode", at + ": mode " + std::to_string(m) +
                                          " is not a CacheMode (DISABLE 0, NORMAL 1, LAST 2, "
                                          "PERSISTENT 4)");
  }
  if (mode == AscendC::CacheMode::CACHE_MODE_PERSISTENT && p.arch != NpuArch::k3510) {
    RaiseKernelCheck("l2_cache_mode", at + ": mode CACHE_MODE_PERSISTENT is not supported on " +
                                          SocText(p) +
                                          " (the vendor plans it for Ascend 950PR/950DT only)");
  }
}

}  // namespace lngrad::aicore::detail
