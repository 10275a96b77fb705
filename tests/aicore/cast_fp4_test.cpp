// Cast between bfloat16_t and the 950's 4-bit floats (fp4x2_e2m1_t, fp4x2_e1m2_t), count and
// mask/repeat forms, against tables written here from the formats' definitions (sign, exponent
// with bias 1, mantissa; docs/ascendc_compat.md, "Cast") and the reference
// page's rules (saturation to the largest magnitude, NaN -> 0), not from lngrad_aicore/fp4.h.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "checked_mode_scope.h"
#include "kernel_operator.h"
#include "run_kernel.h"
#include "sanitizer_off.h"

namespace {

using namespace AscendC;
using lngrad::aicore::test::On;
using lngrad::aicore::test::RunKernel;

constexpr const char* k950 = "Ascend950PR_9599";

// Codes 0..15 (sign in bit 3) of each format, by hand.
constexpr float kE2m1[16] = {0.0f,  0.5f,  1.0f,  1.5f,  2.0f,  3.0f,  4.0f,  6.0f,
                             -0.0f, -0.5f, -1.0f, -1.5f, -2.0f, -3.0f, -4.0f, -6.0f};
constexpr float kE1m2[16] = {0.0f,  0.25f,  0.5f,  0.75f,  1.0f,  1.25f,  1.5f,  1.75f,
                             -0.0f, -0.25f, -0.5f, -0.75f, -1.0f, -1.25f, -1.5f, -1.75f};

float Bf16(uint16_t bits) { return std::bit_cast<float>(uint32_t{bits} << 16); }

// The code a mode picks for v among the 16 of `table`: the candidates at or below v and at or
// above v, chosen per mode; a zero keeps v's sign; past the largest magnitude the largest of
// v's sign; NaN code 0.
uint8_t Expect(const float* table, float v, RoundMode m) {
  if (std::isnan(v)) return 0;
  const bool neg = std::signbit(v);
  if (std::fabs(v) >= table[7]) return neg ? 15 : 7;
  int down = -1, up = -1;  // the largest value <= v and the smallest >= v, of v's sign for zeros
  for (int c = 0; c < 16; ++c) {
    if ((table[c] == 0.0f) && (std::signbit(table[c]) != neg)) continue;
    if (table[c] <= v && (down < 0 || table[c] > table[down])) down = c;
    if (table[c] >= v && (up < 0 || table[c] < table[up])) up = c;
  }
  if (table[down] == v) return static_cast<uint8_t>(down);
  const int toward0 = neg ? up : down, away = neg ? down : up;
  const float dz = std::fabs(v - table[toward0]), da = std::fabs(table[away] - v);
  switch (m) {
    case RoundMode::CAST_FLOOR:
      return static_cast<uint8_t>(down);
    case RoundMode::CAST_CEIL:
      return static_cast<uint8_t>(up);
    case RoundMode::CAST_TRUNC:
      return static_cast<uint8_t>(toward0);
    case RoundMode::CAST_ROUND:
      return static_cast<uint8_t>(da <= dz ? away : toward0);
    default:  // RINT: nearest, a tie to the code with mantissa bit 0
      if (da != dz) return static_cast<uint8_t>(da < dz ? away : toward0);
      return static_cast<uint8_t>((toward0 & 1) == 0 ? toward0 : away);
  }
}

// Cast<D, S> of n elements (count form, or the mask/repeat form with the whole-repeat mask).
template <typename D, typename S>
std::vector<uint8_t> RunCast(const std::vector<uint8_t>& src, uint32_t n, RoundMode m,
                             bool repeat) {
  const uint32_t dBytes = std::is_same_v<D, bfloat16_t> ? 2 * n : n / 2;
  std::vector<uint8_t> out(dBytes);
  const auto failures = RunKernel(
      1,
      [&] {
        TPipe pipe;
        TBuf<> sb, db;
        pipe.InitBuffer(sb, static_cast<uint32_t>(src.size() + 32));
        pipe.InitBuffer(db, dBytes + 32);
        LocalTensor<S> s = sb.Get<uint8_t>().template ReinterpretCast<S>();
        LocalTensor<D> d = db.Get<uint8_t>().template ReinterpretCast<D>();
        std::memcpy(s.HostPtr(), src.data(), src.size());
        if (repeat) {  // 128 lanes a repeat: 8 blocks of bfloat16_t, 2 of the 4-bit type
          const UnaryRepeatParams p = std::is_same_v<D, bfloat16_t> ? UnaryRepeatParams{1, 1, 8, 2}
                                                                    : UnaryRepeatParams{1, 1, 2, 8};
          Cast<D, S>(d, s, m, uint64_t{128}, static_cast<int32_t>(n / 128), p);
        } else {
          Cast(d, s, m, n);
        }
        std::memcpy(out.data(), d.HostPtr(), dBytes);
      },
      On(k950));
  EXPECT_TRUE(failures.empty()) << (failures.empty() ? "" : failures[0].message);
  return out;
}

template <typename F>
void CheckDecode(const float* table, bool repeat) {
  std::vector<uint8_t> src(128);  // 256 codes: every nibble pair
  for (uint32_t i = 0; i < 128; ++i) src[i] = static_cast<uint8_t>(i * 2 + 0x31);
  const std::vector<uint8_t> out = RunCast<bfloat16_t, F>(src, 256, RoundMode::CAST_NONE, repeat);
  for (uint32_t i = 0; i < 256; ++i) {
    const uint8_t code = (src[i / 2] >> (4 * (i % 2))) & 0xF;
    uint16_t bits;
    std::memcpy(&bits, out.data() + 2 * i, 2);
    const float got = Bf16(bits);
    EXPECT_TRUE(got == table[code] && std::signbit(got) == std::signbit(table[code]))
        << "code " << int{code} << " gave " << got;
  }
}

// Every bfloat16_t pattern (the count form), or every fourth (the repeat form: 128 repeats).
template <typename F>
void CheckEncode(const float* table, RoundMode m, bool repeat) {
  const uint32_t n = repeat ? 16384 : 65536, step = repeat ? 4 : 1;
  std::vector<uint8_t> src(2 * n);
  for (uint32_t i = 0; i < n; ++i) {
    const uint16_t b = static_cast<uint16_t>(i * step + (repeat ? 1 : 0));
    std::memcpy(src.data() + 2 * i, &b, 2);
  }
  const std::vector<uint8_t> out = RunCast<F, bfloat16_t>(src, n, m, repeat);
  for (uint32_t i = 0; i < n; ++i) {
    uint16_t b;
    std::memcpy(&b, src.data() + 2 * i, 2);
    const uint8_t got = (out[i / 2] >> (4 * (i % 2))) & 0xF;
    ASSERT_EQ(int{got}, int{Expect(table, Bf16(b), m)})
        << "bf16 0x" << std::hex << b << " (" << Bf16(b) << ") mode " << static_cast<int>(m);
  }
}

TEST(CastFp4, EveryCodeWidensToBfloat16Exactly) {
  for (bool repeat : {false, true}) {
    CheckDecode<fp4x2_e2m1_t>(kE2m1, repeat);
    CheckDecode<fp4x2_e1m2_t>(kE1m2, repeat);
  }
}

TEST(CastFp4, EveryBfloat16RoundsInEachListedMode) {
  for (RoundMode m : {RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
                      RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC}) {
    for (bool repeat : {false, true}) {
      CheckEncode<fp4x2_e2m1_t>(kE2m1, m, repeat);
      CheckEncode<fp4x2_e1m2_t>(kE1m2, m, repeat);
    }
  }
}

// The reference page's example: 2.5 to e2m1 is 2 (RINT, FLOOR, TRUNC) or 3 (CEIL, ROUND).
TEST(CastFp4, ThePagesExample) {
  const uint16_t b = 0x4020;  // 2.5
  std::vector<uint8_t> src(4);
  std::memcpy(src.data(), &b, 2);
  std::memcpy(src.data() + 2, &b, 2);
  const std::pair<RoundMode, uint8_t> want[] = {{RoundMode::CAST_RINT, 0x4},
                                                {RoundMode::CAST_FLOOR, 0x4},
                                                {RoundMode::CAST_TRUNC, 0x4},
                                                {RoundMode::CAST_CEIL, 0x5},
                                                {RoundMode::CAST_ROUND, 0x5}};
  for (const auto& [m, code] : want) {
    const std::vector<uint8_t> out = RunCast<fp4x2_e2m1_t, bfloat16_t>(src, 2, m, false);
    EXPECT_EQ(int{out[0]}, code * 0x11);
  }
}

// Checked mode: the pairs are the 950's (cast_pair elsewhere), bfloat16_t -> fp4 takes the five
// listed modes (CAST_NONE and CAST_ODD refused), the count keeps byte pairs.
TEST(CastFp4, CheckedModeRefusals) {
  lngrad::aicore::test::CheckedModeScope checked(true);
  auto check = [](const char* soc, RoundMode m, uint32_t n) {
    const auto failures = RunKernel(
        1,
        [&] {
          TPipe pipe;
          TBuf<> sb, db;
          pipe.InitBuffer(sb, 1024);
          pipe.InitBuffer(db, 1024);
          Duplicate(sb.Get<int16_t>(), int16_t{0}, 512);
          Cast(db.Get<uint8_t>().template ReinterpretCast<fp4x2_e1m2_t>(),
               sb.Get<uint8_t>().template ReinterpretCast<bfloat16_t>(), m, n);
        },
        On(soc));
    return failures.empty() ? std::string() : failures[0].check;
  };
  EXPECT_EQ(check(k950, RoundMode::CAST_TRUNC, 64), "");
  EXPECT_EQ(check("Ascend910B1", RoundMode::CAST_TRUNC, 64), "cast_pair");
  EXPECT_EQ(check(k950, RoundMode::CAST_NONE, 64), "cast_round_mode");
  EXPECT_EQ(check(k950, RoundMode::CAST_ODD, 64), "cast_round_mode");
  EXPECT_EQ(check(k950, RoundMode::CAST_RINT, 63), "cast_int4");
}

}  // namespace
