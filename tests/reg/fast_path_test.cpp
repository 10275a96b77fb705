// Tests of layer reg: the engines' fast path, on every SIMD target the machine runs. The
// whole-register kernels (lngrad_reg/simd.h) against a float64 oracle (an IEEE float operation
// is the double operation rounded once to float: +, -, *, /, sqrt), the copy against the bytes,
// the mask register's whole-word forms (FirstLanes, AllLanes, SelectedPrefix) against a
// bit-by-bit reading of the layout the reference gives (one bit per byte of a register, lane i
// of bN at bit i * N / 8), the reductions with every lane selected against the scalar model
// (reg_model.h, a separate reading of the reference's tree), and the stores of a prefix of lanes
// inside a vector function (one copy) against the bytes and the checks they must still raise.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "c_api/asc_simd.h"
#include "capi_test_util.h"
#include "hwy/targets.h"
#include "lngrad_aicore/check.h"
#include "lngrad_reg/registers.h"
#include "lngrad_reg/simd.h"
#include "reg_model.h"

namespace {

namespace reg = lngrad::reg;
namespace aicore = lngrad::aicore;
using reg::detail::g_simd;
using namespace reg::testing;

constexpr uint32_t kLanes = reg::kLanes<float>;

// 64 operands: signed zeros, infinities, NaN, subnormals, the extremes, then random floats of
// every magnitude.
void FillOperands(float* v, uint32_t seed) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const float specials[] = {0.0f,    -0.0f, kInf,  -kInf,   std::nanf(""), 1e-45f,
                            -3e-39f, 1.0f,  -1.0f, 3.4e38f, -2.0f,         1.17549435e-38f};
  std::mt19937 rng(seed);
  for (uint32_t i = 0; i < kLanes; ++i) {
    if (i < std::size(specials)) {
      v[(i * 5 + seed) % 12] = specials[i];  // the specials meet each other in other pairs
    } else {
      uint32_t bits = rng();
      std::memcpy(&v[i], &bits, 4);
    }
  }
}

bool SameFloat(float got, double want) {
  const auto w = static_cast<float>(want);
  if (std::isnan(w)) return std::isnan(got);  // NaN payloads are not compared
  return std::memcmp(&got, &w, 4) == 0;
}

// Runs body once per target the machine supports among simd.cpp's, with g_simd on it.
template <class Body>
void EachTarget(Body body) {
  hwy::SetSupportedTargetsForTest(0);
  const int64_t usable = reg::detail::SimdTargets() & hwy::SupportedTargets();
  ASSERT_NE(usable, 0);
  for (int64_t t = usable; t != 0; t &= t - 1) {
    hwy::SetSupportedTargetsForTest(t & -t);
    reg::detail::ChooseSimdForTest();
    SCOPED_TRACE(hwy::TargetName(t & -t));
    body();
  }
  hwy::SetSupportedTargetsForTest(0);
  reg::detail::ChooseSimdForTest();
}

TEST(RegFastPath, BinaryKernelsAgainstDouble) {
  EachTarget([] {
    using Op = reg::detail::VlBinary;
    const auto oracle = [](Op op, double x, double y) {
      return op == Op::kAdd ? x + y : op == Op::kSub ? x - y : op == Op::kMul ? x * y : x / y;
    };
    for (uint32_t seed = 0; seed < 8; ++seed) {
      alignas(32) float a[kLanes], b[kLanes], d[kLanes];
      FillOperands(a, seed);
      FillOperands(b, seed + 100);
      for (int k = 0; k < static_cast<int>(Op::kCount); ++k) {
        g_simd.binary[k](d, a, b);
        for (uint32_t i = 0; i < kLanes; ++i) {
          ASSERT_TRUE(SameFloat(d[i], oracle(static_cast<Op>(k), a[i], b[i])))
              << "op " << k << " lane " << i << ": " << a[i] << ", " << b[i] << " -> " << d[i];
        }
      }
      // dst the same register as an operand (asc_add(a, a, b)).
      float in_place[kLanes];
      std::memcpy(in_place, a, sizeof a);
      g_simd.binary[static_cast<int>(Op::kMul)](in_place, in_place, b);
      for (uint32_t i = 0; i < kLanes; ++i)
        ASSERT_TRUE(SameFloat(in_place[i], double{a[i]} * b[i]));
    }
  });
}

TEST(RegFastPath, SqrtAndCopyKernels) {
  EachTarget([] {
    alignas(32) float a[kLanes], d[kLanes];
    FillOperands(a, 7);
    g_simd.unary[static_cast<int>(reg::detail::VlUnary::kSqrt)](d, a);
    for (uint32_t i = 0; i < kLanes; ++i) {
      ASSERT_TRUE(SameFloat(d[i], std::sqrt(double{a[i]}))) << "lane " << i << ": " << a[i];
    }
    alignas(32) uint8_t src[reg::kVectorBytes + 1], dst[reg::kVectorBytes + 2] = {};
    for (uint32_t i = 0; i < sizeof src; ++i) src[i] = static_cast<uint8_t>(i * 37 + 1);
    g_simd.copy(dst + 1, src + 1);  // UB side unaligned for the vectors: any address works
    EXPECT_EQ(std::memcmp(dst + 1, src + 1, reg::kVectorBytes), 0);
    EXPECT_EQ(dst[0], 0);
    EXPECT_EQ(dst[reg::kVectorBytes + 1], 0);
  });
}

// Lane i of bN: bit i * N / 8; the lane's other bits clear.
TEST(RegFastPath, MaskWordsAgainstBits) {
  for (uint32_t lane_bytes : {1u, 2u, 4u, 8u}) {
    const uint32_t lanes = reg::kVectorBytes / lane_bytes;
    for (uint32_t n = 0; n <= lanes; ++n) {
      const reg::MaskReg m = reg::MaskReg::FirstLanes(n, lane_bytes);
      for (uint32_t k = 0; k < reg::kMaskBytes * 8; ++k) {
        const bool want = k % lane_bytes == 0 && k / lane_bytes < n;
        ASSERT_EQ(((m.bits[k / 8] >> (k % 8)) & 1) != 0, want)
            << "b" << 8 * lane_bytes << " n " << n << " bit " << k;
      }
      // AllLanes of each type: the lowest bit of each of its lanes set (other bits do not matter).
      const auto all = [&](uint32_t bytes) {
        for (uint32_t k = 0; k < reg::kMaskBytes * 8; k += bytes) {
          if (((m.bits[k / 8] >> (k % 8)) & 1) == 0) return false;
        }
        return true;
      };
      EXPECT_EQ(m.AllLanes<uint8_t>(), all(1));
      EXPECT_EQ(m.AllLanes<uint16_t>(), all(2));
      EXPECT_EQ(m.AllLanes<uint32_t>(), all(4));
      EXPECT_EQ(m.AllLanes<uint64_t>(), all(8));
      EXPECT_EQ(m.AllLanes<uint64_t>(), n * lane_bytes > reg::kVectorBytes - 8);  // bit 248 is set
    }
  }
  // One missing lane bit in any of the four words; a set non-lane bit does not count.
  for (uint32_t k = 0; k < reg::kMaskBytes * 8; k += 4) {
    reg::MaskReg m = reg::MaskReg::FirstLanes(64, 4);
    m.SetBit(k, false);
    EXPECT_FALSE(m.AllLanes<float>()) << k;
    m.SetBit(k, true);
    m.SetBit(k + 1, true);
    EXPECT_TRUE(m.AllLanes<float>()) << k;
  }
}

TEST(RegFastPath, MaskPrefixAgainstBits) {
  std::mt19937 rng(5);
  for (uint32_t lane_bytes : {1u, 2u, 4u, 8u}) {
    const uint32_t lanes = reg::kVectorBytes / lane_bytes;
    for (uint32_t trial = 0; trial < 400; ++trial) {
      // A prefix of lanes, then (half the time) one lane bit flipped, and noise in the bits
      // that belong to no lane.
      reg::MaskReg m = reg::MaskReg::FirstLanes(rng() % (lanes + 1), lane_bytes);
      if (trial % 2 == 1) {
        const uint32_t k = rng() % lanes * lane_bytes;
        m.SetBit(k, !m.Bit(k));
      }
      if (lane_bytes > 1) m.SetBit(rng() % lanes * lane_bytes + 1, true);
      int32_t want = 0;  // the model: count the selected lanes from 0, then none may follow
      while (want < static_cast<int32_t>(lanes) && m.Bit(want * lane_bytes)) ++want;
      for (uint32_t i = want; i < lanes; ++i) {
        if (m.Bit(i * lane_bytes)) want = -1;
      }
      ASSERT_EQ(m.SelectedPrefix(lane_bytes), want) << "b" << 8 * lane_bytes << " trial " << trial;
    }
  }
}

TEST(RegFastPath, SumKernelAgainstModel) {
  ModelMask every;
  for (uint32_t i = 0; i < kLanes; ++i) every.bit[4 * i] = true;
  EachTarget([&] {
    std::mt19937 rng(31);
    for (uint32_t trial = 0; trial < 16; ++trial) {
      // Values of mixed signs and magnitudes: a sum in another order rounds differently.
      std::vector<float> a = RandomLanes<float>(rng, kLanes);
      for (uint32_t i = 0; i < kLanes; ++i) a[i] = std::ldexp(a[i], static_cast<int>(rng() % 40));
      const float got = g_simd.sum(a.data());
      ASSERT_TRUE(SameBits(got, ModelTreeSum(a, every, 0, kLanes))) << "trial " << trial;
    }
  });
}

// asc_reduce_* with every lane selected (the fast path: no lane skipped), dst == src included.
TEST(RegFastPath, ReductionsWithEveryLaneAgainstModel) {
  ModelMask every;
  for (uint32_t i = 0; i < kLanes; ++i) every.bit[4 * i] = true;
  std::mt19937 rng(29);
  std::vector<float> a = RandomLanes<float>(rng, kLanes);  // rounding depends on the order
  for (uint32_t i = 0; i < kLanes; ++i) a[i] = std::ldexp(a[i], static_cast<int>(rng() % 40));
  const vector_bool all = asc_create_mask_b32(PAT_ALL);
  vector_float s, mx, blk, in_place = Fill(a);
  asc_reduce_sum(s, Fill(a), all);
  asc_reduce_max(mx, Fill(a), all);
  asc_reduce_sum_datablock(blk, Fill(a), all);
  asc_reduce_sum(in_place, in_place, all);
  EXPECT_TRUE(SameBits(s.lane[0], ModelTreeSum(a, every, 0, kLanes)));
  EXPECT_TRUE(SameBits(in_place.lane[0], s.lane[0]));
  EXPECT_EQ(mx.lane[0], ModelMax(a, every, 0, kLanes));
  for (uint32_t i = 1; i < kLanes; ++i) EXPECT_EQ(s.lane[i] + in_place.lane[i] + mx.lane[i], 0.0f);
  for (uint32_t k = 0; k < 8; ++k) {
    EXPECT_TRUE(SameBits(blk.lane[k], ModelTreeSum(a, every, 8 * k, 8))) << k;
  }
  const auto ints = RandomLanes<int32_t>(rng, kLanes);
  vector_int32_t is;
  asc_reduce_sum(is, Fill(ints), all);
  int64_t exact = 0;
  for (int32_t v : ints) exact += v;
  EXPECT_EQ(is.lane[0], Wrap<int32_t>(exact));
}

__simd_vf__ void StoreFirst(__ubuf__ float* dst, __ubuf__ float* src, uint32_t count) {
  vector_float x;
  asc_loadalign(x, src);
  asc_storealign(dst, x, asc_update_mask_b32(count));
}

TEST(RegFastPath, PrefixStoresInsideAVectorFunction) {
  std::vector<float> seen(72);
  auto failures = Run950([&] {
    __ubuf__ float* src = Ub<float>(0);
    __ubuf__ float* dst = Ub<float>(1024);
    for (uint32_t i = 0; i < 72; ++i) src[i] = float(i) + 0.5f, dst[i] = -1.0f;
    asc_vf_call<StoreFirst>(dst, src, 1u);
    asc_vf_call<StoreFirst>(dst + 8, src + 8, 13u);
    asc_vf_call<StoreFirst>(dst + 32, src, 0u);  // no lane: nothing written
    std::copy(dst, dst + 72, seen.begin());
  });
  ASSERT_TRUE(failures.empty()) << failures[0].message;
  for (uint32_t i = 0; i < 72; ++i) {
    EXPECT_EQ(seen[i], i == 0 || (i >= 8 && i < 21) ? float(i) + 0.5f : -1.0f) << i;
  }
  // Still checked: past the end of UB, and (checked mode) off the 32-byte alignment.
  aicore::SetCheckedMode(true);
  failures = Run950([] {
    const uint64_t ub_floats = aicore::CurrentBlockContext()->ub_size / 4;
    asc_vf_call<StoreFirst>(Ub<float>(0) + ub_floats - 8, Ub<float>(0), 9u);
  });
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].check, aicore::checks::kRegUbBounds);
  failures = Run950([] { asc_vf_call<StoreFirst>(Ub<float>(4), Ub<float>(0), 3u); });
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].check, aicore::checks::kRegAlign);
}

// The tables of every target the machine runs among simd.cpp's.
std::vector<std::pair<const char*, reg::detail::SimdTable>> EveryTargetsTable() {
  std::vector<std::pair<const char*, reg::detail::SimdTable>> tables;
  EachTarget([&] { tables.emplace_back(hwy::TargetName(hwy::SupportedTargets()), g_simd); });
  return tables;
}

// The exp and ln kernels of every target against ops::Exp's and ops::Ln's definition (glibc's
// double exp and log rounded once to float), bit for bit (NaN included: such lanes take the
// definition itself), on the floats whose bits are first + k * stride.
uint64_t Mismatches(reg::detail::VlUnary kernel, double (*definition)(double), uint64_t first,
                    uint64_t stride) {
  const auto tables = EveryTargetsTable();
  uint64_t bad = 0;
  alignas(32) float a[kLanes], want[kLanes], d[kLanes];
  for (uint64_t bits = first; bits < (uint64_t{1} << 32);) {
    for (uint32_t i = 0; i < kLanes; ++i, bits += stride) {
      const auto b = static_cast<uint32_t>(bits);
      std::memcpy(&a[i], &b, 4);
      want[i] = static_cast<float>(definition(static_cast<double>(a[i])));
    }
    for (const auto& [target, table] : tables) {
      for (const bool in_place : {false, true}) {  // dst == a: Exp(y, y)
        if (in_place) std::memcpy(d, a, sizeof a);
        table.unary[static_cast<int>(kernel)](d, in_place ? d : a);
        for (uint32_t i = 0; i < kLanes; ++i) {
          if (std::memcmp(&d[i], &want[i], 4) != 0 && ++bad <= 3) {
            ADD_FAILURE() << target << (in_place ? " in place" : "") << ": kernel "
                          << static_cast<int>(kernel) << " of " << a[i] << " gives " << d[i]
                          << " instead of " << want[i];
          }
        }
      }
    }
  }
  return bad;
}
double Exp(double x) { return std::exp(x); }
double Ln(double x) { return std::log(x); }

TEST(RegFastPath, ExpLnKernelsSampledFloats) {
  EXPECT_EQ(Mismatches(reg::detail::VlUnary::kExp, Exp, 7, 4099), 0u);
  EXPECT_EQ(Mismatches(reg::detail::VlUnary::kLn, Ln, 11, 4099), 0u);
}

// Every float on every target (minutes): label "huge", run by hand
// (ctest -L huge -R reg.exp_ln_every_float, which sets LNGRAD_REG_EVERY_FLOAT=1).
TEST(RegFastPath, ExpLnKernelsEveryFloat) {
  if (std::getenv("LNGRAD_REG_EVERY_FLOAT") == nullptr)
    GTEST_SKIP() << "LNGRAD_REG_EVERY_FLOAT unset";
  EXPECT_EQ(Mismatches(reg::detail::VlUnary::kExp, Exp, 0, 1), 0u);
  EXPECT_EQ(Mismatches(reg::detail::VlUnary::kLn, Ln, 0, 1), 0u);
}

}  // namespace
