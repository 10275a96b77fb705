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
// writes for the sanitizer. ChunkScratch is the general form (slots that depend on the round's
// length, values of any element type), which the activation family's loops use too.
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

// What a 2201/2002 loop leaves in its scratch, read as elements of S: the loop runs n elements
// in chunks of `chunk` (the last one shorter), and a chunk of len elements writes slot k of its
// element j at element off(len)[k] + j (the temp tensors, each holding its last value there).
// The full chunks all write the same bytes, so the last full chunk and the tail leave them: the
// elements from First() on, in order. chunk 0 (the kit asserts; unchecked here) or no scratch at
// all (no stack buffer left, unchecked) writes nothing.
template <typename S, size_t K, typename Off>
class ChunkScratch {
 public:
  ChunkScratch(const AscendC::LocalTensor<uint8_t>& tmp, uint64_t n, uint64_t chunk, Off off)
      : tmp_(tmp), n_(n), chunk_(chunk), off_(off) {
    if (chunk_ == 0 || n_ == 0) return;
    const uint64_t chunks = (n_ + chunk_ - 1) / chunk_;
    first_ = (n_ % chunk_ != 0 && chunks >= 2 ? chunks - 2 : chunks - 1) * chunk_;
  }
  bool Active() const { return chunk_ != 0 && n_ != 0 && tmp_.HostPtr() != nullptr; }
  uint64_t First() const { return first_; }

  // Writes the slots of elements First() .. n - 1 (vals(i): element i's K values) and records
  // the chunks' writes for the sanitizer; a slot past the scratch is an overrun (checked mode
  // raises; unchecked, the bytes past it are written, inside the UB, as on the device).
  template <typename Vals>
  void Write(const char* api, SrcLoc loc, Vals vals) const {
    if (!Active()) return;
    const uint64_t full = std::min(chunk_, n_), tail = n_ % chunk_;
    Bound(full);
    if (tail != 0) Bound(tail);
    uint8_t* base = tmp_.HostPtr();
    for (uint64_t start = first_; start < n_; start += chunk_) {  // the last full chunk, the tail
      const uint64_t len = std::min(chunk_, n_ - start);
      const std::array<uint64_t, K> o = off_(len);
      std::array<uint8_t*, K> at{};
      for (size_t k = 0; k < K; ++k) at[k] = base + sizeof(S) * o[k];
      for (uint64_t j = 0; j < len; ++j) {
        const std::array<S, K> v = vals(start + j);
        for (size_t k = 0; k < K; ++k) std::memcpy(at[k] + sizeof(S) * j, &v[k], sizeof(S));
      }
    }
    san::Instr rec(Pipe::kV, api, loc);
    if (!rec) return;
    for (const uint64_t len : {full, tail}) {
      if (len == 0) continue;
      for (const uint64_t o : off_(len)) rec.Write(base + sizeof(S) * o, sizeof(S) * len);
    }
  }

 private:
  void Bound(uint64_t len) const {
    for (const uint64_t o : off_(len)) {
      if ((o + len) * sizeof(S) > tmp_.View().size_bytes) {
        detail::OnTensorOverrun(tmp_.View(), o, len, sizeof(S), "sharedTmpBuffer (temp tensors)");
      }
    }
  }
  const AscendC::LocalTensor<uint8_t>& tmp_;
  uint64_t n_, chunk_, first_ = 0;
  Off off_;
};

template <typename S, size_t K, typename Off>
ChunkScratch<S, K, Off> MakeChunkScratch(const AscendC::LocalTensor<uint8_t>& tmp, uint64_t n,
                                         uint64_t chunk, Off off) {
  return ChunkScratch<S, K, Off>(tmp, n, chunk, off);
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
  if (On3510()) return;
  MakeChunkScratch<float, K>(tmp, n, chunk, [&slot](uint64_t) {
    return slot;
  }).Write(api, loc, vals);
}

// The slots of a loop whose temp tensors follow each other at the round's length rounded up to
// 32 elements (AcoshImpl, AsinhImpl, AtanhImpl pass the tail's length so rounded to their Compute
// as its tensors' stride; the full rounds' length is the chunk, a multiple of 32): slot k at k L.
template <size_t K>
std::array<uint64_t, K> StridedSlots(uint64_t len) {
  const uint64_t stride = (len + 31) / 32 * 32;
  std::array<uint64_t, K> o{};
  for (size_t k = 0; k < K; ++k) o[k] = k * stride;
  return o;
}

}  // namespace lngrad::aicore::math_detail
