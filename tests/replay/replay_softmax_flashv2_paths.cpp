// SoftmaxFlashV2's isBasicBlock work buffer on 2201 and 2002 (session 24: the `__NPU_ARCH__ ==
// 2002` branches, AlignedBrcbImpl loops and Adds of 0 for the Copies), replayed one
// vector instruction at a time over a float image of the scratch (see
// replay_softmax_flashv2_paths.h for the files read). Built with lngrad_strict_fp: every
// operation rounds alone.
#include "replay_softmax_flashv2_paths.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

namespace lngrad_replay {
namespace {

constexpr uint32_t kRep = 64;  // FLOAT_REPEAT_SIZE
constexpr uint32_t kBlk = 8;   // FLOAT_NUM_PER_BLK

float MaxOf(float a, float b) { return a > b ? a : b; }  // the device's Max, operand order kept
float SumOf(float a, float b) { return a + b; }
using BinFn = float (*)(float, float);

// The scratch image: `cap` floats, of which the first `n` are the buffer; writes are tracked so
// that a footprint past the buffer is found.
struct Image {
  std::vector<float> w;
  uint64_t n = 0, high = 0;
  float* At(uint64_t i) { return w.data() + i; }
  void Note(const float* p, uint64_t count) {
    if (p >= w.data() && p < w.data() + w.size()) {
      high = std::max<uint64_t>(high, static_cast<uint64_t>(p - w.data()) + count);
    }
  }
};

// The 8 lanes of one block. BlockReduceMax: the first NaN lane, else the first lane holding the
// largest value (+0 and -0 tie), as lngrad documents the lane reduction (reduce_ops.h; the kit
// does not say; session 22). BlockReduceSum: the replay library's pair tree (level by level).
float Block(const float* v, BinFn op) {
  if (op == MaxOf) {
    float best = v[0];
    for (int i = 1; i < 8 && !std::isnan(best); ++i) {
      if (std::isnan(v[i]) || v[i] > best) best = v[i];
    }
    return best;
  }
  float a[4], b[2];
  for (int i = 0; i < 4; ++i) a[i] = op(v[2 * i], v[2 * i + 1]);
  for (int i = 0; i < 2; ++i) b[i] = op(a[2 * i], a[2 * i + 1]);
  return op(b[0], b[1]);
}

// BlockReduce{Max,Sum}<float, false>(dst, src, repeat, full mask, dstRepStride 1, srcBlkStride 1,
// srcRepStride 8): repeat q reads src[64q, 64q + 64) and then writes dst[8q, 8q + 8).
void BlockReduce(Image& im, float* dst, const float* src, uint32_t repeat, BinFn op) {
  for (uint32_t q = 0; q < repeat; ++q) {
    float out[kBlk];
    for (uint32_t b = 0; b < kBlk; ++b) out[b] = Block(src + q * kRep + b * kBlk, op);
    std::memcpy(dst + q * kBlk, out, sizeof out);
    im.Note(dst + q * kBlk, kBlk);
  }
}

// A full-mask binary instruction: repeat q, lane l of block b: dst[q*dr + b*db + l] =
// op(a[q*ar + b*ab + l], c[q*cr + b*cb + l]) (strides in floats), each repeat read then written.
struct Strides {
  uint32_t db, ab, cb, dr, ar, cr;
};
void Binary(Image& im, float* dst, const float* a, const float* c, uint32_t repeat,
            const Strides& s, BinFn op) {
  for (uint32_t q = 0; q < repeat; ++q) {
    float out[kRep];
    for (uint32_t b = 0; b < kBlk; ++b) {
      for (uint32_t l = 0; l < kBlk; ++l) {
        out[b * kBlk + l] = op(a[q * s.ar + b * s.ab + l], c[q * s.cr + b * s.cb + l]);
      }
    }
    for (uint32_t b = 0; b < kBlk; ++b) {
      std::memcpy(dst + q * s.dr + b * s.db, out + b * kBlk, kBlk * sizeof(float));
      im.Note(dst + q * s.dr + b * s.db, kBlk);
    }
  }
}
constexpr Strides kDense{kBlk, kBlk, kBlk, kRep, kRep, kRep};

// Brcb(dst, src, repeat, {1, 8}): repeat q broadcasts src[8q + b] over block b of dst[64q..).
void Brcb(Image& im, float* dst, const float* src, uint32_t repeat) {
  for (uint32_t q = 0; q < repeat; ++q) {
    for (uint32_t b = 0; b < kBlk; ++b) {
      for (uint32_t l = 0; l < kBlk; ++l) dst[q * kRep + b * kBlk + l] = src[q * kBlk + b];
    }
    im.Note(dst + q * kRep, kRep);
  }
}

// 2002's branch instead: for (j < ceilM) AlignedBrcbImpl(dst[step j], src[8 j], per): the 8
// values GetValue-d first, then Duplicate of value b over `per` floats at dst[step j + per b].
void AlignedBrcbLoop(Image& im, float* dst, const float* src, uint32_t ceilM, uint32_t step,
                     uint32_t per) {
  for (uint32_t j = 0; j < ceilM; ++j) {
    float scalars[kBlk];
    for (uint32_t b = 0; b < kBlk; ++b) scalars[b] = src[kBlk * j + b];
    for (uint32_t b = 0; b < kBlk; ++b) {
      for (uint32_t l = 0; l < per; ++l) dst[step * j + per * b + l] = scalars[b];
      im.Note(dst + step * j + per * b, per);
    }
  }
}

// The statistics broadcast of a split: Brcb(dst, src, ceilM, {1, 8}) on 2201, the
// AlignedBrcbImpl loop (8 floats a value, groups 64 apart) on 2002.
void BrcbArch(Image& im, float* dst, const float* src, uint32_t ceilM, bool on2002) {
  if (on2002) {
    AlignedBrcbLoop(im, dst, src, ceilM, kRep, kBlk);
  } else {
    Brcb(im, dst, src, ceilM);
  }
}

float ExpOf(float x) { return static_cast<float>(std::exp(static_cast<double>(x))); }
float AddsZero(float v) { return v + 0.0f; }  // 2002's Adds(dst, src, 0, n) for 2201's Copy

// BasicBlockReduce{Max,Sum}Impl(dst, src, tmp, splitK / 64, m, k).
void BasicReduce(Image& im, float* dst, const float* src, float* tmp, uint32_t m, uint32_t k,
                 BinFn op) {
  const uint32_t blocks = k / kRep, ceilM = (m + kBlk - 1) / kBlk;
  if (k == 512) {  // SpecialBasicBlock*Impl: [m, 512] -> [m, 64] -> [m, 8] -> [m, 1]
    // splitM arrives as a uint8_t; its 8 splitM repeats fill the instruction's 8-bit field.
    BlockReduce(im, tmp, src, static_cast<uint8_t>(m * kBlk), op);
    BlockReduce(im, tmp, tmp, m, op);
    BlockReduce(im, dst, tmp, ceilM, op);
    return;
  }
  if (k == 1024) {  // [8, 1024] -> [8, 128] -> [8, 16] -> [8, 8] -> [8, 1], whatever m
    BlockReduce(im, tmp, src, 2 * kRep, op);
    BlockReduce(im, tmp, tmp, 2 * kBlk, op);
    Binary(im, tmp, tmp, tmp + kBlk, 1, {kBlk, 2 * kBlk, 2 * kBlk, kRep, 2 * kRep, 2 * kRep}, op);
    BlockReduce(im, dst, tmp, 1, op);
    return;
  }
  if (blocks == 1) {
    BlockReduce(im, tmp, src, m, op);
  } else if (k > 512) {  // BigBlockReduce*: per row 8 BlockReduce repeats, then chunks 8..
    for (uint32_t i = 0; i < m; ++i) BlockReduce(im, tmp + kRep * i, src + i * k, kBlk, op);
    for (uint32_t j = 0; j < m && blocks > kBlk; ++j) {
      Binary(im, tmp + j * kRep, src + 512 + j * k, tmp + j * kRep, blocks - kBlk,
             {kBlk, kBlk, kBlk, 0, kRep, 0}, op);
    }
    BlockReduce(im, tmp, tmp, m, op);
  } else {  // BasicBlock{Max,Add}Impl, offset = the row's floats
    Binary(im, tmp, src, src + kRep, m, {kBlk, kBlk, kBlk, kRep, k, k}, op);
    if (m > blocks) {
      for (uint32_t i = 2; i < blocks; ++i) {
        Binary(im, tmp, tmp, src + kRep * i, m, {kBlk, kBlk, kBlk, kRep, kRep, k}, op);
      }
    } else {
      for (uint32_t j = 0; j < m; ++j) {
        Binary(im, tmp + j * kRep, src + 2 * kRep + blocks * kRep * j, tmp + j * kRep, blocks - 2,
               {kBlk, kBlk, kBlk, 0, kRep, 0}, op);
      }
    }
    BlockReduce(im, tmp, tmp, m, op);
  }
  BlockReduce(im, dst, tmp, ceilM, op);
}

// The Sub of each 64-column chunk j over m rows: x[r, 64j + 8b + l] op= stat[8r + l] (src1 block
// stride 0, repeat stride 1 block).
void SubRows(Image& im, float* dst, const float* src, const float* stat, uint32_t m, uint32_t k) {
  for (uint32_t j = 0; j < k / kRep; ++j) {
    Binary(im, dst + kRep * j, src + kRep * j, stat, m, {kBlk, kBlk, 0, k, k, kBlk},
           [](float a, float b) { return a - b; });
  }
}

void Unary(Image& im, float* dst, const float* src, uint64_t n, float (*f)(float)) {
  for (uint64_t i = 0; i < n; ++i) dst[i] = f(src[i]);
  im.Note(dst, n);
}

}  // namespace

bool ReplayFlashV2BasicScratch(const SmxTiling& t, bool update, const FlashV2BasicIo& io,
                               uint8_t* scratch, uint32_t bytes, bool on2002) {
  const uint32_t m = t.splitM, k = t.splitK;
  // Not replayed: splitM above 255 (the uint8_t splitM of the Sub and the reductions) and the
  // Sub's repeat stride splitK / 8 past 255 blocks (its rows overlap). Session 23 (bb): splitM
  // not a multiple of 8 runs as the kit's instructions do: the last BlockReduce's ceil(M / 8)
  // repeats read tmpBuffer1's floats past the split's 8 M (what the scratch held), the Brcbs
  // and the update's reduceCeilValue repeats write 64 ceil(M / 8) floats of each statistic
  // (io's arrays must hold them past the last split), split by split in order.
  if (m == 0 || t.rangeM == 0 || k % kRep != 0 || t.reduceK != kBlk || t.reduceSize != m * kBlk ||
      t.splitSize != m * k || m > 255 || k / kBlk > 255) {
    return false;
  }
  Image im;
  im.n = bytes / 4;
  im.w.assign(im.n + 2048 + uint64_t{kRep} * m * 2, 0.0f);
  std::memcpy(im.w.data(), scratch, bytes);
  float* w = im.At(0);
  const uint32_t ceilM = (m + kBlk - 1) / kBlk, rcv = (t.reduceSize + kRep - 1) / kRep;
  const uint64_t rows = uint64_t{m} * kRep;  // tmpBuffer2's offset
  // repeatTimes = (uint8_t)(splitSize / 64): the Exp over the split runs that many repeats.
  const uint64_t expN = uint64_t{static_cast<uint8_t>(t.splitSize / kRep)} * kRep;
  for (uint32_t i = 0; i < t.rangeM; ++i) {
    const uint64_t o1 = uint64_t{i} * t.splitSize, o2 = uint64_t{i} * t.reduceSize;
    float* src = io.src + o1;
    float* dst = io.dst + o1;
    if (!update) {  // SoftmaxFlashV2NoUpdateBasicBlock (float)
      BasicReduce(im, w + rows, src, w, m, k, MaxOf);
      BrcbArch(im, io.max + o2, w + rows, ceilM, on2002);
      SubRows(im, src, src, io.max + o2, m, k);
      Unary(im, dst, src, expN, ExpOf);
      BasicReduce(im, w + rows, dst, w, m, k, SumOf);
      BrcbArch(im, io.expSum + o2, w + rows, ceilM, on2002);
      continue;
    }
    // SoftmaxFlashV2BasicBlockImpl (float): tmpBuffer1 at 0, tmpBuffer2 at 64 m, tmpBuffer3 at
    // 32 m.
    float* b2 = w + rows;
    float* b3 = w + rows / 2;
    BasicReduce(im, b2, src, w, m, k, MaxOf);
    BrcbArch(im, w, b2, ceilM, on2002);
    if (on2002) {  // Adds(tmpBuffer2, inMax, 0, reduceSize)
      Unary(im, b2, io.inMax + o2, t.reduceSize, AddsZero);
    } else {
      Unary(im, b2, io.inMax + o2, uint64_t{rcv} * kRep, [](float v) { return v; });  // Copy
    }
    Binary(im, io.max + o2, b2, w, rcv, kDense, MaxOf);
    SubRows(im, dst, src, io.max + o2, m, k);
    Binary(im, b2, b2, io.max + o2, rcv, kDense, [](float a, float b) { return a - b; });
    Unary(im, io.expMax + o2, b2, uint64_t{rcv} * kRep, ExpOf);
    Unary(im, dst, dst, expN, ExpOf);
    BasicReduce(im, b3, dst, w, m, k, SumOf);
    BrcbArch(im, w, b3, ceilM, on2002);
    Binary(im, io.inExpSum + o2, io.expMax + o2, io.inExpSum + o2, rcv, kDense,
           [](float a, float b) { return a * b; });
    Binary(im, io.expSum + o2, io.inExpSum + o2, w, rcv, kDense, SumOf);
  }
  if (im.high > im.n) return false;
  std::memcpy(scratch, im.w.data(), bytes);
  return true;
}

namespace {

// Brcb(dst, src, ceilM, {2, 16}) then Brcb(dst + 8, ...): 16 floats a row, row r at 16 r.
void Brcb16(Image& im, float* dst, const float* src, uint32_t repeat) {
  for (uint32_t q = 0; q < repeat; ++q) {
    for (uint32_t b = 0; b < kBlk; ++b) {
      for (uint32_t l = 0; l < 2 * kBlk; ++l)
        dst[q * 2 * kRep + b * 2 * kBlk + l] = src[q * kBlk + b];
    }
    im.Note(dst + q * 2 * kRep, 2 * kRep);
  }
}

// Half statistics: Brcb16 on 2201; on 2002 AlignedBrcbImpl(tmpBuffer1[128 j], src[8 j], 16).
void Brcb16Arch(Image& im, float* dst, const float* src, uint32_t repeat, bool on2002) {
  if (on2002) {
    AlignedBrcbLoop(im, dst, src, repeat, 2 * kRep, 2 * kBlk);
  } else {
    Brcb16(im, dst, src, repeat);
  }
}

// Cast<half, float> (FLOAT2HALF_ROUND_MODE: 2201's CAST_ROUND, nearest with ties away; 2002's
// membase/v200 CAST_NONE, nearest even) of n floats into T, or a float store.
template <class T>
void Store(T* dst, const float* src, uint64_t n, bool on2002) {
  for (uint64_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, Half>) {
      dst[i] = on2002 ? FloatToHalf(src[i]) : FloatToHalfRoundAway(src[i]);
    } else {
      dst[i] = src[i];
    }
  }
}
template <class T>
void Load(Image& im, float* dst, const T* src, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) dst[i] = ToFloat(src[i]);
  im.Note(dst, n);
}

// The Sub of each 64-column chunk over m rows with the row's statistics `pitch` floats apart
// (src1 block stride 0, repeat stride pitch / 8 blocks): x[r, 64j + 8b + l] -= stat[pitch r + l].
void SubRowsPitch(Image& im, float* x, const float* stat, uint32_t m, uint32_t k, uint32_t pitch) {
  for (uint32_t j = 0; j < k / kRep; ++j) {
    Binary(im, x + kRep * j, x + kRep * j, stat, m, {kBlk, kBlk, 0, k, k, pitch},
           [](float a, float b) { return a - b; });
  }
}

float SubOf(float a, float b) { return a - b; }
float MulOf(float a, float b) { return a * b; }

}  // namespace

template <class S>
bool ReplayFlashV2BasicScratchHalf(const SmxTiling& t, bool update, const FlashV2BasicHalfIo<S>& io,
                                   uint8_t* scratch, uint32_t bytes, bool on2002) {
  constexpr bool kHalfStats = std::is_same_v<S, Half>;
  constexpr uint32_t ls = kHalfStats ? 16 : 8;
  const uint32_t m = t.splitM, k = t.splitK;
  // Session 25 (bbu): splitM not a multiple of 8 is replayed but for splitK 1024 with splitM
  // below 8 (its 8-row reductions read past the split's float copy) and the update's splitM
  // below 4 (half statistics) or of 1 (float), whose Brcbs overwrite their own source.
  if (m == 0 || t.rangeM == 0 || k % kRep != 0 || t.reduceK != ls || t.reduceSize != m * ls ||
      t.splitSize != m * k || m > 255 || k / kBlk > 255 || (k == 1024 && m < kBlk) ||
      (update && m < (kHalfStats ? 4u : 2u))) {
    return false;
  }
  const uint64_t sz = t.splitSize, rs = t.reduceSize;
  // repeatTimes = (uint8_t)(splitSize / 64): the Casts of src and dst and the Exp over the split
  // run that many repeats (the rest of the float copy: what the scratch held).
  const uint64_t expN = uint64_t{static_cast<uint8_t>(sz / kRep)} * kRep;
  Image im;
  im.n = bytes / 4;
  im.w.assign(im.n + sz + 128 * uint64_t{m} + 2048, 0.0f);
  std::memcpy(im.w.data(), scratch, bytes);
  float* b0 = im.At(0);
  float* b2 = im.At(sz);
  float* b1 = im.At(sz + rs);
  float* b3 = b1 + 32 * uint64_t{m};  // tmpBuffer3 (half statistics) / inSumTmp (float)
  const uint32_t ceilM = (m + kBlk - 1) / kBlk, rcv = static_cast<uint32_t>((rs + kRep - 1) / kRep);
  const uint64_t rn = uint64_t{rcv} * kRep;
  std::vector<float> stat(rn);  // the float statistics tensors' values (max, expSum)
  for (uint32_t i = 0; i < t.rangeM; ++i) {
    const uint64_t o1 = uint64_t{i} * sz, o2 = uint64_t{i} * rs;
    Load(im, b0, io.src + o1, expN);  // Cast<float, half>
    if (!update) {
      BasicReduce(im, b2, b0, b1, m, k, MaxOf);
      if constexpr (kHalfStats) {
        Brcb16Arch(im, b1, b2, ceilM, on2002);
        Store(io.max + o2, b1, rn, on2002);
        SubRowsPitch(im, b0, b1, m, k, 2 * kBlk);
      } else {
        BrcbArch(im, stat.data(), b2, ceilM, on2002);  // into maxTensor: 64 ceil(M / 8) floats
        Store(io.max + o2, stat.data(), rn, on2002);
        SubRowsPitch(im, b0, stat.data(), m, k, kBlk);
      }
      Unary(im, b0, b0, expN, ExpOf);
      Store(io.dst + o1, b0, expN, on2002);
      BasicReduce(im, b2, b0, b1, m, k, SumOf);
      if constexpr (kHalfStats) {
        Brcb16Arch(im, b1, b2, ceilM, on2002);
        Store(io.expSum + o2, b1, rn, on2002);
      } else {
        BrcbArch(im, stat.data(), b2, ceilM, on2002);
        Store(io.expSum + o2, stat.data(), rn, on2002);
      }
      continue;
    }
    if constexpr (kHalfStats) {  // SoftmaxFlashV2BasicBlockImpl (half)
      BasicReduce(im, b3, b0, b1, m, k, MaxOf);
      Brcb16Arch(im, b1, b3, ceilM, on2002);
      Load(im, b2, io.inMax + o2, rn);
      Binary(im, b3, b2, b1, rcv, kDense, MaxOf);
      Store(io.max + o2, b3, rn, on2002);
      Binary(im, b2, b2, b3, rcv, kDense, SubOf);
      Unary(im, b2, b2, rn, ExpOf);
      Store(io.expMax + o2, b2, rn, on2002);
      SubRowsPitch(im, b0, b3, m, k, 2 * kBlk);
      Unary(im, b0, b0, expN, ExpOf);
      Store(io.dst + o1, b0, expN, on2002);
      BasicReduce(im, b3, b0, b1, m, k, SumOf);
      Brcb16Arch(im, b1, b3, ceilM, on2002);
      Load(im, b3, io.inExpSum + o2, rn);
      Binary(im, b3, b2, b3, rcv, kDense, MulOf);
      Binary(im, b3, b3, b1, rcv, kDense, SumOf);
      Store(io.expSum + o2, b3, rn, on2002);
      continue;
    }
    // SoftmaxFlashV2BasicBlock (half data, float statistics): inMaxTmp = b2, inSumTmp = b3.
    BasicReduce(im, b2, b0, b1, m, k, MaxOf);
    BrcbArch(im, b1, b2, ceilM, on2002);
    // Copy of reduceCeilValue repeats (2002: Adds 0 over reduceSize floats); past reduceSize
    // (splitM not a multiple of 8) it runs into tmpBuffer1's Brcb-ed max.
    Load(im, b2, io.inMax + o2, on2002 ? rs : rn);
    for (uint64_t p = 0; on2002 && p < rs; ++p) b2[p] = AddsZero(b2[p]);
    Binary(im, stat.data(), b2, b1, rcv, kDense, MaxOf);
    Store(io.max + o2, stat.data(), rn, on2002);
    SubRowsPitch(im, b0, stat.data(), m, k, kBlk);
    Binary(im, b2, b2, stat.data(), rcv, kDense, SubOf);
    Unary(im, b2, b2, rn, ExpOf);
    // The two Copies {2, 1, 16, 8} (2002: two Adds of 0 in Counter mode over reduceSize floats,
    // the same strides): 16 floats a row. One after the other, each repeat reading its 64 floats
    // before writing (past reduceSize b2 is tmpBuffer1, which the first Copy has written).
    const uint64_t nCopy = on2002 ? rs : rn;
    for (uint32_t half2 = 0; half2 < 2; ++half2) {
      for (uint32_t q = 0; q < rcv; ++q) {
        float v[kRep];
        for (uint32_t p = 0; p < kRep; ++p) v[p] = b2[q * kRep + p];
        for (uint32_t p = 0; p < kRep && q * kRep + p < nCopy; ++p) {
          b1[q * 2 * kRep + p / kBlk * 2 * kBlk + half2 * kBlk + p % kBlk] =
              on2002 ? AddsZero(v[p]) : v[p];
        }
        im.Note(b1 + q * 2 * kRep, 2 * kRep);
      }
    }
    Store(io.expMax + o2 * 2, b1, 2 * rn, on2002);
    Unary(im, b0, b0, expN, ExpOf);
    Store(io.dst + o1, b0, expN, on2002);
    BasicReduce(im, b3, b0, b1, m, k, SumOf);
    BrcbArch(im, b1, b3, ceilM, on2002);
    std::vector<float> inSum(rn);
    for (uint64_t p = 0; p < rn; ++p) inSum[p] = ToFloat(io.inExpSum[o2 + p]);
    Binary(im, b3, b2, inSum.data(), rcv, kDense, MulOf);
    Binary(im, stat.data(), b3, b1, rcv, kDense, SumOf);
    Store(io.expSum + o2, stat.data(), rn, on2002);
  }
  if (im.high > im.n) return false;
  std::memcpy(scratch, im.w.data(), bytes);
  return true;
}

template bool ReplayFlashV2BasicScratchHalf<Half>(const SmxTiling&, bool,
                                                  const FlashV2BasicHalfIo<Half>&, uint8_t*,
                                                  uint32_t, bool);
template bool ReplayFlashV2BasicScratchHalf<float>(const SmxTiling&, bool,
                                                   const FlashV2BasicHalfIo<float>&, uint8_t*,
                                                   uint32_t, bool);

}  // namespace lngrad_replay
