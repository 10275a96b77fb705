// lngrad Ascend C runtime: data re-arrangement of the basic API: Transpose (the 16 x 16 form
// and the TransposeParamsExt form: 16 x 16, [N,C,H,W] <-> [N,H,W,C]), Interleave and
// DeInterleave (the 950's), TransDataTo5HD (16-bit elements).
//
// Semantics (vendor docs):
// - Transpose(dst, src): dst = src^T of one 16 x 16 matrix of 2-byte elements (int16_t,
//   uint16_t, half); dst may be src.
// - Transpose(dst, src, sharedTmpBuffer, params): TRANSPOSE_ND2ND_B16 is the 16 x 16 form;
//   TRANSPOSE_NCHW2NHWC / TRANSPOSE_NHWC2NCHW permute (0, 2, 3, 1) / (0, 3, 1, 2) of an
//   [N, C, H, W] / [N, H, W, C] tensor. Rules (checked mode): cSize <= 4095, hSize * wSize <=
//   4095, hSize * wSize * sizeof(T) a multiple of 32 (checks::kTransposeParams); the
//   temporary buffer at least (C + 2) (NCHW2NHWC) or (2C + 1) (NHWC2NCHW) times h0 * w0 *
//   sizeof(T) bytes, h0 = 16 (32 for 1-byte types), w0 = 32 / sizeof(T) (kTmpBuffer); src
//   and dst disjoint (kAddressOverlap). A zero size is a no-op; TRANSPOSE_TYPE_NONE does
//   nothing; the types the docs mark unsupported raise kTransposeParams. lngrad does not model
//   what the device leaves in the temporary buffer: it is recorded as written, and not touched.
// - Interleave: with z[2i] = src0[i], z[2i + 1] = src1[i], dst0 = z[0, count), dst1 =
//   z[count, 2 count). DeInterleave: z = src0 ++ src1 (or z = src), dst0 = z's even elements,
//   dst1 = its odd ones. count even (checks::kCountParity); no operand overlaps another
//   (kAddressOverlap).
// - TransDataTo5HD: per repeat r, source block k (k < 16) is the 32 bytes at srcList[k] + r *
//   srcRepStride * 32 and destination block j at dstList[j] + r * dstRepStride * 32; for 16-bit
//   types dst block j holds element j of source blocks 0..15 (a 16 x 16 transpose; the layout
//   the kit's transpose sample checks for NCHW -> NC1HWC0). repeatTimes 0 is a NOP. The 8- and
//   32-bit layouts are documented only by figures the kit does not carry, so they are not
//   provided (a compile error), nor are dstHighHalf/srcHighHalf, which only 8-bit types read.
//   Every block 32-byte aligned and inside the UB; source and destination blocks of one repeat
//   disjoint (checked mode, kAddressOverlap).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "check.h"
#include "mask.h"
#include "reduce_ops.h"
#include "sanitizer.h"
#include "vector_ops.h"

namespace lngrad::aicore::checks {
inline constexpr const char* kTransposeParams = "transpose_params";  // a size or type not allowed
inline constexpr const char* kCountParity = "count_parity";          // an odd count
}  // namespace lngrad::aicore::checks

namespace AscendC {

enum class TransposeType : uint8_t {
  TRANSPOSE_TYPE_NONE,
  TRANSPOSE_NZ2ND_0213,
  TRANSPOSE_NZ2NZ_0213,
  TRANSPOSE_NZ2NZ_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITHOUT_N,
  TRANSPOSE_NZ2NZ_012_WITHOUT_N,
  TRANSPOSE_ND2ND_ONLY,
  TRANSPOSE_ND_UB_GM,
  TRANSPOSE_GRAD_ND_UB_GM,
  TRANSPOSE_ND2ND_B16,
  TRANSPOSE_NCHW2NHWC,
  TRANSPOSE_NHWC2NCHW,
  TRANSPOSE_ND2ND_021,  // the high-level Transpose's 950-only types (lib/transpose)
  TRANSPOSE_ND2ND_102,
  TRANSPOSE_ND2ND_210,
  TRANSPOSE_ND2NZ_WITH_INTLV
};

struct TransposeParamsExt {
  TransposeParamsExt() {}
  TransposeParamsExt(const uint16_t nSizeIn, const uint16_t cSizeIn, const uint16_t hSizeIn,
                     const uint16_t wSizeIn, const TransposeType transposeTypeIn)
      : nSize(nSizeIn),
        cSize(cSizeIn),
        hSize(hSizeIn),
        wSize(wSizeIn),
        transposeType(transposeTypeIn) {}
  uint16_t nSize = 0;
  uint16_t cSize = 0;
  uint16_t hSize = 0;
  uint16_t wSize = 0;
  TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

}  // namespace AscendC

namespace lngrad::aicore::detail::arrange {

// Checked mode: no two of the operands overlap (rep::CheckDisjoint, pair by pair).
struct Range {
  TensorView view;
  uint64_t bytes;
  const char* name;
};
inline void CheckDisjoint(const char* api, std::initializer_list<Range> ranges) {
  for (auto a = ranges.begin(); a != ranges.end(); ++a) {
    for (auto b = a + 1; b != ranges.end(); ++b) {
      rep::CheckDisjoint(api, a->name, a->view, a->bytes, b->name, b->view, b->bytes);
    }
  }
}
inline void CheckEven(const char* api, const char* name, int64_t n) {
  if (n % 2 != 0 && CheckedMode()) {
    RaiseKernelCheck(checks::kCountParity, std::string(api) + ": " + name + " is " +
                                               std::to_string(n) + ", which must be even");
  }
}

// The checks and the sanitizer record of the two-source forms (count elements each).
template <typename T>
uint64_t PairForm(const char* api, SrcLoc loc, const AscendC::LocalTensor<T>& dst0,
                  const AscendC::LocalTensor<T>& dst1, const AscendC::LocalTensor<T>& src0,
                  const AscendC::LocalTensor<T>& src1, int32_t count) {
  CheckVectorOperands(api, count,
                      {{dst0.View(), sizeof(T), "dst0"}, {src0.View(), sizeof(T), "src0"}});
  CheckVectorOperands(api, count,
                      {{dst1.View(), sizeof(T), "dst1"}, {src1.View(), sizeof(T), "src1"}});
  CheckEven(api, "count", count);
  const uint64_t bytes = uint64_t{static_cast<uint32_t>(count)} * sizeof(T);
  CheckDisjoint(api, {{dst0.View(), bytes, "dst0"},
                      {dst1.View(), bytes, "dst1"},
                      {src0.View(), bytes, "src0"},
                      {src1.View(), bytes, "src1"}});
  san::Instr in(Pipe::kV, api, loc);
  if (in) {
    in.Read(src0.HostPtr(), bytes);
    in.Read(src1.HostPtr(), bytes);
    in.Write(dst0.HostPtr(), bytes);
    in.Write(dst1.HostPtr(), bytes);
  }
  return bytes / sizeof(T);
}

// The 16 x 16 transpose of 2-byte elements, through a copy (dst may be src).
template <typename T>
void Transpose16(SrcLoc loc, const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<T>& src) {
  static_assert(sizeof(T) == 2, "Transpose: T must be int16_t, uint16_t or half");
  CheckVectorOperands("Transpose", 256, {{dst.View(), 2, "dst"}, {src.View(), 2, "src"}});
  san::Instr in(Pipe::kV, "Transpose", loc);
  if (in) {
    in.Read(src.HostPtr(), 512);
    in.Write(dst.HostPtr(), 512);
  }
  T tmp[256];
  std::memcpy(tmp, src.HostPtr(), sizeof(tmp));
  T* d = dst.HostPtr();
  for (uint32_t r = 0; r < 16; ++r) {
    for (uint32_t c = 0; c < 16; ++c) d[c * 16 + r] = tmp[r * 16 + c];
  }
}

// Checked mode raises checks::kTransposeParams; unchecked the call is a no-op (returns true).
inline bool TransposeParamsError(const std::string& message) {
  if (CheckedMode()) RaiseKernelCheck(checks::kTransposeParams, "Transpose: " + message);
  return true;
}

}  // namespace lngrad::aicore::detail::arrange

namespace AscendC {

inline constexpr uint32_t NCHW_CONV_ADDR_LIST_SIZE = 16;

struct TransDataTo5HDParams {
  TransDataTo5HDParams() {}
  TransDataTo5HDParams(const bool dstHighHalfIn, const bool srcHighHalfIn,
                       const uint8_t repeatTimesIn, const uint16_t dstRepStrideIn,
                       const uint16_t srcRepStrideIn)
      : dstHighHalf(dstHighHalfIn),
        srcHighHalf(srcHighHalfIn),
        repeatTimes(repeatTimesIn),
        dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn) {}
  bool dstHighHalf = false;
  bool srcHighHalf = false;
  uint8_t repeatTimes = 1;
  uint16_t dstRepStride = 0;
  uint16_t srcRepStride = 0;
};

}  // namespace AscendC

namespace lngrad::aicore::detail::arrange {

// The host address of the 32-byte block at UB byte `addr` + `offset` (both modes: inside the
// UB; checked mode: 32-byte aligned).
inline std::byte* UbBlock(const char* api, const char* what, uint32_t k, uint64_t addr,
                          uint64_t offset) {
  BlockContext& ctx = RequireBlockContext(api);
  const uint64_t at = addr + offset;
  const std::string name = std::string(what) + "[" + std::to_string(k) + "]";
  if (CheckedMode() && addr % 32 != 0) {
    RaiseKernelCheck(checks::kUbAlignment, std::string(api) + ": " + name + " is UB byte " +
                                               std::to_string(addr) +
                                               ", which must be 32-byte aligned");
  }
  if (at + 32 > ctx.ub_size) {
    RaiseKernelCheck(checks::kUbBounds, std::string(api) + ": " + name + " reaches UB byte " +
                                            std::to_string(at + 32) + ", past the UB's " +
                                            std::to_string(ctx.ub_size));
  }
  NoteUbWritten(ctx, uint64_t{at} + 32);
  return ctx.ub + at;
}

template <typename T>
void TransDataTo5HDRun(const uint64_t* dst_addr, const uint64_t* src_addr,
                       const AscendC::TransDataTo5HDParams& p, SrcLoc loc) {
  static_assert(sizeof(T) == 2,
                "TransDataTo5HD: lngrad provides the 16-bit layout only (int16_t, uint16_t, half)");
  constexpr const char* api = "TransDataTo5HD";
  for (uint32_t r = 0; r < p.repeatTimes; ++r) {
    std::byte* d[16];
    const std::byte* s[16];
    for (uint32_t k = 0; k < 16; ++k) {
      s[k] = UbBlock(api, "srcList", k, src_addr[k], uint64_t{r} * p.srcRepStride * 32);
      d[k] = UbBlock(api, "dstList", k, dst_addr[k], uint64_t{r} * p.dstRepStride * 32);
    }
    if (CheckedMode()) {
      for (uint32_t j = 0; j < 16; ++j) {
        for (uint32_t k = 0; k < 16; ++k) {
          if (d[j] < s[k] + 32 && s[k] < d[j] + 32) {
            RaiseKernelCheck(checks::kAddressOverlap,
                             std::string(api) + ": repeat " + std::to_string(r) + ": dstList[" +
                                 std::to_string(j) + "] overlaps srcList[" + std::to_string(k) +
                                 "]");
          }
        }
      }
    }
    san::Instr in(Pipe::kV, api, loc);
    if (in) {
      for (uint32_t k = 0; k < 16; ++k) in.Read(s[k], 32);
      for (uint32_t j = 0; j < 16; ++j) in.Write(d[j], 32);
    }
    T tmp[16][16];
    for (uint32_t k = 0; k < 16; ++k) std::memcpy(tmp[k], s[k], 32);
    for (uint32_t j = 0; j < 16; ++j) {
      for (uint32_t k = 0; k < 16; ++k) std::memcpy(d[j] + k * sizeof(T), &tmp[k][j], sizeof(T));
    }
  }
}

}  // namespace lngrad::aicore::detail::arrange

#define LNGRAD_SRCLOC_ARG lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()

namespace AscendC {

template <typename T>
void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE],
                    uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                    const TransDataTo5HDParams& nchwconvParams, LNGRAD_SRCLOC_ARG) {
  lngrad::aicore::detail::arrange::TransDataTo5HDRun<T>(dstList, srcList, nchwconvParams, loc);
}

template <typename T>
void TransDataTo5HD(const LocalTensor<uint64_t>& dst, const LocalTensor<uint64_t>& src,
                    const TransDataTo5HDParams& nchwconvParams, LNGRAD_SRCLOC_ARG) {
  lngrad::aicore::detail::CheckVectorOperands("TransDataTo5HD", 16,
                                              {{dst.View(), 8, "dst"}, {src.View(), 8, "src"}});
  lngrad::aicore::san::Instr in(lngrad::aicore::Pipe::kV, "TransDataTo5HD", loc);
  if (in) {
    in.Read(dst.HostPtr(), 128);
    in.Read(src.HostPtr(), 128);
  }
  lngrad::aicore::detail::arrange::TransDataTo5HDRun<T>(dst.HostPtr(), src.HostPtr(),
                                                        nchwconvParams, loc);
}

template <typename T>
void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const TransDataTo5HDParams& nchwconvParams, LNGRAD_SRCLOC_ARG) {
  uint64_t d[16], s[16];
  for (uint32_t k = 0; k < 16; ++k) {
    d[k] = dstList[k].GetPhyAddr();
    s[k] = srcList[k].GetPhyAddr();
  }
  lngrad::aicore::detail::arrange::TransDataTo5HDRun<T>(d, s, nchwconvParams, loc);
}

}  // namespace AscendC

namespace AscendC {

template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, LNGRAD_SRCLOC_ARG) {
  lngrad::aicore::detail::arrange::Transpose16(loc, dst, src);
}

template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const TransposeParamsExt& p,
               LNGRAD_SRCLOC_ARG) {
  namespace a = lngrad::aicore::detail::arrange;
  namespace d = lngrad::aicore::detail;
  if (p.transposeType == TransposeType::TRANSPOSE_TYPE_NONE) return;
  if (p.transposeType == TransposeType::TRANSPOSE_ND2ND_B16) {
    if constexpr (sizeof(T) == 2) {
      a::Transpose16(loc, dst, src);
    } else {
      a::TransposeParamsError("TRANSPOSE_ND2ND_B16 takes a 2-byte type");
    }
    return;
  }
  const bool to_nhwc = p.transposeType == TransposeType::TRANSPOSE_NCHW2NHWC;
  if (!to_nhwc && p.transposeType != TransposeType::TRANSPOSE_NHWC2NCHW) {
    a::TransposeParamsError("transposeType " + std::to_string(static_cast<int>(p.transposeType)) +
                            " is not supported (TRANSPOSE_ND2ND_B16, TRANSPOSE_NCHW2NHWC and "
                            "TRANSPOSE_NHWC2NCHW are)");
    return;
  }
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                "Transpose: T must be a 1-, 2- or 4-byte type");
  const uint64_t n = p.nSize, c = p.cSize, hw = uint64_t{p.hSize} * p.wSize;
  if (lngrad::aicore::CheckedMode()) {
    if (c > 4095) a::TransposeParamsError("cSize is " + std::to_string(c) + ", above 4095");
    if (hw > 4095) {
      a::TransposeParamsError("hSize * wSize is " + std::to_string(hw) + ", above 4095");
    }
    if (hw * sizeof(T) % 32 != 0) {
      a::TransposeParamsError("hSize * wSize * sizeof(T) is " + std::to_string(hw * sizeof(T)) +
                              " bytes, which must be a multiple of 32");
    }
  }
  const uint64_t total = n * c * hw;
  if (total == 0) return;
  const uint64_t h0 = sizeof(T) == 1 ? 32 : 16, w0 = 32 / sizeof(T);
  const uint64_t need = (to_nhwc ? c + 2 : 2 * c + 1) * h0 * w0 * sizeof(T);
  if (sharedTmpBuffer.GetSize() < need && lngrad::aicore::CheckedMode()) {
    lngrad::aicore::RaiseKernelCheck(d::rep::op_checks::kTmpBuffer,
                                     "Transpose: sharedTmpBuffer holds " +
                                         std::to_string(sharedTmpBuffer.GetSize()) +
                                         " B, the transpose needs " + std::to_string(need) + " B");
  }
  const int32_t cnt = total > INT32_MAX ? -1 : static_cast<int32_t>(total);
  d::CheckVectorOperands("Transpose", cnt,
                         {{dst.View(), sizeof(T), "dst"}, {src.View(), sizeof(T), "src"}});
  a::CheckDisjoint("Transpose", {{dst.View(), total * sizeof(T), "dst"},
                                 {src.View(), total * sizeof(T), "src"}});
  lngrad::aicore::san::Instr in(lngrad::aicore::Pipe::kV, "Transpose", loc);
  if (in) {
    in.Read(src.HostPtr(), total * sizeof(T));
    const uint64_t tmp = std::min<uint64_t>(need, sharedTmpBuffer.GetSize());
    in.Write(sharedTmpBuffer.HostPtr(), tmp);
    in.Write(dst.HostPtr(), total * sizeof(T));
  }
  const T* s = src.HostPtr();
  T* o = dst.HostPtr();
  for (uint64_t b = 0; b < n; ++b) {
    for (uint64_t ci = 0; ci < c; ++ci) {
      for (uint64_t k = 0; k < hw; ++k) {
        const uint64_t nchw = (b * c + ci) * hw + k, nhwc = (b * hw + k) * c + ci;
        if (to_nhwc) {
          o[nhwc] = s[nchw];
        } else {
          o[nchw] = s[nhwc];
        }
      }
    }
  }
}

template <typename T>
void Interleave(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1, const LocalTensor<T>& src0,
                const LocalTensor<T>& src1, const int32_t count, LNGRAD_SRCLOC_ARG) {
  const uint64_t n =
      lngrad::aicore::detail::arrange::PairForm("Interleave", loc, dst0, dst1, src0, src1, count);
  const uint64_t bytes = n * sizeof(T);
  std::vector<T> z(2 * n);
  for (uint64_t i = 0; i < n; ++i) {
    z[2 * i] = src0.HostPtr()[i];
    z[2 * i + 1] = src1.HostPtr()[i];
  }
  std::memcpy(dst0.HostPtr(), z.data(), bytes);
  std::memcpy(dst1.HostPtr(), z.data() + n, bytes);
}

template <typename T>
void DeInterleave(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1,
                  const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t count,
                  LNGRAD_SRCLOC_ARG) {
  const uint64_t n =
      lngrad::aicore::detail::arrange::PairForm("DeInterleave", loc, dst0, dst1, src0, src1, count);
  const uint64_t bytes = n * sizeof(T);
  std::vector<T> z(2 * n);
  std::memcpy(z.data(), src0.HostPtr(), bytes);
  std::memcpy(z.data() + n, src1.HostPtr(), bytes);
  for (uint64_t i = 0; i < n; ++i) {
    dst0.HostPtr()[i] = z[2 * i];
    dst1.HostPtr()[i] = z[2 * i + 1];
  }
}

template <typename T>
void DeInterleave(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1, const LocalTensor<T>& src,
                  const int32_t srcCount, LNGRAD_SRCLOC_ARG) {
  namespace a = lngrad::aicore::detail::arrange;
  namespace d = lngrad::aicore::detail;
  d::CheckVectorOperands("DeInterleave", srcCount, {{src.View(), sizeof(T), "src"}});
  a::CheckEven("DeInterleave", "srcCount", srcCount);
  const uint64_t n = static_cast<uint32_t>(srcCount) / 2, bytes = n * sizeof(T);
  const int32_t half_count = static_cast<int32_t>(n);
  d::CheckVectorOperands("DeInterleave", half_count, {{dst0.View(), sizeof(T), "dst0"}});
  d::CheckVectorOperands("DeInterleave", half_count, {{dst1.View(), sizeof(T), "dst1"}});
  a::CheckDisjoint(
      "DeInterleave",
      {{dst0.View(), bytes, "dst0"}, {dst1.View(), bytes, "dst1"}, {src.View(), 2 * bytes, "src"}});
  lngrad::aicore::san::Instr in(lngrad::aicore::Pipe::kV, "DeInterleave", loc);
  if (in) {
    in.Read(src.HostPtr(), 2 * bytes);
    in.Write(dst0.HostPtr(), bytes);
    in.Write(dst1.HostPtr(), bytes);
  }
  for (uint64_t i = 0; i < n; ++i) {
    dst0.HostPtr()[i] = src.HostPtr()[2 * i];
    dst1.HostPtr()[i] = src.HostPtr()[2 * i + 1];
  }
}

}  // namespace AscendC

#undef LNGRAD_SRCLOC_ARG
