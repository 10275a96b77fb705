// ReduceMax/ReduceMin (float, half) and float ReduceAny/ReduceAll over the last axis on 2201,
// with what they leave in dst, src and sharedTmpBuffer (replay_reduce_ar_scratch.h).
// Provenance: a separate reading, by the helper (rar) who then changed lngrad to match, written
// before lngrad's code for it, of the toolkit's (mirror commit 82b89a15f)
// impl/adv_api/detail/reduce/reduce_common_util_v220_impl.h (BlockReduceByLastAxis,
// DoReduceLessThanBlk, DoReduceOneBlk, DoReduceByBlk, AccValOnBlk, DoReduceByRep, AccValOnRep,
// GetReduceValOnRep, DoLongLastReduce), reduce_common_util_impl.h (ComputeMaskBit,
// BlockReduceCompute, WholeReduceCompute) and reduce_{max,min,any,all}/*_v220_impl.h (Max<T> or
// Min<T> as the binary step; Any/All on float pass API_MODE_ANY/ALL, which BlockReduceCompute
// and WholeReduceCompute run as Max/Min). With B the elements of a 32-byte block and R of a
// 256-byte repeat (float 8 and 64, half 16 and 128), padLast = last rounded up to B:
// - last < B: BlockReduceMax/Min of each row's first `last` lanes (the rows as consecutive
//   blocks); last == B: the same over whole blocks (counter mode).
// - B < last < R (DoReduceByBlk): not reusing, Adds(tmp, src, 0) copies each row's first block
//   to tmp row r (r * B); Max/Min of it with the row's blocks 1 .. last / B - 1, then with the
//   partial block's first last % B lanes; the block reduction of each tmp row into dst. Reusing,
//   the same steps in place in each row's first block in src, reduced from there.
// - R <= last <= 255 * B (DoReduceByRep): the same by repeats: tmp row r (r * R) = the row's
//   first repeat + 0, Max/Min with its repeats 1.. and the partial repeat's lanes; reusing, in
//   place in the row's first repeat in src (row stride padLast / B blocks).
// - longer (DoLongLastReduce): tmp row r (r * R) = the row's first repeat + 0, then for each
//   further repeat (the last one its last % R lanes, or R) every row's Max/Min; reusing, row by
//   row src[r * R ..] = Max/Min(src row r's repeat 0 (then src[r * R ..]), its repeat j).
// - GetReduceValOnRep, the repeat rows (tmp rows at R, reusing ByRep src rows at padLast,
//   LongLast src[r * R]): half, WholeReduceMax/Min of each row's R lanes into dst; float,
//   BlockReduceMax/Min in counter mode over first * 64 floats with the rows' stride: the 8 block
//   results of row r stored at buf[8r ..] (the work buffer, in src when reusing), then
//   BlockReduceMax/Min of those 8 into dst[r].
// Instructions, as the basic API pages give them: Max/Min a > b ? a : b (a < b ? a : b), the
// chosen element kept bit for bit; Adds of 0 rounds once in T (-0 becomes +0); the lane
// reductions keep the first extreme lane, +0 and -0 tie, the first NaN wins over every number;
// a repeat reads its lanes before it stores; no lane outside the masks is stored.
//
// uint8_t ReduceAny/ReduceAll (BinaryReduceAnyAllCompute, Max<half>/Min<half>; splitK = the
// largest power of two <= last, 0 when last < 32; tail = last - splitK): per row i, the
// scratch's halves [0, padLast) = Cast<half>(src row i) (CAST_NONE, all padLast bytes); when
// tail and splitK: h[l] = f(h[l], h[splitK + l]) for l < tail; while k (from splitK) > 16: k
// halves, h[l] = f(h[l], h[k + l]) for l < k; h[padLast + 16i + l] = h[l] + 0 for l < 16. Then
// BlkReduceForLoop<half> from h[padLast] into h[0..first): per block of 16 halves the extreme
// of its first min(last, 16) lanes (so rows of 17..31 bytes take part with their first 16
// only), its whole 2040-block calls all at offset 0; dst[r] = Cast<uint8_t>(h[r]).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "replay_reduce_ar_scratch.h"

namespace lngrad_replay {
namespace {

float W(float v) { return v; }
float W(Half v) { return HalfToFloat(v); }

template <class T>
struct Buf {
  T* p;
  uint64_t n;
  bool* bad;
  T& operator[](uint64_t i) const {
    static T sink;
    if (i >= n) {
      *bad = true;
      return sink;
    }
    return p[i];
  }
};

template <class T>
T Pick(bool isMax, T a, T b) {
  return isMax ? (W(a) > W(b) ? a : b) : (W(a) < W(b) ? a : b);
}

template <class T>
T Lanes(bool isMax, const Buf<T>& v, uint64_t at, uint32_t n) {
  T best = v[at];
  for (uint32_t i = 1; i < n; ++i) {
    const T c = v[at + i];
    if (std::isnan(W(best))) break;
    if (std::isnan(W(c)) || (isMax ? W(c) > W(best) : W(c) < W(best))) best = c;
  }
  return best;
}

template <class T>
T Plus0(T a) {
  return FromFloat<T>(W(a) + 0.0f);
}

struct Shape {
  uint32_t first, last, pad, B, R;
  bool isMax, reuse;
};

// GetReduceValOnRep over rows of R elements at buf + r * stride.
template <class T>
void RepValues(const Shape& q, const Buf<T>& buf, uint64_t stride, const Buf<T>& dst) {
  if constexpr (std::is_same_v<T, Half>) {
    for (uint32_t r = 0; r < q.first; ++r) dst[r] = Lanes(q.isMax, buf, r * stride, q.R);
  } else {
    T out[8];
    for (uint32_t r = 0; r < q.first; ++r) {
      for (uint32_t b = 0; b < 8; ++b) out[b] = Lanes(q.isMax, buf, r * stride + b * 8, 8);
      for (uint32_t b = 0; b < 8; ++b) buf[uint64_t{r} * 8 + b] = out[b];
    }
    for (uint32_t r = 0; r < q.first; ++r) dst[r] = Lanes(q.isMax, buf, uint64_t{r} * 8, 8);
  }
}

// DoReduceByBlk (unit B) and DoReduceByRep (unit R): the row's first unit accumulates.
template <class T>
void ByUnit(const Shape& q, const Buf<T>& src, const Buf<T>& tmp, const Buf<T>& dst,
            uint32_t unit) {
  const Buf<T>& w = q.reuse ? src : tmp;
  const uint64_t ws = q.reuse ? q.pad : unit;  // the accumulating rows' stride
  if (!q.reuse) {
    for (uint64_t r = 0; r < q.first; ++r) {
      for (uint32_t l = 0; l < unit; ++l) tmp[r * unit + l] = Plus0(src[r * q.pad + l]);
    }
  }
  const uint32_t count = q.last / unit, rest = q.last % unit;
  for (uint32_t i = 1; i <= count; ++i) {
    const uint32_t lanes = i < count ? unit : rest;
    for (uint64_t r = 0; r < q.first; ++r) {
      for (uint32_t l = 0; l < lanes; ++l) {
        w[r * ws + l] = Pick(q.isMax, w[r * ws + l], src[r * q.pad + uint64_t{i} * unit + l]);
      }
    }
  }
  if (unit == q.B) {
    for (uint32_t r = 0; r < q.first; ++r) dst[r] = Lanes(q.isMax, w, r * ws, q.B);
  } else {
    RepValues(q, w, ws, dst);
  }
}

template <class T>
void LongLast(const Shape& q, const Buf<T>& src, const Buf<T>& tmp, const Buf<T>& dst) {
  const uint32_t reps = (q.last + q.R - 1) / q.R;
  const uint32_t lastLanes = q.last % q.R == 0 ? q.R : q.last % q.R;
  if (!q.reuse) {
    for (uint64_t r = 0; r < q.first; ++r) {
      for (uint32_t l = 0; l < q.R; ++l) tmp[r * q.R + l] = Plus0(src[r * q.pad + l]);
    }
    for (uint32_t i = 1; i < reps; ++i) {
      const uint32_t lanes = i == reps - 1 ? lastLanes : q.R;
      for (uint64_t r = 0; r < q.first; ++r) {
        for (uint32_t l = 0; l < lanes; ++l) {
          tmp[r * q.R + l] = Pick(q.isMax, tmp[r * q.R + l], src[r * q.pad + i * q.R + l]);
        }
      }
    }
    RepValues(q, tmp, q.R, dst);
    return;
  }
  std::vector<T> v(q.R);
  for (uint64_t r = 0; r < q.first; ++r) {
    for (uint32_t j = 1; j < reps; ++j) {
      const uint32_t lanes = j == reps - 1 ? lastLanes : q.R;
      const uint64_t a = j == 1 ? r * q.pad : r * q.R;
      for (uint32_t l = 0; l < lanes; ++l) {
        v[l] = Pick(q.isMax, src[a + l], src[r * q.pad + uint64_t{j} * q.R + l]);
      }
      for (uint32_t l = 0; l < lanes; ++l) src[r * q.R + l] = v[l];
    }
  }
  RepValues(q, src, q.R, dst);
}

template <class T>
bool MaxMin(ArOp op, bool reuse, T* src, T* dst, uint32_t first, uint32_t last, uint8_t* scratch,
            uint32_t tmpBytes) {
  if (op != ArOp::kMax && op != ArOp::kMin && op != ArOp::kAny && op != ArOp::kAll) return false;
  bool bad = false;
  Shape q{first, last, 0, 32 / sizeof(T), 256 / sizeof(T), op == ArOp::kMax || op == ArOp::kAny,
          reuse};
  q.pad = (last + q.B - 1) / q.B * q.B;
  std::vector<T> work(tmpBytes / sizeof(T));
  std::memcpy(work.data(), scratch, work.size() * sizeof(T));
  const Buf<T> s{src, uint64_t{first} * q.pad, &bad}, d{dst, first, &bad};
  const Buf<T> t{work.data(), work.size(), &bad};
  if (last <= q.B) {
    for (uint32_t r = 0; r < first; ++r) d[r] = Lanes(q.isMax, s, uint64_t{r} * q.B, last);
  } else if (last < q.R) {
    ByUnit(q, s, t, d, q.B);
  } else if (last <= 255 * q.B) {
    ByUnit(q, s, t, d, q.R);
  } else {
    LongLast(q, s, t, d);
  }
  std::memcpy(scratch, work.data(), work.size() * sizeof(T));
  return !bad;
}

}  // namespace

bool ReplayReduceAnyAllU8ArScratch(bool any, const uint8_t* src, uint8_t* dst, uint32_t first,
                                   uint32_t last, uint8_t* scratch, uint32_t tmpBytes) {
  if (last == 0) return false;  // FindClosestPowerOfTwo asserts n != 0
  bool bad = false;
  const uint32_t pad = (last + 31) / 32 * 32;
  uint32_t lg = 0;
  while ((uint64_t{2} << lg) <= last) ++lg;
  const uint32_t splitK = last < 32 ? 0 : 1u << lg, tail = last - splitK;
  std::vector<Half> work(tmpBytes / 2);
  std::memcpy(work.data(), scratch, work.size() * 2);
  const Buf<Half> h{work.data(), work.size(), &bad};
  for (uint32_t i = 0; i < first; ++i) {
    for (uint32_t l = 0; l < pad; ++l)
      h[l] = FloatToHalf(static_cast<float>(src[uint64_t{i} * pad + l]));
    for (uint32_t l = 0; splitK > 0 && l < tail; ++l) h[l] = Pick(any, h[l], h[splitK + l]);
    for (uint32_t k = splitK; k > 16;) {
      k >>= 1;
      for (uint32_t l = 0; l < k; ++l) h[l] = Pick(any, h[l], h[k + l]);
    }
    for (uint32_t l = 0; l < 16; ++l) h[pad + 16 * uint64_t{i} + l] = Plus0(h[l]);
  }
  const uint32_t lanes = last > 16 ? 16 : last, perCall = 255 * 8, calls = first / perCall;
  for (uint32_t c = 0; c < calls; ++c) {
    for (uint32_t b = 0; b < perCall; ++b) h[b] = Lanes(any, h, pad + 16 * uint64_t{b}, lanes);
  }
  for (uint32_t b = calls * perCall; b < first; ++b) {
    h[b] = Lanes(any, h, pad + 16 * uint64_t{b}, lanes);
  }
  for (uint32_t r = 0; r < first; ++r) dst[r] = static_cast<uint8_t>(HalfToFloat(h[r]));
  std::memcpy(scratch, work.data(), work.size() * 2);
  return !bad;
}

bool ReplayReduceMaxMinArScratch(ArOp op, bool reuse, float* src, float* dst, uint32_t first,
                                 uint32_t last, uint8_t* scratch, uint32_t tmpBytes) {
  return MaxMin(op, reuse, src, dst, first, last, scratch, tmpBytes);
}

bool ReplayReduceMaxMinArScratch(ArOp op, bool reuse, Half* src, Half* dst, uint32_t first,
                                 uint32_t last, uint8_t* scratch, uint32_t tmpBytes) {
  return MaxMin(op, reuse, src, dst, first, last, scratch, tmpBytes);
}

}  // namespace lngrad_replay
