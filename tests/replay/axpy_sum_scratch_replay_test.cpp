// What Axpy (half sources), Sum and Mean leave in their scratch on arch 2201 (Ascend910B1) and
// 2002 (Ascend310P1) against the replay of the kit's axpy_common_impl.h, sum_common_impl.h and
// mean_common_impl.h (replay_axpy_sum_scratch.h). Compared bit for bit (two NaNs match, as in
// the other scratch tests): the whole scratch (a 0xa5 fill where the kit's code stores nothing),
// dst with 40 sentinel elements past it, and the source. Axpy (one overload, sharedTmpBuffer):
// scratch sizes from the minimum (1024 bytes) to 48 KiB and one no multiple of 32, counts with
// tails that are no multiple of the round, every binary16 source pattern, dst and scalars with
// NaN, +-inf, +-0 and subnormals. Sum and Mean: both overloads (the stack buffer sized to leave
// exactly the scratch), one row and several, n within one repeat and over up to three levels.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstddef>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "math_scratch_sweep.h"
#include "replay_axpy_sum_scratch.h"
#include "scratch_test_util.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace rp = lngrad_replay;
namespace sw = lngrad_replay::scratch_sweep;
using AscendC::LocalTensor;
using lngrad_replay::scratch_test::Aligned32;

struct Got {
  std::vector<uint8_t> dst, src, tmp;
};

// Runs call(dst, src, tmp) on `soc` with src = in, dst = dstIn then kPast sentinels, the scratch
// (own or the stack buffer) filled with 0xa5.
template <class D, class S>
Got Run(const char* soc, const std::vector<S>& in, const std::vector<D>& dstIn, uint32_t tmpBytes,
        bool stack,
        const std::function<void(const LocalTensor<D>&, const LocalTensor<S>&,
                                 const LocalTensor<uint8_t>&, bool)>& call) {
  Got g;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = soc;
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bs, bd, bt, filler;
    const uint32_t ns = std::max<uint32_t>(static_cast<uint32_t>(in.size()), 1);
    const uint32_t nd = static_cast<uint32_t>(dstIn.size()) + sw::kPast;
    pipe.InitBuffer(bs, Aligned32(ns * sizeof(S)));
    pipe.InitBuffer(bd, Aligned32(nd * sizeof(D)));
    LocalTensor<uint8_t> tmp;
    rp::scratch_test::TakeScratch(pipe, bt, filler, stack, tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    LocalTensor<S> s = bs.Get<S>(ns);
    LocalTensor<D> d = bd.Get<D>(nd);
    std::copy(in.begin(), in.end(), s.HostPtr());
    std::copy(dstIn.begin(), dstIn.end(), d.HostPtr());
    std::fill(d.HostPtr() + dstIn.size(), d.HostPtr() + nd, sw::Sentinel<D>());
    std::fill(tmp.HostPtr(), tmp.HostPtr() + tmpBytes, sw::kFill);
    call(d, s, tmp, stack);
    const auto* db = reinterpret_cast<const uint8_t*>(d.HostPtr());
    const auto* sb = reinterpret_cast<const uint8_t*>(s.HostPtr());
    g.dst.assign(db, db + nd * sizeof(D));
    g.src.assign(sb, sb + in.size() * sizeof(S));
    if (stack) {
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp)));
    }
    g.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + tmpBytes);
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return g;
}

// The scratch as elements of E (E = half: Sum's and Mean's half levels; float otherwise), or
// (castHead) MeanCast's: the half at bytes 0..1, bytes 2..3 exactly, floats from byte 4 on.
template <class E>
void ExpectScratch(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want,
                   const std::string& what, bool castHead = false) {
  if (!castHead || got.size() < 4 || want.size() != got.size()) {
    sw::ExpectWords<E>(got, want, what);
    return;
  }
  const auto part = [](const std::vector<uint8_t>& v, size_t a, size_t b) {
    return std::vector<uint8_t>(v.begin() + static_cast<std::ptrdiff_t>(a),
                                v.begin() + static_cast<std::ptrdiff_t>(b));
  };
  sw::ExpectWords<half>(part(got, 0, 2), part(want, 0, 2), what + " (the cast half)");
  EXPECT_EQ(part(got, 2, 4), part(want, 2, 4)) << what << " bytes 2..3";
  sw::ExpectWords<float>(part(got, 4, got.size()), part(want, 4, want.size()),
                         what + " from byte 4");
}

template <class D, class S, class E = float>
void ExpectSame(const Got& got, const std::vector<D>& wantDst, const std::vector<S>& wantSrc,
                const std::vector<uint8_t>& wantTmp, const std::string& what,
                bool castHead = false) {
  std::vector<D> d = wantDst;
  d.resize(wantDst.size() + sw::kPast, sw::Sentinel<D>());
  sw::ExpectWords<D>(got.dst, sw::BytesOf(d), what + " dst");
  sw::ExpectWords<S>(got.src, sw::BytesOf(wantSrc), what + " src");
  ExpectScratch<E>(got.tmp, wantTmp, what + " scratch", castHead);
}

std::vector<half> Halves(const std::vector<float>& f) {
  std::vector<half> h(f.size());
  for (size_t i = 0; i < f.size(); ++i) h[i] = half(f[i]);
  return h;
}

rp::Half H(half v) {
  rp::Half h;
  std::memcpy(&h, &v, 2);
  return h;
}

// ---- Axpy ----

const std::vector<uint32_t> kAxpyCounts = {1, 37, 255, 257, 1000, 1537, 4099};
const std::vector<uint32_t> kAxpySizes = {1024, 1056, 1068, 1216, 3168, 5280, 49152};
const float kScalars[] = {1.5f,  -3.0f,    0.0f,           -0.0f,
                          1e-7f, 65504.0f, rp::test::kInf, rp::test::kNan};

// Axpy<T, half> over src `in`, dst `dst0` with scalar a, scratch tmpBytes, against the replay.
template <class T>
void CompareAxpy(const char* soc, const std::vector<half>& in, const std::vector<T>& dst0, half a,
                 uint32_t tmpBytes) {
  const uint32_t n = static_cast<uint32_t>(in.size());
  const std::string what = std::string("Axpy<") + (sizeof(T) == 2 ? "half" : "float") +
                           ", half> on " + soc + ", count " + std::to_string(n) + ", scratch " +
                           std::to_string(tmpBytes) + ", scalar " +
                           std::to_string(static_cast<float>(a));
  std::vector<T> want = dst0;
  std::vector<uint8_t> wantTmp(tmpBytes, sw::kFill);
  const auto* s = reinterpret_cast<const rp::Half*>(in.data());
  bool ok = false;
  if constexpr (sizeof(T) == 2) {
    ok = rp::ReplayAxpyHalfScratch(s, reinterpret_cast<rp::Half*>(want.data()), H(a), n,
                                   wantTmp.data(), tmpBytes);
  } else {
    ok = rp::ReplayAxpyMixScratch(s, want.data(), H(a), n, wantTmp.data(), tmpBytes);
  }
  ASSERT_TRUE(ok) << what;
  const Got got = Run<T, half>(
      soc, in, dst0, tmpBytes, false,
      [&](const LocalTensor<T>& d, const LocalTensor<half>& x, const LocalTensor<uint8_t>& t,
          bool) { AscendC::Axpy<T, half, false>(d, x, a, t, n); });
  ExpectSame(got, want, in, wantTmp, what);
}

template <class T>
std::vector<T> AxpyDst(uint32_t seed, uint32_t n) {
  const std::vector<float> f = sw::Mixed(seed, n, -300.0f, 300.0f);
  if constexpr (sizeof(T) == 2) {
    return Halves(f);
  } else {
    return f;
  }
}

template <class T>
void AxpySweep() {
  uint32_t seed = 7;
  for (const char* soc : sw::kSocs) {
    for (uint32_t tmp : kAxpySizes) {
      for (uint32_t n : kAxpyCounts) {
        ++seed;
        const half a = half(kScalars[seed % 8]);
        CompareAxpy<T>(soc, sw::AllHalves(seed * 4099u % 65536u, n), AxpyDst<T>(seed, n), a, tmp);
      }
    }
    for (uint32_t start = 0; start < 65536; start += 8192) {
      ++seed;
      CompareAxpy<T>(soc, sw::AllHalves(start, 8192), AxpyDst<T>(seed, 8192),
                     half(kScalars[seed % 8]), 1120);
    }
  }
}

TEST(AxpySumScratch, AxpyHalf) { AxpySweep<half>(); }
TEST(AxpySumScratch, AxpyFloatDstHalfSrc) { AxpySweep<float>(); }

// ---- Sum and Mean ----

enum class Api { kSum, kMean, kMeanCast };

// The rows (outter x inner, the first n of each from Mixed, the rest a sentinel the kit never
// reads), n as given.
template <class T>
std::vector<T> Rows(uint32_t seed, uint32_t outter, uint32_t inner, uint32_t n) {
  const std::vector<float> f = sw::Mixed(seed, size_t{outter} * inner, -40.0f, 40.0f);
  std::vector<T> v(f.size());
  for (size_t i = 0; i < f.size(); ++i) {
    v[i] = i % inner < n ? T(f[i]) : sw::Sentinel<T>();
  }
  return v;
}

// The scratch's minimum by the kit's GetSumMaxMinTmpSize / GetMeanMaxMinTmpSize (bytes).
uint32_t MinBytes(Api api, uint32_t ts, uint32_t n, uint32_t inner) {
  if (api == Api::kSum) {
    const uint32_t reps = (n + 256 / ts - 1) / (256 / ts);
    return (reps * ts + 31) / 32 * 32;
  }
  if (api == Api::kMeanCast) return ((n + 63) / 64 + 31) / 32 * 32 + inner * 4;
  return ((n + 256 / ts - 1) / (256 / ts) + 31) / 32 * 32;
}

template <class T>
void CompareRows(const char* soc, Api api, uint32_t outter, uint32_t n, uint32_t tmpBytes,
                 bool stack, uint32_t seed) {
  constexpr bool kHalf = sizeof(T) == 2;
  const uint32_t inner = (n + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
  const std::string what =
      std::string(api == Api::kSum ? "Sum" : "Mean") +
      (kHalf ? (api == Api::kMeanCast ? "<half, float>" : "<half>") : "<float>") + " on " + soc +
      ", " + std::to_string(outter) + " x " + std::to_string(n) + ", scratch " +
      std::to_string(tmpBytes) + (stack ? " (stack)" : " (sharedTmpBuffer)");
  const std::vector<T> in = Rows<T>(seed, outter, inner, n);
  std::vector<T> want(outter, sw::Sentinel<T>());
  std::vector<uint8_t> wantTmp(tmpBytes, sw::kFill);
  bool ok = false;
  if (api == Api::kSum) {
    ok = rp::ReplaySumScratch(kHalf, in.data(), want.data(), outter, inner, n, wantTmp.data(),
                              tmpBytes);
  } else if (api == Api::kMean) {
    ok = rp::ReplayMeanScratch(kHalf, in.data(), want.data(), outter, inner, n, wantTmp.data(),
                               tmpBytes);
  } else {
    ok = rp::ReplayMeanCastScratch(reinterpret_cast<const rp::Half*>(in.data()),
                                   reinterpret_cast<rp::Half*>(want.data()), outter, inner, n,
                                   wantTmp.data(), tmpBytes);
  }
  ASSERT_TRUE(ok) << what;
  const std::vector<T> dst0(outter, sw::Sentinel<T>());
  const Got got = Run<T, T>(
      soc, in, dst0, tmpBytes, stack,
      [&](const LocalTensor<T>& d, const LocalTensor<T>& x, const LocalTensor<uint8_t>& t,
          bool onStack) {
        if (api == Api::kSum) {
          const AscendC::SumParams p{outter, inner, n};
          onStack ? AscendC::Sum(d, x, p) : AscendC::Sum(d, x, t, p);
        } else if constexpr (kHalf) {
          const AscendC::MeanParams p{outter, inner, n};
          if (api == Api::kMeanCast) {
            onStack ? AscendC::Mean<T, float>(d, x, p) : AscendC::Mean<T, float>(d, x, t, p);
          } else {
            onStack ? AscendC::Mean<T>(d, x, p) : AscendC::Mean<T>(d, x, t, p);
          }
        } else {
          const AscendC::MeanParams p{outter, inner, n};
          onStack ? AscendC::Mean<T>(d, x, p) : AscendC::Mean<T>(d, x, t, p);
        }
      });
  if (api == Api::kMeanCast) {
    ExpectSame<T, T, float>(got, want, in, wantTmp, what, true);
  } else {
    ExpectSame<T, T, T>(got, want, in, wantTmp, what);
  }
}

// Rows of n within one repeat (no scratch written), over one level and two or three; the
// minimum scratch (where the kit's levels fit it), 32 and 44 bytes more, and 48 KiB (4 KiB more
// than the minimum past it); Mean<half, float> to 8200 (three levels), its float row in the
// scratch.
template <class T>
void RowsSweep(Api api) {
  constexpr uint32_t ts = sizeof(T);
  const uint32_t ns[] = {1, 37, 64, 128, 129, 200, 1000, 4099, 8200, 16400};
  const uint32_t outters[] = {1, 3};
  uint32_t seed = 11;
  for (const char* soc : sw::kSocs) {
    for (bool stack : {false, true}) {
      for (uint32_t n : ns) {
        const uint32_t inner = (n + 32 / ts - 1) / (32 / ts) * (32 / ts);
        const uint32_t acc = api == Api::kMeanCast ? 4 : ts;
        const uint32_t reps = (n + 256 / acc - 1) / (256 / acc);
        // The bytes the kit's first level stores (MeanCast: after the float row at inner).
        const uint32_t need =
            api == Api::kMeanCast ? 4 * (inner + reps) : (reps > 1 ? reps * acc : 0);
        const uint32_t min = std::max(MinBytes(api, ts, n, inner), (need + 31) / 32 * 32);
        std::vector<uint32_t> sizes = {min, min + 32, std::max(49152u, min + 4096)};
        if (!stack) sizes.push_back(min + 44);
        for (uint32_t tmp : sizes) {
          for (uint32_t outter : outters) {
            if (uint64_t{outter} * inner * ts > 65536 || (api == Api::kMeanCast && n > 8200))
              continue;
            CompareRows<T>(soc, api, outter, n, tmp, stack, ++seed);
          }
        }
      }
    }
  }
}

TEST(AxpySumScratch, SumFloat) { RowsSweep<float>(Api::kSum); }
TEST(AxpySumScratch, SumHalf) { RowsSweep<half>(Api::kSum); }
TEST(AxpySumScratch, MeanFloat) { RowsSweep<float>(Api::kMean); }
TEST(AxpySumScratch, MeanHalf) { RowsSweep<half>(Api::kMean); }
TEST(AxpySumScratch, MeanHalfInFloat) { RowsSweep<half>(Api::kMeanCast); }

// GetMeanMaxMinTmpSize counts the first level's sums as bytes (its count rounded up to 32): past
// 512 floats (2048 halves) MeanCommon's and MeanCast's levels pass that minimum, so the device
// stores past sharedTmpBuffer; checked mode refuses it (the bytes they store, one level more
// than the minimum holds). At the limit (512 floats) the minimum holds them.
TEST(AxpySumScratch, MeanLevelsPastTheKitsMinimumAreRefused) {
  using lngrad::aicore::test::ExpectCheck;
  using lngrad::aicore::test::Ub;
  const auto tmp = [](Ub& ub, uint32_t bytes) {
    LocalTensor<uint8_t> t = ub.Get<uint8_t>(2);
    t.SetSize(bytes);
    return t;
  };
  for (const char* soc : sw::kSocs) {
    ExpectCheck(
        [&](Ub& ub) {
          AscendC::Mean<float>(ub.Get<float>(0), ub.Get<float>(1), tmp(ub, 32),
                               AscendC::MeanParams{1, 576, 576});
        },
        "tensor_bounds", "level sums", soc);
    ExpectCheck(
        [&](Ub& ub) {
          AscendC::Mean<half>(ub.Get<half>(0), ub.Get<half>(1), tmp(ub, 32),
                              AscendC::MeanParams{1, 2176, 2176});
        },
        "tensor_bounds", "level sums", soc);
    ExpectCheck(
        [&](Ub& ub) {
          AscendC::Mean<half, float>(ub.Get<half>(0), ub.Get<half>(1), tmp(ub, 32 + 576 * 4),
                                     AscendC::MeanParams{1, 576, 576});
        },
        "tensor_bounds", "float row", soc);
    ExpectCheck(
        [&](Ub& ub) {
          AscendC::Mean<float>(ub.Get<float>(0), ub.Get<float>(1), tmp(ub, 32),
                               AscendC::MeanParams{1, 512, 512});
        },
        "", "", soc);
  }
}

// ---- WelfordUpdate ----

constexpr AscendC::WelfordUpdateConfig kWfInplace = {true};

struct WfGot {
  std::vector<uint8_t> mean, var, x, tmp;
};

template <class T, bool kReuse, const AscendC::WelfordUpdateConfig& kCfg>
WfGot RunWelford(const char* soc, const std::vector<T>& x, const std::vector<float>& im,
                 const std::vector<float>& iv, const std::vector<float>& om0,
                 const std::vector<float>& ov0, const AscendC::WelfordUpdateParam& p,
                 uint32_t tmpBytes, bool stack) {
  WfGot g;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = soc;
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bx, bim, biv, bom, bov, bt, filler;
    const uint32_t nx = static_cast<uint32_t>(x.size());
    const uint32_t nf = static_cast<uint32_t>(om0.size());
    pipe.InitBuffer(bx, Aligned32(nx * sizeof(T)));
    for (AscendC::TBuf<>* b : {&bim, &biv, &bom, &bov}) pipe.InitBuffer(*b, Aligned32(nf * 4));
    LocalTensor<uint8_t> tmp;
    rp::scratch_test::TakeScratch(pipe, bt, filler, stack, tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    LocalTensor<T> tx = bx.Get<T>(nx);
    LocalTensor<float> tim = bim.Get<float>(nf), tiv = biv.Get<float>(nf);
    LocalTensor<float> tom = bom.Get<float>(nf), tov = bov.Get<float>(nf);
    std::copy(x.begin(), x.end(), tx.HostPtr());
    std::copy(im.begin(), im.end(), tim.HostPtr());
    std::copy(iv.begin(), iv.end(), tiv.HostPtr());
    std::copy(om0.begin(), om0.end(), tom.HostPtr());
    std::copy(ov0.begin(), ov0.end(), tov.HostPtr());
    std::fill(tmp.HostPtr(), tmp.HostPtr() + tmpBytes, sw::kFill);
    if (stack) {
      AscendC::WelfordUpdate<T, float, kReuse, kCfg>(tom, tov, tim, tiv, tx, p);
    } else {
      AscendC::WelfordUpdate<T, float, kReuse, kCfg>(tom, tov, tim, tiv, tx, tmp, p);
    }
    g.mean = sw::BytesOf(std::vector<float>(tom.HostPtr(), tom.HostPtr() + nf));
    g.var = sw::BytesOf(std::vector<float>(tov.HostPtr(), tov.HostPtr() + nf));
    g.x = sw::BytesOf(std::vector<T>(tx.HostPtr(), tx.HostPtr() + nx));
    if (stack) {
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp)));
    }
    g.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + tmpBytes);
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return g;
}

template <class T, bool kReuse, const AscendC::WelfordUpdateConfig& kCfg>
void CompareWelford(const char* soc, uint32_t ab, uint32_t n, float nRec, uint32_t tmpBytes,
                    bool stack, uint32_t seed) {
  const std::string what = std::string("WelfordUpdate<") + (sizeof(T) == 2 ? "half" : "float") +
                           (kReuse ? ", reuse" : "") + (kCfg.isInplace ? ", inplace" : "") +
                           "> on " + soc + ", " + std::to_string(n) + " of " + std::to_string(ab) +
                           ", scratch " + std::to_string(tmpBytes) +
                           (stack ? " (stack)" : " (sharedTmpBuffer)");
  const uint32_t nf = ab + sw::kPast;
  const std::vector<float> xf = sw::Mixed(seed, ab, -40.0f, 40.0f);
  std::vector<T> x(ab);
  for (uint32_t i = 0; i < ab; ++i) x[i] = T(xf[i]);
  const std::vector<float> im = sw::Mixed(seed + 1, nf, -40.0f, 40.0f);
  const std::vector<float> iv = sw::Mixed(seed + 2, nf, 0.0f, 100.0f);
  const std::vector<float> om0(nf, sw::Sentinel<float>()), ov0(nf, sw::Sentinel<float>());
  std::vector<float> om = om0, ov = ov0;
  std::vector<T> wx = x;
  std::vector<uint8_t> wantTmp(tmpBytes, sw::kFill);
  ASSERT_TRUE(rp::ReplayWelfordUpdateScratch(sizeof(T) == 2, kReuse, kCfg.isInplace, wx.data(),
                                             im.data(), iv.data(), om.data(), ov.data(), ab, n,
                                             nRec, wantTmp.data(), tmpBytes))
      << what;
  const AscendC::WelfordUpdateParam p{1, ab, n, nRec};
  const WfGot got = RunWelford<T, kReuse, kCfg>(soc, x, im, iv, om0, ov0, p, tmpBytes, stack);
  sw::ExpectWords<float>(got.mean, sw::BytesOf(om), what + " outputMean");
  sw::ExpectWords<float>(got.var, sw::BytesOf(ov), what + " outputVariance");
  sw::ExpectWords<T>(got.x, sw::BytesOf(wx), what + " inputX");
  sw::ExpectWords<float>(got.tmp, wantTmp, what + " scratch");
}

// abLength from one block to thousands, abComputeLength whole, one short (the in-place copy) and
// with tails that are no multiple of the round (64 tmpNum); the minimum scratch (256 K bytes),
// odd sizes and 48 KiB.
template <class T, bool kReuse, const AscendC::WelfordUpdateConfig& kCfg>
void WelfordSweep() {
  constexpr uint32_t k = sizeof(T) == 2 ? 3 : (kReuse ? 1 : 2);
  const uint32_t abs[] = {16, 64, 272, 1024, 4112};
  const float recs[] = {0.5f, 1.0f / 3.0f, 1e-3f};
  uint32_t seed = 101;
  for (const char* soc : sw::kSocs) {
    for (bool stack : {false, true}) {
      for (uint32_t tmp : sw::Sizes(256 * k, stack)) {
        for (uint32_t ab : abs) {
          for (uint32_t n : {ab, ab - 5, std::min<uint32_t>(ab, 37)}) {
            ++seed;
            CompareWelford<T, kReuse, kCfg>(soc, ab, n, recs[seed % 3], tmp, stack, seed * 3);
          }
        }
      }
    }
  }
}

TEST(AxpySumScratch, WelfordUpdateFloat) {
  WelfordSweep<float, false, AscendC::WFUPDATE_DEFAULT_CFG>();
  WelfordSweep<float, false, kWfInplace>();
}
TEST(AxpySumScratch, WelfordUpdateFloatReuseSource) {
  WelfordSweep<float, true, AscendC::WFUPDATE_DEFAULT_CFG>();
  WelfordSweep<float, true, kWfInplace>();
}
TEST(AxpySumScratch, WelfordUpdateHalf) {
  WelfordSweep<half, false, AscendC::WFUPDATE_DEFAULT_CFG>();
  WelfordSweep<half, true, kWfInplace>();
}

}  // namespace
