// The 2201 reduce APIs' AR pattern with what it leaves in dst, src and sharedTmpBuffer
// (replay_reduce_ar_scratch.h). Provenance: a separate reading, by the helper (rar) who then
// changed lngrad to match, written before lngrad's AR scratch code, of the toolkit's (mirror
// commit 82b89a15f) impl/adv_api/detail/reduce/reduce_sum/reduce_sum_v220_impl.h (ReduceSumImpl,
// ReduceSumCommon, ReduceSumArReusedSrc/UnReusedSrc, ReduceSumArCompute, ReduceSumInLargeLast,
// ReduceSumComputeTail, ReduceSumComputeSliceAAxis/RAxis), reduce_mean/reduce_mean_v220_impl.h,
// reduce_common_util_v220_impl.h (BlkReduceForLoop, ReduceParams), reduce_common_util_impl.h
// (FindClosestPowerOfTwo, ComputeMaskBit, BlockReduceCompute) and the constants of
// impl/basic_api/utils/kernel_utils_constants.h (B32_DATA_NUM_PER_BLOCK 8,
// B32_DATA_NUM_PER_REPEAT 64, MAX_REPEAT_TIMES 255) and BinaryRepeatParams (uint8_t repeat
// strides, include/basic_api/kernel_struct_binary.h). What the source does, float:
// - padLast = last rounded up to 8 (whatever srcInnerPad says); splitK = the largest power of
//   two <= last, 0 when last <= 8; tail = last - splitK; p (perRowReduceSize) = max(8, splitK),
//   halved when last == splitK. With isReuseSource the work buffer is src itself.
// - last <= 8: BlkReduceForLoop: one BlockReduceSum lane mask of `last` lanes per block, the
//   rows read as consecutive 8-float blocks, 255 repeats of 8 blocks per call; its loop over the
//   whole 2040-row groups passes the same offsets (0) every time, and the rest starts at group
//   count * 2040: so with 4080 rows or more the rows of groups 1..count-1 get no result.
// - last <= 64: WholeReduceSum, mask `last`, one repeat per row (srcRepStride padLast / 8).
// - else, rows in groups of 248 (group g: dst + 248g, src + 248g * padLast, work + 248g * 64:
//   the groups' work areas overlap when p > 64; with isReuseSource that work area is in src):
//   not reusing, DataCopy of each row's first p floats to work row r at r * p; the tail add
//   (tailLen = tail, or padLast - p when tail == 0): when (tailLen / 64 + (tailLen % 64 != 0))
//   < rows and p / 8 <= 255, Add over `rows` repeats per 64-lane slice, the work rows strided p
//   / 8 blocks (reusing: padLast / 8) and src's rows padLast / 8 blocks, each stride cast to
//   uint8_t (so 0 for padLast 2048); otherwise one counter-mode Add of tailLen per row. Reusing,
//   a DataCopy then packs each row's first p floats to r * p. Then PairReduceSum in counter
//   mode over rows * k floats while k (from p) > 64, halving k; BlockReduceSum over rows * 64,
//   then over rows * 8 into dst.
// - ReduceMean: Muls of dst[0..first) by 1.0f / int32_t(last).
// Instructions, as the basic API pages give them: every float operation rounds once (nearest
// even); a repeat reads its lanes before it stores, repeats in order; BlockReduceSum is the
// adjacent-pair tree of a block's 8 lanes, masked lanes +0, a block without active lanes left
// as it is (A2/A3); PairReduceSum stores lane 2k + lane 2k+1 at k; WholeReduceSum the 64-lane
// adjacent-pair tree, masked lanes +0 (TreeSum64); DataCopy moves 32-byte blocks in order.
#include "replay_reduce_ar_scratch.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace lngrad_replay {
namespace {

constexpr uint32_t kB = 8;    // floats per 32-byte block
constexpr uint32_t kR = 64;   // floats per 256-byte repeat
constexpr uint32_t kG = 248;  // rows per ReduceSumInLargeLast call

float Tree8(const float* v) {
  return ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
}

// A view of float elements with its extent; a store past it makes the replay fail.
struct Buf {
  float* p;
  uint64_t n;
  bool* bad;
  float& At(uint64_t i) const {
    static float sink;
    if (i >= n) {
      *bad = true;
      return sink;
    }
    return p[i];
  }
  Buf Off(uint64_t o) const { return Buf{p + o, o <= n ? n - o : 0, bad}; }
};

// Add, `rep` repeats of the first `lanes` lanes, repeat strides in blocks (already uint8_t).
void AddRepeats(const Buf& d, const Buf& a, const Buf& b, uint32_t lanes, uint32_t rep,
                uint8_t dRep, uint8_t aRep, uint8_t bRep) {
  float v[kR];
  for (uint32_t r = 0; r < rep; ++r) {
    for (uint32_t l = 0; l < lanes; ++l) {
      v[l] = a.At(uint64_t{r} * aRep * kB + l) + b.At(uint64_t{r} * bRep * kB + l);
    }
    for (uint32_t l = 0; l < lanes; ++l) d.At(uint64_t{r} * dRep * kB + l) = v[l];
  }
}

// DataCopy of `count` bursts of `len` blocks, gaps in blocks.
void Copy(const Buf& d, const Buf& s, uint32_t count, uint32_t len, uint32_t sGap, uint32_t dGap) {
  for (uint32_t c = 0; c < count; ++c) {
    for (uint32_t i = 0; i < len * kB; ++i) {
      d.At(uint64_t{c} * (len + dGap) * kB + i) = s.At(uint64_t{c} * (len + sGap) * kB + i);
    }
  }
}

struct Params {
  uint32_t first, last, pad, splitK, tail, p;
  bool reuse;
};

void Tail(const Params& q, const Buf& w, const Buf& s, uint32_t rows) {
  const uint32_t tailLen = (q.tail == 0 && q.p > 0) ? q.pad - q.p : q.tail;
  const uint32_t nFull = tailLen / kR, rem = tailLen % kR;
  const bool slice = (nFull + (rem > 0 ? 1 : 0)) < rows && q.last > kR && q.p / kB <= 255;
  if (slice) {
    const uint8_t wRep = static_cast<uint8_t>((q.reuse ? q.pad : q.p) / kB);
    const uint8_t sRep = static_cast<uint8_t>(q.pad / kB);
    for (uint32_t i = 0; i <= nFull; ++i) {
      const uint32_t lanes = i < nFull ? kR : rem;
      if (lanes == 0) break;
      AddRepeats(w.Off(i * kR), w.Off(i * kR), s.Off(q.p + i * kR), lanes, rows, wRep, wRep, sRep);
    }
  } else {
    for (uint32_t r = 0; r < rows; ++r) {
      const uint64_t at = uint64_t{r} * (q.reuse ? q.pad : q.p);
      for (uint32_t j = 0; j < tailLen; ++j) {
        w.At(at + j) = w.At(at + j) + s.At(uint64_t{r} * q.pad + q.p + j);
      }
    }
  }
  if (q.reuse) Copy(w, w, rows, q.p / kB, (q.pad - q.p) / kB, 0);
}

void LargeLast(const Params& q, const Buf& d, const Buf& s, const Buf& w, uint32_t rows) {
  if (!q.reuse) Copy(w, s, rows, q.p / kB, (q.pad - q.p) / kB, 0);
  Tail(q, w, s, rows);
  for (uint32_t k = q.p; k > kR; k >>= 1) {
    const uint64_t n = uint64_t{rows} * k;
    for (uint64_t i = 0; i < n / 2; ++i) w.At(i) = w.At(2 * i) + w.At(2 * i + 1);
  }
  float blk[kB];
  for (uint64_t b = 0; b < uint64_t{rows} * kR / kB; ++b) {
    for (uint32_t l = 0; l < kB; ++l) blk[l] = w.At(b * kB + l);
    w.At(b) = Tree8(blk);
  }
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t l = 0; l < kB; ++l) blk[l] = w.At(uint64_t{r} * kB + l);
    d.At(r) = Tree8(blk);
  }
}

// BlkReduceForLoop over `first` 8-float blocks, `last` lanes each.
void BlkLoop(const Buf& d, const Buf& s, uint32_t first, uint32_t last) {
  constexpr uint32_t kPerCall = 255 * kB;  // blocks of one 255-repeat call
  const uint32_t groups = first / kPerCall, rest = first % kPerCall;
  const uint32_t restFull = rest / kB, restBlk = rest % kB;
  auto block = [&](uint64_t dAt, uint64_t sAt) {
    float v[kB];
    for (uint32_t l = 0; l < kB; ++l) v[l] = l < last ? s.At(sAt + l) : 0.0f;
    d.At(dAt) = Tree8(v);
  };
  for (uint32_t g = 0; g < groups; ++g) {
    for (uint32_t b = 0; b < kPerCall; ++b) block(b, uint64_t{b} * kB);
  }
  const uint64_t base = uint64_t{groups} * kPerCall;
  for (uint32_t b = 0; b < restFull * kB; ++b) block(base + b, (base + b) * kB);
  for (uint32_t b = 0; b < restBlk; ++b) {
    const uint64_t at = base + uint64_t{restFull} * kB + b;
    block(at, at * kB);
  }
}

}  // namespace

bool ReplayReduceSumArScratch(bool mean, bool reuse, float* src, float* dst, uint32_t first,
                              uint32_t last, uint8_t* scratch, uint32_t tmpBytes) {
  if (last == 0) return false;  // FindClosestPowerOfTwo asserts n != 0
  bool bad = false;
  Params q{first, last, (last + kB - 1) / kB * kB, 0, 0, 0, reuse};
  uint32_t lg = 0;
  while ((uint64_t{2} << lg) <= last) ++lg;
  q.splitK = last <= kB ? 0 : 1u << lg;
  q.tail = last - q.splitK;
  q.p = std::max(kB, q.splitK);
  if (last == q.splitK) q.p >>= 1;
  const Buf s{src, uint64_t{first} * q.pad, &bad}, d{dst, first, &bad};
  std::vector<float> work(tmpBytes / 4);
  std::memcpy(work.data(), scratch, work.size() * 4);
  const Buf w = reuse ? s : Buf{work.data(), work.size(), &bad};
  if (last <= kB) {
    BlkLoop(d, s, first, last);
  } else if (last <= kR) {
    for (uint32_t r = 0; r < first; ++r) d.At(r) = TreeSum64(src + uint64_t{r} * q.pad, last);
  } else {
    for (uint32_t g = 0; g * kG < first; ++g) {
      const uint32_t rows = std::min(kG, first - g * kG);
      LargeLast(q, d.Off(uint64_t{g} * kG), s.Off(uint64_t{g} * kG * q.pad),
                w.Off(uint64_t{g} * kG * kR), rows);
    }
  }
  if (mean) {
    const float rec = 1.0f / static_cast<float>(static_cast<int32_t>(last));
    for (uint32_t r = 0; r < first; ++r) dst[r] = dst[r] * rec;
  }
  std::memcpy(scratch, work.data(), work.size() * 4);
  return !bad;
}

}  // namespace lngrad_replay
