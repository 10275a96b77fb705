// lngrad_replay: a small vector unit over a float image of a work buffer (mask register, Counter
// mode, repeat and block strides) and the kit's NZ row-reduction functions run on it, shared by the
// NZ work-buffer replays (replay_softmax_grad_nz_scratch.cpp, replay_softmax_nz_scratch.cpp). Read
// from the toolkit's impl/adv_api/detail/activation/softmax/: membase/common/
// softmax_common_nz_reduce.h (Reduce{Max,Sum}LastNZImpl, SingleUnAligned*,
// Reduce*SingleBlockNZImpl), softmax_common/softmax_common_reduce.h (Reduce{Max,Sum}BlockNZImpl),
// softmax_common/softmax_common_broadcast.h (BroadCastNZImpl, ContinuousColumnBrcbImpl,
// AlignedColumnBrcbImpl) and softmax_common.h (CreateSpecialFormatMask,
// BinaryComputeWithSpecialMask, UnaryComputeWithSpecialMask); instruction semantics of
// docs/ascendc_compat.md. No code shared with src/ or include/.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <type_traits>
#include <vector>

#include "replay_softmax.h"

namespace lngrad_replay::nz_vec {

inline constexpr uint32_t kNz = 16;   // SOFTMAX_SHAPE_NZ_BASIC_COUNT
inline constexpr uint32_t kRep = 64;  // FLOAT_REPEAT_SIZE
inline constexpr uint32_t kBlk = 8;   // FLOAT_NUM_PER_BLK
inline constexpr uint32_t kMaxRepeat = 255;

// A float operand: the work image from an element on.
struct Ref {
  std::vector<float>* w;
  uint64_t at;
  Ref operator[](uint64_t i) const { return {w, at + i}; }
};

struct BinaryParams {
  uint32_t dBlk, s0Blk, s1Blk, dRep, s0Rep, s1Rep;
};

// The vector unit over the image: mask register (Normal: bits; Counter: the count), and whether
// an access passed the end of the buffer.
struct Vec {
  bool counter = false;
  uint64_t maskLow = ~0ull;  // float data reads maskLow only
  bool bad = false;

  float& At(const Ref& r, uint64_t i) {
    static float sink;
    if (r.at + i >= r.w->size()) {
      bad = true;
      return sink;
    }
    return (*r.w)[r.at + i];
  }
  void SetMaskCount(uint64_t n) {
    counter = true;
    maskLow = n;
  }
  void SetMaskNorm() { counter = false; }
  void ResetMask() { maskLow = ~0ull; }
  // Element p of repeat q of an operand with these strides (in 32-byte blocks).
  static uint64_t Pos(uint32_t q, uint32_t p, uint32_t blk, uint32_t rep) {
    return uint64_t{q} * rep * kBlk + uint64_t{p / kBlk} * blk * kBlk + p % kBlk;
  }
  // The active positions of repeat q (repeats: Normal mode's count; Counter mode's from the count).
  uint32_t Repeats(uint32_t repeats) const {
    return counter ? static_cast<uint32_t>((maskLow + kRep - 1) / kRep) : repeats;
  }
  bool Active(uint32_t q, uint32_t p) const {
    return counter ? uint64_t{q} * kRep + p < maskLow : ((maskLow >> p) & 1u) != 0;
  }
  // dst = op(src0, src1) repeat by repeat, each repeat read before it is written.
  void Binary(const Ref& d, const Ref& s0, const Ref& s1, uint32_t repeats, const BinaryParams& bp,
              const std::function<float(float, float)>& op) {
    for (uint32_t q = 0; q < Repeats(repeats); ++q) {
      float out[kRep];
      for (uint32_t p = 0; p < kRep; ++p) {
        if (Active(q, p)) {
          out[p] = op(At(s0, Pos(q, p, bp.s0Blk, bp.s0Rep)), At(s1, Pos(q, p, bp.s1Blk, bp.s1Rep)));
        }
      }
      for (uint32_t p = 0; p < kRep; ++p) {
        if (Active(q, p)) At(d, Pos(q, p, bp.dBlk, bp.dRep)) = out[p];
      }
    }
  }
  // Muls(dst, src, 1.0) with {dstBlk, srcBlk, dstRep, srcRep}.
  void MulsOne(const Ref& d, const Ref& s, uint32_t repeats, uint32_t dBlk, uint32_t sBlk,
               uint32_t dRep, uint32_t sRep) {
    Binary(d, s, s, repeats, {dBlk, sBlk, sBlk, dRep, sRep, sRep},
           [](float a, float) { return a * 1.0f; });
  }
  // WholeReduceSum with a continuous mask of `len` lanes: masked lanes +0, the 64-lane pair tree,
  // one float per repeat at dst[q * dstRep].
  void WholeReduceSum(const Ref& d, const Ref& s, uint32_t len, uint32_t repeats, uint32_t dstRep,
                      uint32_t srcBlk, uint32_t srcRep) {
    for (uint32_t q = 0; q < repeats; ++q) {
      float x[kRep];
      for (uint32_t p = 0; p < kRep; ++p) x[p] = p < len ? At(s, Pos(q, p, srcBlk, srcRep)) : 0.0f;
      for (uint32_t n = kRep / 2; n >= 1; n /= 2) {
        for (uint32_t i = 0; i < n; ++i) x[i] = x[2 * i] + x[2 * i + 1];
      }
      At(d, uint64_t{q} * dstRep) = x[0];
    }
    maskLow = len >= kRep ? ~0ull : (1ull << len) - 1;  // the continuous mask stays set
  }
  // The max lane rule lngrad documents for WholeReduceMax / BlockReduceMax (docs/ascendc_compat.md,
  // "Max and min"; the NaN part its choice): the first NaN lane, else the largest, the lowest lane
  // among equal ones. Returns the lane.
  static uint32_t MaxLane(const float* x, uint32_t n) {
    for (uint32_t l = 0; l < n; ++l) {
      if (std::isnan(x[l])) return l;
    }
    uint32_t at = 0;
    for (uint32_t l = 1; l < n; ++l) at = x[l] > x[at] ? l : at;
    return at;
  }
  // WholeReduceMax (ORDER_VALUE_INDEX) with a continuous mask of `len` lanes: per repeat the value
  // and the lane's bits as a pair at dst[q * dstRep * 2] (dstRepStride in pairs).
  void WholeReduceMax(const Ref& d, const Ref& s, uint32_t len, uint32_t repeats, uint32_t dstRep,
                      uint32_t srcBlk, uint32_t srcRep) {
    for (uint32_t q = 0; q < repeats; ++q) {
      float x[kRep];
      for (uint32_t p = 0; p < len; ++p) x[p] = At(s, Pos(q, p, srcBlk, srcRep));
      const uint32_t lane = MaxLane(x, len);
      float bits = 0.0f;
      std::memcpy(&bits, &lane, sizeof bits);
      At(d, uint64_t{q} * dstRep * 2) = x[lane];
      At(d, uint64_t{q} * dstRep * 2 + 1) = bits;
    }
    maskLow = len >= kRep ? ~0ull : (1ull << len) - 1;
  }
  // BlockReduce{Sum,Max}: per repeat, each block with an active lane -> dst[q * dstRep * 8 + b]
  // (the sum: the 8-lane pair tree, inactive lanes +0; the max: MaxLane over the active lanes).
  void BlockReduce(const Ref& d, const Ref& s, uint32_t repeats, uint32_t dstRep, uint32_t srcBlk,
                   uint32_t srcRep, bool max) {
    for (uint32_t q = 0; q < Repeats(repeats); ++q) {
      float out[kBlk];
      bool any[kBlk] = {};
      for (uint32_t b = 0; b < kBlk; ++b) {
        float x[kBlk];
        uint32_t n = 0;
        for (uint32_t l = 0; l < kBlk; ++l) {
          const uint32_t p = b * kBlk + l;
          any[b] = any[b] || Active(q, p);
          if (max && Active(q, p)) x[n++] = At(s, Pos(q, p, srcBlk, srcRep));
          if (!max) x[l] = Active(q, p) ? At(s, Pos(q, p, srcBlk, srcRep)) : 0.0f;
        }
        out[b] = max ? (n == 0 ? 0.0f : x[MaxLane(x, n)])
                     : ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]));
      }
      for (uint32_t b = 0; b < kBlk; ++b) {
        if (any[b]) At(d, uint64_t{q} * dstRep * kBlk + b) = out[b];
      }
    }
  }
  // Duplicate<float, false>(dst, v, MASK_PLACEHOLDER, 1 repeat): the mask's lanes of one repeat.
  void Duplicate(const Ref& d, float v) {
    for (uint32_t p = 0; p < kRep; ++p) {
      if (((maskLow >> p) & 1u) != 0) At(d, p) = v;
    }
  }
};

// CreateSpecialFormatMask(mask, len, blocks): `len` low bits of each of `blocks` 16-bit groups.
inline uint64_t SpecialMask(uint32_t len, uint32_t blocks) {
  const uint64_t one = 0xFFFFull >> (kNz - len);
  uint64_t m = one;
  for (uint32_t i = 0; i + 1 < blocks; ++i) m = (m << kNz) | one;
  return m;
}

// ReduceLastND {originalSrcM, originalSrcK, srcM, srcK, dstM, dstK}.
struct ReduceLastNd {
  uint32_t originalSrcM, originalSrcK, srcM, srcK, dstM, dstK;
};

// BinaryComputeWithSpecialMask(dst, src0, src1, mask, lastLen, splitCount, op): the whole repeats
// (255 at a time) under `mask`, the tail repeat under CreateSpecialFormatMask(lastLen, rows).
inline void BinaryWithSpecialMask(Vec& v, const Ref& d, const Ref& s0, const Ref& s1, uint64_t mask,
                                  uint32_t lastLen, uint32_t splitCount,
                                  const std::function<float(float, float)>& op) {
  const uint32_t repeat = splitCount / kRep, tail = splitCount % kRep;
  const BinaryParams bp{1, 1, 1, 8, 8, 8};
  const uint64_t span = uint64_t{kMaxRepeat} * kRep;
  v.maskLow = mask;
  for (uint32_t i = 0; i < repeat / kMaxRepeat; ++i) {
    v.Binary(d[i * span], s0[i * span], s1[i * span], kMaxRepeat, bp, op);
  }
  if (repeat % kMaxRepeat != 0) {
    const uint64_t o = repeat / kMaxRepeat * span;
    v.Binary(d[o], s0[o], s1[o], repeat % kMaxRepeat, bp, op);
  }
  if (tail != 0) {
    v.maskLow = SpecialMask(lastLen, tail / kNz);
    const uint64_t o = uint64_t{repeat} * kRep;
    v.Binary(d[o], s0[o], s1[o], 1, bp, op);
  }
}
inline void AddWithSpecialMask(Vec& v, const Ref& d, const Ref& s0, const Ref& s1, uint64_t mask,
                               uint32_t lastLen, uint32_t splitCount) {
  BinaryWithSpecialMask(v, d, s0, s1, mask, lastLen, splitCount,
                        [](float a, float b) { return a + b; });
}

// The device's Max instruction: src0 > src1 ? src0 : src1 (src1 for a NaN or a zero tie).
inline float MaxOp(float a, float b) { return a > b ? a : b; }

// Reduce{Sum,Max}BlockNZImpl(dst, src, param).
inline void ReduceBlockNz(Vec& v, const Ref& d, const Ref& s, const ReduceLastNd& rp, bool max) {
  v.SetMaskCount(uint64_t{rp.srcM} * kBlk);
  v.Binary(d, s, s[kBlk], 1, {2, 2, 2, 16, 16, 16},
           [max](float a, float b) { return max ? MaxOp(a, b) : a + b; });
  v.BlockReduce(d, d, rp.srcM / kBlk, 16, 2, 16, max);
  v.SetMaskNorm();
  v.ResetMask();
}

// BroadCastNZImpl(dst, src, srcM): Muls of each group's first block over its 128 floats, then
// TransDataTo5HD (the 16 x 8 -> 8 x 16 transpose, see the header) of `repeat` groups.
inline void BroadCastNz(Vec& v, const Ref& d, const Ref& s, uint32_t srcM) {
  const auto repeat = static_cast<uint8_t>(srcM / kBlk);
  for (uint8_t i = 0; i < repeat; ++i) v.MulsOne(d[i * 2 * kRep], s[i * 2 * kRep], 2, 1, 0, 8, 0);
  for (uint32_t r = 0; r < repeat; ++r) {
    const uint64_t o = uint64_t{r} * 16 * kBlk;  // dst/srcRepStride 16 blocks (0 for one repeat)
    float in[16][kBlk];
    for (uint32_t k = 0; k < 16; ++k) {
      for (uint32_t l = 0; l < kBlk; ++l) in[k][l] = v.At(s, o + k * kBlk + l);
    }
    for (uint32_t j = 0; j < 16; ++j) {
      for (uint32_t l = 0; l < kBlk; ++l) v.At(d, o + j * kBlk + l) = in[(j % 2) * kBlk + l][j / 2];
    }
  }
}

// ContinuousColumnBrcbImpl (stride 1: the sums of a group of 8 rows side by side) and
// AlignedColumnBrcbImpl (stride brcbCount: one per row) with brcbCount = 16.
inline void ColumnBrcb(Vec& v, const Ref& d, const Ref& s, uint32_t repeat, uint32_t readStride) {
  v.maskLow = (1ull << kNz) - 1;  // SetVectorMask<float>(16)
  for (uint32_t g = 0; g * 8 < repeat; ++g) {
    const uint32_t n = repeat - g * 8 < 8 ? repeat - g * 8 : 8;
    const uint64_t off = uint64_t{g} * kNz * 8;
    float sc[8];
    for (uint32_t j = 0; j < n; ++j) sc[j] = v.At(s, off + j * readStride);
    for (uint32_t k = 0; k < n; ++k) v.Duplicate(d[off + k * kNz], sc[k]);
  }
}

// Reduce{Sum,Max}LastNZImpl(tmpBuffer1, tmpBuffer0, mask, param).
inline void ReduceLastNz(Vec& v, const Ref& t1, const Ref& t0, uint64_t mask,
                         const ReduceLastNd& rp, bool max) {
  const uint32_t splitOffset = rp.dstM * kNz, splitCount = rp.originalSrcM * kNz;
  const uint32_t blocks = rp.srcK / kNz;
  const uint32_t lastLen = rp.originalSrcK % kNz != 0 ? rp.originalSrcK % kNz : kNz;
  if (blocks == 1 && lastLen != kNz) {
    for (uint32_t j = 0; j * kMaxRepeat < rp.srcM; ++j) {  // Reduce*SingleBlockNZImpl
      const uint32_t n =
          rp.srcM - j * kMaxRepeat < kMaxRepeat ? rp.srcM - j * kMaxRepeat : kMaxRepeat;
      const uint64_t o = uint64_t{j} * kMaxRepeat * kNz;
      if (max) {  // dstRepStride DEFAULT_REPEAT_STRIDE (8) value/index pairs
        v.WholeReduceMax(t1[o], t0[o], lastLen, n, 8, 1, kNz / kBlk);
      } else {
        v.WholeReduceSum(t1[o], t0[o], lastLen, n, kNz, 1, kNz / kBlk);
      }
    }
    ColumnBrcb(v, t1, t1, rp.originalSrcM, kNz);  // AlignedColumnBrcbImpl
    v.ResetMask();
    return;
  }
  const auto op = [max](float a, float b) { return max ? MaxOp(a, b) : a + b; };
  if (blocks == 1) {
    ReduceBlockNz(v, t1, t0, rp, max);
  } else {
    v.SetMaskCount(splitCount);
    v.MulsOne(t1, t0, 1, 1, 1, 8, 8);
    for (uint32_t j = 1; j + 1 < blocks; ++j) {
      v.Binary(t1, t1, t0[uint64_t{splitOffset} * j], 1, {1, 1, 1, 8, 8, 8}, op);
    }
    v.SetMaskNorm();
    v.ResetMask();
    BinaryWithSpecialMask(v, t1, t1, t0[uint64_t{splitOffset} * (blocks - 1)], mask, lastLen,
                          splitCount, op);
    ReduceBlockNz(v, t1, t1, rp, max);
  }
  if (rp.originalSrcM % 8 == 0) {
    BroadCastNz(v, t1, t1, rp.originalSrcM);
  } else {
    ColumnBrcb(v, t1, t1, rp.originalSrcM, 1);  // ContinuousColumnBrcbImpl
    v.ResetMask();
  }
}

inline void ReduceSumLastNz(Vec& v, const Ref& t1, const Ref& t0, uint64_t mask,
                            const ReduceLastNd& rp) {
  ReduceLastNz(v, t1, t0, mask, rp, false);
}

template <class T>
T Out(float f, bool v200) {
  if constexpr (std::is_same_v<T, Half>) {
    return v200 ? FloatToHalf(f) : FloatToHalfRoundAway(f);
  } else {
    return f;
  }
}

}  // namespace lngrad_replay::nz_vec
