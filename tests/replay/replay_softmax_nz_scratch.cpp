// SoftMax and SimpleSoftMax in the NZ data format on 2201 and 2002 (replay_softmax_nz_scratch.h):
// the kit's split functions as it writes them, each instruction run over a float image of the
// work buffer (and of float dst for the Div that writes it) by replay_nz_vec.h's vector unit.
#include "replay_softmax_nz_scratch.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "replay_nz_vec.h"

namespace lngrad_replay {
namespace {

using namespace nz_vec;  // NOLINT(build/namespaces)

float ExpF(float x) { return static_cast<float>(std::exp(static_cast<double>(x))); }

template <class T>
float In(T v) {
  if constexpr (std::is_same_v<T, Half>) {
    return ToFloat(v);
  } else {
    return v;
  }
}

// The split loop of SoftMaxNZImpl / SimpleSoftMaxNZImpl: f(offset1, offset2, splitCount, rows).
template <class F>
void Splits(const SmxTiling& t, uint32_t statStep, F f) {
  const uint32_t count = t.splitM * kNz;
  for (uint32_t i = 0; i < t.rangeM; ++i) f(i * count, i * statStep, count, t.splitM);
  if (t.tailM != 0) f(t.rangeM * count, t.rangeM * statStep, t.tailM * kNz, t.tailM);
}

// dst = op(src0, src1) in Counter mode over `count` contiguous elements (strides 1 / 8).
void Counter(Vec& v, const Ref& d, const Ref& s0, const Ref& s1, uint32_t count,
             const std::function<float(float, float)>& op) {
  v.SetMaskCount(count);
  v.Binary(d, s0, s1, 1, {1, 1, 1, 8, 8, 8}, op);
  v.SetMaskNorm();
  v.ResetMask();
}

}  // namespace

template <class T, class S>
bool ReplaySoftMaxNzWork(const SmxTiling& t, uint32_t oriK, const T* src, T* dst, S* sum, S* max,
                         std::vector<uint8_t>& work, bool v200) {
  std::vector<float> w(work.size() / sizeof(float));
  std::memcpy(w.data(), work.data(), w.size() * sizeof(float));
  const uint64_t n = uint64_t{t.srcM} * t.srcK;
  // Float dst as an image (its Div writes it), half dst element by element.
  std::vector<float> dimg(std::is_same_v<T, float> ? n : 0);
  for (uint64_t i = 0; i < dimg.size(); ++i) dimg[i] = In(dst[i]);
  std::vector<T> out(dst, dst + n);
  const uint32_t statLanes = 32 / sizeof(S), statsLen = t.srcM * statLanes;
  std::vector<S> sOut(sum, sum + statsLen), mOut(max, max + statsLen);
  Vec v;
  const uint32_t blocks = t.srcK / kNz, so = t.splitM * kNz;
  const uint32_t lastLen = oriK % kNz != 0 ? oriK % kNz : kNz;
  const uint64_t mask = SpecialMask(lastLen, kRep / kNz);  // CreateSpecialFormatMask(len, 4)
  const Ref b0{&w, 0}, b1{&w, t.splitSize}, last = b0[uint64_t{so} * (blocks - 1)];
  const auto sub = [](float a, float b) { return a - b; };
  const auto div = [](float a, float b) { return a / b; };
  const auto exp = [](float a, float) { return ExpF(a); };
  // The statistics from tmpBuffer1: half S a Cast of splitCount floats, float S a DataCopy of
  // one block of every two ({originalSrcM, 1, 1, 0}).
  const auto stats = [&](std::vector<S>& o, uint32_t o2, uint32_t count) {
    for (uint32_t e = 0; e < count; ++e) {
      const uint32_t at = std::is_same_v<S, Half> ? o2 + e : o2 + e / kNz * kBlk + e % kNz;
      if (std::is_same_v<S, float> && e % kNz >= kBlk) continue;
      if (at >= o.size()) {
        v.bad = true;
        continue;
      }
      o[at] = Out<S>(v.At(b1, e), v200);
    }
  };
  Splits(t, t.reduceSize, [&](uint32_t o1, uint32_t o2, uint32_t count, uint32_t rows) {
    const ReduceLastNd rp{rows, oriK, t.splitM, t.splitK, t.splitM, kNz};
    for (uint32_t j = 0; j < blocks; ++j) {  // DataCopy (float) or Cast (half) of the split
      for (uint32_t e = 0; e < count; ++e) {
        v.At(b0, uint64_t{so} * j + e) = In(src[o1 + uint64_t{j} * t.srcM * kNz + e]);
      }
    }
    ReduceLastNz(v, b1, b0, mask, rp, true);
    stats(mOut, o2, count);
    for (uint32_t j = 0; j + 1 < blocks; ++j) Counter(v, b0[so * j], b0[so * j], b1, count, sub);
    BinaryWithSpecialMask(v, last, last, b1, mask, lastLen, count, sub);
    for (uint32_t j = 0; j + 1 < blocks; ++j) Counter(v, b0[so * j], b0[so * j], b0, count, exp);
    BinaryWithSpecialMask(v, last, last, last, mask, lastLen, count, exp);  // UnaryCompute...
    ReduceLastNz(v, b1, b0, mask, rp, false);
    stats(sOut, o2, count);
    if constexpr (std::is_same_v<T, float>) {  // Div into dst
      const Ref d{&dimg, o1};
      for (uint32_t j = 0; j + 1 < blocks; ++j) {
        Counter(v, d[uint64_t{j} * t.srcM * kNz], b0[so * j], b1, count, div);
      }
      BinaryWithSpecialMask(v, d[uint64_t{blocks - 1} * t.srcM * kNz], last, b1, mask, lastLen,
                            count, div);
    } else {  // Div in the buffer, then every lane cast to dst
      for (uint32_t j = 0; j + 1 < blocks; ++j) Counter(v, b0[so * j], b0[so * j], b1, count, div);
      BinaryWithSpecialMask(v, last, last, b1, mask, lastLen, count, div);
      for (uint32_t j = 0; j < blocks; ++j) {
        for (uint32_t e = 0; e < count; ++e) {
          out[o1 + uint64_t{j} * t.srcM * kNz + e] = Out<T>(v.At(b0, uint64_t{so} * j + e), v200);
        }
      }
    }
  });
  if (v.bad) return false;
  std::memcpy(work.data(), w.data(), w.size() * sizeof(float));
  if constexpr (std::is_same_v<T, float>) {
    std::copy(dimg.begin(), dimg.end(), dst);
  } else {
    std::copy(out.begin(), out.end(), dst);
  }
  std::copy(sOut.begin(), sOut.end(), sum);
  std::copy(mOut.begin(), mOut.end(), max);
  return true;
}

template <class T, class S>
bool ReplaySimpleSoftMaxNzWork(const SmxTiling& t, const T* src, const S* inSum, const S* inMax,
                               T* dst, std::vector<uint8_t>& work, bool v200) {
  std::vector<float> w(work.size() / sizeof(float));
  std::memcpy(w.data(), work.data(), w.size() * sizeof(float));
  const uint64_t n = uint64_t{t.srcM} * t.srcK;
  std::vector<T> out(dst, dst + n);
  Vec v;
  const uint32_t blocks = t.srcK / kNz, so = t.splitM * kNz, statLanes = 32 / sizeof(S);
  const bool floatData = std::is_same_v<T, float>;
  const Ref b0{&w, 0}, b1{&w, floatData ? uint64_t{2} * t.reduceSize : t.splitSize};
  // DataCopy(dst, stat[o2], {originalSrcM, 1, 0, 1}) to dst and dst[8] (float statistics), or
  // the Cast of splitCount halves (half statistics).
  const auto load = [&](const Ref& d, const S* stat, uint32_t o2, uint32_t count) {
    for (uint32_t e = 0; e < count; ++e) {
      const uint32_t at = std::is_same_v<S, Half> ? o2 + e : o2 + e / kNz * kBlk + e % kBlk;
      v.At(d, e) = In(stat[at]);
    }
  };
  Splits(t, t.reduceM * statLanes, [&](uint32_t o1, uint32_t o2, uint32_t count, uint32_t) {
    const auto at = [&](uint32_t j, uint32_t e) { return o1 + uint64_t{j} * t.srcM * kNz + e; };
    if constexpr (std::is_same_v<T, float>) {
      load(b0, inMax, o2, count);
      load(b1, inSum, o2, count);
      for (uint32_t j = 0; j < blocks; ++j) {
        for (uint32_t e = 0; e < count; ++e) {
          const float x = ExpF(src[at(j, e)] - v.At(b0, e));
          out[at(j, e)] = x / v.At(b1, e);
        }
      }
    } else {
      load(b1, inMax, o2, count);
      for (uint32_t j = 0; j < blocks; ++j) {
        for (uint32_t e = 0; e < count; ++e) v.At(b0, uint64_t{so} * j + e) = In(src[at(j, e)]);
      }
      for (uint32_t j = 0; j < blocks; ++j) {
        Counter(v, b0[so * j], b0[so * j], b1, count, [](float a, float b) { return a - b; });
      }
      for (uint32_t j = 0; j < blocks; ++j) {
        Counter(v, b0[so * j], b0[so * j], b0[so * j], count,
                [](float a, float) { return ExpF(a); });
      }
      load(b1, inSum, o2, count);
      for (uint32_t j = 0; j < blocks; ++j) {
        Counter(v, b0[so * j], b0[so * j], b1, count, [](float a, float b) { return a / b; });
      }
      for (uint32_t j = 0; j < blocks; ++j) {
        for (uint32_t e = 0; e < count; ++e) {
          out[at(j, e)] = Out<T>(v.At(b0, uint64_t{so} * j + e), v200);
        }
      }
    }
  });
  if (v.bad) return false;
  std::memcpy(work.data(), w.data(), w.size() * sizeof(float));
  std::copy(out.begin(), out.end(), dst);
  return true;
}

#define LNGRAD_NZ_WORK(T, S)                                                                    \
  template bool ReplaySoftMaxNzWork<T, S>(const SmxTiling&, uint32_t, const T*, T*, S*, S*,     \
                                          std::vector<uint8_t>&, bool);                         \
  template bool ReplaySimpleSoftMaxNzWork<T, S>(const SmxTiling&, const T*, const S*, const S*, \
                                                T*, std::vector<uint8_t>&, bool);
LNGRAD_NZ_WORK(float, float)
LNGRAD_NZ_WORK(Half, Half)
LNGRAD_NZ_WORK(Half, float)
#undef LNGRAD_NZ_WORK

}  // namespace lngrad_replay
