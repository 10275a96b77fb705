// The [A, R] normalization family on the simulated device (spec §10): Normalize and LayerNorm
// with mean and rstd outputs, the vector path of arch 2201/2002 and the register path of 3510.
// The operation order was read from the toolkit's layernorm_common_impl.h,
// layernorm_common_basic_impl.h, normalize_common_impl.h, layernorm_3510_impl.h and
// normalize_3510_impl.h and is written down in spec §10.
#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "operands.h"

namespace lngrad::adv {

namespace detail {
// LayerNorm's row reduction (layernorm.cpp): fold each row of h onto 64 lanes, one tree per row,
// the sums to mv[r] and to dst[r*h].
void LayerNormFoldReduce(const Ops& ops, float* mv, float* dst, float* src, uint32_t bs,
                         uint32_t h);
}  // namespace detail

namespace {

using detail::kRepeatLanes;
using detail::Ops;

constexpr const char* kNormalize = "Normalize";
constexpr const char* kLayerNorm = "LayerNorm";

template <typename T>
constexpr bool kIsHalf = std::is_same_v<std::remove_const_t<T>, Half>;

Status BadShape(const char* api, const std::string& what) {
  return Status::InvalidArgument(std::string(api) + ": " + what);
}

Status CheckShape(const char* api, const ArShape& s) {
  if (s.aLength == 0 || s.rLength == 0) {
    return BadShape(api, "para.aLength = " + std::to_string(s.aLength) + " and para.rLength = " +
                             std::to_string(s.rLength) + " must be greater than 0");
  }
  return Status::Ok();
}

// Normalize's row groups on the vector path (GetNormalizeTensorInfo): N rows of the padded
// length in each of two buffers, after nothing (float gamma) or before two float rows for the
// cast gamma and beta (half gamma). The device computes N in uint32 arithmetic.
uint32_t GroupRows(const ArShape& s, bool half_gamma, uint64_t scratch_size) {
  const uint32_t size = static_cast<uint32_t>(scratch_size);
  const uint32_t r2 = s.rLengthWithPadding * 2;
  if (r2 == 0) return 0;
  const uint32_t n = half_gamma ? (size - r2) / r2 : size / r2;
  return std::min(n, s.aLength);
}

// ------------------------------------------------------------------------------------------
// Normalize, vector path.

template <typename T>
void LoadRows(const Ops& ops, float* dst, const T* src, uint64_t n) {
  if constexpr (kIsHalf<T>) {
    ops.CastHalfToFloat(dst, src, n);
  } else {
    ops.Adds(dst, src, 0.0f, n);  // CastSrc: Adds(x, 0), which turns -0 into +0
  }
}

template <typename T>
void StoreRows(const Ops& ops, T* dst, const float* src, uint64_t n) {
  if constexpr (kIsHalf<T>) {
    ops.CastFloatToHalf(dst, src, n);
  } else {
    ops.Adds(dst, src, 0.0f, n);
  }
}

template <typename T, typename U>
void NormalizeVector(const Ops& ops, const ArShape& s, uint32_t group,
                     const NormalizeOperands<T, U>& o, float epsilon) {
  const uint64_t rp = s.rLengthWithPadding;
  const uint32_t r = s.rLength;
  const uint32_t a = s.aLength;
  float* ta = o.scratch.data;
  float* tb = ta + uint64_t{group} * rp;
  // GetNormalizeOutputRstd: rstd = ones / sqrt(var + eps).
  ops.Adds(o.outputRstd.data, o.inputVariance.data, epsilon, a);
  ops.Fill(ta, 1.0f, a);
  ops.Sqrt(o.outputRstd.data, o.outputRstd.data, a);
  ops.Div(o.outputRstd.data, ta, o.outputRstd.data, a);
  const float* gamma = nullptr;
  const float* beta = nullptr;
  if constexpr (kIsHalf<U>) {
    float* g = ta + 2 * uint64_t{group} * rp;
    float* b = g + rp;
    if (!s.isNoGamma) ops.CastHalfToFloat(g, o.gamma.data, r);
    if (!s.isNoBeta) ops.CastHalfToFloat(b, o.beta.data, r);
    gamma = g;
    beta = b;
  } else {
    gamma = o.gamma.data;
    beta = o.beta.data;
  }
  auto run = [&](uint64_t row0, uint32_t n) {
    const uint64_t base = row0 * rp;
    const uint64_t len = uint64_t{n} * rp;
    LoadRows(ops, ta, o.inputX.data + base, len);
    for (uint32_t i = 0; i < n; ++i) ops.Fill(tb + i * rp, o.inputMean.data[row0 + i], r);
    ops.Sub(ta, ta, tb, len);
    for (uint32_t i = 0; i < n; ++i) ops.Fill(tb + i * rp, o.outputRstd.data[row0 + i], r);
    ops.Mul(ta, ta, tb, len);
    for (uint32_t i = 0; i < n; ++i) {
      if (!s.isNoGamma) ops.Mul(ta + i * rp, ta + i * rp, gamma, r);
      if (!s.isNoBeta) ops.Add(ta + i * rp, ta + i * rp, beta, r);
    }
    StoreRows(ops, o.output.data + base, ta, len);
  };
  const uint32_t groups = a / group;
  for (uint32_t g = 0; g < groups; ++g) run(uint64_t{g} * group, group);
  if (a % group > 0) run(uint64_t{groups} * group, a % group);
}

// ------------------------------------------------------------------------------------------
// Register path (3510).

template <typename T>
constexpr bool kIsBf16 = std::is_same_v<std::remove_const_t<T>, BFloat16>;

// A lane of the 3510 loads: half and bfloat16 widen exactly (DIST_UNPACK_B16 and the layoutZMrgZ
// Cast); the store's Cast (LayoutZMrgZRndRSatNS) rounds to nearest even without saturation.
template <typename T>
float Lane(const T* p) {
  if constexpr (kIsHalf<T> || kIsBf16<T>) {
    return p->ToFloat();
  } else {
    return *p;
  }
}

template <typename T>
void StoreLane(T* p, float v) {
  if constexpr (kIsHalf<T>) {
    *p = Half::FromBits(FloatToHalfBits(v));
  } else if constexpr (kIsBf16<T>) {
    *p = BFloat16::FromBits(FloatToBFloat16Bits(v));
  } else {
    *p = v;
  }
}

// RsqrtUtil: 1/x, its square root, one Newton step on y and one on the residual, each a chain of
// fused multiply-adds; x = +inf gives 0, x = 0 gives +inf.
float RegRsqrt(float x) {
  const float r0 = 1.0f / x;
  float y = std::sqrt(r0);
  float t = x * -0.5f;
  t = t * y;
  const float n15 = std::fma(t, y, 1.5f);
  y = y * n15;
  float n1 = x * -1.0f;
  float s = std::fma(n1, r0, 1.0f);
  n1 = y * -1.0f;
  const float r = std::fma(n1, y, r0);
  s = std::fma(x, r, s);
  s = s * y;
  y = std::fma(s, 0.5f, y);
  if (x == INFINITY) y = 0.0f;
  if (x == 0.0f) y = INFINITY;
  return y;
}

template <typename T, typename U>
void NormalizeRegBase(const ArShape& s, const float* mean, const float* variance, float* rstd,
                      const T* x, const U* gamma, const U* beta, T* out, float epsilon) {
  const uint64_t rp = s.rLengthWithPadding;
  const uint32_t r = s.rLength;
  for (uint32_t j = 0; j < s.aLength; ++j) rstd[j] = RegRsqrt(variance[j] + epsilon);
  for (uint32_t j = 0; j < s.aLength; ++j) {
    const float m = mean[j];
    const float d = rstd[j];
    for (uint32_t c = 0; c < r; ++c) {
      float v = Lane(x + j * rp + c) - m;
      v = v * d;
      if (!s.isNoGamma && !s.isNoBeta) {
        v = std::fma(Lane(gamma + c), v, Lane(beta + c));
      } else {
        if (!s.isNoGamma) v = v * Lane(gamma + c);
        if (!s.isNoBeta) v = v + Lane(beta + c);
      }
      StoreLane(out + j * rp + c, v);
    }
  }
}

// ComputeMeanVariance64VF / 128VF for one row: lanes beyond R are zero in every sum (masked
// loads of half, zeroing masked multiplies); the tree is the 64-lane WholeReduceSum tree.
template <typename T>
void RegMeanVariance(const Ops& ops, const T* row, uint32_t r, float k2_rec, float k2_r_rec,
                     float* mean, float* variance) {
  float lo[kRepeatLanes] = {};
  float hi[kRepeatLanes] = {};
  const uint32_t n_lo = std::min(r, kRepeatLanes);
  const uint32_t n_hi = r - n_lo;
  for (uint32_t l = 0; l < n_lo; ++l) lo[l] = Lane(row + l);
  for (uint32_t l = 0; l < n_hi; ++l) hi[l] = Lane(row + kRepeatLanes + l);
  float sum[kRepeatLanes] = {};
  for (uint32_t l = 0; l < n_lo; ++l) sum[l] = lo[l] * k2_rec;
  // 128VF multiplies the full low register and adds the masked high one; in 64VF there is no
  // addition (one register).
  if (r > kRepeatLanes) {
    for (uint32_t l = 0; l < kRepeatLanes; ++l)
      sum[l] = sum[l] + (l < n_hi ? hi[l] * k2_rec : 0.0f);
  }
  const float m = ops.Tree(sum, kRepeatLanes) * k2_r_rec;
  *mean = m;
  for (uint32_t l = 0; l < kRepeatLanes; ++l) sum[l] = 0.0f;
  for (uint32_t l = 0; l < n_lo; ++l) {
    const float dv = lo[l] - m;
    sum[l] = (dv * dv) * k2_rec;
  }
  if (r > kRepeatLanes) {
    for (uint32_t l = 0; l < kRepeatLanes; ++l) {
      float h = 0.0f;
      if (l < n_hi) {
        const float dv = hi[l] - m;
        h = (dv * dv) * k2_rec;
      }
      sum[l] = sum[l] + h;
    }
  }
  *variance = ops.Tree(sum, kRepeatLanes) * k2_r_rec;
}

// ComputeMeanVarianceUseY for one row (R > 128, rHeadLength = head, a power of two with
// head <= R < 2 * head): the head's 64-lane blocks in pairs, each with the block rHeadLength
// further on (the tail, masked to R) folded in by Axpy (a fused multiply-add), one tree per
// pair into head / 128 partial sums, which are folded 64 lanes at a time and summed by one
// last tree. The device keeps the partial sums at the start of the output row; they are
// overwritten later and kept in a local buffer here.
template <typename T>
float RegFoldedPass(const Ops& ops, const T* row, uint32_t r, uint32_t head, float k2_rec,
                    float k2_r_rec, bool variance, float mean) {
  const uint32_t m = r - head;
  const uint32_t entries = head / (2 * kRepeatLanes);
  const uint32_t r1 = static_cast<uint32_t>(detail::CeilDiv(m, kRepeatLanes)) / 2;
  uint32_t c2 = m % (2 * kRepeatLanes);
  if (r1 * 2 * kRepeatLanes > m) c2 = 0;
  const uint32_t r2 = static_cast<uint32_t>(detail::CeilDiv(c2, kRepeatLanes));
  const uint32_t mvl = (r1 + r2) * 2 * kRepeatLanes;
  const uint32_t r3 = (head - mvl) / (2 * kRepeatLanes);
  // One lane's term: x * k2Rec for the mean, ((x - mean)^2) * k2Rec for the variance; `s` is
  // the squared difference when the device squares before the multiply.
  auto sq = [&](uint64_t i) {
    const float d = Lane(row + i) - mean;
    return d * d;
  };
  auto head_term = [&](uint64_t i, float acc) {
    return variance ? std::fma(sq(i), k2_rec, acc) : std::fma(Lane(row + i), k2_rec, acc);
  };
  auto plain_term = [&](uint64_t i) { return variance ? sq(i) * k2_rec : Lane(row + i) * k2_rec; };
  std::vector<float> work(std::max<uint32_t>(entries, kRepeatLanes), 0.0f);
  float d0[kRepeatLanes], d1[kRepeatLanes], sum[kRepeatLanes];
  auto tree_into = [&](uint32_t slot) {
    for (uint32_t l = 0; l < kRepeatLanes; ++l) sum[l] = d0[l] + d1[l];
    work[slot] = ops.Tree(sum, kRepeatLanes);
  };
  for (uint32_t i = 0; i < r1; ++i) {
    const uint64_t a = 2 * uint64_t{i} * kRepeatLanes;
    const uint64_t b = a + kRepeatLanes;
    for (uint32_t l = 0; l < kRepeatLanes; ++l) {
      const float ta = a + l < m ? plain_term(head + a + l) : 0.0f;
      const float tb = b + l < m ? plain_term(head + b + l) : 0.0f;
      d0[l] = head_term(a + l, ta);
      d1[l] = head_term(b + l, tb);
    }
    tree_into(i);
  }
  if (r2 > 0) {
    const uint64_t a = uint64_t{r1} * 2 * kRepeatLanes;
    for (uint32_t l = 0; l < kRepeatLanes; ++l) {
      d0[l] = head_term(a + l, l < c2 ? plain_term(head + a + l) : 0.0f);
      d1[l] = plain_term(a + kRepeatLanes + l);
    }
    tree_into(r1);
  }
  for (uint32_t i = 0; i < r3; ++i) {
    const uint64_t a = mvl + 2 * uint64_t{i} * kRepeatLanes;
    for (uint32_t l = 0; l < kRepeatLanes; ++l) {
      d0[l] = plain_term(a + l);
      d1[l] = plain_term(a + kRepeatLanes + l);
    }
    tree_into(r1 + r2 + i);
  }
  // ReduceWorkBufferAndStore: halve the 64-lane groups of partial sums until one is left.
  uint32_t groups = static_cast<uint32_t>(detail::CeilDiv(entries, kRepeatLanes));
  while (groups > 1) {
    groups /= 2;
    for (uint32_t g = 0; g < groups; ++g) {
      float* lo = work.data() + uint64_t{g} * kRepeatLanes;
      ops.Add(lo, lo, lo + uint64_t{groups} * kRepeatLanes, kRepeatLanes);
    }
  }
  return ops.Tree(work.data(), std::min(entries, kRepeatLanes)) * k2_r_rec;
}

// ------------------------------------------------------------------------------------------
// LayerNorm [A, R], vector path.

struct SepChunk {
  uint64_t in_off;
  uint64_t mv_off;
  uint32_t ar;
  uint32_t a;
};

template <class F>
void ForBoundingSepChunks(const LayerNormSeparateTiling& t, F f) {
  detail::ForBoundingRoundAndTail<SepChunk>(t, &LayerNormSeparateTiling::arCurLength,
                                            &LayerNormSeparateTiling::aCurLength, f);
}

// The device writes the tail lengths into the (const-cast) tiling and leaves them there.
template <class F>
void ForEachSepChunk(LayerNormSeparateTiling& t, F f) {
  detail::ForEachRoundAndTail<SepChunk>(t, &LayerNormSeparateTiling::arCurLength,
                                        &LayerNormSeparateTiling::aCurLength, f);
}

template <typename T>
void LoadCopy(const Ops& ops, float* dst, const T* src, uint64_t n) {
  if constexpr (kIsHalf<T>) {
    ops.CastHalfToFloat(dst, src, n);
  } else {
    std::copy(src, src + n, dst);  // DataCopy UB -> UB: bits
  }
}

template <typename T, typename U>
void LayerNormRstdVector(const Ops& ops, LayerNormSeparateTiling& t, const ArShape& s,
                         const LayerNormRstdOperands<T, U>& o, float epsilon, uint32_t group) {
  const uint32_t rp = s.rLengthWithPadding;
  float* st = o.scratch.data;
  if (s.rLength != rp) {
    // LayerNormPreProc: a row of ones over rLength and zeros after it, in T at the scratch's
    // start, multiplies every padded row of x in place.
    T* mask = reinterpret_cast<T*>(st);
    if constexpr (kIsHalf<T>) {
      ops.Fill(mask, Half::FromBits(0), rp);
      ops.Scalar(aicore::ScalarOp::kAdds, mask, mask, 1.0f, s.rLength);
      for (uint64_t i = 0; i < s.aLength; ++i) {
        ops.Binary(aicore::BinaryOp::kMul, o.inputX.data + i * rp, o.inputX.data + i * rp, mask,
                   rp);
      }
    } else {
      ops.Fill(mask, 0.0f, rp);
      ops.Adds(mask, mask, 1.0f, s.rLength);
      for (uint64_t i = 0; i < s.aLength; ++i)
        ops.Mul(o.inputX.data + i * rp, o.inputX.data + i * rp, mask, rp);
    }
  }
  float* variance = st + t.varianceTmpTensorPos;
  float* ta = st + t.firstTmpStartPos;
  float* tb = st + t.secondTmpStartPos;
  ForEachSepChunk(t, [&](const SepChunk& c) {
    const T* x = o.inputX.data + c.in_off;
    float* mean = o.outputMean.data + c.mv_off;
    LoadCopy(ops, ta, x, c.ar);
    ops.Muls(ta, ta, t.rValueBack, c.ar);
    detail::LayerNormFoldReduce(ops, mean, tb, ta, c.a, rp);
    LoadCopy(ops, ta, x, c.ar);
    for (uint64_t j = 0; j < c.a; ++j) {
      const float neg = -1.0f * mean[j];
      ops.Adds(ta + j * rp, ta + j * rp, neg, t.rLength);
    }
    ops.Mul(ta, ta, ta, c.ar);
    ops.Muls(ta, ta, t.rValueBack, c.ar);
    detail::LayerNormFoldReduce(ops, variance + c.mv_off, tb, ta, c.a, rp);
  });
  NormalizeOperands<T, U> n;
  n.output = o.output;
  n.outputRstd = o.outputRstd;
  n.inputMean = {o.outputMean.data, o.outputMean.capacity};
  n.inputVariance = {variance, s.aLength};
  n.inputX = {o.inputX.data, o.inputX.capacity};
  n.gamma = o.gamma;
  n.beta = o.beta;
  n.scratch = {ta, o.scratch.capacity - t.firstTmpStartPos};
  NormalizeVector(ops, s, group, n, epsilon);
}

template <typename T, typename U>
void LayerNormRstdRegBase(const Ops& ops, const LayerNormSeparateTiling& t, const ArShape& s,
                          const LayerNormRstdOperands<T, U>& o, float epsilon) {
  const uint64_t rp = s.rLengthWithPadding;
  float* st = o.scratch.data;
  float* variance = s.isOutputRstd ? st : o.outputRstd.data;
  float* rstd = s.isOutputRstd ? o.outputRstd.data : st + detail::Ceil8(s.aLength);
  for (uint64_t j = 0; j < s.aLength; ++j) {
    const T* row = o.inputX.data + j * rp;
    if (t.rLength <= 2 * kRepeatLanes) {
      RegMeanVariance(ops, row, t.rLength, t.k2Rec, t.k2RRec, o.outputMean.data + j, variance + j);
    } else {
      const float mean =
          RegFoldedPass(ops, row, t.rLength, t.rHeadLength, t.k2Rec, t.k2RRec, false, 0.0f);
      o.outputMean.data[j] = mean;
      variance[j] =
          RegFoldedPass(ops, row, t.rLength, t.rHeadLength, t.k2Rec, t.k2RRec, true, mean);
    }
  }
  ArShape n = s;
  n.rLength = t.rLength;
  NormalizeRegBase(n, o.outputMean.data, variance, rstd, o.inputX.data, o.gamma.data, o.beta.data,
                   o.output.data, epsilon);
}

}  // namespace

// ------------------------------------------------------------------------------------------

Status NormalizeFootprintFor(Algorithm algorithm, const ArShape& shape, bool isHalfX,
                             bool isHalfGamma, uint64_t scratchSize, NormalizeFootprint* out) {
  (void)isHalfX;
  const uint64_t a = shape.aLength;
  const uint64_t r = shape.rLength;
  const uint64_t rp = shape.rLengthWithPadding;
  NormalizeFootprint f;
  f.inputMean = f.inputVariance = f.outputRstd = a;
  if (algorithm == Algorithm::kRegBase) {
    // normalize_3510_impl.h asserts no rLength: with 0 its column loops run no repeat, so the
    // device writes rstd for every row and reads or writes no x, gamma, beta or output.
    if (a == 0) return CheckShape(kNormalize, shape);
    // The device's whole-register loads reach up to 64 lanes past R; those lanes are masked
    // off in everything they feed, so only the R columns count (and only they are read here).
    f.inputX = f.output = r == 0 ? 0 : (a - 1) * rp + r;
    f.gamma = shape.isNoGamma ? 0 : r;
    f.beta = shape.isNoBeta ? 0 : r;
    *out = f;
    return Status::Ok();
  }
  LNGRAD_RETURN_IF_ERROR(CheckShape(kNormalize, shape));
  if (scratchSize < a) {
    return BadShape(kNormalize, "sharedTmpBuffer holds " + std::to_string(scratchSize) +
                                    " floats; StackBuffer size must be at least A FP32! (A = " +
                                    std::to_string(a) + ")");
  }
  const uint32_t n = GroupRows(shape, isHalfGamma, scratchSize);
  if (n == 0) {
    return BadShape(kNormalize, "Stackbuffer size is too small! (" + std::to_string(scratchSize) +
                                    " floats hold no group of one row: 2 * rLengthWithPadding = " +
                                    std::to_string(2 * rp) + (isHalfGamma ? " twice" : "") + ")");
  }
  f.groupRows = n;
  f.inputX = f.output = a * rp;
  f.gamma = shape.isNoGamma ? 0 : r;
  f.beta = shape.isNoBeta ? 0 : r;
  // Both group buffers: the Sub reads all of tb's padded rows.
  uint64_t scratch = std::max<uint64_t>(a, 2 * uint64_t{n} * rp);
  if (isHalfGamma) {
    const uint64_t g = 2 * uint64_t{n} * rp;
    if (!shape.isNoGamma) scratch = std::max(scratch, g + r);
    if (!shape.isNoBeta) scratch = std::max(scratch, g + rp + r);
  }
  f.scratch = scratch;
  *out = f;
  return Status::Ok();
}

template <typename T, typename U>
Status Normalize(Algorithm algorithm, const ArShape& shape, const NormalizeFootprint& f,
                 const NormalizeOperands<T, U>& o, float epsilon, Impl impl) {
  LNGRAD_RETURN_IF_ERROR(detail::CheckCapacities(
      kNormalize,
      {detail::Use("output", o.output, f.output),
       detail::Use("outputRstd", o.outputRstd, f.outputRstd),
       detail::Use("inputMean", o.inputMean, f.inputMean),
       detail::Use("inputVariance", o.inputVariance, f.inputVariance),
       detail::Use("inputX", o.inputX, f.inputX), detail::Use("gamma", o.gamma, f.gamma),
       detail::Use("beta", o.beta, f.beta), detail::Use("sharedTmpBuffer", o.scratch, f.scratch)}));
  const Ops ops = detail::MakeOps(impl);
  if (algorithm == Algorithm::kRegBase) {
    NormalizeRegBase(shape, o.inputMean.data, o.inputVariance.data, o.outputRstd.data,
                     o.inputX.data, o.gamma.data, o.beta.data, o.output.data, epsilon);
  } else if constexpr (kIsBf16<T>) {
    return BadShape(kNormalize, "bfloat16 exists on the register path (arch 3510) only");
  } else {
    NormalizeVector(ops, shape, f.groupRows, o, epsilon);
  }
  return Status::Ok();
}

Status LayerNormRstdFootprintFor(Algorithm algorithm, const LayerNormSeparateTiling& t,
                                 const ArShape& shape, bool isHalfX, bool isHalfGamma,
                                 uint64_t scratchSize, LayerNormRstdFootprint* out) {
  LNGRAD_RETURN_IF_ERROR(CheckShape(kLayerNorm, shape));
  const uint64_t a = shape.aLength;
  const uint64_t rp = shape.rLengthWithPadding;
  const uint32_t align = isHalfX ? 16u : 8u;
  if (rp % align != 0) {
    return BadShape(kLayerNorm, "para.rLengthWithPadding = " + std::to_string(rp) +
                                    " must be 32-byte aligned for T");
  }
  LayerNormRstdFootprint f;
  auto upd = [](uint64_t& v, uint64_t e) { v = std::max(v, e); };
  if (algorithm == Algorithm::kRegBase) {
    if (t.rLength == 0) return BadShape(kLayerNorm, "tiling.rLength must be greater than 0");
    const uint64_t head = t.rHeadLength;
    if (t.rLength > 2 * kRepeatLanes && (head < 2 * kRepeatLanes || (head & (head - 1)) != 0 ||
                                         head > t.rLength || t.rLength >= 2 * head)) {
      // The folded path is written for the tiling's head: a power of two with
      // head <= R < 2 * head (anything else reads and writes past the row).
      return BadShape(kLayerNorm,
                      "tiling.rHeadLength = " + std::to_string(head) +
                          " does not fit tiling.rLength = " + std::to_string(t.rLength) +
                          " (a power of two >= 128 with rHeadLength <= R < "
                          "2 * rHeadLength)");
    }
    ArShape n = shape;
    n.rLength = t.rLength;
    NormalizeFootprint nf;
    LNGRAD_RETURN_IF_ERROR(NormalizeFootprintFor(algorithm, n, isHalfX, isHalfGamma, 0, &nf));
    f.inputX = nf.inputX;
    f.output = nf.output;
    f.outputMean = f.outputRstd = a;
    f.gamma = nf.gamma;
    f.beta = nf.beta;
    f.scratch = shape.isOutputRstd ? a : detail::Ceil8(a) + a;
    *out = f;
    return Status::Ok();
  }
  if (t.rLength == 0) return BadShape(kLayerNorm, "tiling.rLength must be greater than 0");
  f.inputX = a * rp;
  if (shape.rLength != rp) {
    upd(f.scratch, detail::CeilDiv(rp * (isHalfX ? 2 : 4), sizeof(float)));
  }
  bool bad_chunk = false;
  ForBoundingSepChunks(t, [&](const SepChunk& c) {
    if (c.a == 0 || c.ar == 0) bad_chunk = true;
    upd(f.inputX, c.in_off + c.ar);
    upd(f.outputMean, c.mv_off + c.a);
    upd(f.scratch, uint64_t{t.varianceTmpTensorPos} + c.mv_off + c.a);
    // The trees read the first min(Rp, 64) lanes of each row; the folds stay inside the rows.
    upd(f.scratch, uint64_t{t.firstTmpStartPos} +
                       std::max<uint64_t>(c.ar, (uint64_t{c.a} - (c.a > 0)) * rp +
                                                    std::min<uint64_t>(rp, kRepeatLanes)));
    upd(f.scratch, uint64_t{t.secondTmpStartPos} + (c.a > 0 ? (uint64_t{c.a} - 1) * rp + 1 : 0));
    // The per-row Adds covers tiling.rLength columns of each row.
    upd(f.scratch,
        uint64_t{t.firstTmpStartPos} + (c.a > 0 ? (uint64_t{c.a} - 1) * rp : 0) + t.rLength);
  });
  if (bad_chunk) {
    return BadShape(kLayerNorm, "the tiling has a chunk of no rows (arCurLength = " +
                                    std::to_string(t.arCurLength) +
                                    ", aCurLength = " + std::to_string(t.aCurLength) + ")");
  }
  if (scratchSize < t.firstTmpStartPos) {
    return BadShape(kLayerNorm, "sharedTmpBuffer (" + std::to_string(scratchSize) +
                                    " floats) ends before tiling.firstTmpStartPos = " +
                                    std::to_string(t.firstTmpStartPos));
  }
  NormalizeFootprint nf;
  LNGRAD_RETURN_IF_ERROR(NormalizeFootprintFor(algorithm, shape, isHalfX, isHalfGamma,
                                               scratchSize - t.firstTmpStartPos, &nf));
  upd(f.scratch, uint64_t{t.varianceTmpTensorPos} + a);
  upd(f.scratch, uint64_t{t.firstTmpStartPos} + nf.scratch);
  upd(f.outputMean, a);
  upd(f.inputX, nf.inputX);
  f.output = nf.output;
  f.outputRstd = a;
  f.gamma = nf.gamma;
  f.beta = nf.beta;
  *out = f;
  return Status::Ok();
}

template <typename T, typename U>
Status LayerNormRstd(Algorithm algorithm, LayerNormSeparateTiling& tiling, const ArShape& shape,
                     const LayerNormRstdFootprint& f, const LayerNormRstdOperands<T, U>& o,
                     float epsilon, Impl impl) {
  LNGRAD_RETURN_IF_ERROR(detail::CheckCapacities(
      kLayerNorm,
      {detail::Use("output", o.output, f.output),
       detail::Use("outputMean", o.outputMean, f.outputMean),
       detail::Use("outputRstd", o.outputRstd, f.outputRstd),
       detail::Use("inputX", o.inputX, f.inputX), detail::Use("gamma", o.gamma, f.gamma),
       detail::Use("beta", o.beta, f.beta), detail::Use("sharedTmpBuffer", o.scratch, f.scratch)}));
  const Ops ops = detail::MakeOps(impl);
  if (algorithm == Algorithm::kRegBase) {
    LayerNormRstdRegBase(ops, tiling, shape, o, epsilon);
  } else {
    const uint32_t group = GroupRows(shape, kIsHalf<U>, o.scratchSize - tiling.firstTmpStartPos);
    LayerNormRstdVector(ops, tiling, shape, o, epsilon, group);
  }
  return Status::Ok();
}

#define LNGRAD_NORMALIZE_INSTANTIATE(T, U)                                                 \
  template Status Normalize<T, U>(Algorithm, const ArShape&, const NormalizeFootprint&,    \
                                  const NormalizeOperands<T, U>&, float, Impl);            \
  template Status LayerNormRstd<T, U>(Algorithm, LayerNormSeparateTiling&, const ArShape&, \
                                      const LayerNormRstdFootprint&,                       \
                                      const LayerNormRstdOperands<T, U>&, float, Impl);
LNGRAD_NORMALIZE_INSTANTIATE(float, float)
LNGRAD_NORMALIZE_INSTANTIATE(Half, Half)
LNGRAD_NORMALIZE_INSTANTIATE(Half, float)
#undef LNGRAD_NORMALIZE_INSTANTIATE
// bfloat16: Normalize on arch 3510 only (normalize_3510_impl.h).
template Status Normalize<BFloat16, BFloat16>(Algorithm, const ArShape&, const NormalizeFootprint&,
                                              const NormalizeOperands<BFloat16, BFloat16>&, float,
                                              Impl);
template Status Normalize<BFloat16, float>(Algorithm, const ArShape&, const NormalizeFootprint&,
                                           const NormalizeOperands<BFloat16, float>&, float, Impl);

}  // namespace lngrad::adv
