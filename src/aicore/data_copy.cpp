// DataCopy's memory hints for large GM regions (bench_ascendc, LayerNormGrad operator, 1 block):
// - UB -> GM: non-temporal stores. A kernel writes such an output once, tile by tile, and
//   nothing reads it back before the launch ends, so streaming past the caches saves the
//   read-for-ownership of every line: about 15 % of the time at 4096 x 768 and 16384 x 4096.
//   Fenced once per block (FenceStreamedStores), not per copy, so that the write-combining
//   buffers drain while the kernel goes on.
// - GM -> UB: read-ahead of the next two tiles. Kernels walk their GM rows in order, and
//   between two copies the tile's compute makes the hardware prefetcher lose the stream: about
//   8 % at 4096 x 768 (inputs partly in L3) with one tile; two tiles gained another 5-15 % at
//   8192 x 1024 and 16384 x 4096 (each line is prefetched twice: bursts are partly dropped),
//   and issuing those prefetches during the copy, 8 lines per 256 bytes copied, instead of in
//   one burst after it another 15-18 % at 16384 x 4096 (neutral at the smaller shapes).
// Both only change timing, never a byte.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "lngrad_aicore/atomic.h"
#include "lngrad_aicore/data_copy.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#endif

namespace lngrad::aicore::detail {

void StreamToGm(std::byte* dst, const std::byte* src, uint64_t bytes) {
#if defined(__SSE2__)
  // Peel to a 16-byte aligned destination; GM offsets of DataCopy are normally 32-byte aligned.
  const uint64_t mis = reinterpret_cast<uintptr_t>(dst) % 16;
  uint64_t head = mis == 0 ? 0 : 16 - mis;
  if (head > bytes) head = bytes;
  std::memcpy(dst, src, head);
  dst += head;
  src += head;
  bytes -= head;
  const uint64_t vec = bytes / 64 * 64;
  for (uint64_t i = 0; i < vec; i += 64) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 32));
    const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 48));
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i), a);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 48), d);
  }
  std::memcpy(dst + vec, src + vec, bytes - vec);
  // No sfence here (one after every copy cost 9-15 % at 1 block, bench/README): the block's
  // own later reads see these stores anyway, and the block's end fences them (data_copy.h).
#else
  std::memcpy(dst, src, bytes);
#endif
}

void FenceStreamedStores() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

void CopyFromGm(std::byte* dst, const std::byte* src, uint64_t bytes, const GmRegionSpan& region) {
#if defined(__SSE2__)
  if (region.bytes > kReadAheadRegionBytes && bytes != 0) {
    constexpr uint64_t kLine = 64;
    constexpr uint64_t kPiece = 256;
    constexpr int kLinesPerPiece = 2 * kPiece / kLine;  // the read-ahead is twice the copy
    const std::byte* next = src + bytes;
    const std::byte* end = region.begin + region.bytes;
    const uint64_t ahead =
        next < end ? std::min<uint64_t>(2 * bytes, static_cast<uint64_t>(end - next)) : 0;
    uint64_t line = 0;
    uint64_t i = 0;
    for (; i + kPiece <= bytes; i += kPiece) {
      for (int k = 0; k < kLinesPerPiece && line < ahead; ++k, line += kLine) {
        _mm_prefetch(reinterpret_cast<const char*>(next + line), _MM_HINT_T1);
      }
      std::memcpy(dst + i, src + i, kPiece);
    }
    std::memcpy(dst + i, src + i, bytes - i);
    for (; line < ahead; line += kLine) {
      _mm_prefetch(reinterpret_cast<const char*>(next + line), _MM_HINT_T1);
    }
    return;
  }
#else
  (void)region;
#endif
  if (bytes != 0) std::memcpy(dst, src, bytes);
}

}  // namespace lngrad::aicore::detail

// DataCopyPad (data_copy_pad.h).
namespace lngrad::aicore::detail {
namespace {

constexpr uint64_t kMaxPadBlockCount = 4095;
constexpr uint64_t kMaxPadBlockLen = 2097151;  // 2^21 - 1
constexpr uint32_t kMaxPaddingBytes = 32;
constexpr int64_t kMax950UbStride = 65535;
constexpr int64_t kMax950GmStride = (int64_t{1} << 40) - 1;
constexpr int64_t kMaxStride = (int64_t{1} << 32) - 1;
// What the simulator writes where the device leaves undefined values: all ones is NaN in half
// and float, so a kernel that reads such padding shows it.
constexpr uint8_t kUndefinedPadByte = 0xFF;

uint64_t AlignUp32(uint64_t v) { return (v + 31) / 32 * 32; }

std::string ProductText(const Product& p) {
  return std::string(p.soc) + " (" + std::string(p.product_line) + ", __NPU_ARCH__ " +
         NpuArchName(p.arch) + ")";
}

const Product& RequirePadProduct(const char* api, bool compact) {
  const Product& p = *RequireBlockContext(api).product;
  if (p.arch == NpuArch::k1001 || p.arch == NpuArch::k2002) {
    RaiseKernelCheck("DataCopyPad.unsupported_product",
                     std::string(api) + " is not supported on " + ProductText(p) +
                         ": the vendor's DataCopyPad exists on Atlas A2/A3, Atlas 200I/500 A2 and "
                         "Ascend 950PR/950DT only (pad rows to 32 bytes on the host, or select "
                         "e.g. Ascend910B1)");
  }
  if (compact && p.arch != NpuArch::k3510) {
    RaiseKernelCheck("DataCopyPad.unsupported_product",
                     std::string(api) + ": PaddingMode::Compact is not supported on " +
                         ProductText(p) +
                         ": the prototype with the mode template argument exists on Ascend "
                         "950PR/950DT (__NPU_ARCH__ 3510) only");
  }
  return p;
}

[[noreturn]] void RaisePadParam(const char* api, const std::string& what) {
  RaiseKernelCheck(checks::kDataCopyPadParams, std::string(api) + ": " + what);
}

void CheckStrideRange(const char* api, const char* name, int64_t v, int64_t lo, int64_t hi,
                      const Product& p) {
  if (v < lo || v > hi) {
    RaisePadParam(api, std::string(name) + " is " + std::to_string(v) + ", which must be in [" +
                           std::to_string(lo) + ", " + std::to_string(hi) + "] on " +
                           ProductText(p));
  }
}

// The rules both directions share (checked mode).
void CheckPadCommon(const PadCopyArgs& a, const Product& p) {
  if (a.block_count > kMaxPadBlockCount) {
    RaisePadParam(a.api, "blockCount is " + std::to_string(a.block_count) +
                             ", which must be in [0, " + std::to_string(kMaxPadBlockCount) + "]");
  }
  if (a.block_len > kMaxPadBlockLen) {
    RaisePadParam(a.api, "blockLen is " + std::to_string(a.block_len) +
                             " B, which must be in [0, " + std::to_string(kMaxPadBlockLen) + "]");
  }
  if (a.block_len % a.elem_size != 0) {
    RaisePadParam(a.api, "blockLen is " + std::to_string(a.block_len) +
                             " B, which must be a multiple of sizeof(T) = " +
                             std::to_string(a.elem_size) + " B (blockLen is in bytes)");
  }
  if (a.elem_size == 8 && p.arch == NpuArch::k3002) {
    RaisePadParam(a.api, "64-bit element types are not supported on " + ProductText(p));
  }
}

// A stride that moves a row before the previous row's start would leave the operand: an error
// in both modes.
void RequireForwardPitch(const char* api, const char* name, int64_t stride, int64_t min) {
  if (stride < min) {
    RaisePadParam(api, std::string(name) + " is " + std::to_string(stride) +
                           ", which moves a row before the previous row's start (minimum " +
                           std::to_string(min) + ")");
  }
}

// The rows and the GM side of either direction (gm_stride: the GM side's stride), and the
// packed UB side of Compact mode; count 0 for a no-op.
PadCopyPlan RowsPlan(const PadCopyArgs& a, int64_t gm_stride) {
  PadCopyPlan plan;
  if (a.block_count == 0 || a.block_len == 0) return plan;
  plan.count = a.block_count;
  plan.len = a.block_len;
  plan.compact = a.compact;
  plan.gm_pitch = static_cast<uint64_t>(static_cast<int64_t>(a.block_len) + gm_stride);
  plan.gm_extent = (plan.count - 1) * plan.gm_pitch + plan.len;
  plan.ub_pitch = plan.len;
  plan.ub_extent = AlignUp32(plan.count * plan.len);
  return plan;
}

void FillUnits(std::byte* p, uint64_t bytes, const uint8_t* unit_bytes, uint32_t unit) {
  if (bytes == 0) return;
  if (unit == 1) {
    std::memset(p, unit_bytes[0], bytes);
    return;
  }
  for (uint64_t i = 0; i < bytes; ++i) p[i] = std::byte{unit_bytes[i % unit]};
}

}  // namespace

PadCopyPlan PlanPadGmToUb(const PadCopyArgs& a) {
  const Product& p = RequirePadProduct(a.api, a.compact);
  const bool is950 = p.arch == NpuArch::k3510;
  BlockContext& ctx = RequireBlockContext(a.api);
  RequireForwardPitch(a.api, "srcStride", a.src_stride, -static_cast<int64_t>(a.block_len));
  RequireForwardPitch(a.api, "dstStride", a.dst_stride, 0);
  if (CheckedMode()) {
    CheckPadCommon(a, p);
    if (!a.legacy) {
      CheckStrideRange(a.api, "srcStride (GM bytes)", a.src_stride,
                       is950 ? -static_cast<int64_t>(a.block_len) : 0,
                       is950 ? kMax950GmStride : kMaxStride, p);
      CheckStrideRange(a.api, "dstStride (UB 32-byte blocks)", a.dst_stride, 0,
                       is950 ? kMax950UbStride : kMaxStride, p);
    }
    if (!a.compact) {
      const char* names[2] = {"leftPadding", "rightPadding"};
      const uint32_t elems[2] = {a.left_elems, a.right_elems};
      for (int i = 0; i < 2; ++i) {
        if (uint64_t{elems[i]} * a.elem_size > kMaxPaddingBytes) {
          RaisePadParam(a.api, std::string(names[i]) + " is " + std::to_string(elems[i]) +
                                   " elements = " + std::to_string(elems[i] * a.elem_size) +
                                   " B, which must be at most 32 B");
        }
      }
    }
    if (a.elem_size == 8 && a.is_pad && a.pad_bits != 0) {
      RaisePadParam(a.api, "paddingValue must be 0 for 64-bit element types");
    }
  }
  // isPad loads the register before the copy, even a copy that does nothing.
  if (a.is_pad) {
    ctx.pad_value_set = true;
    ctx.pad_value = a.pad_bits;
  }
  PadCopyPlan plan = RowsPlan(a, a.src_stride);
  if (plan.count == 0) return plan;
  if (a.compact) {
    plan.dummy = plan.ub_extent - plan.count * plan.len;
  } else {
    plan.left = a.left_elems * a.elem_size;
    plan.right = a.right_elems * a.elem_size;
    const uint64_t row = plan.left + plan.len + plan.right;
    plan.dummy = AlignUp32(row) - row;
    plan.ub_pitch = AlignUp32(row) + static_cast<uint64_t>(a.dst_stride) * 32;
    plan.ub_extent = (plan.count - 1) * plan.ub_pitch + AlignUp32(row);
  }
  // 64-bit elements move as pairs of 32-bit ones (the device pads them with the b32 instruction).
  plan.unit = a.elem_size < 4 ? a.elem_size : 4;
  plan.pad_defined = ctx.pad_value_set;
  if (plan.pad_defined) {
    std::memcpy(plan.pad, &ctx.pad_value, sizeof(plan.pad));
  } else {
    std::memset(plan.pad, kUndefinedPadByte, sizeof(plan.pad));
  }
  plan.dummy_is_first_element = plan.left == 0 && plan.right == 0 && !(a.is_pad && is950);
  return plan;
}

PadCopyPlan PlanPadUbToGm(const PadCopyArgs& a) {
  const Product& p = RequirePadProduct(a.api, a.compact);
  const bool is950 = p.arch == NpuArch::k3510;
  RequireForwardPitch(a.api, "srcStride", a.src_stride, 0);
  RequireForwardPitch(a.api, "dstStride", a.dst_stride, -static_cast<int64_t>(a.block_len));
  if (CheckedMode()) {
    CheckPadCommon(a, p);
    if (!a.legacy) {
      CheckStrideRange(a.api, "srcStride (UB 32-byte blocks)", a.src_stride, 0,
                       is950 ? kMax950UbStride : kMaxStride, p);
      CheckStrideRange(a.api, "dstStride (GM bytes)", a.dst_stride, 0,
                       is950 ? kMax950GmStride : kMaxStride, p);
    }
  }
  PadCopyPlan plan = RowsPlan(a, a.dst_stride);
  if (plan.count == 0) return plan;
  if (!a.compact) {
    plan.ub_pitch = AlignUp32(plan.len) + static_cast<uint64_t>(a.src_stride) * 32;
    plan.ub_extent = (plan.count - 1) * plan.ub_pitch + AlignUp32(plan.len);
  }
  return plan;
}

namespace {

void PadGmToUbOnce(std::byte* ub, const std::byte* gm, const PadCopyPlan& p,
                   const GmRegionSpan& region, const char* api, SrcLoc loc) {
  // Bytes filled from the pad register count as written when the register is defined; the
  // first-element dummy bytes do not (the vendor calls them dummy data).
  const bool dummy_defined = p.pad_defined && !p.dummy_is_first_element;
  san::Instr in(Pipe::kMte2, api, loc);
  if (in) {
    in.ReadBlocks(gm, p.count, p.len, p.gm_pitch);
    if (p.compact) {
      in.Write(ub, p.count * p.len);
      if (p.dummy != 0) in.Write(ub + p.count * p.len, p.dummy, dummy_defined);
    } else {
      if (p.left != 0) in.WriteBlocks(ub, p.count, p.left, p.ub_pitch, p.pad_defined);
      in.WriteBlocks(ub + p.left, p.count, p.len, p.ub_pitch);
      if (p.right != 0) {
        in.WriteBlocks(ub + p.left + p.len, p.count, p.right, p.ub_pitch, p.pad_defined);
      }
      if (p.dummy != 0) {
        in.WriteBlocks(ub + p.left + p.len + p.right, p.count, p.dummy, p.ub_pitch, dummy_defined);
      }
    }
  }
  if (p.compact) {
    for (uint64_t i = 0; i < p.count; ++i) {
      CopyFromGm(ub + i * p.len, gm + i * p.gm_pitch, p.len, region);
    }
    const std::byte* dummy_unit =
        p.dummy_is_first_element ? ub : reinterpret_cast<const std::byte*>(p.pad);
    uint8_t unit[8];
    std::memcpy(unit, dummy_unit, p.unit);
    FillUnits(ub + p.count * p.len, p.dummy, unit, p.unit);
    return;
  }
  for (uint64_t i = 0; i < p.count; ++i) {
    std::byte* row = ub + i * p.ub_pitch;
    FillUnits(row, p.left, p.pad, p.unit);
    CopyFromGm(row + p.left, gm + i * p.gm_pitch, p.len, region);
    FillUnits(row + p.left + p.len, p.right, p.pad, p.unit);
    if (p.dummy != 0) {
      uint8_t unit[8];
      std::memcpy(unit,
                  p.dummy_is_first_element ? static_cast<const void*>(row + p.left)
                                           : static_cast<const void*>(p.pad),
                  p.unit);
      FillUnits(row + p.left + p.len + p.right, p.dummy, unit, p.unit);
    }
  }
}

void PadUbToGmOnce(std::byte* gm, const std::byte* ub, const PadCopyPlan& p,
                   const GmRegionSpan& region, const char* api, SrcLoc loc) {
  san::Instr in(Pipe::kMte3, api, loc);
  if (in) {
    in.ReadBlocks(ub, p.count, p.len, p.ub_pitch);
    in.WriteBlocks(gm, p.count, p.len, p.gm_pitch);
  }
  if (AtomicCopyToGm(gm, ub, p.count, p.len, p.gm_pitch, p.ub_pitch)) return;  // atomic.h
  // Rows that overlap in GM (a 950 dstStride below 0) are written in order with plain stores.
  const bool stream =
      p.len >= kStreamMinCopy && region.bytes >= kStreamRegionBytes && p.gm_pitch >= p.len;
  for (uint64_t i = 0; i < p.count; ++i) {
    if (stream) {
      StreamToGm(gm + i * p.gm_pitch, ub + i * p.ub_pitch, p.len);
    } else {
      std::memcpy(gm + i * p.gm_pitch, ub + i * p.ub_pitch, p.len);
    }
  }
}

template <typename Once, typename Dst, typename Src>
void ForEachLoop(const PadLoops& l, Dst* dst, Src* src, Once once) {
  for (uint64_t i2 = 0; i2 < l.n2; ++i2) {
    for (uint64_t i1 = 0; i1 < l.n1; ++i1) {
      once(dst + i1 * l.dst1 + i2 * l.dst2, src + i1 * l.src1 + i2 * l.src2);
    }
  }
}

}  // namespace

void RunPadGmToUb(std::byte* ub, const std::byte* gm, const PadCopyPlan& p, const PadLoops& l,
                  const GmRegionSpan& region, const char* api, SrcLoc loc) {
  ForEachLoop(l, ub, gm,
              [&](std::byte* d, const std::byte* s) { PadGmToUbOnce(d, s, p, region, api, loc); });
}

void RunPadUbToGm(std::byte* gm, const std::byte* ub, const PadCopyPlan& p, const PadLoops& l,
                  const GmRegionSpan& region, const char* api, SrcLoc loc) {
  ForEachLoop(l, gm, ub,
              [&](std::byte* d, const std::byte* s) { PadUbToGmOnce(d, s, p, region, api, loc); });
}

PadLoops ActiveLoops(bool gm_to_ub) {
  PadLoops l;
  const BlockContext* ctx = CurrentBlockContext();
  if (ctx == nullptr) return l;
  const uint64_t* m = ctx->loop_mode[gm_to_ub ? 1 : 0];
  // A size of 0 (the reset state) runs the copy once.
  l.n1 = m[0] == 0 ? 1 : m[0];
  l.n2 = m[1] == 0 ? 1 : m[1];
  l.src1 = m[2];
  l.dst1 = m[3];
  l.src2 = m[4];
  l.dst2 = m[5];
  return l;
}

void SetLoopMode(const AscendC::LoopModeParams& p, AscendC::DataCopyMVType type, bool reset) {
  const char* api = reset ? "ResetLoopModePara" : "SetLoopModePara";
  BlockContext& ctx = RequireBlockContext(api);
  if (ctx.product->arch != NpuArch::k3510) {
    RaiseKernelCheck(std::string(api) + ".unsupported_product",
                     std::string(api) + " is not supported on " + ProductText(*ctx.product) +
                         ": the loop mode exists on Ascend 950PR/950DT (__NPU_ARCH__ 3510) only");
  }
  const bool to_ub = type == AscendC::DataCopyMVType::OUT_TO_UB;
  if (CheckedMode() && !reset) {
    constexpr uint64_t kUbLimit = uint64_t{1} << 21;
    constexpr uint64_t kGmLimit = uint64_t{1} << 40;
    struct Field {
      const char* name;
      uint64_t v;
      bool ub;  // a UB-side stride: a 32-byte multiple below 2^21
      bool size;
    };
    const Field fields[] = {{"loop1Size", p.loop1Size, false, true},
                            {"loop2Size", p.loop2Size, false, true},
                            {"loop1SrcStride", p.loop1SrcStride, !to_ub, false},
                            {"loop1DstStride", p.loop1DstStride, to_ub, false},
                            {"loop2SrcStride", p.loop2SrcStride, !to_ub, false},
                            {"loop2DstStride", p.loop2DstStride, to_ub, false}};
    for (const Field& f : fields) {
      const uint64_t limit = f.size || f.ub ? kUbLimit : kGmLimit;
      if (f.v >= limit || (f.ub && f.v % 32 != 0)) {
        RaisePadParam(api, std::string(f.name) + " is " + std::to_string(f.v) +
                               ", which must be below 2^" + (limit == kUbLimit ? "21" : "40") +
                               (f.ub ? " and a multiple of 32 (UB side)" : "") + " for " +
                               (to_ub ? "OUT_TO_UB" : "UB_TO_OUT"));
      }
    }
  }
  uint64_t* m = ctx.loop_mode[to_ub ? 1 : 0];
  m[0] = p.loop1Size;
  m[1] = p.loop2Size;
  m[2] = p.loop1SrcStride;
  m[3] = p.loop1DstStride;
  m[4] = p.loop2SrcStride;
  m[5] = p.loop2DstStride;
}

void SetPadRegister(uint64_t bits, AscendC::TPosition pos) {
  constexpr const char* kApi = "SetPadValue";
  BlockContext& ctx = RequireBlockContext(kApi);
  const Product& p = *ctx.product;
  if (p.arch != NpuArch::k2201 && p.arch != NpuArch::k3510) {
    RaiseKernelCheck("SetPadValue.unsupported_product",
                     std::string(kApi) + " is not supported on " + ProductText(p) +
                         ": the vendor's SetPadValue exists on Atlas A2/A3 and Ascend "
                         "950PR/950DT only (use DataCopyPadExtParams::isPad and paddingValue)");
  }
  if (CheckedMode() && pos != AscendC::TPosition::VECIN && pos != AscendC::TPosition::VECOUT &&
      pos != AscendC::TPosition::MAX) {
    RaisePadParam(kApi, std::string("pos is ") + AscendC::PositionName(pos) +
                            ", which must be VECIN, VECOUT or MAX");
  }
  ctx.pad_value_set = true;
  ctx.pad_value = bits;
}

}  // namespace lngrad::aicore::detail
