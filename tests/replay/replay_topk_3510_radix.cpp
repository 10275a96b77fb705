// The replay of topk_3510_impl.h's radix select and sort_impl.h's RADIX_SORT (see
// replay_topk_3510_radix.h): the kit's functions one by one on byte images, a vector register being
// 256 bytes.
#include "replay_topk_3510_radix.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

namespace lngrad_replay::topk3510radix {
namespace {

constexpr uint32_t kVL = 256;  // GetVecLen()

uint64_t Load(const uint8_t* p, uint32_t es) {
  uint64_t v = 0;
  std::memcpy(&v, p, es);  // little endian, as the UB
  return v;
}

void Store(uint8_t* p, uint64_t v, uint32_t es) { std::memcpy(p, &v, es); }

uint64_t AllOnes(uint32_t es) { return es == 8 ? ~uint64_t{0} : (uint64_t{1} << (es * 8)) - 1; }

// The addresses InitializeTempBuffer sets, as offsets in tmp.
struct Ptrs {
  uint64_t srcData, srcIndex, hist, workData, sortBuf;
  bool workIsSrc;
};

// NeedPreProcess: the keys are reversed (smallest) or the type twiddled (IsNeedTwiddleType).
bool PreProcess(const Case& c) { return !c.largest || c.kind != Kind::kUnsigned; }

Ptrs Initialize(const Case& c, uint64_t tmpBase) {
  Ptrs p{};
  p.srcData = tmpBase;
  p.srcIndex = tmpBase + uint64_t{c.es} * c.inner;
  p.hist = p.srcIndex;
  p.workIsSrc = true;
  if (PreProcess(c) && !c.reuse) {
    uint64_t indexSpace = uint64_t{c.inner} * 4;
    if (indexSpace < 512) indexSpace = 512;  // BUCKET_BYTES
    p.workData = p.srcIndex + indexSpace;
    p.sortBuf = p.workData;
    p.workIsSrc = false;
  } else {
    p.sortBuf = p.srcIndex + uint64_t{4} * c.inner;
  }
  return p;
}

// TwiddleInData<T, U, isDescend> over count elements (UpdateMask's tail kept): And with the
// sign bit, compare NE 0, Select(all ones, sign), Xor for floats; Xor sign for signed ints; Not
// when isDescend.
void TwiddleIn(const Case& c, const uint8_t* from, uint8_t* to, uint32_t count, bool descend) {
  const uint64_t sign = uint64_t{1} << (c.es * 8 - 1), all = AllOnes(c.es);
  const uint32_t lanes = kVL / c.es;
  for (uint32_t base = 0; base < count; base += lanes) {
    const uint32_t active = std::min(lanes, count - base);
    std::vector<uint64_t> reg(active);
    for (uint32_t l = 0; l < active; ++l) reg[l] = Load(from + uint64_t{base + l} * c.es, c.es);
    for (uint64_t& d : reg) {
      if (c.kind == Kind::kFloat) {
        const uint64_t t = (d & sign) != 0 ? all : sign;
        d ^= t;
      } else if (c.kind == Kind::kSigned) {
        d ^= sign;
      }
      if (descend) d = ~d & all;
    }
    for (uint32_t l = 0; l < active; ++l) Store(to + uint64_t{base + l} * c.es, reg[l], c.es);
  }
}

// TwiddleOutData: Not first when isDescend, then compare EQ 0 on the sign bit (all ones when
// clear, else the sign) and Xor for floats, Xor sign for signed ints.
void TwiddleOut(const Case& c, uint8_t* p, uint32_t count, bool descend) {
  const uint64_t sign = uint64_t{1} << (c.es * 8 - 1), all = AllOnes(c.es);
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t d = Load(p + uint64_t{i} * c.es, c.es);
    if (descend) d = ~d & all;
    if (c.kind == Kind::kFloat) {
      d ^= (d & sign) == 0 ? all : sign;
    } else if (c.kind == Kind::kSigned) {
      d ^= sign;
    }
    Store(p + uint64_t{i} * c.es, d, c.es);
  }
}

// GenerateAccumulateData: per 256-element chunk (UpdateMask<uint8_t>(count)), the byte at
// position byteNum of each element (the colWorkBits) and the filter (the bits above it equal to
// value's bits above it; for byteNum == sizeof(T) the shifted bits are 0 == 0, all pass; 1-byte
// types no filter); the two ACCUMULATE Histograms (bins 0..127, 128..255) add, per bin b, the
// active bytes <= b. Stored as 256 uint16 at hist.
void Accumulate(const Case& c, const uint8_t* work, uint8_t* hist, uint32_t count, uint64_t value,
                uint32_t byteNum) {
  const uint64_t working = byteNum != c.es ? value >> (byteNum * 8) : 0;
  std::array<uint16_t, 256> acc{};
  for (uint32_t base = 0; base < count; base += kVL) {
    const uint32_t active = std::min(kVL, count - base);
    for (uint32_t l = 0; l < active; ++l) {
      const uint64_t e = Load(work + uint64_t{base + l} * c.es, c.es);
      const uint32_t col = static_cast<uint32_t>((e >> ((byteNum - 1) * 8)) & 0xFF);
      const uint64_t high = byteNum * 8 >= 64 ? 0 : e >> (byteNum * 8);
      if (c.es != 1 && high != working) continue;
      for (uint32_t b = col; b < 256; ++b) acc[b] = static_cast<uint16_t>(acc[b] + 1);
    }
  }
  std::memcpy(hist, acc.data(), 512);
}

// GatherGreaterAndEqualKData / Index: the GT pass, then the EQ pass, each over the chunks,
// the kept lanes stored one after another (StoreUnAlign). Returns the count stored.
uint32_t GatherData(const Case& c, const uint8_t* work, uint8_t* dst, uint64_t kth,
                    uint32_t count) {
  uint32_t out = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (uint32_t i = 0; i < count; ++i) {
      const uint64_t e = Load(work + uint64_t{i} * c.es, c.es);
      if (pass == 0 ? e > kth : e == kth) Store(dst + uint64_t{out++} * c.es, e, c.es);
    }
  }
  return out;
}

void GatherIndex(const Case& c, const uint8_t* work, const uint8_t* idx, uint8_t* dst, uint64_t kth,
                 uint32_t count) {
  uint32_t out = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (uint32_t i = 0; i < count; ++i) {
      const uint64_t e = Load(work + uint64_t{i} * c.es, c.es);
      if (pass == 0 ? e > kth : e == kth) std::memcpy(dst + uint64_t{out++} * 4, idx + i * 4, 4);
    }
  }
}

// sort_impl.h GetExclusiveSum for pass `round`: per 256-lane chunk (UpdateMask<uint8_t>), the
// byte of each value (ConvertRegToWithShift: shift right, the low byte) stored to tmpSrc and
// tmpSrcCopy; the FREQUENCY and ACCUMULATE Histograms over all chunks, their difference stored.
void GetExclusiveSum(const uint8_t* value, uint32_t es, uint8_t* tmpSrc, uint8_t* tmpSrcCopy,
                     uint8_t* exclusiveSum, uint32_t count, uint32_t round) {
  std::array<uint16_t, 256> dist{}, cum{};
  for (uint32_t base = 0; base < count; base += kVL) {
    const uint32_t active = std::min(kVL, count - base);
    for (uint32_t l = 0; l < active; ++l) {
      const uint64_t v = Load(value + uint64_t{base + l} * es, es);
      const auto b8 = static_cast<uint8_t>(es == 1 ? v : v >> (round * 8));
      tmpSrc[base + l] = b8;
      tmpSrcCopy[base + l] = b8;
      ++dist[b8];
      for (uint32_t b = b8; b < 256; ++b) ++cum[b];
    }
  }
  for (uint32_t b = 0; b < 256; ++b) {
    const auto e = static_cast<uint16_t>(cum[b] - dist[b]);
    std::memcpy(exclusiveSum + b * 2, &e, 2);
  }
}

// EightBitsSort: the lane numbers per chunk at the u8 indexes; four 2-bit passes, each a
// GatherMask of the indexes per digit 0..3 chunk by chunk stored one after another (the AR
// offset), then the chunk's bytes re-gathered from the copy by the new indexes; last the u8
// indexes zero-extended plus the chunk's start, to the u16 indexes.
void EightBitsSort(uint8_t* srcU8, const uint8_t* srcU8Back, uint8_t* indexU8, uint8_t* indexU16,
                   uint32_t count) {
  for (uint32_t base = 0; base < count; base += kVL) {
    const uint32_t active = std::min(kVL, count - base);
    for (uint32_t l = 0; l < active; ++l) indexU8[base + l] = static_cast<uint8_t>(l);
  }
  for (uint32_t shift = 0; shift < 8; shift += 2) {
    uint64_t ar = 0;
    for (uint32_t base = 0; base < count; base += kVL) {
      const uint32_t active = std::min(kVL, count - base);
      std::array<uint8_t, kVL> src{}, idx{};
      std::memcpy(src.data(), srcU8 + base, active);
      std::memcpy(idx.data(), indexU8 + base, active);
      for (uint8_t digit = 0; digit < 4; ++digit) {
        for (uint32_t l = 0; l < active; ++l) {
          if (((src[l] >> shift) & 3) == digit) indexU8[ar++] = idx[l];
        }
      }
    }
    for (uint32_t base = 0; base < count; base += kVL) {
      const uint32_t active = std::min(kVL, count - base);
      for (uint32_t l = 0; l < active; ++l) srcU8[base + l] = srcU8Back[base + indexU8[base + l]];
    }
  }
  for (uint32_t base = 0; base < count; base += kVL) {
    const uint32_t active = std::min(kVL, count - base);
    for (uint32_t l = 0; l < active; ++l) {
      const auto v = static_cast<uint16_t>(indexU8[base + l] + base);
      std::memcpy(indexU16 + uint64_t{base + l} * 2, &v, 2);
    }
  }
}

// LocalSort: per chunk, rank = bucketOffset[key] + lane - localOffset[key] (the chunk's
// exclusive sum, its low byte), sortedLocalIndex[rank] = the u16 index (Scatter, active lanes);
// bucketOffset (from the exclusive sum) then adds the chunk's counts.
void LocalSort(const uint8_t* srcU8, const uint8_t* indexU16, const uint8_t* exclusiveSum,
               uint8_t* sortedLocalIndex, uint32_t count) {
  std::array<uint16_t, 256> bucketOffset;
  std::memcpy(bucketOffset.data(), exclusiveSum, 512);
  for (uint32_t base = 0; base < count; base += kVL) {
    const uint32_t active = std::min(kVL, count - base);
    std::array<uint16_t, 256> dist{}, cum{};
    for (uint32_t l = 0; l < active; ++l) {
      ++dist[srcU8[base + l]];
      for (uint32_t b = srcU8[base + l]; b < 256; ++b) ++cum[b];
    }
    for (uint32_t l = 0; l < active; ++l) {
      const uint8_t key = srcU8[base + l];
      const auto localLow = static_cast<uint8_t>(cum[key] - dist[key]);
      const auto rank = static_cast<uint16_t>(bucketOffset[key] + l - localLow);
      uint16_t i16;
      std::memcpy(&i16, indexU16 + uint64_t{base + l} * 2, 2);
      const uint32_t i32 = i16;
      std::memcpy(sortedLocalIndex + uint64_t{rank} * 4, &i32, 4);
    }
    for (uint32_t b = 0; b < 256; ++b)
      bucketOffset[b] = static_cast<uint16_t>(bucketOffset[b] + dist[b]);
  }
}

// UpdateValueAndIndexByLocalIndex: value and index i from position sortedLocalIndex[i] (1 and
// 2-byte values gather by its low 16 bits).
void UpdateByLocalIndex(const uint8_t* prevValue, const uint8_t* prevIndex,
                        const uint8_t* sortedLocalIndex, uint8_t* currValue, uint8_t* currIndex,
                        uint32_t es, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t at;
    std::memcpy(&at, sortedLocalIndex + uint64_t{i} * 4, 4);
    const uint32_t vAt = es == 4 ? at : (at & 0xFFFF);
    std::memcpy(currValue + uint64_t{i} * es, prevValue + uint64_t{vAt} * es, es);
    std::memcpy(currIndex + uint64_t{i} * 4, prevIndex + uint64_t{at} * 4, 4);
  }
}

// Sort<U, int32_t, false, {RADIX_SORT, isDescend true}> (SortImpl with indexes, isReuseSource
// false) over k keys at src with their indexes at srcIdx, its sharedTmpBuffer at sortBuf
// (ArrangeCommonTmpBuffer): TwiddleInData (Not) of src to dst; per byte from the lowest,
// SortU8ElementsWithRound and UpdateValueAndIndexByLocalIndex, the value and index buffers
// swapped between the scratch's (srcForNextRound, currSortedDstIndex) and dst's; 1-byte keys
// one pass gathering the untwiddled src; else TwiddleOutData (Not) of dst.
void RadixSortDescend(const Case& c, const uint8_t* src, const uint8_t* srcIdx, uint8_t* sortBuf,
                      uint8_t* dst, uint8_t* dstIdx, uint32_t k) {
  const uint64_t all = AllOnes(c.es);
  const uint32_t align = (k + 31) / 32 * 32;
  uint8_t* exclusiveSum = sortBuf;
  uint8_t* srcU8 = sortBuf + 512;
  uint8_t* indexU16 = srcU8 + align;
  uint8_t* sortedLocalIndex = indexU16 + uint64_t{2} * align;
  uint8_t* srcU8Copy = sortedLocalIndex;
  uint8_t* indexU8 = srcU8Copy + align;
  uint8_t* currIndex = sortedLocalIndex + uint64_t{4} * align;
  uint8_t* currValue = currIndex + uint64_t{4} * align;
  uint8_t* prevIndex = dstIdx;
  uint8_t* prevValue = dst;
  for (uint32_t i = 0; i < k; ++i)
    Store(dst + uint64_t{i} * c.es, ~Load(src + uint64_t{i} * c.es, c.es) & all, c.es);
  auto sortU8 = [&](const uint8_t* value, uint32_t round) {
    GetExclusiveSum(value, c.es, srcU8, srcU8Copy, exclusiveSum, k, round);
    EightBitsSort(srcU8, srcU8Copy, indexU8, indexU16, k);
    LocalSort(srcU8, indexU16, exclusiveSum, sortedLocalIndex, k);
  };
  if (c.es == 1) {
    sortU8(dst, 0);
    UpdateByLocalIndex(src, srcIdx, sortedLocalIndex, dst, dstIdx, 1, k);
    return;
  }
  sortU8(dst, 0);
  UpdateByLocalIndex(dst, srcIdx, sortedLocalIndex, currValue, currIndex, c.es, k);
  for (uint32_t round = 1; round < c.es; ++round) {
    std::swap(currValue, prevValue);
    std::swap(currIndex, prevIndex);
    sortU8(prevValue, round);
    UpdateByLocalIndex(prevValue, prevIndex, sortedLocalIndex, currValue, currIndex, c.es, k);
  }
  for (uint32_t i = 0; i < k; ++i)
    Store(dst + uint64_t{i} * c.es, ~Load(dst + uint64_t{i} * c.es, c.es) & all, c.es);
}

// TopKRaidxSelect on one row.
void SelectRow(const Case& c, Images& im, uint64_t srcOff, uint64_t idxOff, bool idxInTmp,
               uint64_t dvOff, uint64_t diOff, uint64_t tmpBase) {
  const Ptrs p = Initialize(c, tmpBase);
  uint8_t* tmp = im.tmp.data();
  uint8_t* work = p.workIsSrc ? im.src.data() + srcOff : tmp + p.workData;
  if (PreProcess(c)) TwiddleIn(c, im.src.data() + srcOff, work, c.inner, !c.largest);
  int32_t remainK = static_cast<int32_t>(c.k);
  uint64_t kthValue = 0;
  for (uint32_t i = c.es; i > 0 && remainK > 0; --i) {
    Accumulate(c, work, tmp + p.hist, c.n, kthValue, i);
    uint16_t h[256];
    std::memcpy(h, tmp + p.hist, 512);
    const int32_t expValue = h[255] - remainK;
    int16_t left = 0, right = 255;
    bool found = false;
    while (left <= right) {
      const int16_t mid = static_cast<int16_t>(left + (right - left) / 2);
      if (h[mid] == expValue) {
        kthValue |= static_cast<uint64_t>(mid + 1) << ((i - 1) * 8);
        remainK = 0;
        found = true;
        break;
      } else if (h[mid] > expValue) {
        right = static_cast<int16_t>(mid - 1);
      } else {
        left = static_cast<int16_t>(mid + 1);
      }
    }
    if (!found) {
      if (right >= 0) {
        kthValue |= static_cast<uint64_t>(right + 1) << ((i - 1) * 8);
        remainK -= h[255] - h[right + 1];
      } else {
        remainK = h[0] - expValue;
      }
    }
  }
  kthValue &= AllOnes(c.es);  // ConvType's width
  GatherData(c, work, tmp + p.srcData, kthValue, c.n);
  const uint8_t* ids = (idxInTmp ? tmp : im.idx.data()) + idxOff;
  GatherIndex(c, work, ids, tmp + p.srcIndex, kthValue, c.n);
  uint8_t* dv = im.dv.data() + dvOff;
  if (c.sorted) {
    RadixSortDescend(c, tmp + p.srcData, tmp + p.srcIndex, tmp + p.sortBuf, dv,
                     im.di.data() + diOff, c.k);
  } else {
    std::memcpy(dv, tmp + p.srcData, uint64_t{c.k} * c.es);  // SaveData
    std::memcpy(im.di.data() + diOff, tmp + p.srcIndex, uint64_t{c.k} * 4);
  }
  if (PreProcess(c)) TwiddleOut(c, dv, c.k, !c.largest);
}

}  // namespace

void Run(const Case& c, Images& im) {
  const uint32_t kPad = (c.k + 32 / c.es - 1) / (32 / c.es) * (32 / c.es);  // GetKPad<T>
  const uint32_t indexKPad = (c.k + 7) / 8 * 8;                             // GetKPad<int32_t>
  uint64_t tmpBase = 0;  // initIndexTempBufferSize, in bytes
  if (!c.init) {
    // CreateVecIndex(0, inner) at tmp; TOPK_NSMALL: Copy to rows 1 .. outter-1.
    const uint32_t rows = c.nsmall ? c.outter : 1;
    for (uint32_t r = 0; r < rows; ++r) {
      for (uint32_t i = 0; i < c.inner; ++i) {
        const int32_t v = static_cast<int32_t>(i);
        std::memcpy(im.tmp.data() + (uint64_t{r} * c.inner + i) * 4, &v, 4);
      }
    }
    tmpBase = uint64_t{4} * c.inner * rows;
  }
  for (uint32_t i = 0; i < c.outter; ++i) {
    const uint64_t idxOff = c.nsmall ? uint64_t{i} * c.inner * 4 : 0;
    SelectRow(c, im, uint64_t{i} * c.inner * c.es, idxOff, !c.init, uint64_t{i} * kPad * c.es,
              uint64_t{i} * indexKPad * 4, tmpBase);
  }
  if (c.nsmall) {
    // SaveDataUnAlign: row j's k values (and indexes) loaded from j * kPad, stored at j * k.
    for (uint32_t j = 0; j < c.outter; ++j) {
      std::vector<uint8_t> v(im.dv.begin() + uint64_t{j} * kPad * c.es,
                             im.dv.begin() + (uint64_t{j} * kPad + c.k) * c.es);
      std::copy(v.begin(), v.end(), im.dv.begin() + uint64_t{j} * c.k * c.es);
      std::vector<uint8_t> x(im.di.begin() + uint64_t{j} * indexKPad * 4,
                             im.di.begin() + (uint64_t{j} * indexKPad + c.k) * 4);
      std::copy(x.begin(), x.end(), im.di.begin() + uint64_t{j} * c.k * 4);
    }
  }
}

void SortRadixDescend(uint32_t es, uint32_t count, Images& im) {
  Case c;
  c.es = es;
  c.kind = Kind::kUnsigned;
  RadixSortDescend(c, im.src.data(), im.idx.data(), im.tmp.data(), im.dv.data(), im.di.data(),
                   count);
}

}  // namespace lngrad_replay::topk3510radix
