// 64-bit sizes on the native path: rows*H beyond 2^31 elements (half tensors of ~4.3 GB each;
// dy, x and dx need ~12.9 GB). Label "huge": excluded from `./dev test` and CI for time and
// memory; run it with `ctest --preset dev -L huge` on a machine with >= 16 GB free.
//
// Rows repeat five patterns, so the expectations are cheap: every dx row must be bitwise the
// dx of its pattern in a 5-row problem (rows are computed independently, docs/math.md §7), in
// particular the rows whose elements lie beyond index 2^31; dbeta and dgamma are checked
// against float64 sums with the bounds of docs/math.md §6.3 and §6.4.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "lngrad/half.h"
#include "lngrad/lngrad.h"

namespace lngrad {
namespace {

constexpr int64_t kH = 16384;
constexpr int64_t kRows = (int64_t{1} << 17) + 1;  // rows*H = 2^31 + 16384 elements
constexpr int64_t kPatterns = 5;

struct FreeDeleter {
  void operator()(Half* p) const { std::free(p); }
};
using HalfBuffer = std::unique_ptr<Half[], FreeDeleter>;

HalfBuffer AllocHalf(int64_t n) {
  return HalfBuffer(static_cast<Half*>(std::malloc(static_cast<size_t>(n) * sizeof(Half))));
}

double HalfSpacing(double v) {
  const double a = std::max(std::fabs(v), 0x1p-14);
  return std::ldexp(1.0, std::ilogb(a) - 10);
}

TEST(Huge, RowsTimesHBeyondTwoToThe31) {
  static_assert(kRows * kH > (int64_t{1} << 31));
  // Pattern rows, their statistics and the 5-row reference.
  std::vector<Half> pdy(kPatterns * kH), px(kPatterns * kH), pmean(kPatterns), pvar(kPatterns);
  std::vector<Half> gamma(kH);
  for (int64_t p = 0; p < kPatterns; ++p) {
    double m = 0, q = 0;
    for (int64_t c = 0; c < kH; ++c) {
      // Small enough that the column sums over 2^17 rows stay finite in half (< 65504).
      pdy[p * kH + c] = Half(static_cast<float>(((c * 7 + p * 13) % 97) - 48) / 2048.0f);
      px[p * kH + c] = Half(static_cast<float>(((c * 11 + p * 5) % 89) - 44) / 16.0f);
      m += px[p * kH + c].ToFloat();
    }
    m /= kH;
    for (int64_t c = 0; c < kH; ++c)
      q += (px[p * kH + c].ToFloat() - m) * (px[p * kH + c].ToFloat() - m);
    pmean[p] = Half(static_cast<float>(m));
    pvar[p] = Half(static_cast<float>(q / kH));
  }
  for (int64_t c = 0; c < kH; ++c) gamma[c] = Half(0.5f + static_cast<float>(c % 13) / 8.0f);
  std::vector<Half> ref_dx(kPatterns * kH), ref_dg(kH), ref_db(kH);
  ASSERT_TRUE(LayerNormBackward({kPatterns, kH}, pdy.data(), px.data(), pmean.data(), pvar.data(),
                                gamma.data(), 1e-5f, ref_dx.data(), ref_dg.data(), ref_db.data())
                  .ok());

  const int64_t n = kRows * kH;
  HalfBuffer dy = AllocHalf(n), x = AllocHalf(n), dx = AllocHalf(n);
  ASSERT_TRUE(dy && x && dx) << "cannot allocate 3 x " << n * 2 / 1e9 << " GB";
  std::vector<Half> mean(kRows), var(kRows), dgamma(kH), dbeta(kH);
  for (int64_t r = 0; r < kRows; ++r) {
    const int64_t p = r % kPatterns;
    std::memcpy(dy.get() + r * kH, pdy.data() + p * kH, kH * sizeof(Half));
    std::memcpy(x.get() + r * kH, px.data() + p * kH, kH * sizeof(Half));
    mean[r] = pmean[p];
    var[r] = pvar[p];
  }
  const Status s = LayerNormBackward({kRows, kH}, dy.get(), x.get(), mean.data(), var.data(),
                                     gamma.data(), 1e-5f, dx.get(), dgamma.data(), dbeta.data());
  ASSERT_TRUE(s.ok()) << s.ToString();

  // Every row, including the last ones (elements 2^31 .. 2^31 + 16383 are row kRows - 1).
  int64_t bad_rows = 0;
  for (int64_t r = 0; r < kRows; ++r) {
    const int64_t p = r % kPatterns;
    if (std::memcmp(dx.get() + r * kH, ref_dx.data() + p * kH, kH * sizeof(Half)) != 0 &&
        bad_rows++ < 5) {
      ADD_FAILURE() << "dx row " << r << " differs from its pattern's row";
    }
  }
  EXPECT_EQ(bad_rows, 0);

  // dbeta[c] = sum_r dy, dgamma[c] = sum_r dy*res with res = (x - mean) * (var + eps)^-0.5,
  // in float64 from the exact inputs. Bounds (docs/math.md §6.3, §6.4): rows*u*sum|term| for
  // the float sums (+3u for res in dgamma), plus half a half spacing for the final rounding.
  int64_t counts[kPatterns];
  for (int64_t p = 0; p < kPatterns; ++p) counts[p] = kRows / kPatterns + (p < kRows % kPatterns);
  const double u = 0x1p-24;
  int64_t bad = 0;
  for (int64_t c = 0; c < kH; ++c) {
    double sb = 0, ab = 0, sg = 0, ag = 0;
    for (int64_t p = 0; p < kPatterns; ++p) {
      const double d = pdy[p * kH + c].ToFloat();
      const double v = static_cast<double>(pvar[p].ToFloat()) + static_cast<double>(1e-5f);
      const double res =
          (px[p * kH + c].ToFloat() - static_cast<double>(pmean[p].ToFloat())) / std::sqrt(v);
      sb += counts[p] * d;
      ab += counts[p] * std::fabs(d);
      sg += counts[p] * d * res;
      ag += counts[p] * std::fabs(d * res);
    }
    const double tb = kRows * u * ab + 0.5 * HalfSpacing(sb);
    const double tg = (kRows + 3) * u * ag + 0.5 * HalfSpacing(sg);
    if (!(std::fabs(dbeta[c].ToFloat() - sb) <= tb) && bad++ < 5) {
      ADD_FAILURE() << "dbeta[" << c << "] = " << dbeta[c].ToFloat() << ", exact " << sb;
    }
    if (!(std::fabs(dgamma[c].ToFloat() - sg) <= tg) && bad++ < 5) {
      ADD_FAILURE() << "dgamma[" << c << "] = " << dgamma[c].ToFloat() << ", exact " << sg;
    }
  }
  EXPECT_EQ(bad, 0);
}

}  // namespace
}  // namespace lngrad
