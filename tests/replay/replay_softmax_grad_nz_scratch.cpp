// The SoftmaxGrad / SoftmaxGradFront NZ work buffer on 2201 and 2002
// (replay_softmax_grad_nz_scratch.h): the kit's functions as it writes them, each instruction run
// over a float image of the buffer by a small vector unit (mask register, Counter mode, strides).
#include "replay_softmax_grad_nz_scratch.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <type_traits>

namespace lngrad_replay {
namespace {

constexpr uint32_t kNz = 16;   // SOFTMAX_SHAPE_NZ_BASIC_COUNT
constexpr uint32_t kRep = 64;  // FLOAT_REPEAT_SIZE
constexpr uint32_t kBlk = 8;   // FLOAT_NUM_PER_BLK
constexpr uint32_t kMaxRepeat = 255;

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
  // BlockReduceSum: per repeat, each block with an active lane -> dst[q * dstRep * 8 + b].
  void BlockReduceSum(const Ref& d, const Ref& s, uint32_t repeats, uint32_t dstRep,
                      uint32_t srcBlk, uint32_t srcRep) {
    for (uint32_t q = 0; q < Repeats(repeats); ++q) {
      float sums[kBlk];
      bool any[kBlk] = {};
      for (uint32_t b = 0; b < kBlk; ++b) {
        float x[kBlk];
        for (uint32_t l = 0; l < kBlk; ++l) {
          const uint32_t p = b * kBlk + l;
          any[b] = any[b] || Active(q, p);
          x[l] = Active(q, p) ? At(s, Pos(q, p, srcBlk, srcRep)) : 0.0f;
        }
        sums[b] = ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]));
      }
      for (uint32_t b = 0; b < kBlk; ++b) {
        if (any[b]) At(d, uint64_t{q} * dstRep * kBlk + b) = sums[b];
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
uint64_t SpecialMask(uint32_t len, uint32_t blocks) {
  const uint64_t one = 0xFFFFull >> (kNz - len);
  uint64_t m = one;
  for (uint32_t i = 0; i + 1 < blocks; ++i) m = (m << kNz) | one;
  return m;
}

// ReduceLastND {originalSrcM, originalSrcK, srcM, srcK, dstM, dstK}.
struct ReduceLastNd {
  uint32_t originalSrcM, originalSrcK, srcM, srcK, dstM, dstK;
};

// BinaryComputeWithSpecialMask(dst, src0, src1, mask, lastLen, splitCount, Add).
void AddWithSpecialMask(Vec& v, const Ref& d, const Ref& s0, const Ref& s1, uint64_t mask,
                        uint32_t lastLen, uint32_t splitCount) {
  const uint32_t repeat = splitCount / kRep, tail = splitCount % kRep;
  const BinaryParams bp{1, 1, 1, 8, 8, 8};
  const auto add = [](float a, float b) { return a + b; };
  const uint64_t span = uint64_t{kMaxRepeat} * kRep;
  v.maskLow = mask;
  for (uint32_t i = 0; i < repeat / kMaxRepeat; ++i) {
    v.Binary(d[i * span], s0[i * span], s1[i * span], kMaxRepeat, bp, add);
  }
  if (repeat % kMaxRepeat != 0) {
    const uint64_t o = repeat / kMaxRepeat * span;
    v.Binary(d[o], s0[o], s1[o], repeat % kMaxRepeat, bp, add);
  }
  if (tail != 0) {
    v.maskLow = SpecialMask(lastLen, tail / kNz);
    const uint64_t o = uint64_t{repeat} * kRep;
    v.Binary(d[o], s0[o], s1[o], 1, bp, add);
  }
}

// ReduceSumBlockNZImpl(dst, src, param).
void ReduceSumBlockNz(Vec& v, const Ref& d, const Ref& s, const ReduceLastNd& rp) {
  v.SetMaskCount(uint64_t{rp.srcM} * kBlk);
  v.Binary(d, s, s[kBlk], 1, {2, 2, 2, 16, 16, 16}, [](float a, float b) { return a + b; });
  v.BlockReduceSum(d, d, rp.srcM / kBlk, 16, 2, 16);
  v.SetMaskNorm();
  v.ResetMask();
}

// BroadCastNZImpl(dst, src, srcM): Muls of each group's first block over its 128 floats, then
// TransDataTo5HD (the 16 x 8 -> 8 x 16 transpose, see the header) of `repeat` groups.
void BroadCastNz(Vec& v, const Ref& d, const Ref& s, uint32_t srcM) {
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
void ColumnBrcb(Vec& v, const Ref& d, const Ref& s, uint32_t repeat, uint32_t readStride) {
  v.maskLow = (1ull << kNz) - 1;  // SetVectorMask<float>(16)
  for (uint32_t g = 0; g * 8 < repeat; ++g) {
    const uint32_t n = repeat - g * 8 < 8 ? repeat - g * 8 : 8;
    const uint64_t off = uint64_t{g} * kNz * 8;
    float sc[8];
    for (uint32_t j = 0; j < n; ++j) sc[j] = v.At(s, off + j * readStride);
    for (uint32_t k = 0; k < n; ++k) v.Duplicate(d[off + k * kNz], sc[k]);
  }
}

// ReduceSumLastNZImpl(tmpBuffer1, tmpBuffer0, mask, param).
void ReduceSumLastNz(Vec& v, const Ref& t1, const Ref& t0, uint64_t mask, const ReduceLastNd& rp) {
  const uint32_t splitOffset = rp.dstM * kNz, splitCount = rp.originalSrcM * kNz;
  const uint32_t blocks = rp.srcK / kNz;
  const uint32_t lastLen = rp.originalSrcK % kNz != 0 ? rp.originalSrcK % kNz : kNz;
  if (blocks == 1 && lastLen != kNz) {
    for (uint32_t j = 0; j * kMaxRepeat < rp.srcM; ++j) {  // ReduceSumSingleBlockNZImpl
      const uint32_t n =
          rp.srcM - j * kMaxRepeat < kMaxRepeat ? rp.srcM - j * kMaxRepeat : kMaxRepeat;
      const uint64_t o = uint64_t{j} * kMaxRepeat * kNz;
      v.WholeReduceSum(t1[o], t0[o], lastLen, n, kNz, 1, kNz / kBlk);
    }
    ColumnBrcb(v, t1, t1, rp.originalSrcM, kNz);  // AlignedColumnBrcbImpl
    v.ResetMask();
    return;
  }
  if (blocks == 1) {
    ReduceSumBlockNz(v, t1, t0, rp);
  } else {
    v.SetMaskCount(splitCount);
    v.MulsOne(t1, t0, 1, 1, 1, 8, 8);
    for (uint32_t j = 1; j + 1 < blocks; ++j) {
      v.Binary(t1, t1, t0[uint64_t{splitOffset} * j], 1, {1, 1, 1, 8, 8, 8},
               [](float a, float b) { return a + b; });
    }
    v.SetMaskNorm();
    v.ResetMask();
    AddWithSpecialMask(v, t1, t1, t0[uint64_t{splitOffset} * (blocks - 1)], mask, lastLen,
                       splitCount);
    ReduceSumBlockNz(v, t1, t1, rp);
  }
  if (rp.originalSrcM % 8 == 0) {
    BroadCastNz(v, t1, t1, rp.originalSrcM);
  } else {
    ColumnBrcb(v, t1, t1, rp.originalSrcM, 1);  // ContinuousColumnBrcbImpl
    v.ResetMask();
  }
}

template <class T>
T Out(float f, bool v200) {
  if constexpr (std::is_same_v<T, Half>) {
    return v200 ? FloatToHalf(f) : FloatToHalfRoundAway(f);
  } else {
    return f;
  }
}

// The kit's split functions over the image; src/grad/dst are the fractal arrays.
template <class T>
struct GradNz {
  const SmxTiling& t;
  const T* grad;
  const T* src;
  T* dst;
  uint64_t dstLen;
  std::vector<float>* w;
  bool v200;
  Vec v;

  Ref Work(uint64_t at) { return {w, at}; }
  // dst[i] = f, past dst's length an access the replay refuses.
  void Put(uint64_t i, T f) {
    if (i >= dstLen) {
      v.bad = true;
      return;
    }
    dst[i] = f;
  }
  uint64_t Fractal(uint32_t offset, uint32_t j) const {
    return offset + uint64_t{j} * t.srcM * kNz;
  }
  // Counter-mode elementwise over splitCount contiguous elements (strides 1 / 8).
  template <class F>
  void Each(uint32_t splitCount, F f) {
    for (uint32_t e = 0; e < splitCount; ++e) f(e);
  }

  // SoftMaxGradGenericNZImpl (half or float) for one split.
  void Grad(uint64_t mask, uint32_t offset, uint32_t splitCount, const ReduceLastNd& rp) {
    const uint32_t blocks = t.srcK / kNz, so = t.splitM * kNz;
    const uint64_t ss = t.splitSize;
    if constexpr (std::is_same_v<T, Half>) {
      const Ref b0 = Work(0), b1 = Work(ss), b2 = Work(2 * ss), b3 = Work(3 * ss);
      for (uint32_t j = 0; j < blocks; ++j) {
        Each(splitCount, [&](uint32_t e) {
          v.At(b0, so * j + e) = ToFloat(src[Fractal(offset, j) + e]);
          v.At(b1, so * j + e) = ToFloat(grad[Fractal(offset, j) + e]);
        });
      }
      for (uint32_t j = 0; j < blocks; ++j) {
        Each(splitCount, [&](uint32_t e) {
          v.At(b2, so * j + e) = v.At(b0, so * j + e) * v.At(b1, so * j + e);
        });
      }
      ReduceSumLastNz(v, b3, b2, mask, rp);
      for (uint32_t j = 0; j < blocks; ++j) {
        Each(splitCount,
             [&](uint32_t e) { v.At(b1, so * j + e) = v.At(b1, so * j + e) - v.At(b3, e); });
      }
      for (uint32_t j = 0; j < blocks; ++j) {
        Each(splitCount, [&](uint32_t e) {
          v.At(b2, so * j + e) = v.At(b1, so * j + e) * v.At(b0, so * j + e);
        });
      }
      for (uint32_t j = 0; j < blocks; ++j) {
        Each(splitCount,
             [&](uint32_t e) { Put(Fractal(offset, j) + e, Out<T>(v.At(b2, so * j + e), v200)); });
      }
    } else {
      const Ref b0 = Work(0), b1 = Work(ss);
      for (uint32_t j = 0; j < blocks; ++j) {
        Each(splitCount, [&](uint32_t e) {
          v.At(b0, so * j + e) = src[Fractal(offset, j) + e] * grad[Fractal(offset, j) + e];
        });
      }
      ReduceSumLastNz(v, b1, b0, mask, rp);
      for (uint32_t j = 0; j < blocks; ++j) {
        Each(splitCount, [&](uint32_t e) {
          v.At(b0, so * j + e) = grad[Fractal(offset, j) + e] - v.At(b1, e);
        });
      }
      for (uint32_t j = 0; j < blocks; ++j) {
        Each(splitCount, [&](uint32_t e) {
          Put(Fractal(offset, j) + e, v.At(b0, so * j + e) * src[Fractal(offset, j) + e]);
        });
      }
    }
  }

  // SoftMaxGradFrontGenericNZImpl (half or float) for one split.
  void Front(uint64_t mask, uint32_t offset1, uint32_t offset2, uint32_t splitCount,
             const ReduceLastNd& rp) {
    const uint32_t blocks = t.srcK / kNz, so = t.splitM * kNz;
    const uint64_t ss = t.splitSize;
    if constexpr (std::is_same_v<T, Half>) {
      const Ref b0 = Work(0), b1 = Work(ss), b2 = Work(2 * ss);
      for (uint32_t j = 0; j < blocks; ++j) {
        Each(splitCount, [&](uint32_t e) {
          v.At(b0, so * j + e) = ToFloat(src[Fractal(offset1, j) + e]);
          v.At(b1, so * j + e) = ToFloat(grad[Fractal(offset1, j) + e]);
        });
      }
      for (uint32_t j = 0; j < blocks; ++j) {
        Each(splitCount, [&](uint32_t e) {
          v.At(b0, so * j + e) = v.At(b0, so * j + e) * v.At(b1, so * j + e);
        });
      }
      ReduceSumLastNz(v, b2, b0, mask, rp);
      Each(splitCount, [&](uint32_t e) { Put(offset2 + e, Out<T>(v.At(b2, e), v200)); });
    } else {
      const Ref b0 = Work(0), b1 = Work(ss);
      for (uint32_t j = 0; j < blocks; ++j) {
        Each(splitCount, [&](uint32_t e) {
          v.At(b0, so * j + e) = src[Fractal(offset1, j) + e] * grad[Fractal(offset1, j) + e];
        });
      }
      ReduceSumLastNz(v, b1, b0, mask, rp);
      // DataCopy(dst[offset2], tmpBuffer1, {originalSrcM, 1, 1, 0}): 32 bytes of every 64.
      for (uint32_t r = 0; r < rp.originalSrcM; ++r) {
        for (uint32_t l = 0; l < kBlk; ++l)
          Put(offset2 + r * kBlk + l, v.At(b1, uint64_t{r} * 2 * kBlk + l));
      }
    }
  }
};

}  // namespace

template <class T>
bool ReplaySoftmaxGradNzWork(const SmxTiling& kt, uint32_t oriK, const T* grad, const T* src,
                             T* dst, std::vector<uint8_t>& work, bool isFront, bool v200) {
  std::vector<float> w(work.size() / sizeof(float));
  std::memcpy(w.data(), work.data(), w.size() * sizeof(float));
  const size_t dstLen = isFront ? size_t{kt.srcM} * (32 / sizeof(T)) : size_t{kt.srcM} * kt.srcK;
  std::vector<T> out(dst, dst + dstLen);
  GradNz<T> g{kt, grad, src, out.data(), out.size(), &w, v200, {}};
  const uint32_t lastLenK = kt.splitK % kNz != 0 ? kt.splitK % kNz : kNz;
  const uint64_t mask = SpecialMask(lastLenK, kRep / kNz);
  uint32_t splitCount = kt.splitM * kNz;
  if (isFront) {  // SoftmaxGradFrontNZImpl: originalSrcK = splitK
    const ReduceLastNd mainP{kt.splitM, kt.splitK, kt.splitM, kt.splitK, kt.splitM, kNz};
    const ReduceLastNd tailP{kt.tailM, kt.splitK, kt.splitM, kt.splitK, kt.splitM, kNz};
    for (uint32_t i = 0; i < kt.rangeM; ++i) {
      g.Front(mask, i * splitCount, i * kt.reduceSize, splitCount, mainP);
    }
    if (kt.tailM != 0) {
      const uint32_t o1 = kt.rangeM * splitCount, o2 = kt.rangeM * kt.reduceSize;
      g.Front(mask, o1, o2, kt.tailM * kNz, tailP);
    }
  } else {
    const ReduceLastNd mainP{kt.splitM, oriK, kt.splitM, kt.splitK, kt.splitM, kNz};
    const ReduceLastNd tailP{kt.tailM, oriK, kt.splitM, kt.splitK, kt.splitM, kNz};
    for (uint32_t i = 0; i < kt.rangeM; ++i) g.Grad(mask, i * splitCount, splitCount, mainP);
    if (kt.tailM != 0) g.Grad(mask, kt.rangeM * splitCount, kt.tailM * kNz, tailP);
  }
  if (g.v.bad) return false;
  std::memcpy(work.data(), w.data(), w.size() * sizeof(float));
  std::copy(out.begin(), out.end(), dst);
  return true;
}

template bool ReplaySoftmaxGradNzWork<float>(const SmxTiling&, uint32_t, const float*, const float*,
                                             float*, std::vector<uint8_t>&, bool, bool);
template bool ReplaySoftmaxGradNzWork<Half>(const SmxTiling&, uint32_t, const Half*, const Half*,
                                            Half*, std::vector<uint8_t>&, bool, bool);

}  // namespace lngrad_replay
