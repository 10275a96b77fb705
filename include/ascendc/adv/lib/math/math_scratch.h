// lngrad: what the 2201/2002 sequences of the element-wise math APIs leave in their scratch
// (sharedTmpBuffer, or the stack buffer the overloads without it pop).
//
// Those sequences (impl/adv_api/detail/math/<api>/<api>_common_impl.h) cut the scratch into K
// float temp tensors of `chunk` elements each (the chunk derived from the scratch's size), run
// the count in rounds of `chunk` elements then a tail, in counter mode, and each round's
// instructions keep their intermediates in the temp tensors: afterwards element j of temp
// tensor k holds what the last round (or the tail) covering j stored there. The full rounds all
// cover the same slots, so the last full round and the tail decide every written byte; the
// bytes past the slots are left alone. LeaveChunkScratch writes those slots (the values
// computed per element by the caller, from the same steps as the result) and records the
// writes for the sanitizer. The same shape as the activation family's chunk loops, kept here
// so that the two can be unified.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

#include "lib/math/math_common.h"

namespace lngrad::aicore::math_detail {

// The chunk of a sequence whose K temp tensors split a scratch of `bytes` into float arrays
// of (bytes / 4 / K) elements, rounded down to a multiple of `align` elements.
inline uint64_t ChunkOf(uint64_t bytes, uint32_t k, uint32_t align) {
  return bytes / sizeof(float) / k / align * align;
}

// Writes slot[k] + j (in 4-byte words of `tmp`) for every element i in [0, n) that the last
// full round or the tail covers (j = i mod chunk, later rounds winning): vals(i) returns the
// K 32-bit words element i leaves there (float or int32, as std::array<float, K>, copied
// bit for bit). Nothing on arch 3510 (its register code uses other layouts), with chunk 0 (the
// kit asserts; checked mode refused the scratch before) or without a scratch (no stack buffer).
template <size_t K, typename Vals>
void LeaveChunkScratch(const char* api, SrcLoc loc, const AscendC::LocalTensor<uint8_t>& tmp,
                       uint64_t n, uint64_t chunk, const std::array<uint64_t, K>& slot,
                       Vals&& vals) {
  uint8_t* base = tmp.HostPtr();
  if (On3510() || chunk == 0 || n == 0 || base == nullptr) return;
  const uint64_t full = std::min(chunk, n), tail = n % chunk;
  for (const uint64_t s : slot) {
    if ((s + full) * sizeof(float) > tmp.View().size_bytes) {
      detail::OnTensorOverrun(tmp.View(), s, full, sizeof(float), api);
    }
  }
  const uint64_t rounds = (n + chunk - 1) / chunk;
  const uint64_t first = (tail != 0 && rounds >= 2 ? rounds - 2 : rounds - 1) * chunk;
  for (uint64_t i = first; i < n; ++i) {
    const std::array<float, K> v = vals(i);
    const uint64_t j = i % chunk;
    for (size_t k = 0; k < K; ++k) std::memcpy(base + (slot[k] + j) * sizeof(float), &v[k], 4);
  }
  san::Instr rec(Pipe::kV, api, loc);
  if (!rec) return;
  for (const uint64_t s : slot) rec.Write(base + s * sizeof(float), full * sizeof(float));
}

}  // namespace lngrad::aicore::math_detail
