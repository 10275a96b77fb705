// What the reduce scratch tests (reduce_ar_scratch_replay_test.cpp, reduce_ra_scratch_replay_test
// .cpp, reduce_ar_mean_half_scratch_replay_test.cpp) share: the API call of an operation index
// (ArOp / RaOp: Sum, Mean, Max, Min, Prod, Any, All), their inputs, and one case run on the UB
// harness (scratch_ub_harness.h): dst filled with 0x5b and 40 elements past the results, the
// scratch with 0xa5, compared with the replay's images word for word (two NaNs match).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "scratch_ub_harness.h"
#include "../aicore/checked_mode_scope.h"

namespace lngrad_replay::reduce_scratch {

namespace st = lngrad_replay::scratch_test;

constexpr uint8_t kDstFill = 0x5b;
constexpr uint8_t kTmpFill = 0xa5;
constexpr uint32_t kPast = 40;  // dst elements past the results
constexpr const char* kNames[] = {"ReduceSum",  "ReduceMean", "ReduceMax", "ReduceMin",
                                  "ReduceProd", "ReduceAny",  "ReduceAll"};
enum Op { kSum, kMean, kMax, kMin, kProd, kAny, kAll };  // the order of ArOp and RaOp

// The API of operation `op` on the type (uint8_t: Any and All; half: Max, Min and Mean; float:
// every one), either overload; another operation is a test failure.
template <class T, class Pattern, bool kReuse>
void Call(int op, const AscendC::LocalTensor<T>& d, const AscendC::LocalTensor<T>& s,
          const AscendC::LocalTensor<uint8_t>& tmp, const uint32_t shape[], bool stack) {
#define LNGRAD_REDUCE_CALL(NAME)                               \
  if (stack) {                                                 \
    AscendC::NAME<T, Pattern, kReuse>(d, s, shape, true);      \
  } else {                                                     \
    AscendC::NAME<T, Pattern, kReuse>(d, s, tmp, shape, true); \
  }                                                            \
  return
  if constexpr (sizeof(T) == 1) {
    if (op == kAny) {
      LNGRAD_REDUCE_CALL(ReduceAny);
    }
    if (op == kAll) {
      LNGRAD_REDUCE_CALL(ReduceAll);
    }
  } else {
    switch (op) {
      case kMax:
        LNGRAD_REDUCE_CALL(ReduceMax);
      case kMin:
        LNGRAD_REDUCE_CALL(ReduceMin);
      case kMean:
        LNGRAD_REDUCE_CALL(ReduceMean);
      default:
        break;
    }
  }
  if constexpr (sizeof(T) == 4) {
    switch (op) {
      case kSum:
        LNGRAD_REDUCE_CALL(ReduceSum);
      case kProd:
        LNGRAD_REDUCE_CALL(ReduceProd);
      case kAny:
        LNGRAD_REDUCE_CALL(ReduceAny);
      case kAll:
        LNGRAD_REDUCE_CALL(ReduceAll);
      default:
        break;
    }
  }
#undef LNGRAD_REDUCE_CALL
  ADD_FAILURE() << kNames[op] << " is not a " << sizeof(T) << "-byte API";
}

// n values in [-3, 3) with one of `specials` at random places (about one in 40) as T; with
// `ties`, most of them from a few values (+-0, 1, -1) so that equal extremes meet. uint8_t:
// byte(gen) each.
template <class T, class Byte>
std::vector<T> Mixed(uint32_t seed, size_t n, bool ties, const float (&specials)[10],
                     const Byte& byte) {
  std::mt19937 gen(seed);
  std::vector<T> v(n);
  if constexpr (sizeof(T) == 1) {
    for (auto& x : v) x = static_cast<T>(byte(gen));
    return v;
  }
  std::uniform_real_distribution<float> u(-3.0f, 3.0f);
  const float few[] = {0.0f, -0.0f, 1.0f, -1.0f};
  for (auto& x : v) {
    const uint32_t k = gen() % 400;
    x = T(k < 10 ? specials[k] : (ties && k < 300 ? few[k % 4] : u(gen)));
  }
  return v;
}
inline const float kSpecials[10] = {0.0f,   -0.0f,   INFINITY, -INFINITY, NAN,
                                    1e-40f, -1e-40f, 3e-6f,    -6e-8f,    6e4f};

// The AR shapes on 2201 whose result the kit's sequences get wrong (written from the kit's
// reduce_sum_v220_impl.h, reduce_common_util_v220_impl.h, reduce_any/all and reduce_mean
// v220 files): lngrad's checked mode refuses them (reduce_device_defect,
// adv.ReduceApi.ShapesTheDeviceComputesWronglyAreRefusedInCheckedMode), so they are compared
// unchecked, where lngrad gives the device's numbers.
template <class T>
bool KitGetsArWrong(int op, bool reuse, uint32_t first, uint32_t last) {
  const bool sum = op == kSum || op == kMean;
  if constexpr (sizeof(T) == 1) {
    return last > 16 && last < 32;  // no fold below 32 bytes, 16 lanes reduced
  }
  if (sum && last <= 8 && first >= 4080) return true;  // BlkReduceForLoop's calls at offset 0
  if constexpr (sizeof(T) == 2) {
    return op == kMean && last > 64;  // ReduceSumCommon's float steps on half rows
  }
  if (!sum || last <= 64) return false;
  if (reuse && first > 248) return true;  // group g's work rows 248 * g * 64 floats into src
  uint32_t split = 1;
  while (split * 2 <= last) split *= 2;
  const uint32_t pad = (last + 7) / 8 * 8;
  const uint32_t p = split == last ? split / 2 : split;
  const uint32_t tail = split == last ? pad - p : last - split;
  const uint32_t rows = first < 248 ? first : 248;
  // The tail adds as repeats with a uint8_t src stride of padLast / 8 blocks.
  return (tail + 63) / 64 < rows && p / 8 <= 255 && pad / 8 > 255;
}

// One case on `soc`: `in` as src (its padded rows), dst of dstElems elements, the scratch of
// tmpBytes; replay(src, dst, scratch) the replay's images (false: the kit's code asserts), then
// lngrad's call of `op` on the shape (unchecked where KitGetsArWrong), compared.
template <class T, class Pattern, class Replay>
void Compare(const char* soc, int op, bool reuse, const uint32_t (&shape)[2], uint32_t tmpBytes,
             bool stack, const std::vector<T>& in, size_t dstElems, const std::string& what,
             const Replay& replay) {
  const st::UbImages start =
      st::StartImages(st::BytesOf(in), dstElems * sizeof(T), tmpBytes, kDstFill, kTmpFill);
  std::vector<T> src = in, dst = st::ValuesOf<T>(start.dst, dstElems);
  st::UbImages want = start;
  ASSERT_TRUE(replay(src.data(), dst.data(), want.tmp.data())) << what;
  st::PutValues(want.src, src);
  st::PutValues(want.dst, dst);
  const bool wrong = std::is_same_v<Pattern, AscendC::Pattern::Reduce::AR> &&
                     KitGetsArWrong<T>(op, reuse, shape[0], shape[1]);
  const lngrad::aicore::test::CheckedModeScope mode(lngrad::aicore::CheckedMode() && !wrong);
  const st::UbImages got =
      st::RunOnUb<T>(soc, start, stack,
                     [&](const AscendC::LocalTensor<T>& d, const AscendC::LocalTensor<T>& s,
                         const AscendC::LocalTensor<uint8_t>& tmp, bool onStack) {
                       if (reuse) {
                         Call<T, Pattern, true>(op, d, s, tmp, shape, onStack);
                       } else {
                         Call<T, Pattern, false>(op, d, s, tmp, shape, onStack);
                       }
                     });
  st::ExpectUbImages(got, want, sizeof(T), what);
}

// Arch 2002 (Ascend310P1): the kit's reduce.h defines the APIs but calls no implementation
// there. ReduceSum<float, Pattern> of [first, last] floats (a scratch of as many bytes as src):
// checked mode refuses the call (product); unchecked, dst (16 floats) and the scratch keep their
// bytes.
template <class Pattern>
void ExpectNotOn2002(uint32_t first, uint32_t last) {
  const uint32_t n = first * last;
  for (bool checked : {true, false}) {
    const bool was = lngrad::aicore::CheckedMode();
    lngrad::aicore::SetCheckedMode(checked);
    std::vector<uint8_t> dst, tmp;
    lngrad::aicore::LaunchOptions opts;
    opts.soc = "Ascend310P1";
    const lngrad::Status status = lngrad::aicore::Launch(
        1,
        [&] {
          AscendC::TPipe pipe;
          AscendC::TBuf<> bs, bd, bt;
          pipe.InitBuffer(bs, n * 4);
          pipe.InitBuffer(bd, 64);
          pipe.InitBuffer(bt, n * 4);
          AscendC::LocalTensor<float> s = bs.Get<float>(), d = bd.Get<float>();
          AscendC::LocalTensor<uint8_t> t = bt.Get<uint8_t>();
          std::fill(s.HostPtr(), s.HostPtr() + n, 1.5f);
          std::memset(d.HostPtr(), kDstFill, 64);
          std::memset(t.HostPtr(), kTmpFill, n * 4);
          const uint32_t shape[2] = {first, last};
          AscendC::ReduceSum<float, Pattern>(d, s, t, shape, true);
          dst = st::BytesOf(d.HostPtr(), 16);
          tmp.assign(t.HostPtr(), t.HostPtr() + n * 4);
        },
        opts);
    lngrad::aicore::SetCheckedMode(was);
    if (checked) {
      ASSERT_FALSE(status.ok());
      EXPECT_NE(status.ToString().find("not provided on arch 2002"), std::string::npos)
          << status.ToString();
      continue;
    }
    ASSERT_TRUE(status.ok()) << status.ToString();
    EXPECT_EQ(dst, std::vector<uint8_t>(64, kDstFill));
    EXPECT_EQ(tmp, std::vector<uint8_t>(n * 4, kTmpFill));
  }
}

}  // namespace lngrad_replay::reduce_scratch
