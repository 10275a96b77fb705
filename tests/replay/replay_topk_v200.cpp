// Replay of TopK on arch 2002, written from the kit's sources (mirror cann/asc-devkit HEAD):
// impl/adv_api/detail/sort/topk/topk_v200_impl.h (read whole: ProposalConcatValIdx,
// TmpLocalSort16, MrgSort4FourQueueSort, MrgSort4TwoQueueSort, ProposalExtractValIdx,
// CastIdxTypeToValType, TopKCompute, ProposalConcatValIdxSmall, CastIdxToInt,
// TopKNSmallGetFloatTopKValue / TopKNSmallGetHalfTopKValue, TopKNSmallCompute, CopyData),
// topk_common_impl.h (TopKNormal / TopKNSmall: the indexes by ArithProgression, the masks,
// the final Muls(-1) over maskOffset), topk_common_utils.h (the constants) and
// index/arithprogression/arithprogression_common_impl.h (for int32 and a count that is a multiple
// of 32 it leaves 0, 1, .., count - 1 and nothing else). A separate reading by the same helper
// who then wrote lngrad's lib/sort/topk_v200.h; it shares no code with include/ or src/.
//
// Instruction rules assumed (the vendor's pages do not give the order of ties or NaNs): RpSort16
// is an insertion in which a proposal moves before its neighbour only when its score is greater
// (so ties keep their order and a NaN keeps its place); MrgSort4 scans the queue heads in queue
// order, keeps the first, replaces it by a later head only when that score is greater, and takes
// the kept head. ProposalConcat / ProposalExtract move element `mode` of each 8-element proposal
// bit for bit. Cast int32 -> float and float -> half: nearest even (half overflows to inf);
// half -> float exact; float -> int32 CAST_ROUND: nearest, ties away from zero, saturating, NaN
// -> 0. Adds / Muls compute in float and round back to T (IEEE, no flushing). GatherMask in
// normal mode (reduceMode false): each repeat takes the lanes whose pattern bit is set, packed,
// and the rest of the repeats' range in dst is written with zeros (the rule lngrad's GatherMask
// states after the vendor's sample output).
#include "replay_topk_v200.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "replay.h"

namespace lngrad_replay::topk200 {
namespace {

struct Img {
  std::vector<uint8_t>& b;
  uint32_t U32(uint64_t at) const {
    uint32_t w;
    std::memcpy(&w, b.data() + at, 4);
    return w;
  }
  void PutU32(uint64_t at, uint32_t w) { std::memcpy(b.data() + at, &w, 4); }
  int32_t I32(uint64_t at) const { return static_cast<int32_t>(U32(at)); }
  void PutI32(uint64_t at, int32_t v) { PutU32(at, static_cast<uint32_t>(v)); }
  float F32(uint64_t at) const {
    float f;
    std::memcpy(&f, b.data() + at, 4);
    return f;
  }
  void PutF32(uint64_t at, float f) { std::memcpy(b.data() + at, &f, 4); }
  uint16_t U16(uint64_t at) const {
    uint16_t h;
    std::memcpy(&h, b.data() + at, 2);
    return h;
  }
  void PutU16(uint64_t at, uint16_t h) { std::memcpy(b.data() + at, &h, 2); }
};

// An element of T (half or float) at byte `at`, as float, and a float stored as T.
float Val(const Img& m, uint64_t at, bool half) {
  return half ? HalfToFloat(Half{m.U16(at)}) : m.F32(at);
}
void PutVal(Img& m, uint64_t at, float v, bool half) {
  if (half) {
    m.PutU16(at, FloatToHalf(v).bits);
  } else {
    m.PutF32(at, v);
  }
}

int32_t CastRound(float f) {
  if (std::isnan(f)) return 0;
  if (f >= 2147483648.0f) return INT32_MAX;
  if (f < -2147483648.0f) return INT32_MIN;
  return static_cast<int32_t>(std::round(f));  // ties away from zero
}

// Proposals: 8 elements of T; the score is element 4.
struct Seq {
  Io& io;
  const Call& c;
  const Tiling& t;
  Img tmp{io.tmp}, src{io.src}, idx{io.idx}, dv{io.dv}, di{io.di};
  uint64_t E = c.half ? 2 : 4;        // bytes of T
  uint64_t P = 8 * (c.half ? 2 : 4);  // bytes of a proposal

  float Score(uint64_t prop) const { return Val(tmp, prop + 4 * E, c.half); }

  // dst[i * E] = element `mode` of proposal i (extract) or the reverse (concat), n of them.
  void Extract(uint64_t flat, uint64_t props, uint64_t n, uint32_t mode) {
    for (uint64_t i = 0; i < n; ++i) {
      std::memmove(io.tmp.data() + flat + i * E, io.tmp.data() + props + i * P + mode * E, E);
    }
  }
  void Concat(uint64_t props, const std::vector<uint8_t>& from, uint64_t flat, uint64_t n,
              uint32_t mode) {
    for (uint64_t i = 0; i < n; ++i) {
      std::memmove(io.tmp.data() + props + i * P + mode * E, from.data() + flat + i * E, E);
    }
  }

  void RpSort16(uint64_t dst, uint64_t srcAt, uint32_t repeats) {
    std::vector<uint8_t> out(io.tmp.begin() + srcAt, io.tmp.begin() + srcAt + repeats * 16 * P);
    for (uint32_t r = 0; r < repeats; ++r) {
      std::vector<uint32_t> order;
      for (uint32_t i = 0; i < 16; ++i) {
        const float s = Score(srcAt + (r * 16 + i) * P);
        uint32_t at = static_cast<uint32_t>(order.size());
        order.push_back(i);
        while (at > 0 && s > Score(srcAt + (r * 16 + order[at - 1]) * P)) {
          order[at] = order[at - 1];
          --at;
        }
        order[at] = i;
      }
      for (uint32_t i = 0; i < 16; ++i) {
        std::memcpy(out.data() + (r * 16 + i) * P, io.tmp.data() + srcAt + (r * 16 + order[i]) * P,
                    P);
      }
    }
    std::memcpy(io.tmp.data() + dst, out.data(), out.size());
  }

  // MrgSort4 of `q` queues (starts in bytes, lengths in proposals), `repeats` times, the sources
  // and dst advancing by the total length each repeat.
  void Merge(uint64_t dst, const uint64_t* at, const uint32_t* len, uint32_t q, uint32_t repeats) {
    uint64_t total = 0;
    for (uint32_t i = 0; i < q; ++i) total += len[i];
    std::vector<uint8_t> out;
    for (uint32_t r = 0; r < repeats; ++r) {
      uint32_t pos[4] = {0, 0, 0, 0};
      while (true) {
        int best = -1;
        for (uint32_t i = 0; i < q; ++i) {
          if (pos[i] >= len[i]) continue;
          const uint64_t head = at[i] + r * total * P + pos[i] * P;
          if (best < 0 || Score(head) > Score(at[best] + r * total * P + pos[best] * P)) {
            best = static_cast<int>(i);
          }
        }
        if (best < 0) break;
        const uint64_t head = at[best] + r * total * P + pos[best] * P;
        out.insert(out.end(), io.tmp.begin() + head, io.tmp.begin() + head + P);
        ++pos[best];
      }
    }
    std::memcpy(io.tmp.data() + dst, out.data(), out.size());
  }

  void Copy(uint64_t dst, uint64_t from) {
    std::memmove(io.tmp.data() + dst, io.tmp.data() + from, t.copyUbToUbBlockCount * 32ull);
  }

  // CastIdxTypeToValType: `count` indexes (made in tmp, or srcIndexLocal's) to float and, for
  // half, to half in place, at T element `at`.
  void IdxToT(uint64_t count, uint64_t at) {
    const uint64_t b = at * E;
    for (uint64_t i = 0; i < count; ++i) {
      const int32_t v = c.initIndex ? idx.I32(i * 4) : tmp.I32(b + i * 4);
      tmp.PutF32(b + i * 4, static_cast<float>(v));
    }
    if (c.half) {
      for (uint64_t i = 0; i < count; ++i)
        tmp.PutU16(b + i * 2, FloatToHalf(tmp.F32(b + i * 4)).bits);
    }
  }

  void Normal();
  void NSmall();
  void GatherNormal(Img& dst, uint64_t srcAt, uint64_t lanes, uint64_t es, uint64_t pattern,
                    uint64_t repStrideBytes);
};

void Seq::Normal() {
  const uint64_t inner = static_cast<uint64_t>(c.inner), B = uint64_t(t.innerDataSize) * E;
  if (!c.initIndex) {
    for (uint64_t i = 0; i < inner; ++i)
      tmp.PutI32(uint64_t(t.srcIndexOffset) * E + 4 * i, int32_t(i));
  }
  IdxToT(inner, static_cast<uint64_t>(t.srcIndexOffset));
  for (int32_t j = 0; j < c.outter; ++j) {
    const uint64_t off = uint64_t(j) * inner * E;
    // TmpLocalSort16
    if (!c.largest) {
      for (uint64_t i = 0; i < inner; ++i)
        PutVal(tmp, B + i * E, Val(src, off + i * E, c.half) * -1.0f, c.half);
      Concat(0, io.tmp, B, uint64_t(t.sortRepeat) * 16, 4);
    } else {
      Concat(0, io.src, off, uint64_t(t.sortRepeat) * 16, 4);
    }
    Concat(0, io.tmp, uint64_t(t.srcIndexOffset) * E, uint64_t(t.sortRepeat) * 16, 0);
    RpSort16(B, 0, static_cast<uint32_t>(t.sortRepeat));
    Copy(0, B);
    // MrgSort4FourQueueSort
    uint32_t z = 16;
    int32_t dstIdx = 0, rounds = 0;
    for (; z * 4 <= static_cast<uint16_t>(c.inner); z *= 4) {
      const uint64_t s = rounds % 2 == 1 ? B : 0;
      dstIdx = (rounds + 1) % 2;
      const uint64_t d = dstIdx == 1 ? B : 0;
      ++rounds;
      const uint64_t at[4] = {s, s + z * uint64_t(t.mrgSortSrc1offset) * E,
                              s + z * uint64_t(t.mrgSortSrc2offset) * E,
                              s + z * uint64_t(t.mrgSortSrc3offset) * E};
      const uint32_t len[4] = {z, z, z, z};
      Merge(d, at, len, 4, static_cast<uint32_t>(t.mrgSortRepeat) / z);
      Copy(s, d);
    }
    // MrgSort4TwoQueueSort
    if (static_cast<int32_t>(z) < c.inner) {
      std::vector<uint32_t> runs;
      int32_t left = c.inner;
      for (int32_t i = static_cast<int32_t>(z); i >= 16; i /= 4) {
        const int32_t cnt = left / i;
        for (int32_t m = 0; m < cnt; ++m) runs.push_back(static_cast<uint32_t>(i));
        left -= cnt * i;
      }
      uint32_t merged = 0;
      const int32_t first = dstIdx;
      for (size_t i = 0; i + 1 < runs.size(); ++i) {
        const uint64_t s = (first + int32_t(i)) % 2 == 1 ? B : 0;
        dstIdx = (first + 1 + int32_t(i)) % 2;
        const uint64_t d = dstIdx == 1 ? B : 0;
        merged += runs[i];
        const uint64_t at[2] = {s, s + uint64_t(merged) * 8 * E};
        const uint32_t len[2] = {merged, runs[i + 1]};
        Merge(d, at, len, 2, 1);
      }
    }
    // ProposalExtractValIdx
    const uint64_t sorted = B * uint64_t(dstIdx), work = B * uint64_t(1 - dstIdx);
    const uint64_t kk = static_cast<uint64_t>(c.k), four = uint64_t(j) * t.kAlignFourBytes;
    Extract(work, sorted, uint64_t(t.sortRepeat) * 16, 4);
    const uint64_t vOff = c.half ? uint64_t(j) * t.kAlignTwoBytes : four;
    for (uint64_t i = 0; i < kk; ++i)
      PutVal(dv, (vOff + i) * E, Val(tmp, work + i * E, c.half) + 0.0f, c.half);
    Extract(work, sorted, uint64_t(t.sortRepeat) * 16, 0);
    uint64_t at = work;
    if (c.half) {
      at = work + inner * E;
      for (uint64_t i = 0; i < inner; ++i)
        tmp.PutF32(at + 4 * i, HalfToFloat(Half{tmp.U16(work + 2 * i)}));
    }
    for (uint64_t i = 0; i < inner; ++i) tmp.PutI32(at + 4 * i, CastRound(tmp.F32(at + 4 * i)));
    for (uint64_t i = 0; i < kk; ++i) di.PutI32((four + i) * 4, tmp.I32(at + 4 * i));
    if (c.hasFinish && io.fin[static_cast<size_t>(j)] != 0) {
      for (uint64_t i = 0; i < kk; ++i) di.PutI32((four + i) * 4, c.n);
    }
  }
}

// GatherMask, normal mode, src1RepeatStride 0: `lanes` elements of es bytes per repeat.
void Seq::GatherNormal(Img& dst, uint64_t srcAt, uint64_t lanes, uint64_t es, uint64_t pattern,
                       uint64_t repStrideBytes) {
  uint64_t kept = 0;
  for (int32_t r = 0; r < c.outter; ++r) {
    for (uint64_t p = 0; p < lanes; ++p) {
      if (((io.tmp[pattern + p / 8] >> (p % 8)) & 1u) == 0) continue;
      std::memmove(dst.b.data() + kept * es,
                   io.tmp.data() + srcAt + uint64_t(r) * repStrideBytes + p * es, es);
      ++kept;
    }
  }
  const uint64_t end = uint64_t(c.outter) * lanes;
  if (end > kept) std::memset(dst.b.data() + kept * es, 0, (end - kept) * es);
}

void Seq::NSmall() {
  const uint64_t all = static_cast<uint64_t>(t.allDataSize), B = uint64_t(t.innerDataSize) * E;
  const uint64_t IS = uint64_t(t.topkNSmallSrcIndexOffset) * E, SI = uint64_t(t.srcIndexOffset) * E;
  if (!c.initIndex) {
    for (int32_t i = 0; i < c.inner; ++i) tmp.PutI32(IS + 4 * uint64_t(i), i);
    for (int32_t r = 1; r < c.outter; ++r) {  // CopyData: Adds 0, row 0 to each row
      for (int32_t i = 0; i < c.inner; ++i)
        tmp.PutI32(IS + 4 * uint64_t(r * c.inner + i), tmp.I32(IS + 4 * uint64_t(i)));
    }
  }
  if (!c.largest) {
    for (uint64_t i = 0; i < all; ++i)
      PutVal(tmp, B + i * E, Val(src, i * E, c.half) * -1.0f, c.half);
  }
  IdxToT(all, static_cast<uint64_t>(t.topkNSmallSrcIndexOffset));
  const uint64_t props = uint64_t(t.sortRepeat) * 16;
  if (c.largest) {
    Concat(0, io.src, 0, props, 4);
  } else {
    Concat(0, io.tmp, B, props, 4);
  }
  Concat(0, io.tmp, IS, props, 0);
  RpSort16(B, 0, static_cast<uint32_t>(t.sortRepeat));
  if (c.n > 16) {
    for (int32_t j = 0; j < c.outter; ++j) {
      const uint64_t s = B + uint64_t(t.mrgSortSrc1offset) * uint64_t(j) * E;
      const uint64_t at[2] = {s, s + uint64_t(t.mrgSortTwoQueueSrc1Offset) * E};
      const uint32_t len[2] = {16, 16};
      Merge(uint64_t(t.mrgSortSrc1offset) * uint64_t(j) * E, at, len, 2, 1);
    }
  } else {
    Copy(0, B);
  }
  Extract(B, 0, props, 4);
  Extract(IS, 0, props, 0);
  // CastIdxToInt
  if (c.half) {
    for (uint64_t i = 0; i < all; ++i)
      tmp.PutF32(SI + 4 * i, HalfToFloat(Half{tmp.U16(IS + 2 * i)}));
  }
  for (uint64_t i = 0; i < all; ++i) tmp.PutI32(SI + 4 * i, CastRound(tmp.F32(SI + 4 * i)));
  if (!c.half) {
    for (int i = 0; i < 8; ++i) tmp.PutU32(4 * uint64_t(i), 0);
    tmp.PutU32(0, t.vreduceValMask0);
    GatherNormal(dv, B, 64, 4, 0, 128);
    GatherNormal(di, SI, 64, 4, 0, 128);
  } else {
    for (int i = 0; i < 8; ++i) tmp.PutU16(2 * uint64_t(i), 0);
    tmp.PutU16(0, static_cast<uint16_t>(t.vreduceValMask1));
    tmp.PutU16(2, static_cast<uint16_t>(t.vreduceValMask1));
    tmp.PutU16(0, static_cast<uint16_t>(t.vreduceValMask0));
    GatherNormal(dv, B, 128, 2, 0, 64);
    tmp.PutU32(0, 0);
    tmp.PutU32(4, 0);
    tmp.PutU32(0, t.vreduceIdxMask0);
    GatherNormal(di, SI, 64, 4, 0, 128);
  }
}

}  // namespace

void ReplayTopK200(Io& io, const Call& c, const Tiling& t) {
  Seq s{io, c, t};
  if (c.nsmall) {
    s.NSmall();
  } else {
    s.Normal();
  }
  if (!c.largest) {
    for (int32_t i = 0; i < t.maskOffset; ++i) {
      PutVal(s.dv, uint64_t(i) * s.E, Val(s.dv, uint64_t(i) * s.E, c.half) * -1.0f, c.half);
    }
  }
}

}  // namespace lngrad_replay::topk200
