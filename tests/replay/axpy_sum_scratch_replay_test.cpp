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

template <class D, class S>
void ExpectSame(const Got& got, const std::vector<D>& wantDst, const std::vector<S>& wantSrc,
                const std::vector<uint8_t>& wantTmp, const std::string& what) {
  std::vector<D> d = wantDst;
  d.resize(wantDst.size() + sw::kPast, sw::Sentinel<D>());
  sw::ExpectWords<D>(got.dst, sw::BytesOf(d), what + " dst");
  sw::ExpectWords<S>(got.src, sw::BytesOf(wantSrc), what + " src");
  sw::ExpectWords<float>(got.tmp, wantTmp, what + " scratch");
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

}  // namespace
