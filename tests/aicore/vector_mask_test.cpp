// The vector mask register and the repeat machinery (lngrad_aicore/mask.h) against a model of
// the vendor's documented semantics written here: SetVectorMask in both modes and prototypes,
// ResetMask, SetMaskCount/SetMaskNorm, the continuous-mask bits, which elements of which
// repeats run, and each operand rule of checked mode.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "kernel_operator.h"

#include "checked_mode_scope.h"

namespace {

using namespace AscendC;
namespace d = lngrad::aicore::detail;
using lngrad::aicore::KernelCheckError;
using lngrad::aicore::test::CheckedModeScope;

// Vendor semantics of the continuous mask (SIMD 计算说明 → 掩码): the register's first len bits,
// at most all 128 (32-bit types read only the low 64 of them).
std::pair<uint64_t, uint64_t> ModelContinuous(int64_t len) {
  uint64_t lo = 0;
  uint64_t hi = 0;
  for (int64_t p = 0; p < 128 && p < len; ++p) {
    if (p < 64) {
      lo |= uint64_t{1} << p;
    } else {
      hi |= uint64_t{1} << (p - 64);
    }
  }
  return {hi, lo};
}

TEST(VectorMask, ContinuousBitsAreTheFirstLenElements) {
  for (uint32_t size : {2u, 4u}) {
    for (int64_t len = 0; len <= 200; ++len) {
      const d::MaskBits b = d::ContinuousMaskBits(len, size);
      const auto [hi, lo] = ModelContinuous(len);
      EXPECT_EQ(b.low, lo) << "len " << len << " size " << size;
      EXPECT_EQ(b.high, hi) << "len " << len << " size " << size;
    }
  }
  EXPECT_EQ(d::ContinuousMaskBits(-5, 2).low, 0u);
}

// The register as every block starts: full mask, Normal mode; SetVectorMask and the mode calls
// change only the running block's.
TEST(VectorMask, RegisterStatePerBlock) {
  const lngrad::Status s = lngrad::aicore::Launch(2, [] {
    auto* ctx = lngrad::aicore::CurrentBlockContext();
    EXPECT_EQ(ctx->mask_low, ~uint64_t{0});
    EXPECT_EQ(ctx->mask_high, ~uint64_t{0});
    EXPECT_FALSE(ctx->mask_counter);
    SetVectorMask<half>(0x1234, 0x5678);
    EXPECT_EQ(ctx->mask_high, 0x1234u);
    EXPECT_EQ(ctx->mask_low, 0x5678u);
    SetVectorMask<float>(10);
    EXPECT_EQ(ctx->mask_high, 0u);
    EXPECT_EQ(ctx->mask_low, 0x3FFu);
    SetVectorMask<half>(70);
    EXPECT_EQ(ctx->mask_high, 0x3Fu);
    EXPECT_EQ(ctx->mask_low, ~uint64_t{0});
    SetMaskCount();
    EXPECT_TRUE(ctx->mask_counter);
    SetVectorMask<half, MaskMode::COUNTER>(1000);
    EXPECT_EQ(ctx->mask_high, 0u);
    EXPECT_EQ(ctx->mask_low, 1000u);
    SetMaskNorm();
    EXPECT_FALSE(ctx->mask_counter);
    ResetMask();
    EXPECT_EQ(ctx->mask_low, ~uint64_t{0});
    EXPECT_EQ(ctx->mask_high, ~uint64_t{0});
    // Left in Counter mode on purpose: the next block must not see it.
    SetMaskCount();
  });
  ASSERT_TRUE(s.ok()) << s.ToString();
}

struct Elem {
  uint32_t r;
  uint64_t offs[3];
  bool operator==(const Elem& o) const {
    return offs[0] == o.offs[0] && offs[1] == o.offs[1] && offs[2] == o.offs[2];
  }
};

struct Layout {
  uint32_t size[3];
  uint32_t blk[3];
  uint32_t rep[3];
};

// Model: positions p of repeat r in order; position p of an operand of s-byte elements is in
// 32-byte block p / (32 / s) of that repeat.
std::vector<Elem> ModelElements(bool counter, uint64_t hi, uint64_t lo, uint64_t count,
                                uint32_t repeat_time, uint32_t mask_size, const Layout& l) {
  std::vector<Elem> out;
  const uint32_t lanes = 256 / mask_size;
  const uint32_t repeats =
      counter ? static_cast<uint32_t>((count + lanes - 1) / lanes) : repeat_time;
  for (uint32_t r = 0; r < repeats; ++r) {
    for (uint32_t p = 0; p < lanes; ++p) {
      bool on;
      if (counter) {
        on = uint64_t{r} * lanes + p < count;
      } else {
        on = p < 64 ? ((lo >> p) & 1) : ((hi >> (p - 64)) & 1);
      }
      if (!on) continue;
      Elem e{r, {0, 0, 0}};
      for (int i = 0; i < 3; ++i) {
        const uint32_t per = 32 / l.size[i];
        e.offs[i] = 32ull * (r * l.rep[i] + (p / per) * l.blk[i]) + (p % per) * l.size[i];
      }
      out.push_back(e);
    }
  }
  return out;
}

std::vector<Elem> PlanElements(const d::RepeatPlan& plan, const Layout& l, std::byte* base) {
  d::RepeatOperand ops[3];
  for (int i = 0; i < 3; ++i) {
    ops[i].view = {base + i * 65536, 65536, nullptr, 0, TPosition::VECCALC};
    ops[i].elem_size = l.size[i];
    ops[i].blk_stride = l.blk[i];
    ops[i].rep_stride = l.rep[i];
  }
  std::vector<Elem> out;
  d::ForEachRun(plan, std::array<const d::RepeatOperand*, 3>{&ops[0], &ops[1], &ops[2]},
                [&](const std::array<std::byte*, 3>& p, uint64_t n) {
                  for (uint64_t k = 0; k < n; ++k) {
                    Elem e{0, {0, 0, 0}};
                    for (int i = 0; i < 3; ++i) {
                      e.offs[i] = static_cast<uint64_t>(p[i] - (base + i * 65536)) + k * l.size[i];
                    }
                    out.push_back(e);
                  }
                });
  return out;
}

TEST(VectorMask, RepeatsVisitExactlyTheActiveElementsInOrder) {
  std::vector<std::byte> mem(3 * 65536);
  const Layout layouts[] = {
      {{2, 2, 2}, {1, 1, 1}, {8, 8, 8}},  {{4, 4, 4}, {1, 1, 1}, {8, 8, 8}},
      {{2, 2, 2}, {2, 1, 3}, {16, 8, 0}}, {{4, 4, 4}, {1, 0, 2}, {9, 0, 1}},
      {{4, 2, 4}, {1, 1, 1}, {8, 4, 8}},  {{2, 4, 2}, {1, 2, 1}, {4, 8, 4}},
  };
  const std::pair<uint64_t, uint64_t> masks[] = {
      {~0ull, ~0ull},  {0, ~0ull},         {0x69A569A569A569A5ull, 0x69A569A569A569A5ull},
      {1ull << 63, 1}, {0, 0xFF00FF00ull}, {0, 0}};
  const lngrad::Status s = lngrad::aicore::Launch(1, [&] {
    for (const Layout& l : layouts) {
      const uint32_t mask_size = std::max({l.size[0], l.size[1], l.size[2]});
      for (const auto& [hi, lo] : masks) {
        for (uint32_t rt : {0u, 1u, 3u, 255u}) {
          const d::RepeatPlan plan =
              d::PlanRepeats("test", mask_size, {d::MaskArg::kBits, hi, lo}, rt);
          const uint64_t lanes_hi = mask_size == 2 ? hi : 0;
          EXPECT_EQ(PlanElements(plan, l, mem.data()),
                    ModelElements(false, lanes_hi, lo, 0, rt, mask_size, l));
        }
      }
      SetMaskCount();
      for (uint64_t count : {0ull, 1ull, 63ull, 64ull, 65ull, 130ull, 1000ull}) {
        SetVectorMask<float>(0, count);
        const d::RepeatPlan plan = d::PlanRepeats("test", mask_size, {}, 7);
        EXPECT_EQ(PlanElements(plan, l, mem.data()),
                  ModelElements(true, 0, 0, count, 7, mask_size, l))
            << "count " << count;
      }
      SetMaskNorm();
    }
  });
  ASSERT_TRUE(s.ok()) << s.ToString();
}

TEST(VectorMask, MaskArgumentsWriteTheRegisterAndPlaceholdersReadIt) {
  const lngrad::Status s = lngrad::aicore::Launch(1, [] {
    auto* ctx = lngrad::aicore::CurrentBlockContext();
    d::PlanRepeats("test", 2, d::LenMaskArg(100, true), 1);
    EXPECT_EQ(ctx->mask_low, ~0ull);
    EXPECT_EQ(ctx->mask_high, (1ull << 36) - 1);
    const uint64_t bits[2] = {5, 9};
    d::PlanRepeats("test", 2, d::BitsMaskArg(bits, true), 1);
    EXPECT_EQ(ctx->mask_low, 5u);
    EXPECT_EQ(ctx->mask_high, 9u);
    // isSetMask = false: the argument is ignored, the register stays.
    const d::RepeatPlan p = d::PlanRepeats("test", 2, d::LenMaskArg(3, false), 2);
    EXPECT_EQ(ctx->mask_low, 5u);
    EXPECT_EQ(p.bits[0], 5u);
    EXPECT_EQ(p.bits[1], 9u);
    EXPECT_EQ(p.repeats, 2u);
    // 32-bit types read maskLow only.
    EXPECT_EQ(d::PlanRepeats("test", 4, {}, 1).bits[1], 0u);
    // Mask 0: nothing runs.
    EXPECT_TRUE(d::PlanRepeats("test", 4, d::LenMaskArg(0, true), 5).Empty());
  });
  ASSERT_TRUE(s.ok()) << s.ToString();
}

std::string CheckOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const KernelCheckError& e) {
    lngrad::aicore::DismissKernelCheck(e);  // handled here: not the launch's failure
    return e.check() + ": " + e.message();
  }
  return "";
}

TEST(VectorMask, RepeatTimeAndMaskRules) {
  const lngrad::Status s = lngrad::aicore::Launch(1, [] {
    {
      CheckedModeScope on(true);
      const std::string m = CheckOf([] { d::PlanRepeats("Add", 4, {}, 256); });
      EXPECT_NE(m.find("repeat_times"), std::string::npos) << m;
      EXPECT_NE(m.find("repeatTime is 256"), std::string::npos) << m;
      EXPECT_NE(CheckOf([] { d::PlanRepeats("Add", 4, {}, -1); }).find("repeat_times"),
                std::string::npos);
      const std::string neg =
          CheckOf([] { d::PlanRepeats("Add", 4, d::LenMaskArg(uint64_t(-3), true), 1); });
      EXPECT_NE(neg.find("vector_mask: Add: mask is -3"), std::string::npos) << neg;
    }
    {
      CheckedModeScope off(false);
      // The device's 8-bit operand: 256 + 3 runs 3 repeats.
      EXPECT_EQ(d::PlanRepeats("Add", 4, d::LenMaskArg(64, true), 259).repeats, 3u);
    }
    SetMaskCount();
    SetVectorMask<float>(0, (1ull << 32) + 1);
    EXPECT_NE(CheckOf([] { d::PlanRepeats("Add", 4, {}, 1); }).find("vector_mask"),
              std::string::npos);
    SetMaskNorm();
    ResetMask();
  });
  ASSERT_TRUE(s.ok()) << s.ToString();
}

}  // namespace
