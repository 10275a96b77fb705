// lngrad: the 2201 AR (last-axis) sequence of the high-level ReduceMean on half: the kit's
// reduce_mean_v220_impl.h runs reduce_sum_v220_impl.h's ReduceSumCommon on half rows, whose steps
// keep the float constants (8 elements a block, 64 a repeat) while the instructions run on half
// (16 a block, 128 a repeat). Run over src, the work area and dst as the device leaves them:
// - padLast = last rounded up to 16; split = the largest power of two <= last (0 when last <= 16),
//   tail = last - split, p = max(16, split), halved when last = split.
// - last <= 8: BlkReduceForLoop, one 16-lane block tree per row (lanes past last +0), the whole
//   2040-row calls all at offset 0 (rows 2040 .. calls * 2040 - 1 keep dst's bytes).
// - last <= 64: one WholeReduceSum per row (the 128-lane tree, lanes past last +0).
// - longer rows, in groups of 248 (group g's work area 248g * 64 halves into the scratch, or src
//   with isReuseSource): not reusing, a DataCopy of p / 8 blocks (2p halves) a row with gaps of
//   (padLast - p) / 8 blocks, so work row r (at 2p r) holds src row 2r's first 2p halves: rows
//   past the group's end are read from whatever follows (src's tensor, or the UB unchecked). The
//   tail (tail, or padLast - p when tail = 0) added onto the work rows: as repeats over the rows
//   (work stride p / 8 blocks, reusing padLast / 8; src's padLast / 8; uint8_t, 16 halves a
//   block, so rows 2r again) when the tail's 64-lane slices are fewer than the rows and p / 8 <=
//   255, else per row r (work at r * p, reusing r * padLast; src row r past p). Reusing, a
//   DataCopy moves 2p halves from 2r * padLast to 2p r. PairReduceSum halvings of rows * k halves
//   while k > 64, BlockReduceSum of rows * 64 halves into the first rows * 4, BlockReduceSum of
//   rows * 8 halves into dst: only the group's first ceil(rows / 2) results are written.
// - dst[0..first) times half(1.0f / int32_t(last)) (Muls), the unwritten ones with the rest.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "lib/reduce/reduce_ar_2201.h"
#include "lib/reduce/reduce_model.h"

namespace lngrad::aicore::reduce_detail {

// ReduceSumCommon's plan for half rows: blocks of 16 halves.
using ArMeanHalfPlan = ArSumPlan;
inline ArMeanHalfPlan PlanArMeanHalf(uint32_t first, uint32_t last) {
  return PlanArBlocks(first, last, 16);
}

// The halves of the work area (the scratch; src reusing it) the sequence stores to (mode 0), or
// the halves of src it reads or stores (mode 1), from the area's start.
inline uint64_t ArMeanHalfReach(const ArMeanHalfPlan& q, bool reuse, bool in_src) {
  uint64_t reach = in_src ? uint64_t{q.first} * q.pad : 0;
  if (q.last <= 64 || (reuse && !in_src)) return reuse && !in_src ? 0 : reach;
  for (uint64_t g = 0; g * kArSumGroup < q.first; ++g) {
    const uint64_t rows = std::min<uint64_t>(kArSumGroup, q.first - g * kArSumGroup);
    const uint64_t rows_end = (rows - 1) * 2 * q.pad + 2 * q.p;
    if (!in_src) {
      reach = std::max(reach, g * kArSumGroup * 64 + rows * 2 * q.p);
    } else {
      reach = std::max(reach, g * kArSumGroup * (reuse ? 64 : q.pad) + rows_end);
    }
  }
  return reach;
}

// The tail adds of one group (ReduceSumComputeTail on half): src rows at s, the work at w.
inline void ArMeanHalfTail(const ArMeanHalfPlan& q, bool reuse, const half* s, half* w,
                           uint32_t rows) {
  const uint32_t len = q.tail == 0 ? q.pad - q.p : q.tail;
  const bool repeats = (len + 63) / 64 < rows && q.p / 8 <= 255;
  if (repeats) {  // per 64-lane slice, `rows` repeats; strides in 16-half blocks, as uint8_t
    const uint64_t wstep = uint64_t{static_cast<uint8_t>((reuse ? q.pad : q.p) / 8)} * 16;
    const uint64_t sstep = uint64_t{static_cast<uint8_t>(q.pad / 8)} * 16;
    half lane[64];
    for (uint32_t c = 0; c * 64 < len; ++c) {
      const uint32_t n = std::min<uint32_t>(64, len - c * 64);
      for (uint64_t i = 0; i < rows; ++i) {
        half* d = w + i * wstep + c * 64;
        const half* a = s + q.p + i * sstep + c * 64;
        for (uint32_t l = 0; l < n; ++l) lane[l] = detail::rep::Add(d[l], a[l]);
        std::copy(lane, lane + n, d);
      }
    }
  } else {  // one counter-mode Add per row, 128-lane repeats reading before they store
    half lane[128];
    for (uint64_t i = 0; i < rows; ++i) {
      half* d = w + i * (reuse ? q.pad : q.p);
      const half* a = s + i * q.pad + q.p;
      for (uint32_t b = 0; b < len; b += 128) {
        const uint32_t n = std::min<uint32_t>(128, len - b);
        for (uint32_t l = 0; l < n; ++l) lane[l] = detail::rep::Add(d[b + l], a[b + l]);
        std::copy(lane, lane + n, d + b);
      }
    }
  }
}

// DataCopy of `rows` bursts of 2p halves from s + 2r * pad to w + 2p r, block by block in order.
inline void ArMeanHalfCopy(const ArMeanHalfPlan& q, const half* s, half* w, uint32_t rows) {
  for (uint64_t r = 0; r < rows; ++r) {
    for (uint64_t b = 0; b < 2 * q.p; b += 16) {
      std::memmove(w + 2 * q.p * r + b, s + 2 * q.pad * r + b, 16 * sizeof(half));
    }
  }
}

// One ReduceSumInLargeLast call over `rows` rows, on half.
inline void ArMeanHalfGroup(const ArMeanHalfPlan& q, bool reuse, const half* s, half* w, half* d,
                            uint32_t rows) {
  if (!reuse) ArMeanHalfCopy(q, s, w, rows);
  ArMeanHalfTail(q, reuse, s, w, rows);
  if (reuse) ArMeanHalfCopy(q, w, w, rows);
  for (uint64_t k = q.p; k > 64; k /= 2) {
    for (uint64_t i = 0; i < rows * k / 2; ++i) w[i] = detail::rep::Add(w[2 * i], w[2 * i + 1]);
  }
  half v[16];
  for (uint64_t b = 0; b < uint64_t{rows} * 4; ++b) {
    std::copy(w + 16 * b, w + 16 * b + 16, v);
    w[b] = detail::rep::PairTree(v, 16);
  }
  const uint64_t n = uint64_t{rows} * 8;
  for (uint64_t b = 0; b * 16 < n; ++b) {
    for (uint32_t l = 0; l < 16; ++l) v[l] = b * 16 + l < n ? w[b * 16 + l] : half(0.0f);
    d[b] = detail::rep::PairTree(v, 16);
  }
}

// ReduceMean<half, AR> on 2201: dst, src (reusing, and read past its rows) and the work area
// `w` (the scratch, unused reusing src) as the device leaves them.
inline void RunArMeanHalf2201(bool reuse, const ArMeanHalfPlan& q, half* x, half* w, half* d) {
  half v[128];
  if (q.last <= 8) {
    constexpr uint32_t kCall = 255 * 8;
    const auto row = [&](uint64_t r) {
      for (uint32_t l = 0; l < 16; ++l) v[l] = l < q.last ? x[r * 16 + l] : half(0.0f);
      d[r] = detail::rep::PairTree(v, 16);
    };
    for (uint32_t c = 0; c < q.first / kCall; ++c) {
      for (uint32_t r = 0; r < kCall; ++r) row(r);  // every whole call at offset 0
    }
    for (uint64_t r = uint64_t{q.first} / kCall * kCall; r < q.first; ++r) row(r);
  } else if (q.last <= 64) {
    for (uint64_t r = 0; r < q.first; ++r) {
      for (uint32_t l = 0; l < 128; ++l) v[l] = l < q.last ? x[r * q.pad + l] : half(0.0f);
      d[r] = detail::rep::RepeatSum(v);
    }
  } else {
    for (uint64_t g = 0; g * kArSumGroup < q.first; ++g) {
      const uint32_t rows =
          static_cast<uint32_t>(std::min<uint64_t>(kArSumGroup, q.first - g * kArSumGroup));
      ArMeanHalfGroup(q, reuse, x + g * kArSumGroup * q.pad, (reuse ? x : w) + g * kArSumGroup * 64,
                      d + g * kArSumGroup, rows);
    }
  }
  for (uint64_t r = 0; r < q.first; ++r) d[r] = Scale(d[r], q.last);
}

}  // namespace lngrad::aicore::reduce_detail
