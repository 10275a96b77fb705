// The SoftmaxGrad / SoftmaxGradFront NZ work buffer on 2201 and 2002
// (replay_softmax_grad_nz_scratch.h): the kit's functions as it writes them, each instruction run
// over a float image of the buffer by replay_nz_vec.h's vector unit (mask register, Counter mode,
// strides), which also holds the NZ row reductions.
#include "replay_softmax_grad_nz_scratch.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <type_traits>

#include "replay_nz_vec.h"

namespace lngrad_replay {
namespace {

using namespace nz_vec;  // NOLINT(build/namespaces)

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
