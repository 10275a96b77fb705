// lngrad: the work buffer SoftMax (with statistics) and SimpleSoftMax leave in the NZ data format
// (isDataFormatNZ) on arch 2201 and 2002, byte for byte. Both arches run the same kit code:
// softmax_base_impl.h / softmax_common/softmax_common_simple.h (the NZ re-tile:
// SoftMaxTilingFunc with isDataFormatNZ, rows per split tmp floats / (16 + srcK)),
// membase/common/softmax_impl/softmax_generic_nz_impl.h (SoftMaxNZImpl, SoftMaxGenericNZImpl
// without isFlashV2), membase/common/simple_softmax_common_impl.h (SimpleSoftMaxNZImpl,
// SimpleSoftMaxGenericNZImpl), the row reductions of membase/common/softmax_common_nz_reduce.h
// and softmax_common/softmax_common_{reduce,broadcast}.h. Each instruction's writes in order over
// an image of the buffer, split by split of the kernel's tiling. S = splitM, R = the split's
// rows, B = srcK / 16 fractals; fractal j of a split sits at j * S * 16, R * 16 floats of it
// written (counter mode).
// SoftMax: [the split's fractals as floats (splitSize) | the reduction, S rows of 16 floats].
//   The max (ReduceMaxLastNZImpl) then the sum (ReduceSumLastNZImpl) each run in the reduction
//   buffer red: one fractal with oriSrcK % 16 != 0: a WholeReduce per row for all S rows over the
//   first oriSrcK % 16 lanes (the max's value/index pair at red[16 r], red[16 r + 1]: the winning
//   lane's bits; the sum at red[16 r]), then lane 0 of the R rows to 16 lanes. Otherwise the
//   fractals accumulate in red (Muls by 1, Max/Add, the last fractal on its first oriSrcK % 16
//   lanes; one whole fractal: read from the data directly), lanes 0..7 with lanes 8..15 for all S
//   rows, BlockReduce of every 8 rows into red[128 q + b] (a last partial group's empty blocks
//   left alone), then the R rows' values to their 16 lanes. x - max and Exp on the valid lanes (the
//   last fractal's first oriSrcK % 16, the others whole); half data divides there too (float data
//   divides into dst: the buffer keeps the exponentials). The last fractal's other lanes keep the
//   source (half: its float cast). A tail split (R < S) reduces rows R .. S - 1 of what the earlier
//   split (or the caller) left in the buffer.
// SimpleSoftMax: float: inMax at [0, 16 R) and inSum at 2 * reduceSize, each row's 8 lanes copied
//   twice (DataCopy); the data computes into dst. Half: the split's fractals as floats after Sub,
//   Exp and Div, then at splitSize the statistics of the row as floats (half statistics: cast lane
//   for lane, 16 a row; float: 8 lanes twice), the max first, overwritten by the sum.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "lib/activation/softmax_grad_work.h"
#include "lib/activation/softmax_nz.h"

namespace lngrad::aicore::softmax_detail {

// The tiling SoftMax / SimpleSoftMax NZ runs: the caller's when `keep` (the kit's test: srcK and
// oriSrcM for SoftMax, srcK and srcM for SimpleSoftMax, equal to the tiling's), else
// SoftMaxTilingFunc with isDataFormatNZ over the work buffer's floats; rows oriSrcM, srcM the
// fractals' M. splitM 0 where the buffer holds no row (the kit asserts).
inline AscendC::tiling::SoftMaxTiling NzKernelTiling(const AscendC::tiling::SoftMaxTiling& t,
                                                     bool keep, uint32_t srcM, uint32_t k,
                                                     uint32_t oriM, uint32_t statBytes,
                                                     uint64_t tmpFloats) {
  if (keep) return t;
  AscendC::tiling::SoftMaxTiling kt = t;
  const uint32_t lanes = 32 / statBytes;
  uint64_t m = tmpFloats / (uint64_t{kNzCols} + k);
  if (m < oriM && m > 8) m = m / 8 * 8;
  m = m < oriM ? m : oriM;
  kt.srcM = srcM;
  kt.srcK = kt.splitK = k;
  kt.srcSize = srcM * k;
  kt.outMaxM = srcM;
  kt.outMaxK = kt.reduceK = lanes;
  kt.outMaxSize = srcM * lanes;
  kt.reduceM = kt.splitM = static_cast<uint32_t>(m);
  kt.reduceSize = kt.splitM * lanes;
  kt.splitSize = kt.splitM * k;
  kt.rangeM = m == 0 ? 0 : static_cast<uint32_t>(oriM / m);
  kt.tailM = m == 0 ? 0 : static_cast<uint32_t>(oriM % m);
  kt.tailSplitSize = kt.tailM * k;
  kt.tailReduceSize = kt.tailM * lanes;
  return kt;
}

// A split of 2048 rows or more, a multiple of 8: BroadCastNZImpl keeps its group count (rows / 8)
// in a uint8_t, so the row max and sum reach only the first (rows / 8) % 256 groups' 16 lanes and
// the other rows subtract and divide by the reduction's leftovers. Checked mode refuses it before
// anything is written (softmax_device_defect); unchecked the call proceeds, its buffer marked and
// its rows lngrad's: such a split needs (16 + srcK) * 2048 floats of work buffer, 256 KB or
// more, past any 2201 or 2002 UB, so the device's numbers are not derivable from the UB.
inline bool NzBroadcastWraps(const AscendC::tiling::SoftMaxTiling& kt) {
  for (const uint32_t rows : {kt.rangeM != 0 ? kt.splitM : 0u, kt.tailM}) {
    if (rows % 8 == 0 && rows / 8 > 255) return true;
  }
  return false;
}
inline void RefuseNzBroadcastWrap(const char* api, const AscendC::tiling::SoftMaxTiling& kt) {
  if (!CheckedMode() || !NzBroadcastWraps(kt)) return;
  RaiseKernelCheck(checks::kSoftmaxDeviceDefect,
                   std::string(api) + " (NZ): splits of " + std::to_string(kt.splitM) +
                       " rows (tail " + std::to_string(kt.tailM) +
                       ") are computed wrongly by the device: BroadCastNZImpl's uint8_t repeat "
                       "(rows / 8) wraps past 255, so rows from 2040 on get no row max and sum; "
                       "use a tiling of fewer than 2048 rows per split (unchecked mode proceeds)");
}

// WholeReduceMax's lane rule with the winning lane (the first NaN, else the first largest).
inline float NzLaneMax(const float* v, uint32_t n, uint32_t* lane) {
  uint32_t best = 0;
  for (uint32_t j = 1; j < n && v[best] == v[best]; ++j) {
    if (v[j] != v[j] || v[j] > v[best]) best = j;
  }
  *lane = best;
  return v[best];
}

// Reduce{Max,Sum}LastNZImpl(red, p) of one split: R rows into red's 16-lane rows, S rows reached;
// len: the last fractal's lanes (the reduction's lastBlockMaskLen, from its originalSrcK), which
// masks the tail repeat of BinaryComputeWithSpecialMask; maskLen: the lanes of the caller's
// special mask, which masks its whole repeats (rows in fours): SoftMax's NZ code builds both from
// oriSrcK (maskLen = len), SoftmaxGrad's mask from tiling.splitK (all 16 lanes) while its
// reduction's originalSrcK is oriSrcK (softmax_grad_nz_work.h).
inline void NzWorkReduce(GradWork& w, uint64_t red, uint64_t p, uint32_t rows, uint32_t splitM,
                         uint32_t blocks, uint32_t len, bool isMax, uint32_t maskLen) {
  const auto op = [isMax](float a, float b) { return isMax ? (a > b ? a : b) : a + b; };
  const uint64_t step = uint64_t{splitM} * kNzCols;
  float v[kLanes];
  if (blocks == 1 && len != kNzCols) {  // Reduce{Max,Sum}SingleBlockNZImpl: S repeats
    for (uint32_t r = 0; r < splitM; ++r) {
      const uint64_t at = uint64_t{r} * kNzCols;
      for (uint32_t l = 0; l < len; ++l) v[l] = w.Get(p + at + l);
      if (isMax) {  // ORDER_VALUE_INDEX, dstRepStride 8 pairs
        uint32_t lane = 0;
        w.Set(red + at, NzLaneMax(v, len, &lane));
        float bits = 0.0f;
        std::memcpy(&bits, &lane, 4);
        w.Set(red + at + 1, bits);
      } else {
        w.Set(red + at, ScalarTree64(v, len));
      }
    }
    for (uint32_t r = 0; r < rows; ++r) {  // AlignedColumnBrcbImpl
      const float s = w.Get(red + uint64_t{r} * kNzCols);
      for (uint32_t l = 0; l < kNzCols; ++l) w.Set(red + uint64_t{r} * kNzCols + l, s);
    }
    return;
  }
  const uint64_t n = uint64_t{rows} * kNzCols;
  uint64_t acc = p;
  if (blocks > 1) {
    acc = red;
    for (uint64_t e = 0; e < n; ++e) w.Set(red + e, w.Get(p + e) * 1.0f);
    for (uint32_t j = 1; j + 1 < blocks; ++j) {
      for (uint64_t e = 0; e < n; ++e) w.Set(red + e, op(w.Get(red + e), w.Get(p + step * j + e)));
    }
    const uint64_t whole = uint64_t{rows} / 4 * 4 * kNzCols;  // BinaryComputeWithSpecialMask
    for (uint64_t e = 0; e < n; ++e) {
      if (e % kNzCols < (e < whole ? maskLen : len)) {
        w.Set(red + e, op(w.Get(red + e), w.Get(p + step * (blocks - 1) + e)));
      }
    }
  }
  for (uint32_t r = 0; r < splitM; ++r) {  // Reduce{Max,Sum}BlockNZImpl's Max/Add: S rows
    const uint64_t at = uint64_t{r} * kNzCols;
    for (uint32_t l = 0; l < 8; ++l) {
      w.Set(red + at + l, op(w.Get(acc + at + l), w.Get(acc + at + 8 + l)));
    }
  }
  for (uint32_t q = 0; q * 8 < splitM; ++q) {  // BlockReduce{Max,Sum}: 8 rows a repeat
    const uint32_t b = splitM - q * 8 < 8 ? splitM - q * 8 : 8;
    for (uint32_t i = 0; i < b; ++i) {
      for (uint32_t l = 0; l < 8; ++l) {
        v[i * 8 + l] = w.Get(red + (uint64_t{q} * 8 + i) * kNzCols + l);
      }
    }
    for (uint32_t i = 0; i < b; ++i) {
      w.Set(red + uint64_t{q} * 128 + i, isMax ? LaneMax(v + i * 8, 8) : Tree8(v + i * 8));
    }
  }
  // BroadCastNZImpl (R % 8 == 0) or ContinuousColumnBrcbImpl: row r's value from red[128 (r / 8)
  // + r % 8] to its 16 lanes, a group of 8 rows read before it is written.
  for (uint32_t g = 0; g * 8 < rows; ++g) {
    const uint32_t b = rows - g * 8 < 8 ? rows - g * 8 : 8;
    for (uint32_t i = 0; i < b; ++i) v[i] = w.Get(red + uint64_t{g} * 128 + i);
    for (uint32_t i = 0; i < b; ++i) {
      for (uint32_t l = 0; l < kNzCols; ++l) w.Set(red + (uint64_t{g} * 8 + i) * kNzCols + l, v[i]);
    }
  }
}

// The tilings the models take: splitSize splitM * srcK, splitK srcK, the splits inside the rows.
inline bool NzModelTakes(const AscendC::tiling::SoftMaxTiling& kt, uint32_t k) {
  const uint32_t S = kt.splitM;
  return S != 0 && k != 0 && k % kNzCols == 0 && kt.srcK == k && kt.splitK == k &&
         kt.splitSize == uint64_t{S} * k && kt.tailM < S;
}

// Writes the work buffer as SoftMaxNZImpl leaves it for the kernel's tiling kt, from a copy of
// src (dst may be src). False (nothing written; the caller marks the buffer) where the model does
// not reach: tilings NzModelTakes refuses, buffers past the end of tmp, splits whose broadcast
// wraps (NzBroadcastWraps).
template <typename T>
bool LeaveSoftMaxNzWork(const char* api, SrcLoc loc, const T* src,
                        const AscendC::LocalTensor<uint8_t>& tmp,
                        const AscendC::tiling::SoftMaxTiling& kt, uint32_t oriK) {
  if (tmp.HostPtr() == nullptr) return true;
  const uint32_t S = kt.splitM, k = kt.srcK, blocks = k / kNzCols;
  if (!NzModelTakes(kt, k) || NzBroadcastWraps(kt)) return false;
  const uint64_t red = kt.splitSize;
  GradWork w(tmp);
  if (red + uint64_t{S} * kNzCols > w.Floats()) return false;
  const uint32_t len = oriK % kNzCols != 0 ? oriK % kNzCols : kNzCols;
  const uint64_t step = uint64_t{S} * kNzCols, fractal = uint64_t{kt.srcM} * kNzCols;
  auto split = [&](uint32_t row0, uint32_t rows) {
    const uint64_t n = uint64_t{rows} * kNzCols, o = uint64_t{row0} * kNzCols;
    for (uint32_t j = 0; j < blocks; ++j) {  // Cast (half) or DataCopy (float)
      for (uint64_t e = 0; e < n; ++e) w.Set(step * j + e, Widen(src[o + j * fractal + e]));
    }
    // Sub, Exp (and half data's Div) on the valid lanes: the last fractal's first len.
    const auto each = [&](auto f) {
      for (uint32_t j = 0; j < blocks; ++j) {
        for (uint64_t e = 0; e < n; ++e) {
          if (j + 1 < blocks || e % kNzCols < len) w.Set(step * j + e, f(w.Get(step * j + e), e));
        }
      }
    };
    NzWorkReduce(w, red, 0, rows, S, blocks, len, true, len);
    each([&](float x, uint64_t e) { return x - w.Get(red + e); });
    each([](float x, uint64_t) { return ExpOf(x); });
    NzWorkReduce(w, red, 0, rows, S, blocks, len, false, len);
    if constexpr (sizeof(T) == 2) each([&](float x, uint64_t e) { return x / w.Get(red + e); });
  };
  for (uint32_t i = 0; i < kt.rangeM; ++i) split(i * S, S);
  if (kt.tailM != 0) split(kt.rangeM * S, kt.tailM);
  w.Store(api, loc);
  return true;
}

// Writes the work buffer as SimpleSoftMaxNZImpl leaves it for the kernel's tiling kt. False
// (nothing written) where the model does not reach (also a reduceM other than splitM).
template <typename T, typename U>
bool LeaveSimpleNzWork(const char* api, SrcLoc loc, const T* src, const U* inSum, const U* inMax,
                       const AscendC::LocalTensor<uint8_t>& tmp,
                       const AscendC::tiling::SoftMaxTiling& kt) {
  if (tmp.HostPtr() == nullptr) return true;
  const uint32_t S = kt.splitM, k = kt.srcK, blocks = k / kNzCols, lanes = Lanes<U>();
  if (!NzModelTakes(kt, k) || kt.reduceM != S) return false;
  const bool floatData = sizeof(T) == 4;
  const uint64_t stat = floatData ? uint64_t{2} * kt.reduceSize : kt.splitSize;
  GradWork w(tmp);
  if (stat + uint64_t{S} * kNzCols > w.Floats() || (!floatData && kt.splitSize > w.Floats())) {
    return false;
  }
  const uint64_t step = uint64_t{S} * kNzCols, fractal = uint64_t{kt.srcM} * kNzCols;
  auto split = [&](uint32_t row0, uint32_t rows) {
    const uint64_t n = uint64_t{rows} * kNzCols, o = uint64_t{row0} * kNzCols;
    // Row r's statistics to 16 lanes at `at`: half lane for lane, float 8 lanes twice.
    const auto spread = [&](uint64_t at, const U* s) {
      for (uint64_t e = 0; e < n; ++e) {
        w.Set(at + e, Widen(s[uint64_t{row0 + e / kNzCols} * lanes + (e % kNzCols) % lanes]));
      }
    };
    if (floatData) {
      spread(0, inMax);
      spread(stat, inSum);
      return;
    }
    spread(stat, inMax);
    for (uint32_t j = 0; j < blocks; ++j) {
      for (uint64_t e = 0; e < n; ++e) {
        const float x = Widen(src[o + j * fractal + e]) - w.Get(stat + e);
        w.Set(step * j + e, ExpOf(x));
      }
    }
    spread(stat, inSum);
    for (uint32_t j = 0; j < blocks; ++j) {
      for (uint64_t e = 0; e < n; ++e) w.Set(step * j + e, w.Get(step * j + e) / w.Get(stat + e));
    }
  };
  for (uint32_t i = 0; i < kt.rangeM; ++i) split(i * S, S);
  if (kt.tailM != 0) split(kt.rangeM * S, kt.tailM);
  w.Store(api, loc);
  return true;
}

// SoftMax with statistics, NZ, on 2201 and 2002: the kernel's tiling, checked mode's refusal of
// the splits the device computes wrongly (before anything is written), SoftMaxNzRows, then the
// work buffer from a copy of src (marked where the model does not reach).
template <typename D, typename U>
void SoftMaxNzCall(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<U>& sum,
                   const AscendC::LocalTensor<U>& max, const AscendC::LocalTensor<D>& src,
                   const AscendC::LocalTensor<uint8_t>& tmp, const AscendC::SoftMaxShapeInfo& shape,
                   const AscendC::tiling::SoftMaxTiling& tiling, SrcLoc loc,
                   LeaveWorkBuffer& leave) {
  const char* api = "SoftMax";
  const NzDims d = NzDimsOf(shape, tiling);
  const uint32_t srcM = shape.srcM != 0 ? shape.srcM : tiling.srcM;
  const bool keep = d.k == tiling.srcK && d.m == tiling.srcM;
  const AscendC::tiling::SoftMaxTiling kt =
      NzKernelTiling(tiling, keep, srcM, d.k, d.m, sizeof(U), tmp.View().size_bytes / 4);
  CheckNzShape(api, shape, d);
  RefuseNzBroadcastWrap(api, kt);
  const uint64_t n = uint64_t{d.stride} * d.k;
  std::vector<D> x;
  if (src.HostPtr() != nullptr && src.View().size_bytes / sizeof(D) >= n) {
    x.assign(src.HostPtr(), src.HostPtr() + n);
  }
  SoftMaxNzRows<D, U>(api, dst, sum, max, src, tmp, shape, d, loc);
  const uint32_t oriK = shape.oriSrcK != 0 ? shape.oriSrcK : d.k;
  if (!x.empty() && kt.srcM == d.stride && kt.rangeM * kt.splitM + kt.tailM == d.m &&
      LeaveSoftMaxNzWork<D>(api, loc, x.data(), tmp, kt, oriK)) {
    leave.Modelled();
  }
}

// SimpleSoftMax, NZ: SimpleNzRows, then on 2201 and 2002 the work buffer (from copies of the
// operands, marked where the model does not reach); on 3510 left alone.
template <typename D, typename U>
void SimpleNzCall(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<U>& inSum,
                  const AscendC::LocalTensor<U>& inMax, const AscendC::LocalTensor<D>& src,
                  const AscendC::LocalTensor<uint8_t>& tmp, const AscendC::SoftMaxShapeInfo& shape,
                  const AscendC::tiling::SoftMaxTiling& tiling, SrcLoc loc,
                  LeaveWorkBuffer& leave) {
  const NzDims d = NzDimsOf(shape, tiling, true);
  if (RegBase()) return SimpleNzRows<D, U>(dst, inSum, inMax, src, tmp, shape, d, loc);
  const bool keep = d.k == tiling.srcK && d.stride == tiling.srcM;
  const uint32_t oriM = shape.oriSrcM != 0 ? shape.oriSrcM : d.stride;
  const AscendC::tiling::SoftMaxTiling kt =
      NzKernelTiling(tiling, keep, d.stride, d.k, oriM, sizeof(U), tmp.View().size_bytes / 4);
  const uint64_t n = uint64_t{d.stride} * d.k, s = uint64_t{d.m} * Lanes<U>();
  std::vector<D> x;
  std::vector<U> sm, mx;
  if (src.HostPtr() != nullptr && inSum.HostPtr() != nullptr && inMax.HostPtr() != nullptr &&
      src.View().size_bytes / sizeof(D) >= n && inSum.View().size_bytes / sizeof(U) >= s &&
      inMax.View().size_bytes / sizeof(U) >= s) {
    x.assign(src.HostPtr(), src.HostPtr() + n);
    sm.assign(inSum.HostPtr(), inSum.HostPtr() + s);
    mx.assign(inMax.HostPtr(), inMax.HostPtr() + s);
  }
  CheckNzShape("SimpleSoftMax", shape, d);
  SimpleNzRows<D, U>(dst, inSum, inMax, src, tmp, shape, d, loc);
  if (!x.empty() && kt.srcM == d.stride && kt.rangeM * kt.splitM + kt.tailM == d.m &&
      LeaveSimpleNzWork<D, U>("SimpleSoftMax", loc, x.data(), sm.data(), mx.data(), tmp, kt)) {
    leave.Modelled();
  }
}

}  // namespace lngrad::aicore::softmax_detail
