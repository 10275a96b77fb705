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
  uint16_t srcStride = 0;
  uint16_t dstStride = 0;
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

}  // namespace lngrad::aicore::detail

namespace AscendC {

// GM -> UB, count elements.
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace d = lngrad::aicore::detail;
  constexpr const char* kApi = "DataCopy(GM->UB)";
  const uint64_t bytes = d::DataCopyBytes(kApi, count, sizeof(T));
  d::CheckUbAligned(dst.View(), kApi, "dst");
  d::CheckGmAligned(src.GetPhyAddr(), sizeof(T), kApi);
  dst.Access(0, bytes / sizeof(T), kApi);
  const d::GmRegionSpan region = src.Access(0, bytes / sizeof(T), kApi);
  lngrad::aicore::san::Instr in(lngrad::aicore::Pipe::kMte2, kApi, loc);
  if (in) {
    in.Read(src.GetPhyAddr(), bytes);
    in.Write(dst.HostPtr(), bytes);
  }
  d::CopyFromGm(reinterpret_cast<std::byte*>(dst.HostPtr()),
                reinterpret_cast<const std::byte*>(src.GetPhyAddr()), bytes, region);
}

// UB -> GM, count elements.
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace d = lngrad::aicore::detail;
  constexpr const char* kApi = "DataCopy(UB->GM)";
  const uint64_t bytes = d::DataCopyBytes(kApi, count, sizeof(T));
  d::CheckUbAligned(src.View(), kApi, "src");
  d::CheckGmAligned(dst.GetPhyAddr(), sizeof(T), kApi);
  src.Access(0, bytes / sizeof(T), kApi);
  const d::GmRegionSpan region = dst.Access(0, bytes / sizeof(T), kApi);
  lngrad::aicore::san::Instr in(lngrad::aicore::Pipe::kMte3, kApi, loc);
  if (in) {
    in.Read(src.HostPtr(), bytes);
    in.Write(dst.GetPhyAddr(), bytes);
  }
  if (d::AtomicCopyToGm(reinterpret_cast<std::byte*>(dst.GetPhyAddr()),
                        reinterpret_cast<const std::byte*>(src.HostPtr()), 1, bytes, 0, 0)) {
    // SetAtomicAdd/Max/Min: combined with GM (atomic.h).
  } else if (bytes >= d::kStreamMinCopy && region.bytes >= d::kStreamRegionBytes) {
    d::StreamToGm(reinterpret_cast<std::byte*>(dst.GetPhyAddr()),
                  reinterpret_cast<const std::byte*>(src.HostPtr()), bytes);
  } else if (bytes != 0) {
    std::memcpy(dst.GetPhyAddr(), src.HostPtr(), bytes);
  }
}

// UB -> UB, count elements.
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace d = lngrad::aicore::detail;
  constexpr const char* kApi = "DataCopy(UB->UB)";
  const uint64_t bytes = d::DataCopyBytes(kApi, count, sizeof(T));
  d::CheckUbAligned(dst.View(), kApi, "dst");
  d::CheckUbAligned(src.View(), kApi, "src");
  dst.Access(0, bytes / sizeof(T), kApi);
  src.Access(0, bytes / sizeof(T), kApi);
  d::CheckNoPartialOverlap(dst.View(), bytes, src.View(), bytes, kApi);
  lngrad::aicore::san::Instr in(lngrad::aicore::Pipe::kV, kApi, loc);
  if (in) {
    in.Read(src.HostPtr(), bytes);
    in.Write(dst.HostPtr(), bytes);
  }
  if (bytes != 0) std::memmove(dst.HostPtr(), src.HostPtr(), bytes);
}

// GM -> UB, strided (units of 32-byte data blocks).
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& params,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace d = lngrad::aicore::detail;
  constexpr const char* kApi = "DataCopy(GM->UB, DataCopyParams)";
  d::CheckUbAligned(dst.View(), kApi, "dst");
  d::CheckGmAligned(src.GetPhyAddr(), sizeof(T), kApi);
  const uint64_t dst_bytes = d::StridedExtent(params, params.dstStride);
  const uint64_t src_bytes = d::StridedExtent(params, params.srcStride);
  dst.Access(0, (dst_bytes + sizeof(T) - 1) / sizeof(T), kApi);
  src.Access(0, (src_bytes + sizeof(T) - 1) / sizeof(T), kApi);
  d::RecordStrided(lngrad::aicore::Pipe::kMte2, kApi, loc, dst.HostPtr(), src.GetPhyAddr(), params);
  d::StridedCopy(reinterpret_cast<std::byte*>(dst.HostPtr()),
                 reinterpret_cast<const std::byte*>(src.GetPhyAddr()), params);
}

// UB -> GM, strided (units of 32-byte data blocks).
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& params,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace d = lngrad::aicore::detail;
  constexpr const char* kApi = "DataCopy(UB->GM, DataCopyParams)";
  d::CheckUbAligned(src.View(), kApi, "src");
  d::CheckGmAligned(dst.GetPhyAddr(), sizeof(T), kApi);
  const uint64_t dst_bytes = d::StridedExtent(params, params.dstStride);
  const uint64_t src_bytes = d::StridedExtent(params, params.srcStride);
  src.Access(0, (src_bytes + sizeof(T) - 1) / sizeof(T), kApi);
  dst.Access(0, (dst_bytes + sizeof(T) - 1) / sizeof(T), kApi);
  const uint64_t block = uint64_t{params.blockLen} * 32;
  if (!d::AtomicCopyToGm(reinterpret_cast<std::byte*>(dst.GetPhyAddr()),
                         reinterpret_cast<const std::byte*>(src.HostPtr()), params.blockCount,
                         block, block + uint64_t{params.dstStride} * 32,
                         block + uint64_t{params.srcStride} * 32)) {
    d::StridedCopy(reinterpret_cast<std::byte*>(dst.GetPhyAddr()),
                   reinterpret_cast<const std::byte*>(src.HostPtr()), params);
  }
  // After the copy: the sanitizer fingerprints what a GM write left there.
  d::RecordStrided(lngrad::aicore::Pipe::kMte3, kApi, loc, dst.GetPhyAddr(), src.HostPtr(), params);
}

// UB -> UB, strided (units of 32-byte data blocks).
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& params,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace d = lngrad::aicore::detail;
  constexpr const char* kApi = "DataCopy(UB->UB, DataCopyParams)";
  d::CheckUbAligned(dst.View(), kApi, "dst");
  d::CheckUbAligned(src.View(), kApi, "src");
  const uint64_t dst_bytes = d::StridedExtent(params, params.dstStride);
  const uint64_t src_bytes = d::StridedExtent(params, params.srcStride);
  dst.Access(0, (dst_bytes + sizeof(T) - 1) / sizeof(T), kApi);
  src.Access(0, (src_bytes + sizeof(T) - 1) / sizeof(T), kApi);
  d::CheckNoPartialOverlap(dst.View(), dst_bytes, src.View(), src_bytes, kApi);
  d::RecordStrided(lngrad::aicore::Pipe::kV, kApi, loc, dst.HostPtr(), src.HostPtr(), params);
  d::StridedCopy(reinterpret_cast<std::byte*>(dst.HostPtr()),
                 reinterpret_cast<const std::byte*>(src.HostPtr()), params);
}

}  // namespace AscendC

#include "data_copy_pad.h"
#include "data_copy_nd2nz.h"
#include "data_copy_slice.h"
#include "nd_dma.h"
