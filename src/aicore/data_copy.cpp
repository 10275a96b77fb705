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
