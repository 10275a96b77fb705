// The replay of topk_3510_impl.h's radix select (see replay_topk_3510_radix.h): the kit's
// functions one by one on byte images, a vector register being 256 bytes.
#include "replay_topk_3510_radix.h"

#include <algorithm>
#include <array>
#include <cstring>

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

// Sort<U, int32_t, false, {RADIX_SORT, isDescend true}> over k keys with their indexes: Not,
// counting passes from the lowest byte (each stable), Not back.
void RadixSortDescend(const Case& c, const uint8_t* keys, const uint8_t* ids, uint8_t* dst,
                      uint8_t* dstIdx, uint32_t k) {
  const uint64_t all = AllOnes(c.es);
  std::vector<std::pair<uint64_t, int32_t>> cur(k);
  for (uint32_t i = 0; i < k; ++i) {
    cur[i].first = ~Load(keys + uint64_t{i} * c.es, c.es) & all;
    std::memcpy(&cur[i].second, ids + uint64_t{i} * 4, 4);
  }
  for (uint32_t pass = 0; pass < c.es; ++pass) {
    std::array<uint32_t, 257> start{};
    for (const auto& e : cur) ++start[((e.first >> (pass * 8)) & 0xFF) + 1];
    for (uint32_t b = 1; b < 257; ++b) start[b] += start[b - 1];
    std::vector<std::pair<uint64_t, int32_t>> next(k);
    for (const auto& e : cur) next[start[(e.first >> (pass * 8)) & 0xFF]++] = e;
    cur.swap(next);
  }
  for (uint32_t i = 0; i < k; ++i) {
    Store(dst + uint64_t{i} * c.es, ~cur[i].first & all, c.es);
    std::memcpy(dstIdx + uint64_t{i} * 4, &cur[i].second, 4);
  }
}

// TopKRaidxSelect on one row.
uint64_t SelectRow(const Case& c, Images& im, uint64_t srcOff, uint64_t idxOff, bool idxInTmp,
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
    RadixSortDescend(c, tmp + p.srcData, tmp + p.srcIndex, dv, im.di.data() + diOff, c.k);
  } else {
    std::memcpy(dv, tmp + p.srcData, uint64_t{c.k} * c.es);  // SaveData
    std::memcpy(im.di.data() + diOff, tmp + p.srcIndex, uint64_t{c.k} * 4);
  }
  if (PreProcess(c)) TwiddleOut(c, dv, c.k, !c.largest);
  return p.sortBuf;
}

}  // namespace

uint64_t Run(const Case& c, Images& im) {
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
  uint64_t sortBuf = 0;
  for (uint32_t i = 0; i < c.outter; ++i) {
    const uint64_t idxOff = c.nsmall ? uint64_t{i} * c.inner * 4 : 0;
    sortBuf = SelectRow(c, im, uint64_t{i} * c.inner * c.es, idxOff, !c.init,
                        uint64_t{i} * kPad * c.es, uint64_t{i} * indexKPad * 4, tmpBase);
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
  return c.sorted ? sortBuf : im.tmp.size();
}

}  // namespace lngrad_replay::topk3510radix
