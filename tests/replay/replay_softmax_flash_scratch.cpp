// SoftmaxFlashV2's 2201 work buffer (float), replayed one vector instruction at a time over a
// float image of the scratch (see replay_softmax_flash_scratch.h for the files read). Built with
// lngrad_strict_fp: every operation rounds alone.
#include "replay_softmax_flash_scratch.h"

#include "replay_softmax_scratch.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace lngrad_replay {
namespace {

constexpr uint32_t kRep = 64;  // floats per repeat (FLOAT_REPEAT_SIZE)
constexpr uint32_t kBlk = 8;   // floats per block (FLOAT_NUM_PER_BLK)

// NewReduce{Max,Sum}LastNDImpl<isBroadCast = true> (replay_softmax_scratch.h, the uint8_t
// operands as they wrap): m rows of src at stride srcK, the first k values of each; dst the
// statistics ([m, dk] floats), tmp the scratch floats it works in.
void NewReduce(float* dst, const float* src, float* tmp, uint32_t m, uint32_t k, uint32_t srcK,
               bool max, uint32_t dk = kBlk) {
  ReplayNewReduce2201(dst, src, tmp, m, k, srcK, dk, max);
}

float Exp1(float x) { return static_cast<float>(std::exp(static_cast<double>(x))); }

struct Split {
  const SmxTiling& t;
  uint32_t oriK;
  const FlashV2ScratchIo& io;
  const FlashV2ScratchOut& out;
  float* w;
  uint32_t o1, o2, rows, rs;  // offsets, rows, the split's statistics count
  uint32_t rk;                // the reductions' row stride (ReduceLastND srcK)

  // n floats of v into a result (at: its offset there), when it is wanted.
  static void Keep(float* to, uint64_t at, const float* v, uint64_t n) {
    if (to != nullptr) std::memcpy(to + at, v, n * 4);
  }

  // GenericSubNDImpl (lane c % 8 of the row's statistics at stat, dk per row) and Exp over y.
  void SubExp(float* y, const float* x, const float* stat, uint32_t dk) const {
    for (uint32_t r = 0; r < rows; ++r) {
      for (uint32_t c = 0; c < t.srcK; ++c) {
        y[r * t.srcK + c] = Exp1(x[r * t.srcK + c] - stat[r * dk + c % kBlk]);
      }
    }
  }
  void Cast(float* y) const { std::memcpy(y, io.src + o1, uint64_t{rows} * t.srcK * 4); }

  void FloatData(bool update, std::vector<float>& y) const {
    const float* x = io.src + o1;
    y.assign(uint64_t{rows} * t.srcK, 0.0f);
    if (!update) {  // softmax_flashv2_no_update_impl.h, float
      NewReduce(io.max + o2, x, w, rows, oriK, rk, true);
      SubExp(y.data(), x, io.max + o2, kBlk);
      NewReduce(io.expSum + o2, y.data(), w, rows, oriK, rk, false);
      Keep(out.dst, o1, y.data(), y.size());
      return;
    }
    float *tmp0 = w, *tmp1 = w + t.reduceSize;  // softmax_flashv2_update_impl.h, float
    const float *inMax = io.inMax + o2, *inSum = io.inExpSum + o2;
    NewReduce(tmp0, x, tmp1, rows, oriK, rk, true);
    for (uint32_t p = 0; p < rs; ++p) tmp0[p] = inMax[p] > tmp0[p] ? inMax[p] : tmp0[p];
    for (uint32_t p = 0; p < rs; ++p) tmp1[p] = inMax[p] - tmp0[p];
    std::vector<float> expMax(rs);
    for (uint32_t p = 0; p < rs; ++p) expMax[p] = Exp1(tmp1[p]);
    SubExp(y.data(), x, tmp0, kBlk);
    std::memcpy(io.max + o2, tmp0, rs * 4);  // DataCopy (2201)
    NewReduce(tmp0, y.data(), tmp1, rows, oriK, rk, false);
    for (uint32_t p = 0; p < rs; ++p) io.expSum[o2 + p] = expMax[p] * inSum[p] + tmp0[p];
    Keep(out.dst, o1, y.data(), y.size());
    Keep(out.expMax, o2, expMax.data(), rs);
  }

  void HalfNoUpdate(bool statHalf) const {
    const uint64_t S = t.splitSize, R = t.reduceSize;
    const uint64_t n = uint64_t{rows} * t.srcK;
    Cast(w);
    if (statHalf) {  // reduceBuffer at splitSize (16 per row), tmpBuffer2 after it
      NewReduce(w + S, w, w + S + R, rows, oriK, rk, true, 2 * kBlk);
      Keep(out.max, o2, w + S, rs);
      SubExp(w, w, w + S, 2 * kBlk);
      NewReduce(w + S, w, w + S + R, rows, oriK, rk, false, 2 * kBlk);
      Keep(out.expSum, o2, w + S, rs);
      Keep(out.dst, o1, w, n);
      return;
    }
    NewReduce(io.max + o2, w, w + S, rows, oriK, rk, true);
    SubExp(w, w, io.max + o2, kBlk);
    NewReduce(io.expSum + o2, w, w + S, rows, oriK, rk, false);
    Keep(out.dst, o1, w, n);
  }

  void HalfUpdate(bool statHalf) const {
    const uint64_t S = t.splitSize, R = t.reduceSize;
    float *tmp1 = w + S, *tmp2 = w + S + R, *tmp3 = w + S + R + uint64_t{t.splitM} * kRep;
    const float *inMax = io.inMax + o2, *inSum = io.inExpSum + o2;
    const uint32_t dk = statHalf ? 2 * kBlk : kBlk;
    for (uint32_t p = 0; p < rs; ++p) tmp1[p] = inMax[p];  // Cast (half) / DataCopy (float)
    Cast(w);
    NewReduce(tmp3, w, tmp2, rows, oriK, rk, true, dk);
    if (statHalf) {
      for (uint32_t p = 0; p < rs; ++p) tmp3[p] = tmp1[p] > tmp3[p] ? tmp1[p] : tmp3[p];
      for (uint32_t p = 0; p < rs; ++p) tmp1[p] = tmp1[p] - tmp3[p];
      Keep(out.max, o2, tmp3, rs);  // the Cast into maxTensor
      SubExp(w, w, tmp3, dk);
      Keep(out.dst, o1, w, uint64_t{rows} * t.srcK);
      NewReduce(tmp3, w, tmp2, rows, oriK, rk, false, dk);
      for (uint32_t p = 0; p < rs; ++p) tmp1[p] = Exp1(tmp1[p]);
      Keep(out.expMax, o2, tmp1, rs);
      for (uint32_t p = 0; p < rs; ++p) tmp2[p] = inSum[p];
      for (uint32_t p = 0; p < rs; ++p) tmp1[p] = tmp1[p] * tmp2[p];
      for (uint32_t p = 0; p < rs; ++p) tmp2[p] = tmp1[p] + tmp3[p];
      Keep(out.expSum, o2, tmp2, rs);
      return;
    }
    float* max = io.max + o2;
    for (uint32_t p = 0; p < rs; ++p) max[p] = inMax[p] > tmp3[p] ? inMax[p] : tmp3[p];
    SubExp(w, w, max, kBlk);
    Keep(out.dst, o1, w, uint64_t{rows} * t.srcK);
    NewReduce(tmp3, w, tmp2, rows, oriK, rk, false);
    for (uint32_t p = 0; p < rs; ++p) tmp1[p] = tmp1[p] - max[p];
    for (uint32_t p = 0; p < rs; ++p) tmp1[p] = Exp1(tmp1[p]);
    for (uint32_t r = 0; r < t.reduceM; ++r) {  // BroadCastLastImpl over tiling.reduceM rows
      for (uint32_t j = 0; j < 2 * kBlk; ++j) w[r * 2 * kBlk + j] = tmp1[r * kBlk + j % kBlk];
    }
    Keep(out.expMax, uint64_t{o2} * 2, w, uint64_t{rs} * 2);  // the Cast of reduceSize * 2
    for (uint32_t p = 0; p < rs; ++p) tmp1[p] = tmp1[p] * inSum[p];
    for (uint32_t p = 0; p < rs; ++p) io.expSum[o2 + p] = tmp1[p] + tmp3[p];
  }
};

}  // namespace

bool ReplayFlashV2Scratch(const SmxTiling& t, uint32_t oriK, const FlashV2ScratchKind& kind,
                          const FlashV2ScratchIo& io, uint8_t* scratch, uint32_t bytes,
                          const FlashV2ScratchOut& out, uint32_t redK) {
  const uint32_t dk = kind.statHalf ? 2 * kBlk : kBlk;
  if (t.reduceK != dk || t.rangeM == 0 || t.splitK != t.srcK || redK > t.srcK) return false;
  const uint32_t rk = redK != 0 ? redK : t.srcK;
  // The image, with room past the end for a footprint that leaves the scratch (marked).
  constexpr uint32_t kPastMark = 0x7fbadbadu;
  const uint64_t inside = (bytes + 3) / 4;
  std::vector<float> w(inside + 4 * (uint64_t{t.splitSize} + t.reduceSize + t.splitM * kRep) + 64,
                       FromBits(kPastMark));
  std::memcpy(w.data(), scratch, bytes);
  std::vector<float> y;
  uint32_t offset1 = 0, offset2 = 0, rows = t.splitM, reduceSize = t.reduceSize;
  for (uint32_t i = 0; i <= t.rangeM; ++i) {
    const Split sp{t, oriK, io, out, w.data(), offset1, offset2, rows, reduceSize, rk};
    if (!kind.half) {
      sp.FloatData(kind.update, y);
    } else if (kind.update) {
      sp.HalfUpdate(kind.statHalf);
    } else {
      sp.HalfNoUpdate(kind.statHalf);
    }
    offset1 += t.splitSize;
    offset2 += t.reduceSize;
    if (i == t.rangeM - 1) {
      if (t.tailM == 0) break;
      offset1 = t.rangeM * t.splitSize;
      offset2 = t.rangeM * t.reduceSize;
      rows = t.tailM;
      reduceSize = t.tailReduceSize;
    }
  }
  if (bytes % 4 != 0) return false;  // a float across the end: not covered
  for (uint64_t i = inside; i < w.size(); ++i) {
    if (Bits(w[i]) != kPastMark) return false;  // the kit wrote past the scratch: not covered
  }
  std::memcpy(scratch, w.data(), bytes);
  return true;
}

}  // namespace lngrad_replay
