// Compare, CompareScalar / Compares and Select (lngrad_aicore/compare_ops.h) against scalar
// models written here from Compare.md, Compares.md and Select.md: the little-endian bit mask
// output, IEEE comparisons (NaN, signed zeros), whole-repeat count forms, the repeat strides,
// the mask ignored on A2/A3 and honoured on the 950, the three SELMODEs' use of selMask, the
// mask filter of Select, and each checked-mode rule.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "sanitizer_off.h"

#include "repeat_test_util.h"

namespace {

using namespace AscendC;
using namespace lngrad::aicore::test;

constexpr uint32_t kBytes = kUbBufBytes;

template <typename T>
constexpr uint32_t Lanes() {
  return 256 / sizeof(T);
}

bool CmpModel(CMPMODE m, double a, double b) {
  switch (m) {
    case CMPMODE::LT:
      return a < b;
    case CMPMODE::GT:
      return a > b;
    case CMPMODE::EQ:
      return a == b;
    case CMPMODE::LE:
      return a <= b;
    case CMPMODE::GE:
      return a >= b;
    case CMPMODE::NE:
      return a != b;
  }
  return false;
}

const CMPMODE kModes[] = {CMPMODE::LT, CMPMODE::GT, CMPMODE::EQ,
                          CMPMODE::LE, CMPMODE::GE, CMPMODE::NE};

// Operands with ties, NaNs and both zeros.
template <typename T>
std::vector<T> Operand(uint32_t seed) {
  std::vector<T> v = TieValues<T>(seed, kBytes / sizeof(T));
  if constexpr (!std::is_integral_v<T>) {
    for (size_t i = 0; i < v.size(); i += 37) v[i] = T(std::nanf(""));
    for (size_t i = 5; i < v.size(); i += 23) v[i] = T(-0.0f);
    for (size_t i = 9; i < v.size(); i += 29) v[i] = T(0.0f);
  }
  return v;
}

void SetBit(std::vector<uint8_t>& bits, size_t k) {
  bits[k / 8] |= static_cast<uint8_t>(1u << (k % 8));
}

template <typename T>
void CheckCompareCount() {
  const auto a = Operand<T>(1);
  const auto b = Operand<T>(2);
  for (CMPMODE m : kModes) {
    if (std::is_same_v<T, int32_t> && m != CMPMODE::EQ) continue;
    for (uint32_t count : {Lanes<T>(), 3 * Lanes<T>(), 40 * Lanes<T>()}) {
      for (bool scalar : {false, true}) {
        const T s = b[3];
        std::vector<uint8_t> want(kBytes, 0xA5);
        for (uint32_t k = 0; k < count; ++k) want[k / 8] = 0;
        for (uint32_t k = 0; k < count; ++k) {
          if (CmpModel(m, static_cast<double>(a[k]), static_cast<double>(scalar ? s : b[k]))) {
            SetBit(want, k);
          }
        }
        std::vector<uint8_t> got;
        OnBlock([&](Ub& ub) {
          ub.Put<T>(0, a);
          ub.Put<T>(1, b);
          ub.Put<uint8_t>(2, {}, 0xA5);
          if (scalar) {
            CompareScalar(ub.Get<uint8_t>(2), ub.Get<T>(0), s, m, count);
          } else {
            Compare(ub.Get<uint8_t>(2), ub.Get<T>(0), ub.Get<T>(1), m, count);
          }
          got = ub.Take<uint8_t>(2);
        });
        ExpectSameBits(got, want,
                       std::string(scalar ? "CompareScalar" : "Compare") + " mode " +
                           std::to_string(static_cast<int>(m)) + " count " + std::to_string(count));
      }
    }
  }
}

TEST(CompareOps, CountFormFloat) { CheckCompareCount<float>(); }
TEST(CompareOps, CountFormHalf) { CheckCompareCount<half>(); }
TEST(CompareOps, CountFormInt32Eq) { CheckCompareCount<int32_t>(); }

TEST(CompareOps, SignedZerosAreEqualAndNanIsOnlyNotEqual) {
  std::vector<float> a(64, -0.0f);
  std::vector<float> b(64, 0.0f);
  a[1] = std::nanf("");
  for (CMPMODE m : kModes) {
    std::vector<uint8_t> got;
    OnBlock([&](Ub& ub) {
      ub.Put<float>(0, a);
      ub.Put<float>(1, b);
      Compare(ub.Get<uint8_t>(2), ub.Get<float>(0), ub.Get<float>(1), m, 64);
      got = ub.Take<uint8_t>(2);
    });
    const bool zero = m == CMPMODE::EQ || m == CMPMODE::LE || m == CMPMODE::GE;
    EXPECT_EQ(got[0] & 1, zero ? 1 : 0) << static_cast<int>(m);
    EXPECT_EQ((got[0] >> 1) & 1, m == CMPMODE::NE ? 1 : 0) << static_cast<int>(m);
  }
}

// Repeat forms: strides of the sources; the mask ignored on A2, honoured on the 950.
template <typename T>
void CheckCompareRepeat(const char* soc, bool honours_mask) {
  const auto a = Operand<T>(3);
  const auto b = Operand<T>(4);
  constexpr uint32_t L = Lanes<T>();
  constexpr uint32_t E = 32 / sizeof(T);
  struct Case {
    uint8_t repeat, blk0, blk1, rep0, rep1;
    uint32_t mask;
  };
  for (const Case& c : {Case{1, 1, 1, 8, 8, L}, Case{4, 1, 2, 8, 16, L / 2 + 1},
                        Case{3, 2, 1, 16, 4, 7}, Case{2, 0, 1, 1, 8, L}}) {
    for (bool scalar : {false, true}) {
      const CMPMODE m = CMPMODE::LE;
      const T s = T(0.0f);
      std::vector<uint8_t> want(kBytes, 0xA5);
      for (uint32_t k = 0; k < c.repeat * L; ++k) want[k / 8] = 0;
      for (uint32_t r = 0; r < c.repeat; ++r) {
        for (uint32_t p = 0; p < L; ++p) {
          if (honours_mask && p >= c.mask) continue;
          const size_t ia = (size_t{r} * c.rep0 + p / E * c.blk0) * E + p % E;
          const size_t ib = (size_t{r} * c.rep1 + p / E * c.blk1) * E + p % E;
          if (CmpModel(m, static_cast<double>(a[ia]), static_cast<double>(scalar ? s : b[ib]))) {
            SetBit(want, size_t{r} * L + p);
          }
        }
      }
      std::vector<uint8_t> got;
      OnBlock(
          [&](Ub& ub) {
            ub.Put<T>(0, a);
            ub.Put<T>(1, b);
            ub.Put<uint8_t>(2, {}, 0xA5);
            if (scalar) {
              CompareScalar(ub.Get<uint8_t>(2), ub.Get<T>(0), s, m, uint64_t{c.mask}, c.repeat,
                            UnaryRepeatParams(1, c.blk0, 8, c.rep0));
            } else {
              Compare(ub.Get<uint8_t>(2), ub.Get<T>(0), ub.Get<T>(1), m, uint64_t{c.mask}, c.repeat,
                      BinaryRepeatParams(1, c.blk0, c.blk1, 8, c.rep0, c.rep1));
            }
            got = ub.Take<uint8_t>(2);
          },
          soc);
      ExpectSameBits(got, want,
                     std::string(soc) + (scalar ? " CompareScalar" : " Compare") + " repeat " +
                         std::to_string(c.repeat));
    }
  }
}

TEST(CompareOps, RepeatFormFloatA2) { CheckCompareRepeat<float>("Ascend910B1", false); }
TEST(CompareOps, RepeatFormHalfA2) { CheckCompareRepeat<half>("Ascend910B1", false); }
TEST(CompareOps, RepeatFormFloat950) { CheckCompareRepeat<float>("Ascend950PR_9599", true); }

TEST(CompareOps, ComparesIsCompareScalar) {
  const auto a = Operand<half>(5);
  std::vector<uint8_t> x;
  std::vector<uint8_t> y;
  OnBlock([&](Ub& ub) {
    ub.Put<half>(0, a);
    CompareScalar(ub.Get<uint8_t>(1), ub.Get<half>(0), half(1.0f), CMPMODE::GT, 512);
    Compares(ub.Get<uint8_t>(2), ub.Get<half>(0), half(1.0f), CMPMODE::GT, 512);
    x = ub.Take<uint8_t>(1);
    y = ub.Take<uint8_t>(2);
  });
  ExpectSameBits(x, y, "Compares vs CompareScalar");
}

// Compare into the CMPMASK register, read back with GetCmpMask, loaded with SetCmpMask.
TEST(CompareOps, CmpMaskRegister) {
  const auto a = Operand<half>(6);
  const auto b = Operand<half>(7);
  std::vector<uint8_t> want(kBytes, 0xA5);
  for (uint32_t k = 0; k < 16; ++k) want[k] = 0;
  for (uint32_t k = 0; k < 128; ++k) {
    if (CmpModel(CMPMODE::GE, static_cast<double>(a[k]), static_cast<double>(b[k]))) {
      SetBit(want, k);
    }
  }
  std::vector<uint8_t> got;
  std::vector<uint8_t> again;
  OnBlock([&](Ub& ub) {
    ub.Put<half>(0, a);
    ub.Put<half>(1, b);
    ub.Put<uint8_t>(2, {}, 0xA5);
    ub.Put<uint8_t>(3, {}, 0xA5);
    Compare(ub.Get<half>(0), ub.Get<half>(1), CMPMODE::GE, uint64_t{128}, BinaryRepeatParams());
    GetCmpMask(ub.Get<uint8_t>(2));
    got = ub.Take<uint8_t>(2);
    // SetCmpMask loads what GetCmpMask gives back.
    LocalTensor<uint8_t> ones = ub.Get<uint8_t>(3);
    SetCmpMask(ones);
    GetCmpMask(ub.Get<uint8_t>(2));
    again = ub.Take<uint8_t>(2);
  });
  ExpectSameBits(got, want, "Compare into CMPMASK");
  for (uint32_t k = 0; k < 16; ++k) EXPECT_EQ(again[k], 0xA5) << k;
}

// ---- Select ----

template <typename T>
void CheckSelect() {
  constexpr uint32_t L = Lanes<T>();
  constexpr uint32_t E = 32 / sizeof(T);
  std::vector<T> a(kBytes / sizeof(T));
  std::vector<T> b(kBytes / sizeof(T));
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = T(static_cast<float>(i % 200));
    b[i] = T(-static_cast<float>(i % 300) - 1.0f);
  }
  std::mt19937 gen(9);
  std::vector<uint8_t> sel(kBytes);
  for (auto& x : sel) x = static_cast<uint8_t>(gen());
  const T fill = T(-7.5f);
  const T scalar = T(42.0f);
  const auto bit = [&](size_t k) { return ((sel[k / 8] >> (k % 8)) & 1) != 0; };
  for (SELMODE mode : {SELMODE::VSEL_CMPMASK_SPR, SELMODE::VSEL_TENSOR_SCALAR_MODE,
                       SELMODE::VSEL_TENSOR_TENSOR_MODE}) {
    const bool use_scalar = mode == SELMODE::VSEL_TENSOR_SCALAR_MODE;
    const auto pick = [&](size_t k_bit, size_t ia, size_t ib) {
      return bit(mode == SELMODE::VSEL_CMPMASK_SPR ? k_bit % L : k_bit) ? a[ia]
             : use_scalar                                               ? scalar
                                                                        : b[ib];
    };
    // dst after `select` (on dst, sel, src0, src1) from a, b, sel and a dst of `fill`.
    const auto run = [&](const auto& select) {
      std::vector<T> got;
      OnBlock([&](Ub& ub) {
        ub.Put<T>(0, a);
        ub.Put<T>(1, b);
        ub.Put<uint8_t>(2, sel);
        ub.Put<T>(3, {}, fill);
        select(ub.Get<T>(3), ub.Get<uint8_t>(2), ub.Get<T>(0), ub.Get<T>(1));
        got = ub.Take<T>(3);
      });
      return got;
    };
    // Count form.
    for (uint32_t count : {1u, L - 3, 5 * L + 9}) {
      std::vector<T> want(kBytes / sizeof(T), fill);
      for (uint32_t k = 0; k < count; ++k) want[k] = pick(k, k, k);
      const std::vector<T> got =
          run([&](const auto& dst, const auto& s, const auto& x, const auto& y) {
            if (use_scalar) {
              Select(dst, s, x, scalar, mode, count);
            } else {
              Select(dst, s, x, y, mode, count);
            }
          });
      ExpectSameBits(got, want,
                     "Select count mode " + std::to_string(static_cast<int>(mode)) + " count " +
                         std::to_string(count));
    }
    // Repeat form with a bit mask and strides: masked-off lanes keep dst.
    const uint64_t mask[2] = {0xFFFF0000FFFF00F3ull, L > 64 ? 0x8000000000000001ull : 0};
    const uint8_t repeat = 3;
    const BinaryRepeatParams rp(2, 1, 1, 20, 8, 12);
    std::vector<T> want(kBytes / sizeof(T), fill);
    for (uint32_t r = 0; r < repeat; ++r) {
      for (uint32_t p = 0; p < L; ++p) {
        if (((mask[p / 64] >> (p % 64)) & 1) == 0) continue;
        const auto at = [&](uint32_t blk, uint32_t rep) {
          return (size_t{r} * rep + size_t{p / E} * blk) * E + p % E;
        };
        want[at(2, 20)] = pick(size_t{r} * L + p, at(1, 8), at(1, 12));
      }
    }
    const std::vector<T> got =
        run([&](const auto& dst, const auto& s, const auto& x, const auto& y) {
          if (use_scalar) {
            Select(dst, s, x, scalar, mode, mask, repeat, rp);
          } else {
            Select(dst, s, x, y, mode, mask, repeat, rp);
          }
        });
    ExpectSameBits(got, want, "Select repeat form mode " + std::to_string(static_cast<int>(mode)));
  }
}

TEST(SelectOps, Float) { CheckSelect<float>(); }
TEST(SelectOps, Half) { CheckSelect<half>(); }

// ---- checked mode ----

TEST(CompareSelectChecks, Rules) {
  ExpectCheck(
      [](Ub& ub) {
        Compare(ub.Get<uint8_t>(2), ub.Get<float>(0), ub.Get<float>(1), CMPMODE::LT, 65u);
      },
      "count_alignment", "count is 65");
  ExpectCheck(
      [](Ub& ub) {
        Compare(ub.Get<uint8_t>(2), ub.Get<int32_t>(0), ub.Get<int32_t>(1), CMPMODE::LT, 64u);
      },
      "cmp_mode", "cmpMode LT");
  ExpectCheck(
      [](Ub& ub) {
        Compare(ub.Get<uint8_t>(2).operator[](8), ub.Get<half>(0), ub.Get<half>(1), CMPMODE::EQ,
                128u);
      },
      "ub_alignment", "dst is at UB address");
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<uint8_t> bits = ub.buf[2].Get<uint8_t>(15);
        Compare(bits, ub.Get<half>(0), ub.Get<half>(1), CMPMODE::EQ, 128u);
      },
      "tensor_bounds", "dst is accessed up to byte 16");
  ExpectCheck(
      [](Ub& ub) {
        Select(ub.Get<float>(3), ub.Get<uint8_t>(2), ub.Get<float>(0), ub.Get<float>(1),
               SELMODE::VSEL_TENSOR_SCALAR_MODE, 64u);
      },
      "sel_mode", "VSEL_TENSOR_SCALAR_MODE takes a scalar");
  ExpectCheck(
      [](Ub& ub) {
        Select(ub.Get<float>(3), ub.Get<uint8_t>(2), ub.Get<float>(0), 1.0f,
               SELMODE::VSEL_TENSOR_TENSOR_MODE, 64u);
      },
      "sel_mode", "needs VSEL_TENSOR_SCALAR_MODE");
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<uint8_t> sel = ub.buf[2].Get<uint8_t>(16);
        Select(ub.Get<float>(3), sel, ub.Get<float>(0), ub.Get<float>(1),
               SELMODE::VSEL_TENSOR_TENSOR_MODE, 256u);
      },
      "tensor_bounds", "selMask is accessed up to byte 32");
  ExpectCheck(
      [](Ub& ub) {
        Compare(ub.Get<uint8_t>(2), ub.Get<float>(0), ub.Get<float>(1), CMPMODE::EQ, uint64_t{64},
                static_cast<uint8_t>(0), BinaryRepeatParams());
      },
      "", "");
}

TEST(CompareSelectSanitizer, SelectWritesOnlyActiveLanes) {
  // A mask of the first 8 lanes: dst[7] is written, dst[8] is not.
  for (uint32_t read : {7u, 8u}) {
    const std::string f = lngrad::aicore::test::SanitizerFindings(
        [&] {
          LocalTensor<float> a(TPosition::VECCALC, 0, 64);
          LocalTensor<float> b(TPosition::VECCALC, 256, 64);
          LocalTensor<uint8_t> sel(TPosition::VECCALC, 512, 32);
          LocalTensor<float> d(TPosition::VECCALC, 1024, 64);
          Duplicate(a, 1.0f, 64);
          Duplicate(b, 2.0f, 64);
          Duplicate(sel.ReinterpretCast<uint16_t>(), uint16_t{0x5555}, 16);
          Select(d, sel, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, uint64_t{8}, 1,
                 BinaryRepeatParams());
          volatile float x = d.GetValue(read);
          (void)x;
        },
        lngrad::aicore::san::kInitcheck);
    if (read == 7) {
      EXPECT_EQ(f, "");
    } else {
      EXPECT_NE(f.find("initcheck"), std::string::npos) << f;
    }
  }
}

}  // namespace
