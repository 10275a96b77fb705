// lngrad: TopK's radix select on arch 3510 (the vendor's topk_3510_impl.h, namespace
// Reg::RadixSelectTopK: TopKNormal, TopKNSmall, TopKRaidxSelect), a TopKConfig of algo
// RADIX_SELECT; included by lib/sort/topk.h.
//
// The kit's sequence on the bytes it touches: without isInitIndex the indexes 0 .. inner-1 made
// at the scratch's start (CreateVecIndex; TOPK_NSMALL copies them to each of the outter rows),
// the rows' scratch after them. Per row (InitializeTempBuffer's layout from the row's scratch
// base: the gathered keys at 0, inner keys wide; the gathered indexes, which the histogram
// shares, after them, max(4 * inner, 512) bytes wide when the keys are twiddled, else
// 4 * inner; the twiddled keys after that unless isReuseSrc; the sort's scratch at the twiddled
// keys, or after the index area when there are none):
//  - TwiddleInData: the inner values as keys (floats: sign set, all bits flipped, else the
//    sign bit set; signed ints: the sign bit flipped; then all bits flipped for the smallest),
//    into the scratch, or into the row of src itself with isReuseSrc (left so);
//  - GenerateAccumulateData per byte from the top: the cumulative histogram (256 uint16) of
//    that byte over the first n keys whose higher bytes equal the threshold's, then the binary
//    search of the kit for the threshold's byte (it stops once the count above a boundary is
//    exactly the k still wanted);
//  - GatherGreaterAndEqualKData/Index: the keys above the threshold in index order, then those
//    equal to it, and their indexes, at the gathered areas (the indexes over the histogram);
//  - SaveData (the first k) or, `sorted`, the radix Sort of the first k descending by key
//    (stable: ties keep the gathered order); TwiddleOutData on the k values in dst.
// Row j's outputs land at j * kPad (kPad = k rounded up to 32 bytes of T) and its indexes at
// j * AlignUp(k, 8); TOPK_NSMALL then moves row j's k values and indexes to j * k
// (SaveDataUnAlign), which leaves the padded rows' later elements behind the packed ones.
// With `sorted`, the radix Sort's scratch (from the row's sort offset) holds what the kit's
// Sort leaves there (lib/sort/radix_sort_950_scratch.h: the last pass's exclusive sum, bytes,
// indexes and permutation, the even passes' values and indexes); its unwritten bytes keep the
// twiddled keys or what was there. T: the 1, 2 and 4-byte types the kit takes (uint8_t, int8_t,
// uint16_t, int16_t, half, bfloat16_t, uint32_t, int32_t); 8-byte types are refused at compile
// time. A scratch below the select's layout, or with `sorted` below the end of the Sort's
// writes, raises tmp_buffer in any mode (the writes would leave the buffer). Checked mode
// refuses a scratch sharing bytes with src, srcIndexLocal (isInitIndex) or a destination, and a
// destination sharing bytes with a source (address_overlap, topk_overlap.h: the page allows no
// overlap); unchecked, the rows run one after another on UB as it holds them then: each row's
// index gather reads srcIndexLocal after the earlier rows' scratch writes and the row's own key
// gather, as the kit does.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "lib/sort/radix_sort_950_scratch.h"

namespace lngrad::aicore::topk_detail {

template <typename T>
inline constexpr bool kRadixFloat =
    std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, bfloat16_t>;

// The radix select's types lngrad takes (the kit's list without the 8-byte integers).
template <typename T>
inline constexpr bool kRadixType =
    kRadixFloat<T> || std::is_same_v<T, uint8_t> || std::is_same_v<T, int8_t> ||
    std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t> || std::is_same_v<T, uint32_t> ||
    std::is_same_v<T, int32_t>;

template <typename T>
using RadixBits = std::conditional_t<sizeof(T) == 1, uint8_t,
                                     std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>>;

// TwiddleInData on one value's bits (isDescend = the smallest wanted).
template <typename T>
RadixBits<T> TwiddleIn(RadixBits<T> b, bool descend) {
  using U = RadixBits<T>;
  constexpr U sign = static_cast<U>(U{1} << (sizeof(U) * 8 - 1));
  if constexpr (kRadixFloat<T>) {
    b = static_cast<U>(b ^ ((b & sign) != 0 ? static_cast<U>(~U{0}) : sign));
  } else if constexpr (std::is_signed_v<T>) {
    b = static_cast<U>(b ^ sign);
  }
  return descend ? static_cast<U>(~b) : b;
}

// TwiddleOutData: TwiddleIn undone.
template <typename T>
RadixBits<T> TwiddleOut(RadixBits<T> b, bool descend) {
  using U = RadixBits<T>;
  constexpr U sign = static_cast<U>(U{1} << (sizeof(U) * 8 - 1));
  if (descend) b = static_cast<U>(~b);
  if constexpr (kRadixFloat<T>) {
    b = static_cast<U>(b ^ ((b & sign) == 0 ? static_cast<U>(~U{0}) : sign));
  } else if constexpr (std::is_signed_v<T>) {
    b = static_cast<U>(b ^ sign);
  }
  return b;
}

// InitializeTempBuffer's byte offsets from a row's scratch base.
struct RadixLayout {
  uint64_t index = 0;    // the gathered indexes and the histogram
  uint64_t work = 0;     // the twiddled keys (when in the scratch)
  uint64_t sortBuf = 0;  // the radix Sort's scratch
  uint64_t end = 0;      // the bytes the select itself writes
  bool workInTmp = false;
};

template <typename T>
RadixLayout RadixLayoutOf(uint32_t inner, bool twiddled, bool reuse) {
  RadixLayout l;
  l.index = uint64_t{sizeof(T)} * inner;
  if (twiddled && !reuse) {
    l.work = l.index + std::max<uint64_t>(uint64_t{4} * inner, 512);
    l.sortBuf = l.work;
    l.end = l.work + uint64_t{sizeof(T)} * inner;
    l.workInTmp = true;
  } else {
    l.sortBuf = l.index + uint64_t{4} * inner;
    l.end = std::max<uint64_t>(l.sortBuf, l.index + 512);
  }
  return l;
}

// TopKRaidxSelect on one row: src's inner values, idsAt its indexes in UB (read when the row's
// GatherGreaterAndEqualKIndex runs, after the row's key gather, as the kit does), base the row's
// scratch.
template <typename T>
void RadixSelectRow950(uint8_t* src, const uint8_t* idsAt, uint8_t* dst, int32_t* dstIdx,
                       uint8_t* base, const RadixLayout& l, uint32_t inner, uint32_t n, uint32_t k,
                       bool largest, bool sorted) {
  using U = RadixBits<T>;
  constexpr uint32_t S = sizeof(U);
  const bool twiddled = !largest || kRadixFloat<T> || std::is_signed_v<T>;
  uint8_t* workBytes = l.workInTmp ? base + l.work : src;
  std::vector<U> key(inner);
  std::memcpy(key.data(), src, uint64_t{inner} * S);
  if (twiddled) {
    for (U& x : key) x = TwiddleIn<T>(x, !largest);
    std::memcpy(workBytes, key.data(), uint64_t{inner} * S);
  }
  uint16_t hist[256];
  U kth = 0;
  int32_t remain = static_cast<int32_t>(k);
  for (uint32_t byte = S; byte > 0 && remain > 0; --byte) {
    const uint32_t shift = (byte - 1) * 8;
    uint32_t count[256] = {};
    for (uint32_t i = 0; i < n; ++i) {
      if (byte != S && (uint32_t{key[i]} >> (byte * 8)) != (uint32_t{kth} >> (byte * 8))) continue;
      ++count[(key[i] >> shift) & 0xFF];
    }
    uint32_t run = 0;
    for (int b = 0; b < 256; ++b) hist[b] = static_cast<uint16_t>(run += count[b]);
    std::memcpy(base + l.index, hist, sizeof(hist));
    const int32_t want = int32_t{hist[255]} - remain;
    int left = 0, right = 255;
    bool found = false;
    while (left <= right) {
      const int mid = left + (right - left) / 2;
      if (hist[mid] == want) {
        kth = static_cast<U>(kth | (static_cast<U>(mid + 1) << shift));
        remain = 0;
        found = true;
        break;
      }
      if (hist[mid] > want) {
        right = mid - 1;
      } else {
        left = mid + 1;
      }
    }
    if (found) continue;
    if (right >= 0) {
      kth = static_cast<U>(kth | (static_cast<U>(right + 1) << shift));
      remain -= int32_t{hist[255]} - int32_t{hist[right + 1]};
    } else {
      remain = int32_t{hist[0]} - want;
    }
  }
  std::vector<uint32_t> pick;
  for (uint32_t i = 0; i < n; ++i) {
    if (key[i] > kth) pick.push_back(i);
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (key[i] == kth) pick.push_back(i);
  }
  for (size_t i = 0; i < pick.size(); ++i) std::memcpy(base + i * S, &key[pick[i]], S);
  std::vector<int32_t> ids(n);  // the index gather's reads (before its own writes)
  std::memcpy(ids.data(), idsAt, uint64_t{n} * 4);
  for (size_t i = 0; i < pick.size(); ++i) std::memcpy(base + l.index + i * 4, &ids[pick[i]], 4);
  pick.resize(k);
  if (sorted) {
    // The Sort<ConvType, int32_t, false, {RADIX_SORT, true}> of the first k gathered keys and
    // indexes: its passes order the keys Not'd (TwiddleInData's isDescend) in its scratch.
    std::vector<uint64_t> sortKeys(k);
    std::vector<uint8_t> sortIds(uint64_t{k} * 4);
    for (uint32_t i = 0; i < k; ++i) {
      sortKeys[i] = static_cast<U>(~key[pick[i]]);
      std::memcpy(sortIds.data() + uint64_t{i} * 4, &ids[pick[i]], 4);
    }
    sort_detail::WriteRadixScratch950(base + l.sortBuf, std::move(sortKeys), std::move(sortIds), S,
                                      4);
    std::stable_sort(pick.begin(), pick.end(),
                     [&](uint32_t a, uint32_t b) { return key[a] > key[b]; });
  }
  for (uint32_t i = 0; i < k; ++i) {
    const U v = twiddled ? TwiddleOut<T>(key[pick[i]], !largest) : key[pick[i]];
    std::memcpy(dst + uint64_t{i} * S, &v, S);
    dstIdx[i] = ids[pick[i]];
  }
}

// TopKNormal / TopKNSmall of RadixSelectTopK: the index rows, the rows' selects, NSMALL's move.
template <typename T, bool isInitIndex, bool isReuseSrc, bool nsmall>
void RunRadix950(const AscendC::LocalTensor<T>& dstValue,
                 const AscendC::LocalTensor<int32_t>& dstIndex, const AscendC::LocalTensor<T>& src,
                 const AscendC::LocalTensor<int32_t>& srcIndex,
                 const AscendC::LocalTensor<uint8_t>& tmp, int32_t k, const AscendC::TopKInfo& info,
                 bool largest, bool sorted, SrcLoc loc) {
  constexpr uint32_t S = sizeof(T);
  const uint32_t inner = static_cast<uint32_t>(info.inner), rows = info.outter;
  const uint32_t n = static_cast<uint32_t>(info.n), kk = static_cast<uint32_t>(k);
  const uint32_t kPad = (kk + 32 / S - 1) / (32 / S) * (32 / S), iPad = (kk + 7) / 8 * 8;
  const bool twiddled = !largest || kRadixFloat<T> || std::is_signed_v<T>;
  const uint64_t idxBytes = isInitIndex ? 0 : uint64_t{4} * inner * (nsmall ? rows : 1);
  const RadixLayout l = RadixLayoutOf<T>(inner, twiddled, isReuseSrc);
  const uint64_t selectEnd = idxBytes + l.end;
  const uint64_t sortEnd =
      idxBytes + l.sortBuf + sort_detail::RadixScratchOf950(S, 4, kk).end;  // `sorted`'s Sort
  const uint64_t need = sorted ? std::max(selectEnd, sortEnd) : selectEnd;
  if (tmp.View().size_bytes < need) {
    RaiseKernelCheck(checks::kTmpBuffer, "TopK: the radix select's scratch holds " +
                                             std::to_string(tmp.View().size_bytes) +
                                             " bytes, its layout needs " + std::to_string(need) +
                                             (sorted ? " (with the radix Sort's scratch)" : ""));
  }
  const uint64_t vcount = uint64_t{rows - 1} * kPad + kk, icount = uint64_t{rows - 1} * iPad + kk;
  {  // No overlaps (topk_overlap.h): tmpLocal's `need` bytes, the sources, the destinations.
    const TopKSpan srcs[3] = {{"srcLocal", src.View(), uint64_t{rows} * inner * S},
                              {"srcIndexLocal", srcIndex.View(),
                               isInitIndex ? (nsmall ? uint64_t{rows} * inner : inner) * 4 : 0},
                              {"finishLocal", src.View(), 0}};
    const TopKSpan dsts[2] = {{"dstValueLocal", dstValue.View(), vcount * S},
                              {"dstIndexLocal", dstIndex.View(), icount * 4}};
    RefuseTopKOverlaps(steps::kRadix950, {"tmpLocal", tmp.View(), need}, srcs, dsts);
  }
  src.Access(0, uint64_t{rows} * inner, "TopK srcLocal");
  dstValue.Access(0, vcount, "TopK dstValueLocal");
  dstIndex.Access(0, icount, "TopK dstIndexLocal");
  if (isInitIndex)
    srcIndex.Access(0, nsmall ? uint64_t{rows} * inner : inner, "TopK srcIndexLocal");
  uint8_t* t = tmp.HostPtr();
  {
    san::Instr rec(Pipe::kV, "TopK", loc);
    if (rec) {
      rec.Read(src.HostPtr(), uint64_t{rows} * inner * S);
      if (isInitIndex) rec.Read(srcIndex.HostPtr(), (nsmall ? uint64_t{rows} * inner : inner) * 4);
      if (isReuseSrc && twiddled) rec.Write(src.HostPtr(), uint64_t{rows} * inner * S);
      rec.Write(dstValue.HostPtr(), vcount * S);
      rec.Write(dstIndex.HostPtr(), icount * 4);
      rec.Write(t, selectEnd);
      if (sorted) {
        for (const auto& [off, len] : sort_detail::RadixScratchWrites950(S, 4, kk)) {
          rec.Write(t + idxBytes + l.sortBuf + off, len);
        }
      }
    }
  }
  if (!isInitIndex) {
    for (uint32_t r = 0; r < (nsmall ? rows : 1); ++r) {
      for (uint32_t i = 0; i < inner; ++i) {
        const int32_t v = static_cast<int32_t>(i);
        std::memcpy(t + (uint64_t{r} * inner + i) * 4, &v, 4);
      }
    }
  }
  const uint8_t* ids = isInitIndex ? reinterpret_cast<const uint8_t*>(srcIndex.HostPtr()) : t;
  uint8_t* dv = reinterpret_cast<uint8_t*>(dstValue.HostPtr());
  int32_t* di = dstIndex.HostPtr();
  for (uint32_t j = 0; j < rows; ++j) {
    RadixSelectRow950<T>(reinterpret_cast<uint8_t*>(src.HostPtr()) + uint64_t{j} * inner * S,
                         ids + (nsmall ? uint64_t{j} * inner * 4 : 0), dv + uint64_t{j} * kPad * S,
                         di + uint64_t{j} * iPad, t + idxBytes, l, inner, n, kk, largest, sorted);
  }
  if (nsmall) {
    for (uint32_t j = 0; j < rows; ++j) {
      std::memmove(dv + uint64_t{j} * kk * S, dv + uint64_t{j} * kPad * S, uint64_t{kk} * S);
      std::memmove(di + uint64_t{j} * kk, di + uint64_t{j} * iPad, uint64_t{kk} * 4);
    }
  }
}

}  // namespace lngrad::aicore::topk_detail
