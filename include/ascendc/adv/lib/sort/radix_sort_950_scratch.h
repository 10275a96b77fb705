// lngrad: what the 950 Sort's RADIX_SORT with indexes (the vendor's sort_impl.h SortImpl of
// (dst, dstIndex, src, srcIndex, sharedTmpBuffer), isReuseSource false) leaves in its
// sharedTmpBuffer; used by that Sort overload (lib/sort/sort.h RadixSort950) and by TopK's radix
// select with `sorted` (lib/sort/topk_3510.h), whose Sort is that call on the unsigned keys,
// descending, int32_t indexes.
//
// The scratch (ArrangeCommonTmpBuffer, A = calCount rounded up to 32): the exclusive sum of the
// pass's byte histogram (256 uint16) at 0; the pass's bytes (srcU8) at 512, A wide; the global
// indexes in block order (tmpIndexU16, uint16) at 512 + A; the pass's permutation
// (sortedLocalIndex, uint32) at 512 + 3A, which the copy of the bytes (srcU8Copy, at its start)
// and the local uint8 indexes (tmpIndexU8, A bytes in) share; then the indexes (A of the index
// type) and the values (A of the value type) of the passes that do not end in dst. Per pass r
// (the value's byte r, lowest first; one pass for 1-byte values, passes 0 and 2 end in the
// scratch, 1 and 3 in dst):
//  - GetExclusiveSum: byte r of the pass's values to srcU8 and srcU8Copy, the exclusive sum;
//  - EightBitsSort: per block of 256 values, the local indexes 0, 1, ... stably ordered by that
//    byte (four 2-bit passes) at tmpIndexU8, the bytes in that order at srcU8, the indexes plus
//    the block's start at tmpIndexU16;
//  - LocalSort: the stable global order by the byte (the exclusive sum plus the prior blocks'
//    counts) scattered as uint32 over sortedLocalIndex;
//  - UpdateValueAndIndexByLocalIndex: the values and indexes in that order, to the scratch's
//    value and index areas (even passes of 2 and 4-byte values) or to dst.
// Every store is masked to calCount lanes: the bytes past those stay as they were.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace lngrad::aicore::sort_detail {

// ArrangeCommonTmpBuffer's offsets and the end of the bytes the sort writes.
struct RadixScratch950 {
  uint64_t srcU8 = 512, indexU16 = 0, localIndex = 0, nextIndex = 0, nextValue = 0, end = 0;
};

inline RadixScratch950 RadixScratchOf950(uint32_t es, uint32_t idxEs, uint32_t count) {
  const uint64_t a = (uint64_t{count} + 31) / 32 * 32;
  RadixScratch950 s;
  s.indexU16 = s.srcU8 + a;
  s.localIndex = s.indexU16 + 2 * a;
  s.nextIndex = s.localIndex + 4 * a;
  s.nextValue = s.nextIndex + uint64_t{idxEs} * a;
  s.end = es == 1 ? s.localIndex + std::max<uint64_t>(uint64_t{4} * count, a + count)
                  : s.nextValue + uint64_t{es} * count;
  return s;
}

// The byte ranges (offset, length) the sort stores to in its scratch.
inline std::vector<std::pair<uint64_t, uint64_t>> RadixScratchWrites950(uint32_t es, uint32_t idxEs,
                                                                        uint32_t count) {
  const RadixScratch950 s = RadixScratchOf950(es, idxEs, count);
  const uint64_t a = s.indexU16 - s.srcU8, n = count;
  std::vector<std::pair<uint64_t, uint64_t>> w = {
      {0, 512}, {s.srcU8, n}, {s.indexU16, 2 * n}, {s.localIndex, 4 * n}, {s.localIndex + a, n}};
  if (es > 1) {
    w.emplace_back(s.nextIndex, uint64_t{idxEs} * n);
    w.emplace_back(s.nextValue, uint64_t{es} * n);
  }
  return w;
}

// Writes the scratch's bytes as the sort leaves them. keys: the values the passes order
// ascending (after the Sort's TwiddleInData), ids: their indexes' bytes (idxEs each).
inline void WriteRadixScratch950(uint8_t* scratch, std::vector<uint64_t> keys,
                                 std::vector<uint8_t> ids, uint32_t es, uint32_t idxEs) {
  const auto count = static_cast<uint32_t>(keys.size());
  const RadixScratch950 s = RadixScratchOf950(es, idxEs, count);
  const uint64_t a = s.indexU16 - s.srcU8;
  std::vector<uint8_t> byte(count);
  std::vector<uint32_t> local(count), perm(count);
  for (uint32_t r = 0; r < es; ++r) {
    std::array<uint16_t, 256> exclusive{};
    for (uint32_t i = 0; i < count; ++i) {
      byte[i] = static_cast<uint8_t>(keys[i] >> (8 * r));
      for (uint32_t b = byte[i] + 1u; b < 256; ++b) ++exclusive[b];
    }
    std::memcpy(scratch, exclusive.data(), 512);
    std::memcpy(scratch + s.srcU8, byte.data(), count);
    std::memcpy(scratch + s.localIndex, byte.data(), count);  // srcU8Copy
    for (uint32_t start = 0; start < count; start += 256) {
      const uint32_t n = std::min(256u, count - start);
      for (uint32_t j = 0; j < n; ++j) local[start + j] = j;
      std::stable_sort(local.begin() + start, local.begin() + start + n,
                       [&](uint32_t x, uint32_t y) { return byte[start + x] < byte[start + y]; });
      for (uint32_t j = 0; j < n; ++j) {
        const uint32_t g = start + local[start + j];
        scratch[s.localIndex + a + start + j] = static_cast<uint8_t>(local[start + j]);
        scratch[s.srcU8 + start + j] = byte[g];
        const auto u16 = static_cast<uint16_t>(g);
        std::memcpy(scratch + s.indexU16 + 2 * uint64_t{start + j}, &u16, 2);
      }
    }
    for (uint32_t i = 0; i < count; ++i) perm[i] = i;
    std::stable_sort(perm.begin(), perm.end(),
                     [&](uint32_t x, uint32_t y) { return byte[x] < byte[y]; });
    std::memcpy(scratch + s.localIndex, perm.data(), uint64_t{4} * count);
    std::vector<uint64_t> nextKeys(count);
    std::vector<uint8_t> nextIds(ids.size());
    for (uint32_t i = 0; i < count; ++i) {
      nextKeys[i] = keys[perm[i]];
      std::memcpy(nextIds.data() + uint64_t{i} * idxEs, ids.data() + uint64_t{perm[i]} * idxEs,
                  idxEs);
    }
    keys.swap(nextKeys);
    ids.swap(nextIds);
    if (es > 1 && r % 2 == 0) {
      std::memcpy(scratch + s.nextIndex, ids.data(), uint64_t{idxEs} * count);
      for (uint32_t i = 0; i < count; ++i) {
        std::memcpy(scratch + s.nextValue + uint64_t{i} * es, &keys[i], es);  // little endian
      }
    }
  }
}

}  // namespace lngrad::aicore::sort_detail
