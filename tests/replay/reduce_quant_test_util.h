// What reduce_quant_replay_test's files share: the one-block launcher of the aicore tests, the
// products they run on, the bits of an element, the test data and the reduce API calls.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "../aicore/repeat_test_util.h"
#include "kernel_operator.h"
#include "replay.h"
#include "replay_reduce_3510.h"
#include "replay_reduce_quant.h"

namespace lngrad_replay::testing {

using lngrad::aicore::test::Bits;
using lngrad::aicore::test::kUbBufBytes;
using lngrad::aicore::test::OnBlock;
using lngrad::aicore::test::Ub;

inline constexpr const char* k910B = "Ascend910B1";
inline constexpr const char* k950 = "Ascend950PR_9589";

// The replay's float as T's bits (half: exact, the replay's values are halves).
template <typename T>
uint32_t ReplayBits(float v) {
  if constexpr (std::is_same_v<T, half>) return FloatToHalf(v).bits;
  return Bits(v);
}

// First index where got (T) and want (the replay's floats) differ in bits; NaN equals NaN.
template <typename T>
std::string FirstMismatch(const std::vector<T>& got, const std::vector<float>& want) {
  for (size_t i = 0; i < want.size(); ++i) {
    const float g = static_cast<float>(got[i]);
    if (std::isnan(g) && std::isnan(want[i])) continue;
    if (Bits(got[i]) != ReplayBits<T>(want[i])) {
      std::ostringstream s;
      s << "element " << i << ": lngrad " << g << " (0x" << std::hex << Bits(got[i]) << "), replay "
        << want[i] << " (0x" << ReplayBits<T>(want[i]) << ")";
      return s.str();
    }
  }
  return "";
}

template <typename T>
std::vector<float> Floats(const std::vector<T>& v) {
  return std::vector<float>(v.begin(), v.end());
}

// Random values in [-range, range] rounded to T, with specials sprinkled (+0, -0 and, when
// `nan`, NaN and infinities), and whole rows of -0 when `zeroRows`.
template <typename T>
std::vector<T> Data(uint32_t seed, uint32_t rows, uint32_t pad, float range, bool specials) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-range, range);
  std::uniform_int_distribution<int> pick(0, 15);
  std::vector<T> v(size_t{rows} * pad);
  for (auto& x : v) {
    const int p = pick(gen);
    float f = d(gen);
    if (p == 0) f = 0.0f;
    if (p == 1) f = -0.0f;
    if (specials && p == 2) f = std::numeric_limits<float>::quiet_NaN();
    if (specials && p == 3) f = -std::numeric_limits<float>::infinity();
    x = T(f);
  }
  if (rows > 2) {  // row 1 all -0: the +0 lanes and the Adds 0 of the sequences show
    for (uint32_t j = 0; j < pad; ++j) v[pad + j] = T(-0.0f);
  }
  return v;
}

// ---- Reduce ----

// srcShape: `first` rows of `last` elements.
struct Shape {
  uint32_t first, last;
};

template <typename T, class P, bool reuse>
void CallReduce(RedOp op, Ub& ub, const uint32_t shape[2], bool withTmp) {
  AscendC::LocalTensor<T> dst = ub.Get<T>(0), src = ub.Get<T>(1);
  AscendC::LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
#define LNGRAD_RP_CALL(NAME)                                \
  if (withTmp) {                                            \
    AscendC::NAME<T, P, reuse>(dst, src, tmp, shape, true); \
  } else {                                                  \
    AscendC::NAME<T, P, reuse>(dst, src, shape, true);      \
  }
  if constexpr (std::is_same_v<T, float>) {  // the APIs with a float form only
    switch (op) {
      case RedOp::kSum:
        LNGRAD_RP_CALL(ReduceSum) return;
      case RedOp::kProd:
        LNGRAD_RP_CALL(ReduceProd) return;
      case RedOp::kAny:
        LNGRAD_RP_CALL(ReduceAny) return;
      case RedOp::kAll:
        LNGRAD_RP_CALL(ReduceAll) return;
      default:
        break;
    }
  }
  switch (op) {
    case RedOp::kMean:
      LNGRAD_RP_CALL(ReduceMean) break;
    case RedOp::kMax:
      LNGRAD_RP_CALL(ReduceMax) break;
    case RedOp::kMin:
      LNGRAD_RP_CALL(ReduceMin) break;
    default:
      break;
  }
#undef LNGRAD_RP_CALL
}

// ---- Sum and Mean ----

// Sum or Mean<T, Acc> over `outter` rows of n (both overloads) on `soc` (Ascend910B1 or the 950),
// against the replay of that product's sequence.
template <typename T, typename Acc = T>
void CheckRows(bool mean, uint32_t outter, uint32_t n, bool withTmp, uint32_t seed,
               const char* soc = k910B) {
  const uint32_t inner = (n + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
  const std::vector<T> in = Data<T>(seed, outter, inner, 3.0f, false);
  std::vector<T> dst;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(1, in);
        AscendC::LocalTensor<T> d = ub.Get<T>(0), s = ub.Get<T>(1);
        AscendC::LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        if (mean) {
          const AscendC::MeanParams p{outter, inner, n};
          withTmp ? AscendC::Mean<T, Acc>(d, s, tmp, p) : AscendC::Mean<T, Acc>(d, s, p);
        } else {
          const AscendC::SumParams p{outter, inner, n};
          withTmp ? AscendC::Sum(d, s, tmp, p) : AscendC::Sum(d, s, p);
        }
        dst = ub.Take<T>(0);
      },
      soc);
  const RowsCall c{std::is_same_v<T, half>, !std::is_same_v<Acc, T>, outter, inner, n};
  const bool on950 = std::string(soc) == k950;
  const std::vector<float> want = mean ? (on950 ? ReplayMean3510 : ReplayMean)(c, Floats(in))
                                       : (on950 ? ReplaySum3510 : ReplaySum)(c, Floats(in));
  EXPECT_EQ(FirstMismatch(dst, want), "")
      << (mean ? "Mean " : "Sum ") << outter << "x" << n << (c.isHalf ? " half" : " float")
      << (c.accFloat ? " (float acc)" : "") << (withTmp ? " tmp" : " stack") << " on " << soc;
}

// AntiQuant's parameter values: uniform in [-range, range] with NaN, infinities, zeros, huge
// and tiny ones (every 11th element from the list).
template <typename D>
std::vector<D> Params(uint32_t seed, size_t n, float range) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-range, range);
  const float specials[] = {std::numeric_limits<float>::quiet_NaN(), -0.0f,  3e38f, 0.0f,
                            -std::numeric_limits<float>::infinity(), 1e-30f, 0.5f};
  std::vector<D> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = D(i % 11 == 7 ? specials[i / 11 % 7] : d(gen));
  return v;
}

}  // namespace lngrad_replay::testing
