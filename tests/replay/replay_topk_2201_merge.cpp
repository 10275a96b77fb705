// TopK on arch 2201 (replay_topk_2201_merge.h). Provenance: written by helper tk1 from the kit's
// impl/adv_api/detail/sort/topk/topk_common_impl.h, topk_v220_impl.h and topk_common_utils.h
// (mirror HEAD, read whole) and the 2201 branch of impl/adv_api/tiling/sort/topk_tiling_impl.cpp
// (for which fields the kernel reads), before lngrad's 2201 model (lib/sort/topk_2201.h) was
// written; the same helper then wrote that model, so this is a separate reading by the same
// person, not a second person's. lngrad's topk.h (its stable sort) had been read before.
//
// What it runs, per the kit:
// - TopKNormal: without isInitIndex the indexes 0 .. inner-1 as int32 at tmp[srcIndexOffset]
//   (ArithProgression); per row j (TopKCompute): TmpLocalSort32 (for the smallest, Muls(-1) of
//   the row into tmp[innerDataSize], counter mode, inner elements; Sort32 of sortRepeat runs
//   into tmp[0] from the row or that negated copy, with the made indexes or srcIndexLocal (row
//   0's, for every row); DataCopy of copyUbToUbBlockCount blocks tmp[0] -> tmp[innerDataSize]);
//   MrgFourQueueSort (z = 32, 128, ... while 4z <= inner: MrgSort of 4 queues of z, repeat
//   mrgSortRepeat / z, from the buffer (count odd ? B : A) to the other, then DataCopy of the
//   result back over the source); MrgTwoQueueSort (inner split greedily into runs of z, z / 4,
//   ..., 32; each following run merged with the merged prefix, both lengths capped at k, the
//   buffers alternating without a copy back); GatherDstValAndDstIdx (GatherMask, counter mode:
//   float pattern 1 over 2k, half pattern 3 over 4k, the index words by pattern 2 over 2k
//   floats, from the last merge's buffer); with isHasfinish and finishLocal[j] true, k indexes
//   set to n (Duplicate). Then for the smallest Muls(-1) of dstValue's first maskOffset
//   elements.
// - TopKNSmall: without isInitIndex the indexes 0 .. 31 at tmp[topkNSmallSrcIndexOffset],
//   copied to each of the outter rows (CopyData); for the smallest Muls(-1) of allDataSize
//   elements of src into tmp[innerDataSize]; one Sort32 of outter runs into tmp[0]; the pattern
//   words written by the scalar unit at tmp[topkMrgSrc1MaskSizeOffset] (float: uint32 words 0,
//   1 the value masks, 8, 9 the index masks; half: uint16 0 .. 7 the value masks, then uint32
//   words from half 16 the index masks); GatherMask of outter repeats (counter mode, 64 floats
//   or 128 halves each, the pattern the same for every repeat) for the values and the index
//   words, packed at row * k; for the smallest Muls(-1) of maskOffset dstValue elements.
// Instruction rules (the kit's sources do not state them; lngrad's sort_ops.h does, and this
// replay follows those): Sort32 builds 8-byte structures (score, for half bytes 2..3 zero, the
// index word at byte 4) and orders each run of 32 by insertion, a structure moving before its
// neighbour only when its score is greater; a merge scans the queues' heads in order, keeps
// the first and switches to a later head only when its score is greater. Muls by -1 flips a
// number's sign; a NaN's bits are left as they are here (the comparison takes any NaN there).
#include "replay_topk_2201_merge.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace lngrad_replay::topk2201 {
namespace {

uint32_t Word(const std::vector<uint8_t>& m, uint64_t at) {
  uint32_t w;
  std::memcpy(&w, m.data() + at, 4);
  return w;
}
void PutWord(std::vector<uint8_t>& m, uint64_t at, uint32_t w) {
  std::memcpy(m.data() + at, &w, 4);
}

float HalfValue(uint16_t h) {
  const uint32_t sign = h >> 15, e = (h >> 10) & 0x1Fu, man = h & 0x3FFu;
  float v;
  if (e == 0) {
    v = std::ldexp(static_cast<float>(man), -24);
  } else if (e == 31) {
    v = man != 0 ? NAN : INFINITY;
  } else {
    v = std::ldexp(static_cast<float>(man | 0x400u), static_cast<int>(e) - 25);
  }
  return sign != 0 ? -v : v;
}

// The score of T at byte `at`.
float Score(const std::vector<uint8_t>& m, uint64_t at, bool half) {
  if (!half) return std::bit_cast<float>(Word(m, at));
  uint16_t h;
  std::memcpy(&h, m.data() + at, 2);
  return HalfValue(h);
}

// Muls(x, -1) of `count` elements from byte `from` of `in` to byte `to` of `out`.
void Negate(std::vector<uint8_t>& out, uint64_t to, const std::vector<uint8_t>& in, uint64_t from,
            uint64_t count, bool half) {
  const uint32_t es = half ? 2 : 4;
  std::vector<uint8_t> v(in.begin() + static_cast<int64_t>(from),
                         in.begin() + static_cast<int64_t>(from + count * es));
  for (uint64_t i = 0; i < count; ++i) {
    if (!std::isnan(Score(v, i * es, half))) v[i * es + es - 1] ^= 0x80;
  }
  std::memcpy(out.data() + to, v.data(), v.size());
}

// Sort32: `repeat` runs of 32 scores (T at byte `from` of `in`) with index words (byte `ifrom`
// of `ids`), each sorted into 256 bytes of `out` from byte `to`.
void Sort32(std::vector<uint8_t>& out, uint64_t to, const std::vector<uint8_t>& in, uint64_t from,
            const std::vector<uint8_t>& ids, uint64_t ifrom, uint32_t repeat, bool half) {
  const uint32_t es = half ? 2 : 4;
  std::vector<uint8_t> result(uint64_t{repeat} * 256, 0);
  for (uint32_t r = 0; r < repeat; ++r) {
    std::vector<uint8_t> run(256, 0);
    for (uint32_t i = 0; i < 32; ++i) {
      std::memcpy(run.data() + i * 8, in.data() + from + (uint64_t{r} * 32 + i) * es, es);
      PutWord(run, i * 8 + 4, Word(ids, ifrom + (uint64_t{r} * 32 + i) * 4));
    }
    std::vector<uint32_t> order;
    for (uint32_t i = 0; i < 32; ++i) {
      size_t at = order.size();
      while (at > 0 && Score(run, i * 8, half) > Score(run, order[at - 1] * 8, half)) --at;
      order.insert(order.begin() + static_cast<int64_t>(at), i);
    }
    for (uint32_t i = 0; i < 32; ++i) {
      std::memcpy(result.data() + r * 256 + i * 8, run.data() + order[i] * 8, 8);
    }
  }
  std::memcpy(out.data() + to, result.data(), result.size());
}

// MrgSort of the queues `valid` names (byte offsets q[], lengths len[] in structures), `repeat`
// times (each repeat's queues `total` structures on), into byte `to` of the same image.
void MrgSort(std::vector<uint8_t>& m, uint64_t to, const uint64_t q[4], const uint32_t len[4],
             uint32_t valid, uint32_t repeat, bool half) {
  const std::vector<uint8_t> in = m;
  const uint64_t total = uint64_t{len[0]} + len[1] + len[2] + len[3];
  uint64_t out = to;
  for (uint32_t r = 0; r < repeat; ++r) {
    uint32_t pos[4] = {0, 0, 0, 0};
    for (;;) {
      int kept = -1;
      for (int k = 0; k < 4; ++k) {
        if (((valid >> k) & 1u) == 0 || pos[k] >= len[k]) continue;
        const uint64_t at = q[k] + (r * total + pos[k]) * 8;
        if (kept < 0 ||
            Score(in, at, half) > Score(in, q[kept] + (r * total + pos[kept]) * 8, half))
          kept = k;
      }
      if (kept < 0) break;
      std::memcpy(m.data() + out, in.data() + q[kept] + (r * total + pos[kept]) * 8, 8);
      out += 8;
      ++pos[kept];
    }
  }
}

// GatherMask, counter mode: `repeat` repeats of `per` elements of `es` bytes (repeat r from
// byte from + r * 256), element p kept when bit p of the pattern bytes is set (the same
// pattern every repeat: src1RepeatStride 0, or one repeat); the kept ones packed from byte `to`.
void Gather(std::vector<uint8_t>& out, uint64_t to, const std::vector<uint8_t>& in, uint64_t from,
            uint32_t es, uint32_t per, uint32_t repeat, const std::vector<uint8_t>& pattern) {
  uint64_t k = 0;
  for (uint32_t r = 0; r < repeat; ++r) {
    for (uint32_t p = 0; p < per; ++p) {
      if (((pattern[p / 8] >> (p % 8)) & 1u) == 0) continue;
      std::memcpy(out.data() + to + k * es, in.data() + from + uint64_t{r} * 256 + p * es, es);
      ++k;
    }
  }
}

// A built-in pattern over `per` elements: 1 every second from 0, 2 every second from 1, 3 every
// fourth from 0.
std::vector<uint8_t> Builtin(uint32_t mode, uint32_t per) {
  std::vector<uint8_t> b((per + 7) / 8, 0);
  for (uint32_t p = 0; p < per; ++p) {
    const bool on = mode == 1 ? p % 2 == 0 : mode == 2 ? p % 2 == 1 : p % 4 == 0;
    if (on) b[p / 8] |= static_cast<uint8_t>(1u << (p % 8));
  }
  return b;
}

void Normal(Images& io, const Shape& s, const Tiling& t) {
  const uint32_t es = s.half ? 2 : 4;
  const uint64_t inner = static_cast<uint64_t>(s.inner), k = static_cast<uint64_t>(s.k);
  const uint64_t made = uint64_t(t.srcIndexOffset) * es;
  if (!s.init) {
    for (uint64_t i = 0; i < inner; ++i) PutWord(io.tmp, made + i * 4, static_cast<uint32_t>(i));
  }
  const std::vector<uint8_t>& ids = s.init ? io.idx : io.tmp;
  const uint64_t ifrom = s.init ? 0 : made;
  const uint64_t bufB = uint64_t(t.innerDataSize) * es;  // buffer B's byte offset; A at 0
  const uint64_t copyBytes = uint64_t(t.copyUbToUbBlockCount) * 32;
  for (int32_t j = 0; j < s.outter; ++j) {
    // TmpLocalSort32
    const uint64_t row = uint64_t(j) * inner * es;
    if (!s.largest) {
      Negate(io.tmp, bufB, io.src, row, inner, s.half);
      Sort32(io.tmp, 0, io.tmp, bufB, ids, ifrom, static_cast<uint32_t>(t.sortRepeat), s.half);
    } else {
      Sort32(io.tmp, 0, io.src, row, ids, ifrom, static_cast<uint32_t>(t.sortRepeat), s.half);
    }
    std::memmove(io.tmp.data() + bufB, io.tmp.data(), copyBytes);
    // MrgFourQueueSort
    int32_t count = 0, dstIdx = 0;
    uint32_t z = 32;
    for (; z * 4 <= static_cast<uint16_t>(s.inner); z *= 4) {
      const uint64_t src = count % 2 == 1 ? bufB : 0;
      dstIdx = (count + 1) % 2;
      const uint64_t dst = dstIdx == 1 ? bufB : 0;
      ++count;
      const uint64_t q[4] = {src, src + uint64_t(z) * t.mrgSortSrc1offset * es,
                             src + uint64_t(z) * t.mrgSortSrc2offset * es,
                             src + uint64_t(z) * t.mrgSortSrc3offset * es};
      const uint32_t len[4] = {z, z, z, z};
      MrgSort(io.tmp, dst, q, len, 0b1111, static_cast<uint32_t>(t.mrgSortRepeat) / z, s.half);
      std::memmove(io.tmp.data() + src, io.tmp.data() + dst, copyBytes);
    }
    // MrgTwoQueueSort
    if (z < static_cast<uint32_t>(s.inner)) {
      std::vector<uint32_t> runs;
      uint32_t left = static_cast<uint32_t>(s.inner);
      for (uint32_t i = z; i >= 32; i /= 4) {
        const uint32_t c = left / i;
        for (uint32_t r = 0; r < c; ++r) runs.push_back(i);
        left -= c * i;
      }
      uint32_t sorted = 0;
      for (size_t i = 0; i + 1 < runs.size(); ++i) {
        const uint64_t src = (count + static_cast<int32_t>(i)) % 2 == 1 ? bufB : 0;
        dstIdx = (count + 1 + static_cast<int32_t>(i)) % 2;
        const uint64_t dst = dstIdx == 1 ? bufB : 0;
        sorted += runs[i];
        const uint64_t q[4] = {src, src + uint64_t(sorted) * t.mrgSortTwoQueueSrc1Offset * es, src,
                               src};
        const uint32_t len[4] = {static_cast<uint32_t>(std::min<uint64_t>(sorted, k)),
                                 static_cast<uint32_t>(std::min<uint64_t>(runs[i + 1], k)), 0, 0};
        MrgSort(io.tmp, dst, q, len, 0b0011, 1, s.half);
      }
    }
    // GatherDstValAndDstIdx
    const uint64_t from = uint64_t(t.innerDataSize) * dstIdx * es;
    const uint64_t four = uint64_t(j) * t.kAlignFourBytes;
    if (!s.half) {
      Gather(io.dv, four * 4, io.tmp, from, 4, static_cast<uint32_t>(t.maskVreducev2FourBytes), 1,
             Builtin(1, static_cast<uint32_t>(t.maskVreducev2FourBytes)));
    } else {
      Gather(io.dv, uint64_t(j) * t.kAlignTwoBytes * 2, io.tmp, from, 2,
             static_cast<uint32_t>(t.maskVreducev2TwoBytes), 1,
             Builtin(3, static_cast<uint32_t>(t.maskVreducev2TwoBytes)));
    }
    Gather(io.di, four * 4, io.tmp, from, 4, static_cast<uint32_t>(t.maskVreducev2FourBytes), 1,
           Builtin(2, static_cast<uint32_t>(t.maskVreducev2FourBytes)));
    if (s.finish && io.fin[static_cast<size_t>(j)] != 0) {
      for (uint64_t i = 0; i < k; ++i) PutWord(io.di, (four + i) * 4, static_cast<uint32_t>(s.n));
    }
  }
  if (!s.largest) Negate(io.dv, 0, io.dv, 0, static_cast<uint64_t>(t.maskOffset), s.half);
}

void NSmall(Images& io, const Shape& s, const Tiling& t) {
  const uint32_t es = s.half ? 2 : 4;
  const uint32_t rows = static_cast<uint32_t>(s.outter);
  const uint64_t made = uint64_t(t.topkNSmallSrcIndexOffset) * es;
  if (!s.init) {
    for (uint64_t r = 0; r < rows; ++r) {
      for (uint64_t i = 0; i < 32; ++i) PutWord(io.tmp, made + (r * 32 + i) * 4, uint32_t(i));
    }
  }
  const uint64_t neg = uint64_t(t.innerDataSize) * es;
  if (!s.largest) {
    Negate(io.tmp, neg, io.src, 0, static_cast<uint64_t>(t.allDataSize), s.half);
    Sort32(io.tmp, 0, io.tmp, neg, s.init ? io.idx : io.tmp, s.init ? 0 : made, rows, s.half);
  } else {
    Sort32(io.tmp, 0, io.src, 0, s.init ? io.idx : io.tmp, s.init ? 0 : made, rows, s.half);
  }
  const uint64_t masks = uint64_t(t.topkMrgSrc1MaskSizeOffset) * es;
  std::vector<uint8_t> valPattern, idxPattern(8);
  uint64_t idxAt;
  if (!s.half) {
    PutWord(io.tmp, masks, t.vreduceValMask0);
    PutWord(io.tmp, masks + 4, t.vreduceValMask1);
    PutWord(io.tmp, masks + 32, t.vreduceIdxMask0);
    PutWord(io.tmp, masks + 36, t.vreduceIdxMask1);
    valPattern.assign(io.tmp.begin() + static_cast<int64_t>(masks),
                      io.tmp.begin() + static_cast<int64_t>(masks + 8));
    idxAt = masks + 32;
  } else {
    for (uint64_t i = 0; i < 8; ++i)
      std::memcpy(io.tmp.data() + masks + i * 2, &t.halfValMask[i], 2);
    PutWord(io.tmp, masks + 32, t.vreduceIdxMask0);
    PutWord(io.tmp, masks + 36, t.vreduceIdxMask1);
    valPattern.assign(io.tmp.begin() + static_cast<int64_t>(masks),
                      io.tmp.begin() + static_cast<int64_t>(masks + 16));
    idxAt = masks + 32;
  }
  idxPattern.assign(io.tmp.begin() + static_cast<int64_t>(idxAt),
                    io.tmp.begin() + static_cast<int64_t>(idxAt + 8));
  Gather(io.dv, 0, io.tmp, 0, es, s.half ? 128 : 64, rows, valPattern);
  Gather(io.di, 0, io.tmp, 0, 4, 64, rows, idxPattern);
  if (!s.largest) Negate(io.dv, 0, io.dv, 0, static_cast<uint64_t>(t.maskOffset), s.half);
}

}  // namespace

void ReplayTopK2201(Images& io, const Shape& s, const Tiling& t) {
  if (s.nsmall) {
    NSmall(io, s, t);
  } else {
    Normal(io, s, t);
  }
}

namespace {

// GenerateBinary10 / 01 / 0001: k copies of the bit group.
uint32_t Repeat(uint32_t group, uint32_t width, int32_t k) {
  uint32_t m = group;
  for (int32_t i = 1; i < k; ++i) m = (m << width) | m;
  return m;
}

void VreduceMasks(int32_t k, bool half, Tiling& t) {
  if (k < 17) t.vreduceIdxMask0 = Repeat(2, 2, k);
  if (k >= 17 && k <= 32) {
    t.vreduceIdxMask0 = 2863311530u;
    t.vreduceIdxMask1 = Repeat(2, 2, k - 16);
  }
  if (!half) {
    if (k < 17) t.vreduceValMask0 = Repeat(1, 2, k);
    if (k >= 17 && k <= 32) {
      t.vreduceValMask0 = Repeat(1, 2, 16);
      t.vreduceValMask1 = Repeat(1, 2, k - 16);
    }
    return;
  }
  // vreducehalfValMask i: the groups of element 4i+1 .. 4i+4 that k reaches.
  t.halfValMask[0] = static_cast<uint16_t>(k < 5 ? Repeat(1, 4, k) : 4369u);
  for (int32_t i = 1; i < 8; ++i) {
    const int32_t from = 4 * i, left = k - from;
    if (k >= from + 1) {
      t.halfValMask[i] = static_cast<uint16_t>(Repeat(1, 4, left >= 4 ? 4 : left));
    }
  }
}

}  // namespace

Tiling KitTiling2201(const Shape& s) {
  Tiling t;
  const int32_t inner = s.inner, outter = s.outter, k = s.k, es = s.half ? 2 : 4;
  t.allDataSize = inner * outter;
  t.kAlignFourBytes = (k + 7) / 8 * 8;
  if (!s.nsmall) {
    t.kAlignTwoBytes = (k + 15) / 16 * 16;
    t.tmpLocalSize = 4 * inner;
    t.innerDataSize = 2 * inner;
    t.copyUbToUbBlockCount = inner * 2 * 4 / 32;
    t.sortRepeat = inner / 32;
    t.mrgSortRepeat = inner / 4;
    t.maskOffset = outter * t.kAlignFourBytes;
    t.maskVreducev2FourBytes = 2 * k;
    t.maskVreducev2TwoBytes = 4 * k;
    t.mrgSortSrc1offset = 2;
    t.mrgSortSrc2offset = 4;
    t.mrgSortSrc3offset = 6;
    t.mrgSortTwoQueueSrc1Offset = 2;
    if (s.half) {
      t.tmpLocalSize = 8 * inner;
      t.maskOffset = outter * t.kAlignTwoBytes;
      t.innerDataSize = 4 * inner;
      t.mrgSortSrc1offset = 4;
      t.mrgSortSrc2offset = 8;
      t.mrgSortSrc3offset = 12;
      t.mrgSortTwoQueueSrc1Offset = 4;
    }
    if (!s.init) {
      t.tmpLocalSize = s.half ? 10 * inner : 5 * inner;
      t.srcIndexOffset = s.half ? 8 * inner : 4 * inner;
    }
    return t;
  }
  t.innerDataSize = inner * outter * (8 / es);
  t.maskOffset = outter * k;
  t.topkMrgSrc1MaskSizeOffset = t.innerDataSize + (s.largest ? 0 : inner * outter);
  t.tmpLocalSize = t.topkMrgSrc1MaskSizeOffset + 64 / es;
  if (!s.init) {
    t.topkNSmallSrcIndexOffset = t.tmpLocalSize;
    t.tmpLocalSize += inner * outter * 4 / es;
  }
  VreduceMasks(k, s.half, t);
  return t;
}

bool ScratchScoreAt(const Shape& s, const Tiling& t, uint64_t at) {
  const uint32_t es = s.half ? 2 : 4;
  const uint64_t structs = uint64_t(t.innerDataSize) * es;  // one buffer of structures
  if (s.nsmall) {
    if (at < structs) return at % 8 == 0;
    return !s.largest && at < structs + uint64_t(t.allDataSize) * es && at % es == 0;
  }
  return at < 2 * structs && at % 8 == 0;
}

}  // namespace lngrad_replay::topk2201
