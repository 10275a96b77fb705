// ReduceMean<half, AR> on 2201 with what it leaves in dst, src and sharedTmpBuffer
// (replay_reduce_ar_mean_half_scratch.h). Provenance: a separate reading, by the helper (rp) who
// then changed lngrad to match, written before lngrad's half ReduceMean AR code, of the
// toolkit's (mirror HEAD) impl/adv_api/detail/reduce/reduce_mean/reduce_mean_v220_impl.h
// (ReduceMeanImpl), reduce_sum/reduce_sum_v220_impl.h (ReduceSumCommon, ReduceSumArReusedSrc/
// UnReusedSrc, ReduceSumArCompute, ReduceSumInLargeLast, ReduceSumComputeTail,
// ReduceSumComputeSliceAAxis/RAxis) and reduce_common_util_v220_impl.h (BlkReduceForLoop,
// ReduceParams), with the constants B32_DATA_NUM_PER_BLOCK 8 and B32_DATA_NUM_PER_REPEAT 64.
// What the source does with T = half (elePerBlk = 16, but the steps keep the float constants):
// - padLast = last rounded up to 16; splitK = the largest power of two <= last, 0 when last <=
//   16; tail = last - splitK; p = max(16, splitK), halved when last == splitK.
// - last <= 8: BlkReduceForLoop: per 16-half block (a row) the lane tree of its first `last`
//   lanes, 255 repeats of 8 blocks a call, the whole calls all at offset 0.
// - last <= 64: WholeReduceSum, mask `last`, one repeat (128 lanes) per row.
// - else rows in groups of 248 (dst + 248g, src + 248g * padLast, the work area (the scratch, or
//   src reusing it) + 248g * 64 halves): not reusing, a DataCopy of `rows` bursts of p / 8 blocks
//   (2p halves) with gaps of (padLast - p) / 8 blocks: work[2p r ..] = src row 2r's first 2p
//   halves. The tail add (tailLen = tail, or padLast - p when tail == 0): when (tailLen / 64 +
//   (tailLen % 64 != 0)) < rows and p / 8 <= 255, per 64-lane slice an Add over `rows` repeats
//   (normal mask of 64 or the rest), work strides p / 8 blocks (reusing padLast / 8), src's
//   padLast / 8, each a uint8_t, a block 16 halves; else one counter-mode Add of tailLen per row
//   (work row r at r * p, reusing r * padLast; src row r + p). Reusing, a DataCopy then moves
//   bursts of 2p halves from 2r * padLast to 2p r. PairReduceSum (counter) over rows * k halves
//   while k (from p) > 64, k halved; BlockReduceSum of rows * 64 halves into the first rows * 4;
//   BlockReduceSum of rows * 8 halves into dst: ceil(rows / 2) results.
// - Muls of dst[0..first) by (half)(1.0f / int32_t(last)).
// Instructions, as the basic API pages give them: each half operation rounds once (nearest even;
// a float sum of two halves rounds to half as the exact sum would); a repeat reads its lanes
// before it stores, repeats in order; BlockReduceSum the adjacent-pair tree of a block's 16
// lanes, masked lanes +0; WholeReduceSum the 128-lane adjacent-pair tree, masked lanes +0;
// PairReduceSum stores lane 2k + lane 2k+1 at k; DataCopy moves 32-byte blocks in order.
#include "replay_reduce_ar_mean_half_scratch.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace lngrad_replay {
namespace {

constexpr uint32_t kH = 16;   // halves per block
constexpr uint32_t kL = 128;  // halves per repeat
constexpr uint32_t kG = 248;  // rows per ReduceSumInLargeLast call

Half HAdd(Half a, Half b) { return FloatToHalf(HalfToFloat(a) + HalfToFloat(b)); }

// The adjacent-pair tree of n (a power of two) lanes, each sum rounded to half.
Half Tree(Half* v, uint32_t n) {
  for (uint32_t w = n; w > 1; w /= 2) {
    for (uint32_t i = 0; i < w / 2; ++i) v[i] = HAdd(v[2 * i], v[2 * i + 1]);
  }
  return v[0];
}

struct Buf {
  Half* p;
  uint64_t n;
  bool* bad;
  Half& At(uint64_t i) const {
    static Half sink;
    if (i >= n) {
      *bad = true;
      return sink;
    }
    return p[i];
  }
  Buf Off(uint64_t o) const { return Buf{p + o, o <= n ? n - o : 0, bad}; }
};

struct Params {
  uint32_t first, last, pad, tail, p;
  bool reuse;
};

// DataCopy of `count` bursts of `len` blocks, the source's gaps `gap` blocks, none between the
// destination's.
void Copy(const Buf& d, const Buf& s, uint32_t count, uint32_t len, uint32_t gap) {
  for (uint64_t c = 0; c < count; ++c) {
    for (uint64_t i = 0; i < uint64_t{len} * kH; ++i) {
      d.At(c * len * kH + i) = s.At(c * (len + gap) * kH + i);
    }
  }
}

// Counter-mode Add of n halves: d = a + b, per 128-lane repeat reads before stores.
void CounterAdd(const Buf& d, const Buf& a, const Buf& b, uint32_t n) {
  Half v[kL];
  for (uint32_t base = 0; base < n; base += kL) {
    const uint32_t lanes = std::min(kL, n - base);
    for (uint32_t l = 0; l < lanes; ++l) v[l] = HAdd(a.At(base + l), b.At(base + l));
    for (uint32_t l = 0; l < lanes; ++l) d.At(base + l) = v[l];
  }
}

void Tail(const Params& q, const Buf& w, const Buf& s, uint32_t rows) {
  const uint32_t tailLen = (q.tail == 0 && q.p > 0) ? q.pad - q.p : q.tail;
  const uint32_t nFull = tailLen / 64, rem = tailLen % 64;
  const bool slice = (nFull + (rem > 0 ? 1 : 0)) < rows && q.last > 64 && q.p / 8 <= 255;
  if (slice) {
    const uint8_t wRep = static_cast<uint8_t>((q.reuse ? q.pad : q.p) / 8);
    const uint8_t sRep = static_cast<uint8_t>(q.pad / 8);
    for (uint32_t i = 0; i <= nFull; ++i) {
      const uint32_t lanes = i < nFull ? 64 : rem;
      if (lanes == 0) break;
      const Buf wd = w.Off(i * 64), sa = s.Off(q.p + i * 64);
      Half v[64];
      for (uint64_t r = 0; r < rows; ++r) {
        for (uint32_t l = 0; l < lanes; ++l) {
          v[l] = HAdd(wd.At(r * wRep * kH + l), sa.At(r * sRep * kH + l));
        }
        for (uint32_t l = 0; l < lanes; ++l) wd.At(r * wRep * kH + l) = v[l];
      }
    }
  } else {
    for (uint64_t r = 0; r < rows; ++r) {
      const Buf wr = w.Off(r * (q.reuse ? q.pad : q.p));
      CounterAdd(wr, wr, s.Off(r * q.pad + q.p), tailLen);
    }
  }
  if (q.reuse) Copy(w, w, rows, q.p / 8, (q.pad - q.p) / 8);
}

void LargeLast(const Params& q, const Buf& d, const Buf& s, const Buf& w, uint32_t rows) {
  if (!q.reuse) Copy(w, s, rows, q.p / 8, (q.pad - q.p) / 8);
  Tail(q, w, s, rows);
  for (uint64_t k = q.p; k > 64; k >>= 1) {
    const uint64_t n = uint64_t{rows} * k;
    for (uint64_t i = 0; i < n / 2; ++i) w.At(i) = HAdd(w.At(2 * i), w.At(2 * i + 1));
  }
  Half blk[kH];
  for (uint64_t b = 0; b < uint64_t{rows} * 64 / kH; ++b) {
    for (uint32_t l = 0; l < kH; ++l) blk[l] = w.At(b * kH + l);
    w.At(b) = Tree(blk, kH);
  }
  const uint64_t n = uint64_t{rows} * 8;
  for (uint64_t b = 0; b * kH < n; ++b) {
    for (uint32_t l = 0; l < kH; ++l) blk[l] = b * kH + l < n ? w.At(b * kH + l) : Half{0};
    d.At(b) = Tree(blk, kH);
  }
}

// BlkReduceForLoop over `first` 16-half blocks, `last` lanes each.
void BlkLoop(const Buf& d, const Buf& s, uint32_t first, uint32_t last) {
  constexpr uint32_t kPerCall = 255 * 8;
  const uint32_t groups = first / kPerCall;
  auto block = [&](uint64_t at) {
    Half v[kH];
    for (uint32_t l = 0; l < kH; ++l) v[l] = l < last ? s.At(at * kH + l) : Half{0};
    d.At(at) = Tree(v, kH);
  };
  for (uint32_t g = 0; g < groups; ++g) {
    for (uint32_t b = 0; b < kPerCall; ++b) block(b);
  }
  for (uint64_t b = uint64_t{groups} * kPerCall; b < first; ++b) block(b);
}

}  // namespace

bool ReplayReduceMeanHalfArScratch(bool reuse, Half* src, uint64_t srcLen, Half* dst,
                                   uint64_t dstLen, uint32_t first, uint32_t last, uint8_t* scratch,
                                   uint32_t tmpBytes) {
  if (last == 0) return false;  // FindClosestPowerOfTwo asserts n != 0
  bool bad = false;
  Params q{first, last, (last + kH - 1) / kH * kH, 0, 0, reuse};
  uint32_t k = 1;
  while (uint64_t{k} * 2 <= last) k *= 2;
  const uint32_t splitK = last <= kH ? 0 : k;
  q.tail = last - splitK;
  q.p = std::max(kH, splitK);
  if (last == splitK) q.p >>= 1;
  const Buf s{src, srcLen, &bad}, d{dst, dstLen, &bad};
  std::vector<Half> work(tmpBytes / 2);
  std::memcpy(work.data(), scratch, work.size() * 2);
  const Buf w = reuse ? s : Buf{work.data(), work.size(), &bad};
  if (last <= 8) {
    BlkLoop(d, s, first, last);
  } else if (last <= 64) {
    Half v[kL];
    for (uint64_t r = 0; r < first; ++r) {
      for (uint32_t l = 0; l < kL; ++l) v[l] = l < last ? s.At(r * q.pad + l) : Half{0};
      d.At(r) = Tree(v, kL);
    }
  } else {
    for (uint64_t g = 0; g * kG < first; ++g) {
      const uint32_t rows = static_cast<uint32_t>(std::min<uint64_t>(kG, first - g * kG));
      LargeLast(q, d.Off(g * kG), s.Off(g * kG * q.pad), w.Off(g * kG * 64), rows);
    }
  }
  const Half rec = FloatToHalf(1.0f / static_cast<float>(static_cast<int32_t>(last)));
  for (uint64_t r = 0; r < first; ++r) {
    d.At(r) = FloatToHalf(HalfToFloat(d.At(r)) * HalfToFloat(rec));
  }
  std::memcpy(scratch, work.data(), work.size() * 2);
  return !bad;
}

}  // namespace lngrad_replay
