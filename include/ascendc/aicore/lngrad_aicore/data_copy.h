// lngrad Ascend C runtime: DataCopy between GM and UB (and UB to UB).
//
// Device rule (spec §6.3): the UB address is 32-byte aligned, the GM address aligned to
// sizeof(T), and count * sizeof(T) a multiple of 32 bytes; otherwise the device copies only
// floor(bytes / 32) * 32 bytes and silently drops the tail. Checked mode raises
// kDataCopyLength / kUbAlignment / kGmAlignment instead; unchecked mode rounds down exactly like
// the device. Rows that are not 32-byte multiples: DataCopyPad (data_copy_pad.h).
//
// Sanitizer pipes (lngrad_aicore/sanitizer.h): GM -> UB on MTE2, UB -> GM on MTE3, UB -> UB on
// V (the vendor's copy_ubuf_to_ubuf, asc_copy_ub2ub: PIPE_V).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "atomic.h"
#include "check.h"
#include "sanitizer.h"
#include "tensor.h"

namespace AscendC {

// Strided form: blockCount blocks of blockLen data blocks (32 B) each; the strides are the gaps
// between consecutive blocks, in data blocks, on the source and destination side.
struct DataCopyParams {
  DataCopyParams() = default;
  DataCopyParams(uint16_t count, uint16_t len, uint16_t srcStrideIn, uint16_t dstStrideIn)
      : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
  uint16_t blockCount = 1;
  uint16_t blockLen = 0;
  // srcGap/dstGap: the newer names of the same fields (the vendor's unions).
  union {
    uint16_t srcStride = 0;
    uint16_t srcGap;
  };
  union {
    uint16_t dstStride = 0;
    uint16_t dstGap;
  };
};

}  // namespace AscendC

namespace lngrad::aicore::detail {

// Bytes the device moves for count elements: count*elem_size, or (unchecked mode) that rounded
// down to 32 B. Checked mode raises kDataCopyLength when rounding would drop data.
uint64_t DataCopyBytes(const char* api, uint64_t count, uint32_t elem_size);
// Checked mode: kUbAlignment unless the tensor starts on a 32-byte UB boundary.
void CheckUbAligned(const TensorView& v, const char* api, const char* operand);
// Checked mode: kGmAlignment unless p is aligned to elem_size.
void CheckGmAligned(const void* p, uint32_t elem_size, const char* api);
// Checked mode: kAddressOverlap if the two UB byte ranges overlap without being identical.
void CheckNoPartialOverlap(const TensorView& dst, uint64_t dst_bytes, const TensorView& src,
                           uint64_t src_bytes, const char* api);
// Extent in bytes of a strided copy side: (blockCount-1)*(blockLen+stride)*32 + blockLen*32.
inline uint64_t StridedExtent(const AscendC::DataCopyParams& p, uint16_t stride) {
  if (p.blockCount == 0 || p.blockLen == 0) return 0;
  return (uint64_t{p.blockCount} - 1) * (uint64_t{p.blockLen} + stride) * 32 +
         uint64_t{p.blockLen} * 32;
}
// memcpy with non-temporal stores (x86 SSE2; plain memcpy elsewhere). Not fenced: the
// calling thread reads its own stores back in program order, and other threads see them after
// FenceStreamedStores, which every block runs when it ends and every launch when it starts.
void StreamToGm(std::byte* dst, const std::byte* src, uint64_t bytes);
// Orders the calling thread's earlier non-temporal stores before its later stores (x86 sfence),
// so that a thread which synchronizes with it afterwards sees them.
void FenceStreamedStores();
// UB -> GM copies of at least kStreamMinCopy bytes into GM regions (GmAlloc, pooled or
// registered: the region, not the copy) of at least kStreamRegionBytes stream past the caches
// (the native kernels' threshold for dx, src/core). GM -> UB copies from regions larger than
// kReadAheadRegionBytes (an L2) prefetch the next two copies' bytes while they copy
// (CopyFromGm). Timing only (data_copy.cpp).
inline constexpr uint64_t kStreamRegionBytes = uint64_t{8} << 20;
inline constexpr uint64_t kStreamMinCopy = 1024;
inline constexpr uint64_t kReadAheadRegionBytes = uint64_t{1} << 20;
// memcpy of a GM -> UB copy of `bytes` at `src` from `region`. From a region larger than
// kReadAheadRegionBytes it also prefetches the bytes that follow, twice as many, inside the
// region, spread over the copy: each line is then prefetched twice, two copies and one copy
// ahead (a burst of prefetches is partly dropped; the second catches what the first missed).
void CopyFromGm(std::byte* dst, const std::byte* src, uint64_t bytes, const GmRegionSpan& region);
// The sanitizer record of a strided DataCopy: blockCount blocks of blockLen * 32 bytes per side.
inline void RecordStrided(Pipe pipe, const char* api, SrcLoc loc, const void* dst, const void* src,
                          const AscendC::DataCopyParams& p) {
  san::Instr in(pipe, api, loc);
  if (!in || p.blockCount == 0 || p.blockLen == 0) return;
  const uint64_t block = uint64_t{p.blockLen} * 32;
  in.ReadBlocks(src, p.blockCount, block, block + uint64_t{p.srcStride} * 32);
  in.WriteBlocks(dst, p.blockCount, block, block + uint64_t{p.dstStride} * 32);
}
inline void StridedCopy(std::byte* dst, const std::byte* src, const AscendC::DataCopyParams& p) {
  const uint64_t block = uint64_t{p.blockLen} * 32;
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    std::memmove(dst + i * (block + uint64_t{p.dstStride} * 32),
                 src + i * (block + uint64_t{p.srcStride} * 32), block);
  }
}

// The two sides of a copy: UB tensors check their 32-byte alignment and are reached by HostPtr,
// GM tensors check the element alignment and are reached by GetPhyAddr.
template <typename T>
void CheckCopyAligned(const AscendC::LocalTensor<T>& t, const char* api, const char* name) {
  CheckUbAligned(t.View(), api, name);
}
template <typename T>
void CheckCopyAligned(const AscendC::GlobalTensor<T>& t, const char* api, const char*) {
  CheckGmAligned(t.GetPhyAddr(), sizeof(T), api);
}
template <typename T>
std::byte* CopyBytes(const AscendC::LocalTensor<T>& t) {
  return reinterpret_cast<std::byte*>(t.HostPtr());
}
template <typename T>
std::byte* CopyBytes(const AscendC::GlobalTensor<T>& t) {
  return reinterpret_cast<std::byte*>(t.GetPhyAddr());
}

// The checks every DataCopy form makes, in one order: the UB side's alignment (dst first when
// both sides are in UB), then the other side's; then the accesses in the same order, each side
// `bytes` long rounded up to elements. Returns the GM side's region (empty for UB -> UB).
template <typename T, template <typename> class D, template <typename> class S>
GmRegionSpan CheckCopySides(const char* api, const D<T>& dst, uint64_t dst_bytes, const S<T>& src,
                            uint64_t src_bytes) {
  constexpr bool kToGm = std::is_same_v<D<T>, AscendC::GlobalTensor<T>>;
  const auto elems = [](uint64_t bytes) { return (bytes + sizeof(T) - 1) / sizeof(T); };
  GmRegionSpan region;
  if constexpr (kToGm) {
    CheckCopyAligned(src, api, "src");
    CheckCopyAligned(dst, api, "dst");
    src.Access(0, elems(src_bytes), api);
    region = dst.Access(0, elems(dst_bytes), api);
  } else {
    CheckCopyAligned(dst, api, "dst");
    CheckCopyAligned(src, api, "src");
    dst.Access(0, elems(dst_bytes), api);
    if constexpr (std::is_same_v<S<T>, AscendC::GlobalTensor<T>>) {
      region = src.Access(0, elems(src_bytes), api);
    } else {
      src.Access(0, elems(src_bytes), api);
      CheckNoPartialOverlap(dst.View(), dst_bytes, src.View(), src_bytes, api);
    }
  }
  return region;
}

// A count form: GM -> UB (MTE2), UB -> GM (MTE3, through the atomic mode or streamed) or
// UB -> UB (V).
template <typename T, template <typename> class D, template <typename> class S>
void CopyCount(Pipe pipe, const char* api, const D<T>& dst, const S<T>& src, uint32_t count,
               SrcLoc loc) {
  const uint64_t bytes = DataCopyBytes(api, count, sizeof(T));
  const GmRegionSpan region = CheckCopySides(api, dst, bytes, src, bytes);
  san::Instr in(pipe, api, loc);
  if (in) {
    in.Read(CopyBytes(src), bytes);
    in.Write(CopyBytes(dst), bytes);
  }
  if constexpr (std::is_same_v<S<T>, AscendC::GlobalTensor<T>>) {
    CopyFromGm(CopyBytes(dst), CopyBytes(src), bytes, region);
  } else if constexpr (std::is_same_v<D<T>, AscendC::GlobalTensor<T>>) {
    if (AtomicCopyToGm(CopyBytes(dst), CopyBytes(src), 1, bytes, 0, 0)) {
      // SetAtomicAdd/Max/Min: combined with GM (atomic.h).
    } else if (bytes >= kStreamMinCopy && region.bytes >= kStreamRegionBytes) {
      StreamToGm(CopyBytes(dst), CopyBytes(src), bytes);
    } else if (bytes != 0) {
      std::memcpy(CopyBytes(dst), CopyBytes(src), bytes);
    }
  } else if (bytes != 0) {
    std::memmove(CopyBytes(dst), CopyBytes(src), bytes);
  }
}

// A strided form (units of 32-byte data blocks), same directions and pipes.
template <typename T, template <typename> class D, template <typename> class S>
void CopyStrided(Pipe pipe, const char* api, const D<T>& dst, const S<T>& src,
                 const AscendC::DataCopyParams& params, SrcLoc loc) {
  CheckCopySides(api, dst, StridedExtent(params, params.dstStride), src,
                 StridedExtent(params, params.srcStride));
  if constexpr (std::is_same_v<D<T>, AscendC::GlobalTensor<T>>) {
    const uint64_t block = uint64_t{params.blockLen} * 32;
    if (!AtomicCopyToGm(CopyBytes(dst), CopyBytes(src), params.blockCount, block,
                        block + uint64_t{params.dstStride} * 32,
                        block + uint64_t{params.srcStride} * 32)) {
      StridedCopy(CopyBytes(dst), CopyBytes(src), params);
    }
    // After the copy: the sanitizer fingerprints what a GM write left there.
    RecordStrided(pipe, api, loc, CopyBytes(dst), CopyBytes(src), params);
  } else {
    RecordStrided(pipe, api, loc, CopyBytes(dst), CopyBytes(src), params);
    StridedCopy(CopyBytes(dst), CopyBytes(src), params);
  }
}

// A copy between local tensors of which one lies outside the UB (the cube's L1 -> BiasTable):
// the layer that models that memory performs it through its hook, installed before main; no
// hook: kPosition.
using LocalCopyHook = void (*)(const TensorView& dst, const TensorView& src,
                               const AscendC::DataCopyParams& params, SrcLoc loc);
void SetLocalCopyHook(LocalCopyHook hook) noexcept;
void CopyOutsideUb(const TensorView& dst, const TensorView& src,
                   const AscendC::DataCopyParams& params, SrcLoc loc);

}  // namespace lngrad::aicore::detail

namespace AscendC {

// GM -> UB, count elements.
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::CopyCount(
      lngrad::aicore::Pipe::kMte2,
      IsUbPosition(dst.View().pos) ? "DataCopy(GM->UB)" : "DataCopy(GM->L1)", dst, src, count, loc);
}

// UB -> GM, count elements.
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::CopyCount(
      lngrad::aicore::Pipe::kMte3,
      IsUbPosition(src.View().pos) ? "DataCopy(UB->GM)" : "DataCopy(L1->GM)", dst, src, count, loc);
}

// UB -> UB, count elements; UB -> L1 (an AIV of the 950 into its AI core's L1) on MTE3.
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  const bool to_l1 = IsUbPosition(src.View().pos) && !IsUbPosition(dst.View().pos);
  lngrad::aicore::detail::CopyCount(to_l1 ? lngrad::aicore::Pipe::kMte3 : lngrad::aicore::Pipe::kV,
                                    to_l1 ? "DataCopy(UB->L1)" : "DataCopy(UB->UB)", dst, src,
                                    count, loc);
}

// GM -> UB, strided (units of 32-byte data blocks).
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& params,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::CopyStrided(lngrad::aicore::Pipe::kMte2,
                                      IsUbPosition(dst.View().pos)
                                          ? "DataCopy(GM->UB, DataCopyParams)"
                                          : "DataCopy(GM->L1, DataCopyParams)",
                                      dst, src, params, loc);
}

// UB -> GM, strided (units of 32-byte data blocks).
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& params,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::CopyStrided(lngrad::aicore::Pipe::kMte3,
                                      IsUbPosition(src.View().pos)
                                          ? "DataCopy(UB->GM, DataCopyParams)"
                                          : "DataCopy(L1->GM, DataCopyParams)",
                                      dst, src, params, loc);
}

// UB -> UB, strided (units of 32-byte data blocks); a local tensor outside the UB: the hook.
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& params,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  if (!IsUbPosition(dst.View().pos) || !IsUbPosition(src.View().pos)) {
    lngrad::aicore::detail::CopyOutsideUb(dst.View(), src.View(), params, loc);
    return;
  }
  lngrad::aicore::detail::CopyStrided(lngrad::aicore::Pipe::kV, "DataCopy(UB->UB, DataCopyParams)",
                                      dst, src, params, loc);
}

}  // namespace AscendC

#include "data_copy_pad.h"
#include "data_copy_nd2nz.h"
#include "data_copy_slice.h"
#include "nd_dma.h"
