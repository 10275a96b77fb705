// The 8-bit floating-point formats and conversions (lngrad_aicore/fp8.h, simt_api/asc_fp8.h)
// against models written separately in this file:
// - the value of every code, built by enumerating each format's fields (HiFloat8 band by band);
// - CAST_ROUND to HiFloat8 and CAST_RINT to e4m3/e5m2 as "the nearest value of the format, ties
//   away / to the even code", found by searching the sorted values, with the overflow
//   rules as extra values (HiFloat8: 1.5 * 2^15 is the infinity code; e4m3: the NaN code's 480;
//   e5m2: 2^16);
// - CAST_HYBRID as a transcription of the reference's bit-level pseudo-code (Cast page: fields
//   of the source word, the threshold from its own low bits).
// The implementation and these models come from the same documents (the reference's data-type
// pages and the Cast pseudo-code, the HiFloat8 decoder of the kit's scalar conversions), read
// twice: the implementation rounds an unpacked value, the models work on values and on the
// source's bits. Inputs: every half, every code's neighbours and midpoints, random floats.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "lngrad_aicore/fp8.h"
#include "simt_api/asc_fp8.h"

namespace {

namespace fp8 = lngrad::aicore::fp8;

// ---- the value of every code, by construction -------------------------------------------------

std::map<int, double> Hif8Table() {
  std::map<int, double> t;
  const auto put = [&](int code, double v) {
    ASSERT_EQ(t.count(code), 0u) << code;
    t[code] = v;
  };
  for (int s = 0; s < 2; ++s) {
    const double sign = s ? -1.0 : 1.0;
    const int sb = s << 7;
    for (int m = 1; m <= 7; ++m) put(sb | m, sign * std::ldexp(1.0, m - 23));  // denormal
    for (int f = 0; f < 8; ++f) {
      put(sb | 0x08 | f, sign * (1.0 + f / 8.0));  // D = 0001, E = 0
      for (int es = 0; es < 2; ++es) {
        const int e = es ? -1 : 1;  // D = 001, one exponent bit: its sign
        put(sb | 0x10 | (es << 3) | f, sign * std::ldexp(1.0 + f / 8.0, e));
        for (int x = 0; x < 2; ++x) {  // D = 01: |E| = 2 + x
          put(sb | 0x20 | (es << 4) | (x << 3) | f,
              sign * std::ldexp(1.0 + f / 8.0, es ? -(2 + x) : 2 + x));
        }
      }
    }
    for (int es = 0; es < 2; ++es) {
      for (int x = 0; x < 4; ++x) {
        for (int f = 0; f < 4; ++f) {  // D = 10: |E| = 4 + x, 2 fraction bits
          put(sb | 0x40 | (es << 4) | (x << 2) | f,
              sign * std::ldexp(1.0 + f / 4.0, es ? -(4 + x) : 4 + x));
        }
      }
      for (int x = 0; x < 8; ++x) {
        for (int f = 0; f < 2; ++f) {  // D = 11: |E| = 8 + x, 1 fraction bit
          const int code = sb | 0x60 | (es << 4) | (x << 1) | f;
          if (es == 0 && x == 7 && f == 1) {
            put(code, sign * INFINITY);  // 1.5 * 2^15 is the infinity code
          } else {
            put(code, sign * std::ldexp(1.0 + f / 2.0, es ? -(8 + x) : 8 + x));
          }
        }
      }
    }
  }
  put(0x00, 0.0);
  put(0x80, NAN);
  return t;
}

// e4m3fn (bias 7) and e5m2 (bias 15): value = 2^(E - bias) * 1.F, denormals 2^(1 - bias) * 0.F.
double MiniValue(int code, int exponent_bits, int bias) {
  const int fraction_bits = 7 - exponent_bits;
  const int e = (code >> fraction_bits) & ((1 << exponent_bits) - 1);
  const int f = code & ((1 << fraction_bits) - 1);
  const double sign = (code & 0x80) ? -1.0 : 1.0;
  const double scale = std::ldexp(1.0, fraction_bits);
  if (exponent_bits == 5 && e == 31) return f == 0 ? sign * INFINITY : NAN;
  if (exponent_bits == 4 && e == 15 && f == 7) return NAN;
  if (e == 0) return sign * std::ldexp(f / scale, 1 - bias);
  return sign * std::ldexp(1.0 + f / scale, e - bias);
}

half HalfFromBits(uint32_t bits) {
  half h;
  h.bits = static_cast<uint16_t>(bits);
  return h;
}

bool SameFloat(double want, float got) {
  if (std::isnan(want)) return std::isnan(got);
  return static_cast<double>(got) == want && std::signbit(got) == std::signbit(want);
}

TEST(SimtFp8, EveryHif8CodeDecodes) {
  const auto table = Hif8Table();
  ASSERT_EQ(table.size(), 256u);  // the fields cover every code exactly once
  for (const auto& [code, want] : table) {
    EXPECT_TRUE(SameFloat(want, fp8::Hif8ToFloat(static_cast<uint8_t>(code)))) << "code " << code;
  }
  // Values the reference states: its D = 01 example 14 = 2^3 * 1.75, the saturation value 2^15,
  // the smallest denormal 2^-22, and 1.
  EXPECT_EQ(fp8::Hif8ToFloat(0x2E), 14.0f);
  EXPECT_EQ(fp8::Hif8ToFloat(0x6E), 32768.0f);
  EXPECT_EQ(fp8::Hif8ToFloat(0xEE), -32768.0f);
  EXPECT_EQ(fp8::Hif8ToFloat(0x01), std::ldexp(1.0f, -22));
  EXPECT_EQ(fp8::Hif8ToFloat(0x08), 1.0f);
  EXPECT_TRUE(std::isinf(fp8::Hif8ToFloat(0x6F)) && std::isinf(fp8::Hif8ToFloat(0xEF)));
  EXPECT_TRUE(std::isnan(fp8::Hif8ToFloat(0x80)));
}

TEST(SimtFp8, EveryE4m3AndE5m2CodeDecodes) {
  for (int code = 0; code < 256; ++code) {
    EXPECT_TRUE(SameFloat(MiniValue(code, 4, 7), fp8::E4m3ToFloat(static_cast<uint8_t>(code))))
        << code;
    EXPECT_TRUE(SameFloat(MiniValue(code, 5, 15), fp8::E5m2ToFloat(static_cast<uint8_t>(code))))
        << code;
  }
  EXPECT_EQ(fp8::E4m3ToFloat(0x7E), 448.0f);  // the documented largest values
  EXPECT_EQ(fp8::E5m2ToFloat(0x7B), 57344.0f);
}

// ---- nearest-value models ---------------------------------------------------------------------

struct Point {
  double value;
  int code;  // the magnitude code it encodes to (an overflow marker: -1)
  bool odd;  // its last fraction bit (for ties to even)
};

// Sorted non-negative values of a format plus its overflow points.
std::vector<Point> Hif8Points() {
  std::vector<Point> p;
  for (const auto& [code, v] : Hif8Table()) {
    if (code < 0x80 && std::isfinite(v)) p.push_back({v, code, (code & 1) != 0});
  }
  p.push_back({1.5 * 32768.0, -1, true});  // the infinity code
  p.push_back({65536.0, -1, false});
  std::sort(p.begin(), p.end(), [](const Point& a, const Point& b) { return a.value < b.value; });
  return p;
}
std::vector<Point> MiniPoints(int exponent_bits, int bias, double overflow_value,
                              bool overflow_odd) {
  std::vector<Point> p;
  for (int code = 0; code < 0x80; ++code) {
    const double v = MiniValue(code, exponent_bits, bias);
    if (std::isfinite(v)) p.push_back({v, code, (code & 1) != 0});
  }
  p.push_back({overflow_value, -1, overflow_odd});  // the next value past the largest
  std::sort(p.begin(), p.end(), [](const Point& a, const Point& b) { return a.value < b.value; });
  return p;
}

enum class Tie { kAway, kEven };

// The magnitude code nearest to |x| (ties as given); -1 for overflow.
int Nearest(const std::vector<Point>& points, double x, Tie tie) {
  const double a = std::fabs(x);
  if (a >= points.back().value) return -1;
  const auto hi = std::upper_bound(points.begin(), points.end(), a,
                                   [](double v, const Point& p) { return v < p.value; });
  const auto lo = hi - 1;
  if (lo->value == a) return lo->code;
  const double dl = a - lo->value, dh = hi->value - a;
  if (dl < dh) return lo->code;
  if (dh < dl) return hi->code;
  if (tie == Tie::kAway) return hi->code;
  return lo->odd ? hi->code : lo->code;
}

// Inputs: every representable value's neighbours, the midpoints between consecutive values and
// their neighbours, powers of two around the ranges, random floats over the exponent range.
std::vector<float> InputsAround(const std::vector<Point>& points) {
  std::vector<float> in;
  const auto around = [&](double v) {
    const float f = static_cast<float>(v);
    in.insert(in.end(), {f, std::nextafter(f, 0.0f), std::nextafter(f, INFINITY)});
  };
  for (size_t i = 0; i < points.size(); ++i) {
    around(points[i].value);
    if (i + 1 < points.size()) around((points[i].value + points[i + 1].value) / 2);
  }
  for (int e = -30; e <= 20; ++e) around(std::ldexp(1.0, e) * 1.5);
  std::mt19937 rng(8);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_int_distribution<int> exponent(-26, 17);
  for (int i = 0; i < 200000; ++i) {
    in.push_back(static_cast<float>(std::ldexp(mantissa(rng), exponent(rng))));
  }
  std::uniform_int_distribution<uint32_t> bits;
  for (int i = 0; i < 100000; ++i) in.push_back(std::bit_cast<float>(bits(rng)));
  const size_t n = in.size();
  for (size_t i = 0; i < n; ++i) in.push_back(-in[i]);
  return in;
}

// What a model's magnitude code becomes: the sign, overflow, zero.
// The model of CAST_ROUND into HiFloat8: the nearest value, ties away; infinity past the range
// (or the largest value, saturated); NaN (0, saturated); no -0.
uint8_t Hif8RoundModel(const std::vector<Point>& points, float x, bool sat) {
  if (std::isnan(x)) return sat ? 0x00 : 0x80;
  const int code = std::isinf(x) ? -1 : Nearest(points, x, Tie::kAway);
  if (code < 0) return static_cast<uint8_t>((x < 0 ? 0x80 : 0) | (sat ? 0x6E : 0x6F));
  if (code == 0) return 0x00;
  return static_cast<uint8_t>((x < 0 ? 0x80 : 0) | code);
}

TEST(SimtFp8, FloatToHif8RoundIsNearestTiesAway) {
  const auto points = Hif8Points();
  for (const float x : InputsAround(points)) {
    for (const bool sat : {false, true}) {
      ASSERT_EQ(Hif8RoundModel(points, x, sat), fp8::FloatToHif8(x, fp8::Hif8Round::kRound, sat))
          << "x " << x << " bits " << std::bit_cast<uint32_t>(x) << " sat " << sat;
    }
  }
}

TEST(SimtFp8, EveryHalfToHif8RoundIsNearestTiesAway) {
  const auto points = Hif8Points();
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const float x = static_cast<float>(HalfFromBits(h));
    for (const bool sat : {false, true}) {
      ASSERT_EQ(Hif8RoundModel(points, x, sat),
                fp8::HalfToHif8(static_cast<uint16_t>(h), fp8::Hif8Round::kRound, sat))
          << "half bits " << h << " sat " << sat;
    }
  }
}

// ---- CAST_HYBRID: the reference's pseudo-code, field by field
// ------------------------------------

// tmp2 is the source word; `w` its width (32 or 16), `mb` its fraction bits, `bias` its exponent
// bias; frac is the `fb` bits from the TA bit on; thr the source's low bits (float: 13..0;
// half: {bit 0, 1}).
uint8_t HybridPseudoCode(uint32_t tmp2, int w, bool sat) {
  const int mb = w == 32 ? 23 : 10, bias = w == 32 ? 127 : 15, fb = w == 32 ? 14 : 2;
  const uint32_t top = w == 32 ? 0xFF : 0x1F;
  const uint32_t s = tmp2 >> (w - 1);
  uint32_t expf = (tmp2 >> mb) & top;
  uint32_t man = tmp2 & ((1u << mb) - 1);
  const uint32_t thr = w == 32 ? (tmp2 & 0x3FFF) : (((tmp2 & 1) << 1) | 1);
  const auto sign_inf = [&] { return static_cast<uint8_t>((s << 7) | (sat ? 0x6E : 0x6F)); };
  if (expf == top) return man != 0 ? (sat ? 0x00 : 0x80) : sign_inf();
  int ev = static_cast<int>(expf) - bias;
  if (expf == 0) {  // the source's own subnormals, taken at their value (lngrad's choice)
    if (man == 0) return 0x00;
    ev = 1 - bias;
    while ((man >> mb) == 0) man <<= 1, --ev;
    man &= (1u << mb) - 1;
  }
  if (ev > 15) return sign_inf();
  if (ev < -23) return 0x00;
  const auto bits = [&](int hi, int lo) { return (man >> lo) & ((1u << (hi - lo + 1)) - 1); };
  if (ev == -23) {
    const uint32_t f = (1u << (fb - 1)) | bits(mb - 1, mb - fb + 1);
    return f >= thr ? static_cast<uint8_t>((s << 7) | 1) : 0x00;
  }
  int kept;  // M = tmp2[mb-1 : mb-kept], TA = the next bit, frac = fb bits from TA on
  const int a = std::abs(ev);
  if (ev <= -16)
    kept = 0;
  else if (a <= 3)
    kept = 3;
  else if (a <= 7)
    kept = 2;
  else
    kept = 1;
  uint32_t m = kept ? bits(mb - 1, mb - kept) : static_cast<uint32_t>(ev + 23);
  const uint32_t ta = bits(mb - kept - 1, mb - kept - 1);
  const uint32_t frac = bits(mb - kept - 1, mb - kept - fb);
  const bool up = a <= 3 ? ta == 1 : frac >= thr;
  if (up) {
    if (ev <= -16) {
      ++ev;
      m = ev == -15 ? 0 : static_cast<uint32_t>(ev + 23);
    } else if (++m == (1u << kept)) {
      m = 0, ++ev;
    }
  }
  if (ev > 15) return sign_inf();
  // HiF encoding of {s, Ev, M}
  uint32_t code;
  const uint32_t es = ev < 0 ? 1 : 0, e = static_cast<uint32_t>(std::abs(ev));
  if (ev <= -16)
    code = m;
  else if (e == 0)
    code = 0x08 | m;
  else if (e == 1)
    code = 0x10 | (es << 3) | m;
  else if (e <= 3)
    code = 0x20 | (es << 4) | ((e - 2) << 3) | m;
  else if (e <= 7)
    code = 0x40 | (es << 4) | ((e - 4) << 2) | m;
  else
    code = 0x60 | (es << 4) | ((e - 8) << 1) | m;
  if (code == 0x6F) return sign_inf();
  return static_cast<uint8_t>((s << 7) | code);
}

TEST(SimtFp8, FloatToHif8HybridFollowsThePseudoCode) {
  for (const float x : InputsAround(Hif8Points())) {
    const uint32_t u = std::bit_cast<uint32_t>(x);
    for (const bool sat : {false, true}) {
      ASSERT_EQ(HybridPseudoCode(u, 32, sat), fp8::FloatToHif8(x, fp8::Hif8Round::kHybrid, sat))
          << "x " << x << " bits " << u << " sat " << sat;
    }
  }
  // The threshold is the source's own low 14 bits: an exactly representable 16 (bits 13..0 all
  // zero) rounds up to 20; 16 plus one ulp (threshold 1, discarded bits 0) stays 16.
  EXPECT_EQ(fp8::Hif8ToFloat(fp8::FloatToHif8(16.0f, fp8::Hif8Round::kHybrid, false)), 20.0f);
  EXPECT_EQ(fp8::Hif8ToFloat(
                fp8::FloatToHif8(std::nextafter(16.0f, 32.0f), fp8::Hif8Round::kHybrid, false)),
            16.0f);
  // The 3-bit bands (|E| <= 3) round half away in both modes.
  EXPECT_EQ(fp8::FloatToHif8(1.0625f, fp8::Hif8Round::kHybrid, false),
            fp8::FloatToHif8(1.0625f, fp8::Hif8Round::kRound, false));
}

TEST(SimtFp8, EveryHalfToHif8HybridFollowsThePseudoCode) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    for (const bool sat : {false, true}) {
      ASSERT_EQ(HybridPseudoCode(h, 16, sat),
                fp8::HalfToHif8(static_cast<uint16_t>(h), fp8::Hif8Round::kHybrid, sat))
          << "half bits " << h << " sat " << sat;
    }
  }
}

// ---- e4m3 / e5m2 ------------------------------------------------------------------------------

TEST(SimtFp8, FloatToE4m3AndE5m2AreNearestEven) {
  struct Format {
    int exponent_bits, bias;
    double overflow;  // the first value past the largest finite one, and its last bit
    bool overflow_odd;
    uint8_t max, nan, overflow_code;
    uint8_t (*fn)(float, bool);
  };
  const Format formats[] = {{4, 7, 480.0, true, 0x7E, 0x7F, 0x7F, &fp8::FloatToE4m3},
                            {5, 15, 65536.0, false, 0x7B, 0x7E, 0x7C, &fp8::FloatToE5m2}};
  for (const Format& f : formats) {
    const auto points = MiniPoints(f.exponent_bits, f.bias, f.overflow, f.overflow_odd);
    std::vector<float> in = InputsAround(points);
    for (uint32_t h = 0; h < 0x10000; ++h) {
      in.push_back(static_cast<float>(HalfFromBits(h)));
    }
    for (const float x : in) {
      for (const bool sat : {false, true}) {
        const uint8_t sign = std::signbit(x) ? 0x80 : 0x00;
        uint8_t want;
        if (std::isnan(x)) {
          want = sat ? 0x00 : static_cast<uint8_t>(sign | f.nan);
        } else {
          const int code = std::isinf(x) ? -1 : Nearest(points, x, Tie::kEven);
          want = code >= 0 ? static_cast<uint8_t>(sign | code)
                           : static_cast<uint8_t>(sign | (sat ? f.max : f.overflow_code));
        }
        ASSERT_EQ(want, f.fn(x, sat)) << "bias " << f.bias << " x " << x << " sat " << sat;
      }
    }
  }
  // 448 is the largest e4m3 value: 464 (halfway to the NaN code's 480) is a tie that goes to
  // 448's even code, anything above overflows. (The reference's example "2.5 -> 2" cannot
  // hold: 2.5 = 1.010b * 2 is an e4m3 value.)
  EXPECT_EQ(fp8::FloatToE4m3(464.0f, false), 0x7E);
  EXPECT_EQ(fp8::FloatToE4m3(std::nextafter(464.0f, 480.0f), false), 0x7F);
  EXPECT_EQ(fp8::E4m3ToFloat(fp8::FloatToE4m3(2.5625f, false)), 2.5f);
}

// ---- the SIMT functions -------------------------------------------------------------------------

TEST(SimtFp8, PairFunctionsConvertEachComponent) {
  const float2 f{3.3f, -1e9f};
  const hifloat8x2_t r = __float22hif82_rna(f);
  EXPECT_EQ(r.x.bits, fp8::FloatToHif8(3.3f, fp8::Hif8Round::kRound, false));
  EXPECT_EQ(r.y.bits, 0xEF);  // -inf
  EXPECT_EQ(__float22hif82_rna_sat(f).y.bits, 0xEE);
  EXPECT_EQ(__float22hif82_rh(float2{16.0f, 1.0f}).x.bits,
            fp8::FloatToHif8(16.0f, fp8::Hif8Round::kHybrid, false));
  EXPECT_EQ(__float22hif82_rh_sat(float2{NAN, 1.0f}).x.bits, 0x00);
  const half2 h{half(0.3f), half(-65504.0f)};
  EXPECT_EQ(__half22hif82_rna(h).x.bits,
            fp8::HalfToHif8(half(0.3f).bits, fp8::Hif8Round::kRound, false));
  EXPECT_EQ(__half22hif82_rna_sat(h).y.bits, 0xEE);
  EXPECT_EQ(__half22hif82_rh(h).y.bits, 0xEF);
  EXPECT_EQ(__half22hif82_rh_sat(h).y.bits, 0xEE);

  const hifloat8x2_t p{hifloat8_t::FromBits(0x2E), hifloat8_t::FromBits(0xEE)};
  EXPECT_EQ(__hif822float2(p).x, 14.0f);
  EXPECT_EQ(__hif822float2(p).y, -32768.0f);
  EXPECT_EQ(static_cast<float>(__hif822half2(p).x), 14.0f);
  EXPECT_EQ(static_cast<float>(__hif822half2(p).y), -32768.0f);
  // Every HiFloat8 value is exact in half.
  for (int c = 0; c < 256; ++c) {
    const hifloat8_t v = hifloat8_t::FromBits(static_cast<uint8_t>(c));
    const half2 back = __hif822half2(hifloat8x2_t{v, v});
    EXPECT_TRUE(SameFloat(fp8::Hif8ToFloat(v.bits), static_cast<float>(back.x))) << c;
  }
  EXPECT_EQ(
      __e4m3x22float2(float8_e4m3x2_t{float8_e4m3_t::FromBits(0x7E), float8_e4m3_t::FromBits(0x80)})
          .x,
      448.0f);
  EXPECT_TRUE(std::signbit(
      __e4m3x22float2(float8_e4m3x2_t{float8_e4m3_t::FromBits(0x7E), float8_e4m3_t::FromBits(0x80)})
          .y));
  EXPECT_TRUE(std::isinf(
      __e5m2x22float2(float8_e5m2x2_t{float8_e5m2_t::FromBits(0xFC), float8_e5m2_t::FromBits(0x01)})
          .x));

  // x in the low byte; the documented special values of the two saturation modes.
  EXPECT_EQ(__asc_cvt_float2_to_fp8x2(float2{448.0f, -2.0f}, __ASC_NOSAT, __ASC_E4M3),
            0x7E | (0xC0 << 8));
  EXPECT_EQ(__asc_cvt_float2_to_fp8x2(float2{INFINITY, NAN}, __ASC_NOSAT, __ASC_E4M3) & 0x7F7F,
            0x7F7F);  // both NaN
  EXPECT_EQ(__asc_cvt_float2_to_fp8x2(float2{INFINITY, NAN}, __ASC_SATFINITE, __ASC_E4M3),
            0x7E);  // 448 and +0
  EXPECT_EQ(__asc_cvt_float2_to_fp8x2(float2{-1e6f, 1e6f}, __ASC_NOSAT, __ASC_E5M2),
            0xFC | (0x7C << 8));
  EXPECT_EQ(__asc_cvt_float2_to_fp8x2(float2{-1e6f, 1e6f}, __ASC_SATFINITE, __ASC_E5M2),
            0xFB | (0x7B << 8));
  // The types' own conversions: hifloat8_t rounds as CAST_ROUND, the others as CAST_RINT.
  EXPECT_EQ(hifloat8_t(3.3f).bits, fp8::FloatToHif8(3.3f, fp8::Hif8Round::kRound, false));
  EXPECT_EQ(static_cast<float>(fp8_e4m3fn_t(2.5625f)), 2.5f);
  EXPECT_EQ(static_cast<float>(fp8_e5m2_t(3.0f)), 3.0f);
}

}  // namespace
