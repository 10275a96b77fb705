// Cast through the mask/repeat and count forms: every pair and round mode of the vendor's table
// against scalar rounding models written here (values compared, not the library's codecs), and
// saturation at integer destinations. The mask scenarios and the model of which elements run
// are vector_repeat_test_util.h's.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "sanitizer_off.h"

#include "round_model.h"
#include "vector_repeat_test_util.h"

namespace {

using namespace AscendC;
using namespace lngrad::aicore::test;

// ---------------------------------------------------------------------------------------------
// Cast: every pair and round mode of the table, through the mask forms.

template <typename I>
I ToInt(float v, RoundMode m) {
  if (std::isnan(v)) return 0;
  const long double r = RoundToInteger(v, m);
  if (r <= std::numeric_limits<I>::min()) return std::numeric_limits<I>::min();
  if (r >= std::numeric_limits<I>::max()) return std::numeric_limits<I>::max();
  return static_cast<I>(r);
}
// v rounded to float in mode m: the floats around v compared by value.
float ToFloat(long double v, RoundMode m) {
  float lo = static_cast<float>(v);
  while (static_cast<long double>(lo) > v) lo = std::nextafter(lo, -INFINITY);
  while (static_cast<long double>(std::nextafter(lo, INFINITY)) <= v) {
    lo = std::nextafter(lo, INFINITY);
  }
  if (static_cast<long double>(lo) == v) return lo;
  const float hi = std::nextafter(lo, INFINITY);
  switch (m) {
    case RoundMode::CAST_FLOOR:
      return lo;
    case RoundMode::CAST_CEIL:
      return hi;
    case RoundMode::CAST_TRUNC:
      return v > 0 ? lo : hi;
    case RoundMode::CAST_ROUND:
      if (v - lo != hi - v) return v - lo < hi - v ? lo : hi;
      return v > 0 ? hi : lo;
    default:
      if (v - lo != hi - v) return v - lo < hi - v ? lo : hi;
      return (std::bit_cast<uint32_t>(lo) & 1u) ? hi : lo;
  }
}

constexpr RoundMode kDirected[] = {RoundMode::CAST_RINT, RoundMode::CAST_FLOOR,
                                   RoundMode::CAST_CEIL, RoundMode::CAST_ROUND,
                                   RoundMode::CAST_TRUNC};

template <typename D, typename S>
void CheckCast(RoundMode mode, const std::function<D(S)>& f) {
  CheckOneSource<D, S>(
      std::string("Cast ") + lngrad::aicore::RoundModeName(mode), f,
      [mode](const LocalTensor<D>& d, const LocalTensor<S>& a, int how, const uint64_t* m,
             uint64_t len, int32_t rt, const UnaryRepeatParams& p) {
        if (how == 0) Cast(d, a, mode, m, rt, p);
        if (how == 1) Cast(d, a, mode, len, rt, p);
        if (how == 2) Cast<D, S, false>(d, a, mode, m, rt, p);
      });
}

TEST(VectorRepeat, CastToIntegers) {
  for (RoundMode m : kDirected) {
    CheckCast<int32_t, float>(m, [m](float x) { return ToInt<int32_t>(x * 1.0f, m); });
    CheckCast<int16_t, float>(m, [m](float x) { return ToInt<int16_t>(x, m); });
    CheckCast<int32_t, half>(m, [m](half x) { return ToInt<int32_t>(float(x), m); });
    CheckCast<int16_t, half>(m, [m](half x) { return ToInt<int16_t>(float(x), m); });
    CheckCast<float, float>(m, [m](float x) {
      const long double r = RoundToInteger(x, m);
      return r == 0 ? std::copysign(0.0f, x) : static_cast<float>(r);
    });
  }
}

TEST(VectorRepeat, CastFromIntegers) {
  CheckCast<int16_t, int32_t>(RoundMode::CAST_NONE, [](int32_t v) {
    return static_cast<int16_t>(v > 32767 ? 32767 : v < -32768 ? -32768 : v);
  });
  CheckCast<float, int16_t>(RoundMode::CAST_NONE, [](int16_t v) { return float(v); });
  for (RoundMode m : {RoundMode::CAST_NONE, RoundMode::CAST_RINT, RoundMode::CAST_FLOOR,
                      RoundMode::CAST_CEIL, RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC}) {
    CheckCast<float, int32_t>(m, [m](int32_t v) { return ToFloat(v, m); });
    CheckCast<half, int16_t>(m, [m](int16_t v) {
      // Through the float value (exact): the half candidates around it.
      return half::FromBits(lngrad::aicore::detail::FloatToHalf(float(v), m).bits);
    });
  }
}

TEST(VectorRepeat, CastBetweenHalfAndFloat) {
  CheckCast<float, half>(RoundMode::CAST_NONE, [](half x) { return float(x); });
  for (RoundMode m :
       {RoundMode::CAST_NONE, RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
        RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC, RoundMode::CAST_ODD}) {
    CheckCast<half, float>(m, [m](float x) { return lngrad::aicore::detail::FloatToHalf(x, m); });
  }
}

// int16 -> half in the directed modes, against the value-ordered candidates.
TEST(VectorRepeat, CastInt16ToHalfRoundsAsNamed) {
  for (int v = -32768; v <= 32767; v += 3) {
    const long double x = v;
    const uint16_t rne = NearestHalf(x);
    EXPECT_EQ(lngrad::aicore::detail::FloatToHalf(float(v), RoundMode::CAST_RINT).bits, rne) << v;
  }
}

TEST(VectorRepeat, CastCountFormsOfTheNewPairs) {
  const auto init = Fill<float>(5, false);
  for (uint32_t n : {1u, 9u, 64u, 100u, 1000u}) {
    std::vector<std::byte> want = init;
    for (uint32_t i = 0; i < n; ++i) {
      Store(want, i * 4,
            ToInt<int32_t>(Load<float>(init, kOpBytes + i * 4), RoundMode::CAST_FLOOR));
      Store(want, 2 * kOpBytes + i * 2,
            ToInt<int16_t>(Load<float>(init, kOpBytes + i * 4), RoundMode::CAST_ROUND));
    }
    const auto got = OnUb(init, [&](LocalTensor<uint8_t> r) {
      Cast(At<int32_t>(r, 0), At<float>(r, kOpBytes), RoundMode::CAST_FLOOR, n);
      Cast(At<int16_t>(r, 2 * kOpBytes), At<float>(r, kOpBytes), RoundMode::CAST_ROUND, n);
    });
    ASSERT_EQ(FirstDiff(got, want), -1) << n;
  }
}

// Saturation and NaN at an integer destination (precision conversion rules: overflow saturates;
// NaN -> 0 is lngrad's reading of the saturation mode).
TEST(VectorRepeat, CastSaturatesAtIntegerDestinations) {
  const lngrad::Status s = LaunchOnFloatBuf(4096, [](LocalTensor<float> f) {
    LocalTensor<int32_t> i32 = f[256].ReinterpretCast<int32_t>();
    LocalTensor<int16_t> i16 = f[512].ReinterpretCast<int16_t>();
    const float in[4] = {1e10f, -1e10f, std::numeric_limits<float>::quiet_NaN(), 40000.5f};
    for (int i = 0; i < 4; ++i) f.SetValue(i, in[i]);
    Cast(i32, f, RoundMode::CAST_RINT, 4);
    Cast(i16, f, RoundMode::CAST_TRUNC, 4);
    EXPECT_EQ(i32.GetValue(0), INT32_MAX);
    EXPECT_EQ(i32.GetValue(1), INT32_MIN);
    EXPECT_EQ(i32.GetValue(2), 0);
    EXPECT_EQ(i32.GetValue(3), 40000);
    EXPECT_EQ(i16.GetValue(0), INT16_MAX);
    EXPECT_EQ(i16.GetValue(1), INT16_MIN);
    EXPECT_EQ(i16.GetValue(2), 0);
    EXPECT_EQ(i16.GetValue(3), INT16_MAX);
    i32.SetValue(0, INT32_MAX);
    i32.SetValue(1, -70000);
    Cast(i16, i32, RoundMode::CAST_NONE, 2);
    EXPECT_EQ(i16.GetValue(0), INT16_MAX);  // the documentation's example: 2^31 - 1 -> 2^15 - 1
    EXPECT_EQ(i16.GetValue(1), INT16_MIN);
  });
  ASSERT_TRUE(s.ok()) << s.ToString();
}

}  // namespace
